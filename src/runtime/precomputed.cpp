// Looking RANKMAP_MAPPING files up and refusing those computed for another job.
#include "precomputed.hpp"

#include <rankmap/types.hpp>

#include <algorithm>
#include <filesystem>

namespace rankmap::runtime {

std::optional<PrecomputedMapping> find_precomputed_mapping(const std::string& path, const graph::CommGraph& graph,
                                                           const topology::Allocation& alloc, std::string& refusal) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file(ec)) candidates.push_back(entry.path().string());
    std::sort(candidates.begin(), candidates.end());
    if (candidates.empty()) {
      refusal = "RANKMAP_MAPPING: directory " + path + " holds no files";
      return std::nullopt;
    }
  } else {
    candidates.push_back(path);
  }
  std::string first_refusal;
  for (const std::string& candidate : candidates) {
    try {
      mapping::MappingFile file = mapping::read_mapping_file(candidate);
      mapping::check_mapping_matches(file, graph, alloc, candidate);
      return PrecomputedMapping{candidate, std::move(file)};
    } catch (const InputError& e) {
      if (first_refusal.empty()) first_refusal = e.what();
    }
  }
  refusal = "RANKMAP_MAPPING refused: " + first_refusal;
  if (candidates.size() > 1) refusal += " (and " + std::to_string(candidates.size() - 1) + " other files)";
  return std::nullopt;
}

}  // namespace rankmap::runtime
