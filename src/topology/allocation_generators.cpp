// Fragmented allocations from a simulated first-fit batch scheduler, and regular box allocations.
#include <rankmap/seeded_random.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace rankmap::topology {

namespace {

/// The simulation keeps a few vectors per node; beyond this a machine is not worth simulating.
constexpr NodeId kMaxSimulatedNodes = NodeId{1} << 24;

/// The scheduler's node list: row-major with the last dimension fastest, where a dimension's
/// direction is reversed whenever the row-major index of the slower dimensions is odd (a
/// reflected mixed-radix Gray code), so consecutive entries are grid neighbours.
std::vector<NodeId> serpentine_order(const Grid& grid) {
  std::vector<NodeId> order(static_cast<std::size_t>(grid.num_nodes()));
  std::vector<int> plain(grid.ndims());
  std::vector<int> walked(grid.ndims());
  for (NodeId k = 0; k < grid.num_nodes(); ++k) {
    NodeId rest = k;
    for (int d = grid.ndims() - 1; d >= 0; --d) {
      plain[d] = static_cast<int>(rest % grid.extent(d));
      rest /= grid.extent(d);
    }
    NodeId prefix = 0;
    for (int d = 0; d < grid.ndims(); ++d) {
      walked[d] = prefix % 2 == 1 ? grid.extent(d) - 1 - plain[d] : plain[d];
      prefix = prefix * grid.extent(d) + plain[d];
    }
    order[k] = grid.node_at(walked);
  }
  return order;
}

/// A busy machine: positions on the scheduler's node list, each free or held by a job.
class Machine {
 public:
  explicit Machine(std::size_t size) : owner_(size, kFree) {}

  std::size_t busy() const { return busy_; }

  /// First fit along the node list: the job gets the first `size` free positions.
  void start_job(std::size_t size) {
    std::vector<std::size_t> positions;
    positions.reserve(size);
    for (std::size_t p = 0; p < owner_.size() && positions.size() < size; ++p)
      if (owner_[p] == kFree) positions.push_back(p);
    const int id = static_cast<int>(jobs_.size());
    for (std::size_t p : positions) owner_[p] = id;
    busy_ += positions.size();
    jobs_.push_back(std::move(positions));
    running_.push_back(id);
  }

  /// A random running job ends and frees its nodes.
  void end_random_job(SeededRandom& rng) {
    const std::size_t k = rng.below(running_.size());
    const int id = running_[k];
    running_[k] = running_.back();
    running_.pop_back();
    for (std::size_t p : jobs_[id]) owner_[p] = kFree;
    busy_ -= jobs_[id].size();
    jobs_[id].clear();
  }

  std::size_t jobs_started() const { return jobs_.size(); }

  /// The first `count` free positions, as our job would get them.
  std::vector<std::size_t> first_free(std::size_t count) const {
    std::vector<std::size_t> out;
    for (std::size_t p = 0; p < owner_.size() && out.size() < count; ++p)
      if (owner_[p] == kFree) out.push_back(p);
    return out;
  }

 private:
  static constexpr int kFree = -1;
  std::vector<int> owner_;
  std::vector<std::vector<std::size_t>> jobs_;
  std::vector<int> running_;
  std::size_t busy_ = 0;
};

/// Job sizes are log-uniform between 1 and an eighth of the machine, as on capability systems
/// where many small jobs share the machine with a few large ones.
std::size_t job_size(SeededRandom& rng, std::size_t machine) {
  const double largest = std::max(1.0, static_cast<double>(machine) / 8);
  return static_cast<std::size_t>(std::max(1.0, std::round(std::pow(largest, rng.uniform()))));
}

/// The job stream before ours. The machine starts full; then jobs end at random and new ones
/// start first-fit whenever the machine is below `target` busy. New jobs take the first free
/// nodes, which are the holes of earlier jobs, so the free space ends up scattered in pieces.
void simulate_busy_machine(Machine& machine, std::size_t size, std::size_t target, SeededRandom& rng) {
  while (machine.busy() < size) machine.start_job(std::min(job_size(rng, size), size - machine.busy()));
  const std::size_t events = 8 * std::max<std::size_t>(64, machine.jobs_started());
  for (std::size_t k = 0; k < events; ++k) {
    if (machine.busy() > target) {
      machine.end_random_job(rng);
    } else {
      const std::size_t job = job_size(rng, size);
      if (job <= size - machine.busy()) machine.start_job(job);
    }
  }
}

}  // namespace

std::vector<NodeId> fragmented_nodes(const Grid& grid, int count, std::uint64_t seed) {
  const NodeId total = grid.num_nodes();
  if (total > kMaxSimulatedNodes)
    throw InputError("fragmented allocation: the grid " + grid.to_string() + " has more than 2^24 nodes");
  if (count < 1 || count > total)
    throw InputError("fragmented allocation: cannot take " + std::to_string(count) + " of the " +
                     std::to_string(total) + " nodes of " + grid.to_string());
  const auto size = static_cast<std::size_t>(total);
  SeededRandom rng(seed);
  const double busy_fraction = 0.5 + 0.3 * rng.uniform();
  const auto target = static_cast<std::size_t>(busy_fraction * static_cast<double>(size));

  Machine machine(size);
  simulate_busy_machine(machine, size, target, rng);
  while (size - machine.busy() < static_cast<std::size_t>(count)) machine.end_random_job(rng);

  const std::vector<NodeId> order = serpentine_order(grid);
  std::vector<NodeId> nodes;
  nodes.reserve(static_cast<std::size_t>(count));
  for (std::size_t p : machine.first_free(static_cast<std::size_t>(count))) nodes.push_back(order[p]);
  return nodes;
}

std::vector<NodeId> regular_nodes(const Grid& grid, std::span<const int> box_extents, std::span<const int> origin) {
  const int n = grid.ndims();
  if (static_cast<int>(box_extents.size()) != n)
    throw InputError("regular allocation: the box has " + std::to_string(box_extents.size()) +
                     " extents but the grid " + grid.to_string() + " has " + std::to_string(n) + " dimensions");
  if (!origin.empty() && static_cast<int>(origin.size()) != n)
    throw InputError("regular allocation: the origin has " + std::to_string(origin.size()) +
                     " coordinates but the grid " + grid.to_string() + " has " + std::to_string(n) + " dimensions");
  std::int64_t count = 1;
  for (int d = 0; d < n; ++d) {
    const int lo = origin.empty() ? 0 : origin[d];
    const int k = box_extents[d];
    if (k < 1 || k > grid.extent(d) || lo < 0 || lo >= grid.extent(d) || (!grid.is_torus(d) && lo + k > grid.extent(d)))
      throw InputError("regular allocation: extent " + std::to_string(k) + " from " + std::to_string(lo) +
                       " does not fit dimension " + std::to_string(d) + " of " + grid.to_string());
    count *= k;
  }
  std::vector<NodeId> nodes;
  nodes.reserve(static_cast<std::size_t>(count));
  std::vector<int> coords(n);
  for (std::int64_t k = 0; k < count; ++k) {
    std::int64_t rest = k;
    for (int d = n - 1; d >= 0; --d) {
      const int lo = origin.empty() ? 0 : origin[d];
      coords[d] = static_cast<int>((lo + rest % box_extents[d]) % grid.extent(d));
      rest /= box_extents[d];
    }
    nodes.push_back(grid.node_at(coords));
  }
  return nodes;
}

}  // namespace rankmap::topology
