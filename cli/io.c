/*
 * io.c - reading, writing and reporting for the utf8kit command.
 *
 * Input is read in CLI_CHUNK pieces whatever its size. Output to a file
 * goes to a temporary file in the same directory (so that rename(2) is
 * atomic), which is flushed, fsync'ed and renamed only when everything
 * went well (and then the directory is fsync'ed); on any failure, and on
 * the signals of cleanup_signals, it is removed. Where the system can
 * (Linux: O_TMPFILE, and /proc to name a descriptor), the temporary file
 * has no name while it is written: it is linked into the directory only
 * once complete, so that even SIGKILL, which no handler sees, leaves
 * nothing behind.
 * The input is never opened for writing.
 */
/* O_TMPFILE is a Linux extension; everything else is POSIX (see
 * CMakeLists.txt) */
#define _GNU_SOURCE 1
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *cli_prog = "utf8kit";

void cli_error(const char *what, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", cli_prog);
    if (what)
        fprintf(stderr, "%s: ", what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s%s%s: ", cli_prog, cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s%s%s --help'.\n", cli_prog, cmd ? " " : "", cmd ? cmd : "");
    return CLI_EXIT_ERROR;
}

const char *cli_display_name(const char *path)
{
    return (!path || strcmp(path, "-") == 0) ? "(standard input)" : path;
}

/* The temporary file being written, for the signal handlers. Only one
 * output file is open at a time. */
static char *volatile pending_tmp;

static char *pending_tmp_path(void) { return pending_tmp; }

/* ---- input ------------------------------------------------------------------- */

/* Inputs above this size get a progress bar when stderr is a terminal. */
#define PROGRESS_MIN_SIZE (64u << 20)

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int alloc_buffer(cli_input *in)
{
    in->cap = CLI_CHUNK + CLI_LOOKAHEAD;
    in->buf = malloc(in->cap);
    if (!in->buf) {
        cli_error(in->name, "out of memory");
        return -1;
    }
    return 0;
}

/* The input being mapped, for the message of on_sigbus (with threads,
 * all map the same file). */
static const char *volatile sigbus_name;

/* A mapped file that shrinks under us raises SIGBUS on the pages that
 * went away: report it like a read error instead of dying silently. */
static void on_sigbus(int sig)
{
    static const char pre[] = "utf8kit: ", msg[] = ": the file changed size while being read "
                                                   "(nothing was written)\n";
    const char *name = sigbus_name ? sigbus_name : "(input)";
    char *t = pending_tmp_path();
    (void)sig;
    if (t)
        unlink(t);
    /* write(2) and strlen are async-signal-safe */
    if (write(2, pre, sizeof pre - 1) < 0 || write(2, name, strlen(name)) < 0 ||
        write(2, msg, sizeof msg - 1) < 0)
        _exit(CLI_EXIT_ERROR);
    _exit(CLI_EXIT_ERROR);
}

static bool may_map(const cli_input *in)
{
    const char *e = getenv("UTF8KIT_CLI_NO_MMAP");
    return in->is_regular && in->size > 0 && !(e && *e && strcmp(e, "0") != 0);
}

