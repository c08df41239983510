// Tournament checks: what no single game shows but the games of one event
// do together (a player booked twice in a round, a pairing repeated, a name
// spelled two ways, two ratings, rounds and boards, dates, unplayed results).
// Games are added one by one as they are read, each kept as a small summary
// (88 bytes, tag values interned and cut at 128 bytes; of the games of
// Round "-" of an event that names no round, a few); the findings come at
// the end, once every game of each event is known.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "virrey/game/game_record.hpp"
#include "virrey/pgn/location.hpp"
#include "virrey/validate/finding.hpp"

namespace virrey::tournament {

// A finding about one game of a tournament; `input` is the index of the
// game's input (as in SourceRef), the finding's line and column those of the
// game's first byte.
struct EventFinding {
  std::size_t input = 0;
  validate::Finding finding;
};

class EventChecks {
 public:
  EventChecks();
  ~EventChecks();
  EventChecks(EventChecks&&) noexcept;
  EventChecks& operator=(EventChecks&&) noexcept;

  // One game, in input order: its input's index, its number in the input and
  // where it starts.
  // `moves_cut_short`: its main line stopped at a move in error, so moves
  // were written beyond those the record holds.
  void add(std::size_t input, std::uint64_t number, pgn::Location start, const game::GameRecord& record,
           bool moves_cut_short = false);

  // The name messages give an input when they point from a game of one
  // input to a game of another ("game 3 of round1.pgn").
  void name_input(std::size_t input, std::string name);

  // The findings of every tournament of the games added, as warnings, in
  // input order (by input, game, then code and message).
  std::vector<EventFinding> findings() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace virrey::tournament
