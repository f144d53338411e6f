/*
 * simd/repair_avx512.h - UTF-8 -> UTF-8 under REPLACE with U+FFFD
 * (utf8kit_repair) for AVX-512, on text with many errors. Included by
 * src/x86/kernels_avx512.c after simd/compress.h (u8k_lone_bytes) and
 * simd/repair.h (U8K_REPAIR_QUIET_BYTES, u8k_repair_pending).
 *
 * Valid 64-byte blocks are copied as they are. A block with an error is
 * tried with its lone bytes made spaces (as in simd/compress.h,
 * u8k_units_lone: a lead C0..FF that no tail follows, or a tail right
 * after an ASCII byte, is one maximal invalid subpart of its own,
 * whatever came before it). When the check then passes (or is not
 * needed: nothing else in the block is 80..FF, and nothing is pending
 * before it), the block is copied with each lone byte written as EF BF
 * BD (U+FFFD), one load and one store per stretch between them (as
 * simd/repair.h does: 8-13% faster than a compress of the block per
 * stretch). Any other error, a
 * stretch of valid blocks (U8K_REPAIR_QUIET_BYTES), the last 128 bytes
 * of the input and the last 256 bytes of room are left to the caller,
 * which goes on as without this kernel (validation, copy, one U+FFFD per
 * maximal subpart), and calls it again after the next error.
 */
#ifndef UTF8KIT_SIMD_REPAIR_AVX512_H
#define UTF8KIT_SIMD_REPAIR_AVX512_H

#include "internal.h"

/* Copies s[0..len) to d (room for cap bytes) as utf8kit_repair would,
 * as far as it can (see the header comment), and returns how far: read
 * (a character start after valid text, or after a lone byte), written,
 * replaced (the lone bytes), status OK. The caller goes on from read. */
static utf8kit_result simd_utf8_repair_vbmi2(const unsigned char *s, size_t len, unsigned char *d,
                                             size_t cap)
{
    size_t i = 0, o = 0, rep = 0, quiet = 0;
    __m512i prev = _mm512_setzero_si512();
    u8k_vstate st;
    u8k_vinit(&st);
    /* a block reads up to 127 bytes from its start (the last stretch's
     * load), and writes at most 64 + 2 * 64 bytes, its last store 64
     * bytes from where the last stretch starts */
    while (i + 128 <= len && cap - o >= 256 && quiet < U8K_REPAIR_QUIET_BYTES) {
        __m512i w = v_load(s + i), w2;
        uint64_t high = v_high(w), lone, a = 0;
        bool plain;
        unsigned char *q = d + o;
        quiet += 64;
        lone = high != 0 ? u8k_lone_bytes(w, high, s[i + 64], prev) : 0;
        /* ASCII but for the lone bytes, and nothing pending before: valid
         * with them taken out, without a check (German and Portuguese
         * Latin-1 read as UTF-8 repaired 1.4-1.5x as fast) */
        plain = lone != 0 && (high & ~lone) == 0 && !v_any(v_subs(prev, st.tailmax));
        if (high == 0) {
            if (v_any(v_subs(prev, st.tailmax)))
                break;
            v_store(q, w);
        } else if (!plain && !v_any(u8k_vcheck2(&st, w, prev))) {
            v_store(q, w);
        } else {
            quiet = 0;
            if (lone == 0)
                break;
            w2 = _mm512_mask_mov_epi8(w, lone, v_splat_k(0x20));
            if (!plain && v_any(u8k_vcheck2(&st, w2, prev)))
                break;
            rep += (size_t)__builtin_popcountll(lone);
            /* the stretches between the lone bytes, each loaded from
             * where it starts and stored whole (what lies past it is
             * overwritten next). The loop of simd/repair.h: shared as
             * one inline function, it cost that kernel 3-6% on AVX2
             * (German and Esperanto Latin-1; registers allocated
             * otherwise). */
            for (; lone != 0; lone &= lone - 1) {
                uint64_t j = (uint64_t)__builtin_ctzll(lone);
                v_store(q, v_load(s + i + a));
                q += j - a;
                q[0] = 0xEF;
                q[1] = 0xBF;
                q[2] = 0xBD;
                q += 3;
                a = j + 1;
            }
            v_store(q, v_load(s + i + a));
            w = w2; /* what the next block is checked after */
        }
        o = (size_t)(q - d) + 64 - a;
        prev = w;
        i += 64;
    }
    /* back to the start of a character the last block left unfinished
     * (its bytes were copied one for one) */
    {
        size_t k = i > 0 ? u8k_repair_pending(prev) : 0;
        return u8k_res_rep(UTF8KIT_OK, i - k, o - k, rep);
    }
}

#endif /* UTF8KIT_SIMD_REPAIR_AVX512_H */
