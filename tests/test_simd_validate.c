/*
 * test_simd_validate.c - the active kernel's validation and counting
 * entries against the scalar reference (src/scalar), on inputs built to
 * hit the block edges of 16-, 32- and 64-byte kernels:
 *  - every length 0..300 ending exactly at a page followed by a PROT_NONE
 *    page, and starting at every alignment 0..63 of a page (same guard),
 *    in mixed text and in text of 2-, 3- or 4-octet characters only;
 *  - every 4-byte combination of 27 representative bytes (one per class
 *    of the lookup tables and the RFC 3629 boundaries), at offsets around
 *    the block edges, both at the end of the input and followed by text;
 *  - random valid text of every width, with one or two bytes mutated at
 *    every offset around a block edge (fixed seed).
 * Expected values come from the scalar reference, which test_conformance
 * and test_exhaustive check against third-party data.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "internal.h"
#include "testlib.h"

/* utf8kit_validate_counts on s[0..n) against the scalar reference. */
static void same_counts(const unsigned char *s, size_t n, const char *what, size_t a, size_t b)
{
    utf8kit_counts got = {0, {0, 0, 0, 0, 0}}, want = {0, {0, 0, 0, 0, 0}};
    utf8kit_result r = utf8kit_validate_counts((const char *)s, n, &got);
    utf8kit_result w = u8k_scalar_validate_counts(s, n, &want);
    CHECK(r.status == w.status && r.read == w.read && r.error_len == w.error_len &&
              memcmp(&got, &want, sizeof got) == 0,
          "%s %zu/%zu len %zu: validate_counts %s@%zu lines %llu/%llu, scalar %s@%zu lines %llu/%llu",
          what, a, b, n, utf8kit_status_name(r.status), r.read, (unsigned long long)got.lines,
          (unsigned long long)got.seq[1], utf8kit_status_name(w.status), w.read,
          (unsigned long long)want.lines, (unsigned long long)want.seq[1]);
}

/* Compares utf8kit_validate and utf8kit_is_valid on s[0..n). */
static void same_valid(const unsigned char *s, size_t n, const char *what, size_t a, size_t b)
{
    utf8kit_result r = utf8kit_validate((const char *)s, n), w = u8k_scalar_validate(s, n);
    CHECK(r.status == w.status && r.read == w.read && r.error_len == w.error_len,
          "%s %zu/%zu len %zu: validate %s@%zu+%zu, scalar %s@%zu+%zu", what, a, b, n,
          utf8kit_status_name(r.status), r.read, r.error_len, utf8kit_status_name(w.status),
          w.read, w.error_len);
    CHECK(utf8kit_is_valid((const char *)s, n) == (w.status == UTF8KIT_OK), "%s %zu/%zu len %zu: is_valid",
          what, a, b, n);
}

/* Compares every validation/counting entry on s[0..n). */
static void same(const unsigned char *s, size_t n, const char *what, size_t a, size_t b)
{
    same_valid(s, n, what, a, b);
    CHECK(utf8kit_ascii_prefix((const char *)s, n) == u8k_scalar_ascii_prefix(s, n),
          "%s %zu/%zu len %zu: ascii_prefix", what, a, b, n);
    CHECK(utf8kit_count((const char *)s, n) == u8k_scalar_count(s, n),
          "%s %zu/%zu len %zu: count %zu want %zu", what, a, b, n, utf8kit_count((const char *)s, n),
          u8k_scalar_count(s, n));
    CHECK(utf8kit_utf16_length((const char *)s, n) == u8k_scalar_utf16_length(s, n),
          "%s %zu/%zu len %zu: utf16_length", what, a, b, n);
}

/* same() and same_counts() */
static void same_all(const unsigned char *s, size_t n, const char *what, size_t a, size_t b)
{
    same(s, n, what, a, b);
    same_counts(s, n, what, a, b);
}

/* Text of put_mix_char's mix 0..3; mix 4, 5, 6: characters of 2, 3, 4
 * octets only (the scalar kernel's word loops run over such text up to
 * the end of the input; they must not read past it). */
