/*
 * fuzz_common.h - what the fuzz targets share.
 *
 * FUZZ_CHECK aborts with a message (libFuzzer then saves the input as a
 * crash file). ref_step is an independent UTF-8 decoder written from the
 * definition rather than from tables, so that the library's own scalar
 * reference is itself checked, not only the kernels against it.
 */
#ifndef UTF8KIT_FUZZ_COMMON_H
#define UTF8KIT_FUZZ_COMMON_H

#include "utf8kit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* A heap block of exactly n bytes holding d (ASan sees any over-read). */
static inline unsigned char *fuzz_dup(const uint8_t *d, size_t n)
{
    unsigned char *p = malloc(n ? n : 1);
    if (!p)
        abort();
    if (n)
        memcpy(p, d, n);
    return p;
}

/* Output buffers: cap usable bytes followed by a canary region that no call
 * may touch. */
#define FUZZ_CANARY 64
#define FUZZ_CANARY_BYTE 0xA5

static inline unsigned char *fuzz_outbuf(size_t cap)
{
    unsigned char *p = malloc(cap + FUZZ_CANARY);
    if (!p)
        abort();
    memset(p, 0x5A, cap);
    memset(p + cap, FUZZ_CANARY_BYTE, FUZZ_CANARY);
    return p;
}

static inline int fuzz_canary_ok(const unsigned char *p, size_t cap)
{
    size_t i;
    for (i = 0; i < FUZZ_CANARY; i++)
        if (p[cap + i] != FUZZ_CANARY_BYTE)
            return 0;
    return 1;
}

/* ---- an independent reference decoder -------------------------------- */

/* Whether b[0..k) (1 <= k <= 4) is a prefix of some well-formed UTF-8
 * sequence: the lead byte fixes the length n; the prefix, completed with
 * the smallest (80) and largest (BF) tails, spans code points [lo, hi],
 * and it is well formed when that span holds a value that needs exactly n
 * octets and is not a surrogate. */
static inline int ref_prefix_ok(const unsigned char *b, size_t k)
{
    static const uint32_t minv[5] = {0, 0, 0x80, 0x800, 0x10000};
    static const uint32_t maxv[5] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    unsigned n;
    uint32_t lo, hi;
    size_t i;
    if (b[0] < 0x80)
        n = 1;
    else if (b[0] >= 0xC0 && b[0] < 0xE0)
        n = 2;
    else if (b[0] >= 0xE0 && b[0] < 0xF0)
        n = 3;
    else if (b[0] >= 0xF0 && b[0] < 0xF8)
        n = 4;
    else
        return 0;
    if (k > n)
        return 0;
    lo = hi = b[0] & (n == 1 ? 0x7Fu : (0x7Fu >> n));
    for (i = 1; i < n; i++) {
        unsigned t;
        if (i < k) {
            if (b[i] < 0x80 || b[i] > 0xBF)
                return 0;
            t = b[i] & 0x3Fu;
            lo = lo << 6 | t;
            hi = hi << 6 | t;
        } else {
            lo = lo << 6;
            hi = hi << 6 | 0x3Fu;
        }
    }
    if (hi < minv[n] || lo > maxv[n])
        return 0;
    if (lo >= 0xD800 && hi <= 0xDFFF)
        return 0;
    return 1;
}

/* Decodes one character or one maximal invalid subpart at s[0..len),
 * len >= 1. Returns 1 with *cp for a character, 0 for an invalid subpart,
 * -1 when the input ends inside a well-formed prefix (*n = len then). */
static inline int ref_step(const unsigned char *s, size_t len, uint32_t *cp, size_t *n)
{
    size_t k = 0, need;
    while (k < len && k < 4 && ref_prefix_ok(s, k + 1))
        k++;
    if (k == 0) {
        *n = 1;
        *cp = 0xFFFD;
        return 0;
    }
    need = s[0] < 0x80 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
    if (k == need) {
        uint32_t c = need == 1 ? s[0] : (uint32_t)(s[0] & (0x7Fu >> need));
        size_t i;
        for (i = 1; i < need; i++)
            c = c << 6 | (s[i] & 0x3Fu);
        *cp = c;
        *n = need;
        return 1;
    }
    *n = k;
    *cp = 0xFFFD;
    return k == len ? -1 : 0;
}

/* The reference validation: first error offset and length (OK: read=len). */
static inline utf8kit_result ref_validate(const unsigned char *s, size_t len)
{
    utf8kit_result r;
    size_t i = 0;
    memset(&r, 0, sizeof r);
    while (i < len) {
        uint32_t cp;
        size_t n;
        int k = ref_step(s + i, len - i, &cp, &n);
        if (k != 1) {
            r.status = k < 0 ? UTF8KIT_ERR_TRUNCATED : UTF8KIT_ERR_INVALID_LEAD;
            r.read = i;
            r.error_len = n;
            return r;
        }
        i += n;
    }
    r.status = UTF8KIT_OK;
    r.read = len;
    return r;
}

/* Writes the UTF-8 of cp (no checks) and returns its length. */
static inline size_t ref_put8(uint32_t cp, unsigned char *o)
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The names of the kernels this CPU runs (index 0 is scalar). The
 * environment variable UTF8KIT_FUZZ_KERNELS (e.g. "avx2,sse42") keeps only
 * those named, besides scalar: to fuzz one kernel, or to go on fuzzing the
 * others while a known defect of one waits for its fix. */
static inline size_t fuzz_kernels(const char *names[8])
{
    const char *only = getenv("UTF8KIT_FUZZ_KERNELS");
    size_t k = 0, i;
    const char *nm;
    for (i = 0; k < 8 && (nm = utf8kit_impl_available(i)) != NULL; i++) {
        if (i > 0 && only != NULL && *only != '\0') {
            const char *p = strstr(only, nm);
            size_t l = strlen(nm);
            if (p == NULL || (p != only && p[-1] != ',') || (p[l] != '\0' && p[l] != ','))
                continue;
        }
        names[k++] = nm;
    }
    return k;
}

static inline int same_result(utf8kit_result a, utf8kit_result b)
{
    return a.status == b.status && a.read == b.read && a.written == b.written &&
           a.error_len == b.error_len && a.replaced == b.replaced;
}

#define RES_FMT "{%s read=%zu written=%zu elen=%zu repl=%zu}"
#define RES_ARGS(r) utf8kit_status_name((r).status), (r).read, (r).written, (r).error_len, (r).replaced

#endif
