/*
 * test_conformance.c - every case of the third-party data in
 * $UTF8KIT_TESTDATA/<source>/cases.txt (format: testdata/README.md), plus
 * the RFC 3629 section 7 examples and section 10 attacks.
 *
 * For each case: validity (utf8kit_is_valid, utf8kit_validate), the offset
 * of the first error (valid_up_to), the length of its maximal subpart
 * (error_len, or `eof`: TRUNCATED up to the end), the code points a
 * replacing decoder gives (utf8kit_decode stepped by n) and the counts.
 * Each case is also run embedded in ASCII at many offsets and with ASCII
 * after it, so that block-wise (SIMD) kernels meet it across block edges.
 */
#define _POSIX_C_SOURCE 200809L
#include "testlib.h"

#include <dirent.h>
#include <sys/stat.h>

#define MAX_IN 4096
#define MAX_CP 4096

struct tcase {
    unsigned char in[MAX_IN];
    size_t len;
    bool has_list;          /* expected field is a U+ list */
    uint32_t cps[MAX_CP];
    size_t ncps;
    bool valid;
    size_t vut, elen;       /* when !valid */
    bool eof;               /* error_len=eof */
    const char *where;      /* "file:line" */
};

static unsigned long cases_run;

static char *skip_ws(char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Parses one line; returns false (and reports) on a malformed line. */
static bool parse_line(char *line, struct tcase *c)
{
    char *arrow = strstr(line, "->"), *bar, *hash, *p;
    c->len = 0;
    c->ncps = 0;
    c->has_list = false;
    c->eof = false;
    c->vut = c->elen = 0;
    if (!arrow)
        return false;
    hash = strchr(arrow, '#');
    if (hash)
        *hash = '\0';
    bar = strchr(arrow, '|');
    if (!bar)
        return false;
    *arrow = '\0';
    *bar = '\0';
    /* input bytes */
    for (p = line; *(p = skip_ws(p));) {
        int hi = hexval(p[0]), lo = hexval(p[1]);
        if (hi < 0 || lo < 0 || c->len == MAX_IN)
            return false;
        c->in[c->len++] = (unsigned char)(hi * 16 + lo);
        p += 2;
    }
    /* expected output */
    p = skip_ws(arrow + 2);
    if (strncmp(p, "U+", 2) == 0) {
        c->has_list = true;
        while (strncmp(p, "U+", 2) == 0) {
            char *e;
            unsigned long v = strtoul(p + 2, &e, 16);
            if (e == p + 2 || c->ncps == MAX_CP)
                return false;
            c->cps[c->ncps++] = (uint32_t)v;
            p = skip_ws(e);
        }
        if (*p)
            return false;
    } else if (strncmp(p, "valid", 5) != 0 && strncmp(p, "invalid", 7) != 0 &&
               strncmp(p, "error", 5) != 0) {
        return false;
    }
    /* fields */
    p = skip_ws(bar + 1);
    if (strncmp(p, "valid_up_to=", 12) == 0) {
        char *e;
        c->valid = false;
        c->vut = strtoul(p + 12, &e, 10);
        p = skip_ws(e);
        if (strncmp(p, "error_len=", 10) != 0)
            return false;
        p += 10;
        if (strncmp(p, "eof", 3) == 0) {
            c->eof = true;
            c->elen = c->len - c->vut;
        } else {
            c->elen = strtoul(p, &e, 10);
            if (e == p)
                return false;
        }
        if (c->vut > c->len || c->elen == 0 || c->vut + c->elen > c->len)
            return false;
    } else if (strncmp(p, "valid", 5) == 0) {
        c->valid = true;
    } else {
        return false;
    }
    /* The expected word, when there is no list, must agree with the fields. */
    {
        const char *w = skip_ws(arrow + 2);
        if (!c->has_list && (strncmp(w, "valid", 5) == 0) != c->valid)
            return false;
    }
    return true;
}

/* Checks case c embedded as pad[0..pre) c->in pad[0..suf). */
static void run_case(const struct tcase *c, size_t pre, size_t suf)
{
    size_t total = pre + c->len + suf, i, at, k, want_n;
    unsigned char *tmp = malloc(total ? total : 1), *buf;
    utf8kit_result r;
    bool ok_list = true;
    uint32_t cp;
    size_t n, u16 = 0;

    for (i = 0; i < pre; i++)
        tmp[i] = (unsigned char)('a' + i % 26);
    memcpy(tmp + pre, c->in, c->len);
    for (i = 0; i < suf; i++)
        tmp[pre + c->len + i] = (unsigned char)('A' + i % 26);
    buf = dup_exact(tmp, total);
    free(tmp);
    cases_run++;

    r = utf8kit_validate((const char *)buf, total);
    CHECK(utf8kit_is_valid((const char *)buf, total) == c->valid, "%s (+%zu,+%zu): is_valid",
          c->where, pre, suf);
    if (c->valid) {
        CHECK(r.status == UTF8KIT_OK && r.read == total && r.error_len == 0,
              "%s (+%zu,+%zu): validate gave %s read %zu error_len %zu", c->where, pre, suf,
              utf8kit_status_name(r.status), r.read, r.error_len);
    } else {
        utf8kit_status want_kind_ok;
        CHECK(r.read == pre + c->vut, "%s (+%zu,+%zu): read %zu, want %zu", c->where, pre, suf,
              r.read, pre + c->vut);
        CHECK(r.error_len == c->elen, "%s (+%zu,+%zu): error_len %zu, want %zu", c->where, pre,
              suf, r.error_len, c->elen);
        if (c->eof) {
            /* cut by the end; with ASCII after it, cut by that byte */
            want_kind_ok = suf ? UTF8KIT_ERR_MISSING_CONTINUATION : UTF8KIT_ERR_TRUNCATED;
            CHECK(r.status == want_kind_ok, "%s (+%zu,+%zu): kind %s, want %s", c->where, pre,
                  suf, utf8kit_status_name(r.status), utf8kit_status_name(want_kind_ok));
        } else {
            CHECK(r.status != UTF8KIT_OK && r.status != UTF8KIT_ERR_TRUNCATED &&
                      r.status <= UTF8KIT_ERR_TOO_LARGE,
                  "%s (+%zu,+%zu): kind %s", c->where, pre, suf, utf8kit_status_name(r.status));
        }
        /* the single-character decoder agrees at the error */
        if (r.read < total) {
            utf8kit_status st = utf8kit_decode((const char *)buf + r.read, total - r.read, &cp, &n);
            CHECK(st == r.status && n == r.error_len && cp == UTF8KIT_REPLACEMENT_CHARACTER,
                  "%s (+%zu,+%zu): decode at error gave %s n=%zu", c->where, pre, suf,
                  utf8kit_status_name(st), n);
        }
    }

    /* replacement decoding, character by character */
    k = 0;
    want_n = pre + c->ncps + suf;
    for (at = 0; at < total;) {
        utf8kit_status st = utf8kit_decode((const char *)buf + at, total - at, &cp, &n);
        if (n == 0 || n > 4 || n > total - at) {
            CHECK(0, "%s (+%zu,+%zu): decode at %zu gave n=%zu", c->where, pre, suf, at, n);
            ok_list = false;
            break;
        }
        if ((st == UTF8KIT_OK) != (cp != UTF8KIT_REPLACEMENT_CHARACTER ||
                                   (n == 3 && buf[at] == 0xEF && buf[at + 1] == 0xBF &&
                                    buf[at + 2] == 0xBD)))
            ok_list = false;
        if (c->has_list) {
            uint32_t want;
            if (k < pre)
                want = 'a' + (uint32_t)(k % 26);
            else if (k < pre + c->ncps)
                want = c->cps[k - pre];
            else
                want = 'A' + (uint32_t)((k - pre - c->ncps) % 26);
            if (k >= want_n || cp != want)
                ok_list = false;
        }
        u16 += cp >= 0x10000 ? 2 : 1;
        k++;
        at += n;
    }
    CHECK(ok_list && (!c->has_list || k == want_n),
          "%s (+%zu,+%zu): replacement decoding differs (%zu code points, want %zu)", c->where,
          pre, suf, k, want_n);
    CHECK(utf8kit_count((const char *)buf, total) == k, "%s (+%zu,+%zu): count %zu, want %zu",
          c->where, pre, suf, utf8kit_count((const char *)buf, total), k);
    CHECK(utf8kit_utf16_length((const char *)buf, total) == u16,
          "%s (+%zu,+%zu): utf16_length %zu, want %zu", c->where, pre, suf,
          utf8kit_utf16_length((const char *)buf, total), u16);
    free(buf);
}

static void run_file(const char *path, const char *name)
{
    static struct tcase c;
    static char where[512];
    char line[65536];
    unsigned long lineno = 0, ncases = 0;
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        size_t pre, L = strlen(line);
        static const size_t sufs[] = {0, 1, 3, 31};
        size_t si;
        lineno++;
        CHECK(L + 1 < sizeof line, "%s:%lu: line too long", path, lineno);
        while (L && (line[L - 1] == '\n' || line[L - 1] == '\r'))
            line[--L] = '\0';
        if (*skip_ws(line) == '#' || *skip_ws(line) == '\0')
            continue;
        snprintf(where, sizeof where, "%s/cases.txt:%lu", name, lineno);
        c.where = where;
        if (!parse_line(line, &c)) {
            CHECK(0, "%s: cannot parse", where);
            continue;
        }
        /* a list and the fields must agree with each other */
        if (c.has_list && c.valid)
            CHECK(c.ncps > 0 || c.len == 0, "%s: valid with empty list", where);
        ncases++;
        for (pre = 0; pre <= 70; pre++)
            for (si = 0; si < sizeof sufs / sizeof sufs[0]; si++)
                if (pre == 0 || si == 0 || pre % 7 == 0)
                    run_case(&c, pre, sufs[si]);
    }
    fclose(f);
    printf("  %s: %lu cases\n", name, ncases);
    CHECK(ncases > 0, "%s: no cases", path);
}

