/*
 * cmd_fix.c - utf8kit fix: repair invalid sequences.
 *
 * Each maximal invalid subpart is replaced by U+FFFD (EF BF BD), which is
 * byte for byte CPython's data.decode("utf-8", "replace").encode(), or
 * dropped (errors="ignore"), or escaped as \xhh per byte (errors=
 * "backslashreplace", lower-case hex like CPython), or its bytes are read
 * as ISO-8859-1 or windows-1252 (the usual repair of a file that mixes
 * UTF-8 with a legacy code page). Valid text is copied untouched.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum fix_mode { MODE_REPLACE, MODE_DROP, MODE_ESCAPE, MODE_LATIN1, MODE_CP1252 };

typedef struct fixer {
    cli_output *out;
    enum fix_mode mode;
    uint64_t errors, bad_bytes;
    bool failed;
} fixer;

static void print_help(void)
{
    fputs("Usage: utf8kit fix [OPTION]... [FILE]\n"
          "Copy FILE (or standard input) repairing every invalid UTF-8 sequence.\n\n"
          "  -o, --output OUT  write to OUT (atomically: a temporary file renamed\n"
          "                    on success)\n"
          "  -i, --in-place    replace FILE (atomically, keeping its mode)\n"
          "      --replace     each maximal invalid subpart becomes U+FFFD (default;\n"
          "                    the same bytes as CPython's errors=\"replace\")\n"
          "      --drop        remove invalid subparts\n"
          "      --escape      write each invalid byte as \\xhh\n"
          "      --latin1      read invalid bytes as ISO-8859-1\n"
          "      --cp1252      read invalid bytes as windows-1252\n"
          "      --bom=keep|strip|add\n"
          "                    what to do with a UTF-8 byte order mark (default keep)\n"
          "      --form=FORM   utf8 (default), cesu8, mutf8, legacy: what counts as valid\n"
          "  -q, --quiet       no summary on stderr\n"
          "      --progress, --no-progress\n\n"
          "Exit status: 0 written, 2 usage or I/O error (no partial output is left).\n",
          stdout);
}

static void on_valid(void *ctx, const unsigned char *p, size_t n)
{
    fixer *f = ctx;
    if (!cli_output_write(f->out, p, n))
        f->failed = true;
}

static bool on_error(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                     utf8kit_status kind)
{
    fixer *f = ctx;
    unsigned char buf[8 * 4];
    size_t len = 0;
    static const char hx[] = "0123456789abcdef";
    (void)off, (void)avail, (void)kind;
    f->errors++;
    f->bad_bytes += n;
    switch (f->mode) {
    case MODE_REPLACE:
        memcpy(buf, "\xEF\xBF\xBD", 3); /* U+FFFD */
        len = 3;
        break;
    case MODE_DROP: break;
    case MODE_ESCAPE:
        for (size_t i = 0; i < n; i++) {
            buf[len++] = '\\';
            buf[len++] = 'x';
            buf[len++] = (unsigned char)hx[p[i] >> 4];
            buf[len++] = (unsigned char)hx[p[i] & 15];
        }
        break;
    case MODE_LATIN1:
        /* an invalid byte is 80..FF or a lead byte: U+0080..U+00FF, or a
         * byte below 80 in the other forms' errors (copied as is) */
        for (size_t i = 0; i < n; i++) {
            if (p[i] < 0x80) {
                buf[len++] = p[i];
            } else {
                buf[len++] = (unsigned char)(0xC0 | p[i] >> 6);
                buf[len++] = (unsigned char)(0x80 | (p[i] & 0x3F));
            }
        }
        break;
    case MODE_CP1252: {
        utf8kit_result r = utf8kit_convert(UTF8KIT_CP1252, UTF8KIT_UTF8, p, n, buf, sizeof buf,
                                           NULL);
        len = r.written;
        break;
    }
    }
    if (len && !cli_output_write(f->out, buf, len)) {
        f->failed = true;
        return true;
    }
    return f->failed;
}

