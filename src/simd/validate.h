/*
 * simd/validate.h - UTF-8 validation and counting, written once for every
 * vector width.
 *
 * Included by one kernel file per instruction set (src/x86/kernels_*.c,
 * src/arm/kernels_neon.c) after it has defined the small vector layer
 * below; everything here is static, so each file gets its own copy
 * compiled for its own instructions.
 *
 *   u8k_v           a vector of VW bytes (VW = 16, 32 or 64)
 *   v_load(p)       VW bytes from p, any alignment
 *   v_load_al(p)    VW bytes from p, a multiple of VW: optional, with
 *                   U8K_AL_LOADS defined (else v_load)
 *   v_load_part(p, n)  n < VW bytes from p, zeros after them; reads
 *                   nothing at or past p + n
 *   v_splat(b)      every byte b
 *   v_table(t)      the 16-byte table t, repeated in every 128-bit lane
 *   v_lookup(t, i)  byte i[k] (0..15) of t's lane, for every k
 *   v_and, v_or, v_xor
 *   v_shr4(v)       every byte shifted right by 4 (its high nibble)
 *   v_prev{1,2,3}(cur, prev)  the bytes 1, 2, 3 places earlier in the
 *                   stream prev|cur (prev is the previous block)
 *   v_subs(a, b)    unsigned saturating a - b per byte
 *   v_any(v)        some byte is non-zero
 *   v_high(v)       bit k = high bit of byte k
 *   v_count_gt(v, t)  how many bytes are > t as signed bytes
 *   v_add(a, b)     bytewise a + b (modulo 256)
 *   v_max(a, b)     bytewise unsigned maximum
 *   v_inc_eq(acc, v, t)  acc + 1 in every byte where v equals t
 *   v_inc_lt(acc, v, t)  acc + 1 in every byte where v < t (signed bytes)
 *   v_sad_add(w, v) w + the sums of each 8 bytes of v, in 64-bit lanes
 *   v_sum64(w)      the sum of the 64-bit lanes of w
 *
 * A kernel that defines U8K_OWN_VCHECK gives the per-block check its own
 * shifts and lookups instead of v_prev1..3, v_lookup and v_shr4:
 *   v_prevs(cur, prev, &p1, &p2, &p3)  v_prev1, v_prev2, v_prev3 at once
 *   v_lookup_low6(t, x)  entry (x mod 64) of the 64-byte table t
 *   v_lookup_top6(t, x)  entry (x >> 2) of the 64-byte table t
 * with each high-nibble table laid out 64 entries long (each entry 4
 * times), so that no nibble needs to be masked out.
 *
 * Optional, each measured where it is set:
 *   U8K_LOAD_PREVS  the scans read the bytes 1, 2, 3 before a block from
 *                   memory (u8k_vprevs_at); U8K_TALLY_SHIFT_PREVS keeps
 *                   the counting scan on register shifts
 *   U8K_HAVE_ANY_GE, v_any_ge(v, t)  some byte of v is >= that of t
 *   U8K_HAVE_SPLAT_K, v_splat_k(b)  v_splat(b) for loop constants, read
 *                   from memory (u8k_splat4 in internal.h)
 *   U8K_TWO_FIRST   u8k_vscan tests a group of blocks for bytes >= E0
 *                   first, and for F0 only when some are (default: F0
 *                   first), which saves a test on 1- and 2-octet text
 *   U8K_HAVE_FOUR_CHECK, v_four_bad(x)  non-zero where a 32-bit lane of x
 *                   is not one 4-octet form of U+10000..U+10FFFF: u8k_vscan
 *                   (validation and counting) and validate_counts then take
 *                   runs of 4-octet characters a character per lane
 *                   (u8k_vfour)
 *
 * The algorithm is the "lookup" validator of J. Keiser and D. Lemire,
 * "Validating UTF-8 In Less Than One Instruction Per Byte", Software:
 * Practice and Experience 51(5), 2021, rebuilt here from its description:
 *
 * Every error in UTF-8 shows in some pair of adjacent bytes (p, c), as a
 * function of three nibbles: p's high nibble, p's low nibble and c's high
 * nibble; or in the rule that the 2nd and 3rd bytes after a 3- or 4-byte
 * lead must be continuations. Each error kind below gets one bit and is a
 * product set H1 x L1 x H2 of those nibbles, so three 16-entry tables
 * (bit set in T1[h1] for each h1 in H1, and so on) and two ANDs give, for
 * every byte at once, the set of pair rules it breaks.
 *
 *   bit           p          c          meaning
 *   TOO_SHORT     C0..FF     00..7F,C0..FF  a lead not followed by a tail
 *   TOO_LONG      00..7F     80..BF     a tail after ASCII
 *   OVERLONG_3    E0         80..9F     3 bytes for < U+0800
 *   TOO_LARGE     F4..FF     90..BF     above U+10FFFF
 *   SURROGATE     ED         A0..BF     U+D800..U+DFFF
 *   OVERLONG_2    C0,C1      80..BF     2 bytes for < U+0080
 *   OVL4_TL8      F0,F5..FF  80..8F     4 bytes for < U+10000, or F5+ tails
 *   TWO_TAILS     80..BF     80..BF     a tail after a tail
 *
 * (F5..FF are treated as 4-byte leads; any tail after them is TOO_LARGE or
 * OVL4_TL8, and no tail after them is TOO_SHORT, so every use is caught.)
 * TWO_TAILS is an error exactly when c is NOT the 2nd or 3rd byte after a
 * 3- or 4-byte lead, and that position rule is an error when c is not a
 * tail; both are the XOR of TWO_TAILS with "prev2 >= E0 or prev3 >= F0".
 * An input may not end inside a sequence: the last block is padded with
 * zeros (ASCII), which then breaks TOO_SHORT or the position rule.
 *
 * The SIMD pass only says which block holds the first error. The scalar
 * reference (u8k_scalar_validate), started at the character that contains
 * that block's first byte, then finds its exact offset, kind and length,
 * so the result is the reference's on every input.
 */
#ifndef UTF8KIT_SIMD_VALIDATE_H
#define UTF8KIT_SIMD_VALIDATE_H

#include "internal.h"

/* v_splat_k(b): the constant vector of byte b for a loop; a layer that
 * reads it from memory (u8k_splat4, internal.h) defines its own. */
#ifndef U8K_HAVE_SPLAT_K
#define v_splat_k(b) v_splat(b)
#endif

#define U8K_TOO_SHORT 0x01
#define U8K_TOO_LONG 0x02
#define U8K_OVERLONG_3 0x04
#define U8K_TOO_LARGE 0x08
#define U8K_SURROGATE 0x10
#define U8K_OVERLONG_2 0x20
#define U8K_OVL4_TL8 0x40
#define U8K_TWO_TAILS 0x80

/* Indexed by the high nibble of the first byte p. (The tables indexed
 * by a high nibble are lists of macro calls so that they can also be laid
 * out with each entry 4 times: 64-entry tables indexed by the top 6 bits,
 * for kernels with U8K_OWN_VCHECK.) */
#define U8K_T_P_HIGH(X)                                                                     \
    /* 0..7 ASCII */                                                                        \
    X(U8K_TOO_LONG) X(U8K_TOO_LONG) X(U8K_TOO_LONG) X(U8K_TOO_LONG)                         \
    X(U8K_TOO_LONG) X(U8K_TOO_LONG) X(U8K_TOO_LONG) X(U8K_TOO_LONG)                         \
    /* 8..B tails */                                                                        \
    X(U8K_TWO_TAILS) X(U8K_TWO_TAILS) X(U8K_TWO_TAILS) X(U8K_TWO_TAILS)                     \
    /* C: 2-byte leads (C0, C1 overlong) */                                                 \
    X(U8K_TOO_SHORT | U8K_OVERLONG_2)                                                       \
    /* D: 2-byte leads */                                                                   \
    X(U8K_TOO_SHORT)                                                                        \
    /* E: 3-byte leads (E0 overlong, ED surrogates) */                                      \
    X(U8K_TOO_SHORT | U8K_OVERLONG_3 | U8K_SURROGATE)                                       \
    /* F: 4-byte leads and F5..FF */                                                        \
    X(U8K_TOO_SHORT | U8K_TOO_LARGE | U8K_OVL4_TL8)
