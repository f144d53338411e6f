/*
 * simd/sse_to_utf8.h - UTF-16 and UTF-32 -> UTF-8 for 128-bit vectors
 * with a byte shuffle (SSE4.2). src/x86/kernels_sse42.c includes it after
 * simd/transcode.h and defines U8K_OWN_UTF16_TO_UTF8 and
 * U8K_OWN_UTF32_TO_UTF8.
 *
 * 16 units per step: an ASCII block is narrowed by the layer's
 * v_narrow16 / v_narrow32; otherwise each 8 units get the 1 to 3 bytes of
 * their UTF-8 form at the end of 32-bit slots (a surrogate pair: 2 bytes
 * in the slot of each half), packed 4 slots at a time by one byte shuffle
 * from the table of simd/utf8_pack4.h. A UTF-16 block with an unpaired
 * surrogate, and a UTF-32 block with a value from U+10000 on, go to the
 * scalar kernel a stretch at a time, as do the last units and any block
 * near the end of the output room.
 */
#ifndef UTF8KIT_SIMD_SSE_TO_UTF8_H
#define UTF8KIT_SIMD_SSE_TO_UTF8_H

#include "internal.h"
#include "simd/to_utf8_shift.h"
#include "simd/utf8_pack4.h"

/* 8 units to UTF-8 at dst; returns the number of bytes, at most 24;
 * writes up to 28 bytes. Without pairs, no unit is a surrogate. With
 * pairs, hs and ls mark the high and low surrogates, every low one
 * follows a high one and prev holds each unit's predecessor: a pair then
 * takes two slots of 2 bytes each (F0 | v >> 8, 80 | v >> 2 & 3F for the
 * high one h, v = h + 40, whose low 11 bits are the top bits of the value
 * less 10000 plus 40 (10000 >> 10); 80 | (v & 3) << 4 | l >> 6 & F,
 * 80 | l & 3F for the low one l). */
U8K_INLINE size_t u8k_bmp8(__m128i u, unsigned char *dst, bool pairs, __m128i prev, __m128i hs,
                           __m128i ls)
{
    const __m128i six = _mm_set1_epi16(0x3F);
    __m128i le7f = _mm_cmpeq_epi16(_mm_min_epu16(u, _mm_set1_epi16(0x7F)), u);
    __m128i le7ff = _mm_cmpeq_epi16(_mm_min_epu16(u, _mm_set1_epi16(0x7FF)), u);
    unsigned m, e0, e1;
    size_t n0;
    /* the lead of a 3-byte form, E0 | u >> 12, in the high byte */
    __m128i lead = _mm_or_si128(_mm_slli_epi16(_mm_srli_epi16(u, 12), 8), _mm_set1_epi16((short)0xE000));
    /* the last two bytes, first one low: 80 | (u >> 6) & 3F (C0 | u >> 6
     * for a 2-byte form) and 80 | u & 3F; an ASCII unit is the last byte */
    __m128i tail = _mm_or_si128(
        _mm_or_si128(_mm_and_si128(_mm_srli_epi16(u, 6), six), _mm_slli_epi16(_mm_and_si128(u, six), 8)),
        _mm_or_si128(_mm_set1_epi16((short)0x8080),
                     _mm_and_si128(_mm_andnot_si128(le7f, le7ff), _mm_set1_epi16(0x40))));
    tail = _mm_blendv_epi8(tail, _mm_slli_epi16(u, 8), le7f);
    if (pairs) {
        __m128i v = _mm_add_epi16(u, _mm_set1_epi16(0x40)), pv = _mm_add_epi16(prev, _mm_set1_epi16(0x40));
        __m128i th = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(_mm_srli_epi16(v, 8), _mm_set1_epi16(7)), _mm_set1_epi16((short)0x80F0)),
            _mm_slli_epi16(_mm_and_si128(_mm_srli_epi16(v, 2), six), 8));
        /* the 3-byte tail of l has 30 in its first byte: bits 4-5 of it
         * become the low two bits of the high one's v */
        __m128i tl = _mm_or_si128(_mm_andnot_si128(_mm_set1_epi16(0x30), tail),
                                  _mm_slli_epi16(_mm_and_si128(pv, _mm_set1_epi16(3)), 4));
        tail = _mm_blendv_epi8(_mm_blendv_epi8(tail, th, hs), tl, ls);
        /* two bytes each: counted as below U+0800 */
        le7ff = _mm_or_si128(le7ff, _mm_or_si128(hs, ls));
    }
    /* bit k: unit k is at least U+0080; bit 8 + k: at least U+0800 */
    m = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(le7f, le7ff)) & 0xFFFFu;
    if (m == 0xFFFFu) {
        /* all 3 bytes: row FF, fixed places */
        const __m128i row = _mm_loadu_si128((const __m128i *)(const void *)u8k_pack4[0xFF]);
        _mm_storeu_si128((__m128i *)(void *)dst, _mm_shuffle_epi8(_mm_unpacklo_epi16(lead, tail), row));
        _mm_storeu_si128((__m128i *)(void *)(dst + 12), _mm_shuffle_epi8(_mm_unpackhi_epi16(lead, tail), row));
        return 24;
    }
    e0 = (m & 0x0F) | (m >> 4 & 0xF0);
    e1 = (m >> 4 & 0x0F) | (m >> 8 & 0xF0);
    n0 = 4 + (size_t)_mm_popcnt_u32(e0);
    /* 32-bit slots [0, lead, first, last]: units 0-3, then 4-7 */
    _mm_storeu_si128((__m128i *)(void *)dst,
                     _mm_shuffle_epi8(_mm_unpacklo_epi16(lead, tail),
                                      _mm_loadu_si128((const __m128i *)(const void *)u8k_pack4[e0])));
    _mm_storeu_si128((__m128i *)(void *)(dst + n0),
                     _mm_shuffle_epi8(_mm_unpackhi_epi16(lead, tail),
                                      _mm_loadu_si128((const __m128i *)(const void *)u8k_pack4[e1])));
    return n0 + 4 + (size_t)_mm_popcnt_u32(e1);
}

