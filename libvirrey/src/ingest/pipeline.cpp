#include "virrey/ingest/pipeline.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/importers/open_input.hpp"

namespace virrey::ingest {

using validate::CheckedGame;
using validate::Code;
using validate::Finding;
using validate::GameChecker;
using validate::Severity;

std::uint64_t fingerprint_salt(const Options& options) {
  return std::uint64_t(options.check.default_variant);
}

bool RunResult::all_read() const {
  for (const InputOutcome& in : inputs)
    if (!in.read && !in.skipped) return false;
  return true;
}

namespace {

// A batch is the unit of reading and of output; games inside it are handed to
// the checking threads a few at a time. Small batches keep the threads busy
// to the end; the pipeline's bound on batches in flight keeps memory bounded
// (each holds at most kBatchBytes, plus one game over that size).
constexpr std::size_t kBatchGames = 256;
constexpr std::size_t kBatchBytes = std::size_t(2) << 20;
constexpr std::size_t kClaimGames = 16;

struct Pending {
  std::size_t offset = 0;  // into Batch::text
  std::size_t size = 0;
  std::uint64_t number = 0;
  pgn::Location start;
};

// A problem of the input itself (unreadable, a game over the size limit),
// reported just before the batch's game `before`.
struct Problem {
  std::size_t before = 0;
  Finding finding;
};

struct Batch {
  std::size_t input = 0;
  std::shared_ptr<const std::string> display;  // the input's name in findings
  std::string text;                            // the games' bytes, one after another
  std::vector<Pending> games;
  std::vector<GameReport> reports;
  std::unique_ptr<detail::PreparedSlots> prepared;  // one value per game, typed by the hook
  std::vector<Problem> problems;
  std::uint64_t bytes_read = 0;  // raw bytes of the input read so far
  std::size_t claimed = 0;       // games handed to a checking thread
  std::size_t finished = 0;      // games checked
  bool checked() const { return finished == games.size(); }

  // Empties the batch for the next one, keeping its buffers (their pages are
  // already mapped) unless a huge game made them large: the record of a game
  // of megabytes takes hundreds of them, and must not outlive its output.
  void recycle() {
    if (text.capacity() > 2 * kBatchBytes) text = std::string();
    for (GameReport& r : reports) {
      const game::GameRecord& rec = r.game.record;
      if (rec.main_line.capacity() > 4096 || rec.movetext.capacity() > 4096 || rec.tags.capacity() > 64 ||
          r.game.findings.capacity() > 64)
        r.game = CheckedGame{};
      if (r.raw.capacity() > (std::size_t(64) << 10)) r.raw = std::string();
    }
    text.clear();
    games.clear();
    problems.clear();
    claimed = finished = 0;
  }
};

// Reads the inputs one after another and cuts them into batches. Only one
// thread at a time uses it.
class BatchReader {
 public:
  BatchReader(const std::vector<std::string>& paths, const Options& options, RunHook& hook,
              std::vector<InputOutcome>& outcomes)
      : paths_(paths),
        options_(options.splitter),
        hook_(hook),
        outcomes_(outcomes),
        fingerprint_(options.fingerprint),
        salt_(fingerprint_salt(options)) {}

  // The next batch, or nullptr when every input is read. `spare`, if given,
  // is an emptied batch to fill again.
  std::unique_ptr<Batch> next(std::unique_ptr<Batch> spare) {
    while (input_ < paths_.size()) {
      if (!source_ && !skipped_ && open_error_.empty()) open_current();
      std::unique_ptr<Batch> batch = spare ? std::move(spare) : std::make_unique<Batch>();
      batch->recycle();
      batch->input = input_;
      batch->display = display_;
      if (fill(*batch)) close_current();
      if (!batch->games.empty() || !batch->problems.empty()) return batch;
      spare = std::move(batch);
    }
    return nullptr;
  }

 private:
  void problem(Batch& batch, Code code, pgn::Location at, std::uint64_t game, std::string msg) {
    Finding f;
    f.code = code;
    f.severity = Severity::Error;
    f.line = at.line;
    f.column = at.column;
    f.game = game;
    f.message = std::move(msg);
    batch.problems.push_back({batch.games.size(), std::move(f)});
  }

