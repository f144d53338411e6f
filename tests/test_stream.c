/* test_stream.c - streams give exactly what one utf8kit_convert call gives.
 *
 *  1. The WPT chunked-decoding cases (wpt/streaming.txt): the output of
 *     every call, decoding to UTF-32LE with REPLACE.
 *  2. Every case of every testdata/<source>/cases.txt, cut in two at every
 *     position and fed one byte at a time: the output equals the one-shot
 *     output (REPLACE, SKIP, STRICT, several targets); under STRICT the
 *     error kind, offset and length equal utf8kit_validate's; with
 *     stop_after_error the errors reported are exactly those that repeated
 *     utf8kit_validate calls find.
 *  3. Random inputs (fixed seed) in many encodings, random chunk sizes and
 *     random output capacities, every policy and BOM option: the same
 *     output, status, error positions and error count as one-shot, also
 *     when measuring (dst == NULL).
 * UTF8KIT_TEST_QUICK=1 shrinks part 3 (for sanitizer runs).
 */
#include "testlib.h"

#include <stdint.h>

/* ---- a draw below n from testlib's xorshift64* (default seed) -------- */
static uint32_t rnd_below(uint32_t n)
{
    uint64_t x = test_xorshift64star();
    return n ? (uint32_t)(x >> 33) % n : 0;
}

/* ---- a growable byte buffer ------------------------------------------ */
struct buf {
    unsigned char *p;
    size_t n, cap;
};

static void buf_put(struct buf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 256;
        while (c < b->n + n)
            c *= 2;
        b->p = realloc(b->p, c);
        if (!b->p) {
            perror("realloc");
            exit(2);
        }
        b->cap = c;
    }
    if (n)
        memcpy(b->p + b->n, data, n);
    b->n += n;
}

/* ---- what one conversion gave ---------------------------------------- */
struct err {
    utf8kit_status kind;
    uint64_t at;
    size_t len;
};

struct outcome {
    struct buf out;
    utf8kit_status status; /* OK or the STRICT error */
    uint64_t err_at;
    size_t err_len;
    uint64_t errors;       /* substitutions (REPLACE/SKIP) */
    struct err list[512];  /* with stop_after_error: each error reported */
    size_t nlist;
    /* the most recent error the stream recorded, after the last call */
    utf8kit_status last_kind;
    uint64_t last_at;
    size_t last_len;
};

static void outcome_free(struct outcome *o) { free(o->out.p); }

/* One-shot conversion with utf8kit_convert. */
static void one_shot(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *in,
                     size_t len, const utf8kit_options *opt, struct outcome *o)
{
    size_t cap = utf8kit_max_output_size(from, to, len);
    unsigned char *src = dup_exact(in, len);
    unsigned char *dst = malloc(cap ? cap : 1);
    utf8kit_result r = utf8kit_convert(from, to, src, len, dst, cap, opt);
    memset(o, 0, sizeof *o);
    buf_put(&o->out, dst, r.written);
    o->status = r.status;
    o->err_at = r.read;
    o->err_len = r.error_len;
    o->errors = r.replaced;
    free(src);
    free(dst);
}

/* How to cut the input and size the output. */
enum { CUT_ONE = 0, CUT_BYTES = 1, CUT_RANDOM = 2, CUT_AT = 3 };
struct plan {
    int cut;        /* CUT_* */
    size_t at;      /* CUT_AT: the single cut position */
    size_t max_chunk, max_cap; /* CUT_RANDOM: chunk sizes 0..max_chunk, capacities 0..max_cap */
    bool measure;   /* dst == NULL */
    bool end_call;  /* finish with an empty final call instead of a final chunk */
};

/* Streams `in` per the plan; fills o as one_shot does, plus the errors
 * reported one by one under stop_after_error. Returns false (and counts a
 * failure) on a broken contract. */
static bool streamed(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *in,
                     size_t len, const utf8kit_options *opt, const struct plan *pl,
                     struct outcome *o)
{
    utf8kit_stream st;
    size_t pos = 0, stalls = 0;
    bool done = false;
    memset(o, 0, sizeof *o);
    o->status = UTF8KIT_OK;
    if (utf8kit_stream_init(&st, from, to, opt) != UTF8KIT_OK) {
        CHECK(0, "stream_init refused %d -> %d", (int)from, (int)to);
        return false;
    }
    while (!done) {
        size_t end;
        bool final;
        unsigned char *chunk;
        size_t cpos = 0;
        switch (pl->cut) {
        case CUT_ONE:
            end = len;
            break;
        case CUT_BYTES:
            end = pos < len ? pos + 1 : len;
            break;
        case CUT_AT:
            end = pos < pl->at ? pl->at : len;
            break;
        default:
            end = pos + rnd_below((uint32_t)pl->max_chunk + 1);
            if (end > len)
                end = len;
            break;
        }
        final = end == len && !(pl->end_call && pos < len);
        if (pl->end_call && pos == len)
            final = true;
        chunk = dup_exact(in ? in + pos : in, end - pos);
        for (;;) {
            size_t cap = pl->cut == CUT_RANDOM ? rnd_below((uint32_t)pl->max_cap + 1) : 4096;
            unsigned char *dst;
            utf8kit_result r;
            if (stalls > 4)
                cap = 64; /* make progress certain */
            dst = pl->measure ? NULL : malloc(cap ? cap : 1);
            r = utf8kit_stream_convert(&st, chunk + cpos, end - pos - cpos, dst, cap, final);
            if (!pl->measure) {
                CHECK(r.written <= cap, "wrote %zu > cap %zu", r.written, cap);
                buf_put(&o->out, dst, r.written);
            } else {
                o->out.n += r.written;
            }
            free(dst);
            CHECK(r.read <= end - pos - cpos, "read %zu of %zu", r.read, end - pos - cpos);
            cpos += r.read;
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL) {
                stalls = r.read == 0 && r.written == 0 ? stalls + 1 : 0;
                if (stalls > 20) {
                    CHECK(0, "no progress with room");
                    free(chunk);
                    return false;
                }
                continue;
            }
            stalls = 0;
            if (r.status == UTF8KIT_OK) {
                CHECK(cpos == end - pos, "OK but read %zu of %zu", cpos, end - pos);
                break;
            }
            /* an input error */
            CHECK(r.status == st.error_kind && r.error_len == st.error_len,
                  "result %s/%zu vs stream %s/%zu", utf8kit_status_name(r.status), r.error_len,
                  utf8kit_status_name(st.error_kind), st.error_len);
            if (opt && (opt->policy == UTF8KIT_REPLACE || opt->policy == UTF8KIT_SKIP) &&
                opt->stop_after_error) {
                if (o->nlist < sizeof o->list / sizeof o->list[0]) {
                    o->list[o->nlist].kind = st.error_kind;
                    o->list[o->nlist].at = st.error_offset;
                    o->list[o->nlist].len = st.error_len;
                    o->nlist++;
                }
                continue;
            }
            /* STRICT: the stream failed; it says so again */
            o->status = r.status;
            o->err_at = st.error_offset;
            o->err_len = st.error_len;
            {
                utf8kit_result again = utf8kit_stream_convert(&st, NULL, 0, NULL, 0, true);
                CHECK(again.status == r.status && again.read == 0 && again.written == 0,
                      "failed stream answered %s", utf8kit_status_name(again.status));
            }
            free(chunk);
            o->errors = st.errors;
            return true;
        }
        free(chunk);
        pos = end;
        if (final)
            done = true;
    }
    CHECK(st.offset == len, "offset %llu, len %zu", (unsigned long long)st.offset, len);
    {
        /* a finished stream takes no more input, and an empty call is fine */
        unsigned char x = 'x';
        CHECK(utf8kit_stream_convert(&st, NULL, 0, NULL, 0, true).status == UTF8KIT_OK,
              "finished stream, empty call");
        CHECK(utf8kit_stream_convert(&st, &x, 1, NULL, 0, true).status ==
                  UTF8KIT_ERR_INVALID_ARGUMENT,
              "finished stream took input");
    }
    o->errors = st.errors;
    o->last_kind = st.error_kind;
    o->last_at = st.error_offset;
    o->last_len = st.error_len;
    return true;
}

