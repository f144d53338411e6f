/*
 * simd/shuffle_latin1.h - Latin-1 <-> UTF-8, written once for the 16-byte
 * vector units with a whole-vector byte shuffle (SSE4.2 pshufb, NEON
 * vqtbl1q: v_lookup). A kernel file includes it after simd/pext.h (whose
 * row macros U8K_POP8 and U8K_LANE it shares) and defines U8K_OWN_LATIN1.
 * It needs the layers of simd/validate.h, simd/transcode.h and the 16-bit
 * lane operations listed in simd/pext.h.
 *
 * Both kernels run whole 16-byte blocks while there is room for the
 * largest stores of one; the scalar kernel finishes what the vector loop
 * stops at (the last partial block, an error, a character above U+00FF,
 * the end of the room), so every result is the reference's own.
 * (AVX2 keeps simd/pext_latin1.h: its shuffle works within 128-bit
 * halves, and PEXT packs 8 bytes in one step.)
 */
#ifndef UTF8KIT_SIMD_SHUFFLE_LATIN1_H
#define UTF8KIT_SIMD_SHUFFLE_LATIN1_H

#include "internal.h"

#if VW != 16
#error "simd/shuffle_latin1.h needs 16-byte vectors (v_lookup over the whole vector)"
#endif
#ifndef UTF8KIT_SIMD_PEXT_H
#error "simd/shuffle_latin1.h uses the row macros of simd/pext.h: include that first"
#endif

/* Latin-1 -> UTF-8 of 8 bytes widened to 16-bit lanes, each lane the
 * byte itself (below 80) or its pair, lead in the low byte: row m of
 * u8k_l1_rows keeps the low byte of every lane and the high byte of the
 * lanes whose bit is set in m, in order. Lane k's low byte lands at slot
 * k + (bits of m below k), its high byte one after; slots past the count
 * read byte 0. */
#define U8K_L1_AT(m, j, k)                                                                 \
    ((j) == (k) + U8K_POP8((m) & ((1 << (k)) - 1))                                         \
         ? 2 * (k)                                                                         \
         : ((m) >> (k) & 1) && (j) == (k) + 1 + U8K_POP8((m) & ((1 << (k)) - 1)) ? 2 * (k) + 1 \
                                                                                 : 0)
#define U8K_L1_SLOT(m, j)                                                                  \
    (U8K_L1_AT(m, j, 0) + U8K_L1_AT(m, j, 1) + U8K_L1_AT(m, j, 2) + U8K_L1_AT(m, j, 3) +   \
     U8K_L1_AT(m, j, 4) + U8K_L1_AT(m, j, 5) + U8K_L1_AT(m, j, 6) + U8K_L1_AT(m, j, 7))
#define U8K_L1_ROW(m)                                                                      \
    {U8K_L1_SLOT(m, 0),  U8K_L1_SLOT(m, 1),  U8K_L1_SLOT(m, 2),  U8K_L1_SLOT(m, 3),        \
     U8K_L1_SLOT(m, 4),  U8K_L1_SLOT(m, 5),  U8K_L1_SLOT(m, 6),  U8K_L1_SLOT(m, 7),        \
     U8K_L1_SLOT(m, 8),  U8K_L1_SLOT(m, 9),  U8K_L1_SLOT(m, 10), U8K_L1_SLOT(m, 11),       \
     U8K_L1_SLOT(m, 12), U8K_L1_SLOT(m, 13), U8K_L1_SLOT(m, 14), U8K_L1_SLOT(m, 15)}
#define U8K_L1_ROW4(m) U8K_L1_ROW(m), U8K_L1_ROW(m + 1), U8K_L1_ROW(m + 2), U8K_L1_ROW(m + 3)
#define U8K_L1_ROW16(m) U8K_L1_ROW4(m), U8K_L1_ROW4(m + 4), U8K_L1_ROW4(m + 8), U8K_L1_ROW4(m + 12)
#define U8K_L1_ROW64(m)                                                                    \
    U8K_L1_ROW16(m), U8K_L1_ROW16(m + 16), U8K_L1_ROW16(m + 32), U8K_L1_ROW16(m + 48)
static const unsigned char u8k_l1_rows[256][16] = {U8K_L1_ROW64(0), U8K_L1_ROW64(64),
                                                  U8K_L1_ROW64(128), U8K_L1_ROW64(192)};

