/*
 * simd/shuffle_to_utf8.h - UTF-16 and UTF-32 -> UTF-8, written once for
 * the vector units with a byte shuffle but no byte compress: SSE4.2 and
 * NEON (16-byte vectors) and AVX2 (32-byte vectors, whose shuffle works
 * within 128-bit parts). src/x86/kernels_sse42.c, kernels_avx2.c and
 * src/arm/kernels_neon.c include it after simd/transcode.h and define
 * U8K_OWN_UTF16_TO_UTF8 and U8K_OWN_UTF32_TO_UTF8. (AVX-512 has its own,
 * simd/compress_to_utf8.h.)
 *
 * A step takes 16 units (UTF-32: 16 values narrowed to 16-bit units),
 * held in U8K_NV vectors of 16-bit lanes (two of 16 bytes, one of 32):
 *  - all ASCII: narrowed to 16 bytes, then ASCII runs VW units at a time
 *    (v_narrow16, v_narrow32);
 *  - all below U+0800: each unit's 1 or 2 bytes at the end of its 16-bit
 *    slot, packed 8 slots at a time by one byte shuffle (u8k_pack2 of
 *    simd/utf8_pack4.h), and so on while the blocks are such
 *    (u8k_two_run);
 *  - otherwise each unit's 1 to 3 bytes are among the 4 bytes of a
 *    32-bit slot, a surrogate pair's 4 bytes as 2 in the slot of each
 *    half, packed 4 slots at a time by one byte shuffle from a table
 *    indexed by their lengths (u8k_pack3), each 16-byte store
 *    overwriting the unused end of the one before (and so on while the
 *    blocks are such, u8k_bmp_run). (The per-slot UTF-8
 *    bytes and the table of shuffles follow the idea of Lemire and Muła,
 *    "Transcoding Billions of Unicode Characters per Second with SIMD
 *    Instructions", Software: Practice and Experience 52(2), 2022; the
 *    slot layout and the rows as closed forms built by macros are ours.)
 * A UTF-32 block with a value from U+10000 on takes 1 to 4 bytes from
 * each 32-bit lane, packed 4 lanes at a time by a row of u8k_pack4x; when
 * they all are (emoji), 4 bytes from every lane, unpacked, and so on
 * while they are (u8k_four_block). A UTF-16 block of 8 surrogate pairs
 * goes the same way, a pair per 32-bit lane (u8k_pairs_run). A
 * UTF-16 block with an unpaired surrogate, and a UTF-32 block with a
 * surrogate or a value above 10FFFF, go to the scalar kernel a stretch
 * at a time, as do the last units (unless ASCII)
 * and any block near the end of the output room; the scalar kernel gives
 * every error report.
 *
 * Besides the layer of simd/validate.h, simd/transcode.h and the 16-bit
 * lane operations of simd/pext.h (v_splat16, v_shl16, v_shr16, v_add16,
 * v_blend, v_bswap16; v_prev2 of simd/validate.h moves a vector of units
 * up by one unit), it needs, on u8k_v read as VW / 2 lanes of 16 bits:
 *
 *   v_le16(a, b)         all ones in the lanes where a <= b (unsigned)
 *   v_eq16(a, b)         all ones in the lanes where a == b
 *   v_andnot(a, b)       a & ~b
 *   v_zip16(a, b, h)     the lanes of a and b interleaved, a's first:
 *                        h = 0 the low half of each 128-bit part, h = 1
 *                        the high half
 *   v_mask16i(a, b)      bit 2k set when lane k of a is all ones, bit
 *                        2k + 1 when lane k of b is (lanes all ones or
 *                        zero)
 *   v_mask16x2(a, b)     (16-byte vectors only) bits 0-7 set when lanes
 *                        0-7 of a are all ones, bits 8-15 for those of b
 *   v_mask16(a)          bit k set when lane k of a is all ones (32-byte
 *                        vectors only)
 *   v_pack8(a, b)        the lanes of a, then of b, saturated to bytes
 *   v_sat16(a, b)        the 32-bit lanes of a, then of b, saturated to
 *                        16-bit lanes
 *   v_splat32(x)         every 32-bit lane x
 *   v_gt32(a, b)         all ones in the 32-bit lanes where a > b (signed)
 *   v_shl32(v, n), v_shr32(v, n)  32-bit lane shifts
 *   v_mask32(a)          bit k set when 32-bit lane k of a is all ones
 *   v_overlap(a, b)      whether a bit is set in both a and b
 *   v_store_part(d, v, p)  the 16 bytes of 128-bit part p of v to d
 *   v_table2(t0, t1)     (32-byte vectors only) the 16 bytes at t0 in the
 *                        low 128-bit part, those at t1 in the high one
 *   v_pin(v)             v, made opaque to the compiler: a constant it
 *                        cannot rebuild inside a loop (or v as it is)
 *   v_narrow16(s, be, v) whether the VW units at s (big-endian when be)
 *                        are all ASCII; if so, *v gets them as bytes
 *   v_narrow8(d, s, be)  the 8 units at s (big-endian when be), ASCII, as
 *                        8 bytes to d
 *   v_narrow32(s, v)     the same for the VW values at s
 */
