// A mapping computed in a forked child process that is killed at a deadline (child_process.hpp).
#include "offline/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace rankmap::mapping::detail {

namespace {

/// What the child sends: this header, then `bytes` bytes of either the mapping's SlotIds or the
/// message of the exception `compute` threw.
enum class Kind : std::uint32_t { mapping = 0, input_error = 1, other_error = 2 };
struct Header {
  Kind kind;
  std::uint32_t unused;
  std::uint64_t bytes;
};

[[noreturn]] void fail(const char* call) { throw std::system_error(errno, std::generic_category(), call); }

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);  // Linux frees the descriptor even when close reports EINTR, so no retry
    fd_ = -1;
  }

 private:
  int fd_;
};

/// waitpid, again after a signal. ECHILD (the caller ignores SIGCHLD, so the kernel reaped the
/// child itself) yields -1: the status is then unknown.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno == ECHILD) return -1;
    if (errno != EINTR) fail("waitpid");
  }
  return status;
}

/// Owns a running child until it is reaped: an exception in the parent (a failed poll, no memory
/// for the answer) kills and reaps it, so no child outlives the call and no zombie is left.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  /// Waits for the child's end and returns its waitpid status (-1: unknown).
  int wait() { return reap(std::exchange(pid_, 0)); }
  /// Kills the child and reaps it.
  void stop() {
    ::kill(pid_, SIGKILL);
    wait();
  }

 private:
  pid_t pid_;
};

/// Writes all of `data` despite short writes and signals; false when the parent has gone.
bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

/// The child's whole life: compute, send the answer, _exit.
[[noreturn]] void child_main(int fd, const std::function<Mapping()>& compute) {
  Kind kind = Kind::mapping;
  Mapping result;
  std::string message;
  try {
    result = compute();
  } catch (const InputError& e) {
    kind = Kind::input_error;
    message = e.what();
  } catch (const std::exception& e) {
    kind = Kind::other_error;
    message = e.what();
  } catch (...) {
    kind = Kind::other_error;
    message = "an exception that is not a std::exception";
  }
  const void* payload = kind == Kind::mapping ? static_cast<const void*>(result.data()) : message.data();
  const std::size_t bytes = kind == Kind::mapping ? result.size() * sizeof(SlotId) : message.size();
  const Header header{kind, 0, bytes};
  const bool sent = write_all(fd, &header, sizeof header) && write_all(fd, payload, bytes);
  ::_exit(sent ? 0 : 1);
}

/// Reads from `fd` until the whole answer is in, EOF, or the deadline. Returns false at the
/// deadline. The answer's length, not EOF alone, ends a successful read: a child forked at the
/// same time by another thread of the parent may hold a copy of the pipe's write end.
bool read_answer(int fd, const Deadline& deadline, std::vector<char>& answer) {
  char buffer[65536];
  for (;;) {
    if (answer.size() >= sizeof(Header)) {
      Header header;
      std::memcpy(&header, answer.data(), sizeof header);
      if (answer.size() - sizeof header >= header.bytes) return true;
    }
    const double remaining = deadline.remaining_ms();
    if (remaining <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min(std::ceil(remaining), double(INT_MAX))));
    if (ready < 0 && errno != EINTR) fail("poll");
    if (ready <= 0) continue;  // a signal or the timeout: the loop checks the deadline again
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) fail("read");
    if (n == 0) return true;  // EOF before a whole answer: the child died; the caller says how
    answer.insert(answer.end(), buffer, buffer + n);
  }
}

std::string death_of(int status) {
  if (status == -1) return "ended without a whole answer";
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status)) + " without a whole answer";
}

}  // namespace

std::optional<Mapping> run_in_child(const Deadline& deadline, const std::function<Mapping()>& compute) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) fail("pipe2");  // CLOEXEC: a program another thread execs gets neither end
  Fd read_end(ends[0]), write_end(ends[1]);
  const pid_t pid = ::fork();
  if (pid < 0) fail("fork");
  if (pid == 0) {
    ::close(read_end.get());
    child_main(write_end.get(), compute);
  }
  Child child(pid);
  write_end.reset();  // else EOF would never come when the child dies
  std::vector<char> answer;
  if (!read_answer(read_end.get(), deadline, answer)) {
    child.stop();
    return std::nullopt;
  }
  const int status = child.wait();
  Header header{};
  if (answer.size() >= sizeof header) std::memcpy(&header, answer.data(), sizeof header);
  if (answer.size() < sizeof header || answer.size() - sizeof header < header.bytes)
    throw std::runtime_error("the child process running the mapper " + death_of(status));
  const char* payload = answer.data() + sizeof header;
  if (header.kind == Kind::input_error) throw InputError(std::string(payload, header.bytes));
  if (header.kind != Kind::mapping) throw std::runtime_error(std::string(payload, header.bytes));
  Mapping mapping(header.bytes / sizeof(SlotId));
  std::memcpy(mapping.data(), payload, mapping.size() * sizeof(SlotId));
  return mapping;
}

}  // namespace rankmap::mapping::detail
