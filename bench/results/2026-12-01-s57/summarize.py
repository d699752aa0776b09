"""Stop 57's summaries: auto@runtime per run against the single rows, runs with steal time left out.

    python3 summarize.py SINGLES_CSV RUN_DIR [STEAL_LIMIT_TICKS]

RUN_DIR holds <build>-<n>.csv and steal.txt (`<build>-<n> steal=<ticks>`: the steal column of
/proc/stat, in 1/100 s, over the run). A run is kept when its steal is below the limit (150).
Each run is compared by bench/quality/results/training-2026-11-25/compare.py.
"""
import collections, math, os, re, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../quality/results/training-2026-11-25'))
from compare import compare, load  # noqa: E402


def big_instances_gm(singles, run):
    """auto's MCL over the identity's on 1,000 and 2,000 scattered nodes, geometric mean."""
    ratios = [float(cells['auto@runtime']['mcl_adaptive']) / float(singles[key]['identity']['mcl_adaptive'])
              for key, cells in run.items()
              if 'auto@runtime' in cells and key in singles and re.search(r'frag-(1000|2000)', key[1])
              and float(singles[key]['identity']['mcl_adaptive']) > 0]
    return math.exp(sum(map(math.log, ratios)) / len(ratios))


singles = load(sys.argv[1])
folder = sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 150
kept = collections.defaultdict(list)
for line in open(f'{folder}/steal.txt'):
    run, steal = line.split()[0], int(line.split('steal=')[1])
    rows = load(f'{folder}/{run}.csv')
    c = compare(singles, rows)
    print(f'{run}: steal {steal} ({"kept" if steal < limit else "left out"}); within 5% {c["within"]}/{c["n"]}, '
          f'fragmented {c["fragmented_gm"]:.4f}, 1,000 and 2,000 scattered nodes {big_instances_gm(singles, rows):.4f}, '
          f'longest {c["longest_ms"]:.1f} ms')
    if steal < limit:
        kept[run.split('-')[0]].append((c['within'], c['fragmented_gm'], c['longest_ms']))
for build, runs in kept.items():
    print(f'{build}: {len(runs)} runs, within 5% {[r[0] for r in runs]} (mean {statistics.mean(r[0] for r in runs):.1f}), '
          f'fragmented mean {statistics.mean(r[1] for r in runs):.4f}, longest {max(r[2] for r in runs):.1f} ms')
