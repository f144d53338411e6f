/*
 * simd/compress_to_utf8.h - UTF-16 and UTF-32 to UTF-8 for AVX-512 (VBMI
 * multishift, VBMI2 compress, CD lzcnt). Included by
 * src/x86/kernels_avx512.c after simd/transcode.h. Ideas from
 * R. Clausecker and D. Lemire, "Transcoding Unicode Characters with
 * AVX-512 Instructions", Software: Practice and Experience 53(12), 2023,
 * in our own form:
 *
 * UTF-16 -> UTF-8 takes 32 units (64 bytes) per step:
 *  - all ASCII: narrow to 32 bytes, then ASCII runs 64 units at a time;
 *  - all below U+0800: each 16-bit lane becomes its 1 or 2 bytes in
 *    place, and one compress keeps the used ones (at most 64); such runs
 *    continue in a tight loop;
 *  - all 3 bytes (no surrogate): 32-bit lanes of 3 bytes, squeezed by
 *    two fixed byte permutes, no compress;
 *  - 16 aligned surrogate pairs: one multiply-add joins them, every lane
 *    takes 4 bytes, no compress;
 *  - otherwise the surrogates are checked once for the whole block by
 *    masks (every low one follows a high one; a high one in the last
 *    unit waits for the next step), the units are widened to 32-bit
 *    lanes, each pair is joined in the lane of its high half, and every
 *    lane becomes its 1 to 4 bytes (u8k_utf8_lanes), two compresses.
 * The last 1..31 units are one masked block of the same kind. Whole
 * registers are stored while the room allows; near its end the stores
 * are masked to the bytes produced and a block is stored only when all
 * its bytes fit, so nothing is written past the room. A block with an
 * unpaired surrogate, and one that does not fit, goes to the scalar
 * reference kernel, which gives the exact report; under REPLACE, in
 * ASCII text, unpaired surrogates go a block at a time (u8k_lone16).
 *
 * UTF-32 -> UTF-8 takes 32 values per step: below U+0800 their low halves
 * go as UTF-16 units do, all U+0800..FFFF as 3-byte blocks do, any other
 * mix of scalar values through the lane encoder, 16 lanes at a time. An
 * ASCII block, a block holding a non-scalar value and the last values
 * take 16 per step (ASCII runs 64 at a time).
 */
#ifndef UTF8KIT_SIMD_COMPRESS_TO_UTF8_H
#define UTF8KIT_SIMD_COMPRESS_TO_UTF8_H

#include "internal.h"
#include "simd/to_utf8_shift.h"

/* The low n bits set, n <= 64. */
#define U8K_LOW64(n) _bzhi_u64(~UINT64_C(0), (unsigned)(n))

/* Per leading-zero count (index: lzcnt mod 32) of a code point in a
 * 32-bit lane, the byte masks of its UTF-8 form when the four bytes of
 * the lane hold, lowest first, bits 18.., 12.., 6.. and 0.. of the value:
 * a character of k bytes uses the last k bytes of the lane.
 *   lz 25..32 (U+0000..007F):    0xxxxxxx                             FF
 *   lz 21..24 (U+0080..07FF):    110xxxxx 10xxxxxx                    9F BF
 *   lz 16..20 (U+0800..FFFF):    1110xxxx 10xxxxxx 10xxxxxx           8F BF BF
 *   lz 11..15 (U+10000..10FFFF): 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx  87 BF BF BF
 * (lz 1..10 cannot occur for a scalar value; lz 32, the value 0, wraps
 * to index 0.) A byte in use has its top bit set in the mask (the
 * marker bits cover it, or the value has it clear), one not in use is 0.
 * The marker bits of a byte are then its mask shifted left by one,
 * inverted, top 4 bits: 9F -> C0, 8F -> E0, 87 -> F0, BF -> 80, FF -> 00. */
#define U8K_K1 (int)0xFF000000u
#define U8K_K2 (int)0xBF9F0000u
#define U8K_K3 (int)0xBFBF8F00u
#define U8K_K4 (int)0xBFBFBF87u
/* _mm512_set_epi32 lists lanes 15 down to 0: the first table covers
 * indices 0..15, the second 16..31. */
