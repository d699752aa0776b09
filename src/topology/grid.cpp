// Grid geometry: coordinates, minimal offsets, hop distances and channel numbering.
#include <rankmap/topology/grid.hpp>

#include <charconv>
#include <cstdlib>
#include <limits>

namespace rankmap::topology {

namespace {

constexpr NodeId kMaxNodes = NodeId{1} << 31;

std::string join_extents(const std::vector<int>& extents) {
  std::string s;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    if (d) s += 'x';
    s += std::to_string(extents[d]);
  }
  return s;
}

}  // namespace

std::vector<int> parse_extents(std::string_view text, std::string_view what) {
  std::vector<int> extents;
  std::size_t pos = 0;
  while (true) {
    const std::size_t end = std::min(text.find('x', pos), text.size());
    const std::string_view token = text.substr(pos, end - pos);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (token.empty() || ec != std::errc{} || ptr != token.data() + token.size() || value < 1)
      throw InputError(std::string(what) + ": '" + std::string(text) +
                       "' is not a list of positive extents such as 4x4x2");
    extents.push_back(value);
    if (extents.size() > static_cast<std::size_t>(kMaxDims))
      throw InputError(std::string(what) + ": more than " + std::to_string(kMaxDims) + " dimensions");
    if (end == text.size()) break;
    pos = end + 1;
  }
  return extents;
}

Grid::Grid(std::vector<int> extents, std::vector<bool> torus)
    : extent_vec_(std::move(extents)), torus_vec_(std::move(torus)) {
  if (extent_vec_.empty() || extent_vec_.size() > static_cast<std::size_t>(kMaxDims))
    throw InputError("grid: needs 1 to " + std::to_string(kMaxDims) + " dimensions");
  if (torus_vec_.size() != extent_vec_.size())
    throw InputError("grid: " + std::to_string(extent_vec_.size()) + " dimensions but " +
                     std::to_string(torus_vec_.size()) + " torus flags");
  ndims_ = static_cast<int>(extent_vec_.size());
  num_nodes_ = 1;
  for (int d = ndims_ - 1; d >= 0; --d) {
    if (extent_vec_[d] < 1 || extent_vec_[d] > kMaxExtent)
      throw InputError("grid: extent of dimension " + std::to_string(d) + " must be 1 to " +
                       std::to_string(kMaxExtent));
    extents_[d] = extent_vec_[d];
    torus_[d] = torus_vec_[d];
    strides_[d] = num_nodes_;
    num_nodes_ *= extents_[d];
    if (num_nodes_ > kMaxNodes) throw InputError("grid: more than 2^31 nodes");
    capacity_[d] = (torus_[d] && extents_[d] == 2) ? 2.0 : 1.0;
  }
}

Grid Grid::parse(std::string_view spec) {
  try {
    return parse_unchecked(spec);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.starts_with("topology")) throw;
    throw InputError("topology '" + std::string(spec) + "': " + what);
  }
}

Grid Grid::parse_unchecked(std::string_view spec) {
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos)
    throw InputError("topology '" + std::string(spec) + "': expected torus:AxB..., mesh:AxB... or grid:AxB...:torus=10...");
  const std::string_view kind = spec.substr(0, colon);
  std::string_view rest = spec.substr(colon + 1);
  if (kind == "torus" || kind == "mesh") {
    auto extents = parse_extents(rest, "topology '" + std::string(spec) + "'");
    std::vector<bool> torus(extents.size(), kind == "torus");
    return Grid(std::move(extents), std::move(torus));
  }
  if (kind == "grid") {
    const auto flags_at = rest.find(":torus=");
    if (flags_at == std::string_view::npos)
      throw InputError("topology '" + std::string(spec) + "': grid:AxB... needs :torus=<one 0/1 flag per dimension>");
    auto extents = parse_extents(rest.substr(0, flags_at), "topology '" + std::string(spec) + "'");
    const std::string_view flags = rest.substr(flags_at + 7);
    if (flags.size() != extents.size() || flags.find_first_not_of("01") != std::string_view::npos)
      throw InputError("topology '" + std::string(spec) + "': torus= needs one 0/1 flag per dimension");
    std::vector<bool> torus;
    for (char f : flags) torus.push_back(f == '1');
    return Grid(std::move(extents), std::move(torus));
  }
  throw InputError("topology '" + std::string(spec) + "': unknown kind '" + std::string(kind) + "'");
}

