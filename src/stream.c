/*
 * stream.c - conversion of input that arrives in chunks.
 *
 * The promise: for any way of cutting the input into chunks (down to one
 * byte, empty chunks included) and any output capacities, a stream gives
 * what one utf8kit_convert call gives on the whole input: the same output,
 * the same errors at the same absolute offsets, the same final status.
 *
 * How: a conversion is a sequence of steps, each one character or one
 * error (u8k_decode_char). A step whose bytes and look-ahead lie inside
 * the bytes seen so far decodes the same whatever follows, with two
 * exceptions the decoders make visible:
 *  - TRUNCATED: the bytes so far are a prefix of something well formed.
 *    The stream holds them (st->pend, at most 5 bytes: an RFC 2279 or
 *    CESU-8 pair prefix) and decodes them again with the next chunk.
 *  - INVALID_LEAD on the last byte seen: a lead that starts nothing (C0,
 *    C1, F5..F7) is OVERLONG or TOO_LARGE when a continuation byte
 *    follows, else INVALID_LEAD (u8k_decode_step's bad_first). Its output
 *    (one substitution) is the same either way, only the kind waits on
 *    the next byte. Under STRICT and stop_after_error, where the kind is
 *    what the caller is told, the byte is held like a truncated one. Under
 *    plain REPLACE and SKIP its substitution is written at once, as the
 *    WHATWG streaming tests require (C1 with stream:true gives U+FFFD),
 *    and st->error_kind is corrected when the next byte arrives.
 * Each call therefore has three parts:
 *  1. held bytes (and the very first character of the stream, for the BOM
 *     policy) are decoded one step at a time from a small buffer holding
 *     them followed by the first bytes of the chunk;
 *  2. the body of the chunk goes straight to utf8kit_convert: STRICT, so
 *     that every error is seen and recorded (the substitutions are written
 *     here exactly as utf8kit_convert's REPLACE and SKIP write them), or
 *     under plain REPLACE and SKIP (no stop_after_error) that policy, the
 *     errors counted by the call and the last one looked for after it. The
 *     body ends after a complete character: a valid character never looks
 *     past its own bytes, and no error before it looks past it either, so
 *     utf8kit_convert decides every step of the body as the whole input
 *     would;
 *  3. the last steps of the chunk, after that character, are decoded one
 *     at a time seeing the whole chunk, and a final incomplete one is held.
 * On the final call nothing is held: the end of the chunk is the end of
 * the input, where utf8kit_convert's own rules apply.
 */
#include "codec.h"

/* st->state: the low two bits are the phase the header documents; the
 * bits above are private flags. */
#define PHASE_MASK 3
#define PHASE_START 0    /* no character decoded yet (the BOM policy waits) */
#define PHASE_RUNNING 1
#define PHASE_FAILED 2   /* STRICT error: every later call repeats it */
#define PHASE_FINISHED 3 /* the final call completed */
#define FLAG_BOM_DONE 4  /* BOM_ADD: the signature has been written */
#define FLAG_PROVISIONAL 8 /* st->error_kind is INVALID_LEAD for the last
                              byte seen; the next byte may change it */

/* The longest look-ahead of any decoder is 6 bytes (an RFC 2279 6-octet
 * form, a CESU-8 surrogate pair). The held bytes plus the first bytes of a
 * chunk are decoded from a buffer of 16: at most 5 held bytes leave at
 * least 11 of the chunk, so a step that starts in the held bytes is never
 * cut short by the buffer. */
#define BUF_SIZE 16

/* Everything one call works with. */
struct call {
    utf8kit_stream *st;
    const unsigned char *src;
    size_t len, rd;       /* the chunk and how much of it is consumed */
    unsigned char *dst;
    size_t cap, w;        /* output capacity (SIZE_MAX when measuring), written */
    size_t replaced;
    uint64_t base;        /* absolute offset of src[0] */
    struct u8k_subst x;   /* what REPLACE writes, as utf8kit_convert */
};

static unsigned phase(const utf8kit_stream *st) { return (unsigned)st->state & PHASE_MASK; }

