/*
 * bench/ab.c - two builds of libutf8kit.so timed in one process.
 *
 *   utf8kit_ab [-o OP] [-t ROUNDS] [-s] [-a IN_OFF,OUT_OFF] OLD.so NEW.so FILE...
 *
 * On a shared machine the speed of one process differs from the next by
 * far more than most changes to a kernel (20-50% seen on one VM, for the
 * same binary run twice: where its buffers land, how busy the host is).
 * Timing an old and a new build in separate processes then measures the
 * processes. Here both libraries are loaded side by side (dlopen, each
 * with its own symbols), share one input and one output buffer, and are
 * timed in alternation, ROUNDS times for each file; each keeps its best
 * time. Run twice with the same library, the ratios stay within 1-2%.
 * (The same path given twice is one library: dlopen shares it. Two copies
 * of one build also gave ratios of 1.00 in session 26.) But the branchy
 * scalar kernels ran up to a third slower here than in a process of their
 * own, and A/B ratios of the scalar validator differed from those of
 * separate processes by up to 10%: time the scalar kernels in separate
 * processes.
 *
 * OP: validate, is_valid, count, utf16_length, count_av, utf16_length_av,
 * validate_counts,
 * utf8>utf16le, utf8>utf32, utf16le>utf8, utf32>utf8, latin1>utf8,
 * utf8>latin1, and the first four conversions and utf8>latin1
 * with "/r" appended for the REPLACE policy (the input file is read as
 * the source encoding), utf8>latin1/s under SKIP. -s times strings of 8..64 bytes cut from the file
 * at character starts (as bench.c does), one call each; for UTF-16LE
 * and UTF-32 input, strings of 8..64 units, never between the halves of
 * a pair (a unit more then). -a puts the input
 * and the output that many bytes past a 4096-byte boundary (default
 * 0,0); bench.c's buffers come from malloc, 16 past one for big ones.
 * UTF8KIT_FORCE_IMPL applies to both libraries.
 *
 * Prints, per file, GB/s of input for OLD and NEW and NEW / OLD. A
 * developer's tool, not a test, and not part of the benchmark table.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "short_cut.h"
#include "utf8kit.h"

typedef utf8kit_result (*fn_check)(const char *, size_t);
typedef bool (*fn_bool)(const char *, size_t);
typedef size_t (*fn_count)(const char *, size_t);
typedef utf8kit_result (*fn_conv)(const void *, size_t, void *, size_t, utf8kit_policy);
typedef utf8kit_result (*fn_conv_np)(const char *, size_t, char *, size_t);
typedef utf8kit_result (*fn_tally)(const char *, size_t, utf8kit_counts *);

enum op { OP_VALIDATE, OP_IS_VALID, OP_COUNT, OP_TALLY, OP_U16, OP_U32, OP_F16, OP_F32, OP_L1, OP_TL };

static const struct {
    const char *name, *symbol;
    enum op op;
    size_t unit; /* bytes per input unit */
    utf8kit_policy policy; /* of the conversions that take one */
} ops[] = {
    {"validate", "utf8kit_validate", OP_VALIDATE, 1, UTF8KIT_STRICT},
    {"is_valid", "utf8kit_is_valid", OP_IS_VALID, 1, UTF8KIT_STRICT},
    {"count", "utf8kit_count", OP_COUNT, 1, UTF8KIT_STRICT},
    {"utf16_length", "utf8kit_utf16_length", OP_COUNT, 1, UTF8KIT_STRICT},
    {"count_av", "utf8kit_count_assume_valid", OP_COUNT, 1, UTF8KIT_STRICT},
    {"utf16_length_av", "utf8kit_utf16_length_assume_valid", OP_COUNT, 1, UTF8KIT_STRICT},
    {"validate_counts", "utf8kit_validate_counts", OP_TALLY, 1, UTF8KIT_STRICT},
    {"utf8>utf16le", "utf8kit_utf8_to_utf16le", OP_U16, 1, UTF8KIT_STRICT},
    {"utf8>utf32", "utf8kit_utf8_to_utf32", OP_U32, 1, UTF8KIT_STRICT},
    {"utf16le>utf8", "utf8kit_utf16le_to_utf8", OP_F16, 2, UTF8KIT_STRICT},
    {"utf32>utf8", "utf8kit_utf32_to_utf8", OP_F32, 4, UTF8KIT_STRICT},
    {"latin1>utf8", "utf8kit_latin1_to_utf8", OP_TL, 1, UTF8KIT_STRICT},
    {"utf8>latin1", "utf8kit_utf8_to_latin1", OP_L1, 1, UTF8KIT_STRICT},
    /* "/r": under the REPLACE policy */
    {"utf8>utf16le/r", "utf8kit_utf8_to_utf16le", OP_U16, 1, UTF8KIT_REPLACE},
    {"utf8>utf32/r", "utf8kit_utf8_to_utf32", OP_U32, 1, UTF8KIT_REPLACE},
    {"utf16le>utf8/r", "utf8kit_utf16le_to_utf8", OP_F16, 2, UTF8KIT_REPLACE},
    {"utf32>utf8/r", "utf8kit_utf32_to_utf8", OP_F32, 4, UTF8KIT_REPLACE},
    {"utf8>latin1/r", "utf8kit_utf8_to_latin1", OP_L1, 1, UTF8KIT_REPLACE},
    {"utf8>latin1/s", "utf8kit_utf8_to_latin1", OP_L1, 1, UTF8KIT_SKIP},
    {"repair", "utf8kit_repair", OP_TL, 1, UTF8KIT_REPLACE},
};

