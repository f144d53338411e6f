/* test_labels.c - charset labels: every alias round-trips, matching ignores
 * ASCII case and surrounding white space, unknown labels are never guessed. */
#include "testlib.h"

/* Expected mappings, written from the IANA registry and the WHATWG
 * Encoding Standard (with the library's documented choices: unmarked byte
 * order is little-endian, Latin-1 and ASCII stay exact). */
static const struct {
    const char *label;
    utf8kit_encoding enc;
} known[] = {
    {"UTF-8", UTF8KIT_UTF8}, {"utf-8", UTF8KIT_UTF8}, {"utf8", UTF8KIT_UTF8},
    {"csUTF8", UTF8KIT_UTF8}, {"unicode-1-1-utf-8", UTF8KIT_UTF8},
    {"unicode11utf8", UTF8KIT_UTF8}, {"unicode20utf8", UTF8KIT_UTF8},
    {"x-unicode20utf8", UTF8KIT_UTF8},
    {"utf-16le", UTF8KIT_UTF16LE}, {"csUTF16LE", UTF8KIT_UTF16LE},
    {"utf-16", UTF8KIT_UTF16LE}, {"unicode", UTF8KIT_UTF16LE},
    {"unicodefeff", UTF8KIT_UTF16LE},
    {"utf-16be", UTF8KIT_UTF16BE}, {"unicodefffe", UTF8KIT_UTF16BE},
    {"utf-32le", UTF8KIT_UTF32LE}, {"utf-32", UTF8KIT_UTF32LE},
    {"utf-32be", UTF8KIT_UTF32BE},
    {"ucs-2", UTF8KIT_UCS2LE}, {"iso-10646-ucs-2", UTF8KIT_UCS2LE},
    {"csunicode", UTF8KIT_UCS2LE}, {"ucs-2le", UTF8KIT_UCS2LE}, {"ucs-2be", UTF8KIT_UCS2BE},
    {"iso-8859-1", UTF8KIT_LATIN1}, {"iso_8859-1", UTF8KIT_LATIN1},
    {"iso_8859-1:1987", UTF8KIT_LATIN1}, {"latin1", UTF8KIT_LATIN1}, {"l1", UTF8KIT_LATIN1},
    {"csisolatin1", UTF8KIT_LATIN1}, {"iso-ir-100", UTF8KIT_LATIN1},
    {"ibm819", UTF8KIT_LATIN1}, {"cp819", UTF8KIT_LATIN1},
    {"us-ascii", UTF8KIT_ASCII}, {"ascii", UTF8KIT_ASCII}, {"ansi_x3.4-1968", UTF8KIT_ASCII},
    {"iso-ir-6", UTF8KIT_ASCII}, {"iso646-us", UTF8KIT_ASCII}, {"csascii", UTF8KIT_ASCII},
    {"us", UTF8KIT_ASCII}, {"ibm367", UTF8KIT_ASCII}, {"cp367", UTF8KIT_ASCII},
    {"windows-1252", UTF8KIT_CP1252}, {"cp1252", UTF8KIT_CP1252},
    {"x-cp1252", UTF8KIT_CP1252},
    {"cesu-8", UTF8KIT_CESU8}, {"cesu8", UTF8KIT_CESU8}, {"csCESU-8", UTF8KIT_CESU8},
    {"mutf-8", UTF8KIT_MUTF8}, {"modified-utf-8", UTF8KIT_MUTF8},
    {"java-modified-utf-8", UTF8KIT_MUTF8},
    {"utf-8-rfc2279", UTF8KIT_UTF8_RFC2279}, {"rfc2279", UTF8KIT_UTF8_RFC2279},
};

/* Labels that must not match anything: near misses, prefixes, extensions,
 * empty and blank strings, embedded NUL, non-ASCII case folding. */
static const struct {
    const char *s;
    size_t len;
} unknown[] = {
    {"utf-9", 5},     {"utf8x", 5},      {"", 0},          {"   ", 3},
    {"utf", 3},       {"utf-", 4},       {"utf-8 x", 7},   {"utf-8\0", 6},
    {"\0utf-8", 6},   {"u", 1},          {"8859-1", 6},    {"utf_8_", 6},
    {"utf-16xx", 8},  {"xutf-8", 6},     {"utf-8-", 6},    {"\xC5\xBFtf-8", 6},
    {"ut f-8", 6},    {"\vutf-8", 6},    {"windows-125", 11}, {"windows-12522", 13},
};

