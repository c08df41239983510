#include "virrey/import/import_run.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "virrey/importers/fingerprint.hpp"
#include "virrey/ingest/pipeline.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::import {

namespace {

using importers::Fingerprint;
using importers::InputProbe;

struct ProbeLess {
  bool operator()(const InputProbe& a, const InputProbe& b) const {
    return a.size != b.size ? a.size < b.size : a.head < b.head;
  }
};

// The inputs recorded in the database: their fingerprints and probes.
struct Recorded {
  std::map<Fingerprint, store::InputRecord> inputs;
  std::set<InputProbe, ProbeLess> probes;
  bool without_probe = false;  // some record predates probes
};

Result<Recorded> recorded_inputs(const store::Database& db) {
  Recorded r;
  Status s = db.for_each_input([&](const Fingerprint& fp, const store::InputRecord& rec) {
    if (rec.probe)
      r.probes.insert(*rec.probe);
    else
      r.without_probe = true;
    r.inputs.emplace(fp, rec);
    return true;
  });
  if (!s) return s.error();
  return r;
}

// Games are indexed and encoded on the checking threads (prepare), stored in
// input order (game).
class ImportHook final : public ingest::Hook<store::PreparedGame> {
 public:
  ImportHook(const Options& options, const Recorded& recorded, bool probes, store::GameImporter& importer,
             Summary& summary)
      : options_(options), recorded_(recorded), probes_(probes), importer_(importer), summary_(summary) {}

  store::PreparedGame prepare(const ingest::GameReport& r) override {
    if (r.game.has_error) return {};
    return store::prepare_game(r.game.record, &r.game.trace);
  }

  ingest::Flow game(ingest::GameReport& r, store::PreparedGame& prepared) override {
    ++summary_.read;
    if (r.game.has_error) {
      ++summary_.rejected;
      if (rejected_.size() <= r.input) rejected_.resize(r.input + 1);
      ++rejected_[r.input];
      for (const auto& f : r.game.findings)
        if (f.severity == validate::Severity::Error) finding(r.file, f);
      if (options_.rejects && !ingest::write_raw_game(options_.rejects, r.raw) && !summary_.rejects_errno)
        summary_.rejects_errno = errno;
      return ingest::Flow::Continue;
    }
    if (Status s = importer_.add(std::move(prepared)); !s) {
      failure_ = s;
      return ingest::Flow::Stop;
    }
    return ingest::Flow::Continue;
  }

  void problem(std::string_view file, const validate::Finding& f) override {
    if (f.code == validate::Code::OversizedGame) {
      ++summary_.read;
      ++summary_.rejected;
    }
    finding(file, f);
  }

  void progress(std::uint64_t games, std::uint64_t bytes) override {
    if (options_.on_progress) options_.on_progress(games, bytes);
  }

  bool probe_known(const InputProbe& probe) override { return probes_ && recorded_.probes.count(probe); }
  bool fingerprint_known(const Fingerprint& fp) override { return recorded_.inputs.count(fp) > 0; }

  const Status& failure() const { return failure_; }
  // Games of the input (its index among those read) with errors.
  std::uint64_t rejected(std::size_t input) const { return input < rejected_.size() ? rejected_[input] : 0; }

 private:
  void finding(std::string_view file, const validate::Finding& f) {
    if (options_.on_finding) options_.on_finding(file, f);
  }

  const Options& options_;
  const Recorded& recorded_;
  const bool probes_;
  store::GameImporter& importer_;
  Summary& summary_;
  Status failure_;
  std::vector<std::uint64_t> rejected_;  // per input read
};

}  // namespace