#define U8K_X1(x) x,
#define U8K_X4(x) x, x, x, x,
static const unsigned char u8k_t_p_high[16] = {U8K_T_P_HIGH(U8K_X1)};

/* Indexed by the low nibble of the first byte p. The rules that do not
 * depend on it have their bit in every entry. */
#define U8K_ANY_LOW (U8K_TOO_SHORT | U8K_TOO_LONG | U8K_TWO_TAILS)
static const unsigned char u8k_t_p_low[16] = {
    /* 0: C0, E0, F0 */ U8K_ANY_LOW | U8K_OVERLONG_2 | U8K_OVERLONG_3 | U8K_OVL4_TL8,
    /* 1: C1 */ U8K_ANY_LOW | U8K_OVERLONG_2,
    /* 2 */ U8K_ANY_LOW,
    /* 3 */ U8K_ANY_LOW,
    /* 4: F4 */ U8K_ANY_LOW | U8K_TOO_LARGE,
    /* 5..F: F5..FF (and ED for D) */
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8, U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8,
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8, U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8,
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8, U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8,
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8, U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8,
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8 | U8K_SURROGATE,
    U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8, U8K_ANY_LOW | U8K_TOO_LARGE | U8K_OVL4_TL8,
};

/* Indexed by the high nibble of the second byte c. */
#define U8K_NOT_TAIL U8K_TOO_SHORT
#define U8K_T_C_HIGH(X)                                                                     \
    /* 0..7 */                                                                              \
    X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL)                         \
    X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL)                         \
    /* 8 */ X(U8K_TOO_LONG | U8K_TWO_TAILS | U8K_OVERLONG_2 | U8K_OVERLONG_3 | U8K_OVL4_TL8) \
    /* 9 */ X(U8K_TOO_LONG | U8K_TWO_TAILS | U8K_OVERLONG_2 | U8K_OVERLONG_3 | U8K_TOO_LARGE) \
    /* A */ X(U8K_TOO_LONG | U8K_TWO_TAILS | U8K_OVERLONG_2 | U8K_SURROGATE | U8K_TOO_LARGE) \
    /* B */ X(U8K_TOO_LONG | U8K_TWO_TAILS | U8K_OVERLONG_2 | U8K_SURROGATE | U8K_TOO_LARGE) \
    /* C..F */                                                                              \
    X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL) X(U8K_NOT_TAIL)
static const unsigned char u8k_t_c_high[16] = {U8K_T_C_HIGH(U8K_X1)};

#ifdef U8K_OWN_VCHECK
static const unsigned char u8k_t_p_high64[64] = {U8K_T_P_HIGH(U8K_X4)};
static const unsigned char u8k_t_c_high64[64] = {U8K_T_C_HIGH(U8K_X4)};
#endif

/* The largest byte allowed at each of the last VW offsets of a block that
 * ends a sequence (read from offset 64 - VW): FF, except a 4-byte lead
 * 3 from the end (wants 3 more), a 3-byte lead 2 from the end, any lead
 * last. */
#define U8K_FF8 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
static const unsigned char u8k_tail_limits[64] = {
    U8K_FF8, U8K_FF8, U8K_FF8, U8K_FF8, U8K_FF8, U8K_FF8, U8K_FF8,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF,
};

/* Validation state carried from block to block. */
typedef struct {
    u8k_v prev;  /* the previous block (zeros before the first) */
    u8k_v t1, t2, t3;
    u8k_v nib, e0, f0, hi;
    u8k_v ge_e0, ge_f0; /* E0 and F0 for v_any_ge */
    /* After an ASCII block the state is clean unless the block before it
     * ended inside a sequence: its last three bytes against these limits. */
    u8k_v tailmax;
} u8k_vstate;

U8K_INLINE void u8k_vinit(u8k_vstate *st)
{
    st->prev = v_splat(0);
#ifdef U8K_OWN_VCHECK
    st->t1 = v_load(u8k_t_p_high64);
    st->t3 = v_load(u8k_t_c_high64);
#else
    st->t1 = v_table(u8k_t_p_high);
    st->t3 = v_table(u8k_t_c_high);
#endif
    st->t2 = v_table(u8k_t_p_low);
    st->nib = v_splat(0x0F);
    st->e0 = v_splat_k(0xE0 - 0x80);
    st->f0 = v_splat_k(0xF0 - 0x80);
    st->hi = v_splat_k(0x80);
    st->ge_e0 = v_splat_k(0xE0);
    st->ge_f0 = v_splat_k(0xF0);
    st->tailmax = v_load(u8k_tail_limits + 64 - VW);
}

/* The bytes 1, 2 and 3 places before each byte of block `cur` in the
 * stream prev|cur. */
U8K_INLINE void u8k_vprevs(u8k_v cur, u8k_v prev, u8k_v *p1, u8k_v *p2, u8k_v *p3)
{
#ifdef U8K_OWN_VCHECK
    v_prevs(cur, prev, p1, p2, p3);
#else
    *p1 = v_prev1(cur, prev);
    *p2 = v_prev2(cur, prev);
    *p3 = v_prev3(cur, prev);
#endif
}

/* The pair rules of block `cur` given the bytes one before each (p1):
 * the AND of the three lookups. */
U8K_INLINE u8k_v u8k_vrules_p(const u8k_vstate *st, u8k_v cur, u8k_v p1)
{
#ifdef U8K_OWN_VCHECK
    /* lookups by high nibble (top 6 bits) and low nibble that take the
     * bytes as they are */
    return v_and(v_and(v_lookup_top6(st->t1, p1), v_lookup_low6(st->t2, p1)),
                 v_lookup_top6(st->t3, cur));
#else
    return v_and(v_and(v_lookup(st->t1, v_shr4(p1)), v_lookup(st->t2, v_and(p1, st->nib))),
                 v_lookup(st->t3, v_shr4(cur)));
#endif
}

/* u8k_vprevs for a block that is also in memory at `at`, with at least 3
 * bytes of the same input before it (those of `prev`, or after
 * u8k_vstart the 3 it holds), or at == NULL when it is not. A kernel that
 * defines U8K_LOAD_PREVS reads the three shifted blocks from memory there:
 * unaligned loads take the load ports, which the check leaves idle, and
 * not the shuffle port, which limits it. The other kernels, and all
 * callers that pass NULL (a constant, so the test folds away), shift
 * registers. */
U8K_INLINE void u8k_vprevs_at(const unsigned char *at, u8k_v cur, u8k_v prev, u8k_v *p1,
                              u8k_v *p2, u8k_v *p3)
{
#ifdef U8K_LOAD_PREVS
    if (at != NULL) {
        (void)cur;
        (void)prev;
        *p1 = v_load(at - 1);
        *p2 = v_load(at - 2);
        *p3 = v_load(at - 3);
        return;
    }
#else
    (void)at;
#endif
    u8k_vprevs(cur, prev, p1, p2, p3);
}

/* The pair rules of block `cur` after block `prev` (at `at` in memory, or
 * NULL: u8k_vprevs_at), and the bytes 2 and 3 before each byte. */
U8K_INLINE u8k_v u8k_vrules(const u8k_vstate *st, const unsigned char *at, u8k_v cur, u8k_v prev,
                            u8k_v *p2, u8k_v *p3)
{
    u8k_v p1;
    u8k_vprevs_at(at, cur, prev, &p1, p2, p3);
    return u8k_vrules_p(st, cur, p1);
}

/* The error bits of block `cur` given the bytes 1, 2 and 3 before each
 * (u8k_vprevs), for a caller that needs those bytes too. */
