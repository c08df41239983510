// Endgame statistics (stats_endgames.hpp): the postings of every balance
// with at most N men from the material index, keeping each game's earliest;
// then the results of those games from their summaries. Without the index,
// one replay of each game of the scope.
#include "virrey/query/stats_endgames.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/game/main_line_trace.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::query {

namespace {

constexpr std::uint32_t kNever = std::numeric_limits<std::uint32_t>::max();

// A game's balance where it first has at most N men.
struct FirstBalance {
  std::uint64_t material = 0;
  std::uint32_t ply = kNever;
  Variant variant = Variant::Standard;
};

using Tallies = std::array<std::map<std::uint64_t, ResultCounts>, kVariantCount>;

// From the material index: for every balance of at most `men` men, the games
// of the scope that reach it; each game keeps the one it reaches first.
Status firsts_from_index(const store::Database& db, const GameScope& scope, int men,
                         std::vector<FirstBalance>& firsts) {
  for (std::size_t vi = 0; vi < std::size_t(kVariantCount); ++vi) {
    const auto v = Variant(vi);
    if (!scope.has_variant(v)) continue;
    std::vector<std::uint64_t> balances;
    Status s = db.for_each_material(v, [&](std::uint64_t key) {
      if (Material(key).men() <= men) balances.push_back(key);
      return true;
    });
    if (!s) return s;
    for (const std::uint64_t key : balances) {
      s = db.for_each_material_game(v, key, [&](const store::MaterialHit& h) {
        if (!scope.contains(h.game)) return true;
        if (h.game >= firsts.size()) firsts.resize(std::max<std::size_t>(h.game + 1, firsts.size() * 3 / 2));
        FirstBalance& f = firsts[h.game];
        if (h.first_ply < f.ply) f = {key, h.first_ply, v};
        return true;
      });
      if (!s) return s;
    }
  }
  return {};
}

// The results of the games found, tallied by variant and balance.
Status tally_firsts(const store::Database& db, const std::vector<FirstBalance>& firsts, Tallies& out) {
  std::vector<GameId> ids;
  for (std::size_t id = 0; id < firsts.size(); ++id)
    if (firsts[id].ply != kNever) ids.push_back(GameId(id));
  std::vector<GameResult> results;
  if (Status s = game_results(db, ids, results); !s) return s;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const FirstBalance& f = firsts[ids[i]];
    out[std::size_t(f.variant)][f.material].add(results[i], 0);
  }
  return {};
}

// By replay: each game of the scope's balances, as the import traces them.
Status tally_by_replay(const store::Database& db, const GameScope& scope, int men, Tallies& out) {
  game::MainLineTrace trace;
  Status bad;
  Status s = db.for_each_game(
      [&](GameId id, const game::GameRecord& rec) {
        if (!scope.contains(id, rec.variant)) return true;
        trace.clear();
        if (Status t = store::trace_main_line(rec, trace, false); !t) {
          bad = Error{ErrorKind::Corrupt, fmt::format("game {}: {}", id, t.error().message)};
          return false;
        }
        for (const game::TracedMaterial& m : trace.materials)
          if (m.material.men() <= men) {
            out[std::size_t(rec.variant)][m.material.key()].add(rec.result, 0);
            break;
          }
        return true;
      },
      store::kDecodeMainLine);
  return s ? bad : s;
}

}  // namespace

ResultCounts VariantEndgames::total() const {
  ResultCounts c;
  for (const EndgameRow& r : rows) c.add(r.results);
  return c;
}

void sort_endgame_rows(std::vector<EndgameRow>& rows) {
  std::vector<std::pair<std::string, EndgameRow>> keyed;
  keyed.reserve(rows.size());
  for (const EndgameRow& r : rows) keyed.emplace_back(r.material.to_string(), r);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.second.results.games != b.second.results.games ? a.second.results.games > b.second.results.games
                                                            : a.first < b.first;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = keyed[i].second;
}

std::optional<double> white_score_percent(const ResultCounts& c) {
  return score_percent(c.white_wins, c.draws, c.black_wins);
}

Result<EndgameStats> endgame_stats(const store::Database& db, const GameScope& scope, int men) {
  if (men < 2)
    return Error{ErrorKind::InvalidArgument, fmt::format("{} men: a position has at least 2", men)};
  EndgameStats out;
  out.men = men;
  Tallies tallies;
  if (db.has_material_index()) {
    std::vector<FirstBalance> firsts;
    if (Status s = firsts_from_index(db, scope, men, firsts); !s) return s.error();
    if (Status s = tally_firsts(db, firsts, tallies); !s) return s.error();
  } else {
    out.source = EndgameSource::Replay;
    if (Status s = tally_by_replay(db, scope, men, tallies); !s) return s.error();
  }
  const auto in_scope = scope.games(db);
  for (std::size_t vi = 0; vi < std::size_t(kVariantCount); ++vi) {
    if (in_scope[vi] == 0 && tallies[vi].empty()) continue;
    VariantEndgames v;
    v.variant = Variant(vi);
    v.games = in_scope[vi];
    for (const auto& [key, counts] : tallies[vi]) {
      v.rows.push_back({Material(key), counts});
      v.reached += counts.games;
    }
    sort_endgame_rows(v.rows);
    out.variants.push_back(std::move(v));
  }
  return out;
}

void merge_endgame_stats(EndgameStats& into, const EndgameStats& from) {
  for (const VariantEndgames& v : from.variants) {
    VariantEndgames& m = variant_entry(into.variants, v.variant);
    m.games += v.games;
    m.reached += v.reached;
    std::unordered_map<std::uint64_t, std::size_t> row_of;
    for (std::size_t i = 0; i < m.rows.size(); ++i) row_of.emplace(m.rows[i].material.key(), i);
    for (const EndgameRow& r : v.rows) {
      const auto [at, fresh] = row_of.emplace(r.material.key(), m.rows.size());
      if (fresh)
        m.rows.push_back(r);
      else
        m.rows[at->second].results.add(r.results);
    }
    sort_endgame_rows(m.rows);
  }
  if (from.source == EndgameSource::Replay) into.source = EndgameSource::Replay;
}

}  // namespace virrey::query
