// The ingest pipeline on several threads: the hook sees exactly what one
// thread would show it, in the same order (games, skipped games and
// unreadable inputs), across many batches; games prepared ahead of delivery
// stay within the pipeline's few batches; the hook's typed values reach it in
// order; Flow::Stop ends a run, and an exception reaches the caller; inputs
// are fingerprinted as they are read, each read once.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "fingerprint_testing.hpp"
#include "virrey/importers/fingerprint.hpp"
#include "virrey/ingest/pipeline.hpp"

namespace virrey::ingest {
namespace {

namespace fs = std::filesystem;
using validate::Code;
using validate::Finding;

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
  Options options;
  options.threads = threads;
  options.keep_raw = true;
  options.splitter.max_game_bytes = 500;
  std::vector<Event> seen;
  Callbacks cb;
  cb.on_game = [&](GameReport& r) {
    std::string what = r.game.has_error ? "error" : "ok";
    for (const auto& f : r.game.findings) what += fmt::format(" {}@{}", code_name(f.code), f.ply);
    what += fmt::format(" raw={}", r.raw.size());
    seen.push_back({std::string(r.file), r.number, what});
    return Flow::Continue;
  };
  cb.on_problem = [&](std::string_view file, const Finding& f) {
    seen.push_back({std::string(file), f.game, std::string(code_name(f.code))});
  };
  const RunResult result = run(paths, options, cb);
  EXPECT_FALSE(result.all_read());  // the missing input
  EXPECT_FALSE(result.stopped);
  return seen;
}

TEST(Pipeline, ThreadsShowTheSameEventsInTheSameOrder) {
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

TEST(Pipeline, AHooksExceptionStopsTheRun) {
  const std::string a = write_collection("virrey-input-checker-c.pgn", 3000);
  for (int threads : {1, 2, 4}) {
    Options options;
    options.threads = threads;
    std::uint64_t last = 0;
    Callbacks cb;
    cb.on_game = [&](GameReport& r) {
      last = r.number;
      if (r.number == 1000) throw std::runtime_error("out of memory");
      return Flow::Continue;
    };
    EXPECT_THROW(run({a}, options, cb), std::runtime_error) << threads << " threads";
    EXPECT_EQ(last, 1000u) << threads << " threads";
  }
  fs::remove(a);
}

// A hook that stops (a failed write) ends the run: no game after, no
// exception, and the inputs not read to their end say so.
TEST(Pipeline, StopIsAReturnValue) {
  const std::string a = write_collection("virrey-pipeline-stop.pgn", 3000);
  const std::string b = write_collection("virrey-pipeline-stop-b.pgn", 10);
  for (int threads : {1, 2, 4}) {
    Options options;
    options.threads = threads;
    std::uint64_t last = 0, games = 0, problems = 0;
    Callbacks cb;
    cb.on_game = [&](GameReport& r) {
      ++games;
      last = r.number;
      return r.number == 1000 ? Flow::Stop : Flow::Continue;
    };
    cb.on_problem = [&](std::string_view, const Finding&) { ++problems; };
    const RunResult result = run({a, "/nonexistent/virrey/missing.pgn", b}, options, cb);
    EXPECT_TRUE(result.stopped) << threads;
    EXPECT_FALSE(result.all_read()) << threads;
    EXPECT_EQ(last, 1000u) << threads;
    EXPECT_EQ(games, 1000u) << threads;
    EXPECT_EQ(problems, 0u) << threads;  // the missing input is never reached
    EXPECT_EQ(result.inputs[0].games, 1000u);
    EXPECT_FALSE(result.inputs[0].read && result.inputs[2].read);
  }
  fs::remove(a);
  fs::remove(b);
}

// The reader runs ahead of the hook: after a stop on the first game of the
// first input, neither input counts as read, though both may be read to their end.
TEST(Pipeline, StopLeavesTheStoppingInputAndLaterOnesUnread) {
  const std::string a = write_collection("virrey-pipeline-stop-first-a.pgn", 20);
  const std::string b = write_collection("virrey-pipeline-stop-first-b.pgn", 20);
  for (int threads : {1, 2, 4}) {
    Options options;
    options.threads = threads;
    options.fingerprint = true;
    Callbacks cb;
    cb.on_game = [&](GameReport&) { return Flow::Stop; };
    const RunResult result = run({a, b}, options, cb);
    EXPECT_TRUE(result.stopped) << threads;
    EXPECT_FALSE(result.inputs[0].read) << threads;
    EXPECT_FALSE(result.inputs[1].read) << threads;
    EXPECT_FALSE(result.inputs[0].fingerprint) << threads;
    EXPECT_FALSE(result.inputs[1].fingerprint) << threads;
    EXPECT_FALSE(result.all_read()) << threads;
  }
  fs::remove(a);
  fs::remove(b);
}

}  // namespace
}  // namespace virrey::ingest

