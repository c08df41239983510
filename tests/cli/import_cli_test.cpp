// `virrey import`, `export` and `db` end to end: the summary, re-import,
// rejects, export equal to the imported games, and the bad cases (not a
// database, newer schema, unwritable path, full disk) with exit code 3.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "random_games.hpp"
#include "store_hooks.hpp"
#include "store_test_util.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::store::test {
namespace {

const char* kBadGame = R"([Event "Bad"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "X"]
[Black "Y"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0

)";

// The PGN that export must write for an input: its valid games, each once
// (the first time it appears), in PGN export format.
std::string expected_export(const std::string& input) {
  std::string out;
  std::vector<game::GameRecord> kept;
  for (auto& g : check_pgn(input)) {
    if (g.has_error) continue;
    bool dup = false;
    for (const auto& k : kept) dup |= game::same_game(k, g.record);
    if (dup) continue;
    out += game::write_pgn(g.record);
    kept.push_back(std::move(g.record));
  }
  return out;
}

class ImportCli : public ::testing::Test {
 protected:
  TempDir dir;
  std::string db = dir / "games.db";
  std::string input = dir / "input.pgn";
  std::string games = std::string(kSampleGames) + random_games(300, 42, 1, true) + kBadGame + kSampleGames;
  void SetUp() override { write_file(input, games); }
};

TEST_F(ImportCli, ImportsReportsAndExportsTheSameGames) {
  auto r = run_virrey_words(
      "import " + input + " --db " + db + " --format json --rejects " + (dir / "rejects.pgn"), dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // one game had errors
  EXPECT_EQ(json_number(r.out, "read"), 5 + 300 + 1 + 5);
  EXPECT_EQ(json_number(r.out, "rejected"), 1);
  EXPECT_EQ(json_number(r.out, "duplicates"), 5);
  EXPECT_EQ(json_number(r.out, "stored"), 305);
  EXPECT_GT(json_number(r.out, "positions"), 300 * 20);
  EXPECT_GE(json_number(r.out, "seconds"), 0);
  EXPECT_NE(r.err.find("illegal-move"), std::string::npos);  // the rejected game's diagnostic
  // The game's bytes as read, up to its result line, then a blank line.
  EXPECT_EQ(read_file(dir / "rejects.pgn"), kBadGame);

  auto e = run_virrey_words("export --db " + db, dir.path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.out, expected_export(games));
  write_file(dir / "export.pgn", e.out);
  auto v = run_virrey_words("validate " + (dir / "export.pgn"), dir.path());
  EXPECT_EQ(v.exit_code, 0) << v.out;

  auto lines =
      run_virrey_words("export --db " + db + " --format jsonl --variant virrey --limit 3", dir.path());
  ASSERT_EQ(lines.exit_code, 0);
  EXPECT_EQ(std::count(lines.out.begin(), lines.out.end(), '\n'), 3);
  EXPECT_NE(lines.out.find("\"variant\":\"virrey\""), std::string::npos);
  EXPECT_EQ(lines.out.find("\"variant\":\"standard\""), std::string::npos);

  auto check = run_virrey_words("db check --db " + db, dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("consistent"), std::string::npos);
  auto info = run_virrey_words("db info --format json --db " + db, dir.path());
  EXPECT_EQ(info.exit_code, 0);
  EXPECT_EQ(json_number(info.out, "schema_version"), kSchemaVersion);
  EXPECT_NE(info.out.find("\"positions\":{\"bytes\""), std::string::npos);
  auto text = run_virrey_words("db info --db " + db, dir.path());
  EXPECT_NE(text.out.find("virrey"), std::string::npos);
  // Every part of the database is listed, the indexes added later too.
  for (const char* part : {"games", "summaries", "positions", "tree", "tags", "promotions", "identities",
                           "material", "openings", "squares"}) {
    EXPECT_NE(info.out.find(std::string("\"") + part + "\":{\"bytes\""), std::string::npos) << part;
    EXPECT_NE(text.out.find(std::string("\n") + part + " "), std::string::npos) << part;
  }
}

// JSON Lines export keeps the whole game: its tags and `movetext` made into
// PGN again import as the same games, whose PGN export is byte for byte the
// one of the games imported (comments, NAGs, nested variations, clocks).
TEST_F(ImportCli, JsonLinesExportKeepsCommentsNagsAndVariations) {
  write_file(
      input,
      "[Event \"A\"]\n[Result \"1-0\"]\n\n{Start} 1. e4 $1 {[%clk 0:03:00] [%eval 0.25]} e5 $14 2. Nf3 "
      "(2. f4 exf4 (2... d5 3. exd5) 3. Nf3 {\"quoted\" \\ back}) 2... Nc6 ; line comment\n3. Bb5 a6 "
      "$255 1-0\n\n[Event \"B\"]\n[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n"
      "[Variant \"Virrey\"]\n[Result \"*\"]\n\n1. a8=R+ {rook} (1. Kd2) 1... Kd7 *\n\n"
      "[Event \"C\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 ({" +
          std::string(85, 'x') +
          "} 3... d6 4. d4)) 4. Ba4 *\n\n[Event \"D\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n"
          "[Annotator \"x\"]\n\n1. Kd2 *\n");
  ASSERT_EQ(run_virrey_words("import " + input + " --db " + db, dir.path()).exit_code, 0);
  const auto pgn = run_virrey_words("export --db " + db, dir.path());
  const auto lines = run_virrey_words("export --db " + db + " --format jsonl", dir.path());
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  std::string again;
  std::size_t start = 0, games = 0;
  for (std::size_t end; (end = lines.out.find('\n', start)) != std::string::npos; start = end + 1, ++games) {
    const auto game = nlohmann::ordered_json::parse(lines.out.substr(start, end - start));
    ASSERT_TRUE(game.contains("movetext")) << game.dump();
    // One space between tokens, none inside parentheses, wherever the PGN wrapped.
    const std::string movetext = game["movetext"].get<std::string>();
    for (const char* wrong : {"( ", " )", "  "})
      EXPECT_EQ(movetext.find(wrong), std::string::npos) << movetext;
    std::string header;
    for (const auto& [name, value] : game["tags"].items()) {
      std::string escaped;
      for (char c : value.get<std::string>()) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
      }
      header += "[" + name + " \"" + escaped + "\"]\n";
    }
    // The tags are those of the PGN export, SetUp and roster defaults included.
    EXPECT_NE(pgn.out.find(header + "\n"), std::string::npos) << header;
    again += header;
    again += "\n" + game["movetext"].get<std::string>() + "\n\n";
  }
  EXPECT_EQ(games, 4u);
  EXPECT_NE(pgn.out.find("[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN "), std::string::npos)
      << pgn.out;
  write_file(dir / "again.pgn", again);
  const std::string db2 = dir / "again.db";
  ASSERT_EQ(run_virrey_words("import " + (dir / "again.pgn") + " --db " + db2, dir.path()).exit_code, 0)
      << again;
  EXPECT_EQ(run_virrey_words("export --db " + db2, dir.path()).out, pgn.out);
  EXPECT_NE(pgn.out.find("(2... d5 3. exd5)"), std::string::npos) << pgn.out;
}

TEST_F(ImportCli, ModernGamesExportAsGeneratedAndCount) {
  const std::string modern = dir / "modern.pgn";
  ASSERT_EQ(run_virrey_words("generate --variant modern --games 40 --seed 9 --output " + modern, dir.path())
                .exit_code,
            0);
  const std::string generated = read_file(modern);
  ASSERT_NE(generated.find("[BishopSwap \"Yes\"]"), std::string::npos);
  const std::string eight = dir / "eight.pgn";  // 8x8 games beside them
  write_file(eight, kSampleGames);
  auto r = run_virrey_words("import " + modern + " " + eight + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "stored"), 40 + 5);

