#include "import_command.hpp"

#include <any>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common_options.hpp"
#include "db_command.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "finding_writer.hpp"
#include "progress.hpp"
#include "virrey/store/fingerprint.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/validate/input_checker.hpp"

namespace virrey::cli {

namespace {

// Thrown from the game callback to stop reading once a write has failed.
struct WriteFailed {};

struct Summary {
  std::uint64_t read = 0, stored = 0, rejected = 0, duplicates = 0, positions = 0;
  double seconds = 0;
  std::uint64_t db_bytes = 0;
  std::vector<std::string> skipped;  // inputs imported before
};

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
                       {"skipped_inputs", Value::list(std::move(skipped))}};
    fmt::print("{}\n", json(m));
    return;
  }
  for (const auto& name : s.skipped)
    fmt::print("{}: imported before, nothing to add (--force reads it again)\n", name);
  if (s.read > 0 && s.stored == 0 && s.rejected == 0)
    fmt::print("nothing new: all {} games were stored before\n", s.read);
  if (s.read > 0 || s.skipped.empty()) {
    fmt::print("{} games read: {} stored, {} rejected, {} duplicates\n", s.read, s.stored,
               s.rejected, s.duplicates);
    fmt::print("{} positions indexed\n", s.positions);
    fmt::print("{:.2f} s, {:.0f} games/s; ", s.seconds, rate);
  }
  fmt::print("database {:.1f} MB ({})\n", double(s.db_bytes) / 1e6, db_path);
}

}  // namespace

int run_import(const ImportOptions& o) {
  validate::InputCheckOptions options;
  if (!set_variant_option(o.variant, options.check.default_variant)) return kExitUsage;
  const int threads = o.threads > 0 ? o.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  if (!threads_in_range(threads, o.threads)) return kExitUsage;
  options.threads = threads;
  options.check.build_movetext = true;
  options.check.move_san = false;  // the store writes SAN again on export
  options.check.plain_movetext = false;  // nor does it need the movetext of plain games
  options.check.trace_main_line = true;  // what the store needs of the main line: no second replay
  options.keep_raw = !o.rejects.empty();
  options.flag_duplicates = false;  // the importer counts duplicates, against the database too

  File rejects;
  if (!o.rejects.empty() && !(rejects = create_file(o.rejects))) return kExitIo;
  auto db = open_database(o.db, store::OpenMode::ReadWrite);
  if (!db) return kExitIo;

  // Inputs imported to their end before are recognised by content.
  Summary summary;
  std::vector<std::string> inputs;
  std::vector<std::optional<store::Fingerprint>> fingerprints;
  for (const std::string& path : o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs) {
    std::optional<store::Fingerprint> fp;
    if (path != "-") {
      if (auto f = store::fingerprint_file(path, options.check.default_variant)) fp = *f;
    }
    if (fp && !o.force) {
      auto known = db->find_input(*fp);
      if (!known) {
        spdlog::error("{}", known.error().message);
        return kExitIo;
      }
      if (*known) {
        summary.skipped.push_back(path);
        continue;
      }
    }
    inputs.push_back(path);
    fingerprints.push_back(fp);
  }

  if (!(o.commit_interval > 0 && o.commit_interval <= 3600)) {
    spdlog::error("commit interval {} is out of range (above 0, at most 3600 seconds)", o.commit_interval);
    return kExitUsage;
  }
  std::optional<store::GameImporter> importer;
  importer.emplace(*db, store::ImportOptions{threads, 2048, o.commit_interval});
  FindingWriter writer(Format::Text, stderr);
  Progress progress;
  std::set<std::string, std::less<>> unreadable;
  std::map<std::string, std::uint64_t, std::less<>> read_per_input;
  Status failure;
  const auto start = std::chrono::steady_clock::now();

  validate::InputCallbacks callbacks;
  // Games are indexed and encoded on the checking threads.
  callbacks.checked = [](validate::GameReport& r) {
    if (!r.game.has_error) r.attachment = store::prepare_game(r.game.record, &r.game.trace);
  };
  std::uint64_t* read_of_input = nullptr;  // read_per_input's entry of the input being read
  std::string_view input_of_count;
  callbacks.game = [&](validate::GameReport& r) {
    ++summary.read;
    if (!read_of_input || r.file != input_of_count) {
      auto it = read_per_input.try_emplace(std::string(r.file), 0).first;
      read_of_input = &it->second;
      input_of_count = it->first;
    }
    ++*read_of_input;
    if (r.game.has_error) {
      ++summary.rejected;
      for (const auto& f : r.game.findings)
        if (f.severity == validate::Severity::Error) writer.finding(r.file, f);
      if (rejects) std::fwrite(r.raw.data(), 1, r.raw.size(), rejects.get());
      return;
    }
    if (Status s = importer->add(std::any_cast<store::PreparedGame&&>(std::move(r.attachment))); !s) {
      failure = s;
      throw WriteFailed{};
    }
  };
  callbacks.problem = [&](std::string_view file, const validate::Finding& f) {
    if (f.code == validate::Code::OversizedGame) {
      ++summary.read;
      ++summary.rejected;
    } else {
      unreadable.insert(std::string(file));
    }
    writer.finding(file, f);
  };
  callbacks.progress = [&](std::uint64_t games, std::uint64_t bytes) { progress.update(games, bytes); };

  bool read_all = true;
  if (!inputs.empty()) {
    try {
      read_all = validate::check_inputs(inputs, options, callbacks);
    } catch (const WriteFailed&) {
      read_all = false;
    }
  }
  progress.finish();
  auto totals = importer->finish();
  if (!totals) {
    if (failure.ok()) failure = totals.status();
  } else {
    summary.stored = totals->stored;
    summary.duplicates = totals->duplicates;
    summary.positions = totals->positions;
  }
  if (!failure.ok()) {
    spdlog::error("{} [{}]; the games committed before are kept, whole",
                  failure.error().message, error_kind_name(failure.error().kind));
    return kExitIo;
  }

  // Inputs read to their end are remembered, so importing them again is quick.
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!fingerprints[i] || unreadable.count(inputs[i])) continue;
    const auto it = read_per_input.find(inputs[i]);
    const std::uint64_t games = it == read_per_input.end() ? 0 : it->second;
    store::InputRecord rec{inputs[i], games, 0, std::int64_t(std::time(nullptr))};
    if (Status s = db->record_input(*fingerprints[i], rec); !s) {
      spdlog::error("{}", s.error().message);
      return kExitIo;
    }
  }
  if (o.compact) {
    if (Status s = db->compact(); !s) {
      spdlog::error("{}", s.error().message);
      return kExitIo;
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The size once closed, as `du` shows it afterwards: an open database
  // still holds files that closing deletes (replaced tables, spent ingest
  // files). Compactions under way stop at the close; the next writer goes on.
  const std::string db_path = db->path();
  importer.reset();
  db.reset();
  summary.db_bytes = store::directory_bytes(db_path);
  print_summary(summary, o.format, db_path);

  if (rejects && (std::fflush(rejects.get()) != 0 || std::ferror(rejects.get()))) {
    spdlog::error("cannot write {}", o.rejects);
    return kExitIo;
  }
  if (!read_all) return kExitIo;
  return summary.rejected ? kExitDataFailed : kExitOk;
}

}  // namespace virrey::cli
