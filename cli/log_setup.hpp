#pragma once

namespace virrey::cli {

// Logs go to stderr, coloured only on a terminal and when NO_COLOR is unset.
void setup_logging();

}  // namespace virrey::cli
