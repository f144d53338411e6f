#!/usr/bin/env python3
"""utf8kit count on inputs large enough to cross every cut the command
makes: its read chunks (1 MiB), its mapped windows (8 MiB), the 256 KiB
slices of its walk, the pieces of --jobs, with errors placed on and around
those cuts. Read as a mapped file, through read(2) (UTF8KIT_CLI_NO_MMAP=1)
and from a pipe. Expected figures come from CPython's UTF-8 decoder (one
error-handler call per maximal invalid subpart), never from utf8kit."""
import codecs
import json
import os
import random
import sys
import tempfile

from clitest import check, counts, remove_tree, run

TMP = tempfile.mkdtemp(prefix="utf8kit-count-")


def expected(d):
    """The figures of `utf8kit count --json` for bytes d."""
    errs = []

    def handler(e):
        errs.append(e.end - e.start)
        return ("", e.end)

    codecs.register_error("u8k_count_test", handler)
    text = d.decode("utf-8", "u8k_count_test")
    seq = {"1": 0, "2": 0, "3": 0, "4": 0}
    for ch in text:
        c = ord(ch)
        seq["1" if c < 0x80 else "2" if c < 0x800 else "3" if c < 0x10000 else "4"] += 1
    return {"bytes": len(d), "characters": len(text) + len(errs), "lines": d.count(b"\n"),
            "invalid": len(errs), "invalid_bytes": sum(errs), "sequences": seq}


def same(o, want):
    return all(o.get(k) == v for k, v in want.items())


rnd = random.Random(20261122)
CHARS = ["a", "b", " ", "\n", "é", "ж", "€", "中", "文", "😀", "𝄞", "\u0800", "\uffff",
         "\U0010ffff", "\x7f", "\x00"]


def text(n):
    return "".join(rnd.choice(CHARS) for _ in range(n)).encode("utf-8")


BAD = [b"\x80", b"\xff", b"\xc0\xaf", b"\xe0\x80", b"\xed\xa0\x80", b"\xf4\x90", b"\xe2\x82",
       b"\xf0\x9f\x98", b"\xc3"]


def with_errors(d, at):
    """d with an invalid sequence placed at (or just before) each offset in at."""
    d = bytearray(d)
    for off in sorted(at, reverse=True):
        if 0 <= off <= len(d):
            d[off:off] = rnd.choice(BAD)
    return bytes(d)


MiB = 1 << 20
SLICE = 256 << 10
base = text(3 * MiB // 3)  # about 2.4 MiB of mixed text
cuts = [k * MiB + j for k in range(1, 4) for j in (-3, -2, -1, 0, 1, 2)]
cuts += [k * SLICE + j for k in range(1, 12) for j in (-1, 0, 3)]
inputs = {
    "valid": base,
    "errors at cuts": with_errors(base, cuts),
    "random errors": with_errors(base, [rnd.randrange(len(base)) for _ in range(300)]),
    "ascii lines": (b"x" * 70 + b"\n") * (40000),
    "cut at the end": base + b"\xf0\x9f",
    "bom": b"\xef\xbb\xbf" + base[: MiB + 5],
}
big = text(4 * MiB)  # about 9.7 MiB: past one 8 MiB mapped window
inputs["window"] = with_errors(big, [8 * MiB + j for j in (-2, -1, 0, 1)])

for name, d in inputs.items():
    p = os.path.join(TMP, name.replace(" ", "_"))
    with open(p, "wb") as f:
        f.write(d)
    want = expected(d)
    want_bom = d.startswith(b"\xef\xbb\xbf")
    runs = [
        ("mapped", ["count", "--json", p], None, None),
        ("read", ["count", "--json", p], None, {"UTF8KIT_CLI_NO_MMAP": "1"}),
        ("pipe", ["count", "--json"], d, None),
        ("jobs 2", ["count", "--jobs", "2", "--json", p], None, None),
        ("jobs 3", ["count", "--jobs", "3", "--json", p], None, None),
    ]
    for how, args, data, env in runs:
        e = dict(os.environ)
        if env:
            e.update(env)
        r = run(args, data, env=e)
        try:
            o = json.loads(r.stdout)
        except ValueError:
            o = {}
        check(r.returncode == 0 and same(o, want) and o.get("bom") == want_bom,
              "%s (%s): got %s, want %s (rc %d, %s)" % (name, how, o, want, r.returncode,
                                                      r.stderr[:200]))

# CESU-8 and Modified UTF-8: a character above U+FFFF is a surrogate pair,
# two 3-octet sequences and one character (and in Modified UTF-8, U+0000 is
# C0 80). Text of such pairs and other characters, about 1.4 MiB (past the
# 1 MiB read chunk: pairs and errors fall on its cut), with stray bytes
# FF and 80 (each one invalid character) among them.


def java_form(t, mutf8):
    out = bytearray()
    for ch in t:
        c = ord(ch)
        if c >= 0x10000:
            c -= 0x10000
            for u in (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF)):
                out += bytes([0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F, 0x80 | u & 0x3F])
        elif c == 0 and mutf8:
            out += b"\xc0\x80"
        else:
            out += ch.encode("utf-8")
    return bytes(out)


