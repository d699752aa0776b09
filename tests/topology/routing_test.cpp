// Channel loads of single flows, worked out by hand.
#include <rankmap/topology/routing.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <latch>
#include <map>
#include <memory>
#include <thread>
#include <vector>

namespace rankmap::topology {
namespace {

using Loads = std::map<ChannelId, double>;

// The non-zero loads of one flow of `bytes` from src to dst.
Loads loads_of(const Grid& g, std::string_view routing, std::vector<int> src, std::vector<int> dst, double bytes) {
  const auto model = make_routing_model(g, routing);
  std::vector<double> loads(g.num_channel_slots(), 0.0);
  model->add_flow(g.node_at(src), g.node_at(dst), bytes, loads);
  Loads out;
  for (ChannelId c = 0; c < g.num_channel_slots(); ++c)
    if (loads[c] != 0) out[c] = loads[c];
  return out;
}

ChannelId ch(const Grid& g, std::vector<int> from, int d, Direction dir) { return g.channel(g.node_at(from), d, dir); }

void expect_loads(const Loads& actual, const Loads& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [c, load] : expected) {
    ASSERT_TRUE(actual.count(c)) << "channel " << c << " carries nothing";
    EXPECT_NEAR(actual.at(c), load, 1e-12) << "channel " << c;
  }
}

constexpr auto plus = Direction::plus;
constexpr auto minus = Direction::minus;

TEST(Routing, ParsesSpecs) {
  EXPECT_EQ(RoutingSpec::parse("dor:210").to_string(), "dor:210");
  EXPECT_EQ(RoutingSpec::parse("adaptive-hop").kind, RoutingKind::adaptive_hop);
  EXPECT_THROW(RoutingSpec::parse("minimum"), InputError);
  EXPECT_THROW(make_routing_model(Grid::parse("torus:4x4"), "minimal"), InputError);
  EXPECT_THROW(RoutingSpec::parse("dor:2a"), InputError);
  EXPECT_THROW(make_routing_model(Grid::parse("torus:4x4"), "dor:0"), InputError);
  EXPECT_THROW(make_routing_model(Grid::parse("torus:4x4"), "dor:00"), InputError);
  EXPECT_EQ(make_routing_model(Grid::parse("torus:4x4"), "dor:10")->name(), "dor:10");
}

// A shared model is one object while anyone holds it, per network and routing as the network takes
// it ("default" on a torus is adaptive), and is built afresh once its last holder let it go.
TEST(Routing, SharedModelIsOnePerNetworkAndRoutingWhileHeld) {
  const Network torus(Grid::parse("torus:4x4"));
  std::shared_ptr<const RoutingModel> adaptive = shared_routing_model(torus, RoutingSpec::parse("adaptive"));
  EXPECT_EQ(adaptive->name(), "adaptive");
  EXPECT_EQ(shared_routing_model(torus, RoutingSpec::parse("default")), adaptive);
  EXPECT_EQ(shared_routing_model(Network(Grid::parse("torus:4x4")), RoutingSpec::parse("adaptive")), adaptive);
  EXPECT_NE(shared_routing_model(torus, RoutingSpec::parse("dor")), adaptive);
  EXPECT_NE(shared_routing_model(Network(Grid::parse("mesh:4x4")), RoutingSpec::parse("adaptive")), adaptive);
  const std::weak_ptr<const RoutingModel> held = adaptive;
  adaptive.reset();
  EXPECT_TRUE(held.expired());
  EXPECT_EQ(shared_routing_model(torus, RoutingSpec::parse("adaptive"))->name(), "adaptive");
  EXPECT_THROW(shared_routing_model(torus, RoutingSpec::parse("minimal")), InputError);
}

// Patterns are cached in a slot per offset, published once and read without a lock: threads that
// share a model while they fill its cache must get the loads a model of their own gives.
TEST(Routing, ThreadsSharingAModelRouteAsAModelOfTheirOwn) {
  const Grid g = Grid::parse("torus:12x10x8");  // 210 offsets, ties in every dimension
  const auto all_flows = [&](const RoutingModel& model) {
    std::vector<double> loads(g.num_channel_slots(), 0.0);
    for (NodeId src = 0; src < g.num_nodes(); src += 7)
      for (NodeId dst = 0; dst < g.num_nodes(); dst += 3) model.add_flow(src, dst, 1.0 + src % 7, loads);
    return loads;
  };
  const std::vector<double> own = all_flows(*make_routing_model(g, "adaptive"));
  const std::shared_ptr<const RoutingModel> shared = shared_routing_model(Network(g), RoutingSpec::parse("adaptive"));
  std::vector<std::vector<double>> seen(4);
  std::latch start(static_cast<std::ptrdiff_t>(seen.size()));  // so that they fill the cache together
  std::vector<std::thread> threads;
  for (auto& loads : seen)
    threads.emplace_back([&] {
      start.arrive_and_wait();
      loads = all_flows(*shared);
    });
  for (std::thread& t : threads) t.join();
  for (const auto& loads : seen) EXPECT_EQ(loads, own);
}

/// Routes a flow one hop along each dimension on `huge` twice (the second time from whatever the
/// model kept), under adaptive and dimension-ordered routing, and expects the loads of mesh:2x2.
void routes_as_on_a_small_grid(const Grid& huge) {
  const Grid small = Grid::parse("mesh:2x2");
  for (auto spec : {"adaptive", "dor"}) {
    const auto model = make_routing_model(huge, spec);
    for (int repeat = 0; repeat < 2; ++repeat) {
      std::vector<ChannelShare> shares;
      model->route(0, huge.node_at(std::vector<int>{1, 1}), shares);
      Loads actual, expected;
      for (const ChannelShare& s : shares) actual[s.channel] += s.fraction;
      for (const auto& [c, load] : loads_of(small, spec, {0, 0}, {1, 1}, 1)) {
        const NodeId from = small.channel_source(c);
        expected[ch(huge, {small.coord(from, 0), small.coord(from, 1)}, small.channel_dim(c),
                    small.channel_direction(c))] = load;
      }
      expect_loads(actual, expected);
    }
  }
}

// A grid with more possible offsets than the cache has slots for routes every flow afresh:
// mesh:1100x1000. mesh:2100x1000 also has too many nodes for the models' table of coordinates,
// which are then divided out of the node indices.
TEST(Routing, GridTooLargeToCacheRoutesAsASmallOneDoes) {
  for (const char* size : {"mesh:1100x1000", "mesh:2100x1000"}) routes_as_on_a_small_grid(Grid::parse(size));
}

TEST(Routing, RingNeighbourUsesOneChannel) {
  const Grid g = Grid::parse("torus:4");
  for (auto r : {"dor", "adaptive", "adaptive-hop"}) {
    expect_loads(loads_of(g, r, {0}, {1}, 10), {{ch(g, {0}, 0, plus), 10}});
    expect_loads(loads_of(g, r, {0}, {3}, 10), {{ch(g, {0}, 0, minus), 10}});
  }
}

TEST(Routing, RingTieGoesPlusUnderDorAndBothWaysUnderAdaptive) {
  const Grid g = Grid::parse("torus:4");
  // 0 -> 2 on a 4-ring: two hops either way.
  expect_loads(loads_of(g, "dor", {0}, {2}, 10), {{ch(g, {0}, 0, plus), 10}, {ch(g, {1}, 0, plus), 10}});
  const Loads both = {{ch(g, {0}, 0, plus), 5}, {ch(g, {1}, 0, plus), 5},
                      {ch(g, {0}, 0, minus), 5}, {ch(g, {3}, 0, minus), 5}};
  expect_loads(loads_of(g, "adaptive", {0}, {2}, 10), both);
  expect_loads(loads_of(g, "adaptive-hop", {0}, {2}, 10), both);
}

TEST(Routing, TorusOfExtentTwoIsOneDoubleCapacityChannel) {
  const Grid g = Grid::parse("torus:2");
  for (auto r : {"dor", "adaptive", "adaptive-hop"}) {
    // 10 bytes over capacity 2.
    expect_loads(loads_of(g, r, {0}, {1}, 10), {{ch(g, {0}, 0, plus), 5}});
    expect_loads(loads_of(g, r, {1}, {0}, 10), {{ch(g, {1}, 0, plus), 5}});
  }
}

TEST(Routing, MeshDiagonalSplitsOverTwoPathsUnderAdaptive) {
  const Grid g = Grid::parse("mesh:2x2");
  expect_loads(loads_of(g, "dor", {0, 0}, {1, 1}, 12), {{ch(g, {0, 0}, 0, plus), 12}, {ch(g, {1, 0}, 1, plus), 12}});
  expect_loads(loads_of(g, "dor:10", {0, 0}, {1, 1}, 12), {{ch(g, {0, 0}, 1, plus), 12}, {ch(g, {0, 1}, 0, plus), 12}});
  const Loads split = {{ch(g, {0, 0}, 0, plus), 6}, {ch(g, {1, 0}, 1, plus), 6},
                       {ch(g, {0, 0}, 1, plus), 6}, {ch(g, {0, 1}, 0, plus), 6}};
  expect_loads(loads_of(g, "adaptive", {0, 0}, {1, 1}, 12), split);
  expect_loads(loads_of(g, "adaptive-hop", {0, 0}, {1, 1}, 12), split);
}

TEST(Routing, AdaptiveAndAdaptiveHopDifferOnAThreeByTwoMesh) {
  // (0,0) -> (2,1): three minimal paths, xxy, xyx and yxx.
  const Grid g = Grid::parse("mesh:3x2");
  // Even over paths: (0,0)->(1,0) is on 2 of 3 paths, (1,1)->(2,1) too.
  expect_loads(loads_of(g, "adaptive", {0, 0}, {2, 1}, 12), {{ch(g, {0, 0}, 0, plus), 8},
                                                            {ch(g, {0, 0}, 1, plus), 4},
                                                            {ch(g, {1, 0}, 0, plus), 4},
                                                            {ch(g, {1, 0}, 1, plus), 4},
                                                            {ch(g, {2, 0}, 1, plus), 4},
                                                            {ch(g, {0, 1}, 0, plus), 4},
                                                            {ch(g, {1, 1}, 0, plus), 8}});
  // Even per hop: halves at (0,0), quarters at (1,0), and (1,1) collects 1/2 + 1/4.
  expect_loads(loads_of(g, "adaptive-hop", {0, 0}, {2, 1}, 12), {{ch(g, {0, 0}, 0, plus), 6},
                                                                {ch(g, {0, 0}, 1, plus), 6},
                                                                {ch(g, {1, 0}, 0, plus), 3},
                                                                {ch(g, {1, 0}, 1, plus), 3},
                                                                {ch(g, {2, 0}, 1, plus), 3},
                                                                {ch(g, {0, 1}, 0, plus), 6},
                                                                {ch(g, {1, 1}, 0, plus), 9}});
}

// The shares of the flow from the grid's first node to its last, each expected in (0, 1]; their sum.
double corner_to_corner_share_sum(std::string_view spec, std::string_view routing) {
  const Grid g = Grid::parse(spec);
  const auto model = make_routing_model(g, routing);
  std::vector<ChannelShare> shares;
  model->route(0, g.num_nodes() - 1, shares);
  double total = 0;
  for (const ChannelShare& s : shares) {
    EXPECT_TRUE(s.fraction > 0 && s.fraction <= 1) << "channel " << s.channel << ": " << s.fraction;
    total += s.fraction;
  }
  return total;
}

TEST(Routing, AdaptiveHopNamesNoChannelWithAShareThatUnderflowedToZero) {
  // From (0,0) to (1763,1) the share left to take the y hop halves at every x hop.
  EXPECT_NEAR(corner_to_corner_share_sum("mesh:1764x2", "adaptive-hop"), 1764.0, 1e-6);
}

// Flows from every node to one, with bytes that differ by source: their boxes add up to more than
// four times the grid's nodes, so adaptive routing walks them together instead of one by one.
void expect_flows_to_one_node_load_as_one_by_one(std::string_view spec, std::vector<int> destination) {
  const Grid g = Grid::parse(spec);
  const auto model = make_routing_model(g, "adaptive");
  ASSERT_TRUE(model->spreads_by_destination());
  const NodeId dst = g.node_at(destination);
  std::vector<SourceBytes> sources;
  for (NodeId src = 0; src < g.num_nodes(); ++src)
    if (src != dst) sources.push_back({src, 1.0 + static_cast<double>((src * 7919) % 13)});
  std::vector<double> together(g.num_channel_slots(), 0.0), one_by_one(g.num_channel_slots(), 0.0);
  model->add_flows_to(dst, sources, together);
  for (const SourceBytes& flow : sources) model->add_flow(flow.src, dst, flow.bytes, one_by_one);
  for (ChannelId c = 0; c < g.num_channel_slots(); ++c)
    EXPECT_NEAR(together[c], one_by_one[c], 1e-12 * std::max(1.0, one_by_one[c])) << spec << " channel " << c;
}

TEST(Routing, AdaptiveFlowsToOneDestinationLoadChannelsAsTheyDoOneByOne) {
  expect_flows_to_one_node_load_as_one_by_one("torus:4x4x4", {1, 2, 3});      // ties in every dimension
  expect_flows_to_one_node_load_as_one_by_one("mesh:3x4x5", {0, 3, 2});       // no wrap, a corner and a middle
  expect_flows_to_one_node_load_as_one_by_one("grid:4x6x2:torus=101", {2, 2, 1});  // a torus of extent 2
  expect_flows_to_one_node_load_as_one_by_one("torus:4x4x4x4x2", {0, 0, 0, 0, 0});
  expect_flows_to_one_node_load_as_one_by_one("torus:5x3", {4, 1});            // odd extents: no ties
}

TEST(Routing, AdaptiveSplitsAFlowWhoseMinimalPathsOutnumberTheLargestDouble) {
  // C(1198, 599), about 10^359 paths: counting them overflowed and made every share NaN.
  EXPECT_NEAR(corner_to_corner_share_sum("mesh:600x600", "adaptive"), 1198.0, 1e-6);
}

TEST(Routing, CubeAntipodeLeavesOnAllSixChannelsEvenly) {
  // On a 4x4x4 torus (2,2,2) is a tie in every dimension: 6 first hops, 90 minimal paths each way.
  const Grid g = Grid::parse("torus:4x4x4");
  for (auto r : {"adaptive", "adaptive-hop"}) {
    const Loads l = loads_of(g, r, {0, 0, 0}, {2, 2, 2}, 60);
    for (int d = 0; d < 3; ++d)
      for (auto dir : {plus, minus}) EXPECT_NEAR(l.at(g.channel(0, d, dir)), 10.0, 1e-12) << r;
    double total = 0;
    for (const auto& [c, load] : l) total += load;
    EXPECT_NEAR(total, 60.0 * 6, 1e-9) << r;
  }
}

TEST(Routing, RouteSharesCrossEveryCutOnce) {
  const Grid g = Grid::parse("grid:6x5x2:torus=101");
  const auto model = make_routing_model(g, "adaptive");
  std::vector<ChannelShare> shares;
  model->route(g.node_at(std::vector<int>{0, 0, 0}), g.node_at(std::vector<int>{3, 4, 1}), shares);
  // Every minimal path crosses each dimension's hops: the shares per dimension sum to its hop count.
  double per_dim[3] = {0, 0, 0};
  for (const auto& s : shares) per_dim[g.channel_dim(s.channel)] += s.fraction;
  EXPECT_NEAR(per_dim[0], 3, 1e-12);
  EXPECT_NEAR(per_dim[1], 4, 1e-12);
  EXPECT_NEAR(per_dim[2], 1, 1e-12);
}

// Every minimal path from `at` to `dst`, walked one productive hop at a time; each adds 1/paths of
// the flow to every channel it takes. `steps[d]` is the signed hops left in d; a tie (either sign
// is minimal) is stored as `tie[d]` and fixes its sign at the first hop taken in d.
void walk(const Grid& g, std::vector<int> at, std::vector<int> steps, std::vector<bool> tie,
          std::vector<std::vector<ChannelId>>& paths, std::vector<ChannelId>& path) {
  bool done = true;
  for (int d = 0; d < g.ndims(); ++d) {
    if (steps[d] == 0) continue;
    done = false;
    for (int sign : tie[d] ? std::vector<int>{1, -1} : std::vector<int>{steps[d] > 0 ? 1 : -1}) {
      std::vector<int> next = at, left = steps;
      std::vector<bool> fixed = tie;
      next[d] = (at[d] + sign + g.extent(d)) % g.extent(d);
      left[d] = sign * (std::abs(steps[d]) - 1);
      fixed[d] = false;
      path.push_back(g.channel(g.node_at(at), d, sign > 0 ? plus : minus));
      walk(g, next, left, fixed, paths, path);
      path.pop_back();
    }
  }
  if (done) paths.push_back(path);
}

TEST(Routing, AdaptiveEqualsAnEvenSplitOverEnumeratedMinimalPaths) {
  // A tie (extent 4, offset 2), a wrapped negative offset (extent 6: 0 -> 5 is -1) and a mesh
  // dimension, so that the region's tie, sign and order handling are all exercised.
  const Grid g = Grid::parse("grid:4x6x5:torus=110");
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> flows = {
      {{0, 0, 0}, {2, 5, 3}}, {{3, 4, 4}, {1, 0, 1}}, {{1, 2, 2}, {1, 5, 0}}};
  for (const auto& [src, dst] : flows) {
    std::vector<int> steps(3);
    std::vector<bool> tie(3);
    for (int d = 0; d < 3; ++d) {
      steps[d] = g.offset(src[d], dst[d], d);
      tie[d] = g.is_torus(d) && 2 * std::abs(steps[d]) == g.extent(d);
    }
    std::vector<std::vector<ChannelId>> paths;
    std::vector<ChannelId> path;
    walk(g, src, steps, tie, paths, path);
    Loads expected;
    for (const auto& p : paths)
      for (ChannelId c : p) expected[c] += 12.0 / static_cast<double>(paths.size());
    expect_loads(loads_of(g, "adaptive", src, dst, 12), expected);
  }
}

// Hop-by-hop adaptive routing by hand: at every node the flow's mass splits evenly over the
// productive hops (both ways along a tie, whose sign the first hop fixes).
void spread(const Grid& g, std::vector<int> at, std::vector<int> steps, std::vector<bool> tie, double mass, Loads& out) {
  std::vector<std::pair<int, int>> hops;  // (dimension, sign)
  for (int d = 0; d < g.ndims(); ++d) {
    if (steps[d] == 0) continue;
    if (tie[d]) hops.insert(hops.end(), {{d, 1}, {d, -1}});
    else hops.push_back({d, steps[d] > 0 ? 1 : -1});
  }
  for (const auto& [d, sign] : hops) {
    const double share = mass / static_cast<double>(hops.size());
    out[g.channel(g.node_at(at), d, sign > 0 ? plus : minus)] += share;
    std::vector<int> next = at, left = steps;
    std::vector<bool> fixed = tie;
    next[d] = (at[d] + sign + g.extent(d)) % g.extent(d);
    left[d] = sign * (std::abs(steps[d]) - 1);
    fixed[d] = false;
    spread(g, next, left, fixed, share, out);
  }
}

// What each routing model puts on the channels for one flow, worked out without route patterns.
Loads reference_loads(const Grid& g, std::string_view routing, const std::vector<int>& src,
                      const std::vector<int>& dst, double bytes) {
  std::vector<int> steps(g.ndims());
  std::vector<bool> tie(g.ndims());
  for (int d = 0; d < g.ndims(); ++d) {
    steps[d] = g.offset(src[d], dst[d], d);
    tie[d] = g.is_tie(src[d], dst[d], d);
  }
  Loads out;
  if (routing == "dor") {  // dimension 0 first; a tie goes plus
    std::vector<int> at = src;
    for (int d = 0; d < g.ndims(); ++d)
      for (int i = 0; i < std::abs(steps[d]); ++i) {
        const int sign = steps[d] > 0 ? 1 : -1;
        out[g.channel(g.node_at(at), d, sign > 0 ? plus : minus)] += bytes;
        at[d] = (at[d] + sign + g.extent(d)) % g.extent(d);
      }
  } else if (routing == "adaptive-hop") {
    spread(g, src, steps, tie, bytes, out);
  } else {
    std::vector<std::vector<ChannelId>> paths;
    std::vector<ChannelId> path;
    walk(g, src, steps, tie, paths, path);
    for (const auto& p : paths)
      for (ChannelId c : p) out[c] += bytes / static_cast<double>(paths.size());
  }
  return out;
}

TEST(Routing, EveryFlowOfASmallGridMatchesTheModelWorkedOutByHand) {
  // One model routes every flow, so a route pattern cached for one flow serves later ones of the
  // same offset, and those of the mirrored offset (the cache holds one pattern for both signs).
  // Extents 4 (ties), 5 (odd: negative offsets, no tie) and a mesh dimension of 3.
  const Grid g = Grid::parse("grid:4x5x3:torus=110");
  for (auto r : {"dor", "adaptive", "adaptive-hop"}) {
    const auto model = make_routing_model(g, r);
    for (NodeId a = 0; a < g.num_nodes(); ++a)
      for (NodeId b = 0; b < g.num_nodes(); ++b) {
        std::vector<double> loads(g.num_channel_slots(), 0.0);
        model->add_flow(a, b, 12, loads);
        Loads actual;
        for (ChannelId c = 0; c < g.num_channel_slots(); ++c)
          if (loads[c] != 0) actual[c] = loads[c];
        const Coords ca = g.coords_of(a), cb = g.coords_of(b);
        const std::vector<int> src(ca.begin(), ca.begin() + 3), dst(cb.begin(), cb.begin() + 3);
        SCOPED_TRACE(std::string(r) + " from node " + std::to_string(a) + " to " + std::to_string(b));
        expect_loads(actual, reference_loads(g, r, src, dst, 12));
      }
  }
}

}  // namespace
}  // namespace rankmap::topology
