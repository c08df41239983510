#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <system_error>

#include "virrey/base/log.hpp"

#include "app.hpp"
#include "exit_codes.hpp"
#include "log_setup.hpp"
#include "output.hpp"

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

// Why a resource ran out, from the exception that says so.
std::string resource_failure(const std::exception_ptr& e) {
  try {
    if (e) std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "out of memory";
  } catch (const std::system_error& s) {
    return s.code().message();
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
  }
  return "a thread could not be started or stopped";
}

// A failure where no caller can take it (a thread that cannot be started,
// memory that runs out inside RocksDB or on a worker thread): said plainly,
// with exit 3, instead of an abort. What was committed stays in the
// database (every commit is whole); plain stdio, since memory may be gone.
[[noreturn]] void on_terminate() {
  const std::string why = resource_failure(std::current_exception());
  std::fprintf(stderr,
               "virrey: error: stopped: %s (memory or thread limits reached: `ulimit -v`, `ulimit -u`?); "
               "what was committed is kept\n",
               why.c_str());
  std::fflush(stderr);
  std::_Exit(virrey::cli::kExitIo);
}

}  // namespace

int main(int argc, char** argv) {
  // SIGPIPE at its default whatever the caller left it at (systemd and some
  // job runners ignore it): a reader that goes away ends every command at
  // once, exit 141, as README says. A command that runs engines ignores it
  // again once it starts one, and ends so by hand (end_if_reader_gone).
  std::signal(SIGPIPE, SIG_DFL);
  std::set_terminate(on_terminate);
  hold_closed_standard_streams();
  virrey::cli::setup_logging();
  int code = virrey::cli::kExitIo;
  try {
    code = virrey::cli::run_app(argc, argv);
  } catch (const std::bad_alloc&) {
    virrey::log::error("stopped: out of memory (`ulimit -v`?); what was committed is kept");
    return virrey::cli::kExitIo;
  } catch (const std::system_error& e) {
    if (e.code() == std::errc::resource_unavailable_try_again) {  // a thread that could not start
      virrey::log::error(
          "stopped: {} (thread or memory limits: `ulimit -u`, `ulimit -v`?); what was committed is kept",
          e.code().message());
      return virrey::cli::kExitIo;
    }
    // A write that failed under a writer that throws (a full disk, a closed pipe).
    if (e.code().category() == std::generic_category() || e.code().category() == std::system_category())
      virrey::cli::end_if_reader_gone(e.code().value());
    virrey::log::error("cannot write the output: {}", e.code().message());
    return virrey::cli::kExitIo;
  } catch (const std::exception& e) {
    virrey::log::critical("internal error: {}", e.what());
    return virrey::cli::kExitIo;
  }
  // Whatever a command wrote to standard output must have reached it.
  const auto failure = virrey::cli::flush_failure(stdout);
  if (failure && code != virrey::cli::kExitIo) {
    virrey::log::error("cannot write standard output{}", *failure);
    return virrey::cli::kExitIo;
  }
  return code;
}
