/*
 * simd/compress.h - transcoding for instruction sets with a byte
 * permutation over a whole register and compress (AVX-512 VBMI + VBMI2).
 * Written once here; src/x86/kernels_avx512.c includes it after
 * simd/validate.h and simd/transcode.h. Ideas from R. Clausecker and
 * D. Lemire, "Transcoding Unicode Characters with AVX-512 Instructions",
 * Software: Practice and Experience 53(12), 2023, in our own form:
 *
 * UTF-8 -> UTF-16 and UTF-32 run in 64-byte blocks at a fixed stride from
 * the start of the input, so the next block's position never waits for
 * this one's data: a character is converted in the block holding its
 * last byte (for UTF-16, a 4-byte character's high surrogate in the block
 * holding its third byte). Every byte is decoded as the possible end of
 * a character, seeing the bytes one, two and three places before it
 * (from the block before when it wraps; the validator's shifts,
 * u8k_vprevs, give them to the check and the decoding at once); compress
 * keeps the real ends. Each block is checked against the one before it
 * by the lookup validator of simd/validate.h in the same pass. ASCII at
 * the start of the input is widened before the block loop, with aligned
 * stores (u8k_ascii_front); in the loop a run of all-ASCII blocks is
 * widened in a loop of its own, and needs only the check that the block
 * before it ended a character. A block of ASCII and
 * 2-byte characters only, or of ASCII and 3-byte ones only (most text in
 * most scripts), is checked by the few rules that can fail there, on the
 * masks of its byte classes, and decoded without the cases it cannot
 * hold. Text of 4-byte characters alone goes 16 characters a step from a
 * character start (u8k_four_run), not byte by byte in blocks. The last
 * 0..63 bytes (all of a short input) are one masked block,
 * whose zero padding the check sees as the end of the input. An error, or
 * too little room, hands the rest to the scalar reference kernel from the
 * end of the last character stored, which then also gives the exact error
 * report.
 *
 * UTF-16/32 -> UTF-8 are in simd/compress_to_utf8.h, Latin-1 <-> UTF-8 in
 * simd/latin1_avx512.h.
 */
#ifndef UTF8KIT_SIMD_COMPRESS_H
#define UTF8KIT_SIMD_COMPRESS_H

#include "internal.h"

U8K_INLINE __m512i u8k_swap16(__m512i v) { return _mm512_or_si512(_mm512_slli_epi16(v, 8), _mm512_srli_epi16(v, 8)); }

/* The byte classes of a block and of the block before it (p...): bytes
 * 80..FF, C0..DF, E0..FF, F0..FF. */
typedef struct {
    uint64_t high, m2, e0, f4;
    uint64_t pm2, pe0, pf4;
} u8k_classes;

/* The bytes of a block and what the fixed-stride decoding needs of them:
 * for block cur, p1, p2, p3 are its bytes one, two and three places
 * earlier in the stream (from the block before, prev). */
typedef struct {
    __m512i lo, hi;  /* low and high byte of the unit ending at each byte */
    __m512i top;     /* UTF-32 only: bits 16..20 (4-byte characters) */
    uint64_t e;      /* the bytes that end a unit */
    uint64_t hs;     /* UTF-16 only: the ends that are a high surrogate */
} u8k_units;

/* Decodes block cur (after prev) as in the header comment: every byte
 * gets the value of the character that would end at it, and e marks the
 * real ends; c gives the byte classes of cur and prev. four: the block or
 * the last 3 bytes of prev may hold bytes F0..FF (otherwise the 4-byte
 * work is left out). wide: UTF-32 (the value of a
 * 4-byte character at its last byte), else UTF-16 (its high surrogate at
 * its third byte, its low one at its last). On valid text (every byte up
 * to the end of cur checked) the ends are exactly the bytes where a unit
 * is complete, at most one unit per byte.
 *   ASCII b:                       b
 *   2nd byte of 2:                 (p1 & 1F) << 6 | (b & 3F)
 *   3rd byte of 3:                 (p2 & 0F) << 12 | (p1 & 3F) << 6 | (b & 3F)
 *   4th byte of 4 (UTF-32):        (p3 & 07) << 18 | (p2 & 3F) << 12 | (p1 & 3F) << 6 | (b & 3F)
 *   3rd byte of 4 (UTF-16):        D7C0 + ((p2 & 07) << 8 | (p1 & 3F) << 2 | (b >> 4) & 3)
 *   4th byte of 4 (UTF-16):        DC00 | (p1 & 0F) << 6 | (b & 3F)
 * (the high surrogate D800 + (v - 10000) >> 10 is D7C0 + v >> 10; the low
 * one keeps the low 10 bits of v). The low byte is (p1 & 3) << 6 | (b &
 * 3F) in every multibyte case but the high surrogate; the high byte is
 * (p1 >> 2) & 7 for 2 bytes, (p2 & 0F) << 4 | (p1 >> 2) & 0F for 3 bytes
 * and for the 4th byte in UTF-32, DC | (p1 >> 2) & 3 for a low surrogate. */
U8K_INLINE u8k_units u8k_decode_block(__m512i cur, __m512i p1, __m512i p2, __m512i p3,
                                      const u8k_classes *c, bool four, bool wide)
{
    const __m512i m3f = v_splat_k(0x3F);
    u8k_units u;
    /* The byte classes one, two, three places back, from the masks of cur
     * and prev (no vector compare). */
    __mmask64 ascii = ~c->high;
    __mmask64 tail = c->high & ~c->e0 & ~c->m2;
    __mmask64 lead2 = c->m2 << 1 | c->pm2 >> 63;
    __mmask64 third4 = c->f4 << 2 | c->pf4 >> 62;
    __mmask64 lead3 = c->e0 << 2 | c->pe0 >> 62;
    /* 16-bit shifts leak bits between bytes: each mask keeps only the
     * bits that come from the byte's own value. */
    __m512i lo = _mm512_or_si512(_mm512_and_si512(cur, m3f),
                                 _mm512_and_si512(_mm512_slli_epi16(p1, 6),
                                                  v_splat_k((unsigned char)0xC0)));
    __m512i h2 = _mm512_and_si512(_mm512_srli_epi16(p1, 2), v_splat_k(0x07));
    __m512i h3 = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(p1, 2), v_splat_k(0x0F)),
                                 _mm512_and_si512(_mm512_slli_epi16(p2, 4),
                                                  v_splat_k((unsigned char)0xF0)));
    __m512i hi = _mm512_mask_mov_epi8(h3, lead2, h2);
    u.hs = 0;
    u.top = _mm512_setzero_si512();
    if (four) {
        __mmask64 lead4 = c->f4 << 3 | c->pf4 >> 61;
        if (wide) {
            /* (p3 & 7) << 2 | (p2 >> 4) & 3 at the 4th byte; the 3rd byte
             * ends nothing */
            u.top = _mm512_maskz_mov_epi8(
                lead4, _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi16(p3, 2),
                                                        v_splat_k(0x1C)),
                                       _mm512_and_si512(_mm512_srli_epi16(p2, 4),
                                                        v_splat_k(0x03))));
            lead3 &= ~third4;
        } else {
            /* x = (p1 & 3F) << 2 | (b >> 4) & 3, the low byte of v >> 10;
             * D7C0 + (p2 & 7) << 8 + x: low byte x + C0, high byte D7 +
             * (p2 & 7), plus 1 when x + C0 carries (x >= 40) */
            __m512i x = _mm512_or_si512(
                _mm512_and_si512(_mm512_slli_epi16(p1, 2), v_splat_k((unsigned char)0xFC)),
                _mm512_and_si512(_mm512_srli_epi16(cur, 4), v_splat_k(0x03)));
            __mmask64 carry = _mm512_cmpge_epu8_mask(x, v_splat_k(0x40));
            __m512i hh = _mm512_add_epi8(_mm512_and_si512(p2, v_splat_k(0x07)),
                                         v_splat_k((unsigned char)0xD7));
            hh = _mm512_mask_add_epi8(hh, carry, hh, v_splat_k(1));
            lo = _mm512_mask_add_epi8(lo, third4, x, v_splat_k((unsigned char)0xC0));
            hi = _mm512_mask_mov_epi8(hi, third4, hh);
            hi = _mm512_mask_mov_epi8(
                hi, lead4,
                _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(p1, 2), v_splat_k(0x03)),
                                v_splat_k((unsigned char)0xDC)));
            u.hs = third4 & tail;
        }
        lead3 |= lead4;
    }
    u.lo = _mm512_mask_mov_epi8(lo, ascii, cur);
    u.hi = _mm512_maskz_mov_epi8(~ascii, hi);
    u.e = ascii | (tail & (lead2 | lead3));
    return u;
}

