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
 * writing out of bounds.
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

enum u8k_out { U8K_OUT_UTF16, U8K_OUT_UTF32, U8K_OUT_LATIN1 };

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

U8K_INLINE utf8kit_result u8k_from_utf8(const unsigned char *src, size_t len, void *dst,
                                        size_t cap, unsigned flags, enum u8k_out out)
{
    bool swap = out == U8K_OUT_UTF16 && ((flags & U8K_BE) != 0) != U8K_HOST_BE;
    bool trusted = (flags & U8K_TRUSTED) != 0;
    size_t i = 0, j = 0;
    while (i < len) {
        uint32_t cp;
        size_t n;
        utf8kit_status st;
        if (src[i] < 0x80) {
            /* One ASCII byte (a space between words), then eight at a
             * time while the words have no high bit set. */
            if (j == cap)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            u8k_put_unit(dst, out, j++, src[i++], swap);
            if (i == len || src[i] >= 0x80)
                continue;
            for (; i + 8 <= len && cap - j >= 8; i += 8, j += 8) {
                uint64_t w;
                int k;
                memcpy(&w, src + i, 8);
                if (w & U8K_HIGH_BITS)
                    break;
                if (out == U8K_OUT_LATIN1)
                    memcpy((unsigned char *)dst + j, src + i, 8);
                else
                    for (k = 0; k < 8; k++)
                        u8k_put_unit(dst, out, j + k, src[i + k], swap);
            }
            while (i < len && src[i] < 0x80) {
                if (j == cap)
                    return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
                u8k_put_unit(dst, out, j++, src[i++], swap);
            }
            continue;
        }
        st = u8k_decode_fast(src + i, len - i, &cp, &n);
        if (U8K_UNLIKELY(st != UTF8KIT_OK)) {
            if (!trusted)
                return u8k_res(st, i, j, n);
            if (out == U8K_OUT_LATIN1) { /* no U+FFFD there */
                i += n;
                continue;
            }
        }
        if (out == U8K_OUT_LATIN1 && cp > 0xFF)
            return u8k_res(UTF8KIT_ERR_UNREPRESENTABLE, i, j, n);
        if (out == U8K_OUT_UTF16 && cp >= 0x10000u) {
            /* a surrogate pair (RFC 2781 section 2.1) */
            if (cap - j < 2)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            cp -= 0x10000u;
            u8k_put_unit(dst, out, j++, 0xD800u | cp >> 10, swap);
            u8k_put_unit(dst, out, j++, 0xDC00u | (cp & 0x3FFu), swap);
        } else {
            if (j == cap)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            u8k_put_unit(dst, out, j++, cp, swap);
        }
        i += n;
    }
    return u8k_res(UTF8KIT_OK, i, j, 0);
}

#endif
