/* splats.c - vectors of one repeated byte, read from memory by the vector
 * kernels (see u8k_splat in internal.h). */
#include "internal.h"

#define U8K_R16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
#define U8K_R64(x) {U8K_R16(x), U8K_R16(x), U8K_R16(x), U8K_R16(x)}

const unsigned char u8k_splat[U8K_SPLAT_N][64] = {
    [U8K_SPLAT_60] = U8K_R64(0x60), [U8K_SPLAT_70] = U8K_R64(0x70), [U8K_SPLAT_80] = U8K_R64(0x80),
    [U8K_SPLAT_E0] = U8K_R64(0xE0), [U8K_SPLAT_F0] = U8K_R64(0xF0),
};
