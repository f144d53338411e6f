/*
 * utf8kit.h - UTF-8 done completely, correctly and fast (RFC 3629 / STD 63).
 *
 * This is the whole public API. The header is C99 (the library itself is
 * built as C11) and usable from C++.
 *
 * Conventions that hold for every function unless its comment says otherwise:
 *  - Inputs are (pointer, length) pairs. Nothing ever looks for a NUL byte.
 *    A NULL pointer is accepted when its length is 0.
 *  - The caller owns every buffer. The library never allocates, never
 *    prints, never aborts and never touches errno.
 *  - "Valid UTF-8" means exactly the ABNF of RFC 3629 section 4: U+0000 to
 *    U+10FFFF in 1 to 4 octets, shortest form only, no surrogates
 *    (U+D800..U+DFFF). CESU-8, Java's Modified UTF-8 and the 5- and 6-octet
 *    forms of RFC 2279 are never accepted as UTF-8; they are separate
 *    encodings that a caller asks for by name.
 *  - Errors are reported per "maximal subpart", the rule of the Unicode
 *    Standard ch. 3 ("U+FFFD Substitution of Maximal Subparts"), which is
 *    also the rule of the WHATWG Encoding Standard and of CPython's
 *    errors="replace": the longest prefix of a well-formed sequence that
 *    starts at the error, or one byte when there is none.
 *  - All functions are thread-safe; none keeps hidden state apart from the
 *    once-chosen SIMD implementation (see "Implementations").
 */
#ifndef UTF8KIT_H
#define UTF8KIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Versions
 *
 * The API version (MAJOR.MINOR.PATCH) says what the header offers: MINOR
 * grows when functions are added, MAJOR when one changes incompatibly.
 * The SO version is the ABI version of the shared library (its SONAME is
 * libutf8kit.so.UTF8KIT_SOVERSION). The two are kept apart because the ABI
 * can break without an API change (a struct growing a field) and the API
 * can grow without breaking the ABI (a new function).
 * ---------------------------------------------------------------------- */
#define UTF8KIT_VERSION_MAJOR 0
#define UTF8KIT_VERSION_MINOR 1
#define UTF8KIT_VERSION_PATCH 0
#define UTF8KIT_VERSION_STRING "0.1.0"
#define UTF8KIT_SOVERSION 0

#if defined(_WIN32) && defined(UTF8KIT_SHARED_BUILD)
#define UTF8KIT_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define UTF8KIT_API __attribute__((visibility("default")))
#else
#define UTF8KIT_API
#endif

/* utf8kit_version returns the library's API version as "MAJOR.MINOR.PATCH",
 * which may differ from UTF8KIT_VERSION_STRING when a program runs against a
 * newer shared library than the header it was compiled with. */
UTF8KIT_API const char *utf8kit_version(void);

/* ------------------------------------------------------------------------
 * Status codes
 *
 * One code for each way input can be wrong, each tied to the rule it
 * enforces. The UTF-8 codes name what the first wrong byte breaks:
 * ---------------------------------------------------------------------- */
typedef enum utf8kit_status {
    UTF8KIT_OK = 0,

    /* A byte 80..BF where a character must start (RFC 3629 section 3:
     * UTF8-tail octets only follow a lead octet). */
    UTF8KIT_ERR_STRAY_CONTINUATION = 1,
    /* A byte that never appears in UTF-8 (RFC 3629 section 1): F8..FF
     * always, and C0, C1, F5..F7 when no continuation byte follows (with
     * one, OVERLONG and TOO_LARGE say more). */
    UTF8KIT_ERR_INVALID_LEAD = 2,
    /* A lead byte followed by too few continuation bytes before another
     * byte (RFC 3629 section 3: an n-octet sequence has n-1 UTF8-tail). */
    UTF8KIT_ERR_MISSING_CONTINUATION = 3,
    /* A longer form than needed: C0 xx and C1 xx (2 octets for U+0000..7F),
     * E0 80..9F (3 octets for < U+0800), F0 80..8F (4 octets for
     * < U+10000). RFC 3629 section 3: "only one valid way to encode";
     * section 10: C0 80 as NUL, 2F C0 AE 2E 2F as "/../". */
    UTF8KIT_ERR_OVERLONG = 4,
    /* ED A0..BF: U+D800..U+DFFF, reserved for UTF-16 (RFC 3629 section 3),
     * so each half of a CESU-8 pair too. From UTF-16 input: an unpaired
     * surrogate. From UTF-32 input: a surrogate value. */
    UTF8KIT_ERR_SURROGATE = 5,
    /* Above U+10FFFF: F4 90..BF, or F5..F7 followed by a continuation byte
     * (RFC 3629 section 3 restricts the range to U+10FFFF). From UTF-32
     * input: a value above 0x10FFFF. */
    UTF8KIT_ERR_TOO_LARGE = 6,
    /* The input ends inside a sequence that is well formed so far. A stream
     * should wait for more bytes; at the true end this is an error. Also
     * an odd trailing byte of UTF-16 input or a partial UTF-32 unit, and a
     * high surrogate that ends UTF-16 input. */
    UTF8KIT_ERR_TRUNCATED = 7,
    /* The output buffer cannot hold the next character. Everything before
     * it was converted; see utf8kit_result. */
    UTF8KIT_ERR_OUTPUT_TOO_SMALL = 8,
    /* A NULL pointer with a non-zero length, an unknown encoding or policy,
     * a substitute the target cannot hold, a conversion not supported. */
    UTF8KIT_ERR_INVALID_ARGUMENT = 9,
    /* A character the target encoding cannot represent (beyond U+00FF for
     * Latin-1, U+007F for ASCII, U+FFFF for UCS-2, U+10FFFF for anything
     * but the RFC 2279 form and UTF-32 in that mode). */
    UTF8KIT_ERR_UNREPRESENTABLE = 10,
    /* A code unit the source encoding does not define: a byte above 7F in
     * US-ASCII input. */
    UTF8KIT_ERR_INVALID_UNIT = 11,
    /* Not returned by any function of this version (an unknown label gives
     * UTF8KIT_ENCODING_UNKNOWN from utf8kit_encoding_from_label); it has a
     * name and a message for callers that report unknown labels as a
     * status of their own. */
    UTF8KIT_ERR_UNKNOWN_LABEL = 12
} utf8kit_status;

