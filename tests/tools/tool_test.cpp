// Runs `rankmap gen`, `rankmap eval` and `rankmap map` as a user would and checks the printed values and exit codes.
#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A scratch directory per test, so that tests can run in parallel.
class Tool : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::path(::testing::TempDir()) / ("rankmap_tool_" + std::string(info->name()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  /// Runs `rankmap <args>` in the scratch directory; a death by signal fails the test.
  Outcome rankmap(const std::string& args, const std::string& environment = "") const {
    const std::string command = "cd '" + dir_.string() + "' && " + environment + " '" RANKMAP_TOOL_PATH "' " + args +
                                " > '" + path("stdout") + "' 2> '" + path("stderr") + "'";
    const int status = std::system(command.c_str());
    Outcome run;
    EXPECT_TRUE(WIFEXITED(status)) << "rankmap " << args << " did not exit normally";
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = slurp(path("stdout"));
    run.err = slurp(path("stderr"));
    return run;
  }

  nlohmann::json eval_json(const std::string& args) const {
    const Outcome run = rankmap("eval --json " + args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return nlohmann::json::parse(run.out);
  }

  /// Checks the contract for every failure: one line on stderr, `rankmap: ...`, and the exit code.
  void expect_error(const std::string& args, int code, const std::string& message) const {
    const Outcome run = rankmap(args);
    EXPECT_EQ(run.exit_code, code) << args;
    EXPECT_THAT(run.err, StartsWith("rankmap: ")) << args;
    EXPECT_THAT(run.err, HasSubstr(message)) << args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << args << ": " << run.err;
  }

  std::filesystem::path dir_;
};

TEST_F(Tool, HelpListsTheSubcommands) {
  const Outcome run = rankmap("--help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("gen"));
  EXPECT_THAT(run.out, HasSubstr("eval"));
  EXPECT_THAT(run.out, HasSubstr("map"));
  EXPECT_THAT(run.out, HasSubstr("emit"));
  EXPECT_THAT(run.out, HasSubstr("place"));
  EXPECT_EQ(rankmap("eval --help").exit_code, 0);
  EXPECT_THAT(rankmap("emit --help").out, HasSubstr("openmpi-rankfile, mpich-hostfile, slurm-hostfile, bgq-mapfile"));
  EXPECT_THAT(rankmap("map --help").out, HasSubstr("mahd, emahd, refine, anneal, split, grasp, bisect, tree"));
  EXPECT_THAT(rankmap("map --help").out, HasSubstr("scotch"));
  EXPECT_THAT(rankmap("map --help").out, HasSubstr("  beam=int" + std::string(12, ' ') + "partial solutions the merge keeps per step"));
  EXPECT_THAT(rankmap("gen --help").out, HasSubstr("nas-cg"));
}

TEST_F(Tool, GenWritesMatrixMarket) {
  const Outcome run = rankmap("gen ring --ranks 3 --bytes 2.5 -o -");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "%%MatrixMarket matrix coordinate real general\n"
            "% communication graph: entry (i, j, w) is w bytes sent from task i to task j\n"
            "3 3 6\n"
            "1 2 2.5\n1 3 2.5\n2 1 2.5\n2 3 2.5\n3 1 2.5\n3 2 2.5\n");
  const Outcome to_file = rankmap("gen stencil2d --dims 3x4 --periodic -o s.mtx");
  EXPECT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "wrote s.mtx: stencil2d, 12 tasks, 48 edges, 48 bytes\n");
  EXPECT_THAT(slurp(path("s.mtx")), HasSubstr("\n12 12 48\n"));
}

// A 4-task ring, 10 bytes each way on each edge, on the 1D mesh 0-1-2-3 with one task per node.
// Hops 1, 1, 1 and 3 (3 <-> 0 has no wrap-around): hop-bytes 2 * 10 * 6 = 120 over 80 bytes.
// Each + channel carries its neighbour flow and the 0 -> 3 flow: 20, the MCL under every routing.
// Lower bound: 80 forced bytes over 6 channels = 13.33 (a single node's 2 channels give only 10).
TEST_F(Tool, EvalRingOnAMeshByHand) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const auto j = eval_json("--graph ring.mtx --topology mesh:4 --ppn 1");
  EXPECT_EQ(j["tasks"], 4);
  EXPECT_EQ(j["nodes"], 4);
  EXPECT_EQ(j["algorithm"], "identity");
  EXPECT_EQ(j["routing"], "adaptive");
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 120);
  EXPECT_DOUBLE_EQ(j["mcl_dor"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive_hop"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["mcl"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["dilation_avg"].get<double>(), 1.5);
  EXPECT_EQ(j["dilation_max"], 3);
  EXPECT_DOUBLE_EQ(j["mcl_lower_bound"].get<double>(), 80.0 / 6);
}

// On the torus:4 ring every edge is one hop and each + channel carries one 10-byte flow.
TEST_F(Tool, EvalRingOnATorusTextOutput) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const Outcome run = rankmap("eval --graph ring.mtx --topology torus:4 --ppn 1 --routing dor");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nhop_bytes          80\n"));
  EXPECT_THAT(run.out, HasSubstr("\nmcl                10\n"));
  EXPECT_THAT(run.out, HasSubstr("\nrouting            dor\n"));
  EXPECT_THAT(run.out, HasSubstr("\ndilation_max       1\n"));
}

