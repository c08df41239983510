#include "file_source.hpp"

#include "virrey/importers/open_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace virrey::importers {

namespace {

std::string errno_message(std::string_view name, int err) {
  std::string msg(name);
  msg += ": ";
  msg += std::error_code(err, std::generic_category()).message();
  return msg;
}

}  // namespace

std::optional<std::string> input_open_error(std::string_view path) {
  if (path == "-") return std::nullopt;
  const std::string name(path);
  struct stat st {};
  if (::stat(name.c_str(), &st) != 0) return errno_message(name, errno);
  if (S_ISDIR(st.st_mode)) return errno_message(name, EISDIR);
  if (!S_ISREG(st.st_mode)) return std::nullopt;
  // Opened as it will be read: its first bytes tell a compression virrey
  // does not read, or text in UTF-16, apart.
  OpenResult opened = open_input(path);
  if (!opened) return std::move(opened.error);
  return std::nullopt;
}

std::unique_ptr<FileSource> FileSource::open(std::string_view path, std::string& error) {
  const bool is_stdin = path == "-";
  std::string name = is_stdin ? std::string("<stdin>") : std::string(path);
  int fd = STDIN_FILENO;
  if (!is_stdin) {
    fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      error = errno_message(name, errno);
      return nullptr;
    }
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = errno_message(name, errno);
    if (!is_stdin) ::close(fd);
    return nullptr;
  }
  if (S_ISDIR(st.st_mode)) {
    error = errno_message(name, EISDIR);
    if (!is_stdin) ::close(fd);
    return nullptr;
  }
  std::uint64_t size = 0;
  if (S_ISREG(st.st_mode)) {
    size = std::uint64_t(st.st_size);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  return std::unique_ptr<FileSource>(new FileSource(fd, !is_stdin, std::move(name), size));
}

FileSource::FileSource(int fd, bool owned, std::string name, std::uint64_t size)
    : fd_(fd), owned_(owned), name_(std::move(name)), size_(size) {}

FileSource::~FileSource() {
  if (owned_) ::close(fd_);
}

ReadResult FileSource::read(std::span<char> buffer) {
  if (!error_.empty()) return {0, error_};
  if (ended_ || buffer.empty()) return {};
  for (;;) {
    const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n > 0) {
      consumed_ += std::uint64_t(n);
      return {std::size_t(n), {}};
    }
    if (n == 0) {
      ended_ = true;
      return {};
    }
    if (errno == EINTR) continue;
    error_ = errno_message(name_, errno);
    return {0, error_};
  }
}

}  // namespace virrey::importers
