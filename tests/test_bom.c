/* test_bom.c - byte order mark detection and the BOM bytes of each
 * encoding (RFC 3629 section 6; U+FEFF per encoding from the Unicode FAQ). */
#include "testlib.h"

static utf8kit_encoding detect(const char *s, size_t len, size_t *bl)
{
    unsigned char *p = dup_exact(s, len);
    utf8kit_encoding e = utf8kit_bom_detect(p, len, bl);
    free(p);
    return e;
}

int main(void)
{
    static const struct {
        const char *s;
        size_t len;
        utf8kit_encoding enc;
        size_t bom_len;
    } t[] = {
        {"\xEF\xBB\xBF", 3, UTF8KIT_UTF8, 3},
        {"\xEF\xBB\xBFhello", 8, UTF8KIT_UTF8, 3},
        {"\xEF\xBB", 2, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"\xEF\xBB\xBE", 3, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"\xFE\xFF", 2, UTF8KIT_UTF16BE, 2},
        {"\xFE\xFF\x00\x41", 4, UTF8KIT_UTF16BE, 2},
        {"\xFF\xFE", 2, UTF8KIT_UTF16LE, 2},
        {"\xFF\xFE\x41\x00", 4, UTF8KIT_UTF16LE, 2},
        {"\xFF\xFE\x00", 3, UTF8KIT_UTF16LE, 2},
        {"\xFF\xFE\x00\x00", 4, UTF8KIT_UTF32LE, 4},
        {"\xFF\xFE\x00\x00\x41\x00\x00\x00", 8, UTF8KIT_UTF32LE, 4},
        {"\x00\x00\xFE\xFF", 4, UTF8KIT_UTF32BE, 4},
        {"\x00\x00\xFE\xFF\x00\x00\x00\x41", 8, UTF8KIT_UTF32BE, 4},
        {"\x00\x00\xFE", 3, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"\x00\x00\xFF\xFE", 4, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"\xFE", 1, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"\xFF", 1, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"", 0, UTF8KIT_ENCODING_UNKNOWN, 0},
        {"abc", 3, UTF8KIT_ENCODING_UNKNOWN, 0},
        {" \xEF\xBB\xBF", 4, UTF8KIT_ENCODING_UNKNOWN, 0}, /* only at the start */
        {"\xC3\xAF\xC2\xBB\xC2\xBF", 6, UTF8KIT_ENCODING_UNKNOWN, 0}, /* a BOM read as Latin-1 */
    };
    /* U+FEFF in each encoding (an independent table, not the library's). */
    static const struct {
        utf8kit_encoding enc;
        const char *bytes;
        size_t len;
    } b[] = {
        {UTF8KIT_UTF8, "\xEF\xBB\xBF", 3},
        {UTF8KIT_UTF16LE, "\xFF\xFE", 2},
        {UTF8KIT_UTF16BE, "\xFE\xFF", 2},
        {UTF8KIT_UTF32LE, "\xFF\xFE\x00\x00", 4},
        {UTF8KIT_UTF32BE, "\x00\x00\xFE\xFF", 4},
        {UTF8KIT_UCS2LE, "\xFF\xFE", 2},
        {UTF8KIT_UCS2BE, "\xFE\xFF", 2},
        {UTF8KIT_LATIN1, "", 0},
        {UTF8KIT_ASCII, "", 0},
        {UTF8KIT_CP1252, "", 0},
        {UTF8KIT_CESU8, "\xEF\xBB\xBF", 3},
        {UTF8KIT_MUTF8, "\xEF\xBB\xBF", 3},
        {UTF8KIT_UTF8_RFC2279, "\xEF\xBB\xBF", 3},
        {UTF8KIT_ENCODING_UNKNOWN, "", 0},
        {(utf8kit_encoding)99, "", 0},
    };
    size_t i;
    test_begin();
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        size_t bl = 99;
        utf8kit_encoding e = detect(t[i].s, t[i].len, &bl);
        CHECK(e == t[i].enc && bl == t[i].bom_len, "case %zu: %d len %zu", i, (int)e, bl);
        CHECK(detect(t[i].s, t[i].len, NULL) == t[i].enc, "case %zu without bom_len", i);
    }
    {
        size_t bl = 7;
        CHECK(utf8kit_bom_detect(NULL, 0, &bl) == UTF8KIT_ENCODING_UNKNOWN && bl == 0, "NULL");
    }
    for (i = 0; i < sizeof b / sizeof b[0]; i++) {
        unsigned char out[4] = {0xAA, 0xAA, 0xAA, 0xAA};
        size_t n = utf8kit_bom_bytes(b[i].enc, out), j;
        CHECK(n == b[i].len && memcmp(out, b[i].bytes, n) == 0, "bom of %d: %zu bytes",
              (int)b[i].enc, n);
        for (j = n; j < 4; j++)
            CHECK(out[j] == 0xAA, "bom of %d wrote byte %zu", (int)b[i].enc, j);
        /* a BOM, when there is one, is detected as the same form */
        if (n > 0) {
            size_t bl = 0;
            utf8kit_encoding e = detect((const char *)out, n, &bl);
            utf8kit_encoding want = b[i].enc;
            if (want == UTF8KIT_UCS2LE)
                want = UTF8KIT_UTF16LE;
            else if (want == UTF8KIT_UCS2BE)
                want = UTF8KIT_UTF16BE;
            else if (want == UTF8KIT_CESU8 || want == UTF8KIT_MUTF8 ||
                     want == UTF8KIT_UTF8_RFC2279)
                want = UTF8KIT_UTF8;
            CHECK(e == want && bl == n, "BOM of %d detected as %d", (int)b[i].enc, (int)e);
        }
    }
    return test_done("bom");
}
