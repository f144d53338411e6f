/*
 * simd/compress_to_utf8.h - UTF-16 and UTF-32 to UTF-8 for AVX-512 (VBMI
 * multishift, VBMI2 compress, CD lzcnt). Included by
 * src/x86/kernels_avx512.c after simd/transcode.h. Ideas from
 * R. Clausecker and D. Lemire, "Transcoding Unicode Characters with
 * AVX-512 Instructions", Software: Practice and Experience 53(12), 2023,
 * in our own form:
 *
 * UTF-16 -> UTF-8 takes 32 units (64 bytes) per step:
 *  - all ASCII: narrow to 32 bytes;
 *  - all below U+0800: each 16-bit lane becomes its 1 or 2 bytes in
 *    place, and one compress keeps the used ones (at most 64);
 *  - otherwise the surrogates are checked once for the whole block by
 *    masks (every low one follows a high one; a high one in the last
 *    unit waits for the next step), the units are widened to 32-bit
 *    lanes, each pair is joined in the lane of its high half, and every
 *    lane becomes its 1 to 4 bytes (u8k_utf8_lanes), two compresses.
 * The last 1..31 units are one masked block of the same kind. Stores are
 * masked to the bytes produced, and a block is stored only when all its
 * bytes fit, so nothing is written past the room or past what the result
 * reports. A block with an unpaired surrogate, and one that does not fit,
 * goes to the scalar reference kernel, which gives the exact report.
 *
 * UTF-32 -> UTF-8 takes 16 values per step with the same lane encoder.
 */
#ifndef UTF8KIT_SIMD_COMPRESS_TO_UTF8_H
#define UTF8KIT_SIMD_COMPRESS_TO_UTF8_H

#include "internal.h"

/* The low n bits set, n <= 64. */
#define U8K_LOW64(n) _bzhi_u64(~UINT64_C(0), (unsigned)(n))

/* Per leading-zero count (index: lzcnt mod 32) of a code point in a
 * 32-bit lane, the byte masks (U8K_KEEP_*) and the marker bits
 * (U8K_MARK_*) of its UTF-8 form when the four bytes of the lane hold,
 * lowest first, bits 18.., 12.., 6.. and 0.. of the value: a character of
 * k bytes uses the last k bytes of the lane.
 *   lz 25..32 (U+0000..007F):   0xxxxxxx
 *   lz 21..24 (U+0080..07FF):   110xxxxx 10xxxxxx
 *   lz 16..20 (U+0800..FFFF):   1110xxxx 10xxxxxx 10xxxxxx
 *   lz 11..15 (U+10000..10FFFF): 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
 * (lz 1..10 cannot occur for a scalar value; lz 32, the value 0, wraps
 * to index 0.) A byte that is not used has mask 0. */
#define U8K_K1 0x7F000000
#define U8K_K2 0x3F1F0000
#define U8K_K3 0x3F3F0F00
#define U8K_K4 0x3F3F3F07
#define U8K_M2 (int)0x80C00000u
#define U8K_M3 (int)0x8080E000u
#define U8K_M4 (int)0x808080F0u
/* _mm512_set_epi32 lists lanes 15 down to 0: the first table covers
 * indices 0..15, the second 16..31. */
#define U8K_BY_LZ_LO(k1, k4)                                                                \
    _mm512_set_epi32(k4, k4, k4, k4, k4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, k1)
#define U8K_BY_LZ_HI(k1, k2, k3)                                                            \
    _mm512_set_epi32(k1, k1, k1, k1, k1, k1, k1, k2, k2, k2, k2, k3, k3, k3, k3, k3)

/* Multishift selectors giving each 32-bit lane bits 18.., 12.., 6.. and
 * 0.. of its value, lowest byte first (the upper lane of each 64-bit word
 * adds 32). */
#define U8K_SEL_UTF8_4 _mm512_set1_epi64(0x20262C3200060C12)

/* The UTF-8 form of the code points in the 32-bit lanes of c selected by
 * `lanes` (scalar values), packed to the low bytes of the result; *n gets
 * its length (at most 64). */
