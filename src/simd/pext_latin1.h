/*
 * simd/pext_latin1.h - Latin-1 <-> UTF-8 for 256-bit vectors without a
 * byte compress (AVX2): the bytes in use are packed 8 at a time by BMI2's
 * PEXT. src/x86/kernels_avx2.c includes it after simd/pext.h
 * (U8K_OWN_LATIN1). SSE4.2 and NEON take simd/shuffle_latin1.h.
 *
 * Both kernels run whole 32-byte blocks while there is room for the
 * largest output of one; the scalar kernel finishes what the vector loop
 * stops at (the last partial block, an error, a character above U+00FF,
 * the end of the room), so every result is the reference's own.
 */
#ifndef UTF8KIT_SIMD_PEXT_LATIN1_H
#define UTF8KIT_SIMD_PEXT_LATIN1_H

#include "internal.h"

/* Packs the bytes of v whose byte in keep is FF (others 00) to dst, 8 at a
 * time with PEXT (a quadword of keep is its own bit mask); returns how
 * many. Writes 8 bytes from the start of each group, so up to 32 bytes
 * from dst in all. */
U8K_INLINE size_t u8k_pack_kept(__m256i v, __m256i keep, unsigned char *dst)
{
    uint64_t q[4], m[4], w;
    size_t n = 0;
    int k;
    _mm256_storeu_si256((__m256i *)(void *)q, v);
    _mm256_storeu_si256((__m256i *)(void *)m, keep);
    for (k = 0; k < 4; k++) {
        w = _pext_u64(q[k], m[k]);
        memcpy(dst + n, &w, 8);
        n += (size_t)__builtin_popcountll(m[k]) / 8;
    }
    return n;
}

/* Latin-1 -> UTF-8 of the 16 bytes h: each byte b in a 16-bit lane
 * becomes b (below 80) or the pair C0|b>>6, 80|b&3F (lowest first); the
 * low byte of every lane and the high byte of the pairs are packed to d.
 * Returns the count; writes up to 32 bytes. */
U8K_INLINE size_t u8k_l1_16(__m128i h, unsigned char *d)
{
    __m256i c = _mm256_cvtepu8_epi16(h);
    __m256i two_byte = _mm256_cmpgt_epi16(c, _mm256_set1_epi16(0x7F));
    __m256i two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16(c, 6), _mm256_set1_epi16((short)0x80C0)),
        _mm256_slli_epi16(_mm256_and_si256(c, _mm256_set1_epi16(0x3F)), 8));
    return u8k_pack_kept(_mm256_blendv_epi8(c, two, two_byte),
                      _mm256_or_si256(two_byte, _mm256_set1_epi16(0x00FF)), d);
}

/* Latin-1 -> UTF-8, 32 bytes per step: an ASCII block is copied, another
 * one converted in two halves of 16. With c1 (windows-1252, the
 * latin1_to_utf8_c1 entry), the conversion ends before the first byte
 * 80..9F, OK with read there: a non-ASCII block with one ends the loop,
 * and the scalar kernel converts the bytes before it. */
U8K_INLINE utf8kit_result u8k_latin1_run(const unsigned char *src, size_t len, unsigned char *dst,
                                         size_t cap, bool c1)
{
    size_t i = 0, o = 0;
    while (i + 32 <= len && o + 64 <= cap) {
        __m256i w = v_load(src + i);
        uint32_t high = (uint32_t)_mm256_movemask_epi8(w);
        if (high == 0) {
            v_store(dst + o, w);
            i += 32;
            o += 32;
            continue;
        }
        if (c1 && _mm256_movemask_epi8(_mm256_cmpeq_epi8(
                      _mm256_and_si256(w, _mm256_set1_epi8((char)0xE0)),
                      _mm256_set1_epi8((char)0x80))) != 0)
            break;
        if (__builtin_popcount(high) <= 4 && len - i >= 64 && cap - o >= 96) {
            /* Few bytes >= 80 (most blocks of Latin text): the block is
             * copied, then at each such byte, in order, its pair is
             * written and the rest of the block copied again one byte
             * further (32-byte loads of the input beyond the block, stores
             * of up to 36 bytes beyond it: hence the bounds). */
            unsigned char *d = dst + o;
            size_t k = 0;
            v_store(d, w);
            do {
                size_t p = (size_t)__builtin_ctz(high);
                unsigned b = src[i + p];
                d[p + k] = (unsigned char)(0xC0 | b >> 6);
                d[p + k + 1] = (unsigned char)(0x80 | (b & 0x3F));
                k++;
                v_store(d + p + k + 1, v_load(src + i + p + 1));
                high &= high - 1;
            } while (high);
            i += 32;
            o += 32 + k;
            continue;
        }
        o += u8k_l1_16(_mm256_castsi256_si128(w), dst + o);
        o += u8k_l1_16(_mm256_extracti128_si256(w, 1), dst + o);
        i += 32;
    }
    return u8k_latin1_rest(src, i, len, dst, o, cap, c1);
}

