/*
 * internal.h - what the library's own files share; never installed.
 *
 * Everything here is prefixed u8k_. The public functions (src/, one file
 * per family) check their arguments, then call the kernels of the active
 * implementation through the table below. The scalar kernels are the reference: every
 * other implementation must return the same result on every input.
 */
#ifndef UTF8KIT_INTERNAL_H
#define UTF8KIT_INTERNAL_H

#include "utf8kit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define U8K_LIKELY(x) __builtin_expect(!!(x), 1)
#define U8K_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define U8K_INLINE static inline __attribute__((always_inline))
#define U8K_NOINLINE __attribute__((noinline))
/* a function whose small hot loop must not depend on where the linker
 * happens to put it (see four_octet_words in scalar/decode.c) */
#define U8K_ALIGN64 __attribute__((aligned(64)))
#else
#define U8K_LIKELY(x) (x)
#define U8K_UNLIKELY(x) (x)
#define U8K_INLINE static inline
#define U8K_NOINLINE
#define U8K_ALIGN64
#endif

/* ---- the RFC 3629 first-byte table (src/scalar/decode.c) ---------------- */

/* u8k_first[b] describes lead byte b: the low 3 bits are the sequence
 * length (0 = cannot start a character: 80..BF, C0, C1, F5..FF), the high
 * bits index u8k_accept[], the range allowed for the second byte. */
extern const unsigned char u8k_first[256];

struct u8k_range {
    unsigned char lo, hi;  /* inclusive range of the second byte */
    unsigned char kind;    /* utf8kit_status when a continuation byte falls
                              outside [lo, hi] */
};
extern const struct u8k_range u8k_accept[5];

/* u8k_decode_step decodes one character or one maximal invalid subpart at
 * s[0..len), len >= 1. On success: UTF8KIT_OK, *cp, *n. On error: the kind,
 * *n = subpart length (or len for TRUNCATED), *cp = U+FFFD. */
utf8kit_status u8k_decode_step(const unsigned char *s, size_t len, uint32_t *cp, size_t *n);

/* What a kernel's validate finds: utf8kit_validate's result without the
 * two fields that are always 0 there (written, replaced), in 16 bytes, so
 * that it comes back in two registers. A function that returns the
 * 40-byte utf8kit_result returns it through memory: it needs a frame to
 * keep the address, and gcc makes no tail call from it: on inputs of 8 to
 * 64 bytes that cost 5% of a call. */
typedef struct {
    size_t read;
    uint32_t status;
    uint32_t error_len;
} u8k_vres;

/* The scalar reference validator: same contract as utf8kit_validate. */
utf8kit_result u8k_scalar_validate(const unsigned char *s, size_t len);
/* u8k_scalar_validate in the kernel table's form (u8k_vres). */
u8k_vres u8k_scalar_validate_v(const unsigned char *s, size_t len);
bool u8k_scalar_is_valid(const unsigned char *s, size_t len);
size_t u8k_scalar_ascii_prefix(const unsigned char *s, size_t len);
/* The scalar reference of utf8kit_validate_counts (src/scalar/validate_counts.c). */
utf8kit_result u8k_scalar_validate_counts(const unsigned char *s, size_t len,
                                          utf8kit_counts *counts);

/* u8k_tally_add adds to *t the byte classes of p[0..n), cut anywhere:
 * lines += the 0A bytes, seq[1] += the bytes 00..7F, seq[2] += C0..DF,
 * seq[3] += E0..EF, seq[4] += F0..FF (80..BF are not counted). In valid
 * UTF-8 each sequence has exactly one such lead byte, so over a valid text
 * these are the sequence counts; and since every byte counts on its own,
 * the tally of s[0..e) is the tally of s[0..b) plus that of s[b..e) (or
 * minus that of s[e..b)), whatever the offsets. u8k_tally_sub subtracts
 * (modulo 2^64, so the sum comes out right once all terms are in). */
void u8k_tally_add(utf8kit_counts *t, const unsigned char *p, size_t n);
void u8k_tally_sub(utf8kit_counts *t, const unsigned char *p, size_t n);

/* ---- kernels ------------------------------------------------------------ */

