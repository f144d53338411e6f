/*
 * test_chars.c - one character at a time, counting, ordering and search,
 * as tables grouped by the byte-length boundaries of RFC 3629 section 3
 * (0x7F/0x80, 0x7FF/0x800, 0xD7FF/0xE000 around the surrogates,
 * 0xFFFF/0x10000, 0x10FFFF/0x110000), plus properties on random strings.
 */
#include "testlib.h"

#define S(lit) lit, sizeof(lit) - 1

/* ---- encode / decode ---------------------------------------------------- */

static const struct {
    uint32_t cp;
    const char *bytes;
    size_t len;
} chars[] = {
    /* 1 octet up to U+007F, 2 from U+0080 */
    {0x0000, S("\x00")},
    {0x0041, S("\x41")},
    {0x007F, S("\x7F")},
    {0x0080, S("\xC2\x80")},
    {0x00A9, S("\xC2\xA9")},
    {0x00E9, S("\xC3\xA9")},
    /* 2 octets up to U+07FF, 3 from U+0800 */
    {0x07FF, S("\xDF\xBF")},
    {0x0800, S("\xE0\xA0\x80")},
    {0x0FFF, S("\xE0\xBF\xBF")},
    {0x1000, S("\xE1\x80\x80")},
    {0x20AC, S("\xE2\x82\xAC")},
    /* around the surrogates */
    {0xD7FF, S("\xED\x9F\xBF")},
    {0xE000, S("\xEE\x80\x80")},
    {0xFEFF, S("\xEF\xBB\xBF")},
    {0xFFFD, S("\xEF\xBF\xBD")},
    /* 3 octets up to U+FFFF, 4 from U+10000 */
    {0xFFFE, S("\xEF\xBF\xBE")},
    {0xFFFF, S("\xEF\xBF\xBF")},
    {0x10000, S("\xF0\x90\x80\x80")},
    {0x1F600, S("\xF0\x9F\x98\x80")},
    {0x3FFFF, S("\xF0\xBF\xBF\xBF")},
    {0x40000, S("\xF1\x80\x80\x80")},
    {0xFFFFF, S("\xF3\xBF\xBF\xBF")},
    {0x100000, S("\xF4\x80\x80\x80")},
    /* the last code point */
    {0x10FFFF, S("\xF4\x8F\xBF\xBF")},
};

/* Values encode refuses, and what their would-be bytes decode to. */
static const struct {
    uint32_t cp;
    const char *bytes;
    size_t len;
    utf8kit_status st;
} refused[] = {
    {0xD800, S("\xED\xA0\x80"), UTF8KIT_ERR_SURROGATE},
    {0xDBFF, S("\xED\xAF\xBF"), UTF8KIT_ERR_SURROGATE},
    {0xDC00, S("\xED\xB0\x80"), UTF8KIT_ERR_SURROGATE},
    {0xDFFF, S("\xED\xBF\xBF"), UTF8KIT_ERR_SURROGATE},
    {0x110000, S("\xF4\x90\x80\x80"), UTF8KIT_ERR_TOO_LARGE},
    {0x13FFFF, S("\xF4\xBF\xBF\xBF"), UTF8KIT_ERR_TOO_LARGE},
    {0x140000, S("\xF5\x80\x80\x80"), UTF8KIT_ERR_TOO_LARGE},
    {0x1FFFFF, S("\xF7\xBF\xBF\xBF"), UTF8KIT_ERR_TOO_LARGE},
    {0x200000, S("\xF8\x88\x80\x80\x80"), UTF8KIT_ERR_INVALID_LEAD},
    {0x7FFFFFFF, S("\xFD\xBF\xBF\xBF\xBF\xBF"), UTF8KIT_ERR_INVALID_LEAD},
    {0xFFFFFFFF, S("\xFF"), UTF8KIT_ERR_INVALID_LEAD},
};

/* Invalid sequences: the kind and the length of the maximal subpart (the
 * header's rules; each also in the third-party data). */
