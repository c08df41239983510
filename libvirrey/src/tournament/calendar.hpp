// PGN dates as the tournament checks and grouping read them: a Date or
// EventDate counts only when every digit is known and it is a day of the
// calendar ("2020.13.45" is no date); the grouping into editions also reads
// a month or a year alone as the days it may stand for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "virrey/game/calendar.hpp"

namespace virrey::tournament {

// A yyyymmdd date as PGN writes it, "YYYY.MM.DD".
inline std::string date_text(std::uint32_t v) {
  return fmt::format("{:04}.{:02}.{:02}", v / 10000, v / 100 % 100, v % 100);
}

// Days since 1970-01-01 of a yyyymmdd date (the civil calendar).
inline long day_number(std::uint32_t v) {
  long y = long(v / 10000), m = long(v / 100 % 100), d = long(v % 100);
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

using game::days_in_month;

// "YYYY.MM.DD" of a day of the calendar, as yyyymmdd; else 0.
inline std::uint32_t full_date(std::string_view d) {
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return 0;
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 10; ++i) {
    if (i == 4 || i == 7) continue;
    if (d[i] < '0' || d[i] > '9') return 0;
    v = v * 10 + std::uint32_t(d[i] - '0');
  }
  const std::uint32_t year = v / 10000, month = v / 100 % 100, day = v % 100;
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return 0;
  return v;
}

// The days a Date may stand for, as yyyymmdd: one day ("2024.05.01"), a
// month ("2024.05.??") or a year ("2024.??.??"); {0, 0} for any other.
struct DateSpan {
  std::uint32_t first = 0, last = 0;
};
inline DateSpan date_span(std::string_view d) {
  if (const std::uint32_t day = full_date(d)) return {day, day};
  if (d.size() != 10 || d[4] != '.' || d[7] != '.' || d.substr(8) != "??") return {};
  std::uint32_t year = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (d[i] < '0' || d[i] > '9') return {};
    year = year * 10 + std::uint32_t(d[i] - '0');
  }
  if (d.substr(5, 2) == "??") return {year * 10000 + 101, year * 10000 + 1231};
  if (d[5] < '0' || d[5] > '9' || d[6] < '0' || d[6] > '9') return {};
  const std::uint32_t month = std::uint32_t(d[5] - '0') * 10 + std::uint32_t(d[6] - '0');
  if (month < 1 || month > 12) return {};
  const std::uint32_t first = year * 10000 + month * 100 + 1;
  return {first, first - 1 + days_in_month(year, month)};
}

// A DateSpan as PGN writes it ("2024.05.01", "2024.05.??", "2024.??.??").
inline std::string span_text(DateSpan s) {
  if (s.first == s.last) return date_text(s.first);
  if (s.first % 10000 == 101 && s.last % 10000 == 1231) return fmt::format("{:04}.??.??", s.first / 10000);
  return fmt::format("{:04}.{:02}.??", s.first / 10000, s.first / 100 % 100);
}

}  // namespace virrey::tournament
