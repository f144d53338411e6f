/* transcode_stub.c - placeholders until the scalar transcoders land.
 * TO BE DELETED by the conversions work. */
#include "internal.h"

utf8kit_result u8k_scalar_utf8_to_utf16(const unsigned char *src, size_t len, uint16_t *dst,
                                        size_t cap, unsigned flags)
{
    (void)src; (void)len; (void)dst; (void)cap; (void)flags;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
utf8kit_result u8k_scalar_utf8_to_utf32(const unsigned char *src, size_t len, uint32_t *dst,
                                        size_t cap, unsigned flags)
{
    (void)src; (void)len; (void)dst; (void)cap; (void)flags;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
utf8kit_result u8k_scalar_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags)
{
    (void)src; (void)len; (void)dst; (void)cap; (void)flags;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
utf8kit_result u8k_scalar_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags)
{
    (void)src; (void)len; (void)dst; (void)cap; (void)flags;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
utf8kit_result u8k_scalar_latin1_to_utf8(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap)
{
    (void)src; (void)len; (void)dst; (void)cap;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
utf8kit_result u8k_scalar_utf8_to_latin1(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap, unsigned flags)
{
    (void)src; (void)len; (void)dst; (void)cap; (void)flags;
    return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
}
