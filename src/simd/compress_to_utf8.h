/*
 * simd/compress_to_utf8.h - UTF-16 and UTF-32 to UTF-8 for AVX-512 (VBMI2
 * compress). Included by src/x86/kernels_avx512.c after simd/compress.h.
 *
 * UTF-16 -> UTF-8, per 16 units: widen to 32-bit lanes, join surrogate
 * pairs in the lane of their high half, build the 1-4 UTF-8 bytes of each
 * lane, and compress the used bytes. A block with an unpaired surrogate
 * goes to the scalar kernel. UTF-32 -> UTF-8 shares the lane encoder.
 */
#ifndef UTF8KIT_SIMD_COMPRESS_TO_UTF8_H
#define UTF8KIT_SIMD_COMPRESS_TO_UTF8_H

#include "internal.h"

/* The UTF-8 form of the code points in the 32-bit lanes of c selected by
 * `lanes` (valid scalar values), stored at dst; returns its length (at
 * most 64). */
U8K_INLINE unsigned u8k_utf8_from_lanes(__m512i c, __mmask16 lanes, unsigned char *dst)
{
    const __m512i six = _mm512_set1_epi32(0x3F);
    __mmask16 m2 = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x80));
    __mmask16 m3 = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x800));
    __mmask16 m4 = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x10000));
    __m512i t6 = _mm512_and_si512(_mm512_srli_epi32(c, 6), six), t0 = _mm512_and_si512(c, six);
    /* 110xxxxx 10yyyyyy, the first byte lowest in the lane */
    __m512i v2 = _mm512_or_si512(_mm512_or_si512(_mm512_srli_epi32(c, 6), _mm512_set1_epi32(0x80C0)),
                                 _mm512_slli_epi32(t0, 8));
    /* 1110xxxx 10yyyyyy 10zzzzzz */
    __m512i v3 = _mm512_or_si512(_mm512_or_si512(_mm512_srli_epi32(c, 12), _mm512_set1_epi32(0x8080E0)),
                                 _mm512_or_si512(_mm512_slli_epi32(t6, 8), _mm512_slli_epi32(t0, 16)));
    __m512i out = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(c, m2, v2), m3, v3);
    /* The bytes in use have their high bit set in keep. */
    __m512i keep = _mm512_mask_mov_epi32(
        _mm512_mask_mov_epi32(_mm512_set1_epi32(0x80), m2, _mm512_set1_epi32(0x8080)), m3,
        _mm512_set1_epi32(0x808080));
    uint64_t bm;
    unsigned n;
    if (m4) {
        /* 11110xxx 10yyyyyy 10zzzzzz 10wwwwww */
        __m512i t12 = _mm512_and_si512(_mm512_srli_epi32(c, 12), six);
        __m512i v4 = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi32(c, 18), _mm512_set1_epi32((int)0x808080F0u)),
            _mm512_or_si512(_mm512_slli_epi32(t12, 8),
                            _mm512_or_si512(_mm512_slli_epi32(t6, 16), _mm512_slli_epi32(t0, 24))));
        out = _mm512_mask_mov_epi32(out, m4, v4);
        keep = _mm512_mask_mov_epi32(keep, m4, _mm512_set1_epi32((int)0x80808080u));
    }
    bm = (uint64_t)_mm512_movepi8_mask(_mm512_maskz_mov_epi32(lanes, keep));
    n = (unsigned)__builtin_popcountll(bm);
    _mm512_mask_storeu_epi8(dst, n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1,
                            _mm512_maskz_compress_epi8(bm, out));
    return n;
}

static utf8kit_result simd_utf16_to_utf8_vbmi2(const uint16_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    /* 64 output bytes of room cover any 16 units (at most 48 bytes) and
     * the 32 bytes of an ASCII block. */
    while (i + 32 <= len && o + 64 <= cap) {
        __m512i u = _mm512_loadu_si512((const void *)(src + i)), c;
        __mmask16 hs, ls;
        unsigned n;
        if (be)
            u = u8k_swap16(u);
        if (!_mm512_test_epi16_mask(u, _mm512_set1_epi16((short)0xFF80))) {
            _mm256_storeu_si256((__m256i *)(void *)(dst + o), _mm512_cvtepi16_epi8(u));
            i += 32;
            o += 32;
            continue;
        }
        c = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u));
        /* Surrogates: high D800..DBFF, low DC00..DFFF. Well paired when
         * every low follows a high and every high precedes a low; a high
         * in the last of the 16 waits for the next step. The lane of a
         * high then gets the pair's value, the lane of its low is dropped. */
        hs = _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(0xFC00)),
                                     _mm512_set1_epi32(0xD800));
        ls = _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(0xFC00)),
                                     _mm512_set1_epi32(0xDC00));
        n = 16;
        if (hs & 0x8000) {
            hs &= 0x7FFF;
            n = 15;
        }
        if ((hs | ls) && (unsigned)ls == (unsigned)(hs << 1)) {
            /* the next lane's unit beside each lane */
            __m512i next = _mm512_alignr_epi32(
                _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1)), c, 1);
            __m512i pair = _mm512_add_epi32(
                _mm512_add_epi32(_mm512_slli_epi32(_mm512_sub_epi32(c, _mm512_set1_epi32(0xD800)), 10),
                                 _mm512_sub_epi32(next, _mm512_set1_epi32(0xDC00))),
                _mm512_set1_epi32(0x10000));
            c = _mm512_mask_mov_epi32(c, hs, pair);
            o += u8k_utf8_from_lanes(c, (__mmask16)(~ls & ((1u << n) - 1)), dst + o);
            i += n;
            continue;
        }
        /* Otherwise (unpaired surrogates, an error) the scalar kernel takes
         * a stretch and reports it. */
        if (hs | ls) {
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
        o += u8k_utf8_from_lanes(c, (__mmask16)((1u << n) - 1), dst + o);
        i += n;
    }
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

/* UTF-32 -> UTF-8, 16 values per step; a block holding a surrogate or a
 * value above 10FFFF goes to the scalar kernel (which reports it). */
static utf8kit_result simd_utf32_to_utf8_vbmi2(const uint32_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 16 <= len && o + 64 <= cap) {
        __m512i c = _mm512_loadu_si512((const void *)(src + i));
        if (!_mm512_test_epi32_mask(c, _mm512_set1_epi32((int)0xFFFFFF80u))) {
            _mm_storeu_si128((__m128i *)(void *)(dst + o), _mm512_cvtepi32_epi8(c));
            i += 16;
            o += 16;
            continue;
        }
        /* c - D800 < 800 (a surrogate), or c > 10FFFF */
        if (_mm512_cmplt_epu32_mask(_mm512_sub_epi32(c, _mm512_set1_epi32(0xD800)),
                                    _mm512_set1_epi32(0x800)) |
            _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF))) {
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
        o += u8k_utf8_from_lanes(c, 0xFFFF, dst + o);
        i += 16;
    }
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_COMPRESS_TO_UTF8_H */
