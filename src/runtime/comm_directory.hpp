// The world ranks behind a communicator's ranks, and its neighbourhood, cached on the communicator.
#pragma once

#include <mpi.h>

#include <span>

namespace rankmap::runtime {

/// Translates ranks of any communicator into MPI_COMM_WORLD ranks, for the profiler. What it learns
/// about a communicator is kept in an attribute of it, so that it is forgotten when the program
/// frees the communicator, and it learns lazily: memory grows with the peers a process addresses.
/// Thread-safe. Every function needs MPI to be initialised and not finalised.
namespace comm_directory {

/// Creates the attribute key; call once after MPI_Init. Returns false when MPI refused.
bool start();

/// The world rank of `rank` in `comm` (the remote group's rank for an inter-communicator), or -1
/// for MPI_PROC_NULL, a rank out of range, or a process outside MPI_COMM_WORLD.
int world_rank(MPI_Comm comm, int rank);

/// The world ranks a neighbourhood collective on `comm` sends to, in MPI's order of its send
/// buffer blocks (-1 for MPI_PROC_NULL); empty when `comm` has no topology.
std::span<const int> out_neighbours(MPI_Comm comm);

}  // namespace comm_directory

}  // namespace rankmap::runtime
