// What the robustness tests share: a scratch directory, files, running the
// virrey binary with its exit status and peak memory, and reading fields of
// its JSON output.
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

#include "../store/store_test_util.hpp"

namespace virrey::robustness {

// Scratch directories and files as the store tests have them.
using Scratch = store::test::TempDir;
using store::test::read_file;
using store::test::write_file;

struct Outcome {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that ended virrey, or 0
  long max_rss_kb = 0;
  std::string out, err;
};

// Starts `virrey ARGS...` with stdout and stderr to the given files (and
// stdin from `input` unless empty); returns its pid.
inline pid_t start_virrey(const std::vector<std::string>& args, const std::string& out,
                          const std::string& err, const std::string& input = {}) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int i = ::open(input.empty() ? "/dev/null" : input.c_str(), O_RDONLY);
    if (o < 0 || e < 0 || i < 0) ::_exit(126);
    ::dup2(o, 1);
    ::dup2(e, 2);
    ::dup2(i, 0);
    std::vector<char*> argv{const_cast<char*>(VIRREY_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(VIRREY_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits for a started virrey and reads what it wrote.
inline Outcome finish_virrey(pid_t pid, const std::string& out, const std::string& err) {
  Outcome r;
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) == pid) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.max_rss_kb = usage.ru_maxrss;
  }
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// Runs `virrey ARGS...` to its end; its output files go to `dir`.
inline Outcome run_virrey(const std::vector<std::string>& args, const std::string& dir,
                          const std::string& input = {}) {
  const std::string out = dir + "/.stdout", err = dir + "/.stderr";
  return finish_virrey(start_virrey(args, out, err, input), out, err);
}

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