#define U8K_BY_LZ_LO _mm512_set_epi32(U8K_K4, U8K_K4, U8K_K4, U8K_K4, U8K_K4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, U8K_K1)
#define U8K_BY_LZ_HI                                                                         \
    _mm512_set_epi32(U8K_K1, U8K_K1, U8K_K1, U8K_K1, U8K_K1, U8K_K1, U8K_K1, U8K_K2, U8K_K2,   \
                     U8K_K2, U8K_K2, U8K_K3, U8K_K3, U8K_K3, U8K_K3, U8K_K3)

/* The constants of the kernels below, made once per call. GCC would
 * otherwise rebuild the 16-bit ones inside the loop from a general
 * register (a broadcast that competes with the shuffles and compresses
 * for the same execution port); the empty asm makes each a value it
 * cannot rebuild, so it stays in a register. */
typedef struct u8k_to8 {
    __m512i x7f80, x7800, d800, w0080, sel2, k3fff, m80c0, bias, sel4, bylz_lo, bylz_hi, f0, even;
} u8k_to8;

#define U8K_PIN(x) __asm__("" : "+v"(x))

U8K_INLINE void u8k_to8_init(u8k_to8 *k)
{
    /* u + 7F80 (saturating) has its top bit set when u >= 0080, and
     * u + 7800 when u >= 0800: sign tests (VPMOVW2M) instead of compares,
     * which would compete for the shuffle port. */
    k->x7f80 = _mm512_set1_epi16(0x7F80);
    k->x7800 = _mm512_set1_epi16(0x7800);
    k->d800 = _mm512_set1_epi16((short)0xD800);
    k->w0080 = _mm512_set1_epi16(0x0080);
    /* Multishift selector giving each 16-bit lane bits 6.. (low byte)
     * and 0.. (high byte) of its unit. */
    k->sel2 = _mm512_set1_epi64(0x3036202610160006);
    k->k3fff = _mm512_set1_epi16(0x3FFF);
    k->m80c0 = _mm512_set1_epi16((short)0x80C0);
    /* 10000 - D800 * 400 - DC00: see u8k_utf16_block */
    k->bias = _mm512_set1_epi32(0x35FDC00);
    /* Multishift selector giving each 32-bit lane bits 18.., 12.., 6..
     * and 0.. of its value, lowest byte first (the upper lane of each
     * 64-bit word adds 32). */
    k->sel4 = _mm512_set1_epi64(0x20262C3200060C12);
    k->bylz_lo = U8K_BY_LZ_LO;
    k->bylz_hi = U8K_BY_LZ_HI;
    k->f0 = _mm512_set1_epi8((char)0xF0);
    /* Byte k: 2k, the first bytes of 32 + 32 units in two registers. */
    k->even = _mm512_set_epi8(126, 124, 122, 120, 118, 116, 114, 112, 110, 108, 106, 104, 102,
                              100, 98, 96, 94, 92, 90, 88, 86, 84, 82, 80, 78, 76, 74, 72, 70, 68,
                              66, 64, 62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34,
                              32, 30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    U8K_PIN(k->x7f80);
    U8K_PIN(k->x7800);
    U8K_PIN(k->d800);
    U8K_PIN(k->w0080);
    U8K_PIN(k->sel2);
    U8K_PIN(k->k3fff);
    U8K_PIN(k->m80c0);
    U8K_PIN(k->bias);
    U8K_PIN(k->sel4);
    U8K_PIN(k->f0);
}

/* The UTF-8 form of the code points in the 32-bit lanes of c selected by
 * `lanes` (scalar values), packed to the low bytes of the result; *n gets
 * its length (at most 64). */
U8K_INLINE __m512i u8k_utf8_lanes(const u8k_to8 *k, __m512i c, __mmask16 lanes, unsigned *n)
{
    __m512i keep = _mm512_maskz_permutex2var_epi32(lanes, k->bylz_lo, _mm512_lzcnt_epi32(c),
                                                   k->bylz_hi);
    __m512i mark = _mm512_andnot_si512(_mm512_slli_epi32(keep, 1), k->f0);
    __m512i bits = _mm512_multishift_epi64_epi8(k->sel4, c);
    /* (bits & keep) | mark: ternary-logic truth table with A = bits (F0),
     * B = keep (CC), C = mark (AA): (F0 & CC) | AA = EA. */
    __m512i out = _mm512_ternarylogic_epi32(bits, keep, mark, 0xEA);
    __mmask64 used = _mm512_movepi8_mask(keep);
    *n = (unsigned)_mm_popcnt_u64(used);
    return _mm512_maskz_compress_epi8(used, out);
}

/* Swaps the two bytes of every 16-bit unit (big-endian input). */
U8K_INLINE __m512i u8k_bswap16(__m512i v) { return _mm512_shldi_epi16(v, v, 8); }

/* Byte k: (b / 3) * 4 + b % 3 with b = base + k (bytes 64.. of the
 * second result only matter up to 95): output byte b of 3-byte forms
 * held in 4-byte slots of two registers. */
#define U8K_SQ(b) (((b) / 3 * 4 + (b) % 3) & 127)
#define U8K_SQ8(b) U8K_SQ((b) + 7), U8K_SQ((b) + 6), U8K_SQ((b) + 5), U8K_SQ((b) + 4), \
                   U8K_SQ((b) + 3), U8K_SQ((b) + 2), U8K_SQ((b) + 1), U8K_SQ(b)
#define U8K_SQUEEZE(base)                                                                   \
    _mm512_set_epi8(U8K_SQ8((base) + 56), U8K_SQ8((base) + 48), U8K_SQ8((base) + 40),        \
                    U8K_SQ8((base) + 32), U8K_SQ8((base) + 24), U8K_SQ8((base) + 16),        \
                    U8K_SQ8((base) + 8), U8K_SQ8(base))

/* The UTF-8 forms of 32 units below U+0800 (high: those from U+0080 on)
 * in place: each 16-bit lane gets 110xxxxx 10xxxxxx, first byte low, by
 * one multishift of bits 6.. and 0.. and a ternary (x & 3FFF) | 80C0
 * (truth table EA as in u8k_utf8_lanes); an ASCII lane keeps its unit.
 * *keep gets the bytes in use: the low byte of every lane (its top bit
 * set by the OR 0080) and the high byte of the 2-byte forms. */
U8K_INLINE __m512i u8k_two_lanes(const u8k_to8 *k, __m512i u, __mmask32 high, __mmask64 *keep)
{
    __m512i two = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(k->sel2, u), k->k3fff,
                                            k->m80c0, 0xEA);
    __m512i out = _mm512_mask_mov_epi16(u, high, two);
    *keep = _mm512_movepi8_mask(_mm512_or_si512(out, k->w0080));
    return out;
}