/* Byte 2j: j, byte 2j + 1: 64 + j (j = 0..31): with vpermt2b over (lo,
 * hi) the 16-bit lanes lo[j] | hi[j] << 8 for the first 32 bytes... */
#define U8K_ZIP_LO                                                                         \
    _mm512_set_epi8(95, 31, 94, 30, 93, 29, 92, 28, 91, 27, 90, 26, 89, 25, 88, 24, 87, 23, \
                    86, 22, 85, 21, 84, 20, 83, 19, 82, 18, 81, 17, 80, 16, 79, 15, 78, 14, \
                    77, 13, 76, 12, 75, 11, 74, 10, 73, 9, 72, 8, 71, 7, 70, 6, 69, 5, 68, 4, \
                    67, 3, 66, 2, 65, 1, 64, 0)
/* ...and j + 32 for the last 32. */
#define U8K_ZIP_HI _mm512_add_epi8(U8K_ZIP_LO, _mm512_set1_epi8(32))

/* A valid block of bytes 00..DF after a block that ends a character or
 * starts a 2-byte one (high marks the bytes 80..DF, tail those 80..BF; p1
 * as in u8k_decode_block) does not need the byte planes of
 * u8k_decode_block: the unit ending at byte b with the byte a before it
 * is 64a + b - 3080 both for a tail after a lead a = C0 + x (64x + b - 80)
 * and for ASCII b when a is set to C2 (C2 * 64 = 3080). So u.lo keeps the
 * block and u.hi the byte before each byte, C2 before ASCII, and
 * u8k_store_two packs the ends of both first and computes then. */
U8K_INLINE u8k_units u8k_decode_two(__m512i cur, __m512i p1, uint64_t high, uint64_t tail)
{
    u8k_units u;
    u.lo = cur;
    u.hi = _mm512_mask_mov_epi8(p1, ~high, _mm512_set1_epi8((char)0xC2));
    u.top = _mm512_setzero_si512();
    u.e = ~(high & ~tail); /* all but the leads */
    u.hs = 0;
    return u;
}

/* u8k_decode_block for a valid block of bytes 00..BF and E0..EF after a
 * block that ends a character or starts a 3-byte one: high marks the
 * bytes 80..FF, ends3 the tails two after a lead; p1, p2 as there. */
U8K_INLINE u8k_units u8k_decode_three(__m512i cur, __m512i p1, __m512i p2, uint64_t high,
                                      uint64_t ends3)
{
    u8k_units u;
    __m512i lo = _mm512_or_si512(_mm512_and_si512(cur, v_splat_k(0x3F)),
                                 _mm512_and_si512(_mm512_slli_epi16(p1, 6),
                                                  v_splat_k((unsigned char)0xC0)));
    __m512i hi = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(p1, 2), v_splat_k(0x0F)),
                                 _mm512_and_si512(_mm512_slli_epi16(p2, 4),
                                                  v_splat_k((unsigned char)0xF0)));
    u.lo = _mm512_mask_mov_epi8(lo, ~high, cur);
    u.hi = _mm512_maskz_mov_epi8(high, hi);
    u.top = _mm512_setzero_si512();
    u.e = ~high | ends3;
    u.hs = 0;
    return u;
}

/* 32-bit lane j: bytes j, 64 + j, j, 0: with vpermt2b over (lo, hi)
 * bytes 0 and 1 are lo[j] and hi[j], with vpermb over top byte 2 is
 * top[j] (an index reads its low 6 bits there). */
#define U8K_GATHER32                                                                       \
    _mm512_set_epi32(0x0F4F0F, 0x0E4E0E, 0x0D4D0D, 0x0C4C0C, 0x0B4B0B, 0x0A4A0A, 0x094909,   \
                     0x084808, 0x074707, 0x064606, 0x054505, 0x044404, 0x034303, 0x024202,   \
                     0x014101, 0x004000)

/* The first n (<= 16) 32-bit lanes of v to d: all 16 when !exact (room
 * for them is known), else exactly n. */
U8K_INLINE void u8k_put32(uint32_t *d, __m512i v, unsigned n, bool exact)
{
    if (exact)
        _mm512_mask_storeu_epi32(d, (__mmask16)_bzhi_u32(0xFFFFu, n), v);
    else
        _mm512_storeu_si512((void *)d, v);
}

U8K_INLINE void u8k_put16(uint16_t *d, __m512i v, unsigned n, bool exact)
{
    if (exact)
        _mm512_mask_storeu_epi16(d, _bzhi_u32(0xFFFFFFFFu, n), v);
    else
        _mm512_storeu_si512((void *)d, v);
}

/* The exact stores (the last block of a long input; a short input with
 * less than 64 units of room, see u8k_last_block) test nothing about the
 * number of units: a masked store whose mask is zero writes nothing and
 * cannot fault, and with lengths that vary from call to call a branch on
 * them is mispredicted about every other time, which costs more than the
 * stores it would skip. */

/* Stores the units of a block decoded by u8k_decode_two whose end is in e
 * and returns their number, as u8k_store_units32/16. The ends of u.lo and u.hi
 * are packed by one byte compress each; byte pairs (b, a) are then zipped
 * into 16-bit lanes (units 0..31 and 32..63, or 16 at a time into 32-bit
 * lanes for UTF-32) where one multiply-add forms b + 64a. */
