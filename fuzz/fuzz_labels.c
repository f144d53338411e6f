// needs: utf8kit_bom_detect utf8kit_bom_bytes utf8kit_encoding_from_label utf8kit_label_unmarked utf8kit_encoding_name utf8kit_encoding_alias utf8kit_detect utf8kit_validate
/*
 * fuzz_labels.c - byte order marks, charset labels and detection.
 *  - bom_detect finds exactly the five signatures (checked byte by byte
 *    here, UTF-32LE before UTF-16LE) and its length; bom_bytes of what it
 *    found is what the input starts with;
 *  - encoding_from_label ignores ASCII case and surrounding ASCII white
 *    space, never guesses (a label it accepts is one of the aliases the
 *    encoding lists), and every listed alias and name maps back; a label
 *    label_unmarked accepts names UTF-16LE, UTF-32LE or UCS-2LE;
 *  - detect: the UTF-8 error it reports is utf8kit_validate's, pure ASCII
 *    is ASCII, valid UTF-8 with a non-ASCII byte is UTF-8, a signature
 *    found is reported with its length.
 */
#include "fuzz_common.h"

static int ascii_ieq(const char *a, size_t alen, const char *b)
{
    size_t i;
    if (strlen(b) != alen)
        return 0;
    for (i = 0; i < alen; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return 0;
    }
    return 1;
}

static int is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

