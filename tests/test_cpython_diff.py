#!/usr/bin/env python3
"""test_cpython_diff.py - utf8kit's conversions against CPython's codecs.

CPython is the oracle (utf-8, utf-16-le/be, utf-32-le/be, latin-1, ascii,
cp1252): for each input, utf8kit_convert under STRICT must stop where
CPython's UnicodeDecodeError starts (read == start, error_len == end -
start) with the output of the valid prefix, and under REPLACE must give
exactly data.decode(codec, 'replace'); between any two of these codecs,
what CPython's decode then encode (errors='replace') gives. utf8kit_repair must give
data.decode('utf-8', 'replace').encode('utf-8'), and the typed functions
the same as the generic call. Every kernel the library offers is checked.

Inputs (fixed seed): random bytes, random valid text in the codec with
byte flips / truncations / insertions / deletions, long texts crossing
64-byte blocks, and every input of the third-party cases.txt files.

Deliberate differences, not compared:
 - Encoding errors: CPython's UnicodeEncodeError covers a whole run of
   unencodable characters ('a\\xe9\\xe9'.encode('ascii') -> 1..3); utf8kit
   reports one character at a time, so only the start is compared and
   error_len must be the UTF-8 length of that one character.
 - cp1252: CPython leaves 81 8D 8F 90 9D undefined; utf8kit follows the
   WHATWG index, which maps them to U+0081 etc. Those bytes are compared
   with the WHATWG values instead.
"""
import ctypes
import random
import sys
import time

import libtest
from libtest import Options, Result, case_inputs, kernels, load

L = load()


OK, OUTPUT_TOO_SMALL, UNREPRESENTABLE = 0, 8, 10
STRICT, REPLACE, SKIP = 0, 1, 2
ENC = {"utf-8": 1, "utf-16-le": 2, "utf-16-be": 3, "utf-32-le": 4, "utf-32-be": 5,
       "latin-1": 8, "ascii": 9, "cp1252": 10}
UTF32LE = 4

L.utf8kit_max_output_size.restype = ctypes.c_size_t
L.utf8kit_max_output_size.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t]
for name, unit_in, unit_out in [("utf8_to_utf16le", ctypes.c_char_p, ctypes.c_void_p),
                                ("utf8_to_utf16be", ctypes.c_char_p, ctypes.c_void_p),
                                ("utf8_to_utf32", ctypes.c_char_p, ctypes.c_void_p),
                                ("utf16le_to_utf8", ctypes.c_void_p, ctypes.c_void_p),
                                ("utf16be_to_utf8", ctypes.c_void_p, ctypes.c_void_p),
                                ("utf32_to_utf8", ctypes.c_void_p, ctypes.c_void_p),
                                ("utf8_to_latin1", ctypes.c_char_p, ctypes.c_void_p)]:
    f = getattr(L, "utf8kit_" + name)
    f.restype = Result
    f.argtypes = [unit_in, ctypes.c_size_t, unit_out, ctypes.c_size_t, ctypes.c_int]

failures = 0
checks = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 40:
        print("FAILED:", msg)


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg())


def convert(frm, to, data, policy, substitute=0):
    """Measure, then convert into an exact-size buffer. Returns (result, bytes)."""
    opt = Options(policy, substitute, 0, False)
    src = ctypes.create_string_buffer(data, len(data))
    m = L.utf8kit_convert(frm, to, src, len(data), None, 0, ctypes.byref(opt))
    buf = ctypes.create_string_buffer(max(m.written, 1))
    r = L.utf8kit_convert(frm, to, src, len(data), buf, m.written, ctypes.byref(opt))
    same = (m.status, m.read, m.written, m.error_len, m.replaced) == \
           (r.status, r.read, r.written, r.error_len, r.replaced)
    check(same, lambda: "measure != convert for %d->%d %r" % (frm, to, data))
    check(r.written <= L.utf8kit_max_output_size(frm, to, len(data)),
          lambda: "max_output_size too small %d->%d %r" % (frm, to, data))
    return r, buf.raw[:r.written]


