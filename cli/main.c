/*
 * main.c - the utf8kit command: subcommand table, global options and the
 * option parser every subcommand uses.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"check", cmd_check, "report every invalid UTF-8 sequence (exit 1 if any)"},
    {"fix", cmd_fix, "repair invalid sequences (U+FFFD, drop, escape, Latin-1, cp1252)"},
    {"convert", cmd_convert, "convert between encodings (like iconv)"},
    {"count", cmd_count, "count bytes, characters, lines, sequences by length"},
    {"inspect", cmd_inspect, "show each character: offset, bytes, code point"},
    {"encode", cmd_encode, "code points to UTF-8 octets"},
    {"decode", cmd_decode, "UTF-8 octets (hex) to code points"},
    {"detect", cmd_detect, "guess the encoding of files"},
    {"bom", cmd_bom, "check, strip or add the UTF-8 byte order mark"},
};

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: utf8kit COMMAND [OPTION]... [ARG]...\n"
            "UTF-8 (RFC 3629) checking, repair and conversion.\n\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\nFiles are read in bounded memory; '-' or no file means standard input.\n"
            "Exit status: 0 all input valid, 1 invalid input, 2 usage or I/O error.\n\n"
            "  -h, --help     this help (utf8kit COMMAND --help for a command's)\n"
            "  -V, --version  library version and SIMD kernel in use\n\n"
            "See utf8kit(1).\n");
}

int main(int argc, char **argv)
{
    const char *cmd;
    /* Descriptors 0, 1 and 2 closed by the caller are opened on /dev/null:
     * otherwise a file this command opens would take one of them, and a
     * message or progress bar meant for stderr would land in it. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
            open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
            return CLI_EXIT_ERROR;
    /* A closed pipe must be an error we can report (EPIPE), not a silent
     * death by signal. */
    signal(SIGPIPE, SIG_IGN);
#ifdef SIGXFSZ
    /* Likewise a file size limit: a write error (EFBIG) we can clean up
     * after, not a kill that would leave the temporary file behind. */
    signal(SIGXFSZ, SIG_IGN);
#endif
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_ERROR;
    }
    cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (strcmp(cmd, "help") == 0 && argc > 2) {
            char *sub[] = {argv[2], "--help", NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (strcmp(commands[i].name, argv[2]) == 0)
                    return commands[i].run(2, sub);
        }
        usage(stdout);
        return cli_stdout_check() == 0 ? CLI_EXIT_OK : CLI_EXIT_ERROR;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("utf8kit %s (library %s, kernel %s)\n", UTF8KIT_VERSION_STRING, utf8kit_version(),
               utf8kit_impl_name());
        return cli_stdout_check() == 0 ? CLI_EXIT_OK : CLI_EXIT_ERROR;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, cmd) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "utf8kit: unknown command '%s'\nTry 'utf8kit --help'.\n", cmd);
    return CLI_EXIT_ERROR;
}

/* ---- option parsing ------------------------------------------------------------- */

int cli_next(cli_args *a, const cli_opt *opts)
{
    const char *s;
    a->arg = NULL;
    if (a->shortpos) {
        /* inside a bundle such as -ql */
        s = a->argv[a->i];
        char c = s[a->shortpos];
        for (const cli_opt *o = opts; o->id; o++) {
            if (o->shrt && o->shrt == c) {
                a->shortpos++;
                if (o->has_arg) {
                    if (s[a->shortpos]) {
                        a->arg = s + a->shortpos;
                    } else if (a->i + 1 < a->argc) {
                        a->arg = a->argv[++a->i];
                    } else {
                        a->shortpos = 0;
                        a->i++;
                        cli_usage_error(a->cmd, "option -%c needs an argument", c);
                        return -2;
                    }
                    a->shortpos = 0;
                    a->i++;
                } else if (!s[a->shortpos]) {
                    a->shortpos = 0;
                    a->i++;
                }
                return o->id;
            }
        }
        cli_usage_error(a->cmd, "unknown option -%c", c);
        return -2;
    }
    if (a->i >= a->argc)
        return -1;
    s = a->argv[a->i];
    if (a->done_opts || s[0] != '-' || s[1] == 0) {
        a->arg = s;
        a->i++;
        return 0;
    }
    if (s[1] == '-' && s[2] == 0) {
        a->done_opts = true;
        a->i++;
        return cli_next(a, opts);
    }
    if (s[1] == '-') {
        const char *name = s + 2, *eq = strchr(name, '=');
        size_t nl = eq ? (size_t)(eq - name) : strlen(name);
        for (const cli_opt *o = opts; o->id; o++) {
            if (o->lng && strlen(o->lng) == nl && strncmp(o->lng, name, nl) == 0) {
                a->i++;
                if (o->has_arg) {
                    if (eq) {
                        a->arg = eq + 1;
                    } else if (a->i < a->argc) {
                        a->arg = a->argv[a->i++];
                    } else {
                        cli_usage_error(a->cmd, "option --%s needs an argument", o->lng);
                        return -2;
                    }
                } else if (eq) {
                    cli_usage_error(a->cmd, "option --%s takes no argument", o->lng);
                    return -2;
                }
                return o->id;
            }
        }
        cli_usage_error(a->cmd, "unknown option %s", s);
        return -2;
    }
    a->shortpos = 1;
    return cli_next(a, opts);
}

bool cli_form_option(const char *cmd, const char *arg, cli_form *form)
{
    int f = cli_parse_form(arg);
    if (f < 0) {
        cli_usage_error(cmd, "unknown form '%s'", arg);
        return false;
    }
    *form = (cli_form)f;
    return true;
}

bool cli_jobs_option(const char *cmd, const char *arg, unsigned *jobs)
{
    uint64_t v;
    if (!cli_parse_u64(arg, &v) || v == 0 || v > CLI_MAX_JOBS) {
        cli_usage_error(cmd, "--jobs needs a number from 1 to %d", CLI_MAX_JOBS);
        return false;
    }
    *jobs = (unsigned)v;
    return true;
}

void cli_scan_opts_init(cli_scan_opts *o)
{
    o->json = false;
    o->form = CLI_FORM_UTF8;
    o->progress = -1;
    o->jobs = 1;
}

int cli_scan_option(const char *cmd, int id, const char *arg, cli_scan_opts *o)
{
    switch (id) {
    case CLI_O_JSON: o->json = true; return 1;
    case CLI_O_FORM: return cli_form_option(cmd, arg, &o->form) ? 1 : -1;
    case CLI_O_JOBS: return cli_jobs_option(cmd, arg, &o->jobs) ? 1 : -1;
    case CLI_O_PROG: o->progress = 1; return 1;
    case CLI_O_NOPROG: o->progress = 0; return 1;
    default: return 0;
    }
}

bool cli_bom_option(const char *cmd, const char *arg, utf8kit_bom_policy *bom)
{
    if (strcmp(arg, "keep") == 0)
        *bom = UTF8KIT_BOM_KEEP;
    else if (strcmp(arg, "strip") == 0)
        *bom = UTF8KIT_BOM_STRIP;
    else if (strcmp(arg, "add") == 0)
        *bom = UTF8KIT_BOM_ADD;
    else {
        cli_usage_error(cmd, "--bom takes keep, strip or add");
        return false;
    }
    return true;
}
