/*
 * test_validate_counts.c - utf8kit_validate_counts on the active kernel
 * against a straightforward counter written here from the RFC 3629 ABNF
 * (section 4), independent of the library:
 *  - the result is field for field utf8kit_validate's, its read is the
 *    independent valid prefix, and the counts are those of that prefix;
 *  - every case of $UTF8KIT_TESTDATA/<source>/cases.txt, alone and after
 *    prefixes that put it across the block edges of every kernel (its
 *    valid_up_to is checked too);
 *  - every input of 1, 2 and 3 bytes (UTF8KIT_TEST_QUICK=1: the 3-byte
 *    inputs are sampled);
 *  - random valid texts of every length 0..700 and of 20 KiB..300 KiB
 *    (past the points where the vector accumulators are summed), of
 *    every width mix and line density, clean and with one or two bytes
 *    changed; cut at character boundaries into two or more pieces, the
 *    calls add up to the whole;
 *  - texts of 1- and 2-octet characters only, one byte changed at every
 *    offset;
 *  - counts already in the struct are added to, never reset;
 *  - the argument errors.
 */
#include "testlib.h"

#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>

/* ---- the independent counter --------------------------------------------- */

/* The length of the well-formed sequence at s[0..n), n >= 1, or 0:
 *   UTF8-1 = 00-7F; UTF8-2 = C2-DF tail; UTF8-3 = E0 A0-BF tail /
 *   E1-EC 2tail / ED 80-9F tail / EE-EF 2tail; UTF8-4 = F0 90-BF 2tail /
 *   F1-F3 3tail / F4 80-8F 2tail; tail = 80-BF. */
static size_t abnf_seq(const unsigned char *s, size_t n)
{
    unsigned b0 = s[0], lo = 0x80, hi = 0xBF;
    size_t need, k;
    if (b0 <= 0x7F)
        return 1;
    if (b0 >= 0xC2 && b0 <= 0xDF)
        need = 2;
    else if (b0 == 0xE0)
        need = 3, lo = 0xA0;
    else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF)
        need = 3;
    else if (b0 == 0xED)
        need = 3, hi = 0x9F;
    else if (b0 == 0xF0)
        need = 4, lo = 0x90;
    else if (b0 >= 0xF1 && b0 <= 0xF3)
        need = 4;
    else if (b0 == 0xF4)
        need = 4, hi = 0x8F;
    else
        return 0;
    if (n < need || s[1] < lo || s[1] > hi)
        return 0;
    for (k = 2; k < need; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    return need;
}

/* Counts the valid prefix of s[0..n) into *c (from zero); returns its length. */
static size_t ref_counts(const unsigned char *s, size_t n, utf8kit_counts *c)
{
    size_t i = 0;
    memset(c, 0, sizeof *c);
    while (i < n) {
        size_t k = abnf_seq(s + i, n - i);
        if (k == 0)
            break;
        c->seq[k]++;
        c->lines += s[i] == '\n';
        i += k;
    }
    return i;
}

static bool same_counts(const utf8kit_counts *a, const utf8kit_counts *b)
{
    int k;
    if (a->lines != b->lines)
        return false;
    for (k = 0; k < 5; k++)
        if (a->seq[k] != b->seq[k])
            return false;
    return true;
}

#define COUNTS_FMT "lines %llu seq %llu/%llu/%llu/%llu/%llu"
#define COUNTS_ARGS(c)                                                                      \
    (unsigned long long)(c).lines, (unsigned long long)(c).seq[0],                          \
        (unsigned long long)(c).seq[1], (unsigned long long)(c).seq[2],                     \
        (unsigned long long)(c).seq[3], (unsigned long long)(c).seq[4]

/* Checks validate_counts on s[0..n) (an exact-size copy is made);
 * returns the valid prefix length. */
static size_t check(const unsigned char *src, size_t n, const char *what, size_t a)
{
    unsigned char *s = dup_exact(src, n);
    utf8kit_counts got, want;
    utf8kit_result r, v;
    size_t vut = ref_counts(s, n, &want);
    memset(&got, 0, sizeof got);
    r = utf8kit_validate_counts((const char *)s, n, &got);
    v = utf8kit_validate((const char *)s, n);
    CHECK(r.status == v.status && r.read == v.read && r.error_len == v.error_len &&
              r.written == 0 && r.replaced == 0,
          "%s %zu len %zu: validate_counts %s@%zu+%zu, validate %s@%zu+%zu", what, a, n,
          utf8kit_status_name(r.status), r.read, r.error_len, utf8kit_status_name(v.status),
          v.read, v.error_len);
    CHECK(r.read == vut && (r.status == UTF8KIT_OK) == (vut == n),
          "%s %zu len %zu: read %zu (%s), independent valid prefix %zu", what, a, n, r.read,
          utf8kit_status_name(r.status), vut);
    CHECK(same_counts(&got, &want), "%s %zu len %zu: got " COUNTS_FMT ", want " COUNTS_FMT, what,
          a, n, COUNTS_ARGS(got), COUNTS_ARGS(want));
    free(s);
    return vut;
}