/* The errors of `in` one by one: repeated STRICT one-shot conversions,
 * each resuming after the error before (with the BOM rule applied once,
 * at the start). */
static size_t enumerate(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *in,
                        size_t len, const utf8kit_options *opt, struct err *list, size_t max)
{
    utf8kit_options o;
    size_t p = 0, k = 0, cap = utf8kit_max_output_size(from, to, len);
    unsigned char *dst = malloc(cap ? cap : 1);
    memset(&o, 0, sizeof o);
    o.bom = opt ? opt->bom : UTF8KIT_BOM_KEEP;
    for (;;) {
        utf8kit_result r = utf8kit_convert(from, to, in ? in + p : in, len - p, dst, cap, &o);
        o.bom = UTF8KIT_BOM_KEEP;
        if (r.status == UTF8KIT_OK || k == max)
            break;
        list[k].kind = r.status;
        list[k].at = p + r.read;
        list[k].len = r.error_len;
        k++;
        p += r.read + r.error_len;
    }
    free(dst);
    return k;
}

/* The errors of UTF-8 input as repeated utf8kit_validate calls find them. */
static size_t enumerate_validate(const unsigned char *in, size_t len, struct err *list, size_t max)
{
    size_t p = 0, k = 0;
    while (k < max) {
        utf8kit_result v = utf8kit_validate((const char *)in + p, len - p);
        if (v.status == UTF8KIT_OK)
            break;
        list[k].kind = v.status;
        list[k].at = p + v.read;
        list[k].len = v.error_len;
        k++;
        p += v.read + v.error_len;
    }
    return k;
}

static char ctx[256]; /* what is being tested, for failure messages */

/* Without stop_after_error, the stream's record of the most recent error
 * after the last call: the last of the n errors in list (enumerate). */
static void same_last(const struct outcome *got, const struct err *list, size_t n)
{
    if (n == 0 || n > 512)
        return;
    CHECK(got->last_kind == list[n - 1].kind && got->last_at == list[n - 1].at &&
              got->last_len == list[n - 1].len,
          "%s: last error %s at %llu len %zu, want %s at %llu len %zu", ctx,
          utf8kit_status_name(got->last_kind), (unsigned long long)got->last_at, got->last_len,
          utf8kit_status_name(list[n - 1].kind), (unsigned long long)list[n - 1].at,
          list[n - 1].len);
}

/* Compares a streamed outcome with the one-shot one. */
static void same(const struct outcome *want, const struct outcome *got, const utf8kit_options *opt,
                 bool measured)
{
    utf8kit_policy pol = opt ? opt->policy : UTF8KIT_STRICT;
    CHECK(got->out.n == want->out.n && (measured || want->out.n == 0 ||
                                        memcmp(got->out.p, want->out.p, want->out.n) == 0),
          "%s: output differs (%zu vs %zu bytes)", ctx, got->out.n, want->out.n);
    if (pol == UTF8KIT_STRICT) {
        CHECK(got->status == want->status, "%s: status %s, want %s", ctx,
              utf8kit_status_name(got->status), utf8kit_status_name(want->status));
        if (want->status != UTF8KIT_OK)
            CHECK(got->err_at == want->err_at && got->err_len == want->err_len,
                  "%s: error at %llu len %zu, want %llu len %zu", ctx,
                  (unsigned long long)got->err_at, got->err_len,
                  (unsigned long long)want->err_at, want->err_len);
    } else if (pol == UTF8KIT_REPLACE || pol == UTF8KIT_SKIP) {
        CHECK(got->errors == want->errors, "%s: %llu errors, want %llu", ctx,
              (unsigned long long)got->errors, (unsigned long long)want->errors);
    }
}

/* ---- 1. WPT streaming cases ---------------------------------------- */

static size_t parse_hex(const char *s, const char *end, unsigned char *out)
{
    size_t n = 0;
    while (s < end) {
        unsigned v;
        while (s < end && *s == ' ')
            s++;
        if (s + 2 > end || sscanf(s, "%2x", &v) != 1)
            break;
        out[n++] = (unsigned char)v;
        s += 2;
    }
    return n;
}

/* "U+FFFD U+0041" -> code points */
static size_t parse_cps(const char *s, const char *end, uint32_t *out)
{
    size_t n = 0;
    while (s < end) {
        unsigned long v;
        char *e;
        s = strstr(s, "U+");
        if (!s || s >= end)
            break;
        v = strtoul(s + 2, &e, 16);
        out[n++] = (uint32_t)v;
        s = e;
    }
    return n;
}