static void set_phase(utf8kit_stream *st, unsigned p)
{
    st->state = (int)(((unsigned)st->state & ~(unsigned)PHASE_MASK) | p);
}

/* Whether a kind that depends on the next byte must wait for it. */
static bool hold_ambiguous(const utf8kit_stream *st)
{
    return st->opt.policy == UTF8KIT_STRICT || st->opt.stop_after_error;
}

utf8kit_status utf8kit_stream_init(utf8kit_stream *st, utf8kit_encoding from, utf8kit_encoding to,
                                   const utf8kit_options *opt)
{
    struct call c;
    if (st == NULL)
        return UTF8KIT_ERR_INVALID_ARGUMENT;
    memset(st, 0, sizeof *st);
    if (opt != NULL)
        st->opt = *opt;
    if (!u8k_encoding_valid(from) || !u8k_encoding_valid(to) ||
        (unsigned)st->opt.policy > UTF8KIT_ASSUME_VALID ||
        (unsigned)st->opt.bom > UTF8KIT_BOM_ADD ||
        (!u8k_make_subst(&c.x, to, st->opt.substitute) && st->opt.policy == UTF8KIT_REPLACE)) {
        memset(st, 0, sizeof *st); /* from = UNKNOWN: every call is refused */
        return UTF8KIT_ERR_INVALID_ARGUMENT;
    }
    st->from = from;
    st->to = to;
    return UTF8KIT_OK;
}

static bool put(struct call *c, const unsigned char *b, size_t k)
{
    if (c->dst != NULL) {
        if (c->cap - c->w < k)
            return false;
        memcpy(c->dst + c->w, b, k);
    }
    c->w += k;
    return true;
}

/* Records an error of `len` bytes at absolute offset `at` as the most
 * recent one (st->error_*). */
static void note_error(utf8kit_stream *st, utf8kit_status kind, uint64_t at,
                       const unsigned char *bytes, size_t len)
{
    st->error_offset = at;
    st->error_len = len;
    st->error_kind = kind;
    memset(st->error_bytes, 0, sizeof st->error_bytes);
    memcpy(st->error_bytes, bytes, len < sizeof st->error_bytes ? len : sizeof st->error_bytes);
}

/* on_error deals with an error of `len` bytes at absolute offset `at`.
 * Returns UTF8KIT_OK to go on (the error's bytes are to be consumed),
 * OUTPUT_TOO_SMALL when the substitution does not fit (nothing recorded,
 * nothing consumed), or the kind when the call must return: the stream
 * failed (phase FAILED, the bytes are not consumed) or stop_after_error
 * (the bytes are consumed). */
static utf8kit_status on_error(struct call *c, utf8kit_status kind, uint64_t at,
                               const unsigned char *bytes, size_t len)
{
    utf8kit_stream *st = c->st;
    utf8kit_policy pol = st->opt.policy;
    /* ASSUME_VALID was promised valid input: invalid bytes are dropped as
     * utf8kit_convert's generic loop drops them; a character the target
     * cannot hold stops it as under STRICT. */
    if (pol == UTF8KIT_ASSUME_VALID && kind != UTF8KIT_ERR_UNREPRESENTABLE)
        return UTF8KIT_OK;
    if (pol == UTF8KIT_REPLACE) {
        bool unrep = kind == UTF8KIT_ERR_UNREPRESENTABLE;
        if (!put(c, unrep ? c->x.sub : c->x.repl, unrep ? c->x.sub_len : c->x.repl_len))
            return UTF8KIT_ERR_OUTPUT_TOO_SMALL;
    }
    if (pol == UTF8KIT_REPLACE || pol == UTF8KIT_SKIP)
        c->replaced++;
    st->errors++;
    note_error(st, kind, at, bytes, len);
    st->state = (int)((unsigned)st->state & ~(unsigned)FLAG_PROVISIONAL);
    if (pol == UTF8KIT_STRICT || pol == UTF8KIT_ASSUME_VALID) {
        set_phase(st, PHASE_FAILED);
        return kind;
    }
    return st->opt.stop_after_error ? kind : UTF8KIT_OK;
}

