/*
 * char.c - one character at a time: encode, decode (forward and backward),
 * sequence lengths and character boundaries.
 *
 * Decoding is u8k_decode_step (src/scalar/decode.c), the reference: the
 * boundaries here are exactly where replacement decoding from offset 0
 * would start a character or a maximal invalid subpart. That holds because
 * a maximal subpart is a prefix of a well-formed sequence, whose bytes after
 * the first are all 80..BF (RFC 3629 section 4): so every other byte starts
 * a unit, and a continuation byte belongs to the unit of the nearest
 * non-continuation byte before it when that unit reaches it, else it is a
 * stray continuation, a unit of its own. A unit is at most 4 bytes long, so
 * only the 3 bytes before an offset need to be looked at.
 */
#include "internal.h"

size_t utf8kit_encoded_length(uint32_t cp)
{
    if (cp < 0x80)
        return 1;
    if (cp < 0x800)
        return 2;
    if (cp < 0x10000)
        return (cp - 0xD800u < 0x800u) ? 0 : 3;
    return cp <= UTF8KIT_MAX_CODE_POINT ? 4 : 0;
}

size_t utf8kit_encode(uint32_t cp, char out[UTF8KIT_MAX_SEQUENCE])
{
    size_t n = utf8kit_encoded_length(cp), i;
    /* RFC 3629 section 3: the lead byte carries the length as n high one
     * bits (none for n == 1); each later byte is 10xxxxxx with 6 bits of
     * the value, the lowest bits in the last byte. */
    static const unsigned char lead_mark[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    for (i = n; i > 1; i--) {
        out[i - 1] = (char)(0x80u | (cp & 0x3Fu));
        cp >>= 6;
    }
    if (n)
        out[0] = (char)(lead_mark[n] | cp);
    return n;
}

utf8kit_status utf8kit_decode(const char *s, size_t len, uint32_t *cp, size_t *n)
{
    *cp = UTF8KIT_REPLACEMENT_CHARACTER;
    *n = 0;
    if (len == 0)
        return UTF8KIT_ERR_TRUNCATED;
    if (s == NULL)
        return UTF8KIT_ERR_INVALID_ARGUMENT;
    return u8k_decode_step((const unsigned char *)s, len, cp, n);
}

size_t utf8kit_sequence_length(unsigned char b) { return u8k_first[b] & 7u; }

/* unit_at finds the unit (character or maximal invalid subpart) holding
 * byte i < len: its start, and its end through *end. */
static size_t unit_at(const unsigned char *s, size_t len, size_t i, size_t *end)
{
    size_t j, lo = i >= 3 ? i - 3 : 0, n;
    uint32_t cp;
    if (u8k_is_cont(s[i])) {
        for (j = i; j > lo;) {
            j--;
            if (!u8k_is_cont(s[j])) {
                (void)u8k_decode_step(s + j, len - j, &cp, &n);
                if (j + n > i) {
                    *end = j + n;
                    return j;
                }
                break;
            }
        }
        /* a stray continuation byte */
        *end = i + 1;
        return i;
    }
    (void)u8k_decode_step(s + i, len - i, &cp, &n);
    *end = i + n;
    return i;
}

bool utf8kit_is_boundary(const char *s, size_t len, size_t i)
{
    size_t end;
    if (i > len)
        return false;
    if (i == 0 || i == len)
        return true;
    if (s == NULL)
        return false;
    if (!u8k_is_cont((unsigned char)s[i]))
        return true;
    return unit_at((const unsigned char *)s, len, i, &end) == i;
}

size_t utf8kit_next_boundary(const char *s, size_t len, size_t i)
{
    size_t end;
    if (i >= len || s == NULL)
        return len;
    (void)unit_at((const unsigned char *)s, len, i, &end);
    return end;
}

size_t utf8kit_prev_boundary(const char *s, size_t len, size_t i)
{
    size_t end;
    if (i == 0 || s == NULL)
        return 0;
    if (i > len)
        return len;
    return unit_at((const unsigned char *)s, len, i - 1, &end);
}

utf8kit_status utf8kit_decode_last(const char *s, size_t len, uint32_t *cp, size_t *n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t start, end, m;
    utf8kit_status st;
    *cp = UTF8KIT_REPLACEMENT_CHARACTER;
    *n = 0;
    if (len == 0)
        return UTF8KIT_ERR_TRUNCATED;
    if (s == NULL)
        return UTF8KIT_ERR_INVALID_ARGUMENT;
    if (u[len - 1] < 0x80) {
        *cp = u[len - 1];
        *n = 1;
        return UTF8KIT_OK;
    }
    /* The last unit ends at len; decode it forward from its start. */
    start = unit_at(u, len, len - 1, &end);
    st = u8k_decode_step(u + start, len - start, cp, &m);
    if (st == UTF8KIT_OK) {
        *n = m;
        return UTF8KIT_OK;
    }
    *cp = UTF8KIT_REPLACEMENT_CHARACTER;
    *n = 1;
    return st;
}
