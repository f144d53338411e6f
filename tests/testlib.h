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
 * Also here, for the tests that need them: test_quick() (the shrunken
 * sweeps of sanitizer runs), a fixed-seed random generator (rnd() and
 * kin, put_mix_char), guard pages (test_guarded, when the test defines
 * _DEFAULT_SOURCE before its first include), test_same_result(), hexval()
 * and testdata_sources().
 */
#ifndef UTF8KIT_TESTLIB_H
#define UTF8KIT_TESTLIB_H

#include "utf8kit.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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

/* The folders of dir (the third-party data) that hold a regular file
 * cases.txt, sorted by name: at most max names, each malloc'd into
 * names[] (the caller frees them). Returns how many; 0 when dir cannot be
 * read. */
static inline int testdata_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline size_t testdata_sources(const char *dir, char **names, size_t max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    if (!d)
        return 0;
    while (n < max && (e = readdir(d)) != NULL) {
        char path[4096];
        struct stat sb;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/cases.txt", dir, e->d_name);
        if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            size_t len = strlen(e->d_name) + 1;
            names[n] = malloc(len);
            if (!names[n]) {
                perror("malloc");
                exit(2);
            }
            memcpy(names[n++], e->d_name, len);
        }
    }
    closedir(d);
    qsort(names, n, sizeof names[0], testdata_name_cmp);
    return n;
}

/* The UTF-8 bit layout of c at o, written here from RFC 3629 section 3
 * (and RFC 2279 for the 5- and 6-octet forms of values above 1FFFFF),
 * independent of the library; returns the octets written (1..6). */
