// Renders channel loads as SVG: panels of grid planes up to 3D, histograms beyond (see load_svg.hpp).
#include "load_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <unordered_set>

namespace rankmap::tools {

namespace {

using topology::Direction;
using topology::Grid;
using topology::Network;

constexpr double kSpacing = 30;    // pixels between neighbouring nodes
constexpr double kOffset = 3.5;    // pixels between a link's two channel lines
constexpr double kNodeRadius = 3;
constexpr double kGap = 18;        // between panels and between views
constexpr double kLabel = 16;      // panel label height
constexpr double kTitle = 58;      // view title, caption and hottest-channel line
constexpr double kMargin = 16;
constexpr double kLegend = 76;
constexpr int kBins = 20;

// ColorBrewer YlOrRd, 9 classes.
constexpr std::array<std::array<int, 3>, 9> kRamp{{{255, 255, 204},
                                                   {255, 237, 160},
                                                   {254, 217, 118},
                                                   {254, 178, 76},
                                                   {253, 141, 60},
                                                   {252, 78, 42},
                                                   {227, 26, 28},
                                                   {189, 0, 38},
                                                   {128, 0, 38}}};

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// On a grid "(x,y,z) dim d+" (Network::channel_name), on a fat-tree e.g. "up 3->17 #0".
std::string channel_text(const Network& network, ChannelId c, double load) {
  return "hottest: " + network.channel_name(c) + ", load " + sci(load);
}

/// How the planes of a grid of up to 3 dimensions are laid out.
struct PlaneLayout {
  int hdim = 0, vdim = -1, pdim = -1;  // across, down, and the dimension that selects the panel
  int kh = 1, kv = 1, planes = 1;
  int columns = 1, rows = 1;
  double panel_w = 0, panel_h = 0, block_w = 0, block_h = 0;

  explicit PlaneLayout(const Grid& grid) {
    const int n = grid.ndims();
    hdim = n - 1;
    vdim = n >= 2 ? n - 2 : -1;
    pdim = n == 3 ? 0 : -1;
    kh = grid.extent(hdim);
    kv = vdim >= 0 ? grid.extent(vdim) : 1;
    planes = pdim >= 0 ? grid.extent(pdim) : 1;
    columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(planes))));
    rows = (planes + columns - 1) / columns;
    panel_w = kh * kSpacing;
    panel_h = kLabel + kv * kSpacing;
    block_w = columns * panel_w + (columns - 1) * kGap;
    block_h = kTitle + rows * panel_h + (rows - 1) * kGap;
  }
  double panel_x(int plane) const { return (plane % columns) * (panel_w + kGap); }
  double panel_y(int plane) const { return kTitle + (plane / columns) * (panel_h + kGap); }
};

class SvgWriter {
 public:
  std::ostringstream body;

  void line(double x1, double y1, double x2, double y2, const std::string& colour, double width,
            const std::string& extra = "") {
    body << "<line x1=\"" << fmt(x1) << "\" y1=\"" << fmt(y1) << "\" x2=\"" << fmt(x2) << "\" y2=\"" << fmt(y2)
         << "\" stroke=\"" << colour << "\" stroke-width=\"" << fmt(width) << "\"" << extra << "/>\n";
  }
  void rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra = "") {
    body << "<rect x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" width=\"" << fmt(w) << "\" height=\"" << fmt(h)
         << "\" fill=\"" << fill << "\"" << extra << "/>\n";
  }
  void text(double x, double y, std::string_view s, const std::string& extra = "") {
    body << "<text x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\"" << extra << ">" << escape(s) << "</text>\n";
  }
};

std::string channel_attrs(ChannelId c, bool hottest) {
  return " data-channel=\"" + std::to_string(c) + "\"" + (hottest ? " class=\"hottest\"" : "");
}

