/*
 * convert.c - bulk conversion: utf8kit_convert, the typed fast paths,
 * utf8kit_repair and utf8kit_max_output_size.
 *
 * Two engines:
 *  - the typed driver (`drive`): the STRICT kernels of the active
 *    implementation (internal.h) do the work; on an input error the driver
 *    writes the substitution and calls the kernel again after the error,
 *    so REPLACE and SKIP run at nearly the speed of STRICT, whichever
 *    kernel (scalar or SIMD) fills the table;
 *  - the generic loop (`generic`): one character at a time through
 *    u8k_decode_char / u8k_encode_char, for every other pair of encodings
 *    and for pointers not aligned for 16/32-bit units.
 * utf8kit_convert takes the typed driver whenever the pair and the
 * alignment allow, and the generic loop for the rest (and for a partial
 * unit at the end of UTF-16/UTF-32 input); UTF-8 to UTF-32 in the other
 * byte order than the host's is the typed driver's UTF-32, byte-reversed.
 * Between them, when aligned: UTF-8 to and from UCS-2 and from UTF-32 in
 * the other byte order take the typed driver, and UCS-2 to and from
 * UTF-16 a copy, over the stretches where they give what the generic loop
 * would (stretches), and pairs of UTF-16, UTF-32 and Latin-1 go through
 * UTF-8 by the kernels, the generic loop taking each error (via_utf8).
 *
 * Resuming: after OUTPUT_TOO_SMALL, calling again on src + read with more
 * room gives the rest of the output, provided the BOM option of the second
 * call is KEEP (STRIP and ADD act on the start of the input they are given).
 */
#include "codec.h"
#include "scalar/decode_fast.h"

/* The operations the kernel table offers (internal.h). */
enum pair { P_U8_U16, P_U8_U32, P_U16_U8, P_U32_U8, P_L1_U8, P_U8_L1, P_U8_U8 };

static const unsigned char in_size[] = {1, 1, 2, 4, 1, 1, 1};
static const unsigned char out_size[] = {2, 4, 1, 1, 1, 1, 1};

/* How much of the UTF-8 s[0..n) is valid (utf8kit_validate's result):
 * all of it when the caller vouches for it (U8K_TRUSTED). */
static utf8kit_result u8_valid_part(const u8k_kernels *k, const unsigned char *s, size_t n,
                                    unsigned flags)
{
    return (flags & U8K_TRUSTED) ? u8k_res(UTF8KIT_OK, n, 0, 0) : u8k_vres_result(k->validate(s, n));
}

/* UTF-8 to UTF-8: the valid stretch found by the validator is copied as
 * it is, cut at a character boundary if the output is short. Under
 * U8K_REPL (the substitute is U+FFFD: see drive), a kernel with
 * utf8_repair takes what it can first, lone bytes replaced. */
static utf8kit_result u8_copy(const u8k_kernels *k, const unsigned char *s, size_t n,
                              unsigned char *d, size_t cap, unsigned flags)
{
    utf8kit_result v;
    size_t m;
    if ((flags & U8K_REPL) && k->utf8_repair != NULL && d != NULL) {
        utf8kit_result f = k->utf8_repair(s, n, d, cap);
        size_t a = u8k_read_apart(&f), wa = f.written;
        if (a > 0) {
            v = u8_copy(k, s + a, n - a, d + wa, cap - wa, flags & ~U8K_REPL);
            v.read += a;
            v.written += wa;
            v.replaced += f.replaced;
            return v;
        }
    }
    v = u8_valid_part(k, s, n, flags);
    m = v.read;
    if (m > cap) {
        /* s[0..v.read) is valid, so backing up over continuation bytes
         * (at most 3) lands on the start of the character that does not
         * fit. */
        m = cap;
        while (m > 0 && u8k_is_cont(s[m]))
            m--;
        if (d != NULL)
            memcpy(d, s, m);
        return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, m, m, 0);
    }
    if (d != NULL)
        memcpy(d, s, m);
    v.written = m;
    return v;
}

static utf8kit_result call_kernel(const u8k_kernels *k, enum pair p, const unsigned char *s,
                                  size_t n, unsigned char *d, size_t cap, unsigned flags)
{
    /* The typed pointers are aligned: the public typed functions take
     * them so, and utf8kit_convert only comes here when they are. */
    switch (p) {
    case P_U8_U16:
        return k->utf8_to_utf16(s, n, (uint16_t *)(void *)d, cap, flags);
    case P_U8_U32:
        return k->utf8_to_utf32(s, n, (uint32_t *)(void *)d, cap, flags);
    case P_U16_U8:
        return k->utf16_to_utf8((const uint16_t *)(const void *)s, n, d, cap, flags);
    case P_U32_U8:
        return k->utf32_to_utf8((const uint32_t *)(const void *)s, n, d, cap, flags);
    case P_L1_U8:
        return k->latin1_to_utf8(s, n, d, cap);
    case P_U8_L1:
        return k->utf8_to_latin1(s, n, d, cap, flags);
    default:
        return u8_copy(k, s, n, d, cap, flags);
    }
}

/* *st and *el get r's status and error_len, *rep += r->replaced (errors
 * the kernel replaced itself: U8K_REPL), and *pos += r->read, *w +=
 * r->written, as two separate adds (u8k_read_apart: without it, text
 * with an error every 50-130 bytes converted under REPLACE 16-30% slower
 * on AVX-512, 4-8% on the scalar kernel). */
U8K_INLINE void take(const utf8kit_result *r, utf8kit_status *st, size_t *el, size_t *pos,
                     size_t *w, size_t *rep)
{
    *st = r->status;
    *el = r->error_len;
    *pos += u8k_read_apart(r);
    *w += r->written;
    *rep += r->replaced;
}

/* The flag that lets a kernel replace input errors itself (U8K_REPL),
 * for writing (not measuring) under REPLACE, between UTF-8 and UTF-16/32. */
U8K_INLINE unsigned repl_flag(enum pair p, utf8kit_policy pol)
{
    return pol == UTF8KIT_REPLACE &&
                   (p == P_U8_U16 || p == P_U8_U32 || p == P_U16_U8 || p == P_U32_U8)
               ? U8K_REPL
               : 0;
}

/* The same for UTF-8 to UTF-8 (u8_copy) when the substitute x is U+FFFD
 * (utf8kit_repair), passed by drive() only: utf8kit_repair's first call
 * (replacing) goes without it, so that valid text is copied as it was. */
U8K_INLINE unsigned repair_flag(enum pair p, utf8kit_policy pol, const struct u8k_subst *x)
{
    return p == P_U8_U8 && pol == UTF8KIT_REPLACE && x != NULL && x->repl_len == 3 &&
                   memcmp(x->repl, "\xEF\xBF\xBD", 3) == 0
               ? U8K_REPL
               : 0;
}

/* Measuring (dst == NULL): the length kernels where there are some, else
 * the kernel itself into a small scratch buffer, chunk after chunk (it
 * stops at a character boundary each time the scratch is full). */
static utf8kit_result measure(const u8k_kernels *k, enum pair p, const unsigned char *s,
                              size_t n, unsigned flags)
{
    uint32_t scratch[1024]; /* 4 KiB: long enough for SIMD kernels' blocks */
    size_t pos = 0, w = 0, none = 0;
    utf8kit_result r;
    if (p == P_L1_U8) {
        /* Latin-1 never fails: one byte per 00..7F, two per 80..FF. */
        size_t i = 0, high = 0;
        for (; i + 8 <= n; i += 8) {
            uint64_t x;
            memcpy(&x, s + i, 8);
            x = (x >> 7) & UINT64_C(0x0101010101010101); /* 1 per high bit */
            high += (size_t)((x * UINT64_C(0x0101010101010101)) >> 56);
        }
        for (; i < n; i++)
            high += s[i] >> 7;
        return u8k_res(UTF8KIT_OK, n, n + high, 0);
    }
    /* validate + count: two passes, worth it when the kernels are SIMD;
     * the scalar transcoder into a scratch buffer is one faster pass. */
    if (p == P_U8_U8 || ((p == P_U8_U16 || p == P_U8_U32) && k != &u8k_scalar_kernels)) {
        r = u8_valid_part(k, s, n, flags);
        r.written = p == P_U8_U16 ? k->utf16_length(s, r.read)
                    : p == P_U8_U32 ? k->count(s, r.read)
                                    : r.read;
        return r;
    }
    for (;;) {
        utf8kit_status st;
        size_t el, pos0 = pos, w0 = w;
        utf8kit_result t = call_kernel(k, p, s + pos * in_size[p], n - pos,
                                       (unsigned char *)scratch, sizeof scratch / out_size[p], flags);
        take(&t, &st, &el, &pos, &w, &none);
        /* The scratch holds any character, so a kernel that stops with
         * nothing done is broken: give up rather than loop. */
        if (st != UTF8KIT_ERR_OUTPUT_TOO_SMALL || (pos == pos0 && w == w0))
            return u8k_res(st, pos, w, el);
    }
}

/* Under REPLACE or SKIP to Latin-1 or US-ASCII: the flags U8K_L1_SUB
 * with the substitute byte (under SKIP U8K_L1_DROP instead) when a
 * substitute, one byte, stands for input errors and unrepresentable
 * characters alike, as it does for these targets, which cannot hold
 * U+FFFD; else 0. x: what REPLACE writes, NULL for the typed '?'. */
U8K_INLINE unsigned sub_flags(utf8kit_policy pol, const struct u8k_subst *x)
{
    if (pol == UTF8KIT_SKIP)
        return U8K_L1_SUB | U8K_L1_DROP;
    if (pol != UTF8KIT_REPLACE)
        return 0;
    if (x == NULL)
        return U8K_L1_SUB | (unsigned)'?' << 8;
    if (x->sub_len == 1 && x->repl_len == 1 && x->repl[0] == x->sub[0])
        return U8K_L1_SUB | (unsigned)x->sub[0] << 8;
    return 0;
}

/* call_kernel, but with l1_able (drive_any) and U8K_L1_SUB in the flags
 * (sub_flags), the scalar kernels' UTF-8 -> Latin-1 is the one that
 * replaces itself; the SIMD kernels ignore the flag. */
U8K_INLINE utf8kit_result call_l1(const u8k_kernels *k, enum pair p, const unsigned char *s,
                                  size_t n, unsigned char *d, size_t cap, unsigned flags,
                                  bool l1_able)
{
    if (l1_able && (flags & U8K_L1_SUB) && k == &u8k_scalar_kernels)
        return u8k_scalar_utf8_to_latin1_sub(s, n, d, cap, flags);
    return call_kernel(k, p, s, n, d, cap, flags);
}

/* Scalar windows. Under REPLACE and SKIP, each error that a kernel does
 * not replace itself brings it back here, and the driver calls it again
 * after the error: all SIMD kernels for UTF-8 -> Latin-1 and under SKIP,
 * and for UTF-8 -> UTF-8 at errors other than lone bytes (simd/repair.h).
 * (SSE4.2 and NEON did so for UTF-8 -> UTF-16/32 too, before they took
 * U8K_REPL around their block loop: simd/pext.h, u8k_pext_repl_units.)
 * Such a call sets up its blocks again for a few characters, and goes
 * back to the start of the block that holds the next error. On text
 * with an error every 50-130 bytes (Latin-1 read as UTF-8) SSE4.2 was at
 * 0.6-0.9x the scalar kernel. So after U8K_DENSE_RUN calls in a row that
 * each found an error within U8K_DENSE units of their start, the next
 * call is the scalar kernel on at most U8K_WINDOW units; the SIMD kernel
 * takes over again after a call that goes further. (One such call is not enough:
 * text with rare errors often has two close together, and a window after
 * them cost it 8%.)
 * Only from UTF-8, where the end of a window changes nothing: a
 * character or an error inside the window decodes as in the whole input
 * (a maximal invalid subpart ends at the byte that breaks it), and one
 * cut by the end of the window reads as TRUNCATED there, which the
 * driver does not count as an error: it goes on from its first byte. */
#define U8K_DENSE 128
#define U8K_DENSE_RUN 2
#define U8K_WINDOW 256

/* Where a step of UTF-8 may end, at c of s or up to 3 bytes before: at a
 * byte that is not a tail (80..BF), or after 4 tails. No character or
 * maximal invalid subpart goes across it (each starts at the one byte of
 * it that is not a tail, and holds 4 bytes at most), so each step
 * converts as the whole input does, but that a sequence cut by the step's
 * end reads as TRUNCATED there under STRICT (under REPLACE and SKIP it is
 * a maximal subpart in the whole input too). */
static size_t utf8_cut(const unsigned char *s, size_t c)
{
    size_t k;
    for (k = 0; k < 4; k++)
        if ((s[c - k] & 0xC0) != 0x80)
            return c - k;
    return c;
}

/* UTF-8 -> Latin-1 under REPLACE and SKIP (drive_l1): a window that
 * replaced at least one character in L1_ENTER bytes is followed by steps
 * of sub_step, while each replaces at least one in L1_DENSE bytes. The
 * windows' scalar kernel replaces what it meets itself, but at about a
 * character per 1-2 ns on text of other scripts (Russian 0.9 GB/s); a
 * step converts L1_STEP bytes to UTF-32 by the active kernels under
 * REPLACE, then narrows the units (below): 2-5 GB/s. With L1_ENTER 16
 * and L1_DENSE 32, Czech (a character above U+00FF every 35 bytes) went
 * at 1.6 GB/s (4.8 with these); with 64 and 128, English, which meets
 * a dense window now and then, at 0.95x. */