// Slots 0-3 on nodes 0, 2, 1, 3 of the mesh: the ring's edges now span 2, 1, 2 and 3 hops
// (hop-bytes 2 * 10 * 8 = 160) and the middle link carries four flows (MCL 40).
constexpr double kShuffledHopBytes = 160, kShuffledMcl = 40;

TEST_F(Tool, EvalWithAllocFile) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  write("nodes.coords", "grid 4 torus=0\nnode h0 0\nnode h2 2\nnode h1 1\nnode h3 3\n");
  const auto j = eval_json("--graph ring.mtx --alloc-file nodes.coords --ppn 1");
  EXPECT_EQ(j["nodes"], 4);
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), kShuffledHopBytes);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), kShuffledMcl);
  EXPECT_DOUBLE_EQ(j["dilation_avg"].get<double>(), 2);
}

TEST_F(Tool, EvalWithMappingFile) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const auto identity = eval_json("--graph ring.mtx --topology mesh:4 --ppn 1");
  const std::string header = "rankmap-mapping 1\ntasks 4\ngraph " + identity["graph_hash"].get<std::string>() +
                             "\nallocation " + identity["allocation_hash"].get<std::string>() + "\n";
  // Task t on slot 0, 2, 1, 3: the same placement as the shuffled allocation file.
  write("m.map", header + "algorithm by-hand 40\n0 0\n1 2\n2 1\n3 3\n");
  const auto j = eval_json("--graph ring.mtx --topology mesh:4 --ppn 1 --mapping m.map");
  EXPECT_EQ(j["algorithm"], "by-hand");
  EXPECT_DOUBLE_EQ(j["objective"].get<double>(), 40);
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), kShuffledHopBytes);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), kShuffledMcl);

  // The same file against a job with other bytes, or on other nodes, is refused.
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 11 -o other.mtx").exit_code, 0);
  expect_error("eval --graph other.mtx --topology mesh:4 --ppn 1 --mapping m.map", 1, "m.map: graph hash");
  expect_error("eval --graph ring.mtx --topology torus:4 --ppn 1 --mapping m.map", 1, "m.map: allocation hash");
  write("bad.map", header + "algorithm x\n0 0\n1 0\n2 1\n3 3\n");
  expect_error("eval --graph ring.mtx --topology mesh:4 --ppn 1 --mapping bad.map", 1,
               "bad.map:7: slot 0 is already taken on line 6");
}

// A 4-task graph on torus:2x2 with ppn 2 (8 slots) uses slots 0-3, on nodes (0,0) and (0,1).
// Only 1 <-> 2 and 3 <-> 0 cross, 20 bytes each way over the extent-2 dimension's single
// channel of capacity 2: MCL 10, hop-bytes 40.
TEST_F(Tool, SmallerGraphUsesTheFirstSlots) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const auto j = eval_json("--graph ring.mtx --topology torus:2x2 --ppn 2");
  EXPECT_EQ(j["tasks"], 4);
  EXPECT_EQ(j["nodes"], 2);
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 40);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), 10);
  EXPECT_DOUBLE_EQ(j["mcl_dor"].get<double>(), 10);
}

