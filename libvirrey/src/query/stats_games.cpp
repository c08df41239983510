// Game statistics (stats_games.hpp): one pass over the game summaries.
#include "virrey/query/stats_games.hpp"

#include <algorithm>
#include <cmath>

namespace virrey::query {

void LengthDistribution::add(std::uint32_t plies) {
  if (plies >= by_ply_.size()) by_ply_.resize(plies + 1, 0);
  ++by_ply_[plies];
  ++games_;
  sum_ += plies;
}

void LengthDistribution::add(std::uint32_t plies, std::uint64_t games) {
  if (games == 0) return;
  if (plies >= by_ply_.size()) by_ply_.resize(plies + 1, 0);
  by_ply_[plies] += games;
  games_ += games;
  sum_ += std::uint64_t(plies) * games;
}

void LengthDistribution::add(const LengthDistribution& o) {
  if (o.by_ply_.size() > by_ply_.size()) by_ply_.resize(o.by_ply_.size(), 0);
  for (std::size_t i = 0; i < o.by_ply_.size(); ++i) by_ply_[i] += o.by_ply_[i];
  games_ += o.games_;
  sum_ += o.sum_;
}

std::uint32_t LengthDistribution::min() const {
  for (std::size_t i = 0; i < by_ply_.size(); ++i)
    if (by_ply_[i]) return std::uint32_t(i);
  return 0;
}

std::uint32_t LengthDistribution::max() const {
  for (std::size_t i = by_ply_.size(); i-- > 0;)
    if (by_ply_[i]) return std::uint32_t(i);
  return 0;
}

std::uint32_t LengthDistribution::quantile(double q) const {
  if (games_ == 0) return 0;
  const auto rank = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(q * double(games_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < by_ply_.size(); ++i) {
    seen += by_ply_[i];
    if (seen >= rank) return std::uint32_t(i);
  }
  return max();
}

std::uint32_t histogram_width(const LengthDistribution& d, std::uint32_t width, std::size_t max_bins) {
  if (width > 0) return width;
  const std::uint64_t span = std::uint64_t(d.max()) + 1;
  for (std::uint32_t w = 1;; w *= 10)
    for (std::uint32_t m : {1u, 2u, 5u})
      if ((span + w * m - 1) / (w * m) <= std::max<std::size_t>(max_bins, 1)) return w * m;
}

std::vector<LengthBin> length_histogram(const LengthDistribution& d, std::uint32_t width) {
  std::vector<LengthBin> out;
  if (d.games() == 0 || width == 0) return out;
  const std::uint32_t last = d.max();
  for (std::uint32_t from = d.min() / width * width; from <= last; from += width) {
    LengthBin b{from, from + width - 1, 0};
    for (std::uint32_t p = from; p <= b.to && p <= last; ++p) b.games += d.count(p);
    out.push_back(b);
  }
  return out;
}

std::string_view ending_name(store::Ending e) {
  switch (e) {
    case store::Ending::Checkmate: return "checkmate";
    case store::Ending::Stalemate: return "stalemate";
    case store::Ending::Other: break;
  }
  return "other";
}

std::uint64_t VariantGameStats::ending_count(store::Ending e) const {
  std::uint64_t n = 0;
  for (std::uint64_t c : endings[std::size_t(e)]) n += c;
  return n;
}

namespace {
void add_variant_stats(VariantGameStats& into, const VariantGameStats& from) {
  into.results.add(from.results);
  for (int e = 0; e < kEndingCount; ++e)
    for (int r = 0; r < 4; ++r) into.endings[e][r] += from.endings[e][r];
  into.lengths.add(from.lengths);
}
}  // namespace

void merge_game_stats(GameStats& into, const GameStats& from) {
  for (const VariantGameStats& v : from.variants) {
    add_variant_stats(variant_entry(into.variants, v.variant), v);
  }
  add_variant_stats(into.total, from.total);
}

Result<GameStats> game_stats(const store::Database& db, const GameScope& scope) {
  std::array<VariantGameStats, kVariantCount> per{};
  Status s = db.for_each_summary([&](GameId id, const store::GameSummary& g) {
    if (!scope.contains(id, g.variant)) return true;
    VariantGameStats& v = per[std::size_t(g.variant)];
    v.results.add(g.result, g.plies);
    ++v.endings[std::size_t(g.ending)][std::size_t(g.result)];
    v.lengths.add(g.plies);
    return true;
  });
  if (!s) return s.error();
  GameStats out;
  for (std::size_t i = 0; i < per.size(); ++i) {
    VariantGameStats& v = per[i];
    v.variant = Variant(i);
    if (v.results.games == 0) continue;
    add_variant_stats(out.total, v);
    out.variants.push_back(std::move(v));
  }
  return out;
}

}  // namespace virrey::query
