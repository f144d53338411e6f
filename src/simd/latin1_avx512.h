/*
 * simd/latin1_avx512.h - Latin-1 <-> UTF-8 for AVX-512 (BW, VBMI, VBMI2
 * byte compress), 64 input bytes per step. Included by
 * src/x86/kernels_avx512.c; it needs only the vector layer there (v_load,
 * v_store).
 *
 * Both kernels run a lean loop over whole blocks while there is room for
 * a full vector store, then take the last, partial block (and any block
 * near the end of the room) through the same arithmetic with a masked
 * load, which never touches the bytes it does not select, and a masked
 * store: a short string is one step, not a scalar loop. The scalar kernel
 * only finishes what the vector code stops at (an error, a character
 * above U+00FF, the end of the room), so every result is its own.
 */
#ifndef UTF8KIT_SIMD_LATIN1_AVX512_H
#define UTF8KIT_SIMD_LATIN1_AVX512_H

#include "internal.h"

/* The low n bits set, 0 <= n <= 64. */
U8K_INLINE uint64_t u8k_low_bits(size_t n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* Stores the first n bytes of v at d, n <= 64 and n <= room; a whole
 * vector when room allows (the bytes beyond n are rewritten by the next
 * store or are beyond what the caller reports as written). */
U8K_INLINE void u8k_store_n(unsigned char *d, __m512i v, size_t n, size_t room)
{
    if (room >= 64)
        v_store(d, v);
    else
        _mm512_mask_storeu_epi8(d, u8k_low_bits(n), v);
}

/* The input bytes at s (left of them, 0 < left; 64 read at most, none
 * beyond left). */
U8K_INLINE __m512i u8k_load_upto64(const unsigned char *s, size_t left)
{
    return left >= 64 ? v_load(s) : _mm512_maskz_loadu_epi8(u8k_low_bits(left), s);
}

/* Byte k of U8K_L1_IDX(b) is b + k/2 for even k, 64 + b + k/2 for odd k:
 * permutex2var with it interleaves bytes b..b+31 of two vectors. */
#define U8K_P(b, k) (char)((k) % 2 ? 64 + (b) + (k) / 2 : (b) + (k) / 2)
#define U8K_P8(b, k)                                                                        \
    U8K_P(b, k + 7), U8K_P(b, k + 6), U8K_P(b, k + 5), U8K_P(b, k + 4), U8K_P(b, k + 3),    \
        U8K_P(b, k + 2), U8K_P(b, k + 1), U8K_P(b, k)
#define U8K_L1_IDX(b)                                                                       \
    _mm512_set_epi8(U8K_P8(b, 56), U8K_P8(b, 48), U8K_P8(b, 40), U8K_P8(b, 32), U8K_P8(b, 24), \
                    U8K_P8(b, 16), U8K_P8(b, 8), U8K_P8(b, 0))

/* Latin-1 -> UTF-8 of the k <= 64 bytes w (the others zero), high = their
 * high-bit mask, none zero, to d with `room` bytes of room: false when the
 * output (k + number of bytes >= 80) does not fit. Byte b becomes the
 * pair lead, tail = C0|b>>6, 80|b&3F when b >= 80, else b alone: every
 * byte gets its lead (b itself below 80) and its tail, the two vectors
 * are interleaved (32 pairs per vector) and compress drops the tails of
 * the ASCII bytes. */
U8K_INLINE bool u8k_l1_block(__m512i w, uint64_t high, size_t k, unsigned char *d, size_t room,
                             size_t *written)
{
    size_t n = k + (size_t)__builtin_popcountll(high), n0;
    __m512i lead, tail, pairs;
    const __mmask64 evens = (__mmask64)UINT64_C(0x5555555555555555);
    __mmask64 keep;
    if (room < n)
        return false;
    /* (A & B) | C: the 16-bit shift brings bits of the next byte into bits
     * 2-7, which the mask 03 clears. */
    lead = _mm512_ternarylogic_epi32(_mm512_srli_epi16(w, 6), _mm512_set1_epi8(3),
                                     _mm512_set1_epi8((char)0xC0), 0xEA);
    lead = _mm512_mask_mov_epi8(w, high, lead);
    /* b & BF is 80|b&3F for b >= 80 and has no high bit below 80: the
     * tails to keep are the odd bytes with the high bit (the even ones,
     * leads, are all kept) */
    tail = _mm512_and_si512(w, _mm512_set1_epi8((char)0xBF));
    n0 = (k < 32 ? k : 32) + (size_t)__builtin_popcount((uint32_t)high);
    pairs = _mm512_permutex2var_epi8(lead, U8K_L1_IDX(0), tail);
    keep = _kor_mask64(_mm512_movepi8_mask(pairs), evens);
    u8k_store_n(d, _mm512_maskz_compress_epi8(keep, pairs), n0, room);
    if (k > 32) {
        pairs = _mm512_permutex2var_epi8(lead, U8K_L1_IDX(32), tail);
        keep = _kor_mask64(_mm512_movepi8_mask(pairs), evens);
        u8k_store_n(d + n0, _mm512_maskz_compress_epi8(keep, pairs), n - n0, room - n0);
    }
    *written = n;
    return true;
}

/* The bytes 80..9F of w, as a mask. */
U8K_INLINE uint64_t u8k_c1_mask(__m512i w)
{
    return (uint64_t)_mm512_cmpeq_epi8_mask(_mm512_and_si512(w, _mm512_set1_epi8((char)0xE0)),
                                            _mm512_set1_epi8((char)0x80));
}

/* latin1_to_utf8_c1 (windows-1252): the loop of u8k_latin1_to_utf8_vbmi2
 * below, but the conversion ends before the first byte 80..9F, OK with
 * read there: its bytes are cut from a non-ASCII block (u8k_c1_mask, two
 * operations), and the scalar kernel is given only the bytes before the
 * next one. (Not split in two parts: a stretch of windows-1252 between two
 * bytes 80..9F is seldom long.) */
static utf8kit_result simd_latin1_to_utf8_c1_vbmi2(const unsigned char *src, size_t len,
                                                   unsigned char *dst, size_t cap)
{
    size_t i = 0, o = 0, n;
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w = v_load(src + i);
        uint64_t high = (uint64_t)_mm512_movepi8_mask(w), m;
        if (high == 0) {
            v_store(dst + o, w);
            i += 64;
            o += 64;
            continue;
        }
        m = u8k_c1_mask(w);
        if (m != 0) {
            len = i + (size_t)__builtin_ctzll(m);
            break;
        }
        if (!u8k_l1_block(w, high, 64, dst + o, cap - o, &n))
            goto rest;
        i += 64;
        o += n;
    }
    if (len - i < 64 && len > i) {
        size_t k = len - i;
        __m512i w = _mm512_maskz_loadu_epi8(u8k_low_bits(k), src + i);
        uint64_t high = (uint64_t)_mm512_movepi8_mask(w);
        if (high != 0) {
            uint64_t m = u8k_c1_mask(w);
            if (m != 0) {
                k = (size_t)__builtin_ctzll(m);
                len = i + k;
                w = _mm512_maskz_mov_epi8(u8k_low_bits(k), w);
                high &= u8k_low_bits(k);
            }
        }
        if (high == 0) {
            /* (k is 0 when the part starts at a byte 80..9F) */
            if (cap - o >= k) {
                u8k_store_n(dst + o, w, k, cap - o);
                i += k;
                o += k;
            }
        } else if (u8k_l1_block(w, high, k, dst + o, cap - o, &n)) {
            i += k;
            o += n;
        }
    }
rest:
    /* (len is the byte 80..9F the loops found, if they did) */
    return u8k_latin1_rest(src, i, len, dst, o, cap, true);
}

