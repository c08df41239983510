// `virrey stats` as a process: every subcommand and format on the test
// collection, figures checked against the library, valid JSON, rectangular
// CSV, exit codes for bad input.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "run_virrey.hpp"
#include "stats_collection.hpp"
#include "virrey/query/stats_openings.hpp"
#include "virrey/query/stats_promotions.hpp"
#include "virrey/query/stats_results.hpp"

namespace virrey::stats_test {
namespace {

using testing::run_virrey_words;

// A strict JSON syntax check (RFC 8259 values; no NaN, no trailing commas).
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view s) : s_(s) {}
  bool valid() {
    ws();
    if (!value()) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool lit(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool string() {
    if (!lit("\"")) return false;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (static_cast<unsigned char>(s_[i_]) < 0x20) return false;
      if (s_[i_] == '\\') ++i_;
      ++i_;
    }
    return lit("\"");
  }
  bool number() {
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                              s_[i_] == 'e' || s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
      ++i_;
    return i_ > start && std::isdigit(static_cast<unsigned char>(s_[i_ - 1]));
  }
  bool value() {
    ws();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return members('}', true);
    if (c == '[') return members(']', false);
    if (c == '"') return string();
    if (c == 't') return lit("true");
    if (c == 'f') return lit("false");
    if (c == 'n') return lit("null");
    return number();
  }
  bool members(char close, bool object) {
    ++i_;
    ws();
    if (lit(std::string_view(&close, 1))) return true;
    for (;;) {
      ws();
      if (object) {
        if (!string()) return false;
        ws();
        if (!lit(":")) return false;
      }
      if (!value()) return false;
      ws();
      if (lit(std::string_view(&close, 1))) return true;
      if (!lit(",")) return false;
    }
  }
  std::string_view s_;
  std::size_t i_ = 0;
};

std::vector<std::string> csv_row(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        out.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// Rows of a CSV text, each with as many fields as the header.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) rows.push_back(csv_row(line));
  for (const auto& r : rows) EXPECT_EQ(r.size(), rows.front().size()) << text;
  return rows;
}

std::string db_arg() { return "--db " + Collection::shared().db_path(); }

TEST(StatsCli, EveryCommandAndFormat) {
  const std::vector<std::string> commands = {"openings --variant virrey",
                                             "openings --variant standard --depth 2 --min-games 5",
                                             "results",
                                             "results --by variant",
                                             "results --by year",
                                             "results --by event --limit 4",
                                             "results --by player --sort games",
                                             "results --by eco",
                                             "promotions",
                                             "promotions --variant virrey --player a",
                                             "games",
                                             "games --bin 25",
                                             "games --white nobody-at-all",
                                             "openings --variant modern --moves e4 e6 --depth 2",
                                             "results --variant modern --by player",
                                             "promotions --variant modern --promotion M --file i",
                                             "games --variant modern"};
  for (const auto& c : commands) {
    for (std::string format : {"text", "json", "csv"}) {
      const testing::RunResult r = run_virrey_words("stats " + c + " --format " + format + " " + db_arg());
      ASSERT_EQ(r.exit_code, 0) << c << " " << format;
      ASSERT_FALSE(r.out.empty()) << c << " " << format;
      if (format == "json") {
        EXPECT_TRUE(JsonChecker(r.out).valid()) << c << "\n" << r.out;
      }
      if (format == "csv") {
        EXPECT_GE(csv_rows(r.out).size(), 2u) << c;
      }
    }
  }
}

TEST(StatsCli, FiguresAreTheLibrarys) {
  auto& data = Collection::shared();
  // results, CSV: the total row.
  const testing::RunResult r = run_virrey_words("stats results --format csv " + db_arg());
  ASSERT_EQ(r.exit_code, 0);
  const auto rows = csv_rows(r.out);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], "by");
  EXPECT_EQ(rows[1][0], "total");
  auto lib = query::result_stats(*data.db, query::GameScope::everything(), {});
  ASSERT_TRUE(lib);
  EXPECT_EQ(rows[1][3], std::to_string(lib->total.games));
  EXPECT_EQ(rows[1][4], std::to_string(lib->total.white_wins));
  EXPECT_EQ(rows[1][7], std::to_string(lib->total.unfinished));

  // promotions, CSV: viceroy games of Virrey.
  auto promos = query::promotion_stats(*data.db, query::GameScope::everything());
  ASSERT_TRUE(promos);
  std::uint64_t viceroy_games = 0;
  for (const auto& v : promos->variants)
    if (v.variant == Variant::Virrey) viceroy_games = v.viceroy.games;
  const testing::RunResult p = run_virrey_words("stats promotions --format csv " + db_arg());
  bool seen = false;
  for (const auto& row : csv_rows(p.out))
    if (row[0] == "virrey" && row[1] == "viceroy_games") {
      EXPECT_EQ(row[5], std::to_string(viceroy_games));
      seen = true;
    }
  EXPECT_TRUE(seen);

  // openings: --moves takes several arguments and one string alike.
  const auto& g = data.games.front();
  const testing::RunResult a = run_virrey_words("stats openings --variant virrey --format csv --moves " +
                                                g.san[0] + " " + g.san[1] + " " + db_arg());
  const testing::RunResult b = run_virrey_words("stats openings --variant virrey --format csv --moves \"1. " +
                                                g.san[0] + " " + g.san[1] + "\" " + db_arg());
  ASSERT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_GE(csv_rows(a.out).size(), 2u);  // the first game goes on from there
}

