#include <exception>

#include "virrey/base/log.hpp"

#include "app.hpp"
#include "exit_codes.hpp"
#include "log_setup.hpp"

int main(int argc, char** argv) {
  virrey::cli::setup_logging();
  try {
    return virrey::cli::run_app(argc, argv);
  } catch (const std::exception& e) {
    virrey::log::critical("internal error: {}", e.what());
    return virrey::cli::kExitIo;
  }
}
