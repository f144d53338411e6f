/*
 * simd/utf8_pack4.h - the byte-shuffle tables that pack the UTF-8 forms
 * of 4 units (1 to 3 bytes each, one per 32-bit slot), of 4 values (1 to
 * 4 bytes each, one per 32-bit slot) or of 8 units (1 or 2 bytes each,
 * one per 16-bit slot) together, for the kernels without a
 * byte compress (simd/shuffle_to_utf8.h: SSE4.2, AVX2, NEON); each
 * kernel file gets its own copy.
 */
#ifndef UTF8KIT_SIMD_UTF8_PACK4_H
#define UTF8KIT_SIMD_UTF8_PACK4_H

/* Packing 4 units of 1 to 3 UTF-8 bytes with one byte shuffle. Each unit
 * sits in a 32-bit slot that holds its bytes at the end (slot bytes
 * 4 - L .. 3 for a length L), so the packed output byte j comes from
 * slot byte j + D, D the bytes dropped up to and including the unit that
 * holds j. Row e of u8k_pack4 is the shuffle for the lengths
 * L_i = 1 + (bit i of e) + (bit 4 + i of e), i = 0..3: bit i says unit i
 * is at least U+0080, bit 4 + i that it is at least U+0800. With P_k the
 * end of unit k - 1 in the output (P_1 = L_0, ..., P_4 = the total), a j
 * in [P_k, P_(k+1)) takes slot byte j + 4 (k + 1) - P_(k+1); bytes from
 * P_4 on are zero (index 80). Rows where bit 4 + i is set without bit i
 * cannot occur. */
#define U8K_PL(e, i) (1 + (((e) >> (i)) & 1) + (((e) >> (4 + (i))) & 1))
#define U8K_P1(e) U8K_PL(e, 0)
#define U8K_P2(e) (U8K_P1(e) + U8K_PL(e, 1))
#define U8K_P3(e) (U8K_P2(e) + U8K_PL(e, 2))
#define U8K_P4(e) (U8K_P3(e) + U8K_PL(e, 3))
#define U8K_PJ(e, j)                                                                       \
    ((j) >= U8K_P4(e)   ? 0x80                                                             \
     : (j) >= U8K_P3(e) ? (j) + 16 - U8K_P4(e)                                             \
     : (j) >= U8K_P2(e) ? (j) + 12 - U8K_P3(e)                                             \
     : (j) >= U8K_P1(e) ? (j) + 8 - U8K_P2(e)                                              \
                        : (j) + 4 - U8K_P1(e))
#define U8K_PROW(e)                                                                        \
    {U8K_PJ(e, 0),  U8K_PJ(e, 1),  U8K_PJ(e, 2),  U8K_PJ(e, 3),  U8K_PJ(e, 4),  U8K_PJ(e, 5),  \
     U8K_PJ(e, 6),  U8K_PJ(e, 7),  U8K_PJ(e, 8),  U8K_PJ(e, 9),  U8K_PJ(e, 10), U8K_PJ(e, 11), \
     U8K_PJ(e, 12), U8K_PJ(e, 13), U8K_PJ(e, 14), U8K_PJ(e, 15)}
#define U8K_PROW4(e) U8K_PROW(e), U8K_PROW((e) + 1), U8K_PROW((e) + 2), U8K_PROW((e) + 3)
#define U8K_PROW16(e) U8K_PROW4(e), U8K_PROW4((e) + 4), U8K_PROW4((e) + 8), U8K_PROW4((e) + 12)
static const unsigned char u8k_pack4[256][16] = {
    U8K_PROW16(0),   U8K_PROW16(16),  U8K_PROW16(32),  U8K_PROW16(48),
    U8K_PROW16(64),  U8K_PROW16(80),  U8K_PROW16(96),  U8K_PROW16(112),
    U8K_PROW16(128), U8K_PROW16(144), U8K_PROW16(160), U8K_PROW16(176),
    U8K_PROW16(192), U8K_PROW16(208), U8K_PROW16(224), U8K_PROW16(240),
};

/* Packing 8 units of 1 or 2 UTF-8 bytes (all below U+0800) with one byte
 * shuffle: each unit sits in a 16-bit slot with its bytes at the end (an
 * ASCII unit in the second byte). Row m of u8k_pack2 is the shuffle for
 * the units whose bit in m is set taking 2 bytes. Each half of 4 units is
 * packed as in u8k_pack4 with 2-byte slots (U8K_QJ: Q_k the ends in the
 * output, a j in [Q_k, Q_(k+1)) takes slot byte j + 2 (k + 1) - Q_(k+1)),
 * and the second half follows the first at Q_4 of the first. */
#define U8K_QL(e, i) (1 + (((e) >> (i)) & 1))
#define U8K_Q1(e) U8K_QL(e, 0)
#define U8K_Q2(e) (U8K_Q1(e) + U8K_QL(e, 1))
#define U8K_Q3(e) (U8K_Q2(e) + U8K_QL(e, 2))
#define U8K_Q4(e) (U8K_Q3(e) + U8K_QL(e, 3))
#define U8K_QJ(e, j)                                                                       \
    ((j) >= U8K_Q3(e) ? (j) + 8 - U8K_Q4(e)                                                \
     : (j) >= U8K_Q2(e) ? (j) + 6 - U8K_Q3(e)                                              \
     : (j) >= U8K_Q1(e) ? (j) + 4 - U8K_Q2(e)                                              \
                        : (j) + 2 - U8K_Q1(e))
