/*
 * test_to_utf8.c - UTF-16 (LE and BE) and UTF-32 -> UTF-8 of the active
 * kernel against the scalar reference kernel, aimed at the block steps of
 * the SIMD kernels (16, 32 and 64 units):
 *  - every length 0..300 of random mixes of ASCII, 2-byte, 3-byte and
 *    4-byte characters (surrogate pairs), with lone surrogates sprinkled
 *    in or not, the pair cut by the end or not;
 *  - ASCII texts of 1..40 units with one other unit at every position;
 *  - a lone high, a lone low, a reversed pair, a pair, two highs (a
 *    stretch for the scalar kernel may end between them) and units whose
 *    high or low byte alone is ASCII at every position of 300-unit texts
 *    of each valid kind (long ASCII runs, pairs alone included);
 *  - UTF-32 of every length of every mix (lone surrogates are bad values
 *    there), supplementary characters alone included;
 *  - output room exactly sufficient, one byte short, and ample; strict
 *    and U8K_TRUSTED (valid and invalid input);
 *  - inputs end at a PROT_NONE page and outputs end at another, so a read
 *    or write past either end faults.
 * Status, read, written, error_len and the bytes must match. Known
 * answers from RFC 3629 section 7 (repeated past block edges) check the
 * bytes against the standard itself, and the shuffle tables of the
 * SSE4.2 / AVX2 / NEON kernels are checked against a direct construction.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "internal.h"
#include "simd/utf8_pack4.h"
#include "testlib.h"

/* testlib's xorshift64 (default seed), bits 13..44 of each new state: the
 * draws this test's inputs have always been made of. */
static uint32_t rnd13(void)
{
    return (uint32_t)(test_xorshift64() >> 13);
}

static const u8k_kernels *K;
static unsigned char *in_end, *out_end; /* each just before a PROT_NONE page */
#define RW_PAGES 4

static unsigned char want[4096], big[4096];

/* The kernel's result r and bytes d against the scalar one's, w and want. */
static void agree(utf8kit_result r, utf8kit_result w, const unsigned char *d, size_t n,
                  size_t cap, unsigned flags, const char *what)
{
    CHECK(test_same_result(r, w),
          "%s%s%s len %zu cap %zu: kernel %s read %zu wrote %zu elen %zu, scalar %s read %zu "
          "wrote %zu elen %zu",
          what, flags & U8K_BE ? " BE" : "", flags & U8K_TRUSTED ? " trusted" : "", n, cap,
          utf8kit_status_name(r.status), r.read, r.written, r.error_len,
          utf8kit_status_name(w.status), w.read, w.written, w.error_len);
    CHECK(r.written > cap || memcmp(d, want, r.written) == 0, "%s len %zu cap %zu: bytes differ",
          what, n, cap);
}

/* One kernel call against the scalar one, output ending at the guard. */
static void check16(const uint16_t *s, size_t n, size_t cap, unsigned flags, const char *what)
{
    unsigned char *d = out_end - cap;
    utf8kit_result w = u8k_scalar_utf16_to_utf8(s, n, want, cap, flags);
    memset(d, 0xA5, cap);
    agree(K->utf16_to_utf8(s, n, d, cap, flags), w, d, n, cap, flags, what);
}

static void check32(const uint32_t *s, size_t n, size_t cap, unsigned flags, const char *what)
{
    unsigned char *d = out_end - cap;
    utf8kit_result w = u8k_scalar_utf32_to_utf8(s, n, want, cap, flags);
    memset(d, 0xA5, cap);
    agree(K->utf32_to_utf8(s, n, d, cap, flags), w, d, n, cap, flags, what);
}

/* The room the scalar kernel needs for the part it converts before any
 * error: then that room, one byte less (when it helps), and ample room. */
static void rooms16(const uint16_t *s, size_t n, const char *what)
{
    unsigned fl[4] = {0, U8K_BE, U8K_TRUSTED, U8K_TRUSTED | U8K_BE};
    for (int f = 0; f < 4; f++) {
        size_t need = u8k_scalar_utf16_to_utf8(s, n, big, sizeof big, fl[f]).written;
        check16(s, n, need, fl[f], what);
        if (need > 0)
            check16(s, n, need - 1, fl[f], what);
        check16(s, n, need + 97, fl[f], what);
    }
}

