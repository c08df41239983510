// Pattern search against an independent scan: every game of a collection
// (standard, Virrey and Modern, hand-made and generated) replayed into FEN
// text; FEN patterns translated here into regular expressions over each
// rank's squares, and piece patterns written out as plain predicates over
// the board read from the FEN. Every query runs twice: on a database
// without the square index (candidates replayed) and on one with it.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <regex>

#include "collection.hpp"
#include "handmade_pgn.hpp"
#include "virrey/query/board_pattern.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::testing {
namespace {

// A board read from FEN text: ranks top first, one char per square, '_'
// for an empty square; and the side to move.
struct Board {
  std::vector<std::string> ranks;
  char side = 'w';
  // The man on a square, "d5" style.
  char at(std::string_view sq) const {
    const auto file = std::size_t(sq[0] - 'a');
    const auto rank = std::size_t(sq[1] - '1');
    return ranks[ranks.size() - 1 - rank][file];
  }
};

Board board_of(std::string_view fen) {
  Board b;
  std::string rank;
  const std::size_t space = fen.find(' ');
  for (char ch : fen.substr(0, space)) {
    if (ch == '/') {
      b.ranks.push_back(rank);
      rank.clear();
    } else if (ch >= '1' && ch <= '9') {
      rank.append(std::size_t(ch - '0'), '_');
    } else {
      rank += ch;
    }
  }
  b.ranks.push_back(rank);
  b.side = fen[space + 1];
  return b;
}

// Colours swapped: ranks reversed, letters' case swapped, the other side to move.
Board flipped(const Board& b) {
  Board out;
  for (auto it = b.ranks.rbegin(); it != b.ranks.rend(); ++it) {
    std::string r = *it;
    for (char& ch : r)
      if (ch != '_') ch = char(ch ^ 0x20);
    out.ranks.push_back(r);
  }
  out.side = b.side == 'w' ? 'b' : 'w';
  return out;
}

// One FEN pattern as one regular expression per rank (pgn-extract's meaning).
std::vector<std::regex> regexes_of(std::string_view pattern) {
  auto item = [](char ch) -> std::string {
    switch (ch) {
      case '?': return "_KQRBNPVMkqrbnpvm";
      case '!': return "KQRBNPVMkqrbnpvm";
      case 'A': return "KQRBNPVM";
      case 'a': return "kqrbnpvm";
      default: return std::string(1, ch);
    }
  };
  std::vector<std::regex> out;
  std::string re;
  for (std::size_t i = 0; i <= pattern.size(); ++i) {
    const char ch = i < pattern.size() ? pattern[i] : '/';
    if (ch == '/') {
      out.emplace_back(re);
      re.clear();
    } else if (ch == '*') {
      re += ".*";
    } else if (ch >= '1' && ch <= '9') {
      re += fmt::format("_{{{}}}", ch - '0');
    } else if (ch == '[') {
      std::string set;
      bool negated = pattern[i + 1] == '^';
      for (i += negated ? 2 : 1; pattern[i] != ']'; ++i) set += item(pattern[i]);
      re.append(negated ? "[^" : "[").append(set).append("]");
    } else {
      re.append("[").append(item(ch)).append("]");
    }
  }
  return out;
}

bool regex_match(const std::vector<std::regex>& ranks, const Board& b) {
  if (ranks.size() != b.ranks.size()) return false;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (!std::regex_match(b.ranks[i], ranks[i])) return false;
  return true;
}

using Rule = std::function<bool(const Board&)>;

struct Query {
  std::vector<std::string> pieces;  // --pattern texts
  std::vector<std::string> fens;    // --fenpattern texts
  bool either = false;
  std::optional<Color> to_move = std::nullopt;
  query::PlyRange plies = {};
  Rule rule = nullptr;  // the piece terms, by hand; null: none
};

Query fens(std::vector<std::string> patterns, bool either = false) {
  Query q;
  q.fens = std::move(patterns);
  q.either = either;
  return q;
}

Query pieces(std::string text, Rule rule, bool either = false, std::optional<Color> to_move = std::nullopt,
             query::PlyRange plies = {}) {
  Query q;
  q.pieces = {std::move(text)};
  q.rule = std::move(rule);
  q.either = either;
  q.to_move = to_move;
  q.plies = plies;
  return q;
}

// The first ply where the query holds, by the scan.
std::optional<std::uint32_t> scan(const ScannedGame& g, const Query& q) {
  std::vector<std::vector<std::regex>> fens;
  for (const auto& f : q.fens) fens.push_back(regexes_of(f));
  auto holds = [&](const Board& b) {
    if (q.to_move && b.side != (*q.to_move == Color::White ? 'w' : 'b')) return false;
    if (q.rule && !q.rule(b)) return false;
    if (fens.empty()) return true;
    for (const auto& f : fens)
      if (regex_match(f, b)) return true;
    return false;
  };
  for (std::size_t ply = 0; ply < g.positions.size(); ++ply) {
    if (!q.plies.contains(std::uint32_t(ply))) continue;
    const Board b = board_of(g.positions[ply]);
    if (holds(b) || (q.either && holds(flipped(b)))) return std::uint32_t(ply);
  }
  return std::nullopt;
}

// Games from a set-up position with Black to move: en passant and both
// castlings, the squares the index must see change together.
constexpr std::string_view kFenStartPgn = R"([Event "From a FEN, Black to move"]
[Site "?"]
[Date "2026.12.04"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "*"]
[SetUp "1"]
[FEN "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 3"]

3... dxe3 4. Bxe3 Nf6 5. Nc3 Be7 6. Qd2 O-O 7. O-O-O Nc6 8. Kb1 d5 *

[Event "Virrey from a FEN"]
[Site "?"]
[Date "2026.12.04"]
[Round "2"]
[White "A"]
[Black "B"]
[Result "*"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "4k3/2P5/8/8/8/8/5p2/K7 b - - 0 1"]

1... f1=B 2. c8=B Bh3 3. Bxh3 *
)";