U8K_INLINE u8k_v u8k_vcheck_p(const u8k_vstate *st, u8k_v cur, u8k_v p1, u8k_v p2, u8k_v p3)
{
    /* prev2 - 60 saturates to >= 80 exactly when prev2 >= E0, prev3 - 70
     * exactly when prev3 >= F0: the high bit is then the TWO_TAILS bit. */
    u8k_v third = v_subs(p2, st->e0);
    u8k_v fourth = v_subs(p3, st->f0);
    return v_xor(u8k_vrules_p(st, cur, p1), v_and(v_or(third, fourth), st->hi));
}

/* The error bits of block `cur` after block `prev` (any non-zero byte:
 * an error ends in it); `at` as for u8k_vprevs_at. */
U8K_INLINE u8k_v u8k_vcheck_at(const u8k_vstate *st, const unsigned char *at, u8k_v cur, u8k_v prev)
{
    u8k_v p1, p2, p3;
    u8k_vprevs_at(at, cur, prev, &p1, &p2, &p3);
    return u8k_vcheck_p(st, cur, p1, p2, p3);
}

U8K_INLINE u8k_v u8k_vcheck2(const u8k_vstate *st, u8k_v cur, u8k_v prev)
{
    return u8k_vcheck_at(st, NULL, cur, prev);
}

/* u8k_vcheck2 when no byte of prev and cur is E0 or above (text of 1- and
 * 2-octet characters): no byte must then be a 2nd or 3rd tail, so the
 * TWO_TAILS bit is an error as it stands and the bytes 2 and 3 back are
 * not needed (nor computed: the compiler drops them). */
U8K_INLINE u8k_v u8k_vcheck_at_two(const u8k_vstate *st, const unsigned char *at, u8k_v cur,
                                   u8k_v prev)
{
    u8k_v p2, p3;
    return u8k_vrules(st, at, cur, prev, &p2, &p3);
}

U8K_INLINE u8k_v u8k_vcheck2_two(const u8k_vstate *st, u8k_v cur, u8k_v prev)
{
    return u8k_vcheck_at_two(st, NULL, cur, prev);
}

/* u8k_vcheck2 when no byte of prev and cur is F0 or above: no byte must
 * then be a 3rd tail (the bytes 3 back are not needed). */
U8K_INLINE u8k_v u8k_vcheck_at_three(const u8k_vstate *st, const unsigned char *at, u8k_v cur,
                                     u8k_v prev)
{
    u8k_v p2, p3, rules = u8k_vrules(st, at, cur, prev, &p2, &p3);
    return v_xor(rules, v_and(v_subs(p2, st->e0), st->hi));
}

U8K_INLINE u8k_v u8k_vcheck2_three(const u8k_vstate *st, u8k_v cur, u8k_v prev)
{
    return u8k_vcheck_at_three(st, NULL, cur, prev);
}

/* Whether some byte of v is E0 or above (v is the bytewise maximum of
 * blocks: an OR would do for the high bit alone, but here it would often
 * turn a lead and a tail into E0..FF). */
#ifdef U8K_HAVE_ANY_GE
/* v_any_ge(v, t): whether some byte of v is at least the byte of t (all
 * alike), in one compare */
U8K_INLINE bool u8k_has_e0(const u8k_vstate *st, u8k_v v) { return v_any_ge(v, st->ge_e0); }
U8K_INLINE bool u8k_has_f0(const u8k_vstate *st, u8k_v v) { return v_any_ge(v, st->ge_f0); }
#else
U8K_INLINE bool u8k_has_e0(const u8k_vstate *st, u8k_v v) { return v_high(v_subs(v, st->e0)) != 0; }
U8K_INLINE bool u8k_has_f0(const u8k_vstate *st, u8k_v v) { return v_high(v_subs(v, st->f0)) != 0; }
#endif

U8K_INLINE u8k_v u8k_vcheck(const u8k_vstate *st, u8k_v cur) { return u8k_vcheck2(st, cur, st->prev); }

/* One block of a left-to-right pass: true when an error shows in it. */
U8K_INLINE bool u8k_vblock(u8k_vstate *st, u8k_v cur)
{
    bool bad = v_high(cur) == 0 ? v_any(v_subs(st->prev, st->tailmax)) : v_any(u8k_vcheck(st, cur));
    st->prev = cur;
    return bad;
}

/* Counting bytes of a valid block: as signed bytes, non-continuation
 * bytes are those > -65 (BF); bytes >= F0 are those > -17 (EF) but not
 * > -1 (the ASCII ones). */
#define U8K_COUNT(v)                                                                       \
    do {                                                                                   \
        c += v_count_gt(v, -65);                                                           \
        q += v_count_gt(v, -17) - v_count_gt(v, -1);                                       \
    } while (0)

/* Whether a scan reads the bytes before each block from memory
 * (u8k_vprevs_at): u8k_vscan with U8K_LOAD_PREVS, u8k_vscan_tally also
 * unless U8K_TALLY_SHIFT_PREVS. */
#ifdef U8K_LOAD_PREVS
#define U8K_SCAN_LOADS true
#ifndef U8K_TALLY_SHIFT_PREVS
#define U8K_TALLY_LOADS true
#endif
#else
#define U8K_SCAN_LOADS false
#endif
#ifndef U8K_TALLY_LOADS
#define U8K_TALLY_LOADS false
#endif

/* The offset where the block loops of a scan start, after the block at s
 * is checked alone from a fresh start:
 *  - an input of U8K_ALIGN_MIN bytes or more: h, the first VW-aligned
 *    offset at least 3 bytes after s, st->prev holding the 3 bytes before
 *    h (the aligned blocks need no more of what comes before them: a
 *    character that reaches into them starts there);
 *  - else, for a scan that reads the bytes before each block from memory
 *    (`loads`), VW, st->prev being that block: the block at s has no bytes
 *    before it in memory;
 *  - else 0, nothing checked (the loops start at s).
 * Sets *bad (and returns 0) when the block at s shows an error. The
 * caller counts s[0..start) itself. */
U8K_INLINE size_t u8k_vstart(u8k_vstate *st, const unsigned char *s, size_t len, bool loads,
                             bool *bad)
{
    /* bytes to the next aligned address */
    size_t h = len >= U8K_ALIGN_MIN ? (size_t)(-(uintptr_t)s % VW) : 0;
    unsigned char before[VW] = {0};
    u8k_v first;
    *bad = false;
    if (h < 3 && !(loads && len >= VW))
        return 0;
    first = v_load(s);
    /* (all ASCII after nothing: valid) */
    if (v_high(first) != 0 && v_any(u8k_vcheck(st, first))) {
        *bad = true;
        return 0;
    }
    if (h < 3) {
        st->prev = first;
        return VW;
    }
    before[VW - 3] = s[h - 3];
    before[VW - 2] = s[h - 2];
    before[VW - 1] = s[h - 1];
    st->prev = v_load(before);
    return h;
}

#ifdef U8K_HAVE_FOUR_CHECK
/* Runs of 4-octet characters (emoji, historic scripts, CJK extension
 * planes). The block check works on every byte, three of four of them
 * tails; on a run of such characters, read from a character start, each
 * 32-bit lane holds one character and the layer's v_four_bad(x) says in
 * a few operations whether every lane is a 4-octet form of a value
 * U+10000..U+10FFFF. u8k_vfour_run goes on from the character start t
 * while the next VW bytes are such characters (four blocks a step, then
 * one), and returns where it stopped: a character start, everything from
 * t to it valid. */
U8K_INLINE size_t u8k_vfour_run(const unsigned char *s, size_t len, size_t t)
{
    while (len - t >= 4 * VW) {
        u8k_v e = v_or(v_or(v_four_bad(v_load(s + t)), v_four_bad(v_load(s + t + VW))),
                       v_or(v_four_bad(v_load(s + t + 2 * VW)),
                            v_four_bad(v_load(s + t + 3 * VW))));
        if (v_any(e))
            break;
        t += 4 * VW;
    }
    while (len - t >= VW && !v_any(v_four_bad(v_load(s + t))))
        t += VW;
    return t;
}

