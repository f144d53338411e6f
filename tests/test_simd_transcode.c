/*
 * test_simd_transcode.c - every transcoding entry of the active kernel
 * against the scalar reference kernel (src/scalar/transcode_*.c), with the
 * same flags (strict, U8K_BE, and U8K_TRUSTED on valid input):
 *  - inputs ending exactly at a PROT_NONE page, lengths 0..300;
 *  - outputs ending exactly at another PROT_NONE page, so a kernel that
 *    writes one unit past `cap` faults;
 *  - every capacity from 0 to the full size (+2) on short inputs, and
 *    capacities near the block edges on long ones;
 *  - random valid text of every width, and of 4-byte characters alone
 *    (their runs), then one unit mutated at every offset around the
 *    16/32/64-unit block edges (fixed seed).
 * Status, read, written, error_len and the bytes written must all agree.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "internal.h"
#include "testlib.h"

/* Two guarded regions of RW_PAGES pages, each ending at a PROT_NONE page. */
#define RW_PAGES 8
static unsigned char *in_end, *out_end;

static const u8k_kernels *K;
static unsigned char expect[64 * 1024];

#define REPORT(what, r, w, n, cap)                                                          \
    "%s len %zu cap %zu: kernel %s read %zu wrote %zu elen %zu, scalar %s read %zu wrote %zu " \
    "elen %zu",                                                                             \
        what, (size_t)(n), (size_t)(cap), utf8kit_status_name(r.status), r.read, r.written,  \
        r.error_len, utf8kit_status_name(w.status), w.read, w.written, w.error_len

/* Runs entry FN of the kernel and of the scalar table on input `s` (type
 * IT, n units, already placed at the input guard) with output units of
 * type OT and capacity cap (the kernel's output ends at the guard).
 * EXTRA is F(flags) for the entries that take flags, empty otherwise. */
#define F(x) , x
#define RUN(FN, IT, OT, s, n, cap, what, EXTRA)                                        \
    do {                                                                               \
        size_t c_ = (cap);                                                             \
        OT *d_ = (OT *)(void *)(out_end - c_ * sizeof(OT));                            \
        utf8kit_result w_ =                                                            \
            u8k_scalar_kernels.FN((const IT *)(s), n, (OT *)(void *)expect, c_ EXTRA); \
        utf8kit_result r_;                                                             \
        memset(d_, 0xA5, c_ * sizeof(OT));                                             \
        r_ = K->FN((const IT *)(s), n, d_, c_ EXTRA);                                  \
        CHECK(test_same_result(r_, w_), REPORT(what, r_, w_, n, c_));                          \
        CHECK(r_.written > c_ || memcmp(d_, expect, r_.written * sizeof(OT)) == 0,     \
              "%s len %zu cap %zu: output differs", what, (size_t)(n), c_);            \
    } while (0)

/* Random text as code points: widths weighted by mix. */
static uint32_t rand_cp(int mix)
{
    uint32_t k = rnd() % 8, cp;
    if (mix == 4) /* 4-byte characters alone (emoji): their runs */
        return 0x10000 + rnd() % 0x100000;
    if (k < 4 && mix == 0)
        cp = rnd() % 0x80;
    else if (k < 4)
        cp = mix == 1 ? 0x80 + rnd() % 0x780 : mix == 2 ? 0x800 + rnd() % 0xF800 : 0x10000 + rnd() % 0x100000;
    else if (k == 4)
        cp = rnd() % 0x80;
    else if (k == 5)
        cp = 0x80 + rnd() % 0x180; /* Latin-1 range included */
    else if (k == 6)
        cp = 0x800 + rnd() % 0xF800;
    else
        cp = 0x10000 + rnd() % 0x100000;
    if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
    return cp;
}

/* Text in three forms, n code points. */
static size_t gen_utf8(unsigned char *p, size_t cps, int mix)
{
    size_t n = 0, i;
    for (i = 0; i < cps; i++) {
        char t[4];
        size_t k = utf8kit_encode(rand_cp(mix), t);
        memcpy(p + n, t, k);
        n += k;
    }
    return n;
}

static size_t gen_utf16(uint16_t *p, size_t cps, int mix, bool be)
{
    size_t n = 0, i;
    for (i = 0; i < cps; i++) {
        uint32_t c = rand_cp(mix);
        uint16_t u[2];
        size_t k = 1;
        if (c >= 0x10000) {
            u[0] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
            u[1] = (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF));
            k = 2;
        } else {
            u[0] = (uint16_t)c;
        }
        for (size_t j = 0; j < k; j++)
            p[n++] = be ? (uint16_t)(u[j] << 8 | u[j] >> 8) : u[j];
    }
    return n;
}

static const unsigned char bad8[] = {0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x41};
static const uint16_t bad16[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x0080, 0x0041, 0xFFFF};
static const uint32_t bad32[] = {0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x80, 0x10FFFF, 0x41};

