#include "virrey/tournament/event.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <map>
#include <set>
#include <utility>

#include "text.hpp"
#include "virrey/base/letter_case.hpp"

namespace virrey::tournament {

namespace {

// Half points of White and Black.
std::pair<int, int> half_points(GameResult r) {
  switch (r) {
    case GameResult::WhiteWins: return {2, 0};
    case GameResult::BlackWins: return {0, 2};
    case GameResult::Draw: return {1, 1};
    case GameResult::Unknown: break;
  }
  return {0, 0};
}

// The value most often seen (the first among equals).
template <class T>
std::optional<T> most_common(const std::vector<T>& values) {
  std::map<T, std::pair<std::size_t, std::size_t>> seen;  // value -> its count, its first place
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto [it, fresh] = seen.try_emplace(values[i], 0, i);
    ++it->second.first;
  }
  std::optional<T> best;
  std::size_t best_count = 0, best_first = 0;
  for (const auto& [value, place] : seen)
    if (place.first > best_count || (place.first == best_count && place.second < best_first)) {
      best = value;
      best_count = place.first;
      best_first = place.second;
    }
  return best;
}

std::uint64_t pair_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
}

// In a round robin of an odd number of players, which of each player's
// rounds without a game (`free_rounds[i]`, ascending) are rests, the others
// being absences. Each round has one rest, each player rests once a cycle,
// and a player rests where no game was due: read off by turns until nothing
// more follows from
// - a player without a game in a round whom none of the others without a
//   game there could have met (met each other as often as the cycles ask,
//   or resting there) rests;
// - a round's one player left who may rest rests, the others are absent;
// - a player who has rested his share is absent in his other such rounds;
// - when every round is in (players × cycles), a player whose rounds left
//   unread are as many as the rests he still owes rests in them.
// What stays open is an absence (a withdrawal's missing games, say).
std::vector<std::vector<bool>> odd_round_robin_rests(const Tournament& t,
                                                     const std::vector<std::vector<int>>& free_rounds) {
  enum : char { Open, Rest, Away };
  const std::size_t n = t.players.size();
  const int cycles = t.system == System::DoubleRoundRobin ? 2 : 1;
  std::map<std::uint64_t, int> met;
  for (std::size_t i = 0; i < n; ++i)
    for (const Entry& e : t.players[i].entries)
      if (e.opponent > int(i)) ++met[pair_key(int(i), e.opponent)];
  // By round: the players without a game there and where that is in their list.
  std::map<int, std::vector<std::pair<std::size_t, std::size_t>>> by_round;
  std::vector<std::vector<char>> state(n);
  for (std::size_t i = 0; i < n; ++i) {
    state[i].assign(free_rounds[i].size(), Open);
    for (std::size_t k = 0; k < free_rounds[i].size(); ++k) by_round[free_rounds[i][k]].push_back({i, k});
  }
  std::vector<int> rested(n, 0);
  const auto set = [&](std::size_t i, std::size_t k, char v) {
    if (state[i][k] != Open) return false;
    state[i][k] = v;
    if (v == Rest) ++rested[i];
    return true;
  };
  const bool complete = t.round_numbers.size() == n * std::size_t(cycles);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [round, cells] : by_round) {
      bool has_rest = false;
      std::vector<std::pair<std::size_t, std::size_t>> may_rest;
      for (const auto& [i, k] : cells) {
        has_rest |= state[i][k] == Rest;
        if (state[i][k] == Open && rested[i] < cycles) may_rest.push_back({i, k});
      }
      if (has_rest || may_rest.empty()) {
        for (const auto& [i, k] : cells) changed |= set(i, k, Away);
        continue;
      }
      if (may_rest.size() == 1) {
        changed |= set(may_rest[0].first, may_rest[0].second, Rest);
        continue;
      }
      // The one player no game was due to (none of the others without a game
      // there left to meet) rests; two such, and the round is not read.
      std::vector<std::pair<std::size_t, std::size_t>> undue;
      for (const auto& [i, k] : may_rest) {
        bool due = false;
        for (const auto& [j, l] : cells)
          due |= j != i && state[j][l] != Rest && met[pair_key(int(i), int(j))] < cycles;
        if (!due) undue.push_back({i, k});
      }
      if (undue.size() == 1) changed |= set(undue[0].first, undue[0].second, Rest);
    }
    if (changed) continue;  // the rounds first: a rest set marks the round's others absent
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t open = 0;
      for (char v : state[i]) open += v == Open;
      const int owed = cycles - rested[i];
      if (open == 0) continue;
      if (owed <= 0) {
        for (std::size_t k = 0; k < state[i].size(); ++k) changed |= set(i, k, Away);
      } else if (complete && open == std::size_t(owed)) {
        // (A round that has its rest holds no open player: the pass above.)
        for (std::size_t k = 0; k < state[i].size(); ++k) changed |= set(i, k, Rest);
      }
      if (changed) break;  // back to the rounds
    }
  }
  std::vector<std::vector<bool>> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (char v : state[i]) out[i].push_back(v == Rest);
  return out;
}

// A FIDE id tag's id: "" when it gives none ("", "?", "-", zeros).
std::string_view fide_id_of(std::string_view tag) {
  const std::string_view id = trim(tag);
  if (unknown_tag_value(id) || id == "-" || id.find_first_not_of('0') == std::string_view::npos) return {};
  return id;
}

std::string_view fide_id(const PlayerTags& tags) { return fide_id_of(tags.fide_id); }

bool no_player(const PlayerTags& tags) { return tournament::no_player(tags.name, tags.fide_id); }

// Half-up rounding of a / b for b > 0, a >= 0.
int rounded_ratio(long a, long b) { return int((2 * a + b) / (2 * b)); }

}  // namespace