/* Flags for transcoding kernels. */
#define U8K_BE 1u      /* 16-bit units are big-endian in memory */
#define U8K_TRUSTED 2u /* input is valid (policy ASSUME_VALID): skip checks */
/* Between UTF-8 and UTF-16/32 under REPLACE: a kernel may write U+FFFD
 * for an input error itself and go on, counting it in .replaced, exactly
 * as the driver would (one U+FFFD for the error_len units of the scalar
 * kernel's report); it still returns any error it does not replace, and
 * a kernel may ignore the flag altogether. The scalar kernels do (they
 * read U8K_BE and U8K_TRUSTED only), so the SIMD kernels pass them their
 * flags as they are: the scalar kernel always stops at the first error
 * and reports it. */
#define U8K_REPL 4u
/* UTF-8 -> Latin-1 under REPLACE or SKIP, for
 * u8k_scalar_utf8_to_latin1_sub only (the kernels ignore them): for each
 * input error but TRUNCATED and each character above U+00FF it writes the
 * substitute byte in bits 8..15 of the flags (under U8K_L1_DROP nothing),
 * counts it in .replaced and goes on: exactly what the driver would do
 * with the scalar kernel's report. */
#define U8K_L1_SUB 8u
#define U8K_L1_DROP 16u
#define U8K_L1_BYTE(flags) ((unsigned char)((flags) >> 8))

/* A scan of bytes or of 16-bit or 32-bit units for the units kernel
 * (convert.c): byte j of the input, counted from its start, stops the scan
 * when it is below low[j % 16] or above lim[j % 16], or when it has a bit
 * set in both top[its top four bits] and sur[j % 16] (D8..DF where a
 * surrogate's high byte sits: top[D] = sur[j % 16] = 08). Unless check is
 * false, when nothing stops it. A copy puts byte rev[j % 16] of each 16
 * bytes at j when swap, else copies them as they are. */
struct u8k_unit_scan {
    unsigned char low[16], lim[16], top[16], sur[16], rev[16];
    bool check, swap;
};

/*
 * One implementation's kernels. Every function has exactly the contract of
 * the public function it backs, restricted as said:
 *  - transcoding kernels are STRICT (or ASSUME_VALID with U8K_TRUSTED),
 *    dst is never NULL, cap is honoured, and on an error they have
 *    converted everything before it (read = offset of the error). The
 *    REPLACE/SKIP policies and measuring (dst == NULL) are built on them
 *    by the public wrappers (some errors under REPLACE may be replaced by
 *    the kernel already: U8K_REPL).
 *  - count / utf16_length follow utf8kit_count / utf8kit_utf16_length
 *    (invalid subparts count as one character each).
 *  - validate_counts follows utf8kit_validate_counts, with s != NULL,
 *    len > 0 and counts != NULL.
 *  - validate follows utf8kit_validate (s != NULL, len > 0) and returns
 *    its result as a u8k_vres.
 * A SIMD implementation may point any entry at the scalar function.
 */
