// Every figure of the four statistics compared with the same figure counted
// here by replaying the games of the test collection (stats_collection.hpp),
// in Standard, Virrey and Modern games.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "stats_collection.hpp"
#include "store_hooks.hpp"
#include "virrey/query/stats_games.hpp"
#include "virrey/query/stats_openings.hpp"
#include "virrey/query/stats_promotions.hpp"
#include "virrey/query/stats_results.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::stats_test {
namespace {

using query::GameScope;
using store::TreeCounters;

Collection& data() { return Collection::shared(); }

// --- openings -------------------------------------------------------------------

TreeCounters game_counters(const RefGame& g) {
  TreeCounters c;
  c.games = 1;
  c.white_wins = g.record.result == GameResult::WhiteWins;
  c.draws = g.record.result == GameResult::Draw;
  c.black_wins = g.record.result == GameResult::BlackWins;
  c.white_elo_sum = g.white_elo;
  c.white_elo_games = g.white_elo != 0;
  c.black_elo_sum = g.black_elo;
  c.black_elo_games = g.black_elo != 0;
  c.last_date = g.date;
  return c;
}

using Pick = std::function<bool(const RefGame&)>;
bool every_game(const RefGame&) { return true; }

// The scopes every statistic is checked over: all games, one variant, and
// sets of game ids (which take the replay path of opening statistics; the
// smallest makes it decode every game of the scope).
struct Sample {
  std::string name;
  GameScope scope;
  Pick pick;
};
std::vector<Sample> samples() {
  std::vector<Sample> out;
  out.push_back({"all", GameScope::everything(), every_game});
  for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern})
    out.push_back({std::string(info(v).cli_name) + " only", GameScope::everything(v),
                   [v](const RefGame& g) { return g.record.variant == v; }});
  for (unsigned n : {1u, 2u, 3u, 200u}) {  // 200: a scope smaller than the start position's index entries
    const Pick pick = [n](const RefGame& g) { return g.id % n == 1 % n; };
    std::vector<query::GameMatch> ids;
    for (const RefGame& g : data().games)
      if (pick(g)) ids.push_back({g.id, std::nullopt, g.record.variant});
    out.push_back({"ids 1 mod " + std::to_string(n), GameScope::of_matches(ids), pick});
  }
  return out;
}

// Moves (UCI) played from the position `key` in the first `plies` plies of
// the games picked, each game counted once per distinct move.
std::map<std::string, TreeCounters> reference_moves(Variant v, const std::string& key, std::size_t plies,
                                                    const Pick& pick = every_game) {
  std::map<std::string, TreeCounters> out;
  for (const RefGame& g : data().games) {
    if (g.record.variant != v || !pick(g)) continue;
    std::set<std::string> played;
    for (std::size_t i = 0; i < g.uci.size() && i < plies; ++i)
      if (g.keys[i] == key) played.insert(g.uci[i]);
    for (const auto& m : played) out[m].add(game_counters(g));
  }
  return out;
}

// Compares a node's moves with the reference, recursively for children.
void expect_moves(Variant v, const std::string& key, const std::vector<query::OpeningMove>& moves,
                  std::size_t plies, const Pick& pick, int depth, const std::string& where) {
  const auto ref = reference_moves(v, key, plies, pick);
  ASSERT_EQ(moves.size(), ref.size()) << where;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto& m = moves[i];
    auto it = ref.find(m.uci);
    ASSERT_NE(it, ref.end()) << where << " " << m.uci;
    EXPECT_EQ(m.counters, it->second) << where << " " << m.uci;
    if (i > 0) {
      const auto& p = moves[i - 1];
      EXPECT_TRUE(p.counters.games > m.counters.games ||
                  (p.counters.games == m.counters.games && p.san < m.san))
          << where << ": order";
    }
  }
  if (depth <= 1) return;
  for (const auto& m : moves) {
    // The position after the move, found in any game that played it.
    std::string child;
    for (const RefGame& g : data().games)
      for (std::size_t i = 0; child.empty() && i < g.uci.size(); ++i)
        if (g.record.variant == v && g.keys[i] == key && g.uci[i] == m.uci) child = g.keys[i + 1];
    ASSERT_FALSE(child.empty());
    expect_moves(v, child, m.children, plies, pick, depth - 1, where + " " + m.san);
  }
}

