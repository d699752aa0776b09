#!/usr/bin/env python3
"""Checks that a communication profile of a LAMMPS run has the shape of LAMMPS's spatial decomposition.

  check_lammps_profile.py PREFIX.mtx --grid NXxNYxNZ [--negligible F] [--stages]

PREFIX.mtx is the Matrix Market file RANKMAP_PROFILE=PREFIX writes: entry (i, j, w) is w bytes sent
from MPI_COMM_WORLD rank i-1 to rank j-1 (`coordinate integer general` or `coordinate real
general`). The run is LAMMPS with `processors NX NY NZ map xyz` (lj_melt_profile.in: 2 2 2 on 8
ranks), which puts grid point (i,j,k) on rank i + NX*(j + NY*k), with periodic boundaries.

Why only face neighbours: LAMMPS's brick communication (src/comm_brick.cpp) exchanges in three
stages, one per dimension, always with procneigh[dim][0] and procneigh[dim][1], the two face
neighbours along that dimension. Atoms leaving the sub-domain (exchange()) are passed on dimension
by dimension ("atom may be passed to another proc in later dims"), and ghost atoms (borders()) are
sent from the owned atoms *and the ghosts received in earlier dimensions* (the nfirst..nlast range
grows each dimension), so edge and corner ghosts reach the diagonal sub-domains through faces; the
forward and reverse communication of every step replays those swaps. Hence:

  - every rank sends to and receives from each of its face neighbours (a periodic 2x2x2 grid gives
    each rank 3 distinct ones, since the left and the right neighbour along a dimension coincide);
  - the face neighbours are every rank's heaviest partners;
  - a rank that is not a face neighbour gets no point-to-point bytes, or a negligible amount (what a
    profiler may attribute to collectives, such as the thermo output's MPI_Allreduce): at most
    --negligible (default 0.01) of what the sender sends to its lightest face neighbour.

A real run bears this out (data/lammps_2x2x2_pml_monitoring.mtx, recorded with Open MPI's pml
monitoring): 4.2, 7.0 and 11.8 MB to the x, y and z face neighbours (later dimensions forward the
ghosts of earlier ones) and at most 505 B to any other rank, all of it collectives' internal messages.

With --stages, the profile's phases (PREFIX.phase<k>.mtx, RANKMAP_PROFILE_PHASES=steps) must be
those three stages: phase k holds the face-neighbour traffic along dimension k (x, y, z in LAMMPS's
order) and nothing else, every rank sending in it, and there is no fourth phase.

Prints every rank's partners and the verdict, "verdict: ACCEPTED" (exit 0) or "verdict: REJECTED"
(exit 1); an unreadable file is exit 2.
"""
import argparse
import os
import sys


def read_matrix_market(path):
    """(size, {(src, dst): bytes}) from a coordinate integer/real general Matrix Market file, 0-based."""
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].lower().startswith("%%matrixmarket"):
        raise ValueError(f"{path}:1: not a Matrix Market file")
    header = lines[0].lower().split()
    if header[1:] not in (["matrix", "coordinate", "integer", "general"], ["matrix", "coordinate", "real", "general"]):
        raise ValueError(f"{path}:1: expected 'matrix coordinate integer|real general', found '{' '.join(header[1:])}'")
    body = [(n + 1, line.split()) for n, line in enumerate(lines)
            if n > 0 and line.strip() and not line.startswith("%")]
    if not body:
        raise ValueError(f"{path}: no size line")
    (lineno, size_line), entries = body[0], body[1:]
    rows, cols, count = (int(x) for x in size_line)
    if rows != cols:
        raise ValueError(f"{path}:{lineno}: a {rows}x{cols} matrix, expected a square one")
    if count != len(entries):
        raise ValueError(f"{path}:{lineno}: {count} entries announced, {len(entries)} found")
    traffic = {}
    for lineno, fields in entries:
        if len(fields) != 3:
            raise ValueError(f"{path}:{lineno}: expected 'i j bytes'")
        i, j, w = int(fields[0]), int(fields[1]), float(fields[2])
        if not (1 <= i <= rows and 1 <= j <= cols) or w < 0:
            raise ValueError(f"{path}:{lineno}: entry ({i}, {j}, {fields[2]}) out of range")
        traffic[(i - 1, j - 1)] = traffic.get((i - 1, j - 1), 0.0) + w
    return rows, traffic


