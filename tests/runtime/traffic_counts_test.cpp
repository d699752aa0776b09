// The profiler's counters: per-peer totals through table growth, phases, collectives, and threads.
#include "traffic_counts.hpp"

#include <gtest/gtest.h>

#include <map>
#include <thread>

namespace rankmap::runtime {
namespace {

std::map<int, PeerTraffic> contents(const PeerCounts& counts) {
  std::map<int, PeerTraffic> out;
  counts.for_each([&](int peer, const PeerTraffic& t) { out[peer] = t; });
  return out;
}

// 1000 peers force the table through several doublings; every peer keeps its own sums.
TEST(PeerCounts, KeepsEveryPeerThroughGrowth) {
  PeerCounts counts;
  for (int round = 1; round <= 3; ++round)
    for (int peer = 0; peer < 1000; ++peer) counts.add(peer * 7919, static_cast<std::uint64_t>(peer + round), 1);
  EXPECT_EQ(counts.size(), 1000u);
  const auto all = contents(counts);
  ASSERT_EQ(all.size(), 1000u);
  for (int peer = 0; peer < 1000; ++peer) {
    const PeerTraffic& t = all.at(peer * 7919);
    EXPECT_EQ(t.bytes, static_cast<std::uint64_t>(3 * peer + 6)) << peer;
    EXPECT_EQ(t.messages, 3u) << peer;
  }
}

TEST(PeerCounts, RepeatedPeerUsesOneEntry) {
  PeerCounts counts;
  counts.add(5, 10, 1);
  counts.add(5, 20, 1);
  counts.add(6, 1, 2);
  counts.add(5, 30, 1);
  EXPECT_EQ(counts.size(), 2u);
  const auto all = contents(counts);
  EXPECT_EQ(all.at(5).bytes, 60u);
  EXPECT_EQ(all.at(5).messages, 3u);
  EXPECT_EQ(all.at(6).messages, 2u);
}

TEST(ProcessTraffic, MergesThreadsByPhaseAndPeer) {
  ProcessTraffic traffic;
  ThreadTraffic& mine = traffic.add_thread();
  mine.add_send(1, 3, 100);
  mine.add_send(2, 3, 7);
  std::thread other([&] {
    ThreadTraffic& theirs = traffic.add_thread();
    theirs.add_send(1, 3, 11);
    theirs.add_send(1, 0, 5);
    theirs.add_collective(CollectiveOp::bcast, 8, 64);
  });
  other.join();
  mine.add_send(1, 3, 0);  // back to phase 1 after phase 2
  mine.add_collective(CollectiveOp::bcast, 8, 36);
  mine.add_collective(CollectiveOp::allreduce, 4, 16);

  const std::vector<EdgeCount> edges = traffic.edges();
  ASSERT_EQ(edges.size(), 3u);
  EXPECT_EQ(edges[0].phase, 1);
  EXPECT_EQ(edges[0].peer, 0);
  EXPECT_EQ(edges[0].traffic.bytes, 5u);
  EXPECT_EQ(edges[1].phase, 1);
  EXPECT_EQ(edges[1].peer, 3);
  EXPECT_EQ(edges[1].traffic.bytes, 111u);
  EXPECT_EQ(edges[1].traffic.messages, 3u);
  EXPECT_EQ(edges[2].phase, 2);
  EXPECT_EQ(edges[2].traffic.bytes, 7u);

  const std::vector<CollectiveCount> collectives = traffic.collectives();
  ASSERT_EQ(collectives.size(), 2u);
  EXPECT_EQ(collectives[0].op, CollectiveOp::bcast);
  EXPECT_EQ(collectives[0].calls, 2u);
  EXPECT_EQ(collectives[0].bytes, 100u);
  EXPECT_EQ(collectives[1].op, CollectiveOp::allreduce);
  EXPECT_EQ(collectives[1].comm_size, 4);
  EXPECT_EQ(collective_name(collectives[1].op), "allreduce");
}

}  // namespace
}  // namespace rankmap::runtime