/* utf8kit_strerror returns a short English sentence fragment for a status,
 * e.g. "overlong encoding". Never NULL: an unknown code gives
 * "unknown status". The string is static. */
UTF8KIT_API const char *utf8kit_strerror(utf8kit_status status);

/* utf8kit_status_name returns a stable lower-case identifier for a status
 * ("ok", "stray-continuation", "invalid-lead", "missing-continuation",
 * "overlong", "surrogate", "too-large", "truncated", "output-too-small",
 * "invalid-argument", "unrepresentable", "invalid-unit", "unknown-label"),
 * meant for machine-readable output. Unknown codes give "unknown". */
UTF8KIT_API const char *utf8kit_status_name(utf8kit_status status);

/* The result of every bulk call.
 *  status     UTF8KIT_OK, or why the call stopped.
 *  read       input consumed, in input units (bytes for UTF-8, char-sized
 *             and generic calls; 16-bit units for utf16 calls; 32-bit
 *             units for utf32 calls). When status is an input error it is
 *             the offset of the error: the length of the longest valid
 *             prefix. When it is OUTPUT_TOO_SMALL it is a character
 *             boundary: everything before it was converted.
 *  written    output produced, in output units (likewise), never more than
 *             the capacity given.
 *  error_len  for an input error, the length in input units of the maximal
 *             invalid subpart at `read` (>= 1); for TRUNCATED, the number
 *             of units from `read` to the end of the input. 0 otherwise.
 *  replaced   how many substitutions the REPLACE and SKIP policies made
 *             (0 under STRICT). */
typedef struct utf8kit_result {
    utf8kit_status status;
    size_t read;
    size_t written;
    size_t error_len;
    size_t replaced;
} utf8kit_result;

/* ------------------------------------------------------------------------
 * Validation
 * ---------------------------------------------------------------------- */

/* utf8kit_is_valid reports whether s[0..len) is valid UTF-8 (RFC 3629 ABNF).
 * The empty string is valid. An input that ends inside a sequence is not. */
UTF8KIT_API bool utf8kit_is_valid(const char *s, size_t len);

/* utf8kit_validate checks s[0..len) and describes the first error.
 * Valid input: status UTF8KIT_OK, read = len, error_len = 0.
 * Otherwise: status is the kind of the first error, read its offset (the
 * length of the longest valid prefix, Rust's valid_up_to), error_len the
 * length of the maximal invalid subpart there (Rust's error_len). When the
 * input ends inside a sequence that was well formed so far the status is
 * UTF8KIT_ERR_TRUNCATED and error_len = len - read (1 to 3). written and
 * replaced are 0. */
UTF8KIT_API utf8kit_result utf8kit_validate(const char *s, size_t len);

/* utf8kit_ascii_prefix returns the length of the longest prefix of s[0..len)
 * made only of bytes 00..7F (len for pure ASCII). */
UTF8KIT_API size_t utf8kit_ascii_prefix(const char *s, size_t len);

/* ------------------------------------------------------------------------
 * One character at a time
 * ---------------------------------------------------------------------- */

