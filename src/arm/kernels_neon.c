/*
 * kernels_neon.c - the vector layer for AArch64 Advanced SIMD (16-byte
 * blocks) and the kernel table built from src/simd/.
 */
#include "arm/arm.h"

#include <arm_neon.h>

typedef uint8x16_t u8k_v;
#define VW 16

U8K_INLINE u8k_v v_load(const unsigned char *p) { return vld1q_u8(p); }
U8K_INLINE u8k_v v_load_part(const unsigned char *p, size_t n)
{
    unsigned char b[VW] = {0};
    if (n)
        memcpy(b, p, n);
    return v_load(b);
}
U8K_INLINE void v_store(unsigned char *p, u8k_v v) { vst1q_u8(p, v); }
U8K_INLINE u8k_v v_splat(unsigned char b) { return vdupq_n_u8(b); }
U8K_INLINE u8k_v v_table(const unsigned char t[16]) { return vld1q_u8(t); }
U8K_INLINE u8k_v v_lookup(u8k_v t, u8k_v i) { return vqtbl1q_u8(t, i); }
U8K_INLINE u8k_v v_and(u8k_v a, u8k_v b) { return vandq_u8(a, b); }
U8K_INLINE u8k_v v_or(u8k_v a, u8k_v b) { return vorrq_u8(a, b); }
U8K_INLINE u8k_v v_xor(u8k_v a, u8k_v b) { return veorq_u8(a, b); }
U8K_INLINE u8k_v v_shr4(u8k_v v) { return vshrq_n_u8(v, 4); }
/* vext takes bytes 16-n.. of prev followed by cur. */
U8K_INLINE u8k_v v_prev1(u8k_v c, u8k_v p) { return vextq_u8(p, c, 15); }
U8K_INLINE u8k_v v_prev2(u8k_v c, u8k_v p) { return vextq_u8(p, c, 14); }
U8K_INLINE u8k_v v_prev3(u8k_v c, u8k_v p) { return vextq_u8(p, c, 13); }
U8K_INLINE u8k_v v_subs(u8k_v a, u8k_v b) { return vqsubq_u8(a, b); }
U8K_INLINE bool v_any(u8k_v v) { return vmaxvq_u8(v) != 0; }
/* No movemask: keep each high bit at its place value within its half,
 * then add up each half. */
U8K_INLINE uint64_t v_high(u8k_v v)
{
    static const unsigned char bit[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t m = vandq_u8(vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(v), 7)), vld1q_u8(bit));
    return (uint64_t)vaddv_u8(vget_low_u8(m)) | (uint64_t)vaddv_u8(vget_high_u8(m)) << 8;
}
U8K_INLINE unsigned v_count_gt(u8k_v v, signed char t)
{
    uint8x16_t m = vcgtq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(t));
    return vaddvq_u8(vshrq_n_u8(m, 7));
}
U8K_INLINE u8k_v v_max(u8k_v a, u8k_v b) { return vmaxq_u8(a, b); }
U8K_INLINE u8k_v v_add(u8k_v a, u8k_v b) { return vaddq_u8(a, b); }
/* acc + 1 in every byte where v equals t (the compare gives FF there). */
U8K_INLINE u8k_v v_inc_eq(u8k_v acc, u8k_v v, u8k_v t) { return vsubq_u8(acc, vceqq_u8(v, t)); }
/* acc + 1 in every byte where v < t (signed; the compare gives all ones there) */
U8K_INLINE u8k_v v_inc_lt(u8k_v acc, u8k_v v, signed char t)
{
    return vsubq_u8(acc, vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(t)));
}
/* w + the sums of each 8 bytes of v, in 64-bit lanes (pairwise widening
 * adds: bytes to 16, 32, then 64 bits). */
U8K_INLINE u8k_v v_sad_add(u8k_v w, u8k_v v)
{
    return vreinterpretq_u8_u64(
        vpadalq_u32(vreinterpretq_u64_u8(w), vpaddlq_u16(vpaddlq_u8(v))));
}
U8K_INLINE uint64_t v_sum64(u8k_v w) { return vaddvq_u64(vreinterpretq_u64_u8(w)); }

/* The VW bytes of v, loaded from p, as VW units at d (32-bit when
 * wide) */
U8K_INLINE void v_widen_ascii(void *d, u8k_v v, const unsigned char *p, bool be, bool wide)
{
    uint16x8_t a = vmovl_u8(vget_low_u8(v)), b = vmovl_u8(vget_high_u8(v));
    (void)p;
    if (wide) {
        uint32_t *o = (uint32_t *)d;
        vst1q_u32(o, vmovl_u16(vget_low_u16(a)));
        vst1q_u32(o + 4, vmovl_u16(vget_high_u16(a)));
        vst1q_u32(o + 8, vmovl_u16(vget_low_u16(b)));
        vst1q_u32(o + 12, vmovl_u16(vget_high_u16(b)));
        return;
    }
    if (be) {
        a = vshlq_n_u16(a, 8);
        b = vshlq_n_u16(b, 8);
    }
    vst1q_u16((uint16_t *)d, a);
    vst1q_u16((uint16_t *)d + 8, b);
}

