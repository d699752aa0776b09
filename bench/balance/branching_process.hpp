// Load vectors from a simulated DMC branching process.
#pragma once

#include <cstdint>
#include <vector>

namespace rankmap::bench {

/// Walkers per bin after `generations` of DMC-style branching, starting from `per_bin`
/// walkers in every bin. Each generation every walker is replaced by floor(w + u) copies,
/// u uniform in [0,1), w = exp(-tau (V - E_T)), where V = r^2/2 is the potential energy of a
/// position drawn from the ground state of the 3D harmonic well and E_T is the value that
/// makes the mean of w exactly 1, so the population neither grows nor shrinks on average.
std::vector<long long> branching_counts(int bins, int per_bin, int generations, double tau, std::uint64_t seed);

}  // namespace rankmap::bench
