#!/usr/bin/env python3
"""test_readme.py - the README's promises.

1. The ```c example in README.md compiles as strict C99 against the static
   library and prints exactly the ```text block that follows it.
2. include/utf8kit.h compiles on its own as C99, and as C++ when a C++
   compiler is installed (skipped with a message otherwise).
3. The Quick start gives exactly the two commands `make demo` and `make test`.
4. The demo reports the errors of examples/sample.txt where CPython's
   UTF-8 decoder finds them (the oracle), with the same bytes.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAILED:", msg)


def env(name):
    v = os.environ.get(name, "")
    if not v:
        print(f"{name} is not set (run through ctest)")
        sys.exit(1)
    return v


src = env("UTF8KIT_SOURCE_DIR")
build = env("UTF8KIT_BUILD_DIR")
cc = os.environ.get("CC") or shutil.which("cc") or "cc"
include = os.path.join(src, "include")
lib = os.path.join(build, "libutf8kit.a")
check(os.path.exists(lib), f"{lib} not built")

readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()

# 3. the two set-up commands
m = re.search(r"## Quick start\n(.*?)\n## ", readme, re.S)
check(m is not None, "README has no Quick start section")
if m:
    blocks = re.findall(r"```sh\n(.*?)```", m.group(1), re.S)
    check(len(blocks) == 1 and blocks[0].split("\n")[:-1] == ["make demo", "make test"],
          f"Quick start commands are {blocks!r}")

# 1. the example
m = re.search(r"```c\n(.*?)```\s*\n(?:[^`]*?)```text\n(.*?)```", readme, re.S)
check(m is not None, "README has no ```c block followed by a ```text block")
with tempfile.TemporaryDirectory() as tmp:
    if m:
        code, want = m.group(1), m.group(2)
        c_file = os.path.join(tmp, "example.c")
        exe = os.path.join(tmp, "example")
        open(c_file, "w", encoding="utf-8").write(code)
        cmd = [cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I" + include,
               c_file, lib, "-o", exe]
        p = subprocess.run(cmd, capture_output=True, text=True)
        check(p.returncode == 0, f"README example does not compile: {' '.join(cmd)}\n{p.stderr}")
        if p.returncode == 0:
            p = subprocess.run([exe], capture_output=True, text=True)
            check(p.returncode == 0, f"README example exits with {p.returncode}")
            check(p.stdout == want,
                  f"README example prints:\n{p.stdout}\nbut the README shows:\n{want}")

    # 2. the header alone, as C99 and as C++
    h_file = os.path.join(tmp, "header.c")
    open(h_file, "w").write('#include "utf8kit.h"\n#include "utf8kit.h"\n'
                            "int main(void) { return utf8kit_is_valid(\"\", 0) ? 0 : 1; }\n")
    p = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I" + include,
                        h_file, lib, "-o", os.path.join(tmp, "header_c")], capture_output=True,
                       text=True)
    check(p.returncode == 0, f"utf8kit.h does not compile as C99:\n{p.stderr}")
    cxx = next((shutil.which(x) for x in ("c++", "g++", "clang++") if shutil.which(x)), None)
    if cxx is None:
        print("skipped the C++ check: no C++ compiler (install g++)")
    else:
        cpp = os.path.join(tmp, "header.cpp")
        open(cpp, "w").write(
            '#include "utf8kit.h"\n'
            "#include <cstring>\n"
            "int main() {\n"
            "    const char *s = \"caf\\xC3\\xA9\";\n"
            "    utf8kit_result r = utf8kit_validate(s, std::strlen(s));\n"
            "    return (r.status == UTF8KIT_OK && utf8kit_count(s, std::strlen(s)) == 4) ? 0 : 1;\n"
            "}\n")
        exe = os.path.join(tmp, "header_cxx")
        p = subprocess.run([cxx, "-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                            "-I" + include, cpp, lib, "-o", exe], capture_output=True, text=True)
        check(p.returncode == 0, f"utf8kit.h does not compile as C++ ({cxx}):\n{p.stderr}")
        if p.returncode == 0:
            check(subprocess.run([exe]).returncode == 0, "C++ program gives wrong answers")

# 4. the demo against CPython
demo = os.path.join(build, "example_demo")
sample = os.path.join(src, "examples", "sample.txt")
if not os.path.exists(demo):
    check(False, f"{demo} not built")
else:
    p = subprocess.run([demo, sample], capture_output=True, text=True, cwd=src)
    check(p.returncode == 0, f"demo exits with {p.returncode}: {p.stderr}")
    got = [(int(a), b) for a, b in
           re.findall(r"^" + re.escape(sample) + r": byte (\d+): [a-z-]+ \(bytes ([0-9A-F ]+)\)$",
                      p.stdout, re.M)]
    data = open(sample, "rb").read()
    want, at = [], 0
    while True:
        try:
            data[at:].decode("utf-8")
            break
        except UnicodeDecodeError as e:
            want.append((at + e.start, data[at + e.start:at + e.end].hex(" ").upper()))
            at += e.end
    check(got == want, f"demo errors {got} differ from CPython's {want}")
    check(len(want) >= 5, "sample.txt should contain deliberate errors")
    chars = len(data.decode("utf-8", "replace"))
    check(f"{sample}: {len(data)} bytes, {chars} characters, {len(want)} errors" in p.stdout,
          "demo summary line differs from CPython's counts")

print(f"readme: {'ok' if failures == 0 else str(failures) + ' failed'}")
sys.exit(1 if failures else 0)