U8K_INLINE unsigned u8k_store_two(const u8k_units *u, uint64_t e, void *dst, bool wide, bool be,
                                  bool exact)
{
    const __m512i w64 = _mm512_set1_epi16(0x4001); /* bytes 1, 64 */
    __m512i lc = _mm512_maskz_compress_epi8(e, u->lo), hc = _mm512_maskz_compress_epi8(e, u->hi);
    unsigned n = (unsigned)__builtin_popcountll(e), q;
    if (wide) {
        uint32_t *d = (uint32_t *)dst;
        for (q = 0; q < 4; q++) {
            __m512i k = _mm512_add_epi8(U8K_GATHER32, _mm512_set1_epi8((char)(16 * q)));
            __m512i v = _mm512_maskz_permutex2var_epi8(UINT64_C(0x3333333333333333), lc, k, hc);
            unsigned m = n > 16 * q ? n - 16 * q : 0;
            /* the last group only when there are more than 48 units (a
             * branch that 2-byte text, with about 35 a block, always
             * skips, and mostly-ASCII text always takes) */
            if (!exact && q == 3 && n <= 48)
                break;
            /* the high 16 bits of each lane are 0 * 1 + 0 * 64 */
            v = _mm512_sub_epi32(_mm512_maddubs_epi16(v, w64), _mm512_set1_epi32(0x3080));
            u8k_put32(d + 16 * q, v, m < 16 ? m : 16, exact);
        }
        return n;
    }
    {
        uint16_t *d = (uint16_t *)dst;
        __m512i u0 = _mm512_permutex2var_epi8(lc, U8K_ZIP_LO, hc);
        __m512i u1 = _mm512_permutex2var_epi8(lc, U8K_ZIP_HI, hc);
        u0 = _mm512_sub_epi16(_mm512_maddubs_epi16(u0, w64), _mm512_set1_epi16(0x3080));
        u1 = _mm512_sub_epi16(_mm512_maddubs_epi16(u1, w64), _mm512_set1_epi16(0x3080));
        if (be) {
            u0 = u8k_swap16(u0);
            u1 = u8k_swap16(u1);
        }
        if (!exact) {
            _mm512_storeu_si512((void *)d, u0);
            _mm512_storeu_si512((void *)(d + 32), u1);
        } else {
            uint64_t m = _bzhi_u64(UINT64_MAX, n);
            _mm512_mask_storeu_epi16(d, (__mmask32)m, u0);
            _mm512_mask_storeu_epi16(d + 32, (__mmask32)(m >> 32), u1);
        }
        return n;
    }
}

/* Stores the UTF-32 units of u whose end is in e (a subset of u.e) at d
 * and returns their number (<= 64). !exact: 64 units of room, and the
 * stores may fill all of it (what is past the units is overwritten later
 * or is scratch); exact: nothing past the units is written. The low, high
 * and top bytes of the units kept are each packed in order by one byte
 * compress; then 16 units at a time, unit j of group q gets bytes
 * lo[16q + j], hi[16q + j] and top[16q + j] (U8K_GATHER32). */
U8K_INLINE unsigned u8k_store_units32(const u8k_units *u, uint64_t e, uint32_t *d, bool four,
                                      bool exact)
{
    unsigned n = (unsigned)__builtin_popcountll(e), q;
    __m512i lc = _mm512_maskz_compress_epi8(e, u->lo), hc = _mm512_maskz_compress_epi8(e, u->hi);
    __m512i tc = four ? _mm512_maskz_compress_epi8(e, u->top) : _mm512_setzero_si512();
    for (q = 0; q < 4; q++) {
        __m512i k = _mm512_add_epi8(U8K_GATHER32, _mm512_set1_epi8((char)(16 * q)));
        __m512i v = _mm512_maskz_permutex2var_epi8(UINT64_C(0x3333333333333333), lc, k, hc);
        unsigned m = n > 16 * q ? n - 16 * q : 0;
        /* 4-byte text and a last block have fewer units: no empty
         * groups for them; nor for the last two groups of a block
         * with at most 32 units (a branch that text of 3-byte
         * characters, with about 22 a block, always takes) */
        if (!exact && four && m == 0)
            break;
        if (!exact && q == 2 && n <= 32)
            break;
        if (four)
            v = _mm512_mask_permutexvar_epi8(v, UINT64_C(0x4444444444444444), k, tc);
        u8k_put32(d + 16 * q, v, m < 16 ? m : 16, exact);
    }
    return n;
}

/* The same for UTF-16: the low and the high bytes of the units kept are
 * packed by one byte compress each, then zipped into 16-bit units, 32 at
 * a time; the second 32 only when there are more (text of 3- and 4-byte
 * characters has about 22 a block). Three shuffles for up to 32 units,
 * where zipping first and then compressing 16-bit units takes four (in
 * the last block too: short strings of such text convert 13-16% faster
 * this way, Zen 5, strings of 8 to 64 bytes). */
U8K_INLINE unsigned u8k_store_units16(const u8k_units *u, uint64_t e, uint16_t *d, bool be,
                                      bool exact)
{
    __m512i lc = _mm512_maskz_compress_epi8(e, u->lo), hc = _mm512_maskz_compress_epi8(e, u->hi);
    unsigned n = (unsigned)__builtin_popcountll(e);
    __m512i u0 = _mm512_permutex2var_epi8(lc, U8K_ZIP_LO, hc);
    if (be)
        u0 = u8k_swap16(u0);
    u8k_put16(d, u0, n < 32 ? n : 32, exact);
    if (n > 32) {
        __m512i u1 = _mm512_permutex2var_epi8(lc, U8K_ZIP_HI, hc);
        if (be)
            u1 = u8k_swap16(u1);
        u8k_put16(d + 32, u1, n - 32, exact);
    }
    return n;
}

/* The 16 units of v to d: exact, those of mask m only; else all. */
U8K_INLINE void u8k_put_units32(uint32_t *d, __m512i v, uint64_t m, bool exact)
{
    if (exact)
        _mm512_mask_storeu_epi32(d, (__mmask16)m, v);
    else
        _mm512_storeu_si512((void *)d, v);
}

/* The first n (1..64) bytes of the all-ASCII block w as n units: exact,
 * nothing written past them; else all 64 units written by plain stores
 * (see u8k_last_block). */
U8K_INLINE void u8k_widen_part(void *dst, __m512i w, size_t n, bool wide, bool be, bool exact)
{
    /* no branch on n (see u8k_put16) */
    uint64_t m = exact ? UINT64_MAX >> (64 - n) : UINT64_MAX;
    if (wide) {
        uint32_t *d = (uint32_t *)dst;
        u8k_put_units32(d, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(w)), m, exact);
        u8k_put_units32(d + 16, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 1)), m >> 16,
                        exact);
        u8k_put_units32(d + 32, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 2)), m >> 32,
                        exact);
        u8k_put_units32(d + 48, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 3)), m >> 48,
                        exact);
        return;
    }
    {
        __m512i a = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(w));
        __m512i c = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(w, 1));
        if (be) {
            a = _mm512_slli_epi16(a, 8);
            c = _mm512_slli_epi16(c, 8);
        }
        if (exact) {
            _mm512_mask_storeu_epi16(dst, (__mmask32)m, a);
            _mm512_mask_storeu_epi16((uint16_t *)dst + 32, (__mmask32)(m >> 32), c);
        } else {
            _mm512_storeu_si512(dst, a);
            _mm512_storeu_si512((uint16_t *)dst + 32, c);
        }
    }
}

