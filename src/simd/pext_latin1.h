/*
 * simd/pext_latin1.h - Latin-1 <-> UTF-8 for 256-bit vectors without a
 * byte compress (AVX2): the bytes in use are packed 8 at a time by BMI2's
 * PEXT. src/x86/kernels_avx2.c includes it after simd/pext.h
 * (U8K_OWN_LATIN1).
 */
#ifndef UTF8KIT_SIMD_PEXT_LATIN1_H
#define UTF8KIT_SIMD_PEXT_LATIN1_H

#include "internal.h"

/* Packs the bytes of v whose bit is set in keep (32 bits) to dst, 8 bytes
 * at a time with PEXT; returns how many; writes up to 8 bytes beyond. */
U8K_INLINE size_t u8k_pack8(__m256i v, uint32_t keep, unsigned char *dst)
{
    uint64_t q[4];
    size_t n = 0;
    int k;
    _mm256_storeu_si256((__m256i *)(void *)q, v);
    for (k = 0; k < 4; k++) {
        unsigned m = (keep >> (8 * k)) & 0xFF;
        uint64_t w = _pext_u64(q[k], _pdep_u64(m, UINT64_C(0x0101010101010101)) * 0xFF);
        memcpy(dst + n, &w, 8);
        n += (size_t)__builtin_popcount(m);
    }
    return n;
}

/* Latin-1 -> UTF-8, 16 bytes per step: each byte in a 16-bit lane becomes
 * b (below 80) or C0|b>>6, 80|b&3F (lowest first); the used bytes are
 * packed with PEXT. */
static utf8kit_result simd_latin1_to_utf8_pext(const unsigned char *src, size_t len,
                                               unsigned char *dst, size_t cap)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 32 <= len && o + 64 <= cap) {
        __m256i w = v_load(src + i);
        int h;
        if (v_high(w) == 0) {
            v_store(dst + o, w);
            i += 32;
            o += 32;
            continue;
        }
        for (h = 0; h < 2; h++) {
            __m256i c = _mm256_cvtepu8_epi16(h ? _mm256_extracti128_si256(w, 1) : _mm256_castsi256_si128(w));
            __m256i m = _mm256_cmpgt_epi16(c, _mm256_set1_epi16(0x7F));
            __m256i two = _mm256_or_si256(
                _mm256_or_si256(_mm256_srli_epi16(c, 6), _mm256_set1_epi16((short)0x80C0)),
                _mm256_slli_epi16(_mm256_and_si256(c, _mm256_set1_epi16(0x3F)), 8));
            /* keep: every low byte, and the high byte of two-byte lanes */
            uint32_t keep = 0x55555555u | ((uint32_t)_mm256_movemask_epi8(m) & 0xAAAAAAAAu);
            o += u8k_pack8(_mm256_blendv_epi8(c, two, m), keep, dst + o);
        }
        i += 32;
    }
    r = u8k_scalar_latin1_to_utf8(src + i, len - i, dst + o, cap - o);
    return u8k_shift(r, i, o);
}

/* UTF-8 -> Latin-1 over 32-byte windows checked a window ahead, as the
 * AVX-512 kernel in simd/compress.h but packing with PEXT. */
static utf8kit_result simd_utf8_to_latin1_pext(const unsigned char *src, size_t len,
                                               unsigned char *dst, size_t cap, unsigned flags)
{
    bool trusted = (flags & U8K_TRUSTED) != 0;
    size_t i = 0, o = 0, checked = 0;
    u8k_vstate st;
    utf8kit_result r;
    const __m256i zero = _mm256_setzero_si256();
    u8k_vinit(&st);
    while (i + 32 <= len && o + 64 <= cap) {
        __m256i w = v_load(src + i), p1, val;
        uint32_t leads, tails, keep;
        unsigned used;
        if (v_high(w) == 0) {
            if (checked <= i + 32) {
                checked = i + 32;
                st.prev = w;
            }
            v_store(dst + o, w);
            i += 32;
            o += 32;
            continue;
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
        /* C4..FF (as signed: above -61 and negative): beyond U+00FF */
        if (_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpgt_epi8(w, _mm256_set1_epi8(-61)),
                                                  _mm256_cmpgt_epi8(zero, w))))
            goto rest;
        tails = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), w));
        leads = (uint32_t)_mm256_movemask_epi8(w) & ~tails;
        used = 32;
        if (leads >> 31) {
            used = 31;
            leads &= 0x7FFFFFFFu;
        }
        p1 = v_prev1(w, zero);
        val = _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi16(_mm256_and_si256(p1, _mm256_set1_epi8(3)), 6),
                             _mm256_set1_epi8((char)0xC0)),
            _mm256_and_si256(w, _mm256_set1_epi8(0x3F)));
        val = _mm256_blendv_epi8(w, val, _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), w));
        keep = ~leads & (used == 32 ? 0xFFFFFFFFu : 0x7FFFFFFFu);
        o += u8k_pack8(val, keep, dst + o);
        i += used;
    }
rest:
    r = u8k_scalar_utf8_to_latin1(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_PEXT_LATIN1_H */
