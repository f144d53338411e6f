/*
 * simd/latin1_avx512.h - Latin-1 <-> UTF-8 for AVX-512 (VBMI2 compress),
 * with 16-bit lanes. Included by src/x86/kernels_avx512.c after
 * simd/compress.h, whose window machinery it uses.
 */
#ifndef UTF8KIT_SIMD_LATIN1_AVX512_H
#define UTF8KIT_SIMD_LATIN1_AVX512_H

#include "internal.h"

/* Latin-1 -> UTF-8, 32 bytes per step: each byte b in a 16-bit lane
 * becomes b (below 80) or C0|b>>6, 80|b&3F (two bytes, lowest first);
 * compress keeps the low byte of every lane and the high byte of the
 * two-byte ones. Latin-1 has no errors; only the room can run out. */
static utf8kit_result simd_latin1_to_utf8_vbmi2(const unsigned char *src, size_t len,
                                                unsigned char *dst, size_t cap)
{
    size_t i = 0, o = 0;
    utf8kit_result r;
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w = v_load(src + i), c, two;
        __mmask32 m;
        uint64_t keep;
        unsigned n;
        if (v_high(w) == 0) {
            v_store(dst + o, w);
            i += 64;
            o += 64;
            continue;
        }
        c = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(w));
        m = _mm512_cmpge_epu16_mask(c, _mm512_set1_epi16(0x80));
        two = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi16(c, 6), _mm512_set1_epi16((short)0x80C0)),
            _mm512_slli_epi16(_mm512_and_si512(c, _mm512_set1_epi16(0x3F)), 8));
        c = _mm512_mask_mov_epi16(c, m, two);
        keep = UINT64_C(0x5555555555555555) | _pdep_u64((uint64_t)m, UINT64_C(0xAAAAAAAAAAAAAAAA));
        n = (unsigned)__builtin_popcountll(keep);
        _mm512_mask_storeu_epi8(dst + o, n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1,
                                _mm512_maskz_compress_epi8(keep, c));
        i += 32;
        o += n;
    }
    r = u8k_scalar_latin1_to_utf8(src + i, len - i, dst + o, cap - o);
    return u8k_shift(r, i, o);
}

/* UTF-8 -> Latin-1 over windows of 64 bytes at a character start, checked
 * a window ahead as in simd_utf8_to_utf16_vbmi2. When every byte is below
 * C4 the window holds only U+0000..U+00FF: ASCII bytes are kept, each
 * tail becomes (lead & 3) << 6 | (tail & 3F), and the leads (C2, C3) are
 * dropped by compress. A lead in the last byte waits for the next window.
 * A byte C4 or above means a character Latin-1 cannot hold (or an error):
 * the scalar kernel takes the rest and reports it. */
static utf8kit_result simd_utf8_to_latin1_vbmi2(const unsigned char *src, size_t len,
                                                unsigned char *dst, size_t cap, unsigned flags)
{
    bool trusted = (flags & U8K_TRUSTED) != 0;
    size_t i = 0, o = 0, checked = 0;
    u8k_vstate st;
    utf8kit_result r;
    u8k_vinit(&st);
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w, p1, val;
        uint64_t leads, tails, keep;
        unsigned n, used;
        w = v_load(src + i);
        if (v_high(w) == 0) {
            /* as in u8k_utf8_to_units */
            if (checked <= i + 64) {
                checked = i + 64;
                st.prev = w;
            }
            v_store(dst + o, w);
            i += 64;
            o += 64;
            continue;
        }
        while (checked < i + 64) {
            __m512i cur;
            if (checked + 64 > len)
                goto rest;
            cur = v_load(src + checked);
            if (!trusted && u8k_vblock(&st, cur))
                goto rest;
            checked += 64;
        }
        if (_mm512_cmpge_epu8_mask(w, _mm512_set1_epi8((char)0xC4)))
            goto rest;
        leads = _mm512_cmpge_epu8_mask(w, _mm512_set1_epi8((char)0xC0));
        tails = _mm512_cmpge_epu8_mask(w, _mm512_set1_epi8((char)0x80)) & ~leads;
        used = 64;
        if (leads >> 63) {
            used = 63;
            leads &= ~(UINT64_C(1) << 63);
        }
        /* The byte before each one (byte 0's is never needed: a window
         * starts at a character). */
        p1 = _mm512_permutexvar_epi8(U8K_IDX(1), w);
        /* The 16-bit shift leaks bits across bytes: only bits 6-7 of each
         * byte come from its own (lead & 3) << 6, so mask per byte. */
        val = _mm512_or_si512(
            _mm512_and_si512(_mm512_slli_epi16(_mm512_and_si512(p1, _mm512_set1_epi8(3)), 6),
                             _mm512_set1_epi8((char)0xC0)),
            _mm512_and_si512(w, _mm512_set1_epi8(0x3F)));
        val = _mm512_mask_mov_epi8(w, tails, val);
        keep = ~leads & (used == 64 ? ~UINT64_C(0) : (UINT64_C(1) << used) - 1);
        n = (unsigned)__builtin_popcountll(keep);
        _mm512_mask_storeu_epi8(dst + o, n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1,
                                _mm512_maskz_compress_epi8(keep, val));
        i += used;
        o += n;
    }
rest:
    r = u8k_scalar_utf8_to_latin1(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_LATIN1_AVX512_H */
