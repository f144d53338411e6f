/*
 * simd/pext.h - UTF-8 -> UTF-16 and UTF-32 for 256-bit vectors without a
 * byte compress (AVX2), written once; src/x86/kernels_avx2.c includes it
 * after simd/transcode.h and defines U8K_OWN_UTF8_TO_UTF16 and
 * U8K_OWN_UTF8_TO_UTF32. The vector unit builds the value of each
 * character in its own lane; BMI2's PEXT packs the lanes in use, 8 bytes
 * at a time. The other directions live in simd/pext_to_utf8.h (UTF-16 and
 * UTF-32 -> UTF-8) and simd/pext_latin1.h (Latin-1).
 */
#ifndef UTF8KIT_SIMD_PEXT_H
#define UTF8KIT_SIMD_PEXT_H

#include "internal.h"

/* UTF-8 -> UTF-16 for characters of 1 to 3 bytes, 32-byte windows at a
 * character start, checked a window ahead by the lookup validator (as in
 * simd/compress.h). In 16-bit lanes, every byte k gets the value of the
 * character that would end there: the byte itself (ASCII), or with the
 * byte before it (2 bytes), or with the two before it (3 bytes; the byte
 * before is then a tail, not a lead). The lanes kept are the character
 * ends, the bytes followed by a non-tail; offset 31 has no known follower,
 * so the window takes the characters ending at 0..30. PEXT then packs the
 * kept lanes, 4 lanes (8 bytes) at a time. A window with a 4-byte lead
 * (F0..FF) hands a stretch to the scalar kernel. */
/* The 32-bit lanes of v whose bit is set in keep (8 bits) to dst, two
 * lanes (8 bytes) at a time with PEXT; writes up to 2 lanes beyond. */
U8K_INLINE size_t u8k_pack32(__m256i v, uint32_t keep, uint32_t *dst)
{
    uint64_t q[4];
    size_t n = 0;
    int k;
    _mm256_storeu_si256((__m256i *)(void *)q, v);
    for (k = 0; k < 4; k++) {
        unsigned m = (keep >> (2 * k)) & 3;
        uint64_t w = _pext_u64(q[k], _pdep_u64(m, UINT64_C(0x0000000100000001)) * 0xFFFFFFFFu);
        memcpy(dst + n, &w, 8);
        n += (size_t)__builtin_popcount(m);
    }
    return n;
}

/* The 16-bit lanes of v whose bit is set in keep (16 bits) to dst, four
 * lanes (8 bytes) at a time with PEXT; writes up to 4 lanes beyond. */
U8K_INLINE size_t u8k_pack16(__m256i v, uint32_t keep, uint16_t *dst)
{
    uint64_t q[4];
    size_t n = 0;
    int k;
    _mm256_storeu_si256((__m256i *)(void *)q, v);
    for (k = 0; k < 4; k++) {
        unsigned m = (keep >> (4 * k)) & 0xF;
        uint64_t w = _pext_u64(q[k], _pdep_u64(m, UINT64_C(0x0001000100010001)) * 0xFFFF);
        memcpy(dst + n, &w, 8);
        n += (size_t)__builtin_popcount(m);
    }
    return n;
}

