// Patterns from the square index (pattern_squares.hpp).
#include "virrey/query/pattern_squares.hpp"

#include <algorithm>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"

namespace virrey::query {

namespace {
char text_of(Piece p) { return p.empty() ? '_' : fen_letter(p); }
// A square's content as a number below 17: 16 empty, else colour * 8 + type - 1.
int code_of(Piece p) { return p.empty() ? 16 : index(p.color) * 8 + index(p.type) - 1; }
}  // namespace

PatternSquares::PatternSquares(const PatternCondition& condition, Variant v) : condition_(condition) {
  with_geometry(v, [&](auto g) {
    using G = decltype(g);
    if (const auto& start = variant_start<G>(v)) board_text_of(*start, start_);
  });
  const std::bitset<81> read = condition.squares_read(start_.width, start_.height);
  for (int s = 0; s < start_.width * start_.height; ++s)
    if (read[std::size_t(s)]) squares_.push_back(s);
  // The squares not read stay empty: the pattern's answer does not depend on them.
  std::fill(start_.squares.begin(), start_.squares.end(), '_');
  with_geometry(v, [&](auto g) {
    using G = decltype(g);
    if (const auto& start = variant_start<G>(v))
      for (int s : squares_) start_.squares[std::size_t(s)] = text_of(start->piece_on(Square(s)));
  });
  // What every match holds on each square read: only the plies where all
  // of it holds are looked at.
  const std::vector<ContentSet> required = condition.square_requirements(start_.width, start_.height);
  exact_ = !required.empty() && condition.requirements_exact(start_.width, start_.height);
  for (std::size_t i = 0; i < squares_.size(); ++i) {
    const int s = squares_[i];
    allowed_.push_back(required.empty() ? every_content() : required[std::size_t(s)]);
    if (allowed_.back() != every_content()) constrained_.push_back(i);
    std::uint32_t codes = 0;
    for (int code = 0; code < 17; ++code) {
      const Piece p = code == 16 ? Piece{} : Piece{Color(code / 8), PieceType(code % 8 + 1)};
      if (allowed_.back()[std::size_t(static_cast<unsigned char>(text_of(p)))]) codes |= 1u << code;
    }
    allowed_codes_.push_back(codes);
    start_ok_.push_back(
        allowed_.back()[std::size_t(static_cast<unsigned char>(start_.squares[std::size_t(s)]))]);
  }
}

// The plies where square i holds an allowed content, as ranges [from, to).
void PatternSquares::allowed_plies(std::size_t i, const store::SquareGame& game,
                                   std::vector<Span>& out) const {
  out.clear();
  const std::uint32_t end = game.header.plies + 1;
  bool ok = start_ok_[i];
  std::uint32_t from = 0;
  for (const store::SquareChange& c : game.changes(i)) {
    const bool now = allowed_codes_[i] >> code_of(c.content) & 1;
    if (now == ok) continue;
    if (now)
      from = c.ply;
    else if (c.ply > from)
      out.push_back({from, c.ply});
    ok = now;
  }
  if (ok && end > from) out.push_back({from, end});
}

std::optional<std::uint32_t> PatternSquares::first_match(const store::SquareGame& game) {
  const std::uint32_t last = game.header.plies;
  const PlyRange& plies = condition_.plies;
  const std::uint32_t lowest = plies.from.value_or(0), highest = std::min(plies.to.value_or(last), last);
  if (lowest > highest) return std::nullopt;
  // The plies where every square holds what the pattern requires there.
  spans_.assign(1, Span{lowest, highest + 1});
  for (std::size_t i : constrained_) {
    allowed_plies(i, game, square_spans_);
    merged_.clear();
    for (std::size_t a = 0, b = 0; a < spans_.size() && b < square_spans_.size();) {
      const std::uint32_t from = std::max(spans_[a].from, square_spans_[b].from);
      const std::uint32_t to = std::min(spans_[a].to, square_spans_[b].to);
      if (from < to) merged_.push_back({from, to});
      (spans_[a].to < square_spans_[b].to) ? ++a : ++b;
    }
    spans_.swap(merged_);
    if (spans_.empty()) return std::nullopt;
  }
  const std::optional<Color>& to_move = condition_.to_move;
  auto side_at = [&](std::uint32_t t) {
    return (t & 1) ? ~game.header.first_to_move : game.header.first_to_move;
  };
  if (exact_) {
    for (const Span& s : spans_) {
      std::uint32_t t = s.from;
      if (to_move && side_at(t) != *to_move) ++t;
      if (t < s.to) return t;
    }
    return std::nullopt;
  }
  // Else the pattern itself, tried between two changes of the squares read
  // from the first ply the requirements allow.
  board_ = start_;
  events_.clear();
  for (std::size_t i = 0; i < squares_.size(); ++i)
    for (const store::SquareChange& c : game.changes(i))
      events_.push_back(Event{c.ply, std::uint8_t(i), text_of(c.content)});
  std::sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.ply < b.ply; });
  std::size_t at = 0, span = 0;
  for (std::uint32_t ply = 0; ply <= highest;) {
    while (at < events_.size() && events_[at].ply <= ply) {
      const Event& e = events_[at++];
      board_.squares[std::size_t(squares_[e.index])] = e.text;
    }
    const std::uint32_t next = at < events_.size() ? events_[at].ply : last + 1;
    // Plies ply .. next - 1 share the board; only the side to move alternates.
    while (span < spans_.size() && spans_[span].to <= ply) ++span;
    if (span == spans_.size()) break;
    const std::uint32_t from = std::max(ply, spans_[span].from);
    const std::uint32_t to = std::min(next, spans_[span].to);  // within one span: the board is constant
    for (std::uint32_t t = from; t < to && t <= from + (to_move ? 1u : 0u); ++t) {
      board_.side_to_move = side_at(t);
      if (condition_.matches(board_)) return t;
    }
    ply = next;
  }
  return std::nullopt;
}

}  // namespace virrey::query