/* Latin-1 -> UTF-8: whole blocks of 64, then the last part as a block of
 * fewer. A block is converted only when its whole output fits; otherwise
 * the scalar kernel converts what fits and reports the rest, so the result
 * is the reference's. Latin-1 has no errors. (latin1_to_utf8_c1 above is
 * this loop with its stops added; as one inline loop for both, gcc laid
 * this one out otherwise, and French text went 0.91x.) */
static utf8kit_result u8k_latin1_to_utf8_vbmi2(const unsigned char *src, size_t len,
                                               unsigned char *dst, size_t cap)
{
    size_t i = 0, o = 0, n;
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w = v_load(src + i);
        uint64_t high = (uint64_t)_mm512_movepi8_mask(w);
        if (high == 0) {
            v_store(dst + o, w);
            i += 64;
            o += 64;
            continue;
        }
        if (!u8k_l1_block(w, high, 64, dst + o, cap - o, &n))
            goto rest;
        i += 64;
        o += n;
    }
    if (len - i < 64 && len > i) {
        size_t k = len - i;
        __m512i w = _mm512_maskz_loadu_epi8(u8k_low_bits(k), src + i);
        uint64_t high = (uint64_t)_mm512_movepi8_mask(w);
        if (high == 0) {
            if (cap - o >= k) {
                u8k_store_n(dst + o, w, k, cap - o);
                i += k;
                o += k;
            }
        } else if (u8k_l1_block(w, high, k, dst + o, cap - o, &n)) {
            i += k;
            o += n;
        }
    }