/* step converts one decoded step (u8k_decode_char's k, cp, n over bytes
 * at absolute offset `at`). `first`: the first step of the stream, where
 * the BOM policy applies. `ambiguous`: an INVALID_LEAD whose kind the next
 * byte may change. Returns as on_error. */
static utf8kit_status step(struct call *c, utf8kit_status k, uint32_t cp, const unsigned char *b,
                           size_t n, uint64_t at, bool first, bool ambiguous)
{
    utf8kit_status r;
    if (k == UTF8KIT_OK) {
        unsigned char out[8];
        size_t m;
        /* RFC 3629 section 6: U+FEFF is a signature only at the very start;
         * STRIP and ADD drop it there (ADD wrote the target's own). */
        if (first && cp == 0xFEFFu && c->st->opt.bom != UTF8KIT_BOM_KEEP)
            return UTF8KIT_OK;
        m = u8k_encode_char(c->st->to, cp, out);
        if (m != 0)
            return put(c, out, m) ? UTF8KIT_OK : UTF8KIT_ERR_OUTPUT_TOO_SMALL;
        k = UTF8KIT_ERR_UNREPRESENTABLE;
    }
    r = on_error(c, k, at, b, n);
    /* Only plain REPLACE and SKIP get here with an ambiguous kind (the
     * others held the byte). */
    if (ambiguous && r == UTF8KIT_OK &&
        (c->st->opt.policy == UTF8KIT_REPLACE || c->st->opt.policy == UTF8KIT_SKIP))
        c->st->state |= FLAG_PROVISIONAL;
    return r;
}

/* Consumes n bytes of the buffer "held bytes, then src[rd..]". */
static void consume(struct call *c, size_t n)
{
    utf8kit_stream *st = c->st;
    if (n >= st->npend) {
        c->rd += n - st->npend;
        st->npend = 0;
    } else {
        memmove(st->pend, st->pend + n, st->npend - n);
        st->npend -= (unsigned)n;
    }
}

/* Part 1: the held bytes, and the first step of the stream. */
static utf8kit_status held(struct call *c, bool final)
{
    utf8kit_stream *st = c->st;
    while (st->npend > 0 || phase(st) == PHASE_START) {
        unsigned char buf[BUF_SIZE];
        size_t np = st->npend, take = c->len - c->rd, blen, n;
        bool at_end, first = phase(st) == PHASE_START, ambiguous;
        uint64_t at = c->base + c->rd - np;
        utf8kit_status k, r;
        uint32_t cp;
        if (take > BUF_SIZE - np)
            take = BUF_SIZE - np;
        blen = np + take;
        if (blen == 0)
            return UTF8KIT_OK; /* nothing yet */
        at_end = c->rd + take == c->len;
        memcpy(buf, st->pend, np);
        memcpy(buf + np, c->src + c->rd, take);
        k = u8k_decode_char_to(st->from, st->to, buf, blen, &cp, &n);
        ambiguous = at_end && !final && k == UTF8KIT_ERR_INVALID_LEAD && n == blen;
        if (at_end && !final && blen <= sizeof st->pend &&
            (k == UTF8KIT_ERR_TRUNCATED || (ambiguous && hold_ambiguous(st)))) {
            memcpy(st->pend, buf, blen);
            st->npend = (unsigned)blen;
            c->rd = c->len;
            return UTF8KIT_OK;
        }
        r = step(c, k, cp, buf, n, at, first, ambiguous);
        if (r == UTF8KIT_ERR_OUTPUT_TOO_SMALL || phase(st) == PHASE_FAILED)
            return r;
        consume(c, n);
        if (first)
            set_phase(st, PHASE_RUNNING);
        if (r != UTF8KIT_OK)
            return r;
    }
    return UTF8KIT_OK;
}

