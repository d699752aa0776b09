// The MPI-free pieces of the reorder protocol: failure keys and notes, the verdict's bytes, the
// consistency check of adjacent lists, the packed lists, and failed records in placements.
#include "graph_gather.hpp"
#include "placement.hpp"
#include "requests.hpp"
#include "step_guard.hpp"
#include "verdict.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace rankmap::runtime {
namespace {

TEST(Protocol, FailureKeysOrderByStepThenRank) {
  const long long early_high = encode_failure(StepFailure{Step::pack_edges, 9});
  const long long late_low = encode_failure(StepFailure{Step::pack_lists, 0});
  const long long early_low = encode_failure(StepFailure{Step::pack_edges, 2});
  // MPI_MIN over the processes keeps the earliest step, then the lowest rank at that step.
  EXPECT_EQ(std::min({early_high, late_low, early_low}), early_low);
  EXPECT_LT(early_low, encode_failure(std::nullopt));
  const auto back = decode_failure(early_high);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->step, Step::pack_edges);
  EXPECT_EQ(back->rank, 9);
  EXPECT_FALSE(decode_failure(encode_failure(std::nullopt)));
}

TEST(Protocol, EveryStepHasItsOwnName) {
  std::vector<std::string> names;
  for (int s = 0; s < static_cast<int>(Step::count); ++s) names.push_back(step_name(static_cast<Step>(s)));
  EXPECT_EQ(names.front(), "prepare");
  EXPECT_EQ(names.back(), "report");
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

TEST(Protocol, NotesNameTheRankAndTheStep) {
  EXPECT_EQ(describe({Step::exchange_lists, 3}), "rank 3 failed at step exchange_lists");
  EXPECT_EQ(describe({Step::graph_size, 0}), "the graph has more than 2^31 entries");
}

TEST(Protocol, VerdictRoundTripCarriesThePermutation) {
  Decision d;
  d.applied = true;
  d.algorithm = "auto(mahd+refine)";
  d.objective = "mcl";
  d.note = std::string(400, 'x');  // longer than the field: cut, and still terminated
  d.before = 8;
  d.after = 2;
  d.seconds = 0.25;
  const std::vector<SlotId> slot_of = {2, 0, 3, 1};
  std::vector<char> bytes(verdict_bytes(4));
  write_verdict(verdict_of(d), slot_of, bytes);
  std::vector<SlotId> read(4, -1);
  const Verdict v = read_verdict(bytes, read);
  EXPECT_EQ(v.status, Verdict::decided);
  EXPECT_EQ(read, slot_of);
  const Decision back = decision_of(v);
  EXPECT_TRUE(back.applied);
  EXPECT_EQ(back.algorithm, d.algorithm);
  EXPECT_EQ(back.objective, "mcl");
  EXPECT_EQ(back.note, std::string(255, 'x'));
  EXPECT_EQ(back.before, 8);
  EXPECT_EQ(back.after, 2);
  EXPECT_EQ(back.seconds, 0.25);
}

TEST(Protocol, AnAppliedVerdictWithoutItsPermutationIsAFailure) {
  Decision d;
  d.applied = true;
  std::vector<char> bytes(verdict_bytes(4));
  write_verdict(verdict_of(d), std::vector<SlotId>{0, 1}, bytes);
  std::vector<SlotId> read(4, -1);
  EXPECT_EQ(read_verdict(bytes, read).status, Verdict::failed);
}

TEST(Protocol, AdjacentListsMustDeclareEveryEdgeAtBothEnds) {
  // Rank 0 sends to 1, and 1 declares 0 as a source: consistent.
  EXPECT_EQ(inconsistent_edge({0, 1, 5, 0, 1, kInEdge}), "");
  EXPECT_EQ(inconsistent_edge({0, 1, 5}), "edge 0->1 is a destination of rank 0 but not a source of rank 1");
  EXPECT_EQ(inconsistent_edge({2, 1, kInEdge}), "edge 2->1 is a source of rank 1 but not a destination of rank 2");
}

TEST(Protocol, PackedListsAreValidatedBeforeUse) {
  const int sources[] = {3, 1}, weights[] = {7, 8}, destinations[] = {2};
  const AdjacentRequest req(MPI_COMM_NULL, 2, sources, weights, 1, destinations, MPI_UNWEIGHTED, MPI_INFO_NULL);
  std::vector<int> packed = req.pack_lists();
  // Degrees, weight kinds, the sources and their weights, the destination (unweighted).
  EXPECT_EQ(packed.size(), 4u + 2 + 2 + 1);
  EXPECT_TRUE(req.lists_valid(packed));
  packed.pop_back();
  EXPECT_FALSE(req.lists_valid(packed));
  EXPECT_FALSE(req.lists_valid({}));
  EXPECT_FALSE(req.lists_valid({-1, 0, 0, 0}));
}

TEST(Protocol, AFailedRecordIsAFailureOfThatRank) {
  coords::Location where;
  where.node_key = 1;
  std::vector<ProcessRecord> records(3, make_record(where, true, 42));
  records[2].status = record_failed;
  EXPECT_EQ(first_failing_record(records), 2);
  const PlacementResult r = placement_from_records(records, std::nullopt);
  EXPECT_FALSE(r.placement);
  EXPECT_EQ(r.failing_rank, 2);
  EXPECT_EQ(r.failure, "rank 2 failed at step placement");
}

TEST(Protocol, SettingsThatDifferNameNoFailingRank) {
  coords::Location where;
  std::vector<ProcessRecord> records(2, make_record(where, true, 42));
  records[1].config_hash = 43;
  records[1].status = record_provider_error;
  EXPECT_EQ(first_failing_record(records), -1);
  EXPECT_EQ(placement_from_records(records, std::nullopt).failing_rank, -1);
}

}  // namespace
}  // namespace rankmap::runtime
