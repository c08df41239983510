// `virrey search` end to end: a database made by `virrey import`, every
// output format and every exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "collection.hpp"
#include "handmade_pgn.hpp"
#include "run_virrey.hpp"

namespace virrey::testing {
namespace {

class SearchCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    std::ofstream(dir_->path() + "/standard.pgn") << kStandardPgn;
    std::ofstream(dir_->path() + "/virrey.pgn") << kVirreyPgn;
    std::ofstream(dir_->path() + "/modern.pgn") << kModernPgn;
    for (const char* f : {"standard.pgn", "virrey.pgn", "modern.pgn"}) {
      RunResult r = run_raw({"import", dir_->path() + "/" + f, "--db", db()});
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string db() { return dir_->path() + "/db"; }

  static RunResult run_raw(const std::vector<std::string>& args) { return run_virrey(args, dir_->path()); }
  // `virrey search --db DB args...`
  static RunResult search(std::vector<std::string> args) {
    args.insert(args.begin(), {"search", "--db", db()});
    return run_raw(args);
  }

  static TempDir* dir_;
};

TempDir* SearchCli::dir_ = nullptr;

std::size_t lines(const std::string& s) { return std::size_t(std::count(s.begin(), s.end(), '\n')); }

TEST_F(SearchCli, TextTable) {
  RunResult r = search({"--moves", "e4 e5 Nf3 Nc6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("id"), std::string::npos);
  for (const char* col : {"date", "white", "black", "result", "event", "ply"})
    EXPECT_NE(r.out.find(col), std::string::npos) << col;
  EXPECT_NE(r.out.find("Alpha, Ann"), std::string::npos);
  EXPECT_NE(r.out.find("Transposition B"), std::string::npos);
  EXPECT_NE(r.out.find("2 games"), std::string::npos) << r.out;
}

TEST_F(SearchCli, Jsonl) {
  RunResult r = search({"--moves", "1. e4 e5 2. Nf3 Nc6", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(lines(r.out), 2u) << r.out;
  for (const char* field :
       {"\"id\":", "\"white\":\"Alpha, Ann\"", "\"black\":", "\"result\":\"1-0\"", "\"date\":\"2001.02.03\"",
        "\"event\":\"Transposition A\"", "\"variant\":\"standard\"", "\"ply\":4"})
    EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
}

TEST_F(SearchCli, JsonCsvPgnAndCount) {
  RunResult json =
      search({"--fen", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 4", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.rfind("{\"total\":1,", 0), 0u) << json.out;
  EXPECT_NE(json.out.find("\"event\":\"Castling twin\""), std::string::npos);
  EXPECT_NE(json.out.find("\"ply\":6"), std::string::npos);

  RunResult csv = search({"--player", "alpha", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("id,date,white,black,result,event,site,round,eco,variant,ply\n", 0), 0u) << csv.out;
  EXPECT_EQ(lines(csv.out), 4u) << csv.out;
  EXPECT_NE(csv.out.find("\"Alpha, Ann\""), std::string::npos);

  RunResult pgn = search({"--white", "ALPHA, ann", "--format", "pgn"});
  ASSERT_EQ(pgn.exit_code, 0) << pgn.err;
  EXPECT_NE(pgn.out.find("[Event \"Transposition A\"]"), std::string::npos) << pgn.out;
  EXPECT_NE(pgn.out.find("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0"), std::string::npos) << pgn.out;

  RunResult count = search({"--moves", "e4 e5 Nf3 Nc6", "--count"});
  ASSERT_EQ(count.exit_code, 0) << count.err;
  EXPECT_EQ(count.out, "2\n");
  RunResult count_json = search({"--promotion", "V", "--count", "--format", "json"});
  EXPECT_EQ(count_json.out, "{\"count\":2}\n");
  // A count is not PGN.
  RunResult count_pgn = search({"--promotion", "V", "--count", "--format", "pgn"});
  EXPECT_EQ(count_pgn.exit_code, 2);
  EXPECT_EQ(count_pgn.out, "");
}

TEST_F(SearchCli, PagingAndSort) {
  RunResult all = search({"--player", "gamma", "--format", "jsonl"});
  ASSERT_EQ(all.exit_code, 0);
  ASSERT_EQ(lines(all.out), 3u);
  RunResult second = search({"--player", "gamma", "--format", "jsonl", "--limit", "1", "--offset", "1"});
  ASSERT_EQ(lines(second.out), 1u);
  EXPECT_NE(all.out.find(second.out), std::string::npos);
  // A page cut short says so on stderr in the formats without a "more" of
  // their own; the last page does not.
  EXPECT_NE(second.err.find("1 game written; more match (--limit 1: --limit 0 writes every game, --offset 2"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(all.err.find("more match"), std::string::npos) << all.err;
  for (const char* format : {"csv", "pgn"})
    EXPECT_NE(search({"--player", "gamma", "--format", format, "--limit", "2"})
                  .err.find("2 games written; more match"),
              std::string::npos)
        << format;
  EXPECT_EQ(search({"--player", "gamma", "--format", "csv", "--limit", "1", "--offset", "2"})
                .err.find("more match"),
            std::string::npos);
  RunResult dated = search({"--player", "gamma", "--format", "jsonl", "--sort", "date"});
  ASSERT_EQ(dated.exit_code, 0);
  // 1999.12.31, 2000, then the game without a date.
  const auto a = dated.out.find("En passant A"), b = dated.out.find("En passant B"),
             c = dated.out.find("Castling twin");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

// A FEN of a board and a side alone is read with no castling rights, and
// says so; with its castling field it does not.
TEST_F(SearchCli, AFenWithoutCastlingSaysHowItIsRead) {
  const RunResult bare = search({"--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "--count"});
  EXPECT_EQ(bare.exit_code, 0);
  EXPECT_NE(bare.err.find("the FEN has no castling field: read as '-'"), std::string::npos) << bare.err;
  const RunResult full = search({"--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "--count"});
  EXPECT_EQ(full.exit_code, 0);
  EXPECT_EQ(full.err.find("castling field"), std::string::npos) << full.err;
  // Nothing to say where no king and rook stand ready to castle.
  const RunResult kings = search({"--fen", "8/8/8/8/8/8/8/K6k w", "--count"});
  EXPECT_EQ(kings.exit_code, 0);
  EXPECT_EQ(kings.err.find("castling field"), std::string::npos) << kings.err;
}

// A position or material filter given an empty text (a script's unset
// variable) is a usage error, not a search of every game; so are move
// numbers with no move, and an empty or blank tag filter.
TEST_F(SearchCli, AnEmptyPositionOrMaterialIsAnError) {
  for (const char* option : {"--fen", "--moves", "--material"})
    for (const char* value : {"", "  "}) {
      const RunResult r = search({option, value, "--count"});
      EXPECT_EQ(r.exit_code, 2) << option << " '" << value << "'";
      EXPECT_NE(r.err.find(std::string(option) + ": is empty"), std::string::npos) << r.err;
      EXPECT_EQ(r.out, "");
    }
  const RunResult numbers = search({"--moves", "1.", "--count"});
  EXPECT_EQ(numbers.exit_code, 2);
  EXPECT_NE(numbers.err.find("--moves: bad SAN: '1.' holds no move"), std::string::npos) << numbers.err;
  for (const char* option : {"--white", "--player", "--opening", "--result", "--eco", "--date-to", "--elo",
                             "--time-control", "--termination", "--plies", "--to-move"})
    for (const char* value : {"", " "}) {
      const RunResult tag = search({option, value, "--count"});
      EXPECT_EQ(tag.exit_code, 2) << option << " '" << value << "'";
      EXPECT_NE(tag.err.find(std::string(option) + ": is empty (give a value, or leave the option out)"),
                std::string::npos)
          << tag.err;
      EXPECT_EQ(tag.out, "");
    }
}

// Moves that play only as Virrey chess (a bare promotion), asked of a
// database of standard games: the search says why it finds nothing.
TEST(SearchVariants, APositionOfAVariantTheDatabaseLacksIsSaid) {
  TempDir dir;
  std::ofstream(dir.path() + "/standard.pgn")
      << "[Event \"E\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
  ASSERT_EQ(
      run_virrey({"import", dir.path() + "/standard.pgn", "--db", dir.path() + "/db"}, dir.path()).exit_code,
      0);
  const RunResult virrey_only = run_virrey(
      {"search", "--db", dir.path() + "/db", "--moves", "h4 a5 h5 a4 h6 a3 hxg7 axb2 gxh8", "--count"},
      dir.path());
  EXPECT_EQ(virrey_only.exit_code, 0);
  EXPECT_NE(virrey_only.err.find("the position is one of Virrey chess only, and "), std::string::npos)
      << virrey_only.err;
  const RunResult both =
      run_virrey({"search", "--db", dir.path() + "/db", "--moves", "e4", "--count"}, dir.path());
  EXPECT_EQ(both.out, "1\n");
  EXPECT_EQ(both.err.find("the position is one of"), std::string::npos) << both.err;
}

// A Date of a month alone stands for every day of that month (30 in April,
// 29 in February 2020), and only an ECO code is in an ECO range: "-" (PGN's
// unknown), "A100" and "C" are in none, nor is an Opening of "-" in any.
TEST(SearchTags, AMonthsDaysAndEcoCodesAsPgnWritesThem) {
  TempDir dir;
  std::ofstream pgn(dir.path() + "/g.pgn");
  const std::vector<std::array<std::string, 4>> games = {{"A", "2019.04.??", "B90", "Sicilian"},
                                                         {"C", "2019.05.05", "-", "-"},
                                                         {"D", "2020.02.??", "A100", "Sicilian"},
                                                         {"E", "2019.05.05", "C", "Sicilian"},
                                                         {"F", "2019.05.05", " B12 ", "Caro-Kann"}};
  for (const auto& [white, date, eco, opening] : games)
    pgn << "[Event \"E\"]\n[Date \"" << date << "\"]\n[White \"" << white
        << "\"]\n[Black \"B\"]\n[Result \"*\"]\n"
        << "[ECO \"" << eco << "\"]\n[Opening \"" << opening << "\"]\n\n1. e4 *\n\n";
  pgn.close();
  ASSERT_EQ(run_virrey({"import", dir.path() + "/g.pgn", "--db", dir.path() + "/db"}, dir.path()).exit_code,
            0);
  auto whites = [&](std::vector<std::string> filters) {
    std::vector<std::string> args{"search", "--db", dir.path() + "/db", "--format", "csv"};
    args.insert(args.end(), filters.begin(), filters.end());
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string out;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) out += line.substr(line.find(',', line.find(',') + 1) + 1, 1);
    return out;
  };
  EXPECT_EQ(whites({"--date-to", "2019.04.30"}), "A");
  EXPECT_EQ(whites({"--date-from", "2019.04.01", "--date-to", "2019.04.30"}), "A");
  EXPECT_EQ(whites({"--date-from", "2020.02.01", "--date-to", "2020.02.29"}), "D");
  EXPECT_EQ(whites({"--date-from", "2020.02.01", "--date-to", "2020.02.28"}), "");
  EXPECT_EQ(whites({"--eco", "-A99"}), "");
  EXPECT_EQ(whites({"--eco", "A00-E99"}), "AF");
  EXPECT_EQ(whites({"--opening", "-"}), "F");  // Caro-Kann, not C's unknown "-"
  EXPECT_EQ(whites({"--opening", "sicilian"}), "ADE");
}

TEST_F(SearchCli, ShowDrawsTheViceroy) {
  RunResult r = search({"--promotion", "V", "--by", "white", "--min-count", "2", "--show"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Ⓥ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("viceroy"), std::string::npos);
  EXPECT_NE(r.out.find("4.e8=V+"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 game"), std::string::npos);
  RunResult black = search({"--promotion", "v", "--by", "black", "--show", "--format", "jsonl"});
  EXPECT_EQ(lines(black.out), 1u);
  EXPECT_NE(black.out.find("\"fen\":\"4V2k/8/8/8/8/8/8/K3v3 w - - 0 2\""), std::string::npos) << black.out;
}

TEST_F(SearchCli, ModernPositionsByFenAndMoves) {
  // After 1. e4 e6 2. Nc3 Nc7, reached by both move orders.
  const std::string fen = "r1bqkmbnr/pppp1pppp/2n6/4p4/9/4P4/2N6/PPPP1PPPP/R1BMKQBNR w KQkq - 0 3";
  RunResult by_fen = search({"--fen", fen, "--variant", "modern", "--format", "jsonl"});
  ASSERT_EQ(by_fen.exit_code, 0) << by_fen.err;
  EXPECT_EQ(lines(by_fen.out), 2u) << by_fen.out;
  for (const char* field : {"\"event\":\"Modern transposition A\"", "\"event\":\"Modern transposition B\"",
                            "\"variant\":\"modern\"", "\"ply\":4"})
    EXPECT_NE(by_fen.out.find(field), std::string::npos) << field << "\n" << by_fen.out;
  // Without --variant the 9x9 FEN is a Modern position all the same.
  EXPECT_EQ(search({"--fen", fen, "--format", "jsonl"}).out, by_fen.out);
  RunResult by_moves = search({"--moves", "1. Nc3 Nc7 2. e4 e6", "--variant", "modern", "--format", "jsonl"});
  EXPECT_EQ(by_moves.out, by_fen.out);
  // "e4 e6" is a line of every variant; --variant keeps each to its own games.
  RunResult eight = search({"--moves", "e4 e6", "--variant", "standard", "--count"});
  RunResult nine = search({"--moves", "e4 e6", "--variant", "modern", "--count"});
  EXPECT_EQ(eight.out, "0\n");
  EXPECT_EQ(nine.out, "1\n");
  RunResult wrong_board = search({"--fen", fen, "--variant", "standard"});
  EXPECT_EQ(wrong_board.exit_code, 2);
}

TEST_F(SearchCli, ModernPromotionsAndTheNineByNineBoard) {
  RunResult i_file = search({"--promotion", "M", "--file", "i", "--format", "jsonl"});
  ASSERT_EQ(i_file.exit_code, 0) << i_file.err;
  ASSERT_EQ(lines(i_file.out), 1u) << i_file.out;
  EXPECT_NE(i_file.out.find("\"event\":\"Modern ministers\""), std::string::npos);
  EXPECT_NE(i_file.out.find("\"ply\":1"), std::string::npos);
  EXPECT_EQ(search({"--promotion", "M", "--file", "a", "--by", "white", "--count"}).out, "0\n");

  RunResult show = search({"--promotion", "m", "--by", "black", "--file", "a", "--show"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("1...a1=M"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find(" 9  · · · · ♚ · · · Ⓜ"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find(" 1  ⓜ · · · ♔ · · · ·"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("    a b c d e f g h i"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("minister"), std::string::npos);
  EXPECT_NE(show.out.find("FEN 4k3M/9/9/9/9/9/9/9/m3K4 w - - 0 2"), std::string::npos) << show.out;
}

TEST_F(SearchCli, ModernCastlingAndBishopSwapLines) {
  RunResult m = search(
      {"--moves", "Nc3 Ng7 d3 h7 Bd2 Bh8 Me3 Me7 O-M-O O-M-O", "--variant", "modern", "--format", "jsonl"});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.out.find("\"event\":\"Modern castling M\""), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("\"ply\":10"), std::string::npos) << m.out;
  RunResult q = search(
      {"--moves", "Ni3 Nc7 h3 b7 Bh2 Bb8 e3 e7 Qe2 Qe8 O-Q-O O-Q-O", "--variant", "modern", "--count"});
  EXPECT_EQ(q.out, "1\n");
  RunResult swap = search({"--moves", "B=Q B=MN", "--variant", "modern", "--format", "pgn"});
  ASSERT_EQ(swap.exit_code, 0) << swap.err;
  EXPECT_NE(swap.out.find("[BishopSwap \"Yes\"]"), std::string::npos) << swap.out;
  EXPECT_NE(swap.out.find("1. B=Q B=MN 2. e4 e6 3. Nc3 Nc7 *"), std::string::npos) << swap.out;
}

// --explain logs the plan before the search and what the search checked
// after it; the results on stdout are the same.
TEST_F(SearchCli, ExplainLogsThePlanAndTheCandidates) {
  const RunResult plain = search({"--moves", "e4 e5 Nf3 Nc6", "--format", "jsonl"});
  const RunResult r = search({"--moves", "e4 e5 Nf3 Nc6", "--format", "jsonl", "--explain"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_NE(r.err.find("plan: stream the position index"), std::string::npos) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.err, m,
      std::regex(
          R"(checked (\d+) candidate games: (\d+) matched, (\d+) ruled out by their summaries, (\d+) others not matching)")))
      << r.err;
  EXPECT_EQ(m[2].str(), "2");
  EXPECT_GE(std::stoi(m[1].str()), 2);
  EXPECT_EQ(m[3].str(), "0");  // an opening position: summaries are not read
  EXPECT_EQ(std::stoi(m[4].str()),
            std::stoi(m[1].str()) - 2);  // no summary read: the others did not reach it
  EXPECT_EQ(plain.err.find("checked"), std::string::npos);
  // What it read: a new process starts with an empty block cache, so the
  // postings and the two games' records come from table files.
  ASSERT_TRUE(std::regex_search(
      r.err, m,
      std::regex(R"(read (\d+) bytes in (\d+) blocks from table files, (\d+) blocks from the cache)")))
      << r.err;
  EXPECT_GE(std::stoull(m[2].str()), 1u);
  EXPECT_GE(std::stoull(m[1].str()), std::stoull(m[2].str()));
  EXPECT_EQ(plain.err.find("bytes in"), std::string::npos);
}

TEST_F(SearchCli, ExitCodes) {
  RunResult bad_fen = search({"--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1"});
  EXPECT_EQ(bad_fen.exit_code, 2);
  EXPECT_NE(bad_fen.err.find("bad FEN"), std::string::npos) << bad_fen.err;
  RunResult bad_san = search({"--moves", "e4 e5 Ke3"});
  EXPECT_EQ(bad_san.exit_code, 2);
  EXPECT_NE(bad_san.err.find("Ke3"), std::string::npos) << bad_san.err;
  RunResult bad_range = search({"--promotion", "V", "--ply", "9-3"});
  EXPECT_EQ(bad_range.exit_code, 2);
  EXPECT_NE(bad_range.err.find("ply range"), std::string::npos) << bad_range.err;
  RunResult bad_piece = search({"--promotion", "K"});
  EXPECT_EQ(bad_piece.exit_code, 2);
  RunResult bad_format = search({"--format", "xml"});
  EXPECT_EQ(bad_format.exit_code, 2);
  for (const char* count : {"0", "-1", "65"}) {
    RunResult bad_count = search({"--promotion", "V", "--min-count", count});
    EXPECT_EQ(bad_count.exit_code, 2) << count;
    EXPECT_NE(bad_count.err.find("--min-count " + std::string(count) + " is out of range (1 to 64)"),
              std::string::npos)
        << bad_count.err;
  }

  RunResult none = search({"--white", "Nobody"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_NE(none.out.find("0 games"), std::string::npos) << none.out;
  RunResult none_jsonl = search({"--white", "Nobody", "--format", "jsonl"});
  EXPECT_EQ(none_jsonl.exit_code, 0);
  EXPECT_EQ(none_jsonl.out, "");
  RunResult fail_empty = search({"--white", "Nobody", "--fail-empty"});
  EXPECT_EQ(fail_empty.exit_code, 1);
  RunResult fail_count = search({"--white", "Nobody", "--count", "--fail-empty"});
  EXPECT_EQ(fail_count.exit_code, 1);
  EXPECT_EQ(fail_count.out, "0\n");
  RunResult found = search({"--white", "gamma", "--fail-empty"});
  EXPECT_EQ(found.exit_code, 0);

  RunResult missing = run_raw({"search", "--db", dir_->path() + "/no-such-db", "--white", "x"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_FALSE(missing.err.empty());
}

// A date range takes the games whose Date is written as PGN writes it and
// falls in the range; "unknown", "2020-05-05", a month 13 or a year of five
// digits are in no range. A bound names a real day.
TEST(SearchDates, OnlyReadableDatesAreInARange) {
  TempDir dir;
  const std::vector<std::string> dates = {"2020.01.01", "unknown",    "2020-05-05", "99999.01.01",
                                          "2020.13.45", "1990",       "2020.??.??", "????.??.??",
                                          "2021.02.28", "2019.12.31", "2020.05.??"};
  std::string pgn;
  for (std::size_t i = 0; i < dates.size(); ++i)
    pgn += "[Event \"E\"]\n[Site \"S\"]\n[Date \"" + dates[i] + "\"]\n[Round \"" + std::to_string(i + 1) +
           "\"]\n[White \"W" + std::to_string(i) + "\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
  std::ofstream(dir.path() + "/dates.pgn") << pgn;
  const std::string db = dir.path() + "/db";
  ASSERT_LE(run_virrey({"import", dir.path() + "/dates.pgn", "--db", db}, dir.path()).exit_code, 1);
  auto whites = [&](std::vector<std::string> bounds) {
    std::vector<std::string> args = {"search", "--db", db, "--format", "csv"};
    args.insert(args.end(), bounds.begin(), bounds.end());
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string out;  // the White column (id,date,white,...), header dropped
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
      const std::size_t a = line.find(','), b = line.find(',', a + 1);
      out += line.substr(b + 1, line.find(',', b + 1) - b - 1) + " ";
    }
    return out;
  };
  EXPECT_EQ(whites({"--date-from", "2020"}), "W0 W6 W8 W10 ");
  EXPECT_EQ(whites({"--date-to", "2020.02"}), "W0 W5 W9 ");
  EXPECT_EQ(whites({"--date-from", "1990", "--date-to", "1990"}), "W5 ");
  // A Date of unknown month or day is in a range when all its days are.
  EXPECT_EQ(whites({"--date-from", "2020.01.01", "--date-to", "2020.12.31"}), "W0 W6 W10 ");
  EXPECT_EQ(whites({"--date-from", "2020.06.01"}), "W8 ");
  EXPECT_EQ(whites({"--date-to", "2020.05.31"}), "W0 W5 W9 W10 ");
  EXPECT_EQ(whites({"--date-from", "2020.05", "--date-to", "2020.05"}), "W10 ");
  const RunResult bad = run_virrey({"search", "--db", db, "--date-to", "2021.02.29"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("no such day"), std::string::npos) << bad.err;
  EXPECT_EQ(run_virrey({"search", "--db", db, "--date-to", "2020.02.29", "--count"}, dir.path()).exit_code,
            0);
}

}  // namespace
}  // namespace virrey::testing
