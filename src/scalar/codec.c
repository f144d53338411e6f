/*
 * codec.c - decode and encode one character in each of the 13 encodings.
 *
 * This is the reference for every conversion: the generic loop of
 * utf8kit_convert and the streams are built on it, and the bulk kernels
 * must agree with it. Choices that the standards leave open are stated
 * where they are made.
 */
#include "codec.h"

bool u8k_encoding_valid(utf8kit_encoding enc)
{
    return enc >= UTF8KIT_UTF8 && enc <= UTF8KIT_UTF8_RFC2279;
}

size_t u8k_unit_size(utf8kit_encoding enc)
{
    switch (enc) {
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE:
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE:
        return 2;
    case UTF8KIT_UTF32LE:
    case UTF8KIT_UTF32BE:
        return 4;
    default:
        return u8k_encoding_valid(enc) ? 1 : 0;
    }
}

/* WHATWG Encoding Standard, index-windows-1252, pointers 0..31 (bytes
 * 80..9F). Bytes 00..7F and A0..FF are the code point of the same value.
 * The five bytes Microsoft leaves undefined (81 8D 8F 90 9D) map to the
 * C1 control of the same value, as the WHATWG index says. */
const uint16_t u8k_cp1252_high[32] = {
    /* 80 */ 0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    /* 88 */ 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    /* 90 */ 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    /* 98 */ 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

#define SURROGATE(c) (((c) & 0xFFFFF800u) == 0xD800u) /* D800..DFFF */
#define HIGH_SURROGATE(c) (((c) & 0xFFFFFC00u) == 0xD800u)
#define LOW_SURROGATE(c) (((c) & 0xFFFFFC00u) == 0xDC00u)

static utf8kit_status fail(utf8kit_status st, uint32_t *cp, size_t *n, size_t len)
{
    *cp = UTF8KIT_REPLACEMENT_CHARACTER;
    *n = len;
    return st;
}

/* ---- UTF-16, UCS-2, UTF-32 -------------------------------------------- */

/* An unpaired surrogate is one error of one unit (2 bytes), as CPython's
 * utf-16 codec and the WHATWG UTF-16 decoder both treat it. A high
 * surrogate that ends the input (alone or followed by one odd byte) may be
 * completed by more input: TRUNCATED, as is an odd trailing byte. */
static utf8kit_status dec_utf16(const unsigned char *s, size_t len, bool be, uint32_t *cp,
                                size_t *n)
{
    uint32_t u, v;
    if (len < 2)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    u = u8k_load16(s, be);
    if (!SURROGATE(u)) {
        *cp = u;
        *n = 2;
        return UTF8KIT_OK;
    }
    if (LOW_SURROGATE(u))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 2);
    if (len < 4)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    v = u8k_load16(s + 2, be);
    if (!LOW_SURROGATE(v))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 2);
    *cp = 0x10000u + ((u - 0xD800u) << 10) + (v - 0xDC00u);
    *n = 4;
    return UTF8KIT_OK;
}

/* UCS-2 has no surrogate mechanism: any surrogate unit is an error. */
static utf8kit_status dec_ucs2(const unsigned char *s, size_t len, bool be, uint32_t *cp,
                               size_t *n)
{
    uint32_t u;
    if (len < 2)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    u = u8k_load16(s, be);
    if (SURROGATE(u))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 2);
    *cp = u;
    *n = 2;
    return UTF8KIT_OK;
}

static utf8kit_status dec_utf32(const unsigned char *s, size_t len, bool be, uint32_t *cp,
                                size_t *n)
{
    uint32_t u;
    if (len < 4)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    u = u8k_load32(s, be);
    if (u > UTF8KIT_MAX_CODE_POINT)
        return fail(UTF8KIT_ERR_TOO_LARGE, cp, n, 4);
    if (SURROGATE(u))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 4);
    *cp = u;
    *n = 4;
    return UTF8KIT_OK;
}

/* ---- the UTF-8 family: CESU-8, MUTF-8, RFC 2279 --------------------------- */

/* One multi-octet sequence of `need` octets whose second octet must lie in
 * [lo, hi] (else error `kind` if it is a continuation byte, else
 * MISSING_CONTINUATION), the rest plain continuation bytes. The maximal
 * invalid subpart is the well-formed prefix, as in u8k_decode_step. */
