// The opening explorer (stats_openings.hpp): the root from FEN and SAN, then
// a walk of the tree D plies deep, each position answered by the opening
// tree or by replaying the games that reach it.
#include "virrey/query/stats_openings.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/query/stats_results.hpp"
#include "virrey/rules/en_passant_forms.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/san_line.hpp"
#include "virrey/rules/uci.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_summary.hpp"

namespace virrey::query {

namespace {

using store::TreeCounters;
using store::TreeMove;

Error invalid(std::string message) { return Error{ErrorKind::InvalidArgument, std::move(message)}; }

// One game of the replay source: the hash before each main-line move.
struct Line {
  std::vector<std::uint64_t> hashes;
  std::vector<Move> moves;
  TreeCounters counters;
};

// Most played first, then by SAN; at most max_moves (0: all).
void order_moves(std::vector<OpeningMove>& moves, std::size_t max_moves) {
  std::sort(moves.begin(), moves.end(), [](const OpeningMove& a, const OpeningMove& b) {
    if (a.counters.games != b.counters.games) return a.counters.games > b.counters.games;
    return a.san < b.san;
  });
  if (max_moves > 0 && moves.size() > max_moves) moves.resize(max_moves);
}

void merge_moves(std::vector<OpeningMove>& into, const std::vector<OpeningMove>& from) {
  for (const OpeningMove& m : from) {
    auto it = std::find_if(into.begin(), into.end(), [&](const OpeningMove& x) { return x.move == m.move; });
    if (it == into.end()) {
      into.push_back(m);
      continue;
    }
    it->counters.add(m.counters);
    it->position_games += m.position_games;
    if (it->opening.empty()) it->opening = m.opening;
    merge_moves(it->children, m.children);
  }
}

void finish_moves(std::vector<OpeningMove>& moves, std::uint64_t min_games, std::size_t max_moves) {
  std::erase_if(moves, [&](const OpeningMove& m) { return m.counters.games < min_games; });
  order_moves(moves, max_moves);
  for (OpeningMove& m : moves) finish_moves(m.children, min_games, max_moves);
}

TreeCounters game_counters(const game::GameRecord& rec) {
  TreeCounters c;
  c.games = 1;
  c.white_wins = rec.result == GameResult::WhiteWins;
  c.draws = rec.result == GameResult::Draw;
  c.black_wins = rec.result == GameResult::BlackWins;
  c.white_elo_sum = store::parse_elo(rec.tag("WhiteElo"));
  c.white_elo_games = c.white_elo_sum != 0;
  c.black_elo_sum = store::parse_elo(rec.tag("BlackElo"));
  c.black_elo_games = c.black_elo_sum != 0;
  c.last_date = store::parse_date(rec.tag("Date"));
  return c;
}

// "D06 Queen's Gambit": what `db classify`'s ECO file calls a position; empty when nothing.
Result<std::string> position_name(const store::Database& db, Variant v, std::uint64_t hash) {
  auto named = db.named_position(v, hash);
  if (!named) return named.error();
  if (!*named) return std::string();
  return opening_group_key((*named)->eco, (*named)->name);
}

template <class G>
class Explorer {
 public:
  Explorer(const store::Database& db, const OpeningQuery& q, const GameScope& scope)
      : db_(db), q_(q), scope_(scope) {}

  // `guided`: reached by a guide's move this database has no game of.
  Status expand(const Position<G>& pos, int depth_left, std::vector<OpeningMove>& into, TreeCounters* total,
                const std::vector<OpeningMove>* guide = nullptr, bool guided = false) {
    const MoveList legal = legal_moves(pos);
    auto found = moves_from(pos, legal, guided);
    if (!found) return found.error();
    std::vector<OpeningMove> moves;
    for (const TreeMove& tm : *found) {
      if (std::find(legal.begin(), legal.end(), tm.move) == legal.end()) continue;  // a damaged record
      if (total) total->add(tm.counters);
      if (tm.counters.games < q_.min_games) continue;
      OpeningMove m;
      m.move = tm.move;
      m.san = write_san(pos, tm.move, legal);
      m.uci = write_uci<G>(tm.move);
      m.counters = tm.counters;
      auto name = position_name(db_, q_.variant, pos.after(tm.move).hash());
      if (!name) return name.error();
      m.opening = std::move(*name);
      moves.push_back(std::move(m));
    }
    order_moves(moves, q_.max_moves);
    // The guide's moves this database has no game of, with no games: below
    // them its games may reach a position by another order of moves.
    if (guide)
      for (const OpeningMove& g : *guide) {
        if (std::find(legal.begin(), legal.end(), g.move) == legal.end()) continue;
        if (std::any_of(moves.begin(), moves.end(), [&](const OpeningMove& m) { return m.move == g.move; }))
          continue;
        OpeningMove m;
        m.move = g.move;
        m.san = write_san(pos, g.move, legal);
        m.uci = write_uci<G>(g.move);
        moves.push_back(std::move(m));
      }
    if (depth_left > 1)
      for (OpeningMove& m : moves) {
        const std::vector<OpeningMove>* below = nullptr;
        if (guide)
          for (const OpeningMove& g : *guide)
            if (g.move == m.move) below = &g.children;
        TreeCounters after;
        // (A guide's move this database has no game of: none of its games reach there this way.)
        if (Status s =
                expand(pos.after(m.move), depth_left - 1, m.children, &after, below, m.counters.games == 0);
            !s)
          return s;
        m.position_games = after.games;
      }
    into = std::move(moves);
    return {};
  }

