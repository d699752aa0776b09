// main() for GoogleTest under MPI: every rank runs every test, rank 0 prints the report, other ranks
// only their own failures, and a failure on any rank fails all.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

/// Turns a failure on any rank into a failure everywhere, so no rank moves on to the next
/// collective test while another is still asserting, and the exit status is the same on all ranks.
class AgreeOnResult : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& info) override {
    int failed = info.result()->Failed() ? 1 : 0, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !failed) ADD_FAILURE() << "failed on another rank";
  }
};

/// On ranks other than 0, which have no report printer, says where an assertion failed.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed())
      std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_, result.file_name() ? result.file_name() : "?",
                   result.line_number(), result.summary());
  }

 private:
  int rank_;
};

/// MPI_Init, or with MPITEST_THREAD_MULTIPLE, MPI_Init_thread asking for MPI_THREAD_MULTIPLE (the
/// tests check the level provided).
void init(int* argc, char*** argv) {
#ifdef MPITEST_THREAD_MULTIPLE
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
#else
  MPI_Init(argc, argv);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  listeners.Append(new AgreeOnResult);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