int cli_input_open(cli_input *in, const char *path, int progress)
{
    struct stat st;
    memset(in, 0, sizeof *in);
    in->path = path;
    in->name = cli_display_name(path);
    in->rfd = -1;
    if (!path || strcmp(path, "-") == 0) {
        in->fd = 0;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            cli_error(in->name, "%s", strerror(errno));
            return -1;
        }
    }
    if (fstat(in->fd, &st) != 0) {
        cli_error(in->name, "%s", strerror(errno));
        cli_input_close(in);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        cli_error(in->name, "%s", strerror(EISDIR));
        cli_input_close(in);
        return -1;
    }
    in->is_regular = S_ISREG(st.st_mode);
    /* standard input that is a file already read in part (by whatever ran
     * before on it): read on from there, as from a pipe */
    if (in->is_regular && in->fd == 0 && lseek(0, 0, SEEK_CUR) != 0)
        in->is_regular = false;
    in->mode = (unsigned)st.st_mode & 07777u;
    in->uid = (unsigned)st.st_uid;
    in->gid = (unsigned)st.st_gid;
    in->dev = (unsigned long long)st.st_dev;
    in->ino = (unsigned long long)st.st_ino;
    if (in->is_regular) {
        in->size = (uint64_t)st.st_size;
#ifdef POSIX_FADV_SEQUENTIAL
        (void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    }
    if (progress > 0)
        in->progress = true;
    else if (progress < 0)
        in->progress = in->is_regular && in->size >= PROGRESS_MIN_SIZE && isatty(2);
    if (may_map(in)) {
        in->mapped = true;
        in->rfd = in->fd;
        in->pos = 0;
        in->stop = in->size;
        in->cap = in->window = CLI_WINDOW;
        sigbus_name = in->name;
        signal(SIGBUS, on_sigbus);
        return 0;
    }
    if (alloc_buffer(in) != 0) {
        cli_input_close(in);
        return -1;
    }
    return 0;
}

int cli_input_open_range(cli_input *in, const char *name, int fd, uint64_t start, uint64_t stop)
{
    memset(in, 0, sizeof *in);
    in->name = name;
    in->fd = -1; /* not owned */
    in->rfd = fd;
    in->is_regular = true;
    in->ranged = true;
    in->pos = start;
    in->base = start;
    in->stop = stop;
    in->size = stop;
    if (may_map(in)) {
        in->mapped = true;
        in->cap = in->window = CLI_RANGE_WINDOW;
        sigbus_name = in->name;
        signal(SIGBUS, on_sigbus);
        return 0;
    }
    return alloc_buffer(in);
}

/* fill_mapped maps the window that starts at the first byte kept. */
static int fill_mapped(cli_input *in, size_t keep_from)
{
    uint64_t nb = in->base + keep_from, start, end;
    long pg = sysconf(_SC_PAGESIZE);
    if (in->eof || nb >= in->stop) {
        in->buf += keep_from;
        in->len -= keep_from;
        in->base = nb;
        in->eof = true;
        return 0;
    }
    if (in->map)
        munmap(in->map, in->map_len);
    in->map = NULL;
    start = nb - nb % (uint64_t)(pg > 0 ? pg : 4096);
    end = start + in->window < in->stop ? start + in->window : in->stop;
    {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; /* one call maps the window: no page faults */
#endif
        void *m = mmap(NULL, (size_t)(end - start), PROT_READ, flags, in->rfd, (off_t)start);
        if (m == MAP_FAILED) {
            cli_error(in->name, "%s", strerror(errno));
            return -1;
        }
        in->map = m;
    }
    in->map_len = (size_t)(end - start);
#ifdef MADV_SEQUENTIAL
    (void)madvise(in->map, in->map_len, MADV_SEQUENTIAL);
#endif
    in->buf = in->map + (nb - start);
    in->len = (size_t)(end - nb);
    in->base = nb;
    in->pos = end;
    in->eof = end == in->stop;
    if (in->progress)
        cli_progress_update(in, end);
    return 1;
}

int cli_input_fill(cli_input *in, size_t keep_from)
{
    size_t keep = in->len - keep_from;
    if (in->mapped)
        return fill_mapped(in, keep_from);
    if (keep_from) {
        memmove(in->buf, in->buf + keep_from, keep);
        in->base += keep_from;
        in->len = keep;
    }
    if (in->eof)
        return 0;
    for (;;) {
        size_t want = in->cap - in->len;
        ssize_t r;
        if (in->ranged) {
            uint64_t left = in->stop - in->pos;
            if (left < want)
                want = (size_t)left;
            if (want == 0) {
                in->eof = true;
                return 0;
            }
            r = pread(in->rfd, in->buf + in->len, want, (off_t)in->pos);
        } else {
            r = read(in->fd, in->buf + in->len, want);
        }
        if (r > 0) {
            in->len += (size_t)r;
            in->pos += (uint64_t)r;
            if (in->progress)
                cli_progress_update(in, in->base + in->len);
            return 1;
        }
        if (r == 0) {
            in->eof = true;
            return 0;
        }
        if (errno == EINTR)
            continue;
        cli_error(in->name, "%s", strerror(errno));
        return -1;
    }
}

