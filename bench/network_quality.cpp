// Mapping quality on fat-trees and dragonflies: auto, tree, the greedy mappers and Scotch's tree-leaf
// mapping against the launcher's order, under SimGrid's routing and under adaptive, as Markdown and CSV.
//
// Usage: network_quality [--budget MS] [--set table|training] [--rows "ROW;ROW;..."] [--csv FILE]
// A row is a chain (`tree`, `scotch+refine`, `auto:attempts=20000`) run with --budget ms, or with its
// own budget after `@` (`auto@200ms`, `auto@10s`); `portfolio[emahd/0.15,tree:start/0.25]@200ms` is
// auto with exactly these core members and budget shares (and `portfolio[...]:attempts=N`, without a
// clock), for choosing auto's members on the training set, which shares no network and no pattern
// with the table set.
#include <rankmap/graph/patterns.hpp>
#include <rankmap/mapping/offline.hpp>
#include <rankmap/topology/allocation_generators.hpp>

#include "mapping/portfolio.hpp"
#include "measure.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace rankmap;
using topology::Allocation;
using topology::Network;

struct Machine {
  std::string name;
  Allocation alloc;
  std::string simgrid_routing;  ///< SimGrid's own routes on this network
};

// The table set, 512 nodes each: a fat-tree tapered 2:1 above its leaf switches (16 nodes down, 8
// links up), and a dragonfly of 8 groups of 4 chassis of 8 routers with 2 nodes each; whole, and 256
// nodes of a busy machine with 2 processes per node.
std::vector<Machine> table_machines() {
  const Network tree = Network::parse("fattree:3;16,8,4;1,8,8;1,1,1");
  const Network df = Network::parse("dragonfly:8,2;4,1;8,1;2");
  return {{"fattree:3;16,8,4;1,8,8;1,1,1 whole", Allocation::full(tree, 1), "dmodk"},
          {"fattree 256 fragmented, ppn 2", Allocation::of_nodes(tree, topology::fragmented_nodes(tree, 256, 7), 2), "dmodk"},
          {"dragonfly:8,2;4,1;8,1;2 whole", Allocation::full(df, 1), "minimal"},
          {"dragonfly 256 fragmented, ppn 2", Allocation::of_nodes(df, topology::fragmented_nodes(df, 256, 7), 2),
           "minimal"}};
}

// The training set: other, smaller networks of 128 nodes (a two-level fat-tree tapered 2:1, a
// three-level one, a dragonfly of 4 groups), 256 tasks each, whole or 64 fragmented nodes with 4
// processes each.
std::vector<Machine> training_machines() {
  const Network two = Network::parse("fattree:2;16,8;1,4;1,1");
  const Network three = Network::parse("fattree:3;8,4,4;1,4,2;1,1,1");
  const Network df = Network::parse("dragonfly:4,1;2,1;4,1;4");
  return {{"fattree:2;16,8;1,4;1,1 whole, ppn 2", Allocation::full(two, 2), "dmodk"},
          {"fattree:3;8,4,4;1,4,2;1,1,1 64 fragmented, ppn 4",
           Allocation::of_nodes(three, topology::fragmented_nodes(three, 64, 3), 4), "dmodk"},
          {"dragonfly:4,1;2,1;4,1;4 whole, ppn 2", Allocation::full(df, 2), "minimal"},
          {"dragonfly:4,1;2,1;4,1;4 64 fragmented, ppn 4",
           Allocation::of_nodes(df, topology::fragmented_nodes(df, 64, 3), 4), "minimal"}};
}

std::vector<std::string> table_patterns() { return {"stencil3d", "stencil27", "nas-cg", "fft2d", "random"}; }
std::vector<std::string> training_patterns() { return {"stencil2d", "nas-bt", "recdoubling", "bruck", "binomial"}; }

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find(separator, begin)) != std::string::npos; begin = end + 1)
    out.push_back(text.substr(begin, end - begin));
  out.push_back(text.substr(begin));
  return out;
}

/// A row: what to run and its budget.
struct Row {
  std::string name;  ///< as printed
  std::string chain;
  double budget_ms;
  std::vector<mapping::detail::PortfolioMember> members;  ///< for `portfolio[...]` rows
  std::vector<std::string> member_names;                  ///< owns the names the members point to
  std::string parameter;                                  ///< auto's, e.g. `attempts=5000`
};

Row parse_row(const std::string& text, double default_budget_ms) {
  Row row{text, text, default_budget_ms, {}, {}, {}};
  if (const auto at = text.rfind('@'); at != std::string::npos) {
    const std::string budget = text.substr(at + 1);
    row.chain = text.substr(0, at);
    const double value = std::atof(budget.c_str());
    if (budget.ends_with("ms")) row.budget_ms = value;
    else if (budget.ends_with("s")) row.budget_ms = 1000 * value;
    else throw std::invalid_argument("row '" + text + "': the budget after @ ends in ms or s");
  }
  if (row.chain.starts_with("portfolio[")) {
    const auto close = row.chain.find(']');
    if (close == std::string::npos) throw std::invalid_argument("row '" + text + "': no ] after portfolio[");
    if (row.chain.size() > close + 1) row.parameter = row.chain.substr(close + 2);  // after "]:"
    const auto items = split_list(row.chain.substr(10, close - 10), ',');
    row.member_names.reserve(items.size());
    for (const std::string& item : items) {
      const auto slash = item.find('/');
      row.member_names.push_back(item.substr(0, slash));
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
      const std::string& name = row.member_names[k];
      const mapping::AlgorithmInfo* info = mapping::find_algorithm(mapping::core_algorithms(), name);
      if (!info) throw std::invalid_argument("row '" + text + "': no core algorithm " + name);
      const auto colon = name.find(':');
      const auto slash = items[k].find('/');
      const std::string_view parameter = colon == std::string::npos ? std::string_view() : std::string_view(name).substr(colon + 1);
      row.members.push_back({name, info->map, parameter, slash == std::string::npos ? 0 : std::atof(items[k].c_str() + slash + 1),
                             0, 0, mapping::detail::MemberNetworks::all});
    }
  }
  return row;
}

