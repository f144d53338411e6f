/* test_convert.c - bulk conversions: every code point through every
 * encoding and back, RFC 2279 values up to 0x7FFFFFFF, every capacity with
 * resumption, measuring, the conformance files through utf8kit_convert and
 * utf8kit_repair, and Kuhn's legacy values.
 *
 * Expected bytes come from the small encoders below (written from the RFC
 * bit layouts, independent of the library), from the third-party files,
 * and from CPython (the windows-1252 table; tests/test_cpython_diff.py
 * compares with CPython's codecs at large). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS under -std=c11 */
#include "testlib.h"
#include "codec.h" /* u8k_unit_size; internal.h: u8k_convert_generic */
#include "scalar/decode_fast.h"

#include <stdint.h>

static int quick;

/* ---- independent reference encoders ----------------------------------- */

static size_t ref_utf16(uint32_t c, unsigned char *o, int be)
{
    if (c >= 0x10000) {
        uint32_t v = c - 0x10000;
        ref_utf16(0xD800 | v >> 10, o, be);
        ref_utf16(0xDC00 | (v & 0x3FF), o + 2, be);
        return 4;
    }
    o[be ? 0 : 1] = (unsigned char)(c >> 8);
    o[be ? 1 : 0] = (unsigned char)c;
    return 2;
}

static size_t ref_utf32(uint32_t c, unsigned char *o, int be)
{
    int i;
    for (i = 0; i < 4; i++)
        o[be ? 3 - i : i] = (unsigned char)(c >> (8 * i));
    return 4;
}

/* CESU-8: supplementary characters as two 3-octet surrogates; MUTF-8
 * also writes U+0000 as C0 80. */
static size_t ref_cesu(uint32_t c, unsigned char *o, int mutf)
{
    if (mutf && c == 0) {
        o[0] = 0xC0;
        o[1] = 0x80;
        return 2;
    }
    if (c >= 0x10000) {
        uint32_t v = c - 0x10000;
        ref_utf8(0xD800 | v >> 10, o);
        ref_utf8(0xDC00 | (v & 0x3FF), o + 3);
        return 6;
    }
    return ref_utf8(c, o);
}

static size_t ref_encode(utf8kit_encoding e, uint32_t c, unsigned char *o)
{
    switch (e) {
    case UTF8KIT_UTF8:
    case UTF8KIT_UTF8_RFC2279:
        return ref_utf8(c, o);
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UCS2LE:
        return ref_utf16(c, o, 0);
    case UTF8KIT_UTF16BE:
    case UTF8KIT_UCS2BE:
        return ref_utf16(c, o, 1);
    case UTF8KIT_UTF32LE:
        return ref_utf32(c, o, 0);
    case UTF8KIT_UTF32BE:
        return ref_utf32(c, o, 1);
    case UTF8KIT_CESU8:
        return ref_cesu(c, o, 0);
    case UTF8KIT_MUTF8:
        return ref_cesu(c, o, 1);
    default: /* Latin-1, ASCII */
        o[0] = (unsigned char)c;
        return 1;
    }
}

/* windows-1252 bytes 80..9F, from python3: bytes([b]).decode('cp1252'),
 * and the WHATWG index for the five Python leaves undefined (81 8D 8F 90
 * 9D: the C1 control of the same value). */
static const uint32_t cp1252_expect[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* ---- helpers ---------------------------------------------------------------- */

struct bytes {
    unsigned char *p;
    size_t n, cap;
};

static void put(struct bytes *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            exit(2);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static utf8kit_options opts(utf8kit_policy pol)
{
    utf8kit_options o;
    memset(&o, 0, sizeof o);
    o.policy = pol;
    return o;
}

static int same_res(utf8kit_result a, utf8kit_result b)
{
    return test_same_result(a, b) && a.replaced == b.replaced;
}

/* Converts src (copied to an exact-size heap block) after measuring; the
 * output goes to an exact-size block, returned in *out (caller frees).
 * Checks that measuring gives what converting gives and the bound. */
static utf8kit_result conv(utf8kit_encoding from, utf8kit_encoding to, const void *src,
                           size_t n, const utf8kit_options *o, unsigned char **out)
{
    unsigned char *in = dup_exact(src, n);
    utf8kit_result m = utf8kit_convert(from, to, in, n, NULL, 0, o), r;
    unsigned char *d = malloc(m.written ? m.written : 1);
    r = utf8kit_convert(from, to, in, n, d, m.written, o);
    CHECK(same_res(m, r), "%d->%d measure %s/%zu/%zu vs %s/%zu/%zu", from, to,
          utf8kit_status_name(m.status), m.read, m.written, utf8kit_status_name(r.status), r.read,
          r.written);
    CHECK(r.written <= utf8kit_max_output_size(from, to, n), "%d->%d bound", from, to);
    free(in);
    if (out)
        *out = d;
    else
        free(d);
    return r;
}

static const utf8kit_encoding ALL[] = {
    UTF8KIT_UTF8,   UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32LE, UTF8KIT_UTF32BE,
    UTF8KIT_UCS2LE, UTF8KIT_UCS2BE,  UTF8KIT_LATIN1,  UTF8KIT_ASCII,   UTF8KIT_CP1252,
    UTF8KIT_CESU8,  UTF8KIT_MUTF8,   UTF8KIT_UTF8_RFC2279,
};
#define NALL (sizeof ALL / sizeof ALL[0])

static uint32_t max_cp(utf8kit_encoding e)
{
    switch (e) {
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE:
        return 0xFFFF;
    case UTF8KIT_LATIN1:
        return 0xFF;
    case UTF8KIT_ASCII:
        return 0x7F;
    default:
        return 0x10FFFF;
    }
}

/* ---- A: every code point, every encoding ------------------------------------ */

/* Under UTF8KIT_TEST_QUICK (sanitizer builds) the supplementary planes are
 * sampled: every 7th code point, the BMP stays whole. */
static int skip_quick(uint32_t c) { return quick && c >= 0x10000 && c % 7 != 0 && c != 0x10FFFF; }

static void test_all_code_points(void)
{
    size_t e;
    for (e = 0; e < NALL; e++) {
        utf8kit_encoding enc = ALL[e];
        struct bytes u32 = {0}, ref = {0};
        unsigned char tmp[8], *out, *back;
        utf8kit_options o = opts(UTF8KIT_STRICT);
        utf8kit_result r;
        uint32_t c;
        if (enc == UTF8KIT_CP1252)
            continue; /* below: its repertoire is not a range */
        for (c = 0; c <= max_cp(enc); c++) {
            if ((c >= 0xD800 && c <= 0xDFFF) || skip_quick(c))
                continue;
            put(&u32, tmp, ref_utf32(c, tmp, 0));
            put(&ref, tmp, ref_encode(enc, c, tmp));
        }
        r = conv(UTF8KIT_UTF32LE, enc, u32.p, u32.n, &o, &out);
        CHECK(r.status == UTF8KIT_OK && r.read == u32.n && r.written == ref.n &&
                  memcmp(out, ref.p, ref.n) == 0,
              "enc %d: %s read %zu written %zu want %zu", enc, utf8kit_status_name(r.status),
              r.read, r.written, ref.n);
        r = conv(enc, UTF8KIT_UTF32LE, ref.p, ref.n, &o, &back);
        CHECK(r.status == UTF8KIT_OK && r.read == ref.n && r.written == u32.n &&
                  memcmp(back, u32.p, u32.n) == 0,
              "enc %d back: %s read %zu", enc, utf8kit_status_name(r.status), r.read);
        free(back);
        /* and to UTF-8 directly (the generic loop with UTF-8 output) */
        if (enc != UTF8KIT_UTF8) {
            unsigned char *u8, *u8b;
            utf8kit_result r1 = conv(enc, UTF8KIT_UTF8, ref.p, ref.n, &o, &u8);
            utf8kit_result r2 = conv(UTF8KIT_UTF32LE, UTF8KIT_UTF8, u32.p, u32.n, &o, &u8b);
            CHECK(r1.status == UTF8KIT_OK && r1.written == r2.written &&
                      memcmp(u8, u8b, r1.written) == 0,
                  "enc %d -> utf8", enc);
            free(u8);
            free(u8b);
        }
        free(out);
        free(u32.p);
        free(ref.p);
    }
}

static void test_cp1252(void)
{
    unsigned char all[256], *out, *back;
    utf8kit_options o = opts(UTF8KIT_STRICT);
    utf8kit_result r;
    uint32_t c;
    int i, ok = 1;
    for (i = 0; i < 256; i++)
        all[i] = (unsigned char)i;
    r = conv(UTF8KIT_CP1252, UTF8KIT_UTF32LE, all, 256, &o, &out);
    CHECK(r.status == UTF8KIT_OK && r.written == 1024, "cp1252 decode");
    for (i = 0; i < 256; i++) {
        uint32_t want = (i >= 0x80 && i < 0xA0) ? cp1252_expect[i - 0x80] : (uint32_t)i;
        uint32_t got = out[4 * i] | out[4 * i + 1] << 8 | (uint32_t)out[4 * i + 2] << 16;
        if (got != want)
            ok = 0;
    }
    CHECK(ok, "cp1252 table");
    r = conv(UTF8KIT_UTF32LE, UTF8KIT_CP1252, out, 1024, &o, &back);
    CHECK(r.status == UTF8KIT_OK && r.written == 256 && memcmp(back, all, 256) == 0,
          "cp1252 encode");
    free(out);
    free(back);
    /* The C1 controls that windows-1252 puts elsewhere are not in it. */
    for (c = 0x80; c < 0xA0; c++) {
        unsigned char u[4];
        int defined = 0;
        for (i = 0; i < 32; i++)
            defined |= cp1252_expect[i] == c;
        ref_utf32(c, u, 0);
        r = conv(UTF8KIT_UTF32LE, UTF8KIT_CP1252, u, 4, &o, NULL);
        CHECK(r.status == (defined ? UTF8KIT_OK : UTF8KIT_ERR_UNREPRESENTABLE),
              "cp1252 U+%04X", (unsigned)c);
    }
}

/* The typed functions on every scalar value. */
static void test_typed_all(void)
{
    struct bytes u8 = {0}, le = {0}, be = {0};
    uint32_t *u32, c, n32 = 0;
    uint16_t *w16;
    char *c8;
    unsigned char tmp[8];
    utf8kit_result r;
    size_t n16;
    int bo;
    u32 = malloc(0x110000 * sizeof *u32);
    for (c = 0; c <= 0x10FFFF; c++) {
        if ((c >= 0xD800 && c <= 0xDFFF) || skip_quick(c))
            continue;
        u32[n32++] = c;
        put(&u8, tmp, ref_utf8(c, tmp));
        put(&le, tmp, ref_utf16(c, tmp, 0));
        put(&be, tmp, ref_utf16(c, tmp, 1));
    }
    n16 = le.n / 2;
    for (bo = 0; bo < 2; bo++) {
        struct bytes *ref = bo ? &be : &le;
        w16 = malloc(le.n);
        r = (bo ? utf8kit_utf8_to_utf16be : utf8kit_utf8_to_utf16le)((const char *)u8.p, u8.n,
                                                                     NULL, 0, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.written == n16, "measure utf16 %d", bo);
        r = (bo ? utf8kit_utf8_to_utf16be : utf8kit_utf8_to_utf16le)((const char *)u8.p, u8.n,
                                                                     w16, n16, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.read == u8.n && r.written == n16 &&
                  memcmp(w16, ref->p, ref->n) == 0,
              "utf8->utf16 %d", bo);
        c8 = malloc(u8.n);
        r = (bo ? utf8kit_utf16be_to_utf8 : utf8kit_utf16le_to_utf8)(w16, n16, NULL, 0,
                                                                     UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.written == u8.n, "measure utf16->8 %d", bo);
        r = (bo ? utf8kit_utf16be_to_utf8 : utf8kit_utf16le_to_utf8)(w16, n16, c8, u8.n,
                                                                     UTF8KIT_ASSUME_VALID);
        CHECK(r.status == UTF8KIT_OK && r.read == n16 && r.written == u8.n &&
                  memcmp(c8, u8.p, u8.n) == 0,
              "utf16->utf8 %d", bo);
        free(w16);
        free(c8);
    }
    {
        uint32_t *d = malloc(n32 * sizeof *d);
        char *e = malloc(u8.n);
        r = utf8kit_utf8_to_utf32((const char *)u8.p, u8.n, d, n32, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.written == n32 && memcmp(d, u32, n32 * 4) == 0,
              "utf8->utf32");
        r = utf8kit_utf8_to_utf32((const char *)u8.p, u8.n, d, n32, UTF8KIT_ASSUME_VALID);
        CHECK(r.status == UTF8KIT_OK && r.written == n32 && memcmp(d, u32, n32 * 4) == 0,
              "utf8->utf32 trusted");
        r = utf8kit_utf32_to_utf8(u32, n32, e, u8.n, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.written == u8.n && memcmp(e, u8.p, u8.n) == 0,
              "utf32->utf8");
        r = utf8kit_utf32_to_utf8(u32, n32, NULL, 0, UTF8KIT_REPLACE);
        CHECK(r.status == UTF8KIT_OK && r.written == u8.n, "utf32->utf8 measure");
        /* Latin-1: the first 256 values, 128 + 2 * 128 bytes of UTF-8 */
        r = utf8kit_utf8_to_latin1((const char *)u8.p, 384, e, 256, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_OK && r.written == 256, "utf8->latin1");
        for (c = 0; c < 256; c++)
            CHECK((unsigned char)e[c] == c, "latin1 %u", (unsigned)c);
        r = utf8kit_latin1_to_utf8(e, 256, (char *)d, 384);
        CHECK(r.status == UTF8KIT_OK && r.written == 384 && memcmp(d, u8.p, 384) == 0,
              "latin1->utf8");
        r = utf8kit_utf8_to_latin1((const char *)u8.p, u8.n, NULL, 0, UTF8KIT_REPLACE);
        CHECK(r.status == UTF8KIT_OK && r.written == n32 && r.replaced == n32 - 256,
              "utf8->latin1 replace measure %zu", r.replaced);
        r = utf8kit_utf8_to_latin1((const char *)u8.p, u8.n, NULL, 0, UTF8KIT_STRICT);
        CHECK(r.status == UTF8KIT_ERR_UNREPRESENTABLE && r.read == 384 && r.error_len == 2 &&
                  r.written == 256,
              "utf8->latin1 unrepresentable");
        free(d);
        free(e);
    }
    free(u32);
    free(u8.p);
    free(le.p);
    free(be.p);
}

/* ---- B: RFC 2279 values up to 0x7FFFFFFF --------------------------------------- */

static void test_rfc2279(void)
{
    static const uint32_t edges[] = {0x10FFFF, 0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF,
                                     0x4000000, 0x7FFFFFFE, 0x7FFFFFFF};
    struct bytes u32 = {0}, ref = {0};
    unsigned char tmp[8], *out, *back;
    utf8kit_options o = opts(UTF8KIT_STRICT);
    utf8kit_result r;
    uint64_t v;
    size_t i;
    uint32_t step = quick ? 65521 : 4093; /* primes, to hit every bit pattern */
    for (i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        put(&u32, tmp, ref_utf32(edges[i], tmp, 0));
        put(&ref, tmp, ref_utf8(edges[i], tmp));
    }
    for (v = 0x110000; v <= 0x7FFFFFFF; v += step) {
        put(&u32, tmp, ref_utf32((uint32_t)v, tmp, 0));
        put(&ref, tmp, ref_utf8((uint32_t)v, tmp));
    }
    /* UTF-32 read as UCS-4 into the RFC 2279 form: every value up to
     * 7FFFFFFF converts, byte for byte as the reference encoder; into any
     * other target UTF-32 input stops at U+10FFFF (TOO_LARGE), and a unit
     * with the top bit set is too large even for UCS-4. */
    {
        unsigned char *enc = NULL;
        static const unsigned char top[4] = {0x00, 0x00, 0x00, 0x80};
        r = conv(UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279, u32.p, u32.n, &o, &enc);
        CHECK(r.status == UTF8KIT_OK && r.written == ref.n && memcmp(enc, ref.p, ref.n) == 0,
              "ucs-4 -> rfc2279 %s at %zu", utf8kit_status_name(r.status), r.read);
        free(enc);
        CHECK(utf8kit_max_output_size(UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279, u32.n) >= ref.n + 3,
              "max_output_size ucs-4 -> rfc2279");
        r = conv(UTF8KIT_UTF32LE, UTF8KIT_UTF8, u32.p, u32.n, &o, NULL);
        CHECK(r.status == UTF8KIT_ERR_TOO_LARGE && r.read == 4 && r.error_len == 4,
              "utf32 input above U+10FFFF into UTF-8");
        r = conv(UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279, top, 4, &o, NULL);
        CHECK(r.status == UTF8KIT_ERR_TOO_LARGE && r.read == 0 && r.error_len == 4,
              "utf32 unit 80000000 into rfc2279");
    }
    r = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF8_RFC2279, ref.p, ref.n, &o, &out);
    CHECK(r.status == UTF8KIT_OK && r.written == ref.n && memcmp(out, ref.p, ref.n) == 0,
          "rfc2279 encode %s", utf8kit_status_name(r.status));
    r = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32LE, ref.p, ref.n, &o, &back);
    CHECK(r.status == UTF8KIT_OK && r.written == u32.n && memcmp(back, u32.p, u32.n) == 0,
          "rfc2279 decode %s at %zu", utf8kit_status_name(r.status), r.read);
    r = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32BE, ref.p, ref.n, &o, NULL);
    CHECK(r.status == UTF8KIT_OK && r.written == u32.n, "rfc2279 -> UCS-4 BE");
    free(out);
    free(back);
    /* Values above U+10FFFF fit nowhere else; under REPLACE they become the
     * substitute, which the caller may choose. */
    for (i = 1; i < NALL; i++) {
        utf8kit_encoding to = ALL[i];
        utf8kit_options ro = opts(UTF8KIT_REPLACE);
        unsigned char *d;
        r = conv(UTF8KIT_UTF8_RFC2279, to, ref.p + 4, 4, &o, NULL); /* U+110000 */
        if (to == UTF8KIT_UTF32LE || to == UTF8KIT_UTF32BE || to == UTF8KIT_UTF8_RFC2279) {
            CHECK(r.status == UTF8KIT_OK, "rfc2279 U+110000 -> %d", to);
            continue;
        }
        CHECK(r.status == UTF8KIT_ERR_UNREPRESENTABLE && r.read == 0 && r.error_len == 4,
              "rfc2279 U+110000 -> %d: %s", to, utf8kit_status_name(r.status));
        ro.substitute = '*';
        r = conv(UTF8KIT_UTF8_RFC2279, to, ref.p + 4, 4, &ro, &d);
        CHECK(r.status == UTF8KIT_OK && r.replaced == 1 && r.written >= 1 &&
                  memchr(d, '*', r.written) != NULL,
              "rfc2279 substitute -> %d", to);
        free(d);
    }
    r = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF8, ref.p + 4, 4, &o, NULL);
    CHECK(r.status == UTF8KIT_ERR_UNREPRESENTABLE, "to utf8");
    free(u32.p);
    free(ref.p);
}

