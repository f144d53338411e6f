#!/usr/bin/env python3
"""test_java_mutf8.py - Modified UTF-8 against Java's own encoder.

Java is the reference for Modified UTF-8 (the encoding of
java.io.DataOutput.writeUTF and of class files). A small Java program
(compiled and run here, fixed seed) writes random strings with
writeUTF: U+0000, ASCII, 2- and 3-octet BMP characters, supplementary
characters (surrogate pairs) and now and then an unpaired surrogate, at
lengths that cross 64-byte blocks too. For each string, on every kernel:

 - well-formed strings: utf8kit_convert UTF-16BE -> MUTF-8 gives exactly
   Java's bytes, MUTF-8 -> UTF-16BE gives the string back, MUTF-8 -> UTF-8
   gives CPython's UTF-8 of it and UTF-8 -> MUTF-8 Java's bytes again;
   CESU-8 is the same bytes with a raw 00 for U+0000;
 - with an unpaired surrogate (utf8kit works on Unicode scalar values):
   Java's bytes hold it as a 3-octet form; MUTF-8 -> UTF-16BE stops there
   with SURROGATE (or TRUNCATED for a high surrogate that ends the input,
   which could still be followed by its low half), error_len 3, and REPLACE
   puts U+FFFD in its place; UTF-16BE -> MUTF-8 stops at the unit with
   SURROGATE (TRUNCATED for a high surrogate at the end), error_len 2.

Java's standard UTF-8 decoder is not an oracle here: it does not follow
the Unicode "maximal subpart" practice for ED A0..BF (checked: it gives
fewer U+FFFD than CPython, WHATWG and utf8kit).

Skipped (exit 77) without javac and java: install default-jdk-headless.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import libtest
from libtest import Checks, kernels, load

JAVA_SRC = r"""
import java.io.*;
import java.util.Random;