class PatternSearch : public ::testing::TestWithParam<bool> {
 protected:
  static void SetUpTestSuite() {
    std::vector<game::GameRecord> all = records_from_pgn(kStandardPgn, Variant::Standard);
    for (auto& r : records_from_pgn(kFenStartPgn, Variant::Standard)) all.push_back(std::move(r));
    for (auto& r : records_from_pgn(kVirreyPgn, Variant::Virrey)) all.push_back(std::move(r));
    for (auto& r : records_from_pgn(kModernPgn, Variant::Modern)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Virrey, 7, 400)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Standard, 11, 200)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Modern, 13, 150)) all.push_back(std::move(r));
    collection_ = make_collection(all).release();
    indexed_ = make_collection(all).release();
    // The second one with the square index, reopened for reading.
    indexed_->db.reset();
    auto writer = store::Database::open(indexed_->db_path(), {store::OpenMode::ReadWrite});
    ASSERT_TRUE(writer) << writer.error().message;
    auto built = store::extend_square_index(**writer);
    ASSERT_TRUE(built) << built.error().message;
    ASSERT_EQ(built->games, all.size());
    writer->reset();
    auto reader = store::Database::open(indexed_->db_path(), {store::OpenMode::Read});
    ASSERT_TRUE(reader) << reader.error().message;
    indexed_->db = std::move(*reader);
  }
  static void TearDownTestSuite() {
    delete collection_;
    delete indexed_;
    collection_ = indexed_ = nullptr;
  }
  bool with_squares() const { return GetParam(); }
  const Collection& c() const { return with_squares() ? *indexed_ : *collection_; }

  // The search's matches (id, first ply) against the scan's; at least `min_hits`.
  void expect_same(const Query& q, std::size_t min_hits = 1, const query::PlanOptions& plan = {}) {
    SCOPED_TRACE(fmt::format("--pattern '{}' --fenpattern '{}' either={}", fmt::join(q.pieces, "' '"),
                             fmt::join(q.fens, "' '"), q.either));
    query::PatternCondition p;
    for (const auto& text : q.pieces) ASSERT_TRUE(p.pieces.add(text));
    for (const auto& text : q.fens) {
      auto f = query::parse_fen_pattern(text);
      ASSERT_TRUE(f) << f.error().message;
      p.fen_any.push_back(*f);
    }
    p.either_colour = q.either;
    p.to_move = q.to_move;
    p.plies = q.plies;
    query::GameFilter filter;
    filter.pattern = p;
    auto got = query::find_matches(*c().db, filter, plan);
    ASSERT_TRUE(got) << got.error().message;
    std::vector<std::pair<store::GameId, std::uint32_t>> want, have;
    for (const ScannedGame& g : c().games)
      if (auto ply = scan(g, q)) want.emplace_back(g.id, *ply);
    for (const auto& m : *got) have.emplace_back(m.id, m.ply.value_or(9999));
    EXPECT_EQ(have, want);
    EXPECT_GE(want.size(), min_hits);
    EXPECT_LT(want.size(), c().games.size());  // a pattern that tells games apart
  }

  static Collection* collection_;
  static Collection* indexed_;  // the same games, with the square index
};