TEST_F(Tool, EvalReadsMetis) {
  // The 4-cycle 1-2-3-4 as a METIS file: the same ring as above, 1 byte per direction.
  write("ring.graph", "4 4\n2 4\n1 3\n2 4\n3 1\n");
  const auto j = eval_json("--graph ring.graph --topology mesh:4 --ppn 1");
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 12);
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), 2);
}

// A 4-task ring, 10 bytes each way per edge, on mesh:2x2 (nodes 0 (0,0), 1 (0,1), 2 (1,0), 3 (1,1)).
// The identity puts the edges 1-2 and 3-0 on diagonals of 2 hops: hop-bytes 2 * 10 * (1+2+1+2) = 120.
// Around the square every edge is one hop: 80, which grasp's 2-swaps always reach here (a crossed
// layout becomes the square by swapping two neighbours).
TEST_F(Tool, MapRingOnASquareByHand) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const Outcome run = rankmap("map --graph ring.mtx --topology mesh:2x2 --ppn 1 --algo grasp:4 --objective hopbytes -o m.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("algorithm  grasp:4\nobjective  hopbytes\nbefore     120 (identity)\nafter      80\n"
                                  "ratio      0.666667\ntime_s     "));
  EXPECT_THAT(run.out, HasSubstr("\nwrote      m.map\n"));
  const auto j = eval_json("--graph ring.mtx --topology mesh:2x2 --ppn 1 --mapping m.map");
  EXPECT_EQ(j["algorithm"], "grasp:4");
  EXPECT_DOUBLE_EQ(j["objective"].get<double>(), 80);
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 80);
}

// Without --algo, map runs auto: the ring's crossed identity (hop-bytes 120) becomes a walk around the
// square (80), and the output and the mapping file name the member that won.
TEST_F(Tool, MapDefaultsToAutoAndNamesTheWinner) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const Outcome run = rankmap("map --graph ring.mtx --topology mesh:2x2 --ppn 1 --objective hopbytes -o m.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, MatchesRegex("algorithm  auto\\([a-z+-]+\\)\nportfolio  hopbytes of each start after refine: [^\n]*"
                                    "identity[^\n]*\nobjective  hopbytes\nbefore     120 \\(identity\\)\n"
                                    "after      80\n(.|\n)*"));
  const auto j = eval_json("--graph ring.mtx --topology mesh:2x2 --ppn 1 --mapping m.map");
  EXPECT_THAT(j["algorithm"].get<std::string>(), StartsWith("auto("));
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 80);
}

// refine starts from the identity's crossed layout given as a mapping file and swaps its way to the square.
TEST_F(Tool, MapStartsFromAGivenMapping) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 --bytes 10 -o ring.mtx").exit_code, 0);
  const std::string job = "--graph ring.mtx --topology mesh:2x2 --ppn 1 --objective hopbytes ";
  ASSERT_EQ(rankmap("map " + job + "--algo identity -o first.map").exit_code, 0);
  const Outcome run = rankmap("map " + job + "--algo refine --time-budget-ms 300 --mapping first.map -o second.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\ninitial    120 (first.map)\nafter      80\n"));
  const auto j = eval_json("--graph ring.mtx --topology mesh:2x2 --ppn 1 --mapping second.map");
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 80);
}

// Scotch keeps an 8-task ring on the 8-node ring one hop per edge, like the identity: MCL 10, hop-bytes 160.
TEST_F(Tool, MapWithScotchUnderMcl) {
  ASSERT_EQ(rankmap("gen ring --ranks 8 --bytes 10 -o ring.mtx").exit_code, 0);
  const Outcome run = rankmap("map --graph ring.mtx --topology torus:8 --ppn 1 --algo scotch -o s.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("objective  mcl (adaptive)\nbefore     10 (identity)\nafter      10\n"));
  const auto j = eval_json("--graph ring.mtx --topology torus:8 --ppn 1 --mapping s.map");
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 160);
}

