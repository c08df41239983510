// Board patterns (board_pattern.hpp): the board as text, the two pattern
// languages, and the condition that combines them.
#include "virrey/query/board_pattern.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "virrey/rules/bitboard.hpp"

namespace virrey::query {

namespace {

constexpr char kEmpty = '_';
constexpr std::string_view kWhiteLetters = "KQRBNPVM";
constexpr std::string_view kBlackLetters = "kqrbnpvm";

Error at(std::size_t column, std::string message) {
  return Error{ErrorKind::InvalidArgument, fmt::format("column {}: {}", column + 1, message)};
}

ContentSet set_of(std::string_view chars) {
  ContentSet s;
  for (char c : chars) s.set(std::size_t(static_cast<unsigned char>(c)));
  return s;
}
const ContentSet kWhiteMen = set_of(kWhiteLetters);
const ContentSet kBlackMen = set_of(kBlackLetters);
const ContentSet kMen = kWhiteMen | kBlackMen;
const ContentSet kEverything = kMen | set_of("_");

}  // namespace

ContentSet every_content() { return kEverything; }

namespace {

bool is_piece_letter(char c) { return piece_type_from_letter(c) != PieceType::None; }

char text_of(Piece p) { return p.empty() ? kEmpty : fen_letter(p); }

// Counts a lone piece letter towards the fewest men of its side.
void count_letter(char c, MinCounts& mins) {
  const PieceType pt = piece_type_from_letter(c);
  if (pt == PieceType::None) return;
  const Color side = (c >= 'a' && c <= 'z') ? Color::Black : Color::White;
  auto& n = mins[index(side)][std::size_t(index(pt))];
  if (n < Material::kMaxCount) ++n;
}

// --- --pattern -----------------------------------------------------------------

class TermParser {
 public:
  TermParser(std::string_view text, std::size_t pos) : text_(text), pos_(pos) {}

  Result<PiecePattern::Term> term() {
    PiecePattern::Term t;
    if (peek() == '!' || peek() == '~') {
      t.none = true;
      ++pos_;
    }
    if (std::isdigit(static_cast<unsigned char>(peek()))) {
      const std::size_t start = pos_;
      int n = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        n = n * 10 + (text_[pos_++] - '0');
        if (n > 81) return at(start, "a count is at most 81");
      }
      if (n == 0) return at(start, "a count is at least 1");
      if (t.none) return at(start, "a negated term takes no count");
      t.at_least = n;
    }
    auto contents = this->contents();
    if (!contents) return contents.error();
    t.contents = *contents;
    auto squares = this->squares();
    if (!squares) return squares.error();
    t.squares = *squares;
    return t;
  }
  std::size_t pos() const { return pos_; }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool at_end_of_term() const { return pos_ >= text_.size() || text_[pos_] == ' ' || text_[pos_] == ','; }

  Result<ContentSet> one_content(std::size_t column) {
    const char c = peek();
    if (is_piece_letter(c)) {
      ++pos_;
      return set_of(std::string_view(&c, 1));
    }
    ++pos_;
    switch (c) {
      case 'A': return kWhiteMen;
      case 'a': return kBlackMen;
      case '?': return kMen;
      case '.':
      case '_': return set_of("_");
      default:
        --pos_;
        return at(column, c == '\0' ? "a term needs a man (K Q R B N P V M, A a ? . or [..])"
                                    : fmt::format("'{}' is not a man (K Q R B N P V M, A a ? . or [..])", c));
    }
  }

  Result<ContentSet> contents() {
    if (peek() != '[') return one_content(pos_);
    const std::size_t open = pos_++;
    const bool negated = peek() == '^';
    if (negated) ++pos_;
    ContentSet s;
    bool any = false;
    while (peek() != ']') {
      if (peek() == '\0') return at(open, "'[' without ']'");
      auto one = one_content(pos_);
      if (!one) return one.error();
      s |= *one;
      any = true;
    }
    ++pos_;
    if (!any) return at(open, "an empty set");
    return negated ? (kMen & ~s) : s;
  }

