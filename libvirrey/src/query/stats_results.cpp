// Result statistics (stats_results.hpp): one pass over the game summaries,
// and for tag groupings one pass over that tag's index entries, joined by
// game id.
#include "virrey/query/stats_results.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/query/game_filter.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::query {

namespace {

using store::GameSummary;
using store::TagField;

// Per game id: 0 = not in scope, else plies << 3 | result << 1 | 1.
class GameTable {
 public:
  void put(GameId id, GameResult result, std::uint32_t plies) {
    if (id >= cells_.size()) cells_.resize(std::max<std::size_t>(id + 1, cells_.size() * 3 / 2), 0);
    cells_[id] = plies << 3 | std::uint32_t(result) << 1 | 1;
  }
  bool has(GameId id) const { return id < cells_.size() && (cells_[id] & 1); }
  GameResult result(GameId id) const { return GameResult(cells_[id] >> 1 & 3); }
  std::uint32_t plies(GameId id) const { return cells_[id] >> 3; }
  std::size_t size() const { return cells_.size(); }

 private:
  std::vector<std::uint32_t> cells_;
};

using Group = ResultPartialGroup;

class Groups {
 public:
  // The group of a key; its label is taken from its first game (the
  // lowest id) of the first pass that met it, whatever the order of keys.
  Group& at(std::string_view key, GameId game) {
    if (!current_ || current_->key != key) {
      auto [it, added] = index_.try_emplace(std::string(key), groups_.size());
      if (added) {
        Group g;
        g.key = std::string(key);
        g.first_pass = pass_;
        g.first_game = game;
        groups_.push_back(std::move(g));
      }
      current_ = &groups_[it->second];
    }
    if (current_->first_pass == pass_ && game < current_->first_game) current_->first_game = game;
    return *current_;
  }
  std::size_t index_of(const Group& g) const { return std::size_t(&g - groups_.data()); }
  void reset_cursor() { current_ = nullptr; }
  void next_pass() { ++pass_; }
  std::vector<Group>& all() { return groups_; }