void expect_opening(const query::OpeningQuery& q, const GameScope& scope, std::size_t plies, const Pick& pick,
                    const std::string& where) {
  auto s = query::opening_stats(*data().db, q, scope);
  ASSERT_TRUE(s) << where << ": " << s.error().message;
  const std::string key = position_key(s->fen);
  expect_moves(q.variant, key, s->moves, plies, pick, q.depth, where);
  TreeCounters total;
  for (const auto& [uci, c] : reference_moves(q.variant, key, plies, pick)) total.add(c);
  EXPECT_EQ(s->total, total) << where;
}

// Roots: the start position, positions after 8 plies of some games (as SAN
// moves and as a FEN), for both variants.
struct Root {
  Variant variant;
  std::vector<std::string> moves;
  std::string fen;
};
std::vector<Root> roots() {
  std::vector<Root> out;
  for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
    out.push_back({v, {}, {}});
    int taken = 0;
    for (const RefGame& g : data().games) {
      if (g.record.variant != v || g.san.size() < 12) continue;
      const int k = taken++;
      if (k % 40 != 0 || k > 200) continue;
      out.push_back({v, std::vector<std::string>(g.san.begin(), g.san.begin() + 8), {}});
      out.push_back({v, {}, g.keys[5]});
      out.push_back({v, {g.san[0] + " " + g.san[1]}, {}});  // several moves in one string
    }
  }
  return out;
}

std::string describe(const Root& r) {
  std::string s(info(r.variant).cli_name);
  for (const auto& m : r.moves) s += " " + m;
  return s + (r.fen.empty() ? "" : " fen " + r.fen);
}

TEST(StatsCollection, HasWhatTheTestsNeed) {
  std::array<int, kVariantCount> games{};
  int viceroys = 0, long_games = 0;
  for (const RefGame& g : data().games) {
    ++games[std::size_t(g.record.variant)];
    for (const auto& p : g.promotions) viceroys += p.piece == PieceType::Viceroy;
    long_games += g.uci.size() >= 80;
  }
  EXPECT_EQ(games[std::size_t(Variant::Virrey)], 603);
  EXPECT_EQ(games[std::size_t(Variant::Standard)], 301);
  EXPECT_EQ(games[std::size_t(Variant::Modern)], 241);
  EXPECT_GT(viceroys, 20);
  EXPECT_GT(long_games, 10);
  int with_moves = 0;
  for (const Root& r : roots()) {
    query::OpeningQuery q;
    q.variant = r.variant;
    q.moves = r.moves;
    q.fen = r.fen;
    auto s = query::opening_stats(*data().db, q, GameScope::everything());
    ASSERT_TRUE(s) << s.error().message;
    with_moves += !s->moves.empty();
  }
  EXPECT_GE(with_moves, 20);
}

TEST(StatsOpenings, TreeMatchesReplayedGames) {
  const std::size_t tree_plies = data().db->tree_plies();
  for (const Root& r : roots()) {
    query::OpeningQuery q;
    q.variant = r.variant;
    q.moves = r.moves;
    q.fen = r.fen;
    q.depth = 2;
    expect_opening(q, GameScope::everything(), tree_plies, every_game, "tree " + describe(r));
    auto s = query::opening_stats(*data().db, q, GameScope::everything());
    ASSERT_TRUE(s);
    EXPECT_EQ(s->source, query::OpeningSource::Tree) << describe(r);
  }
}

TEST(StatsOpenings, ReplayOverAScopeMatchesReplayedGames) {
  for (const Sample& sample : samples()) {
    if (sample.scope.unrestricted()) continue;
    for (const Root& r : roots()) {
      query::OpeningQuery q;
      q.variant = r.variant;
      q.moves = r.moves;
      q.fen = r.fen;
      q.depth = 2;
      expect_opening(q, sample.scope, SIZE_MAX, sample.pick, sample.name + " " + describe(r));
      auto s = query::opening_stats(*data().db, q, sample.scope);
      ASSERT_TRUE(s);
      if (!s->moves.empty()) {
        EXPECT_EQ(s->source, query::OpeningSource::Replay);
      }
    }
  }
}

