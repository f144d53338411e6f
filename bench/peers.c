/* peers.c - the peer libraries behind peers.h. */
#include "peers.h"

#include <iconv.h>
#include <stdint.h>
#include <string.h>

#ifdef HAVE_ICU
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#endif
#ifdef HAVE_UNISTRING
#include <unistr.h>
#endif
#ifdef HAVE_UTF8PROC
#include <utf8proc.h>
#endif
#ifdef HAVE_SIMDUTF
#include "simdutf_shim.h"
#endif

static unsigned char *out;
static size_t out_cap;

void peers_set_output(unsigned char *o, size_t cap)
{
    out = o;
    out_cap = cap;
#ifdef HAVE_SIMDUTF
    simdutf_shim_output(o, cap);
#endif
}

/* ---- glibc iconv ------------------------------------------------------- */
static size_t run_iconv(const char *to, const char *from, const unsigned char *s, size_t n)
{
    /* Opened once per pair and reset per call, as a converting loop would. */
    static iconv_t cd[8];
    static const char *pairs[8][2];
    size_t k, inl = n, outl = out_cap;
    char *ip = (char *)(uintptr_t)s, *op = (char *)out;
    for (k = 0; k < 8; k++) {
        if (pairs[k][0] == NULL) {
            pairs[k][0] = to;
            pairs[k][1] = from;
            cd[k] = iconv_open(to, from);
        }
        if (pairs[k][0] == to && pairs[k][1] == from)
            break;
    }
    if (k == 8 || cd[k] == (iconv_t)-1)
        return 0;
    iconv(cd[k], NULL, NULL, NULL, NULL);
    iconv(cd[k], &ip, &inl, &op, &outl);
    return out_cap - outl;
}
static size_t iconv_u8_u16(const unsigned char *s, size_t n) { return run_iconv("UTF-16LE", "UTF-8", s, n); }
static size_t iconv_u8_u32(const unsigned char *s, size_t n) { return run_iconv("UTF-32LE", "UTF-8", s, n); }
static size_t iconv_u16_u8(const unsigned char *s, size_t n) { return run_iconv("UTF-8", "UTF-16LE", s, n); }
static size_t iconv_u32_u8(const unsigned char *s, size_t n) { return run_iconv("UTF-8", "UTF-32LE", s, n); }
static size_t iconv_l1_u8(const unsigned char *s, size_t n) { return run_iconv("UTF-8", "ISO-8859-1", s, n); }
static size_t iconv_u8_l1(const unsigned char *s, size_t n) { return run_iconv("ISO-8859-1", "UTF-8", s, n); }
/* utf8>latin1/s: glibc's //IGNORE drops what Latin-1 cannot hold, but
 * iconv() still stops (EILSEQ) after each buffer of its own with such a
 * character in it: called again until the input is used up. */
static size_t iconv_u8_l1_skip(const unsigned char *s, size_t n)
{
    static iconv_t cd;
    size_t inl = n, outl = out_cap;
    char *ip = (char *)(uintptr_t)s, *op = (char *)out;
    if (cd == NULL)
        cd = iconv_open("ISO-8859-1//IGNORE", "UTF-8");
    if (cd == (iconv_t)-1)
        return 0;
    iconv(cd, NULL, NULL, NULL, NULL);
    while (inl > 0) {
        size_t before = inl;
        if (iconv(cd, &ip, &inl, &op, &outl) != (size_t)-1)
            break;
        if (inl == before) { /* (an invalid sequence: no progress) */
            ip++;
            inl--;
        }
    }
    return out_cap - outl;
}

#ifdef HAVE_ICU
static size_t icu_u8_u16(const unsigned char *s, size_t n)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    u_strFromUTF8((UChar *)(void *)out, (int32_t)(out_cap / 2), &len, (const char *)s, (int32_t)n, &e);
    return (size_t)len;
}
static size_t icu_u8_u16_sub(const unsigned char *s, size_t n)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0, subs = 0;
    u_strFromUTF8WithSub((UChar *)(void *)out, (int32_t)(out_cap / 2), &len, (const char *)s,
                         (int32_t)n, 0xFFFD, &subs, &e);
    return (size_t)len;
}
/* utf8>latin1/r: ICU's converters, opened once, each unconvertible
 * character its substitute (1A for ISO-8859-1) */
static size_t icu_u8_l1_sub(const unsigned char *s, size_t n)
{
    static UConverter *from, *to;
    UErrorCode e = U_ZERO_ERROR;
    char *t = (char *)out;
    const char *src = (const char *)s;
    if (from == NULL) {
        from = ucnv_open("UTF-8", &e);
        to = ucnv_open("ISO-8859-1", &e);
    }
    if (from == NULL || to == NULL)
        return 0;
    e = U_ZERO_ERROR;
    ucnv_convertEx(to, from, &t, t + out_cap, &src, src + n, NULL, NULL, NULL, NULL, 1, 1, &e);
    return (size_t)(t - (char *)out);
}
static size_t icu_u16_u8_sub(const unsigned char *s, size_t n)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0, subs = 0;
    u_strToUTF8WithSub((char *)out, (int32_t)out_cap, &len, (const UChar *)(const void *)s,
                       (int32_t)(n / 2), 0xFFFD, &subs, &e);
    return (size_t)len;
}
static size_t icu_u16_u8(const unsigned char *s, size_t n)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    u_strToUTF8((char *)out, (int32_t)out_cap, &len, (const UChar *)(const void *)s,
                (int32_t)(n / 2), &e);
    return (size_t)len;
}
#endif