/* VW units from the VW bytes at p */
U8K_INLINE void v_load_widen16(uint16_t *d, const unsigned char *p, bool be)
{
    v_widen_ascii(d, vld1q_u8(p), p, be, false);
}

/* 8 units from the 8 bytes at p (d: 16-bit units, or 32-bit when wide) */
U8K_INLINE void v_widen8(void *d, const unsigned char *p, bool be, bool wide)
{
    uint16x8_t a = vmovl_u8(vld1_u8(p));
    if (wide) {
        vst1q_u32((uint32_t *)d, vmovl_u16(vget_low_u16(a)));
        vst1q_u32((uint32_t *)d + 4, vmovl_u16(vget_high_u16(a)));
        return;
    }
    vst1q_u16((uint16_t *)d, be ? vshlq_n_u16(a, 8) : a);
}

U8K_INLINE void v_load_widen32(uint32_t *d, const unsigned char *p)
{
    v_widen_ascii(d, vld1q_u8(p), p, false, true);
}

/* The 8 units at s (big-endian in memory when be), known to be ASCII,
 * as 8 bytes to d */
U8K_INLINE void v_narrow8(unsigned char *d, const uint16_t *s, bool be)
{
    uint16x8_t a = vld1q_u16(s);
    if (be)
        a = vshrq_n_u16(a, 8);
    vst1_u8(d, vmovn_u16(a));
}

/* The narrowing for simd/shuffle_to_utf8.h (ASCII runs) and simd/narrow.h
 * (the limits FF and 7F): the VW units at s (16-bit, big-endian in memory
 * when be) as VW bytes in *out, or false when one has a bit of `bad`, the
 * bits above the limit as they lie in memory. */
U8K_INLINE bool v_narrow16_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    uint16x8_t a = vreinterpretq_u16_u8(vld1q_u8((const uint8_t *)s));
    uint16x8_t b = vreinterpretq_u16_u8(vld1q_u8((const uint8_t *)s + 16));
    if (vmaxvq_u16(vandq_u16(vorrq_u16(a, b), vdupq_n_u16((uint16_t)bad))) != 0)
        return false;
    *out = be ? vcombine_u8(vshrn_n_u16(a, 8), vshrn_n_u16(b, 8))
              : vcombine_u8(vmovn_u16(a), vmovn_u16(b));
    return true;
}

/* The same for VW 32-bit units (big-endian in memory when be). */
U8K_INLINE bool v_narrow32_bad(const void *s, bool be, unsigned bad, u8k_v *out)
{
    const uint8_t *p = (const uint8_t *)s;
    uint32x4_t a = vreinterpretq_u32_u8(vld1q_u8(p));
    uint32x4_t b = vreinterpretq_u32_u8(vld1q_u8(p + 16));
    uint32x4_t c = vreinterpretq_u32_u8(vld1q_u8(p + 32));
    uint32x4_t d = vreinterpretq_u32_u8(vld1q_u8(p + 48));
    if (vmaxvq_u32(vandq_u32(vorrq_u32(vorrq_u32(a, b), vorrq_u32(c, d)), vdupq_n_u32(bad))) != 0)
        return false;
    if (be) {
        a = vshrq_n_u32(a, 24);
        b = vshrq_n_u32(b, 24);
        c = vshrq_n_u32(c, 24);
        d = vshrq_n_u32(d, 24);
    }
    *out = vcombine_u8(vmovn_u16(vcombine_u16(vmovn_u32(a), vmovn_u32(b))),
                       vmovn_u16(vcombine_u16(vmovn_u32(c), vmovn_u32(d))));
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
    return vreinterpretq_u8_u16(vmovl_u8(h ? vget_high_u8(v) : vget_low_u8(v)));
}
U8K_INLINE u8k_v v_splat16(uint16_t x) { return vreinterpretq_u8_u16(vdupq_n_u16(x)); }
/* (a shift by a vector of counts: vshlq_n_u16 wants a constant, which an
 * argument is not without optimisation) */