TEST(StatsOpenings, FilterByPlayer) {
  const RefGame& g0 = data().games[10];
  const std::string white(g0.record.tag("White"));
  query::GameFilter f;
  f.tags.white = white;
  auto scope = GameScope::from_filter(*data().db, f);
  ASSERT_TRUE(scope) << scope.error().message;
  ASSERT_FALSE(scope->unrestricted());
  query::OpeningQuery q;
  q.variant = g0.record.variant;
  q.depth = 3;
  const std::string norm = store::normalize_tag_value(white);
  expect_opening(
      q, *scope, SIZE_MAX,
      [&](const RefGame& g) { return store::normalize_tag_value(g.record.tag("White")) == norm; },
      "white " + white);
}

TEST(StatsOpenings, TranspositionsAreMerged) {
  // A position reached by two different move orders within 8 plies.
  for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
    std::map<std::string, std::set<std::vector<std::string>>> orders;
    for (const RefGame& g : data().games) {
      if (g.record.variant != v) continue;
      for (std::size_t i = 2; i <= 8 && i < g.keys.size(); ++i)
        orders[g.keys[i]].insert(std::vector<std::string>(g.san.begin(), g.san.begin() + long(i)));
    }
    int found = 0;
    for (const auto& [key, lines] : orders) {
      if (lines.size() < 2 || found >= 3) continue;
      ++found;
      std::vector<query::OpeningStats> views;
      for (const auto& line : lines) {
        query::OpeningQuery q;
        q.variant = v;
        q.moves = line;
        auto s = query::opening_stats(*data().db, q, GameScope::everything());
        ASSERT_TRUE(s) << s.error().message;
        views.push_back(*s);
      }
      query::OpeningQuery by_fen;
      by_fen.variant = v;
      by_fen.fen = key;
      expect_opening(by_fen, GameScope::everything(), data().db->tree_plies(), every_game, "transposition");
      for (const auto& s : views) {
        EXPECT_EQ(s.total, views[0].total);
        ASSERT_EQ(s.moves.size(), views[0].moves.size());
        for (std::size_t i = 0; i < s.moves.size(); ++i)
          EXPECT_EQ(s.moves[i].counters, views[0].moves[i].counters);
      }
    }
    EXPECT_GT(found, 0) << info(v).cli_name << ": the collection has no transposition";
  }
}

TEST(StatsOpenings, DeepPositionsComeFromReplay) {
  int checked = 0;
  for (const RefGame& g : data().games) {
    if (g.keys.size() < 80 || checked >= 4) continue;
    ++checked;
    query::OpeningQuery q;
    q.variant = g.record.variant;
    q.fen = g.keys[70];
    expect_opening(q, GameScope::everything(), SIZE_MAX, every_game, "deep");
  }
  EXPECT_GT(checked, 0);
}

// Roots right before a capture and its recapture: the positions two plies
// below have two men fewer than the root, and their moves must still be
// listed (a replayed game is decoded only down to the fewest men a position
// asked about can have).
TEST(StatsOpenings, ReplayFollowsCapturesBelowTheRoot) {
  auto men = [](const std::string& key) {
    int n = 0;
    for (char c : key.substr(0, key.find(' '))) n += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return n;
  };
  std::vector<query::GameMatch> all;
  for (const RefGame& g : data().games) all.push_back({g.id, std::nullopt, g.record.variant});
  const GameScope scope = GameScope::of_matches(all);  // a scope: the replay path
  int checked = 0;
  for (const RefGame& g : data().games) {
    if (checked >= 6) break;
    for (std::size_t i = 16; i + 2 < g.keys.size(); ++i) {
      if (men(g.keys[i + 1]) >= men(g.keys[i]) || men(g.keys[i + 2]) >= men(g.keys[i + 1])) continue;
      query::OpeningQuery q;
      q.variant = g.record.variant;
      q.fen = g.keys[i];
      q.depth = 3;
      expect_opening(q, scope, SIZE_MAX, every_game, "captures below " + g.keys[i]);
      ++checked;
      break;
    }
  }
  EXPECT_GE(checked, 6);
}