#ifdef HAVE_UNISTRING
static size_t us_validate(const unsigned char *s, size_t n) { return u8_check(s, n) == NULL; }
static size_t us_count(const unsigned char *s, size_t n) { return u8_mbsnlen(s, n); }
static size_t us_u8_u16(const unsigned char *s, size_t n)
{
    size_t l = out_cap / 2;
    uint16_t *r = u8_to_u16(s, n, (uint16_t *)(void *)out, &l);
    return r ? l : 0;
}
static size_t us_u8_u32(const unsigned char *s, size_t n)
{
    size_t l = out_cap / 4;
    uint32_t *r = u8_to_u32(s, n, (uint32_t *)(void *)out, &l);
    return r ? l : 0;
}
static size_t us_u16_u8(const unsigned char *s, size_t n)
{
    size_t l = out_cap;
    uint8_t *r = u16_to_u8((const uint16_t *)(const void *)s, n / 2, out, &l);
    return r ? l : 0;
}
static size_t us_u32_u8(const unsigned char *s, size_t n)
{
    size_t l = out_cap;
    uint8_t *r = u32_to_u8((const uint32_t *)(const void *)s, n / 4, out, &l);
    return r ? l : 0;
}
#endif

#ifdef HAVE_UTF8PROC
/* utf8proc has no bulk validator: the loop a caller would write. */
static size_t up_validate(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        utf8proc_int32_t c;
        utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(n - i), &c);
        if (k < 0)
            return 0;
        i += (size_t)k;
    }
    return 1;
}
#endif

struct peer {
    const char *name;
    const char *op;
    bench_fn fn;
};

static const struct peer table[] = {
#ifdef HAVE_ICU
    {"icu", "utf8>utf16le", icu_u8_u16},
    {"icu", "utf16le>utf8", icu_u16_u8},
    {"icu-sub", "utf8>utf16le", icu_u8_u16_sub},
    /* the replacing operations: the same calls, U+FFFD for each error */
    {"icu-sub", "utf8>utf16le/r", icu_u8_u16_sub},
    {"icu-sub", "utf16le>utf8/r", icu_u16_u8_sub},
    {"icu-sub", "utf8>latin1/r", icu_u8_l1_sub},
#endif
    {"iconv", "utf8>utf16le", iconv_u8_u16},
    {"iconv", "utf8>utf32", iconv_u8_u32},
    {"iconv", "utf16le>utf8", iconv_u16_u8},
    {"iconv", "utf32>utf8", iconv_u32_u8},
    {"iconv", "latin1>utf8", iconv_l1_u8},
    {"iconv", "utf8>latin1", iconv_u8_l1},
    {"iconv", "utf8>latin1/s", iconv_u8_l1_skip},
#ifdef HAVE_UNISTRING
    {"unistring", "validate", us_validate},
    {"unistring", "is_valid", us_validate},
    {"unistring", "count", us_count},
    {"unistring", "utf8>utf16le", us_u8_u16},
    {"unistring", "utf8>utf32", us_u8_u32},
    {"unistring", "utf16le>utf8", us_u16_u8},
    {"unistring", "utf32>utf8", us_u32_u8},
#endif
#ifdef HAVE_UTF8PROC
    {"utf8proc", "validate", up_validate},
    {"utf8proc", "is_valid", up_validate},
#endif
#ifdef HAVE_SIMDUTF
    {"simdutf", "validate", simdutf_validate},
    {"simdutf", "is_valid", simdutf_is_valid},
    {"simdutf", "count", simdutf_count},
    {"simdutf", "utf16_length", simdutf_utf16_length},
    {"simdutf", "count_av", simdutf_count},
    {"simdutf", "utf16_length_av", simdutf_utf16_length},
    {"simdutf", "utf8>utf16le", simdutf_u8_u16},
    {"simdutf", "utf8>utf32", simdutf_u8_u32},
    {"simdutf", "utf16le>utf8", simdutf_u16_u8},
    {"simdutf", "utf32>utf8", simdutf_u32_u8},
    {"simdutf", "latin1>utf8", simdutf_l1_u8},
    {"simdutf", "utf8>latin1", simdutf_u8_l1},
#endif
};
#define NT (sizeof table / sizeof table[0])

/* Distinct peer names in table order. */
const char *peer_name(size_t i)
{
    size_t k, j, seen = 0;
    for (k = 0; k < NT; k++) {
        for (j = 0; j < k; j++)
            if (strcmp(table[j].name, table[k].name) == 0)
                break;
        if (j < k)
            continue;
        if (seen++ == i)
            return table[k].name;
    }
    return NULL;
}

bench_fn peer_fn(size_t i, const char *op)
{
    const char *name = peer_name(i);
    size_t k;
    for (k = 0; name && k < NT; k++)
        if (strcmp(table[k].name, name) == 0 && strcmp(table[k].op, op) == 0)
            return table[k].fn;
    return NULL;
}

const char *peers_available(void)
{
    return "iconv (glibc)"
#ifdef HAVE_ICU
           ", icu"
#else
           ", icu skipped (install libicu-dev)"
#endif
#ifdef HAVE_UNISTRING
           ", unistring"
#else
           ", unistring skipped (install libunistring-dev)"
#endif
#ifdef HAVE_UTF8PROC
           ", utf8proc"
#else
           ", utf8proc skipped (install libutf8proc-dev)"
#endif
#ifdef HAVE_SIMDUTF
           ", simdutf"
#else
           ", simdutf skipped (configure with -DSIMDUTF_DIR=<built simdutf>)"
#endif
        ;
}
