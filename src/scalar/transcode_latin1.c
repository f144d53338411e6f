/*
 * transcode_latin1.c - scalar Latin-1 (ISO-8859-1) <-> UTF-8 kernels.
 *
 * Latin-1 byte b is U+00b, so the conversion to UTF-8 never fails: 00..7F
 * stay, 80..FF become C2 80..C3 BF. The other way, a character above
 * U+00FF is UNREPRESENTABLE (error_len = its UTF-8 length); invalid UTF-8
 * is reported as by u8k_decode_step. Under U8K_TRUSTED invalid UTF-8
 * becomes nothing and the kernel goes on (never out of bounds); a
 * character above U+00FF is still reported, since valid input can hold
 * one. u8k_scalar_utf8_to_latin1_sub (internal.h) replaces both itself.
 */
#include "from_utf8.h"

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
                if (w & U8K_HIGH_BITS)
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
    return u8k_from_utf8(src, len, dst, cap, flags, U8K_OUT_LATIN1);
}

utf8kit_result u8k_scalar_utf8_to_latin1_sub(const unsigned char *src, size_t len,
                                             unsigned char *dst, size_t cap, unsigned flags)
{
    return u8k_from_utf8(src, len, dst, cap, flags, U8K_OUT_LATIN1_SUB);
}