/* After the blocks before `end` passed the check and the last of them,
 * d, has no ASCII: when d holds 4-octet characters only (a byte F0..FF
 * every four bytes from one of its first four; the rest are then tails,
 * as the check has seen), the run from d's last character start is taken
 * by u8k_vfour_run. Returns the offset of the block where the block
 * loops go on, on their stride (end plus a multiple of VW) and at least
 * end: the blocks from there on are checked as usual (after the block
 * before, read again from memory), and everything before them is valid.
 * The blocks from end to there lie inside the run, from a character
 * start every four bytes on: a quarter of their bytes start a character,
 * each a byte F0..FF (what a counting scan adds for them). (Out of line,
 * with the vector state left with the caller: passed by address, it
 * would live in memory all through the block loops.) */
static U8K_NOINLINE size_t u8k_vfour(const unsigned char *s, size_t len, size_t end)
{
    const uint64_t every4 = UINT64_C(0x1111111111111111) >> (64 - VW);
    /* bytes F0..FF: 70 less, they keep their high bit (u8k_vcheck_p) */
    uint64_t leads = v_high(v_subs(v_load(s + end - VW), v_splat(0xF0 - 0x80)));
    unsigned k = (unsigned)__builtin_ctzll(leads | 16); /* 4: none in the first four */
    size_t t;
    if (k > 3 || leads != ((every4 << k) & (UINT64_MAX >> (64 - VW))))
        return end;
    t = u8k_vfour_run(s, len, end - 4 + k);
    return t > end ? end + (t - end) / VW * VW : end;
}
#endif

/* u8k_vscan validates s[0..len) from a fresh start (as if nothing came
 * before s). It returns true when the input is valid; otherwise *at is the
 * offset of the first block where an error shows (it is len when only the
 * zero padding after a whole last block shows that the input ends inside
 * a sequence). The blocks are VW bytes from the offset u8k_vstart gives
 * (after it has checked the block at s; bytes in both are counted in the
 * first only up to that offset); with U8K_HAVE_FOUR_CHECK, a run of
 * 4-octet characters between them may be taken a character per lane
 * (u8k_vfour), and *at is still one of those blocks.
 * When `counting`, *nc gets the number of non-continuation bytes and *n4
 * the number of bytes >= F0 in the blocks before *at (all of s when
 * valid). */
U8K_INLINE bool u8k_vscan(const unsigned char *s, size_t len, size_t *at, size_t *nc, size_t *n4,
                          bool counting)
{
    u8k_vstate st;
    size_t i = 0, c = 0, q = 0;
    u8k_vinit(&st);
    {
        bool bad;
        i = u8k_vstart(&st, s, len, U8K_SCAN_LOADS, &bad);
        if (bad)
            goto fail;
        if (counting && i > 0) {
            /* s[0..i) only: the VW - i zero bytes of padding count as
             * characters */
            u8k_v head = i < VW ? v_load_part(s, i) : v_load(s);
            U8K_COUNT(head);
            c -= VW - i;
        }
    }
    /* Four blocks at a time: one test for all-ASCII, one for errors.
     * On an error the one-block loop below finds which block it is in. */
#ifdef U8K_HAVE_FOUR_CHECK
groups:
#endif
    while (i + 4 * VW <= len) {
        u8k_v a = v_load(s + i), b = v_load(s + i + VW);
        u8k_v cc = v_load(s + i + 2 * VW), d = v_load(s + i + 3 * VW);
        u8k_v o = v_max(v_max(a, b), v_max(cc, d));
        if (v_high(o) == 0) {
            if (v_any(v_subs(st.prev, st.tailmax)))
                goto fail;
            /* The all-ASCII groups right after this one need no check
             * but their high bits (the block before each is ASCII); the
             * first group that is not is loaded again above. */
            for (;;) {
                c += 4 * VW;
                i += 4 * VW;
                st.prev = d;
                if (i + 4 * VW > len)
                    break;
                a = v_load(s + i);
                b = v_load(s + i + VW);
                cc = v_load(s + i + 2 * VW);
                d = v_load(s + i + 3 * VW);
                if (v_high(v_max(v_max(a, b), v_max(cc, d))) != 0)
                    break;
            }
            continue;
        } else {
            u8k_v e;
            u8k_v m = v_max(o, st.prev);
            const unsigned char *p = s + i;
            /* the four blocks by one of the checks */
#define U8K_GROUP4(check)                                                                  \
    v_or(v_or(check(&st, p, a, st.prev), check(&st, p + VW, b, a)),                       \
         v_or(check(&st, p + 2 * VW, cc, b), check(&st, p + 3 * VW, d, cc)))
            /* Bytes F0..FF: the whole check; then, after a last block
             * of 4-octet characters only, maybe a run of them, taken
             * outside this loop (a call in it costs the loop registers:
             * all vector registers are the caller's to save); when
             * counting, the group is counted first. */
#ifdef U8K_HAVE_FOUR_CHECK
#define U8K_GROUP_F0()                                                                     \
    do {                                                                                   \
        e = U8K_GROUP4(u8k_vcheck_at);                                                     \
        if (U8K_UNLIKELY(v_high(d) == UINT64_MAX >> (64 - VW)) && !v_any(e)) {             \
            if (counting) {                                                                \
                U8K_COUNT(a);                                                              \
                U8K_COUNT(b);                                                              \
                U8K_COUNT(cc);                                                             \
                U8K_COUNT(d);                                                              \
            }                                                                              \
            goto run4;                                                                     \
        }                                                                                  \
    } while (0)
#else
#define U8K_GROUP_F0() (e = U8K_GROUP4(u8k_vcheck_at))
#endif
#ifdef U8K_TWO_FIRST
            if (!u8k_has_e0(&st, m))
                e = U8K_GROUP4(u8k_vcheck_at_two);
            else if (!u8k_has_f0(&st, m))
                e = U8K_GROUP4(u8k_vcheck_at_three);
            else
                U8K_GROUP_F0();
#else
            if (u8k_has_f0(&st, m))
                U8K_GROUP_F0();
            else if (u8k_has_e0(&st, m))
                e = U8K_GROUP4(u8k_vcheck_at_three);
            else
                e = U8K_GROUP4(u8k_vcheck_at_two);
#endif
#undef U8K_GROUP_F0
#undef U8K_GROUP4
            if (v_any(e))
                break;
            if (counting) {
                U8K_COUNT(a);
                U8K_COUNT(b);
                U8K_COUNT(cc);
                U8K_COUNT(d);
            }
        }
        st.prev = d;
        i += 4 * VW;
    }
    for (; i + VW <= len; i += VW) {
        u8k_v cur = v_load(s + i);
        if (v_high(cur) == 0) {
            if (v_any(v_subs(st.prev, st.tailmax)))
                goto fail;
            c += VW;
        } else {
            if (v_any(u8k_vcheck_at(&st, s + i, cur, st.prev)))
                goto fail;
            if (counting)
                U8K_COUNT(cur);
        }
        st.prev = cur;
    }
    {
        size_t rem = len - i;
        u8k_v cur;
        cur = v_load_part(s + i, rem);
        if (v_any(u8k_vcheck(&st, cur)))
            goto fail;
        if (counting) {
            /* The VW - rem zero bytes of padding count as characters. */
            U8K_COUNT(cur);
            c -= VW - rem;
        }
        if (counting) {
            *nc = c;
            *n4 = q;
        }
        return true;
    }
#ifdef U8K_HAVE_FOUR_CHECK
run4:
    /* the group at i passed, and its last block has no ASCII */
    {
        size_t n = u8k_vfour(s, len, i + 4 * VW);
        if (counting) {
            /* the run's characters, each with a byte F0..FF */
            size_t chars = (n - i - 4 * VW) / 4;
            c += chars;
            q += chars;
        }
        i = n;
    }
    st.prev = v_load(s + i - VW);
    goto groups;
#endif
fail:
    if (counting) {
        *nc = c;
        *n4 = q;
    }
    *at = i;
    return false;
}