TEST(StatsCli, TextHasTablesAndBars) {
  const testing::RunResult r = run_virrey_words("stats openings --variant virrey " + db_arg());
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Move"), std::string::npos);
  EXPECT_NE(r.out.find("█"), std::string::npos);
  const testing::RunResult g = run_virrey_words("stats games " + db_arg());
  EXPECT_NE(g.out.find("checkmate"), std::string::npos);
  EXPECT_NE(g.out.find("median"), std::string::npos);
  const testing::RunResult p = run_virrey_words("stats promotions --variant virrey " + db_arg());
  EXPECT_NE(p.out.find("Viceroys"), std::string::npos);
  EXPECT_NE(p.out.find("V viceroy"), std::string::npos);
}

// Where a share or an average has no value (no games, or none finished),
// text says "-" as JSON says null and CSV leaves the field empty.
TEST(StatsCli, NoValueReadsTheSameInTextJsonAndCsv) {
  const std::string words = "stats results --white 'Nobody at all' " + db_arg();
  const testing::RunResult text = run_virrey_words(words);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string all = text.out.substr(text.out.find("\nall"));
  EXPECT_EQ(all.find("0.0"), std::string::npos) << text.out;
  std::istringstream cells(all.substr(0, all.find('\n', 1)));
  std::vector<std::string> row;
  for (std::string cell; cells >> cell;) row.push_back(cell);
  // all, Games, %, four counts, four shares, Decisive, Avg plies
  ASSERT_GE(row.size(), 13u) << all;
  for (std::size_t i : {2u, 7u, 8u, 9u, 10u, 11u, 12u}) EXPECT_EQ(row[i], "-") << i << ": " << all;
  const testing::RunResult json = run_virrey_words(words + " --format json");
  EXPECT_NE(json.out.find("\"white_pct\":null"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"avg_plies\":null"), std::string::npos) << json.out;
}