/* The all-ASCII block at s (64 bytes, already loaded and tested) as 64
 * units, for the block loop. Each part is widened straight from memory: a
 * zero-extension with a memory operand costs one shuffle-port operation,
 * and taking the parts out of the loaded register one more each. (The
 * stores straddle cache lines unless the output happens to be aligned;
 * u8k_ascii_front avoids that for the ASCII at the start of an input.
 * In the block loop, runs of ASCII blocks realigned so, in the loop or
 * handed out of it, made English text 1.11-1.29x as fast and most other
 * texts 0.71-0.97x: gcc allocated the loop's registers otherwise.) */
U8K_INLINE void u8k_widen_block(void *dst, const unsigned char *s, bool wide, bool be)
{
    int k;
    if (wide) {
        for (k = 0; k < 4; k++)
            _mm512_storeu_si512((uint32_t *)dst + 16 * k,
                                _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(s + 16 * k))));
        return;
    }
    for (k = 0; k < 2; k++) {
        __m512i a =
            _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(s + 32 * k)));
        if (be)
            a = _mm512_slli_epi16(a, 8);
        _mm512_storeu_si512((uint16_t *)dst + 32 * k, a);
    }
}

/* The ASCII at the start of s (len and cap at least 64, the first block
 * all ASCII), widened to units. Returns how many bytes (= units) it took:
 * 64 or more unless the first block is the only one; what follows starts
 * a character, with nothing pending. The blocks after the first are
 * placed so that their units start on 64-byte boundaries of the output
 * (the second one starts 1 to 64 bytes after s and redoes the units of
 * the bytes before it): a 64-byte store that straddles two cache lines
 * costs more than a load that does, and a block stores two (UTF-16) or
 * four (UTF-32) of them. On an Intel Xeon (session 21) ASCII text
 * widened 22-38% faster this way than with the loads aligned instead,
 * wherever that left the stores unaligned. (On a Zen 5, session 12 had
 * measured aligned loads 11-13% faster than loads and stores both
 * unaligned; this choice was not measured there.) The loads are aligned
 * when the output cannot be (an address that is no multiple of the unit).
 * UTF-16 widens each half from memory (u8k_widen_block), UTF-32 each
 * quarter out of the register the block was tested in (u8k_widen_part:
 * four more loads a block were slower). */
static U8K_NOINLINE size_t u8k_ascii_front(const unsigned char *s, size_t len, void *d, size_t cap,
                                           bool wide, bool be)
{
    const size_t us = wide ? 4 : 2;
    /* t: where the second block starts; 64 / us units fill 64 bytes */
    size_t t = 64 - ((uintptr_t)s & 63), done = 64;
    if ((uintptr_t)d % us == 0)
        t = 64 - (64 - (-(uintptr_t)d & 63) / us) % (64 / us);
    __m512i w = v_load(s);
    for (;;) {
        unsigned char *o = (unsigned char *)d + (done - 64) * us;
        if (wide)
            u8k_widen_part(o, w, 64, true, false, true);
        else
            u8k_widen_block(o, s + (done - 64), false, be);
        if (len - t < 64 || cap - t < 64)
            return done;
        w = v_load(s + t);
        if (v_high(w) != 0)
            return done;
        t += 64;
        done = t;
    }
}

/* A run of 4-byte characters (emoji, historic scripts), from a character
 * start at s: 16 characters, 64 bytes, a step, while each 32-bit lane is
 * a form 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx (one mask, one compare) of a
 * value U+10000..U+10FFFF (not overlong, not above 10FFFF; a 4-byte form
 * is never a surrogate). The value is two multiply-adds away: bytes a b c
 * d (in memory order) masked to their payload give a << 6 | b and c << 6
 * | d in the 16-bit halves (vpmaddubsw, weights 64 and 1), then the first
 * << 12 plus the second (vpmaddwd, weights 4096 and 1). UTF-32 stores it;
 * UTF-16 stores D800 + (v - 10000 >> 10) and DC00 | v & 3FF as the two
 * units of the lane. At most `room` units are stored. Returns the bytes
 * taken; their units are a quarter (UTF-32) or half (UTF-16) as many. The
 * block loop works on every byte, three of four of them no character's
 * end; this works on the characters. */
static U8K_NOINLINE size_t u8k_four_run(const unsigned char *s, size_t len, void *d, size_t room,
                                        bool wide, bool be)
{
    const __m512i form = _mm512_set1_epi32((int)0xC0C0C0F8u);
    const __m512i want = _mm512_set1_epi32((int)0x808080F0u);
    const __m512i payload = _mm512_set1_epi32(0x3F3F3F07), w1 = _mm512_set1_epi16(0x0140);
    const __m512i w2 = _mm512_set1_epi32(0x00011000), base = _mm512_set1_epi32(0x10000);
    const __m512i span = _mm512_set1_epi32(0x100000);
    const size_t per = wide ? 16 : 32;
    size_t t = 0, o = 0;
    while (len - t >= 64 && room - o >= per) {
        __m512i x = _mm512_loadu_si512((const void *)(s + t)), v;
        if (_mm512_cmpneq_epi32_mask(_mm512_and_si512(x, form), want) != 0)
            break;
        /* weights: byte pairs (a, b) and (c, d) as 64 a + b, 64 c + d */
        v = _mm512_madd_epi16(_mm512_maddubs_epi16(_mm512_and_si512(x, payload), w1), w2);
        v = _mm512_sub_epi32(v, base);
        if (_mm512_cmpge_epu32_mask(v, span) != 0)
            break;
        if (wide) {
            _mm512_storeu_si512((void *)((uint32_t *)d + o), _mm512_add_epi32(v, base));
        } else {
            /* high surrogate in the low half of the lane (first in memory) */
            __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(v, 10), _mm512_set1_epi32(0xD800));
            __m512i lo = _mm512_and_si512(v, _mm512_set1_epi32(0x3FF));
            __m512i u = _mm512_or_si512(
                hi, _mm512_slli_epi32(_mm512_or_si512(lo, _mm512_set1_epi32(0xDC00)), 16));
            if (be)
                u = u8k_swap16(u);
            _mm512_storeu_si512((void *)((uint16_t *)d + o), u);
        }
        t += 64;
        o += per;
    }
    return t;
}

/* What the blocks before the current one left: the block itself and its
 * bytes C0..DF, E0..FF and F0..FF (a character reaching into the next
 * block starts with one of its last three bytes). */
typedef struct {
    __m512i prev;
    uint64_t m2, e0, f4;
} u8k_before;

/* At a character start with nothing before it pending: zeros (ASCII). */
U8K_INLINE void u8k_before_none(u8k_before *bf)
{
    bf->prev = _mm512_setzero_si512();
    bf->m2 = bf->e0 = bf->f4 = 0;
}

