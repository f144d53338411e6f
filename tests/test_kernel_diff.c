/*
 * test_kernel_diff.c - differential stress of the active kernel against the
 * scalar kernel through the PUBLIC API only (utf8kit_impl_select switches
 * between the two inside this one process):
 *  - utf8kit_convert for every pair of encodings and every policy (STRICT,
 *    REPLACE, SKIP, and ASSUME_VALID where the scalar kernel says the input
 *    is valid), with a random BOM option and substitute;
 *  - the typed functions (utf8 <-> utf16le/be, utf32, latin1);
 *  - utf8kit_validate, utf8kit_validate_counts, utf8kit_is_valid,
 *    utf8kit_ascii_prefix, utf8kit_count, utf8kit_utf16_length and
 *    utf8kit_repair.
 * Each call runs with dst == NULL (measuring), with the exact room the
 * scalar kernel measured, one unit short, a generous room and a random
 * room below the exact one; status,
 * read, written, error_len, replaced, the bytes written and a canary after
 * the room must all agree. Inputs are exact-size heap copies.
 * Generators (fixed seed): valid text of each width class (1-4 octets) and
 * mixes; the same with one mutation near a 16/32/64-byte block edge; long
 * ASCII runs followed by multibyte text; random bytes; UTF-16 with lone and
 * paired surrogates at block edges; UTF-32 with surrogates and values out
 * of range.
 * Deterministic block-edge matrices: UTF-8 sequences (good, overlong,
 * surrogate, too large, truncated, stray) starting 0..3 bytes before the
 * 16/64/128-byte edges, UTF-16 surrogates 0..2 units before the 8..64-unit
 * edges and UTF-32 values 0..1 units before the 4..32-unit edges, between
 * every pair of text classes (ASCII, 2-, 3-, 4-octet, mixed); runs of
 * characters above U+FFFF alone (UTF-8, UTF-16 pairs, UTF-32) with a bad
 * or unfinished form at every position; text with an error every 23
 * bytes or units (a lone byte E9 in ASCII UTF-8, an unpaired surrogate in
 * ASCII UTF-16) and a sequence at every offset 0..140.
 * The regression cases (reproducers of kernel bugs found by this program)
 * run in every build, also under UTF8KIT_TEST_QUICK=1, which only thins
 * the matrices and shrinks the random sweep.
 * On a mismatch the input is shrunk (units removed while the mismatch
 * persists) and the smallest reproducer is printed in hex.
 */
#include "testlib.h"

#include <stdint.h>

static char active[32];

/* ---- the operations -------------------------------------------------- */

enum op_kind {
    OP_CONVERT,
    OP_U8_16LE,
    OP_U8_16BE,
    OP_U8_32,
    OP_16LE_U8,
    OP_16BE_U8,
    OP_32_U8,
    OP_L1_U8,
    OP_U8_L1,
    OP_REPAIR,
    OP_VALIDATE, /* validate, validate_counts, is_valid, ascii_prefix, count,
                    utf16_length: no output buffer */
    OP_KINDS
};

static const char *const op_names[OP_KINDS] = {
    "utf8kit_convert",         "utf8kit_utf8_to_utf16le", "utf8kit_utf8_to_utf16be",
    "utf8kit_utf8_to_utf32",   "utf8kit_utf16le_to_utf8", "utf8kit_utf16be_to_utf8",
    "utf8kit_utf32_to_utf8",   "utf8kit_latin1_to_utf8",  "utf8kit_utf8_to_latin1",
    "utf8kit_repair",          "utf8kit_validate*/count*"};

struct op {
    enum op_kind kind;
    utf8kit_encoding from, to; /* OP_CONVERT */
    utf8kit_options opt;       /* OP_CONVERT; opt.policy for the typed ones */
    int misalign;              /* OP_CONVERT: source and output one byte off
                                  their malloc alignment */
};

/* input unit and output unit sizes in bytes */
static size_t in_unit(const struct op *o)
{
    switch (o->kind) {
    case OP_16LE_U8:
    case OP_16BE_U8:
        return 2;
    case OP_32_U8:
        return 4;
    default:
        return 1;
    }
}

static size_t out_unit(const struct op *o)
{
    switch (o->kind) {
    case OP_U8_16LE:
    case OP_U8_16BE:
        return 2;
    case OP_U8_32:
        return 4;
    default:
        return 1;
    }
}

/* A generous room in output units for n input bytes. */
static size_t generous(const struct op *o, size_t n)
{
    switch (o->kind) {
    case OP_CONVERT:
        return utf8kit_max_output_size(o->from, o->to, n) + 8;
    case OP_U8_16LE:
    case OP_U8_16BE:
    case OP_U8_32:
    case OP_U8_L1:
        return n + 8;
    case OP_16LE_U8:
    case OP_16BE_U8:
        return 3 * (n / 2) + 8;
    case OP_32_U8:
        return 4 * (n / 4) + 8;
    case OP_L1_U8:
        return 2 * n + 8;
    case OP_REPAIR:
        return 3 * n + 8;
    default:
        return 0;
    }
}

/* One call: dst may be NULL (measure); cap in output units. */
static utf8kit_result call(const struct op *o, const void *s, size_t n, void *dst, size_t cap)
{
    utf8kit_policy p = o->opt.policy;
    switch (o->kind) {
    case OP_CONVERT:
        return utf8kit_convert(o->from, o->to, s, n, dst, cap, &o->opt);
    case OP_U8_16LE:
        return utf8kit_utf8_to_utf16le(s, n, dst, cap, p);
    case OP_U8_16BE:
        return utf8kit_utf8_to_utf16be(s, n, dst, cap, p);
    case OP_U8_32:
        return utf8kit_utf8_to_utf32(s, n, dst, cap, p);
    case OP_16LE_U8:
        return utf8kit_utf16le_to_utf8(s, n / 2, dst, cap, p);
    case OP_16BE_U8:
        return utf8kit_utf16be_to_utf8(s, n / 2, dst, cap, p);
    case OP_32_U8:
        return utf8kit_utf32_to_utf8(s, n / 4, dst, cap, p);
    case OP_L1_U8:
        return utf8kit_latin1_to_utf8(s, n, dst, cap);
    case OP_U8_L1:
        return utf8kit_utf8_to_latin1(s, n, dst, cap, p);
    case OP_REPAIR:
        return utf8kit_repair(s, n, dst, cap);
    default: {
        utf8kit_result r;
        memset(&r, 0, sizeof r);
        return r;
    }
    }
}

/* What one kernel gives for one operation: the results of the measuring
 * call and of each room, the bytes written, and for OP_VALIDATE a digest. */
#define ROOMS 5
#define OUTMAX (1u << 20)
#define CANARY 32
struct outcome {
    utf8kit_result r[ROOMS];
    size_t cap[ROOMS];
    int canary_ok[ROOMS];
    unsigned char *out[ROOMS];
    /* OP_VALIDATE */
    utf8kit_result v, vc;
    utf8kit_counts counts;
    int valid;
    size_t ascii, count, u16;
};

static unsigned char *outbuf[2][ROOMS];

