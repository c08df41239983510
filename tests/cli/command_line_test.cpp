// The command line as a whole: each subcommand is reached with and without
// the global flags before it, and the help lists every subcommand.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

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
      // The flags every command takes, which its own option list lacks.
      EXPECT_NE(r.out.find("-q, --quiet"), std::string::npos) << flags << name << ": " << r.out;
      EXPECT_NE(r.out.find("-v, --verbose"), std::string::npos) << flags << name << ": " << r.out;
    }
  }
}

// analyse's formats: two kinds of output, each named once.
TEST(CommandLine, AnalyseFormatsAreNamedOnce) {
  const RunResult r = run_virrey_words("analyse --help");
  EXPECT_NE(r.out.find("pgn (annotated), jsonl (a move a line), or the summary as text, json or csv"),
            std::string::npos)
      << r.out;
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

// A mistyped command is named, with the command it most likely meant.
TEST(CommandLine, AMistypedCommandIsNamedWithTheCloseOnes) {
  for (const auto& [words, named, meant] :
       {std::tuple<const char*, const char*, const char*>{"serach", "unknown command 'serach'", "search"},
        {"-q db chek", "db: unknown command 'chek'", "check"},
        {"stats opening --db x", "stats: unknown command 'opening'", "openings"}}) {
    const RunResult r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 2) << words;
    EXPECT_NE(r.err.find(named), std::string::npos) << words << ": " << r.err;
    EXPECT_NE(r.err.find(std::string("did you mean ") + meant + "?"), std::string::npos) << r.err;
  }
  // Values of options are no commands: the command after them is read.
  for (const char* words : {"-v db mrge", "-vq db mrge"}) {
    const RunResult r = run_virrey_words(words);
    EXPECT_NE(r.err.find("db: unknown command 'mrge'; did you mean merge?"), std::string::npos)
        << words << r.err;
  }
  const RunResult far = run_virrey_words("zzzzzz");
  EXPECT_NE(far.err.find("unknown command 'zzzzzz' (commands: perft, "), std::string::npos) << far.err;
  EXPECT_NE(far.err.find(", analyse, completion)\n"), std::string::npos) << far.err;  // not the hidden one
}

// An option written without its value would take the next option as the
// value (`--white --count` searching for a player "--count"): refused.
TEST(CommandLine, AnOptionWithoutItsValueDoesNotTakeTheNextOption) {
  TempDir dir;
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"-q", "import", "--db", dir.path() + "/db", games}, dir.path()).exit_code, 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"search", "--db", dir.path() + "/db", "--white", "--count"},
        {"search", "--db", dir.path() + "/db", "--white", "-q"},
        {"search", "--variant", "--count", "--db", dir.path() + "/db"},
        {"stats", "games", "--db", "--format", "json"}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2] << ": " << r.out;
    EXPECT_NE(r.err.find("no value given"), std::string::npos) << r.err;
  }
  // Values that begin with '-' but are no option stay values.
  const RunResult ply =
      run_virrey({"search", "--db", dir.path() + "/db", "--ply", "-40", "--count"}, dir.path());
  EXPECT_EQ(ply.exit_code, 0) << ply.err;
  // A value attached to its option is the value, even when it reads as one:
  // `-v`, a lone king against king and viceroy (README: the king may be left
  // out, letters in either case). The one game here reaches it by 1...e1=V.
  testing::write_file(dir.path() + "/kv.pgn",
                      "[Event \"e\"]\n[Variant \"Virrey\"]\n[SetUp \"1\"]\n"
                      "[FEN \"4k3/8/8/8/8/8/4p3/1K6 b - - 0 1\"]\n[Result \"*\"]\n\n1... e1=V *\n\n");
  ASSERT_EQ(run_virrey({"-q", "import", "--db", dir.path() + "/kv.db", dir.path() + "/kv.pgn"}, dir.path())
                .exit_code,
            0);
  for (const char* spec : {"--material=-v", "--material=-V", "--material=K-KV"}) {
    const RunResult r = run_virrey({"search", "--db", dir.path() + "/kv.db", "--count", spec}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << spec << ": " << r.err;
    EXPECT_EQ(r.out, "1\n") << spec;
  }
  // Apart from its option, it is taken for the option it names, and the
  // message says how to give it.
  const RunResult apart =
      run_virrey({"search", "--db", dir.path() + "/kv.db", "--count", "--material", "-v"}, dir.path());
  EXPECT_EQ(apart.exit_code, 2);
  EXPECT_NE(apart.err.find("--material: no value given: -v is an option (as a value: --material=-v)"),
            std::string::npos)
      << apart.err;
}

// A bad value names the option it was given to; a SAN line's problem is
// numbered as the move it is in the game (from a FEN: its move number).
TEST(CommandLine, BadValuesNameTheirOptionAndMove) {
  TempDir dir;
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/standard-games.pgn";
  const std::string db = dir.path() + "/db";
  ASSERT_EQ(run_virrey({"-q", "import", "--db", db, games}, dir.path()).exit_code, 0);
  const auto err = [&](std::vector<std::string> args) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[1];
    return r.err;
  };
  EXPECT_NE(err({"search", "--db", db, "--date-from", "2020.13"}).find("--date-from: bad date '2020.13'"),
            std::string::npos);
  EXPECT_NE(err({"search", "--db", db, "--ply", "abc"}).find("--ply: "), std::string::npos);
  EXPECT_NE(err({"search", "--db", db, "--moves", "e4 e5 Ke3"}).find("--moves: bad SAN: move 2 (Ke3)"),
            std::string::npos);
  EXPECT_NE(err({"search", "--db", db, "--plies", "0-2147483648"})
                .find("2147483648 is too large (at most 999999999)"),
            std::string::npos);
  EXPECT_NE(err({"search", "--db", db, "--material", "Q=1", "--material-plies", "0"})
                .find("--material-plies 0 is out of range (1 to 100000)"),
            std::string::npos);
  // No --variant: the error of the variant that played most of the moves,
  // and which variant that was (Modern: the ministers move, castling fails).
  EXPECT_NE(err({"search", "--db", db, "--moves", "Mc3 Mxc3"})
                .find("--moves: bad SAN: move 1 (...Mxc3): no black minister can reach c3 (as Modern chess"),
            std::string::npos);
  EXPECT_NE(err({"search", "--db", db, "--moves", "Me3 Na7 b4 e6 Ba3 Mg7 Nc3 Ni7 Ni3 h6 O-O"})
                .find("move 6 (O-O): castling is not allowed"),
            std::string::npos);
  EXPECT_NE(err({"stats", "openings", "--db", db, "--variant", "standard", "--moves", "1. e4 e5 2. Ke3"})
                .find("--moves: bad SAN: move 2 (Ke3)"),
            std::string::npos);
  EXPECT_NE(err({"stats", "openings", "--db", db, "--fen", "xx"}).find("--fen: bad FEN"), std::string::npos);
  EXPECT_NE(
      err({"stats", "openings", "--db", db, "--variant", "standard", "--fen", "xx"}).find("--fen: bad FEN"),
      std::string::npos);
  // Black to move at move 20: the first token is 20...
  EXPECT_NE(err({"stats", "openings", "--db", db, "--variant", "standard", "--fen",
                 "4k3/8/8/8/8/8/8/4K3 b - - 0 20", "--moves", "Kd7 Ke5"})
                .find("bad SAN: move 21 (Ke5)"),
            std::string::npos);
  EXPECT_NE(err({"import", "--db", db, "--threads", "-1", games}).find("(0: every core, or 1 to 256)"),
            std::string::npos);
}

