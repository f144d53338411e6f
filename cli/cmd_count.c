/*
 * cmd_count.c - utf8kit count: bytes, characters, lines, invalid sequences,
 * sequences by length, BOM.
 *
 * The library finds the invalid subparts and, for the RFC 3629 form,
 * counts the valid runs between them in the same pass
 * (utf8kit_validate_counts: LF bytes and sequences by length); the other
 * forms' runs are counted by lead-byte class (cli_tally_add: in valid text
 * every lead byte starts a sequence). Characters = sequences + invalid
 * subparts (each is one U+FFFD), which is what utf8kit_count gives, less
 * the surrogate pairs of CESU-8 and Modified UTF-8 (two sequences each, one
 * character). With --jobs N
 * the file is cut at character boundaries and the pieces' counts added.
 */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct counts {
    uint64_t bytes, lines, invalid, invalid_bytes;
    uint64_t seq[5]; /* seq[k]: sequences of k octets (4: four or more) */
    /* surrogate pairs (CESU-8, Modified UTF-8): two 3-octet sequences,
     * one character */
    uint64_t pairs;
    cli_form form;
    bool bom;
    bool failed;
} counts;

typedef cli_scan_opts count_opts;

static void print_help(void)
{
    fputs("Usage: utf8kit count [OPTION]... [FILE]...\n"
          "Count bytes, characters, lines (newlines), invalid sequences, sequences\n"
          "of 1, 2, 3 and 4 octets, and whether the file starts with a BOM.\n"
          "Each invalid sequence (maximal subpart) counts as one character; in\n"
          "CESU-8 and Modified UTF-8 a surrogate pair is two 3-octet sequences and\n"
          "one character.\n\n"
          "      --json        one JSON object per file\n"
          "      --form=FORM   utf8 (default), cesu8, mutf8, legacy\n"
          "  -j, --jobs N      count a large file on N threads\n"
          "      --progress, --no-progress\n\n"
          "Exit status: 0 counted (even with invalid sequences), 2 usage or I/O error.\n",
          stdout);
}

/* on_valid adds a valid run p[0..n) and its figures. */
static void on_valid(void *ctx, const unsigned char *p, size_t n, const utf8kit_counts *f)
{
    counts *c = ctx;
    c->bytes += n;
    c->lines += f->lines;
    for (int k = 1; k < 5; k++)
        c->seq[k] += f->seq[k];
    if (c->form == CLI_FORM_CESU8 || c->form == CLI_FORM_MUTF8) {
        /* in valid text of these forms ED A0..AF is the first half of a
         * pair, and the second follows it */
        for (size_t k = 0; k + 1 < n; k++)
            c->pairs += p[k] == 0xED && (p[k + 1] & 0xF0) == 0xA0;
    }
}

static bool on_error(void *ctx, uint64_t off, const unsigned char *p, size_t n, size_t avail,
                     utf8kit_status kind)
{
    counts *c = ctx;
    (void)off, (void)p, (void)avail, (void)kind;
    c->invalid++;
    c->invalid_bytes += n;
    c->bytes += n;
    return false;
}

static void scan(counts *c, cli_input *in, uint64_t end, cli_form form)
{
    cli_count_visitor v = {c, on_valid, on_error};
    size_t keep = 0;
    for (;;) {
        int r = cli_input_fill(in, keep);
        size_t limit;
        bool stopped;
        if (r < 0) {
            c->failed = true;
            return;
        }
        if (in->base == 0 && in->len >= 3 && memcmp(in->buf, "\xEF\xBB\xBF", 3) == 0)
            c->bom = true;
        limit = in->len;
        if (end - in->base < limit)
            limit = (size_t)(end - in->base);
        keep = cli_walk_counts(form, in->buf, in->len, limit, in->base, in->eof, &v, &stopped);
        if (in->eof)
            return;
    }
}

typedef struct piece {
    counts c;
    int fd;
    uint64_t start, end, fsize;
    const char *name;
    cli_form form;
} piece;

static void *worker(void *arg)
{
    piece *pc = arg;
    cli_input in;
    uint64_t ext = pc->end + CLI_LOOKAHEAD > pc->fsize ? pc->fsize : pc->end + CLI_LOOKAHEAD;
    if (cli_input_open_range(&in, pc->name, pc->fd, pc->start, ext) != 0) {
        pc->c.failed = true;
        return NULL;
    }
    scan(&pc->c, &in, pc->end, pc->form);
    cli_input_close(&in);
    return NULL;
}

static void add(counts *t, const counts *c)
{
    t->bytes += c->bytes;
    t->lines += c->lines;
    t->invalid += c->invalid;
    t->invalid_bytes += c->invalid_bytes;
    for (int k = 0; k < 5; k++)
        t->seq[k] += c->seq[k];
    t->pairs += c->pairs;
    t->failed |= c->failed;
    t->bom |= c->bom;
}

