/*
 * kernels_avx2.c - the vector layer for AVX2 (32-byte blocks) and the
 * kernel table built from src/simd/. Compiled with -mavx2 -mbmi -mbmi2
 * -mlzcnt -mpopcnt.
 */
#include "x86/x86.h"

#include <immintrin.h>

#include "x86/part.h"

typedef __m256i u8k_v;
#define VW 32

U8K_INLINE u8k_v v_load(const unsigned char *p) { return _mm256_loadu_si256((const __m256i *)p); }
/* (x86/part.h: in-bounds loads and a shuffle, no copy to the stack) */
U8K_INLINE u8k_v v_load_part(const unsigned char *p, size_t n) { return u8k_part32(p, n); }
U8K_INLINE void v_store(unsigned char *p, u8k_v v) { _mm256_storeu_si256((__m256i *)p, v); }
U8K_INLINE u8k_v v_splat(unsigned char b) { return _mm256_set1_epi8((char)b); }
U8K_INLINE u8k_v v_table(const unsigned char t[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t));
}
U8K_INLINE u8k_v v_lookup(u8k_v t, u8k_v i) { return _mm256_shuffle_epi8(t, i); }
/* t0 in the low 128-bit part, t1 in the high one */
U8K_INLINE u8k_v v_table2(const unsigned char t0[16], const unsigned char t1[16])
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)t0)),
                                   _mm_loadu_si128((const __m128i *)t1), 1);
}
U8K_INLINE u8k_v v_and(u8k_v a, u8k_v b) { return _mm256_and_si256(a, b); }
U8K_INLINE u8k_v v_or(u8k_v a, u8k_v b) { return _mm256_or_si256(a, b); }
U8K_INLINE u8k_v v_xor(u8k_v a, u8k_v b) { return _mm256_xor_si256(a, b); }
U8K_INLINE u8k_v v_shr4(u8k_v v) { return _mm256_and_si256(_mm256_srli_epi16(v, 4), v_splat(0x0F)); }
/* alignr works within 128-bit lanes, so it is given, as its low operand,
 * the vector whose low lane is prev's high lane and whose high lane is
 * cur's low lane. */
U8K_INLINE u8k_v v_mid(u8k_v c, u8k_v p) { return _mm256_permute2x128_si256(p, c, 0x21); }
U8K_INLINE u8k_v v_prev1(u8k_v c, u8k_v p) { return _mm256_alignr_epi8(c, v_mid(c, p), 15); }
U8K_INLINE u8k_v v_prev2(u8k_v c, u8k_v p) { return _mm256_alignr_epi8(c, v_mid(c, p), 14); }
U8K_INLINE u8k_v v_prev3(u8k_v c, u8k_v p) { return _mm256_alignr_epi8(c, v_mid(c, p), 13); }
U8K_INLINE u8k_v v_subs(u8k_v a, u8k_v b) { return _mm256_subs_epu8(a, b); }
U8K_INLINE bool v_any(u8k_v v) { return !_mm256_testz_si256(v, v); }
U8K_INLINE uint64_t v_high(u8k_v v) { return (uint64_t)(uint32_t)_mm256_movemask_epi8(v); }
/* (t < 127) as VW less the bytes below t + 1: gcc 12 made v > t into
 * min(v, t + 1) == t + 1, one instruction more, where t + 1 > v is one
 * compare: utf8kit_utf16_length 15-19% faster on AVX2 and SSE4.2
 * (utf8kit_count within the noise) */
U8K_INLINE unsigned v_count_gt(u8k_v v, signed char t)
{
    return 32u - (unsigned)_mm_popcnt_u32((uint32_t)_mm256_movemask_epi8(
                     _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(t + 1)), v)));
}
/* The validator reads the bytes before each block from memory
 * (u8k_vprevs_at in simd/validate.h), but the scan that also counts
 * (utf8kit_validate_counts) shifts registers: with its accumulators in
 * 16 registers, the loads made it 2-8% slower on Sapphire Rapids. */
