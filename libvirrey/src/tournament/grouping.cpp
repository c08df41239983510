#include "virrey/tournament/grouping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace virrey::tournament {

namespace {

std::optional<int> read_rating(std::string_view text) {
  if (text.empty() || text.size() > 4) return std::nullopt;
  int v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < 1 || v > 4000) return std::nullopt;
  return v;
}

std::string first_tag(const game::GameRecord& r, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    std::string_view v = r.tag(n);
    if (!v.empty()) return std::string(v);
  }
  return {};
}

PlayerTags side_tags(const game::GameRecord& r, std::string_view side) {
  auto tag = [&](std::string_view suffix) { return std::string(side) + std::string(suffix); };
  PlayerTags p;
  p.name = std::string(r.tag(side));
  p.elo_text = std::string(r.tag(tag("Elo")));
  p.elo = read_rating(p.elo_text);
  p.title = std::string(r.tag(tag("Title")));
  p.federation = first_tag(r, {tag("Federation"), tag("Fed"), tag("Country")});
  p.fide_id = std::string(r.tag(tag("FideId")));
  p.team = std::string(r.tag(tag("Team")));
  return p;
}

// Union-find over small index sets.
struct Sets {
  std::vector<std::size_t> parent;
  explicit Sets(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), std::size_t{0}); }
  std::size_t find(std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(std::size_t a, std::size_t b) { parent[find(a)] = find(b); }
};

// Splits `games` by a tag's known values; a game with an unknown value joins
// the only known value when there is one, else they form their own part.
template <class Get>
std::vector<std::vector<std::size_t>> split_by(const std::vector<GameSummary>& all,
                                               const std::vector<std::size_t>& games, Get get) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::size_t>> parts;
  std::vector<std::size_t> unknown;
  for (std::size_t g : games) {
    const std::string& v = get(all[g]);
    if (unknown_tag_value(v)) {
      unknown.push_back(g);
      continue;
    }
    auto [it, fresh] = parts.try_emplace(v);
    if (fresh) order.push_back(v);
    it->second.push_back(g);
  }
  std::vector<std::vector<std::size_t>> out;
  if (parts.size() <= 1) {
    out.push_back(games);
    return out;
  }
  for (const auto& v : order) out.push_back(std::move(parts[v]));
  if (!unknown.empty()) out.push_back(std::move(unknown));
  return out;
}

// The value most of the games carry (the first seen among equals), or "".
template <class Get>
std::string common_value(const std::vector<GameSummary>& all, const std::vector<std::size_t>& games, Get get) {
  std::map<std::string, std::size_t> counts;
  std::vector<std::string> order;
  for (std::size_t g : games) {
    const std::string& v = get(all[g]);
    if (unknown_tag_value(v)) continue;
    if (counts[v]++ == 0) order.push_back(v);
  }
  std::string best;
  std::size_t best_count = 0;
  for (const auto& v : order) {
    if (counts[v] > best_count) {
      best = v;
      best_count = counts[v];
    }
  }
  return best;
}

// Site parts that share a player are one tournament (a Site that names each
// game, or a typo); the rest stay apart.
std::vector<std::vector<std::size_t>> merge_connected(const std::vector<GameSummary>& all,
                                                      std::vector<std::vector<std::size_t>> parts) {
  if (parts.size() <= 1) return parts;
  Sets sets(parts.size());
  std::map<std::string, std::size_t> seen;  // player -> part
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (std::size_t g : parts[p]) {
      for (const std::string* name : {&all[g].white.name, &all[g].black.name}) {
        auto [it, fresh] = seen.try_emplace(*name, p);
        if (!fresh) sets.join(p, it->second);
      }
    }
  }
  std::map<std::size_t, std::vector<std::size_t>> merged;
  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const std::size_t root = sets.find(p);
    auto& m = merged[root];
    if (m.empty()) order.push_back(root);
    m.insert(m.end(), parts[p].begin(), parts[p].end());
  }
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t root : order) {
    auto& m = merged[root];
    std::sort(m.begin(), m.end());
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

bool unknown_tag_value(std::string_view value) {
  if (value.empty()) return true;
  return std::all_of(value.begin(), value.end(), [](char c) { return c == '?' || c == '.'; });
}

GameSummary summarize(const game::GameRecord& r, SourceRef source) {
  GameSummary s;
  s.event = std::string(r.tag("Event"));
  s.site = std::string(r.tag("Site"));
  s.event_date = std::string(r.tag("EventDate"));
  s.date = std::string(r.tag("Date"));
  s.round_text = std::string(r.tag("Round"));
  s.round = s.round_text.empty() ? std::variant<RoundTag, RoundError>{RoundTag{}} : parse_round(s.round_text);
  s.white = side_tags(r, "White");
  s.black = side_tags(r, "Black");
  const auto tagged = parse_result(r.tag("Result"));
  s.result = tagged ? *tagged : r.result;
  s.plies = static_cast<std::uint32_t>(r.main_line.size());
  s.variant = r.variant;
  s.time_control = std::string(r.tag("TimeControl"));
  s.termination = std::string(r.tag("Termination"));
  s.event_type = std::string(r.tag("EventType"));
  s.event_rounds = std::string(r.tag("EventRounds"));
  s.event_country = std::string(r.tag("EventCountry"));
  s.arbiter = std::string(r.tag("Arbiter"));
  s.section = std::string(r.tag("Section"));
  s.stage = std::string(r.tag("Stage"));
  s.source = std::move(source);
  return s;
}

std::vector<GameGroup> group_by_event(const std::vector<GameSummary>& games) {
  // By Event, in the order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::size_t>> by_event;
  for (std::size_t i = 0; i < games.size(); ++i) {
    auto [it, fresh] = by_event.try_emplace(games[i].event);
    if (fresh) order.push_back(games[i].event);
    it->second.push_back(i);
  }
  std::vector<GameGroup> out;
  for (const auto& event : order) {
    for (auto& dated : split_by(games, by_event[event], [](const GameSummary& g) -> const std::string& {
           return g.event_date;
         })) {
      auto sited = merge_connected(
          games, split_by(games, dated, [](const GameSummary& g) -> const std::string& { return g.site; }));
      for (auto& part : sited) {
        GameGroup group;
        group.key.event = event;
        group.key.event_date = common_value(games, part, [](const GameSummary& g) -> const std::string& {
          return g.event_date;
        });
        group.key.site =
            common_value(games, part, [](const GameSummary& g) -> const std::string& { return g.site; });
        group.games = std::move(part);
        out.push_back(std::move(group));
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const GameGroup& a, const GameGroup& b) { return a.games.front() < b.games.front(); });
  return out;
}

}  // namespace virrey::tournament
