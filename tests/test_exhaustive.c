/*
 * test_exhaustive.c - every code point, every input of 1 to 3 bytes and
 * (with the shortcuts explained at sweep4_full) every input of 4 bytes, checked
 * against an independent checker written here from the ABNF of RFC 3629
 * section 4 and the error kinds of include/utf8kit.h.
 *
 * The checker has a different shape from src/scalar/decode.c on purpose: it
 * tries each alternative of the grammar in turn, as a regex engine would,
 * and keeps the longest matched prefix. That longest prefix is the maximal
 * subpart of the Unicode rule (testdata/README.md); when it runs into the
 * end of the input the sequence is truncated. The error kind is derived
 * from what the bytes would mean, as the header's enum describes it.
 *
 * UTF8KIT_TEST_QUICK=1 (sanitizers, valgrind) or a kernel other than
 * scalar: the 4-byte sweep takes every first byte with a representative
 * byte of every class for bytes 2 to 4, and every input is also placed in
 * a 64-byte ASCII buffer at its end and across the 32-byte mid-point.
 * On every kernel, every input of 1 to 3 bytes is also placed among
 * 2-octet characters, at and across an 8-byte word boundary (and inputs
 * of 4 bytes, and the representative shorter ones, among 4-octet
 * characters). There each is also converted (strict) to UTF-32, UTF-16LE
 * and Latin-1 (check_transcode): with characters before and after it,
 * the transcoders meet it on their paths for text inside an input, not
 * on those for its last bytes.
 */
#include "testlib.h"

#include <time.h>

/* ---- the independent checker -------------------------------------------- */

struct rng {
    unsigned char lo, hi;
};
#define TAIL {0x80, 0xBF} /* UTF8-tail = %x80-BF */

/* RFC 3629 section 4, one line per alternative. */
static const struct {
    unsigned n;
    struct rng r[4];
} grammar[] = {
    {1, {{0x00, 0x7F}}},                          /* UTF8-1 */
    {2, {{0xC2, 0xDF}, TAIL}},                    /* UTF8-2 */
    {3, {{0xE0, 0xE0}, {0xA0, 0xBF}, TAIL}},      /* UTF8-3 */
    {3, {{0xE1, 0xEC}, TAIL, TAIL}},
    {3, {{0xED, 0xED}, {0x80, 0x9F}, TAIL}},
    {3, {{0xEE, 0xEF}, TAIL, TAIL}},
    {4, {{0xF0, 0xF0}, {0x90, 0xBF}, TAIL, TAIL}}, /* UTF8-4 */
    {4, {{0xF1, 0xF3}, TAIL, TAIL, TAIL}},
    {4, {{0xF4, 0xF4}, {0x80, 0x8F}, TAIL, TAIL}},
};
#define N_ALT (sizeof grammar / sizeof grammar[0])

/* Byte ranges the header's kinds name beyond the grammar. */
static const struct rng kind_ranges[] = {{0x80, 0xBF}, {0xC0, 0xC1}, {0xF5, 0xF7}};

static bool in(unsigned char b, struct rng r) { return b >= r.lo && b <= r.hi; }

/* Smallest value each length may encode (RFC 3629 section 3 table). */
static const uint32_t min_value[5] = {0, 0, 0x80, 0x800, 0x10000};

struct unit {
    int st;       /* utf8kit_status, or -1: the checker could not say why */
    unsigned n;   /* character length, or subpart length (to the end if truncated) */
};

/* The character or maximal invalid subpart at s[0..len), len >= 1. */
static struct unit oracle_unit(const unsigned char *s, size_t len)
{
    struct unit u = {-1, 1};
    unsigned best = 0, best_alt = 0, a, k;
    for (a = 0; a < N_ALT; a++) {
        for (k = 0; k < grammar[a].n && k < len && in(s[k], grammar[a].r[k]); k++)
            ;
        if (k == grammar[a].n) {
            u.st = UTF8KIT_OK;
            u.n = k;
            return u;
        }
        if (k > best) {
            best = k;
            best_alt = a;
        }
    }
    if (best == 0) {
        /* No character starts with this byte. */
        bool cont_next = len >= 2 && in(s[1], (struct rng)TAIL);
        u.n = 1;
        if (in(s[0], (struct rng)TAIL))
            u.st = UTF8KIT_ERR_STRAY_CONTINUATION;
        else if (cont_next && in(s[0], kind_ranges[1]))
            u.st = UTF8KIT_ERR_OVERLONG;   /* C0/C1 xx: 2 octets for < U+0080 */
        else if (cont_next && in(s[0], kind_ranges[2]))
            u.st = UTF8KIT_ERR_TOO_LARGE;  /* F5..F7 xx: above U+10FFFF */
        else
            u.st = UTF8KIT_ERR_INVALID_LEAD;
        return u;
    }
    u.n = best;
    if (best == len) {
        u.st = UTF8KIT_ERR_TRUNCATED;
    } else if (!in(s[best], (struct rng)TAIL)) {
        u.st = UTF8KIT_ERR_MISSING_CONTINUATION;
    } else {
        /* A continuation byte out of the allowed range: what values could
         * the sequence encode with these first best+1 bytes? */
        unsigned L = grammar[best_alt].n, rest = 6 * (L - 1 - best);
        uint32_t v = s[0] & (0x7Fu >> L);
        for (k = 1; k <= best; k++)
            v = v << 6 | (s[k] & 0x3Fu);
        {
            uint32_t vmin = v << rest, vmax = vmin | ((1u << rest) - 1);
            if (vmax < min_value[L])
                u.st = UTF8KIT_ERR_OVERLONG;
            else if (vmin >= 0xD800 && vmax <= 0xDFFF)
                u.st = UTF8KIT_ERR_SURROGATE;
            else if (vmin > 0x10FFFF)
                u.st = UTF8KIT_ERR_TOO_LARGE;
        }
    }
    return u;
}

