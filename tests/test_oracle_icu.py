#!/usr/bin/env python3
"""test_oracle_icu.py - utf8kit against ICU (an independent decoder).

Compiles tests/oracle/icu_oracle.c against ICU (pkg-config icu-uc) and the
utf8kit shared library, then runs it on every input of the third-party
cases.txt files (also checking ICU itself against their U+ lists: ICU's
u_strFromUTF8WithSub substitutes maximal subparts) and on generated
inputs, long ones with an error at every offset across the 16/32/64-byte
SIMD blocks. The helper compares, for every kernel: the decode loop, the
first error of validate, count, utf16_length and, once the conversions
exist in the library, the REPLACE and STRICT UTF-8 -> UTF-16 output and
utf8kit_repair. Skips (77) when ICU is not installed.
"""
import ctypes
import glob
import os
import shutil
import subprocess
import sys
import tempfile

src = os.environ.get("UTF8KIT_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lib = os.environ.get("UTF8KIT_LIB", "")
testdata = os.environ.get("UTF8KIT_TESTDATA", os.path.join(src, "..", "shared", "testdata"))
cc = os.environ.get("CC") or "cc"
quick = bool(os.environ.get("UTF8KIT_TEST_QUICK"))


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


if not lib or not os.path.exists(lib):
    skip("UTF8KIT_LIB (the shared library) not given")
if not shutil.which("pkg-config"):
    skip("install pkg-config libicu-dev")
p = subprocess.run(["pkg-config", "--cflags", "--libs", "icu-uc"], capture_output=True, text=True)
if p.returncode != 0:
    skip("install libicu-dev")
icu_flags = p.stdout.split()

defs = []
dl = ctypes.CDLL(lib)
if all(hasattr(dl, f) for f in ("utf8kit_utf8_to_utf16le", "utf8kit_repair")):
    defs.append("-DHAVE_CONVERT=1")
else:
    print("note: the library has no utf8kit_utf8_to_utf16le/utf8kit_repair yet: "
          "checking decode/validate/count only")

tmp = tempfile.mkdtemp(prefix="u8k_icu_")
try:
    exe = os.path.join(tmp, "icu_oracle")
    libdir = os.path.dirname(os.path.abspath(lib))
    cmd = [cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", *defs,
           "-I" + os.path.join(src, "include"),
           os.path.join(src, "tests", "oracle", "icu_oracle.c"),
           "-o", exe, os.path.abspath(lib), "-Wl,-rpath," + libdir, *icu_flags]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print(" ".join(cmd))
        print(p.stdout + p.stderr)
        sys.exit(1)
    failed = 0
    runs = []
    cases = sorted(glob.glob(os.path.join(testdata, "*", "cases.txt")))
    if cases:
        runs.append(["cases", *cases])
    else:
        print("note: no cases.txt under %s" % testdata)
    n = "400" if quick else "4000"
    for seed in ("1", "2", "3"):
        runs.append(["gen", seed, n])
    for args in runs:
        p = subprocess.run([exe, *args], capture_output=True, text=True)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr[-6000:])
        if p.returncode != 0:
            print("FAILED: icu_oracle " + " ".join(a if len(a) < 60 else "..." for a in args))
            failed += 1
    print("oracle_icu: %d runs, %d failed" % (len(runs), failed))
    sys.exit(1 if failed else 0)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