std::string_view system_name(System s) {
  switch (s) {
    case System::RoundRobin: return "round-robin";
    case System::DoubleRoundRobin: return "double-round-robin";
    case System::Swiss: return "swiss";
    case System::Knockout: return "knockout";
  }
  return "swiss";
}

std::optional<System> parse_system(std::string_view name) {
  for (System s : {System::RoundRobin, System::DoubleRoundRobin, System::Swiss, System::Knockout})
    if (iequal(name, system_name(s))) return s;
  if (iequal(name, "rr")) return System::RoundRobin;
  if (iequal(name, "match") || iequal(name, "matches")) return System::Knockout;
  return std::nullopt;
}

bool is_round_robin(System s) { return s == System::RoundRobin || s == System::DoubleRoundRobin; }

std::optional<System> system_of_event_type(std::string_view event_type) {
  const std::string_view v = trim(event_type);
  // PGN's own values (tourn: a round robin; k.o.), then virrey's --system names.
  if (iequal(v, "tourn")) return System::RoundRobin;
  if (iequal(v, "k.o.") || iequal(v, "ko")) return System::Knockout;
  if (iequal(v, "match") || iequal(v, "matches")) return std::nullopt;  // a match: as its games show
  return parse_system(v);
}

std::string_view entry_kind_name(EntryKind k) {
  switch (k) {
    case EntryKind::Played: return "played";
    case EntryKind::Forfeit: return "forfeit";
    case EntryKind::Bye: return "bye";
    case EntryKind::Absent: return "absent";
    case EntryKind::Pending: return "pending";
    case EntryKind::Rest: return "rest";
  }
  return "absent";
}

int Player::games_played() const {
  return int(std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.played(); }));
}

int Tournament::player_index(std::string_view name) const {
  for (std::size_t i = 0; i < players.size(); ++i)
    if (players[i].name == name) return int(i);
  return -1;
}

bool same_event_name(std::string_view a, std::string_view b) { return folded_text(a) == folded_text(b); }

bool bye_name(std::string_view name) { return name == "-" || iequal(name, "bye") || unknown_tag_value(name); }

bool no_player(std::string_view name, std::string_view fide_id_tag) {
  return bye_name(name) && (!unknown_tag_value(name) || fide_id_of(fide_id_tag).empty());
}

std::uint64_t crosstable_cells(const Tournament& t) {
  // A round robin's crosstable is players × players (each opponent a column).
  const std::uint64_t columns = is_round_robin(t.system) ? std::max<std::uint64_t>(t.players.size(), t.rounds)
                                                         : std::uint64_t(t.rounds);
  return std::uint64_t(t.players.size()) * columns;
}

