/*
 * decode_fast.h - the inner step of the scalar UTF-8 transcoders.
 *
 * u8k_decode_fast decodes one non-ASCII character at s[0..len) exactly as
 * u8k_decode_step does, but takes the common case (a well-formed 2-, 3- or
 * 4-octet sequence wholly inside the input) without tables or the
 * per-byte loop: the lead byte's high bits give the length, the others
 * must be 80..BF, and the value range rules out what RFC 3629 forbids
 * (overlongs, surrogates, beyond U+10FFFF). Anything else, errors and
 * sequences cut by the end included, goes to u8k_decode_step, so the two
 * never disagree.
 */
#ifndef UTF8KIT_DECODE_FAST_H
#define UTF8KIT_DECODE_FAST_H

#include "internal.h"

U8K_INLINE utf8kit_status u8k_decode_fast(const unsigned char *s, size_t len, uint32_t *cp,
                                          size_t *n)
{
    unsigned b0 = s[0];
    uint32_t c;
    /* C2..DF, one continuation byte: always valid. */
    if (b0 - 0xC2u < 0x1Eu && len >= 2 && u8k_is_cont(s[1])) {
        *cp = (b0 & 0x1Fu) << 6 | (s[1] & 0x3Fu);
        *n = 2;
        return UTF8KIT_OK;
    }
    /* E0..EF, two continuation bytes: valid unless the value is below
     * U+0800 (overlong, E0 80..9F) or a surrogate (ED A0..BF). */
    if ((b0 & 0xF0u) == 0xE0u && len >= 3 && u8k_is_cont(s[1]) && u8k_is_cont(s[2])) {
        c = (b0 & 0x0Fu) << 12 | (s[1] & 0x3Fu) << 6 | (s[2] & 0x3Fu);
        if (c >= 0x800u && (c & 0xF800u) != 0xD800u) {
            *cp = c;
            *n = 3;
            return UTF8KIT_OK;
        }
    }
    /* F0..F7, three continuation bytes: valid when the value is in
     * U+10000..U+10FFFF (not overlong, not too large). */
    if ((b0 & 0xF8u) == 0xF0u && len >= 4 && u8k_is_cont(s[1]) && u8k_is_cont(s[2]) &&
        u8k_is_cont(s[3])) {
        c = (b0 & 0x07u) << 18 | (s[1] & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 | (s[3] & 0x3Fu);
        if (c - 0x10000u < 0x100000u) {
            *cp = c;
            *n = 4;
            return UTF8KIT_OK;
        }
    }
    return u8k_decode_step(s, len, cp, n);
}

#endif /* UTF8KIT_DECODE_FAST_H */