/* Largest code point, and the replacement character. */
#define UTF8KIT_MAX_CODE_POINT 0x10FFFFu
#define UTF8KIT_REPLACEMENT_CHARACTER 0xFFFDu
/* Longest UTF-8 sequence (RFC 3629), and longest in the RFC 2279 form. */
#define UTF8KIT_MAX_SEQUENCE 4
#define UTF8KIT_MAX_LEGACY_SEQUENCE 6

/* utf8kit_encode writes the UTF-8 form of code point cp to out and returns
 * its length, 1 to 4. Surrogates (U+D800..U+DFFF) and values above
 * U+10FFFF are refused: nothing is written and 0 is returned. */
UTF8KIT_API size_t utf8kit_encode(uint32_t cp, char out[UTF8KIT_MAX_SEQUENCE]);

/* utf8kit_encoded_length returns how many octets utf8kit_encode would write
 * for cp: 1 to 4, or 0 for a surrogate or a value above U+10FFFF. */
UTF8KIT_API size_t utf8kit_encoded_length(uint32_t cp);

/* utf8kit_decode decodes the character at the start of s[0..len).
 * On success it returns UTF8KIT_OK, *cp = the code point and *n = its
 * length (1 to 4). On an invalid sequence it returns the error kind,
 * *cp = U+FFFD and *n = the length of the maximal invalid subpart (1 to 3),
 * so that a loop `s += n` performs U+FFFD substitution. When s ends inside
 * a sequence well formed so far it returns UTF8KIT_ERR_TRUNCATED,
 * *cp = U+FFFD and *n = len. For len == 0 it returns UTF8KIT_ERR_TRUNCATED
 * with *n = 0. cp and n must not be NULL. */
UTF8KIT_API utf8kit_status utf8kit_decode(const char *s, size_t len, uint32_t *cp, size_t *n);

/* utf8kit_decode_last decodes the character that ends at s + len, looking
 * back at most 4 bytes (never O(n) on garbage). On success: UTF8KIT_OK,
 * *cp and *n (1 to 4). If the last bytes are not the end of a valid
 * character it returns the error kind the forward decoder gives there,
 * *cp = U+FFFD and *n = 1 (the last byte alone), as Go's DecodeLastRune.
 * For len == 0: UTF8KIT_ERR_TRUNCATED with *n = 0. */
UTF8KIT_API utf8kit_status utf8kit_decode_last(const char *s, size_t len, uint32_t *cp, size_t *n);

/* utf8kit_sequence_length returns the length of the sequence that lead byte
 * b starts under RFC 3629: 1 for 00..7F, 2 for C2..DF, 3 for E0..EF, 4 for
 * F0..F4, and 0 for a continuation byte (80..BF) or a byte that never
 * appears (C0, C1, F5..FF). */
UTF8KIT_API size_t utf8kit_sequence_length(unsigned char b);

/* Character boundaries (RFC 3629 section 1: "found from anywhere").
 * A boundary is an offset where a character, or a maximal invalid subpart
 * that a decoder would replace by one U+FFFD, starts; 0 and len are always
 * boundaries. On valid UTF-8 these are exactly the offsets of bytes that are
 * not 80..BF. Each call looks at no more than 4 bytes around i. */

/* utf8kit_is_boundary reports whether offset i (0 <= i <= len) is a
 * boundary of s[0..len). i > len gives false. */
UTF8KIT_API bool utf8kit_is_boundary(const char *s, size_t len, size_t i);

/* utf8kit_next_boundary returns the smallest boundary greater than i, or
 * len when i >= len. */
UTF8KIT_API size_t utf8kit_next_boundary(const char *s, size_t len, size_t i);

/* utf8kit_prev_boundary returns the greatest boundary smaller than i, or 0
 * when i == 0. An i beyond len is treated as len + 1 (the result is len). */
UTF8KIT_API size_t utf8kit_prev_boundary(const char *s, size_t len, size_t i);

/* ------------------------------------------------------------------------
 * Counting
 * ---------------------------------------------------------------------- */

/* utf8kit_count returns the number of characters in s[0..len): the code
 * points of valid input. On invalid input each maximal invalid subpart
 * counts as one character (the U+FFFD a replacing decoder would produce),
 * and so does an incomplete sequence at the end. */
UTF8KIT_API size_t utf8kit_count(const char *s, size_t len);

/* utf8kit_utf16_length returns how many UTF-16 code units the characters of
 * s[0..len) take: 2 for each 4-octet character, 1 for every other one and
 * 1 for each maximal invalid subpart (its U+FFFD), as utf8kit_count. */
UTF8KIT_API size_t utf8kit_utf16_length(const char *s, size_t len);