static utf8kit_status dec_seq(const unsigned char *s, size_t len, size_t need, unsigned lo,
                              unsigned hi, utf8kit_status kind, uint32_t *cp, size_t *n)
{
    /* A lead of a `need`-octet form keeps 7 - need bits of the value. */
    uint32_t c = s[0] & (0x7Fu >> need);
    size_t i;
    for (i = 1; i < need; i++) {
        unsigned b;
        if (i == len)
            return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
        b = s[i];
        if (!u8k_is_cont((unsigned char)b))
            return fail(UTF8KIT_ERR_MISSING_CONTINUATION, cp, n, i);
        if (i == 1 && b - lo > hi - lo)
            return fail(kind, cp, n, 1);
        c = c << 6 | (b & 0x3Fu);
    }
    *cp = c;
    *n = need;
    return UTF8KIT_OK;
}

/* A byte that starts nothing: the kinds of u8k_decode_step (C0/C1 before a
 * continuation byte begin an overlong form), and INVALID_LEAD for the
 * rest, which in CESU-8 includes the 4-octet leads F0..F4 and in RFC 2279
 * only FE and FF. */
static utf8kit_status dec_bad_lead(const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    if (s[0] < 0xC0)
        return fail(UTF8KIT_ERR_STRAY_CONTINUATION, cp, n, 1);
    if (s[0] <= 0xC1 && len >= 2 && u8k_is_cont(s[1]))
        return fail(UTF8KIT_ERR_OVERLONG, cp, n, 1);
    return fail(UTF8KIT_ERR_INVALID_LEAD, cp, n, 1);
}

/* RFC 2279 as draft-yergeau-rfc2279bis writes its ABNF (UTF8-5, UTF8-6):
 *   UTF8-4 = F0 90-BF 2tail / F1-F7 3tail
 *   UTF8-5 = F8 88-BF 3tail / F9-FB 4tail
 *   UTF8-6 = FC 84-BF 4tail / FD 5tail
 * with UTF8-1..3 as in RFC 3629 (so surrogates stay invalid). Each
 * restricted second-octet range cuts off the overlong forms. */
