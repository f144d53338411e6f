/*
 * cmd_bom.c - utf8kit bom: check, strip or add the UTF-8 byte order mark
 * (RFC 3629 section 6: EF BB BF at the start of a stream is a signature,
 * anywhere else U+FEFF is text and is left alone).
 *
 * Files are rewritten atomically (temporary file, renamed on success) and
 * keep their mode; "-" filters standard input to standard output.
 */
#include "cli.h"

#include <string.h>

static void print_help(void)
{
    fputs("Usage: utf8kit bom --check|--strip|--add [OPTION]... FILE...\n"
          "  --check      say which files start with a byte order mark\n"
          "               (exit 1 when one does)\n"
          "  --strip      remove a UTF-8 byte order mark (EF BB BF) in place\n"
          "  --add        add one in place where there is none\n"
          "  -q, --quiet  say nothing on success\n"
          "A FILE of '-' filters standard input to standard output. Files that\n"
          "start with a UTF-16 or UTF-32 byte order mark are left alone (exit 1).\n\n"
          "Exit status: 0, 1 (--check: a BOM found; a UTF-16/32 file met), 2 error.\n",
          stdout);
}

/* which_bom returns the encoding whose signature starts p[0..n), and its
 * length, or UNKNOWN. */
static utf8kit_encoding which_bom(const unsigned char *p, size_t n, size_t *len)
{
    return utf8kit_bom_detect(p, n, len);
}

enum { O_CHECK = 1, O_STRIP, O_ADD, O_QUIET, O_HELP };

static int bom_one(int action, bool quiet, const char *path)
{
    cli_input in;
    cli_output out;
    size_t blen = 0;
    utf8kit_encoding enc;
    bool to_stdout = strcmp(path, "-") == 0;
    int r;
    if (cli_input_open(&in, path, 0) != 0)
        return CLI_EXIT_ERROR;
    /* the first four bytes decide (a UTF-32 signature is four long) */
    do
        r = cli_input_fill(&in, 0);
    while (r > 0 && in.len < 4);
    if (r < 0) {
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    enc = which_bom(in.buf, in.len, &blen);
    if (action == O_CHECK) {
        if (enc == UTF8KIT_ENCODING_UNKNOWN) {
            if (!quiet) /* success: nothing to say under -q */
                printf("%s: no BOM\n", in.name);
        } else
            printf("%s: %s BOM\n", in.name, utf8kit_encoding_name(enc));
        cli_input_close(&in);
        return enc == UTF8KIT_ENCODING_UNKNOWN ? CLI_EXIT_OK : CLI_EXIT_INVALID;
    }
    if (enc != UTF8KIT_ENCODING_UNKNOWN && enc != UTF8KIT_UTF8) {
        cli_error(in.name, "starts with a %s byte order mark, not UTF-8; left alone",
                  utf8kit_encoding_name(enc));
        cli_input_close(&in);
        return CLI_EXIT_INVALID;
    }
    if (!to_stdout && ((action == O_STRIP && enc == UTF8KIT_ENCODING_UNKNOWN) ||
                       (action == O_ADD && enc == UTF8KIT_UTF8))) {
        if (!quiet)
            fprintf(stderr, "%s: %s: %s\n", cli_prog, in.name,
                    action == O_STRIP ? "no byte order mark" : "already has a byte order mark");
        cli_input_close(&in);
        return CLI_EXIT_OK;
    }
    if (!to_stdout && !in.is_regular) {
        cli_error(in.name, "not a regular file");
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    if (cli_output_open(&out, to_stdout ? NULL : path, &in, !to_stdout) != 0) {
        cli_input_close(&in);
        return CLI_EXIT_ERROR;
    }
    {
        size_t skip = action == O_STRIP && enc == UTF8KIT_UTF8 ? 3 : 0;
        bool ok = true;
        if (action == O_ADD && enc == UTF8KIT_ENCODING_UNKNOWN)
            ok = cli_output_write(&out, "\xEF\xBB\xBF", 3);
        while (ok) {
            ok = cli_output_write(&out, in.buf + skip, in.len - skip);
            skip = 0;
            if (!ok || in.eof)
                break;
            r = cli_input_fill(&in, in.len);
            if (r < 0)
                ok = false;
        }
        if (cli_output_finish(&out, !ok) != 0) {
            cli_input_close(&in);
            return CLI_EXIT_ERROR;
        }
    }
    if (!quiet && !to_stdout)
        fprintf(stderr, "%s: %s: byte order mark %s\n", cli_prog, in.name,
                action == O_STRIP ? "removed" : "added");
    cli_input_close(&in);
    return CLI_EXIT_OK;
}

int cmd_bom(int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"check", 'c', 0, O_CHECK}, {"strip", 's', 0, O_STRIP}, {"add", 'a', 0, O_ADD},
        {"quiet", 'q', 0, O_QUIET}, {"help", 'h', 0, O_HELP},   {NULL, 0, 0, 0},
    };
    cli_args a = {argc, 1, argv, "bom", false, NULL, NULL, 0};
    int id, action = 0, rc = CLI_EXIT_OK, nfiles = 0;
    bool quiet = false;
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: return CLI_EXIT_ERROR;
        case 0: nfiles++; break;
        case O_CHECK:
        case O_STRIP:
        case O_ADD:
            if (action && action != id)
                return cli_usage_error("bom", "one of --check, --strip, --add");
            action = id;
            break;
        case O_QUIET: quiet = true; break;
        case O_HELP: print_help(); return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        }
    }
    if (!action)
        return cli_usage_error("bom", "say --check, --strip or --add");
    if (nfiles == 0)
        return cli_usage_error("bom", "no FILE given ('-' for standard input)");
    a.i = 1;
    a.done_opts = false;
    while ((id = cli_next(&a, opts)) != -1) {
        if (id == 0) {
            int r = bom_one(action, quiet, a.arg);
            if (r > rc)
                rc = r;
        }
    }
    if (cli_stdout_check() != 0)
        rc = CLI_EXIT_ERROR;
    return rc;
}
