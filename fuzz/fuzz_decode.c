// needs: utf8kit_decode utf8kit_decode_last utf8kit_sequence_length utf8kit_is_boundary utf8kit_next_boundary utf8kit_prev_boundary utf8kit_count utf8kit_utf16_length utf8kit_encode utf8kit_encoded_length utf8kit_compare utf8kit_find utf8kit_impl_select
/*
 * fuzz_decode.c - one character at a time, boundaries, counting, ordering
 * and search, all against each other and against the independent decoder
 * of fuzz_common.h:
 *  - the utf8kit_decode loop (s += n) is the reference decoder's loop:
 *    the same code points and lengths; encode gives back the bytes of each
 *    character; sequence_length of its lead byte is its length;
 *  - the offsets that loop visits are exactly the boundaries
 *    (is_boundary, next_boundary, prev_boundary at every offset);
 *  - decode_last is OK exactly when the last step of the loop is a
 *    character, with the same code point and length;
 *  - count and utf16_length (every kernel) count the loop's steps;
 *  - compare orders by unsigned bytes (code point order on valid input);
 *  - find returns the first byte match that starts and ends on boundaries.
 */
#include "fuzz_common.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *s = fuzz_dup(data, size), *bnd = calloc(size + 2, 1);
    const char *cs = (const char *)s;
    const char *names[8];
    size_t i = 0, steps = 0, u16 = 0, last_start = 0, nk, k;
    int last_ok = 0;
    uint32_t last_cp = 0;

    if (!bnd)
        abort();
    utf8kit_impl_select("scalar");
    /* the decode loop against the reference */
    while (i < size) {
        uint32_t cp, rcp;
        size_t n, rn;
        int rk = ref_step(s + i, size - i, &rcp, &rn);
        utf8kit_status st = utf8kit_decode(cs + i, size - i, &cp, &n);
        FUZZ_CHECK(n == rn && cp == rcp && (st == UTF8KIT_OK) == (rk == 1) &&
                       (st == UTF8KIT_ERR_TRUNCATED) == (rk < 0),
                   "decode at %zu: %s U+%04X n=%zu, reference %d U+%04X n=%zu", i,
                   utf8kit_status_name(st), (unsigned)cp, n, rk, (unsigned)rcp, rn);
        if (st == UTF8KIT_OK) {
            char e[4];
            FUZZ_CHECK(utf8kit_encode(cp, e) == n && memcmp(e, s + i, n) == 0 &&
                           utf8kit_encoded_length(cp) == n && utf8kit_sequence_length(s[i]) == n,
                       "encode U+%04X", (unsigned)cp);
            u16 += n == 4 ? 2 : 1;
        } else {
            FUZZ_CHECK(n >= 1 && n <= 3 && cp == 0xFFFD, "error n=%zu", n);
            u16++;
        }
        bnd[i] = 1;
        last_start = i;
        last_ok = st == UTF8KIT_OK;
        last_cp = cp;
        steps++;
        i += n;
    }
    bnd[size] = 1;

    /* decode_last */
    {
        uint32_t cp;
        size_t n;
        utf8kit_status st = utf8kit_decode_last(cs, size, &cp, &n);
        if (size == 0)
            FUZZ_CHECK(st == UTF8KIT_ERR_TRUNCATED && n == 0, "decode_last of nothing");
        else if (last_ok)
            FUZZ_CHECK(st == UTF8KIT_OK && cp == last_cp && n == size - last_start,
                       "decode_last %s U+%04X n=%zu, loop U+%04X from %zu", utf8kit_status_name(st),
                       (unsigned)cp, n, (unsigned)last_cp, last_start);
        else
            FUZZ_CHECK(st != UTF8KIT_OK && n == 1 && cp == 0xFFFD, "decode_last %s n=%zu",
                       utf8kit_status_name(st), n);
    }

    /* boundaries */
    {
        size_t nextb = size, prevb = 0;
        for (i = 0; i <= size; i++)
            FUZZ_CHECK(utf8kit_is_boundary(cs, size, i) == (bnd[i] != 0), "is_boundary(%zu)", i);
        FUZZ_CHECK(!utf8kit_is_boundary(cs, size, size + 1), "is_boundary past the end");
        for (i = size + 1; i-- > 0;) {
            FUZZ_CHECK(utf8kit_next_boundary(cs, size, i) == (i >= size ? size : nextb),
                       "next_boundary(%zu) = %zu, want %zu", i, utf8kit_next_boundary(cs, size, i),
                       nextb);
            if (bnd[i])
                nextb = i;
        }
        for (i = 0; i <= size; i++) {
            FUZZ_CHECK(utf8kit_prev_boundary(cs, size, i) == prevb,
                       "prev_boundary(%zu) = %zu, want %zu", i, utf8kit_prev_boundary(cs, size, i),
                       prevb);
            if (bnd[i])
                prevb = i;
        }
        FUZZ_CHECK(utf8kit_prev_boundary(cs, size, size + 5) == size, "prev_boundary past end");
        FUZZ_CHECK(utf8kit_next_boundary(cs, size, size + 5) == size, "next_boundary past end");
    }

    /* counting, every kernel */
    nk = fuzz_kernels(names);
    for (k = 0; k < nk; k++) {
        utf8kit_impl_select(names[k]);
        FUZZ_CHECK(utf8kit_count(cs, size) == steps, "[%s] count %zu, want %zu", names[k],
                   utf8kit_count(cs, size), steps);
        FUZZ_CHECK(utf8kit_utf16_length(cs, size) == u16, "[%s] utf16_length %zu, want %zu",
                   names[k], utf8kit_utf16_length(cs, size), u16);
        if (size > 3) {
            FUZZ_CHECK(utf8kit_count(cs + 3, size - 3) == u8k_scalar_count(s + 3, size - 3),
                       "[%s] count at +3", names[k]);
            FUZZ_CHECK(utf8kit_utf16_length(cs + 3, size - 3) ==
                           u8k_scalar_utf16_length(s + 3, size - 3),
                       "[%s] utf16_length at +3", names[k]);
        }
    }
    utf8kit_impl_select("scalar");

    /* compare and find: split the input at a point its first byte names */
    if (size >= 1) {
        size_t cut = 1 + (size > 1 ? s[0] % size : 0), alen = cut - 1, blen = size - cut;
        const char *a = cs + 1, *b = cs + cut;
        size_t m = alen < blen ? alen : blen, j;
        int c = utf8kit_compare(a, alen, b, blen), want = memcmp(a, b, m);
        if (want == 0)
            want = alen < blen ? -1 : alen > blen;
        FUZZ_CHECK((c < 0) == (want < 0) && (c > 0) == (want > 0), "compare %d want %d", c, want);
        FUZZ_CHECK(utf8kit_compare(a, alen, a, alen) == 0, "compare with itself");
        {
            int c2 = utf8kit_compare(b, blen, a, alen);
            FUZZ_CHECK((c2 < 0) == (c > 0) && (c2 > 0) == (c < 0), "compare not antisymmetric");
        }
        /* find needle a (short) in haystack b */
        if (alen <= 8) {
            size_t got = utf8kit_find(b, blen, a, alen), want_at = UTF8KIT_NOT_FOUND;
            const unsigned char *hb = (const unsigned char *)b;
            if (alen == 0)
                want_at = 0;
            else
                for (j = 0; j + alen <= blen; j++)
                    if (memcmp(hb + j, a, alen) == 0 && utf8kit_is_boundary(b, blen, j) &&
                        utf8kit_is_boundary(b, blen, j + alen)) {
                        want_at = j;
                        break;
                    }
            FUZZ_CHECK(got == want_at, "find: %zu, want %zu", got, want_at);
        }
    }
    free(bnd);
    free(s);
    return 0;
}