// rahtm tiles the 8x8 stencil into 2x2 blocks laid out like the 4x4 torus: every link between
// neighbouring nodes carries the 2 edges crossing it, 1 byte each way, so MCL 2 (identity: 9).
TEST_F(Tool, MapWithRahtmTilesAStencil) {
  ASSERT_EQ(rankmap("gen stencil2d --dims 8x8 -o st.mtx").exit_code, 0);
  const Outcome run = rankmap("map --graph st.mtx --topology torus:4x4 --ppn 4 --algo rahtm:beam=8 --threads 2 -o r.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("objective  mcl (adaptive)\nbefore     9 (identity)\nafter      2\n"));
  const auto j = eval_json("--graph st.mtx --topology torus:4x4 --ppn 4 --mapping r.map");
  EXPECT_EQ(j["algorithm"], "rahtm:beam=8");
  EXPECT_DOUBLE_EQ(j["mcl_adaptive"].get<double>(), 2);
}

// The byte matrix 0->1 100, 1->0 100, 1->2 2500, 2->1 2500, 2->2 7 on the line 0-1-2: every edge is
// one hop except the self loop: hop-bytes 100 + 100 + 2500 + 2500 = 5200.
TEST_F(Tool, EvalReadsACsvMatrix) {
  write("m.csv", "0,100,0\n100,0,2500\n0,2500,7\n");
  const auto j = eval_json("--graph m.csv --topology mesh:3 --ppn 1");
  EXPECT_EQ(j["tasks"], 3);
  EXPECT_DOUBLE_EQ(j["total_bytes"].get<double>(), 5207);
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 5200);
}

// Open MPI monitoring profiles of 3 ranks (E lines only count): 0->1 308, 1->0 8, 1->2 608, 2->0 900,
// 2->1 8. On the line 0-1-2 only 2->0 takes 2 hops: hop-bytes 308 + 8 + 608 + 2*900 + 8 = 2732.
TEST_F(Tool, EvalReadsAnOpenMpiMonitoringProfileSet) {
  std::filesystem::create_directories(path("prof"));
  write("prof/app.0.prof", "# POINT TO POINT\nE\t0\t1\t308 bytes\t4 msgs sent\t0,3,1\n# COLLECTIVES\n"
                           "C\t0\t1\t8 bytes\t1 msgs sent\nD\tMPI_COMM_WORLD\tprocs: 0,1,2\n");
  write("prof/app.1.prof", "E\t1\t0\t8 bytes\t1 msgs sent\t1\nE\t1\t2\t608 bytes\t4 msgs sent\t1,3\n");
  write("prof/app.2.prof", "E\t2\t0\t900 bytes\t3 msgs sent\t3\nE\t2\t1\t8 bytes\t1 msgs sent\t1\n");
  for (const char* graph : {"prof/app", "prof/app.1.prof", "prof"}) {
    const auto j = eval_json("--graph " + std::string(graph) + " --topology mesh:3 --ppn 1");
    EXPECT_DOUBLE_EQ(j["total_bytes"].get<double>(), 1832) << graph;
    EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 2732) << graph;
  }
}

// torus:2x2 with 2 slots per node: slot s is the (s % 2)-th slot of node s / 2, named a, b, c, d.
// Task 0 on slot 3 runs on b as its slot 1, task 1 on slot 0 on a as slot 0, and so on.
TEST_F(Tool, EmitWritesLauncherFilesOfAMapping) {
  ASSERT_EQ(rankmap("gen ring --ranks 8 -o ring.mtx").exit_code, 0);
  const auto j = eval_json("--graph ring.mtx --topology torus:2x2 --ppn 2");
  write("m.map", "rankmap-mapping 1\ntasks 8\ngraph " + j["graph_hash"].get<std::string>() + "\nallocation " +
                     j["allocation_hash"].get<std::string>() + "\nalgorithm by-hand\n"
                     "0 3\n1 0\n2 7\n3 4\n4 1\n5 6\n6 2\n7 5\n");
  write("hosts", "a\nb\nc\nd\n");
  ASSERT_EQ(rankmap("gen ring --ranks 4 -o small.mtx").exit_code, 0);
  const std::string job = "emit --mapping m.map --topology torus:2x2 --ppn 2 ";
  const Outcome rankfile = rankmap(job + "--format openmpi-rankfile --hosts hosts");
  ASSERT_EQ(rankfile.exit_code, 0) << rankfile.err;
  EXPECT_EQ(rankfile.out,
            "rank 0=b slot=1\nrank 1=a slot=0\nrank 2=d slot=1\nrank 3=c slot=0\n"
            "rank 4=a slot=1\nrank 5=d slot=0\nrank 6=b slot=0\nrank 7=c slot=1\n");
  ASSERT_EQ(rankmap(job + "--format mpich-hostfile --hosts hosts -o hostfile").exit_code, 0);
  EXPECT_EQ(slurp(path("hostfile")), "b\na\nd\nc\na\nd\nb\nc\n");
  // SimGrid TORUS names, dimension 0 fastest: node 0 (0,0) n0, 1 (0,1) n2, 2 (1,0) n1, 3 (1,1) n3.
  const Outcome smpi = rankmap(job + "--format smpi-hostfile");
  ASSERT_EQ(smpi.exit_code, 0) << smpi.err;
  EXPECT_EQ(smpi.out, "n2\nn0\nn3\nn1\nn0\nn3\nn2\nn1\n");
  // A mapping of the first 4 slots uses nodes a and b only; --hosts still names all four nodes.
  ASSERT_EQ(rankmap("map --graph small.mtx --topology torus:2x2 --ppn 2 --algo identity -o small.map").exit_code, 0);
  const Outcome small = rankmap("emit --mapping small.map --topology torus:2x2 --ppn 2 --format slurm-hostfile "
                                "--hosts hosts");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_EQ(small.out, "a\na\nb\nb\n");
  // The same mapping on another slot order is refused.
  expect_error("emit --mapping m.map --topology torus:4 --ppn 2 --format smpi-hostfile", 1,
               "m.map: allocation hash " + j["allocation_hash"].get<std::string>() + " does not match");
}

