/*
 * icu_oracle.c - utf8kit against ICU, an independent UTF-8 decoder.
 * Built and run by tests/test_oracle_icu.py (only when ICU is installed).
 *
 * For each input, ICU gives the reference: ucnv_toUnicode with the
 * substituting callback yields every output code point together with the
 * input offset it came from, so each U+FFFD it writes tells where a
 * maximal invalid subpart starts and (by the next offset) how long it is.
 * u_strFromUTF8WithSub must give the same UTF-16 (checked too). Then, for
 * every kernel this CPU runs, utf8kit must agree:
 *   - the utf8kit_decode loop: every code point and every length;
 *   - utf8kit_validate: the first error's offset and length;
 *   - utf8kit_count and utf8kit_utf16_length;
 *   - with -DHAVE_CONVERT: utf8kit_utf8_to_utf16le under REPLACE (output,
 *     replaced count) and under STRICT (read, error_len), utf8kit_repair;
 *     and in gen mode utf8kit_utf16le_to_utf8 against u_strToUTF8WithSub
 *     on UTF-16 with unpaired surrogates (one U+FFFD each).
 *
 * Modes:
 *   icu_oracle cases FILE...   the inputs of cases.txt files; also checks
 *                              ICU itself against their U+ lists (the
 *                              claim that ICU substitutes maximal subparts)
 *   icu_oracle gen SEED N      N generated inputs, plus long inputs with an
 *                              error at every offset across 16/32/64-byte
 *                              blocks and beyond
 * Prints "oracle: N inputs, M checks, F failed"; exit 1 on any failure.
 */
#include "utf8kit.h"

#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long n_inputs, n_checks, n_failed, n_subs;
static const char *kernel = "?";

static void fail_dump(const unsigned char *s, size_t len)
{
    size_t i;
    fprintf(stderr, "  input (%zu bytes):", len);
    for (i = 0; i < len && i < 96; i++)
        fprintf(stderr, " %02X", s[i]);
    fprintf(stderr, "%s\n", len > 96 ? " ..." : "");
}

