/*
 * cmd_encode.c - utf8kit encode (code points to octets) and utf8kit decode
 * (octets to code points).
 *
 *   $ utf8kit encode U+0041 U+2262 U+0391 U+002E
 *   41 E2 89 A2 CE 91 2E
 *   $ utf8kit decode ED 95 9C EA B5 AD EC 96 B4
 *   U+D55C U+AD6D U+C5B4
 *
 * (the examples of RFC 3629 section 7).
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void encode_help(void)
{
    fputs("Usage: utf8kit encode [OPTION]... CODEPOINT...\n"
          "Print the UTF-8 octets of each code point, in hex, on one line.\n"
          "A code point is written U+XXXX, 0xXXXX or in decimal.\n\n"
          "  -v, --verbose     one line per code point: U+XXXX and its octets\n"
          "      --form=FORM   utf8 (RFC 3629, default), cesu8, mutf8, legacy\n"
          "                    (legacy: RFC 2279, values up to 7FFFFFFF)\n\n"
          "Exit status: 0, 1 when a value cannot be encoded (a surrogate, above\n"
          "U+10FFFF), 2 usage error.\n",
          stdout);
}

static void decode_help(void)
{
    fputs("Usage: utf8kit decode [OPTION]... HEX...\n"
          "Decode UTF-8 octets given in hex (\"E2 89 A2\", \"e289a2\", \"\\xE2\\x89\\xA2\",\n"
          "\"0xE2,0x89\") and print the code points, naming every invalid sequence.\n\n"
          "  -v, --verbose     one line per character: octets, U+XXXX, the character\n"
          "      --form=FORM   utf8 (RFC 3629, default), cesu8, mutf8, legacy\n\n"
          "Exit status: 0 valid, 1 some sequence is invalid, 2 usage error.\n",
          stdout);
}

/* parse_code_point reads U+XXXX, 0xXXXX or decimal. */
static bool parse_code_point(const char *s, uint32_t *out)
{
    int base = 10;
    uint64_t v = 0;
    if ((s[0] == 'U' || s[0] == 'u') && s[1] == '+')
        s += 2, base = 16;
    else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2, base = 16;
    if (!*s)
        return false;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = tolower((unsigned char)*s) - 'a' + 10;
        else
            return false;
        v = v * (unsigned)base + (unsigned)d;
        if (v > 0xFFFFFFFFu)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* encode_one writes the octets of cp in the form; returns the length or 0
 * with *why set. */
static size_t encode_one(cli_form form, uint32_t cp, unsigned char *out, utf8kit_status *why)
{
    if (form == CLI_FORM_UTF8) {
        size_t n = utf8kit_encode(cp, (char *)out);
        if (!n)
            *why = cp > UTF8KIT_MAX_CODE_POINT ? UTF8KIT_ERR_TOO_LARGE : UTF8KIT_ERR_SURROGATE;
        return n;
    }
    {
        unsigned char u[4] = {(unsigned char)cp, (unsigned char)(cp >> 8),
                              (unsigned char)(cp >> 16), (unsigned char)(cp >> 24)};
        utf8kit_result r =
            utf8kit_convert(UTF8KIT_UTF32LE, cli_form_encoding(form), u, 4, out, 8, NULL);
        if (r.status != UTF8KIT_OK) {
            *why = r.status;
            return 0;
        }
        return r.written;
    }
}

enum { O_VERBOSE = 1, O_FORM, O_HELP };
static const cli_opt opts[] = {
    {"verbose", 'v', 0, O_VERBOSE},
    {"form", 0, 1, O_FORM},
    {"help", 'h', 0, O_HELP},
    {NULL, 0, 0, 0},
};

static int parse_common(cli_args *a, int id, cli_form *form, bool *verbose)
{
    switch (id) {
    case O_VERBOSE: *verbose = true; return 0;
    case O_FORM: return cli_form_option(a->cmd, a->arg, form) ? 0 : CLI_EXIT_ERROR;
    }
    return 0;
}

int cmd_encode(int argc, char **argv)
{
    cli_args a = {argc, 1, argv, "encode", false, NULL, NULL, 0};
    cli_form form = CLI_FORM_UTF8;
    bool verbose = false, any = false;
    int id, rc = CLI_EXIT_OK;
    const char **cps = calloc((size_t)argc + 1, sizeof *cps);
    size_t n = 0;
    if (!cps)
        return CLI_EXIT_ERROR;
    while ((id = cli_next(&a, opts)) != -1) {
        if (id == -2) {
            free(cps);
            return CLI_EXIT_ERROR;
        }
        if (id == 0)
            cps[n++] = a.arg;
        else if (id == O_HELP) {
            free(cps);
            encode_help();
            return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        } else if (parse_common(&a, id, &form, &verbose) != 0) {
            free(cps);
            return CLI_EXIT_ERROR;
        }
    }
    if (n == 0) {
        free(cps);
        return cli_usage_error("encode", "no code point given");
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t cp;
        unsigned char oct[8];
        char hex[3 * 8 + 1];
        utf8kit_status why = UTF8KIT_OK;
        size_t len;
        if (!parse_code_point(cps[i], &cp)) {
            if (any && !verbose)
                putchar('\n');
            fflush(stdout);
            cli_usage_error("encode", "'%s' is not a code point (U+XXXX, 0xXXXX, decimal)", cps[i]);
            free(cps);
            return CLI_EXIT_ERROR;
        }
        len = encode_one(form, cp, oct, &why);
        if (!len) {
            fflush(stdout);
            if (form == CLI_FORM_LEGACY && why == UTF8KIT_ERR_TOO_LARGE)
                /* the library's message names RFC 3629's limit */
                fprintf(stderr, "utf8kit: U+%04lX: value above 7FFFFFFF (RFC 2279's limit)\n",
                        (unsigned long)cp);
            else
                fprintf(stderr, "utf8kit: U+%04lX: %s\n", (unsigned long)cp, utf8kit_strerror(why));
            rc = CLI_EXIT_INVALID;
            continue;
        }
        cli_hex(oct, len, hex, sizeof hex);
        if (verbose)
            printf("U+%04lX %s\n", (unsigned long)cp, hex);
        else
            printf("%s%s", any ? " " : "", hex);
        any = true;
    }
    if (any && !verbose)
        putchar('\n');
    free(cps);
    if (cli_stdout_check() != 0)
        return CLI_EXIT_ERROR;
    return rc;
}

/* ---- decode ---------------------------------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* parse_hex appends the octets of one argument; false on junk. Separators
 * (space, ',', ':', '-') split tokens; a token may start with 0x or \x. */
static bool parse_hex(const char *s, unsigned char *out, size_t *n)
{
    while (*s) {
        if (*s == ' ' || *s == ',' || *s == ':' || *s == '-' || *s == '\t' || *s == '%') {
            s++;
            continue;
        }
        if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) || (s[0] == '\\' && s[1] == 'x'))
            s += 2;
        {
            size_t digits = 0;
            while (hexval((unsigned char)s[digits]) >= 0)
                digits++;
            if (digits == 0 || digits % 2)
                return false;
            for (size_t i = 0; i < digits; i += 2)
                out[(*n)++] = (unsigned char)(hexval((unsigned char)s[i]) << 4 |
                                              hexval((unsigned char)s[i + 1]));
            s += digits;
        }
    }
    return true;
}