static void run_kernel(const struct op *o, const unsigned char *s, size_t n, int which,
                       const size_t *caps, struct outcome *x)
{
    size_t i, ou = out_unit(o);
    memset(x, 0, sizeof *x);
    if (o->kind == OP_VALIDATE) {
        x->v = utf8kit_validate((const char *)s, n);
        memset(&x->counts, 0, sizeof x->counts);
        x->counts.lines = 7; /* it must add, not reset */
        x->vc = utf8kit_validate_counts((const char *)s, n, &x->counts);
        x->valid = utf8kit_is_valid((const char *)s, n);
        x->ascii = utf8kit_ascii_prefix((const char *)s, n);
        x->count = utf8kit_count((const char *)s, n);
        x->u16 = utf8kit_utf16_length((const char *)s, n);
        return;
    }
    for (i = 0; i < ROOMS; i++) {
        size_t bytes = caps[i] * ou;
        unsigned char *d = outbuf[which][i] + (o->misalign ? 1 : 0);
        x->cap[i] = caps[i];
        if (i == 0) { /* measure */
            x->r[i] = call(o, s, n, NULL, 0);
            x->canary_ok[i] = 1;
            x->out[i] = d;
            continue;
        }
        if (bytes + CANARY + 1 > OUTMAX) {
            x->canary_ok[i] = 1;
            continue;
        }
        memset(d, 0xA5, bytes + CANARY);
        x->r[i] = call(o, s, n, d, caps[i]);
        x->out[i] = d;
        x->canary_ok[i] = 1;
        {
            size_t k;
            for (k = 0; k < CANARY; k++)
                if (d[bytes + k] != 0xA5)
                    x->canary_ok[i] = 0;
        }
    }
}

static int same_r(utf8kit_result a, utf8kit_result b)
{
    return a.status == b.status && a.read == b.read && a.written == b.written &&
           a.error_len == b.error_len && a.replaced == b.replaced;
}

/* Returns 0 when the kernels agree, else the index of the first difference
 * (1 + room, or 100 + field for OP_VALIDATE) and describes it in msg. */
static int differ(const struct op *o, const struct outcome *w, const struct outcome *g,
                  char *msg, size_t msz)
{
    size_t i, ou = out_unit(o);
    if (o->kind == OP_VALIDATE) {
        if (!same_r(w->v, g->v)) {
            snprintf(msg, msz, "validate: scalar %s read %zu elen %zu, got %s read %zu elen %zu",
                     utf8kit_status_name(w->v.status), w->v.read, w->v.error_len,
                     utf8kit_status_name(g->v.status), g->v.read, g->v.error_len);
            return 100;
        }
        if (!same_r(w->vc, g->vc) || memcmp(&w->counts, &g->counts, sizeof w->counts) != 0) {
            snprintf(msg, msz,
                     "validate_counts: scalar %s read %zu elen %zu lines %llu seq %llu/%llu/%llu/%llu,"
                     " got %s read %zu elen %zu lines %llu seq %llu/%llu/%llu/%llu",
                     utf8kit_status_name(w->vc.status), w->vc.read, w->vc.error_len,
                     (unsigned long long)w->counts.lines, (unsigned long long)w->counts.seq[1],
                     (unsigned long long)w->counts.seq[2], (unsigned long long)w->counts.seq[3],
                     (unsigned long long)w->counts.seq[4], utf8kit_status_name(g->vc.status),
                     g->vc.read, g->vc.error_len, (unsigned long long)g->counts.lines,
                     (unsigned long long)g->counts.seq[1], (unsigned long long)g->counts.seq[2],
                     (unsigned long long)g->counts.seq[3], (unsigned long long)g->counts.seq[4]);
            return 101;
        }
        if (w->valid != g->valid) {
            snprintf(msg, msz, "is_valid: scalar %d got %d", w->valid, g->valid);
            return 102;
        }
        if (w->ascii != g->ascii) {
            snprintf(msg, msz, "ascii_prefix: scalar %zu got %zu", w->ascii, g->ascii);
            return 103;
        }
        if (w->count != g->count) {
            snprintf(msg, msz, "count: scalar %zu got %zu", w->count, g->count);
            return 104;
        }
        if (w->u16 != g->u16) {
            snprintf(msg, msz, "utf16_length: scalar %zu got %zu", w->u16, g->u16);
            return 105;
        }
        return 0;
    }
    for (i = 0; i < ROOMS; i++) {
        static const char *const rooms[ROOMS] = {"measure", "exact", "one short", "generous",
                                                  "random below exact"};
        const char *room = rooms[i];
        if (i > 0 && w->out[i] == NULL)
            continue;
        if (!g->canary_ok[i]) {
            snprintf(msg, msz, "room %s (cap %zu): wrote past the room", room, g->cap[i]);
            return 1 + (int)i;
        }
        if (!same_r(w->r[i], g->r[i]) ||
            (i > 0 && w->r[i].written == g->r[i].written &&
             memcmp(w->out[i], g->out[i], w->r[i].written * ou) != 0)) {
            size_t k = 0;
            if (i > 0 && w->r[i].written == g->r[i].written)
                while (k < w->r[i].written * ou && w->out[i][k] == g->out[i][k])
                    k++;
            snprintf(msg, msz,
                     "room %s (cap %zu): scalar %s read %zu wrote %zu elen %zu repl %zu, got %s "
                     "read %zu wrote %zu elen %zu repl %zu%s (first differing output byte %zu)",
                     room, g->cap[i], utf8kit_status_name(w->r[i].status), w->r[i].read,
                     w->r[i].written, w->r[i].error_len, w->r[i].replaced,
                     utf8kit_status_name(g->r[i].status), g->r[i].read, g->r[i].written,
                     g->r[i].error_len, g->r[i].replaced,
                     same_r(w->r[i], g->r[i]) ? " (same result, other bytes)" : "", k);
            return 1 + (int)i;
        }
    }
    return 0;
}

static struct outcome ow, og;

/* Runs o on s[0..n) under both kernels; returns the difference code. */
static int compare(const struct op *o, const unsigned char *s0, size_t n, char *msg, size_t msz)
{
    size_t caps[ROOMS];
    /* an exact-size heap copy, or one byte into an exact-size block */
    size_t bs = n + (o->misalign ? 1u : 0u);
    unsigned char *blk = malloc(bs ? bs : 1), *s = blk + (o->misalign ? 1 : 0);
    int d;
    if (!blk)
        exit(2);
    if (n)
        memcpy(s, s0, n);
    utf8kit_impl_select("scalar");
    caps[0] = 0;
    if (o->kind != OP_VALIDATE) {
        utf8kit_result m = call(o, s, n, NULL, 0);
        caps[1] = m.written;
        caps[2] = m.written ? m.written - 1 : 0;
        caps[3] = generous(o, n);
        caps[4] = m.written ? rnd() % m.written : 0;
    }
    run_kernel(o, s, n, 0, caps, &ow);
    utf8kit_impl_select(active);
    run_kernel(o, s, n, 1, caps, &og);
    d = differ(o, &ow, &og, msg, msz);
    free(blk);
    return d;
}

static void describe(const struct op *o, char *buf, size_t sz)
{
    static const char *const pol[] = {"STRICT", "REPLACE", "SKIP", "ASSUME_VALID"};
    if (o->kind == OP_CONVERT)
        snprintf(buf, sz, "utf8kit_convert(%d -> %d, %s, bom %d, subst U+%04X%s)", (int)o->from,
                 (int)o->to, pol[o->opt.policy & 3], (int)o->opt.bom,
                 (unsigned)o->opt.substitute, o->misalign ? ", src and dst 1 byte off" : "");
    else if (o->kind == OP_VALIDATE || o->kind == OP_REPAIR || o->kind == OP_L1_U8)
        snprintf(buf, sz, "%s", op_names[o->kind]);
    else
        snprintf(buf, sz, "%s(%s)", op_names[o->kind], pol[o->opt.policy & 3]);
}

/* Shrinks a failing input: removes chunks of units (halving sizes down to
 * one unit) while the same difference code persists. */
static size_t shrink(const struct op *o, unsigned char *s, size_t n, int code)
{
    size_t u = in_unit(o), chunk, at, rounds = 0;
    unsigned char *t = malloc(n ? n : 1);
    char msg[512];
    for (chunk = (n / u / 2) * u; chunk >= u; chunk = chunk / u / 2 * u) {
        int progress = 1;
        while (progress && rounds < 20000) {
            progress = 0;
            for (at = 0; at + chunk <= n; at += u) {
                rounds++;
                memcpy(t, s, at);
                memcpy(t + at, s + at + chunk, n - at - chunk);
                if (compare(o, t, n - chunk, msg, sizeof msg) == code) {
                    memcpy(s, t, n - chunk);
                    n -= chunk;
                    progress = 1;
                    break;
                }
            }
        }
        if (chunk == u)
            break;
    }
    free(t);
    return n;
}

