// Fuzz entry: one game imported into a temporary database and read back.
// The database lives across inputs (opening one per input would be slow) and
// is checked for consistency and made anew every few hundred inputs.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::fuzz {
namespace {

validate::CheckOptions check_options(Variant default_variant) {
  validate::CheckOptions options;
  options.default_variant = default_variant;
  return options;
}

constexpr int kInputsPerDatabase = 256;

class ScratchDatabase {
 public:
  ScratchDatabase() {
    std::string templ = (std::filesystem::temp_directory_path() / "virrey-fuzz-XXXXXX").string();
    VIRREY_FUZZ_CHECK(::mkdtemp(templ.data()) != nullptr, "cannot make a temporary directory");
    dir_ = templ;
    open();
  }
  ~ScratchDatabase() {
    db_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchDatabase(const ScratchDatabase&) = delete;
  ScratchDatabase& operator=(const ScratchDatabase&) = delete;

  store::Database& db() { return *db_; }
  store::GameId next_id() const { return next_id_; }
  void stored_one() { ++next_id_; }

  // Checks the database now and then, and starts again with an empty one.
  void count_input() {
    if (++inputs_ < kInputsPerDatabase) return;
    check();
    db_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_ / "db", ec);
    open();
  }

  void check() {
    auto report = store::check_database(*db_);
    VIRREY_FUZZ_CHECK(report.ok(), report.ok() ? "" : report.error().message);
    VIRREY_FUZZ_CHECK(report->ok(), report->problems.empty() ? "inconsistent" : report->problems.front());
  }

 private:
  void open() {
    auto db = store::Database::open((dir_ / "db").string(), {store::OpenMode::ReadWrite, true});
    VIRREY_FUZZ_CHECK(db.ok(), db.ok() ? "" : db.error().message);
    db_ = std::move(*db);
    inputs_ = 0;
    next_id_ = 1;
  }

  std::filesystem::path dir_;
  std::unique_ptr<store::Database> db_;
  int inputs_ = 0;
  store::GameId next_id_ = 1;
};

ScratchDatabase& scratch() {
  static ScratchDatabase instance;
  return instance;
}

}  // namespace

void import(const std::uint8_t* data, std::size_t size) {
  const Variant variant = Variant(size % kVariantCount);
  importers::MemorySource source(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  pgn::SplitterOptions options;
  options.read_size = 4096;  // a 1 MiB buffer would cost more than the work
  pgn::GameSplitter splitter(source, options);
  pgn::GameItem item = splitter.next();
  while (item.kind != pgn::ItemKind::End && item.kind != pgn::ItemKind::Game) item = splitter.next();
  if (item.kind != pgn::ItemKind::Game) return;
  validate::GameChecker checker(check_options(variant));
  validate::CheckedGame game = checker.check(item.text, item.number, item.start);
  if (game.has_error) return;

  ScratchDatabase& s = scratch();
  const std::string written = game::write_pgn(game.record);
  store::ImportTotals totals;
  {
    store::GameImporter importer(s.db(), {1, 16, 60.0});
    const Status added = importer.add(game.record);
    VIRREY_FUZZ_CHECK(added.ok(), added.ok() ? "" : added.error().message);
    auto finished = importer.finish();
    VIRREY_FUZZ_CHECK(finished.ok(), finished.ok() ? "" : finished.error().message);
    totals = *finished;
  }
  VIRREY_FUZZ_CHECK(totals.stored + totals.duplicates == 1, "one game in, not one game counted:\n" + written);
  if (totals.stored == 1) {
    const store::GameId id = s.next_id();
    s.stored_one();
    auto back = s.db().game(id);
    VIRREY_FUZZ_CHECK(back.ok(), "stored game " + std::to_string(id) + " not found:\n" + written);
    VIRREY_FUZZ_CHECK(game::write_pgn(*back) == written,
                      "stored game reads back differently:\n" + written + "\n---\n" + game::write_pgn(*back));
    auto summary = s.db().summary(id);
    VIRREY_FUZZ_CHECK(summary.ok(), "no summary of game " + std::to_string(id));
  }
  s.count_input();
}

}  // namespace virrey::fuzz
