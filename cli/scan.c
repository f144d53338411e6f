/*
 * scan.c - walking input as valid runs and maximal invalid subparts.
 *
 * The library finds the errors (utf8kit_validate, or utf8kit_convert in
 * measuring mode for the other forms); this file only strings the calls
 * together across chunk boundaries and describes what it found.
 */
#include "cli.h"

#include <stdatomic.h>
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

utf8kit_result cli_validate(cli_form f, const unsigned char *p, size_t n)
{
    utf8kit_encoding e = cli_form_encoding(f);
    utf8kit_result r;
    if (f == CLI_FORM_UTF8)
        return utf8kit_validate((const char *)p, n);
    /* STRICT, measuring (dst NULL): the first error of that form. */
    r = utf8kit_convert(e, e, p, n, NULL, 0, NULL);
    r.written = 0;
    return r;
}

uint64_t cli_count_chars(cli_form f, const unsigned char *p, size_t n)
{
    utf8kit_options o;
    if (f == CLI_FORM_UTF8)
        return utf8kit_count((const char *)p, n);
    /* the characters of the other forms: their UTF-32 length */
    memset(&o, 0, sizeof o);
    o.policy = UTF8KIT_REPLACE;
    return utf8kit_convert(cli_form_encoding(f), UTF8KIT_UTF32LE, p, n, NULL, 0, &o).written / 4;
}

static size_t walk_once(cli_form f, const unsigned char *buf, size_t n, size_t limit,
                        uint64_t base, bool eof, const cli_visitor *v, bool *stopped)
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

/* The walk goes through its input in slices of this size, so that the
 * library's pass and the visitor's pass over the same bytes both hit the
 * L2 cache instead of memory. */
#define SLICE (256u << 10)

