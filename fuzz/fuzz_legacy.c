// needs: utf8kit_convert utf8kit_validate utf8kit_decode
/*
 * fuzz_legacy.c - the UTF-8 relatives: CESU-8, Java's Modified UTF-8 and
 * the RFC 2279 form (5- and 6-octet sequences), against UTF-8 and against
 * themselves.
 *  - valid UTF-8 to CESU-8: no 4-octet form left (no F0..F4), 2 more bytes
 *    per supplementary character, back to identical UTF-8; read as UTF-8
 *    the CESU-8 text fails with SURROGATE where the first supplementary
 *    character was;
 *  - valid UTF-8 to Modified UTF-8: no 00 byte (C0 80 instead), back to
 *    identical UTF-8;
 *  - valid UTF-8 is valid RFC 2279 text with the same bytes both ways;
 *    RFC 2279 text whose values stay within U+10FFFF is valid UTF-8;
 *  - any input each form accepts (STRICT) converts to UTF-8 or UTF-16 and
 *    back to the same bytes (Modified UTF-8: when it holds no raw 00);
 *  - REPLACE always consumes everything, STRICT errors lie in the input.
 */
#include "fuzz_common.h"

static unsigned char *conv(utf8kit_encoding from, utf8kit_encoding to, const unsigned char *s,
                           size_t len, utf8kit_policy pol, utf8kit_result *r)
{
    utf8kit_options o;
    size_t cap = 6 * len + 8;
    unsigned char *out = fuzz_outbuf(cap);
    memset(&o, 0, sizeof o);
    o.policy = pol;
    *r = utf8kit_convert(from, to, s, len, out, cap, &o);
    FUZZ_CHECK(fuzz_canary_ok(out, cap), "%d->%d past the end", from, to);
    FUZZ_CHECK(r->status != UTF8KIT_ERR_OUTPUT_TOO_SMALL && r->written <= cap && r->read <= len,
               "%d->%d " RES_FMT, from, to, RES_ARGS(*r));
    if (r->status != UTF8KIT_OK)
        FUZZ_CHECK(r->error_len >= 1 && r->read + r->error_len <= len, "%d->%d " RES_FMT, from,
                   to, RES_ARGS(*r));
    if (pol == UTF8KIT_REPLACE)
        FUZZ_CHECK(r->status == UTF8KIT_OK && r->read == len, "%d->%d REPLACE " RES_FMT, from,
                   to, RES_ARGS(*r));
    return out;
}

