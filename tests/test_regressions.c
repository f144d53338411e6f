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

int main(void)
{
    test_begin();
    null_and_empty();
    fuzz_decisions();
    return test_done("regressions");
}