#define L1_STEP 2048
#define L1_ENTER 32
#define L1_DENSE 64
static utf8kit_result drive(enum pair p, const void *src, size_t len, void *dst, size_t cap,
                            utf8kit_policy pol, unsigned flags, const struct u8k_subst *x,
                            utf8kit_encoding to, const utf8kit_result *first);

/* s[0..n) (n <= L1_STEP, ending where no sequence goes across: utf8_cut,
 * or at the end of the input) to Latin-1 (max FF) or US-ASCII (max 7F)
 * at d, which has room for n bytes, under the flags l1 (sub_flags, not 0).
 * Through UTF-32 under REPLACE each maximal invalid subpart is one U+FFFD,
 * which neither target can hold; so every unit above max is the
 * substitute (under U8K_L1_DROP nothing) and counted: what drive() and
 * the generic loop write for the same input. */
static U8K_NOINLINE utf8kit_result sub_step(const u8k_kernels *k, const unsigned char *s,
                                            size_t n, unsigned char *d, unsigned max, unsigned l1)
{
    uint32_t u[L1_STEP];
    utf8kit_result r = drive(P_U8_U32, s, n, u, L1_STEP, UTF8KIT_REPLACE, 0, NULL,
                             UTF8KIT_UTF32, NULL);
    size_t i, o = 0, rep = 0, m = r.written;
    unsigned nb = 0;
    unsigned char sub = U8K_L1_BYTE(l1);
    if (k->narrow_sub != NULL) {
        o = k->narrow_sub(d, u, m, max, sub, (l1 & U8K_L1_DROP) != 0, &rep);
    } else if (l1 & U8K_L1_DROP) {
        for (i = 0; i < m; i++) {
            uint32_t c = u[i];
            d[o] = (unsigned char)c;
            o += c <= max;
        }
        rep = m - o;
    } else {
        /* (the units are at most 10FFFF: signed compares, which SSE2
         * has; gcc vectorizes the loop at -O2) */
        for (i = 0; i < m; i++) {
            int32_t c = (int32_t)u[i];
            d[i] = c > (int32_t)max ? sub : (unsigned char)c;
            nb += c > (int32_t)max;
        }
        rep = nb;
        o = m;
    }
    return u8k_res_rep(UTF8KIT_OK, r.read, o, rep);
}

/* The typed driver (drive and drive_l1, below), with l1_able constant:
 * the pair is UTF-8 -> Latin-1, and when writing under REPLACE or SKIP
 * the loop takes the flags sub_flags gives (the scalar kernel writes the
 * substitute itself: call_l1) and the steps of sub_step. (Text of other
 * scripts, every character unrepresentable, went a character per call of
 * the kernel: Russian 0.33 GB/s.) The other pairs have a loop without
 * them, the one they had before: with them, UTF-8 -> UTF-16 under
 * REPLACE of text with an error every 50-130 bytes went 3-7% slower. */
U8K_INLINE utf8kit_result drive_any(enum pair p, const void *src, size_t len, void *dst,
                                    size_t cap, utf8kit_policy pol, unsigned flags,
                                    const struct u8k_subst *x, utf8kit_encoding to,
                                    const utf8kit_result *first, bool l1_able)
{
    struct u8k_subst own;
    const u8k_kernels *k = u8k_active();
    const unsigned char *s = src;
    unsigned char *d = dst;
    size_t isz = in_size[p], osz = out_size[p];
    size_t pos = 0, w = 0, replaced = 0, el, pos0 = 0;
    unsigned repl = repl_flag(p, pol) | repair_flag(p, pol, x);
    unsigned l1 = l1_able && d != NULL ? sub_flags(pol, x) : 0;
    /* scalar windows (above): writing, from UTF-8, with a SIMD kernel */
    bool windows = d != NULL && k != &u8k_scalar_kernels && isz == 1 && p != P_L1_U8;
    unsigned dense = 0; /* calls in a row that found an error near their start */
    bool l1_dense = false; /* sub_step in place of the windows */
    utf8kit_status st;
    utf8kit_result r;
    if (pol == UTF8KIT_ASSUME_VALID)
        flags |= U8K_TRUSTED;
    for (;;) {
        /* Each call's result is read a field at a time (take) from where
         * the kernel wrote it: copied whole, it would be read back as
         * 16-byte pairs that miss store forwarding. */
        if (first != NULL) {
            take(first, &st, &el, &pos, &w, &replaced);
            first = NULL;
        } else if (dense >= U8K_DENSE_RUN && len - pos > U8K_WINDOW) {
            utf8kit_result t;
            if (l1_able && l1_dense && len - pos > L1_STEP && cap - w >= L1_STEP) {
                /* (l1_dense is set only with dense, and both are
                 * cleared together) */
                t = sub_step(k, s + pos, utf8_cut(s + pos, L1_STEP), d + w, 0xFF, l1);
                take(&t, &st, &el, &pos, &w, &replaced);
                if (t.replaced * L1_DENSE < t.read)
                    l1_dense = false, dense = 0;
                continue;
            }
            t = call_l1(&u8k_scalar_kernels, p, s + pos, U8K_WINDOW, d + w * osz, cap - w,
                        flags | l1, l1_able);
            pos0 = pos;
            take(&t, &st, &el, &pos, &w, &replaced);
            if (st == UTF8KIT_OK ||
                (st == UTF8KIT_ERR_TRUNCATED && pos + el == pos0 + U8K_WINDOW)) {
                /* at the end of the window, not of the input; to
                 * Latin-1, the steps follow a window that replaced many */
                if (l1_able && l1 != 0 && t.replaced * L1_ENTER >= U8K_WINDOW)
                    l1_dense = true;
                else
                    dense = 0;
                continue;
            }
        } else if (d != NULL) {
            /* (to Latin-1, what is left after an error, when short, by
             * the scalar kernel that replaces itself, in one call: the
             * SIMD one came back for each character, and short strings
             * of Chinese went at a third of the scalar kernels' speed) */
            bool rest = l1_able && l1 != 0 && len - pos <= U8K_WINDOW;
            utf8kit_result t = call_l1(rest ? &u8k_scalar_kernels : k, p, s + pos * isz, len - pos,
                                       d + w * osz, cap - w, flags | repl | l1, l1_able);
            pos0 = pos;
            take(&t, &st, &el, &pos, &w, &replaced);
        } else {
            utf8kit_result t = measure(k, p, s + pos * isz, len - pos, flags);
            take(&t, &st, &el, &pos, &w, &replaced);
        }
        if (st == UTF8KIT_OK || st == UTF8KIT_ERR_OUTPUT_TOO_SMALL) {
            el = 0;
            break;
        }
        if (pol != UTF8KIT_REPLACE && pol != UTF8KIT_SKIP)
            break; /* STRICT; or an error that TRUSTED did not need to see */
        if (pol == UTF8KIT_REPLACE) {
            const unsigned char *b;
            size_t units;
            if (x == NULL) {
                /* the typed functions' '?', built at the first error only:
                 * valid input runs at the speed of STRICT */
                u8k_make_subst(&own, to, '?');
                x = &own;
            }
            b = st == UTF8KIT_ERR_UNREPRESENTABLE ? x->sub : x->repl;
            units = (st == UTF8KIT_ERR_UNREPRESENTABLE ? x->sub_len : x->repl_len) / osz;
            if (d != NULL) {
                if (cap - w < units) {
                    st = UTF8KIT_ERR_OUTPUT_TOO_SMALL;
                    el = 0;
                    break;
                }
                memcpy(d + w * osz, b, units * osz);
            }
            w += units;
        }
        replaced++;
        dense = windows && pos - pos0 < U8K_DENSE ? dense + 1 : 0;
        /* error_len >= 1 by the kernel contract; never loop on a bad one */
        pos += el ? el : 1;
    }
    r = u8k_res(st, pos, w, el);
    r.replaced = replaced;
    return r;
}

/* drive_any for UTF-8 -> Latin-1. Measuring under REPLACE and SKIP goes
 * by runs of ASCII and steps of sub_step into a scratch buffer: the
 * driver came back from the kernel at each character Latin-1 cannot hold
 * (Russian 0.25 GB/s). */
static U8K_NOINLINE utf8kit_result drive_l1(const void *src, size_t len, void *dst, size_t cap,
                                            utf8kit_policy pol, unsigned flags,
                                            const struct u8k_subst *x, utf8kit_encoding to,
                                            const utf8kit_result *first)
{
    unsigned sf = sub_flags(pol, x);
    if (dst == NULL && sf != 0) {
        const u8k_kernels *k = u8k_active();
        const unsigned char *s = src;
        unsigned char one[L1_STEP];
        size_t pos = 0, w = 0, rep = 0;
        while (pos < len) {
            /* runs of ASCII counted; after one of 64 bytes or more, a
             * step of 64 bytes (the text may be mostly ASCII), else of
             * L1_STEP */
            size_t n = k->ascii_prefix(s + pos, len - pos), step = n >= 64 ? 64 : L1_STEP, m;
            utf8kit_result r;
            pos += n;
            w += n;
            if (pos == len)
                break;
            m = len - pos > step ? utf8_cut(s + pos, step) : len - pos;
            r = sub_step(k, s + pos, m, one, 0xFF, sf);
            pos += r.read;
            w += r.written;
            rep += r.replaced;
        }
        return u8k_res_rep(UTF8KIT_OK, pos, w, rep);
    }
    return drive_any(P_U8_L1, src, len, dst, cap, pol, flags, x, to, first, true);
}

/* The typed driver. Counts are in units of the pair. x: what REPLACE
 * writes; NULL for the typed functions' '?' in encoding `to`. first: the
 * result of a first call of the kernel on the whole input (an input
 * error) that the caller has already made, or NULL. UTF-8 -> Latin-1
 * under REPLACE and SKIP goes to drive_l1 (drive_pair), and under STRICT
 * may come here. */
static utf8kit_result drive(enum pair p, const void *src, size_t len, void *dst, size_t cap,
                            utf8kit_policy pol, unsigned flags, const struct u8k_subst *x,
                            utf8kit_encoding to, const utf8kit_result *first)
{
    return drive_any(p, src, len, dst, cap, pol, flags, x, to, first, false);
}

/* drive, or drive_l1 for UTF-8 -> Latin-1 */
U8K_INLINE utf8kit_result drive_pair(enum pair p, const void *src, size_t len, void *dst,
                                     size_t cap, utf8kit_policy pol, unsigned flags,
                                     const struct u8k_subst *x, utf8kit_encoding to,
                                     const utf8kit_result *first)
{
    if (p == P_U8_L1)
        return drive_l1(src, len, dst, cap, pol, flags, x, to, first);
    return drive(p, src, len, dst, cap, pol, flags, x, to, first);
}

static bool policy_ok(utf8kit_policy pol)
{
    return pol == UTF8KIT_STRICT || pol == UTF8KIT_REPLACE || pol == UTF8KIT_SKIP ||
           pol == UTF8KIT_ASSUME_VALID;
}

/* Writes the n bytes of s (ASCII, or Latin-1 to a wider target) as n
 * units of osz bytes (1, 2 or 4), in big-endian order when be. */
static void widen(unsigned char *d, const unsigned char *s, size_t n, size_t osz, bool be)
{
    size_t i;
    if (osz == 1) {
        memcpy(d, s, n);
        return;
    }
    memset(d, 0, n * osz);
    for (i = 0; i < n; i++)
        d[i * osz + (be ? osz - 1 : 0)] = s[i];
}

/* The 3 octets of surrogate u (D800..DFFF) at d: ED, then two tails */
static void put_surrogate(unsigned char *d, uint32_t u)
{
    d[0] = 0xED;
    d[1] = (unsigned char)(0x80 | (u >> 6 & 0x3F));
    d[2] = (unsigned char)(0x80 | (u & 0x3F));
}

/* Runs of characters above U+FFFF between UTF-8 and CESU-8 / MUTF-8, for
 * the generic loop (below), which would otherwise take them a character
 * at a time through the decoder and the encoder. Each takes, from s[0..n),
 * the characters that start before s + lim while they are such characters
 * in the exact form of the source and d has room for them (d NULL:
 * measuring), and returns the bytes read, *wrote the bytes written;
 * anything else (an error too) it leaves to the generic loop, which then
 * goes on exactly as it would have.
 * utf8_to_cesu_run: a 4-octet UTF-8 character (F0 90..BF, F1..F3 80..BF,
 * F4 80..8F, then two tails) becomes its two surrogates, 3 octets each
 * (ED A0..AF xx ED B0..BF xx). cesu_to_utf8_run: such a pair becomes the
 * 4 octets of UTF-8. (The forms are tested and written here, not by
 * u8k_decode_fast / u8k_decode_char and u8k_encode_char: through those
 * the runs were no faster than the loop, Emoji-Lipsum 0.5-0.6 GB/s
 * against 1.5-2.1.) */
static size_t utf8_to_cesu_run(const unsigned char *s, size_t n, size_t lim, unsigned char *d,
                               size_t room, size_t *wrote)
{
    size_t i = 0, o = 0;
    while (i < lim && n - i >= 4 && (d == NULL || room - o >= 6)) {
        unsigned b0 = s[i], b1 = s[i + 1];
        uint32_t v;
        if (b0 < 0xF0 || b0 > 0xF4 || (s[i + 2] & 0xC0) != 0x80 || (s[i + 3] & 0xC0) != 0x80 ||
            b1 < (b0 == 0xF0 ? 0x90u : 0x80u) || b1 > (b0 == 0xF4 ? 0x8Fu : 0xBFu))
            break;
        v = ((uint32_t)(b0 & 7) << 18 | (uint32_t)(b1 & 0x3F) << 12 |
             (uint32_t)(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3Fu)) - 0x10000;
        if (d != NULL) {
            put_surrogate(d + o, 0xD800 + (v >> 10));
            put_surrogate(d + o + 3, 0xDC00 + (v & 0x3FF));
        }
        i += 4;
        o += 6;
    }
    *wrote = o;
    return i;
}

