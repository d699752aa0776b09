// One collective balance step: gather the counts, compute the flow, agree, then move the tasks.
#include "alias_migration.hpp"

#include "runtime/exception_status.hpp"

#include <rankmap.h>
#include <rankmap/balance/alias_flow.hpp>

#include <climits>
#include <cstddef>
#include <span>

namespace rankmap::balance {
namespace {

// Everything here depends only on the gathered (count, capacity) pairs, so every process
// reaches the same verdict without talking to the others.
int plan_step(std::span<const long long> gathered, int rank, MigrationPlan& plan) {
  const std::size_t size = gathered.size() / 2;
  std::vector<long long> counts(size);
  for (std::size_t r = 0; r < size; ++r) {
    if (gathered[2 * r] < 0) return RANKMAP_ERR_ARG;
    counts[r] = gathered[2 * r];
  }
  const AliasFlow flow = alias_flow(counts);
  std::vector<long long> sent(size, 0);
  for (std::size_t i = 0; i < size; ++i) {
    if (flow.sender[i] < 0) continue;
    if (flow.amount[i] > INT_MAX) return RANKMAP_ERR_ARG;
    sent[flow.sender[i]] += flow.amount[i];
  }
  for (std::size_t r = 0; r < size; ++r)
    if (counts[r] - sent[r] + flow.amount[r] > gathered[2 * r + 1]) return RANKMAP_ERR_CAPACITY;

  plan.count = counts[rank];
  plan.source = flow.sender[rank];
  plan.received = flow.amount[rank];
  for (std::size_t i = 0; i < size; ++i)
    if (flow.sender[i] == rank) plan.sends.push_back({static_cast<int>(i), flow.amount[i]});
  plan.sent = sent[rank];
  return RANKMAP_SUCCESS;
}

}  // namespace

int run_balance_step(long long count, long long capacity, bool args_ok, MPI_Comm comm, TaskTransport& transport,
                     long long* new_count) {
  int size = 0;
  int rank = 0;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
    return RANKMAP_ERR_MPI;
  // The gather buffer is the one allocation made before the processes can agree; if it
  // fails this process cannot take part in the collectives at all.
  std::vector<long long> gathered(2 * static_cast<std::size_t>(size));
  const long long mine[2] = {args_ok ? count : -1, capacity};
  if (MPI_Allgather(mine, 2, MPI_LONG_LONG, gathered.data(), 2, MPI_LONG_LONG, comm) != MPI_SUCCESS)
    return RANKMAP_ERR_MPI;

  MigrationPlan plan;
  std::vector<MPI_Request> requests;
  int status = RANKMAP_SUCCESS;
  try {
    status = plan_step(gathered, rank, plan);
    if (status == RANKMAP_SUCCESS) {
      requests.reserve(plan.sends.size() + 1);
      status = transport.prepare(plan);
    }
  } catch (...) {
    status = runtime::status_of_current_exception(RANKMAP_ERR_ARG);
  }
  int agreed = RANKMAP_SUCCESS;
  if (MPI_Allreduce(&status, &agreed, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return RANKMAP_ERR_MPI;
  if (agreed != RANKMAP_SUCCESS) {
    transport.undo();
    return agreed;
  }

  const int posted = transport.post(plan, comm, requests);
  if (MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS ||
      posted != MPI_SUCCESS)
    return RANKMAP_ERR_MPI;
  status = transport.finish(plan);
  *new_count = status == RANKMAP_SUCCESS ? plan.new_count() : plan.count - plan.sent;
  return status;
}

}  // namespace rankmap::balance
