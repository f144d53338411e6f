/*
 * kernels_sse42.c - the vector layer for SSE4.2 (16-byte blocks) and the
 * kernel table built from src/simd/. Compiled with -msse4.2 -mpopcnt.
 */
#include "x86/x86.h"

#include <immintrin.h>

#include "x86/part.h"

typedef __m128i u8k_v;
#define VW 16

U8K_INLINE u8k_v v_load(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)p); }
/* p a multiple of 16: an operand from memory for the instruction that
 * uses it, where an unaligned load is an instruction of its own (the
 * counts of simd/validate.h; U8K_AL_LOADS) */
#define U8K_AL_LOADS 1
U8K_INLINE u8k_v v_load_al(const unsigned char *p)
{
    return _mm_load_si128((const __m128i *)(const void *)p);
}
/* (x86/part.h: in-bounds loads and a shuffle, no copy to the stack) */
U8K_INLINE u8k_v v_load_part(const unsigned char *p, size_t n) { return u8k_part16(p, n); }
U8K_INLINE void v_store(unsigned char *p, u8k_v v) { _mm_storeu_si128((__m128i *)p, v); }
U8K_INLINE u8k_v v_splat(unsigned char b) { return _mm_set1_epi8((char)b); }
U8K_INLINE u8k_v v_table(const unsigned char t[16]) { return v_load(t); }
U8K_INLINE u8k_v v_lookup(u8k_v t, u8k_v i) { return _mm_shuffle_epi8(t, i); }
U8K_INLINE u8k_v v_and(u8k_v a, u8k_v b) { return _mm_and_si128(a, b); }
U8K_INLINE u8k_v v_or(u8k_v a, u8k_v b) { return _mm_or_si128(a, b); }
U8K_INLINE u8k_v v_xor(u8k_v a, u8k_v b) { return _mm_xor_si128(a, b); }
U8K_INLINE u8k_v v_shr4(u8k_v v) { return _mm_and_si128(_mm_srli_epi16(v, 4), v_splat(0x0F)); }
U8K_INLINE u8k_v v_prev1(u8k_v c, u8k_v p) { return _mm_alignr_epi8(c, p, 15); }
U8K_INLINE u8k_v v_prev2(u8k_v c, u8k_v p) { return _mm_alignr_epi8(c, p, 14); }
U8K_INLINE u8k_v v_prev3(u8k_v c, u8k_v p) { return _mm_alignr_epi8(c, p, 13); }
U8K_INLINE u8k_v v_subs(u8k_v a, u8k_v b) { return _mm_subs_epu8(a, b); }
U8K_INLINE bool v_any(u8k_v v) { return !_mm_testz_si128(v, v); }
U8K_INLINE uint64_t v_high(u8k_v v) { return (uint64_t)(unsigned)_mm_movemask_epi8(v); }
/* (t < 127) as VW less the bytes below t + 1 (see kernels_avx2.c) */
U8K_INLINE unsigned v_count_gt(u8k_v v, signed char t)
{
    return 16u - (unsigned)_mm_popcnt_u32((unsigned)_mm_movemask_epi8(
                     _mm_cmpgt_epi8(_mm_set1_epi8((char)(t + 1)), v)));
}
/* The validator reads the bytes before each block from memory
 * (u8k_vprevs_at in simd/validate.h). */
#define U8K_LOAD_PREVS 1
U8K_INLINE u8k_v v_max(u8k_v a, u8k_v b) { return _mm_max_epu8(a, b); }
U8K_INLINE u8k_v v_add(u8k_v a, u8k_v b) { return _mm_add_epi8(a, b); }
/* acc + 1 in every byte where v equals t (the compare gives -1 there). */
U8K_INLINE u8k_v v_inc_eq(u8k_v acc, u8k_v v, u8k_v t) { return _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, t)); }
/* acc + 1 in every byte where v < t (signed; the compare gives -1 there) */
U8K_INLINE u8k_v v_inc_lt(u8k_v acc, u8k_v v, signed char t)
{
    return _mm_sub_epi8(acc, _mm_cmpgt_epi8(_mm_set1_epi8(t), v));
}
/* w + the sums of each 8 bytes of v (psadbw), in 64-bit lanes. */
U8K_INLINE u8k_v v_sad_add(u8k_v w, u8k_v v)
{
    return _mm_add_epi64(w, _mm_sad_epu8(v, _mm_setzero_si128()));
}
U8K_INLINE uint64_t v_sum64(u8k_v w)
{
    return (uint64_t)_mm_cvtsi128_si64(w) + (uint64_t)_mm_extract_epi64(w, 1);
}

