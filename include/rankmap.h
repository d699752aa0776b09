/*
 * rankmap.h — the C API of rankmap: topology-aware renumbering of MPI ranks.
 *
 * Every function returns an int status: RANKMAP_SUCCESS (0) or a negative RANKMAP_ERR_*
 * code; rankmap_strerror() turns a code into a message. No function lets a C++ exception
 * escape. The environment variables that configure the library are documented next to the
 * calls they affect; see also docs/environment.md.
 */
#ifndef RANKMAP_H
#define RANKMAP_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this API: major * 10000 + minor * 100 + patch. */
#define RANKMAP_API_VERSION 100

#if defined(RANKMAP_BUILDING_LIBRARY)
#define RANKMAP_EXPORT __attribute__((visibility("default")))
#else
#define RANKMAP_EXPORT
#endif

/** Status codes. */
#define RANKMAP_SUCCESS 0
#define RANKMAP_ERR_ARG (-1)         /**< an invalid argument (null pointer, negative count, ...) */
#define RANKMAP_ERR_MPI (-2)         /**< an MPI call failed */
#define RANKMAP_ERR_NOMEM (-3)       /**< out of memory */
#define RANKMAP_ERR_INPUT (-4)       /**< a file or environment value could not be used */
#define RANKMAP_ERR_NO_COORDS (-5)   /**< no network coordinates are known for this job */
#define RANKMAP_ERR_CAPACITY (-6)    /**< a buffer is too small for the result */
#define RANKMAP_ERR_INTERNAL (-7)    /**< a bug in rankmap; please report it */
#define RANKMAP_ERR_CALLBACK (-8)    /**< a caller-supplied callback reported failure */

/** A static, human-readable description of a status code. Never NULL. */
RANKMAP_EXPORT const char* rankmap_strerror(int status);

/* ==== Topology-aware communicators ==================================================== */

/* ==== Load balancing of identical independent tasks ==================================== */

/*
 * P bins (processes) hold counts[i] identical, independent tasks each (QMC walkers and the
 * like), T in total. The alias method computes a migration after which every bin holds
 * k = ceil(T/P) or k-1 tasks (exactly kP-T of them hold k-1), in which
 *   - every bin receives from at most one bin, in one message;
 *   - no bin sends more than it holds beforehand, so the migration takes a single round;
 *   - the largest amount any bin receives is the least possible for a balanced outcome
 *     (max(k - counts[i]) when P divides T);
 *   - at most P-1 messages are sent in total.
 * It costs O(P) time and memory. docs/balance.md gives the method and the proofs.
 */

/**
 * Computes the alias-method flow for nbins bins.
 *
 * On return bin i receives amount[i] tasks from bin sender[i], or nothing when
 * sender[i] == -1 (then amount[i] == 0). A bin may both send (to several bins) and receive
 * (from one). The arrays have nbins entries each and must not overlap.
 *
 * @param nbins   number of bins, >= 0
 * @param counts  tasks held by each bin, each >= 0, with a total that fits in a long long
 * @param sender  out: the bin that sends to bin i, or -1
 * @param amount  out: how many tasks bin i receives
 * @return RANKMAP_SUCCESS, RANKMAP_ERR_ARG (nbins < 0, a NULL array with nbins > 0, a
 *         negative count, a total that overflows) or RANKMAP_ERR_NOMEM.
 */
RANKMAP_EXPORT int rankmap_alias_flow(int nbins, const long long counts[], int sender[], long long amount[]);

/**
 * rankmap_alias_flow() with the bins taken in the order order[0], order[1], ... instead of
 * 0, 1, ...: surplus and deficit bins are paired as they come in this order, so an order in
 * which neighbours sit close on the network (bins sorted along a space-filling curve of
 * their nodes) keeps most migrations short. order must be a permutation of 0..nbins-1
 * (else RANKMAP_ERR_ARG); NULL means index order. The guarantees above hold for any order.
 */
RANKMAP_EXPORT int rankmap_alias_flow_ordered(int nbins, const long long counts[], const int order[], int sender[],
                                              long long amount[]);