/* Where the scalar reference restarts for an error first seen in the
 * block at offset b: the start of the last character before b. The
 * blocks before b held no error, so that character began at most 3 bytes
 * earlier, at the nearest non-continuation byte; if b-3..b-1 are all
 * tails, they end a complete 4-byte character and b itself is a start. */
U8K_INLINE size_t u8k_back_to_start(const unsigned char *s, size_t b)
{
    size_t k;
    for (k = 1; k <= 3 && k <= b; k++)
        if (!u8k_is_cont(s[b - k]))
            return b - k;
    return b;
}

/* A short input, 0 < len <= VW, is validated as one block: no loop, and
 * an all-ASCII block needs no check at all (nothing before it, and
 * nothing or zeros after it). u8k_vshort_load gives the block, zero-padded;
 * u8k_vshort_ok says whether it is valid. A block shorter than VW shows a
 * sequence cut by the end to the check through its padding; a whole one
 * has none, so its last bytes are held to the limits of a block that ends
 * a sequence. */
U8K_INLINE u8k_v u8k_vshort_load(const unsigned char *s, size_t len)
{
    return len == VW ? v_load(s) : v_load_part(s, len);
}

U8K_INLINE bool u8k_vshort_ok(u8k_v cur, size_t len)
{
    u8k_vstate st;
    u8k_v e;
    if (v_high(cur) == 0)
        return true;
    u8k_vinit(&st);
    e = u8k_vcheck2(&st, cur, v_splat(0));
    if (len == VW)
        e = v_or(e, v_subs(cur, st.tailmax));
    return !v_any(e);
}

/* ---- validating and counting in one pass (utf8kit_validate_counts) ----
 *
 * The figures are a tally of byte classes (see u8k_tally_add): LF bytes,
 * and the bytes 00..7F, C0..DF, E0..EF, F0..FF, one per sequence of 1, 2,
 * 3, 4 octets in valid text. The last four depend on the high nibble
 * only, which the check computes anyway, so two table lookups give them
 * all, packed two to a byte: table A gives 01 for a nibble 0..7 and 10 for
 * C..D, table B 01 for E and 10 for F. The lookups are added into byte
 * accumulators whose low nibble counts one class and high nibble the
 * other; a nibble holds 15 before it would carry, so after at most 15
 * blocks the bytes are summed into 64-bit lanes (v_sad_add), and so are
 * their low nibbles alone, which tells the two classes apart at the end.
 * LF bytes get a whole byte accumulator, summed every 255 blocks. An all-ASCII block
 * only needs its LF bytes counted: its VW ASCII bytes are added directly.
 */
#define U8K_T_COUNT_A(X)                                                                    \
    X(0x01) X(0x01) X(0x01) X(0x01) X(0x01) X(0x01) X(0x01) X(0x01)                         \
    X(0) X(0) X(0) X(0) X(0x10) X(0x10) X(0) X(0)
#define U8K_T_COUNT_B(X) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0) X(0x01) X(0x10)
#ifdef U8K_OWN_VCHECK
static const unsigned char u8k_t_count_a64[64] = {U8K_T_COUNT_A(U8K_X4)};
static const unsigned char u8k_t_count_b64[64] = {U8K_T_COUNT_B(U8K_X4)};
#else
static const unsigned char u8k_t_count_a[16] = {U8K_T_COUNT_A(U8K_X1)};
static const unsigned char u8k_t_count_b[16] = {U8K_T_COUNT_B(U8K_X1)};
#endif

typedef struct {
    u8k_v a, b, nl;       /* the byte accumulators */
    u8k_v ta, tb, lf, lo; /* the tables, 0A and 0F in every byte */
    /* the sums of the byte accumulators, in 64-bit lanes: of a and of its
     * low nibbles (so, told apart at the end: s1 + 16 s2 and s1), of b and
     * its low nibbles, of nl */
    u8k_v wa, la, wb, lb, wl;
    unsigned na, nnl;     /* blocks added into a/b and into nl since the last sums */
    uint64_t s1;          /* ASCII bytes counted directly (modulo 2^64) */
} u8k_ctally;

U8K_INLINE void u8k_ct_init(u8k_ctally *c)
{
    c->a = c->b = c->nl = v_splat(0);
    c->wa = c->la = c->wb = c->lb = c->wl = v_splat(0);
#ifdef U8K_OWN_VCHECK
    c->ta = v_load(u8k_t_count_a64);
    c->tb = v_load(u8k_t_count_b64);
#else
    c->ta = v_table(u8k_t_count_a);
    c->tb = v_table(u8k_t_count_b);
#endif
    c->lf = v_splat(0x0A);
    c->lo = v_splat(0x0F);
    c->na = c->nnl = 0;
    c->s1 = 0;
}

U8K_INLINE void u8k_ct_flush_ab(u8k_ctally *c)
{
    c->wa = v_sad_add(c->wa, c->a);
    c->la = v_sad_add(c->la, v_and(c->a, c->lo));
    c->wb = v_sad_add(c->wb, c->b);
    c->lb = v_sad_add(c->lb, v_and(c->b, c->lo));
    c->a = c->b = v_splat(0);
    c->na = 0;
}

U8K_INLINE void u8k_ct_flush_nl(u8k_ctally *c)
{
    c->wl = v_sad_add(c->wl, c->nl);
    c->nl = v_splat(0);
    c->nnl = 0;
}

/* Room for k more blocks in every accumulator (k <= 15). */
U8K_INLINE void u8k_ct_room(u8k_ctally *c, unsigned k, bool ab)
{
    if (ab && c->na + k > 15)
        u8k_ct_flush_ab(c);
    if (c->nnl + k > 255)
        u8k_ct_flush_nl(c);
    c->na += ab ? k : 0;
    c->nnl += k;
}

/* One block, any bytes (after u8k_ct_room). */
U8K_INLINE void u8k_ct_block(u8k_ctally *c, u8k_v cur)
{
#ifdef U8K_OWN_VCHECK
    c->a = v_add(c->a, v_lookup_top6(c->ta, cur));
    c->b = v_add(c->b, v_lookup_top6(c->tb, cur));
#else
    u8k_v h = v_shr4(cur);
    c->a = v_add(c->a, v_lookup(c->ta, h));
    c->b = v_add(c->b, v_lookup(c->tb, h));
#endif
    c->nl = v_inc_eq(c->nl, cur, c->lf);
}

/* Adds the tally to *t. */
U8K_INLINE void u8k_ct_end(u8k_ctally *c, utf8kit_counts *t)
{
    uint64_t s1, s3;
    u8k_ct_flush_ab(c);
    u8k_ct_flush_nl(c);
    s1 = v_sum64(c->la);
    s3 = v_sum64(c->lb);
    t->lines += v_sum64(c->wl);
    t->seq[1] += s1 + c->s1;
    t->seq[2] += (v_sum64(c->wa) - s1) >> 4;
    t->seq[3] += s3;
    t->seq[4] += (v_sum64(c->wb) - s3) >> 4;
}

/* u8k_vscan_tally is u8k_vscan (validation only) that also adds to *t the
 * tally of the blocks before *at (all of s when valid), and returns true
 * when s is valid; false when an error shows in the block at *at, or,
 * with U8K_HAVE_FOUR_CHECK, with *four set, after a pair of blocks that
 * passed with bytes F0..FF and a last block with no ASCII: *at is then
 * the end of that pair (tallied), and the caller takes the run of
 * 4-octet characters there may be (u8k_vfour) and calls again from where
 * it ends. (Taken inside the loop, as u8k_vscan does, the run cost other
 * texts 2-5%: the loop is short of vector registers.) It starts at
 * `from`: 0 for a fresh start, or the end of such a run (a block on the
 * loops' stride, all before it valid). */
