#!/usr/bin/env python3
"""Builds the GROMACS run input for the application tests from GROMACS's own share files.

  prepare_gromacs.py GMX OUTDIR

Writes OUTDIR/water.gro (a 3.72412 nm cube, 2x2x2 copies of share/top/spc216.gro, so that the
periodic images of the equilibrated box fit without overlaps and no energy minimisation is needed),
OUTDIR/topol.top and OUTDIR/md.tpr (grompp of spc_water.mdp). Nothing large is kept in the tree.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# spc216.gro's box edge; twice that gives a box of whole copies of an equilibrated water box.
BOX = "3.72412"


def run(gmx, outdir, *args):
    command = [gmx, "-quiet", "-nobackup", *args]
    print("prepare_gromacs:", " ".join(command), flush=True)
    subprocess.run(command, cwd=outdir, check=True, timeout=120)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gmx, outdir = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(outdir, exist_ok=True)
    shutil.copyfile(os.path.join(HERE, "spc_water.top"), os.path.join(outdir, "topol.top"))
    run(gmx, outdir, "solvate", "-cs", "spc216.gro", "-box", BOX, BOX, BOX, "-o", "water.gro", "-p", "topol.top")
    run(gmx, outdir, "grompp", "-f", os.path.join(HERE, "spc_water.mdp"), "-c", "water.gro", "-p", "topol.top",
        "-o", "md.tpr", "-po", "mdout.mdp")
    print("prepare_gromacs: wrote", os.path.join(outdir, "md.tpr"))


if __name__ == "__main__":
    main()
