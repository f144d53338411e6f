/*
 * simd/pext.h - UTF-8 -> UTF-16 and UTF-32, written once for the vector
 * units with a byte shuffle but no byte compress (AVX2, SSE4.2, NEON).
 * A kernel file includes it after simd/transcode.h and defines
 * U8K_OWN_UTF8_TO_UTF16 and U8K_OWN_UTF8_TO_UTF32.
 *
 * The vector unit builds, in 16-bit lanes, the value of the character
 * that would end at each byte: the byte itself (ASCII), or with the byte
 * before it (2 bytes), or with the two before it (3 bytes; the byte
 * before is then a tail, not a lead); a byte shuffle from a table packs
 * the lanes of the real ends, 8 at a time. Blocks with 4-byte
 * characters run in a loop of their own (u8k_pext_four): such a
 * character becomes a surrogate pair stored at its third and fourth
 * bytes for UTF-16, and for UTF-32 a value stored at its fourth byte from
 * two lanes (its low 16 and its top 5 bits); text of such characters
 * alone goes on a character per 32-bit lane (u8k_four_run_pext). (The
 * name is historical: PEXT did the packing once.)
 * The other directions live in simd/shuffle_to_utf8.h (UTF-16 and UTF-32 ->
 * UTF-8) and simd/pext_latin1.h (Latin-1).
 *
 * Besides the layer of simd/validate.h and simd/transcode.h it needs
 *
 *   v_load_widen16(d, p, be)  VW 16-bit units to d, unit k = byte k at p
 *                        (big-endian in memory when be)
 *   v_load_widen32(d, p)  VW 32-bit units to d, unit k = byte k at p
 *   v_widen8(d, p, be, wide)  8 units to d, unit k = byte k at p: 16-bit
 *                        (big-endian in memory when be), 32-bit when wide
 *   v_widen_ascii(d, v, p, be, wide)  VW units to d, unit k = byte k of v,
 *                        which holds the VW bytes at p (the layer widens
 *                        from whichever is cheaper): 16-bit (big-endian
 *                        in memory when be), 32-bit when wide
 *   v_pin(v)             v, made opaque to the compiler (or v as it is:
 *                        see u8k_dec_init)
 *
 * and, on u8k_v read as VW / 2 lanes of 16 bits:
 *
 *   v_widen16(v, h)      byte k of half h of v (h = 0: bytes 0..VW/2-1,
 *                        h = 1: the others) zero-extended into lane k
 *   v_splat16(x)         every lane x
 *   v_shl16(v, n)        every lane shifted left by n (0 < n < 16)
 *   v_shr16(v, n)        every lane shifted right by n (0 < n < 16), zeros in
 *   v_add16(a, b)        lanewise a + b (modulo 2^16)
 *   v_gt16(a, b)         all ones in the lanes where a > b (signed)
 *   v_blend(a, b, m)     b where m is all ones, a where it is zero
 *   v_bswap16(v)         the two bytes of every lane swapped
 *   v_pack16(d, x, rows, m)  the lanes of x whose bit is set in m (bit k
 *                        for lane k), in order, to the 16-bit units at d;
 *                        each 128-bit part of x (8 lanes) by one byte
 *                        shuffle with rows[its 8 bits of m]; writes VW / 2
 *                        units (the ones past the count are garbage, to
 *                        be overwritten); returns how many count
 *   v_pack32(d, x, rows, m)  the same, each lane widened to a 32-bit unit
 *   v_pack32x2(d, x, y, rows, m)  the same, unit k = lane k of x | lane k
 *                        of y << 16
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

/* The bits of a block's byte masks (v_high) */
#define U8K_BLOCK_BITS (VW == 64 ? ~(uint64_t)0 : ((uint64_t)1 << VW) - 1)
#define U8K_HALF_BITS (((uint64_t)1 << VW / 2) - 1)

/* The constants of u8k_end_values (below), of the masks of a block
 * (U8K_PEXT_MASKS) and of the 4-byte path, made once for a loop: see
 * u8k_dec_init. */
typedef struct u8k_dec_k {
    u8k_v x3080, x2080, xbf, x80, s40, sef;
    /* for 4-byte characters */
    u8k_v xef, xd7c0, x3ff, xdc00, x7, x3;
} u8k_dec_k;

/* The constants, pinned (v_pin) when `pin`: short of vector registers,
 * gcc rebuilds an unpinned one inside the block loop from an immediate
 * each time (two or three instructions), where a pinned one stays in a
 * register or is read back from the stack (one load, often folded into
 * the instruction that uses it). */
U8K_INLINE u8k_v u8k_kpin(u8k_v v, bool pin) { return pin ? v_pin(v) : v; }

U8K_INLINE void u8k_dec_init(u8k_dec_k *k, bool pin)
{
    k->x3080 = u8k_kpin(v_splat16(0x3080), pin);
    k->x2080 = u8k_kpin(v_splat16(0x2080), pin);
    k->xbf = u8k_kpin(v_splat16(0xBF), pin);
    k->x80 = u8k_kpin(v_splat16(0x80), pin);
    k->s40 = u8k_kpin(v_splat(0x40), pin);
    k->sef = u8k_kpin(v_splat(0xEF), pin);
    k->xef = u8k_kpin(v_splat16(0xEF), pin);
    k->xd7c0 = u8k_kpin(v_splat16(0xD800 - 0x40), pin);
    k->x3ff = u8k_kpin(v_splat16(0x03FF), pin);
    k->xdc00 = u8k_kpin(v_splat16(0xDC00), pin);
    k->x7 = u8k_kpin(v_splat16(7), pin);
    k->x3 = u8k_kpin(v_splat16(3), pin);
}

/* The same for the validator's constants in *st (simd/validate.h). */
U8K_INLINE void u8k_vstate_pin(u8k_vstate *st)
{
    st->nib = v_pin(st->nib);
    st->e0 = v_pin(st->e0);
    st->f0 = v_pin(st->f0);
    st->hi = v_pin(st->hi);
    st->tailmax = v_pin(st->tailmax);
}