  // Opens the current input. A fingerprinted input whose probe the hook knows
  // is read to its end hashing only, and skipped when its fingerprint is
  // known too; otherwise it is opened again and read. Only a regular file
  // can be read twice: any other (a pipe, standard input) has no fingerprint.
  void open_current() {
    const std::string& path = paths_[input_];
    InputOutcome& out = outcomes_[input_];
    std::error_code ec;
    if (fingerprint_ && path != "-" && std::filesystem::is_regular_file(path, ec)) {
      importers::HashedInput in = importers::HashedInput::open(path, salt_);
      if (in && hook_.probe_known(in.probe())) {
        std::string error;
        const std::optional<importers::Fingerprint> fp = in.finish(error);
        out.raw_bytes += in.raw_bytes();
        if (fp && hook_.fingerprint_known(*fp)) {
          out.skipped = true;
          out.probe = in.probe();
          out.fingerprint = fp;
          skipped_ = true;
          return;
        }
        in = importers::HashedInput::open(path, salt_);
      }
      if (in) {
        out.probe = in.probe();
        hashed_.emplace(std::move(in));
        source_ = &hashed_->source();
      } else {
        open_error_ = in.error();
      }
    } else {
      opened_ = importers::open_input(path);
      if (opened_)
        source_ = opened_.source.get();
      else
        open_error_ = opened_.error;
    }
    display_ = std::make_shared<const std::string>(source_ ? std::string(source_->name()) : path);
    if (source_) splitter_.emplace(*source_, options_);
  }

  void close_current() {
    InputOutcome& out = outcomes_[input_];
    if (hashed_)
      out.raw_bytes += hashed_->raw_bytes();
    else if (source_)
      out.raw_bytes += source_->raw_bytes_read();
    splitter_.reset();
    hashed_.reset();
    opened_ = {};
    source_ = nullptr;
    open_error_.clear();
    skipped_ = failed_ = false;
    ++input_;
  }

  // Fills `batch` from the current input; true when that input is done.
  bool fill(Batch& batch) {
    if (skipped_) return true;
    if (!source_) {
      problem(batch, Code::IoError, {0, 0}, 0, open_error_);
      return true;
    }
    batch.text.reserve(kBatchBytes + (std::size_t(64) << 10));
    bool done = false;
    while (batch.games.size() < kBatchGames && batch.text.size() < kBatchBytes) {
      pgn::GameItem item = splitter_->next();
      if (item.kind == pgn::ItemKind::End) {
        done = true;
        break;
      }
      if (item.kind == pgn::ItemKind::ReadError) {
        problem(batch, Code::IoError, item.start, 0, std::string(item.error));
        failed_ = true;
        continue;
      }
      if (item.kind == pgn::ItemKind::Oversized) {
        problem(batch, Code::OversizedGame, item.start, item.number,
                fmt::format("game {} is {} bytes, over the limit of {} bytes; skipped", item.number,
                            item.size, options_.max_game_bytes));
        continue;
      }
      if (item.kind != pgn::ItemKind::Game) continue;
      batch.games.push_back({batch.text.size(), item.text.size(), item.number, item.start});
      batch.text.append(item.text);
    }
    batch.bytes_read = source_->raw_bytes_read();
    if (done && !failed_) finished(batch);
    return done;
  }

  // The input is read: its fingerprint, once the raw bytes a decompressor
  // left after its last frame are hashed too.
  void finished(Batch& batch) {
    InputOutcome& out = outcomes_[input_];
    if (hashed_) {
      std::string error;
      out.fingerprint = hashed_->finish(error);
      if (!out.fingerprint) {
        problem(batch, Code::IoError, {0, 0}, 0, std::move(error));
        return;
      }
    }
    out.read = true;
  }

  const std::vector<std::string>& paths_;
  const pgn::SplitterOptions& options_;
  RunHook& hook_;
  std::vector<InputOutcome>& outcomes_;
  const bool fingerprint_;
  const std::uint64_t salt_;
  std::shared_ptr<const std::string> display_;
  std::size_t input_ = 0;
  importers::OpenResult opened_;                  // an input read without fingerprint
  std::optional<importers::HashedInput> hashed_;  // or with one
  importers::ByteSource* source_ = nullptr;       // the current input's bytes
  std::string open_error_;                        // why the current input did not open
  bool skipped_ = false;                          // the current input is known to the hook
  bool failed_ = false;                           // a read of the current input failed
  std::optional<pgn::GameSplitter> splitter_;
};

// Hands each game's report to the callbacks in input order and flags games
// seen earlier in the run. Only one thread at a time uses it.
class ReportSink {
 public:
  ReportSink(const std::vector<std::string>& paths, const Options& options, RunHook& hook,
             std::vector<InputOutcome>& outcomes)
      : paths_(paths), options_(options), hook_(hook), outcomes_(outcomes) {}