Tournament build_tournament(const std::vector<GameSummary>& summaries, const GameGroup& group,
                            std::optional<System> system) {
  Tournament t;
  t.key = group.key;
  // A FIDE id is one player, whatever names its games give it: the name most
  // of its games give (the first met among equals). A game without an id
  // whose name some game gives an id is that id's player (the first id met
  // with the name); other players are their names.
  struct Spelling {
    std::string name;
    std::size_t count = 0;
    std::size_t first = 0;  // the first game with it
  };
  std::map<std::string, std::vector<Spelling>> spellings;  // FIDE id -> its names, first met first
  std::map<std::string, std::vector<Spelling>> ids_of;  // name -> its FIDE ids (as `name`), first met first
  for (std::size_t s : group.games)
    for (const PlayerTags* tags : {&summaries[s].white, &summaries[s].black}) {
      const std::string_view id = fide_id(*tags);
      if (no_player(*tags) || id.empty()) continue;
      auto add = [&](std::vector<Spelling>& seen, std::string_view value) {
        const auto it =
            std::find_if(seen.begin(), seen.end(), [&](const Spelling& x) { return x.name == value; });
        if (it != seen.end())
          ++it->count;
        else
          seen.push_back({std::string(value), 1, s});
      };
      add(spellings[std::string(id)], tags->name);
      add(ids_of[tags->name], id);
    }
  std::map<std::string, std::string> name_of_id;
  for (const auto& [id, names] : spellings) {
    // An unknown spelling ("?") names the id's player only when no game gives another.
    const auto best = std::max_element(names.begin(), names.end(), [](const Spelling& a, const Spelling& b) {
      const bool a_unknown = unknown_tag_value(a.name), b_unknown = unknown_tag_value(b.name);
      if (a_unknown != b_unknown) return a_unknown;
      return a.count < b.count || (a.count == b.count && a.first > b.first);
    });
    name_of_id[id] = best->name;
    // Each other spelling is noted where the later of the two is first met.
    for (const Spelling& other : names)
      if (&other != &*best && !unknown_tag_value(other.name)) {
        if (other.first > best->first)
          t.name_notes.push_back({other.first, best->first, id, best->name, other.name, "", best->name});
        else
          t.name_notes.push_back({best->first, other.first, id, other.name, best->name, "", best->name});
      }
  }
  for (const auto& [name, ids] : ids_of)
    for (std::size_t k = 1; k < ids.size() && !unknown_tag_value(name); ++k)
      t.name_notes.push_back({ids[k].first, ids[0].first, ids[0].name, name, "", ids[k].name, name});
  std::stable_sort(t.name_notes.begin(), t.name_notes.end(),
                   [](const PlayerNameNote& a, const PlayerNameNote& b) { return a.summary < b.summary; });
  // A player's key: "#" and the FIDE id, or "=" and the name.
  auto key_of = [&](const PlayerTags& tags) {
    if (const std::string_view id = fide_id(tags); !id.empty()) return "#" + std::string(id);
    if (const auto it = ids_of.find(tags.name); it != ids_of.end()) return "#" + it->second.front().name;
    return "=" + tags.name;
  };

  std::map<std::string, int, std::less<>> index;
  std::vector<std::vector<int>> ratings;
  std::vector<Variant> variants;
  std::vector<std::string> time_controls;
  auto player = [&](const PlayerTags& tags) {
    if (no_player(tags)) return -1;
    const std::string key = key_of(tags);
    auto [it, fresh] = index.try_emplace(key, int(t.players.size()));
    if (fresh) {
      t.players.push_back(Player{});
      t.players.back().name = key[0] == '#' ? name_of_id.at(key.substr(1)) : tags.name;
      ratings.emplace_back();
    }
    Player& p = t.players[std::size_t(it->second)];
    if (tags.elo) ratings[std::size_t(it->second)].push_back(*tags.elo);
    if (p.title.empty()) p.title = tags.title;
    if (p.federation.empty()) p.federation = tags.federation;
    if (p.fide_id.empty()) p.fide_id = fide_id(tags);
    return it->second;
  };
  auto first_known = [](std::string& into, const std::string& value) {
    if (into.empty() && !unknown_tag_value(value)) into = value;
  };
  for (std::size_t s : group.games) {
    const GameSummary& g = summaries[s];
    // A game of no player at all ("?" against "?"): nobody's, in no round.
    if (no_player(g.white) && no_player(g.black)) continue;
    if (!no_player(g.white) && !no_player(g.black) && key_of(g.white) == key_of(g.black)) {
      // no pairing: in no standings
      t.self_games.push_back(s);
      continue;
    }
    if (!g.variant_unknown) variants.push_back(g.variant);  // (a fallback says nothing)
    TournamentGame game;
    game.summary = s;
    game.white = player(g.white);
    game.black = player(g.black);
    if (const RoundTag* r = g.round_tag(); r && r->numbered()) {
      game.round = r->round;
      game.board = r->board.value_or(0);
      game.sub_game = r->sub_game.value_or(0);
    }
    game.result = g.result;
    game.played = !g.unplayed();
    // Moves not read (an unknown variant), or cut short by a move in error,
    // were played all the same: a game rated, not one a player never moved in.
    game.plies = g.moves_unread || g.moves_cut_short ? std::max<std::uint32_t>(g.plies, 2) : g.plies;
    if (game.round > 0) t.round_numbers.push_back(game.round);
    if (!unknown_tag_value(g.date) && g.date.find('?') == std::string::npos) {
      if (t.first_date.empty() || g.date < t.first_date) t.first_date = g.date;
      if (t.last_date.empty() || g.date > t.last_date) t.last_date = g.date;
    }
    if (!unknown_tag_value(g.time_control)) time_controls.push_back(g.time_control);
    first_known(t.arbiter, g.arbiter);
    first_known(t.event_country, g.event_country);
    first_known(t.event_type, g.event_type);
    t.games.push_back(game);
  }
  t.variant = most_common(variants).value_or(Variant::Standard);
  t.variant_unknown = variants.empty() && !t.games.empty();
  // The time control most games were played at (a knockout's tie-break games are fewer).
  t.time_control = most_common(time_controls).value_or("");
  for (std::size_t i = 0; i < t.players.size(); ++i) t.players[i].rating = most_common(ratings[i]);
  std::sort(t.round_numbers.begin(), t.round_numbers.end());
  t.round_numbers.erase(std::unique(t.round_numbers.begin(), t.round_numbers.end()), t.round_numbers.end());
  t.rounds = int(t.round_numbers.size());
  t.round_dates.assign(t.round_numbers.size(), std::string());
  for (const TournamentGame& game : t.games) {
    const std::string& d = summaries[game.summary].date;
    if (game.round < 1 || unknown_tag_value(d) || d.find('?') != std::string::npos) continue;
    const auto k = std::lower_bound(t.round_numbers.begin(), t.round_numbers.end(), game.round);
    std::string& rd = t.round_dates[std::size_t(k - t.round_numbers.begin())];
    if (rd.empty() || d < rd) rd = d;
  }

  // A game with a result and no move: a forfeit when its Termination says
  // so (says_unplayed). Otherwise a draw, or a game whose Termination names
  // how it ended ("normal", "time forfeit"), was played and is not rated
  // (one player never moved); in a tournament none of whose games has a
  // move (a file of results), each game was played and is rated; else a
  // decisive result without a move is read as a forfeit.
  bool any_moves = false, any_pairing = false;
  for (const TournamentGame& game : t.games)
    if (game.white >= 0 && game.black >= 0) {
      any_pairing = true;
      any_moves |= game.played;
    }
  const bool results_only = any_pairing && !any_moves;
  for (TournamentGame& game : t.games) {
    if (game.played || game.white < 0 || game.black < 0 || game.result == GameResult::Unknown) continue;
    const GameSummary& g = summaries[game.summary];
    if (says_unplayed(g.termination)) continue;
    if (results_only) {
      game.played = true;
      game.plies = 2;  // its moves not given: rated
    } else if (game.result == GameResult::Draw || !unknown_tag_value(g.termination)) {
      game.played = true;
    }
  }

  // Every game is an entry of each of its players.
  for (std::size_t gi = 0; gi < t.games.size(); ++gi) {
    const TournamentGame& g = t.games[gi];
    const auto [wh, bh] = half_points(g.result);
    for (const bool white : {true, false}) {
      const int me = white ? g.white : g.black;
      const int other = white ? g.black : g.white;
      if (me < 0) continue;
      Entry e;
      e.round = g.round;
      e.sub_game = g.sub_game;
      e.game = gi;
      e.half_points = white ? wh : bh;
      if (g.result == GameResult::Unknown) {
        e.kind = EntryKind::Pending;
      } else if (other < 0) {
        e.kind = EntryKind::Bye;
      } else {
        e.kind = g.played ? EntryKind::Played : EntryKind::Forfeit;
      }
      if (other >= 0) {
        e.opponent = other;
        e.colour = white ? Color::White : Color::Black;
      }
      t.players[std::size_t(me)].entries.push_back(e);
    }
  }
  const std::optional<System> tagged = system_of_event_type(t.event_type);
  t.system = system ? *system : tagged ? *tagged : recognise_system(t);
  t.system_origin = system ? SystemOrigin::Given : tagged ? SystemOrigin::EventType : SystemOrigin::Pairings;
  if (is_round_robin(t.system)) {
    // Given as a round robin: single or double as the pairs show.
    std::map<std::uint64_t, int> meets;
    int most = 0;
    for (const TournamentGame& g : t.games)
      if (g.white >= 0 && g.black >= 0) most = std::max(most, ++meets[pair_key(g.white, g.black)]);
    if (t.system_origin != SystemOrigin::Pairings && t.system == System::RoundRobin)
      t.system = most >= 2 ? System::DoubleRoundRobin : System::RoundRobin;
  }
  if (crosstable_cells(t) > kMaxCrosstableCells) {
    t.too_large = true;
    return t;
  }
  // The rounds each player has no game in; a game of no known round fills
  // the earliest of them. In a round robin of an odd number of players, one
  // of those rests in each round (odd_round_robin_rests says which); anyone
  // else is absent (a game not played leaves its two players absent).
  const bool round_robin = is_round_robin(t.system);
  std::vector<std::vector<int>> free_rounds(t.players.size());
  auto round_place = [&](int r) {
    return std::size_t(std::lower_bound(t.round_numbers.begin(), t.round_numbers.end(), r) -
                       t.round_numbers.begin());
  };
  std::vector<bool> played_in(t.round_numbers.size(), false);
  for (std::size_t i = 0; i < t.players.size(); ++i) {
    std::size_t unknown = 0;
    for (const Entry& e : t.players[i].entries) {
      if (e.round != 0) played_in[round_place(e.round)] = true;
      unknown += e.round == 0;
    }
    for (std::size_t k = 0; k < t.round_numbers.size(); ++k)
      if (!played_in[k]) free_rounds[i].push_back(t.round_numbers[k]);
    for (const Entry& e : t.players[i].entries)
      if (e.round != 0) played_in[round_place(e.round)] = false;
    // The games of no known round take the earliest free rounds, in order.
    const std::size_t spared = std::min(unknown, free_rounds[i].size());
    std::size_t next = 0;
    for (Entry& e : t.players[i].entries)
      if (e.round == 0 && next < spared) e.spares = free_rounds[i][next++];
    free_rounds[i].erase(free_rounds[i].begin(), free_rounds[i].begin() + std::ptrdiff_t(spared));
  }
  const bool odd_round_robin = round_robin && t.players.size() % 2 == 1;
  const std::vector<std::vector<bool>> rests =
      odd_round_robin ? odd_round_robin_rests(t, free_rounds) : std::vector<std::vector<bool>>{};
  for (std::size_t i = 0; i < t.players.size(); ++i) {
    Player& p = t.players[i];
    if (t.system != System::Knockout) {
      for (std::size_t k = 0; k < free_rounds[i].size(); ++k) {
        Entry e;
        e.round = free_rounds[i][k];
        e.kind = odd_round_robin && rests[i][k] ? EntryKind::Rest : EntryKind::Absent;
        p.entries.push_back(e);
      }
    }
    std::stable_sort(p.entries.begin(), p.entries.end(), [](const Entry& a, const Entry& b) {
      if (a.round != b.round) return (a.round == 0 ? INT_MAX : a.round) < (b.round == 0 ? INT_MAX : b.round);
      return a.sub_game < b.sub_game;
    });
    for (const Entry& e : p.entries)
      if (e.counted()) p.half_points += e.half_points;
  }
  return t;
}

