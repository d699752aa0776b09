// Opening and closing files for the readers and writers, with errors that name the path.
#pragma once

#include <fstream>
#include <string>

namespace rankmap::io {

/// Throws InputError "cannot open 'path': reason" when the file cannot be read.
std::ifstream open_input(const std::string& path);
/// Throws InputError "cannot write 'path': reason" when the file cannot be created.
std::ofstream open_output(const std::string& path);
/// Flushes and closes; throws InputError if any write failed (disk full, I/O error).
void close_output(std::ofstream& out, const std::string& path);

}  // namespace rankmap::io