for form in ("cesu8", "mutf8"):
    mutf8 = form == "mutf8"
    t = "".join(rnd.choice(CHARS) for _ in range(400000))
    d = java_form(t, mutf8)
    strays = sorted(rnd.sample(range(len(d)), 50) + [MiB])
    pieces, last, nerr = [], 0, 0
    for off in strays:
        # at a character start: not a tail (80..BF), not the second half
        # of a pair (ED B0..BF)
        while off < len(d) and (0x80 <= d[off] < 0xC0 or d[off:off + 2] >= b"\xed\xb0"
                                and d[off] == 0xED):
            off += 1
        pieces.append(d[last:off])
        pieces.append(rnd.choice([b"\xff", b"\x80"]))
        last, nerr = off, nerr + 1
    pieces.append(d[last:])
    d = b"".join(pieces)
    seq = {"1": 0, "2": 0, "3": 0, "4": 0}
    for ch in t:
        c = ord(ch)
        if c >= 0x10000:
            seq["3"] += 2
        else:
            k = 1 if c < 0x80 and not (c == 0 and mutf8) else 2 if c < 0x800 else 3
            seq[str(k)] += 1
    want = {"bytes": len(d), "characters": len(t) + nerr, "invalid": nerr, "invalid_bytes": nerr,
            "lines": t.count("\n"), "sequences": seq}
    p = os.path.join(TMP, form)
    with open(p, "wb") as f:
        f.write(d)
    for how, args, data in (("file", ["count", "--json", "--form=" + form, p], None),
                            ("pipe", ["count", "--json", "--form=" + form], d)):
        r = run(args, data)
        try:
            o = json.loads(r.stdout)
        except ValueError:
            o = {}
        check(r.returncode == 0 and same(o, want),
              "--form=%s (%s): got %s, want %s (rc %d, %s)" % (form, how, o, want, r.returncode,
                                                           r.stderr[:200]))
r = run(["count", "--json", "--form=cesu8"], data=b"\xed\xa0\xbd\xed\xb8\x80")
check(b'"characters":1,' in r.stdout and b'"3":2' in r.stdout,
      "--form=cesu8, one surrogate pair: %s" % r.stdout)

# The table form sums the files.
pa = os.path.join(TMP, "valid")
pb = os.path.join(TMP, "random_errors")
r = run(["count", pa, pb])
rows = r.stdout.decode().splitlines()
wa, wb = expected(inputs["valid"]), expected(inputs["random errors"])
total = rows[-1].split() if rows else []
check(r.returncode == 0 and len(rows) == 4 and total[-1] == "total"
      and int(total[0]) == wa["bytes"] + wb["bytes"]
      and int(total[1]) == wa["characters"] + wb["characters"]
      and int(total[2]) == wa["lines"] + wb["lines"], "table total: %s" % rows[-1:])

remove_tree(TMP)
checks, failures = counts()
print("test_cli_count: %d checks, %d failed" % (checks, failures))
sys.exit(1 if failures else 0)