// A long token in a message is cut to 80 bytes with its full length (the
// README's Limits), in the SAN parser's words and the move label alike.
TEST(CommandLine, ALongMoveTokenIsCutInMessages) {
  TempDir dir;
  std::string token(5000, 'N');
  token.append("f3");
  testing::write_file(dir.path() + "/long.pgn", "[Event \"x\"]\n\n1. e4 " + token + " *\n");
  for (const char* format : {"text", "jsonl"}) {
    const RunResult r = run_virrey({"validate", "--format", format, dir.path() + "/long.pgn"}, dir.path());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::string text = r.out + r.err;
    EXPECT_NE(text.find("... (5002 bytes)"), std::string::npos) << text.substr(0, 400);
    EXPECT_EQ(text.find(std::string(81, 'N')), std::string::npos) << format;
  }
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

// A database missing a table file is one line of error, the same in every
// command (no code of the store's appended, no line ending of RocksDB's).
TEST(CommandLine, ADatabaseMissingATableFileIsOneCleanLine) {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"-q", "import", "--db", db, games}, dir.path()).exit_code, 0);
  std::string table;  // the first (a table file of the games)
  for (const auto& e : std::filesystem::directory_iterator(db))
    if (e.path().extension() == ".sst" && (table.empty() || e.path().string() < table))
      table = e.path().string();
  ASSERT_FALSE(table.empty());
  std::filesystem::remove(table);
  std::set<std::string> messages;
  for (const std::vector<std::string>& args : {std::vector<std::string>{"search", "--db", db, "--count"},
                                               {"db", "check", "--db", db},
                                               {"export", "--db", db},
                                               {"import", "--db", db, games}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 3) << args[0];
    EXPECT_EQ(r.err.rfind("virrey: error: cannot open " + db + ": Corruption: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find("\\x0a"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(" ["), std::string::npos) << r.err;
    if (args[0] != "import") messages.insert(r.err);
  }
  // The readers say the same (a writer opens otherwise, and RocksDB words it otherwise).
  EXPECT_EQ(messages.size(), 1u) << *messages.begin();
}

// A database directory its user may not read is told as such (as a user
// other than root: root reads every directory).
TEST(CommandLine, AnUnreadableDatabaseIsToldAsSuch) {
  TempDir dir;
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  const std::string db = dir.path() + "/locked";
  ASSERT_EQ(run_virrey({"-q", "import", "--db", db, games}, dir.path()).exit_code, 0);
  std::string prefix;
  if (::geteuid() == 0) {
    prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups";
    std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all |
                                                 std::filesystem::perms::group_exec |
                                                 std::filesystem::perms::others_exec);
    if (run_virrey_words("--version", dir.path(), prefix).exit_code != 0)
      GTEST_SKIP() << "cannot run virrey as another user here";
  }
  std::filesystem::permissions(db, std::filesystem::perms::owner_all);
  for (const std::string& words : {"search --count --db '" + db + "'", "db info --db '" + db + "'",
                                   "import --db '" + db + "' '" + games + "'"}) {
    const RunResult r = run_virrey_words(words, dir.path(), prefix);
    EXPECT_EQ(r.exit_code, 3) << words;
    EXPECT_NE(r.err.find("cannot read " + db + ": Permission denied"), std::string::npos) << r.err;
  }
  std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all);
}

// A database that lost its CURRENT file is called damaged, not something
// else, and nothing is written into it.
TEST(CommandLine, ADatabaseWithoutCurrentIsDamaged) {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  const std::string games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"-q", "import", "--db", db, games}, dir.path()).exit_code, 0);
  std::filesystem::remove(db + "/CURRENT");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"db", "info", "--db", db}, {"import", "--db", db, games}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 3) << args[0];
    EXPECT_NE(r.err.find(db + " is damaged: it holds a database's table files but no CURRENT file"),
              std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(db + "/CURRENT"));
  // A directory that merely holds a .sst file is no database, damaged or not.
  std::filesystem::create_directory(dir.path() + "/other");
  testing::write_file(dir.path() + "/other/x.sst", "");
  const RunResult other = run_virrey({"db", "info", "--db", dir.path() + "/other"}, dir.path());
  EXPECT_EQ(other.exit_code, 3);
  EXPECT_NE(other.err.find("is not a virrey database"), std::string::npos) << other.err;
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
    // The message names the option given the count out of range, and that count.
    const auto bad = std::find_if(args.begin(), args.end(), [](const std::string& a) {
      return a == "-5" || a == "-1" || a == "-3" || a == "0";
    });
    ASSERT_NE(bad, args.begin());
    EXPECT_NE(r.err.find("error: " + *(bad - 1)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(*bad), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(d + "/a"));
  EXPECT_FALSE(std::filesystem::exists(d + "/b"));
  // Random opening plies before the engines play: none is no fewer than 0.
  const RunResult plies = run_virrey({"generate", "--engine", "default", "--opening-plies", "-1"}, d);
  EXPECT_EQ(plies.exit_code, 2);
  EXPECT_NE(plies.err.find("--opening-plies: must be 0 or more"), std::string::npos) << plies.err;
}

