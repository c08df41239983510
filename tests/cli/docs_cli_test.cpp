// --version, `virrey completion` and the man page writer: what the install
// rules and the package are made from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey {
namespace {

using testing::run_virrey;
using testing::run_virrey_words;
using testing::RunResult;
using testing::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Docs, VersionIsTheProjectVersion) {
  // The one place the version is written: project() in CMakeLists.txt.
  std::smatch m;
  const std::string cmake = slurp(std::string(VIRREY_SOURCE_DIR) + "/CMakeLists.txt");
  ASSERT_TRUE(std::regex_search(cmake, m, std::regex(R"(project\(virrey VERSION ([0-9.]+))")));
  const RunResult r = run_virrey_words("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "virrey " + m[1].str() + "\n");
}

TEST(Docs, CompletionIsABashScript) {
  const RunResult r = run_virrey_words("completion bash");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("complete -F _virrey virrey\n"), std::string::npos);
  // The README's synopsis of search: --format text|pgn|json|jsonl|csv.
  EXPECT_NE(r.out.find("\"virrey_search --format\") words=\"text pgn json jsonl csv\""), std::string::npos);
  // stats players, with the engine options of analyse.
  EXPECT_NE(r.out.find("virrey_stats) subs=\"openings results promotions games endgames players merge\""),
            std::string::npos);
  EXPECT_NE(r.out.find("\"virrey_stats_players --protocol\") words=\"uci xboard\""), std::string::npos);
  EXPECT_EQ(run_virrey_words("completion").out, r.out);  // bash is the default
  EXPECT_EQ(run_virrey_words("completion fish").exit_code, 2);
}

// The script run by bash as a shell completes: a file name with spaces is
// one candidate; -q is offered after a command's name.
TEST(Docs, CompletionCompletesInBash) {
  TempDir dir;
  std::filesystem::create_directory(dir / "games with space");
  testing::write_file(dir / "script.bash", run_virrey_words("completion bash").out);
  testing::write_file(dir / "try.bash",
                      "source ./script.bash\n"
                      "COMP_WORDS=(virrey import games); COMP_CWORD=2; _virrey; "
                      "printf '[%s]\\n' \"${COMPREPLY[@]}\"\n"
                      "COMP_WORDS=(virrey import --qu); COMP_CWORD=2; _virrey; "
                      "printf '[%s]\\n' \"${COMPREPLY[@]}\"\n"
                      "COMP_WORDS=(virrey search --ending st); COMP_CWORD=3; _virrey; "
                      "printf '[%s]\\n' \"${COMPREPLY[@]}\"\n"
                      "COMP_WORDS=(virrey event --system d); COMP_CWORD=3; _virrey; "
                      "printf '[%s]\\n' \"${COMPREPLY[@]}\"\n");
  const std::string out = dir / "out";
  const std::string command = "cd '" + dir.path() + "' && bash try.bash > out 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << testing::read_file(out);
  EXPECT_EQ(testing::read_file(out), "[games with space]\n[--quiet]\n[stalemate]\n[double-round-robin]\n");
}

TEST(Docs, ManPagesForEveryCommand) {
  TempDir dir;
  const RunResult r =
      run_virrey({"write-man-pages", dir.path(), "--data-dir", "/opt/v/share/virrey"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* page :
       {"virrey", "virrey-perft", "virrey-validate", "virrey-generate", "virrey-search", "virrey-import",
        "virrey-export", "virrey-db", "virrey-stats", "virrey-completion"})
    EXPECT_TRUE(std::filesystem::exists(dir / (std::string(page) + ".1"))) << page;
  const std::string main = slurp(dir / "virrey.1");
  EXPECT_NE(main.find("/opt/v/share/virrey/sample\\-data"), std::string::npos);
  EXPECT_NE(main.find(".SH EXIT STATUS"), std::string::npos);
  EXPECT_NE(slurp(dir / "virrey-stats.1").find(".SS \"virrey stats players\""), std::string::npos);
  // Every page names the exit by a signal as `--help` does, and every
  // command's page virrey's -q and -v, which it takes after its name too.
  for (const char* page : {"virrey", "virrey-search", "virrey-completion"}) {
    const std::string text = slurp(dir / (std::string(page) + ".1"));
    EXPECT_NE(text.find("130 for Ctrl-C, 143 for SIGTERM, 141 when the reader"), std::string::npos) << page;
  }
  for (const char* page : {"virrey-search", "virrey-completion", "virrey-db"}) {
    const std::string text = slurp(dir / (std::string(page) + ".1"));
    EXPECT_NE(text.find("\\fB\\-\\-quiet\\fR\nonly errors on stderr (before or after the command's name)"),
              std::string::npos)
        << page;
    EXPECT_NE(text.find("\\fB\\-\\-verbose\\fR"), std::string::npos) << page;
  }
  // Options are written with the ASCII minus, so they copy back to a shell.
  EXPECT_NE(slurp(dir / "virrey-search.1").find("\\fB\\-\\-fail\\-empty\\fR"), std::string::npos);
  // The writer is hidden from the help; a missing folder is a usage error.
  EXPECT_EQ(run_virrey_words("--help").out.find("write-man-pages"), std::string::npos);
  EXPECT_EQ(run_virrey_words("write-man-pages /nonexistent/folder").exit_code, 2);
}

}  // namespace
}  // namespace virrey
