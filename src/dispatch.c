/*
 * dispatch.c - choose the kernels once, on first use.
 *
 * The chooser pattern of PostgreSQL's pg_crc32c_*_choose.c, made atomic:
 * `u8k_active_kernels` starts at a table of stubs (first_kernels), each of
 * which chooses, publishes its choice with a release store, and calls the
 * chosen kernel. The public calls then read the pointer and jump, with no
 * test and no frame of their own. Two threads racing here both compute
 * the same answer, so the race is benign. CPUID is never executed again
 * after that (on a virtual machine it traps to the hypervisor and costs
 * microseconds).
 */
#include "internal.h"

#include <stdlib.h>

const u8k_kernels u8k_scalar_kernels = {
    "scalar",
    u8k_scalar_is_valid,
    u8k_scalar_validate_v,
    u8k_scalar_ascii_prefix,
    u8k_scalar_count,
    u8k_scalar_utf16_length,
    u8k_scalar_validate_counts,
    u8k_scalar_utf8_to_utf16,
    u8k_scalar_utf8_to_utf32,
    u8k_scalar_utf16_to_utf8,
    u8k_scalar_utf32_to_utf8,
    u8k_scalar_latin1_to_utf8,
    u8k_scalar_utf8_to_latin1,
    u8k_scalar_count_assume_valid,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

#ifdef UTF8KIT_HAVE_X86_SIMD
#include "x86/x86.h"

#include <cpuid.h>

/* What this CPU and OS can run, found once (see x86_level). */
enum { X86_UNKNOWN = 0, X86_NONE, X86_SSE42, X86_AVX2, X86_AVX512 };

/* CPUID feature bits (Intel SDM vol. 2A, CPUID; AMD APM vol. 3). */
#define L1_ECX_SSSE3 (1u << 9)
#define L1_ECX_SSE41 (1u << 19)
#define L1_ECX_SSE42 (1u << 20)
#define L1_ECX_POPCNT (1u << 23)
#define L1_ECX_OSXSAVE (1u << 27) /* the OS enabled XGETBV/XSAVE */
#define L1_ECX_AVX (1u << 28)
#define L7_EBX_BMI1 (1u << 3)
#define L7_EBX_AVX2 (1u << 5)
#define L7_EBX_BMI2 (1u << 8)
#define L7_EBX_AVX512F (1u << 16)
#define L7_EBX_AVX512DQ (1u << 17)
#define L7_EBX_AVX512CD (1u << 28)
#define L7_EBX_AVX512BW (1u << 30)
#define L7_EBX_AVX512VL (1u << 31)
#define L7_ECX_AVX512VBMI (1u << 1)
#define L7_ECX_AVX512VBMI2 (1u << 6)
#define X1_ECX_LZCNT (1u << 5) /* leaf 0x80000001, "ABM" */

/* XCR0: which register states the OS saves on a context switch. A CPU bit
 * alone is not enough: without these the OS would lose the upper halves. */
#define XCR0_SSE (1u << 1)
#define XCR0_YMM (1u << 2)    /* upper 128 bits of YMM0-15 */
#define XCR0_OPMASK (1u << 5) /* k0-k7 */
#define XCR0_ZMM_HI256 (1u << 6) /* upper 256 bits of ZMM0-15 */
#define XCR0_HI16_ZMM (1u << 7)  /* ZMM16-31 */

static uint32_t xcr0(void)
{
    uint32_t eax, edx;
    /* XGETBV with ECX = 0 reads XCR0; spelled as bytes so that no -mxsave
     * is needed (only executed once OSXSAVE says it exists). */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
    (void)edx;
    return eax;
}

#define ALL(x, bits) (((x) & (bits)) == (bits))

bool u8k_x86_slow_pext(const char vendor[12], unsigned family)
{
    if (memcmp(vendor, "AuthenticAMD", 12) == 0)
        return family < 0x19; /* Zen 3 is family 19h */
    return memcmp(vendor, "HygonGenuine", 12) == 0;
}

/* Whether PEXT is slow here (set by detect, before the level). */
static bool slow_pext_cache;

static int detect(void)
{
    unsigned a = 0, b, c, d, b7 = 0, c7 = 0, cx = 0, max, family;
    uint32_t x = 0;
    char vendor[12];
    if (!__get_cpuid(0, &max, &b, &c, &d) || max < 1)
        return X86_NONE;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    __get_cpuid(1, &a, &b, &c, &d);
    family = (a >> 8 & 0xF) == 0xF ? 0xF + (a >> 20 & 0xFF) : (a >> 8 & 0xF);
    __atomic_store_n(&slow_pext_cache, u8k_x86_slow_pext(vendor, family), __ATOMIC_RELAXED);
    if (max >= 7)
        __cpuid_count(7, 0, a, b7, c7, d);
    if (__get_cpuid(0x80000001u, &a, &b, &cx, &d) == 0)
        cx = 0;
    if (c & L1_ECX_OSXSAVE)
        x = xcr0();
    if (ALL(c, L1_ECX_OSXSAVE | L1_ECX_AVX) && ALL(x, XCR0_SSE | XCR0_YMM) &&
        ALL(b7, L7_EBX_AVX2 | L7_EBX_BMI1 | L7_EBX_BMI2) && (cx & X1_ECX_LZCNT) &&
        (c & L1_ECX_POPCNT)) {
        if (ALL(x, XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM) &&
            ALL(b7, L7_EBX_AVX512F | L7_EBX_AVX512DQ | L7_EBX_AVX512CD | L7_EBX_AVX512BW |
                        L7_EBX_AVX512VL) &&
            ALL(c7, L7_ECX_AVX512VBMI | L7_ECX_AVX512VBMI2))
            return X86_AVX512;
        return X86_AVX2;
    }
    if (ALL(c, L1_ECX_SSSE3 | L1_ECX_SSE41 | L1_ECX_SSE42 | L1_ECX_POPCNT))
        return X86_SSE42;
    return X86_NONE;
}

/* The detected level, cached so that CPUID runs once per process (0 until
 * detect() ran; racing first calls store the same value). */
static int level_cache;

static int x86_level(void)
{
    int l = __atomic_load_n(&level_cache, __ATOMIC_ACQUIRE);
    if (l == X86_UNKNOWN) {
        l = detect();
        __atomic_store_n(&level_cache, l, __ATOMIC_RELEASE);
    }
    return l;
}
#endif

#ifdef UTF8KIT_HAVE_NEON
#include "arm/arm.h"
#endif

/* Every implementation compiled in, best first; scalar is always last. */
static const u8k_kernels *const candidates[] = {
#ifdef UTF8KIT_HAVE_X86_SIMD
    &u8k_avx512_kernels,
    &u8k_avx2_kernels,
    &u8k_sse42_kernels,
#endif
#ifdef UTF8KIT_HAVE_NEON
    &u8k_neon_kernels,
#endif
    &u8k_scalar_kernels,
};
#define N_CANDIDATES (sizeof candidates / sizeof candidates[0])

/* cpu_has(k) says whether this machine can run k. */
static bool cpu_has(const u8k_kernels *k)
{
#ifdef UTF8KIT_HAVE_X86_SIMD
    if (k == &u8k_avx512_kernels)
        return x86_level() >= X86_AVX512;
    if (k == &u8k_avx2_kernels)
        return x86_level() >= X86_AVX2;
    if (k == &u8k_sse42_kernels)
        return x86_level() >= X86_SSE42;
#endif
#ifdef UTF8KIT_HAVE_NEON
    if (k == &u8k_neon_kernels)
        return true; /* Advanced SIMD is mandatory in AArch64 */
#endif
    return k == &u8k_scalar_kernels;
}

/* The table to run for candidate k: on a CPU whose PEXT is slow, AVX2's
 * variant without it (x86/x86.h). */
static const u8k_kernels *fit(const u8k_kernels *k)
{
#ifdef UTF8KIT_HAVE_X86_SIMD
    /* (x86_level runs the detection that sets slow_pext_cache) */
    if (k == &u8k_avx2_kernels && x86_level() >= X86_AVX2 &&
        __atomic_load_n(&slow_pext_cache, __ATOMIC_RELAXED))
        return &u8k_avx2_slow_pext_kernels;
#endif
    return k;
}

/* The stubs of the table in use before the first choice: each makes it
 * (u8k_active) and runs the chosen kernel. */
static bool first_is_valid(const unsigned char *s, size_t len)
{
    return u8k_active()->is_valid(s, len);
}
static u8k_vres first_validate(const unsigned char *s, size_t len)
{
    return u8k_active()->validate(s, len);
}
static size_t first_ascii_prefix(const unsigned char *s, size_t len)
{
    return u8k_active()->ascii_prefix(s, len);
}
static size_t first_count(const unsigned char *s, size_t len) { return u8k_active()->count(s, len); }
static size_t first_utf16_length(const unsigned char *s, size_t len)
{
    return u8k_active()->utf16_length(s, len);
}
static utf8kit_result first_validate_counts(const unsigned char *s, size_t len,
                                            utf8kit_counts *counts)
{
    return u8k_active()->validate_counts(s, len, counts);
}
static utf8kit_result first_utf8_to_utf16(const unsigned char *src, size_t len, uint16_t *dst,
                                          size_t cap, unsigned flags)
{
    return u8k_active()->utf8_to_utf16(src, len, dst, cap, flags);
}
static utf8kit_result first_utf8_to_utf32(const unsigned char *src, size_t len, uint32_t *dst,
                                          size_t cap, unsigned flags)
{
    return u8k_active()->utf8_to_utf32(src, len, dst, cap, flags);
}
static utf8kit_result first_utf16_to_utf8(const uint16_t *src, size_t len, unsigned char *dst,
                                          size_t cap, unsigned flags)
{
    return u8k_active()->utf16_to_utf8(src, len, dst, cap, flags);
}
static utf8kit_result first_utf32_to_utf8(const uint32_t *src, size_t len, unsigned char *dst,
                                          size_t cap, unsigned flags)
{
    return u8k_active()->utf32_to_utf8(src, len, dst, cap, flags);
}
static utf8kit_result first_latin1_to_utf8(const unsigned char *src, size_t len,
                                           unsigned char *dst, size_t cap)
{
    return u8k_active()->latin1_to_utf8(src, len, dst, cap);
}
static utf8kit_result first_utf8_to_latin1(const unsigned char *src, size_t len,
                                           unsigned char *dst, size_t cap, unsigned flags)
{
    return u8k_active()->utf8_to_latin1(src, len, dst, cap, flags);
}
static size_t first_count_assume_valid(const unsigned char *s, size_t len, bool utf16)
{
    return u8k_active()->count_assume_valid(s, len, utf16);
}

static const u8k_kernels first_kernels = {
    "(not yet chosen)",
    first_is_valid,
    first_validate,
    first_ascii_prefix,
    first_count,
    first_utf16_length,
    first_validate_counts,
    first_utf8_to_utf16,
    first_utf8_to_utf32,
    first_utf16_to_utf8,
    first_utf32_to_utf8,
    first_latin1_to_utf8,
    first_utf8_to_latin1,
    first_count_assume_valid,
    NULL, /* (only where it helps: u8_copy in convert.c goes on without) */
    NULL, /* (the scans and copies in convert.c go on without) */
    NULL, /* (cp1252_utf8 in convert.c goes on without) */
    NULL, /* (convert.c widens a byte at a time without) */
    NULL, /* (convert.c goes through UTF-8 without) */
    NULL, /* (convert.c narrows in C without) */
};

/* Read directly by u8k_kernels_now (internal.h) on the hot paths. */
const u8k_kernels *u8k_active_kernels = &first_kernels;

static const u8k_kernels *choose(void)
{
    const char *force = getenv("UTF8KIT_FORCE_IMPL");
    size_t i;
    if (force != NULL && *force != '\0') {
        for (i = 0; i < N_CANDIDATES; i++)
            if (strcmp(candidates[i]->name, force) == 0)
                return cpu_has(candidates[i]) ? fit(candidates[i]) : &u8k_scalar_kernels;
        return &u8k_scalar_kernels;
    }
    for (i = 0; i < N_CANDIDATES; i++)
        if (cpu_has(candidates[i]))
            return fit(candidates[i]);
    return &u8k_scalar_kernels;
}

const u8k_kernels *u8k_active(void)
{
    const u8k_kernels *k = __atomic_load_n(&u8k_active_kernels, __ATOMIC_ACQUIRE);
    if (U8K_UNLIKELY(k == &first_kernels)) {
        k = choose();
        __atomic_store_n(&u8k_active_kernels, k, __ATOMIC_RELEASE);
    }
    return k;
}

const char *utf8kit_impl_name(void) { return u8k_active()->name; }

const char *utf8kit_impl_available(size_t i)
{
    size_t j, seen = 0;
    /* scalar first, then the others in order */
    if (i == 0)
        return "scalar";
    for (j = 0; j < N_CANDIDATES; j++) {
        if (candidates[j] == &u8k_scalar_kernels || !cpu_has(candidates[j]))
            continue;
        if (++seen == i)
            return candidates[j]->name;
    }
    return NULL;
}

utf8kit_status utf8kit_impl_select(const char *name)
{
    size_t j;
    if (name == NULL)
        return UTF8KIT_ERR_INVALID_ARGUMENT;
    for (j = 0; j < N_CANDIDATES; j++)
        if (strcmp(candidates[j]->name, name) == 0 && cpu_has(candidates[j])) {
            __atomic_store_n(&u8k_active_kernels, fit(candidates[j]), __ATOMIC_RELEASE);
            return UTF8KIT_OK;
        }
    return UTF8KIT_ERR_INVALID_ARGUMENT;
}
