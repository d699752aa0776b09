// The rows of the mapping quality table from the algorithm registry, with budgets and caps.
#include "quality_rows.hpp"

#include <algorithm>
#include <utility>

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
    {"rahtm", 256, "rahtm ignores the time budget; without its MILPs it still took 105 s (31 s of CPU) on random at 2,000 tasks"},
};

/// Parameters some rows run with, to keep the table's run time bounded: rahtm's CBC MILPs took
/// most of the CPU time of a trial run (over 100 s per instance at 512 to 8,192 tasks on the shared
/// machine), so the table runs rahtm with its cube local search only.
struct Variant {
  std::string_view algorithm;
  std::string_view chain;
};
constexpr Variant kVariants[] = {{"rahtm", "rahtm:milp=off"}};

/// Searches that stop when their budget is spent (the others ignore it).
constexpr std::string_view kBudgeted[] = {"auto", "refine", "emahd", "dimorder-best", "grasp", "bisect"};

/// auto, the default, is measured at the runtime's budget and at the tool's (issue 16's targets).
constexpr std::pair<std::string_view, double> kAutoBudgets[] = {{"auto@runtime", 200}, {"auto@tool", 10000}};

constexpr std::string_view kTraversals[] = {"default", "t-first", "reversed", "interleaved"};

/// The algorithm names of a chain's stages, without parameters: `mahd+refine:9` -> mahd, refine.
std::vector<std::string_view> stage_names(std::string_view chain) {
  std::vector<std::string_view> names;
  for (std::string_view stage : mapping::chain_stages(chain)) names.push_back(stage.substr(0, stage.find(':')));
  return names;
}

Row make_row(std::string label, std::string chain, std::string traversal, const RowSettings& settings) {
  Row row;
  row.label = std::move(label);
  row.fixed_chain = std::move(chain);
  row.traversal = std::move(traversal);
  const std::vector<std::string_view> stages = stage_names(row.fixed_chain);
  row.budget_ms = stages.back() == "refine" ? settings.refine_budget_ms : settings.search_budget_ms;
  for (std::string_view stage : stages)
    row.budgeted |= std::find(std::begin(kBudgeted), std::end(kBudgeted), stage) != std::end(kBudgeted);
  for (const Cap& cap : kCaps)
    if (cap.algorithm == stages.front()) row.max_tasks = cap.max_tasks, row.cap_reason = std::string(cap.reason);
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
    if (name == "auto") {
      for (const auto& [label, ms] : kAutoBudgets) {
        Row row = make_row(std::string(label), name, "", settings);
        row.budget_ms = ms;
        rows.push_back(std::move(row));
      }
      continue;
    }
    std::string chain = name;
    for (const Variant& v : kVariants)
      if (v.algorithm == name) chain = std::string(v.chain);
    rows.push_back(make_row(chain, chain, "", settings));
    if (name == "refine" && mapping::find_algorithm(algorithms, "mahd"))
      rows.push_back(make_row("mahd+refine", "mahd+refine", "", settings));
  }
  return rows;
}

}  // namespace rankmap::bench
