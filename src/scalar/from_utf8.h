/*
 * from_utf8.h - the loop the scalar UTF-8 -> UTF-16 / UTF-32 / Latin-1
 * kernels share, written once.
 *
 * u8k_from_utf8 is always inlined with a constant `out`, so each kernel
 * compiles to its own specialised loop. Contract (internal.h): STRICT
 * unless U8K_TRUSTED; an error stops the kernel with everything before it
 * converted, read = its offset, error_len = the maximal invalid subpart
 * (as u8k_decode_step). A character the target cannot hold (above U+00FF
 * for Latin-1) is UNREPRESENTABLE with error_len = its length, trusted or
 * not, since valid input can hold one. Under U8K_TRUSTED the input was
 * promised valid; should it not be, each error becomes U+FFFD (nothing in
 * Latin-1, which cannot hold it) and the kernel goes on, never reading or
 * writing out of bounds. To Latin-1 under U8K_L1_SUB (out
 * U8K_OUT_LATIN1_SUB) the kernel replaces, or drops, both kinds itself
 * (but TRUNCATED) and counts them in .replaced.
 */
#ifndef UTF8KIT_FROM_UTF8_H
#define UTF8KIT_FROM_UTF8_H

#include "decode_fast.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define U8K_HOST_BE true
#else
#define U8K_HOST_BE false
#endif

/* Eight ASCII bytes: a 64-bit word with no high bit set. */
#define U8K_HIGH_BITS UINT64_C(0x8080808080808080)

/* A 16-bit unit between its value and its in-memory form. */
U8K_INLINE uint16_t u8k_swap16_if(uint32_t v, bool swap)
{
    return (uint16_t)(swap ? ((v & 0xFFu) << 8 | (v >> 8 & 0xFFu)) : v);
}

/* U8K_OUT_LATIN1_SUB: Latin-1 under U8K_L1_SUB, a loop of its own, so
 * that the STRICT one stays as it was (with the substitution in it, the
 * scalar kernel lost 14-30% on Latin text) */
enum u8k_out { U8K_OUT_UTF16, U8K_OUT_UTF32, U8K_OUT_LATIN1, U8K_OUT_LATIN1_SUB };

/* Stores code unit v (< 0x10000; <= 0xFF for Latin-1) at index j. */
U8K_INLINE void u8k_put_unit(void *dst, enum u8k_out out, size_t j, uint32_t v, bool swap)
{
    if (out == U8K_OUT_UTF16)
        ((uint16_t *)dst)[j] = u8k_swap16_if(v, swap);
    else if (out == U8K_OUT_UTF32)
        ((uint32_t *)dst)[j] = v;
    else
        ((unsigned char *)dst)[j] = (unsigned char)v;
}

/* Inside u8k_from_utf8: the ASCII bytes at src + i to units at dst
 * index j, eight at a time while a whole word of them has no high bit
 * set and both it and its units fit. A macro, not a function: as a
 * function taking and returning counts, gcc 12 built the loop around it
 * otherwise and the kernel lost up to 13% on Cyrillic text (Zen 5). */
#define U8K_ASCII_WORDS()                                                                   \
    for (; len - i >= 8 && cap - j >= 8; i += 8, j += 8) {                                  \
        uint64_t w;                                                                         \
        int k;                                                                              \
        memcpy(&w, src + i, 8);                                                             \
        if (w & U8K_HIGH_BITS)                                                              \
            break;                                                                          \
        if (out >= U8K_OUT_LATIN1)                                                          \
            memcpy((unsigned char *)dst + j, src + i, 8);                                   \
        else                                                                                \
            for (k = 0; k < 8; k++)                                                         \
                u8k_put_unit(dst, out, j + k, src[i + k], swap);                            \
    }

/* u8k_from_utf8's result: rep errors replaced (only to Latin-1, under
 * U8K_L1_SUB; elsewhere rep is the constant 0) */
#define U8K_FROM_RES(st, i, j, n) (sub ? u8k_from_res(st, i, j, n, rep) : u8k_res(st, i, j, n))
U8K_INLINE utf8kit_result u8k_from_res(utf8kit_status st, size_t i, size_t j, size_t n, size_t rep)
{
    utf8kit_result r = u8k_res(st, i, j, n);
    r.replaced = rep;
    return r;
}

/* Inside u8k_from_utf8, to Latin-1 under U8K_L1_SUB, with room for a
 * byte: the substitute for a character above U+00FF or an error (nothing
 * under U8K_L1_DROP), counted. */
#define U8K_SUB_UNIT()                                                                      \
    do {                                                                                    \
        if (!(flags & U8K_L1_DROP))                                                         \
            u8k_put_unit(dst, out, j++, U8K_L1_BYTE(flags), swap);                          \
        rep++;                                                                              \
    } while (0)

