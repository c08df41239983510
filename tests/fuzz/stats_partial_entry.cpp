// Fuzz entry: `virrey stats merge` over partial results (cli/stats_partial.hpp).
// Any files merge or are refused with exit 2, never anything else; a merge
// written as a partial is a fixed point: merged alone again, it gives the
// same bytes.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "virrey/base/log.hpp"

#include "exit_codes.hpp"
#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "stats_partial.hpp"

namespace virrey::fuzz {

namespace {

// A scratch directory for the process, made once.
const std::string& scratch() {
  static const std::string dir = [] {
    std::string d = "/tmp/virrey-fuzz-partial-XXXXXX";
    if (!::mkdtemp(d.data())) std::abort();
    return d;
  }();
  return dir;
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// run_stats_merge with its standard output in a file.
int merge(const std::vector<std::string>& files, cli::Format format, const std::string& out) {
  std::fflush(stdout);
  const int saved = ::dup(1);
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (saved < 0 || fd < 0) std::abort();
  ::dup2(fd, 1);
  ::close(fd);
  const int code = cli::run_stats_merge({files, format});
  std::fflush(stdout);
  ::dup2(saved, 1);
  ::close(saved);
  return code;
}

}  // namespace

void stats_partial(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  virrey::log::set_level(virrey::log::Level::off);
  constexpr cli::Format kFormats[] = {cli::Format::Text, cli::Format::Json, cli::Format::Csv,
                                      cli::Format::Partial};
  const cli::Format format = kFormats[data[0] % 4];
  // The rest: up to three partial files, separated by NUL bytes.
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> files;
  std::size_t start = 0;
  while (files.size() < 3) {
    const std::size_t end = std::min(rest.find('\0', start), rest.size());
    files.push_back(scratch() + "/in" + std::to_string(files.size()));
    write_file(files.back(), rest.substr(start, end - start));
    if (end == rest.size()) break;
    start = end + 1;
  }
  const std::string out = scratch() + "/out";
  const int code = merge(files, format, out);
  VIRREY_FUZZ_CHECK(code == cli::kExitOk || code == cli::kExitUsage,
                    "stats merge exits " + std::to_string(code) + " on readable files");
  if (code != cli::kExitOk || format != cli::Format::Partial) return;
  const std::string once = read_file(out);
  const std::string again_in = scratch() + "/again";
  write_file(again_in, once);
  const int again = merge({again_in}, cli::Format::Partial, out);
  VIRREY_FUZZ_CHECK(again == cli::kExitOk, "a merged partial does not merge again");
  VIRREY_FUZZ_CHECK(read_file(out) == once, "a merged partial is not a fixed point of the merge");
}

}  // namespace virrey::fuzz