System recognise_system(const Tournament& t) {
  const int n = int(t.players.size());
  if (n <= 2) {
    // Two players: a knockout match when their games are the sub-games of
    // one round (Round "1.1.1", "1.1.2"...), else a round robin played once
    // or more over (each pair meeting twice: a double round robin).
    std::set<int> rounds;
    for (const TournamentGame& g : t.games) rounds.insert(g.round);
    if (n == 2 && t.games.size() > 1 && rounds.size() == 1 && t.games.front().sub_game > 0)
      return System::Knockout;
    return t.games.size() > 1 && n == 2 ? System::DoubleRoundRobin : System::RoundRobin;
  }
  std::map<std::uint64_t, int> meets;
  bool sub_games = false;
  std::map<int, std::map<int, std::set<int>>> opponents;  // round -> player -> opponents
  for (const TournamentGame& g : t.games) {
    sub_games |= g.sub_game > 0;
    if (g.white < 0 || g.black < 0) continue;
    ++meets[pair_key(g.white, g.black)];
    opponents[g.round][g.white].insert(g.black);
    opponents[g.round][g.black].insert(g.white);
  }
  // Knockout: each round's players are at most half of the last's and
  // each meets one opponent only (a match of one or more games).
  if (t.rounds >= 2 || sub_games) {
    bool knockout = opponents.count(0) == 0;
    std::set<int> before;
    for (std::size_t k = 0; knockout && k < t.round_numbers.size(); ++k) {
      std::set<int> now;
      for (const auto& [p, opp] : opponents[t.round_numbers[k]]) {
        now.insert(p);
        knockout &= opp.size() == 1;
      }
      // The winners of the last round: half of its players (or fewer).
      if (k > 0)
        knockout &= now.size() * 2 <= before.size() + 1 &&
                    std::includes(before.begin(), before.end(), now.begin(), now.end());
      before = std::move(now);
    }
    if (knockout) return System::Knockout;
  }
  const std::size_t all_pairs = std::size_t(n) * std::size_t(n - 1) / 2;
  int most = 0;
  std::size_t twice = 0;
  for (const auto& [k, c] : meets) {
    most = std::max(most, c);
    twice += c >= 2;
  }
  // Every pair met once: a round robin; every pair once or twice, in no more
  // rounds than two cycles take: a double round robin (its second cycle
  // maybe not played out). A pair met twice is no single round robin.
  const int rr_rounds = n % 2 == 0 ? n - 1 : n;
  if (most == 1 && meets.size() == all_pairs) return System::RoundRobin;
  if (most == 2 && meets.size() == all_pairs && (twice == all_pairs || t.rounds <= 2 * rr_rounds))
    return System::DoubleRoundRobin;
  // A round robin with some games missing: no repeat, as many rounds as one takes.
  if (most == 1 && t.rounds >= rr_rounds && meets.size() * 10 >= all_pairs * 9) return System::RoundRobin;
  // Or whose missing games are those of a few players who withdrew (or came
  // late): a quarter of the players at most (one at least) are in every pair
  // never met. (A Swiss of as many rounds would have paired their opponents
  // with one another.)
  if (most == 1 && t.rounds >= rr_rounds) {
    const std::size_t players = std::size_t(n);
    std::vector<char> met(players * players, 0);
    for (const TournamentGame& g : t.games)
      if (g.white >= 0 && g.black >= 0) {
        met[std::size_t(g.white) * players + std::size_t(g.black)] = 1;
        met[std::size_t(g.black) * players + std::size_t(g.white)] = 1;
      }
    std::vector<std::size_t> missing(players, 0);
    for (std::size_t a = 0; a < players; ++a)
      for (std::size_t b = 0; b < players; ++b) missing[a] += a != b && !met[a * players + b];
    const std::size_t allowed = std::max<std::size_t>(1, players / 4);
    for (std::size_t taken = 0; taken <= allowed; ++taken) {
      const auto most_missing = std::max_element(missing.begin(), missing.end());
      if (*most_missing == 0) return System::RoundRobin;
      if (taken == allowed) break;
      const std::size_t a = std::size_t(most_missing - missing.begin());
      for (std::size_t b = 0; b < players; ++b)
        if (a != b && !met[a * players + b]) {
          met[a * players + b] = met[b * players + a] = 1;
          --missing[b];
        }
      missing[a] = 0;
    }
  }
  return System::Swiss;
}

