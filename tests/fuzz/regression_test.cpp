// Replays every saved fuzz input (the seed corpora and the inputs that once
// broke virrey) through the fuzz entries, in every test run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_entries.hpp"

namespace virrey::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class FuzzInputs : public ::testing::TestWithParam<const char*> {};

// A broken property aborts inside the entry; the file name printed just
// before tells which input it was.
TEST_P(FuzzInputs, ReplayWithoutFailure) {
  const std::string target = GetParam();
  const Entry entry = entry_by_name(target);
  ASSERT_NE(entry, nullptr);
  const fs::path root = fs::path(VIRREY_FUZZ_DIR);
  std::size_t replayed = 0;
  for (const char* kind : {"corpus", "regressions"}) {
    for (const fs::path& file : files_under(root / kind / target)) {
      std::fprintf(stderr, "replaying %s\n", file.c_str());
      const std::string bytes = read_bytes(file);
      entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0u) << "no saved inputs for " << target;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzInputs,
                         ::testing::Values("pgn_reader", "fen", "san", "import", "trf", "event_checks",
                                           "material_spec", "board_pattern", "engine_lines", "stats_partial",
                                           "square_index", "tag_value"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace virrey::fuzz