void cli_input_close(cli_input *in)
{
    if (in->progress)
        cli_progress_end(in);
    if (!in->ranged && in->fd > 0)
        close(in->fd);
    /* standard input mapped: leave its offset past what was read, as
     * read(2) would */
    if (!in->ranged && in->fd == 0 && in->mapped)
        (void)lseek(0, (off_t)in->pos, SEEK_SET);
    in->fd = -1;
    if (in->mapped) {
        if (in->map)
            munmap(in->map, in->map_len);
        in->map = NULL;
    } else {
        free(in->buf);
    }
    in->buf = NULL;
}

/* ---- progress bar ------------------------------------------------------------ */

void cli_progress_update(cli_input *in, uint64_t done)
{
    double t = now_seconds();
    char bar[41];
    unsigned width = 40, fill;
    if (in->progress_last == 0) {
        in->progress_last = t; /* start: draw from the next update */
        in->progress_done = done;
        return;
    }
    if (t - in->progress_last < 0.1) /* at most ten redraws a second */
        return;
    in->progress_last = t;
    in->progress_done = done;
    if (in->is_regular && in->size) {
        fill = (unsigned)(done >= in->size ? width : done * width / in->size);
        memset(bar, '#', fill);
        memset(bar + fill, '.', width - fill);
        bar[width] = 0;
        fprintf(stderr, "\r%s: [%s] %3u%%", in->name, bar,
                (unsigned)(done >= in->size ? 100 : done * 100 / in->size));
    } else {
        fprintf(stderr, "\r%s: %llu MiB", in->name, (unsigned long long)(done >> 20));
    }
    fflush(stderr);
}

void cli_progress_end(cli_input *in)
{
    if (in->progress && in->progress_done) {
        fprintf(stderr, "\r\033[K"); /* erase the bar's line */
        fflush(stderr);
    }
    in->progress = false;
}

/* ---- output -------------------------------------------------------------------- */


static void on_signal(int sig)
{
    char *t = pending_tmp;
    if (t)
        unlink(t); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* the signals whose default action ends the process, and that may be
 * caught: the temporary file is removed first (SIGBUS: on_sigbus) */
static const int cleanup_signals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGALRM,
                                      SIGVTALRM, SIGPROF, SIGXCPU, SIGUSR1, SIGUSR2};

static void install_signal_cleanup(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    for (size_t k = 0; k < sizeof cleanup_signals / sizeof cleanup_signals[0]; k++)
        signal(cleanup_signals[k], on_signal);
}

/* Blocks the signals of cleanup_signals (the old mask to *old), so that
 * a handler never sees a temporary file that exists before pending_tmp
 * names it; pthread_sigmask(SIG_SETMASK, old, NULL) ends it. */
static void block_cleanup(sigset_t *old)
{
    sigset_t cleanup;
    sigemptyset(&cleanup);
    for (size_t k = 0; k < sizeof cleanup_signals / sizeof cleanup_signals[0]; k++)
        sigaddset(&cleanup, cleanup_signals[k]);
    pthread_sigmask(SIG_BLOCK, &cleanup, old);
}

/* open(2) of the directory that holds path (its part up to the last '/',
 * or "." without one) with flags and mode; -1 with errno on failure. */
static int open_dir_of(const char *path, int flags, mode_t mode)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd, e;
    if (!slash)
        return open(".", flags, mode);
    dir = malloc((size_t)(slash - path) + 2);
    if (!dir) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(dir, path, (size_t)(slash - path) + 1);
    dir[slash - path + 1] = '\0';
    fd = open(dir, flags, mode);
    e = errno;
    free(dir);
    errno = e;
    return fd;
}

