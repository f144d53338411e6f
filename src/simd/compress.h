/*
 * simd/compress.h - transcoding for instruction sets with a byte
 * permutation over a whole register and compress (AVX-512 VBMI + VBMI2).
 * Written once here; src/x86/kernels_avx512.c includes it after
 * simd/validate.h and simd/transcode.h. Ideas from R. Clausecker and
 * D. Lemire, "Transcoding Unicode Characters with AVX-512 Instructions",
 * Software: Practice and Experience 53(12), 2023, in our own form:
 *
 * UTF-8 -> UTF-16, per 64-byte window at a character start i:
 *  1. the character starts are the bytes that are not 80..BF; those at
 *     offsets 0..60 begin characters that end inside the window;
 *  2. 16 starts at a time (up to 4 groups), compress their offsets into
 *     16 bytes, and with one byte permutation gather the 4 bytes from
 *     each start into one 32-bit lane;
 *  3. decode every lane at once (its first byte gives the length) and
 *     turn values >= U+10000 into a surrogate pair in the lane's two
 *     16-bit halves;
 *  4. compress the 16-bit halves that are used and store them;
 *  5. the next window starts at the first start after offset 60.
 * Validity comes from the lookup validator of simd/validate.h run a
 * window ahead: a character is converted only when all its bytes lie in
 * blocks already checked. An all-ASCII window needs no check; after one,
 * the check-ahead restarts cleanly at its end (blocks need not be
 * aligned). The last 1..63 bytes are one masked window checked on its
 * own. Anything a window cannot take (an error, too little room) goes to
 * the scalar reference kernel, which then also gives the exact error
 * report.
 *
 * A window with no byte F0..FF (no 4-byte character) instead starts a
 * run of 64-byte blocks at a fixed stride (u8k_block16): every byte is
 * decoded as the possible last byte of a character, compress keeps the
 * real ends, and each block is checked against the one before it in the
 * same pass. The run ends at a byte F0..FF, an error or the end.
 *
 * UTF-8 -> UTF-32 is the same with step 4 storing the values (windows
 * only).
 *
 * UTF-16/32 -> UTF-8 are in simd/compress_to_utf8.h, Latin-1 <-> UTF-8 in
 * simd/latin1_avx512.h.
 * The including file defines U8K_IDX(n) (byte k: k - n).
 */
#ifndef UTF8KIT_SIMD_COMPRESS_H
#define UTF8KIT_SIMD_COMPRESS_H

#include "internal.h"

/* Byte k: k (the offsets of a window). */
#define U8K_IOTA                                                                           \
    _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46,  \
                    45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,  \
                    27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10,  \
                    9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/* Byte k: k / 4 (each lane repeats one start offset four times)... */
#define U8K_DUP4                                                                           \
    _mm512_set_epi8(15, 15, 15, 15, 14, 14, 14, 14, 13, 13, 13, 13, 12, 12, 12, 12, 11, 11,  \
                    11, 11, 10, 10, 10, 10, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6, 6, 5, \
                    5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0)
/* ...plus k % 4: the lane then lists its four bytes. */
#define U8K_STEP4 _mm512_set1_epi32(0x03020100)

/* Starts at offsets 0..60 end inside the window (a character has at most
 * 4 bytes). */
#define U8K_WINDOW_STARTS UINT64_C(0x1FFFFFFFFFFFFFFF)

U8K_INLINE __m512i u8k_swap16(__m512i v) { return _mm512_or_si512(_mm512_slli_epi16(v, 8), _mm512_srli_epi16(v, 8)); }

/* UTF-8 -> UTF-16 (wide == false) or UTF-32 (wide == true; 16 code
 * points per window stored as they are). */
/* Converts the characters starting at the offsets in sel (at most 16, all
 * ending inside window w) and stores them at dst (16-bit units, or 32-bit
 * when wide); returns the number of units stored (at most 32, or 16). */
