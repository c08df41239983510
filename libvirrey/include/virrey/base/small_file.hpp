// A whole file read into memory, for the small files a user names beside
// the games (an ECO file, a TRF): bounded, so that /dev/zero or a
// collection given by mistake does not fill the memory.
#pragma once

#include <cstddef>
#include <fstream>
#include <string>
#include <string_view>

#include "virrey/base/error.hpp"

namespace virrey {

// The file's bytes. Io errors for a directory or a file that cannot be
// read; InvalidArgument "PATH is over N MiB: not `what`" past max_bytes.
Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// Opens `in` on the file to read it (as read_small_file does, a file of any
// size): Io errors for a directory ("cannot read PATH: it is a directory")
// or a file that cannot be opened, with the system's reason.
Status open_to_read(const std::string& path, std::ifstream& in);

}  // namespace virrey
