// --pattern, --fenpattern, --to-move and --pattern-plies as a
// query::PatternCondition (the languages: query/board_pattern.hpp).
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "filter_options.hpp"

namespace virrey::cli {

Result<std::optional<query::PatternCondition>> pattern_condition(const PatternOptions& o,
                                                                 bool either_colour) {
  using Out = std::optional<query::PatternCondition>;
  auto usage = [](std::string message) { return Error{ErrorKind::InvalidArgument, std::move(message)}; };
  if (o.pieces.empty() && o.fen.empty()) {
    if (!o.to_move.empty() || !o.plies.empty())
      return usage("--to-move and --pattern-plies need --pattern or --fenpattern");
    return Out{};
  }
  query::PatternCondition c;
  c.either_colour = either_colour;
  // A pattern given again adds nothing (--pattern terms all hold,
  // --fenpattern's any one): read once, so that repeating one costs nothing.
  std::set<std::string_view> seen;
  for (const std::string& text : o.pieces)
    if (seen.insert(text).second)
      if (Status st = c.pieces.add(text); !st)
        return usage(fmt::format("--pattern '{}': {}", text, st.error().message));
  seen.clear();
  for (const std::string& text : o.fen) {
    if (!seen.insert(text).second) continue;
    auto p = query::parse_fen_pattern(text);
    if (!p) return usage(fmt::format("--fenpattern '{}': {}", text, p.error().message));
    c.fen_any.push_back(std::move(*p));
  }
  if (!o.to_move.empty()) {
    auto side = query::parse_side(o.to_move);
    if (!side) return usage(fmt::format("--to-move: {}", side.error().message));
    c.to_move = *side;
  }
  if (!o.plies.empty()) {
    auto plies = query::parse_ply_range(o.plies);
    if (!plies) return usage(fmt::format("--pattern-plies: {}", plies.error().message));
    c.plies = *plies;
  }
  return Out{std::move(c)};
}

}  // namespace virrey::cli
