// Building placements from the per-process records, and taking sub-placements of them.
#include "placement.hpp"

#include "step_guard.hpp"

#include <rankmap/hash.hpp>

#include <unordered_map>

namespace rankmap::runtime {

std::uint64_t grid_hash(const topology::Grid& grid) {
  StableHash h;
  const std::string spec = grid.to_string();
  h.bytes(spec.data(), spec.size());
  // 0 means "no grid" in a record.
  return h.digest() | 1;
}

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
  if (where->grid) {
    r.grid_hash = grid_hash(*where->grid);
    for (int d = 0; d < where->grid->ndims(); ++d) r.coords[d] = where->coords[d];
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
                                       const std::optional<topology::Grid>& own_grid) {
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
  std::size_t with_grid = 0;
  for (const ProcessRecord& r : records) with_grid += r.grid_hash != 0;
  std::vector<int> sockets(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) sockets[r] = records[r].socket;

  if (with_grid == records.size()) {
    for (std::size_t r = 0; r < records.size(); ++r)
      if (records[r].grid_hash != records[0].grid_hash)
        return failure("rank " + std::to_string(r) + " sees a different grid than rank 0");
    if (!own_grid || grid_hash(*own_grid) != records[0].grid_hash)
      return failure("this process sees a different grid than the others");
    std::vector<NodeId> node_of_slot(records.size());
    for (std::size_t r = 0; r < records.size(); ++r)
      node_of_slot[r] = own_grid->node_at(std::span<const int>(records[r].coords, own_grid->ndims()));
    return {Placement{Placement::Mode::network, topology::Allocation(*own_grid, std::move(node_of_slot)),
                      std::move(sockets)},
            {}, -1};
  }
  if (with_grid != 0) return failure("some processes know network coordinates and others do not");

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
  return {mode, topology::Allocation(alloc.grid(), std::move(nodes)), std::move(sockets)};
}

Placement Placement::first_slots(SlotId n) const {
  return {mode, alloc.first_slots(n), std::vector<int>(socket_of_slot.begin(), socket_of_slot.begin() + n)};
}

}  // namespace rankmap::runtime