/// A profile as RANKMAP_PROFILE writes it: a ring of 4 processes, one per node of a 2x2 mesh
/// named a, b, c, d in the launcher's order, which crosses the ring over both diagonals.
class Place : public Tool {
 protected:
  void SetUp() override {
    Tool::SetUp();
    write("p.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 8\n1 2 10\n2 3 10\n3 4 10\n4 1 10\n"
                   "2 1 10\n3 2 10\n4 3 10\n1 4 10\n");
    write("p.coords", "grid 2x2 torus=00\nnode a 0 0 slots=1\nnode b 0 1 slots=1\nnode c 1 0 slots=1\n"
                      "node d 1 1 slots=1\n");
    write("p.hosts", "host-a\nhost-b\nhost-c\nhost-d\n");
  }
  /// The host each rank starts on, as the launcher file lists them.
  static std::string hosts_of(const std::string& mapping) {
    static const char* const kHosts[] = {"host-a", "host-b", "host-c", "host-d"};
    std::istringstream in(mapping);
    std::string line, out;
    std::map<int, int> slot_of;
    while (std::getline(in, line)) {
      int task = -1, slot = -1;
      if (std::istringstream(line) >> task >> slot) slot_of[task] = slot;
    }
    for (const auto& [task, slot] : slot_of) out += std::string(kHosts[slot]) + "\n";
    return out;
  }
};

// The identity crosses the ring (hop-bytes 120, see MapRingOnASquareByHand); the placed order walks
// around the square (80). The host file starts each rank on the node of its slot.
TEST_F(Place, MovesRanksWhenTheMappingBeatsTheLauncherOrder) {
  const Outcome run = rankmap("place --profile p --format mpich-hostfile -o hf --objective hopbytes --algo grasp:4 "
                              "--mapping-output placed.map");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("profile    p (4 processes on 4 nodes)\nalgorithm  grasp:4\n"));
  EXPECT_THAT(run.out, HasSubstr("objective  hopbytes: 120 (launcher's order) -> 80 (mapped)\n"));
  EXPECT_THAT(run.out, HasSubstr("decision   placed by the mapping (gain 0.3333, RANKMAP_MIN_GAIN 0.02)\n"));
  EXPECT_THAT(run.out, HasSubstr("hopbytes   120 -> 80 (ratio 0.6667)\n"));
  EXPECT_THAT(run.out, HasSubstr("launch     mpiexec -f hf ./app\n"));
  EXPECT_EQ(slurp(path("hf")), hosts_of(slurp(path("placed.map"))));
  const auto j = eval_json("--graph p.mtx --alloc-file p.coords --mapping placed.map");
  EXPECT_DOUBLE_EQ(j["hop_bytes"].get<double>(), 80);
}