static size_t cesu_to_utf8_run(const unsigned char *s, size_t n, size_t lim, unsigned char *d,
                               size_t room, size_t *wrote)
{
    size_t i = 0, o = 0;
    while (i < lim && n - i >= 6 && (d == NULL || room - o >= 4)) {
        uint32_t v;
        if (s[i] != 0xED || (s[i + 1] & 0xF0) != 0xA0 || (s[i + 2] & 0xC0) != 0x80 ||
            s[i + 3] != 0xED || (s[i + 4] & 0xF0) != 0xB0 || (s[i + 5] & 0xC0) != 0x80)
            break;
        /* the 10 bits of each surrogate, plus 10000 */
        v = 0x10000 + ((uint32_t)(s[i + 1] & 0x0F) << 16 | (uint32_t)(s[i + 2] & 0x3F) << 10 |
                       (uint32_t)(s[i + 4] & 0x0F) << 6 | (s[i + 5] & 0x3Fu));
        if (d != NULL) {
            d[o] = (unsigned char)(0xF0 | v >> 18);
            d[o + 1] = (unsigned char)(0x80 | (v >> 12 & 0x3F));
            d[o + 2] = (unsigned char)(0x80 | (v >> 6 & 0x3F));
            d[o + 3] = (unsigned char)(0x80 | (v & 0x3F));
        }
        i += 6;
        o += 4;
    }
    *wrote = o;
    return i;
}

/* The generic loop: from byte offset pos of src, writing from byte w of
 * dst, per the policy, while pos < stop (at most len: the characters are
 * read from the whole input, so one that starts before stop ends where it
 * ends in the whole input). */
static utf8kit_result generic(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                              size_t len, unsigned char *d, size_t cap, utf8kit_policy pol,
                              const struct u8k_subst *x, size_t pos, size_t w, size_t replaced,
                              size_t stop)
{
    utf8kit_result r;
    unsigned char buf[8];
    size_t (*ascii_prefix)(const unsigned char *, size_t) = u8k_active()->ascii_prefix;
    bool ascii_run = u8k_unit_size(from) == 1;
    size_t osz = u8k_unit_size(to);
    bool obe = to == UTF8KIT_UTF16BE || to == UTF8KIT_UCS2BE || to == UTF8KIT_UTF32BE;
    bool to_cesu = from == UTF8KIT_UTF8 && (to == UTF8KIT_CESU8 || to == UTF8KIT_MUTF8);
    bool from_cesu = (from == UTF8KIT_CESU8 || from == UTF8KIT_MUTF8) && to == UTF8KIT_UTF8;
    while (pos < stop) {
        uint32_t cp;
        size_t n, k;
        const unsigned char *out = buf;
        utf8kit_status st;
        if ((to_cesu && s[pos] >= 0xF0) || (from_cesu && s[pos] == 0xED)) {
            size_t took = (to_cesu ? utf8_to_cesu_run : cesu_to_utf8_run)(
                s + pos, len - pos, stop - pos, d ? d + w : NULL, cap - w, &k);
            pos += took;
            w += k;
            if (took > 0)
                continue;
        }
        if (ascii_run && s[pos] < 0x80) {
            /* Every 8-bit source reads 00..7F as U+0000..U+007F, and every
             * target writes those as one unit of the same value: a run of
             * ASCII is copied, or widened to 16/32-bit units (MUTF-8
             * output stops before a 00, which it writes as C0 80). */
            size_t run = ascii_prefix(s + pos, len - pos);
            const unsigned char *z;
            if (to == UTF8KIT_MUTF8 && (z = memchr(s + pos, 0, run)) != NULL)
                run = (size_t)(z - (s + pos));
            if (d != NULL) {
                if (run > (cap - w) / osz)
                    run = (cap - w) / osz;
                widen(d + w, s + pos, run, osz, obe);
            }
            pos += run;
            w += run * osz;
            if (run > 0)
                continue;
        }
        st = from == UTF8KIT_UTF8 ? u8k_decode_fast(s + pos, len - pos, &cp, &n)
                                  : u8k_decode_char_to(from, to, s + pos, len - pos, &cp, &n);
        if (U8K_LIKELY(st == UTF8KIT_OK)) {
            /* With room for any character, encode in place (the encoder
             * writes nothing when it returns 0). */
            if (d != NULL && cap - w >= 8) {
                k = u8k_encode_char(to, cp, d + w);
                if (U8K_LIKELY(k != 0)) {
                    w += k;
                    pos += n;
                    continue;
                }
            } else {
                k = u8k_encode_char(to, cp, buf);
            }
            if (U8K_UNLIKELY(k == 0))
                st = UTF8KIT_ERR_UNREPRESENTABLE;
        }
        if (U8K_UNLIKELY(st != UTF8KIT_OK)) {
            /* ASSUME_VALID promised valid input, not a target that can
             * hold every character: an unrepresentable one stops it. */
            if (pol == UTF8KIT_STRICT ||
                (pol == UTF8KIT_ASSUME_VALID && st == UTF8KIT_ERR_UNREPRESENTABLE)) {
                r = u8k_res(st, pos, w, st == UTF8KIT_ERR_TRUNCATED ? len - pos : n);
                r.replaced = replaced;
                return r;
            }
            if (pol == UTF8KIT_REPLACE) {
                out = st == UTF8KIT_ERR_UNREPRESENTABLE ? x->sub : x->repl;
                k = st == UTF8KIT_ERR_UNREPRESENTABLE ? x->sub_len : x->repl_len;
                replaced++;
            } else {
                /* SKIP drops it; ASSUME_VALID was promised no invalid
                 * input and drops it too. */
                replaced += pol == UTF8KIT_SKIP;
                pos += n;
                continue;
            }
        }
        if (d != NULL) {
            if (cap - w < k) {
                if (st != UTF8KIT_OK)
                    replaced--;
                r = u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, pos, w, 0);
                r.replaced = replaced;
                return r;
            }
            memcpy(d + w, out, k);
        }
        w += k;
        pos += n;
    }
    r = u8k_res(UTF8KIT_OK, pos, w, 0);
    r.replaced = replaced;
    return r;
}

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p & (a - 1)) == 0; }

/* ---- units: byte reversals, and scans for where a stretch ends ----------- */

static bool is_ucs2(utf8kit_encoding e) { return e == UTF8KIT_UCS2LE || e == UTF8KIT_UCS2BE; }

/* Latin-1, windows-1252 and US-ASCII: a byte a character, 00..7F alike
 * (windows-1252 maps even its five unassigned bytes, as WHATWG does, to
 * U+0081.. and back). */
static bool is_8bit(utf8kit_encoding e)
{
    return e == UTF8KIT_LATIN1 || e == UTF8KIT_CP1252 || e == UTF8KIT_ASCII;
}

static bool big_endian(utf8kit_encoding e)
{
    return e == UTF8KIT_UTF16BE || e == UTF8KIT_UCS2BE || e == UTF8KIT_UTF32BE;
}

/* UTF-32 in the byte order the kernels do not take (not the host's). */
#define UTF32_OTHER (UTF8KIT_UTF32 == UTF8KIT_UTF32LE ? UTF8KIT_UTF32BE : UTF8KIT_UTF32LE)

/* The n 4-byte units of s, each byte-reversed, to d (d == s allowed):
 * two at a time, a 64-bit byte reversal swapping them back. */
static void swap32(unsigned char *d, const unsigned char *s, size_t n)
{
    size_t i;
    for (i = 0; i + 2 <= n; i += 2) {
        uint64_t v;
        memcpy(&v, s + 4 * i, 8);
        v = __builtin_bswap64(v);
        v = v >> 32 | v << 32;
        memcpy(d + 4 * i, &v, 8);
    }
    for (; i < n; i++) {
        uint32_t v;
        memcpy(&v, s + 4 * i, 4);
        v = v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
        memcpy(d + 4 * i, &v, 4);
    }
}

/* The byte reversal of every 4-byte unit, for the units kernel. */
static const struct u8k_unit_scan rev32 = {
    {0}, {0}, {0}, {0}, {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12}, false, true};

/* swap32 with the units kernel's whole vectors first. */
static void swap_units(unsigned char *d, const unsigned char *s, size_t n)
{
    const u8k_kernels *k = u8k_active();
    size_t i = k->units != NULL ? k->units(d, s, 4 * n, &rev32) : 0;
    swap32(d + i, s + i, n - i / 4);
}

/* n bytes of 16-bit units from s to d, each byte-reversed: four units per
 * 64-bit step. */
static void swap16(unsigned char *d, const unsigned char *s, size_t n)
{
    const uint64_t lo = UINT64_C(0x00FF00FF00FF00FF);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, s + i, 8);
        v = (v >> 8 & lo) | (v & lo) << 8;
        memcpy(d + i, &v, 8);
    }
    for (; i + 2 <= n; i += 2) {
        d[i] = s[i + 1];
        d[i + 1] = s[i];
    }
}

/* The offset of the first unit of the UCS-2 s[i..end) (whole units, big-
 * endian when be) that is a surrogate (D800..DFFF), or 0000 when zero, or
 * end. Eight bytes a step: their high bytes masked to the top 5 bits and
 * compared with D8 become 00 just for a surrogate; the low bytes are made
 * FF. (x - 0001..) & ~x has a bit 15 set only when some unit is 0000. */
static size_t next_surrogate(const unsigned char *s, size_t i, size_t end, bool be, bool zero)
{
    const uint64_t ones16 = UINT64_C(0x0001000100010001);
    unsigned char mb[8], vb[8];
    uint64_t m, v;
    size_t k;
    for (k = 0; k < 8; k++) {
        bool high = (k % 2 == 0) == be;
        mb[k] = high ? 0xF8 : 0x00;
        vb[k] = high ? 0xD8 : 0xFF;
    }
    memcpy(&m, mb, 8);
    memcpy(&v, vb, 8);
    for (; end - i >= 8; i += 8) {
        uint64_t x, t;
        memcpy(&x, s + i, 8);
        t = (x & m) ^ v;
        /* some byte of t is 00 */
        if (((t - UINT64_C(0x0101010101010101)) & ~t & UINT64_C(0x8080808080808080)) ||
            (zero && ((x - ones16) & ~x & ones16 << 15)))
            break;
    }
    for (; i < end; i += 2)
        if ((s[i + !be] & 0xF8) == 0xD8 || (zero && (s[i] | s[i + 1]) == 0))
            break;
    return i;
}

/* The offset of the first unit of the UTF-32 s[i..end) (whole units,
 * big-endian when be) that is a surrogate or above max (or 0 when zero),
 * or end. */
static size_t next_bad32(const unsigned char *s, size_t i, size_t end, bool be, uint32_t max,
                         bool zero)
{
    for (; i < end; i += 4) {
        uint32_t v = u8k_load32(s + i, be);
        if (v - 0xD800u < 0x800u || v > max || (zero && v == 0))
            break;
    }
    return i;
}

/* The offset of the first byte F0..FF (or 00 when zero) in s[i..len), or
 * len: bytes whose top four bits are set (a shift moves each byte's bits
 * 4..6 up to its bit 7; what crosses into the next byte lands below bit
 * 7), and zero bytes ((x - 01..) & ~x has a bit 7 set only when some byte
 * is 00). */
static size_t next_f0(const unsigned char *s, size_t i, size_t len, bool zero)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), tops = ones << 7;
    for (; len - i >= 8; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if ((x & x << 1 & x << 2 & x << 3 & tops) || (zero && ((x - ones) & ~x & tops)))
            break;
    }
    for (; i < len; i++)
        if (s[i] >= 0xF0 || (zero && s[i] == 0))
            break;
    return i;
}

/* The offset of the first byte 80..9F (when c1) or 00 (when zero) in
 * s[i..len), or len (the top three bits of a byte 80..9F masked and
 * compared with 80 give 00; zero bytes as in next_f0). */
static size_t next_l1(const unsigned char *s, size_t i, size_t len, bool c1, bool zero)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), tops = ones << 7;
    for (; len - i >= 8; i += 8) {
        uint64_t x, t;
        memcpy(&x, s + i, 8);
        t = (x & ones * 0xE0) ^ tops;
        if ((c1 && ((t - ones) & ~t & tops)) || (zero && ((x - ones) & ~x & tops)))
            break;
    }
    for (; i < len; i++)
        if ((c1 && (s[i] & 0xE0) == 0x80) || (zero && s[i] == 0))
            break;
    return i;
}

/* A scan for scan_units: what stops it, for the units kernel (v) and for
 * the scalar loops above. */
struct scan {
    struct u8k_unit_scan v;
    size_t unit;  /* 0: stops nowhere (scan_none);
                   * 1: UTF-8, stops at bytes F0..FF (and 00 when zero),
                   * or (l1: Latin-1 and windows-1252) at bytes 80..9F
                   * when c1 and 00 when zero; 2: UTF-16 or UCS-2, at
                   * surrogates (and 0000 when zero); 4: UTF-32, at
                   * surrogates and units above max (and 0 when zero) */
    uint32_t max; /* 10FFFF (units that are not scalar values), or FFFF */
    bool zero, c1, l1;
    bool be;      /* the units are big-endian */
};

/* The scan of units of unit bytes, big-endian when be, copied byte-
 * reversed when swap. For the kernel's UTF-32 test, a unit stops when its
 * top byte is not 00, its next is above 10, or its second lowest is
 * D8..DF: that takes in the surrogates, and also (whatever the plane) the
 * characters U+xD800..U+xDFFF, which the scalar loop then lets through. */