#define U8K_LOAD_PREVS 1
#define U8K_TALLY_SHIFT_PREVS 1
U8K_INLINE u8k_v v_max(u8k_v a, u8k_v b) { return _mm256_max_epu8(a, b); }
U8K_INLINE u8k_v v_add(u8k_v a, u8k_v b) { return _mm256_add_epi8(a, b); }
/* acc + 1 in every byte where v equals t (the compare gives -1 there). */
U8K_INLINE u8k_v v_inc_eq(u8k_v acc, u8k_v v, u8k_v t)
{
    return _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, t));
}
/* acc + 1 in every byte where v < t (signed; the compare gives -1 there) */
U8K_INLINE u8k_v v_inc_lt(u8k_v acc, u8k_v v, signed char t)
{
    return _mm256_sub_epi8(acc, _mm256_cmpgt_epi8(_mm256_set1_epi8(t), v));
}
/* w + the sums of each 8 bytes of v (vpsadbw), in 64-bit lanes. */
U8K_INLINE u8k_v v_sad_add(u8k_v w, u8k_v v)
{
    return _mm256_add_epi64(w, _mm256_sad_epu8(v, _mm256_setzero_si256()));
}
U8K_INLINE uint64_t v_sum64(u8k_v w)
{
    __m128i x = _mm_add_epi64(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    return (uint64_t)_mm_cvtsi128_si64(x) + (uint64_t)_mm_extract_epi64(x, 1);
}

/* VW units from the VW bytes at p (zero-extended straight from memory:
 * no shuffles to take the register apart) */
U8K_INLINE void v_load_widen16(uint16_t *d, const unsigned char *p, bool be)
{
    __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
    __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
    if (be) {
        a = _mm256_slli_epi16(a, 8);
        b = _mm256_slli_epi16(b, 8);
    }
    _mm256_storeu_si256((__m256i *)(void *)d, a);
    _mm256_storeu_si256((__m256i *)(void *)(d + 16), b);
}

/* The VW bytes of v, loaded from p, as VW units at d (32-bit when wide):
 * zero-extended out of the register, for the ASCII blocks at the start
 * of an input (u8k_ascii_head in simd/pext.h). There, on AMD Zen 5, this
 * widens pure ASCII text 4-23% faster than loading the bytes again for a
 * zero-extension from memory; in the block loop that form stays (this
 * one there cost mostly-ASCII text 8%). */
U8K_INLINE void v_widen_ascii(void *d, u8k_v v, const unsigned char *p, bool be, bool wide)
{
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    (void)p;
    if (wide) {
        __m256i *o = (__m256i *)d;
        _mm256_storeu_si256(o, _mm256_cvtepu8_epi32(lo));
        _mm256_storeu_si256(o + 1, _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
        _mm256_storeu_si256(o + 2, _mm256_cvtepu8_epi32(hi));
        _mm256_storeu_si256(o + 3, _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
    } else {
        __m256i a = _mm256_cvtepu8_epi16(lo), b = _mm256_cvtepu8_epi16(hi);
        if (be) {
            a = _mm256_slli_epi16(a, 8);
            b = _mm256_slli_epi16(b, 8);
        }
        _mm256_storeu_si256((__m256i *)d, a);
        _mm256_storeu_si256((__m256i *)d + 1, b);
    }
}

/* 8 units from the 8 bytes at p (d: 16-bit units, or 32-bit when wide) */
U8K_INLINE void v_widen8(void *d, const unsigned char *p, bool be, bool wide)
{
    __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)p);
    if (wide) {
        _mm256_storeu_si256((__m256i *)d, _mm256_cvtepu8_epi32(x));
        return;
    }
    x = _mm_cvtepu8_epi16(x);
    _mm_storeu_si128((__m128i *)d, be ? _mm_slli_epi16(x, 8) : x);
}

U8K_INLINE void v_load_widen32(uint32_t *d, const unsigned char *p)
{
    for (int k = 0; k < VW; k += 8)
        _mm256_storeu_si256((__m256i *)(void *)(d + k),
                            _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p + k))));
}

/* The narrowing for simd/shuffle_to_utf8.h (ASCII runs) and simd/narrow.h
 * (the limits FF and 7F): the VW units at s (16-bit, big-endian in memory
 * when be) as VW bytes in *out, or false when one has a bit of `bad`, the
 * bits above the limit as they lie in memory. One test of the OR of the
 * loads, then saturating packs (per 128-bit lane: a0-7 b0-7 | a8-15
 * b8-15, put back in order by a permutation). */
