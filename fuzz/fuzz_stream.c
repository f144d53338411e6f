// needs: utf8kit_stream_init utf8kit_stream_convert utf8kit_convert utf8kit_max_output_size
/*
 * fuzz_stream.c - a stream fed in random chunks with random output room
 * gives exactly what one utf8kit_convert call gives on the whole input:
 * the same bytes, the same error kind and absolute offset, the same count
 * of substitutions; it never writes past the room given.
 *
 * Input: 4 header bytes, then the text.
 *   h0 % 14 = from, h1 % 14 = to,
 *   h2: bits 0-1 policy, bits 2-3 BOM option, bit 4 stop_after_error,
 *       bit 5 measure only (dst == NULL on every call)
 *   h3: seed of the chunk sizes and output room.
 */
#include "fuzz_common.h"

static uint32_t rng;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* a chunk length: mostly tiny (sequences cut everywhere), sometimes big */
static size_t chunk_len(void)
{
    uint32_t k = rnd(8);
    return k < 5 ? 1 + rnd(4) : k < 7 ? 1 + rnd(40) : 1 + rnd(3000);
}

/* output room: 0 now and then, mostly small, sometimes plenty */
static size_t room(void)
{
    uint32_t k = rnd(10);
    return k == 0 ? 0 : k < 7 ? 1 + rnd(8) : 64 + rnd(4096);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    utf8kit_encoding from, to;
    utf8kit_options o;
    utf8kit_stream st;
    utf8kit_result ref, r;
    unsigned char *s, *refout, *got;
    size_t len, maxsz, pos = 0, w = 0, stops = 0, calls = 0;
    int measure, strict_valid = 1, failed = 0;

    if (size < 4)
        return 0;
    from = (utf8kit_encoding)(data[0] % 14);
    to = (utf8kit_encoding)(data[1] % 14);
    memset(&o, 0, sizeof o);
    o.policy = (utf8kit_policy)(data[2] & 3);
    o.bom = (utf8kit_bom_policy)((data[2] >> 2) % 3);
    o.stop_after_error = (data[2] >> 4) & 1;
    measure = (data[2] >> 5) & 1;
    rng = data[3] * 2654435761u + 1;
    len = size - 4;
    s = fuzz_dup(data + 4, len);

    if (utf8kit_stream_init(&st, from, to, &o) != UTF8KIT_OK) {
        FUZZ_CHECK(from == UTF8KIT_ENCODING_UNKNOWN || to == UTF8KIT_ENCODING_UNKNOWN,
                   "stream_init refused %d->%d", from, to);
        free(s);
        return 0;
    }
    maxsz = utf8kit_max_output_size(from, to, len);
    refout = fuzz_outbuf(maxsz);
    if (o.policy == UTF8KIT_ASSUME_VALID) {
        /* on invalid input ASSUME_VALID's output (even its length) is
         * unspecified: only the bounds are checked then */
        utf8kit_options a = o;
        a.policy = UTF8KIT_STRICT;
        strict_valid = utf8kit_convert(from, to, s, len, NULL, 0, &a).status == UTF8KIT_OK;
    }
    ref = utf8kit_convert(from, to, s, len, refout, maxsz, &o);
    FUZZ_CHECK(fuzz_canary_ok(refout, maxsz), "one-shot wrote past the end");
    FUZZ_CHECK(!strict_valid || ref.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL, "one-shot too small");
    got = malloc(maxsz + 4096 + FUZZ_CANARY);
    if (!got)
        abort();

    /* feed the chunks */
    while (!failed) {
        size_t n = chunk_len(), done = 0;
        int final;
        if (n > len - pos)
            n = len - pos;
        final = pos + n == len && rnd(4) != 0; /* sometimes a separate empty final call */
        for (;;) {
            size_t cap = room();
            unsigned char *dst = got + w;
            FUZZ_CHECK(++calls < 4 * len + 10000, "no progress: pos %zu, w %zu", pos, w);
            if (w + cap > maxsz + 4096)
                cap = maxsz + 4096 - w;
            memset(dst, FUZZ_CANARY_BYTE, cap + FUZZ_CANARY);
            r = utf8kit_stream_convert(&st, s + pos + done, n - done, measure ? NULL : dst, cap,
                                       final);
            if (!measure)
                for (size_t i = 0; i < FUZZ_CANARY; i++)
                    FUZZ_CHECK(dst[cap + i] == FUZZ_CANARY_BYTE, "stream wrote past room %zu", cap);
            FUZZ_CHECK(r.read <= n - done && (measure || r.written <= cap), "stream " RES_FMT,
                       RES_ARGS(r));
            done += r.read;
            w += r.written;
            if (r.status == UTF8KIT_OK) {
                FUZZ_CHECK(done == n, "OK but %zu of %zu read", done, n);
                break;
            }
            if (r.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                continue;
            if (o.policy == UTF8KIT_STRICT || o.policy == UTF8KIT_ASSUME_VALID) {
                failed = 1;
                break;
            }
            /* REPLACE/SKIP stop after an error only when asked */
            FUZZ_CHECK(o.stop_after_error, "%d->%d p%d: stream stopped with %s", from, to,
                       o.policy, utf8kit_status_name(r.status));
            FUZZ_CHECK(st.error_kind == r.status, "error_kind %d vs status %d", st.error_kind,
                       r.status);
            stops++;
        }
        pos += done;
        if (failed || final)
            break;
    }

    if (!strict_valid) {
        /* ASSUME_VALID on invalid input: only the bounds held */
        free(got);
        free(refout);
        free(s);
        return 0;
    }
    if (failed) {
        FUZZ_CHECK(r.status == ref.status, "stream failed with %s, one-shot %s",
                   utf8kit_status_name(r.status), utf8kit_status_name(ref.status));
        FUZZ_CHECK(st.error_kind == ref.status && st.error_offset == ref.read &&
                       st.error_len == ref.error_len,
                   "%d->%d stream error %s at %llu len %zu, one-shot " RES_FMT, from, to,
                   utf8kit_status_name(st.error_kind), (unsigned long long)st.error_offset,
                   st.error_len, RES_ARGS(ref));
        /* a failed stream keeps failing */
        r = utf8kit_stream_convert(&st, "a", 1, NULL, 0, true);
        FUZZ_CHECK(r.status == ref.status, "failed stream then gave %s",
                   utf8kit_status_name(r.status));
    } else {
        FUZZ_CHECK(ref.status == UTF8KIT_OK, "stream OK, one-shot " RES_FMT, RES_ARGS(ref));
        FUZZ_CHECK(st.offset == len, "offset %llu, len %zu", (unsigned long long)st.offset, len);
        if (o.policy == UTF8KIT_REPLACE || o.policy == UTF8KIT_SKIP) {
            FUZZ_CHECK(st.errors == ref.replaced, "errors %llu, one-shot replaced %zu",
                       (unsigned long long)st.errors, ref.replaced);
            if (o.stop_after_error)
                FUZZ_CHECK(stops == ref.replaced, "%zu stops, %zu errors", stops, ref.replaced);
        }
    }
    FUZZ_CHECK(w == ref.written, "%d->%d p%d bom%d: stream wrote %zu, one-shot " RES_FMT, from,
               to, o.policy, o.bom, w, RES_ARGS(ref));
    if (!measure)
        FUZZ_CHECK(memcmp(got, refout, w) == 0, "%d->%d p%d bom%d: stream output differs", from,
                   to, o.policy, o.bom);
    free(got);
    free(refout);
    free(s);
    return 0;
}
