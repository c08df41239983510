#include "virrey/base/small_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace virrey {

Status open_to_read(const std::string& path, std::ifstream& in) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error{ErrorKind::Io, fmt::format("cannot read {}: it is a directory", path)};
  errno = 0;
  in.open(path, std::ios::binary);
  if (!in)
    return Error{ErrorKind::Io, errno ? fmt::format("cannot read {}: {}", path, std::strerror(errno))
                                      : fmt::format("cannot read {}", path)};
  return {};
}

Result<std::string> read_small_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  std::ifstream in;
  if (Status st = open_to_read(path, in); !st) return st.error();
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > max_bytes)
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("{} is over {} MiB: not {}", path, max_bytes >> 20, what)};
  }
  if (in.bad()) return Error{ErrorKind::Io, fmt::format("cannot read {}", path)};
  return text;
}

}  // namespace virrey