TEST_F(Place, KeepsTheLauncherOrderBelowTheMinimumGain) {
  const Outcome run = rankmap("place --profile p --format openmpi-rankfile -o rf --objective hopbytes --algo grasp:4 "
                              "--min-gain 0.5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("decision   kept the launcher's order: gain below RANKMAP_MIN_GAIN "
                                 "(gain 0.3333, RANKMAP_MIN_GAIN 0.5)\n"));
  EXPECT_THAT(run.out, HasSubstr("hopbytes   120 -> 120 (ratio 1)\n"));
  EXPECT_EQ(slurp(path("rf")), "rank 0=host-a slot=0\nrank 1=host-b slot=0\nrank 2=host-c slot=0\n"
                               "rank 3=host-d slot=0\n");
  const Outcome from_environment =
      rankmap("place --profile p --format mpich-hostfile -o hf --objective hopbytes --algo grasp:4",
              "RANKMAP_MIN_GAIN=0.5");
  EXPECT_THAT(from_environment.out, HasSubstr("kept the launcher's order: gain below RANKMAP_MIN_GAIN "
                                              "(gain 0.3333, RANKMAP_MIN_GAIN 0.5)"));
}

// When the launcher did not put ranks in node order, the profile's PREFIX.launch.map says where each
// ran; that order, here already the square, is the one to beat.
TEST_F(Place, MeasuresAgainstTheRecordedLauncherOrder) {
  ASSERT_EQ(rankmap("map --graph p.mtx --alloc-file p.coords --objective hopbytes --algo grasp:4 -o p.launch.map")
                .exit_code,
            0);
  const Outcome run = rankmap("place --profile p --format mpich-hostfile -o hf --objective hopbytes");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("objective  hopbytes: 80 (launcher's order) -> 80 (mapped)\n"));
  EXPECT_THAT(run.out, HasSubstr("decision   kept the launcher's order"));
  EXPECT_EQ(slurp(path("hf")), hosts_of(slurp(path("p.launch.map"))));
}

TEST_F(Place, RefusesIncompleteProfiles) {
  expect_error("place --profile nothing --format mpich-hostfile -o hf", 1, "cannot open 'nothing.mtx'");
  write("p.hosts", "one\ntwo\n");
  expect_error("place --profile p --format mpich-hostfile -o hf", 1,
               "p.hosts: 2 host names for the 4 nodes of p.coords; give one per node, in node order");
  expect_error("place --profile p --format mpich-hostfile -o hf --hosts p.hosts", 1, "p.hosts: 2 host names");
  write("p.hosts", "a\nb\nc\nd\n");
  expect_error("place --profile p --format mpich-hostfile -o hf --min-gain 1", 1,
               "--min-gain: '1': expected a fraction from 0 up to (not including) 1");
  expect_error("place --profile p --format hostfile -o hf", 1, "--format 'hostfile' is not a launcher format");
  write("p.coords", "grid 2x2 torus=00\nnode a 0 0 slots=1\nnode b 0 1 slots=1\nnode c 1 0 slots=1\n");
  expect_error("place --profile p --format mpich-hostfile -o hf", 1,
               "p.mtx: the profile has 4 processes but p.coords 3 slots");
}

struct ErrorCase {
  const char* args;
  int exit_code;  // 2: bad command line, 1: bad input
  const char* message;
};