static inline size_t ref_utf8(uint32_t c, unsigned char *o)
{
    if (c < 0x80) {
        o[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (unsigned char)(0xC0 | c >> 6);
        o[1] = (unsigned char)(0x80 | (c & 63));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (unsigned char)(0xE0 | c >> 12);
        o[1] = (unsigned char)(0x80 | (c >> 6 & 63));
        o[2] = (unsigned char)(0x80 | (c & 63));
        return 3;
    }
    if (c < 0x200000) {
        o[0] = (unsigned char)(0xF0 | c >> 18);
        o[1] = (unsigned char)(0x80 | (c >> 12 & 63));
        o[2] = (unsigned char)(0x80 | (c >> 6 & 63));
        o[3] = (unsigned char)(0x80 | (c & 63));
        return 4;
    }
    if (c < 0x4000000) {
        o[0] = (unsigned char)(0xF8 | c >> 24);
        o[1] = (unsigned char)(0x80 | (c >> 18 & 63));
        o[2] = (unsigned char)(0x80 | (c >> 12 & 63));
        o[3] = (unsigned char)(0x80 | (c >> 6 & 63));
        o[4] = (unsigned char)(0x80 | (c & 63));
        return 5;
    }
    o[0] = (unsigned char)(0xFC | c >> 30);
    o[1] = (unsigned char)(0x80 | (c >> 24 & 63));
    o[2] = (unsigned char)(0x80 | (c >> 18 & 63));
    o[3] = (unsigned char)(0x80 | (c >> 12 & 63));
    o[4] = (unsigned char)(0x80 | (c >> 6 & 63));
    o[5] = (unsigned char)(0x80 | (c & 63));
    return 6;
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

/* True when UTF8KIT_TEST_QUICK is set to anything but "" or "0": the
 * sanitizer, valgrind and emulator runs, where a test shrinks its largest
 * sweeps (and says so in its header comment). */
static inline int test_quick(void)
{
    const char *q = getenv("UTF8KIT_TEST_QUICK");
    return q && *q && *q != '0';
}

/* ---- a fixed-seed random generator ------------------------------------
 * One 64-bit state, set by test_seed() (a test that never calls it starts
 * from the default below) and stepped by one of two generators:
 *  - test_xorshift64(): xorshift64, shifts 13, 7, 17 (full period over the
 *    nonzero states); rnd() is bits 11..42 of the new state;
 *  - test_xorshift64star(): xorshift64*, shifts 12, 25, 27, then the state
 *    times 0x2545F4914F6CDD1D (the product is returned, the state keeps
 *    the shifted value); rnd_star() is the product's high 32 bits.
 * A test uses one of them. The sequence depends on the seed alone, so
 * every run of a test sees the same inputs. */
static uint64_t test_rng_state = 0x9E3779B97F4A7C15u;

static inline void test_seed(uint64_t seed)
{
    test_rng_state = seed;
}

static inline uint64_t test_xorshift64(void)
{
    test_rng_state ^= test_rng_state << 13;
    test_rng_state ^= test_rng_state >> 7;
    test_rng_state ^= test_rng_state << 17;
    return test_rng_state;
}

static inline uint32_t rnd(void)
{
    return (uint32_t)(test_xorshift64() >> 11);
}

static inline uint64_t test_xorshift64star(void)
{
    test_rng_state ^= test_rng_state >> 12;
    test_rng_state ^= test_rng_state << 25;
    test_rng_state ^= test_rng_state >> 27;
    return test_rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

static inline uint32_t rnd_star(void)
{
    return (uint32_t)(test_xorshift64star() >> 32);
}

/* Writes one random character of text of width mix `mix` at p (room for
 * 4 bytes) and returns its length: mix 0 is ASCII-heavy, 1 two-octet, 2
 * three-octet, 3 four-octet heavy (half the characters take the mix's
 * width, the others any of the four widths evenly); a surrogate drawn in
 * the three-octet range becomes U+FFFD. nl > 0: one character in about nl
 * is a line feed instead. Draws from rnd(). */
static inline size_t put_mix_char(unsigned char *p, int mix, unsigned nl)
{
    uint32_t cp, k = rnd() % 8;
    char tmp[4];
    size_t n;
    if (nl && rnd() % nl == 0) {
        *p = '\n';
        return 1;
    }
    if (k < 4 && mix == 0)
        cp = rnd() % 0x80;
    else if (k < 4)
        cp = mix == 1   ? 0x80 + rnd() % 0x780
             : mix == 2 ? 0x800 + rnd() % 0xF800
                        : 0x10000 + rnd() % 0x100000;
    else if (k == 4)
        cp = rnd() % 0x80;
    else if (k == 5)
        cp = 0x80 + rnd() % 0x780;
    else if (k == 6)
        cp = 0x800 + rnd() % 0xF800;
    else
        cp = 0x10000 + rnd() % 0x100000;
    if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
    n = utf8kit_encode(cp, tmp);
    memcpy(p, tmp, n);
    return n;
}

/* ---- guard pages -------------------------------------------------------
 * test_guarded(pages) maps `pages` writable pages followed by one PROT_NONE
 * page and returns the address of that last page: [end - n, end) is usable
 * for n up to pages times the page size, and touching end[0] faults. The
 * mapping lives until the process exits. When mmap or mprotect fails it
 * exits with status 2; test_guarded_try() returns NULL instead. They need
 * MAP_ANONYMOUS, which a -std=c11 build declares only when the test
 * defines _DEFAULT_SOURCE before its first include. */
#ifdef MAP_ANONYMOUS
static inline unsigned char *test_guarded_try(size_t pages)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, page * (pages + 1), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + page * pages, page, PROT_NONE) != 0) {
        munmap(m, page * (pages + 1));
        return NULL;
    }
    return m + page * pages;
}

static inline unsigned char *test_guarded(size_t pages)
{
    unsigned char *end = test_guarded_try(pages);
    if (!end) {
        perror("mmap");
        exit(2);
    }
    return end;
}
#endif

/* Whether two results agree in status, read, written and error_len (what
 * every entry fills; a test compares `replaced` itself where it counts). */
static inline bool test_same_result(utf8kit_result a, utf8kit_result b)
{
    return a.status == b.status && a.read == b.read && a.written == b.written &&
           a.error_len == b.error_len;
}

/* The value of one hexadecimal digit (either case), or -1. */
static inline int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

#endif
