/*
 * cmd_convert.c - utf8kit convert: iconv's job, for the encodings utf8kit
 * knows, through a utf8kit_stream (bounded memory, offsets absolute).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static void print_help(void)
{
    fputs("Usage: utf8kit convert -f FROM -t TO [OPTION]... [FILE]\n"
          "Convert FILE (or standard input) from one encoding to another.\n\n"
          "  -f, --from-code FROM  source encoding (a label: UTF-8, UTF-16LE, latin1...)\n"
          "  -t, --to-code TO      target encoding\n"
          "  -l, --list            list the encodings and the labels they accept\n"
          "  -o, --output OUT      write to OUT (atomically)\n"
          "      --on-error=stop|replace|skip\n"
          "                        stop (default): stop at the first invalid or\n"
          "                        unconvertible character, naming its byte offset\n"
          "                        and kind (exit 1); replace: U+FFFD for invalid\n"
          "                        input, '?' where the target cannot hold a\n"
          "                        character; skip: drop them\n"
          "  -c                    same as --on-error=skip (as in iconv)\n"
          "      --bom=keep|strip|add  byte order mark of the output (default keep)\n"
          "  -q, --quiet           no summary of replacements on stderr\n"
          "      --progress, --no-progress\n\n"
          "A label that does not say the byte order (UTF-16, UTF-32, UCS-2 and their\n"
          "aliases): as FROM, a byte order mark at the start decides the order and is\n"
          "not converted (without one: little-endian); as TO, the output is\n"
          "little-endian, and UTF-16 and UTF-32 start with a byte order mark unless\n"
          "--bom says otherwise (as iconv does).\n\n"
          "Exit status: 0 converted, 1 input that cannot be converted (stop),\n"
          "2 usage or I/O error.\n",
          stdout);
}

/* For an input under a label that does not say its byte order (from is
 * then UTF-16LE, UTF-32LE or UCS-2LE): the byte order its first bytes
 * s[0..n) mark, as *from, and the length of that mark (RFC 2781 section
 * 4.3: a signature there, not text), or 0 with *from as it is. */
static size_t unmarked_bom(utf8kit_encoding *from, const unsigned char *s, size_t n)
{
    size_t len;
    utf8kit_encoding e = utf8kit_bom_detect(s, n, &len);
    bool wide = *from == UTF8KIT_UTF32LE;
    if (e == UTF8KIT_UTF32LE && !wide) {
        /* FF FE 00 00 under UTF-16: its mark, then U+0000 */
        e = UTF8KIT_UTF16LE;
        len = 2;
    }
    if (wide ? e != UTF8KIT_UTF32LE && e != UTF8KIT_UTF32BE
             : e != UTF8KIT_UTF16LE && e != UTF8KIT_UTF16BE)
        return 0;
    if (e == UTF8KIT_UTF16BE || e == UTF8KIT_UTF32BE)
        *from = *from == UTF8KIT_UCS2LE ? UTF8KIT_UCS2BE : e;
    return len;
}