enum { U8K_BAD, U8K_TWO, U8K_THREE, U8K_ANY, U8K_ANY4 };

/* Checks the block w (not all ASCII; high = its bytes 80..FF) after bf
 * and decodes it into *u; returns U8K_BAD on an error, else which path
 * took it (U8K_ANY4: it needs the 4-byte stores), and updates bf. */
U8K_INLINE int u8k_check_decode(const u8k_vstate *st, __m512i w, uint64_t high, u8k_before *bf,
                                u8k_units *u, bool wide)
{
    const __m512i e0s = v_splat_k((unsigned char)0xE0);
    __m512i prev = bf->prev, p1, p2, p3;
    uint64_t e0 = _mm512_cmpge_epu8_mask(w, e0s), m2, f4;
    u8k_classes c;
    int kind;
    if ((e0 | bf->e0 >> 61) == 0) {
        /* Bytes 00..DF only, and no 3- or 4-byte character reaching in
         * from prev: the block is valid exactly when every tail follows a
         * lead C2..DF, every such lead has a tail after it, and no byte
         * is C0 or C1 (the lookup check would say the same, at three
         * times the work). */
        uint64_t tail = _mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64));
        /* the leads C0..DF one place back */
        uint64_t lead2 = (high & ~tail) << 1 | bf->m2 >> 63, c01;
        u8k_vprevs(w, prev, &p1, &p2, &p3); /* p2, p3 unused: dropped */
        /* An overlong lead C0 or C1 one place back (a lead C0..DF plus 3E
         * has its top bit set just for C0 and C1): this sees the last byte
         * of prev too, which after the general path only the next block's
         * lookup check would see, and this path has none. A C0 or C1 that
         * ends this block is seen by whatever takes the next block: this
         * test, the lookup check, or the check that prev ends a
         * character. */
        c01 = lead2 & (uint64_t)_mm512_movepi8_mask(_mm512_add_epi8(p1, _mm512_set1_epi8(0x3E)));
        if ((tail ^ lead2) | c01)
            return U8K_BAD;
        *u = u8k_decode_two(w, p1, high, tail);
        bf->prev = w;
        bf->m2 = high & ~tail; /* the leads */
        bf->e0 = bf->f4 = 0;
        return U8K_TWO;
    }
    /* No bytes C0..DF (2-byte leads) and F0..FF: with bit 5 flipped they
     * are the bytes D0..FF (E0..EF become C0..CF, tails and ASCII stay
     * below C0), one compare for both */
    if ((_mm512_cmpge_epu8_mask(_mm512_xor_si512(w, v_splat_k(0x20)),
                                v_splat_k((unsigned char)0xD0)) |
         bf->m2 >> 63 | bf->f4 >> 61) == 0) {
        /* Bytes 00..BF and E0..EF only, and no 2- or 4-byte character
         * reaching in from prev: valid exactly when the tails are the
         * bytes one or two after a lead E0..EF, and no E0 is followed by
         * 80..9F (overlong), no ED by A0..BF (a surrogate). */
        /* tails: the bytes 80..FF that are not leads E0..EF; the leads
         * one and two places back from the masks */
        uint64_t tail = high & ~e0;
        uint64_t l1 = e0 << 1 | bf->e0 >> 63, l2 = e0 << 2 | bf->e0 >> 62;
        uint64_t a0 = _mm512_cmpge_epu8_mask(w, v_splat_k((unsigned char)0xA0)), ovl, sur;
        u8k_vprevs(w, prev, &p1, &p2, &p3); /* p3 unused: dropped */
        ovl = _mm512_cmpeq_epi8_mask(p1, e0s) & ~a0;
        sur = _mm512_cmpeq_epi8_mask(p1, v_splat_k((unsigned char)0xED)) & a0;
        if ((tail ^ (l1 | l2)) | ovl | sur)
            return U8K_BAD;
        *u = u8k_decode_three(w, p1, p2, high, tail & l2);
        bf->prev = w;
        bf->e0 = e0;
        bf->m2 = bf->f4 = 0;
        return U8K_THREE;
    }
    /* bytes C0..DF (2-byte leads) and F0..FF */
    m2 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w, v_splat_k((unsigned char)0xC0)),
                                v_splat_k(0x20));
    f4 = _mm512_cmpge_epu8_mask(w, v_splat_k((unsigned char)0xF0));
    /* the lookup check, whose bytes before each byte the decoding takes */
    u8k_vprevs(w, prev, &p1, &p2, &p3);
    if (v_any(u8k_vcheck_p(st, w, p1, p2, p3)))
        return U8K_BAD;
    c.high = high;
    c.m2 = m2;
    c.e0 = e0;
    c.f4 = f4;
    c.pm2 = bf->m2;
    c.pe0 = bf->e0;
    c.pf4 = bf->f4;
    if ((f4 | bf->f4 >> 61) == 0) {
        *u = u8k_decode_block(w, p1, p2, p3, &c, false, wide);
        kind = U8K_ANY;
    } else {
        *u = u8k_decode_block(w, p1, p2, p3, &c, true, wide);
        kind = U8K_ANY4;
    }
    bf->prev = w;
    bf->m2 = m2;
    bf->e0 = e0;
    bf->f4 = f4;
    return kind;
}

/* The scalar kernel from done (a character start after valid text), od
 * units already stored. */
U8K_INLINE utf8kit_result u8k_rest(const unsigned char *src, size_t len, size_t done, size_t od,
                                   void *out, size_t cap, unsigned flags, bool wide)
{
    /* (U8K_REPL off: the scalar kernel does not read it, but with it
     * left on gcc allocated the block loop's registers otherwise, and
     * 3-byte text converted 4-7% slower) */
    flags &= ~U8K_REPL;
    utf8kit_result r =
        wide ? u8k_scalar_utf8_to_utf32(src + done, len - done, (uint32_t *)out + od, cap - od, flags)
             : u8k_scalar_utf8_to_utf16(src + done, len - done, (uint16_t *)out + od, cap - od, flags);
    return u8k_shift(r, done, od);
}

/* Stores the units of a block that u8k_check_decode took by path `kind`
 * (those in u->e) at unit o of out (room for 64: the stores may fill
 * it), and returns their number. (The block loop has this and
 * u8k_block_done written out: through these helpers gcc allocated its
 * registers otherwise, and 2-byte text to UTF-32 converted 3-4% slower.) */
U8K_INLINE unsigned u8k_store_block(int kind, const u8k_units *u, void *out, size_t o, bool wide,
                                    bool be)
{
    const size_t us = wide ? 4 : 2;
    if (kind == U8K_TWO)
        return u8k_store_two(u, u->e, (unsigned char *)out + o * us, wide, be, false);
    if (!wide)
        return u8k_store_units16(u, u->e, (uint16_t *)out + o, be, false);
    if (kind == U8K_ANY4)
        return u8k_store_units32(u, u->e, (uint32_t *)out + o, true, false);
    return u8k_store_units32(u, u->e, (uint32_t *)out + o, false, false);
}

