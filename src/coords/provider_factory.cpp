// make_provider(): from a RANKMAP_COORDS spec to a provider, with the `auto` search order.
#include "hostname.hpp"
#include "providers.hpp"

#include <rankmap/types.hpp>

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

/// BG/Q, then Cray, then host names: the first that this build supports and that answers.
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
  }
  throw InputError("RANKMAP_COORDS: unknown provider");
}

}  // namespace rankmap::coords