  // Files or ranks: one character in `first..last`, '?', or a set with ranges.
  Result<std::bitset<9>> coordinate(char first, char last, std::string_view what) {
    std::bitset<9> out;
    const std::size_t column = pos_;
    const char c = peek();
    if (c == '?') {
      ++pos_;
      return out.set();
    }
    if (c >= first && c <= last) {
      ++pos_;
      return out.set(std::size_t(c - first));
    }
    if (c != '[') return at(column, fmt::format("expected a {} ({}-{}, ? or [..])", what, first, last));
    ++pos_;
    while (peek() != ']') {
      const char lo = peek();
      if (lo < first || lo > last) return at(pos_, fmt::format("expected a {} ({}-{})", what, first, last));
      ++pos_;
      char hi = lo;
      if (peek() == '-') {
        ++pos_;
        hi = peek();
        if (hi < lo || hi > last) return at(pos_, fmt::format("a bad range of {}s", what));
        ++pos_;
      }
      for (char x = lo; x <= hi; ++x) out.set(std::size_t(x - first));
    }
    ++pos_;
    if (out.none()) return at(column, "an empty set");
    return out;
  }

  Result<std::bitset<81>> squares() {
    std::bitset<81> out;
    if (peek() == '*') {
      ++pos_;
      if (!at_end_of_term()) return at(pos_, "'*' stands alone for every square");
      return out.set();
    }
    auto files = coordinate('a', 'i', "file");
    if (!files) return files.error();
    auto ranks = coordinate('1', '9', "rank");
    if (!ranks) return ranks.error();
    if (!at_end_of_term()) return at(pos_, fmt::format("unexpected '{}' after the squares", peek()));
    for (std::size_t r = 0; r < 9; ++r)
      for (std::size_t f = 0; f < 9; ++f)
        if ((*ranks)[r] && (*files)[f]) out.set(r * 9 + f);
    return out;
  }

  std::string_view text_;
  std::size_t pos_;
};

// --- --fenpattern -----------------------------------------------------------------

// One item of a FEN pattern, inside or outside a set.
std::optional<ContentSet> fen_item(char c) {
  switch (c) {
    case '?': return kEverything;
    case '!': return kMen;
    case 'A': return kWhiteMen;
    case 'a': return kBlackMen;
    case '_': return set_of("_");
    default:
      if (is_piece_letter(c)) return set_of(std::string_view(&c, 1));
      return std::nullopt;  // nothing on a board (matches no square)
  }
}

}  // namespace

BoardText BoardText::flipped() const {
  BoardText out = *this;
  out.side_to_move = ~side_to_move;
  for (int r = 0; r < height; ++r)
    for (int f = 0; f < width; ++f) {
      char c = at(f, height - 1 - r);
      if (c != kEmpty) c = char(c ^ 0x20);
      out.squares[std::size_t(r * width + f)] = c;
    }
  return out;
}

template <class G>
void board_text_of(const Position<G>& pos, BoardText& out) {
  out.width = G::width;
  out.height = G::height;
  out.side_to_move = pos.side_to_move();
  for (int s = 0; s < G::width * G::height; ++s)
    out.squares[std::size_t(s)] = text_of(pos.piece_on(Square(s)));
}

template <class G>
void update_board_text(const Position<G>& pos, Move played, BoardText& text) {
  if (played.kind() != MoveKind::Normal && played.kind() != MoveKind::Promotion) {
    board_text_of(pos, text);  // castling, en passant, swaps: more squares changed
    return;
  }
  text.side_to_move = pos.side_to_move();
  text.squares[played.from()] = text_of(pos.piece_on(played.from()));
  text.squares[played.to()] = text_of(pos.piece_on(played.to()));
}

// --- PiecePattern -------------------------------------------------------------------

