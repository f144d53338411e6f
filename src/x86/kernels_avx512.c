/*
 * kernels_avx512.c - the vector layer for AVX-512 (64-byte blocks: F, BW,
 * VL, VBMI, VBMI2) and the kernel table built from src/simd/.
 */
#include "x86/x86.h"

#include <immintrin.h>

typedef __m512i u8k_v;
#define VW 64

U8K_INLINE u8k_v v_load(const unsigned char *p) { return _mm512_loadu_si512((const void *)p); }
/* A masked load reads (and may fault on) only the bytes it selects. */
U8K_INLINE u8k_v v_load_part(const unsigned char *p, size_t n)
{
    return _mm512_maskz_loadu_epi8((__mmask64)((UINT64_C(1) << n) - 1), (const void *)p);
}
U8K_INLINE void v_store(unsigned char *p, u8k_v v) { _mm512_storeu_si512((void *)p, v); }
U8K_INLINE u8k_v v_splat(unsigned char b) { return _mm512_set1_epi8((char)b); }
U8K_INLINE u8k_v v_table(const unsigned char t[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
}
/* U8K_SPARE marks layer functions that this file's generic code no longer
 * calls (the validator has its own lookups and shifts, U8K_OWN_VCHECK
 * below), kept for generic code that may: clang warns about an unused
 * static inline function in a .c file. */
#define U8K_SPARE U8K_INLINE __attribute__((unused))
U8K_SPARE u8k_v v_lookup(u8k_v t, u8k_v i) { return _mm512_shuffle_epi8(t, i); }
U8K_INLINE u8k_v v_and(u8k_v a, u8k_v b) { return _mm512_and_si512(a, b); }
U8K_INLINE u8k_v v_or(u8k_v a, u8k_v b) { return _mm512_or_si512(a, b); }
U8K_INLINE u8k_v v_xor(u8k_v a, u8k_v b) { return _mm512_xor_si512(a, b); }
U8K_SPARE u8k_v v_shr4(u8k_v v) { return _mm512_and_si512(_mm512_srli_epi16(v, 4), v_splat(0x0F)); }
/* VBMI's two-table byte permutation reads the stream prev|cur directly:
 * index k - n (mod 128) picks byte k - n of cur, or, when it wraps, byte
 * 64 + k - n of prev (bit 6 of the index selects prev; bit 7 is ignored,
 * so a negative k - n needs no mask). Byte k of U8K_IDX(n) is k - n. */
#define U8K_IDX(n)                                                                          \
    _mm512_set_epi8(63 - n, 62 - n, 61 - n, 60 - n, 59 - n, 58 - n, 57 - n, 56 - n, 55 - n,   \
                    54 - n, 53 - n, 52 - n, 51 - n, 50 - n, 49 - n, 48 - n, 47 - n, 46 - n,    \
                    45 - n, 44 - n, 43 - n, 42 - n, 41 - n, 40 - n, 39 - n, 38 - n, 37 - n,    \
                    36 - n, 35 - n, 34 - n, 33 - n, 32 - n, 31 - n, 30 - n, 29 - n, 28 - n,    \
                    27 - n, 26 - n, 25 - n, 24 - n, 23 - n, 22 - n, 21 - n, 20 - n, 19 - n,    \
                    18 - n, 17 - n, 16 - n, 15 - n, 14 - n, 13 - n, 12 - n, 11 - n, 10 - n,    \
                    9 - n, 8 - n, 7 - n, 6 - n, 5 - n, 4 - n, 3 - n, 2 - n, 1 - n, (0 - n) & 127)
U8K_SPARE u8k_v v_prev1(u8k_v c, u8k_v p) { return _mm512_permutex2var_epi8(c, U8K_IDX(1), p); }
U8K_SPARE u8k_v v_prev2(u8k_v c, u8k_v p) { return _mm512_permutex2var_epi8(c, U8K_IDX(2), p); }
U8K_SPARE u8k_v v_prev3(u8k_v c, u8k_v p) { return _mm512_permutex2var_epi8(c, U8K_IDX(3), p); }
U8K_INLINE u8k_v v_subs(u8k_v a, u8k_v b) { return _mm512_subs_epu8(a, b); }
U8K_INLINE bool v_any(u8k_v v) { return _mm512_test_epi8_mask(v, v) != 0; }
U8K_INLINE uint64_t v_high(u8k_v v) { return (uint64_t)_mm512_movepi8_mask(v); }
U8K_INLINE unsigned v_count_gt(u8k_v v, signed char t)
{
    return (unsigned)_mm_popcnt_u64(_mm512_cmpgt_epi8_mask(v, _mm512_set1_epi8(t)));
}
/* The validator's own table lookups (U8K_OWN_VCHECK in simd/validate.h):
 * vpermb picks from a 64-byte table by the low 6 bits of each index byte
 * and ignores the top 2, so
 *  - v_lookup_low6(t, x) with v_table(t) (16 entries repeated 4 times)
 *    looks up the low nibble of x, with no AND to clear the high bits;
 *  - v_lookup_top6(t, x) looks up the top 6 bits of x: a 16-bit shift by
 *    2 brings them to the bottom of each byte (the 2 bits it shifts in
 *    from the next byte land in the ignored top), and the 64-entry
 *    table holds t[j >> 2] at entry j, the high nibble's entry (laid out
 *    by simd/validate.h).
 * No shift-and-mask pair and no vpshufb high-bit zeroing. */
U8K_INLINE u8k_v v_lookup_low6(u8k_v t, u8k_v x) { return _mm512_permutexvar_epi8(x, t); }
U8K_INLINE u8k_v v_lookup_top6(u8k_v t, u8k_v x)
{
    return _mm512_permutexvar_epi8(_mm512_srli_epi16(x, 2), t);
}
/* v_prevs gives v_prev1, v_prev2 and v_prev3 at once for the validator:
 * vpermt2b takes two cycles of port 5 each here, while one valignq (the
 * 128-bit lanes of prev|cur moved up by one lane) and three in-lane
 * vpalignr take one each. */
U8K_INLINE void v_prevs(u8k_v c, u8k_v p, u8k_v *p1, u8k_v *p2, u8k_v *p3)
{
    u8k_v mid = _mm512_alignr_epi64(c, p, 6); /* prev's last lane, then cur's first three */
    *p1 = _mm512_alignr_epi8(c, mid, 15);
    *p2 = _mm512_alignr_epi8(c, mid, 14);
    *p3 = _mm512_alignr_epi8(c, mid, 13);
}
#define U8K_OWN_VCHECK 1
/* An unsigned compare into a mask: one instruction, where the generic
 * test (a saturating subtract and the high bits) takes two. */
#define U8K_HAVE_ANY_GE 1
U8K_INLINE bool v_any_ge(u8k_v v, u8k_v t) { return _mm512_cmpge_epu8_mask(v, t) != 0; }
/* Loop constants from memory (u8k_splat4 in internal.h), used by the
 * validator and by most of simd/compress.h: measured, the 2-byte paths of
 * the latter are as fast or faster with immediates. */
#define U8K_HAVE_SPLAT_K 1
U8K_INLINE u8k_v v_splat_k(unsigned char b) { return _mm512_set1_epi32((int)u8k_splat4[b]); }
/* The validator reads the bytes before each block from memory
 * (u8k_vprevs_at in simd/validate.h). */
#define U8K_LOAD_PREVS 1
/* A group of blocks is tested for bytes >= E0 before F0 (u8k_vscan):
 * measured on Zen 5, validation of 1- and 2-octet text and of mixed
 * Latin text 3-13% faster, 3- and 4-octet text unchanged. (AVX2 and
 * SSE4.2 keep F0 first: there it cost up to 5% and 23% on some texts.) */
#define U8K_TWO_FIRST 1
/* Runs of 4-octet characters in validation and counting
 * (U8K_HAVE_FOUR_CHECK in simd/validate.h): non-zero where a 32-bit lane
 * of x is not one 4-octet form of U+10000..U+10FFFF. Its form, a lead
 * F0..F7 and three tails, is (x & C0C0C0F8) == 808080F0. Given the form,
 * its value is in range exactly when the lead a and the next byte b are
 * F0 90..F4 8F; 64a + b (vpmaddubsw, weights 64 and 1, in the lane's low
 * 16 bits) is then 3C90..3D8F, so 64a + b - 3C90 is below 100. Four
 * operations: two ternary logics, a multiply-add, a subtract. Measured:
 * validation (session 27) of text of emoji alone 1.7x, texts without
 * 4-octet characters 0.97-1.03x (the block loops' layout); counting
 * (session 28) emoji 2.0-2.8x, other texts 0.94-1.06x. AVX2 does not set
 * it: 2.1-2.2x on emoji there, but most other texts 1-5% slower, in the
 * form here and in one with the entry test inline (which spilled among
 * its 16 registers). */
#define U8K_HAVE_FOUR_CHECK 1
U8K_INLINE u8k_v v_four_bad(u8k_v x)
{
    __m512i form = _mm512_ternarylogic_epi32(x, _mm512_set1_epi32((int)0xC0C0C0F8u),
                                             _mm512_set1_epi32((int)0x808080F0u), 0x6A);
    __m512i y = _mm512_sub_epi16(_mm512_maddubs_epi16(x, _mm512_set1_epi16(0x0140)),
                                 _mm512_set1_epi16(0x3C90));
    /* form | (y & 0000FF00): the high byte of y in the low half only */
    return _mm512_ternarylogic_epi32(form, y, _mm512_set1_epi32(0xFF00), 0xF8);
}
U8K_INLINE u8k_v v_max(u8k_v a, u8k_v b) { return _mm512_max_epu8(a, b); }
U8K_INLINE u8k_v v_add(u8k_v a, u8k_v b) { return _mm512_add_epi8(a, b); }
/* acc + 1 in every byte where v equals t: a masked subtract of -1. */
U8K_INLINE u8k_v v_inc_eq(u8k_v acc, u8k_v v, u8k_v t)
{
    return _mm512_mask_sub_epi8(acc, _mm512_cmpeq_epi8_mask(v, t), acc, _mm512_set1_epi8(-1));
}
/* w + the sums of each 8 bytes of v (vpsadbw), in 64-bit lanes. */
U8K_INLINE u8k_v v_sad_add(u8k_v w, u8k_v v)
{
    return _mm512_add_epi64(w, _mm512_sad_epu8(v, _mm512_setzero_si512()));
}
U8K_INLINE uint64_t v_sum64(u8k_v w) { return (uint64_t)_mm512_reduce_add_epi64(w); }

/* No v_store_widen16 / v_store_widen32: simd/compress.h widens ASCII
 * blocks straight from memory. */

/* No v_narrow16: UTF-16 -> UTF-8 comes from simd/compress_to_utf8.h. */

/* No v_narrow32 either: UTF-32 -> UTF-8 comes from simd/compress_to_utf8.h. */

/* Every transcoder is AVX-512's own: simd/compress.h (UTF-8 -> UTF-16/32),
 * simd/compress_to_utf8.h (UTF-16/32 -> UTF-8), simd/latin1_avx512.h. */
#define U8K_OWN_UTF8_TO_UTF16 1
#define U8K_OWN_UTF8_TO_UTF32 1
#define U8K_OWN_UTF16_TO_UTF8 1
#define U8K_OWN_UTF32_TO_UTF8 1
#define U8K_OWN_LATIN1 1
#include "simd/validate.h"
#include "simd/transcode.h"
#include "simd/compress.h"
#include "simd/compress_to_utf8.h"
#include "simd/latin1_avx512.h"
#define U8K_OWN_REPAIR 1 /* simd/repair_avx512.h */
#include "simd/repair.h"
#include "simd/repair_avx512.h"
#include "simd/units.h"
/* 64 bytes a step, each part zero-extended from memory (simd/compress.h) */
#define U8K_WIDEN_VW(d, s, wide, be) u8k_widen_block((d), (s), (wide), (be))
#include "simd/widen.h"

/* VW units at s (32-bit when wide, else 16-bit; big-endian in memory when
 * be) as VW bytes at d, or false, nothing written, when one has a bit of
 * bad (the bits above FF or 7F, simd/narrow.h): one test of the OR of the
 * loads, then a truncating narrow of each. AVX-512's own: it has no
 * v_narrow16_bad / v_narrow32_bad (simd/narrow.h). */
#define U8K_OWN_NARROW_UNITS 1
U8K_INLINE bool v_narrow_units(unsigned char *d, const unsigned char *s, bool wide, bool be,
                               unsigned bad)
{
    if (wide) {
        __m512i a = v_load(s), b = v_load(s + 64), c = v_load(s + 128), e = v_load(s + 192);
        if (_mm512_test_epi32_mask(_mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, e)),
                                   _mm512_set1_epi32((int)bad)) != 0)
            return false;
        if (be) {
            a = _mm512_srli_epi32(a, 24);
            b = _mm512_srli_epi32(b, 24);
            c = _mm512_srli_epi32(c, 24);
            e = _mm512_srli_epi32(e, 24);
        }
        _mm_storeu_si128((__m128i *)(void *)d, _mm512_cvtepi32_epi8(a));
        _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm512_cvtepi32_epi8(b));
        _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm512_cvtepi32_epi8(c));
        _mm_storeu_si128((__m128i *)(void *)(d + 48), _mm512_cvtepi32_epi8(e));
        return true;
    }
    {
        __m512i a = v_load(s), b = v_load(s + 64);
        if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), _mm512_set1_epi16((short)bad)) != 0)
            return false;
        if (be) {
            a = _mm512_srli_epi16(a, 8);
            b = _mm512_srli_epi16(b, 8);
        }
        _mm256_storeu_si256((__m256i *)(void *)d, _mm512_cvtepi16_epi8(a));
        _mm256_storeu_si256((__m256i *)(void *)(d + 32), _mm512_cvtepi16_epi8(b));
        return true;
    }
}
#include "simd/narrow.h"

