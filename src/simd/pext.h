/*
 * simd/pext.h - UTF-16 -> UTF-8 for 256-bit vectors without a byte
 * compress (AVX2), written once; src/x86/kernels_avx2.c includes it after
 * simd/transcode.h and defines U8K_OWN_UTF16_TO_UTF8 and
 * U8K_OWN_UTF8_TO_UTF16, U8K_OWN_UTF8_TO_UTF32, U8K_OWN_UTF32_TO_UTF8 and
 * U8K_OWN_LATIN1. The other kernels follow UTF-16 -> UTF-8, the same way.
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
#ifndef UTF8KIT_SIMD_PEXT_H
#define UTF8KIT_SIMD_PEXT_H

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

#endif /* UTF8KIT_SIMD_PEXT_H */