/* The forward decomposition of an input of up to 4 bytes. */
struct decomp {
    unsigned char filled, nunits;
    unsigned char start[4], n[4];
    signed char st[4];
    /* the validate answer */
    signed char vst;
    unsigned char vread, velen;
};

static void oracle_decomp(const unsigned char *s, size_t len, struct decomp *d)
{
    size_t i = 0;
    d->nunits = 0;
    d->vst = UTF8KIT_OK;
    d->vread = (unsigned char)len;
    d->velen = 0;
    while (i < len) {
        struct unit u = oracle_unit(s + i, len - i);
        d->start[d->nunits] = (unsigned char)i;
        d->n[d->nunits] = (unsigned char)u.n;
        d->st[d->nunits] = (signed char)u.st;
        if (u.st != UTF8KIT_OK && d->vst == UTF8KIT_OK) {
            d->vst = (signed char)u.st;
            d->vread = (unsigned char)i;
            d->velen = (unsigned char)u.n;
        }
        d->nunits++;
        i += u.n;
    }
    d->filled = 1;
}

/* The code point of a valid sequence (RFC 3629 section 3 bit layout). */
static uint32_t value_of(const unsigned char *s, unsigned n)
{
    uint32_t v;
    unsigned k;
    if (n == 1)
        return s[0];
    v = s[0] & (0x7Fu >> n);
    for (k = 1; k < n; k++)
        v = v << 6 | (s[k] & 0x3Fu);
    return v;
}

/* The checker only ever asks which of the ranges above a byte lies in, so
 * its answer depends on the bytes' classes alone: it is computed once per
 * tuple of classes (memo) and checked on random inputs (check_memo). */
static unsigned char cls[256];
static unsigned ncls;

static void build_classes(void)
{
    uint64_t sig[256];
    unsigned b, a, k, bit;
    for (b = 0; b < 256; b++) {
        sig[b] = 0;
        bit = 0;
        for (a = 0; a < N_ALT; a++)
            for (k = 0; k < grammar[a].n; k++, bit++)
                if (in((unsigned char)b, grammar[a].r[k]))
                    sig[b] |= UINT64_C(1) << bit;
        for (k = 0; k < sizeof kind_ranges / sizeof kind_ranges[0]; k++, bit++)
            if (in((unsigned char)b, kind_ranges[k]))
                sig[b] |= UINT64_C(1) << bit;
        for (a = 0; a < b && sig[a] != sig[b]; a++)
            ;
        cls[b] = a < b ? cls[a] : (unsigned char)ncls++;
    }
}

static struct decomp *memo[5];

static const struct decomp *expect(const unsigned char *s, size_t len)
{
    size_t key = 0, i;
    struct decomp *d;
    for (i = 0; i < len; i++)
        key = key * 16 + cls[s[i]];
    d = &memo[len][key];
    if (!d->filled)
        oracle_decomp(s, len, d);
    return d;
}

static void check_memo(void)
{
    unsigned t, bad = 0;
    for (t = 0; t < 200000; t++) {
        unsigned char s[4];
        size_t len = 1 + rnd_star() % 4, i;
        struct decomp direct;
        const struct decomp *m;
        for (i = 0; i < len; i++)
            s[i] = (unsigned char)rnd_star();
        oracle_decomp(s, len, &direct);
        m = expect(s, len);
        if (direct.nunits != m->nunits || direct.vst != m->vst || direct.vread != m->vread ||
            direct.velen != m->velen || memcmp(direct.n, m->n, direct.nunits) != 0 ||
            memcmp(direct.st, m->st, direct.nunits) != 0)
            bad++;
    }
    CHECK(bad == 0, "byte classes do not capture the checker (%u inputs)", bad);
}