static void rooms32(const uint32_t *s, size_t n, const char *what)
{
    unsigned fl[2] = {0, U8K_TRUSTED};
    for (int f = 0; f < 2; f++) {
        size_t need = u8k_scalar_utf32_to_utf8(s, n, big, sizeof big, fl[f]).written;
        check32(s, n, need, fl[f], what);
        if (need > 0)
            check32(s, n, need - 1, fl[f], what);
        check32(s, n, need + 97, fl[f], what);
    }
}

/* Kinds of random unit: the weights of mix m are w[m][kind]. */
enum { ASCII, TWO, THREE, PAIR, LONE_HIGH, LONE_LOW, KINDS };
static const unsigned weights[][KINDS] = {
    {1, 0, 0, 0, 0, 0}, /* ASCII only: long runs */
    {8, 1, 1, 1, 0, 0}, /* mostly ASCII */
    {2, 8, 0, 0, 0, 0}, /* ASCII and 2-byte: the below-U+0800 path */
    {2, 2, 8, 0, 0, 0}, /* BMP, no surrogates */
    {2, 1, 2, 6, 0, 0}, /* many pairs */
    {1, 1, 1, 1, 0, 0}, /* everything valid */
#define VALID_MIXES 6
    {4, 2, 2, 2, 1, 1}, /* with unpaired surrogates */
    {0, 0, 1, 8, 1, 0}, /* pairs and lone highs */
    {0, 0, 0, 1, 0, 0}, /* pairs only */
    {0, 0, 1, 0, 0, 0}, /* 3-byte only */
};
#define MIXES (sizeof weights / sizeof weights[0])

static uint32_t value(int kind)
{
    uint32_t c;
    switch (kind) {
    case ASCII:
        return rnd13() % 0x80;
    case TWO:
        return 0x80 + rnd13() % 0x780;
    case THREE:
        /* edges now and then: 0800, D7FF, E000, FFFF */
        switch (rnd13() % 8) {
        case 0:
            return 0x800;
        case 1:
            return 0xD7FF;
        case 2:
            return 0xE000;
        case 3:
            return 0xFFFF;
        default:
            c = 0x800 + rnd13() % 0xF000; /* 0800..F7FF without D800..DFFF */
            return c >= 0xD800 ? c + 0x800 : c;
        }
    case PAIR:
        return (rnd13() & 3) == 0 ? 0x10000 + (rnd13() & 1) * 0xFFFFF : 0x10000 + rnd13() % 0x100000;
    case LONE_HIGH:
        return 0xD800 + rnd13() % 0x400;
    default:
        return 0xDC00 + rnd13() % 0x400;
    }
}

static int pick(size_t m)
{
    unsigned total = 0, k, r;
    for (k = 0; k < KINDS; k++)
        total += weights[m][k];
    r = rnd13() % total;
    for (k = 0; r >= weights[m][k]; k++)
        r -= weights[m][k];
    return (int)k;
}

/* n host-order UTF-16 units of mix m (a pair may be cut by the end). */
static void fill16(uint16_t *u, size_t n, size_t m)
{
    size_t i = 0;
    while (i < n) {
        uint32_t c = value(pick(m));
        if (c >= 0x10000) {
            u[i++] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
            if (i < n)
                u[i++] = (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF));
        } else {
            u[i++] = (uint16_t)c;
        }
    }
}

static uint16_t swap(uint16_t u) { return (uint16_t)(u << 8 | u >> 8); }

/* v[0..n) (no pair cut by its end) into u, with the units x, y at p and
 * p + 1 (p + 2 < n) and no half of one of v's pairs left beside them. */
static void put_odd(uint16_t *u, const uint16_t *v, size_t n, size_t p, uint16_t x, uint16_t y)
{
    memcpy(u, v, 2 * n);
    if (p > 0 && (u[p - 1] & 0xFC00) == 0xD800)
        u[p - 1] = 'y';
    if ((u[p + 2] & 0xFC00) == 0xDC00)
        u[p + 2] = 'z';
    u[p] = x;
    u[p + 1] = y;
}

/* The units u[0..n) placed at the input guard: as they are, and
 * byte-swapped (checked as BE, which rooms16 also runs as LE garbage). */
