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

/** A static, human-readable description of a status code. Never NULL. */
RANKMAP_EXPORT const char* rankmap_strerror(int status);

/* ==== Topology-aware communicators ==================================================== */

/* ==== Load balancing of identical independent tasks ==================================== */

#ifdef __cplusplus
}
#endif

#endif /* RANKMAP_H */