/* The checker itself on cases whose answers are written in the header. */
static void check_oracle(void)
{
    static const struct {
        const char *s;
        size_t len;
        int st;
        unsigned n;
    } t[] = {
        {"\x41", 1, UTF8KIT_OK, 1},
        {"\xC2\xA9", 2, UTF8KIT_OK, 2},
        {"\xF4\x8F\xBF\xBF", 4, UTF8KIT_OK, 4},
        {"\x80", 1, UTF8KIT_ERR_STRAY_CONTINUATION, 1},
        {"\xC0\x80", 2, UTF8KIT_ERR_OVERLONG, 1},
        {"\xC1\x41", 2, UTF8KIT_ERR_INVALID_LEAD, 1},
        {"\xF5\x80", 2, UTF8KIT_ERR_TOO_LARGE, 1},
        {"\xF8\x80", 2, UTF8KIT_ERR_INVALID_LEAD, 1},
        {"\xFF", 1, UTF8KIT_ERR_INVALID_LEAD, 1},
        {"\xE0\x9F\x80", 3, UTF8KIT_ERR_OVERLONG, 1},
        {"\xED\xA0\x80", 3, UTF8KIT_ERR_SURROGATE, 1},
        {"\xF0\x8F\x80\x80", 4, UTF8KIT_ERR_OVERLONG, 1},
        {"\xF4\x90\x80\x80", 4, UTF8KIT_ERR_TOO_LARGE, 1},
        {"\xE2\x82\x41", 3, UTF8KIT_ERR_MISSING_CONTINUATION, 2},
        {"\xF1\x80\x80\xC0", 4, UTF8KIT_ERR_MISSING_CONTINUATION, 3},
        {"\xF1\x80\x80", 3, UTF8KIT_ERR_TRUNCATED, 3},
        {"\xE0\xA0", 2, UTF8KIT_ERR_TRUNCATED, 2},
        {"\xE0", 1, UTF8KIT_ERR_TRUNCATED, 1},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct unit u = oracle_unit((const unsigned char *)t[i].s, t[i].len);
        CHECK(u.st == t[i].st && u.n == t[i].n, "checker case %zu: %d/%u", i, u.st, u.n);
    }
}

/* ---- comparing the library with the checker -------------------------------- */

static unsigned long inputs_checked;

/* validate, is_valid and decode at 0 of buf[0..len) (an exact block). */
static void check_validate(const unsigned char *buf, size_t len, const struct decomp *d,
                           bool with_decode)
{
    utf8kit_result r = utf8kit_validate((const char *)buf, len);
    inputs_checked++;
    if (r.status != (utf8kit_status)d->vst || r.read != d->vread || r.error_len != d->velen) {
        CHECK(0, "%02X %02X %02X %02X (len %zu): validate %s read %zu len %zu, want %s %u %u",
              buf[0], len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len > 3 ? buf[3] : 0, len,
              utf8kit_status_name(r.status), r.read, r.error_len,
              utf8kit_status_name((utf8kit_status)d->vst), d->vread, d->velen);
    }
    if (with_decode) {
        uint32_t cp;
        size_t n;
        utf8kit_status st = utf8kit_decode((const char *)buf, len, &cp, &n);
        uint32_t want = d->st[0] == UTF8KIT_OK ? value_of(buf, d->n[0]) : 0xFFFD;
        if (st != (utf8kit_status)d->st[0] || n != d->n[0] || cp != want)
            CHECK(0, "%02X %02X %02X %02X (len %zu): decode %s n %zu U+%04X, want %s %u U+%04X",
                  buf[0], len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len > 3 ? buf[3] : 0, len,
                  utf8kit_status_name(st), n, (unsigned)cp,
                  utf8kit_status_name((utf8kit_status)d->st[0]), d->n[0], (unsigned)want);
        if (utf8kit_is_valid((const char *)buf, len) != (d->vst == UTF8KIT_OK))
            CHECK(0, "%02X.. (len %zu): is_valid", buf[0], len);
    }
}

/* Boundaries, decode_last and counts of buf[0..len) against the checker's
 * forward decomposition. */
