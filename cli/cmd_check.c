/*
 * cmd_check.c - utf8kit check: report every invalid sequence.
 *
 * One line per maximal invalid subpart:
 *     FILE:LINE:COL: byte OFFSET: KIND: XX YY
 * LINE and COL count from 1 (COL in characters, each invalid subpart being
 * one character, as in the U+FFFD-repaired text), OFFSET in bytes from 0.
 *
 * --jobs N splits a regular file into N pieces at arbitrary byte offsets,
 * moves each split forward to the next character boundary (RFC 3629
 * section 1: a boundary is found from anywhere, looking at a few bytes)
 * and checks the pieces on N threads. Each piece counts its newlines and
 * the characters after its last newline; error lines are numbered when
 * the pieces before are done, and printed in file order, so the output is
 * exactly that of one thread. A piece that has more errors to report than
 * it may hold waits for its turn to print.
 */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct check_opts {
    bool first, quiet, list;
    uint64_t max_errors; /* 0: no limit */
    cli_scan_opts s;
} check_opts;

/* One error, with its position relative to the piece it was found in. */
typedef struct err_rec {
    uint64_t off;
    uint64_t line_rel; /* newlines in the piece before it */
    uint64_t col_rel;  /* characters before it on its line (within the piece) */
    unsigned char len, kind, avail;
    unsigned char bytes[CLI_LOOKAHEAD];
} err_rec;

/* Records a piece may hold before it must wait for its turn to print:
 * 8192 * 48 bytes = 384 KiB; with its 1 MiB window, times at most 16
 * threads, that stays within the 32 MiB budget. */
#define MAX_HELD 8192u

/* Bytes read at a time to count lines lazily before the current window
 * (kept small: each of up to 16 threads may hold such a buffer). */
#define CATCH_UP (256u << 10)

/* Below this size per thread, --jobs is not worth the threads. */
#define MIN_PIECE (1u << 20)

static void print_help(void)
{
    fputs("Usage: utf8kit check [OPTION]... [FILE]...\n"
          "Report every invalid UTF-8 sequence, one line each:\n"
          "  FILE:LINE:COL: byte OFFSET: KIND: XX YY\n"
          "LINE and COL from 1 (COL in characters), OFFSET in bytes from 0, then\n"
          "the bytes of the maximal invalid subpart. Overlong forms of '/', '.',\n"
          "'\\' and NUL (RFC 3629 section 10) are named as attacks.\n\n"
          "  --first           stop at the first error of each file\n"
          "  --max-errors N    stop after N errors in each file\n"
          "  -q, --quiet       print nothing; only the exit status\n"
          "  -l, --list        print the names of invalid files only\n"
          "      --json        JSON Lines: one object per error (file, line, column,\n"
          "                    offset, length, kind, bytes), one summary per file\n"
          "      --form=FORM   utf8 (RFC 3629, default), cesu8, mutf8, legacy\n"
          "  -j, --jobs N      check a large file on N threads (same output)\n"
          "      --progress, --no-progress\n"
          "                    progress bar on stderr (default: when it is a\n"
          "                    terminal and the input is large)\n\n"
          "Exit status: 0 all valid, 1 some input invalid, 2 usage or I/O error.\n",
          stdout);
}

/* ---- output of one error -------------------------------------------------------- */

static void emit(const check_opts *o, const char *name, uint64_t line, uint64_t col,
                 const err_rec *r)
{
    char hex[3 * CLI_LOOKAHEAD + 1], abuf[160];
    const char *attack = NULL;
    cli_hex(r->bytes, r->len, hex, sizeof hex);
    if (r->kind == UTF8KIT_ERR_OVERLONG || r->kind == UTF8KIT_ERR_INVALID_LEAD)
        attack = cli_attack(r->bytes, r->avail, abuf, sizeof abuf);
    if (o->s.json) {
        fputs("{\"file\":", stdout);
        cli_json_string(stdout, name);
        printf(",\"line\":%llu,\"column\":%llu,\"offset\":%llu,\"length\":%u,\"kind\":\"%s\","
               "\"bytes\":\"%s\",\"message\":",
               (unsigned long long)line, (unsigned long long)col, (unsigned long long)r->off,
               (unsigned)r->len, utf8kit_status_name((utf8kit_status)r->kind), hex);
        cli_json_string(stdout, utf8kit_strerror((utf8kit_status)r->kind));
        if (attack) {
            fputs(",\"attack\":", stdout);
            cli_json_string(stdout, attack);
        }
        fputs("}\n", stdout);
    } else {
        printf("%s:%llu:%llu: byte %llu: %s: %s%s%s\n", name, (unsigned long long)line,
               (unsigned long long)col, (unsigned long long)r->off,
               utf8kit_strerror((utf8kit_status)r->kind), hex, attack ? "; " : "",
               attack ? attack : "");
    }
}