rest:
    return u8k_latin1_rest(src, i, len, dst, o, cap, false);
}

/*
 * UTF-8 -> Latin-1 at a fixed stride of 64 bytes. Valid UTF-8 of
 * characters U+0000..U+00FF has only ASCII bytes and pairs C2|C3 then a
 * tail 80..BF (RFC 3629: U+0080..U+00BF = C2 80..C2 BF, U+00C0..U+00FF =
 * C3 80..C3 BF). So a block is exactly that (with at most a lead in its
 * last byte, whose tail opens the next block) when, on its 64-bit byte
 * masks,
 *   tails == leads << 1 | lead_in  (each lead has one tail, each tail a lead)
 *   high  == leads | tails         (no C0, C1, C4..FF)
 * and then each character is its tail, plus 40 after C3 (C3 80 = U+00C0),
 * or its ASCII byte; compress drops the leads. A block that fails the
 * test holds an error or a character above U+00FF: its bytes up to the
 * first wrong one are converted the same way and the scalar kernel goes
 * on from there, so it reports that character exactly (and, under
 * U8K_TRUSTED, drops invalid bytes as the reference does).
 */
/* One non-ASCII block w of the fast loop (high: its high-bit mask) at
 * src + *i to d + *o, with room for 64 bytes. Returns 0 when the block is
 * converted (*i += 64, carries updated), 1 when it was converted up to the
 * character holding its first wrong byte (*i and *o moved to it, the
 * caller reports it), 2 when that byte is where the block starts (nothing
 * done; a carried lead is still in *lead_in). */
U8K_INLINE int u8k_to_l1_block(__m512i w, uint64_t high, uint64_t *lead_in, uint64_t *c3_in,
                               unsigned char *d, size_t *i, size_t *o)
{
    uint64_t tails, leads, c3, bad, keep;
    size_t q;
    /* 80..BF are the signed bytes below -64; C2, C3 the bytes whose
     * difference from C2 is below 2 (unsigned). */
    tails = _mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64));
    leads = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w, _mm512_set1_epi8((char)0xC2)),
                                   _mm512_set1_epi8(2));
    bad = (tails ^ (leads << 1 | *lead_in)) | (high ^ leads ^ tails);
    c3 = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8((char)0xC3));
    w = _mm512_mask_add_epi8(w, c3 << 1 | *c3_in, w, _mm512_set1_epi8(0x40));
    if (U8K_LIKELY(bad == 0)) {
        v_store(d, _mm512_maskz_compress_epi8(~leads, w));
        *o += 64 - (size_t)__builtin_popcountll(leads);
        *i += 64;
        *lead_in = leads >> 63;
        *c3_in = c3 >> 63;
        return 0;
    }
    /* A missing tail belongs to the lead before it. */
    q = (size_t)__builtin_ctzll(bad);
    if (q > 0 && (leads >> (q - 1) & 1))
        q--;
    if (q == 0)
        return 2;
    keep = ~leads & u8k_low_bits(q);
    v_store(d, _mm512_maskz_compress_epi8(keep, w));
    *o += (size_t)__builtin_popcountll(keep);
    *i += q;
    *lead_in = 0;
    return 1;
}