typedef struct u8k_kernels {
    const char *name;
    bool (*is_valid)(const unsigned char *s, size_t len);
    u8k_vres (*validate)(const unsigned char *s, size_t len);
    size_t (*ascii_prefix)(const unsigned char *s, size_t len);
    size_t (*count)(const unsigned char *s, size_t len);
    size_t (*utf16_length)(const unsigned char *s, size_t len);
    utf8kit_result (*validate_counts)(const unsigned char *s, size_t len, utf8kit_counts *counts);
    utf8kit_result (*utf8_to_utf16)(const unsigned char *src, size_t len, uint16_t *dst,
                                    size_t cap, unsigned flags);
    utf8kit_result (*utf8_to_utf32)(const unsigned char *src, size_t len, uint32_t *dst,
                                    size_t cap, unsigned flags);
    utf8kit_result (*utf16_to_utf8)(const uint16_t *src, size_t len, unsigned char *dst,
                                    size_t cap, unsigned flags);
    utf8kit_result (*utf32_to_utf8)(const uint32_t *src, size_t len, unsigned char *dst,
                                    size_t cap, unsigned flags);
    utf8kit_result (*latin1_to_utf8)(const unsigned char *src, size_t len, unsigned char *dst,
                                     size_t cap);
    utf8kit_result (*utf8_to_latin1)(const unsigned char *src, size_t len, unsigned char *dst,
                                     size_t cap, unsigned flags);
    /* the characters (utf16: UTF-16 units) of text assumed valid */
    size_t (*count_assume_valid)(const unsigned char *s, size_t len, bool utf16);
    /* UTF-8 -> UTF-8 under REPLACE with U+FFFD, as far as the kernel
     * goes (status OK, read a character start; the caller goes on from
     * there), or NULL: see simd/repair.h and simd/repair_avx512.h */
    utf8kit_result (*utf8_repair)(const unsigned char *src, size_t len, unsigned char *dst,
                                  size_t cap);
    /* The whole vectors at the start of s[0..n) in which no byte stops
     * (struct u8k_unit_scan above), copied to d (NULL: only scanned), or
     * NULL: see simd/units.h. Returns how many bytes they are. */
    size_t (*units)(unsigned char *d, const unsigned char *s, size_t n,
                    const struct u8k_unit_scan *u);
    /* latin1_to_utf8 of the bytes before the first byte 80..9F (where
     * windows-1252 is not Latin-1): status OK with read there when there
     * is one. Or NULL: convert.c scans for those bytes first (units). */
    utf8kit_result (*latin1_to_utf8_c1)(const unsigned char *src, size_t len, unsigned char *dst,
                                        size_t cap);
    /* The n bytes at s as n units at d, each of its byte's value: 32-bit
     * in the host's order when wide, else 16-bit, big-endian when be (d
     * aligned to the unit). Or NULL: convert.c widens a byte at a time. */
    void (*widen)(void *d, const unsigned char *s, size_t n, bool wide, bool be);
    /* The first of the n units at s (32-bit when wide, else 16-bit;
     * big-endian in memory when be; s aligned to the unit) as
     * bytes at d, whole vectors of them up to the first vector with a
     * unit above max (FF or 7F); returns how many units. Or NULL:
     * convert.c goes through UTF-8. */
    size_t (*narrow)(unsigned char *d, const void *s, size_t n, bool wide, bool be, unsigned max);
    /* The n host-order 32-bit units at s (each at most 10FFFF) as bytes
     * at d (room for n): a unit above max (FF or 7F) as the byte sub, or
     * when drop as nothing. Returns the bytes written; *big gets the
     * number of units above max. Or NULL: convert.c narrows them in C
     * (UTF-8 -> Latin-1 and US-ASCII under REPLACE and SKIP, sub_step). */
    size_t (*narrow_sub)(unsigned char *d, const uint32_t *s, size_t n, unsigned max,
                         unsigned char sub, bool drop, size_t *big);
} u8k_kernels;

extern const u8k_kernels u8k_scalar_kernels;

/* utf8kit_convert by its generic loop alone (a character at a time, no
 * kernel, copy or stretch): the reference the tests hold every faster
 * path of convert.c to. */
utf8kit_result u8k_convert_generic(utf8kit_encoding from, utf8kit_encoding to, const void *src,
                                   size_t src_len, void *dst, size_t dst_cap,
                                   const utf8kit_options *opt);

/* The scalar kernels (src/scalar/), also the fallback of every SIMD one. */
size_t u8k_scalar_count(const unsigned char *s, size_t len);
size_t u8k_scalar_utf16_length(const unsigned char *s, size_t len);
size_t u8k_scalar_count_assume_valid(const unsigned char *s, size_t len, bool utf16);
utf8kit_result u8k_scalar_utf8_to_utf16(const unsigned char *src, size_t len, uint16_t *dst,
                                        size_t cap, unsigned flags);
utf8kit_result u8k_scalar_utf8_to_utf32(const unsigned char *src, size_t len, uint32_t *dst,
                                        size_t cap, unsigned flags);
utf8kit_result u8k_scalar_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags);
utf8kit_result u8k_scalar_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags);
utf8kit_result u8k_scalar_latin1_to_utf8(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap);
utf8kit_result u8k_scalar_utf8_to_latin1(const unsigned char *src, size_t len,
                                         unsigned char *dst, size_t cap, unsigned flags);