// --- tie-breaks ----------------------------------------------------------------

namespace {

struct TieBreakInfo {
  TieBreak tb;
  std::string_view name;
  std::string_view short_name;
};
constexpr std::array<TieBreakInfo, kTieBreakCount> kTieBreaks = {{
    {TieBreak::DirectEncounter, "direct_encounter", "DE"},
    {TieBreak::Wins, "wins", "WIN"},
    {TieBreak::GamesWon, "games_won", "WON"},
    {TieBreak::BlackGames, "black_games", "BPG"},
    {TieBreak::SonnebornBerger, "sonneborn_berger", "SB"},
    {TieBreak::Koya, "koya", "KS"},
    {TieBreak::Buchholz, "buchholz", "BH"},
    {TieBreak::BuchholzCut1, "buchholz_cut1", "BH-C1"},
    {TieBreak::MedianBuchholz, "median_buchholz", "BH-M1"},
    {TieBreak::Progressive, "progressive", "PS"},
    {TieBreak::AverageRating, "average_rating", "ARO"},
    {TieBreak::Performance, "performance", "TPR"},
    {TieBreak::KnockoutStage, "knockout_stage", "KO"},
}};

// The FIDE table of dp by p = 50..100 percent (below 50: the negative of 100 - p).
constexpr std::array<int, 51> kDp = {0,   7,   14,  21,  29,  36,  43,  50,  57,  65,  72,  80,  87,
                                     95,  102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193,
                                     202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
                                     351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800};

// Unplayed rounds, as FIDE's tie-break regulations (C.07, art. 16) treat
// them. A voluntarily unplayed round (VUR) is one the player neither played
// nor won: a forfeit lost, a half- or zero-point bye, an absence. A forfeit
// won and a full-point bye are unplayed rounds but no VUR.
bool voluntarily_unplayed(const Entry& e) { return e.counted() && !e.played() && e.half_points < 2; }

// Each player's score as the opponents' tie-breaks see it (art. 16.3): the
// points scored, except that the rounds without an opponent (byes,
// absences) after the player's last round that is no VUR (a withdrawal)
// count as draws in a Swiss, as nothing in a round robin.
std::vector<int> adjusted_half_points(const Tournament& t) {
  std::vector<int> out;
  for (const Player& p : t.players) {
    // The entries in the order of their rounds, a game of no known round in
    // the round it spares.
    std::vector<const Entry*> entries;
    for (const Entry& e : p.entries)
      if (e.counted()) entries.push_back(&e);
    std::stable_sort(entries.begin(), entries.end(), [](const Entry* a, const Entry* b) {
      return a->effective_round() < b->effective_round();
    });
    std::size_t last = 0;  // one past the last entry that is no VUR
    for (std::size_t k = 0; k < entries.size(); ++k)
      if (!voluntarily_unplayed(*entries[k])) last = k + 1;
    int h = 0;
    for (std::size_t k = 0; k < entries.size(); ++k) {
      if (k >= last && entries[k]->opponent < 0)
        h += is_round_robin(t.system) ? 0 : 1;
      else
        h += entries[k]->half_points;
    }
    out.push_back(h);
  }
  return out;
}

// The opponents' scores a player's Buchholz and Sonneborn-Berger are made
// of, an entry each (art. 16.4): a game played counts its opponent's
// adjusted score; in a Swiss an unplayed round counts a dummy opponent with
// the player's own score; in a round robin a forfeit counts as a game
// played (its opponent's adjusted score, as FIDE's reference does) and a
// round without an opponent is left out.
struct OpponentScore {
  const Entry* entry;
  int half_points;  // the opponent's
  bool voluntarily_unplayed;
};

std::vector<OpponentScore> opponent_scores(const Tournament& t, std::size_t player,
                                           const std::vector<int>& adjusted) {
  std::vector<OpponentScore> out;
  const Player& p = t.players[player];
  for (const Entry& e : p.entries) {
    if (!e.counted()) continue;
    const bool vur = voluntarily_unplayed(e);
    if (e.played() || (is_round_robin(t.system) && e.opponent >= 0))
      out.push_back({&e, adjusted[std::size_t(e.opponent)], false});
    else if (!is_round_robin(t.system))
      out.push_back({&e, p.half_points, vur});
  }
  return out;
}

// The progressive score (C.07 art. 7.5) in half points: the player's score
// after each round, added up over the rounds (a round without a game adds
// the score as it stood). A game of no known round counts in the round it
// spares; one that spares none, as one more round, the last.
int progressive_score(const Tournament& t, const Player& p) {
  // Each round's points, then the running score round by round.
  std::vector<int> in_round(t.round_numbers.size(), 0);
  for (const Entry& e : p.entries) {
    if (!e.counted()) continue;
    const auto it = std::lower_bound(t.round_numbers.begin(), t.round_numbers.end(), e.effective_round());
    if (it != t.round_numbers.end() && *it == e.effective_round())
      in_round[std::size_t(it - t.round_numbers.begin())] += e.half_points;
  }
  int running = 0, sum = 0;
  for (int h : in_round) {
    running += h;
    sum += running;
  }
  bool beyond = false;  // games of no known round that spare no round
  for (const Entry& e : p.entries)
    if (e.counted() && e.round == 0 && e.spares == 0) {
      running += e.half_points;
      beyond = true;
    }
  return beyond ? sum + running : sum;
}

std::optional<int> average_rating(const Tournament& t, const Player& p) {
  long sum = 0, count = 0;
  for (const Entry& e : p.entries) {
    if (!e.played()) continue;
    if (const auto& r = t.players[std::size_t(e.opponent)].rating) {
      sum += *r;
      ++count;
    }
  }
  if (count == 0) return std::nullopt;
  return rounded_ratio(sum, count);
}

std::optional<int> performance(const Tournament& t, const Player& p) {
  long sum = 0, count = 0, half = 0;
  for (const Entry& e : p.entries) {
    if (!e.played()) continue;
    if (const auto& r = t.players[std::size_t(e.opponent)].rating) {
      sum += *r;
      ++count;
      half += e.half_points;
    }
  }
  if (count == 0) return std::nullopt;
  // p = half / (2 count), in percent rounded half up.
  return rounded_ratio(sum, count) + fide_dp(rounded_ratio(100 * half, 2 * count));
}

// The round each player reached in a knockout (the winner of the last match one more).
std::vector<int> knockout_stage(const Tournament& t) {
  std::vector<int> stage(t.players.size(), 0);
  for (const Match& m : knockout_matches(t)) {
    for (int p : {m.a, m.b}) stage[std::size_t(p)] = std::max(stage[std::size_t(p)], m.round);
    if (m.winner >= 0) stage[std::size_t(m.winner)] = std::max(stage[std::size_t(m.winner)], m.round + 1);
  }
  return stage;
}

// Direct encounter among `group`: each one's points in the games among them,
// when every two of them met; else none.
std::vector<std::optional<double>> direct_encounter(const Tournament& t, const std::vector<int>& group) {
  std::set<int> members(group.begin(), group.end());
  std::set<std::uint64_t> met;
  std::vector<std::optional<double>> out;
  std::vector<int> half(group.size(), 0);
  for (std::size_t i = 0; i < group.size(); ++i) {
    for (const Entry& e : t.players[std::size_t(group[i])].entries) {
      if (!e.counted() || e.opponent < 0 || !members.count(e.opponent)) continue;
      met.insert(pair_key(group[i], e.opponent));
      half[i] += e.half_points;
    }
  }
  const bool all_met = met.size() == group.size() * (group.size() - 1) / 2;
  for (std::size_t i = 0; i < group.size(); ++i)
    out.push_back(all_met ? std::optional<double>(half[i] / 2.0) : std::nullopt);
  return out;
}

// `group` ordered and split by direct encounter, which applies again among
// the players a split leaves level (FIDE C.07: the tie-break is computed anew
// for the smaller group; four level on 2.5 points, two with 2 points among
// the four: the game between those two decides). A group whose players did
// not all meet stays whole.
std::vector<std::vector<int>> split_by_direct_encounter(const Tournament& t, std::vector<int> group) {
  const auto de = direct_encounter(t, group);
  std::vector<std::size_t> at(group.size());
  for (std::size_t i = 0; i < at.size(); ++i) at[i] = i;
  std::stable_sort(at.begin(), at.end(),
                   [&](std::size_t a, std::size_t b) { return de[a].value_or(-1) > de[b].value_or(-1); });
  std::vector<std::vector<int>> parts;
  for (std::size_t k = 0; k < at.size(); ++k) {
    if (k == 0 || de[at[k]] != de[at[k - 1]]) parts.emplace_back();
    parts.back().push_back(group[at[k]]);
  }
  if (parts.size() == 1) return parts;
  std::vector<std::vector<int>> out;
  for (std::vector<int>& part : parts) {
    if (part.size() < 2) {
      out.push_back(std::move(part));
      continue;
    }
    for (std::vector<int>& finer : split_by_direct_encounter(t, std::move(part)))
      out.push_back(std::move(finer));
  }
  return out;
}

}  // namespace

