/* consumer.c - a program built against an installed utf8kit (through
 * pkg-config and through find_package): it includes only the public header
 * and checks a few answers, printing "consumer ok" on success. */
#include <utf8kit.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char good[] = "caf\xC3\xA9 \xF0\x9F\x98\x80";
    static const char bad[] = "ab\xE2\x82\x41";
    utf8kit_result r = utf8kit_validate(bad, sizeof bad - 1);
    int fails = 0;

    if (!utf8kit_is_valid(good, sizeof good - 1))
        fails++;
    if (r.status != UTF8KIT_ERR_MISSING_CONTINUATION || r.read != 2 || r.error_len != 2)
        fails++;
    if (strcmp(utf8kit_version(), UTF8KIT_VERSION_STRING) != 0)
        fails++;
    printf("consumer %s (utf8kit %s, kernel %s)\n", fails ? "FAILED" : "ok", utf8kit_version(),
           utf8kit_impl_name());
    return fails != 0;
}
