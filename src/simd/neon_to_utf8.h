/*
 * simd/neon_to_utf8.h - UTF-16 and UTF-32 -> UTF-8 for AArch64 Advanced
 * SIMD: the algorithm of simd/sse_to_utf8.h (see there) with NEON
 * intrinsics; TBL gives 0 for the table's index 80, as PSHUFB does.
 * src/arm/kernels_neon.c includes it after simd/transcode.h and defines
 * U8K_OWN_UTF16_TO_UTF8 and U8K_OWN_UTF32_TO_UTF8.
 */
#ifndef UTF8KIT_SIMD_NEON_TO_UTF8_H
#define UTF8KIT_SIMD_NEON_TO_UTF8_H

#include "internal.h"
#include "simd/to_utf8_shift.h"
#include "simd/utf8_pack4.h"

/* 8 units to UTF-8 at dst; returns the number of bytes, at most 24;
 * writes up to 28 bytes. Without pairs, no unit is a surrogate; with
 * pairs, as u8k_bmp8 of simd/sse_to_utf8.h (hs, ls: the high and low
 * surrogates, all well paired; prev: each unit's predecessor). */
U8K_INLINE size_t u8k_bmp8_neon(uint16x8_t u, unsigned char *dst, bool pairs, uint16x8_t prev,
                                uint16x8_t hs, uint16x8_t ls)
{
    const uint16x8_t six = vdupq_n_u16(0x3F);
    uint16x8_t le7f = vcleq_u16(u, vdupq_n_u16(0x7F)), le7ff = vcleq_u16(u, vdupq_n_u16(0x7FF));
    /* per unit k of each half of 4: bit k when at least U+0080, bit
     * 4 + k when at least U+0800; a sum across each half gives the rows */
    static const uint16_t w2[8] = {1, 2, 4, 8, 1, 2, 4, 8};
    static const uint16_t w3[8] = {16, 32, 64, 128, 16, 32, 64, 128};
    uint16x8_t bits;
    unsigned e0, e1;
    size_t n0;
    /* the lead of a 3-byte form, E0 | u >> 12, in the high byte */
    uint16x8_t lead = vorrq_u16(vshlq_n_u16(vshrq_n_u16(u, 12), 8), vdupq_n_u16(0xE000));
    /* the last two bytes, first one low: 80 | (u >> 6) & 3F (C0 | u >> 6
     * for a 2-byte form) and 80 | u & 3F; an ASCII unit is the last byte */
    uint16x8_t tail = vorrq_u16(vorrq_u16(vandq_u16(vshrq_n_u16(u, 6), six), vshlq_n_u16(vandq_u16(u, six), 8)),
                                vorrq_u16(vdupq_n_u16(0x8080), vandq_u16(vbicq_u16(le7ff, le7f), vdupq_n_u16(0x40))));
    tail = vbslq_u16(le7f, vshlq_n_u16(u, 8), tail);
    if (pairs) {
        uint16x8_t v = vaddq_u16(u, vdupq_n_u16(0x40)), pv = vaddq_u16(prev, vdupq_n_u16(0x40));
        uint16x8_t th = vorrq_u16(vorrq_u16(vandq_u16(vshrq_n_u16(v, 8), vdupq_n_u16(7)), vdupq_n_u16(0x80F0)),
                                  vshlq_n_u16(vandq_u16(vshrq_n_u16(v, 2), six), 8));
        uint16x8_t tl = vorrq_u16(vbicq_u16(tail, vdupq_n_u16(0x30)),
                                  vshlq_n_u16(vandq_u16(pv, vdupq_n_u16(3)), 4));
        tail = vbslq_u16(ls, tl, vbslq_u16(hs, th, tail));
        le7ff = vorrq_u16(le7ff, vorrq_u16(hs, ls));
    }
    if (vmaxvq_u16(vorrq_u16(le7f, le7ff)) == 0) {
        /* all 3 bytes: row FF, fixed places */
        const uint8x16_t row = vld1q_u8(u8k_pack4[0xFF]);
        vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u16(vzip1q_u16(lead, tail)), row));
        vst1q_u8(dst + 12, vqtbl1q_u8(vreinterpretq_u8_u16(vzip2q_u16(lead, tail)), row));
        return 24;
    }
    bits = vorrq_u16(vbicq_u16(vld1q_u16(w2), le7f), vbicq_u16(vld1q_u16(w3), le7ff));
    e0 = vaddv_u16(vget_low_u16(bits));
    e1 = vaddv_u16(vget_high_u16(bits));
    n0 = 4 + (size_t)__builtin_popcount(e0);
    /* 32-bit slots [0, lead, first, last]: units 0-3, then 4-7 */
    vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u16(vzip1q_u16(lead, tail)), vld1q_u8(u8k_pack4[e0])));
    vst1q_u8(dst + n0, vqtbl1q_u8(vreinterpretq_u8_u16(vzip2q_u16(lead, tail)), vld1q_u8(u8k_pack4[e1])));
    return n0 + 4 + (size_t)__builtin_popcount(e1);
}

/* 8 units below U+0800 to UTF-8 at dst, as u8k_two8 of
 * simd/sse_to_utf8.h; returns the number of bytes, at most 16; writes 16. */
