/* count.c - scalar character and UTF-16 length counts. */
#include "internal.h"

/* Each character or maximal invalid subpart counts once; a 4-octet
 * character needs a surrogate pair in UTF-16, so it counts twice there. */
static size_t count(const unsigned char *s, size_t len, bool utf16)
{
    size_t i = 0, k = 0;
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