/* ---- C, D: the conformance files ------------------------------------------------- */

struct tcase {
    unsigned char in[4096];
    size_t n;
    uint32_t cps[4096];
    size_t ncp;
    int has_list, valid;
    long up_to, elen; /* elen -1: eof */
    long legacy;      /* -1: none */
};

static int parse_case(const char *line, struct tcase *t)
{
    const char *p = line, *q;
    memset(t, 0, offsetof(struct tcase, cps));
    t->ncp = 0;
    t->has_list = 0;
    t->valid = 0;
    t->up_to = t->elen = t->legacy = -1;
    if (*p == '#' || *p == '\n' || *p == '\0')
        return 0;
    q = strstr(p, "->");
    if (!q)
        return 0;
    while (p < q) {
        if (hexval(p[0]) >= 0 && hexval(p[1]) >= 0) {
            if (t->n < sizeof t->in)
                t->in[t->n++] = (unsigned char)(hexval(p[0]) << 4 | hexval(p[1]));
            p += 2;
        } else
            p++;
    }
    p = q + 2;
    while (*p == ' ')
        p++;
    if (strncmp(p, "U+", 2) == 0 || *p == '|') {
        t->has_list = 1;
        while (strncmp(p, "U+", 2) == 0) {
            char *e;
            t->cps[t->ncp++] = (uint32_t)strtoul(p + 2, &e, 16);
            p = e;
            while (*p == ' ')
                p++;
        }
    }
    q = strchr(p, '|');
    if (!q)
        return 0;
    if (strncmp(q, "| valid", 7) == 0 && strncmp(q, "| valid_up_to", 13) != 0)
        t->valid = 1;
    if ((q = strstr(line, "valid_up_to=")) != NULL)
        t->up_to = strtol(q + 12, NULL, 10);
    if ((q = strstr(line, "error_len=")) != NULL)
        t->elen = strncmp(q + 10, "eof", 3) == 0 ? -1 : strtol(q + 10, NULL, 10);
    if ((q = strstr(line, "legacy=U+")) != NULL)
        t->legacy = strtol(q + 9, NULL, 16);
    return 1;
}

static void test_cases_file(const char *dir, const char *name, size_t *nlegacy, size_t *ncases)
{
    char path[1024], line[20000];
    FILE *f;
    static struct tcase t;
    snprintf(path, sizeof path, "%s/%s/cases.txt", dir, name);
    f = fopen(path, "r");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        utf8kit_options rep = opts(UTF8KIT_REPLACE), st = opts(UTF8KIT_STRICT);
        unsigned char *out;
        utf8kit_result r;
        size_t i;
        if (!parse_case(line, &t))
            continue;
        (*ncases)++;
        /* STRICT: the first error, or the whole input */
        r = conv(UTF8KIT_UTF8, UTF8KIT_UTF32LE, t.in, t.n, &st, NULL);
        if (t.valid)
            CHECK(r.status == UTF8KIT_OK && r.read == t.n, "%s strict: %s", name, line);
        else if (t.up_to >= 0) {
            CHECK(r.status != UTF8KIT_OK && (long)r.read == t.up_to &&
                      (t.elen < 0 ? r.status == UTF8KIT_ERR_TRUNCATED &&
                                        r.error_len == t.n - r.read
                                  : (long)r.error_len == t.elen &&
                                        r.status != UTF8KIT_ERR_TRUNCATED),
                  "%s strict: %s got %s at %zu len %zu", name, line,
                  utf8kit_status_name(r.status), r.read, r.error_len);
        }
        if (!t.has_list)
            continue;
        /* REPLACE: exactly the listed code points */
        r = conv(UTF8KIT_UTF8, UTF8KIT_UTF32LE, t.in, t.n, &rep, &out);
        {
            int ok = r.status == UTF8KIT_OK && r.written == 4 * t.ncp;
            for (i = 0; ok && i < t.ncp; i++)
                ok = (out[4 * i] | out[4 * i + 1] << 8 | (uint32_t)out[4 * i + 2] << 16) ==
                     t.cps[i];
            CHECK(ok, "%s replace: %s", name, line);
        }
        free(out);
        /* utf8kit_repair: their UTF-8 */
        {
            struct bytes want = {0};
            unsigned char tmp[8], *in = dup_exact(t.in, t.n);
            char *d;
            size_t fffd = 0;
            for (i = 0; i < t.ncp; i++) {
                put(&want, tmp, ref_utf8(t.cps[i], tmp));
                fffd += t.cps[i] == 0xFFFD;
            }
            r = utf8kit_repair((const char *)in, t.n, NULL, 0);
            CHECK(r.status == UTF8KIT_OK && r.written == want.n, "%s repair measure: %s", name,
                  line);
            d = malloc(want.n + 1);
            r = utf8kit_repair((const char *)in, t.n, d, want.n);
            CHECK(r.status == UTF8KIT_OK && r.written == want.n &&
                      (want.n == 0 || memcmp(d, want.p, want.n) == 0) &&
                      r.replaced <= fffd && (t.valid ? r.replaced == 0 : r.replaced > 0),
                  "%s repair: %s", name, line);
            /* the typed UTF-16 path under REPLACE */
            {
                uint16_t *w = malloc((2 * t.ncp + 1) * 2);
                struct bytes w16 = {0};
                for (i = 0; i < t.ncp; i++)
                    put(&w16, tmp, ref_utf16(t.cps[i], tmp, 0));
                r = utf8kit_utf8_to_utf16le((const char *)in, t.n, w, w16.n / 2,
                                            UTF8KIT_REPLACE);
                CHECK(r.status == UTF8KIT_OK && r.written * 2 == w16.n &&
                          (w16.n == 0 || memcmp(w, w16.p, w16.n) == 0),
                      "%s utf16 replace: %s", name, line);
                free(w);
                free(w16.p);
            }
            free(d);
            free(in);
            free(want.p);
        }
        /* Kuhn: the RFC 2279 mode reads the legacy value */
        if (t.legacy >= 0) {
            r = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32LE, t.in, t.n, &st, &out);
            CHECK(r.status == UTF8KIT_OK && r.written == 4 &&
                      (out[0] | out[1] << 8 | (uint32_t)out[2] << 16 | (uint32_t)out[3] << 24) ==
                          (uint32_t)t.legacy,
                  "legacy: %s", line);
            free(out);
            (*nlegacy)++;
        }
    }
    fclose(f);
}

