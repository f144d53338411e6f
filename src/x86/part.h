/*
 * x86/part.h - short inputs for the x86 kernels without masked loads
 * (SSE4.2, AVX2), included by their kernel files after immintrin.h: the
 * first n bytes of a buffer as a vector, zeros after them (their
 * v_load_part), and 8 ASCII units as bytes (their v_narrow8).
 *
 * v_load_part reads only p[0..n): two loads of 4, 8 or 16 bytes that overlap
 * when n is not a multiple of it, the first at p and the second ending at
 * p + n; the second is then moved down to where its bytes belong by one
 * byte shuffle, whose index comes from a sliding window into
 * u8k_part_window (k, then 80: zero). A copy to the stack and a vector
 * load of it would wait on the store (no forwarding from several smaller
 * stores to one wider load), and the copy of a variable length is a call.
 */
#ifndef UTF8KIT_X86_PART_H
#define UTF8KIT_X86_PART_H

#include "internal.h"

/* Bytes 0..15 then 16 times 80: 16 bytes from offset s are the shuffle
 * that moves bytes s..15 of a vector down to 0..15 - s and zeros the rest. */
static const unsigned char u8k_part_window[32] = {
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

U8K_INLINE __m128i u8k_part_shift(__m128i v, size_t s)
{
    const __m128i *w = (const __m128i *)(const void *)(u8k_part_window + s);
    return _mm_shuffle_epi8(v, _mm_loadu_si128(w));
}

/* p[0..n) for n < 16. With 8 <= n: bytes 0..7 from the load at p; the
 * load at p + n - 8 (its upper 8 bytes zero) holds bytes 8..n-1 at
 * 16 - n on, moved down to 0. The same with 4-byte loads for 4 <= n < 8,
 * and byte by byte below 4. */
U8K_INLINE __m128i u8k_part16(const unsigned char *p, size_t n)
{
    if (n >= 8) {
        __m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)p);
        __m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(p + n - 8));
        return _mm_unpacklo_epi64(lo, u8k_part_shift(hi, 16 - n));
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a),
                                  u8k_part_shift(_mm_cvtsi32_si128((int)b), 8 - n));
    }
    {
        uint32_t x = 0;
        if (n > 0)
            x = p[0];
        if (n > 1)
            x |= (uint32_t)p[1] << 8;
        if (n > 2)
            x |= (uint32_t)p[2] << 16;
        return _mm_cvtsi32_si128((int)x);
    }
}

#ifdef __AVX2__
/* p[0..n) for n < 32: with 16 <= n, the 16 bytes at p and those ending at
 * p + n, moved down by 32 - n, in the upper half. */
U8K_INLINE __m256i u8k_part32(const unsigned char *p, size_t n)
{
    if (n >= 16) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
        return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), u8k_part_shift(hi, 32 - n), 1);
    }
    return _mm256_inserti128_si256(_mm256_setzero_si256(), u8k_part16(p, n), 0);
}
#endif

/* The 8 units at s (big-endian in memory when be), known to be ASCII,
 * as 8 bytes to d (the v_narrow8 of simd/shuffle_to_utf8.h) */
U8K_INLINE void v_narrow8(unsigned char *d, const uint16_t *s, bool be)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    if (be)
        x = _mm_srli_epi16(x, 8);
    _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(x, x));
}

#endif /* UTF8KIT_X86_PART_H */