  // Positions looked up have at least this many men (the root's, less one
  // per ply below it that is expanded): a game is decoded no further than
  // that, since no move adds a man.
  void replay_down_to_men(int men) { min_men_ = std::max(men, 0); }

  std::uint64_t games_replayed() const { return lines_.size(); }
  bool used_tree() const { return used_tree_; }
  bool used_replay() const { return used_replay_; }

 private:
  // A position reached only by a guide's moves is looked up in the tree
  // alone (an unrestricted scope): replaying the index's strays there would
  // add decoded games, and a replay, that one database does not make.
  // The position is sought under the hash of each of its forms
  // (en_passant_forms.hpp: an en-passant right no legal capture can use is
  // no right).
  Result<std::vector<TreeMove>> moves_from(const Position<G>& pos, const MoveList& legal, bool guided) {
    if (!scope_.has_variant(q_.variant)) return std::vector<TreeMove>{};
    std::vector<std::uint64_t> hashes;
    for (const Position<G>& form : same_position_forms(pos)) hashes.push_back(form.hash());
    if (scope_.unrestricted()) {
      std::vector<TreeMove> tree;
      for (std::uint64_t hash : hashes) {
        auto found = db_.tree_moves(q_.variant, hash);
        if (!found) return found.error();
        for (const TreeMove& t : *found) add_move(tree, t.move, t.counters);
      }
      // A tree key holds part of the hash: drop what another position
      // sharing it would add (its moves are most unlikely to be legal
      // here); when nothing is left, the games answer.
      std::erase_if(tree, [&](const TreeMove& t) {
        return std::find(legal.begin(), legal.end(), t.move) == legal.end();
      });
      if (!tree.empty()) {
        used_tree_ = true;
        return tree;
      }
      if (guided) return tree;
    }
    return replay(hashes);
  }

  static void add_move(std::vector<TreeMove>& moves, Move m, const TreeCounters& counters) {
    auto it = std::find_if(moves.begin(), moves.end(), [&](const TreeMove& t) { return t.move == m; });
    if (it == moves.end())
      moves.push_back({m, counters});
    else
      it->counters.add(counters);
  }

  // The games of the scope that may reach the position: those the position
  // index names, or every game of a small scope when the index holds far
  // more entries than the scope has games (decoding a game costs about as
  // much as reading kEntriesPerGame index entries).
  Result<std::vector<GameId>> candidates(const std::vector<std::uint64_t>& hashes) {
    static constexpr std::size_t kEntriesPerGame = 100;
    const std::size_t cap =
        scope_.unrestricted() ? SIZE_MAX : std::max<std::size_t>(scope_.ids().size(), 1) * kEntriesPerGame;
    std::vector<GameId> games;
    std::size_t entries = 0;
    for (std::uint64_t hash : hashes) {
      Status s = db_.for_each_position(q_.variant, hash, [&](const store::PositionHit& hit) {
        if (++entries > cap) return false;
        if (scope_.contains(hit.game)) games.push_back(hit.game);
        return true;
      });
      if (!s) return s.error();
      if (entries > cap) return scope_.ids();
    }
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    return games;
  }

  Result<std::vector<TreeMove>> replay(const std::vector<std::uint64_t>& hashes) {
    auto games = candidates(hashes);
    if (!games) return games.error();
    std::vector<TreeMove> out;
    for (GameId id : *games) {
      auto line = game_line(id);
      if (!line) return line.error();
      const Line& l = **line;
      used_replay_ = true;
      std::vector<Move> played;  // distinct moves of this game from the position
      for (std::size_t i = 0; i < l.moves.size(); ++i)
        if (std::find(hashes.begin(), hashes.end(), l.hashes[i]) != hashes.end() &&
            std::find(played.begin(), played.end(), l.moves[i]) == played.end())
          played.push_back(l.moves[i]);
      for (Move m : played) add_move(out, m, l.counters);
    }
    return out;
  }

  Result<const Line*> game_line(GameId id) {
    if (auto it = lines_.find(id); it != lines_.end()) return &it->second;
    auto rec = db_.game(id, store::kDecodeTags | store::kDecodeMainLine, store::kWholeMainLine, min_men_);
    if (!rec) return rec.error();
    if (rec->variant != q_.variant) return &lines_.emplace(id, Line{}).first->second;  // never reaches it
    FenProblems errors;
    auto start = position_from_fen<G>(
        rec->start_fen.empty() ? info(rec->variant).start_fen : std::string_view(rec->start_fen),
        rec->variant, errors);
    if (!start) return Error{ErrorKind::Corrupt, fmt::format("game {}: bad start position", id)};
    Line line;
    line.counters = game_counters(*rec);
    line.moves = rec->main_line;
    line.hashes.reserve(line.moves.size());
    Position<G> pos = *start;
    for (Move m : line.moves) {
      line.hashes.push_back(pos.hash());
      pos.play(m);
    }
    return &lines_.emplace(id, std::move(line)).first->second;
  }

