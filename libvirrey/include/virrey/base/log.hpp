// The diagnostics virrey writes for people: one line each on stderr
// ("virrey: warning: ..."), at a level the user chooses (--quiet, --verbose).
// Callers format with fmt's checked format strings; the text is built here
// through fmt's compiled formatter and handed to spdlog, which only
// src/base/log.cpp includes.
#pragma once

#include <fmt/core.h>

#include <cstddef>
#include <string_view>
#include <utility>

namespace virrey::log {

enum class Level { debug, info, warn, error, critical, off };

// Whether a line at this level would be written.
bool enabled(Level level);
// Lines below `level` are dropped from now on.
void set_level(Level level);
// Lines go to stderr as "virrey: LEVEL: text", the level coloured when
// `colour` (a terminal, NO_COLOR unset: the caller decides).
void to_stderr(bool colour);
// The longest message written whole; a longer one is cut short.
inline constexpr std::size_t kMaxMessageBytes = 2048;
// One line, already formatted; its control bytes and bytes that are not
// UTF-8 are written \xNN.
void write(Level level, std::string_view line);

template <typename... Args>
void at(Level level, fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(level)) write(level, fmt::vformat(format, fmt::make_format_args(args...)));
}

// A line taken as it is, braces and all.
inline void debug(std::string_view line) { write(Level::debug, line); }
inline void info(std::string_view line) { write(Level::info, line); }
inline void warn(std::string_view line) { write(Level::warn, line); }
inline void error(std::string_view line) { write(Level::error, line); }
inline void critical(std::string_view line) { write(Level::critical, line); }

template <typename... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::debug, format, std::forward<Args>(args)...);
}
template <typename... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::info, format, std::forward<Args>(args)...);
}
template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::warn, format, std::forward<Args>(args)...);
}
template <typename... Args>
void error(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::error, format, std::forward<Args>(args)...);
}
template <typename... Args>
void critical(fmt::format_string<Args...> format, Args&&... args) {
  at(Level::critical, format, std::forward<Args>(args)...);
}

}  // namespace virrey::log