/* Compaction of 8 bytes: row m of u8k_byte_rows lists the bytes whose bit
 * is set in m, in order (U8K_LANE of simd/pext.h: the j-th slot holds
 * byte p when bit p is set and j bits lie below it); the rest read byte
 * 0. */
#define U8K_BYTE_ROW(m)                                                                    \
    {U8K_LANE(m, 0), U8K_LANE(m, 1), U8K_LANE(m, 2), U8K_LANE(m, 3),                       \
     U8K_LANE(m, 4), U8K_LANE(m, 5), U8K_LANE(m, 6), U8K_LANE(m, 7)}
#define U8K_BYTE_ROW4(m) U8K_BYTE_ROW(m), U8K_BYTE_ROW(m + 1), U8K_BYTE_ROW(m + 2), U8K_BYTE_ROW(m + 3)
#define U8K_BYTE_ROW16(m)                                                                  \
    U8K_BYTE_ROW4(m), U8K_BYTE_ROW4(m + 4), U8K_BYTE_ROW4(m + 8), U8K_BYTE_ROW4(m + 12)
#define U8K_BYTE_ROW64(m)                                                                  \
    U8K_BYTE_ROW16(m), U8K_BYTE_ROW16(m + 16), U8K_BYTE_ROW16(m + 32), U8K_BYTE_ROW16(m + 48)
/* 16 bytes a row, for a whole-vector load; slots 8..15 read byte 0 */
static const unsigned char u8k_byte_rows[256][16] = {U8K_BYTE_ROW64(0), U8K_BYTE_ROW64(64),
                                                    U8K_BYTE_ROW64(128), U8K_BYTE_ROW64(192)};

/* Stores the bytes of x whose bit is set in keep (16 bits), in order, at
 * d: each half by one shuffle, the second after the first's count.
 * Writes up to 24 bytes; returns how many count. */
U8K_INLINE size_t u8k_keep_bytes(unsigned char *d, u8k_v x, unsigned keep)
{
    unsigned lo = keep & 0xFF, hi = keep >> 8 & 0xFF;
    size_t n = (size_t)__builtin_popcount(lo);
    v_store(d, v_lookup(x, v_table(u8k_byte_rows[lo])));
    /* the high half: byte p of the row stands for byte 8 + p */
    v_store(d + n, v_lookup(x, v_add(v_table(u8k_byte_rows[hi]), v_splat(8))));
    return n + (size_t)__builtin_popcount(hi);
}

/* Latin-1 -> UTF-8, 16 bytes per step: an ASCII block is copied (a run
 * of them 64 bytes a step); in
 * another each half of 8 is widened to 16-bit lanes, a byte b >= 80
 * becomes the lane C0|b>>6 | (80|b&3F) << 8 (C2 or C3, then its tail),
 * and one shuffle by u8k_l1_rows[its high bits] drops the empty high
 * bytes of the ASCII lanes. A block writes up to 32 bytes. */
static utf8kit_result u8k_latin1_to_utf8_shuffle(const unsigned char *src, size_t len,
                                                 unsigned char *dst, size_t cap)
{
    size_t i = 0, o = 0;
    unsigned quiet = 0;
    utf8kit_result r;
    while (i + VW <= len && o + 2 * VW <= cap) {
        u8k_v w = v_load(src + i);
        unsigned high = (unsigned)v_high(w);
        if (high == 0) {
            v_store(dst + o, w);
            i += VW;
            o += VW;
            /* From the second ASCII block in a row: 4 blocks a step
             * while they are ASCII. Mostly-ASCII text converts
             * 1.36x as fast (Esperanto; German 1.05x, SSE4.2, Intel
             * Xeon, session 34); entered after every ASCII block, the
             * step cost French, where most such blocks stand alone,
             * 5-8%. */
            if (++quiet < 2)
                continue;
            while (i + 4 * VW <= len && o + 4 * VW <= cap) {
                u8k_v a = v_load(src + i), b = v_load(src + i + VW);
                u8k_v c = v_load(src + i + 2 * VW), d = v_load(src + i + 3 * VW);
                if (v_high(v_or(v_or(a, b), v_or(c, d))) != 0)
                    break;
                v_store(dst + o, a);
                v_store(dst + o + VW, b);
                v_store(dst + o + 2 * VW, c);
                v_store(dst + o + 3 * VW, d);
                i += 4 * VW;
                o += 4 * VW;
            }
            continue;
        }
        quiet = 0;
        for (int h = 0; h < 2; h++) {
            u8k_v x = v_widen16(w, h);
            u8k_v two = v_or(v_or(v_shr16(x, 6), v_splat16(0x80C0)),
                             v_shl16(v_and(x, v_splat16(0x3F)), 8));
            unsigned m = high >> (8 * h) & 0xFF;
            x = v_blend(x, two, v_gt16(x, v_splat16(0x7F)));
            v_store(dst + o, v_lookup(x, v_table(u8k_l1_rows[m])));
            o += 8 + (size_t)__builtin_popcount(m);
        }
        i += VW;
    }
    r = u8k_scalar_latin1_to_utf8(src + i, len - i, dst + o, cap - o);
    return u8k_shift(r, i, o);
}

