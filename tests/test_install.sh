#!/usr/bin/env bash
# tests/test_install.sh BUILD_DIR - installs the build in BUILD_DIR into a
# temporary prefix, then builds tests/install/consumer.c against it twice:
# through pkg-config (shared and static) and through find_package(utf8kit),
# and runs each program. Run by .ci/run; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: tests/test_install.sh BUILD_DIR}" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
echo "installed into $prefix:"; (cd "$prefix" && find . -type f -o -type l | sort | sed 's/^/  /')
test -f "$prefix/include/utf8kit.h"
pc=$(find "$prefix" -name utf8kit.pc | head -1)
[ -n "$pc" ] || { echo "no utf8kit.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

# pkg-config must point into the prefix even though the build was
# configured with another one: the .pc finds its prefix from its own place
# (${pcfiledir}), so an installed tree can be moved
export PKG_CONFIG_PATH="$(dirname "$pc")"
pcflags=$(pkg-config --cflags --libs utf8kit)
echo "pkg-config: $pcflags"
case "$pcflags" in *"$prefix"*) ;; *) echo "pkg-config does not point into $prefix"; exit 1 ;; esac
"$cc" -std=c99 -Wall -Wextra -Werror "$here/install/consumer.c" $pcflags -o "$tmp/pc_shared"
LD_LIBRARY_PATH="$libdir" "$tmp/pc_shared"
"$cc" -std=c99 -Wall -Wextra -Werror "$here/install/consumer.c" \
  $(pkg-config --cflags utf8kit) "$libdir/libutf8kit.a" -o "$tmp/pc_static"
"$tmp/pc_static"

cmake -S "$here/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" >"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; exit 1; }
cmake --build "$tmp/consumer" >>"$tmp/consumer.log" 2>&1 || { cat "$tmp/consumer.log"; exit 1; }
LD_LIBRARY_PATH="$libdir" "$tmp/consumer/consumer"
"$tmp/consumer/consumer_static"
# the shared program must run against the installed library, not the build
ldd "$tmp/consumer/consumer" | grep "$prefix"
echo "install test: ok"
