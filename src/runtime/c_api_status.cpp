// Status codes of the C API and their messages.
#include <rankmap.h>

extern "C" RANKMAP_EXPORT const char* rankmap_strerror(int status) {
  switch (status) {
    case RANKMAP_SUCCESS: return "success";
    case RANKMAP_ERR_ARG: return "invalid argument";
    case RANKMAP_ERR_MPI: return "an MPI call failed";
    case RANKMAP_ERR_NOMEM: return "out of memory";
    case RANKMAP_ERR_INPUT: return "a file or environment value could not be used";
    case RANKMAP_ERR_NO_COORDS: return "no network coordinates are known for this job";
    case RANKMAP_ERR_CAPACITY: return "a buffer is too small for the result";
    case RANKMAP_ERR_INTERNAL: return "internal error in rankmap";
    case RANKMAP_ERR_CALLBACK: return "a caller-supplied callback reported failure";
    default: return "unknown rankmap status code";
  }
}