U8K_INLINE bool v_narrow16_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)s);
    __m256i b = _mm256_loadu_si256((const __m256i *)s + 1);
    if (!_mm256_testz_si256(_mm256_or_si256(a, b), _mm256_set1_epi16((short)bad)))
        return false;
    if (be) {
        a = _mm256_srli_epi16(a, 8);
        b = _mm256_srli_epi16(b, 8);
    }
    *out = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
    return true;
}

/* The same for VW 32-bit units (big-endian in memory when be): per
 * 128-bit lane, 4 units of a, b, c, d to bytes 0-3, 4-7, ..., then lane
 * 1's dwords between lane 0's. (After the test every unit is at most FF,
 * so the signed first pack saturates nothing.) */
U8K_INLINE bool v_narrow32_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    const __m256i *p = (const __m256i *)s;
    __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
    __m256i c = _mm256_loadu_si256(p + 2), d = _mm256_loadu_si256(p + 3);
    if (!_mm256_testz_si256(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)),
                            _mm256_set1_epi32((int)bad)))
        return false;
    if (be) {
        a = _mm256_srli_epi32(a, 24);
        b = _mm256_srli_epi32(b, 24);
        c = _mm256_srli_epi32(c, 24);
        d = _mm256_srli_epi32(d, 24);
    }
    a = _mm256_packus_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
    *out = _mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    return true;
}

/* ASCII: no bit outside 007F (7F00 when big-endian) */
U8K_INLINE bool v_narrow16(const uint16_t *s, bool be, u8k_v *out)
{
    return v_narrow16_bad(s, be, be ? 0x80FFu : 0xFF80u, out);
}

U8K_INLINE bool v_narrow32(const uint32_t *s, u8k_v *out)
{
    return v_narrow32_bad(s, false, 0xFFFFFF80u, out);
}
/* 16-bit lanes, for simd/pext.h */
U8K_INLINE u8k_v v_widen16(u8k_v v, int h)
{
    return _mm256_cvtepu8_epi16(h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v));
}
U8K_INLINE u8k_v v_splat16(uint16_t x) { return _mm256_set1_epi16((short)x); }
U8K_INLINE u8k_v v_shl16(u8k_v v, int n) { return _mm256_slli_epi16(v, n); }
U8K_INLINE u8k_v v_shr16(u8k_v v, int n) { return _mm256_srli_epi16(v, n); }
U8K_INLINE u8k_v v_add16(u8k_v a, u8k_v b) { return _mm256_add_epi16(a, b); }
U8K_INLINE u8k_v v_gt16(u8k_v a, u8k_v b) { return _mm256_cmpgt_epi16(a, b); }
U8K_INLINE u8k_v v_blend(u8k_v a, u8k_v b, u8k_v m) { return _mm256_blendv_epi8(a, b, m); }
U8K_INLINE u8k_v v_bswap16(u8k_v v)
{
    return _mm256_shuffle_epi8(v, _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                                                   1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
}
/* each 128-bit half by its own shuffle, the second stored after the
 * first's count */
U8K_INLINE unsigned v_pack16(uint16_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    unsigned n = (unsigned)_mm_popcnt_u32(m & 0xFF);
    _mm_storeu_si128((__m128i *)(void *)d,
                     _mm_shuffle_epi8(_mm256_castsi256_si128(x),
                                      _mm_loadu_si128((const __m128i *)(const void *)rows[m & 0xFF])));
    _mm_storeu_si128((__m128i *)(void *)(d + n),
                     _mm_shuffle_epi8(_mm256_extracti128_si256(x, 1),
                                      _mm_loadu_si128((const __m128i *)(const void *)rows[m >> 8])));
    return n + (unsigned)_mm_popcnt_u32(m >> 8);
}
U8K_INLINE unsigned v_pack32(uint32_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    unsigned n = (unsigned)_mm_popcnt_u32(m & 0xFF);
    __m128i a = _mm_shuffle_epi8(_mm256_castsi256_si128(x),
                                 _mm_loadu_si128((const __m128i *)(const void *)rows[m & 0xFF]));
    __m128i c = _mm_shuffle_epi8(_mm256_extracti128_si256(x, 1),
                                 _mm_loadu_si128((const __m128i *)(const void *)rows[m >> 8]));
    _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(a));
    _mm256_storeu_si256((__m256i *)(void *)(d + n), _mm256_cvtepu16_epi32(c));
    return n + (unsigned)_mm_popcnt_u32(m >> 8);
}
/* both halves of x and y by the same rows, then 16-bit lanes
 * interleaved: unpack works within 128-bit lanes, so the row pair is
 * one vector and each half is stored after the first's count */
