// Checks one game's text: parses it, replays every move of the main line and
// of every variation with the rules engine, checks tags and the result, and
// returns the findings with the game as a GameRecord.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "virrey/game/game_record.hpp"
#include "virrey/game/main_line_trace.hpp"
#include "virrey/pgn/game_parser.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/validate/finding.hpp"

namespace virrey::validate {

struct CheckOptions {
  // The variant of games without a Variant tag.
  Variant default_variant = Variant::Standard;
  // Fill GameRecord::movetext with canonical SAN, comments, NAGs and
  // variations (for writing or storing the game); main_line is always filled.
  bool build_movetext = true;
  // With build_movetext, each move item also gets its canonical SAN as text
  // (what the PGN writer prints). The store encodes moves, not their text,
  // and writes the SAN again when it decodes a game: import leaves it out.
  bool move_san = true;
  // Without move_san: false leaves movetext empty for a game whose movetext
  // is its main line alone (no comment, NAG or variation), which then says
  // all there is to store; import checks most games this way.
  bool plain_movetext = true;
  // Findings kept per game: past this many, one more finding says that the
  // rest are not listed, and they are dropped (has_error / has_warning still
  // tell whether the game has any).
  std::uint32_t max_findings = 1000;
  // Fill CheckedGame::trace while replaying the main line (what the store
  // needs of it, so that import does not replay the game again).
  bool trace_main_line = false;
  // Also warn about notation that PGN export format does not allow (castling
  // with zeros, over-disambiguated SAN, a check or mate without its mark,
  // move numbers out of sequence, lines over 255 characters): for files that
  // must be submitted in the standard's form. The games stay valid.
  bool notation = false;
};

struct CheckedGame {
  game::GameRecord record;
  std::vector<Finding> findings;
  bool has_error = false;
  bool has_warning = false;
  // Identity of the game for duplicate detection: variant, start position,
  // main line and the Seven Tag Roster.
  std::uint64_t identity = 0;
  // With CheckOptions::trace_main_line: complete when the whole main line
  // was replayed (a game whose main line broke has an error).
  game::MainLineTrace trace;

  // An error ended the main line kept before the text's: at a move, or
  // before moves that follow (stray characters): the game was played, longer
  // than its record says. An error in a variation leaves it false.
  bool main_line_cut = false;
  // Back to a default game, keeping the buffers of its lists.
  void clear();
};

class GameChecker {
 public:
  explicit GameChecker(CheckOptions options = {});
  ~GameChecker();
  GameChecker(GameChecker&&) noexcept;

  // `number` is the game's 1-based number in its file, `start` the location
  // of text[0] in the file. Reusable, not shareable between threads.
  CheckedGame check(std::string_view text, std::uint64_t number, pgn::Location start);
  // The same, into `out`, whose buffers are used again (checking many games
  // into a few CheckedGames allocates little).
  void check(std::string_view text, std::uint64_t number, pgn::Location start, CheckedGame& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace virrey::validate