/* sync returns a step boundary in [lo, n] of s[0..n), which starts at one:
 * a place where the forward decoding from 0 starts a step, found by
 * looking only near lo. (A second line of defence: decoding from a wrong
 * place that is unit-aligned yields errors, never a valid character, until
 * it falls back in step: a continuation byte is a stray, the low half of a
 * UTF-16 or CESU-8 pair a lone surrogate. edges() relies only on valid
 * characters.) */
static size_t sync(utf8kit_encoding enc, const unsigned char *s, size_t n, size_t lo)
{
    size_t q = lo, u = u8k_unit_size(enc);
    switch (enc) {
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE: {
        bool be = enc == UTF8KIT_UTF16BE;
        q += q & 1;
        /* A low surrogate right after a high one belongs to its step; a
         * high surrogate always starts one. */
        if (q >= 2 && q + 2 <= n && (s[q + !be] & 0xFC) == 0xDC && (s[q - 2 + !be] & 0xFC) == 0xD8)
            q -= 2;
        return q;
    }
    case UTF8KIT_UTF8:
    case UTF8KIT_UTF8_RFC2279:
    case UTF8KIT_CESU8:
    case UTF8KIT_MUTF8:
        /* Every step starts with a byte that is not 80..BF and has no other
         * such byte, except a CESU-8 pair, whose low half starts with ED.
         * Six continuation bytes in a row cannot all belong to a step that
         * started before them (steps are at most 6 bytes and hold at most
         * 5 of them), so the sixth ends the search. */
        while (q < n && q < lo + 6 && u8k_is_cont(s[q]))
            q++;
        if ((enc == UTF8KIT_CESU8 || enc == UTF8KIT_MUTF8) && q >= 3 && q < n && s[q] == 0xED &&
            s[q - 3] == 0xED && (s[q - 2] & 0xF0) == 0xA0 && u8k_is_cont(s[q - 1]))
            q -= 3; /* a high surrogate: it starts a step, maybe a pair with q */
        return q;
    default:
        /* Fixed units (UTF-32, UCS-2) and single bytes: every unit. */
        q = (q + u - 1) / u * u;
        return q < n ? q : n;
    }
}

/* edges splits a non-final chunk s[0..n), which starts at a step boundary,
 * into the body [0, *body) for utf8kit_convert, the last steps
 * [*body, *tail) to decode one at a time, and the bytes to hold
 * [*tail, n). The body ends after the last complete character found in
 * the last 32 bytes (or 64, 128... when they hold none; 0 when the whole
 * chunk holds none). */
static void edges(const utf8kit_stream *st, const unsigned char *s, size_t n, size_t *body,
                  size_t *tail)
{
    size_t win;
    for (win = 32;; win *= 2) {
        size_t lo = n > win ? n - win : 0, p, last = 0, m = 0, ok_end = 0;
        bool have_ok = false;
        utf8kit_status k = UTF8KIT_OK;
        p = lo ? sync(st->from, s, n, lo) : 0;
        while (p < n) {
            uint32_t cp;
            k = u8k_decode_char_to(st->from, st->to, s + p, n - p, &cp, &m);
            last = p;
            p += m;
            if (k == UTF8KIT_OK) {
                ok_end = p;
                have_ok = true;
            }
        }
        *tail = n;
        if (k == UTF8KIT_ERR_TRUNCATED ||
            (k == UTF8KIT_ERR_INVALID_LEAD && last + m == n && hold_ambiguous(st)))
            *tail = last;
        if (have_ok || lo == 0) {
            *body = ok_end;
            return;
        }
    }
}

/* Records the errors that start in src[a + q..a + n), at most max of
 * them (each replaces the one before in st->error_*), with STRICT calls
 * that may look on up to src[a + lim): returns how many. q is a step
 * boundary. */
static size_t record_errors(struct call *c, size_t a, size_t q, size_t n, size_t lim, size_t max)
{
    utf8kit_stream *st = c->st;
    const unsigned char *s = c->src + a;
    size_t found = 0;
    while (q < n && found < max) {
        utf8kit_result r = utf8kit_convert(st->from, st->to, s + q, lim - q, NULL, 0, NULL);
        if (r.status == UTF8KIT_OK || r.error_len == 0 || q + r.read >= n)
            break;
        q += r.read;
        note_error(st, r.status, c->base + a + q, s + q, r.error_len);
        found++;
        q += r.error_len;
    }
    return found;
}

