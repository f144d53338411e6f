#!/usr/bin/env python3
"""End-to-end tests of the utf8kit command ($UTF8KIT_CLI), on real files in a
temporary directory. Expected output comes from CPython's codecs or is
written out by hand, never from utf8kit itself."""
import codecs
import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

from clitest import CLI, check, counts, remove_tree, run

TMP = tempfile.mkdtemp(prefix="utf8kit-cli-")


def path(name):
    return os.path.join(TMP, name)


def write(name, data, mode=None):
    p = path(name)
    with open(p, "wb") as f:
        f.write(data)
    if mode is not None:
        os.chmod(p, mode)
    return p


def read(p):
    with open(p, "rb") as f:
        return f.read()


# ---- an independent oracle for error kinds (Unicode maximal subparts) ----
def kind_at(d, i, n):
    """Kind (utf8kit_status_name) of the UTF-8 error d[i:i+n]."""
    b = d[i]
    nxt = d[i + 1] if i + 1 < len(d) else None
    cont = nxt is not None and 0x80 <= nxt <= 0xBF
    if 0x80 <= b <= 0xBF:
        return "stray-continuation"
    if b in (0xC0, 0xC1):
        return "overlong" if cont else "invalid-lead"
    if 0xF5 <= b <= 0xF7:
        return "too-large" if cont else "invalid-lead"
    if b >= 0xF8:
        return "invalid-lead"
    if b == 0xE0 and cont and nxt < 0xA0:
        return "overlong"
    if b == 0xED and cont and nxt > 0x9F:
        return "surrogate"
    if b == 0xF0 and cont and nxt < 0x90:
        return "overlong"
    if b == 0xF4 and cont and nxt > 0x8F:
        return "too-large"
    # a well-formed prefix cut by another byte, or by the end
    if b >= 0xC2 and i + n == len(d):
        return "truncated"
    return "missing-continuation"


def oracle_errors(d):
    """[(offset, length, line, column, kind)] from CPython's decoder."""
    out = []
    spans = []

    def handler(e):
        spans.append((e.start, e.end))
        return ("\ufffd", e.end)

    codecs.register_error("u8k_collect", handler)
    text = d.decode("utf-8", "u8k_collect")
    # map each span to line/col in the replaced text: walk in parallel
    pos = 0  # byte offset
    line, col = 1, 1
    it = iter(spans)
    nxt = next(it, None)
    for ch in text:
        if nxt is not None and pos == nxt[0]:
            out.append((nxt[0], nxt[1] - nxt[0], line, col, kind_at(d, pos, nxt[1] - nxt[0])))
            pos = nxt[1]
            nxt = next(it, None)
            col += 1
            continue
        pos += len(ch.encode("utf-8", "surrogatepass"))
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return out


WORDS = {
    "stray-continuation": "continuation byte without a lead byte",
    "invalid-lead": "byte that never appears in UTF-8",
    "missing-continuation": "lead byte missing its continuation bytes",
    "overlong": "overlong encoding",
    "surrogate": "surrogate code point",
    "too-large": "code point above U+10FFFF",
    "truncated": "sequence cut off by the end of the input",
}

rng = random.Random(20261122)
PIECES = [b"a", b"b ", b"\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xd0\x96",
          b"\xe6\x97\xa5", b"\xef\xbb\xbf", b"\x00", b"\x7f"]
BAD = [b"\x80", b"\xbf", b"\xc0", b"\xc1\xbf", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xe0\x9f",
       b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\xaf", b"\xf4\x90\x80\x80", b"\xf5\x80",
       b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3",
       b"\x81\x8d\x8f\x90\x9d", b"\x93\x94"]


def random_text(n, bad_rate=0.1):
    out = bytearray()
    while len(out) < n:
        if rng.random() < bad_rate:
            out += rng.choice(BAD)
        elif rng.random() < 0.05:
            out.append(rng.randrange(256))
        else:
            out += rng.choice(PIECES)
    return bytes(out)


# ---- help, version, usage ---------------------------------------------------
r = run(["--help"])
check(r.returncode == 0 and b"check" in r.stdout and b"convert" in r.stdout, "--help")
r = run(["--version"])
check(r.returncode == 0 and r.stdout.startswith(b"utf8kit "), "--version")
for cmd in ["check", "fix", "convert", "count", "inspect", "encode", "decode", "detect", "bom"]:
    r = run([cmd, "--help"])
    check(r.returncode == 0 and b"Usage: utf8kit " + cmd.encode() in r.stdout, cmd + " --help")
check(run([]).returncode == 2, "no command: exit 2")
check(run(["frobnicate"]).returncode == 2, "unknown command: exit 2")
r = run(["check", "--no-such-option"])
check(r.returncode == 2 and b"unknown option" in r.stderr, "unknown option: exit 2")
check(run(["check", "--max-errors", "x"]).returncode == 2, "bad --max-errors: exit 2")

# ---- check: the exact line format ----------------------------------------
f = write("attack.txt", b"ok\nw\xc0\xafx \xe2\x82\n\xe0\x80\xae\xf4\x90\x80\x80\xe2")
r = run(["check", f])
expect = (
    f"{f}:2:2: byte 4: overlong encoding: C0; C0 AF is an overlong '/', a known attack (RFC 3629 section 10)\n"
    f"{f}:2:3: byte 5: continuation byte without a lead byte: AF\n"
    f"{f}:2:6: byte 8: lead byte missing its continuation bytes: E2 82\n"
    f"{f}:3:1: byte 11: overlong encoding: E0; E0 80 AE is an overlong '.', a known attack (RFC 3629 section 10)\n"
    f"{f}:3:2: byte 12: continuation byte without a lead byte: 80\n"
    f"{f}:3:3: byte 13: continuation byte without a lead byte: AE\n"
    f"{f}:3:4: byte 14: code point above U+10FFFF: F4\n"
    f"{f}:3:5: byte 15: continuation byte without a lead byte: 90\n"
    f"{f}:3:6: byte 16: continuation byte without a lead byte: 80\n"
    f"{f}:3:7: byte 17: continuation byte without a lead byte: 80\n"
    f"{f}:3:8: byte 18: sequence cut off by the end of the input: E2\n")
