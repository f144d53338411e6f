// needs: utf8kit_utf8_to_utf16le utf8kit_utf8_to_utf16be utf8kit_utf8_to_utf32 utf8kit_utf16le_to_utf8 utf8kit_utf16be_to_utf8 utf8kit_utf32_to_utf8 utf8kit_latin1_to_utf8 utf8kit_utf8_to_latin1 utf8kit_convert utf8kit_impl_select
/*
 * fuzz_typed.c - the typed fast paths (the functions the SIMD kernels back)
 * against utf8kit_convert on the same bytes, and every kernel against the
 * scalar one, at a big and at a small capacity.
 *
 * Input: 4 header bytes, then the text (bytes, or units in host order).
 *   h0 % 8 = function, h1 & 3 = policy, h2 = small capacity in units,
 *   h3 bit 0: measure only (dst == NULL) as well.
 * Checks: never past the capacity (canary), measuring equals writing, the
 * same status/read/written/error_len/replaced and output as
 * utf8kit_convert (in units instead of bytes), every kernel identical to
 * scalar, a small buffer gives a prefix of the full output.
 */
#include "fuzz_common.h"

typedef utf8kit_result (*typed_fn)(const void *src, size_t len, void *dst, size_t cap,
                                   utf8kit_policy pol);

static utf8kit_result f_u8_u16le(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf8_to_utf16le(s, n, d, c, p);
}
static utf8kit_result f_u8_u16be(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf8_to_utf16be(s, n, d, c, p);
}
static utf8kit_result f_u8_u32(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf8_to_utf32(s, n, d, c, p);
}
static utf8kit_result f_u16le_u8(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf16le_to_utf8(s, n, d, c, p);
}
static utf8kit_result f_u16be_u8(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf16be_to_utf8(s, n, d, c, p);
}
static utf8kit_result f_u32_u8(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf32_to_utf8(s, n, d, c, p);
}
static utf8kit_result f_l1_u8(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    (void)p;
    return utf8kit_latin1_to_utf8(s, n, d, c);
}
static utf8kit_result f_u8_l1(const void *s, size_t n, void *d, size_t c, utf8kit_policy p)
{
    return utf8kit_utf8_to_latin1(s, n, d, c, p);
}

static const struct fn {
    const char *name;
    typed_fn f;
    size_t isz, osz, per; /* input/output unit sizes, max output units per input unit */
    utf8kit_encoding from, to;
} fns[8] = {
    {"utf8_to_utf16le", f_u8_u16le, 1, 2, 1, UTF8KIT_UTF8, UTF8KIT_UTF16LE},
    {"utf8_to_utf16be", f_u8_u16be, 1, 2, 1, UTF8KIT_UTF8, UTF8KIT_UTF16BE},
    {"utf8_to_utf32", f_u8_u32, 1, 4, 1, UTF8KIT_UTF8, UTF8KIT_UTF32},
    {"utf16le_to_utf8", f_u16le_u8, 2, 1, 3, UTF8KIT_UTF16LE, UTF8KIT_UTF8},
    {"utf16be_to_utf8", f_u16be_u8, 2, 1, 3, UTF8KIT_UTF16BE, UTF8KIT_UTF8},
    {"utf32_to_utf8", f_u32_u8, 4, 1, 4, UTF8KIT_UTF32, UTF8KIT_UTF8},
    {"latin1_to_utf8", f_l1_u8, 1, 1, 2, UTF8KIT_LATIN1, UTF8KIT_UTF8},
    {"utf8_to_latin1", f_u8_l1, 1, 1, 1, UTF8KIT_UTF8, UTF8KIT_LATIN1},
};

struct run {
    utf8kit_result r;
    unsigned char *out;
};

