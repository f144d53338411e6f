/*
 * cli.h - what the files of the utf8kit command share.
 *
 * The command is a client of the public header only (include/utf8kit.h).
 * Every subcommand lives in its own cmd_*.c file and is reached through
 * the table in main.c. io.c does all reading and writing: bounded chunks,
 * atomic output files, error messages, the progress bar. scan.c walks a
 * chunk of input as valid runs and maximal invalid subparts.
 *
 * Exit codes, for every subcommand: 0 success (every input valid), 1 an
 * input is invalid or could not be converted, 2 a usage or I/O error.
 */
#ifndef UTF8KIT_CLI_H
#define UTF8KIT_CLI_H

#include "utf8kit.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_INVALID 1
#define CLI_EXIT_ERROR 2

/* Size of one read: large enough that the per-call cost of read(2) and of
 * the library is lost in the noise, small enough for L2 and for a 32 MiB
 * memory budget even with several threads. */
#define CLI_CHUNK (1u << 20)

/* The output buffer of `convert` (see cmd_convert.c). */
#define CLI_CONVERT_OUT (256u << 10)

/* A write of at least this many bytes skips cli_output's buffer. */
#define CLI_DIRECT_WRITE (64u << 10)

/* Window of a regular file mapped at a time: large enough that mmap and
 * munmap are rare, small enough that the resident set stays far below the
 * 32 MiB budget (mapped file pages count in it). */
#define CLI_WINDOW (8u << 20)
/* The window of each thread's piece (--jobs, at most CLI_MAX_JOBS). */
#define CLI_RANGE_WINDOW (1u << 20)
#define CLI_MAX_JOBS 16

/* Bytes kept after an error so that the diagnostics can look ahead (the
 * longest overlong sequence the legacy form allows is 6 octets; 8 is a
 * round number above it). */
#define CLI_LOOKAHEAD 8

/* ---- messages (io.c) ---------------------------------------------------- */

extern const char *cli_prog; /* "utf8kit" */