// An empty --variant names no variant (as a PGN's empty Variant tag would
// read as standard chess): refused, not taken as standard.
TEST(CommandLine, ABlankVariantIsAUsageError) {
  TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"generate", "--variant", "", "-n", "1"},
        {"search", "--db", dir.path(), "--variant", " "},
        {"validate", "--variant", "", "-"}}) {
    const RunResult r = run_virrey(args, dir.path(), "");
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.out;
    EXPECT_NE(r.err.find("--variant: names no variant"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << args[0];
  }
}

// Output that cannot be written (a full disk: /dev/full) is an I/O error,
// exit 3 with a message, whichever command wrote it.
// Inputs that never end or are no files: refused with a bounded read.
TEST(CommandLine, EndlessAndDirectoryInputsAreRefused) {
  TempDir dir;
  const std::string d = dir.path();
  const RunResult negative = run_virrey_words("generate --games -1", d);
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--games: must be 0 or more, not -1"), std::string::npos) << negative.err;
  const RunResult huge = run_virrey_words("generate --games 99999999999999999999", d);
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_NE(huge.err.find("--games: is out of range: 99999999999999999999"), std::string::npos) << huge.err;
  ASSERT_EQ(
      run_virrey(
          {"import", "--db", d + "/db", std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn"}, d)
          .exit_code,
      0);
  const RunResult endless_eco =
      run_virrey({"db", "classify", "--db", d + "/db", "--openings", "/dev/zero"}, d);
  EXPECT_EQ(endless_eco.exit_code, 2);
  EXPECT_NE(endless_eco.err.find("/dev/zero is over 64 MiB: not an ECO file"), std::string::npos)
      << endless_eco.err;
  const RunResult directory = run_virrey({"db", "classify", "--db", d + "/db", "--openings", d}, d);
  EXPECT_EQ(directory.exit_code, 3);
  EXPECT_NE(directory.err.find("cannot read " + d + ": it is a directory"), std::string::npos)
      << directory.err;
  const RunResult endless_partial = run_virrey({"stats", "merge", "/dev/zero"}, d);
  EXPECT_EQ(endless_partial.exit_code, 2);
  EXPECT_NE(endless_partial.err.find("/dev/zero:1: a line over 64 MiB: not a partial result"),
            std::string::npos)
      << endless_partial.err;
  // A partial that cannot be read is said why, as every other input is.
  const RunResult folder_partial = run_virrey({"stats", "merge", d}, d);
  EXPECT_EQ(folder_partial.exit_code, 3);
  EXPECT_NE(folder_partial.err.find("cannot read " + d + ": it is a directory"), std::string::npos)
      << folder_partial.err;
  const RunResult missing_partial = run_virrey({"stats", "merge", d + "/none.jsonl"}, d);
  EXPECT_EQ(missing_partial.exit_code, 3);
  EXPECT_NE(missing_partial.err.find("cannot read " + d + "/none.jsonl: No such file or directory"),
            std::string::npos)
      << missing_partial.err;
}

// An output never replaces what the command reads, under any of its names,
// nor a database's file; a run that fails keeps the output file before.
TEST(CommandLine, OutputsNeverReplaceInputsOrDatabaseFiles) {
  TempDir dir;
  const std::string d = dir.path(), games = d + "/g.pgn", eco = d + "/eco.pgn";
  const std::string text =
      "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
  testing::write_file(games, text);
  const std::string book = "[ECO \"C20\"]\n[Opening \"King's pawn game\"]\n\n1. e4 e5 *\n";
  testing::write_file(eco, book);
  const auto refused = [&](const std::vector<std::string>& args, const std::string& input = {}) {
    const RunResult r = run_virrey(args, d, input);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--"), std::string::npos) << r.err;  // names the option
  };
  // Two spellings of one file yet to be made.
  refused({"validate", games, "-o", d + "/both.pgn", "--rejects", d + "/./both.pgn"});
  EXPECT_FALSE(std::filesystem::exists(d + "/both.pgn"));
  // Standard input redirected from the output.
  refused({"validate", "-", "-o", games}, games);
  refused({"validate", "-o", games}, games);
  EXPECT_EQ(testing::read_file(games), text);
  // The ECO file, the TRF compared.
  refused({"import", "--db", d + "/db", games, "--openings", eco, "--rejects", eco});
  EXPECT_EQ(testing::read_file(eco), book);
  const std::string swiss = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-swiss.pgn",
                    trf = d + "/s.trf";
  ASSERT_EQ(run_virrey({"event", swiss, "--format", "trf", "-o", trf}, d).exit_code, 0);
  const std::string report = testing::read_file(trf);
  refused({"event", swiss, "--trf", trf, "-o", trf});
  EXPECT_EQ(testing::read_file(trf), report);
  // A database's files.
  ASSERT_EQ(
      run_virrey(
          {"import", "--db", d + "/db", std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn"}, d)
          .exit_code,
      0);
  refused({"validate", games, "-o", d + "/db/CURRENT"});
  refused({"generate", "--games", "1", "-o", d + "/db/more.pgn"});
  refused({"analyse", games, "-o", d + "/db/CURRENT"});
  EXPECT_EQ(run_virrey({"db", "check", "--db", d + "/db"}, d).exit_code, 0);
  // The rejects inside a database yet to be made: refused, nothing made.
  refused({"import", "--db", d + "/new.db", games, "--rejects", d + "/new.db"});
  refused({"import", "--db", d + "/new.db", games, "--rejects", d + "/new.db/r.pgn"});
  EXPECT_FALSE(std::filesystem::exists(d + "/new.db"));
  // A run that fails (an input missing, the TRF missing, no engine) keeps
  // the file before, and leaves no file of its own beside it.
  testing::write_file(d + "/keep.txt", "keep\n");
  EXPECT_EQ(run_virrey({"validate", d + "/missing.pgn", "-o", d + "/keep.txt"}, d).exit_code, 3);
  EXPECT_EQ(run_virrey({"validate", games, d + "/missing.pgn", "-o", d + "/keep.txt"}, d).exit_code, 3);
  EXPECT_EQ(run_virrey({"validate", games, d + "/missing.pgn", "--rejects", d + "/keep.txt"}, d).exit_code,
            3);
  EXPECT_EQ(run_virrey({"event", d + "/missing.pgn", "-o", d + "/keep.txt"}, d).exit_code, 3);
  EXPECT_EQ(run_virrey({"event", swiss, "--trf", d + "/missing.trf", "-o", d + "/keep.txt"}, d).exit_code, 3);
  EXPECT_EQ(run_virrey({"generate", "--games", "1", "--engine", d + "/no-engine", "-o", d + "/keep.txt"}, d)
                .exit_code,
            3);
  EXPECT_EQ(testing::read_file(d + "/keep.txt"), "keep\n");
  for (const auto& entry : std::filesystem::directory_iterator(d))
    EXPECT_EQ(entry.path().filename().string().find("keep.txt."), std::string::npos) << entry.path();
  // A file named as the staged one would be is an input like any other.
  testing::write_file(d + "/out.pgn.partial", text);
  ASSERT_EQ(run_virrey({"validate", d + "/out.pgn.partial", "-o", d + "/out.pgn"}, d).exit_code, 1);
  EXPECT_EQ(testing::read_file(d + "/out.pgn.partial"), text);
  EXPECT_EQ(testing::read_file(d + "/out.pgn"), run_virrey({"validate", games, "-o", "-"}, d).out);
}

// An output that is a link or a file of several names is written in place
// (`-o /dev/stdout` with standard output redirected to a file); a file
// replaced keeps its mode.
TEST(CommandLine, LinkedOutputsAreWrittenInPlace) {
  TempDir dir;
  const std::string d = dir.path();
  const std::string two = run_virrey_words("generate --games 2 --seed 5").out;
  ASSERT_FALSE(two.empty());
  const RunResult via_stdout = run_virrey_words("generate --games 2 --seed 5 -o /dev/stdout", d);
  EXPECT_EQ(via_stdout.exit_code, 0) << via_stdout.err;
  EXPECT_EQ(via_stdout.out, two);  // run_virrey_words sends standard output to a file
  EXPECT_TRUE(std::filesystem::is_symlink("/dev/stdout"));
  testing::write_file(d + "/target.pgn", "old\n");
  std::filesystem::create_symlink(d + "/target.pgn", d + "/link.pgn");
  ASSERT_EQ(run_virrey({"generate", "--games", "2", "--seed", "5", "-o", d + "/link.pgn"}, d).exit_code, 0);
  EXPECT_TRUE(std::filesystem::is_symlink(d + "/link.pgn"));
  EXPECT_EQ(testing::read_file(d + "/target.pgn"), two);
  std::filesystem::create_hard_link(d + "/target.pgn", d + "/other-name.pgn");
  ASSERT_EQ(run_virrey({"generate", "--games", "1", "--seed", "5", "-o", d + "/target.pgn"}, d).exit_code, 0);
  EXPECT_EQ(testing::read_file(d + "/other-name.pgn"), testing::read_file(d + "/target.pgn"));
  EXPECT_NE(testing::read_file(d + "/target.pgn"), two);
  testing::write_file(d + "/private.pgn", "old\n");
  std::filesystem::permissions(d + "/private.pgn",
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  ASSERT_EQ(run_virrey({"generate", "--games", "1", "-o", d + "/private.pgn"}, d).exit_code, 0);
  EXPECT_EQ(std::filesystem::status(d + "/private.pgn").permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

// Ctrl-C or `kill` while an output is being written: the half-written file
// goes with the process, the file before stays, and the process ends by the
// signal as it would have without virrey's cleanup.
TEST(CommandLine, AnInterruptedRunLeavesNoHalfWrittenOutput) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir dir;
    const std::filesystem::path d = dir.path();
    testing::write_file(d / "report.txt", "before\n");
    testing::PipedProcess run =
        testing::spawn_virrey_piped({"validate", "-", "-o", (d / "report.txt").string()}, d / "log.txt");
    ASSERT_GT(run.pid, 0);
    EXPECT_TRUE(run.write("[Event \"a\"]\n\n1. e4 e5 *\n\n"));
    // Standard input stays open: validate waits for more, its output staged.
    auto staged = [&] {
      for (const auto& entry : std::filesystem::directory_iterator(d))
        if (entry.path().filename().string().rfind("report.txt.partial-", 0) == 0) return true;
      return false;
    };
    for (int i = 0; i < 500 && !staged(); ++i) ::usleep(20000);
    ASSERT_TRUE(staged()) << testing::read_file(d / "log.txt");
    ::kill(run.pid, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(run.pid, &status, 0), run.pid);
    run.close_input();
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << sig << " " << status;
    EXPECT_FALSE(staged()) << sig;
    EXPECT_EQ(testing::read_file(d / "report.txt"), "before\n");
  }
}

// The exit code of `virrey WORDS` whose output `head -c 1` reads, SIGPIPE
// ignored in it first when `ignoring_sigpipe`; its standard error to `err`.
int exit_code_read_by_head(const std::string& words, const std::string& err, bool ignoring_sigpipe) {
  const std::string script = std::string("(") + (ignoring_sigpipe ? "trap '' PIPE; " : "") + "exec '" +
                             VIRREY_BINARY + "' " + words + " 2>'" + err +
                             "') | head -c 1 >/dev/null; exit \\${PIPESTATUS[0]}";
  const int status = std::system(("bash -c \"" + script + "\"").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// SIGPIPE ignored by whoever started virrey (systemd does): a reader that
// goes away still ends every command at once, exit 141 and no message, as
// with SIGPIPE at its default (README "Exit codes"); validate does not read
// on to the end of its input.
TEST(CommandLine, AReaderGoneEndsTheCommandWhenSigpipeIsIgnored) {
  TempDir dir;
  const std::string d = dir.path();
  ASSERT_EQ(run_virrey({"generate", "--games", "3000", "-o", d + "/many.pgn"}, d).exit_code, 0);
  ASSERT_EQ(run_virrey({"import", "--db", d + "/db", d + "/many.pgn"}, d).exit_code, 0);
  std::string untagged;  // each game a few warnings on standard output
  for (int i = 0; i < 20000; ++i) untagged += "[Event \"e\"]\n\n1. e4 *\n\n";
  testing::write_file(d + "/untagged.pgn", untagged);
  for (const std::string& words :
       {std::string("generate --games 20000"), "search --db '" + d + "/db' --limit 0 --format jsonl",
        "export --db '" + d + "/db'", "validate '" + d + "/many.pgn' -o -",
        "validate '" + d + "/untagged.pgn'", "stats results --by player --db '" + d + "/db'"}) {
    EXPECT_EQ(exit_code_read_by_head(words, d + "/err", true), 141)
        << words << ": " << testing::read_file(d + "/err");
    EXPECT_EQ(testing::read_file(d + "/err"), "") << words;
  }
}

// The same while engines play (a command that runs engines ignores SIGPIPE
// to outlive them): self-play ends with 141, its engines stopped with it.
TEST(CommandLine, AReaderGoneEndsSelfPlayAndItsEngines) {
  TempDir dir;
  const std::string d = dir.path(), engine = d + "/engine-of-this-test";
  std::filesystem::copy_file("/usr/games/stockfish", engine);
  std::filesystem::permissions(engine, std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  EXPECT_EQ(
      exit_code_read_by_head("generate --variant standard --engine '" + engine + "' --games 50 --nodes 200",
                             d + "/err", false),
      141)
      << testing::read_file(d + "/err");
  EXPECT_EQ(testing::read_file(d + "/err"), "");
  // No engine runs on (one killed is at most a zombie, whose command line
  // reads empty).
  for (const auto& entry : std::filesystem::directory_iterator("/proc"))
    EXPECT_NE(testing::read_file(entry.path().string() + "/cmdline").rfind(engine, 0), 0u) << entry.path();
}

// A file named empty is a usage error naming the option, not the option left
// out: a script's unset variable must not skip a check (--trf), lose the
// rejected games (--rejects) or write a database where nobody looks (--db).
TEST(CommandLine, AnEmptyFileNameIsAUsageError) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-swiss.pgn";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"event", games, "--trf", ""},
        {"validate", games, "--rejects", ""},
        {"validate", games, "-o", ""},
        {"import", games, "--db", ""},
        {"import", games, "--db", d + "/db", "--rejects", ""},
        {"export", "--db", d + "/db", "-o", ""},
        {"search", "--db", ""},
        {"event", "--db", ""},
        {"db", "classify", "--db", d + "/db", "--openings", ""},
        // An empty engine or partial is no name either (not the default engine).
        {"generate", "--engine", ""},
        {"analyse", games, "--engine", ""},
        {"stats", "players", "--db", d + "/db", "--engine", ""},
        {"stats", "openings", "--db", d + "/db", "--format", "partial", "--expand", ""},
        // Attached, nothing after '=': not the next word taken for the name.
        {"validate", games, "--output=", d + "/kept.pgn"},
        {"validate", games, "--rejects=", d + "/kept.pgn"},
        {"import", "--db=", d + "/kept.pgn"}}) {
    testing::write_file(d + "/kept.pgn", "kept");
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    std::string option = *(args.end() - 2) == "-o" ? "--output" : *(args.end() - 2);
    if (option.ends_with("=")) option.pop_back();
    EXPECT_NE(r.err.find("error: " + option + ": is empty"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << args[0];
    EXPECT_EQ(testing::read_file(d + "/kept.pgn"), "kept") << args[0] << " " << option;
  }
  EXPECT_FALSE(std::filesystem::exists(d + "/virrey.db"));
  EXPECT_FALSE(std::filesystem::exists(d + "/db"));
}

// An option of the command given before its name (or after `--`) is said to
// be out of place, not unknown with itself for a suggestion.
TEST(CommandLine, AnOptionBeforeTheCommandNameIsOutOfPlace) {
  TempDir dir;
  const RunResult before = run_virrey_words("--limit 5 search --db x", dir.path());
  EXPECT_EQ(before.exit_code, 2);
  EXPECT_NE(before.err.find("search: --limit out of place: give it after the command's name, before any --"),
            std::string::npos)
      << before.err;
  EXPECT_EQ(before.err.find("did you mean --limit"), std::string::npos) << before.err;
  EXPECT_EQ(before.err.find("unexpected argument 5"), std::string::npos) << before.err;
  const RunResult after = run_virrey_words("search --db x -- --count", dir.path());
  EXPECT_EQ(after.exit_code, 2);
  EXPECT_NE(after.err.find("search: --count out of place"), std::string::npos) << after.err;
  const RunResult short_name = run_virrey_words("-o x export --db y", dir.path());
  EXPECT_EQ(short_name.exit_code, 2);
  EXPECT_NE(short_name.err.find("export: -o out of place"), std::string::npos) << short_name.err;
  // A misspelt option still gets its suggestion beside it.
  const RunResult both = run_virrey_words("--db x stats results --limti 3", dir.path());
  EXPECT_NE(both.err.find("unknown option --limti (did you mean --limit?); --db out of place"),
            std::string::npos)
      << both.err;
}

// An option of a command's commands, given with no command named (`stats
// --db x`, as `virrey stats --help` lists no --db), names the commands that
// take it, not "unknown option".
TEST(CommandLine, AnOptionOfACommandsCommandsNamesThem) {
  TempDir dir;
  const RunResult stats = run_virrey_words("stats --db x", dir.path());
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_NE(
      stats.err.find("stats: --db is an option of stats openings, results, promotions, games, endgames or "
                     "players: name one of them first\n"),
      std::string::npos)
      << stats.err;
  EXPECT_EQ(stats.err.find("unknown option"), std::string::npos) << stats.err;
  const RunResult one = run_virrey_words("stats --limit 3", dir.path());
  EXPECT_NE(one.err.find("stats: --limit is an option of stats results: name it first"), std::string::npos)
      << one.err;
  const RunResult db = run_virrey_words("db --bogus --db x", dir.path());
  EXPECT_NE(db.err.find("db: unknown option --bogus; --db is an option of db info, check, upgrade, merge, "
                        "classify or squares: name one of them first"),
            std::string::npos)
      << db.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/x"));
}

// CLI11's messages are reworded without std::regex, whose matcher recursed
// once per character: an argument of some 30 KB in a usage error overflowed
// the stack (SIGSEGV). Each such message still names the option.
TEST(CommandLine, AVeryLongArgumentInAUsageErrorIsReported) {
  TempDir dir;
  const std::string lots(60000, 'a');  // a command line holds 128 KB at most
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"perft", "-d", "1", lots}, "perft: unexpected argument aaaa"},
      {{"perft", "-d", "1", "--" + lots}, "perft: unknown option --aaaa"},
      {{"import", "--db", dir.path() + "/db", "--commit-interval", lots, "x.pgn"},
       "--commit-interval: must be a number, not aaaa"},
      {{"perft", "-d", lots}, "--depth: must be a whole number, not aaaa"}};
  for (const auto& [args, message] : cases) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_NE(r.err.find("virrey: error: " + message), std::string::npos) << r.err.substr(0, 300);
    EXPECT_LT(r.err.size(), 8000u);  // the value is cut short
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/db"));
}

// CLI11's other messages in virrey's words: digits that overflow the type are
// "out of range", an option given twice says so, an input named '' is none.
TEST(CommandLine, OverflowRepetitionAndEmptyInputsAreSaidPlainly) {
  TempDir dir;
  const RunResult big = run_virrey({"perft", "-d", "1", "-t", "2147483648"}, dir.path());
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.err.find("--threads 2147483648 is out of range"), std::string::npos) << big.err;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"import", "--db", dir.path() + "/db", "--commit-interval", "0x10", "x.pgn"},
        {"analyse", "--engine-timeout", "inf", "x.pgn"},
        {"import", "--db", dir.path() + "/db", "--commit-interval", "nan", "x.pgn"},
        {"analyse", "--engine-timeout", "-inf", "x.pgn"}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[3];
    EXPECT_NE(r.err.find(": must be a number, not " + *(args.end() - 2)), std::string::npos) << r.err;
  }
  // A number's empty value is said to be empty, as any option's is.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"perft", "-d", ""},
        {"generate", "--seed", " "},
        {"import", "--db", dir.path() + "/db", "--commit-interval", ""}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find(": is empty (give a value, or leave the option out)"), std::string::npos) << r.err;
  }
  const RunResult twice = run_virrey({"perft", "-d", "1", "-d", "2"}, dir.path());
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("perft: --depth given more than once (it takes one value)"), std::string::npos)
      << twice.err;
  for (const std::vector<std::string>& args : {std::vector<std::string>{"validate", ""},
                                               {"import", "--db", dir.path() + "/db", ""},
                                               {"event", ""},
                                               {"stats", "merge", ""},
                                               {"db", "merge", "--db", dir.path() + "/db", ""}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.err.find("one is empty (a name is needed)"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << args[0];
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/db"));
}

// Nothing is written into a database's folder: not an output file, and not
// another database (import's or db merge's --db), whose files would mix
// with the database's own; the database still opens and checks after.
TEST(CommandLine, NothingIsMadeInADatabasesFolder) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-games.pgn";
  ASSERT_EQ(run_virrey({"import", games, "--db", d + "/db"}, d).exit_code, 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"import", games, "--db", d + "/db/sub"},
       "the database " + d + "/db/sub would be in the folder of the database"},
      {{"db", "merge", "--db", d + "/db/x/y", d + "/db"},
       "the database " + d + "/db/x/y would be in the folder of the database"},
      {{"export", "--db", d + "/db", "-o", d + "/db/all.pgn"}, "is in a database's folder"},
      {{"validate", games, "-o", d + "/db/out.pgn"}, "is in a database's folder"}};
  for (const auto& [args, message] : cases) {
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  for (const char* name : {"sub", "x", "all.pgn", "out.pgn"})
    EXPECT_FALSE(std::filesystem::exists(d + "/db/" + name)) << name;
  EXPECT_EQ(run_virrey({"db", "check", "--db", d + "/db"}, d).exit_code, 0);
}

