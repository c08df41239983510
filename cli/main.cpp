#include <cstdio>
#include <exception>
#include <system_error>

#include "virrey/base/log.hpp"

#include "app.hpp"
#include "exit_codes.hpp"
#include "log_setup.hpp"

int main(int argc, char** argv) {
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