Collection* PatternSearch::collection_ = nullptr;
Collection* PatternSearch::indexed_ = nullptr;

INSTANTIATE_TEST_SUITE_P(Index, PatternSearch, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "SquareIndex" : "Replay"; });

// No black man of these letters on a file.
bool none_on_file(const Board& b, char file, std::string_view letters) {
  for (const std::string& r : b.ranks)
    if (letters.find(r[std::size_t(file - 'a')]) != std::string_view::npos) return false;
  return true;
}

int count_on_rank(const Board& b, int rank, char man) {
  int n = 0;
  for (char ch : b.ranks[b.ranks.size() - std::size_t(rank)]) n += ch == man;
  return n;
}

TEST_P(PatternSearch, FenPatternsAsPgnExtractReadsThem) {
  expect_same(fens({"*/*/*/*/???PP??\?/*/*/*"}));    // white pawns on d4 and e4
  expect_same(fens({"r*/*/*/*/*/*/*/*"}));           // a black rook on a8
  expect_same(fens({"*/*/*/3!4/*/*/*/*"}));          // d5 the only occupied square of the fifth rank
  expect_same(fens({"*/*/*/*/*/*/*/[RQ]*"}));        // a1: a white rook or queen
  expect_same(fens({"[^Pp]*/*/*/*/*/*/*/*K*"}), 1);  // a8 no pawn, White's king on the first rank
  expect_same(fens({"*/*/*/*/*/*/8/*"}));            // the second rank empty
  expect_same(fens({"*/*/*/*A*/*a*/*/*/*"}));   // a white man on the fifth rank, a black one on the fourth
  expect_same(fens({"*/*/*/*/*/*/*/*V*"}), 0);  // a white viceroy on the first rank
  expect_same(fens({"*/*/*/*/*/*/*/*/*M*"}));   // Modern: a white minister on the first rank
  expect_same(fens({"*_*/*/*/*/*/*/*/*", "*/*/*/*/*/*/*/8"}));  // any of two patterns
}

TEST_P(PatternSearch, FenPatternsEitherWayRound) {
  expect_same(fens({"*/*/*/*/???PP??\?/*/*/*"}, true));
  expect_same(fens({"*/*/*/*/*/*/*/*V*"}, true), 0);
}