typedef void (*fn_any)(void);

struct lib {
    fn_any fn;
};

static int op_index;
static enum op the_op;
static unsigned unit_shift; /* log2 of the bytes per input unit */
static volatile size_t sink;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline void call(const struct lib *l, const unsigned char *s, size_t n, void *out,
                        size_t cap)
{
    size_t units = n >> unit_shift;
    switch (the_op) {
    case OP_VALIDATE:
        sink += ((fn_check)l->fn)((const char *)s, n).read;
        break;
    case OP_IS_VALID:
        sink += ((fn_bool)l->fn)((const char *)s, n);
        break;
    case OP_COUNT:
        sink += ((fn_count)l->fn)((const char *)s, n);
        break;
    case OP_TALLY: {
        utf8kit_counts c;
        sink += ((fn_tally)l->fn)((const char *)s, n, &c).read + (size_t)c.seq[4];
        break;
    }
    case OP_TL:
        sink += ((fn_conv_np)l->fn)((const char *)s, n, out, cap).written;
        break;
    default:
        sink += ((fn_conv)l->fn)(s, units, out, cap, ops[op_index].policy).written;
        break;
    }
}

struct input {
    const unsigned char *data;
    size_t len;
    size_t nshort, *off, *slen; /* -s: strings cut from data */
};

/* Seconds per pass over the input (all its strings under -s), the pass
 * repeated for about a millisecond. */
static double pass(const struct lib *l, const struct input *in, void *out, size_t cap)
{
    double t0 = now(), t;
    size_t reps = 0, k;
    do {
        if (in->nshort)
            for (k = 0; k < in->nshort; k++)
                call(l, in->data + in->off[k], in->slen[k], out, cap);
        else
            call(l, in->data, in->len, out, cap);
        reps++;
        t = now() - t0;
    } while (t < 1e-3);
    return t / (double)reps;
}

/* UTF-16LE (unit 2) or UTF-32 (unit 4) input: n strings of 8 to 64
 * units, at places drawn as in bench_cut_short, never between the halves
 * of a UTF-16 pair (offsets and lengths in bytes). */
static void cut_short_units(const unsigned char *data, size_t len, size_t unit, size_t n,
                            size_t *off, size_t *slen)
{
    unsigned long long r = 88172645463325252ull;
    size_t units = len / unit, k;
#define U16_AT(i) ((unsigned)data[2 * (i)] | (unsigned)data[2 * (i) + 1] << 8)
#define LOW_HALF(i) (unit == 2 && (U16_AT(i) & 0xFC00u) == 0xDC00u)
    for (k = 0; k < n; k++) {
        size_t o, l;
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        o = (size_t)(r % (units - 80));
        if (LOW_HALF(o))
            o++;
        l = 8 + (size_t)((r >> 32) % 57);
        if (o + l < units && LOW_HALF(o + l))
            l++;
        off[k] = unit * o;
        slen[k] = unit * l;
    }
#undef LOW_HALF
#undef U16_AT
}