/* ---- the third-party cases ------------------------------------------------- */

static unsigned long run_cases(const char *path)
{
    static char line[65536];
    static unsigned char bytes[40000], buf[40200];
    static const size_t pres[] = {0, 1, 13, 15, 16, 29, 31, 32, 61, 63, 64, 126, 127, 255};
    unsigned long ncases = 0, lineno = 0;
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *arrow = strstr(line, "->"), *vu;
        size_t n = 0, pi;
        long want_vut = -1; /* -1: valid */
        lineno++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\0' || arrow == NULL)
            continue;
        for (; p < arrow; p++) {
            int h, l;
            if (*p == ' ' || *p == '\t')
                continue;
            h = hexval(p[0]);
            l = hexval(p[1]);
            if (h < 0 || l < 0 || n == sizeof bytes)
                break;
            bytes[n++] = (unsigned char)(h << 4 | l);
            p++;
        }
        CHECK(p >= arrow, "%s:%lu: cannot parse the bytes", path, lineno);
        if ((vu = strstr(arrow, "valid_up_to=")) != NULL)
            want_vut = strtol(vu + 12, NULL, 10);
        else
            CHECK(strstr(arrow, "| valid") != NULL, "%s:%lu: no valid_up_to and not valid", path,
                  lineno);
        ncases++;
        for (pi = 0; pi < sizeof pres / sizeof pres[0]; pi++) {
            size_t pre = pres[pi], k, got;
            /* a prefix of ASCII with a line feed every 10 bytes */
            for (k = 0; k < pre; k++)
                buf[k] = k % 10 == 9 ? '\n' : (unsigned char)('a' + k % 26);
            memcpy(buf + pre, bytes, n);
            got = check(buf, pre + n, path, lineno);
            if (want_vut >= 0)
                CHECK(got == pre + (size_t)want_vut, "%s:%lu (+%zu): valid prefix %zu, file says %ld",
                      path, lineno, pre, got - pre, want_vut);
            else
                CHECK(got == pre + n, "%s:%lu (+%zu): valid in the file, prefix %zu", path,
                      lineno, pre, got);
        }
    }
    fclose(f);
    return ncases;
}

static void all_cases(void)
{
    const char *dir = testdata_dir();
    DIR *d;
    char *names[256];
    size_t folders, i;
    if (dir == NULL || (d = opendir(dir)) == NULL) {
        printf("  no test data (UTF8KIT_TESTDATA): cases skipped\n");
        return;
    }
    closedir(d);
    folders = testdata_sources(dir, names, 256);
    for (i = 0; i < folders; i++) {
        char path[4096];
        unsigned long n;
        snprintf(path, sizeof path, "%s/%s/cases.txt", dir, names[i]);
        n = run_cases(path);
        CHECK(n > 0, "%s: no cases", path);
        printf("  %s: %lu cases\n", names[i], n);
        free(names[i]);
    }
    CHECK(folders >= 6, "only %zu cases.txt folders under %s", folders, dir);
}

/* ---- every short input ------------------------------------------------------ */

static void short_inputs(void)
{
    unsigned char *b3 = dup_exact("\0\0\0", 3);
    uint32_t v, step = test_quick() ? 97 : 1;
    size_t bad = 0;
    for (v = 0; v < 256; v++) {
        unsigned char b = (unsigned char)v;
        check(&b, 1, "1-byte", v);
    }
    for (v = 0; v < 65536; v++) {
        unsigned char b[2] = {(unsigned char)(v >> 8), (unsigned char)v};
        check(b, 2, "2-byte", v);
    }
    /* 3 bytes: one reused exact-size buffer (16.7 million inputs), the
     * failures counted rather than each reported through CHECK */
    for (v = 0; v < (1u << 24); v += step) {
        utf8kit_counts got, want;
        utf8kit_result r, w;
        size_t vut;
        b3[0] = (unsigned char)(v >> 16);
        b3[1] = (unsigned char)(v >> 8);
        b3[2] = (unsigned char)v;
        vut = ref_counts(b3, 3, &want);
        memset(&got, 0, sizeof got);
        r = utf8kit_validate_counts((const char *)b3, 3, &got);
        w = utf8kit_validate((const char *)b3, 3);
        if (r.status != w.status || r.read != w.read || r.error_len != w.error_len ||
            r.read != vut || !same_counts(&got, &want)) {
            if (bad++ < 5)
                fprintf(stderr, "3-byte %02X %02X %02X: read %zu want %zu, " COUNTS_FMT "\n",
                        b3[0], b3[1], b3[2], r.read, vut, COUNTS_ARGS(got));
        }
    }
    CHECK(bad == 0, "%zu of the 3-byte inputs differ", bad);
    free(b3);
}

