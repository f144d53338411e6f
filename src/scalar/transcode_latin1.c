/*
 * transcode_latin1.c - scalar Latin-1 (ISO-8859-1) <-> UTF-8 kernels.
 *
 * Latin-1 byte b is U+00b, so the conversion to UTF-8 never fails: 00..7F
 * stay, 80..FF become C2 80..C3 BF. The other way, a character above
 * U+00FF is UNREPRESENTABLE (error_len = its UTF-8 length); invalid UTF-8
 * is reported as by u8k_decode_step. Under U8K_TRUSTED invalid UTF-8
 * becomes nothing and the kernel goes on (never out of bounds); a
 * character above U+00FF is still reported, since valid input can hold
 * one.
 */
#include "decode_fast.h"

#define HIGH_BITS UINT64_C(0x8080808080808080) /* any non-ASCII byte of 8 */

utf8kit_result u8k_scalar_latin1_to_utf8(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap)
{
    size_t i = 0, j = 0;
    while (i < len) {
        unsigned b = src[i];
        if (b < 0x80) {
            for (; i + 8 <= len && cap - j >= 8; i += 8, j += 8) {
                uint64_t w;
                memcpy(&w, src + i, 8);
                if (w & HIGH_BITS)
                    break;
                memcpy(dst + j, src + i, 8);
            }
            while (i < len && src[i] < 0x80) {
                if (j == cap)
                    return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
                dst[j++] = src[i++];
            }
            continue;
        }
        if (cap - j < 2)
            return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
        dst[j] = (unsigned char)(0xC0u | b >> 6);
        dst[j + 1] = (unsigned char)(0x80u | (b & 0x3Fu));
        j += 2;
        i++;
    }
    return u8k_res(UTF8KIT_OK, i, j, 0);
}

utf8kit_result u8k_scalar_utf8_to_latin1(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap, unsigned flags)
{
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
            dst[j++] = src[i++];
            if (i == len || src[i] >= 0x80)
                continue;
            for (; i + 8 <= len && cap - j >= 8; i += 8, j += 8) {
                uint64_t w;
                memcpy(&w, src + i, 8);
                if (w & HIGH_BITS)
                    break;
                memcpy(dst + j, src + i, 8);
            }
            while (i < len && src[i] < 0x80) {
                if (j == cap)
                    return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
                dst[j++] = src[i++];
            }
            continue;
        }
        st = u8k_decode_fast(src + i, len - i, &cp, &n);
        if (U8K_UNLIKELY(st != UTF8KIT_OK)) {
            if (!trusted)
                return u8k_res(st, i, j, n);
            i += n;
            continue;
        }
        if (cp > 0xFF)
            return u8k_res(UTF8KIT_ERR_UNREPRESENTABLE, i, j, n);
        if (j == cap)
            return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
        dst[j++] = (unsigned char)cp;
        i += n;
    }
    return u8k_res(UTF8KIT_OK, i, j, 0);
}