/* --replace and --drop on UTF-8 go through a library stream from UTF-8 to
 * UTF-8 under REPLACE or SKIP, whose kernels repair whole blocks at a time
 * (the walk takes a call per error). Valid bytes come out as they are and
 * each error as 3 bytes (U+FFFD) or none, so the invalid bytes are those
 * fed less those of the output that are not substitutions. */
typedef struct fix_stream {
    utf8kit_stream st;
    unsigned char *obuf;
    uint64_t fed, out;
} fix_stream;

/* Feeds p[0..n) (the last bytes when final); false on a write error. */
static bool fix_feed(fixer *f, fix_stream *fs, const unsigned char *p, size_t n, bool final)
{
    fs->fed += n;
    for (;;) {
        utf8kit_result r = utf8kit_stream_convert(&fs->st, p, n, fs->obuf, CLI_CONVERT_OUT, final);
        if (r.written && !cli_output_write(f->out, fs->obuf, r.written))
            return false;
        fs->out += r.written;
        p += r.read;
        n -= r.read;
        if (r.status != UTF8KIT_ERR_OUTPUT_TOO_SMALL)
            break; /* OK: REPLACE and SKIP take any input */
    }
    f->errors = fs->st.errors;
    f->bad_bytes = fs->fed - (fs->out - (f->mode == MODE_REPLACE ? 3 * f->errors : 0));
    return true;
}

enum {
    O_OUT = 1, O_INPLACE, O_REPLACE, O_DROP, O_ESCAPE, O_LATIN1, O_CP1252, O_BOM, O_FORM,
    O_QUIET, O_PROG, O_NOPROG, O_HELP
};

static const cli_opt opts[] = {
    {"output", 'o', 1, O_OUT},      {"in-place", 'i', 0, O_INPLACE},
    {"replace", 0, 0, O_REPLACE},   {"drop", 0, 0, O_DROP},
    {"escape", 0, 0, O_ESCAPE},     {"latin1", 0, 0, O_LATIN1},
    {"cp1252", 0, 0, O_CP1252},     {"bom", 0, 1, O_BOM},
    {"form", 0, 1, O_FORM},         {"quiet", 'q', 0, O_QUIET},
    {"progress", 0, 0, O_PROG},     {"no-progress", 0, 0, O_NOPROG},
    {"help", 'h', 0, O_HELP},       {NULL, 0, 0, 0},
};

