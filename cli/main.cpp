#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <exception>
#include <system_error>

#include "virrey/base/log.hpp"

#include "app.hpp"
#include "exit_codes.hpp"
#include "log_setup.hpp"

namespace {

// A standard stream closed by the caller (`>&-`) would be taken by the first
// file the command opens: the report would land in --output, the log in the
// database's folder. Each closed one is held by /dev/null opened the wrong
// way round (standard input for writing, the outputs for reading), so that
// using it fails (and is reported) instead: a closed standard input is no
// empty input.
void hold_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int held = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
      if (held != -1 && held != fd) {
        ::dup2(held, fd);
        ::close(held);
      }
    }
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_streams();
  virrey::cli::setup_logging();
  int code = virrey::cli::kExitIo;
  try {
    code = virrey::cli::run_app(argc, argv);
  } catch (const std::system_error& e) {
    // A write that failed under a writer that throws (a full disk, a closed pipe).
    virrey::log::error("cannot write the output: {}", e.code().message());
    return virrey::cli::kExitIo;
  } catch (const std::exception& e) {
    virrey::log::critical("internal error: {}", e.what());
    return virrey::cli::kExitIo;
  }
  // Whatever a command wrote to standard output must have reached it.
  if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && code != virrey::cli::kExitIo) {
    virrey::log::error("cannot write standard output");
    return virrey::cli::kExitIo;
  }
  return code;
}
