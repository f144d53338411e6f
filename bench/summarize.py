#!/usr/bin/env python3
"""summarize.py - medians of a utf8kit_bench table.

usage: utf8kit_bench ... | python3 bench/summarize.py
For each operation: the median, over the corpus files (lipsum/ and
wikipedia_mars/), of each column's ratio to memcpy; then the same for the
10 MB ASCII buffer and the 8-64 byte strings. Columns are those of the
table (kernels, then peers); '-' where a peer lacks the operation.
"""
import statistics
import sys


def main():
    header = None
    rows = []
    for line in sys.stdin:
        parts = line.split()
        if parts[:3] == ["input", "operation", "memcpy"]:
            header = parts[3:]
            continue
        if header is None or len(parts) < 3 + len(header):
            continue
        # the name may contain spaces ("... (from latin1)")
        cells = parts[-len(header):]
        op = parts[-len(header) - 2]
        name = " ".join(parts[: -len(header) - 2])
        rows.append((name, op, cells))
    if header is None:
        sys.exit("no benchmark table on stdin")

    def group(name):
        if name.startswith("ascii"):
            return "ascii-10MB"
        if name.startswith("short"):
            return "short 8-64 B"
        return "corpus files"

    ops = []
    for _, op, _ in rows:
        if op not in ops:
            ops.append(op)
    print("%-14s %-15s %3s" % ("inputs", "operation", "n") + "".join(" %9s" % h for h in header))
    for g in ("corpus files", "ascii-10MB", "short 8-64 B"):
        for op in ops:
            sel = [c for (n, o, c) in rows if o == op and group(n) == g]
            if not sel:
                continue
            out = []
            for j in range(len(header)):
                vals = [float(c[j]) for c in sel if c[j] != "-"]
                out.append("%9.2f" % statistics.median(vals) if vals else "%9s" % "-")
            print("%-14s %-15s %3d " % (g, op, len(sel)) + " ".join(out))


if __name__ == "__main__":
    main()
