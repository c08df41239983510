// Helpers of the store tests: games checked from PGN text, games split and
// joined, numbers read from JSON; scratch directories and the virrey binary
// come from temp_dir.hpp and run_virrey.hpp.
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

#include "run_virrey.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::store::test {

using virrey::testing::PipedProcess;
using virrey::testing::read_file;
using virrey::testing::run_virrey_words;
using virrey::testing::RunResult;
using virrey::testing::spawn_virrey;
using virrey::testing::spawn_virrey_piped;
using virrey::testing::TempDir;
using virrey::testing::write_file;

// Bytes as lower-case hex digits: how golden keys and values are written.
inline std::string hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += std::string{digits[c >> 4], digits[c & 15]};
  return out;
}

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
  for (const auto& f : games[0].findings) EXPECT_NE(f.severity, validate::Severity::Error) << f.message;
  return std::move(games[0].record);
}

// A standard game of unknown event, players and date ("?" tags, result *).
inline game::GameRecord unknown_roster_record(const std::string& movetext) {
  return record_of(
      "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
      "[Black \"?\"]\n[Result \"*\"]\n\n" +
      movetext);
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