constexpr ErrorCase kErrorCases[] = {
    {"", 2, "A subcommand is required"},
    {"frobnicate", 2, "unknown subcommand 'frobnicate'; expected one of: gen, eval, map"},
    {"eval --graph ring.mtx --topology torus:4 --ppn 1 --bogus", 2, "--bogus"},
    {"eval --topology torus:4 --ppn 1", 2, "--graph is required"},
    {"eval --graph ring.mtx --topology torus:4 --alloc-file x --ppn 1", 2, "excludes"},
    {"eval --graph ring.mtx --ppn 1", 1, "give exactly one of --topology and --alloc-file"},
    {"eval --graph ring.mtx --topology torus:4", 1, "--ppn must be at least 1"},
    {"eval --graph ring.mtx --topology torus:4 --ppn x", 2, "--ppn"},
    {"eval --graph ring.mtx --topology torus:3 --ppn 1", 1,
     "ring.mtx: the graph has 4 tasks but the allocation (torus:3 with ppn 1) has only 3 slots"},
    {"eval --graph ring.mtx --topology cube:4 --ppn 1", 1, "cube:4"},
    {"eval --graph ring.mtx --topology torus:4 --ppn 1 --routing zigzag", 1, "zigzag"},
    {"eval --graph missing.mtx --topology torus:4 --ppn 1", 1, "cannot open 'missing.mtx'"},
    {"eval --graph ring.mtx --alloc-file missing.coords --ppn 1", 1, "missing.coords"},
    {"eval --graph bad.mtx --topology torus:4 --ppn 1", 1, "bad.mtx:3: column 5 is outside 1..4"},
    {"gen nas-bt --ranks 8 -o x.mtx", 1, "pattern nas-bt: the multi-partition scheme needs a square number"},
    {"gen nosuch --ranks 8 -o x.mtx", 1, "unknown pattern 'nosuch'"},
    {"gen ring --ranks 4 --dims 2x2 -o x.mtx", 2, "excludes"},
    {"gen stencil2d --dims 4xq -o x.mtx", 1, "--dims: '4xq' is not a list of positive extents"},
    {"gen ring --ranks 4", 2, "--output is required"},
    {"gen ring --ranks 4 -o /nonexistent/dir/x.mtx", 1, "cannot write '/nonexistent/dir/x.mtx'"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo auto:attempts=0 -o m.map", 1,
     "auto: parameter 'attempts=0' is not attempts=N with N a positive integer"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo split", 2, "--output is required"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo mahd+nope -o m.map", 1,
     "--algo: 'nope' is not an algorithm; known: auto,"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo split --objective fast -o m.map", 1,
     "objective 'fast': expected mcl or hopbytes"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo grasp --threads 0 -o m.map", 1,
     "--threads must be at least 1"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo grasp:many -o m.map", 1,
     "grasp: parameter 'many' is not a positive iteration count"},
    {"map --graph ring.mtx --topology torus:4 --ppn 1 --algo split -o /nonexistent/dir/m.map", 1, "/nonexistent/dir/m.map"},
    {"emit --format mpich-hostfile --topology torus:4 --ppn 1", 2, "--mapping is required"},
    {"emit --mapping m.map --format rankfile --topology torus:4 --ppn 1", 1,
     "--format 'rankfile' is not a launcher format; expected one of openmpi-rankfile, mpich-hostfile"},
    {"emit --mapping m.map --format mpich-hostfile --topology torus:4 --ppn 1", 1,
     "--format mpich-hostfile needs host names: give --hosts FILE"},
    {"emit --mapping m.map --format mpich-hostfile --topology torus:4 --ppn 1 --hosts missing.hosts", 1,
     "cannot open 'missing.hosts'"},
    {"emit --mapping m.map --format mpich-hostfile --topology torus:4 --ppn 1 --hosts two.hosts", 1,
     "two.hosts: 2 host names for the 4 nodes of the allocation; give one per node, in node order"},
    {"emit --mapping m.map --format bgq-mapfile --topology torus:4 --ppn 1", 1,
     "bgq-mapfile needs a 5-dimensional grid (A B C D E), not torus:4"},
    {"eval --graph m.csv --topology torus:4 --ppn 1", 1, "m.csv:2: the row has 3 values but the first has 4"},
    {"eval --graph nothing --topology torus:4 --ppn 1", 1, "cannot open 'nothing'"},
    {"eval --graph lone.prof --topology torus:4 --ppn 1", 1, "lone.prof: not a pml monitoring profile"},
};

TEST_F(Tool, ErrorsAreOneLineWithExitCodes) {
  ASSERT_EQ(rankmap("gen ring --ranks 4 -o ring.mtx").exit_code, 0);
  write("bad.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 1\n1 5 1\n");
  ASSERT_EQ(rankmap("map --graph ring.mtx --topology torus:4 --ppn 1 --algo identity -o m.map").exit_code, 0);
  write("two.hosts", "a\nb\n");
  write("m.csv", "0,1,0,0\n1,0,1\n");
  write("lone.prof", "E\t0\t0\t1 bytes\t1 msgs sent\n");
  for (const ErrorCase& c : kErrorCases) expect_error(c.args, c.exit_code, c.message);
}

}  // namespace
