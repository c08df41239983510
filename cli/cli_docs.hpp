// Man pages and shell completion written from the CLI11 definitions of
// app.cpp, so that they name every command, option and choice the binary
// accepts and cannot drift from it.
#pragma once

#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace virrey::cli {

// The bash completion script: subcommands, options, the choices of options
// with a fixed set of values (IsMember checks, --variant), files otherwise.
std::string bash_completion(const CLI::App& app);

// Writes virrey.1 and virrey-COMMAND.1 for every visible command into `dir`
// (which must exist). `data_dir` is where the sample data is installed.
// Returns an exit code (kExitIo when a page cannot be written).
int write_man_pages(const CLI::App& app, const std::string& dir, const std::string& data_dir);

}  // namespace virrey::cli
