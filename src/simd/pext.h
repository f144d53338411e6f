/*
 * simd/pext.h - UTF-8 -> UTF-16 and UTF-32 for 256-bit vectors without a
 * byte compress (AVX2), written once; src/x86/kernels_avx2.c includes it
 * after simd/transcode.h and defines U8K_OWN_UTF8_TO_UTF16 and
 * U8K_OWN_UTF8_TO_UTF32. The vector unit builds, in 16-bit lanes, the
 * value of the character that would end at each byte: the byte itself
 * (ASCII), or with the byte before it (2 bytes), or with the two before
 * it (3 bytes; the byte before is then a tail, not a lead); a byte shuffle
 * from a table packs the lanes of the real ends, 8 at a time. 4-byte
 * characters go to the scalar kernel. (The name is historical: PEXT did
 * the packing once.) The other directions live in simd/pext_to_utf8.h (UTF-16 and
 * UTF-32 -> UTF-8) and simd/pext_latin1.h (Latin-1).
 */
#ifndef UTF8KIT_SIMD_PEXT_H
#define UTF8KIT_SIMD_PEXT_H

#include "internal.h"

/* Compaction of 16-bit lanes by one byte shuffle: row m of
 * u8k_pack_rows lists, for the 8 lanes of a 128-bit vector whose bit is
 * set in m, their two bytes in order (the slots after them read lane 0:
 * stored but past the count, so overwritten next). Built by macros: the
 * j-th slot holds lane p when bit p of m is set and j bits of m lie below
 * p (U8K_POP8 counts them). */
#define U8K_POP8(x)                                                                        \
    (((x) & 1) + ((x) >> 1 & 1) + ((x) >> 2 & 1) + ((x) >> 3 & 1) + ((x) >> 4 & 1) +      \
     ((x) >> 5 & 1) + ((x) >> 6 & 1) + ((x) >> 7 & 1))
#define U8K_AT(m, j, p) (((m) >> (p) & 1) && U8K_POP8((m) & ((1 << (p)) - 1)) == (j) ? (p) : 0)
#define U8K_LANE(m, j)                                                                     \
    (U8K_AT(m, j, 0) + U8K_AT(m, j, 1) + U8K_AT(m, j, 2) + U8K_AT(m, j, 3) + U8K_AT(m, j, 4) + \
     U8K_AT(m, j, 5) + U8K_AT(m, j, 6) + U8K_AT(m, j, 7))
#define U8K_SLOT(m, j) 2 * U8K_LANE(m, j), 2 * U8K_LANE(m, j) + 1
#define U8K_ROW(m)                                                                         \
    {U8K_SLOT(m, 0), U8K_SLOT(m, 1), U8K_SLOT(m, 2), U8K_SLOT(m, 3),                       \
     U8K_SLOT(m, 4), U8K_SLOT(m, 5), U8K_SLOT(m, 6), U8K_SLOT(m, 7)}
#define U8K_ROW4(m) U8K_ROW(m), U8K_ROW(m + 1), U8K_ROW(m + 2), U8K_ROW(m + 3)
#define U8K_ROW16(m) U8K_ROW4(m), U8K_ROW4(m + 4), U8K_ROW4(m + 8), U8K_ROW4(m + 12)
#define U8K_ROW64(m) U8K_ROW16(m), U8K_ROW16(m + 16), U8K_ROW16(m + 32), U8K_ROW16(m + 48)
static const unsigned char u8k_pack_rows[256][16] = {U8K_ROW64(0), U8K_ROW64(64), U8K_ROW64(128),
                                                    U8K_ROW64(192)};

/* The 16-bit lanes of x whose bit is set in m (8 bits), packed, to d;
 * writes 8 lanes; returns how many count. */
U8K_INLINE unsigned u8k_pack8x16(__m128i x, unsigned m, uint16_t *d)
{
    _mm_storeu_si128((__m128i *)(void *)d,
                     _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(const void *)u8k_pack_rows[m])));
    return (unsigned)__builtin_popcount(m);
}

