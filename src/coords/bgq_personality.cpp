// The real Kernel_GetPersonality call; compiled only where the BG/Q system headers exist.
#include "providers.hpp"

#include <firmware/include/personality.h>
#include <spi/include/kernel/location.h>

namespace rankmap::coords {

bool read_bgq_personality(BgqPersonality& out) {
  Personality_t personality;
  if (Kernel_GetPersonality(&personality, sizeof personality) != 0) return false;
  const auto& net = personality.Network_Config;
  out.coords = {static_cast<int>(net.Acoord), static_cast<int>(net.Bcoord), static_cast<int>(net.Ccoord),
                static_cast<int>(net.Dcoord), static_cast<int>(net.Ecoord)};
  out.extents = {static_cast<int>(net.Anodes), static_cast<int>(net.Bnodes), static_cast<int>(net.Cnodes),
                 static_cast<int>(net.Dnodes), static_cast<int>(net.Enodes)};
  const auto flags = net.NetFlags;
  out.torus = {(flags & ND_ENABLE_TORUS_DIM_A) != 0, (flags & ND_ENABLE_TORUS_DIM_B) != 0,
               (flags & ND_ENABLE_TORUS_DIM_C) != 0, (flags & ND_ENABLE_TORUS_DIM_D) != 0,
               (flags & ND_ENABLE_TORUS_DIM_E) != 0};
  return true;
}

}  // namespace rankmap::coords