/* 32 code points U+0800..FFFF (no surrogates) in the 32-bit lanes of lo
 * and hi to their 96 bytes of UTF-8 at dst; writes 128 bytes, no
 * compress. Each lane gets E0 | c >> 12, 80 | c >> 6 & 3F, 80 | c & 3F in
 * its first three bytes (multishift of bits 12.., 6.., 0..; ternary
 * (x & mask) | marks, truth table EA), and two byte permutes of both
 * registers take 3 bytes of every 4. */
U8K_INLINE void u8k_three_lanes(__m512i lo, __m512i hi, unsigned char *dst)
{
    const __m512i sel3 = _mm512_set1_epi64(0x2020262C0000060C);
    const __m512i m3 = _mm512_set1_epi32(0x003F3F0F), t3 = _mm512_set1_epi32(0x008080E0);
    lo = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(sel3, lo), m3, t3, 0xEA);
    hi = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(sel3, hi), m3, t3, 0xEA);
    _mm512_storeu_si512((void *)dst, _mm512_permutex2var_epi8(lo, U8K_SQUEEZE(0), hi));
    _mm512_storeu_si512((void *)(dst + 64), _mm512_permutex2var_epi8(lo, U8K_SQUEEZE(64), hi));
}

/* What a block step did: bytes written, or one of these. */
#define U8K_BLOCK_SCALAR (-1) /* an unpaired surrogate: ask the scalar kernel */
#define U8K_BLOCK_FULL (-2)   /* its bytes do not fit in the room left */

/* Converts the units of u (32 host-order units, not all ASCII: high has
 * their non-ASCII ones) selected by `valid` (the low 1..32 bits; the
 * other units are 0) to dst, given room bytes of room. Returns the bytes
 * written and sets *used to the units converted (all valid ones, or one
 * less when the last of 32 is a high surrogate; *two_bytes says whether
 * all were below U+0800), or returns
 * U8K_BLOCK_SCALAR / U8K_BLOCK_FULL having written nothing beyond the
 * room. With room to spare (64 or 128 bytes), whole registers are stored
 * and the bytes past those reported are left undefined. */
