/* test_regressions.c - inputs found by fuzzing and hardening probes, kept
 * so they stay fixed: every public function on (NULL, 0) (the header's
 * promise: "A NULL pointer is accepted when its length is 0"), and on
 * NULL with a length (refused, never dereferenced); the inputs the fuzz
 * targets flagged, with the behaviour decided for them. */
#include "testlib.h"

#include <stdint.h>

static void null_and_empty(void)
{
    utf8kit_result r;
    uint32_t cp = 1;
    size_t n = 9, bl = 9;
    utf8kit_stream st;
    utf8kit_detection d;
    unsigned char out[8];
    utf8kit_options o = {UTF8KIT_REPLACE, 0, UTF8KIT_BOM_KEEP, false};

    CHECK(utf8kit_is_valid(NULL, 0), "is_valid(NULL, 0)");
    r = utf8kit_validate(NULL, 0);
    CHECK(r.status == UTF8KIT_OK && r.read == 0 && r.error_len == 0, "validate(NULL, 0)");
    r = utf8kit_validate(NULL, 5);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "validate(NULL, 5): %s",
          utf8kit_status_name(r.status));
    CHECK(!utf8kit_is_valid(NULL, 5), "is_valid(NULL, 5)");
    CHECK(utf8kit_ascii_prefix(NULL, 0) == 0, "ascii_prefix");
    CHECK(utf8kit_count(NULL, 0) == 0 && utf8kit_utf16_length(NULL, 0) == 0, "count");
    CHECK(utf8kit_decode(NULL, 0, &cp, &n) == UTF8KIT_ERR_TRUNCATED && n == 0, "decode");
    n = 9;
    CHECK(utf8kit_decode_last(NULL, 0, &cp, &n) == UTF8KIT_ERR_TRUNCATED && n == 0,
          "decode_last");
    CHECK(utf8kit_is_boundary(NULL, 0, 0) && !utf8kit_is_boundary(NULL, 0, 1), "is_boundary");
    CHECK(utf8kit_next_boundary(NULL, 0, 0) == 0 && utf8kit_prev_boundary(NULL, 0, 0) == 0,
          "next/prev_boundary");
    CHECK(utf8kit_prev_boundary(NULL, 0, 7) == 0, "prev_boundary past the end");
    CHECK(utf8kit_compare(NULL, 0, NULL, 0) == 0 && utf8kit_compare(NULL, 0, "a", 1) < 0 &&
              utf8kit_compare("a", 1, NULL, 0) > 0,
          "compare");
    CHECK(utf8kit_find(NULL, 0, NULL, 0) == 0 && utf8kit_find(NULL, 0, "a", 1) == UTF8KIT_NOT_FOUND &&
              utf8kit_find("a", 1, NULL, 0) == 0,
          "find");
    r = utf8kit_convert(UTF8KIT_UTF16LE, UTF8KIT_UTF8, NULL, 0, NULL, 0, &o);
    CHECK(r.status == UTF8KIT_OK && r.written == 0, "convert(NULL, 0) measure");
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF32BE, NULL, 0, out, 0, NULL);
    CHECK(r.status == UTF8KIT_OK && r.written == 0, "convert(NULL, 0)");
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF16LE, NULL, 3, out, sizeof out, NULL);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "convert(NULL, 3): %s",
          utf8kit_status_name(r.status));
    o.bom = UTF8KIT_BOM_ADD;
    r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF16BE, NULL, 0, out, sizeof out, &o);
    CHECK(r.status == UTF8KIT_OK && r.written == 2 && out[0] == 0xFE && out[1] == 0xFF,
          "BOM added to an empty input");
    r = utf8kit_repair(NULL, 0, NULL, 0);
    CHECK(r.status == UTF8KIT_OK && r.written == 0, "repair(NULL, 0)");
    r = utf8kit_utf8_to_utf16le(NULL, 0, NULL, 0, UTF8KIT_STRICT);
    CHECK(r.status == UTF8KIT_OK, "utf8_to_utf16le(NULL, 0)");
    r = utf8kit_utf16be_to_utf8(NULL, 0, (char *)out, 0, UTF8KIT_SKIP);
    CHECK(r.status == UTF8KIT_OK, "utf16be_to_utf8(NULL, 0)");
    r = utf8kit_utf32_to_utf8(NULL, 0, NULL, 0, UTF8KIT_ASSUME_VALID);
    CHECK(r.status == UTF8KIT_OK, "utf32_to_utf8(NULL, 0)");
    r = utf8kit_latin1_to_utf8(NULL, 0, NULL, 0);
    CHECK(r.status == UTF8KIT_OK, "latin1_to_utf8(NULL, 0)");
    r = utf8kit_utf8_to_latin1(NULL, 2, (char *)out, sizeof out, UTF8KIT_REPLACE);
    CHECK(r.status == UTF8KIT_ERR_INVALID_ARGUMENT, "utf8_to_latin1(NULL, 2)");
    CHECK(utf8kit_stream_init(&st, UTF8KIT_UTF8, UTF8KIT_UTF16LE, NULL) == UTF8KIT_OK, "init");
    r = utf8kit_stream_convert(&st, NULL, 0, NULL, 0, false);
    CHECK(r.status == UTF8KIT_OK && r.read == 0 && r.written == 0, "stream(NULL, 0)");
    r = utf8kit_stream_convert(&st, NULL, 0, out, 0, true);
    CHECK(r.status == UTF8KIT_OK, "stream final (NULL, 0): %s", utf8kit_status_name(r.status));
    CHECK(utf8kit_bom_detect(NULL, 0, &bl) == UTF8KIT_ENCODING_UNKNOWN && bl == 0, "bom_detect");
    CHECK(utf8kit_encoding_from_label(NULL, 0) == UTF8KIT_ENCODING_UNKNOWN, "from_label");
    d = utf8kit_detect(NULL, 0);
    CHECK(d.encoding == UTF8KIT_ASCII && d.bom_len == 0 && d.utf8_error.status == UTF8KIT_OK,
          "detect(NULL, 0)");
    CHECK(utf8kit_impl_select(NULL) == UTF8KIT_ERR_INVALID_ARGUMENT, "impl_select(NULL)");
    CHECK(utf8kit_impl_select("no-such-kernel") == UTF8KIT_ERR_INVALID_ARGUMENT,
          "impl_select(unknown)");
}

