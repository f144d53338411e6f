#!/usr/bin/env python3
"""test_iconv_diff.py - utf8kit's strict conversions against glibc's iconv.

glibc's iconv(3) is an implementation of its own of the same encodings.
Called through ctypes, it stops at the first input it cannot convert:
EILSEQ with the input pointer at the start of an invalid sequence (or of
a character the target cannot hold), EINVAL at an incomplete sequence
that ends the input. For each input, on every kernel, utf8kit_convert
under STRICT must:
 - succeed exactly when iconv does, with the same output;
 - on EILSEQ report a decoding error or UNREPRESENTABLE with read at the
   same offset, and on EINVAL report TRUNCATED there; the output is the
   conversion of the input before it.

Pairs: UTF-8 to UTF-16LE/BE, UTF-32LE/BE, UCS-2LE/BE, ISO-8859-1 and
ASCII, and each of those to UTF-8. Inputs (fixed seed): random text in
the source encoding, most of it broken afterwards (a bit flipped, the end
cut, bytes added or dropped), random bytes, built unpaired surrogates and
out-of-range UTF-32 values, and the third-party cases.txt inputs.

No iconv (not glibc, or the codec missing): the pair is skipped, and the
whole test (exit 77) when no pair runs.
"""
import ctypes
import ctypes.util
import errno
import random
import sys

import libtest
from libtest import Checks, case_inputs, kernels, load, mutate, random_text

L = load()
OK, TRUNCATED, UNREPRESENTABLE = 0, 7, 10
DECODE_ERRORS = {1, 2, 3, 4, 5, 6, 11}  # 11: INVALID_UNIT (a byte above 7F in ASCII)
STRICT = 0
# utf8kit encoding, iconv name, Python codec (for building text)
ENCODINGS = {
    "UTF-8": (1, "utf-8"), "UTF-16LE": (2, "utf-16-le"), "UTF-16BE": (3, "utf-16-be"),
    "UTF-32LE": (4, "utf-32-le"), "UTF-32BE": (5, "utf-32-be"), "UCS-2LE": (6, "utf-16-le"),
    "UCS-2BE": (7, "utf-16-be"), "ISO-8859-1": (8, "latin-1"), "ASCII": (9, "ascii"),
}

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
ICONV_FAIL = ctypes.c_size_t(-1).value
try:
    libc.iconv_open.restype = ctypes.c_void_p
    libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.iconv.restype = ctypes.c_size_t
    libc.iconv.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                           ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p),
                           ctypes.POINTER(ctypes.c_size_t)]
    libc.iconv_close.argtypes = [ctypes.c_void_p]
except AttributeError:
    print("skipped: no iconv in the C library (glibc has it)")
    sys.exit(77)

check = Checks()


def iconv_open(frm, to):
    cd = libc.iconv_open(to.encode(), frm.encode())
    return None if cd in (None, ICONV_FAIL) else cd


def iconv(cd, data):
    """(errno or 0, bytes read, output) of one call on the whole input."""
    libc.iconv(cd, None, None, None, None)  # back to the initial state
    src = ctypes.create_string_buffer(data, max(len(data), 1))
    out = ctypes.create_string_buffer(8 * len(data) + 16)
    ip, il = ctypes.c_void_p(ctypes.addressof(src)), ctypes.c_size_t(len(data))
    op, ol = ctypes.c_void_p(ctypes.addressof(out)), ctypes.c_size_t(len(out))
    ctypes.set_errno(0)
    r = libc.iconv(cd, ctypes.byref(ip), ctypes.byref(il), ctypes.byref(op), ctypes.byref(ol))
    e = ctypes.get_errno() if r == ICONV_FAIL else 0
    return e, len(data) - il.value, out.raw[:len(out) - ol.value]


def convert(frm, to, data):
    return libtest.convert(L, frm, to, data, STRICT)


def inputs(rng, name, count):
    codec = ENCODINGS[name][1]
    ins = []
    for _ in range(count):
        k = rng.random()
        if k < 0.15:
            ins.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))))
            continue
        t = random_text(rng, rng.randint(0, 12) if k < 0.7 else rng.randint(30, 150))
        if name in ("ISO-8859-1", "ASCII"):
            t = "".join(c for c in t if ord(c) < (256 if name == "ISO-8859-1" else 128))
        b = t.encode(codec)
        ins.append(b if rng.random() < 0.3 else mutate(rng, b))
    unit = 2 if "16" in name or "UCS-2" in name else 4 if "32" in name else 0
    order = "little" if name.endswith("LE") else "big"
    for _ in range(count // 5 if unit else 0):
        pool = ([0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x41, 0xFFFD, 0xD834, 0xDD1E] if unit == 2 else
                [0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x41, 0x10FFFF, 0x80000000, 0x1F600])
        b = b"".join(rng.choice(pool).to_bytes(unit, order) for _ in range(rng.randint(1, 8)))
        ins.append(b + (b"\x00" if rng.random() < 0.2 else b""))
    return ins


def compare(kern, frm, to, data, got):
    e, read, want = got
    r, out = convert(ENCODINGS[frm][0], ENCODINGS[to][0], data)

    def what():
        return "%s: %s -> %s of %s: iconv errno %d read %d out %s; utf8kit status %d read %d out %s" % (
            kern, frm, to, data.hex(), e, read, want.hex(), r.status, r.read, out.hex())
    if e == 0:
        check(r.status == OK and out == want, what)
    elif e == errno.EILSEQ:
        check((r.status in DECODE_ERRORS or r.status == UNREPRESENTABLE) and r.read == read
              and out == want, what)
    elif e == errno.EINVAL:
        # glibc says "incomplete" for any lead at the end with fewer
        # bytes after it than its length, even where they are already
        # invalid (E0 80, F5 80, F8..FD): utf8kit reports those at once
        check((r.status == TRUNCATED or r.status in DECODE_ERRORS) and r.read == read
              and out == want, what)
    else:
        check(False, what)


def main():
    rng = random.Random(3629)
    cases = case_inputs()
    pairs = [("UTF-8", t) for t in ENCODINGS if t != "UTF-8"] + \
            [(f, "UTF-8") for f in ENCODINGS if f != "UTF-8"]
    work, skipped = [], []
    for frm, to in pairs:
        cd = iconv_open(frm, to)
        if cd is None:
            skipped.append("%s->%s" % (frm, to))
            continue
        ins = inputs(rng, frm, 1500) + (cases if frm == "UTF-8" else [])
        work.append((frm, to, [(d, iconv(cd, d)) for d in ins]))
        libc.iconv_close(cd)
    if not work:
        print("skipped: iconv has none of the pairs (install glibc's iconv modules)")
        sys.exit(77)
    for kern in kernels(L):
        if L.utf8kit_impl_select(kern) != 0:
            check(False, lambda: "cannot select kernel %s" % kern)
            continue
        for frm, to, results in work:
            for d, got in results:
                compare(kern.decode(), frm, to, d, got)
    L.utf8kit_impl_select(None)
    n = sum(len(r) for _, _, r in work)
    bad = sum(1 for _, _, r in work for _, g in r if g[0])
    print("iconv_diff: %d pairs (%s skipped), %d inputs (%d rejected by iconv), %d checks, %d failed"
          % (len(work), ", ".join(skipped) or "none", n, bad, check.checks, check.failures))
    check(bad > n // 10 and n - bad > n // 10, lambda: "too few inputs of a kind")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