check(r.returncode == 1 and r.stdout.decode() == expect, "check exact lines:\n" + r.stdout.decode())
r = run(["check", write("nul.txt", b"a\xc0\x80b")])
check(b"C0 80 is an overlong NUL, a known attack" in r.stdout, "overlong NUL named")


def expected_check(name, d, first=None):
    lines = []
    for off, ln, line, col, kind in oracle_errors(d)[:first]:
        hexs = " ".join("%02X" % b for b in d[off:off + ln])
        lines.append(f"{name}:{line}:{col}: byte {off}: {WORDS[kind]}: {hexs}")
    return lines


def strip_attack(out):
    return [l.split("; ")[0] for l in out.decode().splitlines()]


for i in range(30):
    d = random_text(rng.randrange(0, 400), bad_rate=rng.choice([0.0, 0.02, 0.2]))
    f = write("rand%d.txt" % i, d)
    r = run(["check", f])
    exp = expected_check(f, d)
    check(strip_attack(r.stdout) == exp, "check random %d:\n%s\nexpected\n%s" %
          (i, r.stdout.decode(), "\n".join(exp)))
    check(r.returncode == (1 if exp else 0), "check exit code random %d" % i)
    r = run(["check", "--json", f])
    objs = [json.loads(l) for l in r.stdout.decode().splitlines()]
    errs = [o for o in objs if "summary" not in o]
    summ = [o for o in objs if "summary" in o]
    want = oracle_errors(d)
    check(len(summ) == 1 and summ[0]["errors"] == len(want) and summ[0]["valid"] == (not want),
          "json summary %d" % i)
    check([(o["offset"], o["length"], o["line"], o["column"], o["kind"]) for o in errs] == want,
          "json errors %d" % i)
    check(all(set(o) >= {"file", "line", "column", "offset", "length", "kind", "bytes"}
              for o in errs), "json keys")

# exit codes and modes
good = write("good.txt", "héllo wörld € 😀\n".encode())
bad = write("bad.txt", b"x\xffy\xfez\n\x80")
check(run(["check", good]).returncode == 0 and run(["check", good]).stdout == b"", "valid: exit 0")
check(run(["check", bad]).returncode == 1, "invalid: exit 1")
r = run(["check", "-q", bad, good])
check(r.returncode == 1 and r.stdout == b"", "-q")
r = run(["check", "-l", good, bad])
check(r.returncode == 1 and r.stdout == (bad + "\n").encode(), "-l lists invalid files")
r = run(["check", "--first", bad])
check(len(r.stdout.splitlines()) == 1 and b"byte 1:" in r.stdout, "--first")
r = run(["check", "--max-errors", "2", bad])
check(len(r.stdout.splitlines()) == 2, "--max-errors 2")
r = run(["check", good, path("missing.txt")])
check(r.returncode == 2 and b"missing.txt: No such file or directory" in r.stderr, "missing: exit 2")
r = run(["check", TMP])
check(r.returncode == 2 and b"Is a directory" in r.stderr, "directory: exit 2")
r = run(["check"], data=b"ab\n\xc3(")
check(r.returncode == 1 and r.stdout == b"(standard input):2:1: byte 3: lead byte missing its "
      b"continuation bytes: C3\n", "check stdin")
r = run(["check", "-"], data=b"ok")
check(r.returncode == 0, "check - (stdin)")
# CESU-8 form: U+10400 as two 3-octet surrogates
cesu = write("cesu.txt", b"A\xed\xa0\x81\xed\xb0\x80")
check(run(["check", cesu]).returncode == 1, "CESU-8 is not UTF-8")
check(run(["check", "--form=cesu8", cesu]).returncode == 0, "--form=cesu8 accepts it")

# ---- chunk boundaries: errors and characters across the 1 MiB reads ----------
M = 1 << 20
for cut in [M - 3, M - 2, M - 1, M, M + 1]:
    d = b"x" * cut + b"\xf0\x9f\x98\x80\xe2\x82\n\xc0\xaf" + b"y" * 10 + b"\xe2\x82"
    f = write("chunk.txt", d)
    r = run(["check", f])
    check(strip_attack(r.stdout) == expected_check(f, d), "chunk boundary at %d" % cut)

# the 8 MiB windows of a mapped file, and the read(2) path, agree
W = 8 * M
d = bytearray(b"z" * (W + 4096))
for at, seq in ((W - 2, b"\xe2\x82\xac"), (W - 6, b"\xc0\xaf"), (W + 1, b"\xed\xa0\x80"),
                (W - 1000, b"\n\xff\n")):
    d[at:at + len(seq)] = seq
d = bytes(d)
f = write("window.txt", d)
r = run(["check", f])
check(strip_attack(r.stdout) == expected_check(f, d), "errors across the mapping windows")
env = dict(os.environ, UTF8KIT_CLI_NO_MMAP="1")
r2 = subprocess.run([CLI, "check", f], capture_output=True, env=env)
check(r2.stdout == r.stdout, "read(2) path gives the same output")
r3 = run(["fix", "-q", f])
check(r3.stdout == d.decode("utf-8", "replace").encode(), "fix across the mapping windows")
os.unlink(f)

# ---- --jobs: same output as one thread, errors near the split points ---------
size = 6 * M + 12345
d = bytearray(random_text(size, bad_rate=0.0005))
for n in (2, 3, 4):
    for k in range(1, n):
        split = size // n * k
        for delta, seq in ((-2, b"\xf0\x9f\x98\x80"), (0, b"\xe2\x82"), (1, b"\xc0\xaf"),
                           (-1, b"\n\x80"), (3, b"\xed\xa0\x80")):
            at = split + delta
            d[at:at + len(seq)] = seq
d = bytes(d[:size])
f = write("jobs.txt", d)
one = run(["check", f])
onej = run(["check", "--json", f])
onec = run(["count", "--json", f])
check(strip_attack(one.stdout) == expected_check(f, d), "check big file vs oracle")
for n in (2, 3, 4, 7):
    r = run(["check", "--jobs", str(n), f])
    check(r.stdout == one.stdout and r.returncode == one.returncode, "--jobs %d check" % n)
    r = run(["check", "--jobs", str(n), "--json", f])
    check(r.stdout == onej.stdout, "--jobs %d --json" % n)
    r = run(["check", "--jobs", str(n), "--max-errors", "7", f])
    check(r.stdout.splitlines() == one.stdout.splitlines()[:7], "--jobs %d --max-errors" % n)
    r = run(["count", "--jobs", str(n), "--json", f])
    check(r.stdout == onec.stdout, "--jobs %d count" % n)