/// One directed channel inside its plane panel: a line beside the link, or two stubs if it wraps.
void draw_in_plane(SvgWriter& svg, const Grid& grid, const PlaneLayout& lay, double ox, double oy, ChannelId c,
                   const std::string& colour, bool hottest) {
  const NodeId src = grid.channel_source(c);
  const int d = grid.channel_dim(c);
  const NodeId dst = grid.neighbor(src, d, grid.channel_direction(c));
  const int a = grid.coord(src, d), b = grid.coord(dst, d);
  const bool adjacent = std::abs(b - a) == 1;
  const int travel = adjacent ? b - a : (grid.channel_direction(c) == Direction::plus ? 1 : -1);
  const bool across = d == lay.hdim;
  const auto pos = [&](NodeId node) {
    const double x = ox + (grid.coord(node, lay.hdim) + 0.5) * kSpacing;
    const double y = oy + kLabel + ((lay.vdim >= 0 ? grid.coord(node, lay.vdim) : 0) + 0.5) * kSpacing;
    // Travel right or down is drawn above or left of the link, the other way below or right.
    return across ? std::array<double, 2>{x, y - travel * kOffset} : std::array<double, 2>{x - travel * kOffset, y};
  };
  const auto [x1, y1] = pos(src);
  const auto [x2, y2] = pos(dst);
  const double ux = across ? travel : 0, uy = across ? 0 : travel;
  std::vector<std::array<double, 4>> pieces;
  if (adjacent) {
    pieces.push_back({x1 + ux * kNodeRadius, y1 + uy * kNodeRadius, x2 - ux * kNodeRadius, y2 - uy * kNodeRadius});
  } else {
    const double stub = kSpacing / 2;
    pieces.push_back({x1 + ux * kNodeRadius, y1 + uy * kNodeRadius, x1 + ux * stub, y1 + uy * stub});
    pieces.push_back({x2 - ux * stub, y2 - uy * stub, x2 - ux * kNodeRadius, y2 - uy * kNodeRadius});
  }
  for (const auto& p : pieces) {
    if (hottest) svg.line(p[0], p[1], p[2], p[3], "#000000", 6);
    svg.line(p[0], p[1], p[2], p[3], colour, 2.5, channel_attrs(c, hottest));
  }
}

/// A channel leaving the plane (dimension 0 of a 3D grid): a small square at its node.
void draw_leaving(SvgWriter& svg, const Grid& grid, const PlaneLayout& lay, double ox, double oy, ChannelId c,
                  const std::string& colour, bool hottest) {
  const NodeId src = grid.channel_source(c);
  const double x = ox + (grid.coord(src, lay.hdim) + 0.5) * kSpacing;
  const double y = oy + kLabel + (grid.coord(src, lay.vdim) + 0.5) * kSpacing;
  const bool plus = grid.channel_direction(c) == Direction::plus;
  const double sx = plus ? x + 4 : x - 10, sy = plus ? y - 10 : y + 4;
  std::string extra = channel_attrs(c, hottest);
  extra += hottest ? " stroke=\"#000000\" stroke-width=\"2\"" : " stroke=\"#999999\" stroke-width=\"0.5\"";
  svg.rect(sx, sy, 6, 6, colour, extra);
}

void draw_planes(SvgWriter& svg, const Grid& grid, const PlaneLayout& lay, double ox, double oy,
                 const std::unordered_set<NodeId>& allocated, const LoadView& view, double scale) {
  const ChannelId hot = hottest_channel(grid, view.loads);
  for (int p = 0; p < lay.planes; ++p) {
    const double px = ox + lay.panel_x(p), py = oy + lay.panel_y(p);
    svg.body << "<g class=\"panel\">\n";
    svg.rect(px, py + kLabel, lay.panel_w, lay.panel_h - kLabel, "#fbfbfb", " stroke=\"#dddddd\"");
    if (lay.pdim >= 0) svg.text(px, py + kLabel - 4, "dim 0 = " + std::to_string(p), " font-size=\"11\"");
    svg.body << "</g>\n";
  }
  for (ChannelId c = 0; c < grid.num_channel_slots(); ++c) {
    if (!grid.has_channel(c)) continue;
    const NodeId src = grid.channel_source(c);
    const int plane = lay.pdim >= 0 ? grid.coord(src, lay.pdim) : 0;
    const double px = ox + lay.panel_x(plane), py = oy + lay.panel_y(plane);
    const std::string colour = load_colour(view.loads[c], scale);
    if (grid.channel_dim(c) == lay.pdim)
      draw_leaving(svg, grid, lay, px, py, c, colour, c == hot);
    else
      draw_in_plane(svg, grid, lay, px, py, c, colour, c == hot);
  }
  for (NodeId node = 0; node < grid.num_nodes(); ++node) {
    const int plane = lay.pdim >= 0 ? grid.coord(node, lay.pdim) : 0;
    const double x = ox + lay.panel_x(plane) + (grid.coord(node, lay.hdim) + 0.5) * kSpacing;
    const double y =
        oy + lay.panel_y(plane) + kLabel + ((lay.vdim >= 0 ? grid.coord(node, lay.vdim) : 0) + 0.5) * kSpacing;
    const bool mine = allocated.count(node) > 0;
    svg.body << "<circle cx=\"" << fmt(x) << "\" cy=\"" << fmt(y) << "\" r=\"" << fmt(kNodeRadius) << "\" fill=\""
             << (mine ? "#333333" : "#ffffff") << "\" stroke=\"#777777\" stroke-width=\"0.8\"/>\n";
  }
}