static void check_boundaries(const unsigned char *buf, size_t len, const struct decomp *d)
{
    bool isb[6] = {false};
    size_t i, u, next, prev, u16 = 0;
    const char *s = (const char *)buf;
    uint32_t cp, want_cp;
    size_t n;
    utf8kit_status st;
    for (u = 0; u < d->nunits; u++) {
        isb[d->start[u]] = true;
        u16 += (d->st[u] == UTF8KIT_OK && d->n[u] == 4) ? 2 : 1;
    }
    isb[len] = true;
    /* Offsets 0, len and beyond have fixed answers; they are checked on
     * the inputs of 1 and 2 bytes, the offsets inside on all of them. */
    for (i = 0; i <= len + 1; i++) {
        bool edges = len < 3;
        if (edges || (i > 0 && i < len)) {
            bool got = utf8kit_is_boundary(s, len, i);
            if (got != (i <= len && isb[i]))
                CHECK(0, "%02X %02X %02X (len %zu): is_boundary(%zu) = %d", buf[0],
                      len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len, i, got);
        }
        if (edges || i < len) {
            for (next = i + 1; next < len && !isb[next]; next++)
                ;
            if (i >= len)
                next = len;
            if (utf8kit_next_boundary(s, len, i) != next)
                CHECK(0, "%02X %02X %02X (len %zu): next_boundary(%zu) = %zu, want %zu", buf[0],
                      len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len, i,
                      utf8kit_next_boundary(s, len, i), next);
        }
        if (edges || (i > 0 && i <= len)) {
            if (i == 0)
                prev = 0;
            else if (i > len)
                prev = len;
            else
                for (prev = i - 1; !isb[prev]; prev--)
                    ;
            if (utf8kit_prev_boundary(s, len, i) != prev)
                CHECK(0, "%02X %02X %02X (len %zu): prev_boundary(%zu) = %zu, want %zu", buf[0],
                      len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len, i,
                      utf8kit_prev_boundary(s, len, i), prev);
        }
    }
    u = d->nunits - 1u;
    st = utf8kit_decode_last(s, len, &cp, &n);
    want_cp = d->st[u] == UTF8KIT_OK ? value_of(buf + d->start[u], d->n[u]) : 0xFFFD;
    if (st != (utf8kit_status)d->st[u] || cp != want_cp ||
        n != (d->st[u] == UTF8KIT_OK ? d->n[u] : 1u))
        CHECK(0, "%02X %02X %02X (len %zu): decode_last %s U+%04X n %zu, want %s U+%04X", buf[0],
              len > 1 ? buf[1] : 0, len > 2 ? buf[2] : 0, len, utf8kit_status_name(st),
              (unsigned)cp, n, utf8kit_status_name((utf8kit_status)d->st[u]), (unsigned)want_cp);
    if (utf8kit_count(s, len) != d->nunits)
        CHECK(0, "%02X %02X %02X (len %zu): count %zu, want %u", buf[0], len > 1 ? buf[1] : 0,
              len > 2 ? buf[2] : 0, len, utf8kit_count(s, len), d->nunits);
    if (utf8kit_utf16_length(s, len) != u16)
        CHECK(0, "%02X.. (len %zu): utf16_length", buf[0], len);
}

/* The same input inside a 64-byte block of ASCII: at its very end, and
 * starting at `mid` with ASCII after it. A truncated sequence followed by
 * an ASCII byte is missing a continuation instead. */
static unsigned char *pad64;

static void check_embedded(const unsigned char *in, size_t len, const struct decomp *d,
                           size_t nmids)
{
    static const size_t mids[] = {31, 29};
    size_t m;
    utf8kit_result r;
    memcpy(pad64 + 64 - len, in, len);
    r = utf8kit_validate((const char *)pad64, 64);
    if (r.status != (utf8kit_status)d->vst || r.read != 64 - len + d->vread ||
        r.error_len != d->velen)
        CHECK(0, "%02X %02X %02X %02X at end of 64: %s %zu %zu", in[0], len > 1 ? in[1] : 0,
              len > 2 ? in[2] : 0, len > 3 ? in[3] : 0, utf8kit_status_name(r.status), r.read,
              r.error_len);
    if (utf8kit_is_valid((const char *)pad64, 64) != (d->vst == UTF8KIT_OK))
        CHECK(0, "%02X.. at end of 64: is_valid", in[0]);
    memset(pad64 + 64 - len, 'x', len);
    for (m = 0; m < nmids && m < sizeof mids / sizeof mids[0]; m++) {
        utf8kit_status want =
            d->vst == UTF8KIT_ERR_TRUNCATED ? UTF8KIT_ERR_MISSING_CONTINUATION : (utf8kit_status)d->vst;
        memcpy(pad64 + mids[m], in, len);
        r = utf8kit_validate((const char *)pad64, 64);
        if (r.status != want || r.read != (want ? mids[m] + d->vread : 64) ||
            r.error_len != d->velen)
            CHECK(0, "%02X %02X %02X %02X at %zu of 64: %s %zu %zu", in[0], len > 1 ? in[1] : 0,
                  len > 2 ? in[2] : 0, len > 3 ? in[3] : 0, mids[m],
                  utf8kit_status_name(r.status), r.read, r.error_len);
        memset(pad64 + mids[m], 'x', len);
    }
    inputs_checked += 1 + nmids;
}

/* Whether conversion r stopped as the checker says: st (UTF8KIT_OK: at
 * the end) at offset `at`, an error of elen bytes, n units written. */