static struct scan scan_of(size_t unit, bool be, bool swap)
{
    struct scan sc;
    size_t j;
    sc.unit = unit;
    sc.max = 0x10FFFF;
    sc.zero = false;
    sc.c1 = false;
    sc.l1 = false;
    sc.be = be;
    memset(sc.v.top, 0, sizeof sc.v.top);
    sc.v.top[0xD] = 0x08;
    sc.v.check = true;
    sc.v.swap = swap;
    for (j = 0; j < 16; j++) {
        size_t b = j % unit, sig = be ? unit - 1 - b : b; /* 0: the lowest byte */
        sc.v.low[j] = 0x00;
        sc.v.lim[j] = unit == 1                ? 0xEF
                      : unit == 4 && sig == 3 ? 0x00
                      : unit == 4 && sig == 2 ? 0x10
                                              : 0xFF;
        sc.v.sur[j] = unit > 1 && sig == 1 ? 0x08 : 0x00;
        sc.v.rev[j] = (unsigned char)(j - b + (unit - 1 - b));
    }
    return sc;
}

/* A scan that stops nowhere (unit 0): the stretches are the steps. */
static struct scan scan_none(void)
{
    struct scan sc = scan_of(1, false, false);
    sc.unit = 0;
    return sc;
}

/* The scan of UTF-8 for bytes F0..FF, and 00 when zero. */
static struct scan scan_utf8(bool zero)
{
    struct scan sc = scan_of(1, false, false);
    sc.zero = zero;
    memset(sc.v.low, zero ? 0x01 : 0x00, sizeof sc.v.low);
    return sc;
}

/* The scan of UTF-16 or UCS-2 (big-endian when be) for surrogates and
 * units 0000, which MUTF-8 writes C0 80. The kernel stops at every unit
 * whose low byte is 00 (a byte of its own it can tell), the scalar loop
 * at 0000 alone. */
static struct scan scan_mutf16(bool be)
{
    struct scan sc = scan_of(2, be, false);
    size_t j;
    sc.zero = true;
    for (j = 0; j < 16; j++)
        sc.v.low[j] = (j % 2 == 0) != be ? 0x01 : 0x00;
    return sc;
}

/* The scan of windows-1252 for bytes 80..9F, where it is not Latin-1. */
static struct scan scan_c1(void)
{
    struct scan sc = scan_of(1, false, false);
    sc.c1 = sc.l1 = true;
    memset(sc.v.lim, 0xFF, sizeof sc.v.lim);
    memset(sc.v.sur, 0xFF, sizeof sc.v.sur);
    memset(sc.v.top, 0, sizeof sc.v.top);
    sc.v.top[0x8] = sc.v.top[0x9] = 0xFF;
    return sc;
}

/* The scan of Latin-1 (c1: windows-1252, then for bytes 80..9F too) for
 * bytes 00, which MUTF-8 writes C0 80. */
static struct scan scan_zero8(bool c1)
{
    struct scan sc = c1 ? scan_c1() : scan_of(1, false, false);
    sc.l1 = sc.zero = true;
    memset(sc.v.low, 0x01, sizeof sc.v.low);
    memset(sc.v.lim, 0xFF, sizeof sc.v.lim);
    return sc;
}

/* The scan of UTF-32 (big-endian when be) for a unit that UCS-2 cannot
 * hold: a surrogate, or above FFFF (exact in the kernel too); and when
 * zero, for units 0 too, which MUTF-8 writes C0 80 (the kernel stops at
 * every unit whose lowest byte is 00, the scalar loop at 0 alone). */
static struct scan scan_bmp(bool be, bool zero)
{
    struct scan sc = scan_of(4, be, false);
    size_t j;
    sc.max = 0xFFFF;
    sc.zero = zero;
    for (j = 0; j < 16; j++) {
        if (sc.v.lim[j] == 0x10)
            sc.v.lim[j] = 0x00;
        if (zero && j % 4 == (be ? 3u : 0u))
            sc.v.low[j] = 0x01;
    }
    return sc;
}

/* The bytes of s[0..n) (whole units) before the first unit at which sc
 * stops, or n; copied to d first unless d is NULL (byte-reversed when
 * sc->v.swap; as they are otherwise, but for UTF-8). The units kernel
 * takes whole vectors; the scalar loops take over where it stops, for 64
 * bytes (which hold the vector that stopped it) before it takes the rest
 * again, since its UTF-32 test stops at a few characters too. */
static size_t scan_units(const struct scan *sc, unsigned char *d, const unsigned char *s, size_t n)
{
    const u8k_kernels *k = u8k_active();
    size_t i = 0;
    if (sc->unit == 0) {
        /* (scan_none) */
        if (d != NULL)
            memcpy(d, s, n);
        return n;
    }
    for (;;) {
        size_t stop = n, j;
        if (k->units != NULL) {
            i += k->units(d ? d + i : NULL, s + i, n - i, &sc->v);
            if (n - i > 64)
                stop = i + 64;
        }
        j = sc->l1          ? next_l1(s, i, stop, sc->c1, sc->zero)
            : sc->unit == 1 ? next_f0(s, i, stop, sc->zero)
            : sc->unit == 2 ? next_surrogate(s, i, stop, sc->be, sc->zero)
                            : next_bad32(s, i, stop, sc->be, sc->max, sc->zero);
        if (d != NULL && !sc->v.swap)
            memcpy(d + i, s + i, j - i);
        else if (d != NULL)
            (sc->unit == 2 ? swap16(d + i, s + i, j - i) : swap32(d + i, s + i, (j - i) / 4));
        if (j < stop || stop == n)
            return j;
        i = j;
    }
}

/* UTF-16 (big-endian when be) from s[0..n), whole units, to d (d NULL:
 * measuring), byte-reversed when swap: the valid surrogate pairs and the
 * other units among them, up to a lone surrogate, a pair that n cuts, or
 * 8 units in a row without a pair (the units kernel takes such runs
 * faster). Runs of pairs go 8 bytes a step: the high bytes of both
 * pairs masked (mask) and compared with D8, DC, D8, DC (want). Returns
 * the bytes copied. */
static size_t utf16_pairs(unsigned char *d, const unsigned char *s, size_t n, bool be, bool swap)
{
    const unsigned char *t = s + (be ? 0 : 1); /* the high bytes of the units */
    static const unsigned char mb[2][8] = {{0, 0xFC, 0, 0xFC, 0, 0xFC, 0, 0xFC},
                                           {0xFC, 0, 0xFC, 0, 0xFC, 0, 0xFC, 0}};
    static const unsigned char wb[2][8] = {{0, 0xD8, 0, 0xDC, 0, 0xD8, 0, 0xDC},
                                           {0xD8, 0, 0xDC, 0, 0xD8, 0, 0xDC, 0}};
    uint64_t mask, want, x;
    size_t i = 0, plain = 0, u;
    memcpy(&mask, mb[be], 8);
    memcpy(&want, wb[be], 8);
    while (n - i >= 2 && plain < 8) {
        if (n - i >= 8) {
            memcpy(&x, s + i, 8);
            if ((x & mask) == want) {
                const uint64_t lo = UINT64_C(0x00FF00FF00FF00FF);
                if (d != NULL && swap)
                    x = (x >> 8 & lo) | (x & lo) << 8;
                if (d != NULL)
                    memcpy(d + i, &x, 8);
                i += 8;
                plain = 0;
                continue;
            }
        }
        if ((t[i] & 0xF8) != 0xD8)
            u = 1, plain++;
        else if ((t[i] & 0xFC) == 0xD8 && n - i >= 4 && (t[i + 2] & 0xFC) == 0xDC)
            u = 2, plain = 0;
        else
            break;
        if (d != NULL && swap)
            swap16(d + i, s + i, 2 * u);
        else if (d != NULL)
            memcpy(d + i, s + i, 2 * u);
        i += 2 * u;
    }
    return i;
}

/* The first of the n units at s (2 or 4 bytes, big-endian when be) that
 * are at most max, as bytes at d; returns how many (after the kernel's
 * narrow, for the vector that stopped it). */
static size_t narrow(unsigned char *d, const unsigned char *s, size_t n, size_t unit, bool be,
                     unsigned max)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t u = unit == 2 ? u8k_load16(s + 2 * i, be) : u8k_load32(s + 4 * i, be);
        if (u > max)
            break;
        d[i] = (unsigned char)u;
    }
    return i;
}

/* Under REPLACE and SKIP to Latin-1 and US-ASCII (max FF, 7F), whose
 * substitute is one byte and stands for input errors too (the target
 * cannot hold U+FFFD; l1: sub_flags, not 0): the n units at s (as
 * for narrow; UTF-16 pairs one character when pairs), each at most max
 * as its byte, and the characters above max and the errors (a lone
 * surrogate, or in UTF-32 a surrogate or a value above 10FFFF) each the
 * substitute and counted in *rep: what the generic loop writes for them.
 * Up to the end of 16 units in a row at most max (the kernel's narrow
 * goes on from there), or a high surrogate in the last unit (maybe a pair
 * the step cuts: the generic loop's). Returns the units read; *wrote gets
 * the bytes written at d. */
#define NARROW_RUN 16
static size_t narrow_subs(unsigned char *d, const unsigned char *s, size_t n, size_t unit,
                          bool be, unsigned max, bool pairs, unsigned l1, size_t *wrote,
                          size_t *rep)
{
    size_t i = 0, o = 0, run = 0, r = 0;
    bool drop = (l1 & U8K_L1_DROP) != 0;
    while (i < n && run < NARROW_RUN) {
        uint32_t u = unit == 2 ? u8k_load16(s + 2 * i, be) : u8k_load32(s + 4 * i, be);
        if (u <= max) {
            d[o++] = (unsigned char)u;
            i++;
            run++;
            continue;
        }
        run = 0;
        if (pairs && (u & 0xFC00u) == 0xD800u) {
            if (i + 1 == n)
                break;
            if ((u8k_load16(s + 2 * (i + 1), be) & 0xFC00u) == 0xDC00u)
                i++;
        }
        i++;
        if (!drop)
            d[o++] = U8K_L1_BYTE(l1);
        r++;
    }
    *rep += r;
    *wrote = o;
    return i;
}

/* Scans for where a stretch ends (stretches, below) go this many bytes at
 * most, so that the kernels read what they scanned from the cache (10 MB
 * of UCS-2 to UTF-8 went 15% faster). */
#define SCAN_STEP 65536

/* windows-1252 -> UTF-8 (and CESU-8, which writes its characters alike)
 * of s[0..n) to d, room bytes: the Latin-1 kernel up to each byte 80..9F
 * (latin1_to_utf8_c1, or where a kernel set has none, latin1_to_utf8 after
 * sc: scan_c1, at most SCAN_STEP bytes a scan), that byte's character
 * encoded by the codec (u8k_cp1252_high, u8k_encode_char). Every byte is
 * a character, none an error. Returns the bytes of s converted: all n, or
 * fewer where the room runs out (at a character's start: the generic
 * loop takes over there); *w gets the bytes written. */
static size_t cp1252_utf8(const u8k_kernels *k, const struct scan *sc, const unsigned char *s,
                          size_t n, unsigned char *d, size_t room, size_t *w)
{
    size_t i = 0, o = 0;
    while (i < n) {
        utf8kit_result r;
        if (k->latin1_to_utf8_c1 != NULL) {
            r = k->latin1_to_utf8_c1(s + i, n - i, d + o, room - o);
        } else {
            size_t j = scan_units(sc, NULL, s + i, n - i < SCAN_STEP ? n - i : SCAN_STEP);
            r = call_kernel(k, P_L1_U8, s + i, j, d + o, room - o, 0);
        }
        i += r.read;
        o += r.written;
        if (r.status != UTF8KIT_OK)
            break;
        /* the byte the scan stopped at (or, at a scan's end, any byte) */
        if (i < n && s[i] - 0x80u < 0x20u) {
            unsigned char c[8];
            size_t cl = u8k_encode_char(UTF8KIT_UTF8, u8k_cp1252_high[s[i] - 0x80u], c);
            if (room - o < cl)
                break;
            memcpy(d + o, c, cl);
            o += cl;
            i++;
        }
    }
    *w = o;
    return i;
}

/* ---- pairs without UTF-8, through it ------------------------------------- */

/* The kernel pairs that take e to UTF-8 (*to8) and back (*from8), for
 * the encodings that have them: UTF-16 in either byte order (and UCS-2,
 * by stretches without surrogates or characters above U+FFFF), UTF-32 (in
 * the other byte order than the host's, byte-reversed before or after the
 * kernel), Latin-1 (and windows-1252 and US-ASCII, by stretches without
 * bytes 80..9F, or 80..FF, or the characters they map to). False for the
 * others. */
static bool via_pairs(utf8kit_encoding e, enum pair *to8, enum pair *from8)
{
    if (e == UTF8KIT_UTF16LE || e == UTF8KIT_UTF16BE || is_ucs2(e))
        *to8 = P_U16_U8, *from8 = P_U8_U16;
    else if (e == UTF8KIT_UTF32 || e == UTF32_OTHER)
        *to8 = P_U32_U8, *from8 = P_U8_U32;
    else if (e == UTF8KIT_LATIN1 || e == UTF8KIT_CP1252 || e == UTF8KIT_ASCII)
        *to8 = P_L1_U8, *from8 = P_U8_L1;
    else
        return false;
    return true;
}

