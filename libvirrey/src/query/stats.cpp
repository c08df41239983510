#include "virrey/query/stats.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace virrey::query {

GameScope GameScope::everything(std::optional<Variant> variant) {
  GameScope s;
  s.variant_ = variant;
  return s;
}

GameScope GameScope::of_matches(const std::vector<GameMatch>& matches) {
  GameScope s;
  s.restricted_ = true;
  s.ids_.reserve(matches.size());
  for (const GameMatch& m : matches) {
    const GameId id = m.id;
    if (id / 64 >= s.bits_.size()) s.bits_.resize(id / 64 + 1 + s.bits_.size() / 2, 0);
    if (s.bits_[id / 64] >> (id % 64) & 1) continue;
    s.bits_[id / 64] |= std::uint64_t(1) << (id % 64);
    s.ids_.push_back(id);
    ++s.per_variant_[std::size_t(m.variant)];
  }
  std::sort(s.ids_.begin(), s.ids_.end());
  return s;
}

Result<GameScope> GameScope::from_filter(const store::Database& db, const GameFilter& filter) {
  // A variant alone is read from each index entry: no evaluation needed.
  TagConditions rest = filter.tags;
  rest.variant.reset();
  if (filter.positions.empty() && !filter.promotion && !filter.material && filter.features.empty() &&
      !filter.opening && !filter.pattern && rest.empty())
    return everything(filter.tags.variant);

  std::vector<GameMatch> matches;
  Status s = for_each_match(db, filter, [&](const GameMatch& m) {
    matches.push_back(m);
    return true;
  });
  if (!s) return s.error();
  GameScope scope = of_matches(matches);
  scope.variant_ = filter.tags.variant;
  return scope;
}

std::array<std::uint64_t, kVariantCount> GameScope::games(const store::Database& db) const {
  std::array<std::uint64_t, kVariantCount> out{};
  if (restricted_) {
    out = per_variant_;
  } else {
    const auto counts = db.counts();
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = counts[v].games;
  }
  for (std::size_t v = 0; v < out.size(); ++v)
    if (!has_variant(Variant(v))) out[v] = 0;
  return out;
}

void ResultCounts::add(const ResultCounts& o) {
  games += o.games;
  white_wins += o.white_wins;
  draws += o.draws;
  black_wins += o.black_wins;
  unfinished += o.unfinished;
  plies += o.plies;
}

Status game_results(const store::Database& db, const std::vector<GameId>& ids, std::vector<GameResult>& out) {
  out.assign(ids.size(), GameResult::Unknown);
  if (ids.empty()) return {};
  std::uint64_t total_games = 0;
  for (const auto& c : db.counts()) total_games += c.games;
  // Point reads when the games are few, else one pass over the summaries
  // from the first of them.
  if (ids.size() * 32 < total_games) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      auto s = db.summary(ids[i]);
      if (!s) return s.error();
      out[i] = s->result;
    }
    return {};
  }
  std::size_t i = 0;
  return db.for_each_summary(
      [&](GameId id, const store::GameSummary& s) {
        while (i < ids.size() && ids[i] < id) ++i;
        if (i == ids.size()) return false;
        if (ids[i] == id) out[i] = s.result;
        return true;
      },
      ids.front());
}

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * double(part) / double(whole);
}

double decisive_percent(const ResultCounts& c) { return percent(c.decisive(), c.finished()); }

double average_plies(const ResultCounts& c) { return c.games == 0 ? 0.0 : double(c.plies) / double(c.games); }

std::optional<double> score_percent(std::uint64_t wins, std::uint64_t draws, std::uint64_t losses) {
  const std::uint64_t n = wins + draws + losses;
  if (n == 0) return std::nullopt;
  return 100.0 * (double(wins) + 0.5 * double(draws)) / double(n);
}

std::string date_text(std::uint32_t d) {
  if (d == 0) return {};
  const std::uint32_t y = d / 10000, m = d / 100 % 100, day = d % 100;
  auto two = [](std::uint32_t v) { return v == 0 ? std::string("??") : fmt::format("{:02}", v); };
  return fmt::format("{:04}.{}.{}", y, two(m), two(day));
}

}  // namespace virrey::query
