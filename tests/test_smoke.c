/* test_smoke.c - the first checks: RFC 3629 section 7 examples validate,
 * section 10's attacks are refused with the right kind at the right place. */
#include "testlib.h"

int main(void)
{
    static const struct {
        const char *bytes;
        size_t len;
        utf8kit_status st;
        size_t at, elen;
    } t[] = {
        {"\x41\xE2\x89\xA2\xCE\x91\x2E", 7, UTF8KIT_OK, 7, 0},
        {"\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4", 9, UTF8KIT_OK, 9, 0},
        {"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 9, UTF8KIT_OK, 9, 0},
        {"\xEF\xBB\xBF\xF0\xA3\x8E\xB4", 7, UTF8KIT_OK, 7, 0},
        {"\xC0\x80", 2, UTF8KIT_ERR_OVERLONG, 0, 1},
        {"\x2F\xC0\xAE\x2E\x2F", 5, UTF8KIT_ERR_OVERLONG, 1, 1},
        {"\xED\xA1\x8C\xED\xBE\xB4", 6, UTF8KIT_ERR_SURROGATE, 0, 1},
        {"\xF4\x90\x80\x80", 4, UTF8KIT_ERR_TOO_LARGE, 0, 1},
        {"\xE2\x82", 2, UTF8KIT_ERR_TRUNCATED, 0, 2},
        {"\xE2\x82\x41", 3, UTF8KIT_ERR_MISSING_CONTINUATION, 0, 2},
        {"a\x80", 2, UTF8KIT_ERR_STRAY_CONTINUATION, 1, 1},
        {"\xFF", 1, UTF8KIT_ERR_INVALID_LEAD, 0, 1},
    };
    size_t i;
    test_begin();
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        unsigned char *p = dup_exact(t[i].bytes, t[i].len);
        utf8kit_result r = utf8kit_validate((const char *)p, t[i].len);
        CHECK(r.status == t[i].st && r.read == t[i].at && r.error_len == t[i].elen,
              "case %zu: got %s at %zu len %zu", i, utf8kit_status_name(r.status), r.read,
              r.error_len);
        CHECK(utf8kit_is_valid((const char *)p, t[i].len) == (t[i].st == UTF8KIT_OK), "case %zu", i);
        free(p);
    }
    return test_done("smoke");
}
