/*
 * demo.c - what `make demo` runs: validate the RFC 3629 section 7 examples,
 * the section 10 attacks, a file (default examples/sample.txt) and, when
 * it is there, Markus Kuhn's UTF-8 stress test, printing every error as
 *
 *     FILE: byte OFFSET: KIND (bytes XX YY)
 *
 * It uses only the public header: utf8kit_validate finds the first error,
 * the demo skips its maximal subpart (error_len bytes) and goes on, so each
 * error is reported once, exactly as a replacing decoder would see it.
 */
#include "utf8kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tally {
    size_t errors, chars;
};

/* Prints every error of s[0..len) under the name `what`; returns counts.
 * quiet: only count. */
static struct tally report(const char *what, const char *s, size_t len, int quiet)
{
    struct tally t = {0, 0};
    size_t at = 0;
    t.chars = utf8kit_count(s, len);
    while (at < len) {
        utf8kit_result r = utf8kit_validate(s + at, len - at);
        size_t i;
        if (r.status == UTF8KIT_OK)
            break;
        t.errors++;
        if (!quiet) {
            printf("%s: byte %zu: %s (bytes", what, at + r.read, utf8kit_status_name(r.status));
            for (i = 0; i < r.error_len; i++)
                printf(" %02X", (unsigned char)s[at + r.read + i]);
            printf(")\n");
        }
        at += r.read + r.error_len;
    }
    return t;
}

static void show_code_points(const char *s, size_t len)
{
    size_t at = 0, n;
    uint32_t cp;
    while (at < len) {
        (void)utf8kit_decode(s + at, len - at, &cp, &n);
        printf(" U+%04X", (unsigned)cp);
        at += n;
    }
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return NULL;
    do {
        if (n == cap) {
            char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    /* RFC 3629 section 7: the four examples, byte for byte. */
    static const struct {
        const char *name, *bytes;
        size_t len;
    } examples[] = {
        {"\"A<NOT IDENTICAL TO><ALPHA>.\"", "\x41\xE2\x89\xA2\xCE\x91\x2E", 7},
        {"Korean \"hangugeo\"", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", 9},
        {"Japanese \"nihongo\"", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 9},
        {"BOM + U+233B4", "\xEF\xBB\xBF\xF0\xA3\x8E\xB4", 7},
    };
    /* RFC 3629 section 10: what a decoder must refuse. */
    static const struct {
        const char *name, *bytes;
        size_t len;
    } attacks[] = {
        {"rfc3629-10 (C0 80 as NUL)", "\xC0\x80", 2},
        {"rfc3629-10 (\"/../\" with an overlong '.')", "\x2F\xC0\xAE\x2E\x2F", 5},
        {"rfc3629-10 (surrogate pair for U+233B4)", "\xED\xA1\x8C\xED\xBE\xB4", 6},
    };
    const char *path = argc > 1 ? argv[1] : "examples/sample.txt";
    const char *td = getenv("UTF8KIT_TESTDATA");
    char kuhn[4096];
    size_t i, len;
    char *data;
    struct tally t;
    int status = 0;

    printf("utf8kit %s, kernel %s\n\n", utf8kit_version(), utf8kit_impl_name());
    printf("RFC 3629 section 7 examples:\n");
    for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        utf8kit_result r = utf8kit_validate(examples[i].bytes, examples[i].len);
        printf("  %-32s %s,", examples[i].name, r.status == UTF8KIT_OK ? "valid" : "INVALID");
        show_code_points(examples[i].bytes, examples[i].len);
        printf("\n");
        if (r.status != UTF8KIT_OK)
            status = 1;
    }
    printf("\nRFC 3629 section 10 attacks (each must be refused):\n");
    for (i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        t = report(attacks[i].name, attacks[i].bytes, attacks[i].len, 0);
        if (t.errors == 0)
            status = 1;
    }

    printf("\n");
    data = slurp(path, &len);
    if (data == NULL) {
        fprintf(stderr, "demo: cannot read %s\n", path);
        return 2;
    }
    t = report(path, data, len, 0);
    printf("%s: %zu bytes, %zu characters, %zu error%s%s\n", path, len, t.chars, t.errors,
           t.errors == 1 ? "" : "s", t.errors ? "" : " (valid UTF-8)");
    free(data);

    snprintf(kuhn, sizeof kuhn, "%s/kuhn/UTF-8-test.txt", td && *td ? td : "../shared/testdata");
    data = slurp(kuhn, &len);
    if (data != NULL) {
        t = report(kuhn, data, len, 1);
        printf("%s (Markus Kuhn's stress test): %zu bytes, %zu characters, %zu errors\n", kuhn,
               len, t.chars, t.errors);
        free(data);
    }
    return status;
}