#ifndef UTF8KIT_SIMD_SHUFFLE_TO_UTF8_H
#define UTF8KIT_SIMD_SHUFFLE_TO_UTF8_H

#include "internal.h"
#include "simd/to_utf8_shift.h"
#include "simd/utf8_pack4.h"

#if VW != 16 && VW != 32
#error "simd/shuffle_to_utf8.h needs 16- or 32-byte vectors"
#endif

/* Part p (128 bits) of v, its bytes picked by the 16 indexes of row (an
 * index with its top bit set gives 0), to d. A layer may define its own
 * (U8K_HAVE_STORE_SHUFFLED): AVX2 takes the part out first and shuffles
 * 16 bytes. */
#ifndef U8K_HAVE_STORE_SHUFFLED
U8K_INLINE void v_store_shuffled(unsigned char *d, u8k_v v, int p, const unsigned char row[16])
{
    v_store_part(d, v_lookup(v, v_table(row)), p);
}
#endif

/* The vectors of one step of 16 units, and a loop over them (unrolled:
 * the vectors stay in registers only when indexed by constants). */
#define U8K_NV (32 / VW)
#define U8K_EACH(h) _Pragma("GCC unroll 2") for (int h = 0; h < U8K_NV; h++)

typedef struct u8k_units {
    u8k_v v[U8K_NV];
} u8k_units;

/* Every bit of a mask from v_mask16x2 or v_mask16i: VW of them. */
#define U8K_MASK_ALL ((uint32_t)((UINT64_C(1) << VW) - 1))

/* The constants of the kernels below, made once per call and pinned
 * (v_pin): GCC would otherwise rebuild some inside the loop, on AVX2
 * from a general register (two shuffle-port instructions each); without
 * the pins the UTF-32 kernels of SSE4.2 and AVX2 lost 3-5% on text of
 * 2- and 3-byte characters. */
typedef struct u8k_enc_k {
    u8k_v x7f, x7ff, x3f, x80c0, f800, d800;
    u8k_v dup, x3f7f, x8000, x3f00, x80e0;
} u8k_enc_k;

/* Byte 2k and 2k + 1: byte 2k (the low byte of each 16-bit lane to both
 * of its bytes) */
static const unsigned char u8k_dup_low[16] = {0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14};

U8K_INLINE void u8k_enc_init(u8k_enc_k *k)
{
    k->x7f = v_pin(v_splat16(0x7F));
    k->x7ff = v_pin(v_splat16(0x7FF));
    k->x3f = v_pin(v_splat16(0x3F));
    k->x80c0 = v_pin(v_splat16(0x80C0));
    k->f800 = v_pin(v_splat16(0xF800));
    k->d800 = v_pin(v_splat16(0xD800));
    k->dup = v_pin(v_table(u8k_dup_low));
    k->x3f7f = v_pin(v_splat16(0x3F7F));
    k->x8000 = v_pin(v_splat16(0x8000));
    k->x3f00 = v_pin(v_splat16(0x3F00));
    k->x80e0 = v_pin(v_splat16(0x80E0));
}

/* The VW / 2 units of u to UTF-8 at dst; returns the number of bytes, at
 * most 3 VW / 2; writes up to 3 VW / 2 + 4 bytes. Each unit gets the
 * 32-bit slot of u8k_pack3 (simd/utf8_pack4.h) as two 16-bit halves,
 *   a = u & 7F | (80 | u & 3F) << 8: the low byte copied to both bytes
 *       (one shuffle), masked, the tail mark set;
 *   b = E0 | u >> 12 | (80 | u >> 6 & 3F) << 8, with 40 more in the high
 *       byte below U+0800 (the lead C0 | u >> 6 of a 2-byte form; the
 *       mask of those lanes shifted up by 14 sets it).
 * Without pairs, no unit is a surrogate. With pairs, hs and ls mark the
 * high and low surrogates, every low one follows a high one, and prev
 * holds each unit's predecessor: a pair then takes two slots of 2 bytes
 * each (bytes 3 and 1 of the slot). For the high one h, v = h + 40, whose
 * low 11 bits are the top bits of the value less 10000 plus 40 (10000 >>
 * 10): F0 | v >> 8 & 7, 80 | v >> 2 & 3F. For the low one l: 80 | (v & 3)
 * << 4 | l >> 6 & F (v of the high one before it), 80 | l & 3F. */