/* VW units from the VW bytes at p (zero-extended straight from memory:
 * no shuffles to take the register apart) */
U8K_INLINE void v_load_widen16(uint16_t *d, const unsigned char *p, bool be)
{
    __m128i a = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p));
    __m128i b = _mm_cvtepu8_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(p + 8)));
    if (be) {
        a = _mm_slli_epi16(a, 8);
        b = _mm_slli_epi16(b, 8);
    }
    _mm_storeu_si128((__m128i *)(void *)d, a);
    _mm_storeu_si128((__m128i *)(void *)(d + 8), b);
}

/* 8 units from the 8 bytes at p (d: 16-bit units, or 32-bit when wide) */
U8K_INLINE void v_widen8(void *d, const unsigned char *p, bool be, bool wide)
{
    __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)p);
    if (wide) {
        _mm_storeu_si128((__m128i *)d, _mm_cvtepu8_epi32(x));
        _mm_storeu_si128((__m128i *)d + 1, _mm_cvtepu8_epi32(_mm_srli_si128(x, 4)));
        return;
    }
    x = _mm_cvtepu8_epi16(x);
    _mm_storeu_si128((__m128i *)d, be ? _mm_slli_epi16(x, 8) : x);
}

U8K_INLINE void v_load_widen32(uint32_t *d, const unsigned char *p)
{
    for (int k = 0; k < VW; k += 4)
        _mm_storeu_si128((__m128i *)(void *)(d + k), _mm_cvtepu8_epi32(_mm_loadu_si32(p + k)));
}

/* The VW bytes of v, loaded from p, as VW units at d (32-bit when wide),
 * for u8k_ascii_head in simd/pext.h (see the AVX2 layer): UTF-16 out of
 * the register (21% faster there than from memory, Zen 5), UTF-32 from
 * memory (the register way takes three shifts more, and was 11% slower). */
U8K_INLINE void v_widen_ascii(void *d, u8k_v v, const unsigned char *p, bool be, bool wide)
{
    __m128i *o = (__m128i *)d;
    if (wide) {
        v_load_widen32((uint32_t *)d, p);
    } else {
        __m128i a = _mm_cvtepu8_epi16(v), b = _mm_unpackhi_epi8(v, _mm_setzero_si128());
        if (be) {
            a = _mm_slli_epi16(a, 8);
            b = _mm_slli_epi16(b, 8);
        }
        _mm_storeu_si128(o, a);
        _mm_storeu_si128(o + 1, b);
    }
}

/* The narrowing for simd/shuffle_to_utf8.h (ASCII runs) and simd/narrow.h
 * (the limits FF and 7F): the VW units at s (16-bit, big-endian in memory
 * when be) as VW bytes in *out, or false when one has a bit of `bad`, the
 * bits above the limit as they lie in memory. */
U8K_INLINE bool v_narrow16_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)s + 1);
    if (!_mm_testz_si128(_mm_or_si128(a, b), _mm_set1_epi16((short)bad)))
        return false;
    if (be) {
        a = _mm_srli_epi16(a, 8);
        b = _mm_srli_epi16(b, 8);
    }
    *out = _mm_packus_epi16(a, b);
    return true;
}

/* The same for VW 32-bit units (big-endian in memory when be). (After the
 * test every unit is at most FF, so the signed first pack saturates
 * nothing.) */