/* The last 0..63 bytes from b (all of a short input): one masked block,
 * its zero padding showing an unfinished last character to the check. It
 * holds complete characters only when checked, so at most one unit per
 * byte; stored when they all fit, else the scalar kernel goes on from
 * done and reports how far they go. With 64 units of room left they are
 * stored as the block loop stores them (what lies past them is scratch):
 * masked stores took short strings 1.7-2x as long to UTF-32 (four of them
 * for 16 units each) and up to 6% longer to UTF-16 (Zen 5, strings of 8 to
 * 64 bytes). whole: all of the input (a short one, u8k_short_units). The
 * last block of the block loop keeps the masked stores: the plain ones
 * there made inputs of 65-300 bytes to UTF-32 12-22% faster, but gcc then
 * allocated the loop's registers otherwise, and whole files of 3-byte text
 * converted 2-5% slower (bench/RESULTS.md, session 20). */
U8K_INLINE utf8kit_result u8k_last_block(const unsigned char *src, size_t len, size_t b, size_t o,
                                         size_t done, size_t od, u8k_before *bf,
                                         const u8k_vstate *st, void *out, size_t cap,
                                         unsigned flags, bool wide, bool whole)
{
    bool be = !wide && (flags & U8K_BE) != 0;
    const size_t us = wide ? 4 : 2;
    size_t rem = len - b;
    bool plain = whole && cap - o >= 64;
    uint64_t in = rem ? (UINT64_MAX >> (64 - rem)) : 0, e, high;
    __m512i w = v_load_part(src + b, rem);
    u8k_units u;
    int kind;
    high = v_high(w);
    if (high == 0) {
        if (v_any(v_subs(bf->prev, st->tailmax)) || rem > cap - o)
            return u8k_rest(src, len, done, od, out, cap, flags, wide);
        if (plain)
            u8k_widen_part((unsigned char *)out + o * us, w, 64, wide, be, false);
        else if (rem > 0)
            u8k_widen_part((unsigned char *)out + o * us, w, rem, wide, be, true);
        return u8k_res(UTF8KIT_OK, len, o + rem, 0);
    }
    kind = u8k_check_decode(st, w, high, bf, &u, wide);
    e = u.e & in;
    if (kind == U8K_BAD || (size_t)__builtin_popcountll(e) > cap - o)
        return u8k_rest(src, len, done, od, out, cap, flags, wide);
    /* (the exact stores written out, not u8k_store_block with exact a
     * value known at run time: that built both kinds of store into each
     * path, and the short path to UTF-32 grew by half) */
    if (plain) {
        u.e = e;
        o += u8k_store_block(kind, &u, out, o, wide, be);
    } else if (kind == U8K_TWO)
        o += u8k_store_two(&u, e, (unsigned char *)out + o * us, wide, be, true);
    else if (!wide)
        o += u8k_store_units16(&u, e, (uint16_t *)out + o, be, true);
    else
        o += u8k_store_units32(&u, e, (uint32_t *)out + o, kind == U8K_ANY4, true);
    return u8k_res(UTF8KIT_OK, len, o, 0);
}

/* After the units of the whole block at b are stored (o units in all
 * now): *done, the end of its last whole character, and *od, the units
 * before it (a high surrogate whose low half is in the next block is
 * stored but not counted). A valid block holds the end of a character,
 * so u->e & ~u->hs is not 0. */
U8K_INLINE void u8k_block_done(const u8k_units *u, size_t b, size_t o, size_t *done, size_t *od)
{
    uint64_t keep = u->e & ~u->hs;
    *done = b + 64 - (size_t)__builtin_clzll(keep);
    *od = o - (size_t)((u->e >> (63 - __builtin_clzll(keep))) > 1);
}

/* Where the block loop stands when it hands a run of 4-byte characters
 * to its caller (u8k_four_run): the next block at b, o units stored, the
 * end of the last whole character stored (done) and the units before it
 * (od), what the blocks before b left (bf). */
typedef struct {
    size_t b, o, done, od, rep;
    u8k_before bf;
} u8k_units_at;

/* UTF-8 -> UTF-16 (wide == false) or UTF-32 (wide == true) of len >= 64
 * bytes, 64-byte blocks at a fixed stride from the start (see the header
 * comment), from where *at says. After a block of 4-byte characters and
 * no ASCII, or at an input error under U8K_REPL, it sets *next and
 * returns, with *at where it stands. The loop keeps done, the end of the
 * last whole character stored, and od, the units stored before it (a
 * high surrogate whose low half is in the next block is stored but not
 * counted). The check runs under U8K_TRUSTED too: on invalid input the
 * decoding could otherwise find more units than bytes, beyond
 * utf8kit_max_output_size; checked blocks never give more units than they
 * hold bytes. At an error (unless U8K_REPL), or with less than 64 units
 * of room, the scalar kernel goes on from done (a character start after
 * valid text) and gives the exact report. */
U8K_INLINE utf8kit_result u8k_utf8_to_units(const unsigned char *src, size_t len, void *out,
                                            size_t cap, unsigned flags, bool wide,
                                            u8k_units_at *at, int *next)
{
    bool be = !wide && (flags & U8K_BE) != 0;
    const size_t us = wide ? 4 : 2;
    size_t b = at->b, o = at->o, done = at->done, od = at->od;
    u8k_before bf = at->bf;
    u8k_vstate st;
    u8k_vinit(&st);
    while (b + 64 <= len && o + 64 <= cap) {
        __m512i w = v_load(src + b);
        uint64_t high = v_high(w), keep;
        u8k_units u;
        unsigned n;
        int kind;
        if (high == 0) {
            /* All ASCII: valid unless prev ends inside a character (as in
             * u8k_vblock); the blocks after it are widened in a loop of
             * their own while they are ASCII too. */
            if (v_any(v_subs(bf.prev, st.tailmax)))
                goto bad;
            for (;;) {
                u8k_widen_block((unsigned char *)out + o * us, src + b, wide, be);
                o += 64;
                b += 64;
                bf.prev = w;
                if (b + 64 > len || o + 64 > cap)
                    break;
                w = v_load(src + b);
                if (v_high(w) != 0)
                    break;
            }
            done = b;
            od = o;
            bf.m2 = bf.e0 = bf.f4 = 0;
            continue;
        }
        kind = u8k_check_decode(&st, w, high, &bf, &u, wide);
        if (kind == U8K_BAD) {
        bad:
            if (!(flags & U8K_REPL))
                goto rest;
            *next = U8K_NEXT_REPL;
            goto hand;
        }
        if (kind == U8K_TWO) {
            n = u8k_store_two(&u, u.e, (unsigned char *)out + o * us, wide, be, false);
        } else if (!wide) {
            n = u8k_store_units16(&u, u.e, (uint16_t *)out + o, be, false);
        } else if (kind == U8K_ANY4) {
            n = u8k_store_units32(&u, u.e, (uint32_t *)out + o, true, false);
        } else {
            n = u8k_store_units32(&u, u.e, (uint32_t *)out + o, false, false);
        }
        /* e != 0: a valid block holds the end of a character */
        keep = u.e & ~u.hs;
        done = b + 64 - (size_t)__builtin_clzll(keep);
        o += n;
        /* units after the last whole character: a dangling high surrogate */
        od = o - (size_t)((u.e >> (63 - __builtin_clzll(keep))) > 1);
        b += 64;
        if (U8K_UNLIKELY(kind == U8K_ANY4 && high == ~(uint64_t)0)) {
            /* 4-byte characters and no ASCII: maybe a run of them */
            *next = U8K_NEXT_FOUR;
            goto hand;
        }
    }
    if (b + 64 > len)
        return u8k_last_block(src, len, b, o, done, od, &bf, &st, out, cap, flags, wide, false);
rest:
    return u8k_rest(src, len, done, od, out, cap, flags, wide);
hand:
    *at = (u8k_units_at){b, o, done, od, at->rep, bf};
    return u8k_res(UTF8KIT_OK, 0, 0, 0);
}

