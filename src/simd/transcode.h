/*
 * simd/transcode.h - transcoding kernels, written once for every vector
 * width, on top of the vector layer of simd/validate.h plus:
 *
 *   v_store(p, v)              VW bytes to p, any alignment
 *
 * Shape of every kernel here: whole blocks of ASCII go through the vector
 * unit, where the conversion is a plain widening or narrowing and cannot
 * fail; anything else is handed, a stretch at a time, to the scalar
 * reference kernel, and the vector path resumes after it. A stretch ends
 * on a character start when the input is valid, so the scalar call on it
 * succeeds exactly when the reference would have converted those same
 * characters. When the stretch call reports an input error (possibly
 * only because the stretch cut a bad sequence short) the reference is run
 * again on the whole rest of the input, whose result is then the answer:
 * so every status, offset and count is the reference's own.
 */
#ifndef UTF8KIT_SIMD_TRANSCODE_H
#define UTF8KIT_SIMD_TRANSCODE_H

#include "internal.h"

/* How much the scalar kernel converts per call before the vector path
 * looks for ASCII blocks again. */
#define U8K_STRETCH (4 * VW)

U8K_INLINE utf8kit_result u8k_shift(utf8kit_result r, size_t read, size_t written)
{
    r.read += read;
    r.written += written;
    return r;
}

/* End of the stretch of UTF-8 starting at i: about U8K_STRETCH bytes,
 * moved back (at most 3 bytes) so as not to cut a character. */
U8K_INLINE size_t u8k_stretch8(const unsigned char *s, size_t len, size_t i)
{
    size_t j = i + U8K_STRETCH, k;
    if (j >= len)
        return len;
    for (k = 0; k < 3 && u8k_is_cont(s[j - k]); k++)
        ;
    return j - k > i ? j - k : j;
}

/* End of a stretch of units that may be cut anywhere (Latin-1, UTF-32). */
#define U8K_END_ANY(i) (len - (i) > U8K_STRETCH ? (i) + U8K_STRETCH : len)

/* The loop every generic kernel runs. BLOCK converts the VW units at
 * src + i to dst + o (u8k_v v is there to hold them) and is true when it
 * could, i.e. when they are all ASCII; otherwise the scalar kernel SCALAR
 * (s, n, d, c) converts the stretch up to STRETCH_END(i), which must end
 * on a character boundary, and the loop looks for ASCII blocks again. */
#define U8K_BLOCK_LOOP(BLOCK, STRETCH_END, SCALAR)                                         \
    size_t i = 0, o = 0;                                                                   \
    utf8kit_result r;                                                                      \
    for (;;) {                                                                             \
        size_t j;                                                                          \
        u8k_v v;                                                                           \
        while (i + VW <= len && o + VW <= cap && (BLOCK)) {                                \
            i += VW;                                                                       \
            o += VW;                                                                       \
        }                                                                                  \
        if (i + VW > len || o + VW > cap)                                                  \
            break;                                                                         \
        j = STRETCH_END(i);                                                                \
        r = SCALAR(src + i, j - i, dst + o, cap - o);                                      \
        if (r.status == UTF8KIT_OK) {                                                      \
            i = j;                                                                         \
            o += r.written;                                                                \
            continue;                                                                      \
        }                                                                                  \
        if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)                                      \
            return u8k_shift(r, i, o);                                                     \
        break;                                                                             \
    }                                                                                      \
    r = SCALAR(src + i, len - i, dst + o, cap - o);                                        \
    return u8k_shift(r, i, o)

/* The UTF-8 (and Latin-1) -> X loop: ASCII stores the block v at dst + o. */
#define U8K_ASCII_IN(ASCII) ((v = v_load(src + i)), !v_high(v) && ((ASCII), 1))
#define U8K_END8(i) u8k_stretch8(src, len, i)
#define U8K_FROM_UTF8_LOOP(ASCII, SCALAR)                                                  \
    U8K_BLOCK_LOOP(U8K_ASCII_IN(ASCII), U8K_END8, SCALAR)

/* UTF-8 -> UTF-16 and UTF-32 have kernels of their own for every
 * instruction set (simd/pext.h, simd/compress.h): no generic loop here
 * (the U8K_OWN_UTF8_TO_UTF16/32 defines only say so). An instruction set
 * may bring its own Latin-1 kernels too (simd/pext_latin1.h, ...): it then
 * defines U8K_OWN_LATIN1 (both directions) before including this file.
 * UTF-16/32 -> UTF-8 are always their own (the U8K_OWN_UTF16/32_TO_UTF8
 * defines only say so). */
#ifndef U8K_OWN_LATIN1
static utf8kit_result simd_utf8_to_latin1(const unsigned char *src, size_t len, unsigned char *dst,
                                          size_t cap, unsigned flags)
{
#define SC(s, n, d, c) u8k_scalar_utf8_to_latin1(s, n, d, c, flags)
    U8K_FROM_UTF8_LOOP(v_store(dst + o, v), SC);
#undef SC
}

static utf8kit_result simd_latin1_to_utf8(const unsigned char *src, size_t len, unsigned char *dst,
                                          size_t cap)
{
    /* Latin-1 has no errors; a stretch may end anywhere. */
#define SC(s, n, d, c) u8k_scalar_latin1_to_utf8(s, n, d, c)
    U8K_BLOCK_LOOP(U8K_ASCII_IN(v_store(dst + o, v)), U8K_END_ANY, SC);
#undef SC
}
#endif

/* UTF-16 / UTF-32 -> UTF-8 have kernels of their own for every instruction
 * set (simd/compress_to_utf8.h, pext_to_utf8.h, sse_to_utf8.h,
 * neon_to_utf8.h): no generic loop here, only the stretch end they share
 * for their scalar stretches. */

/* A UTF-16 stretch must not end between the two halves of a pair: stop
 * one unit early when its last unit is a high surrogate (D800..DBFF). */
U8K_INLINE size_t u8k_stretch16(const uint16_t *s, size_t len, size_t i, bool be)
{
    size_t j = i + U8K_STRETCH;
    unsigned u;
    if (j >= len)
        return len;
    u = s[j - 1];
    if (be)
        u = ((u & 0xFFu) << 8) | (u >> 8);
    return (u & 0xFC00u) == 0xD800u ? j - 1 : j;
}

#endif /* UTF8KIT_SIMD_TRANSCODE_H */