size_t cli_walk(cli_form f, const unsigned char *buf, size_t n, size_t limit, uint64_t base,
                bool eof, const cli_visitor *v, bool *stopped)
{
    size_t off = 0;
    *stopped = false;
    for (;;) {
        size_t r;
        if (limit - off <= SLICE)
            /* the last slice: limit is a boundary (or n), the rest is visible */
            return off + walk_once(f, buf + off, n - off, limit - off, base + off, eof, v, stopped);
        /* a slice in the middle: whatever it cannot finish is held and
         * seen again at the start of the next slice */
        r = walk_once(f, buf + off, SLICE, SLICE, base + off, false, v, stopped);
        if (*stopped)
            return off + r;
        off += r;
    }
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

/* ---- byte statistics ------------------------------------------------------------
 *
 * Signed byte comparisons classify a byte in one SIMD instruction (SSE2
 * has pcmpgtb/pcmpeqb but no unsigned byte compare). As signed chars
 * 00..7F are 0..127 and 80..FF are -128..-1, so C0..FF are -64..-1:
 * the bytes > -65 are 00..7F and C0..FF, and likewise > -33 adds E0..FF,
 * > -17 adds F0..FF; ASCII is subtracted at the end.
 * Each comparison gives -1 per matching lane, subtracted from a byte
 * counter; a lane can count 255 blocks before it would wrap, so the
 * counters are summed every 255 blocks of 16 bytes.
 */
#if defined(__GNUC__) || defined(__clang__)
typedef signed char cli_v16 __attribute__((vector_size(16)));
typedef unsigned char cli_u16 __attribute__((vector_size(16)));
#define CLI_VECTOR 1

static uint64_t lanes_sum(cli_u16 v)
{
    uint64_t s = 0;
    for (int i = 0; i < 16; i++)
        s += v[i];
    return s;
}

/* TALLY_BLOCKS is the vector loop of cli_tally_add for vectors of W bytes
 * (types VT signed, UT unsigned): it consumes whole vectors of p[0..n). */
#define TALLY_BLOCKS(VT, UT, W)                                                        \
    do {                                                                              \
        const VT zero = {0};                                                          \
        const VT nl = zero + 10, neg1 = zero - 1, k64 = zero - 65, k32 = zero - 33,   \
                 k16 = zero - 17;                                                     \
        while (n >= (W)) {                                                            \
            size_t blocks = n / (W) < 255 ? n / (W) : 255;                            \
            UT a = {0}, b = {0}, c = {0}, d = {0}, e = {0};                           \
            uint64_t sa = 0, sb = 0, sc = 0, sd = 0, se = 0;                          \
            for (size_t i = 0; i < blocks; i++) {                                     \
                VT x;                                                                 \
                memcpy(&x, p + (W) * i, (W));                                         \
                a -= (UT)(x == nl);                                                   \
                b -= (UT)(x > neg1);                                                  \
                c -= (UT)(x > k64);                                                   \
                d -= (UT)(x > k32);                                                   \
                e -= (UT)(x > k16);                                                   \
            }                                                                         \
            for (int l = 0; l < (W); l++)                                             \
                sa += a[l], sb += b[l], sc += c[l], sd += d[l], se += e[l];           \
            t->newlines += sa;                                                        \
            t->ascii += sb;                                                           \
            t->ge_c0 += sc - sb;                                                      \
            t->ge_e0 += sd - sb;                                                      \
            t->ge_f0 += se - sb;                                                      \
            p += (W) * blocks;                                                        \
            n -= (W) * blocks;                                                        \
        }                                                                             \
    } while (0)

#if defined(__x86_64__) || defined(__i386__)
/* The same with AVX2's 32-byte vectors, chosen at run time: the command
 * is built for the baseline instruction set (no -march=native). */
#define CLI_AVX2 1
typedef signed char cli_v32 __attribute__((vector_size(32)));
typedef unsigned char cli_u32 __attribute__((vector_size(32)));

__attribute__((target("avx2"))) static void tally_avx2(cli_tally *t, const unsigned char *p,
                                                       size_t n, size_t *rest)
{
    TALLY_BLOCKS(cli_v32, cli_u32, 32);
    *rest = n;
}
#endif
#endif

static void tally_tail(cli_tally *t, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned x = p[i];
        t->newlines += x == 0x0A;
        t->ascii += x < 0x80;
        t->ge_c0 += x >= 0xC0;
        t->ge_e0 += x >= 0xE0;
        t->ge_f0 += x >= 0xF0;
    }
}

void cli_tally_add(cli_tally *t, const unsigned char *p, size_t n)
{
#ifdef CLI_AVX2
    /* every thread computes the same answer: relaxed atomics suffice */
    static atomic_int have_avx2 = -1;
    int h = atomic_load_explicit(&have_avx2, memory_order_relaxed);
    if (h < 0) {
        h = __builtin_cpu_supports("avx2") ? 1 : 0;
        atomic_store_explicit(&have_avx2, h, memory_order_relaxed);
    }
    if (h) {
        size_t rest;
        tally_avx2(t, p, n, &rest);
        p += n - rest;
        n = rest;
    }
#endif
#ifdef CLI_VECTOR
    TALLY_BLOCKS(cli_v16, cli_u16, 16);
#endif
    tally_tail(t, p, n);
}

uint64_t cli_count_newlines(const unsigned char *p, size_t n)
{
    uint64_t total = 0;
#ifdef CLI_VECTOR
    const cli_v16 nl = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
    while (n >= 16) {
        size_t blocks = n / 16 < 255 ? n / 16 : 255;
        cli_u16 a = {0};
        for (size_t i = 0; i < blocks; i++) {
            cli_v16 x;
            memcpy(&x, p + 16 * i, 16);
            a -= (cli_u16)(x == nl);
        }
        total += lanes_sum(a);
        p += 16 * blocks;
        n -= 16 * blocks;
    }
#endif
    for (size_t i = 0; i < n; i++)
        total += p[i] == 0x0A;
    return total;
}