// A tree key holds 7 bytes of the hash, so another position may share one:
// moves the tree lists that are not legal in the position asked about are
// left out, and a position whose tree moves are all such is replayed.
TEST(StatsOpenings, TreeMovesIllegalInThePositionAreLeftOut) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(data().db_path()).parent_path() / "illegal-tree-moves";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string copy = (dir / "copy.db").string();
  fs::copy(data().db_path(), copy, fs::copy_options::recursive);

  const RefGame* deep = nullptr;
  for (const RefGame& g : data().games)
    if (g.record.variant == Variant::Standard && g.keys.size() > 60) deep = &g;
  ASSERT_NE(deep, nullptr);
  FenProblems errors;
  auto start = position_from_fen<Board8>(info(Variant::Standard).start_fen, Variant::Standard, errors);
  auto late = position_from_fen<Board8>(deep->keys[50], Variant::Standard, errors);
  ASSERT_TRUE(start && late);
  const Move a1a8(Square(0), Square(56));  // a rook through its own pawn
  const TreeCounters bogus{7, 7, 0, 0, 0, 0, 0, 0, 20200101};
  for (std::uint64_t hash : {start->hash(), late->hash()})
    ASSERT_TRUE(store::testing::put_raw_entry(
        copy, store::Family::Tree, std::string(store::view(store::tree_key(Variant::Standard, hash, a1a8))),
        store::encode_tree_counters(bogus)));
  auto db = store::Database::open(copy, {store::OpenMode::Read});
  ASSERT_TRUE(db);
  for (const std::string& fen : {std::string(), deep->keys[50]}) {
    query::OpeningQuery q;
    q.variant = Variant::Standard;
    q.fen = fen;
    auto want = query::opening_stats(*data().db, q, GameScope::everything());
    auto got = query::opening_stats(**db, q, GameScope::everything());
    ASSERT_TRUE(want && got);
    EXPECT_EQ(got->source, want->source) << fen;
    EXPECT_EQ(got->total, want->total) << fen;
    ASSERT_EQ(got->moves.size(), want->moves.size()) << fen;
    for (std::size_t i = 0; i < got->moves.size(); ++i) {
      EXPECT_NE(got->moves[i].move, a1a8);
      EXPECT_EQ(got->moves[i].san, want->moves[i].san);
      EXPECT_EQ(got->moves[i].counters, want->moves[i].counters);
    }
  }
  db->reset();
  fs::remove_all(dir);
}

TEST(StatsOpenings, LimitsAndErrors) {
  query::OpeningQuery q;
  q.variant = Variant::Virrey;
  q.min_games = 20;
  q.max_moves = 3;
  auto s = query::opening_stats(*data().db, q, GameScope::everything());
  ASSERT_TRUE(s);
  EXPECT_LE(s->moves.size(), 3u);
  for (const auto& m : s->moves) EXPECT_GE(m.counters.games, 20u);
  EXPECT_EQ(s->side_to_move, Color::White);

  for (auto bad :
       {std::pair<std::string, std::string>{"not a fen", ""}, {"", "e4 Ke5"}, {"", "e4 e5 e8=Q"}}) {
    query::OpeningQuery b;
    b.variant = Variant::Virrey;
    b.fen = bad.first;
    if (!bad.second.empty()) b.moves = {bad.second};
    auto r = query::opening_stats(*data().db, b, GameScope::everything());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::InvalidArgument) << r.error().message;
  }
  query::OpeningQuery deep;
  deep.depth = 0;
  EXPECT_FALSE(query::opening_stats(*data().db, deep, GameScope::everything()));
  // Move numbers and results are skipped.
  query::OpeningQuery numbered;
  numbered.variant = Variant::Virrey;
  numbered.moves = {"1. " + data().games[0].san[0], data().games[0].san[1], "*"};
  auto n = query::opening_stats(*data().db, numbered, GameScope::everything());
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_EQ(n->line.size(), 2u);
  EXPECT_EQ(n->fullmove, 2);
}

