#!/usr/bin/env python3
"""Turns bench/allreduce_vs_peers.sh raw lines into Markdown tables.

Raw line: ROUND RANKS PROGRAM SIZE TIME_US ALGBW_GBs BUSBW_GBs
Per (ranks, program, size) the median over rounds is used; ratios compare
distkit with the best peer (Gloo any algorithm, Open MPI) at that size.
"""
import statistics
import sys
from collections import defaultdict


def main(path):
    data = defaultdict(list)  # (ranks, prog, size) -> [(time, busbw)]
    ceiling = defaultdict(list)
    for line in open(path):
        f = line.split()
        if len(f) != 7:
            continue
        rnd, n, prog, size, t, alg, bus = f
        if prog.startswith("iperf3"):
            ceiling[prog].append(float(bus))
            continue
        data[(int(n), prog, int(size))].append((float(t), float(bus)))
    med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), len(v))
           for k, v in data.items()}
    ranks = sorted({k[0] for k in med})
    progs = sorted({k[1] for k in med if k[1] != "distkit"})
    for n in ranks:
        print(f"\n### {n} ranks: all-reduce busbw (GB/s, float32 sum, in-place; median of rounds)\n")
        print("| size | distkit | " + " | ".join(progs) + " | best peer | distkit / best |")
        print("|---:|---:|" + "---:|" * len(progs) + "---|---:|")
        sizes = sorted({k[2] for k in med if k[0] == n and k[2] > 8})
        for s in sizes:
            mine = med.get((n, "distkit", s))
            peers = {p: med[(n, p, s)][1] for p in progs if (n, p, s) in med}
            best = max(peers, key=peers.get) if peers else None
            row = [human(s), f"{mine[1]:.3f}" if mine else "-"]
            row += [f"{peers[p]:.3f}" if p in peers else "-" for p in progs]
            row += [best or "-", f"{mine[1] / peers[best]:.2f}" if mine and best and peers[best] else "-"]
            print("| " + " | ".join(row) + " |")
        lat = {p: med[(n, p, 8)][0] for p in ["distkit"] + progs if (n, p, 8) in med}
        if lat:
            print(f"\n8-byte all-reduce latency, {n} ranks (us, median): " +
                  ", ".join(f"{p} {v:.1f}" for p, v in lat.items()))
            peers = {p: v for p, v in lat.items() if p != "distkit"}
            if "distkit" in lat and peers:
                b = min(peers, key=peers.get)
                print(f"distkit / best peer ({b}): {lat['distkit'] / peers[b]:.2f}")
    for k, v in sorted(ceiling.items()):
        print(f"\n{k} (2 hosts): {statistics.median(v):.3f} GB/s (median of {len(v)})")


def human(s):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if s >= div:
            return f"{s // div} {unit}"
    return f"{s} B"


if __name__ == "__main__":
    main(sys.argv[1])