/* The value of the character that would end at each byte of half h of
 * the block w, in 16-bit lanes, given the bytes p1, p2, p3 one, two and
 * three places before each byte (big-endian when be). With a1, a2 the
 * bytes before and b the byte itself, x = a1 << 6 ^ b holds the low 6
 * bits of b and the bits of a1 above them, and what XOR takes away is
 * known:
 *   110xxxxx 10yyyyyy: x ^ 3080 (a1 << 6 had 3000 above xxxxx, b had 80)
 *   1110wwww 10xxxxxx 10yyyyyy: v3 = x ^ a2 << 12 ^ 2080 (a1 << 6 had
 *   2000, which a2 << 12 leaves in place, and the shift drops a2's top
 *   nibble)
 * a1 above BF is a lead (2 bytes), else a tail (3 bytes); b below 80 is
 * ASCII, itself. `kind` is the longest character the block may hold: 2
 * (p2 and p3 are not read), 3 (p3 is not read) or 4 (UTF-16 only): a
 * 4-byte character 11110uuu 10uuzzzz 10yyxxxx 10wwwwww, U = uuuuu - 1,
 * becomes two units, the high surrogate D800 | U << 6 | zzzz << 2 | yy
 * at its third byte (a2 is the lead: v3 >> 4 is uuu uuzzzz yy, plus
 * D800 - 40 for the - 1 in U) and the low one DC00 | xxxx << 6 | wwwwww
 * at its fourth (the low 10 bits of v3). Lanes that are no character's
 * end (nor a third byte of 4) get garbage. k: the constants. */
U8K_INLINE u8k_v u8k_end_values(const u8k_dec_k *k, u8k_v w, u8k_v p1, u8k_v p2, u8k_v p3, int h,
                                int kind, bool be)
{
    u8k_v b = v_widen16(w, h), a1 = v_widen16(p1, h);
    u8k_v x = v_xor(v_shl16(a1, 6), b);
    u8k_v v = v_xor(x, k->x3080);
    if (kind >= 3) {
        u8k_v a2 = v_widen16(p2, h);
        u8k_v v3 = v_xor(x, v_xor(v_shl16(a2, 12), k->x2080));
        v = v_blend(v3, v, v_gt16(a1, k->xbf));
        if (kind == 4) {
            v = v_blend(v, v_add16(v_shr16(v3, 4), k->xd7c0), v_gt16(a2, k->xef));
            v = v_blend(v, v_or(v_and(v3, k->x3ff), k->xdc00), v_gt16(v_widen16(p3, h), k->xef));
        }
    }
    v = v_blend(v, b, v_gt16(k->x80, b));
    return be ? v_bswap16(v) : v;
}

/* The VW bytes at p (ASCII) as VW units at unit o of the output: dst32
 * when wide, else dst (big-endian under be). */
U8K_INLINE void u8k_widen_units(uint16_t *dst, uint32_t *dst32, size_t o, const unsigned char *p,
                                bool wide, bool be)
{
    if (wide)
        v_load_widen32(dst32 + o, p);
    else
        v_load_widen16(dst + o, p, be);
}

/* Stores the units of the characters that end in block w (bit k of e:
 * one ends at byte k, or a high surrogate) after the block prev, in
 * order, at dst or dst32 (wide); writes at most VW units; returns how
 * many count. */
U8K_INLINE size_t u8k_block_units(const u8k_dec_k *k, u8k_v w, u8k_v prev, uint64_t e, int kind,
                                  bool be, bool wide, uint16_t *dst, uint32_t *dst32)
{
    u8k_v p1 = v_prev1(w, prev), p2 = kind >= 3 ? v_prev2(w, prev) : p1;
    u8k_v p3 = kind == 4 ? v_prev3(w, prev) : p1;
    size_t n = 0;
    for (int h = 0; h < 2; h++) {
        u8k_v v = u8k_end_values(k, w, p1, p2, p3, h, kind, be);
        unsigned m = (unsigned)(e >> (h * VW / 2) & U8K_HALF_BITS);
        n += wide ? v_pack32(dst32 + n, v, u8k_pack_rows, m) : v_pack16(dst + n, v, u8k_pack_rows, m);
    }
    return n;
}

/* Where the block loop of u8k_utf8_to_units_pext stands: the next block
 * at b, o units stored, done the end of the last whole character stored
 * and od the units before it; the block before b (prev) and its bytes
 * C0..DF, E0..FF, F0..FF (bit k: byte k). */
typedef struct {
    size_t b, o, done, od;
    u8k_v prev;
    uint64_t pm2, pe0, pf0;
    size_t rep; /* errors replaced (U8K_REPL) */
} u8k_pext_at;

/* Where a loop stands, to *at (rep and pf0 left as they are). */
U8K_INLINE void u8k_pext_at_put(u8k_pext_at *at, size_t b, size_t o, size_t done, size_t od,
                                u8k_v prev, uint64_t pm2, uint64_t pe0)
{
    at->b = b;
    at->o = o;
    at->done = done;
    at->od = od;
    at->prev = prev;
    at->pm2 = pm2;
    at->pe0 = pe0;
}

/* The masks of block w after the block of *at: bytes 80..FF (high),
 * tails 80..BF, leads C0..DF (m2), E0..FF (e0); and the character ends
 * of 1 and 2 bytes: ASCII, a tail one after a 2-byte lead (the callers
 * add those of 3 and 4: a tail two after E0..FF, three after F0..FF).
 * (v - 40 has its high bit set exactly for C0..FF, v - 60 for E0..FF.) */
#define U8K_PEXT_MASKS(w, pm2, pe0, st, k)                                                \
    do {                                                                                  \
        high = v_high(w);                                                                 \
        lead = v_high(v_subs(w, (k).s40));                                                \
        e0 = v_high(v_subs(w, (st).e0));                                                  \
        tail = high & ~lead;                                                              \
        m2 = lead & ~e0;                                                                  \
        e = ~high | (tail & (m2 << 1 | (pm2) >> (VW - 1)));                               \
    } while (0)

/* A run of 3-byte characters (CJK text), from a character start at s,
 * VW / 4 characters a step: 4 in each 128-bit part of the vector, from
 * 12 bytes each (v_load_three, which the kernel file gives, with
 * v_store_units16, when it defines U8K_THREE_RUNS 1). A step goes on
 * while its bytes are forms 1110xxxx 10xxxxxx 10xxxxxx (one mask, one
 * compare) whose values are neither below U+0800 (overlong) nor
 * U+D800..DFFF. One byte shuffle puts each character in a 32-bit lane as
 * tail2, tail1, lead, 0, and the value is then tail2 & 3F | (lane >> 2) &
 * FC0 | (lane >> 4) & F000. This takes 3 bytes a unit where the block
 * loop works on every byte, 2 of them no character's end. Returns the
 * bytes taken (their units, a third as many, are at d, which has room
 * for `room` units). */
#define U8K_THREE_STEP (3 * VW / 4)
/* AVX2 and SSE4.2 take the runs; NEON, not measured, does not. With
 * 16-byte blocks (SSE4.2) the block loop hands the run to its caller, as
 * it does the 4-byte path, and only when the 32 bytes after the block
 * have no ASCII either: called from the loop (and at every block without
 * ASCII), the runs made Chinese 2.2x faster but Hindi, Thai and
 * Wikipedia's Chinese 10-20% slower (a 16-byte block without ASCII is
 * often a single word, and the 16 registers of SSE4.2 then no longer
 * hold the loop). Handed over, Lipsum Chinese converts 2.2x as fast,
 * Japanese 1.6x, Wikipedia's Chinese and Japanese 1.2x, Lipsum Hindi
 * 0.86x (SSE4.2, Intel Xeon, session 34; its 16-byte blocks without
 * ASCII now pay the look ahead). */
