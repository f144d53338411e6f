/*
 * simd/widen.h - bytes widened to 16- or 32-bit units (u8k_kernels.widen):
 * Latin-1 to UTF-16, UCS-2 and UTF-32, and the stretches of windows-1252
 * and US-ASCII that convert.c gives it (the bytes it holds as themselves).
 * Written once on each kernel file's U8K_WIDEN_VW (VW bytes at s as VW
 * units at d; by default the zero-extensions from memory of its vector
 * layer, v_load_widen16 and v_load_widen32).
 */
#ifndef UTF8KIT_SIMD_WIDEN_H
#define UTF8KIT_SIMD_WIDEN_H

#include "internal.h"

#ifndef U8K_WIDEN_VW
#define U8K_WIDEN_VW(d, s, wide, be)                                                          \
    ((wide) ? v_load_widen32((uint32_t *)(void *)(d), (s))                                    \
            : v_load_widen16((uint16_t *)(void *)(d), (s), (be)))
#endif

/* The loop for the constant wide and be: the first VW bytes, then whole
 * vectors from where the output is aligned to 64 bytes (or to a vector's
 * units, when they are fewer bytes), which redoes some of the first: a
 * store that straddles two cache lines costs more than a load that does.
 * Then the last VW bytes again (ending at n); the units rewritten are the
 * same. For n < VW, a byte at a time. */
U8K_INLINE void u8k_widen_run(unsigned char *d, const unsigned char *s, size_t n, bool wide,
                              bool be)
{
    const size_t us = wide ? 4 : 2, a = VW * us < 64 ? VW * us : 64;
    size_t i = 0;
    if (n < VW) {
        for (; i < n; i++) {
            if (wide) {
                uint32_t u = s[i];
                memcpy(d + 4 * i, &u, 4);
            } else {
                d[2 * i + be] = s[i];
                d[2 * i + !be] = 0;
            }
        }
        return;
    }
    U8K_WIDEN_VW(d, s, wide, be);
    i = (size_t)(-(uintptr_t)d & (a - 1)) / us;
    if (i == 0)
        i = VW;
    for (; n - i >= VW; i += VW)
        U8K_WIDEN_VW(d + i * us, s + i, wide, be);
    if (i < n)
        U8K_WIDEN_VW(d + (n - VW) * us, s + n - VW, wide, be);
}

static void simd_widen(void *d, const unsigned char *s, size_t n, bool wide, bool be)
{
    if (wide)
        u8k_widen_run(d, s, n, true, false);
    else if (be)
        u8k_widen_run(d, s, n, false, true);
    else
        u8k_widen_run(d, s, n, false, false);
}

#endif /* UTF8KIT_SIMD_WIDEN_H */