// --- results --------------------------------------------------------------------

std::string group_key(const RefGame& g, query::ResultGrouping by, std::string_view tag = {}) {
  auto normalized = [&](std::string_view name) {
    std::string v = store::normalize_tag_value(g.record.tag(name));
    return v == "?" || v == "-" ? std::string() : v;
  };
  switch (by) {
    case query::ResultGrouping::Variant: return std::string(info(g.record.variant).cli_name);
    case query::ResultGrouping::Year: return g.date ? std::to_string(g.date / 10000) : "";
    case query::ResultGrouping::Event: return normalized("Event");
    case query::ResultGrouping::Eco: {  // one group for "B90" and "b90", keyed "B90"
      std::string v = normalized("ECO");
      if (!v.empty()) v[0] = char(std::toupper(static_cast<unsigned char>(v[0])));
      return v;
    }
    case query::ResultGrouping::Player: return normalized(tag);
    case query::ResultGrouping::None:
    case query::ResultGrouping::RatingBand:  // (result_groups_test.cpp)
    case query::ResultGrouping::TimeControl:
    case query::ResultGrouping::Opening: break;  // (openings_cli_test.cpp)
  }
  return "";
}

void add_player(query::PlayerScore& p, Color side, GameResult r) {
  (side == Color::White ? p.as_white : p.as_black)++;
  if (r == GameResult::Draw)
    ++p.draws;
  else if (r == GameResult::Unknown)
    ++p.unfinished;
  else if ((r == GameResult::WhiteWins) == (side == Color::White))
    ++p.wins;
  else
    ++p.losses;
}

void expect_results(const GameScope& scope, const Pick& pick, const std::string& where) {
  using query::ResultGrouping;
  for (auto by : {ResultGrouping::None, ResultGrouping::Variant, ResultGrouping::Year, ResultGrouping::Event,
                  ResultGrouping::Player, ResultGrouping::Eco}) {
    query::ResultCounts total;
    std::map<std::string, query::ResultCounts> groups;
    std::map<std::string, query::PlayerScore> players;
    for (const RefGame& g : data().games) {
      if (!pick(g)) continue;
      const auto plies = g.uci.size();
      total.add(g.record.result, plies);
      if (by == ResultGrouping::Player) {
        // A game whose two players are one group (both unknown, or one
        // name twice) counts there once, as White's.
        const std::string white = group_key(g, by, "White"), black = group_key(g, by, "Black");
        groups[white].add(g.record.result, plies);
        add_player(players[white], Color::White, g.record.result);
        if (black != white) {
          groups[black].add(g.record.result, plies);
          add_player(players[black], Color::Black, g.record.result);
        }
      } else if (by != ResultGrouping::None) {
        groups[group_key(g, by)].add(g.record.result, plies);
      }
    }
    query::ResultQuery q;
    q.by = by;
    auto s = query::result_stats(*data().db, scope, q);
    ASSERT_TRUE(s) << s.error().message;
    const std::string at = where + " by " + std::string(query::grouping_name(by));
    EXPECT_EQ(s->total, total) << at;
    EXPECT_EQ(s->group_count, groups.size()) << at;
    ASSERT_EQ(s->groups.size(), groups.size()) << at;
    for (const auto& g : s->groups) {
      auto it = groups.find(g.key);
      ASSERT_NE(it, groups.end()) << at << " " << g.key;
      EXPECT_EQ(g.counts, it->second) << at << " " << g.key;
      if (by == ResultGrouping::Player) {
        ASSERT_TRUE(g.player);
        EXPECT_EQ(*g.player, players[g.key]) << at << " " << g.key;
      }
      if (g.key.empty()) {
        EXPECT_EQ(g.label, "?");
      } else if (by == ResultGrouping::Event || by == ResultGrouping::Player) {
        EXPECT_EQ(store::normalize_tag_value(g.label), g.key) << at;
      }
    }
  }
}

TEST(StatsResults, EveryGroupingMatchesReplayedGames) {
  for (const Sample& sample : samples()) expect_results(sample.scope, sample.pick, sample.name);
}

