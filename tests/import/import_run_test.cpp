// Running an import: counts, rejects written byte for byte, inputs imported
// before skipped after one read (by probe, or, in a database whose records
// have no probe, by a fingerprint-first read that then adds the probe), and
// --force reading them again.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "fingerprint_testing.hpp"
#include "virrey/import/import_run.hpp"
#include "virrey/importers/fingerprint.hpp"

namespace virrey::import {
namespace {

namespace fs = std::filesystem;

class ImportRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          fmt::format("virrey-import-run-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->random_seed());
    fs::remove_all(dir);
    fs::create_directories(dir);
    // 300 games, every 50th with an illegal move; more than one probe block.
    pgn = (dir / "in.pgn").string();
    std::ofstream out(pgn, std::ios::binary);
    for (int g = 1; g <= 300; ++g) {
      std::string game =
          fmt::format("[Event \"E\"]\n[Round \"{}\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n", g);
      game += std::string(200, ' ') + (g % 50 == 0 ? "1. e4 e5 2. Ke3 *\n\n" : "1. d4 d5 2. c4 *\n\n");
      if (g % 50 == 0) bad_games += game;  // its bytes to its result line, then the blank line rejects add
      out << game;
    }
    out.close();
    std::ifstream in(pgn, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  void TearDown() override { fs::remove_all(dir); }

  std::unique_ptr<store::Database> open() {
    auto db = store::Database::open((dir / "db").string(), {store::OpenMode::ReadWrite, true});
    EXPECT_TRUE(db) << db.error().message;
    return db ? std::move(*db) : nullptr;
  }

  Summary import(store::Database& db, Options o = {}) {
    if (o.inputs.empty()) o.inputs = {pgn};
    o.threads = 2;
    auto s = run(db, o);
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : Summary{};
  }

  fs::path dir;
  std::string pgn, bytes, bad_games;
};

TEST_F(ImportRunTest, ImportsOnceThenSkipsAfterOneRead) {
  ASSERT_GT(bytes.size(), importers::kProbeBytes);
  auto db = open();
  const Summary first = import(*db);
  EXPECT_EQ(first.read, 300u);
  EXPECT_EQ(first.stored, 294u);
  EXPECT_EQ(first.rejected, 6u);
  EXPECT_TRUE(first.read_all);
  ASSERT_EQ(first.inputs.size(), 1u);
  EXPECT_EQ(first.inputs[0].games, 300u);
  EXPECT_EQ(first.inputs[0].raw_bytes, bytes.size());
  EXPECT_TRUE(first.skipped.empty());
  auto rec = db->find_input(testing::reference_fingerprint(bytes, 0));
  ASSERT_TRUE(rec);
  ASSERT_TRUE(rec->has_value());
  EXPECT_EQ((*rec)->name, pgn);
  EXPECT_EQ((*rec)->games_read, 300u);
  ASSERT_TRUE((*rec)->probe);
  EXPECT_EQ((*rec)->probe->size, bytes.size());

  // Again, under the same name and another: skipped, each read once.
  const std::string copy = (dir / "copy.pgn").string();
  fs::copy_file(pgn, copy);
  Options o;
  o.inputs = {pgn, copy};
  const Summary again = import(*db, o);
  EXPECT_EQ(again.read, 0u);
  EXPECT_EQ(again.skipped, (std::vector<std::string>{pgn, copy}));
  for (const auto& in : again.inputs) {
    EXPECT_TRUE(in.skipped);
    EXPECT_EQ(in.raw_bytes, bytes.size());
  }

  // Another variant is another fingerprint; --force reads it anyway.
  o.inputs = {pgn};
  o.default_variant = Variant::Virrey;
  EXPECT_EQ(import(*db, o).read, 300u);
  o.default_variant = Variant::Standard;
  o.force = true;
  const Summary forced = import(*db, o);
  EXPECT_EQ(forced.read, 300u);
  EXPECT_EQ(forced.stored, 0u);
  EXPECT_EQ(forced.duplicates, 294u);
}

// Many one-game inputs in one import: each recorded (in one write), with
// its own counts, and each skipped the next time.
TEST_F(ImportRunTest, ManySmallInputsAreEachRecorded) {
  Options o;
  for (int g = 1; g <= 120; ++g) {
    const std::string path = (dir / fmt::format("g{}.pgn", g)).string();
    std::ofstream(path) << fmt::format("[Event \"E\"]\n[Round \"{}\"]\n[Result \"*\"]\n\n{}*\n", g,
                                       g % 40 == 0 ? "1. e4 e5 2. Ke3 " : "1. d4 d5 ");
    o.inputs.push_back(path);
  }
  auto db = open();
  const Summary first = import(*db, o);
  EXPECT_EQ(first.read, 120u);
  EXPECT_EQ(first.rejected, 3u);
  std::size_t records = 0, rejected = 0;
  ASSERT_TRUE(db->for_each_input([&](const importers::Fingerprint&, const store::InputRecord& r) {
    ++records;
    rejected += r.games_rejected;
    EXPECT_EQ(r.games_read, 1u) << r.name;
    return true;
  }));
  EXPECT_EQ(records, 120u);
  EXPECT_EQ(rejected, 3u);
  const Summary again = import(*db, o);
  EXPECT_EQ(again.read, 0u);
  EXPECT_EQ(again.skipped.size(), 120u);
  EXPECT_EQ(again.skipped_rejected, 3u);
}

// A record written before probes were kept (built by hand, no probe): the
// input is fingerprinted first, skipped, and its record gains the probe, so
// the next import takes the probe path.
TEST_F(ImportRunTest, RecordsWithoutProbeAreFoundByTheirFingerprint) {
  auto db = open();
  const importers::Fingerprint fp = testing::reference_fingerprint(bytes, 0);
  ASSERT_TRUE(db->record_input(fp, {"old.pgn", 300, 0, 1234567890, std::nullopt}));
  auto before = db->find_input(fp);
  ASSERT_TRUE(before && before->has_value());
  EXPECT_FALSE((*before)->probe);

  const Summary s = import(*db);
  EXPECT_EQ(s.read, 0u);
  EXPECT_EQ(s.skipped, std::vector<std::string>{pgn});
  EXPECT_EQ(s.inputs[0].raw_bytes, bytes.size());
  auto after = db->find_input(fp);
  ASSERT_TRUE(after && after->has_value());
  EXPECT_EQ((*after)->name, "old.pgn");
  ASSERT_TRUE((*after)->probe);
  EXPECT_EQ((*after)->probe->size, bytes.size());

  // An input not imported before, beside such a record: read in full (the
  // fingerprint-first read, then the import's), and recorded.
  ASSERT_TRUE(db->record_input(importers::Fingerprint{}, {"other.pgn", 1, 0, 1, std::nullopt}));
  const std::string other = (dir / "other.pgn").string();
  { std::ofstream(other, std::ios::binary) << "[Event \"O\"]\n[Result \"*\"]\n\n1. e4 c5 *\n"; }
  Options o;
  o.inputs = {other, pgn};
  const Summary mixed = import(*db, o);
  EXPECT_EQ(mixed.read, 1u);
  EXPECT_EQ(mixed.stored, 1u);
  EXPECT_EQ(mixed.skipped, std::vector<std::string>{pgn});
  EXPECT_EQ(mixed.inputs[0].raw_bytes, 2 * fs::file_size(other));
  auto rec =
      db->find_input(testing::reference_fingerprint("[Event \"O\"]\n[Result \"*\"]\n\n1. e4 c5 *\n", 0));
  ASSERT_TRUE(rec && rec->has_value());
  EXPECT_TRUE((*rec)->probe);
}

TEST_F(ImportRunTest, RejectsAreWrittenByteForByte) {
  auto db = open();
  const std::string rejects = (dir / "rejects.pgn").string();
  std::FILE* f = std::fopen(rejects.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  Options o;
  o.rejects = f;
  int findings = 0;
  o.on_finding = [&](std::string_view file, const validate::Finding& finding) {
    EXPECT_EQ(file, pgn);
    EXPECT_EQ(finding.severity, validate::Severity::Error);
    ++findings;
  };
  EXPECT_EQ(import(*db, o).rejected, 6u);
  std::fclose(f);
  EXPECT_EQ(findings, 6);
  std::ifstream in(rejects, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bad_games);
}

// Reading ends before the inputs are recorded: on_read_end comes once, after
// the last progress and before the record of in.pgn is written.
TEST_F(ImportRunTest, ReadEndComesBeforeTheInputsAreRecorded) {
  auto db = open();
  auto records = [&] {
    int n = 0;
    EXPECT_TRUE(db->for_each_input(
        [&](const importers::Fingerprint&, const store::InputRecord&) { return ++n, true; }));
    return n;
  };
  Options o;
  int ends = 0, records_at_end = -1;
  bool progress_after_end = false;
  o.on_progress = [&](std::uint64_t, std::uint64_t) { progress_after_end |= ends > 0; };
  o.on_read_end = [&] {
    ++ends;
    records_at_end = records();
  };
  EXPECT_EQ(import(*db, o).read, 300u);
  EXPECT_EQ(ends, 1);
  EXPECT_FALSE(progress_after_end);
  EXPECT_EQ(records_at_end, 0);
  EXPECT_EQ(records(), 1);
}

TEST_F(ImportRunTest, StandardInputAndMissingInputsAreNotRecorded) {
  auto db = open();
  Options o;
  o.inputs = {"-", (dir / "missing.pgn").string()};
  int problems = 0;
  o.on_finding = [&](std::string_view, const validate::Finding& f) {
    problems += f.code == validate::Code::IoError;
  };
  // Standard input is the 300 games of in.pgn, for this import only.
  const int saved = ::dup(0);
  const int in = ::open(pgn.c_str(), O_RDONLY);
  ASSERT_GE(saved, 0);
  ASSERT_GE(in, 0);
  ASSERT_EQ(::dup2(in, 0), 0);
  ::close(in);
  const Summary s = import(*db, o);
  ::dup2(saved, 0);
  ::close(saved);
  EXPECT_EQ(s.read, 300u);
  EXPECT_EQ(s.stored, 294u);
  EXPECT_FALSE(s.read_all);
  EXPECT_EQ(problems, 1);
  int records = 0;
  ASSERT_TRUE(db->for_each_input(
      [&](const importers::Fingerprint&, const store::InputRecord&) { return ++records, true; }));
  EXPECT_EQ(records, 0);
}

}  // namespace
}  // namespace virrey::import