static void cut_short(struct input *in, size_t n, size_t unit)
{
    in->off = malloc(n * sizeof *in->off);
    in->slen = malloc(n * sizeof *in->slen);
    if (!in->off || !in->slen) {
        fprintf(stderr, "utf8kit_ab: out of memory\n");
        exit(1);
    }
    if (unit > 1)
        cut_short_units(in->data, in->len, unit, n, in->off, in->slen);
    else
        bench_cut_short(in->data, in->len, n, in->off, in->slen);
    in->nshort = n;
}

static void usage(void)
{
    fprintf(stderr, "usage: utf8kit_ab [-o OP] [-t ROUNDS] [-s] [-a IN,OUT] OLD.so NEW.so FILE...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *opname = "validate";
    int rounds = 40, shorts = 0, a, k;
    size_t in_off = 0, out_off = 0;
    struct lib lib[2];
    for (a = 1; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "-o") && a + 1 < argc)
            opname = argv[++a];
        else if (!strcmp(argv[a], "-t") && a + 1 < argc)
            rounds = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-s"))
            shorts = 1;
        else if (!strcmp(argv[a], "-a") && a + 1 < argc &&
                 sscanf(argv[a + 1], "%zu,%zu", &in_off, &out_off) == 2)
            a++;
        else
            usage();
    }
    if (argc - a < 3 || rounds < 1 || in_off >= 4096 || out_off >= 4096)
        usage();
    for (op_index = 0; op_index < (int)(sizeof ops / sizeof ops[0]); op_index++)
        if (!strcmp(ops[op_index].name, opname))
            break;
    if (op_index == (int)(sizeof ops / sizeof ops[0])) {
        fprintf(stderr, "utf8kit_ab: unknown operation %s\n", opname);
        return 2;
    }
    the_op = ops[op_index].op;
    unit_shift = ops[op_index].unit == 4 ? 2 : ops[op_index].unit == 2 ? 1 : 0;
    for (k = 0; k < 2; k++) {
        void *h = dlopen(argv[a + k], RTLD_NOW | RTLD_LOCAL), *sym;
        if (!h) {
            fprintf(stderr, "utf8kit_ab: %s\n", dlerror());
            return 1;
        }
        sym = dlsym(h, ops[op_index].symbol);
        /* ISO C has no conversion from an object pointer to a function
         * pointer; POSIX guarantees the representation is the same */
        memcpy(&lib[k].fn, &sym, sizeof lib[k].fn);
        if (!sym) {
            fprintf(stderr, "utf8kit_ab: %s: no %s\n", argv[a + k], ops[op_index].symbol);
            return 1;
        }
    }
    for (a += 2; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        unsigned char *src, *out;
        struct input in = {0};
        double best[2] = {1e30, 1e30};
        size_t len, cap, total, n;
        long sz;
        int r;
        const char *base = strrchr(argv[a], '/');
        if (!f || fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
            fprintf(stderr, "utf8kit_ab: cannot read %s\n", argv[a]);
            if (f)
                fclose(f);
            continue;
        }
        len = (size_t)sz;
        cap = 4 * len + 64; /* units: enough for every operation here */
        src = aligned_alloc(4096, (len + in_off + 4095) / 4096 * 4096);
        out = aligned_alloc(4096, (4 * cap + out_off + 4095) / 4096 * 4096);
        if (!src || !out || fread(src + in_off, 1, len, f) != len) {
            fprintf(stderr, "utf8kit_ab: cannot read %s\n", argv[a]);
            fclose(f);
            return 1;
        }
        fclose(f);
        in.data = src + in_off;
        in.len = len;
        if (shorts) {
            if (len < 200 * ops[op_index].unit) {
                fprintf(stderr, "utf8kit_ab: -s needs an input of 200 units or more\n");
                return 2;
            }
            cut_short(&in, 20000, ops[op_index].unit);
        }
        for (r = 0; r < rounds; r++)
            for (k = 0; k < 2; k++) {
                double t = pass(&lib[k], &in, out + out_off, cap);
                if (t < best[k])
                    best[k] = t;
            }
        total = len;
        if (in.nshort)
            for (total = 0, n = 0; n < in.nshort; n++)
                total += in.slen[n];
        printf("%-36s %-12s %8.2f %8.2f GB/s  new/old %.3f\n", base ? base + 1 : argv[a], opname,
               (double)total / best[0] * 1e-9, (double)total / best[1] * 1e-9, best[0] / best[1]);
        free(in.off);
        free(in.slen);
        free(src);
        free(out);
    }
    return 0;
}
