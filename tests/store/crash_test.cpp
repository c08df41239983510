// Crash safety: imports killed with SIGKILL at several points leave a
// database that opens, holds no partial game (every index agrees with the
// game records), and that a rerun of the same import completes to exactly
// what an uninterrupted import stores.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <thread>

#include "random_games.hpp"
#include "store_test_util.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"

namespace virrey::store::test {
namespace {

using Clock = std::chrono::steady_clock;

struct Snapshot {
  std::array<VariantCounts, kVariantCount> counts{};
  std::string exported;
};

// Opens the database as a reader, checks every index, and exports it.
Snapshot verify(const std::string& path) {
  Snapshot s;
  auto db = Database::open(path, {OpenMode::Read, false});
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return s;
  auto report = check_database(**db);
  EXPECT_TRUE(report) << report.error().message;
  if (report) {
    EXPECT_TRUE(report->ok()) << (report->problems.empty() ? "" : report->problems.front());
  }
  s.counts = (*db)->counts();
  Status st = (*db)->for_each_game([&](GameId id, const game::GameRecord& rec) {
    s.exported += std::to_string(id) + "\n" + game::write_pgn(rec);
    return true;
  });
  EXPECT_TRUE(st);
  return s;
}

std::uint64_t games_of(const Snapshot& s) {
  std::uint64_t n = 0;
  for (const auto& c : s.counts) n += c.games;
  return n;
}

TEST(CrashSafety, KilledImportsResumeToTheSameDatabase) {
  TempDir dir;
  const std::string input = dir / "input.pgn";
  const std::string input_text = random_games(6000, 2024);
  write_file(input, input_text);
  // Frequent commits, so that kills find some games stored.
  const std::vector<std::string> import_args = {"import", input, "--threads", "2", "--commit-interval",
                                                "0.2"};

  // The reference: an uninterrupted import, timed.
  const auto t0 = Clock::now();
  auto ref_run = run_virrey_words(
      "import " + input + " --db " + (dir / "ref.db") + " --threads 2 --commit-interval 0.2", dir.path());
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  ASSERT_EQ(ref_run.exit_code, 0) << ref_run.err;
  const Snapshot ref = verify(dir / "ref.db");
  ASSERT_EQ(games_of(ref), 6000u);

  // Kill points: soon after the start, then once a reader sees a given
  // share of the games stored, plus a little, so that kills land inside later
  // groups. The killed imports read a pipe that the test fills ahead of the
  // kill point only, so every kill finds the import running however fast
  // the machine is.
  const auto games = split_games(input_text);
  ASSERT_EQ(games.size(), 6000u);
  int killed_midway = 0;
  const double shares[] = {0.0, 0.15, 0.35, 0.55, 0.7, 0.8};
  for (int k = 0; k < int(std::size(shares)); ++k) {
    const std::string db = dir / ("killed" + std::to_string(k) + ".db");
    auto args = import_args;
    args.insert(args.end(), {"--db", db});
    auto piped_args = args;
    piped_args[1] = "-";
    PipedProcess killed = spawn_virrey_piped(piped_args, dir / "log.txt");
    ASSERT_GT(killed.pid, 0);
    const std::size_t target = std::size_t(shares[k] * 6000);
    // What the import has before the kill: the target share and more than
    // a batch of the reader's (1024 games), so that the target is checked.
    EXPECT_TRUE(killed.write(join_games(games, 0, target + 1100)));
    int status = 0;
    const auto deadline = Clock::now() + std::chrono::duration<double>(4 * seconds + 10);
    if (shares[k] == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    while (shares[k] > 0 && Clock::now() < deadline && ::waitpid(killed.pid, &status, WNOHANG) == 0) {
      auto db_now = Database::open(db, {OpenMode::Read, false});
      std::uint64_t n = 0;
      if (db_now)
        for (const auto& c : (*db_now)->counts()) n += c.games;
      if (n >= target) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
    }
    // More games in flight while it dies.
    std::thread more([&] { killed.write(join_games(games, target + 1100, games.size())); });
    std::this_thread::sleep_for(std::chrono::milliseconds(37 * k));
    const bool running = ::waitpid(killed.pid, &status, WNOHANG) == 0;
    if (running) ::kill(killed.pid, SIGKILL);
    ::waitpid(killed.pid, &status, 0);
    more.join();  // the write fails once the import is gone
    killed.close_input();
    SCOPED_TRACE("killed at " + std::to_string(shares[k]) + (running ? "" : " (had finished)"));
    if (std::filesystem::exists(db + "/CURRENT")) {
      const Snapshot after_kill = verify(db);
      const std::uint64_t n = games_of(after_kill);
      EXPECT_LE(n, 6000u);
      killed_midway += running && n > 0 && n < 6000;
      // The games stored so far are the first ones of the reference, whole.
      EXPECT_EQ(after_kill.exported, ref.exported.substr(0, after_kill.exported.size()));
    }
    // Kill the rerun too, once, then complete it.
    if (k == 2) {
      const pid_t again = spawn_virrey(args, dir / "log.txt");
      std::this_thread::sleep_for(std::chrono::duration<double>(0.3 * seconds));
      ::kill(again, SIGKILL);
      ::waitpid(again, &status, 0);
      verify(db);
    }
    auto rerun = run_virrey_words("import " + input + " --db " + db + " --threads 2", dir.path());
    EXPECT_EQ(rerun.exit_code, 0) << rerun.err;
    const Snapshot done = verify(db);
    for (int v = 0; v < kVariantCount; ++v) {
      EXPECT_EQ(done.counts[v].games, ref.counts[v].games);
      EXPECT_EQ(done.counts[v].positions, ref.counts[v].positions);
    }
    EXPECT_EQ(done.exported, ref.exported);
    // And the database knows the input now.
    auto third = run_virrey_words("import " + input + " --db " + db + " --format json", dir.path());
    EXPECT_EQ(json_number(third.out, "read"), 0) << third.out;
  }
  EXPECT_GE(killed_midway, 2) << "the kills should interrupt imports that had stored some games";
}

}  // namespace
}  // namespace virrey::store::test