static unsigned long reported;

/* Compares, and on a difference prints a shrunk reproducer. */
static void check_op(const struct op *o, const unsigned char *s, size_t n, const char *gen)
{
    char msg[512], what[160];
    int code = compare(o, s, n, msg, sizeof msg);
    CHECK(code == 0, "%s", "kernel differs from scalar");
    if (code == 0)
        return;
    describe(o, what, sizeof what);
    if (++reported <= 12) {
        unsigned char *m = dup_exact(s, n);
        size_t k, mn = shrink(o, m, n, code);
        compare(o, m, mn, msg, sizeof msg);
        fprintf(stderr, "  kernel %s, %s, generator %s, input %zu bytes, shrunk to %zu:\n    ",
                active, what, gen, n, mn);
        for (k = 0; k < mn; k++)
            fprintf(stderr, "%02X%s", m[k], k + 1 < mn ? " " : "\n");
        if (mn == 0)
            fputc('\n', stderr);
        fprintf(stderr, "    %s\n", msg);
        free(m);
    } else if (reported <= 60) {
        fprintf(stderr, "  kernel %s, %s, generator %s, input %zu bytes: %s\n", active, what, gen,
                n, msg);
    }
}

/* ---- the operations run on one input ---------------------------------- */

enum src_class { SRC_BYTES8, SRC_UTF16, SRC_UTF32 };

static const utf8kit_encoding all_enc[] = {
    UTF8KIT_UTF8,    UTF8KIT_UTF16LE, UTF8KIT_UTF16BE, UTF8KIT_UTF32LE, UTF8KIT_UTF32BE,
    UTF8KIT_UCS2LE,  UTF8KIT_UCS2BE,  UTF8KIT_LATIN1,  UTF8KIT_ASCII,   UTF8KIT_CP1252,
    UTF8KIT_CESU8,   UTF8KIT_MUTF8,   UTF8KIT_UTF8_RFC2279};
#define N_ENC (sizeof all_enc / sizeof all_enc[0])

static const uint32_t substitutes[] = {0, '?', 0xFFFD, 0x20AC, 0x1F600};

static int full_pairs; /* every pair for every input, else a sample */

static void run_all(const unsigned char *s, size_t n, enum src_class c, const char *gen)
{
    static const utf8kit_encoding from8[] = {UTF8KIT_UTF8,  UTF8KIT_CESU8, UTF8KIT_MUTF8,
                                             UTF8KIT_LATIN1, UTF8KIT_ASCII, UTF8KIT_CP1252,
                                             UTF8KIT_UTF8_RFC2279};
    static const utf8kit_encoding from16[] = {UTF8KIT_UTF16LE, UTF8KIT_UCS2LE};
    static const utf8kit_encoding from32[] = {UTF8KIT_UTF32LE};
    const utf8kit_encoding *fr;
    size_t nf, i, j, p;
    struct op o;
    /* the same units in big-endian order for the BE sources */
    unsigned char *sw = malloc(n ? n : 1);
    size_t u = c == SRC_UTF16 ? 2 : c == SRC_UTF32 ? 4 : 1;
    for (i = 0; i + u <= n; i += u)
        for (j = 0; j < u; j++)
            sw[i + j] = s[i + u - 1 - j];
    for (; i < n; i++)
        sw[i] = s[i];

    switch (c) {
    case SRC_UTF16:
        fr = from16, nf = 2;
        break;
    case SRC_UTF32:
        fr = from32, nf = 1;
        break;
    default:
        fr = from8, nf = sizeof from8 / sizeof from8[0];
    }
    memset(&o, 0, sizeof o);
    o.kind = OP_CONVERT;
    for (i = 0; i < nf; i++) {
        /* always UTF-8, the first source, and all targets for it */
        if (!full_pairs && i > 0 && rnd() % 3 != 0)
            continue;
        for (j = 0; j < N_ENC; j++) {
            if (!full_pairs && i > 0 && rnd() % 2)
                continue;
            for (p = 0; p < 4; p++) {
                int be = (c != SRC_BYTES8) && (rnd() & 1);
                utf8kit_result sr;
                o.from = fr[i];
                if (be)
                    o.from = (utf8kit_encoding)(o.from + 1); /* the BE twin */
                o.to = all_enc[j];
                o.opt.policy = (utf8kit_policy)p;
                o.opt.bom = (rnd() % 4 == 0) ? (utf8kit_bom_policy)(1 + rnd() % 2) : UTF8KIT_BOM_KEEP;
                o.opt.substitute = (rnd() % 4 == 0) ? substitutes[rnd() % 5] : 0;
                o.misalign = rnd() % 4 == 0;
                if (p == 3) { /* ASSUME_VALID only on input the scalar kernel finds valid */
                    utf8kit_options st = o.opt;
                    st.policy = UTF8KIT_STRICT;
                    utf8kit_impl_select("scalar");
                    sr = utf8kit_convert(o.from, o.to, be ? sw : s, n, NULL, 0, &st);
                    if (sr.status != UTF8KIT_OK)
                        continue;
                }
                check_op(&o, be ? sw : s, n, gen);
            }
        }
    }

    /* typed */
    o.misalign = 0;
    for (p = 0; p < 4; p++) {
        o.opt.policy = (utf8kit_policy)p;
        if (c == SRC_BYTES8) {
            int valid;
            utf8kit_impl_select("scalar");
            valid = utf8kit_is_valid((const char *)s, n);
            if (p == 3 && !valid)
                continue;
            o.kind = OP_U8_16LE, check_op(&o, s, n, gen);
            o.kind = OP_U8_16BE, check_op(&o, s, n, gen);
            o.kind = OP_U8_32, check_op(&o, s, n, gen);
            if (p != 3 || utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_LATIN1, s, n, NULL, 0, NULL).status ==
                              UTF8KIT_OK)
                o.kind = OP_U8_L1, check_op(&o, s, n, gen);
            if (p == 0) {
                o.kind = OP_L1_U8, check_op(&o, s, n, gen);
                o.kind = OP_REPAIR, check_op(&o, s, n, gen);
                o.kind = OP_VALIDATE, check_op(&o, s, n, gen);
            }
        } else if (c == SRC_UTF16) {
            utf8kit_impl_select("scalar");
            if (p == 3 && utf8kit_utf16le_to_utf8((const uint16_t *)(const void *)s, n / 2, NULL, 0,
                                                  UTF8KIT_STRICT).status != UTF8KIT_OK)
                continue;
            o.kind = OP_16LE_U8, check_op(&o, s, n & ~(size_t)1, gen);
            o.kind = OP_16BE_U8, check_op(&o, sw, n & ~(size_t)1, gen);
        } else {
            utf8kit_impl_select("scalar");
            if (p == 3 && utf8kit_utf32_to_utf8((const uint32_t *)(const void *)s, n / 4, NULL, 0,
                                                UTF8KIT_STRICT).status != UTF8KIT_OK)
                continue;
            o.kind = OP_32_U8, check_op(&o, s, n & ~(size_t)3, gen);
        }
    }
    free(sw);
}

/* ---- generators --------------------------------------------------------- */