U8K_INLINE int u8k_utf16_block(const u8k_to8 *k, __m512i u, __mmask32 high, __mmask32 valid,
                               unsigned char *dst, size_t room, unsigned *used, bool *two_bytes)
{
    unsigned count = (unsigned)_mm_popcnt_u32(valid);
    __mmask32 big, sur, hs, ls, lanes;
    __m512i lo, hi, x, y;
    unsigned n1, n2;
    big = _mm512_movepi16_mask(_mm512_adds_epu16(u, k->x7800));
    if (!big) {
        /* all below U+0800: 1 or 2 bytes in each lane, one compress */
        __mmask64 keep;
        __m512i out = u8k_two_lanes(k, u, high, &keep);
        unsigned n;
        if (count < 32)
            keep &= U8K_LOW64(2 * count);
        n = (unsigned)_mm_popcnt_u64(keep);
        x = _mm512_maskz_compress_epi8(keep, out);
        if (U8K_LIKELY(room >= 64)) {
            _mm512_storeu_si512((void *)dst, x);
        } else {
            if (room < n)
                return U8K_BLOCK_FULL;
            _mm512_mask_storeu_epi8(dst, U8K_LOW64(n), x);
        }
        *used = count;
        *two_bytes = true;
        return (int)n;
    }
    *two_bytes = false;
    /* Surrogates: D800..DFFF, i.e. (u ^ D800) < 0800; the low ones
     * DC00..DFFF have bit 0400 (moved to the top by a shift of 5). */
    sur = ~_mm512_movepi16_mask(_mm512_adds_epu16(_mm512_xor_si512(u, k->d800), k->x7800));
    lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u));
    hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1));
    lanes = valid;
    if (big == 0xFFFFFFFFu && !sur && room >= 128) {
        /* 32 units of 3 bytes: no compress */
        u8k_three_lanes(lo, hi, dst);
        *used = 32;
        return 96;
    }
    if (sur) {
        /* Well paired when every low one follows a high one: ls is hs
         * moved up one unit, once a high one in unit 31 is left for the
         * next step. The value of a pair (h, l) is
         * 10000 + (h - D800) * 400 + (l - DC00) = h * 400 + l - 35FDC00. */
        ls = sur & _mm512_movepi16_mask(_mm512_slli_epi16(u, 5));
        hs = sur & ~ls;
        if (sur == 0xFFFFFFFFu && ls == 0xAAAAAAAAu) {
            /* 16 pairs, each in one 32-bit lane (high half first). The
             * multiply-add of the signed halves (h - 10000) * 400 +
             * (l - 10000) is h * 400 + l - 4010000, and the value is
             * h * 400 + l - 35FDC00: add 4010000 - 35FDC00 = A12400.
             * Every lane takes 4 bytes: no compress. */
            __m512i c = _mm512_add_epi32(_mm512_madd_epi16(u, _mm512_set1_epi32(0x00010400)),
                                         _mm512_set1_epi32(0xA12400));
            if (room < 64)
                return U8K_BLOCK_FULL;
            _mm512_storeu_si512((void *)dst, _mm512_ternarylogic_epi32(
                                                 _mm512_multishift_epi64_epi8(k->sel4, c),
                                                 _mm512_set1_epi32(U8K_K4),
                                                 _mm512_set1_epi32((int)0x808080F0u), 0xEA));
            *used = 32;
            return 64;
        }
        {
            /* without a branch: which case it is varies from block to
             * block in text full of pairs */
            __mmask32 last = hs & 0x80000000u;
            hs ^= last;
            lanes ^= last;
            count -= last >> 31;
        }
        if (ls != (__mmask32)(hs << 1))
            return U8K_BLOCK_SCALAR;
        lanes &= ~ls;
        x = _mm512_sub_epi32(_mm512_alignr_epi32(hi, lo, 1), k->bias);
        y = _mm512_sub_epi32(_mm512_alignr_epi32(hi, hi, 1), k->bias);
        lo = _mm512_mask_add_epi32(lo, (__mmask16)hs, _mm512_slli_epi32(lo, 10), x);
        hi = _mm512_mask_add_epi32(hi, (__mmask16)(hs >> 16), _mm512_slli_epi32(hi, 10), y);
    }
    x = u8k_utf8_lanes(k, lo, (__mmask16)lanes, &n1);
    y = u8k_utf8_lanes(k, hi, (__mmask16)(lanes >> 16), &n2);
    if (U8K_LIKELY(room >= 128)) {
        _mm512_storeu_si512((void *)dst, x);
        _mm512_storeu_si512((void *)(dst + n1), y);
    } else {
        if (room < n1 + n2)
            return U8K_BLOCK_FULL;
        _mm512_mask_storeu_epi8(dst, U8K_LOW64(n1), x);
        _mm512_mask_storeu_epi8(dst + n1, U8K_LOW64(n2), y);
    }
    *used = count;
    return (int)(n1 + n2);
}