U8K_INLINE size_t u8k_bmp(const u8k_enc_k *k, u8k_v u, unsigned char *dst, bool pairs, u8k_v prev,
                          u8k_v hs, u8k_v ls)
{
    u8k_v le7f = v_le16(u, k->x7f), le7ff = v_le16(u, k->x7ff);
    u8k_v a = v_or(v_and(v_lookup(u, k->dup), k->x3f7f), k->x8000);
    u8k_v b = v_or(v_or(v_and(v_shl16(u, 2), k->x3f00), v_shr16(u, 12)),
                   v_or(k->x80e0, v_shl16(le7ff, 14)));
    u8k_v lo, hi;
    uint32_t m;
    size_t n = 0;
    if (pairs) {
        u8k_v v = v_add16(u, v_splat16(0x40)), pv = v_add16(prev, v_splat16(0x40));
        /* high one: F0 | v >> 8 & 7 as byte 3, 80 | v >> 2 & 3F as byte 1 */
        u8k_v bh = v_or(v_and(v, v_splat16(0x0700)), v_splat16(0xF000));
        u8k_v ah = v_or(v_and(v_shl16(v, 6), k->x3f00), k->x8000);
        /* low one: byte 3 of b is 80 | 30 | l >> 6 & F; bits 4-5 become
         * the low two bits of the high one's v */
        u8k_v bl = v_or(v_andnot(b, v_splat16(0x3000)), v_shl16(v_and(pv, v_splat16(3)), 12));
        a = v_blend(a, ah, hs);
        b = v_blend(v_blend(b, bh, hs), bl, ls);
        /* two bytes each: counted as below U+0800 */
        le7ff = v_or(le7ff, v_or(hs, ls));
    }
    /* bit 2j: unit j is at least U+0080; bit 2j + 1: at least U+0800 */
    m = ~v_mask16i(le7f, le7ff) & U8K_MASK_ALL;
    /* 32-bit slots (a, b); group g of 4 units is in 128-bit part g >> 1
     * of lo (g even) or hi (g odd) */
    lo = v_zip16(a, b, 0);
    hi = v_zip16(a, b, 1);
    if (m == U8K_MASK_ALL) {
        /* all 3 bytes: row FF, fixed places */
        u8k_v row = v_table(u8k_pack3[0xFF]);
        lo = v_lookup(lo, row);
        hi = v_lookup(hi, row);
        _Pragma("GCC unroll 4") for (int g = 0; g < VW / 8; g++)
            v_store_part(dst + 12 * g, g & 1 ? hi : lo, g >> 1);
        return 3 * VW / 2;
    }
    _Pragma("GCC unroll 4") for (int g = 0; g < VW / 8; g++) {
        /* the row: the bits of the group's units 4g..4g+3 */
        unsigned e = m >> 8 * g & 0xFF;
        v_store_shuffled(dst + n, g & 1 ? hi : lo, g >> 1, u8k_pack3[e]);
        n += 4 + (unsigned)__builtin_popcount(e);
    }
    return n;
}

/* The VW / 2 units of u, all below U+0800, to UTF-8 at dst: C0 | u >> 6,
 * 80 | u & 3F at the end of each 16-bit slot (an ASCII unit, marked in
 * le7f, in its second byte), each 128-bit part packed by row m of
 * u8k_pack2 for its 8 bits of m (bit k: unit k takes 2 bytes); returns
 * the number of bytes, at most VW; writes up to VW. */
U8K_INLINE size_t u8k_two(const u8k_enc_k *k, u8k_v u, u8k_v le7f, uint32_t m, unsigned char *dst)
{
    u8k_v two = v_or(v_or(v_shr16(u, 6), k->x80c0), v_shl16(v_and(u, k->x3f), 8));
    size_t n = 0;
    two = v_blend(two, v_shl16(u, 8), le7f);
#if VW == 32
    {
        /* both parts by one shuffle, its rows side by side (3-5% faster
         * on text of 2-byte characters than a shuffle per part, Zen 5) */
        unsigned e0 = m & 0xFF, e1 = m >> 8 & 0xFF;
        u8k_v x = v_lookup(two, v_table2(u8k_pack2[e0], u8k_pack2[e1]));
        v_store_part(dst, x, 0);
        n = 8 + (unsigned)__builtin_popcount(e0);
        v_store_part(dst + n, x, 1);
        return n + 8 + (unsigned)__builtin_popcount(e1);
    }
#else
    _Pragma("GCC unroll 2") for (int p = 0; p < VW / 16; p++) {
        unsigned e = m >> 8 * p & 0xFF;
        v_store_shuffled(dst + n, two, p, u8k_pack2[e]);
        n += 8 + (unsigned)__builtin_popcount(e);
    }
    return n;
#endif
}

/* The 6-bit groups of each 32-bit lane of c, lowest in lane byte 3:
 * c & 3F, c >> 6 & 3F, c >> 12 & 3F, c >> 18 in lane bytes 3..0 (the
 * bytes of a 4-byte form without their marks). */
U8K_INLINE u8k_v u8k_six_bit_groups(u8k_v c)
{
    return v_or(v_or(v_shl32(v_and(c, v_splat32(0x3F)), 24), v_shl32(v_and(c, v_splat32(0xFC0)), 10)),
                v_or(v_shr32(v_and(c, v_splat32(0x3F000)), 4), v_shr32(c, 18)));
}

/* The VW / 4 scalar values in the 32-bit lanes of c to UTF-8 at dst:
 * each lane gets its 1 to 4 bytes at its end, lead first (lane bytes
 * 0..3 hold F0 | c >> 18, 80 | c >> 12 & 3F, 80 | c >> 6 & 3F,
 * 80 | c & 3F for 4 bytes; a shorter form drops the first and sets its
 * own lead's bits; an ASCII lane is c << 24), and each 128-bit part is
 * packed by the row of u8k_pack4x for the lengths of its 4 lanes.
 * Returns the number of bytes, at most VW; writes up to VW. */