static void both16(const uint16_t *u, size_t n, const char *what)
{
    uint16_t *s = (uint16_t *)(void *)(in_end - 2 * n);
    size_t k;
    memcpy(s, u, 2 * n);
    rooms16(s, n, what);
    for (k = 0; k < n; k++)
        s[k] = swap(u[k]);
    rooms16(s, n, what);
}

/* Short texts (1..40 units, the lengths of the short-input paths) of
 * ASCII with one other unit at every position: one that is ASCII in
 * neither byte order, or in one only (each both16 call runs both). */
static void short_one(void)
{
    static const uint16_t odd[] = {0x0080, 0x00FF, 0x0100, 0x7F00, 0x7F80, 0x8000, 0x07FF,
                                   0x0800, 0xFFFF, 0xD800, 0xDC00};
    uint16_t u[40];
    size_t n, p, o, k;
    for (n = 1; n <= 40; n++)
        for (p = 0; p < n; p++)
            for (o = 0; o < sizeof odd / sizeof odd[0]; o++) {
                for (k = 0; k < n; k++)
                    u[k] = (uint16_t)('A' + k % 26);
                u[p] = odd[o];
                both16(u, n, "utf16 short, one odd unit");
            }
}

static void at32(const uint32_t *c, size_t n, const char *what)
{
    uint32_t *s = (uint32_t *)(void *)(in_end - 4 * n);
    memcpy(s, c, 4 * n);
    rooms32(s, n, what);
}

/* RFC 3629 section 7: "A<NOT IDENTICAL TO><ALPHA>.", the Korean word
 * "hangugeo", the Japanese "nihongo", and U+233B4 with a BOM, each as
 * code points and as the octets the RFC gives. */
struct known {
    uint32_t cp[4];
    size_t n;
    unsigned char utf8[16];
    size_t len;
};
static const struct known rfc[] = {
    {{0x41, 0x2262, 0x391, 0x2E}, 4, {0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E}, 7},
    {{0xD55C, 0xAD6D, 0xC5B4}, 3, {0xED, 0x95, 0x9C, 0xEA, 0xB5, 0xAD, 0xEC, 0x96, 0xB4}, 9},
    {{0x65E5, 0x672C, 0x8A9E}, 3, {0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E}, 9},
    {{0xFEFF, 0x233B4}, 2, {0xEF, 0xBB, 0xBF, 0xF0, 0xA3, 0x8E, 0xB4}, 7},
};

/* Each RFC example, and all of them in turn, repeated over 200 units. */
static void known_answers(void)
{
    static uint16_t u[512];
    static uint32_t c[512];
    static unsigned char exp[2048];
    for (size_t which = 0; which <= 4; which++) {
        size_t nu = 0, nc = 0, ne = 0, r = 0;
        while (nu < 200) {
            const struct known *k = &rfc[which < 4 ? which : r % 4];
            for (size_t j = 0; j < k->n; j++) {
                uint32_t v = k->cp[j];
                c[nc++] = v;
                if (v >= 0x10000) {
                    u[nu++] = (uint16_t)(0xD800 + ((v - 0x10000) >> 10));
                    u[nu++] = (uint16_t)(0xDC00 + ((v - 0x10000) & 0x3FF));
                } else {
                    u[nu++] = (uint16_t)v;
                }
            }
            memcpy(exp + ne, k->utf8, k->len);
            ne += k->len;
            r++;
        }
        for (int be = 0; be < 2; be++) {
            uint16_t *s = (uint16_t *)(void *)(in_end - 2 * nu);
            unsigned char *d = out_end - ne;
            utf8kit_result res;
            /* the bytes in the order named, on a host of either order */
            for (size_t j = 0; j < nu; j++) {
                unsigned char b[2];
                b[be ? 1 : 0] = (unsigned char)(u[j] & 0xFF);
                b[be ? 0 : 1] = (unsigned char)(u[j] >> 8);
                memcpy(s + j, b, 2);
            }
            res = K->utf16_to_utf8(s, nu, d, ne, be ? U8K_BE : 0);
            CHECK(res.status == UTF8KIT_OK && res.read == nu && res.written == ne &&
                      memcmp(d, exp, ne) == 0,
                  "RFC 3629 example %zu as UTF-16%s: %s read %zu wrote %zu", which,
                  be ? "BE" : "LE", utf8kit_status_name(res.status), res.read, res.written);
        }
        {
            uint32_t *s = (uint32_t *)(void *)(in_end - 4 * nc);
            unsigned char *d = out_end - ne;
            utf8kit_result res;
            memcpy(s, c, 4 * nc);
            res = K->utf32_to_utf8(s, nc, d, ne, 0);
            CHECK(res.status == UTF8KIT_OK && res.read == nc && res.written == ne &&
                      memcmp(d, exp, ne) == 0,
                  "RFC 3629 example %zu as UTF-32: %s read %zu wrote %zu", which,
                  utf8kit_status_name(res.status), res.read, res.written);
        }
    }
}

