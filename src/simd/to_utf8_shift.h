/*
 * simd/to_utf8_shift.h - the result adjustment of the UTF-16/UTF-32 ->
 * UTF-8 kernels (simd/compress_to_utf8.h, shuffle_to_utf8.h) after a
 * call of the scalar kernel on the rest.
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

#endif /* UTF8KIT_SIMD_TO_UTF8_SHIFT_H */
