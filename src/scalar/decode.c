/*
 * decode.c - the RFC 3629 decoder: the reference every kernel must match.
 *
 * RFC 3629 section 4 gives UTF-8 as this ABNF:
 *
 *   UTF8-1 = %x00-7F
 *   UTF8-2 = %xC2-DF UTF8-tail
 *   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
 *            %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
 *   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
 *            %xF4 %x80-8F 2( UTF8-tail )
 *   UTF8-tail = %x80-BF
 *
 * So the first byte alone fixes the length of the sequence and the range
 * its second byte must lie in; every later byte is a plain UTF8-tail.
 * The two tables below are that grammar, row for row. Each restricted
 * second-byte range exists for one reason, which is also the error kind
 * when a continuation byte falls outside it:
 *
 *   E0 A0..BF   below A0 the value is < U+0800: overlong
 *   ED 80..9F   above 9F the value is U+D800..U+DFFF: surrogate
 *   F0 90..BF   below 90 the value is < U+10000: overlong
 *   F4 80..8F   above 8F the value is > U+10FFFF: too large
 */
#include "internal.h"

/* Second-byte ranges, indexed by the high bits of u8k_first[]. */
enum { TAIL = 0, E0R = 1, EDR = 2, F0R = 3, F4R = 4 };

const struct u8k_range u8k_accept[5] = {
    [TAIL] = {0x80, 0xBF, UTF8KIT_ERR_MISSING_CONTINUATION},
    [E0R] = {0xA0, 0xBF, UTF8KIT_ERR_OVERLONG},
    [EDR] = {0x80, 0x9F, UTF8KIT_ERR_SURROGATE},
    [F0R] = {0x90, 0xBF, UTF8KIT_ERR_OVERLONG},
    [F4R] = {0x80, 0x8F, UTF8KIT_ERR_TOO_LARGE},
};

/* A cell: sequence length n (0..4) and second-byte range r. */
#define C(n, r) ((unsigned char)((r) << 3 | (n)))
#define A1 C(1, TAIL) /* 00..7F  UTF8-1 */
#define XX C(0, TAIL) /* 80..BF, C0, C1, F5..FF: no character starts here */
#define S2 C(2, TAIL) /* C2..DF */
#define S3 C(3, TAIL) /* E1..EC, EE..EF */
#define E0 C(3, E0R)
#define ED C(3, EDR)
#define S4 C(4, TAIL) /* F1..F3 */
#define F0 C(4, F0R)
#define F4 C(4, F4R)

/* clang-format off */
const unsigned char u8k_first[256] = {
    /*       0   1   2   3   4   5   6   7   8   9   A   B   C   D   E   F */
    /* 0 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 1 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 2 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 3 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 4 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 5 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 6 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 7 */ A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1, A1,
    /* 8 */ XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    /* 9 */ XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    /* A */ XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    /* B */ XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
    /* C */ XX, XX, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2,
    /* D */ S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2, S2,
    /* E */ E0, S3, S3, S3, S3, S3, S3, S3, S3, S3, S3, S3, S3, ED, S3, S3,
    /* F */ F0, S4, S4, S4, F4, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX,
};
/* clang-format on */

/* Why a byte that starts no character is wrong. C0 and C1 would start a
 * 2-octet form of U+0000..U+007F (overlong: RFC 3629 section 10's C0 80
 * and C0 AE), F5..F7 a 4-octet form above U+10FFFF; said only when a
 * continuation byte follows, since otherwise no form is begun at all. */
static utf8kit_status bad_first(const unsigned char *s, size_t len)
{
    unsigned b = s[0];
    if (b < 0xC0)
        return UTF8KIT_ERR_STRAY_CONTINUATION;
    if (len >= 2 && u8k_is_cont(s[1])) {
        if (b <= 0xC1)
            return UTF8KIT_ERR_OVERLONG;
        if (b <= 0xF7)
            return UTF8KIT_ERR_TOO_LARGE;
    }
    return UTF8KIT_ERR_INVALID_LEAD;
}

