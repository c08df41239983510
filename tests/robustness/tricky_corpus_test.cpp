// Every file of ../shared/corpora/tricky through `virrey validate` and
// `virrey import` (into a new database each): no crash; the two commands
// agree with each other and with the documented exit codes (checked here,
// file by file); and the verdicts are those of
// tests/data/tricky-corpus.expected. That file is a regression record, not
// an independent truth: virrey's own verdicts, reviewed when taken over
// (the game counts are checked against pgn-extract and by hand in
// tests/pgn/corpus_test.cpp). With VIRREY_TRICKY_VERDICTS=DIR set, the
// verdicts found are also written to DIR, a file per corpus folder (to review
// and take over when virrey's reading changes on purpose).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "robustness_support.hpp"

namespace virrey::robustness {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(VIRREY_SOURCE_DIR) + "/../shared/corpora/tricky";
const std::string kExpected = std::string(VIRREY_TEST_DATA) + "/tricky-corpus.expected";

// `"codes":{"a":1,"b":2}` of a validate summary as "a=1,b=2", sorted by code
// ("-" when empty).
std::string codes_of(const std::string& summary) {
  const std::string key = "\"codes\":{";
  const auto at = summary.find(key);
  if (at == std::string::npos) return "?";
  const auto end = summary.find('}', at);
  std::map<std::string, long long> codes;
  std::size_t p = at + key.size();
  while (p < end) {
    const auto q = summary.find('"', p + 1);
    if (summary[p] != '"' || q == std::string::npos || q > end) break;
    const std::string code = summary.substr(p + 1, q - p - 1);
    codes[code] = std::atoll(summary.c_str() + q + 2);
    p = summary.find_first_of(",}", q);
    if (p == std::string::npos || p >= end) break;
    ++p;
  }
  std::string out;
  for (const auto& [code, n] : codes) out += (out.empty() ? "" : ",") + code + "=" + std::to_string(n);
  return out.empty() ? "-" : out;
}

// The verdict line of one file, in the layout of the expected file.
std::string verdict_of(const std::string& relative, Scratch& scratch) {
  const std::string file = kCorpus + "/" + relative;
  const Outcome v = run_virrey({"validate", "--format", "jsonl", "--threads", "2", file}, scratch.path());
  EXPECT_EQ(v.signal, 0) << relative;
  const auto lines = lines_of(v.out);
  const std::string summary = lines.empty() ? std::string() : lines.back();

  const std::string db = scratch / "tricky.db";
  std::error_code ec;
  fs::remove_all(db, ec);
  const Outcome i =
      run_virrey({"import", file, "--db", db, "--format", "json", "--threads", "2"}, scratch.path());
  EXPECT_EQ(i.signal, 0) << relative;

  // What holds whatever the verdicts: every game read is valid or has
  // errors; import reads the games validate reads, stores each valid one or
  // counts it a duplicate, rejects the others, and both exit 1 exactly when
  // a game has errors (README "Exit codes").
  const long long games = json_number(summary, "games"), valid = json_number(summary, "valid"),
                  with_errors = json_number(summary, "with_errors");
  EXPECT_EQ(games, valid + with_errors) << relative;
  EXPECT_EQ(json_number(i.out, "read"), games) << relative;
  EXPECT_EQ(json_number(i.out, "stored") + json_number(i.out, "duplicates"), valid) << relative;
  EXPECT_EQ(json_number(i.out, "rejected"), with_errors) << relative;
  EXPECT_EQ(v.exit_code, with_errors > 0 ? 1 : 0) << relative;
  EXPECT_EQ(i.exit_code, with_errors > 0 ? 1 : 0) << relative;

  std::ostringstream line;
  line << relative << ' ' << v.exit_code << ' ' << json_number(summary, "games") << ' '
       << json_number(summary, "valid") << ' ' << json_number(summary, "with_errors") << ' ' << i.exit_code
       << ' ' << json_number(i.out, "read") << ' ' << json_number(i.out, "stored") << ' '
       << json_number(i.out, "rejected") << ' ' << codes_of(summary);
  return line.str();
}

// The folders of the corpus (one test each, so that they can run in
// parallel); "-" when there is no corpus.
std::vector<std::string> folders() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCorpus, ec))
    if (e.is_directory()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back("-");
  return out;
}

class TrickyCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(TrickyCorpus, VerdictsAsExpected) {
  const std::string folder = GetParam();
  if (!fs::is_directory(kCorpus + "/" + folder)) GTEST_SKIP() << "no corpus at " << kCorpus;
  std::map<std::string, std::string> expected;  // file -> its whole line
  std::ifstream in(kExpected);
  ASSERT_TRUE(in) << kExpected;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || !line.starts_with(folder + "/")) continue;
    expected[line.substr(0, line.find(' '))] = line;
  }

  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(kCorpus + "/" + folder))
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), kCorpus).string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files.size(), expected.size()) << "files in " << folder << " and their lines in " << kExpected;

  Scratch scratch;
  std::string found;
  for (const std::string& file : files) {
    const std::string got = verdict_of(file, scratch);
    found += got + "\n";
    const auto it = expected.find(file);
    if (it == expected.end())
      ADD_FAILURE() << "no verdict for " << file << "; found:\n" << got;
    else
      EXPECT_EQ(got, it->second);
  }
  if (const char* dir = std::getenv("VIRREY_TRICKY_VERDICTS"))
    write_file(std::string(dir) + "/" + folder, found);
}

INSTANTIATE_TEST_SUITE_P(Folders, TrickyCorpus, ::testing::ValuesIn(folders()), [](const auto& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
});

}  // namespace
}  // namespace virrey::robustness
