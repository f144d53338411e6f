#!/bin/sh
# cross_aarch64.sh - build utf8kit for AArch64 with Debian's cross compiler
# and run the C tests (scalar and neon kernels) under qemu-user.
#
#   tests/cross_aarch64.sh [BUILD_DIR]     (default: build-aarch64 in the tree)
#
# Needs: apt-get install gcc-aarch64-linux-gnu qemu-user libc6-dev-arm64-cross
# Exits 77 ("skipped") when they are missing. The Python tests are left
# out: they load the library into the host's Python.
set -eu
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1; then
    echo "skipped: install gcc-aarch64-linux-gnu qemu-user"
    exit 77
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-aarch64}
cmake -S "$src" -B "$build" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
    -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=qemu-aarch64;-L;/usr/aarch64-linux-gnu" \
    -DUTF8KIT_BENCH=OFF -DUTF8KIT_FUZZ=OFF -DUTF8KIT_WERROR=ON >/dev/null
cmake --build "$build" -j2
# Emulation is slow: the tests shrink their sweeps.
UTF8KIT_TEST_QUICK=1 ctest --test-dir "$build" -R '\.(scalar|neon)$' --output-on-failure
