#include "log_setup.hpp"

#include <unistd.h>
#include <cstdlib>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace virrey::cli {

void setup_logging() {
  const bool colour = isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr;
  auto logger =
      spdlog::stderr_color_mt("virrey", colour ? spdlog::color_mode::automatic : spdlog::color_mode::never);
  logger->set_pattern("virrey: %^%l%$: %v");
  spdlog::set_default_logger(logger);
}

}  // namespace virrey::cli
