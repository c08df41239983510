// A child process with its standard input and output on pipes: lines written
// to it, lines read from it with a deadline (never blocking past it), killed
// and reaped on demand or when the object goes away.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"

namespace virrey::engine {

class Process {
 public:
  using Clock = std::chrono::steady_clock;
  enum class ReadStatus : std::uint8_t { Line, Timeout, Closed };

  Process() = default;
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // Starts argv[0] (a path) with these arguments; its stderr is discarded.
  Status start(const std::vector<std::string>& argv);
  bool running() const { return pid_ > 0; }
  int pid() const { return pid_; }
  // Writes one line (a newline is appended); false when the child is gone.
  bool write_line(std::string_view line);
  // The next line (without its newline) into `line`, waiting until `deadline`.
  ReadStatus read_line(std::string& line, Clock::time_point deadline);
  // Kills the child (SIGKILL) and reaps it.
  void kill();

 private:
  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;  // bytes read past the last line handed out
  bool eof_ = false;
};

// Kills (SIGKILL) every child process a Process has started and not yet
// killed: for a signal handler, before the program ends by the signal (a
// busy engine would search on, its parent gone). Async-signal-safe.
void kill_running_processes() noexcept;

}  // namespace virrey::engine