static void wpt_streaming(const char *dir)
{
    char path[4096], line[2048];
    FILE *f;
    size_t lines = 0;
    snprintf(path, sizeof path, "%s/wpt/streaming.txt", dir);
    f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        utf8kit_stream st;
        utf8kit_options opt;
        char *seg = line, *next;
        size_t call = 0;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        lines++;
        memset(&opt, 0, sizeof opt);
        opt.policy = UTF8KIT_REPLACE;
        CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF32LE, &opt) == UTF8KIT_OK, "init");
        for (; seg; seg = next, call++) {
            char *arrow = strstr(seg, "=>"), *q1, *q2, *lhs_end;
            unsigned char bytes[64], *chunk, out[256];
            uint32_t want[64];
            size_t nb = 0, nw, i;
            bool stream_flag = false;
            utf8kit_result r;
            next = strstr(seg, " ; ");
            if (next)
                next += 3;
            if (!arrow)
                break;
            q1 = strchr(arrow, '"');
            q2 = q1 ? strchr(q1 + 1, '"') : NULL;
            CHECK(q1 && q2, "bad line %s", line);
            if (!q1 || !q2)
                break;
            nw = parse_cps(q1 + 1, q2, want);
            lhs_end = arrow;
            while (lhs_end > seg && lhs_end[-1] == ' ')
                lhs_end--;
            if (strncmp(seg, "END", 3) != 0) {
                if (lhs_end > seg && lhs_end[-1] == 's') {
                    stream_flag = true;
                    lhs_end--;
                }
                nb = parse_hex(seg, lhs_end, bytes);
            }
            chunk = dup_exact(bytes, nb);
            r = utf8kit_stream_convert(&st, chunk, nb, out, sizeof out, !stream_flag);
            free(chunk);
            CHECK(r.status == UTF8KIT_OK && r.read == nb, "wpt line %zu call %zu: %s read %zu",
                  lines, call, utf8kit_status_name(r.status), r.read);
            CHECK(r.written == 4 * nw, "wpt line %zu call %zu: %zu code points, want %zu", lines,
                  call, r.written / 4, nw);
            for (i = 0; i < nw && i * 4 + 4 <= r.written; i++) {
                uint32_t cp = (uint32_t)out[4 * i] | (uint32_t)out[4 * i + 1] << 8 |
                              (uint32_t)out[4 * i + 2] << 16 | (uint32_t)out[4 * i + 3] << 24;
                CHECK(cp == want[i], "wpt line %zu call %zu: U+%04X, want U+%04X", lines, call,
                      (unsigned)cp, (unsigned)want[i]);
            }
        }
    }
    fclose(f);
    CHECK(lines >= 18, "only %zu streaming cases", lines);
}

/* ---- 2. every cases.txt case, every cut ----------------------------- */

static const utf8kit_encoding case_targets[] = {UTF8KIT_UTF32LE, UTF8KIT_UTF16LE, UTF8KIT_UTF8,
                                                UTF8KIT_LATIN1};

static void check_case(const unsigned char *in, size_t len)
{
    static const utf8kit_policy pols[] = {UTF8KIT_STRICT, UTF8KIT_REPLACE, UTF8KIT_SKIP};
    size_t t, pi, at;
    struct err vlist[256];
    size_t nv = enumerate_validate(in, len, vlist, 256);
    for (t = 0; t < sizeof case_targets / sizeof case_targets[0]; t++) {
        utf8kit_encoding to = case_targets[t];
        for (pi = 0; pi < 3; pi++) {
            utf8kit_options opt;
            struct outcome want;
            memset(&opt, 0, sizeof opt);
            opt.policy = pols[pi];
            one_shot(UTF8KIT_UTF8, to, in, len, &opt, &want);
            for (at = 0; at <= len + 1; at++) {
                struct plan pl;
                struct outcome got;
                memset(&pl, 0, sizeof pl);
                if (at <= len) {
                    pl.cut = CUT_AT;
                    pl.at = at;
                } else {
                    pl.cut = CUT_BYTES;
                    pl.end_call = true;
                }
                snprintf(ctx, sizeof ctx, "case len %zu to %d policy %d cut %zu", len, (int)to,
                         (int)pols[pi], at);
                if (!streamed(UTF8KIT_UTF8, to, in, len, &opt, &pl, &got))
                    continue;
                same(&want, &got, &opt, false);
                /* STRICT to a target holding every character: the error of
                 * utf8kit_validate */
                if (pols[pi] == UTF8KIT_STRICT && to != UTF8KIT_LATIN1) {
                    utf8kit_result v = utf8kit_validate((const char *)in, len);
                    CHECK(got.status == v.status &&
                              (v.status == UTF8KIT_OK ||
                               (got.err_at == v.read && got.err_len == v.error_len)),
                          "%s: %s at %llu len %zu, validate says %s at %zu len %zu", ctx,
                          utf8kit_status_name(got.status), (unsigned long long)got.err_at,
                          got.err_len, utf8kit_status_name(v.status), v.read, v.error_len);
                }
                /* REPLACE: the most recent error is the last one */
                if (pols[pi] == UTF8KIT_REPLACE && to != UTF8KIT_LATIN1 && nv > 0)
                    CHECK(got.last_kind == vlist[nv - 1].kind && got.last_at == vlist[nv - 1].at &&
                              got.last_len == vlist[nv - 1].len,
                          "%s: last error %s at %llu, want %s at %llu", ctx,
                          utf8kit_status_name(got.last_kind), (unsigned long long)got.last_at,
                          utf8kit_status_name(vlist[nv - 1].kind),
                          (unsigned long long)vlist[nv - 1].at);
                outcome_free(&got);
                /* stop_after_error: each error once, in order, where
                 * repeated validation finds it */
                if (pols[pi] != UTF8KIT_STRICT && to != UTF8KIT_LATIN1) {
                    size_t i;
                    opt.stop_after_error = true;
                    if (streamed(UTF8KIT_UTF8, to, in, len, &opt, &pl, &got)) {
                        same(&want, &got, &opt, false);
                        CHECK(got.nlist == nv, "%s: %zu errors reported, validate finds %zu", ctx,
                              got.nlist, nv);
                        for (i = 0; i < nv && i < got.nlist; i++)
                            CHECK(got.list[i].kind == vlist[i].kind &&
                                      got.list[i].at == vlist[i].at &&
                                      got.list[i].len == vlist[i].len,
                                  "%s: error %zu is %s at %llu len %zu, want %s at %llu len %zu",
                                  ctx, i, utf8kit_status_name(got.list[i].kind),
                                  (unsigned long long)got.list[i].at, got.list[i].len,
                                  utf8kit_status_name(vlist[i].kind),
                                  (unsigned long long)vlist[i].at, vlist[i].len);
                        outcome_free(&got);
                    }
                    opt.stop_after_error = false;
                }
            }
            outcome_free(&want);
        }
    }
}