/* A short input (len < 64) is the last block only, all offsets 0. It
 * is a function of its own so that a short call does not pay the set-up
 * of the block loop (its registers saved, its stack frame aligned). */
U8K_INLINE utf8kit_result u8k_short_units(const unsigned char *src, size_t len, void *out, size_t cap,
                                      unsigned flags, bool wide)
{
    u8k_before bf;
    u8k_vstate st;
    u8k_before_none(&bf); /* nothing is pending before 0 */
    u8k_vinit(&st);
    return u8k_last_block(src, len, 0, 0, 0, 0, &bf, &st, out, cap, flags, wide, true);
}

/* The lone bytes of block w (high: its bytes 80..FF) as a mask: leads
 * C0..FF with no tail after them, tails after an ASCII byte. next: the
 * byte after the block; prev: the block before it (its last byte is the
 * one before w; zeros when nothing is pending there). */
U8K_INLINE uint64_t u8k_lone_bytes(__m512i w, uint64_t high, unsigned char next, __m512i prev)
{
    uint64_t tail = _mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64));
    uint64_t after = (uint64_t)((unsigned)next - 0x80 < 0x40) << 63;
    return (high & ~tail & ~(tail >> 1 | after)) | (tail & ~(high << 1 | v_high(prev) >> 63));
}

/* The block w, all ASCII but at the bytes of mask lone, as 64 units to
 * dst, with fffd (U+FFFD in the output's byte order) in the places of
 * the bytes of lone. */
U8K_INLINE void u8k_widen_lone(void *dst, __m512i w, uint64_t lone, bool wide, bool be,
                               uint32_t fffd)
{
    if (wide) {
        uint32_t *d = (uint32_t *)dst;
        __m512i r = _mm512_set1_epi32((int)fffd);
        _mm512_storeu_si512((void *)d, _mm512_mask_mov_epi32(
                                           _mm512_cvtepu8_epi32(_mm512_castsi512_si128(w)),
                                           (__mmask16)lone, r));
        _mm512_storeu_si512((void *)(d + 16),
                            _mm512_mask_mov_epi32(
                                _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 1)),
                                (__mmask16)(lone >> 16), r));
        _mm512_storeu_si512((void *)(d + 32),
                            _mm512_mask_mov_epi32(
                                _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 2)),
                                (__mmask16)(lone >> 32), r));
        _mm512_storeu_si512((void *)(d + 48),
                            _mm512_mask_mov_epi32(
                                _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(w, 3)),
                                (__mmask16)(lone >> 48), r));
        return;
    }
    {
        __m512i r = _mm512_set1_epi16((short)fffd);
        __m512i a = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(w));
        __m512i c = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(w, 1));
        if (be) {
            a = _mm512_slli_epi16(a, 8);
            c = _mm512_slli_epi16(c, 8);
        }
        _mm512_storeu_si512(dst, _mm512_mask_mov_epi16(a, (__mmask32)lone, r));
        _mm512_storeu_si512((uint16_t *)dst + 32,
                            _mm512_mask_mov_epi16(c, (__mmask32)(lone >> 32), r));
    }
}

/* Under U8K_REPL, where the block loop found an error: the commonest
 * error in text that is not UTF-8 (Latin-1 or windows-1252 read as
 * UTF-8) is a letter C0..FF that no tail 80..BF follows. Whatever came
 * before it, such a byte is one maximal invalid subpart of its own (RFC
 * 3629's second octets are all tails; C0, C1 and F5..FF are never in
 * UTF-8): one U+FFFD. So is a tail right after an ASCII byte (a tail with
 * no lead before it). This takes blocks in which such lone bytes are the
 * only errors, from *donep, a character start after valid text (*odp
 * units stored) with nothing pending (the byte after each block is read,
 * so a block here never ends the input): each lone byte is checked and
 * decoded as an ASCII space, and the U+FFFD written over its unit once
 * the units are stored. A block that is then all ASCII, with nothing
 * pending before it, is widened with the U+FFFD blended in (the check
 * and the 2-byte decoding for it made French Latin-1 read as UTF-8 go
 * 1.45x as long). Blocks go on while they hold lone bytes; the
 * first without any, or one that still shows an error when they are
 * taken out, is left to the caller; but blocks of ASCII are widened
 * here, up to U8K_LONE_QUIET in a row (in text such as Latin-1 read as
 * UTF-8 they come between the blocks with lone bytes: going back to the
 * block loop for each cost 10-15%). Returns true when it took at least
 * one block, with *donep, *odp after the last whole character stored
 * and *repp counting the U+FFFD; false when it took none. The block
 * loop itself does none of this: with it in the loop, valid text ran
 * slower (the register allocation of the loop changes). */
