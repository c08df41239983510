// The civil calendar as PGN dates need it.
#pragma once

#include <cstdint>

namespace virrey::game {

// The days of a month (1..12) of a year of the civil calendar.
inline std::uint32_t days_in_month(std::uint32_t year, std::uint32_t month) {
  constexpr std::uint8_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

}  // namespace virrey::game