U8K_INLINE __m512i u8k_utf8_lanes(__m512i c, __mmask16 lanes, unsigned *n)
{
    __m512i lz = _mm512_lzcnt_epi32(c);
    __m512i keep = _mm512_maskz_permutex2var_epi32(lanes, U8K_BY_LZ_LO(U8K_K1, U8K_K4), lz,
                                                   U8K_BY_LZ_HI(U8K_K1, U8K_K2, U8K_K3));
    __m512i mark = _mm512_permutex2var_epi32(U8K_BY_LZ_LO(0, U8K_M4), lz,
                                             U8K_BY_LZ_HI(0, U8K_M2, U8K_M3));
    __m512i bits = _mm512_multishift_epi64_epi8(U8K_SEL_UTF8_4, c);
    /* (bits & keep) | mark: ternary-logic truth table with A = bits (F0),
     * B = keep (CC), C = mark (AA): (F0 & CC) | AA = EA. */
    __m512i out = _mm512_ternarylogic_epi32(bits, keep, mark, 0xEA);
    __mmask64 used = _mm512_test_epi8_mask(keep, keep);
    *n = (unsigned)_mm_popcnt_u64(used);
    return _mm512_maskz_compress_epi8(used, out);
}

/* Swaps the two bytes of every 16-bit unit (big-endian input). */
U8K_INLINE __m512i u8k_bswap16(__m512i v) { return _mm512_shldi_epi16(v, v, 8); }

/* Multishift selector giving each 16-bit lane bits 6.. (low byte) and
 * 0.. (high byte) of its unit. */
#define U8K_SEL_UTF8_2 _mm512_set1_epi64(0x3036202610160006)

/* What a block step did: bytes written, or one of these. */
#define U8K_BLOCK_SCALAR (-1) /* an unpaired surrogate: ask the scalar kernel */
#define U8K_BLOCK_FULL (-2)   /* its bytes do not fit in the room left */

/* Converts the units of u (32 host-order units) selected by `valid` (the
 * low 1..32 bits; the other units are 0) to dst, given
 * room bytes of room. Returns the bytes written and sets *used to the
 * units converted (all valid ones, or one less when the last of 32 is a
 * high surrogate), or returns U8K_BLOCK_SCALAR / U8K_BLOCK_FULL having
 * written nothing. */
U8K_INLINE int u8k_utf16_block(__m512i u, __mmask32 valid, unsigned char *dst, size_t room,
                               unsigned *used)
{
    __mmask32 high = _mm512_test_epi16_mask(u, _mm512_set1_epi16((short)0xFF80));
    unsigned count = (unsigned)_mm_popcnt_u32(valid);
    __mmask32 hs, ls, lanes;
    __m512i w, lo, hi, x, y;
    unsigned n1, n2;
    if (!high) {
        if (room < count)
            return U8K_BLOCK_FULL;
        _mm256_mask_storeu_epi8(dst, valid, _mm512_cvtepi16_epi8(u));
        *used = count;
        return (int)count;
    }
    if (!_mm512_test_epi16_mask(u, _mm512_set1_epi16((short)0xF800))) {
        /* U+0080..07FF: 110xxxxx 10xxxxxx in the lane, first byte low:
         * ((unit >> 6) | C0) low, ((unit & 3F) | 80) high, by one
         * multishift and a ternary (x & 3FFF) | 80C0 (truth table EA as
         * in u8k_utf8_lanes); ASCII lanes keep the unit. Used bytes: the
         * low byte of each valid lane, and the high byte where it has its
         * top bit set (only two-byte forms; an ASCII lane's is 0). */
        __m512i two = _mm512_ternarylogic_epi32(_mm512_multishift_epi64_epi8(U8K_SEL_UTF8_2, u),
                                                _mm512_set1_epi16(0x3FFF),
                                                _mm512_set1_epi16((short)0x80C0), 0xEA);
        __m512i out = _mm512_mask_mov_epi16(u, high, two);
        __mmask64 keep = (_mm512_movepi8_mask(out) | UINT64_C(0x5555555555555555)) &
                         U8K_LOW64(2 * count);
        unsigned n = (unsigned)_mm_popcnt_u64(keep);
        if (room < n)
            return U8K_BLOCK_FULL;
        _mm512_mask_storeu_epi8(dst, U8K_LOW64(n), _mm512_maskz_compress_epi8(keep, out));
        *used = count;
        return (int)n;
    }
    /* Surrogates: high D800..DBFF, low DC00..DFFF. */
    w = _mm512_and_si512(u, _mm512_set1_epi16((short)0xFC00));
    hs = _mm512_cmpeq_epi16_mask(w, _mm512_set1_epi16((short)0xD800));
    ls = _mm512_cmpeq_epi16_mask(w, _mm512_set1_epi16((short)0xDC00));
    lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(u));
    hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(u, 1));
    lanes = valid;
    if (hs | ls) {
        /* Well paired when every low one follows a high one: ls is hs
         * moved up one unit, once a high one in unit 31 is left for the
         * next step. The value of a pair (h, l) is
         * 10000 + (h - D800) * 400 + (l - DC00) = h * 400 + l - 35FDC00. */
        const __m512i bias = _mm512_set1_epi32(0x35FDC00);
        if (hs >> 31) {
            hs &= 0x7FFFFFFFu;
            lanes &= 0x7FFFFFFFu;
            count--;
        }
        if (ls != (__mmask32)(hs << 1))
            return U8K_BLOCK_SCALAR;
        lanes &= ~ls;
        x = _mm512_sub_epi32(_mm512_alignr_epi32(hi, lo, 1), bias);
        y = _mm512_sub_epi32(_mm512_alignr_epi32(hi, hi, 1), bias);
        lo = _mm512_mask_add_epi32(lo, (__mmask16)hs, _mm512_slli_epi32(lo, 10), x);
        hi = _mm512_mask_add_epi32(hi, (__mmask16)(hs >> 16), _mm512_slli_epi32(hi, 10), y);
    }
    x = u8k_utf8_lanes(lo, (__mmask16)lanes, &n1);
    y = u8k_utf8_lanes(hi, (__mmask16)(lanes >> 16), &n2);
    if (room < n1 + n2)
        return U8K_BLOCK_FULL;
    _mm512_mask_storeu_epi8(dst, U8K_LOW64(n1), x);
    _mm512_mask_storeu_epi8(dst + n1, U8K_LOW64(n2), y);
    *used = count;
    return (int)(n1 + n2);
}

