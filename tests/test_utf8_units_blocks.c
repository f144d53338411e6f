/*
 * test_utf8_units_blocks.c - UTF-8 -> UTF-16LE, UTF-16BE and UTF-32 of the
 * active kernel against the scalar reference kernel, aimed at the paths
 * of the fixed-stride block kernels (simd/compress.h): blocks of ASCII
 * and 2-byte characters only, of ASCII and 3-byte only, of anything (4-byte
 * characters: a UTF-16 high surrogate stored in one block, its low half in
 * the next), all-ASCII blocks, the masked last block, and the runs of
 * 4-byte characters (u8k_four_run) that text of them alone takes.
 *  - inputs of every length 0..64 (one masked block) cut from texts of
 *    each kind, with room for every unit, exactly enough, one unit short;
 *  - a 4-byte character starting at every offset 56..72 and 120..136 of
 *    texts of each kind (it crosses a block edge in every way);
 *  - after a valid stretch of each kind, one bad byte at every offset
 *    around the block edges (an error right after a fast stretch), and
 *    under U8K_TRUSTED never more units than input bytes;
 *  - overlong, surrogate and too-large forms at each character start
 *    around the block edges;
 *  - runs of 4-byte characters alone starting anywhere in a block, with
 *    an ill-formed or unfinished form at every character, strict and
 *    trusted (replacing: test_kernel_diff), and valid ones with room a
 *    little short;
 *  - long texts of each kind with the output room exactly sufficient, one
 *    unit short, and near every 64-unit step.
 * Status, read, written, error_len and the units written must all agree,
 * and nothing is written at or past cap (inputs in exact-size buffers).
 */
#include "internal.h"
#include "testlib.h"

static const u8k_kernels *K;
#define OUT_MAX 4096
static uint32_t want[OUT_MAX], got[OUT_MAX + 1];

/* One entry (0: UTF-16LE, 1: UTF-16BE, 2: UTF-32) of K and of the scalar
 * table on an exact-size copy of s[0..n), with capacity cap. */
static void compare1(const unsigned char *s, size_t n, size_t cap, int form, unsigned flags,
                     bool valid, const char *what)
{
    unsigned char *in = dup_exact(s, n);
    size_t us = form == 2 ? 4 : 2;
    unsigned fl = flags | (form == 1 ? U8K_BE : 0);
    utf8kit_result w, r;
    if (cap > OUT_MAX)
        cap = OUT_MAX;
    if (form == 2) {
        w = u8k_scalar_utf8_to_utf32(in, n, want, cap, fl);
        memset(got, 0xA5, sizeof got);
        r = K->utf8_to_utf32(in, n, got, cap, fl);
    } else {
        w = u8k_scalar_utf8_to_utf16(in, n, (uint16_t *)(void *)want, cap, fl);
        memset(got, 0xA5, sizeof got);
        r = K->utf8_to_utf16(in, n, (uint16_t *)(void *)got, cap, fl);
    }
    if (!valid && (flags & U8K_TRUSTED)) {
        /* invalid input under TRUSTED: any answer within the bounds */
        CHECK(r.written <= n && r.written <= cap && r.read <= n,
              "%s form %d len %zu cap %zu trusted: read %zu wrote %zu", what, form, n, cap, r.read,
              r.written);
    } else {
        CHECK(r.status == w.status && r.read == w.read && r.written == w.written &&
                  r.error_len == w.error_len,
              "%s form %d flags %u len %zu cap %zu: kernel %s read %zu wrote %zu elen %zu, "
              "scalar %s read %zu wrote %zu elen %zu",
              what, form, flags, n, cap, utf8kit_status_name(r.status), r.read, r.written,
              r.error_len, utf8kit_status_name(w.status), w.read, w.written, w.error_len);
        CHECK(r.written > cap || memcmp(got, want, r.written * us) == 0,
              "%s form %d len %zu cap %zu: units differ", what, form, n, cap);
    }
    /* the byte just past cap units keeps the fill pattern */
    CHECK(((unsigned char *)got)[cap * us] == 0xA5, "%s form %d len %zu cap %zu: wrote past cap",
          what, form, n, cap);
    free(in);
}