/* Inputs the fuzz targets stopped on, where the library was right and the
 * target's expectation was refined; kept so the decided behaviour holds. */
static void fuzz_decisions(void)
{
    unsigned char out[64];
    utf8kit_result r;
    utf8kit_options o = {UTF8KIT_REPLACE, 0, UTF8KIT_BOM_KEEP, false};
    utf8kit_detection d;
    /* fuzz_convert: the RFC 2279 form carries values above U+10FFFF into
     * UTF-32 (here F7 BF BE BF = 0x1FFFBF), which is not valid UTF-32 then */
    static const unsigned char rfc[] = {0x31, 0xF7, 0xBF, 0xBE, 0xBF, 0x2E};
    unsigned char *p = dup_exact(rfc, sizeof rfc);
    r = utf8kit_convert(UTF8KIT_UTF8_RFC2279, UTF8KIT_UTF32BE, p, sizeof rfc, out, sizeof out, &o);
    CHECK(r.status == UTF8KIT_OK && r.written == 12 && r.replaced == 0 && out[4] == 0x00 &&
              out[5] == 0x1F && out[6] == 0xFF && out[7] == 0xBF,
          "RFC 2279 to UTF-32: %s written %zu", utf8kit_status_name(r.status), r.written);
    free(p);
    /* fuzz_labels: ASCII holding a 00 byte may be BOM-less UTF-16LE by
     * shape (src/detect.c, rule 3), not ASCII */
    p = dup_exact(" \0", 2);
    d = utf8kit_detect(p, 2);
    CHECK(d.encoding == UTF8KIT_UTF16LE && d.utf8_error.status == UTF8KIT_OK,
          "detect(20 00) = %d", d.encoding);
    free(p);
}

/* Found by fuzz_stream (crash-fuzz_stream-ab6b367d...): the AVX-512
 * UTF-8 -> UTF-16 window under ASSUME_VALID with invalid input (64 bytes
 * of F0 after 64 ASCII bytes) converted up to 61 "characters" of 2 units
 * each into 64 units of room, wrote 122 bytes past the capacity and
 * returned written > cap (then `cap - o` wrapped for the scalar tail).
 * ASSUME_VALID may give any output on invalid input, but never a write
 * out of bounds. Swept here for every typed call and policy, with lead
 * bytes, continuation bytes and bytes that never appear (runs of 64 to
 * 130), after ASCII runs of every length 0..70, at an exact capacity,
 * behind a canary. */