U8K_INLINE utf8kit_result u8k_from_utf8(const unsigned char *src, size_t len, void *dst,
                                        size_t cap, unsigned flags, enum u8k_out out)
{
    bool swap = out == U8K_OUT_UTF16 && ((flags & U8K_BE) != 0) != U8K_HOST_BE;
    bool trusted = (flags & U8K_TRUSTED) != 0;
    /* to Latin-1 under U8K_L1_SUB: errors and characters above U+00FF
     * replaced here (rep of them) */
    bool sub = out == U8K_OUT_LATIN1_SUB;
    bool l1 = out >= U8K_OUT_LATIN1;
    size_t i = 0, j = 0, rep = 0;
    while (i < len) {
        uint32_t cp;
        size_t n;
        utf8kit_status st;
        /* While 4 bytes of input and 2 units of room are left, no
         * character can be cut by either end: well-formed characters are
         * converted here with no test of the bounds or of the input's
         * length per character. Anything else (an error, a character
         * Latin-1 cannot hold, the end) goes on to the general step
         * below, which gives the report. */
        while (len - i >= 4 && cap - j >= 2) {
            unsigned b0 = src[i], b1, b2;
            uint32_t c;
            if (b0 < 0x80) {
                u8k_put_unit(dst, out, j++, b0, swap);
                i++;
                /* then eight at a time while the words have no high bit */
                U8K_ASCII_WORDS()
                /* and the rest of the run one at a time */
                while (len - i >= 4 && cap - j >= 2 && src[i] < 0x80)
                    u8k_put_unit(dst, out, j++, src[i++], swap);
                continue;
            }
            b1 = src[i + 1];
            if (b0 < 0xE0) {
                /* C2..DF and a tail; C0, C1 and lone tails go below */
                c = (b0 & 0x1Fu) << 6 | (b1 & 0x3Fu);
                if (sub && c > 0xFF && b0 >= 0xC2 && u8k_is_cont((unsigned char)b1)) {
                    U8K_SUB_UNIT();
                    i += 2;
                    continue;
                }
                if (b0 < 0xC2 || !u8k_is_cont((unsigned char)b1) || (l1 && c > 0xFF))
                    break;
                u8k_put_unit(dst, out, j++, c, swap);
                i += 2;
                continue;
            }
            if (l1 && !sub)
                break; /* U+0800 and up, or an error */
            b2 = src[i + 2];
            if (b0 < 0xF0) {
                /* not overlong (below U+0800), not a surrogate */
                c = (b0 & 0x0Fu) << 12 | (b1 & 0x3Fu) << 6 | (b2 & 0x3Fu);
                if (!u8k_is_cont((unsigned char)b1) || !u8k_is_cont((unsigned char)b2) ||
                    c < 0x800u || (c & 0xF800u) == 0xD800u)
                    break;
                if (l1)
                    U8K_SUB_UNIT();
                else
                    u8k_put_unit(dst, out, j++, c, swap);
                i += 3;
                continue;
            }
            /* F0..F4 and U+10000..U+10FFFF */
            c = (b0 & 0x07u) << 18 | (b1 & 0x3Fu) << 12 | (b2 & 0x3Fu) << 6 | (src[i + 3] & 0x3Fu);
            if (b0 > 0xF7 || !u8k_is_cont((unsigned char)b1) || !u8k_is_cont((unsigned char)b2) ||
                !u8k_is_cont(src[i + 3]) || c - 0x10000u >= 0x100000u)
                break;
            if (out == U8K_OUT_UTF16) {
                c -= 0x10000u;
                u8k_put_unit(dst, out, j++, 0xD800u | c >> 10, swap);
                u8k_put_unit(dst, out, j++, 0xDC00u | (c & 0x3FFu), swap);
            } else if (l1) {
                U8K_SUB_UNIT();
            } else {
                u8k_put_unit(dst, out, j++, c, swap);
            }
            i += 4;
        }
        if (i == len)
            break;
        if (src[i] < 0x80) {
            /* One ASCII byte (a space between words), then eight at a
             * time while the words have no high bit set. */
            if (j == cap)
                return U8K_FROM_RES(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            u8k_put_unit(dst, out, j++, src[i++], swap);
            if (i == len || src[i] >= 0x80)
                continue;
            U8K_ASCII_WORDS()
            while (i < len && src[i] < 0x80) {
                if (j == cap)
                    return U8K_FROM_RES(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
                u8k_put_unit(dst, out, j++, src[i++], swap);
            }
            continue;
        }
        st = u8k_decode_fast(src + i, len - i, &cp, &n);
        if (sub && (st == UTF8KIT_OK ? cp > 0xFF : st != UTF8KIT_ERR_TRUNCATED)) {
            /* the n bytes at i: the substitute, or nothing */
            if (j == cap && !(flags & U8K_L1_DROP))
                return U8K_FROM_RES(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            U8K_SUB_UNIT();
            i += n;
            continue;
        }
        if (U8K_UNLIKELY(st != UTF8KIT_OK)) {
            if (!trusted)
                return U8K_FROM_RES(st, i, j, n);
            if (l1) { /* no U+FFFD there */
                i += n;
                continue;
            }
        }
        if (l1 && cp > 0xFF)
            return U8K_FROM_RES(UTF8KIT_ERR_UNREPRESENTABLE, i, j, n);
        if (out == U8K_OUT_UTF16 && cp >= 0x10000u) {
            /* a surrogate pair (RFC 2781 section 2.1) */
            if (cap - j < 2)
                return U8K_FROM_RES(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            cp -= 0x10000u;
            u8k_put_unit(dst, out, j++, 0xD800u | cp >> 10, swap);
            u8k_put_unit(dst, out, j++, 0xDC00u | (cp & 0x3FFu), swap);
        } else {
            if (j == cap)
                return U8K_FROM_RES(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            u8k_put_unit(dst, out, j++, cp, swap);
        }
        i += n;
    }
    return U8K_FROM_RES(UTF8KIT_OK, i, j, 0);
}

#undef U8K_ASCII_WORDS
#undef U8K_FROM_RES
#undef U8K_SUB_UNIT

#endif