/* utf8kit_count_assume_valid and utf8kit_utf16_length_assume_valid are
 * utf8kit_count and utf8kit_utf16_length for text already known to be
 * valid UTF-8 (checked before, or made by this library), at the speed of
 * reading it: they check nothing. On valid input they return exactly what
 * utf8kit_count / utf8kit_utf16_length return. On any other input the
 * result is still defined and never more than 2 * len: the number of
 * bytes that are not continuation bytes 80..BF, plus (UTF-16 length only)
 * the number of bytes F0..FF; it is then not the count of U+FFFD
 * replacement the validating calls give. Use them only where invalid
 * input is impossible; where it is not, a wrong count is the least that
 * can go wrong (RFC 3629 section 10). */
UTF8KIT_API size_t utf8kit_count_assume_valid(const char *s, size_t len);
UTF8KIT_API size_t utf8kit_utf16_length_assume_valid(const char *s, size_t len);

/* utf8kit_counts: the figures utf8kit_validate_counts adds up. */
typedef struct utf8kit_counts {
    uint64_t lines;  /* LF (0A) bytes */
    uint64_t seq[5]; /* seq[k]: well-formed sequences of k octets, k = 1..4
                        (seq[1] counts the ASCII bytes); seq[0] stays 0 */
} utf8kit_counts;

/* utf8kit_validate_counts validates and counts in one pass.
 * It returns exactly what utf8kit_validate(s, len) returns, and ADDS to
 * *counts the LF bytes and the sequences, by length, of the valid prefix
 * s[0..r.read) (all of s when valid): nothing of the invalid subpart or of
 * what follows it is counted. Since it adds, calls over successive pieces of
 * a text cut at character boundaries accumulate the figures of the whole
 * text (characters = seq[1] + seq[2] + seq[3] + seq[4]); start from a
 * zeroed struct. len == 0 returns UTF8KIT_OK with read 0 and adds nothing.
 * counts == NULL, or s == NULL with len > 0, returns
 * UTF8KIT_ERR_INVALID_ARGUMENT with read 0 and changes nothing. */
UTF8KIT_API utf8kit_result utf8kit_validate_counts(const char *s, size_t len,
                                                    utf8kit_counts *counts);

/* ------------------------------------------------------------------------
 * Ordering and search
 * ---------------------------------------------------------------------- */

/* utf8kit_compare compares a[0..alen) and b[0..blen) and returns <0, 0 or
 * >0. For valid UTF-8 the order is code point order (RFC 3629 section 1:
 * byte order is code point order), a proper prefix sorting first. For
 * invalid input it is still a total order: unsigned byte order. */
UTF8KIT_API int utf8kit_compare(const char *a, size_t alen, const char *b, size_t blen);

/* No match. */
#define UTF8KIT_NOT_FOUND ((size_t)-1)

/* utf8kit_find returns the offset of the first occurrence of needle in
 * hay that starts and ends on character boundaries of hay (see
 * utf8kit_is_boundary), or UTF8KIT_NOT_FOUND. An empty needle matches at
 * 0. On valid input every byte match is such a match (RFC 3629 section 1:
 * plain byte search works); the check matters on invalid input. */
UTF8KIT_API size_t utf8kit_find(const char *hay, size_t hlen, const char *needle, size_t nlen);

/* ------------------------------------------------------------------------
 * Encodings, policies and options
 * ---------------------------------------------------------------------- */

/* The encodings utf8kit converts. Every conversion goes through code
 * points, so any pair works. Multi-byte units are serialised in the byte
 * order the name says. */
typedef enum utf8kit_encoding {
    UTF8KIT_ENCODING_UNKNOWN = 0,
    UTF8KIT_UTF8 = 1,     /* RFC 3629 (the default everywhere) */
    UTF8KIT_UTF16LE = 2,
    UTF8KIT_UTF16BE = 3,
    UTF8KIT_UTF32LE = 4,
    UTF8KIT_UTF32BE = 5,
    UTF8KIT_UCS2LE = 6,   /* BMP only, no surrogates */
    UTF8KIT_UCS2BE = 7,
    UTF8KIT_LATIN1 = 8,   /* ISO-8859-1: bytes 00..FF = U+0000..U+00FF */
    UTF8KIT_ASCII = 9,    /* US-ASCII: 00..7F */
    UTF8KIT_CP1252 = 10,  /* windows-1252 as the WHATWG Encoding Standard
                             defines it (81 8D 8F 90 9D map to U+0081..) */
    UTF8KIT_CESU8 = 11,   /* CESU-8: supplementary characters as two
                             3-octet surrogates; 4-octet forms invalid */
    UTF8KIT_MUTF8 = 12,   /* Java's Modified UTF-8: CESU-8 and C0 80 for
                             U+0000 (a raw 00 is accepted on input) */
    UTF8KIT_UTF8_RFC2279 = 13 /* RFC 2279 / draft-yergeau-rfc2279bis: values
                             up to 7FFFFFFF in up to 6 octets; overlongs
                             and surrogates still invalid. Converted to
                             UTF-32 its values pass as UCS-4, and UTF-32
                             units up to 7FFFFFFF convert back to it. */
} utf8kit_encoding;

