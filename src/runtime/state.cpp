// Process-wide state, the world allgather at MPI_Init, and placements of sub-communicators.
#include "state.hpp"

#include "report.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

namespace rankmap::runtime {

namespace {

RuntimeState& mutable_state() {
  static RuntimeState state;
  static std::once_flag once;
  std::call_once(once, [] { state.config = read_config_from_environment(); });
  return state;
}

int world_rank() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

void report_settings_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (world_rank() != 0) return;
    const ConfigResult& c = mutable_state().config;
    for (const std::string& w : c.warnings) log_once(w, w);
    for (const std::string& e : c.errors) log_once(e, e + "; ranks will not be reordered in this run");
  });
}

std::string own_failure_message() {
  const ConfigResult& c = mutable_state().config;
  if (!c.ok()) {
    std::string all;
    for (const std::string& e : c.errors) all += (all.empty() ? "" : "; ") + e;
    return all;
  }
  return local_location().error;
}

/// A failing rank's message, in fixed-size buffers so that the exchange allocates nothing.
using Message = std::array<char, 512>;

Message own_message() noexcept {
  Message m{};
  try {
    const std::string text = own_failure_message();
    std::memcpy(m.data(), text.data(), std::min(text.size(), m.size() - 1));
  } catch (...) {
  }
  return m;
}

/// The failing rank's own message, sent to rank 0 on a private duplicate (errors only); empty on the
/// other processes. Every process of comm takes part, and none can fail out of it.
Message message_from_failing_rank(MPI_Comm comm, int failing_rank) noexcept {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  Message m = rank == failing_rank ? own_message() : Message{};
  if (failing_rank == 0) return m;
  MPI_Comm dup = MPI_COMM_NULL;
  if (PMPI_Comm_dup(comm, &dup) != MPI_SUCCESS) return {};
  if (rank == failing_rank) PMPI_Send(m.data(), static_cast<int>(m.size()), MPI_CHAR, 0, 0, dup);
  if (rank == 0) PMPI_Recv(m.data(), static_cast<int>(m.size()), MPI_CHAR, failing_rank, 0, dup, MPI_STATUS_IGNORE);
  PMPI_Comm_free(&dup);
  m.back() = '\0';
  return rank == 0 ? m : Message{};
}

bool disabled() {
  const ConfigResult& c = mutable_state().config;
  return c.ok() && c.config.disable;
}

ProcessRecord record_of_this_process() {
  const RuntimeState& s = mutable_state();
  ProcessRecord mine = make_record(local_location().where, s.config.ok(), s.config.hash);
  if (disabled()) mine.status = record_disabled;
  return mine;
}

std::vector<ProcessRecord> gather_records(MPI_Comm comm) {
  const ProcessRecord mine = record_of_this_process();
  int size = 0;
  PMPI_Comm_size(comm, &size);
  std::vector<ProcessRecord> all(static_cast<std::size_t>(size));
  PMPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm);
  return all;
}

/// The first rank whose settings differ from rank 0's, or -1 when all agree.
int first_disagreeing_rank(const std::vector<ProcessRecord>& records) {
  for (std::size_t r = 1; r < records.size(); ++r)
    if (records[r].config_hash != records[0].config_hash) return static_cast<int>(r);
  return -1;
}

}  // namespace

const RuntimeState& runtime_state() { return mutable_state(); }

const LocalLocation& local_location() {
  static LocalLocation location;
  static std::once_flag once;
  std::call_once(once, [] {
    const ConfigResult& c = mutable_state().config;
    if (!c.ok() || c.config.disable) return;
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    try {
      location.where = coords::make_provider(c.config.coords)->locate(rank, size);
    } catch (const std::exception& e) {
      location.error = e.what();
    }
  });
  return location;
}

void initialize_world() {
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      RuntimeState& s = mutable_state();
      report_settings_once();
      const std::vector<ProcessRecord> records = gather_records(MPI_COMM_WORLD);
      const int differing = first_disagreeing_rank(records);
      s.world_settings_agree = differing < 0;
      s.world = placement_from_records_of(MPI_COMM_WORLD, records);
      s.world_initialised = true;
      if (world_rank() != 0) return;
      if (!s.world_settings_agree)
        log_once("world", "the RANKMAP_* settings of rank " + std::to_string(differing) +
                              " differ from those of rank 0; every call is passed through in this run");
      else if (s.active() && !s.world.placement)
        log_once("world", s.world.failure + "; ranks will not be reordered in this run");
    } catch (const std::exception& e) {
      // Only a local failure (out of memory) gets here. Marking the world as without placement
      // makes the agreement of every later reorder fall back to the plain call on all processes.
      RuntimeState& s = mutable_state();
      s.world = {std::nullopt, std::string("initialisation failed: ") + e.what(), -1};
      s.world_initialised = true;
      log_once("world", s.world.failure);
    }
  });
}

ProcessRecord own_record() {
  report_settings_once();
  return record_of_this_process();
}

PlacementResult placement_from_records_of(MPI_Comm comm, std::span<const ProcessRecord> records) {
  const int failing = first_failing_record(records);
  const Message detail = failing >= 0 ? message_from_failing_rank(comm, failing) : Message{};
  const LocalLocation& here = local_location();
  PlacementResult result =
      placement_from_records(records, here.where);
  if (detail[0] != '\0') result.failure = detail.data();
  return result;
}

PlacementResult world_placement_of(MPI_Comm comm) {
  const RuntimeState& s = mutable_state();
  if (!s.world.placement) return {std::nullopt, s.world.failure, -1};
  MPI_Group group, world_group;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(static_cast<std::size_t>(size)), world_ranks(ranks.size());
  for (int i = 0; i < size; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(group, size, ranks.data(), world_group, world_ranks.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world_group);
  for (int r : world_ranks)
    if (r == MPI_UNDEFINED) return {std::nullopt, "the communicator has processes outside MPI_COMM_WORLD", -1};
  return {s.world.placement->subset(world_ranks), {}, -1};
}

}  // namespace rankmap::runtime