U8K_INLINE unsigned u8k_group(__m512i w, uint64_t sel, void *dst, bool wide, bool be)
{
    const __m512i low6 = _mm512_set1_epi32(0x3F);
    __m512i x, b0, c1, c2, c3, cp, t;
    __mmask16 m2, m3, m4;
    unsigned k = (unsigned)__builtin_popcountll(sel), n;
    uint32_t keep;
    x = _mm512_maskz_compress_epi8(sel, U8K_IOTA);
    x = _mm512_add_epi8(_mm512_permutexvar_epi8(U8K_DUP4, x), U8K_STEP4);
    x = _mm512_permutexvar_epi8(x, w);
    /* Lane j: b0 | b1 << 8 | b2 << 16 | b3 << 24 of character j. */
    b0 = _mm512_and_si512(x, _mm512_set1_epi32(0xFF));
    c1 = _mm512_and_si512(_mm512_srli_epi32(x, 8), low6);
    c2 = _mm512_and_si512(_mm512_srli_epi32(x, 16), low6);
    c3 = _mm512_and_si512(_mm512_srli_epi32(x, 24), low6);
    m2 = _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xC0));
    m3 = _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xE0));
    m4 = _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xF0));
    /* 110xxxxx 10yyyyyy -> xxxxxyyyyyy */
    t = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(b0, _mm512_set1_epi32(0x1F)), 6), c1);
    cp = _mm512_mask_mov_epi32(b0, m2, t);
    /* 1110xxxx 10yyyyyy 10zzzzzz */
    t = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(b0, _mm512_set1_epi32(0x0F)), 12),
                        _mm512_or_si512(_mm512_slli_epi32(c1, 6), c2));
    cp = _mm512_mask_mov_epi32(cp, m3, t);
    /* 11110xxx 10yyyyyy 10zzzzzz 10wwwwww */
    if (m4) {
        t = _mm512_or_si512(
            _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(b0, _mm512_set1_epi32(0x07)), 18),
                            _mm512_slli_epi32(c1, 12)),
            _mm512_or_si512(_mm512_slli_epi32(c2, 6), c3));
        if (wide) {
            cp = _mm512_mask_mov_epi32(cp, m4, t);
        } else {
            /* the surrogate pair: high = D800 + (v >> 10), low = DC00 +
             * (v & 3FF), v = cp - 10000; the high one first (low half) */
            __m512i v = _mm512_sub_epi32(t, _mm512_set1_epi32(0x10000));
            __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(v, 10), _mm512_set1_epi32(0xD800));
            __m512i lo = _mm512_add_epi32(_mm512_and_si512(v, _mm512_set1_epi32(0x3FF)),
                                          _mm512_set1_epi32(0xDC00));
            cp = _mm512_mask_mov_epi32(cp, m4, _mm512_or_si512(hi, _mm512_slli_epi32(lo, 16)));
        }
    }
    if (wide) {
        _mm512_mask_storeu_epi32(dst, (__mmask16)((1u << k) - 1), cp);
        return k;
    }
    /* Keep the low half of each of the k lanes, the high half too for
     * pairs. */
    keep = 0x55555555u | (uint32_t)_pdep_u32((unsigned)m4, 0xAAAAAAAAu);
    if (k < 16)
        keep &= (1u << (2 * k)) - 1;
    if (be)
        cp = u8k_swap16(cp);
    n = (unsigned)__builtin_popcount(keep);
    _mm512_mask_storeu_epi16(dst, n == 32 ? 0xFFFFFFFFu : (1u << n) - 1,
                             _mm512_maskz_compress_epi16(keep, cp));
    return n;
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

/* UTF-8 -> UTF-16 for text without 4-byte characters, in 64-byte blocks
 * at a fixed stride: a character is converted in the block holding its
 * last byte, so the next block's position never waits for this one's
 * data. For the block cur, with p1 and p2 its bytes one and two places
 * earlier in the stream (from the block before, prev), byte k ends a
 * character when it is ASCII, or a tail after a lead C0..DF (2 bytes), or
 * a tail two places after a lead E0..EF (3 bytes). Every byte gets the
 * value of the character that would end at it:
 *   ASCII b:                       b
 *   tail after a lead (2 bytes):   (p1 & 1F) << 6 | (b & 3F)
 *   tail after a tail (3 bytes):   (p2 & 0F) << 12 | (p1 & 3F) << 6 | (b & 3F)
 * whose low byte is (p1 & 3) << 6 | (b & 3F) in both multibyte cases, and
 * high byte (p1 >> 2) & 7, or (p2 & 0F) << 4 | (p1 >> 2) & 0F. compress
 * keeps the values at the ends. On valid text (every byte up to the end
 * of cur checked) that holds no byte F0..FF in prev or cur, the ends are
 * exactly the last bytes of the characters ending in cur. Stores them at
 * dst (at most 64 units) and returns their number; *ends gets the mask. */
