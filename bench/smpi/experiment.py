#!/usr/bin/env python3
"""Runs the SMPI experiment matrix: every program under every mapping on every platform.

For each configuration (platform, ppn) and program it
  1. simulates the identity placement once with --graph, which records the program's own
     communication graph (the bytes each rank really sent) and the identity's timings;
  2. computes every mapping of that graph: `rankmap map --algo NAME` for rankmap's algorithms
     and Scotch, Open MPI treematch's permutation (treematch_perm under mpiexec.openmpi), and a
     seeded random permutation as a bad reference;
  3. writes the host file (`rankmap emit --format smpi-hostfile`, checked byte for byte against
     hostfile.py, which writes it alone when the tool has no emit), evaluates the mapping
     (`rankmap eval --json`) and simulates it, unless an identical host file was already simulated;
     a recorded result must have run on exactly the host file written now.
Every result is appended to OUT/results.jsonl, OUT/metrics.jsonl and OUT/mappings.jsonl; a rerun
skips what is already there, so the matrix can be filled in as mappers land.

Usage: experiment.py --out OUT --bin BINDIR [--rankmap PATH] [--only CONFIG[/PROGRAM]] [--algos a,b]
                     [--stop-at HH:MM] [--check-only]
--stop-at (UTC) starts no simulation after that time: the rest stays unrecorded, and the report
shows it as not run.
"""
import argparse
import datetime
import glob
import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostfile as hostfile_mod  # noqa: E402
import smpi_platform  # noqa: E402
import smpi_run  # noqa: E402

# name -> (binary, arguments); sized for about a thousand ranks (see docs/smpi.md).
PROGRAMS = {
    "halo3d": ("halo3d", ["-n", "32", "-i", "1"]),
    "cg": ("cg", ["-m", "16384", "-i", "1"]),
    "bt": ("sweep", ["-n", "8", "-i", "1"]),
    "sp": ("sweep", ["-sp", "1", "-n", "8", "-i", "1"]),
    "allgather": ("allgather", ["-m", "128", "-i", "1"]),
    "fft2d": ("fft2d", ["-L", "32768", "-i", "1"]),
}

# name -> platform; every configuration runs 1,024 ranks with 2 per node unless it says otherwise.
CONFIGS = {
    "8x8x8": {"kind": "full", "topology": "torus:8x8x8", "ppn": 2},
    "4x4x4x4x2": {"kind": "full", "topology": "torus:4x4x4x4x2", "ppn": 2},
    "fragmented": {"kind": "fragment", "topology": "torus:12x12x12", "nodes": 512, "seed": 7, "ppn": 2},
    # 4,096 ranks: one simulation takes CPU minutes and about 3.5 GB, so only a few programs and mappings.
    "8x8x8-ppn8": {"kind": "full", "topology": "torus:8x8x8", "ppn": 8, "programs": ["halo3d", "cg"],
                   "mappings": ["identity", "dimorder:TABC", "mahd+refine", "rahtm", "scotch", "treematch",
                                "auto@200ms", "auto@10s", "auto@200ms~hedge", "auto@10s~hedge"]},
}
DEFAULT_CONFIGS = ["8x8x8", "4x4x4x4x2", "fragmented"]

# Mappings compared. rankmap algorithms are `rankmap map --algo NAME [options]`.
DIMORDERS = {3: ["dimorder:TABC", "dimorder:CBAT"], 5: ["dimorder:TABCDE", "dimorder:ACEBDT"]}
RANKMAP_ALGOS = [("dimorder-best", []), ("hilbert", []), ("mahd+refine", []),
                 ("mahd+refine@dor", ["--routing", "dor"]), ("emahd+refine@dor", ["--routing", "dor"]),
                 ("rahtm", []), ("rahtm+refine@dor", ["--routing", "dor"]), ("scotch", []),
                 ("auto@200ms", []), ("auto@10s", [])]