int cli_output_open(cli_output *out, const char *path, const cli_input *source, bool in_place)
{
    const cli_input *mode_from = in_place ? source : NULL;
    struct stat st;
    bool existing;
    memset(out, 0, sizeof *out);
    out->cap = CLI_CHUNK;
    out->buf = malloc(out->cap);
    if (!out->buf) {
        cli_error(path ? path : "(standard output)", "out of memory");
        return -1;
    }
    if (!path || strcmp(path, "-") == 0) {
        out->fd = 1;
        out->name = "(standard output)";
        return 0;
    }
    if (!*path) {
        cli_error(NULL, "the output file name is empty");
        cli_output_abort(out);
        return -1;
    }
    out->path = path;
    out->name = path;
    existing = mode_from != NULL;
    if (mode_from) {
        out->mode = mode_from->mode;
        out->keep_owner = true;
        out->uid = mode_from->uid;
        out->gid = mode_from->gid;
    } else if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_error(path, "%s", strerror(EISDIR));
            cli_output_abort(out);
            return -1;
        }
        if (source && (unsigned long long)st.st_dev == source->dev &&
            (unsigned long long)st.st_ino == source->ino) {
            cli_error(path, "is the input file: an input is never overwritten (fix -i rewrites a "
                            "file in place)");
            cli_output_abort(out);
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            /* a device, FIFO or socket: there is no file to replace */
            out->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
            if (out->fd < 0) {
                cli_error(path, "%s", strerror(errno));
                cli_output_abort(out);
                return -1;
            }
            out->direct = true;
            return 0;
        }
        out->mode = (unsigned)st.st_mode & 07777u;
        existing = true;
    } else {
        mode_t um = umask(0);
        umask(um);
        out->mode = 0666u & ~(unsigned)um;
    }
    if (existing) {
        /* a file there (through a symbolic link, maybe): the file is
         * replaced and the link stays */
        out->resolved = realpath(path, NULL);
        if (!out->resolved) {
            cli_error(path, "%s", strerror(errno));
            cli_output_abort(out);
            return -1;
        }
        path = out->path = out->resolved;
    }
    {
        /* DIR/.NAME.utf8kit-XXXXXX, in the directory of path; of a long
         * NAME its first 200 bytes (a name may have 255) */
        const char *slash = strrchr(path, '/');
        size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
        const char *base = path + dlen;
        size_t blen = strlen(base) < 200 ? strlen(base) : 200;
        size_t n = dlen + 1 + blen + sizeof ".utf8kit-XXXXXX";
        out->tmp = malloc(n);
        if (!out->tmp) {
            cli_error(out->name, "out of memory");
            cli_output_abort(out);
            return -1;
        }
        snprintf(out->tmp, n, "%.*s.%.*s.utf8kit-XXXXXX", (int)dlen, path, (int)blen, base);
    }
    install_signal_cleanup();