#define EXPECT(cond, s, len, ...)                                                  \
    do {                                                                           \
        n_checks++;                                                                \
        if (!(cond)) {                                                             \
            n_failed++;                                                            \
            if (n_failed <= 30) {                                                  \
                fprintf(stderr, "[%s] FAILED %s: ", kernel, #cond);                \
                fprintf(stderr, __VA_ARGS__);                                      \
                fputc('\n', stderr);                                               \
                fail_dump(s, len);                                                 \
            }                                                                      \
        }                                                                          \
    } while (0)

/* ICU's view of one input. */
struct icu_view {
    uint32_t *cp;     /* code points */
    size_t *off;      /* input offset of each */
    size_t *sublen;   /* for a substitution: length of the subpart; else 0 */
    size_t ncp;
    UChar *u16;       /* u_strFromUTF8WithSub's output */
    size_t nu16;
    size_t nsub;      /* substitutions */
};

static UConverter *cnv;

static void icu_decode(const unsigned char *s, size_t len, struct icu_view *v)
{
    UErrorCode err = U_ZERO_ERROR;
    size_t cap = len + 1, i, k;
    UChar *buf = malloc(cap * sizeof(UChar));
    int32_t *offs = malloc(cap * sizeof(int32_t));
    UChar *t = buf;
    const char *src = (const char *)s;
    int32_t n16 = 0, nsub = 0;

    if (!buf || !offs)
        exit(2);
    ucnv_reset(cnv);
    ucnv_toUnicode(cnv, &t, buf + cap, &src, src + len, offs, 1, &err);
    if (U_FAILURE(err)) {
        fprintf(stderr, "ucnv_toUnicode: %s\n", u_errorName(err));
        exit(2);
    }
    k = (size_t)(t - buf);
    v->cp = malloc((k + 1) * sizeof(uint32_t));
    v->off = malloc((k + 1) * sizeof(size_t));
    v->sublen = malloc((k + 1) * sizeof(size_t));
    if (!v->cp || !v->off || !v->sublen)
        exit(2);
    v->ncp = 0;
    v->nsub = 0;
    for (i = 0; i < k; i++) {
        uint32_t c = buf[i];
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < k && buf[i + 1] >= 0xDC00 && buf[i + 1] < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (buf[i + 1] - 0xDC00u);
            v->cp[v->ncp] = c;
            v->off[v->ncp++] = (size_t)offs[i];
            i++;
            continue;
        }
        v->cp[v->ncp] = c;
        v->off[v->ncp++] = (size_t)offs[i];
    }
    /* a U+FFFD is a substitution unless the input holds EF BF BD there */
    for (i = 0; i < v->ncp; i++) {
        size_t end = i + 1 < v->ncp ? v->off[i + 1] : len;
        v->sublen[i] = 0;
        if (v->cp[i] == 0xFFFD && !(end - v->off[i] == 3 && s[v->off[i]] == 0xEF &&
                                     s[v->off[i] + 1] == 0xBF && s[v->off[i] + 2] == 0xBD)) {
            v->sublen[i] = end - v->off[i];
            v->nsub++;
        }
    }
    free(offs);

    /* u_strFromUTF8WithSub: must agree with the converter */
    v->u16 = malloc((2 * len + 2) * sizeof(UChar));
    if (!v->u16)
        exit(2);
    err = U_ZERO_ERROR;
    u_strFromUTF8WithSub(v->u16, (int32_t)(2 * len + 2), &n16, (const char *)s, (int32_t)len,
                         0xFFFD, &nsub, &err);
    if (U_FAILURE(err)) {
        fprintf(stderr, "u_strFromUTF8WithSub: %s\n", u_errorName(err));
        exit(2);
    }
    v->nu16 = (size_t)n16;
    EXPECT(v->nu16 == k && memcmp(v->u16, buf, k * sizeof(UChar)) == 0, s, len,
           "ICU disagrees with itself: ucnv %zu units, u_strFromUTF8WithSub %zu", k, v->nu16);
    EXPECT((size_t)nsub == v->nsub, s, len, "ICU substitutions %d vs %zu", (int)nsub, v->nsub);
    free(buf);
}

static void icu_free(struct icu_view *v)
{
    free(v->cp);
    free(v->off);
    free(v->sublen);
    free(v->u16);
}

