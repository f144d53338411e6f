/*
 * peers.h - other libraries doing the same operations, for comparison.
 * Each peer is compiled in only when bench/CMakeLists.txt found it.
 */
#ifndef UTF8KIT_BENCH_PEERS_H
#define UTF8KIT_BENCH_PEERS_H

#include <stddef.h>

/* One operation on n input bytes; the result only keeps the call alive. */
typedef size_t (*bench_fn)(const unsigned char *s, size_t n);

/* The buffer peers write to (cap bytes, 4-byte aligned). */
void peers_set_output(unsigned char *out, size_t cap);

/* The name of peer i, or NULL past the last. */
const char *peer_name(size_t i);

/* Peer i's function for operation op ("validate", "count",
 * "utf16_length", "utf8>utf16le", "utf8>utf32", "utf16le>utf8",
 * "utf32>utf8", "latin1>utf8", "utf8>latin1", and with "/r" appended to
 * a conversion the same replacing each error by U+FFFD), or NULL if it
 * has none. */
bench_fn peer_fn(size_t i, const char *op);

/* A line listing the peers compiled in, and those skipped and why. */
const char *peers_available(void);

#endif
