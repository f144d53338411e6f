/*
 * bench.c - throughput of utf8kit's operations, per kernel, next to memcpy
 * of the same bytes and next to other libraries when they were found at
 * configure time (bench/CMakeLists.txt defines HAVE_ICU, HAVE_UNISTRING,
 * HAVE_UTF8PROC, HAVE_SIMDUTF; glibc's iconv is always there).
 *
 * usage: utf8kit_bench [-t MS] [-c CORPUS_DIR] [-f SUBSTRING] [-o OP]
 *   -t  time per measurement in milliseconds (default 40; best of 5)
 *   -c  corpus folder (default $UTF8KIT_CORPUS or ../shared/corpus)
 *   -f  only inputs whose name contains SUBSTRING
 *   -o  only the operation named OP
 *
 * For every input and operation it prints the GB/s of memcpy on the same
 * input bytes, then, per kernel and peer, the ratio of its input
 * throughput to memcpy's (1.00 = as fast as copying the input; higher is
 * faster). Inputs: each file of the corpus, a 10 MB ASCII buffer, and
 * "short": 20000 strings of 8..64 bytes cut from the Latin and Chinese
 * texts at character boundaries, processed one call per string.
 */
#define _POSIX_C_SOURCE 200809L
#include "peers.h"
#include "short_cut.h"

#include "utf8kit.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char *out; /* output buffer, big enough for any op */
static size_t out_cap;
static volatile size_t sink;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the operations, on utf8kit's public API --------------------------- */
static size_t op_memcpy(const unsigned char *s, size_t n)
{
    memcpy(out, s, n);
    return out[n / 2];
}
static size_t op_validate(const unsigned char *s, size_t n)
{
    return utf8kit_validate((const char *)s, n).read;
}
static size_t op_is_valid(const unsigned char *s, size_t n) { return utf8kit_is_valid((const char *)s, n); }
static size_t op_count(const unsigned char *s, size_t n) { return utf8kit_count((const char *)s, n); }
static size_t op_validate_counts(const unsigned char *s, size_t n)
{
    utf8kit_counts c = {0, {0, 0, 0, 0, 0}};
    return utf8kit_validate_counts((const char *)s, n, &c).read + (size_t)c.lines + (size_t)c.seq[2];
}
static size_t op_utf16_length(const unsigned char *s, size_t n)
{
    return utf8kit_utf16_length((const char *)s, n);
}
static size_t op_count_av(const unsigned char *s, size_t n)
{
    return utf8kit_count_assume_valid((const char *)s, n);
}
static size_t op_utf16_length_av(const unsigned char *s, size_t n)
{
    return utf8kit_utf16_length_assume_valid((const char *)s, n);
}
/* The four conversions between UTF-8 and UTF-16LE / UTF-32 under a
 * policy: STRICT, and REPLACE for the replacement paths (issue 5: on
 * valid input near the speed of the strict ones). */