 private:
  std::vector<Group> groups_;
  std::uint32_t pass_ = 0;
  std::unordered_map<std::string, std::size_t> index_;
  Group* current_ = nullptr;
};

void add_player_game(Group& g, Color side, GameResult result) {
  (side == Color::White ? g.player.as_white : g.player.as_black)++;
  const GameResult win = side == Color::White ? GameResult::WhiteWins : GameResult::BlackWins;
  const GameResult loss = side == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
  if (result == win)
    ++g.player.wins;
  else if (result == loss)
    ++g.player.losses;
  else if (result == GameResult::Draw)
    ++g.player.draws;
  else
    ++g.player.unfinished;
}

// An ECO group's code from its key (the tag index's lower case): "C02", and
// Scid's "D37a" keeps its lower-case letter.
std::string eco_code(std::string key) {
  if (!key.empty() && key[0] >= 'a' && key[0] <= 'z') key[0] = char(key[0] - 'a' + 'A');
  return key;
}

// The group's value as written in its first game.
Result<std::string> label_of(const store::Database& db, ResultGrouping by, const Group& g) {
  if (g.key.empty()) return std::string("?");
  if (by == ResultGrouping::Eco) return eco_code(g.key);
  if (by != ResultGrouping::Event && by != ResultGrouping::Player) return g.key;
  auto rec = db.game(g.first_game, store::kDecodeTags);
  if (!rec) return rec.error();
  for (std::string_view tag : by == ResultGrouping::Event ? std::vector<std::string_view>{"Event"}
                                                          : std::vector<std::string_view>{"White", "Black"}) {
    std::string_view value = rec->tag(tag);
    if (store::normalize_tag_value(value) == g.key) return std::string(value);
  }
  return g.key;
}

// By player, the group each game went to as White's: a game whose two
// players fall in one group (one name written two ways, or both unknown)
// counts there once, as White's game.
class WhiteGroups {
 public:
  explicit WhiteGroups(std::size_t games) : of_(games, kNone) {}
  // Whether the game counts in the group for `side` (White's is recorded).
  bool counts(Color side, GameId id, std::size_t group) {
    if (side == Color::White) return of_[id] = std::uint32_t(group), true;
    return of_[id] != group;
  }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t(0);
  std::vector<std::uint32_t> of_;
};

// A game in its group: its result, and for players the side's score.
void add_to_group(Groups& groups, Group& g, GameId id, const GameTable& table, ResultGrouping by, Color side,
                  WhiteGroups& white_groups) {
  if (by == ResultGrouping::Player && !white_groups.counts(side, id, groups.index_of(g))) return;
  g.counts.add(table.result(id), table.plies(id));
  if (by == ResultGrouping::Player) add_player_game(g, side, table.result(id));
}

Status scan_tags(const store::Database& db, TagField field, const GameTable& table, Groups& groups,
                 ResultGrouping by, std::vector<bool>& tagged, WhiteGroups& white_groups) {
  const Color side = field == TagField::Black ? Color::Black : Color::White;
  groups.reset_cursor();
  return db.for_each_tag_range(field, "", "", [&](GameId id, std::string_view value) {
    if (!table.has(id) || tagged[id]) return true;
    add_to_group(groups, groups.at(value, id), id, table, by, side, white_groups);
    tagged[id] = true;
    return true;
  });
}

// By ECO: the code `db classify` stored (as `search --eco` reads it), keyed
// as the tag's value is; the games without one are left to the ECO tag.
Status group_classified_eco(const store::Database& db, const GameTable& table, Groups& groups,
                            std::vector<bool>& grouped) {
  groups.reset_cursor();
  return db.for_each_opening([&](GameId id, const store::StoredOpening& o) {
    if (!table.has(id) || o.eco.empty()) return true;
    groups.at(store::normalize_tag_value(o.eco), id).counts.add(table.result(id), table.plies(id));
    grouped[id] = true;
    return true;
  });
}

// By opening: the stored openings first, then the tags of the games without one.
Status group_openings(const store::Database& db, const GameTable& table, Groups& groups) {
  std::vector<bool> named(table.size(), false);
  Status s = db.for_each_opening([&](GameId id, const store::StoredOpening& o) {
    if (!table.has(id)) return true;
    groups.at(opening_group_key(o.eco, o.name), id).counts.add(table.result(id), table.plies(id));
    named[id] = true;
    return true;
  });
  if (!s) return s;
  groups.reset_cursor();
  for (GameId id = 0; id < table.size(); ++id) {
    if (!table.has(id) || named[id]) continue;
    auto rec = db.game(id, store::kDecodeTags);
    if (!rec) return rec.error();
    std::string_view eco = rec->tag("ECO");
    if (eco == "?") eco = {};
    groups.at(opening_group_key(eco_code(store::normalize_tag_value(eco)), tagged_opening_name(*rec)), id)
        .counts.add(table.result(id), table.plies(id));
  }
  return {};
}

}  // namespace

std::string opening_group_key(std::string_view eco, std::string_view name) {
  if (eco.empty()) return std::string(name);
  if (name.empty()) return std::string(eco);
  return fmt::format("{} {}", eco, name);
}

std::string_view grouping_name(ResultGrouping g) {
  switch (g) {
    case ResultGrouping::None: return "none";
    case ResultGrouping::Variant: return "variant";
    case ResultGrouping::Year: return "year";
    case ResultGrouping::Event: return "event";
    case ResultGrouping::Player: return "player";
    case ResultGrouping::Eco: return "eco";
    case ResultGrouping::RatingBand: return "rating-band";
    case ResultGrouping::TimeControl: return "time-control";
    case ResultGrouping::Opening: return "opening";
  }
  return "none";
}

std::optional<ResultGrouping> parse_grouping(std::string_view text) {
  for (auto g : {ResultGrouping::None, ResultGrouping::Variant, ResultGrouping::Year, ResultGrouping::Event,
                 ResultGrouping::Player, ResultGrouping::Eco, ResultGrouping::RatingBand,
                 ResultGrouping::TimeControl, ResultGrouping::Opening})
    if (grouping_name(g) == text) return g;
  return std::nullopt;
}

