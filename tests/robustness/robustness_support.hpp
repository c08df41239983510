// What the robustness tests share: reading fields of virrey's JSON output
// and lines of a text (scratch directories and running the binary come from
// temp_dir.hpp and run_virrey.hpp).
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_virrey.hpp"

namespace virrey::robustness {

using Scratch = virrey::testing::TempDir;
using Outcome = virrey::testing::RunResult;
using virrey::testing::finish_virrey;
using virrey::testing::read_file;
using virrey::testing::run_virrey;
using virrey::testing::start_virrey;
using virrey::testing::write_file;

// The number after "field": in a JSON text, from `from` on (-1 when absent).
inline long long json_number(const std::string& json, const std::string& field, std::size_t from = 0) {
  const std::string key = "\"" + field + "\":";
  const auto at = json.find(key, from);
  if (at == std::string::npos) return -1;
  return std::atoll(json.c_str() + at + key.size());
}

// The string after "field": in a JSON text (empty when absent; escapes kept).
inline std::string json_text(const std::string& json, const std::string& field) {
  const std::string key = "\"" + field + "\":\"";
  const auto at = json.find(key);
  if (at == std::string::npos) return {};
  std::string out;
  for (std::size_t i = at + key.size(); i < json.size() && json[i] != '"'; ++i) {
    if (json[i] == '\\' && i + 1 < json.size()) out += json[i++];
    out += json[i];
  }
  return out;
}

// The lines of a text.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace virrey::robustness
