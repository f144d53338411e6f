/*
 * test_utf8_utf16_runs.c - UTF-8 -> UTF-16 (LE and BE, strict and
 * U8K_TRUSTED on valid input) of the active kernel against the scalar
 * reference kernel on long runs of 2- and 3-byte characters, the case the
 * AVX-512 kernel converts in 64-byte blocks at a fixed stride, each block
 * checked against the one before it:
 *  - a run cut inside a character just before a block edge, then ASCII
 *    (an all-ASCII block after a block that ends inside a character);
 *  - a run with one 4-byte character, one stray byte, or one ASCII byte
 *    at every offset of its first 200 bytes (the run is left and taken
 *    up again, or an error is found at the right offset);
 *  - every capacity near the end of the output.
 * Status, read, written, error_len and the units written must all agree.
 */
#include "internal.h"
#include "testlib.h"

static const u8k_kernels *K;
static uint16_t want[4096], got[4096];

/* One comparison of K against the scalar kernel on a copy of s[0..n)
 * of exact size. */
static void compare(const unsigned char *s, size_t n, size_t cap, unsigned flags, const char *what)
{
    unsigned char *in = dup_exact(s, n);
    utf8kit_result w, r;
    w = u8k_scalar_utf8_to_utf16(in, n, want, cap, flags);
    memset(got, 0xA5, sizeof got);
    r = K->utf8_to_utf16(in, n, got, cap, flags);
    CHECK(r.status == w.status && r.read == w.read && r.written == w.written &&
              r.error_len == w.error_len,
          "%s len %zu cap %zu flags %u: kernel %s read %zu wrote %zu, scalar %s read %zu wrote %zu",
          what, n, cap, flags, utf8kit_status_name(r.status), r.read, r.written,
          utf8kit_status_name(w.status), w.read, w.written);
    CHECK(r.written > cap || memcmp(got, want, r.written * 2) == 0, "%s len %zu: units differ",
          what, n);
    /* 0xA5A5: never written past cap */
    CHECK(cap >= sizeof got / 2 || got[cap] == 0xA5A5, "%s len %zu cap %zu: wrote past cap", what,
          n, cap);
    free(in);
}

static void all_flags(const unsigned char *s, size_t n, bool valid, const char *what)
{
    compare(s, n, n, 0, what);
    compare(s, n, n, U8K_BE, what);
    if (valid)
        compare(s, n, n, U8K_TRUSTED, what);
}

/* A 2-byte (Cyrillic) or 3-byte (CJK) character at p; returns its length. */
static size_t put_mb(unsigned char *p)
{
    if (rnd() & 1) {
        uint32_t c = 0x400 + rnd() % 0x100;
        p[0] = (unsigned char)(0xC0 | c >> 6);
        p[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    {
        uint32_t c = 0x4E00 + rnd() % 0x5000;
        p[0] = (unsigned char)(0xE0 | c >> 12);
        p[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        p[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
}

static size_t run(unsigned char *p, size_t min)
{
    size_t n = 0;
    while (n < min)
        n += put_mb(p + n);
    return n;
}

int main(void)
{
    static unsigned char s[2048];
    size_t n, k, at;
    test_begin();
    K = u8k_active();

    /* Cut inside a character at or just before 64, 128, 192, then ASCII:
     * TRUNCATED is not the answer, the cut character is an error. */
    for (k = 64; k <= 192; k += 64) {
        for (at = k - 3; at <= k + 1; at++) {
            int rep;
            for (rep = 0; rep < 8; rep++) {
                run(s, at + 4);
                n = at; /* often inside a character */
                while (n < at + 70 + (size_t)(rnd() % 100))
                    s[n++] = (unsigned char)('a' + rnd() % 26);
                all_flags(s, n, false, "cut then ASCII");
            }
        }
    }

    /* One 4-byte character, one stray tail, one lead without its tail, or
     * one ASCII byte put at each offset of a 600-byte run. */
    for (at = 0; at < 200; at++) {
        size_t j;
        n = run(s, 600);
        /* back to the character start at or before `at` */
        j = at;
        while (j > 0 && u8k_is_cont(s[j]))
            j--;
        switch (at % 4) {
        case 0: /* U+1F600 in place of whole characters */
            memmove(s + j + 4, s + j, n - j);
            memcpy(s + j, "\xF0\x9F\x98\x80", 4);
            all_flags(s, n + 4, true, "4-byte in a run");
            break;
        case 1: /* a stray tail */
            memmove(s + j + 1, s + j, n - j);
            s[j] = 0x80;
            all_flags(s, n + 1, false, "stray tail in a run");
            break;
        case 2: /* a lead whose tail is ASCII */
            memmove(s + j + 2, s + j, n - j);
            s[j] = 0xD0;
            s[j + 1] = 'x';
            all_flags(s, n + 2, false, "cut lead in a run");
            break;
        default: /* one ASCII byte */
            memmove(s + j + 1, s + j, n - j);
            s[j] = ' ';
            all_flags(s, n + 1, true, "ASCII in a run");
            break;
        }
    }

    /* Every capacity near the end: a 700-byte run is at most 700 units. */
    n = run(s, 700);
    for (k = 150; k <= 360; k++) {
        compare(s, n, k, 0, "capacity");
        compare(s, n, k, U8K_BE, "capacity");
    }
    return test_done("utf8_utf16_runs");
}
