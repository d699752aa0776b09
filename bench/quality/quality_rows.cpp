// The rows of the mapping quality table from the algorithm registry, with budgets and caps.
#include "quality_rows.hpp"

#include <algorithm>

namespace rankmap::bench {

namespace {

/// Algorithms that ignore the time budget and grow too slow beyond some size get a cap:
/// instances with more tasks are skipped, and the table says why.
struct Cap {
  std::string_view algorithm;
  TaskId max_tasks;
  std::string_view reason;
};
constexpr Cap kCaps[] = {
    {"rahtm", 16384, "rahtm ignores the time budget (deterministic effort limits)"},
};

constexpr std::string_view kTraversals[] = {"default", "t-first", "reversed", "interleaved"};

Row make_row(std::string label, std::string chain, std::string traversal, const RowSettings& settings) {
  Row row;
  row.label = std::move(label);
  row.fixed_chain = std::move(chain);
  row.traversal = std::move(traversal);
  const bool refines = row.fixed_chain.ends_with("refine");
  row.budget_ms = refines ? settings.refine_budget_ms : settings.search_budget_ms;
  const std::string_view first_stage = std::string_view(row.fixed_chain).substr(0, row.fixed_chain.find_first_of(":+"));
  for (const Cap& cap : kCaps)
    if (cap.algorithm == first_stage) row.max_tasks = cap.max_tasks, row.cap_reason = std::string(cap.reason);
  return row;
}

}  // namespace

std::string dimension_order(std::string_view traversal, int ndims) {
  std::string letters;
  for (int d = 0; d < ndims; ++d) letters += static_cast<char>('A' + d);
  if (traversal == "t-first") return "T" + letters;
  if (traversal == "reversed") return std::string(letters.rbegin(), letters.rend()) + "T";
  if (traversal == "interleaved") {
    std::string order;
    for (int start : {0, 1})
      for (int d = start; d < ndims; d += 2) order += letters[d];
    return order + "T";
  }
  return letters + "T";
}

std::string Row::chain(int ndims) const {
  return traversal.empty() ? fixed_chain : "dimorder:" + dimension_order(traversal, ndims);
}

std::vector<Row> quality_rows(std::span<const mapping::AlgorithmInfo> algorithms, const RowSettings& settings) {
  std::vector<Row> rows;
  for (const mapping::AlgorithmInfo& info : algorithms) {
    const std::string name(info.name);
    if (name == "dimorder") {
      for (std::string_view t : kTraversals)
        rows.push_back(make_row("dimorder:" + dimension_order(t, 3) + "/" + dimension_order(t, 5), name,
                                std::string(t), settings));
      continue;
    }
    rows.push_back(make_row(name, name, "", settings));
    if (name == "refine" && mapping::find_algorithm(algorithms, "mahd"))
      rows.push_back(make_row("mahd+refine", "mahd+refine", "", settings));
  }
  return rows;
}

}  // namespace rankmap::bench
