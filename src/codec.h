/*
 * codec.h - one character at a time, in every encoding utf8kit converts.
 *
 * These are the building blocks of the generic conversion loop
 * (src/convert.c) and of streams (src/stream.c): every encoding is read
 * into code points and written from code points, so any pair works.
 * The bulk fast paths for UTF-8 <-> UTF-16/UTF-32/Latin-1 live in the
 * kernels (internal.h); these functions are their per-character reference.
 */
#ifndef UTF8KIT_CODEC_H
#define UTF8KIT_CODEC_H

#include "internal.h"

/* Longest encoded character u8k_encode_char can write: 6 octets (the
 * RFC 2279 form of U+4000000..U+7FFFFFFF, or a CESU-8 surrogate pair). */
#define U8K_MAX_CHAR_BYTES 6

/* u8k_encoding_valid reports whether enc is one of the 13 encodings of
 * utf8kit_encoding (UTF8KIT_UTF8 .. UTF8KIT_UTF8_RFC2279). */
bool u8k_encoding_valid(utf8kit_encoding enc);

/* u8k_unit_size returns the size in bytes of enc's code unit: 2 for
 * UTF-16 and UCS-2, 4 for UTF-32, 1 otherwise (0 for an invalid enc). */
size_t u8k_unit_size(utf8kit_encoding enc);

/* The 16- and 32-bit unit at s, big-endian when be (any alignment). */
U8K_INLINE uint32_t u8k_load16(const unsigned char *s, bool be)
{
    return be ? (uint32_t)s[0] << 8 | s[1] : (uint32_t)s[1] << 8 | s[0];
}

U8K_INLINE uint32_t u8k_load32(const unsigned char *s, bool be)
{
    return be ? (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | s[3]
              : (uint32_t)s[3] << 24 | (uint32_t)s[2] << 16 | (uint32_t)s[1] << 8 | s[0];
}

/* u8k_decode_char decodes one character at s[0..len) (bytes, len >= 1)
 * in encoding enc (which must be valid). Same conventions as
 * u8k_decode_step:
 *  - OK: *cp is the character, *n its length in bytes.
 *  - an input error: the kind, *cp = U+FFFD, *n = the bytes one
 *    substitution covers (the maximal invalid subpart for the UTF-8
 *    family, one unit for UTF-16/UCS-2/UTF-32/ASCII, one 3-octet surrogate
 *    for CESU-8 and MUTF-8).
 *  - TRUNCATED: s ends inside something well formed so far (a partial
 *    sequence or unit, a UTF-16 high surrogate or CESU-8 high surrogate
 *    that a later chunk may complete); *n = len.
 * Per encoding (see the comments in src/scalar/codec.c for every choice):
 *  UTF-16: an unpaired surrogate is SURROGATE over 2 bytes.
 *  UTF-32: a value above 0x10FFFF is TOO_LARGE, a surrogate SURROGATE.
 *  UCS-2: a surrogate unit is SURROGATE.   ASCII: 80..FF is INVALID_UNIT.
 *  CESU-8: F0..FF are INVALID_LEAD; a lone surrogate is SURROGATE.
 *  MUTF-8: as CESU-8, plus C0 80 (and a raw 00) = U+0000.
 *  RFC 2279: up to 6 octets, values up to 0x7FFFFFFF. */
utf8kit_status u8k_decode_char(utf8kit_encoding enc, const unsigned char *s, size_t len,
                               uint32_t *cp, size_t *n);

/* u8k_decode_char_to is u8k_decode_char for a conversion into `to`: the
 * same, except that UTF-32 read for the RFC 2279 form is UCS-4, so units
 * up to 0x7FFFFFFF are characters there (the two forms round-trip). Every
 * conversion path (one-shot and streams) decodes through this. */
utf8kit_status u8k_decode_char_to(utf8kit_encoding enc, utf8kit_encoding to,
                                  const unsigned char *s, size_t len, uint32_t *cp, size_t *n);

/* u8k_encode_char writes cp in encoding enc to out and returns the number
 * of bytes written (1 to 6), or 0 (nothing written) when enc cannot
 * represent cp: surrogates everywhere; above U+10FFFF except in the
 * RFC 2279 form and UTF-32 (UCS-4, up to 0x7FFFFFFF); above U+FFFF in
 * UCS-2, U+00FF in Latin-1, U+007F in ASCII; the C1 controls that
 * windows-1252 maps elsewhere. MUTF-8 writes U+0000 as C0 80. */
size_t u8k_encode_char(utf8kit_encoding enc, uint32_t cp, unsigned char out[8]);

/* u8k_bom_for writes the byte order mark of enc (U+FEFF encoded in it) to
 * out and returns its length: 3 for the UTF-8 family, 2 for UTF-16 and
 * UCS-2, 4 for UTF-32, 0 (nothing written) for Latin-1, ASCII,
 * windows-1252 and invalid encodings. */
size_t u8k_bom_for(utf8kit_encoding enc, unsigned char out[4]);

/* What the REPLACE policy writes in a target: `repl` (U+FFFD in the
 * target, or the substitute where the target cannot hold U+FFFD) for
 * invalid input, `sub` (the substitute) for a character the target cannot
 * hold. One-shot conversions and streams share it, so they agree. */
struct u8k_subst {
    unsigned char repl[8], sub[8];
    size_t repl_len, sub_len;
};

/* u8k_make_subst fills x for target `to` with the substitute (0 = '?').
 * Returns false when the substitute itself does not fit the target. */
bool u8k_make_subst(struct u8k_subst *x, utf8kit_encoding to, uint32_t substitute);

/* u8k_cp1252_high[b - 0x80]: the code point windows-1252 byte b in
 * 80..9F stands for (the WHATWG index). */
extern const uint16_t u8k_cp1252_high[32];

#endif /* UTF8KIT_CODEC_H */