TEST_P(PatternSearch, PiecePatterns) {
  expect_same(pieces("Pd4 Pe4", [](const Board& b) { return b.at("d4") == 'P' && b.at("e4") == 'P'; }));
  expect_same(pieces("Vd5", [](const Board& b) { return b.at("d5") == 'V'; }), 0);
  expect_same(pieces("V??", [](const Board& b) {
    for (const auto& r : b.ranks)
      if (r.find('V') != std::string::npos) return true;
    return false;
  }));
  expect_same(pieces("Ne5 !pd? !p[cf]?", [](const Board& b) {
    return b.at("e5") == 'N' && none_on_file(b, 'd', "p") && none_on_file(b, 'c', "p") &&
           none_on_file(b, 'f', "p");
  }));
  expect_same(pieces("2R?7", [](const Board& b) { return count_on_rank(b, 7, 'R') >= 2; }));
  Query no_queens = pieces("!q*", [](const Board& b) {
    for (const auto& r : b.ranks)
      if (r.find_first_of("Qq") != std::string::npos) return false;
    return true;
  });
  no_queens.pieces.push_back("!Q*");  // two --pattern options: their terms add up
  expect_same(no_queens);
  expect_same(pieces("[Qq]d[4-5] .e4", [](const Board& b) {
    return (b.at("d4") == 'Q' || b.at("d4") == 'q' || b.at("d5") == 'Q' || b.at("d5") == 'q') &&
           b.at("e4") == '_';
  }));
  expect_same(pieces("a[a-c]1", [](const Board& b) {
    return std::islower(b.at("a1")) || std::islower(b.at("b1")) || std::islower(b.at("c1"));
  }));
  // Squares an 8x8 board lacks (rank 9, the i-file): only 9x9 boards match,
  // whether the term is negated or not.
  const auto nine = [](const Board& b) { return b.ranks.size() == 9; };
  expect_same(pieces(".e9", [&](const Board& b) { return nine(b) && b.at("e9") == '_'; }));
  expect_same(pieces("!?e9", [&](const Board& b) { return nine(b) && b.at("e9") == '_'; }));
  expect_same(pieces("!??9", [&](const Board& b) { return nine(b) && b.ranks.front() == "_________"; }));
  expect_same(pieces("!Ri?", [&](const Board& b) { return nine(b) && none_on_file(b, 'i', "R"); }));
}

TEST_P(PatternSearch, SideToMovePliesAndColours) {
  auto knight_f5 = [](const Board& b) { return b.at("f5") == 'N'; };
  expect_same(pieces("Nf5", knight_f5, false, Color::Black));
  expect_same(pieces("Nf5", knight_f5, false, Color::White, query::PlyRange{20, 60}));
  expect_same(pieces("Nf5", knight_f5, true, Color::White));
  Query both = pieces(
      "Pd4", [](const Board& b) { return b.at("d4") == 'P'; }, true, std::nullopt,
      query::PlyRange{10, std::nullopt});
  both.fens = {"*/*/*/*/*/*/*/*K*"};
  expect_same(both);
}

TEST_P(PatternSearch, SetUpPositionsCastlingAndEnPassant) {
  // Black moves first in the set-up games: their ply 0 is Black's.
  expect_same(pieces(
      "pd4", [](const Board& b) { return b.at("d4") == 'p'; }, false, Color::Black));
  expect_same(pieces(
      "pd4", [](const Board& b) { return b.at("d4") == 'p'; }, false, Color::White));
  // En passant empties e4 as the pawn lands on e3.
  expect_same(pieces("pe3 .e4 .d4", [](const Board& b) {
    return b.at("e3") == 'p' && b.at("e4") == '_' && b.at("d4") == '_';
  }));
  // Both castlings: king and rook move in one ply.
  expect_same(pieces("Kc1 Rd1 kg8 rf8", [](const Board& b) {
    return b.at("c1") == 'K' && b.at("d1") == 'R' && b.at("g8") == 'k' && b.at("f8") == 'r';
  }));
  expect_same(pieces(".e1 .h8 Kb1", [](const Board& b) {
    return b.at("e1") == '_' && b.at("h8") == '_' && b.at("b1") == 'K';
  }));
  // Promotions in a set-up Virrey game: the man changes on the last rank.
  expect_same(pieces("bf1", [](const Board& b) { return b.at("f1") == 'b'; }));
  expect_same(pieces(
      "B[c-h]?",
      [](const Board& b) {
        for (const std::string& r : b.ranks)
          if (r.find('B', 2) != std::string::npos && r.find('B', 2) < 8) return true;
        return false;
      },
      false, std::nullopt, query::PlyRange{2, 3}));
}

