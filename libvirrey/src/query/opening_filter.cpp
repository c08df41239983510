// The opening condition of a game filter (game_filter.hpp): its parsing and
// its test of one game's ECO code and opening name.
#include <cctype>

#include <fmt/format.h>

#include "virrey/query/game_filter.hpp"
#include "virrey/query/opening_book.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::query {

namespace {

// A letter and two digits ("A00".."E99" in chess; ECO files of other variants
// use other letters, M01 say), then Scid's letter and digit 1-4; upper-cased as
// ECO tags write it.
std::optional<std::string> eco_code(std::string_view text) {
  std::string code(text);
  if (!code.empty()) code[0] = char(std::toupper(std::uint8_t(code[0])));
  if (code.size() < 3 || code.size() > 5 || code[0] < 'A' || code[0] > 'Z' ||
      !std::isdigit(std::uint8_t(code[1])) || !std::isdigit(std::uint8_t(code[2])))
    return std::nullopt;
  if (code.size() >= 4) code[3] = char(std::tolower(std::uint8_t(code[3])));
  if (code.size() >= 4 && (code[3] < 'a' || code[3] > 'z')) return std::nullopt;
  if (code.size() == 5 && (code[4] < '1' || code[4] > '4')) return std::nullopt;
  return code;
}

}  // namespace

Result<OpeningCondition> parse_eco_range(std::string_view text) {
  const auto bad = [&] {
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("bad ECO code or range '{}': expected e.g. B90, A00-B99, C60-, -A99", text)};
  };
  OpeningCondition c;
  const std::size_t dash = text.find('-');
  const std::string_view lo = dash == std::string_view::npos ? text : text.substr(0, dash);
  const std::string_view hi = dash == std::string_view::npos ? text : text.substr(dash + 1);
  if (lo.empty() && hi.empty()) return bad();
  if (!lo.empty() && !(c.eco_from = eco_code(lo))) return bad();
  if (!hi.empty() && !(c.eco_to = eco_code(hi))) return bad();
  if (c.eco_from && c.eco_to && *c.eco_from > *c.eco_to && c.eco_from->rfind(*c.eco_to, 0) != 0)
    return Error{ErrorKind::InvalidArgument, fmt::format("ECO range '{}' ends before it begins", text)};
  return c;
}

bool OpeningCondition::matches(std::string_view eco, std::string_view opening_name) const {
  if (eco_from || eco_to) {
    // Only a code is in a range: "?", "-", "A100" or "C" are not.
    while (!eco.empty() && (eco.front() == ' ' || eco.front() == '\t')) eco.remove_prefix(1);
    while (!eco.empty() && (eco.back() == ' ' || eco.back() == '\t')) eco.remove_suffix(1);
    const std::optional<std::string> code = eco_code(eco);
    if (!code) return false;
    if (eco_from && *code < *eco_from) return false;
    if (eco_to && *code > *eco_to && code->rfind(*eco_to, 0) != 0) return false;
  }
  if (name) {
    const std::string want = store::normalize_tag_value(*name);
    const std::string have = store::normalize_tag_value(opening_name);
    if (have.empty() || have == "?" || have == "-" || have.find(want) == std::string::npos) return false;
  }
  return true;
}

std::string tagged_opening_name(const game::GameRecord& game) {
  auto tag = [&](std::string_view t) {
    std::string_view v = game.tag(t);
    return v == "?" ? std::string_view{} : v;
  };
  return join_opening_name(tag("Opening"), tag("Variation"), tag("SubVariation"));
}

}  // namespace virrey::query
