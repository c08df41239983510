// Openings named from an ECO file, end to end: `db classify` and `import
// --openings` on hand-made games whose openings are known, search and stats
// by opening, the explorer's names, malformed ECO files, and agreement with
// pgn-extract's -e on a slice of real games.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "run_virrey.hpp"
#include "virrey/store/database.hpp"

namespace virrey::testing {
namespace {

const std::string kData = std::string(VIRREY_TEST_DATA) + "/openings";

std::string game(const std::string& event, const std::string& extra_tags, const std::string& moves,
                 const std::string& result) {
  return "[Event \"" + event + "\"]\n[Site \"Lima\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"W\"]\n" +
         "[Black \"B\"]\n[Result \"" + result + "\"]\n" + extra_tags + "\n" + moves + " " + result + "\n\n";
}

// Games whose openings under tests/data/openings/tiny.eco were worked out by
// hand (the line each reaches deepest):
//   1 QGD in its own order            -> D53 at ply 8 (1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7)
//   2 the same position from 1.c4     -> D53 at ply 8; by move order it would be A10 English
//   3 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6      -> C44 at ply 4
//   4 1.g4 ...                        -> no line of the file: unknown
//   5 1.b4 ..., tagged A00 "Polish"   -> no line of the file: its tags stand
//   6 Virrey chess, QGD order         -> D53 (standard lines name Virrey positions)
std::string handmade_games() {
  return game("QGD", "", "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O", "1/2-1/2") +
         game("QGD via English", "", "1. c4 e6 2. Nc3 d5 3. d4 Nf6 4. Bg5 Be7 5. e3 O-O", "1-0") +
         game("Ruy", "", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "0-1") +
         game("Fool", "", "1. g4 e5 2. f3 Qh4#", "0-1") +
         game("Polish", "[ECO \"A00\"]\n[Opening \"Polish\"]\n", "1. b4 e5 2. Bb2", "1-0") +
         game("Virrey QGD", "[Variant \"Virrey\"]\n", "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7", "*");
}

// `stats results --format csv` rows (by,key,label,games,...): label -> games.
std::map<std::string, std::string> games_by_label(const std::string& csv) {
  std::map<std::string, std::string> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(','), b = line.find(',', a + 1);
    const auto c = line.find(',', b + 1), d = line.find(',', c + 1);
    if (a == std::string::npos || d == std::string::npos) continue;
    rows[line.substr(b + 1, c - b - 1)] = line.substr(c + 1, d - c - 1);
  }
  return rows;
}

class OpeningsCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    std::ofstream(*dir_ / "games.pgn") << handmade_games();
    RunResult r = run({"import", *dir_ / "games.pgn", "--db", db()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    r = run({"db", "classify", "--db", db(), "--openings", kData + "/tiny.eco", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    classify_out_ = new std::string(r.out);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete classify_out_;
  }
  static std::string db() { return *dir_ / "db"; }
  static RunResult run(const std::vector<std::string>& args) { return run_virrey(args, dir_->path()); }
  // The number `search --count` prints for these filters.
  static std::string count(std::vector<std::string> args) {
    args.insert(args.begin(), {"search", "--db", db(), "--count"});
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  }

  static TempDir* dir_;
  static std::string* classify_out_;
};

TempDir* OpeningsCli::dir_ = nullptr;
std::string* OpeningsCli::classify_out_ = nullptr;

TEST_F(OpeningsCli, ClassifyCountsNamedGames) {
  // Six games, four with a position of the file (games 1, 2, 3 and 6).
  EXPECT_NE(classify_out_->find("\"games\":6"), std::string::npos) << *classify_out_;
  EXPECT_NE(classify_out_->find("\"classified\":4"), std::string::npos) << *classify_out_;
}

TEST_F(OpeningsCli, TranspositionClassifiesByPosition) {
  // Games 1, 2 (the English move order) and 6 (Virrey) reach D53's position.
  EXPECT_EQ(count({"--eco", "D53"}), "3");
  EXPECT_EQ(count({"--eco", "D53", "--variant", "virrey"}), "1");
  EXPECT_EQ(count({"--eco", "A10"}), "0");  // no game stays in the English
  EXPECT_EQ(count({"--opening", "qgd: 4.BG5"}), "3");
  EXPECT_EQ(count({"--opening", "Open Game"}), "1");
  // The ECO column shows the classification, game 2 included.
  RunResult r = run({"search", "--db", db(), "--event", "QGD via English", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(",D53,"), std::string::npos) << r.out;
}

TEST_F(OpeningsCli, RangesAndTagFallback) {
  // Game 5 has no classified opening: its tags answer (A00 "Polish").
  EXPECT_EQ(count({"--opening", "polish"}), "1");
  EXPECT_EQ(count({"--eco", "A00-B99"}), "1");
  EXPECT_EQ(count({"--eco", "C00-D99"}), "4");  // C44, and D53 three times
  EXPECT_EQ(count({"--eco", "-C99"}), "2");     // A00 and C44
  EXPECT_EQ(count({"--eco", "D50-"}), "3");
  // Game 4 has neither: no opening condition takes it.
  EXPECT_EQ(count({"--event", "Fool", "--eco", "A00-E99"}), "0");
  RunResult bad = run({"search", "--db", db(), "--eco", "1F0"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("1F0"), std::string::npos) << bad.err;
  EXPECT_EQ(count({"--eco", "F10"}), "0");  // a code of another variant's file: no game here
  EXPECT_EQ(run({"search", "--db", db(), "--eco", "D99-A00"}).exit_code, 2);
}

TEST_F(OpeningsCli, StatsResultsByOpening) {
  RunResult r = run({"stats", "results", "--db", db(), "--by", "opening", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // D53: games 1 (1/2), 2 (1-0), 6 (*); C44: game 3 (0-1); A00 Polish: game 5
  // by its tags (1-0); unknown: game 4 (0-1).
  std::map<std::string, std::string> rows = games_by_label(r.out);
  EXPECT_EQ(rows["D53 QGD: 4.Bg5 Be7"], "3") << r.out;
  EXPECT_EQ(rows["C44 Open Game"], "1") << r.out;
  EXPECT_EQ(rows["A00 Polish"], "1") << r.out;
  EXPECT_EQ(rows["?"], "1") << r.out;
  // Filters of every stats command take the opening too.
  r = run({"stats", "results", "--db", db(), "--eco", "D53", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"games\":3"), std::string::npos) << r.out;
}

// By ECO code: the classified code first, as search --eco counts (games 1,
// 2 and 6 D53 with no ECO tag, game 3 C44), then the tag (game 5, A00).
TEST_F(OpeningsCli, StatsResultsByEcoReadsTheClassification) {
  RunResult r = run({"stats", "results", "--db", db(), "--by", "eco", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> rows = games_by_label(r.out);
  EXPECT_EQ(rows["D53"], "3") << r.out;
  EXPECT_EQ(rows["D53"], count({"--eco", "D53"})) << r.out;
  EXPECT_EQ(rows["C44"], "1") << r.out;
  EXPECT_EQ(rows["A00"], "1") << r.out;
  EXPECT_EQ(rows["?"], "1") << r.out;
}

TEST_F(OpeningsCli, ExplorerNamesPositions) {
  RunResult r =
      run({"stats", "openings", "--db", db(), "--moves", "d4 d5", "--depth", "2", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"opening\":\"D00 Queen's Pawn Game\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"opening\":\"D06 Queen's Gambit\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"opening\":\"D30 Queen's Gambit Declined (QGD)\""), std::string::npos) << r.out;
  r = run({"stats", "openings", "--db", db(), "--moves", "d4 d5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Opening: D00 Queen's Pawn Game"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2.c4  D06 Queen's Gambit"), std::string::npos) << r.out;
}

TEST_F(OpeningsCli, CheckKnowsTheOpenings) {
  RunResult r = run({"db", "check", "--db", db()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("consistent"), std::string::npos);
}

TEST_F(OpeningsCli, MalformedEcoFilesAreLocated) {
  // tiny line 2: D06 "Queen's Gambit" 1.d4 d5 2.c5 * -- "c5" at column 32.
  RunResult r = run({"db", "classify", "--db", db(), "--openings", kData + "/illegal.eco"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("illegal.eco:2:32:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'c5'"), std::string::npos) << r.err;
  // Line 7: [Opening "Larsen -- the string opened at column 10 is never closed.
  r = run({"db", "classify", "--db", db(), "--openings", kData + "/unclosed.pgn"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unclosed.pgn:7:10:"), std::string::npos) << r.err;
  // A line without its terminating '*'.
  std::ofstream(*dir_ / "open.eco") << "# comment\nA10 \"English\" 1.c4\n";
  r = run({"db", "classify", "--db", db(), "--openings", *dir_ / "open.eco"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("open.eco:2:1:"), std::string::npos) << r.err;
  // The stored classification is untouched by the failed runs.
  EXPECT_EQ(count({"--eco", "D53"}), "3");
  // import --openings with a bad file stops before importing anything.
  r = run({"import", *dir_ / "games.pgn", "--db", *dir_ / "never", "--openings", kData + "/illegal.eco"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(*dir_ / "never"));
}

TEST_F(OpeningsCli, ImportWithOpenings) {
  TempDir d;
  std::ofstream(d / "games.pgn") << handmade_games();
  RunResult r =
      run_virrey({"import", d / "games.pgn", "--db", d / "db", "--openings", kData + "/tiny.eco"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_virrey({"search", "--db", d / "db", "--eco", "D53", "--count"}, d.path());
  EXPECT_EQ(r.out, "3\n");
}

// An import naming openings killed after it stored games and before it
// named them leaves its mark (set here through the store, as such an import
// sets it when it starts): the next import naming openings names them, even
// when it stores nothing itself (its inputs imported before), and clears it.
TEST_F(OpeningsCli, AnImportKilledBeforeItNamedItsGamesIsCompletedByTheNext) {
  TempDir d;
  std::ofstream(d / "games.pgn") << handmade_games();
  const std::string db = d / "db";
  ASSERT_EQ(run_virrey({"import", d / "games.pgn", "--db", db}, d.path()).exit_code, 0);
  auto named = [&] { return run_virrey({"search", "--db", db, "--eco", "D53", "--count"}, d.path()).out; };
  ASSERT_EQ(named(), "0\n");
  // No mark: the games stored before are not this import's to name.
  ASSERT_EQ(run_virrey({"import", d / "games.pgn", "--db", db, "--openings", kData + "/tiny.eco"}, d.path())
                .exit_code,
            0);
  EXPECT_EQ(named(), "0\n");
  {
    auto opened = store::Database::open(db, {store::OpenMode::ReadWrite, false});
    ASSERT_TRUE(opened) << opened.error().message;
    ASSERT_TRUE((*opened)->set_openings_pending(1));
  }
  // Until then `db check` says the naming was stopped part way (exit 1).
  const RunResult check = run_virrey({"db", "check", "--db", db}, d.path());
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_NE(
      check.out.find("problem: openings: the classification of the games from 1 on was stopped part way: "
                     "run the import or `virrey db classify` again"),
      std::string::npos)
      << check.out;
  const RunResult r =
      run_virrey({"import", d / "games.pgn", "--db", db, "--openings", kData + "/tiny.eco"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(named(), "3\n");
  EXPECT_EQ(run_virrey({"db", "check", "--db", db}, d.path()).exit_code, 0);
  // db classify completes such a naming too (it marks its own as it begins,
  // so a classify stopped part way is reported the same).
  {
    auto reopened = store::Database::open(db, {store::OpenMode::ReadWrite, false});
    ASSERT_TRUE(reopened) << reopened.error().message;
    ASSERT_TRUE((*reopened)->set_openings_pending(1));
  }
  EXPECT_EQ(run_virrey({"db", "check", "--db", db}, d.path()).exit_code, 1);
  ASSERT_EQ(run_virrey({"db", "classify", "--db", db, "--openings", kData + "/tiny.eco"}, d.path()).exit_code,
            0);
  EXPECT_EQ(run_virrey({"db", "check", "--db", db}, d.path()).exit_code, 0);
  auto opened = store::Database::open(db, {store::OpenMode::Read, false});
  ASSERT_TRUE(opened);
  const auto pending = (*opened)->openings_pending();
  ASSERT_TRUE(pending);
  EXPECT_FALSE(pending->has_value());
}

TEST_F(OpeningsCli, ModernGamesTakeAModernFile) {
  // 1. Nc3 Ng7 2. d3 h7 ... reaches the file's A01 line (Nc3 Ng7 d3) at ply 3.
  TempDir d;
  std::ofstream(d / "modern.pgn") << game("Modern", "[Variant \"Modern\"]\n",
                                          "1. Nc3 Ng7 2. d3 h7 3. Bd2 Bh8", "*") +
                                         game("Modern other", "[Variant \"Modern\"]\n", "1. d3 h7", "*");
  RunResult r = run_virrey({"import", d / "modern.pgn", "--db", d / "db"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_virrey({"db", "classify", "--db", d / "db", "--openings", kData + "/modern.pgn"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 games, 1 openings named"), std::string::npos) << r.out;
  r = run_virrey(
      {"search", "--db", d / "db", "--opening", "Modern knight opening: Double knights, 2.d3", "--count"},
      d.path());
  EXPECT_EQ(r.out, "1\n") << r.err;
  // Codes of other letters than chess's A-E, as a Modern ECO file may use.
  std::string lettered =
      game("x", "[ECO \"M01\"]\n[Opening \"Lettered\"]\n[Variant \"Modern\"]\n", "1. Nc3 Ng7", "*");
  std::ofstream(d / "lettered.pgn") << lettered;
  r = run_virrey({"db", "classify", "--db", d / "db", "--openings", d / "lettered.pgn"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* eco : {"M01", "M00-M99", "m01"}) {
    r = run_virrey({"search", "--db", d / "db", "--eco", eco, "--count"}, d.path());
    EXPECT_EQ(r.out, "1\n") << eco << r.err;
  }
}

// Agreement with pgn-extract -e (its eco.pgn) on a slice of real games: the
// same ECO code for nearly every game. pgn-extract compares boards alone
// (either side to move) within six plies of a line's length; virrey whole
// positions at any ply: the few games where that matters differ (README).
TEST(OpeningsAgreement, PgnExtractOnRealSlice) {
  const std::string eco = "/usr/share/pgn-extract/eco.pgn";
  // Debian installs it in /usr/games.
  std::string peer = "/usr/games/pgn-extract";
  if (!std::filesystem::exists(peer)) peer = "pgn-extract";
  if (std::system(("command -v " + peer + " >/dev/null 2>&1").c_str()) != 0 || !std::filesystem::exists(eco))
    GTEST_SKIP() << "pgn-extract is not installed (scripts/install-deps.sh installs it)";
  TempDir d;
  const std::string slice = kData + "/pgnmentor-slice.pgn.zst";
  ASSERT_EQ(std::system(("zstd -dcq '" + slice + "' > '" + d / "slice.pgn" + "'").c_str()), 0);
  ASSERT_EQ(std::system((peer + " -s -e" + eco + " --output '" + d / "peer.pgn" + "' '" + d / "slice.pgn" +
                         "' 2>/dev/null")
                            .c_str()),
            0);
  // virrey reads the games without their opening tags, so that every code it
  // reports comes from its classification.
  ASSERT_EQ(std::system(("grep -v -E '^\\[(ECO|Opening|Variation|SubVariation) ' '" + d / "slice.pgn" +
                         "' > '" + d / "untagged.pgn" + "'")
                            .c_str()),
            0);
  RunResult r = run_virrey({"import", d / "untagged.pgn", "--db", d / "db", "--openings", eco}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_virrey({"search", "--db", d / "db", "--limit", "0", "--format", "csv"}, d.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Our ECO column, in game order (the slice imports whole: no game rejected or repeated).
  std::vector<std::string> ours;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  std::size_t eco_col = 0;
  for (std::size_t i = 0, col = 0; i < line.size(); ++i)
    if (line.compare(i, 4, "eco,") == 0 && (i == 0 || line[i - 1] == ','))
      eco_col = col;
    else if (line[i] == ',')
      ++col;
  while (std::getline(in, line)) {
    // Fields holding commas are quoted: split honouring quotes.
    std::vector<std::string> f(1);
    bool quoted = false;
    for (char c : line) {
      if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        f.emplace_back();
      else
        f.back() += c;
    }
    ours.push_back(eco_col < f.size() ? f[eco_col] : "");
  }
  std::vector<std::string> theirs;
  std::istringstream pin(read_file(d / "peer.pgn"));
  while (std::getline(pin, line))
    if (line.rfind("[ECO \"", 0) == 0) theirs.push_back(line.substr(6, line.find('"', 6) - 6));
  ASSERT_EQ(ours.size(), theirs.size());
  ASSERT_GE(ours.size(), 100u);
  std::size_t same = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_FALSE(ours[i].empty()) << "game " << i + 1 << " has no opening";
    same += ours[i] == theirs[i];
  }
  const double agreement = double(same) / double(ours.size());
  std::printf("ECO agreement with pgn-extract -e: %zu of %zu games (%.1f%%)\n", same, ours.size(),
              100 * agreement);
  EXPECT_GE(agreement, 0.97);  // 99.9% on the whole of pgnmentor-players-01
}

}  // namespace
}  // namespace virrey::testing
