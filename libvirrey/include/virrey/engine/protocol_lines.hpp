// The lines an engine writes, read one at a time: UCI ("id name", "info",
// "bestmove") and XBoard/CECP ("feature", thinking output, "move", a result
// or an error instead of a move). Pure functions of the line's text, total on
// any bytes: work linear in the line's length, no exception, scores kept
// within bounds so that no later arithmetic on them can overflow. The
// drivers read through them; so does the fuzz target.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/engine/engine.hpp"

namespace virrey::engine {

// Scores beyond these are not an engine's and make their line ignored.
constexpr long long kMaxCentipawns = 1'000'000;
constexpr long long kMaxMateMoves = 10'000;

// The words of a line, separated by spaces and tabs.
std::vector<std::string_view> split_words(std::string_view line);
// A decimal integer, the whole text ("+5" and "-5" too), or nullopt.
std::optional<long long> parse_int(std::string_view text);

// Where a search stands after a line of the engine's answer.
enum class SearchLine : std::uint8_t { More, Done };

// UCI: the name of "id name NAME", or nullopt for another line.
std::optional<std::string> uci_id_name(std::string_view line);
// UCI: the values ("var V") of "option name UCI_Variant type combo ...", the
// variants the engine plays, or nullopt for another line.
std::optional<std::vector<std::string>> uci_variants(std::string_view line);
// UCI, after "go": an "info" line with a score (multipv 1) becomes the latest
// result (a bound keeps an exact score already read); "bestmove M" ends the
// search (an error when it has no move or no score came before it).
std::optional<EngineError> uci_search_line(std::string_view line, RawResult& out, SearchLine& state);

// An option an engine announces, as far as virrey checks a value given for
// it: UCI "option name N type T [min A] [max B] [var V]...", XBoard
// `feature option="N -T ..."` (spin and slider: "VALUE MIN MAX"; combo:
// "A /// *B /// C").
struct EngineOption {
  std::string name;
  std::string type;  // "spin", "check", "combo", "string", "button", ...
  long long min = 0, max = 0;
  std::vector<std::string> values;  // a combo's
};
std::optional<EngineOption> uci_option(std::string_view line);
std::optional<EngineOption> xboard_option(std::string_view feature_line);
// Why `value` is refused for the option `name` among those an engine
// announced, or nullopt: a name it does not have (case-blind), a spin out of
// its bounds or not a whole number, a check not true/false (UCI) or 0/1
// (XBoard), a combo value not among its values.
std::optional<std::string> option_refusal(const std::vector<EngineOption>& offered, std::string_view name,
                                          std::string_view value, Protocol protocol);

// XBoard: the value of `key="..."` or `key=word` in a "feature" line.
std::optional<std::string> xboard_feature(std::string_view line, std::string_view key);
// XBoard: whether the `variants` feature's value (a comma-separated list)
// holds `name`.
bool xboard_lists_variant(std::string_view variants, std::string_view name);
// XBoard's score in centipawns, or a mate written as 100000, 32000 or 16000
// minus plies (Sjaak II and most CECP engines); nullopt beyond the bounds.
std::optional<Score> xboard_score(long long value);
// XBoard, after "go": thinking output ("depth score time nodes pv...")
// becomes the latest result; "move M" (or "usermove M") ends the search; a
// result, "resign", "Illegal..." or "Error..." instead of a move is an error
// (its text in out.claim).
std::optional<EngineError> xboard_search_line(std::string_view line, RawResult& out, SearchLine& state);

}  // namespace virrey::engine