U8K_INLINE size_t u8k_four_lanes(u8k_v c, unsigned char *dst)
{
    u8k_v ge1 = v_gt32(c, v_splat32(0x7F)), ge2 = v_gt32(c, v_splat32(0x7FF));
    u8k_v ge3 = v_gt32(c, v_splat32(0xFFFF));
    u8k_v x = u8k_six_bit_groups(c);
    /* the marks of a 2-, 3- or 4-byte form */
    u8k_v mark = v_blend(v_blend(v_splat32(0x80C00000u), v_splat32(0x8080E000u), ge2),
                         v_splat32(0x808080F0u), ge3);
    uint32_t m1 = v_mask32(ge1), m2 = v_mask32(ge2), m3 = v_mask32(ge3);
    size_t n = 0;
    x = v_blend(v_shl32(c, 24), v_or(x, mark), ge1);
    _Pragma("GCC unroll 2") for (int p = 0; p < VW / 16; p++) {
        unsigned a = m1 >> 4 * p & 15, b = m2 >> 4 * p & 15, d = m3 >> 4 * p & 15;
        unsigned e = (unsigned)u8k_spread4[a] + u8k_spread4[b] + u8k_spread4[d];
        v_store_shuffled(dst + n, x, p, u8k_pack4x[e]);
        n += 4 + (unsigned)__builtin_popcount(a | b << 4 | d << 8);
    }
    return n;
}

/* The 4-byte form of each value of c (all U+10000..U+10FFFF), lead
 * first: F0 | c >> 18, 80 | c >> 12 & 3F, 80 | c >> 6 & 3F, 80 | c & 3F
 * in lane bytes 0..3. */
U8K_INLINE u8k_v u8k_four_bytes(u8k_v c)
{
    return v_or(u8k_six_bit_groups(c), v_splat32(0x808080F0u));
}

/* The 16 scalar values at s (of `avail`, all at most 10FFFF and no
 * surrogates) to UTF-8 at dst (u8k_four_lanes), which has room for
 * `room` >= 64 bytes; returns the number of bytes and sets *took to the
 * values taken. 16 values write up to 64 bytes. When all 16 are from
 * U+10000 on (emoji), each lane's 4 bytes are stored as they are, VW / 4
 * lanes by one store, without the packing, and so are the next 16 while
 * they are such values too (a run). Out of line: inlined, it cost the
 * SSE4.2 loop 10% on text without such values. */
static U8K_NOINLINE size_t u8k_four_block(const uint32_t *s, size_t avail, unsigned char *dst,
                                          size_t room, size_t *took)
{
    size_t n = 0, t = 0;
    /* pinned: gcc 12 makes a signed compare with a constant it sees
     * into a min and a compare */
    const u8k_v x10000 = v_pin(v_splat32(0x10000)), x10ffff = v_pin(v_splat32(0x10FFFF));
    u8k_v c[64 / VW], bad = v_splat(0);
    _Pragma("GCC unroll 4") for (int q = 0; q < 64 / VW; q++) {
        c[q] = v_load((const unsigned char *)(const void *)(s + q * VW / 4));
        bad = v_or(bad, v_gt32(x10000, c[q]));
    }
    if (v_any(bad)) {
        _Pragma("GCC unroll 4") for (int q = 0; q < 64 / VW; q++)
            n += u8k_four_lanes(c[q], dst + n);
        *took = 16;
        return n;
    }
    for (;;) {
        _Pragma("GCC unroll 4") for (int q = 0; q < 64 / VW; q++)
            v_store(dst + n + q * VW, u8k_four_bytes(c[q]));
        n += 64;
        t += 16;
        if (avail - t < 16 || room - n < 64)
            break;
        /* the next 16, when all are U+10000..10FFFF (a value from
         * 80000000 on is negative here, so below 10000 too) */
        _Pragma("GCC unroll 4") for (int q = 0; q < 64 / VW; q++) {
            c[q] = v_load((const unsigned char *)(const void *)(s + t + q * VW / 4));
            bad = v_or(bad, v_or(v_gt32(x10000, c[q]), v_gt32(c[q], x10ffff)));
        }
        if (v_any(bad))
            break;
    }
    *took = t;
    return n;
}

/* A run of surrogate pairs (emoji), from a high surrogate at s, of at
 * most `avail` units, to UTF-8 at dst with room for `room` bytes: VW / 4
 * pairs a step, one in each 32-bit lane (high unit low, low unit high),
 * while every lane is such a pair (one mask, one compare); each pair
 * becomes its value, 10000 + (high & 3FF) << 10 | (low & 3FF), and the
 * value its 4 bytes, stored as they are (u8k_four_bytes). Returns the
 * bytes written and sets *took to the units taken. */
static U8K_NOINLINE size_t u8k_pairs_run(const uint16_t *s, size_t avail, unsigned char *dst,
                                         size_t room, bool be, size_t *took)
{
    size_t t = 0, n = 0;
    for (; avail - t >= VW / 2 && room - n >= VW; t += VW / 2, n += VW) {
        u8k_v x = v_load((const unsigned char *)(const void *)(s + t)), c;
        if (be)
            x = v_bswap16(x);
        if (v_any(v_xor(v_and(x, v_splat32(0xFC00FC00u)), v_splat32(0xDC00D800u))))
            break;
        /* the 16-bit add puts 1 into the top half (at most F there: no
         * carry out of the lane) */
        c = v_add16(v_or(v_shl32(v_and(x, v_splat32(0x3FF)), 10),
                         v_and(v_shr32(x, 16), v_splat32(0x3FF))),
                    v_splat32(0x10000));
        v_store(dst + n, u8k_four_bytes(c));
    }
    *took = t;
    return n;
}

