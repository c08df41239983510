// The process exit codes of every virrey subcommand.
#pragma once

namespace virrey::cli {

constexpr int kExitOk = 0;          // success
constexpr int kExitDataFailed = 1;  // the data failed a check (validate found errors, ...)
constexpr int kExitUsage = 2;       // bad options or arguments
constexpr int kExitIo = 3;          // I/O or database error

constexpr const char* kExitCodesHelp =
    "Exit codes: 0 success; 1 the data failed a check; 2 usage error; 3 I/O or database error.";

}  // namespace virrey::cli
