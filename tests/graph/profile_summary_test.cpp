// The phase_rule of a profile summary: what `rankmap place` decides from, and clear errors.
#include <rankmap/graph/profile_summary.hpp>
#include <rankmap/types.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace rankmap::graph {
namespace {

using ::testing::HasSubstr;

PhaseOrigin parse(const std::string& text) {
  std::istringstream in(text);
  return parse_phase_origin(in, "app.summary");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ProfileSummary, ReadsThePhaseRuleAmongTheOtherLines) {
  EXPECT_EQ(parse("# rankmap traffic profile\nprocesses 4\nphases 3\nphase_rule steps\nedges 2\n"),
            PhaseOrigin::steps);
  EXPECT_EQ(parse("phase_rule pcontrol"), PhaseOrigin::pcontrol);
  EXPECT_EQ(parse("phase_rule time\r\n"), PhaseOrigin::time);
  EXPECT_EQ(parse("phase_rule none\n"), PhaseOrigin::none);
}

TEST(ProfileSummary, AnOlderSummaryWithoutItIsUnstated) {
  EXPECT_EQ(parse("processes 4\nphases 2\nedges 2\n"), PhaseOrigin::unstated);
  EXPECT_EQ(parse(""), PhaseOrigin::unstated);
}

TEST(ProfileSummary, OnlyPhasesThatTheProgramMarkedOrThatWereUnstatedAreTheObjective) {
  EXPECT_TRUE(phases_are_objective(PhaseOrigin::pcontrol));
  EXPECT_TRUE(phases_are_objective(PhaseOrigin::unstated));
  EXPECT_FALSE(phases_are_objective(PhaseOrigin::steps));
  EXPECT_FALSE(phases_are_objective(PhaseOrigin::time));
}

TEST(ProfileSummary, BadValuesAreNamedWithTheirLine) {
  EXPECT_THAT(error_of("processes 4\nphase_rule sometimes\n"),
              HasSubstr("app.summary:2: phase_rule 'sometimes': expected none, pcontrol, time or steps"));
  EXPECT_THAT(error_of("phase_rule\n"), HasSubstr("app.summary:1: phase_rule '': expected"));
  EXPECT_THAT(error_of("phase_rule steps extra\n"), HasSubstr("app.summary:1:"));
  EXPECT_THAT(error_of("phase_rule steps\nphase_rule pcontrol\n"), HasSubstr("app.summary:2: a second phase_rule line"));
}

TEST(ProfileSummary, AMissingFileIsNamed) {
  try {
    read_phase_origin("/nonexistent/app.summary");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/app.summary"));
  }
}

}  // namespace
}  // namespace rankmap::graph