# many errors: the pieces after the first must wait for their turn to print
d = (b"x" * 40 + b"\xc0\xaf" + "é\n".encode() + b"\xe2\x82") * (2 * M // 48)
f = write("many.txt", d)
one = run(["check", f])
check(len(one.stdout.splitlines()) == 3 * (2 * M // 48), "many errors, one thread")
for n in (2, 3):
    r = run(["check", "--jobs", str(n), f])
    check(r.stdout == one.stdout, "many errors, --jobs %d" % n)
os.unlink(f)

# ---- count -----------------------------------------------------------------
for i in range(10):
    d = random_text(rng.randrange(0, 3000), bad_rate=0.05)
    if i == 0:
        d = b"\xef\xbb\xbf" + d
    f = write("count%d.txt" % i, d)
    r = run(["count", "--json", f])
    o = json.loads(r.stdout)
    text = d.decode("utf-8", "replace")
    errs = oracle_errors(d)
    seq = {1: 0, 2: 0, 3: 0, 4: 0}
    pos = 0
    errmap = {e[0]: e[1] for e in errs}
    while pos < len(d):
        if pos in errmap:
            pos += errmap[pos]
            continue
        b = d[pos]
        n = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
        seq[n] += 1
        pos += n
    check(r.returncode == 0 and o["bytes"] == len(d) and o["characters"] == len(text)
          and o["lines"] == d.count(b"\n") and o["invalid"] == len(errs)
          and o["sequences"] == {str(k): v for k, v in seq.items()}
          and o["bom"] == d.startswith(b"\xef\xbb\xbf"), "count %d: %s" % (i, o))
r = run(["count", good, bad])
check(r.returncode == 0 and b"total" in r.stdout, "count table with total")
r = run(["count", "--json"], data=b"a\nb")
check(json.loads(r.stdout)["lines"] == 1, "count stdin")

# ---- fix: byte for byte against CPython -----------------------------------
codecs.register_error("u8k_latin1", lambda e: (e.object[e.start:e.end].decode("latin-1"), e.end))


def cp1252_whatwg(b):
    # CPython's cp1252 leaves 81 8D 8F 90 9D undefined; WHATWG (and
    # utf8kit) map them to U+0081 ... like Latin-1.
    return "".join(bytes([x]).decode("cp1252") if x not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)
                   else chr(x) for x in b)


codecs.register_error("u8k_cp1252", lambda e: (cp1252_whatwg(e.object[e.start:e.end]), e.end))
modes = {"--replace": "replace", "--drop": "ignore", "--escape": "backslashreplace",
         "--latin1": "u8k_latin1", "--cp1252": "u8k_cp1252"}
for i in range(25):
    d = random_text(rng.randrange(0, 2000), bad_rate=0.15)
    f = write("fix%d.txt" % i, d)
    for opt, errors in modes.items():
        r = run(["fix", "-q", opt, f])
        want = d.decode("utf-8", errors).encode("utf-8")
        check(r.returncode == 0 and r.stdout == want, "fix %s random %d" % (opt, i))
    r = run(["fix", "-q"], data=d)
    check(r.stdout == d.decode("utf-8", "replace").encode(), "fix stdin %d" % i)
big = random_text(3 * M, bad_rate=0.01)
f = write("fixbig.txt", big)
r = run(["fix", f, "-o", path("fixbig.out")])
check(r.returncode == 0 and read(path("fixbig.out")) == big.decode("utf-8", "replace").encode(),
      "fix -o on 3 MiB")
check(b"invalid sequences" in r.stderr and b"replaced by U+FFFD" in r.stderr, "fix summary")


# The summary's figures: CPython calls an error handler once per maximal
# invalid subpart, whose bytes are object[start:end].
def subparts(d):
    seen = [0, 0]

    def count(e):
        seen[0] += 1
        seen[1] += e.end - e.start
        return ("", e.end)
    codecs.register_error("u8k_count", count)
    d.decode("utf-8", "u8k_count")
    return seen


for opt, word in (("--replace", b"replaced by U+FFFD"), ("--drop", b"dropped"),
                  ("--escape", b"escaped")):
    for name, d in (("3 MiB", big), ("small", b"a\xff\xe1\x80b\xc3"),
                    ("Latin-1", "d\u00e9j\u00e0 vu \u00ab\u00a0x\u00a0\u00bb ".encode("latin-1") * 9000)):
        n, nb = subparts(d)
        r = run(["fix", opt, write("fixsum.txt", d), "-o", path("fixsum.out")])
        want = b"%d invalid sequence%s (%d byte%s) %s" % (n, b"" if n == 1 else b"s", nb,
                                                           b"" if nb == 1 else b"s", word)
        check(r.returncode == 0 and want in r.stderr,
              "fix %s summary on %s: %r, want %r" % (opt, name, r.stderr, want))
r2 = run(["fix", "-q", "--progress", f])
check(r2.returncode == 0 and r2.stdout == read(path("fixbig.out")), "--progress leaves stdout alone")
check(run(["fix", "-q", "--no-progress", f]).stdout == r2.stdout, "--no-progress")
f = write("inplace.txt", b"a\xffb", mode=0o640)
r = run(["fix", "--in-place", f])
check(r.returncode == 0 and read(f) == b"a\xef\xbf\xbdb", "fix --in-place")
check(stat.S_IMODE(os.stat(f).st_mode) == 0o640, "--in-place keeps the mode")
# --in-place through a symbolic link: the link stays, its target is fixed
tgt = write("target.txt", b"q\xc0")
os.symlink("target.txt", path("link.txt"))
r = run(["fix", "-q", "--in-place", path("link.txt")])
check(r.returncode == 0 and os.path.islink(path("link.txt")) and read(tgt) == b"q\xef\xbf\xbd",
      "fix --in-place follows a symbolic link")
f = write("bom.txt", b"\xef\xbb\xbfx\xff")
check(run(["fix", "-q", "--bom=strip", f]).stdout == b"x\xef\xbf\xbd", "fix --bom=strip")
check(run(["fix", "-q", "--bom=add", good]).stdout == b"\xef\xbb\xbf" + read(good),
      "fix --bom=add")
check(run(["fix", "-q", "--bom=add", f]).stdout == b"\xef\xbb\xbfx\xef\xbf\xbd", "no double BOM")


def leftovers(directory):
    return [n for n in os.listdir(directory) if ".utf8kit-" in n]


# ---- failures: nothing is lost ------------------------------------------------
if os.path.exists("/dev/full"):
    with open("/dev/full", "wb") as full:
        r = subprocess.run([CLI, "fix", f], stdout=full, stderr=subprocess.PIPE)
    check(r.returncode == 2 and b"No space left on device" in r.stderr, "/dev/full: exit 2")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([CLI, "check", bad], stdout=full, stderr=subprocess.PIPE)
    check(r.returncode == 2 and b"No space left" in r.stderr, "check to /dev/full: exit 2")
else:
    print("note: no /dev/full here: the full-disk case is not tested")
# a closed pipe
p = subprocess.Popen([CLI, "fix", path("fixbig.txt")], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
p.stdout.read(10)
p.stdout.close()
err = p.stderr.read()
p.wait()
check(p.returncode == 2 and b"Broken pipe" in err, "closed pipe: exit 2 (%d, %r)" % (p.returncode, err))
# missing input, directory input, output in a missing directory or under a file
r = run(["fix", path("nope.txt"), "-o", path("out.txt")])
check(r.returncode == 2 and not os.path.exists(path("out.txt")), "fix missing input")
r = run(["fix", TMP])
check(r.returncode == 2 and b"Is a directory" in r.stderr, "fix a directory")
r = run(["fix", good, "-o", path("nodir/out.txt")])
check(r.returncode == 2 and b"nodir/out.txt" in r.stderr, "output in a missing directory")
r = run(["fix", good, "-o", good + "/x"])
check(r.returncode == 2 and b"Not a directory" in r.stderr, "output under a non-directory")
# read-only output directory (root ignores permissions: skipped then)
rodir = path("ro")
os.mkdir(rodir)
os.chmod(rodir, 0o555)
if os.geteuid() == 0:
    print("note: running as root, the read-only directory case is skipped "
          "(permissions do not apply); the path-under-a-file case stands in for it")
else:
    r = run(["fix", good, "-o", os.path.join(rodir, "x")])
    check(r.returncode == 2 and b"Permission denied" in r.stderr and not os.listdir(rodir),
          "read-only output directory")
os.chmod(rodir, 0o755)
# --in-place atomicity: a write failure (file size limit) leaves the input intact


def limit_fsize():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


orig = random_text(200000, bad_rate=0.01)
f = write("atomic.txt", orig, mode=0o604)
r = subprocess.run([CLI, "fix", "--in-place", f], capture_output=True, preexec_fn=limit_fsize)
check(r.returncode == 2 and read(f) == orig, "--in-place failure leaves the input intact")
check(leftovers(TMP) == [], "no temporary file left: %s" % leftovers(TMP))
r = subprocess.run([CLI, "fix", f, "-o", path("atomic.out")], capture_output=True,
                   preexec_fn=limit_fsize)
check(r.returncode == 2 and not os.path.exists(path("atomic.out")) and leftovers(TMP) == [],
      "-o failure leaves nothing")

# an interrupt while writing removes the temporary file (a named one, as
# where the system has no O_TMPFILE)
p = subprocess.Popen([CLI, "fix", "-o", path("interrupted.txt")], stdin=subprocess.PIPE,
                     stderr=subprocess.PIPE, env=dict(os.environ, UTF8KIT_CLI_NO_TMPFILE="1"))
p.stdin.write(b"partial \xff input")
p.stdin.flush()
for _ in range(500):  # wait (up to 10 s on a loaded machine) until the temporary file exists
    if leftovers(TMP):
        break
    time.sleep(0.02)
check(leftovers(TMP) != [], "the temporary file exists while writing")
p.send_signal(signal.SIGINT)
p.wait()
p.stdin.close()
check(p.returncode == -signal.SIGINT and leftovers(TMP) == []
      and not os.path.exists(path("interrupted.txt")), "SIGINT leaves nothing behind")


def tmpfile_supported(directory):
    """Whether the command can write an unnamed temporary file here."""
    if not hasattr(os, "O_TMPFILE") or not os.access("/proc/self/fd", os.X_OK):
        return False
    try:
        os.close(os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o600))
        return True
    except OSError:
        return False


def unnamed_output(pid, directory):
    """Whether process pid has a file open in directory that has no name
    (an O_TMPFILE file reads as 'DIR/#INODE (deleted)')."""
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith(os.path.join(directory, "#")) and target.endswith("(deleted)"):
            return True
    return False


# Where the system can, the temporary file has no name until it is complete,
# so that even SIGKILL (which no handler sees) leaves nothing behind.
if not tmpfile_supported(TMP):
    print("note: skipped: the unnamed temporary file (O_TMPFILE, with /proc) is not "
          "available in %s; SIGKILL leaves the named temporary file there" % TMP)
else:
    for sig in (signal.SIGKILL, signal.SIGINT):
        target = path("killed.txt")
        p = subprocess.Popen([CLI, "fix", "-o", target], stdin=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdin.write(b"partial \xff input")
        p.stdin.flush()
        for _ in range(500):
            if unnamed_output(p.pid, TMP):
                break
            time.sleep(0.02)
        check(unnamed_output(p.pid, TMP) and leftovers(TMP) == [] and not os.path.exists(target),
              "signal %d: the output is an unnamed file while it is written" % sig)
        p.send_signal(sig)
        p.wait()
        p.stdin.close()
        check(p.returncode == -sig and leftovers(TMP) == [] and not os.path.exists(target),
              "signal %d leaves nothing behind: %s" % (sig, leftovers(TMP)))
    # and once complete it is named: at the target when there was none,
    # over the file that was there otherwise (whose mode it keeps)
    src = write("named.txt", b"caf\xc3\xa9 \xff\n")
    target = path("named.out")
    for k in range(2):
        r = run(["fix", "-q", src, "-o", target])
        check(r.returncode == 0 and read(target) == b"caf\xc3\xa9 \xef\xbf\xbd\n"
              and leftovers(TMP) == [], "unnamed output named at the end (%d)" % k)
        if k == 0:
            os.chmod(target, 0o640)
    check(stat.S_IMODE(os.stat(target).st_mode) == 0o640, "the replaced file's mode is kept")


# The order of the system calls that make an output durable, read from
# strace: the file is fsync'ed before it gets its name (linkat or rename),
# and after that the directory is opened and fsync'ed, so that the new
# name survives a crash. For each way the output is named: linked at a new
# target, linked at a temporary name and renamed over an old one, and the
# named temporary file (UTF8KIT_CLI_NO_TMPFILE=1) renamed.
def strace_calls(args, env=None):
    """The system calls of `utf8kit ARGS` as (name, args, result) in order,
    or None when strace cannot trace here."""
    log = path("strace.log")
    # ("?": a call this architecture does not have is left out)
    cmd = ["strace", "-f", "-qq", "-o", log, "-e",
           "trace=openat,?open,fsync,fdatasync,?rename,renameat,renameat2,linkat,?link",
           CLI] + args
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)
    if r.returncode != 0 or not os.path.exists(log):
        return None
    calls = []
    with open(log) as f:
        for line in f:
            line = line.split(None, 1)[-1].strip()  # the pid (padded to 5 places)
            name, _, rest = line.partition("(")
            res = rest.rsplit(" = ", 1)
            if len(res) == 2:
                a = res[0].rstrip()
                calls.append((name, a[:-1] if a.endswith(")") else a, res[1].split(" ")[0]))
    os.remove(log)
    return calls


def durable_order(calls, target):
    """Whether the file made for the output (opened O_TMPFILE or O_CREAT)
    was fsync'ed before the call that named target, and the directory
    opened and fsync'ed after it."""
    named = [k for k, (n, a, res) in enumerate(calls)
             if n in ("rename", "renameat", "renameat2", "linkat", "link") and res == "0"
             and '"%s"' % target in a.split(", ")[1:]]
    if not named:
        return False
    k = named[-1]
    made = [res for n, a, res in calls[:k]
            if n in ("openat", "open") and ("O_TMPFILE" in a or "O_CREAT" in a)]
    before = any(n in ("fsync", "fdatasync") and a in made and res == "0"
                 for n, a, res in calls[:k])
    dirs = [res for n, a, res in calls[k + 1:]
            if n in ("openat", "open") and "O_DIRECTORY" in a and res.isdigit()]
    after = any(n == "fsync" and a in dirs and res == "0" for n, a, res in calls[k + 1:])
    return before and after


if not shutil.which("strace"):
    print("note: skipped: install strace (the fsync of the output and of its directory)")
elif strace_calls(["--version"]) is None:
    print("note: skipped: strace cannot trace here (ptrace not permitted)")
else:
    src = write("durable.txt", b"caf\xc3\xa9 \xff\n")
    cases = [("new target", {}, False), ("old target", {}, True),
             ("named temporary file", {"UTF8KIT_CLI_NO_TMPFILE": "1"}, True)]
    for what, env, old in cases:
        target = path("durable.out")
        if os.path.exists(target):
            os.remove(target)
        if old:
            write("durable.out", b"old")
        calls = strace_calls(["fix", "-q", src, "-o", target], env)
        check(calls is not None and read(target) == b"caf\xc3\xa9 \xef\xbf\xbd\n"
              and durable_order(calls, target),
              "%s: the file fsync'ed before it is named, its directory after" % what)

# ---- convert: byte for byte against CPython -----------------------------------
pairs = [("UTF-8", "UTF-16LE", "utf-8", "utf-16-le"), ("utf8", "UTF-16BE", "utf-8", "utf-16-be"),
         ("UTF-8", "UTF-32LE", "utf-8", "utf-32-le"), ("UTF-8", "latin1", "utf-8", "latin-1"),
         ("UTF-8", "US-ASCII", "utf-8", "ascii")]
for i in range(12):
    d = random_text(rng.randrange(0, 1500), bad_rate=0.1)
    f = write("conv%d.txt" % i, d)
    for fr, to, pf, pt in pairs:
        for pol, errs in (("replace", "replace"), ("skip", "ignore")):
            r = run(["convert", "-q", "-f", fr, "-t", to, "--on-error=" + pol, f])
            want = d.decode(pf, errs).encode(pt, errs)
            check(r.returncode == 0 and r.stdout == want, "convert %s->%s %s %d" % (fr, to, pol, i))
        r = run(["convert", "-f", fr, "-t", to, f])
        try:
            want = d.decode(pf).encode(pt)
            check(r.returncode == 0 and r.stdout == want, "convert strict %s->%s %d" % (fr, to, i))
        except UnicodeError:
            check(r.returncode == 1 and b": byte " in r.stderr, "convert strict error %d" % i)
    # from other encodings to UTF-8
    s = "".join(chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0xA0, 0x100),
                                rng.randrange(0x100, 0xD800), rng.randrange(0x10000, 0x110000)]))
                for _ in range(rng.randrange(0, 300)))
    for label, pc in (("UTF-16LE", "utf-16-le"), ("UTF-16BE", "utf-16-be"), ("UTF-32LE", "utf-32-le")):
        f = write("conv16.txt", s.encode(pc))
        r = run(["convert", "-f", label, "-t", "UTF-8", f])
        check(r.returncode == 0 and r.stdout == s.encode(), "convert %s->UTF-8 %d" % (label, i))
    lat = bytes(rng.randrange(256) for _ in range(300))
    r = run(["convert", "-f", "ISO-8859-1", "-t", "UTF-8"], data=lat)
    check(r.stdout == lat.decode("latin-1").encode(), "convert latin1 stdin %d" % i)