static size_t make_text(unsigned char *p, size_t want, int mix)
{
    static const uint32_t lo[] = {0x80, 0x800, 0x10000}, span[] = {0x780, 0xF000, 0x100000};
    size_t n = 0;
    while (n + 4 <= want) {
        if (mix < 4) {
            n += put_mix_char(p + n, mix, 0);
        } else {
            uint32_t c = lo[mix - 4] + (uint32_t)(rnd() % span[mix - 4]);
            if (c >= 0xD800 && c < 0xE000)
                c += 0x800;
            n += utf8kit_encode(c, (char *)p + n);
        }
    }
    for (; n < want; n++)
        p[n] = (unsigned char)('a' + n % 26);
    return n;
}

/* Text of characters of at most `octets` bytes (ASCII one in two), want
 * bytes long (ASCII at the end). */
static size_t make_text_upto(unsigned char *p, size_t want, int octets)
{
    static const uint32_t lo[] = {0, 0x80, 0x800, 0x10000}, span[] = {0x80, 0x780, 0xF000, 0x100000};
    size_t n = 0;
    while (n + 4 <= want) {
        int k = rnd() % 2 ? 0 : 1 + (int)(rnd() % (unsigned)(octets - 1));
        uint32_t c = lo[k] + (uint32_t)(rnd() % span[k]);
        if (k == 2 && c >= 0xD800)
            c += 0x800; /* 0800..FFFF without the surrogates */
        n += utf8kit_encode(c, (char *)p + n);
    }
    for (; n < want; n++)
        p[n] = 'a';
    return n;
}

/* One representative of every byte class the tables tell apart, and the
 * RFC 3629 boundaries. */
static const unsigned char reps[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                     0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                     0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF};
#define NREPS (sizeof reps)

