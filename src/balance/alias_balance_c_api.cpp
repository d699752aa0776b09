// The C entry points of the MPI balance helper: tasks in a typed buffer, or behind pack/unpack callbacks.
#include "alias_migration.hpp"
#include "runtime/exception_status.hpp"

#include <rankmap.h>

#include <climits>
#include <cstddef>
#include <vector>

namespace rankmap::balance {
namespace {

// Tasks at base + i * extent. Outgoing tasks leave from the end of the buffer, the incoming
// message lands right after the tasks kept. A process that also sends cannot receive there
// while its sends are in flight, so it receives into a packed scratch buffer instead.
class TypedBufferTransport final : public TaskTransport {
 public:
  TypedBufferTransport(void* tasks, MPI_Aint extent, MPI_Datatype type, MPI_Comm comm)
      : base_(static_cast<char*>(tasks)), extent_(extent), type_(type), comm_(comm) {}

  int prepare(const MigrationPlan& plan) override {
    if (plan.sent == 0 || plan.received == 0) return RANKMAP_SUCCESS;
    int bytes = 0;
    if (MPI_Pack_size(static_cast<int>(plan.received), type_, comm_, &bytes) != MPI_SUCCESS) return RANKMAP_ERR_MPI;
    scratch_.resize(static_cast<std::size_t>(bytes));
    return RANKMAP_SUCCESS;
  }

  void undo() override { scratch_.clear(); }

  int post(const MigrationPlan& plan, MPI_Comm comm, std::vector<MPI_Request>& requests) override {
    long long end = plan.count;
    for (const Outgoing& out : plan.sends) {
      end -= out.n;
      requests.emplace_back();
      const int rc = MPI_Isend(at(end), static_cast<int>(out.n), type_, out.dest, RANKMAP_ALIAS_BALANCE_TAG, comm,
                               &requests.back());
      if (rc != MPI_SUCCESS) return rc;
    }
    if (plan.received == 0) return MPI_SUCCESS;
    requests.emplace_back();
    if (scratch_.empty())
      return MPI_Irecv(at(plan.count), static_cast<int>(plan.received), type_, plan.source,
                       RANKMAP_ALIAS_BALANCE_TAG, comm, &requests.back());
    return MPI_Irecv(scratch_.data(), static_cast<int>(scratch_.size()), MPI_PACKED, plan.source,
                     RANKMAP_ALIAS_BALANCE_TAG, comm, &requests.back());
  }

  int finish(const MigrationPlan& plan) override {
    if (scratch_.empty()) return RANKMAP_SUCCESS;
    int position = 0;
    const int rc = MPI_Unpack(scratch_.data(), static_cast<int>(scratch_.size()), &position,
                              at(plan.count - plan.sent), static_cast<int>(plan.received), type_, comm_);
    return rc == MPI_SUCCESS ? RANKMAP_SUCCESS : RANKMAP_ERR_MPI;
  }

 private:
  char* at(long long index) const { return base_ + index * extent_; }

  char* base_;
  MPI_Aint extent_;
  MPI_Datatype type_;
  MPI_Comm comm_;
  std::vector<char> scratch_;
};

// Tasks the caller stores: outgoing ones are packed into one buffer before the agreement
// (so a failing pack can still be rolled back), the incoming message into another.
class CallbackTransport final : public TaskTransport {
 public:
  CallbackTransport(std::size_t task_bytes, MPI_Datatype byte_task, rankmap_task_pack_fn pack,
                    rankmap_task_unpack_fn unpack, void* user)
      : task_bytes_(task_bytes), byte_task_(byte_task), pack_(pack), unpack_(unpack), user_(user) {}

  int prepare(const MigrationPlan& plan) override {
    std::size_t out_bytes = 0;
    std::size_t in_bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(plan.sent), task_bytes_, &out_bytes) ||
        __builtin_mul_overflow(static_cast<std::size_t>(plan.received), task_bytes_, &in_bytes))
      return RANKMAP_ERR_NOMEM;
    outgoing_.resize(out_bytes);
    incoming_.resize(in_bytes);
    for (const Outgoing& out : plan.sends) {
      if (pack_(user_, out.n, outgoing_.data() + packed_ * task_bytes_) != 0) return RANKMAP_ERR_CALLBACK;
      packed_ += out.n;
    }
    return RANKMAP_SUCCESS;
  }

