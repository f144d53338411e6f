/* count.c - scalar character and UTF-16 length counts. */
#include "internal.h"

/* Each character or maximal invalid subpart counts once; a 4-octet
 * character needs a surrogate pair in UTF-16, so it counts twice there. */
static size_t count(const unsigned char *s, size_t len, bool utf16)
{
    size_t i = 0, k = 0;
    if (u8k_short_ascii(s, len))
        return len;
    while (i < len) {
        size_t n;
        if (s[i] < 0x80) {
            n = u8k_scalar_ascii_prefix(s + i, len - i);
            i += n;
            k += n;
            continue;
        }
        n = u8k_valid_len(s, i, len);
        if (U8K_UNLIKELY(n == 0)) {
            uint32_t cp;
            (void)u8k_decode_step(s + i, len - i, &cp, &n); /* a subpart: one U+FFFD */
        } else if (utf16 && n == 4) {
            k++; /* a surrogate pair */
        }
        k++;
        i += n;
    }
    return k;
}

size_t u8k_scalar_count(const unsigned char *s, size_t len) { return count(s, len, false); }

size_t u8k_scalar_utf16_length(const unsigned char *s, size_t len) { return count(s, len, true); }

/* Counting text known to be valid: a character is a byte that is not a
 * continuation byte (80..BF, RFC 3629 section 3), and in UTF-16 a 4-octet
 * one (lead F0..F4) counts twice. Eight bytes at a time: a byte is a
 * continuation when its bit 7 is set and bit 6 clear, a lead F0..FF when
 * bits 7..4 are all set; the flags (one bit per byte, moved to bit 0) are
 * summed by a multiplication, whose top byte adds the eight bytes. Any
 * input gives a defined result: these byte counts. */
size_t u8k_scalar_count_assume_valid(const unsigned char *s, size_t len, bool utf16)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    size_t i = 0, cont = 0, four = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w, c;
        memcpy(&w, s + i, 8);
        c = (w & ~(w << 1)) >> 7 & ones;
        cont += (size_t)((c * ones) >> 56);
        if (utf16) {
            uint64_t f = (w & w << 1 & w << 2 & w << 3) >> 7 & ones;
            four += (size_t)((f * ones) >> 56);
        }
    }
    for (; i < len; i++) {
        cont += (s[i] & 0xC0) == 0x80;
        four += utf16 && s[i] >= 0xF0;
    }
    return len - cont + four;
}
