// The interposed C receives, waits and tests, which end a step under RANKMAP_PROFILE_PHASES=steps.
// The SimGrid prototype of the rule (bench/smpi/step_phases.py) ends a step at any wait, also of a
// send: so do these.
#include "profiled_call.hpp"

using rankmap::pmpi::some_completed;

RANKMAP_COMPLETION(Recv,
                   (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status),
                   (buf, count, type, source, tag, comm, status), true)
RANKMAP_COMPLETION(Wait, (MPI_Request * request, MPI_Status* status), (request, status), true)
RANKMAP_COMPLETION(Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]), (count, requests, statuses),
                   count > 0)
RANKMAP_COMPLETION(Waitany, (int count, MPI_Request requests[], int* index, MPI_Status* status),
                   (count, requests, index, status), *index != MPI_UNDEFINED)
RANKMAP_COMPLETION(Waitsome,
                   (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]),
                   (incount, requests, outcount, indices, statuses), some_completed(outcount))
RANKMAP_COMPLETION(Test, (MPI_Request * request, int* flag, MPI_Status* status), (request, flag, status), *flag)
RANKMAP_COMPLETION(Testall, (int count, MPI_Request requests[], int* flag, MPI_Status statuses[]),
                   (count, requests, flag, statuses), *flag && count > 0)
RANKMAP_COMPLETION(Testany, (int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status),
                   (count, requests, index, flag, status), *flag && *index != MPI_UNDEFINED)
RANKMAP_COMPLETION(Testsome,
                   (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]),
                   (incount, requests, outcount, indices, statuses), some_completed(outcount))