static bool stopped_as(utf8kit_result r, utf8kit_status st, size_t at, size_t elen, size_t n)
{
    return r.status == st && r.read == at && r.error_len == elen && r.written == n;
}

static void report_transcode(const char *to, const unsigned char *buf, size_t end,
                             utf8kit_result r, utf8kit_status st, size_t at, size_t elen,
                             size_t n)
{
    CHECK(0, "%02X %02X %02X ... (%zu bytes) to %s: %s read %zu len %zu written %zu, want %s "
             "%zu %zu %zu", buf[0], buf[1], buf[2], end, to, utf8kit_status_name(r.status),
          r.read, r.error_len, r.written, utf8kit_status_name(st), at, elen, n);
}

/* The strict conversions of buf[0..end) to UTF-32, UTF-16LE and Latin-1,
 * given the characters the checker finds before the first error (ncp of
 * them: values cp, offsets off, lengths len) and that error (st at `at`,
 * elen bytes; UTF8KIT_OK: none): each stops there with those characters
 * converted, except that Latin-1 stops first at a character above U+00FF
 * (UNREPRESENTABLE, its length). */
static void check_transcode(const unsigned char *buf, size_t end, const uint32_t *cp,
                            const size_t *off, const size_t *len, size_t ncp, utf8kit_status st,
                            size_t at, size_t elen)
{
    uint32_t u32[96];
    uint16_t u16[192], want16[192];
    unsigned char l1[96];
    const unsigned char *b16 = (const unsigned char *)u16; /* little-endian units */
    utf8kit_result r;
    size_t k, n16 = 0, nl1;
    bool ok;
    r = utf8kit_utf8_to_utf32((const char *)buf, end, u32, 96, UTF8KIT_STRICT);
    ok = stopped_as(r, st, at, elen, ncp);
    for (k = 0; ok && k < ncp; k++)
        ok = u32[k] == cp[k];
    if (!ok)
        report_transcode("UTF-32", buf, end, r, st, at, elen, ncp);
    for (k = 0; k < ncp; k++) {
        if (cp[k] < 0x10000) {
            want16[n16++] = (uint16_t)cp[k];
        } else {
            want16[n16++] = (uint16_t)(0xD800u | (cp[k] - 0x10000u) >> 10);
            want16[n16++] = (uint16_t)(0xDC00u | (cp[k] & 0x3FFu));
        }
    }
    r = utf8kit_utf8_to_utf16le((const char *)buf, end, u16, 192, UTF8KIT_STRICT);
    ok = stopped_as(r, st, at, elen, n16);
    for (k = 0; ok && k < n16; k++)
        ok = (b16[2 * k] | b16[2 * k + 1] << 8) == want16[k];
    if (!ok)
        report_transcode("UTF-16LE", buf, end, r, st, at, elen, n16);
    for (nl1 = 0; nl1 < ncp && cp[nl1] <= 0xFF; nl1++)
        ;
    if (nl1 < ncp) {
        st = UTF8KIT_ERR_UNREPRESENTABLE;
        at = off[nl1];
        elen = len[nl1];
    }
    r = utf8kit_utf8_to_latin1((const char *)buf, end, (char *)l1, 96, UTF8KIT_STRICT);
    ok = stopped_as(r, st, at, elen, nl1);
    for (k = 0; ok && k < nl1; k++)
        ok = l1[k] == cp[k];
    if (!ok)
        report_transcode("Latin-1", buf, end, r, st, at, elen, nl1);
}

/* The same input among copies of a character `ch` of `n` bytes: after
 * off[0] or off[1] bytes of them, with `after` more after it. The scalar
 * kernel takes text of 2-, 3- and 4-octet characters eight bytes at a
 * time (two_octet_words, three_octet_words and four_octet_words in
 * src/scalar/decode.c): the offsets put the input at and across the start
 * of an 8-byte word, or at each place of a 3-octet word step. What
 * follows the input starts with a lead, so a truncated sequence is
 * missing a continuation, as before ASCII. The strict conversions of the
 * same bytes are checked too (check_transcode). */
