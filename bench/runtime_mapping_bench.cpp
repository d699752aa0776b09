// The mapping step of the runtime alone, in process: a 16,384-rank 3D stencil on an emulated
// 16x16x16 torus with 4 processes per node (or, with `fattree`, on a 4,096-node fat-tree tapered 2:1
// above its leaves, 4 per node), decided by the same code rank 0 runs in a reorder.
//
// Usage: runtime_mapping_bench [REPETITIONS] [torus|fattree]
#include "decide.hpp"
#include "measure.hpp"
#include "placement.hpp"
#include "providers.hpp"

#include <rankmap/graph/comm_graph.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

using namespace rankmap;

/// The edges rank 0 gathers for a periodic 32x32x16 stencil, as (source, destination, weight).
std::vector<int> stencil_triples(int nx, int ny, int nz) {
  std::vector<int> t;
  auto id = [&](int x, int y, int z) { return (((x + nx) % nx) * ny + (y + ny) % ny) * nz + (z + nz) % nz; };
  for (int x = 0; x < nx; ++x)
    for (int y = 0; y < ny; ++y)
      for (int z = 0; z < nz; ++z) {
        const int me = id(x, y, z);
        const int nbrs[6] = {id(x - 1, y, z), id(x + 1, y, z), id(x, y - 1, z),
                             id(x, y + 1, z), id(x, y, z - 1), id(x, y, z + 1)};
        const int weights[6] = {256, 256, 384, 384, 768, 768};
        for (int k = 0; k < 6; ++k) t.insert(t.end(), {me, nbrs[k], weights[k]});
      }
  return t;
}

/// The torus placement as the runtime builds it from every process's record.
runtime::Placement torus_placement(int tasks) {
  const auto provider = coords::make_emulation_provider(coords::CoordsSpec::parse("emulate:torus:16x16x16,ppn=4"));
  std::vector<runtime::ProcessRecord> records;
  for (int r = 0; r < tasks; ++r) records.push_back(runtime::make_record(provider->locate(r, tasks), true, 1));
  return *runtime::placement_from_records(records, provider->locate(0, tasks)).placement;
}

/// No coordinate provider knows fat-trees yet, so the placement is made directly: the launcher's
/// order fills the nodes in SimGrid's numbering, 4 slots each.
runtime::Placement fat_tree_placement() {
  const auto alloc = topology::Allocation::full(topology::Network::parse("fattree:3;16,16,16;1,8,8;1,1,1"), 4);
  const std::size_t slots = static_cast<std::size_t>(alloc.num_slots());
  return {runtime::Placement::Mode::network, alloc, std::vector<int>(slots, -1)};
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string network = argc > 2 ? argv[2] : "torus";
  const int tasks = 32 * 32 * 16;
  const runtime::Placement placement = network == "fattree" ? fat_tree_placement() : torus_placement(tasks);
  const std::vector<int> triples = stencil_triples(32, 32, 16);
  runtime::Config config;  // the defaults: auto, mcl under adaptive, 200 ms budget
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    std::vector<graph::Edge> edges;
    for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
      edges.push_back({triples[k], triples[k + 1], static_cast<double>(triples[k + 2])});
    const graph::CommGraph g = graph::CommGraph::from_edges(tasks, std::move(edges));
    const runtime::Decision d = runtime::decide(g, placement, config);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    std::printf("mapping_seconds %.6f tasks %d algorithm %s before %g after %g applied %d cpu_seconds %.6f note \"%s\"\n",
                bench::seconds_since(start), tasks, d.algorithm.c_str(), d.before, d.after, d.applied ? 1 : 0, cpu,
                d.note.c_str());
  }
  return 0;
}