/* Under U8K_REPL, at a block of the block loop with an unpaired
 * surrogate: the blocks of 32 units from src[0] (src[-1] is no high
 * surrogate waiting for its low half) whose only units from 0080 up are
 * unpaired surrogates, 16 at most, each one U+FFFD: the units narrowed
 * to bytes, spread by one expand so that each unpaired one gets three
 * places, and EF BF BD put in there. Up to U8K_LONE_QUIET blocks of
 * ASCII in a row go too. The unit after a block is read (a high
 * surrogate in its last unit pairs with it), so a block here never ends
 * the input. Returns status OK, read where the blocks stopped (0: none
 * taken; else a character start), written, replaced; the result of the
 * scalar kernel, so that the block loop takes either alike. */
static U8K_NOINLINE utf8kit_result u8k_lone16(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, bool be)
{
    size_t i = 0, o = 0, rep = 0;
    unsigned quiet = 0;
    const __m512i x7f80 = _mm512_set1_epi16(0x7F80), fc00 = _mm512_set1_epi16((short)0xFC00);
    while (len - i > 32 && cap - o >= 64) {
        __m512i u = _mm512_loadu_si512((const void *)(src + i)), t, out;
        uint32_t high, hs, ls, lone;
        uint64_t keep, ef;
        unsigned next = src[i + 32], k, q;
        if (be) {
            u = u8k_bswap16(u);
            next = (next >> 8 | next << 8) & 0xFFFFu;
        }
        high = (uint32_t)_mm512_movepi16_mask(_mm512_adds_epu16(u, x7f80));
        if (high == 0) {
            if (++quiet > U8K_LONE_QUIET)
                break;
            _mm256_storeu_si256((__m256i *)(void *)(dst + o), _mm512_cvtepi16_epi8(u));
            i += 32;
            o += 32;
            continue;
        }
        t = _mm512_and_si512(u, fc00);
        hs = (uint32_t)_mm512_cmpeq_epi16_mask(t, _mm512_set1_epi16((short)0xD800));
        ls = (uint32_t)_mm512_cmpeq_epi16_mask(t, _mm512_set1_epi16((short)0xDC00));
        /* high halves with no low one after them, low halves with no high
         * one before them */
        lone = (hs & ~(ls >> 1 | (uint32_t)((next & 0xFC00u) == 0xDC00u) << 31)) |
               (ls & ~(hs << 1));
        k = (unsigned)__builtin_popcount(lone);
        if ((high & ~lone) != 0 || k > 16)
            break;
        /* each unpaired unit j (the q-th) starts at byte j + 2q: its two
         * bytes after are left out of the expand */
        keep = U8K_LOW64(32 + 2 * k);
        ef = 0;
        for (q = 0; lone != 0; lone &= lone - 1, q++) {
            unsigned p = (unsigned)__builtin_ctz(lone) + 2 * q;
            keep &= ~(UINT64_C(6) << p);
            ef |= UINT64_C(1) << p;
        }
        out = _mm512_maskz_expand_epi8(keep, _mm512_castsi256_si512(_mm512_cvtepi16_epi8(u)));
        out = _mm512_mask_mov_epi8(out, ef, _mm512_set1_epi8((char)0xEF));
        out = _mm512_mask_mov_epi8(out, ef << 1, _mm512_set1_epi8((char)0xBF));
        out = _mm512_mask_mov_epi8(out, ef << 2, _mm512_set1_epi8((char)0xBD));
        _mm512_storeu_si512((void *)(dst + o), out);
        i += 32;
        o += 32 + 2 * k;
        rep += k;
        quiet = 0;
    }
    return u8k_res_rep(UTF8KIT_OK, i, o, rep);
}