U8K_INLINE bool u8k_units_lone(const unsigned char *src, size_t len, size_t *donep, size_t *odp,
                               void *out, size_t cap, unsigned flags, bool wide, size_t *repp)
{
    bool be = !wide && (flags & U8K_BE) != 0;
    const uint32_t fffd = be ? 0xFDFFu : 0xFFFDu;
    /* the state in locals (the stores may alias what the pointers reach) */
    size_t b = *donep, o = *odp, done = b, od = o, rep = *repp;
    unsigned quiet = 0;
    u8k_before bf;
    u8k_vstate st;
    u8k_before_none(&bf);
    u8k_vinit(&st);
    while (b + 64 < len && o + 64 <= cap) {
        __m512i w = v_load(src + b);
        uint64_t high = v_high(w), lone = u8k_lone_bytes(w, high, src[b + 64], bf.prev);
        u8k_units u;
        unsigned n;
        int kind;
        if (lone == 0) {
            if (high != 0 || ++quiet > U8K_LONE_QUIET)
                break;
        } else {
            quiet = 0;
            w = _mm512_mask_mov_epi8(w, lone, v_splat_k(0x20));
        }
        if ((high & ~lone) == 0 && (bf.m2 >> 63 | bf.e0 >> 61 | bf.f4 >> 61) == 0) {
            /* ASCII but for the lone bytes (if any), and no character
             * reaching in from before: the units are the bytes widened,
             * with U+FFFD blended in at the lone bytes' own places */
            u8k_widen_lone((unsigned char *)out + o * (wide ? 4 : 2), w, lone, wide, be, fffd);
            rep += (size_t)__builtin_popcountll(lone);
            o += 64;
            b += 64;
            done = b;
            od = o;
            bf.prev = w;
            bf.m2 = bf.e0 = bf.f4 = 0;
            continue;
        }
        if (lone == 0)
            break; /* ASCII that ends a character left pending: an error */
        kind = u8k_check_decode(&st, w, high & ~lone, &bf, &u, wide);
        if (kind == U8K_BAD)
            break;
        n = u8k_store_block(kind, &u, out, o, wide, be);
        /* the lone bytes' units: their places among the block's units */
        lone = _pext_u64(lone, u.e);
        if (wide) {
            uint32_t *d = (uint32_t *)out + o;
            __m512i r = _mm512_set1_epi32((int)fffd);
            _mm512_mask_storeu_epi32(d, (__mmask16)lone, r);
            _mm512_mask_storeu_epi32(d + 16, (__mmask16)(lone >> 16), r);
            _mm512_mask_storeu_epi32(d + 32, (__mmask16)(lone >> 32), r);
            _mm512_mask_storeu_epi32(d + 48, (__mmask16)(lone >> 48), r);
        } else {
            uint16_t *d = (uint16_t *)out + o;
            __m512i r = _mm512_set1_epi16((short)fffd);
            _mm512_mask_storeu_epi16(d, (__mmask32)lone, r);
            _mm512_mask_storeu_epi16(d + 32, (__mmask32)(lone >> 32), r);
        }
        rep += (size_t)__builtin_popcountll(lone);
        o += n;
        u8k_block_done(&u, b, o, &done, &od);
        b += 64;
    }
    if (b == *donep)
        return false;
    *donep = done;
    *odp = od;
    *repp = rep;
    return true;
}

U8K_REPAIR_STEP(u8k_units_repair, u8k_units_lone)

/* The block loop, and what it hands over: a run of 4-byte characters
 * from done, then the blocks go on from where it stopped (a character
 * start, nothing pending), or from where the loop stood after a run of
 * none; an error replaced, then the blocks go on after it (nothing
 * pending), or the scalar kernel from done when it cannot be. */
U8K_INLINE utf8kit_result u8k_long_units(const unsigned char *src, size_t len, void *out,
                                         size_t cap, unsigned flags, bool wide)
{
    const size_t us = wide ? 4 : 2; /* 4 bytes a character: 1 unit of 4, or 2 of 2 */
    bool be = !wide && (flags & U8K_BE) != 0;
    u8k_units_at at;
    at.b = at.o = at.done = at.od = at.rep = 0;
    u8k_before_none(&at.bf); /* nothing is pending before 0 */
    for (;;) {
        int next = U8K_NEXT_NONE;
        utf8kit_result r = u8k_utf8_to_units(src, len, out, cap, flags, wide, &at, &next);
        size_t t;
        if (next == U8K_NEXT_NONE) {
            r.replaced = at.rep;
            return r;
        }
        if (next == U8K_NEXT_REPL) {
            if (!u8k_units_repair(src, len, &at.done, &at.od, out, cap, flags, wide, &at.rep)) {
                r = u8k_rest(src, len, at.done, at.od, out, cap, flags, wide);
                r.replaced = at.rep;
                return r;
            }
            at.b = at.done;
            at.o = at.od;
            u8k_before_none(&at.bf);
            continue;
        }
        t = u8k_four_run(src + at.done, len - at.done, (unsigned char *)out + at.od * us,
                         cap - at.od, wide, be);
        if (t != 0) {
            at.b = at.done += t;
            at.o = at.od += t / us;
            u8k_before_none(&at.bf);
        }
    }
}

static U8K_NOINLINE utf8kit_result u8k_long_utf16(const unsigned char *src, size_t len,
                                                               uint16_t *dst, size_t cap,
                                                               unsigned flags)
{
    return u8k_long_units(src, len, dst, cap, flags, false);
}

static U8K_NOINLINE utf8kit_result u8k_long_utf32(const unsigned char *src, size_t len,
                                                               uint32_t *dst, size_t cap,
                                                               unsigned flags)
{
    return u8k_long_units(src, len, dst, cap, flags, true);
}

/* len >= 64. An input that starts with a block of ASCII converts it in
 * u8k_ascii_front first (an ASCII input all of it), the rest in the block
 * loop. The block loop widens its own ASCII blocks from unaligned loads:
 * widening them out of the register, or handing long runs of them to
 * u8k_ascii_front, made gcc allocate the loop's registers otherwise, and
 * other texts lost 3-10%; its code stays as it was. The two instances
 * are out of line so that a short call (len < 64) sets up no frame for
 * them. */
U8K_INLINE utf8kit_result u8k_front_units(const unsigned char *src, size_t len, void *out,
                                          size_t cap, unsigned flags, bool wide)
{
    const size_t us = wide ? 4 : 2;
    size_t a = 0;
    if (cap >= 64 && v_high(v_load(src)) == 0) {
        a = u8k_ascii_front(src, len, out, cap, wide, !wide && (flags & U8K_BE) != 0);
        if (a == len)
            return u8k_res(UTF8KIT_OK, len, len, 0);
        if (len - a < 64)
            return u8k_shift(u8k_short_units(src + a, len - a, (unsigned char *)out + a * us,
                                             cap - a, flags, wide),
                             a, a);
    }
    src += a;
    out = (unsigned char *)out + a * us;
    return u8k_shift(wide ? u8k_long_utf32(src, len - a, (uint32_t *)out, cap - a, flags)
                          : u8k_long_utf16(src, len - a, (uint16_t *)out, cap - a, flags),
                     a, a);
}

static U8K_NOINLINE utf8kit_result u8k_front_utf16(const unsigned char *src, size_t len,
                                                   uint16_t *dst, size_t cap, unsigned flags)
{
    return u8k_front_units(src, len, dst, cap, flags, false);
}

static U8K_NOINLINE utf8kit_result u8k_front_utf32(const unsigned char *src, size_t len,
                                                   uint32_t *dst, size_t cap, unsigned flags)
{
    return u8k_front_units(src, len, dst, cap, flags, true);
}

static utf8kit_result simd_utf8_to_utf16_vbmi2(const unsigned char *src, size_t len, uint16_t *dst,
                                               size_t cap, unsigned flags)
{
    if (len < 64)
        return u8k_short_units(src, len, dst, cap, flags, false);
    return u8k_front_utf16(src, len, dst, cap, flags);
}

static utf8kit_result simd_utf8_to_utf32_vbmi2(const unsigned char *src, size_t len, uint32_t *dst,
                                               size_t cap, unsigned flags)
{
    if (len < 64)
        return u8k_short_units(src, len, dst, cap, flags, true);
    return u8k_front_utf32(src, len, dst, cap, flags);
}

#endif /* UTF8KIT_SIMD_COMPRESS_H */