U8K_INLINE bool v_narrow32_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    const __m128i *p = (const __m128i *)s;
    __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1);
    __m128i c = _mm_loadu_si128(p + 2), d = _mm_loadu_si128(p + 3);
    if (!_mm_testz_si128(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)),
                         _mm_set1_epi32((int)bad)))
        return false;
    if (be) {
        a = _mm_srli_epi32(a, 24);
        b = _mm_srli_epi32(b, 24);
        c = _mm_srli_epi32(c, 24);
        d = _mm_srli_epi32(d, 24);
    }
    *out = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
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
    return h ? _mm_unpackhi_epi8(v, _mm_setzero_si128()) : _mm_cvtepu8_epi16(v);
}
U8K_INLINE u8k_v v_splat16(uint16_t x) { return _mm_set1_epi16((short)x); }
U8K_INLINE u8k_v v_shl16(u8k_v v, int n) { return _mm_slli_epi16(v, n); }
U8K_INLINE u8k_v v_shr16(u8k_v v, int n) { return _mm_srli_epi16(v, n); }
U8K_INLINE u8k_v v_add16(u8k_v a, u8k_v b) { return _mm_add_epi16(a, b); }
U8K_INLINE u8k_v v_gt16(u8k_v a, u8k_v b) { return _mm_cmpgt_epi16(a, b); }
U8K_INLINE u8k_v v_blend(u8k_v a, u8k_v b, u8k_v m) { return _mm_blendv_epi8(a, b, m); }
U8K_INLINE u8k_v v_bswap16(u8k_v v)
{
    return _mm_shuffle_epi8(v, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
}
U8K_INLINE unsigned v_pack16(uint16_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(x, v_load(rows[m])));
    return (unsigned)_mm_popcnt_u32(m);
}
U8K_INLINE unsigned v_pack32(uint32_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    __m128i c = _mm_shuffle_epi8(x, v_load(rows[m]));
    _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu16_epi32(c));
    _mm_storeu_si128((__m128i *)(void *)(d + 4), _mm_unpackhi_epi16(c, _mm_setzero_si128()));
    return (unsigned)_mm_popcnt_u32(m);
}
U8K_INLINE unsigned v_pack32x2(uint32_t *d, u8k_v x, u8k_v y, const unsigned char (*rows)[16],
                               unsigned m)
{
    __m128i r = v_load(rows[m]), a = _mm_shuffle_epi8(x, r), b = _mm_shuffle_epi8(y, r);
    _mm_storeu_si128((__m128i *)(void *)d, _mm_unpacklo_epi16(a, b));
    _mm_storeu_si128((__m128i *)(void *)(d + 4), _mm_unpackhi_epi16(a, b));
    return (unsigned)_mm_popcnt_u32(m);
}

/* 16-bit lanes, for simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_le16(u8k_v a, u8k_v b) { return _mm_cmpeq_epi16(_mm_min_epu16(a, b), a); }
U8K_INLINE u8k_v v_eq16(u8k_v a, u8k_v b) { return _mm_cmpeq_epi16(a, b); }
U8K_INLINE u8k_v v_andnot(u8k_v a, u8k_v b) { return _mm_andnot_si128(b, a); }
U8K_INLINE u8k_v v_zip16(u8k_v a, u8k_v b, int h)
{
    return h ? _mm_unpackhi_epi16(a, b) : _mm_unpacklo_epi16(a, b);
}
/* (packs keeps all ones, -1, and zero: one byte per lane, a's then b's) */
U8K_INLINE uint32_t v_mask16x2(u8k_v a, u8k_v b)
{
    return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(a, b));
}
/* (movemask gives each lane's bit twice: even places from a, odd from b) */
U8K_INLINE uint32_t v_mask16i(u8k_v a, u8k_v b)
{
    return ((uint32_t)_mm_movemask_epi8(a) & 0x5555u) | ((uint32_t)_mm_movemask_epi8(b) & 0xAAAAu);
}
U8K_INLINE u8k_v v_pack8(u8k_v a, u8k_v b) { return _mm_packus_epi16(a, b); }
U8K_INLINE u8k_v v_sat16(u8k_v a, u8k_v b) { return _mm_packus_epi32(a, b); }
U8K_INLINE u8k_v v_splat32(uint32_t x) { return _mm_set1_epi32((int)x); }
U8K_INLINE bool v_overlap(u8k_v a, u8k_v b) { return !_mm_testz_si128(a, b); }
/* (one 128-bit part: p is 0) */
U8K_INLINE void v_store_part(unsigned char *d, u8k_v v, int p)
{
    (void)p;
    _mm_storeu_si128((__m128i *)(void *)d, v);
}
/* 32-bit lanes, for the 4-byte values of simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_gt32(u8k_v a, u8k_v b) { return _mm_cmpgt_epi32(a, b); }
U8K_INLINE u8k_v v_shl32(u8k_v v, int n) { return _mm_slli_epi32(v, n); }
U8K_INLINE u8k_v v_shr32(u8k_v v, int n) { return _mm_srli_epi32(v, n); }
U8K_INLINE uint32_t v_mask32(u8k_v a) { return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(a)); }
/* (as on AVX2: the empty asm keeps GCC from rebuilding it in the loop) */
U8K_INLINE u8k_v v_pin(u8k_v v)
{
    __asm__("" : "+x"(v));
    return v;
}