TIME_BUDGET_MS = "20000"
# The default, auto, at the runtime's budget and at the tool's; every other row gets TIME_BUDGET_MS.
BUDGET_MS = {"auto@200ms": "200", "auto@10s": "10000", "auto@10s~phases": "10000", "auto@5min@dor~phases": "300000"}
# Programs whose communication runs in phases that wait for each other, with the sweep variant whose
# phases rankmap's profiler records (record_phases.py, which checks them against sweep_phases.py). They also get the
# mappings of PHASED_ALGOS, which see the phases (`rankmap map --phases`): name, options, budget.
PHASED_PROGRAMS = {"bt": "bt", "sp": "sp"}
# auto@5min@dor~phases is the default mapper told what the simulated torus does (it routes dimension-ordered)
# and given the minutes its annealing needs on phases (docs/algorithms.md, "Annealing the time left").
PHASED_ALGOS = [("auto@10s~phases", [], BUDGET_MS["auto@10s~phases"]),
                ("auto@5min@dor~phases", ["--routing", "dor"], BUDGET_MS["auto@5min@dor~phases"]),
                ("emahd+refine@dor~phases", ["--routing", "dor"], TIME_BUDGET_MS),
                ("emahd+anneal@dor~phases", ["--routing", "dor"], "300000")]
# The default given phases found without the program's help (step_phases.py: a rank's sends between two
# completions of a receive are a step; steps between the same pairs of ranks are one phase), for every
# program with --step-phases: name, options, budget. The @dor rows are told that the simulated torus
# routes dimension-ordered. The ~hedge rows are what `rankmap place` does by default with a profile's
# phases found from steps: the whole graph is the objective, and the phases only hedge
# (`--phases-as hedge`: auto refuses a candidate that raises their load under the static routing,
# or with @dor under the routing named).
STEP_ALGOS = [("auto@200ms~steps", [], "200"), ("auto@10s~steps", [], "10000"),
              ("auto@200ms@dor~steps", ["--routing", "dor"], "200"), ("auto@10s@dor~steps", ["--routing", "dor"], "10000"),
              ("auto@200ms~hedge", ["--phases-as", "hedge"], "200"), ("auto@10s~hedge", ["--phases-as", "hedge"], "10000"),
              ("auto@200ms@dor~hedge", ["--routing", "dor", "--phases-as", "hedge"], "200"),
              ("auto@10s@dor~hedge", ["--routing", "dor", "--phases-as", "hedge"], "10000")]
# A mapper still running this long after its budget is stopped, and the row says so.
MAP_TIMEOUT_S = 240
# The random reference placement makes every flow long and the simulation slow; the sweeps (bt, sp)
# send 30 times more messages than the others, so they skip it.
RANDOM_SKIPPED = {"bt", "sp"}


def numbered_phases(prefix):
    """PREFIX.phase1.mtx, PREFIX.phase2.mtx, ... that exist, in phase order."""
    return sorted(glob.glob(prefix + ".phase*.mtx"), key=lambda f: int(f[len(prefix) + 6:-len(".mtx")]))


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class Store:
    """An append-only JSON-lines table keyed by (config, program, mapping)."""

    def __init__(self, path):
        self.path = path
        self.rows = {}
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    row = json.loads(line)
                    self.rows[(row["config"], row["program"], row["mapping"])] = row

    def get(self, config, program, mapping):
        return self.rows.get((config, program, mapping))

    def add(self, row):
        self.rows[(row["config"], row["program"], row["mapping"])] = row
        with open(self.path, "a") as f:
            f.write(json.dumps(row, sort_keys=True) + "\n")


