/* splats.c - the byte constants that the vector kernels read from memory
 * (see u8k_splat4 in internal.h). */
#include "internal.h"

#define U8K_Q4(b) (UINT32_C(0x01010101) * (b))
#define U8K_Q16(b)                                                                         \
    U8K_Q4(b), U8K_Q4(b + 1), U8K_Q4(b + 2), U8K_Q4(b + 3), U8K_Q4(b + 4), U8K_Q4(b + 5),   \
        U8K_Q4(b + 6), U8K_Q4(b + 7), U8K_Q4(b + 8), U8K_Q4(b + 9), U8K_Q4(b + 10),        \
        U8K_Q4(b + 11), U8K_Q4(b + 12), U8K_Q4(b + 13), U8K_Q4(b + 14), U8K_Q4(b + 15)

const uint32_t u8k_splat4[256] = {U8K_Q16(0),   U8K_Q16(16),  U8K_Q16(32),  U8K_Q16(48),
                                  U8K_Q16(64),  U8K_Q16(80),  U8K_Q16(96),  U8K_Q16(112),
                                  U8K_Q16(128), U8K_Q16(144), U8K_Q16(160), U8K_Q16(176),
                                  U8K_Q16(192), U8K_Q16(208), U8K_Q16(224), U8K_Q16(240)};
