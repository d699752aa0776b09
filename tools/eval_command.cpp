// `rankmap eval`: every quality figure of a mapping (the identity by default) of a graph onto an allocation.
#include "job_inputs.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <rankmap/hash.hpp>
#include <rankmap/metrics/channel_load.hpp>
#include <rankmap/metrics/quality.hpp>
#include <rankmap/topology/routing.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

namespace rankmap::tools {

namespace {

struct EvalOptions {
  JobOptions job;
  std::string routing = "default";
  bool json = false;
};

nlohmann::ordered_json evaluate_job(const EvalOptions& options) {
  const auto routing = topology::RoutingSpec::parse(options.routing);
  const Job job = load_job(options.job);
  const mapping::Mapping slot_of = job.mapping ? job.mapping->slot_of : mapping::identity_mapping(job.graph.num_tasks());
  const metrics::Quality q = metrics::evaluate(job.graph, job.alloc, slot_of);
  const auto model = topology::make_routing_model(job.alloc.network(), routing);

  nlohmann::ordered_json out;
  out["tasks"] = job.graph.num_tasks();
  out["nodes"] = job.alloc.num_nodes();
  out["ppn"] = job.alloc.max_ppn();
  if (job.alloc.network().is_grid()) out["grid"] = job.alloc.grid().to_string();
  else out["network"] = job.alloc.network().to_string();
  out["algorithm"] = job.mapping ? job.mapping->algorithm : "identity";
  if (job.mapping && job.mapping->objective) out["objective"] = *job.mapping->objective;
  out["routing"] = routing.on(job.alloc.network()).to_string();
  out["mcl"] = metrics::max_channel_load(job.graph, job.alloc, slot_of, *model);
  if (!job.phases.empty()) {
    out["phases"] = job.phases.size();
    out["mcl_phased"] = metrics::phased_max_channel_load(job.phases, job.alloc, slot_of, *model);
  }
  out["hop_bytes"] = q.hop_bytes;
  if (job.alloc.network().is_grid()) {
    out["mcl_dor"] = q.mcl_dor;
    out["mcl_adaptive"] = q.mcl_adaptive;
    out["mcl_adaptive_hop"] = q.mcl_adaptive_hop;
  } else {
    for (const auto& [name, mcl] : q.mcl_by_routing) out["mcl_" + name] = mcl;
  }
  out["dilation_avg"] = q.dilation.average;
  out["dilation_max"] = q.dilation.max;
  out["mcl_lower_bound"] = q.mcl_lower_bound;
  out["total_bytes"] = job.graph.total_weight();
  out["graph_hash"] = hash_to_hex(job.graph.canonical_hash());
  out["allocation_hash"] = hash_to_hex(job.alloc.hash());
  return out;
}

/// One `name  value` line per figure, numbers with ten significant digits.
void print_text(const nlohmann::ordered_json& result) {
  for (const auto& [key, value] : result.items()) {
    std::string text;
    if (value.is_number_float()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.10g", value.get<double>());
      text = buf;
    } else if (value.is_string()) {
      text = value.get<std::string>();
    } else {
      text = value.dump();
    }
    std::printf("%-18s %s\n", key.c_str(), text.c_str());
  }
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto options = std::make_shared<EvalOptions>();
  auto* eval = app.add_subcommand(
      "eval", "hop-bytes, maximum channel load under each routing model, dilation and the MCL lower bound of a mapping "
      "(and with --phases, the sum of the phases' MCLs under --routing)");
  add_job_options(*eval, options->job, true);
  add_phases_option(*eval, options->job);
  eval->add_option("--routing", options->routing,
                   "routing model of the `mcl` figure: default (the network's own: adaptive on grids, dmodk on "
                   "fat-trees, minimal on dragonflies), adaptive, adaptive-hop, dor or dor:<order> (grids), dmodk "
                   "(fat-trees), minimal or valiant (dragonflies)");
  eval->add_flag("--json", options->json, "print one JSON object instead of text");
  eval->callback([options] {
    const auto result = evaluate_job(*options);
    if (options->json)
      std::cout << result.dump() << '\n';
    else
      print_text(result);
  });
}

}  // namespace rankmap::tools