static utf8kit_status dec_rfc2279(const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    unsigned b = s[0];
    if (b < 0x80) {
        *cp = b;
        *n = 1;
        return UTF8KIT_OK;
    }
    if (b >= 0xC2 && b <= 0xDF)
        return dec_seq(s, len, 2, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    if (b == 0xE0)
        return dec_seq(s, len, 3, 0xA0, 0xBF, UTF8KIT_ERR_OVERLONG, cp, n);
    if (b == 0xED)
        return dec_seq(s, len, 3, 0x80, 0x9F, UTF8KIT_ERR_SURROGATE, cp, n);
    if (b >= 0xE1 && b <= 0xEF)
        return dec_seq(s, len, 3, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    if (b == 0xF0)
        return dec_seq(s, len, 4, 0x90, 0xBF, UTF8KIT_ERR_OVERLONG, cp, n);
    if (b >= 0xF1 && b <= 0xF7)
        return dec_seq(s, len, 4, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    if (b == 0xF8)
        return dec_seq(s, len, 5, 0x88, 0xBF, UTF8KIT_ERR_OVERLONG, cp, n);
    if (b >= 0xF9 && b <= 0xFB)
        return dec_seq(s, len, 5, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    if (b == 0xFC)
        return dec_seq(s, len, 6, 0x84, 0xBF, UTF8KIT_ERR_OVERLONG, cp, n);
    if (b == 0xFD)
        return dec_seq(s, len, 6, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    return dec_bad_lead(s, len, cp, n);
}

/* CESU-8 (Unicode TR #26): the UTF-8 forms of 1 to 3 octets, with
 * U+D800..U+DFFF allowed as 3-octet units (ED A0..BF xx); a high surrogate
 * directly followed by a low one is one supplementary character (6
 * octets). A surrogate that is not part of such a pair is one error
 * covering its 3 octets (the analogue of one UTF-16 unit); the octets after
 * it are decoded afresh. A high surrogate followed by the end of input, or
 * by a prefix of a low surrogate that reaches the end, is TRUNCATED. The
 * 4-octet leads F0..F4 are INVALID_LEAD. MUTF-8 (Java's modified UTF-8)
 * adds C0 80 for U+0000 and accepts a raw 00 as well. */
static utf8kit_status dec_cesu(const unsigned char *s, size_t len, bool mutf, uint32_t *cp,
                               size_t *n)
{
    unsigned b = s[0];
    utf8kit_status st;
    uint32_t hi, lo;
    size_t k;
    if (b < 0x80) {
        *cp = b;
        *n = 1;
        return UTF8KIT_OK;
    }
    if (mutf && b == 0xC0) {
        if (len == 1)
            return fail(UTF8KIT_ERR_TRUNCATED, cp, n, 1);
        if (s[1] == 0x80) {
            *cp = 0;
            *n = 2;
            return UTF8KIT_OK;
        }
    }
    if (b >= 0xC2 && b <= 0xDF)
        return dec_seq(s, len, 2, 0x80, 0xBF, UTF8KIT_OK, cp, n);
    if (b == 0xE0)
        return dec_seq(s, len, 3, 0xA0, 0xBF, UTF8KIT_ERR_OVERLONG, cp, n);
    if (b < 0xE1 || b > 0xEF)
        return dec_bad_lead(s, len, cp, n);
    st = dec_seq(s, len, 3, 0x80, 0xBF, UTF8KIT_OK, &hi, &k);
    if (st != UTF8KIT_OK || !SURROGATE(hi)) {
        *cp = hi;
        *n = k;
        return st;
    }
    if (LOW_SURROGATE(hi))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 3);
    /* A high surrogate: the low one must follow as ED B0..BF 80..BF. */
    if (len == 3)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    if (s[3] != 0xED)
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 3);
    if (len == 4)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    if (s[4] < 0xB0 || s[4] > 0xBF)
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 3);
    if (len == 5)
        return fail(UTF8KIT_ERR_TRUNCATED, cp, n, len);
    if (!u8k_is_cont(s[5]))
        return fail(UTF8KIT_ERR_SURROGATE, cp, n, 3);
    lo = 0xDC00u | (uint32_t)(s[4] & 0x0Fu) << 6 | (s[5] & 0x3Fu);
    *cp = 0x10000u + ((hi - 0xD800u) << 10) + (lo - 0xDC00u);
    *n = 6;
    return UTF8KIT_OK;
}

utf8kit_status u8k_decode_char(utf8kit_encoding enc, const unsigned char *s, size_t len,
                               uint32_t *cp, size_t *n)
{
    unsigned b = s[0];
    switch (enc) {
    case UTF8KIT_UTF8:
        return u8k_decode_step(s, len, cp, n);
    case UTF8KIT_UTF16LE:
    case UTF8KIT_UTF16BE:
        return dec_utf16(s, len, enc == UTF8KIT_UTF16BE, cp, n);
    case UTF8KIT_UTF32LE:
    case UTF8KIT_UTF32BE:
        return dec_utf32(s, len, enc == UTF8KIT_UTF32BE, cp, n);
    case UTF8KIT_UCS2LE:
    case UTF8KIT_UCS2BE:
        return dec_ucs2(s, len, enc == UTF8KIT_UCS2BE, cp, n);
    case UTF8KIT_LATIN1:
        *cp = b;
        *n = 1;
        return UTF8KIT_OK;
    case UTF8KIT_ASCII:
        if (b > 0x7F)
            return fail(UTF8KIT_ERR_INVALID_UNIT, cp, n, 1);
        *cp = b;
        *n = 1;
        return UTF8KIT_OK;
    case UTF8KIT_CP1252:
        *cp = b - 0x80u < 0x20u ? u8k_cp1252_high[b - 0x80u] : b;
        *n = 1;
        return UTF8KIT_OK;
    case UTF8KIT_CESU8:
    case UTF8KIT_MUTF8:
        return dec_cesu(s, len, enc == UTF8KIT_MUTF8, cp, n);
    case UTF8KIT_UTF8_RFC2279:
        return dec_rfc2279(s, len, cp, n);
    default:
        return fail(UTF8KIT_ERR_INVALID_ARGUMENT, cp, n, len);
    }
}

utf8kit_status u8k_decode_char_to(utf8kit_encoding enc, utf8kit_encoding to,
                                  const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    utf8kit_status st = u8k_decode_char(enc, s, len, cp, n);
    if (U8K_UNLIKELY(st == UTF8KIT_ERR_TOO_LARGE) && to == UTF8KIT_UTF8_RFC2279 &&
        (enc == UTF8KIT_UTF32LE || enc == UTF8KIT_UTF32BE)) {
        /* RFC 2279 section 2: UCS-4 goes up to 7FFFFFFF; a unit with the
         * top bit set is too large even there. */
        uint32_t u = u8k_load32(s, enc == UTF8KIT_UTF32BE);
        if (u <= 0x7FFFFFFFu) {
            *cp = u;
            return UTF8KIT_OK;
        }
    }
    return st;
}

/* ---- encoders ------------------------------------------------------------- */

/* The UTF-8 bit layout (RFC 3629 section 3, RFC 2279 for 5 and 6 octets):
 * the lead octet carries the length as that many high 1 bits. */
static size_t enc_utf8_form(uint32_t c, unsigned char *o)
{
    static const unsigned char mark[7] = {0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC};
    size_t k, i;
    if (c < 0x80) {
        o[0] = (unsigned char)c;
        return 1;
    }
    k = c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4 : c < 0x4000000 ? 5 : 6;
    for (i = k - 1; i > 0; i--) {
        o[i] = (unsigned char)(0x80u | (c & 0x3Fu));
        c >>= 6;
    }
    o[0] = (unsigned char)(mark[k] | c);
    return k;
}

static void store16(unsigned char *o, uint32_t u, bool be)
{
    o[be ? 0 : 1] = (unsigned char)(u >> 8);
    o[be ? 1 : 0] = (unsigned char)u;
}

size_t u8k_encode_char(utf8kit_encoding enc, uint32_t cp, unsigned char out[8])
{
    bool be = false;
    size_t k;
    if (SURROGATE(cp) || cp > 0x7FFFFFFFu)
        return 0;
    switch (enc) {
    case UTF8KIT_UTF8:
        return cp <= UTF8KIT_MAX_CODE_POINT ? enc_utf8_form(cp, out) : 0;
    case UTF8KIT_UTF8_RFC2279:
        return enc_utf8_form(cp, out);
    case UTF8KIT_UTF16BE:
        be = true;
        /* fall through */
    case UTF8KIT_UTF16LE:
        if (cp < 0x10000u) {
            store16(out, cp, be);
            return 2;
        }
        if (cp > UTF8KIT_MAX_CODE_POINT)
            return 0;
        cp -= 0x10000u;
        store16(out, 0xD800u | cp >> 10, be);
        store16(out + 2, 0xDC00u | (cp & 0x3FFu), be);
        return 4;
    case UTF8KIT_UCS2BE:
        be = true;
        /* fall through */
    case UTF8KIT_UCS2LE:
        if (cp >= 0x10000u)
            return 0;
        store16(out, cp, be);
        return 2;
    case UTF8KIT_UTF32BE:
        out[0] = (unsigned char)(cp >> 24);
        out[1] = (unsigned char)(cp >> 16);
        out[2] = (unsigned char)(cp >> 8);
        out[3] = (unsigned char)cp;
        return 4;
    case UTF8KIT_UTF32LE:
        /* UCS-4: any value up to 0x7FFFFFFF (those above U+10FFFF can only
         * come from the RFC 2279 form). */
        out[0] = (unsigned char)cp;
        out[1] = (unsigned char)(cp >> 8);
        out[2] = (unsigned char)(cp >> 16);
        out[3] = (unsigned char)(cp >> 24);
        return 4;
    case UTF8KIT_LATIN1:
        if (cp > 0xFF)
            return 0;
        out[0] = (unsigned char)cp;
        return 1;
    case UTF8KIT_ASCII:
        if (cp > 0x7F)
            return 0;
        out[0] = (unsigned char)cp;
        return 1;
    case UTF8KIT_CP1252:
        if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) {
            out[0] = (unsigned char)cp;
            return 1;
        }
        /* the table's values lie in the blocks 00..02 and 20..21 of 256:
         * other scripts need no search */
        if (cp >= 0x300 && (cp >> 8 != 0x20 && cp >> 8 != 0x21))
            return 0;
        for (k = 0; k < 32; k++)
            if (u8k_cp1252_high[k] == cp) {
                out[0] = (unsigned char)(0x80u + k);
                return 1;
            }
        return 0;
    case UTF8KIT_MUTF8:
        if (cp == 0) {
            out[0] = 0xC0;
            out[1] = 0x80;
            return 2;
        }
        /* fall through */
    case UTF8KIT_CESU8:
        if (cp < 0x10000u)
            return enc_utf8_form(cp, out);
        if (cp > UTF8KIT_MAX_CODE_POINT)
            return 0;
        cp -= 0x10000u;
        enc_utf8_form(0xD800u | cp >> 10, out);
        enc_utf8_form(0xDC00u | (cp & 0x3FFu), out + 3);
        return 6;
    default:
        return 0;
    }
}

size_t u8k_bom_for(utf8kit_encoding enc, unsigned char out[4])
{
    unsigned char tmp[8];
    size_t k;
    switch (enc) {
    case UTF8KIT_LATIN1:
    case UTF8KIT_ASCII:
    case UTF8KIT_CP1252:
        return 0;
    default:
        k = u8k_encode_char(enc, 0xFEFFu, tmp);
        memcpy(out, tmp, k);
        return k;
    }
}

bool u8k_make_subst(struct u8k_subst *x, utf8kit_encoding to, uint32_t substitute)
{
    x->sub_len = u8k_encode_char(to, substitute ? substitute : '?', x->sub);
    x->repl_len = u8k_encode_char(to, UTF8KIT_REPLACEMENT_CHARACTER, x->repl);
    if (x->repl_len == 0) {
        memcpy(x->repl, x->sub, sizeof x->repl);
        x->repl_len = x->sub_len;
    }
    return x->sub_len != 0;
}
