// needs: utf8kit_convert utf8kit_max_output_size utf8kit_repair utf8kit_validate utf8kit_impl_select u8k_convert_generic
/*
 * fuzz_convert.c - utf8kit_convert for every pair of encodings, every
 * policy, BOM option and substitute, at every output capacity.
 *
 * Input: 4 header bytes, then the text.
 *   h0 % 14 = from, h1 % 14 = to (0 is UNKNOWN: must be refused),
 *   h2: bits 0-1 policy, bits 2-3 BOM option (3 = an invalid value),
 *       bits 4-5 substitute (0, '?', U+FFFD, U+20AC), bit 6 start the text
 *       one byte into its buffer (unaligned)
 *   h3: the small capacity to try (and resume from)
 * Checks:
 *  - never a write past the capacity (canary), written <= capacity and
 *    <= utf8kit_max_output_size;
 *  - dst == NULL measures exactly what a big enough buffer gets;
 *  - every pair gives what the generic loop alone gives
 *    (u8k_convert_generic, internal);
 *  - input and output at odd addresses (the generic loop for every pair
 *    with a 16- or 32-bit side) give the same result and bytes; pairs of
 *    8-bit encodings (not the RFC 2279 form) give what the generic loop
 *    gives through UTF-32LE;
 *  - REPLACE and SKIP consume everything; STRICT's output is the prefix of
 *    REPLACE's; STRICT OK means REPLACE and ASSUME_VALID give the same;
 *  - a small buffer gives a prefix of the full output, stops with
 *    OUTPUT_TOO_SMALL at a place from which a second call (BOM KEEP)
 *    resumes to exactly the full output;
 *  - every kernel gives the scalar kernel's result and bytes;
 *  - round trips: valid UTF-8 to each Unicode form and back is identical;
 *    UTF-8 to UTF-8 under REPLACE is utf8kit_repair and equals an
 *    independent replacing decoder (fuzz_common.h).
 */
#include "fuzz_common.h"
#include "internal.h"

struct run {
    utf8kit_result r;
    unsigned char *out; /* malloc'd, r.written valid bytes */
};

static const char *kname = "?";

static struct run conv(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                       size_t len, size_t cap, const utf8kit_options *o)
{
    struct run x;
    x.out = fuzz_outbuf(cap);
    x.r = utf8kit_convert(from, to, s, len, x.out, cap, o);
    FUZZ_CHECK(fuzz_canary_ok(x.out, cap), "[%s] %d->%d wrote past cap %zu", kname, from, to, cap);
    FUZZ_CHECK(x.r.written <= cap, "[%s] written %zu > cap %zu", kname, x.r.written, cap);
    FUZZ_CHECK(x.r.read <= len, "[%s] read %zu > len %zu", kname, x.r.read, len);
    return x;
}

/* conv() with input and output one byte past malloc's addresses, where
 * a UTF-32 side takes the generic loop alone. */
static struct run conv_odd(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                           size_t len, size_t cap, const utf8kit_options *o)
{
    struct run x;
    unsigned char *ib = malloc(len + 2), *ob = malloc(cap + 2);
    FUZZ_CHECK(ib != NULL && ob != NULL, "out of memory");
    if (len)
        memcpy(ib + 1, s, len);
    x.r = utf8kit_convert(from, to, ib + 1, len, ob + 1, cap, o);
    x.out = malloc(x.r.written + 1);
    FUZZ_CHECK(x.out != NULL, "out of memory");
    memcpy(x.out, ob + 1, x.r.written);
    free(ib);
    free(ob);
    return x;
}

/* The 8-bit encodings but the RFC 2279 form (whose values above 10FFFF
 * UTF-32 would hold as UCS-4, then refuse as too large). */
static int is_8bit(utf8kit_encoding e)
{
    return e == UTF8KIT_UTF8 || e == UTF8KIT_CESU8 || e == UTF8KIT_MUTF8 ||
           e == UTF8KIT_LATIN1 || e == UTF8KIT_ASCII || e == UTF8KIT_CP1252;
}