/* (in two parts when long, as UTF-16/32 input: u8k_split) */
static utf8kit_result simd_latin1_to_utf8_vbmi2(const unsigned char *src, size_t len,
                                                unsigned char *dst, size_t cap)
{
    return u8k_split8(u8k_latin1_to_utf8_vbmi2, src, len, dst, cap);
}

static utf8kit_result simd_utf8_to_latin1_vbmi2(const unsigned char *src, size_t len,
                                                unsigned char *dst, size_t cap, unsigned flags)
{
    const __m512i c2 = _mm512_set1_epi8((char)0xC2);
    size_t i = 0, o = 0, n;
    uint64_t lead_in = 0, c3_in = 0; /* bit 0: byte i-1 is a lead (C3) waiting */
    utf8kit_result r;
    int st;
    /* The common case: whole blocks with room for their stores, nothing
     * wrong. (Two blocks per step, copied when both are ASCII, measured
     * slower.) */
    while (i + 64 <= len && o + 64 <= cap) {
        __m512i w = v_load(src + i);
        uint64_t high = (uint64_t)_mm512_movepi8_mask(w);
        if ((high | lead_in) == 0) {
            v_store(dst + o, w);
            i += 64;
            o += 64;
            continue;
        }
        st = u8k_to_l1_block(w, high, &lead_in, &c3_in, dst + o, &i, &o);
        if (st == 1)
            goto stop;
        if (st == 2)
            break;
    }
    /* The same, one block at a time, for the end of the input or of the
     * room, or for a wrong byte at the start of a block. */
    for (;;) {
        size_t left = len - i, room = cap - o, k;
        __m512i w;
        uint64_t high, tails, leads, c3, bad, keep;
        if (left == 0)
            break;
        k = left < 64 ? left : 64;
        w = u8k_load_upto64(src + i, left);
        high = (uint64_t)_mm512_movepi8_mask(w);
        /* 80..BF are the signed bytes below -64; C2, C3 the bytes whose
         * difference from C2 is below 2 (unsigned). Bytes beyond the input
         * are zero: a lead in its last byte finds no tail there. */
        tails = _mm512_cmplt_epi8_mask(w, _mm512_set1_epi8(-64));
        leads = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(w, c2), _mm512_set1_epi8(2));
        bad = (tails ^ (leads << 1 | lead_in)) | (high ^ leads ^ tails);
        keep = ~leads & u8k_low_bits(k);
        if (U8K_UNLIKELY(bad != 0)) {
            /* Convert up to the character holding the first wrong byte:
             * a tail that is missing belongs to the lead before it. */
            size_t q = (size_t)__builtin_ctzll(bad);
            if (q == 0 && lead_in)
                break; /* the scalar kernel starts at the lead, i - 1 */
            if (q > 0 && (leads >> (q - 1) & 1))
                q--;
            if (q == 0)
                break;
            k = q;
            keep &= u8k_low_bits(q);
        }
        c3 = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8((char)0xC3));
        n = (size_t)__builtin_popcountll(keep);
        if (room < n)
            break;
        w = _mm512_mask_add_epi8(w, c3 << 1 | c3_in, w, _mm512_set1_epi8(0x40));
        u8k_store_n(dst + o, _mm512_maskz_compress_epi8(keep, w), n, room);
        o += n;
        i += k;
        if (k < 64) {
            lead_in = 0;
            break; /* the end of the input, or the wrong byte */
        }
        lead_in = leads >> 63;
        c3_in = c3 >> 63;
    }
stop:
    i -= (size_t)lead_in;
    if (i == len)
        return u8k_res(UTF8KIT_OK, i, o, 0);
    if (src[i] >= 0xC4 && (n = u8k_valid_len(src, i, len)) != 0)
        return u8k_res(UTF8KIT_ERR_UNREPRESENTABLE, i, o, n); /* as the scalar kernel */
    r = u8k_scalar_utf8_to_latin1(src + i, len - i, dst + o, cap - o, flags);
    return u8k_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_LATIN1_AVX512_H */
