// Runs the virrey binary the build made, as a user would from a shell.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace virrey {

struct RunResult {
  int exit_code = -1;
  std::string out;  // standard output
};

// Runs the virrey binary with arguments (shell words); stderr is discarded.
inline RunResult run_virrey(const std::string& args) {
  const std::string command = std::string("'") + VIRREY_BINARY + "' " + args + " 2>/dev/null";
  RunResult r;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 65536> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace virrey
