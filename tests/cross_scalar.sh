#!/bin/sh
# cross_s390x.sh - build utf8kit for s390x, a big-endian machine, with
# Debian's cross compiler, and run under qemu-user the C tests (of the
# scalar kernel, the only one there) and the command-line tool's tests.
# The portable code must not assume the byte order of its host: UTF-16LE/BE
# and UTF-32 in memory, words read eight bytes at a time by the scalar
# validator.
#
#   tests/cross_s390x.sh [BUILD_DIR]     (default: build-s390x in the tree)
#
# Needs: apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
# Exits 77 ("skipped") when they are missing. The other Python tests are
# left out: they load the library into the host's Python.
set -eu
if ! command -v s390x-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-s390x >/dev/null 2>&1; then
    echo "skipped: install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user"
    exit 77
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-s390x}
cmake -S "$src" -B "$build" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=s390x \
    -DCMAKE_C_COMPILER=s390x-linux-gnu-gcc \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=qemu-s390x;-L;/usr/s390x-linux-gnu" \
    -DUTF8KIT_BENCH=OFF -DUTF8KIT_FUZZ=OFF -DUTF8KIT_WERROR=ON >/dev/null
cmake --build "$build" -j2
# Emulation is slow: the tests shrink their sweeps.
UTF8KIT_TEST_QUICK=1 ctest --test-dir "$build" -R '\.scalar$' --output-on-failure
# The command-line tool's end-to-end tests, the s390x binary run through
# qemu by a wrapper (they run it as $UTF8KIT_CLI; the install layout part
# is left out, as it would run the installed binary directly).
if command -v python3 >/dev/null 2>&1 && [ -d "${UTF8KIT_SHARED_DIR:-$src/../shared}/testdata" ]; then
    printf '#!/bin/sh\nexec qemu-s390x -L /usr/s390x-linux-gnu "%s/cli/utf8kit" "$@"\n' "$build" >"$build/utf8kit-qemu"
    chmod +x "$build/utf8kit-qemu"
    for t in test_cli test_cli_count; do
        UTF8KIT_CLI="$build/utf8kit-qemu" UTF8KIT_SOURCE_DIR="$src" \
            UTF8KIT_TESTDATA="${UTF8KIT_SHARED_DIR:-$src/../shared}/testdata" \
            python3 "$src/tests/$t.py"
    done
fi