WHATWG_1252 = {0x81: "\x81", 0x8D: "\x8d", 0x8F: "\x8f", 0x90: "\x90", 0x9D: "\x9d"}


def py_decode(codec, data, errors):
    if codec == "cp1252":
        # WHATWG: the five bytes CPython leaves undefined are C1 controls.
        return "".join(WHATWG_1252.get(b) or bytes([b]).decode("cp1252") for b in data)
    return data.decode(codec, errors)


def compare_decode(codec, data):
    enc = ENC[codec]
    # STRICT
    r, out = convert(enc, UTF32LE, data, STRICT)
    try:
        text = py_decode(codec, data, "strict")
        check(r.status == OK and r.read == len(data) and out == text.encode("utf-32-le"),
              lambda: "%s strict %r: status %d read %d" % (codec, data, r.status, r.read))
    except UnicodeDecodeError as e:
        want = data[:e.start].decode(codec).encode("utf-32-le")
        check(r.status not in (OK, OUTPUT_TOO_SMALL) and r.read == e.start and
              r.error_len == e.end - e.start and out == want,
              lambda: "%s strict %r: got status %d at %d len %d, CPython %s at %d..%d" %
              (codec, data, r.status, r.read, r.error_len, e.reason, e.start, e.end))
    # REPLACE, to UTF-32 and to UTF-8
    text = py_decode(codec, data, "replace")
    r, out = convert(enc, UTF32LE, data, REPLACE)
    check(r.status == OK and out == text.encode("utf-32-le"),
          lambda: "%s replace %r: got %r want %r" %
          (codec, data, out.decode("utf-32-le", "replace"), text))
    if codec != "utf-8":
        r, out = convert(enc, ENC["utf-8"], data, REPLACE)
        check(r.status == OK and out == text.encode("utf-8"),
              lambda: "%s replace->utf8 %r" % (codec, data))


