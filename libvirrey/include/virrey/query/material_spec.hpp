// Material conditions: which material balances a search asks for, parsed
// from the text of `--material`, and the rule that decides from a game's
// balances (with the plies where each holds) whether and where it matches.
//
// Text (README "Material search"):
//   KVR-KR                  exact: White's men, a dash, Black's (K optional)
//   V>=2                    counts for White: = >= <= > < and ranges (P=2-4)
//   Q=0 V>=1 vs Q=1         terms before `vs` are White's, after it Black's
//   B+N>=2                  a sum of piece types
//   KVR vs Q>=1             a bare group of letters: that side exactly
// Piece letters K Q R B N P V M, either case. Unnamed types are free in the
// term form; an exact group fixes every type of its side.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/rules/material.hpp"
#include "virrey/rules/types.hpp"

namespace virrey::query {

class MaterialSpec {
 public:
  MaterialSpec();
  bool matches(Material m) const;
  // The one balance the spec allows, when it fixes every count of both sides.
  std::optional<Material> exact() const;
  // The fewest men of each type a matching balance has (for a pattern's or
  // the planner's use).
  int min_count(Color c, PieceType pt) const { return box_.lo[index(c)][index(pt)]; }
  // The least and most men of each type a matching balance may have (sums
  // of types aside: every match is in the box, not all of the box matches).
  const MaterialBounds& bounds() const { return box_; }
  // The balances with at least these men of each type (kings aside).
  static MaterialSpec at_least(const std::array<std::array<std::uint8_t, kPieceTypeCount>, 2>& mins) {
    MaterialSpec s;
    for (int side = 0; side < 2; ++side)
      for (int t = 0; t < kPieceTypeCount; ++t)
        s.box_.lo[side][t] = t == index(PieceType::King) ? 0 : mins[std::size_t(side)][std::size_t(t)];
    return s;
  }

  // Parsing fills these; errors name the column (1-based) of the text.
  friend Result<MaterialSpec> parse_material_spec(std::string_view text);

 private:
  struct Sum {
    Color side = Color::White;
    std::uint16_t types = 0;  // bit per PieceType
    int lo = 0, hi = Material::kMaxCount * 8;
  };
  MaterialBounds box_;  // the count of each type, per side
  std::vector<Sum> sums_;
};

Result<MaterialSpec> parse_material_spec(std::string_view text);

struct MaterialCondition {
  MaterialSpec spec;
  bool either_colour = false;   // also with White's and Black's men swapped
  std::uint32_t min_plies = 1;  // held in at least this many consecutive positions
};

// Balances matching the condition, in either orientation when asked.
bool material_matches(const MaterialCondition& c, Material m);

// A material balance of a game and its plies (first_ply .. first_ply + plies - 1).
struct MaterialRun {
  Material material;
  std::uint32_t first_ply = 0;
  std::uint32_t plies = 1;
};

// The first ply of the first stretch of consecutive positions, each with a
// balance the condition matches (in one orientation throughout), that lasts
// min_plies positions; runs may be any of the game's (sorted here), gaps
// between them break a stretch.
std::optional<std::uint32_t> material_verdict(const MaterialCondition& c, std::vector<MaterialRun>& runs);

}  // namespace virrey::query