static size_t all_cases(const char *dir)
{
    static const char *sources[] = {"kuhn", "unicode", "wpt", "python", "flenniken", "simdutf"};
    size_t s, total = 0;
    for (s = 0; s < sizeof sources / sizeof sources[0]; s++) {
        char path[4096], line[8192];
        FILE *f;
        snprintf(path, sizeof path, "%s/%s/cases.txt", dir, sources[s]);
        f = fopen(path, "r");
        CHECK(f != NULL, "cannot open %s", path);
        if (!f)
            continue;
        while (fgets(line, sizeof line, f)) {
            unsigned char in[2048];
            char *arrow;
            size_t n;
            if (line[0] == '#' || line[0] == '\n')
                continue;
            arrow = strstr(line, "->");
            if (!arrow)
                continue;
            n = parse_hex(line, arrow, in);
            check_case(in, n);
            total++;
        }
        fclose(f);
    }
    return total;
}

/* ---- 3. random inputs ---------------------------------------------- */

/* The size of a unit of enc in bytes. */
static size_t unit_of(utf8kit_encoding enc)
{
    switch (enc) {
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE:
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE: return 2;
    case UTF8KIT_UTF32LE:
    case UTF8KIT_UTF32BE: return 4;
    default: return 1;
    }
}

/* Appends one random piece of input in the shape of encoding `enc`. */
static void random_piece(utf8kit_encoding enc, struct buf *b)
{
    static const unsigned char odd[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                        0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE,
                                        0xFF, 0xA0, 0x9F, 0x8F, 0x90, 0xB0, 0x00, 0x41};
    static const uint32_t cps[] = {0x41, 0x7F, 0x80, 0xE9, 0xFF, 0x100, 0x7FF, 0x800, 0x20AC,
                                   0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F600,
                                   0x10FFFF, 0x0};
    uint32_t pick = rnd_below(10);
    unsigned char u[8];
    size_t i, k;
    switch (enc) {
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE:
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE:
    case UTF8KIT_UTF32LE:
    case UTF8KIT_UTF32BE: {
        size_t unit = unit_of(enc);
        bool be = enc == UTF8KIT_UTF16BE || enc == UTF8KIT_UCS2BE || enc == UTF8KIT_UTF32BE;
        uint32_t v;
        if (pick < 5)
            v = cps[rnd_below(sizeof cps / sizeof cps[0])];
        else if (pick < 8)
            v = 0xD800 + rnd_below(0x800); /* surrogates, paired or not */
        else if (pick < 9)
            /* above U+10FFFF: UCS-4 for the RFC 2279 form up to 7FFFFFFF,
                 * too large beyond (the last step) */
                v = unit == 4 ? 0x110000 + rnd_below(4) * 0x28000000u : rnd_below(0x10000);
        else
            v = rnd_below(0x80);
        if (unit == 2 && v > 0xFFFF) {
            uint32_t c = v - 0x10000;
            v = 0xD800 + (c >> 10);
            for (i = 0; i < 2; i++)
                u[be ? i : 1 - i] = (unsigned char)(v >> (8 * (1 - i)));
            buf_put(b, u, 2);
            v = 0xDC00 + (c & 0x3FF);
        }
        for (i = 0; i < unit; i++)
            u[be ? i : unit - 1 - i] = (unsigned char)(v >> (8 * (unit - 1 - i)));
        k = pick == 9 && rnd_below(4) == 0 ? 1 + rnd_below((uint32_t)unit - 1) : unit; /* a cut unit */
        buf_put(b, u, k);
        return;
    }
    case UTF8KIT_LATIN1:
    case UTF8KIT_ASCII:
    case UTF8KIT_CP1252:
        u[0] = (unsigned char)(pick < 6 ? 0x20 + rnd_below(0x60) : rnd_below(256));
        buf_put(b, u, 1);
        return;
    default: /* the UTF-8 family */
        if (pick < 3) {
            u[0] = (unsigned char)(0x20 + rnd_below(0x5F));
            buf_put(b, u, 1);
        } else if (pick < 6) {
            /* a valid character, sometimes cut short */
            uint32_t c = cps[rnd_below(sizeof cps / sizeof cps[0])];
            k = utf8kit_encode(c, (char *)u);
            if (rnd_below(4) == 0 && k > 1)
                k = 1 + rnd_below((uint32_t)k - 1);
            buf_put(b, u, k);
        } else if (pick < 8) {
            u[0] = odd[rnd_below(sizeof odd)];
            buf_put(b, u, 1);
        } else if (pick < 9) {
            /* CESU-8 surrogates, C0 80, 5- and 6-octet forms */
            static const char *const forms[] = {"\xED\xA0\x80", "\xED\xB0\x80", "\xED\xAF\xBF",
                                                "\xC0\x80", "\xF8\x88\x80\x80\x80",
                                                "\xFC\x84\x80\x80\x80\x80", "\xEF\xBB\xBF",
                                                "\xF4\x90\x80\x80", "\xE0\x80\x80"};
            const char *f = forms[rnd_below(sizeof forms / sizeof forms[0])];
            k = strlen(f);
            if (rnd_below(3) == 0)
                k = 1 + rnd_below((uint32_t)k);
            buf_put(b, f, k);
        } else {
            u[0] = (unsigned char)rnd_below(256);
            buf_put(b, u, 1);
        }
        return;
    }
}

