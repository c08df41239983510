// Promotion statistics (stats_promotions.hpp): one pass over the promotion
// index, then the results of the games with a viceroy from their summaries.
#include "virrey/query/stats_promotions.hpp"

#include <algorithm>
#include <tuple>

#include "virrey/store/game_index.hpp"

namespace virrey::query {

namespace {

struct ViceroyHit {
  GameId game;
  std::uint32_t ply;
  Color colour;
  Variant variant;
};

struct Tally {
  std::array<std::array<std::array<PromotionCell, 9>, 2>, kPieceTypeCount> cube{};
};

}  // namespace

std::uint64_t VariantPromotions::by_piece(PieceType p, std::optional<Color> c) const {
  std::uint64_t n = 0;
  for (const PromotionCell& cell : cells)
    if (cell.piece == p && (!c || cell.colour == *c)) n += cell.count;
  return n;
}

std::uint64_t VariantPromotions::by_file(int file, std::optional<Color> c) const {
  std::uint64_t n = 0;
  for (const PromotionCell& cell : cells)
    if (cell.file == file && (!c || cell.colour == *c)) n += cell.count;
  return n;
}

std::uint64_t VariantPromotions::by_colour(Color c) const {
  std::uint64_t n = 0;
  for (const PromotionCell& cell : cells)
    if (cell.colour == c) n += cell.count;
  return n;
}

std::vector<PieceType> VariantPromotions::pieces() const {
  std::vector<PieceType> out;
  for (const PromotionCell& cell : cells)
    if (std::find(out.begin(), out.end(), cell.piece) == out.end()) out.push_back(cell.piece);
  std::sort(out.begin(), out.end());
  return out;
}

int VariantPromotions::files() const { return info(variant).width; }

Result<PromotionStats> promotion_stats(const store::Database& db, const GameScope& scope) {
  std::array<Tally, kVariantCount> tallies{};
  std::array<VariantPromotions, kVariantCount> per{};
  std::vector<std::uint16_t> per_game;  // promotions per game id
  std::vector<ViceroyHit> viceroys;

  store::PromotionFilter filter;
  filter.variant = scope.variant();
  Status s = db.for_each_promotion(filter, [&](const store::PromotionHit& h) {
    if (!scope.contains(h.game, h.variant) || h.file < 0 || h.file >= 9) return true;
    VariantPromotions& v = per[std::size_t(h.variant)];
    PromotionCell& cell = tallies[std::size_t(h.variant)].cube[index(h.piece)][index(h.colour)][h.file];
    ++cell.count;
    cell.captured_later += (h.flags & store::kCapturedLater) != 0;
    cell.gave_mate += (h.flags & store::kGaveMate) != 0;
    ++v.promotions;
    if (h.game >= per_game.size())
      per_game.resize(std::max<std::size_t>(h.game + 1, per_game.size() * 3 / 2), 0);
    std::uint16_t& n = per_game[h.game];
    if (n == 0) ++v.games_with_promotion;
    if (n < 0xffff) ++n;
    v.max_in_game = std::max<std::uint64_t>(v.max_in_game, n);
    if (h.piece == PieceType::Viceroy) viceroys.push_back({h.game, h.ply, h.colour, h.variant});
    return true;
  });
  if (!s) return s.error();

  // Viceroys game by game: count, first ply, who made the first.
  std::sort(viceroys.begin(), viceroys.end(), [](const ViceroyHit& a, const ViceroyHit& b) {
    return a.game != b.game ? a.game < b.game : a.ply < b.ply;
  });
  std::vector<GameId> games;
  std::vector<const ViceroyHit*> firsts;
  for (std::size_t i = 0; i < viceroys.size();) {
    std::size_t j = i;
    while (j < viceroys.size() && viceroys[j].game == viceroys[i].game) ++j;
    const ViceroyHit& first = viceroys[i];
    ViceroyStats& v = per[std::size_t(first.variant)].viceroy;
    ++v.games;
    v.promotions += j - i;
    if (j - i > v.max_in_game) {
      v.max_in_game = j - i;
      v.max_game = first.game;
    }
    v.first_ply_sum += first.ply;
    (first.colour == Color::White ? v.first_by_white : v.first_by_black)++;
    games.push_back(first.game);
    firsts.push_back(&first);
    i = j;
  }
  std::vector<GameResult> results;
  if (Status r = game_results(db, games, results); !r) return r.error();
  for (std::size_t k = 0; k < games.size(); ++k) {
    ViceroyStats& v = per[std::size_t(firsts[k]->variant)].viceroy;
    const Color side = firsts[k]->colour;
    const GameResult win = side == Color::White ? GameResult::WhiteWins : GameResult::BlackWins;
    const GameResult loss = side == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
    if (results[k] == win)
      ++v.first_wins;
    else if (results[k] == loss)
      ++v.first_losses;
    else if (results[k] == GameResult::Draw)
      ++v.first_draws;
    else
      ++v.first_unfinished;
  }

  PromotionStats out;
  const auto in_scope = scope.games(db);
  for (std::size_t vi = 0; vi < std::size_t(kVariantCount); ++vi) {
    VariantPromotions& v = per[vi];
    v.variant = Variant(vi);
    v.games = in_scope[vi];
    if (v.games == 0 && v.promotions == 0) continue;
    for (int p = 0; p < kPieceTypeCount; ++p)
      for (int c = 0; c < 2; ++c)
        for (int f = 0; f < 9; ++f) {
          PromotionCell cell = tallies[vi].cube[p][c][f];
          if (cell.count == 0) continue;
          cell.piece = PieceType(p);
          cell.colour = Color(c);
          cell.file = f;
          if (cell.piece == PieceType::Viceroy) {
            v.viceroy.captured_later += cell.captured_later;
            v.viceroy.gave_mate += cell.gave_mate;
          }
          v.cells.push_back(cell);
        }
    out.variants.push_back(std::move(v));
  }
  return out;
}

void merge_promotion_stats(PromotionStats& into, const PromotionStats& from, GameId id_shift) {
  for (const VariantPromotions& v : from.variants) {
    VariantPromotions& m = variant_entry(into.variants, v.variant);
    m.games += v.games;
    m.promotions += v.promotions;
    m.games_with_promotion += v.games_with_promotion;
    m.max_in_game = std::max(m.max_in_game, v.max_in_game);
    for (const PromotionCell& c : v.cells) {
      const auto key = [](const PromotionCell& x) { return std::tuple(x.piece, x.colour, x.file); };
      auto at =
          std::lower_bound(m.cells.begin(), m.cells.end(), c,
                           [&](const PromotionCell& a, const PromotionCell& b) { return key(a) < key(b); });
      if (at == m.cells.end() || key(*at) != key(c)) {
        PromotionCell zero = c;
        zero.count = zero.captured_later = zero.gave_mate = 0;
        at = m.cells.insert(at, zero);
      }
      at->count += c.count;
      at->captured_later += c.captured_later;
      at->gave_mate += c.gave_mate;
    }
    ViceroyStats& a = m.viceroy;
    const ViceroyStats& b = v.viceroy;
    // The first game with the most: an earlier shard's wins a tie.
    if (b.max_in_game > a.max_in_game) {
      a.max_in_game = b.max_in_game;
      a.max_game = b.max_game + id_shift;
    }
    a.promotions += b.promotions;
    a.games += b.games;
    a.first_ply_sum += b.first_ply_sum;
    a.captured_later += b.captured_later;
    a.gave_mate += b.gave_mate;
    a.first_by_white += b.first_by_white;
    a.first_by_black += b.first_by_black;
    a.first_wins += b.first_wins;
    a.first_draws += b.first_draws;
    a.first_losses += b.first_losses;
    a.first_unfinished += b.first_unfinished;
  }
}

double average_first_viceroy_ply(const ViceroyStats& v) {
  return v.games == 0 ? 0.0 : double(v.first_ply_sum) / double(v.games);
}

std::optional<double> first_viceroy_score_percent(const ViceroyStats& v) {
  return score_percent(v.first_wins, v.first_draws, v.first_losses);
}

}  // namespace virrey::query
