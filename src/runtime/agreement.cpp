// The agreement at the start of every reorder, so that all processes take the same path.
#include "agreement.hpp"

#include "state.hpp"

namespace rankmap::runtime {

namespace {

int fold31(std::uint64_t h) { return static_cast<int>((h ^ (h >> 31) ^ (h >> 62)) & 0x7fffffff); }

}  // namespace

Agreement agree(MPI_Comm comm, const LocalCheck& check, bool prepared, std::uint64_t args_hash) {
  const RuntimeState& s = runtime_state();
  const bool have_world = s.world_initialised;
  const bool placement_ok = !have_world || s.world.placement.has_value();
  const int args = fold31(args_hash), config = fold31(s.config.hash);
  // MPI_MIN of x and of -x gives the minimum and the maximum in one reduction.
  int v[] = {check.error.empty() ? 1 : 0,
             -static_cast<int>(check.unweighted),
             -static_cast<int>(check.weighted),
             args, -args,
             config, -config,
             s.config.ok() ? 1 : 0,
             prepared ? 1 : 0,
             have_world ? 1 : 0, -static_cast<int>(have_world),
             placement_ok ? 1 : 0};
  PMPI_Allreduce(MPI_IN_PLACE, v, static_cast<int>(std::size(v)), MPI_INT, MPI_MIN, comm);
  Agreement a;
  a.invalid = v[0] == 0 || (v[1] == -1 && v[2] == -1) || v[3] != -v[4];
  if (v[5] != -v[6]) a.fallback = "the RANKMAP_* settings differ between processes";
  else if (v[7] == 0) a.fallback = "a RANKMAP_* variable has a bad value";
  else if (v[8] == 0) a.fallback = "a process could not prepare its arguments";
  else if (v[9] != -v[10]) a.fallback = "only some processes went through the interposed MPI_Init";
  else if (v[11] == 0)
    a.fallback = "no placement: " + (s.world.failure.empty() ? std::string("see above") : s.world.failure);
  a.gather_placement = v[9] == 0;
  return a;
}

}  // namespace rankmap::runtime