/* A random code point needing `w` UTF-8 octets (w = 1..4). */
static uint32_t cp_of_width(int w)
{
    uint32_t c;
    switch (w) {
    case 1:
        c = rnd() % 0x80;
        if (rnd() % 8 == 0)
            c = '\n';
        return c;
    case 2:
        return 0x80 + rnd() % (0x800 - 0x80);
    case 3:
        do
            c = 0x800 + rnd() % (0x10000 - 0x800);
        while (c >= 0xD800 && c <= 0xDFFF);
        if (rnd() % 16 == 0)
            c = rnd() % 2 ? 0xFEFF : 0xFFFD;
        return c;
    default:
        return 0x10000 + rnd() % (0x110000 - 0x10000);
    }
}

static size_t put8(unsigned char *d, uint32_t c)
{
    return utf8kit_encode(c, (char *)d);
}

/* Valid UTF-8 of about n bytes; mix: 0 = random width per char, 1..4 =
 * mostly that width, 5 = runs of widths, 6..9 = only width 1..4. */
static size_t gen_valid8(unsigned char *d, size_t n, int mix)
{
    size_t k = 0;
    int runw = 1, runleft = 0;
    while (k + 4 <= n) {
        int w;
        if (mix == 0)
            w = 1 + (int)(rnd() % 4);
        else if (mix >= 6) /* one width only */
            w = mix - 5;
        else if (mix <= 4)
            w = rnd() % 8 == 0 ? 1 + (int)(rnd() % 4) : mix;
        else {
            if (runleft == 0)
                runw = 1 + (int)(rnd() % 4), runleft = 1 + (int)(rnd() % 40);
            runleft--;
            w = runw;
        }
        k += put8(d + k, cp_of_width(w));
    }
    while (k < n)
        d[k++] = (unsigned char)('a' + rnd() % 26);
    return k;
}

static const unsigned char bad_bytes[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                          0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFE, 0xFF, 0xA0, 0x90, 0x8F};

/* One mutation near a block edge (16, 32, 64 multiples, -4..+4). */
static void mutate8(unsigned char *d, size_t n)
{
    static const size_t blk[] = {16, 32, 64};
    size_t b, at;
    if (n == 0)
        return;
    b = blk[rnd() % 3];
    at = (1 + rnd() % (n / b + 1)) * b;
    at = at + (rnd() % 9) - 4;
    if (at >= n)
        at = n - 1 - rnd() % (n < 5 ? n : 5);
    switch (rnd() % 6) {
    case 0:
        d[at] = bad_bytes[rnd() % sizeof bad_bytes];
        break;
    case 1: /* a surrogate, an overlong or too large 2..3 byte prefix */
    {
        static const unsigned char pre[][3] = {{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xE0, 0x9F, 0xBF},
                                                {0xF0, 0x8F, 0xBF}, {0xF4, 0x90, 0x80}, {0xC0, 0xAF, 0x41},
                                                {0xC1, 0xBF, 0x41}, {0xF5, 0x80, 0x80}};
        size_t q = rnd() % 8, k;
        for (k = 0; k < 3 && at + k < n; k++)
            d[at + k] = pre[q][k];
        break;
    }
    case 2: /* a continuation byte replaced by ASCII (a missing continuation) */
        d[at] = (unsigned char)('A' + rnd() % 26);
        break;
    case 3:
        d[at] = (unsigned char)rnd();
        break;
    case 4: /* a lead byte at the very end: truncation */
        d[n - 1] = (unsigned char)(0xC2 + rnd() % 0x33);
        break;
    default: /* flip one bit */
        d[at] ^= (unsigned char)(1u << (rnd() % 8));
    }
}

static size_t put16(unsigned char *d, uint16_t u)
{
    d[0] = (unsigned char)u;
    d[1] = (unsigned char)(u >> 8);
    return 2;
}

/* UTF-16LE of about n units; with surrogate trouble at block edges. */
static size_t gen_utf16(unsigned char *d, size_t units, int trouble)
{
    size_t k = 0, mix = rnd() % 9;
    while (k / 2 + 2 <= units) {
        /* 0 any width, 1..4 mostly that one, 5..8 only that one */
        int w = mix == 0 ? 1 + (int)(rnd() % 4)
                : mix <= 4 ? (rnd() % 8 ? (int)mix : 1)
                           : (int)mix - 4;
        uint32_t c = cp_of_width(w);
        if (c >= 0x10000) {
            c -= 0x10000;
            k += put16(d + k, (uint16_t)(0xD800 + (c >> 10)));
            k += put16(d + k, (uint16_t)(0xDC00 + (c & 0x3FF)));
        } else
            k += put16(d + k, (uint16_t)c);
    }
    while (k / 2 < units)
        k += put16(d + k, 'z');
    if (trouble && units > 0) {
        int t, nt = 1 + (int)(rnd() % 3);
        for (t = 0; t < nt; t++) {
            static const size_t blk[] = {8, 16, 32};
            size_t b = blk[rnd() % 3], at = ((1 + rnd() % (units / b + 1)) * b + rnd() % 5) - 2;
            if (at >= units)
                at = units - 1;
            switch (rnd() % 5) {
            case 0: /* lone high */
                put16(d + 2 * at, (uint16_t)(0xD800 + rnd() % 0x400));
                break;
            case 1: /* lone low */
                put16(d + 2 * at, (uint16_t)(0xDC00 + rnd() % 0x400));
                break;
            case 2: /* a pair straddling the edge */
                put16(d + 2 * at, (uint16_t)(0xD800 + rnd() % 0x400));
                if (at + 1 < units)
                    put16(d + 2 * at + 2, (uint16_t)(0xDC00 + rnd() % 0x400));
                break;
            case 3: /* reversed pair */
                put16(d + 2 * at, (uint16_t)(0xDC00 + rnd() % 0x400));
                if (at + 1 < units)
                    put16(d + 2 * at + 2, (uint16_t)(0xD800 + rnd() % 0x400));
                break;
            default: /* high surrogate at the very end */
                put16(d + 2 * (units - 1), (uint16_t)(0xD800 + rnd() % 0x400));
            }
        }
    }
    return 2 * units;
}

static size_t gen_utf32(unsigned char *d, size_t units, int trouble)
{
    size_t i;
    int mix = (int)(rnd() % 5);
    for (i = 0; i < units; i++) {
        uint32_t c = cp_of_width(mix == 0 ? 1 + (int)(rnd() % 4) : (rnd() % 8 ? mix : 1));
        if (trouble && rnd() % 24 == 0) {
            static const uint32_t badv[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000,
                                            0x10FFFF, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x1FFFFF};
            c = badv[rnd() % 10];
            if (rnd() % 4 == 0)
                c = rnd() ^ (rnd() << 21);
        }
        d[4 * i] = (unsigned char)c;
        d[4 * i + 1] = (unsigned char)(c >> 8);
        d[4 * i + 2] = (unsigned char)(c >> 16);
        d[4 * i + 3] = (unsigned char)(c >> 24);
    }
    return 4 * units;
}

static size_t rand_len(size_t maxn)
{
    switch (rnd() % 4) {
    case 0:
        return rnd() % 40;
    case 1: /* just around the block sizes */
    {
        static const size_t e[] = {16, 32, 48, 64, 96, 128, 192, 256};
        size_t v = e[rnd() % 8] + (rnd() % 9) - 4;
        return v < maxn ? v : maxn;
    }
    default:
        return rnd() % maxn;
    }
}

static unsigned char gbuf[80 * 1024];

/* UTF-32: units of one class (0 ASCII, 1 below U+0800, 2 BMP above, 3
 * supplementary, 4 a mix), one bad or boundary value 0..1 units before an
 * edge of 4, 8, 16 or 32 units, then 20 units of a class or the end. */