static const char *expected_names[UTF8KIT_ENCODING_COUNT] = {
    NULL,       "UTF-8",      "UTF-16LE", "UTF-16BE",     "UTF-32LE",
    "UTF-32BE", "UCS-2LE",    "UCS-2BE",  "ISO-8859-1",   "US-ASCII",
    "windows-1252", "CESU-8", "MUTF-8",   "UTF-8-RFC2279",
};

static utf8kit_encoding from(const char *s, size_t len)
{
    unsigned char *p = dup_exact(s, len);
    utf8kit_encoding e = utf8kit_encoding_from_label((const char *)p, len);
    free(p);
    return e;
}

/* is_alias reports whether s[0..m) equals some alias up to ASCII case. */
static bool is_alias(const char *s, size_t m)
{
    int e;
    size_t k, j;
    const char *a;
    for (e = 1; e < UTF8KIT_ENCODING_COUNT; e++)
        for (k = 0; (a = utf8kit_encoding_alias((utf8kit_encoding)e, k)) != NULL; k++) {
            if (strlen(a) != m)
                continue;
            for (j = 0; j < m; j++) {
                int x = s[j], y = a[j];
                if (x >= 'A' && x <= 'Z')
                    x += 32;
                if (y >= 'A' && y <= 'Z')
                    y += 32;
                if (x != y)
                    break;
            }
            if (j == m)
                return true;
        }
    return false;
}

/* Alternates the case of ASCII letters: "utf-8" -> "UtF-8". */
static void mix_case(char *s, int phase)
{
    size_t i;
    for (i = 0; s[i]; i++) {
        char c = s[i];
        if ((i + (size_t)phase) % 2 == 0) {
            if (c >= 'a' && c <= 'z')
                s[i] = (char)(c - 32);
        } else if (c >= 'A' && c <= 'Z') {
            s[i] = (char)(c + 32);
        }
    }
}