Status PiecePattern::add(std::string_view text) {
  std::size_t pos = 0;
  bool any = false;
  while (true) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == ',' || text[pos] == '\t')) ++pos;
    if (pos >= text.size()) break;
    TermParser p(text, pos);
    auto t = p.term();
    if (!t) return t.error();
    terms_.push_back(*t);
    pos = p.pos();
    any = true;
  }
  if (!any) return at(0, "an empty pattern");
  return {};
}

bool PiecePattern::matches(const BoardText& b) const {
  for (const Term& t : terms_) {
    int n = 0;
    bool on_board = false;
    for (int r = 0; r < b.height; ++r)
      for (int f = 0; f < b.width; ++f)
        if (t.squares[std::size_t(r * 9 + f)]) {
          on_board = true;
          if (t.contents[std::size_t(static_cast<unsigned char>(b.at(f, r)))]) ++n;
        }
    if (!on_board) return false;  // e9 or the i-file on an 8x8 board
    if (t.none ? n > 0 : n < t.at_least) return false;
  }
  return true;
}

bool PiecePattern::fits(int width, int height) const {
  return std::all_of(terms_.begin(), terms_.end(), [&](const Term& t) {
    for (int r = 0; r < height; ++r)
      for (int f = 0; f < width; ++f)
        if (t.squares[std::size_t(r * 9 + f)]) return true;
    return false;
  });
}

std::bitset<81> PiecePattern::squares_read(int width, int height) const {
  std::bitset<81> out;
  for (const Term& t : terms_)
    for (int r = 0; r < height; ++r)
      for (int f = 0; f < width; ++f)
        if (t.squares[std::size_t(r * 9 + f)]) out.set(std::size_t(r * width + f));
  return out;
}

bool PiecePattern::only_single_squares(int width, int height) const {
  return fits(width, height) && std::all_of(terms_.begin(), terms_.end(), [&](const Term& t) {
           return t.none || (t.squares.count() == 1 && t.at_least == 1);
         });
}

void PiecePattern::require(int width, int height, std::vector<ContentSet>& allowed) const {
  for (const Term& t : terms_) {
    const bool one = t.squares.count() == 1;
    if (!t.none && !(one && t.at_least == 1)) continue;  // a count over several squares
    for (int r = 0; r < height; ++r)
      for (int f = 0; f < width; ++f)
        if (t.squares[std::size_t(r * 9 + f)]) {
          ContentSet& a = allowed[std::size_t(r * width + f)];
          a &= t.none ? ~t.contents : t.contents;
        }
  }
}

MinCounts PiecePattern::min_counts() const {
  MinCounts out{};
  for (const Term& t : terms_) {
    if (t.none || t.contents.count() != 1) continue;
    for (std::size_t c = 0; c < 128; ++c)
      if (t.contents[c]) {
        MinCounts one{};
        for (int i = 0; i < t.at_least; ++i) count_letter(char(c), one);
        for (int side = 0; side < 2; ++side)
          for (int pt = 0; pt < kPieceTypeCount; ++pt) out[side][pt] = std::max(out[side][pt], one[side][pt]);
      }
  }
  return out;
}

// --- FenPattern ---------------------------------------------------------------------