static size_t u8_u16(const unsigned char *s, size_t n, utf8kit_policy p)
{
    return utf8kit_utf8_to_utf16le((const char *)s, n, (uint16_t *)(void *)out, out_cap / 2, p).written;
}
static size_t u8_u32(const unsigned char *s, size_t n, utf8kit_policy p)
{
    return utf8kit_utf8_to_utf32((const char *)s, n, (uint32_t *)(void *)out, out_cap / 4, p).written;
}
static size_t u16_u8(const unsigned char *s, size_t n, utf8kit_policy p)
{
    return utf8kit_utf16le_to_utf8((const uint16_t *)(const void *)s, n / 2, (char *)out, out_cap, p)
        .written;
}
static size_t u32_u8(const unsigned char *s, size_t n, utf8kit_policy p)
{
    return utf8kit_utf32_to_utf8((const uint32_t *)(const void *)s, n / 4, (char *)out, out_cap, p)
        .written;
}
static size_t op_u8_u16(const unsigned char *s, size_t n) { return u8_u16(s, n, UTF8KIT_STRICT); }
static size_t op_u8_u32(const unsigned char *s, size_t n) { return u8_u32(s, n, UTF8KIT_STRICT); }
static size_t op_u16_u8(const unsigned char *s, size_t n) { return u16_u8(s, n, UTF8KIT_STRICT); }
static size_t op_u32_u8(const unsigned char *s, size_t n) { return u32_u8(s, n, UTF8KIT_STRICT); }
static size_t op_u8_u16_r(const unsigned char *s, size_t n) { return u8_u16(s, n, UTF8KIT_REPLACE); }
static size_t op_u8_u32_r(const unsigned char *s, size_t n) { return u8_u32(s, n, UTF8KIT_REPLACE); }
static size_t op_u16_u8_r(const unsigned char *s, size_t n) { return u16_u8(s, n, UTF8KIT_REPLACE); }
static size_t op_u32_u8_r(const unsigned char *s, size_t n) { return u32_u8(s, n, UTF8KIT_REPLACE); }
static size_t op_l1_u8(const unsigned char *s, size_t n)
{
    return utf8kit_latin1_to_utf8((const char *)s, n, (char *)out, out_cap).written;
}
static size_t op_u8_l1(const unsigned char *s, size_t n)
{
    return utf8kit_utf8_to_latin1((const char *)s, n, (char *)out, out_cap, UTF8KIT_STRICT).written;
}
static size_t op_u8_l1_r(const unsigned char *s, size_t n)
{
    return utf8kit_utf8_to_latin1((const char *)s, n, (char *)out, out_cap, UTF8KIT_REPLACE).written;
}
static size_t op_u8_l1_s(const unsigned char *s, size_t n)
{
    return utf8kit_utf8_to_latin1((const char *)s, n, (char *)out, out_cap, UTF8KIT_SKIP).written;
}
/* utf8kit_repair, the other replacement path */
static size_t op_repair(const unsigned char *s, size_t n)
{
    return utf8kit_repair((const char *)s, n, (char *)out, out_cap).written;
}

enum kind { K_UTF8, K_UTF16, K_UTF32, K_LATIN1 };

struct op {
    const char *name;
    enum kind in;
    bench_fn ours;
    const char *peer_op; /* name peers.c knows it by */
    bool replacing;      /* also run on the invalid inputs */
};

static const struct op ops[] = {
    {"validate", K_UTF8, op_validate, "validate", false},
    {"is_valid", K_UTF8, op_is_valid, "is_valid", false},
    {"count", K_UTF8, op_count, "count", false},
    {"utf16_length", K_UTF8, op_utf16_length, "utf16_length", false},
    /* the same for text known to be valid, checking nothing: what
     * simdutf's count_utf8 and utf16_length_from_utf8 do */
    {"count_av", K_UTF8, op_count_av, "count_av", false},
    {"utf16_length_av", K_UTF8, op_utf16_length_av, "utf16_length_av", false},
    /* validation + LF and sequences by length (utf8kit count's pass); no
     * peer has it */
    {"validate_counts", K_UTF8, op_validate_counts, "validate_counts", false},
    {"utf8>utf16le", K_UTF8, op_u8_u16, "utf8>utf16le", false},
    {"utf8>utf32", K_UTF8, op_u8_u32, "utf8>utf32", false},
    {"utf16le>utf8", K_UTF16, op_u16_u8, "utf16le>utf8", false},
    {"utf32>utf8", K_UTF32, op_u32_u8, "utf32>utf8", false},
    {"latin1>utf8", K_LATIN1, op_l1_u8, "latin1>utf8", false},
    {"utf8>latin1", K_UTF8, op_u8_l1, "utf8>latin1", false},
    /* "/r": the same under the REPLACE policy */
    {"utf8>utf16le/r", K_UTF8, op_u8_u16_r, "utf8>utf16le/r", true},
    {"utf8>utf32/r", K_UTF8, op_u8_u32_r, "utf8>utf32/r", true},
    {"utf16le>utf8/r", K_UTF16, op_u16_u8_r, "utf16le>utf8/r", true},
    {"utf32>utf8/r", K_UTF32, op_u32_u8_r, "utf32>utf8/r", true},
    /* UTF-8 -> Latin-1 of every text: '?' (ICU: 1A) for each character
     * Latin-1 cannot hold, or (/s) nothing, as iconv's //IGNORE */
    {"utf8>latin1/r", K_UTF8, op_u8_l1_r, "utf8>latin1/r", true},
    {"utf8>latin1/s", K_UTF8, op_u8_l1_s, "utf8>latin1/s", true},
    {"repair", K_UTF8, op_repair, "repair", true},
};
#define NOPS (sizeof ops / sizeof ops[0])