#ifndef U8K_THREE_RUNS
#define U8K_THREE_RUNS 0
#endif
#if U8K_THREE_RUNS
static const unsigned char u8k_three_form[16] = {0xF0, 0xC0, 0xC0, 0xF0, 0xC0, 0xC0, 0xF0, 0xC0,
                                                 0xC0, 0xF0, 0xC0, 0xC0, 0, 0, 0, 0};
static const unsigned char u8k_three_want[16] = {0xE0, 0x80, 0x80, 0xE0, 0x80, 0x80, 0xE0, 0x80,
                                                 0x80, 0xE0, 0x80, 0x80, 0, 0, 0, 0};
static const unsigned char u8k_three_slots[16] = {2, 1, 0, 0x80, 5, 4, 3, 0x80,
                                                  8, 7, 6, 0x80, 11, 10, 9, 0x80};

static U8K_NOINLINE size_t u8k_three_run(const unsigned char *s, size_t len, void *d, size_t room,
                                         bool be, bool wide)
{
    u8k_v form = v_table(u8k_three_form), want = v_table(u8k_three_want);
    u8k_v slots = v_table(u8k_three_slots);
    /* pinned (v_pin): gcc 12 makes a signed compare with a constant it
     * sees, such as v > D7FF, into min(v, D800) == D800, one instruction
     * more */
    const u8k_v x800 = v_pin(v_splat32(0x800)), xd7ff = v_pin(v_splat32(0xD7FF));
    const u8k_v xe000 = v_pin(v_splat32(0xE000));
    size_t i = 0, o = 0;
    for (; len - i >= U8K_THREE_STEP + 4 && room - o >= VW / 4; i += U8K_THREE_STEP, o += VW / 4) {
        u8k_v x = v_load_three(s + i), y = v_lookup(x, slots), v, bad;
        v = v_or(v_and(y, v_splat32(0x3F)), v_or(v_and(v_shr32(y, 2), v_splat32(0xFC0)),
                                                  v_and(v_shr32(y, 4), v_splat32(0xF000))));
        bad = v_or(v_gt32(x800, v), v_and(v_gt32(v, xd7ff), v_gt32(xe000, v)));
        if (v_any(v_or(v_xor(v_and(x, form), want), bad)))
            break;
        if (wide)
            v_store((unsigned char *)((uint32_t *)d + o), v);
        else
            v_store_units16((uint16_t *)d + o, v, be);
    }
    return i;
}
#endif

/* A run of 4-byte characters (emoji), from a character start at s, VW / 4
 * characters a step, one in each 32-bit lane: a step goes on while every
 * lane is a form 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx (one mask, one
 * compare) whose value is U+10000..U+10FFFF (no overlong, nothing above).
 * One byte shuffle turns each lane around (the lead on top), and the value
 * is then the four 6- and 3-bit fields shifted together. For UTF-16 each
 * lane becomes its surrogate pair: D7C0 + (v >> 10) (D800 + (v - 10000) >>
 * 10) in the low half, DC00 | (v & 3FF) in the high one. Returns the bytes
 * taken (their units, a quarter as many for UTF-32, half for UTF-16, are
 * at d, which has room for `room` units). The block loop of
 * u8k_pext_four works on every byte, three of four of them no
 * character's end in such text. */
static const unsigned char u8k_four_turn[16] = {3,  2,  1,  0,  7,  6,  5,  4,
                                                11, 10, 9,  8,  15, 14, 13, 12};

static U8K_NOINLINE size_t u8k_four_run_pext(const unsigned char *s, size_t len, void *d,
                                             size_t room, bool be, bool wide)
{
    const size_t step = wide ? VW / 4 : VW / 2; /* units a step */
    u8k_v turn = v_table(u8k_four_turn);
    /* pinned, as in u8k_three_run */
    const u8k_v x10000 = v_pin(v_splat32(0x10000)), x10ffff = v_pin(v_splat32(0x10FFFF));
    size_t i = 0, o = 0;
    for (; len - i >= VW && room - o >= step; i += VW, o += step) {
        u8k_v x = v_load(s + i), y = v_lookup(x, turn), v, bad;
        v = v_or(v_or(v_and(y, v_splat32(0x3F)), v_and(v_shr32(y, 2), v_splat32(0xFC0))),
                 v_or(v_and(v_shr32(y, 4), v_splat32(0x3F000)),
                      v_and(v_shr32(y, 6), v_splat32(0x1C0000))));
        bad = v_or(v_xor(v_and(x, v_splat32(0xC0C0C0F8)), v_splat32(0x808080F0)),
                   v_or(v_gt32(x10000, v), v_gt32(v, x10ffff)));
        if (v_any(bad))
            break;
        if (wide) {
            v_store((unsigned char *)((uint32_t *)d + o), v);
        } else {
            /* v >> 10 is below 0x440: the 16-bit add does not carry */
            u8k_v pair = v_or(v_add16(v_shr32(v, 10), v_splat32(0xD7C0)),
                              v_shl32(v_or(v_and(v, v_splat32(0x3FF)), v_splat32(0xDC00)), 16));
            if (be)
                pair = v_bswap16(pair);
            v_store((unsigned char *)((uint16_t *)d + o), pair);
        }
    }
    return i;
}

/* UTF-8 -> UTF-16 or UTF-32 (wide) blocks that hold a byte F0..FF or
 * follow one that ends less than 3 bytes before them, from at->b, until
 * the first that does neither (a loop of its own: the main loop keeps its
 * registers for the 1- to 3-byte text). For UTF-16 a 4-byte character
 * gives two units: its high surrogate at its third byte (an end of its
 * own in e, also in hs) and its low one at its fourth. For UTF-32 its
 * fourth byte gets the low 16 bits of the value in one lane (v3, as for 3
 * bytes: the lead's part, and the 2 top bits of the second byte, fall out
 * of it) and the top 5 (uuu uu: the lead's 3 low bits, the second byte's
 * bits 4-5) in a second, packed together. Returns false when the rest
 * goes to the scalar kernel from at->done (an error seen, or no end in a
 * block). */
