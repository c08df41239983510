#include "interrupt_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace virrey::cli {

namespace {

// Fixed storage: the handler may only read memory that never moves and call
// async-signal-safe functions (unlink, sigaction, raise, and the actions
// registered, which must be too).
struct Slot {
  std::atomic<bool> used{false};
  char path[PATH_MAX + 1] = {};
};

std::array<Slot, 8> slots;
std::mutex registering;  // between threads of the program, never in the handler

// Async-signal-safe actions the handler runs too (stopping child processes).
std::array<std::atomic<void (*)() noexcept>, 4> actions{};

// Those that end a process by default and that a user or the system sends
// while an output is written: Ctrl-C, `kill`, a closed terminal, Ctrl-\, a
// reader gone (a pipe), the file size limit (`ulimit -f`).
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};

void remove_registered_outputs() {
  for (auto& slot : slots)
    if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
}

extern "C" void remove_and_reraise(int sig) {
  remove_registered_outputs();
  for (auto& action : actions)
    if (const auto run = action.load(std::memory_order_acquire)) run();
  // The signal's own ending (exit status 128 + N for the shell), as without
  // the handler.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}

// Installed once, for the signals the caller has not chosen to ignore
// (`nohup` and a shell's background jobs ignore some: they stay ignored; but
// SIGPIPE, which main sets back to its default).
void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : kSignals) {
      struct sigaction old = {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
      struct sigaction act = {};
      act.sa_handler = remove_and_reraise;
      ::sigemptyset(&act.sa_mask);
      for (const int other : kSignals) ::sigaddset(&act.sa_mask, other);
      ::sigaction(sig, &act, nullptr);
    }
  });
}

}  // namespace

void end_as_signalled(int sig) {
  remove_and_reraise(sig);
  std::_Exit(128 + sig);  // (raise returned: the signal was blocked)
}

void run_on_interrupt(void (*action)() noexcept) {
  install_handler();
  const std::lock_guard lock(registering);
  for (auto& slot : actions) {
    if (slot.load(std::memory_order_relaxed) == action) return;
    if (!slot.load(std::memory_order_relaxed)) {
      slot.store(action, std::memory_order_release);
      return;
    }
  }
}

int remove_on_interrupt(const std::string& path) {
  if (path.size() > PATH_MAX) return -1;
  install_handler();
  const std::lock_guard lock(registering);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& slot = slots[i];
    if (slot.used.load(std::memory_order_relaxed)) continue;
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    slot.used.store(true, std::memory_order_release);
    return int(i);
  }
  return -1;
}

void keep_on_interrupt(int slot) {
  if (slot < 0 || slot >= int(slots.size())) return;
  const std::lock_guard lock(registering);
  slots[std::size_t(slot)].used.store(false, std::memory_order_release);
}

}  // namespace virrey::cli