/* RFC 3629 section 7: code points and their bytes, both ways. */
static void rfc_examples(void)
{
    static const struct {
        uint32_t cps[4];
        size_t ncps;
        const char *bytes;
        size_t len;
    } ex[] = {
        {{0x0041, 0x2262, 0x0391, 0x002E}, 4, "\x41\xE2\x89\xA2\xCE\x91\x2E", 7},
        {{0xD55C, 0xAD6D, 0xC5B4}, 3, "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", 9},
        {{0x65E5, 0x672C, 0x8A9E}, 3, "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 9},
        {{0xFEFF, 0x233B4}, 2, "\xEF\xBB\xBF\xF0\xA3\x8E\xB4", 7},
    };
    /* RFC 3629 section 10 (and section 3): attacks that must be refused. */
    static const struct {
        const char *bytes;
        size_t len;
        utf8kit_status kind;
        size_t at;
    } bad[] = {
        {"\xC0\x80", 2, UTF8KIT_ERR_OVERLONG, 0},
        {"\x2F\xC0\xAE\x2E\x2F", 5, UTF8KIT_ERR_OVERLONG, 1},
        {"\xED\xA1\x8C\xED\xBE\xB4", 6, UTF8KIT_ERR_SURROGATE, 0},
    };
    size_t i, j;
    for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        char out[64];
        size_t len = 0, at = 0;
        unsigned char *p;
        for (j = 0; j < ex[i].ncps; j++)
            len += utf8kit_encode(ex[i].cps[j], out + len);
        CHECK(len == ex[i].len && memcmp(out, ex[i].bytes, len) == 0,
              "RFC 3629 section 7 example %zu: encoded bytes differ", i);
        p = dup_exact(ex[i].bytes, ex[i].len);
        CHECK(utf8kit_is_valid((const char *)p, ex[i].len), "example %zu invalid", i);
        for (j = 0; j < ex[i].ncps; j++) {
            uint32_t cp;
            size_t n;
            utf8kit_status st = utf8kit_decode((const char *)p + at, ex[i].len - at, &cp, &n);
            CHECK(st == UTF8KIT_OK && cp == ex[i].cps[j], "example %zu char %zu: %s U+%04X", i,
                  j, utf8kit_status_name(st), (unsigned)cp);
            at += n;
        }
        CHECK(at == ex[i].len, "example %zu: decoded %zu of %zu bytes", i, at, ex[i].len);
        CHECK(utf8kit_count((const char *)p, ex[i].len) == ex[i].ncps, "example %zu count", i);
        free(p);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned char *p = dup_exact(bad[i].bytes, bad[i].len);
        utf8kit_result r = utf8kit_validate((const char *)p, bad[i].len);
        CHECK(r.status == bad[i].kind && r.read == bad[i].at && r.error_len == 1,
              "RFC 3629 section 10 attack %zu: got %s at %zu len %zu", i,
              utf8kit_status_name(r.status), r.read, r.error_len);
        CHECK(!utf8kit_is_valid((const char *)p, bad[i].len), "attack %zu accepted", i);
        free(p);
    }
}

int main(void)
{
    const char *dir;
    DIR *d;
    char *names[256];
    size_t nn, i;

    test_begin();
    dir = testdata_dir();
    if (dir == NULL || (d = opendir(dir)) == NULL) {
        printf("skipped: ../shared/testdata not found\n");
        return 77;
    }
    closedir(d);
    rfc_examples();
    nn = testdata_sources(dir, names, 256);
    CHECK(nn >= 6, "only %zu cases.txt folders under %s", nn, dir);
    for (i = 0; i < nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/cases.txt", dir, names[i]);
        run_file(path, names[i]);
        free(names[i]);
    }
    printf("  %lu embedded runs\n", cases_run);
    return test_done("conformance");
}