void cli_print_char(FILE *f, uint32_t cp, const unsigned char *p, size_t n)
{
    static const char esc[] = "0......abtnvfr";
    if (cp < 0x0E && esc[cp] != '.')
        fprintf(f, "\\%c", esc[cp]);
    else if (cp < 0x20 || cp == 0x7F)
        fprintf(f, "\\x%02X", (unsigned)cp);
    else if (cp >= 0x80 && cp < 0xA0)
        fprintf(f, "\\u%04X", (unsigned)cp);
    else
        fwrite(p, 1, n, f);
}

void cli_print_value(FILE *f, uint32_t cp)
{
    char o[UTF8KIT_MAX_SEQUENCE];
    size_t n = utf8kit_encode(cp, o);
    if (n)
        cli_print_char(f, cp, (const unsigned char *)o, n);
    else if (cp >= 0xD800 && cp <= 0xDFFF)
        fprintf(f, "\\u%04lX", (unsigned long)cp);
    else /* beyond U+10FFFF: the RFC 2279 form's 31-bit values */
        fprintf(f, "\\U%08lX", (unsigned long)cp);
}

size_t cli_first_char(cli_form form, const unsigned char *p, size_t n, uint32_t *cp)
{
    unsigned char u[4];
    utf8kit_result c;
    size_t len;
    if (form == CLI_FORM_UTF8) {
        if (utf8kit_decode((const char *)p, n, cp, &len) != UTF8KIT_OK || len == 0)
            return *cp = 0xFFFD, 1; /* cannot happen in a valid run */
        return len;
    }
    /* The first character through UTF-32: room for one value, so the
     * conversion stops after it (OUTPUT_TOO_SMALL) and `read` is its
     * length in the form (6 for a CESU-8 surrogate pair). */
    c = utf8kit_convert(cli_form_encoding(form), UTF8KIT_UTF32LE, p, n, u, 4, NULL);
    *cp = (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
    return c.read ? c.read : 1;
}

int cmd_decode(int argc, char **argv)
{
    cli_args a = {argc, 1, argv, "decode", false, NULL, NULL, 0};
    cli_form form = CLI_FORM_UTF8;
    bool verbose = false, any = false;
    int id, rc = CLI_EXIT_OK;
    size_t total = 0, n = 0, i = 0, nargs = 0;
    unsigned char *bytes;
    for (int k = 1; k < argc; k++)
        total += strlen(argv[k]);
    bytes = malloc(total / 2 + 1);
    if (!bytes)
        return CLI_EXIT_ERROR;
    while ((id = cli_next(&a, opts)) != -1) {
        if (id == -2) {
            free(bytes);
            return CLI_EXIT_ERROR;
        }
        if (id == 0) {
            nargs++;
            if (!parse_hex(a.arg, bytes, &n)) {
                free(bytes);
                return cli_usage_error("decode", "'%s' is not hex octets", a.arg);
            }
        } else if (id == O_HELP) {
            free(bytes);
            decode_help();
            return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        } else if (parse_common(&a, id, &form, &verbose) != 0) {
            free(bytes);
            return CLI_EXIT_ERROR;
        }
    }
    if (nargs == 0) {
        free(bytes);
        return cli_usage_error("decode", "no octets given");
    }
    while (i < n) {
        uint32_t cp = 0;
        size_t len = 0;
        utf8kit_status st;
        char hex[3 * 8 + 1];
        if (form == CLI_FORM_UTF8) {
            st = utf8kit_decode((const char *)bytes + i, n - i, &cp, &len);
        } else {
            /* the first character of the rest, through UTF-32 */
            utf8kit_result r = cli_validate(form, bytes + i, n - i);
            size_t ok = r.status == UTF8KIT_OK ? n - i : r.read;
            st = UTF8KIT_OK;
            if (ok == 0) {
                st = r.status;
                len = r.error_len ? r.error_len : 1;
            } else {
                len = cli_first_char(form, bytes + i, ok, &cp);
            }
        }
        cli_hex(bytes + i, len > 8 ? 8 : len, hex, sizeof hex);
        if (st != UTF8KIT_OK) {
            char abuf[160];
            const char *att = st == UTF8KIT_ERR_OVERLONG || st == UTF8KIT_ERR_INVALID_LEAD
                                  ? cli_attack(bytes + i, n - i, abuf, sizeof abuf)
                                  : NULL;
            rc = CLI_EXIT_INVALID;
            if (verbose)
                printf("%-12s invalid: %s (byte %zu)%s%s\n", hex, utf8kit_strerror(st), i,
                       att ? "; " : "", att ? att : "");
            else
                printf("%s[%s: %s%s%s]", any ? " " : "", hex, utf8kit_strerror(st),
                       att ? "; " : "", att ? att : "");
        } else if (verbose) {
            printf("%-12s U+%04lX  ", hex, (unsigned long)cp);
            cli_print_value(stdout, cp);
            putchar('\n');
        } else {
            printf("%sU+%04lX", any ? " " : "", (unsigned long)cp);
        }
        any = true;
        i += len ? len : 1;
    }
    if (any && !verbose)
        putchar('\n');
    free(bytes);
    if (cli_stdout_check() != 0)
        return CLI_EXIT_ERROR;
    return rc;
}
