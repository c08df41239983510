// Damaged databases: bytes flipped in the table files, a truncated MANIFEST,
// no CURRENT file, garbage as the schema version. Every command that opens
// the database must say what is wrong and exit 3, never end on a signal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "robustness_support.hpp"
#include "store_hooks.hpp"

namespace virrey::robustness {
namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-games.pgn";

enum class Damage {
  FlippedTableBytes,
  TruncatedManifest,     // cut in half
  ManifestShortOneByte,  // its last record cut
  NoCurrent,
  GarbageSchemaVersion,
  UnknownSchemaVersion,
};

std::string name_of(Damage d) {
  switch (d) {
    case Damage::FlippedTableBytes: return "FlippedTableBytes";
    case Damage::TruncatedManifest: return "TruncatedManifest";
    case Damage::ManifestShortOneByte: return "ManifestShortOneByte";
    case Damage::NoCurrent: return "NoCurrent";
    case Damage::GarbageSchemaVersion: return "GarbageSchemaVersion";
    case Damage::UnknownSchemaVersion: return "UnknownSchemaVersion";
  }
  return "?";
}

void PrintTo(Damage d, std::ostream* os) { *os << name_of(d); }

// The files of `db` whose name matches.
std::vector<fs::path> files_of(const std::string& db, bool (*wanted)(const std::string&)) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(db))
    if (wanted(e.path().filename().string())) out.push_back(e.path());
  return out;
}

// Inverts every 64th byte of a file.
void flip_bytes(const fs::path& file) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  const auto size = std::streamoff(fs::file_size(file));
  for (std::streamoff at = 0; at < size; at += 64) {
    f.seekg(at);
    const char c = char(f.get());
    f.seekp(at);
    f.put(char(~c));
  }
}

void damage(const std::string& db, Damage d) {
  switch (d) {
    case Damage::FlippedTableBytes: {
      const auto tables = files_of(db, [](const std::string& n) { return n.ends_with(".sst"); });
      ASSERT_FALSE(tables.empty());
      for (const auto& t : tables) flip_bytes(t);
      break;
    }
    case Damage::TruncatedManifest:
    case Damage::ManifestShortOneByte: {
      const auto manifests = files_of(db, [](const std::string& n) { return n.starts_with("MANIFEST-"); });
      ASSERT_FALSE(manifests.empty());
      for (const auto& m : manifests) {
        const auto size = fs::file_size(m);
        fs::resize_file(m, d == Damage::TruncatedManifest ? size / 2 : size - 1);
      }
      break;
    }
    case Damage::NoCurrent: ASSERT_TRUE(fs::remove(fs::path(db) / "CURRENT")); break;
    case Damage::GarbageSchemaVersion:
      ASSERT_TRUE(store::testing::set_schema_version_bytes(db, "garbage!").ok());
      break;
    case Damage::UnknownSchemaVersion:
      ASSERT_TRUE(store::testing::set_schema_version(db, 0xdeadbeef).ok());
      break;
  }
}

class DatabaseFault : public ::testing::TestWithParam<Damage> {};

TEST_P(DatabaseFault, EveryCommandExitsThree) {
  Scratch scratch;
  const std::string db = scratch / "damaged.db";
  const Outcome made = run_virrey({"import", kSample, "--db", db, "--variant", "virrey"}, scratch.path());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  ASSERT_EQ(run_virrey({"db", "check", "--db", db}, scratch.path()).exit_code, 0);
  damage(db, GetParam());

  const std::vector<std::vector<std::string>> commands = {
      {"db", "info", "--db", db},
      {"db", "check", "--db", db},
      {"search", "--db", db, "--moves", "e4"},
      {"stats", "results", "--db", db},
      {"import", kSample, "--db", db, "--force"},
      {"db", "merge", "--db", scratch / "merged.db", db},
  };
  for (const auto& args : commands) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    const Outcome r = run_virrey(args, scratch.path());
    EXPECT_EQ(r.signal, 0) << r.err;
    EXPECT_EQ(r.exit_code, 3) << r.out.substr(0, 1000) << r.err;
    EXPECT_NE(r.err.find(db), std::string::npos) << "the message does not name the database:\n" << r.err;
  }
  // The merge's destination, which it made, is not left behind empty.
  EXPECT_FALSE(fs::exists(scratch / "merged.db"));
}

INSTANTIATE_TEST_SUITE_P(Damages, DatabaseFault,
                         ::testing::Values(Damage::FlippedTableBytes, Damage::TruncatedManifest,
                                           Damage::ManifestShortOneByte, Damage::NoCurrent,
                                           Damage::GarbageSchemaVersion, Damage::UnknownSchemaVersion),
                         [](const auto& info) { return name_of(info.param); });

// A memory limit too small for the database's threads (`ulimit -v`): a
// clear error and exit 3, not an abort, and the database as it was. (Not
// under AddressSanitizer, whose shadow memory no such limit allows.)
#if defined(__SANITIZE_ADDRESS__)
#define VIRREY_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VIRREY_TEST_ASAN 1
#endif
#endif
TEST(ResourceLimits, TooLittleMemoryIsAClearErrorNotAnAbort) {
#ifdef VIRREY_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any limit here allows";
#else
  Scratch dir;
  const std::string db = dir.path() + "/g.db";
  ASSERT_EQ(run_virrey({"import", kSample, "--db", db}, dir.path()).exit_code, 0);
  const std::string export_before = run_virrey({"export", "--db", db}, dir.path()).out;
  const Outcome r = virrey::testing::run_virrey_words(
      "import '" + kSample + "' --db '" + db + "' --threads 2", dir.path(), "ulimit -v 307200;");
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("virrey: error: stopped: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
  EXPECT_EQ(run_virrey({"db", "check", "--db", db}, dir.path()).exit_code, 0);
  EXPECT_EQ(run_virrey({"export", "--db", db}, dir.path()).out, export_before);
#endif
}

}  // namespace
}  // namespace virrey::robustness