utf8kit_status u8k_decode_step(const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    unsigned b0 = s[0], cell = u8k_first[b0], need = cell & 7;
    const struct u8k_range *r = &u8k_accept[cell >> 3];
    utf8kit_status err;
    uint32_t c;
    size_t i;

    if (b0 < 0x80) {
        *cp = b0;
        *n = 1;
        return UTF8KIT_OK;
    }
    if (need == 0) {
        err = bad_first(s, len);
        i = 1;
        goto fail;
    }
    /* The lead byte keeps 7 - need bits of the value (RFC 3629 section 3). */
    c = b0 & (0x7Fu >> need);
    for (i = 1; i < need; i++) {
        unsigned b;
        if (i == len) {
            err = UTF8KIT_ERR_TRUNCATED;
            goto fail;
        }
        b = s[i];
        if (i == 1 ? (b - r->lo > (unsigned)(r->hi - r->lo)) : !u8k_is_cont((unsigned char)b)) {
            err = u8k_is_cont((unsigned char)b) ? (utf8kit_status)r->kind
                                                 : UTF8KIT_ERR_MISSING_CONTINUATION;
            goto fail;
        }
        c = c << 6 | (b & 0x3Fu);
    }
    *cp = c;
    *n = need;
    return UTF8KIT_OK;
fail:
    *cp = UTF8KIT_REPLACEMENT_CHARACTER;
    *n = i;
    return err;
}

size_t u8k_scalar_ascii_prefix(const unsigned char *s, size_t len)
{
    size_t i = 0;
    /* Eight bytes at a time: a word with no high bit set is all ASCII. */
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & UINT64_C(0x8080808080808080))
            break;
    }
    while (i < len && s[i] < 0x80)
        i++;
    return i;
}

/* slow_step is the error path of precise(), kept out of line so that its
 * loop keeps its variables in registers. */
static size_t slow_step(const unsigned char *s, size_t len, utf8kit_status *st)
{
    uint32_t cp;
    size_t n;
    *st = u8k_decode_step(s, len, &cp, &n);
    return n;
}

/* precise validates character by character from a character boundary
 * and describes the first error: the reference, used where the automaton
 * below has seen one. */
static utf8kit_result precise(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n;
        if (s[i] < 0x80) {
            /* A lone ASCII byte (a space between words) costs one test;
             * a longer run goes eight bytes at a time. */
            if (++i < len && s[i] < 0x80)
                i += u8k_scalar_ascii_prefix(s + i, len - i);
            continue;
        }
        n = u8k_valid_len(s, i, len);
        if (U8K_UNLIKELY(n == 0)) {
            utf8kit_status st;
            n = slow_step(s + i, len - i, &st);
            if (st != UTF8KIT_OK)
                return u8k_res(st, i, 0, n);
        }
        i += n;
    }
    return u8k_res(UTF8KIT_OK, len, 0, 0);
}

/*
 * The fast path: the ABNF above as a finite automaton, one table load and
 * one shift per byte with no branch. Its states:
 *
 *   ERR  an error was seen (it never leaves it)
 *   ACC  at a character boundary
 *   T1, T2, T3  1, 2, 3 UTF8-tail bytes still wanted
 *   AE0  after E0 (wants A0..BF, then a tail)
 *   AED  after ED (wants 80..9F, then a tail)
 *   AF0  after F0 (wants 90..BF, then two tails)
 *   AF4  after F4 (wants 80..8F, then two tails)
 *
 * Each state is a shift count, a multiple of 6 below 64, and the entry of
 * byte b holds, in its 6 bits at each state's count, the count of the
 * state b leads to from there; so next = dfa[b] >> state picks it (the
 * bits above it are ignored: x86 and AArch64 shifts take the count modulo
 * 64, and the & 63 that C needs costs nothing). The load does not depend
 * on the state, so the chain from byte to byte is the shift alone. ERR is
 * count 0 and its bits are 0 in every entry, so it stays put.
 */