/* u8k_scalar_utf8_to_latin1 that replaces what it cannot convert itself,
 * as the flags say (U8K_L1_SUB above); convert.c calls it in place of the
 * scalar kernel under REPLACE and SKIP. */
utf8kit_result u8k_scalar_utf8_to_latin1_sub(const unsigned char *src, size_t len,
                                             unsigned char *dst, size_t cap, unsigned flags);

/* u8k_active returns the implementation in use, choosing it on first call
 * (src/dispatch.c). */
const u8k_kernels *u8k_active(void);

/* u8k_kernels_now is the table to call on the hot paths, where a test or
 * a function call more is a tenth of the time on short inputs: the
 * pointer u8k_active publishes. Before the first choice it points to a
 * table of stubs that choose and then run the chosen kernel (dispatch.c),
 * so it is never NULL and a public call can end in a plain jump. */
#if defined(__GNUC__) || defined(__clang__)
/* hidden: read PC-relative, not through the GOT (the library's symbols
 * are hidden anyway, see CMakeLists.txt) */
__attribute__((visibility("hidden")))
#endif
extern const u8k_kernels *u8k_active_kernels;
U8K_INLINE const u8k_kernels *u8k_kernels_now(void)
{
    return __atomic_load_n(&u8k_active_kernels, __ATOMIC_ACQUIRE);
}

/* u8k_splat4[b] is the byte b four times, for a 32-bit broadcast from
 * memory (a load alone, no shuffle) of the vector of b in every byte. It
 * is defined in a file of its own (src/splats.c) so that the compiler
 * cannot see its values. Of a constant it knows, gcc short of vector
 * registers makes a new copy in the loop from an immediate with a
 * broadcast, which takes the shuffle port that limits the AVX-512 loops;
 * of one it must read, it keeps the register or reads memory again, for
 * free on a load port. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("hidden")))
#endif
extern const uint32_t u8k_splat4[256];

/* The vector kernels read inputs at least this long from an aligned
 * address on: validation after a first block at the start (u8k_vstart in
 * simd/validate.h), the counts of valid text and the conversions of
 * UTF-16, UTF-32 and Latin-1 to UTF-8 in two parts (u8k_split in
 * simd/transcode.h). A load across two cache lines costs two accesses,
 * and most buffers are not aligned. (Here for the tests.) */
#define U8K_ALIGN_MIN 1024

/* Small helpers for results. */
U8K_INLINE utf8kit_result u8k_res(utf8kit_status st, size_t read, size_t written, size_t elen)
{
    utf8kit_result r;
    r.status = st;
    r.read = read;
    r.written = written;
    r.error_len = elen;
    r.replaced = 0;
    return r;
}

/* r->read through a general register (the empty asm): gcc would otherwise
 * load read and written together as one 16-byte pair, a load that cannot
 * take its data from the kernel's two separate 8-byte stores just made (a
 * store-forwarding stall, as in simd/to_utf8_shift.h). */
U8K_INLINE size_t u8k_read_apart(const utf8kit_result *r)
{
    size_t rd = r->read;
    __asm__("" : "+r"(rd));
    return rd;
}

/* Whether a kernel may replace the error of the scalar kernel's report
 * with status st itself under U8K_REPL: an input error, but not one cut
 * by the end of the input (TRUNCATED), which goes back to the driver. */
U8K_INLINE bool u8k_repl_error(utf8kit_status st)
{
    return st != UTF8KIT_OK && st != UTF8KIT_ERR_OUTPUT_TOO_SMALL && st != UTF8KIT_ERR_TRUNCATED;
}

/* u8k_res for an OK or OUTPUT_TOO_SMALL result with rep errors replaced. */
U8K_INLINE utf8kit_result u8k_res_rep(utf8kit_status st, size_t read, size_t written, size_t rep)
{
    utf8kit_result r = u8k_res(st, read, written, 0);
    r.replaced = rep;
    return r;
}

