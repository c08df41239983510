// What a tournament needs of one game (GameSummary, taken from a GameRecord:
// its tags, result, length and where it was read), and the grouping of games
// into tournaments by their Event tag, split by EventDate and Site where one
// name covers two tournaments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "virrey/base/game_result.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/pgn/location.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/tournament/round.hpp"

namespace virrey::tournament {

// Where a game was read: an input and the game's place in it, or a game of
// a database (file empty, number its id).
struct SourceRef {
  std::string file;        // the input's display name
  std::size_t input = 0;   // its index in the list of inputs
  std::uint64_t number = 0;  // the game's number in the input (1-based), or its id
  pgn::Location start;     // the game's first byte
};

// One side's tags.
struct PlayerTags {
  std::string name;          // White / Black
  std::optional<int> elo;    // WhiteElo when it reads as a rating (1..4000)
  std::string elo_text;      // WhiteElo as written ("" when absent)
  std::string title;         // WhiteTitle
  std::string federation;    // WhiteFederation, WhiteFed or WhiteCountry
  std::string fide_id;       // WhiteFideId
  std::string team;          // WhiteTeam
};

struct GameSummary {
  std::string event;       // Event
  std::string site;        // Site
  std::string event_date;  // EventDate
  std::string date;        // Date
  std::string round_text;  // Round as written
  std::variant<RoundTag, RoundError> round;  // Round as read ("" reads as Unknown)
  PlayerTags white;
  PlayerTags black;
  // The result: the Result tag when it reads, else the termination marker.
  GameResult result = GameResult::Unknown;
  std::uint32_t plies = 0;  // moves of the main line
  bool moves_unread = false;  // the movetext was not read (GameRecord::moves_unread)
  // A move in error ended the main line kept (CheckedGame::main_line_cut):
  // the game was played, for longer than `plies`.
  bool moves_cut_short = false;
  Variant variant = Variant::Standard;
  bool variant_unknown = false;  // as variant_tag_unknown
  // Tags a tournament report can use.
  std::string time_control;   // TimeControl
  std::string termination;    // Termination
  std::string event_type;     // EventType
  std::string event_rounds;   // EventRounds
  std::string event_country;  // EventCountry
  std::string arbiter;        // Arbiter
  std::string section;        // Section
  std::string stage;          // Stage
  SourceRef source;

  // The round as read, or nullptr when the tag does not read.
  const RoundTag* round_tag() const { return std::get_if<RoundTag>(&round); }
  // A game with a result and no move: a forfeit (or a bye written as a game).
  // A game whose moves were not read (an unknown variant), or were cut
  // short by a move in error, counts as played.
  bool unplayed() const { return plies == 0 && !moves_unread && !moves_cut_short; }
};

// The summary of one game; `source` says where it was read.
GameSummary summarize(const game::GameRecord& record, SourceRef source);

// Whether the game's Variant tag names a variant virrey does not know (an
// error of the game's): its variant is then only a fallback.
bool variant_tag_unknown(const game::GameRecord& record);

// Whether a Termination tag says the game was not played: it holds
// "forfeit" (not "time forfeit", a loss on time), "unplayed", "not played",
// "abandoned", "default" or "bye", in any case.
bool says_unplayed(std::string_view termination);

// "?", "" and dates made only of '?' and '.' are unknown values.
bool unknown_tag_value(std::string_view value);

// A tournament's identity: the Event tag and, when they split one name into
// several tournaments, EventDate and Site (else as most of its games say).
struct TournamentKey {
  std::string event;
  std::string site;
  std::string event_date;
  Variant variant = Variant::Standard;  // a tournament is of one variant
  friend bool operator==(const TournamentKey&, const TournamentKey&) = default;
};

// What tells each tournament from the others of `keys` with its Event name:
// " (Modern chess)" (its variant), else " of EventDate", else " at Site",
// else " (N)" (its place among them), each only when it tells them apart; ""
// for an Event no other tournament has.
std::vector<std::string> split_label_suffixes(const std::vector<TournamentKey>& keys);

// The games of one tournament, as indices into the summaries, in input order.
struct GameGroup {
  TournamentKey key;
  std::vector<std::size_t> games;
};

// Groups games by Event and variant (games of two variants under one Event
// name are two tournaments). One Event name is split by known EventDate values
// (two start dates are two tournaments), then by known Site values when the
// games of each Site share no player with the others. A game whose EventDate
// or Site is unknown joins the group of the only known value, if there is
// one. An Event name none of whose games has an EventDate is split where its
// games' dates are more than 120 days apart (editions of one event under one
// name, the first date of each standing for its EventDate). A date of a
// month or a year alone joins the one edition whose days it comes within
// 120 days of; the rest make editions of their own, told apart the same way
// (every day of one that far from every day of the one before), labelled
// "1997.??.??" or "1997.05.??" when the name has more than one edition.
// Groups come in the order of their first game.
std::vector<GameGroup> group_by_event(const std::vector<GameSummary>& games);

// What the grouping reads of one game: views of its tags.
struct GroupingKeys {
  std::string_view event;
  std::string_view site;
  std::string_view event_date;
  std::string_view white;
  std::string_view black;
  Variant variant = Variant::Standard;
  // The days the Date may stand for, as yyyymmdd: one day, a month
  // ("2024.05.??") or a year ("2024.??.??"); 0 and 0 when not known.
  std::uint32_t date = 0, date_last = 0;
  // Its Variant tag names no variant virrey knows (`variant` is then no
  // more than a fallback): it joins its Event's games of a known variant.
  bool variant_unknown = false;
};
// The same grouping, of games given by these tags alone.
std::vector<GameGroup> group_by_event(const std::vector<GroupingKeys>& games);

}  // namespace virrey::tournament
