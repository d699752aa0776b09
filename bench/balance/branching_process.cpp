// Load vectors from a simulated DMC branching process.
#include "branching_process.hpp"

#include <cmath>
#include <random>

namespace rankmap::bench {

std::vector<long long> branching_counts(int bins, int per_bin, int generations, double tau, std::uint64_t seed) {
  // In the ground state |psi|^2 ~ exp(-r^2) every coordinate has variance 1/2, so
  // V = r^2/2 = chi^2_3 / 4 and E[exp(-tau V)] = (1 + tau/2)^(-3/2).
  const double e_trial = 1.5 / tau * std::log1p(tau / 2);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> coordinate(0.0, std::sqrt(0.5));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<long long> counts(static_cast<std::size_t>(bins), per_bin);
  for (int g = 0; g < generations; ++g) {
    for (long long& count : counts) {
      long long next = 0;
      for (long long w = 0; w < count; ++w) {
        const double x = coordinate(rng), y = coordinate(rng), z = coordinate(rng);
        const double v = 0.5 * (x * x + y * y + z * z);
        next += static_cast<long long>(std::floor(std::exp(-tau * (v - e_trial)) + u(rng)));
      }
      count = next;
    }
  }
  return counts;
}

}  // namespace rankmap::bench
