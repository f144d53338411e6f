/*
 * test_latin1_kernels.c - the active kernel's Latin-1 <-> UTF-8 entries
 * against the scalar reference kernel (src/scalar/transcode_latin1.c),
 * around the 64-byte blocks of the SIMD kernels:
 *  - every input length 0..300, inputs ending at a PROT_NONE page and
 *    outputs ending at another one (a read or write one byte too far
 *    faults);
 *  - UTF-8 made of ASCII and U+0080..U+00FF (the fast path), then with
 *    one defect written at each offset near a block edge (0, 1, 62..66,
 *    126..130, 190..194, 254..258 and the last bytes): a character above
 *    U+00FF (2, 3 and 4 bytes), stray tails, C0/C1, a lone lead, F5..FF,
 *    a 2-byte lead before ASCII;
 *  - a C2/C3 lead as the last byte of a block (its tail opens the next);
 *  - output room exactly sufficient, one short, and a few smaller;
 *  - flags 0 (STRICT) and U8K_TRUSTED (on invalid input, which breaks
 *    the promise, only the bounds are checked);
 *  - Latin-1 of every density of bytes >= 80, with the same rooms;
 *  - the kernel's latin1_to_utf8_c1 (windows-1252 up to a byte 80..9F)
 *    where it has one, on the same inputs and with a byte 80..9F at each
 *    place;
 *  - the kernel's widen (bytes to 16- or 32-bit units), every length
 *    0..300, at the guard page and at each offset from a 64-byte
 *    boundary; and its narrow (units to bytes up to the first above FF or
 *    7F), every length 0..300 with such a unit at each place;
 *  - the public REPLACE, SKIP and STRICT calls, active kernel against
 *    the scalar one, on long text with characters above U+00FF.
 * Status, read, written, error_len and the bytes written must all agree.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "internal.h"
#include "testlib.h"

static const u8k_kernels *K;
static unsigned char *in_end, *out_end;
#define RW_PAGES 8

static unsigned char expect[1 << 16];

#define SHOW(r) utf8kit_status_name((r).status), (r).read, (r).written, (r).error_len

/* UTF-8 -> Latin-1 of the n bytes s (placed here at the input guard) with
 * room cap, kernel against scalar. */
static void check_u8(const unsigned char *s, size_t n, size_t cap, unsigned flags,
                     const char *what, size_t at)
{
    unsigned char *in = in_end - n, *d = out_end - cap;
    utf8kit_result w, r;
    memmove(in, s, n);
    w = u8k_scalar_kernels.utf8_to_latin1(in, n, expect, cap, flags);
    memset(d, 0xA5, cap);
    r = K->utf8_to_latin1(in, n, d, cap, flags);
    if ((flags & U8K_TRUSTED) && !u8k_scalar_is_valid(in, n)) {
        /* a broken promise: any result, but within the buffers */
        CHECK(r.read <= n && r.written <= cap,
              "utf8>latin1 trusted %s at %zu len %zu cap %zu: %s %zu %zu", what, at, n, cap,
              utf8kit_status_name(r.status), r.read, r.written);
        return;
    }
    CHECK(test_same_result(r, w),
          "utf8>latin1 %s at %zu len %zu cap %zu fl %u: kernel %s %zu %zu %zu, "
          "scalar %s %zu %zu %zu",
          what, at, n, cap, flags, SHOW(r), SHOW(w));
    CHECK(r.written > cap || memcmp(d, expect, r.written) == 0,
          "utf8>latin1 %s at %zu len %zu cap %zu: output differs", what, at, n, cap);
}

/* Every room worth trying for input s: exact, one short, a few less, 0. */
static void rooms_u8(const unsigned char *s, size_t n, const char *what, size_t at)
{
    utf8kit_result full = u8k_scalar_kernels.utf8_to_latin1(s, n, expect, sizeof expect, 0);
    size_t need = full.written, k;
    static const size_t less[] = {1, 2, 63, 64, 65};
    for (unsigned fl = 0; fl <= U8K_TRUSTED; fl += U8K_TRUSTED) {
        check_u8(s, n, need, fl, what, at);
        check_u8(s, n, need + 1, fl, what, at);
        check_u8(s, n, n, fl, what, at); /* one byte per input byte */
        for (k = 0; k < sizeof less / sizeof less[0]; k++)
            if (less[k] <= need)
                check_u8(s, n, need - less[k], fl, what, at);
        check_u8(s, n, 0, fl, what, at);
    }
}

