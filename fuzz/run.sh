#!/usr/bin/env bash
# fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#
# Builds the libFuzzer targets with clang (+ASan +UBSan) in build-fuzz/
# (override with UTF8KIT_FUZZ_BUILD=dir), seeds a corpus from the inputs of
# ../shared/testdata/*/cases.txt, and fuzzes TARGET for SECONDS seconds.
# TARGET "all" fuzzes every target built, SECONDS each; "list" lists them.
# Crashes are written to fuzz/crash-TARGET-*; the working corpus lives in
# fuzz/corpus-TARGET/ (git-ignored) and grows from run to run.
# UTF8KIT_FUZZ_CMAKE_ARGS adds configure arguments (e.g. -DUTF8KIT_SIMD=OFF).
# Exit status: 0 when no target failed, 1 otherwise, 77 when this clang has
# no libFuzzer.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${UTF8KIT_FUZZ_BUILD:-$src/build-fuzz}
shared=${UTF8KIT_SHARED_DIR:-$src/../shared}
target=${1:?usage: fuzz/run.sh TARGET|all|list SECONDS [libFuzzer flags]}
secs=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
cc=${CC_FUZZ:-clang}
jobs=${JOBS:-2}

if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' |
    "$cc" -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
  echo "fuzz: skipped: $cc has no libFuzzer (install clang)"
  exit 77
fi

mkdir -p "$build"
cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DUTF8KIT_FUZZ=ON -DUTF8KIT_SANITIZE=ON -DUTF8KIT_TESTS=OFF -DUTF8KIT_BENCH=OFF \
  -DUTF8KIT_SHARED_DIR="$shared" ${UTF8KIT_FUZZ_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
read -r -a targets <"$build/fuzz_targets.txt" || true
IFS=';' read -r -a targets <<<"${targets[*]:-}"
if [ "${#targets[@]}" -eq 0 ]; then
  echo "fuzz: no target can be built yet"; exit 0
fi
if [ "$target" = list ]; then
  printf '%s\n' "${targets[@]}"; exit 0
fi
if [ "$target" != all ]; then
  found=0
  for t in "${targets[@]}"; do [ "$t" = "$target" ] && found=1; done
  [ $found = 1 ] || { echo "fuzz: unknown or unbuildable target $target (have: ${targets[*]})"; exit 1; }
  targets=("$target")
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$build/build.log" 2>&1 ||
  { tail -50 "$build/build.log"; exit 1; }

# The seed corpus: every input of the third-party cases, and for the
# targets that read a parameter header first, each input behind a few
# headers (see the targets' comments). Regenerated every run (cheap).
seeds="$build/seeds"
rm -rf "$seeds"; mkdir -p "$seeds"
python3 - "$shared/testdata" "$seeds" <<'EOF'
import glob, hashlib, os, sys
src, out = sys.argv[1], sys.argv[2]
raw = set()
for f in sorted(glob.glob(os.path.join(src, '*', 'cases.txt'))):
    for line in open(f, encoding='utf-8', errors='replace'):
        line = line.strip()
        if not line or line.startswith('#') or '->' not in line:
            continue
        h = line.split('->', 1)[0].split()
        try:
            raw.add(bytes(int(x, 16) for x in h))
        except ValueError:
            pass
raw.add(b'')
raw.add('héllo wörld €100 𝄞 日本語'.encode() * 5)
# the relatives: CESU-8 pair, Modified UTF-8 NUL, RFC 2279 5/6-octet forms;
# labels
raw.update([b'a\xed\xa0\xbd\xed\xb8\x80b', b'\xc0\x80x\x00', b'\xf8\x88\x80\x80\x80',
            b'\xfc\x84\x80\x80\x80\x80', b'\xfd\xbf\xbf\xbf\xbf\xbf', b'\xf7\xbf\xbf\xbf',
            b'UTF-8', b' utf8 ', b'unicode-1-1-utf-8', b'latin1', b'windows-1252', b'CESU-8',
            b'UTF-16LE', b'ucs-2', b'\xef\xbb\xbfabc', b'\xff\xfe\x00\x00', b'\x00\x00\xfe\xff'])
# slices of the benchmark texts (long valid runs of each script, in UTF-8,
# UTF-16 and UTF-32), also with a few bytes corrupted deep inside, so the
# SIMD paths and their error exits start from realistic text
import random
rnd = random.Random(6)
long_seeds = []
for f in sorted(glob.glob(os.path.join(src, '..', 'corpus', '*', '*.txt'))):
    data = open(f, 'rb').read()
    unit = 4 if 'utf32' in f else 2 if 'utf16' in f else 1
    for size in (300, 2000):
        if len(data) <= size:
            continue
        at = rnd.randrange(0, len(data) - size) // unit * unit
        piece = data[at:at + size]
        bad = bytearray(piece)
        for _ in range(3):
            bad[rnd.randrange(size)] = rnd.randrange(256)
        long_seeds.append((unit, piece))
        long_seeds.append((unit, bytes(bad)))
def put(d, b):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(b).hexdigest()), 'wb') as fh:
        fh.write(b)
for unit, b in long_seeds:
    put(os.path.join(out, 'raw'), b)
    # fuzz_convert/fuzz_stream: h0 = from (1 UTF-8, 2 UTF-16LE, 4 UTF-32LE);
    # fuzz_typed: h0 % 8 = function (1 utf8_to_utf16be, 3 utf16le_to_utf8,
    # 5 utf32_to_utf8)
    frm = {1: (1, 1), 2: (2, 3), 4: (4, 5)}[unit]
    for h0 in frm:
        for to in (1, 2, 4, 11):
            put(os.path.join(out, 'hdr'), bytes([h0, to, rnd.randrange(64), rnd.randrange(256)]) + b)
for b in raw:
    put(os.path.join(out, 'raw'), b)
    # header for convert/stream/legacy targets: from, to, policy/bom, cap
    for hdr in (b'\x01\x02\x00\x40', b'\x01\x01\x01\x10', b'\x01\x04\x02\xff',
                b'\x02\x01\x01\x08', b'\x01\x0b\x00\x20', b'\x0d\x01\x01\x30'):
        put(os.path.join(out, 'hdr'), hdr + b)
EOF

mkdir -p "$here"
status=0
for t in "${targets[@]}"; do
  corpus="$here/corpus-$t"
  mkdir -p "$corpus"
  case $t in
    fuzz_convert|fuzz_stream|fuzz_typed) seed="$seeds/hdr" ;;
    *) seed="$seeds/raw" ;;
  esac
  echo "== fuzz $t for ${secs}s"
  log="$build/$t.log"
  if ! (cd "$here" && "$build/fuzz/$t" -max_total_time="$secs" -max_len=4096 \
        -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$here/crash-$t-" -print_final_stats=1 \
        "$@" "$corpus" "$seed") >"$log" 2>&1; then
    echo "FAILED: $t (log: $log)"; tail -40 "$log"; status=1
  else
    grep -E '^(stat::number_of_executed_units|Done )' "$log" | tr '\n' ' '; echo
  fi
done
exit $status
