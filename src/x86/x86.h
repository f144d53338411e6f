/*
 * x86.h - what the x86-64 kernel files share with the dispatcher.
 *
 * Each src/x86/kernels_<isa>.c is compiled with that instruction set's
 * flags (CMake, by file suffix) and defines one kernel table. Only
 * src/dispatch.c refers to the tables, and only after checking with CPUID
 * and XGETBV that this CPU and OS can run them.
 */
#ifndef UTF8KIT_X86_H
#define UTF8KIT_X86_H

#include "internal.h"

extern const u8k_kernels u8k_sse42_kernels;  /* SSE4.2 + POPCNT, 16-byte blocks */
extern const u8k_kernels u8k_avx2_kernels;   /* AVX2 + BMI1/2 + LZCNT, 32-byte blocks */
extern const u8k_kernels u8k_avx512_kernels; /* AVX-512 F/BW/VL/DQ/CD/VBMI/VBMI2, 64-byte */

/* PEXT is microcoded on AMD cores before Zen 3 (families 15h to 18h, and
 * Hygon's Zen derivative): tens to hundreds of cycles where Intel's cores
 * and Zen 3 on take 3. u8k_x86_slow_pext says so from CPUID's vendor
 * string (leaf 0: EBX, EDX, ECX) and family (leaf 1, base plus extended).
 * On such a CPU the dispatcher runs u8k_avx2_slow_pext_kernels instead of
 * u8k_avx2_kernels: the same but for the operations whose AVX2 code uses
 * PEXT (UTF-16 and UTF-32 to UTF-8, Latin-1 to and from UTF-8), which
 * come from SSE4.2 (the u8k_sse42_* functions below). */
bool u8k_x86_slow_pext(const char vendor[12], unsigned family);
extern const u8k_kernels u8k_avx2_slow_pext_kernels;
utf8kit_result u8k_sse42_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                       size_t cap, unsigned flags);
utf8kit_result u8k_sse42_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                       size_t cap, unsigned flags);
utf8kit_result u8k_sse42_latin1_to_utf8(const unsigned char *src, size_t len, unsigned char *dst,
                                        size_t cap);
utf8kit_result u8k_sse42_utf8_to_latin1(const unsigned char *src, size_t len, unsigned char *dst,
                                        size_t cap, unsigned flags);

#endif
