// The command line as a whole: each subcommand is reached with and without
// the global flags before it, and the help lists every subcommand.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey {
namespace {

using testing::run_virrey;
using testing::run_virrey_words;
using testing::RunResult;
using testing::TempDir;

constexpr const char* kSubcommands[] = {"perft",  "validate", "generate", "search",
                                        "import", "export",   "db",       "stats"};

TEST(CommandLine, HelpListsEverySubcommand) {
  const RunResult r = run_virrey_words("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* name : kSubcommands)
    EXPECT_NE(r.out.find(std::string("  ") + name), std::string::npos) << name;
}

TEST(CommandLine, EverySubcommandHasItsHelp) {
  for (const char* name : kSubcommands) {
    for (const char* flags : {"", "-q ", "-v ", "-q -v "}) {
      const RunResult r = run_virrey_words(std::string(flags) + name + " --help");
      EXPECT_EQ(r.exit_code, 0) << flags << name;
      EXPECT_NE(r.out.find("virrey " + std::string(name)), std::string::npos)
          << flags << name << ": " << r.out;
    }
  }
}

TEST(CommandLine, GlobalFlagsBeforeTheSubcommand) {
  const RunResult a = run_virrey_words("-q perft --startpos --depth 2");
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_NE(a.out.find("nodes 400"), std::string::npos) << a.out;
  const RunResult b = run_virrey_words("-vq perft --startpos --depth 2");  // combined short flags
  EXPECT_EQ(b.exit_code, 0);
  EXPECT_NE(b.out.find("nodes 400"), std::string::npos) << b.out;
  // After the subcommand too: -q leaves only errors on stderr (generate
  // logs its figures at info level).
  const RunResult loud = run_virrey_words("generate --games 2 --seed 1");
  const RunResult quiet = run_virrey_words("generate --games 2 --seed 1 -q");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_NE(loud.err.find("games"), std::string::npos) << loud.err;
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
  EXPECT_EQ(quiet.out, loud.out);
  EXPECT_EQ(run_virrey_words("perft --startpos --depth 2 --no-such-flag").exit_code, 2);
}

TEST(CommandLine, UnknownSubcommandOrNoneIsAUsageError) {
  EXPECT_EQ(run_virrey_words("nosuch").exit_code, 2);
  EXPECT_EQ(run_virrey_words("").exit_code, 2);
  EXPECT_EQ(run_virrey_words("-q").exit_code, 2);
  EXPECT_EQ(run_virrey_words("Perft --startpos --depth 1").exit_code, 2);
}

// An input that cannot be read is an I/O error (exit 3, as every command's
// help says), named, and the other inputs are still read.
TEST(CommandLine, UnreadableInputsExitThreeAndTheOthersAreRead) {
  TempDir dir;
  const std::string d = dir.path(), missing = d + "/no-such.pgn";
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  const RunResult v = run_virrey({"validate", missing, games, d}, d);
  EXPECT_EQ(v.exit_code, 3) << v.err;
  // (validate's findings are its results: standard output)
  EXPECT_NE(v.out.find(missing + ": error[io-error]"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(d + ": error[io-error]"), std::string::npos) << v.out;  // a directory
  EXPECT_NE(v.out.find("45 games"), std::string::npos) << v.out;
  const RunResult i = run_virrey({"import", "--db", d + "/db", missing, games}, d);
  EXPECT_EQ(i.exit_code, 3) << i.err;
  EXPECT_NE(i.err.find(missing), std::string::npos) << i.err;
  EXPECT_NE(i.out.find("45 stored"), std::string::npos) << i.out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"event", missing},
        {"event", games, "--trf", d + "/no-such.trf"},
        {"analyse", missing},
        {"stats", "merge", d + "/no-such.jsonl"},
        {"db", "classify", "--db", d + "/db", "--openings", d + "/no-such.eco"},
        {"db", "merge", "--db", d + "/merged", d + "/no-such-db"}}) {
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 3) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_NE(r.err.find("no-such"), std::string::npos) << args[0] << " " << args[1] << ": " << r.err;
  }
  // A merge whose source is missing makes no empty --db.
  EXPECT_FALSE(std::filesystem::exists(d + "/merged"));
}