static U8K_NOINLINE bool u8k_pext_four(const unsigned char *src, size_t len, void *out, size_t cap,
                                       bool be, bool trusted, bool wide, u8k_pext_at *at)
{
    /* the state in locals: the vector stores may alias *at */
    size_t b = at->b, o = at->o, done = at->done, od = at->od;
    u8k_v prev = at->prev;
    uint64_t pm2 = at->pm2, pe0 = at->pe0, pf0 = at->pf0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    bool more = true;
    u8k_vstate st;
    u8k_dec_k k;
    u8k_vinit(&st);
    u8k_vstate_pin(&st);
    u8k_dec_init(&k, true);
    while (b + VW <= len && o + VW <= cap) {
        u8k_v w = v_load(src + b);
        uint64_t high, lead, tail, m2, e0, f0, e, hs;
        if (!v_any(v_subs(w, k.sef)) && pf0 >> (VW - 3) == 0)
            break;
        if (!trusted && v_any(u8k_vcheck2(&st, w, prev))) {
            more = false;
            break;
        }
        U8K_PEXT_MASKS(w, pm2, pe0, st, k);
        f0 = v_high(v_subs(w, st.f0));
        /* the third bytes of 4: ends in UTF-16 only */
        hs = tail & (f0 << 2 | pf0 >> (VW - 2));
        e = U8K_BLOCK_BITS & (e | (tail & (e0 << 2 | pe0 >> (VW - 2) | f0 << 3 | pf0 >> (VW - 3))));
        if (wide) {
            e &= ~hs;
            hs = 0;
        }
        if ((e & ~hs) == 0) {
            more = false; /* only invalid input (under U8K_TRUSTED) */
            break;
        }
        if (wide) {
            u8k_v p1 = v_prev1(w, prev), p2 = v_prev2(w, prev), p3 = v_prev3(w, prev);
            for (int h = 0; h < 2; h++) {
                u8k_v lo = u8k_end_values(&k, w, p1, p2, p3, h, 3, false);
                u8k_v a2 = v_widen16(p2, h), a3 = v_widen16(p3, h);
                u8k_v hi = v_and(v_gt16(a3, k.xef), v_or(v_shl16(v_and(a3, k.x7), 2),
                                                          v_and(v_shr16(a2, 4), k.x3)));
                unsigned m = (unsigned)(e >> (h * VW / 2) & U8K_HALF_BITS);
                o += v_pack32x2(dst32 + o, lo, hi, u8k_pack_rows, m);
            }
        } else {
            o += u8k_block_units(&k, w, prev, e, 4, be, false, dst + o, NULL);
        }
        /* the last whole character: a high surrogate stored last waits
         * for its low half in the next block */
        done = b + 64 - (size_t)__builtin_clzll(e & ~hs);
        od = o - (size_t)(hs >> (63 - __builtin_clzll(e)) & 1);
        prev = w;
        pm2 = m2;
        pe0 = e0;
        pf0 = f0;
        b += VW;
        if (high == U8K_BLOCK_BITS && f0 != 0 && (lead & ~f0) == 0) {
            /* no ASCII, 4-byte characters only: the text after the last
             * whole one goes to u8k_four_run_pext while it is such
             * characters (it rewrites a high surrogate left waiting at
             * od), then the blocks go on from where that stopped (a
             * character start, after nothing pending) */
            size_t t = u8k_four_run_pext(src + done, len - done,
                                         wide ? (void *)(dst32 + od) : (void *)(dst + od),
                                         cap - od, be, wide);
            if (t != 0) {
                b = done += t;
                o = od += wide ? t / 4 : t / 2;
                prev = v_splat(0);
                pm2 = pe0 = pf0 = 0;
            }
        }
    }
    u8k_pext_at_put(at, b, o, done, od, prev, pm2, pe0);
    at->pf0 = pf0;
    return more;
}

/* UTF-8 -> UTF-16, or UTF-32 when wide (BE applies to UTF-16 only), in
 * VW-byte blocks at a fixed stride from the start (as in simd/compress.h),
 * so that where the next block starts never waits on this one's data.
 * Each block is validated by the checks of simd/validate.h in the same
 * pass; a block where they see an error sends the rest, from the end of
 * the last character stored, to the scalar kernel, whose result is then
 * the answer. done is that end, od the units before it. At a block with
 * F0..FF, or at an error under U8K_REPL, it stops and sets *next, with
 * *at where it stands, for u8k_pext_four or u8k_units_replace (through
 * the caller). Under U8K_TRUSTED the blocks are not checked: a block
 * stores at most one unit per byte whatever it holds, so invalid input
 * still stays within utf8kit_max_output_size. */
