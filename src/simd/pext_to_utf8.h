/*
 * simd/pext_to_utf8.h - UTF-16 and UTF-32 -> UTF-8 for 256-bit vectors
 * without a byte compress (AVX2), written once; src/x86/kernels_avx2.c
 * includes it after simd/pext.h (U8K_OWN_UTF16_TO_UTF8,
 * U8K_OWN_UTF32_TO_UTF8).
 *
 * The vector unit builds, for 16 units at a time, the 1 to 3 UTF-8 bytes
 * of each unit at the end of its own 32-bit slot; one byte shuffle per 4
 * slots, from a table indexed by their lengths, packs the used bytes, and
 * a 16-byte store whose end the next store overwrites. (The per-slot
 * UTF-8 form and the table of shuffles follow the idea of Lemire and
 * Muła, "Transcoding Billions of Unicode Characters per Second with SIMD
 * Instructions", Software: Practice and Experience 52(2), 2022; the slot
 * layout that makes each row a closed form, built by macros, is ours.)
 * A block of 16 units holding a surrogate goes to the scalar kernel, as
 * do the last units and any block near the end of the output room.
 */
#ifndef UTF8KIT_SIMD_PEXT_TO_UTF8_H
#define UTF8KIT_SIMD_PEXT_TO_UTF8_H

#include "internal.h"
#include "simd/to_utf8_shift.h"
#include "simd/utf8_pack4.h"

/* The constants of u8k_bmp16, made once per call: GCC would otherwise
 * rebuild them inside the loop from general registers (two shuffle-port
 * instructions each); the empty asm makes each a value it cannot
 * rebuild, so it stays in a register. */
typedef struct u8k_bmp_k {
    __m256i x7f, x7ff, e000, x3f, x40, x8080, x80c0;
} u8k_bmp_k;

#define U8K_PIN256(x) __asm__("" : "+x"(x))

U8K_INLINE void u8k_bmp_init(u8k_bmp_k *k)
{
    k->x7f = _mm256_set1_epi16(0x7F);
    k->x7ff = _mm256_set1_epi16(0x7FF);
    k->e000 = _mm256_set1_epi16((short)0xE000);
    k->x3f = _mm256_set1_epi16(0x3F);
    k->x40 = _mm256_set1_epi16(0x40);
    k->x8080 = _mm256_set1_epi16((short)0x8080);
    k->x80c0 = _mm256_set1_epi16((short)0x80C0);
    U8K_PIN256(k->x7f);
    U8K_PIN256(k->x7ff);
    U8K_PIN256(k->e000);
    U8K_PIN256(k->x3f);
    U8K_PIN256(k->x40);
    U8K_PIN256(k->x8080);
    U8K_PIN256(k->x80c0);
}

/* 16 units to UTF-8 at dst; returns the number of bytes, at most 48;
 * writes up to 52 bytes. Without pairs, no unit is a surrogate; with
 * pairs, hs and ls mark the high and low surrogates, every low one
 * follows a high one, and each half of a pair takes 2 bytes in its own
 * slot (see u8k_bmp8 in simd/sse_to_utf8.h for the bytes). */