class Rankmap:
    """The `rankmap` tool, if built, and which subcommands it has."""

    def __init__(self, path):
        self.path = path if path and os.path.exists(path) else None
        self.commands = set()
        if self.path:
            out = subprocess.run([self.path, "--help"], capture_output=True, text=True).stdout
            self.commands = {c for c in ("gen", "map", "eval", "emit", "render") if f"  {c}" in out}

    def has(self, command):
        return command in self.commands

    def run(self, *args, timeout=None):
        try:
            proc = subprocess.run([self.path, *args], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "", f"did not finish within {timeout:.0f} s"
        return proc.returncode, proc.stdout, proc.stderr


def job_args(plat, ppn, graph):
    return ["--graph", graph, "--alloc-file", plat["alloc"], "--ppn", str(ppn)]


def write_mapping(path, hashes, algorithm, slot_of):
    """A mapping file (DESIGN.md §8) with the job's fingerprints, or zeros when they are not known yet."""
    graph_hash, alloc_hash = hashes or ("0" * 16, "0" * 16)
    with open(path, "w") as f:
        f.write(f"rankmap-mapping 1\ntasks {len(slot_of)}\ngraph {graph_hash}\nallocation {alloc_hash}\n"
                f"algorithm {algorithm}\n")
        f.write("".join(f"{t} {s}\n" for t, s in enumerate(slot_of)))


def treematch_mapping(bin_dir, graph, tasks, workdir):
    """Runs treematch_perm (once: its output is kept); returns (slot_of, note), slot_of[t] = the old
    rank that became rank t (DESIGN.md §4's reading of reorder)."""
    out = os.path.join(workdir, "treematch.perm")
    note = "recorded earlier"
    if not os.path.exists(out):
        # Yielding when idle keeps a thousand oversubscribed processes from spinning on two cores.
        command = ["mpiexec.openmpi", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "--mca", "btl",
                   "self,vader", "--mca", "mpi_yield_when_idle", "1", "--mca", "topo", "treematch", "-n", str(tasks),
                   os.path.join(bin_dir, "treematch_perm"), graph, out]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            return None, f"treematch_perm failed: {proc.stderr.strip()[-300:]}"
        note = proc.stdout.strip()
    new_of_old = {}
    with open(out) as f:
        for line in f:
            old, new = map(int, line.split())
            new_of_old[old] = new
    slot_of = [0] * tasks
    for old, new in new_of_old.items():
        slot_of[new] = old
    moved = sum(1 for old, new in new_of_old.items() if old != new)
    return slot_of, note + ("" if moved else " (declined: identity)")


def treematch_probe(bin_dir, out_dir, tasks=8):
    """Runs treematch_perm with more processes than this host has PUs on pairs t <-> t + tasks/2 (a
    graph whose rank order any reordering would change); returns (slot_of, note). Open MPI decides to
    decline before it reads the graph, so a decline here stands for every larger process count
    without starting a thousand processes."""
    workdir = os.path.join(out_dir, "treematch-probe")
    os.makedirs(workdir, exist_ok=True)
    graph = os.path.join(workdir, "pairs.mtx")
    half = tasks // 2
    with open(graph, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real general\n{tasks} {tasks} {tasks}\n")
        f.write("".join(f"{t + 1} {(t + half) % tasks + 1} 1048576\n" for t in range(tasks)))
    slot_of, note = treematch_mapping(bin_dir, graph, tasks, workdir)
    return slot_of, note


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


class Experiment:
    def __init__(self, args):
        self.out = os.path.abspath(args.out)
        self.bin = os.path.abspath(args.bin)
        self.tool = Rankmap(args.rankmap)
        self.preload = os.path.abspath(args.preload) if args.preload else None
        self.recorded_phases = os.path.abspath(args.recorded_phases) if args.recorded_phases else None
        self.step_phases = os.path.abspath(args.step_phases) if args.step_phases else None
        self.results = Store(os.path.join(self.out, "results.jsonl"))
        self.metrics = Store(os.path.join(self.out, "metrics.jsonl"))
        self.mappings = Store(os.path.join(self.out, "mappings.jsonl"))
        self.algos = args.algos.split(",") if args.algos else None
        self.stop_at = stop_time(args.stop_at) if args.stop_at else None
        self.stopped = False
        self.host_files_checked = 0

    def platform(self, name):
        conf = CONFIGS[name]
        outdir = os.path.join(self.out, "platforms", name)
        if not os.path.exists(os.path.join(outdir, "alloc.txt")):
            dims = smpi_platform.parse_torus(conf["topology"])
            if conf["kind"] == "full":
                nodes = smpi_platform.row_major_coords(dims)
                title = f"all of {conf['topology']}, row-major"
            else:
                nodes = smpi_platform.fragment_nodes(dims, conf["nodes"], conf["seed"])
                title = f"{conf['nodes']} fragmented nodes of {conf['topology']}, seed {conf['seed']}"
            smpi_platform.write_platform(outdir, dims, nodes, title)
        return {"dir": outdir, "xml": os.path.join(outdir, "platform.xml"), "alloc": os.path.join(outdir, "alloc.txt")}

    def mapping_names(self, conf, program):
        ndims = len(smpi_platform.parse_torus(conf["topology"]))
        names = ["identity"] + DIMORDERS.get(ndims, []) + [a for a, _ in RANKMAP_ALGOS] + ["treematch"]
        if program in PHASED_PROGRAMS:
            names += [a for a, _, _ in PHASED_ALGOS]
        if self.step_phases:
            names += [a for a, _, _ in STEP_ALGOS]
        if program not in RANDOM_SKIPPED:
            names.append("random")
        names = [n for n in names if n in conf.get("mappings", names)]
        return [n for n in names if self.algos is None or n in self.algos or n == "identity"]

    def job_hashes(self, plat, conf, graph):
        """(graph hash, allocation hash) of the job, from `rankmap eval --json`, or None without the tool."""
        if not self.tool.has("eval") or graph is None:
            return None
        status, stdout, stderr = self.tool.run("eval", *job_args(plat, conf["ppn"], graph), "--json")
        if status != 0:
            raise SystemExit(f"experiment: rankmap eval failed on {graph}: {stderr}")
        row = json.loads(stdout)
        return row["graph_hash"], row["allocation_hash"]

    def phase_files(self, program, graph, tasks, workdir):
        """Records the program's phases with rankmap's profiler (once, record_phases.py: the program
        built against Open MPI runs under the preload layer with RANKMAP_PROFILE_PHASES=pcontrol, and
        every recorded phase is checked against sweep_phases.py's); returns them comma-separated."""
        # The phases depend on the program and its rank count only, so every platform shares one recording.
        prefix = os.path.join(self.out, "recorded-phases", f"{program}-{tasks}", "recorded")
        os.makedirs(os.path.dirname(prefix), exist_ok=True)
        earlier = os.path.join(self.recorded_phases or "", f"{program}-{tasks}", "recorded")
        if self.recorded_phases and not glob.glob(prefix + ".phase*.mtx") and glob.glob(earlier + ".phase*.mtx"):
            log(f"using the phases of {program} on {tasks} ranks recorded in {self.recorded_phases}")
            for f in glob.glob(earlier + ".*"):
                shutil.copy(f, os.path.dirname(prefix))
        if not glob.glob(prefix + ".phase*.mtx"):
            if not self.preload:
                raise SystemExit("experiment: recording phases needs --preload (librankmap_preload.so, Open MPI)")
            args = PROGRAMS[program][1]
            log(f"recording the phases of {program} on {tasks} ranks with the profiler")
            status = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                  "record_phases.py"),
                                     "--variant", PHASED_PROGRAMS[program], "--q", str(math.isqrt(tasks)),
                                     "--n", args[args.index("-n") + 1], "--preload", self.preload,
                                     "--out", prefix], capture_output=True, text=True)
            if status.returncode != 0:
                raise SystemExit(f"experiment: record_phases.py failed on {program}:\n{status.stdout[-2000:]}"
                                 f"{status.stderr[-2000:]}")
        return ",".join(numbered_phases(prefix))

    def step_trace(self, program, tasks, workdir):
        """Where the identity run that records the graph also writes SimGrid's trace, when the step
        rows need phases that --step-phases does not have yet; else None."""
        if not self.step_phases or numbered_phases(os.path.join(self.step_phases, f"{program}-{tasks}", "step")):
            return None
        folder = os.path.join(workdir, "trace")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        return os.path.join(folder, "trace.txt")

    def find_step_phases(self, program, tasks, trace, graph):
        """step_phases.py on the identity run's trace, into --step-phases; the trace is then removed."""
        prefix = os.path.join(self.step_phases, f"{program}-{tasks}", "step")
        os.makedirs(os.path.dirname(prefix), exist_ok=True)
        log(f"finding the step phases of {program} on {tasks} ranks in its trace")
        status = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "step_phases.py"),
                                 "--trace", trace, "--graph", graph, "--out", prefix], capture_output=True, text=True)
        if status.returncode != 0:
            raise SystemExit(f"experiment: step_phases.py failed on {program}:\n{status.stderr[-2000:]}")
        shutil.rmtree(os.path.dirname(trace))

    def step_phase_files(self, program, tasks):
        """The phases step_phases.py found in the program's trace, comma-separated."""
        prefix = os.path.join(self.step_phases, f"{program}-{tasks}", "step")
        files = numbered_phases(prefix)
        if not files:
            raise SystemExit(f"experiment: no {prefix}.phase<k>.mtx (step_phases.py writes them)")
        return ",".join(files)

    def make_mapping(self, name, program, plat, conf, graph, tasks, workdir):
        """Writes workdir/NAME.map; returns a record, or None when the mapper is not available yet.

        identity, random and treematch are written here, with the job's fingerprints once the tool
        can compute them (`hashed`), zeros before."""
        path = os.path.join(workdir, safe(name) + ".map")
        hashes = self.job_hashes(plat, conf, graph)
        record = {"file": path, "hashed": hashes is not None}
        start = time.monotonic()
        if name == "identity":
            write_mapping(path, hashes, "identity", list(range(tasks)))
        elif name == "random":
            slot_of = list(range(tasks))
            random.Random(12345).shuffle(slot_of)
            write_mapping(path, hashes, "random", slot_of)
        elif name == "treematch":
            self.probe_treematch()
            declined = self.treematch_declined(tasks)
            if declined:
                # Open MPI decides to decline before it looks at the graph (more processes on the node
                # than PUs), so one recorded decline stands for every graph with as many processes or more.
                slot_of = list(range(tasks))
                note = f"declined: identity (as recorded on {declined} with as many or fewer processes)"
            else:
                slot_of, note = treematch_mapping(self.bin, graph, tasks, workdir)
                if slot_of is None:
                    log(note)
                    return None
            write_mapping(path, hashes, "treematch", slot_of)
            record["note"] = note
        else:
            if not self.tool.has("map"):
                return None
            algo = name.partition("@")[0].partition("~")[0]
            extra, budget = dict(RANKMAP_ALGOS).get(name, []), BUDGET_MS.get(name, TIME_BUDGET_MS)
            phased = {a: (options, ms) for a, options, ms in PHASED_ALGOS}
            stepped = {a: (options, ms) for a, options, ms in STEP_ALGOS}
            if name in stepped:
                extra, budget = stepped[name]
                extra = extra + ["--phases", self.step_phase_files(program, tasks)]
            elif name in phased:
                extra, budget = phased[name]
                extra = extra + ["--phases", self.phase_files(program, graph, tasks, workdir)]
            status, stdout, stderr = self.tool.run("map", *job_args(plat, conf["ppn"], graph), "--algo", algo,
                                                   "--time-budget-ms", budget, "--seed", "1", *extra,
                                                   "-o", path, timeout=float(budget) / 1000 + MAP_TIMEOUT_S)
            if status is None:
                log(f"rankmap map --algo {name}: {stderr}")
                return {"file": None, "hashed": True, "note": stderr, "failed": True,
                        "map_seconds": round(time.monotonic() - start, 2)}
            if status != 0:
                log(f"rankmap map --algo {name} is not available: {stderr.strip()[-300:]}")
                return None
            record["log"] = stdout.strip()[-2000:]
        record["map_seconds"] = round(time.monotonic() - start, 2)
        return record

    def probe_treematch(self):
        """Records the small treematch probe once (config "probe"), before any large treematch run."""
        if self.mappings.get("probe", "pairs8", "treematch"):
            return
        slot_of, note = treematch_probe(self.bin, self.out)
        if slot_of is None:
            log(note)
            return
        self.mappings.add({"config": "probe", "program": "pairs8", "mapping": "treematch", "tasks": len(slot_of),
                           "note": f"probe with {len(slot_of)} processes on this host: {note}", "map_seconds": 0.0,
                           "file": os.path.join(self.out, "treematch-probe", "treematch.perm")})

    def treematch_declined(self, tasks):
        """`config/program` of a recorded treematch run that declined with at most `tasks` processes, or None.

        treematch declines when a node holds more processes than PUs; on this one host, more processes
        only make that more so."""
        for row in self.mappings.rows.values():
            if row["mapping"] == "treematch" and "(declined: identity)" in row.get("note", "") \
                    and row.get("tasks", tasks + 1) <= tasks:
                return f"{row['config']}/{row['program']}"
        return None

    def mapping(self, key, plat, conf, graph, tasks, workdir):
        """The mapping record of key, made (or re-made with real fingerprints) when needed."""
        done = self.mappings.get(*key)
        if done and done.get("failed"):
            return None
        if done and os.path.exists(done["file"]) and (done.get("hashed") or not self.tool.has("eval")):
            return done
        record = self.make_mapping(key[2], key[1], plat, conf, graph, tasks, workdir)
        if record is None:
            return None
        if done and key[2] in ("treematch", "random"):
            record["map_seconds"] = done["map_seconds"]
            record["note"] = done.get("note", record.get("note"))
        record.update({"config": key[0], "program": key[1], "mapping": key[2], "tasks": tasks})
        self.mappings.add(record)
        return None if record.get("failed") else record

    def host_file(self, plat, conf, mapping_file, workdir, name, fingerprinted=True):
        """Writes workdir/NAME.hosts with `rankmap emit --format smpi-hostfile` when the tool has it, and
        checks it byte for byte against hostfile.py (which writes it alone before the tool has emit, and
        for a mapping without the job's fingerprints, which emit refuses)."""
        path = os.path.join(workdir, safe(name) + ".hosts")
        node_hosts = hostfile_mod.hosts_of_alloc_file(plat["alloc"])
        lines = hostfile_mod.hostfile_lines(node_hosts, conf["ppn"], hostfile_mod.read_mapping(mapping_file))
        converted = "".join(h + "\n" for h in lines)
        if not self.tool.has("emit") or not fingerprinted:
            with open(path, "w") as f:
                f.write(converted)
            return path
        status, _, stderr = self.tool.run("emit", "--mapping", mapping_file, "--format", "smpi-hostfile",
                                          "--alloc-file", plat["alloc"], "--ppn", str(conf["ppn"]), "-o", path)
        if status != 0:
            raise SystemExit(f"experiment: rankmap emit failed on {mapping_file}: {stderr}")
        with open(path) as f:
            if f.read() != converted:
                raise SystemExit(f"experiment: rankmap emit and hostfile.py disagree on {mapping_file}")
        return path

    def check_simulated_host_file(self, key, hosts):
        """A recorded result must have run on exactly the host file the current tools write."""
        row = self.results.get(*key)
        if row and row.get("hostfile_sha1") and row["hostfile_sha1"] != file_digest(hosts):
            raise SystemExit(f"experiment: {key} was simulated with another host file than {hosts}")
        if row:
            self.host_files_checked += 1

    def evaluate(self, key, plat, conf, graph, mapping_file):
        if self.metrics.get(*key) or not self.tool.has("eval"):
            return
        status, stdout, stderr = self.tool.run("eval", *job_args(plat, conf["ppn"], graph), "--mapping",
                                               mapping_file, "--json")
        if status != 0:
            raise SystemExit(f"experiment: rankmap eval failed on {mapping_file}: {stderr}")
        row = json.loads(stdout)
        row.update({"config": key[0], "program": key[1], "mapping": key[2]})
        self.metrics.add(row)

    def simulate(self, key, plat, program, hosts, graph=None, trace=None):
        binary, args = PROGRAMS[program]
        digest = file_digest(hosts)
        # A run that records the graph is simulated even when another row has its host file (in
        # the results of an earlier folder), since no earlier row left the graph here.
        for row in self.results.rows.values() if graph is None else ():
            if row["config"] == key[0] and row["program"] == key[1] and row.get("hostfile_sha1") == digest:
                copy = dict(row, mapping=key[2], same_placement_as=row["mapping"])
                self.results.add(copy)
                log(f"{key}: same host file as {row['mapping']}, result reused")
                return
        if self.stop_at and datetime.datetime.now(datetime.timezone.utc) >= self.stop_at:
            if not self.stopped:
                log(f"stop time {self.stop_at:%H:%M} UTC reached: no further simulations")
            self.stopped = True
            return
        log(f"{key}: simulating")
        result = smpi_run.run(os.path.join(self.bin, binary), plat["xml"], hosts, graph, args, trace=trace)
        result.update({"config": key[0], "program": key[1], "mapping": key[2], "hostfile_sha1": digest,
                       "args": " ".join(args)})
        self.results.add(result)
        log(f"{key}: comm {result['comm_time']:.4e} s total {result['total_time']:.4e} s check {result['check']} "
            f"({result['sim_cpu_s']} s CPU)")
        if result["check"] != "ok":
            raise SystemExit(f"experiment: {key} failed its own check")

    def run_program(self, config, program):
        conf = CONFIGS[config]
        plat = self.platform(config)
        workdir = os.path.join(self.out, "runs", config, program)
        os.makedirs(workdir, exist_ok=True)
        graph = os.path.join(workdir, "graph.mtx")
        with open(plat["alloc"]) as f:
            tasks = sum(1 for line in f if line.startswith("node ")) * conf["ppn"]
        if not os.path.exists(graph):
            # The identity run records the graph every mapper needs; without the graph there are no
            # fingerprints yet, so hostfile.py writes this host file (the "identity" row's, written
            # later with them, is emit's and must be the same file).
            launcher_order = os.path.join(workdir, "launcher.map")
            write_mapping(launcher_order, None, "identity", list(range(tasks)))
            hosts = self.host_file(plat, conf, launcher_order, workdir, "launcher", fingerprinted=False)
            self.results.rows.pop((config, program, "identity"), None)
            trace = self.step_trace(program, tasks, workdir)
            self.simulate((config, program, "identity"), plat, program, hosts, graph, trace)
            if not os.path.exists(graph):
                return
            if trace:
                self.find_step_phases(program, tasks, trace, graph)
        for name in self.mapping_names(conf, program):
            if self.stopped:
                return
            key = (config, program, name)
            record = self.mapping(key, plat, conf, graph, tasks, workdir)
            if record is None:
                continue
            hosts = self.host_file(plat, conf, record["file"], workdir, name)
            self.check_simulated_host_file(key, hosts)
            if self.results.get(*key) is None:
                self.simulate(key, plat, program, hosts)
            self.evaluate(key, plat, conf, graph, record["file"])