static void test_conformance(void)
{
    static const char *names[] = {"kuhn", "unicode", "wpt", "python", "flenniken", "simdutf"};
    const char *dir = testdata_dir();
    size_t i, nlegacy = 0, ncases = 0;
    if (!dir) {
        printf("note: UTF8KIT_TESTDATA not set, conformance files skipped\n");
        return;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        test_cases_file(dir, names[i], &nlegacy, &ncases);
    CHECK(nlegacy >= 6, "legacy cases seen: %zu", nlegacy);
    CHECK(ncases >= 500, "cases seen: %zu", ncases);
}

/* ---- E: every capacity, resumption, measuring ------------------------------------- */

/* Mixed inputs, in UTF-8 (converted to the source encoding first). */
static const char *const mixed[] = {
    "",
    "a",
    "plain ASCII text long enough to cross eight-byte words, 0123456789",
    "h\xC3\xA9llo w\xC3\xB6rld \xE2\x82\xAC 100 \xF0\x9F\x98\x80!",
    "\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xE6\x97\xA5\xE6\x9C\xAC\xC3\xA9x",
    "ab\xC3\xBF\xC4\x80\xEF\xBB\xBF\xEF\xBF\xBD\xF4\x8F\xBF\xBF",
    "\xEF\xBB\xBF\x42OM then text \xE2\x80\x94 end",
};
/* Invalid UTF-8 inputs. */
static const char *const broken[] = {
    "a\x80 b\xC3 c\xE2\x82 d\xF0\x9F\x98 e\xED\xA0\x80 f\xC0\xAF g\xF5\xFF h\xE2\x82",
    "\xF0\x9F\x98\x80\xF4\x90\x80\x80\xC3\xA9\xE0\x80\x80zz\xEF\xBF",
};

/* utf8kit_convert into a new block of cap bytes and 8 more (*out; the
 * caller frees it), all A5 first; *canary: whether the 8 are untouched. */
static utf8kit_result convert_guarded(utf8kit_encoding from, utf8kit_encoding to, const void *s,
                                      size_t n, size_t cap, const utf8kit_options *o,
                                      unsigned char **out, int *canary)
{
    unsigned char *d = malloc(cap + 8);
    utf8kit_result r;
    size_t k;
    memset(d, 0xA5, cap + 8);
    r = utf8kit_convert(from, to, s, n, d, cap, o);
    *canary = 1;
    for (k = cap; k < cap + 8; k++)
        *canary &= d[k] == 0xA5;
    *out = d;
    return r;
}

static void cap_sweep(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *src,
                      size_t n, utf8kit_policy pol)
{
    utf8kit_options o = opts(pol);
    unsigned char *full, *in = dup_exact(src, n);
    utf8kit_result whole = conv(from, to, src, n, &o, &full);
    size_t cap;
    for (cap = 0; cap <= whole.written; cap++) {
        unsigned char *d;
        utf8kit_result r2;
        int canary;
        utf8kit_result r = convert_guarded(from, to, in, n, cap, &o, &d, &canary);
        CHECK(canary, "%d->%d pol %d cap %zu: wrote past cap", from, to, pol, cap);
        CHECK(r.written <= cap && memcmp(d, full, r.written) == 0, "%d->%d cap %zu prefix", from,
              to, cap);
        if (r.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL) {
            CHECK(same_res(r, whole), "%d->%d pol %d cap %zu: %s vs %s", from, to, pol, cap,
                  utf8kit_status_name(r.status), utf8kit_status_name(whole.status));
        } else {
            /* resume at src + read into the rest of a full-size buffer */
            unsigned char *rest = malloc(whole.written - r.written + 1);
            utf8kit_options ko = o;
            ko.bom = UTF8KIT_BOM_KEEP;
            CHECK(r.written < whole.written || whole.status != UTF8KIT_OK, "%d->%d cap %zu",
                  from, to, cap);
            r2 = utf8kit_convert(from, to, in + r.read, n - r.read, rest,
                                 whole.written - r.written, &ko);
            CHECK(r2.status == whole.status && r.read + r2.read == whole.read &&
                      r.written + r2.written == whole.written &&
                      r.replaced + r2.replaced == whole.replaced &&
                      r2.error_len == whole.error_len &&
                      memcmp(rest, full + r.written, r2.written) == 0,
                  "%d->%d pol %d cap %zu: resume %s read %zu+%zu/%zu", from, to, pol, cap,
                  utf8kit_status_name(r2.status), r.read, r2.read, whole.read);
            free(rest);
        }
        free(d);
    }
    free(full);
    free(in);
}

/* utf8kit_convert on an odd address takes the generic loop for 16/32-bit
 * pairs; it must agree with the typed driver on an aligned one. */
static void typed_vs_generic(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *src,
                             size_t n, utf8kit_policy pol)
{
    utf8kit_options o = opts(pol);
    unsigned char *a = malloc(n + 8), *b = malloc(n + 8);
    unsigned char *da, *db;
    utf8kit_result m = utf8kit_convert(from, to, src, n, NULL, 0, &o), ra, rb;
    da = malloc(m.written + 8);
    db = malloc(m.written + 8);
    memcpy(a, src, n);
    memcpy(b + 1, src, n);
    ra = utf8kit_convert(from, to, a, n, da, m.written, &o);
    rb = utf8kit_convert(from, to, b + 1, n, db + 1, m.written, &o);
    CHECK(same_res(ra, rb) && memcmp(da, db + 1, ra.written) == 0,
          "%d->%d pol %d typed %s %zu/%zu/%zu vs generic %s %zu/%zu/%zu", from, to, pol,
          utf8kit_status_name(ra.status), ra.read, ra.written, ra.error_len,
          utf8kit_status_name(rb.status), rb.read, rb.written, rb.error_len);
    free(a);
    free(b);
    free(da);
    free(db);
}

static void test_capacities(void)
{
    static const utf8kit_encoding targets[] = {
        UTF8KIT_UTF8,  UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32LE,     UTF8KIT_UTF32BE,
        UTF8KIT_UCS2LE, UTF8KIT_LATIN1, UTF8KIT_CP1252,  UTF8KIT_ASCII,       UTF8KIT_CESU8,
        UTF8KIT_MUTF8,  UTF8KIT_UTF8_RFC2279,
    };
    static const utf8kit_policy pols[] = {UTF8KIT_STRICT, UTF8KIT_REPLACE, UTF8KIT_SKIP};
    size_t i, t, p;
    for (i = 0; i < sizeof mixed / sizeof mixed[0]; i++) {
        const unsigned char *s = (const unsigned char *)mixed[i];
        size_t n = strlen(mixed[i]);
        for (t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            utf8kit_encoding to = targets[t];
            unsigned char *mid;
            utf8kit_options ro = opts(UTF8KIT_REPLACE);
            utf8kit_result r;
            for (p = 0; p < 3; p++)
                cap_sweep(UTF8KIT_UTF8, to, s, n, pols[p]);
            /* and back from that encoding (its REPLACE form) */
            r = conv(UTF8KIT_UTF8, to, s, n, &ro, &mid);
            for (p = 0; p < 3; p++) {
                cap_sweep(to, UTF8KIT_UTF8, mid, r.written, pols[p]);
                typed_vs_generic(to, UTF8KIT_UTF8, mid, r.written, pols[p]);
                typed_vs_generic(UTF8KIT_UTF8, to, s, n, pols[p]);
            }
            free(mid);
        }
    }
    for (i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        const unsigned char *s = (const unsigned char *)broken[i];
        size_t n = strlen(broken[i]);
        for (t = 0; t < sizeof targets / sizeof targets[0]; t++)
            for (p = 0; p < 3; p++) {
                cap_sweep(UTF8KIT_UTF8, targets[t], s, n, pols[p]);
                typed_vs_generic(UTF8KIT_UTF8, targets[t], s, n, pols[p]);
            }
        /* the same bytes read as UTF-16 and UTF-32 units */
        for (t = 1; t <= 4; t++)
            for (p = 0; p < 3; p++) {
                cap_sweep(ALL[t], UTF8KIT_UTF8, s, n, pols[p]);
                typed_vs_generic(ALL[t], UTF8KIT_UTF8, s, n, pols[p]);
                typed_vs_generic(ALL[t], UTF8KIT_UTF8, s, n - 1, pols[p]);
            }
    }
}

/* Random, mostly-valid text with damage: typed driver (aligned) against
 * the generic loop (misaligned), every policy, every pair the kernels
 * serve, lengths around the 64-byte blocks SIMD kernels use. */
static void test_random_typed_vs_generic(void)
{
    static const utf8kit_encoding wide[] = {UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32LE};
    static const uint32_t pick[] = {0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFD, 0xFFFF, 0x10000,
                                    0x10FFFF, 0xE9, 0x20AC, 0x1F600, 0xD7FF, 0xE000};
    uint64_t seed = 4242;
    size_t i, k, t;
    int p;
    for (i = 0; i < (quick ? 150u : 1500u); i++) {
        unsigned char buf[400];
        size_t n = 0, want = (i * 7) % 300;
        while (n + 4 < want) {
            seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            if ((seed >> 33) % 3 == 0)
                buf[n++] = (unsigned char)('a' + (seed >> 40) % 26);
            else
                n += ref_utf8(pick[(seed >> 40) % (sizeof pick / sizeof pick[0])], buf + n);
        }
        for (k = 0; k < i % 4; k++) {
            seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            if (n)
                buf[(seed >> 33) % n] ^= (unsigned char)(1u << ((seed >> 50) % 8));
        }
        for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
            for (t = 0; t < 3; t++) {
                typed_vs_generic(UTF8KIT_UTF8, wide[t], buf, n, (utf8kit_policy)p);
                typed_vs_generic(wide[t], UTF8KIT_UTF8, buf, n, (utf8kit_policy)p);
            }
    }
}

/* One pair and policy with room for cap bytes: the input and output at
 * malloc's addresses (aligned: utf8kit_convert goes through UTF-8 by the
 * kernels, via_utf8 in convert.c) and one byte past them (the generic
 * loop, for every pair here has a 16- or 32-bit side) must give the same
 * result and bytes, and neither writes past cap; so must measuring. */
static void via_same(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *src,
                     size_t n, utf8kit_policy pol, size_t cap)
{
    utf8kit_options o = opts(pol);
    unsigned char *a = malloc(n + 1), *b = malloc(n + 2), *da = malloc(cap + 8),
                  *db = malloc(cap + 9);
    utf8kit_result ra, rb, m;
    size_t k;
    int canary = 1;
    memcpy(a, src, n);
    memcpy(b + 1, src, n);
    memset(da, 0xA5, cap + 8);
    memset(db, 0xA5, cap + 9);
    m = utf8kit_convert(from, to, a, n, NULL, 0, &o);
    rb = utf8kit_convert(from, to, b + 1, n, NULL, 0, &o);
    CHECK(same_res(m, rb), "via %d->%d pol %d n %zu: measure %s %zu/%zu vs generic %s %zu/%zu",
          from, to, pol, n, utf8kit_status_name(m.status), m.read, m.written,
          utf8kit_status_name(rb.status), rb.read, rb.written);
    ra = utf8kit_convert(from, to, a, n, da, cap, &o);
    rb = utf8kit_convert(from, to, b + 1, n, db + 1, cap, &o);
    for (k = cap; k < cap + 8; k++)
        canary &= da[k] == 0xA5 && db[k + 1] == 0xA5;
    CHECK(canary && same_res(ra, rb) && memcmp(da, db + 1, ra.written) == 0,
          "via %d->%d pol %d n %zu cap %zu: %s %zu/%zu/%zu/%zu vs generic %s %zu/%zu/%zu/%zu",
          from, to, pol, n, cap, utf8kit_status_name(ra.status), ra.read, ra.written, ra.error_len,
          ra.replaced, utf8kit_status_name(rb.status), rb.read, rb.written, rb.error_len,
          rb.replaced);
    if (cap >= m.written)
        CHECK(same_res(m, ra), "via %d->%d pol %d n %zu: measured %zu, converted %zu", from, to,
              pol, n, m.written, ra.written);
    free(a);
    free(b);
    free(da);
    free(db);
}

/* utf8kit_convert against u8k_convert_generic (the generic loop alone),
 * from (n bytes at s) to with options o: the same result, the same
 * bytes, nothing written past the room; for rooms of the whole output,
 * half of it and one byte less, and measuring. Under ASSUME_VALID only
 * when the input is valid (else any output goes). */
static void fast_same(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s, size_t n,
                      utf8kit_options o)
{
    utf8kit_result gm = u8k_convert_generic(from, to, s, n, NULL, 0, &o), fm;
    size_t caps[3], c;
    if (o.policy == UTF8KIT_ASSUME_VALID) {
        utf8kit_options st = o;
        st.policy = UTF8KIT_STRICT;
        if (u8k_convert_generic(from, to, s, n, NULL, 0, &st).status != UTF8KIT_OK)
            return;
    }
    fm = utf8kit_convert(from, to, s, n, NULL, 0, &o);
    CHECK(same_res(fm, gm), "%d->%d pol %d bom %d n %zu measuring: %s %zu/%zu/%zu/%zu vs generic %s %zu/%zu/%zu/%zu",
          from, to, o.policy, o.bom, n, utf8kit_status_name(fm.status), fm.read, fm.written,
          fm.error_len, fm.replaced, utf8kit_status_name(gm.status), gm.read, gm.written,
          gm.error_len, gm.replaced);
    if (gm.status == UTF8KIT_ERR_INVALID_ARGUMENT)
        return;
    caps[0] = gm.written;
    caps[1] = gm.written / 2;
    caps[2] = gm.written ? gm.written - 1 : 0;
    for (c = 0; c < 3; c++) {
        unsigned char *df, *dg = malloc(caps[c] + 1);
        int canary;
        utf8kit_result rf = convert_guarded(from, to, s, n, caps[c], &o, &df, &canary);
        utf8kit_result rg = u8k_convert_generic(from, to, s, n, dg, caps[c], &o);
        CHECK(canary && same_res(rf, rg) && memcmp(df, dg, rf.written) == 0,
              "%d->%d pol %d bom %d n %zu cap %zu: %s %zu/%zu/%zu/%zu vs generic %s %zu/%zu/%zu/%zu",
              from, to, o.policy, o.bom, n, caps[c], utf8kit_status_name(rf.status), rf.read,
              rf.written, rf.error_len, rf.replaced, utf8kit_status_name(rg.status), rg.read,
              rg.written, rg.error_len, rg.replaced);
        free(df);
        free(dg);
    }
}

/* Every pair, an input that starts with a BOM (then an error in the
 * middle, under STRICT), BOM stripped or added: the faster paths against
 * the generic loop (fast_same). The offsets they report count from the
 * input's start and the output's, BOM included. */
static void test_bom_paths(void)
{
    static const char text[] = "\xEF\xBB\xBF" "ab\xC3\xA9" "c\xE4\xB8\xAD" "d\xF0\x9F\x98\x80" "e"
                               "\xEF\xBB\xBF" "f\xC2\x85" "g\xC2\x90" "h";
    size_t f, t, p, b, dmg;
    for (f = 0; f < sizeof ALL / sizeof ALL[0]; f++)
        for (dmg = 0; dmg < 2; dmg++) {
            utf8kit_options ro = opts(UTF8KIT_REPLACE);
            unsigned char *in;
            size_t n = conv(UTF8KIT_UTF8, ALL[f], text, sizeof text - 1, &ro, &in).written;
            size_t unit = u8k_unit_size(ALL[f]);
            if (dmg) {
                /* an invalid unit (or none) halfway */
                size_t at = n / unit / 2 * unit;
                if (unit == 2)
                    in[at + (ALL[f] == UTF8KIT_UTF16LE || ALL[f] == UTF8KIT_UCS2LE)] = 0xDC;
                else if (unit == 4)
                    memcpy(in + at, "\x00\x11\x00\x11", 4);
                else if (ALL[f] != UTF8KIT_LATIN1 && ALL[f] != UTF8KIT_CP1252)
                    in[at] = 0xFF;
            }
            for (t = 0; t < sizeof ALL / sizeof ALL[0]; t++) {
                if (t == f)
                    continue;
                for (p = 0; p < 2; p++)
                    for (b = 0; b < 2; b++) {
                        utf8kit_options o = opts(p ? UTF8KIT_REPLACE : UTF8KIT_STRICT);
                        o.bom = b ? UTF8KIT_BOM_ADD : UTF8KIT_BOM_STRIP;
                        fast_same(ALL[f], ALL[t], in, n, o);
                    }
            }
            free(in);
        }
}

/* Pairs of UTF-16LE/BE, UTF-32 (either order), Latin-1, windows-1252,
 * US-ASCII and UCS-2LE/BE go
 * through UTF-8 1024 units a step when aligned (via_utf8; UCS-2 with
 * UCS-2 or UTF-16 by a copy), the generic loop otherwise:
 * texts of up to 3000 units of every width, pairs of surrogates across a
 * step's end, errors (a lone surrogate, a value above 10FFFF, a byte
 * 80..FF in ASCII, characters Latin-1 cannot hold) before, at and after a
 * step's end, every policy,
 * rooms from 0 to the whole output around the steps' ends. */
static void test_via_utf8(void)
{
    static const utf8kit_encoding enc[] = {
        UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32, UTF8KIT_LATIN1,
        UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE,
        UTF8KIT_UCS2LE, UTF8KIT_UCS2BE, UTF8KIT_CP1252, UTF8KIT_ASCII};
    const size_t nenc = sizeof enc / sizeof enc[0];
    static const uint32_t pick[] = {0x41,   0x7F,    0xE9,    0xFF,     0x100, 0x7FF,
                                    0x800,  0x20AC,  0xFFFD,  0x10000,  0x1F600, 0x10FFFF,
                                    0x81,   0x9F,    0x2019};
    static const size_t lens[] = {0, 1, 5, 1022, 1023, 1024, 1025, 2047, 2049, 3000};
    uint64_t seed = 2026;
    size_t li, f, t, v;
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (v = 0; v < (quick ? 3u : 8u); v++) {
            /* the text as code points: v 0 of every width, v 1 of Latin-1
             * only, v 2 ASCII then U+1F600 at code point 1023 (UTF-16
             * units 1023 and 1024), v 3-5 with an error put in below, v 6
             * and 7 with one every 37 and every 3 units (the steps that
             * stop short, and the generic loop between them) */
            uint32_t cps[3000];
            unsigned char u8[4 * 3000];
            size_t m = lens[li], k, n8 = 0;
            for (k = 0; k < m; k++) {
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                cps[k] = pick[(seed >> 40) % (v == 1 ? 4 : sizeof pick / sizeof pick[0])];
                if (v == 2)
                    cps[k] = k == 1023 ? 0x1F600 : 'a';
            }
            for (k = 0; k < m; k++)
                n8 += ref_utf8(cps[k], u8 + n8);
            for (f = 0; f < nenc; f++) {
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                unsigned char *in;
                /* UCS-2 input: the text as UTF-16 (a pair: two errors) */
                utf8kit_result e = conv(UTF8KIT_UTF8,
                                        enc[f] == UTF8KIT_UCS2LE   ? UTF8KIT_UTF16LE
                                        : enc[f] == UTF8KIT_UCS2BE ? UTF8KIT_UTF16BE
                                                                    : enc[f],
                                        u8, n8, &ro, &in);
                size_t n = e.written, unit = u8k_unit_size(enc[f]);
                if (v >= 3 && n >= unit) {
                    /* an error at unit 500, 1023 or 1500 (or the last) */
                    size_t at = v == 3 ? 500 : v == 4 ? 1023 : v == 5 ? 1500 : v == 6 ? 36 : 2;
                    if (at >= n / unit)
                        at = n / unit - 1;
                    for (; at < n / unit; at += v == 6 ? 37 : v == 7 ? 3 : n) {
                        if (unit == 2) {
                            int be = enc[f] == UTF8KIT_UTF16BE || enc[f] == UTF8KIT_UCS2BE;
                            in[2 * at + be] = 0x00;
                            in[2 * at + !be] = v == 4 || at % 2 ? 0xDC : 0xD8; /* lone low / high half */
                        } else if (enc[f] == UTF8KIT_ASCII) {
                            in[at] = (unsigned char)(0x80 + at % 128); /* invalid */
                        } else if (unit == 4) {
                            uint32_t bad = v == 4 || at % 2 ? 0xDFFF : 0x110000;
                            memcpy(in + 4 * at, &bad, 4);
                            if (f == 4) /* the other byte order: reversed */
                                for (k = 0; k < 2; k++) {
                                    unsigned char c = in[4 * at + k];
                                    in[4 * at + k] = in[4 * at + 3 - k];
                                    in[4 * at + 3 - k] = c;
                                }
                        }
                    }
                }
                for (t = 0; t < nenc; t++) {
                    int p;
                    /* (pairs of Latin-1, windows-1252 and ASCII: no
                     * address takes the generic loop;
                     * test_cp1252_stretches has them) */
                    if (t == f || (u8k_unit_size(enc[f]) == 1 && u8k_unit_size(enc[t]) == 1))
                        continue;
                    for (p = UTF8KIT_STRICT; p <= UTF8KIT_ASSUME_VALID; p++) {
                        utf8kit_options o = opts((utf8kit_policy)p);
                        size_t whole, osz = u8k_unit_size(enc[t]);
                        size_t caps[8], c;
                        if (p == UTF8KIT_ASSUME_VALID && v >= 3)
                            continue; /* promised valid: any output goes */
                        whole = utf8kit_convert(enc[f], enc[t], in, n, NULL, 0, &o).written;
                        caps[0] = whole;
                        caps[1] = 0;
                        caps[2] = whole / 2;
                        caps[3] = whole ? whole - 1 : 0;
                        caps[4] = 1023 * osz;
                        caps[5] = 1024 * osz + 1;
                        caps[6] = 1025 * osz;
                        caps[7] = 2048 * osz - 1;
                        for (c = 0; c < (quick ? 4u : 8u); c++)
                            if (caps[c] <= whole + 8)
                                via_same(enc[f], enc[t], in, n, (utf8kit_policy)p, caps[c]);
                    }
                }
                free(in);
            }
        }
}

/* UTF-8 to and from UCS-2 and UTF-32 in the other byte order than the
 * host's, UCS-2 to and from UTF-16, and UTF-32 between its byte orders
 * go by the kernels or copies over
 * stretches when aligned (stretches() in convert.c), the generic loop
 * otherwise: random texts of 0 to 3000
 * characters of every width (supplementary ones are errors in UCS-2 on
 * either side), valid, with bits flipped, and with a partial unit at the
 * end; sequences cut right before a byte F0..FF; every policy; rooms of
 * the whole output, none, half, one byte less and around 1024 units. */
static void test_stretches(void)
{
    /* (U+1D800 and U+10DFFF: the vector scan of UTF-32 stops at them, the
     * scalar one lets them through) */
    static const uint32_t pick[] = {0x41,    0x7F,    0xE9,    0x7FF,   0x800,  0x20AC,
                                    0xFFFD,  0xFFFF,  0x10000, 0x1F600, 0x1D800, 0x10DFFF,
                                    0x10FFFF};
    static const size_t lens[] = {0, 1, 7, 8, 9, 17, 100, 1023, 1024, 1025, 3000};
    static const char *const cut[] = {"\xE4\xB8\xF0\x9F\x98\x80z", "a\xF0", "\xF0\x9F\x98",
                                      "\xE4\xB8\xAD\xF5\x80\xE4", "\xED\xA0\x80\xF0\x90\x80\x80x",
                                      "\xF4\x90\x80\x80\xC3", "abcdefg\xC3\xF0\x9F\x98\x80\xE4\xB8"};
    const utf8kit_encoding other = UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE;
    const utf8kit_encoding side[] = {UTF8KIT_UCS2LE, UTF8KIT_UCS2BE, other};
    static const utf8kit_encoding pairs16[][2] = {
        {UTF8KIT_UCS2LE, UTF8KIT_UTF16LE}, {UTF8KIT_UCS2LE, UTF8KIT_UTF16BE},
        {UTF8KIT_UCS2BE, UTF8KIT_UTF16LE}, {UTF8KIT_UTF16LE, UTF8KIT_UCS2LE},
        {UTF8KIT_UTF16BE, UTF8KIT_UCS2LE}, {UTF8KIT_UTF16LE, UTF8KIT_UCS2BE},
        {UTF8KIT_UCS2LE, UTF8KIT_UCS2BE},  {UTF8KIT_UCS2BE, UTF8KIT_UCS2LE},
        {UTF8KIT_UTF32LE, UTF8KIT_UTF32BE}, {UTF8KIT_UTF32BE, UTF8KIT_UTF32LE}};
    uint64_t seed = 22;
    size_t li, v, e, k;
    for (li = 0; li < sizeof lens / sizeof lens[0] + sizeof cut / sizeof cut[0]; li++)
        for (v = 0; v < (quick ? 2u : 4u); v++) {
            unsigned char *u8 = malloc(4 * 3000 + 8);
            size_t n8 = 0;
            if (li < sizeof lens / sizeof lens[0]) {
                for (k = 0; k < lens[li]; k++) {
                    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                    /* v 0 and 2: of every width; v 1 and 3: no 4-octet character */
                    n8 += ref_utf8(pick[(seed >> 40) % (v % 2 ? 8 : sizeof pick / sizeof pick[0])],
                                   u8 + n8);
                }
            } else {
                n8 = strlen(cut[li - sizeof lens / sizeof lens[0]]);
                memcpy(u8, cut[li - sizeof lens / sizeof lens[0]], n8);
            }
            for (e = 0; e < 3; e++) {
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                unsigned char *in, *bytes;
                size_t n, f;
                for (f = 0; f < 2; f++) {
                    /* f 0: UTF-8 to the side encoding, 1: back */
                    utf8kit_encoding from = f ? side[e] : UTF8KIT_UTF8;
                    utf8kit_encoding to = f ? UTF8KIT_UTF8 : side[e];
                    int p;
                    if (f) {
                        /* the text in the side encoding as UTF-16 or
                         * UTF-32 writes it (so pairs of surrogates, errors
                         * in UCS-2) */
                        utf8kit_encoding as = e == 0   ? UTF8KIT_UTF16LE
                                              : e == 1 ? UTF8KIT_UTF16BE
                                                       : other;
                        n = conv(UTF8KIT_UTF8, as, u8, n8, &ro, &in).written;
                    } else {
                        in = malloc(n8 + 1);
                        memcpy(in, u8, n8);
                        n = n8;
                    }
                    if (v >= 2 && n > 0) {
                        /* a few bits flipped, and (v 3) a partial unit at the end */
                        for (k = 0; k < 1 + n / 200; k++) {
                            seed = seed * UINT64_C(6364136223846793005) +
                                   UINT64_C(1442695040888963407);
                            in[(seed >> 33) % n] ^= (unsigned char)(1u << ((seed >> 50) % 8));
                        }
                        if (v == 3 && f)
                            n -= 1;
                    }
                    bytes = in;
                    for (p = UTF8KIT_STRICT; p <= UTF8KIT_ASSUME_VALID; p++) {
                        utf8kit_options o = opts((utf8kit_policy)p);
                        size_t whole, caps[6], c;
                        if (p == UTF8KIT_ASSUME_VALID && (v >= 2 || li >= sizeof lens / sizeof lens[0]))
                            continue; /* promised valid: any output goes */
                        whole = utf8kit_convert(from, to, bytes, n, NULL, 0, &o).written;
                        caps[0] = whole;
                        caps[1] = 0;
                        caps[2] = whole / 2;
                        caps[3] = whole ? whole - 1 : 0;
                        caps[4] = 1024 * (f ? 3 : 4) + 1;
                        caps[5] = 2048 * 2 + 2;
                        for (c = 0; c < (quick ? 4u : 6u); c++)
                            if (caps[c] <= whole + 8)
                                via_same(from, to, bytes, n, (utf8kit_policy)p, caps[c]);
                    }
                    free(in);
                }
            }
            /* UCS-2 to and from UTF-16 and between its byte orders: the
             * text as UTF-16 (pairs of surrogates: errors in UCS-2 on
             * either side); UTF-32 between its byte orders */
            for (e = 0; e < sizeof pairs16 / sizeof pairs16[0]; e++) {
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                utf8kit_encoding from = pairs16[e][0], to = pairs16[e][1];
                utf8kit_encoding as = from == UTF8KIT_UTF32LE || from == UTF8KIT_UTF32BE ? from
                                      : from == UTF8KIT_UCS2BE || from == UTF8KIT_UTF16BE
                                          ? UTF8KIT_UTF16BE
                                          : UTF8KIT_UTF16LE;
                unsigned char *in;
                size_t n = conv(UTF8KIT_UTF8, as, u8, n8, &ro, &in).written;
                int p;
                if (v >= 2 && n > 0) {
                    for (k = 0; k < 1 + n / 200; k++) {
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        in[(seed >> 33) % n] ^= (unsigned char)(1u << ((seed >> 50) % 8));
                    }
                    if (as == from && n >= 4) {
                        /* 110000, invalid, whose bytes reversed are a
                         * character (U+1100) */
                        static const unsigned char le[4] = {0, 0, 0x11, 0}, be[4] = {0, 0x11, 0, 0};
                        memcpy(in + (n / 4 > 5 ? 20 : n / 4 * 4 - 4),
                               from == UTF8KIT_UTF32BE ? be : le, 4);
                    }
                    if (v == 3)
                        n -= 1;
                }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++) {
                    utf8kit_options o = opts((utf8kit_policy)p);
                    size_t whole = utf8kit_convert(from, to, in, n, NULL, 0, &o).written, caps[5], c;
                    caps[0] = whole;
                    caps[1] = 0;
                    caps[2] = whole / 2;
                    caps[3] = whole ? whole - 1 : 0;
                    caps[4] = 1025 * 2;
                    for (c = 0; c < (quick ? 4u : 5u); c++)
                        if (caps[c] <= whole + 8)
                            via_same(from, to, in, n, (utf8kit_policy)p, caps[c]);
                }
                free(in);
            }
            free(u8);
        }
}

