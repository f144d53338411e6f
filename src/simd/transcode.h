/*
 * simd/transcode.h - what the transcoding kernels of src/simd/ share, on
 * top of the vector layer of simd/validate.h plus:
 *
 *   v_store(p, v)              VW bytes to p, any alignment
 *
 * Every direction has kernels of its own for every instruction set
 * (UTF-8 -> UTF-16/32: simd/pext.h, compress.h; UTF-16/32 -> UTF-8:
 * compress_to_utf8.h, shuffle_to_utf8.h;
 * Latin-1: latin1_avx512.h, pext_latin1.h, shuffle_latin1.h). The
 * U8K_OWN_* defines of the kernel files only say so. This file holds
 * u8k_shift, and the stretch end of the scalar stretches of UTF-16 input.
 */
#ifndef UTF8KIT_SIMD_TRANSCODE_H
#define UTF8KIT_SIMD_TRANSCODE_H

#include "internal.h"

/* How much the scalar kernel converts per call before the vector path
 * looks for blocks it can take again. */
#define U8K_STRETCH (4 * VW)

U8K_INLINE utf8kit_result u8k_shift(utf8kit_result r, size_t read, size_t written)
{
    r.read += read;
    r.written += written;
    return r;
}

/* Long UTF-16, UTF-32 and Latin-1 inputs are converted in two parts: the units
 * up to the first 64-byte aligned address, then the rest from there, so
 * that the loads of the rest do not cross cache lines (such a load costs
 * two accesses, and most buffers are not aligned). u8k_split gives the
 * units of the first part, or 0 for one part: for an input shorter than
 * U8K_ALIGN_MIN bytes, one whose address is not a multiple of its unit,
 * and (UTF-16) when the first part would end on a high surrogate, which
 * goes with the unit after it. The parts then convert as the whole
 * would: a unit's result depends on nothing before it but a high
 * surrogate. */
/* Whether unit s[k], stored in the byte order be says, is a high
 * surrogate (D800..DBFF), the first half of a pair. */
U8K_INLINE bool u8k_high_half(const uint16_t *s, size_t k, bool be)
{
    unsigned u = s[k];
    if (be)
        u = ((u & 0xFFu) << 8) | (u >> 8);
    return (u & 0xFC00u) == 0xD800u;
}

U8K_INLINE size_t u8k_split(const void *src, size_t len, size_t us, bool be)
{
    uintptr_t a = (uintptr_t)src;
    size_t h;
    if (len < U8K_ALIGN_MIN / us || a % us != 0)
        return 0;
    h = (size_t)(-a % 64) / us;
    if (h == 0 || us != 2)
        return h;
    return u8k_high_half((const uint16_t *)src, h - 1, be) ? 0 : h;
}

/* The result of a whole conversion from r1, the first part's (h units;
 * the second part is converted only when r1 is OK) and r2, the rest's. */
U8K_INLINE utf8kit_result u8k_join(utf8kit_result r1, utf8kit_result r2, size_t h)
{
    r2.read += h;
    r2.written += r1.written;
    r2.replaced += r1.replaced;
    return r2;
}

/* A kernel entry f to UTF-8, called in two parts when u8k_split says so
 * (f is a static function of the kernel file: the calls are direct). */
typedef utf8kit_result (*u8k_from16_fn)(const uint16_t *, size_t, unsigned char *, size_t, unsigned);
typedef utf8kit_result (*u8k_from32_fn)(const uint32_t *, size_t, unsigned char *, size_t, unsigned);
typedef utf8kit_result (*u8k_from8_fn)(const unsigned char *, size_t, unsigned char *, size_t);

/* name(f, src, len, dst, cap[, flags]): PARAM and ARG, in parentheses,
 * are (, unsigned flags) and (, flags) for the kernels that take flags,
 * () for Latin-1 (every byte a character). */
#define U8K_ID(...) __VA_ARGS__
#define U8K_SPLIT_UNITS(name, fn_t, unit_t, be, PARAM, ARG)                                      \
    U8K_INLINE utf8kit_result name(fn_t f, const unit_t *src, size_t len, unsigned char *dst,    \
                                   size_t cap U8K_ID PARAM)                                      \
    {                                                                                            \
        size_t h = u8k_split(src, len, sizeof(unit_t), be);                                      \
        utf8kit_result r;                                                                        \
        if (h == 0)                                                                              \
            return f(src, len, dst, cap U8K_ID ARG);                                             \
        r = f(src, h, dst, cap U8K_ID ARG);                                                      \
        if (r.status != UTF8KIT_OK)                                                              \
            return r;                                                                            \
        return u8k_join(r, f(src + h, len - h, dst + r.written, cap - r.written U8K_ID ARG), h);  \
    }
U8K_SPLIT_UNITS(u8k_split16, u8k_from16_fn, uint16_t, (flags & U8K_BE) != 0, (, unsigned flags), (, flags))
U8K_SPLIT_UNITS(u8k_split32, u8k_from32_fn, uint32_t, false, (, unsigned flags), (, flags))
U8K_SPLIT_UNITS(u8k_split8, u8k_from8_fn, unsigned char, false, (), ())

/* The end of a Latin-1 -> UTF-8 vector loop (simd/latin1_avx512.h,
 * simd/pext_latin1.h) stopped at byte i of src and o of dst: the scalar
 * kernel from there, with c1 (latin1_to_utf8_c1) only up to the next
 * byte 80..9F. */
