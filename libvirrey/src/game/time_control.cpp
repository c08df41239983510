#include "virrey/game/time_control.hpp"

#include <array>

namespace virrey::game {

namespace {

constexpr std::uint32_t kDay = 86400;

// The unsigned number at the start of `s`, consumed; nullopt when none (or
// it is absurdly large).
std::optional<std::uint32_t> number(std::string_view& s) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    v = v * 10 + std::uint64_t(s[i] - '0');
    if (v > 100000000) return std::nullopt;
  }
  if (i == 0) return std::nullopt;
  s.remove_prefix(i);
  return std::uint32_t(v);
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The first period: its base seconds and increment, and whether it reads
// as a day form ("N/S" or "*/S" with S of a day or more).
struct Period {
  std::uint32_t base = 0, increment = 0;
  bool days = false;
};

std::optional<Period> first_period(std::string_view tc) {
  tc = trimmed(tc);
  tc = tc.substr(0, tc.find(':'));
  Period p;
  if (const auto slash = tc.find('/'); slash != std::string_view::npos) {
    std::string_view moves = tc.substr(0, slash);
    if (moves != "*" && (!number(moves) || !moves.empty())) return std::nullopt;
    tc.remove_prefix(slash + 1);
    auto seconds = number(tc);
    if (!seconds) return std::nullopt;
    p.base = *seconds;
    p.days = *seconds >= kDay;
  } else {
    if (!tc.empty() && tc.front() == '*') tc.remove_prefix(1);  // sandclock
    auto seconds = number(tc);
    if (!seconds) return std::nullopt;
    p.base = *seconds;
  }
  if (!tc.empty() && tc.front() == '+') {
    tc.remove_prefix(1);
    auto inc = number(tc);
    if (!inc) return std::nullopt;
    p.increment = *inc;
  }
  if (!tc.empty()) return std::nullopt;
  return p;
}

constexpr std::array<std::string_view, kTimeClassCount> kNames = {
    "", "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"};

}  // namespace

std::optional<std::uint32_t> estimated_seconds(std::string_view tc) {
  const auto p = first_period(tc);
  if (!p || p->days) return std::nullopt;
  return p->base + 40 * p->increment;
}

TimeClass time_class_of_seconds(std::uint32_t s) {
  return s < 30     ? TimeClass::UltraBullet
         : s < 180  ? TimeClass::Bullet
         : s < 480  ? TimeClass::Blitz
         : s < 1500 ? TimeClass::Rapid
                    : TimeClass::Classical;
}

TimeClass time_class(std::string_view tc) {
  tc = trimmed(tc);
  if (tc == "-") return TimeClass::Correspondence;
  const auto p = first_period(tc);
  if (!p) return TimeClass::Unknown;
  if (p->days) return TimeClass::Correspondence;
  return time_class_of_seconds(p->base + 40 * p->increment);
}

std::string_view time_class_name(TimeClass c) { return kNames[std::size_t(c)]; }

std::optional<TimeClass> parse_time_class(std::string_view name) {
  for (std::size_t i = 1; i < kNames.size(); ++i) {
    if (name.size() != kNames[i].size()) continue;
    bool same = true;
    for (std::size_t j = 0; j < name.size() && same; ++j) same = char(name[j] | 0x20) == kNames[i][j];
    if (same) return TimeClass(i);
  }
  return std::nullopt;
}

}  // namespace virrey::game