static int count_one(const count_opts *o, const char *path, counts *c)
{
    cli_input in;
    unsigned n = 1;
    memset(c, 0, sizeof *c);
    c->form = o->form;
    if (cli_input_open(&in, path, o->jobs > 1 ? 0 : o->progress) != 0)
        return -1;
    if (o->jobs > 1 && in.is_regular && o->form == CLI_FORM_UTF8 && in.size / o->jobs >= (1u << 20))
        n = o->jobs;
    if (n == 1) {
        scan(c, &in, UINT64_MAX, o->form);
    } else {
        piece *pcs = calloc(n, sizeof *pcs);
        pthread_t *th = calloc(n, sizeof *th);
        unsigned started = 0;
        if (!pcs || !th) {
            cli_error(in.name, "out of memory");
            c->failed = true;
        }
        for (unsigned k = 0; !c->failed && k < n; k++) {
            pcs[k].fd = in.fd;
            pcs[k].fsize = in.size;
            pcs[k].end = in.size;
            pcs[k].name = in.name;
            pcs[k].form = o->form;
            pcs[k].c.form = o->form;
            if (k > 0) {
                if (cli_boundary_at(in.fd, in.size, in.size / n * k, &pcs[k].start) != 0) {
                    cli_error(in.name, "%s", strerror(errno ? errno : EIO));
                    c->failed = true;
                }
                pcs[k - 1].end = pcs[k].start;
            }
        }
        for (unsigned k = 0; !c->failed && k < n; k++) {
            if (pthread_create(&th[k], NULL, worker, &pcs[k]) != 0) {
                cli_error(in.name, "cannot start a thread");
                c->failed = true;
                break;
            }
            started++;
        }
        for (unsigned k = 0; k < started; k++) {
            pthread_join(th[k], NULL);
            add(c, &pcs[k].c);
        }
        free(pcs);
        free(th);
    }
    cli_input_close(&in);
    return c->failed ? -1 : 0;
}

static uint64_t chars_of(const counts *c)
{
    return c->seq[1] + c->seq[2] + c->seq[3] + c->seq[4] - c->pairs + c->invalid;
}

static void print_row(const count_opts *o, const counts *c, const char *name, bool total)
{
    if (o->json) {
        fputs("{\"file\":", stdout);
        cli_json_string(stdout, name);
        printf(",%s\"bytes\":%llu,\"characters\":%llu,\"lines\":%llu,\"invalid\":%llu,"
               "\"invalid_bytes\":%llu,\"sequences\":{\"1\":%llu,\"2\":%llu,\"3\":%llu,\"4\":%llu}",
               total ? "\"total\":true," : "", (unsigned long long)c->bytes,
               (unsigned long long)chars_of(c), (unsigned long long)c->lines,
               (unsigned long long)c->invalid, (unsigned long long)c->invalid_bytes,
               (unsigned long long)c->seq[1], (unsigned long long)c->seq[2],
               (unsigned long long)c->seq[3], (unsigned long long)c->seq[4]);
        if (!total)
            printf(",\"bom\":%s", c->bom ? "true" : "false");
        fputs("}\n", stdout);
    } else {
        printf("%12llu %12llu %10llu %8llu %12llu %10llu %10llu %10llu %4s  %s\n",
               (unsigned long long)c->bytes, (unsigned long long)chars_of(c),
               (unsigned long long)c->lines, (unsigned long long)c->invalid,
               (unsigned long long)c->seq[1], (unsigned long long)c->seq[2],
               (unsigned long long)c->seq[3], (unsigned long long)c->seq[4],
               total ? "" : c->bom ? "yes" : "no", name);
    }
}

enum { O_HELP = 1 };

static const cli_opt opts[] = {{"help", 'h', 0, O_HELP}, CLI_SCAN_OPTS, {NULL, 0, 0, 0}};

int cmd_count(int argc, char **argv)
{
    count_opts o;
    cli_args a = {argc, 1, argv, "count", false, NULL, NULL, 0};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0, ok = 0;
    int id, rc = CLI_EXIT_OK;
    counts total;
    cli_scan_opts_init(&o);
    memset(&total, 0, sizeof total);
    if (!files)
        return CLI_EXIT_ERROR;
    while ((id = cli_next(&a, opts)) != -1) {
        switch (id) {
        case -2: free(files); return CLI_EXIT_ERROR;
        case 0: files[nfiles++] = a.arg; break;
        case O_HELP:
            free(files);
            print_help();
            return cli_stdout_check() ? CLI_EXIT_ERROR : CLI_EXIT_OK;
        default:
            if (cli_scan_option("count", id, a.arg, &o) < 0) {
                free(files);
                return CLI_EXIT_ERROR;
            }
        }
    }
    if (nfiles == 0)
        files[nfiles++] = "-";
    if (!o.json)
        printf("%12s %12s %10s %8s %12s %10s %10s %10s %4s  %s\n", "bytes", "characters", "lines",
               "invalid", "1-octet", "2-octet", "3-octet", "4-octet", "bom", "file");
    for (size_t i = 0; i < nfiles; i++) {
        counts c;
        if (count_one(&o, files[i], &c) != 0) {
            rc = CLI_EXIT_ERROR;
            continue;
        }
        print_row(&o, &c, cli_display_name(files[i]), false);
        add(&total, &c);
        ok++;
    }
    if (ok > 1)
        print_row(&o, &total, "total", true);
    if (cli_stdout_check() != 0)
        rc = CLI_EXIT_ERROR;
    free(files);
    return rc;
}