/* Records the last of the `count` errors that start in src[a..b) (a and
 * b are step boundaries, and the decoding may look on up to `end`, as the
 * conversion did). With many errors the last is most often near b: the
 * errors of a window at the end are looked at, the window doubled up to
 * 4 KiB. Otherwise the errors are walked from a up to the count-th: with
 * one error at the start of a 64 KiB chunk, looking back from the end
 * made a stream 2.3x slower than one call. A call sees 8 bytes past b at
 * most, enough for any error's extent and kind, so that after
 * OUTPUT_TOO_SMALL the rest of a long chunk is not read again. */
static void record_last_error(struct call *c, size_t a, size_t b, size_t end, size_t count)
{
    size_t n = b - a, lim = end - b > 8 ? n + 8 : end - a, win;
    if (count > 8)
        for (win = 64; win <= 4096; win *= 2) {
            size_t q = n > win ? sync(c->st->from, c->src + a, lim, n - win) : 0;
            if (record_errors(c, a, q, n, lim, SIZE_MAX) > 0)
                return;
            if (q == 0)
                break;
        }
    record_errors(c, a, 0, n, lim, count);
}

/* Converts src[rd..end) with utf8kit_convert, recording each error and
 * writing its substitution. Under plain REPLACE and SKIP (no
 * stop_after_error) one call under that policy converts it all and
 * counts the errors, and only the last one is looked for: with an error
 * every 50-130 bytes, a STRICT call per error made a stream 6-15 times
 * slower than one utf8kit_convert call on the same input. */
static utf8kit_status convert_to(struct call *c, size_t end)
{
    utf8kit_stream *st = c->st;
    utf8kit_options o;
    memset(&o, 0, sizeof o);
    if ((st->opt.policy == UTF8KIT_REPLACE || st->opt.policy == UTF8KIT_SKIP) &&
        !st->opt.stop_after_error && c->rd < end) {
        utf8kit_result r;
        size_t a = c->rd;
        o.policy = st->opt.policy;
        o.substitute = st->opt.substitute;
        r = utf8kit_convert(st->from, st->to, c->src + a, end - a, c->dst ? c->dst + c->w : NULL,
                            c->cap - c->w, &o);
        if (r.status != UTF8KIT_OK && r.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL)
            return r.status;
        c->rd += r.read;
        c->w += r.written;
        if (r.replaced > 0) {
            c->replaced += r.replaced;
            st->errors += r.replaced;
            record_last_error(c, a, c->rd, end, r.replaced);
            st->state = (int)((unsigned)st->state & ~(unsigned)FLAG_PROVISIONAL);
        }
        return r.status;
    }
    o.policy = st->opt.policy == UTF8KIT_ASSUME_VALID ? UTF8KIT_ASSUME_VALID : UTF8KIT_STRICT;
    while (c->rd < end) {
        utf8kit_result r = utf8kit_convert(st->from, st->to, c->src + c->rd, end - c->rd,
                                           c->dst ? c->dst + c->w : NULL, c->cap - c->w, &o);
        utf8kit_status e;
        c->rd += r.read;
        c->w += r.written;
        if (r.status == UTF8KIT_OK)
            break;
        if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL || r.status == UTF8KIT_ERR_INVALID_ARGUMENT)
            return r.status;
        e = on_error(c, r.status, c->base + c->rd, c->src + c->rd, r.error_len);
        if (e == UTF8KIT_ERR_OUTPUT_TOO_SMALL || phase(st) == PHASE_FAILED)
            return e;
        c->rd += r.error_len;
        if (e != UTF8KIT_OK)
            return e;
    }
    return UTF8KIT_OK;
}