def face_neighbours(rank, grid):
    """The distinct face neighbours of `rank` in a periodic grid numbered i + NX*(j + NY*k)."""
    nx, ny, nz = grid
    coords = [rank % nx, (rank // nx) % ny, rank // (nx * ny)]
    result = set()
    for dim, n in enumerate(grid):
        if n == 1:
            continue
        for step in (-1, 1):
            c = list(coords)
            c[dim] = (c[dim] + step) % n
            result.add(c[0] + nx * (c[1] + ny * c[2]))
    return result


def check(size, traffic, grid, negligible):
    """The problems found, one line each; none means the profile has the expected shape."""
    if size != grid[0] * grid[1] * grid[2]:
        return [f"the profile has {size} ranks, the grid {'x'.join(map(str, grid))} has {grid[0] * grid[1] * grid[2]}"]
    problems = []
    for r in range(size):
        faces = face_neighbours(r, grid)
        others = [q for q in range(size) if q != r and q not in faces]
        sent = {q: traffic.get((r, q), 0.0) for q in range(size) if q != r}
        both = {q: sent[q] + traffic.get((q, r), 0.0) for q in sent}
        print(f"rank {r}: face neighbours " + ", ".join(f"{q} ({sent[q]:.0f} B sent)" for q in sorted(faces))
              + "; others " + (", ".join(f"{q} ({sent[q]:.0f} B)" for q in others if sent[q]) or "none"))
        for q in sorted(faces):
            if sent[q] == 0:
                problems.append(f"rank {r} sends nothing to its face neighbour {q}")
            if traffic.get((q, r), 0.0) == 0:
                problems.append(f"rank {r} receives nothing from its face neighbour {q}")
        lightest_face = min(both[q] for q in faces)
        heaviest_other = max(others, key=lambda q: both[q], default=None)
        if heaviest_other is not None and both[heaviest_other] >= lightest_face:
            problems.append(f"rank {r}: non-neighbour {heaviest_other} ({both[heaviest_other]:.0f} B both ways) is as "
                            f"heavy a partner as its lightest face neighbour ({lightest_face:.0f} B)")
        limit = negligible * min(sent[q] for q in faces)
        for q in others:
            if sent[q] > limit:
                problems.append(f"rank {r} sends {sent[q]:.0f} B to non-neighbour {q}, more than the negligible "
                                f"{limit:.0f} B ({negligible:g} of its lightest face neighbour's)")
    return problems


def dimension_of(r, q, grid):
    """The dimension along which ranks r and q are face neighbours, or None."""
    nx, ny, _ = grid
    a = [r % nx, (r // nx) % ny, r // (nx * ny)]
    b = [q % nx, (q // nx) % ny, q // (nx * ny)]
    differ = [d for d in range(3) if a[d] != b[d]]
    if len(differ) != 1:
        return None
    d = differ[0]
    return d if (a[d] - b[d]) % grid[d] in (1, grid[d] - 1) else None


def check_stages(prefix, size, grid):
    """The problems of the phases against LAMMPS's three stages, one line each."""
    problems = []
    for k, dim in enumerate(d for d in range(3) if grid[d] > 1):
        path = f"{prefix}.phase{k + 1}.mtx"
        try:
            _, traffic = read_matrix_market(path)
        except (OSError, ValueError) as e:
            return [str(e)]
        wrong = sorted(edge for edge, w in traffic.items() if w > 0 and dimension_of(*edge, grid) != dim)
        senders = {r for (r, _), w in traffic.items() if w > 0}
        print(f"phase {k + 1}: {len(traffic)} edges, {len(wrong)} not along dimension {'xyz'[dim]}")
        if wrong:
            problems.append(f"{path}: edges not along dimension {'xyz'[dim]}: {wrong[:4]}")
        if len(senders) != size:
            problems.append(f"{path}: {size - len(senders)} ranks send nothing")
    extra = f"{prefix}.phase{sum(n > 1 for n in grid) + 1}.mtx"
    if os.path.exists(extra):
        problems.append(f"{extra}: more phases than LAMMPS's stages")
    return problems


def parse_grid(text):
    try:
        grid = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        grid = ()
    if len(grid) != 3 or min(grid) < 1:
        raise argparse.ArgumentTypeError(f"grid '{text}': expected NXxNYxNZ, e.g. 2x2x2")
    return grid


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profile")
    parser.add_argument("--grid", type=parse_grid, required=True)
    parser.add_argument("--negligible", type=float, default=0.01)
    parser.add_argument("--stages", action="store_true", help="check the phases against LAMMPS's three stages")
    args = parser.parse_args()
    try:
        size, traffic = read_matrix_market(args.profile)
    except (OSError, ValueError) as e:
        print(f"check_lammps_profile: {e}")
        return 2
    problems = check(size, traffic, args.grid, args.negligible)
    if args.stages:
        problems += check_stages(args.profile[:-len(".mtx")], size, args.grid)
    for p in problems:
        print(f"check_lammps_profile: {p}")
    print("verdict: " + ("REJECTED" if problems else "ACCEPTED")
          + f" ({args.profile}: {size} ranks, {len(traffic)} entries, grid {'x'.join(map(str, args.grid))})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