/* ---- newline and character tracking ------------------------------------------------- */

typedef struct tracker {
    bool on;
    cli_form form;
    uint64_t line; /* newlines so far */
    uint64_t col;  /* characters since the last newline */
    uint64_t pos;  /* lazy mode: the offset line and col describe */
} tracker;

static void track(tracker *t, const unsigned char *p, size_t n)
{
    uint64_t nl;
    if (!t->on || n == 0)
        return;
    nl = cli_count_newlines(p, n);
    if (nl) {
        size_t last = n;
        while (p[last - 1] != '\n')
            last--;
        t->line += nl;
        t->col = cli_count_chars(t->form, p + last, n - last);
    } else {
        t->col += cli_count_chars(t->form, p, n);
    }
}

/* track_leads is track for valid UTF-8 in pieces cut anywhere: the
 * characters of valid UTF-8 are its bytes other than 80..BF (RFC 3629
 * section 1), which can be counted in any slices. */
static void track_leads(tracker *t, const unsigned char *p, size_t n)
{
    uint64_t nl = cli_count_newlines(p, n);
    cli_tally tl = {0, 0, 0, 0, 0};
    if (nl) {
        size_t last = n;
        while (p[last - 1] != '\n')
            last--;
        t->line += nl;
        t->col = 0;
        p += last;
        n -= last;
    }
    cli_tally_add(&tl, p, n);
    t->col += tl.ascii + tl.ge_c0;
}

/* ---- one piece of one file ---------------------------------------------------------- */

struct job;

typedef struct piece {
    struct job *job;
    unsigned index;
    uint64_t start, end;  /* [start, end): boundaries */
    tracker tr;
    uint64_t nerr;        /* errors found (at most the limit) */
    bool failed;          /* read error */
    bool finished;
    bool waiting;         /* its held records are full: waits for its turn */
    bool direct;          /* printing as it goes (its turn came) */
    err_rec *held;
    size_t nheld;
    /* Lazy positions (a regular file, RFC 3629 form): lines and columns
     * are counted only up to each error, when there is one, from the
     * mapped window or with pread, so a valid file is validated and
     * nothing more. A piece's totals (for the pieces after it) are
     * counted only when a later piece has something to print. */
    bool lazy;
    cli_input *in;        /* the window being walked, or NULL */
    int fd;               /* for pread */
    unsigned char *tmp;
} piece;

typedef struct job {
    const check_opts *o;
    const char *name;
    uint64_t limit;        /* errors to report per file; UINT64_MAX none */
    bool want_lines;       /* positions are printed */
    piece *pieces;
    unsigned n;
    /* printing in order */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned turn;
    uint64_t base_line, base_col; /* of the piece whose turn it is */
    uint64_t printed;
    atomic_bool any_error; /* some piece found an error */
    int fd;                /* the file, read with pread by every piece */
    atomic_uint stop_from; /* pieces after this one need not finish */
} job;

static void print_rec(job *j, const err_rec *r)
{
    uint64_t line, col;
    if (j->printed >= j->limit)
        return;
    j->printed++;
    if (j->o->quiet || j->o->list)
        return;
    line = j->base_line + r->line_rel + 1;
    col = (r->line_rel == 0 ? j->base_col : 0) + r->col_rel + 1;
    emit(j->o, j->name, line, col, r);
}

static void flush_held(piece *pc)
{
    for (size_t i = 0; i < pc->nheld; i++)
        print_rec(pc->job, &pc->held[i]);
    pc->nheld = 0;
}

