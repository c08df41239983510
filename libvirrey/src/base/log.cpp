#include "virrey/base/log.hpp"

#include <algorithm>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "virrey/base/quoted_text.hpp"

namespace virrey::log {

namespace {

spdlog::level::level_enum to_spdlog(Level level) {
  switch (level) {
    case Level::debug: return spdlog::level::debug;
    case Level::info: return spdlog::level::info;
    case Level::warn: return spdlog::level::warn;
    case Level::error: return spdlog::level::err;
    case Level::critical: return spdlog::level::critical;
    case Level::off: break;
  }
  return spdlog::level::off;
}

}  // namespace

bool enabled(Level level) { return level != Level::off && spdlog::should_log(to_spdlog(level)); }

void set_level(Level level) { spdlog::set_level(to_spdlog(level)); }

void to_stderr(bool colour) {
  auto logger =
      spdlog::stderr_color_mt("virrey", colour ? spdlog::color_mode::automatic : spdlog::color_mode::never);
  logger->set_pattern("virrey: %^%l%$: %v");
  spdlog::set_default_logger(std::move(logger));
}

void write(Level level, std::string_view line) {
  if (level == Level::off) return;
  // Whatever input a message quotes, it reaches the terminal as one line of
  // text: control bytes and bytes that are not UTF-8 as \xNN, and a message
  // of more than kMaxMessageBytes cut short with its full length.
  const bool plain = line.size() <= kMaxMessageBytes &&
                     std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  if (plain)
    spdlog::log(to_spdlog(level), line);
  else
    spdlog::log(to_spdlog(level), quoted_text(line, kMaxMessageBytes));
}

}  // namespace virrey::log
