/*
 * decode_fast.h - the inner step of the scalar UTF-8 transcoders.
 *
 * u8k_decode_fast decodes one non-ASCII character at s[0..len) exactly as
 * u8k_decode_step does, but takes the common case (a well-formed 2-, 3- or
 * 4-octet sequence wholly inside the input) without the per-byte loop:
 * the lead byte's table cell (internal.h, u8k_first / u8k_accept) gives
 * the length and the second-byte range, the rest must be 80..BF. Anything
 * else, errors and sequences cut by the end included, goes to
 * u8k_decode_step, so the two never disagree.
 */
#ifndef UTF8KIT_DECODE_FAST_H
#define UTF8KIT_DECODE_FAST_H

#include "internal.h"

U8K_INLINE utf8kit_status u8k_decode_fast(const unsigned char *s, size_t len, uint32_t *cp,
                                          size_t *n)
{
    unsigned cell = u8k_first[s[0]], need = cell & 7;
    const struct u8k_range *r = &u8k_accept[cell >> 3];
    if (U8K_LIKELY(need >= 2 && need <= len)) {
        unsigned b1 = s[1];
        if (U8K_LIKELY(b1 - r->lo <= (unsigned)(r->hi - r->lo))) {
            if (need == 2) {
                *cp = (s[0] & 0x1Fu) << 6 | (b1 & 0x3Fu);
                *n = 2;
                return UTF8KIT_OK;
            }
            if (need == 3 && u8k_is_cont(s[2])) {
                *cp = (s[0] & 0x0Fu) << 12 | (b1 & 0x3Fu) << 6 | (s[2] & 0x3Fu);
                *n = 3;
                return UTF8KIT_OK;
            }
            if (need == 4 && u8k_is_cont(s[2]) && u8k_is_cont(s[3])) {
                *cp = (s[0] & 0x07u) << 18 | (b1 & 0x3Fu) << 12 | (s[2] & 0x3Fu) << 6 |
                      (s[3] & 0x3Fu);
                *n = 4;
                return UTF8KIT_OK;
            }
        }
    }
    return u8k_decode_step(s, len, cp, n);
}

#endif /* UTF8KIT_DECODE_FAST_H */
