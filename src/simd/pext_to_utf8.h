/*
 * simd/pext_to_utf8.h - UTF-16 and UTF-32 -> UTF-8 for 256-bit vectors
 * without a byte compress (AVX2), written once; src/x86/kernels_avx2.c
 * includes it after simd/pext.h (U8K_OWN_UTF16_TO_UTF8,
 * U8K_OWN_UTF32_TO_UTF8).
 *
 * The vector unit builds, for 8 units at a time, the 1 to 3 UTF-8 bytes
 * of each unit in its own 32-bit lane, and a lane mask of the bytes in
 * use. Packing the used bytes together is then done 8 bytes (2 lanes) at
 * a time by BMI2's PEXT with the byte mask, and an 8-byte store whose end
 * the next store overwrites. (The idea of using the vector unit only up
 * to the per-lane form and leaving the packing to PEXT is ours; the
 * per-lane UTF-8 form follows Lemire and Muła, "Transcoding Billions of
 * Unicode Characters per Second with SIMD Instructions", Software:
 * Practice and Experience 52(2), 2022.) A block of 16 units holding a
 * surrogate goes to the scalar kernel, as do the last units and any block
 * near the end of the output room.
 */
#ifndef UTF8KIT_SIMD_PEXT_TO_UTF8_H
#define UTF8KIT_SIMD_PEXT_TO_UTF8_H

#include "internal.h"

/* Eight units (32-bit lanes, no surrogates) to UTF-8 at dst; returns the
 * number of bytes, at most 24; writes up to 8 bytes beyond them. */
U8K_INLINE size_t u8k_pext8(__m256i c, unsigned char *dst)
{
    const __m256i six = _mm256_set1_epi32(0x3F);
    __m256i m2 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7F));
    __m256i m3 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7FF));
    /* 110xxxxx 10yyyyyy, the first byte lowest in the lane */
    __m256i v2 = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(c, 6), _mm256_set1_epi32(0x80C0)),
                                 _mm256_slli_epi32(_mm256_and_si256(c, six), 8));
    /* 1110xxxx 10yyyyyy 10zzzzzz */
    __m256i v3 = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32(c, 12), _mm256_set1_epi32(0x8080E0)),
        _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(c, 6), six), 8),
                        _mm256_slli_epi32(_mm256_and_si256(c, six), 16)));
    __m256i out = _mm256_blendv_epi8(_mm256_blendv_epi8(c, v2, m2), v3, m3);
    __m256i keep = _mm256_or_si256(
        _mm256_set1_epi32(0xFF),
        _mm256_or_si256(_mm256_and_si256(m2, _mm256_set1_epi32(0xFF00)),
                        _mm256_and_si256(m3, _mm256_set1_epi32(0xFF0000))));
    uint64_t o[4], k[4];
    size_t n = 0;
    int q;
    _mm256_storeu_si256((__m256i *)(void *)o, out);
    _mm256_storeu_si256((__m256i *)(void *)k, keep);
    for (q = 0; q < 4; q++) {
        uint64_t w = _pext_u64(o[q], k[q]);
        memcpy(dst + n, &w, 8);
        n += (size_t)__builtin_popcountll(k[q]) / 8;
    }
    return n;
}

static utf8kit_result simd_utf16_to_utf8_pext(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                          3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    /* 64 bytes of room: 16 units make at most 48, plus 8 of overhang. */
    while (i + 16 <= len && o + 64 <= cap) {
        __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        if (be)
            u = _mm256_shuffle_epi8(u, swap);
        if (_mm256_testz_si256(u, _mm256_set1_epi16((short)0xFF80))) {
            __m128i b = _mm_packus_epi16(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
            _mm_storeu_si128((__m128i *)(void *)(dst + o), b);
            i += 16;
            o += 16;
            continue;
        }
        if (!_mm256_testz_si256(_mm256_cmpeq_epi16(_mm256_and_si256(u, _mm256_set1_epi16((short)0xF800)),
                                                   _mm256_set1_epi16((short)0xD800)),
                                _mm256_set1_epi16(-1))) {
            size_t j = u8k_stretch16(src, len, i, be);
            r = u8k_scalar_utf16_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_shift(r, i, o);
            break;
        }
        o += u8k_pext8(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)), dst + o);
        o += u8k_pext8(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)), dst + o);
        i += 16;
    }
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

/* UTF-32 -> UTF-8, 16 values per step when all are below U+10000 and none
 * is a surrogate (else a stretch for the scalar kernel), with the lane
 * encoder of UTF-16 -> UTF-8. */
static utf8kit_result simd_utf32_to_utf8_pext(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 16 <= len && o + 64 <= cap) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 8));
        __m256i both = _mm256_or_si256(a, b);
        /* c - D800 < 800 as unsigned: min(c - D800, 7FF) == c - D800 */
        __m256i da = _mm256_sub_epi32(a, _mm256_set1_epi32(0xD800));
        __m256i db = _mm256_sub_epi32(b, _mm256_set1_epi32(0xD800));
        __m256i sur = _mm256_or_si256(
            _mm256_cmpeq_epi32(_mm256_min_epu32(da, _mm256_set1_epi32(0x7FF)), da),
            _mm256_cmpeq_epi32(_mm256_min_epu32(db, _mm256_set1_epi32(0x7FF)), db));
        if (_mm256_testz_si256(both, _mm256_set1_epi32((int)0xFFFFFF80u))) {
            __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_setzero_si256());
            /* lanes: a0-3 b0-3 | a4-7 b4-7; reorder the 4-byte groups */
            p = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            _mm_storeu_si128((__m128i *)(void *)(dst + o), _mm256_castsi256_si128(p));
            i += 16;
            o += 16;
            continue;
        }
        if (!_mm256_testz_si256(both, _mm256_set1_epi32((int)0xFFFF0000u)) ||
            !_mm256_testz_si256(sur, sur)) {
            size_t j = len - i > 64 ? i + 64 : len;
            r = u8k_scalar_utf32_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_shift(r, i, o);
            break;
        }
        o += u8k_pext8(a, dst + o);
        o += u8k_pext8(b, dst + o);
        i += 16;
    }
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_PEXT_TO_UTF8_H */
