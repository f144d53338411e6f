/*
 * test_count_assume_valid.c - utf8kit_count_assume_valid and
 * utf8kit_utf16_length_assume_valid on the active kernel:
 *  - on valid text they equal utf8kit_count / utf8kit_utf16_length and the
 *    number of code points (UTF-16 units) the text was made from: every
 *    code point U+0000..U+10FFFF (surrogates excluded) in one text, and
 *    random texts of every length 0..520 at every start alignment 0..63
 *    (past the four-vector step of every kernel), each in a heap block of
 *    exactly its size;
 *  - on any input, valid or not, they equal the byte counts their
 *    contract defines, computed here byte by byte: random bytes of every
 *    length 0..520, every 1- and 2-byte input, and inputs of 12-20 KB
 *    (a byte repeated, random bytes) long enough to fill the kernels'
 *    bytewise tallies to their limit;
 *  - NULL and empty inputs give 0.
 * The encoder (ref_utf8, testlib.h) and the byte counts are written from
 * RFC 3629 section 3, independent of the library.
 */
#include "testlib.h"

#include <stdint.h>

/* A random scalar value, of each encoded length about as often. */
static uint32_t random_scalar(void)
{
    for (;;) {
        uint32_t r = rnd(), c;
        switch (r & 3) {
        case 0: c = r >> 2 & 0x7F; break;
        case 1: c = 0x80 + (r >> 2) % (0x800 - 0x80); break;
        case 2: c = 0x800 + (r >> 2) % (0x10000 - 0x800); break;
        default: c = 0x10000 + (r >> 2) % (0x110000 - 0x10000); break;
        }
        if (c < 0xD800 || c > 0xDFFF)
            return c;
    }
}

/* The contract on any input: bytes outside 80..BF, plus bytes F0..FF. */
static size_t bytes_not_cont(const unsigned char *s, size_t n, int utf16)
{
    size_t k, r = 0;
    for (k = 0; k < n; k++)
        r += (s[k] < 0x80 || s[k] > 0xBF) + (utf16 && s[k] >= 0xF0);
    return r;
}

static void check_any(const unsigned char *bytes, size_t n, const char *what)
{
    unsigned char *p = dup_exact(bytes, n);
    size_t c, u;
    if (n == 0)
        p[0] = 0; /* the unused byte of an empty copy (quiets gcc's flow check) */
    c = utf8kit_count_assume_valid((const char *)p, n);
    u = utf8kit_utf16_length_assume_valid((const char *)p, n);
    CHECK(c == bytes_not_cont(p, n, 0), "%s: count %zu, want %zu (len %zu)", what, c,
          bytes_not_cont(p, n, 0), n);
    CHECK(u == bytes_not_cont(p, n, 1), "%s: utf16 %zu, want %zu (len %zu)", what, u,
          bytes_not_cont(p, n, 1), n);
    free(p);
}

int main(void)
{
    static unsigned char text[4 * 0x110000], buf[4200 + 64];
    size_t n = 0, chars = 0, units = 0, len, a, k;
    uint32_t c;
    test_begin();
    test_seed(0x9E3779B97F4A7C15ull);

    /* every code point, in order, in one text */
    for (c = 0; c < 0x110000; c++) {
        if (c >= 0xD800 && c <= 0xDFFF)
            continue;
        n += ref_utf8(c, text + n);
        chars++;
        units += c >= 0x10000 ? 2 : 1;
    }
    CHECK(utf8kit_count_assume_valid((const char *)text, n) == chars, "all code points: count");
    CHECK(utf8kit_utf16_length_assume_valid((const char *)text, n) == units,
          "all code points: utf16 length");
    CHECK(utf8kit_count((const char *)text, n) == chars, "all code points: validating count");

    /* random valid texts of every length at every alignment, and some long
     * ones (U8K_ALIGN_MIN: counted in two parts, up to an aligned address
     * and from it) */
    for (len = 0; len <= 4099; len = len < 520 ? len + 1 : len < 1100 ? len + 97 : len + 2997) {
        unsigned char *p;
        size_t want_c = 0, want_u = 0;
        n = 0;
        while (n < len) {
            unsigned char e[4];
            size_t m = ref_utf8(random_scalar(), e);
            if (n + m > len)
                m = ref_utf8(rnd() & 0x7F, e); /* fill up with ASCII */
            memcpy(text + n, e, m);
            n += m;
            want_c++;
            want_u += m == 4 ? 2 : 1;
        }
        for (a = 0; a < 64; a++) {
            memcpy(buf + a, text, len);
            CHECK(utf8kit_count_assume_valid((const char *)buf + a, len) == want_c,
                  "valid len %zu align %zu: count", len, a);
            CHECK(utf8kit_utf16_length_assume_valid((const char *)buf + a, len) == want_u,
                  "valid len %zu align %zu: utf16", len, a);
        }
        p = dup_exact(text, len);
        CHECK(utf8kit_count_assume_valid((const char *)p, len) == utf8kit_count((const char *)p, len),
              "valid len %zu: as utf8kit_count", len);
        CHECK(utf8kit_utf16_length_assume_valid((const char *)p, len) ==
                  utf8kit_utf16_length((const char *)p, len),
              "valid len %zu: as utf8kit_utf16_length", len);
        free(p);
    }

    /* any bytes: the contract's byte counts */
    for (len = 0; len <= 520; len++)
        for (a = 0; a < 4; a++) {
            for (k = 0; k < len; k++)
                text[k] = (unsigned char)rnd();
            check_any(text, len, "random bytes");
        }
    /* long inputs, where a byte lane's tally nears its limit (bytes F0..FF
     * count 2 each) before the kernel sums it up: a byte repeated, and
     * random bytes F0..FF or of any value */
    {
        static const unsigned char fills[] = {0xFF, 0xF0, 0xF4, 0x80, 0xBF, 0xC3, 0x41, 0x00};
        for (k = 0; k < sizeof fills; k++) {
            memset(text, fills[k], 20000);
            check_any(text, 20000, "one byte repeated");
            check_any(text + 1, 12345, "one byte repeated");
        }
        for (k = 0; k < 20000; k++)
            text[k] = (unsigned char)(0xF0 | (rnd() & 0x0F));
        check_any(text, 20000, "random bytes F0..FF");
        for (k = 0; k < 20000; k++)
            text[k] = (unsigned char)rnd();
        check_any(text, 20000, "random bytes, long");
    }
    for (k = 0; k < 256; k++) {
        text[0] = (unsigned char)k;
        check_any(text, 1, "one byte");
        for (a = 0; a < 256; a++) {
            text[1] = (unsigned char)a;
            check_any(text, 2, "two bytes");
        }
    }

    CHECK(utf8kit_count_assume_valid(NULL, 0) == 0, "NULL, 0");
    CHECK(utf8kit_count_assume_valid(NULL, 5) == 0, "NULL, 5");
    CHECK(utf8kit_utf16_length_assume_valid(NULL, 5) == 0, "NULL, 5 (utf16)");
    CHECK(utf8kit_count_assume_valid("abc", 0) == 0, "empty");
    return test_done("test_count_assume_valid");
}