int cmd_fix(int argc, char **argv)
{
    cli_args a = {argc, 1, argv, "fix", false, NULL, NULL, 0};
    const char *file = NULL, *outpath = NULL;
    bool inplace = false, quiet = false, stopped, unchanged;
    bool bom_removed = false, bom_added = false; /* at the start of the output */
    int id, progress = -1;
    utf8kit_bom_policy bom = UTF8KIT_BOM_KEEP;
    cli_form form = CLI_FORM_UTF8;
    fixer f;
    fix_stream fs;
    cli_input in;
    cli_output out;
    size_t keep = 0;
    static const char *mode_words[] = {"replaced by U+FFFD", "dropped", "escaped as \\xhh",
                                       "read as ISO-8859-1", "read as windows-1252"};
    memset(&f, 0, sizeof f);
    memset(&fs, 0, sizeof fs);
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: return CLI_EXIT_ERROR;
        case 0:
            if (file)
                return cli_usage_error("fix", "only one FILE (use -o for the output)");
            file = a.arg;
            break;
        case O_OUT: outpath = a.arg; break;
        case O_INPLACE: inplace = true; break;
        case O_REPLACE: f.mode = MODE_REPLACE; break;
        case O_DROP: f.mode = MODE_DROP; break;
        case O_ESCAPE: f.mode = MODE_ESCAPE; break;
        case O_LATIN1: f.mode = MODE_LATIN1; break;
        case O_CP1252:
            f.mode = MODE_CP1252;
            break;
        case O_BOM:
            if (!cli_bom_option("fix", a.arg, &bom))
                return CLI_EXIT_ERROR;
            break;
        case O_FORM:
            if (!cli_form_option("fix", a.arg, &form))
                return CLI_EXIT_ERROR;
            break;
        case O_QUIET: quiet = true; break;
        case O_PROG: progress = 1; break;
        case O_NOPROG: progress = 0; break;
        case O_HELP: print_help(); return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        }
    }
    if (inplace && outpath)
        return cli_usage_error("fix", "-o and --in-place exclude each other");
    if (inplace && (!file || strcmp(file, "-") == 0))
        return cli_usage_error("fix", "--in-place needs a FILE");
    if (cli_input_open(&in, file, progress) != 0)
        return CLI_EXIT_ERROR;
    if (inplace && !in.is_regular) {
        cli_error(in.name, "--in-place needs a regular file");
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    if (cli_output_open(&out, inplace ? file : outpath, &in, inplace) != 0) {
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    f.out = &out;
    if (form == CLI_FORM_UTF8 && (f.mode == MODE_REPLACE || f.mode == MODE_DROP)) {
        utf8kit_options o;
        memset(&o, 0, sizeof o);
        o.policy = f.mode == MODE_REPLACE ? UTF8KIT_REPLACE : UTF8KIT_SKIP;
        fs.obuf = malloc(CLI_CONVERT_OUT);
        if (!fs.obuf || utf8kit_stream_init(&fs.st, UTF8KIT_UTF8, UTF8KIT_UTF8, &o) != UTF8KIT_OK) {
            cli_error("fix", "out of memory");
            f.failed = true;
        }
    }
    if (!f.failed) {
        cli_visitor v = {&f, on_valid, on_error};
        bool first = true;
        for (;;) {
            int r = cli_input_fill(&in, keep);
            size_t start = 0;
            if (r < 0) {
                f.failed = true;
                break;
            }
            if (first && !in.eof && in.len < 3)
                continue; /* the BOM decision needs three bytes */
            if (first) {
                bool had_bom = in.len >= 3 && memcmp(in.buf, "\xEF\xBB\xBF", 3) == 0;
                first = false;
                bom_removed = had_bom && bom == UTF8KIT_BOM_STRIP;
                bom_added = !had_bom && bom == UTF8KIT_BOM_ADD;
                if (bom_removed)
                    start = 3;
                if (bom_added && !cli_output_write(&out, "\xEF\xBB\xBF", 3))
                    f.failed = true;
            }
            if (fs.obuf) {
                if (!fix_feed(&f, &fs, in.buf + start, in.len - start, in.eof))
                    f.failed = true;
                keep = in.len;
            } else {
                keep = start + cli_walk(form, in.buf + start, in.len - start, in.len - start,
                                        in.base + start, in.eof, &v, &stopped);
            }
            if (f.failed || in.eof)
                break;
        }
    }
    free(fs.obuf);
    /* --in-place on a file with nothing to repair and no BOM to change:
     * the copy is the file; left as it is (its inode, links and times),
     * the copy dropped */
    unchanged = inplace && !f.failed && f.errors == 0 && !bom_removed && !bom_added;
    if (unchanged)
        cli_output_abort(&out);
    else if (cli_output_finish(&out, f.failed) != 0) {
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    if (!quiet) {
        if (f.errors)
            fprintf(stderr, "%s: %s: %llu invalid sequence%s (%llu byte%s) %s", cli_prog, in.name,
                    (unsigned long long)f.errors, f.errors == 1 ? "" : "s",
                    (unsigned long long)f.bad_bytes, f.bad_bytes == 1 ? "" : "s",
                    mode_words[f.mode]);
        else
            fprintf(stderr, "%s: %s: no invalid sequence", cli_prog, in.name);
        if (bom_removed)
            fputs("; byte order mark removed", stderr);
        if (bom_added)
            fputs("; byte order mark added", stderr);
        if (unchanged)
            fputs("; file left as it was", stderr);
        fputc('\n', stderr);
    }
    cli_input_close(&in);
    return CLI_EXIT_OK;
}