  const store::Database& db_;
  const OpeningQuery& q_;
  const GameScope& scope_;
  int min_men_ = 0;  // see replay_down_to_men
  std::unordered_map<GameId, Line> lines_;
  bool used_tree_ = false, used_replay_ = false;
};

template <class G>
Result<OpeningStats> explore(const store::Database& db, const OpeningQuery& q, const GameScope& scope) {
  OpeningStats out;
  out.variant = q.variant;
  FenProblems errors;
  const std::string_view fen = q.fen.empty() ? info(q.variant).start_fen : std::string_view(q.fen);
  auto root = position_from_fen<G>(fen, q.variant, errors);
  if (!root) return invalid(fmt::format("bad FEN: {}", join_reasons(errors)));
  Position<G> start = *root;
  // Modern chess: bishop swaps stay possible while the pieces stand unmoved,
  // so the swaps games played are listed (and may be named in --moves).
  start.enable_bishop_swap();
  std::string moves;  // every --moves argument, one line
  for (const std::string& text : q.moves) moves.append(text).push_back(' ');
  const SanLine<G> line = play_san_line(start, moves);
  if (const auto& p = line.problem) return invalid(fmt::format("bad SAN: {}: {}", p->label, p->message));
  for (std::size_t i = 0; i < line.moves.size(); ++i)
    out.line.push_back(write_san(line.positions[i], line.moves[i]));
  const Position<G>& pos = line.last();
  out.fen = write_fen(pos);
  out.side_to_move = pos.side_to_move();
  out.fullmove = pos.fullmove_number();
  auto name = position_name(db, q.variant, pos.hash());
  if (!name) return name.error();
  out.opening = std::move(*name);

  Explorer<G> explorer(db, q, scope);
  // Moves are looked up in the root and down to depth - 1 plies below it.
  explorer.replay_down_to_men(popcount(pos.occupied()) - (q.depth - 1));
  if (Status s = explorer.expand(pos, q.depth, out.moves, &out.total, q.guide); !s) return s.error();
  out.games_replayed = explorer.games_replayed();
  // A filter's games are always replayed (the tree counts every game), even
  // when none of them reaches the position.
  out.source = explorer.used_replay() || !scope.unrestricted()
                   ? (explorer.used_tree() ? OpeningSource::TreeAndReplay : OpeningSource::Replay)
                   : OpeningSource::Tree;
  return out;
}

}  // namespace

std::string_view opening_source_name(OpeningSource s) {
  switch (s) {
    case OpeningSource::Tree: return "tree";
    case OpeningSource::Replay: return "replay";
    case OpeningSource::TreeAndReplay: return "tree+replay";
  }
  return "tree";
}

Result<OpeningStats> opening_stats(const store::Database& db, const OpeningQuery& q, const GameScope& scope) {
  if (q.depth < 1 || q.depth > 20) return invalid(fmt::format("depth {} is out of range (1 to 20)", q.depth));
  return with_geometry(q.variant, [&](auto g) { return explore<decltype(g)>(db, q, scope); });
}

void merge_opening_stats(OpeningStats& into, const OpeningStats& from) {
  // A shard that gave no game and replayed none (one without games of the
  // variant) says nothing of where the counts come from.
  const auto gave_nothing = [](const OpeningStats& s) { return s.total.games == 0 && s.games_replayed == 0; };
  const bool into_nothing = gave_nothing(into), from_nothing = gave_nothing(from);
  into.total.add(from.total);
  merge_moves(into.moves, from.moves);
  into.games_replayed += from.games_replayed;
  if (from_nothing) return;
  if (into_nothing) {
    into.source = from.source;
    return;
  }
  const bool tree = into.source != OpeningSource::Replay || from.source != OpeningSource::Replay;
  const bool replay = into.source != OpeningSource::Tree || from.source != OpeningSource::Tree;
  into.source = replay ? (tree ? OpeningSource::TreeAndReplay : OpeningSource::Replay) : OpeningSource::Tree;
}

void finish_openings(OpeningStats& stats, std::uint64_t min_games, std::size_t max_moves) {
  finish_moves(stats.moves, min_games, max_moves);
}

std::optional<double> average_white_elo(const TreeCounters& c) {
  if (c.white_elo_games == 0) return std::nullopt;
  return double(c.white_elo_sum) / double(c.white_elo_games);
}

std::optional<double> average_black_elo(const TreeCounters& c) {
  if (c.black_elo_games == 0) return std::nullopt;
  return double(c.black_elo_sum) / double(c.black_elo_games);
}

std::optional<double> mover_score_percent(const TreeCounters& c, Color mover) {
  return mover == Color::White ? score_percent(c.white_wins, c.draws, c.black_wins)
                               : score_percent(c.black_wins, c.draws, c.white_wins);
}

}  // namespace virrey::query