/* The steps convert.c takes long UTF-8 inputs in, to UCS-2 (64 KiB: its
 * SCAN_STEP) and to UTF-32 in the other byte order (4 KiB: SWAP_STEP):
 * a character, a sequence cut short, a run of tails or a byte F0 put
 * across each step's end, at every offset near it. Converted at aligned
 * addresses (in steps) and at odd ones (the generic loop), under every
 * policy, the two must agree. */
static void test_steps(void)
{
    static const char *const across[] = {"\xE4\xB8\xAD", "\xC3\xA9", "\xF0\x9F\x98\x80",
                                         "\xE4\xB8", "\xE4", "\x80\x80\x80\x80\x80",
                                         "\xF0\x9F", "\xED\xA0\x80", "\xC0\xAF"};
    const utf8kit_encoding other =
        UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE;
    static const size_t steps[] = {4096, 65536};
    size_t n = 3 * 65536 + 100, si, a, off;
    unsigned char *u8 = malloc(n);
    for (si = 0; si < 2; si++)
        for (a = 0; a < sizeof across / sizeof across[0]; a++)
            for (off = 0; off < 6; off++) {
                size_t k, at, len = strlen(across[a]);
                int p;
                /* Latin text, a piece ending off bytes after each of the
                 * first two multiples of the step */
                for (k = 0; k < n; k++)
                    u8[k] = k % 3 == 2 ? 0xA9 : k % 3 == 1 ? 0xC3 : 'a';
                for (at = steps[si]; at < 3 * steps[si] && at + 8 < n; at += steps[si]) {
                    size_t b = at + off - len;
                    u8[b - 1] = 'z';
                    memcpy(u8 + b, across[a], len);
                    u8[b + len] = 'z';
                }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++) {
                    utf8kit_options o = opts((utf8kit_policy)p);
                    size_t whole;
                    utf8kit_encoding to = si ? UTF8KIT_UCS2LE : other;
                    whole = utf8kit_convert(UTF8KIT_UTF8, to, u8, n, NULL, 0, &o).written;
                    via_same(UTF8KIT_UTF8, to, u8, n, (utf8kit_policy)p, whole);
                    /* the room running out half way */
                    if (!quick || p == UTF8KIT_REPLACE)
                        via_same(UTF8KIT_UTF8, si ? UTF8KIT_UCS2BE : other, u8, n,
                                 (utf8kit_policy)p, whole / 2);
                }
            }
    free(u8);
}

