/*
 * simd/units.h - the units kernel (u8k_kernels.units, struct u8k_unit_scan
 * in internal.h) on the vector layer of each kernel file: whole vectors of
 * UTF-16, UCS-2 or UTF-32 units (or bytes) scanned for the first that
 * stops, and copied up to it, each unit's bytes reversed or not.
 * convert.c uses it for the pairs it converts in stretches: the scans for
 * a surrogate unit, a UTF-32 unit that is not a scalar value, a byte
 * F0..FF, 00 or 80..9F, the copies between byte orders, and the UTF-32
 * byte reversals. Its scalar loops find the exact unit after it.
 *
 * A byte stops when low - s or s - lim saturates to nonzero (below its low
 * or above its lim), or when it, the top entry of its top nibble and its
 * place's sur byte have a bit in common (D8..DF at a place sur marks, with
 * top[D] = 08 and sur 08 there; bytes 80..9F anywhere, with top[8] =
 * top[9] = FF and sur FF everywhere). Every table has 16 bytes, so each
 * 16-byte part of a vector (the lanes of the lookups and shuffles) sees
 * the same ones, and a unit of 2 or 4 bytes never crosses a part.
 */
#ifndef UTF8KIT_SIMD_UNITS_H
#define UTF8KIT_SIMD_UNITS_H

#include "internal.h"

/* The kernel's loop, for the constant check, copy (d not NULL) and swap. */
U8K_INLINE size_t u8k_units_run(unsigned char *d, const unsigned char *s, size_t n,
                                const struct u8k_unit_scan *u, bool check, bool copy, bool swap)
{
    const u8k_v low = v_table(u->low), lim = v_table(u->lim), top = v_table(u->top);
    const u8k_v sur = v_table(u->sur), rev = v_table(u->rev);
    size_t i = 0;
    for (; n - i >= VW; i += VW) {
        u8k_v v = v_load(s + i);
        if (check && v_any(v_or(v_or(v_subs(low, v), v_subs(v, lim)),
                                v_and(v_and(v_lookup(top, v_shr4(v)), v), sur))))
            break;
        if (copy)
            v_store(d + i, swap ? v_lookup(v, rev) : v);
    }
    return i;
}

static size_t simd_units(unsigned char *d, const unsigned char *s, size_t n,
                         const struct u8k_unit_scan *u)
{
    if (d == NULL)
        return u8k_units_run(d, s, n, u, true, false, false);
    if (!u->check)
        return u8k_units_run(d, s, n, u, false, true, u->swap);
    return u->swap ? u8k_units_run(d, s, n, u, true, true, true)
                   : u8k_units_run(d, s, n, u, true, true, false);
}

#endif /* UTF8KIT_SIMD_UNITS_H */