/** The tag of the point-to-point messages of rankmap_alias_balance*(): while a balance call
 *  runs, the caller must not have other messages with this tag in flight on the communicator. */
#define RANKMAP_ALIAS_BALANCE_TAG 30817

/**
 * Balances the tasks of all processes of comm with the alias method. Collective over comm.
 *
 * Each process holds `count` tasks, contiguous in `tasks` (element i at
 * tasks + i * extent(task_type)), in a buffer with room for `capacity` tasks. The helper
 * all-gathers the counts and capacities, computes the flow (every process computes the same
 * one), then sends tasks from the end of the buffer with nonblocking sends and receives at
 * most one message, appended after the tasks it keeps. On success *new_count is the new
 * number of tasks, ceil(T/P) or one less; the order of the kept tasks is unchanged.
 *
 * Errors are agreed on before any task moves, so every process returns the same status and
 * no task is lost or duplicated:
 *   - RANKMAP_ERR_CAPACITY if some process would end with more than its capacity;
 *   - RANKMAP_ERR_ARG if some process passed a bad argument (NULL new_count, count < 0,
 *     count > capacity, NULL tasks with capacity > 0, a datatype of extent <= 0), or a
 *     single message would exceed INT_MAX tasks;
 *   - RANKMAP_ERR_NOMEM if some process ran out of memory while preparing.
 * RANKMAP_ERR_MPI is returned if an MPI call fails; then the state is undefined. On error
 * *new_count is set to count (when new_count is not NULL) and the buffer is unchanged.
 *
 * A communicator whose ranks follow the network, such as one from rankmap_comm_hilbert(),
 * makes this the topology-aware variant: partners are then mostly near each other.
 *
 * @param tasks      the task buffer (may be NULL when capacity is 0)
 * @param count      number of tasks held, 0 <= count <= capacity
 * @param capacity   room in tasks, in tasks
 * @param task_type  the MPI datatype of one task; the same type signature on every process
 * @param comm       an intra-communicator
 * @param new_count  out: the number of tasks held afterwards
 */
RANKMAP_EXPORT int rankmap_alias_balance(void* tasks, long long count, long long capacity, MPI_Datatype task_type,
                                         MPI_Comm comm, long long* new_count);

/**
 * Removes this process's last n tasks and writes them, n * task_bytes bytes, into buffer.
 * Returns 0 on success; anything else (after which the tasks must still be in place) makes
 * the balance fail on every process.
 */
typedef int (*rankmap_task_pack_fn)(void* user, long long n, void* buffer);
/**
 * Appends n tasks, read from n * task_bytes bytes at buffer, to this process's tasks.
 * Returns 0 on success.
 */
typedef int (*rankmap_task_unpack_fn)(void* user, long long n, const void* buffer);

/**
 * rankmap_alias_balance() for tasks the caller stores itself, serialised to task_bytes bytes
 * each by its callbacks. Collective over comm.
 *
 * pack is called once per outgoing message, before any task moves; then all processes agree,
 * and only if every pack succeeded do the messages travel. unpack is called at most once,
 * with the incoming message. If a pack fails anywhere, every process hands the tasks it had
 * packed back to its own unpack, and all return RANKMAP_ERR_CALLBACK. If an unpack fails,
 * that process alone returns RANKMAP_ERR_CALLBACK and the tasks of that message are lost.
 * The other errors are those of rankmap_alias_balance(), agreed on every process.
 *
 * @param count       number of tasks this process holds, 0 <= count <= capacity
 * @param capacity    the most tasks this process may hold afterwards
 * @param task_bytes  the serialised size of one task, > 0, the same on every process
 * @param pack, unpack, user  the callbacks and the pointer passed to them
 * @param comm        an intra-communicator
 * @param new_count   out: the number of tasks held afterwards
 */
RANKMAP_EXPORT int rankmap_alias_balance_callbacks(long long count, long long capacity, size_t task_bytes,
                                                   rankmap_task_pack_fn pack, rankmap_task_unpack_fn unpack,
                                                   void* user, MPI_Comm comm, long long* new_count);

#ifdef __cplusplus
}
#endif

#endif /* RANKMAP_H */
