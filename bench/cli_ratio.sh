#!/bin/sh
# cli_ratio.sh - the utf8kit command against `dd bs=1M`, as ratios measured
# in one loop: each command and dd run ROUNDS times in alternation, timed by
# `perf stat` (wall: duration_time, CPU: task-clock), and the best time of
# each is divided into dd's best. Alternating and keeping the best is what
# makes the ratio usable on a shared, noisy machine.
#
#   bench/cli_ratio.sh [UTF8KIT] [FILE] [ROUNDS]
#
# FILE defaults to a 300 MB mixed-script text built from the corpus in /tmp
# (deleted at the end); it is read once first so that it is in the page
# cache. Needs perf (apt-get install linux-perf).
set -eu
CLI=${1:-build/cli/utf8kit}
FILE=${2:-}
ROUNDS=${3:-7}
CORPUS=${UTF8KIT_CORPUS:-$(dirname "$0")/../../shared/corpus}
command -v perf > /dev/null || { echo "cli_ratio.sh: needs perf (apt-get install linux-perf)" >&2; exit 2; }
[ -x "$CLI" ] || { echo "cli_ratio.sh: $CLI is not an executable" >&2; exit 2; }
TMP=$(mktemp -d /tmp/utf8kit-ratio-XXXXXX)
trap 'rm -rf "$TMP"' EXIT INT TERM
if [ -z "$FILE" ]; then
    FILE=$TMP/text.txt
    cat "$CORPUS"/wikipedia_mars/*.utf8.txt "$CORPUS"/lipsum/*.utf8.txt > "$TMP/seed"
    : > "$FILE"
    while [ "$(stat -c %s "$FILE")" -lt 300000000 ]; do cat "$TMP/seed" >> "$FILE"; done
fi
cat "$FILE" > /dev/null

# time EVENT CMD...: the event's count (ns for both events) for one run
time_one() {
    ev=$1
    shift
    perf stat -x, -e "$ev" "$@" 2>&1 > /dev/null | grep "$ev" | cut -d, -f1
}

for ev in duration_time task-clock; do
    i=0
    while [ $i -lt "$ROUNDS" ]; do
        echo "dd|$(time_one $ev dd if="$FILE" of=/dev/null bs=1M)"
        for c in "check" "count" "fix -q" "convert -f UTF-8 -t UTF-16LE" "convert -f UTF-8 -t UTF-32LE"; do
            # shellcheck disable=SC2086
            echo "$c|$(time_one $ev "$CLI" $c "$FILE")"
        done
        i=$((i + 1))
    done > "$TMP/$ev"
done
printf '%s bytes, %s rounds, %s\n' "$(stat -c %s "$FILE")" "$ROUNDS" "$("$CLI" --version)"
printf '%-32s %12s %12s\n' command "x dd (wall)" "x dd (cpu)"
best() { awk -F'|' -v k="$2" '$1 == k && $2 != "" {if (m == "" || $2 + 0 < m) m = $2 + 0} END {print m}' "$TMP/$1"; }
for c in "check" "count" "fix -q" "convert -f UTF-8 -t UTF-16LE" "convert -f UTF-8 -t UTF-32LE"; do
    printf '%-32s %12.2f %12.2f\n' "$c" \
        "$(echo "$(best duration_time dd) $(best duration_time "$c")" | awk '{print $1 / $2}')" \
        "$(echo "$(best task-clock dd) $(best task-clock "$c")" | awk '{print $1 / $2}')"
done