U8K_INLINE bool u8k_vscan_tally(const unsigned char *s, size_t len, size_t from, size_t *at,
                                utf8kit_counts *t, bool *four)
{
    u8k_vstate st;
    u8k_ctally ct;
    size_t i = from;
    bool ok = false;
    u8k_vinit(&st);
    u8k_ct_init(&ct);
    if (from > 0) {
        st.prev = v_load(s + from - VW);
    } else {
        bool bad;
        i = u8k_vstart(&st, s, len, U8K_TALLY_LOADS, &bad);
        if (bad)
            goto done;
        if (i > 0) {
            /* s[0..i) only: the VW - i zero bytes of padding are ASCII,
             * not LF */
            u8k_ct_room(&ct, 1, true);
            u8k_ct_block(&ct, i < VW ? v_load_part(s, i) : v_load(s));
            ct.s1 -= VW - i;
        }
    }
#define U8K_TALLY_AT(p) (U8K_TALLY_LOADS ? (p) : NULL)
    /* Two blocks at a time (four, as in u8k_vscan, leave too few vector
     * registers for the accumulators and tables). */
    while (i + 2 * VW <= len) {
        u8k_v a = v_load(s + i), b = v_load(s + i + VW);
        u8k_v o = v_max(a, b);
        if (v_high(o) == 0) {
            if (v_any(v_subs(st.prev, st.tailmax)))
                goto done;
            u8k_ct_room(&ct, 2, false);
            ct.nl = v_inc_eq(v_inc_eq(ct.nl, a, ct.lf), b, ct.lf);
            ct.s1 += 2 * VW;
        } else {
            u8k_v e;
            u8k_v m = v_max(o, st.prev);
            const unsigned char *p = U8K_TALLY_AT(s + i), *q = U8K_TALLY_AT(s + i + VW);
            bool run4 = false; /* (read with U8K_HAVE_FOUR_CHECK only) */
            if (u8k_has_f0(&st, m)) {
                e = v_or(u8k_vcheck_at(&st, p, a, st.prev), u8k_vcheck_at(&st, q, b, a));
                run4 = v_high(b) == UINT64_MAX >> (64 - VW);
            } else if (u8k_has_e0(&st, m))
                e = v_or(u8k_vcheck_at_three(&st, p, a, st.prev), u8k_vcheck_at_three(&st, q, b, a));
            else
                e = v_or(u8k_vcheck_at_two(&st, p, a, st.prev), u8k_vcheck_at_two(&st, q, b, a));
            if (v_any(e))
                break;
            u8k_ct_room(&ct, 2, true);
            u8k_ct_block(&ct, a);
            u8k_ct_block(&ct, b);
#ifdef U8K_HAVE_FOUR_CHECK
            if (U8K_UNLIKELY(run4)) {
                i += 2 * VW;
                *four = true;
                goto done;
            }
#else
            (void)run4;
#endif
        }
        st.prev = b;
        i += 2 * VW;
    }
    for (; i + VW <= len; i += VW) {
        u8k_v cur = v_load(s + i);
        if (v_high(cur) == 0) {
            if (v_any(v_subs(st.prev, st.tailmax)))
                goto done;
            u8k_ct_room(&ct, 1, false);
            ct.nl = v_inc_eq(ct.nl, cur, ct.lf);
            ct.s1 += VW;
        } else {
            if (v_any(u8k_vcheck_at(&st, U8K_TALLY_AT(s + i), cur, st.prev)))
                goto done;
            u8k_ct_room(&ct, 1, true);
            u8k_ct_block(&ct, cur);
        }
        st.prev = cur;
    }
    {
        size_t rem = len - i;
        u8k_v cur = v_load_part(s + i, rem);
        if (v_any(u8k_vcheck(&st, cur)))
            goto done;
        /* The VW - rem zero bytes of padding are ASCII, not LF. */
        u8k_ct_room(&ct, 1, true);
        u8k_ct_block(&ct, cur);
        ct.s1 -= VW - rem;
        ok = true;
    }
#undef U8K_TALLY_AT
done:
#ifndef U8K_HAVE_FOUR_CHECK
    (void)four;
#endif
    u8k_ct_end(&ct, t);
    *at = i;
    return ok;
}

/* The vector pass tallies s[0..b) for the block b where an error shows;
 * the scalar reference then finds the error at e (at most 3 bytes before
 * b, or after it), and the tally is moved from b to e byte by byte. */
static utf8kit_result simd_validate_counts(const unsigned char *s, size_t len,
                                           utf8kit_counts *counts)
{
    size_t b, r;
    bool ok, four = false;
    utf8kit_result res;
    utf8kit_counts t = {0, {0, 0, 0, 0, 0}};
    if (len <= VW) {
        u8k_v cur = u8k_vshort_load(s, len);
        u8k_ctally ct;
        if (!u8k_vshort_ok(cur, len))
            return u8k_scalar_validate_counts(s, len, counts);
        u8k_ct_init(&ct);
        u8k_ct_block(&ct, cur);
        ct.s1 -= VW - len; /* the zero padding */
        u8k_ct_end(&ct, counts);
        return u8k_res(UTF8KIT_OK, len, 0, 0);
    }
    ok = u8k_vscan_tally(s, len, 0, &b, &t, &four);
#ifdef U8K_HAVE_FOUR_CHECK
    /* a run of 4-octet characters: a quarter of the bytes from the end of
     * the pair to where the run ends (on the stride) start a character
     * (u8k_vfour) */
    while (four) {
        size_t from = u8k_vfour(s, len, b);
        t.seq[4] += (from - b) / 4;
        four = false;
        ok = u8k_vscan_tally(s, len, from, &b, &t, &four);
    }
#endif
    if (ok) {
        res = u8k_res(UTF8KIT_OK, len, 0, 0);
    } else {
        r = u8k_back_to_start(s, b);
        res = u8k_scalar_validate(s + r, len - r);
        res.read += r;
        if (res.read >= b)
            u8k_tally_add(&t, s + b, res.read - b);
        else
            u8k_tally_sub(&t, s + res.read, b - res.read);
    }
    counts->lines += t.lines;
    counts->seq[1] += t.seq[1];
    counts->seq[2] += t.seq[2];
    counts->seq[3] += t.seq[3];
    counts->seq[4] += t.seq[4];
    return res;
}

/* The long paths are functions of their own (U8K_NOINLINE), so that a
 * short input does not pay for their stack frame (aligned for vector
 * spills) on entry. */
static U8K_NOINLINE bool simd_is_valid_long(const unsigned char *s, size_t len)
{
    size_t b;
    return u8k_vscan(s, len, &b, NULL, NULL, false);
}

/* Without a masked load (VW < 64) a short ASCII string is seen by
 * u8k_short_ascii before the block paths of validation and counting;
 * AVX-512 loads any short input as one masked block, with no branch on
 * its length. */
#if VW < 64
#define U8K_SHORT_ASCII(s, len) u8k_short_ascii(s, len)
#else
#define U8K_SHORT_ASCII(s, len) false
#endif

static bool simd_is_valid(const unsigned char *s, size_t len)
{
    if (U8K_SHORT_ASCII(s, len))
        return true;
    if (len <= VW)
        return u8k_vshort_ok(u8k_vshort_load(s, len), len);
    return simd_is_valid_long(s, len);
}

/* validate's result comes back in two registers (u8k_vres, internal.h),
 * so a short input needs no frame. */
static U8K_NOINLINE u8k_vres simd_validate_long(const unsigned char *s, size_t len)
{
    size_t b, r;
    u8k_vres v;
    if (u8k_vscan(s, len, &b, NULL, NULL, false))
        return u8k_vres_make(UTF8KIT_OK, len, 0);
    r = u8k_back_to_start(s, b);
    v = u8k_scalar_validate_v(s + r, len - r);
    v.read += r;
    return v;
}