TEST(StatsResults, OrderAndLimit) {
  query::ResultQuery q;
  q.by = query::ResultGrouping::Year;
  auto years = query::result_stats(*data().db, GameScope::everything(), q);
  ASSERT_TRUE(years);
  ASSERT_GE(years->groups.size(), 3u);
  EXPECT_TRUE(years->groups.back().key.empty());  // unknown last
  for (std::size_t i = 1; i + 1 < years->groups.size(); ++i)
    EXPECT_LT(years->groups[i - 1].key, years->groups[i].key);

  q.by = query::ResultGrouping::Player;
  q.limit = 5;
  auto players = query::result_stats(*data().db, GameScope::everything(), q);
  ASSERT_TRUE(players);
  EXPECT_EQ(players->groups.size(), 5u);
  EXPECT_GT(players->group_count, 5u);
  for (std::size_t i = 1; i < players->groups.size(); ++i)
    EXPECT_GE(players->groups[i - 1].counts.games, players->groups[i].counts.games);

  q.by = query::ResultGrouping::Eco;
  q.limit = 0;
  auto eco = query::result_stats(*data().db, GameScope::everything(), q);
  ASSERT_TRUE(eco);
  // "B90" and "b90" are one group, keyed and labelled as the code is
  // written: every game tagged either way.
  const auto b90 = std::find_if(eco->groups.begin(), eco->groups.end(),
                                [](const query::ResultGroup& g) { return g.label == "B90"; });
  ASSERT_NE(b90, eco->groups.end());
  EXPECT_EQ(b90->key, "B90");
  std::uint64_t tagged_b90 = 0;
  for (const RefGame& g : data().games)
    tagged_b90 += g.record.tag("ECO") == "B90" || g.record.tag("ECO") == "b90";
  EXPECT_GT(tagged_b90, 0u);
  EXPECT_EQ(b90->counts.games, tagged_b90);
  for (const auto& g : eco->groups) EXPECT_EQ(g.key, g.key == "" ? "" : g.label);
}

TEST(StatsResults, DerivedFigures) {
  query::ResultCounts c;
  c.add(GameResult::WhiteWins, 10);
  c.add(GameResult::Draw, 20);
  c.add(GameResult::BlackWins, 30);
  c.add(GameResult::Unknown, 40);
  EXPECT_DOUBLE_EQ(query::decisive_percent(c), 200.0 / 3.0);
  EXPECT_DOUBLE_EQ(query::average_plies(c), 25.0);
  EXPECT_DOUBLE_EQ(*query::score_percent(1, 1, 0), 75.0);
  EXPECT_FALSE(query::score_percent(0, 0, 0));
  EXPECT_EQ(query::date_text(20240517), "2024.05.17");
  EXPECT_EQ(query::date_text(20240500), "2024.05.??");
  EXPECT_EQ(query::date_text(20240000), "2024.??.??");
  EXPECT_EQ(query::date_text(0), "");
}

// --- promotions -----------------------------------------------------------------

