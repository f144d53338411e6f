/*
 * search.c - ordering and substring search.
 *
 * RFC 3629 section 1: sorting UTF-8 strings bytewise gives code point
 * order, and no character's bytes occur inside another character, so both
 * operations are plain byte operations. Only on invalid input can a byte
 * match start or end inside a unit (a truncated sequence or a maximal
 * subpart): utf8kit_find skips those.
 */
#if !defined(_GNU_SOURCE) && defined(__linux__)
#define _GNU_SOURCE 1 /* memmem */
#endif
#include "internal.h"

int utf8kit_compare(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t m = alen < blen ? alen : blen;
    int c = 0;
    if (m != 0 && a != NULL && b != NULL)
        c = memcmp(a, b, m);
    if (c != 0)
        return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* The next byte match of needle in hay[pos..hlen), or NULL. glibc's and
 * musl's memmem run in linear time (the Two-Way algorithm), so no input can
 * make a search quadratic; elsewhere a first-byte scan stands in. */
static const char *next_match(const char *hay, size_t hlen, size_t pos, const char *needle,
                              size_t nlen)
{
#if defined(__GLIBC__) || defined(__linux__)
    return memmem(hay + pos, hlen - pos, needle, nlen);
#else
    while (pos <= hlen - nlen) {
        const char *p = memchr(hay + pos, needle[0], hlen - nlen - pos + 1);
        if (p == NULL || memcmp(p + 1, needle + 1, nlen - 1) == 0)
            return p;
        pos = (size_t)(p - hay) + 1;
    }
    return NULL;
#endif
}

size_t utf8kit_find(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
    size_t pos = 0;
    if (nlen == 0)
        return 0;
    if (hay == NULL || needle == NULL || nlen > hlen)
        return UTF8KIT_NOT_FOUND;
    while (pos <= hlen - nlen) {
        const char *p = next_match(hay, hlen, pos, needle, nlen);
        size_t at;
        if (p == NULL)
            break;
        at = (size_t)(p - hay);
        /* A byte match inside a character can only occur on invalid
         * input; look on from the next byte. */
        if (utf8kit_is_boundary(hay, hlen, at) && utf8kit_is_boundary(hay, hlen, at + nlen))
            return at;
        pos = at + 1;
    }
    return UTF8KIT_NOT_FOUND;
}