#define UTF8KIT_ENCODING_COUNT 14

/* Host-order UTF-16 and UTF-32. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define UTF8KIT_UTF16 UTF8KIT_UTF16BE
#define UTF8KIT_UTF32 UTF8KIT_UTF32BE
#else
#define UTF8KIT_UTF16 UTF8KIT_UTF16LE
#define UTF8KIT_UTF32 UTF8KIT_UTF32LE
#endif

/* What a conversion does with input it cannot convert. */
typedef enum utf8kit_policy {
    /* Stop at the first error; report its kind and offset. */
    UTF8KIT_STRICT = 0,
    /* Write U+FFFD for each maximal invalid subpart (and for each unpaired
     * UTF-16 surrogate, each bad UTF-32 unit); write the substitute for
     * each character the target cannot hold. Never fails on input. */
    UTF8KIT_REPLACE = 1,
    /* Drop each maximal invalid subpart and each character the target
     * cannot hold (iconv -c). */
    UTF8KIT_SKIP = 2,
    /* The input is known to be valid (for UTF-8: utf8kit_is_valid returned
     * true). The fastest path. Invalid input gives unspecified output, but
     * never a read or write out of bounds. */
    UTF8KIT_ASSUME_VALID = 3
} utf8kit_policy;

/* What to do with a byte order mark (RFC 3629 section 6). U+FEFF is a
 * signature only at the very start of a stream; anywhere else it is text
 * (ZERO WIDTH NO-BREAK SPACE) and is always kept. */
typedef enum utf8kit_bom_policy {
    UTF8KIT_BOM_KEEP = 0,  /* an initial U+FEFF is converted like any text */
    UTF8KIT_BOM_STRIP = 1, /* an initial U+FEFF in the input is dropped */
    UTF8KIT_BOM_ADD = 2    /* the output starts with the target's BOM; an
                              initial U+FEFF in the input is not doubled */
} utf8kit_bom_policy;

/* Options for utf8kit_convert and streams. A NULL pointer to options, or a
 * zero-initialised struct, means: STRICT, substitute '?', BOM kept. */
typedef struct utf8kit_options {
    utf8kit_policy policy;
    /* Under REPLACE, what to write for a character the target cannot hold
     * (for Latin-1, ASCII, UCS-2, and for U+FFFD itself there). 0 means
     * '?'. It must be representable in the target. */
    uint32_t substitute;
    utf8kit_bom_policy bom;
    /* Streams under REPLACE or SKIP: return after each error, with status =
     * its kind, so that every error can be reported (see
     * utf8kit_stream_convert). Ignored by one-shot calls. */
    bool stop_after_error;
} utf8kit_options;

/* ------------------------------------------------------------------------
 * Bulk conversion between any two encodings
 * ---------------------------------------------------------------------- */

/* utf8kit_convert converts src[0..src_len) (bytes) from encoding `from` to
 * encoding `to` into dst[0..dst_cap) (bytes), per opt (NULL = strict).
 * Counts in the result are bytes.
 * - STRICT: stops at the first invalid input or unrepresentable character;
 *   status says why, read its offset, error_len its length; everything
 *   before it is converted.
 * - REPLACE / SKIP: converts everything; replaced counts substitutions.
 * - Output: never writes past dst_cap. When the next character does not
 *   fit, stops with UTF8KIT_ERR_OUTPUT_TOO_SMALL at a character boundary
 *   (read, written say how far it got) so a call with a larger buffer can
 *   resume at src + read.
 * - Measuring: when dst is NULL nothing is written, dst_cap is ignored and
 *   `written` is the exact size the output would have: the length
 *   function for every pair and policy.
 * - A UTF-16/UTF-32 input whose length is not a multiple of its unit ends
 *   with a TRUNCATED error (one U+FFFD under REPLACE).
 * - from == to == UTF8 under REPLACE is the repair of utf8kit_repair.
 * - The BOM policy acts on the start of the input given: a call that
 *   resumes after OUTPUT_TOO_SMALL should pass UTF8KIT_BOM_KEEP (streams
 *   do this for you). */
UTF8KIT_API utf8kit_result utf8kit_convert(utf8kit_encoding from, utf8kit_encoding to,
                                           const void *src, size_t src_len, void *dst,
                                           size_t dst_cap, const utf8kit_options *opt);

/* utf8kit_max_output_size returns an upper bound, in bytes, of the output of
 * utf8kit_convert for any src_len bytes of input from `from` to `to`, under
 * any policy and with a BOM added, so a buffer of that size can never be
 * too small (RFC 3629 section 10: the RFC 2279 form needs up to 6 octets
 * per character). Returns SIZE_MAX on overflow, 0 for an unknown encoding. */