// An option that would be given and then not apply is refused by name, not
// dropped: a count lists no games, a PGN draws no position, one group is not
// sorted, a TRF comparison is no report, a tie-break twice breaks nothing.
TEST(CommandLine, OptionsThatWouldNotApplyAreRefused) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-swiss.pgn";
  ASSERT_EQ(run_virrey({"import", games, "--db", d + "/db"}, d).exit_code, 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"search", "--db", d + "/db", "--count", "--limit", "5"},
       "search: --count and --limit do not go together"},
      {{"search", "--db", d + "/db", "--offset", "5", "--count"},
       "search: --count and --offset do not go together"},
      {{"search", "--db", d + "/db", "--count", "--sort", "date"},
       "search: --count and --sort do not go together"},
      {{"search", "--db", d + "/db", "--count", "--show"}, "search: --show and --count do not go together"},
      {{"search", "--db", d + "/db", "--show", "--format", "pgn"},
       "--show draws or writes the matched position"},
      {{"stats", "results", "--db", d + "/db", "--sort", "games"}, "--sort sorts or cuts the groups of --by"},
      {{"stats", "results", "--db", d + "/db", "--by", "none", "--limit", "2"},
       "--limit sorts or cuts the groups"},
      {{"event", games, "--tiebreaks", "wins,buchholz,WIN"}, "--tiebreaks: wins given twice"},
      {{"event", games, "--trf", games, "--format", "json"}, "--trf compares a TRF with the games"}};
  for (const auto& [args, message] : cases) {
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << message;
  }
  // Each out-of-range value named with the option it was given to.
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"stats", "openings", "--db", d + "/db", "--top", "-1"}, "--top -1 is out of range"},
           {{"stats", "openings", "--db", d + "/db", "--min-games", "0"}, "--min-games 0 is out of range"},
           {{"generate", "--variant", "foo"}, "unknown variant 'foo' (standard, virrey or modern)"}}) {
    const RunResult r = run_virrey(args, d);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  // Where they apply they are taken.
  EXPECT_EQ(
      run_virrey({"stats", "results", "--db", d + "/db", "--by", "year", "--sort", "games"}, d).exit_code, 0);
  EXPECT_EQ(run_virrey({"search", "--db", d + "/db", "--count", "--format", "json"}, d).exit_code, 0);
}