U8K_INLINE u8k_v v_shl16(u8k_v v, int n)
{
    return vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(v), vdupq_n_s16((int16_t)n)));
}
/* (a negative count shifts right) */
U8K_INLINE u8k_v v_shr16(u8k_v v, int n)
{
    return vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(v), vdupq_n_s16((int16_t)-n)));
}
U8K_INLINE u8k_v v_add16(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u16(vaddq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
}
U8K_INLINE u8k_v v_gt16(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u16(vcgtq_s16(vreinterpretq_s16_u8(a), vreinterpretq_s16_u8(b)));
}
U8K_INLINE u8k_v v_blend(u8k_v a, u8k_v b, u8k_v m) { return vbslq_u8(m, b, a); }
U8K_INLINE u8k_v v_bswap16(u8k_v v) { return vrev16q_u8(v); }
U8K_INLINE unsigned v_pack16(uint16_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    vst1q_u8((unsigned char *)(void *)d, vqtbl1q_u8(x, vld1q_u8(rows[m])));
    return (unsigned)__builtin_popcount(m);
}
U8K_INLINE unsigned v_pack32(uint32_t *d, u8k_v x, const unsigned char (*rows)[16], unsigned m)
{
    uint16x8_t c = vreinterpretq_u16_u8(vqtbl1q_u8(x, vld1q_u8(rows[m])));
    vst1q_u32(d, vmovl_u16(vget_low_u16(c)));
    vst1q_u32(d + 4, vmovl_u16(vget_high_u16(c)));
    return (unsigned)__builtin_popcount(m);
}
U8K_INLINE unsigned v_pack32x2(uint32_t *d, u8k_v x, u8k_v y, const unsigned char (*rows)[16],
                               unsigned m)
{
    uint8x16_t r = vld1q_u8(rows[m]);
    uint16x8_t a = vreinterpretq_u16_u8(vqtbl1q_u8(x, r)), b = vreinterpretq_u16_u8(vqtbl1q_u8(y, r));
    vst1q_u32(d, vreinterpretq_u32_u16(vzip1q_u16(a, b)));
    vst1q_u32(d + 4, vreinterpretq_u32_u16(vzip2q_u16(a, b)));
    return (unsigned)__builtin_popcount(m);
}

/* 16-bit lanes, for simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_le16(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u16(vcleq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
}
U8K_INLINE u8k_v v_eq16(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u16(vceqq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
}
U8K_INLINE u8k_v v_andnot(u8k_v a, u8k_v b) { return vbicq_u8(a, b); }
U8K_INLINE u8k_v v_zip16(u8k_v a, u8k_v b, int h)
{
    uint16x8_t x = vreinterpretq_u16_u8(a), y = vreinterpretq_u16_u8(b);
    return vreinterpretq_u8_u16(h ? vzip2q_u16(x, y) : vzip1q_u16(x, y));
}
/* No movemask: each lane keeps its bit's place value, then a sum across
 * each vector. */
U8K_INLINE uint32_t v_mask16x2(u8k_v a, u8k_v b)
{
    static const uint16_t w[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    uint16x8_t wv = vld1q_u16(w);
    return vaddvq_u16(vandq_u16(vreinterpretq_u16_u8(a), wv)) |
           (uint32_t)vaddvq_u16(vandq_u16(vreinterpretq_u16_u8(b), wv)) << 8;
}
/* (the place values of a's lanes are the even bits, b's the odd ones:
 * disjoint, so one sum of both) */
U8K_INLINE uint32_t v_mask16i(u8k_v a, u8k_v b)
{
    static const uint16_t wa[8] = {1, 4, 16, 64, 256, 1024, 4096, 16384};
    static const uint16_t wb[8] = {2, 8, 32, 128, 512, 2048, 8192, 32768};
    return vaddvq_u16(vorrq_u16(vandq_u16(vreinterpretq_u16_u8(a), vld1q_u16(wa)),
                                vandq_u16(vreinterpretq_u16_u8(b), vld1q_u16(wb))));
}
U8K_INLINE u8k_v v_pack8(u8k_v a, u8k_v b)
{
    return vcombine_u8(vqmovn_u16(vreinterpretq_u16_u8(a)), vqmovn_u16(vreinterpretq_u16_u8(b)));
}
U8K_INLINE u8k_v v_sat16(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u16(
        vcombine_u16(vqmovn_u32(vreinterpretq_u32_u8(a)), vqmovn_u32(vreinterpretq_u32_u8(b))));
}
U8K_INLINE u8k_v v_splat32(uint32_t x) { return vreinterpretq_u8_u32(vdupq_n_u32(x)); }
U8K_INLINE bool v_overlap(u8k_v a, u8k_v b) { return vmaxvq_u8(vandq_u8(a, b)) != 0; }
/* (one 128-bit part: p is 0) */
U8K_INLINE void v_store_part(unsigned char *d, u8k_v v, int p)
{
    (void)p;
    vst1q_u8(d, v);
}
/* 32-bit lanes, for the 4-byte values of simd/shuffle_to_utf8.h */
U8K_INLINE u8k_v v_gt32(u8k_v a, u8k_v b)
{
    return vreinterpretq_u8_u32(vcgtq_s32(vreinterpretq_s32_u8(a), vreinterpretq_s32_u8(b)));
}
U8K_INLINE u8k_v v_shl32(u8k_v v, int n)
{
    return vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(v), vdupq_n_s32(n)));
}
/* (a negative count shifts right) */
U8K_INLINE u8k_v v_shr32(u8k_v v, int n)
{
    return vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(v), vdupq_n_s32(-n)));
}
U8K_INLINE uint32_t v_mask32(u8k_v a)
{
    static const uint32_t w[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(vreinterpretq_u32_u8(a), vld1q_u32(w)));
}
/* (a constant is one MOVI: nothing to keep) */
U8K_INLINE u8k_v v_pin(u8k_v v) { return v; }

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

const u8k_kernels u8k_neon_kernels = {
    "neon",
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
