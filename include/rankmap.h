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

/*
 * The reorder contract (DESIGN.md §4, docs/runtime.md).
 *
 * The caller describes a communication graph whose vertices are the ranks of the old
 * communicator. rankmap computes a mapping slot_of[] (a permutation) and returns a communicator
 * in which the process that ran at old rank slot_of[t] has new rank t. Vertex t of the graph is
 * played by new rank t: for rankmap_dist_graph_create_adjacent the adjacency lists are moved, so
 * that the process that becomes rank t receives the lists that old rank t passed in, and
 * MPI_Dist_graph_neighbors on the new communicator answers exactly what was specified for vertex
 * t, with the same weights in the same order. This is the reading MPI itself uses for
 * MPI_Cart_create and MPI_Graph_create: an application that takes its work from its new rank gets
 * the better placement. An application that already holds data per old rank moves it with
 * rankmap_migrate().
 *
 * Open MPI's treematch component, since its 2023 fix, reads reorder differently: each process
 * keeps its own lists and only the labels change. That keeps data in place but cannot change
 * which network links carry the graph's traffic; rankmap does not follow it.
 *
 * Every process computes or receives the same permutation, or none reorders: a failure anywhere
 * (a bad file, an exception while mapping) makes all processes fall back to the plain MPI call.
 * "Do no harm": the identity is kept unless the candidate lowers the objective by more than
 * RANKMAP_MIN_GAIN. Erroneous arguments (negative degrees or weights, ranks out of range,
 * MPI_UNWEIGHTED on only some processes, adjacent lists that do not match) raise MPI_ERR_ARG
 * through the communicator's error handler on every process, before anything else happens.
 *
 * Environment variables read by every reordering call (read once per process, see
 * docs/environment.md):
 *   RANKMAP_DISABLE=1         no reordering: each call is exactly the underlying MPI call
 *   RANKMAP_ALGO              auto (default) or a mapping algorithm chain such as mahd+refine
 *   RANKMAP_OBJECTIVE         mcl (default) or hopbytes
 *   RANKMAP_ROUTING           default (the network's own: adaptive on tori and meshes, dmodk on
 *                             fat-trees, minimal on dragonflies), adaptive, adaptive-hop, dor,
 *                             dor:<order>, dmodk, minimal, valiant
 *   RANKMAP_COORDS            auto, file:PATH, emulate:<grid>[,ppn=N][,sockets=S], bgq, cray, hostname
 *   RANKMAP_MAPPING           a precomputed mapping file or a directory of them
 *   RANKMAP_DUMP              directory for the graph, allocation and mapping of each reorder
 *   RANKMAP_REPORT            stderr or a path: one line per reorder
 *   RANKMAP_TIME_BUDGET_MS    search time of the mapping (default 200)
 *   RANKMAP_MIN_GAIN          relative gain required before reordering (default 0.02)
 * A bad value is reported once on rank 0 and turns reordering off for the run.
 */

/** Opaque handle: what one reorder did. Create it, pass it to a reordering call, query it, destroy it. */
typedef struct rankmap_result_s* rankmap_result;

/** Allocates an empty result. Returns RANKMAP_ERR_ARG if result is NULL, RANKMAP_ERR_NOMEM on failure. */
RANKMAP_EXPORT int rankmap_result_create(rankmap_result* result);
/** Frees a result and sets *result to NULL; a NULL *result is allowed. */
RANKMAP_EXPORT int rankmap_result_destroy(rankmap_result* result);
/** Sets *applied to 1 if the ranks were renumbered, 0 if the new communicator keeps the old order. */
RANKMAP_EXPORT int rankmap_result_get_applied(rankmap_result result, int* applied);
/** Sets *ntasks to the number of entries of the permutation (0 when not applied). */
RANKMAP_EXPORT int rankmap_result_get_size(rankmap_result result, int* ntasks);
/**
 * Copies the permutation: slot_of[t] is the old rank of the process that is new rank t. Every
 * process gets the same array. Returns RANKMAP_ERR_CAPACITY if capacity is below the size.
 */