/* The shuffle tables of the SSE4.2 / AVX2 / NEON kernels, built there by
 * macros from closed forms, against a direct construction: the used
 * bytes of each slot, in order (pack3: 4-byte slots whose bytes 0, 3 and
 * 1, 2, 3 and 1 are the forms of 1, 2 and 3 bytes; pack2: 2-byte slots,
 * an ASCII unit in its second byte), then indices that select zero (80
 * and up). */
static void tables(void)
{
    static const unsigned char picks[4][3] = {{0}, {0}, {3, 1}, {2, 3, 1}};
    for (unsigned e = 0; e < 256; e++) {
        unsigned char exp[16];
        size_t n = 0, j;
        if ((e >> 1) & ~e & 0x55)
            continue; /* a unit from U+0800 on is from U+0080 on */
        for (unsigned k = 0; k < 4; k++) {
            unsigned len = 1 + (e >> 2 * k & 1) + (e >> (2 * k + 1) & 1);
            for (unsigned b = 0; b < len; b++)
                exp[n++] = (unsigned char)(4 * k + picks[len][b]);
        }
        for (j = 0; j < 16; j++)
            CHECK(j < n ? u8k_pack3[e][j] == exp[j] : u8k_pack3[e][j] >= 0x80,
                  "u8k_pack3[%u][%zu] = %u", e, j, u8k_pack3[e][j]);
    }
    for (unsigned m = 0; m < 256; m++) {
        unsigned char exp[16];
        size_t n = 0, j;
        for (unsigned k = 0; k < 8; k++) {
            if (m >> k & 1)
                exp[n++] = (unsigned char)(2 * k);
            exp[n++] = (unsigned char)(2 * k + 1);
        }
        for (j = 0; j < 16; j++)
            CHECK(j < n ? u8k_pack2[m][j] == exp[j] : u8k_pack2[m][j] >= 0x80,
                  "u8k_pack2[%u][%zu] = %u", m, j, u8k_pack2[m][j]);
    }
}

/* UTF8KIT_TEST_QUICK (sanitizers, emulators): every step-th length and
 * position only, a different residue per text so all are still met. */
static size_t step = 1;

/* Inputs of U8K_ALIGN_MIN bytes or more are converted in two parts, up
 * to a 64-byte aligned address and from it (u8k_split): 600-unit UTF-16
 * and 300-value UTF-32 texts of every mix at every start alignment, and
 * an odd unit or pair (as in main) at every position around the end of
 * the first part, a pair across it among them. */
static void long_aligned(void)
{
    static uint16_t u[600], v[600];
    static uint32_t c[300], e[300];
    static const uint16_t a[] = {0xD834, 0xDD1E, 0xDD1E, 0xD834};
    static const uint16_t b[] = {'a', 'b', 0xD834, 0xDD1E};
    static const uint32_t bad[] = {0xD800, 0xDFFF, 0x110000};
    size_t m, off, p, k;
    for (m = 0; m < MIXES; m++) {
        fill16(v, 600, m);
        for (p = 0; p < 300; p++)
            e[p] = m < VALID_MIXES ? value(pick(m)) : bad[p % 3];
        for (off = 0; off < 64; off += 2) {
            uint16_t *s = (uint16_t *)(void *)(in_end - sizeof v - off);
            uint32_t *t = (uint32_t *)(void *)(in_end - sizeof e - off);
            memcpy(s, v, sizeof v);
            rooms16(s, 600, "long utf16");
            if (off % 4 == 0) {
                memcpy(t, e, sizeof e);
                rooms32(t, 300, "long utf32");
            }
        }
    }
    fill16(v, 600, VALID_MIXES - 1);
    for (p = 0; p < 300; p++)
        e[p] = value(pick(VALID_MIXES - 1));
    for (off = 0; off < 64; off += 2 * step)
        for (p = 0; p < 34; p++) {
            uint16_t *s = (uint16_t *)(void *)(in_end - sizeof u - off);
            uint32_t *t = (uint32_t *)(void *)(in_end - sizeof c - off);
            for (k = 0; k < sizeof a / sizeof a[0]; k++) {
                put_odd(u, v, 600, p, a[k], b[k]);
                memcpy(s, u, sizeof u);
                rooms16(s, 600, k == 0 ? "long lone high" : k == 1 ? "long lone low" : k == 2 ? "long low high" : "long pair");
            }
            if (off % 4 == 0 && p < 17)
                for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
                    memcpy(c, e, sizeof e);
                    c[p] = bad[k];
                    memcpy(t, c, sizeof c);
                    rooms32(t, 300, "long utf32 bad");
                }
        }
}

