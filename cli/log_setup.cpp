#include "log_setup.hpp"

#include <unistd.h>
#include <cstdlib>

#include "virrey/base/log.hpp"

namespace virrey::cli {

void setup_logging() { log::to_stderr(isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr); }

}  // namespace virrey::cli