static void edge_matrix32(int q)
{
    static const uint32_t cps[] = {'a', 0x3A9, 0x4E00, 0x1F600};
    static const uint32_t vals[] = {0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF,
                                    0x10FFFF, 0xFFFF, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000};
    static const size_t edges[] = {4, 8, 16, 32};
    size_t e, k, vi, n, j;
    int a, b, end;
    for (e = 0; e < 4; e++)
        for (k = 0; k < 2; k++)
            for (vi = 0; vi < sizeof vals / sizeof vals[0]; vi++)
                for (a = 0; a < 5; a++)
                    for (b = 0; b < 5; b++)
                        for (end = 0; end < 2; end++) {
                            struct op o;
                            uint32_t u[80];
                            size_t nu = 0;
                            if (q && (e + k + vi + (size_t)a + (size_t)b) % 4)
                                continue;
                            if (end && b)
                                continue;
                            for (j = 0; j < edges[e] - k; j++)
                                u[nu++] = a == 4 ? cps[j % 4] : cps[a];
                            u[nu++] = vals[vi];
                            if (!end)
                                for (j = 0; j < 20; j++)
                                    u[nu++] = b == 4 ? cps[j % 4] : cps[b];
                            for (n = 0, j = 0; j < nu; j++, n += 4) {
                                gbuf[n] = (unsigned char)u[j];
                                gbuf[n + 1] = (unsigned char)(u[j] >> 8);
                                gbuf[n + 2] = (unsigned char)(u[j] >> 16);
                                gbuf[n + 3] = (unsigned char)(u[j] >> 24);
                            }
                            memset(&o, 0, sizeof o);
                            for (o.opt.policy = UTF8KIT_STRICT; o.opt.policy <= UTF8KIT_REPLACE;
                                 o.opt.policy++) {
                                o.kind = OP_32_U8;
                                check_op(&o, gbuf, n, "edge matrix 32");
                            }
                            o.kind = OP_CONVERT;
                            o.from = UTF8KIT_UTF32LE;
                            o.to = UTF8KIT_UTF16LE;
                            o.opt.policy = UTF8KIT_STRICT;
                            check_op(&o, gbuf, n, "edge matrix 32");
                        }
}

/* ---- regression cases --------------------------------------------------- */

/* The input: `rep` copies of the hex bytes `unit`, then the hex bytes
 * `tail`. */
struct regr {
    const char *unit;
    unsigned rep;
    const char *tail;
    enum src_class c;
    const char *note;
};

/* Reproducers found by this program; each runs through every operation
 * of its source class (every pair, every policy, every room). */
static const struct regr regressions[] = {
    {"", 0, "", SRC_BYTES8, "empty"},
    /* avx512 UTF-8 -> UTF-16/UTF-32 (src/simd/compress.h,
     * u8k_check_decode): a C0 or C1 as the last byte of a 64-byte block
     * that takes the general (lookup) path, its tail in the next block
     * that takes the 2-byte path, was accepted: STRICT gave OK and
     * REPLACE no U+FFFD (scalar: OVERLONG at 63, error_len 1). */
    {"E4 B8 80", 21, "C1 BF", SRC_BYTES8, "avx512 C1 BF across the block edge at 64"},
    {"E4 B8 80", 42, "61 C0 80", SRC_BYTES8, "avx512 C0 80 across the block edge at 128"},
    {"F0 9F 98 80", 15, "61 61 61 C1 BF 61", SRC_BYTES8, "avx512 C1 BF after 4-byte text"},
    {NULL, 0, NULL, SRC_BYTES8, NULL}};

static size_t from_hex(const char *h, unsigned char *d)
{
    size_t n = 0;
    while (*h) {
        unsigned v;
        if (*h == ' ') {
            h++;
            continue;
        }
        if (sscanf(h, "%2x", &v) != 1)
            break;
        d[n++] = (unsigned char)v;
        h += 2;
    }
    return n;
}

/* Filler text of one class up to exactly `upto` bytes (ASCII pads the
 * last 0..3): 0 ASCII, 1 two-byte, 2 three-byte, 3 four-byte, 4 a mix. */
static size_t fill8(unsigned char *d, size_t k, size_t upto, int cls)
{
    static const uint32_t cps[] = {'a', 0xE9, 0x4E00, 0x1F600};
    size_t j = 0;
    while (k < upto) {
        uint32_t c = cls == 4 ? cps[j++ % 4] : cps[cls];
        if (utf8kit_encoded_length(c) > upto - k)
            c = 'a';
        k += put8(d + k, c);
    }
    return k;
}

/* The block-edge matrix: for every pair of text classes before and after,
 * each sequence of `seqs` starting 0..3 bytes before a block edge (16, 64,
 * 128), followed by 70 bytes of the second class or by the end. */
static void edge_matrix8(int q)
{
    static const char *const seqs[] = {
        "C0 80", "C1 BF", "C2 41", "C2", "E0 80 80", "E0 9F BF", "ED A0 80", "ED BF BF", "EF BF",
        "F0 8F BF BF", "F4 90 80 80", "F5 80 80 80", "FF", "80", "BF", "E4 B8", "F0 9F 98",
        "C2 80", "E0 A0 80", "ED 9F BF", "F0 90 80 80", "F4 8F BF BF", "EF BF BF", "F8 88 80 80 80"};
    static const size_t edges[] = {16, 64, 128};
    size_t e, k, si;
    int a, b, end;
    unsigned char sq[8];
    for (e = 0; e < 3; e++)
        for (k = 0; k < 4; k++)
            for (si = 0; si < sizeof seqs / sizeof seqs[0]; si++)
                for (a = 0; a < 5; a++)
                    for (b = 0; b < 5; b++)
                        for (end = 0; end < 2; end++) {
                            struct op o;
                            size_t n, sl = from_hex(seqs[si], sq);
                            if (q && (e + k + si + (size_t)a + (size_t)b) % 4)
                                continue;
                            if (end && b)
                                continue;
                            n = fill8(gbuf, 0, edges[e] - k, a);
                            memcpy(gbuf + n, sq, sl);
                            n += sl;
                            if (!end)
                                n = fill8(gbuf, n, n + 70, b);
                            memset(&o, 0, sizeof o);
                            o.kind = OP_VALIDATE;
                            check_op(&o, gbuf, n, "edge matrix 8");
                            o.kind = OP_REPAIR;
                            check_op(&o, gbuf, n, "edge matrix 8");
                            for (o.opt.policy = UTF8KIT_STRICT; o.opt.policy <= UTF8KIT_REPLACE;
                                 o.opt.policy++) {
                                o.kind = OP_U8_16LE;
                                check_op(&o, gbuf, n, "edge matrix 8");
                                o.kind = OP_U8_32;
                                check_op(&o, gbuf, n, "edge matrix 8");
                                o.kind = OP_U8_L1;
                                check_op(&o, gbuf, n, "edge matrix 8");
                            }
                        }
}

/* UTF-8 s[0..n) under REPLACE to UTF-16LE/BE and UTF-32, and repaired. */
static void check_replacing(const unsigned char *s, size_t n, const char *gen)
{
    static const enum op_kind kinds[] = {OP_U8_16LE, OP_U8_16BE, OP_U8_32, OP_REPAIR};
    struct op o;
    size_t k;
    memset(&o, 0, sizeof o);
    o.opt.policy = UTF8KIT_REPLACE;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        o.kind = kinds[k];
        check_op(&o, s, n, gen);
    }
}

/* Text that is not UTF-8 (Latin-1 read as UTF-8) has errors in most
 * blocks, most of them lone bytes (a lead with no tail after it, a tail
 * after ASCII), which the AVX-512 and AVX2 kernels replace in the vector
 * unit (and AVX-512's repair kernel too). Here a byte sequence of
 * `seqs` is placed at every offset 0..140 of ASCII text that holds a
 * lone E9 every 23 bytes, so that every block is one with errors: lone
 * bytes next to the sequence, across the edges of 64-byte blocks, and
 * sequences whose maximal subparts are longer than a byte. */
