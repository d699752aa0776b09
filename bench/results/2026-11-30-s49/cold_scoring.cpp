#include <rankmap/graph/patterns.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/mapping/mapping.hpp>
#include <rankmap/topology/allocation.hpp>
#include <rankmap/topology/allocation_generators.hpp>
#include <rankmap/topology/routing.hpp>
#include "mapping/objective_score.hpp"
#include <chrono>
#include <cstdio>
using namespace rankmap;
int main(int argc, char** argv) {
  graph::PatternSpec spec; spec.name = "fft2d"; spec.ranks = 2000;
  auto g = graph::make_pattern(spec);
  auto grid = topology::Grid::parse("torus:16x24x24");
  for (unsigned seed : {4u, 15u}) {
    auto alloc = topology::Allocation::of_nodes(grid, topology::fragmented_nodes(grid, 2000, seed), 1);
    auto id = mapping::identity_mapping(2000);
    for (int rep = 0; rep < 2; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      auto r = topology::make_routing_model(grid, "adaptive");
      double m = metrics::max_channel_load(g, alloc, id, *r);
      auto t1 = std::chrono::steady_clock::now();
      mapping::MapOptions o;
      mapping::detail::ObjectiveScorer sc(g, alloc, o);
      auto s = sc(id);
      auto t2 = std::chrono::steady_clock::now();
      printf("seed %u mcl %.2f %.1f ms | scorer %.2f %.1f ms\n", seed, m, std::chrono::duration<double,std::milli>(t1-t0).count(), s.objective, std::chrono::duration<double,std::milli>(t2-t1).count());
    }
  }
}