/* Input units converted a step, through a UTF-8 buffer of at most 4 bytes
 * a unit (UTF-32; UTF-16 takes 3, Latin-1 2). */
#define VIA_UNITS 1024

/* A pair of two of those (from != to, neither UTF-8), input and output
 * aligned to their units (d NULL: measuring, below): each step converts
 * up to VIA_UNITS units of s from *pos to UTF-8 and that UTF-8 to the
 * target at d + *w, both by the kernels (call_kernel) and both STRICT.
 * The steps go on while a step converts its units whole in both. A step
 * that does not (an invalid unit, a character the target cannot hold, not
 * enough room) keeps what both kernels converted, up to a character
 * boundary, and via_utf8 returns with *pos and *w there: everything
 * before converted as the generic loop converts valid input, which goes
 * on from there (utf8kit_convert). A UTF-16 step does not end between
 * the two units of a pair. UTF-32 in the other byte order is reversed
 * into a buffer before the first kernel, or in place after the second
 * (where the offsets of its units are those of the host's UTF-32). UCS-2
 * is read as UTF-16 up to the next surrogate unit, and written as UTF-16
 * from UTF-32 up to the next unit above FFFF (or a surrogate) and from
 * Latin-1: a step ends short there, and the generic loop takes that unit.
 * windows-1252 is Latin-1 but for bytes 80..9F: its input goes to UTF-8
 * by cp1252_utf8, and as a target the Latin-1 the second kernel wrote is
 * scanned for them (they come from U+0080..U+009F, of which windows-1252
 * holds five), the step ending before the first.
 * US-ASCII likewise, up to the first byte 80..FF (an invalid byte, or a
 * character it cannot hold) in the input or in the Latin-1 written.
 * A step costs the two kernels' times, where the generic loop decodes and
 * encodes a character at a time (bench/RESULTS.md, session 21: 3.5-45x as
 * fast). Returns false, having done nothing, for a pair or alignment it
 * does not take. */
static bool via_utf8(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                     size_t len, unsigned char *d, size_t cap, size_t *pos, size_t *w)
{
    const u8k_kernels *k = u8k_kernels_now();
    const unsigned ibe = big_endian(from) && from != UTF8KIT_UTF32BE ? U8K_BE : 0;
    const unsigned obe = big_endian(to) && to != UTF8KIT_UTF32BE ? U8K_BE : 0;
    /* the steps end at what sc stops at (cut) */
    bool cut = true;
    struct scan sc, c1;
    enum pair pa, pb, unused;
    size_t isz, osz;
    unsigned char buf[4 * VIA_UNITS], rev[4 * VIA_UNITS], one[VIA_UNITS];
    if (!via_pairs(from, &pa, &unused) || !via_pairs(to, &unused, &pb))
        return false;
    isz = in_size[pa];
    osz = out_size[pb];
    if (!aligned(s + *pos, isz) || (d != NULL && !aligned(d + *w, osz)) ||
        (is_ucs2(to) && isz == 2))
        return false;
    /* UCS-2 input up to a surrogate, UTF-32 to UCS-2 up to a unit above
     * FFFF (UTF-16 to UCS-2 is a copy: stretches) */
    if (is_ucs2(from))
        sc = scan_of(2, ibe != 0, false);
    else if (is_ucs2(to) && isz == 4)
        sc = scan_bmp(big_endian(from), false);
    else
        cut = false;
    if (from == UTF8KIT_CP1252)
        sc = scan_c1(); /* (for cp1252_utf8) */
    if (to == UTF8KIT_CP1252)
        c1 = scan_c1();
    /* Measuring: the output units of each step's UTF-8 are counted by the
     * kernels (count, UTF-16 length: exact on the valid UTF-8 a step
     * makes); to the 8-bit targets, whose characters above U+00FF the
     * generic loop must see, a step is converted into `one` (at most a
     * byte a unit) and thrown away. */
    for (;;) {
        const unsigned char *in = s + *pos;
        size_t units = (len - *pos) / isz, room = (cap - *w) / osz;
        utf8kit_result a, b;
        if (units > VIA_UNITS) {
            units = VIA_UNITS;
            /* a high surrogate last: its pair goes with the next step */
            if (isz == 2 && (in[2 * units - (ibe ? 2 : 1)] & 0xFC) == 0xD8)
                units--;
        }
        if (cut)
            units = scan_units(&sc, NULL, in, isz * units) / isz;
        else if (from == UTF8KIT_ASCII)
            units = k->ascii_prefix(in, units);
        if (units == 0)
            return true;
        if (from == UTF32_OTHER) {
            swap_units(rev, in, units);
            in = rev;
        }
        /* a.read: the units before the first invalid one, or all */
        if (from == UTF8KIT_CP1252) {
            a = u8k_res(UTF8KIT_OK, 0, 0, 0);
            a.read = cp1252_utf8(k, &sc, in, units, buf, sizeof buf, &a.written);
        } else {
            a = call_kernel(k, pa, in, units, buf, sizeof buf, ibe);
        }
        if (d == NULL && osz > 1) {
            *pos += a.read * isz;
            *w += osz * (osz == 2 ? k->utf16_length(buf, a.written) : k->count(buf, a.written));
        } else {
            unsigned char *o = d != NULL ? d + *w : one;
            b = call_kernel(k, pb, buf, a.written, o, d != NULL ? room : sizeof one, obe);
            if (to == UTF8KIT_CP1252 || to == UTF8KIT_ASCII) {
                /* Latin-1 up to the first byte 80..9F (80..FF) written:
                 * as many characters, each one unit of s (none above
                 * U+00FF) */
                size_t c = to == UTF8KIT_ASCII ? k->ascii_prefix(o, b.written)
                                               : scan_units(&c1, NULL, o, b.written);
                if (c < b.written) {
                    *pos += isz * c;
                    *w += c;
                    return true;
                }
            }
            if (to == UTF32_OTHER)
                swap_units(o, o, b.written);
            /* b stopped short: its input's first b.read bytes are whole
             * characters, as many units of s as UTF-16 or (UTF-32,
             * Latin-1: one a character) characters */
            *pos += isz * (b.status == UTF8KIT_OK ? a.read
                           : isz == 2             ? k->utf16_length(buf, b.read)
                                                  : k->count(buf, b.read));
            *w += b.written * osz;
            if (b.status != UTF8KIT_OK)
                return true;
        }
        if (a.status != UTF8KIT_OK)
            return true;
    }
}

/* ---- UCS-2, UTF-32 in the other byte order, CESU-8, MUTF-8: stretches ---- */

/* UTF-8 -> UTF-32 in the other byte order goes in steps of this many
 * input bytes, each reversed right after the kernel wrote it (at most 16
 * KiB of output, still in the cache). */
#define SWAP_STEP 4096

/* r with read, written and replaced the totals (byte offsets), error_len
 * in bytes (r's units were unit bytes). */
static utf8kit_result totals(utf8kit_result r, size_t pos, size_t w, size_t replaced, size_t unit)
{
    r.read = pos;
    r.written = w;
    r.error_len *= unit;
    r.replaced = replaced;
    return r;
}

/* How many units the generic loop takes (from the start of the one the
 * kernels cannot) after the kernels took a stretch of n bytes of unit-byte
 * units: one when the stretch was 64 units or more, else twice as many as
 * the last time (gen), from 16. Input where the stretches keep ending
 * soon (text of emoji to UCS-2) then costs a few stretches more than the
 * generic loop alone. */
static size_t more(size_t gen, size_t n, size_t unit)
{
    return n >= 64 * unit ? 1 : gen ? 2 * gen : 16;
}

/* generic() from *pos to stop, for the loops below: true with *pos, *w
 * and *rep moved on to where it stopped, or false with *res its answer
 * (an error it stops on, or the room ran out). */
static bool generic_to(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                       size_t len, unsigned char *d, size_t cap, utf8kit_policy pol,
                       const struct u8k_subst *x, size_t stop, size_t *pos, size_t *w,
                       size_t *rep, utf8kit_result *res)
{
    utf8kit_result r = generic(from, to, s, len, d, cap, pol, x, *pos, *w, *rep, stop);
    if (r.status != UTF8KIT_OK) {
        *res = r;
        return false;
    }
    *pos = r.read;
    *w = r.written;
    *rep = r.replaced;
    return true;
}

/* The loop of most pairs of stretches (below): from byte pos of s and w
 * of d (NULL: measuring), each stretch up to the unit at which sc stops
 * (a scan goes SCAN_STEP bytes at most, and UTF-8 ends where no sequence
 * goes across: utf8_cut) by drive(p) under dpol with flags, then the
 * generic loop, for as many units as `more` says, from where drive
 * stopped short of that unit (an error under STRICT or the end of the
 * room, which the generic loop reports as drive would; a sequence cut by
 * the stretch's end) or from that unit; it also takes a partial unit at
 * the end. *res: the answer. */
static void stretch_loop(enum pair p, const struct scan *sc, utf8kit_policy dpol, unsigned flags,
                         utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                         size_t len, unsigned char *d, size_t cap, utf8kit_policy pol,
                         const struct u8k_subst *x, size_t pos, size_t w, utf8kit_result *res)
{
    size_t isz = in_size[p], osz = out_size[p], end = pos + (len - pos) / isz * isz;
    size_t gen = 0, rep = 0, q = pos;
    bool stop = false; /* q is a unit at which sc stops, not a scan's end */
    while (pos < end) {
        size_t p0 = pos;
        /* (drive may stop well before q: q stays until passed) */
        if (q <= pos) {
            size_t n = end - pos;
            if (n > SCAN_STEP)
                n = isz == 1 && p != P_L1_U8 ? utf8_cut(s + pos, SCAN_STEP) : SCAN_STEP;
            q = pos + scan_units(sc, NULL, s + pos, n);
            stop = q < pos + n;
        }
        if (q > pos) {
            utf8kit_result r = drive(p, s + pos, (q - pos) / isz, d ? d + w : NULL,
                                     d ? (cap - w) / osz : SIZE_MAX, dpol, flags, x, to, NULL);
            pos += r.read * isz;
            w += r.written * osz;
            rep += r.replaced;
        }
        gen = more(gen, pos - p0, isz);
        if ((pos < q || stop) &&
            !generic_to(from, to, s, len, d, cap, pol, x,
                        gen < (len - pos) / isz ? pos + isz * gen : len, &pos, &w, &rep, res))
            return;
    }
    *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
}

/* The pairs listed below (most others that the typed driver does not
 * take go through UTF-8: via_utf8), from byte pos of s and byte w of d
 * (NULL: measuring), by the typed driver (or a copy) over the stretches
 * that are the same as a pair the kernels know, and the generic loop for
 * what lies between them:
 *  - UTF-32 other order -> UTF-8: VIA_UNITS units at a time byte-reversed
 *    into a buffer, then UTF-32 -> UTF-8 (every unit is a character or an
 *    error of its own, so the steps change nothing);
 *  - UCS-2 -> UTF-8: UTF-16 -> UTF-8 up to the next surrogate unit (UTF-16
 *    and UCS-2 read the others alike), the generic loop for that unit;
 *    UCS-2 and UTF-16 -> CESU-8 and MUTF-8 likewise (they write the
 *    characters below U+10000 as UTF-8 does, but MUTF-8 U+0000: it stops
 *    at that unit too); UTF-32 in the host's order -> CESU-8 and MUTF-8
 *    by UTF-32 -> UTF-8 up to the next unit above FFFF (or 0 for MUTF-8);
 *  - UCS-2 to and from UTF-16, between the byte orders of UTF-16, UCS-2
 *    and UTF-32, and each of them to itself: the units up to the next
 *    surrogate (UTF-32: the next one that is not a scalar value) copied,
 *    byte-reversed when the orders differ; between UTF-16s, the surrogate
 *    pairs after it too (utf16_pairs);
 *  - UTF-8 -> UCS-2: UTF-8 -> UTF-16 up to the next byte F0..FF (UCS-2
 *    and UTF-16 write characters below U+10000 alike, and a byte F0..FF
 *    never continues a sequence, so one cut there is an error in the whole
 *    input too, whose maximal subpart ends there), the generic loop for
 *    the character (or error) there; to CESU-8 and MUTF-8 likewise, UTF-8
 *    -> UTF-8 (the same bytes for characters below U+10000; MUTF-8 also up
 *    to each byte 00, which it writes C0 80);
 *  - windows-1252 -> UTF-8 and CESU-8: cp1252_utf8 (Latin-1 -> UTF-8 up
 *    to the next byte 80..9F, the one range where they differ, and that
 *    byte's character; measuring: the generic loop for that byte);
 *  - CESU-8 and MUTF-8 -> UTF-8, UTF-16, UTF-32, UCS-2, Latin-1 and
 *    each other and the RFC 2279 form: up to the next byte F0..FF (and
 *    to MUTF-8 00), the kernel from UTF-8 under STRICT up to its first
 *    error (valid UTF-8 without 4-byte sequences is read alike, and
 *    written alike but U+0000 in MUTF-8) or, to Latin-1, the first
 *    character it cannot hold; the generic loop from there: a surrogate
 *    pair, MUTF-8's C0 80, an error of the input, that character; the
 *    RFC 2279 form likewise, without the stops at F0..FF but to UCS-2,
 *    CESU-8 and MUTF-8 (it reads all of valid UTF-8 as UTF-8 does; the
 *    generic loop takes its 5- and 6-octet forms, above U+10FFFF);
 *  - Latin-1 and windows-1252 -> MUTF-8: Latin-1 -> UTF-8 up to the next
 *    byte 00 (and 80..9F: scan_zero8), the generic loop for that byte;
 *  - UCS-2, windows-1252 and UTF-32 (up to each unit that is no scalar
 *    value) to the RFC 2279 form as to UTF-8 (it writes the scalar values
 *    alike);
 *  - Latin-1, windows-1252 and US-ASCII -> UTF-16, UCS-2, UTF-32 and
 *    each other: each byte widened to a unit, or copied (up to each byte
 *    80..9F, and 80..FF, where they differ);
 *  - UTF-16, UCS-2 and UTF-32 (either byte order) -> Latin-1, US-ASCII
 *    and windows-1252, where the kernels have a narrow: each unit up to
 *    FF (7F) narrowed to a byte, up to the first that is not (and to
 *    windows-1252, the first byte 80..9F); to Latin-1 and US-ASCII under
 *    REPLACE and SKIP, narrow_subs takes the units from there;
 *  - UTF-8 -> US-ASCII under REPLACE and SKIP: runs of ASCII copied, and
 *    between them the generic loop or, where they are short, sub_step;
 *  - UTF-8, CESU-8, MUTF-8 and the RFC 2279 form -> windows-1252: below
 *    (they hold U+0000..U+00FF alike, but for MUTF-8's C0 80, at which
 *    the kernel stops).
 * Returns false, having done nothing, for any other pair or when the
 * UCS-2 or UTF-32 side is not aligned to its units; else *res is the
 * answer, what the generic loop alone would give (bench/RESULTS.md,
 * session 22). */
