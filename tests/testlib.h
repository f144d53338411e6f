/*
 * testlib.h - the small harness every C test uses.
 *
 * CHECK(cond, fmt, ...) counts a failure and prints where; a test ends
 * with `return test_done("name");`, which prints the plain closing line
 * "name: N passed, N failed" and exits non-zero on any failure.
 * test_begin() skips the program (exit 77) when UTF8KIT_FORCE_IMPL names a
 * kernel this CPU lacks, so ctest reports it as skipped, not passed.
 * dup_exact() copies bytes into a heap block of exactly that size, so that
 * AddressSanitizer and valgrind catch any read past the end.
 */
#ifndef UTF8KIT_TESTLIB_H
#define UTF8KIT_TESTLIB_H

#include "utf8kit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long test_passed, test_failed;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (cond) {                                                            \
            test_passed++;                                                     \
        } else {                                                               \
            test_failed++;                                                     \
            if (test_failed <= 50) {                                           \
                fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                  \
                fputc('\n', stderr);                                           \
            }                                                                  \
        }                                                                      \
    } while (0)

static inline void test_begin(void)
{
    const char *want = getenv("UTF8KIT_FORCE_IMPL");
    if (want && *want && strcmp(want, utf8kit_impl_name()) != 0) {
        printf("skipped: this CPU (or build) has no '%s' kernel\n", want);
        exit(77);
    }
}

static inline int test_done(const char *name)
{
    printf("%s [%s]: %lu passed, %lu failed\n", name, utf8kit_impl_name(), test_passed,
           test_failed);
    return test_failed ? 1 : 0;
}

/* A heap copy of exactly n bytes (n == 0 gives a 1-byte block, unused). */
static inline unsigned char *dup_exact(const void *p, size_t n)
{
    unsigned char *q = malloc(n ? n : 1);
    if (!q) {
        perror("malloc");
        exit(2);
    }
    if (n)
        memcpy(q, p, n);
    return q;
}

/* The third-party data folder: $UTF8KIT_TESTDATA, else ../shared/testdata
 * beside the source tree. Returns NULL when absent. */
static inline const char *testdata_dir(void)
{
    const char *d = getenv("UTF8KIT_TESTDATA");
    return (d && *d) ? d : NULL;
}

/* Reads a whole file into a malloc'd buffer; *n gets its size. NULL on error. */
static inline unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, len = 0;
    if (!f)
        return NULL;
    for (;;) {
        size_t got;
        if (len == cap) {
            unsigned char *nb;
            cap = cap ? cap * 2 : 65536;
            nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *n = len;
    return buf;
}

#endif