namespace {

// The rating band of a game: "lo-hi" for its average rating; "" when a rating is missing.
std::string band_key(const GameSummary& g, std::uint32_t width) {
  const auto avg = average_elo(g);
  if (!avg) return {};
  const std::uint32_t lo = *avg / width * width;
  return fmt::format("{}-{}", lo, lo + width - 1);
}

// The lower bound of a band key ("2000-2199" -> 2000).
std::uint32_t band_low(std::string_view key) {
  std::uint32_t v = 0;
  for (char c : key) {
    if (c < '0' || c > '9') break;
    v = v * 10 + std::uint32_t(c - '0');
  }
  return v;
}

// Every group of the scope, unordered, and the total.
Result<ResultPartial> collect(const store::Database& db, const GameScope& scope, ResultGrouping by,
                              std::uint32_t band) {
  ResultPartial out;
  out.by = by;
  const bool by_tag = by == ResultGrouping::Event || by == ResultGrouping::Player ||
                      by == ResultGrouping::Eco || by == ResultGrouping::Opening;
  Groups groups;
  GameTable table;
  // By time control: games whose summary lacks the class (read from the record).
  std::vector<std::pair<GameId, GameSummary>> untimed;

  Status s = db.for_each_summary([&](GameId id, const GameSummary& g) {
    if (!scope.contains(id, g.variant)) return true;
    out.total.add(g.result, g.plies);
    if (by == ResultGrouping::Variant) {
      groups.at(info(g.variant).cli_name, id).counts.add(g.result, g.plies);
    } else if (by == ResultGrouping::Year) {
      const std::uint32_t year = g.date / 10000;
      const std::string key = year ? fmt::format("{:04}", year) : std::string();
      groups.at(key, id).counts.add(g.result, g.plies);
    } else if (by == ResultGrouping::RatingBand) {
      groups.at(band_key(g, band), id).counts.add(g.result, g.plies);
    } else if (by == ResultGrouping::TimeControl) {
      if (g.features)
        groups.at(game::time_class_name(g.time_class), id).counts.add(g.result, g.plies);
      else
        untimed.emplace_back(id, g);
    } else if (by_tag) {
      table.put(id, g.result, g.plies);
    }
    return true;
  });
  if (!s) return s.error();
  for (const auto& [id, g] : untimed) {
    auto rec = db.game(id, store::kDecodeTags);
    if (!rec) return rec.error();
    groups.at(game::time_class_name(game::time_class(rec->tag("TimeControl"))), id)
        .counts.add(g.result, g.plies);
  }

  if (by == ResultGrouping::Opening) {
    if (Status o = group_openings(db, table, groups); !o) return o.error();
  } else if (by_tag) {
    const std::vector<TagField> fields =
        by == ResultGrouping::Player  ? std::vector<TagField>{TagField::White, TagField::Black}
        : by == ResultGrouping::Event ? std::vector<TagField>{TagField::Event}
                                      : std::vector<TagField>{TagField::Eco};
    WhiteGroups white_groups(by == ResultGrouping::Player ? table.size() : 0);
    for (TagField f : fields) {
      std::vector<bool> tagged(table.size(), false);
      if (by == ResultGrouping::Eco)
        if (Status c = group_classified_eco(db, table, groups, tagged); !c) return c.error();
      if (Status t = scan_tags(db, f, table, groups, by, tagged, white_groups); !t) return t.error();
      // Games without the tag: the unknown group.
      groups.reset_cursor();
      const Color side = f == TagField::Black ? Color::Black : Color::White;
      for (GameId id = 0; id < table.size(); ++id) {
        if (!table.has(id) || tagged[id]) continue;
        add_to_group(groups, groups.at("", id), id, table, by, side, white_groups);
      }
      groups.next_pass();
    }
  }
  out.groups = std::move(groups.all());
  return out;
}

// Sorts the groups into the query's order.
void order_groups(std::vector<Group>& all, const ResultQuery& q) {
  GroupOrder order = q.order;
  if (order == GroupOrder::Natural)
    order =
        q.by == ResultGrouping::Event || q.by == ResultGrouping::Player ? GroupOrder::Games : GroupOrder::Key;
  auto key_less = [&](const Group& a, const Group& b) {
    if (a.key.empty() != b.key.empty()) return b.key.empty();  // unknown last
    if (q.by == ResultGrouping::Variant) {
      return resolve_variant(a.key).value_or(Variant::Standard) <
             resolve_variant(b.key).value_or(Variant::Standard);
    }
    if (q.by == ResultGrouping::RatingBand) return band_low(a.key) < band_low(b.key);
    if (q.by == ResultGrouping::TimeControl)
      return game::parse_time_class(a.key).value_or(game::TimeClass::Unknown) <
             game::parse_time_class(b.key).value_or(game::TimeClass::Unknown);
    return a.key < b.key;
  };
  std::sort(all.begin(), all.end(), [&](const Group& a, const Group& b) {
    if (order == GroupOrder::Games && a.counts.games != b.counts.games)
      return a.counts.games > b.counts.games;
    return key_less(a, b);
  });
}

// The groups shown, labelled by `label`.
template <class Label>
Result<ResultStats> shown_groups(ResultPartial& p, const ResultQuery& q, Label label) {
  ResultStats out;
  out.by = q.by;
  out.total = p.total;
  std::vector<Group>& all = p.groups;
  order_groups(all, q);
  out.group_count = all.size();
  const std::size_t shown = q.limit > 0 ? std::min(q.limit, all.size()) : all.size();
  for (std::size_t i = 0; i < shown; ++i) {
    ResultGroup g;
    g.key = q.by == ResultGrouping::Eco ? eco_code(all[i].key) : all[i].key;
    auto text = label(all[i]);
    if (!text) return text.error();
    g.label = std::move(*text);
    g.counts = all[i].counts;
    if (q.by == ResultGrouping::Player) g.player = all[i].player;
    out.groups.push_back(std::move(g));
  }
  return out;
}

}  // namespace

