#!/bin/sh
# cross.sh - build utf8kit for another machine with Debian's cross
# compiler, and run under qemu-user its C tests (each kernel that machine
# has) and the command-line tool's tests:
#   aarch64  the NEON kernels, and the scalar ones
#   s390x    big-endian (scalar kernels only): UTF-16LE/BE and UTF-32 in
#            memory, words read eight bytes at a time by the scalar validator
#   armhf    32-bit, ILP32 (scalar kernels only): size_t and long of 32
#            bits, file offsets
#
#   tests/cross.sh aarch64|s390x|armhf [BUILD_DIR]   (default: build-ARCH)
#
# Needs: apt-get install qemu-user and the machine's compiler and C
# library: gcc-aarch64-linux-gnu libc6-dev-arm64-cross, gcc-s390x-linux-gnu
# libc6-dev-s390x-cross or gcc-arm-linux-gnueabihf libc6-dev-armhf-cross.
# Exits 77 ("skipped") when they are missing. The other Python tests are
# left out: they load the library into the host's Python.
set -eu
arch=${1:?usage: tests/cross.sh aarch64|s390x|armhf [BUILD_DIR]}
kernels=scalar
case $arch in
    aarch64) triple=aarch64-linux-gnu; qemu=qemu-aarch64; proc=aarch64; kernels='(scalar|neon)'
             pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross" ;;
    s390x) triple=s390x-linux-gnu; qemu=qemu-s390x; proc=s390x; pkgs="gcc-s390x-linux-gnu libc6-dev-s390x-cross" ;;
    armhf) triple=arm-linux-gnueabihf; qemu=qemu-arm; proc=armv7l; pkgs="gcc-arm-linux-gnueabihf libc6-dev-armhf-cross" ;;
    *) echo "unknown machine: $arch" >&2; exit 2 ;;
esac
if ! command -v "$triple-gcc" >/dev/null 2>&1 || ! command -v "$qemu" >/dev/null 2>&1; then
    echo "skipped: install $pkgs qemu-user"
    exit 77
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$src/build-$arch}
shared=${UTF8KIT_SHARED_DIR:-$src/../shared}
cmake -S "$src" -B "$build" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$proc" \
    -DCMAKE_C_COMPILER="$triple-gcc" \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=$qemu;-L;/usr/$triple" \
    -DUTF8KIT_BENCH=OFF -DUTF8KIT_FUZZ=OFF -DUTF8KIT_WERROR=ON >/dev/null
cmake --build "$build" -j2
# Emulation is slow: the tests shrink their sweeps.
UTF8KIT_TEST_QUICK=1 ctest --test-dir "$build" -R "\\.$kernels\$" --output-on-failure
# The command-line tool's end-to-end tests, the cross-built binary run
# through qemu by a wrapper (they run it as $UTF8KIT_CLI; the install
# layout part is left out, as it would run the installed binary directly).
if command -v python3 >/dev/null 2>&1 && [ -d "$shared/testdata" ]; then
    printf '#!/bin/sh\nexec %s -L /usr/%s "%s/cli/utf8kit" "$@"\n' "$qemu" "$triple" "$build" \
        >"$build/utf8kit-qemu"
    chmod +x "$build/utf8kit-qemu"
    for t in test_cli test_cli_count; do
        UTF8KIT_CLI="$build/utf8kit-qemu" UTF8KIT_SOURCE_DIR="$src" \
            UTF8KIT_TESTDATA="$shared/testdata" python3 "$src/tests/$t.py"
    done
fi