/* The same, widened to 32-bit lanes; writes 8 lanes. */
U8K_INLINE unsigned u8k_pack8x32(__m128i x, unsigned m, uint32_t *d)
{
    __m128i c = _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(const void *)u8k_pack_rows[m]));
    _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(c));
    return (unsigned)__builtin_popcount(m);
}

/* UTF-8 -> UTF-16, or UTF-32 when wide (BE applies to UTF-16 only), in
 * 32-byte blocks at a fixed stride from the start (as in simd/compress.h),
 * so that where the next block starts never waits on this one's data.
 * done is the end of the last whole character stored, od the units before
 * it. A block with a byte F0..FF (or after a block ending in one) sends a
 * stretch from done to the scalar kernel, and the blocks start again
 * where it stopped (a character start). Under U8K_TRUSTED the blocks are
 * not checked: a block stores at most one unit per byte whatever it
 * holds, so invalid input still stays within utf8kit_max_output_size. */
U8K_INLINE utf8kit_result u8k_utf8_to_units_pext(const unsigned char *src, size_t len, void *out,
                                                 size_t cap, unsigned flags, bool wide)
{
    bool be = !wide && (flags & U8K_BE) != 0, trusted = (flags & U8K_TRUSTED) != 0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    size_t b = 0, o = 0, done = 0, od = 0;
    /* the block before b and its bytes C0..DF, E0..FF, F0..FF */
    __m256i prev = _mm256_setzero_si256();
    uint32_t pm2 = 0, pe0 = 0, pf4 = 0;
    u8k_vstate st;
    utf8kit_result r;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0,
                                          3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    u8k_vinit(&st);
    for (;;) {
        size_t j;
        /* 64 units of room: 32 and the overhang of u8k_pack8x16/32 */
        while (b + 32 <= len && o + 64 <= cap) {
            __m256i w = v_load(src + b), p1, p2, lo, hi;
            uint32_t high = (uint32_t)_mm256_movemask_epi8(w), tail, m2, e0, f4, e;
            if (high == 0) {
                /* all ASCII: valid unless prev ends inside a character */
                if (!trusted && v_any(v_subs(prev, st.tailmax)))
                    goto rest;
                if (wide)
                    v_store_widen32(dst32 + o, w);
                else
                    v_store_widen16(dst + o, w, be);
                o += 32;
                done = b + 32;
                od = o;
                prev = w;
                pm2 = pe0 = pf4 = 0;
                b += 32;
                continue;
            }
            if ((high & 0xFFFF) == 0) {
                /* At least 16 ASCII bytes first: widen all 32, keep the
                 * ASCII ones, and start the next block at the first byte
                 * that is not (a character start), after a block of zeros
                 * (as ASCII as the bytes before it). */
                unsigned a = (unsigned)__builtin_ctz(high);
                if (!trusted && v_any(v_subs(prev, st.tailmax)))
                    goto rest;
                if (wide)
                    v_store_widen32(dst32 + o, w);
                else
                    v_store_widen16(dst + o, w, be);
                o += a;
                b += a;
                done = b;
                od = o;
                prev = zero;
                pm2 = pe0 = pf4 = 0;
                continue;
            }
            /* as signed bytes: tails 80..BF are below -64, E0..FF above
             * -33, F0..FF above -17 (and below 0) */
            tail = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), w));
            e0 = high & (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(w, _mm256_set1_epi8(-33)));
            f4 = high & (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(w, _mm256_set1_epi8(-17)));
            m2 = high & ~tail & ~e0;
            if (f4 | pf4 >> 29)
                goto four;
            if (!trusted && v_any(u8k_vcheck2(&st, w, prev)))
                goto rest;
            /* a byte ends a character when it is ASCII, or a tail one
             * after a 2-byte lead or two after a 3-byte one */
            e = ~high | (tail & ((m2 << 1 | pm2 >> 31) | (e0 << 2 | pe0 >> 30)));
            if (e == 0)
                goto rest; /* only invalid input (under U8K_TRUSTED) */
            p1 = v_prev1(w, prev);
            p2 = v_prev2(w, prev);
            /* every byte k gets, in a 16-bit lane, the value of the
             * character that would end there */
            for (int h = 0; h < 2; h++) {
                __m128i wb = h ? _mm256_extracti128_si256(w, 1) : _mm256_castsi256_si128(w);
                __m128i p1b = h ? _mm256_extracti128_si256(p1, 1) : _mm256_castsi256_si128(p1);
                __m128i p2b = h ? _mm256_extracti128_si256(p2, 1) : _mm256_castsi256_si128(p2);
                __m256i bb = _mm256_cvtepu8_epi16(wb), a1 = _mm256_cvtepu8_epi16(p1b);
                __m256i a2 = _mm256_cvtepu8_epi16(p2b), six = _mm256_set1_epi16(0x3F);
                /* 110xxxxx 10yyyyyy */
                __m256i v2 = _mm256_or_si256(
                    _mm256_slli_epi16(_mm256_and_si256(a1, _mm256_set1_epi16(0x1F)), 6),
                    _mm256_and_si256(bb, six));
                /* 1110xxxx 10yyyyyy 10zzzzzz */
                __m256i v3 = _mm256_or_si256(
                    _mm256_slli_epi16(a2, 12),
                    _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(a1, six), 6),
                                    _mm256_and_si256(bb, six)));
                __m256i v = _mm256_blendv_epi8(v3, v2, _mm256_cmpgt_epi16(a1, _mm256_set1_epi16(0xBF)));
                v = _mm256_blendv_epi8(v, bb, _mm256_cmpgt_epi16(_mm256_set1_epi16(0x80), bb));
                if (be)
                    v = _mm256_shuffle_epi8(v, swap);
                if (h)
                    hi = v;
                else
                    lo = v;
            }
            if (wide) {
                o += u8k_pack8x32(_mm256_castsi256_si128(lo), e & 0xFF, dst32 + o);
                o += u8k_pack8x32(_mm256_extracti128_si256(lo, 1), e >> 8 & 0xFF, dst32 + o);
                o += u8k_pack8x32(_mm256_castsi256_si128(hi), e >> 16 & 0xFF, dst32 + o);
                o += u8k_pack8x32(_mm256_extracti128_si256(hi, 1), e >> 24, dst32 + o);
            } else {
                o += u8k_pack8x16(_mm256_castsi256_si128(lo), e & 0xFF, dst + o);
                o += u8k_pack8x16(_mm256_extracti128_si256(lo, 1), e >> 8 & 0xFF, dst + o);
                o += u8k_pack8x16(_mm256_castsi256_si128(hi), e >> 16 & 0xFF, dst + o);
                o += u8k_pack8x16(_mm256_extracti128_si256(hi, 1), e >> 24, dst + o);
            }
            done = b + 32 - (size_t)__builtin_clz(e);
            od = o;
            prev = w;
            pm2 = m2;
            pe0 = e0;
            pf4 = f4;
            b += 32;
        }
        break;
    four:
        /* F0..FF: a stretch for the scalar kernel, then blocks again from
         * where it stopped (a character start after valid text) */
        j = u8k_stretch8(src, len, done);
        r = wide ? u8k_scalar_utf8_to_utf32(src + done, j - done, dst32 + od, cap - od, flags)
                 : u8k_scalar_utf8_to_utf16(src + done, j - done, dst + od, cap - od, flags);
        if (r.status != UTF8KIT_OK) {
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                return u8k_shift(r, done, od);
            break;
        }
        b = done = j;
        o = od = od + r.written;
        prev = zero;
        pm2 = pe0 = pf4 = 0;
    }
rest:
    r = wide ? u8k_scalar_utf8_to_utf32(src + done, len - done, dst32 + od, cap - od, flags)
             : u8k_scalar_utf8_to_utf16(src + done, len - done, dst + od, cap - od, flags);
    return u8k_shift(r, done, od);
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
