#include "db_command.hpp"

#include <fmt/format.h>
#include <filesystem>
#include "virrey/base/log.hpp"

#include "classify_command.hpp"
#include "common_options.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "text_table.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/merge.hpp"
#include "virrey/store/square_index.hpp"
#include "virrey/store/upgrade.hpp"

namespace virrey::cli {

void log_store_error(const Error& e) { log::error("{}", e.message); }

std::unique_ptr<store::Database> open_database(const std::string& flag, store::OpenMode mode, Create create) {
  const std::string path = store::default_database_path(flag);
  auto db = store::Database::open(path, {mode, create == Create::Yes});
  if (!db) {
    log_store_error(db.error());
    return nullptr;
  }
  return std::move(*db);
}

namespace {

// Runs `work`, which reports the games done to the callback it is given, with
// a progress line on stderr.
template <class Work>
auto with_progress(Work work) {
  Progress progress;
  auto result = work([&](std::uint64_t games) { progress.update(games, 0); });
  progress.finish();
  return result;
}

int print_info(const store::Database& db, Format format) {
  auto info = db.info();
  if (!info) {
    log::error("{}", info.error().message);
    return kExitIo;
  }
  if (format == Format::Json) {
    Members variants, parts;
    for (int v = 0; v < kVariantCount; ++v) {
      const auto& c = info->counts[std::size_t(v)];
      variants.push_back(
          {std::string(virrey::info(Variant(v)).cli_name),
           Value::object({{"games", Value::integer(c.games)}, {"positions", Value::integer(c.positions)}})});
    }
    for (const auto& f : info->families)
      parts.push_back(
          {std::string(f.name), Value::object({{"bytes", Value::integer(f.bytes)},
                                               {"entries", Value::integer(f.entries)},
                                               {"files", Value::integer(f.files)},
                                               {"level0_files", Value::integer(f.level0_files)}})});
    const Members m = {{"path", Value::string(info->path)},
                       {"schema_version", Value::integer(info->schema_version)},
                       {"hash_table_id", Value::integer(info->hash_table_id)},
                       {"tree_plies", Value::integer(info->tree_plies)},
                       {"variants", Value::object(std::move(variants))},
                       {"parts", Value::object(std::move(parts))},
                       {"total_bytes", Value::integer(info->total_bytes)}};
    fmt::print("{}\n", json(m));
    return kExitOk;
  }
  fmt::print("database  {}\nschema    version {}, hash table {}, opening tree {} plies\n\n",
             terminal_text(info->path), info->schema_version, info->hash_table_id, info->tree_plies);
  using Align = TextTable::Align;
  TextTable variants(
      {{"variant", Align::Left, 10}, {"games", Align::Right, 12}, {"positions", Align::Right, 14}}, " ");
  store::VariantCounts total;
  for (int v = 0; v < kVariantCount; ++v) {
    const auto& c = info->counts[std::size_t(v)];
    total.games += c.games;
    total.positions += c.positions;
    variants.add({std::string(virrey::info(Variant(v)).cli_name), fmt::format("{}", c.games),
                  fmt::format("{}", c.positions)});
  }
  variants.add({"all", fmt::format("{}", total.games), fmt::format("{}", total.positions)});
  TextTable parts({{"part", Align::Left, 12},
                   {"", Align::Left, 34},
                   {"MB", Align::Right, 10},
                   {"entries", Align::Right, 12},
                   {"files", Align::Right, 7}},
                  " ");
  for (std::size_t i = 0; i < info->families.size(); ++i)
    parts.add({std::string(info->families[i].name), std::string(store::kFamilies[i].what),
               fmt::format("{:.2f}", double(info->families[i].bytes) / 1e6),
               fmt::format("{}", info->families[i].entries), fmt::format("{}", info->families[i].files)});
  parts.add({"on disk", "every file, logs included", fmt::format("{:.2f}", double(info->total_bytes) / 1e6)});
  fmt::print("{}\n{}", variants.render(), parts.render());
  return kExitOk;
}

int run_check(const store::Database& db, Format format) {
  auto report = with_progress([&](auto on_games) { return store::check_database(db, on_games); });
  if (!report) {
    log_store_error(report.error());
    return kExitIo;
  }
  if (format == Format::Json) {
    std::vector<Value> problems;
    for (const auto& p : report->problems) problems.push_back(Value::string(p));
    const Members m = {{"games", Value::integer(report->games)},
                       {"entries", Value::integer(report->entries)},
                       {"ok", Value::boolean(report->ok())},
                       {"problem_count", Value::integer(report->problem_count)},
                       {"problems", Value::list(std::move(problems))}};
    fmt::print("{}\n", json(m));
  } else {
    for (const auto& p : report->problems) fmt::print("problem: {}\n", p);
    if (report->problem_count > report->problems.size())
      fmt::print("... {} problems in all\n", report->problem_count);
    fmt::print("{} games, {} index entries checked: {}\n", report->games, report->entries,
               report->ok() ? "consistent" : "NOT consistent");
  }
  return report->ok() ? kExitOk : kExitDataFailed;
}

int run_upgrade(const std::string& flag, Format format) {
  const std::string path = store::default_database_path(flag);
  auto report = with_progress([&](auto on_games) { return store::upgrade_database(path, on_games); });
  if (!report) {
    log_store_error(report.error());
    return kExitIo;
  }
  const bool changed = report->from_version != report->to_version;
  if (format == Format::Json)
    fmt::print("{}\n", json(Members{{"path", Value::string(path)},
                                    {"from_version", Value::integer(report->from_version)},
                                    {"to_version", Value::integer(report->to_version)},
                                    {"games", Value::integer(report->games)},
                                    {"identities_rewritten", Value::integer(report->identities_rewritten)}}));
  else if (report->identities && !changed && !report->material_index && !report->summaries &&
           !report->material_order)
    fmt::print(
        "{}: duplicate detection brought up to date (games without the whole Seven Tag Roster or with tags "
        "not "
        "in UTF-8); {} games rewritten\n",
        terminal_text(path), report->identities_rewritten);
  else if (changed)
    fmt::print("{}: upgraded from schema version {} to {}; {} games re-indexed\n", terminal_text(path),
               report->from_version, report->to_version, report->games);
  else if (report->material_index && report->summaries)
    fmt::print("{}: material index built and game summaries rewritten; {} games indexed\n",
               terminal_text(path), report->games);
  else if (report->material_index)
    fmt::print("{}: material index built; {} games indexed\n", terminal_text(path), report->games);
  else if (report->summaries)
    fmt::print("{}: game summaries rewritten (mates, time controls); {} games indexed\n", terminal_text(path),
               report->games);
  else if (report->material_order)
    fmt::print("{}: material dictionary written in search order\n", terminal_text(path));
  else
    fmt::print("{}: already at schema version {}\n", terminal_text(path), report->to_version);
  return kExitOk;
}

int run_merge(const DbOptions& o) {
  const int threads = threads_or_every_core(o.threads);
  if (!threads) return kExitUsage;
  // Every source opens before --db is made: a mistyped source leaves no
  // empty database behind.
  for (const std::string& source : o.sources) {
    auto s = store::Database::open(source, {store::OpenMode::Read});
    if (!s) {
      log_store_error(s.error());
      return kExitIo;
    }
  }
  if (!database_path_allowed(store::default_database_path(o.db))) return kExitUsage;
  std::error_code ec;
  const bool made_here = !std::filesystem::exists(o.db, ec);
  auto db = open_database(o.db, store::OpenMode::ReadWrite);
  if (!db) return kExitIo;
  store::MergeOptions options;
  options.threads = threads;
  auto report =
      with_progress([&](auto on_games) { return store::merge_databases(*db, o.sources, options, on_games); });
  if (!report) {
    log_store_error(report.error());
    // A database this merge made and stored nothing in (its first source
    // failed as it was read) is not left behind.
    if (made_here) {
      const auto info = db->info();
      if (info && info->next_game_id == 1) {
        const std::string path = db->path();
        db.reset();
        std::filesystem::remove_all(path, ec);
      }
    }
    return kExitIo;
  }
  const std::uint64_t bytes = store::directory_bytes(db->path());
  if (o.format == Format::Json) {
    std::vector<Value> sources;
    for (const auto& m : report->sources)
      sources.push_back(Value::object({{"path", Value::string(m.path)},
                                       {"games", Value::integer(m.games)},
                                       {"stored", Value::integer(m.stored)},
                                       {"duplicates", Value::integer(m.duplicates)},
                                       {"copied", Value::boolean(m.copied)}}));
    fmt::print("{}\n", json(Members{{"path", Value::string(db->path())},
                                    {"sources", Value::list(std::move(sources))},
                                    {"stored", Value::integer(report->stored)},
                                    {"duplicates", Value::integer(report->duplicates)},
                                    {"database_bytes", Value::integer(bytes)}}));
    return kExitOk;
  }
  for (const auto& m : report->sources)
    fmt::print("{}: {} games: {} stored, {} duplicates ({})\n", terminal_text(m.path), m.games, m.stored,
               m.duplicates, m.copied ? "copied" : "imported game by game");
  fmt::print("{} merged: {} games stored, {} duplicates\n", count_of(report->sources.size(), "database"),
             report->stored, report->duplicates);
  fmt::print("database {:.1f} MB ({})\n", double(bytes) / 1e6, terminal_text(db->path()));
  return kExitOk;
}

int run_classify(const DbOptions& o) {
  int exit_code = kExitOk;
  auto book = read_opening_book(o.openings, exit_code);
  if (!book) return exit_code;
  auto db = open_database(o.db, store::OpenMode::ReadWrite, Create::No);
  if (!db) return kExitIo;
  // Marked as begun: a classification stopped part way leaves games named
  // from two books, which `db check` then reports until one completes.
  if (Status s = db->set_openings_pending(store::GameId(1)); !s) {
    log_store_error(s.error());
    return kExitIo;
  }
  if (int c = classify_and_report(*db, *book, 1, o.format, false); c != kExitOk) return c;
  // Every game is classified: none an import left unclassified is waiting.
  if (Status s = db->set_openings_pending(std::nullopt); !s) {
    log_store_error(s.error());
    return kExitIo;
  }
  return kExitOk;
}

int run_squares(const DbOptions& o) {
  auto db = open_database(o.db, store::OpenMode::ReadWrite, Create::No);
  if (!db) return kExitIo;
  if (o.drop) {
    const auto state = store::square_index_state(*db);
    if (!state) {
      log_store_error(state.error());
      return kExitIo;
    }
    // Dropped even when absent: an index built part way may lack its mark.
    if (Status s = store::drop_square_index(*db); !s) {
      log_store_error(s.error());
      return kExitIo;
    }
    if (o.format == Format::Json)
      fmt::print("{}\n", json(Members{{"path", Value::string(db->path())},
                                      {"square_index", Value::boolean(false)},
                                      {"removed", Value::boolean(state->present)}}));
    else
      fmt::print("{}: {}\n", terminal_text(db->path()),
                 state->present ? "square index removed" : "no square index to remove");
    return kExitOk;
  }
  auto totals = with_progress([&](auto on_games) { return store::extend_square_index(*db, on_games); });
  if (!totals) {
    log_store_error(totals.error());
    return kExitIo;
  }
  if (totals->skipped > 0)
    log::warn("{} games do not replay and are left out of the square index", totals->skipped);
  auto info = db->info();
  std::uint64_t bytes = 0;
  if (info)
    for (const auto& f : info->families)
      if (f.name == store::family_info(store::Family::Squares).name) bytes = f.bytes;
  if (o.format == Format::Json)
    fmt::print("{}\n", json(Members{{"path", Value::string(db->path())},
                                    {"square_index", Value::boolean(true)},
                                    {"games", Value::integer(totals->games)},
                                    {"skipped", Value::integer(totals->skipped)},
                                    {"bytes", Value::integer(bytes)}}));
  else
    fmt::print("{}: square index: {} games added, {:.2f} MB\n", terminal_text(db->path()), totals->games,
               double(bytes) / 1e6);
  return kExitOk;
}

}  // namespace

int run_db(const DbOptions& o) {
  if (o.action == "squares") return run_squares(o);
  if (o.action == "classify") return run_classify(o);
  if (o.action == "upgrade") return run_upgrade(o.db, o.format);
  if (o.action == "merge") return run_merge(o);
  auto db = open_database(o.db, store::OpenMode::Read);
  if (!db) return kExitIo;
  if (o.action == "check") return run_check(*db, o.format);
  return print_info(*db, o.format);
}

}  // namespace virrey::cli
