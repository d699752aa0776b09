// The agreement at the start of every reorder, so that all processes take the same path.
#include "agreement.hpp"

#include "state.hpp"
#include "step_guard.hpp"

#include <climits>

namespace rankmap::runtime {

namespace {

int fold31(std::uint64_t h) { return static_cast<int>((h ^ (h >> 31) ^ (h >> 62)) & 0x7fffffff); }

/// What this process knows of the settings and the world placement; a failure to read the
/// settings counts as a bad setting.
struct LocalState {
  bool config_ok = false;
  int config = 0;
  bool have_world = false;
  bool placement_ok = false;
};

LocalState local_state() noexcept {
  LocalState l;
  try {
    const RuntimeState& s = runtime_state();
    l.config_ok = s.config.ok();
    l.config = fold31(s.config.hash);
    l.have_world = s.world_initialised;
    l.placement_ok = !l.have_world || s.world.placement.has_value();
  } catch (...) {
  }
  return l;
}

Agreement::Fallback fallback_of(const int v[]) {
  using F = Agreement::Fallback;
  if (v[5] != -v[6]) return F::settings_differ;
  if (v[7] == 0) return F::bad_setting;
  if (v[8] != INT_MAX) return F::not_prepared;
  if (v[9] != -v[10]) return F::partial_init;
  if (v[11] == 0) return F::no_placement;
  return F::none;
}

}  // namespace

Agreement agree(MPI_Comm comm, const LocalCheck& check, bool prepared, std::uint64_t args_hash) noexcept {
  const LocalState l = local_state();
  const int args = fold31(args_hash);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  // MPI_MIN of x and of -x gives the minimum and the maximum in one reduction.
  int v[] = {check.error.empty() ? 1 : 0,
             -static_cast<int>(check.unweighted),
             -static_cast<int>(check.weighted),
             args, -args,
             l.config, -l.config,
             l.config_ok ? 1 : 0,
             prepared ? INT_MAX : rank,
             l.have_world ? 1 : 0, -static_cast<int>(l.have_world),
             l.placement_ok ? 1 : 0};
  Agreement a;
  if (PMPI_Allreduce(MPI_IN_PLACE, v, static_cast<int>(std::size(v)), MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) {
    a.fallback = Agreement::Fallback::mpi_error;
    return a;
  }
  // A process that could not prepare has not checked its arguments: the plain call judges them.
  a.invalid = v[8] == INT_MAX && (v[0] == 0 || (v[1] == -1 && v[2] == -1) || v[3] != -v[4]);
  a.fallback = fallback_of(v);
  a.unprepared_rank = v[8] == INT_MAX ? -1 : v[8];
  a.gather_placement = v[9] == 0;
  return a;
}

std::string fallback_note(const Agreement& a) {
  using F = Agreement::Fallback;
  switch (a.fallback) {
    case F::none: return {};
    case F::settings_differ: return "the RANKMAP_* settings differ between processes";
    case F::bad_setting: return "a RANKMAP_* variable has a bad value";
    case F::not_prepared: return describe({Step::prepare, a.unprepared_rank});
    case F::partial_init: return "only some processes went through the interposed MPI_Init";
    case F::no_placement: {
      const std::string& failure = runtime_state().world.failure;
      return "no placement: " + (failure.empty() ? std::string("see above") : failure);
    }
    case F::mpi_error: return "the agreement failed (an MPI error)";
  }
  return {};
}

}  // namespace rankmap::runtime