Result<FenPattern> parse_fen_pattern(std::string_view text) {
  const std::size_t end = std::min(text.find(' '), text.size());  // the rest: a label
  FenPattern out;
  std::vector<FenPattern::Token> rank;
  bool symbols = false;
  // On the 8x8 boards (no minister there) a lone 'm' is pgn-extract's "not a
  // pawn", [^Pp] (empty squares included); on the 9x9 board, a black minister.
  const bool eight_ranks = std::count(text.begin(), text.begin() + std::ptrdiff_t(end), '/') == 7;
  std::vector<std::size_t> rank_starts{0};
  for (std::size_t i = 0; i <= end; ++i) {
    const char c = i < end ? text[i] : '/';
    if (c == '/') {
      if (!symbols) return at(i, "a rank of the pattern is empty");
      rank_starts.push_back(i + 1);
      out.ranks_.push_back(std::move(rank));
      rank.clear();
      symbols = false;
      if (out.ranks_.size() > 9) return at(i, "more than nine ranks");
      continue;
    }
    symbols = true;
    if (c == '*') {
      if (rank.empty() || !rank.back().star) rank.push_back({{}, true});  // "**" is "*"
    } else if (c >= '1' && c <= '9') {
      for (int k = 0; k < c - '0'; ++k) rank.push_back({set_of("_"), false});
    } else if (c == '[') {
      const std::size_t open = i++;
      const bool negated = i < end && text[i] == '^';
      if (negated) ++i;
      ContentSet s;
      for (; i < end && text[i] != ']'; ++i) {
        if (text[i] == '[') return at(i, "sets do not nest");
        if (text[i] == '/') return at(i, "a set does not span ranks");
        auto item = fen_item(text[i]);
        if (!item) return at(i, fmt::format("'{}' is not part of a FEN pattern set", text[i]));
        s |= *item;
      }
      if (i >= end) return at(open, "'[' without ']'");
      rank.push_back({negated ? (kEverything & ~s) : s, false});
    } else if (c == ']') {
      return at(i, "']' without '['");
    } else if (c == '^') {
      return at(i, "'^' belongs at the start of a set");
    } else if (c == 'm' && eight_ranks) {
      rank.push_back({kEverything & ~set_of("Pp"), false});
    } else {
      auto item = fen_item(c);
      if (!item) return at(i, fmt::format("'{}' is not part of a FEN pattern", c));
      rank.push_back({*item, false});
      count_letter(c, out.min_);
    }
  }
  if (out.ranks_.size() != 8 && out.ranks_.size() != 9)
    return at(end, fmt::format("{} ranks: a pattern has 8 (9 for Modern chess), '/' between them",
                               out.ranks_.size()));
  // A rank spans the board's width: as many squares as its files, or at
  // most that many beside a '*'.
  const std::size_t width = out.ranks_.size();
  for (std::size_t r = 0; r < out.ranks_.size(); ++r) {
    const auto& tokens = out.ranks_[r];
    const auto stars = std::size_t(
        std::count_if(tokens.begin(), tokens.end(), [](const FenPattern::Token& t) { return t.star; }));
    const std::size_t squares = tokens.size() - stars;
    if (stars == 0 && squares != width)
      return at(rank_starts[r], fmt::format("this rank covers {} squares, not {} (the board is {}x{})",
                                            squares, width, width, width));
    if (squares > width)
      return at(rank_starts[r],
                fmt::format("this rank covers {} squares besides its '*', more than the board's {}", squares,
                            width));
  }
  return out;
}

bool FenPattern::matches(const BoardText& b) const {
  if (height() != b.height) return false;
  for (int i = 0; i < b.height; ++i) {
    const int r = b.height - 1 - i;
    // The positions of the rank that the tokens so far can end at, as bits
    // (an automaton run: no backtracking, whatever the stars).
    unsigned reach = 1;
    for (const Token& t : ranks_[std::size_t(i)]) {
      if (t.star) {
        reach = ~((reach & -reach) - 1) & ((1u << (b.width + 1)) - 1);
      } else {
        unsigned next = 0;
        for (int f = 0; f < b.width; ++f)
          if ((reach >> f & 1) && t.contents[std::size_t(static_cast<unsigned char>(b.at(f, r)))])
            next |= 1u << (f + 1);
        reach = next;
      }
      if (!reach) return false;
    }
    if (!(reach >> b.width & 1)) return false;
  }
  return true;
}

std::bitset<81> FenPattern::squares_read(int width, int height) const {
  std::bitset<81> out;
  if (this->height() != height) return out;  // matches no board of this size
  for (int i = 0; i < height; ++i) {
    const int r = height - 1 - i;
    const auto& tokens = ranks_[std::size_t(i)];
    const bool star = std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.star; });
    if (star && tokens.size() == 1) continue;  // "*": any rank
    for (int f = 0; f < width; ++f) {
      const bool any =
          !star && (std::size_t(f) >= tokens.size() || tokens[std::size_t(f)].contents == kEverything);
      if (!any) out.set(std::size_t(r * width + f));
    }
  }
  return out;
}