/* All entries on one UTF-8 input already at in_end - n. */
static void utf8_entries(const unsigned char *s, size_t n, size_t cap16, size_t cap8, bool trusted,
                         const char *what)
{
    unsigned fl = trusted ? U8K_TRUSTED : 0;
    RUN(utf8_to_utf16, unsigned char, uint16_t, s, n, cap16, what, F(fl));
    RUN(utf8_to_utf16, unsigned char, uint16_t, s, n, cap16, what, F(fl | U8K_BE));
    RUN(utf8_to_utf32, unsigned char, uint32_t, s, n, cap16, what, F(fl));
    RUN(utf8_to_latin1, unsigned char, unsigned char, s, n, cap8, what, F(fl));
    RUN(latin1_to_utf8, unsigned char, unsigned char, s, n, cap8 * 2, what, );
}

int main(void)
{
    static unsigned char text[8192];
    static uint16_t t16[4096];
    static uint32_t t32[1024];
    size_t n, i, cap, len;
    int mix;
    test_begin();
    test_seed(0x2545F4914F6CDD1Du);
    K = u8k_active();
    in_end = test_guarded(RW_PAGES);
    out_end = test_guarded(RW_PAGES);

    /* UTF-8 input: lengths 0..300 at the guard, full and edge capacities. */
    for (mix = 0; mix < 5; mix++) {
        n = gen_utf8(text, 400, mix);
        for (len = 0; len <= 300 && len <= n; len++) {
            unsigned char *s = in_end - len;
            memcpy(s, text, len);
            utf8_entries(s, len, len, len, false, "utf8");
            if (u8k_scalar_is_valid(s, len))
                utf8_entries(s, len, len, len, true, "utf8-trusted");
            if (len > 0 && len % 7 == 0) {
                s[len / 2] = bad8[len % sizeof bad8];
                utf8_entries(s, len, len, len, false, "utf8-bad");
            }
        }
        /* every capacity on a 150-byte input */
        {
            size_t m = 150;
            unsigned char *s = in_end - m;
            memcpy(s, text, m);
            for (cap = 0; cap <= m + 2; cap++)
                utf8_entries(s, m, cap, cap, false, "utf8-cap");
        }
        /* mutations around block edges */
        for (size_t e = 16; e <= 256; e *= 2)
            for (size_t d = 0; d < 8; d++) {
                size_t m = 300, p = e + d - 4;
                unsigned char *s = in_end - m;
                memcpy(s, text, m);
                s[p] = bad8[rnd() % sizeof bad8];
                utf8_entries(s, m, m, m, false, "utf8-mut");
                utf8_entries(s, m, p / 2, p / 2, false, "utf8-mut-cap");
            }
    }
    /* Long text (many windows), then one error at a random place, and
     * capacities cutting it anywhere. */
    for (mix = 0; mix < 5; mix++) {
        size_t m = gen_utf8(text, 900, mix);
        unsigned char *s;
        if (m > 3000)
            m = 3000;
        s = in_end - m;
        memcpy(s, text, m);
        while (m > 0 && u8k_is_cont(s[m - 1]))
            m--; /* not needed for correctness: also try a clean end */
        utf8_entries(in_end - m, m, m, m, false, "long");
        for (i = 0; i < (test_quick() ? 5u : 40u); i++) {
            size_t p = rnd() % m;
            unsigned char keep = s[p];
            s[p] = bad8[rnd() % sizeof bad8];
            utf8_entries(s, m, m, m, false, "long-bad");
            utf8_entries(s, m, rnd() % m, rnd() % m, false, "long-bad-cap");
            s[p] = keep;
        }
    }
    for (int be = 0; be < 2; be++)
        for (mix = 0; mix < 5; mix++) {
            unsigned fl = be ? U8K_BE : 0;
            size_t m = gen_utf16(t16, 1500, mix, be);
            uint16_t *s = (uint16_t *)(void *)(in_end - m * 2);
            memcpy(s, t16, m * 2);
            RUN(utf16_to_utf8, uint16_t, unsigned char, s, m, m * 3, "long16", F(fl));
            for (i = 0; i < (test_quick() ? 5u : 40u); i++) {
                size_t p = rnd() % m;
                uint16_t keep = s[p], b = bad16[rnd() % (sizeof bad16 / 2)];
                s[p] = be ? (uint16_t)(b << 8 | b >> 8) : b;
                RUN(utf16_to_utf8, uint16_t, unsigned char, s, m, m * 3, "long16-bad", F(fl));
                RUN(utf16_to_utf8, uint16_t, unsigned char, s, m, rnd() % (m * 3), "long16-cap",
                    F(fl));
                s[p] = keep;
            }
        }

    /* Text of U+0000..U+00FF only (the Latin-1 vector paths), some
     * windows ending in a lead byte; then errors, a character beyond
     * U+00FF, and capacities. */
    for (int round = 0; round < 8; round++) {
        size_t m = 0;
        unsigned char *s;
        while (m < 1500) {
            uint32_t cp = rnd() % (round < 4 ? 4u : 2u) ? ' ' + rnd() % 95 : 0x80 + rnd() % 0x80;
            char t[4];
            size_t k = utf8kit_encode(cp, t);
            memcpy(text + m, t, k);
            m += k;
        }
        s = in_end - m;
        memcpy(s, text, m);
        utf8_entries(s, m, m, m, false, "latin");
        utf8_entries(s, m, m, m, true, "latin-trusted");
        RUN(latin1_to_utf8, unsigned char, unsigned char, s, m, 2 * m, "latin-bytes", );
        for (i = 0; i < 30; i++) {
            size_t p = rnd() % m;
            unsigned char keep = s[p];
            s[p] = i % 3 == 0 ? 0xC4 : bad8[rnd() % sizeof bad8];
            utf8_entries(s, m, m, m, false, "latin-bad");
            s[p] = keep;
            utf8_entries(s, m, rnd() % m, rnd() % m, false, "latin-cap");
        }
    }

    /* Pure ASCII, long: the vector path, capacities around block edges. */
    {
        size_t m = 1000;
        unsigned char *s = in_end - m;
        for (i = 0; i < m; i++)
            s[i] = (unsigned char)(' ' + i % 95);
        for (cap = 0; cap <= m; cap += (cap < 200 ? 1 : 61))
            utf8_entries(s, m, cap, cap, false, "ascii");
        s[777] = 0xC3;
        utf8_entries(s, m, m, m, false, "ascii-bad");
        /* one bad or non-ASCII byte after ASCII windows, at every offset
         * around the 64-byte window and block edges */
        for (i = 0; i < m; i++)
            s[i] = (unsigned char)(' ' + i % 95);
        for (size_t p = 56; p < 200; p++)
            for (size_t b = 0; b < sizeof bad8; b++) {
                s[p] = bad8[b];
                utf8_entries(s, m, m, m, false, "ascii-then-bad");
                if (p + 1 < m && bad8[b] >= 0xC2 && bad8[b] < 0xF5) {
                    s[p + 1] = 0x80 | (unsigned char)(p & 0x3F);
                    utf8_entries(s, m, m, m, false, "ascii-then-pair");
                    s[p + 1] = (unsigned char)(' ' + (p + 1) % 95);
                }
                s[p] = (unsigned char)(' ' + p % 95);
            }
    }

    /* UTF-16 input, both byte orders. */
    for (int be = 0; be < 2; be++)
        for (mix = 0; mix < 5; mix++) {
            unsigned fl = be ? U8K_BE : 0;
            n = gen_utf16(t16, 400, mix, be);
            for (len = 0; len <= 300 && len <= n; len += (test_quick() ? 7 : 1)) {
                uint16_t *s = (uint16_t *)(void *)(in_end - len * 2);
                memcpy(s, t16, len * 2);
                RUN(utf16_to_utf8, uint16_t, unsigned char, s, len, len * 3, "utf16", F(fl));
                RUN(utf16_to_utf8, uint16_t, unsigned char, s, len, len, "utf16-small", F(fl));
                if (len > 0 && len % 5 == 0) {
                    uint16_t b = bad16[len % (sizeof bad16 / 2)];
                    s[len / 2] = be ? (uint16_t)(b << 8 | b >> 8) : b;
                    RUN(utf16_to_utf8, uint16_t, unsigned char, s, len, len * 3, "utf16-bad", F(fl));
                }
            }
            for (size_t e = 16; e <= 128; e *= 2)
                for (size_t d = 0; d < 8; d++) {
                    size_t m = 200, p = e + d - 4;
                    uint16_t *s = (uint16_t *)(void *)(in_end - m * 2);
                    uint16_t b = bad16[rnd() % (sizeof bad16 / 2)];
                    memcpy(s, t16, m * 2);
                    s[p] = be ? (uint16_t)(b << 8 | b >> 8) : b;
                    RUN(utf16_to_utf8, uint16_t, unsigned char, s, m, m * 3, "utf16-mut", F(fl));
                    for (cap = p; cap < p + 8; cap++)
                        RUN(utf16_to_utf8, uint16_t, unsigned char, s, m, cap, "utf16-cap", F(fl));
                }
        }

    /* UTF-32 input. */
    for (mix = 0; mix < 5; mix++) {
        for (i = 0; i < 400 && i < sizeof t32 / 4; i++)
            t32[i] = rand_cp(mix);
        for (len = 0; len <= 300; len += (test_quick() ? 7 : 1)) {
            uint32_t *s = (uint32_t *)(void *)(in_end - len * 4);
            memcpy(s, t32, len * 4);
            RUN(utf32_to_utf8, uint32_t, unsigned char, s, len, len * 4, "utf32", F(0u));
            RUN(utf32_to_utf8, uint32_t, unsigned char, s, len, len, "utf32-small", F(0u));
            if (len > 0 && len % 5 == 0) {
                s[len / 2] = bad32[len % (sizeof bad32 / 4)];
                RUN(utf32_to_utf8, uint32_t, unsigned char, s, len, len * 4, "utf32-bad", F(0u));
            }
        }
    }
    /* U8K_TRUSTED on invalid input: the output is unspecified, but no
     * kernel may write past `cap` (the output ends at a guard page) or
     * report more than it. Runs of F0 pretend to be 4-byte characters. */
    for (len = 0; len <= 300; len += (test_quick() ? 5 : 1)) {
        unsigned char *s = in_end - len;
        for (i = 0; i < len; i++)
            s[i] = len % 3 == 0 ? 0xF0 : len % 3 == 1 ? (unsigned char)rnd() : (i < 20 ? 'a' : 0xF0);
        for (cap = len / 2; cap <= len + 1; cap += (cap < len && cap + 1 + len / 7 > len) ? len - cap : 1 + len / 7) {
            uint16_t *d16 = (uint16_t *)(void *)(out_end - cap * 2);
            uint32_t *d32 = (uint32_t *)(void *)(out_end - cap * 4);
            unsigned char *d8 = out_end - cap;
/* ...and, since utf8kit_max_output_size promises len units for any
 * input, a capacity of len is never too small. */
#define TRUSTED_OK(r, what)                                                                 \
    CHECK((r).written <= cap && (r).read <= len &&                                         \
              (cap < len || (r).status != UTF8KIT_ERR_OUTPUT_TOO_SMALL),                   \
          "trusted %s len %zu cap %zu: %s written %zu", what, len, cap,                    \
          utf8kit_status_name((r).status), (r).written)
            utf8kit_result r = K->utf8_to_utf16(s, len, d16, cap, U8K_TRUSTED);
            TRUSTED_OK(r, "utf16");
            r = K->utf8_to_utf16(s, len, d16, cap, U8K_TRUSTED | U8K_BE);
            TRUSTED_OK(r, "utf16be");
            r = K->utf8_to_utf32(s, len, d32, cap, U8K_TRUSTED);
            TRUSTED_OK(r, "utf32");
            r = K->utf8_to_latin1(s, len, d8, cap, U8K_TRUSTED);
            TRUSTED_OK(r, "latin1");
#undef TRUSTED_OK
        }
    }

    /* Long ASCII runs in UTF-16 and UTF-32 (the all-ASCII block paths),
     * with one other value placed at every offset near the block edges. */
    {
        static const uint32_t odd[] = {0xE9, 0x20AC, 0x1F600, 0xD800, 0x110000};
        size_t m = 200;
        for (size_t p = 0; p < 80; p++)
            for (size_t v = 0; v < sizeof odd / sizeof odd[0]; v++) {
                uint32_t *s32 = (uint32_t *)(void *)(in_end - m * 4);
                uint16_t *s16 = (uint16_t *)(void *)(in_end - m * 2);
                for (i = 0; i < m; i++)
                    s32[i] = ' ' + (uint32_t)(i * 7 % 95);
                s32[p] = odd[v];
                RUN(utf32_to_utf8, uint32_t, unsigned char, s32, m, m * 4, "ascii32", F(0u));
                for (int be = 0; be < 2; be++) {
                    for (i = 0; i < m; i++) {
                        uint16_t u = (uint16_t)(' ' + i * 7 % 95);
                        s16[i] = be ? (uint16_t)(u << 8) : u;
                    }
                    if (odd[v] < 0x10000) {
                        uint16_t u = (uint16_t)odd[v];
                        s16[p] = be ? (uint16_t)(u << 8 | u >> 8) : u;
                    }
                    RUN(utf16_to_utf8, uint16_t, unsigned char, s16, m, m * 3, "ascii16",
                        F(be ? U8K_BE : 0u));
                }
            }
    }

    /* Latin-1 of every byte value. */
    for (len = 0; len <= 300; len++) {
        unsigned char *s = in_end - len;
        for (i = 0; i < len; i++)
            s[i] = (unsigned char)(len % 3 ? rnd() : (rnd() % 4 ? 'a' : rnd()));
        RUN(latin1_to_utf8, unsigned char, unsigned char, s, len, len * 2, "latin1", );
        RUN(latin1_to_utf8, unsigned char, unsigned char, s, len, len + len / 8, "latin1-small", );
    }
    return test_done("simd_transcode");
}