RANKMAP_EXPORT int rankmap_result_get_permutation(rankmap_result result, int capacity, int slot_of[]);
/** The algorithm that produced the candidate (e.g. "mahd+refine"); valid until the result is destroyed. */
RANKMAP_EXPORT int rankmap_result_get_algorithm(rankmap_result result, const char** name);
/**
 * The objective's name ("mcl", "hopbytes", or "offnode" when only nodes are known) and its value
 * for the identity (*before) and for the candidate (*after). Any output pointer may be NULL.
 * Both are NaN when the time budget ran out while the identity was being measured (a dense graph
 * on many scattered nodes); the candidate is then the identity.
 */
RANKMAP_EXPORT int rankmap_result_get_objective(rankmap_result result, const char** name, double* before,
                                                double* after);
/** Seconds the root spent computing and evaluating the mapping. */
RANKMAP_EXPORT int rankmap_result_get_time(rankmap_result result, double* seconds);
/** Why the candidate was not applied or what was refused on the way; "" when there is nothing to say. */
RANKMAP_EXPORT int rankmap_result_get_note(rankmap_result result, const char** note);

/**
 * MPI_Dist_graph_create_adjacent with rankmap's reorder (see the contract above). Arguments are
 * MPI's, plus `result` (may be NULL). With reorder = 0 it is exactly the MPI call. Collective over
 * comm_old. Returns RANKMAP_SUCCESS when a communicator was created (renumbered or not),
 * RANKMAP_ERR_ARG for erroneous arguments (after calling comm_old's error handler with
 * MPI_ERR_ARG), RANKMAP_ERR_MPI when the MPI call failed.
 */
RANKMAP_EXPORT int rankmap_dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                                      const int sourceweights[], int outdegree,
                                                      const int destinations[], const int destweights[],
                                                      MPI_Info info, int reorder, MPI_Comm* comm_dist_graph,
                                                      rankmap_result result);

/**
 * MPI_Dist_graph_create with rankmap's reorder. Edges name vertices, and vertex t is new rank t,
 * so each process may pass any edges, as in MPI. Returns as rankmap_dist_graph_create_adjacent().
 */
RANKMAP_EXPORT int rankmap_dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                             const int destinations[], const int weights[], MPI_Info info,
                                             int reorder, MPI_Comm* comm_dist_graph, rankmap_result result);

/**
 * A plain communicator renumbered for a graph: each process gives its out-edges (destinations
 * are ranks of comm; weights may be NULL for 1 each). New rank t plays vertex t, whose data is
 * on old rank t until rankmap_migrate() moves it. When rankmap does not reorder, *newcomm is a
 * duplicate of comm in the same order. Collective. Free *newcomm with MPI_Comm_free.
 */
RANKMAP_EXPORT int rankmap_comm_reorder(MPI_Comm comm, int outdegree, const int destinations[],
                                        const int weights[], MPI_Comm* newcomm, rankmap_result result);

/**
 * A duplicate of comm whose ranks follow an n-dimensional Hilbert curve through the nodes of the
 * machine (processes of one node stay consecutive), so that ranks close in number run close on
 * the network. Without network coordinates the order groups processes by node. Collective.
 */
RANKMAP_EXPORT int rankmap_comm_hilbert(MPI_Comm comm, MPI_Comm* newcomm);

/**
 * Moves data after a reorder: the block that old rank v of oldcomm holds (the data of vertex v)
 * goes to the process that is rank v of newcomm. Both communicators must contain the same
 * processes (newcomm from rankmap_comm_reorder or a reordering call on oldcomm). Collective over
 * newcomm; each process sends one block and receives one.
 */
RANKMAP_EXPORT int rankmap_migrate(MPI_Comm oldcomm, MPI_Comm newcomm, const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);

/**
 * Where the calling process runs, from RANKMAP_COORDS: the grid's number of dimensions, this
 * node's coordinates, the grid's extents and torus flags (1 wraps, 0 mesh), each array holding
 * at least `capacity` entries. Not collective. Returns RANKMAP_ERR_NO_COORDS when only host
 * names are known, RANKMAP_ERR_INPUT when RANKMAP_COORDS cannot be used (for example a host
 * missing from the coordinate file), RANKMAP_ERR_CAPACITY when capacity < *ndims.
 */
RANKMAP_EXPORT int rankmap_coords(int capacity, int* ndims, int coords[], int extents[], int torus[]);

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
