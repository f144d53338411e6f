/*
 * dispatch.c - choose the kernels once, on first use.
 *
 * The chooser pattern of PostgreSQL's pg_crc32c_*_choose.c, made atomic:
 * `active` starts NULL; the first caller detects the CPU, reads
 * UTF8KIT_FORCE_IMPL, and publishes its choice with a release store. Two
 * threads racing here both compute the same answer, so the race is benign.
 * CPUID is never executed again after that (on a virtual machine it traps
 * to the hypervisor and costs microseconds).
 */
#include "internal.h"

#include <stdlib.h>

const u8k_kernels u8k_scalar_kernels = {
    "scalar",
    u8k_scalar_is_valid,
    u8k_scalar_validate,
    u8k_scalar_ascii_prefix,
    u8k_scalar_count,
    u8k_scalar_utf16_length,
    u8k_scalar_utf8_to_utf16,
    u8k_scalar_utf8_to_utf32,
    u8k_scalar_utf16_to_utf8,
    u8k_scalar_utf32_to_utf8,
    u8k_scalar_latin1_to_utf8,
    u8k_scalar_utf8_to_latin1,
};

/* Every implementation compiled in, best first; scalar is always last.
 * u8k_cpu_has(k) says whether this machine can run k. */
static const u8k_kernels *const candidates[] = {
    &u8k_scalar_kernels,
};
#define N_CANDIDATES (sizeof candidates / sizeof candidates[0])

static bool cpu_has(const u8k_kernels *k)
{
    (void)k;
    return true;
}

static const u8k_kernels *active;

static const u8k_kernels *choose(void)
{
    const char *force = getenv("UTF8KIT_FORCE_IMPL");
    size_t i;
    if (force != NULL && *force != '\0') {
        for (i = 0; i < N_CANDIDATES; i++)
            if (strcmp(candidates[i]->name, force) == 0)
                return cpu_has(candidates[i]) ? candidates[i] : &u8k_scalar_kernels;
        return &u8k_scalar_kernels;
    }
    for (i = 0; i < N_CANDIDATES; i++)
        if (cpu_has(candidates[i]))
            return candidates[i];
    return &u8k_scalar_kernels;
}

const u8k_kernels *u8k_active(void)
{
    const u8k_kernels *k = __atomic_load_n(&active, __ATOMIC_ACQUIRE);
    if (U8K_UNLIKELY(k == NULL)) {
        k = choose();
        __atomic_store_n(&active, k, __ATOMIC_RELEASE);
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
            __atomic_store_n(&active, candidates[j], __ATOMIC_RELEASE);
            return UTF8KIT_OK;
        }
    return UTF8KIT_ERR_INVALID_ARGUMENT;
}
