/*
 * bom.c - byte order marks (RFC 3629 section 6): U+FEFF at the very start
 * of a stream is a signature, not text.
 */
#include "codec.h"

/* The signatures utf8kit_bom_detect knows, longest first where one is a
 * prefix of another: FF FE 00 00 (UTF-32LE) begins with FF FE (UTF-16LE),
 * so it is tried first. Input FF FE 00 00 is therefore UTF-32LE, never
 * UTF-16LE text starting with U+0000 (the usual resolution, e.g. the
 * Unicode FAQ on BOMs and CPython's "utf-32"/"utf-16" sniffing). */
static const struct {
    unsigned char bytes[4];
    unsigned char len;
    utf8kit_encoding enc;
} signatures[] = {
    {{0xEF, 0xBB, 0xBF}, 3, UTF8KIT_UTF8},
    {{0xFF, 0xFE, 0x00, 0x00}, 4, UTF8KIT_UTF32LE},
    {{0x00, 0x00, 0xFE, 0xFF}, 4, UTF8KIT_UTF32BE},
    {{0xFE, 0xFF}, 2, UTF8KIT_UTF16BE},
    {{0xFF, 0xFE}, 2, UTF8KIT_UTF16LE},
};

utf8kit_encoding utf8kit_bom_detect(const void *s, size_t len, size_t *bom_len)
{
    const unsigned char *p = s;
    size_t i;
    if (bom_len != NULL)
        *bom_len = 0;
    if (p == NULL)
        return UTF8KIT_ENCODING_UNKNOWN;
    for (i = 0; i < sizeof signatures / sizeof signatures[0]; i++) {
        if (len >= signatures[i].len && memcmp(p, signatures[i].bytes, signatures[i].len) == 0) {
            if (bom_len != NULL)
                *bom_len = signatures[i].len;
            return signatures[i].enc;
        }
    }
    return UTF8KIT_ENCODING_UNKNOWN;
}

/* The bytes themselves come from the codecs (U+FEFF encoded in enc), so
 * there is one source for them. */
size_t utf8kit_bom_bytes(utf8kit_encoding enc, unsigned char out[4])
{
    if (out == NULL)
        return 0;
    return u8k_bom_for(enc, out);
}
