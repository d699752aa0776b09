// Networks by value: the grid adapter, parsing any network spec, and the grid-only check.
#include <rankmap/topology/dragonfly.hpp>
#include <rankmap/topology/fat_tree.hpp>
#include <rankmap/topology/network.hpp>

namespace rankmap::topology {

namespace {

/// A torus or mesh seen as a network: one level (the whole grid), channels as Grid numbers them.
class GridNetwork final : public NetworkModel {
 public:
  explicit GridNetwork(Grid grid) : grid_(std::move(grid)) {}
  const Grid& grid() const noexcept { return grid_; }

  NetworkKind kind() const noexcept override { return NetworkKind::grid; }
  std::string to_string() const override { return grid_.to_string(); }
  NodeId num_nodes() const noexcept override { return grid_.num_nodes(); }
  int hops(NodeId a, NodeId b) const override { return grid_.hops(a, b); }
  int diameter() const override { return grid_.diameter(); }
  int min_hops() const override { return grid_.num_nodes() > 1 ? 1 : 0; }
  ChannelId num_channel_slots() const noexcept override { return grid_.num_channel_slots(); }
  bool has_channel(ChannelId c) const override { return grid_.has_channel(c); }
  double capacity(ChannelId c) const override { return grid_.capacity(grid_.channel_dim(c)); }
  ChannelId num_channels() const override { return grid_.num_channels(); }
  double total_capacity() const override { return grid_.total_capacity(); }
  double max_node_capacity() const override { return grid_.max_node_capacity(); }
  std::string channel_name(ChannelId c) const override {
    const Coords at = grid_.coords_of(grid_.channel_source(c));
    std::string s = "(";
    for (int d = 0; d < grid_.ndims(); ++d) s += (d ? "," : "") + std::to_string(at[d]);
    return s + ") dim " + std::to_string(grid_.channel_dim(c)) +
           (grid_.channel_direction(c) == Direction::plus ? "+" : "-");
  }
  int num_levels() const override { return 1; }
  NodeId level_size(int level) const override { return level == 0 ? 1 : grid_.num_nodes(); }
  int min_hops_beyond(int) const override { return 1; }
  std::pair<NodeId, int> channel_home(ChannelId) const override { return {0, 1}; }
  std::vector<std::string> routing_names() const override { return {"adaptive", "adaptive-hop", "dor"}; }

 private:
  Grid grid_;
};

}  // namespace

std::vector<double> NetworkModel::hops_to_all(std::span<const NodeId> nodes) const {
  std::vector<double> total(nodes.size(), 0.0);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t j = i + 1; j < nodes.size(); ++j) {
      const int h = hops(nodes[i], nodes[j]);
      total[i] += h;
      total[j] += h;
    }
  return total;
}

Network::Network() : Network(Grid()) {}

Network::Network(Grid grid) {
  auto model = std::make_shared<const GridNetwork>(std::move(grid));
  grid_ = &model->grid();
  model_ = std::move(model);
}

Network::Network(FatTree fat_tree) : model_(std::make_shared<const FatTree>(std::move(fat_tree))) {}

Network::Network(Dragonfly dragonfly) : model_(std::make_shared<const Dragonfly>(std::move(dragonfly))) {}

Network Network::parse(std::string_view spec) {
  if (spec.starts_with("fattree:")) return FatTree::parse(spec.substr(8));
  if (spec.starts_with("dragonfly:")) return Dragonfly::parse(spec.substr(10));
  if (spec.starts_with("torus:") || spec.starts_with("mesh:") || spec.starts_with("grid:")) return Grid::parse(spec);
  throw InputError("topology '" + std::string(spec) +
                   "': expected torus:AxB..., mesh:AxB..., grid:AxB...:torus=10..., fattree:L;d1,...;u1,...;p1,... or "
                   "dragonfly:G,g;C,c;R,r;N");
}

const Grid& Network::grid() const {
  if (!grid_) throw InputError("this needs a torus or mesh, and " + to_string() + " is not one");
  return *grid_;
}

const FatTree* Network::fat_tree() const noexcept { return dynamic_cast<const FatTree*>(model_.get()); }

const Dragonfly* Network::dragonfly() const noexcept { return dynamic_cast<const Dragonfly*>(model_.get()); }

void require_grid(const Network& network, std::string_view algorithm) {
  if (!network.is_grid())
    throw InputError(std::string(algorithm) + " works on the coordinates of a torus or mesh, and " +
                     network.to_string() +
                     " has none; on a fat-tree or dragonfly use tree, identity, gge, mahd, emahd, refine or anneal");
}

}  // namespace rankmap::topology
