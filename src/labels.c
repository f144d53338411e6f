/*
 * labels.c - charset labels (RFC 3629 section 8) to encodings and back.
 *
 * Sources of the labels: the IANA "Character Sets" registry (names, aliases
 * and "preferred MIME name"), the WHATWG Encoding Standard (the labels
 * browsers accept, e.g. "unicode20utf8"), and the names iconv and Java give
 * to the encodings IANA does not register (UCS-2LE, Modified UTF-8).
 *
 * Rules where those sources disagree, chosen once for every label:
 *  - A label that does not say its byte order ("utf-16", "utf-32",
 *    "ucs-2", "unicode", "csUnicode", "iso-10646-ucs-2") means
 *    little-endian. That is the WHATWG choice for "utf-16" and its other
 *    labels, and the form such unmarked data has in practice (Windows).
 *    IANA (RFC 2781 section 4.3) says big-endian instead; a caller that
 *    holds the data should let a byte order mark decide first
 *    (utf8kit_bom_detect), and use the label only when there is none.
 *  - "ucs-2", "iso-10646-ucs-2" and "csUnicode" name UCS-2, which utf8kit
 *    has as a form of its own (BMP only, no surrogates), so they map to
 *    UCS2LE, not to UTF-16LE as in WHATWG.
 *  - Latin-1 and ASCII labels ("iso-8859-1", "latin1", "us-ascii", ...)
 *    name exactly ISO-8859-1 and US-ASCII. WHATWG maps them to
 *    windows-1252 because browsers must read mislabelled pages; a library
 *    that is asked for ISO-8859-1 gives ISO-8859-1.
 * Each label is matched whole: no prefix, no guess, no "closest" label.
 */
#include "internal.h"

/* The first label of each encoding is its preferred MIME name (IANA), or
 * the usual name where IANA registers none (UCS-2LE/BE: iconv; MUTF-8 and
 * UTF-8-RFC2279: ours). Labels are kept in this order, grouped by
 * encoding; utf8kit_encoding_alias enumerates them. */
static const struct label {
    utf8kit_encoding enc;
    const char *name;
    bool unmarked; /* no byte order said: utf8kit_label_unmarked */
} labels[] = {
    {UTF8KIT_UTF8, "UTF-8", false},
    {UTF8KIT_UTF8, "utf8", false},
    {UTF8KIT_UTF8, "csUTF8", false},            /* IANA */
    {UTF8KIT_UTF8, "unicode-1-1-utf-8", false}, /* WHATWG, and the three below */
    {UTF8KIT_UTF8, "unicode11utf8", false},
    {UTF8KIT_UTF8, "unicode20utf8", false},
    {UTF8KIT_UTF8, "x-unicode20utf8", false},

    {UTF8KIT_UTF16LE, "UTF-16LE", false},
    {UTF8KIT_UTF16LE, "utf16le", false},
    {UTF8KIT_UTF16LE, "csUTF16LE", false},      /* IANA */
    {UTF8KIT_UTF16LE, "UTF-16", true},          /* unmarked: little-endian, see above */
    {UTF8KIT_UTF16LE, "utf16", true},
    {UTF8KIT_UTF16LE, "csUTF16", true},         /* IANA alias of UTF-16 */
    {UTF8KIT_UTF16LE, "unicode", true},         /* WHATWG, and the one below */
    {UTF8KIT_UTF16LE, "unicodefeff", false},

    {UTF8KIT_UTF16BE, "UTF-16BE", false},
    {UTF8KIT_UTF16BE, "utf16be", false},
    {UTF8KIT_UTF16BE, "csUTF16BE", false},      /* IANA */
    {UTF8KIT_UTF16BE, "unicodefffe", false},    /* WHATWG */

    {UTF8KIT_UTF32LE, "UTF-32LE", false},
    {UTF8KIT_UTF32LE, "utf32le", false},
    {UTF8KIT_UTF32LE, "csUTF32LE", false},      /* IANA */
    {UTF8KIT_UTF32LE, "UTF-32", true},          /* unmarked: little-endian, see above */
    {UTF8KIT_UTF32LE, "utf32", true},
    {UTF8KIT_UTF32LE, "csUTF32", true},         /* IANA alias of UTF-32 */

    {UTF8KIT_UTF32BE, "UTF-32BE", false},
    {UTF8KIT_UTF32BE, "utf32be", false},
    {UTF8KIT_UTF32BE, "csUTF32BE", false},      /* IANA */

    {UTF8KIT_UCS2LE, "UCS-2LE", false},
    {UTF8KIT_UCS2LE, "ucs2le", false},
    {UTF8KIT_UCS2LE, "UCS-2", true},            /* unmarked: little-endian, see above */
    {UTF8KIT_UCS2LE, "ucs2", true},
    {UTF8KIT_UCS2LE, "ISO-10646-UCS-2", true},  /* IANA name of UCS-2 */
    {UTF8KIT_UCS2LE, "csUnicode", true},        /* IANA alias of ISO-10646-UCS-2 */

    {UTF8KIT_UCS2BE, "UCS-2BE", false},
    {UTF8KIT_UCS2BE, "ucs2be", false},

    {UTF8KIT_LATIN1, "ISO-8859-1", false},
    {UTF8KIT_LATIN1, "ISO_8859-1:1987", false}, /* IANA name; the rest IANA aliases */
    {UTF8KIT_LATIN1, "ISO_8859-1", false},
    {UTF8KIT_LATIN1, "iso-ir-100", false},
    {UTF8KIT_LATIN1, "latin1", false},
    {UTF8KIT_LATIN1, "l1", false},
    {UTF8KIT_LATIN1, "IBM819", false},
    {UTF8KIT_LATIN1, "CP819", false},
    {UTF8KIT_LATIN1, "csISOLatin1", false},
    {UTF8KIT_LATIN1, "iso8859-1", false},       /* WHATWG spellings */
    {UTF8KIT_LATIN1, "iso88591", false},

    {UTF8KIT_ASCII, "US-ASCII", false},
    {UTF8KIT_ASCII, "ANSI_X3.4-1968", false},   /* IANA name; the rest IANA aliases */
    {UTF8KIT_ASCII, "iso-ir-6", false},
    {UTF8KIT_ASCII, "ANSI_X3.4-1986", false},
    {UTF8KIT_ASCII, "ISO_646.irv:1991", false},
    {UTF8KIT_ASCII, "ISO646-US", false},
    {UTF8KIT_ASCII, "us", false},
    {UTF8KIT_ASCII, "IBM367", false},
    {UTF8KIT_ASCII, "cp367", false},
    {UTF8KIT_ASCII, "csASCII", false},
    {UTF8KIT_ASCII, "ascii", false},

    {UTF8KIT_CP1252, "windows-1252", false},
    {UTF8KIT_CP1252, "cp1252", false},
    {UTF8KIT_CP1252, "x-cp1252", false},        /* WHATWG */
    {UTF8KIT_CP1252, "cswindows1252", false},   /* IANA */

    {UTF8KIT_CESU8, "CESU-8", false},
    {UTF8KIT_CESU8, "cesu8", false},
    {UTF8KIT_CESU8, "csCESU8", false},          /* IANA */
    {UTF8KIT_CESU8, "csCESU-8", false},         /* IANA */

    {UTF8KIT_MUTF8, "MUTF-8", false},
    {UTF8KIT_MUTF8, "mutf8", false},
    {UTF8KIT_MUTF8, "modified-utf-8", false},
    {UTF8KIT_MUTF8, "java-modified-utf-8", false},

    {UTF8KIT_UTF8_RFC2279, "UTF-8-RFC2279", false},
    {UTF8KIT_UTF8_RFC2279, "utf8-rfc2279", false},
    {UTF8KIT_UTF8_RFC2279, "rfc2279", false},
};