U8K_INLINE unsigned u8k_block16(__m512i cur, __m512i prev, uint16_t *dst, bool be, uint64_t *ends)
{
    const __m512i m3f = _mm512_set1_epi8(0x3F);
    __m512i p1 = _mm512_permutex2var_epi8(cur, U8K_IDX(1), prev);
    __m512i p2 = _mm512_permutex2var_epi8(cur, U8K_IDX(2), prev);
    __mmask64 ascii = ~(__mmask64)_mm512_movepi8_mask(cur);
    /* tails: 80..BF, i.e. below -64 as signed bytes */
    __mmask64 tail = _mm512_cmplt_epi8_mask(cur, _mm512_set1_epi8(-64));
    /* p1 - C0 < 20: p1 is C0..DF */
    __mmask64 lead2 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(p1, _mm512_set1_epi8((char)0xC0)),
                                             _mm512_set1_epi8(0x20));
    __mmask64 lead3 = _mm512_cmpge_epu8_mask(p2, _mm512_set1_epi8((char)0xE0));
    /* 16-bit shifts leak bits between bytes: each mask keeps only the
     * bits that come from the byte's own value. */
    __m512i lo = _mm512_or_si512(_mm512_and_si512(cur, m3f),
                                 _mm512_and_si512(_mm512_slli_epi16(p1, 6),
                                                  _mm512_set1_epi8((char)0xC0)));
    __m512i h2 = _mm512_and_si512(_mm512_srli_epi16(p1, 2), _mm512_set1_epi8(0x07));
    __m512i h3 = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(p1, 2), _mm512_set1_epi8(0x0F)),
                                 _mm512_and_si512(_mm512_slli_epi16(p2, 4),
                                                  _mm512_set1_epi8((char)0xF0)));
    __m512i hi = _mm512_maskz_mov_epi8(~ascii, _mm512_mask_mov_epi8(h3, lead2, h2));
    __m512i u0, u1;
    uint64_t e = ascii | (tail & (lead2 | lead3));
    unsigned n0, n1;
    lo = _mm512_mask_mov_epi8(lo, ascii, cur);
    u0 = _mm512_permutex2var_epi8(lo, U8K_ZIP_LO, hi);
    u1 = _mm512_permutex2var_epi8(lo, U8K_ZIP_HI, hi);
    if (be) {
        u0 = u8k_swap16(u0);
        u1 = u8k_swap16(u1);
    }
    n0 = (unsigned)__builtin_popcount((uint32_t)e);
    n1 = (unsigned)__builtin_popcount((uint32_t)(e >> 32));
    _mm512_mask_storeu_epi16(dst, n0 == 32 ? 0xFFFFFFFFu : (1u << n0) - 1,
                             _mm512_maskz_compress_epi16((__mmask32)e, u0));
    _mm512_mask_storeu_epi16(dst + n0, n1 == 32 ? 0xFFFFFFFFu : (1u << n1) - 1,
                             _mm512_maskz_compress_epi16((__mmask32)(e >> 32), u1));
    *ends = e;
    return n0 + n1;
}

/* UTF-8 -> UTF-16 (wide == false) or UTF-32 (wide == true). All the
 * characters starting in a window, in groups of 16; 64 units of room
 * cover them: at most 61 characters, and 2 units each only for 4-byte
 * ones, of which a valid window holds at most 16. The check runs under
 * U8K_TRUSTED too: on invalid input a window could otherwise claim 61
 * "4-byte characters" (122 units from 61 bytes), more than
 * utf8kit_max_output_size allows for; checked windows never write more
 * units than they read bytes, and the scalar kernel does the rest. */
