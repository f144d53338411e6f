/*
 * cmd_detect.c - utf8kit detect: what encoding is each file in?
 *
 * The first chunk goes to utf8kit_detect (byte order marks, UTF-16/32 by
 * shape); text that is still UTF-8 there is then checked to its end, so
 * that "UTF-8" is a statement about the whole file, in bounded memory.
 *   FILE: ASCII | UTF-8 | UTF-8 with BOM | UTF-16LE (BOM) | UTF-32BE | ...
 *   FILE: not UTF-8 (byte N: KIND); looks like windows-1252
 */
#include "cli.h"

#include <string.h>

typedef struct finder {
    bool non_ascii;
    bool bad;
    uint64_t off;
    utf8kit_status kind;
} finder;

static void print_help(void)
{
    fputs("Usage: utf8kit detect [FILE]...\n"
          "Say what encoding each file is in: ASCII, UTF-8, UTF-8 with BOM,\n"
          "UTF-16LE/BE or UTF-32LE/BE (by byte order mark, or by shape), or\n"
          "\"not UTF-8 (byte N: KIND)\" with a guess at the legacy code page.\n"
          "UTF-8 and ASCII are checked to the end of the file.\n\n"
          "Exit status: 0 every file is ASCII or UTF-8, 1 some file is not,\n"
          "2 usage or I/O error.\n",
          stdout);
}

static void on_valid(void *ctx, const unsigned char *p, size_t n)
{
    finder *f = ctx;
    if (!f->non_ascii && utf8kit_ascii_prefix((const char *)p, n) != n)
        f->non_ascii = true;
}

static bool on_error(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                     utf8kit_status kind)
{
    finder *f = ctx;
    (void)p, (void)n, (void)avail;
    f->bad = true;
    f->off = off;
    f->kind = kind;
    return true;
}

static const char *guess_words(utf8kit_encoding g)
{
    if (g == UTF8KIT_ENCODING_UNKNOWN)
        return NULL;
    return utf8kit_encoding_name(g);
}

/* detect_one prints the verdict; returns 0 (UTF-8/ASCII), 1, or 2. */
static int detect_one(const char *path)
{
    cli_input in;
    finder f;
    cli_visitor v = {&f, on_valid, on_error};
    size_t keep = 0;
    bool first = true, stopped, bom = false;
    utf8kit_encoding guess = UTF8KIT_ENCODING_UNKNOWN;
    int rc = CLI_EXIT_OK;
    memset(&f, 0, sizeof f);
    if (cli_input_open(&in, path, 0) != 0)
        return CLI_EXIT_ERROR;
    for (;;) {
        int r = cli_input_fill(&in, keep);
        if (r < 0) {
            cli_input_close(&in);
            return CLI_EXIT_ERROR;
        }
        if (first && !in.eof && in.len < in.cap - CLI_LOOKAHEAD)
            continue; /* detection looks at a full first chunk */
        if (first) {
            utf8kit_detection d;
            first = false;
            d = utf8kit_detect(in.buf, in.len);
            if (d.encoding != UTF8KIT_ENCODING_UNKNOWN && d.encoding != UTF8KIT_UTF8 &&
                d.encoding != UTF8KIT_ASCII) {
                printf("%s: %s%s\n", in.name, utf8kit_encoding_name(d.encoding),
                       d.bom_len ? " (BOM)" : "");
                cli_input_close(&in);
                return CLI_EXIT_INVALID;
            }
            bom = d.encoding == UTF8KIT_UTF8 && d.bom_len == 3;
            guess = d.guess;
        }
        keep = cli_walk(CLI_FORM_UTF8, in.buf, in.len, in.len, in.base, in.eof, &v, &stopped);
        if (f.bad) {
            if (guess == UTF8KIT_ENCODING_UNKNOWN)
                guess = utf8kit_detect(in.buf, in.len).guess;
            break;
        }
        if (in.eof)
            break;
    }
    if (f.bad) {
        const char *g = guess_words(guess);
        printf("%s: not UTF-8 (byte %llu: %s)%s%s\n", in.name, (unsigned long long)f.off,
               utf8kit_strerror(f.kind), g ? "; looks like " : "", g ? g : "");
        rc = CLI_EXIT_INVALID;
    } else if (bom) {
        printf("%s: UTF-8 with BOM\n", in.name);
    } else {
        printf("%s: %s\n", in.name, f.non_ascii ? "UTF-8" : "ASCII");
    }
    cli_input_close(&in);
    return rc;
}

int cmd_detect(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 'h', 0, 1}, {NULL, 0, 0, 0}};
    cli_args a = {argc, 1, argv, "detect", false, NULL, NULL, 0};
    int id, rc = CLI_EXIT_OK, any = 0;
    /* options first, so that --help anywhere wins */
    while ((id = cli_next(&a, opts)) != -1) {
        if (id == -2)
            return CLI_EXIT_ERROR;
        if (id == 1) {
            print_help();
            return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        }
    }
    a.i = 1;
    a.done_opts = false;
    while ((id = cli_next(&a, opts)) != -1) {
        if (id == 0) {
            int r = detect_one(a.arg);
            if (r > rc)
                rc = r;
            any = 1;
            if (cli_stdout_check() != 0)
                return CLI_EXIT_ERROR;
        }
    }
    if (!any)
        rc = detect_one("-");
    if (cli_stdout_check() != 0)
        return CLI_EXIT_ERROR;
    return rc;
}
