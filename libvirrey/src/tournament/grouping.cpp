#include "virrey/tournament/grouping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "calendar.hpp"
#include "text.hpp"

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

using Field = std::string_view GroupingKeys::*;

// Games of one Event name without an EventDate, played more than this many
// days apart, are two editions of the event (a collection holds "Ordix Open"
// of 2003 and of 2005 under one name); a league's rounds, weeks apart and
// two months over a winter break, stay one.
constexpr long kEditionGapDays = 120;

// Splits `games` by a tag's known values; a game with an unknown value joins
// the only known value when there is one, else they form their own part.
std::vector<std::vector<std::size_t>> split_by(const std::vector<GroupingKeys>& all,
                                               const std::vector<std::size_t>& games, Field field) {
  std::unordered_map<std::string_view, std::size_t> part_of;  // value -> index in `parts`
  std::vector<std::vector<std::size_t>> parts;                // in the order of first appearance
  std::vector<std::size_t> unknown;
  for (std::size_t g : games) {
    const std::string_view v = all[g].*field;
    if (unknown_tag_value(v)) {
      unknown.push_back(g);
      continue;
    }
    const auto [it, fresh] = part_of.try_emplace(v, parts.size());
    if (fresh) parts.emplace_back();
    parts[it->second].push_back(g);
  }
  if (parts.size() <= 1) return {games};
  if (!unknown.empty()) parts.push_back(std::move(unknown));
  return parts;
}

// The value most of the games carry (the first seen among equals), or "".
std::string common_value(const std::vector<GroupingKeys>& all, const std::vector<std::size_t>& games,
                         Field field) {
  std::unordered_map<std::string_view, std::size_t> counts;
  std::string_view best;
  std::size_t best_count = 0;
  for (std::size_t g : games) {
    const std::string_view v = all[g].*field;
    if (unknown_tag_value(v)) continue;
    ++counts[v];
  }
  // The first seen among equals: values visited in the order of first appearance.
  for (std::size_t g : games) {
    const std::string_view v = all[g].*field;
    if (unknown_tag_value(v)) continue;
    const auto it = counts.find(v);
    if (it->second > best_count) {
      best = v;
      best_count = it->second;
    }
    it->second = 0;  // visited
  }
  return std::string(best);
}

// Site parts that share a player are one tournament (a Site that names each
// game, or a typo); the rest stay apart.
std::vector<std::vector<std::size_t>> merge_connected(const std::vector<GroupingKeys>& all,
                                                      std::vector<std::vector<std::size_t>> parts) {
  if (parts.size() <= 1) return parts;
  Sets sets(parts.size());
  std::unordered_map<std::string_view, std::size_t> seen;  // player -> part
  for (std::size_t p = 0; p < parts.size(); ++p) {
    for (std::size_t g : parts[p]) {
      for (const std::string_view name : {all[g].white, all[g].black}) {
        auto [it, fresh] = seen.try_emplace(name, p);
        if (!fresh) sets.join(p, it->second);
      }
    }
  }
  std::vector<std::vector<std::size_t>> merged(parts.size());  // by root
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
  s.moves_unread = r.moves_unread;
  s.variant = r.variant;
  s.variant_unknown = variant_tag_unknown(r);
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

bool variant_tag_unknown(const game::GameRecord& r) {
  const std::string_view tag = r.tag("Variant");
  return names_a_variant(tag) && !resolve_variant(tag);
}

bool says_unplayed(std::string_view termination) {
  // "time forfeit" (PGN's loss on time) is a game played.
  if (holds_ignoring_case(termination, "time forfeit")) return false;
  for (std::string_view word : {"forfeit", "unplayed", "not played", "abandoned", "default", "bye"})
    if (holds_ignoring_case(termination, word)) return true;
  return false;
}

std::vector<std::string> split_label_suffixes(const std::vector<TournamentKey>& keys) {
  std::vector<std::string> out(keys.size());
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_event;  // in order
  for (std::size_t i = 0; i < keys.size(); ++i) by_event[keys[i].event].push_back(i);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::vector<std::size_t>& same = by_event[keys[i].event];  // the tournaments of this Event name
    if (same.size() < 2) continue;
    std::vector<std::size_t> kin;  // of its variant too
    for (std::size_t j : same)
      if (keys[j].variant == keys[i].variant) kin.push_back(j);
    // The variant when the name covers several, then what tells the
    // tournaments of this variant apart.
    if (kin.size() < same.size()) out[i] = " (" + std::string(info(keys[i].variant).name) + " chess)";
    if (kin.size() < 2) continue;
    const auto unique = [&](std::string TournamentKey::*field) {
      return !unknown_tag_value(keys[i].*field) && std::count_if(kin.begin(), kin.end(), [&](std::size_t j) {
                                                     return keys[j].*field == keys[i].*field;
                                                   }) == 1;
    };
    if (unique(&TournamentKey::event_date))
      out[i] += " of " + keys[i].event_date;
    else if (unique(&TournamentKey::site))
      out[i] += " at " + keys[i].site;
    else
      out[i] += " (" + std::to_string(std::find(kin.begin(), kin.end(), i) - kin.begin() + 1) + ")";
  }
  return out;
}