/* utf8kit on one input, one kernel, against ICU. */
static void compare(const unsigned char *s, size_t len, const struct icu_view *v)
{
    size_t pos = 0, i = 0, first_err = (size_t)-1, first_len = 0;
    utf8kit_result r;

    /* the decode loop */
    while (pos < len && i < v->ncp) {
        uint32_t cp;
        size_t n, want_n = (i + 1 < v->ncp ? v->off[i + 1] : len) - v->off[i];
        utf8kit_status st = utf8kit_decode((const char *)s + pos, len - pos, &cp, &n);
        EXPECT(v->off[i] == pos && cp == v->cp[i] && n == want_n, s, len,
               "decode at %zu: U+%04X len %zu, ICU U+%04X at %zu len %zu", pos, (unsigned)cp, n,
               (unsigned)v->cp[i], v->off[i], want_n);
        EXPECT((st != UTF8KIT_OK) == (v->sublen[i] != 0), s, len, "decode at %zu: %s", pos,
               utf8kit_status_name(st));
        if (v->sublen[i] && first_err == (size_t)-1) {
            first_err = v->off[i];
            first_len = v->sublen[i];
        }
        if (n == 0 || v->off[i] != pos)
            return; /* out of step: reported once */
        pos += n;
        i++;
    }
    EXPECT(pos == len && i == v->ncp, s, len, "decode loop ended at %zu (%zu of %zu chars)", pos,
           i, v->ncp);

    r = utf8kit_validate((const char *)s, len);
    if (first_err == (size_t)-1)
        EXPECT(r.status == UTF8KIT_OK && r.read == len, s, len, "validate: %s at %zu",
               utf8kit_status_name(r.status), r.read);
    else
        EXPECT(r.status != UTF8KIT_OK && r.read == first_err && r.error_len == first_len, s, len,
               "validate: %s at %zu len %zu, ICU: error at %zu len %zu",
               utf8kit_status_name(r.status), r.read, r.error_len, first_err, first_len);
    EXPECT(utf8kit_is_valid((const char *)s, len) == (first_err == (size_t)-1), s, len,
           "is_valid");
    EXPECT(utf8kit_count((const char *)s, len) == v->ncp, s, len, "count %zu, ICU %zu",
           utf8kit_count((const char *)s, len), v->ncp);
    EXPECT(utf8kit_utf16_length((const char *)s, len) == v->nu16, s, len,
           "utf16_length %zu, ICU %zu", utf8kit_utf16_length((const char *)s, len), v->nu16);

#ifdef HAVE_CONVERT
    {
        size_t cap = v->nu16;
        uint16_t *o = malloc((cap + 1) * sizeof(uint16_t));
        char *rep = malloc(3 * len + 1);
        size_t j, rl = 0;
        if (!o || !rep)
            exit(2);
        r = utf8kit_utf8_to_utf16le((const char *)s, len, o, cap, UTF8KIT_REPLACE);
        for (j = 0; j < r.written && j < cap; j++) {
            const unsigned char *b = (const unsigned char *)&o[j];
            o[j] = (uint16_t)(b[0] | b[1] << 8); /* to host order */
        }
        EXPECT(r.status == UTF8KIT_OK && r.read == len && r.written == v->nu16 &&
                   r.replaced == v->nsub && memcmp(o, v->u16, cap * sizeof(uint16_t)) == 0,
               s, len, "utf8_to_utf16le REPLACE: %s read %zu written %zu replaced %zu, ICU %zu units %zu subs",
               utf8kit_status_name(r.status), r.read, r.written, r.replaced, v->nu16, v->nsub);
        r = utf8kit_utf8_to_utf16le((const char *)s, len, o, cap, UTF8KIT_STRICT);
        if (first_err == (size_t)-1)
            EXPECT(r.status == UTF8KIT_OK && r.written == v->nu16, s, len, "STRICT: %s",
                   utf8kit_status_name(r.status));
        else
            EXPECT(r.status != UTF8KIT_OK && r.read == first_err && r.error_len == first_len, s,
                   len, "utf8_to_utf16le STRICT: %s at %zu len %zu, ICU %zu len %zu",
                   utf8kit_status_name(r.status), r.read, r.error_len, first_err, first_len);
        /* repair: ICU's code points back to UTF-8 */
        for (j = 0; j < v->ncp; j++) {
            char e[4];
            size_t m = utf8kit_encode(v->cp[j], e);
            memcpy(rep + rl, e, m);
            rl += m;
        }
        {
            char *out = malloc(3 * len + 1);
            if (!out)
                exit(2);
            r = utf8kit_repair((const char *)s, len, out, 3 * len + 1);
            EXPECT(r.status == UTF8KIT_OK && r.written == rl && memcmp(out, rep, rl) == 0, s,
                   len, "repair: %s written %zu, ICU %zu bytes", utf8kit_status_name(r.status),
                   r.written, rl);
            free(out);
        }
        free(o);
        free(rep);
    }
#endif
}

static void check_input(const unsigned char *data, size_t len)
{
    struct icu_view v;
    size_t k;
    const char *name;
    /* exact-size copy so a read past the end is caught by ASan/valgrind */
    unsigned char *s = malloc(len ? len : 1);
    if (!s)
        exit(2);
    memcpy(s, data, len);
    icu_decode(s, len, &v);
    n_subs += v.nsub;
    for (k = 0; (name = utf8kit_impl_available(k)) != NULL; k++) {
        if (utf8kit_impl_select(name) != UTF8KIT_OK)
            continue;
        kernel = name;
        compare(s, len, &v);
    }
    n_inputs++;
    icu_free(&v);
    free(s);
}