/* u8k_kernels.narrow_sub: 16 units a step (the last step masked), each
 * above max found by one compare into a mask, then replaced by a blend or
 * dropped by a compress, and the step narrowed by vpmovdb. */
static size_t simd_narrow_sub(unsigned char *d, const uint32_t *s, size_t n, unsigned max,
                              unsigned char sub, bool drop, size_t *big)
{
    const __m512i lim = _mm512_set1_epi32((int)max), subv = _mm512_set1_epi32(sub);
    size_t i, o = 0, nb = 0;
    for (i = 0; i < n; i += 16) {
        __mmask16 m = (__mmask16)(n - i >= 16 ? 0xFFFFu : (1u << (n - i)) - 1);
        __m512i v = _mm512_maskz_loadu_epi32(m, s + i);
        __mmask16 b = _mm512_mask_cmpgt_epu32_mask(m, v, lim);
        unsigned k;
        nb += (size_t)__builtin_popcount(b);
        if (drop) {
            __mmask16 keep = (__mmask16)(m & ~b);
            k = (unsigned)__builtin_popcount(keep);
            v = _mm512_maskz_compress_epi32(keep, v);
            _mm512_mask_cvtepi32_storeu_epi8(d + o, (__mmask16)((1u << k) - 1), v);
        } else {
            k = (unsigned)__builtin_popcount(m);
            v = _mm512_mask_blend_epi32(b, v, subv);
            _mm512_mask_cvtepi32_storeu_epi8(d + o, m, v);
        }
        o += k;
    }
    *big = nb;
    return o;
}

const u8k_kernels u8k_avx512_kernels = {
    "avx512",
    simd_is_valid,
    simd_validate,
    simd_ascii_prefix,
    simd_count,
    simd_utf16_length,
    simd_validate_counts,
    simd_utf8_to_utf16_vbmi2,
    simd_utf8_to_utf32_vbmi2,
    simd_utf16_to_utf8_vbmi2,
    simd_utf32_to_utf8_vbmi2,
    simd_latin1_to_utf8_vbmi2,
    simd_utf8_to_latin1_vbmi2,
    simd_count_assume_valid,
    simd_utf8_repair_vbmi2,
    simd_units,
    simd_latin1_to_utf8_c1_vbmi2,
    simd_widen,
    simd_narrow,
    simd_narrow_sub,
};