/* Whether the 16 values at s, whose OR is any, are all at most 10FFFF
 * (the signed compare needs the test of the top bits first). */
U8K_INLINE bool u8k_below_110000(const uint32_t *s, u8k_v any)
{
    u8k_v big = v_splat(0);
    if (v_overlap(any, v_splat32(0xFFE00000u)))
        return false;
    _Pragma("GCC unroll 4") for (int q = 0; q < 64 / VW; q++)
        big = v_or(big, v_gt32(v_load((const unsigned char *)(const void *)(s + q * VW / 4)),
                               v_splat32(0x10FFFF)));
    return !v_any(big);
}

/* The 16 units at s (big-endian in memory when be), in host order. */
U8K_INLINE u8k_units u8k_load_units(const uint16_t *s, bool be)
{
    u8k_units u;
    U8K_EACH(h)
    {
        u.v[h] = v_load((const unsigned char *)(const void *)(s + h * VW / 2));
        if (be)
            u.v[h] = v_bswap16(u.v[h]);
    }
    return u;
}

/* The 16 values at s, saturated to 16-bit units; *any gets the OR of
 * the values (in 32-bit lanes). */
U8K_INLINE u8k_units u8k_load_units32(const uint32_t *s, u8k_v *any)
{
    u8k_units u;
    u8k_v c[2 * U8K_NV];
    _Pragma("GCC unroll 4") for (int q = 0; q < 2 * U8K_NV; q++)
        c[q] = v_load((const unsigned char *)(const void *)(s + q * VW / 4));
    *any = v_or(v_or(c[0], c[1]), v_or(c[2 * U8K_NV - 2], c[2 * U8K_NV - 1]));
    U8K_EACH(h)
    {
        u.v[h] = v_sat16(c[2 * h], c[2 * h + 1]);
    }
    return u;
}

/* The OR of the 16 units. */
U8K_INLINE u8k_v u8k_units_or(const u8k_units *u)
{
    u8k_v a = v_splat(0);
    U8K_EACH(h)
    {
        a = v_or(a, u->v[h]);
    }
    return a;
}

/* 16 bits: bit k set when unit k is all ones (units all ones or zero). */
U8K_INLINE uint32_t u8k_units_bits(const u8k_units *x)
{
#if VW == 16
    return v_mask16x2(x->v[0], x->v[1]);
#else
    return v_mask16(x->v[0]);
#endif
}

/* The 16 units, all ASCII, as 16 bytes to d (a single 32-byte vector
 * is packed with itself: its first 16 bytes). */
U8K_INLINE void u8k_store_ascii(unsigned char *d, const u8k_units *u)
{
    v_store_part(d, v_pack8(u->v[0], u->v[U8K_NV - 1]), 0);
}

/* Some of the 16 units is a surrogate: (u & F800) == D800. */
U8K_INLINE bool u8k_any_surrogate(const u8k_enc_k *k, const u8k_units *u)
{
    u8k_v s = v_splat(0);
    U8K_EACH(h)
    {
        s = v_or(s, v_eq16(v_and(u->v[h], k->f800), k->d800));
    }
    return v_any(s);
}

/* The 16 units, none a surrogate, to UTF-8 at dst; returns the number of
 * bytes, at most 48; writes up to 52. */
U8K_INLINE size_t u8k_bmp_units(const u8k_enc_k *k, const u8k_units *u, unsigned char *dst)
{
    size_t n = 0;
    U8K_EACH(h)
    {
        n += u8k_bmp(k, u->v[h], dst + n, false, u->v[h], u->v[h], u->v[h]);
    }
    return n;
}

/* The 16 units of u, all below U+0800, to UTF-8 at dst (1 or 2 bytes
 * each, u8k_two); returns the number of bytes, at most 32. */
U8K_INLINE size_t u8k_two_units(const u8k_enc_k *k, const u8k_units *u, unsigned char *dst)
{
    u8k_units le;
    uint32_t m;
    size_t o = 0;
    U8K_EACH(h)
    {
        le.v[h] = v_le16(u->v[h], k->x7f);
    }
    m = ~u8k_units_bits(&le) & 0xFFFFu;
    U8K_EACH(h)
    {
        o += u8k_two(k, u->v[h], le.v[h], m >> (h * VW / 2), dst + o);
    }
    return o;
}

/* The 16 units of the block at unit (or value) i of s: UTF-16 (big-endian
 * in memory when be), or UTF-32 (w32: values saturated to 16 bits, as
 * u8k_load_units32). *top gets the OR of the units, in 16-bit lanes for
 * UTF-16 and 32-bit lanes for UTF-32. */
U8K_INLINE u8k_units u8k_load_any(const void *s, size_t i, bool be, bool w32, u8k_v *top)
{
    u8k_units u;
    if (w32)
        return u8k_load_units32((const uint32_t *)s + i, top);
    u = u8k_load_units((const uint16_t *)s + i, be);
    *top = u8k_units_or(&u);
    return u;
}

