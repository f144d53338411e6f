#!/usr/bin/env python3
"""test_whatwg_node.py - utf8kit's decoding against the WHATWG Encoding
Standard as Node.js implements it (TextDecoder).

Node is the oracle: for each input, utf8kit_repair must give the same
characters as new TextDecoder('utf-8').decode(bytes) (one U+FFFD for each
maximal subpart of an invalid sequence), utf8kit_is_valid must say what
TextDecoder with {fatal: true} says, and utf8kit_convert from UTF-16LE/BE
to UTF-8 under REPLACE must give what TextDecoder('utf-16le'/'utf-16be')
gives (U+FFFD for a lone surrogate and for an odd last byte). Every kernel
the library offers is checked.

Inputs (fixed seed): valid pieces of every length and invalid ones
(overlong, surrogate, above U+10FFFF, C0 C1 F5..FF, cut sequences, stray
tails) in random order with random bytes between them, short and long
(past the 1024 bytes where the vector kernels align their reads); UTF-16
units with lone and paired surrogates, of odd and even byte lengths.

Skipped (exit 77) when node is not installed: install nodejs.
"""
import ctypes
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from libtest import Options, kernels, load

L = load()
NODE = shutil.which("node") or shutil.which("nodejs")
if not NODE:
    print("skipped: install nodejs")
    sys.exit(77)

REPLACE = 1
UTF8, UTF16LE, UTF16BE = 1, 2, 3

rng = random.Random(20261125)
GOOD = [b"A", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xef\xbf\xbd", b"\xed\x9f\xbf",
        b"\xee\x80\x80", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xe0\xa0\x80", b"\xc2\x80",
        b"\xdf\xbf", b" ", b"\n"]
BAD = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf",
       b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf",
       b"\xf4\x90\x80\x80", b"\xf5\x80", b"\xff", b"\xfe", b"\xe2\x82", b"\xf0\x9f\x98",
       b"\xf0\x9f", b"\xc3", b"\xed\xa0\x80\xed\xb0\x80"]


def utf8_input(n, bad_rate):
    out = bytearray()
    while len(out) < n:
        r = rng.random()
        if r < bad_rate:
            out += rng.choice(BAD)
        elif r < bad_rate * 1.5:
            out.append(rng.randrange(256))
        else:
            out += rng.choice(GOOD)
    return bytes(out)


def utf16_input(n):
    units = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            units.append(rng.randrange(0xD800, 0xE000))  # a lone half, or a pair by chance
        elif r < 0.3:
            v = rng.randrange(0x10000, 0x110000) - 0x10000
            units += [0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)]
        else:
            units.append(rng.choice([0x41, 0xE9, 0x20AC, 0xFFFD, 0xFEFF, rng.randrange(0x10000)]))
    return units


cases = []  # (label, utf-16 order or None, bytes)
for i in range(400):
    n = rng.choice([rng.randrange(1, 80), rng.randrange(80, 700), rng.randrange(1024, 5000)])
    cases.append(("utf-8", None, utf8_input(n, rng.choice([0.0, 0.01, 0.05, 0.3]))))
for i in range(200):
    units = utf16_input(rng.choice([rng.randrange(1, 40), rng.randrange(40, 2000)]))
    for order in ("le", "be"):
        b = b"".join(u.to_bytes(2, "little" if order == "le" else "big") for u in units)
        if rng.random() < 0.2:
            b += bytes([rng.randrange(256)])  # an odd last byte
        cases.append(("utf-16" + order, order, b))

# One Node run decodes every input; what it gives back is UTF-8 (hex).
NODE_JS = r"""
const fs = require('fs');
const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = cases.map(([label, hex]) => {
  const b = Buffer.from(hex, 'hex');
  const text = new TextDecoder(label, {ignoreBOM: true}).decode(b);
  let valid = true;
  try { new TextDecoder(label, {fatal: true, ignoreBOM: true}).decode(b); } catch (e) { valid = false; }
  return [Buffer.from(text, 'utf8').toString('hex'), valid];
});
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"""
tmp = tempfile.mkdtemp(prefix="utf8kit-whatwg-")
try:
    script = os.path.join(tmp, "decode.js")
    inp, outp = os.path.join(tmp, "in.json"), os.path.join(tmp, "out.json")
    with open(script, "w") as f:
        f.write(NODE_JS)
    with open(inp, "w") as f:
        json.dump([[label, data.hex()] for label, _, data in cases], f)
    r = subprocess.run([NODE, script, inp, outp], capture_output=True, timeout=300)
    if r.returncode != 0:
        print("node failed:", r.stderr.decode(errors="replace")[-500:])
        sys.exit(1)
    with open(outp) as f:
        want = json.load(f)
finally:
    shutil.rmtree(tmp, ignore_errors=True)

failures = checks = 0


def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        if failures <= 10:
            print("FAILED:", what)


def repair(data):
    m = L.utf8kit_repair(data, len(data), None, 0)
    buf = ctypes.create_string_buffer(max(m.written, 1))
    r = L.utf8kit_repair(data, len(data), buf, m.written)
    return buf.raw[:r.written]


def from_utf16(data, order):
    enc = UTF16LE if order == "le" else UTF16BE
    opt = Options(REPLACE, 0, 0, False)
    src = ctypes.create_string_buffer(data, max(len(data), 1))
    m = L.utf8kit_convert(enc, UTF8, src, len(data), None, 0, ctypes.byref(opt))
    buf = ctypes.create_string_buffer(max(m.written, 1))
    r = L.utf8kit_convert(enc, UTF8, src, len(data), buf, m.written, ctypes.byref(opt))
    return buf.raw[:r.written]


impls = kernels(L)
for impl in impls:
    if L.utf8kit_impl_select(impl) != 0:
        continue
    for (label, order, data), (hexout, valid) in zip(cases, want):
        expect = bytes.fromhex(hexout)
        if order is None:
            got = repair(data)
            check(got == expect, "%s: repair of %s differs from TextDecoder: %s vs %s" %
                  (impl.decode(), data[:40].hex(), got[:40].hex(), expect[:40].hex()))
            check(bool(L.utf8kit_is_valid(data, len(data))) == valid,
                  "%s: is_valid(%s) is not fatal TextDecoder's %s" % (impl.decode(), data[:40].hex(), valid))
        else:
            got = from_utf16(data, order)
            check(got == expect, "%s: UTF-16%s %s differs from TextDecoder: %s vs %s" %
                  (impl.decode(), order.upper(), data[:40].hex(), got[:40].hex(), expect[:40].hex()))

print("test_whatwg_node: %d kernels, %d inputs, %d checks, %d failed" %
      (len(impls), len(cases), checks, failures))
sys.exit(1 if failures else 0)