UTF8KIT_API size_t utf8kit_max_output_size(utf8kit_encoding from, utf8kit_encoding to,
                                           size_t src_len);

/* utf8kit_repair copies s[0..len) to dst, replacing each maximal invalid
 * subpart by EF BF BD (U+FFFD): byte for byte what CPython gives for
 * data.decode("utf-8", "replace").encode("utf-8"). dst == NULL measures.
 * dst_cap >= 3 * len always suffices. */
UTF8KIT_API utf8kit_result utf8kit_repair(const char *s, size_t len, char *dst, size_t dst_cap);

/* ------------------------------------------------------------------------
 * Typed fast paths (the operations the SIMD kernels accelerate)
 *
 * Same contract as utf8kit_convert, with units instead of bytes: char for
 * UTF-8 and Latin-1, uint16_t for UTF-16 (the "le"/"be" names give the
 * byte order of the units in memory), uint32_t in host order for UTF-32.
 * dst == NULL measures. The policy (all but utf8kit_latin1_to_utf8 take
 * one) is STRICT, REPLACE, SKIP or ASSUME_VALID; unrepresentable
 * characters under REPLACE become '?'.
 * ---------------------------------------------------------------------- */
/* utf8kit_utf8_to_utf16le / _utf16be: UTF-8 src[0..len) bytes to UTF-16
 * units in dst[0..cap), little- or big-endian in memory; written counts
 * units, at most len (utf8kit_max_output_size). */
UTF8KIT_API utf8kit_result utf8kit_utf8_to_utf16le(const char *src, size_t len, uint16_t *dst,
                                                   size_t cap, utf8kit_policy policy);
UTF8KIT_API utf8kit_result utf8kit_utf8_to_utf16be(const char *src, size_t len, uint16_t *dst,
                                                   size_t cap, utf8kit_policy policy);
/* utf8kit_utf8_to_utf32: UTF-8 bytes to host-order UTF-32 units, at most
 * len of them. */
UTF8KIT_API utf8kit_result utf8kit_utf8_to_utf32(const char *src, size_t len, uint32_t *dst,
                                                 size_t cap, utf8kit_policy policy);
/* utf8kit_utf16le_to_utf8 / utf16be_to_utf8: len UTF-16 units (read and
 * error offsets count units) to UTF-8 bytes, at most 3 per unit; an
 * unpaired surrogate is UTF8KIT_ERR_SURROGATE. */
UTF8KIT_API utf8kit_result utf8kit_utf16le_to_utf8(const uint16_t *src, size_t len, char *dst,
                                                   size_t cap, utf8kit_policy policy);
UTF8KIT_API utf8kit_result utf8kit_utf16be_to_utf8(const uint16_t *src, size_t len, char *dst,
                                                   size_t cap, utf8kit_policy policy);
/* utf8kit_utf32_to_utf8: len host-order UTF-32 units to UTF-8 bytes, at
 * most 4 per unit; a surrogate value or one above 10FFFF is an error. */
UTF8KIT_API utf8kit_result utf8kit_utf32_to_utf8(const uint32_t *src, size_t len, char *dst,
                                                 size_t cap, utf8kit_policy policy);
/* utf8kit_latin1_to_utf8: Latin-1 bytes to UTF-8, at most 2 bytes each.
 * Every byte is a character, so there is no policy: the only errors are
 * UTF8KIT_ERR_OUTPUT_TOO_SMALL and UTF8KIT_ERR_INVALID_ARGUMENT. */
UTF8KIT_API utf8kit_result utf8kit_latin1_to_utf8(const char *src, size_t len, char *dst,
                                                  size_t cap);
/* utf8kit_utf8_to_latin1: UTF-8 bytes to Latin-1, at most 1 byte per
 * input byte; a character above U+00FF is UTF8KIT_ERR_UNREPRESENTABLE
 * (under REPLACE, '?'). */
UTF8KIT_API utf8kit_result utf8kit_utf8_to_latin1(const char *src, size_t len, char *dst,
                                                  size_t cap, utf8kit_policy policy);

/* ------------------------------------------------------------------------
 * Streaming
 *
 * A stream converts input that arrives in chunks of any size (down to one
 * byte) and gives exactly what one utf8kit_convert call gives on the
 * concatenation: the same output, the same error kinds, offsets absolute in
 * the stream. A sequence cut by a chunk end is held until the next chunk; a
 * sequence cut by the end of the stream is reported when `final` is set.
 * The struct is public so it can live on the stack; only the fields marked
 * read-only may be looked at, and none may be written.
 * ---------------------------------------------------------------------- */
