// SVG pictures of channel loads: one panel per grid plane (2D and 3D), a histogram beyond 3D and
// on fat-trees and dragonflies.
#pragma once

#include <rankmap/topology/network.hpp>
#include <rankmap/types.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::tools {

/// The loads of one mapping, drawn as one block of panels.
struct LoadView {
  std::string title;          ///< e.g. the mapping's algorithm
  std::string caption;        ///< one line under the title, e.g. "MCL 3.1e6  hop-bytes 2.0e9"
  std::vector<double> loads;  ///< by channel id, size network.num_channel_slots()
};

/// The real channel with the highest load (the first one on ties), or -1 when every load is 0.
ChannelId hottest_channel(const topology::Network& network, std::span<const double> loads);

/// The colour of a load on the fixed scale [0, scale_max]: light grey for exactly 0, then
/// ColorBrewer's YlOrRd ramp from pale yellow to dark red. Returns "#rrggbb".
std::string load_colour(double load, double scale_max);

/// Draws the views side by side on one fixed colour scale, the largest load over all views.
///
/// Up to 3 dimensions every view is a block of panels, one per plane along dimension 0 of a 3D
/// grid (a 2D grid is one panel), with dimension n-1 across and n-2 down. Each directed channel
/// in the panel is a line beside its link (travel to the right or downwards above or left of it);
/// the channels along dimension 0 of a 3D grid, which leave the plane, are two small squares at
/// the node. Wrap-around channels are stubs at both panel edges. Allocated nodes are filled
/// dots, others hollow. The hottest channel of each view is outlined and named in its caption.
/// Beyond 3 dimensions, and on networks other than grids, every view is a histogram of the loads
/// of all real channels.
///
/// Every element that draws a channel carries `data-channel="<id>"`; the hottest one also
/// `class="hottest"`. The result is a standalone SVG 1.1 document.
std::string render_loads_svg(const topology::Network& network, std::span<const NodeId> allocated_nodes,
                             std::span<const LoadView> views, std::string_view heading);

}  // namespace rankmap::tools