/* x -> via -> x under STRICT must give back the same bytes */
static void round_trip(utf8kit_encoding x, utf8kit_encoding via, const unsigned char *s,
                       size_t len)
{
    utf8kit_result r1, r2;
    unsigned char *a = conv(x, via, s, len, UTF8KIT_STRICT, &r1), *b;
    if (r1.status == UTF8KIT_OK) {
        b = conv(via, x, a, r1.written, UTF8KIT_STRICT, &r2);
        FUZZ_CHECK(r2.status == UTF8KIT_OK && r2.written == len && memcmp(b, s, len) == 0,
                   "%d -> %d -> %d: " RES_FMT " from %zu bytes", x, via, x, RES_ARGS(r2), len);
        free(b);
    }
    free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *s = fuzz_dup(data, size), *o;
    utf8kit_result v = utf8kit_validate((const char *)s, size), r, r2;
    size_t i, supp = 0, first_supp = (size_t)-1, nul = 0;
    int has_nul = memchr(s, 0, size) != NULL;

    if (v.status == UTF8KIT_OK) {
        for (i = 0; i < size;) {
            uint32_t cp;
            size_t n;
            utf8kit_decode((const char *)s + i, size - i, &cp, &n);
            if (n == 4) {
                supp++;
                if (first_supp == (size_t)-1)
                    first_supp = i;
            }
            nul += cp == 0;
            i += n;
        }
        /* CESU-8 */
        o = conv(UTF8KIT_UTF8, UTF8KIT_CESU8, s, size, UTF8KIT_STRICT, &r);
        FUZZ_CHECK(r.status == UTF8KIT_OK && r.written == size + 2 * supp,
                   "to CESU-8: " RES_FMT " want %zu", RES_ARGS(r), size + 2 * supp);
        for (i = 0; i < r.written; i++)
            FUZZ_CHECK(o[i] < 0xF0, "CESU-8 output holds %02X at %zu", o[i], i);
        r2 = utf8kit_validate((const char *)o, r.written);
        if (supp == 0)
            FUZZ_CHECK(r2.status == UTF8KIT_OK && memcmp(o, s, size) == 0, "BMP-only CESU-8");
        else
            FUZZ_CHECK(r2.status == UTF8KIT_ERR_SURROGATE && r2.read == first_supp,
                       "CESU-8 output as UTF-8: " RES_FMT ", first supplementary at %zu",
                       RES_ARGS(r2), first_supp);
        free(o);
        round_trip(UTF8KIT_UTF8, UTF8KIT_CESU8, s, size);
        /* valid UTF-8 read as CESU-8: fine up to the first 4-octet form */
        o = conv(UTF8KIT_CESU8, UTF8KIT_UTF8, s, size, UTF8KIT_STRICT, &r);
        if (supp == 0)
            FUZZ_CHECK(r.status == UTF8KIT_OK && r.written == size && memcmp(o, s, size) == 0,
                       "UTF-8 without supplementary read as CESU-8: " RES_FMT, RES_ARGS(r));
        else
            FUZZ_CHECK(r.status != UTF8KIT_OK && r.read == first_supp,
                       "4-octet form accepted as CESU-8: " RES_FMT, RES_ARGS(r));
        free(o);

        /* Modified UTF-8 */
        o = conv(UTF8KIT_UTF8, UTF8KIT_MUTF8, s, size, UTF8KIT_STRICT, &r);
        FUZZ_CHECK(r.status == UTF8KIT_OK && r.written == size + 2 * supp + nul,
                   "to MUTF-8: " RES_FMT, RES_ARGS(r));
        FUZZ_CHECK(memchr(o, 0, r.written) == NULL, "a 00 byte in Modified UTF-8");
        free(o);
        round_trip(UTF8KIT_UTF8, UTF8KIT_MUTF8, s, size);

        /* RFC 2279: the same bytes */
        o = conv(UTF8KIT_UTF8, UTF8KIT_UTF8_RFC2279, s, size, UTF8KIT_STRICT, &r);
        FUZZ_CHECK(r.status == UTF8KIT_OK && r.written == size && memcmp(o, s, size) == 0,
                   "UTF-8 to RFC 2279 changed: " RES_FMT, RES_ARGS(r));
        free(o);
        o = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF8, s, size, UTF8KIT_STRICT, &r);
        FUZZ_CHECK(r.status == UTF8KIT_OK && r.written == size && memcmp(o, s, size) == 0,
                   "RFC 2279 to UTF-8 changed valid text: " RES_FMT, RES_ARGS(r));
        free(o);
    }

    /* RFC 2279 text within U+10FFFF is UTF-8 */
    o = conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32LE, s, size, UTF8KIT_STRICT, &r);
    if (r.status == UTF8KIT_OK) {
        uint32_t mx = 0, u;
        for (i = 0; i + 4 <= r.written; i += 4) {
            u = (uint32_t)o[i] | (uint32_t)o[i + 1] << 8 | (uint32_t)o[i + 2] << 16 |
                (uint32_t)o[i + 3] << 24;
            if (u > mx)
                mx = u;
            FUZZ_CHECK(u <= 0x7FFFFFFFu && (u < 0xD800 || u > 0xDFFF), "RFC 2279 value %X", u);
        }
        FUZZ_CHECK((mx <= 0x10FFFF) == (v.status == UTF8KIT_OK),
                   "RFC 2279 valid, max %X, but UTF-8 says %s", mx, utf8kit_status_name(v.status));
    } else {
        FUZZ_CHECK(v.status != UTF8KIT_OK, "valid UTF-8 refused as RFC 2279: " RES_FMT,
                   RES_ARGS(r));
    }
    free(o);

    /* round trips of whatever each form accepts */
    round_trip(UTF8KIT_CESU8, UTF8KIT_UTF16LE, s, size);
    round_trip(UTF8KIT_CESU8, UTF8KIT_UTF8, s, size);
    round_trip(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF8, s, size);
    if (!has_nul) {
        round_trip(UTF8KIT_MUTF8, UTF8KIT_UTF16BE, s, size);
        round_trip(UTF8KIT_MUTF8, UTF8KIT_UTF8, s, size);
    }
    /* REPLACE consumes everything, from each form */
    free(conv(UTF8KIT_CESU8, UTF8KIT_UTF16LE, s, size, UTF8KIT_REPLACE, &r));
    free(conv(UTF8KIT_MUTF8, UTF8KIT_UTF8, s, size, UTF8KIT_REPLACE, &r));
    free(conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32BE, s, size, UTF8KIT_REPLACE, &r));
    free(conv(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF16LE, s, size, UTF8KIT_REPLACE, &r));
    free(s);
    return 0;
}
