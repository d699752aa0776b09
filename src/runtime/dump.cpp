// Writing the files of RANKMAP_DUMP with the readers' own writers, so `rankmap map` reads them back.
#include "dump.hpp"

#include <rankmap/graph/matrix_market.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/topology/allocation_file.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace rankmap::runtime {

topology::AllocationFile allocation_file_of(const topology::Allocation& alloc, std::span<const std::string> hosts) {
  topology::AllocationFile file{alloc.network(), {}};
  for (int i = 0; i < alloc.num_nodes(); ++i) {
    const std::string host = hosts.empty() ? "node" + std::to_string(i) : hosts[static_cast<std::size_t>(i)];
    file.nodes.push_back({host, alloc.node(i), static_cast<int>(alloc.slots_of_node(i).size()), 0});
  }
  return file;
}

std::string dump_reorder(const std::string& dir, const graph::CommGraph& graph, const Placement& placement,
                         const Decision& decision) {
  static std::atomic<int> counter{0};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("RANKMAP_DUMP: cannot create directory " + dir + ": " + ec.message());
  char name[32];
  std::snprintf(name, sizeof name, "/reorder-%03d", ++counter);
  const std::string stem = dir + name;

  graph::write_matrix_market(stem + ".mtx", graph);
  std::ofstream coords(stem + ".coords");
  coords << "# allocation of " << placement.alloc.num_slots() << " slots, written by RANKMAP_DUMP\n";
  write_allocation_file(coords, allocation_file_of(placement.alloc));
  if (!coords) throw InputError("RANKMAP_DUMP: cannot write " + stem + ".coords");

  mapping::MappingFile m;
  m.tasks = graph.num_tasks();
  m.graph_hash = graph.canonical_hash();
  m.allocation_hash = placement.alloc.hash();
  m.algorithm = decision.applied ? decision.algorithm : "identity";
  const double objective = decision.applied ? decision.after : decision.before;
  if (std::isfinite(objective)) m.objective = objective;
  m.slot_of = decision.slot_of;
  mapping::write_mapping_file(stem + ".map", m);
  return stem;
}

}  // namespace rankmap::runtime
