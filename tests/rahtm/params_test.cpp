// rahtm's parameter table: its defaults are the real ones, values land in their fields, bad ones are named.
#include "rahtm/params.hpp"

#include <rankmap/mapping/offline.hpp>

#include <gtest/gtest.h>

namespace rankmap::rahtm {
namespace {

TEST(RahtmParams, TheTablesDefaultsAreTheDefaults) {
  RahtmParams applied;
  for (const ParamRow& row : param_rows()) {
    row.apply(applied, row.default_value);
    EXPECT_EQ(applied, RahtmParams{}) << row.name << "=" << row.default_value;
  }
  EXPECT_EQ(mapping::rahtm_parameters().size(), param_rows().size());
}

TEST(RahtmParams, ValuesLandInTheirFields) {
  const RahtmParams p = parse_rahtm_params("beam=8,milp=off,grid=16x4,cluster=metis,uneven=top,kicks=7");
  EXPECT_EQ(p.beam, 8);
  EXPECT_FALSE(p.use_milp);
  EXPECT_EQ(p.clustering.task_grid, (std::vector<int>{16, 4}));
  EXPECT_EQ(p.clustering.mode, ClusterMode::metis);
  EXPECT_EQ(p.uneven, UnevenOrder::top);
  EXPECT_EQ(p.kicks, 7);
  EXPECT_EQ(parse_rahtm_params(""), RahtmParams{});
}

TEST(RahtmParams, BadValuesAreNamed) {
  const auto message = [](std::string_view text) {
    try {
      parse_rahtm_params(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("beam=0"), "rahtm: beam=0: expected an integer from 1 to 100000");
  EXPECT_EQ(message("milp=maybe"), "rahtm: milp=maybe: expected on or off");
  EXPECT_NE(message("grid=4y4").find("rahtm: grid=4y4: "), std::string::npos);
  EXPECT_EQ(message("beam"), "rahtm: parameter 'beam' is not of the form key=value");
  EXPECT_NE(message("width=3").find("unknown parameter 'width' (known: grid, cluster,"), std::string::npos);
}

}  // namespace
}  // namespace rankmap::rahtm
