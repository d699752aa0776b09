// Open MPI's pml monitoring profiles (`DIR/app.<rank>.prof`, one per rank) as one communication graph.
#pragma once

#include <rankmap/graph/comm_graph.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::graph {

/// Reads one rank's profile, as Open MPI 4.1 writes it at MPI_Finalize with
/// `--mca pml_monitoring_enable 1|2 --mca pml_monitoring_enable_output 3`:
///
///     # POINT TO POINT
///     E<TAB>0<TAB>1<TAB>308 bytes<TAB>4 msgs sent<TAB>0,0,0,0,1,0,0,3,...
///     I<TAB>0<TAB>2<TAB>16 bytes<TAB>2 msgs sent
///     # OSC
///     S<TAB>0<TAB>1<TAB>64 bytes<TAB>1 msgs sent
///     R<TAB>0<TAB>1<TAB>64 bytes<TAB>1 msgs sent
///     # COLLECTIVES
///     C<TAB>0<TAB>1<TAB>8 bytes<TAB>1 msgs sent
///     D<TAB>MPI_COMM_WORLD<TAB>procs: 0,1,2
///     O2A<TAB>0<TAB>0 bytes<TAB>0 msgs sent     (also A2O, A2A)
///
/// Returns the edges of everything that crossed the network: `E` (application point-to-point,
/// with pml_monitoring_enable 1 also the messages collectives are made of) and `I` (those
/// collective messages, listed apart with pml_monitoring_enable 2) as rank -> peer, one-sided `S`
/// (put by rank to peer) as rank -> peer and `R` (got by rank from peer) as peer -> rank. The
/// collective summaries `C`, `D`, `O2A`, `A2O`, `A2A` count again traffic that `E` or `I`
/// already hold, so they are checked and skipped. Every line must name `rank` as the sender and
/// ranks below `num_tasks`. Throws InputError naming `source` and the line for anything else.
std::vector<Edge> parse_monitoring_profile(std::istream& in, std::string_view source, TaskId rank,
                                           TaskId num_tasks);

/// The profile set `path` names, as the prefix given to `pml_monitoring_filename`: `path` may be
/// that prefix (`DIR/app`), any one file of the set (`DIR/app.3.prof`), or a directory holding
/// exactly one set (several are an InputError). Nothing when `path` is none of these.
std::optional<std::string> monitoring_prefix(const std::string& path);

/// Reads `<prefix>.0.prof` ... `<prefix>.<P-1>.prof`, where P is the number of files of the set,
/// into a graph of P tasks. Throws InputError naming the path for a gap in the rank numbers, and
/// the file and line for a peer outside 0..P-1 or any other error inside a file.
CommGraph read_monitoring_profiles(const std::string& path);

}  // namespace rankmap::graph
