// The command line as a whole: each subcommand is reached with and without
// the global flags before it, and the help lists every subcommand.
#include <gtest/gtest.h>

#include <string>

#include "run_virrey.hpp"

namespace virrey {
namespace {

using testing::run_virrey_words;
using testing::RunResult;

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
}

TEST(CommandLine, UnknownSubcommandOrNoneIsAUsageError) {
  EXPECT_EQ(run_virrey_words("nosuch").exit_code, 2);
  EXPECT_EQ(run_virrey_words("").exit_code, 2);
  EXPECT_EQ(run_virrey_words("-q").exit_code, 2);
  EXPECT_EQ(run_virrey_words("Perft --startpos --depth 1").exit_code, 2);
}

}  // namespace
}  // namespace virrey
