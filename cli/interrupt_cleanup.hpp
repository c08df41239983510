// Files a command has half written, removed if the command is interrupted
// (Ctrl-C, `kill`, a closed terminal, a reader gone, `ulimit -f`: SIGINT,
// SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ) so no staged output is left beside the
// file it was to replace. A staged file registers its temporary name while
// it is open and withdraws it once it is put in place or removed.
#pragma once

#include <string>

namespace virrey::cli {

// Registers `path` for removal on one of those signals; returns the slot
// to pass to `keep_on_interrupt`, or -1 when every slot is taken (the file is
// then only not removed on a signal).
int remove_on_interrupt(const std::string& path);

// Withdraws the slot `remove_on_interrupt` gave (-1: nothing).
void keep_on_interrupt(int slot);

// Ends the process as signal `sig` would with the handler installed: the
// registered files removed, the registered actions run, then the signal at
// its default raised (exit status 128 + sig). For a process that ends so
// itself (a reader gone while SIGPIPE is ignored: output.hpp).
[[noreturn]] void end_as_signalled(int sig);

// On those signals, runs `action` too (async-signal-safe: a command that
// starts engines has them killed), whether or not a file is registered.
void run_on_interrupt(void (*action)() noexcept);

}  // namespace virrey::cli
