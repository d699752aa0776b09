// `rankmap map`: computes a mapping with any algorithm or chain and writes the mapping file of DESIGN.md §8.
#include "job_inputs.hpp"
#include "mapping_options.hpp"

#include <CLI/CLI.hpp>
#include <rankmap/mapping/mapping_file.hpp>
#include <rankmap/mapping/offline.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace rankmap::tools {

namespace {

struct MapCommand {
  JobOptions job;
  MappingCommandOptions mapping;
  std::string output;
  std::string phases_as = "objective";
};

std::string duration_text(double seconds) {
  const long s = std::lround(seconds);
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60) std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%lds", s);
  return text;
}

/// Shows a mapper's progress on stderr: a bar with the ETA redrawn in place on a terminal, a
/// plain line every 10 s (and at the end) otherwise, so that logs stay short.
class ProgressReporter {
 public:
  ProgressReporter() : terminal_(isatty(STDERR_FILENO) != 0), start_(Clock::now()) {}

  /// Ends the bar's line, if one was drawn.
  void finish() const {
    if (shown_ && terminal_) std::fputc('\n', stderr);
  }

  void operator()(double fraction) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double interval = terminal_ ? 0.2 : 10.0;
    const bool last = fraction >= 1.0 && shown_ && !finished_;  // runs under a second show nothing
    if (!last && (elapsed < 1.0 || std::chrono::duration<double>(now - last_).count() < interval)) return;
    last_ = now;
    finished_ = finished_ || last;
    shown_ = true;
    const std::string eta = fraction > 0 ? duration_text(elapsed * (1 - fraction) / fraction) : "?";
    const int percent = static_cast<int>(fraction * 100);
    if (terminal_) {
      const int filled = static_cast<int>(fraction * kWidth);
      std::fprintf(stderr, "\r[%s%s] %3d%%  elapsed %s  ETA %s   ", std::string(filled, '#').c_str(),
                   std::string(kWidth - filled, '.').c_str(), percent, duration_text(elapsed).c_str(), eta.c_str());
    } else {
      std::fprintf(stderr, "progress %d%% elapsed %s eta %s\n", percent, duration_text(elapsed).c_str(), eta.c_str());
    }
    std::fflush(stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr int kWidth = 30;
  bool terminal_;
  Clock::time_point start_;
  Clock::time_point last_{};
  bool shown_ = false;
  bool finished_ = false;
};

void run_map(const MapCommand& o) {
  mapping::MapOptions options = map_options_of(o.mapping);
  const Job job = load_job(o.job);
  if (job.mapping) options.initial = &job.mapping->slot_of;
  (o.phases_as == "objective" ? options.phases : options.hedge_phases) = job.phases;
  const ObjectiveMeter score(options, job.graph, job.alloc, options.phases);

  const double before = score(mapping::identity_mapping(job.graph.num_tasks()));
  const auto start = std::chrono::steady_clock::now();
  ProgressReporter reporter;
  options.progress = [&reporter](double fraction) { reporter(fraction); };
  mapping::Choice choice;
  options.choice = &choice;
  mapping::Mapping slot_of =
      mapping::run_chain(o.mapping.algorithm, mapping::all_algorithms(), job.graph, job.alloc, options);
  options.progress = nullptr;
  reporter.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double after = score(slot_of);

  mapping::MappingFile file;
  file.tasks = job.graph.num_tasks();
  file.graph_hash = job.graph.canonical_hash();
  file.allocation_hash = job.alloc.hash();
  file.algorithm = algorithm_label(o.mapping.algorithm, choice);
  file.objective = after;
  file.slot_of = std::move(slot_of);
  mapping::write_mapping_file(o.output, file);

  std::printf("algorithm  %s\n", file.algorithm.c_str());
  if (!choice.detail.empty()) std::printf("portfolio  %s\n", choice.detail.c_str());
  std::printf("objective  %s\n", score.description().c_str());
  std::printf("before     %.10g (identity)\n", before);
  if (job.mapping) std::printf("initial    %.10g (%s)\n", score(job.mapping->slot_of), o.job.mapping.c_str());
  std::printf("after      %.10g\n", after);
  std::printf("ratio      %.6g\n", before > 0 ? after / before : 1.0);
  std::printf("time_s     %.3f\n", seconds);
  std::printf("wrote      %s\n", o.output.c_str());
}

/// rahtm's parameter table, one row per `key=value`, for the help's footer.
std::string rahtm_parameter_help() {
  std::string text = "rahtm parameters (--algo rahtm:key=value,...; default in brackets):\n";
  for (const mapping::ParameterInfo& p : mapping::rahtm_parameters()) {
    std::string name = "  " + std::string(p.name) + "=" + std::string(p.type);
    name.resize(std::max<std::size_t>(name.size() + 1, 22), ' ');
    text += name + std::string(p.help) + " [" + std::string(p.default_value) + "]\n";
  }
  return text;
}

}  // namespace

void add_map_command(CLI::App& app) {
  auto options = std::make_shared<MapCommand>();
  auto* map = app.add_subcommand("map", "compute a mapping with an algorithm or a chain (a+b) and write a mapping file");
  add_job_options(*map, options->job, true);
  add_phases_option(*map, options->job);
  map->add_option("--phases-as", options->phases_as,
                  "objective: score mappings on the sum of the --phases' MCLs; hedge: score them on the whole graph, "
                  "and auto refuses a candidate that raises the phases' load under the network's static routing "
                  "(for phases found from steps, which can split one exchange)")
      ->check(CLI::IsMember({"objective", "hedge"}))
      ->capture_default_str();
  map->get_option("--mapping")->description("mapping file the first stage starts from (e.g. --algo refine); must match");
  add_mapping_options(*map, options->mapping);
  map->add_option("-o,--output", options->output, "mapping file to write")->required();
  map->footer(rahtm_parameter_help());
  map->callback([options] { run_map(*options); });
}

}  // namespace rankmap::tools