  // Flow::Stop when the hook stopped the run.
  Flow emit(Batch& batch) {
    const std::string& display = *batch.display;
    std::size_t next_problem = 0;
    auto problems_before = [&](std::size_t game) {
      for (; next_problem < batch.problems.size() && batch.problems[next_problem].before <= game;
           ++next_problem)
        hook_.problem(display, batch.problems[next_problem].finding);
    };
    for (std::size_t i = 0; i < batch.games.size(); ++i) {
      problems_before(i);
      GameReport& r = batch.reports[i];
      r.file = display;
      r.input = batch.input;
      if (options_.flag_duplicates) flag_duplicate(batch.input, r);
      if (options_.keep_raw) r.raw.assign(batch.text, batch.games[i].offset, batch.games[i].size);
      ++outcomes_[batch.input].games;
      if (batch.prepared->deliver(i, r) == Flow::Stop) {
        stopped_input_ = batch.input;
        return Flow::Stop;
      }
    }
    problems_before(batch.games.size());
    games_total_ += batch.games.size();
    if (!batch.games.empty()) hook_.progress(games_total_, batch.bytes_read);
    return Flow::Continue;
  }

  // The input whose game stopped the run, once a hook stopped it.
  std::size_t stopped_input() const { return stopped_input_; }

 private:
  void flag_duplicate(std::size_t input, GameReport& r) {
    CheckedGame& g = r.game;
    if (g.has_error) return;
    auto [it, inserted] = seen_.try_emplace(g.identity, Seen{input, r.number});
    if (inserted) return;
    Finding f;
    f.code = Code::DuplicateGame;
    f.severity = Severity::Warning;
    f.line = r.start.line;
    f.column = r.start.column;
    f.game = r.number;
    f.message = it->second.input == input ? fmt::format("the same game as game {}", it->second.number)
                                          : fmt::format("the same game as game {} of {}", it->second.number,
                                                        paths_[it->second.input]);
    g.findings.push_back(std::move(f));
    g.has_warning = true;
  }

  struct Seen {
    std::size_t input;
    std::uint64_t number;
  };
  const std::vector<std::string>& paths_;
  const Options& options_;
  RunHook& hook_;
  std::vector<InputOutcome>& outcomes_;
  std::unordered_map<std::uint64_t, Seen> seen_;
  std::uint64_t games_total_ = 0;
  std::size_t stopped_input_ = 0;
};

// Every thread runs the same loop and takes whatever job is free: write out
// the oldest batch once it is checked, check the games of the batch it read
// itself (still in its own cache), read the next batch while the queue has
// room, or else help with another thread's batch. Reading and writing are
// each done by one thread at a time, and overlap with checking.
class Pipeline {
 public:
  Pipeline(BatchReader& reader, ReportSink& sink, const detail::SlotMaker& make_slots, std::size_t threads)
      : reader_(reader),
        sink_(sink),
        make_slots_(make_slots),
        max_queued_(std::min<std::size_t>(2 * threads + 1, 16)) {}

  void run(GameChecker& checker) {
    try {
      work(checker);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      changed_.notify_all();
    }
  }

  // The first exception any thread met (the hook's, most likely), if any.
  std::exception_ptr failure() const { return failure_; }
  bool stopped() const { return stopped_; }

 private:
  void work(GameChecker& checker) {
    std::unique_lock lock(mutex_);
    Batch* mine = nullptr;  // the batch this thread read last
    for (;;) {
      if (failure_ || stopped_) return;
      if (!writing_ && !queue_.empty() && queue_.front()->checked()) {
        std::unique_ptr<Batch> batch = std::move(queue_.front());
        queue_.pop_front();
        writing_ = true;
        Flow flow = Flow::Continue;
        unlocked([&] { flow = sink_.emit(*batch); }, lock);
        spare_.push_back(std::move(batch));
        writing_ = false;
        if (flow == Flow::Stop) stopped_ = true;
        changed_.notify_all();
        continue;
      }
      // Another thread may have written out this thread's batch (once all
      // its games were checked) and even filled it again.
      if (mine && !queued(mine)) mine = nullptr;
      if (mine && mine->claimed < mine->games.size()) {
        check_some(checker, *mine, lock);
        continue;
      }
      if (!reading_ && !read_all_ && queue_.size() < max_queued_) {
        reading_ = true;
        std::unique_ptr<Batch> batch;
        if (!spare_.empty()) {
          batch = std::move(spare_.back());
          spare_.pop_back();
        }
        unlocked([&] { batch = reader_.next(std::move(batch)); }, lock);
        reading_ = false;
        changed_.notify_all();
        if (batch) {
          batch->reports.resize(batch->games.size());
          if (!batch->prepared) batch->prepared = make_slots_();
          batch->prepared->resize(batch->games.size());
          mine = batch.get();
          queue_.push_back(std::move(batch));
        } else {
          read_all_ = true;
        }
        continue;
      }
      if (Batch* other = unclaimed()) {
        check_some(checker, *other, lock);
        continue;
      }
      if (read_all_ && queue_.empty() && !reading_ && !writing_) {
        changed_.notify_all();
        return;
      }
      changed_.wait(lock);
    }
  }

