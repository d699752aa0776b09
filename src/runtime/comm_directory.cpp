// Rank translation and neighbour lists per communicator, kept in an MPI attribute.
#include "comm_directory.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace rankmap::runtime::comm_directory {

namespace {

/// What is known about one communicator. Written under its mutex; the neighbour list is
/// immutable once built, so spans of it stay valid while the communicator lives.
struct Entry {
  std::mutex mutex;
  bool world_like = false;  ///< its ranks are world ranks (MPI_COMM_WORLD, a duplicate of it)
  int size = 0;             ///< how many ranks a destination may name
  MPI_Group group = MPI_GROUP_NULL;
  std::unordered_map<int, int> world_of;
  std::optional<std::vector<int>> neighbours;
};

int keyval = MPI_KEYVAL_INVALID;
MPI_Group world_group = MPI_GROUP_NULL;

int delete_entry(MPI_Comm, int, void* value, void*) {
  auto* entry = static_cast<Entry*>(value);
  if (entry->group != MPI_GROUP_NULL) PMPI_Group_free(&entry->group);
  delete entry;
  return MPI_SUCCESS;
}

Entry* make_entry(MPI_Comm comm) {
  auto entry = std::make_unique<Entry>();
  int inter = 0, relation = MPI_UNEQUAL;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_remote_size(comm, &entry->size);
    PMPI_Comm_remote_group(comm, &entry->group);
  } else {
    PMPI_Comm_size(comm, &entry->size);
    PMPI_Comm_compare(comm, MPI_COMM_WORLD, &relation);
    entry->world_like = relation == MPI_IDENT || relation == MPI_CONGRUENT;
    if (!entry->world_like) PMPI_Comm_group(comm, &entry->group);
  }
  return entry.release();
}

/// The entry of `comm`, made on first use. Two threads may race to make it; one attribute wins.
Entry* entry_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return static_cast<Entry*>(value);
  static std::mutex creation;
  std::lock_guard lock(creation);
  PMPI_Comm_get_attr(comm, keyval, &value, &found);
  if (found) return static_cast<Entry*>(value);
  Entry* entry = make_entry(comm);
  PMPI_Comm_set_attr(comm, keyval, entry);
  return entry;
}

/// The caller holds entry.mutex.
int translate_locked(Entry& entry, int rank) {
  if (rank < 0 || rank >= entry.size) return -1;
  if (entry.world_like) return rank;
  const auto [it, inserted] = entry.world_of.try_emplace(rank, -1);
  if (inserted) {
    int world = MPI_UNDEFINED;
    PMPI_Group_translate_ranks(entry.group, 1, &rank, world_group, &world);
    it->second = world == MPI_UNDEFINED ? -1 : world;
  }
  return it->second;
}

int translate(Entry& entry, int rank) {
  if (entry.world_like) return rank >= 0 && rank < entry.size ? rank : -1;
  std::lock_guard lock(entry.mutex);
  return translate_locked(entry, rank);
}

/// The destinations of a neighbourhood collective, in comm's ranks, by MPI's rules per topology.
std::vector<int> neighbour_ranks(MPI_Comm comm) {
  int kind = MPI_UNDEFINED, rank = 0;
  PMPI_Topo_test(comm, &kind);
  PMPI_Comm_rank(comm, &rank);
  std::vector<int> ranks;
  if (kind == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    for (int d = 0; d < ndims; ++d) {
      int minus = MPI_PROC_NULL, plus = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &minus, &plus);
      ranks.push_back(minus);
      ranks.push_back(plus);
    }
  } else if (kind == MPI_GRAPH) {
    int count = 0;
    PMPI_Graph_neighbors_count(comm, rank, &count);
    ranks.resize(static_cast<std::size_t>(count));
    PMPI_Graph_neighbors(comm, rank, count, ranks.data());
  } else if (kind == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    std::vector<int> sources(static_cast<std::size_t>(in) + 1), in_weights(sources.size());
    std::vector<int> out_weights(static_cast<std::size_t>(out) + 1);
    ranks.resize(static_cast<std::size_t>(out));
    PMPI_Dist_graph_neighbors(comm, in, sources.data(), weighted ? in_weights.data() : MPI_UNWEIGHTED, out,
                              ranks.data(), weighted ? out_weights.data() : MPI_UNWEIGHTED);
  }
  return ranks;
}

}  // namespace

bool start() {
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &delete_entry, &keyval, nullptr) != MPI_SUCCESS) return false;
  return PMPI_Comm_group(MPI_COMM_WORLD, &world_group) == MPI_SUCCESS;
}

int world_rank(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD) return rank >= 0 ? rank : -1;
  return translate(*entry_of(comm), rank);
}

std::span<const int> out_neighbours(MPI_Comm comm) {
  Entry& entry = *entry_of(comm);
  std::lock_guard lock(entry.mutex);
  if (!entry.neighbours) {
    std::vector<int> world;
    for (const int r : neighbour_ranks(comm)) world.push_back(r == MPI_PROC_NULL ? -1 : translate_locked(entry, r));
    entry.neighbours = std::move(world);
  }
  return *entry.neighbours;
}

}  // namespace rankmap::runtime::comm_directory