/* The kernel, for one byte order (be is a constant in each caller). */
U8K_INLINE utf8kit_result u8k_utf16_to_utf8_512(const uint16_t *src, size_t len, unsigned char *dst,
                                                size_t cap, unsigned flags, bool be)
{
    size_t i = 0, o = 0, rep = 0;
    utf8kit_result r;
    u8k_to8 k;
    /* For ASCII runs, on the units as they are in memory: the bits that
     * must be clear, and the byte to keep of each unit. */
    __m512i run_test = be ? _mm512_set1_epi16((short)0x80FF) : _mm512_set1_epi16((short)0xFF80);
    __m512i run_pick;
    u8k_to8_init(&k);
    run_pick = be ? _mm512_add_epi8(k.even, _mm512_set1_epi8(1)) : k.even;
    for (;;) {
        __m512i u;
        __mmask32 valid = ~(__mmask32)0, high;
        unsigned used;
        bool two_bytes;
        int n;
        if (len - i >= 32) {
            u = _mm512_loadu_si512((const void *)(src + i));
        } else if (i < len) {
            /* The last units: a masked load reads only them. */
            valid = (__mmask32)_bzhi_u32(~0u, (unsigned)(len - i));
            u = _mm512_maskz_loadu_epi16(valid, (const void *)(src + i));
        } else {
            return u8k_res_rep(UTF8KIT_OK, i, o, rep);
        }
        if (be)
            u = u8k_bswap16(u);
        high = _mm512_movepi16_mask(_mm512_adds_epu16(u, k.x7f80));
        if (!high) {
            unsigned count = (unsigned)_mm_popcnt_u32(valid);
            if (cap - o < count)
                goto full;
            _mm256_mask_storeu_epi8(dst + o, valid, _mm512_cvtepi16_epi8(u));
            i += count;
            o += count;
            /* A run of ASCII: 64 units at a time, their low bytes (the
             * second byte of each unit when big-endian) picked from two
             * registers. */
            while (len - i >= 64 && cap - o >= 64) {
                __m512i a = _mm512_loadu_si512((const void *)(src + i));
                __m512i b = _mm512_loadu_si512((const void *)(src + i + 32));
                if (_mm512_test_epi16_mask(_mm512_or_si512(a, b), run_test))
                    break;
                _mm512_storeu_si512((void *)(dst + o), _mm512_permutex2var_epi8(a, run_pick, b));
                i += 64;
                o += 64;
            }
            continue;
        }
        n = u8k_utf16_block(&k, u, high, valid, dst + o, cap - o, &used, &two_bytes);
        if (U8K_LIKELY(n >= 0)) {
            i += used;
            o += (unsigned)n;
            /* A run below U+0800 (ASCII included): whole blocks of 32 in
             * a tight loop, as in u8k_utf16_block. */
            while (two_bytes && len - i >= 32 && cap - o >= 64) {
                __m512i out;
                __mmask64 keep;
                u = _mm512_loadu_si512((const void *)(src + i));
                if (be)
                    u = u8k_bswap16(u);
                if (_mm512_movepi16_mask(_mm512_adds_epu16(u, k.x7800)))
                    break;
                high = _mm512_movepi16_mask(_mm512_adds_epu16(u, k.x7f80));
                out = u8k_two_lanes(&k, u, high, &keep);
                _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi8(keep, out));
                i += 32;
                o += (size_t)_mm_popcnt_u64(keep);
            }
            continue;
        }
        if (n == U8K_BLOCK_SCALAR) {
            /* An unpaired surrogate in the next 32 units: the scalar
             * kernel reports it (under U8K_TRUSTED it replaces it and we
             * go on; under U8K_REPL we do). */
            size_t j;
            if ((flags & U8K_REPL) && _mm_popcnt_u32(high) <= 8) {
                /* in ASCII text, u8k_lone16 from here (Latin with an
                 * unpaired surrogate every 97 or 100 units: 1.65-2.3x as
                 * fast; 2-byte scripts with one every 100, where it is
                 * never called: 0.93-0.98x, from the code's layout) */
                r = u8k_lone16(src + i, len - i, dst + o, cap - o, be);
                if (r.read != 0) {
                    i += r.read;
                    o += r.written;
                    rep += r.replaced;
                    continue;
                }
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
            /* An error: should the stretch have cut a bad sequence short
             * (a high surrogate before the high one it stopped at), the
             * rest of the input, whole, gives the report. */
            goto full;
        }
        goto full;
    }
full:
    /* The room runs out within this block, or an error needs the
     * scalar kernel's report on the whole rest. */
    r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift_rep(r, i, o, rep);
}