static utf8kit_result simd_utf16_to_utf8_vbmi2(const uint16_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    bool be = (flags & U8K_BE) != 0;
    size_t i = 0, o = 0;
    utf8kit_result r;
    for (;;) {
        __m512i u;
        unsigned used;
        int n;
        if (len - i >= 32) {
            u = _mm512_loadu_si512((const void *)(src + i));
            if (be)
                u = u8k_bswap16(u);
            n = u8k_utf16_block(u, ~(__mmask32)0, dst + o, cap - o, &used);
        } else if (i < len) {
            /* The last units: a masked load reads only them. */
            __mmask32 valid = (__mmask32)_bzhi_u32(~0u, (unsigned)(len - i));
            u = _mm512_maskz_loadu_epi16(valid, (const void *)(src + i));
            if (be)
                u = u8k_bswap16(u);
            n = u8k_utf16_block(u, valid, dst + o, cap - o, &used);
        } else {
            return u8k_res(UTF8KIT_OK, i, o, 0);
        }
        if (U8K_LIKELY(n >= 0)) {
            i += used;
            o += (unsigned)n;
            continue;
        }
        if (n == U8K_BLOCK_SCALAR) {
            /* An unpaired surrogate in the next 32 units: the scalar
             * kernel reports it (under U8K_TRUSTED it replaces it and we
             * go on). The stretch does not end on a high surrogate unless
             * the input does, so its errors are the input's. */
            size_t j = u8k_stretch16(src, len, i, be);
            r = u8k_scalar_utf16_to_utf8(src + i, j - i, dst + o, cap - o, flags);
            if (r.status == UTF8KIT_OK) {
                i = j;
                o += r.written;
                continue;
            }
            return u8k_shift(r, i, o);
        }
        /* The room runs out within this block. */
        r = u8k_scalar_utf16_to_utf8(src + i, len - i, dst + o, cap - o, flags);
        return u8k_shift(r, i, o);
    }
}

/* UTF-32 -> UTF-8, 16 values per step (the last 1..15 one masked step);
 * a block holding a surrogate or a value above 10FFFF goes to the scalar
 * kernel (which reports it), as does one that does not fit. */
static utf8kit_result simd_utf32_to_utf8_vbmi2(const uint32_t *src, size_t len, unsigned char *dst,
                                               size_t cap, unsigned flags)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i < len) {
        __mmask16 valid = 0xFFFF;
        __m512i c, x;
        unsigned n, count = 16;
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
            return u8k_shift(r, i, o);
        }
        x = u8k_utf8_lanes(c, valid, &n);
        if (cap - o < n)
            break;
        _mm512_mask_storeu_epi8(dst + o, U8K_LOW64(n), x);
        i += count;
        o += n;
    }
    /* the end, or a block that does not fit: the scalar kernel */
    r = u8k_scalar_utf32_to_utf8(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_COMPRESS_TO_UTF8_H */
