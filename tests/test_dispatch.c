/*
 * test_dispatch.c - the dispatcher's choice for CPUs with a slow PEXT.
 *
 * On AMD cores before Zen 3 (and Hygon's), PEXT is microcoded, so the
 * AVX2 kernel runs as u8k_avx2_slow_pext_kernels there: its own table but
 * for the operations whose AVX2 code uses PEXT, which come from SSE4.2
 * (src/x86/x86.h). This machine may not be such a CPU, so the test checks
 * the parts: the vendor/family rule on known CPUs, that the variant
 * differs from the AVX2 table in exactly those four operations and takes
 * them from SSE4.2, and, when the CPU has AVX2, that each of the variant's
 * operations gives the scalar reference's results on random text.
 */
#include "testlib.h"

#include "internal.h"

#ifdef UTF8KIT_HAVE_X86_SIMD
#include "x86/x86.h"

static void check_rule(void)
{
    static const struct {
        const char *vendor;
        unsigned family;
        bool slow;
    } t[] = {
        {"AuthenticAMD", 0x15, true},  /* Excavator (AVX2, BMI2) */
        {"AuthenticAMD", 0x17, true},  /* Zen, Zen+, Zen 2 */
        {"HygonGenuine", 0x18, true},  /* Dhyana (Zen) */
        {"AuthenticAMD", 0x19, false}, /* Zen 3, Zen 4 */
        {"AuthenticAMD", 0x1A, false}, /* Zen 5 */
        {"GenuineIntel", 0x06, false},
        {"CentaurHauls", 0x06, false},
    };
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECK(u8k_x86_slow_pext(t[i].vendor, t[i].family) == t[i].slow, "%s family %Xh: %d",
              t[i].vendor, t[i].family, !t[i].slow);
}

static void check_table(void)
{
    const u8k_kernels *a = &u8k_avx2_kernels, *v = &u8k_avx2_slow_pext_kernels;
    CHECK(strcmp(v->name, a->name) == 0, "name %s", v->name);
    CHECK(v->is_valid == a->is_valid && v->validate == a->validate &&
              v->ascii_prefix == a->ascii_prefix && v->count == a->count &&
              v->utf16_length == a->utf16_length && v->validate_counts == a->validate_counts &&
              v->utf8_to_utf16 == a->utf8_to_utf16 && v->utf8_to_utf32 == a->utf8_to_utf32 &&
              v->count_assume_valid == a->count_assume_valid && v->widen == a->widen &&
              v->narrow == a->narrow,
          "the operations without PEXT are AVX2's");
    CHECK(v->utf16_to_utf8 == u8k_sse42_utf16_to_utf8 &&
              v->utf32_to_utf8 == u8k_sse42_utf32_to_utf8 &&
              v->latin1_to_utf8 == u8k_sse42_latin1_to_utf8 &&
              v->utf8_to_latin1 == u8k_sse42_utf8_to_latin1 && v->latin1_to_utf8_c1 == NULL,
          "the operations with PEXT are SSE4.2's (which has no latin1_to_utf8_c1)");
    CHECK(a->latin1_to_utf8_c1 != NULL, "AVX2 has its latin1_to_utf8_c1");
}

static bool same(utf8kit_result x, utf8kit_result y)
{
    return x.status == y.status && x.read == y.read && x.written == y.written &&
           x.error_len == y.error_len;
}

/* The variant's four operations against scalar on random text (they run
 * SSE4.2 code, so any x86-64 CPU with SSE4.2 can run them). */
static void check_results(void)
{
    const u8k_kernels *v = &u8k_avx2_slow_pext_kernels, *s = &u8k_scalar_kernels;
    static uint16_t u16[300];
    static uint32_t u32[300];
    static unsigned char b[1200], o1[1300], o2[1300];
    int t;
    size_t n, k;
    const char *name;
    for (k = 0; (name = utf8kit_impl_available(k)) != NULL; k++)
        if (strcmp(name, "sse42") == 0)
            break;
    if (name == NULL) {
        printf("  (no SSE4.2 here: results not checked)\n");
        return;
    }
    test_seed(2026);
    for (t = 0; t < 2000; t++) {
        utf8kit_result r1, r2;
        n = rnd() % 300;
        for (k = 0; k < n; k++) {
            static const uint32_t lim[] = {0x80, 0x800, 0x10000, 0x110000};
            u32[k] = rnd() % lim[rnd() % 4];
            if (rnd() % 50 == 0)
                u32[k] = 0xD800 + rnd() % 0x800; /* a surrogate: an error */
            u16[k] = (uint16_t)u32[k];
            b[k] = (unsigned char)(rnd() % 64 == 0 ? 0xC3 : u32[k]);
        }
        r1 = v->utf16_to_utf8(u16, n, o1, sizeof o1, 0);
        r2 = s->utf16_to_utf8(u16, n, o2, sizeof o2, 0);
        CHECK(same(r1, r2) && memcmp(o1, o2, r1.written) == 0, "utf16_to_utf8, input %d", t);
        r1 = v->utf32_to_utf8(u32, n, o1, sizeof o1, 0);
        r2 = s->utf32_to_utf8(u32, n, o2, sizeof o2, 0);
        CHECK(same(r1, r2) && memcmp(o1, o2, r1.written) == 0, "utf32_to_utf8, input %d", t);
        r1 = v->latin1_to_utf8(b, n, o1, sizeof o1);
        r2 = s->latin1_to_utf8(b, n, o2, sizeof o2);
        CHECK(same(r1, r2) && memcmp(o1, o2, r1.written) == 0, "latin1_to_utf8, input %d", t);
        r1 = v->utf8_to_latin1(o2, r2.written, b, sizeof b, 0);
        r2 = s->utf8_to_latin1(o2, r2.written, o1, sizeof o1, 0);
        CHECK(same(r1, r2) && memcmp(b, o1, r1.written) == 0, "utf8_to_latin1, input %d", t);
    }
}
#endif

int main(void)
{
    test_begin();
#ifdef UTF8KIT_HAVE_X86_SIMD
    check_rule();
    check_table();
    check_results();
    return test_done("dispatch");
#else
    printf("skipped: not an x86-64 build (nothing to check)\n");
    return 77;
#endif
}