/* ---- the cases.txt inputs ---------------------------------------------- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void run_cases(const char *path)
{
    FILE *f = fopen(path, "r");
    static char line[65536];
    static unsigned char bytes[16384];
    static uint32_t want[16384];
    if (!f) {
        perror(path);
        exit(2);
    }
    while (fgets(line, sizeof line, f)) {
        char *arrow = strstr(line, "->"), *p;
        size_t n = 0, nw = 0, i;
        struct icu_view v;
        if (line[0] == '#' || !arrow)
            continue;
        for (p = line; p < arrow; p++) {
            int h = hexval(p[0]), l;
            if (h < 0)
                continue;
            l = hexval(p[1]);
            if (l < 0)
                break;
            bytes[n++] = (unsigned char)(h << 4 | l);
            p++;
        }
        /* expected U+ list, when the line gives one */
        for (p = arrow + 2; *p && *p != '|' && *p != '#'; p++)
            if (p[0] == 'U' && p[1] == '+') {
                want[nw++] = (uint32_t)strtoul(p + 2, &p, 16);
                p--;
            }
        check_input(bytes, n);
        if (nw > 0) {
            icu_decode(bytes, n, &v);
            kernel = "ICU vs cases.txt";
            EXPECT(v.ncp == nw, bytes, n, "ICU gives %zu code points, the case %zu", v.ncp, nw);
            for (i = 0; i < v.ncp && i < nw; i++)
                EXPECT(v.cp[i] == want[i], bytes, n, "char %zu: ICU U+%04X, the case U+%04X", i,
                       (unsigned)v.cp[i], (unsigned)want[i]);
            icu_free(&v);
        }
    }
    fclose(f);
}

/* ---- generated inputs -------------------------------------------------- */

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)((rng >> 16) % n);
}

static const char *const bad[] = {
        "\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xC2", "\xDF", "\xE0\x80\x80", "\xE0\x9F\xBF",
        "\xE0\xA0", "\xE1\x80", "\xED\xA0\x80", "\xED\xBF\xBF", "\xED\x9F", "\xEF\xBF",
        "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF", "\xF0\x90", "\xF0\x90\x80", "\xF4\x90\x80\x80",
        "\xF4\x8F\xBF", "\xF5\x80\x80\x80", "\xF7\xBF\xBF\xBF", "\xF8\x88\x80\x80\x80",
        "\xFC\x84\x80\x80\x80\x80", "\xFE", "\xFF", "\xE2\x82\x41", "\xF1\x80\x80\xC2",
};

/* Appends one invalid piece to b; returns its length. */
static size_t bad_piece(unsigned char *b)
{
    const char *p = bad[rnd(sizeof bad / sizeof bad[0])];
    size_t n = strlen(p);
    memcpy(b, p, n);
    return n;
}

/* Appends one random piece, valid or not, to b; returns its length. */
static size_t piece(unsigned char *b)
{
    static const uint32_t edge[] = {0,      0x7F,   0x80,    0x7FF,   0x800,   0xD7FF,
                                    0xE000, 0xFFFD, 0xFFFF,  0x10000, 0x10FFFF, 0xFEFF};
    uint32_t k = rnd(10), cp;
    size_t n, i;
    char e[4];
    switch (k) {
    case 0: case 1: case 2: /* an ASCII run, 0 to 70 bytes */
        n = rnd(71);
        for (i = 0; i < n; i++)
            b[i] = (unsigned char)(0x20 + rnd(95));
        return n;
    case 3:
        cp = edge[rnd(sizeof edge / sizeof edge[0])];
        break;
    case 4:
        cp = 0x80 + rnd(0x780);
        break;
    case 5:
        cp = 0x800 + rnd(0xF800);
        if (cp >= 0xD800 && cp < 0xE000)
            cp += 0x800;
        break;
    case 6:
        cp = 0x10000 + rnd(0x100000);
        break;
    case 7: case 8:
        return bad_piece(b);
    default:
        b[0] = (unsigned char)rnd(256);
        return 1;
    }
    n = utf8kit_encode(cp, e);
    memcpy(b, e, n);
    return n;
}