static void random_tests(bool quick)
{
    static const struct {
        utf8kit_encoding from, to;
    } pairs[] = {
        {UTF8KIT_UTF8, UTF8KIT_UTF16LE},    {UTF8KIT_UTF8, UTF8KIT_UTF32LE},
        {UTF8KIT_UTF8, UTF8KIT_UTF8},       {UTF8KIT_UTF8, UTF8KIT_LATIN1},
        {UTF8KIT_UTF8, UTF8KIT_UTF16BE},    {UTF8KIT_UTF8, UTF8KIT_CP1252},
        {UTF8KIT_UTF8, UTF8KIT_UCS2LE},     {UTF8KIT_UTF8, UTF8KIT_CESU8},
        {UTF8KIT_UTF16LE, UTF8KIT_UTF8},    {UTF8KIT_UTF16BE, UTF8KIT_UTF32LE},
        {UTF8KIT_UTF16LE, UTF8KIT_UTF16BE}, {UTF8KIT_UTF32LE, UTF8KIT_UTF8},
        {UTF8KIT_UTF32BE, UTF8KIT_UTF16LE}, {UTF8KIT_UCS2LE, UTF8KIT_UTF8},
        {UTF8KIT_CESU8, UTF8KIT_UTF8},      {UTF8KIT_MUTF8, UTF8KIT_UTF16LE},
        {UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32LE}, {UTF8KIT_LATIN1, UTF8KIT_UTF8},
        {UTF8KIT_ASCII, UTF8KIT_UTF8},      {UTF8KIT_CP1252, UTF8KIT_UTF16LE},
        {UTF8KIT_UTF8, UTF8KIT_ASCII},      {UTF8KIT_MUTF8, UTF8KIT_MUTF8},
        {UTF8KIT_UTF32BE, UTF8KIT_UTF8_RFC2279}, {UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279},
    };
    size_t p, rounds = quick ? 15 : 120;
    for (p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        size_t i;
        for (i = 0; i < rounds; i++) {
            struct buf in = {0};
            size_t pieces = rnd_below(i % 4 == 0 ? 120 : 24), j;
            utf8kit_options opt;
            struct outcome want, got;
            struct plan pl;
            utf8kit_encoding from = pairs[p].from, to = pairs[p].to;
            if (rnd_below(6) == 0) { /* a BOM at the start */
                unsigned char bom[4];
                buf_put(&in, bom, utf8kit_bom_bytes(from, bom));
            }
            for (j = 0; j < pieces; j++)
                random_piece(from, &in);
            memset(&opt, 0, sizeof opt);
            opt.policy = (utf8kit_policy)rnd_below(3);
            opt.bom = (utf8kit_bom_policy)rnd_below(3);
            if (rnd_below(3) == 0 && opt.policy == UTF8KIT_REPLACE)
                opt.substitute = rnd_below(2) ? '*' : 0;
            memset(&pl, 0, sizeof pl);
            pl.cut = CUT_RANDOM;
            pl.max_chunk = 1 + rnd_below(i % 3 == 0 ? 3 : 40);
            pl.max_cap = rnd_below(3) == 0 ? 4096 : 1 + rnd_below(24);
            pl.end_call = rnd_below(2);
            pl.measure = rnd_below(8) == 0;
            one_shot(from, to, in.p, in.n, &opt, &want);
            snprintf(ctx, sizeof ctx,
                     "random %d->%d round %zu len %zu policy %d bom %d chunk %zu cap %zu%s", (int)from,
                     (int)to, i, in.n, (int)opt.policy, (int)opt.bom, pl.max_chunk, pl.max_cap,
                     pl.measure ? " measuring" : "");
            if (streamed(from, to, in.p, in.n, &opt, &pl, &got)) {
                same(&want, &got, &opt, pl.measure);
                if (opt.policy != UTF8KIT_STRICT) {
                    static struct err list[513];
                    same_last(&got, list, enumerate(from, to, in.p, in.n, &opt, list, 513));
                }
                outcome_free(&got);
            }
            /* every error once, in order, as repeated STRICT conversions
             * find them */
            if (opt.policy != UTF8KIT_STRICT && !pl.measure) {
                static struct err list[512];
                size_t n = enumerate(from, to, in.p, in.n, &opt, list, 512), k;
                opt.stop_after_error = true;
                if (streamed(from, to, in.p, in.n, &opt, &pl, &got)) {
                    same(&want, &got, &opt, false);
                    CHECK(got.nlist == n, "%s: %zu errors reported, want %zu", ctx, got.nlist, n);
                    for (k = 0; k < n && k < got.nlist; k++)
                        CHECK(got.list[k].kind == list[k].kind && got.list[k].at == list[k].at &&
                                  got.list[k].len == list[k].len,
                              "%s: error %zu is %s at %llu len %zu, want %s at %llu len %zu", ctx,
                              k, utf8kit_status_name(got.list[k].kind),
                              (unsigned long long)got.list[k].at, got.list[k].len,
                              utf8kit_status_name(list[k].kind), (unsigned long long)list[k].at,
                              list[k].len);
                    outcome_free(&got);
                }
            }
            outcome_free(&want);
            free(in.p);
        }
    }
}

/* Plain REPLACE and SKIP convert the body of a chunk in one call and
 * then look for its last error (stream.c, record_last_error: from the end
 * back when the chunk has more than 8 errors, else from its start): here
 * the last error is followed by 0 to 300 characters of valid text of
 * each width, and preceded by 4 or 40 random pieces, cut into chunks of
 * several sizes. */