/* Whether the len <= 32 units at src are all ASCII, and then they are
 * stored as bytes at dst (room for them known): one masked load, one
 * test, one narrowing masked store, no branch on the length (the block
 * loop's set-up and its last masked step cost a short call more). */
U8K_INLINE bool u8k_short_ascii16_512(const uint16_t *src, size_t len, unsigned char *dst, bool be)
{
    __mmask32 m = (__mmask32)_bzhi_u32(0xFFFFFFFFu, (unsigned)len);
    __m512i u = _mm512_maskz_loadu_epi16(m, (const void *)src);
    if (_mm512_test_epi16_mask(u, _mm512_set1_epi16(be ? (short)0x80FF : (short)0xFF80)))
        return false;
    if (be)
        u = _mm512_srli_epi16(u, 8);
    _mm256_mask_storeu_epi8((void *)dst, m, _mm512_cvtepi16_epi8(u));
    return true;
}

static utf8kit_result u8k_utf16_to_utf8_vbmi2(const uint16_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    if (len <= 32 && cap >= len && u8k_short_ascii16_512(src, len, dst, (flags & U8K_BE) != 0))
        return u8k_res(UTF8KIT_OK, len, len, 0);
    if (flags & U8K_BE)
        return u8k_utf16_to_utf8_512(src, len, dst, cap, flags, true);
    return u8k_utf16_to_utf8_512(src, len, dst, cap, flags, false);
}

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_utf16_to_utf8_vbmi2(const uint16_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    return u8k_split16(u8k_utf16_to_utf8_vbmi2, src, len, dst, cap, flags);
}

/* UTF-32 -> UTF-8, 32 values per step where they are all scalar values
 * and not all ASCII, else 16 (the last 1..15 one masked step);
 * a block holding a surrogate or a value above 10FFFF goes to the scalar
 * kernel (which reports it), as does one that does not fit. After an
 * ASCII block, ASCII runs go 64 values at a time. */
