/* validate.c - the public validation calls, routed to the active kernels. */
#include "internal.h"

bool utf8kit_is_valid(const char *s, size_t len)
{
    if (len == 0)
        return true;
    if (s == NULL)
        return false;
    return u8k_kernels_now()->is_valid((const unsigned char *)s, len);
}

utf8kit_result utf8kit_validate(const char *s, size_t len)
{
    if (len == 0)
        return u8k_res(UTF8KIT_OK, 0, 0, 0);
    if (s == NULL)
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    return u8k_vres_result(u8k_kernels_now()->validate((const unsigned char *)s, len));
}

utf8kit_result utf8kit_validate_counts(const char *s, size_t len, utf8kit_counts *counts)
{
    if (counts == NULL || (s == NULL && len != 0))
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    if (len == 0)
        return u8k_res(UTF8KIT_OK, 0, 0, 0);
    return u8k_kernels_now()->validate_counts((const unsigned char *)s, len, counts);
}

size_t utf8kit_ascii_prefix(const char *s, size_t len)
{
    if (len == 0 || s == NULL)
        return 0;
    return u8k_kernels_now()->ascii_prefix((const unsigned char *)s, len);
}