static bool stretches(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                      size_t len, unsigned char *d, size_t cap, utf8kit_policy pol,
                      const struct u8k_subst *x, size_t pos, size_t w, utf8kit_result *res)
{
    size_t rep = 0;
    utf8kit_result r;
    /* the substitute flags of the 8-bit targets (sub_flags), or 0 */
    unsigned sf = sub_flags(pol, x);
    if (from == UTF32_OTHER && to == UTF8KIT_UTF8) {
        unsigned char buf[4 * VIA_UNITS];
        if (!aligned(s + pos, 4))
            return false;
        while (len - pos >= 4) {
            size_t n = (len - pos) / 4 < VIA_UNITS ? (len - pos) / 4 : VIA_UNITS;
            swap_units(buf, s + pos, n);
            r = drive(P_U32_U8, buf, n, d ? d + w : NULL, d ? cap - w : SIZE_MAX, pol, 0, x, to,
                      NULL);
            pos += r.read * 4;
            w += r.written;
            rep += r.replaced;
            if (r.status != UTF8KIT_OK) {
                *res = totals(r, pos, w, rep, 4);
                return true;
            }
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    if ((is_ucs2(from) && (to == UTF8KIT_UTF8 || to == UTF8KIT_UTF8_RFC2279)) ||
        ((is_ucs2(from) || from == UTF8KIT_UTF16LE || from == UTF8KIT_UTF16BE) &&
         (to == UTF8KIT_CESU8 || to == UTF8KIT_MUTF8))) {
        bool be = big_endian(from);
        struct scan sc = to == UTF8KIT_MUTF8 ? scan_mutf16(be) : scan_of(2, be, false);
        if (!aligned(s + pos, 2))
            return false;
        stretch_loop(P_U16_U8, &sc, pol, be ? U8K_BE : 0, from, to, s, len, d, cap, pol, x, pos, w,
                     res);
        return true;
    }
    if (from == UTF8KIT_UTF32 && to == UTF8KIT_UTF8_RFC2279) {
        /* UTF-32 -> UTF-8 up to each unit that is no scalar value: the
         * RFC 2279 form writes the values up to 7FFFFFFF (UCS-4) too */
        struct scan sc = scan_of(4, big_endian(from), false);
        if (!aligned(s + pos, 4))
            return false;
        stretch_loop(P_U32_U8, &sc, pol, 0, from, to, s, len, d, cap, pol, x, pos, w, res);
        return true;
    }
    if (from == UTF8KIT_UTF32 && (to == UTF8KIT_CESU8 || to == UTF8KIT_MUTF8)) {
        struct scan sc = scan_bmp(big_endian(from), to == UTF8KIT_MUTF8);
        if (!aligned(s + pos, 4))
            return false;
        stretch_loop(P_U32_U8, &sc, pol, 0, from, to, s, len, d, cap, pol, x, pos, w, res);
        return true;
    }
    if ((u8k_unit_size(from) == 2 && u8k_unit_size(to) == 2) ||
        (u8k_unit_size(from) == 4 && u8k_unit_size(to) == 4)) {
        /* Between UTF-16 and UCS-2 in either byte order, and between the
         * byte orders of UTF-32 (or to the same one): the units up to the
         * next surrogate (UTF-32: the next one that is not a scalar value)
         * are the same characters in both, copied (byte-reversed when the
         * orders differ); between UTF-16s, utf16_pairs then copies the
         * surrogate pairs and the units among them; the generic loop
         * takes what is left (an invalid unit, a pair to or from UCS-2),
         * and the unit where the room runs out. */
        size_t unit = u8k_unit_size(from), end = pos + (len - pos) / unit * unit, gen = 0;
        size_t run = 0; /* bytes copied since the generic loop last ran */
        bool ibe = big_endian(from), swap = ibe != big_endian(to);
        bool pairs = unit == 2 && !is_ucs2(from) && !is_ucs2(to);
        struct scan sc = scan_of(unit, ibe, swap);
        if (!aligned(s + pos, unit) || (d != NULL && !aligned(d + w, unit)))
            return false;
        while (pos < end) {
            /* as far as the room goes: the generic loop finds it short */
            size_t n = d != NULL && end - pos > cap - w ? (cap - w) / unit * unit : end - pos;
            size_t k = scan_units(&sc, d ? d + w : NULL, s + pos, n), m = 0;
            if (pairs && k < n)
                m = utf16_pairs(d ? d + w + k : NULL, s + pos + k, n - k, ibe, swap);
            pos += k + m;
            w += k + m;
            run += k + m;
            if (m > 0)
                continue;
            gen = more(gen, run, unit);
            run = 0;
            if (pos < end &&
                !generic_to(from, to, s, len, d, cap, pol, x,
                            gen < (len - pos) / unit ? pos + unit * gen : len, &pos, &w, &rep, res))
                return true;
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    if (from == UTF8KIT_UTF8 && (is_ucs2(to) || to == UTF8KIT_CESU8 || to == UTF8KIT_MUTF8)) {
        size_t osz = is_ucs2(to) ? 2 : 1;
        struct scan sc = scan_utf8(to == UTF8KIT_MUTF8);
        if (d != NULL && !aligned(d + w, osz))
            return false;
        stretch_loop(osz == 2 ? P_U8_U16 : P_U8_U8, &sc, pol, big_endian(to) ? U8K_BE : 0, from,
                     to, s, len, d, cap, pol, x, pos, w, res);
        return true;
    }
    if ((from == UTF8KIT_CESU8 || from == UTF8KIT_MUTF8 || from == UTF8KIT_UTF8_RFC2279) &&
        (to == UTF8KIT_UTF8 || to == UTF8KIT_UTF16LE || to == UTF8KIT_UTF16BE ||
         to == UTF8KIT_UTF32 || is_ucs2(to) || to == UTF8KIT_LATIN1 ||
         to == UTF8KIT_CESU8 || to == UTF8KIT_MUTF8 || to == UTF8KIT_UTF8_RFC2279)) {
        size_t osz = u8k_unit_size(to);
        /* (the RFC 2279 form reads every sequence of UTF-8 as UTF-8 does,
         * 4-octet ones included, which UCS-2 cannot hold and CESU-8 and
         * MUTF-8 write otherwise; MUTF-8 writes U+0000 C0 80) */
        struct scan sc = from == UTF8KIT_UTF8_RFC2279 && !is_ucs2(to) && to != UTF8KIT_CESU8 &&
                                 to != UTF8KIT_MUTF8
                             ? scan_none()
                             : scan_utf8(to == UTF8KIT_MUTF8);
        if (d != NULL && !aligned(d + w, osz))
            return false;
        /* STRICT: up to the first error, of UTF-8 (or the first character
         * Latin-1 cannot hold) */
        stretch_loop(to == UTF8KIT_LATIN1 ? P_U8_L1
                     : osz == 1           ? P_U8_U8
                     : osz == 2           ? P_U8_U16
                                          : P_U8_U32,
                     &sc, UTF8KIT_STRICT,
                     to == UTF8KIT_UTF16BE || to == UTF8KIT_UCS2BE ? U8K_BE : 0, from, to, s, len,
                     d, cap, pol, x, pos, w, res);
        return true;
    }
    if (is_8bit(from) && (u8k_unit_size(to) >= 2 || is_8bit(to))) {
        /* Latin-1 to UTF-16, UCS-2 and UTF-32: each byte a unit of its
         * value (the kernel's widen, to UTF-32 in the host's order and
         * byte-reversed after for the other; or widen above); between the
         * 8-bit encodings, each byte as it is. At most SCAN_STEP bytes a
         * step; with US-ASCII on either side, up to each byte 80..FF, and
         * with windows-1252 on one side (or as the source, to the wide
         * ones), up to each byte 80..9F: the generic loop takes that byte
         * (and the unit where the room runs out). */
        const u8k_kernels *k = u8k_kernels_now();
        size_t unit = u8k_unit_size(to), gen = 0;
        bool wide = unit == 4, be = big_endian(to);
        bool ascii = from == UTF8KIT_ASCII || to == UTF8KIT_ASCII;
        bool c1 = (from == UTF8KIT_CP1252 || to == UTF8KIT_CP1252) && from != to;
        struct scan sc = scan_c1();
        if (d != NULL && !aligned(d + w, unit))
            return false;
        while (pos < len) {
            size_t p0 = pos, m = len - pos, n;
            bool cut = m > SCAN_STEP; /* the step ends at SCAN_STEP: not a stop */
            if (cut)
                m = SCAN_STEP;
            if (d != NULL && m > (cap - w) / unit) {
                m = (cap - w) / unit;
                cut = false;
            }
            n = ascii ? k->ascii_prefix(s + pos, m) : c1 ? scan_units(&sc, NULL, s + pos, m) : m;
            if (d != NULL && unit == 1) {
                memcpy(d + w, s + pos, n);
            } else if (d != NULL && k->widen == NULL) {
                widen(d + w, s + pos, n, unit, be);
            } else if (d != NULL) {
                k->widen(d + w, s + pos, n, wide, be && !wide);
                if (wide && to != UTF8KIT_UTF32)
                    swap_units(d + w, d + w, n);
            }
            pos += n;
            w += n * unit;
            if (n == m && cut)
                continue;
            gen = more(gen, pos - p0, 1);
            if (pos < len && !generic_to(from, to, s, len, d, cap, pol, x,
                                         gen < len - pos ? pos + gen : len, &pos, &w, &rep, res))
                return true;
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    if ((u8k_unit_size(from) == 2 || from == UTF8KIT_UTF32 || from == UTF32_OTHER) &&
        is_8bit(to) && u8k_kernels_now()->narrow != NULL) {
        /* UTF-16, UCS-2 and UTF-32 (either byte order) to Latin-1 and
         * US-ASCII: each unit up to FF (7F) a byte of its value (the
         * kernel's narrow, then narrow above for the vector that stopped
         * it), at most SCAN_STEP units a step; to windows-1252 as to
         * Latin-1 up to the first byte 80..9F written. Measuring narrows
         * into one. The generic loop takes the unit where a step stops
         * short (a unit above the limit, a surrogate, the end of the room). */
        const u8k_kernels *k = u8k_kernels_now();
        size_t unit = u8k_unit_size(from), end = pos + (len - pos) / unit * unit, gen = 0;
        unsigned max = to == UTF8KIT_ASCII ? 0x7F : 0xFF;
        bool be = big_endian(from);
        struct scan sc = scan_c1();
        unsigned char one[4096];
        /* (windows-1252 keeps the generic loop: its 80..9F) */
        unsigned nsf = to == UTF8KIT_CP1252 ? 0 : sf;
        if (!aligned(s + pos, unit))
            return false;
        while (pos < end) {
            size_t p0 = pos, lim = d != NULL ? SCAN_STEP : sizeof one, m = (end - pos) / unit, n;
            unsigned char *o = d != NULL ? d + w : one;
            bool cut = m > lim; /* the step ends at lim: not a stop */
            if (cut)
                m = lim;
            if (d != NULL && m > cap - w) {
                m = cap - w;
                cut = false;
            }
            n = k->narrow(o, s + pos, m, unit == 4, be, max);
            n += narrow(o + n, s + pos + n * unit, m - n, unit, be, max);
            if (to == UTF8KIT_CP1252)
                n = scan_units(&sc, NULL, o, n);
            if (nsf != 0 && n < m) {
                size_t wr, q = narrow_subs(o + n, s + pos + n * unit, m - n, unit, be, max,
                                           !is_ucs2(from) && unit == 2, nsf, &wr, &rep);
                if (q > 0) {
                    pos += (n + q) * unit;
                    w += n + wr;
                    continue;
                }
            }
            pos += n * unit;
            w += n;
            if (n == m && cut)
                continue;
            gen = more(gen, pos - p0, unit);
            if (pos < end &&
                !generic_to(from, to, s, len, d, cap, pol, x,
                            gen < (len - pos) / unit ? pos + unit * gen : len, &pos, &w, &rep, res))
                return true;
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    if (from == UTF8KIT_UTF8 && to == UTF8KIT_ASCII && sf != 0) {
        /* UTF-8 -> US-ASCII under REPLACE and SKIP: each run of ASCII
         * copied (the kernel's ascii_prefix), then the characters up to
         * 16 bytes on by the generic loop; but after a run shorter than
         * 64 bytes, a step of sub_step (L1_STEP bytes through UTF-32),
         * and more while each replaces one character in L1_DENSE bytes.
         * A step needs room for all it reads: the generic loop finishes
         * where there is less (and at the end of the room). */
        const u8k_kernels *k = u8k_kernels_now();
        unsigned char one[L1_STEP];
        bool dense = false;
        while (pos < len) {
            size_t m = len - pos, n;
            if (d != NULL && m > cap - w)
                m = cap - w;
            n = k->ascii_prefix(s + pos, m);
            if (d != NULL)
                memcpy(d + w, s + pos, n);
            pos += n;
            w += n;
            if (pos == len || n == m)
                break;
            dense = dense || n < 64;
            m = len - pos > L1_STEP ? utf8_cut(s + pos, L1_STEP) : len - pos;
            if (!dense || (d != NULL && m > cap - w)) {
                if (!generic_to(from, to, s, len, d, cap, pol, x,
                                16 < len - pos ? pos + 16 : len, &pos, &w, &rep, res))
                    return true;
                continue;
            }
            r = sub_step(k, s + pos, m, d != NULL ? d + w : one, 0x7F, sf);
            pos += r.read;
            w += r.written;
            rep += r.replaced;
            dense = r.replaced * L1_DENSE >= r.read;
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    if ((from == UTF8KIT_LATIN1 || from == UTF8KIT_CP1252) && to == UTF8KIT_MUTF8) {
        /* Latin-1 -> UTF-8 (MUTF-8 writes U+0001..U+00FF alike) up to
         * each byte 00, and for windows-1252 each byte 80..9F: the generic
         * loop takes that byte */
        struct scan sc = scan_zero8(from == UTF8KIT_CP1252);
        stretch_loop(P_L1_U8, &sc, pol, 0, from, to, s, len, d, cap, pol, x, pos, w, res);
        return true;
    }
    if (from == UTF8KIT_CP1252 &&
        (to == UTF8KIT_UTF8 || to == UTF8KIT_CESU8 || to == UTF8KIT_UTF8_RFC2279)) {
        struct scan sc = scan_c1();
        size_t n;
        if (d == NULL) {
            stretch_loop(P_L1_U8, &sc, pol, 0, from, to, s, len, d, cap, pol, x, pos, w, res);
            return true;
        }
        /* the generic loop from where the room ran out, if it did */
        pos += cp1252_utf8(u8k_kernels_now(), &sc, s + pos, len - pos, d + w, cap - w, &n);
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w + n, 0, len);
        return true;
    }
    if ((from == UTF8KIT_UTF8 || from == UTF8KIT_CESU8 || from == UTF8KIT_MUTF8 ||
         from == UTF8KIT_UTF8_RFC2279) &&
        to == UTF8KIT_CP1252) {
        /* UTF-8 -> Latin-1 under STRICT, but for U+0080..U+009F, which it
         * writes as bytes 80..9F and windows-1252 holds but five of: the
         * output is scanned for those bytes, and the input walked back to
         * the first (a byte 80..FF of the output came from 2 bytes of
         * UTF-8). The generic loop takes that character, or what the
         * kernel stopped at: an error, a character above U+00FF (the
         * euro sign, curly quotes), the end of the room. Measuring
         * converts steps of at most sizeof one bytes into one. */
        struct scan sc = scan_c1();
        size_t gen = 0, step = d != NULL ? SCAN_STEP : 4096;
        unsigned char one[4096];
        while (pos < len) {
            size_t p0 = pos, n = len - pos, k, j;
            unsigned char *o = d != NULL ? d + w : one;
            if (n > step)
                n = utf8_cut(s + pos, step);
            r = drive(P_U8_L1, s + pos, n, o, d != NULL ? cap - w : sizeof one, UTF8KIT_STRICT,
                      0, x, to, NULL);
            k = scan_units(&sc, NULL, o, r.written);
            if (k < r.written) {
                w += k;
                pos = p0 + k;
                for (j = 0; j < k; j++)
                    pos += o[j] >> 7;
            } else {
                /* (out of room too: the generic loop may find the
                 * character there unrepresentable first) */
                pos += r.read;
                w += r.written;
            }
            gen = more(gen, pos - p0, 1);
            if (pos < p0 + n && !generic_to(from, to, s, len, d, cap, pol, x,
                                             gen < len - pos ? pos + gen : len, &pos, &w, &rep,
                                             res))
                return true;
        }
        *res = generic(from, to, s, len, d, cap, pol, x, pos, w, rep, len);
        return true;
    }
    return false;
}

/* UTF-32 in the other byte order than the host's with CESU-8, MUTF-8 and
 * the RFC 2279 form,
 * from byte pos of s and w of d (NULL: measuring), both aligned to 4 on
 * the UTF-32 side: the same conversion with the host's UTF-32, as the
 * whole input into d, byte-reversed after; or VIA_UNITS units at a time
 * byte-reversed into a buffer first (every unit is a character or an
 * error of its own, so the steps change nothing). Returns false, having
 * done nothing, for any other pair or alignment; else *res is the answer,
 * what the generic loop alone gives. */
static bool other32(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                    size_t len, unsigned char *d, size_t cap, const utf8kit_options *opt,
                    const struct u8k_subst *x, size_t pos, size_t w, utf8kit_result *res)
{
    utf8kit_options io = *opt;
    size_t rep = 0;
    utf8kit_result r;
    const utf8kit_encoding side = from == UTF32_OTHER ? to : from;
    if ((from != UTF32_OTHER && to != UTF32_OTHER) ||
        (side != UTF8KIT_CESU8 && side != UTF8KIT_MUTF8 && side != UTF8KIT_UTF8_RFC2279))
        return false;
    io.bom = UTF8KIT_BOM_KEEP; /* (a BOM was dealt with: what follows is text) */
    if (to == UTF32_OTHER) {
        if (d != NULL && !aligned(d + w, 4))
            return false;
        r = utf8kit_convert(from, UTF8KIT_UTF32, s + pos, len - pos, d ? d + w : NULL,
                            d ? cap - w : 0, &io);
        if (d != NULL)
            swap_units(d + w, d + w, r.written / 4);
        r.read += pos;
        r.written += w;
        *res = r;
        return true;
    }
    if (!aligned(s + pos, 4))
        return false;
    while (len - pos >= 4) {
        unsigned char buf[4 * VIA_UNITS];
        size_t n = (len - pos) / 4 < VIA_UNITS ? (len - pos) / 4 : VIA_UNITS;
        swap_units(buf, s + pos, n);
        r = utf8kit_convert(UTF8KIT_UTF32, to, buf, 4 * n, d ? d + w : NULL, d ? cap - w : 0,
                            &io);
        pos += r.read;
        w += r.written;
        rep += r.replaced;
        if (r.status != UTF8KIT_OK) {
            r.read = pos;
            r.written = w;
            r.replaced = rep;
            *res = r;
            return true;
        }
    }
    /* a partial unit at the end */
    *res = generic(from, to, s, len, d, cap, opt->policy, x, pos, w, rep, len);
    return true;
}

/* utf8kit_convert, or (fast false: u8k_convert_generic) the generic loop
 * alone after the same checks and BOM. */
static utf8kit_result convert(utf8kit_encoding from, utf8kit_encoding to, const void *src,
                              size_t src_len, void *dst, size_t dst_cap,
                              const utf8kit_options *opt, bool fast)
{
    static const utf8kit_options defaults;
    const unsigned char *s = src;
    unsigned char *d = dst;
    struct u8k_subst x, hx;
    size_t pos = 0, w = 0, isz, osz;
    utf8kit_result r;
    enum pair p;
    bool typed = true, swap = false;
    unsigned flags = 0;

    if (opt == NULL)
        opt = &defaults;
    if (!u8k_encoding_valid(from) || !u8k_encoding_valid(to) || !policy_ok(opt->policy) ||
        (unsigned)opt->bom > UTF8KIT_BOM_ADD || (src == NULL && src_len != 0))
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    if (!u8k_make_subst(&x, to, opt->substitute) && opt->policy == UTF8KIT_REPLACE)
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    if (s == NULL)
        s = (const unsigned char *)""; /* len 0: no pointer arithmetic on NULL */
    if (d == NULL)
        dst_cap = SIZE_MAX;

    /* Byte order mark: written first; an initial U+FEFF in the input is a
     * signature under STRIP and ADD, and is dropped (under ADD the
     * target's own BOM takes its place, so it is not doubled; a target
     * with no BOM, such as Latin-1, gets none). */
    if (opt->bom == UTF8KIT_BOM_ADD) {
        unsigned char b[4];
        size_t bl = u8k_bom_for(to, b);
        if (bl > dst_cap)
            return u8k_res(UTF8KIT_ERR_OUTPUT_TOO_SMALL, 0, 0, 0);
        if (d != NULL)
            memcpy(d, b, bl);
        w = bl;
    }
    if (opt->bom != UTF8KIT_BOM_KEEP && src_len > 0) {
        uint32_t cp;
        size_t n;
        if (u8k_decode_char(from, s, src_len, &cp, &n) == UTF8KIT_OK && cp == 0xFEFFu)
            pos = n;
    }

    if (!fast)
        return generic(from, to, s, src_len, d, dst_cap, opt->policy, &x, pos, w, 0, src_len);

    /* The typed driver for the pairs the kernels know. */
    /* (The RFC 2279 form writes the scalar values as UTF-8 does; CESU-8
     * those below U+10000, all Latin-1 has.) */
    if (from == UTF8KIT_UTF8 && (to == UTF8KIT_UTF16LE || to == UTF8KIT_UTF16BE))
        p = P_U8_U16, flags = to == UTF8KIT_UTF16BE ? U8K_BE : 0;
    else if (from == UTF8KIT_UTF8 && (to == UTF8KIT_UTF32 || to == UTF32_OTHER))
        p = P_U8_U32, swap = to != UTF8KIT_UTF32;
    else if ((from == UTF8KIT_UTF16LE || from == UTF8KIT_UTF16BE) &&
             (to == UTF8KIT_UTF8 || to == UTF8KIT_UTF8_RFC2279))
        p = P_U16_U8, flags = from == UTF8KIT_UTF16BE ? U8K_BE : 0;
    else if (from == UTF8KIT_UTF32 && to == UTF8KIT_UTF8)
        p = P_U32_U8;
    else if (from == UTF8KIT_LATIN1 &&
             (to == UTF8KIT_UTF8 || to == UTF8KIT_CESU8 || to == UTF8KIT_UTF8_RFC2279))
        p = P_L1_U8;
    else if (from == UTF8KIT_UTF8 && to == UTF8KIT_LATIN1)
        p = P_U8_L1;
    else if (from == UTF8KIT_UTF8 && (to == UTF8KIT_UTF8 || to == UTF8KIT_UTF8_RFC2279))
        p = P_U8_U8;
    else
        p = P_U8_U8, typed = false;
    isz = in_size[p];
    osz = out_size[p];
    if (typed && (!aligned(s + pos, isz) || (d != NULL && !aligned(d + w, osz))))
        typed = false;
    if (typed) {
        size_t units = (src_len - pos) / isz;
        /* A partial unit at the end goes to the generic loop, and with it
         * a UTF-16 high surrogate just before it (the two together are one
         * truncated sequence). */
        if (p == P_U16_U8 && units > 0 && (src_len - pos) % 2 != 0) {
            const unsigned char *last = s + pos + (units - 1) * 2;
            unsigned hi = flags & U8K_BE ? last[0] : last[1];
            if ((hi & 0xFC) == 0xD8)
                units--;
        }
        /* UTF-32 in the other byte order than the host's: the kernels'
         * UTF-32 (with the substitute in the host's order), each unit then
         * byte-reversed in place */
        if (swap)
            u8k_make_subst(&hx, UTF8KIT_UTF32, opt->substitute);
        if (swap && d != NULL) {
            /* In steps, so that the units are reversed while in the cache
             * (utf8_cut: a step that ends TRUNCATED has converted all before
             * the sequence, and the next starts there). */
            size_t rep = 0;
            for (;;) {
                size_t n = units > SWAP_STEP ? utf8_cut(s + pos, SWAP_STEP) : units;
                bool last = n == units;
                r = drive(p, s + pos, n, d + w, (dst_cap - w) / 4, opt->policy, flags, &hx,
                          UTF8KIT_UTF32, NULL);
                swap_units(d + w, d + w, r.written);
                pos += r.read;
                w += r.written * 4;
                rep += r.replaced;
                units -= r.read;
                if (last || (r.status != UTF8KIT_OK && r.status != UTF8KIT_ERR_TRUNCATED))
                    break;
            }
            r.replaced = rep;
        } else {
            r = drive_pair(p, s + pos, units, d ? d + w : NULL,
                           d ? (dst_cap - w) / osz : SIZE_MAX, opt->policy, flags,
                           swap ? &hx : &x, swap ? UTF8KIT_UTF32 : to, NULL);
            pos += r.read * isz;
            w += r.written * osz;
        }
        if (r.status != UTF8KIT_OK && r.status != UTF8KIT_ERR_TRUNCATED)
            return totals(r, pos, w, r.replaced, isz);
        /* TRUNCATED from the driver can only be a UTF-8 sequence cut by
         * the end (error_len = the rest) or a UTF-16 high surrogate at the
         * end: the generic loop reports both the same way. */
        return generic(from, to, s, src_len, d, dst_cap, opt->policy, &x, pos, w, r.replaced,
                       src_len);
    }
    if (stretches(from, to, s, src_len, d, dst_cap, opt->policy, &x, pos, w, &r) ||
        other32(from, to, s, src_len, d, dst_cap, opt, &x, pos, w, &r))
        return r;
    if (from != to) {
        /* Through UTF-8 by the kernels, the generic loop after each step
         * that stops short, for as many units as `more` says. */
        size_t rep = 0, gen = 0, p0 = pos, unit = u8k_unit_size(from);
        while (via_utf8(from, to, s, src_len, d, dst_cap, &pos, &w) && pos < src_len) {
            gen = more(gen, pos - p0, unit);
            if (!generic_to(from, to, s, src_len, d, dst_cap, opt->policy, &x,
                            gen < (src_len - pos) / unit ? pos + unit * gen : src_len, &pos, &w,
                            &rep, &r))
                return r;
            p0 = pos;
        }
        return generic(from, to, s, src_len, d, dst_cap, opt->policy, &x, pos, w, rep, src_len);
    }
    return generic(from, to, s, src_len, d, dst_cap, opt->policy, &x, pos, w, 0, src_len);
}

utf8kit_result utf8kit_convert(utf8kit_encoding from, utf8kit_encoding to, const void *src,
                               size_t src_len, void *dst, size_t dst_cap,
                               const utf8kit_options *opt)
{
    return convert(from, to, src, src_len, dst, dst_cap, opt, true);
}

utf8kit_result u8k_convert_generic(utf8kit_encoding from, utf8kit_encoding to, const void *src,
                                   size_t src_len, void *dst, size_t dst_cap,
                                   const utf8kit_options *opt)
{
    return convert(from, to, src, src_len, dst, dst_cap, opt, false);
}

/* Output bytes one input unit of a `unit`-byte source can produce in
 * `to`, at most. With 1- and 2-byte units the worst case is one BMP
 * character or one U+FFFD per unit (a supplementary character takes 4
 * input bytes, so never more per unit); with 4-byte units one
 * supplementary character per unit, which CESU-8 writes in 6 octets.
 * A substitute replaces a character the target cannot hold, which took
 * at least as many units as the substitute takes bytes in targets of
 * this size class. */
static size_t per_unit(size_t unit, utf8kit_encoding to)
{
    switch (to) {
    case UTF8KIT_UTF8:
        return unit == 4 ? 4 : 3;
    case UTF8KIT_UTF8_RFC2279:
        /* UCS-4 input up to 7FFFFFFF: 6 octets (RFC 3629 section 10) */
        return unit == 4 ? 6 : 3;
    case UTF8KIT_CESU8:
    case UTF8KIT_MUTF8:
        return unit == 4 ? 6 : 3;
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE:
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE:
        return unit == 4 ? 4 : 2;
    case UTF8KIT_UTF32LE:
    case UTF8KIT_UTF32BE:
        return 4;
    default:
        return 1;
    }
}

size_t utf8kit_max_output_size(utf8kit_encoding from, utf8kit_encoding to, size_t src_len)
{
    size_t unit, units, k;
    if (!u8k_encoding_valid(from) || !u8k_encoding_valid(to))
        return 0;
    unit = u8k_unit_size(from);
    /* A partial unit at the end is one more (truncated) character. */
    units = src_len / unit + (src_len % unit != 0);
    k = per_unit(unit, to);
    /* The RFC 2279 form writes up to 6 octets (RFC 3629 section 10): for
     * values that took as many input octets, or for a 4-byte UCS-4 unit. */
    if (units > (SIZE_MAX - 4) / k)
        return SIZE_MAX;
    return units * k + 4; /* + the longest BOM */
}

/* ---- the typed public functions ------------------------------------------ */

static utf8kit_result typed(enum pair p, utf8kit_encoding to, const void *src, size_t len,
                            void *dst, size_t cap, utf8kit_policy pol, unsigned flags)
{
    if ((src == NULL && len != 0) || !policy_ok(pol))
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    return drive_pair(p, src ? src : "", len, dst, dst ? cap : SIZE_MAX, pol, flags, NULL, to,
                      NULL);
}

/* The one-call case of drive() for STRICT and ASSUME_VALID with an output
 * buffer: the kernel's result is the answer (it stops at the first error
 * or when the room runs out, as drive() would, and its error_len is 0 on
 * OK and OUTPUT_TOO_SMALL, its replaced 0, by the kernel contract), so
 * short strings pay for no loop and no substitute. The result is passed
 * on as it is: a copy that changed a field would read back the kernel's
 * separate stores as one wide load, a store-forwarding stall that costs
 * more than the conversion of a short string. */
U8K_INLINE bool one_call(const void *src, const void *dst, utf8kit_policy pol)
{
    return src != NULL && dst != NULL && (pol == UTF8KIT_STRICT || pol == UTF8KIT_ASSUME_VALID);
}

static unsigned trusted(utf8kit_policy pol) { return pol == UTF8KIT_ASSUME_VALID ? U8K_TRUSTED : 0; }

/* REPLACE and SKIP with an output buffer: one call of the kernel first,
 * whose result is the answer when it returns no error (OK or
 * OUTPUT_TOO_SMALL, with error_len 0 by the kernel contract, as for
 * one_call, and replaced the errors it replaced itself: U8K_REPL); only
 * at an error does drive() go on from it. Valid input then costs about
 * what STRICT costs, short strings included (through drive() alone they
 * took 2-3 times as long). */
U8K_INLINE bool first_call(const void *src, const void *dst, utf8kit_policy pol)
{
    return src != NULL && dst != NULL && (pol == UTF8KIT_REPLACE || pol == UTF8KIT_SKIP);
}

U8K_INLINE utf8kit_result replacing(enum pair p, utf8kit_encoding to, const void *src, size_t len,
                                    void *dst, size_t cap, utf8kit_policy pol, unsigned flags,
                                    const struct u8k_subst *x)
{
    utf8kit_result r =
        call_kernel(u8k_kernels_now(), p, src, len, dst, cap, flags | repl_flag(p, pol));
    utf8kit_status st;
    size_t el, read = 0, written = 0, rep = 0;
    /* r is read a field at a time (take), as in drive(), and the answer
     * built from those fields. */
    take(&r, &st, &el, &read, &written, &rep);
    if (st != UTF8KIT_OK && st != UTF8KIT_ERR_OUTPUT_TOO_SMALL)
        return drive_pair(p, src, len, dst, cap, pol, flags, x, to, &r);
    return u8k_res_rep(st, read, written, rep);
}

/* replacing() for each typed function and for utf8kit_repair, out of
 * line (the STRICT path of the public functions keeps its small frame),
 * with the pair a constant: no switch, and every argument in a register. */
/* What utf8kit_repair writes for each maximal invalid subpart. */
static const struct u8k_subst repair_subst = {{0xEF, 0xBF, 0xBD}, {0xEF, 0xBF, 0xBD}, 3, 3};

#define U8K_REPLACING(name, p, to, flags, x)                                                \
    static U8K_NOINLINE utf8kit_result name(const void *src, size_t len, void *dst,          \
                                            size_t cap, utf8kit_policy pol)                  \
    {                                                                                        \
        return replacing(p, to, src, len, dst, cap, pol, flags, x);                          \
    }
U8K_REPLACING(replacing_u8_u16le, P_U8_U16, UTF8KIT_UTF16LE, 0, NULL)
U8K_REPLACING(replacing_u8_u16be, P_U8_U16, UTF8KIT_UTF16BE, U8K_BE, NULL)
U8K_REPLACING(replacing_u8_u32, P_U8_U32, UTF8KIT_UTF32, 0, NULL)
U8K_REPLACING(replacing_u16le_u8, P_U16_U8, UTF8KIT_UTF8, 0, NULL)
U8K_REPLACING(replacing_u16be_u8, P_U16_U8, UTF8KIT_UTF8, U8K_BE, NULL)
U8K_REPLACING(replacing_u32_u8, P_U32_U8, UTF8KIT_UTF8, 0, NULL)
U8K_REPLACING(replacing_u8_l1, P_U8_L1, UTF8KIT_LATIN1, 0, NULL)
U8K_REPLACING(repairing, P_U8_U8, UTF8KIT_UTF8, 0, &repair_subst)
#undef U8K_REPLACING

/* utf8kit_repair of a short input with an error, after its first call:
 * s[0..v.read) is valid and copied to dst, as u8_copy leaves them. */
static U8K_NOINLINE utf8kit_result repairing_after(const char *s, size_t len, char *dst,
                                                   size_t dst_cap, u8k_vres v)
{
    utf8kit_result r = u8k_res((utf8kit_status)v.status, v.read, v.read, v.error_len);
    return drive(P_U8_U8, s, len, dst, dst_cap, UTF8KIT_REPLACE, 0, &repair_subst, UTF8KIT_UTF8,
                 &r);
}

utf8kit_result utf8kit_repair(const char *s, size_t len, char *dst, size_t dst_cap)
{
    if (s == NULL && len != 0)
        return u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
    if (first_call(s, dst, UTF8KIT_REPLACE)) {
        /* A short input (8-64 bytes) that fits is validated and copied
         * here, and the driver goes on from its first error, if any.
         * Through the first call of replacing() (u8_copy: its result
         * passed up two functions, and a memcpy) valid strings took 1.6-2.2
         * times as long, strings with errors 1.1-1.35 times (AVX-512). */
        if (len >= 8 && len <= 64 && dst_cap >= len) {
            u8k_vres v = u8k_kernels_now()->validate((const unsigned char *)s, len);
            u8k_short_copy(dst, s, len);
            if (v.status == UTF8KIT_OK)
                return u8k_res(UTF8KIT_OK, len, len, 0);
            return repairing_after(s, len, dst, dst_cap, v);
        }
        return repairing(s, len, dst, dst_cap, UTF8KIT_REPLACE);
    }
    return drive(P_U8_U8, s ? s : "", len, dst, dst ? dst_cap : SIZE_MAX, UTF8KIT_REPLACE, 0,
                 &repair_subst, UTF8KIT_UTF8, NULL);
}

utf8kit_result utf8kit_utf8_to_utf16le(const char *src, size_t len, uint16_t *dst, size_t cap,
                                       utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf8_to_utf16((const unsigned char *)src, len, dst, cap,
                                           trusted(policy));
    if (first_call(src, dst, policy))
        return replacing_u8_u16le(src, len, dst, cap, policy);
    return typed(P_U8_U16, UTF8KIT_UTF16LE, src, len, dst, cap, policy, 0);
}

utf8kit_result utf8kit_utf8_to_utf16be(const char *src, size_t len, uint16_t *dst, size_t cap,
                                       utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf8_to_utf16((const unsigned char *)src, len, dst, cap,
                                           trusted(policy) | U8K_BE);
    if (first_call(src, dst, policy))
        return replacing_u8_u16be(src, len, dst, cap, policy);
    return typed(P_U8_U16, UTF8KIT_UTF16BE, src, len, dst, cap, policy, U8K_BE);
}

utf8kit_result utf8kit_utf8_to_utf32(const char *src, size_t len, uint32_t *dst, size_t cap,
                                     utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf8_to_utf32((const unsigned char *)src, len, dst, cap,
                                           trusted(policy));
    if (first_call(src, dst, policy))
        return replacing_u8_u32(src, len, dst, cap, policy);
    return typed(P_U8_U32, UTF8KIT_UTF32, src, len, dst, cap, policy, 0);
}

utf8kit_result utf8kit_utf16le_to_utf8(const uint16_t *src, size_t len, char *dst, size_t cap,
                                       utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf16_to_utf8(src, len, (unsigned char *)dst, cap, trusted(policy));
    if (first_call(src, dst, policy))
        return replacing_u16le_u8(src, len, dst, cap, policy);
    return typed(P_U16_U8, UTF8KIT_UTF8, src, len, dst, cap, policy, 0);
}

utf8kit_result utf8kit_utf16be_to_utf8(const uint16_t *src, size_t len, char *dst, size_t cap,
                                       utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf16_to_utf8(src, len, (unsigned char *)dst, cap,
                                           trusted(policy) | U8K_BE);
    if (first_call(src, dst, policy))
        return replacing_u16be_u8(src, len, dst, cap, policy);
    return typed(P_U16_U8, UTF8KIT_UTF8, src, len, dst, cap, policy, U8K_BE);
}

utf8kit_result utf8kit_utf32_to_utf8(const uint32_t *src, size_t len, char *dst, size_t cap,
                                     utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf32_to_utf8(src, len, (unsigned char *)dst, cap, trusted(policy));
    if (first_call(src, dst, policy))
        return replacing_u32_u8(src, len, dst, cap, policy);
    return typed(P_U32_U8, UTF8KIT_UTF8, src, len, dst, cap, policy, 0);
}

utf8kit_result utf8kit_latin1_to_utf8(const char *src, size_t len, char *dst, size_t cap)
{
    if (one_call(src, dst, UTF8KIT_STRICT))
        return u8k_kernels_now()->latin1_to_utf8((const unsigned char *)src, len, (unsigned char *)dst,
                                            cap);
    return typed(P_L1_U8, UTF8KIT_UTF8, src, len, dst, cap, UTF8KIT_STRICT, 0);
}

utf8kit_result utf8kit_utf8_to_latin1(const char *src, size_t len, char *dst, size_t cap,
                                      utf8kit_policy policy)
{
    if (one_call(src, dst, policy))
        return u8k_kernels_now()->utf8_to_latin1((const unsigned char *)src, len, (unsigned char *)dst,
                                            cap, trusted(policy));
    if (first_call(src, dst, policy))
        return replacing_u8_l1(src, len, dst, cap, policy);
    return typed(P_U8_L1, UTF8KIT_LATIN1, src, len, dst, cap, policy, 0);
}