/* 8 units below U+0800 to UTF-8 at dst: C0 | u >> 6, 80 | u & 3F at the
 * end of each 16-bit slot (an ASCII unit in its second byte), packed by
 * row m (bit k: unit k takes 2 bytes) of u8k_pack2; returns the number
 * of bytes, at most 16; writes 16. */
U8K_INLINE size_t u8k_two8(__m128i u, __m128i le7f, unsigned m, unsigned char *dst)
{
    __m128i two = _mm_or_si128(_mm_or_si128(_mm_srli_epi16(u, 6), _mm_set1_epi16((short)0x80C0)),
                               _mm_slli_epi16(_mm_and_si128(u, _mm_set1_epi16(0x3F)), 8));
    two = _mm_blendv_epi8(two, _mm_slli_epi16(u, 8), le7f);
    _mm_storeu_si128((__m128i *)(void *)dst,
                     _mm_shuffle_epi8(two, _mm_loadu_si128((const __m128i *)(const void *)u8k_pack2[m])));
    return 8 + (size_t)_mm_popcnt_u32(m);
}

/* Some unit of a or b is a surrogate: (u & F800) == D800. */
U8K_INLINE bool u8k_any_surrogate(__m128i a, __m128i b)
{
    const __m128i f800 = _mm_set1_epi16((short)0xF800), d800 = _mm_set1_epi16((short)0xD800);
    __m128i s = _mm_or_si128(_mm_cmpeq_epi16(_mm_and_si128(a, f800), d800),
                             _mm_cmpeq_epi16(_mm_and_si128(b, f800), d800));
    return !_mm_testz_si128(s, s);
}

