// The entry point of every core algorithm (core_algorithms.def), for the registry and for auto's portfolio.
#pragma once

#include <rankmap/mapping/mapping.hpp>

namespace rankmap::mapping {

#define RANKMAP_ALGORITHM(function, name, summary) \
  Mapping function(const graph::CommGraph&, const topology::Allocation&, const MapOptions&);
#include "core_algorithms.def"
#undef RANKMAP_ALGORITHM

}  // namespace rankmap::mapping
