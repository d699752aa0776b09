// Basic index types shared by every part of the rankmap core.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rankmap {

/// A vertex of the communication graph; in the runtime, a rank of the new communicator.
using TaskId = std::int32_t;
/// A place in the allocation: where the process with old rank `s` runs.
using SlotId = std::int32_t;
/// A node of the whole grid, numbered row-major (dimension 0 slowest).
using NodeId = std::int64_t;
/// A directed channel of the grid, see topology::Grid::channel().
using ChannelId = std::int64_t;

/// Raised for any input the core refuses: malformed files, bad specs, sizes that do not fit.
/// The message always names the thing that was wrong.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rankmap