struct input {
    char name[300];
    enum kind kind;
    unsigned char *data;
    size_t len;
    bool invalid; /* for the replacing operations only */
    /* short strings: offsets and lengths into data */
    size_t nshort, *soff, *slen;
};

static double ms_per_run = 40;

/* Best time of one pass over the input (seconds), of 5 trials: the best
 * is the least disturbed by other processes. */
static double measure(bench_fn f, const struct input *in)
{
    double best = 1e30;
    int trial;
    for (trial = 0; trial < 5; trial++) {
        double t0 = now(), t;
        size_t iters = 0;
        do {
            if (in->nshort) {
                size_t k;
                for (k = 0; k < in->nshort; k++)
                    sink += f(in->data + in->soff[k], in->slen[k]);
            } else {
                sink += f(in->data, in->len);
            }
            iters++;
            t = now() - t0;
        } while (t * 1e3 < ms_per_run / 5);
        if (t / (double)iters < best)
            best = t / (double)iters;
    }
    return best;
}

static size_t total_bytes(const struct input *in)
{
    size_t k, s = 0;
    if (!in->nshort)
        return in->len;
    for (k = 0; k < in->nshort; k++)
        s += in->slen[k];
    return s;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p;
    long sz;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc((size_t)sz + 1);
    if (!p || fread(p, 1, (size_t)sz, f) != (size_t)sz) {
        fclose(f);
        free(p);
        return NULL;
    }
    fclose(f);
    *n = (size_t)sz;
    return p;
}

static struct input inputs[128];
static size_t ninputs;

static void add_file(const char *dir, const char *sub, const char *file)
{
    char path[512];
    struct input *in;
    size_t skip = 0;
    if (ninputs == sizeof inputs / sizeof inputs[0])
        return;
    in = &inputs[ninputs];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, file);
    if (strstr(file, ".utf8."))
        in->kind = K_UTF8;
    else if (strstr(file, ".utf16."))
        in->kind = K_UTF16;
    else if (strstr(file, ".utf32."))
        in->kind = K_UTF32;
    else if (strstr(file, ".latin1."))
        in->kind = K_LATIN1;
    else
        return;
    in->data = slurp(path, &in->len);
    if (!in->data)
        return;
    /* Drop a byte order mark: the operations are on bare text. */
    if (in->kind == K_UTF8 && in->len >= 3 && memcmp(in->data, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    else if (in->kind == K_UTF16 && in->len >= 2 && memcmp(in->data, "\xFF\xFE", 2) == 0)
        skip = 2;
    else if (in->kind == K_UTF32 && in->len >= 4 && memcmp(in->data, "\xFF\xFE\0\0", 4) == 0)
        skip = 4;
    memmove(in->data, in->data + skip, in->len - skip);
    in->len -= skip;
    snprintf(in->name, sizeof in->name, "%s/%s", sub, file);
    in->nshort = 0;
    ninputs++;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const struct input *)a)->name, ((const struct input *)b)->name);
}