/* Every form, strict, and TRUSTED too (checked for bounds only when the
 * input is not valid; `valid` is what the test expects, checked against
 * the scalar validator). cap == 0 here means "room for every unit". */
static void compare(const unsigned char *s, size_t n, size_t cap, bool valid, const char *what)
{
    int form;
    bool ok = u8k_scalar_is_valid(s, n);
    CHECK(ok || !valid, "%s len %zu: test input not valid", what, n);
    valid = ok;
    if (cap == 0)
        cap = n;
    for (form = 0; form < 3; form++) {
        compare1(s, n, cap, form, 0, valid, what);
        compare1(s, n, cap, form, U8K_TRUSTED, valid, what);
    }
}

/* Kinds of text: 0 ASCII + 2-byte, 1 ASCII + 3-byte, 2 pure 2-byte,
 * 3 pure 3-byte, 4 ASCII + 4-byte, 5 everything, 6 pure 4-byte, 7 3-byte
 * and 4-byte (runs of 4-byte characters tried and cut short). The edge values of each
 * length come up often (80, 7FF, 800, FFFF, D7FF, E000, 10000, 10FFFF). */
static uint32_t rand_cp(int kind)
{
    static const uint32_t edges2[] = {0x80, 0x7FF, 0xC0, 0x400};
    static const uint32_t edges3[] = {0x800, 0xFFFF, 0xD7FF, 0xE000, 0x4E00, 0xFFFD};
    static const uint32_t edges4[] = {0x10000, 0x10FFFF, 0x1F600, 0x20000};
    uint32_t r = rnd() % 16, c;
    int len;
    switch (kind) {
    case 0: len = r < 5 ? 1 : 2; break;
    case 1: len = r < 5 ? 1 : 3; break;
    case 2: len = 2; break;
    case 3: len = 3; break;
    case 4: len = r < 6 ? 1 : 4; break;
    case 6: len = 4; break;
    case 7: len = r < 6 ? 3 : 4; break;
    default: len = 1 + (int)(r % 4); break;
    }
    if (len == 1)
        return rnd() % 0x80;
    if (rnd() % 8 == 0)
        return len == 2 ? edges2[rnd() % 4] : len == 3 ? edges3[rnd() % 6] : edges4[rnd() % 4];
    if (len == 2)
        return 0x80 + rnd() % 0x780;
    if (len == 3) {
        c = 0x800 + rnd() % 0xF800;
        return c >= 0xD800 && c < 0xE000 ? 0xFFFD : c;
    }
    return 0x10000 + rnd() % 0x100000;
}

static size_t text(unsigned char *p, size_t min, int kind)
{
    size_t n = 0;
    while (n < min) {
        char t[4];
        size_t k = utf8kit_encode(rand_cp(kind), t);
        memcpy(p + n, t, k);
        n += k;
    }
    return n;
}

#define KINDS 8