// A --db that is no database says what it is instead.
TEST(CommandLine, AnEmptyDirectoryIsNoDatabase) {
  TempDir dir;
  const std::string empty = dir.path() + "/empty";
  std::filesystem::create_directory(empty);
  const RunResult r = run_virrey({"search", "--db", empty}, dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("no virrey database at " + empty + " (an empty directory)"), std::string::npos)
      << r.err;
}

// Counts out of range are usage errors (exit 2) that name the option, before
// anything is read or written.
TEST(CommandLine, NegativeCountsAreUsageErrors) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"import", "--db", d + "/a", "--threads", "-5", games},
        {"db", "merge", "--db", d + "/b", "--threads", "-1", d + "/a"},
        {"export", "--db", d + "/a", "--limit", "-1"},
        {"stats", "results", "--db", d + "/a", "--limit", "-3"},
        {"stats", "results", "--db", d + "/a", "--by", "rating-band", "--band", "0"}}) {
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[3] << ": " << r.err;
    EXPECT_TRUE(r.err.find("--limit") != std::string::npos || r.err.find("--band") != std::string::npos ||
                r.err.find("threads") != std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(d + "/a"));
  EXPECT_FALSE(std::filesystem::exists(d + "/b"));
}

// Output that cannot be written (a full disk: /dev/full) is an I/O error,
// exit 3 with a message, whichever command wrote it.
// Inputs that never end or are no files: refused with a bounded read.
TEST(CommandLine, EndlessAndDirectoryInputsAreRefused) {
  TempDir dir;
  const std::string d = dir.path();
  EXPECT_EQ(run_virrey_words("generate --games -1", d).exit_code, 2);
  EXPECT_EQ(run_virrey_words("generate --games 99999999999999999999", d).exit_code, 2);
  ASSERT_EQ(
      run_virrey(
          {"import", "--db", d + "/db", std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn"}, d)
          .exit_code,
      0);
  EXPECT_EQ(run_virrey({"db", "classify", "--db", d + "/db", "--openings", "/dev/zero"}, d).exit_code, 2);
  EXPECT_EQ(run_virrey({"db", "classify", "--db", d + "/db", "--openings", d}, d).exit_code, 3);
  EXPECT_EQ(run_virrey({"stats", "merge", "/dev/zero"}, d).exit_code, 2);
}

TEST(CommandLine, UnwritableOutputExitsThree) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"import", "--db", d + "/db", games}, d).exit_code, 0);
  for (const std::string& words :
       std::vector<std::string>{"validate '" + games + "'", "validate --format json '" + games + "'",
                                "search --db '" + d + "/db'", "search --db '" + d + "/db' --format jsonl",
                                "db info --db '" + d + "/db'", std::string("perft --startpos --depth 2")}) {
    const std::string err = d + "/err";
    std::string command = "'";  // (built by appends: g++ 12 warns falsely on a chain of +)
    command.append(VIRREY_BINARY)
        .append("' ")
        .append(words)
        .append(" >/dev/full 2>'")
        .append(err)
        .append("'");
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << words;
    EXPECT_EQ(WEXITSTATUS(status), 3) << words;
    EXPECT_NE(testing::read_file(err).find("cannot write"), std::string::npos)
        << words << ": " << testing::read_file(err);
  }
  // Named as --output: written in place (a device is no file to stage
  // beside and rename), the failure reported; /dev/full stays a device.
  const RunResult exported = run_virrey({"export", "--db", d + "/db", "--output", "/dev/full"}, d);
  EXPECT_EQ(exported.exit_code, 3) << exported.err;
  EXPECT_NE(exported.err.find("cannot write"), std::string::npos) << exported.err;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  EXPECT_FALSE(std::filesystem::exists("/dev/full.partial"));
}

}  // namespace
}  // namespace virrey
