// A tournament made of its games: players, rounds, every player's results
// round by round (played games, forfeits, byes, absences), the system the
// pairings show, and the standings with the tie-breaks of the FIDE Tie-Break
// Regulations (Handbook C.07).
//
// Unplayed rounds (C.07 art. 16, as virrey reads it): a forfeit (a game with
// a decisive result and no move), a bye (a game against "BYE") and an
// absence (no game in a round the others play) score what they say (absence
// 0) and are not games played. A round robin of an odd number of players
// leaves one of them without a game each round: that rest is no unplayed
// round, no game was due, and it counts in no tie-break. In the tie-breaks
// made of opponents' scores (Buchholz and its cuts, Sonneborn-Berger) an
// opponent counts with the points scored, except that rounds without an
// opponent after the opponent's last round played or won count as draws (in
// a round robin, as nothing); in a Swiss each of the player's unplayed
// rounds counts as a game against a dummy opponent whose score is the
// player's own, in a round robin a forfeit counts as a game played. The cuts
// drop a voluntarily unplayed round first. Koya counts the points against
// the opponents met who scored at least half. Average rating of opponents
// and performance count only games played.
//
// A round is a round number some game of the tournament names: a number no
// game names (a gap, or one far beyond the others) is no round, and nobody
// is absent from it. A game whose Round tag gives no number counts as a
// game played in a round not known: it spares each of its players one
// absence (the earliest round they have no game in) and makes none.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/types.hpp"
#include "virrey/tournament/grouping.hpp"