#define U8K_THREE_RUNS 1
/* For the runs of 3-byte characters of simd/pext.h: 12 bytes from p (16
 * read) */
U8K_INLINE u8k_v v_load_three(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
/* the 4 32-bit lanes of v (each below 0x10000) as 4 16-bit units at d */
U8K_INLINE void v_store_units16(uint16_t *d, u8k_v v, bool be)
{
    u8k_v u = _mm_packus_epi32(v, v);
    if (be)
        u = v_bswap16(u);
    _mm_storel_epi64((__m128i *)(void *)d, u);
}

#define U8K_OWN_UTF8_TO_UTF16 1 /* from simd/pext.h */
#define U8K_OWN_UTF8_TO_UTF32 1 /* from simd/pext.h */
#define U8K_OWN_UTF16_TO_UTF8 1 /* from simd/shuffle_to_utf8.h */
#define U8K_OWN_UTF32_TO_UTF8 1 /* from simd/shuffle_to_utf8.h */
#define U8K_OWN_LATIN1 1        /* from simd/shuffle_latin1.h */
#include "simd/validate.h"
#include "simd/transcode.h"
#include "simd/pext.h"
#include "simd/shuffle_to_utf8.h"
#include "simd/shuffle_latin1.h"
#include "simd/repair.h"
#include "simd/units.h"
#include "simd/widen.h"
#include "simd/narrow.h"

/* For the AVX2 kernel on a CPU with a slow PEXT (x86/x86.h). */
utf8kit_result u8k_sse42_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                       size_t cap, unsigned flags)
{
    return simd_utf16_to_utf8_shuffle(src, len, dst, cap, flags);
}
utf8kit_result u8k_sse42_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                       size_t cap, unsigned flags)
{
    return simd_utf32_to_utf8_shuffle(src, len, dst, cap, flags);
}
utf8kit_result u8k_sse42_latin1_to_utf8(const unsigned char *src, size_t len, unsigned char *dst,
                                        size_t cap)
{
    return simd_latin1_to_utf8_shuffle(src, len, dst, cap);
}
utf8kit_result u8k_sse42_utf8_to_latin1(const unsigned char *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags)
{
    return simd_utf8_to_latin1_shuffle(src, len, dst, cap, flags);
}

const u8k_kernels u8k_sse42_kernels = {
    "sse42",
    simd_is_valid,
    simd_validate,
    simd_ascii_prefix,
    simd_count,
    simd_utf16_length,
    simd_validate_counts,
    simd_utf8_to_utf16_pext,
    simd_utf8_to_utf32_pext,
    simd_utf16_to_utf8_shuffle,
    simd_utf32_to_utf8_shuffle,
    simd_latin1_to_utf8_shuffle,
    simd_utf8_to_latin1_shuffle,
    simd_count_assume_valid,
    simd_utf8_repair,
    simd_units,
    NULL,
    simd_widen,
    simd_narrow,
    NULL,
};