enum { ERR = 0, ACC = 6, T1 = 12, T2 = 18, T3 = 24, AE0 = 30, AED = 36, AF0 = 42, AF4 = 48 };

/* An entry: the next state from ACC, T1, T2, T3, AE0, AED, AF0, AF4. */
#define ROW(acc, t1, t2, t3, ae0, aed, af0, af4)                                                   \
    ((uint64_t)(acc) << ACC | (uint64_t)(t1) << T1 | (uint64_t)(t2) << T2 |                        \
     (uint64_t)(t3) << T3 | (uint64_t)(ae0) << AE0 | (uint64_t)(aed) << AED |                      \
     (uint64_t)(af0) << AF0 | (uint64_t)(af4) << AF4)
/* the byte classes of the ABNF */
#define ASC ROW(ACC, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* 00..7F */
#define T8 ROW(ERR, ACC, T1, T2, ERR, T1, ERR, T2)      /* 80..8F */
#define T9 ROW(ERR, ACC, T1, T2, ERR, T1, T2, ERR)      /* 90..9F */
#define TA ROW(ERR, ACC, T1, T2, T1, ERR, T2, ERR)      /* A0..BF */
#define BAD ROW(ERR, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* C0, C1, F5..FF */
#define L2 ROW(T1, ERR, ERR, ERR, ERR, ERR, ERR, ERR)   /* C2..DF */
#define LE0 ROW(AE0, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* E0 */
#define L3 ROW(T2, ERR, ERR, ERR, ERR, ERR, ERR, ERR)   /* E1..EC, EE..EF */
#define LED ROW(AED, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* ED */
#define LF0 ROW(AF0, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* F0 */
#define L4 ROW(T3, ERR, ERR, ERR, ERR, ERR, ERR, ERR)   /* F1..F3 */
#define LF4 ROW(AF4, ERR, ERR, ERR, ERR, ERR, ERR, ERR) /* F4 */
#define X4(x) x, x, x, x
#define X16(x) X4(x), X4(x), X4(x), X4(x)

static const uint64_t dfa[256] = {
    /* 00..7F */ X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC), X16(ASC),
    /* 80..8F */ X16(T8),
    /* 90..9F */ X16(T9),
    /* A0..BF */ X16(TA), X16(TA),
    /* C0..CF */ BAD, BAD, L2, L2, X4(L2), X4(L2), X4(L2),
    /* D0..DF */ X16(L2),
    /* E0..EF */ LE0, L3, L3, L3, X4(L3), X4(L3), L3, LED, L3, L3,
    /* F0..FF */ LF0, L4, L4, L4, LF4, BAD, BAD, BAD, X4(BAD), X4(BAD),
};

/* Bytes run through the automaton between two looks at its state. */
#define DFA_CHUNK 32

/* The whole-chunk step runs two automata at once, since one byte's shift
 * waits for the one before (about two cycles a byte with a baseline x86
 * shift by CL): A over [i, i + 32) from the current state, B over
 * [j, j + 32) from ACC, where j is the first byte at or after i + 32 that
 * is not a tail (at most 3 later: a 4th tail in a row is an error). Valid
 * text has a character start at j, so A, continued over the tails up to
 * j, must end in ACC there; B then holds the state at j + 32. */
#define HIGHS UINT64_C(0x80808080)

/* Eight bytes from p, the first in the low byte. */
static uint64_t load_le64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The rules of text of 1- and 2-octet characters on the word x (eight
 * bytes; each byte's flags in its bit 7), after `cin` (bit 7: the byte
 * before x is a lead): h, the bytes 80..FF; l, the leads among them (bit
 * 6 set too); a tail is h ^ l. Non-zero when x breaks one: a lead E0..FF
 * (bit 5 set as well; a shift carries bits into the next byte's low bits
 * only, and those are masked off), a tail not right after a lead or a
 * lead not followed by one, a lead C0 or C1 (bits 1..4 all zero: bit 7 of
 * (x & 1E) + 7F is clear just then, with no carry between bytes, 1E + 7F
 * < 100). *lead gets l. */