static void edge_matrix_lone(int q)
{
    static const char *const seqs[] = {
        "E9",    "80",    "E9 41", "C3 A9", "E9 AB",    "E9 AB 41", "E9 E9", "80 80", "E9 80 80",
        "C3 E9", "A9 C3", "F0 9F", "FF",    "C0 80",    "ED A0",    "E4 B8 80", "F0 9F 98 80",
        "F4 90", "BF E9", "C2",    "E9 C3 A9"};
    size_t p, si, n;
    /* (n = 400: the AVX-512 repair kernel takes a block only with 128
     * bytes after its start, so at 200 it took one block at most) */
    for (n = 200; n <= 400; n += 200)
        for (p = 0; p <= 140; p++)
            for (si = 0; si < sizeof seqs / sizeof seqs[0]; si++) {
                size_t k, sl;
                unsigned char sq[8];
                if (q && (p + si) % 3)
                    continue;
                for (k = 0; k < n; k++)
                    gbuf[k] = k % 23 == 11 ? 0xE9 : (unsigned char)('a' + k % 26);
                sl = from_hex(seqs[si], sq);
                memcpy(gbuf + p, sq, sl);
                check_replacing(gbuf, n, "lone bytes");
            }
    /* Lone bytes, then more than 32 blocks of valid text of every width
     * (after which the AVX-512 repair kernel hands back), then lone bytes
     * again, at four alignments. */
    for (p = 0; p < 4; p++) {
        size_t k;
        n = 0;
        for (k = 0; k < 300 + p; k++)
            gbuf[n++] = k % 23 == 11 ? 0xE9 : (unsigned char)('a' + k % 26);
        n = fill8(gbuf, n, n + 3000, 4);
        for (k = 0; k < 300; k++)
            gbuf[n++] = k % 19 == 5 ? 0xFC : (unsigned char)('a' + k % 26);
        check_replacing(gbuf, n, "lone bytes, long");
    }
}

/* The two bytes of each 16-bit unit of s[0..n) swapped. */
static void swap_units16(unsigned char *s, size_t n)
{
    size_t j;
    for (j = 0; j + 1 < n; j += 2) {
        unsigned char t = s[j];
        s[j] = s[j + 1];
        s[j + 1] = t;
    }
}

/* UTF-16LE s[0..n) to UTF-8 under STRICT and REPLACE, then the same units
 * big-endian (s is swapped in place and back). */
static void check_utf16_both(unsigned char *s, size_t n, const char *gen)
{
    struct op o;
    memset(&o, 0, sizeof o);
    for (o.opt.policy = UTF8KIT_STRICT; o.opt.policy <= UTF8KIT_REPLACE; o.opt.policy++) {
        o.kind = OP_16LE_U8;
        check_op(&o, s, n, gen);
        swap_units16(s, n);
        o.kind = OP_16BE_U8;
        check_op(&o, s, n, gen);
        swap_units16(s, n);
    }
}

/* Runs of 4-byte characters alone, which the kernels convert a character
 * per 32-bit lane (u8k_four_run, u8k_four_run_pext): after 0 and 2..9
 * bytes of 2- and 3-byte characters, 50 such characters with the one at
 * each position replaced by an ill-formed or unfinished form, then more
 * text, under REPLACE (test_utf8_units_blocks takes the strict ones). */
static void edge_matrix_four(int q)
{
    static const char *const forms[] = {"F0 8F BF BF", "F4 90 80 80", "F5 80 80 80", "F0 90 80",
                                        "F0 90 80 41", "F0 90 C0 80", "ED A0 80 80", "80 80 80 80",
                                        "F8 88 80 80", "C3 A9 80 80", "F9 90 80 80",
                                        "FA 80 80 80"};
    size_t k, at, fi;
    for (k = 0; k < 10; k++)
        for (at = 0; at < 50; at++)
            for (fi = 0; fi < sizeof forms / sizeof forms[0]; fi++) {
                size_t n = 0, c;
                if (k == 1 || (q && (k + at + fi) % 4))
                    continue;
                while (n < k)
                    n += utf8kit_encode(k - n == 2 || k - n == 4 ? 0xE9 : 0x4E2D,
                                        (char *)gbuf + n);
                for (c = 0; c < 50; c++) {
                    if (c == at)
                        n += from_hex(forms[fi], gbuf + n);
                    else
                        n += utf8kit_encode(0x1F600 + (uint32_t)((c * 7 + k) % 80),
                                            (char *)gbuf + n);
                }
                for (c = 0; c < 40; c++)
                    n += utf8kit_encode(c % 3 ? 0x10FFFF - c : 0x10000 + c, (char *)gbuf + n);
                check_replacing(gbuf, n, "4-byte run with a bad form");
            }
}

/* Runs of supplementary characters in UTF-16 (surrogate pairs) and
 * UTF-32, which the kernels without byte compress convert a character
 * per 32-bit lane (u8k_pairs_run, u8k_four_block): after 0..3 units of
 * other text, 70 of them with the one at each position replaced by a
 * lone, swapped or doubled surrogate, a BMP character or ASCII (UTF-32:
 * a surrogate, a value above 10FFFF, one from 80000000 on, or a BMP,
 * ASCII or the last value), then ASCII, STRICT and REPLACE, UTF-16 in
 * both byte orders. */
static void edge_matrix_pairs(int q)
{
    static const uint32_t bad16[][2] = {{0xD800, 0}, {0xDC00, 0}, {0xDE00, 0xD83D},
                                        {0xD83D, 0xD83D}, {0x4E00, 0}, {'a', 0}, {0xDFFF, 0xDBFF}};
    static const uint32_t bad32[] = {0xD800, 0xDFFF, 0x110000, 0x80010000u, 0xFFFF, 'a', 0x10FFFF};
    size_t pre, at, bi, n, c;
    struct op o;
    memset(&o, 0, sizeof o);
    for (pre = 0; pre < 4; pre++)
        for (at = 0; at < 70; at++)
            for (bi = 0; bi < 7; bi++) {
                if (q && (pre + at + bi) % 3)
                    continue;
                /* UTF-16 */
                n = 0;
                for (c = 0; c < pre; c++)
                    n += put16(gbuf + n, (uint16_t)(c & 1 ? 'x' : 0x4E8C));
                for (c = 0; c < 70; c++) {
                    uint32_t v = 0x1F300 + (uint32_t)((c * 13 + pre) % 700);
                    if (c == at) {
                        n += put16(gbuf + n, (uint16_t)bad16[bi][0]);
                        if (bad16[bi][1])
                            n += put16(gbuf + n, (uint16_t)bad16[bi][1]);
                    } else {
                        n += put16(gbuf + n, (uint16_t)(0xD7C0 + (v >> 10)));
                        n += put16(gbuf + n, (uint16_t)(0xDC00 | (v & 0x3FF)));
                    }
                }
                for (c = 0; c < 5; c++)
                    n += put16(gbuf + n, 'z');
                check_utf16_both(gbuf, n, "pair run");
                /* UTF-32 */
                n = 0;
                for (c = 0; c < pre + 70 + 5; c++) {
                    uint32_t v = c < pre ? 0x4E8C
                                 : c == pre + at ? bad32[bi]
                                 : c < pre + 70 ? 0x10000 + (uint32_t)((c * 4099) % 0x100000)
                                                : 'z';
                    gbuf[n++] = (unsigned char)v;
                    gbuf[n++] = (unsigned char)(v >> 8);
                    gbuf[n++] = (unsigned char)(v >> 16);
                    gbuf[n++] = (unsigned char)(v >> 24);
                }
                for (o.opt.policy = UTF8KIT_STRICT; o.opt.policy <= UTF8KIT_REPLACE;
                     o.opt.policy++) {
                    o.kind = OP_32_U8;
                    check_op(&o, gbuf, n, "supplementary run");
                }
            }
}