/* ---- random texts ---------------------------------------------------------- */

/* A valid text of at least want bytes (up to 3 more), with its character
 * starts marked in starts[] (when not NULL). */
static size_t make_text(unsigned char *p, size_t want, int mix, unsigned nl, unsigned char *starts)
{
    size_t n = 0;
    /* a long pure-ASCII run now and then, so the all-ASCII paths are used */
    bool ascii_run = rnd() % 3 == 0;
    while (n < want) {
        size_t k;
        if (ascii_run && rnd() % 200 == 0) {
            size_t run = 64 + rnd() % 400, j;
            for (j = 0; j < run && n < want; j++) {
                if (starts)
                    starts[n] = 1;
                p[n++] = nl && rnd() % nl == 0 ? '\n' : (unsigned char)(' ' + rnd() % 95);
            }
            continue;
        }
        k = put_mix_char(p + n, mix, nl);
        if (starts) {
            starts[n] = 1;
            memset(starts + n + 1, 0, k - 1);
        }
        n += k;
    }
    return n;
}

/* The counts of the pieces [0, c1), [c1, c2), ... of valid s[0..n) cut at
 * character starts add up to those of the whole, starting from counts
 * that are already non-zero. */
static void check_pieces(const unsigned char *s, size_t n, const unsigned char *starts,
                         const char *what)
{
    utf8kit_counts got, want;
    size_t at = 0, cuts = 0;
    unsigned k;
    ref_counts(s, n, &want);
    got.lines = 1000;
    for (k = 0; k < 5; k++)
        got.seq[k] = 100 * k;
    want.lines += 1000;
    for (k = 0; k < 5; k++)
        want.seq[k] += 100 * k;
    while (at < n) {
        size_t len = 1 + rnd() % (n - at), end = at + len;
        utf8kit_result r;
        while (end < n && !starts[end])
            end++;
        r = utf8kit_validate_counts((const char *)s + at, end - at, &got);
        CHECK(r.status == UTF8KIT_OK && r.read == end - at, "%s: piece %zu..%zu: %s@%zu", what,
              at, end, utf8kit_status_name(r.status), r.read);
        at = end;
        cuts++;
    }
    CHECK(same_counts(&got, &want), "%s: %zu pieces of %zu bytes: " COUNTS_FMT ", want " COUNTS_FMT,
          what, cuts, n, COUNTS_ARGS(got), COUNTS_ARGS(want));
}

static void random_texts(void)
{
    static const unsigned nls[] = {0, 2, 9, 80};
    size_t cap = 300u << 10, len;
    unsigned char *t = malloc(cap + 8), *starts = malloc(cap + 8);
    int mix;
    unsigned big, nli;
    if (!t || !starts)
        exit(2);
    for (mix = 0; mix < 4; mix++)
        for (nli = 0; nli < 4; nli++)
            for (len = 0; len <= 700; len += test_quick() ? 7 : 1) {
                size_t n = make_text(t, len, mix, nls[nli], starts), pos;
                unsigned char save;
                check(t, n, "random valid", len);
                if (n > 0 && len % 3 == 0)
                    check_pieces(t, n, starts, "random pieces");
                if (n == 0)
                    continue;
                /* one byte changed (may stay valid), then a cut end */
                pos = rnd() % n;
                save = t[pos];
                t[pos] = (unsigned char)rnd();
                check(t, n, "random one byte", pos);
                t[pos] = save;
                if (n > 1)
                    check(t, n - 1, "random cut end", n);
                /* two bytes changed */
                pos = rnd() % n;
                t[pos] = (unsigned char)(0x80 + rnd() % 0x80);
                t[rnd() % n] = (unsigned char)rnd();
                check(t, n, "random two bytes", pos);
            }
    /* long texts: the accumulators are summed every 15 and 255 blocks */
    for (big = 0; big < (test_quick() ? 4u : 16u); big++) {
        size_t want = (20u << 10) + rnd() % (280u << 10), n, pos;
        mix = (int)(big % 4);
        n = make_text(t, want, mix, nls[big / 4 % 4], starts);
        check(t, n, "long valid", n);
        check_pieces(t, n, starts, "long pieces");
        pos = n - 1 - rnd() % (n < 5000 ? n : 5000);
        t[pos] = 0xFF;
        check(t, n, "long error near the end", pos);
        pos = rnd() % n;
        t[pos] = 0xC0;
        check(t, n, "long error", pos);
    }
    free(t);
    free(starts);
}