f = write("convbad.txt", b"abc\xe2\x82(")
r = run(["convert", "-f", "UTF-8", "-t", "UTF-16LE", f, "-o", path("conv.out")])
check(r.returncode == 1 and b"byte 3: lead byte missing its continuation bytes" in r.stderr
      and not os.path.exists(path("conv.out")), "convert stop: offset, kind, no output file")
r = run(["convert", "-c", "-f", "UTF-8", "-t", "UTF-16LE", f])
check(r.returncode == 0 and r.stdout == "abc(".encode("utf-16-le"), "convert -c skips")
r = run(["convert", "-l"])
check(r.returncode == 0 and b"UTF-8" in r.stdout and b"latin1" in r.stdout, "convert -l")
check(run(["convert", "-f", "klingon", "-t", "UTF-8"], data=b"").returncode == 2, "unknown label")

# Labels that do not say the byte order (RFC 2781 section 4.3), as iconv and
# CPython's "utf-16"/"utf-32" codecs read and write them: a BOM at the start
# decides and is not text, else little-endian; UTF-16/UTF-32 output starts
# with a BOM (little-endian) unless --bom says otherwise.
text = "h\u00e9\u20ac\U0001F600\ufeffz"
for label, le, be in (("UTF-16", "utf-16-le", "utf-16-be"), ("utf16", "utf-16-le", "utf-16-be"),
                      ("UTF-32", "utf-32-le", "utf-32-be"), ("csUTF32", "utf-32-le", "utf-32-be")):
    bom = "\ufeff"
    for name, data in (("LE BOM", bom.encode(le) + text.encode(le)),
                       ("BE BOM", bom.encode(be) + text.encode(be)),
                       ("no BOM", text.encode(le))):
        r = run(["convert", "-f", label, "-t", "UTF-8", write("unm.txt", data)])
        check(r.returncode == 0 and r.stdout == text.encode(), "-f %s, %s" % (label, name))
        cp = "utf-16" if "16" in label else "utf-32"
        check(r.stdout == data.decode(cp).encode(), "-f %s, %s: as CPython" % (label, name))
    r = run(["convert", "-f", "UTF-8", "-t", label], data=text.encode())
    check(r.returncode == 0 and r.stdout == bom.encode(le) + text.encode(le), "-t %s" % label)
    r = run(["convert", "-f", "UTF-8", "-t", label, "--bom=strip"], data=text.encode())
    check(r.returncode == 0 and r.stdout == text.encode(le), "-t %s --bom=strip" % label)
    r = run(["convert", "-f", "UTF-8", "-t", label], data=b"")
    check(r.returncode == 0 and r.stdout == b"", "-t %s of nothing: nothing (as iconv)" % label)
    r = run(["convert", "-f", label, "-t", label], data=bom.encode(be))
    check(r.returncode == 0 and r.stdout == b"", "%s of a BOM alone: nothing (as iconv)" % label)
    # the BOM comes with the first output: none when every byte is skipped
    r = run(["convert", "-c", "-q", "-f", "UTF-8", "-t", label], data=b"\xff\xc0\x80")
    check(r.returncode == 0 and r.stdout == b"", "-c -t %s, all skipped: nothing (as iconv)" % label)
    r = run(["convert", "-c", "-q", "-f", "UTF-8", "-t", label], data=b"\xff\xef\xbb\xbfz")
    check(r.returncode == 0 and r.stdout == (bom + "\ufeffz").encode(le),
          "-c -t %s, skipped bytes first: one BOM, then the text" % label)
    r = run(["convert", "-f", "UTF-8", "-t", label], data=bom.encode() + b"z")
    check(r.returncode == 0 and r.stdout == (bom + "z").encode(le),
          "-t %s of a UTF-8 signature and text: one BOM" % label)
