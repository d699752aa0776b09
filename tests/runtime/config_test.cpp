// The option table: defaults, bad values named by variable, unknown variables, the agreement hash, the docs.
#include "config.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace rankmap::runtime {
namespace {

using ::testing::HasSubstr;

ConfigResult read(const std::map<std::string, std::string>& env) {
  std::vector<std::string> names;
  for (const auto& [k, v] : env) names.push_back(k);
  return read_config(
      [&](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      names);
}

// DESIGN.md §9's routing default is `adaptive`; it is now each network's own (docs/decisions.md),
// which is `adaptive` on the grids DESIGN.md describes.
TEST(Config, DefaultsAreThoseOfDesignSection9) {
  const ConfigResult r = read({});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.config.disable);
  EXPECT_EQ(r.config.algorithm, "auto");
  EXPECT_EQ(r.config.objective, mapping::Objective::mcl);
  EXPECT_EQ(r.config.routing.kind, topology::RoutingKind::standard);
  EXPECT_EQ(r.config.routing.on(topology::Network(topology::Grid::parse("torus:4x4"))).kind,
            topology::RoutingKind::adaptive);
  EXPECT_FALSE(r.config.routing_stated) << "the default routing is assumed, not stated";
  EXPECT_EQ(r.config.coords.kind, coords::CoordsSpec::Kind::automatic);
  EXPECT_EQ(r.config.time_budget_ms, 200);
  EXPECT_EQ(r.config.threads, 0) << "automatic";
  EXPECT_EQ(r.config.min_gain, 0.02);
  EXPECT_TRUE(r.config.report.empty());
  EXPECT_EQ(r.config.reorder, reorder_none);
  EXPECT_TRUE(r.config.profile_prefix.empty());
  EXPECT_EQ(r.config.profile_phases.kind, PhaseRule::Kind::steps);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Config, ReadsEveryOption) {
  const ConfigResult r = read({{"RANKMAP_DISABLE", "1"},
                               {"RANKMAP_ALGO", "identity"},
                               {"RANKMAP_OBJECTIVE", "hopbytes"},
                               {"RANKMAP_ROUTING", "dor:10"},
                               {"RANKMAP_COORDS", "emulate:torus:4x4,ppn=2"},
                               {"RANKMAP_MAPPING", "/maps"},
                               {"RANKMAP_DUMP", "/dump"},
                               {"RANKMAP_REPORT", "stderr"},
                               {"RANKMAP_TIME_BUDGET_MS", "50.5"},
                               {"RANKMAP_THREADS", "3"},
                               {"RANKMAP_MIN_GAIN", "0.1"},
                               {"RANKMAP_REORDER", "cart,graph"},
                               {"RANKMAP_PROFILE", "/prof/app"},
                               {"RANKMAP_PROFILE_PHASES", "time:2.5"}});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.config.reorder, reorder_cart | reorder_graph);
  EXPECT_EQ(r.config.profile_prefix, "/prof/app");
  EXPECT_EQ(r.config.profile_phases.kind, PhaseRule::Kind::time);
  EXPECT_EQ(r.config.profile_phases.seconds, 2.5);
  EXPECT_TRUE(r.config.disable);
  EXPECT_EQ(r.config.algorithm, "identity");
  EXPECT_EQ(r.config.objective, mapping::Objective::hop_bytes);
  EXPECT_EQ(r.config.routing.dim_order, (std::vector<int>{1, 0}));
  EXPECT_EQ(r.config.coords.ppn, 2);
  EXPECT_EQ(r.config.mapping_path, "/maps");
  EXPECT_EQ(r.config.dump_dir, "/dump");
  EXPECT_EQ(r.config.report, "stderr");
  EXPECT_EQ(r.config.time_budget_ms, 50.5);
  EXPECT_EQ(r.config.threads, 3);
  EXPECT_EQ(r.config.min_gain, 0.1);
}

