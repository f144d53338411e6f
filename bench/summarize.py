#!/usr/bin/env python3
"""summarize.py - medians of a utf8kit_bench table.

usage: utf8kit_bench ... | python3 bench/summarize.py [--vs PEER [KERNEL] | --replace [KERNEL]]
For each operation: the median, over the corpus files (lipsum/ and
wikipedia_mars/), of each column's ratio to memcpy; then the same for the
10 MB ASCII buffer, the 8-64 byte strings and the invalid inputs. Columns
are those of the table (kernels, then peers); '-' where a peer lacks the
operation.
With --vs PEER (e.g. simdutf): for each operation, KERNEL's cell (default
avx512) divided by PEER's on the same row, input by input: the lowest
(with its input), the median and the highest of these ratios.
With --replace [KERNEL]: for each replacing operation ("X/r"), KERNEL's
cell divided by its cell for X (the STRICT policy) on the same valid
input, the same three figures (1.00: replacing costs nothing on valid
input). The invalid inputs ("(read as utf8)", "(lone surrogates)") are
a group of their own in the medians.
Several tables on stdin (runs of the same command, cat'ed) are merged
cell by cell, keeping the highest ratio of each cell: best of the runs,
for every column alike, which filters out the runs another process
disturbed.
"""
import statistics
import sys


def merge_best(rows):
    """One row per (input, operation), each cell the highest of its runs."""
    best, order = {}, []
    for name, op, cells in rows:
        key = (name, op)
        if key not in best:
            best[key] = list(cells)
            order.append(key)
            continue
        cur = best[key]
        for j, c in enumerate(cells):
            if c != "-" and (cur[j] == "-" or float(c) > float(cur[j])):
                cur[j] = c
    return [(name, op, best[(name, op)]) for name, op in order]


def print_ratios(title, per_op):
    """Per operation: the lowest ratio (with its input), the median, the highest."""
    print(title)
    print("%-16s %3s %6s  %-40s %6s %6s" % ("operation", "n", "min", "(input)", "median", "max"))
    for op, v in per_op.items():
        v.sort()
        med = statistics.median([x for x, _ in v])
        print("%-16s %3d %6.2f  %-40s %6.2f %6.2f" % (op, len(v), v[0][0], v[0][1][-40:], med, v[-1][0]))


def vs_table(header, rows, peer, kernel):
    if peer not in header or kernel not in header:
        sys.exit("no column %s or %s in the table" % (peer, kernel))
    jp, jk = header.index(peer), header.index(kernel)
    per_op = {}
    for name, op, cells in rows:
        if cells[jp] == "-" or cells[jk] == "-" or float(cells[jp]) == 0:
            continue
        per_op.setdefault(op, []).append((float(cells[jk]) / float(cells[jp]), name))
    print_ratios("%s / %s, input by input" % (kernel, peer), per_op)


def replace_table(header, rows, kernel):
    if kernel not in header:
        sys.exit("no column %s in the table" % kernel)
    j = header.index(kernel)
    strict = {(name, op): cells[j] for name, op, cells in rows}
    per_op = {}
    for name, op, cells in rows:
        base = strict.get((name, op[:-2])) if op.endswith("/r") else None
        if base is None or base == "-" or cells[j] == "-" or float(base) == 0:
            continue
        per_op.setdefault(op, []).append((float(cells[j]) / float(base), name))
    print_ratios("%s: replacing / strict on valid input, input by input" % kernel, per_op)


def main():
    vs = None
    replace = None
    if len(sys.argv) >= 3 and sys.argv[1] == "--vs":
        vs = (sys.argv[2], sys.argv[3] if len(sys.argv) >= 4 else "avx512")
    elif len(sys.argv) >= 2 and sys.argv[1] == "--replace":
        replace = sys.argv[2] if len(sys.argv) >= 3 else "avx512"
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
        if not all(c == "-" or c.replace(".", "", 1).isdigit() for c in cells):
            continue  # not a row of the table (another run's title line)
        op = parts[-len(header) - 2]
        name = " ".join(parts[: -len(header) - 2])
        rows.append((name, op, cells))
    rows = merge_best(rows)
    if header is None:
        sys.exit("no benchmark table on stdin")
    if vs:
        vs_table(header, rows, vs[0], vs[1])
        return
    if replace:
        replace_table(header, rows, replace)
        return

    def group(name):
        if name.startswith("ascii"):
            return "ascii-10MB"
        if name.startswith("short"):
            return "short 8-64 B"
        if name.endswith("(read as utf8)") or name.endswith("(lone surrogates)"):
            return "invalid"
        return "corpus files"

    ops = []
    for _, op, _ in rows:
        if op not in ops:
            ops.append(op)
    print("%-14s %-15s %3s" % ("inputs", "operation", "n") + "".join(" %9s" % h for h in header))
    for g in ("corpus files", "ascii-10MB", "short 8-64 B", "invalid"):
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
