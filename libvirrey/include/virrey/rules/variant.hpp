// The closed set of variants virrey knows, and one descriptor table that says
// everything about each of them that is data rather than code.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace virrey {

enum class Variant : std::uint8_t { Standard = 0, Virrey = 1, Modern = 2 };
constexpr int kVariantCount = 3;

enum class PromotionRule : std::uint8_t {
  Choice,      // the mover picks from the variant's promotion pieces
  FixedByFile  // Virrey: the piece of the initial array on the destination file
};

struct VariantInfo {
  Variant variant;
  std::string_view name;      // canonical PGN Variant tag value
  std::string_view cli_name;  // lower-case name used on the command line
  int width;                  // files
  int height;                 // ranks
  std::string_view start_fen;
  PromotionRule promotion_rule;
};

constexpr std::array<VariantInfo, kVariantCount> kVariants{{
    {Variant::Standard, "Standard", "standard", 8, 8,
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PromotionRule::Choice},
    {Variant::Virrey, "Virrey", "virrey", 8, 8, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     PromotionRule::FixedByFile},
    {Variant::Modern, "Modern", "modern", 9, 9,
     "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1", PromotionRule::Choice},
}};

constexpr const VariantInfo& info(Variant v) { return kVariants[std::size_t(v)]; }

// Resolves a PGN Variant tag value or a --variant argument: case-insensitive,
// ignoring spaces, '-' and '_'. An empty value means standard chess.
std::optional<Variant> resolve_variant(std::string_view name);

// Whether a Variant tag names a variant at all: an empty value, "-" or "?"
// says nothing, and the game is read as having no Variant tag (the default
// variant, --variant).
bool names_a_variant(std::string_view tag_value);

}  // namespace virrey