/* UTF-8 -> UTF-16, or UTF-32 when wide (BE applies to UTF-16 only). */
U8K_INLINE utf8kit_result u8k_utf8_to_units_pext(const unsigned char *src, size_t len, void *out,
                                                 size_t cap, unsigned flags, bool wide)
{
    bool be = !wide && (flags & U8K_BE) != 0, trusted = (flags & U8K_TRUSTED) != 0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    size_t i = 0, o = 0, checked = 0;
    u8k_vstate st;
    utf8kit_result r;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                          3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    u8k_vinit(&st);
    /* 64 units of room: 31 characters and 4 units of overhang, or the 32
     * of an ASCII window. */
    while (i + 32 <= len && o + 64 <= cap) {
        __m256i w = v_load(src + i), p1, p2, lo, hi;
        uint32_t tails, ends;
        unsigned e;
        if (v_high(w) == 0) {
            /* all ASCII: see simd/compress.h */
            if (checked <= i + 32) {
                checked = i + 32;
                st.prev = w;
            }
            if (wide)
                v_store_widen32(dst32 + o, w);
            else
                v_store_widen16(dst + o, w, be);
            i += 32;
            o += 32;
            continue;
        }
        if (_mm256_movemask_epi8(_mm256_cmpgt_epi8(w, _mm256_set1_epi8((char)0xEF)) &
                                 _mm256_cmpgt_epi8(zero, w))) {
            /* F0..FF: a stretch for the scalar kernel, then a fresh check
             * from where it stopped (a character start after valid text) */
            size_t j = u8k_stretch8(src, len, i);
            r = wide ? u8k_scalar_utf8_to_utf32(src + i, j - i, dst32 + o, cap - o, flags)
                     : u8k_scalar_utf8_to_utf16(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                checked = i;
                u8k_vinit(&st);
                continue;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_shift(r, i, o);
            break;
        }
        while (checked < i + 32) {
            __m256i cur;
            if (checked + 32 > len)
                goto rest;
            cur = v_load(src + checked);
            if (!trusted && u8k_vblock(&st, cur))
                goto rest;
            checked += 32;
        }
        /* tails: 80..BF, below -64 as signed bytes */
        tails = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), w));
        ends = ~tails >> 1 & 0x7FFFFFFFu;
        if (ends == 0 || (tails & 1))
            goto rest; /* only under U8K_TRUSTED with invalid input */
        e = 31 - (unsigned)__builtin_clz(ends);
        p1 = v_prev1(w, zero);
        p2 = v_prev2(w, zero);
        for (int h = 0; h < 2; h++) {
            __m128i wb = h ? _mm256_extracti128_si256(w, 1) : _mm256_castsi256_si128(w);
            __m128i p1b = h ? _mm256_extracti128_si256(p1, 1) : _mm256_castsi256_si128(p1);
            __m128i p2b = h ? _mm256_extracti128_si256(p2, 1) : _mm256_castsi256_si128(p2);
            __m256i b = _mm256_cvtepu8_epi16(wb), a1 = _mm256_cvtepu8_epi16(p1b);
            __m256i a2 = _mm256_cvtepu8_epi16(p2b), six = _mm256_set1_epi16(0x3F);
            /* 110xxxxx 10yyyyyy */
            __m256i v2 = _mm256_or_si256(
                _mm256_slli_epi16(_mm256_and_si256(a1, _mm256_set1_epi16(0x1F)), 6),
                _mm256_and_si256(b, six));
            /* 1110xxxx 10yyyyyy 10zzzzzz */
            __m256i v3 = _mm256_or_si256(
                _mm256_slli_epi16(a2, 12),
                _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(a1, six), 6),
                                _mm256_and_si256(b, six)));
            __m256i v = _mm256_blendv_epi8(v3, v2, _mm256_cmpgt_epi16(a1, _mm256_set1_epi16(0xBF)));
            v = _mm256_blendv_epi8(v, b, _mm256_cmpgt_epi16(_mm256_set1_epi16(0x80), b));
            if (be)
                v = _mm256_shuffle_epi8(v, swap);
            if (h)
                hi = v;
            else
                lo = v;
        }
        if (wide) {
            o += u8k_pack32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(lo)), ends & 0xFF, dst32 + o);
            o += u8k_pack32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(lo, 1)), ends >> 8 & 0xFF,
                            dst32 + o);
            o += u8k_pack32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(hi)), ends >> 16 & 0xFF,
                            dst32 + o);
            o += u8k_pack32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(hi, 1)), ends >> 24,
                            dst32 + o);
        } else {
            o += u8k_pack16(lo, ends & 0xFFFF, dst + o);
            o += u8k_pack16(hi, ends >> 16, dst + o);
        }
        i += e + 1;
    }
rest:
    r = wide ? u8k_scalar_utf8_to_utf32(src + i, len - i, dst32 + o, cap - o, flags)
             : u8k_scalar_utf8_to_utf16(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

static utf8kit_result simd_utf8_to_utf16_pext(const unsigned char *src, size_t len, uint16_t *dst,
                                              size_t cap, unsigned flags)
{
    return u8k_utf8_to_units_pext(src, len, dst, cap, flags, false);
}

static utf8kit_result simd_utf8_to_utf32_pext(const unsigned char *src, size_t len, uint32_t *dst,
                                              size_t cap, unsigned flags)
{
    return u8k_utf8_to_units_pext(src, len, dst, cap, flags, true);
}

#endif /* UTF8KIT_SIMD_PEXT_H */