/* from -> to by the generic loop alone (u8k_convert_generic), the
 * output in *out (caller frees). */
static utf8kit_result conv_generic(utf8kit_encoding from, utf8kit_encoding to,
                                   const unsigned char *s, size_t n, const utf8kit_options *o,
                                   unsigned char **out)
{
    size_t cap = utf8kit_max_output_size(from, to, n);
    *out = malloc(cap + 1);
    return u8k_convert_generic(from, to, s, n, *out, cap, o);
}

/* from -> to against from -> UTF-32 in the other byte order than the
 * host's -> to, both by the generic loop (conv_generic); under REPLACE
 * and SKIP also with rooms of half the output and one byte less: a
 * prefix of it, as much as the input up to where it stopped gives. */
static void through32_same(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                           size_t n, utf8kit_policy pol)
{
    utf8kit_options o = opts(pol);
    unsigned char *direct, *mid, *ref;
    utf8kit_result rd = conv(from, to, s, n, &o, &direct);
    const utf8kit_encoding other =
        UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE;
    utf8kit_result rm = conv_generic(from, other, s, n, &o, &mid);
    utf8kit_result rr = conv_generic(other, to, mid, rm.written, &o, &ref);
    const int no_fffd = to == UTF8KIT_CP1252 || to == UTF8KIT_LATIN1 || to == UTF8KIT_ASCII;
    size_t c;
    /* (when the second step stops at a character `to` cannot hold, the
     * status is its, and conv() has checked read and error_len against
     * measuring; windows-1252, Latin-1 and ASCII hold no U+FFFD, so
     * under REPLACE the second step counts the first one's again) */
    CHECK(rd.status == (rr.status == UTF8KIT_OK ? rm.status : rr.status) &&
              (rr.status != UTF8KIT_OK || (rd.read == rm.read && rd.error_len == rm.error_len)) &&
              rd.replaced == rr.replaced + (no_fffd && pol == UTF8KIT_REPLACE ? 0 : rm.replaced) &&
              rd.written == rr.written &&
              memcmp(direct, ref, rd.written) == 0,
          "%d->%d pol %d n %zu: %s %zu/%zu/%zu/%zu vs %s %zu/%zu/%zu/%zu", from, to, pol, n,
          utf8kit_status_name(rd.status), rd.read, rd.written, rd.error_len, rd.replaced,
          utf8kit_status_name(rm.status), rm.read, rr.written, rm.error_len,
          rm.replaced + rr.replaced);
    /* short of room: a prefix of the output, of the input up to read */
    for (c = 0; pol != UTF8KIT_STRICT && c < 2 && rd.written > 0; c++) {
        size_t cap = c ? rd.written - 1 : rd.written / 2;
        unsigned char *d;
        int canary;
        utf8kit_result r = convert_guarded(from, to, s, n, cap, &o, &d, &canary), whole;
        whole = utf8kit_convert(from, to, s, r.read, NULL, 0, &o);
        CHECK(canary && r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL && r.written <= cap &&
                  memcmp(d, direct, r.written) == 0 && whole.written == r.written,
              "%d->%d pol %d n %zu cap %zu: %s %zu/%zu, the input up to there gives %zu", from,
              to, pol, n, cap, utf8kit_status_name(r.status), r.read, r.written, whole.written);
        free(d);
    }
    free(direct);
    free(mid);
    free(ref);
}

/* UTF-8 to and from CESU-8 and MUTF-8, CESU-8 and MUTF-8 to UTF-16,
 * UTF-32, UCS-2 and Latin-1, UTF-16, UCS-2 and UTF-32 to them take the
 * kernels over the stretches where they give what the generic loop gives
 * (stretches in convert.c), checked by through32_same: UTF-8 -> UTF-32
 * (the errors of UTF-8) -> CESU-8, and CESU-8 -> UTF-32 (its errors) ->
 * UTF-8; UTF-32 in the other byte order with them by fast_same. Texts of
 * 0 to 70000 bytes (past the 64 KiB scan steps) with U+0000, Hangul
 * written with the byte ED, characters above U+FFFF, then damaged, with
 * CESU-8 pairs cut, MUTF-8's C0 80 in CESU-8, bytes F0..F4 in CESU-8, lone
 * surrogates in UTF-16, values that are no characters in UTF-32; every
 * policy. */
static void test_cesu_stretches(void)
{
    const utf8kit_encoding other =
        UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE;
    static const uint32_t pick[] = {0x41,   0x00,   0x7F,   0xE9,    0x7FF,    0x800,   0xD55C,
                                    0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x1F600, 0x10FFFF};
    static const char *const bad[] = {"\xED\xA0\xBD",       "\xED\xB8\x80", "\xC0\x80",
                                      "\xF0\x9F\x98\x80",   "\xED\xA0\xBD\xED", "\xC0",
                                      "\xE4\xB8",           "\x80"};
    static const size_t lens[] = {0, 1, 7, 64, 65, 300, 3000, 70000};
    uint64_t seed = 23;
    size_t li, v, k, e;
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (v = 0; v < 4; v++) {
            unsigned char *u8;
            size_t n8 = 0;
            if (quick && lens[li] > 3000 && v % 2)
                continue;
            u8 = malloc(4 * lens[li] + 8);
            /* v 0 and 2: every width; v 1 and 3: none above U+FFFF */
            for (k = 0; k < lens[li]; k++) {
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                n8 += ref_utf8(pick[(seed >> 40) % (v % 2 ? 10 : sizeof pick / sizeof pick[0])],
                               u8 + n8);
            }
            if (v >= 2)
                for (k = 0; k < 1 + n8 / 300 && n8 > 0; k++) {
                    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                    u8[(seed >> 33) % n8] ^= (unsigned char)(1u << ((seed >> 50) % 8));
                }
            for (e = 0; e < 2; e++) {
                utf8kit_encoding enc = e ? UTF8KIT_MUTF8 : UTF8KIT_CESU8;
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                unsigned char *in;
                size_t n = conv(UTF8KIT_UTF8, enc, u8, n8, &ro, &in).written;
                int p;
                if (v >= 2)
                    for (k = 0; k < 1 + n / 300 && n > 8; k++) {
                        /* a piece of trouble in place of some bytes */
                        const char *b = bad[(k + v) % (sizeof bad / sizeof bad[0])];
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        memcpy(in + (seed >> 33) % (n - 5), b, strlen(b));
                    }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++) {
                    through32_same(UTF8KIT_UTF8, enc, u8, n8, (utf8kit_policy)p);
                    through32_same(enc, UTF8KIT_UTF8, in, n, (utf8kit_policy)p);
                    if (!quick || p == UTF8KIT_REPLACE) {
                        through32_same(enc, e ? UTF8KIT_UTF16BE : UTF8KIT_UTF16LE, in, n,
                                       (utf8kit_policy)p);
                        through32_same(enc, UTF8KIT_UTF32, in, n, (utf8kit_policy)p);
                        through32_same(enc, e ? UTF8KIT_UCS2BE : UTF8KIT_UCS2LE, in, n,
                                       (utf8kit_policy)p);
                        through32_same(enc, UTF8KIT_LATIN1, in, n, (utf8kit_policy)p);
                    }
                }
                free(in);
                /* UTF-16 (pairs, and lone surrogates put in below) and
                 * UCS-2 to CESU-8 and MUTF-8 */
                n = conv(UTF8KIT_UTF8, e ? UTF8KIT_UTF16BE : UTF8KIT_UTF16LE, u8, n8, &ro, &in)
                        .written;
                if (v >= 2)
                    for (k = 0; k < 1 + n / 400 && n >= 2; k++) {
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        in[(seed >> 33) % (n / 2) * 2 + !e] = (seed >> 60) % 2 ? 0xD8 : 0xDC;
                    }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++) {
                    through32_same(e ? UTF8KIT_UTF16BE : UTF8KIT_UTF16LE, enc, in, n,
                                   (utf8kit_policy)p);
                    through32_same(e ? UTF8KIT_UCS2BE : UTF8KIT_UCS2LE, enc, in, n,
                                   (utf8kit_policy)p);
                    through32_same(e ? UTF8KIT_UTF16LE : UTF8KIT_UTF16BE, enc, in, n,
                                   (utf8kit_policy)p);
                }
                free(in);
                /* UTF-32 in the host's order to them, with values that are
                 * no characters put in */
                n = conv(UTF8KIT_UTF8, UTF8KIT_UTF32, u8, n8, &ro, &in).written;
                if (v >= 2)
                    for (k = 0; k < 1 + n / 800 && n >= 4; k++) {
                        static const uint32_t no[] = {0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF};
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        memcpy(in + (seed >> 33) % (n / 4) * 4, &no[(seed >> 60) % 4], 4);
                    }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
                    through32_same(UTF8KIT_UTF32, enc, in, n, (utf8kit_policy)p);
                /* and in the other byte order (the host's, byte-reversed:
                 * other32 in convert.c), against the generic loop */
                for (k = 0; k + 4 <= n; k += 4) {
                    unsigned char t0 = in[k], t1 = in[k + 1];
                    in[k] = in[k + 3];
                    in[k + 1] = in[k + 2];
                    in[k + 2] = t1;
                    in[k + 3] = t0;
                }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
                    if (!quick || p == UTF8KIT_REPLACE)
                        fast_same(other, enc, in, n, opts((utf8kit_policy)p));
                free(in);
                /* CESU-8 and MUTF-8 (damaged) to it */
                n = conv(UTF8KIT_UTF8, enc, u8, n8, &ro, &in).written;
                if (v >= 2 && n > 8)
                    memcpy(in + n / 2, bad[v % (sizeof bad / sizeof bad[0])], 3);
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
                    if (!quick || p == UTF8KIT_REPLACE)
                        fast_same(enc, other, in, n, opts((utf8kit_policy)p));
                free(in);
            }
            free(u8);
        }
}