// A file name that is not UTF-8 is reported as given, its other bytes \xNN
// (the README's rule for input quoted in messages), not read as
// Windows-1252 into the name of another file.
TEST(CommandLine, AFileNameThatIsNotUtf8IsWrittenEscaped) {
  TempDir dir;
  const std::string name = dir.path() + "/lat\xe9.pgn";
  testing::write_file(name, "[Event \"e\"]\n[Result \"*\"]\n\n1. e4 *\n\n");
  const RunResult text = run_virrey({"validate", name}, dir.path());
  EXPECT_NE(text.out.find(dir.path() + "/lat\\xe9.pgn:4:1: "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("lat\xc3\xa9"), std::string::npos) << text.out;
  const RunResult json = run_virrey({"validate", "--format", "jsonl", name}, dir.path());
  EXPECT_NE(json.out.find("\"file\":\"" + dir.path() + "/lat\\\\xe9.pgn\""), std::string::npos) << json.out;
}

// The reader of the report gone (`| head`) while the output is staged: the
// process ends by SIGPIPE, the half-written file with it.
TEST(CommandLine, AReaderGoneLeavesNoHalfWrittenOutput) {
  TempDir dir;
  const std::string d = dir.path();
  std::string untagged;  // each game a few warnings on standard output
  for (int i = 0; i < 4000; ++i) untagged += "[Event \"e\"]\n\n1. e4 *\n\n";
  testing::write_file(d + "/untagged.pgn", untagged);
  testing::write_file(d + "/games.pgn", "before\n");
  // (The redirections run_virrey_words adds go to head.)
  run_virrey_words("validate '" + d + "/untagged.pgn' -o '" + d + "/games.pgn' 2>/dev/null | head -c 100", d);
  // Ended by SIGPIPE: the file as it was before.
  EXPECT_EQ(testing::read_file(d + "/games.pgn"), "before\n");
  for (const auto& entry : std::filesystem::directory_iterator(d))
    EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

// The file size limit (`ulimit -f`) reached while an output is staged: the
// process ends by SIGXFSZ as without virrey's cleanup, the half-written file
// with it.
TEST(CommandLine, AFileSizeLimitLeavesNoHalfWrittenOutput) {
  TempDir dir;
  const std::string d = dir.path();
  testing::write_file(d + "/games.pgn", "before\n");
  const RunResult r = run_virrey_words("validate '" + std::string(VIRREY_SOURCE_DIR) +
                                           "/sample-data/virrey-games.pgn' -o '" + d + "/games.pgn'",
                                       d,
                                       "ulimit -c 0; ulimit -f 20;");  // 10 KiB of the 140 KB the games take
  EXPECT_TRUE(r.signal == SIGXFSZ || r.exit_code == 128 + SIGXFSZ) << r.exit_code << " " << r.signal << r.err;
  EXPECT_EQ(testing::read_file(d + "/games.pgn"), "before\n");
  for (const auto& entry : std::filesystem::directory_iterator(d))
    EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

// --threads 0 (import's default) counts the cores the process may run on,
// as `nproc` does: pinned to one core, one thread.
TEST(CommandLine, EveryCoreMeansTheCoresTheProcessMayUse) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
  int first = 0;
  while (!CPU_ISSET(first, &set)) ++first;
  TempDir dir;
  const std::string db = dir.path() + "/pinned.db",
                    games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-games.pgn";
  const RunResult pinned = run_virrey_words("-v import --db '" + db + "' '" + games + "'", {},
                                            "taskset -c " + std::to_string(first));
  EXPECT_EQ(pinned.exit_code, 0) << pinned.err;
  EXPECT_NE(pinned.err.find("1 thread (--threads 0: the cores this process may run on)"), std::string::npos)
      << pinned.err;
  const RunResult given = run_virrey_words("-v import --threads 3 --db '" + db + "2' '" + games + "'", {},
                                           "taskset -c " + std::to_string(first));
  EXPECT_NE(given.err.find("3 threads\n"), std::string::npos) << given.err;
}

// A MANIFEST emptied (or cut at a record's end) lists none of the parts of
// a database that holds table files: damaged, not a creation interrupted
// (which "import again" would mend).
TEST(CommandLine, AnEmptiedManifestIsDamageNotAnUnfinishedCreation) {
  TempDir dir;
  const std::string d = dir.path(), db = d + "/m.db";
  ASSERT_EQ(run_virrey({"generate", "-n", "200", "-o", d + "/g.pgn"}, d).exit_code, 0);
  ASSERT_EQ(run_virrey({"import", d + "/g.pgn", "--db", db}, d).exit_code, 0);
  for (const auto& e : std::filesystem::directory_iterator(db))
    if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) testing::write_file(e.path().string(), "");
  for (const std::vector<std::string>& words : {std::vector<std::string>{"search", "--count", "--db", db},
                                                std::vector<std::string>{"db", "check", "--db", db}}) {
    const RunResult r = run_virrey(words, d);
    EXPECT_EQ(r.exit_code, 3) << words[0];
    EXPECT_NE(r.err.find(db + " is damaged: it holds a database's table files but its MANIFEST"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("import again"), std::string::npos) << r.err;
  }
}

// A table file cut short is no end of the data: export says so (exit 3)
// instead of writing the games before it as if they were all.
TEST(CommandLine, ExportOfADamagedDatabaseFails) {
  TempDir dir;
  const std::string d = dir.path(), db = d + "/two.db";
  for (const char* seed : {"1", "2"}) {
    ASSERT_EQ(
        run_virrey({"generate", "-n", "1000", "--seed", seed, "-o", d + "/" + seed + ".pgn"}, d).exit_code,
        0);
  }
  ASSERT_EQ(run_virrey({"import", d + "/1.pgn", "--db", db}, d).exit_code, 0);
  std::set<std::string> before;
  for (const auto& e : std::filesystem::directory_iterator(db)) before.insert(e.path().string());
  ASSERT_EQ(run_virrey({"import", d + "/2.pgn", "--db", db}, d).exit_code, 0);
  // The second import's first table file: its games (the families are
  // written in order, games first), cut to half its size.
  std::set<std::string> added;
  for (const auto& e : std::filesystem::directory_iterator(db))
    if (e.path().extension() == ".sst" && !before.count(e.path().string())) added.insert(e.path().string());
  ASSERT_FALSE(added.empty());
  std::filesystem::resize_file(*added.begin(), std::filesystem::file_size(*added.begin()) / 2);
  const RunResult r = run_virrey({"export", "--db", db, "-o", d + "/out.pgn"}, d);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("1000 games read of the 2000 games it holds: a table file is missing or damaged"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/out.pgn"));
  // The largest table file cut shorter than a table's footer: db check
  // names the file, apart from the words around it.
  std::string largest;
  for (const auto& e : std::filesystem::directory_iterator(db))
    if (e.path().extension() == ".sst" &&
        (largest.empty() || e.file_size() > std::filesystem::file_size(largest)))
      largest = e.path().string();
  std::filesystem::resize_file(largest, 1000);
  const RunResult check = run_virrey({"db", "check", "--db", db}, d);
  EXPECT_EQ(check.exit_code, 3) << check.err;
  const std::string name = std::filesystem::path(largest).filename().string();
  EXPECT_NE(check.err.find(name + " is cut short (the database recorded "), std::string::npos) << check.err;
  EXPECT_EQ(check.err.find("sstable"), std::string::npos) << check.err;
}

// An output that exists in a directory that takes no new file: the reason
// names the file virrey writes first, not the output as if it were missing.
TEST(CommandLine, AnOutputWhoseDirectoryTakesNoNewFileSaysSo) {
  if (!std::filesystem::exists("/proc/version")) GTEST_SKIP() << "no /proc/version";
  const RunResult r = run_virrey_words("generate --games 1 -o /proc/version");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("cannot write /proc/version: cannot make version.partial-XXXXXX beside it: "),
            std::string::npos)
      << r.err;
}

// Whole numbers are decimal whatever their leading zeros, never C's octal or
// hexadecimal; an unsigned one is neither negative nor past 64 bits (CLI11
// alone wraps them).
TEST(CommandLine, WholeNumbersAreDecimal) {
  const RunResult ten = run_virrey_words("generate --games 010 --seed 1");
  ASSERT_EQ(ten.exit_code, 0) << ten.err;
  std::size_t games = 0;
  for (std::size_t at = ten.out.find("[Event "); at != std::string::npos;
       at = ten.out.find("[Event ", at + 1))
    ++games;
  EXPECT_EQ(games, 10u);                                                               // not eight
  EXPECT_EQ(run_virrey_words("perft --startpos -d 03").out.find("nodes 8902\n"), 0u);  // published
  for (const char* words :
       {"perft --startpos -d 0x3", "perft --startpos -d 3.0", "generate --games 1 --seed -1",
        "generate --games 1 --seed 18446744073709551616", "generate --games 0x10"}) {
    const RunResult r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 2) << words << ": " << r.out << r.err;
  }
  EXPECT_EQ(run_virrey_words("generate --games 2 --seed 0018446744073709551615").out,
            run_virrey_words("generate --games 2 --seed 18446744073709551615").out);
  EXPECT_EQ(run_virrey_words("generate --games 2 --seed 010").out,
            run_virrey_words("generate --games 2 --seed 10").out);
  EXPECT_NE(run_virrey_words("generate --games 2 --seed 010").out,
            run_virrey_words("generate --games 2 --seed 8").out);
}

// A misspelt option is named, not the option its misspelling left missing;
// an empty --fen is refused, not read as the start position.
TEST(CommandLine, MisspeltOptionAndEmptyFen) {
  const RunResult typo = run_virrey_words("perft --depht 3");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("virrey: error: perft: unknown option --depht (did you mean --depth?)\n"),
            std::string::npos)
      << typo.err;
  // Where nothing required is missing too, in the order typed.
  const RunResult typos = run_virrey_words("search --db nowhere --limt 5 --ofset 2 --zzzzzz");
  EXPECT_EQ(typos.exit_code, 2);
  EXPECT_NE(typos.err.find("search: unknown options --limt (did you mean --limit?), --ofset (did you mean "
                           "--offset?), --zzzzzz\n"),
            std::string::npos)
      << typos.err;
  for (const char* words :
       {"perft --fen '' -d 1", "perft --fen ' ' -d 1", "stats openings --fen '' --db nowhere"}) {
    const RunResult r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 2) << words;
    EXPECT_NE(r.err.find("--fen: is empty"), std::string::npos) << words << ": " << r.err;
  }
}