  // Export by variant gives back the generated bytes: tags (Variant,
  // BishopSwap), moves, castling, swaps and minister promotions.
  auto e = run_virrey_words("export --db " + db + " --variant modern", dir.path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.out, generated);
  auto rest = run_virrey_words("export --db " + db + " --variant standard --format jsonl", dir.path());
  EXPECT_EQ(rest.out.find("\"variant\":\"modern\""), std::string::npos);

  auto info = run_virrey_words("db info --format json --db " + db, dir.path());
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto d = Database::open(db, {OpenMode::Read, false});
  ASSERT_TRUE(d);
  const auto counts = (*d)->counts();
  EXPECT_EQ(counts[std::size_t(Variant::Modern)].games, 40u);
  EXPECT_EQ(counts[std::size_t(Variant::Standard)].games + counts[std::size_t(Variant::Virrey)].games, 5u);
  const auto at = info.out.find("\"modern\"");
  ASSERT_NE(at, std::string::npos) << info.out;
  EXPECT_EQ(json_number(info.out.substr(at), "games"), 40) << info.out;
  auto text = run_virrey_words("db info --db " + db, dir.path());
  EXPECT_NE(text.out.find("modern"), std::string::npos) << text.out;
  auto check = run_virrey_words("db check --db " + db, dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST_F(ImportCli, ImportingAgainAddsNothingAndSaysSo) {
  ASSERT_EQ(run_virrey_words("import " + input + " --db " + db, dir.path()).exit_code, 1);
  auto again = run_virrey_words("import " + input + " --db " + db, dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("imported before"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("stored,"), std::string::npos);  // nothing was read
  // Its record keeps the game it had with errors (its JSON says so).
  auto skipped = run_virrey_words("import " + input + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(json_number(skipped.out, "skipped_rejected"), 1) << skipped.out;
  EXPECT_EQ(json_number(skipped.out, "rejected"), 0);
  // Read again all the same: every game is a duplicate.
  auto forced = run_virrey_words("import " + input + " --db " + db + " --force --format json", dir.path());
  EXPECT_EQ(json_number(forced.out, "stored"), 0);
  EXPECT_EQ(json_number(forced.out, "duplicates"), 310);
  // The same games under another name, from standard input: duplicates too.
  auto piped = run_virrey_words("import - --db " + db + " --format json < " + input, dir.path());
  EXPECT_EQ(json_number(piped.out, "stored"), 0);
  auto d = Database::open(db, {OpenMode::Read, false});
  ASSERT_TRUE(d);
  std::uint64_t stored = 0;
  for (const auto& c : (*d)->counts()) stored += c.games;
  EXPECT_EQ(stored, 305u);
}

// What export writes imports back as the same games, all duplicates: games
// lacking roster tags (export writes "?"), and games whose variant came from
// --variant or a Variant tag that names none (export names it).
TEST_F(ImportCli, AnExportImportedAgainIsAllDuplicates) {
  const std::string virrey_games = dir / "virrey.pgn";
  write_file(virrey_games,
             "[White \"A\"]\n[Variant \"?\"]\n\n1. e4 e5 2. Nf3 *\n\n"
             "[SetUp \"1\"]\n[FEN \"7k/4P3/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. e8=V+ Kg7 *\n");
  ASSERT_EQ(run_virrey_words("import " + input + " --db " + db, dir.path()).exit_code, 1);
  auto v = run_virrey_words("import " + virrey_games + " --variant virrey --db " + db + " --format json",
                            dir.path());
  ASSERT_EQ(v.exit_code, 0) << v.err;
  ASSERT_EQ(json_number(v.out, "stored"), 2);
  auto e = run_virrey_words("export --db " + db + " --output " + (dir / "export.pgn"), dir.path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  const std::string exported = read_file(dir / "export.pgn");
  EXPECT_NE(exported.find("[Variant \"Virrey\"]"), std::string::npos);
  EXPECT_EQ(exported.find("[Variant \"?\"]"), std::string::npos);
  // Read without --variant, every game is what was stored.
  auto checked = run_virrey_words("validate " + (dir / "export.pgn"), dir.path());
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  auto again =
      run_virrey_words("import " + (dir / "export.pgn") + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json_number(again.out, "stored"), 0);
  EXPECT_EQ(json_number(again.out, "duplicates"), 305 + 2);
  // An export into the database's own directory is refused; the database is whole.
  EXPECT_EQ(run_virrey_words("export --db " + db + " --output " + db + "/CURRENT", dir.path()).exit_code, 2);
  EXPECT_EQ(run_virrey_words("db check --db " + db, dir.path()).exit_code, 0);
}

// Rejected games keep a line of their own in the rejects file, also when
// an input ends without a line break after its last game.
TEST_F(ImportCli, RejectsStartEachGameOnItsOwnLine) {
  write_file(dir / "na.pgn", "[Event \"A\"]\n\n1. e4 e5 2. Ke3 *");
  write_file(dir / "nb.pgn", "[Event \"B\"]\n\n1. d4 d5 2. Kd3 *\n");
  const std::string expected = "[Event \"A\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"B\"]\n\n1. d4 d5 2. Kd3 *\n\n";
  run_virrey_words("validate " + (dir / "na.pgn") + " " + (dir / "nb.pgn") + " --rejects " + (dir / "v.rej"),
                   dir.path());
  EXPECT_EQ(read_file(dir / "v.rej"), expected);
  run_virrey_words(
      "import " + (dir / "na.pgn") + " " + (dir / "nb.pgn") + " --db " + db + " --rejects " + (dir / "i.rej"),
      dir.path());
  EXPECT_EQ(read_file(dir / "i.rej"), expected);
  EXPECT_EQ(run_virrey_words("validate " + (dir / "nb.pgn") + " --max-errors -5", dir.path()).exit_code, 2);
}

// NUL padding before a game and a DOS end-of-file mark (^Z) after the last
// are blanks: no game is lost to them, none is made of them.
TEST_F(ImportCli, NulPaddingAndADosEndMarkAreBlanks) {
  std::string text(3, '\0');
  text += kBadGame;  // the rejected game, to be sure errors still show
  text += "[Event \"Good\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
  text += "\x1a";
  write_file(dir / "padded.pgn", text);
  auto v = run_virrey_words("validate --no-event-checks --format json " + (dir / "padded.pgn"), dir.path());
  EXPECT_EQ(json_number(v.out, "games"), 2) << v.out;
  EXPECT_EQ(json_number(v.out, "with_errors"), 1) << v.out;
  EXPECT_EQ(json_number(v.out, "valid"), 1) << v.out;
}

// A main line longer than a stored game may hold (a million plies) is an
// error at the ply past the limit: the game is rejected, the others are
// stored and read back, and the database stays consistent. A million plies
// exactly is stored and exported whole.
TEST_F(ImportCli, AMainLineOverAMillionPliesIsRejected) {
  const auto game = [](const char* event, std::size_t cycles) {
    std::string g = std::string("[Event \"") + event + "\"]\n[Result \"1/2-1/2\"]\n\n";
    g.reserve(g.size() + cycles * 16 + 16);
    for (std::size_t i = 0; i < cycles; ++i) g.append("Nf3 Nf6 Ng1 Ng8 ");
    g.append("1/2-1/2\n\n");
    return g;
  };
  write_file(dir / "long.pgn", game("Too long", 250'001) + game("Longest", 250'000) + kSampleGames);
  auto v = run_virrey_words("validate --no-event-checks " + (dir / "long.pgn"), dir.path());
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find(":4:4000001: error[oversized-game]: game 1, ply 1000001 (500001.Nf3)"),
            std::string::npos)
      << v.out.substr(0, 2000);
  auto r = run_virrey_words("import --format json --db " + db + " " + (dir / "long.pgn"), dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(json_number(r.out, "rejected"), 1) << r.out;
  const auto e = run_virrey_words("export --db " + db, dir.path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.out.find("Too long"), std::string::npos);
  const auto longest = e.out.find("[Event \"Longest\"]");
  ASSERT_NE(longest, std::string::npos);
  EXPECT_NE(e.out.find("500000. Ng1 Ng8 1/2-1/2", longest), std::string::npos);
  EXPECT_EQ(run_virrey_words("db check --db " + db, dir.path()).exit_code, 0);
}

// validate flags as duplicates the games import counts as duplicates: a
// game without a Result tag and the same game with it, a game without a
// Site and the same game with Site "?" (two pairs, worked by hand).
TEST_F(ImportCli, ValidateFlagsTheDuplicatesImportCounts) {
  const std::string dups = dir / "dups.pgn";
  write_file(dups,
             "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black "
             "\"B\"]\n\n1. e4 e5 1-0\n\n"
             "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black "
             "\"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
             "[Event \"F\"]\n[Date \"2024.01.02\"]\n[Round \"2\"]\n[White \"C\"]\n[Black \"D\"]\n[Result "
             "\"0-1\"]\n\n1. d4 d5 0-1\n\n"
             "[Event \"F\"]\n[Site \"?\"]\n[Date \"2024.01.02\"]\n[Round \"2\"]\n[White \"C\"]\n[Black "
             "\"D\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n");
  auto v = run_virrey_words("validate --no-event-checks --format json " + dups, dir.path());
  EXPECT_EQ(json_number(v.out, "duplicate-game"), 2) << v.out;
  auto i = run_virrey_words("import " + dups + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(json_number(i.out, "duplicates"), 2) << i.out;
  EXPECT_EQ(json_number(i.out, "stored"), 2);
}

// --rejects never destroys what it should keep: an input named as the
// rejects is refused before anything is read, and an import that reads
// nothing new (its input imported before) leaves the rejects of the import
// before as they were; one that reads them again writes them anew.
TEST_F(ImportCli, RejectsKeepInputsAndEarlierRejects) {
  const std::string rejects = dir / "rejects.pgn";
  const std::string bad = kBadGame;  // as read to its result's line, then a blank line
  auto same = run_virrey_words("import " + input + " --db " + db + " --rejects " + input, dir.path());
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("is one of the inputs"), std::string::npos) << same.err;
  EXPECT_EQ(read_file(input), games);
  EXPECT_FALSE(std::filesystem::exists(db + "/CURRENT"));
  ASSERT_EQ(
      run_virrey_words("import " + input + " --db " + db + " --rejects " + rejects, dir.path()).exit_code, 1);
  EXPECT_EQ(read_file(rejects), bad);
  auto again = run_virrey_words("import " + input + " --db " + db + " --rejects " + rejects, dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_file(rejects), bad);
  write_file(rejects, "old");
  auto forced =
      run_virrey_words("import " + input + " --db " + db + " --force --rejects " + rejects, dir.path());
  EXPECT_EQ(forced.exit_code, 1) << forced.err;
  EXPECT_EQ(read_file(rejects), bad);
  EXPECT_FALSE(std::filesystem::exists(rejects + ".partial"));
  // validate refuses an input as its rejects or its output too.
  for (const char* option : {"--rejects", "--output"}) {
    auto v = run_virrey_words(std::string("validate ") + input + " " + option + " " + input, dir.path());
    EXPECT_EQ(v.exit_code, 2) << option;
    EXPECT_EQ(read_file(input), games) << option;
  }
}

// Rejects that cannot be written (a full disk: /dev/full) leave their input
// not recorded as imported, so that importing it again writes them; and
// validate then keeps its output as it was, not only the rejects.
TEST_F(ImportCli, RejectsNotWrittenLeaveTheirInputToImportAgain) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string rejects = dir / "rejects.pgn";
  auto full = run_virrey_words("import " + input + " --db " + db + " --rejects /dev/full", dir.path());
  EXPECT_EQ(full.exit_code, 3) << full.err;
  EXPECT_NE(full.err.find("No space left on device"), std::string::npos) << full.err;
  auto again = run_virrey_words("import " + input + " --db " + db + " --rejects " + rejects, dir.path());
  EXPECT_EQ(again.exit_code, 1) << again.err;
  EXPECT_EQ(read_file(rejects), std::string(kBadGame));
  EXPECT_EQ(again.out.find("imported before"), std::string::npos) << again.out;
  const std::string out = dir / "valid.pgn";
  write_file(out, "old");
  auto v = run_virrey_words("validate " + input + " -o " + out + " --rejects /dev/full", dir.path());
  EXPECT_EQ(v.exit_code, 3) << v.err;
  EXPECT_EQ(read_file(out), "old");
}

TEST_F(ImportCli, DatabaseFromEnvironment) {
  auto r =
      run_virrey_words("import " + input + " --format json", dir.path(), "VIRREY_DB=" + (dir / "env.db"));
  EXPECT_EQ(json_number(r.out, "stored"), 305);
  EXPECT_TRUE(std::filesystem::exists(dir / "env.db/CURRENT"));
}

TEST_F(ImportCli, NotADatabase) {
  write_file(dir / "notes.txt", "my notes\n");
  auto r = run_virrey_words("import " + input + " --db " + (dir / "notes.txt"), dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("not a virrey database"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "notes.txt"), "my notes\n");
  std::filesystem::create_directory(dir / "photos");
  write_file(dir / "photos/a.jpg", "jpeg");
  EXPECT_EQ(run_virrey_words("import " + input + " --db " + (dir / "photos"), dir.path()).exit_code, 3);
  EXPECT_EQ(run_virrey_words("db info --db " + (dir / "photos"), dir.path()).exit_code, 3);
  EXPECT_EQ(run_virrey_words("export --db " + (dir / "nowhere.db"), dir.path()).exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(dir / "nowhere.db"));
}

// A usage error stops the import before the database is made.
TEST_F(ImportCli, ABadOptionLeavesNoDatabase) {
  for (const char* interval : {"0", "-1", "nan", "1e308"}) {
    auto r =
        virrey::testing::run_virrey({"import", input, "--db", db, "--commit-interval", interval}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << interval << ": " << r.err;
    EXPECT_NE(r.err.find(interval == std::string("nan") ? "--commit-interval: must be a number, not nan"
                                                        : "commit interval"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << interval;
  }
}

TEST_F(ImportCli, NewerSchema) {
  ASSERT_EQ(run_virrey_words("import " + input + " --db " + db, dir.path()).exit_code, 1);
  ASSERT_TRUE(testing::set_schema_version(db, kSchemaVersion + 1));
  auto r = run_virrey_words("import " + input + " --db " + db + " --force", dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("newer"), std::string::npos) << r.err;
  EXPECT_EQ(run_virrey_words("db info --db " + db, dir.path()).exit_code, 3);
  // Nothing was changed: with its version back, the database is whole.
  ASSERT_TRUE(testing::set_schema_version(db, kSchemaVersion));
  EXPECT_EQ(run_virrey_words("db check --db " + db, dir.path()).exit_code, 0);
}

TEST_F(ImportCli, OlderSchemaAndUpgrade) {
  ASSERT_EQ(run_virrey_words("import " + input + " --db " + db, dir.path()).exit_code, 1);
  const auto before = run_virrey_words("search --db " + db + " --moves e4 --format jsonl", dir.path());
  ASSERT_EQ(before.exit_code, 0);
  ASSERT_TRUE(testing::set_schema_version(db, 1));
  auto r = run_virrey_words("search --db " + db + " --moves e4", dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("virrey db upgrade --db"), std::string::npos) << r.err;
  r = run_virrey_words("db upgrade --db " + db + " --format json", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "from_version"), 1);
  EXPECT_EQ(json_number(r.out, "to_version"), kSchemaVersion);
  EXPECT_GT(json_number(r.out, "games"), 0);
  EXPECT_EQ(run_virrey_words("search --db " + db + " --moves e4 --format jsonl", dir.path()).out, before.out);
  EXPECT_EQ(run_virrey_words("db check --db " + db, dir.path()).exit_code, 0);
  r = run_virrey_words("db upgrade --db " + db, dir.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("already at schema version"), std::string::npos) << r.out;
  EXPECT_EQ(run_virrey_words("db upgrade --db " + (dir / "nowhere.db"), dir.path()).exit_code, 3);
}

TEST_F(ImportCli, UnwritablePath) {
  write_file(dir / "file", "x");
  auto r = run_virrey_words("import " + input + " --db " + (dir / "file/sub.db"), dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.err.empty());
  r = run_virrey_words("import " + input + " --db /proc/virrey-test.db", dir.path());
  EXPECT_EQ(r.exit_code, 3);
}

// A full disk, simulated by a file size limit: the import fails with exit 3,
// the database stays whole, and importing again completes it.
TEST_F(ImportCli, FullDisk) {
  const std::string big = dir / "big.pgn";
  write_file(big, random_games(3000, 7));
  const std::string limit = "trap '' XFSZ; ulimit -f 1024;";  // 1 MiB per file
  auto r = run_virrey_words("import " + big + " --db " + db + " --threads 2", dir.path(), limit);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_FALSE(r.err.empty());
  if (std::filesystem::exists(db + "/CURRENT")) {
    auto check = run_virrey_words("db check --db " + db, dir.path());
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
  auto again = run_virrey_words("import " + big + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  auto ref = run_virrey_words("import " + big + " --db " + (dir / "ref.db") + " --format json", dir.path());
  auto a = Database::open(db, {OpenMode::Read, false});
  auto b = Database::open(dir / "ref.db", {OpenMode::Read, false});
  ASSERT_TRUE(a && b);
  for (int v = 0; v < kVariantCount; ++v) {
    EXPECT_EQ((*a)->counts()[v].games, (*b)->counts()[v].games);
    EXPECT_EQ((*a)->counts()[v].positions, (*b)->counts()[v].positions);
  }
}

// RocksDB's information log (LOG) meeting a full disk, simulated by a file
// size limit that its option listing passes and the few games' table files
// do not: the log ends there, the import completes (RocksDB's own logger
// failed an assertion there, ending the process).
TEST_F(ImportCli, AFullDiskEndsTheLogNotTheImport) {
  const std::string few = dir / "few.pgn";
  write_file(few, kSampleGames);
  const std::string limit = "trap '' XFSZ; ulimit -f 48;";  // 48 KiB per file
  auto r = run_virrey_words("import " + few + " --db " + db, dir.path(), limit);
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(db + "/LOG"));
  EXPECT_LE(std::filesystem::file_size(db + "/LOG"), 48u << 10);
  EXPECT_GT(std::filesystem::file_size(db + "/LOG"), 0u);
  auto again = run_virrey_words("import " + input + " --db " + db + " --force", dir.path(), limit);
  EXPECT_EQ(again.signal, 0) << again.err;
  EXPECT_EQ(run_virrey_words("db check --db " + db, dir.path()).exit_code, 0);
}

}  // namespace
}  // namespace virrey::store::test