static inline uint64_t two_octet_breaks(uint64_t x, uint64_t cin, uint64_t *lead)
{
    const uint64_t hi = UINT64_C(0x8080808080808080);
    const uint64_t m1e = UINT64_C(0x1E1E1E1E1E1E1E1E), m7f = UINT64_C(0x7F7F7F7F7F7F7F7F);
    uint64_t h = x & hi, l = h & x << 1;
    *lead = l;
    return (l & x << 2) | ((h ^ l) ^ (l << 8 | cin)) | (l & ~((x & m1e) + m7f));
}

/* Text of 1- and 2-octet characters, eight bytes at a time while a word
 * holds no byte E0..FF, from i in automaton state *st. It goes on only
 * from ACC or T1 (one tail wanted first), and returns where it stopped,
 * with *st the state there. The ABNF asks for a tail exactly after each
 * lead and for no lead C0 or C1 (two_octet_breaks); a word that breaks
 * that is left to the automaton, which finds the error. About 12
 * operations a word where the automaton takes five a byte. */
static size_t two_octet_words(const unsigned char *s, size_t i, size_t len, uint64_t *st)
{
    const uint64_t hi = UINT64_C(0x8080808080808080);
    uint64_t carry, x, l, l1;
    /* The first word is tested for E0..FF before the state: text of
     * 3- and 4-octet characters then leaves by one branch that is always
     * taken, where the state, which differs from chunk to chunk, would be
     * mispredicted. */
    if (len - i < 8)
        return i;
    x = load_le64(s + i);
    if (x & x << 1 & x << 2 & hi)
        return i;
    if ((*st & 63) != ACC && (*st & 63) != T1)
        return i;
    carry = (*st & 63) == T1;
    /* Two words a step while both keep the rules (one test for both); a
     * step that does not goes on in the loop below from its first word,
     * which finds where to stop. */
    for (; len - i >= 16; i += 16) {
        uint64_t x1 = load_le64(s + i + 8);
        x = load_le64(s + i);
        if ((((x | x1) & hi) | carry) == 0)
            continue; /* ASCII */
        if (two_octet_breaks(x, carry << 7, &l) | two_octet_breaks(x1, l >> 56, &l1))
            break;
        carry = l1 >> 63;
    }
    for (; len - i >= 8; i += 8) {
        x = load_le64(s + i);
        if (((x & hi) | carry) == 0)
            continue; /* ASCII */
        if (two_octet_breaks(x, carry << 7, &l))
            break;
        carry = l >> 63;
    }
    *st = carry ? T1 : ACC;
    return i;
}

/* Text of 3-octet characters (CJK, and runs of many other scripts), two
 * characters to a word, from a character boundary; returns where it
 * stopped, at a boundary. A word goes on when its first six bytes are two
 * 1110xxxx 10xxxxxx 10xxxxxx sequences that are neither overlong (E0 80..9F)
 * nor surrogates (ED A0..BF). Per character, z = the lead's low 4 bits
 * times 2 plus bit 5 of the first tail is 0 exactly for E0 80..9F and 27
 * exactly for ED A0..BF; z + 1F sets bit 5 when z != 0, (z ^ 27) + 1F
 * when z != 27 (z <= 31: no carry leaves the field). About 15 operations
 * a word, 2.5 a byte, where the automaton takes five; any other word (an
 * ASCII byte, a 2- or 4-octet character) is left to the automaton. */
