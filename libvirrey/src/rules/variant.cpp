#include "virrey/rules/variant.hpp"

#include <string>

namespace virrey {

namespace {

struct Alias {
  std::string_view folded;
  Variant variant;
};

// Every accepted name, already folded (lower case, no spaces, '-' or '_').
constexpr Alias kAliases[] = {
    {"", Variant::Standard},
    {"standard", Variant::Standard},
    {"standardchess", Variant::Standard},
    {"fidechess", Variant::Standard},
    {"orthodox", Variant::Standard},
    {"chess", Variant::Standard},
    {"fide", Variant::Standard},
    {"normal", Variant::Standard},        // xboard, TCEC archives
    {"fromposition", Variant::Standard},  // lichess, a game from a set-up position
    {"virrey", Variant::Virrey},
    {"virreychess", Variant::Virrey},
    {"ajedrezdelvirrey", Variant::Virrey},
    {"viceroy", Variant::Virrey},
    {"viceroychess", Variant::Virrey},
    {"modern", Variant::Modern},
    {"modernchess", Variant::Modern},
    {"ajedrezmoderno", Variant::Modern},
};

}  // namespace

std::optional<Variant> resolve_variant(std::string_view name) {
  std::string folded;
  folded.reserve(name.size());
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_' || c == '\t') continue;
    folded.push_back(c >= 'A' && c <= 'Z' ? char(c | 0x20) : c);
  }
  for (const Alias& a : kAliases)
    if (a.folded == folded) return a.variant;
  return std::nullopt;
}

bool names_a_variant(std::string_view tag_value) {
  const auto first = tag_value.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  const auto last = tag_value.find_last_not_of(" \t");
  const std::string_view v = tag_value.substr(first, last - first + 1);
  return v != "-" && v != "?";
}

}  // namespace virrey
