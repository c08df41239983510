#include "import_command.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "classify_command.hpp"
#include "common_options.hpp"
#include "db_command.hpp"
#include "exit_codes.hpp"
#include "finding_writer.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "text_table.hpp"
#include "virrey/import/import_run.hpp"
#include "virrey/importers/open_input.hpp"

namespace virrey::cli {

namespace {

// Each input with why it cannot be read ("PATH: reason"), when none can
// (standard input always can): an import into a database yet to be made
// then makes none (a mistyped path would leave an empty database behind).
std::vector<std::pair<std::string, std::string>> none_readable(const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, std::string>> reasons;
  if (inputs.empty()) return reasons;
  for (const std::string& input : inputs) {
    auto why = importers::input_open_error(input);
    if (!why) return {};
    reasons.emplace_back(input, std::move(*why));
  }
  return reasons;
}

struct Summary {
  std::uint64_t read = 0, stored = 0, rejected = 0, duplicates = 0, positions = 0;
  double seconds = 0;
  std::uint64_t db_bytes = 0;
  std::vector<std::string> skipped;  // inputs imported before
  std::uint64_t skipped_rejected = 0;  // their games with errors, when they were imported
};

// `db_path` empty: no database was made (text: said so, not given a size).
void print_summary(const Summary& s, Format format, const std::string& db_path) {
  const double rate = s.seconds > 0 ? double(s.read) / s.seconds : 0.0;
  if (format == Format::Json) {
    std::vector<Value> skipped;
    for (const auto& name : s.skipped) skipped.push_back(Value::string(name));
    const Members m = {{"read", Value::integer(s.read)},
                       {"stored", Value::integer(s.stored)},
                       {"rejected", Value::integer(s.rejected)},
                       {"duplicates", Value::integer(s.duplicates)},
                       {"positions", Value::integer(s.positions)},
                       {"seconds", Value::number(s.seconds, 3)},
                       {"games_per_second", Value::number(rate, 0)},
                       {"database_bytes", Value::integer(s.db_bytes)},
                       {"skipped_inputs", Value::list(std::move(skipped))},
                       {"skipped_rejected", Value::integer(s.skipped_rejected)}};
    fmt::print("{}\n", json(m));
    return;
  }
  for (const auto& name : s.skipped)
    fmt::print("{}: imported before, nothing to add (--force reads it again)\n", terminal_text(name));
  if (s.read > 0 && s.stored == 0 && s.rejected == 0)
    fmt::print("nothing new: all {} games were stored before\n", s.read);
  if (s.read > 0 || s.skipped.empty()) {
    fmt::print("{} games read: {} stored, {} rejected, {} duplicates\n", s.read, s.stored, s.rejected,
               s.duplicates);
    fmt::print("{} positions indexed\n", s.positions);
    fmt::print("{:.2f} s, {:.0f} games/s; ", s.seconds, rate);
  }
  if (db_path.empty())
    fmt::print("no database made\n");
  else
    fmt::print("database {:.1f} MB ({})\n", double(s.db_bytes) / 1e6, terminal_text(db_path));
}

}  // namespace

int run_import(const ImportOptions& o) {
  import::Options options;
  if (!set_variant_option(o.variant, options.default_variant)) return kExitUsage;
  options.threads = threads_or_every_core(o.threads);
  if (!options.threads) return kExitUsage;

  // Options are checked before anything is made: a usage error leaves no database behind.
  if (!(o.commit_interval > 0 && o.commit_interval <= 3600)) {
    log::error("commit interval {} is out of range (above 0, at most 3600 seconds)", o.commit_interval);
    return kExitUsage;
  }

  // No database in another's folder (its files would mix with that one's).
  if (!database_path_allowed(store::default_database_path(o.db))) return kExitUsage;

  // --openings: the ECO file is read first, so that a bad one stops nothing half done.
  std::optional<query::OpeningBook> book;
  if (!o.openings.empty()) {
    int exit_code = kExitOk;
    if (!(book = read_opening_book(o.openings, exit_code))) return exit_code;
  }

  // The rejects are written beside their file and put in place at the end:
  // an import that reads nothing new keeps the rejects of the one before.
  StagedFile rejects;
  if (!o.rejects.empty()) {
    if (o.rejects == "-") {
      log::error(
          "--rejects -: the import's summary goes to standard output; name a file for the rejected games");
      return kExitUsage;
    }
    std::vector<std::string> read = o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs;
    if (!o.openings.empty()) read.push_back(o.openings);
    if (!output_allowed("--rejects", o.rejects, read)) return kExitUsage;
    if (is_in_database(o.rejects, store::default_database_path(o.db))) {
      log::error("--rejects {} is inside the database {}", o.rejects, store::default_database_path(o.db));
      return kExitUsage;
    }
    if (!rejects.open(o.rejects)) return kExitIo;
  }
  if (std::error_code ec; !std::filesystem::exists(store::default_database_path(o.db), ec)) {
    if (const auto unread = none_readable(o.inputs); !unread.empty()) {
      // Reported as an import reports an input it cannot read, with its
      // summary (nothing read), and no database made.
      FindingWriter writer(Format::Text, stderr, FindingWriter::Role::Diagnostics);
      for (const auto& [input, why] : unread) {
        validate::Finding f;
        f.code = validate::Code::IoError;
        f.message = why;
        writer.finding(input, f);
      }
      print_summary(Summary{}, o.format, "");
      log::error("no input could be read: no database made at {}", store::default_database_path(o.db));
      return kExitIo;
    }
  }
  auto db = open_database(o.db, store::OpenMode::ReadWrite);
  if (!db) return kExitIo;
  const auto before = db->info();
  if (!before) {
    log_store_error(before.error());
    return kExitIo;
  }
  // --openings: the games are classified once stored, from the first this
  // import stores, or from the first of an import naming openings that was
  // killed before it classified its games (marked as it started).
  store::GameId classify_from = before->next_game_id;
  bool earlier_pending = false;
  if (book) {
    const auto pending = db->openings_pending();
    if (!pending) {
      log_store_error(pending.error());
      return kExitIo;
    }
    earlier_pending = pending->has_value();
    if (earlier_pending) classify_from = std::min(classify_from, **pending);
    if (Status s = db->set_openings_pending(classify_from); !s) {
      log_store_error(s.error());
      return kExitIo;
    }
  }
  options.inputs = o.inputs;
  options.commit_seconds = o.commit_interval;
  options.force = o.force;
  options.compact = o.compact;
  options.rejects = rejects.get();
  FindingWriter writer(Format::Text, stderr, FindingWriter::Role::Diagnostics);
  Progress progress;
  options.on_finding = [&](std::string_view file, const validate::Finding& f) { writer.finding(file, f); };
  options.on_progress = [&](std::uint64_t games, std::uint64_t bytes) { progress.update(games, bytes); };
  options.on_read_end = [&] { progress.finish(); };

  Result<import::Summary> done = import::run(*db, options);
  progress.finish();
  if (!done) {
    log::error("{}", done.error().message);
    // The rejected games of what was read are put in place all the same:
    // the inputs read to their end are recorded as imported, and a second
    // run skips them.
    rejects.commit(false);
    // What the commits before the failure kept, which a user would otherwise
    // have to ask `db info` for.
    if (const auto after = db->info(); after && after->next_game_id >= before->next_game_id)
      log::warn(
          "{} games were stored before the import stopped: they are kept, and importing the same inputs "
          "again completes it",
          after->next_game_id - before->next_game_id);
    return kExitIo;
  }
  if (book) {
    if (done->stored > 0 || earlier_pending)
      if (int c = classify_and_report(*db, *book, classify_from, o.format, true); c != kExitOk) return c;
    if (Status s = db->set_openings_pending(std::nullopt); !s) {
      log_store_error(s.error());
      return kExitIo;
    }
  }
  Summary summary;
  summary.read = done->read;
  summary.stored = done->stored;
  summary.rejected = done->rejected;
  summary.duplicates = done->duplicates;
  summary.positions = done->positions;
  summary.seconds = done->seconds;
  summary.skipped = done->skipped;
  summary.skipped_rejected = done->skipped_rejected;
  // The size once closed, as `du` shows it afterwards: an open database
  // still holds files that closing deletes (replaced tables, spent ingest
  // files). Compactions under way stop at the close; the next writer goes on.
  const std::string db_path = db->path();
  db.reset();
  summary.db_bytes = store::directory_bytes(db_path);
  print_summary(summary, o.format, db_path);

  // An input that could not be read: the rejects of the others are put in
  // place if there are any (those inputs are recorded as imported), else
  // the rejects before are kept.
  if (!rejects.commit(done->read_all && done->skipped.size() < o.inputs.size(), done->rejects_errno))
    return kExitIo;
  if (!done->read_all) return kExitIo;
  return summary.rejected ? kExitDataFailed : kExitOk;
}

}  // namespace virrey::cli