static utf8kit_result u8k_utf32_to_utf8_vbmi2(const uint32_t *src, size_t len, unsigned char *dst,
                                              size_t cap, unsigned flags)
{
    size_t i = 0, o = 0, rep = 0;
    utf8kit_result r;
    u8k_to8 k;
    /* Byte k < 32: 4k, the low bytes of 16 + 16 values in two registers. */
    const __m512i quad = _mm512_set_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 124, 120, 116, 112,
                                         108, 104, 100, 96, 92, 88, 84, 80, 76, 72, 68, 64, 60, 56,
                                         52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0);
    u8k_to8_init(&k);
    while (i < len) {
        __mmask16 valid = 0xFFFF;
        __m512i c, x;
        unsigned n, count = 16;
        if (len - i >= 32 && cap - o >= 128) {
            /* 32 values a step unless all are ASCII or one is not a
             * scalar value (those go 16 at a time below): below U+0800,
             * their low halves are encoded as UTF-16 units are, one
             * compress; all U+0800..FFFF, no compress; else two
             * compresses of 16 lanes. */
            __m512i c0 = _mm512_loadu_si512((const void *)(src + i));
            __m512i c1 = _mm512_loadu_si512((const void *)(src + i + 16));
            __m512i any = _mm512_or_si512(c0, c1);
            unsigned n1;
            if (!_mm512_test_epi32_mask(any, _mm512_set1_epi32((int)0xFFFFFF80u)))
                goto sixteen;
            if (!_mm512_test_epi32_mask(any, _mm512_set1_epi32((int)0xFFFF0000u))) {
                __m512i u = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(c0)),
                                               _mm512_cvtepi32_epi16(c1), 1);
                __mmask32 big = _mm512_movepi16_mask(_mm512_adds_epu16(u, k.x7800));
                if (!big) {
                    __mmask64 keep;
                    __m512i out = u8k_two_lanes(
                        &k, u, _mm512_movepi16_mask(_mm512_adds_epu16(u, k.x7f80)), &keep);
                    _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi8(keep, out));
                    i += 32;
                    o += (size_t)_mm_popcnt_u64(keep);
                    continue;
                }
                /* a surrogate: (u ^ D800) < 0800 */
                if (~_mm512_movepi16_mask(_mm512_adds_epu16(_mm512_xor_si512(u, k.d800), k.x7800)))
                    goto sixteen;
                if (big == 0xFFFFFFFFu) {
                    u8k_three_lanes(c0, c1, dst + o);
                    i += 32;
                    o += 96;
                    continue;
                }
            } else if (_mm512_cmplt_epu32_mask(_mm512_sub_epi32(c0, _mm512_set1_epi32(0xD800)),
                                               _mm512_set1_epi32(0x800)) |
                       _mm512_cmplt_epu32_mask(_mm512_sub_epi32(c1, _mm512_set1_epi32(0xD800)),
                                               _mm512_set1_epi32(0x800)) |
                       _mm512_cmpgt_epu32_mask(_mm512_max_epu32(c0, c1),
                                               _mm512_set1_epi32(0x10FFFF))) {
                goto sixteen;
            }
            x = u8k_utf8_lanes(&k, c0, 0xFFFF, &n1);
            _mm512_storeu_si512((void *)(dst + o), x);
            x = u8k_utf8_lanes(&k, c1, 0xFFFF, &n);
            _mm512_storeu_si512((void *)(dst + o + n1), x);
            i += 32;
            o += n1 + n;
            continue;
        }
    sixteen:
        if (len - i >= 16) {
            c = _mm512_loadu_si512((const void *)(src + i));
        } else {
            count = (unsigned)(len - i);
            valid = (__mmask16)_bzhi_u32(~0u, count);
            c = _mm512_maskz_loadu_epi32(valid, (const void *)(src + i));
        }
        if (!_mm512_test_epi32_mask(c, _mm512_set1_epi32((int)0xFFFFFF80u))) {
            if (cap - o < count)
                break;
            _mm_mask_storeu_epi8(dst + o, valid, _mm512_cvtepi32_epi8(c));
            i += count;
            o += count;
            while (len - i >= 64 && cap - o >= 64) {
                const __m512i *p = (const __m512i *)(const void *)(src + i);
                __m512i a = _mm512_loadu_si512((const void *)p);
                __m512i b = _mm512_loadu_si512((const void *)(p + 1));
                __m512i e = _mm512_loadu_si512((const void *)(p + 2));
                __m512i f = _mm512_loadu_si512((const void *)(p + 3));
                /* a | b | e | f: truth table FE for three inputs */
                __m512i any = _mm512_ternarylogic_epi32(_mm512_or_si512(a, b), e, f, 0xFE);
                if (_mm512_test_epi32_mask(any, _mm512_set1_epi32((int)0xFFFFFF80u)))
                    break;
                a = _mm512_permutex2var_epi8(a, quad, b);
                e = _mm512_permutex2var_epi8(e, quad, f);
                _mm512_storeu_si512((void *)(dst + o),
                                    _mm512_inserti64x4(a, _mm512_castsi512_si256(e), 1));
                i += 64;
                o += 64;
            }
            continue;
        }
        /* c - D800 < 800 (a surrogate), or c > 10FFFF */
        if (_mm512_cmplt_epu32_mask(_mm512_sub_epi32(c, _mm512_set1_epi32(0xD800)),
                                    _mm512_set1_epi32(0x800)) |
            _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF))) {
            size_t j = len - i > 16 ? i + 16 : len;
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
        x = u8k_utf8_lanes(&k, c, valid, &n);
        if (U8K_LIKELY(cap - o >= 64)) {
            _mm512_storeu_si512((void *)(dst + o), x);
        } else {
            if (cap - o < n)
                break;
            _mm512_mask_storeu_epi8(dst + o, U8K_LOW64(n), x);
        }
        i += count;
        o += n;
    }
    /* the end, or a block that does not fit: the scalar kernel */
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_to8_shift_rep(r, i, o, rep);
}

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_utf32_to_utf8_vbmi2(const uint32_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    return u8k_split32(u8k_utf32_to_utf8_vbmi2, src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_COMPRESS_TO_UTF8_H */
