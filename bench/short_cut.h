/*
 * bench/short_cut.h - the short strings of the benchmark: n strings of 8
 * to 64 bytes (more when the 64th byte is inside a character) cut at
 * character starts from valid UTF-8 text data[0..len), len >= 200, at
 * places drawn by a fixed xorshift sequence, so that every run and every
 * tool (bench.c, ab.c) times the same strings. off[k] and slen[k] give
 * string k.
 */
#ifndef UTF8KIT_BENCH_SHORT_CUT_H
#define UTF8KIT_BENCH_SHORT_CUT_H

#include <stddef.h>

static void bench_cut_short(const unsigned char *data, size_t len, size_t n, size_t *off,
                            size_t *slen)
{
    unsigned long long r = 88172645463325252ull;
    size_t k;
    for (k = 0; k < n; k++) {
        size_t o, l;
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        o = (size_t)(r % (len - 80));
        while ((data[o] & 0xC0) == 0x80)
            o++;
        l = 8 + (size_t)((r >> 32) % 57);
        while (o + l < len && (data[o + l] & 0xC0) == 0x80)
            l++;
        off[k] = o;
        slen[k] = l;
    }
}

#endif