std::vector<GameGroup> group_by_event(const std::vector<GroupingKeys>& tagged) {
  std::vector<GroupingKeys> games = tagged;
  // A game of an unknown variant (an error of its own) is of its Event's
  // first game of a known variant: one mistyped Variant tag does not make a
  // tournament of its own, labelled by a fallback variant.
  std::unordered_map<std::string_view, Variant> known_variant;  // by Event
  for (const GroupingKeys& g : games)
    if (!g.variant_unknown) known_variant.try_emplace(g.event, g.variant);
  for (GroupingKeys& g : games)
    if (g.variant_unknown)
      if (const auto it = known_variant.find(g.event); it != known_variant.end()) g.variant = it->second;
  // By Event and variant, in the order of first appearance.
  std::map<std::pair<std::string_view, Variant>, std::size_t> event_of;  // -> index in `events`
  std::vector<std::vector<std::size_t>> events;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const auto [it, fresh] = event_of.try_emplace({games[i].event, games[i].variant}, events.size());
    if (fresh) events.emplace_back();
    events[it->second].push_back(i);
  }
  // An Event none of whose games has an EventDate: its editions, told by
  // the gaps between dates, stand for EventDates.
  std::vector<std::string> editions;
  editions.reserve(games.size());  // `games` holds views of them
  for (const auto& event_games : events) {
    if (std::any_of(event_games.begin(), event_games.end(),
                    [&](std::size_t i) { return !unknown_tag_value(games[i].event_date); }))
      continue;
    // Editions by the full dates: a new one where a date is that far past
    // the one before.
    std::vector<std::size_t> full, partial;
    for (std::size_t i : event_games)
      if (games[i].date) (games[i].date_last > games[i].date ? partial : full).push_back(i);
    std::stable_sort(full.begin(), full.end(),
                     [&](std::size_t a, std::size_t b) { return games[a].date < games[b].date; });
    struct Edition {
      long first, last;  // day numbers
      std::string_view label;
    };
    std::vector<Edition> dated;
    for (std::size_t i : full) {
      const long day = day_number(games[i].date);
      if (dated.empty() || day - dated.back().last > kEditionGapDays) {
        editions.push_back(date_text(games[i].date));
        dated.push_back({day, day, editions.back()});
      }
      dated.back().last = day;
      games[i].event_date = dated.back().label;
    }
    // A date of a month or a year alone joins the one edition it may be of
    // (its days within the gap of that edition's, of no other's); the rest
    // make editions of their own, where every day of one is that far from
    // every day of the one before. They never join two editions into one.
    std::vector<std::size_t> alone;
    for (std::size_t i : partial) {
      const long first = day_number(games[i].date), last = day_number(games[i].date_last);
      const Edition* only = nullptr;
      int within = 0;
      for (const Edition& e : dated)
        if (first <= e.last + kEditionGapDays && last >= e.first - kEditionGapDays) {
          only = &e;
          ++within;
        }
      if (within == 1)
        games[i].event_date = only->label;
      else
        alone.push_back(i);
    }
    std::stable_sort(alone.begin(), alone.end(),
                     [&](std::size_t a, std::size_t b) { return games[a].date < games[b].date; });
    std::vector<std::pair<std::size_t, std::string_view>> labelled;  // game, its edition
    std::vector<std::string_view> labels;
    long latest = 0;
    for (std::size_t i : alone) {
      const DateSpan span{games[i].date, games[i].date_last};
      const bool next = labels.empty() || day_number(span.first) - latest > kEditionGapDays;
      if (next) {
        editions.push_back(span_text(span));
        labels.push_back(editions.back());
      }
      latest = next ? day_number(span.last) : std::max(latest, day_number(span.last));
      labelled.push_back({i, labels.back()});
    }
    // (Games of one edition, all of partial dates, are left without one, as
    // a tournament of unknown EventDate.)
    if (dated.size() + labels.size() > 1)
      for (const auto& [i, label] : labelled) games[i].event_date = label;
  }
  std::vector<GameGroup> out;
  for (const auto& event_games : events) {
    const std::string_view event = games[event_games.front()].event;
    for (auto& dated : split_by(games, event_games, &GroupingKeys::event_date)) {
      for (auto& part : merge_connected(games, split_by(games, dated, &GroupingKeys::site))) {
        GameGroup group;
        group.key.event = std::string(event);
        group.key.variant = games[event_games.front()].variant;
        group.key.event_date = common_value(games, part, &GroupingKeys::event_date);
        group.key.site = common_value(games, part, &GroupingKeys::site);
        group.games = std::move(part);
        out.push_back(std::move(group));
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const GameGroup& a, const GameGroup& b) { return a.games.front() < b.games.front(); });
  return out;
}

std::vector<GameGroup> group_by_event(const std::vector<GameSummary>& games) {
  std::vector<GroupingKeys> keys;
  keys.reserve(games.size());
  for (const GameSummary& g : games) {
    const DateSpan span = date_span(g.date);
    keys.push_back(
        {g.event, g.site, g.event_date, g.white.name, g.black.name, g.variant, span.first, span.last});
    keys.back().variant_unknown = g.variant_unknown;
  }
  return group_by_event(keys);
}

}  // namespace virrey::tournament
