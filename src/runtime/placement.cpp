// Building placements from the per-process records, and taking sub-placements of them.
#include "placement.hpp"

#include "step_guard.hpp"

#include <rankmap/hash.hpp>
#include <rankmap/topology/slurm_topology.hpp>

#include <cstdio>

#include <unordered_map>

namespace rankmap::runtime {

namespace {

/// What a location knows of the network, which decides what a record's coordinates mean.
enum class Known { node, grid, network, slurm_tree };

Known known_by(const coords::Location& where) {
  if (where.grid) return Known::grid;
  if (where.network) return Known::network;
  if (!where.switch_path.empty() && where.switch_path.size() <= static_cast<std::size_t>(topology::kMaxDims))
    return Known::slurm_tree;
  return Known::node;
}

std::uint64_t text_hash(const std::string& text) {
  StableHash h;
  h.bytes(text.data(), text.size());
  // 0 means "no network" in a record.
  return h.digest() | 1;
}

/// Equal exactly for processes that must read each other's coordinates alike.
std::uint64_t network_hash(const coords::Location& where) {
  switch (known_by(where)) {
    case Known::grid: return text_hash(where.grid->to_string());
    case Known::network: return text_hash(where.network->to_string());
    case Known::slurm_tree: return text_hash("slurm-tree:" + std::to_string(where.switch_path.size()));
    case Known::node: return 0;
  }
  return 0;
}

/// The switch path from the top down to `level`, hashed: names are unique only under their parent.
std::int32_t switch_hash(std::span<const std::string> path, std::size_t level) {
  StableHash h;
  for (std::size_t l = 0; l <= level; ++l) {
    h.bytes(path[l].data(), path[l].size());
    h.u64(path[l].size());
  }
  return static_cast<std::int32_t>(h.digest() & 0x7fffffff);
}

}  // namespace

ProcessRecord make_record(const std::optional<coords::Location>& where, bool config_ok, std::uint64_t config_hash) {
  ProcessRecord r;
  r.config_hash = config_hash;
  if (!config_ok) {
    r.status = record_config_error;
    return r;
  }
  if (!where) {
    r.status = record_provider_error;
    return r;
  }
  r.node_key = where->node_key;
  r.socket = where->socket;
  r.network_hash = network_hash(*where);
  switch (known_by(*where)) {
    case Known::grid:
      for (int d = 0; d < where->grid->ndims(); ++d) r.coords[d] = where->coords[d];
      break;
    case Known::network: r.coords[0] = static_cast<std::int32_t>(where->network_node); break;
    case Known::slurm_tree:
      for (std::size_t l = 0; l < where->switch_path.size(); ++l) r.coords[l] = switch_hash(where->switch_path, l);
      break;
    case Known::node: break;
  }
  return r;
}

namespace {

/// A stand-in grid with one node per distinct node key: a line, folded when it is longer than
/// a dimension may be. Only node identity matters in nodes_only mode.
topology::Grid line_of_nodes(std::int64_t count) {
  if (count <= topology::kMaxExtent) return topology::Grid({static_cast<int>(count)}, {false});
  const auto rows = static_cast<int>((count + topology::kMaxExtent - 1) / topology::kMaxExtent);
  return topology::Grid({rows, topology::kMaxExtent}, {false, false});
}

PlacementResult failure(std::string why, int rank = -1) { return {std::nullopt, std::move(why), rank}; }

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(value));
  return text;
}

/// Slurm's topology of the tree that the processes' switch paths span, one switch per distinct
/// path and the nodes under their leaf switches, each in order of first appearance by rank; so
/// topology::slurm_tree builds the same fat-tree as `rankmap slurm` would from topology.conf.
/// The names stand for hashes; a hash that two paths share shows when their parents differ (or a
/// node's leaf switch does), and is then a failure rather than a wrong tree.
struct TreeOfPaths {
  topology::SlurmTopology topology;
  std::string error;
};

TreeOfPaths tree_of_paths(std::span<const ProcessRecord> records, int levels) {
  TreeOfPaths tree;
  std::vector<std::unordered_map<std::int32_t, std::pair<std::int32_t, std::size_t>>> seen(levels);  // parent, index
  std::unordered_map<std::uint64_t, std::int32_t> leaf_of_node;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::int32_t* path = records[r].coords;
    for (int l = 0; l < levels; ++l) {
      const std::int32_t parent = l == 0 ? 0 : path[l - 1];
      const auto [it, fresh] = seen[l].try_emplace(path[l], parent, tree.topology.switches.size());
      if (!fresh && it->second.first != parent) {
        tree.error = "two switches at level " + std::to_string(l) + " of rank " + std::to_string(r) +
                     "'s SLURM_TOPOLOGY_ADDR hash alike";
        return tree;
      }
      if (!fresh) continue;
      const std::string name = "l" + std::to_string(l) + "-" + hex(static_cast<std::uint32_t>(path[l]));
      tree.topology.switches.push_back({name, {}, {}, 0});
      if (l > 0) tree.topology.switches[seen[l - 1].at(parent).second].switches.push_back(name);
    }
    const std::int32_t leaf = path[levels - 1];
    const auto [it, fresh] = leaf_of_node.try_emplace(records[r].node_key, leaf);
    if (!fresh && it->second != leaf) {
      tree.error = "rank " + std::to_string(r) + "'s SLURM_TOPOLOGY_ADDR puts its node under another leaf switch "
                   "than its node's other processes";
      return tree;
    }
    if (fresh) tree.topology.switches[seen[levels - 1].at(leaf).second].nodes.push_back("n" + hex(records[r].node_key));
  }
  return tree;
}

