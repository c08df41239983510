#include "virrey/generate/swiss.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "random.hpp"
#include "tournament.hpp"
#include "virrey/base/log.hpp"
#include "virrey/generate/game_generator.hpp"

namespace virrey::generate {

namespace {

struct Entrant {
  PlayerTag tag;
  int half_points = 0;
  std::vector<int> colours;  // of the games played, in order (+1 White, -1 Black)
  int colour_balance = 0;    // whites minus blacks: the sum of `colours`, kept for the pairing search
  bool had_bye = false;     // or a win by forfeit: no bye then (FIDE C.04.1 d)
  int byes = 0;             // byes received
  std::set<int> met;

  int last_colour() const { return colours.empty() ? 0 : colours.back(); }  // 0: none yet
  // The last two games played with the same colour.
  bool last_two_alike() const { return colours.size() >= 2 && colours.end()[-1] == colours.end()[-2]; }
};

// YYYY.MM.DD `days` days after the given day (one round a day).
std::string date_after(int year, int month, int day, int days) {
  const auto month_days = [](int y, int m) {
    if (m == 2) return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28;
    return m == 4 || m == 6 || m == 9 || m == 11 ? 30 : 31;
  };
  for (; days > 0; --days)
    if (++day > month_days(year, month)) {
      day = 1;
      if (++month > 12) month = 1, ++year;
    }
  return fmt::format("{:04}.{:02}.{:02}", year, month, day);
}

void set_tag(game::GameRecord& r, std::string_view name, std::string value) {
  for (auto& t : r.tags)
    if (t.name == name) {
      t.value = std::move(value);
      return;
    }
  r.tags.push_back({std::string(name), std::move(value)});
}

// The players a score group's first player may meet, in order of preference:
// the first of its lower half, then the rest of its group, then the players
// of lower groups (floaters go down).
std::vector<std::size_t> candidates(const std::vector<Entrant>& players, const std::vector<int>& ranked) {
  const int score = players[std::size_t(ranked.front())].half_points;
  std::size_t group = 0;
  while (group < ranked.size() && players[std::size_t(ranked[group])].half_points == score) ++group;
  std::vector<std::size_t> order;
  if (group >= 2) {
    for (std::size_t i = group / 2; i < group; ++i) order.push_back(i);
    for (std::size_t i = 1; i < group / 2; ++i) order.push_back(i);
  }
  for (std::size_t i = std::max<std::size_t>(group, 1); i < ranked.size(); ++i) order.push_back(i);
  return order;
}

// The colour a player must have next (+1 White, -1 Black), or 0: FIDE's
// absolute colour preference (C.04.3 A.6), where the other colour would make
// the colour difference pass 2 or give the same colour three times in a row
// (C.04.1 f and g).
int colour_due(const Entrant& e) {
  if (e.colour_balance <= -2 || (e.last_colour() < 0 && e.last_two_alike())) return 1;
  if (e.colour_balance >= 2 || (e.last_colour() > 0 && e.last_two_alike())) return -1;
  return 0;
}

// Whether two players may be paired: they have not met, and (when colours
// count) they are not both due the same colour.
bool may_meet(const Entrant& a, int b_index, const Entrant& b, bool colours) {
  if (a.met.count(b_index)) return false;
  return !colours || colour_due(a) == 0 || colour_due(a) != colour_due(b);
}

// How many players the search below may copy in a round before it gives up
// (a try copies the players left).
constexpr std::size_t kPairingWork = 20'000'000;

// Pairs the ranked players top down, nobody meeting an opponent of an
// earlier round (FIDE C.04.1 a) nor, with `colours`, one due the same colour:
// the first player takes the first candidate with whom the others can still
// all be paired, backtracking when they cannot. False when no such pairing
// is found within the budget.
bool pair_without_repeats(const std::vector<Entrant>& players, const std::vector<int>& ranked, bool colours,
                          std::vector<std::pair<int, int>>& pairs, std::size_t& budget) {
  if (ranked.empty()) return true;
  if (ranked.size() == 1) return false;
  const int p = ranked.front();
  for (std::size_t c : candidates(players, ranked)) {
    if (!may_meet(players[std::size_t(p)], ranked[c], players[std::size_t(ranked[c])], colours)) continue;
    if (budget == 0) return false;
    --budget;
    std::vector<int> rest;
    rest.reserve(ranked.size() - 2);
    for (std::size_t i = 1; i < ranked.size(); ++i)
      if (i != c) rest.push_back(ranked[i]);
    pairs.emplace_back(p, ranked[c]);
    if (pair_without_repeats(players, rest, colours, pairs, budget)) return true;
    pairs.pop_back();
  }
  return false;
}

// The fallback: top down, the first candidate not met before and not due
// the same colour, else the first not met before, else the first.
void pair_greedily(const std::vector<Entrant>& players, std::vector<int> ranked,
                   std::vector<std::pair<int, int>>& pairs) {
  while (ranked.size() >= 2) {
    const Entrant& p_entrant = players[std::size_t(ranked.front())];
    const int p = ranked.front();
    const std::vector<std::size_t> order = candidates(players, ranked);
    const auto first = [&](bool colours) -> std::optional<std::size_t> {
      for (std::size_t c : order)
        if (may_meet(p_entrant, ranked[c], players[std::size_t(ranked[c])], colours)) return c;
      return std::nullopt;
    };
    std::optional<std::size_t> pick = first(true);
    if (!pick) pick = first(false);
    if (!pick) pick = order.front();
    pairs.emplace_back(p, ranked[*pick]);
    ranked.erase(ranked.begin() + std::ptrdiff_t(*pick));
    ranked.erase(ranked.begin());
  }
}

// Whether `a` takes White against `b` (FIDE C.04.3 E): the one due a colour
// gets it, else the one owed White by the balance (the stronger
// preference), then by the last colour (both preferences granted). Players
// who want the same colour as much: alternate from the last game in which
// one had White and the other Black (E.3, the colours of games played
// compared from the last), else the higher ranked gets his preference
// (E.4), else (no game played yet) the higher ranked alternately by board.
bool a_takes_white(const Entrant& a, const Entrant& b, bool a_ranked_higher, int board) {
  if (colour_due(a) != colour_due(b)) return colour_due(a) > 0 || colour_due(b) < 0;
  if (a.colour_balance != b.colour_balance) return a.colour_balance < b.colour_balance;
  if (a.last_colour() != b.last_colour()) return a.last_colour() < b.last_colour();
  for (auto x = a.colours.rbegin(), y = b.colours.rbegin(); x != a.colours.rend() && y != b.colours.rend();
       ++x, ++y)
    if (*x != *y) return *x < 0;
  // A colour difference wants the colour that evens it (a strong
  // preference), none the other colour than the last (a mild one): C.04.3 A.6.
  const auto wants_white = [](const Entrant& e) {
    return e.colour_balance != 0 ? e.colour_balance < 0 : e.last_colour() < 0;
  };
  if (a.last_colour() != 0) return a_ranked_higher ? wants_white(a) : !wants_white(b);
  return (board % 2 == 0) == a_ranked_higher;
}

}  // namespace

void swiss_tournament(const SwissOptions& o, const std::function<void(game::GameRecord&)>& emit) {
  const int n = std::clamp(o.players, 2, int(player_pool_size()));
  const Pairing setting = tournament_pairing(o.variant, o.seed, 0);
  const std::uint64_t tournament = 0x5357495353ULL;  // ratings of this event ("SWISS")
  std::vector<Entrant> players(static_cast<std::size_t>(n));
  {
    Random r(mix_words({o.seed, std::uint64_t(o.variant), 0x5357495353ULL}));
    std::set<std::uint64_t> ids;
    for (Entrant& p : players) {
      std::uint64_t id;
      do id = r.next() % player_pool_size();
      while (!ids.insert(id).second);
      p.tag = pool_player(o.seed, id, tournament);
    }
  }
  const std::string event = fmt::format("{} (Swiss)", setting.event);
  const std::string first_day = setting.date;  // YYYY.MM.DD of the first round
  GeneratorOptions gen_options;
  gen_options.variant = o.variant;
  gen_options.seed = o.seed;
  GameGenerator generator(gen_options);
  Random forfeits(mix_words({o.seed, std::uint64_t(o.variant), 0x464f524645495453ULL}));

  const int year = std::stoi(first_day.substr(0, 4));
  const int month = std::stoi(first_day.substr(5, 2));
  const int day = std::stoi(first_day.substr(8, 2));
  for (int round = 1; round <= o.rounds; ++round) {
    // Ranked: score, then rating, then entry order.
    std::vector<int> ranked(static_cast<std::size_t>(n));
    std::iota(ranked.begin(), ranked.end(), 0);
    std::stable_sort(ranked.begin(), ranked.end(), [&](int a, int b) {
      const Entrant& x = players[std::size_t(a)];
      const Entrant& y = players[std::size_t(b)];
      if (x.half_points != y.half_points) return x.half_points > y.half_points;
      return x.tag.elo > y.tag.elo;
    });
    // The bye: the lowest ranked player without one whose absence leaves
    // the others a pairing without repeats (FIDE C.04.1 c).
    std::vector<int> bye_order;
    bool bye_breaks_rule = false;
    if (n % 2 == 1) {
      for (auto it = ranked.rbegin(); it != ranked.rend(); ++it)
        if (!players[std::size_t(*it)].had_bye) bye_order.push_back(*it);
      if (bye_order.empty()) {
        // Everyone has had one or won by forfeit (forfeit wins rule players
        // out too): the fewest byes first, then the lowest ranked, each
        // tried for a pairing without repeats as above.
        bye_order.assign(ranked.rbegin(), ranked.rend());
        std::stable_sort(bye_order.begin(), bye_order.end(), [&](int a, int b) {
          return players[std::size_t(a)].byes < players[std::size_t(b)].byes;
        });
        bye_breaks_rule = true;
      }
    } else {
      bye_order.push_back(-1);
    }
    const auto without = [&](int bye) {
      std::vector<int> rest = ranked;
      if (bye >= 0) rest.erase(std::find(rest.begin(), rest.end(), bye));
      return rest;
    };
    int bye = bye_order.front();
    // First with the colour rules, then (with a warning) without them.
    std::vector<std::pair<int, int>> pairs;
    bool paired = false;
    std::string_view bound;  // how the last search ended short, if it did
    for (const bool colours : {true, false}) {
      std::size_t budget = kPairingWork / std::max<std::size_t>(ranked.size(), 1);
      for (int b : bye_order) {
        if (pair_without_repeats(players, without(b), colours, pairs, budget)) {
          bye = b;
          paired = true;
          break;
        }
        pairs.clear();
      }
      if (paired) {
        if (!colours)
          log::warn(
              "swiss: round {}: no pairing of the {} players that keeps FIDE's colour rules (a colour "
              "difference within 2, no colour three times in a row) was found{}; colours go as they can",
              round, n, bound);
        break;
      }
      bound = budget == 0 ? " within the search bound" : "";
    }
    if (!paired) {
      log::warn(
          "swiss: round {}: no pairing of the {} players without a game played before was found{}; some meet "
          "again, and colours go as they can",
          round, n, bound);
      pair_greedily(players, without(bye), pairs);
    }
    if (bye_breaks_rule) {
      const Entrant& e = players[std::size_t(bye)];
      log::warn(
          "swiss: round {}: every player has had a bye or won by forfeit; the bye goes to {}, who has had {}",
          round, e.tag.name,
          e.byes == 0 ? std::string("a win by forfeit")
                      : fmt::format("{} bye{}", e.byes, e.byes > 1 ? "s" : ""));
    }
    const std::string date = date_after(year, month, day, round - 1);
    auto common_tags = [&](game::GameRecord& rec, int board) {
      set_tag(rec, "Event", event);
      set_tag(rec, "Site", setting.site);
      set_tag(rec, "Date", date);
      set_tag(rec, "Round", fmt::format("{}.{}", round, board));
      set_tag(rec, "EventDate", first_day);
      // PGN's EventType: what the pairings alone may not tell (a Swiss of
      // players - 1 rounds can pair as a round robin does).
      const auto result =
          std::find_if(rec.tags.begin(), rec.tags.end(), [](const auto& t) { return t.name == "Result"; });
      rec.tags.insert(result == rec.tags.end() ? result : result + 1, {"EventType", "swiss"});
    };
    std::vector<std::size_t> rank_of(ranked.size());  // by player: place in `ranked`
    for (std::size_t i = 0; i < ranked.size(); ++i) rank_of[std::size_t(ranked[i])] = i;
    for (std::size_t b = 0; b < pairs.size(); ++b) {
      auto [p, q] = pairs[b];
      Entrant& a = players[std::size_t(p)];
      Entrant& c = players[std::size_t(q)];
      if (!a_takes_white(a, c, rank_of[std::size_t(p)] < rank_of[std::size_t(q)], int(b))) std::swap(p, q);
      Entrant& w = players[std::size_t(p)];
      Entrant& k = players[std::size_t(q)];
      GeneratedGame g = generator.game(std::uint64_t(round) * std::uint64_t(n) + b);
      game::GameRecord& rec = g.record;
      const bool forfeit = forfeits.chance(20);
      if (forfeit) {  // one side did not appear
        rec.main_line.clear();
        rec.movetext.clear();
        rec.result = forfeits.chance(500) ? GameResult::WhiteWins : GameResult::BlackWins;
        set_tag(rec, "Result", std::string(result_text(rec.result)));
        set_tag(rec, "PlyCount", "0");
        set_tag(rec, "Termination", "forfeit");
      }
      common_tags(rec, int(b) + 1);
      set_tag(rec, "White", w.tag.name);
      set_tag(rec, "Black", k.tag.name);
      set_tag(rec, "WhiteElo", std::to_string(w.tag.elo));
      set_tag(rec, "BlackElo", std::to_string(k.tag.elo));
      const int wh = rec.result == GameResult::WhiteWins ? 2 : rec.result == GameResult::Draw ? 1 : 0;
      w.half_points += wh;
      k.half_points += 2 - wh;
      if (!forfeit) {  // colours count the games played (FIDE C.04.3 A.6)
        ++w.colour_balance;
        --k.colour_balance;
        w.colours.push_back(1);
        k.colours.push_back(-1);
      }
      w.met.insert(q);
      k.met.insert(p);
      if (forfeit) (wh == 2 ? w : k).had_bye = true;  // its winner
      emit(rec);
    }
    if (bye >= 0) {
      Entrant& e = players[std::size_t(bye)];
      game::GameRecord rec;
      rec.variant = o.variant;
      rec.result = GameResult::WhiteWins;
      rec.tags = {{"Event", ""}, {"Site", ""}, {"Date", ""}, {"Round", ""}, {"White", e.tag.name},
                  {"Black", "BYE"}, {"Result", "1-0"}, {"WhiteElo", std::to_string(e.tag.elo)}};
      if (o.variant != Variant::Standard) rec.tags.push_back({"Variant", std::string(info(o.variant).name)});
      rec.tags.push_back({"PlyCount", "0"});
      common_tags(rec, int(pairs.size()) + 1);
      e.half_points += 2;
      e.had_bye = true;
      ++e.byes;
      emit(rec);
    }
  }
}

}  // namespace virrey::generate