void expect_promotions(const GameScope& scope, const Pick& pick, const std::string& where) {
  auto s = query::promotion_stats(*data().db, scope);
  ASSERT_TRUE(s) << s.error().message;
  for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
    const std::string at = where + " " + std::string(info(v).cli_name);
    std::map<std::tuple<int, int, int>, query::PromotionCell> cells;
    query::VariantPromotions ref;
    query::ViceroyStats& vr = ref.viceroy;
    for (const RefGame& g : data().games) {
      if (g.record.variant != v || !pick(g)) continue;
      ++ref.games;
      ref.promotions += g.promotions.size();
      ref.games_with_promotion += !g.promotions.empty();
      ref.max_in_game = std::max<std::uint64_t>(ref.max_in_game, g.promotions.size());
      std::uint64_t viceroys = 0;
      const RefPromotion* first = nullptr;
      for (const auto& p : g.promotions) {
        auto& c = cells[{int(p.piece), int(p.colour), p.file}];
        c.piece = p.piece, c.colour = p.colour, c.file = p.file;
        ++c.count;
        c.captured_later += p.captured_later;
        c.gave_mate += p.gave_mate;
        if (p.piece != PieceType::Viceroy) continue;
        ++viceroys;
        vr.captured_later += p.captured_later;
        vr.gave_mate += p.gave_mate;
        if (!first) first = &p;
      }
      if (!first) continue;
      ++vr.games;
      vr.promotions += viceroys;
      if (viceroys > vr.max_in_game) vr.max_in_game = viceroys, vr.max_game = g.id;
      vr.first_ply_sum += first->ply;
      (first->colour == Color::White ? vr.first_by_white : vr.first_by_black)++;
      const GameResult r = g.record.result;
      if (r == GameResult::Draw)
        ++vr.first_draws;
      else if (r == GameResult::Unknown)
        ++vr.first_unfinished;
      else if ((r == GameResult::WhiteWins) == (first->colour == Color::White))
        ++vr.first_wins;
      else
        ++vr.first_losses;
    }
    const query::VariantPromotions* got = nullptr;
    for (const auto& x : s->variants)
      if (x.variant == v) got = &x;
    if (ref.games == 0) {
      EXPECT_EQ(got, nullptr) << at;
      continue;
    }
    ASSERT_NE(got, nullptr) << at;
    EXPECT_EQ(got->games, ref.games) << at;
    EXPECT_EQ(got->promotions, ref.promotions) << at;
    EXPECT_EQ(got->games_with_promotion, ref.games_with_promotion) << at;
    EXPECT_EQ(got->max_in_game, ref.max_in_game) << at;
    EXPECT_EQ(got->viceroy, vr) << at;
    ASSERT_EQ(got->cells.size(), cells.size()) << at;
    for (const auto& c : got->cells) EXPECT_EQ(c, (cells[{int(c.piece), int(c.colour), c.file}])) << at;
    // Margins.
    std::uint64_t white = 0;
    for (const auto& [k, c] : cells) white += c.colour == Color::White ? c.count : 0;
    EXPECT_EQ(got->by_colour(Color::White), white) << at;
    if (v == Variant::Virrey) {
      if (ref.games >= 100) {
        EXPECT_GT(vr.games, 0u) << at;
      }
      EXPECT_EQ(got->by_piece(PieceType::Viceroy), got->by_file(4)) << at;  // the e-file makes viceroys
      EXPECT_EQ(got->by_piece(PieceType::Queen), got->by_file(3)) << at;
    }
    if (v == Variant::Modern && ref.games >= 100) {
      EXPECT_GT(got->by_piece(PieceType::Minister), 0u) << at;
      EXPECT_EQ(got->by_piece(PieceType::Viceroy), 0u) << at;
    }
  }
}

TEST(StatsPromotions, MatchReplayedGames) {
  for (const Sample& sample : samples()) expect_promotions(sample.scope, sample.pick, sample.name);
}

TEST(StatsPromotions, TheCollectionCoversCaptureAndMate) {
  for (PieceType piece : {PieceType::Viceroy, PieceType::Minister}) {
    std::uint64_t captured = 0, mate = 0;
    for (const RefGame& g : data().games)
      for (const auto& p : g.promotions)
        if (p.piece == piece) captured += p.captured_later, mate += p.gave_mate;
    EXPECT_GT(captured, 0u) << piece_letter(piece);
    EXPECT_GT(mate, 0u) << piece_letter(piece);
  }
}

TEST(StatsPromotions, FilterChoosesGames) {
  query::GameFilter f;
  f.promotion = query::PromotionCondition{};
  f.promotion->piece = PieceType::Viceroy;
  f.promotion->min_count = 2;
  auto scope = GameScope::from_filter(*data().db, f);
  ASSERT_TRUE(scope);
  expect_promotions(
      *scope,
      [](const RefGame& g) {
        int white = 0, black = 0;
        for (const auto& p : g.promotions)
          if (p.piece == PieceType::Viceroy) (p.colour == Color::White ? white : black)++;
        return white >= 2 || black >= 2;
      },
      "two viceroys by one side");
}

// --- games ------------------------------------------------------------------------

