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


def best_single(cells):
    base = float(cells['identity']['mcl_adaptive'])
    return min(float(c['mcl_adaptive']) for r, c in cells.items() if not r.startswith('auto')) / base


def compare(singles, run):
    """auto@runtime of one run (load()ed) against the single rows: counts, ratios to the identity's
    MCL, misses in words, and the longest instance's wall time."""
    n = within = worse = 0
    frag, ratios, misses, walls = [], [], [], []
    fam = collections.defaultdict(lambda: [0, 0])
    for key, cells in run.items():
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
        walls.append(float(cells['auto@runtime']['wall_ms']))
        family = s['identity']['allocation_family']
        fam[family][0] += ok
        fam[family][1] += 1
        if family == 'fragmented':
            frag.append(a)
        if not ok:
            misses.append(f"{key[0]} on {key[1]}: auto {a:.3f}, best {best:.3f} ({best_row}), "
                          f"auto kept {cells['auto@runtime']['reason']}")
    return {'n': n, 'within': within, 'worse': worse, 'fragmented_gm': geomean(frag), 'all_gm': geomean(ratios),
            'families': fam, 'misses': misses, 'longest_ms': max(walls)}


def main():
    singles = load(sys.argv[1])
    verbose = '-v' in sys.argv
    oracle = {key: best_single(cells) for key, cells in singles.items()
              if 'identity' in cells and float(cells['identity']['mcl_adaptive']) > 0}
    oracle_frag = [v for key, v in oracle.items() if singles[key]['identity']['allocation_family'] == 'fragmented']
    print(f"{sys.argv[1]}: the best single row per instance: n={len(oracle)} fragmented_gm={geomean(oracle_frag):.4f} "
          f"all_gm={geomean(list(oracle.values())):.4f}")
    for path in [a for a in sys.argv[2:] if a != '-v']:
        c = compare(singles, load(path))
        n, within = c['n'], c['within']
        print(f"{path}: n={n} within5%={within} ({within / n:.1%}) worse_than_identity={c['worse']} "
              f"fragmented_gm={c['fragmented_gm']:.3f} all_gm={c['all_gm']:.3f} " +
              ' '.join(f"{f}:{a}/{b}" for f, (a, b) in sorted(c['families'].items())))
        if verbose:
            for m in sorted(c['misses']):
                print('   ', m)


if __name__ == '__main__':
    main()
