// ECO files read into an OpeningBook (opening_book.hpp): both formats, the
// positions they name, and located errors.
#include <gtest/gtest.h>

#include "virrey/query/opening_book.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/san_line.hpp"

namespace virrey::query {
namespace {

std::uint64_t hash_after(Variant v, std::string_view moves) {
  return with_geometry(v, [&](auto g) {
    using G = decltype(g);
    const auto line = play_san_line(*variant_start<G>(v), moves);
    EXPECT_TRUE(line.ok()) << moves;
    return line.last().hash();
  });
}

TEST(OpeningBook, ScidFormat) {
  // Comments, an entry over two lines, move numbers in both spellings.
  auto book = parse_opening_book(
      "# a comment\nA00a \"Start position\" *\nD30a \"Queen's Gambit Declined (QGD)\"\n"
      "  1.d4 d5 2. c4 e6 *\nE99c2 \"King's Indian\" 1.d4 Nf6 2.c4 g6 3.Nc3 Bg7 *\n",
      "t.eco");
  ASSERT_TRUE(book) << book.error().message;
  EXPECT_EQ(book->lines, 3u);
  EXPECT_EQ(book->positions.size(), 6u);  // three positions, standard and Virrey
  const auto* qgd = book->find(Variant::Standard, hash_after(Variant::Standard, "d4 d5 c4 e6"));
  ASSERT_TRUE(qgd);
  EXPECT_EQ(qgd->opening.eco, "D30a");
  EXPECT_EQ(qgd->opening.name, "Queen's Gambit Declined (QGD)");
  EXPECT_EQ(qgd->opening.ply, 4u);
  ASSERT_TRUE(book->find(Variant::Virrey, hash_after(Variant::Virrey, "d4 d5 c4 e6")));
  EXPECT_FALSE(book->find(Variant::Standard, hash_after(Variant::Standard, "d4 d5 c4")));
  EXPECT_EQ(book->fewest_men[std::size_t(Variant::Standard)], 32);
  EXPECT_EQ(book->fewest_men[std::size_t(Variant::Modern)], 0);
}

TEST(OpeningBook, PgnExtractFormatAndTranspositions) {
  // Two lines reach one position (the second by a transposition): the first names it.
  auto book = parse_opening_book(
      "{ header }\n[ECO \"E00\"]\n[Opening \"Queen's pawn\"]\n[Variation \"Indian\"]\n"
      "[SubVariation \"2...e6\"]\n\n1. d4 Nf6 2. c4 e6 *\n\n[ECO \"A15\"]\n[Opening \"English\"]\n\n"
      "1. c4 e6 2. d4 Nf6 *\n",
      "t.pgn");
  ASSERT_TRUE(book) << book.error().message;
  EXPECT_EQ(book->lines, 2u);
  EXPECT_EQ(book->positions.size(), 2u);  // one position, standard and Virrey
  const auto* p = book->find(Variant::Standard, hash_after(Variant::Standard, "c4 e6 d4 Nf6"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->opening.eco, "E00");
  EXPECT_EQ(p->opening.name, "Queen's pawn: Indian, 2...e6");
}

// Names are read as PGN tag values are: a byte that is not UTF-8 is a
// Windows-1252 character (an ECO file saved in Latin-1), and a control
// character a space, so no name stored or shown holds raw bytes.
TEST(OpeningBook, NamesAreUtf8WithoutControls) {
  auto book = parse_opening_book(
      "[ECO \"C20\"]\n[Opening \"Partie \xab ouverte \xbb\"]\n[Variation \"Caf\xe9 "
      "\x93quoted\x94\x1b[31m\"]\n\n"
      "1. e4 e5 *\nB00a \"Caf\xc3\xa9\x07 d\xe9j\xe0\" 1.e4 *\n",
      "latin1.pgn");
  ASSERT_TRUE(book) << book.error().message;
  const auto* open = book->find(Variant::Standard, hash_after(Variant::Standard, "e4 e5"));
  ASSERT_TRUE(open);
  EXPECT_EQ(open->opening.name,
            "Partie \xc2\xab ouverte \xc2\xbb: Caf\xc3\xa9 \xe2\x80\x9cquoted\xe2\x80\x9d [31m");
  const auto* e4 = book->find(Variant::Standard, hash_after(Variant::Standard, "e4"));
  ASSERT_TRUE(e4);
  EXPECT_EQ(e4->opening.name, "Caf\xc3\xa9  d\xc3\xa9j\xc3\xa0");  // UTF-8 kept, Latin-1 read, BEL a space
}

// A line from a [FEN] of its own names the position its moves reach from
// there: the FEN after 1.e4 e5 2.Nf3 Nc6 then 3.Bb5 names the Ruy Lopez the
// game from the start reaches.
TEST(OpeningBook, LinesFromAFen) {
  auto book = parse_opening_book(
      "[ECO \"C60\"]\n[Opening \"Ruy Lopez\"]\n[SetUp \"1\"]\n"
      "[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\"]\n\n3. Bb5 *\n",
      "f");
  ASSERT_TRUE(book) << book.error().message;
  const auto* ruy = book->find(Variant::Standard, hash_after(Variant::Standard, "e4 e5 Nf3 Nc6 Bb5"));
  ASSERT_TRUE(ruy);
  EXPECT_EQ(ruy->opening.eco, "C60");
  EXPECT_FALSE(book->find(Variant::Standard, hash_after(Variant::Standard, "e4 e5 Nf3 Nc6")));
  // A FEN that is no position is located at its tag.
  auto bad = parse_opening_book("[ECO \"C60\"]\n[FEN \"r1bqkbnr/8 w - - 0 1\"]\n\n3. Bb5 *\n", "f");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("f:2:1: the FEN of this line is no standard position", 0), 0u)
      << bad.error().message;
}

TEST(OpeningBook, ModernLines) {
  auto book =
      parse_opening_book("[ECO \"A00\"]\n[Opening \"Knight\"]\n[Variant \"Modern\"]\n\n1. Nc3 *\n", "m");
  ASSERT_TRUE(book) << book.error().message;
  ASSERT_EQ(book->positions.size(), 1u);
  EXPECT_EQ(book->positions[0].variant, Variant::Modern);
  EXPECT_TRUE(book->find(Variant::Modern, hash_after(Variant::Modern, "Nc3")));
  EXPECT_EQ(book->fewest_men[std::size_t(Variant::Modern)], 36);  // 9 pieces, 9 pawns a side
}

TEST(OpeningBook, ErrorsAreLocated) {
  struct Case {
    std::string_view text, where;
  } cases[] = {
      {"A00 \"x\" 1.e4 e5 2.Ke3 *", "f:1:19: 'Ke3'"},     // illegal move
      {"A00 \"x\" 1.e4 e5 2.Qz9 *", "f:1:19: 'Qz9'"},     // not a move
      {"\n  Z12 \"x\" *", "f:2:3:"},                      // not an ECO code
      {"A00 \"x\" 1.e4", "f:1:1:"},                       // no '*'
      {"A00 \"x\n\" *", "f:1:5:"},                        // a string over a line end
      {"[ECO \"A00\"]\n1.e4 [ECO \"B00\"] *", "f:2:6:"},  // a tag among moves
      {"[Opening \"x\"]\n1.e4 *", "f:1:1:"},              // no ECO code
      {"{ never closed", "f:1:1:"},
      {"", "f:1:1: no ECO line"},
      {"[Variant \"Shogi\"]", "f:1:1: unknown variant"},
  };
  for (const Case& c : cases) {
    auto book = parse_opening_book(c.text, "f");
    ASSERT_FALSE(book) << c.text;
    EXPECT_EQ(book.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(book.error().message.rfind(c.where, 0), 0u) << c.text << " -> " << book.error().message;
  }
  // A token that is no move is named once, with why.
  auto bad = parse_opening_book("A00 \"x\" 1.e4 e5 2.Bx5 *", "f");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "f:1:19: 'Bx5' is not a move: no destination square");
  auto missing = load_opening_book("/nonexistent/eco.pgn");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::Io);
}

}  // namespace
}  // namespace virrey::query
