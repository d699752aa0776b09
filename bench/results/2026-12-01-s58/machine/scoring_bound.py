"""How many of auto's misses fall on instances where one scoring is a large share of the budget.

    python3 scoring_bound.py FIRST_SCORING_CSV SINGLES_CSV AUTO_CSV...

FIRST_SCORING_CSV is `first_scoring --set table` (one process; its sixth column is a warm
scoring's ms); the misses are compare.py's (more than 5% above the best single row).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '../../../quality/results/training-2026-11-25'))
from compare import compare, load  # noqa: E402

warm_ms = {}
for line in open(sys.argv[1]):
    label, *cells = line.rsplit(',', 6)
    warm_ms[label.strip('"')] = float(cells[4])
singles = load(sys.argv[2])
runs = [compare(singles, load(path)) for path in sys.argv[3:]]
for limit in (25, 50, 75):
    heavy = {label for label, ms in warm_ms.items() if ms > limit}
    missed = [sum(m.split(': auto ')[0] in heavy for m in run['misses']) for run in runs]
    print(f'one warm scoring over {limit} ms: {len(heavy)} instances; misses among them per run {missed}, '
          f'all misses per run {[len(run["misses"]) for run in runs]}')
