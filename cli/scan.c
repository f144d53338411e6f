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

/* The visitor of a walk: exactly one of v and cv is set. */
typedef struct walker {
    const cli_visitor *v;
    const cli_count_visitor *cv;
} walker;

/* tally_counts sets *c to the figures of valid text p[0..n) of any form,
 * from its byte classes. */
static void tally_counts(utf8kit_counts *c, const unsigned char *p, size_t n)
{
    cli_tally t = {0, 0, 0, 0, 0};
    cli_tally_add(&t, p, n);
    memset(c, 0, sizeof *c);
    c->lines = t.newlines;
    c->seq[1] = t.ascii;
    c->seq[2] = t.ge_c0 - t.ge_e0;
    c->seq[3] = t.ge_e0 - t.ge_f0;
    c->seq[4] = t.ge_f0;
}

/* run hands the valid run p[0..n) to the visitor; c holds its figures when
 * the library counted them, else NULL. */
static void run(const walker *w, const unsigned char *p, size_t n, const utf8kit_counts *c)
{
    utf8kit_counts t;
    if (w->v) {
        w->v->valid(w->v->ctx, p, n);
        return;
    }
    if (c == NULL) {
        tally_counts(&t, p, n);
        c = &t;
    }
    w->cv->valid(w->cv->ctx, p, n, c);
}

static bool error(const walker *w, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                  utf8kit_status kind)
{
    if (w->v)
        return w->v->error(w->v->ctx, off, p, n, avail, kind);
    return w->cv->error(w->cv->ctx, off, p, n, avail, kind);
}

