// The opening explorer: the moves played from a position, with results,
// average Elo and the last date, transpositions merged (positions are keyed
// by their Zobrist hash, however a game reached them), as a tree D plies deep.
//
// Sources. Over every game (a scope restricted by variant at most) the
// counters come from the opening tree, one seek per position; the tree holds
// the moves of plies 0 .. tree_plies-1 of every game. A position the tree
// does not know (reached only later in games), and any scope restricted by a
// filter, is answered by replay instead: the position index names the games
// that reach the position (or, for a scope with far fewer games than the
// position has index entries, every game of the scope is a candidate), each
// candidate in scope is decoded and replayed once per query, and every
// main-line occurrence of the position counts (at any ply). Either way a game
// counts once per distinct move it played from the position. The 64-bit hash
// is not confirmed against the full position: a collision would merge two
// positions' moves (moves illegal in the position are dropped).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "virrey/query/stats.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::query {

struct OpeningMove;

struct OpeningQuery {
  Variant variant = Variant::Standard;
  std::string fen;                 // the root; empty: the variant's start position
  std::vector<std::string> moves;  // SAN played from there (move numbers are skipped)
  int depth = 1;                   // plies of the tree below the root (1..20)
  std::uint64_t min_games = 1;     // moves played in fewer games are left out
  std::size_t max_moves = 0;       // per position, the most played first (0: all)
  // Moves to follow beside this database's own: a merged explorer of other
  // shards (stats openings --expand), so that the positions their games
  // reach are looked up here too, where this database's games may reach
  // them by another order of moves. Followed moves this database has no
  // game of are listed with no games.
  const std::vector<OpeningMove>* guide = nullptr;
};

struct OpeningMove {
  Move move{};
  std::string san;  // in its position, with '+' / '#'
  std::string uci;
  store::TreeCounters counters;
  std::vector<OpeningMove> children;  // the position after it (depth > 1)
  // With children: the games of the position after it, its moves summed
  // (before min_games), over every route to it (transpositions too): what
  // the children's shares are of.
  std::uint64_t position_games = 0;
  // The name the ECO file of `db classify` gives the position after it
  // ("D06 Queen's Gambit"); empty when it names none.
  std::string opening;
};

enum class OpeningSource : std::uint8_t { Tree, Replay, TreeAndReplay };
std::string_view opening_source_name(OpeningSource s);  // "tree", "replay", "tree+replay"

struct OpeningStats {
  Variant variant = Variant::Standard;
  std::string fen;                // of the root
  std::vector<std::string> line;  // the query's moves as canonical SAN
  Color side_to_move = Color::White;
  int fullmove = 1;                // of the root
  store::TreeCounters total;       // the root's moves summed (before min_games)
  std::vector<OpeningMove> moves;  // by games, most first; then by SAN
  OpeningSource source = OpeningSource::Tree;
  std::uint64_t games_replayed = 0;  // games decoded for the replay source
  std::string opening;               // the root's name, as OpeningMove::opening
};

// InvalidArgument for a bad FEN, SAN move or depth; store errors otherwise.
Result<OpeningStats> opening_stats(const store::Database& db, const OpeningQuery& query,
                                   const GameScope& scope);

// Shards' explorers of one query made with min_games 1 and max_moves 0
// (every move, every move expanded): `from`'s counts added to `into`'s.
void merge_opening_stats(OpeningStats& into, const OpeningStats& from);
// Such an explorer as the query asks: moves played in fewer than min_games
// games left out, the most played first, at most max_moves per position.
void finish_openings(OpeningStats& stats, std::uint64_t min_games, std::size_t max_moves);

// Average Elo of one side over the games that carry one; nullopt without.
std::optional<double> average_white_elo(const store::TreeCounters& c);
std::optional<double> average_black_elo(const store::TreeCounters& c);
// Score in percent for the side that plays the move (White if `mover` is White).
std::optional<double> mover_score_percent(const store::TreeCounters& c, Color mover);

}  // namespace virrey::query