static u8k_vres simd_validate(const unsigned char *s, size_t len)
{
    if (U8K_SHORT_ASCII(s, len))
        return u8k_vres_make(UTF8KIT_OK, len, 0);
    if (len <= VW)
        return u8k_vshort_ok(u8k_vshort_load(s, len), len) ? u8k_vres_make(UTF8KIT_OK, len, 0)
                                                            : u8k_scalar_validate_v(s, len);
    return simd_validate_long(s, len);
}

static size_t simd_ascii_prefix(const unsigned char *s, size_t len)
{
    size_t i = 0;
    for (; i + VW <= len; i += VW) {
        uint64_t m = v_high(v_load(s + i));
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return i + u8k_scalar_ascii_prefix(s + i, len - i);
}

/* Counting: valid stretches are counted by the vector pass; at a block
 * with an error the scalar counter takes over from the character start
 * before it until past that block, and the vector pass restarts there
 * from a fresh state. That is exact because the scalar decoder keeps no
 * state between characters: counting s[0..p) and s[p..) separately at a
 * boundary p it reached gives the same total. */
U8K_INLINE size_t u8k_simd_count(const unsigned char *s, size_t len, bool utf16)
{
    size_t pos = 0, total = 0;
    while (pos < len) {
        size_t nc = 0, n4 = 0, b, r, k, stop;
        bool ok = u8k_vscan(s + pos, len - pos, &b, &nc, &n4, true);
        total += nc + (utf16 ? n4 : 0);
        if (ok)
            break;
        b += pos;
        /* The vector pass counted s[pos..b); bytes r..b-1 are a lead and
         * its tails, whose character is counted again below. */
        r = b > pos ? u8k_back_to_start(s, b) : b;
        if (r < pos)
            r = pos;
        for (k = r; k < b; k++)
            if (!u8k_is_cont(s[k]))
                total -= 1 + (utf16 && s[k] >= 0xF0);
        stop = b + VW < len ? b + VW : len;
        k = r;
        while (k < stop) {
            uint32_t cp;
            size_t n;
            if (u8k_decode_step(s + k, len - k, &cp, &n) == UTF8KIT_OK && utf16 && n == 4)
                total++;
            total++;
            k += n;
        }
        pos = k;
    }
    return total;
}

/* A short input, len <= VW, as one block: when it is valid, its
 * characters are its bytes that are not continuation bytes (and for
 * UTF-16 one more for each F0..FF: as signed bytes, those above EF but
 * not above FF); the zero padding counts as ASCII, taken off. Otherwise
 * the scalar counter, which also counts the maximal subparts. */
U8K_INLINE size_t u8k_short_count(const unsigned char *s, size_t len, bool utf16)
{
    u8k_v cur = u8k_vshort_load(s, len);
    if (!u8k_vshort_ok(cur, len))
        return utf16 ? u8k_scalar_utf16_length(s, len) : u8k_scalar_count(s, len);
    return v_count_gt(cur, -65) - (VW - len) +
           (utf16 ? v_count_gt(cur, -17) - v_count_gt(cur, -1) : 0);
}

/* Counting, by the length of the input: a short ASCII string, one block,
 * or the scan. */
U8K_INLINE size_t u8k_count_any(const unsigned char *s, size_t len, bool utf16)
{
    if (U8K_SHORT_ASCII(s, len))
        return len;
    return len <= VW ? u8k_short_count(s, len, utf16) : u8k_simd_count(s, len, utf16);
}

static size_t simd_count(const unsigned char *s, size_t len) { return u8k_count_any(s, len, false); }

static size_t simd_utf16_length(const unsigned char *s, size_t len)
{
    return u8k_count_any(s, len, true);
}

/* Counting text assumed valid (u8k_scalar_count_assume_valid): the bytes
 * above BF as signed bytes, -65, are the ones that are not continuation
 * bytes; the leads F0..FF of 4-octet characters are, with the top bit
 * flipped (unsigned order made signed: b - 80), the bytes above 6F, and
 * are counted only in a step whose bytes reach F0 (rare outside emoji
 * and historic scripts; the largest byte minus 70, saturated, has its top
 * bit set just when it is F0 or more). Four vectors per step; the zero padding of the
 * last part counts as characters (not as F0..FF) and is taken off. */
U8K_INLINE size_t u8k_count_f0(u8k_v v) { return v_count_gt(v_xor(v, v_splat(0x80)), 0x6F); }

/* The count of valid text s[i..len) with fewer than 4 VW bytes left:
 * VW at a time, then the last part (its zero padding is not counted). */
U8K_INLINE size_t u8k_count_av_rest(const unsigned char *s, size_t i, size_t len, bool utf16)
{
    size_t n = 0;
    for (; i + VW <= len; i += VW) {
        u8k_v a = v_load(s + i);
        n += v_count_gt(a, -65) + (utf16 ? u8k_count_f0(a) : 0);
    }
    if (i < len) {
        u8k_v a = v_load_part(s + i, len - i);
        n += v_count_gt(a, -65) - (VW - (len - i)) + (utf16 ? u8k_count_f0(a) : 0);
    }
    return n;
}

/* The counts of valid text add up bytewise in a vector, 4 vectors a
 * group, in a tally (at most 8 a group in a byte of each field), which
 * u8k_group_total turns into the count of each byte lane.
 *
 * Without a compare into a mask register (SSE4.2, AVX2, NEON): the
 * continuation bytes 80..BF (as signed bytes, below -64) in cont; a
 * lane's count is then its bytes less cont, plus units. Two instructions
 * a vector, where moving each compare to a general register and counting
 * its bits takes three. (The compare is the one for 80..BF, -64 > v,
 * one vpcmpgtb with v from memory. Written for the bytes that start a
 * character, v > -65, gcc 12 made it min(v, -64) == -64, one instruction
 * more a vector: AVX2 and SSE4.2 counted 16-26% slower, AVX2 at 0.91x
 * simdutf's AVX2 kernel.) For the UTF-16 length, a group with a byte
 * F0..FF (a surrogate pair: one unit more) adds instead each byte's
 * units less 1 (-1 for 80..BF, +1 for F0..FF) to units by a lookup of its
 * high nibble: four instructions a vector where cont and a count of
 * F0..FF took five (max, compare, subtract); emoji +17-19% on AVX2
 * (0.90x simdutf's AVX2 kernel before, 1.01-1.04x after), +14% on
 * SSE4.2.
 *
 * With 64-entry byte lookups (AVX-512 VBMI) the UTF-16 length only (the
 * count of code points stays with the compares into masks, 5% faster
 * there): each byte's weight by its high nibble, one lookup a vector and
 * no branch (the top 6 bits index a table that repeats each nibble's
 * entry 4 times): 1 for 0..7 and C..E (a character starts), 0 for 8..B (a
 * continuation byte), 2 for F (a surrogate pair), in units alone. Measured
 * 1.35x the compares on emoji, the same within 3% on other text. */
typedef struct u8k_tally {
    u8k_v cont, units;
} u8k_tally;

#ifndef U8K_OWN_VCHECK
/* al: p is a multiple of VW, so that SSE4.2 can take the vectors as
 * operands from memory (its encoding cannot take an unaligned one):
 * count_av 10-13% faster there on an aligned input, 5% on another (the
 * UTF-16 length, whose vectors are used again, the same). AVX2, whose
 * encoding can, lost 3-6% with the extra call of simd_count_assume_valid
 * (code placement), so only a layer that defines U8K_AL_LOADS has it. */
#ifndef U8K_AL_LOADS
#define v_load_al v_load
#endif
U8K_INLINE u8k_v u8k_load_al_if(const unsigned char *p, bool al)
{
    return al ? v_load_al(p) : v_load(p);
}

/* A byte's UTF-16 units less 1, by its high nibble (bytewise sums wrap
 * modulo 256; a lane's total is in range) */
static const unsigned char u8k_t_units_less1[16] = {0,    0,    0,    0,    0, 0, 0, 0,
                                                    0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1};

U8K_INLINE void u8k_group_add(u8k_tally *t, const unsigned char *p, bool utf16, bool al)
{
    u8k_v a = u8k_load_al_if(p, al), b = u8k_load_al_if(p + VW, al);
    u8k_v c = u8k_load_al_if(p + 2 * VW, al), d = u8k_load_al_if(p + 3 * VW, al);
    /* some F0..FF (x - 70 keeps its high bit just for them): each byte's
     * UTF-16 units less 1 into units (cont is left as it is) */
    if (utf16 && v_high(v_subs(v_max(v_max(a, b), v_max(c, d)), v_splat(0x70))) != 0) {
        const u8k_v w = v_table(u8k_t_units_less1);
        t->units = v_add(v_add(v_add(v_add(t->units, v_lookup(w, v_shr4(a))),
                                     v_lookup(w, v_shr4(b))),
                               v_lookup(w, v_shr4(c))),
                         v_lookup(w, v_shr4(d)));
    } else {
        t->cont = v_inc_lt(v_inc_lt(v_inc_lt(v_inc_lt(t->cont, a, -64), b, -64), c, -64), d, -64);
    }
}

/* The count of each byte lane after `groups` groups (at most 31: 124
 * bytes a lane, 248 with the F0..FF counted twice) */
U8K_INLINE u8k_v u8k_group_total(const u8k_tally *t, unsigned groups)
{
    return v_add(v_subs(v_splat((unsigned char)(4 * groups)), t->cont), t->units);
}
#else
#define U8K_T_WEIGHT(X, f)                                                                 \
    X(1) X(1) X(1) X(1) X(1) X(1) X(1) X(1) X(0) X(0) X(0) X(0) X(1) X(1) X(1) X(f)
static const unsigned char u8k_t_weight64[64] = {U8K_T_WEIGHT(U8K_X4, 2)};

U8K_INLINE void u8k_group_add(u8k_tally *t, const unsigned char *p, bool utf16, bool al)
{
    const u8k_v w = v_load(u8k_t_weight64);
    u8k_v a = v_lookup_top6(w, v_load(p)), b = v_lookup_top6(w, v_load(p + VW));
    u8k_v c = v_lookup_top6(w, v_load(p + 2 * VW)), d = v_lookup_top6(w, v_load(p + 3 * VW));
    (void)utf16; /* (only called for it) */
    (void)al;
    t->units = v_add(t->units, v_add(v_add(a, b), v_add(c, d)));
}

U8K_INLINE u8k_v u8k_group_total(const u8k_tally *t, unsigned groups)
{
    (void)groups;
    return t->units;
}
#endif

/* The bytewise sums of the groups from s + *i on while a whole group is
 * left, 31 groups at a time, in 64-bit lanes; *i ends past the groups.
 * al: s + *i is a multiple of VW. */
U8K_INLINE u8k_v u8k_group_sums(const unsigned char *s, size_t len, size_t *i, bool utf16,
                                bool al)
{
    u8k_v sums = v_splat(0);
    while (*i + 4 * VW <= len) {
        size_t steps = (len - *i) / (4 * VW), k;
        u8k_tally t;
        t.cont = v_splat(0);
        t.units = v_splat(0);
        if (steps > 31)
            steps = 31;
        for (k = 0; k < steps; k++, *i += 4 * VW)
            u8k_group_add(&t, s + *i, utf16, al);
        sums = v_sad_add(sums, u8k_group_total(&t, (unsigned)steps));
    }
    return sums;
}

#ifndef U8K_OWN_VCHECK
U8K_INLINE size_t u8k_count_av(const unsigned char *s, size_t len, bool utf16, bool al)
{
    size_t i = 0;
    u8k_v sums = u8k_group_sums(s, len, &i, utf16, al);
    return (size_t)v_sum64(sums) + u8k_count_av_rest(s, i, len, utf16);
}
#else
/* The count of code points, 4 vectors a step by compares into masks. */
U8K_INLINE size_t u8k_count_av_gt(const unsigned char *s, size_t len)
{
    size_t i = 0, n = 0;
    for (; i + 4 * VW <= len; i += 4 * VW)
        n += (size_t)v_count_gt(v_load(s + i), -65) + v_count_gt(v_load(s + i + VW), -65) +
             v_count_gt(v_load(s + i + 2 * VW), -65) + v_count_gt(v_load(s + i + 3 * VW), -65);
    return n + u8k_count_av_rest(s, i, len, false);
}

U8K_INLINE size_t u8k_count_av(const unsigned char *s, size_t len, bool utf16, bool al)
{
    const u8k_v t = v_load(u8k_t_weight64);
    size_t i = 0;
    u8k_v sums;
    if (!utf16)
        return u8k_count_av_gt(s, len);
    sums = u8k_group_sums(s, len, &i, true, al);
    for (; i + VW <= len; i += VW)
        sums = v_sad_add(sums, v_lookup_top6(t, v_load(s + i)));
    /* the zero padding of the last part weighs 1 a byte */
    if (i < len)
        sums = v_sad_add(sums, v_lookup_top6(t, v_load_part(s + i, len - i)));
    return (size_t)v_sum64(sums) - (i < len ? VW - (len - i) : 0);
}
#endif

/* Both counts add up byte by byte, so a long input is counted as its
 * bytes up to the first VW-aligned address and the aligned rest. */
#if VW < 64
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "u8k_short_count_av reads the first byte of a word as its lowest"
#endif
/* u8k_count_av of 8 to 64 bytes with no branch on len: the words that
 * u8k_short_or reads (8 bytes at u8k_short_at(k, len)), each counted only
 * in its bytes from 8k on (the first 8k - min(8k, len - 8) are dropped: all
 * 8 once 8k >= len). A byte counts when it is not 10xxxxxx (bit 7 set,
 * bit 6 clear), and for UTF-16 once more when it is 1111xxxx. The
 * kernels with vectors under 64 bytes run on little-endian machines only
 * (the first byte is the lowest). */
U8K_INLINE size_t u8k_short_count_av(const unsigned char *s, size_t len, bool utf16)
{
    const uint64_t hi = UINT64_C(0x8080808080808080);
    size_t n = 0;
    unsigned k;
    for (k = 0; k < 8; k++) {
        size_t off = u8k_short_at(k, len), skip = 8 * (size_t)k - off;
        /* hi << 8 skip, or 0 once skip reaches 8, by arithmetic: gcc 12
         * made a branch of the conditional form */
        uint64_t keep = (hi << (8 * skip & 63)) & ((uint64_t)0 - (uint64_t)(skip < 8)), w, c;
        memcpy(&w, s + off, 8);
        c = keep & ~(w & ~(w << 1));
        /* the F0..FF bits moved to bit 6 of their bytes: one count for both */
        if (utf16)
            c |= (keep & w & w << 1 & w << 2 & w << 3) >> 1;
        n += (size_t)__builtin_popcountll(c);
    }
    return n;
}
#endif

static size_t simd_count_assume_valid(const unsigned char *s, size_t len, bool utf16)
{
    size_t h;
#if VW < 64
    if (len >= 8 && len <= 64)
        return u8k_short_count_av(s, len, utf16);
#endif
    h = (size_t)(-(uintptr_t)s % VW);
#ifdef U8K_AL_LOADS
    {
        /* one call of the aligned count, so that gcc inlines it once */
        size_t n = 0;
        if (len >= U8K_ALIGN_MIN && h > 0) {
            n = u8k_count_av(s, h, utf16, false);
            s += h;
            len -= h;
            h = 0;
        }
        if (h == 0)
            return n + u8k_count_av(s, len, utf16, true);
    }
#else
    if (len >= U8K_ALIGN_MIN && h > 0)
        return u8k_count_av(s, h, utf16, false) + u8k_count_av(s + h, len - h, utf16, true);
#endif
    return u8k_count_av(s, len, utf16, false);
}

#endif /* UTF8KIT_SIMD_VALIDATE_H */
