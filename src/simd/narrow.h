/*
 * simd/narrow.h - 16- or 32-bit units narrowed to bytes (u8k_kernels.
 * narrow): UTF-16, UCS-2 and UTF-32 to Latin-1, US-ASCII and windows-1252,
 * up to the first unit above a limit (FF, or 7F). Written once on
 * v_narrow_units (VW units at s as VW bytes at d, or false, nothing
 * written, when one has a bit of `bad`, the bits above the limit as they
 * lie in memory): the kernel file's own when it defines
 * U8K_OWN_NARROW_UNITS, else the one below, on the layer's
 * v_narrow16_bad and v_narrow32_bad (which simd/shuffle_to_utf8.h's ASCII
 * runs use too, with the limit 7F). convert.c finishes the vector that
 * stopped it a unit at a time. The SIMD kernels run on little-endian
 * hosts only, where be (big-endian in memory) is the other byte order than
 * the host's.
 */
#ifndef UTF8KIT_SIMD_NARROW_H
#define UTF8KIT_SIMD_NARROW_H

#include "internal.h"

#ifndef U8K_OWN_NARROW_UNITS
U8K_INLINE bool v_narrow_units(unsigned char *d, const unsigned char *s, bool wide, bool be,
                               unsigned bad)
{
    u8k_v x;
    if (!(wide ? v_narrow32_bad(s, be, bad, &x) : v_narrow16_bad(s, be, bad, &x)))
        return false;
    v_store(d, x);
    return true;
}
#endif

/* The loop for the constant wide and be. */
U8K_INLINE size_t u8k_narrow_run(unsigned char *d, const unsigned char *s, size_t n, bool wide,
                                 bool be, unsigned max)
{
    const size_t us = wide ? 4 : 2;
    /* (a big-endian unit's bytes lie the other way round) */
    const unsigned b16 = ~max & 0xFFFFu;
    const unsigned bad = wide ? (be ? (unsigned)__builtin_bswap32(~max) : ~max)
                              : be ? (b16 >> 8 | b16 << 8) & 0xFFFFu : b16;
    size_t i = 0;
    for (; n - i >= VW; i += VW)
        if (!v_narrow_units(d + i, s + i * us, wide, be, bad))
            break;
    return i;
}

static size_t simd_narrow(unsigned char *d, const void *s, size_t n, bool wide, bool be,
                          unsigned max)
{
    const unsigned char *p = s;
    if (wide)
        return be ? u8k_narrow_run(d, p, n, true, true, max)
                  : u8k_narrow_run(d, p, n, true, false, max);
    if (be)
        return u8k_narrow_run(d, p, n, false, true, max);
    return u8k_narrow_run(d, p, n, false, false, max);
}

#endif /* UTF8KIT_SIMD_NARROW_H */
