/* count.c - the public counting calls, routed to the active kernels. */
#include "internal.h"

size_t utf8kit_count(const char *s, size_t len)
{
    if (len == 0 || s == NULL)
        return 0;
    return u8k_kernels_now()->count((const unsigned char *)s, len);
}

size_t utf8kit_utf16_length(const char *s, size_t len)
{
    if (len == 0 || s == NULL)
        return 0;
    return u8k_kernels_now()->utf16_length((const unsigned char *)s, len);
}

size_t utf8kit_count_assume_valid(const char *s, size_t len)
{
    if (len == 0 || s == NULL)
        return 0;
    return u8k_kernels_now()->count_assume_valid((const unsigned char *)s, len, false);
}

size_t utf8kit_utf16_length_assume_valid(const char *s, size_t len)
{
    if (len == 0 || s == NULL)
        return 0;
    return u8k_kernels_now()->count_assume_valid((const unsigned char *)s, len, true);
}