static void last_error_tests(bool quick)
{
    static const struct {
        utf8kit_encoding from, to;
        const char *bad; /* an error of the form */
        size_t blen;
    } m[] = {
        {UTF8KIT_UTF8, UTF8KIT_UTF16LE, "\xE1\x80", 2},
        {UTF8KIT_UTF8, UTF8KIT_UTF8, "\xFF", 1},
        {UTF8KIT_UTF8, UTF8KIT_LATIN1, "\xE2\x82\xAC", 3}, /* U+20AC: no Latin-1 */
        {UTF8KIT_CESU8, UTF8KIT_UTF8, "\xED\xB0\x80", 3},
        {UTF8KIT_MUTF8, UTF8KIT_UTF16LE, "\x80", 1},
        {UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32LE, "\xFE", 1},
        {UTF8KIT_UTF16LE, UTF8KIT_UTF8, "\x00\xDC", 2},
        {UTF8KIT_UTF16BE, UTF8KIT_UTF32LE, "\xD8\x00", 2},
        {UTF8KIT_UTF32LE, UTF8KIT_UTF8, "\x00\x00\x11\x00", 4},
        {UTF8KIT_LATIN1, UTF8KIT_ASCII, "\xE9", 1},
    };
    static const size_t tails[] = {0, 1, 20, 40, 63, 64, 65, 130, 300};
    static const uint32_t widths[][2] = {{0x41, 0x7A}, {0xE0, 0xFF}, {0x4E00, 0x4E80},
                                         {0x1F600, 0x1F640}};
    size_t i, t, v, wd, c, np;
    for (i = 0; i < sizeof m / sizeof m[0]; i++)
        for (t = 0; t < sizeof tails / sizeof tails[0]; t++)
            for (v = 0; v < 8; v++) {
                struct buf in = {0};
                uint32_t cps[300];
                unsigned char enc[1800]; /* 300 CESU-8 pairs */
                size_t k, n;
                np = v < 4 ? 4 : 40;
                wd = v % 4;
                if (quick && (i + t + wd + np) % 3)
                    continue;
                /* Latin-1 and ASCII hold only the first width */
                if ((m[i].from == UTF8KIT_LATIN1 && wd > 0) ||
                    (m[i].to == UTF8KIT_LATIN1 && wd > 1))
                    continue;
                for (k = 0; k < np; k++)
                    random_piece(m[i].from, &in);
                /* whole units again (a piece may cut one), and an 'A' that
                 * nothing before can pair with the error */
                while (in.n % unit_of(m[i].from))
                    buf_put(&in, "", 1);
                cps[0] = 'A';
                buf_put(&in, enc,
                        utf8kit_convert(UTF8KIT_UTF32, m[i].from, cps, 4, enc, sizeof enc, NULL)
                            .written);
                buf_put(&in, m[i].bad, m[i].blen);
                for (k = 0; k < tails[t]; k++)
                    cps[k] = widths[wd][0] + (uint32_t)k % (widths[wd][1] - widths[wd][0]);
                n = utf8kit_convert(UTF8KIT_UTF32, m[i].from, cps, tails[t] * 4, enc, sizeof enc,
                                    NULL)
                        .written;
                buf_put(&in, enc, n);
                for (c = 0; c < 6; c++) {
                    static struct err list[513];
                    utf8kit_options opt;
                    struct outcome got;
                    struct plan pl;
                    size_t nl;
                    memset(&opt, 0, sizeof opt);
                    opt.policy = c % 2 ? UTF8KIT_SKIP : UTF8KIT_REPLACE;
                    memset(&pl, 0, sizeof pl);
                    pl.cut = c < 2 ? CUT_ONE : c < 4 ? CUT_AT : CUT_RANDOM;
                    pl.at = in.n / 2;
                    pl.max_chunk = 1 + rnd_below(200);
                    pl.max_cap = 4096;
                    snprintf(ctx, sizeof ctx,
                             "last error %d->%d pieces %zu tail %zu width %zu plan %zu",
                             (int)m[i].from, (int)m[i].to, np, tails[t], wd, c);
                    nl = enumerate(m[i].from, m[i].to, in.p, in.n, &opt, list, 513);
                    CHECK(nl > 0, "%s: no error", ctx);
                    if (streamed(m[i].from, m[i].to, in.p, in.n, &opt, &pl, &got)) {
                        same_last(&got, list, nl);
                        outcome_free(&got);
                    }
                }
                free(in.p);
            }
}

/* ASSUME_VALID on valid input: the fast path gives the same output. */
static void assume_valid_tests(void)
{
    static const utf8kit_encoding targets[] = {UTF8KIT_UTF16LE, UTF8KIT_UTF32LE, UTF8KIT_UTF8,
                                               UTF8KIT_CESU8};
    static const uint32_t cps[] = {0x41, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFD, 0x10000, 0x1F600,
                                   0x10FFFF};
    size_t i, j, t;
    for (i = 0; i < 40; i++) {
        struct buf in = {0};
        size_t pieces = rnd_below(80);
        for (j = 0; j < pieces; j++) {
            char u[4];
            buf_put(&in, u, utf8kit_encode(cps[rnd_below(sizeof cps / sizeof cps[0])], u));
        }
        for (t = 0; t < sizeof targets / sizeof targets[0]; t++) {
            utf8kit_options opt;
            struct outcome want, got;
            struct plan pl;
            memset(&opt, 0, sizeof opt);
            opt.policy = UTF8KIT_ASSUME_VALID;
            memset(&pl, 0, sizeof pl);
            pl.cut = CUT_RANDOM;
            pl.max_chunk = 1 + rnd_below(50);
            pl.max_cap = 1 + rnd_below(30);
            one_shot(UTF8KIT_UTF8, targets[t], in.p, in.n, &opt, &want);
            snprintf(ctx, sizeof ctx, "assume-valid %zu to %d", i, (int)targets[t]);
            CHECK(want.status == UTF8KIT_OK, "%s: one-shot %s", ctx, utf8kit_status_name(want.status));
            if (streamed(UTF8KIT_UTF8, targets[t], in.p, in.n, &opt, &pl, &got)) {
                same(&want, &got, &opt, false);
                CHECK(got.errors == 0, "%s: errors", ctx);
                outcome_free(&got);
            }
            outcome_free(&want);
        }
        free(in.p);
    }
}

/* ---- 3b. long chunks: where the body of a chunk ends ----------------- */

/* A chunk longer than 32 bytes is converted in bulk up to a character
 * found near its end, looking only at its last bytes. These inputs repeat
 * the shapes that make that search hard (CESU-8 surrogate pairs, UTF-16
 * pairs, long runs of continuation bytes, 6-octet forms, errors that look
 * ahead), and are cut in two at every position. */
