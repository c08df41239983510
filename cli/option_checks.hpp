// What virrey checks of every option's values beyond CLI11's own, and the
// names the options were given by on this command line.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace virrey::cli {

// Keeps the command line's words (argv after the program's name) for the
// names options were given by; called once, before parsing.
void remember_command_line(int argc, char** argv);
const std::vector<std::string_view>& command_line_words();

// The names of the options given (as typed: one of their aliases), but
// those of `except`, in their order.
std::vector<std::string> names_given(const std::vector<CLI::Option*>& options,
                                     std::initializer_list<std::string_view> except);

// The option `name` ("--db", "-q") of a command or of those above it, or nullptr.
const CLI::Option* option_named(const CLI::App* cmd, const std::string& name);

// Whether `v` is a number written in decimal: a sign, digits, and unless
// `whole`, a point with digits and an exponent.
bool written_in_decimal(std::string_view v, bool whole);

// Adds, to every option of `cmd` and its subcommands, the checks every value
// gets: an empty or blank value refused (unless the option's own check
// words it: validators named "a file name", "path" or "not blank"), whole
// numbers read in decimal, and an option's name refused as a value.
void refuse_option_names_as_values(CLI::App* cmd);

}  // namespace virrey::cli