#ifdef HAVE_CONVERT
/* UTF-16 -> UTF-8 under REPLACE against u_strToUTF8WithSub: each unpaired
 * surrogate becomes one U+FFFD; STRICT stops at the first one. */
static void check_utf16(const uint16_t *u, size_t n)
{
    UErrorCode err = U_ZERO_ERROR;
    int32_t want_len = 0, nsub = 0;
    size_t cap = 3 * n + 1, i, first_bad = (size_t)-1;
    char *want = malloc(cap), *got = malloc(cap);
    uint16_t *le = malloc((n ? n : 1) * sizeof(uint16_t)); /* exact size */
    utf8kit_result r;
    size_t k;
    const char *name;
    if (!want || !got || !le)
        exit(2);
    u_strToUTF8WithSub(want, (int32_t)cap, &want_len, (const UChar *)u, (int32_t)n, 0xFFFD, &nsub,
                       &err);
    if (U_FAILURE(err)) {
        fprintf(stderr, "u_strToUTF8WithSub: %s\n", u_errorName(err));
        exit(2);
    }
    for (i = 0; i < n; i++) {
        unsigned char *b = (unsigned char *)&le[i]; /* little-endian in memory */
        b[0] = (unsigned char)(u[i] & 0xFF);
        b[1] = (unsigned char)(u[i] >> 8);
    }
    for (i = 0; i < n && first_bad == (size_t)-1; i++) {
        if (u[i] < 0xD800 || u[i] >= 0xE000)
            continue;
        if (u[i] < 0xDC00 && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] < 0xE000)
            i++; /* a pair */
        else
            first_bad = i;
    }
    for (k = 0; (name = utf8kit_impl_available(k)) != NULL; k++) {
        if (utf8kit_impl_select(name) != UTF8KIT_OK)
            continue;
        kernel = name;
        r = utf8kit_utf16le_to_utf8(le, n, got, cap, UTF8KIT_REPLACE);
        EXPECT(r.status == UTF8KIT_OK && r.read == n && r.written == (size_t)want_len &&
                   r.replaced == (size_t)nsub && memcmp(got, want, (size_t)want_len) == 0,
               (const unsigned char *)u, 2 * n,
               "utf16le_to_utf8 REPLACE: %s written %zu replaced %zu, ICU %d bytes %d subs",
               utf8kit_status_name(r.status), r.written, r.replaced, (int)want_len, (int)nsub);
        r = utf8kit_utf16le_to_utf8(le, n, got, cap, UTF8KIT_STRICT);
        if (first_bad == (size_t)-1)
            EXPECT(r.status == UTF8KIT_OK && r.written == (size_t)want_len,
                   (const unsigned char *)u, 2 * n, "utf16le_to_utf8 STRICT: %s",
                   utf8kit_status_name(r.status));
        else
            EXPECT(r.status != UTF8KIT_OK && r.read == first_bad && r.error_len == 1,
                   (const unsigned char *)u, 2 * n,
                   "utf16le_to_utf8 STRICT: %s at %zu len %zu, first unpaired at %zu",
                   utf8kit_status_name(r.status), r.read, r.error_len, first_bad);
    }
    n_inputs++;
    n_subs += (unsigned long)nsub;
    free(want);
    free(got);
    free(le);
}
#endif

