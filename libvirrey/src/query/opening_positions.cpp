#include "virrey/query/opening_positions.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::query {

namespace {

template <class G>
Result<Position<G>> root_position(const OpeningStats& s) {
  FenProblems problems;
  auto pos = position_from_fen<G>(s.fen, s.variant, problems);
  if (!pos)
    return Error{ErrorKind::InvalidArgument, fmt::format("the root {}: {}", s.fen, join_reasons(problems))};
  // As the explorer plays from its root: Modern chess's bishop swaps among the moves.
  pos->enable_bishop_swap();
  return *pos;
}

// Lists each position with its moves, and below it the positions its moves
// reach, as deep as any route to it leaves room for (a position met first by
// a longer route is expanded again when a shorter one reaches it).
template <class G>
void list(const Position<G>& pos, const std::vector<OpeningMove>& moves, int depth_left,
          OpeningPositions& out, std::unordered_map<std::uint64_t, int>& expanded) {
  auto [at, added] = out.positions.try_emplace(pos.hash());
  if (added)
    for (const OpeningMove& m : moves) {
      at->second.emplace_back(m.move, m.counters);
      if (!m.opening.empty()) out.names.try_emplace(pos.after(m.move).hash(), m.opening);
    }
  int& deepest = expanded[pos.hash()];
  if (!added && depth_left <= deepest) return;  // listed as deep before
  deepest = depth_left;
  if (depth_left > 1)
    for (const OpeningMove& m : moves) list(pos.after(m.move), m.children, depth_left - 1, out, expanded);
}

// The moves from `pos` into `into`; the games of the position (its moves summed).
template <class G>
Result<std::uint64_t> build(const OpeningPositions& in, const Position<G>& pos, int depth_left,
                            std::vector<OpeningMove>& into) {
  const auto at = in.positions.find(pos.hash());
  if (at == in.positions.end()) return std::uint64_t(0);
  const MoveList legal = legal_moves(pos);
  std::uint64_t games = 0;
  for (const auto& [move, counters] : at->second) {
    if (std::find(legal.begin(), legal.end(), move) == legal.end())
      return Error{ErrorKind::InvalidArgument, fmt::format("a move that is not legal in {}", write_fen(pos))};
    games += counters.games;
    OpeningMove m;
    m.move = move;
    m.san = write_san(pos, move, legal);
    m.uci = write_uci<G>(move);
    m.counters = counters;
    if (const auto name = in.names.find(pos.after(move).hash()); name != in.names.end())
      m.opening = name->second;
    if (depth_left > 1) {
      auto below = build(in, pos.after(move), depth_left - 1, m.children);
      if (!below) return below.error();
      m.position_games = *below;
    }
    into.push_back(std::move(m));
  }
  return games;
}

}  // namespace

Result<OpeningPositions> opening_positions(const OpeningStats& stats, int depth) {
  return with_geometry(stats.variant, [&](auto g) -> Result<OpeningPositions> {
    using G = decltype(g);
    auto root = root_position<G>(stats);
    if (!root) return root.error();
    OpeningPositions out;
    out.root = stats;
    out.root.moves.clear();
    out.depth = depth;
    std::unordered_map<std::uint64_t, int> expanded;
    list(*root, stats.moves, depth, out, expanded);
    return out;
  });
}

void merge_opening_positions(OpeningPositions& into, const OpeningPositions& from) {
  merge_opening_stats(into.root, from.root);
  // A name from the first shard that gives one (shards classified alike agree).
  if (into.root.opening.empty()) into.root.opening = from.root.opening;
  for (const auto& [hash, name] : from.names) into.names.try_emplace(hash, name);
  for (const auto& [hash, moves] : from.positions) {
    auto& mine = into.positions[hash];
    for (const auto& entry : moves) {
      const Move move = entry.first;
      auto it = std::find_if(mine.begin(), mine.end(), [&](const auto& x) { return x.first == move; });
      if (it == mine.end())
        mine.push_back(entry);
      else
        it->second.add(entry.second);
    }
  }
}

Result<OpeningStats> opening_tree(const OpeningPositions& in) {
  return with_geometry(in.root.variant, [&](auto g) -> Result<OpeningStats> {
    using G = decltype(g);
    auto root = root_position<G>(in.root);
    if (!root) return root.error();
    OpeningStats out = in.root;
    out.moves.clear();
    auto games = build(in, *root, in.depth, out.moves);
    if (!games) return games.error();
    return out;
  });
}

}  // namespace virrey::query