static struct run call(const struct fn *f, const void *s, size_t n, size_t cap,
                       utf8kit_policy pol, const char *kn)
{
    struct run x;
    size_t bytes = cap * f->osz;
    x.out = fuzz_outbuf(bytes);
    x.r = f->f(s, n, x.out, cap, pol);
    FUZZ_CHECK(fuzz_canary_ok(x.out, bytes), "[%s] %s p%d wrote past cap %zu", kn, f->name, pol,
               cap);
    FUZZ_CHECK(x.r.written <= cap && x.r.read <= n, "[%s] %s " RES_FMT, kn, f->name,
               RES_ARGS(x.r));
    return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct fn *f;
    utf8kit_policy pol;
    size_t small, n, cap, k, nk;
    void *src;
    const char *names[8];
    struct run full;
    utf8kit_result m, c;
    utf8kit_options o;
    int measure_too;

    if (size < 4)
        return 0;
    f = &fns[data[0] % 8];
    pol = (utf8kit_policy)(data[1] & 3);
    if (f->f == f_l1_u8)
        pol = UTF8KIT_STRICT;
    small = data[2];
    measure_too = data[3] & 1;
    n = (size - 4) / f->isz;
    src = malloc(n * f->isz != 0 ? n * f->isz : 1); /* exact size, aligned for the units */
    if (!src)
        abort();
    memcpy(src, data + 4, n * f->isz);
    cap = n * f->per;

    utf8kit_impl_select("scalar");
    if (pol == UTF8KIT_ASSUME_VALID) {
        /* on invalid input ASSUME_VALID's output is unspecified (only the
         * bounds hold): compare results on valid input only */
        struct run st = call(f, src, n, cap, UTF8KIT_STRICT, "scalar");
        int valid = st.r.status == UTF8KIT_OK;
        free(st.out);
        if (!valid) {
            nk = fuzz_kernels(names);
            for (k = 0; k < nk; k++) {
                utf8kit_impl_select(names[k]);
                free(call(f, src, n, cap, pol, names[k]).out);
                free(call(f, src, n, small, pol, names[k]).out);
                (void)f->f(src, n, NULL, 0, pol);
            }
            utf8kit_impl_select("scalar");
            free(src);
            return 0;
        }
    }
    full = call(f, src, n, cap, pol, "scalar");
    FUZZ_CHECK(full.r.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL, "%s: too small at %zu units",
               f->name, cap);
    if (pol == UTF8KIT_REPLACE || pol == UTF8KIT_SKIP)
        FUZZ_CHECK(full.r.status == UTF8KIT_OK && full.r.read == n, "%s p%d " RES_FMT, f->name,
                   pol, RES_ARGS(full.r));
    if (measure_too || n < 64) {
        m = f->f(src, n, NULL, 0, pol);
        FUZZ_CHECK(same_result(m, full.r), "%s measure " RES_FMT " vs " RES_FMT, f->name,
                   RES_ARGS(m), RES_ARGS(full.r));
    }

    /* the generic call on the same bytes */
    memset(&o, 0, sizeof o);
    o.policy = pol;
    {
        unsigned char *out = fuzz_outbuf(cap * f->osz);
        c = utf8kit_convert(f->from, f->to, src, n * f->isz, out, cap * f->osz, &o);
        FUZZ_CHECK(c.status == full.r.status && c.read == full.r.read * f->isz &&
                       c.written == full.r.written * f->osz &&
                       c.error_len == full.r.error_len * f->isz && c.replaced == full.r.replaced &&
                       memcmp(out, full.out, c.written) == 0,
                   "%s p%d: typed " RES_FMT " convert " RES_FMT, f->name, pol, RES_ARGS(full.r),
                   RES_ARGS(c));
        free(out);
    }

    /* a small buffer */
    if (small < full.r.written) {
        struct run sm = call(f, src, n, small, pol, "scalar");
        FUZZ_CHECK(memcmp(sm.out, full.out, sm.r.written * f->osz) == 0, "%s cap %zu: not a prefix",
                   f->name, small);
        FUZZ_CHECK(sm.r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL ? sm.r.read <= full.r.read
                                                               : same_result(sm.r, full.r),
                   "%s cap %zu: " RES_FMT " full " RES_FMT, f->name, small, RES_ARGS(sm.r),
                   RES_ARGS(full.r));
        free(sm.out);
    }

    /* every kernel == scalar */
    nk = fuzz_kernels(names);
    for (k = 1; k < nk; k++) {
        struct run kr;
        utf8kit_impl_select(names[k]);
        kr = call(f, src, n, cap, pol, names[k]);
        FUZZ_CHECK(same_result(kr.r, full.r) &&
                       memcmp(kr.out, full.out, full.r.written * f->osz) == 0,
                   "[%s] %s p%d: " RES_FMT " scalar " RES_FMT, names[k], f->name, pol,
                   RES_ARGS(kr.r), RES_ARGS(full.r));
        free(kr.out);
        m = f->f(src, n, NULL, 0, pol);
        FUZZ_CHECK(same_result(m, full.r), "[%s] %s measure " RES_FMT, names[k], f->name,
                   RES_ARGS(m));
        if (small < full.r.written) {
            struct run sm, ss;
            ss = call(f, src, n, small, pol, names[k]);
            utf8kit_impl_select("scalar");
            sm = call(f, src, n, small, pol, "scalar");
            utf8kit_impl_select(names[k]);
            FUZZ_CHECK(same_result(ss.r, sm.r) &&
                           memcmp(ss.out, sm.out, sm.r.written * f->osz) == 0,
                       "[%s] %s cap %zu: " RES_FMT " scalar " RES_FMT, names[k], f->name, small,
                       RES_ARGS(ss.r), RES_ARGS(sm.r));
            free(ss.out);
            free(sm.out);
        }
    }
    utf8kit_impl_select("scalar");
    free(full.out);
    free(src);
    return 0;
}
