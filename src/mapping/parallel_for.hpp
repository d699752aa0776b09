// A minimal parallel loop whose calling thread takes part and reports progress, shared by the
// mappers that run threads (auto, emahd, RAHTM).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace rankmap::mapping::detail {

/// How parallel_for starts a helper thread. Tests substitute one that fails as the system may (a
/// process limit), which cannot be provoked reliably otherwise, least of all as root.
using ThreadStart = std::thread (*)(std::function<void()>);

inline std::thread start_thread(std::function<void()> run) { return std::thread(std::move(run)); }

/// Runs body(i, worker) for every i in [0, count) on up to `threads` threads, the caller
/// included as worker 0 (workers are numbered below `threads`, for per-thread scratch space).
/// Items are handed out one at a time, so results written to per-item slots do not depend on
/// scheduling. `report(done)` runs on the calling thread only (MapOptions::progress must),
/// after each item the caller finishes. The first exception thrown by a body is rethrown here.
/// A thread the system refuses to start (a process limit, no memory) is not waited for: the workers that run
/// take its items, so the loop still ends with every item done, on fewer threads.
inline void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t, int)>& body,
                         const std::function<void(std::size_t)>& report = {}, ThreadStart start = &start_thread) {
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int worker) {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        body(i, worker);
        const std::size_t finished = done.fetch_add(1) + 1;
        if (worker == 0 && report) report(finished);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = count;
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1))) - (count > 0);
  std::vector<std::thread> pool;
  pool.reserve(helpers);  // so that no allocation can fail once a thread runs
  for (std::size_t k = 0; k < helpers; ++k) {
    try {
      pool.push_back(start([&work, worker = static_cast<int>(k) + 1] { work(worker); }));
    } catch (...) {  // std::system_error, or no memory for the thread's state
      break;
    }
  }
  work(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace rankmap::mapping::detail
