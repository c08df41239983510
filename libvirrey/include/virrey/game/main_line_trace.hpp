// MainLineTrace: what one replay of a game's main line yields for storing the
// game (the position hashes, the moves as a stored record holds them, the
// promotions and how the game ends). The validator fills it while it checks
// the moves, so that import does not replay the game again; the store fills
// it by replaying a record when it has no trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "virrey/rules/material.hpp"
#include "virrey/rules/move_numbers.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/position.hpp"

namespace virrey::game {

// A piece type as one bit of a set of types (Pawn: bit 0 ... Minister: bit 7).
constexpr std::uint8_t piece_type_bit(PieceType pt) {
  return pt == PieceType::None ? 0 : std::uint8_t(1u << (index(pt) - 1));
}

struct TracedPromotion {
  PieceType piece = PieceType::None;
  Color colour = Color::White;
  int file = 0;               // 0 = a-file
  std::uint32_t ply = 0;      // 1-based ply of the promoting move
  Square square = kNoSquare;  // where the piece stands now; kNoSquare: captured
  bool gave_mate = false;     // among the pieces giving the final checkmate
};

// The material from a ply on, until the next run's first ply (or the end).
struct TracedMaterial {
  Material material;
  std::uint32_t first_ply = 0;  // 0: the start position
};

struct MainLineTrace {
  // hashes[i]: the position after i plies (hashes[0] the start position).
  std::vector<std::uint64_t> hashes;
  // The main line's moves as move numbers (append_move_number), or empty when
  // they were not asked for.
  std::string move_numbers;
  std::vector<TracedPromotion> promotions;
  // The material balances in the order they occur: a new run begins after
  // every capture and promotion (so no balance occurs twice).
  std::vector<TracedMaterial> materials;
  std::uint8_t final_men = 0;  // pieces on the board after the last move
  // The kinds of the pieces giving the final checkmate (piece_type_bit;
  // two in a double check); 0 when the game does not end in checkmate.
  std::uint8_t mate_by = 0;
  BoardState final_state = BoardState::Ongoing;
  bool numbered = true;   // move_numbers is filled
  bool complete = false;  // finish() was reached: the whole main line is here

  void clear() {
    hashes.clear();
    move_numbers.clear();
    promotions.clear();
    materials.clear();
    material_changes = false;
    final_men = 0;
    mate_by = 0;
    final_state = BoardState::Ongoing;
    numbered = true;
    complete = false;
  }

  // Starts a trace, with room for `plies` moves.
  void start(std::size_t plies, bool with_numbers) {
    clear();
    numbered = with_numbers;
    hashes.reserve(plies + 1);
    if (numbered) move_numbers.reserve(2 * plies);
  }

  // Records the next move of the main line, m, and the position it is played
  // from (the caller plays it). False when m is not a legal move there.
  template <class G>
  bool add(const Position<G>& before, Move m) {
    if (numbered && !append_move_number(move_numbers, before, m)) return false;
    follow(before, m);
    return true;
  }

  // The same for a move the caller has found legal (the checker's replay):
  // its number is counted without checking the move again.
  template <class G>
  void add_legal(const Position<G>& before, Move m) {
    if (numbered) append_legal_move_number(move_numbers, before, m);
    follow(before, m);
  }

  // Ends the trace at the last position, whose board_state is `state`.
  template <class G>
  void finish(const Position<G>& last, BoardState state) {
    if (hashes.empty() || material_changes) note_material(last, std::uint32_t(hashes.size()));
    material_changes = false;
    hashes.push_back(last.hash());
    final_men = std::uint8_t(popcount(last.occupied()));
    final_state = state;
    if (state == BoardState::Checkmate) {
      const auto checkers = last.checkers();
      for (auto rest = checkers; rest;) mate_by |= piece_type_bit(last.piece_on(pop_lsb(rest)).type);
      for (TracedPromotion& p : promotions)
        p.gave_mate = p.square != kNoSquare && (checkers & square_bb<G>(p.square));
    }
    complete = true;
  }

 private:
  // What every move adds beside its number: its position's hash, the
  // material, and where the promoted pieces stand.
  template <class G>
  void follow(const Position<G>& before, Move m) {
    if (hashes.empty() || material_changes) note_material(before, std::uint32_t(hashes.size()));
    material_changes = m.kind() == MoveKind::Promotion || m.kind() == MoveKind::EnPassant ||
                       (m.kind() == MoveKind::Normal && !before.piece_on(m.to()).empty());
    hashes.push_back(before.hash());
    // Follow promoted pieces: captured when a move lands on them.
    for (TracedPromotion& p : promotions) {
      if (p.square == kNoSquare) continue;
      if (m.kind() == MoveKind::BishopSwap && m.to() == p.square)
        p.square = m.from();
      else if (m.from() == p.square)
        p.square = m.to();
      else if (m.to() == p.square)
        p.square = kNoSquare;
    }
    if (m.kind() == MoveKind::Promotion)
      promotions.push_back({m.promotion(), before.side_to_move(), file_of<G>(m.to()),
                            std::uint32_t(hashes.size()), m.to(), false});
  }

  template <class G>
  void note_material(const Position<G>& pos, std::uint32_t ply) {
    const Material now = material_of(pos);
    if (materials.empty() || materials.back().material != now) materials.push_back({now, ply});
  }
  bool material_changes = false;  // the last move added captured or promoted
};

}  // namespace virrey::game