/* windows-1252 to UTF-8 takes the Latin-1 kernel up to each byte 80..9F,
 * UTF-8 to windows-1252 the other Latin-1 kernel up to the first U+0080..
 * U+009F it wrote (stretches in convert.c), and with UTF-16, UTF-32,
 * UCS-2, Latin-1 and US-ASCII they go through UTF-8 so (via_utf8), as
 * US-ASCII does up to each byte 80..FF: against the
 * generic loop through UTF-32, on bytes of every kind, those bytes now
 * and then or in runs, at lengths past the 64 KiB scan steps and the
 * 1024-unit steps through UTF-8. */
static void test_cp1252_stretches(void)
{
    static const size_t lens[] = {0, 1, 9, 64, 100, 3000, 70000};
    static const utf8kit_encoding wide[] = {UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32LE,
                                            UTF8KIT_UTF32BE, UTF8KIT_UCS2LE,  UTF8KIT_UCS2BE,
                                            UTF8KIT_LATIN1,  UTF8KIT_ASCII};
    uint64_t seed = 1252;
    size_t li, v, k, t;
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (v = 0; v < 3; v++) {
            unsigned char *in = malloc(lens[li] + 1);
            int p;
            for (k = 0; k < lens[li]; k++) {
                unsigned r;
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                r = (unsigned)(seed >> 40) % 100;
                /* v 0: 80..9F one byte in 100, v 1: in 10, v 2: in runs */
                in[k] = (unsigned char)(r < (v == 0 ? 1u : v == 1 ? 10u : 3u)
                                            ? 0x80 + (seed >> 20) % 32
                                        : r < 70 ? 'a' + (seed >> 20) % 26
                                                 : 0xA0 + (seed >> 20) % 96);
                if (v == 2 && k > 0 && in[k - 1] >= 0x80 && in[k - 1] <= 0x9F && r < 60)
                    in[k] = (unsigned char)(0x80 + (seed >> 24) % 32);
            }
            for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++) {
                through32_same(UTF8KIT_CP1252, UTF8KIT_UTF8, in, lens[li], (utf8kit_policy)p);
                /* (CESU-8 holds them all as UTF-8 does: the same paths) */
                through32_same(UTF8KIT_CP1252, UTF8KIT_CESU8, in, lens[li], (utf8kit_policy)p);
                through32_same(UTF8KIT_LATIN1, UTF8KIT_CESU8, in, lens[li], (utf8kit_policy)p);
                /* through UTF-8 by the kernels (via_utf8 in convert.c) */
                for (t = 0; t < sizeof wide / sizeof wide[0]; t++)
                    if (!quick || p == UTF8KIT_REPLACE)
                        through32_same(UTF8KIT_CP1252, wide[t], in, lens[li], (utf8kit_policy)p);
                /* the same bytes as US-ASCII (80..FF: invalid) */
                for (t = 0; t < sizeof wide / sizeof wide[0]; t += 3)
                    if (!quick || p == UTF8KIT_REPLACE)
                        through32_same(UTF8KIT_ASCII, wide[t], in, lens[li], (utf8kit_policy)p);
                through32_same(UTF8KIT_ASCII, UTF8KIT_CP1252, in, lens[li], (utf8kit_policy)p);
            }
            free(in);
        }
    /* and UTF-8 to windows-1252 (the Latin-1 kernel, then a scan of its
     * output for bytes 80..9F): the C1 controls (five of them it holds),
     * the euro sign and curly quotes it holds above U+00FF, characters it
     * does not hold, damage */
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (v = 0; v < 3; v++) {
            static const uint32_t pick[] = {0x80,   0x81,   0x8D,   0x9F,   0xE9,   0xA0,
                                            0xFF,   0x20AC, 0x2019, 0x100,  0x4E2D, 0x1F600,
                                            'a',    'b',    ' ',    'e',    'z',    '.'};
            unsigned char *u8 = malloc(4 * lens[li] + 1);
            size_t n8 = 0;
            int p;
            for (k = 0; k < lens[li]; k++) {
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                /* v 0: one in 10 from the first 12, v 1: one in 100 of the
                 * C1 controls, v 2: as v 0, damaged */
                if ((seed >> 33) % (v == 1 ? 100 : 10) == 0)
                    n8 += ref_utf8(pick[(seed >> 40) % (v == 1 ? 4 : 12)], u8 + n8);
                else
                    n8 += ref_utf8(pick[12 + (seed >> 40) % 6], u8 + n8);
            }
            if (v == 2)
                for (k = 0; k < 1 + n8 / 300 && n8 > 0; k++) {
                    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                    u8[(seed >> 33) % n8] ^= (unsigned char)(1u << ((seed >> 50) % 8));
                }
            for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
                through32_same(UTF8KIT_UTF8, UTF8KIT_CP1252, u8, n8, (utf8kit_policy)p);
            /* the same text in the others (U+FFFD for the damage, and
             * lone surrogates put in UTF-16), through UTF-8 by the
             * kernels to windows-1252 */
            for (t = 0; t < sizeof wide / sizeof wide[0]; t++) {
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                unsigned char *in;
                size_t n = conv(UTF8KIT_UTF8, wide[t], u8, n8, &ro, &in).written;
                if (v == 2 && (wide[t] == UTF8KIT_UTF16LE || wide[t] == UTF8KIT_UTF16BE))
                    for (k = 0; k < 1 + n / 400 && n >= 2; k++) {
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        in[(seed >> 33) % (n / 2) * 2 + (wide[t] == UTF8KIT_UTF16LE)] =
                            (seed >> 60) % 2 ? 0xD8 : 0xDC;
                    }
                for (p = UTF8KIT_STRICT; p <= UTF8KIT_SKIP; p++)
                    if (!quick || p == UTF8KIT_REPLACE)
                        through32_same(wide[t], UTF8KIT_CP1252, in, n, (utf8kit_policy)p);
                free(in);
            }
            free(u8);
        }
}

/* Every pair of encodings, each faster path of convert.c (the typed
 * driver, stretches, copies, through UTF-8, other32) held to the generic
 * loop (fast_same): texts of 0 to 5000 characters of every kind (U+0000,
 * ASCII, C1 controls, Latin-1, BMP with Hangul and U+FEFF, supplementary)
 * in each encoding, some with the values only UCS-4 and the RFC 2279 form
 * hold put in (5- and 6-octet forms, UTF-32 units up to 7FFFFFFF, and
 * above), then damaged with bits flipped; every policy, the three BOM
 * options, the default substitute and '?'. */
static void test_every_pair(void)
{
    static const uint32_t pick[] = {0x00,   0x41,   0x20,   0x7F,    0x80,    0x85,    0x9F,
                                    0xA0,   0xE9,   0xFF,   0x100,   0x7FF,   0x800,   0xD55C,
                                    0xFEFF, 0xFFFD, 0x20AC, 0x2019,  0x10000, 0x1F600, 0x10FFFF};
    static const size_t lens[] = {0, 1, 7, 100, 1500, 5000};
    uint64_t seed = 24;
    size_t li, v, f, t, k;
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (v = 0; v < 3; v++) {
            unsigned char *u8 = malloc(4 * lens[li] + 8);
            size_t n8 = 0;
            /* v 0: mostly ASCII; v 1: every kind; v 2: every kind, damaged */
            for (k = 0; k < lens[li]; k++) {
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                if (v == 0 && (seed >> 33) % 8 != 0)
                    u8[n8++] = (unsigned char)('a' + (seed >> 40) % 26);
                else
                    n8 += ref_utf8(pick[(seed >> 40) % (sizeof pick / sizeof pick[0])], u8 + n8);
            }
            for (f = 0; f < NALL; f++) {
                utf8kit_options ro = opts(UTF8KIT_REPLACE);
                unsigned char *in;
                size_t n;
                if (quick && lens[li] >= 1500 && v != 2)
                    continue;
                n = conv(UTF8KIT_UTF8, ALL[f], u8, n8, &ro, &in).written;
                if (v >= 1 && n >= 8) {
                    /* what only UCS-4 and the RFC 2279 form hold */
                    size_t at = n / 3 / 4 * 4;
                    if (ALL[f] == UTF8KIT_UTF8_RFC2279) {
                        in = realloc(in, n + 11);
                        memmove(in + at + 11, in + at, n - at);
                        memcpy(in + at, "\xF8\x88\x80\x80\x80\xFD\xBF\xBF\xBF\xBF\xBF", 11);
                        n += 11;
                    } else if (u8k_unit_size(ALL[f]) == 4) {
                        int be = ALL[f] == UTF8KIT_UTF32BE;
                        memcpy(in + at, be ? "\x7F\xFF\xFF\xFF" : "\xFF\xFF\xFF\x7F", 4);
                    }
                }
                if (v == 2)
                    for (k = 0; k < 1 + n / 200 && n > 0; k++) {
                        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                        in[(seed >> 33) % n] ^= (unsigned char)(1u << ((seed >> 50) % 8));
                    }
                for (t = 0; t < NALL; t++) {
                    int p;
                    for (p = UTF8KIT_STRICT; p <= UTF8KIT_ASSUME_VALID; p++) {
                        utf8kit_options o = opts((utf8kit_policy)p);
                        o.bom = (utf8kit_bom_policy)((f + t + (size_t)p + v) % 3);
                        if (p == UTF8KIT_REPLACE && (f + t) % 2)
                            o.substitute = '?';
                        fast_same(ALL[f], ALL[t], in, n, o);
                    }
                }
                free(in);
            }
            free(u8);
        }
}

/* utf8kit_repair of strings of 0 to 72 bytes (its own path for 8 to 64
 * bytes, valid or not) against utf8kit_convert UTF-8 -> UTF-8 under
 * REPLACE (the driver's path): valid mixes of every width, then each with
 * one byte changed at each place; rooms of exactly the input, of the
 * output, and one byte less than the output. */
static void test_repair_short(void)
{
    static const uint32_t pick[] = {0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFD, 0x10000, 0x10FFFF};
    static const unsigned char bad[] = {0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF};
    utf8kit_options o = opts(UTF8KIT_REPLACE);
    uint64_t seed = 99;
    size_t n, at, t, c;
    for (n = 0; n <= 72; n++)
        for (t = 0; t < (quick ? 2u : 6u); t++) {
            unsigned char buf[80], want[256], got[256];
            size_t m = 0;
            while (m < n) {
                unsigned char e[6];
                size_t k;
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                k = ref_utf8(pick[(seed >> 40) % (sizeof pick / sizeof pick[0])], e);
                if (m + k > n)
                    k = ref_utf8('z', e);
                memcpy(buf + m, e, k);
                m += k;
            }
            for (at = 0; at <= n; at++) {
                unsigned char keep = at < n ? buf[at] : 0;
                utf8kit_result w, g;
                size_t rooms[3];
                if (at < n)
                    buf[at] = bad[(seed >> 20) % sizeof bad];
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                w = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF8, buf, n, want, sizeof want, &o);
                rooms[0] = n;
                rooms[1] = w.written;
                rooms[2] = w.written > 0 ? w.written - 1 : 0;
                for (c = 0; c < 3; c++) {
                    utf8kit_result x = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF8, buf, n, want,
                                                       rooms[c], &o);
                    memset(got, 0xAA, sizeof got);
                    g = utf8kit_repair((const char *)buf, n, (char *)got, rooms[c]);
                    CHECK(same_res(g, x) && memcmp(got, want, x.written) == 0 &&
                              got[rooms[c]] == 0xAA,
                          "repair of %zu bytes (byte %zu changed), room %zu", n, at, rooms[c]);
                }
                if (at < n)
                    buf[at] = keep;
            }
        }
}

