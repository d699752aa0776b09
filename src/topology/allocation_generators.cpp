// Fragmented allocations from a simulated first-fit batch scheduler, and regular box allocations.
#include <rankmap/seeded_random.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <string>

namespace rankmap::topology {

namespace {

/// The scheduler's node list is a serpentine walk: row-major with the last dimension fastest,
/// where a dimension's direction is reversed whenever the row-major index of the slower
/// dimensions is odd (a reflected mixed-radix Gray code), so consecutive nodes are neighbours.
/// Returns the node at `position` on that list.
NodeId serpentine_node(const Grid& grid, std::int64_t position) {
  Coords plain{};
  for (int d = grid.ndims() - 1; d >= 0; --d) {
    plain[d] = static_cast<int>(position % grid.extent(d));
    position /= grid.extent(d);
  }
  Coords walked{};
  std::int64_t prefix = 0;
  for (int d = 0; d < grid.ndims(); ++d) {
    walked[d] = prefix % 2 == 1 ? grid.extent(d) - 1 - plain[d] : plain[d];
    prefix = prefix * grid.extent(d) + plain[d];
  }
  return grid.node_at(std::span(walked.data(), static_cast<std::size_t>(grid.ndims())));
}

/// Consecutive positions on the scheduler's node list.
struct Run {
  std::int64_t start;
  std::int64_t length;
};

/// A busy machine as runs of free positions on the node list and the runs each job holds, so
/// memory and time grow with the number of jobs and holes, not with the size of the machine.
class Machine {
 public:
  explicit Machine(std::int64_t size) { free_[0] = size; }

  std::int64_t busy() const { return busy_; }
  std::size_t jobs_started() const { return jobs_.size(); }

  /// First fit along the node list: the job gets the first `size` free positions.
  void start_job(std::int64_t size) {
    std::vector<Run> held;
    while (size > 0 && !free_.empty()) {
      const auto first = free_.begin();
      const Run run{first->first, std::min(size, first->second)};
      const std::int64_t left = first->second - run.length;
      free_.erase(first);
      if (left > 0) free_[run.start + run.length] = left;
      held.push_back(run);
      size -= run.length;
      busy_ += run.length;
    }
    running_.push_back(static_cast<int>(jobs_.size()));
    jobs_.push_back(std::move(held));
  }

  /// A random running job ends and frees its nodes.
  void end_random_job(SeededRandom& rng) {
    const std::size_t k = rng.below(running_.size());
    const int id = running_[k];
    running_[k] = running_.back();
    running_.pop_back();
    for (const Run& run : jobs_[id]) release(run);
    jobs_[id].clear();
  }

  /// The first `count` free positions, as our job would get them.
  std::vector<std::int64_t> first_free(std::int64_t count) const {
    std::vector<std::int64_t> out;
    for (const auto& [start, length] : free_)
      for (std::int64_t p = start; p < start + length && static_cast<std::int64_t>(out.size()) < count; ++p)
        out.push_back(p);
    return out;
  }

 private:
  /// Returns a run to the free list, merged with free neighbours on either side.
  void release(Run run) {
    busy_ -= run.length;
    auto next = free_.lower_bound(run.start);
    if (next != free_.end() && next->first == run.start + run.length) {
      run.length += next->second;
      next = free_.erase(next);
    }
    if (next != free_.begin()) {
      const auto prev = std::prev(next);
      if (prev->first + prev->second == run.start) {
        prev->second += run.length;
        return;
      }
    }
    free_.emplace_hint(next, run.start, run.length);
  }

  std::map<std::int64_t, std::int64_t> free_;  ///< start -> length; disjoint, never adjacent
  std::vector<std::vector<Run>> jobs_;
  std::vector<int> running_;
  std::int64_t busy_ = 0;
};

/// Job sizes are log-uniform between 1 and an eighth of the machine, as on capability systems
/// where many small jobs share the machine with a few large ones.
std::int64_t job_size(SeededRandom& rng, std::int64_t machine) {
  const double largest = std::max(1.0, static_cast<double>(machine) / 8);
  return static_cast<std::int64_t>(std::max(1.0, std::round(std::pow(largest, rng.uniform()))));
}

/// The job stream before ours. The machine starts full; then jobs end at random and new ones
/// start first-fit whenever the machine is below `target` busy. New jobs take the first free
/// nodes, which are the holes of earlier jobs, so the free space ends up scattered in pieces.
void simulate_busy_machine(Machine& machine, std::int64_t size, std::int64_t target, SeededRandom& rng) {
  while (machine.busy() < size) machine.start_job(std::min(job_size(rng, size), size - machine.busy()));
  const std::size_t events = 8 * std::max<std::size_t>(64, machine.jobs_started());
  for (std::size_t k = 0; k < events; ++k) {
    if (machine.busy() > target) {
      machine.end_random_job(rng);
    } else {
      const std::int64_t job = job_size(rng, size);
      if (job <= size - machine.busy()) machine.start_job(job);
    }
  }
}

/// The positions on the scheduler's node list of the `count` nodes our job gets on a busy machine
/// of `size` nodes.
std::vector<std::int64_t> free_positions(NodeId size, int count, std::uint64_t seed, const std::string& machine_name) {
  if (count < 1 || count > size)
    throw InputError("fragmented allocation: cannot take " + std::to_string(count) + " of the " +
                     std::to_string(size) + " nodes of " + machine_name);
  SeededRandom rng(seed);
  const double busy_fraction = 0.5 + 0.3 * rng.uniform();
  const auto target = static_cast<std::int64_t>(busy_fraction * static_cast<double>(size));

  Machine machine(size);
  simulate_busy_machine(machine, size, target, rng);
  while (size - machine.busy() < count) machine.end_random_job(rng);
  return machine.first_free(count);
}

}  // namespace

std::vector<NodeId> fragmented_nodes(const Grid& grid, int count, std::uint64_t seed) {
  std::vector<NodeId> nodes;
  nodes.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (std::int64_t p : free_positions(grid.num_nodes(), count, seed, grid.to_string()))
    nodes.push_back(serpentine_node(grid, p));
  return nodes;
}

std::vector<NodeId> fragmented_nodes(const Network& network, int count, std::uint64_t seed) {
  if (const Grid* grid = network.grid_if()) return fragmented_nodes(*grid, count, seed);
  return free_positions(network.num_nodes(), count, seed, network.to_string());
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