TEST_P(PatternSearch, TheSquareIndexAnswersWithoutReplay) {
  query::GameFilter f;
  query::PatternCondition p;
  ASSERT_TRUE(p.pieces.add("Pd4 Pe4"));
  f.pattern = p;
  auto plan = query::explain_plan(*c().db, f);
  ASSERT_TRUE(plan);
  if (with_squares()) {
    EXPECT_NE(plan->find("square"), std::string::npos) << *plan;
    EXPECT_EQ(plan->find("replay"), std::string::npos) << *plan;
  } else {
    EXPECT_EQ(plan->find("square"), std::string::npos) << *plan;
    EXPECT_NE(plan->find("replay"), std::string::npos) << *plan;
  }
}

TEST_P(PatternSearch, SameMatchesWhateverThePlan) {
  // Candidates from the material index (a viceroy needed) or from every
  // game (the index skipped for being too common).
  query::PlanOptions whole;
  whole.pattern_cap = 1;
  const Query q = pieces("V*", [](const Board& b) {
    for (const auto& r : b.ranks)
      if (r.find('V') != std::string::npos) return true;
    return false;
  });
  expect_same(q, 1);
  expect_same(q, 1, whole);
  query::GameFilter f;
  query::PatternCondition p;
  ASSERT_TRUE(p.pieces.add("V*"));
  f.pattern = p;
  auto plan = query::explain_plan(*c().db, f);
  ASSERT_TRUE(plan);
  EXPECT_NE(plan->find("pattern material"), std::string::npos) << *plan;
}

// --- the languages ---------------------------------------------------------------------

query::BoardText text_of(std::string_view fen) {
  FenProblems problems;
  auto pos = position_from_fen<Board8>(fen, Variant::Virrey, problems);
  EXPECT_TRUE(pos) << fen;
  query::BoardText t;
  query::board_text_of(*pos, t);
  return t;
}

