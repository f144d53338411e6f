/*
 * transcode_utf32.c - scalar UTF-8 <-> UTF-32 kernels (internal.h).
 *
 * UTF-32 units are host-order uint32_t. STRICT unless U8K_TRUSTED: an
 * error stops the kernel with everything before it converted, read = its
 * offset, error_len = the maximal invalid subpart (UTF-8) or 1 unit (a
 * UTF-32 value above 0x10FFFF: TOO_LARGE; a surrogate value: SURROGATE).
 * Under U8K_TRUSTED an error becomes U+FFFD and the kernel goes on, never
 * out of bounds.
 */
#include "from_utf8.h"

utf8kit_result u8k_scalar_utf8_to_utf32(const unsigned char *src, size_t len, uint32_t *dst,
                                        size_t cap, unsigned flags)
{
    return u8k_from_utf8(src, len, dst, cap, flags, U8K_OUT_UTF32);
}

utf8kit_result u8k_scalar_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags)
{
    bool trusted = (flags & U8K_TRUSTED) != 0;
    size_t i = 0, j = 0;
    for (; i < len; i++) {
        uint32_t u = src[i];
        if (u < 0x80) {
            if (j == cap)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j++] = (unsigned char)u;
        } else if (u < 0x800) {
            if (cap - j < 2)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j] = (unsigned char)(0xC0u | u >> 6);
            dst[j + 1] = (unsigned char)(0x80u | (u & 0x3Fu));
            j += 2;
        } else if (u < 0x10000u || u > UTF8KIT_MAX_CODE_POINT) {
            if ((u & 0xFFFFF800u) == 0xD800u || u > UTF8KIT_MAX_CODE_POINT) {
                if (!trusted)
                    return u8k_res(u > UTF8KIT_MAX_CODE_POINT ? UTF8KIT_ERR_TOO_LARGE
                                                              : UTF8KIT_ERR_SURROGATE,
                                   i, j, 1);
                u = UTF8KIT_REPLACEMENT_CHARACTER;
            }
            if (cap - j < 3)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j] = (unsigned char)(0xE0u | u >> 12);
            dst[j + 1] = (unsigned char)(0x80u | (u >> 6 & 0x3Fu));
            dst[j + 2] = (unsigned char)(0x80u | (u & 0x3Fu));
            j += 3;
        } else {
            if (cap - j < 4)
                return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, i, j, 0);
            dst[j] = (unsigned char)(0xF0u | u >> 18);
            dst[j + 1] = (unsigned char)(0x80u | (u >> 12 & 0x3Fu));
            dst[j + 2] = (unsigned char)(0x80u | (u >> 6 & 0x3Fu));
            dst[j + 3] = (unsigned char)(0x80u | (u & 0x3Fu));
            j += 4;
        }
    }
    return u8k_res(UTF8KIT_OK, i, j, 0);
}
