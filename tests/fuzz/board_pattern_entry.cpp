// Fuzz entry: the `--pattern` and `--fenpattern` texts. Any input parses or
// fails with a column inside the text; a pattern that parses is matched
// against fixed positions of every variant, either way round, and every
// position it matches has the material it says every match has.
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/query/board_pattern.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/material.hpp"

namespace virrey::fuzz {

namespace {

void check_column(const std::string& msg, std::size_t size) {
  VIRREY_FUZZ_CHECK(msg.rfind("column ", 0) == 0, "an error without a column: " + msg);
  const unsigned long column = std::stoul(msg.substr(7));
  VIRREY_FUZZ_CHECK(column >= 1 && column <= size + 1, "a column outside the text: " + msg);
}

template <class G>
void try_position(const query::PatternCondition& c, std::string_view fen, Variant v) {
  FenProblems problems;
  auto pos = position_from_fen<G>(fen, v, problems);
  VIRREY_FUZZ_CHECK(pos.has_value(), "a fixed position does not read: " + std::string(fen));
  query::BoardText text;
  query::board_text_of(*pos, text);
  if (!c.matches(text)) return;
  VIRREY_FUZZ_CHECK(query::material_matches(c.implied_material(), material_of(*pos)),
                    "a match without the material the pattern implies: " + std::string(fen));
}

}  // namespace

void board_pattern(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  query::PatternCondition c;
  c.either_colour = data[0] & 2;
  if (data[0] & 1) {
    auto p = query::parse_fen_pattern(text);
    if (!p) return check_column(p.error().message, text.size());
    c.fen_any.push_back(*p);
  } else if (Status st = c.pieces.add(text); !st) {
    return check_column(st.error().message, text.size());
  }
  try_position<Board8>(c, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Variant::Standard);
  try_position<Board8>(c, "r3k2r/1V3V2/8/3V4/2P1P3/8/pv6/R3K2R b KQkq - 0 30", Variant::Virrey);
  try_position<Board8>(c, "8/8/8/2k5/8/8/8/3QK3 w - - 0 60", Variant::Standard);
  try_position<Board9>(c, "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1", Variant::Modern);
}

}  // namespace virrey::fuzz
