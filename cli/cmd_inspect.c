/*
 * cmd_inspect.c - utf8kit inspect: one line per character.
 *
 *   OFFSET  BYTES        CODE POINT  CHARACTER
 *        0  41           U+0041      A
 *        1  C0           invalid     overlong encoding; C0 AF is an overlong '/', ...
 *
 * Controls are escaped (\n, \x1B, \u0085); an invalid sequence is named.
 */
#include "cli.h"

#include <string.h>

typedef struct inspector {
    cli_form form;
    const unsigned char *buf;
    uint64_t base;
    uint64_t errors;
} inspector;

static void print_help(void)
{
    fputs("Usage: utf8kit inspect [OPTION]... [FILE]\n"
          "   or: utf8kit inspect -s STRING\n"
          "Print one line per character: byte offset, bytes in hex, U+XXXX and the\n"
          "character (controls escaped), or the kind of each invalid sequence.\n\n"
          "  -s, --string STRING  inspect STRING instead of a file\n"
          "      --form=FORM      utf8 (RFC 3629, default), cesu8, mutf8, legacy;\n"
          "                       the character column is always UTF-8\n\n"
          "Exit status: 0 all valid, 1 some sequence is invalid, 2 usage or I/O error.\n",
          stdout);
}

static void on_valid(void *ctx, const unsigned char *p, size_t n)
{
    inspector *ins = ctx;
    while (n) {
        uint32_t cp;
        size_t len = cli_first_char(ins->form, p, n, &cp);
        char hex[3 * 6 + 1];
        cli_hex(p, len, hex, sizeof hex);
        printf("%10llu  %-12s U+%04lX  ", (unsigned long long)(ins->base + (uint64_t)(p - ins->buf)),
               hex, (unsigned long)cp);
        if (ins->form == CLI_FORM_UTF8)
            cli_print_char(stdout, cp, p, len);
        else /* a CESU-8 pair or C0 80 is written as UTF-8, never copied */
            cli_print_value(stdout, cp);
        putchar('\n');
        p += len;
        n -= len;
    }
}

static bool on_error(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                     utf8kit_status kind)
{
    inspector *ins = ctx;
    char hex[3 * CLI_LOOKAHEAD + 1], abuf[160];
    const char *att = NULL;
    cli_hex(p, n > CLI_LOOKAHEAD ? CLI_LOOKAHEAD : n, hex, sizeof hex);
    if (kind == UTF8KIT_ERR_OVERLONG || kind == UTF8KIT_ERR_INVALID_LEAD)
        att = cli_attack(p, avail, abuf, sizeof abuf);
    printf("%10llu  %-12s invalid  %s%s%s\n", (unsigned long long)off, hex, utf8kit_strerror(kind),
           att ? "; " : "", att ? att : "");
    ins->errors++;
    return false;
}

enum { O_STRING = 1, O_FORM, O_HELP };
static const cli_opt opts[] = {
    {"string", 's', 1, O_STRING},
    {"form", 0, 1, O_FORM},
    {"help", 'h', 0, O_HELP},
    {NULL, 0, 0, 0},
};

int cmd_inspect(int argc, char **argv)
{
    cli_args a = {argc, 1, argv, "inspect", false, NULL, NULL, 0};
    const char *file = NULL, *str = NULL;
    int id, rc;
    inspector ins;
    cli_visitor v = {&ins, on_valid, on_error};
    bool stopped;
    memset(&ins, 0, sizeof ins);
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: return CLI_EXIT_ERROR;
        case 0:
            if (file)
                return cli_usage_error("inspect", "only one FILE");
            file = a.arg;
            break;
        case O_STRING: str = a.arg; break;
        case O_FORM:
            if (!cli_form_option("inspect", a.arg, &ins.form))
                return CLI_EXIT_ERROR;
            break;
        case O_HELP: print_help(); return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        }
    }
    if (str && file)
        return cli_usage_error("inspect", "a FILE or -s STRING, not both");
    if (str) {
        size_t n = strlen(str);
        ins.buf = (const unsigned char *)str;
        cli_walk(ins.form, ins.buf, n, n, 0, true, &v, &stopped);
        rc = CLI_EXIT_OK;
    } else {
        cli_input in;
        size_t keep = 0;
        if (cli_input_open(&in, file, 0) != 0)
            return CLI_EXIT_ERROR;
        rc = CLI_EXIT_OK;
        for (;;) {
            int r = cli_input_fill(&in, keep);
            if (r < 0) {
                rc = CLI_EXIT_ERROR;
                break;
            }
            ins.buf = in.buf;
            ins.base = in.base;
            keep = cli_walk(ins.form, in.buf, in.len, in.len, in.base, in.eof, &v, &stopped);
            if (in.eof || ferror(stdout))
                break;
        }
        cli_input_close(&in);
    }
    if (cli_stdout_check() != 0)
        return CLI_EXIT_ERROR;
    if (rc == CLI_EXIT_OK && ins.errors)
        rc = CLI_EXIT_INVALID;
    return rc;
}