mapping::Mapping run_row(const Row& row, const graph::CommGraph& graph, const Allocation& alloc,
                         mapping::MapOptions options) {
  options.time_budget_ms = row.budget_ms;
  if (!row.members.empty()) {
    options.parameter = row.parameter;
    return mapping::detail::map_portfolio(graph, alloc, options, row.members);
  }
  return mapping::run_chain(row.chain, mapping::all_algorithms(), graph, alloc, options);
}

}  // namespace

int main(int argc, char** argv) {
  double budget_ms = 1000;
  std::string set = "table", csv_path;
  std::string rows_text =
      "tree:start;tree;mahd+refine;emahd+refine;gge+refine;scotch;scotch+refine;auto@200ms;auto:attempts=20000;auto@10s";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--budget") budget_ms = std::atof(value.c_str());
    else if (flag == "--set") set = value;
    else if (flag == "--rows") rows_text = value;
    else if (flag == "--csv") csv_path = value;
    else {
      std::fprintf(stderr, "network_quality: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  const bool training = set == "training";
  const std::vector<Machine> machines = training ? training_machines() : table_machines();
  const std::vector<std::string> patterns = training ? training_patterns() : table_patterns();
  std::vector<Row> rows;
  for (const std::string& text : split_list(rows_text, ';')) rows.push_back(parse_row(text, budget_ms));
  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    csv << "allocation,pattern,row,budget_ms,hop_bytes,mcl_simgrid,mcl_adaptive,identity_hop_bytes,"
           "identity_mcl_simgrid,identity_mcl_adaptive,seconds,chosen\n";
  }

  std::map<std::string, std::vector<double>> log_ratios;  // per row: hop-bytes, MCL SimGrid, MCL adaptive
  std::printf("| allocation | pattern | algorithm | hop-bytes | MCL (SimGrid's routing) | MCL adaptive | time (s) | auto's winner |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Machine& machine : machines)
    for (const std::string& pattern : patterns) {
      graph::PatternSpec spec;
      spec.name = pattern;
      spec.ranks = machine.alloc.num_slots();
      const graph::CommGraph graph = graph::make_pattern(spec);
      const Allocation alloc = machine.alloc.first_slots(graph.num_tasks());
      const std::initializer_list<std::string_view> routings = {machine.simgrid_routing, "adaptive"};
      const bench::Figures base = bench::measure(graph, alloc, mapping::identity_mapping(graph.num_tasks()), routings);
      for (const Row& row : rows) {
        mapping::MapOptions options;
        options.routing = topology::RoutingSpec::parse(machine.simgrid_routing);
        mapping::Choice choice;
        options.choice = &choice;
        const auto start = std::chrono::steady_clock::now();
        const mapping::Mapping m = run_row(row, graph, alloc, options);
        const double time = bench::seconds_since(start);
        const bench::Figures f = bench::measure(graph, alloc, m, routings);
        const double ratios[] = {f.hop_bytes / base.hop_bytes, f.mcl[0] / base.mcl[0], f.mcl[1] / base.mcl[1]};
        auto& logs = log_ratios[row.name];
        logs.resize(3, 0);
        for (int k = 0; k < 3; ++k) logs[k] += std::log(ratios[k]);
        std::printf("| %s | %s | %s | %.3f | %.3f | %.3f | %.2f | %s |\n", machine.name.c_str(), pattern.c_str(),
                    row.name.c_str(), ratios[0], ratios[1], ratios[2], time, choice.chosen.c_str());
        std::fflush(stdout);
        if (csv.is_open())
          csv << '"' << machine.name << "\"," << pattern << ",\"" << row.name << "\"," << row.budget_ms << ','
              << f.hop_bytes << ',' << f.mcl[0] << ',' << f.mcl[1] << ',' << base.hop_bytes << ',' << base.mcl[0] << ','
              << base.mcl[1] << ',' << time << ',' << choice.chosen << '\n' << std::flush;
      }
    }
  const double count = static_cast<double>(machines.size() * patterns.size());
  std::printf("\n| algorithm | geomean hop-bytes / identity | geomean MCL (SimGrid's routing) / identity | geomean MCL "
              "adaptive / identity |\n");
  std::printf("|---|---|---|---|\n");
  for (const Row& row : rows) {
    const auto& logs = log_ratios[row.name];
    std::printf("| %s | %.3f | %.3f | %.3f |\n", row.name.c_str(), std::exp(logs[0] / count),
                std::exp(logs[1] / count), std::exp(logs[2] / count));
  }
}
