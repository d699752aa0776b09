"""Stop 57's summaries: auto@runtime per run against the single rows, runs with steal time left out.

    python3 summarize.py SINGLES_CSV RUN_DIR [STEAL_LIMIT_TICKS]

RUN_DIR holds <build>-<n>.csv and steal.txt (`<build>-<n> steal=<ticks>`: the steal column of
/proc/stat, in 1/100 s, over the run). A run is kept when its steal is below the limit (150).
"""
import collections, csv, math, re, statistics, sys


def load(path):
    by = collections.defaultdict(dict)
    for r in csv.DictReader(l for l in open(path) if not l.startswith('#')):
        if r['status'] == 'ok':
            by[(r['pattern'], r['allocation'])][r['row']] = r
    return by


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')


def regime(singles, run):
    within = n = 0
    frag, big, walls = [], [], []
    for key, cells in run.items():
        if 'auto@runtime' not in cells or key not in singles:
            continue
        s = singles[key]
        base = float(s['identity']['mcl_adaptive'])
        if base == 0:
            continue
        a = float(cells['auto@runtime']['mcl_adaptive']) / base
        best = min(float(c['mcl_adaptive']) / base for r, c in s.items() if not r.startswith('auto'))
        n += 1
        within += a <= best * 1.05 + 1e-12
        walls.append(float(cells['auto@runtime']['wall_ms']))
        if s['identity']['allocation_family'] == 'fragmented':
            frag.append(a)
            if re.search(r'frag-(1000|2000)', key[1]):
                big.append(a)
    return within, n, gm(frag), gm(big), max(walls)


singles = load(sys.argv[1])
folder = sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 150
kept = collections.defaultdict(list)
for line in open(f'{folder}/steal.txt'):
    run, steal = line.split()[0], int(line.split('steal=')[1])
    within, n, frag, big, wall = regime(singles, load(f'{folder}/{run}.csv'))
    print(f'{run}: steal {steal} ({"kept" if steal < limit else "left out"}); within 5% {within}/{n}, '
          f'fragmented {frag:.4f}, 1,000 and 2,000 scattered nodes {big:.4f}, longest {wall:.1f} ms')
    if steal < limit:
        kept[run.split('-')[0]].append((within, frag, wall))
for build, runs in kept.items():
    print(f'{build}: {len(runs)} runs, within 5% {[r[0] for r in runs]} (mean {statistics.mean(r[0] for r in runs):.1f}), '
          f'fragmented mean {statistics.mean(r[1] for r in runs):.4f}, longest {max(r[2] for r in runs):.1f} ms')