TEST(Config, AStatedRoutingIsKnownAsStatedEvenWhenItIsTheDefault) {
  const ConfigResult r = read({{"RANKMAP_ROUTING", "default"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.config.routing.kind, topology::RoutingKind::standard);
  EXPECT_TRUE(r.config.routing_stated);
}

TEST(Config, BadValuesAreNamedByVariable) {
  const ConfigResult r = read({{"RANKMAP_OBJECTIVE", "speed"},
                               {"RANKMAP_MIN_GAIN", "1.5"},
                               {"RANKMAP_TIME_BUDGET_MS", "-3"},
                               {"RANKMAP_DISABLE", "maybe"},
                               {"RANKMAP_COORDS", "torus:4x4"}});
  ASSERT_EQ(r.errors.size(), 5u);
  EXPECT_EQ(r.errors[0], "RANKMAP_DISABLE: 'maybe': expected 1 or 0");
  EXPECT_EQ(r.errors[1], "RANKMAP_OBJECTIVE: objective 'speed': expected mcl or hopbytes");
  EXPECT_THAT(r.errors[2], HasSubstr("RANKMAP_COORDS: 'torus:4x4': expected auto, file:PATH"));
  EXPECT_EQ(r.errors[3], "RANKMAP_TIME_BUDGET_MS: '-3': expected milliseconds from 0 to 3600000");
  EXPECT_THAT(r.errors[4], HasSubstr("RANKMAP_MIN_GAIN: '1.5': expected a fraction"));
}

TEST(Config, ThreadsAreAutoOrAWholeCount) {
  EXPECT_EQ(read({{"RANKMAP_THREADS", "auto"}}).config.threads, 0);
  EXPECT_EQ(read({{"RANKMAP_THREADS", "256"}}).config.threads, 256);
  for (const char* bad : {"0", "2.5", "-1", "257", "many", ""}) {
    const ConfigResult r = read({{"RANKMAP_THREADS", bad}});
    ASSERT_EQ(r.errors.size(), 1u) << bad;
    EXPECT_EQ(r.errors[0], "RANKMAP_THREADS: '" + std::string(bad) + "': expected auto or a whole number from 1 to 256");
  }
}

TEST(Config, ReorderListsCallsOrAll) {
  EXPECT_EQ(read({{"RANKMAP_REORDER", "all"}}).config.reorder, reorder_all);
  EXPECT_EQ(read({{"RANKMAP_REORDER", "dist_graph"}}).config.reorder, reorder_dist_graph);
  EXPECT_EQ(read({{"RANKMAP_REORDER", "none"}}).config.reorder, reorder_none);
  EXPECT_EQ(read({{"RANKMAP_REORDER", "dist_graph,cart,graph"}}).config.reorder, reorder_all);
  const ConfigResult bad = read({{"RANKMAP_REORDER", "cart,dist-graph"}});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0],
            "RANKMAP_REORDER: 'cart,dist-graph': 'dist-graph' is not one of none, dist_graph, cart, graph, all "
            "(a comma-separated list)");
  EXPECT_EQ(reorder_setting_for(reorder_cart), "cart");
  EXPECT_EQ(reorder_setting_for(reorder_dist_graph), "dist_graph");
}

TEST(Config, ProfilePhasesArePcontrolOrTimeWindows) {
  EXPECT_EQ(read({{"RANKMAP_PROFILE_PHASES", "pcontrol"}}).config.profile_phases.kind, PhaseRule::Kind::pcontrol);
  EXPECT_EQ(read({{"RANKMAP_PROFILE_PHASES", "steps"}}).config.profile_phases.kind, PhaseRule::Kind::steps);
  EXPECT_EQ(read({{"RANKMAP_PROFILE_PHASES", "none"}}).config.profile_phases.kind, PhaseRule::Kind::none);
  for (const char* bad : {"time:0", "time:-1", "time:", "steps:3"}) {
    const ConfigResult r = read({{"RANKMAP_PROFILE_PHASES", bad}});
    ASSERT_EQ(r.errors.size(), 1u) << bad;
    EXPECT_THAT(r.errors[0], HasSubstr("RANKMAP_PROFILE_PHASES: '"));
  }
}

TEST(Config, OfflineAlgorithmsAreRefusedWithAHint) {
  const ConfigResult r = read({{"RANKMAP_ALGO", "identity+rahtm"}});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_THAT(r.errors[0], HasSubstr("RANKMAP_ALGO: 'identity+rahtm': 'rahtm' is not an algorithm of the runtime"));
  EXPECT_THAT(r.errors[0], HasSubstr("RANKMAP_MAPPING"));
}

TEST(Config, UnknownVariablesAreWarnedAbout) {
  const ConfigResult r = read({{"RANKMAP_ALOG", "mahd"}, {"RANKMAP_REPORT", "stderr"}});
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "RANKMAP_ALOG is not a rankmap variable and is ignored");
}

TEST(Config, HashChangesWithAnyValue) {
  EXPECT_EQ(read({}).hash, read({}).hash);
  EXPECT_EQ(read({}).hash, read({{"RANKMAP_OBJECTIVE", "mcl"}}).hash);  // the default, spelt out
  EXPECT_NE(read({}).hash, read({{"RANKMAP_OBJECTIVE", "hopbytes"}}).hash);
  EXPECT_NE(read({{"RANKMAP_DUMP", "a"}}).hash, read({{"RANKMAP_MAPPING", "a"}}).hash);
}

TEST(Config, EveryOptionIsDocumented) {
  std::ifstream in(RANKMAP_SOURCE_DIR "/docs/environment.md");
  ASSERT_TRUE(in) << "docs/environment.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_EQ(options().size(), 14u);
  for (const OptionInfo& option : options()) {
    EXPECT_THAT(text.str(), HasSubstr("`" + std::string(option.name) + "`"));
    EXPECT_FALSE(option.help.empty());
  }
}

}  // namespace
}  // namespace rankmap::runtime