int main(void)
{
    static uint16_t u[400], v[400];
    static uint32_t c[400], e[400];
    static const uint32_t bad32[] = {0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0xFFFFFFFFu};
    size_t m, n, p;
    test_begin();
    if (test_quick())
        step = 5;
    K = u8k_active();
    in_end = test_guarded(RW_PAGES);
    out_end = test_guarded(RW_PAGES);

    known_answers();
    tables();
    long_aligned();
    short_one();

    /* Every length 0..300 of every mix. */
    for (m = 0; m < MIXES; m++)
        for (n = m % step; n <= 300; n += step) {
            fill16(u, n, m);
            both16(u, n, "utf16 mix");
        }

    /* One odd unit or pair at every position of 300-unit texts of each
     * valid kind, so that each meets every block edge: a lone high, a lone
     * low, a low then a high, a good pair, and single units whose high or
     * low byte alone is ASCII (so that either byte order must be looked
     * at whole). */
    for (m = 0; m < MIXES; m++) {
        static const uint16_t a[] = {0xD834, 0xDD1E, 0xDD1E, 0xD834, 0x0100, 0x4100,
                                     0x0141, 0x0080, 0x07FF, 0x0800, 0xFFFF, 0xD800, 0xDBFF};
        static const uint16_t b[] = {'a', 'b', 0xD834, 0xDD1E, 'c', 'd', 'e', 'f', 'g', 'h', 'i',
                                     0xDBFF, 0xD800};
        if (m >= VALID_MIXES && weights[m][LONE_HIGH] + weights[m][LONE_LOW] > 0)
            continue; /* the base texts are valid (pairs only, 3-byte only too) */
        fill16(v, 300, m);
        /* no pair cut by the end of the base text */
        if ((v[299] & 0xFC00) == 0xD800)
            v[299] = 'x';
        for (p = m % step; p < 298; p += step) {
            for (size_t k = 0; k < sizeof a / sizeof a[0]; k++) {
                put_odd(u, v, 300, p, a[k], b[k]);
                both16(u, 300, k == 0 ? "lone high" : k == 1 ? "lone low" : k == 2 ? "low high" : k == 3 ? "pair" : k >= 11 ? "two highs" : "odd unit");
            }
        }
    }

    /* UTF-32: every length of every mix (a lone surrogate is a bad value
     * there too), sometimes with a bad value. */
    for (m = 0; m < MIXES; m++)
        for (n = m % step; n <= 300; n += step) {
            for (p = 0; p < n; p++)
                c[p] = value(pick(m));
            at32(c, n, "utf32 mix");
            if (n > 0) {
                c[rnd13() % n] = bad32[rnd13() % (sizeof bad32 / sizeof bad32[0])];
                at32(c, n, "utf32 bad");
            }
        }
    /* a bad value at every position 0..140 */
    for (m = 0; m < VALID_MIXES; m++) {
        for (p = 0; p < 150; p++)
            e[p] = value(pick(m));
        for (p = m % step; p < 140; p += step)
            for (size_t k = 0; k < sizeof bad32 / sizeof bad32[0]; k++) {
                memcpy(c, e, sizeof e);
                c[p] = bad32[k];
                at32(c, 150, "utf32 bad at");
            }
    }
    return test_done("to_utf8");
}