static inline uint64_t three_octet_breaks(uint64_t x)
{
    const uint64_t form = UINT64_C(0x0000C0C0F0C0C0F0), want = UINT64_C(0x00008080E08080E0);
    const uint64_t nib = UINT64_C(0x0F00000F), b5 = UINT64_C(0x01000001);
    const uint64_t m1f = UINT64_C(0x1F00001F), n27 = UINT64_C(0x1B00001B);
    const uint64_t bit5 = UINT64_C(0x20000020);
    uint64_t z = (x & nib) << 1 | (x >> 13 & b5);
    return ((x & form) ^ want) | ((((z + m1f) & ((z ^ n27) + m1f)) & bit5) ^ bit5);
}

static U8K_NOINLINE size_t three_octet_words(const unsigned char *s, size_t i, size_t len)
{
    /* Two words a step (12 bytes, one test); the step that fails goes on
     * word by word to find where to stop. */
    for (; len - i >= 14; i += 12)
        if (three_octet_breaks(load_le64(s + i)) | three_octet_breaks(load_le64(s + i + 6)))
            break;
    for (; len - i >= 8; i += 6)
        if (three_octet_breaks(load_le64(s + i)))
            break;
    return i;
}

/* Text of 4-octet characters (emoji, historic scripts), two characters
 * to a word, from a character boundary; returns where it stopped, at a
 * boundary. A word goes on when it is two 11110xxx 10xxxxxx 10xxxxxx
 * 10xxxxxx sequences whose code points are U+10000..U+10FFFF: bits 12..20
 * of each, the lead's 3 bits above the first tail's 6, must be 0x10..0x10F
 * (F0 80..8F is overlong, F4 90..BF and F5..F7 are above U+10FFFF).
 * Adding F0 to each 32-bit half maps exactly those values to 0x100..0x1FF,
 * the only ones with bit 8 set (no value reaches 0x300: 0x1FF + 0xF0 =
 * 0x2EF). About 15 operations a word where the automaton takes five a
 * byte; any other word is left to the automaton. Aligned: its loop then
 * starts 0x60 into the function and fits two 32-byte fetch windows;
 * where the linker left it straddling three, Emoji text was validated
 * 24% slower (Zen 5), with the same instructions. */
static U8K_NOINLINE U8K_ALIGN64 size_t four_octet_words(const unsigned char *s, size_t i, size_t len)
{
    const uint64_t form = UINT64_C(0xC0C0C0F8C0C0C0F8), want = UINT64_C(0x808080F0808080F0);
    const uint64_t lead3 = UINT64_C(0x0000000700000007), tail6 = UINT64_C(0x0000003F0000003F);
    const uint64_t bias = UINT64_C(0x000000F0000000F0), bit8 = UINT64_C(0x0000010000000100);
    for (; len - i >= 8; i += 8) {
        uint64_t x = load_le64(s + i), v;
        if ((x & form) != want)
            break;
        v = (x & lead3) << 6 | (x >> 8 & tail6);
        if (((v + bias) & bit8) != bit8)
            break;
    }
    return i;
}

