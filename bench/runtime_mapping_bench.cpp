// The mapping step of the runtime alone, in process: a 16,384-rank 3D stencil on an emulated
// 16x16x16 torus with 4 processes per node, decided by the same code rank 0 runs in a reorder.
#include "decide.hpp"
#include "placement.hpp"
#include "providers.hpp"

#include <rankmap/graph/comm_graph.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 3;
  const int tasks = 32 * 32 * 16;
  const auto provider = coords::make_emulation_provider(coords::CoordsSpec::parse("emulate:torus:16x16x16,ppn=4"));
  std::vector<runtime::ProcessRecord> records;
  for (int r = 0; r < tasks; ++r) records.push_back(runtime::make_record(provider->locate(r, tasks), true, 1));
  const runtime::PlacementResult placement =
      runtime::placement_from_records(records, provider->locate(0, tasks).grid);
  const std::vector<int> triples = stencil_triples(32, 32, 16);
  runtime::Config config;  // the defaults: auto, mcl under adaptive, 200 ms budget
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<graph::Edge> edges;
    for (std::size_t k = 0; k + 2 < triples.size(); k += 3)
      edges.push_back({triples[k], triples[k + 1], static_cast<double>(triples[k + 2])});
    const graph::CommGraph g = graph::CommGraph::from_edges(tasks, std::move(edges));
    const runtime::Decision d = runtime::decide(g, *placement.placement, config);
    std::printf("mapping_seconds %.6f tasks %d algorithm %s before %g after %g applied %d\n", seconds_since(start),
                tasks, d.algorithm.c_str(), d.before, d.after, d.applied ? 1 : 0);
  }
  return 0;
}
