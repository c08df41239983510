// A live progress line on stderr, shown only when stderr is a terminal.
#pragma once

#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdio>

#include <fmt/format.h>

namespace virrey::cli {

class Progress {
 public:
  Progress() : enabled_(isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}
  ~Progress() { finish(); }

  void update(std::uint64_t games, std::uint64_t bytes) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    fmt::print(stderr, "\r{} games, {:.1f} MB read, {:.0f} games/s   ", games, bytes / 1e6,
               s > 0 ? games / s : 0.0);
    shown_ = true;
  }
  void finish() {
    if (shown_) fmt::print(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_{};
};

}  // namespace virrey::cli
