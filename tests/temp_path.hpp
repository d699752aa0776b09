// A scratch path of the running test's own: CTest runs each test case as its own process, in parallel.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <unistd.h>

namespace rankmap::testing {

/// `stem` in GoogleTest's temporary directory, made unique by the running test's suite, name and
/// process, so that test cases running at once never share (or remove) each other's files.
inline std::string unique_temp_path(std::string_view stem) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = ::testing::TempDir() + "/" + std::string(stem);
  if (test) path += std::string("_") + test->test_suite_name() + "." + test->name();
  return path + "_" + std::to_string(::getpid());
}

}  // namespace rankmap::testing