r = run(["convert", "-f", "UCS-2", "-t", "UTF-8"], data=b"\xfe\xff\x00h\x00i")
check(r.returncode == 0 and r.stdout == b"hi", "-f UCS-2 with a big-endian BOM")
r = run(["convert", "-f", "UTF-8", "-t", "UCS-2"], data=b"hi")
check(r.returncode == 0 and r.stdout == b"h\x00i\x00", "-t UCS-2: no BOM (as iconv)")
r = run(["convert", "-f", "UTF-16LE", "-t", "UTF-8"], data=b"\xff\xfeh\x00")
check(r.returncode == 0 and r.stdout == b"\xef\xbb\xbfh", "-f UTF-16LE: U+FEFF is text")
# the offset of an error counts the BOM's bytes
r = run(["convert", "-f", "UTF-16", "-t", "UTF-8"], data=b"\xfe\xff\x00h\xdc\x00\x00i")
check(r.returncode == 1 and b"byte 4: " in r.stderr and b"UTF-16BE" in r.stderr,
      "-f UTF-16 error offset after a BOM: " + r.stderr.decode())
# a BOM arriving a byte at a time on a pipe still decides
p = subprocess.Popen([CLI, "convert", "-f", "UTF-16", "-t", "UTF-8"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE)
for b in b"\xfe\xff\x00h\x00i":
    p.stdin.write(bytes([b]))
    p.stdin.flush()
    time.sleep(0.01)
out, _ = p.communicate()
check(p.returncode == 0 and out == b"hi", "BOM a byte at a time: %r" % out)

# ---- inspect, encode, decode ----------------------------------------------------
r = run(["inspect", "-s", "A\u2262\n"])
check(r.returncode == 0 and r.stdout.decode().split("\n")[:3] == [
    "         0  41           U+0041  A", "         1  E2 89 A2     U+2262  \u2262",
    "         4  0A           U+000A  \\n"], "inspect -s:\n" + r.stdout.decode())
f = write("insp.txt", b"a\xc0\xafb")
r = run(["inspect", f])
check(r.returncode == 1 and b"invalid  overlong encoding" in r.stdout
      and b"         3  62           U+0062  b" in r.stdout, "inspect a file with errors")
# inspect --form: one line per character of that form, the character as UTF-8
cesu_pair = "\U00010400".encode("utf-16-be")
cesu_pair = b"".join(chr(int.from_bytes(cesu_pair[k:k + 2], "big")).encode("utf-8", "surrogatepass")
                     for k in (0, 2))  # CESU-8 by hand: each surrogate as 3 octets
check(cesu_pair == b"\xed\xa0\x81\xed\xb0\x80", "the CESU-8 oracle")
f = write("insp_cesu.txt", b"A" + cesu_pair + b"\xff")
r = run(["inspect", "--form=cesu8", f])
lines = r.stdout.decode().split("\n")
check(r.returncode == 1 and lines[0] == "         0  41           U+0041  A"
      and lines[1] == "         1  ED A0 81 ED B0 80 U+10400  \U00010400"
      and lines[2].startswith("         7  FF           invalid"), "inspect --form=cesu8:\n" + r.stdout.decode())
r = run(["inspect", f])  # the same bytes as RFC 3629: six errors, then FF
check(r.returncode == 1 and r.stdout.count(b"invalid") == 7, "inspect (utf8) of CESU-8")
r = run(["inspect", "--form=mutf8"], data=b"a\xc0\x80")
check(r.returncode == 0 and r.stdout.decode().split("\n")[1] == "         1  C0 80        U+0000  \\0",
      "inspect --form=mutf8 on stdin:\n" + r.stdout.decode())
r = run(["inspect", "--form=legacy", "-s", "x"])
check(r.returncode == 0, "inspect --form=legacy -s")
r = run(["inspect", "--form=legacy"], data=b"\xfd\xbf\xbf\xbf\xbf\xbf")
check(r.returncode == 0 and "U+7FFFFFFF  \\U7FFFFFFF" in r.stdout.decode(), "inspect --form=legacy 6 octets")
r = run(["encode", "--form=legacy", "0x7FFFFFFF", "0x80000000"])
check(r.returncode == 1 and r.stdout == b"FD BF BF BF BF BF\n"
      and b"above 7FFFFFFF" in r.stderr and b"10FFFF" not in r.stderr,
      "encode --form=legacy past its limit: %s %s" % (r.stdout, r.stderr))
check(run(["inspect", "--form=klingon", "-s", "x"]).returncode == 2, "inspect --form unknown")
# CESU-8 columns count a surrogate pair as one character, also when the
# pairs cross the command's read chunks (standard input, several MiB)
big = b"x" + cesu_pair * 1500000 + b"\xff"
for args, data in ((["check", "--form=cesu8", "-"], big),
                   (["check", "--form=cesu8", write("cesu_big.txt", big)], None)):
    r = run(args, data=data)
    check(r.returncode == 1 and r.stdout.split(b": byte")[0].endswith(b":1:1500002")
          and b"byte %d:" % (len(big) - 1) in r.stdout, "CESU-8 columns: " + r.stdout.decode()[:200])

# RFC 3629 section 7
r = run(["encode", "U+0041", "U+2262", "U+0391", "U+002E"])
check(r.stdout == b"41 E2 89 A2 CE 91 2E\n", "encode RFC 3629 7 (1)")
r = run(["encode", "U+D55C", "U+AD6D", "U+C5B4"])
check(r.stdout == b"ED 95 9C EA B5 AD EC 96 B4\n", "encode RFC 3629 7 (2)")
r = run(["encode", "0x65E5", "26412", "U+8A9E"])
check(r.stdout == b"E6 97 A5 E6 9C AC E8 AA 9E\n", "encode RFC 3629 7 (3)")
r = run(["encode", "U+FEFF", "U+233B4"])
check(r.stdout == b"EF BB BF F0 A3 8E B4\n", "encode RFC 3629 7 (4)")
r = run(["encode", "U+D800"])
check(r.returncode == 1 and b"surrogate" in r.stderr, "encode a surrogate: exit 1")
check(run(["encode", "U+110000"]).returncode == 1, "encode above U+10FFFF: exit 1")
check(run(["encode", "zz"]).returncode == 2, "encode junk: exit 2")
r = run(["decode", "41 E2 89 A2 CE 91 2E"])
check(r.returncode == 0 and r.stdout == b"U+0041 U+2262 U+0391 U+002E\n", "decode RFC example")
r = run(["decode", "EF BB BF", "F0A38EB4"])
check(r.stdout == b"U+FEFF U+233B4\n", "decode RFC example 4")
r = run(["decode", "\\xC0\\xAF"])
check(r.returncode == 1 and b"overlong encoding" in r.stdout and b"overlong '/'" in r.stdout,
      "decode names errors")

# ---- detect, bom ---------------------------------------------------------------
files = {
    "d-ascii.txt": (b"plain", "ASCII"),
    "d-utf8.txt": ("naïve".encode(), "UTF-8"),
    "d-bom.txt": (b"\xef\xbb\xbfx", "UTF-8 with BOM"),
    "d-16.txt": ("\ufeffhello".encode("utf-16-le"), "UTF-16LE (BOM)"),
    "d-16be.txt": ("\ufeffhello".encode("utf-16-be"), "UTF-16BE (BOM)"),
    "d-1252.txt": ("caf\u00e9 \u201cquoted\u201d".encode("cp1252"),
                   "not UTF-8 (byte 3: lead byte missing its continuation bytes); looks like windows-1252"),
}
for name, (data, verdict) in files.items():
    f = write(name, data)
    r = run(["detect", f])
    check(r.stdout.decode() == f"{f}: {verdict}\n", "detect %s: %s" % (name, r.stdout))
    check(r.returncode == (0 if verdict in ("ASCII", "UTF-8", "UTF-8 with BOM") else 1),
          "detect exit %s" % name)
d = b"x" * (3 * M) + b"\xff"
r = run(["detect"], data=d)
check(r.stdout.startswith(b"(standard input): not UTF-8 (byte %d:" % (3 * M)), "detect reads to the end")
f = write("b1.txt", b"\xef\xbb\xbfabc", mode=0o600)
g = write("b2.txt", b"abc")
r = run(["bom", "--check", f, g])
check(r.returncode == 1 and r.stdout.decode() == f"{f}: UTF-8 BOM\n{g}: no BOM\n", "bom --check")
r = run(["bom", "--strip", "-q", f])
check(r.returncode == 0 and read(f) == b"abc" and stat.S_IMODE(os.stat(f).st_mode) == 0o600,
      "bom --strip")
r = run(["bom", "--add", "-q", g])
check(r.returncode == 0 and read(g) == b"\xef\xbb\xbfabc", "bom --add")
r = run(["bom", "--add", "-q", g])
check(read(g) == b"\xef\xbb\xbfabc", "bom --add twice adds one")
r = run(["bom", "--strip", "-"], data=b"\xef\xbb\xbfq")
check(r.stdout == b"q", "bom --strip filter")
check(run(["bom", g]).returncode == 2, "bom without action: exit 2")

# ---- where -o writes (a differential audit of session 28 found these) ----------
src = write("o_src.txt", b"a\xffb\n")
fixed = b"a\xef\xbf\xbdb\n"
# -o naming the input, by the same path, another spelling, a hard link or a
# symbolic link: refused, the input untouched
os.link(src, path("o_hard.txt"))
os.symlink("o_src.txt", path("o_sym.txt"))
for args, what in ((["fix", "-q", "-o", src, src], "same path"),
                   (["fix", "-q", "-o", os.path.join(TMP, ".", "o_src.txt"), src], "./ path"),
                   (["fix", "-q", "-o", path("o_hard.txt"), src], "hard link"),
                   (["fix", "-q", "-o", path("o_sym.txt"), src], "symbolic link"),
                   (["convert", "-f", "latin1", "-t", "utf-8", "-o", src, src], "convert"),
                   (["fix", "-q", "-o", src], "standard input")):
    with open(src, "rb") as f:
        r = run(args, stdin=f)
    check(r.returncode == 2 and b"is the input file" in r.stderr and read(src) == b"a\xffb\n",
          "-o naming the input (%s): rc %d, %s" % (what, r.returncode, r.stderr))
# a symbolic link to another file stays a link; that file is replaced
write("o_target.txt", b"old")
os.symlink("o_target.txt", path("o_link.txt"))
r = run(["fix", "-q", "-o", path("o_link.txt"), src])
check(r.returncode == 0 and os.path.islink(path("o_link.txt"))
      and read(path("o_target.txt")) == fixed, "-o through a symbolic link: %s" % r.stderr)
# a FIFO is written to, not replaced by a file
fifo = path("o_fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(read(fifo)))
reader.start()
r = run(["fix", "-q", "-o", fifo, src], timeout=60)
reader.join(60)
check(r.returncode == 0 and got == [fixed] and stat.S_ISFIFO(os.lstat(fifo).st_mode),
      "-o to a FIFO: rc %d, got %r" % (r.returncode, got))
r = run(["fix", "-q", "-o", "/dev/null", src])
check(r.returncode == 0 and stat.S_ISCHR(os.lstat("/dev/null").st_mode), "-o /dev/null")
# standard input that is a file read in part before: read on from there;
# a second '-' then reads nothing
with open(src, "rb") as f:
    f.seek(2)
    r = run(["fix", "-q"], stdin=f)
check(r.stdout == b"b\n", "standard input read on from its offset: %r" % r.stdout)
with open(src, "rb") as f:
    r = run(["count", "--json", "-", "-"], stdin=f)
rows = [json.loads(x) for x in r.stdout.splitlines() if x.startswith(b"{")]
check(len(rows) >= 2 and rows[0]["bytes"] == 4 and rows[1]["bytes"] == 0,
      "standard input given twice: %r" % r.stdout)
# closed standard output and error: the progress bar must not land in a file
# the command opened
p = write("o_closed.txt", b"a\xff" * 1000)
r = subprocess.run("exec >&- 2>&-; '%s' fix -q --progress -i '%s'" % (CLI, p), shell=True)
check(r.returncode == 0 and read(p) == b"a\xef\xbf\xbd" * 1000,
      "fix -i with descriptors 1 and 2 closed: %r" % read(p)[:40])
# a file name of 245 bytes: the temporary name next to it must still fit
p = write("n" * 245, b"a\xff")
r = run(["fix", "-q", "-i", p])
check(r.returncode == 0 and read(p) == b"a\xef\xbf\xbd", "fix -i on a long name: %s" % r.stderr)
check(run(["decode"]).returncode == 2, "decode without octets: usage error")
# fix -i with nothing to change leaves the file itself alone
p = write("o_valid.txt", b"valid \xc3\xa9\n")
os.utime(p, (1000000000, 1000000000))
before = os.stat(p)
r = run(["fix", "-i", p])
after = os.stat(p)
check(r.returncode == 0 and (after.st_ino, after.st_mtime) == (before.st_ino, before.st_mtime)
      and b"left as it was" in r.stderr, "fix -i on a valid file: %r" % r.stderr)
r = run(["fix", "-i", "--bom=add", p])
check(r.returncode == 0 and read(p) == b"\xef\xbb\xbfvalid \xc3\xa9\n", "fix -i --bom=add on a valid file")
r = run(["fix", "-q", "-o", "", src])
check(r.returncode == 2 and b"output file name is empty" in r.stderr, "-o '': %r" % r.stderr)
r = run(["bom", "--check", "-q", src])
check(r.returncode == 0 and r.stdout == b"", "bom --check -q without a BOM says nothing: %r" % r.stdout)

check(leftovers(TMP) == [], "no temporary files left at the end")

# ---- the installed layout: bin/utf8kit and its man page -----------------------
build_dir = os.environ.get("UTF8KIT_BUILD_DIR", "")
cmake = None
for d in os.environ.get("PATH", "").split(os.pathsep):
    if os.access(os.path.join(d, "cmake"), os.X_OK):
        cmake = os.path.join(d, "cmake")
        break
if build_dir and cmake:
    prefix = path("prefix")
    r = subprocess.run([cmake, "--install", build_dir, "--prefix", prefix], capture_output=True)
    exe = os.path.join(prefix, "bin", "utf8kit")
    check(r.returncode == 0 and os.access(exe, os.X_OK), "cmake --install puts bin/utf8kit: %r" % r.stderr[-300:])
    if os.access(exe, os.X_OK):
        r = subprocess.run([exe, "check", bad], capture_output=True)
        check(r.returncode == 1 and r.stdout.startswith(bad.encode()), "the installed binary runs")
        r = subprocess.run([exe, "encode", "U+233B4"], capture_output=True)
        check(r.stdout == b"F0 A3 8E B4\n", "the installed binary encodes")
    check(os.path.exists(os.path.join(prefix, "share", "man", "man1", "utf8kit.1")),
          "utf8kit.1 is installed")
else:
    print("note: UTF8KIT_BUILD_DIR or cmake missing: the install layout is not tested")

remove_tree(TMP)
checks, failures = counts()
print("test_cli: %d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
