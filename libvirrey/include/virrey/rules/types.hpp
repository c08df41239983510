// The small vocabulary every rules file speaks: colours, piece types, pieces,
// squares and moves. Squares are indices rank * width + file on a board of
// any supported geometry (8x8 or 9x9), so they fit in one byte.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace virrey {

enum class Color : std::uint8_t { White = 0, Black = 1 };

constexpr Color operator~(Color c) { return Color(std::uint8_t(c) ^ 1); }
constexpr int index(Color c) { return int(c); }

// Viceroy: a non-royal king. Minister: bishop + knight (Modern chess).
enum class PieceType : std::uint8_t {
  None = 0,
  Pawn,
  Knight,
  Bishop,
  Rook,
  Queen,
  King,
  Viceroy,
  Minister,
};
constexpr int kPieceTypeCount = 9;  // including None
constexpr int index(PieceType pt) { return int(pt); }

// Upper-case letter of a piece type as written in SAN and FEN ('P' for pawns).
constexpr char piece_letter(PieceType pt) {
  constexpr std::string_view letters = ".PNBRQKVM";
  return letters[index(pt)];
}
// Piece type of an upper- or lower-case letter, None if it names none.
constexpr PieceType piece_type_from_letter(char c) {
  switch (c | 0x20) {
    case 'p': return PieceType::Pawn;
    case 'n': return PieceType::Knight;
    case 'b': return PieceType::Bishop;
    case 'r': return PieceType::Rook;
    case 'q': return PieceType::Queen;
    case 'k': return PieceType::King;
    case 'v': return PieceType::Viceroy;
    case 'm': return PieceType::Minister;
    default: return PieceType::None;
  }
}

struct Piece {
  Color color = Color::White;
  PieceType type = PieceType::None;
  constexpr bool empty() const { return type == PieceType::None; }
  friend constexpr bool operator==(Piece, Piece) = default;
};

// FEN letter: upper case for White, lower case for Black.
constexpr char fen_letter(Piece p) {
  char c = piece_letter(p.type);
  return p.color == Color::White ? c : char(c | 0x20);
}

using Square = std::uint8_t;
constexpr Square kNoSquare = 0xff;

// How a move changes the board beyond "piece goes from -> to".
enum class MoveKind : std::uint8_t {
  Normal = 0,
  Promotion,
  EnPassant,
  Castling,    // to = the king's destination square
  BishopSwap,  // Modern chess: a bishop exchanges squares with a piece
};

// A move as a small self-describing value: from, to, kind and promotion piece.
// Trivially constructible so that move lists cost nothing to set up: write
// `Move{}` for the null move.
class Move {
 public:
  Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal,
                 PieceType promotion = PieceType::None)
      : bits_(std::uint32_t(from) | std::uint32_t(to) << 8 | std::uint32_t(kind) << 16 |
              std::uint32_t(promotion) << 20) {}

  constexpr Square from() const { return Square(bits_ & 0xff); }
  constexpr Square to() const { return Square(bits_ >> 8 & 0xff); }
  constexpr MoveKind kind() const { return MoveKind(bits_ >> 16 & 0xf); }
  constexpr PieceType promotion() const { return PieceType(bits_ >> 20 & 0xf); }
  constexpr bool is_null() const { return bits_ == 0; }
  constexpr std::uint32_t raw() const { return bits_; }
  friend constexpr bool operator==(Move, Move) = default;

 private:
  std::uint32_t bits_;
};

// A move as three bytes: from, to, kind << 4 | promotion. Frozen: the opening
// tree's keys and the game identity are written with it.
constexpr std::array<char, 3> move_bytes(Move m) {
  return {char(m.from()), char(m.to()), char(std::uint8_t(m.kind()) << 4 | std::uint8_t(m.promotion()))};
}
constexpr Move move_from_bytes(const char* b) {
  const auto kp = std::uint8_t(b[2]);
  return Move(Square(std::uint8_t(b[0])), Square(std::uint8_t(b[1])), MoveKind(kp >> 4), PieceType(kp & 0xf));
}

}  // namespace virrey