U8K_INLINE utf8kit_result u8k_utf8_to_units(const unsigned char *src, size_t len, void *out,
                                            size_t cap, unsigned flags, bool wide)
{
    bool be = !wide && (flags & U8K_BE) != 0;
    uint16_t *dst = (uint16_t *)out;
    uint32_t *dst32 = (uint32_t *)out;
    size_t i = 0, o = 0, checked = 0; /* blocks before `checked` passed */
    u8k_vstate st;
    utf8kit_result r;
    u8k_vinit(&st);
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w;
        uint64_t high, starts, sel;
        w = v_load(src + i);
        high = v_high(w);
        if (high == 0) {
            /* All ASCII: valid whatever came before (i is a character
             * start), and a clean state for the check-ahead at i + 64. */
            if (checked <= i + 64) {
                checked = i + 64;
                st.prev = w;
            }
            if (wide)
                v_store_widen32(dst32 + o, w);
            else
                v_store_widen16(dst + o, w, be);
            i += 64;
            o += 64;
            continue;
        }
        /* Check the blocks under the window first. */
        while (checked < i + 64) {
            __m512i cur;
            if (checked + 64 > len)
                goto rest;
            cur = v_load(src + checked);
            if (u8k_vblock(&st, cur))
                goto rest;
            checked += 64;
        }
        if ((high & 0xFFFF) == 0) {
            /* At least 16 ASCII bytes: widen all 64, keep the ASCII ones
             * (the rest is overwritten by what comes next). */
            unsigned a = high ? (unsigned)__builtin_ctzll(high) : 64;
            if (wide)
                v_store_widen32(dst32 + o, w);
            else
                v_store_widen16(dst + o, w, be);
            i += a;
            o += a;
            continue;
        }
        /* Starts: not 80..BF, i.e. not below -64 as a signed byte. */
        starts = ~(uint64_t)_mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64));
        if (!wide && !_mm512_cmpge_epu8_mask(w, _mm512_set1_epi8((char)0xF0))) {
            /* Blocks at a fixed stride from i while they hold no byte
             * F0..FF (u8k_block16); w is checked already. The block
             * before i counts as zeros: nothing before i is pending (i is
             * a character start). done = the end of the last character
             * stored, where the windows (or the scalar kernel, after an
             * error) go on. The blocks after the first are checked here,
             * each against the one before it. */
            size_t b = i + 64, done = i;
            __m512i prev = w;
            bool bad = false;
            uint64_t e;
            o += u8k_block16(w, _mm512_setzero_si512(), dst + o, be, &e);
            /* e != 0: w holds 61 or more bytes of whole characters */
            done = b - (size_t)__builtin_clzll(e);
            while (b + 64 <= len && o + 64 <= cap) {
                w = v_load(src + b);
                if (v_high(w) == 0) {
                    /* All ASCII: valid unless prev ends inside a
                     * character (as in u8k_vblock). */
                    if (v_any(v_subs(prev, st.tailmax))) {
                        bad = true;
                        break;
                    }
                    v_store_widen16(dst + o, w, be);
                    o += 64;
                    done = b + 64;
                } else {
                    if (_mm512_cmpge_epu8_mask(w, _mm512_set1_epi8((char)0xF0)))
                        break;
                    /* checked in the same stride, against the block
                     * before (the decoding and the check share p1, p2) */
                    if (v_any(u8k_vcheck2(&st, w, prev))) {
                        bad = true;
                        break;
                    }
                    o += u8k_block16(w, prev, dst + o, be, &e);
                    if (e)
                        done = b + 64 - (size_t)__builtin_clzll(e);
                }
                prev = w;
                b += 64;
            }
            /* Every block before b is checked now; the windows' check-ahead
             * goes on from there. */
            if (checked < b) {
                checked = b;
                st.prev = prev;
            }
            i = done;
            if (bad)
                goto rest;
            continue;
        }
        sel = starts & U8K_WINDOW_STARTS;
        /* Every character starting at 0..60, 16 at a time (at most 4
         * groups); the next window starts at the first start in 61..63,
         * or at 64 (the bit 3 << 61 stands for offset 64). */
        do {
            uint64_t g = __builtin_popcountll(sel) > 16 ? _pdep_u64(0xFFFF, sel) : sel;
            sel &= ~g;
            if (wide)
                o += u8k_group(w, g, dst32 + o, true, false);
            else
                o += u8k_group(w, g, dst + o, false, be);
        } while (sel);
        i += 61 + (size_t)__builtin_ctzll((starts >> 61) | 8);
    }
    /* The last 1..63 bytes (all of a short input): one masked window,
     * checked on its own from a fresh state (i is a character start after
     * valid text), its zero padding showing an unfinished last character.
     * Checked, it holds complete characters only, so at most one unit per
     * byte is written. */
    if (i < len && len - i < 64 && cap - o >= len - i) {
        size_t rem = len - i;
        __m512i w = v_load_part(src + i, rem);
        uint64_t sel;
        u8k_vinit(&st);
        if (!v_any(u8k_vcheck(&st, w))) {
            sel = ~(uint64_t)_mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64)) &
                  ((UINT64_C(1) << rem) - 1);
            while (sel) {
                uint64_t g = __builtin_popcountll(sel) > 16 ? _pdep_u64(0xFFFF, sel) : sel;
                sel &= ~g;
                if (wide)
                    o += u8k_group(w, g, dst32 + o, true, false);
                else
                    o += u8k_group(w, g, dst + o, false, be);
            }
            i = len;
        }
    }
rest:
    r = wide ? u8k_scalar_utf8_to_utf32(src + i, len - i, dst32 + o, cap - o, flags)
             : u8k_scalar_utf8_to_utf16(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

static utf8kit_result simd_utf8_to_utf16_vbmi2(const unsigned char *src, size_t len, uint16_t *dst,
                                               size_t cap, unsigned flags)
{
    return u8k_utf8_to_units(src, len, dst, cap, flags, false);
}

static utf8kit_result simd_utf8_to_utf32_vbmi2(const unsigned char *src, size_t len, uint32_t *dst,
                                               size_t cap, unsigned flags)
{
    return u8k_utf8_to_units(src, len, dst, cap, flags, true);
}

#endif /* UTF8KIT_SIMD_COMPRESS_H */