def typed(fname, data, in_unit, out_unit, policy):
    n = len(data) // in_unit
    src = ctypes.create_string_buffer(data, max(len(data), 1))
    f = getattr(L, "utf8kit_" + fname)
    m = f(ctypes.cast(src, f.argtypes[0]) if in_unit > 1 else data, n, None, 0, policy)
    buf = (ctypes.c_uint32 * (max(m.written * out_unit, 4) // 4 + 1))()
    r = f(ctypes.cast(src, f.argtypes[0]) if in_unit > 1 else data, n, buf, m.written, policy)
    check((m.status, m.read, m.written) == (r.status, r.read, r.written),
          lambda: "%s measure %r" % (fname, data))
    return r, bytes(buf)[:r.written * out_unit]


def compare_utf8(data):
    """UTF-8 input: the typed functions, repair, and encoding to 8-bit sets."""
    text = data.decode("utf-8", "replace")
    # repair
    m = L.utf8kit_repair(data, len(data), None, 0)
    buf = ctypes.create_string_buffer(max(m.written, 1))
    r = L.utf8kit_repair(data, len(data), buf, m.written)
    want = text.encode("utf-8")
    check(r.status == OK and buf.raw[:r.written] == want,
          lambda: "repair %r: %r want %r" % (data, buf.raw[:r.written], want))
    # typed, REPLACE
    for fname, codec, unit in [("utf8_to_utf16le", "utf-16-le", 2),
                               ("utf8_to_utf16be", "utf-16-be", 2),
                               ("utf8_to_utf32", "utf-32-le" if sys.byteorder == "little"
                                else "utf-32-be", 4)]:
        r, out = typed(fname, data, 1, unit, REPLACE)
        check(r.status == OK and out == text.encode(codec),
              lambda: "%s replace %r" % (fname, data))
    # typed, STRICT: stops where CPython does
    try:
        data.decode("utf-8")
        err = None
    except UnicodeDecodeError as e:
        err = e
    r, out = typed("utf8_to_utf16le", data, 1, 2, STRICT)
    if err is None:
        check(r.status == OK and r.read == len(data), lambda: "utf16 strict %r" % data)
    else:
        check(r.read == err.start and r.error_len == err.end - err.start and
              out == data[:err.start].decode().encode("utf-16-le"),
              lambda: "utf8_to_utf16le strict %r: %d/%d vs %d..%d" %
              (data, r.read, r.error_len, err.start, err.end))
    # to Latin-1 / ASCII (encoding errors: see the module comment)
    for codec in ("latin-1", "ascii"):
        r, out = convert(ENC["utf-8"], ENC[codec], data, REPLACE)
        check(r.status == OK and out == text.encode(codec, "replace"),
              lambda: "utf8->%s replace %r" % (codec, data))
        if err is None:
            r, out = convert(ENC["utf-8"], ENC[codec], data, STRICT)
            try:
                want = text.encode(codec)
                check(r.status == OK and out == want, lambda: "utf8->%s %r" % (codec, data))
            except UnicodeEncodeError as e:
                off = len(text[:e.start].encode("utf-8"))
                clen = len(text[e.start].encode("utf-8"))
                check(r.status == UNREPRESENTABLE and r.read == off and r.error_len == clen and
                      out == text[:e.start].encode(codec),
                      lambda: "utf8->%s strict %r: %d at %d" % (codec, data, r.status, r.read))
    r, out = typed("utf8_to_latin1", data, 1, 1, REPLACE)
    check(r.status == OK and out == text.encode("latin-1", "replace"),
          lambda: "utf8_to_latin1 %r" % data)


def compare_units_to_utf8(codec, data):
    """The typed UTF-16/UTF-32 -> UTF-8 functions on whole units."""
    unit = 2 if "16" in codec else 4
    if unit == 4 and codec != ("utf-32-le" if sys.byteorder == "little" else "utf-32-be"):
        return
    data = data[:len(data) // unit * unit]
    fname = {"utf-16-le": "utf16le_to_utf8", "utf-16-be": "utf16be_to_utf8"}.get(codec,
                                                                                "utf32_to_utf8")
    r, out = typed(fname, data, unit, 1, REPLACE)
    want = data.decode(codec, "replace").encode("utf-8")
    check(r.status == OK and out == want, lambda: "%s replace %r" % (fname, data))
    r, out = typed(fname, data, unit, 1, STRICT)
    try:
        data.decode(codec)
        check(r.status == OK, lambda: "%s strict %r" % (fname, data))
    except UnicodeDecodeError as e:
        check(r.read * unit == e.start and r.error_len * unit == e.end - e.start,
              lambda: "%s strict %r: %d/%d vs %d..%d" %
              (fname, data, r.read, r.error_len, e.start, e.end))


WHATWG_1252_ENC = {v: bytes([k]) for k, v in WHATWG_1252.items()}


def py_encode(codec, text, errors):
    if codec == "cp1252":
        out = []
        for i, c in enumerate(text):
            try:
                out.append(WHATWG_1252_ENC.get(c) or c.encode("cp1252"))
            except UnicodeEncodeError:
                if errors == "strict":
                    raise UnicodeEncodeError("cp1252", text, i, i + 1, "unrepresentable")
                out.append(b"?")
        return b"".join(out)
    return text.encode(codec, errors)


def unit_len(codec, c):
    """Bytes character c takes in source codec."""
    if codec == "utf-8":
        return len(c.encode("utf-8"))
    if codec.startswith("utf-16"):
        return 2 if ord(c) < 0x10000 else 4
    if codec.startswith("utf-32"):
        return 4
    return 1


def compare_pair(src_codec, dst_codec, data):
    """Any pair: decode with CPython, encode with CPython."""
    frm, to = ENC[src_codec], ENC[dst_codec]
    text = py_decode(src_codec, data, "replace")
    r, out = convert(frm, to, data, REPLACE)
    want = py_encode(dst_codec, text, "replace")
    check(r.status == OK and out == want,
          lambda: "%s->%s replace %r: %r want %r" % (src_codec, dst_codec, data, out, want))
    r, out = convert(frm, to, data, STRICT)
    try:
        text = py_decode(src_codec, data, "strict")
    except UnicodeDecodeError as e:
        # the first decoding error, unless a character before it is
        # unrepresentable in the target
        prefix = data[:e.start].decode(src_codec)
        try:
            want = py_encode(dst_codec, prefix, "strict")
            check(r.read == e.start and r.error_len == e.end - e.start and out == want,
                  lambda: "%s->%s strict %r: %d/%d vs %d..%d" %
                  (src_codec, dst_codec, data, r.read, r.error_len, e.start, e.end))
        except UnicodeEncodeError as f:
            off = sum(unit_len(src_codec, c) for c in prefix[:f.start])
            check(r.status == UNREPRESENTABLE and r.read == off,
                  lambda: "%s->%s strict %r: unrepresentable at %d, got %d at %d" %
                  (src_codec, dst_codec, data, off, r.status, r.read))
        return
    try:
        want = py_encode(dst_codec, text, "strict")
        check(r.status == OK and out == want,
              lambda: "%s->%s strict %r: status %d" % (src_codec, dst_codec, data, r.status))
    except UnicodeEncodeError as f:
        off = sum(unit_len(src_codec, c) for c in text[:f.start])
        check(r.status == UNREPRESENTABLE and r.read == off and
              r.error_len == unit_len(src_codec, text[f.start]) and
              out == py_encode(dst_codec, text[:f.start], "strict"),
              lambda: "%s->%s strict %r: unrepresentable at %d, got %d at %d" %
              (src_codec, dst_codec, data, off, r.status, r.read))


# ---- inputs -----------------------------------------------------------------------

rng = random.Random(20240229)



def random_text(n):
    return libtest.random_text(rng, n)


def mutate(b):
    return libtest.mutate(rng, b)


def inputs_for(codec, count, cases):
    ins = list(cases)  # the third-party inputs, read in every codec
    for i in range(count):
        k = rng.random()
        if k < 0.2:
            ins.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))))
        else:
            # short texts, and long ones crossing several 64-byte blocks
            n = rng.randint(0, 12) if k < 0.7 else rng.randint(30, 150)
            t = random_text(n)
            if codec in ("latin-1", "ascii", "cp1252"):
                t = "".join(c for c in t if ord(c) < 256)
                b = t.encode("latin-1")
            else:
                b = t.encode(codec)
            ins.append(b if rng.random() < 0.3 else mutate(b))
    # for UTF-16/32: lone and misplaced surrogates built on purpose
    if "16" in codec:
        for _ in range(count // 4):
            units = [rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x41, 0xFFFD, 0xD834, 0xDD1E])
                     for _ in range(rng.randint(1, 8))]
            b = b"".join(u.to_bytes(2, "little" if codec.endswith("le") else "big")
                         for u in units)
            ins.append(b + (b"\x00" if rng.random() < 0.2 else b""))
    if "32" in codec:
        for _ in range(count // 4):
            units = [rng.choice([0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x41, 0x10FFFF, 0x80000000])
                     for _ in range(rng.randint(1, 6))]
            b = b"".join(u.to_bytes(4, "little" if codec.endswith("le") else "big")
                         for u in units)
            ins.append(b + bytes(rng.randint(0, 3)))
    return ins


def main():
    t0 = time.time()
    cases = case_inputs()
    impls = kernels(L)
    per_codec = 1200
    for impl in impls:
        if L.utf8kit_impl_select(impl) != 0:
            fail("cannot select %s" % impl)
            continue
        rng.seed(20240229)
        for codec in ENC:
            for data in inputs_for(codec, per_codec, cases):
                compare_decode(codec, data)
                if codec == "utf-8":
                    compare_utf8(data)
                elif codec in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
                    compare_units_to_utf8(codec, data)
            # every pair, on fewer inputs
            for data in inputs_for(codec, per_codec // 12, []):
                for target in ENC:
                    compare_pair(codec, target, data)
        print("kernel %s: done (%.1f s)" % (impl.decode(), time.time() - t0))
    print("cpython_diff: %d passed, %d failed" % (checks - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