void expect_games(const GameScope& scope, const Pick& pick, const std::string& where) {
  auto s = query::game_stats(*data().db, scope);
  ASSERT_TRUE(s) << s.error().message;
  std::vector<std::uint32_t> all_lengths;
  std::uint64_t all_games = 0;
  for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
    const std::string at = where + " " + std::string(info(v).cli_name);
    query::ResultCounts results;
    std::array<std::array<std::uint64_t, 4>, query::kEndingCount> endings{};
    std::vector<std::uint32_t> lengths;
    for (const RefGame& g : data().games) {
      if (g.record.variant != v || !pick(g)) continue;
      results.add(g.record.result, g.uci.size());
      ++endings[std::size_t(g.ending)][std::size_t(g.record.result)];
      lengths.push_back(std::uint32_t(g.uci.size()));
    }
    all_lengths.insert(all_lengths.end(), lengths.begin(), lengths.end());
    all_games += lengths.size();
    const query::VariantGameStats* got = nullptr;
    for (const auto& x : s->variants)
      if (x.variant == v) got = &x;
    if (lengths.empty()) {
      EXPECT_EQ(got, nullptr) << at;
      continue;
    }
    ASSERT_NE(got, nullptr) << at;
    EXPECT_EQ(got->results, results) << at;
    EXPECT_EQ(got->endings, endings) << at;
    std::sort(lengths.begin(), lengths.end());
    const auto& d = got->lengths;
    EXPECT_EQ(d.games(), lengths.size()) << at;
    EXPECT_EQ(d.min(), lengths.front()) << at;
    EXPECT_EQ(d.max(), lengths.back()) << at;
    double sum = 0;
    for (auto l : lengths) sum += l;
    EXPECT_DOUBLE_EQ(d.mean(), sum / double(lengths.size())) << at;
    for (double q : {0.1, 0.25, 0.5, 0.75, 0.9, 1.0}) {
      const std::size_t rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(lengths.size()))));
      EXPECT_EQ(d.quantile(q), lengths[rank - 1]) << at << " q " << q;
    }
    for (std::uint32_t width : {1u, 10u, 25u}) {
      const auto bins = query::length_histogram(d, width);
      ASSERT_EQ(bins.size(), lengths.back() / width - lengths.front() / width + 1) << at;
      EXPECT_EQ(bins.front().from, lengths.front() / width * width) << at;
      for (const auto& b : bins) {
        const auto n =
            std::count_if(lengths.begin(), lengths.end(), [&](auto l) { return l >= b.from && l <= b.to; });
        EXPECT_EQ(b.games, std::uint64_t(n)) << at << " bin " << b.from;
        EXPECT_EQ(b.to - b.from + 1, width);
      }
    }
    std::uint64_t mates = 0;
    for (auto c : endings[std::size_t(store::Ending::Checkmate)]) mates += c;
    EXPECT_EQ(got->ending_count(store::Ending::Checkmate), mates) << at;
  }
  EXPECT_EQ(s->total.lengths.games(), all_games) << where;
  EXPECT_EQ(s->total.results.games, all_games) << where;
}

TEST(StatsGames, MatchReplayedGames) {
  for (const Sample& sample : samples()) expect_games(sample.scope, sample.pick, sample.name);
}

TEST(StatsGames, TheCollectionCoversEveryEnding) {
  std::array<int, 3> seen{};
  for (const RefGame& g : data().games) ++seen[std::size_t(g.ending)];
  for (int n : seen) EXPECT_GT(n, 0);
}

TEST(StatsGames, HistogramWidth) {
  query::LengthDistribution d;
  for (std::uint32_t p : {0u, 5u, 99u, 250u}) d.add(p);
  EXPECT_EQ(query::histogram_width(d, 7, 30), 7u);
  EXPECT_EQ(query::histogram_width(d, 0, 30), 10u);  // 251 plies: 26 bins of 10
  EXPECT_EQ(query::histogram_width(d, 0, 5), 100u);
  EXPECT_EQ(d.quantile(0.5), 5u);
  EXPECT_EQ(d.quantile(0.0), 0u);
  query::LengthDistribution empty;
  EXPECT_EQ(empty.quantile(0.5), 0u);
  EXPECT_TRUE(query::length_histogram(empty, 10).empty());
}

}  // namespace
}  // namespace virrey::stats_test