static void check_among(const unsigned char *in, size_t len, const struct decomp *d,
                        const char *ch, size_t n, const size_t off[2], size_t after)
{
    unsigned char buf[96];
    size_t m, k, end;
    utf8kit_status want =
        d->vst == UTF8KIT_ERR_TRUNCATED ? UTF8KIT_ERR_MISSING_CONTINUATION : (utf8kit_status)d->vst;
    for (m = 0; m < 2; m++) {
        utf8kit_result r;
        for (k = 0; k < off[m]; k += n)
            memcpy(buf + k, ch, n);
        memcpy(buf + off[m], in, len);
        end = off[m] + len;
        for (k = 0; k < after; k++, end += n)
            memcpy(buf + end, ch, n);
        r = utf8kit_validate((const char *)buf, end);
        if (r.status != want || r.read != (want ? off[m] + d->vread : end) ||
            r.error_len != d->velen)
            CHECK(0, "%02X %02X %02X %02X at %zu among %02X..: %s %zu %zu", in[0],
                  len > 1 ? in[1] : 0, len > 2 ? in[2] : 0, len > 3 ? in[3] : 0, off[m],
                  (unsigned char)ch[0], utf8kit_status_name(r.status), r.read, r.error_len);
        if (utf8kit_is_valid((const char *)buf, end) != (want == UTF8KIT_OK))
            CHECK(0, "%02X.. at %zu among %02X..: is_valid", in[0], off[m], (unsigned char)ch[0]);
        {
            /* the characters before the first error: the copies, the
             * input's units, and (input valid) the copies after it */
            uint32_t cp[40];
            size_t coff[40], clen[40], ncp = 0, u;
            uint32_t chv = value_of((const unsigned char *)ch, (unsigned)n);
            for (k = 0; k < off[m]; k += n, ncp++) {
                cp[ncp] = chv;
                coff[ncp] = k;
                clen[ncp] = n;
            }
            for (u = 0; u < d->nunits && d->st[u] == UTF8KIT_OK; u++, ncp++) {
                cp[ncp] = value_of(in + d->start[u], d->n[u]);
                coff[ncp] = off[m] + d->start[u];
                clen[ncp] = d->n[u];
            }
            for (k = off[m] + len; want == UTF8KIT_OK && k < end; k += n, ncp++) {
                cp[ncp] = chv;
                coff[ncp] = k;
                clen[ncp] = n;
            }
            check_transcode(buf, end, cp, coff, clen, ncp, want, want ? off[m] + d->vread : end,
                            d->velen);
        }
    }
    inputs_checked += 2;
}

/* among C3 A9 (U+00E9): an input of 3 bytes at 54 crosses the word at 56 */
static const size_t two_octet_offs[2] = {54, 56};
/* among F0 9F 98 80 (U+1F600): at 60 the input starts in the second half
 * of a word, at 64 it starts one */
static const size_t four_octet_offs[2] = {60, 64};

static void check_among_two_octet(const unsigned char *in, size_t len, const struct decomp *d)
{
    check_among(in, len, d, "\xC3\xA9", 2, two_octet_offs, 3);
}

static void check_among_four_octet(const unsigned char *in, size_t len, const struct decomp *d)
{
    check_among(in, len, d, "\xF0\x9F\x98\x80", 4, four_octet_offs, 3);
}

/* among E4 B8 80 (U+4E00). three_octet_words runs only with at least 67
 * bytes left, from the first copy here, and checks six bytes a word, two
 * words a step while 14 bytes are left, then one. With three copies
 * after: at 63 the input is the second half of a step's first word (of a
 * lone word, for inputs of 1 byte), at 66 the first half of its second
 * word. With six after: at 60 the first half of a step's first word, at
 * 69 the second half of its second word. */
static const size_t three_octet_offs3[2] = {63, 66};
static const size_t three_octet_offs6[2] = {60, 69};

static void check_among_three_octet(const unsigned char *in, size_t len, const struct decomp *d)
{
    check_among(in, len, d, "\xE4\xB8\x80", 3, three_octet_offs3, 3);
    check_among(in, len, d, "\xE4\xB8\x80", 3, three_octet_offs6, 6);
}

/* ---- the sweeps ------------------------------------------------------------ */