typedef struct utf8kit_stream {
    /* read-only */
    uint64_t offset;        /* input bytes consumed so far (absolute) */
    uint64_t errors;        /* invalid subparts / unrepresentable chars met */
    uint64_t error_offset;  /* absolute offset of the most recent error */
    size_t error_len;       /* its length in bytes */
    utf8kit_status error_kind; /* its kind (UTF8KIT_OK: none yet) */
    unsigned char error_bytes[8]; /* its bytes (the first min(error_len, 8)) */
    /* private */
    utf8kit_encoding from, to;
    utf8kit_options opt;
    unsigned char pend[8];  /* an incomplete unit or sequence held over */
    unsigned npend;
    int state;              /* phase (start, running, failed, finished)
                               and private flags */
} utf8kit_stream;

/* utf8kit_stream_init prepares st to convert from `from` to `to` per opt
 * (NULL = strict). Returns UTF8KIT_OK or UTF8KIT_ERR_INVALID_ARGUMENT. */
UTF8KIT_API utf8kit_status utf8kit_stream_init(utf8kit_stream *st, utf8kit_encoding from,
                                               utf8kit_encoding to, const utf8kit_options *opt);

/* utf8kit_stream_convert feeds src[0..len) (the next chunk; len may be 0)
 * and writes into dst[0..cap) (dst == NULL: measure only). Set final on
 * the last call (it may carry the last chunk or none).
 * The result counts bytes of this call: `read` of src consumed (a partial
 * sequence at the end is consumed and held), `written` to dst.
 *  - OK: all of src consumed (and, when final, the stream is finished).
 *  - OUTPUT_TOO_SMALL: call again with src + read and more room.
 *  - an input error under STRICT: the stream has failed; st->error_* say
 *    where (the error may lie in bytes held from an earlier chunk); later
 *    calls return the same status.
 *  - an input error under REPLACE/SKIP with opt.stop_after_error: the
 *    substitution for that error has been written, st->error_* describe
 *    it; call again with src + read to go on.
 * Under REPLACE/SKIP without stop_after_error, errors are counted in
 * st->errors and the most recent is in st->error_*. In that mode a C0, C1
 * or F5..F7 that ends a chunk is replaced at once (its U+FFFD does not
 * depend on what follows) and its kind reads INVALID_LEAD until the next
 * byte shows whether it began an overlong or too-large form; under STRICT
 * and with stop_after_error such a byte is held, so every kind reported
 * is final.
 * After a final call the stream is finished: a later call with input
 * returns UTF8KIT_ERR_INVALID_ARGUMENT, one without input returns OK. */
UTF8KIT_API utf8kit_result utf8kit_stream_convert(utf8kit_stream *st, const void *src, size_t len,
                                                  void *dst, size_t cap, bool final);

/* ------------------------------------------------------------------------
 * Byte order marks (RFC 3629 section 6)
 * ---------------------------------------------------------------------- */

/* utf8kit_bom_detect looks for a signature at the start of s[0..len):
 * EF BB BF (UTF-8), FF FE 00 00 (UTF-32LE, tested before UTF-16LE), FE FF
 * (UTF-16BE), FF FE (UTF-16LE), 00 00 FE FF (UTF-32BE). Returns the
 * encoding and sets *bom_len (may be NULL) to the signature's length, or
 * returns UTF8KIT_ENCODING_UNKNOWN with *bom_len = 0. */
UTF8KIT_API utf8kit_encoding utf8kit_bom_detect(const void *s, size_t len, size_t *bom_len);

/* utf8kit_bom_bytes writes the signature of enc (U+FEFF in that encoding) to
 * out and returns its length: 3 for UTF-8 and CESU-8 and Modified UTF-8 and
 * the RFC 2279 form, 2 for UTF-16/UCS-2, 4 for UTF-32; 0 (nothing written)
 * for encodings that have none (Latin-1, ASCII, windows-1252). */
UTF8KIT_API size_t utf8kit_bom_bytes(utf8kit_encoding enc, unsigned char out[4]);

/* ------------------------------------------------------------------------
 * Charset labels (RFC 3629 section 8)
 * ---------------------------------------------------------------------- */

/* utf8kit_encoding_from_label maps a charset label to an encoding,
 * ignoring ASCII case and leading/trailing white space as the WHATWG
 * Encoding Standard defines it (TAB, LF, FF, CR and space; not VT):
 * "UTF-8" and
 * its aliases ("utf8", "csUTF8", "unicode-1-1-utf-8", the WHATWG labels
 * such as "unicode20utf8" and "x-unicode20utf8"), the IANA names and
 * common aliases of every other encoding here ("UTF-16LE", "UCS-2",
 * "ISO-8859-1", "latin1", "US-ASCII", "windows-1252", "CESU-8", "MUTF-8",
 * ...). An unknown label gives UTF8KIT_ENCODING_UNKNOWN: never a guess. */
