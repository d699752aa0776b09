// RANKMAP_PROFILE_PHASES=steps without MPI: steps and their classes, the job's phases, and each
// process's traffic split over them without losing a byte.
#include "step_phases.hpp"

#include <gtest/gtest.h>

#include <map>

namespace rankmap::runtime {
namespace {

using Edges = std::map<std::pair<int, int>, std::pair<std::uint64_t, std::uint64_t>>;  // (phase, peer) -> bytes, messages

Edges as_map(const std::vector<EdgeCount>& edges) {
  Edges out;
  for (const EdgeCount& e : edges) out[{e.phase, e.peer}] = {e.traffic.bytes, e.traffic.messages};
  return out;
}

/// The job-wide signatures of one process's recorded steps, as if it were the only process.
std::vector<std::uint64_t> alone(const StepLog& log) {
  std::vector<std::uint64_t> out;
  for (const std::uint32_t klass : log.recorded()) out.push_back(step_signature(0, log.signature(klass)));
  return out;
}

TEST(StepLog, AStepIsTheSendsBetweenTwoCompletionsAndItsClassIsItsSetOfPeers) {
  StepLog log;
  log.complete();  // nothing sent: not a step
  log.add_send(3, 10);
  log.add_send(1, 5);
  log.add_send(3, 10);
  log.complete();
  log.complete();
  log.add_send(1, 7);  // the same peers in another order and amount: the same class
  log.add_send(3, 1);
  log.complete();
  log.add_send(1, 2);  // another set of peers
  log.complete();
  EXPECT_EQ(log.steps(), 3u);
  ASSERT_EQ(log.classes(), 2u);
  EXPECT_EQ(log.recorded(), (std::vector<std::uint32_t>{0, 0, 1}));
  EXPECT_NE(log.signature(0), log.signature(1));
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> first;
  log.traffic(0).for_each([&](int peer, const PeerTraffic& t) { first[peer] = {t.bytes, t.messages}; });
  EXPECT_EQ(first, (std::map<int, std::pair<std::uint64_t, std::uint64_t>>{{1, {12, 2}}, {3, {21, 3}}}));
}

TEST(StepPhases, NumbersPhasesByFirstAppearanceAndFoldsTheRestIntoTheLargest) {
  const std::vector<std::uint64_t> cycle{7, 8, 9, 7, 8, 9, 7};
  const StepPhases all = phases_of_steps(cycle, 64);
  EXPECT_EQ(all.phase, (std::vector<int>{1, 2, 3, 1, 2, 3, 1}));
  EXPECT_EQ(all.phases, 3);
  EXPECT_EQ(all.largest, 1);
  const std::vector<std::uint64_t> drifting{5, 6, 6, 9, 10};
  const StepPhases capped = phases_of_steps(drifting, 2);
  EXPECT_EQ(capped.phase, (std::vector<int>{1, 2, 2, 2, 2}));
  EXPECT_EQ(capped.phases, 2);
  EXPECT_EQ(capped.largest, 2);
  const StepPhases none = phases_of_steps({}, 64);
  EXPECT_TRUE(none.phase.empty());
  EXPECT_EQ(none.phases, 1);
}

TEST(StepPhases, ProcessesTogetherDecideAStepsPhase) {
  // Process 0 sends to 1 in every step; process 1 alternates between two peers. The job's steps
  // alternate, so process 0's single class is split over both phases.
  const std::uint64_t a = 11, b = 12, c = 13;
  const std::vector<std::uint64_t> job{step_signature(0, a) + step_signature(1, b),
                                       step_signature(0, a) + step_signature(1, c),
                                       step_signature(0, a) + step_signature(1, b)};
  const StepPhases phases = phases_of_steps(job, 64);
  EXPECT_EQ(phases.phase, (std::vector<int>{1, 2, 1}));
}

TEST(StepPhases, ARingsStepsToTheRightAndToTheLeftAreTwoPhases) {
  // The same pairs of processes, in opposite directions: a sweep forward, then back.
  const int p = 4;
  std::vector<std::uint64_t> job(2, 0);
  for (int rank = 0; rank < p; ++rank)
    for (int direction = 0; direction < 2; ++direction) {
      StepLog log;
      log.add_send(direction == 0 ? (rank + 1) % p : (rank + p - 1) % p, 8);
      log.complete();
      job[static_cast<std::size_t>(direction)] += step_signature(rank, log.signature(0));
    }
  EXPECT_NE(job[0], job[1]);
  EXPECT_EQ(phases_of_steps(job, 64).phases, 2);
}

TEST(PhasedEdges, SplitsEachClassOverItsPhasesWithoutLosingAByte) {
  StepLog log;
  for (const std::uint64_t bytes : {10u, 11u, 4u}) {
    log.add_send(1, bytes);
    log.complete();
  }
  // The job's steps 1 and 3 are phase 1 (another process does the same in both), step 2 phase 2.
  StepPhases phases;
  phases.phase = {1, 2, 1};
  phases.phases = 2;
  const Edges edges = as_map(phased_edges(log, phases));
  // 25 bytes, 3 messages: 2/3 to phase 1 (16 and 2, plus the remainders 1 and 0), 1/3 to phase 2.
  EXPECT_EQ(edges, (Edges{{{1, 1}, {17, 2}}, {{2, 1}, {8, 1}}}));
}

TEST(PhasedEdges, OneProcessAloneGetsAPhasePerDistinctStep) {
  StepLog log;
  for (int round = 0; round < 2; ++round)
    for (int peer : {4, 5, 6}) {
      log.add_send(peer, 100);
      log.complete();
    }
  const StepPhases phases = phases_of_steps(alone(log), 64);
  EXPECT_EQ(phases.phases, 3);
  EXPECT_EQ(as_map(phased_edges(log, phases)), (Edges{{{1, 4}, {200, 2}}, {{2, 5}, {200, 2}}, {{3, 6}, {200, 2}}}));
}

TEST(PhasedEdges, AClassFirstSeenAfterTheRecordedStepsGoesToTheLargestPhase) {
  StepLog log;
  for (std::size_t k = 0; k < StepLog::kRecordedSteps; ++k) {
    log.add_send(static_cast<int>(k % 2), 1);
    log.complete();
  }
  log.add_send(9, 50);
  log.complete();
  EXPECT_EQ(log.steps(), StepLog::kRecordedSteps + 1);
  EXPECT_EQ(log.recorded().size(), StepLog::kRecordedSteps);
  const StepPhases phases = phases_of_steps(alone(log), 64);
  ASSERT_EQ(phases.phases, 2);
  const std::uint64_t half = StepLog::kRecordedSteps / 2;
  EXPECT_EQ(as_map(phased_edges(log, phases)),
            (Edges{{{1, 0}, {half, half}}, {{2, 1}, {half, half}}, {{1, 9}, {50, 1}}}));
}

}  // namespace
}  // namespace rankmap::runtime
