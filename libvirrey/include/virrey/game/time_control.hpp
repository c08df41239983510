// The clock a game was played with, from its TimeControl tag (PGN standard
// 9.6.1: "?", "-", or ':'-separated periods "moves/seconds", "seconds",
// "seconds+increment", "*seconds"), sorted into lichess's classes by the
// estimated duration of a 40-move game: base + 40 x increment seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace virrey::game {

// In ascending order of time; Unknown: no tag, "?" or unreadable.
enum class TimeClass : std::uint8_t {
  Unknown = 0,
  UltraBullet,     // < 30 s
  Bullet,          // < 180 s
  Blitz,           // < 480 s
  Rapid,           // < 1500 s
  Classical,       // the rest
  Correspondence,  // "-" (no clock), or a first period of a day or more ("1/86400", "*/172800")
};
constexpr int kTimeClassCount = 7;

// base + 40 x increment of the first period, in seconds; nullopt for "-", a
// day form, or text that is no time control.
std::optional<std::uint32_t> estimated_seconds(std::string_view time_control);
// The class of a TimeControl tag value.
TimeClass time_class(std::string_view time_control);
// The class of an estimated duration in seconds.
TimeClass time_class_of_seconds(std::uint32_t seconds);
// "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence";
// "" for Unknown.
std::string_view time_class_name(TimeClass c);
// The class named (as time_class_name, any case); nullopt for other text.
std::optional<TimeClass> parse_time_class(std::string_view name);

}  // namespace virrey::game