static const struct {
    const char *bytes;
    size_t len;
    utf8kit_status st;
    size_t n;
} invalid[] = {
    {S("\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 1},
    {S("\xBF\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 1},
    {S("\xC0\x80"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xC1\xBF"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xC0\x41"), UTF8KIT_ERR_INVALID_LEAD, 1},
    {S("\xC0"), UTF8KIT_ERR_INVALID_LEAD, 1},
    {S("\xC2\x41"), UTF8KIT_ERR_MISSING_CONTINUATION, 1},
    {S("\xC2\xC2\x80"), UTF8KIT_ERR_MISSING_CONTINUATION, 1},
    {S("\xC2"), UTF8KIT_ERR_TRUNCATED, 1},
    {S("\xDF"), UTF8KIT_ERR_TRUNCATED, 1},
    {S("\xE0\x80\x80"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xE0\x9F\xBF"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xE0\xA0"), UTF8KIT_ERR_TRUNCATED, 2},
    {S("\xE2\x82"), UTF8KIT_ERR_TRUNCATED, 2},
    {S("\xE2\x82\x41"), UTF8KIT_ERR_MISSING_CONTINUATION, 2},
    {S("\xE2\x41"), UTF8KIT_ERR_MISSING_CONTINUATION, 1},
    {S("\xED\xA0\x80"), UTF8KIT_ERR_SURROGATE, 1},
    {S("\xED\xBF\xBF"), UTF8KIT_ERR_SURROGATE, 1},
    {S("\xED\x9F"), UTF8KIT_ERR_TRUNCATED, 2},
    {S("\xF0\x80\x80\x80"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xF0\x8F\xBF\xBF"), UTF8KIT_ERR_OVERLONG, 1},
    {S("\xF0\x90\x80"), UTF8KIT_ERR_TRUNCATED, 3},
    {S("\xF0\x9F\x98\x41"), UTF8KIT_ERR_MISSING_CONTINUATION, 3},
    {S("\xF0\x9F\x41"), UTF8KIT_ERR_MISSING_CONTINUATION, 2},
    {S("\xF4\x90\x80\x80"), UTF8KIT_ERR_TOO_LARGE, 1},
    {S("\xF4\x8F\xBF"), UTF8KIT_ERR_TRUNCATED, 3},
    {S("\xF5\x80"), UTF8KIT_ERR_TOO_LARGE, 1},
    {S("\xF7\xBF"), UTF8KIT_ERR_TOO_LARGE, 1},
    {S("\xF5"), UTF8KIT_ERR_INVALID_LEAD, 1},
    {S("\xF8\x88\x80\x80\x80"), UTF8KIT_ERR_INVALID_LEAD, 1},
    {S("\xFE"), UTF8KIT_ERR_INVALID_LEAD, 1},
    {S("\xFF\x80"), UTF8KIT_ERR_INVALID_LEAD, 1},
};

static void test_encode_decode(void)
{
    size_t i;
    for (i = 0; i < sizeof chars / sizeof chars[0]; i++) {
        char out[4];
        uint32_t cp;
        size_t n, len = chars[i].len;
        unsigned char *p = dup_exact(chars[i].bytes, len), *q;
        utf8kit_status st;

        n = utf8kit_encode(chars[i].cp, out);
        CHECK(n == len && memcmp(out, chars[i].bytes, len) == 0, "encode U+%04X",
              (unsigned)chars[i].cp);
        CHECK(utf8kit_encoded_length(chars[i].cp) == len, "encoded_length U+%04X",
              (unsigned)chars[i].cp);
        CHECK(utf8kit_sequence_length(p[0]) == len, "sequence_length of U+%04X",
              (unsigned)chars[i].cp);
        st = utf8kit_decode((const char *)p, len, &cp, &n);
        CHECK(st == UTF8KIT_OK && cp == chars[i].cp && n == len, "decode U+%04X: %s U+%04X %zu",
              (unsigned)chars[i].cp, utf8kit_status_name(st), (unsigned)cp, n);
        st = utf8kit_decode_last((const char *)p, len, &cp, &n);
        CHECK(st == UTF8KIT_OK && cp == chars[i].cp && n == len,
              "decode_last U+%04X: %s U+%04X %zu", (unsigned)chars[i].cp,
              utf8kit_status_name(st), (unsigned)cp, n);
        CHECK(utf8kit_is_valid((const char *)p, len), "U+%04X invalid", (unsigned)chars[i].cp);
        CHECK(utf8kit_count((const char *)p, len) == 1, "count U+%04X", (unsigned)chars[i].cp);
        CHECK(utf8kit_utf16_length((const char *)p, len) == (chars[i].cp > 0xFFFF ? 2u : 1u),
              "utf16_length U+%04X", (unsigned)chars[i].cp);
        /* every proper prefix is truncated, and every proper suffix is not
         * the end of a character */
        for (n = 1; n < len; n++) {
            size_t m;
            q = dup_exact(p, n);
            st = utf8kit_decode((const char *)q, n, &cp, &m);
            CHECK(st == UTF8KIT_ERR_TRUNCATED && m == n && cp == 0xFFFD,
                  "U+%04X cut to %zu bytes: %s %zu", (unsigned)chars[i].cp, n,
                  utf8kit_status_name(st), m);
            free(q);
            q = dup_exact(p + n, len - n);
            st = utf8kit_decode_last((const char *)q, len - n, &cp, &m);
            CHECK(st == UTF8KIT_ERR_STRAY_CONTINUATION && m == 1 && cp == 0xFFFD,
                  "last %zu bytes of U+%04X: %s %zu", len - n, (unsigned)chars[i].cp,
                  utf8kit_status_name(st), m);
            free(q);
        }
        /* with text around it */
        {
            unsigned char buf[8];
            size_t m;
            buf[0] = 'x';
            memcpy(buf + 1, p, len);
            buf[len + 1] = 'y';
            q = dup_exact(buf, len + 2);
            st = utf8kit_decode((const char *)q + 1, len + 1, &cp, &m);
            CHECK(st == UTF8KIT_OK && cp == chars[i].cp && m == len, "decode U+%04X + 'y'",
                  (unsigned)chars[i].cp);
            st = utf8kit_decode_last((const char *)q, len + 1, &cp, &m);
            CHECK(st == UTF8KIT_OK && cp == chars[i].cp && m == len, "decode_last 'x' + U+%04X",
                  (unsigned)chars[i].cp);
            CHECK(utf8kit_next_boundary((const char *)q, len + 2, 1) == len + 1 &&
                      utf8kit_prev_boundary((const char *)q, len + 2, len + 1) == 1,
                  "boundaries around U+%04X", (unsigned)chars[i].cp);
            for (m = 2; m <= len; m++)
                CHECK(!utf8kit_is_boundary((const char *)q, len + 2, m),
                      "inside U+%04X at %zu", (unsigned)chars[i].cp, m);
            free(q);
        }
        free(p);
    }
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char out[4] = {'#', '#', '#', '#'};
        uint32_t cp;
        size_t n;
        unsigned char *p = dup_exact(refused[i].bytes, refused[i].len);
        utf8kit_status st;
        CHECK(utf8kit_encode(refused[i].cp, out) == 0 && out[0] == '#' && out[3] == '#',
              "encode 0x%X not refused", (unsigned)refused[i].cp);
        CHECK(utf8kit_encoded_length(refused[i].cp) == 0, "encoded_length 0x%X",
              (unsigned)refused[i].cp);
        st = utf8kit_decode((const char *)p, refused[i].len, &cp, &n);
        CHECK(st == refused[i].st && n == 1 && cp == 0xFFFD, "bytes of 0x%X: %s %zu",
              (unsigned)refused[i].cp, utf8kit_status_name(st), n);
        free(p);
    }
    for (i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        uint32_t cp;
        size_t n;
        unsigned char *p = dup_exact(invalid[i].bytes, invalid[i].len);
        utf8kit_status st = utf8kit_decode((const char *)p, invalid[i].len, &cp, &n);
        utf8kit_result r = utf8kit_validate((const char *)p, invalid[i].len);
        CHECK(st == invalid[i].st && n == invalid[i].n && cp == 0xFFFD,
              "invalid case %zu: %s n %zu", i, utf8kit_status_name(st), n);
        CHECK(r.status == invalid[i].st && r.read == 0 && r.error_len == invalid[i].n,
              "invalid case %zu: validate %s %zu", i, utf8kit_status_name(r.status), r.error_len);
        free(p);
    }
    /* the empty input */
    {
        uint32_t cp = 1;
        size_t n = 9;
        CHECK(utf8kit_decode(NULL, 0, &cp, &n) == UTF8KIT_ERR_TRUNCATED && n == 0,
              "decode of nothing");
        n = 9;
        CHECK(utf8kit_decode_last(NULL, 0, &cp, &n) == UTF8KIT_ERR_TRUNCATED && n == 0,
              "decode_last of nothing");
    }
}

static void test_sequence_length(void)
{
    unsigned b;
    for (b = 0; b < 256; b++) {
        size_t want = b <= 0x7F ? 1 : b <= 0xC1 ? 0 : b <= 0xDF ? 2 : b <= 0xEF ? 3 : b <= 0xF4 ? 4 : 0;
        CHECK(utf8kit_sequence_length((unsigned char)b) == want, "sequence_length(%02X) = %zu", b,
              utf8kit_sequence_length((unsigned char)b));
    }
}

static void test_decode_last(void)
{
    static const struct {
        const char *bytes;
        size_t len;
        utf8kit_status st;
        uint32_t cp;
        size_t n;
    } t[] = {
        {S("abc"), UTF8KIT_OK, 'c', 1},
        {S("a\xC3\xA9"), UTF8KIT_OK, 0xE9, 2},
        {S("\xE2\x82\xAC\xF0\x9F\x98\x80"), UTF8KIT_OK, 0x1F600, 4},
        {S("a\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("\xF0\x9F\x98\x80\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("\x80\x80\x80\x80\x80\x80\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("abc\xC3"), UTF8KIT_ERR_TRUNCATED, 0xFFFD, 1},
        {S("abc\xE2\x82"), UTF8KIT_ERR_TRUNCATED, 0xFFFD, 1},
        {S("\xF0\x9F\x98"), UTF8KIT_ERR_TRUNCATED, 0xFFFD, 1},
        {S("\xC0\xAE"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("\xED\xA0\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("x\xC0"), UTF8KIT_ERR_INVALID_LEAD, 0xFFFD, 1},
        {S("x\xFF"), UTF8KIT_ERR_INVALID_LEAD, 0xFFFD, 1},
        {S("\xF4\x90\x80\x80"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("\xE2\x82\xAC\x82\xAC"), UTF8KIT_ERR_STRAY_CONTINUATION, 0xFFFD, 1},
        {S("\xF1\x80\x80\x80"), UTF8KIT_OK, 0x40000, 4},
        {S("\x80\xF1\x80\x80\x80"), UTF8KIT_OK, 0x40000, 4},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint32_t cp;
        size_t n;
        unsigned char *p = dup_exact(t[i].bytes, t[i].len);
        utf8kit_status st = utf8kit_decode_last((const char *)p, t[i].len, &cp, &n);
        CHECK(st == t[i].st && cp == t[i].cp && n == t[i].n,
              "decode_last case %zu: %s U+%04X n %zu", i, utf8kit_status_name(st), (unsigned)cp, n);
        free(p);
    }
}

/* ---- boundaries ---------------------------------------------------------- */

/* Hand-written boundary lists (1 = a unit starts here). */
static const struct {
    const char *bytes;
    size_t len;
    const char *starts; /* one char per byte: 1 or 0 */
} btab[] = {
    {S("a\xC3\xA9z"), "1101"},
    {S("\xE2\x82\xAC\xF0\x9F\x98\x80"), "1001000"},
    {S("\x80\x80\x80"), "111"},
    {S("\xE2\x82\x41"), "101"},
    {S("\xE2\x82\xE2\x82\xAC"), "10100"},
    {S("\xF0\x9F\x98"), "100"},
    {S("\xF0\x80\x80\x80"), "1111"},
    {S("\xED\xA0\x80"), "111"},
    {S("\xC0\xAE"), "11"},
    {S("\xF4\x8F\xBF\xBF\xBF"), "10001"},
    {S("\xC2\xA9\xA9"), "101"},
    {S("\xF1\x80\x80\x80\x80\x80\x80\x80"), "10001111"},
};

static void test_boundary_table(void)
{
    size_t i, k;
    for (i = 0; i < sizeof btab / sizeof btab[0]; i++) {
        size_t len = btab[i].len;
        unsigned char *p = dup_exact(btab[i].bytes, len);
        for (k = 0; k <= len; k++) {
            bool want = k == len || btab[i].starts[k] == '1';
            CHECK(utf8kit_is_boundary((const char *)p, len, k) == want,
                  "boundary case %zu at %zu", i, k);
        }
        CHECK(!utf8kit_is_boundary((const char *)p, len, len + 1), "case %zu past the end", i);
        free(p);
    }
}

/* A random string of valid characters, invalid bytes and cut sequences. */
static size_t random_text(unsigned char *out, size_t max, bool valid_only)
{
    static const char *pieces[] = {"a", "Z", "\xC3\xA9", "\xDF\xBF", "\xE2\x82\xAC", "\xED\x9F\xBF",
                                   "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x9F\x98\x80",
                                   "\xF4\x8F\xBF\xBF", "\xF0\x90\x80\x80", "\xC2\x80"};
    static const char *bad[] = {"\x80", "\xBF", "\xC0", "\xC1\xBF", "\xE2\x82", "\xF0\x9F\x98",
                                "\xED\xA0\x80", "\xF4\x90", "\xF5", "\xFF", "\xE0\x80"};
    size_t n = 0, want = rnd_star() % max;
    while (n < want) {
        const char *pc = (!valid_only && rnd_star() % 4 == 0)
                             ? bad[rnd_star() % (sizeof bad / sizeof bad[0])]
                             : pieces[rnd_star() % (sizeof pieces / sizeof pieces[0])];
        size_t l = strlen(pc);
        if (n + l > max)
            break;
        memcpy(out + n, pc, l);
        n += l;
    }
    return n;
}

static void test_boundary_properties(void)
{
    unsigned t;
    for (t = 0; t < 3000; t++) {
        unsigned char tmp[64];
        size_t len = random_text(tmp, sizeof tmp, false), i, at, k = 0;
        unsigned char *p = dup_exact(tmp, len);
        const char *s = (const char *)p;
        bool isb[65] = {false};
        size_t units[65];
        /* the units, by replacement decoding */
        for (at = 0; at < len;) {
            uint32_t cp;
            size_t n;
            (void)utf8kit_decode(s + at, len - at, &cp, &n);
            isb[at] = true;
            units[k++] = at;
            at += n;
        }
        isb[len] = true;
        units[k] = len;
        for (i = 0; i <= len; i++) {
            CHECK(utf8kit_is_boundary(s, len, i) == isb[i], "random %u at %zu", t, i);
            if (isb[i] && i < len)
                CHECK(utf8kit_prev_boundary(s, len, utf8kit_next_boundary(s, len, i)) == i,
                      "random %u: prev(next(%zu))", t, i);
            if (isb[i] && i > 0)
                CHECK(utf8kit_next_boundary(s, len, utf8kit_prev_boundary(s, len, i)) == i,
                      "random %u: next(prev(%zu))", t, i);
            {
                size_t nb = utf8kit_next_boundary(s, len, i), pb = utf8kit_prev_boundary(s, len, i);
                size_t j;
                bool between = false;
                if (i < len) {
                    CHECK(nb > i && nb <= len && isb[nb], "random %u: next(%zu)", t, i);
                    for (j = i + 1; j < nb; j++)
                        between |= isb[j];
                }
                if (i > 0) {
                    CHECK(pb < i && isb[pb], "random %u: prev(%zu)", t, i);
                    for (j = pb + 1; j < i; j++)
                        between |= isb[j];
                }
                CHECK(!between, "random %u: a boundary skipped near %zu", t, i);
            }
        }
        CHECK(utf8kit_next_boundary(s, len, len) == len &&
                  utf8kit_next_boundary(s, len, len + 5) == len,
              "random %u: next at the end", t);
        CHECK(utf8kit_prev_boundary(s, len, 0) == 0 && utf8kit_prev_boundary(s, len, len + 7) == len,
              "random %u: prev at the ends", t);
        /* walking backwards gives the units in reverse */
        for (at = len, i = k; at > 0; i--)
            at = utf8kit_prev_boundary(s, len, at);
        CHECK(i == 0, "random %u: backward walk found %zu units too many/few", t, i);
        CHECK(utf8kit_count(s, len) == k, "random %u: count %zu, units %zu", t,
              utf8kit_count(s, len), k);
        /* decode_last agrees with the last unit */
        if (len) {
            uint32_t cp1, cp2;
            size_t n1, n2;
            utf8kit_status a = utf8kit_decode(s + units[k - 1], len - units[k - 1], &cp1, &n1);
            utf8kit_status b = utf8kit_decode_last(s, len, &cp2, &n2);
            CHECK(a == b && cp1 == cp2 && n2 == (a == UTF8KIT_OK ? n1 : 1),
                  "random %u: decode_last", t);
        }
        free(p);
    }
}

/* ---- counting -------------------------------------------------------------- */

static void test_count(void)
{
    static const struct {
        const char *bytes;
        size_t len, count, u16;
    } t[] = {
        {S(""), 0, 0},
        {S("abc"), 3, 3},
        {S("\x7F\xC2\x80"), 2, 2},
        {S("\xDF\xBF\xE0\xA0\x80"), 2, 2},
        {S("\xEF\xBF\xBF\xF0\x90\x80\x80"), 2, 3},
        {S("\xF4\x8F\xBF\xBF\xF4\x90\x80\x80"), 5, 6},
        {S("a\x80" "b"), 3, 3},
        {S("\xE2\x82"), 1, 1},
        {S("\xF0\x9F\x98"), 1, 1},
        {S("\xF0\x9F\x98\x80\xF0\x9F\x98"), 2, 3},
        {S("\xED\xA0\x80\xED\xB0\x80"), 6, 6},
        {S("\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41"), 9, 9},
        {S("\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41"), 5, 5},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned char *p = dup_exact(t[i].bytes, t[i].len);
        CHECK(utf8kit_count((const char *)p, t[i].len) == t[i].count, "count case %zu: %zu", i,
              utf8kit_count((const char *)p, t[i].len));
        CHECK(utf8kit_utf16_length((const char *)p, t[i].len) == t[i].u16,
              "utf16_length case %zu: %zu", i, utf8kit_utf16_length((const char *)p, t[i].len));
        free(p);
    }
    CHECK(utf8kit_count(NULL, 0) == 0 && utf8kit_utf16_length(NULL, 0) == 0, "NULL, 0");
    /* a long text: the ASCII fast path and the tail */
    {
        unsigned char *p = malloc(1003);
        size_t k;
        for (k = 0; k < 1000; k++)
            p[k] = (unsigned char)('a' + k % 26);
        memcpy(p + 1000, "\xF0\x9F\x98", 3);
        p[500] = 0xC3;
        p[501] = 0xA9;
        CHECK(utf8kit_count((const char *)p, 1003) == 1000, "long count %zu",
              utf8kit_count((const char *)p, 1003));
        CHECK(utf8kit_utf16_length((const char *)p, 1003) == 1000, "long utf16_length");
        free(p);
    }
}

/* ---- compare ------------------------------------------------------------- */

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_compare(void)
{
    static const struct {
        const char *a;
        size_t alen;
        const char *b;
        size_t blen;
        int want;
    } t[] = {
        {S(""), S(""), 0},
        {S(""), S("a"), -1},
        {S("a"), S("ab"), -1},
        {S("ab"), S("ab"), 0},
        {S("\x7F"), S("\xC2\x80"), -1},
        {S("\xDF\xBF"), S("\xE0\xA0\x80"), -1},
        {S("\xED\x9F\xBF"), S("\xEE\x80\x80"), -1},
        {S("\xEF\xBF\xBF"), S("\xF0\x90\x80\x80"), -1},
        {S("\xF0\x90\x80\x80"), S("\xF4\x8F\xBF\xBF"), -1},
        {S("\xC3\xA9"), S("e"), 1},
        {S("\x80"), S("\x7F"), 1}, /* invalid: unsigned byte order */
        {S("\xFF"), S("\xF4\x8F\xBF\xBF"), 1},
        {S("a\x00"), S("a"), 1},
    };
    size_t i;
    unsigned r;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned char *a = dup_exact(t[i].a, t[i].alen), *b = dup_exact(t[i].b, t[i].blen);
        CHECK(sign(utf8kit_compare((const char *)a, t[i].alen, (const char *)b, t[i].blen)) ==
                  t[i].want,
              "compare case %zu", i);
        CHECK(sign(utf8kit_compare((const char *)b, t[i].blen, (const char *)a, t[i].alen)) ==
                  -t[i].want,
              "compare case %zu reversed", i);
        free(a);
        free(b);
    }
    CHECK(utf8kit_compare(NULL, 0, NULL, 0) == 0, "NULL, NULL");
    CHECK(utf8kit_compare(NULL, 0, "a", 1) < 0, "NULL < a");
    /* Code point order on random valid strings (RFC 3629 section 1). */
    for (r = 0; r < 20000; r++) {
        unsigned char ta[24], tb[24];
        size_t al = random_text(ta, sizeof ta, true), bl;
        uint32_t ca[24], cb[24];
        size_t na = 0, nb = 0, at, k;
        int want = 0;
        if (r % 3 == 0) {
            /* share a prefix so that the difference comes late */
            bl = al ? rnd_star() % al : 0;
            bl = utf8kit_prev_boundary((const char *)ta, al, bl + 1);
            memcpy(tb, ta, bl);
            bl += random_text(tb + bl, sizeof tb - bl, true);
        } else {
            bl = random_text(tb, sizeof tb, true);
        }
        for (at = 0; at < al;) {
            size_t n;
            (void)utf8kit_decode((const char *)ta + at, al - at, &ca[na++], &n);
            at += n;
        }
        for (at = 0; at < bl;) {
            size_t n;
            (void)utf8kit_decode((const char *)tb + at, bl - at, &cb[nb++], &n);
            at += n;
        }
        for (k = 0; k < na && k < nb && !want; k++)
            want = ca[k] < cb[k] ? -1 : ca[k] > cb[k];
        if (!want)
            want = na < nb ? -1 : na > nb;
        {
            unsigned char *a = dup_exact(ta, al), *b = dup_exact(tb, bl);
            CHECK(sign(utf8kit_compare((const char *)a, al, (const char *)b, bl)) == want,
                  "random compare %u", r);
            free(a);
            free(b);
        }
    }
}

/* ---- find ---------------------------------------------------------------- */

static void test_find(void)
{
    static const struct {
        const char *hay;
        size_t hlen;
        const char *needle;
        size_t nlen;
        size_t want;
    } t[] = {
        {S(""), S(""), 0},
        {S("abc"), S(""), 0},
        {S(""), S("a"), UTF8KIT_NOT_FOUND},
        {S("abc"), S("abcd"), UTF8KIT_NOT_FOUND},
        {S("abcabc"), S("ca"), 2},
        {S("abc\xC2\xA9" "d"), S("\xC2\xA9"), 3},
        {S("\xC3\x80"), S("\x80"), UTF8KIT_NOT_FOUND},
        {S("\xC2\xA9"), S("\xA9"), UTF8KIT_NOT_FOUND},
        {S("\xE2\x82\xAC"), S("\xE2\x82"), UTF8KIT_NOT_FOUND},
        {S("\xE2\x82\xAC"), S("\x82\xAC"), UTF8KIT_NOT_FOUND},
        {S("\xF0\x9F\x98\x80"), S("\x9F\x98"), UTF8KIT_NOT_FOUND},
        {S("\xF0\x9F\x98\x80"), S("\xF0\x9F\x98\x80"), 0},
        /* invalid hay: E2 82 at 0 is a unit of its own (missing
         * continuation), the same bytes at 2 begin a character */
        {S("\xE2\x82\xE2\x82\xAC"), S("\xE2\x82"), 0},
        {S("x\xE2\x82\xAC\xE2\x82"), S("\xE2\x82"), 4},
        /* a stray continuation is a unit: found after the one inside */
        {S("\xE2\x82\xAC\xAC"), S("\xAC"), 3},
        {S("\xC0\xAE"), S("\xAE"), 1},
        {S("\xE2\x82\xAC\xE2\x82\xAC"), S("\xAC\xE2"), UTF8KIT_NOT_FOUND},
        {S("\xC3\xA9\xC3\xA9"), S("\xA9\xC3"), UTF8KIT_NOT_FOUND},
        {S("\xC3\xA9\xC3\xA9"), S("\xC3\xA9"), 0},
        {S("a\xC3\xA9" "b\xC3\xA9"), S("\xC3\xA9" "b"), 1},
    };
    size_t i;
    unsigned r;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned char *h = dup_exact(t[i].hay, t[i].hlen), *n = dup_exact(t[i].needle, t[i].nlen);
        size_t got = utf8kit_find((const char *)h, t[i].hlen, (const char *)n, t[i].nlen);
        CHECK(got == t[i].want, "find case %zu: %zu", i, got);
        free(h);
        free(n);
    }
    CHECK(utf8kit_find(NULL, 0, NULL, 0) == 0, "find NULL NULL");
    /* random hay, needles cut from it: the first match whose ends are
     * boundaries, by brute force */
    for (r = 0; r < 20000; r++) {
        unsigned char th[48];
        size_t hl = random_text(th, sizeof th, r % 2 == 0), a, b, k, want = UTF8KIT_NOT_FOUND;
        unsigned char *h, *nd;
        if (hl == 0)
            continue;
        a = rnd_star() % hl;
        b = a + 1 + rnd_star() % (hl - a < 5 ? hl - a : 5);
        h = dup_exact(th, hl);
        nd = dup_exact(th + a, b - a);
        for (k = 0; k + (b - a) <= hl && want == UTF8KIT_NOT_FOUND; k++)
            if (memcmp(th + k, th + a, b - a) == 0 && utf8kit_is_boundary((const char *)h, hl, k) &&
                utf8kit_is_boundary((const char *)h, hl, k + (b - a)))
                want = k;
        CHECK(utf8kit_find((const char *)h, hl, (const char *)nd, b - a) == want,
              "random find %u", r);
        /* on valid text a needle that is a whole character is always found */
        if (r % 2 == 0 && utf8kit_is_boundary((const char *)h, hl, a)) {
            size_t e = utf8kit_next_boundary((const char *)h, hl, a);
            size_t got = utf8kit_find((const char *)h, hl, (const char *)h + a, e - a);
            CHECK(got != UTF8KIT_NOT_FOUND && got <= a, "random find %u: character not found", r);
        }
        free(h);
        free(nd);
    }
}

int main(void)
{
    test_begin();
    test_seed(0x2545F4914F6CDD1Du);
    test_encode_decode();
    test_sequence_length();
    test_decode_last();
    test_boundary_table();
    test_boundary_properties();
    test_count();
    test_compare();
    test_find();
    return test_done("chars");
}
