// A bad command line told in virrey's words (exit code 2 is the caller's).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace virrey::cli {

// When a command needs a subcommand and the command line names none: the
// word that stands where it should ("virrey serach"), with the commands it
// could have meant. Nothing when no such word is there.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv);

// CLI11's error, as virrey's errors are written on stderr.
void write_usage_error(const CLI::App& app, const CLI::ParseError& e);

// The arguments no option took, in the order typed, as a usage error; false
// when there are none.
bool write_stray_arguments(const CLI::App& app);

}  // namespace virrey::cli