static void on_valid(void *ctx, const unsigned char *p, size_t n)
{
    piece *pc = ctx;
    if (!pc->lazy)
        track(&pc->tr, p, n);
}

/* catch_up brings a lazy tracker to offset target (the text before it,
 * from the last error on, is valid). Returns false on a read error. */
static bool catch_up(piece *pc, uint64_t target)
{
    tracker *t = &pc->tr;
    cli_input *in = pc->in;
    while (t->pos < target) {
        const unsigned char *p;
        size_t n;
        if (in && t->pos >= in->base && t->pos < in->base + in->len) {
            uint64_t end = in->base + in->len < target ? in->base + in->len : target;
            p = in->buf + (t->pos - in->base);
            n = (size_t)(end - t->pos);
        } else {
            size_t got = 0;
            n = target - t->pos < CATCH_UP ? (size_t)(target - t->pos) : CATCH_UP;
            if (!pc->tmp && !(pc->tmp = malloc(CATCH_UP))) {
                cli_error(pc->job->name, "out of memory");
                return false;
            }
            while (got < n) {
                ssize_t r = pread(pc->fd, pc->tmp + got, n - got, (off_t)(t->pos + got));
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0) {
                    cli_error(pc->job->name, "%s", r < 0 ? strerror(errno) : "file shrank");
                    return false;
                }
                got += (size_t)r;
            }
            p = pc->tmp;
        }
        track_leads(t, p, n);
        t->pos += n;
    }
    return true;
}

static bool on_error(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                     utf8kit_status kind)
{
    piece *pc = ctx;
    job *j = pc->job;
    err_rec r;
    if (pc->lazy) {
        if (!catch_up(pc, off)) {
            pc->failed = true;
            return true;
        }
        pc->tr.pos = off + n;
    }
    atomic_store(&j->any_error, true);
    r.off = off;
    r.line_rel = pc->tr.line;
    r.col_rel = pc->tr.col;
    r.len = (unsigned char)(n > CLI_LOOKAHEAD ? CLI_LOOKAHEAD : n);
    r.kind = (unsigned char)kind;
    r.avail = (unsigned char)(avail > CLI_LOOKAHEAD ? CLI_LOOKAHEAD : avail);
    memcpy(r.bytes, p, r.avail);
    if (pc->tr.on)
        pc->tr.col++; /* the subpart is one character, and never a newline */
    pc->nerr++;
    if (j->want_lines) {
        if (pc->direct) {
            print_rec(j, &r);
        } else {
            if (!pc->held) {
                pc->held = malloc(MAX_HELD * sizeof *pc->held);
                if (!pc->held) {
                    cli_error(j->name, "out of memory");
                    pc->failed = true;
                    return true;
                }
            }
            pc->held[pc->nheld++] = r;
            if (pc->nheld == MAX_HELD) {
                /* Wait until every piece before is printed, then print. */
                pthread_mutex_lock(&j->mu);
                pc->waiting = true;
                pthread_cond_broadcast(&j->cv);
                while (j->turn != pc->index)
                    pthread_cond_wait(&j->cv, &j->mu);
                pthread_mutex_unlock(&j->mu);
                pc->direct = true;
                flush_held(pc);
            }
        }
    }
    if (pc->nerr >= j->limit) {
        unsigned cur = atomic_load(&j->stop_from);
        while (pc->index < cur && !atomic_compare_exchange_weak(&j->stop_from, &cur, pc->index))
            ;
        return true;
    }
    return false;
}

/* scan reads `in` up to `end` (absolute; UINT64_MAX: its end). */
static void scan(piece *pc, cli_input *in, uint64_t end)
{
    cli_visitor v = {pc, on_valid, on_error};
    size_t keep = 0;
    for (;;) {
        int r = cli_input_fill(in, keep);
        size_t limit;
        bool stopped;
        if (r < 0) {
            pc->failed = true;
            return;
        }
        if (atomic_load(&pc->job->stop_from) < pc->index)
            return;
        limit = in->len;
        if (end - in->base < limit)
            limit = (size_t)(end - in->base);
        keep = cli_walk(pc->job->o->s.form, in->buf, in->len, limit, in->base, in->eof, &v,
                        &stopped);
        if (stopped || in->eof)
            return;
    }
}

