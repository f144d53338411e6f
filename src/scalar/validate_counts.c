/*
 * validate_counts.c - the byte-class tally and the scalar reference of
 * utf8kit_validate_counts: the reference validator, then a tally of the
 * valid prefix it found.
 *
 * The tally works on 64-bit words, eight bytes side by side (SWAR). For
 * each class it makes a word whose byte k is 1 when byte k of the input
 * belongs to the class, 0 otherwise, and adds these words up; every byte
 * of the sum is a separate counter, which can take 255 words before it
 * would carry into its neighbour, so the sums are folded into 64-bit
 * totals every 255 words.
 */
#include "internal.h"

#define ONES UINT64_C(0x0101010101010101)
#define HIGH UINT64_C(0x8080808080808080)
#define LOW7 UINT64_C(0x7F7F7F7F7F7F7F7F)

/* The sum of the eight byte counters of w (each <= 255): pairs first, so
 * that no partial sum exceeds 16 bits, then one multiply adds the four
 * 16-bit lanes into the top one. */
static uint64_t fold(uint64_t w)
{
    w = (w & UINT64_C(0x00FF00FF00FF00FF)) + (w >> 8 & UINT64_C(0x00FF00FF00FF00FF));
    return (w * UINT64_C(0x0001000100010001)) >> 48;
}

/* The byte-class words of one input word w; byte k of each is 0 or 1:
 *  nl: byte == 0A. x = w ^ 0A..0A has a zero byte exactly there; adding
 *      7F to the low 7 bits of a byte sets its bit 7 unless they were all
 *      zero, and cannot carry out of the byte (7F + 7F = FE).
 *  a:  bit 7 clear (00..7F).
 *  c0, e0, f0: bits 7-6, 7-5, 7-4 all set (C0..FF, E0..FF, F0..FF);
 *      w << j moves bit 7 - j of each byte to its bit 7 (bits shifted in
 *      from the byte below land lower and are masked off). */
#define CLASSES(w)                                                                          \
    uint64_t x_ = (w) ^ (ONES * 0x0A);                                                      \
    uint64_t nl = ~(((x_ & LOW7) + LOW7) | x_) & HIGH;                                      \
    uint64_t c0 = (w) & (w) << 1, e0 = c0 & (w) << 2, f0 = e0 & (w) << 3;                   \
    uint64_t a = ~(w) & HIGH

static void tally(utf8kit_counts *t, const unsigned char *p, size_t n, bool sub)
{
    uint64_t lines = 0, s1 = 0, ge_c0 = 0, ge_e0 = 0, ge_f0 = 0;
    size_t i;
    while (n >= 8) {
        size_t words = n / 8 < 255 ? n / 8 : 255;
        uint64_t vnl = 0, va = 0, vc = 0, ve = 0, vf = 0;
        for (i = 0; i < words; i++) {
            uint64_t w;
            memcpy(&w, p + 8 * i, 8);
            {
                CLASSES(w);
                vnl += nl >> 7;
                va += a >> 7;
                vc += (c0 & HIGH) >> 7;
                ve += (e0 & HIGH) >> 7;
                vf += (f0 & HIGH) >> 7;
            }
        }
        lines += fold(vnl);
        s1 += fold(va);
        ge_c0 += fold(vc);
        ge_e0 += fold(ve);
        ge_f0 += fold(vf);
        p += 8 * words;
        n -= 8 * words;
    }
    for (i = 0; i < n; i++) {
        unsigned b = p[i];
        lines += b == 0x0A;
        s1 += b < 0x80;
        ge_c0 += b >= 0xC0;
        ge_e0 += b >= 0xE0;
        ge_f0 += b >= 0xF0;
    }
    if (sub) {
        t->lines -= lines;
        t->seq[1] -= s1;
        t->seq[2] -= ge_c0 - ge_e0;
        t->seq[3] -= ge_e0 - ge_f0;
        t->seq[4] -= ge_f0;
    } else {
        t->lines += lines;
        t->seq[1] += s1;
        t->seq[2] += ge_c0 - ge_e0;
        t->seq[3] += ge_e0 - ge_f0;
        t->seq[4] += ge_f0;
    }
}

void u8k_tally_add(utf8kit_counts *t, const unsigned char *p, size_t n) { tally(t, p, n, false); }

void u8k_tally_sub(utf8kit_counts *t, const unsigned char *p, size_t n) { tally(t, p, n, true); }

utf8kit_result u8k_scalar_validate_counts(const unsigned char *s, size_t len,
                                          utf8kit_counts *counts)
{
    utf8kit_result r = u8k_scalar_validate(s, len);
    tally(counts, s, r.read, false);
    return r;
}