/* cli_error prints "utf8kit: WHAT: MESSAGE" on stderr. */
void cli_error(const char *what, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* cli_usage_error prints "utf8kit CMD: MESSAGE" and a hint to --help, and
 * returns CLI_EXIT_ERROR. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The name used in messages for a path: "-" (and NULL) is "(standard input)". */
const char *cli_display_name(const char *path);

/* ---- input --------------------------------------------------------------- */

typedef struct cli_input {
    const char *path;    /* as given; NULL or "-" for standard input */
    const char *name;    /* for messages */
    int fd;
    bool is_regular;
    uint64_t size;       /* when is_regular */
    unsigned mode;       /* st_mode & 07777 when is_regular */
    unsigned uid, gid;   /* owner */
    unsigned long long dev, ino; /* the file's identity (fstat) */
    /* the buffer: buf[0..len) holds input bytes base .. base + len */
    unsigned char *buf;
    size_t len, cap;
    uint64_t base;
    bool eof;
    /* a range of a regular file (threads): [pos, stop) of rfd */
    bool ranged;
    int rfd;
    uint64_t pos, stop;
    /* regular files are mapped a window at a time (no copy), not read */
    bool mapped;
    unsigned char *map;
    size_t map_len;
    size_t window;      /* bytes mapped at a time */
    /* progress bar */
    bool progress;
    uint64_t progress_done;
    double progress_last;
} cli_input;

/* cli_input_open opens path (NULL or "-": standard input). A regular file
 * is mapped CLI_WINDOW bytes at a time, anything else read into a
 * CLI_CHUNK + CLI_LOOKAHEAD buffer (UTF8KIT_CLI_NO_MMAP=1 forces reads). Prints the reason and returns -1 on
 * failure (missing, unreadable, a directory). progress: -1 auto (a tty and
 * a large file), 0 off, 1 on. */
int cli_input_open(cli_input *in, const char *path, int progress);
/* cli_input_open_range reads [start, stop) of an already open regular
 * file descriptor with pread; it does not own fd. */
int cli_input_open_range(cli_input *in, const char *name, int fd, uint64_t start, uint64_t stop);
/* cli_input_fill drops buf[0..keep_from), moves the rest to the front and
 * reads more. Returns 1 when it read bytes, 0 at end of input (in->eof is
 * then set), -1 on a read error (reported). */
int cli_input_fill(cli_input *in, size_t keep_from);
void cli_input_close(cli_input *in);

/* ---- output -------------------------------------------------------------- */

typedef struct cli_output {
    const char *path;   /* final path, or NULL for standard output */
    const char *name;   /* for messages */
    char *tmp;          /* the temporary file while writing, else NULL */
    bool unnamed;       /* it has no name yet (O_TMPFILE); tmp is then the
                           pattern of the name it gets when complete */
    int fd;
    unsigned char *buf;
    size_t len, cap;
    bool failed;
    unsigned mode;      /* mode for the final file */
    bool keep_owner;    /* --in-place: give the new file the old one's owner */
    unsigned uid, gid;
    char *resolved;     /* the file a symbolic link points to */
    bool direct;        /* writing straight to a device or FIFO (fd ours) */
} cli_output;

/* cli_output_open writes to standard output (path NULL or "-") or to a
 * temporary file next to path, renamed over it by cli_output_commit. A
 * symbolic link path is followed, so that the link stays a link and the
 * file it names is replaced. With in_place (path is source's file) the
 * final file gets source's mode and, where permitted, its owner.
 * Otherwise an existing file keeps its mode and a new one gets 0666 less
 * the umask; a path that names the input (source, by device and inode:
 * also through a link) is refused, since an input is overwritten only
 * when asked; and a path that names a device, FIFO or socket is written
 * straight through (nothing to rename: /dev/null, /dev/stdout, a pipe).
 * Returns -1 (reported) on failure. */
int cli_output_open(cli_output *out, const char *path, const cli_input *source, bool in_place);
/* cli_output_write buffers bytes; false once the output has failed. */
bool cli_output_write(cli_output *out, const void *p, size_t n);
bool cli_output_flush(cli_output *out);
/* cli_output_commit flushes, fsyncs and renames (or flushes stdout).
 * Returns 0, or -1 (reported; the temporary file is removed). */
int cli_output_commit(cli_output *out);
/* cli_output_abort removes the temporary file, if any, and frees. */
void cli_output_abort(cli_output *out);
/* cli_output_finish aborts out when failed is set, else commits it.
 * Returns 0 when committed, -1 when aborted or the commit failed (then
 * reported). */
int cli_output_finish(cli_output *out, bool failed);

/* cli_stdout_check flushes stdout and reports a write error (EPIPE,
 * ENOSPC...). Returns 0 or -1. */
int cli_stdout_check(void);

/* ---- progress ------------------------------------------------------------ */
void cli_progress_update(cli_input *in, uint64_t done);
void cli_progress_end(cli_input *in);

/* ---- scanning (scan.c) ------------------------------------------------- */

/* The form of UTF-8 a command accepts (--form). */
typedef enum cli_form {
    CLI_FORM_UTF8 = 0, /* RFC 3629 */
    CLI_FORM_CESU8,
    CLI_FORM_MUTF8,
    CLI_FORM_LEGACY    /* RFC 2279, up to 6 octets */
} cli_form;

/* cli_parse_form parses "utf8", "cesu8", "mutf8", "legacy"; -1 if unknown. */
int cli_parse_form(const char *s);
utf8kit_encoding cli_form_encoding(cli_form f);

/* cli_validate: utf8kit_validate for the form (the other forms go through
 * utf8kit_convert in measuring mode). */
utf8kit_result cli_validate(cli_form f, const unsigned char *p, size_t n);
/* cli_count_chars counts the characters of valid text in the form. */
uint64_t cli_count_chars(cli_form f, const unsigned char *p, size_t n);

typedef struct cli_visitor {
    void *ctx;
    /* a run of valid text */
    void (*valid)(void *ctx, const unsigned char *p, size_t n);
    /* a maximal invalid subpart at absolute offset off; avail bytes (>= n,
     * at most CLI_LOOKAHEAD unless the input ends) can be read from p for
     * diagnostics. Return true to stop. */
    bool (*error)(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                  utf8kit_status kind);
} cli_visitor;

/* cli_walk walks buf[0..n) (absolute offset base) as valid runs and invalid
 * subparts, stopping before limit (<= n; a unit boundary or n). Unless eof,
 * a sequence cut by the end, and any error closer than CLI_LOOKAHEAD to the
 * end, is left for the next call: the return value is where to resume.
 * *stopped is set when the visitor asked to stop. */
size_t cli_walk(cli_form f, const unsigned char *buf, size_t n, size_t limit, uint64_t base,
                bool eof, const cli_visitor *v, bool *stopped);

/* cli_walk_counts is cli_walk for a visitor that also wants the figures
 * of each valid run: the LF bytes and the sequences by length (for the
 * RFC 3629 form they come from utf8kit_validate_counts, in the same pass
 * as the validation; for the others from cli_tally_add). */
typedef struct cli_count_visitor {
    void *ctx;
    void (*valid)(void *ctx, const unsigned char *p, size_t n, const utf8kit_counts *c);
    bool (*error)(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                  utf8kit_status kind);
} cli_count_visitor;

size_t cli_walk_counts(cli_form f, const unsigned char *buf, size_t n, size_t limit,
                       uint64_t base, bool eof, const cli_count_visitor *v, bool *stopped);

/* Byte statistics of valid text: newlines (0A), and bytes by class, which
 * in valid UTF-8 are the lead bytes of 1-, 2-, 3- and 4-octet sequences. */
typedef struct cli_tally {
    uint64_t newlines;
    uint64_t ascii;   /* 00..7F */
    uint64_t ge_c0;   /* C0..FF */
    uint64_t ge_e0;   /* E0..FF */
    uint64_t ge_f0;   /* F0..FF */
} cli_tally;

/* cli_tally_add adds the statistics of p[0..n) to t. */
void cli_tally_add(cli_tally *t, const unsigned char *p, size_t n);
/* cli_count_newlines counts the 0A bytes of p[0..n). */
uint64_t cli_count_newlines(const unsigned char *p, size_t n);

/* cli_attack describes bytes that are a known attack (RFC 3629 section
 * 10): an overlong form of '/', '.', '\\' or NUL, such as C0 AF or
 * E0 80 AE. p[0..avail) starts at an overlong error. Returns a static
 * description such as "overlong '/' (C0 AF)" written into buf, or NULL. */
const char *cli_attack(const unsigned char *p, size_t avail, char *buf, size_t cap);

/* cli_hex writes "XX YY ..." (upper case) for p[0..n) into buf. */
void cli_hex(const unsigned char *p, size_t n, char *buf, size_t cap);

/* cli_json_string writes s (bytes, any) as a JSON string to f; invalid
 * UTF-8 becomes U+FFFD. */
void cli_json_string(FILE *f, const char *s);

/* cli_print_char writes the character cp (its UTF-8 bytes p[0..n)) for
 * display: C0 controls as \n, \t, \xHH..., DEL as \x7F, C1 controls as
 * \u0080..\u009F, anything else as itself. */
void cli_print_char(FILE *f, uint32_t cp, const unsigned char *p, size_t n);

/* cli_print_value prints the value cp as cli_print_char does, from its
 * UTF-8 form; values UTF-8 cannot hold (surrogates, beyond U+10FFFF in the
 * RFC 2279 form) are escaped as \uXXXX or \UXXXXXXXX. */
void cli_print_value(FILE *f, uint32_t cp);

/* cli_first_char decodes the first character of p[0..n), a non-empty
 * valid run of the form: its value in *cp, its length in bytes returned. */
size_t cli_first_char(cli_form form, const unsigned char *p, size_t n, uint32_t *cp);

/* cli_parse_u64 parses a decimal count; false on junk or overflow. */
bool cli_parse_u64(const char *s, uint64_t *v);

/* ---- argument parsing ------------------------------------------------------ */

/* A tiny getopt_long-like parser that allows options after operands and
 * "--" to end options. */
typedef struct cli_opt {
    const char *lng;   /* "first" for --first, or NULL */
    char shrt;         /* 'q' for -q, or 0 */
    int has_arg;       /* 0 no, 1 required */
    int id;
} cli_opt;

typedef struct cli_args {
    int argc, i;
    char **argv;
    const char *cmd;
    bool done_opts;
    const char *arg;   /* the option's argument */
    const char *bad;   /* the offending argument after an error */
    int shortpos;      /* position inside a bundle of short options */
} cli_args;

/* cli_next returns an option id, 0 for an operand (in a->arg), -1 at the
 * end, or -2 after printing a usage error. */
int cli_next(cli_args *a, const cli_opt *opts);

/* The arguments of options that several subcommands take. Each stores the
 * value and returns true, or prints the usage error for subcommand cmd and
 * returns false (the caller then exits with CLI_EXIT_ERROR).
 * cli_form_option: --form, a name cli_parse_form knows;
 * cli_jobs_option: --jobs, a number from 1 to CLI_MAX_JOBS;
 * cli_bom_option: --bom, keep, strip or add. */
bool cli_form_option(const char *cmd, const char *arg, cli_form *form);
bool cli_jobs_option(const char *cmd, const char *arg, unsigned *jobs);
bool cli_bom_option(const char *cmd, const char *arg, utf8kit_bom_policy *bom);

/* The options of the scanning subcommands (check, count): --json,
 * --form, --jobs, --progress and --no-progress. CLI_SCAN_OPTS are their
 * entries for a subcommand's option table; cli_scan_opts_init sets the
 * defaults (UTF-8, one job, progress when stderr is a terminal);
 * cli_scan_option takes option id with its argument arg: 1 when id is one
 * of them (stored), 0 when it is not, -1 after printing the usage error. */
typedef struct cli_scan_opts {
    bool json;
    cli_form form;
    int progress; /* -1: when stderr is a terminal */
    unsigned jobs;
} cli_scan_opts;
enum { CLI_O_JSON = 64, CLI_O_FORM, CLI_O_JOBS, CLI_O_PROG, CLI_O_NOPROG };
#define CLI_SCAN_OPTS                                                                      \
    {"json", 0, 0, CLI_O_JSON}, {"form", 0, 1, CLI_O_FORM}, {"jobs", 'j', 1, CLI_O_JOBS},    \
        {"progress", 0, 0, CLI_O_PROG}, {"no-progress", 0, 0, CLI_O_NOPROG}
void cli_scan_opts_init(cli_scan_opts *o);
int cli_scan_option(const char *cmd, int id, const char *arg, cli_scan_opts *o);

/* cli_boundary_at sets *out to the first character boundary at or after
 * pos in the file fd of fsize bytes (RFC 3629 section 1: a few bytes
 * around pos tell). Returns 0, or -1 when the bytes cannot be read. */
int cli_boundary_at(int fd, uint64_t fsize, uint64_t pos, uint64_t *out);

/* ---- subcommands ------------------------------------------------------------ */

int cmd_check(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_bom(int argc, char **argv);

#endif