  void undo() override {
    if (packed_ > 0) unpack_(user_, packed_, outgoing_.data());
    packed_ = 0;
  }

  int post(const MigrationPlan& plan, MPI_Comm comm, std::vector<MPI_Request>& requests) override {
    long long offset = 0;
    for (const Outgoing& out : plan.sends) {
      requests.emplace_back();
      const int rc = MPI_Isend(outgoing_.data() + offset * task_bytes_, static_cast<int>(out.n), byte_task_,
                               out.dest, RANKMAP_ALIAS_BALANCE_TAG, comm, &requests.back());
      if (rc != MPI_SUCCESS) return rc;
      offset += out.n;
    }
    if (plan.received == 0) return MPI_SUCCESS;
    requests.emplace_back();
    return MPI_Irecv(incoming_.data(), static_cast<int>(plan.received), byte_task_, plan.source,
                     RANKMAP_ALIAS_BALANCE_TAG, comm, &requests.back());
  }

  int finish(const MigrationPlan& plan) override {
    if (plan.received > 0 && unpack_(user_, plan.received, incoming_.data()) != 0) return RANKMAP_ERR_CALLBACK;
    return RANKMAP_SUCCESS;
  }

 private:
  std::size_t task_bytes_;
  MPI_Datatype byte_task_;
  rankmap_task_pack_fn pack_;
  rankmap_task_unpack_fn unpack_;
  void* user_;
  std::vector<char> outgoing_;
  std::vector<char> incoming_;
  long long packed_ = 0;
};

// A null or inter-communicator is refused by every process alike, before any collective.
bool usable_comm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return false;
  int inter = 0;
  return MPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter;
}

bool counts_ok(long long count, long long capacity, const long long* new_count) {
  return new_count != nullptr && count >= 0 && capacity >= count;
}

}  // namespace
}  // namespace rankmap::balance

using rankmap::balance::counts_ok;
using rankmap::balance::usable_comm;

extern "C" RANKMAP_EXPORT int rankmap_alias_balance(void* tasks, long long count, long long capacity,
                                                    MPI_Datatype task_type, MPI_Comm comm, long long* new_count) {
  if (new_count != nullptr) *new_count = count;
  if (!usable_comm(comm)) return RANKMAP_ERR_ARG;
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  bool args_ok = counts_ok(count, capacity, new_count) && (tasks != nullptr || capacity == 0) &&
                 task_type != MPI_DATATYPE_NULL;
  if (args_ok) args_ok = MPI_Type_get_extent(task_type, &lb, &extent) == MPI_SUCCESS && extent > 0;
  try {
    rankmap::balance::TypedBufferTransport transport(tasks, extent, task_type, comm);
    return rankmap::balance::run_balance_step(count, capacity, args_ok, comm, transport, new_count);
  } catch (...) {
    return rankmap::runtime::status_of_current_exception(RANKMAP_ERR_ARG);
  }
}

extern "C" RANKMAP_EXPORT int rankmap_alias_balance_callbacks(long long count, long long capacity,
                                                              size_t task_bytes, rankmap_task_pack_fn pack,
                                                              rankmap_task_unpack_fn unpack, void* user,
                                                              MPI_Comm comm, long long* new_count) {
  if (new_count != nullptr) *new_count = count;
  if (!usable_comm(comm)) return RANKMAP_ERR_ARG;
  bool args_ok = counts_ok(count, capacity, new_count) && pack != nullptr && unpack != nullptr &&
                 task_bytes > 0 && task_bytes <= static_cast<size_t>(INT_MAX);
  MPI_Datatype byte_task = MPI_DATATYPE_NULL;
  if (args_ok)
    args_ok = MPI_Type_contiguous(static_cast<int>(task_bytes), MPI_BYTE, &byte_task) == MPI_SUCCESS &&
              MPI_Type_commit(&byte_task) == MPI_SUCCESS;
  int status = RANKMAP_SUCCESS;
  try {
    rankmap::balance::CallbackTransport transport(task_bytes, byte_task, pack, unpack, user);
    status = rankmap::balance::run_balance_step(count, capacity, args_ok, comm, transport, new_count);
  } catch (...) {
    status = rankmap::runtime::status_of_current_exception(RANKMAP_ERR_ARG);
  }
  if (byte_task != MPI_DATATYPE_NULL) MPI_Type_free(&byte_task);
  return status;
}
