/*
 * detect.c - what encoding is this text in? (RFC 3629 section 1: UTF-8 is
 * recognised by a simple test.)
 *
 * The order of the questions, and why:
 *  1. A byte order mark (utf8kit_bom_detect, UTF-32 before UTF-16) is a
 *     declaration by the writer and wins over everything. Even when the
 *     rest is not valid in that form the signature decides; utf8_error
 *     still reports how the bytes fare as UTF-8.
 *  2. Valid UTF-8 with no 00 byte is ASCII (every byte below 80) or UTF-8,
 *     whatever else it might also be: the chance that text in another
 *     encoding with bytes above 7F validates as UTF-8 is low (RFC 3629
 *     section 1), so valid UTF-8 wins over every guess.
 *  3. BOM-less UTF-32, then UTF-16, by shape (see fits_utf32 and
 *     fits_utf16: conservative, they say no when in doubt). This is also
 *     asked of valid UTF-8 that holds a 00 byte, because UTF-16 and UTF-32
 *     of Cyrillic, Greek, Arabic, Hebrew, Indic or plain ASCII text are
 *     made only of bytes 00..7F and so are "valid UTF-8" (with NULs), while
 *     a NUL is never text in an ASCII-compatible encoding. RFC 3629's
 *     argument is about bytes 80..FF, which such input does not have.
 *     Valid UTF-8 that fits neither shape is ASCII or UTF-8 as in 2.
 *  4. Nothing fits: UNKNOWN, with a labelled single-byte guess.
 */
#include "codec.h"

/* fits_utf32: a whole number of 4-byte units, every one a Unicode scalar
 * value (<= U+10FFFF, not a surrogate). That leaves the top byte of every
 * unit 00 and the next one 00..10, a pattern legacy text essentially never
 * has. */
static bool fits_utf32(const unsigned char *s, size_t len, bool be)
{
    size_t i, n = len / 4;
    if (len == 0 || len % 4 != 0)
        return false;
    for (i = 0; i < n; i++) {
        uint32_t u = u8k_load32(s + 4 * i, be);
        if (u > UTF8KIT_MAX_CODE_POINT || (u & 0xFFFFF800u) == 0xD800u)
            return false;
    }
    return true;
}

/* fits_utf16: a whole number of 2-byte units with every surrogate paired
 * (D800..DBFF then DC00..DFFF), and the signature of text in UTF-16: zero
 * bytes in the high half of units (ASCII and Latin-1 characters, spaces
 * and line ends of most scripts) at least once every 16 units, and zero
 * low halves (U+0100, U+4E00, ...) at most a quarter as often. Legacy
 * single-byte text has no zero bytes at all, so it never fits; UTF-16 text
 * with no ASCII in it at all (some CJK) does not fit either: a miss rather
 * than a false alarm.
 * When the input is also valid UTF-8 (`strict`), ASCII text with a stray
 * NUL must not fit, so more is asked: at least 7 units in 8 have a high
 * half below 20 (characters below U+2000: every alphabetic script, whose
 * high halves are bytes ASCII text never holds, the C0 controls), and
 * fewer than half the units have a low half below 20. */
static bool fits_utf16(const unsigned char *s, size_t len, bool be, bool strict)
{
    size_t i, n = len / 2, zero_hi = 0, zero_lo = 0, ctl_hi = 0, ctl_lo = 0;
    if (len == 0 || len % 2 != 0)
        return false;
    for (i = 0; i < n; i++) {
        uint32_t u = u8k_load16(s + 2 * i, be);
        if ((u & 0xFC00u) == 0xD800u) { /* high surrogate: a low one must follow */
            if (i + 1 == n || (u8k_load16(s + 2 * (i + 1), be) & 0xFC00u) != 0xDC00u)
                return false;
            i++;
            continue;
        }
        if ((u & 0xFC00u) == 0xDC00u) /* a low surrogate alone */
            return false;
        zero_hi += (u >> 8) == 0;
        zero_lo += (u & 0xFFu) == 0;
        ctl_hi += (u >> 8) < 0x20u;
        ctl_lo += (u & 0xFFu) < 0x20u;
    }
    if (zero_hi == 0 || zero_hi * 16 < n || zero_lo * 4 > zero_hi)
        return false;
    return !strict || (ctl_hi * 8 >= n * 7 && ctl_lo * 2 < n);
}

/* legacy_guess: windows-1252 when a byte 80..9F that it defines as a
 * printable character appears (curly quotes 93/94, the euro sign 80, the
 * dash 96...), which ISO-8859-1 text would only hold as C1 controls;
 * otherwise ISO-8859-1. The five bytes windows-1252 leaves undefined
 * (81 8D 8F 90 9D, where the WHATWG index gives the C1 control itself)
 * say nothing. */
static utf8kit_encoding legacy_guess(const unsigned char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned b = s[i];
        if (b - 0x80u < 0x20u && u8k_cp1252_high[b - 0x80u] != b)
            return UTF8KIT_CP1252;
    }
    return UTF8KIT_LATIN1;
}

/* valid_utf8 finishes a detection of valid UTF-8 input. */
static utf8kit_detection valid_utf8(utf8kit_detection *d, const unsigned char *s, size_t len)
{
    d->encoding = utf8kit_ascii_prefix((const char *)s, len) == len ? UTF8KIT_ASCII : UTF8KIT_UTF8;
    return *d;
}

utf8kit_detection utf8kit_detect(const void *src, size_t len)
{
    const unsigned char *s = src;
    utf8kit_detection d;
    bool strict;
    memset(&d, 0, sizeof d);
    d.encoding = UTF8KIT_ENCODING_UNKNOWN;
    d.guess = UTF8KIT_ENCODING_UNKNOWN;
    if (s == NULL && len > 0) {
        d.utf8_error = u8k_res(UTF8KIT_ERR_INVALID_ARGUMENT, 0, 0, 0);
        return d;
    }
    d.utf8_error = utf8kit_validate((const char *)s, len);

    d.encoding = utf8kit_bom_detect(s, len, &d.bom_len);
    if (d.encoding != UTF8KIT_ENCODING_UNKNOWN)
        return d;
    if (d.utf8_error.status == UTF8KIT_OK && (len == 0 || memchr(s, 0, len) == NULL))
        return valid_utf8(&d, s, len);
    /* Both byte orders fitting would need every unit to be 00 xx xx 00 with
     * small middle bytes: too ambiguous to name either. */
    if (fits_utf32(s, len, false) != fits_utf32(s, len, true)) {
        d.encoding = fits_utf32(s, len, false) ? UTF8KIT_UTF32LE : UTF8KIT_UTF32BE;
        return d;
    }
    /* fits_utf16 cannot hold in both orders: each needs more zero bytes in
     * one half of the units than the other allows. */
    strict = d.utf8_error.status == UTF8KIT_OK;
    if (fits_utf16(s, len, false, strict)) {
        d.encoding = UTF8KIT_UTF16LE;
        return d;
    }
    if (fits_utf16(s, len, true, strict)) {
        d.encoding = UTF8KIT_UTF16BE;
        return d;
    }
    if (d.utf8_error.status == UTF8KIT_OK)
        return valid_utf8(&d, s, len);
    d.guess = legacy_guess(s, len);
    return d;
}