def stop_time(text):
    """Today's HH:MM in UTC."""
    hour, _, minute = text.partition(":")
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.replace(hour=int(hour), minute=int(minute), second=0, microsecond=0)


def check_recorded(exp, config, program):
    """--check-only: rewrites the host file of every recorded simulation and checks it is the one simulated."""
    conf = CONFIGS[config]
    plat = exp.platform(config)
    workdir = os.path.join(exp.out, "runs", config, program)
    for name in exp.mapping_names(conf, program):
        record = exp.mappings.get(config, program, name)
        if record and not record.get("failed") and exp.results.get(config, program, name):
            hosts = exp.host_file(plat, conf, record["file"], workdir, name)
            exp.check_simulated_host_file((config, program, name), hosts)


def safe(name):
    return name.replace(":", "_").replace("+", "_").replace("@", "_").replace("~", "_")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--bin", required=True, help="directory of the smpicc-built programs and treematch_perm")
    parser.add_argument("--rankmap", help="the rankmap tool (optional until it is built)")
    parser.add_argument("--preload", help="librankmap_preload.so built for Open MPI, which records the phases of bt and sp")
    parser.add_argument("--recorded-phases", help="a folder of earlier recordings, <program>-<ranks>/recorded.phase<k>.mtx "
                        "(bench/smpi/results/recorded-phases-1024), used instead of recording again")
    parser.add_argument("--step-phases", help="a folder of phases found by step_phases.py, <program>-<ranks>/step.phase<k>.mtx")
    parser.add_argument("--only", action="append", help="CONFIG or CONFIG/PROGRAM; repeatable")
    parser.add_argument("--algos", help="comma-separated mapping names to run (identity always runs)")
    parser.add_argument("--stop-at", help="UTC time HH:MM after which no simulation starts")
    parser.add_argument("--check-only", action="store_true",
                        help="only rewrite the host files of the recorded simulations and check them")
    args = parser.parse_args(argv)
    exp = Experiment(args)
    targets = []
    for config in (args.only or DEFAULT_CONFIGS):
        name, _, program = config.partition("/")
        if name not in CONFIGS:
            raise SystemExit(f"experiment: unknown configuration {name}; known: {', '.join(CONFIGS)}")
        programs = [program] if program else CONFIGS[name].get("programs", list(PROGRAMS))
        targets += [(name, p) for p in programs]
    for config, program in targets:
        if args.check_only:
            check_recorded(exp, config, program)
        else:
            exp.run_program(config, program)
    if exp.host_files_checked and exp.tool.has("emit"):
        log(f"{exp.host_files_checked} simulated host files equal what rankmap emit writes now")
        with open(os.path.join(exp.out, "emit-check.json"), "w") as f:
            json.dump({"host_files": exp.host_files_checked, "targets": len(targets)}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
