/* test_threads.c - many threads call the library at once, starting while
 * the kernel is first chosen (no library call happens before they are
 * released together by a barrier), then again while one more thread keeps
 * switching kernels with utf8kit_impl_select: validation, counting and
 * conversions (convert, repair, a typed call). Every result must equal the
 * expected one, computed from the way the inputs were built (not by the
 * library). Run under ThreadSanitizer by .ci/run. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include "testlib.h"

#include <pthread.h>
#include <stdatomic.h>

#define N_THREADS 8

/* One unit of text: its bytes, characters and UTF-16 units are known. */
static const char unit[] = "h\xC3\xA9llo \xE2\x82\xAC" "100 \xF0\x9D\x84\x9E \xE6\x97\xA5\xE6\x9C\xAC!";
#define UNIT_CHARS 16 /* h é l l o sp € 1 0 0 sp 𝄞 sp 日 本 ! */
#define UNIT_U16 17   /* 𝄞 takes a surrogate pair */
#define UNIT_ASCII 1  /* "h" before the é */
/* the unit in UTF-16 */
static const uint16_t unit16[UNIT_U16] = {'h', 0xE9, 'l', 'l', 'o', ' ', 0x20AC, '1', '0', '0',
                                          ' ', 0xD834, 0xDD1E, ' ', 0x65E5, 0x672C, '!'};

struct input {
    unsigned char *s;
    size_t len;
    /* expected */
    utf8kit_status st;
    size_t at, elen, count, u16;
};

enum { IN_VALID, IN_BADBYTE, IN_TRUNC, IN_SHORT, N_INPUTS };
static struct input in[N_INPUTS];
/* the REPLACE conversion of IN_BADBYTE to UTF-16LE bytes, and its repair */
static unsigned char *bad16, *badfix;
static size_t bad16_len, badfix_len;

static pthread_barrier_t start, phase2;
static atomic_int stop_toggling;
static atomic_ulong mismatches;
static const char *first_impl[N_THREADS];

static size_t reps(void) { return test_quick() ? 40 : 300; }

static void build_inputs(void)
{
    size_t u = sizeof unit - 1, n = reps(), i;
    unsigned char *v = malloc(u * n);
    if (!v)
        exit(2);
    for (i = 0; i < n; i++)
        memcpy(v + i * u, unit, u);
    in[IN_VALID] = (struct input){dup_exact(v, u * n), u * n, UTF8KIT_OK, u * n, 0,
                                  UNIT_CHARS * n, UNIT_U16 * n};
    /* a byte FF replacing the 'h' of the middle unit: invalid lead; it
     * still counts as one character */
    v[(n / 2) * u] = 0xFF;
    in[IN_BADBYTE] = (struct input){dup_exact(v, u * n), u * n, UTF8KIT_ERR_INVALID_LEAD,
                                    (n / 2) * u, 1, UNIT_CHARS * n, UNIT_U16 * n};
    /* expected conversions of that input: built from unit16 and the bytes */
    bad16_len = 2 * UNIT_U16 * n;
    bad16 = malloc(bad16_len);
    badfix_len = u * n + 2;
    badfix = malloc(badfix_len);
    if (!bad16 || !badfix)
        exit(2);
    for (i = 0; i < UNIT_U16 * n; i++) {
        uint16_t c = i == (n / 2) * UNIT_U16 ? 0xFFFD : unit16[i % UNIT_U16];
        bad16[2 * i] = (unsigned char)(c & 0xFF);
        bad16[2 * i + 1] = (unsigned char)(c >> 8);
    }
    memcpy(badfix, v, (n / 2) * u);
    memcpy(badfix + (n / 2) * u, "\xEF\xBF\xBD", 3);
    memcpy(badfix + (n / 2) * u + 3, v + (n / 2) * u + 1, u * n - (n / 2) * u - 1);
    v[(n / 2) * u] = 'h';
    /* the first 2 bytes of the last unit's 4-octet character end the input
     * (offset of F0 in the unit: "h" 1 + é 2 + "llo " 4 + € 3 + "100 " 4 = 14) */
    in[IN_TRUNC] = (struct input){dup_exact(v, u * (n - 1) + 16), u * (n - 1) + 16,
                                  UTF8KIT_ERR_TRUNCATED, u * (n - 1) + 14, 2,
                                  UNIT_CHARS * (n - 1) + 12, UNIT_U16 * (n - 1) + 12};
    /* one unit, shorter than any SIMD block */
    in[IN_SHORT] = (struct input){dup_exact(v, u), u, UTF8KIT_OK, u, 0, UNIT_CHARS, UNIT_U16};
    free(v);
}