TEST(StatsCli, ModernFiguresAreTheLibrarys) {
  auto& data = Collection::shared();
  // openings from the Modern start position, JSON: the moves the tree holds.
  query::OpeningQuery q;
  q.variant = Variant::Modern;
  auto lib = query::opening_stats(*data.db, q, query::GameScope::everything());
  ASSERT_TRUE(lib);
  ASSERT_FALSE(lib->moves.empty());
  const testing::RunResult o = run_virrey_words("stats openings --variant modern --format json " + db_arg());
  ASSERT_EQ(o.exit_code, 0);
  EXPECT_NE(o.out.find("\"variant\":\"modern\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"fen\":\"rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1\""),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("\"san\":\"" + lib->moves.front().san + "\",\"uci\":\"" + lib->moves.front().uci +
                       "\",\"games\":" + std::to_string(lib->moves.front().counters.games) + ","),
            std::string::npos)
      << o.out;

  // Without --variant, a 9x9 FEN is Modern chess whatever most games are; an
  // 8x8 one is the 8x8 variant with the most games.
  const testing::RunResult by_fen = run_virrey_words(
      "stats openings --format json --fen 'rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1' " +
      db_arg());
  ASSERT_EQ(by_fen.exit_code, 0) << by_fen.err;
  EXPECT_EQ(by_fen.out, o.out);
  const auto counts = data.db->counts();
  const Variant eight =
      counts[std::size_t(Variant::Virrey)].games > counts[std::size_t(Variant::Standard)].games
          ? Variant::Virrey
          : Variant::Standard;
  const testing::RunResult by_8x8 = run_virrey_words(
      "stats openings --format json --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' " +
      db_arg());
  ASSERT_EQ(by_8x8.exit_code, 0) << by_8x8.err;
  EXPECT_NE(by_8x8.out.find(std::string("\"variant\":\"") + std::string(info(eight).cli_name) + "\""),
            std::string::npos)
      << by_8x8.out;

  // promotions, CSV: ministers made on the i-file, and no viceroy.
  auto promos = query::promotion_stats(*data.db, query::GameScope::everything(Variant::Modern));
  ASSERT_TRUE(promos);
  ASSERT_EQ(promos->variants.size(), 1u);
  std::uint64_t i_file = 0;
  for (const auto& c : promos->variants[0].cells)
    if (c.piece == PieceType::Minister && c.file == 8) i_file += c.count;
  ASSERT_GT(i_file, 0u);
  const testing::RunResult p = run_virrey_words("stats promotions --variant modern --format csv " + db_arg());
  ASSERT_EQ(p.exit_code, 0);
  std::uint64_t csv_i_file = 0;
  for (const auto& row : csv_rows(p.out)) {
    EXPECT_NE(row[0], "virrey");
    if (row[0] == "modern" && row[1] == "count" && row[2] == "M" && row[4] == "i")
      csv_i_file += std::stoull(row[5]);
  }
  EXPECT_EQ(csv_i_file, i_file);
  const testing::RunResult text = run_virrey_words("stats promotions --variant modern " + db_arg());
  EXPECT_NE(text.out.find("M minister"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("Viceroys"), std::string::npos) << text.out;
}

TEST(StatsCli, ExitCodes) {
  // Each refusal exits 2 and names its option and what is wrong with it.
  const std::pair<std::string, std::string> usage[] = {
      {"stats openings --fen \"not a fen\"", "--fen: bad FEN: "},
      {"stats openings --variant virrey --moves e4 Ke5", "--moves: bad SAN: move 1 (...Ke5)"},
      {"stats openings --depth 0", "--depth 0 is out of range (1 to 20)"},
      {"stats results --by colour", "--by: colour not in {"},
      {"stats results --format xml", "--format: xml not in {"},
      {"stats games --date-from 20x0", "--date-from: bad date '20x0'"},
      {"stats promotions --promotion X", "--promotion: bad promotion piece 'X'"},
  };
  for (const auto& [words, message] : usage) {
    const testing::RunResult r = run_virrey_words(words + " " + db_arg());
    EXPECT_EQ(r.exit_code, 2) << words;
    EXPECT_NE(r.err.find("virrey: error: " + message), std::string::npos) << words << ": " << r.err;
  }
  const testing::RunResult missing = run_virrey_words("stats games --db /nonexistent/virrey.db");
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("no virrey database at /nonexistent/virrey.db"), std::string::npos)
      << missing.err;
  const testing::RunResult unnamed = run_virrey_words("stats");  // no statistic named
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.err.find("stats: a command is needed: openings, results,"), std::string::npos)
      << unnamed.err;
  // A filter that matches nothing is not an error.
  EXPECT_EQ(run_virrey_words("stats results --white nobody-at-all " + db_arg()).exit_code, 0);
}