static void sweep_code_points(bool cp_quick)
{
    unsigned char *out = dup_exact("\0\0\0\0", 4);
    unsigned char prev[4];
    size_t prev_n = 0;
    uint32_t cp;
    unsigned long bad = 0;
    for (cp = 0; cp <= 0x10FFFF + 0x10000u; cp++) {
        size_t n, want_n, m;
        /* quick: every value below U+1000, and elsewhere 1 in 17 and the
         * ends of every 4096-block */
        if (cp_quick && cp >= 0x1000 && cp % 17 != 0 && ((cp + 2) & 0xFFF) > 3)
            continue;
        uint32_t back;
        utf8kit_status st;
        bool refused = (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF;
        want_n = refused ? 0 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        memset(out, 0xAA, 4);
        n = utf8kit_encode(cp, (char *)out);
        if (n != want_n || utf8kit_encoded_length(cp) != want_n) {
            if (bad++ < 20)
                CHECK(0, "U+%04X: encode gave %zu, encoded_length %zu, want %zu", (unsigned)cp,
                      n, utf8kit_encoded_length(cp), want_n);
            continue;
        }
        if (refused) {
            if (out[0] != 0xAA || out[1] != 0xAA || out[2] != 0xAA || out[3] != 0xAA)
                CHECK(0, "U+%04X: refused but wrote bytes", (unsigned)cp);
            continue;
        }
        {
            struct decomp d;
            oracle_decomp(out, n, &d);
            if (d.nunits != 1 || d.st[0] != UTF8KIT_OK || value_of(out, (unsigned)n) != cp)
                CHECK(0, "U+%04X: encoded bytes not the checker's form of it", (unsigned)cp);
        }
        st = utf8kit_decode((const char *)out, n, &back, &m);
        if (st != UTF8KIT_OK || back != cp || m != n)
            CHECK(0, "U+%04X: decode gave %s U+%04X n %zu", (unsigned)cp,
                  utf8kit_status_name(st), (unsigned)back, m);
        st = utf8kit_decode_last((const char *)out, n, &back, &m);
        if (st != UTF8KIT_OK || back != cp || m != n)
            CHECK(0, "U+%04X: decode_last gave %s U+%04X n %zu", (unsigned)cp,
                  utf8kit_status_name(st), (unsigned)back, m);
        /* RFC 3629 section 1: byte order is code point order. */
        if (prev_n && utf8kit_compare((const char *)prev, prev_n, (const char *)out, n) >= 0)
            CHECK(0, "U+%04X sorts before the previous code point", (unsigned)cp);
        memcpy(prev, out, n);
        prev_n = n;
    }
    {
        static const uint32_t big[] = {0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000,
                                       0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu};
        size_t i;
        for (i = 0; i < sizeof big / sizeof big[0]; i++) {
            memset(out, 0xAA, 4);
            CHECK(utf8kit_encode(big[i], (char *)out) == 0 && out[0] == 0xAA &&
                      utf8kit_encoded_length(big[i]) == 0,
                  "0x%X not refused", (unsigned)big[i]);
        }
    }
    CHECK(bad == 0, "%lu code points with a wrong encoded length", bad);
    free(out);
}

/* Representative bytes: both ends of every class, and a few inside; the
 * quick set keeps the ends only. */
static const unsigned char reps_full[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                          0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                          0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF};
static const unsigned char reps_quick[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                           0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED,
                                           0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
static const unsigned char *reps = reps_full;
static size_t N_REPS = sizeof reps_full;

static bool rep_table[256];

static void set_reps(const unsigned char *r, size_t n)
{
    size_t i;
    reps = r;
    N_REPS = n;
    memset(rep_table, 0, sizeof rep_table);
    for (i = 0; i < n; i++)
        rep_table[r[i]] = true;
}

static bool is_rep(unsigned char b) { return rep_table[b]; }

/* Inputs of 1 to 3 bytes, each in an exact block: all of them, or
 * (quick) those whose bytes after the first are representatives.
 * full_bounds: boundaries, decode_last and counts for every input, else
 * for those whose later bytes are representatives. embed: also inside a
 * 64-byte block (check_embedded). */
static void sweep_short(bool quick, bool full_bounds, bool embed)
{
    size_t len;
    for (len = 1; len <= 3; len++) {
        /* an exact block of len bytes, rewritten for each input */
        unsigned char *buf = malloc(len);
        uint32_t x, total = 1u << (8 * len);
        if (buf == NULL)
            exit(2);
        for (x = 0; x < total; x++) {
            const struct decomp *d;
            size_t i;
            bool rep = true;
            {
                /* x as 3 big-endian bytes; the input is the last len */
                unsigned char be[3];
                be[0] = (unsigned char)(x >> 16);
                be[1] = (unsigned char)(x >> 8);
                be[2] = (unsigned char)x;
                memcpy(buf, be + 3 - len, len);
            }
            for (i = 1; i < len && rep; i++)
                rep = is_rep(buf[i]);
            if (quick && !rep)
                continue;
            d = expect(buf, len);
            /* decode does not depend on the kernel; is_valid is checked
             * by check_embedded when embed is set */
            check_validate(buf, len, d, !embed || rep);
            if (full_bounds || rep)
                check_boundaries(buf, len, d);
            if (embed)
                check_embedded(buf, len, d, 1);
            check_among_two_octet(buf, len, d);
            if (rep) {
                check_among_three_octet(buf, len, d);
                check_among_four_octet(buf, len, d);
            }
        }
        free(buf);
    }
}

/*
 * Four bytes. All four bytes matter only when b0 b1 is a well-formed
 * beginning of a 4-octet character (F0 90..BF, F1..F3 80..BF, F4 80..8F:
 * 256 pairs): every b2 b3 after those (16.7 million inputs). After the
 * beginning of a 3-octet character (960 pairs) b3 starts a new unit or
 * follows an error, so every b2 with the representative b3. After any
 * other pair the first unit ends within b0 b1 and what follows is a
 * 2-byte input, which sweep_short covers completely: the representatives
 * for b2 and b3. Which pair is which is the checker's own answer.
 */
static void sweep4_full(void)
{
    unsigned char *buf = dup_exact("\0\0\0\0", 4);
    unsigned b0, b1, b2, b3;
    unsigned long pairs4 = 0, pairs3 = 0;
    for (b0 = 0; b0 < 256; b0++)
        for (b1 = 0; b1 < 256; b1++) {
            unsigned char pre[3] = {(unsigned char)b0, (unsigned char)b1, 0x80};
            struct unit u2 = oracle_unit(pre, 2), u3 = oracle_unit(pre, 3);
            buf[0] = (unsigned char)b0;
            buf[1] = (unsigned char)b1;
            if (u2.st == UTF8KIT_ERR_TRUNCATED && u2.n == 2 && u3.st == UTF8KIT_ERR_TRUNCATED) {
                pairs4++;
                for (b2 = 0; b2 < 256; b2++) {
                    buf[2] = (unsigned char)b2;
                    for (b3 = 0; b3 < 256; b3++) {
                        buf[3] = (unsigned char)b3;
                        check_validate(buf, 4, expect(buf, 4), true);
                        check_among_four_octet(buf, 4, expect(buf, 4));
                    }
                }
            } else if (u2.st == UTF8KIT_ERR_TRUNCATED && u2.n == 2) {
                pairs3++;
                for (b2 = 0; b2 < 256; b2++) {
                    buf[2] = (unsigned char)b2;
                    for (b3 = 0; b3 < N_REPS; b3++) {
                        buf[3] = reps[b3];
                        check_validate(buf, 4, expect(buf, 4), true);
                    }
                }
            } else {
                for (b2 = 0; b2 < N_REPS; b2++) {
                    buf[2] = reps[b2];
                    for (b3 = 0; b3 < N_REPS; b3++) {
                        buf[3] = reps[b3];
                        check_validate(buf, 4, expect(buf, 4), false);
                        /* F0..FF with a first byte after it that ends the
                         * unit: the range checks of four_octet_words */
                        if (b0 >= 0xF0)
                            check_among_four_octet(buf, 4, expect(buf, 4));
                    }
                }
            }
        }
    CHECK(pairs4 == 256 && pairs3 == 960, "%lu pairs begin a 4-octet character, %lu a 3-octet one",
          pairs4, pairs3);
    free(buf);
}

static void sweep4_reduced(bool quick)
{
    unsigned char *buf = dup_exact("\0\0\0\0", 4);
    unsigned b0, i1, i2, i3;
    for (b0 = 0; b0 < 256; b0++)
        for (i1 = 0; i1 < N_REPS; i1++)
            for (i2 = 0; i2 < N_REPS; i2++)
                for (i3 = 0; i3 < N_REPS; i3++) {
                    const struct decomp *d;
                    buf[0] = (unsigned char)b0;
                    buf[1] = reps[i1];
                    buf[2] = reps[i2];
                    buf[3] = reps[i3];
                    d = expect(buf, 4);
                    check_validate(buf, 4, d, !quick);
                    check_embedded(buf, 4, d, quick ? 0 : 2);
                    check_among_four_octet(buf, 4, d);
                }
    free(buf);
}

int main(void)
{
    bool quick = test_quick();
    bool scalar = strcmp(utf8kit_impl_name(), "scalar") == 0;
    size_t i;
    clock_t t0, t1, t2, t3;

    test_begin();
    build_classes();
    CHECK(ncls <= 16, "%u byte classes", ncls);
    for (i = 1; i <= 4; i++)
        memo[i] = calloc((size_t)1 << (4 * i), sizeof(struct decomp));
    pad64 = malloc(64);
    memset(pad64, 'x', 64);
    check_oracle();
    check_memo();

    t0 = clock();
    sweep_code_points(quick);
    t1 = clock();
    /* boundaries do not depend on the kernel; counting does, but is
     * checked on the representatives and in test_conformance */
    if (quick)
        set_reps(reps_quick, sizeof reps_quick);
    else
        set_reps(reps_full, sizeof reps_full);
    sweep_short(quick, !quick && scalar, !scalar || quick);
    t2 = clock();
    if (quick || !scalar)
        sweep4_reduced(quick);
    else
        sweep4_full();
    t3 = clock();
    /* for the log only; never asserted */
    printf("  cpu seconds: code points %.2f, 1-3 bytes %.2f, 4 bytes %.2f\n",
           (double)(t1 - t0) / CLOCKS_PER_SEC, (double)(t2 - t1) / CLOCKS_PER_SEC,
           (double)(t3 - t2) / CLOCKS_PER_SEC);
    printf("  %u byte classes, %lu inputs checked%s\n", ncls, inputs_checked,
           (quick || !scalar) ? " (reduced 4-byte sweep)" : "");

    for (i = 1; i <= 4; i++)
        free(memo[i]);
    free(pad64);
    return test_done("exhaustive");
}
