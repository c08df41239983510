// CheckOptions::notation: warnings for notation that PGN export format does
// not allow, each with a game that triggers it and one that must not. The
// positions are worked by hand (which knights reach a square, which are
// pinned, which moves check or mate).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "virrey/validate/game_checker.hpp"

namespace virrey::validate {
namespace {

struct Seen {
  std::string code;
  int ply;
  std::uint64_t line;
  friend bool operator==(const Seen&, const Seen&) = default;
};

std::ostream& operator<<(std::ostream& os, const Seen& s) {
  return os << s.code << " ply " << s.ply << " line " << s.line;
}

bool notation_code(Code c) { return c >= Code::CastlingZeros && c <= Code::CaptureMark; }

// The notation findings of one game given by its movetext, which ends with
// its result (and a FEN when not empty); every other finding must be absent.
std::vector<Seen> notation(const std::string& movetext, const std::string& fen = "", bool on = true) {
  const std::string result = movetext.substr(movetext.rfind(' ') + 1);
  std::string text =
      "[Event \"e\"]\n[Site \"s\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n"
      "[Result \"" +
      result + "\"]\n";
  if (!fen.empty()) text += "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n";
  text += "\n" + movetext + "\n";
  CheckOptions options;
  options.notation = on;
  GameChecker checker(options);
  const CheckedGame g = checker.check(text, 1, {});
  EXPECT_FALSE(g.has_error) << movetext;
  std::vector<Seen> out;
  for (const auto& f : g.findings) {
    EXPECT_EQ(f.severity, Severity::Warning);
    if (notation_code(f.code) || f.code == Code::CheckMark)
      out.push_back({std::string(code_name(f.code)), f.ply, f.line});
    else
      ADD_FAILURE() << "unexpected " << code_name(f.code) << ": " << f.message;
  }
  return out;
}

using V = std::vector<Seen>;

TEST(Notation, CastlingWithZeros) {
  // Line 9 is the movetext (7 tags, then a blank line).
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 O-O *"), (V{{"castling-zeros", 7, 9}}));
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *"), V{});
  EXPECT_EQ(notation("1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 0-0-0 0-0-0 *"),
            (V{{"castling-zeros", 9, 9}, {"castling-zeros", 10, 9}}));
}

TEST(Notation, CastlingWithZerosInModernChess) {
  // White's minister wing is the a-side: b1 knight, c1 bishop, d1 minister cleared.
  const std::string fen = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3KQBNR w KQkq - 0 1";
  CheckOptions options;
  options.notation = true;
  GameChecker checker(options);
  const std::string head = "[Variant \"Modern\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n";
  const CheckedGame zeros = checker.check(head + "1. 0-M-0 *\n", 1, {});
  ASSERT_FALSE(zeros.has_error);
  int found = 0;
  for (const auto& f : zeros.findings) found += f.code == Code::CastlingZeros;
  EXPECT_EQ(found, 1);
  const CheckedGame letters = checker.check(head + "1. O-M-O *\n", 1, {});
  ASSERT_FALSE(letters.has_error);
  for (const auto& f : letters.findings) EXPECT_NE(f.code, Code::CastlingZeros);
}

TEST(Notation, OverDisambiguatedSan) {
  // Only the g1 knight reaches f3: every origin written is too much.
  EXPECT_EQ(notation("1. Ngf3 *"), (V{{"disambiguation", 1, 9}}));
  EXPECT_EQ(notation("1. N1f3 *"), (V{{"disambiguation", 1, 9}}));
  EXPECT_EQ(notation("1. Ng1f3 *"), (V{{"disambiguation", 1, 9}}));
  EXPECT_EQ(notation("1. Ng1-f3 *"), (V{{"disambiguation", 1, 9}}));
  EXPECT_EQ(notation("1. Nf3 *"), V{});
  // Pawns: a push names nothing, a capture its file only.
  EXPECT_EQ(notation("1. e2e4 d5 2. e4xd5 *"), (V{{"disambiguation", 1, 9}, {"disambiguation", 3, 9}}));
  EXPECT_EQ(notation("1. e4 d5 2. exd5 *"), V{});
}

TEST(Notation, CaptureMarks) {
  // f3 is empty; d4 holds Black's pawn when the f3 knight goes there.
  EXPECT_EQ(notation("1. Nxf3 *"), (V{{"capture-mark", 1, 9}}));
  EXPECT_EQ(notation("1. Nf3 d5 2. Nc3 d4 3. Nd4 *"), (V{{"capture-mark", 5, 9}}));
  // Once, also for a token that names more than its square.
  EXPECT_EQ(notation("1. e4 d5 2. ed5 *"), (V{{"capture-mark", 3, 9}}));
  EXPECT_EQ(notation("1. Nf3 d5 2. Nc3 d4 3. Nxd4 *"), V{});
  EXPECT_EQ(notation("1. e4 d5 2. exd5 Qxd5 *"), V{});
  EXPECT_EQ(notation("1. e4 a6 2. e5 d5 3. exd6 *"), V{});  // en passant takes on another square
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *"), V{});
}

TEST(Notation, DisambiguationThatIsNeeded) {
  // Knights on b1 and f3 both reach d2: the file is needed and enough.
  EXPECT_EQ(notation("1. d4 d5 2. Nf3 Nf6 3. Nbd2 *"), V{});
  EXPECT_EQ(notation("1. d4 d5 2. Nf3 Nf6 3. Nfd2 *"), V{});
  // The rank where the file suffices, or both: too much.
  EXPECT_EQ(notation("1. d4 d5 2. Nf3 Nf6 3. N1d2 *"), (V{{"disambiguation", 5, 9}}));
  EXPECT_EQ(notation("1. d4 d5 2. Nf3 Nf6 3. Nb1d2 *"), (V{{"disambiguation", 5, 9}}));
  // Knights on g1 and g5, one file: the rank is needed.
  const std::string same_file = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
  EXPECT_EQ(notation("1. N1f3 *", same_file), V{});
  EXPECT_EQ(notation("1. N5f3 *", same_file), V{});
  EXPECT_EQ(notation("1. Ng1f3 *", same_file), (V{{"disambiguation", 1, 11}}));
  // Queens on a1, c1 and a3 all reach b2: a1 shares its file with a3 and
  // its rank with c1, so it needs the whole square; c1 needs its file, a3
  // (on the a1 queen's file) its rank.
  const std::string three_queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
  EXPECT_EQ(notation("1. Qa1b2 *", three_queens), V{});
  EXPECT_EQ(notation("1. Qcb2 *", three_queens), V{});
  EXPECT_EQ(notation("1. Qc1b2 *", three_queens), (V{{"disambiguation", 1, 11}}));
  EXPECT_EQ(notation("1. Q3b2 *", three_queens), V{});
  EXPECT_EQ(notation("1. Qa3b2 *", three_queens), (V{{"disambiguation", 1, 11}}));
}

TEST(Notation, PinnedRivalNeedsNoDisambiguation) {
  // The d2 knight is pinned by the b4 bishop: Nf3 names one legal move and
  // the standard counts legal moves only, so Ngf3 is over-disambiguated.
  const std::string pinned = "4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1";
  EXPECT_EQ(notation("1. Nf3 *", pinned), V{});
  EXPECT_EQ(notation("1. Ngf3 *", pinned), (V{{"disambiguation", 1, 11}}));
  // Without the bishop both knights reach f3 and the file is needed.
  const std::string free = "4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1";
  EXPECT_EQ(notation("1. Ngf3 *", free), V{});
  EXPECT_EQ(notation("1. Ndf3 *", free), V{});
}

TEST(Notation, CheckAndMateMarks) {
  // 4. Qxf7 mates (scholar's mate).
  const std::string scholar = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7";
  EXPECT_EQ(notation(scholar + "# 1-0"), V{});
  EXPECT_EQ(notation(scholar + " 1-0"), (V{{"missing-check-mark", 7, 9}}));
  EXPECT_EQ(notation(scholar + "+ 1-0"), (V{{"missing-check-mark", 7, 9}}));
  // 2. Qh5 checks the king on e8 through f7.
  EXPECT_EQ(notation("1. e4 f6 2. Qh5 *"), (V{{"missing-check-mark", 3, 9}}));
  EXPECT_EQ(notation("1. e4 f6 2. Qh5+ *"), V{});
  // A '+' on a move that gives no check: the check-mark warning, on or off.
  EXPECT_EQ(notation("1. e4+ *"), (V{{"check-mark", 1, 9}}));
  EXPECT_EQ(notation("1. e4+ *", "", false), (V{{"check-mark", 1, 9}}));
  // In a variation too.
  EXPECT_EQ(notation("1. e4 f6 (1... f5 2. Qh5) 2. Qh5+ *"), (V{{"missing-check-mark", 3, 9}}));
}

TEST(Notation, MoveNumbers) {
  EXPECT_EQ(notation("1. e4 e5 3. Nf3 *"), (V{{"move-number", 0, 9}}));
  EXPECT_EQ(notation("1. e4 e5 2... Nf3 *"), (V{{"move-number", 0, 9}}));
  EXPECT_EQ(notation("1. e4 2. e5 *"), (V{{"move-number", 0, 9}}));
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 {a comment} 2... Nc6 3. Bb5 *"), V{});
  EXPECT_EQ(notation("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *"), V{});
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 (2. Nc3) 2... Nc6 *"), V{});
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 (3. Nc3) Nc6 *"), (V{{"move-number", 0, 9}}));
  // From a position with Black to move at move 20.
  EXPECT_EQ(notation("20... Kd8 21. Kd2 *", "4k3/8/8/8/8/8/8/4K3 b - - 0 20"), V{});
  EXPECT_EQ(notation("1... Kd8 2. Kd2 *", "4k3/8/8/8/8/8/8/4K3 b - - 0 20"),
            (V{{"move-number", 0, 11}, {"move-number", 0, 11}}));
}

// Import format parts periods from their number ("1. ... e5", "2 ... Nc6");
// export format writes "1..." together. Black's number is checked as ever.
TEST(Notation, MoveNumbersApartFromTheirPeriods) {
  EXPECT_EQ(notation("1. e4 1... e5 2. Nf3 2... Nc6 *"), V{});
  EXPECT_EQ(notation("1. e4 1. ... e5 2. Nf3 2 ... Nc6 *"),
            (V{{"move-number", 0, 9}, {"move-number", 0, 9}}));
  EXPECT_EQ(notation("1. e4 1. ... e5 *", "", false), V{});
  EXPECT_EQ(notation("1. e4 e5 2. ... Nf3 *"), (V{{"move-number", 0, 9}}));
  EXPECT_EQ(notation("1. e4 e5 2. Nf3 3 ... Nc6 *"), (V{{"move-number", 0, 9}}));
}

TEST(Notation, LongLines) {
  // 255 characters is the most a line may hold; UTF-8 counts by character.
  const std::string at_limit = "{" + std::string(253, 'a') + "}";
  const std::string over = "{" + std::string(254, 'a') + "}";
  std::string accents;
  for (int i = 0; i < 200; ++i) accents += "\xc3\xa9";  // 200 characters, 400 bytes
  EXPECT_EQ(notation(at_limit + "\n1. e4 *"), V{});
  EXPECT_EQ(notation(over + "\n1. e4 *"), (V{{"long-line", 0, 9}}));
  EXPECT_EQ(notation("{" + accents + "}\n1. e4 *"), V{});
  EXPECT_EQ(notation(over + "\n1. e4 *", "", false), V{});
}

TEST(Notation, OffByDefault) {
  const std::string game = "1. e4 f6 2. Qh5 g6 3. Ngf3 Nc6 4. Bc4 Nh6 5. 0-0 *";
  EXPECT_EQ(notation(game, "", false), V{});
  EXPECT_EQ(notation(game),
            (V{{"missing-check-mark", 3, 9}, {"disambiguation", 5, 9}, {"castling-zeros", 9, 9}}));
}

}  // namespace
}  // namespace virrey::validate
