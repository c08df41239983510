// `virrey import`, `export` and `db` end to end: the summary, re-import,
// rejects, export equal to the imported games, and the bad cases (not a
// database, newer schema, unwritable path, full disk) with exit code 3.
#include <gtest/gtest.h>

#include <set>

#include "random_games.hpp"
#include "store_test_util.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/testing.hpp"
#include "virrey/validate/pgn_writer.hpp"

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
  std::vector<validate::GameRecord> kept;
  for (auto& g : check_pgn(input)) {
    if (g.has_error) continue;
    bool dup = false;
    for (const auto& k : kept) dup |= same_game(k, g.record);
    if (dup) continue;
    out += validate::write_pgn(g.record);
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
  auto r = run_virrey("import " + input + " --db " + db + " --format json --rejects " + (dir / "rejects.pgn"),
                      dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // one game had errors
  EXPECT_EQ(json_number(r.out, "read"), 5 + 300 + 1 + 5);
  EXPECT_EQ(json_number(r.out, "rejected"), 1);
  EXPECT_EQ(json_number(r.out, "duplicates"), 5);
  EXPECT_EQ(json_number(r.out, "stored"), 305);
  EXPECT_GT(json_number(r.out, "positions"), 300 * 20);
  EXPECT_GE(json_number(r.out, "seconds"), 0);
  EXPECT_NE(r.err.find("illegal-move"), std::string::npos);  // the rejected game's diagnostic
  // The game's bytes as read: up to its result line (the blank line after
  // it separates games and belongs to none).
  EXPECT_EQ(read_file(dir / "rejects.pgn") + "\n", kBadGame);

  auto e = run_virrey("export --db " + db, dir.path());
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(e.out, expected_export(games));
  write_file(dir / "export.pgn", e.out);
  auto v = run_virrey("validate " + (dir / "export.pgn"), dir.path());
  EXPECT_EQ(v.exit_code, 0) << v.out;

  auto lines = run_virrey("export --db " + db + " --format jsonl --variant virrey --limit 3", dir.path());
  ASSERT_EQ(lines.exit_code, 0);
  EXPECT_EQ(std::count(lines.out.begin(), lines.out.end(), '\n'), 3);
  EXPECT_NE(lines.out.find("\"variant\":\"virrey\""), std::string::npos);
  EXPECT_EQ(lines.out.find("\"variant\":\"standard\""), std::string::npos);

  auto check = run_virrey("db check --db " + db, dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("consistent"), std::string::npos);
  auto info = run_virrey("db info --format json --db " + db, dir.path());
  EXPECT_EQ(info.exit_code, 0);
  EXPECT_EQ(json_number(info.out, "schema_version"), kSchemaVersion);
  EXPECT_NE(info.out.find("\"positions\":{\"bytes\""), std::string::npos);
  auto text = run_virrey("db info --db " + db, dir.path());
  EXPECT_NE(text.out.find("virrey"), std::string::npos);
}

TEST_F(ImportCli, ImportingAgainAddsNothingAndSaysSo) {
  ASSERT_EQ(run_virrey("import " + input + " --db " + db, dir.path()).exit_code, 1);
  auto again = run_virrey("import " + input + " --db " + db, dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("imported before"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("stored,"), std::string::npos);  // nothing was read
  // Read again all the same: every game is a duplicate.
  auto forced = run_virrey("import " + input + " --db " + db + " --force --format json", dir.path());
  EXPECT_EQ(json_number(forced.out, "stored"), 0);
  EXPECT_EQ(json_number(forced.out, "duplicates"), 310);
  // The same games under another name, from standard input: duplicates too.
  auto piped = run_virrey("import - --db " + db + " --format json < " + input, dir.path());
  EXPECT_EQ(json_number(piped.out, "stored"), 0);
  auto d = Database::open(db, {OpenMode::Read, false});
  ASSERT_TRUE(d);
  std::uint64_t stored = 0;
  for (const auto& c : (*d)->counts()) stored += c.games;
  EXPECT_EQ(stored, 305u);
}

TEST_F(ImportCli, DatabaseFromEnvironment) {
  auto r = run_virrey("import " + input + " --format json", dir.path(), "VIRREY_DB=" + (dir / "env.db"));
  EXPECT_EQ(json_number(r.out, "stored"), 305);
  EXPECT_TRUE(std::filesystem::exists(dir / "env.db/CURRENT"));
}

TEST_F(ImportCli, NotADatabase) {
  write_file(dir / "notes.txt", "my notes\n");
  auto r = run_virrey("import " + input + " --db " + (dir / "notes.txt"), dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("not a virrey database"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "notes.txt"), "my notes\n");
  std::filesystem::create_directory(dir / "photos");
  write_file(dir / "photos/a.jpg", "jpeg");
  EXPECT_EQ(run_virrey("import " + input + " --db " + (dir / "photos"), dir.path()).exit_code, 3);
  EXPECT_EQ(run_virrey("db info --db " + (dir / "photos"), dir.path()).exit_code, 3);
  EXPECT_EQ(run_virrey("export --db " + (dir / "nowhere.db"), dir.path()).exit_code, 3);
  EXPECT_FALSE(std::filesystem::exists(dir / "nowhere.db"));
}

TEST_F(ImportCli, NewerSchema) {
  ASSERT_EQ(run_virrey("import " + input + " --db " + db, dir.path()).exit_code, 1);
  ASSERT_TRUE(testing::set_schema_version(db, kSchemaVersion + 1));
  auto r = run_virrey("import " + input + " --db " + db + " --force", dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("newer"), std::string::npos) << r.err;
  EXPECT_EQ(run_virrey("db info --db " + db, dir.path()).exit_code, 3);
  // Nothing was changed: with its version back, the database is whole.
  ASSERT_TRUE(testing::set_schema_version(db, kSchemaVersion));
  EXPECT_EQ(run_virrey("db check --db " + db, dir.path()).exit_code, 0);
}

TEST_F(ImportCli, UnwritablePath) {
  write_file(dir / "file", "x");
  auto r = run_virrey("import " + input + " --db " + (dir / "file/sub.db"), dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.err.empty());
  r = run_virrey("import " + input + " --db /proc/virrey-test.db", dir.path());
  EXPECT_EQ(r.exit_code, 3);
}

// A full disk, simulated by a file size limit: the import fails with exit 3,
// the database stays whole, and importing again completes it.
TEST_F(ImportCli, FullDisk) {
  const std::string big = dir / "big.pgn";
  write_file(big, random_games(3000, 7));
  const std::string limit = "trap '' XFSZ; ulimit -f 1024;";  // 1 MiB per file
  auto r = run_virrey("import " + big + " --db " + db + " --threads 2", dir.path(), limit);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_FALSE(r.err.empty());
  if (std::filesystem::exists(db + "/CURRENT")) {
    auto check = run_virrey("db check --db " + db, dir.path());
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
  auto again = run_virrey("import " + big + " --db " + db + " --format json", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  auto ref = run_virrey("import " + big + " --db " + (dir / "ref.db") + " --format json", dir.path());
  auto a = Database::open(db, {OpenMode::Read, false});
  auto b = Database::open(dir / "ref.db", {OpenMode::Read, false});
  ASSERT_TRUE(a && b);
  for (int v = 0; v < kVariantCount; ++v) {
    EXPECT_EQ((*a)->counts()[v].games, (*b)->counts()[v].games);
    EXPECT_EQ((*a)->counts()[v].positions, (*b)->counts()[v].positions);
  }
}

}  // namespace
}  // namespace virrey::store::test
