// A toy population of uniquely numbered tasks with random births and deaths, and checks that a balance step kept every task.
#pragma once

#include <mpi.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace rankmap::balance::testing {

/// Data that travels with each task, derived from its id so any corruption shows.
inline long long check_of(long long id) {
  return static_cast<long long>(static_cast<std::uint64_t>(id) * 0x9E3779B97F4A7C15ULL ^ 0x5bd1e995ULL);
}

inline int world_rank(MPI_Comm comm = MPI_COMM_WORLD) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

inline int world_size(MPI_Comm comm = MPI_COMM_WORLD) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

/// The ids of one process: each step every task dies, survives or branches into two. The
/// branching rate drifts with rank and step, and now and then one process loses everything,
/// so the load becomes uneven; deaths scale with the global population to keep it near
/// `per_rank` tasks per process. At most `cap` tasks are held after a step.
class Population {
 public:
  Population(int per_rank, unsigned seed) : per_rank_(per_rank), rank_(world_rank()), rng_(seed * 7919 + rank_) {
    for (int i = 0; i < per_rank; ++i) ids_.push_back(new_id());
  }

  std::vector<long long>& ids() { return ids_; }

  // Called right after a balance step, when every process holds within one task of the
  // others, so the local count times P stands in for the global population.
  void step(int t, long long cap) {
    const double total = static_cast<double>(ids_.size()) * world_size();
    const double target = static_cast<double>(per_rank_) * world_size();
    const double branch = 0.2 + 0.15 * std::sin(t / 7.0 + rank_);
    const double death = std::clamp(branch * total / target, 0.0, 0.9);
    const bool wipe_out = (t % 10 == 3) && rank_ == t % world_size();
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<long long> next;
    for (const long long id : ids_) {
      const double x = u(rng_);
      if (wipe_out || x < death) continue;
      next.push_back(id);
      if (x > 1 - branch && static_cast<long long>(next.size()) < cap) next.push_back(new_id());
    }
    if (static_cast<long long>(next.size()) > cap) next.resize(static_cast<std::size_t>(cap));
    ids_ = std::move(next);
  }

 private:
  long long new_id() { return (static_cast<long long>(rank_) << 40) | serial_++; }

  int per_rank_;
  int rank_;
  std::mt19937_64 rng_;
  long long serial_ = 0;
  std::vector<long long> ids_;
};

/// Checks one balance step with two collectives, on rank 0: the ids held after it are
/// exactly those held before (each task arrived exactly once), and every process holds
/// ceil(T/P) or one less, exactly kP - T of them one less.
inline void expect_every_task_kept_and_balanced(const std::vector<long long>& before,
                                                const std::vector<long long>& after) {
  const int size = world_size();
  const int mine[2] = {static_cast<int>(before.size()), static_cast<int>(after.size())};
  std::vector<int> sizes(2 * static_cast<std::size_t>(size));
  MPI_Gather(mine, 2, MPI_INT, sizes.data(), 2, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<long long> local(before);
  local.insert(local.end(), after.begin(), after.end());
  std::vector<int> counts(size), displs(size);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = sizes[2 * r] + sizes[2 * r + 1];
    displs[r] = total;
    total += counts[r];
  }
  const bool root = world_rank() == 0;
  std::vector<long long> all(root ? total : 0);
  MPI_Gatherv(local.data(), static_cast<int>(local.size()), MPI_LONG_LONG, all.data(), counts.data(),
              displs.data(), MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (!root) return;
  std::vector<long long> ids_before, ids_after;
  for (int r = 0; r < size; ++r) {
    const auto* first = all.data() + displs[r];
    ids_before.insert(ids_before.end(), first, first + sizes[2 * r]);
    ids_after.insert(ids_after.end(), first + sizes[2 * r], first + counts[r]);
  }
  std::sort(ids_before.begin(), ids_before.end());
  std::sort(ids_after.begin(), ids_after.end());
  EXPECT_EQ(ids_after, ids_before);
  const long long tasks = static_cast<long long>(ids_after.size());
  const long long k = (tasks + size - 1) / size;
  long long below = 0;
  for (int r = 0; r < size; ++r) {
    const long long c = sizes[2 * r + 1];
    EXPECT_TRUE(c == k || c == k - 1) << "rank " << r << " holds " << c << " tasks, k = " << k;
    below += c == k - 1;
  }
  EXPECT_EQ(below, k * size - tasks);
}

}  // namespace rankmap::balance::testing