static void run_gen(uint64_t seed, unsigned long count)
{
    static unsigned char buf[1 << 16];
    static const size_t longlen[] = {15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 1000};
    unsigned long t;
    size_t L, p, j;
    rng = seed ? seed : 88172645463325252ull;
    for (t = 0; t < count; t++) {
        size_t len = 0, pieces = 1 + rnd(t % 10 == 0 ? 200 : 12);
        while (pieces-- && len < sizeof buf - 80)
            len += piece(buf + len);
        check_input(buf, len);
    }
#ifdef HAVE_CONVERT
    for (t = 0; t < count; t++) {
        static uint16_t u[4096];
        size_t n = rnd(t % 10 == 0 ? 4000 : 80), i;
        for (i = 0; i < n; i++) {
            uint32_t k = rnd(12);
            u[i] = (uint16_t)(k < 5 ? 0x20 + rnd(95)
                              : k < 7 ? 0x80 + rnd(0xD800 - 0x80)
                              : k < 8 ? 0xE000 + rnd(0x2000)
                              : k < 10 ? 0xD800 + rnd(0x400)
                                       : 0xDC00 + rnd(0x400));
            if (k == 8 && i + 1 < n) /* a proper pair */
                u[++i] = (uint16_t)(0xDC00 + rnd(0x400));
        }
        check_utf16(u, n);
    }
    for (j = 0; j < sizeof longlen / sizeof longlen[0]; j++) {
        static uint16_t u[2048];
        L = longlen[j];
        for (p = 0; p <= L; p++) {
            size_t i;
            for (i = 0; i < L + 1; i++)
                u[i] = (uint16_t)(i % 3 == 0 ? 'a' + i % 26 : 0x0400 + i % 200);
            u[p] = (uint16_t)(p % 2 ? 0xD83D : 0xDE00); /* a lone half */
            check_utf16(u, L + 1);
        }
    }
#endif
    /* an error piece at every offset 0..L of texts of length L around the
     * SIMD block sizes, in ASCII text and in multi-byte text */
    for (j = 0; j < sizeof longlen / sizeof longlen[0]; j++) {
        L = longlen[j];
        for (p = 0; p <= L; p += (L > 300 ? 7 : 1)) {
            size_t len = 0, q;
            unsigned char e[8];
            size_t en = 0;
            en = bad_piece(e);
            for (q = 0; q < p; q++)
                buf[len++] = (unsigned char)('a' + q % 26);
            memcpy(buf + len, e, en);
            len += en;
            for (q = 0; q < L - p; q++)
                buf[len++] = (unsigned char)('A' + q % 26);
            check_input(buf, len);
            /* the same in 3-octet text (errors land mid-character) */
            len = 0;
            for (q = 0; q + 3 <= p; q += 3) {
                memcpy(buf + len, "\xE2\x82\xAC", 3);
                len += 3;
            }
            memcpy(buf + len, e, en);
            len += en;
            for (q = 0; q < L - p; q += 4) {
                memcpy(buf + len, "\xF0\x9F\x98\x80", 4);
                len += 4;
            }
            check_input(buf, len);
        }
    }
}

int main(int argc, char **argv)
{
    UErrorCode err = U_ZERO_ERROR;
    int i;
    if (argc < 3) {
        fprintf(stderr, "usage: icu_oracle cases FILE... | gen SEED N\n");
        return 2;
    }
    cnv = ucnv_open("UTF-8", &err);
    if (U_FAILURE(err)) {
        fprintf(stderr, "ucnv_open: %s\n", u_errorName(err));
        return 2;
    }
    if (strcmp(argv[1], "cases") == 0) {
        for (i = 2; i < argc; i++)
            run_cases(argv[i]);
    } else if (strcmp(argv[1], "gen") == 0 && argc == 4) {
        run_gen(strtoull(argv[2], NULL, 10), strtoul(argv[3], NULL, 10));
    } else {
        fprintf(stderr, "bad mode\n");
        return 2;
    }
    ucnv_close(cnv);
    printf("oracle [%s]: %lu inputs (%lu substitutions), %lu checks, %lu failed\n", argv[1],
           n_inputs, n_subs, n_checks, n_failed);
    return n_failed ? 1 : 0;
}