namespace virrey::ingest {
namespace {

// The same game twice: a DuplicateGame warning, unless turned off (import).
TEST(Pipeline, DuplicateWarningsCanBeTurnedOff) {
  const fs::path path = fs::temp_directory_path() / "virrey_twice.pgn";
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 2; ++i) out << "[Event \"E\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
  }
  for (bool flag : {true, false}) {
    Options options;
    options.flag_duplicates = flag;
    int warnings = 0, games = 0;
    Callbacks cb;
    cb.on_game = [&](GameReport& r) {
      ++games;
      for (const auto& f : r.game.findings) warnings += f.code == Code::DuplicateGame;
      return Flow::Continue;
    };
    EXPECT_TRUE(run({path.string()}, options, cb).all_read());
    EXPECT_EQ(games, 2);
    EXPECT_EQ(warnings, flag ? 1 : 0);
  }
  fs::remove(path);
}

}  // namespace
}  // namespace virrey::ingest

namespace virrey::ingest {
namespace {

// What prepare made on a checking thread reaches game() with its own type,
// in input order; prepare runs for every game, on the pipeline's threads.
struct Label {
  std::uint64_t number = 0;
  std::string text;
  std::thread::id thread;
};

class LabelHook final : public Hook<Label> {
 public:
  Label prepare(const GameReport& r) override {
    ++prepared;
    return {r.number, fmt::format("{}:{}", r.number, r.game.has_error ? "bad" : "good"),
            std::this_thread::get_id()};
  }
  Flow game(GameReport& r, Label& label) override {
    ++games;
    EXPECT_EQ(r.number, expected);
    EXPECT_EQ(label.number, r.number);
    EXPECT_EQ(label.text, fmt::format("{}:{}", r.number, r.game.has_error ? "bad" : "good"));
    threads.insert(label.thread);
    // Moved out after delivery: nothing is left for a later game.
    label.text.clear();
    ++expected;
    return Flow::Continue;
  }
  std::atomic<int> prepared{0};
  int games = 0;
  std::uint64_t expected = 1;
  std::set<std::thread::id> threads;
};

TEST(Pipeline, TypedHookGetsWhatPrepareMade) {
  const std::string path = write_collection("virrey_checked.pgn", 3000);
  for (int threads : {1, 2, 4}) {
    Options options;
    options.threads = threads;
    LabelHook hook;
    run({path}, options, hook);
    EXPECT_EQ(hook.games, 3000) << threads;
    EXPECT_EQ(hook.prepared.load(), 3000) << threads;
    EXPECT_LE(hook.threads.size(), std::size_t(threads));
    if (threads == 1) {
      EXPECT_EQ(*hook.threads.begin(), std::this_thread::get_id());
    }
  }
  fs::remove(path);
}

// However slow the hook, the pipeline reads ahead by a few batches only: at
// most min(2 * threads + 1, 16) batches queued and one being delivered, of at
// most 256 games each. One thread delivers each batch before reading the next.
class SlowHook final : public Hook<int> {
 public:
  int prepare(const GameReport&) override {
    const int now = ++ahead;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    return 0;
  }
  Flow game(GameReport&, int&) override {
    --ahead;
    if (++games % 500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return Flow::Continue;
  }
  std::atomic<int> ahead{0}, most{0};
  int games = 0;
};

TEST(Pipeline, MemoryIsBoundedByAFewBatches) {
  const std::string path = write_collection("virrey-pipeline-bound.pgn", 20000);
  for (int threads : {1, 2, 4}) {
    Options options;
    options.threads = threads;
    SlowHook hook;
    run({path}, options, hook);
    EXPECT_EQ(hook.games, 20000);
    const int bound = (std::min(2 * threads + 1, 16) + 1) * 256;
    EXPECT_LE(hook.most.load(), bound) << threads << " threads";
    if (threads == 1) {
      EXPECT_LE(hook.most.load(), 256);
    } else {
      EXPECT_GT(hook.most.load(), 256) << threads << " threads";  // it reads ahead
    }
  }
  fs::remove(path);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Answers probe_known and fingerprint_known as told, and counts what it sees.
class KnowingHook final : public Hook<> {
 public:
  bool probe_answer = false, fingerprint_answer = false;
  int probes = 0, fingerprints = 0, games = 0;
  bool probe_known(const importers::InputProbe&) override { return ++probes, probe_answer; }
  bool fingerprint_known(const importers::Fingerprint&) override {
    return ++fingerprints, fingerprint_answer;
  }
  Flow game(GameReport&, std::monostate&) override { return ++games, Flow::Continue; }
};

TEST(Pipeline, InputsAreFingerprintedAsTheyAreReadOnce) {
  const std::string path = write_collection("virrey-pipeline-fp.pgn", 2000);
  const std::string bytes = file_bytes(path);
  ASSERT_GT(bytes.size(), importers::kProbeBytes);
  Options options;
  options.threads = 2;
  options.fingerprint = true;
  options.check.default_variant = Variant::Modern;
  KnowingHook hook;
  const RunResult result = run({path}, options, hook);
  ASSERT_EQ(result.inputs.size(), 1u);
  const InputOutcome& in = result.inputs[0];
  EXPECT_TRUE(in.read);
  EXPECT_FALSE(in.skipped);
  EXPECT_EQ(in.games, 2000u);
  EXPECT_EQ(in.raw_bytes, bytes.size());  // one read
  ASSERT_TRUE(in.fingerprint);
  EXPECT_EQ(*in.fingerprint, testing::reference_fingerprint(bytes, std::uint64_t(Variant::Modern)));
  EXPECT_EQ(in.probe.size, bytes.size());
  EXPECT_EQ(hook.probes, 1);
  EXPECT_EQ(hook.fingerprints, 0);  // an unknown probe needs no fingerprint first
  EXPECT_EQ(hook.games, 2000);

  // Standard input has none; without Options::fingerprint no input has one.
  options.fingerprint = false;
  KnowingHook plain;
  EXPECT_FALSE(run({path}, options, plain).inputs[0].fingerprint);
  EXPECT_EQ(plain.probes, 0);
  fs::remove(path);
}

// A pipe can be read only once: it is not offered as a probe nor read for a
// fingerprint first, and its games are all read, with no fingerprint.
TEST(Pipeline, APipeIsReadOnceWithoutFingerprint) {
  const std::string file = write_collection("virrey-pipeline-fifo-src.pgn", 30);
  const std::string bytes = file_bytes(file);
  const fs::path fifo = fs::temp_directory_path() / "virrey-pipeline-fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << bytes; });
  Options options;
  options.fingerprint = true;
  KnowingHook hook;
  const RunResult result = run({fifo.string()}, options, hook);
  writer.join();
  const InputOutcome& in = result.inputs[0];
  EXPECT_TRUE(in.read);
  EXPECT_FALSE(in.fingerprint);
  EXPECT_EQ(in.games, 30u);
  EXPECT_EQ(hook.games, 30);
  EXPECT_EQ(hook.probes, 0);
  fs::remove(fifo);
  fs::remove(file);
}

TEST(Pipeline, AKnownInputIsSkippedAfterOneReadHashingOnly) {
  const std::string path = write_collection("virrey-pipeline-known.pgn", 2000);
  const std::string bytes = file_bytes(path);
  Options options;
  options.fingerprint = true;
  KnowingHook hook;
  hook.probe_answer = hook.fingerprint_answer = true;
  const RunResult result = run({path}, options, hook);
  const InputOutcome& in = result.inputs[0];
  EXPECT_TRUE(in.skipped);
  EXPECT_EQ(in.games, 0u);
  EXPECT_EQ(hook.games, 0);
  EXPECT_EQ(in.raw_bytes, bytes.size());
  EXPECT_EQ(in.fingerprint, testing::reference_fingerprint(bytes, 0));
  EXPECT_TRUE(result.all_read());

  // A probe that matches but a fingerprint that does not: read again, whole.
  KnowingHook unlucky;
  unlucky.probe_answer = true;
  const RunResult again = run({path}, options, unlucky);
  EXPECT_FALSE(again.inputs[0].skipped);
  EXPECT_EQ(again.inputs[0].games, 2000u);
  EXPECT_EQ(unlucky.games, 2000);
  EXPECT_EQ(unlucky.fingerprints, 1);
  EXPECT_EQ(again.inputs[0].raw_bytes, 2 * bytes.size());
  EXPECT_EQ(again.inputs[0].fingerprint, testing::reference_fingerprint(bytes, 0));
  fs::remove(path);
}

// A rejected game is written as read, then a blank line: one line end more
// when its last line ends, two when it does not, and two after a lone CR
// (one LF would make it a CRLF, the game's own line end, and no blank line).
TEST(Pipeline, ARawGameIsFollowedByABlankLine) {
  auto written = [](std::string_view raw) {
    std::FILE* f = std::tmpfile();
    EXPECT_TRUE(write_raw_game(f, raw));
    std::rewind(f);
    std::string out(64, '\0');
    out.resize(std::fread(out.data(), 1, out.size(), f));
    std::fclose(f);
    return out;
  };
  EXPECT_EQ(written("1. e4 *\n"), "1. e4 *\n\n");
  EXPECT_EQ(written("1. e4 *\r\n"), "1. e4 *\r\n\n");
  EXPECT_EQ(written("1. e4 *"), "1. e4 *\n\n");
  EXPECT_EQ(written("1. e4 *\r"), "1. e4 *\r\n\n");
}

}  // namespace
}  // namespace virrey::ingest