static int is_unicode_form(utf8kit_encoding e)
{
    return e == UTF8KIT_UTF8 || e == UTF8KIT_UTF16LE || e == UTF8KIT_UTF16BE ||
           e == UTF8KIT_UTF32LE || e == UTF8KIT_UTF32BE || e == UTF8KIT_CESU8 ||
           e == UTF8KIT_MUTF8 || e == UTF8KIT_UTF8_RFC2279;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t substs[4] = {0, '?', 0xFFFD, 0x20AC};
    utf8kit_encoding from, to;
    utf8kit_options o, ok_opt;
    unsigned char *blk, *s;
    size_t len, maxsz, cap_small, k, nk, shift;
    const char *names[8];
    struct run full, meas_unused;
    utf8kit_result m;

    if (size < 4)
        return 0;
    from = (utf8kit_encoding)(data[0] % 14);
    to = (utf8kit_encoding)(data[1] % 14);
    memset(&o, 0, sizeof o);
    o.policy = (utf8kit_policy)(data[2] & 3);
    o.bom = (utf8kit_bom_policy)((data[2] >> 2) & 3);
    o.substitute = substs[(data[2] >> 4) & 3];
    shift = (data[2] >> 6) & 1;
    cap_small = data[3];
    len = size - 4;
    blk = fuzz_dup(data + 4 - shift, len + shift); /* exact end, start maybe unaligned */
    s = blk + shift;
    (void)meas_unused;

    utf8kit_impl_select("scalar");
    kname = "scalar";
    maxsz = utf8kit_max_output_size(from, to, len);
    if (from == UTF8KIT_ENCODING_UNKNOWN || to == UTF8KIT_ENCODING_UNKNOWN || o.bom > 2) {
        full = conv(from, to, s, len, 64, &o);
        FUZZ_CHECK(full.r.status == UTF8KIT_ERR_INVALID_ARGUMENT && full.r.written == 0,
                   "bad arguments accepted: " RES_FMT, RES_ARGS(full.r));
        free(full.out);
        free(blk);
        return 0;
    }
    FUZZ_CHECK(maxsz != 0 && maxsz != SIZE_MAX, "max_output_size %zu", maxsz);

    if (o.policy == UTF8KIT_ASSUME_VALID) {
        /* on invalid input ASSUME_VALID's output is unspecified (only the
         * bounds hold): compare results on valid input only */
        utf8kit_options a = o;
        int valid;
        a.policy = UTF8KIT_STRICT;
        full = conv(from, to, s, len, maxsz, &a);
        valid = full.r.status == UTF8KIT_OK;
        free(full.out);
        if (!valid) {
            const char *nm[8];
            size_t j, nj = fuzz_kernels(nm);
            for (j = 0; j < nj; j++) {
                utf8kit_impl_select(nm[j]);
                kname = nm[j];
                free(conv(from, to, s, len, maxsz, &o).out);
                free(conv(from, to, s, len, cap_small, &o).out);
                (void)utf8kit_convert(from, to, s, len, NULL, 0, &o);
            }
            utf8kit_impl_select("scalar");
            kname = "scalar";
            free(blk);
            return 0;
        }
    }
    full = conv(from, to, s, len, maxsz, &o);
    if (full.r.status == UTF8KIT_ERR_INVALID_ARGUMENT) {
        /* only a substitute the target cannot hold, under REPLACE */
        FUZZ_CHECK(o.policy == UTF8KIT_REPLACE && o.substitute != 0,
                   "%d->%d refused: policy %d subst %u", from, to, o.policy, o.substitute);
        free(full.out);
        free(blk);
        return 0;
    }
    FUZZ_CHECK(full.r.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL,
               "%d->%d too small with max_output_size %zu: " RES_FMT, from, to, maxsz,
               RES_ARGS(full.r));
    if (full.r.status != UTF8KIT_OK) {
        FUZZ_CHECK(o.policy == UTF8KIT_STRICT || o.policy == UTF8KIT_ASSUME_VALID,
                   "%d->%d policy %d failed: " RES_FMT, from, to, o.policy, RES_ARGS(full.r));
        FUZZ_CHECK(full.r.error_len >= 1 && full.r.read + full.r.error_len <= len,
                   "%d->%d error " RES_FMT " len %zu", from, to, RES_ARGS(full.r), len);
        if (full.r.status == UTF8KIT_ERR_TRUNCATED)
            FUZZ_CHECK(full.r.read + full.r.error_len == len, "truncated not at the end");
    } else {
        FUZZ_CHECK(full.r.read == len && full.r.error_len == 0, "OK " RES_FMT, RES_ARGS(full.r));
    }
    if (o.policy == UTF8KIT_STRICT || o.policy == UTF8KIT_ASSUME_VALID)
        FUZZ_CHECK(full.r.replaced == 0, "replaced under strict");

    /* measuring */
    m = utf8kit_convert(from, to, s, len, NULL, 0, &o);
    FUZZ_CHECK(same_result(m, full.r), "%d->%d p%d measure " RES_FMT " vs " RES_FMT, from, to,
               o.policy, RES_ARGS(m), RES_ARGS(full.r));

    /* the same call at odd addresses, where every pair with a 16- or
     * 32-bit side takes the generic loop alone (the typed driver,
     * via_utf8 and stretches in convert.c want aligned units): the same
     * result and bytes */
    {
        unsigned char *ib = malloc(len + 2), *ob = malloc(maxsz + 2);
        utf8kit_result g;
        FUZZ_CHECK(ib != NULL && ob != NULL, "out of memory");
        if (len)
            memcpy(ib + 1, s, len);
        g = utf8kit_convert(from, to, ib + 1, len, ob + 1, maxsz, &o);
        FUZZ_CHECK(same_result(g, full.r) && memcmp(ob + 1, full.out, g.written) == 0,
                   "%d->%d p%d odd addresses " RES_FMT " vs " RES_FMT, from, to, o.policy,
                   RES_ARGS(g), RES_ARGS(full.r));
        free(ib);
        free(ob);
    }

    /* every pair: the generic loop alone (u8k_convert_generic), the
     * reference of every faster path in convert.c */
    {
        unsigned char *gb = fuzz_outbuf(maxsz);
        utf8kit_result g = u8k_convert_generic(from, to, s, len, gb, maxsz, &o);
        FUZZ_CHECK(same_result(g, full.r) && memcmp(gb, full.out, g.written) == 0,
                   "%d->%d p%d " RES_FMT " vs the generic loop " RES_FMT, from, to, o.policy,
                   RES_ARGS(full.r), RES_ARGS(g));
        free(gb);
    }

    /* Pairs of the 8-bit encodings (UTF-8, CESU-8, MUTF-8, Latin-1,
     * US-ASCII, windows-1252; the kernels over stretches, or through
     * UTF-8, in convert.c), which have no address that takes the generic
     * loop, against the generic loop through UTF-32LE (at odd addresses):
     * the status of the step that stopped, the offsets when the second
     * did not, and the same bytes; U+FFFD replaced again, and counted
     * again, by a target that cannot hold it. */
    if (o.bom == UTF8KIT_BOM_KEEP && o.policy != UTF8KIT_ASSUME_VALID && from != to &&
        is_8bit(from) && is_8bit(to)) {
        struct run mid = conv_odd(from, UTF8KIT_UTF32LE, s, len,
                                  utf8kit_max_output_size(from, UTF8KIT_UTF32LE, len), &o);
        struct run ref = conv_odd(UTF8KIT_UTF32LE, to, mid.out, mid.r.written, maxsz, &o);
        int no_fffd = to == UTF8KIT_LATIN1 || to == UTF8KIT_ASCII || to == UTF8KIT_CP1252;
        utf8kit_status want = ref.r.status == UTF8KIT_OK ? mid.r.status : ref.r.status;
        FUZZ_CHECK(full.r.status == want &&
                       (ref.r.status != UTF8KIT_OK ||
                        (full.r.read == mid.r.read && full.r.error_len == mid.r.error_len)) &&
                       full.r.replaced ==
                           ref.r.replaced +
                               (no_fffd && o.policy == UTF8KIT_REPLACE ? 0 : mid.r.replaced) &&
                       full.r.written == ref.r.written &&
                       memcmp(full.out, ref.out, ref.r.written) == 0,
                   "%d->%d p%d " RES_FMT " vs through UTF-32LE " RES_FMT " then " RES_FMT, from,
                   to, o.policy, RES_ARGS(full.r), RES_ARGS(mid.r), RES_ARGS(ref.r));
        free(mid.out);
        free(ref.out);
    }

    /* policies against each other (same BOM option and substitute) */
    if (o.policy != UTF8KIT_ASSUME_VALID) {
        utf8kit_options a = o, b = o;
        struct run st, rp;
        a.policy = UTF8KIT_STRICT;
        b.policy = UTF8KIT_REPLACE;
        st = conv(from, to, s, len, maxsz, &a);
        rp = conv(from, to, s, len, maxsz, &b);
        if (rp.r.status == UTF8KIT_OK) {
            FUZZ_CHECK(st.r.written <= rp.r.written && memcmp(st.out, rp.out, st.r.written) == 0,
                       "%d->%d STRICT output is not a prefix of REPLACE's", from, to);
            if (st.r.status == UTF8KIT_OK) {
                FUZZ_CHECK(rp.r.replaced == 0 && rp.r.written == st.r.written,
                           "%d->%d valid input replaced", from, to);
                a.policy = UTF8KIT_ASSUME_VALID;
                free(rp.out);
                rp = conv(from, to, s, len, maxsz, &a);
                FUZZ_CHECK(same_result(rp.r, st.r) && memcmp(rp.out, st.out, st.r.written) == 0,
                           "%d->%d ASSUME_VALID " RES_FMT " vs STRICT " RES_FMT, from, to,
                           RES_ARGS(rp.r), RES_ARGS(st.r));
            } else {
                FUZZ_CHECK(rp.r.replaced >= 1, "%d->%d STRICT %s but nothing replaced", from, to,
                           utf8kit_status_name(st.r.status));
            }
        }
        if (o.policy == UTF8KIT_SKIP && rp.r.status == UTF8KIT_OK)
            FUZZ_CHECK(full.r.replaced == rp.r.replaced && full.r.written <= rp.r.written,
                       "%d->%d SKIP " RES_FMT " REPLACE " RES_FMT, from, to, RES_ARGS(full.r),
                       RES_ARGS(rp.r));
        free(st.out);
        free(rp.out);
    }

    /* a small buffer: a prefix, then resume */
    if (cap_small < full.r.written) {
        struct run sm = conv(from, to, s, len, cap_small, &o);
        FUZZ_CHECK(memcmp(sm.out, full.out, sm.r.written) == 0, "%d->%d cap %zu: not a prefix",
                   from, to, cap_small);
        if (sm.r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL) {
            FUZZ_CHECK(sm.r.error_len == 0 && sm.r.read <= full.r.read,
                       "cap %zu: " RES_FMT, cap_small, RES_ARGS(sm.r));
            if (o.bom == UTF8KIT_BOM_KEEP || sm.r.read > 0) {
                utf8kit_options kp = o;
                struct run rest;
                kp.bom = UTF8KIT_BOM_KEEP;
                rest = conv(from, to, s + sm.r.read, len - sm.r.read, maxsz, &kp);
                FUZZ_CHECK(rest.r.status == full.r.status &&
                               sm.r.read + rest.r.read == full.r.read &&
                               sm.r.written + rest.r.written == full.r.written &&
                               rest.r.error_len == full.r.error_len &&
                               sm.r.replaced + rest.r.replaced == full.r.replaced &&
                               memcmp(rest.out, full.out + sm.r.written, rest.r.written) == 0,
                           "%d->%d p%d bom%d resume at %zu/%zu: " RES_FMT " + " RES_FMT
                           " != " RES_FMT,
                           from, to, o.policy, o.bom, sm.r.read, sm.r.written, RES_ARGS(sm.r),
                           RES_ARGS(rest.r), RES_ARGS(full.r));
                free(rest.out);
            }
        } else {
            /* it stopped on an input error before the output filled */
            FUZZ_CHECK(same_result(sm.r, full.r), "%d->%d cap %zu: " RES_FMT " vs " RES_FMT, from,
                       to, cap_small, RES_ARGS(sm.r), RES_ARGS(full.r));
        }
        free(sm.out);
    }

    /* every kernel == scalar */
    nk = fuzz_kernels(names);
    for (k = 1; k < nk; k++) {
        struct run kr;
        FUZZ_CHECK(utf8kit_impl_select(names[k]) == UTF8KIT_OK, "select %s", names[k]);
        kname = names[k];
        kr = conv(from, to, s, len, maxsz, &o);
        FUZZ_CHECK(same_result(kr.r, full.r) && memcmp(kr.out, full.out, full.r.written) == 0,
                   "[%s] %d->%d p%d: " RES_FMT " scalar " RES_FMT, names[k], from, to, o.policy,
                   RES_ARGS(kr.r), RES_ARGS(full.r));
        m = utf8kit_convert(from, to, s, len, NULL, 0, &o);
        FUZZ_CHECK(same_result(m, full.r), "[%s] measure", names[k]);
        if (cap_small < full.r.written) {
            struct run sm = conv(from, to, s, len, cap_small, &o);
            free(sm.out);
        }
        free(kr.out);
    }
    utf8kit_impl_select("scalar");
    kname = "scalar";

    /* round trips and oracles on UTF-8 input */
    memset(&ok_opt, 0, sizeof ok_opt);
    if (from == UTF8KIT_UTF8 && is_unicode_form(to) && o.policy == UTF8KIT_STRICT &&
        o.bom == UTF8KIT_BOM_KEEP && full.r.status == UTF8KIT_OK) {
        struct run back = conv(to, UTF8KIT_UTF8, full.out, full.r.written,
                               utf8kit_max_output_size(to, UTF8KIT_UTF8, full.r.written), &ok_opt);
        FUZZ_CHECK(back.r.status == UTF8KIT_OK && back.r.written == len &&
                       memcmp(back.out, s, len) == 0,
                   "UTF-8 -> %d -> UTF-8 differs: " RES_FMT, to, RES_ARGS(back.r));
        free(back.out);
    }
    if (from == UTF8KIT_UTF8 && to == UTF8KIT_UTF8 && o.policy == UTF8KIT_REPLACE &&
        o.bom == UTF8KIT_BOM_KEEP) {
        unsigned char *ref = malloc(3 * len + 1), *rep = fuzz_outbuf(3 * len);
        size_t i = 0, rl = 0, subs = 0;
        utf8kit_result rr;
        if (!ref)
            abort();
        while (i < len) {
            uint32_t cp;
            size_t n;
            int kk = ref_step(s + i, len - i, &cp, &n);
            rl += ref_put8(kk == 1 ? cp : 0xFFFD, ref + rl);
            subs += kk != 1;
            i += n;
        }
        FUZZ_CHECK(full.r.written == rl && memcmp(full.out, ref, rl) == 0 &&
                       full.r.replaced == subs,
                   "REPLACE UTF-8 differs from the independent decoder: " RES_FMT " want %zu/%zu",
                   RES_ARGS(full.r), rl, subs);
        rr = utf8kit_repair((const char *)s, len, (char *)rep, 3 * len);
        FUZZ_CHECK(fuzz_canary_ok(rep, 3 * len), "repair wrote past cap");
        FUZZ_CHECK(same_result(rr, full.r) && memcmp(rep, ref, rl) == 0,
                   "repair " RES_FMT " vs convert " RES_FMT, RES_ARGS(rr), RES_ARGS(full.r));
        FUZZ_CHECK(utf8kit_validate((const char *)full.out, full.r.written).status == UTF8KIT_OK,
                   "repaired output invalid");
        free(ref);
        free(rep);
    }
    /* REPLACE into a Unicode form always gives valid text of that form
     * (UTF-32 from the RFC 2279 form may carry values above U+10FFFF) */
    if (o.policy == UTF8KIT_REPLACE && full.r.status == UTF8KIT_OK && is_unicode_form(to) &&
        to != UTF8KIT_UTF8_RFC2279 &&
        !(from == UTF8KIT_UTF8_RFC2279 && (to == UTF8KIT_UTF32LE || to == UTF8KIT_UTF32BE))) {
        struct run chk = conv(to, UTF8KIT_UTF32LE, full.out, full.r.written,
                              utf8kit_max_output_size(to, UTF8KIT_UTF32LE, full.r.written),
                              &ok_opt);
        FUZZ_CHECK(chk.r.status == UTF8KIT_OK, "REPLACE output of %d->%d is not valid: " RES_FMT,
                   from, to, RES_ARGS(chk.r));
        free(chk.out);
    }
    free(full.out);
    free(blk);
    return 0;
}