int main(void)
{
    static unsigned char s[4096];
    static const unsigned char bad[] = {0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
                                        0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x41};
    size_t n, k, at, len;
    int kind;
    test_begin();
    test_seed(0xD1B54A32D192ED03u);
    K = u8k_active();

    /* Short inputs: every length 0..64 cut from a text of each kind at a
     * character start (so valid when the cut at the end is too), with
     * room for all, exactly enough, one short. */
    for (kind = 0; kind < KINDS; kind++) {
        int rep;
        for (rep = 0; rep < 6; rep++) {
            n = text(s, 200, kind);
            for (len = 0; len <= 64; len++) {
                size_t start = rnd() % 64, end;
                utf8kit_result w;
                while (start > 0 && u8k_is_cont(s[start]))
                    start--;
                end = start + len;
                compare(s + start, len, 0, false, "short");
                /* the units the whole prefix gives, when it is valid */
                w = u8k_scalar_utf8_to_utf32(s + start, len, want, OUT_MAX, 0);
                if (w.status == UTF8KIT_OK) {
                    utf8kit_result w16 =
                        u8k_scalar_utf8_to_utf16(s + start, len, (uint16_t *)(void *)want, OUT_MAX, 0);
                    int form;
                    for (form = 0; form < 3; form++) {
                        size_t units = form == 2 ? w.written : w16.written;
                        compare1(s + start, len, units, form, 0, true, "short exact room");
                        if (units > 0)
                            compare1(s + start, len, units - 1, form, 0, true, "short one unit short");
                    }
                }
                (void)end;
            }
        }
    }

    /* A 4-byte character at every offset around the first two block
     * edges, in each kind of text, then more text. */
    for (kind = 0; kind < KINDS; kind++) {
        for (at = 56; at <= 136; at++) {
            size_t j;
            if (at > 72 && at < 120)
                continue;
            n = text(s, 300, kind);
            j = at;
            while (j > 0 && u8k_is_cont(s[j]))
                j--;
            memmove(s + j + 4, s + j, n - j);
            memcpy(s + j, (rnd() & 1) ? "\xF0\x90\x80\x80" : "\xF4\x8F\xBF\xBF", 4);
            compare(s, n + 4, 0, true, "4-byte at a block edge");
            /* and cut inside it: an unfinished character then more text */
            memmove(s + j + 2, s + j + 4, n - j);
            compare(s, n + 2, 0, false, "cut 4-byte at a block edge");
        }
    }

    /* After a valid stretch of each kind (the fast path of that kind), one
     * bad byte at every offset around 64 and 128 and 192. */
    for (kind = 0; kind < KINDS; kind++) {
        for (at = 58; at <= 198; at++) {
            unsigned char b = bad[rnd() % sizeof bad];
            if ((at > 70 && at < 122) || (at > 134 && at < 186))
                continue;
            n = text(s, 400, kind);
            s[at] = b;
            compare(s, n, 0, false, "bad byte after a stretch");
            /* the same byte inserted at a character start */
            k = at;
            while (k > 0 && u8k_is_cont(s[k]))
                k--;
            n = text(s, 400, kind);
            memmove(s + k + 1, s + k, n - k);
            s[k] = b;
            compare(s, n + 1, 0, false, "inserted bad byte after a stretch");
        }
    }

    /* Forms that look right to a check of the byte classes alone
     * (overlong, surrogate, too large), inserted at each character start
     * around 64 and 128 in each kind of text. */
    for (kind = 0; kind < KINDS; kind++) {
        static const char *const forms[] = {"\xE0\x80\x80", "\xE0\x9F\xBF", "\xED\xA0\x80",
                                            "\xED\xBF\xBF", "\xC0\x80", "\xC1\xBF",
                                            "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80",
                                            "\xF5\x80\x80\x80"};
        for (at = 56; at <= 136; at++) {
            const char *f = forms[rnd() % 9];
            size_t fl = strlen(f), j = at;
            if (at > 72 && at < 120)
                continue;
            n = text(s, 300, kind);
            while (j > 0 && u8k_is_cont(s[j]))
                j--;
            memmove(s + j + fl, s + j, n - j);
            memcpy(s + j, f, fl);
            compare(s, n + fl, 0, false, "ill-formed sequence at a block edge");
        }
    }

    /* Runs of 4-byte characters alone (u8k_four_run, and on the kernels
     * without byte compress u8k_four_run_pext): after 0 and 2..9 bytes of
     * 2- and 3-byte characters (so that the run starts anywhere in a
     * block), 60 such characters, one of them replaced by an ill-formed
     * or unfinished form at every position (or a valid one), then ASCII
     * or more of them; strict and trusted, with room for every unit, and
     * for the valid text exactly enough and a little less. */
    for (k = 0; k < 10; k++) {
        static const char *const forms4[] = {
            "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF0\x90\x80",
            "\xF0\x90\x80\x41", "\xF0\x90\xC0\x80", "\xED\xA0\x80\x80", "\xF0\x80\x80\x80",
            "\xF7\xBF\xBF\xBF", "\xF8\x88\x80\x80", "\x80\x80\x80\x80", "\xC3\xA9\x80\x80",
            "\xF9\x90\x80\x80", "\xFA\x80\x80\x80", "\xF0\x9F\x98\x80"};
        static const size_t nforms = sizeof forms4 / sizeof forms4[0];
        if (k == 1)
            continue; /* no 1-byte prefix without ASCII */
        for (at = 0; at <= 60; at++) {
            size_t pre = 0, j, c, fl;
            const char *f = forms4[at == 0 ? nforms - 1 : rnd() % nforms];
            while (pre < k) {
                /* 3-byte characters while they fit, a 2-byte one (or
                 * two) to make up the rest */
                if (k - pre == 2 || k - pre == 4)
                    pre += utf8kit_encode(0x80 + rnd() % 0x780, (char *)s + pre);
                else
                    pre += utf8kit_encode(0x800 + rnd() % 0x7800, (char *)s + pre);
            }
            n = pre;
            for (c = 0; c < 60; c++)
                n += utf8kit_encode(rand_cp(6), (char *)s + n);
            n = n + (rnd() & 1 ? 0 : text(s + n, 40, 6)); /* more of them, or not */
            memcpy(s + n, "tail", 4);
            n += 4;
            {
                int form;
                unsigned fls[] = {0, U8K_TRUSTED};
                for (form = 0; form < 3; form++) {
                    utf8kit_result w =
                        form == 2 ? u8k_scalar_utf8_to_utf32(s, n, want, OUT_MAX, 0)
                                  : u8k_scalar_utf8_to_utf16(s, n, (uint16_t *)(void *)want,
                                                             OUT_MAX, 0);
                    CHECK(w.status == UTF8KIT_OK, "4-byte run: test text not valid");
                    for (c = 0; c < 3 && c <= w.written; c++)
                        compare1(s, n, w.written - c, form, 0, true, "4-byte run, room");
                    compare1(s, n, n, form, U8K_TRUSTED, true, "4-byte run, trusted");
                }
                /* character `at` of the run (at 60: what follows the
                 * run) replaced by form f */
                j = pre + 4 * at;
                fl = strlen(f);
                memmove(s + j + fl, s + j + 4, n - j - 4);
                memcpy(s + j, f, fl);
                n = n - 4 + fl;
                for (form = 0; form < 3; form++)
                    for (c = 0; c < 2; c++)
                        compare1(s, n, n, form, fls[c], false, "4-byte run with a bad form");
            }
        }
    }

    /* Long texts: room exactly sufficient, one short, and near 64-unit
     * steps. */
    for (kind = 0; kind < KINDS; kind++) {
        int form;
        n = text(s, 1500 + rnd() % 64, kind);
        for (form = 0; form < 3; form++) {
            utf8kit_result w = form == 2 ? u8k_scalar_utf8_to_utf32(s, n, want, OUT_MAX, 0)
                                         : u8k_scalar_utf8_to_utf16(s, n, (uint16_t *)(void *)want,
                                                                    OUT_MAX, 0);
            size_t c;
            compare1(s, n, w.written, form, 0, true, "long exact room");
            compare1(s, n, w.written - 1, form, 0, true, "long one unit short");
            compare1(s, n, w.written, form, U8K_TRUSTED, true, "long exact room trusted");
            for (c = 60; c < w.written; c += 61 + rnd() % 8)
                compare1(s, n, c, form, 0, true, "long capacity");
        }
    }
    return test_done("utf8_units_blocks");
}
