// FIDE Tournament Report File (TRF-16, Handbook C.04 Annex 2): written from a
// tournament, and read from an arbiter's file to be compared with the games.
//
// A player line (001) is laid out in fixed columns (1-based, counted in
// characters, so that UTF-8 names keep the columns):
//   1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name
//   49-52 rating   54-56 federation   58-68 FIDE id   70-79 birth date
//   81-84 points ("11.5")   86-89 rank
// then from column 92 one block of 10 per round: 92-95 the opponent's
// starting rank, right-aligned (0000: none), 97 colour (w, b, -), 99 result: 1 = 0 (played),
// + - (forfeit won, lost), W D L (won, drawn, lost unrated: fewer than two
// moves), H F U Z (half, full, pairing-allocated, zero-point bye).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/tournament/event.hpp"

namespace virrey::tournament {

// The TRF of a tournament with its standings: header lines 012, 022, 032,
// 042, 052, 062, 072, 092, 102, 122, 132 as the tags fill them, and one 001
// line per player in starting rank order (by rating, FIDE title, name). `name`
// goes in 012 (the Event when empty): what tells the tournament from
// another of the file with its Event name.
std::string write_trf(const Tournament& t, const std::vector<Standing>& standings,
                      std::string_view name = {});

// Why a tournament does not fit TRF-16's columns, or nothing when it does:
// starting ranks (and opponents) have four columns, so at most 9,999
// players; points have four ("99.5"), so under 100 each; and players ×
// round blocks past kMaxCrosstableCells make a file too large to write.
std::optional<std::string> trf_misfit(const Tournament& t);

// The starting ranks write_trf gives: [player] = 1-based rank.
std::vector<int> starting_ranks(const Tournament& t);

struct TrfRound {
  int opponent = 0;  // starting rank, 0 for none
  char colour = ' ';  // 'w', 'b', '-' or ' '
  char result = ' ';
  bool unreadable = false;  // a field did not read (a problem of the file): not compared
};

struct TrfPlayer {
  std::uint64_t line = 0;  // in the file
  int number = 0;          // starting rank
  std::string name;
  int rating = 0;  // 0 when columns 49-52 hold none
  std::string fide_id;  // columns 58-68, "" when they hold none
  double points = 0;
  bool has_points = false;  // columns 81-84 hold points
  int rank = 0;
  std::vector<TrfRound> rounds;
};

struct TrfProblem {
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  std::string message;
};

struct TrfFile {
  std::string name;  // 012
  std::vector<TrfPlayer> players;
  std::vector<TrfProblem> problems;  // lines that do not read
};

// Reads a TRF. Lines other than 001 and 012 are skipped; an unreadable 001
// line is a problem, and reading goes on.
TrfFile read_trf(std::string_view text);
// A TRF of several tournaments (as `virrey event --format trf` writes one per
// event): a file per section, a section's 012 line beginning the next one
// once the section has its name.
std::vector<TrfFile> read_trf_sections(std::string_view text);

// A disagreement between a TRF and the games.
struct TrfDisagreement {
  enum class Code : std::uint8_t {
    UnknownPlayer,  // a TRF player with no game, or a player of the games missing from the TRF
    MissingGame,    // a pairing on one side and not on the other
    Opponent,       // another opponent in the round
    Colour,         // another colour
    Result,         // another result
    Points,         // another total of points (columns 81-84)
    Rating,         // another rating than the games' (columns 49-52)
  };
  Code code = Code::MissingGame;
  std::uint64_t line = 0;        // in the TRF (0: none)
  std::size_t game = SIZE_MAX;   // index into Tournament::games, or SIZE_MAX
  int round = 0;
  std::string message;
  std::uint64_t column = 0;  // of the field concerned in the TRF (0: the line's)
};
std::string_view trf_code_name(TrfDisagreement::Code c);  // "trf-missing-game", ...

// Every disagreement of the TRF with the games, players matched by name
// (ignoring case, spaces and punctuation).
std::vector<TrfDisagreement> compare_trf(const Tournament& t, const TrfFile& trf);

}  // namespace virrey::tournament