/* n bytes of UTF-8 holding only U+0000..U+00FF; ascii_pct of the
 * characters ASCII. A character that would pass n is replaced by ASCII,
 * so the text is valid. */
static void gen_latin(unsigned char *p, size_t n, unsigned ascii_pct)
{
    size_t i = 0;
    while (i < n) {
        if (rnd() % 100 < ascii_pct || i + 1 == n) {
            p[i++] = (unsigned char)(rnd() % 0x80);
        } else {
            unsigned c = 0x80 + rnd() % 0x80;
            p[i++] = (unsigned char)(0xC0 | c >> 6);
            p[i++] = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
}

/* The defects written over the text at an offset (then cut at n). */
static const struct {
    const char *name;
    unsigned char b[4];
    size_t len;
} defects[] = {
    {"U+0100", {0xC4, 0x80}, 2},
    {"U+07FF", {0xDF, 0xBF}, 2},
    {"U+20AC", {0xE2, 0x82, 0xAC}, 3},
    {"U+1F600", {0xF0, 0x9F, 0x98, 0x80}, 4},
    {"stray 80", {0x80}, 1},
    {"stray BF", {0xBF}, 1},
    {"C0 80", {0xC0, 0x80}, 2},
    {"C1 BF", {0xC1, 0xBF}, 2},
    {"lone C2", {0xC2, 0x41}, 2},
    {"lone C3", {0xC3, 0x7F}, 2},
    {"C3 C3", {0xC3, 0xC3}, 2},
    {"E2 82 41", {0xE2, 0x82, 0x41}, 3},
    {"ED A0 80", {0xED, 0xA0, 0x80}, 3},
    {"F5", {0xF5}, 1},
    {"FF", {0xFF}, 1},
    {"C2 C2 80", {0xC2, 0xC2, 0x80}, 3},
};
#define NDEF (sizeof defects / sizeof defects[0])

static bool near_edge(size_t p, size_t n)
{
    size_t e = p % 64;
    return e <= 2 || e >= 62 || p + 3 >= n;
}

static void utf8_lengths(void)
{
    static unsigned char base[512], t[512];
    size_t n, p, d;
    for (n = 0; n <= 300; n++) {
        unsigned pct = (unsigned)(n % 4) * 30; /* 0, 30, 60, 90 % ASCII */
        gen_latin(base, n, pct);
        rooms_u8(base, n, "valid", 0);
        /* a 2-byte character across each block edge: its lead is the
         * last byte of a block */
        memcpy(t, base, n);
        for (p = 63; p + 1 < n; p += 64) {
            t[p] = (unsigned char)(0xC2 + rnd() % 2);
            t[p + 1] = (unsigned char)(0x80 + rnd() % 0x40);
            if (p + 2 < n && (t[p + 2] & 0xC0) == 0x80)
                t[p + 2] = 'a';
            if (p > 0 && t[p - 1] >= 0xC0)
                t[p - 1] = 'b';
        }
        rooms_u8(t, n, "lead at 63", 0);
        /* the same lead, the input ending right after it */
        for (p = 63; p < n; p += 64) {
            memcpy(t, base, p + 1);
            if (p > 0 && t[p - 1] >= 0xC0)
                t[p - 1] = 'b';
            t[p] = 0xC3;
            rooms_u8(t, p + 1, "cut lead", p);
        }
        for (p = 0; p < n; p++) {
            if (!near_edge(p, n))
                continue;
            for (d = 0; d < NDEF; d++) {
                size_t k = defects[d].len < n - p ? defects[d].len : n - p;
                memcpy(t, base, n);
                memcpy(t + p, defects[d].b, k);
                rooms_u8(t, n, defects[d].name, p);
            }
        }
    }
}

/* Long text: valid Latin-1 range with defects at random block edges,
 * then random rooms near the end. */
static void utf8_long(void)
{
    static unsigned char t[16384];
    size_t round;
    for (round = 0; round < 300; round++) {
        size_t n = 256 + rnd() % (sizeof t - 256), p, d;
        gen_latin(t, n, (unsigned)(rnd() % 100));
        p = (rnd() % (n / 64)) * 64 + (rnd() % 5) - 2;
        if (p < n && round % 3 != 0) {
            d = rnd() % NDEF;
            memcpy(t + p, defects[d].b, defects[d].len < n - p ? defects[d].len : n - p);
        }
        check_u8(t, n, n, 0, "long", p);
        check_u8(t, n, n, U8K_TRUSTED, "long", p);
        check_u8(t, n, rnd() % (n + 1), 0, "long room", p);
        check_u8(t, n, rnd() % (n + 1), U8K_TRUSTED, "long room", p);
    }
}

/* The kernel's latin1_to_utf8_c1, where it has one, of the n bytes at
 * in (at the input guard) with room cap: as the scalar Latin-1 kernel of
 * the bytes before the first byte 80..9F. */
static void check_c1(const unsigned char *in, size_t n, size_t cap, const char *what)
{
    unsigned char *d = out_end - cap;
    utf8kit_result w, r;
    size_t m = 0;
    if (K->latin1_to_utf8_c1 == NULL)
        return;
    while (m < n && (in[m] & 0xE0) != 0x80)
        m++;
    w = u8k_scalar_kernels.latin1_to_utf8(in, m, expect, cap);
    memset(d, 0xA5, cap);
    r = K->latin1_to_utf8_c1(in, n, d, cap);
    CHECK(test_same_result(r, w),
          "latin1>utf8 c1 %s len %zu (80..9F at %zu) cap %zu: kernel %s %zu %zu %zu, scalar %s "
          "%zu %zu %zu",
          what, n, m, cap, SHOW(r), SHOW(w));
    CHECK(r.written > cap || memcmp(d, expect, r.written) == 0,
          "latin1>utf8 c1 %s len %zu cap %zu: output differs", what, n, cap);
}

/* Latin-1 -> UTF-8 of the n bytes s with room cap (and check_c1). */
static void check_l1(const unsigned char *s, size_t n, size_t cap, const char *what)
{
    unsigned char *in = in_end - n, *d = out_end - cap;
    utf8kit_result w, r;
    memmove(in, s, n);
    check_c1(in, n, cap, what);
    w = u8k_scalar_kernels.latin1_to_utf8(in, n, expect, cap);
    memset(d, 0xA5, cap);
    r = K->latin1_to_utf8(in, n, d, cap);
    CHECK(test_same_result(r, w),
          "latin1>utf8 %s len %zu cap %zu: kernel %s %zu %zu %zu, scalar %s %zu %zu %zu", what,
          n, cap, SHOW(r), SHOW(w));
    CHECK(r.written > cap || memcmp(d, expect, r.written) == 0,
          "latin1>utf8 %s len %zu cap %zu: output differs", what, n, cap);
}

static void latin1_lengths(void)
{
    static unsigned char t[16384];
    size_t n, k, high;
    for (n = 0; n <= 300; n++) {
        unsigned pct;
        for (pct = 0; pct <= 100; pct += 25) {
            for (k = 0, high = 0; k < n; k++) {
                t[k] = (unsigned char)(rnd() % 100 < pct ? 0x80 + rnd() % 0x80 : rnd() % 0x80);
                high += t[k] >> 7;
            }
            /* exact room, one short (cuts a pair or drops a byte), less */
            check_l1(t, n, n + high, "exact");
            check_l1(t, n, n + high + 1, "exact+1");
            for (k = 1; k <= 3 && k <= n + high; k++)
                check_l1(t, n, n + high - k, "short");
            if (n + high >= 64)
                check_l1(t, n, n + high - 64, "short 64");
            check_l1(t, n, n, "one per byte");
            check_l1(t, n, 0, "none");
        }
    }
    for (n = 0; n < 200; n++) {
        size_t len = 300 + rnd() % (sizeof t - 300);
        for (k = 0, high = 0; k < len; k++) {
            t[k] = (unsigned char)(rnd() % 8 == 0 ? 0x80 + rnd() % 0x80 : rnd() % 0x80);
            high += t[k] >> 7;
        }
        check_l1(t, len, len + high, "long");
        check_l1(t, len, rnd() % (len + high + 1), "long room");
    }
    /* Inputs of U8K_ALIGN_MIN bytes or more are converted in two parts,
     * up to a 64-byte aligned address and from it: at each of the 64
     * start alignments (the input ends at a page), with room to spare,
     * exactly enough, and running out in the first part or just after. */
    for (n = U8K_ALIGN_MIN; n < U8K_ALIGN_MIN + 64; n++) {
        for (k = 0, high = 0; k < n; k++) {
            t[k] = (unsigned char)(rnd() % 3 == 0 ? 0x80 + rnd() % 0x80 : rnd() % 0x80);
            high += t[k] >> 7;
        }
        check_l1(t, n, n + high + 5, "aligned");
        check_l1(t, n, n + high, "aligned exact");
        for (k = 0; k < 140; k += 1 + (size_t)test_quick() * 6)
            check_l1(t, n, k, "aligned short");
    }
}

/* latin1_to_utf8_c1 on Latin-1 of bytes 00..7F and A0..FF with one byte
 * 80..9F, at each place of each length 1..300 (in and around the
 * blocks, and in the last part), rooms exact and short of it; and runs
 * of several. */
static void c1_places(void)
{
    static unsigned char t[4096];
    size_t n, p, k, high;
    if (K->latin1_to_utf8_c1 == NULL)
        return;
    for (n = 1; n <= 300; n++) {
        for (k = 0; k < n; k++)
            t[k] = (unsigned char)(rnd() % 4 == 0 ? 0xA0 + rnd() % 0x60 : rnd() % 0x80);
        for (p = 0; p < n; p += 1 + (size_t)test_quick() * 4) {
            unsigned char *in = in_end - n, keep = t[p];
            t[p] = (unsigned char)(0x80 + rnd() % 0x20);
            memmove(in, t, n);
            for (k = 0, high = 0; k < p; k++)
                high += t[k] >> 7;
            check_c1(in, n, p + high, "place exact");
            check_c1(in, n, n * 2, "place");
            if (p + high > 0)
                check_c1(in, n, p + high - 1, "place short");
            t[p] = keep;
        }
    }
    for (n = 0; n < 300; n++) {
        size_t len = 1 + rnd() % sizeof t;
        unsigned char *in = in_end - len;
        for (k = 0; k < len; k++)
            in[k] = (unsigned char)(rnd() % 200 == 0 ? 0x80 + rnd() % 0x20
                                    : rnd() % 4 == 0 ? 0xA0 + rnd() % 0x60
                                                     : rnd() % 0x80);
        check_c1(in, len, 2 * len, "runs");
        check_c1(in, len, rnd() % (2 * len), "runs room");
    }
}

/* The kernel's widen, where it has one: every length 0..300 of random
 * bytes, to 16-bit units in either byte order and 32-bit ones in the
 * host's, the input ending at its guard page and the output ending at
 * its own or starting at each offset 0..62 (step: the unit) after a
 * 64-byte boundary (the kernel aligns its stores after the first
 * vector); the bytes around the output must stay untouched. */
static void widen_lengths(void)
{
    static unsigned char t[400], want[400 * 4];
    size_t n, k, off;
    int form;
    if (K->widen == NULL)
        return;
    for (n = 0; n <= 300; n++) {
        unsigned char *in = in_end - n;
        for (k = 0; k < n; k++)
            t[k] = (unsigned char)rnd();
        memcpy(in, t, n);
        for (form = 0; form < 3; form++) {
            bool wide = form == 2, be = form == 1;
            size_t us = wide ? 4 : 2, bytes = n * us;
            for (k = 0; k < n; k++) {
                uint32_t u = t[k];
                if (wide) {
                    memcpy(want + 4 * k, &u, 4);
                } else {
                    want[2 * k + be] = t[k];
                    want[2 * k + !be] = 0;
                }
            }
            {
                unsigned char *d = out_end - bytes;
                K->widen(d, in, n, wide, be);
                CHECK(memcmp(d, want, bytes) == 0, "widen len %zu form %d at the guard", n, form);
            }
            for (off = 0; off < 64; off += us * (test_quick() ? 7 : 1)) {
                unsigned char *base = out_end - 4096, *d = base + off;
                size_t j;
                bool clean = true;
                memset(base, 0xA5, off + bytes + 64);
                K->widen(d, in, n, wide, be);
                for (j = 0; j < off; j++)
                    clean = clean && base[j] == 0xA5;
                for (j = off + bytes; j < off + bytes + 64; j++)
                    clean = clean && base[j] == 0xA5;
                CHECK(memcmp(d, want, bytes) == 0 && clean,
                      "widen len %zu form %d at +%zu: %s", n, form, off,
                      clean ? "units differ" : "wrote outside");
            }
        }
    }
}

/* The kernel's narrow, where it has one: units of every length 0..300
 * (16-bit in either byte order; 32-bit in the host's order and big-endian),
 * all at most the limit (FF or 7F) or with one above it, or a surrogate,
 * at each place; the input ending at its guard page, the output at its
 * own. It must convert whole vectors (so within 64 units of the end or of
 * that unit, never past it), each unit its low byte, and write nothing
 * after them. */
static void narrow_lengths(void)
{
    static unsigned char t[300 * 4];
    const uint32_t probe = 1;
    const size_t low32 = *(const unsigned char *)&probe ? 0 : 3; /* a host-order unit's low byte */
    size_t n, k, p;
    int form, lim;
    if (K->narrow == NULL)
        return;
    for (n = 0; n <= 300; n++) {
        for (form = 0; form < 4; form++) {
            /* 16-bit little- and big-endian; 32-bit in the host's order
             * and big-endian */
            bool wide = form >= 2, be = form == 1 || form == 3;
            size_t us = wide ? 4 : 2;
            for (lim = 0; lim < 2; lim++) {
                unsigned max = lim ? 0x7F : 0xFF;
                for (p = 0; p <= n; p += (p < 70 || p + 70 > n) ? 1 : 1 + (size_t)test_quick() * 8) {
                    unsigned char *in = in_end - n * us, *d = out_end - n - 64;
                    size_t r, stop = p < n ? p : n;
                    bool ok = true;
                    for (k = 0; k < n; k++) {
                        uint32_t u = rnd() % (max + 1);
                        if (k == p)
                            u = rnd() % 3 == 0 ? max + 1 : rnd() % 2 ? 0xD800 + rnd() % 0x800 : 0xFFFF;
                        if (form == 3) {
                            t[4 * k] = (unsigned char)(u >> 24);
                            t[4 * k + 1] = (unsigned char)(u >> 16);
                            t[4 * k + 2] = (unsigned char)(u >> 8);
                            t[4 * k + 3] = (unsigned char)u;
                        } else if (wide) {
                            memcpy(t + 4 * k, &u, 4);
                        } else {
                            t[2 * k + be] = (unsigned char)u;
                            t[2 * k + !be] = (unsigned char)(u >> 8);
                        }
                    }
                    memcpy(in, t, n * us);
                    memset(d, 0xA5, n + 64);
                    r = K->narrow(d, in, n, wide, be, max);
                    for (k = 0; k < r && k < n; k++)
                        ok = ok && d[k] == (form == 3 ? t[4 * k + 3]
                                            : wide    ? t[4 * k + low32]
                                                      : t[2 * k + be]);
                    for (k = r; k < n + 64; k++)
                        ok = ok && d[k] == 0xA5;
                    CHECK(r <= stop && r + 64 > stop && ok,
                          "narrow len %zu form %d max %X, unit above at %zu: %zu converted%s", n,
                          form, max, p, r, ok ? "" : ", bytes differ or written past");
                }
            }
        }
    }
}

/* The public one-shot calls under each policy, active kernel against the
 * scalar one: text of U+0000..U+00FF with characters above U+00FF and
 * invalid bytes now and then (REPLACE and SKIP call the kernel again
 * after each). */
static void policies(const char *impl)
{
    static unsigned char t[20000];
    static char a[20000], b[20000];
    static const utf8kit_policy pol[] = {UTF8KIT_STRICT, UTF8KIT_REPLACE, UTF8KIT_SKIP};
    size_t round, n, p, q;
    for (round = 0; round < 40; round++) {
        n = 1000 + rnd() % 18000;
        gen_latin(t, n, 70);
        for (p = rnd() % 200; p + 4 < n; p += 1 + rnd() % (round % 2 ? 40 : 400)) {
            size_t d = rnd() % NDEF;
            memcpy(t + p, defects[d].b, defects[d].len);
        }
        for (q = 0; q < sizeof pol / sizeof pol[0]; q++) {
            unsigned char *in = dup_exact(t, n);
            utf8kit_result ra, rb;
            utf8kit_impl_select("scalar");
            ra = utf8kit_utf8_to_latin1((const char *)in, n, a, sizeof a, pol[q]);
            utf8kit_impl_select(impl);
            rb = utf8kit_utf8_to_latin1((const char *)in, n, b, sizeof b, pol[q]);
            CHECK(test_same_result(ra, rb) && ra.replaced == rb.replaced &&
                      memcmp(a, b, ra.written) == 0,
                  "policy %d round %zu: scalar %s %zu %zu (%zu replaced), %s %s %zu %zu (%zu)",
                  (int)pol[q], round, utf8kit_status_name(ra.status), ra.read, ra.written,
                  ra.replaced, impl, utf8kit_status_name(rb.status), rb.read, rb.written,
                  rb.replaced);
            free(in);
        }
    }
}

int main(void)
{
    char impl[32];
    test_begin();
    snprintf(impl, sizeof impl, "%s", utf8kit_impl_name());
    K = u8k_active();
    in_end = test_guarded(RW_PAGES);
    out_end = test_guarded(RW_PAGES);
    utf8_lengths();
    utf8_long();
    latin1_lengths();
    c1_places();
    widen_lengths();
    narrow_lengths();
    policies(impl);
    return test_done("test_latin1_kernels");
}