// The option parser's own errors read as virrey's: the option, the value
// and what it takes; a missing command lists the commands.
TEST(CommandLine, ParserErrorsReadAsVirreysOwn) {
  const std::pair<const char*, const char*> cases[] = {
      {"import --commit-interval abc x.pgn --db nowhere", "--commit-interval: must be a number, not abc\n"},
      {"stats results --by rating-band --band abc --db nowhere", "--band: must be a whole number, not abc\n"},
      {"stats results --by rating-band --band 0 --db nowhere", "--band 0 is out of range (1 to 4000)\n"},
      {"search --format", "--format needs a value: one of {text,pgn,json,jsonl,csv}\n"},
      {"db merge --db nowhere", "db merge: sources missing: the databases to merge"},
      {"", "a command is needed: perft, validate, generate, search, import, export, db, stats, event"},
      {"stats",
       "stats: a command is needed: openings, results, promotions, games, endgames, players, merge\n"},
      {"perft --startpos --depth 2 extra", "perft: unexpected argument extra\n"},
      {"stats results --by rating-band --band 2.5 --db nowhere", "--band: must be a whole number, not 2.5\n"},
      {"stats results --by rating-band --db nowhere --band", "--band needs a value\n"},
      {"perft extra --depht 3",
       "perft: unexpected argument extra; unknown option --depht (did you mean --depth?)\n"}};
  for (const auto& [words, expected] : cases) {
    const RunResult r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 2) << words;
    EXPECT_NE(r.err.find(std::string("virrey: error: ") + expected), std::string::npos)
        << words << ": " << r.err;
    for (const char* raw : {"Could not convert", "Value ", "required", "not expected", "A subcommand"})
      EXPECT_EQ(r.err.find(raw), std::string::npos) << words << ": " << r.err;
  }
}

