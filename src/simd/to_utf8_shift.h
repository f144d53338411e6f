/*
 * simd/to_utf8_shift.h - what the UTF-16/UTF-32 -> UTF-8 kernels
 * (simd/compress_to_utf8.h, shuffle_to_utf8.h) do with a result of the
 * scalar kernel: adjust it after a call on the rest, or replace the
 * error it reports and go on (U8K_REPL).
 */
#ifndef UTF8KIT_SIMD_TO_UTF8_SHIFT_H
#define UTF8KIT_SIMD_TO_UTF8_SHIFT_H

#include "internal.h"

/* r with read and written moved on by those of the vector part. Two
 * separate adds: GCC would otherwise pair them (and the two counters)
 * into 16-byte vector loads and an add, and such a load cannot take its
 * data from the two 8-byte stores just made (a store-forwarding stall
 * that cost short inputs about a third of their time). The empty asm
 * keeps one count in a general register. */
U8K_INLINE utf8kit_result u8k_to8_shift(utf8kit_result r, size_t read, size_t written)
{
    __asm__("" : "+r"(read));
    r.read += read;
    r.written += written;
    return r;
}

/* Under U8K_REPL (internal.h; flags are the kernel's): r is the scalar
 * kernel's report on the units from *i (*o bytes stored before them).
 * When it is an error the kernel may replace (u8k_repl_error) and EF BF
 * BD fits after the bytes it stored, writes them, moves *i past the error
 * and *o past the U+FFFD, counts it in *rep and returns true: the kernel
 * goes on, as the driver would call it again there. That saves the
 * return to the driver and the new call, most of what an error cost on
 * text with many. */
U8K_INLINE bool u8k_to8_replace(const utf8kit_result *r, unsigned flags, size_t *i, size_t *o,
                                size_t *rep, unsigned char *dst, size_t cap)
{
    size_t at;
    if (!(flags & U8K_REPL) || !u8k_repl_error(r->status))
        return false;
    at = *o + r->written;
    if (cap - at < 3)
        return false;
    dst[at] = 0xEF;
    dst[at + 1] = 0xBF;
    dst[at + 2] = 0xBD;
    *i += u8k_read_apart(r) + r->error_len;
    *o = at + 3;
    *rep += 1;
    return true;
}

/* r from the scalar kernel on the units from i (o bytes stored before
 * them), with rep more errors replaced before (U8K_REPL). */
U8K_INLINE utf8kit_result u8k_to8_shift_rep(utf8kit_result r, size_t i, size_t o, size_t rep)
{
    r.replaced += rep;
    return u8k_to8_shift(r, i, o);
}

#endif /* UTF8KIT_SIMD_TO_UTF8_SHIFT_H */