bool FenPattern::squares_fixed(int width, int height) const {
  if (this->height() != height) return false;
  for (const auto& tokens : ranks_) {
    const bool star = std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.star; });
    if (star ? tokens.size() != 1 : tokens.size() != std::size_t(width)) return false;
  }
  return true;
}

void FenPattern::require(int width, int height, std::vector<ContentSet>& allowed) const {
  if (this->height() != height) return;  // matches no board of this size: nothing to narrow
  for (int i = 0; i < height; ++i) {
    const int r = height - 1 - i;
    const auto& tokens = ranks_[std::size_t(i)];
    if (tokens.size() != std::size_t(width)) continue;
    if (std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.star; })) continue;
    for (int f = 0; f < width; ++f) allowed[std::size_t(r * width + f)] &= tokens[std::size_t(f)].contents;
  }
}

// --- PatternCondition ---------------------------------------------------------------

bool PatternCondition::matches(const BoardText& board) const {
  auto one_way = [&](const BoardText& b) {
    if (to_move && b.side_to_move != *to_move) return false;
    if (!pieces.empty() && !pieces.matches(b)) return false;
    if (fen_any.empty()) return true;
    return std::any_of(fen_any.begin(), fen_any.end(), [&](const FenPattern& p) { return p.matches(b); });
  };
  return one_way(board) || (either_colour && one_way(board.flipped()));
}

std::bitset<81> PatternCondition::squares_read(int width, int height) const {
  std::bitset<81> out = pieces.squares_read(width, height);
  for (const FenPattern& p : fen_any) out |= p.squares_read(width, height);
  if (either_colour) {
    std::bitset<81> mirrored;
    for (int r = 0; r < height; ++r)
      for (int f = 0; f < width; ++f)
        if (out[std::size_t(r * width + f)]) mirrored.set(std::size_t((height - 1 - r) * width + f));
    out |= mirrored;
  }
  return out;
}

std::vector<ContentSet> PatternCondition::square_requirements(int width, int height) const {
  if (either_colour) return {};
  std::vector<ContentSet> allowed(std::size_t(width * height), kEverything);
  pieces.require(width, height, allowed);
  if (fen_any.size() == 1) fen_any.front().require(width, height, allowed);
  return allowed;
}

bool PatternCondition::requirements_exact(int width, int height) const {
  if (either_colour || fen_any.size() > 1) return false;
  if (!pieces.only_single_squares(width, height)) return false;
  return fen_any.empty() || fen_any.front().squares_fixed(width, height);
}

MaterialCondition PatternCondition::implied_material() const {
  MinCounts mins = pieces.min_counts();
  if (!fen_any.empty()) {
    // Any one FEN pattern may match: only what all of them need.
    MinCounts common = fen_any.front().min_counts();
    for (const FenPattern& p : fen_any)
      for (int side = 0; side < 2; ++side)
        for (int pt = 0; pt < kPieceTypeCount; ++pt)
          common[side][pt] = std::min(common[side][pt], p.min_counts()[side][pt]);
    for (int side = 0; side < 2; ++side)
      for (int pt = 0; pt < kPieceTypeCount; ++pt)
        mins[side][pt] = std::max(mins[side][pt], common[side][pt]);
  }
  return MaterialCondition{MaterialSpec::at_least(mins), either_colour, 1};
}

template void board_text_of<Board8>(const Position<Board8>&, BoardText&);
template void board_text_of<Board9>(const Position<Board9>&, BoardText&);
template void update_board_text<Board8>(const Position<Board8>&, Move, BoardText&);
template void update_board_text<Board9>(const Position<Board9>&, Move, BoardText&);

}  // namespace virrey::query
