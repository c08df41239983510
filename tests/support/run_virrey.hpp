// Runs the virrey binary the build made, as a user would: the one way every
// end-to-end test starts it. Two forms: arguments as a list (no shell), and
// arguments as shell words written in one string (quotes, redirections).
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "temp_dir.hpp"

namespace virrey::testing {

struct RunResult {
  int exit_code = -1;  // -1 when ended by a signal
  int signal = 0;      // the signal that ended virrey, or 0
  long max_rss_kb = 0;
  std::string out, err;  // standard output and standard error
};

// In a forked child: becomes `virrey ARGS...`.
[[noreturn]] inline void exec_virrey(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(VIRREY_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(VIRREY_BINARY, argv.data());
  ::_exit(127);
}

// Starts `virrey ARGS...` with stdout and stderr to the given files (the
// same file for both is fine) and stdin from `input` (or /dev/null).
inline pid_t start_virrey(const std::vector<std::string>& args, const std::string& out,
                          const std::string& err, const std::string& input = {}) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = err == out ? ::dup(o) : ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int i = ::open(input.empty() ? "/dev/null" : input.c_str(), O_RDONLY);
    if (o < 0 || e < 0 || i < 0) ::_exit(126);
    ::dup2(o, 1);
    ::dup2(e, 2);
    ::dup2(i, 0);
    exec_virrey(args);
  }
  return pid;
}

// Waits for a started virrey and reads what it wrote.
inline RunResult finish_virrey(pid_t pid, const std::string& out, const std::string& err) {
  RunResult r;
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) == pid) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.max_rss_kb = usage.ru_maxrss;
  }
  r.out = read_file(out);
  r.err = err == out ? std::string() : read_file(err);
  return r;
}

// Runs `virrey ARGS...` to its end; its output files go to `dir`.
inline RunResult run_virrey(const std::vector<std::string>& args, const std::string& dir,
                            const std::string& input = {}) {
  const std::string out = dir + "/.stdout", err = dir + "/.stderr";
  return finish_virrey(start_virrey(args, out, err, input), out, err);
}

// Runs `PREFIX virrey WORDS` through the shell (WORDS as written on a command
// line); its output files go to `dir`, or to a directory of its own.
inline RunResult run_virrey_words(const std::string& words, const std::string& dir = {},
                                  const std::string& prefix = {}) {
  TempDir own;
  const std::string where = dir.empty() ? own.path() : dir;
  const std::string out = where + "/.stdout", err = where + "/.stderr";
  const std::string cmd =
      prefix + " '" + std::string(VIRREY_BINARY) + "' " + words + " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(cmd.c_str());
  RunResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// Starts `virrey ARGS...` in the background, stdout and stderr to `log`.
inline pid_t spawn_virrey(const std::vector<std::string>& args, const std::string& log) {
  return start_virrey(args, log, log);
}

// A background virrey reading its standard input from a pipe the test writes.
struct PipedProcess {
  pid_t pid = -1;
  int input = -1;
  bool write(const std::string& text) const {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(input, text.data() + done, text.size() - done);
      if (n <= 0) return false;
      done += std::size_t(n);
    }
    return true;
  }
  void close_input() {
    if (input >= 0) ::close(input);
    input = -1;
  }
};

inline PipedProcess spawn_virrey_piped(const std::vector<std::string>& args, const std::string& log) {
  std::signal(SIGPIPE, SIG_IGN);  // a killed child must not kill the test
  int fds[2];
  if (::pipe(fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[0], 0);
    ::close(fds[0]);
    ::close(fds[1]);
    const int o = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0) ::_exit(126);
    ::dup2(o, 1);
    ::dup2(o, 2);
    exec_virrey(args);
  }
  ::close(fds[0]);
  return {pid, fds[1]};
}

}  // namespace virrey::testing
