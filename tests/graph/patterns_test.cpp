// The generated communication patterns of `rankmap gen`, checked against their definitions.
#include <rankmap/graph/patterns.hpp>

#include "input_errors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace rankmap::graph {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

CommGraph make(const std::string& name, TaskId ranks, std::vector<int> dims = {}, bool periodic = false,
               double bytes = 1) {
  PatternSpec spec;
  spec.name = name;
  spec.ranks = ranks;
  spec.dims = std::move(dims);
  spec.periodic = periodic;
  spec.bytes = bytes;
  return make_pattern(spec);
}

std::string error_of(const PatternSpec& spec) {
  return testing::input_error_of([&] { make_pattern(spec); });
}

std::set<TaskId> out_set(const CommGraph& g, TaskId t) {
  const auto n = g.out_neighbors(t);
  return {n.begin(), n.end()};
}

TEST(Patterns, NamesAreTheIssuesList) {
  std::vector<std::string> names(pattern_names().begin(), pattern_names().end());
  EXPECT_THAT(names, ElementsAre("stencil2d", "stencil3d", "stencil27", "ring", "recdoubling", "binomial", "bruck",
                                 "alltoall", "fft2d", "nas-cg", "nas-bt", "nas-sp", "random"));
  for (std::string_view n : pattern_names()) EXPECT_GT(make(std::string(n), 16).num_tasks(), 0) << n;
}

TEST(Patterns, BalancedDims) {
  EXPECT_THAT(balanced_dims(12, 2), ElementsAre(4, 3));
  EXPECT_THAT(balanced_dims(32, 2), ElementsAre(8, 4));
  EXPECT_THAT(balanced_dims(16, 3), ElementsAre(4, 2, 2));
  EXPECT_THAT(balanced_dims(36, 3), ElementsAre(4, 3, 3));
  EXPECT_THAT(balanced_dims(16384, 3), ElementsAre(32, 32, 16));
  EXPECT_THAT(balanced_dims(7, 2), ElementsAre(7, 1));
  EXPECT_THAT(balanced_dims(1, 3), ElementsAre(1, 1, 1));
}

TEST(Patterns, Stencil2d) {
  // 3x4 open grid: 3 rows of 3 horizontal links and 4 columns of 2 vertical links, both ways: 2 * 17.
  const auto open = make("stencil2d", 0, {3, 4});
  EXPECT_EQ(open.num_tasks(), 12);
  EXPECT_EQ(open.num_edges(), 34);
  EXPECT_EQ(out_set(open, 5), (std::set<TaskId>{1, 4, 6, 9}));
  // Periodic 3x4: four distinct neighbours each.
  EXPECT_EQ(make("stencil2d", 0, {3, 4}, true).num_edges(), 48);
  // Periodic 2x4: the up and down neighbours coincide, so three partners, one of them twice the bytes.
  const auto narrow = make("stencil2d", 0, {2, 4}, true, 10);
  EXPECT_EQ(narrow.num_edges(), 24);
  EXPECT_DOUBLE_EQ(narrow.total_weight(), 8 * 4 * 10);
  // Only ranks: 12 -> 4x3.
  EXPECT_EQ(make("stencil2d", 12).num_edges(), 2 * (4 * 2 + 3 * 3));
}

TEST(Patterns, Stencil3dAnd27) {
  EXPECT_EQ(make("stencil3d", 0, {2, 2, 2}).num_edges(), 24);  // a cube: three neighbours each
  EXPECT_EQ(make("stencil3d", 0, {3, 3, 3}, true).num_edges(), 27 * 6);
  // Open 3x3x3, 27-point: per dimension 7 ordered pairs (a, b) with |a - b| <= 1, so 7^3 minus the 27 self pairs.
  EXPECT_EQ(make("stencil27", 0, {3, 3, 3}).num_edges(), 343 - 27);
  EXPECT_EQ(make("stencil27", 0, {4, 4, 4}, true).num_edges(), 64 * 26);
  // Centre of an open 3x3x3 talks to everyone else.
  EXPECT_EQ(make("stencil27", 27).out_degree(13), 26);
}

TEST(Patterns, Collectives) {
  EXPECT_EQ(make("ring", 5).num_edges(), 10);
  const auto ring2 = make("ring", 2, {}, false, 3);
  EXPECT_EQ(ring2.num_edges(), 2);
  EXPECT_DOUBLE_EQ(ring2.out_weights(0)[0], 6.0);

  EXPECT_EQ(make("recdoubling", 8).num_edges(), 24);  // 3 rounds, everyone both ways
  // 6 ranks: 4 and 5 fold onto 0 and 1 (4 edges), then 4 ranks x 2 rounds.
  const auto rd6 = make("recdoubling", 6);
  EXPECT_EQ(rd6.num_edges(), 12);
  EXPECT_EQ(out_set(rd6, 5), (std::set<TaskId>{1}));
  EXPECT_EQ(out_set(rd6, 1), (std::set<TaskId>{0, 3, 5}));

  const auto tree = make("binomial", 6);
  EXPECT_EQ(tree.num_edges(), 5);
  EXPECT_EQ(out_set(tree, 0), (std::set<TaskId>{1, 2, 4}));
  EXPECT_EQ(out_set(tree, 1), (std::set<TaskId>{3, 5}));

  const auto b5 = make("bruck", 5);
  EXPECT_EQ(b5.num_edges(), 15);
  EXPECT_EQ(out_set(b5, 3), (std::set<TaskId>{4, 0, 2}));

  EXPECT_EQ(make("alltoall", 4).num_edges(), 12);
}

