// make_pattern(): the pattern table, size resolution (ranks or dims) and balanced factorisation.
#include <rankmap/graph/patterns.hpp>

#include "graph/pattern_builders.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>

namespace rankmap::graph {

namespace {

/// Generated graphs beyond this many edges would not fit in memory comfortably.
constexpr std::int64_t kMaxPatternEdges = std::int64_t{1} << 27;

/// How a pattern's process grid is sized.
enum class Shape {
  none,    ///< no grid: dims only give the rank count
  grid2,   ///< any 2D grid
  grid3,   ///< any 3D grid
  cg,      ///< NPB CG: rows x cols with cols a power of two equal to rows or 2 * rows
  square,  ///< NPB BT/SP: q x q
};

struct Resolved {
  std::vector<int> dims;
  TaskId ranks = 0;
};

struct PatternInfo {
  std::string_view name;
  Shape shape;
  CommGraph (*build)(const PatternSpec&, const Resolved&);
  std::int64_t (*max_degree)(const Resolved&);
};

int log2_ceil(std::int64_t n) { return n <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(n - 1)); }

// NPB BT sends C' and rhs' (30 doubles per face point) forwards and rhs (5) backwards; SP sends
// 22 forwards and 10 backwards; copy_faces sends two ghost layers of 5 variables (10) each way.
// The solve traffic is expressed in units of one copy_faces message.
constexpr double kBtForward = 30.0 / 10, kBtBackward = 5.0 / 10;
constexpr double kSpForward = 22.0 / 10, kSpBackward = 10.0 / 10;

constexpr PatternInfo kPatterns[] = {
    {"stencil2d", Shape::grid2,
     [](const PatternSpec& s, const Resolved& r) { return patterns::stencil(r.dims, s.periodic, false, s.bytes); },
     [](const Resolved&) -> std::int64_t { return 4; }},
    {"stencil3d", Shape::grid3,
     [](const PatternSpec& s, const Resolved& r) { return patterns::stencil(r.dims, s.periodic, false, s.bytes); },
     [](const Resolved&) -> std::int64_t { return 6; }},
    {"stencil27", Shape::grid3,
     [](const PatternSpec& s, const Resolved& r) { return patterns::stencil(r.dims, s.periodic, true, s.bytes); },
     [](const Resolved&) -> std::int64_t { return 26; }},
    {"ring", Shape::none, [](const PatternSpec& s, const Resolved& r) { return patterns::ring(r.ranks, s.bytes); },
     [](const Resolved&) -> std::int64_t { return 2; }},
    {"recdoubling", Shape::none,
     [](const PatternSpec& s, const Resolved& r) { return patterns::recursive_doubling(r.ranks, s.bytes); },
     [](const Resolved& r) -> std::int64_t { return log2_ceil(r.ranks) + 1; }},
    {"binomial", Shape::none,
     [](const PatternSpec& s, const Resolved& r) { return patterns::binomial_tree(r.ranks, s.bytes); },
     [](const Resolved& r) -> std::int64_t { return log2_ceil(r.ranks); }},
    {"bruck", Shape::none, [](const PatternSpec& s, const Resolved& r) { return patterns::bruck(r.ranks, s.bytes); },
     [](const Resolved& r) -> std::int64_t { return log2_ceil(r.ranks); }},
    {"alltoall", Shape::none,
     [](const PatternSpec& s, const Resolved& r) { return patterns::all_to_all(r.ranks, s.bytes); },
     [](const Resolved& r) -> std::int64_t { return r.ranks - 1; }},
    {"fft2d", Shape::grid2,
     [](const PatternSpec& s, const Resolved& r) { return patterns::fft2d(r.dims[0], r.dims[1], s.bytes); },
     [](const Resolved& r) -> std::int64_t { return r.dims[0] + r.dims[1] - 2; }},
    {"nas-cg", Shape::cg,
     [](const PatternSpec& s, const Resolved& r) { return patterns::nas_cg(r.dims[0], r.dims[1], s.bytes); },
     [](const Resolved& r) -> std::int64_t { return log2_ceil(r.dims[1]) + 1; }},
    {"nas-bt", Shape::square,
     [](const PatternSpec& s, const Resolved& r) {
       return patterns::nas_multipartition(r.dims[0], s.bytes, kBtForward, kBtBackward);
     },
     [](const Resolved&) -> std::int64_t { return 6; }},
    {"nas-sp", Shape::square,
     [](const PatternSpec& s, const Resolved& r) {
       return patterns::nas_multipartition(r.dims[0], s.bytes, kSpForward, kSpBackward);
     },
     [](const Resolved&) -> std::int64_t { return 6; }},
    {"random", Shape::none,
     [](const PatternSpec& s, const Resolved& r) { return patterns::random_sparse(r.ranks, s.bytes, s.seed); },
     [](const Resolved&) -> std::int64_t { return patterns::kRandomDegree; }},
};

constexpr auto kNames = [] {
  std::array<std::string_view, std::size(kPatterns)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kPatterns[i].name;
  return names;
}();

[[noreturn]] void fail(const PatternSpec& spec, const std::string& message) {
  throw InputError("pattern " + spec.name + ": " + message);
}

std::string dims_text(std::span<const int> dims) {
  std::string out;
  for (int d : dims) out += (out.empty() ? "" : "x") + std::to_string(d);
  return out;
}

int required_dims(Shape shape) {
  switch (shape) {
    case Shape::grid3: return 3;
    case Shape::none: return 0;
    default: return 2;
  }
}

std::vector<int> cg_dims(const PatternSpec& spec, TaskId ranks) {
  if (!std::has_single_bit(static_cast<std::uint32_t>(ranks)))
    fail(spec, "NPB CG runs on a power-of-two number of ranks, not " + std::to_string(ranks));
  // NPB CG: cols = 2^ceil(log2(P) / 2), so cols is rows or 2 * rows.
  const int cols = 1 << (std::bit_width(static_cast<std::uint32_t>(ranks)) / 2);
  return {ranks / cols, cols};
}

void check_cg_dims(const PatternSpec& spec, std::span<const int> dims) {
  const int rows = dims[0], cols = dims[1];
  if (!std::has_single_bit(static_cast<std::uint32_t>(cols)) || (cols != rows && cols != 2 * rows))
    fail(spec, "the process grid " + dims_text(dims) +
                   " must be rows x cols with cols a power of two equal to rows or 2 * rows, as in NPB CG");
}

std::vector<int> square_dims(const PatternSpec& spec, TaskId ranks) {
  const int q = static_cast<int>(std::lround(std::sqrt(static_cast<double>(ranks))));
  if (static_cast<std::int64_t>(q) * q != ranks)
    fail(spec, "the multi-partition scheme needs a square number of ranks, not " + std::to_string(ranks));
  return {q, q};
}

Resolved resolve(const PatternSpec& spec, Shape shape) {
  Resolved r;
  if (spec.ranks < 0) fail(spec, "the number of ranks must be positive, not " + std::to_string(spec.ranks));
  if (spec.dims.empty() && spec.ranks == 0) fail(spec, "give the number of ranks or the process-grid dims");
  if (!spec.dims.empty()) {
    std::int64_t product = 1;
    for (int d : spec.dims) {
      if (d < 1) fail(spec, "dims " + dims_text(spec.dims) + " must all be at least 1");
      product *= d;
      if (product > INT32_MAX) fail(spec, "dims " + dims_text(spec.dims) + " give more than 2^31 ranks");
    }
    if (spec.ranks > 0 && spec.ranks != product)
      fail(spec, "dims " + dims_text(spec.dims) + " give " + std::to_string(product) + " ranks, not " +
                     std::to_string(spec.ranks));
    r.ranks = static_cast<TaskId>(product);
    if (const int want = required_dims(shape); want > 0 && static_cast<int>(spec.dims.size()) != want)
      fail(spec, "needs " + std::to_string(want) + " dims, not " + dims_text(spec.dims));
    if (shape != Shape::none) r.dims = spec.dims;
  } else {
    r.ranks = spec.ranks;
    if (shape == Shape::cg)
      r.dims = cg_dims(spec, r.ranks);
    else if (shape == Shape::square)
      r.dims = square_dims(spec, r.ranks);
    else if (shape != Shape::none)
      r.dims = balanced_dims(r.ranks, required_dims(shape));
  }
  if (shape == Shape::cg) check_cg_dims(spec, r.dims);
  if (shape == Shape::square && r.dims[0] != r.dims[1])
    fail(spec, "the multi-partition scheme needs a square process grid, not " + dims_text(r.dims));
  return r;
}

void check_scalars(const PatternSpec& spec) {
  if (!std::isfinite(spec.bytes) || spec.bytes <= 0)
    fail(spec, "bytes per message must be a positive number, not " + std::to_string(spec.bytes));
  if (spec.periodic && !spec.name.starts_with("stencil")) fail(spec, "periodic applies to the stencil patterns only");
}

void collect_divisors(std::int64_t n, std::vector<std::int64_t>& out) {
  out.clear();
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      out.push_back(d);
      if (d * d != n) out.push_back(n / d);
    }
}

