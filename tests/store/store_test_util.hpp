// Helpers of the store tests: temporary directories, games checked from PGN
// text, and running the virrey binary.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::store::test {

// A directory removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "virrey-store-test-XXXXXX").string();
    if (!::mkdtemp(templ.data())) std::abort();
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Every game of a PGN text, checked with these options.
inline std::vector<validate::CheckedGame> check_pgn_with(const std::string& text,
                                                         const validate::CheckOptions& options) {
  importers::MemorySource source(text, "test");
  pgn::GameSplitter splitter(source);
  validate::GameChecker checker(options);
  std::vector<validate::CheckedGame> out;
  for (;;) {
    const pgn::GameItem item = splitter.next();
    if (item.kind == pgn::ItemKind::End) break;
    if (item.kind != pgn::ItemKind::Game) continue;
    out.push_back(checker.check(item.text, item.number, item.start));
  }
  return out;
}

// Every game of a PGN text, checked with movetext.
inline std::vector<validate::CheckedGame> check_pgn(const std::string& text,
                                                    Variant default_variant = Variant::Standard) {
  validate::CheckOptions options;
  options.default_variant = default_variant;
  return check_pgn_with(text, options);
}

// The one game of a PGN text, which must be free of errors.
inline game::GameRecord record_of(const std::string& text, Variant default_variant = Variant::Standard) {
  auto games = check_pgn(text, default_variant);
  EXPECT_EQ(games.size(), 1u);
  if (games.empty()) return {};
  for (const auto& f : games[0].findings)
    EXPECT_NE(f.severity, validate::Severity::Error) << f.message;
  return std::move(games[0].record);
}

// A standard game of unknown event, players and date ("?" tags, result *).
inline game::GameRecord unknown_roster_record(const std::string& movetext) {
  return record_of("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
                   "[Black \"?\"]\n[Result \"*\"]\n\n" + movetext);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
}

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs `virrey ARGS` through the shell; ARGS are shell words as written.
inline RunResult run_virrey(const std::string& args, const std::string& dir, const std::string& prefix = "") {
  RunResult r;
  const std::string out = dir + "/.stdout", err = dir + "/.stderr";
  const std::string cmd = prefix + " " + std::string(VIRREY_BINARY) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// In a forked child: output to `log`, then becomes `virrey ARGS...`.
[[noreturn]] inline void exec_virrey(const std::vector<std::string>& args, const std::string& log) {
  std::FILE* f = std::freopen(log.c_str(), "w", stdout);
  if (f) ::dup2(::fileno(stdout), 2);
  std::vector<char*> argv{const_cast<char*>(VIRREY_BINARY)};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(VIRREY_BINARY, argv.data());
  ::_exit(127);
}

// Starts `virrey ARGS...` in the background, output to `log`; returns its pid.
inline pid_t spawn_virrey(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid == 0) exec_virrey(args, log);
  return pid;
}

// A running `virrey ARGS...` whose standard input is a pipe the test writes.
struct PipedProcess {
  pid_t pid = -1;
  int input = -1;  // write end of the child's stdin; -1 once closed

  // Writes all of `text` (false when the child has gone).
  bool write(const std::string& text) {
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
    exec_virrey(args, log);
  }
  ::close(fds[0]);
  return {pid, fds[1]};
}

// The games of a PGN text, each with its tags and movetext.
inline std::vector<std::string> split_games(const std::string& text) {
  std::vector<std::string> games;
  std::size_t start = 0;
  for (;;) {
    const std::size_t next = text.find("\n[Event ", start + 1);
    if (next == std::string::npos) break;
    games.push_back(text.substr(start, next + 1 - start));
    start = next + 1;
  }
  if (start < text.size()) games.push_back(text.substr(start));
  return games;
}

// Games [from, to) of `games`, joined.
inline std::string join_games(const std::vector<std::string>& games, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to && i < games.size(); ++i) out += games[i];
  return out;
}

// The number after "field": in a JSON text (-1 when absent).
inline long long json_number(const std::string& json, const std::string& field) {
  const auto at = json.find("\"" + field + "\":");
  if (at == std::string::npos) return -1;
  return std::atoll(json.c_str() + at + field.size() + 3);
}

// A few hand-made games: annotations, variations, a set-up position, Virrey
// viceroys (one mates), a promoted piece that is captured, transpositions.
inline const char* kSampleGames = R"PGN([Event "Store test"]
[Site "Lima"]
[Date "2024.05.01"]
[Round "1"]
[White "Pérez, Ana"]
[Black "Quispe, Luis"]
[Result "1/2-1/2"]
[WhiteElo "2100"]
[BlackElo "1900"]
[ECO "C60"]

{Before the first move} 1. e4 {best by test} e5 $1 2. Nf3 (2. f4 exf4 (2... d5
3. exd5) 3. Nf3) 2... Nc6 $14 {a comment} 3. Bb5 a6 1/2-1/2

[Event "Store test"]
[Site "Cusco"]
[Date "2024.05.02"]
[Round "2"]
[White "Quispe, Luis"]
[Black "Pérez, Ana"]
[Result "0-1"]

1. Nf3 Nc6 2. e4 e5 3. Bc4 Bc5 0-1

[Event "Virrey open"]
[Site "Lima"]
[Date "2024.06.??"]
[Round "3"]
[White "Mamani, Rosa"]
[Black "Perez, Ana"]
[Result "1-0"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "k7/4P2p/1K6/8/8/8/8/8 w - - 0 1"]

1. e8=V h6 2. Vd7 h5 3. Vc7 h4 4. Vb7# 1-0

[Event "Promotion test"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "*"]
[SetUp "1"]
[FEN "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"]

1. a8=Q Rxa8 2. Kd2 *

[Event "Black starts"]
[Site "?"]
[Date "2023.01.01"]
[Round "?"]
[White "C"]
[Black "D"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12"]

12... Kd7 13. e4 {push} (13. e3 Kd6) 13... Ke6 *

)PGN";

}  // namespace virrey::store::test
