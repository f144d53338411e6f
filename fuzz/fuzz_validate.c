// needs: utf8kit_validate utf8kit_validate_counts utf8kit_is_valid utf8kit_ascii_prefix utf8kit_count_assume_valid utf8kit_impl_select
/*
 * fuzz_validate.c - validation, every kernel against the scalar reference
 * and the scalar reference against an independent decoder (fuzz_common.h).
 *
 * For each input: the detailed result is consistent with itself (read <=
 * len, error_len >= 1 on error and within the input, TRUNCATED exactly
 * when the error runs to the end, the prefix before the error valid),
 * is_valid agrees with it, ascii_prefix is the run of bytes < 80, and every
 * kernel gives the scalar result field for field; validate_counts gives
 * validate's result and the scalar kernel's counts, added to what the
 * struct held; count_assume_valid and utf16_length_assume_valid give the
 * scalar kernel's byte counts (on any input) and, on valid input,
 * utf8kit_count / utf8kit_utf16_length.
 */
#include "fuzz_common.h"
#include "internal.h"

static void check_one(const unsigned char *s, size_t len, const char *kname)
{
    utf8kit_result r = utf8kit_validate((const char *)s, len);
    utf8kit_result want = u8k_scalar_validate(s, len);
    bool ok = utf8kit_is_valid((const char *)s, len);
    size_t ap = utf8kit_ascii_prefix((const char *)s, len), i;

    FUZZ_CHECK(same_result(r, want), "[%s] len %zu: got " RES_FMT " scalar " RES_FMT, kname, len,
               RES_ARGS(r), RES_ARGS(want));
    FUZZ_CHECK(ok == (r.status == UTF8KIT_OK), "[%s] is_valid %d vs %s", kname, ok,
               utf8kit_status_name(r.status));
    FUZZ_CHECK(r.written == 0 && r.replaced == 0, "[%s]", kname);
    if (r.status == UTF8KIT_OK) {
        FUZZ_CHECK(r.read == len && r.error_len == 0, "[%s] ok but read %zu", kname, r.read);
    } else {
        FUZZ_CHECK(r.status >= UTF8KIT_ERR_STRAY_CONTINUATION &&
                       r.status <= UTF8KIT_ERR_TRUNCATED,
                   "[%s] odd status %d", kname, (int)r.status);
        FUZZ_CHECK(r.read < len && r.error_len >= 1 && r.error_len <= len - r.read,
                   "[%s] read %zu elen %zu len %zu", kname, r.read, r.error_len, len);
        FUZZ_CHECK(r.error_len <= 3 || (r.status == UTF8KIT_ERR_TRUNCATED && r.error_len <= 3),
                   "[%s] elen %zu", kname, r.error_len);
        if (r.status == UTF8KIT_ERR_TRUNCATED)
            FUZZ_CHECK(r.read + r.error_len == len, "[%s] truncated not at end", kname);
        /* the prefix is valid, and so is is_valid on it */
        FUZZ_CHECK(utf8kit_is_valid((const char *)s, r.read), "[%s] prefix %zu", kname, r.read);
    }
    {
        utf8kit_counts c, w;
        utf8kit_result rc, wc;
        int k;
        /* start from non-zero figures: the call adds */
        c.lines = w.lines = 5;
        for (k = 0; k < 5; k++)
            c.seq[k] = w.seq[k] = (uint64_t)k * 3;
        rc = utf8kit_validate_counts((const char *)s, len, &c);
        wc = u8k_scalar_validate_counts(s, len, &w);
        FUZZ_CHECK(same_result(rc, want) && same_result(wc, want),
                   "[%s] len %zu: validate_counts " RES_FMT " scalar " RES_FMT, kname, len,
                   RES_ARGS(rc), RES_ARGS(wc));
        FUZZ_CHECK(c.lines == w.lines && c.seq[0] == w.seq[0] && c.seq[1] == w.seq[1] &&
                       c.seq[2] == w.seq[2] && c.seq[3] == w.seq[3] && c.seq[4] == w.seq[4],
                   "[%s] len %zu: counts %llu %llu/%llu/%llu/%llu, scalar %llu %llu/%llu/%llu/%llu",
                   kname, len, (unsigned long long)c.lines, (unsigned long long)c.seq[1],
                   (unsigned long long)c.seq[2], (unsigned long long)c.seq[3],
                   (unsigned long long)c.seq[4], (unsigned long long)w.lines,
                   (unsigned long long)w.seq[1], (unsigned long long)w.seq[2],
                   (unsigned long long)w.seq[3], (unsigned long long)w.seq[4]);
    }
    for (i = 0; i < len && s[i] < 0x80; i++)
        ;
    FUZZ_CHECK(ap == i, "[%s] ascii_prefix %zu want %zu", kname, ap, i);
    {
        size_t c = utf8kit_count_assume_valid((const char *)s, len);
        size_t u = utf8kit_utf16_length_assume_valid((const char *)s, len);
        FUZZ_CHECK(c == u8k_scalar_count_assume_valid(s, len, false) &&
                       u == u8k_scalar_count_assume_valid(s, len, true),
                   "[%s] len %zu: count_assume_valid %zu/%zu, scalar %zu/%zu", kname, len, c, u,
                   u8k_scalar_count_assume_valid(s, len, false),
                   u8k_scalar_count_assume_valid(s, len, true));
        if (r.status == UTF8KIT_OK)
            FUZZ_CHECK(c == utf8kit_count((const char *)s, len) &&
                           u == utf8kit_utf16_length((const char *)s, len),
                       "[%s] len %zu: assume_valid counts differ on valid input", kname, len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *s = fuzz_dup(data, size);
    const char *names[8];
    size_t nk = fuzz_kernels(names), k;
    utf8kit_result ref = ref_validate(s, size), sc = u8k_scalar_validate(s, size);

    /* The scalar reference against the independent decoder: the same
     * offset, length and OK / TRUNCATED / other split. */
    FUZZ_CHECK(sc.read == ref.read && sc.error_len == ref.error_len &&
                   (sc.status == UTF8KIT_OK) == (ref.status == UTF8KIT_OK) &&
                   (sc.status == UTF8KIT_ERR_TRUNCATED) == (ref.status == UTF8KIT_ERR_TRUNCATED),
               "scalar " RES_FMT " independent " RES_FMT, RES_ARGS(sc), RES_ARGS(ref));

    for (k = 0; k < nk; k++) {
        FUZZ_CHECK(utf8kit_impl_select(names[k]) == UTF8KIT_OK, "select %s", names[k]);
        check_one(s, size, names[k]);
        /* and every suffix start within the first block, so a kernel meets
         * the same bytes at each alignment */
        if (size > 1)
            check_one(s + 1, size - 1, names[k]);
        if (size > 7)
            check_one(s + 7, size - 7, names[k]);
    }
    free(s);
    return 0;
}