U8K_INLINE size_t u8k_bmp16(const u8k_bmp_k *k, __m256i u, unsigned char *dst, bool pairs,
                            __m256i hs, __m256i ls)
{
    __m256i le7f = _mm256_cmpeq_epi16(_mm256_min_epu16(u, k->x7f), u);
    __m256i le7ff = _mm256_cmpeq_epi16(_mm256_min_epu16(u, k->x7ff), u);
    uint32_t m2, m3;
    /* the lead of a 3-byte form, E0 | u >> 12, in the high byte */
    __m256i lead = _mm256_or_si256(_mm256_slli_epi16(_mm256_srli_epi16(u, 12), 8), k->e000);
    /* the last two bytes, first one low: 80 | (u >> 6) & 3F (C0 | u >> 6
     * for a 2-byte form) and 80 | u & 3F; an ASCII unit is the last byte */
    __m256i tail = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(u, 6), k->x3f),
                        _mm256_slli_epi16(_mm256_and_si256(u, k->x3f), 8)),
        _mm256_or_si256(k->x8080, _mm256_and_si256(_mm256_andnot_si256(le7f, le7ff), k->x40)));
    __m256i lo, hi;
    size_t n = 0;
    int g;
    tail = _mm256_blendv_epi8(tail, _mm256_slli_epi16(u, 8), le7f);
    if (pairs) {
        /* each unit's predecessor: u moved up one unit across the lanes */
        __m256i prev = _mm256_alignr_epi8(u, _mm256_permute2x128_si256(u, u, 0x08), 14);
        __m256i v = _mm256_add_epi16(u, k->x40), pv = _mm256_add_epi16(prev, k->x40);
        __m256i th = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(v, 8), _mm256_set1_epi16(7)),
                            _mm256_set1_epi16((short)0x80F0)),
            _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(v, 2), k->x3f), 8));
        __m256i tl = _mm256_or_si256(_mm256_andnot_si256(_mm256_set1_epi16(0x30), tail),
                                     _mm256_slli_epi16(_mm256_and_si256(pv, _mm256_set1_epi16(3)), 4));
        tail = _mm256_blendv_epi8(_mm256_blendv_epi8(tail, th, hs), tl, ls);
        /* two bytes each: counted as below U+0800 */
        le7ff = _mm256_or_si256(le7ff, _mm256_or_si256(hs, ls));
    }
    /* one bit per unit (movemask gives two per 16-bit lane) */
    m2 = _pext_u32(~(uint32_t)_mm256_movemask_epi8(le7f), 0x55555555u);
    m3 = _pext_u32(~(uint32_t)_mm256_movemask_epi8(le7ff), 0x55555555u);
    /* 32-bit slots [0, lead, first, last]: units 0-3 and 8-11 in lo,
     * 4-7 and 12-15 in hi */
    lo = _mm256_unpacklo_epi16(lead, tail);
    hi = _mm256_unpackhi_epi16(lead, tail);
    if ((m2 & m3) == 0xFFFFu) {
        /* all 3 bytes: one shuffle (row FF) for both lanes, fixed places */
        const __m256i row = _mm256_broadcastsi128_si256(
            _mm_loadu_si128((const __m128i *)(const void *)u8k_pack4[0xFF]));
        lo = _mm256_shuffle_epi8(lo, row);
        hi = _mm256_shuffle_epi8(hi, row);
        _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(lo));
        _mm_storeu_si128((__m128i *)(void *)(dst + 12), _mm256_castsi256_si128(hi));
        _mm_storeu_si128((__m128i *)(void *)(dst + 24), _mm256_extracti128_si256(lo, 1));
        _mm_storeu_si128((__m128i *)(void *)(dst + 36), _mm256_extracti128_si256(hi, 1));
        return 48;
    }
    {
        __m128i q[4];
        q[0] = _mm256_castsi256_si128(lo);
        q[1] = _mm256_castsi256_si128(hi);
        q[2] = _mm256_extracti128_si256(lo, 1);
        q[3] = _mm256_extracti128_si256(hi, 1);
        for (g = 0; g < 4; g++) {
            unsigned e = ((m2 >> (4 * g)) & 15) | ((m3 >> (4 * g)) & 15) << 4;
            __m128i x = _mm_shuffle_epi8(q[g], _mm_loadu_si128((const __m128i *)(const void *)u8k_pack4[e]));
            _mm_storeu_si128((__m128i *)(void *)(dst + n), x);
            n += 4 + (size_t)_mm_popcnt_u32(e);
        }
    }
    return n;
}

/* 16 units below U+0800 to UTF-8 at dst; returns the number of bytes, at
 * most 32; writes up to 32 bytes. Each unit's bytes end its 16-bit slot:
 * C0 | u >> 6, 80 | u & 3F, or the ASCII unit in the second byte; one
 * shuffle per 8 slots (u8k_pack2) packs them. */
U8K_INLINE size_t u8k_two16(const u8k_bmp_k *k, __m256i u, unsigned char *dst)
{
    __m256i le7f = _mm256_cmpeq_epi16(_mm256_min_epu16(u, k->x7f), u);
    __m256i two = _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(u, 6), k->x80c0),
                                  _mm256_slli_epi16(_mm256_and_si256(u, k->x3f), 8));
    uint32_t m = _pext_u32(~(uint32_t)_mm256_movemask_epi8(le7f), 0x55555555u);
    __m256i ctl = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)u8k_pack2[m & 0xFF])),
        _mm_loadu_si128((const __m128i *)(const void *)u8k_pack2[m >> 8]), 1);
    __m256i x = _mm256_shuffle_epi8(_mm256_blendv_epi8(two, _mm256_slli_epi16(u, 8), le7f), ctl);
    size_t n0 = 8 + (size_t)_mm_popcnt_u32(m & 0xFF);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm256_castsi256_si128(x));
    _mm_storeu_si128((__m128i *)(void *)(dst + n0), _mm256_extracti128_si256(x, 1));
    return n0 + 8 + (size_t)_mm_popcnt_u32(m >> 8);
}

