#include "virrey/validate/input_checker.hpp"

#include <atomic>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/importers/open_input.hpp"

namespace virrey::validate {

namespace {

constexpr std::size_t kBatchGames = 1024;
constexpr std::size_t kBatchBytes = std::size_t(8) << 20;

struct Pending {
  std::string text;
  std::uint64_t number = 0;
  pgn::Location start;
};

// Checks a batch on `threads` threads, one GameChecker per thread.
void check_batch(std::vector<Pending>& batch, std::vector<GameReport>& reports,
                 std::vector<GameChecker>& checkers) {
  reports.resize(batch.size());
  std::atomic<std::size_t> next{0};
  auto work = [&](GameChecker& checker) {
    for (std::size_t i; (i = next.fetch_add(1)) < batch.size();) {
      reports[i].number = batch[i].number;
      reports[i].start = batch[i].start;
      reports[i].game = checker.check(batch[i].text, batch[i].number, batch[i].start);
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < checkers.size() && t < batch.size(); ++t)
    pool.emplace_back(work, std::ref(checkers[t]));
  work(checkers[0]);
  for (auto& t : pool) t.join();
}

}  // namespace

bool check_inputs(const std::vector<std::string>& paths, const InputCheckOptions& options,
                  const InputCallbacks& cb) {
  bool all_read = true;
  std::vector<GameChecker> checkers;
  for (int t = 0; t < std::max(1, options.threads); ++t) checkers.emplace_back(options.check);
  struct Seen {
    std::size_t input;
    std::uint64_t number;
  };
  std::unordered_map<std::uint64_t, Seen> seen;
  std::uint64_t games_total = 0;

  for (std::size_t input = 0; input < paths.size(); ++input) {
    auto opened = importers::open_input(paths[input]);
    const std::string display = opened ? std::string(opened.source->name()) : paths[input];
    auto report_problem = [&](Code code, pgn::Location at, std::uint64_t game, std::string msg) {
      Finding f;
      f.code = code;
      f.severity = Severity::Error;
      f.line = at.line;
      f.column = at.column;
      f.game = game;
      f.message = std::move(msg);
      if (cb.problem) cb.problem(display, f);
    };
    if (!opened) {
      report_problem(Code::IoError, {0, 0}, 0, opened.error);
      all_read = false;
      continue;
    }
    pgn::GameSplitter splitter(*opened.source, options.splitter);
    std::vector<Pending> batch;
    std::vector<GameReport> reports;
    bool done = false;
    while (!done) {
      batch.clear();
      std::size_t bytes = 0;
      while (batch.size() < kBatchGames && bytes < kBatchBytes) {
        pgn::GameItem item = splitter.next();
        if (item.kind == pgn::ItemKind::End) {
          done = true;
          break;
        }
        if (item.kind == pgn::ItemKind::ReadError) {
          report_problem(Code::IoError, {0, 0}, 0, std::string(item.error));
          all_read = false;
          continue;
        }
        if (item.kind == pgn::ItemKind::Oversized) {
          report_problem(Code::OversizedGame, item.start, item.number,
                         fmt::format("game {} is {} bytes, over the limit of {} bytes; skipped",
                                     item.number, item.size, options.splitter.max_game_bytes));
          continue;
        }
        if (item.kind != pgn::ItemKind::Game) continue;
        batch.push_back(Pending{std::string(item.text), item.number, item.start});
        bytes += item.text.size();
      }
      if (batch.empty()) continue;
      check_batch(batch, reports, checkers);
      for (std::size_t i = 0; i < batch.size(); ++i) {
        GameReport& r = reports[i];
        r.file = display;
        CheckedGame& g = r.game;
        if (!g.has_error) {
          auto [it, inserted] = seen.try_emplace(g.identity, Seen{input, r.number});
          if (!inserted) {
            Finding f;
            f.code = Code::DuplicateGame;
            f.severity = Severity::Warning;
            f.line = r.start.line;
            f.column = r.start.column;
            f.game = r.number;
            f.message = it->second.input == input
                            ? fmt::format("the same game as game {}", it->second.number)
                            : fmt::format("the same game as game {} of {}", it->second.number,
                                          paths[it->second.input]);
            g.findings.push_back(std::move(f));
            g.has_warning = true;
          }
        }
        if (options.keep_raw) r.raw = std::move(batch[i].text);
        if (cb.game) cb.game(r);
      }
      games_total += batch.size();
      if (cb.progress) cb.progress(games_total, opened.source->raw_bytes_read());
    }
  }
  return all_read;
}

}  // namespace virrey::validate