U8K_INLINE utf8kit_result u8k_utf8_to_units_pext(const unsigned char *src, size_t len, void *out,
                                                 size_t cap, unsigned flags, bool wide,
                                                 u8k_pext_at *at, int *next)
{
    bool be = !wide && (flags & U8K_BE) != 0, trusted = (flags & U8K_TRUSTED) != 0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    size_t b = at->b, o = at->o, done = at->done, od = at->od;
    /* the block before b and its bytes C0..DF and E0..FF (bit k: byte k);
     * no byte F0..FF in its last 3 */
    u8k_v prev = at->prev;
    uint64_t pm2 = at->pm2, pe0 = at->pe0;
    u8k_vstate st;
    u8k_dec_k k;
    utf8kit_result r;
    u8k_vinit(&st);
    u8k_vstate_pin(&st);
    u8k_dec_init(&k, true);
    /* a block writes at most VW units from o (v_pack16/32 included) */
    while (b + VW <= len && o + VW <= cap) {
        u8k_v w = v_load(src + b);
        uint64_t high = v_high(w), lead, tail, m2, e0, e;
        if (high == 0) {
            /* All ASCII: valid unless prev ends inside a character.
             * So are the ASCII blocks after it (a loop of their own:
             * no check, nothing carried). */
            if (!trusted && v_any(v_subs(prev, st.tailmax)))
                goto bad;
            for (;;) {
                u8k_widen_units(dst, dst32, o, src + b, wide, be);
                o += VW;
                b += VW;
                prev = w;
                if (b + VW > len || o + VW > cap)
                    break;
                w = v_load(src + b);
                if (v_high(w) != 0)
                    break;
            }
            done = b;
            od = o;
            pm2 = pe0 = 0;
            continue;
        }
        if ((high & U8K_HALF_BITS) == 0) {
            /* At least VW / 2 ASCII bytes first: widen all VW, keep
             * the ASCII ones, and start the next block at the first
             * byte that is not (a character start), after a block of
             * zeros (as ASCII as the bytes before it). */
            size_t a = (size_t)__builtin_ctzll(high);
            if (!trusted && v_any(v_subs(prev, st.tailmax)))
                goto bad;
            u8k_widen_units(dst, dst32, o, src + b, wide, be);
            o += a;
            b += a;
            done = b;
            od = o;
            prev = v_splat(0);
            pm2 = pe0 = 0;
            continue;
        }
        /* F0..FF (v - EF is non-zero exactly there) */
        if (v_any(v_subs(w, k.sef))) {
            /* over to u8k_pext_four, through the caller (a call
             * here would cost this loop its vector registers) */
            *next = U8K_NEXT_FOUR;
            goto hand;
        }
        U8K_PEXT_MASKS(w, pm2, pe0, st, k);
        if ((e0 | pe0 >> (VW - 2)) == 0) {
            /* no E0..EF in this block or the 2 bytes before it: 1-
             * and 2-byte characters only (and no byte wants the
             * byte 2 back, nor, with no F0..FF, 3 back) */
            if (!trusted && v_any(u8k_vcheck2_two(&st, w, prev)))
                goto bad;
            e &= U8K_BLOCK_BITS;
            if (e == 0)
                goto bad; /* only invalid input (under U8K_TRUSTED) */
            o += u8k_block_units(&k, w, prev, e, 2, be, wide, dst + o, dst32 + o);
        } else {
            /* no byte wants the byte 3 back (no F0..FF) */
            if (!trusted && v_any(u8k_vcheck2_three(&st, w, prev)))
                goto bad;
            e = U8K_BLOCK_BITS & (e | (tail & (e0 << 2 | pe0 >> (VW - 2))));
            if (e == 0)
                goto bad;
            o += u8k_block_units(&k, w, prev, e, 3, be, wide, dst + o, dst32 + o);
        }
        done = b + 64 - (size_t)__builtin_clzll(e);
        od = o;
        prev = w;
        pm2 = m2;
        pe0 = e0;
        b += VW;
#if U8K_THREE_RUNS
        /* A block with no ASCII byte and 3-byte characters: the text
         * after it goes to u8k_three_run while it is such characters,
         * then the blocks go on from where that stopped (a character
         * start, after nothing pending). With 16-byte blocks only when
         * the next two have no ASCII either, and through the caller. */
        if (high == U8K_BLOCK_BITS && e0 != 0 &&
            (VW >= 32 || (b + 2 * VW <= len &&
                          (v_high(v_load(src + b)) & v_high(v_load(src + b + VW))) ==
                              U8K_BLOCK_BITS))) {
            if (VW >= 32) {
                size_t t = u8k_three_run(src + done, len - done,
                                         wide ? (void *)(dst32 + o) : (void *)(dst + o), cap - o,
                                         be, wide);
                if (t != 0) {
                    b = done += t;
                    od = o += t / 3;
                    prev = v_splat(0);
                    pm2 = pe0 = 0;
                }
            } else {
                *next = U8K_NEXT_THREE;
                goto hand;
            }
        }
#endif
    }
rest:
    r = wide ? u8k_scalar_utf8_to_utf32(src + done, len - done, dst32 + od, cap - od, flags)
             : u8k_scalar_utf8_to_utf16(src + done, len - done, dst + od, cap - od, flags);
    return u8k_shift(r, done, od);
hand:
    u8k_pext_at_put(at, b, o, done, od, prev, pm2, pe0);
    return u8k_res(UTF8KIT_OK, 0, 0, 0);
bad:
    if (!(flags & U8K_REPL))
        goto rest;
    /* the blocks go on from after the error: done and od are all the
     * caller needs */
    at->done = done;
    at->od = od;
    *next = U8K_NEXT_REPL;
    return u8k_res(UTF8KIT_OK, 0, 0, 0);
}

