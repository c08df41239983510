// The process exit codes of every virrey subcommand.
#pragma once

namespace virrey::cli {

constexpr int kExitOk = 0;          // success
constexpr int kExitDataFailed = 1;  // the data failed a check (validate found errors, ...)
constexpr int kExitUsage = 2;       // bad options or arguments
constexpr int kExitIo = 3;          // I/O or database error

// How a command stopped by a signal exits.
constexpr const char* kSignalExitHelp =
    "Stopped by a signal, a command exits 128 + the signal, as the shell reports it: 130 for Ctrl-C, 143 for "
    "SIGTERM, 141 when the reader of its output went away.";
constexpr const char* kExitCodesHelp =
    "Exit codes: 0 success; 1 the data failed a check; 2 usage error; 3 I/O or database error; stopped by\n"
    "a signal, 128 + the signal: 130 Ctrl-C, 143 SIGTERM, 141 the reader of the output went away.";

// Every exit code with its meaning, as the README's table and the man pages
// list them.
struct ExitCode {
  int code;
  const char* meaning;
};
constexpr ExitCode kExitCodes[] = {
    {kExitOk, "success"},
    {kExitDataFailed, "the data failed a check (e.g. validate found an error)"},
    {kExitUsage, "usage error: bad option, FEN, depth or variant"},
    {kExitIo, "I/O or database error"},
};

}  // namespace virrey::cli