U8K_INLINE u8k_vres u8k_vres_make(utf8kit_status st, size_t read, size_t elen)
{
    u8k_vres v;
    v.read = read;
    v.status = (uint32_t)st;
    v.error_len = (uint32_t)elen;
    return v;
}

U8K_INLINE utf8kit_result u8k_vres_result(u8k_vres v)
{
    return u8k_res((utf8kit_status)v.status, v.read, 0, v.error_len);
}

U8K_INLINE bool u8k_is_cont(unsigned char b) { return (b & 0xC0u) == 0x80u; }

/* Short inputs (8 to 64 bytes) read with no branch on their length n:
 * eight 8-byte pieces at u8k_short_at(k, n) = min(8k, n - 8), k = 0..7,
 * cover them (the last ones overlap). A short string's length varies
 * from call to call, and a loop over it ends at a mispredicted branch
 * about every other call; this costs about as much as one such branch. */
U8K_INLINE size_t u8k_short_at(unsigned k, size_t n)
{
    return 8 * (size_t)k < n - 8 ? 8 * (size_t)k : n - 8;
}

/* The OR of the eight pieces of s[0..n), 8 <= n <= 64. */
U8K_INLINE uint64_t u8k_short_or(const void *s, size_t n)
{
    uint64_t acc = 0;
    unsigned k;
    for (k = 0; k < 8; k++) {
        uint64_t w;
        memcpy(&w, (const unsigned char *)s + u8k_short_at(k, n), 8);
        acc |= w;
    }
    return acc;
}

/* d[0..n) = s[0..n), 8 <= n <= 64, by the eight pieces: all are loaded
 * before any is stored, so d == s is fine too. */
U8K_INLINE void u8k_short_copy(void *d, const void *s, size_t n)
{
    uint64_t w[8];
    unsigned k;
    for (k = 0; k < 8; k++)
        memcpy(&w[k], (const unsigned char *)s + u8k_short_at(k, n), 8);
    for (k = 0; k < 8; k++)
        memcpy((unsigned char *)d + u8k_short_at(k, n), &w[k], 8);
}

/* Whether s[0..len) is 8 to 64 bytes, all ASCII (u8k_short_or): it
 * spares the kernels' short paths (a partial block, the tests of its
 * length) on ASCII strings. Big- and little-endian alike (only the high
 * bits). */
U8K_INLINE bool u8k_short_ascii(const unsigned char *s, size_t len)
{
    return len >= 8 && len <= 64 && (u8k_short_or(s, len) & UINT64_C(0x8080808080808080)) == 0;
}

/* u8k_valid_len returns the length (2 to 4) of the well-formed sequence that
 * starts with the non-ASCII byte s[i], or 0 when there is none (an error,
 * or a sequence cut by the end; u8k_decode_step then says which). It is
 * the ABNF of RFC 3629 section 4 (src/scalar/decode.c) written as direct range tests, no value computed,
 * for the common case only: every ASCII-free text runs through here. */
U8K_INLINE size_t u8k_valid_len(const unsigned char *s, size_t i, size_t len)
{
    unsigned b0 = s[i], b1;
    size_t left = len - i;
    if (b0 < 0xE0) { /* C2..DF UTF8-tail */
        return (b0 >= 0xC2 && left >= 2 && u8k_is_cont(s[i + 1])) ? 2 : 0;
    }
    if (left < 3)
        return 0;
    b1 = s[i + 1];
    if (b0 < 0xF0) { /* E0 A0..BF / E1..EC / ED 80..9F / EE..EF, then a tail */
        if (!u8k_is_cont((unsigned char)b1) || !u8k_is_cont(s[i + 2]) ||
            (b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F))
            return 0;
        return 3;
    }
    /* F0 90..BF / F1..F3 / F4 80..8F, then two tails */
    if (b0 > 0xF4 || left < 4 || !u8k_is_cont((unsigned char)b1) || !u8k_is_cont(s[i + 2]) ||
        !u8k_is_cont(s[i + 3]) || (b0 == 0xF0 && b1 < 0x90) || (b0 == 0xF4 && b1 > 0x8F))
        return 0;
    return 4;
}

#endif /* UTF8KIT_INTERNAL_H */
