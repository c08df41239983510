// The ingest pipeline: reads a list of inputs (paths or "-"), cuts them into
// games, checks the games on several threads if asked, and hands each game to
// a hook in input order. Memory is bounded by a few batches of games, never
// by the size of an input. Games seen earlier in the run can be flagged as
// duplicates. When asked, each input's raw bytes are fingerprinted as they
// stream by, and an input the hook already knows is skipped unparsed.
//
// The hook's calls other than prepare run one at a time, in input order, on
// any of the threads. An exception thrown by the hook stops every thread and
// leaves run(); stopping on purpose is a return value (Flow::Stop).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "virrey/importers/fingerprint.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::ingest {

struct Options {
  validate::CheckOptions check;
  int threads = 1;
  pgn::SplitterOptions splitter;
  bool keep_raw = false;  // fill GameReport::raw (for a rejects file)
  // Warn (DuplicateGame) about a game equal to an earlier one of the inputs.
  // Import, which counts duplicates against the database, turns it off.
  bool flag_duplicates = true;
  // Fingerprint every input but standard input, and ask the hook whether it
  // knows it before its games are read (RunHook::probe_known).
  bool fingerprint = false;
};

// The salt of the fingerprints: the default variant the games are read with.
std::uint64_t fingerprint_salt(const Options& options);

struct GameReport {
  std::string_view file;  // the input's display name
  std::size_t input = 0;  // its index in the list of inputs
  std::uint64_t number = 0;
  pgn::Location start;
  validate::CheckedGame game;
  std::string raw;  // the game's bytes as read, when keep_raw
};

// Writes a game's bytes as read (a rejects file): then a line break if they
// lack one, and a blank line, so that the next game starts on a line of its own.
// False when a write failed (errno says why).
bool write_raw_game(std::FILE* out, std::string_view raw);

enum class Flow : std::uint8_t { Continue, Stop };

// What every hook may hear besides its games.
class RunHook {
 public:
  virtual ~RunHook() = default;
  // An input that could not be opened or read to its end (code IoError), or
  // a game skipped for its size (OversizedGame); `file` names the input.
  virtual void problem(std::string_view /*file*/, const validate::Finding&) {}
  // Now and then, with games delivered and bytes read so far (for a progress display).
  virtual void progress(std::uint64_t /*games*/, std::uint64_t /*bytes*/) {}
  // With Options::fingerprint, before an input's games are read: true when
  // an input recorded before has this probe. The rest of the input is then
  // read hashing only and fingerprint_known decides: a known input is
  // skipped, any other is read again from its start. These two run on the
  // reading thread, beside the other calls.
  virtual bool probe_known(const importers::InputProbe&) { return false; }
  virtual bool fingerprint_known(const importers::Fingerprint&) { return false; }
};

// A hook whose games come with a value of type Prepared, made for each game
// on the checking thread (in any order, several at once) as soon as it is
// checked: work that can run in parallel, handed to game() in input order.
template <class Prepared = std::monostate>
class Hook : public RunHook {
 public:
  virtual Prepared prepare(const GameReport&) { return Prepared{}; }
  // Every game, in input order; Flow::Stop ends the run.
  virtual Flow game(GameReport& report, Prepared& prepared) = 0;
};

// What became of one input.
struct InputOutcome {
  std::string name;             // as given
  bool read = false;            // read to its end without an error
  bool skipped = false;         // known to the hook (fingerprint_known), not parsed
  std::uint64_t games = 0;      // games handed to the hook
  std::uint64_t raw_bytes = 0;  // bytes taken from the file, every pass counted
  // With Options::fingerprint, of an input read to its end (not "-").
  std::optional<importers::Fingerprint> fingerprint;
  importers::InputProbe probe;
};

struct RunResult {
  std::vector<InputOutcome> inputs;  // in the order given
  bool stopped = false;              // the hook returned Flow::Stop
  // Every input was opened and read to its end (or skipped).
  bool all_read() const;
};

// --- the pipeline's typed part over an untyped core ---------------------
namespace detail {
// The prepared values of one batch of games.
class PreparedSlots {
 public:
  virtual ~PreparedSlots() = default;
  virtual void resize(std::size_t games) = 0;
  virtual void prepare(std::size_t slot, const GameReport& report) = 0;
  virtual Flow deliver(std::size_t slot, GameReport& report) = 0;
};
using SlotMaker = std::function<std::unique_ptr<PreparedSlots>()>;

RunResult run(const std::vector<std::string>& paths, const Options& options, RunHook& hook,
              const SlotMaker& make_slots);

template <class Prepared>
class TypedSlots final : public PreparedSlots {
 public:
  explicit TypedSlots(Hook<Prepared>& hook) : hook_(hook) {}
  void resize(std::size_t games) override { values_.resize(games); }
  void prepare(std::size_t slot, const GameReport& report) override { values_[slot] = hook_.prepare(report); }
  Flow deliver(std::size_t slot, GameReport& report) override {
    // Moved out, so nothing of a game outlives its delivery.
    Prepared value = std::move(values_[slot]);
    return hook_.game(report, value);
  }

 private:
  Hook<Prepared>& hook_;
  std::vector<Prepared> values_;
};
}  // namespace detail

template <class Prepared>
RunResult run(const std::vector<std::string>& paths, const Options& options, Hook<Prepared>& hook) {
  return detail::run(paths, options, hook,
                     [&hook] { return std::make_unique<detail::TypedSlots<Prepared>>(hook); });
}

// A hook made of functions, for callers that need no prepared value.
struct Callbacks final : Hook<> {
  std::function<Flow(GameReport&)> on_game;
  std::function<void(std::string_view, const validate::Finding&)> on_problem;
  std::function<void(std::uint64_t, std::uint64_t)> on_progress;

  Flow game(GameReport& r, std::monostate&) override { return on_game ? on_game(r) : Flow::Continue; }
  void problem(std::string_view file, const validate::Finding& f) override {
    if (on_problem) on_problem(file, f);
  }
  void progress(std::uint64_t games, std::uint64_t bytes) override {
    if (on_progress) on_progress(games, bytes);
  }
};

}  // namespace virrey::ingest
