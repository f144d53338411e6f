/*
 * simd/repair.h - UTF-8 -> UTF-8 under REPLACE with U+FFFD
 * (utf8kit_repair) for the kernels of VW-byte vectors (SSE4.2, AVX2,
 * NEON), on text with many errors. Included by their kernel files after
 * simd/pext.h (its nibble tables). AVX-512 has its own kernel
 * (simd/repair_avx512.h, which defines U8K_OWN_REPAIR and takes only
 * the two definitions before it from here); the scheme is the same:
 *
 * Valid blocks are copied as they are. A block with an error is tried
 * with its lone bytes made spaces (a lead C0..FF that no tail follows, or
 * a tail right after a byte below 80, is one maximal invalid subpart of
 * its own, whatever came before it; u8k_lone_v in simd/pext.h). When the
 * check then passes (or is not needed: nothing else in the block is
 * 80..FF, and nothing is pending before it), the stretches between the
 * lone bytes are copied, each by one load and one store of a whole
 * vector (what lies past the stretch is overwritten by what follows),
 * and each lone byte is written as EF BF BD. Any other error, a stretch of valid blocks
 * (U8K_REPAIR_QUIET_BYTES), the last 2 * VW bytes of the input and the
 * last 4 * VW bytes of room are left to the caller, which goes on as
 * without this kernel (validation, copy, one U+FFFD per maximal
 * subpart), and calls it again after the next error.
 */
#ifndef UTF8KIT_SIMD_REPAIR_H
#define UTF8KIT_SIMD_REPAIR_H

#include "internal.h"

/* After this many bytes of blocks in a row without errors a kernel
 * stops: validation and a copy, the caller's way, are faster on valid
 * text (on AVX-512 a fused loop copying block by block was 13-15%
 * slower there). */
#define U8K_REPAIR_QUIET_BYTES 2048

/* The bytes at the end of block v that begin a character the block does
 * not finish (0..3); v holds no error. (Once a call: through memory.) */
U8K_INLINE size_t u8k_repair_pending(u8k_v v)
{
    unsigned char t[VW];
    v_store(t, v);
    return t[VW - 1] >= 0xC0 ? 1 : t[VW - 2] >= 0xE0 ? 2 : t[VW - 3] >= 0xF0 ? 3 : 0;
}

#ifndef U8K_OWN_REPAIR
/* Copies s[0..len) to d (room for cap bytes) as utf8kit_repair would, as
 * far as it can (see the header comment), and returns how far: read (a
 * character start after valid text, or after a lone byte), written,
 * replaced (the lone bytes), status OK. The caller goes on from read. */
static utf8kit_result simd_utf8_repair(const unsigned char *s, size_t len, unsigned char *d,
                                       size_t cap)
{
    size_t i = 0, o = 0, rep = 0, quiet = 0;
    u8k_v prev = v_splat(0), space = v_splat(0x20);
    u8k_v ttail = v_table(u8k_nib_tail), tlead = v_table(u8k_nib_lead);
    u8k_v thigh = v_table(u8k_nib_high);
    u8k_vstate st;
    u8k_vinit(&st);
    /* A block reads up to 2 * VW - 1 bytes from its start (the byte after
     * it, the last stretch's load), and writes at most 3 * VW bytes
     * (every byte lone) and a vector more. */
    while (i + 2 * VW <= len && cap - o >= 4 * VW && quiet < U8K_REPAIR_QUIET_BYTES) {
        u8k_v w = v_load(s + i), lone_v = v_splat(0);
        uint64_t high = v_high(w), lone = 0;
        bool plain;
        quiet += VW;
        if (high != 0) {
            lone_v = u8k_lone_v(w, v_load(s + i + 1), prev, tlead, ttail, thigh);
            lone = v_high(lone_v);
        }
        /* ASCII but for the lone bytes, and nothing pending before: valid
         * with them taken out, without a check (as in simd/repair_avx512.h;
         * Latin-1 read as UTF-8 repaired 1.2-1.3x as fast on AVX2, French
         * and Portuguese 1.35x on SSE4.2, Esperanto, with few lone bytes,
         * 0.95x there) */
        plain = lone != 0 && (high & ~lone) == 0 && !v_any(v_subs(prev, st.tailmax));
        if (high == 0) {
            if (v_any(v_subs(prev, st.tailmax)))
                break; /* a character cut by the block */
            v_store(d + o, w);
            o += VW;
        } else if (!plain && !v_any(u8k_vcheck2(&st, w, prev))) {
            v_store(d + o, w);
            o += VW;
        } else {
            unsigned char *q = d + o;
            size_t a = 0;
            quiet = 0;
            if (lone == 0)
                break;
            w = v_blend(w, space, lone_v);
            if (!plain && v_any(u8k_vcheck2(&st, w, prev)))
                break;
            rep += (size_t)__builtin_popcountll(lone);
            /* (the loop of simd/repair_avx512.h, written out in both:
             * see there) */
            for (; lone != 0; lone &= lone - 1) {
                size_t j = (size_t)__builtin_ctzll(lone);
                v_store(q, v_load(s + i + a));
                q += j - a;
                q[0] = 0xEF;
                q[1] = 0xBF;
                q[2] = 0xBD;
                q += 3;
                a = j + 1;
            }
            v_store(q, v_load(s + i + a));
            o = (size_t)(q - d) + VW - a;
            /* w, the block the next is checked after, has spaces for the
             * lone bytes: a lone lead at its end starts nothing */
        }
        prev = w;
        i += VW;
    }
    /* back to the start of a character the last block left unfinished
     * (its bytes were copied one for one) */
    {
        size_t k = i > 0 ? u8k_repair_pending(prev) : 0;
        return u8k_res_rep(UTF8KIT_OK, i - k, o - k, rep);
    }
}
#endif /* U8K_OWN_REPAIR */

#endif /* UTF8KIT_SIMD_REPAIR_H */