/// Searches non-increasing factorisations of `rest` into `left` factors no larger than `cap`.
void search_dims(std::int64_t rest, int left, std::int64_t cap, std::vector<int>& current, std::vector<int>& best) {
  if (left == 1) {
    if (rest > cap) return;
    current.push_back(static_cast<int>(rest));
    const auto spread = [](const std::vector<int>& d) { return d.front() - d.back(); };
    if (best.empty() || spread(current) < spread(best)) best = current;
    current.pop_back();
    return;
  }
  std::vector<std::int64_t> divisors;
  collect_divisors(rest, divisors);
  for (std::int64_t d : divisors) {
    if (d > cap) continue;
    // A leading factor below the balanced size cannot be followed by factors up to it.
    if (std::pow(static_cast<double>(d), left) < static_cast<double>(rest) * (1 - 1e-12)) continue;
    current.push_back(static_cast<int>(d));
    search_dims(rest / d, left - 1, d, current, best);
    current.pop_back();
  }
}

}  // namespace

std::vector<int> balanced_dims(TaskId ranks, int ndims) {
  if (ranks < 1) throw InputError("balanced dims: the number of ranks must be positive, not " + std::to_string(ranks));
  if (ndims < 1) throw InputError("balanced dims: the number of dims must be positive, not " + std::to_string(ndims));
  std::vector<int> current, best;
  search_dims(ranks, ndims, ranks, current, best);
  return best;
}

std::span<const std::string_view> pattern_names() { return kNames; }

CommGraph make_pattern(const PatternSpec& spec) {
  const auto* info = std::find_if(std::begin(kPatterns), std::end(kPatterns),
                                  [&](const PatternInfo& p) { return p.name == spec.name; });
  if (info == std::end(kPatterns)) {
    std::string known;
    for (std::string_view n : kNames) known += (known.empty() ? "" : ", ") + std::string(n);
    throw InputError("unknown pattern '" + spec.name + "'; known patterns: " + known);
  }
  check_scalars(spec);
  const Resolved r = resolve(spec, info->shape);
  const std::int64_t edges = static_cast<std::int64_t>(r.ranks) * info->max_degree(r);
  if (edges > kMaxPatternEdges)
    fail(spec, std::to_string(r.ranks) + " ranks would make up to " + std::to_string(edges) + " edges, more than the " +
                   std::to_string(kMaxPatternEdges) + " supported");
  return info->build(spec, r);
}

}  // namespace rankmap::graph