U8K_INLINE size_t u8k_two8_neon(uint16x8_t u, unsigned char *dst)
{
    static const uint16_t w[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    uint16x8_t le7f = vcleq_u16(u, vdupq_n_u16(0x7F));
    unsigned m = vaddvq_u16(vbicq_u16(vld1q_u16(w), le7f));
    uint16x8_t two = vorrq_u16(vorrq_u16(vshrq_n_u16(u, 6), vdupq_n_u16(0x80C0)),
                               vshlq_n_u16(vandq_u16(u, vdupq_n_u16(0x3F)), 8));
    two = vbslq_u16(le7f, vshlq_n_u16(u, 8), two);
    vst1q_u8(dst, vqtbl1q_u8(vreinterpretq_u8_u16(two), vld1q_u8(u8k_pack2[m])));
    return 8 + (size_t)__builtin_popcount(m);
}

/* Some unit of a or b is a surrogate: (u & F800) == D800. */
U8K_INLINE bool u8k_any_surrogate_neon(uint16x8_t a, uint16x8_t b)
{
    const uint16x8_t f800 = vdupq_n_u16(0xF800), d800 = vdupq_n_u16(0xD800);
    return vmaxvq_u16(vorrq_u16(vceqq_u16(vandq_u16(a, f800), d800),
                                vceqq_u16(vandq_u16(b, f800), d800))) != 0;
}

__attribute__((noinline)) static utf8kit_result simd_utf16_to_utf8_neon_long(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    /* 64 bytes of room: 16 units make at most 48 and write up to 52. */
    while (i + 16 <= len && o + 64 <= cap) {
        uint16x8_t a, b;
        u8k_v v;
        if (v_narrow16(src + i, be, &v)) {
            v_store(dst + o, v);
            i += 16;
            o += 16;
            continue;
        }
        a = vld1q_u16(src + i);
        b = vld1q_u16(src + i + 8);
        if (be) {
            a = vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(a)));
            b = vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(b)));
        }
        if (vmaxvq_u16(vorrq_u16(a, b)) < 0x800) {
            o += u8k_two8_neon(a, dst + o);
            o += u8k_two8_neon(b, dst + o);
            i += 16;
            continue;
        }
        if (u8k_any_surrogate_neon(a, b)) {
            /* well paired: as in simd/sse_to_utf8.h */
            static const uint16_t w[8] = {1, 2, 4, 8, 16, 32, 64, 128};
            const uint16x8_t fc00 = vdupq_n_u16(0xFC00), wv = vld1q_u16(w);
            uint16x8_t ha = vceqq_u16(vandq_u16(a, fc00), vdupq_n_u16(0xD800));
            uint16x8_t hb = vceqq_u16(vandq_u16(b, fc00), vdupq_n_u16(0xD800));
            uint16x8_t la = vceqq_u16(vandq_u16(a, fc00), vdupq_n_u16(0xDC00));
            uint16x8_t lb = vceqq_u16(vandq_u16(b, fc00), vdupq_n_u16(0xDC00));
            unsigned hm = vaddvq_u16(vandq_u16(ha, wv)) | (unsigned)vaddvq_u16(vandq_u16(hb, wv)) << 8;
            unsigned lm = vaddvq_u16(vandq_u16(la, wv)) | (unsigned)vaddvq_u16(vandq_u16(lb, wv)) << 8;
            unsigned held = hm >> 15;
            size_t j;
            if (lm == ((hm << 1) & 0xFFFFu)) {
                size_t n = u8k_bmp8_neon(a, dst + o, true, vextq_u16(vdupq_n_u16(0), a, 7), ha, la);
                n += u8k_bmp8_neon(b, dst + o + n, true, vextq_u16(a, b, 7), hb, lb);
                o += n - 2 * held;
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
            /* an error: the rest, whole, gives the report (the stretch
             * may have cut a bad sequence short) */
            break;
        }
        o += u8k_bmp8_neon(a, dst + o, false, a, a, a);
        o += u8k_bmp8_neon(b, dst + o, false, b, b, b);
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
static utf8kit_result simd_utf16_to_utf8_neon(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf16_to_utf8(src, len, dst, cap, flags);
    return simd_utf16_to_utf8_neon_long(src, len, dst, cap, flags);
}

/* UTF-32: values below U+10000 and not surrogates narrowed to units. */
__attribute__((noinline)) static utf8kit_result simd_utf32_to_utf8_neon_long(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 16 <= len && o + 64 <= cap) {
        uint32x4_t c0, c1, c2, c3;
        uint16x8_t a, b;
        u8k_v v;
        if (v_narrow32(src + i, &v)) {
            v_store(dst + o, v);
            i += 16;
            o += 16;
            continue;
        }
        c0 = vld1q_u32(src + i);
        c1 = vld1q_u32(src + i + 4);
        c2 = vld1q_u32(src + i + 8);
        c3 = vld1q_u32(src + i + 12);
        a = vcombine_u16(vmovn_u32(c0), vmovn_u32(c1));
        b = vcombine_u16(vmovn_u32(c2), vmovn_u32(c3));
        if (vmaxvq_u32(vorrq_u32(vorrq_u32(c0, c1), vorrq_u32(c2, c3))) > 0xFFFF ||
            u8k_any_surrogate_neon(a, b)) {
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
        o += u8k_bmp8_neon(a, dst + o, false, a, a, a);
        o += u8k_bmp8_neon(b, dst + o, false, b, b, b);
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
static utf8kit_result simd_utf32_to_utf8_neon(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf32_to_utf8(src, len, dst, cap, flags);
    return simd_utf32_to_utf8_neon_long(src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_NEON_TO_UTF8_H */
