/* simdutf_shim.h - C entry points over simdutf (C++), for the benchmark
 * only; compiled when -DSIMDUTF_DIR is given. Same signature as bench_fn. */
#ifndef UTF8KIT_BENCH_SIMDUTF_SHIM_H
#define UTF8KIT_BENCH_SIMDUTF_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
void simdutf_shim_output(unsigned char *out, size_t cap);
size_t simdutf_validate(const unsigned char *s, size_t n);
size_t simdutf_is_valid(const unsigned char *s, size_t n);
size_t simdutf_count(const unsigned char *s, size_t n);
size_t simdutf_utf16_length(const unsigned char *s, size_t n);
size_t simdutf_u8_u16(const unsigned char *s, size_t n);
size_t simdutf_u8_u32(const unsigned char *s, size_t n);
size_t simdutf_u16_u8(const unsigned char *s, size_t n);
size_t simdutf_u32_u8(const unsigned char *s, size_t n);
size_t simdutf_l1_u8(const unsigned char *s, size_t n);
size_t simdutf_u8_l1(const unsigned char *s, size_t n);
#ifdef __cplusplus
}
#endif
#endif
