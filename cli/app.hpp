#pragma once

namespace virrey::cli {

// Parses the command line and runs the subcommand; returns the exit code.
int run_app(int argc, char** argv);

}  // namespace virrey::cli