__attribute__((noinline)) static utf8kit_result simd_utf16_to_utf8_pext_long(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                          3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    /* ASCII runs on the units as they are in memory: the bits that must
     * be clear (big-endian: the first byte, and the top of the second) */
    const __m256i run_test = be ? _mm256_set1_epi16((short)0x80FF) : _mm256_set1_epi16((short)0xFF80);
    u8k_bmp_k bk;
    u8k_bmp_init(&bk);
    /* 64 bytes of room: 16 units make at most 48, and write up to 52. */
    while (i + 16 <= len && o + 64 <= cap) {
        __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        if (be)
            u = _mm256_shuffle_epi8(u, swap);
        if (_mm256_testz_si256(u, _mm256_set1_epi16((short)0xFF80))) {
            __m128i b = _mm_packus_epi16(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
            _mm_storeu_si128((__m128i *)(void *)(dst + o), b);
            i += 16;
            o += 16;
            /* then 32 units at a time while ASCII */
            while (i + 32 <= len && o + 32 <= cap) {
                __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
                __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 16));
                if (!_mm256_testz_si256(_mm256_or_si256(a, c), run_test))
                    break;
                if (be) {
                    a = _mm256_srli_epi16(a, 8);
                    c = _mm256_srli_epi16(c, 8);
                }
                /* packus works per 128-bit lane: a0-7 c0-7 | a8-15 c8-15 */
                a = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, c), 0xD8);
                _mm256_storeu_si256((__m256i *)(void *)(dst + o), a);
                i += 32;
                o += 32;
            }
            continue;
        }
        if (_mm256_testz_si256(u, _mm256_set1_epi16((short)0xF800))) {
            o += u8k_two16(&bk, u, dst + o);
            i += 16;
            continue;
        }
        if (!_mm256_testz_si256(_mm256_cmpeq_epi16(_mm256_and_si256(u, _mm256_set1_epi16((short)0xF800)),
                                                   _mm256_set1_epi16((short)0xD800)),
                                _mm256_set1_epi16(-1))) {
            /* Well paired when every low one follows a high one: the low
             * bits are the high bits moved up one unit, once a high one
             * in the last unit is left for the next step (its 2 bytes are
             * written last and not counted). */
            const __m256i fc00 = _mm256_set1_epi16((short)0xFC00);
            __m256i hs = _mm256_cmpeq_epi16(_mm256_and_si256(u, fc00), _mm256_set1_epi16((short)0xD800));
            __m256i ls = _mm256_cmpeq_epi16(_mm256_and_si256(u, fc00), _mm256_set1_epi16((short)0xDC00));
            uint32_t hm = _pext_u32((uint32_t)_mm256_movemask_epi8(hs), 0x55555555u);
            uint32_t lm = _pext_u32((uint32_t)_mm256_movemask_epi8(ls), 0x55555555u);
            uint32_t held = hm >> 15;
            size_t j;
            if (lm == ((hm << 1) & 0xFFFFu)) {
                o += u8k_bmp16(&bk, u, dst + o, true, hs, ls) - 2 * held;
                i += 16 - held;
                continue;
            }
            j = u8k_stretch16(src, len, i, be);
            r = u8k_scalar_utf16_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_to8_shift(r, i, o);
            break;
        }
        o += u8k_bmp16(&bk, u, dst + o, false, u, u);
        i += 16;
    }
    /* The last 1..15 units, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the units it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(src + len - 16));
        if (be)
            u = _mm256_shuffle_epi8(u, swap);
        if (_mm256_testz_si256(u, _mm256_set1_epi16((short)0xFF80))) {
            __m128i b = _mm_packus_epi16(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
            _mm_storeu_si128((__m128i *)(void *)(dst + o - (16 - (len - i))), b);
            return u8k_res(UTF8KIT_OK, len, o + (len - i), 0);
        }
    }
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift(r, i, o);
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop. */
static utf8kit_result simd_utf16_to_utf8_pext(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf16_to_utf8(src, len, dst, cap, flags);
    return simd_utf16_to_utf8_pext_long(src, len, dst, cap, flags);
}

/* UTF-32 -> UTF-8, 16 values per step when all are below U+10000 and none
 * is a surrogate (else a stretch for the scalar kernel): narrowed to 16
 * units for the encoder of UTF-16 -> UTF-8. */
__attribute__((noinline)) static utf8kit_result simd_utf32_to_utf8_pext_long(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    u8k_bmp_k bk;
    u8k_bmp_init(&bk);
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
                return u8k_to8_shift(r, i, o);
            break;
        }
        /* packus works per 128-bit lane: a0-3 b0-3 | a4-7 b4-7 */
        a = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
        o += u8k_bmp16(&bk, a, dst + o, false, a, a);
        i += 16;
    }
    /* The last 1..15 values, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the values it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        const __m256i *p = (const __m256i *)(const void *)(src + len - 16);
        __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
        if (_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi32((int)0xFFFFFF80u))) {
            /* lanes: a0-3 b0-3 | a4-7 b4-7 as 16-bit, then bytes */
            __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
            _mm_storeu_si128((__m128i *)(void *)(dst + o - (16 - (len - i))),
                             _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1)));
            return u8k_res(UTF8KIT_OK, len, o + (len - i), 0);
        }
    }
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift(r, i, o);
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop. */
static utf8kit_result simd_utf32_to_utf8_pext(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf32_to_utf8(src, len, dst, cap, flags);
    return simd_utf32_to_utf8_pext_long(src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_PEXT_TO_UTF8_H */