static void add_dir(const char *dir, const char *sub)
{
    char path[512];
    DIR *d;
    struct dirent *e;
    size_t first = ninputs;
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    d = opendir(path);
    if (!d)
        return;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            add_file(dir, sub, e->d_name);
    closedir(d);
    qsort(inputs + first, ninputs - first, sizeof inputs[0], cmp_name);
}

/* Short strings cut from valid UTF-8 text at character starts. */
static void add_short(const char *name, const struct input *src)
{
    struct input *in = &inputs[ninputs];
    size_t n = 20000;
    if (!src || src->len < 200 || ninputs == sizeof inputs / sizeof inputs[0])
        return;
    *in = *src;
    snprintf(in->name, sizeof in->name, "%s", name);
    in->soff = malloc(n * sizeof(size_t));
    in->slen = malloc(n * sizeof(size_t));
    if (!in->soff || !in->slen) {
        fprintf(stderr, "utf8kit_bench: out of memory\n");
        exit(1);
    }
    bench_cut_short(src->data, src->len, n, in->soff, in->slen);
    in->nshort = n;
    ninputs++;
}

static const struct input *find_input(const char *needle)
{
    size_t k;
    for (k = 0; k < ninputs; k++)
        if (strstr(inputs[k].name, needle) && !inputs[k].nshort)
            return &inputs[k];
    return NULL;
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("UTF8KIT_CORPUS"), *filter = NULL, *only = NULL;
    const char *impls[8];
    size_t nimpl = 0, k, o, maxlen = 0;
    int a;
    if (!corpus || !*corpus)
        corpus = "../shared/corpus";
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-t") == 0 && a + 1 < argc)
            ms_per_run = atof(argv[++a]);
        else if (strcmp(argv[a], "-c") == 0 && a + 1 < argc)
            corpus = argv[++a];
        else if (strcmp(argv[a], "-f") == 0 && a + 1 < argc)
            filter = argv[++a];
        else if (strcmp(argv[a], "-o") == 0 && a + 1 < argc)
            only = argv[++a];
        else {
            fprintf(stderr, "usage: %s [-t MS] [-c CORPUS_DIR] [-f SUBSTRING] [-o OP]\n", argv[0]);
            return 2;
        }
    }
    add_dir(corpus, "lipsum");
    add_dir(corpus, "wikipedia_mars");
    if (ninputs == 0)
        fprintf(stderr, "no corpus found in %s (use -c)\n", corpus);
    {
        struct input *in = &inputs[ninputs++];
        in->len = 10u << 20;
        in->data = malloc(in->len);
        for (k = 0; k < in->len; k++)
            in->data[k] = (unsigned char)(' ' + k * 7 % 95);
        in->kind = K_UTF8;
        in->nshort = 0;
        snprintf(in->name, sizeof in->name, "ascii-10MB");
    }
    /* UTF-8 versions of the Latin-1 files, for utf8>latin1. */
    for (k = 0, o = ninputs; k < o && ninputs < sizeof inputs / sizeof inputs[0]; k++) {
        struct input *in = &inputs[ninputs];
        utf8kit_result r;
        if (inputs[k].kind != K_LATIN1)
            continue;
        *in = inputs[k];
        in->data = malloc(2 * inputs[k].len + 1);
        r = utf8kit_latin1_to_utf8((const char *)inputs[k].data, inputs[k].len, (char *)in->data,
                                   2 * inputs[k].len);
        in->len = r.written;
        in->kind = K_UTF8;
        snprintf(in->name, sizeof in->name, "%.200s (from latin1)", inputs[k].name);
        ninputs++;
    }
    /* Invalid inputs, for the replacing operations alone: the Latin-1
     * files read as UTF-8 (each byte from 80 on is an error: text in the
     * wrong encoding), and the UTF-16 files with a lone low surrogate put
     * in every 97 units. */
    for (k = 0, o = ninputs; k < o && ninputs < sizeof inputs / sizeof inputs[0]; k++) {
        struct input *in = &inputs[ninputs];
        if (inputs[k].kind == K_LATIN1) {
            *in = inputs[k];
            in->kind = K_UTF8;
            snprintf(in->name, sizeof in->name, "%.200s (read as utf8)", inputs[k].name);
        } else if (inputs[k].kind == K_UTF16) {
            uint16_t *u;
            size_t j;
            *in = inputs[k];
            in->data = malloc(in->len + 2);
            if (!in->data) {
                fprintf(stderr, "utf8kit_bench: out of memory\n");
                exit(1);
            }
            memcpy(in->data, inputs[k].data, in->len);
            u = (uint16_t *)(void *)in->data;
            /* not after a high surrogate, which would make a pair */
            for (j = 97; j < in->len / 2; j += 97)
                if ((u[j - 1] & 0xFC00) != 0xD800)
                    u[j] = 0xDFFF;
            snprintf(in->name, sizeof in->name, "%.200s (lone surrogates)", inputs[k].name);
        } else {
            continue;
        }
        in->invalid = true;
        ninputs++;
    }
    add_short("short8-64/latin", find_input("Latin-Lipsum.utf8"));
    add_short("short8-64/chinese", find_input("Chinese-Lipsum.utf8"));
    for (k = 0; k < ninputs; k++)
        if (inputs[k].len > maxlen)
            maxlen = inputs[k].len;
    out_cap = 4 * maxlen + 64;
    out = malloc(out_cap);
    memset(out, 0, out_cap);
    peers_set_output(out, out_cap);

    for (k = 0; utf8kit_impl_available(k) && nimpl < 8; k++)
        impls[nimpl++] = utf8kit_impl_available(k);

    printf("utf8kit %s benchmark; kernels:", utf8kit_version());
    for (k = 0; k < nimpl; k++)
        printf(" %s", impls[k]);
    printf("; peers: %s\n", peers_available());
    printf("cells: input throughput / memcpy throughput of the same bytes (higher is faster)\n\n");
    printf("%-52s %-15s %8s", "input", "operation", "memcpy");
    for (k = 0; k < nimpl; k++)
        printf(" %7s", impls[k]);
    for (k = 0; peer_name(k); k++)
        printf(" %9s", peer_name(k));
    printf("\n");

    for (size_t i = 0; i < ninputs; i++) {
        const struct input *in = &inputs[i];
        double tm;
        if (filter && !strstr(in->name, filter))
            continue;
        tm = measure(op_memcpy, in);
        for (o = 0; o < NOPS; o++) {
            const struct op *op = &ops[o];
            if (op->in != in->kind || (only && strcmp(only, op->name) != 0) ||
                (in->invalid && !op->replacing))
                continue;
            /* utf8>latin1 only on text Latin-1 can hold (else it stops at
             * the first character beyond U+00FF): the UTF-8 made from the
             * Latin-1 files, and ASCII; and only that there. */
            {
                bool l1op = strcmp(op->name, "utf8>latin1") == 0;
                bool from_l1 = strstr(in->name, "(from latin1)") != NULL;
                if (from_l1 ? !l1op : l1op && !strstr(in->name, "ascii"))
                    continue;
            }
            printf("%-52s %-15s %8.2f", in->name, op->name,
                   (double)total_bytes(in) / tm * 1e-9);
            for (k = 0; k < nimpl; k++) {
                utf8kit_impl_select(impls[k]);
                printf(" %7.3f", tm / measure(op->ours, in));
            }
            for (size_t p = 0; peer_name(p); p++) {
                bench_fn f = peer_fn(p, op->peer_op);
                if (f)
                    printf(" %9.3f", tm / measure(f, in));
                else
                    printf(" %9s", "-");
            }
            printf("\n");
            fflush(stdout);
        }
    }
    return (int)(sink & 0);
}
