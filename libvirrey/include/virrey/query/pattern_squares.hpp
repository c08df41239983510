// A pattern condition answered from the square index (store/square_index.hpp)
// rather than by replaying games: the squares the pattern reads are set on
// the variant's start board, their changes applied ply by ply, and the
// pattern tried once for each side to move between two changes.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "virrey/query/board_pattern.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::query {

class PatternSquares {
 public:
  PatternSquares(const PatternCondition& condition, Variant v);
  // The squares to read (board numbering), in order.
  const std::vector<int>& squares() const { return squares_; }
  // The first ply whose position matches, from the changes of squares().
  std::optional<std::uint32_t> first_match(const store::SquareGame& game);

 private:
  const PatternCondition& condition_;
  std::vector<int> squares_;
  BoardText start_;
  BoardText board_;
  struct Event {
    std::uint32_t ply;
    std::uint8_t index;  // in squares_
    char text;
  };
  struct Span {
    std::uint32_t from, to;  // plies from .. to - 1
  };
  void allowed_plies(std::size_t i, const store::SquareGame& game, std::vector<Span>& out) const;

  std::vector<ContentSet> allowed_;       // per square read: what every match holds there
  std::vector<std::uint32_t>
      allowed_codes_;                     // the same by content code: 16 empty, else colour * 8 + type - 1
  std::vector<char> start_ok_;            // per square read: whether the start holds it
  std::vector<std::size_t> constrained_;  // the squares read that allow less than everything
  bool exact_ = false;                    // the requirements are the whole pattern
  std::vector<Event> events_;             // the game's changes of the squares read, by ply
  std::vector<Span> spans_, square_spans_, merged_;
};

}  // namespace virrey::query
