#!/usr/bin/env python3
"""Compares runs of auto on the training set with one run of every single algorithm on it.

    compare.py singles.csv auto-base.csv [auto-VARIANT.csv ...] [-v]

For each auto CSV (rows auto@runtime only): on how many instances auto's MCL (adaptive) is within 5%
of the best single row's, how many are worse than the identity, and the geometric means of
auto / identity over all instances and over the fragmented ones. -v lists the misses.

First it prints the same geometric means for the best single row of each instance: what a
portfolio that always picked the best single algorithm would reach, a bound that tells a target
out of reach of choosing among the algorithms at this budget from one that is not.
"""
import collections
import csv
import math
import sys


def load(path):
    by = collections.defaultdict(dict)
    for r in csv.DictReader(line for line in open(path) if not line.startswith('#')):
        if r['status'] == 'ok':
            by[(r['pattern'], r['allocation'])][r['row']] = r
    return by


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


singles = load(sys.argv[1])
verbose = '-v' in sys.argv


def best_single(cells):
    base = float(cells['identity']['mcl_adaptive'])
    return min(float(c['mcl_adaptive']) for r, c in cells.items() if not r.startswith('auto')) / base


oracle = {key: best_single(cells) for key, cells in singles.items()
          if 'identity' in cells and float(cells['identity']['mcl_adaptive']) > 0}
oracle_frag = [v for key, v in oracle.items() if singles[key]['identity']['allocation_family'] == 'fragmented']
print(f"{sys.argv[1]}: the best single row per instance: n={len(oracle)} fragmented_gm={geomean(oracle_frag):.4f} "
      f"all_gm={geomean(list(oracle.values())):.4f}")
for path in [a for a in sys.argv[2:] if a != '-v']:
    n = within = worse = 0
    frag, ratios, misses = [], [], []
    fam = collections.defaultdict(lambda: [0, 0])
    for key, cells in load(path).items():
        if 'auto@runtime' not in cells or key not in singles:
            continue
        s = singles[key]
        base = float(s['identity']['mcl_adaptive'])
        if base == 0:
            continue
        a = float(cells['auto@runtime']['mcl_adaptive']) / base
        best, best_row = min((float(c['mcl_adaptive']) / base, r) for r, c in s.items() if not r.startswith('auto'))
        ok = a <= best * 1.05 + 1e-12
        n += 1
        within += ok
        worse += a > 1 + 1e-9
        ratios.append(a)
        family = s['identity']['allocation_family']
        fam[family][0] += ok
        fam[family][1] += 1
        if family == 'fragmented':
            frag.append(a)
        if not ok:
            misses.append(f"{key[0]} on {key[1]}: auto {a:.3f}, best {best:.3f} ({best_row}), "
                          f"auto kept {cells['auto@runtime']['reason']}")
    print(f"{path}: n={n} within5%={within} ({within / n:.1%}) worse_than_identity={worse} "
          f"fragmented_gm={geomean(frag):.3f} all_gm={geomean(ratios):.3f} " +
          ' '.join(f"{f}:{a}/{b}" for f, (a, b) in sorted(fam.items())))
    if verbose:
        for m in sorted(misses):
            print('   ', m)