static size_t walk_once(cli_form f, const unsigned char *buf, size_t n, size_t limit,
                        uint64_t base, bool eof, const walker *w, bool *stopped)
{
    size_t i = 0;
    /* A counting visitor of RFC 3629 text gets its figures from the
     * validating call itself. */
    bool fused = w->cv != NULL && f == CLI_FORM_UTF8;
    *stopped = false;
    while (i < limit) {
        utf8kit_counts c;
        utf8kit_result r;
        size_t e;
        memset(&c, 0, sizeof c);
        r = fused ? utf8kit_validate_counts((const char *)buf + i, n - i, &c)
                  : cli_validate(f, buf + i, n - i);
        e = r.status == UTF8KIT_OK ? n : i + r.read;
        if (e >= limit) {
            if (limit > i) {
                if (fused && e > limit) {
                    /* The figures are those of [i, e): take away those of
                     * [limit, e), a few bytes of look-ahead, valid on its
                     * own since limit is a boundary (else count [i, limit)
                     * byte by byte). */
                    utf8kit_counts x;
                    utf8kit_result rx;
                    memset(&x, 0, sizeof x);
                    rx = utf8kit_validate_counts((const char *)buf + limit, e - limit, &x);
                    if (rx.status == UTF8KIT_OK) {
                        c.lines -= x.lines;
                        for (int k = 1; k < 5; k++)
                            c.seq[k] -= x.seq[k];
                    } else {
                        tally_counts(&c, buf + i, limit - i);
                    }
                }
                run(w, buf + i, limit - i, fused ? &c : NULL);
            }
            return limit;
        }
        if (!eof && (r.status == UTF8KIT_ERR_TRUNCATED || n - e < CLI_LOOKAHEAD)) {
            /* Wait for more bytes: the sequence may complete, and the
             * diagnostics want to see what follows. */
            if (e > i)
                run(w, buf + i, e - i, fused ? &c : NULL);
            return e;
        }
        if (e > i)
            run(w, buf + i, e - i, fused ? &c : NULL);
        if (r.error_len == 0) /* never loop on a library that says nothing */
            r.error_len = 1;
        if (r.error_len > n - e)
            r.error_len = n - e;
        if (error(w, base + e, buf + e, r.error_len, n - e, r.status)) {
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

static size_t walk(cli_form f, const unsigned char *buf, size_t n, size_t limit, uint64_t base,
                   bool eof, const walker *w, bool *stopped)
{
    size_t off = 0;
    *stopped = false;
    for (;;) {
        size_t r;
        if (limit - off <= SLICE)
            /* the last slice: limit is a boundary (or n), the rest is visible */
            return off + walk_once(f, buf + off, n - off, limit - off, base + off, eof, w, stopped);
        /* a slice in the middle: whatever it cannot finish is held and
         * seen again at the start of the next slice */
        r = walk_once(f, buf + off, SLICE, SLICE, base + off, false, w, stopped);
        if (*stopped)
            return off + r;
        off += r;
    }
}

size_t cli_walk(cli_form f, const unsigned char *buf, size_t n, size_t limit, uint64_t base,
                bool eof, const cli_visitor *v, bool *stopped)
{
    walker w = {v, NULL};
    return walk(f, buf, n, limit, base, eof, &w, stopped);
}

size_t cli_walk_counts(cli_form f, const unsigned char *buf, size_t n, size_t limit,
                       uint64_t base, bool eof, const cli_count_visitor *v, bool *stopped)
{
    walker w = {NULL, v};
    return walk(f, buf, n, limit, base, eof, &w, stopped);
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
 * Eight bytes at a time in a 64-bit word (the command is built for the
 * baseline instruction set; the RFC 3629 form of `count` gets its figures
 * from the library instead). For each class a word gets 1 in each byte of
 * that class, 0 elsewhere, and these words are added up: each byte of the
 * sum is a counter that can take 255 words before it would carry into the
 * next one, so the sums are folded into 64-bit totals every 255 words.
 */
#define ONES UINT64_C(0x0101010101010101)
#define HIGH UINT64_C(0x8080808080808080)
#define LOW7 UINT64_C(0x7F7F7F7F7F7F7F7F)

/* The sum of the eight byte counters of w: pairs first (at most 510, no
 * carry between 16-bit lanes), then one multiply adds the four lanes into
 * the top one. */
static uint64_t fold(uint64_t w)
{
    w = (w & UINT64_C(0x00FF00FF00FF00FF)) + (w >> 8 & UINT64_C(0x00FF00FF00FF00FF));
    return (w * UINT64_C(0x0001000100010001)) >> 48;
}

/* 1 in each byte of w equal to 0A: x = w ^ 0A..0A is zero exactly there;
 * adding 7F to a byte's low 7 bits sets its bit 7 unless they are all zero,
 * with no carry out of the byte (7F + 7F = FE). */
static uint64_t lf_bytes(uint64_t w)
{
    uint64_t x = w ^ (ONES * 0x0A);
    return (~(((x & LOW7) + LOW7) | x) & HIGH) >> 7;
}

static uint64_t word_at(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

void cli_tally_add(cli_tally *t, const unsigned char *p, size_t n)
{
    while (n >= 8) {
        size_t words = n / 8 < 255 ? n / 8 : 255;
        uint64_t nl = 0, a = 0, c0 = 0, e0 = 0, f0 = 0;
        for (size_t i = 0; i < words; i++) {
            uint64_t w = word_at(p + 8 * i);
            /* bits 7-6, 7-5, 7-4 all set: C0..FF, E0..FF, F0..FF (w << j
             * brings bit 7 - j of each byte to its bit 7) */
            uint64_t c = w & w << 1, e = c & w << 2, f = e & w << 3;
            nl += lf_bytes(w);
            a += (~w & HIGH) >> 7;
            c0 += (c & HIGH) >> 7;
            e0 += (e & HIGH) >> 7;
            f0 += (f & HIGH) >> 7;
        }
        t->newlines += fold(nl);
        t->ascii += fold(a);
        t->ge_c0 += fold(c0);
        t->ge_e0 += fold(e0);
        t->ge_f0 += fold(f0);
        p += 8 * words;
        n -= 8 * words;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned x = p[i];
        t->newlines += x == 0x0A;
        t->ascii += x < 0x80;
        t->ge_c0 += x >= 0xC0;
        t->ge_e0 += x >= 0xE0;
        t->ge_f0 += x >= 0xF0;
    }
}

uint64_t cli_count_newlines(const unsigned char *p, size_t n)
{
    uint64_t total = 0;
    while (n >= 8) {
        size_t words = n / 8 < 255 ? n / 8 : 255;
        uint64_t nl = 0;
        for (size_t i = 0; i < words; i++)
            nl += lf_bytes(word_at(p + 8 * i));
        total += fold(nl);
        p += 8 * words;
        n -= 8 * words;
    }
    for (size_t i = 0; i < n; i++)
        total += p[i] == 0x0A;
    return total;
}
