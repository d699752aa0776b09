// The mapping quality table of issue 3: every algorithm on every instance, checked and measured, as CSV.
//
//   quality_table [--set table|quick|training] [--quick] [--data-dir DIR] [--out FILE] [--workers N]
//                 [--refine-budget-ms B] [--search-budget-ms B] [--seed S]
//                 [--filter TEXT] [--family NAME] [--rows LABEL,...] [--time-limit-min M]
//
// Writes one CSV line per (instance, row): MCL under adaptive and dor routing, hop-bytes, and
// the mapping's wall and CPU time, and for a portfolio (auto) the member it kept, in the reason
// column, and its account of every start and refusal, in the detail column (the quality of a miss
// is read from it, not from a patched build). bench/run_quality_table.sh turns it into BENCHMARKS.md.
// Exits 1, after writing everything, if any algorithm failed or returned something that is
// not a permutation of the instance's slots.
#include "quality_instances.hpp"
#include "quality_rows.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/hop_bytes.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

namespace {

using namespace rankmap;
using bench::Instance;
using bench::Row;

/// The quick subset is a smoke test of the driver and of every algorithm's validity, so its
/// searches get short budgets unless told otherwise.
constexpr double kQuickRefineBudgetMs = 200;
constexpr double kQuickSearchBudgetMs = 500;

/// One cell of the table.
struct Result {
  int instance = 0;
  std::size_t row = 0;
  std::string chain;
  std::string status;  ///< ok, skipped, failed
  std::string reason;
  std::string detail;  ///< a portfolio's account of its starts and refusals (Choice::detail)
  std::int64_t edges = 0;
  double mcl_adaptive = 0, mcl_dor = 0, hop_bytes = 0;
  double wall_ms = 0, cpu_ms = 0;
};

Result cell(const Instance& instance, std::size_t row_index, const Row& row, std::string status, std::string reason) {
  Result r;
  r.instance = instance.id;
  r.row = row_index;
  r.chain = row.chain(instance.allocation->alloc.grid().ndims());
  r.status = std::move(status);
  r.reason = std::move(reason);
  return r;
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

/// What one worker needs to measure mappings of one instance.
struct Evaluator {
  const graph::CommGraph& graph;
  const topology::Allocation& alloc;
  std::unique_ptr<topology::RoutingModel> adaptive = topology::make_routing_model(alloc.grid(), "adaptive");
  std::unique_ptr<topology::RoutingModel> dor = topology::make_routing_model(alloc.grid(), "dor");

  void measure(const mapping::Mapping& m, Result& r) const {
    const std::vector<metrics::NodeFlow> flows = metrics::node_flows(graph, alloc, m);
    r.mcl_adaptive = metrics::max_channel_load(metrics::channel_loads(flows, *adaptive));
    r.mcl_dor = metrics::max_channel_load(metrics::channel_loads(flows, *dor));
    r.hop_bytes = metrics::hop_bytes(graph, alloc, m);
  }
};

/// Runs one row on one instance. An exception or a result that is not a permutation of the
/// slots is a failure, reported with its reason; never silently dropped.
Result run_cell(const Instance& instance, std::size_t row_index, const Row& row, const Evaluator& eval,
                const bench::RowSettings& settings) {
  Result r = cell(instance, row_index, row, "ok", "");
  if (row.max_tasks > 0 && instance.tasks > row.max_tasks) {
    r.status = "skipped";
    r.reason = row.cap_reason + "; capped at " + std::to_string(row.max_tasks) + " tasks";
    return r;
  }
  mapping::MapOptions options;
  options.time_budget_ms = row.budget_ms;
  options.seed = settings.seed;
  options.threads = settings.threads;
  mapping::Choice choice;
  options.choice = &choice;
  try {
    const auto wall_start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_ms();
    const mapping::Mapping m = mapping::run_chain(r.chain, mapping::all_algorithms(), eval.graph, eval.alloc, options);
    r.cpu_ms = thread_cpu_ms() - cpu_start;
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
    if (static_cast<TaskId>(m.size()) != instance.tasks || !mapping::is_permutation(m))
      throw std::logic_error("returned " + std::to_string(m.size()) + " entries that are not a permutation of the " +
                             std::to_string(instance.tasks) + " slots");
    eval.measure(m, r);
    r.reason = choice.chosen;  // what a portfolio such as auto kept
    r.detail = choice.detail;
  } catch (const std::exception& e) {
    r.status = "failed";
    r.reason = e.what();
  }
  return r;
}

std::vector<Result> run_instance(const Instance& instance, const std::vector<Row>& rows,
                                 const bench::RowSettings& settings) {
  std::vector<Result> out;
  if (!instance.skip_reason.empty()) {
    for (std::size_t k = 0; k < rows.size(); ++k)
      out.push_back(cell(instance, k, rows[k], "skipped", instance.skip_reason));
    return out;
  }
  const graph::CommGraph graph = bench::instance_graph(instance);
  const topology::Allocation alloc = bench::instance_allocation(instance);
  const Evaluator eval{graph, alloc};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    out.push_back(run_cell(instance, k, rows[k], eval, settings));
    out.back().edges = graph.num_edges();
  }
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string_view mode_name(bench::InstanceSet set) {
  switch (set) {
    case bench::InstanceSet::quick: return "quick";
    case bench::InstanceSet::training: return "training";
    case bench::InstanceSet::table: break;
  }
  return "full";
}

void write_csv(std::ostream& out, const std::vector<Instance>& instances, const std::vector<Row>& rows,
               const std::vector<Result>& results, const bench::RowSettings& settings, bench::InstanceSet set) {
  out << "# mode=" << mode_name(set) << " refine_budget_ms=" << settings.refine_budget_ms
      << " search_budget_ms=" << settings.search_budget_ms << " seed=" << settings.seed
      << " threads=" << settings.threads << " fragmented_grid=" << bench::kFragmentedGrid << "\n";
  out << "instance,pattern,pattern_family,allocation,allocation_family,grid,ppn,slots,tasks,edges,row,"
         "budget_ms,chain,status,reason,mcl_adaptive,mcl_dor,hop_bytes,wall_ms,cpu_ms,detail\n";
  out << std::setprecision(10);
  for (const Result& r : results) {
    const Instance& i = instances[r.instance];
    const Row& row = rows[r.row];
    out << i.id << ',' << i.pattern << ',' << i.pattern_family << ',' << csv_field(i.allocation->label) << ','
        << i.allocation->family << ',' << i.allocation->alloc.grid().to_string() << ',' << i.allocation->ppn << ','
        << i.allocation->alloc.num_slots() << ',' << i.tasks << ',' << r.edges << ',' << csv_field(row.label) << ','
        << (row.budgeted ? row.budget_ms : 0.0) << ',' << csv_field(r.chain) << ',' << r.status << ','
        << csv_field(r.reason) << ',' << r.mcl_adaptive << ',' << r.mcl_dor << ',' << r.hop_bytes << ',' << r.wall_ms
        << ',' << r.cpu_ms << ',' << csv_field(r.detail) << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Mapping quality table (issue 3): every algorithm on every instance, as CSV."};
  bool quick = false;
  std::string set_name = "table";
  std::string data_dir = RANKMAP_BENCH_DATA_DIR;
  std::string out_path = "quality_table.csv";
  int workers = 2;
  bench::RowSettings settings;
  app.add_option("--set", set_name,
                 "instances: table (reported), quick (a smoke test) or training (what auto is tuned on)");
  app.add_flag("--quick", quick, "the same as --set quick");
  app.add_option("--data-dir", data_dir, "where the real graphs are (bench/data)");
  app.add_option("--out", out_path, "CSV file to write");
  app.add_option("--workers", workers, "instances mapped at once (each mapping is single-threaded)")
      ->check(CLI::Range(1, 64));
  app.add_option("--refine-budget-ms", settings.refine_budget_ms, "time budget of refine and mahd+refine")
      ->check(CLI::PositiveNumber);
  app.add_option("--search-budget-ms", settings.search_budget_ms, "time budget of the other searches")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", settings.seed, "seed of every randomised algorithm");
  app.add_option("--threads", settings.threads,
                 "threads of each mapping, for the rows that use them (auto, emahd, grasp, rahtm); 1 by default")
      ->check(CLI::Range(1, 64));
  std::string filter;
  app.add_option("--filter", filter, "only the instances whose '<pattern> on <allocation>' contains TEXT");
  std::string family;
  app.add_option("--family", family, "only the instances of this pattern family (e.g. real)");
  std::vector<std::string> row_labels;
  app.add_option("--rows", row_labels, "only these rows (labels as in the table, e.g. identity,mahd+refine)")
      ->delimiter(',');
  double time_limit_min = 0;
  app.add_option("--time-limit-min", time_limit_min,
                 "instances not started after this many minutes are listed as skipped (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  bench::InstanceSet set;
  try {
    set = quick ? bench::InstanceSet::quick : bench::parse_instance_set(set_name);
  } catch (const InputError& e) {
    std::cerr << "quality_table: " << e.what() << "\n";
    return 2;
  }
  quick = set == bench::InstanceSet::quick;
  if (quick) {
    if (app.count("--refine-budget-ms") == 0) settings.refine_budget_ms = kQuickRefineBudgetMs;
    if (app.count("--search-budget-ms") == 0) settings.search_budget_ms = kQuickSearchBudgetMs;
  }

  const std::vector<bench::AllocationCase> allocations = bench::quality_allocations(set);
  std::vector<Instance> instances = bench::quality_instances(allocations, set, data_dir);
  if (!filter.empty() || !family.empty()) {
    std::erase_if(instances, [&](const Instance& i) {
      return bench::instance_label(i).find(filter) == std::string::npos ||
             (!family.empty() && i.pattern_family != family);
    });
    for (std::size_t k = 0; k < instances.size(); ++k) instances[k].id = static_cast<int>(k);
  }
  std::vector<Row> rows = bench::quality_rows(mapping::all_algorithms(), settings);
  for (const std::string& label : row_labels)
    if (std::none_of(rows.begin(), rows.end(), [&](const Row& r) { return r.label == label; })) {
      std::cerr << "quality_table: --rows: no row is labelled '" << label << "'; the rows are";
      for (const Row& r : rows) std::cerr << ' ' << r.label;
      std::cerr << "\n";
      return 2;
    }
  if (!row_labels.empty())
    std::erase_if(rows, [&](const Row& r) {
      return std::find(row_labels.begin(), row_labels.end(), r.label) == row_labels.end();
    });

  // The largest instances first, so that the last ones to finish are short.
  std::vector<int> order(instances.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return instances[a].tasks > instances[b].tasks; });

  std::vector<Result> results;
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  const auto work = [&] {
    for (std::size_t k = next++; k < order.size(); k = next++) {
      Instance& instance = instances[order[k]];
      const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 60;
      if (time_limit_min > 0 && minutes > time_limit_min && instance.skip_reason.empty())
        instance.skip_reason = "not run: the run's time limit of " + std::to_string(time_limit_min).substr(0, 4) +
                               " min was reached";
      std::vector<Result> cells = run_instance(instance, rows, settings);
      const std::lock_guard lock(mutex);
      results.insert(results.end(), cells.begin(), cells.end());
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cerr << "[" << std::fixed << std::setprecision(0) << elapsed << " s] " << results.size() / rows.size()
                << "/" << instances.size() << " " << instance.pattern << " on " << instance.allocation->label << " ("
                << instance.tasks << " tasks)" << std::endl;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();

  std::sort(results.begin(), results.end(),
            [](const Result& a, const Result& b) { return std::tie(a.instance, a.row) < std::tie(b.instance, b.row); });
  std::ofstream out(out_path);
  write_csv(out, instances, rows, results, settings, set);
  if (!out) {
    std::cerr << "quality_table: cannot write " << out_path << "\n";
    return 2;
  }

  int failures = 0;
  for (const Result& r : results)
    if (r.status == "failed") {
      ++failures;
      std::cerr << "FAILED: " << r.chain << " on " << instances[r.instance].pattern << " / "
                << instances[r.instance].allocation->label << " (" << instances[r.instance].tasks
                << " tasks): " << r.reason << "\n";
    }
  std::cerr << results.size() << " cells, " << failures << " failed; written to " << out_path << "\n";
  return failures == 0 ? 0 : 1;
}