/// The allocation on the fat-tree that the records' Slurm switch paths span.
PlacementResult slurm_tree_placement(std::span<const ProcessRecord> records, int levels, std::vector<int> sockets) {
  const TreeOfPaths paths = tree_of_paths(records, levels);
  if (!paths.error.empty()) return failure(paths.error);
  const topology::SlurmTree tree = topology::slurm_tree(paths.topology, "the processes' SLURM_TOPOLOGY_ADDR");
  std::unordered_map<std::string, NodeId> node_of_host;
  for (std::size_t i = 0; i < tree.hosts.size(); ++i) node_of_host.emplace(tree.hosts[i], tree.nodes[i]);
  std::vector<NodeId> node_of_slot(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) node_of_slot[r] = node_of_host.at("n" + hex(records[r].node_key));
  return {Placement{Placement::Mode::network, topology::Allocation(tree.network, std::move(node_of_slot)),
                    std::move(sockets)},
          {}, -1};
}

/// The allocation on the network that every record and `here` know alike.
PlacementResult network_placement(std::span<const ProcessRecord> records, const coords::Location& here,
                                  std::vector<int> sockets) {
  std::vector<NodeId> node_of_slot(records.size());
  switch (known_by(here)) {
    case Known::grid:
      for (std::size_t r = 0; r < records.size(); ++r)
        node_of_slot[r] = here.grid->node_at(std::span<const int>(records[r].coords, here.grid->ndims()));
      return {Placement{Placement::Mode::network, topology::Allocation(*here.grid, std::move(node_of_slot)),
                        std::move(sockets)},
              {}, -1};
    case Known::network:
      for (std::size_t r = 0; r < records.size(); ++r) node_of_slot[r] = records[r].coords[0];
      return {Placement{Placement::Mode::network, topology::Allocation(*here.network, std::move(node_of_slot)),
                        std::move(sockets)},
              {}, -1};
    case Known::slurm_tree:
      return slurm_tree_placement(records, static_cast<int>(here.switch_path.size()), std::move(sockets));
    case Known::node: break;
  }
  return failure("this process sees a different network than the others");
}

}  // namespace

int first_failing_record(std::span<const ProcessRecord> records) noexcept {
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (records[r].status == record_failed) return static_cast<int>(r);
    if (records[r].config_hash != records[0].config_hash || records[r].status == record_disabled) return -1;
    if (records[r].status != record_ok) return static_cast<int>(r);
  }
  return -1;
}

PlacementResult placement_from_records(std::span<const ProcessRecord> records,
                                       const std::optional<coords::Location>& here) {
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::string rank = std::to_string(r);
    // A failed record carries nothing else, not even the settings' hash.
    if (records[r].status == record_failed)
      return failure(describe({Step::placement, static_cast<int>(r)}), static_cast<int>(r));
    if (records[r].config_hash != records[0].config_hash)
      return failure("the RANKMAP_* settings of rank " + rank + " differ from those of rank 0");
    if (records[r].status == record_disabled) return failure("RANKMAP_DISABLE is set");
    if (records[r].status == record_config_error)
      return failure("rank " + rank + " has a bad RANKMAP_* value", static_cast<int>(r));
    if (records[r].status == record_provider_error)
      return failure("rank " + rank + " could not locate itself", static_cast<int>(r));
  }
  std::size_t with_network = 0;
  for (const ProcessRecord& r : records) with_network += r.network_hash != 0;
  std::vector<int> sockets(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) sockets[r] = records[r].socket;

  if (with_network == records.size()) {
    for (std::size_t r = 0; r < records.size(); ++r)
      if (records[r].network_hash != records[0].network_hash)
        return failure("rank " + std::to_string(r) + " sees a different network than rank 0");
    if (!here || network_hash(*here) != records[0].network_hash)
      return failure("this process sees a different network than the others");
    try {
      return network_placement(records, *here, std::move(sockets));
    } catch (const InputError& e) {
      return failure(e.what());
    }
  }
  if (with_network != 0) return failure("some processes know the network and others only their node");

  std::unordered_map<std::uint64_t, NodeId> node_of_key;
  std::vector<NodeId> node_of_slot(records.size());
  for (std::size_t r = 0; r < records.size(); ++r)
    node_of_slot[r] = node_of_key.try_emplace(records[r].node_key, static_cast<NodeId>(node_of_key.size())).first->second;
  return {Placement{Placement::Mode::nodes_only,
                    topology::Allocation(line_of_nodes(static_cast<std::int64_t>(node_of_key.size())),
                                         std::move(node_of_slot)),
                    std::move(sockets)},
          {}, -1};
}

Placement Placement::subset(std::span<const int> ranks) const {
  std::vector<NodeId> nodes(ranks.size());
  std::vector<int> sockets(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    nodes[i] = alloc.node_of_slot(ranks[i]);
    sockets[i] = socket_of_slot[ranks[i]];
  }
  return {mode, topology::Allocation(alloc.network(), std::move(nodes)), std::move(sockets)};
}

Placement Placement::first_slots(SlotId n) const {
  return {mode, alloc.first_slots(n), std::vector<int>(socket_of_slot.begin(), socket_of_slot.begin() + n)};
}

}  // namespace rankmap::runtime
