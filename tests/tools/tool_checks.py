"""What the Python tool tests share: running a rankmap command that must succeed or fail, and a check."""
import os
import subprocess
import sys


def run(*args, ok=True):
    """Runs a command; exits the test if it failed when it should succeed, or the other way round."""
    proc = subprocess.run(list(args), capture_output=True, text=True)
    if ok and proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr}")
    if not ok and proc.returncode == 0:
        raise SystemExit(f"{' '.join(args)} should have failed")
    return proc


def expect(condition, what):
    """Exits the test, named by its script, unless `condition` holds."""
    if not condition:
        raise SystemExit(f"{os.path.splitext(os.path.basename(sys.argv[0]))[0]}: {what}")