static int list_encodings(void)
{
    for (int e = 1; e < UTF8KIT_ENCODING_COUNT; e++) {
        const char *name = utf8kit_encoding_name((utf8kit_encoding)e), *al;
        if (!name)
            continue;
        printf("%s", name);
        for (size_t i = 1; (al = utf8kit_encoding_alias((utf8kit_encoding)e, i)) != NULL; i++)
            printf("%s%s", i == 1 ? ": " : ", ", al);
        putchar('\n');
    }
    return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

enum { O_FROM = 1, O_TO, O_LIST, O_OUT, O_ONERR, O_SKIP, O_BOM, O_QUIET, O_PROG, O_NOPROG, O_HELP };

static const cli_opt opts[] = {
    {"from-code", 'f', 1, O_FROM}, {"to-code", 't', 1, O_TO},   {"list", 'l', 0, O_LIST},
    {"output", 'o', 1, O_OUT},     {"on-error", 0, 1, O_ONERR}, {NULL, 'c', 0, O_SKIP},
    {"bom", 0, 1, O_BOM},          {"quiet", 'q', 0, O_QUIET},  {"progress", 0, 0, O_PROG},
    {"no-progress", 0, 0, O_NOPROG}, {"help", 'h', 0, O_HELP},  {NULL, 0, 0, 0},
};

int cmd_convert(int argc, char **argv)
{
    cli_args a = {argc, 1, argv, "convert", false, NULL, NULL, 0};
    const char *from_s = NULL, *to_s = NULL, *file = NULL, *outpath = NULL;
    utf8kit_options opt;
    int id, progress = -1;
    bool quiet = false, bom_given = false;
    memset(&opt, 0, sizeof opt);
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: return CLI_EXIT_ERROR;
        case 0:
            if (file)
                return cli_usage_error("convert", "only one FILE (use -o for the output)");
            file = a.arg;
            break;
        case O_FROM: from_s = a.arg; break;
        case O_TO: to_s = a.arg; break;
        case O_LIST: return list_encodings();
        case O_OUT: outpath = a.arg; break;
        case O_ONERR:
            if (strcmp(a.arg, "stop") == 0)
                opt.policy = UTF8KIT_STRICT;
            else if (strcmp(a.arg, "replace") == 0)
                opt.policy = UTF8KIT_REPLACE;
            else if (strcmp(a.arg, "skip") == 0)
                opt.policy = UTF8KIT_SKIP;
            else
                return cli_usage_error("convert", "--on-error takes stop, replace or skip");
            break;
        case O_SKIP: opt.policy = UTF8KIT_SKIP; break;
        case O_BOM:
            if (!cli_bom_option("convert", a.arg, &opt.bom))
                return CLI_EXIT_ERROR;
            bom_given = true;
            break;
        case O_QUIET: quiet = true; break;
        case O_PROG: progress = 1; break;
        case O_NOPROG: progress = 0; break;
        case O_HELP: print_help(); return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        }
    }
    if (!from_s || !to_s)
        return cli_usage_error("convert", "say -f FROM and -t TO (utf8kit convert -l lists them)");
    {
        utf8kit_encoding from = utf8kit_encoding_from_label(from_s, strlen(from_s));
        utf8kit_encoding to = utf8kit_encoding_from_label(to_s, strlen(to_s));
        utf8kit_stream st;
        cli_input in;
        cli_output out;
        unsigned char *obuf;
        /* The output buffer stays in L2: the converter's stores hit the
         * cache and write(2) copies from there (a buffer of several MiB
         * sent every store to memory first). Any output size works: the
         * stream returns OUTPUT_TOO_SMALL and continues. */
        size_t ocap = CLI_CONVERT_OUT, skip = 0, sig = 0, bom_len = 0;
        unsigned char bom[4];
        bool failed = false, bad = false;
        uint64_t replaced = 0;
        int r;
        if (from == UTF8KIT_ENCODING_UNKNOWN)
            return cli_usage_error("convert", "unknown encoding '%s'", from_s);
        if (to == UTF8KIT_ENCODING_UNKNOWN)
            return cli_usage_error("convert", "unknown encoding '%s'", to_s);
        if (cli_input_open(&in, file, progress) != 0)
            return CLI_EXIT_ERROR;
        /* under an unmarked label, the first four bytes (or all there
         * are) before the stream starts, for a byte order mark, and one
         * byte past a mark (or the end) */
        r = cli_input_fill(&in, 0);
        if (utf8kit_label_unmarked(from_s, strlen(from_s))) {
            while (r > 0 && in.len < 4)
                r = cli_input_fill(&in, 0);
            if (r >= 0)
                skip = sig = unmarked_bom(&from, in.buf, in.len);
            while (r > 0 && skip > 0 && in.len <= skip)
                r = cli_input_fill(&in, 0);
        }
        /* UTF-16 or UTF-32 under an unmarked label: the output starts with
         * its BOM, as iconv and Python write it, written with the first
         * output (BOM_STRIP dropping an initial U+FEFF of the input, as
         * BOM_ADD would): no output, no BOM, as in iconv (an empty input,
         * a source BOM alone, or every byte skipped). UCS-2 gets none, as
         * in iconv. */
        if (!bom_given && utf8kit_label_unmarked(to_s, strlen(to_s)) &&
            (to == UTF8KIT_UTF16LE || to == UTF8KIT_UTF32LE)) {
            opt.bom = UTF8KIT_BOM_STRIP;
            bom_len = utf8kit_bom_bytes(to, bom);
        }
        if (utf8kit_stream_init(&st, from, to, &opt) != UTF8KIT_OK) {
            cli_error("convert", "cannot convert from %s to %s", utf8kit_encoding_name(from),
                      utf8kit_encoding_name(to));
            cli_input_close(&in);
            return CLI_EXIT_ERROR;
        }
        obuf = malloc(ocap);
        if (!obuf) {
            cli_error("convert", "out of memory");
            cli_input_close(&in);
            return CLI_EXIT_ERROR;
        }
        if (cli_output_open(&out, outpath, &in, false) != 0) {
            cli_input_close(&in);
            free(obuf);
            return CLI_EXIT_ERROR;
        }
        for (;; r = cli_input_fill(&in, in.len)) {
            const unsigned char *src = in.buf + skip;
            size_t len = in.len - skip;
            skip = 0;
            if (r < 0) {
                failed = true;
                break;
            }
            for (;;) {
                utf8kit_result res = utf8kit_stream_convert(&st, src, len, obuf, ocap, in.eof);
                if (res.written) {
                    if ((bom_len && !cli_output_write(&out, bom, bom_len)) ||
                        !cli_output_write(&out, obuf, res.written)) {
                        failed = true;
                        break;
                    }
                    bom_len = 0;
                }
                replaced += res.replaced;
                src += res.read;
                len -= res.read;
                if (res.status == UTF8KIT_OK)
                    break;
                if (res.status == UTF8KIT_ERR_OUTPUT_TOO_SMALL)
                    continue;
                bad = true;
                break;
            }
            if (failed || bad || in.eof)
                break;
        }
        if (bad) {
            char hex[3 * 8 + 1];
            size_t n = st.error_len < 8 ? st.error_len : 8;
            cli_hex(st.error_bytes, n, hex, sizeof hex);
            cli_error(in.name, "byte %llu: %s: %s (cannot convert from %s to %s)",
                      (unsigned long long)(st.error_offset + sig),
                      utf8kit_strerror(st.error_kind), hex, utf8kit_encoding_name(from),
                      utf8kit_encoding_name(to));
        }
        if (failed || (bad && out.tmp)) {
            /* nothing is left behind in a file; stdout has what was converted */
            cli_output_abort(&out);
        } else if (cli_output_commit(&out) != 0) {
            failed = true;
        }
        if (!failed && !bad && !quiet && st.errors)
            fprintf(stderr, "%s: %s: %llu invalid or unconvertible sequence%s %s\n", cli_prog,
                    in.name, (unsigned long long)st.errors, st.errors == 1 ? "" : "s",
                    opt.policy == UTF8KIT_SKIP ? "skipped" : "replaced");
        (void)replaced;
        cli_input_close(&in);
        free(obuf);
        return failed ? CLI_EXIT_ERROR : bad ? CLI_EXIT_INVALID : CLI_EXIT_OK;
    }
}