/* The transcoders' inline step against the reference u8k_decode_step: all
 * lead bytes, every second byte, the third and fourth from the classes
 * that matter, at every length that cuts the sequence. */
static void test_decode_fast(void)
{
    static const unsigned char cls[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90,
                                        0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xFF};
    unsigned b0, b1, c2, c3;
    size_t len, bad = 0;
    for (b0 = 0x80; b0 < 0x100; b0++)
        for (b1 = 0; b1 < 0x100; b1++)
            for (c2 = 0; c2 < sizeof cls; c2++)
                for (c3 = 0; c3 < sizeof cls; c3++) {
                    unsigned char in[4] = {(unsigned char)b0, (unsigned char)b1, cls[c2], cls[c3]};
                    for (len = 1; len <= 4; len++) {
                        uint32_t ca, cb;
                        size_t na, nb;
                        utf8kit_status sa = u8k_decode_fast(in, len, &ca, &na);
                        utf8kit_status sb = u8k_decode_step(in, len, &cb, &nb);
                        bad += sa != sb || ca != cb || na != nb;
                    }
                }
    CHECK(bad == 0, "u8k_decode_fast disagrees with u8k_decode_step %zu times", bad);
}

/* ---- F: error tables for the other encodings -------------------------------------- */

static void test_error_tables(void)
{
    static const struct {
        utf8kit_encoding from;
        const char *in;
        size_t n;
        utf8kit_status st;
        size_t at, elen, nfffd; /* nfffd: U+FFFD count under REPLACE */
    } t[] = {
        /* UTF-16: the cases CPython's utf-16-le codec reports the same way */
        {UTF8KIT_UTF16LE, "\x00\xD8", 2, UTF8KIT_ERR_TRUNCATED, 0, 2, 1},
        {UTF8KIT_UTF16LE, "\x00\xD8\x41", 3, UTF8KIT_ERR_TRUNCATED, 0, 3, 1},
        {UTF8KIT_UTF16LE, "\x00\xD8\x41\x00", 4, UTF8KIT_ERR_SURROGATE, 0, 2, 1},
        {UTF8KIT_UTF16LE, "\x00\xDC\x41\x00", 4, UTF8KIT_ERR_SURROGATE, 0, 2, 1},
        {UTF8KIT_UTF16LE, "\x41", 1, UTF8KIT_ERR_TRUNCATED, 0, 1, 1},
        {UTF8KIT_UTF16LE, "\x41\x00\x42", 3, UTF8KIT_ERR_TRUNCATED, 2, 1, 1},
        {UTF8KIT_UTF16LE, "\x00\xD8\x00\xD8\x00\xDC", 6, UTF8KIT_ERR_SURROGATE, 0, 2, 1},
        {UTF8KIT_UTF16LE, "\x00\xD8\x00\xDC\x00\xDC", 6, UTF8KIT_ERR_SURROGATE, 4, 2, 1},
        {UTF8KIT_UTF16LE, "\x00\xD8\x00\xD8\x41", 5, UTF8KIT_ERR_SURROGATE, 0, 2, 2},
        {UTF8KIT_UTF16BE, "\xD8\x00\xDC\x00", 4, UTF8KIT_OK, 4, 0, 0},
        {UTF8KIT_UTF16BE, "\xDC\x00\xD8\x00", 4, UTF8KIT_ERR_SURROGATE, 0, 2, 2},
        /* UTF-32 */
        {UTF8KIT_UTF32LE, "\x00\x00\x11\x00", 4, UTF8KIT_ERR_TOO_LARGE, 0, 4, 1},
        {UTF8KIT_UTF32LE, "\x00\xD8\x00\x00", 4, UTF8KIT_ERR_SURROGATE, 0, 4, 1},
        {UTF8KIT_UTF32LE, "\x41\x00\x00", 3, UTF8KIT_ERR_TRUNCATED, 0, 3, 1},
        {UTF8KIT_UTF32LE, "\x41\x00\x00\x00\x42", 5, UTF8KIT_ERR_TRUNCATED, 4, 1, 1},
        {UTF8KIT_UTF32BE, "\x00\x10\xFF\xFF\xFF\xFF\xFF\xFF", 8, UTF8KIT_ERR_TOO_LARGE, 4, 4, 1},
        /* UCS-2: no surrogates at all */
        {UTF8KIT_UCS2LE, "\x00\xD8\x00\xDC", 4, UTF8KIT_ERR_SURROGATE, 0, 2, 2},
        {UTF8KIT_UCS2BE, "\x00\x41\xFF", 3, UTF8KIT_ERR_TRUNCATED, 2, 1, 1},
        /* ASCII */
        {UTF8KIT_ASCII, "a\x80\x81", 3, UTF8KIT_ERR_INVALID_UNIT, 1, 1, 2},
        /* CESU-8 */
        {UTF8KIT_CESU8, "\xED\xA0\xBD\xED\xB8\x80", 6, UTF8KIT_OK, 6, 0, 0},
        {UTF8KIT_CESU8, "\xF0\x9F\x98\x80", 4, UTF8KIT_ERR_INVALID_LEAD, 0, 1, 4},
        {UTF8KIT_CESU8, "\xED\xA0\xBD", 3, UTF8KIT_ERR_TRUNCATED, 0, 3, 1},
        {UTF8KIT_CESU8, "\xED\xA0\xBD\xED\xB8", 5, UTF8KIT_ERR_TRUNCATED, 0, 5, 1},
        {UTF8KIT_CESU8, "\xED\xA0\xBD" "a", 4, UTF8KIT_ERR_SURROGATE, 0, 3, 1},
        {UTF8KIT_CESU8, "\xED\xB8\x80", 3, UTF8KIT_ERR_SURROGATE, 0, 3, 1},
        {UTF8KIT_CESU8, "\xED\xA0\xBD\xED\xA0\xBD\xED\xB8\x80", 9, UTF8KIT_ERR_SURROGATE, 0, 3, 1},
        {UTF8KIT_CESU8, "\xC0\x80", 2, UTF8KIT_ERR_OVERLONG, 0, 1, 2},
        {UTF8KIT_CESU8, "\xE0\x80\x80", 3, UTF8KIT_ERR_OVERLONG, 0, 1, 3},
        /* MUTF-8 */
        {UTF8KIT_MUTF8, "a\xC0\x80" "b\x00", 5, UTF8KIT_OK, 5, 0, 0},
        {UTF8KIT_MUTF8, "\xC0", 1, UTF8KIT_ERR_TRUNCATED, 0, 1, 1},
        {UTF8KIT_MUTF8, "\xC0\x81", 2, UTF8KIT_ERR_OVERLONG, 0, 1, 2},
        {UTF8KIT_MUTF8, "\xC1\xBF", 2, UTF8KIT_ERR_OVERLONG, 0, 1, 2},
        /* RFC 2279: overlongs and surrogates stay invalid */
        {UTF8KIT_UTF8_RFC2279, "\xF8\x87\xBF\xBF\xBF", 5, UTF8KIT_ERR_OVERLONG, 0, 1, 5},
        {UTF8KIT_UTF8_RFC2279, "\xFC\x83\xBF\xBF\xBF\xBF", 6, UTF8KIT_ERR_OVERLONG, 0, 1, 6},
        {UTF8KIT_UTF8_RFC2279, "\xF0\x8F\xBF\xBF", 4, UTF8KIT_ERR_OVERLONG, 0, 1, 4},
        {UTF8KIT_UTF8_RFC2279, "\xED\xA0\x80", 3, UTF8KIT_ERR_SURROGATE, 0, 1, 3},
        {UTF8KIT_UTF8_RFC2279, "\xFE", 1, UTF8KIT_ERR_INVALID_LEAD, 0, 1, 1},
        {UTF8KIT_UTF8_RFC2279, "\xFD\xBF\xBF", 3, UTF8KIT_ERR_TRUNCATED, 0, 3, 1},
        {UTF8KIT_UTF8_RFC2279, "\xFD\xBF\xBF\x41", 4, UTF8KIT_ERR_MISSING_CONTINUATION, 0, 3, 1},
        {UTF8KIT_UTF8_RFC2279, "\xF8\x88\x80\x80\x80", 5, UTF8KIT_OK, 5, 0, 0},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        utf8kit_options st = opts(UTF8KIT_STRICT), rp = opts(UTF8KIT_REPLACE);
        unsigned char *out;
        utf8kit_result r;
        size_t k, nf = 0;
        r = conv(t[i].from, UTF8KIT_UTF32LE, t[i].in, t[i].n, &st, NULL);
        CHECK(r.status == t[i].st && r.read == t[i].at && r.error_len == t[i].elen,
              "error case %zu: %s at %zu len %zu", i, utf8kit_status_name(r.status), r.read,
              r.error_len);
        r = conv(t[i].from, UTF8KIT_UTF32LE, t[i].in, t[i].n, &rp, &out);
        for (k = 0; k + 4 <= r.written; k += 4)
            nf += out[k] == 0xFD && out[k + 1] == 0xFF && out[k + 2] == 0 && out[k + 3] == 0;
        CHECK(r.status == UTF8KIT_OK && nf == t[i].nfffd && r.replaced == t[i].nfffd,
              "error case %zu replace: %zu U+FFFD, replaced %zu", i, nf, r.replaced);
        free(out);
    }
}

/* ---- G: BOM option, substitutes, arguments, bounds --------------------------------- */

static void test_options(void)
{
    static const char text[] = "\xEF\xBB\xBF" "a\xEF\xBB\xBF";
    utf8kit_options o = opts(UTF8KIT_STRICT);
    unsigned char *out;
    utf8kit_result r;

    o.bom = UTF8KIT_BOM_KEEP;
    r = conv(UTF8KIT_UTF8, UTF8KIT_UTF16BE, text, 7, &o, &out);
    CHECK(r.written == 6 && memcmp(out, "\xFE\xFF\x00\x61\xFE\xFF", 6) == 0, "bom keep");
    free(out);
    o.bom = UTF8KIT_BOM_STRIP;
    r = conv(UTF8KIT_UTF8, UTF8KIT_UTF16BE, text, 7, &o, &out);
    CHECK(r.read == 7 && r.written == 4 && memcmp(out, "\x00\x61\xFE\xFF", 4) == 0, "bom strip");
    free(out);
    o.bom = UTF8KIT_BOM_ADD;
    r = conv(UTF8KIT_UTF8, UTF8KIT_UTF16BE, text, 7, &o, &out);
    CHECK(r.written == 6 && memcmp(out, "\xFE\xFF\x00\x61\xFE\xFF", 6) == 0, "bom add, kept single");
    free(out);
    r = conv(UTF8KIT_UTF8, UTF8KIT_UTF32LE, "a", 1, &o, &out);
    CHECK(r.written == 8 && memcmp(out, "\xFF\xFE\x00\x00\x61\x00\x00\x00", 8) == 0, "bom add utf32");
    free(out);
    r = conv(UTF8KIT_UTF16LE, UTF8KIT_UTF8, "a\x00", 2, &o, &out);
    CHECK(r.written == 4 && memcmp(out, "\xEF\xBB\xBF" "a", 4) == 0, "bom add utf8");
    free(out);
    r = conv(UTF8KIT_UTF8, UTF8KIT_LATIN1, text, 7, &o, NULL);
    CHECK(r.status == UTF8KIT_ERR_UNREPRESENTABLE && r.read == 4, "bom add latin1 %s %zu",
          utf8kit_status_name(r.status), r.read);
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF16LE, "a", 1, (char[4]){0}, 1, &o);
    CHECK(r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL && r.read == 0 && r.written == 0,
          "no room for the BOM");

    /* substitutes */
    o = opts(UTF8KIT_REPLACE);
    r = conv(UTF8KIT_UTF8, UTF8KIT_ASCII, "a\xC3\xA9\xFF", 4, &o, &out);
    CHECK(r.written == 3 && memcmp(out, "a??", 3) == 0 && r.replaced == 2, "ascii ?");
    free(out);
    o.substitute = 0xE9;
    r = conv(UTF8KIT_UTF8, UTF8KIT_ASCII, "a", 1, &o, NULL);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "substitute not in ascii");
    r = conv(UTF8KIT_UTF8, UTF8KIT_LATIN1, "\xE2\x82\xAC\x80", 4, &o, &out);
    CHECK(r.written == 2 && memcmp(out, "\xE9\xE9", 2) == 0, "latin1 substitute");
    free(out);
    o.substitute = 0xD800;
    r = conv(UTF8KIT_UTF8, UTF8KIT_UTF8, "a", 1, &o, NULL);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "surrogate substitute");
    o = opts(UTF8KIT_SKIP);
    r = conv(UTF8KIT_UTF8, UTF8KIT_LATIN1, "a\xE2\x82\xAC\x80" "b", 6, &o, &out);
    CHECK(r.written == 2 && memcmp(out, "ab", 2) == 0 && r.replaced == 2, "skip");
    free(out);

    /* arguments */
    o = opts(UTF8KIT_STRICT);
    r = utf8kit_convert(UTF8KIT_ENCODING_UNKNOWN, UTF8KIT_UTF8, "a", 1, NULL, 0, &o);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "unknown from");
    r = utf8kit_convert(UTF8KIT_UTF8, (utf8kit_encoding)14, "a", 1, NULL, 0, &o);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "unknown to");
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF8, NULL, 1, NULL, 0, &o);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "null src");
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF16LE, NULL, 0, NULL, 0, NULL);
    CHECK(r.status == UTF8KIT_OK && r.written == 0, "empty");
    o.policy = (utf8kit_policy)7;
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF8, "a", 1, NULL, 0, &o);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "bad policy");
    r = utf8kit_utf8_to_utf32("a", 1, NULL, 0, (utf8kit_policy)9);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "typed bad policy");

    /* bounds */
    CHECK(utf8kit_max_output_size(UTF8KIT_UTF8, UTF8KIT_UTF8, SIZE_MAX) == SIZE_MAX, "overflow");
    CHECK(utf8kit_max_output_size(UTF8KIT_ENCODING_UNKNOWN, UTF8KIT_UTF8, 5) == 0, "unknown");
    CHECK(utf8kit_max_output_size(UTF8KIT_UTF32LE, UTF8KIT_CESU8, 4) >= 6, "cesu from ucs4");
    CHECK(utf8kit_max_output_size(UTF8KIT_UTF8, UTF8KIT_UTF8, 0) >= 3, "bom room");
}

