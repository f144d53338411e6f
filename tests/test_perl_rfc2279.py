#!/usr/bin/env python3
"""test_perl_rfc2279.py - the RFC 2279 form (5- and 6-octet sequences,
values up to 7FFFFFFF) against Perl's encoder and decoder.

Perl keeps strings in an extended UTF-8 that is RFC 2279's for values up
to 7FFFFFFF: chr(v) with utf8::encode gives the octets of v, and
utf8::decode accepts exactly the well-formed sequences (no overlong form,
no stray or missing continuation byte). utf8kit's UTF8KIT_UTF8_RFC2279 is
the same encoding with two differences, left out of the comparison:
surrogate values (ED A0..BF xx) are invalid in utf8kit (RFC 3629 and
draft-yergeau-rfc2279bis exclude them) and Perl accepts them, and Perl
has 7- and 13-octet forms after FE and FF, which RFC 2279 does not.

Checked on every kernel, fixed seed:
 - values from every length class and their bounds: UTF-32LE -> RFC 2279
   gives Perl's octets, one value at a time and all of them in one call,
   and RFC 2279 -> UTF-32LE gives the values back;
 - strings of those encodings, half of them broken (a byte replaced,
   dropped or added, or the end cut off): utf8kit (STRICT) accepts
   exactly those Perl accepts, with the same values.

Skipped (exit 77) without perl (Debian's perl-base is always there).
"""
import random
import shutil
import subprocess
import sys

import libtest
from libtest import Checks, kernels, load

PERL_ENCODE = r"""
no warnings;
while (my $l = <STDIN>) {
    chomp $l;
    my $s = chr(hex($l));
    utf8::encode($s);
    print unpack("H*", $s), "\n";
}
"""

PERL_DECODE = r"""
no warnings;
while (my $l = <STDIN>) {
    chomp $l;
    my $b = pack("H*", $l);
    if (utf8::decode($b)) {
        print "ok ", join(",", map { sprintf("%x", ord) } split(//, $b)), "\n";
    } else {
        print "bad\n";
    }
}
"""

OK = 0
STRICT = 0
UTF32LE, RFC2279 = 4, 13

L = load()
check = Checks()


def perl(script, lines):
    if not shutil.which("perl"):
        print("skipped: install perl")
        sys.exit(77)
    out = subprocess.run(["perl", "-e", script], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def convert(frm, to, data):
    return libtest.convert(L, frm, to, data, STRICT)


def u32(values):
    return b"".join(v.to_bytes(4, "little") for v in values)


def value_cases(rng):
    classes = [(0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, 0x10FFFF),
               (0x110000, 0x1FFFFF), (0x200000, 0x3FFFFFF), (0x4000000, 0x7FFFFFFF)]
    vals = []
    for lo, hi in classes:
        vals += [lo, lo + 1, hi - 1, hi]
        vals += [rng.randint(lo, hi) for _ in range(300)]
    # surrogates are invalid in utf8kit (see the header)
    return [v for v in vals if not 0xD800 <= v <= 0xDFFF]


def byte_cases(rng, enc):
    """Strings of 1-4 of Perl's encodings, half of them then broken by a
    byte replaced, dropped or added, or cut short."""
    pool = [0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
            0xDF, 0xE0, 0xE1, 0xEF, 0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD]
    cases = []
    for _ in range(20000):
        b = bytearray(b"".join(rng.choice(enc) for _ in range(rng.randint(1, 4))))
        how = rng.randrange(8)
        i = rng.randrange(len(b))
        if how == 0:
            b[i] = rng.choice(pool)
        elif how == 1 and len(b) > 1:
            del b[i]
        elif how == 2:
            b.insert(i, rng.choice(pool))
        elif how == 3 and len(b) > 1:
            del b[i:]
        cases.append(bytes(b))
    return cases


def has_surrogate(b):
    return any(b[i] == 0xED and 0xA0 <= b[i + 1] <= 0xBF for i in range(len(b) - 1))


def main():
    rng = random.Random(2279)
    vals = value_cases(rng)
    enc = [bytes.fromhex(h) for h in perl(PERL_ENCODE, ["%x" % v for v in vals])]
    raw = byte_cases(rng, enc)
    dec = perl(PERL_DECODE, [b.hex() for b in raw])
    compared = 0
    for kern in kernels(L):
        if L.utf8kit_impl_select(kern) != 0:
            check(False, lambda: "cannot select kernel %s" % kern)
            continue
        k = kern.decode()
        for v, e in zip(vals, enc):
            r, out = convert(UTF32LE, RFC2279, u32([v]))
            check(r.status == OK and out == e,
                  lambda: "%s: U+%X -> %s (status %d), Perl %s" % (k, v, out.hex(), r.status, e.hex()))
            r, out = convert(RFC2279, UTF32LE, e)
            check(r.status == OK and out == u32([v]),
                  lambda: "%s: %s -> %s (status %d), want %X" % (k, e.hex(), out.hex(), r.status, v))
        r, out = convert(UTF32LE, RFC2279, u32(vals))
        check(r.status == OK and out == b"".join(enc),
              lambda: "%s: all %d values in one call differ from Perl" % (k, len(vals)))
        r, out = convert(RFC2279, UTF32LE, b"".join(enc))
        check(r.status == OK and out == u32(vals),
              lambda: "%s: Perl's octets of all values in one call decode differently" % k)
        for b, d in zip(raw, dec):
            if has_surrogate(b):
                continue
            r, out = convert(RFC2279, UTF32LE, b)
            compared += 1
            if d == "bad":
                check(r.status != OK,
                      lambda: "%s: %s accepted (%s), Perl rejects it" % (k, b.hex(), out.hex()))
            else:
                want = u32([int(x, 16) for x in d[3:].split(",") if x])
                check(r.status == OK and out == want,
                      lambda: "%s: %s -> status %d %s, Perl accepts it as %s"
                      % (k, b.hex(), r.status, out.hex(), d[3:]))
    L.utf8kit_impl_select(None)
    accepted = sum(1 for b, d in zip(raw, dec) if d != "bad" and not has_surrogate(b))
    print("perl_rfc2279: %d values, %d byte strings (%d valid), %d compared, %d checks, %d failed"
          % (len(vals), len(raw), accepted, compared, check.checks, check.failures))
    check(accepted > 2000 and len(raw) - accepted > 2000, lambda: "too few cases of a kind")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