TEST(CommandLine, UnwritableOutputExitsThree) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"import", "--db", d + "/db", games}, d).exit_code, 0);
  for (const std::string& words : std::vector<std::string>{
           "validate '" + games + "'", "validate --format json '" + games + "'", "search --db '" + d + "/db'",
           "search --db '" + d + "/db' --format jsonl", "db info --db '" + d + "/db'",
           std::string("perft --startpos --depth 2"), "export --db '" + d + "/db'",
           "stats results --db '" + d + "/db'", "event '" + games + "'"}) {
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
    // With the system's reason.
    EXPECT_NE(testing::read_file(err).find("cannot write"), std::string::npos)
        << words << ": " << testing::read_file(err);
    EXPECT_NE(testing::read_file(err).find("No space left on device"), std::string::npos)
        << words << ": " << testing::read_file(err);
  }
  // Named as --output: written in place (a device is no file to stage
  // beside and rename), the failure reported; /dev/full stays a device.
  const RunResult exported = run_virrey({"export", "--db", d + "/db", "--output", "/dev/full"}, d);
  EXPECT_EQ(exported.exit_code, 3) << exported.err;
  EXPECT_NE(exported.err.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << exported.err;
  const RunResult rejects = run_virrey({"validate", games, "--rejects", "/dev/full", "--format", "jsonl"}, d);
  EXPECT_EQ(rejects.exit_code, 0) << rejects.err;  // no game rejected: nothing written
  const RunResult report = run_virrey({"validate", games, "-o", "/dev/full"}, d);
  EXPECT_EQ(report.exit_code, 3) << report.err;
  EXPECT_NE(report.err.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << report.err;
  // An import's rejected games, more than a buffer holds: the write that
  // fails in the middle of the import gives the reason.
  std::string bad;
  for (int i = 0; i < 400; ++i)
    bad.append("[Event \"Rejected ")
        .append(std::to_string(i))
        .append("\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n");
  testing::write_file(d + "/bad.pgn", bad);
  const RunResult import_rejects =
      run_virrey({"import", "--db", d + "/db", d + "/bad.pgn", "--rejects", "/dev/full"}, d);
  EXPECT_EQ(import_rejects.exit_code, 3) << import_rejects.err;
  EXPECT_NE(import_rejects.err.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << import_rejects.err;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
  EXPECT_FALSE(std::filesystem::exists("/dev/full.partial"));
}

// `--output -` is standard output, as for pgn-extract and most tools: no file
// named "-" is made. validate then writes its report on standard error.
TEST(CommandLine, OutputDashIsStandardOutput) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"import", "--db", d + "/db", games}, d).exit_code, 0);
  const RunResult to_file = run_virrey({"export", "--db", d + "/db", "--output", d + "/all.pgn"}, d);
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  const std::string exported = testing::read_file(d + "/all.pgn");
  ASSERT_FALSE(exported.empty());
  for (const char* command : {"export", "generate", "validate"}) {
    std::vector<std::string> args{command};
    if (std::string(command) == "export") args.insert(args.end(), {"--db", d + "/db"});
    if (std::string(command) == "generate") args.insert(args.end(), {"--games", "2"});
    if (std::string(command) == "validate") args.push_back(d + "/all.pgn");
    args.insert(args.end(), {"-o", "-"});
    const RunResult r = run_virrey(args, d);
    EXPECT_LE(r.exit_code, 1) << command << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(d + "/-")) << command;
    EXPECT_EQ(r.out.rfind("[Event ", 0), 0u) << command << ": " << r.out.substr(0, 200);
    if (std::string(command) != "generate") {
      EXPECT_EQ(r.out, exported) << command;
    }
  }
  // validate's report went to standard error.
  const RunResult v = run_virrey({"validate", d + "/all.pgn", "-o", "-"}, d);
  EXPECT_NE(v.err.find("games: "), std::string::npos) << v.err;
}

// A standard stream the caller closed is not taken by a file the command
// opens: the report meant for standard output fails (exit 3), and the
// --output file holds the games alone.
TEST(CommandLine, AClosedStandardOutputIsNotTheOutputFile) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  std::string command = "'";
  command.append(VIRREY_BINARY).append("' validate '").append(games).append("' --output '");
  command.append(d).append("/valid.pgn' >&- 2>'").append(d).append("/err'");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_NE(testing::read_file(d + "/err").find("cannot write standard output"), std::string::npos)
      << testing::read_file(d + "/err");
  // The run failed on a write: the output file is kept as it was (none
  // here), and nothing of it is left beside.
  EXPECT_FALSE(std::filesystem::exists(d + "/valid.pgn"));
  for (const auto& e : std::filesystem::directory_iterator(d))
    EXPECT_EQ(e.path().filename().string().find("partial"), std::string::npos) << e.path();
  // With an open standard output the same run writes it, report apart.
  const RunResult again = run_virrey({"validate", games, "--output", d + "/valid.pgn"}, d);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(testing::read_file(d + "/valid.pgn").find(" games: "), std::string::npos);
  // A closed standard input is no empty input: reading it fails.
  std::string stdin_closed = "'";
  stdin_closed.append(VIRREY_BINARY).append("' validate <&- >/dev/null 2>&1");
  const int closed = std::system(stdin_closed.c_str());
  ASSERT_TRUE(WIFEXITED(closed));
  EXPECT_EQ(WEXITSTATUS(closed), 3);
}

// --output and --rejects under two names of one file: refused before
// anything is written (the rejected games would overwrite the valid ones).
TEST(CommandLine, OutputAndRejectsAreTwoFiles) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  const RunResult r =
      run_virrey({"validate", games, "--output", d + "/out.pgn", "--rejects", d + "/./out.pgn"}, d);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--output and --rejects name one file"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/out.pgn"));
}

// An import that stops on an input it cannot read still puts in place the
// rejects of the inputs it read: they are recorded as imported, and a second
// run, which skips them, keeps that file.
TEST(CommandLine, ImportKeepsTheRejectsOfWhatItReadWhenAnInputFails) {
  TempDir dir;
  const std::string d = dir.path();
  const std::string bad = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
  const std::string good = "[Event \"y\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";
  testing::write_file(d + "/in.pgn", bad + "\n" + good);
  testing::write_file(d + "/rejects.pgn", "before\n");
  const RunResult first = run_virrey(
      {"import", "--db", d + "/db", d + "/in.pgn", d + "/typo.pgn", "--rejects", d + "/rejects.pgn"}, d);
  EXPECT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.err.find("typo.pgn"), std::string::npos) << first.err;
  EXPECT_EQ(testing::read_file(d + "/rejects.pgn"), bad + "\n");
  const RunResult again =
      run_virrey({"import", "--db", d + "/db", d + "/in.pgn", "--rejects", d + "/rejects.pgn"}, d);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(testing::read_file(d + "/rejects.pgn"), bad + "\n");
  // Nothing rejected in what was read: the file before stays.
  testing::write_file(d + "/good.pgn", good + "\n[Event \"z\"]\n[Result \"*\"]\n\n1. c4 *\n");
  const RunResult none = run_virrey(
      {"import", "--db", d + "/db", d + "/good.pgn", d + "/typo.pgn", "--rejects", d + "/rejects.pgn"}, d);
  EXPECT_EQ(none.exit_code, 3) << none.err;
  EXPECT_EQ(testing::read_file(d + "/rejects.pgn"), bad + "\n");
  for (const auto& entry : std::filesystem::directory_iterator(d))
    EXPECT_EQ(entry.path().filename().string().find("rejects.pgn."), std::string::npos) << entry.path();
}