/* utf8kit_max_output_size against short random inputs for every pair,
 * under REPLACE with the widest substitute the target holds (and SKIP,
 * and with a BOM added). */
static void test_bounds(void)
{
    static const uint32_t subs[] = {0x10FFFF, 0xFFFF, 0xFF, 0x7F};
    uint64_t seed = 12345;
    size_t f, t, i, k, n;
    for (f = 0; f < NALL; f++)
        for (t = 0; t < NALL; t++) {
            utf8kit_options o = opts(UTF8KIT_REPLACE);
            unsigned char tmp[16];
            int bad = 0;
            for (i = 0; i < 4; i++) {
                o.substitute = subs[i];
                if (utf8kit_convert(UTF8KIT_UTF8, ALL[t], "a", 1, NULL, 0, &o).status ==
                    UTF8KIT_OK)
                    break;
            }
            o.bom = UTF8KIT_BOM_ADD;
            for (i = 0; i < (quick ? 100u : 600u); i++) {
                utf8kit_result r;
                n = i % 13;
                for (k = 0; k < n; k++) {
                    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                    /* bias towards lead bytes, surrogate halves and zeros */
                    tmp[k] = (unsigned char)(seed >> 56);
                    if ((seed >> 20 & 3) == 0)
                        tmp[k] = (unsigned char)(0xC0 | (seed >> 40 & 0x3F));
                    else if ((seed >> 20 & 3) == 1)
                        tmp[k] = (unsigned char)(seed >> 30 & 1 ? 0xD8 : 0x80 | (seed >> 40 & 0x3F));
                    else if ((seed >> 20 & 7) == 2)
                        tmp[k] = 0;
                }
                r = utf8kit_convert(ALL[f], ALL[t], tmp, n, NULL, 0, &o);
                bad += r.written > utf8kit_max_output_size(ALL[f], ALL[t], n);
                /* ASSUME_VALID on invalid input: any output, but in bounds
                 * (exact-size blocks, so ASan sees any overrun) */
                {
                    utf8kit_options av = opts(UTF8KIT_ASSUME_VALID);
                    size_t cap = utf8kit_max_output_size(ALL[f], ALL[t], n);
                    unsigned char *in = dup_exact(tmp, n), *d = malloc(cap);
                    r = utf8kit_convert(ALL[f], ALL[t], in, n, d, cap, &av);
                    bad += r.written > cap || r.read > n;
                    free(in);
                    free(d);
                }
            }
            CHECK(bad == 0, "bound %d->%d exceeded %d times", ALL[f], ALL[t], bad);
        }
}

/* The typed functions under ASSUME_VALID and SKIP on random bytes, every
 * length up to 40, inputs and outputs in exact-size blocks. */
static void test_typed_garbage(void)
{
    uint64_t seed = 99;
    size_t i, k, n;
    for (i = 0; i < (quick ? 300u : 3000u); i++) {
        unsigned char tmp[40], *in;
        uint16_t *w16;
        uint32_t *w32;
        char *c8;
        int pol;
        n = i % 41;
        for (k = 0; k < n; k++) {
            seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
            tmp[k] = (unsigned char)(seed >> 56);
            if ((seed >> 17 & 3) == 0)
                tmp[k] &= 0x7F;
        }
        in = dup_exact(tmp, n);
        for (pol = UTF8KIT_SKIP; pol <= UTF8KIT_ASSUME_VALID; pol++) {
            utf8kit_result r;
            w16 = malloc(2 * n + 2);
            w32 = malloc(4 * n + 4);
            c8 = malloc(3 * n + 1);
            r = utf8kit_utf8_to_utf16le((const char *)in, n, w16, n, (utf8kit_policy)pol);
            CHECK(r.written <= n && r.read <= n, "garbage utf16le");
            r = utf8kit_utf8_to_utf16be((const char *)in, n, w16, n, (utf8kit_policy)pol);
            CHECK(r.written <= n && r.read <= n, "garbage utf16be");
            r = utf8kit_utf8_to_utf32((const char *)in, n, w32, n, (utf8kit_policy)pol);
            CHECK(r.written <= n && r.read <= n, "garbage utf32");
            r = utf8kit_utf8_to_latin1((const char *)in, n, c8, n, (utf8kit_policy)pol);
            CHECK(r.written <= n && r.read <= n, "garbage latin1");
            memcpy(w16, in, n & ~(size_t)1);
            r = utf8kit_utf16le_to_utf8(w16, n / 2, c8, 3 * (n / 2), (utf8kit_policy)pol);
            CHECK(r.written <= 3 * (n / 2) && r.read <= n / 2, "garbage from utf16le");
            r = utf8kit_utf16be_to_utf8(w16, n / 2, c8, 3 * (n / 2), (utf8kit_policy)pol);
            CHECK(r.written <= 3 * (n / 2) && r.read <= n / 2, "garbage from utf16be");
            memcpy(w32, in, n & ~(size_t)3);
            r = utf8kit_utf32_to_utf8(w32, n / 4, c8, 3 * n / 4, (utf8kit_policy)pol);
            CHECK(r.written <= 3 * n / 4 && r.read <= n / 4, "garbage from utf32");
            r = utf8kit_repair((const char *)in, n, c8, 3 * n);
            CHECK(r.status == UTF8KIT_OK && r.read == n, "garbage repair");
            free(w16);
            free(w32);
            free(c8);
        }
        free(in);
    }
}

/* ---- H: inputs and outputs that end where an unmapped page begins ---------------- */

#ifdef MAP_ANONYMOUS /* testlib.h has guard pages */
static void test_guard_pages(void)
{
    static const char *const texts[] = {
        "ASCII only, long enough to span several vector blocks of sixty-four bytes: "
        "0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xE4\xB8\x96\xE7\x95\x8C "
        "\xF0\x9F\x98\x80 mixed \xC3\xA9t\xC3\xA9 \xE2\x82\xAC\xE2\x82\xAC "
        "\xF0\x90\x8D\x88\xF0\x90\x8D\x88 and more text after it to be long",
        "bad \xC3 \xE2\x82 \xF0\x9F\x98 \xED\xA0\x80 \xC0\xAF \xFF tail \xF4\x90\x80\x80 "
        "\xE2\x82\xAC ok \x80\x80 end \xF0\x9F",
    };
    /* three readable pages before each guard: [end - n, end) for n <= 3 pages */
    unsigned char *ie = test_guarded_try(3), *oe = test_guarded_try(3);
    size_t t, L;
    int pol;
    if (!ie || !oe) {
        printf("note: mmap guard pages unavailable\n");
        return;
    }
    for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        size_t n = strlen(texts[t]);
        for (L = 0; L <= n; L++) {
            const unsigned char *src = (const unsigned char *)texts[t] + (n - L);
            unsigned char *in = ie - L;
            memcpy(in, src, L);
            for (pol = UTF8KIT_STRICT; pol <= UTF8KIT_ASSUME_VALID; pol++) {
                utf8kit_policy P = (utf8kit_policy)pol;
                utf8kit_result m, r;
                size_t u16n, u32n, k;
                /* UTF-8 -> UTF-16, output ending at the guard */
                m = utf8kit_utf8_to_utf16le((const char *)in, L, NULL, 0, P);
                r = utf8kit_utf8_to_utf16le((const char *)in, L, (uint16_t *)(void *)(oe - 2 * m.written),
                                            m.written, P);
                CHECK(pol == UTF8KIT_ASSUME_VALID || same_res(m, r), "guard utf16 t%zu L%zu p%d", t, L, pol);
                u16n = r.written;
                /* and back, input ending at the guard */
                if (r.status == UTF8KIT_OK || pol != UTF8KIT_STRICT) {
                    uint16_t *w = (uint16_t *)(void *)(ie - 2 * u16n);
                    unsigned char tmp[4096];
                    memcpy(tmp, oe - 2 * u16n, 2 * u16n);
                    memcpy(w, tmp, 2 * u16n);
                    m = utf8kit_utf16le_to_utf8(w, u16n, NULL, 0, P);
                    r = utf8kit_utf16le_to_utf8(w, u16n, (char *)(oe - m.written), m.written, P);
                    CHECK(same_res(m, r) && r.status == UTF8KIT_OK, "guard utf16->8 t%zu L%zu p%d", t, L, pol);
                    memcpy(in, src, L); /* restore */
                }
                m = utf8kit_utf8_to_utf32((const char *)in, L, NULL, 0, P);
                r = utf8kit_utf8_to_utf32((const char *)in, L, (uint32_t *)(void *)(oe - 4 * m.written),
                                          m.written, P);
                CHECK(pol == UTF8KIT_ASSUME_VALID || same_res(m, r), "guard utf32 t%zu L%zu p%d", t, L, pol);
                u32n = r.written;
                if (r.status == UTF8KIT_OK || pol != UTF8KIT_STRICT) {
                    uint32_t *w = (uint32_t *)(void *)(ie - 4 * u32n);
                    unsigned char tmp[8192];
                    memcpy(tmp, oe - 4 * u32n, 4 * u32n);
                    memcpy(w, tmp, 4 * u32n);
                    m = utf8kit_utf32_to_utf8(w, u32n, NULL, 0, P);
                    r = utf8kit_utf32_to_utf8(w, u32n, (char *)(oe - m.written), m.written, P);
                    CHECK(same_res(m, r) && r.status == UTF8KIT_OK, "guard utf32->8 t%zu L%zu p%d", t, L, pol);
                    memcpy(in, src, L);
                }
                m = utf8kit_utf8_to_latin1((const char *)in, L, NULL, 0, P);
                r = utf8kit_utf8_to_latin1((const char *)in, L, (char *)(oe - m.written), m.written, P);
                CHECK(pol == UTF8KIT_ASSUME_VALID || same_res(m, r), "guard latin1 t%zu L%zu p%d", t, L, pol);
                m = utf8kit_latin1_to_utf8((const char *)in, L, NULL, 0);
                r = utf8kit_latin1_to_utf8((const char *)in, L, (char *)(oe - m.written), m.written);
                CHECK(same_res(m, r) && r.status == UTF8KIT_OK && r.written >= L, "guard latin1->8");
                m = utf8kit_repair((const char *)in, L, NULL, 0);
                r = utf8kit_repair((const char *)in, L, (char *)(oe - m.written), m.written);
                CHECK(same_res(m, r) && r.status == UTF8KIT_OK, "guard repair");
                for (k = 0; k < NALL; k++) {
                    utf8kit_options o = opts(P);
                    m = utf8kit_convert(UTF8KIT_UTF8, ALL[k], in, L, NULL, 0, &o);
                    r = utf8kit_convert(UTF8KIT_UTF8, ALL[k], in, L, oe - m.written, m.written, &o);
                    CHECK(pol == UTF8KIT_ASSUME_VALID || same_res(m, r), "guard convert ->%d", ALL[k]);
                }
            }
        }
    }
}
#else
static void test_guard_pages(void) {}
#endif

int main(void)
{
    quick = test_quick();
    test_begin();
    test_decode_fast();
    test_all_code_points();
    test_cp1252();
    test_typed_all();
    test_rfc2279();
    test_conformance();
    test_capacities();
    test_random_typed_vs_generic();
    test_via_utf8();
    test_bom_paths();
    test_every_pair();
    test_stretches();
    test_steps();
    test_cesu_stretches();
    test_cp1252_stretches();
    test_repair_short();
    test_error_tables();
    test_options();
    test_bounds();
    test_typed_garbage();
    test_guard_pages();
    return test_done("convert");
}