/* Text of 1- and 2-octet characters only (kernels may skip the checks
 * that concern longer sequences when a stretch has no byte E0..FF), with
 * one byte changed at every offset: a tail (a second tail after a 2-byte
 * character, or a tail after ASCII), a lead, ASCII, a 3-byte lead. */
static void two_byte_texts(void)
{
    static const unsigned char subst[] = {0x80, 0xBF, 0x9A, 0xC3, 0xDF, 0xC1, 'z', 0xE2, 0xF0};
    unsigned char t[1100];
    size_t n = 0, pos, k, step = test_quick() ? 5 : 1;
    while (n < 1000) {
        uint32_t cp = rnd() % 3 == 0 ? ' ' + rnd() % 95 : 0x80 + rnd() % 0x780;
        char tmp[4];
        size_t m = utf8kit_encode(cp, tmp);
        memcpy(t + n, tmp, m);
        n += m;
    }
    check(t, n, "two-byte text", n);
    for (pos = 0; pos < n; pos += step)
        for (k = 0; k < sizeof subst; k++) {
            unsigned char save = t[pos];
            t[pos] = subst[k];
            check(t, n, "two-byte text, one byte changed at", pos);
            t[pos] = save;
        }
}

/* ---- the contract's edges ------------------------------------------------- */

static void edges(void)
{
    utf8kit_counts c, z;
    utf8kit_result r;
    unsigned char *s = dup_exact("a\n\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\n", 12);
    memset(&z, 0, sizeof z);
    memset(&c, 0, sizeof c);

    r = utf8kit_validate_counts((const char *)s, 12, NULL);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT && r.read == 0, "NULL counts: %s",
          utf8kit_status_name(r.status));
    r = utf8kit_validate_counts(NULL, 5, &c);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT && r.read == 0 && same_counts(&c, &z),
          "NULL s: %s", utf8kit_status_name(r.status));
    r = utf8kit_validate_counts(NULL, 0, &c);
    CHECK(r.status == UTF8KIT_OK && r.read == 0 && same_counts(&c, &z), "NULL s, len 0: %s",
          utf8kit_status_name(r.status));
    r = utf8kit_validate_counts((const char *)s, 0, &c);
    CHECK(r.status == UTF8KIT_OK && r.read == 0 && same_counts(&c, &z), "len 0: %s",
          utf8kit_status_name(r.status));

    /* a worked example: a, LF, e-acute (2), euro (3), U+1F600 (4), LF */
    r = utf8kit_validate_counts((const char *)s, 12, &c);
    CHECK(r.status == UTF8KIT_OK && r.read == 12 && c.lines == 2 && c.seq[0] == 0 &&
              c.seq[1] == 3 && c.seq[2] == 1 && c.seq[3] == 1 && c.seq[4] == 1,
          "example: %s " COUNTS_FMT, utf8kit_status_name(r.status), COUNTS_ARGS(c));
    /* a second call adds */
    r = utf8kit_validate_counts((const char *)s, 12, &c);
    CHECK(r.status == UTF8KIT_OK && c.lines == 4 && c.seq[1] == 6 && c.seq[2] == 2 &&
              c.seq[3] == 2 && c.seq[4] == 2,
          "example twice: " COUNTS_FMT, COUNTS_ARGS(c));
    /* an error: only the prefix counts */
    r = utf8kit_validate_counts((const char *)s, 9, &c); /* cut inside U+1F600 */
    CHECK(r.status == UTF8KIT_ERR_TRUNCATED && r.read == 7 && r.error_len == 2 && c.lines == 5 &&
              c.seq[1] == 8 && c.seq[2] == 3 && c.seq[3] == 3 && c.seq[4] == 2,
          "cut example: %s@%zu " COUNTS_FMT, utf8kit_status_name(r.status), r.read,
          COUNTS_ARGS(c));
    free(s);
}

int main(void)
{
    test_begin();
    test_seed(0x2545F4914F6CDD1Du);
    edges();
    all_cases();
    short_inputs();
    random_texts();
    two_byte_texts();
    return test_done("test_validate_counts");
}