/* Errors that the kernels hand back to the driver close together make it
 * call the scalar kernel on windows of 256 bytes (convert.c, "Scalar
 * windows"), whose ends must change nothing. Here 40 errors three bytes
 * apart (past which a window starts) are followed by text of one class
 * after 0..3 ASCII bytes, with a sequence of `seqs` starting 0..4 bytes
 * before the window's end, under REPLACE and SKIP for the conversions
 * from UTF-8 that the driver loops on. */
static void edge_matrix_windows(int q)
{
    static const char *const seqs[] = {"41",          "C3 A9", "E4 B8 80", "F0 9F 98 80",
                                       "E1 80",       "F0 9F 98", "C2",    "C0 80",
                                       "ED A0 80",    "80"};
    /* (OP_CONVERT: UTF-8 -> UTF-8, the repair's driver under SKIP too) */
    static const enum op_kind kinds[] = {OP_U8_16LE, OP_U8_32, OP_U8_L1, OP_REPAIR, OP_CONVERT};
    size_t at, si, kd, pre;
    int cls;
    unsigned char sq[8];
    for (cls = 0; cls < 5; cls++)
        for (pre = 0; pre < 4; pre++)
            for (at = 0; at <= 4; at++)
                for (si = 0; si < sizeof seqs / sizeof seqs[0]; si++) {
                    size_t n = 0, k, start, sl;
                    if (q && (cls + pre + at + si) % 3)
                        continue;
                    for (k = 0; k < 40; k++) {
                        gbuf[n++] = 'a';
                        gbuf[n++] = 'b';
                        gbuf[n++] = 0xE9;
                    }
                    start = n;
                    while (n < start + pre)
                        gbuf[n++] = 'x';
                    n = fill8(gbuf, n, start + 256 - at, cls);
                    sl = from_hex(seqs[si], sq);
                    memcpy(gbuf + n, sq, sl);
                    n = fill8(gbuf, n + sl, n + sl + 40, cls);
                    for (kd = 0; kd < sizeof kinds / sizeof kinds[0]; kd++) {
                        struct op o;
                        memset(&o, 0, sizeof o);
                        o.kind = kinds[kd];
                        o.from = o.to = UTF8KIT_UTF8;
                        for (o.opt.policy = UTF8KIT_REPLACE; o.opt.policy <= UTF8KIT_SKIP;
                             o.opt.policy++)
                            if (o.kind != OP_REPAIR || o.opt.policy == UTF8KIT_REPLACE)
                                check_op(&o, gbuf, n, "scalar windows");
                    }
                }
}

/* UTF-8 -> Latin-1 under REPLACE and SKIP: where the windows (above)
 * replace many characters above U+00FF, the driver goes on in steps of
 * about 2 KB through UTF-32 (convert.c, l1_step) while they stay dense,
 * and neither their ends nor the way in and out may change anything.
 * Here 0..3 ASCII bytes, then 5-8 KB of words of one class (Cyrillic,
 * CJK, 4-byte, or a mix of U+00FF, U+0100 and others), with a
 * sequence of `seqs` every `gap` bytes; typed, and through
 * utf8kit_convert with substitutes (U+20AC: Latin-1 cannot hold it). */
static void edge_matrix_l1(int q)
{
    static const uint32_t words[][4] = {{0x416, 0x44F, 0x431, 0x439},
                                        {0x4E00, 0x8A9E, 0x5B57, 0x6587},
                                        {0x1F600, 0x1F680, 0x10348, 0x10FFFF},
                                        {0xFF, 0x100, 0xE9, 0x20AC}};
    static const char *const seqs[] = {"C3 BF", "E4 B8", "F0 9F 98", "C0 80", "ED A0 80",
                                       "80",    "F4 90 80 80", "FF", "C2"};
    static const size_t gaps[] = {37, 301, 997, 5003};
    static const uint32_t subs[] = {0, 0xBF, 0x20AC};
    size_t pre, si, gi, k, n, next;
    int cls;
    unsigned char sq[8];
    struct op o;
    for (cls = 0; cls < 4; cls++)
        for (pre = 0; pre < 4; pre++)
            for (si = 0; si < sizeof seqs / sizeof seqs[0]; si++)
                for (gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
                    size_t sl = from_hex(seqs[si], sq), len = 5000 + (size_t)cls * 977 + pre * 11;
                    unsigned w = 0;
                    if (q && (cls + pre + si + gi) % 4)
                        continue;
                    n = 0;
                    while (n < pre)
                        gbuf[n++] = 'x';
                    next = gaps[gi];
                    while (n < len) {
                        /* a word of 1-6 characters, then a space */
                        for (k = 0; k < 1 + (w * 7 + cls) % 6; k++)
                            n += put8(gbuf + n, words[cls][(w + k) % 4]);
                        gbuf[n++] = ' ';
                        w++;
                        if (n >= next) {
                            memcpy(gbuf + n, sq, sl);
                            n += sl;
                            next += gaps[gi];
                        }
                    }
                    memset(&o, 0, sizeof o);
                    o.kind = OP_U8_L1;
                    for (o.opt.policy = UTF8KIT_REPLACE; o.opt.policy <= UTF8KIT_SKIP;
                         o.opt.policy++)
                        check_op(&o, gbuf, n, "latin-1 steps");
                    o.kind = OP_CONVERT;
                    o.from = UTF8KIT_UTF8;
                    o.to = UTF8KIT_LATIN1;
                    for (k = 0; k < sizeof subs / sizeof subs[0]; k++) {
                        o.opt.substitute = subs[k];
                        for (o.opt.policy = UTF8KIT_REPLACE; o.opt.policy <= UTF8KIT_SKIP;
                             o.opt.policy++)
                            check_op(&o, gbuf, n, "latin-1 steps");
                    }
                }
}

/* The same for UTF-16: units of one class (0 ASCII, 1 below U+0800, 2 BMP
 * above, 3 pairs, 4 a mix) up to 0..2 units before an edge of 8, 16, 32
 * or 64 units, a lone or paired surrogate, then 40 units or the end. */
static size_t fill16(unsigned char *d, size_t k, size_t upto_units, int cls)
{
    static const uint16_t u[] = {'a', 0x3A9, 0x4E00, 0xD83D};
    size_t j = 0;
    while (k / 2 < upto_units) {
        uint16_t c = cls == 4 ? u[j++ % 4] : u[cls];
        if (c == 0xD83D && k / 2 + 2 > upto_units)
            c = 'a';
        k += put16(d + k, c);
        if (c == 0xD83D)
            k += put16(d + k, 0xDE00);
    }
    return k;
}

static void edge_matrix16(int q)
{
    static const uint16_t seqs[][2] = {{0xD800, 'a'}, {0xDBFF, 0x4E00}, {0xDC00, 'a'},
                                       {0xDFFF, 0xD800}, {0xD83D, 0xDE00}, {0xDBFF, 0xDFFF},
                                       {0xD800, 0xD800}, {0xDC00, 0xDC00}, {0xFFFF, 0xFEFF}};
    static const size_t edges[] = {8, 16, 32, 64};
    size_t e, k, si;
    int a, b, end;
    for (e = 0; e < 4; e++)
        for (k = 0; k < 3; k++)
            for (si = 0; si < sizeof seqs / sizeof seqs[0]; si++)
                for (a = 0; a < 5; a++)
                    for (b = 0; b < 5; b++)
                        for (end = 0; end < 3; end++) {
                            size_t n;
                            if (q && (e + k + si + (size_t)a + (size_t)b) % 4)
                                continue;
                            if (end && b)
                                continue;
                            n = fill16(gbuf, 0, edges[e] - k, a);
                            n += put16(gbuf + n, seqs[si][0]);
                            if (end != 1) /* end 1: the input ends after the first unit */
                                n += put16(gbuf + n, seqs[si][1]);
                            if (!end)
                                n = fill16(gbuf, n, n / 2 + 40, b);
                            check_utf16_both(gbuf, n, "edge matrix 16");
                        }
}

