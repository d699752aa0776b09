// make_provider(): from a RANKMAP_COORDS spec to a provider, with the `auto` search order.
#include "hostname.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

#include <cstdlib>
#include <filesystem>

namespace rankmap::coords {

namespace {

std::unique_ptr<Provider> machine_provider(CoordsSpec::Kind kind) {
  if (kind == CoordsSpec::Kind::bgq) {
#ifdef RANKMAP_HAVE_BGQ
    return make_bgq_provider(&read_bgq_personality);
#else
    throw InputError("RANKMAP_COORDS=bgq: this build has no Blue Gene/Q support (no spi/include/kernel/location.h)");
#endif
  }
#ifdef RANKMAP_HAVE_CRAY_RCA
  return make_cray_provider(cray_system_calls());
#else
  throw InputError("RANKMAP_COORDS=cray: this build has no Cray support (no rca_lib.h and pmi.h)");
#endif
}

const char* system_getenv(const char* name) { return std::getenv(name); }

std::unique_ptr<Provider> tofu_provider([[maybe_unused]] const std::string& options) {
#ifdef RANKMAP_HAVE_TOFU
  return make_tofu_provider(tofu_system_call(), parse_tofu_shape(options));
#else
  throw InputError("RANKMAP_COORDS=tofu: this build has no Tofu support (no FJMPI_Topology_get_coords in mpi-ext.h)");
#endif
}

/// BG/Q, then Cray XE/XK, then Tofu (where built), then slurm (where Slurm's tree variables are set),
/// then craype (where the xname file exists), then host names: the first that answers. A machine
/// is identified by what it provides, so only a provider that applies and then fails is skipped.
class AutoProvider final : public Provider {
 public:
  std::string name() const override { return "auto"; }
  Location locate(int world_rank, int world_size) const override {
#ifdef RANKMAP_HAVE_BGQ
    return make_bgq_provider(&read_bgq_personality)->locate(world_rank, world_size);
#else
#ifdef RANKMAP_HAVE_CRAY_RCA
    try {
      return make_cray_provider(cray_system_calls())->locate(world_rank, world_size);
    } catch (const InputError&) {
      // A Cray login or service node has no mesh coordinates; host names still give the nodes.
    }
#endif
#ifdef RANKMAP_HAVE_TOFU
    try {
      return tofu_provider({})->locate(world_rank, world_size);
    } catch (const InputError&) {
      // A node outside Fugaku's shape, or a shared node, where Fujitsu's MPI refuses coordinates.
    }
#endif
    const char* pattern = std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN");
    const char* addr = std::getenv("SLURM_TOPOLOGY_ADDR");
    // `node` alone is Slurm's flat topology: no switches to learn. Variables that name another
    // node were forwarded by the launcher from where mpiexec ran: they say nothing about this one.
    if (addr != nullptr && pattern != nullptr && std::string_view(pattern) != "node" &&
        short_host_name(std::string_view(addr).substr(std::string_view(addr).rfind('.') + 1)) ==
            short_host_name(this_host_name()))
      return make_slurm_provider(&system_getenv, &this_host_name)->locate(world_rank, world_size);
    std::error_code ec;
    if (std::filesystem::exists(kCrayXnamePath, ec))
      return make_craype_provider({}, kCrayXnamePath)->locate(world_rank, world_size);
    return make_hostname_provider()->locate(world_rank, world_size);
#endif
  }
};

}  // namespace

std::unique_ptr<Provider> make_provider(const CoordsSpec& spec) {
  switch (spec.kind) {
    case CoordsSpec::Kind::automatic: return std::make_unique<AutoProvider>();
    case CoordsSpec::Kind::file: return make_file_provider(spec.path, &this_host_name);
    case CoordsSpec::Kind::emulate: return make_emulation_provider(spec);
    case CoordsSpec::Kind::hostname: return make_hostname_provider();
    case CoordsSpec::Kind::bgq:
    case CoordsSpec::Kind::cray: return machine_provider(spec.kind);
    case CoordsSpec::Kind::tofu: return tofu_provider(spec.options);
    case CoordsSpec::Kind::craype: return make_craype_provider(spec.options, kCrayXnamePath);
    case CoordsSpec::Kind::slurm: return make_slurm_provider(&system_getenv, &this_host_name);
  }
  throw InputError("RANKMAP_COORDS: unknown provider");
}

}  // namespace rankmap::coords
