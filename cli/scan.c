/*
 * scan.c - walking input as valid runs and maximal invalid subparts.
 *
 * The library finds the errors (utf8kit_validate, or utf8kit_convert in
 * measuring mode for the other forms); this file only strings the calls
 * together across chunk boundaries and describes what it found.
 */
#include "cli.h"

#include <string.h>

int cli_parse_form(const char *s)
{
    if (strcmp(s, "utf8") == 0 || strcmp(s, "utf-8") == 0)
        return CLI_FORM_UTF8;
    if (strcmp(s, "cesu8") == 0 || strcmp(s, "cesu-8") == 0)
        return CLI_FORM_CESU8;
    if (strcmp(s, "mutf8") == 0 || strcmp(s, "mutf-8") == 0)
        return CLI_FORM_MUTF8;
    if (strcmp(s, "legacy") == 0 || strcmp(s, "rfc2279") == 0)
        return CLI_FORM_LEGACY;
    return -1;
}

utf8kit_encoding cli_form_encoding(cli_form f)
{
    switch (f) {
    case CLI_FORM_CESU8: return UTF8KIT_CESU8;
    case CLI_FORM_MUTF8: return UTF8KIT_MUTF8;
    case CLI_FORM_LEGACY: return UTF8KIT_UTF8_RFC2279;
    default: return UTF8KIT_UTF8;
    }
}

bool cli_form_available(cli_form f)
{
#if CLI_HAVE_CONVERT
    (void)f;
    return true;
#else
    return f == CLI_FORM_UTF8;
#endif
}

utf8kit_result cli_validate(cli_form f, const unsigned char *p, size_t n)
{
    if (f == CLI_FORM_UTF8)
        return utf8kit_validate((const char *)p, n);
#if CLI_HAVE_CONVERT
    {
        /* STRICT, measuring (dst NULL): the first error of that form. */
        utf8kit_encoding e = cli_form_encoding(f);
        utf8kit_result r = utf8kit_convert(e, e, p, n, NULL, 0, NULL);
        r.written = 0;
        return r;
    }
#else
    {
        utf8kit_result r = {UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, n, 0};
        return r;
    }
#endif
}

uint64_t cli_count_chars(cli_form f, const unsigned char *p, size_t n)
{
    if (f == CLI_FORM_UTF8)
        return utf8kit_count((const char *)p, n);
#if CLI_HAVE_CONVERT
    {
        utf8kit_options o;
        memset(&o, 0, sizeof o);
        o.policy = UTF8KIT_REPLACE;
        return utf8kit_convert(cli_form_encoding(f), UTF8KIT_UTF32LE, p, n, NULL, 0, &o).written /
               4;
    }
#else
    return utf8kit_count((const char *)p, n);
#endif
}

size_t cli_walk(cli_form f, const unsigned char *buf, size_t n, size_t limit, uint64_t base,
                bool eof, const cli_visitor *v, bool *stopped)
{
    size_t i = 0;
    *stopped = false;
    while (i < limit) {
        utf8kit_result r = cli_validate(f, buf + i, n - i);
        size_t e = r.status == UTF8KIT_OK ? n : i + r.read;
        if (e >= limit) {
            if (limit > i)
                v->valid(v->ctx, buf + i, limit - i);
            return limit;
        }
        if (!eof && (r.status == UTF8KIT_ERR_TRUNCATED || n - e < CLI_LOOKAHEAD)) {
            /* Wait for more bytes: the sequence may complete, and the
             * diagnostics want to see what follows. */
            if (e > i)
                v->valid(v->ctx, buf + i, e - i);
            return e;
        }
        if (e > i)
            v->valid(v->ctx, buf + i, e - i);
        if (r.error_len == 0) /* never loop on a library that says nothing */
            r.error_len = 1;
        if (r.error_len > n - e)
            r.error_len = n - e;
        if (v->error(v->ctx, base + e, buf + e, r.error_len, n - e, r.status)) {
            *stopped = true;
            return e + r.error_len;
        }
        i = e + r.error_len;
    }
    return i;
}

const char *cli_attack(const unsigned char *p, size_t avail, char *buf, size_t cap)
{
    unsigned lead = p[0];
    size_t n;
    uint32_t v;
    const char *what;
    char hex[3 * 6 + 1];
    /* The lead byte of an overlong form gives its length and its payload
     * bits: C0/C1 (2 octets), E0 (3), F0 (4), F8 (5), FC (6). */
    if (lead == 0xC0 || lead == 0xC1)
        n = 2, v = lead & 0x1Fu;
    else if (lead == 0xE0)
        n = 3, v = 0;
    else if (lead == 0xF0)
        n = 4, v = 0;
    else if (lead == 0xF8)
        n = 5, v = 0;
    else if (lead == 0xFC)
        n = 6, v = 0;
    else
        return NULL;
    if (avail < n)
        return NULL;
    for (size_t k = 1; k < n; k++) {
        if ((p[k] & 0xC0u) != 0x80u)
            return NULL;
        v = v << 6 | (p[k] & 0x3Fu);
    }
    switch (v) {
    case 0x00: what = "NUL"; break;
    case 0x2E: what = "'.'"; break;
    case 0x2F: what = "'/'"; break;
    case 0x5C: what = "'\\'"; break;
    default: return NULL;
    }
    cli_hex(p, n, hex, sizeof hex);
    snprintf(buf, cap, "%s is an overlong %s, a known attack (RFC 3629 section 10)", hex, what);
    return buf;
}