UTF8KIT_API utf8kit_encoding utf8kit_encoding_from_label(const char *label, size_t len);

/* utf8kit_label_unmarked says whether the label (matched as by
 * utf8kit_encoding_from_label) names UTF-16, UTF-32 or UCS-2 without a byte
 * order: "UTF-16", "utf16", "csUTF16", "unicode", "UTF-32", "utf32",
 * "csUTF32", "UCS-2", "ucs2", "ISO-10646-UCS-2", "csUnicode". For these
 * utf8kit_encoding_from_label gives the little-endian form (the WHATWG
 * choice, and the order of such data in practice). Data under such a label
 * should let a byte order mark at its start decide the order first (RFC
 * 2781 section 4.3: there the mark is a signature, not text), as
 * `utf8kit convert` does; written under such a label, data should start
 * with one. False for any other label, known or not. */
UTF8KIT_API bool utf8kit_label_unmarked(const char *label, size_t len);

/* utf8kit_encoding_name returns the preferred MIME name of enc ("UTF-8",
 * "UTF-16LE", "ISO-8859-1", "windows-1252", ...), or NULL if unknown. */
UTF8KIT_API const char *utf8kit_encoding_name(utf8kit_encoding enc);

/* utf8kit_encoding_alias returns the i-th label (0 = the name) that
 * utf8kit_encoding_from_label accepts for enc, or NULL past the last. */
UTF8KIT_API const char *utf8kit_encoding_alias(utf8kit_encoding enc, size_t i);

/* ------------------------------------------------------------------------
 * Detection (RFC 3629 section 1: UTF-8 is recognised by a simple test)
 * ---------------------------------------------------------------------- */
typedef struct utf8kit_detection {
    /* UTF8KIT_ASCII (only 00..7F, no BOM, and not of the shape of
     * UTF-16/32 below), UTF8KIT_UTF8 (valid, has a non-ASCII byte; or
     * starts with the UTF-8 signature EF BB BF),
     * UTF8KIT_UTF16LE/BE, UTF8KIT_UTF32LE/BE (by signature, or by validity
     * and shape), or UTF8KIT_ENCODING_UNKNOWN when the text is not UTF-8
     * and no other form fits. A signature decides even when the bytes
     * after it are not valid in its form (the writer declared it):
     * utf8_error then tells whether they are valid UTF-8. Valid UTF-8
     * that holds a byte 00 is asked the UTF-32 and UTF-16 shape tests
     * first: "h\0i\0" is UTF-16LE text (ASCII text holds no NUL), though
     * it is also valid UTF-8, as utf8_error says. */
    utf8kit_encoding encoding;
    size_t bom_len;       /* length of the signature found, 0 if none */
    /* Not UTF-8: the first UTF-8 error (status, read = offset, error_len);
     * status UTF8KIT_OK when the input is valid UTF-8. */
    utf8kit_result utf8_error;
    /* When encoding is UTF8KIT_ENCODING_UNKNOWN: a single-byte legacy
     * guess, UTF8KIT_CP1252 or UTF8KIT_LATIN1, never more than a labelled
     * guess; otherwise UTF8KIT_ENCODING_UNKNOWN (so none after a
     * signature). */
    utf8kit_encoding guess;
} utf8kit_detection;

/* utf8kit_detect classifies s[0..len) as described above. The empty input
 * is ASCII. */
UTF8KIT_API utf8kit_detection utf8kit_detect(const void *s, size_t len);

/* ------------------------------------------------------------------------
 * Implementations (SIMD kernels chosen at run time)
 *
 * The first call that needs a kernel picks the best one the CPU and OS
 * support (CPUID and XGETBV on x86-64), once, atomically; the environment
 * variable UTF8KIT_FORCE_IMPL=name overrides the choice (an unsupported or
 * unknown name falls back to "scalar"). Names: "scalar", "sse42", "avx2",
 * "avx512", "neon". The scalar one is the reference: every kernel gives
 * the same results on every input.
 * ---------------------------------------------------------------------- */

/* utf8kit_impl_name returns the name of the kernel in use. */
UTF8KIT_API const char *utf8kit_impl_name(void);

/* utf8kit_impl_available returns the name of the i-th kernel compiled into
 * the library and supported by this CPU (0 is always "scalar"), or NULL
 * past the last. */
UTF8KIT_API const char *utf8kit_impl_available(size_t i);

/* utf8kit_impl_select switches to the named kernel, for tests and
 * benchmarks. Returns UTF8KIT_OK, or UTF8KIT_ERR_INVALID_ARGUMENT (and
 * changes nothing) when the name is unknown or the CPU lacks it. Safe to
 * call from any thread; calls already running finish on the old kernel. */
UTF8KIT_API utf8kit_status utf8kit_impl_select(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* UTF8KIT_H */
