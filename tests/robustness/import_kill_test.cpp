// `virrey import` killed with SIGKILL 20 times, at moments drawn from a fixed
// seed: after each kill the database opens and `virrey db check` finds it
// consistent, and a last import completes it to the full count. An import
// that resumes skips the games already stored, so the moments are drawn from
// the time the games not yet stored are expected to take; an import that
// finishes before its kill narrows the window for the next ones.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include "robustness_support.hpp"

namespace virrey::robustness {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kKills = 20;

std::vector<std::string> import_args(const std::string& input, const std::string& db) {
  return {"import", input, "--db", db, "--commit-interval", "0.1", "--threads", "2", "--format", "json"};
}

long long games_in(const std::string& db, const std::string& dir) {
  const Outcome info = run_virrey({"db", "info", "--db", db, "--format", "json"}, dir);
  EXPECT_EQ(info.exit_code, 0) << info.err;
  long long games = 0;
  for (std::size_t at = 0; (at = info.out.find("\"games\":", at)) != std::string::npos; ++at)
    games += json_number(info.out, "games", at);
  return games;
}

TEST(ImportKill, KilledImportsLeaveAConsistentDatabase) {
  Scratch scratch;
  const std::string input = scratch / "games.pgn";
  const Outcome generated =
      run_virrey({"generate", "--variant", "virrey", "--games", "1000", "--seed", "8", "--output", input},
                 scratch.path());
  ASSERT_EQ(generated.exit_code, 0) << generated.err;

  // An import left alone: its count, and how long it takes here and now.
  const std::string reference = scratch / "reference.db";
  const auto start = Clock::now();
  const Outcome whole = run_virrey(import_args(input, reference), scratch.path());
  const auto duration = Clock::now() - start;
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const long long full = json_number(whole.out, "stored");
  ASSERT_GT(full, 500);

  std::mt19937_64 random(20261130);
  double window = static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(duration).count());
  std::uniform_real_distribution<double> share(0.0, 1.0);
  const std::string db = scratch / "killed.db";
  const std::string out = scratch / "import.out", err = scratch / "import.err";
  int killed = 0, not_created = 0, attempts = 0;
  long long previous = 0;
  for (; killed < kKills && attempts < 4 * kKills; ++attempts) {
    SCOPED_TRACE("attempt " + std::to_string(attempts));
    const double left = std::max(0.2, 1.0 - static_cast<double>(previous) / static_cast<double>(full));
    const auto moment = static_cast<long long>(share(random) * window * left);
    const pid_t pid = start_virrey(import_args(input, db), out, err);
    std::this_thread::sleep_for(std::chrono::microseconds(moment));
    ::kill(pid, SIGKILL);
    const Outcome r = finish_virrey(pid, out, err);
    if (r.signal != SIGKILL) {
      // It finished first: the database is whole; start again from nothing.
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(games_in(db, scratch.path()), full);
      fs::remove_all(db);
      previous = 0;
      window *= 0.75;
      continue;
    }
    ++killed;
    const Outcome check = run_virrey({"db", "check", "--db", db}, scratch.path());
    EXPECT_EQ(check.signal, 0);
    if (check.exit_code == 3 && check.err.find("no virrey database") != std::string::npos) {
      ++not_created;  // killed before the database was made
      continue;
    }
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    const long long games = games_in(db, scratch.path());
    EXPECT_GE(games, previous) << "a kill lost committed games";
    EXPECT_LE(games, full);
    previous = games;
  }
  RecordProperty("attempts", attempts);
  RecordProperty("killed", killed);
  RecordProperty("killed_before_creation", not_created);
  EXPECT_EQ(killed, kKills) << "imports should be killed while running";
  EXPECT_LE(not_created, kKills / 2);

  const Outcome rerun = run_virrey(import_args(input, db), scratch.path());
  EXPECT_EQ(rerun.exit_code, 0) << rerun.err;
  EXPECT_EQ(games_in(db, scratch.path()), full);
  const Outcome check = run_virrey({"db", "check", "--db", db}, scratch.path());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

}  // namespace
}  // namespace virrey::robustness
