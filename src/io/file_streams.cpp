// File opening with errors that name the path and the operating system's reason.
#include "io/file_streams.hpp"

#include <rankmap/types.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace rankmap::io {

namespace {

std::string reason() { return errno != 0 ? std::strerror(errno) : "unknown error"; }

}  // namespace

std::ifstream open_input(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("cannot open '" + path + "': it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open '" + path + "': " + reason());
  return in;
}

std::ofstream open_output(const std::string& path) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError("cannot write '" + path + "': " + reason());
  return out;
}

void close_output(std::ofstream& out, const std::string& path) {
  errno = 0;
  out.close();
  if (!out) throw InputError("cannot write '" + path + "': " + reason());
}

}  // namespace rankmap::io