static utf8kit_result u8k_latin1_to_utf8_pext(const unsigned char *src, size_t len,
                                              unsigned char *dst, size_t cap)
{
    return u8k_latin1_run(src, len, dst, cap, false);
}

/* (not split in two parts: a stretch of windows-1252 between two bytes
 * 80..9F is seldom long) */
static utf8kit_result simd_latin1_to_utf8_c1_pext(const unsigned char *src, size_t len,
                                                  unsigned char *dst, size_t cap)
{
    return u8k_latin1_run(src, len, dst, cap, true);
}

/* (in two parts when long: u8k_split) */
static utf8kit_result simd_latin1_to_utf8_pext(const unsigned char *src, size_t len,
                                               unsigned char *dst, size_t cap)
{
    return u8k_split8(u8k_latin1_to_utf8_pext, src, len, dst, cap);
}

/* UTF-8 -> Latin-1 at a fixed stride of 32 bytes, as the AVX-512 kernel
 * (simd/latin1_avx512.h): valid UTF-8 of U+0000..U+00FF is ASCII and
 * pairs C2|C3 then a tail 80..BF, so a block is exactly that (at most a
 * lead in its last byte, whose tail opens the next block) when, on its
 * 32-bit byte masks, tails == leads << 1 | lead_in and high == leads |
 * tails. Each character is then its ASCII byte or its tail, plus 40 after
 * C3; PEXT drops the leads. The first block that fails the test holds an
 * error or a character above U+00FF: it is converted up to the character
 * holding the first wrong byte, which the scalar kernel then reports (a
 * character above U+00FF is reported here directly, as it would). */
static utf8kit_result simd_utf8_to_latin1_pext(const unsigned char *src, size_t len,
                                               unsigned char *dst, size_t cap, unsigned flags)
{
    size_t i = 0, o = 0, n;
    uint32_t lead_in = 0; /* bit 0: byte i-1 is a lead waiting for its tail */
    __m256i prev_c3 = _mm256_setzero_si256(); /* FF at each C3 of the block before */
    /* byte k = k: the bytes from q on are those above q - 1 */
    const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                          29, 30, 31);
    utf8kit_result r;
    while (i + 32 <= len && o + 32 <= cap) {
        __m256i w = v_load(src + i), leads_v, c3;
        uint32_t high = (uint32_t)_mm256_movemask_epi8(w), tails, leads, bad;
        if ((high | lead_in) == 0) {
            v_store(dst + o, w);
            i += 32;
            o += 32;
            continue;
        }
        /* 80..BF: the signed bytes below -64; C2, C3: the bytes that are
         * C2 with bit 0 cleared */
        tails = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), w));
        leads_v = _mm256_cmpeq_epi8(_mm256_and_si256(w, _mm256_set1_epi8((char)0xFE)),
                                    _mm256_set1_epi8((char)0xC2));
        leads = (uint32_t)_mm256_movemask_epi8(leads_v);
        bad = (tails ^ (leads << 1 | lead_in)) | (high ^ leads ^ tails);
        /* the tail after each C3 gains 40 (C3 80 = U+00C0) */
        c3 = _mm256_cmpeq_epi8(w, _mm256_set1_epi8((char)0xC3));
        w = _mm256_or_si256(w, _mm256_and_si256(v_prev1(c3, prev_c3), _mm256_set1_epi8(0x40)));
        prev_c3 = c3;
        if (U8K_UNLIKELY(bad != 0)) {
            /* Convert up to the character holding the first wrong byte
             * (a missing tail belongs to the lead before it); the scalar
             * kernel reports that character. */
            unsigned q = (unsigned)__builtin_ctz(bad);
            if (q > 0 && (leads >> (q - 1) & 1))
                q--;
            if (q == 0)
                break; /* from the carried lead, or from i */
            leads_v = _mm256_or_si256(leads_v,
                                      _mm256_cmpgt_epi8(iota, _mm256_set1_epi8((char)(q - 1))));
            o += u8k_pack_kept(w, _mm256_xor_si256(leads_v, _mm256_set1_epi8(-1)), dst + o);
            i += q;
            lead_in = 0;
            break;
        }
        o += u8k_pack_kept(w, _mm256_xor_si256(leads_v, _mm256_set1_epi8(-1)), dst + o);
        i += 32;
        lead_in = leads >> 31;
    }
    i -= lead_in;
    if (i < len && src[i] >= 0xC4 && (n = u8k_valid_len(src, i, len)) != 0)
        return u8k_res(UTF8KIT_ERR_UNREPRESENTABLE, i, o, n); /* as the scalar kernel */
    r = u8k_scalar_utf8_to_latin1(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_PEXT_LATIN1_H */