std::string Grid::to_string() const {
  bool all_torus = true, all_mesh = true;
  for (int d = 0; d < ndims_; ++d) (torus_[d] ? all_mesh : all_torus) = false;
  if (all_torus) return "torus:" + join_extents(extent_vec_);
  if (all_mesh) return "mesh:" + join_extents(extent_vec_);
  std::string flags;
  for (int d = 0; d < ndims_; ++d) flags += torus_[d] ? '1' : '0';
  return "grid:" + join_extents(extent_vec_) + ":torus=" + flags;
}

NodeId Grid::node_at(std::span<const int> coords) const {
  NodeId node = 0;
  for (int d = 0; d < ndims_; ++d) node += static_cast<NodeId>(coords[d]) * strides_[d];
  return node;
}

Coords Grid::coords_of(NodeId node) const {
  Coords c{};
  for (int d = 0; d < ndims_; ++d) c[d] = coord(node, d);
  return c;
}

NodeId Grid::neighbor(NodeId node, int d, Direction dir) const {
  const int c = coord(node, d);
  const int step = dir == Direction::plus ? 1 : -1;
  int next = c + step;
  if (next < 0 || next >= extents_[d]) {
    if (!torus_[d]) return -1;
    next = (next + extents_[d]) % extents_[d];
  }
  return node + static_cast<NodeId>(next - c) * strides_[d];
}

int Grid::offset(int a, int b, int d) const {
  if (!torus_[d]) return b - a;
  const int k = extents_[d];
  return axis_offset(d, 0, ((b - a) % k + k) % k);  // from 0 to the + distance, 0..k-1
}

bool Grid::is_tie(int a, int b, int d) const {
  const int k = extents_[d];
  if (!torus_[d] || k <= 2 || k % 2) return false;
  return std::abs(offset(a, b, d)) * 2 == k;
}

int Grid::hops(NodeId a, NodeId b) const { return hops(coords_of(a), coords_of(b)); }

int Grid::diameter() const {
  int h = 0;
  for (int d = 0; d < ndims_; ++d) h += torus_[d] ? extents_[d] / 2 : extents_[d] - 1;
  return h;
}

bool Grid::has_channel(ChannelId c) const {
  if (c < 0 || c >= num_channel_slots()) return false;
  const int d = channel_dim(c);
  const Direction dir = channel_direction(c);
  if (extents_[d] < 2) return false;
  if (torus_[d]) return extents_[d] > 2 || dir == Direction::plus;
  return neighbor(channel_source(c), d, dir) >= 0;
}

ChannelId Grid::num_channels() const {
  ChannelId n = 0;
  for (int d = 0; d < ndims_; ++d) {
    const NodeId k = extents_[d];
    if (k < 2) continue;
    const NodeId lines = num_nodes_ / k;
    if (torus_[d]) n += lines * (k == 2 ? 2 : 2 * k);
    else n += lines * 2 * (k - 1);
  }
  return n;
}

double Grid::total_capacity() const {
  double total = 0;
  for (int d = 0; d < ndims_; ++d) {
    const NodeId k = extents_[d];
    if (k < 2) continue;
    const double lines = static_cast<double>(num_nodes_ / k);
    if (torus_[d]) total += lines * (k == 2 ? 2 * 2.0 : 2.0 * k);
    else total += lines * 2.0 * (k - 1);
  }
  return total;
}

double Grid::max_node_capacity() const {
  double out = 0;
  for (int d = 0; d < ndims_; ++d) {
    if (extents_[d] < 2) continue;
    // Both directions leave some node unless the dimension is a mesh of extent 2;
    // a torus of extent 2 has one channel of capacity 2.
    out += (torus_[d] || extents_[d] >= 3) ? 2.0 : 1.0;
  }
  return out;
}

}  // namespace rankmap::topology
