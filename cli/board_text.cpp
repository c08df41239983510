#include "board_text.hpp"

#include <fmt/format.h>

#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/fen.hpp"

namespace virrey::cli {

namespace {

// Chess glyphs for the FIDE pieces; circled letters for the pieces without
// one, so that a viceroy never looks like a king.
std::string_view glyph(Piece p) {
  constexpr std::string_view white[] = {"·", "♙", "♘", "♗", "♖", "♕", "♔", "Ⓥ", "Ⓜ"};
  constexpr std::string_view black[] = {"·", "♟", "♞", "♝", "♜", "♛", "♚", "ⓥ", "ⓜ"};
  return p.color == Color::White ? white[index(p.type)] : black[index(p.type)];
}

}  // namespace

std::string board_text(const Setup& s) {
  const int w = s.width(), h = s.height();
  std::string out;
  bool viceroy = false, minister = false;
  for (int rank = h - 1; rank >= 0; --rank) {
    out += fmt::format("{:>2} ", rank + 1);
    for (int file = 0; file < w; ++file) {
      const Piece p = s.board[std::size_t(rank * w + file)];
      viceroy |= p.type == PieceType::Viceroy;
      minister |= p.type == PieceType::Minister;
      out += ' ';
      out += glyph(p);
    }
    out += '\n';
  }
  out += "   ";
  for (int file = 0; file < w; ++file) {
    out += ' ';
    out += char('a' + file);
  }
  out += '\n';
  std::string castling;
  constexpr std::pair<std::uint8_t, char> rights[] = {
      {kWhiteKingside, 'K'}, {kWhiteQueenside, 'Q'}, {kBlackKingside, 'k'}, {kBlackQueenside, 'q'}};
  for (auto [bit, letter] : rights)
    if (s.castling & bit) castling += letter;
  std::string ep = "-";
  if (s.en_passant != kNoSquare) ep = fmt::format("{}{}", char('a' + s.en_passant % w), s.en_passant / w + 1);
  out +=
      fmt::format("   {} to move · castling {} · en passant {}\n",
                  s.side_to_move == Color::White ? "White" : "Black", castling.empty() ? "-" : castling, ep);
  if (viceroy) out += "   Ⓥ ⓥ viceroy (white, black): moves like a king, is not royal\n";
  if (minister) out += "   Ⓜ ⓜ minister (white, black): moves as a bishop or a knight\n";
  out += fmt::format("   FEN {}\n", write_fen(s));
  return out;
}

}  // namespace virrey::cli