static void *worker(void *arg)
{
    piece *pc = arg;
    job *j = pc->job;
    cli_input in;
    /* The piece reads a few bytes past its end, so that the error kind at
     * its very end is what one thread would see. */
    uint64_t ext = pc->end + CLI_LOOKAHEAD;
    uint64_t fsize = j->pieces[j->n - 1].end;
    if (ext > fsize)
        ext = fsize;
    if (cli_input_open_range(&in, j->name, j->fd, pc->start, ext) != 0) {
        pc->failed = true;
    } else {
        pc->in = &in;
        scan(pc, &in, pc->end);
        pc->in = NULL;
        cli_input_close(&in);
        /* When the file has errors, later pieces will need this one's
         * line count: count it here, in parallel, rather than later in
         * the main thread. */
        if (pc->lazy && !pc->failed && atomic_load(&j->any_error) &&
            atomic_load(&j->stop_from) > pc->index && !catch_up(pc, pc->end))
            pc->failed = true;
    }
    pthread_mutex_lock(&j->mu);
    pc->finished = true;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* check_one checks one input; returns 0 valid, 1 invalid, 2 error. */
static int check_one(const check_opts *o, const char *path)
{
    cli_input in;
    job j;
    piece *pcs = NULL, one;
    unsigned n = 1;
    int rc;
    bool failed = false;
    uint64_t nerr = 0;

    if (cli_input_open(&in, path, o->s.jobs > 1 ? 0 : o->s.progress) != 0)
        return CLI_EXIT_ERROR;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.name = in.name;
    j.limit = (o->quiet || o->list) ? 1 : o->first ? 1 : o->max_errors ? o->max_errors : UINT64_MAX;
    j.want_lines = !o->quiet && !o->list;
    atomic_init(&j.stop_from, ~0u);
    atomic_init(&j.any_error, false);
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.cv, NULL);

    if (o->s.jobs > 1 && in.is_regular && o->s.form == CLI_FORM_UTF8 &&
        in.size / o->s.jobs >= MIN_PIECE)
        n = o->s.jobs;
    if (n == 1) {
        memset(&one, 0, sizeof one);
        one.job = &j;
        one.end = UINT64_MAX;
        one.direct = true;
        one.tr.on = j.want_lines;
        one.tr.form = o->s.form;
        one.lazy = j.want_lines && in.is_regular && o->s.form == CLI_FORM_UTF8;
        one.in = &in;
        one.fd = in.fd;
        j.pieces = &one;
        j.n = 1;
        j.base_col = 0;
        scan(&one, &in, UINT64_MAX);
        failed = one.failed;
        nerr = one.nerr;
    } else {
        pthread_t *th = calloc(n, sizeof *th);
        pcs = calloc(n, sizeof *pcs);
        if (!th || !pcs) {
            cli_error(in.name, "out of memory");
            free(th);
            free(pcs);
            cli_input_close(&in);
            return CLI_EXIT_ERROR;
        }
        j.pieces = pcs;
        j.n = n;
        for (unsigned k = 0; k < n; k++) {
            pcs[k].job = &j;
            pcs[k].index = k;
            pcs[k].tr.on = j.want_lines;
            pcs[k].tr.form = o->s.form;
            pcs[k].end = in.size;
            pcs[k].lazy = j.want_lines; /* --jobs: a regular file, RFC 3629 form */
            pcs[k].fd = in.fd;
            if (k > 0 && cli_boundary_at(in.fd, in.size, in.size / n * k, &pcs[k].start) != 0) {
                cli_error(in.name, "%s", strerror(errno ? errno : EIO));
                failed = true;
            }
            if (k > 0)
                pcs[k - 1].end = pcs[k].start;
        }
        j.fd = in.fd;
        if (!failed) {
            unsigned started = 0;
            for (unsigned k = 0; k < n; k++) {
                pcs[k].tr.pos = pcs[k].start;
                if (pthread_create(&th[k], NULL, worker, &pcs[k]) != 0) {
                    cli_error(in.name, "cannot start a thread");
                    failed = true;
                    break;
                }
                started++;
            }
            /* Pieces are printed in order. Piece k's line numbers need
             * the totals of pieces 0..k-1, which lazy pieces count only
             * when piece k has something to print (done = pieces folded
             * into base_line/base_col so far). */
            unsigned done = 0;
            for (unsigned k = 0; k < started; k++) {
                bool print;
                pthread_mutex_lock(&j.mu);
                while (!pcs[k].finished && !pcs[k].waiting)
                    pthread_cond_wait(&j.cv, &j.mu);
                print = (pcs[k].waiting || pcs[k].nheld > 0) && j.printed < j.limit;
                pthread_mutex_unlock(&j.mu);
                if (print && j.want_lines && !failed) {
                    for (; done < k; done++) {
                        piece *q = &pcs[done];
                        if (q->lazy && !catch_up(q, q->end))
                            failed = true;
                        if (q->tr.line) {
                            j.base_line += q->tr.line;
                            j.base_col = q->tr.col;
                        } else {
                            j.base_col += q->tr.col;
                        }
                    }
                }
                pthread_mutex_lock(&j.mu);
                j.turn = k;
                pthread_cond_broadcast(&j.cv);
                while (!pcs[k].finished)
                    pthread_cond_wait(&j.cv, &j.mu);
                pthread_mutex_unlock(&j.mu);
                if (pcs[k].failed)
                    failed = true;
                if (!failed && j.want_lines)
                    flush_held(&pcs[k]);
                nerr += pcs[k].nerr;
            }
            for (unsigned k = 0; k < started; k++)
                pthread_join(th[k], NULL);
        }
        for (unsigned k = 0; k < n; k++) {
            free(pcs[k].held);
            free(pcs[k].tmp);
        }
        free(th);
    }
    if (nerr > j.limit)
        nerr = j.limit;
    if (!failed && o->list && nerr)
        printf("%s\n", in.name);
    if (!failed && o->s.json && !o->quiet && !o->list) {
        fputs("{\"file\":", stdout);
        cli_json_string(stdout, in.name);
        printf(",\"summary\":true,\"valid\":%s,\"errors\":%llu,\"complete\":%s}\n",
               nerr ? "false" : "true", (unsigned long long)nerr,
               nerr >= j.limit ? "false" : "true");
    }
    rc = failed ? CLI_EXIT_ERROR : nerr ? CLI_EXIT_INVALID : CLI_EXIT_OK;
    if (n == 1) {
        free(one.held);
        free(one.tmp);
    }
    free(pcs);
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.cv);
    cli_input_close(&in);
    return rc;
}