// An import none of whose inputs can be read makes no database (a mistyped
// path left an empty one behind); into a database that exists it reports
// as any import does.
TEST(CommandLine, AnImportOfNothingReadableMakesNoDatabase) {
  TempDir dir;
  const std::string d = dir.path();
  const RunResult typo = run_virrey({"import", d + "/no-such.pgn", d, "--db", d + "/typo.db"}, d);
  EXPECT_EQ(typo.exit_code, 3) << typo.err;
  EXPECT_NE(
      typo.err.find(d + "/no-such.pgn: error[io-error]: " + d + "/no-such.pgn: No such file or directory"),
      std::string::npos)
      << typo.err;
  EXPECT_NE(typo.err.find(d + ": error[io-error]: " + d + ": Is a directory"), std::string::npos) << typo.err;
  EXPECT_NE(typo.err.find("no input could be read: no database made at " + d + "/typo.db"), std::string::npos)
      << typo.err;
  EXPECT_NE(typo.out.find("0 games read"), std::string::npos) << typo.out;
  // The summary names no database that is not there.
  EXPECT_NE(typo.out.find("no database made\n"), std::string::npos) << typo.out;
  EXPECT_EQ(typo.out.find("typo.db"), std::string::npos) << typo.out;
  EXPECT_FALSE(std::filesystem::exists(d + "/typo.db"));
  // Nor does one whose inputs are files virrey cannot read as text: UTF-16,
  // or a compression it does not read.
  testing::write_file(d + "/u16.pgn", std::string("\xff\xfe[\0E\0", 6));
  testing::write_file(d + "/g.pgn.bz2", std::string("BZh91AY&SY\0\0", 12));
  const RunResult wide = run_virrey({"import", d + "/u16.pgn", d + "/g.pgn.bz2", "--db", d + "/wide.db"}, d);
  EXPECT_EQ(wide.exit_code, 3) << wide.err;
  EXPECT_NE(wide.err.find(d + "/u16.pgn: UTF-16 text"), std::string::npos) << wide.err;
  EXPECT_NE(wide.err.find(d + "/g.pgn.bz2: bzip2 data"), std::string::npos) << wide.err;
  EXPECT_NE(wide.err.find("no database made at " + d + "/wide.db"), std::string::npos) << wide.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/wide.db"));
  testing::write_file(d + "/g.pgn", "[Event \"y\"]\n[Result \"*\"]\n\n1. d4 d5 *\n");
  ASSERT_EQ(run_virrey({"import", d + "/g.pgn", "--db", d + "/real.db"}, d).exit_code, 0);
  const RunResult into = run_virrey({"import", d + "/no-such.pgn", "--db", d + "/real.db"}, d);
  EXPECT_EQ(into.exit_code, 3) << into.err;
  EXPECT_NE(into.out.find("0 games read"), std::string::npos) << into.out;
  // One readable input among them: the database is made.
  EXPECT_EQ(run_virrey({"import", d + "/no-such.pgn", d + "/g.pgn", "--db", d + "/new.db"}, d).exit_code, 3);
  EXPECT_TRUE(std::filesystem::exists(d + "/new.db"));
  // A named pipe is read as it is written, into a database yet to be made:
  // the check opens no pipe (which would end the writer).
  const std::string pipe = d + "/pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  const auto old_handler = std::signal(SIGPIPE, SIG_IGN);
  bool written = false;
  std::thread writer([&] {
    const int fd = ::open(pipe.c_str(), O_WRONLY);
    if (fd < 0) return;
    const std::string game = "[Event \"p\"]\n[Result \"*\"]\n\n1. e4 *\n";
    written = ::write(fd, game.data(), game.size()) == ssize_t(game.size());
    ::close(fd);
  });
  const RunResult piped = run_virrey({"import", pipe, "--db", d + "/piped.db"}, d);
  writer.join();
  std::signal(SIGPIPE, old_handler);
  EXPECT_TRUE(written);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_NE(piped.out.find("1 games read: 1 stored"), std::string::npos) << piped.out;
}

// `--rejects -`: the rejected games, byte for byte, on standard output and
// the report on standard error; with `-o -` too, refused; import refuses it
// (its summary is on standard output).
TEST(CommandLine, RejectsToStandardOutput) {
  TempDir dir;
  const std::string d = dir.path();
  const std::string bad = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";
  const std::string good = "[Event \"y\"]\n[Result \"*\"]\n\n1. d4 *\n";
  testing::write_file(d + "/in.pgn", good + "\n" + bad);
  const RunResult r = run_virrey({"validate", d + "/in.pgn", "--rejects", "-"}, d);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, bad + "\n");
  EXPECT_NE(r.err.find("2 games: 1 valid, 1 with errors"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/-"));
  const RunResult both = run_virrey({"validate", d + "/in.pgn", "-o", "-", "--rejects", "-"}, d);
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_TRUE(both.out.empty()) << both.out;
  const RunResult import = run_virrey({"import", d + "/in.pgn", "--db", d + "/db", "--rejects", "-"}, d);
  EXPECT_EQ(import.exit_code, 2) << import.err;
  EXPECT_NE(import.err.find("--rejects -"), std::string::npos) << import.err;
  EXPECT_FALSE(std::filesystem::exists(d + "/-"));
  EXPECT_FALSE(std::filesystem::exists(d + "/db"));
}

// A database whose parts are not all made yet: while a writer holds it (the
// first import, before its first commit) a reader is told to try again;
// with no writer, that its creation was interrupted.
TEST(CommandLine, ADatabaseBeingMadeIsToldFromAnInterruptedOne) {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  std::filesystem::create_directory(db);
  const int fd = ::open((db + "/LOCK").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  ASSERT_EQ(::fcntl(fd, F_SETLK, &fl), 0);
  const RunResult busy = run_virrey({"search", "--db", db, "--count"}, dir.path());
  EXPECT_EQ(busy.exit_code, 3);
  EXPECT_NE(busy.err.find("another process is making it"), std::string::npos) << busy.err;
  ::close(fd);  // the lock goes with it
  const RunResult killed = run_virrey({"search", "--db", db, "--count"}, dir.path());
  EXPECT_EQ(killed.exit_code, 3);
  EXPECT_NE(killed.err.find("its creation was interrupted: import or merge again"), std::string::npos)
      << killed.err;
}

// No control byte of an option's value or a path reaches the terminal, and
// a value of any length makes a message of bounded length.
TEST(CommandLine, MessagesEscapeControlBytesAndStayShort) {
  TempDir dir;
  const std::string d = dir.path(), games = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  ASSERT_EQ(run_virrey({"import", "--db", d + "/db", games}, d).exit_code, 0);
  const std::string esc = "\x1b[31mRED\x07";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"search", "--db", d + "/db", "--eco", esc},
                                             {"search", "--db", d + "/db", "--limit", esc},
                                             {"search", "--db", d + "/db", "--elo", esc},
                                             {"search", "--db", d + "/" + esc}}) {
    const RunResult r = run_virrey(args, d);
    EXPECT_GE(r.exit_code, 2) << args.back();
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x07'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\\x1b[31mRED\\x07"), std::string::npos) << r.err;
  }
  const std::string path = d + "/" + esc + ".pgn";
  std::filesystem::copy_file(games, path);
  const RunResult v = run_virrey({"validate", "--strict", path}, d);
  EXPECT_EQ(v.out.find('\x1b'), std::string::npos);
  const RunResult long_value =
      run_virrey({"search", "--db", d + "/db", "--pattern", std::string(20000, 'Q')}, d);
  EXPECT_EQ(long_value.exit_code, 2);
  EXPECT_LT(long_value.err.size(), 2200u) << long_value.err.size();
  EXPECT_NE(long_value.err.find("bytes)"), std::string::npos);
}

}  // namespace
}  // namespace virrey