U8K_INLINE unsigned v_pack32x2(uint32_t *d, u8k_v x, u8k_v y, const unsigned char (*rows)[16],
                               unsigned m)
{
    unsigned n = (unsigned)_mm_popcnt_u32(m & 0xFF);
    __m256i r = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)rows[m & 0xFF])),
        _mm_loadu_si128((const __m128i *)(const void *)rows[m >> 8]), 1);
    __m256i a = _mm256_shuffle_epi8(x, r), b = _mm256_shuffle_epi8(y, r);
    __m256i lo = _mm256_unpacklo_epi16(a, b), hi = _mm256_unpackhi_epi16(a, b);
    _mm256_storeu_si256((__m256i *)(void *)d, _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(void *)(d + n), _mm256_permute2x128_si256(lo, hi, 0x31));
    return n + (unsigned)_mm_popcnt_u32(m >> 8);
}

/* 16-bit lanes, for simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_le16(u8k_v a, u8k_v b) { return _mm256_cmpeq_epi16(_mm256_min_epu16(a, b), a); }
U8K_INLINE u8k_v v_eq16(u8k_v a, u8k_v b) { return _mm256_cmpeq_epi16(a, b); }
U8K_INLINE u8k_v v_andnot(u8k_v a, u8k_v b) { return _mm256_andnot_si256(b, a); }
/* (unpack works within 128-bit parts, as the contract says) */
U8K_INLINE u8k_v v_zip16(u8k_v a, u8k_v b, int h)
{
    return h ? _mm256_unpackhi_epi16(a, b) : _mm256_unpacklo_epi16(a, b);
}
/* The lanes are all ones or all zeros, so movemask gives each lane's
 * bit twice: even places from a, odd ones from b. */
U8K_INLINE uint32_t v_mask16i(u8k_v a, u8k_v b)
{
    return ((uint32_t)_mm256_movemask_epi8(a) & 0x55555555u) |
           ((uint32_t)_mm256_movemask_epi8(b) & 0xAAAAAAAAu);
}
/* (movemask gives two bits per lane: PEXT keeps one; a pack first and
 * moving the parts together was 4-16% slower on 2-byte text. AMD cores
 * with a slow PEXT do not run this: see u8k_x86_slow_pext in x86/x86.h) */
U8K_INLINE uint32_t v_mask16(u8k_v a)
{
    return _pext_u32((uint32_t)_mm256_movemask_epi8(a), 0x55555555u);
}
/* (packus works per 128-bit lane: the permute puts the halves in order) */
U8K_INLINE u8k_v v_pack8(u8k_v a, u8k_v b)
{
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
}
U8K_INLINE u8k_v v_sat16(u8k_v a, u8k_v b)
{
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
}
U8K_INLINE u8k_v v_splat32(uint32_t x) { return _mm256_set1_epi32((int)x); }
U8K_INLINE bool v_overlap(u8k_v a, u8k_v b) { return !_mm256_testz_si256(a, b); }
U8K_INLINE void v_store_part(unsigned char *d, u8k_v v, int p)
{
    __m128i x = p ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
    _mm_storeu_si128((__m128i *)(void *)d, x);
}
/* simd/shuffle_to_utf8.h: the part taken out first and 16 bytes
 * shuffled (than all 32 by a row copied to both parts: 3-9% faster on
 * text of 3-byte characters and ASCII, Zen 5) */