std::string_view tie_break_name(TieBreak t) { return kTieBreaks[std::size_t(t)].name; }
std::string_view tie_break_short(TieBreak t) { return kTieBreaks[std::size_t(t)].short_name; }

std::optional<TieBreak> parse_tie_break(std::string_view name) {
  for (const TieBreakInfo& i : kTieBreaks)
    if (iequal(name, i.name) || iequal(name, i.short_name)) return i.tb;
  if (iequal(name, "sb") || iequal(name, "sonneborn-berger")) return TieBreak::SonnebornBerger;
  if (iequal(name, "buchholz-cut1") || iequal(name, "bh-c1")) return TieBreak::BuchholzCut1;
  if (iequal(name, "tpr")) return TieBreak::Performance;
  return std::nullopt;
}

std::vector<TieBreak> default_tie_breaks(System s) {
  switch (s) {
    case System::RoundRobin:
    case System::DoubleRoundRobin:
      return {TieBreak::DirectEncounter, TieBreak::Wins, TieBreak::SonnebornBerger, TieBreak::Koya};
    case System::Swiss:
      return {TieBreak::BuchholzCut1, TieBreak::Buchholz, TieBreak::DirectEncounter, TieBreak::Wins,
              TieBreak::BlackGames};
    case System::Knockout: return {TieBreak::KnockoutStage};
  }
  return {};
}