/* A run of 16-unit blocks all below U+0800, from the one at unit (UTF-32:
 * value) 0 of s (known to be such a block), to UTF-8 at dst
 * (u8k_two_units), while the next block starts at most `last` units on
 * and less than `olast` bytes have been written (the block loop's
 * bounds, from s and dst). Returns the bytes written and sets *took to
 * the units taken (a multiple of 16). Such a run skips the block loop's
 * tests for ASCII and for 3-byte units: text of 2-byte characters
 * converts 1.16-1.19x as fast from UTF-16, 1.14-1.24x from UTF-32 (AVX2
 * and SSE4.2; Intel Xeon, session 34). Out of line, with constants of
 * its own: as a loop inside the block loop it made gcc move the 3-byte
 * path's constants to the stack (Chinese 0.83x, AVX2). A call costs
 * short strings of 2-byte characters 4-5%. (This and u8k_bmp_run share
 * the shape of their loop; written as one inline body for both, gcc
 * placed SSE4.2's 3-byte loop otherwise, and Chinese converted 13%
 * slower.) */
static U8K_NOINLINE size_t u8k_two_run(const void *s, size_t last, unsigned char *dst,
                                       size_t olast, bool be, bool w32, size_t *took)
{
    u8k_enc_k k;
    u8k_v top;
    u8k_units u = u8k_load_any(s, 0, be, w32, &top);
    size_t i = 0, o = 0;
    u8k_enc_init(&k);
    for (;;) {
        o += u8k_two_units(&k, &u, dst + o);
        i += 16;
        if (i > last || o >= olast)
            break;
        u = u8k_load_any(s, i, be, w32, &top);
        if (w32 ? v_overlap(top, v_splat32(0xFFFFF800u)) : v_overlap(top, v_splat16(0xF800)))
            break;
    }
    *took = i;
    return o;
}

/* The same for a run of blocks with a unit from U+0800 on, no surrogate
 * (UTF-32: and no value above FFFF) (u8k_bmp_units), from one such block
 * at s: the tests for ASCII and for 2-byte blocks skipped, text of
 * 3-byte characters with ASCII spaces and punctuation converts 1.12-1.22x
 * as fast from UTF-16, 1.0-1.2x from UTF-32 (the same machine). */
static U8K_NOINLINE size_t u8k_bmp_run(const void *s, size_t last, unsigned char *dst,
                                       size_t olast, bool be, bool w32, size_t *took)
{
    u8k_enc_k k;
    u8k_v top;
    u8k_units u = u8k_load_any(s, 0, be, w32, &top);
    size_t i = 0, o = 0;
    u8k_enc_init(&k);
    for (;;) {
        o += u8k_bmp_units(&k, &u, dst + o);
        i += 16;
        if (i > last || o >= olast)
            break;
        u = u8k_load_any(s, i, be, w32, &top);
        if (w32 ? !v_overlap(top, v_splat32(0xFFFFF800u)) || v_overlap(top, v_splat32(0xFFFF0000u))
                : !v_overlap(top, v_splat16(0xF800)))
            break;
        if (u8k_any_surrogate(&k, &u))
            break;
    }
    *took = i;
    return o;
}

/* The units at s (n of them, big-endian in memory when be), VW at a time
 * while they are ASCII, narrowed to d (room for m bytes); returns how many
 * (a multiple of VW). One count and one bound for both sides: with an
 * index and a bound for each, gcc made the loop 17 instructions a block
 * (11 now), and ASCII text converted 15-24% faster without them (AVX2
 * and SSE4.2, Zen 5). The loop below calls it after a first such block
 * only: called at once, its set-up cost mixed text (French, Portuguese)
 * 5%. */
U8K_INLINE size_t u8k_ascii_run16(const uint16_t *s, size_t n, unsigned char *d, size_t m, bool be)
{
    size_t k = 0, end = (n < m ? n : m) / VW * VW;
    u8k_v x;
    while (k < end && v_narrow16(s + k, be, &x)) {
        v_store(d + k, x);
        k += VW;
    }
    return k;
}

/* UTF-16 -> UTF-8 of at least 16 units (flags: U8K_BE, U8K_TRUSTED for
 * the scalar kernel; be: U8K_BE is set), with the result of the scalar
 * kernel's contract. */