/* Runs every call on every input once; returns the number of wrong answers. */
static unsigned long run_all(void)
{
    unsigned long bad = 0;
    size_t k;
    for (k = 0; k < N_INPUTS; k++) {
        const struct input *t = &in[k];
        const char *s = (const char *)t->s;
        utf8kit_result r = utf8kit_validate(s, t->len);
        if (r.status != t->st || r.read != t->at || r.error_len != t->elen)
            bad++;
        if (utf8kit_is_valid(s, t->len) != (t->st == UTF8KIT_OK))
            bad++;
        if (utf8kit_count(s, t->len) != t->count)
            bad++;
        if (utf8kit_utf16_length(s, t->len) != t->u16)
            bad++;
        if (utf8kit_ascii_prefix(s, t->len) != UNIT_ASCII)
            bad++;
    }
    {
        /* conversions: REPLACE to UTF-16LE (typed driver and kernels),
         * repair, and the typed call in STRICT mode */
        const struct input *t = &in[IN_BADBYTE];
        utf8kit_options o = {UTF8KIT_REPLACE, 0, UTF8KIT_BOM_KEEP, false};
        unsigned char *out = malloc(bad16_len + badfix_len);
        utf8kit_result r;
        if (!out)
            return bad + 1;
        r = utf8kit_convert(UTF8KIT_UTF8, UTF8KIT_UTF16LE, t->s, t->len, out, bad16_len, &o);
        if (r.status != UTF8KIT_OK || r.written != bad16_len || r.replaced != 1 ||
            memcmp(out, bad16, bad16_len) != 0)
            bad++;
        r = utf8kit_repair((const char *)t->s, t->len, (char *)out, badfix_len);
        if (r.status != UTF8KIT_OK || r.written != badfix_len || memcmp(out, badfix, badfix_len) != 0)
            bad++;
        r = utf8kit_utf8_to_utf16le((const char *)t->s, t->len, (uint16_t *)(void *)out,
                                    bad16_len / 2, UTF8KIT_STRICT);
        if (r.status != UTF8KIT_ERR_INVALID_LEAD || r.read != t->at ||
            r.written != (t->at / (sizeof unit - 1)) * UNIT_U16)
            bad++;
        free(out);
    }
    return bad;
}

static void *worker(void *arg)
{
    size_t id = (size_t)arg;
    unsigned long bad;
    int i;
    pthread_barrier_wait(&start);
    /* phase 1: the very first library calls of the process, all at once */
    bad = run_all();
    first_impl[id] = utf8kit_impl_name();
    for (i = 0; i < 20; i++)
        bad += run_all();
    pthread_barrier_wait(&phase2);
    /* phase 2: while another thread switches kernels */
    while (!atomic_load(&stop_toggling))
        bad += run_all();
    for (i = 0; i < 5; i++)
        bad += run_all();
    atomic_fetch_add(&mismatches, bad);
    return NULL;
}

static void *toggler(void *arg)
{
    size_t i, rounds = test_quick() ? 200 : 2000;
    (void)arg;
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&phase2);
    for (i = 0; i < rounds; i++) {
        size_t n = 0;
        while (utf8kit_impl_available(n) != NULL)
            n++;
        if (utf8kit_impl_select(utf8kit_impl_available(i % n)) != UTF8KIT_OK)
            atomic_fetch_add(&mismatches, 1);
    }
    atomic_store(&stop_toggling, 1);
    return NULL;
}

int main(void)
{
    pthread_t th[N_THREADS + 1];
    const char *want = getenv("UTF8KIT_FORCE_IMPL");
    size_t i;

    build_inputs();
    if (pthread_barrier_init(&start, NULL, N_THREADS + 1) ||
        pthread_barrier_init(&phase2, NULL, N_THREADS + 1)) {
        perror("pthread_barrier_init");
        return 2;
    }
    for (i = 0; i < N_THREADS; i++)
        if (pthread_create(&th[i], NULL, worker, (void *)i)) {
            perror("pthread_create");
            return 2;
        }
    if (pthread_create(&th[N_THREADS], NULL, toggler, NULL)) {
        perror("pthread_create");
        return 2;
    }
    for (i = 0; i <= N_THREADS; i++)
        pthread_join(th[i], NULL);

    /* Only now the usual start: put back the forced kernel (the toggler
     * moved it), skip when this CPU lacks it. */
    if (want && *want)
        (void)utf8kit_impl_select(want);
    test_begin();
    CHECK(atomic_load(&mismatches) == 0, "%lu wrong answers from threads",
          (unsigned long)atomic_load(&mismatches));
    /* every thread saw the same first choice, the forced one if any */
    for (i = 0; i < N_THREADS; i++) {
        CHECK(first_impl[i] != NULL && strcmp(first_impl[i], first_impl[0]) == 0,
              "thread %zu chose %s, thread 0 %s", i, first_impl[i], first_impl[0]);
        if (want && *want && strcmp(want, utf8kit_impl_name()) == 0)
            CHECK(strcmp(first_impl[i], want) == 0, "thread %zu first ran %s, forced %s", i,
                  first_impl[i], want);
    }
    /* and the single-threaded answers are the expected ones too */
    CHECK(run_all() == 0, "single-threaded answers wrong");
    for (i = 0; i < N_INPUTS; i++)
        free(in[i].s);
    free(bad16);
    free(badfix);
    pthread_barrier_destroy(&start);
    pthread_barrier_destroy(&phase2);
    return test_done("threads");
}