TEST(PatternText, FenPatternsMatchRankByRank) {
  const auto start = text_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  auto yes = [&](std::string_view p) {
    auto f = query::parse_fen_pattern(p);
    EXPECT_TRUE(f) << p;
    return f && f->matches(start);
  };
  EXPECT_TRUE(yes("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  EXPECT_TRUE(yes("rnbqkbnr/*/*/*/*/*/*/RNBQKBNR label after a blank"));
  EXPECT_TRUE(yes("a*/*/*/*/*/*/*/A*"));
  EXPECT_TRUE(yes("???????\?/!!!!!!!!/8/8/8/8/*/*"));
  EXPECT_TRUE(yes("*k*/*/*/*/*/*/*/*"));
  EXPECT_FALSE(yes("*/*/*/*/*/*/*/*k*"));
  EXPECT_FALSE(yes("*/*/*/*/*/*/*/RNBQKB*N"));  // a rank matches whole
  EXPECT_FALSE(yes("rnbqkbnr/*/*/6P*/*/*/*/*"));
  EXPECT_TRUE(yes("[^Pp]*/*/*/*/*/*/*/*"));
  EXPECT_FALSE(yes("[Pp]*/*/*/*/*/*/*/*"));
  EXPECT_TRUE(yes("*/*/*/_*_/*/*/*/*"));
}

TEST(PatternText, PiecePatternsCountAndNegate) {
  const auto b = text_of("4k3/8/8/3V4/2P1P3/8/8/4K3 w - - 0 1");
  auto yes = [&](std::string_view p) {
    query::PiecePattern pattern;
    EXPECT_TRUE(pattern.add(p)) << p;
    return pattern.matches(b);
  };
  EXPECT_TRUE(yes("Vd5 Pc4 Pe4 !pd?"));
  EXPECT_TRUE(yes("Vd5,Pc4,Pe4"));
  EXPECT_TRUE(yes("2P?4"));
  EXPECT_FALSE(yes("3P?4"));
  EXPECT_TRUE(yes("~Q*"));
  EXPECT_FALSE(yes("!V*"));
  EXPECT_TRUE(yes("?e8 .e7 Ke1"));
  EXPECT_TRUE(yes("[VQ]d5 [^Pp]d5"));
  EXPECT_FALSE(yes("[^V]d5"));
  // e9 and the i-file are no squares of this board: no term on them holds.
  for (const char* off : {".e9", "!?e9", "!??9", "!?i?", "~Pi2"}) EXPECT_FALSE(yes(off)) << off;
  EXPECT_TRUE(yes("!?[f-i]8 Ke1"));  // f8 to h8 are on the board (and empty)
}

TEST(PatternText, ErrorsNameTheColumn) {
  auto fen_error = [](std::string_view p) {
    auto f = query::parse_fen_pattern(p);
    return f ? std::string("accepted") : f.error().message;
  };
  EXPECT_EQ(fen_error("*/*/*/*/*/*/*"),
            "column 14: 7 ranks: a pattern has 8 (9 for Modern chess), '/' between them");
  EXPECT_EQ(fen_error("*/*/*/*/*/*/*/*x"), "column 16: 'x' is not part of a FEN pattern");
  EXPECT_EQ(fen_error("*/*/*]/*/*/*/*/*"), "column 6: ']' without '['");
  EXPECT_EQ(fen_error("*/*/[Pp/*/*/*/*/*"), "column 8: a set does not span ranks");
  EXPECT_EQ(fen_error("*//*/*/*/*/*/*/*"), "column 3: a rank of the pattern is empty");
  // A rank spans the board: its width without '*', at most its width with one.
  EXPECT_EQ(fen_error("*/*/*/*/*/*/*/RNBQKBN"),
            "column 15: this rank covers 7 squares, not 8 (the board is 8x8)");
  EXPECT_EQ(fen_error("9/8/8/8/8/8/8/8"), "column 1: this rank covers 9 squares, not 8 (the board is 8x8)");
  EXPECT_EQ(fen_error("*/*/*/*/*/*/*/*/8"),
            "column 17: this rank covers 8 squares, not 9 (the board is 9x9)");
  EXPECT_EQ(fen_error("*/*/5*5/*/*/*/*/*"),
            "column 5: this rank covers 10 squares besides its '*', more than the board's 8");
  EXPECT_EQ(fen_error("*/*/4*4/*/*/*/*/*"), "accepted");
  auto piece_error = [](std::string_view p) {
    query::PiecePattern pattern;
    Status st = pattern.add(p);
    return st ? std::string("accepted") : st.error().message;
  };
  EXPECT_EQ(piece_error("Vd5 Xd4"), "column 5: 'X' is not a man (K Q R B N P V M, A a ? . or [..])");
  EXPECT_EQ(piece_error("Vz5"), "column 2: expected a file (a-i, ? or [..])");
  EXPECT_EQ(piece_error("Vd"), "column 3: expected a rank (1-9, ? or [..])");
  EXPECT_EQ(piece_error("!2Vd5"), "column 2: a negated term takes no count");
  EXPECT_EQ(piece_error("Vd5x"), "column 4: unexpected 'x' after the squares");
  EXPECT_EQ(piece_error("  "), "column 1: an empty pattern");
}

TEST(PatternText, ImpliedMaterialIsWhatEveryMatchHas) {
  query::PatternCondition c;
  ASSERT_TRUE(c.pieces.add("2R?7 Vd5 !q* ?e4"));
  auto f1 = query::parse_fen_pattern("*/*/*/*/*/*/*/*QN*");
  auto f2 = query::parse_fen_pattern("*/*/*/*/*/*/*/*Q*");
  ASSERT_TRUE(f1 && f2);
  c.fen_any = {*f1, *f2};
  const query::MaterialCondition m = c.implied_material();
  EXPECT_EQ(m.spec.min_count(Color::White, PieceType::Rook), 2);
  EXPECT_EQ(m.spec.min_count(Color::White, PieceType::Viceroy), 1);
  EXPECT_EQ(m.spec.min_count(Color::White, PieceType::Queen), 1);   // both FEN patterns
  EXPECT_EQ(m.spec.min_count(Color::White, PieceType::Knight), 0);  // one of them only
  EXPECT_EQ(m.spec.min_count(Color::Black, PieceType::Queen), 0);
}

}  // namespace
}  // namespace virrey::testing