struct Histogram {
  std::array<long, kBins + 1> counts{};  // counts[0]: channels with no load
  long max_count = 1;
};

Histogram histogram(const Network& network, std::span<const double> loads, double scale) {
  Histogram h;
  for (ChannelId c = 0; c < network.num_channel_slots(); ++c) {
    if (!network.has_channel(c)) continue;
    const double load = loads[c];
    int bin = 0;
    if (load > 0) bin = 1 + std::min(kBins - 1, static_cast<int>(load / scale * kBins));
    h.counts[bin]++;
  }
  h.max_count = std::max(1L, *std::max_element(h.counts.begin(), h.counts.end()));
  return h;
}

constexpr double kHistW = 420, kHistH = 200;

void draw_histogram(SvgWriter& svg, const Network& network, double ox, double oy, const LoadView& view, double scale,
                    long max_count) {
  const Histogram h = histogram(network, view.loads, scale);
  const double top = oy + kTitle, bottom = top + kHistH;
  const double bar = kHistW / (kBins + 2);
  svg.body << "<g class=\"histogram\">\n";
  svg.line(ox, bottom, ox + kHistW, bottom, "#444444", 1);
  for (int b = 0; b <= kBins; ++b) {
    const double height = kHistH * static_cast<double>(h.counts[b]) / static_cast<double>(max_count);
    const double x = ox + (b == 0 ? 0 : b + 1) * bar;
    const std::string colour = b == 0 ? load_colour(0, scale) : load_colour((b - 0.5) / kBins * scale, scale);
    svg.rect(x, bottom - height, bar - 1, height, colour,
             " stroke=\"#888888\" stroke-width=\"0.5\" data-count=\"" + std::to_string(h.counts[b]) + "\"");
  }
  svg.text(ox, bottom + 14, "0", " font-size=\"10\"");
  svg.text(ox + 2 * bar, bottom + 14, "load 0 .. " + sci(scale), " font-size=\"10\"");
  svg.text(ox + 2 * bar, top + 10, "tallest bar: " + std::to_string(max_count) + " channels",
           " font-size=\"10\"");
  const ChannelId hot = hottest_channel(network, view.loads);
  if (hot >= 0) {
    const double x = ox + 2 * bar + (kBins * bar) * (view.loads[hot] / scale);
    svg.line(x, top, x, bottom, "#000000", 2, channel_attrs(hot, true));
    svg.text(x - 4, top + 24, "max " + sci(view.loads[hot]), " font-size=\"10\" text-anchor=\"end\"");
  }
  svg.body << "</g>\n";
}

void draw_title(SvgWriter& svg, const Network& network, double ox, double oy, const LoadView& view) {
  svg.text(ox, oy + 16, view.title, " font-size=\"15\" font-weight=\"bold\"");
  svg.text(ox, oy + 32, view.caption, " font-size=\"12\"");
  const ChannelId hot = hottest_channel(network, view.loads);
  svg.text(ox, oy + 47, hot >= 0 ? channel_text(network, hot, view.loads[hot]) : "no load on any channel",
           " font-size=\"12\"");
}

