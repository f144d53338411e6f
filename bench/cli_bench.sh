#!/bin/sh
# cli_bench.sh - the utf8kit command against `dd bs=1M` on a large cached file.
#
#   bench/cli_bench.sh [UTF8KIT] [SIZE_MB]
#
# Builds a SIZE_MB (default 300) mixed-script UTF-8 file in /tmp from the
# benchmark corpus (every language of /work/shared/corpus, concatenated
# over and over), reads it once so that it is in the page cache, then times
# each command (best of 3) and reports its throughput, its ratio to dd
# reading the same file (by wall time and by CPU time), and its peak memory
# (GNU time's maximum RSS). Output of every command goes to /dev/null, as
# dd's does.
# The file is deleted at the end, even on ^C.
set -eu
CLI=${1:-build/cli/utf8kit}
SIZE_MB=${2:-300}
CORPUS=${UTF8KIT_CORPUS:-$(dirname "$0")/../../shared/corpus}
F=$(mktemp /tmp/utf8kit-bench-XXXXXX.txt)
trap 'rm -f "$F" "$F.seed" "$F.time"' EXIT INT TERM

[ -x "$CLI" ] || { echo "cli_bench.sh: $CLI is not an executable" >&2; exit 2; }
cat "$CORPUS"/wikipedia_mars/*.utf8.txt "$CORPUS"/lipsum/*.utf8.txt > "$F.seed"
: > "$F"
while [ "$(stat -c %s "$F")" -lt $((SIZE_MB * 1048576)) ]; do
    cat "$F.seed" >> "$F"
done
BYTES=$(stat -c %s "$F")
cat "$F" > /dev/null

# measure CMD: runs it 3 times under GNU time; prints the best wall time,
# the best CPU time (user + sys) and the peak RSS in MiB. On a shared
# machine the CPU time is the steadier figure: wall time includes waiting
# for a core.
measure() {
    for i in 1 2 3; do
        /usr/bin/time -f "%e %U %S %M" -o "$F.time" sh -c "exec $1" > /dev/null 2>&1 || true
        cat "$F.time"
    done | awk 'BEGIN {w = 1e9; c = 1e9; m = 0}
        {if ($1 < w) w = $1; if ($2 + $3 < c) c = $2 + $3; if ($4 > m) m = $4}
        END {if (w < 0.001) w = 0.001; if (c < 0.001) c = 0.001; printf "%.3f %.3f %.1f\n", w, c, m / 1024}'
}

command -v /usr/bin/time > /dev/null || { echo "cli_bench.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
trap 'rm -f "$F" "$F.seed" "$F.time"' EXIT INT TERM
set -- $(measure "dd if=$F of=/dev/null bs=1M")
DDW=$1 DDC=$2
printf '%s bytes (%s MiB), %s\n' "$BYTES" "$SIZE_MB" "$("$CLI" --version)"
printf '%-40s %7s %7s %8s %8s %9s %9s\n' command "wall s" "cpu s" "GB/s" "x dd" "x dd cpu" "peak MiB"
row() {
    set -- "$1" $(measure "$2")
    echo "$1 $2 $3 $4 $DDW $DDC $BYTES" | awk '{printf "%-40s %7.3f %7.3f %8.2f %8.2f %9.2f %9.1f\n",
        $1, $2, $3, $7 / $2 / 1e9, $5 / $2, $6 / $3, $4}'
}
row "dd_bs=1M" "dd if=$F of=/dev/null bs=1M"
row "check" "$CLI check $F"
row "count" "$CLI count $F"
row "check_--jobs_2" "$CLI check --jobs 2 $F"
row "count_--jobs_2" "$CLI count --jobs 2 $F"
row "fix" "$CLI fix -q $F"
row "convert_-t_UTF-16LE" "$CLI convert -f UTF-8 -t UTF-16LE $F"
row "convert_-t_UTF-32LE" "$CLI convert -f UTF-8 -t UTF-32LE $F"
row "check_(read(2),_no_mmap)" "env UTF8KIT_CLI_NO_MMAP=1 $CLI check $F"
