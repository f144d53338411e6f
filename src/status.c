/* status.c - version and status strings. */
#include "internal.h"

const char *utf8kit_version(void) { return UTF8KIT_VERSION_STRING; }

static const struct {
    const char *name, *words;
} status_text[] = {
    [UTF8KIT_OK] = {"ok", "no error"},
    [UTF8KIT_ERR_STRAY_CONTINUATION] = {"stray-continuation",
                                        "continuation byte without a lead byte"},
    [UTF8KIT_ERR_INVALID_LEAD] = {"invalid-lead", "byte that never appears in UTF-8"},
    [UTF8KIT_ERR_MISSING_CONTINUATION] = {"missing-continuation",
                                          "lead byte missing its continuation bytes"},
    [UTF8KIT_ERR_OVERLONG] = {"overlong", "overlong encoding"},
    [UTF8KIT_ERR_SURROGATE] = {"surrogate", "surrogate code point"},
    [UTF8KIT_ERR_TOO_LARGE] = {"too-large", "code point above U+10FFFF"},
    [UTF8KIT_ERR_TRUNCATED] = {"truncated", "sequence cut off by the end of the input"},
    [UTF8KIT_ERR_OUTPUT_TOO_SMALL] = {"output-too-small", "output buffer too small"},
    [UTF8KIT_ERR_INVALID_ARGUMENT] = {"invalid-argument", "invalid argument"},
    [UTF8KIT_ERR_UNREPRESENTABLE] = {"unrepresentable",
                                     "character not representable in the target encoding"},
    [UTF8KIT_ERR_INVALID_UNIT] = {"invalid-unit", "code unit not defined by the source encoding"},
    [UTF8KIT_ERR_UNKNOWN_LABEL] = {"unknown-label", "unknown encoding label"},
};

#define N_STATUS (sizeof status_text / sizeof status_text[0])

const char *utf8kit_strerror(utf8kit_status st)
{
    return (unsigned)st < N_STATUS ? status_text[st].words : "unknown status";
}

const char *utf8kit_status_name(utf8kit_status st)
{
    return (unsigned)st < N_STATUS ? status_text[st].name : "unknown";
}
