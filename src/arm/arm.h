/*
 * arm.h - what the AArch64 kernel file shares with the dispatcher.
 * Advanced SIMD (NEON) is part of every AArch64 CPU, so no detection is
 * needed: the table is always usable when compiled in.
 */
#ifndef UTF8KIT_ARM_H
#define UTF8KIT_ARM_H

#include "internal.h"

extern const u8k_kernels u8k_neon_kernels; /* 16-byte blocks */

#endif