#ifdef O_TMPFILE
    {
        /* An unnamed file in the directory (Linux 3.11 and later, on file
         * systems that support it; /proc must be there to name it at the
         * end): else, or with UTF8KIT_CLI_NO_TMPFILE set, a named one */
        const char *e = getenv("UTF8KIT_CLI_NO_TMPFILE");
        if ((!e || !*e || strcmp(e, "0") == 0) && access("/proc/self/fd", X_OK) == 0) {
            out->fd = open_dir_of(out->tmp, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
            if (out->fd >= 0) {
                out->unnamed = true;
                return 0;
            }
        }
    }
#endif
    {
        /* The handlers must never see the file without its name: a signal
         * between mkstemp creating it and pending_tmp naming it would
         * leave it behind, so they wait until both are done. */
        sigset_t old;
        block_cleanup(&old);
        out->fd = mkstemp(out->tmp);
        if (out->fd >= 0)
            pending_tmp = out->tmp;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (out->fd < 0) {
        int e = errno;
        free(out->tmp);
        out->tmp = NULL;
        cli_error(out->name, "cannot create a temporary file next to it: %s", strerror(e));
        cli_output_abort(out);
        return -1;
    }
    return 0;
}

/* Gives the unnamed file out->fd (see cli_output_open) the name `name`
 * through its /proc/self/fd entry; 0, or -1 with errno (EEXIST: the name
 * is taken). */
static int link_unnamed(const cli_output *out, const char *name)
{
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", out->fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

/* Names the complete unnamed file: straight at the target when there is
 * none (linkat never replaces a file), else at a fresh temporary name
 * from out->tmp's pattern, for rename(2) to move over the target; then
 * out->unnamed is false, and out->tmp names the file unless it went
 * straight to the target (then out->tmp is NULL). Returns 0, or -1 with
 * errno. Between the link and the rename a signal of cleanup_signals
 * removes the temporary name as before; only SIGKILL in those few
 * microseconds can leave it, and then complete. */
static int name_unnamed(cli_output *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    size_t n = strlen(out->tmp);
    struct timespec ts;
    uint64_t x;
    int tries;
    if (link_unnamed(out, out->path) == 0) {
        out->unnamed = false;
        free(out->tmp);
        out->tmp = NULL;
        return 0;
    }
    if (errno != EEXIST)
        return -1;
    clock_gettime(CLOCK_REALTIME, &ts);
    x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15u ^ (uint64_t)ts.tv_sec ^
        (uint64_t)getpid() << 32;
    for (tries = 0; tries < 100; tries++) {
        sigset_t old;
        int r, e;
        for (size_t k = n - 6; k < n; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out->tmp[k] = digits[x % (sizeof digits - 1)];
        }
        /* as in cli_output_open: the handlers see the name as soon as it
         * exists */
        block_cleanup(&old);
        r = link_unnamed(out, out->tmp);
        e = errno;
        if (r == 0) {
            pending_tmp = out->tmp;
            out->unnamed = false;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (r == 0)
            return 0;
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

static bool write_all(cli_output *out, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t r = write(out->fd, p, n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            cli_error(out->name, "%s", strerror(errno));
            out->failed = true;
            return false;
        }
        p += r;
        n -= (size_t)r;
    }
    return true;
}

bool cli_output_flush(cli_output *out)
{
    if (out->failed)
        return false;
    if (out->len) {
        size_t n = out->len;
        out->len = 0;
        return write_all(out, out->buf, n);
    }
    return true;
}

bool cli_output_write(cli_output *out, const void *p, size_t n)
{
    if (out->failed)
        return false;
    if (out->len + n > out->cap || n >= CLI_DIRECT_WRITE) {
        if (!cli_output_flush(out))
            return false;
        if (n >= CLI_DIRECT_WRITE) /* large runs go straight through */
            return write_all(out, p, n);
    }
    memcpy(out->buf + out->len, p, n);
    out->len += n;
    return true;
}

/* Makes the new name of the file at path durable (best effort: some file
 * systems refuse fsync on a directory, and the file itself is already
 * on disk). */
static void sync_dir_of(const char *path)
{
    int fd = open_dir_of(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int cli_output_commit(cli_output *out)
{
    int rc = 0;
    bool to_file = out->tmp != NULL; /* a file renamed (or linked) into place */
    if (!cli_output_flush(out))
        rc = -1;
    if (rc == 0 && out->tmp) {
        /* the owner only where we may (root, or the file is ours anyway) */
        if (out->keep_owner && fchown(out->fd, (uid_t)out->uid, (gid_t)out->gid) != 0) {
            /* not permitted: the new file stays ours, as with any editor */
        }
        if (fchmod(out->fd, (mode_t)out->mode) != 0) {
            cli_error(out->name, "%s", strerror(errno));
            rc = -1;
        } else if (fsync(out->fd) != 0) {
            cli_error(out->name, "%s", strerror(errno));
            rc = -1;
        } else if (out->unnamed && name_unnamed(out) != 0) {
            cli_error(out->name, "%s", strerror(errno));
            rc = -1;
        } else {
            int fd = out->fd;
            out->fd = -1;
            if (close(fd) != 0) {
                cli_error(out->name, "%s", strerror(errno));
                rc = -1;
                if (!out->tmp) /* linked straight at the target: take it back */
                    unlink(out->path);
            } else if (out->tmp && rename(out->tmp, out->path) != 0) {
                cli_error(out->name, "%s", strerror(errno));
                rc = -1;
            } else if (out->tmp) {
                pending_tmp = NULL;
                free(out->tmp);
                out->tmp = NULL;
            }
        }
    }
    if (rc == 0 && to_file)
        sync_dir_of(out->path);
    if (rc == 0 && out->direct) {
        int fd = out->fd;
        out->fd = -1;
        out->direct = false;
        if (close(fd) != 0) {
            cli_error(out->name, "%s", strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0) {
        cli_output_abort(out);
        return -1;
    }
    free(out->buf);
    out->buf = NULL;
    free(out->resolved);
    out->resolved = NULL;
    return 0;
}

void cli_output_abort(cli_output *out)
{
    if (out->tmp) {
        if (out->fd >= 0)
            close(out->fd); /* an unnamed file goes with its last descriptor */
        if (!out->unnamed)
            unlink(out->tmp);
        out->unnamed = false;
        pending_tmp = NULL;
        free(out->tmp);
        out->tmp = NULL;
    } else if (out->direct && out->fd >= 0) {
        close(out->fd);
    }
    out->direct = false;
    out->fd = -1;
    free(out->buf);
    out->buf = NULL;
    free(out->resolved);
    out->resolved = NULL;
}

int cli_output_finish(cli_output *out, bool failed)
{
    if (failed) {
        cli_output_abort(out);
        return -1;
    }
    return cli_output_commit(out);
}

int cli_stdout_check(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        cli_error("(standard output)", "%s", strerror(e ? e : EIO));
        return -1;
    }
    return 0;
}

/* ---- small helpers ------------------------------------------------------------ */

bool cli_parse_u64(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (!s || !*s)
        return false;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

void cli_hex(const unsigned char *p, size_t n, char *buf, size_t cap)
{
    static const char hx[] = "0123456789ABCDEF";
    size_t o = 0;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < n && o + 4 <= cap; i++) {
        if (i)
            buf[o++] = ' ';
        buf[o++] = hx[p[i] >> 4];
        buf[o++] = hx[p[i] & 15];
        buf[o] = 0;
    }
}

void cli_json_string(FILE *f, const char *s)
{
    size_t len = strlen(s);
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (len) {
        uint32_t cp;
        size_t n;
        utf8kit_status st = utf8kit_decode((const char *)p, len, &cp, &n);
        if (st != UTF8KIT_OK) {
            fputs("\\ufffd", f);
        } else if (cp == '"' || cp == '\\') {
            fputc('\\', f), fputc((int)cp, f);
        } else if (cp < 0x20) {
            fprintf(f, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(p, 1, n, f);
        }
        p += n;
        len -= n;
    }
    fputc('"', f);
}

int cli_boundary_at(int fd, uint64_t fsize, uint64_t pos, uint64_t *out)
{
    unsigned char w[16];
    uint64_t from = pos >= 8 ? pos - 8 : 0, to = pos + 8 > fsize ? fsize : pos + 8;
    size_t got = 0, want = (size_t)(to - from), i = (size_t)(pos - from);
    while (got < want) {
        ssize_t r = pread(fd, w + got, want - got, (off_t)(from + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    *out = utf8kit_is_boundary((const char *)w, want, i)
               ? pos
               : from + utf8kit_next_boundary((const char *)w, want, i);
    return 0;
}