enum { O_FIRST = 1, O_QUIET, O_LIST, O_MAX, O_HELP };

static const cli_opt opts[] = {
    {"first", 0, 0, O_FIRST}, {"quiet", 'q', 0, O_QUIET}, {"list", 'l', 0, O_LIST},
    {"max-errors", 'm', 1, O_MAX}, {"help", 'h', 0, O_HELP}, CLI_SCAN_OPTS, {NULL, 0, 0, 0},
};

int cmd_check(int argc, char **argv)
{
    check_opts o;
    cli_args a = {argc, 1, argv, "check", false, NULL, NULL, 0};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    int id, rc = CLI_EXIT_OK;
    uint64_t v;
    memset(&o, 0, sizeof o);
    cli_scan_opts_init(&o.s);
    if (!files)
        return CLI_EXIT_ERROR;
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: free(files); return CLI_EXIT_ERROR;
        case 0: files[nfiles++] = a.arg; break;
        case O_FIRST: o.first = true; break;
        case O_QUIET: o.quiet = true; break;
        case O_LIST: o.list = true; break;
        case O_MAX:
            if (!cli_parse_u64(a.arg, &v) || v == 0) {
                free(files);
                return cli_usage_error("check", "--max-errors needs a positive number");
            }
            o.max_errors = v;
            break;
        case O_HELP:
            free(files);
            print_help();
            return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        default:
            if (cli_scan_option("check", id, a.arg, &o.s) < 0) {
                free(files);
                return CLI_EXIT_ERROR;
            }
        }
    }
    if (nfiles == 0)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles; i++) {
        int r = check_one(&o, files[i]);
        if (r > rc)
            rc = r;
        if (cli_stdout_check() != 0) {
            rc = CLI_EXIT_ERROR;
            break;
        }
    }
    free(files);
    return rc;
}
