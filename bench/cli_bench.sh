#!/bin/sh
# cli_bench.sh - the utf8kit command against `dd bs=1M` on a large cached file.
#
#   bench/cli_bench.sh [UTF8KIT] [SIZE_MB]
#
# Builds a SIZE_MB (default 300) mixed-script UTF-8 file in /tmp from the
# benchmark corpus (every language of /work/shared/corpus, concatenated
# over and over), reads it once so that it is in the page cache, then times
# each command (best of 3) and reports its throughput, its ratio to dd
# reading the same file, and its peak memory (GNU time's maximum RSS).
# The file is deleted at the end, even on ^C.
set -eu
CLI=${1:-build/cli/utf8kit}
SIZE_MB=${2:-300}
CORPUS=${UTF8KIT_CORPUS:-$(dirname "$0")/../../shared/corpus}
F=$(mktemp /tmp/utf8kit-bench-XXXXXX.txt)
trap 'rm -f "$F" "$F.seed"' EXIT INT TERM

[ -x "$CLI" ] || { echo "cli_bench.sh: $CLI is not an executable" >&2; exit 2; }
cat "$CORPUS"/wikipedia_mars/*.utf8.txt "$CORPUS"/lipsum/*.utf8.txt > "$F.seed"
: > "$F"
while [ "$(stat -c %s "$F")" -lt $((SIZE_MB * 1048576)) ]; do
    cat "$F.seed" >> "$F"
done
BYTES=$(stat -c %s "$F")
cat "$F" > /dev/null

# best_of CMD... : prints the best wall time of 3 runs, in seconds
best_of() {
    best=
    for i in 1 2 3; do
        t0=$(date +%s.%N)
        sh -c "$1" > /dev/null 2>&1 || true
        t1=$(date +%s.%N)
        best=$(echo "$t0 $t1 ${best:-}" | awk '{d=$2-$1; if ($3 == "" || d < $3) print d; else print $3}')
    done
    echo "$best"
}

peak_mib() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M sh -c "exec $1" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}'
    else
        echo "?"
    fi
}

DD=$(best_of "dd if=$F of=/dev/null bs=1M")
printf '%s bytes (%s MiB), kernel: %s\n' "$BYTES" "$SIZE_MB" "$("$CLI" --version)"
printf '%-44s %8s %9s %8s %9s\n' command seconds "GB/s" "x dd" "peak MiB"
row() {
    t=$(best_of "$2")
    m=$(peak_mib "$2")
    echo "$1 $t $DD $BYTES $m" | awk '{printf "%-44s %8.3f %9.2f %8.2f %9s\n", $1, $2, $4/$2/1e9, $3/$2, $5}'
}
row "dd_bs=1M" "dd if=$F of=/dev/null bs=1M"
row "utf8kit_check" "$CLI check $F"
row "utf8kit_count" "$CLI count $F"
row "utf8kit_check_--jobs_2" "$CLI check --jobs 2 $F"
row "utf8kit_count_--jobs_2" "$CLI count --jobs 2 $F"
row "utf8kit_fix_(to_/dev/null)" "$CLI fix -q $F"
row "utf8kit_convert_-t_UTF-16LE_(to_/dev/null)" "$CLI convert -f UTF-8 -t UTF-16LE $F"
row "utf8kit_convert_-t_UTF-32LE_(to_/dev/null)" "$CLI convert -f UTF-8 -t UTF-32LE $F"