  // Claims the next few games of `batch` and checks them outside the lock.
  void check_some(GameChecker& checker, Batch& batch, std::unique_lock<std::mutex>& lock) {
    const std::size_t first = batch.claimed;
    const std::size_t count = std::min(kClaimGames, batch.games.size() - first);
    batch.claimed += count;
    unlocked(
        [&] {
          for (std::size_t i = first; i < first + count; ++i) check(checker, batch, i);
        },
        lock);
    batch.finished += count;
    if (batch.checked() && &batch == queue_.front().get()) changed_.notify_all();
  }

  // Runs a job outside the lock and takes the lock again. A job that throws
  // stops every thread before any of them can take another job.
  template <class Job>
  void unlocked(Job&& job, std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    try {
      job();
    } catch (...) {
      lock.lock();
      if (!failure_) failure_ = std::current_exception();
      changed_.notify_all();
      throw;
    }
    lock.lock();
  }

  bool queued(const Batch* batch) const {
    for (const auto& b : queue_)
      if (b.get() == batch) return true;
    return false;
  }

  Batch* unclaimed() {
    for (auto& b : queue_)
      if (b->claimed < b->games.size()) return b.get();
    return nullptr;
  }

  void check(GameChecker& checker, Batch& batch, std::size_t i) const {
    const Pending& p = batch.games[i];
    GameReport& r = batch.reports[i];
    r.file = *batch.display;
    r.input = batch.input;
    r.number = p.number;
    r.start = p.start;
    checker.check(std::string_view(batch.text).substr(p.offset, p.size), p.number, p.start, r.game);
    batch.prepared->prepare(i, r);
  }

  BatchReader& reader_;
  ReportSink& sink_;
  const detail::SlotMaker& make_slots_;
  const std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> queue_;
  std::vector<std::unique_ptr<Batch>> spare_;  // written out, to be filled again
  bool reading_ = false;
  bool writing_ = false;
  bool read_all_ = false;
  bool stopped_ = false;
  std::exception_ptr failure_;
};

}  // namespace

namespace detail {

RunResult run(const std::vector<std::string>& paths, const Options& options, RunHook& hook,
              const SlotMaker& make_slots) {
  RunResult result;
  result.inputs.resize(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) result.inputs[i].name = paths[i];
  const std::size_t threads = std::size_t(std::max(1, options.threads));
  std::vector<GameChecker> checkers;
  for (std::size_t t = 0; t < threads; ++t) checkers.emplace_back(options.check);
  BatchReader reader(paths, options, hook, result.inputs);
  ReportSink sink(paths, options, hook, result.inputs);
  Pipeline pipeline(reader, sink, make_slots, threads);
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back([&, t] { pipeline.run(checkers[t]); });
    pipeline.run(checkers[0]);
  }
  if (std::exception_ptr failure = pipeline.failure()) std::rethrow_exception(failure);
  result.stopped = pipeline.stopped();
  // The reader runs ahead of the hook: an input it read to its end may still
  // have games the hook never saw, so from the stopping input on none is read.
  if (result.stopped)
    for (std::size_t i = sink.stopped_input(); i < result.inputs.size(); ++i) {
      result.inputs[i].read = false;
      result.inputs[i].fingerprint.reset();
    }
  return result;
}

}  // namespace detail

bool write_raw_game(std::FILE* out, std::string_view raw) {
  // A game whose last line ends in a lone CR (old Mac files) takes two LFs:
  // one would read as the second half of a CRLF, and leave no blank line.
  const bool ends_line = !raw.empty() && raw.back() == '\n';
  return std::fwrite(raw.data(), 1, raw.size(), out) == raw.size() &&
         std::fputs(ends_line ? "\n" : "\n\n", out) >= 0;
}

}  // namespace virrey::ingest