int main(void)
{
    size_t i, total = 0;
    int e;
    test_begin();

    for (i = 0; i < sizeof known / sizeof known[0]; i++) {
        const char *l = known[i].label;
        utf8kit_encoding got = from(l, strlen(l));
        CHECK(got == known[i].enc, "label '%s' -> %d, want %d", l, (int)got, (int)known[i].enc);
    }

    for (e = 0; e < UTF8KIT_ENCODING_COUNT + 2; e++) {
        const char *name = utf8kit_encoding_name((utf8kit_encoding)e);
        if (e < UTF8KIT_ENCODING_COUNT)
            CHECK(name == expected_names[e] ||
                      (name && expected_names[e] && strcmp(name, expected_names[e]) == 0),
                  "name of %d is '%s'", e, name ? name : "(null)");
        else
            CHECK(name == NULL, "encoding %d has a name", e);
        CHECK(utf8kit_encoding_alias((utf8kit_encoding)e, 0) == name, "alias 0 of %d", e);
    }

    /* Every alias maps back to its encoding, under every case mix and with
     * white space around it. */
    for (e = 1; e < UTF8KIT_ENCODING_COUNT; e++) {
        size_t k;
        const char *a;
        for (k = 0; (a = utf8kit_encoding_alias((utf8kit_encoding)e, k)) != NULL; k++) {
            char buf[80];
            size_t n = strlen(a);
            total++;
            CHECK(n > 0 && n < 40, "alias length %zu", n);
            CHECK(from(a, n) == (utf8kit_encoding)e, "alias '%s' of %d", a, e);
            snprintf(buf, sizeof buf, "%s", a);
            mix_case(buf, 0);
            CHECK(from(buf, n) == (utf8kit_encoding)e, "alias '%s'", buf);
            mix_case(buf, 1);
            CHECK(from(buf, n) == (utf8kit_encoding)e, "alias '%s'", buf);
            snprintf(buf, sizeof buf, " \t\r\n\f%s\f\n\r\t ", a);
            CHECK(from(buf, strlen(buf)) == (utf8kit_encoding)e, "padded alias '%s'", a);
            /* every proper prefix is refused unless it is a label itself
             * ("UTF-16" of "UTF-16LE", "us" of "us-ascii") */
            {
                size_t m;
                for (m = 0; m < n; m++) {
                    utf8kit_encoding p = from(a, m);
                    if (is_alias(a, m))
                        CHECK(p != UTF8KIT_ENCODING_UNKNOWN, "prefix %.*s", (int)m, a);
                    else
                        CHECK(p == UTF8KIT_ENCODING_UNKNOWN, "prefix %.*s of '%s' matched %d",
                              (int)m, a, a, (int)p);
                }
            }
            snprintf(buf, sizeof buf, "%sx", a);
            CHECK(from(buf, n + 1) == UTF8KIT_ENCODING_UNKNOWN, "'%s' matched", buf);
        }
        CHECK(k >= 2, "encoding %d has only %zu labels", e, k);
    }
    CHECK(total >= 60, "only %zu labels", total);
    CHECK(utf8kit_encoding_alias(UTF8KIT_ENCODING_UNKNOWN, 0) == NULL, "unknown has aliases");
    CHECK(utf8kit_encoding_alias(UTF8KIT_UTF8, 1000) == NULL, "alias 1000");

    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK(from(unknown[i].s, unknown[i].len) == UTF8KIT_ENCODING_UNKNOWN,
              "unknown label %zu matched", i);
    CHECK(utf8kit_encoding_from_label(NULL, 0) == UTF8KIT_ENCODING_UNKNOWN, "NULL label");
    CHECK(utf8kit_encoding_from_label(NULL, 5) == UTF8KIT_ENCODING_UNKNOWN, "NULL label");
    /* the length is honoured: no NUL is looked for */
    CHECK(utf8kit_encoding_from_label("utf-8xyz", 5) == UTF8KIT_UTF8, "length honoured");
    CHECK(utf8kit_encoding_from_label("latin1", 1) == UTF8KIT_ENCODING_UNKNOWN, "length 1");

    /* The labels that do not say the byte order (RFC 2781 section 4.3),
     * matched as utf8kit_encoding_from_label matches; every other label of
     * every encoding says it, or has none to say. */
    {
        static const char *const unmarked[] = {"UTF-16", "utf16", "csUTF16", "unicode",
                                               "UTF-32", "utf32", "csUTF32", "UCS-2",
                                               "ucs2",   "ISO-10646-UCS-2", "csUnicode"};
        size_t n_unmarked = 0;
        for (i = 0; i < sizeof unmarked / sizeof unmarked[0]; i++) {
            const char *l = unmarked[i];
            char up[40];
            size_t k;
            CHECK(utf8kit_label_unmarked(l, strlen(l)), "'%s' is unmarked", l);
            for (k = 0; l[k] && k + 3 < sizeof up; k++)
                up[k + 1] = (char)(l[k] >= 'a' && l[k] <= 'z' ? l[k] - 32 : l[k]);
            up[0] = ' ';
            up[k + 1] = '\t';
            up[k + 2] = 0;
            CHECK(utf8kit_label_unmarked(up, k + 2), "'%s' (case, white space)", up);
            CHECK(!utf8kit_label_unmarked(l, strlen(l) - 1), "a prefix of '%s'", l);
        }
        for (e = 1; e < UTF8KIT_ENCODING_COUNT; e++) {
            const char *a;
            size_t k;
            for (k = 0; (a = utf8kit_encoding_alias((utf8kit_encoding)e, k)) != NULL; k++)
                if (utf8kit_label_unmarked(a, strlen(a))) {
                    n_unmarked++;
                    CHECK(e == UTF8KIT_UTF16LE || e == UTF8KIT_UTF32LE || e == UTF8KIT_UCS2LE,
                          "unmarked '%s' names encoding %d", a, e);
                }
        }
        CHECK(n_unmarked == sizeof unmarked / sizeof unmarked[0], "%zu unmarked labels",
              n_unmarked);
        CHECK(!utf8kit_label_unmarked("UTF-16LE", 8) &&
                  !utf8kit_label_unmarked("unicodefeff", 11) &&
                  !utf8kit_label_unmarked("UTF-32BE", 8) && !utf8kit_label_unmarked("UTF-8", 5),
              "marked labels");
        CHECK(!utf8kit_label_unmarked("klingon", 7) && !utf8kit_label_unmarked(NULL, 6) &&
                  !utf8kit_label_unmarked("", 0),
              "unknown, NULL, empty");
    }

    return test_done("labels");
}