int fide_dp(int percent) {
  percent = std::clamp(percent, 0, 100);
  return percent >= 50 ? kDp[std::size_t(percent - 50)] : -kDp[std::size_t(50 - percent)];
}

std::vector<std::optional<double>> tie_break_values(const Tournament& t, TieBreak tb) {
  const std::size_t n = t.players.size();
  std::vector<std::optional<double>> out(n);
  if (tb == TieBreak::DirectEncounter) {
    std::map<int, std::vector<int>, std::greater<>> by_points;
    for (std::size_t i = 0; i < n; ++i) by_points[t.players[i].half_points].push_back(int(i));
    for (const auto& [h, group] : by_points) {
      if (group.size() < 2) continue;
      const auto v = direct_encounter(t, group);
      for (std::size_t i = 0; i < group.size(); ++i) out[std::size_t(group[i])] = v[i];
    }
    return out;
  }
  if (tb == TieBreak::KnockoutStage) {
    const auto stage = knockout_stage(t);
    for (std::size_t i = 0; i < n; ++i) out[i] = stage[i];
    return out;
  }
  const std::vector<int> adjusted = adjusted_half_points(t);
  // The games a player could score in: the most results any player has,
  // but for a result without an opponent (a bye) in a round where the
  // player also has a game: a round booked twice, not one more game. (A
  // round of several games, a match's or a team's, counts each.)
  int max_entries = 0;
  for (const Player& p : t.players) {
    std::set<int> with_game;
    for (const Entry& e : p.entries)
      if (e.counted() && e.opponent >= 0 && e.effective_round() != INT_MAX)
        with_game.insert(e.effective_round());
    int results = 0;
    for (const Entry& e : p.entries)
      if (e.counted() && (e.opponent >= 0 || !with_game.count(e.effective_round()))) ++results;
    max_entries = std::max(max_entries, results);
  }
  // A round robin holds n - 1 meetings a player, each of as many games as
  // two players played most, however its missing games read (a withdrawal's
  // games not played are absences, and in an odd round robin where a rest is
  // not known, one more).
  if (is_round_robin(t.system) && n > 1) {
    std::map<std::uint64_t, int> games;
    int most = 1;
    for (std::size_t i = 0; i < n; ++i)
      for (const Entry& e : t.players[i].entries)
        if (e.opponent > int(i)) most = std::max(most, ++games[pair_key(int(i), e.opponent)]);
    max_entries = std::min(max_entries, int(n - 1) * most);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Player& p = t.players[i];
    switch (tb) {
      case TieBreak::Wins:
        out[i] = double(std::count_if(p.entries.begin(), p.entries.end(),
                                      [](const Entry& e) { return e.counted() && e.half_points == 2; }));
        break;
      case TieBreak::GamesWon:
        out[i] = double(std::count_if(p.entries.begin(), p.entries.end(),
                                      [](const Entry& e) { return e.played() && e.half_points == 2; }));
        break;
      case TieBreak::BlackGames:
        out[i] = double(std::count_if(p.entries.begin(), p.entries.end(),
                                      [](const Entry& e) { return e.played() && e.colour == Color::Black; }));
        break;
      case TieBreak::SonnebornBerger: {
        int quarters = 0;
        for (const OpponentScore& o : opponent_scores(t, i, adjusted))
          quarters += o.entry->half_points * o.half_points;
        out[i] = quarters / 4.0;
        break;
      }
      case TieBreak::Koya: {
        // The points against the opponents met (over the board or by
        // forfeit) who scored at least half of 2 * max_entries half points.
        int half = 0;
        for (const Entry& e : p.entries)
          if (e.counted() && e.opponent >= 0 && t.players[std::size_t(e.opponent)].half_points >= max_entries)
            half += e.half_points;
        out[i] = half / 2.0;
        break;
      }
      case TieBreak::Buchholz:
      case TieBreak::BuchholzCut1:
      case TieBreak::MedianBuchholz: {
        // The cuts (art. 14): the lowest score goes first, a VUR's before
        // any other; the median drops the highest too.
        std::vector<OpponentScore> scores = opponent_scores(t, i, adjusted);
        std::sort(scores.begin(), scores.end(), [](const OpponentScore& a, const OpponentScore& b) {
          if (a.voluntarily_unplayed != b.voluntarily_unplayed) return a.voluntarily_unplayed;
          return a.half_points < b.half_points;
        });
        int half = 0;
        for (const OpponentScore& o : scores) half += o.half_points;
        if (tb != TieBreak::Buchholz && !scores.empty()) {
          half -= scores.front().half_points;
          scores.erase(scores.begin());
        }
        if (tb == TieBreak::MedianBuchholz && !scores.empty())
          half -= std::max_element(scores.begin(), scores.end(),
                                   [](const OpponentScore& a, const OpponentScore& b) {
                                     return a.half_points < b.half_points;
                                   })
                      ->half_points;
        out[i] = half / 2.0;
        break;
      }
      case TieBreak::Progressive: out[i] = progressive_score(t, p) / 2.0; break;
      case TieBreak::AverageRating:
        if (auto r = average_rating(t, p)) out[i] = *r;
        break;
      case TieBreak::Performance:
        if (auto r = performance(t, p)) out[i] = *r;
        break;
      case TieBreak::DirectEncounter:
      case TieBreak::KnockoutStage: break;
    }
  }
  return out;
}