#define N_LABELS (sizeof labels / sizeof labels[0])

/* ASCII white space as the WHATWG Encoding Standard trims it from labels:
 * TAB, LF, FF, CR and SPACE. */
static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* ASCII-only case folding: a byte >= 0x80 never matches a letter. */
static unsigned char lower(unsigned char c)
{
    return (unsigned char)((unsigned)(c - 'A') < 26u ? c + ('a' - 'A') : c);
}

/* eq_label reports whether s[0..len) is `name` up to ASCII case. */
static bool eq_label(const unsigned char *s, size_t len, const char *name)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (name[i] == '\0' || lower(s[i]) != lower((unsigned char)name[i]))
            return false;
    return name[len] == '\0';
}

/* The entry of the table that label[0..len) names (ASCII case and the
 * white space around it ignored), or NULL. */
static const struct label *find_label(const char *label, size_t len)
{
    const unsigned char *s = (const unsigned char *)label;
    size_t i;
    if (s == NULL)
        return NULL;
    while (len > 0 && is_space(s[0])) {
        s++;
        len--;
    }
    while (len > 0 && is_space(s[len - 1]))
        len--;
    if (len == 0)
        return NULL;
    for (i = 0; i < N_LABELS; i++)
        if (eq_label(s, len, labels[i].name))
            return &labels[i];
    return NULL;
}

utf8kit_encoding utf8kit_encoding_from_label(const char *label, size_t len)
{
    const struct label *l = find_label(label, len);
    return l ? l->enc : UTF8KIT_ENCODING_UNKNOWN;
}

bool utf8kit_label_unmarked(const char *label, size_t len)
{
    const struct label *l = find_label(label, len);
    return l != NULL && l->unmarked;
}

const char *utf8kit_encoding_name(utf8kit_encoding enc)
{
    return utf8kit_encoding_alias(enc, 0);
}

const char *utf8kit_encoding_alias(utf8kit_encoding enc, size_t i)
{
    size_t j;
    for (j = 0; j < N_LABELS; j++)
        if (labels[j].enc == enc && i-- == 0)
            return labels[j].name;
    return NULL;
}