Result<Summary> run(store::Database& db, const Options& o) {
  ingest::Options options;
  options.check.default_variant = o.default_variant;
  options.threads = o.threads;
  options.check.build_movetext = true;
  options.check.move_san = false;        // the store writes SAN again on export
  options.check.plain_movetext = false;  // nor does it need the movetext of plain games
  options.check.trace_main_line = true;  // what the store needs of the main line: no second replay
  options.keep_raw = o.rejects != nullptr;
  options.flag_duplicates = false;  // the importer counts duplicates, against the database too
  options.fingerprint = true;
  const std::uint64_t salt = ingest::fingerprint_salt(options);

  Summary summary;
  const std::vector<std::string> given = o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs;
  summary.inputs.resize(given.size());
  for (std::size_t i = 0; i < given.size(); ++i) summary.inputs[i].name = given[i];

  Recorded recorded;
  if (!o.force) {
    auto r = recorded_inputs(db);
    if (!r) return r.error();
    recorded = std::move(*r);
  }
  // Records written before probes were kept can only be matched by the
  // whole fingerprint: then every input is fingerprinted before it is read,
  // and a record it matches gains its probe.
  const bool fingerprint_first = recorded.without_probe;
  std::vector<std::string> inputs;
  std::vector<std::size_t> index_of;  // into `given`
  for (std::size_t i = 0; i < given.size(); ++i) {
    // Not a pipe: it would be spent here and found empty when read.
    std::error_code ec;
    if (fingerprint_first && given[i] != "-" && std::filesystem::is_regular_file(given[i], ec)) {
      importers::HashedInput in = importers::HashedInput::open(given[i], salt);
      std::string error;
      const std::optional<Fingerprint> fp = in ? in.finish(error) : std::nullopt;
      summary.inputs[i].raw_bytes += in.raw_bytes();
      const auto known = fp ? recorded.inputs.find(*fp) : recorded.inputs.end();
      if (known != recorded.inputs.end()) {
        if (!known->second.probe) {
          known->second.probe = in.probe();
          if (Status s = db.record_input(*fp, known->second); !s) return s.error();
        }
        summary.inputs[i].skipped = true;
        summary.skipped.push_back(given[i]);
        summary.skipped_rejected += known->second.games_rejected;
        continue;
      }
    }
    inputs.push_back(given[i]);
    index_of.push_back(i);
  }

  store::GameImporter importer(db, store::ImportOptions{o.threads, 2048, o.commit_seconds});
  const auto start = std::chrono::steady_clock::now();
  ImportHook hook(o, recorded, !fingerprint_first, importer, summary);
  ingest::RunResult result;
  if (!inputs.empty()) result = ingest::run(inputs, options, hook);
  if (o.on_read_end) o.on_read_end();

  Status failure = hook.failure();
  auto totals = importer.finish();
  if (!totals) {
    if (failure.ok()) failure = totals.status();
  } else {
    summary.stored = totals->stored;
    summary.duplicates = totals->duplicates;
    summary.positions = totals->positions;
  }
  if (!failure.ok())
    return Error{failure.error().kind,
                 fmt::format("{}; the games committed before are kept, whole", failure.error().message)};

  // Inputs read to their end are remembered, so importing them again is
  // quick; but not one whose rejected games could not all be written (a
  // full disk), so that importing it again writes them.
  if (o.rejects && std::fflush(o.rejects) != 0 && !summary.rejects_errno) summary.rejects_errno = errno;
  std::vector<std::pair<Fingerprint, store::InputRecord>> records;
  for (std::size_t k = 0; k < result.inputs.size(); ++k) {
    const ingest::InputOutcome& in = result.inputs[k];
    InputSummary& out = summary.inputs[index_of[k]];
    out.games = in.games;
    out.raw_bytes += in.raw_bytes;
    out.read = in.read;
    if (in.skipped) {
      out.skipped = true;
      summary.skipped.push_back(in.name);
      if (in.fingerprint)
        if (auto known = recorded.inputs.find(*in.fingerprint); known != recorded.inputs.end())
          summary.skipped_rejected += known->second.games_rejected;
    }
    if (!in.read || !in.fingerprint || (summary.rejects_errno && hook.rejected(k) > 0)) continue;
    records.push_back(
        {*in.fingerprint, store::InputRecord{in.name, in.games, 0, std::int64_t(std::time(nullptr)), in.probe,
                                             hook.rejected(k)}});
  }
  if (Status s = db.record_inputs(records); !s) return s.error();
  summary.read_all = result.all_read();
  // The square index, when the database has one, extended to the new games
  // (and to those of an earlier import killed before it extended it).
  if (auto squares = store::extend_square_index_if_present(db); !squares) return squares.error();
  if (o.compact) {
    if (Status s = db.compact(); !s) return s.error();
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace virrey::import