U8K_INLINE utf8kit_result u8k_utf16_to_utf8_shuffle_loop(const uint16_t *src, size_t len,
                                                         unsigned char *dst, size_t cap,
                                                         unsigned flags, bool be)
{
    size_t i = 0, o = 0, rep = 0;
    utf8kit_result r;
    u8k_enc_k k;
    u8k_enc_init(&k);
    /* 64 bytes of room: 16 units make at most 48 and write up to 52.
     * (The bounds as o < olim, i <= ilast: len >= 16; olim is 0, never
     * reached, without the room.) */
    const size_t ilast = len - 16, olim = cap >= 64 ? cap - 63 : 0;
    while (i <= ilast && o < olim) {
        u8k_units u = u8k_load_units(src + i, be);
        u8k_v any = u8k_units_or(&u), x;
        if (!v_overlap(any, v_splat16(0xFF80))) {
            u8k_store_ascii(dst + o, &u);
            i += 16;
            o += 16;
            /* then VW units at a time while ASCII */
            if (i + VW <= len && o + VW <= cap && v_narrow16(src + i, be, &x)) {
                size_t run;
                v_store(dst + o, x);
                i += VW;
                o += VW;
                run = u8k_ascii_run16(src + i, len - i, dst + o, cap - o, be);
                i += run;
                o += run;
            }
            continue;
        }
        if (!v_overlap(any, v_splat16(0xF800))) {
            size_t t;
            o += u8k_two_run(src + i, ilast - i, dst + o, olim - o, be, false, &t);
            i += t;
            continue;
        }
        if (u8k_any_surrogate(&k, &u)) {
            /* Well paired when every low one follows a high one: the low
             * bits are the high bits moved up one unit, once a high one
             * in the last unit is left for the next step (its 2 bytes are
             * written last and not counted). */
            u8k_units hs, ls;
            uint32_t hm, lm, held;
            size_t j;
            U8K_EACH(h)
            {
                u8k_v t = v_and(u.v[h], v_splat16(0xFC00));
                hs.v[h] = v_eq16(t, v_splat16(0xD800));
                ls.v[h] = v_eq16(t, v_splat16(0xDC00));
            }
            hm = u8k_units_bits(&hs);
            lm = u8k_units_bits(&ls);
            if (hm == 0x5555 && lm == 0xAAAA) {
                /* 8 pairs: maybe a run of them */
                size_t t;
                o += u8k_pairs_run(src + i, len - i, dst + o, cap - o, be, &t);
                i += t;
                continue;
            }
            held = hm >> 15;
            if (lm == ((hm << 1) & 0xFFFFu)) {
                size_t n = 0;
                u8k_v before = v_splat(0);
                U8K_EACH(h)
                {
                    n += u8k_bmp(&k, u.v[h], dst + o + n, true, v_prev2(u.v[h], before), hs.v[h],
                                 ls.v[h]);
                    before = u.v[h];
                }
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
                return u8k_to8_shift_rep(r, i, o, rep);
            if (U8K_UNLIKELY(u8k_to8_replace(&r, flags, &i, &o, &rep, dst, cap)))
                continue;
            /* An error: the stretch may have cut a bad sequence short (a
             * high surrogate before the high one it stopped at), so the
             * rest of the input, whole, gives the report. */
            break;
        }
        if (ilast - i >= 48) {
            /* (with 64 units or more left: short strings of 3-byte
             * characters lost 4-7% to the call; the same choice for the
             * 2-byte run made gcc allocate this loop's registers
             * otherwise, and emoji with unpaired surrogates lost 19%
             * on SSE4.2) */
            size_t t;
            o += u8k_bmp_run(src + i, ilast - i, dst + o, olim - o, be, false, &t);
            i += t;
        } else {
            o += u8k_bmp_units(&k, &u, dst + o);
            i += 16;
        }
    }
    /* The last 1..15 units, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the units it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        u8k_units u = u8k_load_units(src + len - 16, be);
        if (!v_overlap(u8k_units_or(&u), v_splat16(0xFF80))) {
            u8k_store_ascii(dst + o - (16 - (len - i)), &u);
            return u8k_res_rep(UTF8KIT_OK, len, o + (len - i), rep);
        }
    }
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift_rep(r, i, o, rep);
}

/* The loop out of line (see u8k_utf16_to_utf8_shuffle), once for each
 * byte order: with the order a constant, the loop tests it nowhere. */
U8K_NOINLINE static utf8kit_result u8k_utf16le_to_utf8_long(const uint16_t *src, size_t len,
                                                            unsigned char *dst, size_t cap,
                                                            unsigned flags)
{
    return u8k_utf16_to_utf8_shuffle_loop(src, len, dst, cap, flags, false);
}

U8K_NOINLINE static utf8kit_result u8k_utf16be_to_utf8_long(const uint16_t *src, size_t len,
                                                            unsigned char *dst, size_t cap,
                                                            unsigned flags)
{
    return u8k_utf16_to_utf8_shuffle_loop(src, len, dst, cap, flags, true);
}

/* Whether the 8 to 32 units at src are all ASCII, and then they are
 * stored as bytes at dst (room for them known), with no branch on the
 * length: the test is u8k_short_or of internal.h over their bytes (an
 * ASCII unit has no bit outside 007F, or outside 7F00 when big-endian,
 * of its 16), the narrowing four groups of 8 units at u8k_short_at(k, len). */
U8K_INLINE bool u8k_short_ascii16(const uint16_t *src, size_t len, unsigned char *dst, bool be)
{
    const uint64_t hi = be ? UINT64_C(0x80FF80FF80FF80FF) : UINT64_C(0xFF80FF80FF80FF80);
    unsigned k;
    if (u8k_short_or(src, 2 * len) & hi)
        return false;
    for (k = 0; k < 4; k++) {
        size_t off = u8k_short_at(k, len);
        v_narrow8(dst + off, src + off, be);
    }
    return true;
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop, unless they
 * are ASCII (u8k_short_ascii16). */
static utf8kit_result u8k_utf16_to_utf8_shuffle(const uint16_t *src, size_t len, unsigned char *dst,
                                                size_t cap, unsigned flags)
{
    if (len >= 8 && len <= 32 && cap >= len &&
        u8k_short_ascii16(src, len, dst, (flags & U8K_BE) != 0))
        return u8k_res(UTF8KIT_OK, len, len, 0);
    if (len < 16)
        return u8k_scalar_utf16_to_utf8(src, len, dst, cap, flags);
    if (flags & U8K_BE)
        return u8k_utf16be_to_utf8_long(src, len, dst, cap, flags);
    return u8k_utf16le_to_utf8_long(src, len, dst, cap, flags);
}

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_utf16_to_utf8_shuffle(const uint16_t *src, size_t len,
                                                 unsigned char *dst, size_t cap, unsigned flags)
{
    return u8k_split16(u8k_utf16_to_utf8_shuffle, src, len, dst, cap, flags);
}

/* UTF-32: the same, values below U+10000 and not surrogates saturated to
 * 16-bit units (which leaves them as they are); a block with another
 * goes to the scalar kernel, 64 values at a time. */
U8K_NOINLINE static utf8kit_result simd_utf32_to_utf8_shuffle_long(const uint32_t *src, size_t len,
                                                                   unsigned char *dst, size_t cap,
                                                                   unsigned flags)
{
    size_t i = 0, o = 0, rep = 0;
    utf8kit_result r;
    u8k_enc_k k;
    /* (the bounds as in the UTF-16 loop) */
    const size_t ilast = len - 16, olim = cap >= 64 ? cap - 63 : 0;
    u8k_enc_init(&k);
    while (i <= ilast && o < olim) {
        u8k_v any, x;
        bool sur;
        u8k_units u = u8k_load_units32(src + i, &any);
        if (!v_overlap(any, v_splat32(0xFFFFFF80u))) {
            u8k_store_ascii(dst + o, &u);
            i += 16;
            o += 16;
            /* then VW values at a time while ASCII */
            while (i + VW <= len && o + VW <= cap && v_narrow32(src + i, &x)) {
                v_store(dst + o, x);
                i += VW;
                o += VW;
            }
            continue;
        }
        if (!v_overlap(any, v_splat32(0xFFFFF800u))) {
            /* all below U+0800 */
            size_t t;
            o += u8k_two_run(src + i, ilast - i, dst + o, olim - o, false, true, &t);
            i += t;
            continue;
        }
        sur = u8k_any_surrogate(&k, &u);
        if (sur || v_overlap(any, v_splat32(0xFFFF0000u))) {
            /* a value from U+10000 on, a surrogate or one above 10FFFF:
             * with none of the last two (a surrogate keeps its value
             * when saturated, one from U+10000 on becomes FFFF), 1 to 4
             * bytes from each 32-bit lane; else the scalar kernel */
            size_t j = len - i > 64 ? i + 64 : len;
            if (!sur && u8k_below_110000(src + i, any)) {
                size_t t;
                o += u8k_four_block(src + i, len - i, dst + o, cap - o, &t);
                i += t;
                continue;
            }
            r = u8k_scalar_utf32_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            if (U8K_UNLIKELY(u8k_to8_replace(&r, flags, &i, &o, &rep, dst, cap)))
                continue;
            return u8k_to8_shift_rep(r, i, o, rep);
        }
        if (ilast - i >= 48) {
            /* (as in the UTF-16 loop) */
            size_t t;
            o += u8k_bmp_run(src + i, ilast - i, dst + o, olim - o, false, true, &t);
            i += t;
        } else {
            o += u8k_bmp_units(&k, &u, dst + o);
            i += 16;
        }
    }
    /* The last 1..15 values, when the 16 ending them are all ASCII: one
     * block ending at the end, rewriting the same bytes for the values it
     * shares with the blocks before (ASCII there too, one byte each). */
    if (i < len && len - i < 16 && i >= 16 - (len - i) && cap - o >= len - i) {
        u8k_v any;
        u8k_units u = u8k_load_units32(src + len - 16, &any);
        if (!v_overlap(any, v_splat32(0xFFFFFF80u))) {
            u8k_store_ascii(dst + o - (16 - (len - i)), &u);
            return u8k_res_rep(UTF8KIT_OK, len, o + (len - i), rep);
        }
    }
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift_rep(r, i, o, rep);
}

/* The kernel: inputs too short for one step go straight to the scalar
 * kernel, before the setup and register saves of the loop. */
static utf8kit_result u8k_utf32_to_utf8_shuffle(const uint32_t *src, size_t len, unsigned char *dst,
                                                size_t cap, unsigned flags)
{
    if (len < 16)
        return u8k_scalar_utf32_to_utf8(src, len, dst, cap, flags);
    return simd_utf32_to_utf8_shuffle_long(src, len, dst, cap, flags);
}

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_utf32_to_utf8_shuffle(const uint32_t *src, size_t len,
                                                 unsigned char *dst, size_t cap, unsigned flags)
{
    return u8k_split32(u8k_utf32_to_utf8_shuffle, src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_SHUFFLE_TO_UTF8_H */