TEST(Patterns, Fft2dTalksWithinRowsAndColumns) {
  const auto g = make("fft2d", 0, {2, 3});
  EXPECT_EQ(g.num_edges(), 6 * 3);
  EXPECT_EQ(out_set(g, 4), (std::set<TaskId>{3, 5, 1}));
}

TEST(Patterns, NasCgSquareGrid) {
  // 16 ranks: 4x4. Rank 6 (row 1, col 2): row partners col 0 and col 3, transpose (6%4)*4 + 6/4 = 9.
  const auto g = make("nas-cg", 16);
  EXPECT_EQ(out_set(g, 6), (std::set<TaskId>{4, 7, 9}));
  EXPECT_EQ(out_set(g, 9), (std::set<TaskId>{11, 8, 6}));
  // Diagonal ranks are their own transpose: 16 * 2 row edges + 12 transpose edges.
  EXPECT_EQ(g.num_edges(), 44);
}

TEST(Patterns, NasCgRectangularGrid) {
  // 8 ranks: 2 rows x 4 cols; transpose partners 2*((me/2 % 2)*2 + me/2/2) + me%2 pair 2<->4 and 3<->5.
  const auto g = make("nas-cg", 8);
  EXPECT_EQ(out_set(g, 2), (std::set<TaskId>{0, 3, 4}));
  EXPECT_EQ(out_set(g, 5), (std::set<TaskId>{7, 4, 3}));
  EXPECT_EQ(out_set(g, 6), (std::set<TaskId>{4, 7}));
  EXPECT_EQ(g.num_edges(), 8 * 2 + 4);
}

TEST(Patterns, NasBtAndSpMultiPartition) {
  // q = 3. Rank 0 = (i 0, j 0): successors (1,0)=1, (0,1)=3, (2,1)=5; predecessors (2,0)=2, (0,2)=6, (1,2)=7.
  const auto bt = make("nas-bt", 9);
  EXPECT_EQ(out_set(bt, 0), (std::set<TaskId>{1, 3, 5, 2, 6, 7}));
  EXPECT_EQ(bt.num_edges(), 54);
  // BT: successors get 1 + 30/10 = 4 units, predecessors 1 + 5/10 = 1.5; per rank 3 * (4 + 1.5).
  EXPECT_DOUBLE_EQ(bt.total_weight(), 9 * 3 * 5.5);
  // SP: 1 + 22/10 and 1 + 10/10.
  EXPECT_DOUBLE_EQ(make("nas-sp", 9).total_weight(), 9 * 3 * (3.2 + 2.0));
  // q = 2: successor and predecessor coincide in every direction.
  const auto small = make("nas-bt", 4);
  EXPECT_EQ(small.num_edges(), 12);
  EXPECT_DOUBLE_EQ(small.out_weights(0)[0], 5.5);
}

TEST(Patterns, RandomIsSeededAndSparse) {
  PatternSpec spec{"random", {}, 100, 2, false, 42};
  const auto a = make_pattern(spec);
  EXPECT_EQ(a.num_edges(), 600);
  for (TaskId t = 0; t < 100; ++t) EXPECT_EQ(out_set(a, t).count(t), 0u);
  EXPECT_EQ(make_pattern(spec).canonical_hash(), a.canonical_hash());
  spec.seed = 43;
  EXPECT_NE(make_pattern(spec).canonical_hash(), a.canonical_hash());
  EXPECT_EQ(make("random", 3).num_edges(), 6);  // only two others to pick
}

TEST(Patterns, DimsAndRanksTogetherMustAgree) {
  EXPECT_EQ(make("stencil2d", 12, {3, 4}).num_tasks(), 12);
  EXPECT_EQ(make("ring", 0, {2, 3}).num_tasks(), 6);
}

TEST(Patterns, ImpossibleCombinationsAreRefused) {
  EXPECT_THAT(error_of({"nosuch", {}, 4}), HasSubstr("unknown pattern 'nosuch'; known patterns: stencil2d"));
  EXPECT_THAT(error_of({"ring", {}, 0}), HasSubstr("pattern ring: give the number of ranks or the process-grid dims"));
  EXPECT_THAT(error_of({"ring", {}, -3}), HasSubstr("must be positive"));
  EXPECT_THAT(error_of({"nas-bt", {}, 8}), HasSubstr("pattern nas-bt: the multi-partition scheme needs a square number"));
  EXPECT_THAT(error_of({"nas-sp", {2, 3}, 0}), HasSubstr("needs a square process grid, not 2x3"));
  EXPECT_THAT(error_of({"nas-cg", {}, 12}), HasSubstr("pattern nas-cg: NPB CG runs on a power-of-two number of ranks"));
  EXPECT_THAT(error_of({"nas-cg", {3, 4}, 0}), HasSubstr("cols a power of two equal to rows or 2 * rows"));
  EXPECT_THAT(error_of({"stencil2d", {2, 2, 2}, 0}), HasSubstr("pattern stencil2d: needs 2 dims, not 2x2x2"));
  EXPECT_THAT(error_of({"stencil3d", {2, 0, 2}, 0}), HasSubstr("must all be at least 1"));
  EXPECT_THAT(error_of({"stencil2d", {3, 4}, 10}), HasSubstr("dims 3x4 give 12 ranks, not 10"));
  EXPECT_THAT(error_of({"ring", {}, 4, 0}), HasSubstr("bytes per message must be a positive number"));
  EXPECT_THAT(error_of({"ring", {}, 4, 1, true}), HasSubstr("periodic applies to the stencil patterns only"));
  EXPECT_THAT(error_of({"alltoall", {}, 20000}), HasSubstr("more than the 134217728 supported"));
  EXPECT_THAT(error_of({"stencil2d", {65536, 65536}, 0}), HasSubstr("give more than 2^31 ranks"));
}

}  // namespace
}  // namespace rankmap::graph