U8K_INLINE utf8kit_result u8k_latin1_rest(const unsigned char *src, size_t i, size_t len,
                                          unsigned char *dst, size_t o, size_t cap, bool c1)
{
    if (c1) {
        size_t e = i;
        while (e < len && (src[e] & 0xE0) != 0x80)
            e++;
        len = e;
    }
    if (i == len)
        return u8k_res(UTF8KIT_OK, i, o, 0);
    return u8k_shift(u8k_scalar_latin1_to_utf8(src + i, len - i, dst + o, cap - o), i, o);
}

/* What a UTF-8 -> UTF-16/32 block loop hands its caller (a call in the
 * loop would cost it its vector registers, which every call clobbers):
 * nothing (its result is the answer), a block of 4-byte characters for
 * the caller's 4-byte path, an input error to replace
 * (u8k_units_replace), or a run of 3-byte characters (simd/pext.h with
 * 16-byte blocks: u8k_three_run). */
enum { U8K_NEXT_NONE, U8K_NEXT_FOUR, U8K_NEXT_REPL, U8K_NEXT_THREE };

/* U+FFFD as unit j of out: UTF-32 (wide), else UTF-16 (big-endian in
 * memory when be). */
U8K_INLINE void u8k_put_fffd(void *out, size_t j, bool wide, bool be)
{
    if (wide)
        ((uint32_t *)out)[j] = UTF8KIT_REPLACEMENT_CHARACTER;
    else
        ((uint16_t *)out)[j] = be ? 0xFDFFu : 0xFFFDu;
}

/* An input error found by a UTF-8 -> UTF-16 (wide: UTF-32) block loop
 * under U8K_REPL (internal.h): the scalar kernel goes on from *done (a
 * character start after valid text, *od units stored) to the error,
 * U+FFFD takes its error_len bytes, and the blocks go on after them (a
 * character start, nothing pending), as the driver would call the kernel
 * again there: that saves the return to the driver and the new call,
 * most of what an error cost on text with many. Returns true with *done
 * and *od after the U+FFFD and one more in *rep; false when the kernel
 * must stop at *done
 * after all: no room for the U+FFFD, or an error the driver handles (cut
 * by the end of the input: TRUNCATED). (After a whole block neither can
 * happen: the error starts in it, and the loop had a block's room. Both
 * are checked all the same.) */
static U8K_NOINLINE bool u8k_units_replace(const unsigned char *src, size_t len, size_t *done,
                                           size_t *od, void *out, size_t cap, unsigned flags,
                                           bool wide, size_t *rep)
{
    size_t d = *done, u = *od, rd, w;
    utf8kit_result r =
        wide ? u8k_scalar_utf8_to_utf32(src + d, len - d, (uint32_t *)out + u, cap - u, flags)
             : u8k_scalar_utf8_to_utf16(src + d, len - d, (uint16_t *)out + u, cap - u, flags);
    rd = u8k_read_apart(&r);
    w = u + r.written;
    if (!u8k_repl_error(r.status) || w >= cap)
        return false;
    u8k_put_fffd(out, w, wide, (flags & U8K_BE) != 0);
    *done = d + rd + r.error_len;
    *od = w + 1;
    *rep += 1;
    return true;
}

/* Blocks of ASCII in a row that the loops of lone bytes (u8k_units_lone,
 * u8k_pext_lone) widen before they give the text back to the block loop:
 * 8 was best of 1-32 on Latin-1 text read as UTF-8 (AVX-512; 32 took
 * Esperanto, with few lone bytes, 0.92x). */
#define U8K_LONE_QUIET 8

/* The step a UTF-8 -> UTF-16/32 block loop's caller takes at an input
 * error under U8K_REPL, defined as `name` for a kernel whose lone-byte
 * step is `lone` (the arguments of u8k_units_replace, true when it took
 * a block): lone bytes first, else the one error u8k_units_replace
 * replaces. Either way the blocks go on from the new *done, a character
 * start with nothing pending; false when the kernel must stop there. It
 * takes the arguments of u8k_units_replace, so that the block loop's
 * caller compiles as it did before the lone-byte steps: with a call
 * that passed the loop's whole state, valid text converted 1-3% slower
 * (AVX-512) and 5-9% slower under REPLACE (AVX2). */
#define U8K_REPAIR_STEP(name, lone)                                                        \
    static U8K_NOINLINE bool name(const unsigned char *src, size_t len, size_t *done,      \
                                  size_t *od, void *out, size_t cap, unsigned flags,        \
                                  bool wide, size_t *rep)                                   \
    {                                                                                      \
        if (lone(src, len, done, od, out, cap, flags, wide, rep))                          \
            return true;                                                                   \
        return u8k_units_replace(src, len, done, od, out, cap, flags, wide, rep);          \
    }

/* A UTF-16 stretch must not end between the two halves of a pair: stop
 * one unit early when its last unit is a high surrogate (D800..DBFF). */
U8K_INLINE size_t u8k_stretch16(const uint16_t *s, size_t len, size_t i, bool be)
{
    size_t j = i + U8K_STRETCH;
    if (j >= len)
        return len;
    return u8k_high_half(s, j - 1, be) ? j - 1 : j;
}

#endif /* UTF8KIT_SIMD_TRANSCODE_H */
