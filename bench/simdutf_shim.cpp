// simdutf_shim.cpp - calls simdutf's public API (see simdutf_shim.h).
// The strict ("with errors") variants, to match utf8kit's STRICT calls;
// validate_utf8 (yes or no) next to utf8kit_is_valid.
#include "simdutf_shim.h"

#include <simdutf.h>

static unsigned char *out;
static size_t out_cap;

void simdutf_shim_output(unsigned char *o, size_t cap)
{
    out = o;
    out_cap = cap;
}
size_t simdutf_validate(const unsigned char *s, size_t n)
{
    return simdutf::validate_utf8_with_errors((const char *)s, n).count;
}
size_t simdutf_is_valid(const unsigned char *s, size_t n)
{
    return simdutf::validate_utf8((const char *)s, n);
}
size_t simdutf_count(const unsigned char *s, size_t n) { return simdutf::count_utf8((const char *)s, n); }
size_t simdutf_utf16_length(const unsigned char *s, size_t n)
{
    return simdutf::utf16_length_from_utf8((const char *)s, n);
}
size_t simdutf_u8_u16(const unsigned char *s, size_t n)
{
    return simdutf::convert_utf8_to_utf16le_with_errors((const char *)s, n, (char16_t *)out).count;
}
size_t simdutf_u8_u32(const unsigned char *s, size_t n)
{
    return simdutf::convert_utf8_to_utf32_with_errors((const char *)s, n, (char32_t *)out).count;
}
size_t simdutf_u16_u8(const unsigned char *s, size_t n)
{
    return simdutf::convert_utf16le_to_utf8_with_errors((const char16_t *)s, n / 2, (char *)out).count;
}
size_t simdutf_u32_u8(const unsigned char *s, size_t n)
{
    return simdutf::convert_utf32_to_utf8_with_errors((const char32_t *)s, n / 4, (char *)out).count;
}
size_t simdutf_l1_u8(const unsigned char *s, size_t n)
{
    return simdutf::convert_latin1_to_utf8((const char *)s, n, (char *)out);
}
size_t simdutf_u8_l1(const unsigned char *s, size_t n)
{
    return simdutf::convert_utf8_to_latin1_with_errors((const char *)s, n, (char *)out).count;
}