/* Parts 2 and 3: the rest of the chunk. */
static utf8kit_status rest(struct call *c, bool final)
{
    utf8kit_stream *st = c->st;
    size_t start = c->rd, n = c->len - c->rd, body, tail;
    const unsigned char *s = c->src + start;
    utf8kit_status r;
    if (n == 0)
        return UTF8KIT_OK;
    if (final)
        return convert_to(c, c->len);
    edges(st, s, n, &body, &tail);
    r = convert_to(c, start + body);
    if (r != UTF8KIT_OK)
        return r;
    while (c->rd < start + tail) {
        size_t p = c->rd - start, m;
        uint32_t cp;
        utf8kit_status k = u8k_decode_char_to(st->from, st->to, s + p, n - p, &cp, &m);
        bool ambiguous = k == UTF8KIT_ERR_INVALID_LEAD && p + m == n;
        r = step(c, k, cp, s + p, m, c->base + c->rd, false, ambiguous);
        if (r == UTF8KIT_ERR_OUTPUT_TOO_SMALL || phase(st) == PHASE_FAILED)
            return r;
        c->rd += m;
        if (r != UTF8KIT_OK)
            return r;
    }
    memcpy(st->pend, s + tail, n - tail);
    st->npend = (unsigned)(n - tail);
    c->rd = c->len;
    return UTF8KIT_OK;
}

utf8kit_result utf8kit_stream_convert(utf8kit_stream *st, const void *src, size_t len, void *dst,
                                      size_t cap, bool final)
{
    static const unsigned char none[1];
    struct call c;
    utf8kit_status r;
    utf8kit_result res;
    if (st == NULL || (src == NULL && len != 0) || !u8k_encoding_valid(st->from))
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    if (phase(st) == PHASE_FAILED)
        return u8k_res(st->error_kind, 0, 0, st->error_len);
    if (phase(st) == PHASE_FINISHED)
        return u8k_res(len ? UTF8KIT_ERR_INVALID_ARGUMENT : UTF8KIT_OK, 0, 0, 0);
    memset(&c, 0, sizeof c);
    c.st = st;
    c.src = src != NULL ? (const unsigned char *)src : none; /* no arithmetic on NULL */
    c.len = len;
    c.dst = dst;
    c.cap = dst ? cap : SIZE_MAX;
    c.base = st->offset;
    u8k_make_subst(&c.x, st->to, st->opt.substitute);

    /* The byte after a provisional INVALID_LEAD has come: now its kind is
     * known (a continuation byte makes C0/C1 OVERLONG, F5..F7 TOO_LARGE). */
    if ((st->state & FLAG_PROVISIONAL) && len > 0) {
        unsigned char two[2];
        uint32_t cp;
        size_t n;
        two[0] = st->error_bytes[0];
        two[1] = c.src[0];
        r = u8k_decode_char_to(st->from, st->to, two, 2, &cp, &n);
        if (r != UTF8KIT_OK && n == 1)
            st->error_kind = r;
        st->state = (int)((unsigned)st->state & ~(unsigned)FLAG_PROVISIONAL);
    }

    r = UTF8KIT_OK;
    if (st->opt.bom == UTF8KIT_BOM_ADD && !(st->state & FLAG_BOM_DONE)) {
        unsigned char b[4];
        if (put(&c, b, u8k_bom_for(st->to, b)))
            st->state |= FLAG_BOM_DONE;
        else
            r = UTF8KIT_ERR_OUTPUT_TOO_SMALL;
    }
    if (r == UTF8KIT_OK)
        r = held(&c, final);
    if (r == UTF8KIT_OK)
        r = rest(&c, final);
    if (r == UTF8KIT_OK && final) {
        set_phase(st, PHASE_FINISHED);
        st->state = (int)((unsigned)st->state & ~(unsigned)FLAG_PROVISIONAL);
    }
    st->offset = c.base + c.rd;
    res = u8k_res(r, c.rd, c.w, 0);
    if (r != UTF8KIT_OK && r != UTF8KIT_ERR_OUTPUT_TOO_SMALL)
        res.error_len = st->error_len;
    res.replaced = c.replaced;
    return res;
}
