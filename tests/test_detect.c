/* test_detect.c - utf8kit_detect on each class of input: signatures,
 * ASCII, UTF-8, BOM-less UTF-16/UTF-32 by shape, legacy single-byte text
 * with its guess, and Markus Kuhn's stress file (not UTF-8). Byte strings
 * were made with python3 (str.encode) and checked by hand. */
#include "testlib.h"

#define S(lit) lit, sizeof(lit) - 1

static const struct {
    const char *name;
    const char *s;
    size_t len;
    utf8kit_encoding enc;
    size_t bom_len;
    utf8kit_status err;   /* first UTF-8 error */
    size_t err_at, err_len;
    utf8kit_encoding guess;
} cases[] = {
    {"empty", S(""), UTF8KIT_ASCII, 0, UTF8KIT_OK, 0, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"ascii", S("hello, world\n"), UTF8KIT_ASCII, 0, UTF8KIT_OK, 13, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"ascii with NUL", S("a\0b"), UTF8KIT_ASCII, 0, UTF8KIT_OK, 3, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"utf-8", S("h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80"), UTF8KIT_UTF8, 0, UTF8KIT_OK, 15, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-8 bom", S("\xEF\xBB\xBFhi"), UTF8KIT_UTF8, 3, UTF8KIT_OK, 5, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"utf-8 bom only", S("\xEF\xBB\xBF"), UTF8KIT_UTF8, 3, UTF8KIT_OK, 3, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    /* a signature decides even when the rest is not UTF-8 */
    {"utf-8 bom, bad", S("\xEF\xBB\xBF" "caf\xE9"), UTF8KIT_UTF8, 3, UTF8KIT_ERR_TRUNCATED, 6, 1,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-16le bom", S("\xFF\xFEh\0i\0"), UTF8KIT_UTF16LE, 2, UTF8KIT_ERR_INVALID_LEAD, 0, 1,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-16be bom", S("\xFE\xFF\0h\0i"), UTF8KIT_UTF16BE, 2, UTF8KIT_ERR_INVALID_LEAD, 0, 1,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-32le bom", S("\xFF\xFE\0\0h\0\0\0"), UTF8KIT_UTF32LE, 4, UTF8KIT_ERR_INVALID_LEAD, 0, 1,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-32be bom", S("\0\0\xFE\xFF\0\0\0h"), UTF8KIT_UTF32BE, 4, UTF8KIT_ERR_INVALID_LEAD, 2, 1,
     UTF8KIT_ENCODING_UNKNOWN},
    /* "Привет, мир! café" */
    {"utf-16le no bom",
     S("\x1F\x04\x40\x04\x38\x04\x32\x04\x35\x04\x42\x04\x2C\x00\x20\x00\x3C\x04\x38\x04\x40\x04"
       "\x21\x00\x20\x00\x63\x00\x61\x00\x66\x00\xE9\x00"),
     UTF8KIT_UTF16LE, 0, UTF8KIT_ERR_MISSING_CONTINUATION, 32, 1, UTF8KIT_ENCODING_UNKNOWN},
    {"utf-16be no bom",
     S("\x04\x1F\x04\x40\x04\x38\x04\x32\x04\x35\x04\x42\x00\x2C\x00\x20\x04\x3C\x04\x38\x04\x40"
       "\x00\x21\x00\x20\x00\x63\x00\x61\x00\x66\x00\xE9"),
     UTF8KIT_UTF16BE, 0, UTF8KIT_ERR_TRUNCATED, 33, 1, UTF8KIT_ENCODING_UNKNOWN},
    /* "Ünïcödé 😀 text": a surrogate pair */
    {"utf-16le pair",
     S("\xDC\x00\x6E\x00\xEF\x00\x63\x00\xF6\x00\x64\x00\xE9\x00\x20\x00\x3D\xD8\x00\xDE\x20\x00"
       "\x74\x00\x65\x00\x78\x00\x74\x00"),
     UTF8KIT_UTF16LE, 0, UTF8KIT_ERR_MISSING_CONTINUATION, 0, 1, UTF8KIT_ENCODING_UNKNOWN},
    /* "naïve ünïcode 😀" */
    {"utf-32le no bom",
     S("\x6E\x00\x00\x00\x61\x00\x00\x00\xEF\x00\x00\x00\x76\x00\x00\x00\x65\x00\x00\x00\x20\x00"
       "\x00\x00\xFC\x00\x00\x00\x6E\x00\x00\x00\xEF\x00\x00\x00\x63\x00\x00\x00\x6F\x00\x00\x00"
       "\x64\x00\x00\x00\x65\x00\x00\x00\x20\x00\x00\x00\x00\xF6\x01\x00"),
     UTF8KIT_UTF32LE, 0, UTF8KIT_ERR_MISSING_CONTINUATION, 8, 1, UTF8KIT_ENCODING_UNKNOWN},
    {"utf-32be no bom",
     S("\x00\x00\x00\x6E\x00\x00\x00\x61\x00\x00\x00\xEF\x00\x00\x00\x76\x00\x00\x00\x65\x00\x00"
       "\x00\x20\x00\x00\x00\xFC\x00\x00\x00\x6E\x00\x00\x00\xEF\x00\x00\x00\x63\x00\x00\x00\x6F"
       "\x00\x00\x00\x64\x00\x00\x00\x65\x00\x00\x00\x20\x00\x01\xF6\x00"),
     UTF8KIT_UTF32BE, 0, UTF8KIT_ERR_MISSING_CONTINUATION, 11, 1, UTF8KIT_ENCODING_UNKNOWN},
    /* UTF-16/32 of ASCII, Cyrillic ("Привет, мир"): only bytes 00..7F, so
     * valid UTF-8 as well, but NULs in a UTF-16/32 shape decide */
    {"utf-16le ascii", S("h\0e\0l\0l\0o\0"), UTF8KIT_UTF16LE, 0, UTF8KIT_OK, 10, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-16be ascii", S("\0h\0e\0l\0l\0o"), UTF8KIT_UTF16BE, 0, UTF8KIT_OK, 10, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-16le cyrillic",
     S("\x1F\x04\x40\x04\x38\x04\x32\x04\x35\x04\x42\x04\x2C\x00\x20\x00\x3C\x04\x38\x04\x40\x04"),
     UTF8KIT_UTF16LE, 0, UTF8KIT_OK, 22, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"utf-32le ascii", S("h\0\0\0i\0\0\0"), UTF8KIT_UTF32LE, 0, UTF8KIT_OK, 8, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-32be ascii", S("\0\0\0h\0\0\0i"), UTF8KIT_UTF32BE, 0, UTF8KIT_OK, 8, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    /* NULs that fit no shape leave valid UTF-8 as it is */
    {"nuls", S("\0\0\0\0"), UTF8KIT_ASCII, 0, UTF8KIT_OK, 4, 0, UTF8KIT_ENCODING_UNKNOWN},
    {"one nul", S("hello world\0 and more text"), UTF8KIT_ASCII, 0, UTF8KIT_OK, 26, 0,
     UTF8KIT_ENCODING_UNKNOWN},
    {"utf-8 nul", S("caf\xC3\xA9\0"), UTF8KIT_UTF8, 0, UTF8KIT_OK, 6, 0, UTF8KIT_ENCODING_UNKNOWN},
    /* Latin-1 "café au lait", "déjà vu" */
    {"latin-1", S("caf\xE9 au lait"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_MISSING_CONTINUATION, 3, 1, UTF8KIT_LATIN1},
    {"latin-1 end", S("caf\xE9"), UTF8KIT_ENCODING_UNKNOWN, 0, UTF8KIT_ERR_TRUNCATED, 3, 1,
     UTF8KIT_LATIN1},
    {"latin-1 even", S("d\xE9j\xE0 vu!"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_MISSING_CONTINUATION, 1, 1, UTF8KIT_LATIN1},
    /* windows-1252 curly quotes 93/94, the euro sign 80 */
    {"cp1252", S("\x93quoted\x94 text"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_STRAY_CONTINUATION, 0, 1, UTF8KIT_CP1252},
    {"cp1252 euro", S("price: 5\x80, caf\xE9"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_STRAY_CONTINUATION, 8, 1, UTF8KIT_CP1252},
    /* 81 8D 8F 90 9D are undefined in windows-1252: they prove nothing */
    {"undefined c1", S("a\x81\x8D\x8F\x90\x9D\xE9"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_STRAY_CONTINUATION, 1, 1, UTF8KIT_LATIN1},
    /* an unpaired surrogate breaks the UTF-16 shape */
    {"lone surrogate", S("a\0\x00\xD8" "b\0\xE9\0"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_MISSING_CONTINUATION, 3, 1, UTF8KIT_LATIN1},
    /* odd length never fits UTF-16 */
    {"odd", S("a\0\xE9\0b"), UTF8KIT_ENCODING_UNKNOWN, 0, UTF8KIT_ERR_MISSING_CONTINUATION, 2, 1,
     UTF8KIT_LATIN1},
    /* UTF-32 values above U+10FFFF do not fit */
    {"too large 32", S("\x00\x00\x11\x00\xE9\x00\x00\x00"), UTF8KIT_ENCODING_UNKNOWN, 0,
     UTF8KIT_ERR_MISSING_CONTINUATION, 4, 1, UTF8KIT_LATIN1},
};

static void check_case(size_t i)
{
    unsigned char *p = dup_exact(cases[i].s, cases[i].len);
    utf8kit_detection d = utf8kit_detect(p, cases[i].len);
    CHECK(d.encoding == cases[i].enc, "%s: encoding %d, want %d", cases[i].name, (int)d.encoding,
          (int)cases[i].enc);
    CHECK(d.bom_len == cases[i].bom_len, "%s: bom_len %zu", cases[i].name, d.bom_len);
    CHECK(d.utf8_error.status == cases[i].err && d.utf8_error.read == cases[i].err_at &&
              d.utf8_error.error_len == cases[i].err_len,
          "%s: utf8 error %s at %zu len %zu", cases[i].name,
          utf8kit_status_name(d.utf8_error.status), d.utf8_error.read, d.utf8_error.error_len);
    CHECK(d.guess == cases[i].guess, "%s: guess %d, want %d", cases[i].name, (int)d.guess,
          (int)cases[i].guess);
    free(p);
}

int main(void)
{
    size_t i;
    const char *dir;
    test_begin();
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(i);

    {
        utf8kit_detection d = utf8kit_detect(NULL, 0);
        CHECK(d.encoding == UTF8KIT_ASCII && d.utf8_error.status == UTF8KIT_OK, "NULL, 0");
        d = utf8kit_detect(NULL, 3);
        CHECK(d.encoding == UTF8KIT_ENCODING_UNKNOWN &&
                  d.utf8_error.status == UTF8KIT_ERR_INVALID_ARGUMENT,
              "NULL, 3");
    }

    /* Kuhn's stress test is not UTF-8: its first error is the F8 of
     * section 2.1.5 (the 5-octet form of U+200000) at offset 4461 (python3:
     * UnicodeDecodeError start=4461 end=4462 "invalid start byte"); it
     * holds every byte 80..9F, so the guess is windows-1252. */
    dir = testdata_dir();
    if (dir) {
        char path[4096];
        size_t n = 0;
        unsigned char *data, *p;
        snprintf(path, sizeof path, "%s/kuhn/UTF-8-test.txt", dir);
        data = read_file(path, &n);
        CHECK(data != NULL && n == 22835, "cannot read %s", path);
        if (data) {
            utf8kit_detection d;
            p = dup_exact(data, n);
            d = utf8kit_detect(p, n);
            CHECK(d.encoding == UTF8KIT_ENCODING_UNKNOWN, "kuhn: encoding %d", (int)d.encoding);
            CHECK(d.utf8_error.status == UTF8KIT_ERR_INVALID_LEAD && d.utf8_error.read == 4461 &&
                      d.utf8_error.error_len == 1,
                  "kuhn: %s at %zu len %zu", utf8kit_status_name(d.utf8_error.status),
                  d.utf8_error.read, d.utf8_error.error_len);
            CHECK(d.guess == UTF8KIT_CP1252, "kuhn: guess %d", (int)d.guess);
            /* its first 4461 bytes are valid UTF-8 with non-ASCII in them */
            d = utf8kit_detect(p, 4461);
            CHECK(d.encoding == UTF8KIT_UTF8 && d.utf8_error.status == UTF8KIT_OK,
                  "kuhn prefix: %d", (int)d.encoding);
            free(p);
            free(data);
        }
    } else {
        printf("note: UTF8KIT_TESTDATA not set, Kuhn file skipped\n");
    }
    return test_done("detect");
}
