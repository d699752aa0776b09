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

  void step(int t, long long cap) {
    long long local = static_cast<long long>(ids_.size());
    long long total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const double target = static_cast<double>(per_rank_) * world_size();
    const double branch = 0.2 + 0.15 * std::sin(t / 7.0 + rank_);
    const double death = std::clamp(branch * static_cast<double>(total) / target, 0.0, 0.9);
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

/// All ids of all processes, sorted, on rank 0 (empty elsewhere).
inline std::vector<long long> gather_ids(const std::vector<long long>& local) {
  const int size = world_size();
  const int n = static_cast<int>(local.size());
  std::vector<int> counts(size), displs(size);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  std::vector<long long> all(world_rank() == 0 ? total : 0);
  MPI_Gatherv(local.data(), n, MPI_LONG_LONG, all.data(), counts.data(), displs.data(), MPI_LONG_LONG, 0,
              MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  return all;
}

/// Every process holds ceil(T/P) or one less, and exactly kP - T hold one less.
inline void expect_balanced(long long count) {
  const int size = world_size();
  std::vector<long long> all(size);
  MPI_Allgather(&count, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  long long total = 0;
  for (const long long c : all) total += c;
  const long long k = (total + size - 1) / size;
  long long below = 0;
  for (const long long c : all) {
    EXPECT_TRUE(c == k || c == k - 1) << "a process holds " << c << " tasks, k = " << k;
    below += c == k - 1;
  }
  EXPECT_EQ(below, k * size - total);
}

}  // namespace rankmap::balance::testing