int main(void)
{
    unsigned char *guard;
    unsigned char text[1024];
    size_t len, a, i, j, k, l, pos;
    test_begin();

    /* Page guards: s + n is the first byte of an unreadable page. */
    guard = test_guarded(1);
    for (int mix = 0; mix < 7; mix++) {
        make_text(text, 400, mix);
        for (len = 0; len <= 300; len++) {
            /* Ends at the guard: windows of valid text, cut anywhere. */
            for (a = 0; a < 4; a++) {
                memcpy(guard - len, text + a, len);
                same(guard - len, len, "guard-end", (size_t)mix, a);
            }
            if (len > 0) {
                /* a lead byte last, a bad byte last */
                memcpy(guard - len, text, len);
                guard[-1] = 0xF0;
                same(guard - len, len, "guard-lead", (size_t)mix, 0);
                guard[-1] = 0x80;
                same(guard - len, len, "guard-tail", (size_t)mix, 0);
            }
        }
        /* Every start alignment mod 64 (the page size is a multiple of
         * 64, so guard - 300 + a takes each once), running to the guard. */
        for (a = 0; a < 64; a++) {
            size_t n = 300 - a;
            unsigned char *s = guard - n;
            memcpy(s, text, n);
            same(s, n, "align", (size_t)mix, a);
        }
    }

    /* Every 4-byte combination of representatives, around block edges. */
    {
        static const size_t at[] = {0, 13, 14, 15, 29, 31, 61, 62, 63};
        size_t na = test_quick() ? 3 : sizeof at / sizeof at[0];
        unsigned char buf[80];
        for (pos = 0; pos < na; pos++) {
            size_t p = at[pos];
            for (i = 0; i < NREPS; i++)
                for (j = 0; j < NREPS; j++)
                    for (k = 0; k < NREPS; k++)
                        for (l = 0; l < NREPS; l++) {
                            unsigned char *s = guard - (p + 4);
                            memset(s, 'x', p);
                            s[p] = reps[i];
                            s[p + 1] = reps[j];
                            s[p + 2] = reps[k];
                            s[p + 3] = reps[l];
                            /* at the very end of the input */
                            {
                                utf8kit_result r = utf8kit_validate((const char *)s, p + 4);
                                utf8kit_result w = u8k_scalar_validate(s, p + 4);
                                CHECK(r.status == w.status && r.read == w.read &&
                                          r.error_len == w.error_len,
                                      "combo %02X %02X %02X %02X at %zu (end)", reps[i], reps[j],
                                      reps[k], reps[l], p);
                                CHECK(utf8kit_count((const char *)s, p + 4) ==
                                          u8k_scalar_count(s, p + 4),
                                      "combo count %02X %02X %02X %02X at %zu", reps[i], reps[j],
                                      reps[k], reps[l], p);
                            }
                            /* followed by text */
                            memset(buf, 'y', sizeof buf);
                            memcpy(buf, s, p + 4);
                            {
                                utf8kit_result r = utf8kit_validate((const char *)buf, sizeof buf);
                                utf8kit_result w = u8k_scalar_validate(buf, sizeof buf);
                                CHECK(r.status == w.status && r.read == w.read &&
                                          r.error_len == w.error_len,
                                      "combo %02X %02X %02X %02X at %zu (mid)", reps[i], reps[j],
                                      reps[k], reps[l], p);
                                CHECK(utf8kit_is_valid((const char *)buf, sizeof buf) ==
                                          (w.status == UTF8KIT_OK),
                                      "combo is_valid at %zu", p);
                            }
                        }
        }
    }

    /* Random text, mutated at every offset around the block edges. */
    {
        static const size_t edges[] = {16, 32, 64, 128, 192};
        int rounds = test_quick() ? 3 : 40;
        for (int round = 0; round < rounds; round++) {
            int mix = round % 4;
            size_t n = make_text(text, 200 + rnd() % 100, mix);
            unsigned char *s = dup_exact(text, n);
            same(s, n, "random", (size_t)round, 0);
            for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
                for (size_t d = 0; d < 8; d++) {
                    size_t p = edges[e] + d - 4;
                    unsigned char keep;
                    if (p >= n)
                        continue;
                    keep = s[p];
                    s[p] = (unsigned char)(round & 1 ? reps[rnd() % NREPS] : rnd());
                    same(s, n, "mutated", (size_t)round, p);
                    /* a second error later on: the first still wins */
                    if (p + 5 < n) {
                        unsigned char keep2 = s[p + 5];
                        s[p + 5] = 0xFF;
                        same(s, n, "mutated2", (size_t)round, p);
                        s[p + 5] = keep2;
                    }
                    /* cut the input right after the mutation */
                    same(s, p + 1, "mutated-cut", (size_t)round, p);
                    s[p] = keep;
                }
            free(s);
        }
    }
    /* Long inputs: several blocks of errors in a row, errors after long
     * valid runs (the count restarts), and pure ASCII. */
    {
        size_t n = 5000;
        unsigned char *big = malloc(n);
        for (int mix = 0; mix < 4; mix++) {
            size_t m = make_text(big, n, mix);
            for (i = 0; i < 40; i++) {
                size_t p = rnd() % m;
                big[p] = (unsigned char)rnd();
                same(big, m, "long", (size_t)mix, i);
            }
        }
        memset(big, 'a', n);
        same(big, n, "ascii", 0, 0);
        for (i = 0; i < n; i += 7)
            big[i] = 0x80 | (unsigned char)(i & 0x3F);
        same(big, n, "garbage", 0, 0);
        free(big);
    }
    /* Long inputs at every start alignment mod 64: validation reads an
     * input of U8K_ALIGN_MIN bytes or more as a first block at the start
     * and then aligned blocks from 3..63 bytes on. Valid text (with
     * characters across the aligned start at some alignment), and one
     * bad byte at every offset of the first two blocks. */
    {
        size_t n = U8K_ALIGN_MIN + 76, step = test_quick() ? 7 : 1;
        unsigned char *src = malloc(n), *area = malloc(n + 128);
        unsigned char *base = area + (64 - (uintptr_t)area % 64);
        for (int mix = 0; mix < 4; mix++) {
            size_t m = make_text(src, n, mix);
            for (a = 0; a < 64; a++) {
                unsigned char *s = base + a;
                memcpy(s, src, m);
                same(s, m, "aligned", (size_t)mix, a);
                same_counts(s, m, "aligned", (size_t)mix, a);
                for (pos = 0; pos < 140; pos += step) {
                    unsigned char keep = s[pos];
                    s[pos] = (pos + a) % 3 == 0 ? (unsigned char)rnd() : reps[(pos + a + (size_t)mix) % NREPS];
                    same(s, m, "aligned-bad", a, pos);
                    same_counts(s, m, "aligned-bad", a, pos);
                    s[pos] = keep;
                }
            }
        }
        free(src);
        free(area);
    }
    /* One byte replaced at every offset of texts of 1-2, 1-3 and 1-4 octet
     * characters, long enough for the block loops (from a fresh start,
     * and from an aligned start at U8K_ALIGN_MIN bytes or more): an ASCII
     * byte cuts a character short, a tail strays, a lead is cut short, so
     * that each check a loop chooses by the bytes it sees (text without
     * E0..FF, without F0..FF, any) meets every error at every place. */
    {
        static const unsigned char with[] = {0x41, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4};
        static const size_t lens[] = {700, U8K_ALIGN_MIN + 380};
        /* (messages give the offset and the byte put there) */
        static const char *const label[] = {"", "", "upto-2 at/byte", "upto-3 at/byte",
                                            "upto-4 at/byte"};
        size_t step = test_quick() ? 5 : 1;
        unsigned char *t = malloc(U8K_ALIGN_MIN + 380);
        for (int octets = 2; octets <= 4; octets++)
            for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                size_t m = make_text_upto(t, lens[li], octets);
                same(t, m, "upto", (size_t)octets, 0);
                for (pos = (size_t)octets % step; pos < m; pos += step) {
                    unsigned char keep = t[pos];
                    for (k = 0; k < sizeof with; k++) {
                        t[pos] = with[k];
                        same_valid(t, m, label[octets], pos, with[k]);
                    }
                    t[pos] = keep;
                }
            }
        free(t);
    }
    /* Runs of 4-octet characters, which AVX-512 checks a character per
     * 32-bit lane once a block of them alone has passed the block check
     * (u8k_vfour in simd/validate.h). Text: 0..7 bytes of other
     * characters (the run's phase against the blocks), then 1400 bytes of
     * 4-octet characters with the range's ends among them, then 0..5
     * ASCII bytes; at several start alignments (an input of 1024 bytes or
     * more is read in aligned blocks). In it: each byte replaced by bytes
     * of every class, each character replaced by the forms just outside
     * the range (F0 8F BF BF, F4 90 80 80) and just inside it, and the
     * input cut at every length. Then such text ending at a guard page,
     * every length 256..1024. Every validation and counting entry, and
     * utf8kit_validate_counts (the run counts its characters too). */
    {
        static const unsigned char with[] = {0x41, 0x80, 0x8F, 0x90, 0xBF, 0xC2,
                                             0xE0, 0xF0, 0xF4, 0xF5, 0xFF};
        static const char *const chars4[] = {"\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80",
                                             "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF",
                                             "\xF8\x88\x80\x80", "\xED\xA0\x80\x80"};
        static const char *const heads[] = {"", "a", "\xC3\xA9", "\xE4\xB8\x80",
                                            "ab\xC3\xA9", "\xE4\xB8\x80\xC3\xA9\x61",
                                            "a\xE4\xB8\x80\xC3\xA9", "abcdefg"};
        static const size_t aligns[] = {0, 1, 3, 17, 62};
        size_t step = test_quick() ? 7 : 1, run = 1400;
        unsigned char *area = malloc(run + 256), *t;
        for (size_t hi = 0; hi < sizeof heads / sizeof heads[0]; hi++) {
            size_t h = strlen(heads[hi]), tail = hi % 6, m = h + run + tail, q;
            t = area + (64 - (uintptr_t)area % 64) + aligns[hi % 5];
            memcpy(t, heads[hi], h);
            for (q = 0; q < run; q += 4) {
                uint32_t c = q == 8 ? 0x10000 : q == 12 ? 0x10FFFF : 0x10000 + rnd() % 0x100000;
                utf8kit_encode(c, (char *)t + h + q);
            }
            memset(t + h + run, 'z', tail);
            same_all(t, m, "run4", hi, 0);
            for (pos = h + hi % step; pos < m; pos += step) {
                unsigned char keep = t[pos];
                for (k = 0; k < sizeof with; k++) {
                    t[pos] = with[k];
                    same_all(t, m, "run4 at/byte", pos, with[k]);
                }
                t[pos] = keep;
            }
            for (q = hi % step; q < run; q += 4 * step) {
                unsigned char keep[4];
                memcpy(keep, t + h + q, 4);
                for (k = 0; k < sizeof chars4 / sizeof chars4[0]; k++) {
                    memcpy(t + h + q, chars4[k], 4);
                    same_all(t, m, "run4 char at/form", h + q, k);
                }
                memcpy(t + h + q, keep, 4);
            }
            for (len = 0; len <= m; len += step)
                same_all(t, len, "run4 cut", hi, len);
        }
        make_text(text, 1024, 6);
        for (len = 256; len <= 1024; len += test_quick() ? 9 : 1) {
            memcpy(guard - len, text, len);
            same_all(guard - len, len, "run4 guard-end", len % 4, 0);
        }
        free(area);
    }
    return test_done("simd_validate");
}