static utf8kit_encoding expected_bom(const unsigned char *s, size_t n, size_t *bl)
{
    *bl = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        return *bl = 3, UTF8KIT_UTF8;
    if (n >= 4 && s[0] == 0xFF && s[1] == 0xFE && s[2] == 0 && s[3] == 0)
        return *bl = 4, UTF8KIT_UTF32LE;
    if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
        return *bl = 2, UTF8KIT_UTF16BE;
    if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
        return *bl = 2, UTF8KIT_UTF16LE;
    if (n >= 4 && s[0] == 0 && s[1] == 0 && s[2] == 0xFE && s[3] == 0xFF)
        return *bl = 4, UTF8KIT_UTF32BE;
    return UTF8KIT_ENCODING_UNKNOWN;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *s = fuzz_dup(data, size);
    size_t bl = 99, wbl, i, j;
    utf8kit_encoding e = utf8kit_bom_detect(s, size, &bl), we = expected_bom(s, size, &wbl), le;

    /* BOM */
    FUZZ_CHECK(e == we && bl == wbl, "bom_detect %d/%zu, want %d/%zu", e, bl, we, wbl);
    FUZZ_CHECK(utf8kit_bom_detect(s, size, NULL) == e, "bom_detect without bom_len");
    if (e != UTF8KIT_ENCODING_UNKNOWN) {
        unsigned char b[4];
        FUZZ_CHECK(utf8kit_bom_bytes(e, b) == bl && memcmp(b, s, bl) == 0, "bom_bytes(%d)", e);
    }

    /* labels: the input as a label */
    le = utf8kit_encoding_from_label((const char *)s, size);
    /* an unmarked label is a known one, of the little-endian forms */
    if (utf8kit_label_unmarked((const char *)s, size))
        FUZZ_CHECK(le == UTF8KIT_UTF16LE || le == UTF8KIT_UTF32LE || le == UTF8KIT_UCS2LE,
                   "unmarked label of encoding %d", le);
    {
        char *v = malloc(size + 4);
        size_t a = 0, z = size;
        if (!v)
            abort();
        /* case changed, white space added: the same answer */
        for (i = 0; i < size; i++) {
            unsigned char c = s[i];
            v[i + 2] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        v[0] = ' ';
        v[1] = '\t';
        v[size + 2] = '\n';
        v[size + 3] = ' ';
        FUZZ_CHECK(utf8kit_encoding_from_label(v, size + 4) == le, "case/space changed the answer");
        free(v);
        if (le != UTF8KIT_ENCODING_UNKNOWN) {
            const char *al;
            int found = 0;
            FUZZ_CHECK(le > 0 && le < UTF8KIT_ENCODING_COUNT, "label gave %d", le);
            while (a < z && is_ws(s[a]))
                a++;
            while (z > a && is_ws(s[z - 1]))
                z--;
            for (j = 0; (al = utf8kit_encoding_alias(le, j)) != NULL; j++)
                if (ascii_ieq((const char *)s + a, z - a, al))
                    found = 1;
            FUZZ_CHECK(found, "label '%.*s' accepted for %d but not among its aliases", (int)(z - a),
                       (const char *)s + a, le);
        }
    }
    /* every name and alias maps back (cheap: a few dozen labels) */
    if (size == 0) {
        utf8kit_encoding k;
        for (k = (utf8kit_encoding)1; k < UTF8KIT_ENCODING_COUNT; k = (utf8kit_encoding)(k + 1)) {
            const char *al, *nm = utf8kit_encoding_name(k);
            FUZZ_CHECK(nm != NULL && utf8kit_encoding_from_label(nm, strlen(nm)) == k, "name of %d", k);
            FUZZ_CHECK(utf8kit_encoding_alias(k, 0) != NULL && strcmp(utf8kit_encoding_alias(k, 0), nm) == 0,
                       "alias 0 of %d", k);
            for (j = 0; (al = utf8kit_encoding_alias(k, j)) != NULL; j++)
                FUZZ_CHECK(utf8kit_encoding_from_label(al, strlen(al)) == k, "alias %s", al);
        }
        FUZZ_CHECK(utf8kit_encoding_name(UTF8KIT_ENCODING_UNKNOWN) == NULL, "name of UNKNOWN");
    }

    /* detection */
    {
        utf8kit_detection d = utf8kit_detect(s, size);
        utf8kit_result v = utf8kit_validate((const char *)s, size);
        int ascii = 1, nul = memchr(s, 0, size) != NULL;
        for (i = 0; i < size; i++)
            if (s[i] >= 0x80)
                ascii = 0;
        FUZZ_CHECK(d.utf8_error.status == v.status && d.utf8_error.read == v.read &&
                       d.utf8_error.error_len == v.error_len,
                   "detect's UTF-8 error " RES_FMT " vs validate " RES_FMT, RES_ARGS(d.utf8_error),
                   RES_ARGS(v));
        /* (text with a 00 byte may be BOM-less UTF-16/32 by shape: see
         * src/detect.c; a signature wins over validity) */
        if (ascii && !nul)
            FUZZ_CHECK(d.encoding == UTF8KIT_ASCII && d.bom_len == 0, "ASCII detected as %d",
                       d.encoding);
        else if (v.status == UTF8KIT_OK && !nul)
            FUZZ_CHECK(d.encoding == UTF8KIT_UTF8, "valid UTF-8 detected as %d", d.encoding);
        if (d.encoding == UTF8KIT_ASCII)
            FUZZ_CHECK(ascii, "non-ASCII detected as ASCII");
        if (d.encoding == UTF8KIT_UTF8)
            FUZZ_CHECK(v.status == UTF8KIT_OK || d.bom_len == 3, "invalid UTF-8 detected as UTF-8");
        FUZZ_CHECK(d.bom_len <= size, "bom_len %zu", d.bom_len);
        if (d.bom_len)
            FUZZ_CHECK(d.encoding == e && d.bom_len == bl, "detect BOM %d/%zu, bom_detect %d/%zu",
                       d.encoding, d.bom_len, e, bl);
        if (d.guess != UTF8KIT_ENCODING_UNKNOWN)
            FUZZ_CHECK((d.guess == UTF8KIT_CP1252 || d.guess == UTF8KIT_LATIN1) &&
                           d.encoding == UTF8KIT_ENCODING_UNKNOWN,
                       "guess %d with encoding %d", d.guess, d.encoding);
    }
    free(s);
    return 0;
}
