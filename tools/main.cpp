// The `rankmap` command-line program: registers the subcommands and turns every failure into one line on stderr.
#include <CLI/CLI.hpp>
#include <rankmap/types.hpp>

#include <iostream>
#include <new>
#include <string>

// Every subcommand NAME is defined by add_NAME_command() in tools/NAME_command.cpp; list it here once.
#define RANKMAP_SUBCOMMANDS(X) \
  X(gen)                       \
  X(eval)                      \
  X(map)                       \
  X(emit)                      \
  X(place)                     \
  X(render)                    \
  X(slurm)

namespace rankmap::tools {
#define RANKMAP_DECLARE_SUBCOMMAND(name) void add_##name##_command(CLI::App& app);
RANKMAP_SUBCOMMANDS(RANKMAP_DECLARE_SUBCOMMAND)
#undef RANKMAP_DECLARE_SUBCOMMAND
}  // namespace rankmap::tools

namespace {

/// Exit codes: 1 for bad input or a failed run, 2 for a bad command line.
constexpr int kFailed = 1;
constexpr int kUsage = 2;

int report(const std::string& message, int code) {
  std::string line = message;
  for (char& c : line)
    if (c == '\n') c = ' ';
  std::cerr << "rankmap: " << line << '\n';
  return code;
}

bool has_subcommand(CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == name) return true;
  return false;
}

std::string subcommand_list(CLI::App& app) {
  std::string out;
  for (const CLI::App* sub : app.get_subcommands({})) out += (out.empty() ? "" : ", ") + sub->get_name();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rankmap: renumbers MPI ranks for the machine's network (topology-aware rank mapping)."};
  app.name("rankmap");
  app.require_subcommand(1);
#define RANKMAP_ADD_SUBCOMMAND(name) rankmap::tools::add_##name##_command(app);
  RANKMAP_SUBCOMMANDS(RANKMAP_ADD_SUBCOMMAND)
#undef RANKMAP_ADD_SUBCOMMAND
  if (argc > 1 && argv[1][0] != '-' && !has_subcommand(app, argv[1]))
    return report("unknown subcommand '" + std::string(argv[1]) + "'; expected one of: " + subcommand_list(app), kUsage);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help
  } catch (const CLI::ParseError& e) {
    return report(e.what(), kUsage);
  } catch (const rankmap::InputError& e) {
    return report(e.what(), kFailed);
  } catch (const std::bad_alloc&) {
    return report("out of memory", kFailed);
  } catch (const std::exception& e) {
    return report(std::string("internal error: ") + e.what(), kFailed);
  }
  return 0;
}
