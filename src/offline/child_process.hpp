// A mapping computed in a forked child process that is killed at a deadline, for libraries such as
// Scotch that cannot be stopped from inside.
#pragma once

#include <rankmap/mapping/mapping.hpp>

#include <functional>
#include <optional>

namespace rankmap::mapping::detail {

/// Runs `compute` in a child process made by fork() and returns the mapping it returned, or
/// nullopt when `deadline` passed first. Either way the child has been reaped (at the deadline
/// after SIGKILL) and the pipe it answered through is closed when this returns or throws.
///
/// What the child may do: it is a copy of the calling thread alone. POSIX allows only
/// async-signal-safe calls there when the caller had other threads (rahtm's pool, for one);
/// `compute` relies on what glibc guarantees beyond that, namely malloc and pthread_create after
/// fork, and must not wait for locks another thread of the parent may hold at the fork: no thread
/// pool of the parent, no MPI, no stdio beyond messages on stderr. The child ends with _exit, so no
/// atexit handler or static destructor runs and the parent's stdio buffers are not written twice.
///
/// Throws InputError with the child's message when `compute` threw InputError, std::runtime_error
/// when it threw anything else or when the child died without answering (a signal, say a crash
/// inside Scotch), and std::system_error when fork, pipe or poll fail.
std::optional<Mapping> run_in_child(const Deadline& deadline, const std::function<Mapping()>& compute);

}  // namespace rankmap::mapping::detail