static void no_write_past_cap(void)
{
    static const unsigned char fill[] = {0xF0, 0xF4, 0xF5, 0xFF, 0xC0, 0xC2, 0xE0, 0xED, 0x80, 0xBF};
    const size_t canary = 512;
    static const size_t fill_len[] = {64, 90, 121, 130};
    size_t f, a, fl, pol, total = 0, bad = 0;
    for (f = 0; f < sizeof fill; f++)
        for (a = 0; a <= 70; a++)
            for (fl = 0; fl < 4; fl++)
            for (pol = 0; pol < 4; pol++) {
                size_t len = a + fill_len[fl], cap, i;
                unsigned char *s = malloc(len), *o;
                utf8kit_result r[3];
                int k;
                if (!s)
                    exit(2);
                memset(s, 'a', a);
                memset(s + a, fill[f], len - a);
                cap = len; /* units: one per input byte at most */
                o = malloc(4 * cap + canary);
                if (!o)
                    exit(2);
                for (k = 0; k < 3; k++) {
                    size_t osz = k == 2 ? 4 : k == 1 ? 1 : 2;
                    memset(o, 0xA5, 4 * cap + canary);
                    if (k == 0)
                        r[k] = utf8kit_utf8_to_utf16le((const char *)s, len, (uint16_t *)(void *)o,
                                                       cap, (utf8kit_policy)pol);
                    else if (k == 1)
                        r[k] = utf8kit_utf8_to_latin1((const char *)s, len, (char *)o, cap,
                                                      (utf8kit_policy)pol);
                    else
                        r[k] = utf8kit_utf8_to_utf32((const char *)s, len, (uint32_t *)(void *)o,
                                                     cap, (utf8kit_policy)pol);
                    for (i = cap * osz; i < 4 * cap + canary; i++)
                        if (o[i] != 0xA5) {
                            bad++;
                            break;
                        }
                    /* and one unit per byte is room enough under every
                     * policy (utf8kit_max_output_size), so never too small
                     * (the AVX-512 window under ASSUME_VALID once wrote
                     * more units than it read bytes: fixed in 640bac3) */
                    if (r[k].written > cap || r[k].status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                        bad++;
                    total++;
                }
                CHECK(bad == 0, "%zu x %02X after %zu ASCII, policy %zu: wrote past the capacity or ran out of room "
                      "(written %zu/%zu/%zu of %zu)", fill_len[fl], fill[f], a, pol, r[0].written,
                      r[1].written, r[2].written, cap);
                bad = 0;
                free(o);
                free(s);
            }
    (void)total;
}

/* Found by fuzz_stream (crash 8fc72d84 / 6abe553d): UTF-32 values above
 * U+10FFFF go into the RFC 2279 form in one call, but a stream that got
 * the unit in pieces refused it as too large. Every cut of the input must
 * give the one-shot answer. */
static void stream_ucs4_to_rfc2279(void)
{
    static const unsigned char in[11] = {0x6F, 0x00, 0x0F, 0x6F, 0x41, 0, 0, 0, 0x7E, 0x28, 0xB4};
    unsigned char want[32], got[32];
    size_t len, cut;
    for (len = 8; len <= sizeof in; len += 3) {
        unsigned char *p = dup_exact(in, len);
        utf8kit_result one = utf8kit_convert(UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279, p, len, want,
                                             sizeof want, NULL);
        CHECK(one.written == 7 && one.status == (len == 8 ? UTF8KIT_OK : UTF8KIT_ERR_TRUNCATED),
              "one-shot %zu bytes: %s written %zu", len, utf8kit_status_name(one.status),
              one.written);
        for (cut = 0; cut <= len; cut++) {
            utf8kit_stream st;
            utf8kit_result a, b;
            utf8kit_stream_init(&st, UTF8KIT_UTF32LE, UTF8KIT_UTF8_RFC2279, NULL);
            a = utf8kit_stream_convert(&st, p, cut, got, sizeof got, false);
            b = utf8kit_stream_convert(&st, p + cut, len - cut, got + a.written,
                                       sizeof got - a.written, true);
            CHECK(a.status == UTF8KIT_OK && b.status == one.status &&
                      a.written + b.written == one.written &&
                      memcmp(got, want, one.written) == 0,
                  "%zu bytes cut at %zu: %s/%s written %zu+%zu", len, cut,
                  utf8kit_status_name(a.status), utf8kit_status_name(b.status), a.written,
                  b.written);
        }
        free(p);
    }
}

int main(void)
{
    test_begin();
    null_and_empty();
    fuzz_decisions();
    no_write_past_cap();
    stream_ucs4_to_rfc2279();
    return test_done("regressions");
}
