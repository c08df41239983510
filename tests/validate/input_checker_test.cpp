// check_inputs on several threads: the callbacks see exactly what one thread
// would show them, in the same order (games, skipped games and unreadable
// inputs), across many batches; and a callback's exception stops the run and
// reaches the caller.
#include <gtest/gtest.h>

#include <any>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "virrey/validate/input_checker.hpp"

namespace virrey::validate {
namespace {

namespace fs = std::filesystem;

// `games` short games; every 97th is long (over 600 bytes of comment), every
// 13th has an illegal move.
std::string write_collection(const std::string& name, int games) {
  const fs::path path = fs::temp_directory_path() / name;
  std::ofstream out(path, std::ios::binary);
  for (int g = 1; g <= games; ++g) {
    out << fmt::format("[Event \"E{}\"]\n[Site \"S\"]\n[Date \"2020.01.01\"]\n[Round \"{}\"]\n", name, g)
        << "[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n";
    if (g % 97 == 0) out << '{' << std::string(600, 'x') << "} ";
    out << (g % 13 == 0 ? "1. e4 e5 2. Ke3 *\n\n" : "1. d4 d5 2. c4 *\n\n");
  }
  return path.string();
}

struct Event {
  std::string file;
  std::uint64_t game;
  std::string what;
  friend bool operator==(const Event&, const Event&) = default;
};

std::ostream& operator<<(std::ostream& os, const Event& e) {
  return os << e.file << " #" << e.game << ' ' << e.what;
}

std::vector<Event> events(const std::vector<std::string>& paths, int threads) {
  InputCheckOptions options;
  options.threads = threads;
  options.keep_raw = true;
  options.splitter.max_game_bytes = 500;
  std::vector<Event> seen;
  InputCallbacks cb;
  cb.game = [&](GameReport& r) {
    std::string what = r.game.has_error ? "error" : "ok";
    for (const auto& f : r.game.findings) what += fmt::format(" {}@{}", code_name(f.code), f.ply);
    what += fmt::format(" raw={}", r.raw.size());
    seen.push_back({std::string(r.file), r.number, what});
  };
  cb.problem = [&](std::string_view file, const Finding& f) {
    seen.push_back({std::string(file), f.game, std::string(code_name(f.code))});
  };
  check_inputs(paths, options, cb);
  return seen;
}

TEST(InputChecker, ThreadsShowTheSameEventsInTheSameOrder) {
  const std::string a = write_collection("virrey-input-checker-a.pgn", 1500);
  const std::string b = write_collection("virrey-input-checker-b.pgn", 700);
  const std::vector<std::string> paths{a, "/nonexistent/virrey/missing.pgn", b, a};
  const auto one = events(paths, 1);
  ASSERT_EQ(one.size(), 1500u + 1 + 700 + 1500);
  std::size_t oversized = 0, errors = 0, duplicates = 0, unreadable = 0;
  for (const auto& e : one) {
    oversized += e.what == "oversized-game";
    unreadable += e.what == "io-error" && e.file == paths[1];
    errors += e.what.starts_with("error");
    duplicates += e.what.find("duplicate-game") != std::string::npos;
  }
  // Game 1261 of a is both long and illegal: skipped for its size.
  EXPECT_EQ(oversized, 15u + 7 + 15);
  EXPECT_EQ(errors, 114u + 53 + 114);
  EXPECT_EQ(unreadable, 1u);
  EXPECT_EQ(duplicates, 1500u - 15 - 114);  // the second reading of a, but its bad games
  for (int threads : {2, 3, 8}) EXPECT_EQ(events(paths, threads), one) << threads << " threads";
  fs::remove(a);
  fs::remove(b);
}

TEST(InputChecker, ACallbacksExceptionStopsTheRun) {
  const std::string a = write_collection("virrey-input-checker-c.pgn", 3000);
  for (int threads : {1, 2, 4}) {
    InputCheckOptions options;
    options.threads = threads;
    std::uint64_t last = 0;
    InputCallbacks cb;
    cb.game = [&](GameReport& r) {
      last = r.number;
      if (r.number == 1000) throw std::runtime_error("disk full");
    };
    EXPECT_THROW(check_inputs({a}, options, cb), std::runtime_error) << threads << " threads";
    EXPECT_EQ(last, 1000u) << threads << " threads";
  }
  fs::remove(a);
}

}  // namespace
}  // namespace virrey::validate

namespace virrey::validate {
namespace {

// The same game twice: a DuplicateGame warning, unless turned off (import).
TEST(InputChecker, DuplicateWarningsCanBeTurnedOff) {
  const fs::path path = fs::temp_directory_path() / "virrey_twice.pgn";
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 2; ++i) out << "[Event \"E\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
  }
  for (bool flag : {true, false}) {
    InputCheckOptions options;
    options.flag_duplicates = flag;
    int warnings = 0, games = 0;
    InputCallbacks cb;
    cb.game = [&](GameReport& r) {
      ++games;
      for (const auto& f : r.game.findings) warnings += f.code == Code::DuplicateGame;
    };
    check_inputs({path.string()}, options, cb);
    EXPECT_EQ(games, 2);
    EXPECT_EQ(warnings, flag ? 1 : 0);
  }
  fs::remove(path);
}

}  // namespace
}  // namespace virrey::validate

namespace virrey::validate {
namespace {

// `checked` runs for every game before `game` sees it (on any thread), and
// what it attaches reaches `game`, in input order.
TEST(InputChecker, CheckedAttachesWorkForGame) {
  const std::string path = write_collection("virrey_checked.pgn", 3000);
  for (int threads : {1, 2, 4}) {
    InputCheckOptions options;
    options.threads = threads;
    InputCallbacks cb;
    std::atomic<int> checked{0};
    cb.checked = [&](GameReport& r) {
      ++checked;
      r.attachment = r.number * 10 + (r.game.has_error ? 1 : 0);
    };
    std::uint64_t expected = 1;
    int games = 0;
    cb.game = [&](GameReport& r) {
      ++games;
      EXPECT_EQ(r.number, expected++);
      ASSERT_TRUE(r.attachment.has_value());
      EXPECT_EQ(std::any_cast<std::uint64_t>(r.attachment), r.number * 10 + (r.game.has_error ? 1 : 0));
    };
    check_inputs({path}, options, cb);
    EXPECT_EQ(games, 3000) << threads;
    EXPECT_EQ(checked.load(), 3000) << threads;
  }
  fs::remove(path);
}

}  // namespace
}  // namespace virrey::validate