#define U8K_HAVE_STORE_SHUFFLED 1
U8K_INLINE void v_store_shuffled(unsigned char *d, u8k_v v, int p, const unsigned char row[16])
{
    __m128i x = p ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
    _mm_storeu_si128((__m128i *)(void *)d,
                     _mm_shuffle_epi8(x, _mm_loadu_si128((const __m128i *)(const void *)row)));
}
/* 32-bit lanes, for the 4-byte values of simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_gt32(u8k_v a, u8k_v b) { return _mm256_cmpgt_epi32(a, b); }
U8K_INLINE u8k_v v_shl32(u8k_v v, int n) { return _mm256_slli_epi32(v, n); }
U8K_INLINE u8k_v v_shr32(u8k_v v, int n) { return _mm256_srli_epi32(v, n); }
U8K_INLINE uint32_t v_mask32(u8k_v a) { return (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(a)); }
/* (GCC would rebuild a pinned constant inside a loop from a general
 * register, two shuffle-port instructions; the empty asm stops it) */
U8K_INLINE u8k_v v_pin(u8k_v v)
{
    __asm__("" : "+x"(v));
    return v;
}

#define U8K_THREE_RUNS 1
/* For the runs of 3-byte characters of simd/pext.h: 12 bytes from p in
 * the low 128-bit lane, 12 from p + 12 in the high one (each lane's last
 * 4 bytes are not used; 28 bytes are read) */
U8K_INLINE u8k_v v_load_three(const unsigned char *p)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
        _mm_loadu_si128((const __m128i *)(const void *)(p + 12)), 1);
}
/* the 8 32-bit lanes of v (each below 0x10000) as 8 16-bit units at d */
U8K_INLINE void v_store_units16(uint16_t *d, u8k_v v, bool be)
{
    /* packed, lane 0 holds units 0..3 twice and lane 1 units 4..7:
     * quadwords 0 and 2 together */
    u8k_v u = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0x08);
    if (be)
        u = v_bswap16(u);
    _mm_storeu_si128((__m128i *)(void *)d, _mm256_castsi256_si128(u));
}

#define U8K_OWN_UTF16_TO_UTF8 1 /* from simd/shuffle_to_utf8.h */
#define U8K_OWN_UTF8_TO_UTF16 1 /* from simd/pext.h */
#define U8K_OWN_LATIN1 1        /* from simd/pext_latin1.h */
#define U8K_OWN_UTF8_TO_UTF32 1 /* from simd/pext.h */
#define U8K_OWN_UTF32_TO_UTF8 1 /* from simd/shuffle_to_utf8.h */
#include "simd/validate.h"
#include "simd/transcode.h"
/* U8K_REPL in the UTF-8 -> UTF-16/32 block loop (simd/pext.h) */
#define U8K_PEXT_REPL 1
#include "simd/pext.h"
#include "simd/shuffle_to_utf8.h"
#include "simd/pext_latin1.h"
#include "simd/repair.h"
#include "simd/units.h"
#include "simd/widen.h"
#include "simd/narrow.h"

/* The table, its five operations that use PEXT given: AVX2's own, or for
 * a CPU whose PEXT is slow (x86/x86.h) SSE4.2's (which has no
 * latin1_to_utf8_c1). */
#define U8K_AVX2_TABLE(from16, from32, from_latin1, to_latin1, from_latin1_c1)            \
    {"avx2",                                                                            \
     simd_is_valid,                                                                     \
     simd_validate,                                                                     \
     simd_ascii_prefix,                                                                 \
     simd_count,                                                                        \
     simd_utf16_length,                                                                 \
     simd_validate_counts,                                                              \
     simd_utf8_to_utf16_pext,                                                           \
     simd_utf8_to_utf32_pext,                                                           \
     from16,                                                                            \
     from32,                                                                            \
     from_latin1,                                                                       \
     to_latin1,                                                                         \
     simd_count_assume_valid,                                                           \
     simd_utf8_repair,                                                                  \
     simd_units,                                                                        \
     from_latin1_c1,                                                                    \
     simd_widen,                                                                        \
     simd_narrow,                                                                       \
     NULL}
const u8k_kernels u8k_avx2_kernels =
    U8K_AVX2_TABLE(simd_utf16_to_utf8_shuffle, simd_utf32_to_utf8_shuffle,
                   simd_latin1_to_utf8_pext, simd_utf8_to_latin1_pext, simd_latin1_to_utf8_c1_pext);
const u8k_kernels u8k_avx2_slow_pext_kernels =
    U8K_AVX2_TABLE(u8k_sse42_utf16_to_utf8, u8k_sse42_utf32_to_utf8, u8k_sse42_latin1_to_utf8,
                   u8k_sse42_utf8_to_latin1, NULL);