static void motif_tests(bool quick)
{
    static const struct {
        utf8kit_encoding from;
        const char *motif;
        size_t len;
    } m[] = {
        {UTF8KIT_CESU8, "\xED\xA0\x80\xED\xB0\x80", 6},
        {UTF8KIT_CESU8, "\xED\xA0\x80\xED\xB0\x80" "a\xED\xA0\x80\xED\xB0", 13},
        {UTF8KIT_MUTF8, "\xED\xAF\xBF\xED\xBF\xBF\xC0\x80", 8},
        {UTF8KIT_MUTF8, "\xED\xA0\x80\xED\xA0\x80\xED\xB0\x80\xC0", 10},
        {UTF8KIT_UTF16LE, "\x3D\xD8\x00\xDE", 4},
        {UTF8KIT_UTF16LE, "\x3D\xD8\x00\xDE\x00\xDC\x00\xD8", 8},
        {UTF8KIT_UTF16BE, "\xD8\x3D\xDE\x00\xDC\x00", 6},
        {UTF8KIT_UTF8, "\x80\x80\x80\x80\x80\x80\x80\xE2\x82\xAC", 10},
        {UTF8KIT_UTF8, "\xF0\x9F\x98\x80\xE1\xC0\x80\xF5\x80", 9},
        {UTF8KIT_UTF8, "\xF0\x9F\x98\xE1\x80\xED\xA0\x80\xC1", 9},
        {UTF8KIT_UTF8_RFC2279, "\xFC\x84\x80\x80\x80\x80\xFD\x80\x80", 9},
        {UTF8KIT_UTF8_RFC2279, "\xF8\x88\x80\x80\x80\x80\x80\x80\x80\x80", 10},
        {UTF8KIT_UTF32BE, "\x00\x01\xF6\x00\x00\x11\x00\x00\x00\x00\xD8\x00", 12},
        /* nothing but errors: the search for a complete character widens
         * to the whole chunk */
        {UTF8KIT_UTF8, "\xC0\x80\xF5\x80\xED\xA0\x80\xE1\x80", 9},
        {UTF8KIT_CESU8, "\xED\xB0\x80\xED\xA0\x80\xF0", 7},
        {UTF8KIT_UTF16BE, "\xDC\x00", 2},
    };
    static const utf8kit_encoding targets[] = {UTF8KIT_UTF8, UTF8KIT_UTF16LE};
    size_t i, t, k, r;
    for (i = 0; i < sizeof m / sizeof m[0]; i++) {
        struct buf in = {0};
        while (in.n < 140)
            buf_put(&in, m[i].motif, m[i].len);
        for (r = 0; r < (quick ? 1u : 3u); r++) { /* the motif cut at three phases */
            const unsigned char *s = in.p + r;
            size_t n = in.n - r;
            for (t = 0; t < 2; t++) {
                utf8kit_options opt;
                struct outcome want, got;
                static struct err list[512];
                size_t nl;
                memset(&opt, 0, sizeof opt);
                opt.policy = UTF8KIT_REPLACE;
                one_shot(m[i].from, targets[t], s, n, &opt, &want);
                nl = enumerate(m[i].from, targets[t], s, n, &opt, list, 512);
                for (k = 0; k <= n; k++) {
                    struct plan pl;
                    size_t e;
                    memset(&pl, 0, sizeof pl);
                    pl.cut = CUT_AT;
                    pl.at = k;
                    snprintf(ctx, sizeof ctx, "motif %zu phase %zu to %d cut %zu", i, r,
                             (int)targets[t], k);
                    opt.policy = UTF8KIT_REPLACE;
                    opt.stop_after_error = false;
                    if (streamed(m[i].from, targets[t], s, n, &opt, &pl, &got)) {
                        same(&want, &got, &opt, false);
                        same_last(&got, list, nl);
                        outcome_free(&got);
                    }
                    opt.stop_after_error = true;
                    if (streamed(m[i].from, targets[t], s, n, &opt, &pl, &got)) {
                        same(&want, &got, &opt, false);
                        CHECK(got.nlist == nl, "%s: %zu errors, want %zu", ctx, got.nlist, nl);
                        for (e = 0; e < nl && e < got.nlist; e++)
                            CHECK(got.list[e].kind == list[e].kind && got.list[e].at == list[e].at &&
                                      got.list[e].len == list[e].len,
                                  "%s: error %zu is %s at %llu, want %s at %llu", ctx, e,
                                  utf8kit_status_name(got.list[e].kind),
                                  (unsigned long long)got.list[e].at,
                                  utf8kit_status_name(list[e].kind),
                                  (unsigned long long)list[e].at);
                        outcome_free(&got);
                    }
                }
                outcome_free(&want);
                /* STRICT: the first error */
                memset(&opt, 0, sizeof opt);
                one_shot(m[i].from, targets[t], s, n, &opt, &want);
                for (k = 0; k <= n; k++) {
                    struct plan pl;
                    memset(&pl, 0, sizeof pl);
                    pl.cut = CUT_AT;
                    pl.at = k;
                    snprintf(ctx, sizeof ctx, "motif %zu phase %zu to %d strict cut %zu", i, r,
                             (int)targets[t], k);
                    if (streamed(m[i].from, targets[t], s, n, &opt, &pl, &got)) {
                        same(&want, &got, &opt, false);
                        outcome_free(&got);
                    }
                }
                outcome_free(&want);
            }
        }
        free(in.p);
    }
}

/* ---- 4. contract details --------------------------------------------- */