std::vector<Standing> standings(const Tournament& t, const std::vector<TieBreak>& order) {
  const std::size_t n = t.players.size();
  std::vector<std::vector<std::optional<double>>> values(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    if (order[k] != TieBreak::DirectEncounter) values[k] = tie_break_values(t, order[k]);
    else values[k].assign(n, std::nullopt);

  // A knockout ranks by the round reached first, then by points.
  std::vector<double> primary(n), secondary(n, 0);
  const bool knockout = t.system == System::Knockout;
  const auto stage = knockout ? tie_break_values(t, TieBreak::KnockoutStage) : std::vector<std::optional<double>>{};
  for (std::size_t i = 0; i < n; ++i) {
    primary[i] = knockout ? stage[i].value_or(0) : t.players[i].points();
    secondary[i] = knockout ? t.players[i].points() : 0;
  }
  std::vector<int> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = int(i);
  std::stable_sort(all.begin(), all.end(), [&](int a, int b) {
    if (primary[std::size_t(a)] != primary[std::size_t(b)]) return primary[std::size_t(a)] > primary[std::size_t(b)];
    return secondary[std::size_t(a)] > secondary[std::size_t(b)];
  });
  // Groups of players still level, refined by each tie-break in turn.
  std::vector<std::vector<int>> groups;
  for (std::size_t i = 0; i < n; ++i) {
    const int p = all[i];
    if (i == 0 || primary[std::size_t(p)] != primary[std::size_t(all[i - 1])] ||
        secondary[std::size_t(p)] != secondary[std::size_t(all[i - 1])])
      groups.emplace_back();
    groups.back().push_back(p);
  }
  auto less_value = [](const std::optional<double>& a, const std::optional<double>& b) {
    if (!a || !b) return !a && b.has_value();
    return *a < *b;
  };
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::vector<std::vector<int>> next;
    for (auto& g : groups) {
      if (g.size() < 2) {
        next.push_back(std::move(g));
        continue;
      }
      auto& v = values[k];
      if (order[k] == TieBreak::DirectEncounter) {
        const auto de = direct_encounter(t, g);
        for (std::size_t i = 0; i < g.size(); ++i) v[std::size_t(g[i])] = de[i];
        for (std::vector<int>& part : split_by_direct_encounter(t, std::move(g)))
          next.push_back(std::move(part));
        continue;
      }
      std::stable_sort(g.begin(), g.end(),
                       [&](int a, int b) { return less_value(v[std::size_t(b)], v[std::size_t(a)]); });
      for (std::size_t i = 0; i < g.size(); ++i) {
        if (i == 0 || v[std::size_t(g[i])] != v[std::size_t(g[i - 1])]) next.emplace_back();
        next.back().push_back(g[i]);
      }
    }
    groups = std::move(next);
  }
  std::vector<Standing> out;
  for (const auto& g : groups) {
    const int rank = int(out.size()) + 1;
    for (int p : g) {
      Standing s;
      s.player = p;
      s.rank = rank;
      for (std::size_t k = 0; k < order.size(); ++k) s.values.push_back(values[k][std::size_t(p)]);
      s.performance = performance(t, t.players[std::size_t(p)]);
      s.average_rating = average_rating(t, t.players[std::size_t(p)]);
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::vector<Match> knockout_matches(const Tournament& t) {
  std::vector<Match> out;
  std::map<std::pair<int, std::uint64_t>, std::size_t> at;
  for (std::size_t gi = 0; gi < t.games.size(); ++gi) {
    const TournamentGame& g = t.games[gi];
    if (g.white < 0 || g.black < 0) continue;
    auto [it, fresh] = at.try_emplace({g.round, pair_key(g.white, g.black)}, out.size());
    if (fresh) {
      Match m;
      m.round = g.round;
      m.a = g.white;
      m.b = g.black;
      out.push_back(m);
    }
    Match& m = out[it->second];
    m.games.push_back(gi);
    const auto [wh, bh] = half_points(g.result);
    m.a_half += m.a == g.white ? wh : bh;
    m.b_half += m.a == g.white ? bh : wh;
  }
  // The latest round each player plays in: a match level on points (an
  // armageddon drawn, a lot drawn) was won by the one of its two who plays
  // on in a later round.
  std::vector<int> last_round(t.players.size(), 0);
  for (const TournamentGame& g : t.games)
    for (const int p : {g.white, g.black})
      if (p >= 0) last_round[std::size_t(p)] = std::max(last_round[std::size_t(p)], g.round);
  for (Match& m : out) {
    m.winner = m.a_half > m.b_half ? m.a : m.b_half > m.a_half ? m.b : -1;
    if (m.winner >= 0 || m.round == 0) continue;
    const bool a_on = last_round[std::size_t(m.a)] > m.round, b_on = last_round[std::size_t(m.b)] > m.round;
    if (a_on != b_on) m.winner = a_on ? m.a : m.b;
  }
  std::stable_sort(out.begin(), out.end(), [](const Match& x, const Match& y) { return x.round < y.round; });
  return out;
}

}  // namespace virrey::tournament
