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

#endif