utf8kit_result u8k_scalar_validate(const unsigned char *s, size_t len)
{
    size_t i = 0, from, k;
    uint64_t st = ACC;
    utf8kit_result r;
    if (u8k_short_ascii(s, len))
        return u8k_res(UTF8KIT_OK, len, 0, 0);
    for (;;) {
        /* At a boundary, an ASCII run goes eight bytes at a time, and
         * then text of 1- and 2-octet characters. */
        if ((st & 63) == ACC) {
            for (; i + 8 <= len; i += 8) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                if (w & UINT64_C(0x8080808080808080))
                    break;
            }
        }
        i = two_octet_words(s, i, len, &st);
        /* In text of 3-octet characters a chunk of the automaton mostly
         * ends one tail short of a boundary (32 = 3 * 10 + 2), where
         * two_octet_words does not go on: that tail is taken here, so that
         * three_octet_words can. */
        if ((st & 63) == T1 && i < len && (s[i] & 0xC0) == 0x80) {
            st = ACC;
            i++;
        }
        if ((st & 63) == ACC && i < len && s[i] >= 0xF0)
            i = four_octet_words(s, i, len);
        else if ((st & 63) == ACC && len - i >= 2 * DFA_CHUNK + 3 && (s[i] & 0xF0) == 0xE0)
            i = three_octet_words(s, i, len);
        from = i;
        if (len - i >= 2 * DFA_CHUNK + 3) {
            uint32_t w, nt;
            uint64_t a = st, b = ACC;
            size_t j;
            memcpy(&w, s + i + DFA_CHUNK, 4);
            /* bit 7 of each byte of nt: that byte is not a tail (10xxxxxx
             * has bit 7 set and bit 6 clear) */
            nt = (~w | w << 1) & (uint32_t)HIGHS;
            if (nt == 0) {
                st = ERR;
                break;
            }
            /* byte order: the first byte is the lowest on little-endian
             * machines, the highest on big-endian ones */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            j = i + DFA_CHUNK + (size_t)(__builtin_clz(nt) / 8);
#else
            j = i + DFA_CHUNK + (size_t)(__builtin_ctz(nt) / 8);
#endif
            /* eight bytes of each a step, at fixed offsets from two
             * pointers: fewer instructions per byte around the shifts
             * than an index loop (gcc 12: 20-25% less time) */
            for (k = 0; k < DFA_CHUNK; k += 8) {
                const unsigned char *pa = s + i + k, *pb = s + j + k;
#define DFA_AB(n)                                                                                  \
    a = dfa[pa[n]] >> (a & 63);                                                                    \
    b = dfa[pb[n]] >> (b & 63)
                DFA_AB(0);
                DFA_AB(1);
                DFA_AB(2);
                DFA_AB(3);
                DFA_AB(4);
                DFA_AB(5);
                DFA_AB(6);
                DFA_AB(7);
#undef DFA_AB
            }
            for (k = i + DFA_CHUNK; k < j; k++)
                a = dfa[s[k]] >> (a & 63);
            st = (a & 63) == ACC ? b : ERR;
            i = j + DFA_CHUNK;
        } else if (len - i >= DFA_CHUNK) {
            for (k = 0; k < DFA_CHUNK; k++)
                st = dfa[s[i + k]] >> (st & 63);
            i += DFA_CHUNK;
        } else {
            uint64_t w = UINT64_C(0x80);
            /* fewer than 8 bytes left at a boundary (a short string's
             * tail): the last 8 bytes of the input, which overlap bytes
             * already seen to be well formed, at once */
            if (len - i < 8 && len >= 8 && (st & 63) == ACC)
                memcpy(&w, s + len - 8, 8);
            if (!(w & UINT64_C(0x8080808080808080)))
                i = len;
            for (; i < len; i++)
                st = dfa[s[i]] >> (st & 63);
        }
        if ((st & 63) == ERR || i == len)
            break;
    }
    if ((st & 63) == ACC)
        return u8k_res(UTF8KIT_OK, len, 0, 0);
    /* An error, or the input ends inside a sequence: the reference finds
     * which, from the start of the character that holds byte `from` (the
     * bytes before it were well formed, so that start is the nearest
     * non-tail byte at most 3 back, or `from` itself). */
    for (k = 1; k <= 3 && k <= from; k++)
        if (!u8k_is_cont(s[from - k]))
            break;
    from = k <= 3 && k <= from ? from - k : from;
    r = precise(s + from, len - from);
    r.read += from;
    return r;
}

u8k_vres u8k_scalar_validate_v(const unsigned char *s, size_t len)
{
    utf8kit_result r = u8k_scalar_validate(s, len);
    return u8k_vres_make(r.status, r.read, r.error_len);
}

bool u8k_scalar_is_valid(const unsigned char *s, size_t len)
{
    return u8k_scalar_validate(s, len).status == UTF8KIT_OK;
}