/* 40 at index 1, else 0: looked up by (the byte before) - C2, saturated,
 * it gives the 40 that the tail after C3 gains (C3 80 = U+00C0). Only
 * index 1 (C3) reads 40: on SSE an index 11, 21, 31 (D3, E3, F3) would
 * too, but such a byte is never a kept byte's predecessor (it is wrong,
 * and the bytes after it are not converted). */
static const unsigned char u8k_c3_gain[16] = {0, 0x40};

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_latin1_to_utf8_shuffle(const unsigned char *src, size_t len,
                                                  unsigned char *dst, size_t cap)
{
    return u8k_split8(u8k_latin1_to_utf8_shuffle, src, len, dst, cap);
}

/* UTF-8 -> Latin-1 at a fixed stride of 16 bytes, as simd/pext_latin1.h:
 * valid UTF-8 of U+0000..U+00FF is ASCII and pairs C2|C3 then a tail
 * 80..BF, so a block is exactly that (at most a lead in its last byte,
 * whose tail opens the next block) when, on its byte masks, tails ==
 * leads << 1 | lead_in and the bytes C0..FF are the leads. Each character
 * is then its ASCII byte or its tail (+ 40 after C3), and u8k_keep_bytes
 * drops the leads. The first block that fails the test holds an error or
 * a character above U+00FF: it is converted up to the character holding
 * the first wrong byte, from which the scalar kernel goes on (and reports
 * it). A block writes up to 24 bytes (u8k_keep_bytes). */
static utf8kit_result simd_utf8_to_latin1_shuffle(const unsigned char *src, size_t len,
                                                  unsigned char *dst, size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    unsigned lead_in = 0; /* bit 0: byte i-1 is a lead waiting for its tail */
    u8k_v prev = v_splat(0), gain = v_table(u8k_c3_gain);
    utf8kit_result r;
    while (i + VW <= len && o + 2 * VW <= cap) {
        u8k_v w = v_load(src + i);
        unsigned high = (unsigned)v_high(w), c0, leads, tails, bad, keep;
        u8k_v x;
        if ((high | lead_in) == 0) {
            v_store(dst + o, w);
            prev = w;
            i += VW;
            o += VW;
            continue;
        }
        /* v - k (saturated) has its high bit set exactly for the bytes
         * >= 80 + k: C0..FF, C2..FF, C4..FF */
        c0 = (unsigned)v_high(v_subs(w, v_splat(0x40)));
        leads = (unsigned)v_high(v_subs(w, v_splat(0x42))) &
                ~(unsigned)v_high(v_subs(w, v_splat(0x44)));
        tails = high & ~c0;
        bad = (tails ^ ((leads << 1 | lead_in) & 0xFFFF)) | (c0 ^ leads);
        keep = ~leads & 0xFFFF;
        x = v_add(w, v_lookup(gain, v_subs(v_prev1(w, prev), v_splat(0xC2))));
        if (U8K_UNLIKELY(bad != 0)) {
            /* Convert up to the character holding the first wrong byte
             * (a missing tail belongs to the lead before it). */
            unsigned q = (unsigned)__builtin_ctz(bad);
            if (q > 0 && (leads >> (q - 1) & 1))
                q--;
            if (q == 0)
                break; /* from the carried lead (i - 1), or from i */
            o += u8k_keep_bytes(dst + o, x, keep & ((1u << q) - 1));
            i += q;
            lead_in = 0;
            break;
        }
        o += u8k_keep_bytes(dst + o, x, keep);
        prev = w;
        i += VW;
        lead_in = leads >> (VW - 1);
    }
    i -= lead_in;
    r = u8k_scalar_utf8_to_latin1(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_SHUFFLE_LATIN1_H */