void draw_legend(SvgWriter& svg, double ox, double oy, double scale, bool planes) {
  svg.text(ox, oy + 12, "channel load (bytes / capacity), one scale for all views", " font-size=\"11\"");
  const int steps = 30;
  svg.rect(ox, oy + 18, 14, 12, load_colour(0, scale), " stroke=\"#888888\" stroke-width=\"0.5\"");
  svg.text(ox, oy + 42, "0", " font-size=\"10\"");
  for (int i = 0; i < steps; ++i)
    svg.rect(ox + 24 + i * 8, oy + 18, 8, 12, load_colour((i + 0.5) / steps * scale, scale));
  svg.text(ox + 24, oy + 42, "> 0", " font-size=\"10\"");
  svg.text(ox + 24 + steps * 8 - 30, oy + 42, sci(scale), " font-size=\"10\"");
  if (planes) {
    svg.text(ox, oy + 56, "lines: a channel beside its link (rightward or downward travel above or left of it)",
             " font-size=\"10\"");
    svg.text(ox, oy + 69, "squares: channels along dimension 0 (+ upper right, - lower left); outlined: the hottest",
             " font-size=\"10\"");
  }
}

}  // namespace

ChannelId hottest_channel(const Network& network, std::span<const double> loads) {
  ChannelId best = -1;
  double best_load = 0;
  for (ChannelId c = 0; c < static_cast<ChannelId>(loads.size()); ++c)
    if (loads[c] > best_load && network.has_channel(c)) {
      best = c;
      best_load = loads[c];
    }
  return best;
}

std::string load_colour(double load, double scale_max) {
  if (!(load > 0) || !(scale_max > 0)) return "#d9d9d9";
  const double t = std::clamp(load / scale_max, 0.0, 1.0) * (kRamp.size() - 1);
  const std::size_t lo = std::min(static_cast<std::size_t>(t), kRamp.size() - 2);
  const double f = t - static_cast<double>(lo);
  char buf[8];
  int rgb[3];
  for (int i = 0; i < 3; ++i) rgb[i] = static_cast<int>(std::lround(kRamp[lo][i] + f * (kRamp[lo + 1][i] - kRamp[lo][i])));
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

std::string render_loads_svg(const Network& network, std::span<const NodeId> allocated_nodes,
                             std::span<const LoadView> views, std::string_view heading) {
  for (const LoadView& v : views)
    if (static_cast<ChannelId>(v.loads.size()) != network.num_channel_slots())
      throw InputError("render: the loads of '" + v.title + "' do not match the network " + network.to_string());
  double scale = 0;
  for (const LoadView& v : views) {
    const ChannelId hot = hottest_channel(network, v.loads);
    if (hot >= 0) scale = std::max(scale, v.loads[hot]);
  }
  const Grid* grid = network.grid_if();
  const bool planes = grid && grid->ndims() <= 3;
  SvgWriter svg;
  double view_w = kHistW, view_h = kTitle + kHistH + 20;
  std::unordered_set<NodeId> allocated(allocated_nodes.begin(), allocated_nodes.end());
  std::optional<PlaneLayout> lay;
  if (planes) {
    lay.emplace(*grid);
    view_w = std::max(lay->block_w, 330.0);
    view_h = lay->block_h;
  }
  long max_count = 1;
  if (!planes)
    for (const LoadView& v : views) max_count = std::max(max_count, histogram(network, v.loads, scale).max_count);
  const double top = kMargin + 24;
  for (std::size_t i = 0; i < views.size(); ++i) {
    const double ox = kMargin + static_cast<double>(i) * (view_w + 2 * kGap);
    svg.body << "<g class=\"view\">\n";
    draw_title(svg, network, ox, top, views[i]);
    if (planes)
      draw_planes(svg, *grid, *lay, ox, top, allocated, views[i], scale);
    else
      draw_histogram(svg, network, ox, top, views[i], scale, max_count);
    svg.body << "</g>\n";
  }
  const double n = static_cast<double>(std::max<std::size_t>(views.size(), 1));
  const double width = 2 * kMargin + n * view_w + (n - 1) * 2 * kGap;
  const double height = top + view_h + kGap + kLegend;
  draw_legend(svg, kMargin, top + view_h + kGap, scale, planes);

  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << fmt(std::max(width, 640.0))
      << "\" height=\"" << fmt(height) << "\" font-family=\"sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"" << fmt(kMargin) << "\" y=\"" << fmt(kMargin + 12) << "\" font-size=\"16\">" << escape(heading)
      << "</text>\n"
      << svg.body.str() << "</svg>\n";
  return out.str();
}

}  // namespace rankmap::tools