__attribute__((noinline)) static utf8kit_result simd_utf16_to_utf8_sse_long(const uint16_t *src, size_t len, unsigned char *dst,
                                             size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    const __m128i swap = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    /* 64 bytes of room: 16 units make at most 48 and write up to 52. */
    while (i + 16 <= len && o + 64 <= cap) {
        __m128i a, b;
        u8k_v v;
        if (v_narrow16(src + i, be, &v)) {
            v_store(dst + o, v);
            i += 16;
            o += 16;
            continue;
        }
        a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 8));
        if (be) {
            a = _mm_shuffle_epi8(a, swap);
            b = _mm_shuffle_epi8(b, swap);
        }
        if (_mm_testz_si128(_mm_or_si128(a, b), _mm_set1_epi16((short)0xF800))) {
            /* all below U+0800 */
            const __m128i x7f = _mm_set1_epi16(0x7F);
            __m128i la = _mm_cmpeq_epi16(_mm_min_epu16(a, x7f), a);
            __m128i lb = _mm_cmpeq_epi16(_mm_min_epu16(b, x7f), b);
            unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(la, lb)) & 0xFFFFu;
            o += u8k_two8(a, la, m & 0xFF, dst + o);
            o += u8k_two8(b, lb, m >> 8, dst + o);
            i += 16;
            continue;
        }
        if (u8k_any_surrogate(a, b)) {
            /* Well paired when every low one follows a high one: the low
             * bits are the high bits moved up one unit, once a high one
             * in the last unit is left for the next step (its 2 bytes are
             * written last and not counted). */
            const __m128i fc00 = _mm_set1_epi16((short)0xFC00);
            __m128i ha = _mm_cmpeq_epi16(_mm_and_si128(a, fc00), _mm_set1_epi16((short)0xD800));
            __m128i hb = _mm_cmpeq_epi16(_mm_and_si128(b, fc00), _mm_set1_epi16((short)0xD800));
            __m128i la = _mm_cmpeq_epi16(_mm_and_si128(a, fc00), _mm_set1_epi16((short)0xDC00));
            __m128i lb = _mm_cmpeq_epi16(_mm_and_si128(b, fc00), _mm_set1_epi16((short)0xDC00));
            unsigned hm = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(ha, hb));
            unsigned lm = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(la, lb));
            unsigned held = hm >> 15;
            if (lm == ((hm << 1) & 0xFFFFu)) {
                size_t n = u8k_bmp8(a, dst + o, true, _mm_slli_si128(a, 2), ha, la);
                n += u8k_bmp8(b, dst + o + n, true, _mm_alignr_epi8(b, a, 14), hb, lb);
                o += n - 2 * held;
                i += 16 - held;
                continue;
            }
        }
        if (u8k_any_surrogate(a, b)) {
            size_t j = u8k_stretch16(src, len, i, be);
            r = u8k_scalar_utf16_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_to8_shift(r, i, o);
            /* An error: the stretch may have cut a bad sequence short (a
             * high surrogate before the high one it stopped at), so the
             * rest of the input, whole, gives the report. */
            break;
        }
        o += u8k_bmp8(a, dst + o, false, a, a, a);
        o += u8k_bmp8(b, dst + o, false, b, b, b);
        i += 16;
    }
    /* The last 1..15 units, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the units it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        u8k_v v;
        if (v_narrow16(src + len - 16, be, &v)) {
            v_store(dst + o - (16 - (len - i)), v);
            return u8k_res(UTF8KIT_OK, len, o + (len - i), 0);
        }
    }
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift(r, i, o);
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop. */
static utf8kit_result simd_utf16_to_utf8_sse(const uint16_t *src, size_t len, unsigned char *dst,
                                             size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf16_to_utf8(src, len, dst, cap, flags);
    return simd_utf16_to_utf8_sse_long(src, len, dst, cap, flags);
}

/* UTF-32: the same, values below U+10000 and not surrogates narrowed to
 * 16-bit units (unsigned saturation leaves them as they are). */
__attribute__((noinline)) static utf8kit_result simd_utf32_to_utf8_sse_long(const uint32_t *src, size_t len, unsigned char *dst,
                                             size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 16 <= len && o + 64 <= cap) {
        const __m128i *p = (const __m128i *)(const void *)(src + i);
        __m128i a, b, big;
        u8k_v v;
        if (v_narrow32(src + i, &v)) {
            v_store(dst + o, v);
            i += 16;
            o += 16;
            continue;
        }
        big = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                           _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3)));
        a = _mm_packus_epi32(_mm_loadu_si128(p), _mm_loadu_si128(p + 1));
        b = _mm_packus_epi32(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3));
        if (!_mm_testz_si128(big, _mm_set1_epi32((int)0xFFFF0000u)) || u8k_any_surrogate(a, b)) {
            /* a value from U+10000 on, a surrogate or one above 10FFFF */
            size_t j = len - i > 64 ? i + 64 : len;
            r = u8k_scalar_utf32_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            return u8k_to8_shift(r, i, o);
        }
        o += u8k_bmp8(a, dst + o, false, a, a, a);
        o += u8k_bmp8(b, dst + o, false, b, b, b);
        i += 16;
    }
    /* The last 1..15 values, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the values it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        u8k_v v;
        if (v_narrow32(src + len - 16, &v)) {
            v_store(dst + o - (16 - (len - i)), v);
            return u8k_res(UTF8KIT_OK, len, o + (len - i), 0);
        }
    }
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift(r, i, o);
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop. */
static utf8kit_result simd_utf32_to_utf8_sse(const uint32_t *src, size_t len, unsigned char *dst,
                                             size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf32_to_utf8(src, len, dst, cap, flags);
    return simd_utf32_to_utf8_sse_long(src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_SSE_TO_UTF8_H */