static void details(void)
{
    utf8kit_stream st;
    utf8kit_options opt;
    unsigned char out[64];
    utf8kit_result r;
    unsigned char *p;

    /* arguments */
    CHECK(utf8kit_stream_init(NULL, UTF8KIT_UTF8, UTF8KIT_UTF8, NULL) ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "NULL stream");
    CHECK(utf8kit_stream_init(&st, UTF8KIT_ENCODING_UNKNOWN, UTF8KIT_UTF8, NULL) ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "unknown from");
    CHECK(utf8kit_stream_convert(&st, "a", 1, out, sizeof out, true).status ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "refused stream used");
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, (utf8kit_encoding)99, NULL) ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "unknown to");
    memset(&opt, 0, sizeof opt);
    opt.policy = UTF8KIT_REPLACE;
    opt.substitute = 0x20AC; /* not in Latin-1 */
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_LATIN1, &opt) ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "substitute not in target");
    opt.policy = (utf8kit_policy)7;
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, &opt) ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "bad policy");
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, NULL) == UTF8KIT_OK, "init");
    CHECK(utf8kit_stream_convert(&st, NULL, 3, out, sizeof out, false).status ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "NULL src with length");
    CHECK(utf8kit_stream_convert(NULL, "a", 1, out, sizeof out, false).status ==
              UTF8KIT_ERR_INVALID_ARGUMENT, "NULL stream");

    /* a held sequence: read counts it, nothing written until complete */
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, NULL) == UTF8KIT_OK, "init");
    p = dup_exact("a\xF0\x9F", 3);
    r = utf8kit_stream_convert(&st, p, 3, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_OK && r.read == 3 && r.written == 1 && st.offset == 3,
          "held: %s read %zu written %zu", utf8kit_status_name(r.status), r.read, r.written);
    free(p);
    p = dup_exact("\x98\x80", 2);
    r = utf8kit_stream_convert(&st, p, 2, out, 3, false); /* no room for 4 bytes */
    CHECK(r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL && r.read == 0 && r.written == 0,
          "too small: %s read %zu written %zu", utf8kit_status_name(r.status), r.read, r.written);
    r = utf8kit_stream_convert(&st, p, 2, out, 4, true);
    CHECK(r.status == UTF8KIT_OK && r.read == 2 && r.written == 4 &&
              memcmp(out, "\xF0\x9F\x98\x80", 4) == 0,
          "completed: %s read %zu written %zu", utf8kit_status_name(r.status), r.read, r.written);
    free(p);

    /* STRICT: the error lies in held bytes; error_bytes says which */
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF16LE, NULL) == UTF8KIT_OK, "init");
    p = dup_exact("ab\xE2\x82", 4);
    r = utf8kit_stream_convert(&st, p, 4, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_OK && r.written == 4, "strict held: %s", utf8kit_status_name(r.status));
    free(p);
    p = dup_exact("Z", 1);
    r = utf8kit_stream_convert(&st, p, 1, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_ERR_MISSING_CONTINUATION && r.read == 0 && r.written == 0 &&
              r.error_len == 2 && st.error_offset == 2 && st.error_len == 2 &&
              st.error_kind == UTF8KIT_ERR_MISSING_CONTINUATION &&
              memcmp(st.error_bytes, "\xE2\x82", 2) == 0 && st.errors == 1,
          "strict error in held bytes: %s read %zu at %llu len %zu", utf8kit_status_name(r.status),
          r.read, (unsigned long long)st.error_offset, st.error_len);
    r = utf8kit_stream_convert(&st, p, 1, out, sizeof out, true);
    CHECK(r.status == UTF8KIT_ERR_MISSING_CONTINUATION && r.read == 0, "failed stays failed");
    free(p);

    /* STRICT, cut at the end of the stream */
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, NULL) == UTF8KIT_OK, "init");
    p = dup_exact("x\xF4\x8F\xBF", 4);
    r = utf8kit_stream_convert(&st, p, 4, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_OK && r.written == 1, "truncated held");
    r = utf8kit_stream_convert(&st, NULL, 0, out, sizeof out, true);
    CHECK(r.status == UTF8KIT_ERR_TRUNCATED && r.error_len == 3 && st.error_offset == 1,
          "truncated at the end: %s len %zu at %llu", utf8kit_status_name(r.status), r.error_len,
          (unsigned long long)st.error_offset);
    free(p);

    /* REPLACE: C0 at the end of a chunk is written at once; its kind is
     * INVALID_LEAD until the next byte shows a continuation (OVERLONG) */
    memset(&opt, 0, sizeof opt);
    opt.policy = UTF8KIT_REPLACE;
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, &opt) == UTF8KIT_OK, "init");
    p = dup_exact("a\xC0", 2);
    r = utf8kit_stream_convert(&st, p, 2, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_OK && r.written == 4 && memcmp(out, "a\xEF\xBF\xBD", 4) == 0 &&
              st.errors == 1 && st.error_offset == 1,
          "C0 replaced at once: written %zu", r.written);
    free(p);
    p = dup_exact("\x80", 1);
    r = utf8kit_stream_convert(&st, p, 1, out, 0, false); /* no room: only the kind moves */
    CHECK(r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL && r.read == 0, "no room");
    CHECK(st.error_kind == UTF8KIT_ERR_OVERLONG && st.error_offset == 1 && st.errors == 1,
          "C0 80: kind %s", utf8kit_status_name(st.error_kind));
    r = utf8kit_stream_convert(&st, p, 1, out, sizeof out, true);
    CHECK(r.status == UTF8KIT_OK && r.written == 3 && st.errors == 2 &&
              st.error_kind == UTF8KIT_ERR_STRAY_CONTINUATION && st.error_offset == 2,
          "then the stray 80");
    free(p);

    /* BOM: STRIP drops a signature split over chunks; ADD writes one */
    memset(&opt, 0, sizeof opt);
    opt.bom = UTF8KIT_BOM_STRIP;
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF8, &opt) == UTF8KIT_OK, "init");
    {
        static const char *parts[] = {"\xEF", "", "\xBB", "\xBF\xEF\xBB\xBF", "x"};
        size_t i, total = 0;
        for (i = 0; i < 5; i++) {
            size_t n = strlen(parts[i]);
            p = dup_exact(parts[i], n);
            r = utf8kit_stream_convert(&st, p, n, out + total, sizeof out - total, i == 4);
            CHECK(r.status == UTF8KIT_OK && r.read == n, "strip part %zu", i);
            total += r.written;
            free(p);
        }
        CHECK(total == 4 && memcmp(out, "\xEF\xBB\xBFx", 4) == 0,
              "only the first U+FEFF is a signature: %zu bytes", total);
    }
    opt.bom = UTF8KIT_BOM_ADD;
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF16BE, &opt) == UTF8KIT_OK, "init");
    r = utf8kit_stream_convert(&st, NULL, 0, out, 1, false);
    CHECK(r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL && r.written == 0, "no room for the BOM");
    r = utf8kit_stream_convert(&st, NULL, 0, out, sizeof out, false);
    CHECK(r.status == UTF8KIT_OK && r.written == 2 && out[0] == 0xFE && out[1] == 0xFF, "BOM");
    p = dup_exact("\xEF\xBB\xBFhi", 5);
    r = utf8kit_stream_convert(&st, p, 5, out, sizeof out, true);
    CHECK(r.status == UTF8KIT_OK && r.written == 4 && memcmp(out, "\0h\0i", 4) == 0,
          "ADD: the input's BOM is not doubled, written %zu", r.written);
    free(p);
}

int main(void)
{
    const char *dir = testdata_dir();
    test_begin();
    details();
    if (dir) {
        size_t n;
        wpt_streaming(dir);
        n = all_cases(dir);
        CHECK(n > 700, "only %zu cases", n);
    } else {
        printf("note: UTF8KIT_TESTDATA not set, third-party cases skipped\n");
    }
    random_tests(test_quick());
    motif_tests(test_quick());
    last_error_tests(test_quick());
    assume_valid_tests();
    return test_done("stream");
}
