/*
 * transcode_utf16.c - scalar UTF-8 <-> UTF-16 kernels (internal.h).
 *
 * STRICT unless U8K_TRUSTED: an error stops the kernel with everything
 * before it converted, read = its offset, error_len = the maximal invalid
 * subpart (UTF-8, as u8k_decode_step) or 1 unit (an unpaired UTF-16
 * surrogate; a high surrogate that ends the input is TRUNCATED). Under
 * U8K_TRUSTED the input was promised valid; should it not be, each error
 * becomes U+FFFD and the kernel goes on, never reading or writing out of
 * bounds. U8K_BE: the 16-bit units are big-endian in memory, whatever the
 * host's order.
 */
#include "from_utf8.h"

utf8kit_result u8k_scalar_utf8_to_utf16(const unsigned char *src, size_t len, uint16_t *dst,
                                        size_t cap, unsigned flags)
{
    return u8k_from_utf8(src, len, dst, cap, flags, U8K_OUT_UTF16);
}

/* The 4 bytes of the character of surrogate pair h, l (high, low) to d. */
U8K_INLINE void u8k_put_pair(unsigned char *d, uint32_t h, uint32_t l)
{
    uint32_t u = 0x10000u + ((h - 0xD800u) << 10) + (l - 0xDC00u);
    d[0] = (unsigned char)(0xF0u | u >> 18);
    d[1] = (unsigned char)(0x80u | (u >> 12 & 0x3Fu));
    d[2] = (unsigned char)(0x80u | (u >> 6 & 0x3Fu));
    d[3] = (unsigned char)(0x80u | (u & 0x3Fu));
}

utf8kit_result u8k_scalar_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags)
{
    bool swap = ((flags & U8K_BE) != 0) != U8K_HOST_BE;
    bool trusted = (flags & U8K_TRUSTED) != 0;
    size_t i = 0, j = 0;
    while (i < len) {
        uint32_t u;
        /* While 2 units of input and 4 bytes of room are left, a unit or
         * a surrogate pair is converted here with no test of the bounds,
         * and so is a lone ASCII unit (a space between words). A run of
         * ASCII, a lone surrogate and the end go on to the general step
         * below. (The 2- and 3-byte stores are written out here and there:
         * as helpers shared by both, like u8k_put_pair, gcc allocated the
         * registers otherwise and the kernel lost 1-3%, Persian 6%.) */
        while (len - i >= 2 && cap - j >= 4) {
            uint32_t v;
            u = u8k_swap16_if(src[i], swap);
            if (u < 0x80) {
                if (u8k_swap16_if(src[i + 1], swap) < 0x80)
                    break;
                dst[j++] = (unsigned char)u;
                i++;
            } else if (u < 0x800) {
                dst[j] = (unsigned char)(0xC0u | u >> 6);
                dst[j + 1] = (unsigned char)(0x80u | (u & 0x3Fu));
                j += 2;
                i++;
            } else if ((u & 0xF800u) != 0xD800u) {
                dst[j] = (unsigned char)(0xE0u | u >> 12);
                dst[j + 1] = (unsigned char)(0x80u | (u >> 6 & 0x3Fu));
                dst[j + 2] = (unsigned char)(0x80u | (u & 0x3Fu));
                j += 3;
                i++;
            } else {
                v = u8k_swap16_if(src[i + 1], swap);
                if (u >= 0xDC00u || (v & 0xFC00u) != 0xDC00u)
                    break;
                u8k_put_pair(dst + j, u, v);
                j += 4;
                i += 2;
            }
        }
        if (i == len)
            break;
        u = u8k_swap16_if(src[i], swap);
        if (u < 0x80) {
            /* Four units at a time: each 16-bit lane of the word must be
             * below 0x80, i.e. its bits FF80 clear (in memory order, so
             * 80FF per lane when the units are byte-swapped). */
            const uint64_t mask =
                swap ? UINT64_C(0x80FF80FF80FF80FF) : UINT64_C(0xFF80FF80FF80FF80);
            for (; i + 4 <= len && cap - j >= 4; i += 4, j += 4) {
                uint64_t w;
                int k;
                memcpy(&w, src + i, 8);
                if (w & mask)
                    break;
                for (k = 0; k < 4; k++)
                    dst[j + k] = (unsigned char)u8k_swap16_if(src[i + k], swap);
            }
            if (i == len || (u = u8k_swap16_if(src[i], swap)) >= 0x80)
                continue;
            if (j == cap)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j++] = (unsigned char)u;
            i++;
            /* ASCII runs: one unit, one byte, no other test. */
            while (i < len && j < cap && (u = u8k_swap16_if(src[i], swap)) < 0x80) {
                dst[j++] = (unsigned char)u;
                i++;
            }
            continue;
        }
        if (u < 0x800) {
            if (cap - j < 2)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j] = (unsigned char)(0xC0u | u >> 6);
            dst[j + 1] = (unsigned char)(0x80u | (u & 0x3Fu));
            j += 2;
            i++;
            continue;
        }
        if ((u & 0xF800u) == 0xD800u) {
            uint32_t v;
            /* A surrogate: a high one (D800..DBFF) must be followed by a
             * low one (DC00..DFFF). */
            if (u >= 0xDC00u || i + 1 == len ||
                ((v = u8k_swap16_if(src[i + 1], swap)) & 0xFC00u) != 0xDC00u) {
                if (!trusted)
                    return u8k_res(u < 0xDC00u && i + 1 == len ? UTF8KIT_ERR_TRUNCATED
                                                                : UTF8KIT_ERR_SURROGATE,
                                   i, j, 1);
                u = UTF8KIT_REPLACEMENT_CHARACTER;
                goto three;
            }
            if (cap - j < 4)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            u8k_put_pair(dst + j, u, v);
            j += 4;
            i += 2;
            continue;
        }
    three:
        if (cap - j < 3)
            return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
        dst[j] = (unsigned char)(0xE0u | u >> 12);
        dst[j + 1] = (unsigned char)(0x80u | (u >> 6 & 0x3Fu));
        dst[j + 2] = (unsigned char)(0x80u | (u & 0x3Fu));
        j += 3;
        i++;
    }
    return u8k_res(UTF8KIT_OK, i, j, 0);
}