namespace virrey::tournament {

enum class System : std::uint8_t { RoundRobin, DoubleRoundRobin, Swiss, Knockout };
std::string_view system_name(System s);  // "round-robin", "double-round-robin", "swiss", "knockout"
std::optional<System> parse_system(std::string_view name);
// The system an EventType tag names: PGN's "tourn" (a round robin),
// "swiss", "k.o."/"ko", or a --system name ("rr", "round-robin", ...);
// none for other values ("match", "team-tourn", "simul", ...).
std::optional<System> system_of_event_type(std::string_view event_type);
// Where a tournament's system came from.
enum class SystemOrigin : std::uint8_t { Pairings, EventType, Given };
bool is_round_robin(System s);  // single or double

// What one player got in one entry of a round.
enum class EntryKind : std::uint8_t {
  Played,   // a game with moves and a result
  Forfeit,  // a result and no move (won or lost without play)
  Bye,      // a game against "BYE" (full, half or zero point bye)
  Absent,   // no game in the round
  Pending,  // a game with result "*": not counted
  Rest,     // a round robin's free round (an odd number of players): not counted
};
std::string_view entry_kind_name(EntryKind k);  // "played", "forfeit", ...

struct Entry {
  int round = 0;                 // the round's number; 0 when the Round tag does not say
  int sub_game = 0;              // the game of a match (Round "r.b.g"), else 0
  int opponent = -1;             // player index; -1 for a bye, an absence or a rest
  std::optional<Color> colour;   // none for a bye, an absence or a rest
  int half_points = 0;           // 0, 1 or 2
  EntryKind kind = EntryKind::Absent;
  std::size_t game = SIZE_MAX;   // index into Tournament::games, or SIZE_MAX
  int spares = 0;                // a game of no known round: the round it spares (none: 0)
  bool played() const { return kind == EntryKind::Played; }
  bool counted() const { return kind != EntryKind::Pending && kind != EntryKind::Rest; }
  // The round it counts in for tie-breaks: its own, the round a game of no
  // known round spares, else after every round.
  int effective_round() const { return round ? round : spares ? spares : INT_MAX; }
};

struct Player {
  std::string name;
  std::optional<int> rating;  // the rating tag most of the player's games carry
  std::string title;
  std::string federation;
  std::string fide_id;
  std::vector<Entry> entries;  // by round, then sub-game, round 0 last; absences included
  int half_points = 0;
  double points() const { return half_points / 2.0; }
  int games_played() const;
};

struct TournamentGame {
  std::size_t summary = 0;  // index into the summaries the tournament was made from
  int white = -1;           // player index; -1 for a bye
  int black = -1;
  int round = 0;
  int board = 0;
  int sub_game = 0;
  GameResult result = GameResult::Unknown;
  bool played = false;  // has moves
  std::uint32_t plies = 0;  // moves of the main line
  // Played, but one player never moved (a single ply): not rated (TRF's W, D, L).
  bool unrated() const { return played && plies < 2; }
};

// A FIDE id its games give to two names (one player, named as most of the
// id's games name it), or two FIDE ids given to one name (two players).
struct PlayerNameNote {
  std::size_t summary = 0;  // the game where `other` (`other_id`) is first met
  std::size_t first = 0;    // the first game of `name` with `fide_id`
  std::string fide_id;
  std::string name;
  std::string other;     // the id's other spelling, or ""
  std::string other_id;  // the name's other id, or ""
  std::string player;    // the name the id's player goes by (the spelling most of its games give)
};

struct Tournament {
  TournamentKey key;
  Variant variant = Variant::Standard;
  // No game names a variant virrey knows (each an unknown-variant error):
  // `variant` is a fallback, and the report says the variant is unknown.
  bool variant_unknown = false;
  System system = System::Swiss;
  SystemOrigin system_origin = SystemOrigin::Pairings;  // recognised, an EventType tag, or --system
  int rounds = 0;                  // how many rounds: round_numbers.size()
  std::vector<int> round_numbers;  // the round numbers its games name, ascending
  std::vector<Player> players;  // in the order first met
  std::vector<TournamentGame> games;
  std::vector<std::size_t> self_games;  // summaries of games of a player against themself: left out
  std::vector<PlayerNameNote> name_notes;  // in the order of the games they are met in
  // From the games' tags, for the reports.
  std::string first_date, last_date;  // "" when no game is dated
  std::vector<std::string> round_dates;  // [k]: the earliest date of round_numbers[k]'s games
  std::string time_control, arbiter, event_country, event_type;
  // More players × rounds than kMaxCrosstableCells: built without its
  // players' rounds (entries of the games only), for no report.
  bool too_large = false;
  int player_index(std::string_view name) const;  // -1 when absent
};

// The most players × rounds (in a round robin, players × players: the
// crosstable's columns) a tournament may have: every player has an entry in
// every round (an absence where no game), so that this bounds the memory and
// time of a report (about 1 GB at the bound, the text table the largest).
constexpr std::uint64_t kMaxCrosstableCells = 10'000'000;
// The most such cells the tournaments of one report may have in all: each
// tournament is built before the report is written.
constexpr std::uint64_t kMaxReportCells = 25'000'000;

// A tournament's players × rounds (a round robin: players × players), the
// cells of its crosstable.
std::uint64_t crosstable_cells(const Tournament& t);

// Whether two Event names (or player names) are the same but for case (every
// alphabet with case, as tag searches compare) and blanks.
bool same_event_name(std::string_view a, std::string_view b);

// Names that stand for no opponent: "BYE" (any case), "-", and a name not
// known ("", "?": PGN's unknown, which is no one player).
bool bye_name(std::string_view name);
// A side of a game that is no player: a bye name, where a name not known
// ("?", "") is one unless its FIDE id tag (`fide_id_tag`) gives an id.
bool no_player(std::string_view name, std::string_view fide_id_tag);

// The tournament made of the games of one group. `system`: as given, or
// recognised from the pairings when empty.
Tournament build_tournament(const std::vector<GameSummary>& summaries, const GameGroup& group,
                            std::optional<System> system = std::nullopt);

// The system the pairings show: round robins when every pair met once (or
// twice), knockout when each round's players are at most half of the last's,
// else Swiss. Two players: one match of sub-games in one round is a
// knockout, games over several rounds a double round robin.
System recognise_system(const Tournament& t);

// --- tie-breaks ----------------------------------------------------------------

enum class TieBreak : std::uint8_t {
  DirectEncounter,  // points among the tied players, when all met
  Wins,             // rounds won, with or without play (C.07 WIN)
  GamesWon,         // games won over the board (WON)
  BlackGames,       // games played with Black (BPG)
  SonnebornBerger,
  Koya,  // points against those with at least half the maximum
  Buchholz,
  BuchholzCut1,
  MedianBuchholz,  // Buchholz without the best and the worst
  Progressive,     // the sum of the running scores after each round (PS)
  AverageRating,   // of the opponents of games played (ARO)
  Performance,     // tournament performance rating (TPR)
  KnockoutStage,   // knockout: the round a player reached
};
constexpr int kTieBreakCount = 13;
std::string_view tie_break_name(TieBreak t);   // snake_case: "sonneborn_berger"
std::string_view tie_break_short(TieBreak t);  // column title: "SB"
std::optional<TieBreak> parse_tie_break(std::string_view name);  // snake_case or short, any case
// FIDE's recommended order for the system.
std::vector<TieBreak> default_tie_breaks(System s);

// The FIDE conversion table: the rating difference dp of a fractional score
// p (percent, 0..100).
int fide_dp(int percent);

struct Standing {
  int player = 0;  // index into Tournament::players
  int rank = 0;    // 1-based, shared when every criterion is equal
  std::vector<std::optional<double>> values;  // one per tie-break asked, none when it does not apply
  std::optional<int> performance;             // TPR, also when not a tie-break
  std::optional<int> average_rating;          // ARO
};

// Standings: points, then the tie-breaks in order.
std::vector<Standing> standings(const Tournament& t, const std::vector<TieBreak>& order);

// One tie-break for every player (DirectEncounter over all players with the
// same points).
std::vector<std::optional<double>> tie_break_values(const Tournament& t, TieBreak tb);

// --- knockout ------------------------------------------------------------------

// A knockout match: two players in one round, their games and score.
struct Match {
  int round = 0;
  int a = -1, b = -1;           // player indices (a met first)
  int a_half = 0, b_half = 0;   // half points each
  std::vector<std::size_t> games;  // indices into Tournament::games
  int winner = -1;                 // -1 when level and neither plays a later round
  // Level on points: the winner, if any, is the one who plays on.
  bool level() const { return a_half == b_half; }
};
std::vector<Match> knockout_matches(const Tournament& t);

}  // namespace virrey::tournament