// An en-passant right no legal capture can use is no right (FIDE 9.2.3): 1.d4
// from d2 beside a black pawn on e4 pinned against its king by the queen on
// h4 reaches the same position as 1.d4 from d3, and the explorer counts both
// games under either FEN, as search does, by the tree and by replay. Where
// the capture is legal (king on a5), the right tells the two apart.
TEST(StatsCli, AnEnPassantRightNoCaptureCanUseIsNoRight) {
  testing::TempDir dir;
  auto game = [](const std::string& fen, const std::string& moves, const std::string& result) {
    return "[Event \"E\"]\n[Site \"?\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n"
           "[Black \"B\"]\n[Result \"" +
           result + "\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + moves + " " + result + "\n\n";
  };
  std::ofstream(dir / "ep.pgn") << game("8/8/8/8/k3p2Q/8/3P4/2K5 w - - 0 1", "1. d4 Kb5", "1-0")
                                << game("8/8/8/8/k3p2Q/3P4/8/2K5 w - - 0 1", "1. d4 Kb5", "0-1")
                                << game("8/8/8/k7/4p2Q/8/3P4/2K5 w - - 0 1", "1. d4 Kb6", "1-0")
                                << game("8/8/8/k7/4p2Q/3P4/8/2K5 w - - 0 1", "1. d4 Kb6", "0-1");
  const std::string db = dir / "db";
  ASSERT_EQ(testing::run_virrey({"import", dir / "ep.pgn", "--db", db}, dir.path()).exit_code, 0);
  // The explorer's CSV row of the one move: "san,games,white_wins,black_wins".
  auto row = [&](const std::string& fen, bool replay) {
    std::vector<std::string> args{"stats", "openings", "--db", db, "--fen", fen, "--format", "csv"};
    if (replay) args.insert(args.end(), {"--plies", "0-"});  // a scope: the games are replayed
    const testing::RunResult r = testing::run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(r.out);
    std::string header, line;
    std::getline(in, header);
    std::getline(in, line);
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    return cells.size() > 8 ? cells[2] + "," + cells[4] + "," + cells[6] + "," + cells[8] : line;
  };
  for (bool replay : {false, true}) {
    SCOPED_TRACE(replay ? "replay" : "tree");
    EXPECT_EQ(row("8/8/8/8/k2Pp2Q/8/8/2K5 b - - 0 1", replay), "Kb5,2,1,1");
    EXPECT_EQ(row("8/8/8/8/k2Pp2Q/8/8/2K5 b - d3 0 1", replay), "Kb5,2,1,1");
    EXPECT_EQ(row("8/8/8/k7/3Pp2Q/8/8/2K5 b - d3 0 1", replay), "Kb6,1,1,0");
    EXPECT_EQ(row("8/8/8/k7/3Pp2Q/8/8/2K5 b - - 0 1", replay), "Kb6,1,0,1");
  }
  const testing::RunResult count = testing::run_virrey(
      {"search", "--db", db, "--fen", "8/8/8/8/k2Pp2Q/8/8/2K5 b - - 0 1", "--count"}, dir.path());
  EXPECT_EQ(count.out, "2\n");
}

// Without --variant the explorer takes the variant of most games the filters
// choose, not of the whole database: one standard game among two Virrey
// games, chosen by its event, is explored as standard chess, and its games
// are replayed (the tree counts every game).
TEST(StatsCli, TheExplorersVariantIsThatOfTheChosenGames) {
  testing::TempDir dir;
  auto game = [](const std::string& event, const std::string& variant, const std::string& moves) {
    return "[Event \"" + event + "\"]\n[Site \"?\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n" +
           "[Black \"B\"]\n[Result \"1-0\"]\n" + variant + "\n" + moves + " 1-0\n\n";
  };
  std::ofstream(dir / "mixed.pgn") << game("Std Open", "", "1. e4 e5")
                                   << game("Vir Cup", "[Variant \"Virrey\"]\n", "1. d4 d5")
                                   << game("Vir Cup", "[Variant \"Virrey\"]\n", "1. c4 c5");
  const std::string db = dir / "db";
  ASSERT_EQ(testing::run_virrey({"import", dir / "mixed.pgn", "--db", db}, dir.path()).exit_code, 0);
  const testing::RunResult chosen = testing::run_virrey(
      {"stats", "openings", "--db", db, "--event", "Std Open", "--format", "json"}, dir.path());
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("\"variant\":\"standard\""), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.out.find("\"san\":\"e4\""), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.out.find("\"source\":\"replay\""), std::string::npos) << chosen.out;
  // Unfiltered, the database's most games (Virrey), from its tree.
  const testing::RunResult all =
      testing::run_virrey({"stats", "openings", "--db", db, "--format", "json"}, dir.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("\"variant\":\"virrey\""), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("\"source\":\"tree\""), std::string::npos) << all.out;
  // A filter that chooses no game explores the database's variant, replayed.
  const testing::RunResult none = testing::run_virrey(
      {"stats", "openings", "--db", db, "--event", "Nowhere", "--format", "json"}, dir.path());
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("\"variant\":\"virrey\""), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("\"source\":\"replay\""), std::string::npos) << none.out;
}

}  // namespace
}  // namespace virrey::stats_test