Result<ResultStats> result_stats(const store::Database& db, const GameScope& scope, const ResultQuery& q) {
  auto p = collect(db, scope, q.by, q.band);
  if (!p) return p.error();
  return shown_groups(*p, q, [&](const Group& g) { return label_of(db, q.by, g); });
}

Result<ResultPartial> result_partial(const store::Database& db, const GameScope& scope, ResultGrouping by,
                                     std::uint32_t band) {
  auto p = collect(db, scope, by, band);
  if (!p) return p.error();
  for (Group& g : p->groups) {
    auto label = label_of(db, by, g);
    if (!label) return label.error();
    g.label = std::move(*label);
  }
  std::sort(p->groups.begin(), p->groups.end(), [](const Group& a, const Group& b) { return a.key < b.key; });
  return p;
}

void merge_result_partial(ResultPartial& into, const ResultPartial& from, GameId id_shift) {
  into.total.add(from.total);
  for (const Group& g : from.groups) {
    auto it = std::lower_bound(into.groups.begin(), into.groups.end(), g.key,
                               [](const Group& a, const std::string& key) { return a.key < key; });
    if (it == into.groups.end() || it->key != g.key) {
      Group shifted = g;
      shifted.first_game += id_shift;
      into.groups.insert(it, std::move(shifted));
      continue;
    }
    it->counts.add(g.counts);
    PlayerScore& a = it->player;
    a.as_white += g.player.as_white;
    a.as_black += g.player.as_black;
    a.wins += g.player.wins;
    a.draws += g.player.draws;
    a.losses += g.player.losses;
    a.unfinished += g.player.unfinished;
    // One database meets the group first in the earliest pass, then game.
    if (std::pair(g.first_pass, g.first_game + id_shift) < std::pair(it->first_pass, it->first_game)) {
      it->first_pass = g.first_pass;
      it->first_game = g.first_game + id_shift;
      it->label = g.label;
    }
  }
}

ResultStats finish_results(ResultPartial partial, const ResultQuery& q) {
  auto out = shown_groups(partial, q, [](const Group& g) { return Result<std::string>(g.label); });
  return std::move(*out);
}

}  // namespace virrey::query
