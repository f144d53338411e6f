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

/* The row family of the tables below, for a length macro L(e, i) (the
 * UTF-8 length of unit or value i = 0..3 under row index e) and a pick
 * macro K(L, t) (the slot byte of byte t of a form of L bytes): 4 units
 * or values sit in 32-bit slots, and the packed output byte j comes from
 * slot byte 4 k + K(L_k, j - P_k) of the unit k that holds j, P_k the end
 * of unit k - 1 in the output (P_0 = 0, P_1 = L_0, ..., P_4 = the
 * total). Bytes from P_4 on are zero (index 80). U8K_S1..U8K_S4 are
 * P_1..P_4, U8K_SJ the slot byte of output byte j. */
#define U8K_S1(L, e) L(e, 0)
#define U8K_S2(L, e) (U8K_S1(L, e) + L(e, 1))
#define U8K_S3(L, e) (U8K_S2(L, e) + L(e, 2))
#define U8K_S4(L, e) (U8K_S3(L, e) + L(e, 3))
#define U8K_SJ(L, K, e, j)                                                                 \
    ((j) >= U8K_S4(L, e)   ? 0x80                                                          \
     : (j) >= U8K_S3(L, e) ? 12 + K(L(e, 3), (j) - U8K_S3(L, e))                           \
     : (j) >= U8K_S2(L, e) ? 8 + K(L(e, 2), (j) - U8K_S2(L, e))                            \
     : (j) >= U8K_S1(L, e) ? 4 + K(L(e, 1), (j) - U8K_S1(L, e))                            \
                           : K(L(e, 0), (j)))
#define U8K_SROW(L, K, e)                                                                  \
    {U8K_SJ(L, K, e, 0),  U8K_SJ(L, K, e, 1),  U8K_SJ(L, K, e, 2),  U8K_SJ(L, K, e, 3),     \
     U8K_SJ(L, K, e, 4),  U8K_SJ(L, K, e, 5),  U8K_SJ(L, K, e, 6),  U8K_SJ(L, K, e, 7),     \
     U8K_SJ(L, K, e, 8),  U8K_SJ(L, K, e, 9),  U8K_SJ(L, K, e, 10), U8K_SJ(L, K, e, 11),    \
     U8K_SJ(L, K, e, 12), U8K_SJ(L, K, e, 13), U8K_SJ(L, K, e, 14), U8K_SJ(L, K, e, 15)}
#define U8K_SROW4(L, K, e)                                                                 \
    U8K_SROW(L, K, e), U8K_SROW(L, K, (e) + 1), U8K_SROW(L, K, (e) + 2), U8K_SROW(L, K, (e) + 3)
#define U8K_SROW16(L, K, e)                                                                \
    U8K_SROW4(L, K, e), U8K_SROW4(L, K, (e) + 4), U8K_SROW4(L, K, (e) + 8),                 \
        U8K_SROW4(L, K, (e) + 12)
#define U8K_SROWS(L, K)                                                                    \
    {U8K_SROW16(L, K, 0),   U8K_SROW16(L, K, 16),  U8K_SROW16(L, K, 32),                    \
     U8K_SROW16(L, K, 48),  U8K_SROW16(L, K, 64),  U8K_SROW16(L, K, 80),                    \
     U8K_SROW16(L, K, 96),  U8K_SROW16(L, K, 112), U8K_SROW16(L, K, 128),                   \
     U8K_SROW16(L, K, 144), U8K_SROW16(L, K, 160), U8K_SROW16(L, K, 176),                   \
     U8K_SROW16(L, K, 192), U8K_SROW16(L, K, 208), U8K_SROW16(L, K, 224),                   \
     U8K_SROW16(L, K, 240)}

/* Packing 4 units of 1 to 3 UTF-8 bytes (no surrogates; a surrogate pair
 * as 2 + 2) with one byte shuffle. A unit's slot holds, in memory order,
 *   byte 0: the unit as an ASCII byte (u & 7F),
 *   byte 1: the last byte of a longer form (80 | u & 3F),
 *   byte 2: the lead of a 3-byte form (E0 | u >> 12),
 *   byte 3: the byte before the last (80 | u >> 6 & 3F of a 3-byte form,
 *           the lead C0 | u >> 6 of a 2-byte one),
 * so that every form takes some of them in some order and no byte needs a
 * choice between two values: 1 byte is slot byte 0; 2 bytes are 3, 1;
 * 3 bytes are 2, 3, 1. Row e of u8k_pack3 is for the lengths L_i = 1 +
 * (bit 2i of e) + (bit 2i + 1 of e): bit 2i says unit i is at least
 * U+0080, bit 2i + 1 that it is at least U+0800 (the bits of two 16-bit
 * lane masks interleaved: v_mask16i). Rows where bit 2i + 1 is set
 * without bit 2i cannot occur. */
#define U8K_PL3(e, i) (1 + (((e) >> (2 * (i))) & 1) + (((e) >> (2 * (i) + 1)) & 1))
#define U8K_PK3(L, t) ((L) == 1 ? 0 : (t) == (L) - 1 ? 1 : (t) == (L) - 2 ? 3 : 2)
static const unsigned char u8k_pack3[256][16] = U8K_SROWS(U8K_PL3, U8K_PK3);

/* Packing 8 units of 1 or 2 UTF-8 bytes (all below U+0800) with one byte
 * shuffle: each unit sits in a 16-bit slot with its bytes at the end (an
 * ASCII unit in the second byte). Row m of u8k_pack2 is the shuffle for
 * the units whose bit in m is set taking 2 bytes. Each half of 4 units is
 * packed as by the row family above with 2-byte slots and the bytes of a
 * form at the end of its slot (U8K_QJ: Q_k the ends in the
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
 * byte shuffle, by the same row family: each value's bytes at the end of
 * its 32-bit slot, lead first (slot bytes 4 - L .. 3); row e is for the
 * lengths L_i = 1 + (bits 2i, 2i + 1 of e), i = 0..3, and all 16 bytes
 * may be in use. */
#define U8K_XL(e, i) (1 + (((e) >> (2 * (i))) & 3))
#define U8K_PK4X(L, t) (4 - (L) + (t))
static const unsigned char u8k_pack4x[256][16] = U8K_SROWS(U8K_XL, U8K_PK4X);

/* Bits 0-3 of the index moved to bits 0, 2, 4 and 6: a sum of three
 * such (for lanes from U+0080, U+0800 and U+10000 on) is a row of
 * u8k_pack4x. */
static const unsigned char u8k_spread4[16] = {0,  1,  4,  5,  16, 17, 20, 21,
                                              64, 65, 68, 69, 80, 81, 84, 85};

#endif /* UTF8KIT_SIMD_UTF8_PACK4_H */