public class MutfGen {
    public static void main(String[] args) throws Exception {
        Random r = new Random(20261125L);
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "US-ASCII");
        int n = Integer.parseInt(args[0]);
        for (int t = 0; t < n; t++) {
            int len = t % 50 == 0 ? 40 + r.nextInt(120) : r.nextInt(14);
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < len; i++) {
                int k = r.nextInt(100);
                if (k < 8) sb.append('\u0000');
                else if (k < 40) sb.append((char) (1 + r.nextInt(0x7F)));
                else if (k < 58) sb.append((char) (0x80 + r.nextInt(0x780)));
                else if (k < 78) {
                    char c;
                    do { c = (char) (0x800 + r.nextInt(0xF800)); } while (Character.isSurrogate(c));
                    sb.append(c);
                } else if (k < 97) sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
                else if (t % 3 == 0) sb.append((char) (0xD800 + r.nextInt(0x800)));
                else sb.append('x');
            }
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            new DataOutputStream(bo).writeUTF(sb.toString());
            byte[] m = bo.toByteArray();
            /* the UTF-16 units as they are (getBytes would replace an
             * unpaired surrogate) */
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < sb.length(); i++) line.append(String.format("%04x", (int) sb.charAt(i)));
            line.append(' ');
            for (int i = 2; i < m.length; i++) line.append(String.format("%02x", m[i] & 0xFF));
            out.println(line);
        }
        out.flush();
    }
}
"""

OK, SURROGATE, TRUNCATED = 0, 5, 7
STRICT, REPLACE = 0, 1
UTF8, UTF16BE, CESU8, MUTF8 = 1, 3, 11, 12


def java_cases(count):
    if not (shutil.which("javac") and shutil.which("java")):
        print("skipped: install default-jdk-headless (javac and java not found)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "MutfGen.java"), "w") as f:
            f.write(JAVA_SRC)
        subprocess.run(["javac", "-d", d, os.path.join(d, "MutfGen.java")], check=True)
        out = subprocess.run(["java", "-cp", d, "MutfGen", str(count)], check=True,
                             capture_output=True, text=True).stdout
    cases = []
    for line in out.splitlines():
        u16, m = line.split(" ")
        cases.append((bytes.fromhex(u16), bytes.fromhex(m)))
    return cases


L = load()
check = Checks()


def convert(frm, to, data, policy=STRICT):
    return libtest.convert(L, frm, to, data, policy)


def units(u16):
    return [int.from_bytes(u16[i:i + 2], "big") for i in range(0, len(u16), 2)]


def first_unpaired(us):
    """Index of the first surrogate not in a high-low pair, or None."""
    i = 0
    while i < len(us):
        u = us[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(us) and 0xDC00 <= us[i + 1] <= 0xDFFF:
            i += 2
            continue
        if 0xD800 <= u <= 0xDFFF:
            return i
        i += 1
    return None


def mutf8_len(u):
    """Bytes writeUTF spends on one UTF-16 unit (java.io.DataOutput)."""
    return 1 if 1 <= u <= 0x7F else 2 if u <= 0x7FF else 3


def replaced(us):
    """The units with each unpaired surrogate as U+FFFD."""
    out, i = [], 0
    while i < len(us):
        u = us[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < len(us) and 0xDC00 <= us[i + 1] <= 0xDFFF:
            out += [u, us[i + 1]]
            i += 2
            continue
        out.append(0xFFFD if 0xD800 <= u <= 0xDFFF else u)
        i += 1
    return b"".join(x.to_bytes(2, "big") for x in out)


def check_case(kern, u16, m):
    us = units(u16)
    k = first_unpaired(us)
    if k is None:
        text = u16.decode("utf-16-be")
        r, out = convert(UTF16BE, MUTF8, u16)
        check(r.status == OK and out == m,
              lambda: "%s: UTF-16BE %s -> MUTF-8 %s (status %d), Java %s"
              % (kern, u16.hex(), out.hex(), r.status, m.hex()))
        r, out = convert(MUTF8, UTF16BE, m)
        check(r.status == OK and out == u16,
              lambda: "%s: MUTF-8 %s -> UTF-16BE %s (status %d), want %s"
              % (kern, m.hex(), out.hex(), r.status, u16.hex()))
        r, out = convert(MUTF8, UTF8, m)
        check(r.status == OK and out == text.encode("utf-8"),
              lambda: "%s: MUTF-8 %s -> UTF-8 %s (status %d)" % (kern, m.hex(), out.hex(), r.status))
        r, out = convert(UTF8, MUTF8, text.encode("utf-8"))
        check(r.status == OK and out == m,
              lambda: "%s: UTF-8 -> MUTF-8 %s (status %d), Java %s"
              % (kern, out.hex(), r.status, m.hex()))
        r, out = convert(UTF16BE, CESU8, u16)
        check(r.status == OK and out == m.replace(b"\xc0\x80", b"\x00"),
              lambda: "%s: UTF-16BE %s -> CESU-8 %s (status %d)" % (kern, u16.hex(), out.hex(), r.status))
        return
    at = sum(mutf8_len(u) for u in us[:k])
    ends_high = k == len(us) - 1 and us[k] <= 0xDBFF
    want = TRUNCATED if ends_high else SURROGATE
    r, out = convert(MUTF8, UTF16BE, m)
    check((r.status, r.read, r.error_len) == (want, at, 3) and out == u16[:2 * k],
          lambda: "%s: MUTF-8 %s with unpaired U+%04X at byte %d: status %d read %d len %d"
          % (kern, m.hex(), us[k], at, r.status, r.read, r.error_len))
    r, out = convert(MUTF8, UTF16BE, m, REPLACE)
    check(r.status == OK and out == replaced(us),
          lambda: "%s: MUTF-8 %s REPLACE -> %s, want %s" % (kern, m.hex(), out.hex(), replaced(us).hex()))
    r, out = convert(UTF16BE, MUTF8, u16)
    check((r.status, r.read, r.error_len) == (want, 2 * k, 2) and out == m[:at],
          lambda: "%s: UTF-16BE %s with unpaired unit %d: status %d read %d len %d"
          % (kern, u16.hex(), k, r.status, r.read, r.error_len))


def main():
    cases = java_cases(6000)
    lone = sum(1 for u16, _ in cases if first_unpaired(units(u16)) is not None)
    for kern in kernels(L):
        if L.utf8kit_impl_select(kern) != 0:
            check(False, lambda: "cannot select kernel %s" % kern)
            continue
        for u16, m in cases:
            check_case(kern.decode(), u16, m)
    L.utf8kit_impl_select(None)
    print("java_mutf8: %d strings from Java (%d with an unpaired surrogate), %d checks, %d failed"
          % (len(cases), lone, check.checks, check.failures))
    # both kinds of case must be there, or the test checks less than it says
    check(lone > 100 and len(cases) - lone > 1000, lambda: "too few cases of a kind")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