/* High nibbles 8..B (tails) and C..F (leads C0..FF), and 8..F. */
static const unsigned char u8k_nib_tail[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
static const unsigned char u8k_nib_lead[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
static const unsigned char u8k_nib_high[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/* The lone bytes of block w as a byte mask: leads C0..FF that no tail
 * follows (after: the bytes one after w's), tails after a byte below 80
 * (prev: the block before w). The tables are those above, by high
 * nibble (v_table), made once by the caller. */
U8K_INLINE u8k_v u8k_lone_v(u8k_v w, u8k_v after, u8k_v prev, u8k_v tlead, u8k_v ttail,
                            u8k_v thigh)
{
    return v_or(v_andnot(v_lookup(tlead, v_shr4(w)), v_lookup(ttail, v_shr4(after))),
                v_andnot(v_lookup(ttail, v_shr4(w)), v_lookup(thigh, v_shr4(v_prev1(w, prev)))));
}

/* Under U8K_REPL, where the block loop (or u8k_pext_four) found an
 * error: blocks whose only errors are lone bytes, as in simd/compress.h
 * (u8k_units_lone): a lead C0..FF with no tail after it, or a tail right
 * after an ASCII byte, is one maximal invalid subpart of its own. The
 * blocks start at *donep, a character start after valid text (*odp
 * units stored) with nothing pending. Each is checked and decoded with
 * its lone bytes as spaces (byte masks from lookups by high nibble, of
 * the block, of the bytes one after and one before), then U+FFFD is
 * stored over their units; a block that is then all ASCII, with nothing
 * pending before it, is widened from memory instead (1.24-1.4x as fast
 * on Latin-1 read as UTF-8 with AVX2). Blocks of ASCII are widened, up to
 * U8K_LONE_QUIET in a row (in text such as Latin-1 read as UTF-8 they
 * come between blocks with lone bytes: going back to the block loop for
 * each cost 10-15%). Blocks with F0..FF that are not lone bytes are left
 * to the block loop, as is any other block with no lone bytes.
 * Returns true when it took at least one block, with *donep, *odp after
 * the last whole character stored and *repp counting the U+FFFD; false
 * when it took none. */
U8K_INLINE bool u8k_pext_lone(const unsigned char *src, size_t len, size_t *donep, size_t *odp,
                              void *out, size_t cap, unsigned flags, bool wide, size_t *repp)
{
    bool be = !wide && (flags & U8K_BE) != 0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    /* the state in locals (the stores may alias what the pointers
     * reach); prev: nothing pending before *donep */
    size_t b = *donep, o = *odp, done = b, rep = *repp;
    unsigned quiet = 0;
    u8k_v prev = v_splat(0);
    uint64_t pm2 = 0, pe0 = 0;
    u8k_v ttail = v_table(u8k_nib_tail), tlead = v_table(u8k_nib_lead);
    u8k_v thigh = v_table(u8k_nib_high), space = v_splat(0x20);
    u8k_vstate st;
    u8k_dec_k k;
    u8k_vinit(&st);
    u8k_dec_init(&k, true);
    /* the byte after the block is read: a block here never ends the input */
    while (b + VW < len && o + VW <= cap) {
        u8k_v w = v_load(src + b);
        u8k_v lone_v = u8k_lone_v(w, v_load(src + b + 1), prev, tlead, ttail, thigh);
        uint64_t lone = v_high(lone_v), high, lead, tail, m2, e0, e, u;
        if (lone == 0) {
            /* up to U8K_LONE_QUIET blocks of ASCII in a row here (so many
             * a stretch between lone bytes), the rest to the block loop */
            if (v_high(w) != 0 || ++quiet > U8K_LONE_QUIET || v_any(v_subs(prev, st.tailmax)))
                break;
            u8k_widen_units(dst, dst32, o, src + b, wide, be);
            o += VW;
            b += VW;
            done = b;
            prev = w;
            pm2 = pe0 = 0;
            continue;
        }
        quiet = 0;
        w = v_blend(w, space, lone_v);
        if (v_high(w) == 0 && (pm2 >> (VW - 1) | pe0 >> (VW - 2)) == 0) {
            /* ASCII but for the lone bytes, and no character reaching
             * in from before: the bytes widened, then U+FFFD over the
             * lone bytes' units, which are at their own places. (Its end
             * is the one of the ASCII step above: one step for both, as
             * in simd/compress.h, took AVX2 0.78-0.97x on Latin-1 read as
             * UTF-8.) */
            u8k_widen_units(dst, dst32, o, src + b, wide, be);
            for (; lone != 0; lone &= lone - 1) {
                u8k_put_fffd(dst, o + (size_t)__builtin_ctzll(lone), wide, be);
                rep++;
            }
            o += VW;
            b += VW;
            done = b;
            prev = w;
            pm2 = pe0 = 0;
            continue;
        }
        if (v_any(v_subs(w, k.sef)))
            break; /* F0..FF: the block loop's */
        U8K_PEXT_MASKS(w, pm2, pe0, st, k);
        (void)high;
        (void)lead;
        /* the checks and ends of the block loop (each path with its
         * own call: with `kind` a variable, 6% slower to UTF-16) */
        if ((e0 | pe0 >> (VW - 2)) == 0) {
            if (v_any(u8k_vcheck2_two(&st, w, prev)))
                break;
            e &= U8K_BLOCK_BITS;
            u = u8k_block_units(&k, w, prev, e, 2, be, wide, dst + o, dst32 + o);
        } else {
            if (v_any(u8k_vcheck2_three(&st, w, prev)))
                break;
            e = U8K_BLOCK_BITS & (e | (tail & (e0 << 2 | pe0 >> (VW - 2))));
            u = u8k_block_units(&k, w, prev, e, 3, be, wide, dst + o, dst32 + o);
        }
        if (e == 0)
            break; /* (never after a check: the lone bytes end characters;
                    * what was stored past o is overwritten later) */
        /* each lone byte's unit: the ends before it are the units before it */
        for (; lone != 0; lone &= lone - 1) {
            u8k_put_fffd(dst, o + (size_t)__builtin_popcountll(e & ((lone & -lone) - 1)), wide,
                         be);
            rep++;
        }
        o += u;
        done = b + 64 - (size_t)__builtin_clzll(e);
        prev = w;
        pm2 = m2;
        pe0 = e0;
        b += VW;
    }
    if (b == *donep)
        return false;
    *donep = done;
    *odp = o;
    *repp = rep;
    return true;
}

/* (after an error of the block loop or of u8k_pext_four) */
U8K_REPAIR_STEP(u8k_pext_repair, u8k_pext_lone)

/* A kernel file defines U8K_PEXT_REPL 1 to take U8K_REPL (internal.h)
 * in the block loop: AVX2 does (text with an error every 56-923 bytes
 * +13..+100% under REPLACE). SSE4.2 does not: there the loop built for it
 * converted valid 3-byte text under REPLACE 7-10% slower (Zen 5); NEON,
 * not measured, does not either. Those two take it around the block
 * loop instead (u8k_pext_repl_units). */
#ifndef U8K_PEXT_REPL
#define U8K_PEXT_REPL 0
#endif

/* The block loop is a function of its own, entered at the first block
 * that is not all ASCII: a short input, or a run of ASCII blocks ahead
 * of the rest, does not pay its set-up (stack frame, constants). Before
 * it, u8k_ascii_head widens the ASCII blocks at the start and returns how
 * many bytes (= units) they hold; what follows them starts a character.
 * The block loop alternates with u8k_pext_four, with u8k_three_run
 * (16-byte blocks), and with u8k_units_replace at each error under
 * U8K_REPL, after which the blocks go on from a character start with
 * nothing pending. */
U8K_INLINE utf8kit_result u8k_long_units_pext(const unsigned char *src, size_t len, void *out,
                                              size_t cap, unsigned flags, bool wide)
{
    u8k_pext_at at = {0, 0, 0, 0, v_splat(0), 0, 0, 0, 0};
    for (;;) {
        int next = U8K_NEXT_NONE;
        utf8kit_result r = u8k_utf8_to_units_pext(src, len, out, cap, flags, wide, &at, &next);
        if (next == U8K_NEXT_NONE) {
            r.replaced += at.rep;
            return r;
        }
#if U8K_THREE_RUNS
        if (next == U8K_NEXT_THREE) {
            const size_t us = wide ? 4 : 2;
            size_t t = u8k_three_run(src + at.done, len - at.done,
                                     (unsigned char *)out + at.od * us, cap - at.od,
                                     !wide && (flags & U8K_BE) != 0, wide);
            if (t != 0) {
                at.b = at.done += t;
                at.o = at.od += t / 3;
                at.prev = v_splat(0);
                at.pm2 = at.pe0 = 0;
            }
            continue;
        }
#endif
        if (next == U8K_NEXT_FOUR) {
            at.pf0 = 0;
            if (u8k_pext_four(src, len, out, cap, !wide && (flags & U8K_BE) != 0,
                              (flags & U8K_TRUSTED) != 0, wide, &at))
                continue;
            if (!(flags & U8K_REPL))
                break;
        }
        if (!U8K_PEXT_REPL ||
            !u8k_pext_repair(src, len, &at.done, &at.od, out, cap, flags, wide, &at.rep))
            break;
        at.b = at.done;
        at.o = at.od;
        at.prev = v_splat(0);
        at.pm2 = at.pe0 = at.pf0 = 0;
    }
    {
        utf8kit_result r =
            wide ? u8k_scalar_utf8_to_utf32(src + at.done, len - at.done, (uint32_t *)out + at.od,
                                            cap - at.od, flags)
                 : u8k_scalar_utf8_to_utf16(src + at.done, len - at.done, (uint16_t *)out + at.od,
                                            cap - at.od, flags);
        r.replaced += at.rep;
        return u8k_shift(r, at.done, at.od);
    }
}

/* Each three times: for the usual call (little-endian, checked: flags 0,
 * so that the loop tests neither), for the same under REPLACE (U8K_REPL
 * alone: with the flag a run-time value there, valid text converted up to
 * 19% slower on SSE4.2, 12% on AVX2), and for any flags. */
static U8K_NOINLINE utf8kit_result u8k_long_utf16_pext(const unsigned char *src, size_t len,
                                                       uint16_t *dst, size_t cap)
{
    return u8k_long_units_pext(src, len, dst, cap, 0, false);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf16_pext_repl(const unsigned char *src, size_t len,
                                                            uint16_t *dst, size_t cap)
{
    return u8k_long_units_pext(src, len, dst, cap, U8K_REPL, false);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf16_pext_flags(const unsigned char *src, size_t len,
                                                             uint16_t *dst, size_t cap,
                                                             unsigned flags)
{
    return u8k_long_units_pext(src, len, dst, cap, flags, false);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf32_pext(const unsigned char *src, size_t len,
                                                       uint32_t *dst, size_t cap)
{
    return u8k_long_units_pext(src, len, dst, cap, 0, true);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf32_pext_repl(const unsigned char *src, size_t len,
                                                            uint32_t *dst, size_t cap)
{
    return u8k_long_units_pext(src, len, dst, cap, U8K_REPL, true);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf32_pext_flags(const unsigned char *src, size_t len,
                                                             uint32_t *dst, size_t cap,
                                                             unsigned flags)
{
    return u8k_long_units_pext(src, len, dst, cap, flags, true);
}

/* The ASCII blocks at the start, loaded once each and widened out of the
 * register (v_widen_ascii), two a round while there are two: pure ASCII
 * text converts 9-23% faster so on AVX2 and SSE than with a block at a
 * time widened from memory (Zen 5, both ways in one process). */
U8K_INLINE size_t u8k_ascii_head(const unsigned char *src, size_t len, void *out, size_t cap,
                                 bool be, bool wide)
{
    size_t a = 0, us = wide ? 4 : 2;
    /* two blocks a round while both are ASCII (one test, one branch) */
    for (; a + 2 * VW <= len && a + 2 * VW <= cap; a += 2 * VW) {
        u8k_v x = v_load(src + a), y = v_load(src + a + VW);
        if (v_high(v_or(x, y)) != 0)
            break;
        v_widen_ascii((unsigned char *)out + a * us, x, src + a, be, wide);
        v_widen_ascii((unsigned char *)out + (a + VW) * us, y, src + a + VW, be, wide);
    }
    for (; a + VW <= len && a + VW <= cap; a += VW) {
        u8k_v x = v_load(src + a);
        if (v_high(x) != 0)
            break;
        v_widen_ascii((unsigned char *)out + a * us, x, src + a, be, wide);
    }
    return a;
}

/* u8k_ascii_head for a long input (len and cap at least 256) that starts
 * with a block of ASCII: after the first block, the blocks start where
 * their units start on a 64-byte boundary of the output (or of VW units,
 * when that is less), the second one 1 to VW bytes after src (it redoes
 * the units of the bytes before it). A store that straddles two cache
 * lines costs more than a load that does: on an Intel Xeon ASCII text
 * converted 1.25-1.32x as fast to UTF-16 on AVX2 with the stores
 * aligned so, 1.04-1.06x to UTF-32, and on SSE4.2 1.21-1.34x with an
 * output 8 bytes off a 16-byte boundary (session 21). Out of line, so
 * that the entry (and a short input) keeps its code. */
static U8K_NOINLINE size_t u8k_ascii_head_long(const unsigned char *src, size_t len, void *out,
                                               size_t cap, bool be, bool wide)
{
    const size_t us = wide ? 4 : 2, al = VW * us < 64 ? VW * us : 64; /* bytes */
    size_t a;
    u8k_v x = v_load(src);
    if (v_high(x) != 0)
        return 0;
    v_widen_ascii(out, x, src, be, wide);
    if ((uintptr_t)out % us != 0)
        a = VW;
    else /* al / us units fill al bytes */
        a = VW - (al / us - (-(uintptr_t)out & (al - 1)) / us) % (al / us);
    return a + u8k_ascii_head(src + a, len - a, (unsigned char *)out + a * us, cap - a, be, wide);
}

/* The ASCII blocks at the start, by the head for the length. */
U8K_INLINE size_t u8k_ascii_start(const unsigned char *src, size_t len, void *out, size_t cap,
                                  bool be, bool wide)
{
    return len >= 256 && cap >= 256 ? u8k_ascii_head_long(src, len, out, cap, be, wide)
                                    : u8k_ascii_head(src, len, out, cap, be, wide);
}

/* A short ASCII input (U8K_SHORT_ASCII of simd/validate.h), when its
 * units fit: eight groups of 8 units at u8k_short_at(k, len), as the test
 * reads them (the last ones overlap, and write the same units again). No
 * branch on the length; the block paths would take several. */
U8K_INLINE bool u8k_short_ascii_units(const unsigned char *src, size_t len, void *out, size_t cap,
                                      bool be, bool wide)
{
    size_t us = wide ? 4 : 2;
    unsigned k;
    if (!U8K_SHORT_ASCII(src, len) || cap < len)
        return false;
    for (k = 0; k < 8; k++) {
        size_t off = u8k_short_at(k, len);
        v_widen8((unsigned char *)out + off * us, src + off, be, wide);
    }
    return true;
}

/* The last n (1..VW - 1) bytes of an input, at src, a character start
 * (a short input, or what follows its ASCII blocks), as one block
 * zero-padded by v_load_part: a character cut by the end is then followed
 * by a zero, which the check sees. Converted by the block path when the
 * block is valid, has no byte F0..FF and its units fit in cap: with VW
 * units of room they are stored in place (the block stores write VW),
 * else to a block of units on the stack first, then exactly theirs to
 * out (through the stack always, strings of Chinese took 13% longer on
 * AVX2, of Cyrillic 8%: the copy reads back the block stores); returns
 * how many, or SIZE_MAX with nothing written (the scalar kernel then
 * takes the bytes and gives the report).
 * Such inputs of 2- and 3-byte characters went to the scalar kernel
 * before: strings of 8 to 64 bytes of Cyrillic text convert 24% faster
 * so on AVX2, of Chinese 8% (the strings shorter than a block after
 * their ASCII blocks; Zen 5, both builds in one process). Out of line:
 * inlined, it cost the short ASCII path of the entry 8% (SSE4.2,
 * UTF-32). The end of the block loop does not use it: there it doubled
 * the gain on short strings but cost the loop 6-12% on Hindi and English
 * text (gcc allocated the loop's registers otherwise). */
static U8K_NOINLINE size_t u8k_part_units(const unsigned char *src, size_t n, void *out,
                                          size_t cap, bool be, bool wide)
{
    union {
        uint16_t u16[VW];
        uint32_t u32[VW];
    } tmp;
    u8k_vstate st;
    u8k_dec_k dk;
    u8k_v w = v_load_part(src, n), zero = v_splat(0);
    uint64_t in = ((uint64_t)1 << n) - 1, high, lead, tail, m2, e0, e;
    size_t k;
    int kind = 2;
    u8k_dec_init(&dk, false);
    if (v_any(v_subs(w, dk.sef)))
        return SIZE_MAX; /* F0..FF */
    u8k_vinit(&st);
    U8K_PEXT_MASKS(w, (uint64_t)0, (uint64_t)0, st, dk);
    (void)lead;
    (void)m2;
    if (e0 == 0) {
        if (v_any(u8k_vcheck2_two(&st, w, zero)))
            return SIZE_MAX;
    } else {
        if (v_any(u8k_vcheck2_three(&st, w, zero)))
            return SIZE_MAX;
        e |= tail & e0 << 2;
        kind = 3;
    }
    if (cap >= VW)
        return u8k_block_units(&dk, w, zero, e & in, kind, be, wide, (uint16_t *)out,
                               (uint32_t *)out);
    k = u8k_block_units(&dk, w, zero, e & in, kind, be, wide, tmp.u16, tmp.u32);
    if (k > cap)
        return SIZE_MAX;
    memcpy(out, &tmp, k * (wide ? 4 : 2));
    return k;
}

static utf8kit_result simd_utf8_to_utf16_pext(const unsigned char *src, size_t len, uint16_t *dst,
                                              size_t cap, unsigned flags);
static utf8kit_result simd_utf8_to_utf32_pext(const unsigned char *src, size_t len, uint32_t *dst,
                                              size_t cap, unsigned flags);

/* U8K_REPL on a kernel whose block loop does not take it (U8K_PEXT_REPL
 * 0): the kernel runs without it; r is its result on src[0..len), an
 * input error. From each such error on, the step the block loop's caller
 * takes under U8K_REPL (u8k_pext_repair: the blocks of lone bytes, else
 * the one error replaced), then the kernel again from where that
 * stopped. The block loop stays as it is for valid text. Errors the step
 * does not take (cut by the end of the input, no room) go back to the
 * driver, as all of them did before, which made SSE4.2 as slow as the
 * scalar kernel on Latin-1 read as UTF-8 (the driver's scalar windows). */
static U8K_NOINLINE utf8kit_result u8k_pext_repl_units(const unsigned char *src, size_t len,
                                                      void *out, size_t cap, unsigned flags,
                                                      bool wide, utf8kit_result r)
{
    size_t done, od, rep = 0;
    while (u8k_repl_error(r.status)) {
        done = u8k_read_apart(&r);
        od = r.written;
        if (!u8k_pext_repair(src, len, &done, &od, out, cap, flags, wide, &rep))
            break;
        r = wide ? simd_utf8_to_utf32_pext(src + done, len - done, (uint32_t *)out + od, cap - od,
                                           flags & ~U8K_REPL)
                 : simd_utf8_to_utf16_pext(src + done, len - done, (uint16_t *)out + od, cap - od,
                                           flags & ~U8K_REPL);
        r = u8k_shift(r, done, od);
    }
    r.replaced += rep;
    return r;
}

/* The two kernels (wide: UTF-32; else UTF-16, big-endian under U8K_BE):
 * the ASCII at the start, a last part shorter than a vector, then the
 * block loop instance for the flags, and under U8K_REPL where the block
 * loop does not take it, u8k_pext_repl_units after an input error. */
U8K_INLINE utf8kit_result u8k_pext_units_entry(const unsigned char *src, size_t len, void *out,
                                               size_t cap, unsigned flags, bool wide)
{
    const size_t us = wide ? 4 : 2;
    bool be = !wide && (flags & U8K_BE) != 0;
    unsigned char *d;
    size_t a, k;
    unsigned repl;
    utf8kit_result r;
    if (u8k_short_ascii_units(src, len, out, cap, be, wide))
        return u8k_res(UTF8KIT_OK, len, len, 0);
    a = u8k_ascii_start(src, len, out, cap, be, wide);
    d = (unsigned char *)out + a * us;
    if (a + VW > len && a < len &&
        (k = u8k_part_units(src + a, len - a, d, cap - a, be, wide)) != SIZE_MAX)
        return u8k_res(UTF8KIT_OK, len, a + k, 0);
    if (a + VW > len || a + VW > cap)
        return u8k_shift(
            wide ? u8k_scalar_utf8_to_utf32(src + a, len - a, (uint32_t *)(void *)d, cap - a, flags)
                 : u8k_scalar_utf8_to_utf16(src + a, len - a, (uint16_t *)(void *)d, cap - a, flags),
            a, a);
    repl = U8K_PEXT_REPL ? 0 : flags & U8K_REPL;
    flags &= ~repl;
    if (wide)
        r = flags == 0 ? u8k_long_utf32_pext(src + a, len - a, (uint32_t *)(void *)d, cap - a)
            : flags == U8K_REPL
                ? u8k_long_utf32_pext_repl(src + a, len - a, (uint32_t *)(void *)d, cap - a)
                : u8k_long_utf32_pext_flags(src + a, len - a, (uint32_t *)(void *)d, cap - a,
                                            flags);
    else
        r = flags == 0 ? u8k_long_utf16_pext(src + a, len - a, (uint16_t *)(void *)d, cap - a)
            : flags == U8K_REPL
                ? u8k_long_utf16_pext_repl(src + a, len - a, (uint16_t *)(void *)d, cap - a)
                : u8k_long_utf16_pext_flags(src + a, len - a, (uint16_t *)(void *)d, cap - a,
                                            flags);
    if (repl && u8k_repl_error(r.status))
        r = u8k_pext_repl_units(src + a, len - a, d, cap - a, flags | repl, wide, r);
    return u8k_shift(r, a, a);
}

static utf8kit_result simd_utf8_to_utf16_pext(const unsigned char *src, size_t len, uint16_t *dst,
                                              size_t cap, unsigned flags)
{
    return u8k_pext_units_entry(src, len, dst, cap, flags, false);
}

static utf8kit_result simd_utf8_to_utf32_pext(const unsigned char *src, size_t len, uint32_t *dst,
                                              size_t cap, unsigned flags)
{
    return u8k_pext_units_entry(src, len, dst, cap, flags, true);
}

#endif /* UTF8KIT_SIMD_PEXT_H */