#define U8K_Q2J(m, j)                                                                      \
    ((j) < U8K_Q4((m) & 15) ? U8K_QJ((m) & 15, j)                                          \
     : (j) - U8K_Q4((m) & 15) < U8K_Q4((m) >> 4) ? 8 + U8K_QJ((m) >> 4, (j) - U8K_Q4((m) & 15)) \
                                                 : 0x80)
#define U8K_QROW(m)                                                                        \
    {U8K_Q2J(m, 0),  U8K_Q2J(m, 1),  U8K_Q2J(m, 2),  U8K_Q2J(m, 3),  U8K_Q2J(m, 4),        \
     U8K_Q2J(m, 5),  U8K_Q2J(m, 6),  U8K_Q2J(m, 7),  U8K_Q2J(m, 8),  U8K_Q2J(m, 9),        \
     U8K_Q2J(m, 10), U8K_Q2J(m, 11), U8K_Q2J(m, 12), U8K_Q2J(m, 13), U8K_Q2J(m, 14),       \
     U8K_Q2J(m, 15)}
#define U8K_QROW4(m) U8K_QROW(m), U8K_QROW((m) + 1), U8K_QROW((m) + 2), U8K_QROW((m) + 3)
#define U8K_QROW16(m) U8K_QROW4(m), U8K_QROW4((m) + 4), U8K_QROW4((m) + 8), U8K_QROW4((m) + 12)
static const unsigned char u8k_pack2[256][16] = {
    U8K_QROW16(0),   U8K_QROW16(16),  U8K_QROW16(32),  U8K_QROW16(48),
    U8K_QROW16(64),  U8K_QROW16(80),  U8K_QROW16(96),  U8K_QROW16(112),
    U8K_QROW16(128), U8K_QROW16(144), U8K_QROW16(160), U8K_QROW16(176),
    U8K_QROW16(192), U8K_QROW16(208), U8K_QROW16(224), U8K_QROW16(240),
};

/* Packing 4 values of 1 to 4 UTF-8 bytes (any scalar values) with one
 * byte shuffle, slots and output as for u8k_pack4: row e is for the
 * lengths L_i = 1 + (bits 2i, 2i + 1 of e), i = 0..3, and all 16 bytes
 * may be in use. */
#define U8K_XL(e, i) (1 + (((e) >> (2 * (i))) & 3))
#define U8K_XP1(e) U8K_XL(e, 0)
#define U8K_XP2(e) (U8K_XP1(e) + U8K_XL(e, 1))
#define U8K_XP3(e) (U8K_XP2(e) + U8K_XL(e, 2))
#define U8K_XP4(e) (U8K_XP3(e) + U8K_XL(e, 3))
#define U8K_XJ(e, j)                                                                       \
    ((j) >= U8K_XP4(e)   ? 0x80                                                            \
     : (j) >= U8K_XP3(e) ? (j) + 16 - U8K_XP4(e)                                           \
     : (j) >= U8K_XP2(e) ? (j) + 12 - U8K_XP3(e)                                           \
     : (j) >= U8K_XP1(e) ? (j) + 8 - U8K_XP2(e)                                            \
                        : (j) + 4 - U8K_XP1(e))
#define U8K_XROW(e)                                                                        \
    {U8K_XJ(e, 0),  U8K_XJ(e, 1),  U8K_XJ(e, 2),  U8K_XJ(e, 3),  U8K_XJ(e, 4),  U8K_XJ(e, 5),  \
     U8K_XJ(e, 6),  U8K_XJ(e, 7),  U8K_XJ(e, 8),  U8K_XJ(e, 9),  U8K_XJ(e, 10), U8K_XJ(e, 11), \
     U8K_XJ(e, 12), U8K_XJ(e, 13), U8K_XJ(e, 14), U8K_XJ(e, 15)}
#define U8K_XROW4(e) U8K_XROW(e), U8K_XROW((e) + 1), U8K_XROW((e) + 2), U8K_XROW((e) + 3)
#define U8K_XROW16(e) U8K_XROW4(e), U8K_XROW4((e) + 4), U8K_XROW4((e) + 8), U8K_XROW4((e) + 12)
static const unsigned char u8k_pack4x[256][16] = {
    U8K_XROW16(0),   U8K_XROW16(16),  U8K_XROW16(32),  U8K_XROW16(48),
    U8K_XROW16(64),  U8K_XROW16(80),  U8K_XROW16(96),  U8K_XROW16(112),
    U8K_XROW16(128), U8K_XROW16(144), U8K_XROW16(160), U8K_XROW16(176),
    U8K_XROW16(192), U8K_XROW16(208), U8K_XROW16(224), U8K_XROW16(240),
};

/* Bits 0-3 of the index moved to bits 0, 2, 4 and 6: a sum of three
 * such (for lanes from U+0080, U+0800 and U+10000 on) is a row of
 * u8k_pack4x. */
static const unsigned char u8k_spread4[16] = {0,  1,  4,  5,  16, 17, 20, 21,
                                              64, 65, 68, 69, 80, 81, 84, 85};

#endif /* UTF8KIT_SIMD_UTF8_PACK4_H */