/* UTF-16 text of ASCII with an unpaired surrogate every 23 units, which
 * AVX-512 converts under REPLACE a block of 32 units at a time with
 * U+FFFD in them (u8k_lone16), and a sequence of units placed at every
 * offset 0..140 of it: unpaired halves, pairs (also across the edges of
 * blocks), a 2- or 3-byte character, runs of 15 to 20 unpaired halves
 * (more than 16 in a block do not fit 64 bytes). 400 units. */
static void edge_matrix_lone16(int q)
{
    static const uint16_t seqs[][20] = {
        {1, 0xD800},         {1, 0xDC00},         {2, 0xD83D, 0xDE00}, {2, 0xDBFF, 0xDFFF},
        {2, 0xD800, 0xD800}, {2, 0xDC00, 0xDC00}, {2, 0xDC00, 0xD800}, {2, 0xD800, 'A'},
        {1, 0xE9},           {1, 0x4E00},         {3, 0xD800, 0xDC00, 0xD800},
        {3, 0xDC00, 0xD800, 0xDC00}};
    size_t p, si, k, r;
    for (p = 0; p <= 140; p++)
        for (si = 0; si < sizeof seqs / sizeof seqs[0] + 6; si++) {
            size_t n = 0;
            if (q && (p + si) % 3)
                continue;
            for (k = 0; k < 400; k++)
                n += put16(gbuf + n, k % 23 == 5 ? 0xDFFF : (uint16_t)('a' + k % 26));
            if (si < sizeof seqs / sizeof seqs[0]) {
                for (k = 0; k < seqs[si][0]; k++)
                    put16(gbuf + 2 * (p + k), seqs[si][1 + k]);
            } else {
                /* 15..20 unpaired low halves in a row */
                for (r = 0; r < 15 + si - sizeof seqs / sizeof seqs[0]; r++)
                    put16(gbuf + 2 * (p + r), 0xDC00);
            }
            check_utf16_both(gbuf, n, "lone surrogates");
        }
}

int main(void)
{
    size_t i, iters, maxn;
    int q = test_quick();
    const char *env_iters = getenv("UTF8KIT_DIFF_ITERS");
    test_begin();
    snprintf(active, sizeof active, "%s", utf8kit_impl_name());
    for (i = 0; i < ROOMS; i++) {
        outbuf[0][i] = malloc(OUTMAX);
        outbuf[1][i] = malloc(OUTMAX);
        if (!outbuf[0][i] || !outbuf[1][i])
            return 2;
    }

    /* the regression cases, every build, every pair */
    full_pairs = 1;
    for (i = 0; regressions[i].unit && !getenv("UTF8KIT_DIFF_NO_REGRESSIONS"); i++) {
        size_t n = 0, r;
        for (r = 0; r < regressions[i].rep; r++)
            n += from_hex(regressions[i].unit, gbuf + n);
        n += from_hex(regressions[i].tail, gbuf + n);
        run_all(gbuf, n, regressions[i].c, regressions[i].note);
    }

    /* the block-edge matrices (deterministic) */
    if (!getenv("UTF8KIT_DIFF_NO_REGRESSIONS")) {
        edge_matrix8(q);
        edge_matrix_lone(q);
        edge_matrix_four(q);
        edge_matrix_pairs(q);
        edge_matrix_windows(q);
        edge_matrix_l1(q);
        edge_matrix16(q);
        edge_matrix_lone16(q);
        edge_matrix32(q);
    }

    /* the random sweep */
    full_pairs = 0;
    iters = q ? 60 : 450;
    maxn = 600;
    /* local stress runs: UTF8KIT_DIFF_ITERS=n UTF8KIT_DIFF_SEED=s UTF8KIT_DIFF_MAXN=bytes
     * (and UTF8KIT_DIFF_NO_REGRESSIONS=1 above) */
    if (env_iters && *env_iters)
        iters = strtoul(env_iters, NULL, 10);
    if (getenv("UTF8KIT_DIFF_MAXN"))
        maxn = strtoul(getenv("UTF8KIT_DIFF_MAXN"), NULL, 10);
    if (maxn < 8 || maxn > 60000)
        maxn = 600;
    if (getenv("UTF8KIT_DIFF_SEED"))
        test_rng_state ^= strtoull(getenv("UTF8KIT_DIFF_SEED"), NULL, 10) * 0x100000001B3ull;
    for (i = 0; i < iters; i++) {
        size_t n = rand_len(maxn);
        const char *gen;
        enum src_class c = SRC_BYTES8;
        switch (i % 8) {
        case 0:
            gen = "valid8";
            n = gen_valid8(gbuf, n, (int)(rnd() % 10));
            break;
        case 1:
        case 2:
            gen = "valid8+mutation";
            n = gen_valid8(gbuf, n, (int)(rnd() % 10));
            mutate8(gbuf, n);
            if (rnd() % 3 == 0)
                mutate8(gbuf, n);
            break;
        case 3: {
            size_t a = 16 + rnd() % 200, k;
            gen = "ascii-run+multibyte";
            if (a > n)
                n = a + 8;
            for (k = 0; k < a; k++)
                gbuf[k] = (unsigned char)(0x20 + rnd() % 0x5F);
            n = a + gen_valid8(gbuf + a, n - a, 1 + (int)(rnd() % 5));
            if (rnd() % 2)
                mutate8(gbuf, n);
            break;
        }
        case 4:
            if (rnd() % 2) { /* ASCII with a few high bytes (0..6 a block) */
                size_t k, h = rnd() % (n / 10 + 2);
                gen = "ascii+sparse-high";
                for (k = 0; k < n; k++)
                    gbuf[k] = (unsigned char)(0x20 + rnd() % 0x5F);
                for (k = 0; k < h && n > 1; k++) {
                    size_t at = rnd() % (n - 1);
                    if (rnd() % 2) {
                        gbuf[at] = (unsigned char)(0xC2 + rnd() % 2);
                        gbuf[at + 1] = (unsigned char)(0x80 + rnd() % 0x40);
                    } else
                        gbuf[at] = (unsigned char)(0x80 + rnd() % 0x80);
                }
            } else {
                size_t k;
                gen = "random-bytes";
                for (k = 0; k < n; k++)
                    gbuf[k] = (unsigned char)(rnd() % 3 ? rnd() : 0x80 + rnd() % 0x40);
            }
            break;
        case 5:
        case 6:
            gen = "utf16";
            c = SRC_UTF16;
            n = gen_utf16(gbuf, n / 2, rnd() % 4 != 0);
            if (rnd() % 8 == 0) /* an odd byte at the end */
                gbuf[n++] = 0x41;
            break;
        default:
            gen = "utf32";
            c = SRC_UTF32;
            n = gen_utf32(gbuf, n / 4, rnd() % 3 != 0);
        }
        run_all(gbuf, n, c, gen);
    }

    /* a few long ones for the validators and counters (the vector
     * accumulators are summed at intervals) */
    for (i = 0; i < (q ? 2u : 6u); i++) {
        struct op o;
        size_t n = 20000 + rnd() % 50000;
        n = gen_valid8(gbuf, n, (int)(rnd() % 10));
        memset(&o, 0, sizeof o);
        o.kind = OP_VALIDATE;
        check_op(&o, gbuf, n, "long valid8");
        o.kind = OP_U8_16LE;
        check_op(&o, gbuf, n, "long valid8");
        if (i & 1) {
            mutate8(gbuf, n);
            gbuf[n - 1000 - rnd() % 1000] = 0xFF;
            o.kind = OP_VALIDATE;
            check_op(&o, gbuf, n, "long valid8+mutation");
        }
    }

    utf8kit_impl_select(active);
    for (i = 0; i < ROOMS; i++) {
        free(outbuf[0][i]);
        free(outbuf[1][i]);
    }
    return test_done("test_kernel_diff");
}
