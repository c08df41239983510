// Readers beside a running import: each open sees one consistent state (a
// committed prefix of the import, every index in agreement with the game
// records), and the readers do not disturb the writer.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>

#include "random_games.hpp"
#include "store_test_util.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"

namespace virrey::store::test {
namespace {

TEST(Concurrency, ReadersSeeConsistentSnapshotsDuringAnImport) {
  TempDir dir;
  const std::string input = dir / "input.pgn";
  const std::string text = random_games(8000, 99);
  write_file(input, text);
  const auto games = split_games(text);
  ASSERT_EQ(games.size(), 8000u);
  const std::string db = dir / "live.db";
  // Create the database first so readers always find one.
  ASSERT_EQ(run_virrey_words("import --db " + db + " - < /dev/null", dir.path()).exit_code, 0);
  // The import reads a pipe: the first games come at once, the rest only
  // once a reader has seen some of them committed, so reads happen while
  // the import runs however fast the machine is.
  PipedProcess writer = spawn_virrey_piped(
      {"import", "-", "--db", db, "--threads", "2", "--commit-interval", "0.3"}, dir / "log.txt");
  ASSERT_GT(writer.pid, 0);
  ASSERT_TRUE(writer.write(join_games(games, 0, 3000)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);

  std::vector<std::string> starts;
  for (Variant v : {Variant::Standard, Variant::Virrey}) starts.emplace_back(info(v).start_fen);
  int reads = 0, reads_while_writing = 0, status = 0;
  std::uint64_t last_seen = 0;
  for (;;) {
    const bool writing = ::waitpid(writer.pid, &status, WNOHANG) == 0;
    auto opened = Database::open(db, {OpenMode::Read, false});
    ASSERT_TRUE(opened) << opened.error().message;
    const Database& d = **opened;
    // Counters, records and indexes agree within the snapshot.
    std::uint64_t records = 0;
    ASSERT_TRUE(d.for_each_summary([&](GameId, const GameSummary&) { return ++records, true; }));
    std::uint64_t counted = 0, by_start = 0;
    for (int v = 0; v < 2; ++v) {
      counted += d.counts()[v].games;
      FenProblems errors;
      auto pos = position_from_fen<Board8>(starts[v], Variant(v), errors);
      ASSERT_TRUE(
          d.for_each_position(Variant(v), pos->hash(), [&](const PositionHit&) { return ++by_start, true; }));
    }
    EXPECT_EQ(records, counted);
    EXPECT_EQ(by_start, counted);   // every game passes through its start position
    EXPECT_GE(counted, last_seen);  // snapshots only move forward
    last_seen = counted;
    if (reads % 4 == 0) {
      auto report = check_database(d);
      ASSERT_TRUE(report);
      EXPECT_TRUE(report->ok()) << (report->problems.empty() ? "" : report->problems.front());
    }
    ++reads;
    reads_while_writing += writing && counted > 0 && counted < 8000;
    if (writer.input >= 0 && (counted > 0 || std::chrono::steady_clock::now() > deadline)) {
      EXPECT_TRUE(writer.write(join_games(games, 3000, games.size())));
      writer.close_input();
    }
    if (!writing) break;
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(dir / "log.txt");
  EXPECT_EQ(last_seen, 8000u);
  EXPECT_GE(reads_while_writing, 1) << "no read happened while the import ran";
  // The CLI reads beside a writer too.
  const pid_t second = spawn_virrey({"import", input, "--db", db, "--force"}, dir / "log2.txt");
  auto info = run_virrey_words("db info --db " + db + " --format json", dir.path());
  EXPECT_EQ(info.exit_code, 0) << info.err;
  ::waitpid(second, &status, 0);
}

}  // namespace
}  // namespace virrey::store::test
