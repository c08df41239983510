// Standings and tie-breaks against hand-worked examples (the arithmetic is in
// the comments) and against an independent computation over a rounds table,
// for round robins, a double round robin, a Swiss with byes and forfeits, and
// a knockout; the system each one is recognised as; TRF columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "virrey/generate/swiss.hpp"
#include "virrey/tournament/event.hpp"
#include "virrey/tournament/trf.hpp"

namespace virrey::tournament {
namespace {

struct G {
  std::string white, black, round, result;
  bool played = true;     // two moves, else none
  bool one_move = false;  // played, a single move
  std::vector<std::pair<std::string, std::string>> tags = {};  // more tags (Termination, EventType...)
};

struct Made {
  std::vector<GameSummary> summaries;
  Tournament t;
  int idx(const std::string& name) const { return t.player_index(name); }
};

Made make(const std::vector<G>& games, const std::map<std::string, int>& ratings = {},
          std::optional<System> system = std::nullopt) {
  Made m;
  for (const G& g : games) {
    game::GameRecord r;
    r.tags = {{"Event", "Test"}, {"Round", g.round}, {"White", g.white}, {"Black", g.black}, {"Result", g.result}};
    if (auto it = ratings.find(g.white); it != ratings.end()) r.tags.push_back({"WhiteElo", std::to_string(it->second)});
    if (auto it = ratings.find(g.black); it != ratings.end()) r.tags.push_back({"BlackElo", std::to_string(it->second)});
    for (const auto& [name, value] : g.tags) r.tags.push_back({name, value});
    if (g.played) r.main_line.resize(g.one_move ? 1 : 2);
    m.summaries.push_back(summarize(r, {}));
  }
  const auto groups = group_by_event(m.summaries);
  EXPECT_EQ(groups.size(), 1u);
  m.t = build_tournament(m.summaries, groups.front(), system);
  return m;
}

double value(const Made& m, TieBreak tb, const std::string& name) {
  const auto v = tie_break_values(m.t, tb)[std::size_t(m.idx(name))];
  EXPECT_TRUE(v.has_value()) << tie_break_name(tb) << " of " << name;
  return v.value_or(-1);
}

// What `name`'s entry of `round` is (Pending: none).
EntryKind kind_in(const Made& m, const std::string& name, int round) {
  for (const Entry& e : m.t.players[std::size_t(m.idx(name))].entries)
    if (e.round == round) return e.kind;
  return EntryKind::Pending;
}

// Each (name, round)'s entry is of its kind.
void expect_kinds(const Made& m, const std::map<std::pair<std::string, int>, EntryKind>& kinds) {
  for (const auto& [at, kind] : kinds)
    EXPECT_EQ(kind_in(m, at.first, at.second), kind) << at.first << " round " << at.second;
}

// The standings as "rank name" strings.
std::vector<std::string> ranking(const Made& m, const std::vector<TieBreak>& order) {
  std::vector<std::string> out;
  for (const Standing& s : standings(m.t, order))
    out.push_back(std::to_string(s.rank) + " " + m.t.players[std::size_t(s.player)].name);
  return out;
}

TEST(Standings, RoundRobinSharedRank) {
  // r1 A-B 1-0, C-D 1-0; r2 A-C 1-0, D-B 0-1; r3 B-C 1/2, A-D 1/2.
  // Points: A 1+1+1/2 = 2.5; B 0+1+1/2 = 1.5; C 1+0+1/2 = 1.5; D 0+0+1/2 = 0.5.
  const Made m = make({{"A", "B", "1", "1-0"}, {"C", "D", "1", "1-0"}, {"A", "C", "2", "1-0"},
                       {"D", "B", "2", "0-1"}, {"B", "C", "3", "1/2-1/2"}, {"A", "D", "3", "1/2-1/2"}});
  EXPECT_EQ(m.t.system, System::RoundRobin);
  // SB: A = 1.5 (B) + 1.5 (C) + 1/2 x 0.5 (D) = 3.25; B = 0.5 (D) + 1/2 x 1.5 (C) = 1.25;
  // C = 0.5 (D) + 1/2 x 1.5 (B) = 1.25; D = 1/2 x 2.5 (A) = 1.25.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 3.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 1.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 1.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "D"), 1.25);
  // Koya (opponents with >= 1.5 of 3): A 1 (B) + 1 (C) = 2; B 0 (A) + 1/2 (C); C 0 + 1/2; D 1/2 (A).
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "A"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "B"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "D"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "A"), 2);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "B"), 1);
  // B and C: they drew (DE 1/2 each), one win each, SB and Koya equal: they share rank 2.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::DirectEncounter, "B"), 0.5);
  EXPECT_EQ(ranking(m, default_tie_breaks(m.t.system)),
            (std::vector<std::string>{"1 A", "2 B", "2 C", "4 D"}));
}

TEST(Standings, RoundRobinDirectEncounterFirst) {
  // r1 A-B 1-0, C-D 0-1; r2 A-C 0-1, B-D 1-0; r3 B-C 1-0, D-A 0-1.
  // A 2 (beat B, D), B 2 (beat D, C), C 1 (beat A), D 1 (beat C).
  const Made m = make({{"A", "B", "1", "1-0"}, {"C", "D", "1", "0-1"}, {"A", "C", "2", "0-1"},
                       {"B", "D", "2", "1-0"}, {"B", "C", "3", "1-0"}, {"D", "A", "3", "0-1"}});
  // SB: A = 2 (B) + 1 (D) = 3; B = 1 (D) + 1 (C) = 2; C = 2 (A); D = 1 (C).
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "D"), 1.0);
  // By direct encounter D (beat C) is above C; by SB alone C is above D.
  EXPECT_EQ(ranking(m, default_tie_breaks(System::RoundRobin)),
            (std::vector<std::string>{"1 A", "2 B", "3 D", "4 C"}));
  EXPECT_EQ(ranking(m, {TieBreak::SonnebornBerger}), (std::vector<std::string>{"1 A", "2 B", "3 C", "4 D"}));
}

TEST(Standings, OddRoundRobinRestsAreNoUnplayedRounds) {
  // Three players, one resting each round: r1 A-B 1-0 (C rests), r2 C-A 1/2
  // (B rests), r3 B-C 1-0 (A rests). A 1.5, B 1, C 0.5.
  const Made m = make({{"A", "B", "1", "1-0"}, {"C", "A", "2", "1/2-1/2"}, {"B", "C", "3", "1-0"}});
  EXPECT_EQ(m.t.system, System::RoundRobin);
  for (const Player& p : m.t.players) {
    ASSERT_EQ(p.entries.size(), 3u) << p.name;
    EXPECT_EQ(std::count_if(p.entries.begin(), p.entries.end(),
                            [](const Entry& e) { return e.kind == EntryKind::Rest; }),
              1)
        << p.name;
  }
  // SB: A = 1 (B) + 1/2 x 0.5 (C) = 1.25; B = 0.5 (C); C = 1/2 x 1.5 (A) = 0.75.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 1.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 0.75);
  // BH: the two opponents' scores: A 1 + 0.5; B 1.5 + 0.5; C 1.5 + 1.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "A"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "B"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "C"), 2.5);
  // Koya: opponents with at least half of 2 games' points (1): A beat B.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "A"), 1.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "C"), 0.5);
  EXPECT_EQ(ranking(m, default_tie_breaks(m.t.system)), (std::vector<std::string>{"1 A", "2 B", "3 C"}));
  // Played twice over (a double round robin of three): C's SB counts A's
  // 1.5 + 1.5 = 3 and B's 1 + 1 = 2 points as they stand.
  const Made d = make({{"A", "B", "1", "1-0"},
                       {"C", "A", "2", "1/2-1/2"},
                       {"B", "C", "3", "1-0"},
                       {"B", "A", "4", "0-1"},
                       {"A", "C", "5", "1/2-1/2"},
                       {"C", "B", "6", "0-1"}});
  EXPECT_EQ(d.t.system, System::DoubleRoundRobin);
  // A 3, B 2, C 1. SB: A = 2 x 2 + 1/2 x 1 x 2 = 5; B = 2 x 1 = 2; C = 2 x 1/2 x 3 = 3.
  EXPECT_DOUBLE_EQ(value(d, TieBreak::SonnebornBerger, "A"), 5.0);
  EXPECT_DOUBLE_EQ(value(d, TieBreak::SonnebornBerger, "B"), 2.0);
  EXPECT_DOUBLE_EQ(value(d, TieBreak::SonnebornBerger, "C"), 3.0);
}

// Rounds are the numbers the games name. r1 A-B 1-0, C-D 1-0; A-C 1-0 and
// B-D 1-0 of no known round ("?", no number); r3 D-A 1/2, B-C 0-1. No game
// names round 2: nobody is absent from it. Points: A 2.5, C 2, B 1, D 0.5,
// every player 3 games played and no unplayed round.
TEST(Standings, RoundsNoGameNamesAreNoRounds) {
  const Made m = make({{"A", "B", "1", "1-0"},
                       {"C", "D", "1", "1-0"},
                       {"A", "C", "?", "1-0"},
                       {"B", "D", "", "1-0"},
                       {"D", "A", "3", "1/2-1/2"},
                       {"B", "C", "3", "0-1"}});
  EXPECT_EQ(m.t.round_numbers, (std::vector<int>{1, 3}));
  EXPECT_EQ(m.t.rounds, 2);
  for (const Player& p : m.t.players) {
    EXPECT_EQ(p.games_played(), 3) << p.name;
    EXPECT_EQ(p.entries.size(), 3u) << p.name;
  }
  // SB: A = 1 (B) + 2 (C) + 1/2 x 0.5 (D) = 3.25; C = 0.5 (D) + 1 (B) = 1.5;
  // B = 0.5 (D); D = 1/2 x 2.5 (A) = 1.25.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 3.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "D"), 1.25);
  // The same games in rounds 1, 3 and 4 (round 2 missing): the same values.
  const Made gap = make({{"A", "B", "1", "1-0"},
                         {"C", "D", "1", "1-0"},
                         {"A", "C", "3", "1-0"},
                         {"B", "D", "3", "1-0"},
                         {"D", "A", "4", "1/2-1/2"},
                         {"B", "C", "4", "0-1"}});
  EXPECT_EQ(gap.t.rounds, 3);
  EXPECT_DOUBLE_EQ(value(gap, TieBreak::SonnebornBerger, "A"), 3.25);
  EXPECT_DOUBLE_EQ(value(gap, TieBreak::SonnebornBerger, "D"), 1.25);
  // BH: A 1 + 2 + 0.5 = 3.5.
  EXPECT_DOUBLE_EQ(value(gap, TieBreak::Buchholz, "A"), 3.5);
  // Both written as TRF and read back agree with their games.
  for (const Made* t : {&m, &gap}) {
    const TrfFile back = read_trf(write_trf(t->t, standings(t->t, default_tie_breaks(t->t.system))));
    EXPECT_TRUE(back.problems.empty());
    for (const auto& d : compare_trf(t->t, back)) ADD_FAILURE() << d.message;
  }
}

// A game of no known round spares its players one absence and makes none:
// r? A-B 1-0 (Round "0", which does not read), r1 C-D 1-0, r2 A-C 1-0. B has
// a game and no round of its own: absent in one of the two rounds; D absent
// in round 2. BH (an opponent's rounds without an opponent after the last
// one played count as draws; the player's own unplayed round a dummy with the
// player's score): B's game of no known round counts in round 1, which it
// spares, so its absence in round 2 comes after it: A = B (0 + 1/2) + C 1 =
// 1.5; B = A 2 + dummy 0 = 2; C = D (0 + 1/2) + A 2 = 2.5; D = C 1 + dummy 0 = 1.
// Progressive score: A's game of no known round (won) counts in round 1,
// which it spares: 1 + 2 = 3.
// An odd round robin with a game not played: in the round of the game
// missing three players have none; the one who has met every other rests,
// the two who were to play are absent. Five players (Berger order), E-A of
// round 5 never played. By hand: A 1, B 3, C 2, D 1.5, E 1.5; rests r1 A,
// r2 D, r3 B, r4 E, r5 C. The most results (games and absences) anyone has
// is 4, so Koya counts the opponents with 2 points or more (B, C): B 0.5
// (C), C 0.5 (B), E 1.5 (B 1/2, C 1), A 0.5 (C), D 0.
TEST(Standings, OddRoundRobinWithAGameMissing) {
  const Made m = make({{"B", "E", "1", "1/2-1/2"},
                       {"C", "D", "1", "1-0"},
                       {"E", "C", "2", "1-0"},
                       {"A", "B", "2", "0-1"},
                       {"C", "A", "3", "1/2-1/2"},
                       {"D", "E", "3", "1-0"},
                       {"A", "D", "4", "1/2-1/2"},
                       {"B", "C", "4", "1/2-1/2"},
                       {"D", "B", "5", "0-1"}});
  EXPECT_EQ(m.t.system, System::RoundRobin);
  EXPECT_EQ(kind_in(m, "C", 5), EntryKind::Rest);
  EXPECT_EQ(kind_in(m, "A", 5), EntryKind::Absent);
  EXPECT_EQ(kind_in(m, "E", 5), EntryKind::Absent);
  EXPECT_EQ(kind_in(m, "A", 1), EntryKind::Rest);
  EXPECT_EQ(kind_in(m, "D", 2), EntryKind::Rest);
  const std::map<std::string, double> koya = {{"A", 0.5}, {"B", 0.5}, {"C", 0.5}, {"D", 0.0}, {"E", 1.5}};
  for (const auto& [name, ks] : koya) EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, name), ks) << name;
}

// Five players, R withdraws after round 2 and his games are missing: r1 V-R
// 0-1, C-G 0-1 (J rests); r2 R-J 0-1, V-C 1/2 (G rests); r3 J-G 1-0; r4 C-J
// 1-0, G-V 0-1; r5 J-V 0-1. By hand: in r3 V has met both the others without
// a game (R, C), so V rests and C-R was due; in r4 R is alone; in r5 G has
// rested and R too, so C rests and G-R was due. Points V 2.5, J 2, C 1.5, R 1,
// G 1; each has four games, so Koya counts the opponents with 2 or more (V,
// J): V 1 (J), J 0, C 1/2 (V) + 1 (J) = 1.5, R 1 (V) + 0 (J), G 0.
TEST(Standings, OddRoundRobinWithAWithdrawal) {
  const Made m = make({{"V", "R", "1", "0-1"},
                       {"C", "G", "1", "0-1"},
                       {"R", "J", "2", "0-1"},
                       {"V", "C", "2", "1/2-1/2"},
                       {"J", "G", "3", "1-0"},
                       {"C", "J", "4", "1-0"},
                       {"G", "V", "4", "0-1"},
                       {"J", "V", "5", "0-1"}});
  EXPECT_EQ(m.t.system, System::RoundRobin);
  const std::map<std::pair<std::string, int>, EntryKind> kinds = {
      {{"J", 1}, EntryKind::Rest},   {{"G", 2}, EntryKind::Rest},   {{"V", 3}, EntryKind::Rest},
      {{"C", 3}, EntryKind::Absent}, {{"R", 3}, EntryKind::Absent}, {{"R", 4}, EntryKind::Rest},
      {{"C", 5}, EntryKind::Rest},   {{"G", 5}, EntryKind::Absent}, {{"R", 5}, EntryKind::Absent}};
  expect_kinds(m, kinds);
  const std::map<std::string, double> koya = {{"V", 1.0}, {"J", 0.0}, {"C", 1.5}, {"R", 1.0}, {"G", 0.0}};
  for (const auto& [name, ks] : koya) EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, name), ks) << name;
}

// One rest a round, whoever else could rest there. Five players, C-D of
// round 1 never played, A-D of no known round (it fills A's round 3 and D's
// round 1, the earliest each has free): r1 A-B; r2 A-C, B-E; r3 C-E; r4 A-E,
// B-D; r5 B-C, D-E. By hand: in r1 C and E have no game; E has met every
// other, C not D, so E rests and C is absent (C-D was due); D rests in r2
// (alone); in r3 B and D have met, so neither had a game due there: D has
// rested, so B rests and D is absent; C rests in r4, A in r5.
TEST(Standings, OddRoundRobinHasOneRestARound) {
  const Made m = make({{"A", "B", "1", "1-0"},
                       {"A", "C", "2", "1-0"},
                       {"B", "E", "2", "1-0"},
                       {"A", "D", "?", "1-0"},
                       {"C", "E", "3", "1-0"},
                       {"A", "E", "4", "1-0"},
                       {"B", "D", "4", "1-0"},
                       {"B", "C", "5", "1-0"},
                       {"D", "E", "5", "1-0"}});
  const std::map<std::pair<std::string, int>, EntryKind> kinds = {
      {{"E", 1}, EntryKind::Rest}, {{"C", 1}, EntryKind::Absent}, {{"D", 2}, EntryKind::Rest},
      {{"B", 3}, EntryKind::Rest}, {{"D", 3}, EntryKind::Absent}, {{"C", 4}, EntryKind::Rest},
      {{"A", 5}, EntryKind::Rest}};
  expect_kinds(m, kinds);
}

// Direct encounter applies again among the players it leaves level (C.07;
// FIDE's reference implementation recomputes it for the smaller group). Six
// players, A B C D on 2.5 points; among the four A 2 (B, D), B 2 (C, D), C 1
// (A), D 1 (C): A and B level on 2, D and C on 1; A beat B and D beat C, so
// A B D C, whatever SB says (B 6.5 > A 6, C 6.5 > D 6).
TEST(Standings, DirectEncounterAppliesAgainToThoseItLeavesLevel) {
  const Made m = make({{"A", "B", "1", "1-0"},
                       {"C", "A", "1", "1-0"},
                       {"A", "D", "1", "1-0"},
                       {"B", "C", "2", "1-0"},
                       {"B", "D", "2", "1-0"},
                       {"D", "C", "2", "1-0"},
                       {"E", "A", "3", "1-0"},
                       {"A", "F", "3", "1/2-1/2"},
                       {"B", "E", "3", "1/2-1/2"},
                       {"F", "B", "4", "1-0"},
                       {"C", "E", "4", "1-0"},
                       {"C", "F", "4", "1/2-1/2"},
                       {"D", "E", "5", "1/2-1/2"},
                       {"D", "F", "5", "1-0"},
                       {"E", "F", "5", "1-0"}});
  EXPECT_EQ(ranking(m, default_tie_breaks(System::RoundRobin)),
            (std::vector<std::string>{"1 E", "2 A", "3 B", "4 D", "5 C", "6 F"}));
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 6.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 6.0);
  // Three level, each beating one: DE leaves them level, and SB decides.
  const Made cycle = make({{"A", "B", "1", "1-0"}, {"B", "C", "2", "1-0"}, {"C", "A", "3", "1-0"}});
  EXPECT_EQ(ranking(cycle, {TieBreak::DirectEncounter}), (std::vector<std::string>{"1 A", "1 B", "1 C"}));
}

TEST(Standings, GamesOfNoKnownRoundMakeNoAbsences) {
  const Made m = make({{"A", "B", "0", "1-0"}, {"C", "D", "1", "1-0"}, {"A", "C", "2", "1-0"}});
  EXPECT_EQ(m.t.rounds, 2);
  auto absences = [&](const std::string& name) {
    const auto& e = m.t.players[std::size_t(m.idx(name))].entries;
    return std::count_if(e.begin(), e.end(), [](const Entry& x) { return x.kind == EntryKind::Absent; });
  };
  EXPECT_EQ(absences("A"), 0);
  EXPECT_EQ(absences("B"), 1);
  EXPECT_EQ(absences("C"), 0);
  EXPECT_EQ(absences("D"), 1);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "A"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "B"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "C"), 2.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "D"), 1.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "A"), 3.0);
  // B: its game (lost) in round 1, absent in round 2: 0 + 0.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "B"), 0.0);
  const TrfFile back = read_trf(write_trf(m.t, standings(m.t, default_tie_breaks(m.t.system))));
  for (const auto& d : compare_trf(m.t, back)) ADD_FAILURE() << d.message;
  // A round far beyond the others is a round of its own, none between.
  const Made far = make({{"A", "B", "1", "1-0"}, {"C", "D", "9000", "1-0"}});
  EXPECT_EQ(far.t.round_numbers, (std::vector<int>{1, 9000}));
  // No game names a round (an old collection): no rounds, no absence.
  const Made old = make({{"A", "B", "?", "1-0"}, {"C", "A", "?", "0-1"}, {"B", "C", "?", "1/2-1/2"}});
  EXPECT_EQ(old.t.rounds, 0);
  EXPECT_EQ(old.t.system, System::RoundRobin);
  for (const Player& p : old.t.players) EXPECT_EQ(p.entries.size(), 2u) << p.name;
  EXPECT_DOUBLE_EQ(value(old, TieBreak::SonnebornBerger, "A"), 1.0);  // beat B (0.5) and C (0.5)
}

// A game of a player against themself is no pairing: left out, the
// standings those of the other games (A 1, B 0, C 1/2, D 1/2 after round 1).
TEST(Standings, GameAgainstThemselfIsLeftOut) {
  const Made m = make({{"A", "B", "1", "1-0"}, {"C", "D", "1", "1/2-1/2"}, {"A", "A", "2", "1-0"}});
  EXPECT_EQ(m.t.self_games, (std::vector<std::size_t>{2}));
  EXPECT_EQ(m.t.games.size(), 2u);
  EXPECT_EQ(m.t.rounds, 1);
  EXPECT_DOUBLE_EQ(m.t.players[std::size_t(m.idx("A"))].points(), 1.0);
  EXPECT_EQ(m.t.players[std::size_t(m.idx("A"))].entries.size(), 1u);
}

// A player named "?" (PGN's unknown) is no one: a game against "?" is a bye
// worth its result, and "?" against "?" is nobody's game. Worked out by
// hand: A beat B (r1), a bye won (r2); B drew C (r2); C lost to "?" (r1):
// a bye lost. A 2, B 0.5, C 0.5.
TEST(Standings, APlayerNotNamedIsNoOne) {
  const Made m = make({{"A", "B", "1", "1-0"},
                       {"?", "?", "1", "1-0"},
                       {"?", "C", "1", "1-0"},
                       {"A", "?", "2", "1-0"},
                       {"B", "C", "2", "1/2-1/2"}},
                      {}, System::Swiss);
  EXPECT_EQ(m.t.players.size(), 3u);
  EXPECT_EQ(m.idx("?"), -1);
  const Player& a = m.t.players[std::size_t(m.idx("A"))];
  EXPECT_DOUBLE_EQ(a.points(), 2.0);
  ASSERT_EQ(a.entries.size(), 2u);
  EXPECT_EQ(a.entries[1].kind, EntryKind::Bye);
  EXPECT_DOUBLE_EQ(m.t.players[std::size_t(m.idx("B"))].points(), 0.5);
  EXPECT_DOUBLE_EQ(m.t.players[std::size_t(m.idx("C"))].points(), 0.5);
  EXPECT_EQ(m.t.players[std::size_t(m.idx("C"))].entries[0].kind, EntryKind::Bye);
  // "?" with a FIDE id is the id's player, named as another game names the
  // id ("?" never wins the name).
  const Made id = make({{"A", "?", "1", "1-0", true, false, {{"BlackFideId", "4100018"}}},
                        {"?", "A", "2", "1-0", true, false, {{"WhiteFideId", "4100018"}}},
                        {"Smith, J", "A", "3", "0-1", true, false, {{"WhiteFideId", "4100018"}}}});
  EXPECT_EQ(id.t.players.size(), 2u);
  EXPECT_EQ(id.t.games.size(), 3u);
  EXPECT_NE(id.idx("Smith, J"), -1);
  EXPECT_TRUE(id.t.name_notes.empty());
  // "?" against "?" is nobody's game: no round of its own (round 3 here),
  // no absences in it.
  const Made phantom = make({{"A", "B", "1", "1-0"},
                             {"C", "D", "1", "0-1"},
                             {"A", "C", "2", "1-0"},
                             {"D", "B", "2", "1/2-1/2"},
                             {"?", "?", "3", "*"}},
                            {}, System::Swiss);
  EXPECT_EQ(phantom.t.rounds, 2);
  EXPECT_EQ(phantom.t.games.size(), 4u);
  for (const Player& p : phantom.t.players) EXPECT_EQ(p.entries.size(), 2u) << p.name;
}

// A FIDE id is one player, named as most of the id's games name it (the
// first met among equals); two ids given to one name are two players.
TEST(Standings, AFideIdIsOnePlayer) {
  struct Side {
    std::string name, id;
  };
  auto build = [](const std::vector<std::pair<Side, Side>>& pairings, std::vector<GameSummary>& summaries) {
    int round = 0;
    for (const auto& [white, black] : pairings) {
      game::GameRecord r;
      r.tags = {{"Event", "Test"},
                {"Round", std::to_string(++round)},
                {"White", white.name},
                {"Black", black.name},
                {"Result", "1-0"}};
      if (!white.id.empty()) r.tags.push_back({"WhiteFideId", white.id});
      if (!black.id.empty()) r.tags.push_back({"BlackFideId", black.id});
      r.main_line.resize(2);
      summaries.push_back(summarize(r, {}));
    }
    const auto groups = group_by_event(summaries);
    EXPECT_EQ(groups.size(), 1u);
    return build_tournament(summaries, groups.front(), System::Swiss);
  };
  // "Perez, Ana" in game 0 and "Pérez, Ana" in games 1 and 3, all 3400001,
  // and game 2 with no id under a name the id's games give: one player of
  // four wins, named "Pérez, Ana" (two games of three), warned where the
  // second spelling is first met (game 1), naming the first's game 0.
  std::vector<GameSummary> one;
  const Tournament t = build({{{"Perez, Ana", "3400001"}, {"B", ""}},
                              {{"Pérez, Ana", "3400001"}, {"C", ""}},
                              {{"Perez, Ana", ""}, {"D", ""}},
                              {{"Pérez, Ana", " 3400001 "}, {"B", ""}}},
                             one);
  ASSERT_EQ(t.players.size(), 4u);
  const int ana = t.player_index("Pérez, Ana");
  ASSERT_GE(ana, 0);
  EXPECT_EQ(t.player_index("Perez, Ana"), -1);
  EXPECT_EQ(t.players[std::size_t(ana)].fide_id, "3400001");
  EXPECT_EQ(t.players[std::size_t(ana)].half_points, 8);
  ASSERT_EQ(t.name_notes.size(), 1u);
  EXPECT_EQ(t.name_notes[0].summary, 1u);
  EXPECT_EQ(t.name_notes[0].first, 0u);
  EXPECT_EQ(t.name_notes[0].name, "Perez, Ana");
  EXPECT_EQ(t.name_notes[0].other, "Pérez, Ana");
  EXPECT_EQ(t.name_notes[0].player, "Pérez, Ana");
  // One game each: a tie, the first met ("Perez, Ana") names her.
  std::vector<GameSummary> tie;
  const Tournament u =
      build({{{"Perez, Ana", "3400001"}, {"B", ""}}, {{"C", ""}, {"Pérez, Ana", "3400001"}}}, tie);
  EXPECT_EQ(u.players.size(), 3u);
  EXPECT_GE(u.player_index("Perez, Ana"), 0);
  // Two ids, one name: two players of that name, noted at the second id's game (1).
  std::vector<GameSummary> two;
  const Tournament v =
      build({{{"Smith, John", "3400010"}, {"B", ""}}, {{"Smith, John", "3400020"}, {"C", ""}}}, two);
  ASSERT_EQ(v.players.size(), 4u);
  EXPECT_EQ(v.players[0].fide_id, "3400010");
  EXPECT_EQ(v.players[2].name, "Smith, John");
  EXPECT_EQ(v.players[2].fide_id, "3400020");
  ASSERT_EQ(v.name_notes.size(), 1u);
  EXPECT_EQ(v.name_notes[0].summary, 1u);
  EXPECT_EQ(v.name_notes[0].other_id, "3400020");
  // Their game is no game against themself.
  std::vector<GameSummary> met;
  const Tournament w = build({{{"Smith, John", "3400010"}, {"Smith, John", "3400020"}}}, met);
  EXPECT_TRUE(w.self_games.empty());
  EXPECT_EQ(w.games.size(), 1u);
}

TEST(Standings, TwoPlayersAreAMatchOrARoundRobin) {
  // Games over several rounds: a double round robin (each pair met twice),
  // scored as one: A 1.5, B 0.5; SB A = 1 x 0.5 + 1/2 x 0.5, B = 1/2 x 1.5.
  const Made rr = make({{"A", "B", "1", "1-0"}, {"B", "A", "2", "1/2-1/2"}});
  EXPECT_EQ(rr.t.system, System::DoubleRoundRobin);
  EXPECT_DOUBLE_EQ(value(rr, TieBreak::SonnebornBerger, "A"), 0.75);
  EXPECT_DOUBLE_EQ(value(rr, TieBreak::SonnebornBerger, "B"), 0.75);
  const Made six = make({{"A", "B", "1", "1-0"},
                         {"B", "A", "2", "1/2-1/2"},
                         {"A", "B", "3", "0-1"},
                         {"B", "A", "4", "0-1"},
                         {"A", "B", "5", "1/2-1/2"},
                         {"B", "A", "6", "1/2-1/2"}});
  EXPECT_EQ(six.t.system, System::DoubleRoundRobin);
  // One match of sub-games in one round (a final with its tie-break game): a knockout.
  const Made ko =
      make({{"A", "B", "1.1.1", "1/2-1/2"}, {"B", "A", "1.1.2", "1/2-1/2"}, {"A", "B", "1.1.3", "1-0"}});
  EXPECT_EQ(ko.t.system, System::Knockout);
  // One game: a round robin.
  EXPECT_EQ(make({{"A", "B", "1", "1-0"}}).t.system, System::RoundRobin);
}

TEST(Standings, DoubleRoundRobin) {
  const Made m = make({{"A", "B", "1", "1-0"}, {"C", "D", "1", "1/2-1/2"}, {"A", "C", "2", "1/2-1/2"},
                       {"B", "D", "2", "0-1"}, {"A", "D", "3", "1-0"}, {"B", "C", "3", "1-0"},
                       {"B", "A", "4", "1/2-1/2"}, {"D", "C", "4", "1/2-1/2"}, {"C", "A", "5", "0-1"},
                       {"D", "B", "5", "1/2-1/2"}, {"D", "A", "6", "1-0"}, {"C", "B", "6", "1-0"}});
  EXPECT_EQ(m.t.system, System::DoubleRoundRobin);
  // A: 1.5 (B) + 1.5 (C) + 1 (D) = 4; B: 0.5 + 1 + 0.5 = 2; C: 0.5 + 1 + 1 = 2.5; D: 1 + 1.5 + 1 = 3.5.
  EXPECT_DOUBLE_EQ(m.t.players[std::size_t(m.idx("A"))].points(), 4.0);
  EXPECT_DOUBLE_EQ(m.t.players[std::size_t(m.idx("D"))].points(), 3.5);
  // SB: A = 1.5x2 + 1.5x2.5 + 1x3.5 = 10.25; D = 1x4 + 1.5x2 + 1x2.5 = 9.5;
  // C = 0.5x4 + 1x2 + 1x3.5 = 7.5; B = 0.5x4 + 1x2.5 + 0.5x3.5 = 6.25.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 10.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "D"), 9.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 7.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 6.25);
  // Koya (opponents with >= 3 of 6: A, D): A 1 (D); D 1 (A); B 1/2 + 1/2; C 1/2 + 1.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "A"), 1.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "C"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "A"), 3);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "D"), 2);
  EXPECT_EQ(ranking(m, default_tie_breaks(m.t.system)),
            (std::vector<std::string>{"1 A", "2 D", "3 C", "4 B"}));
  // Black: A had Black in rounds 4, 5, 6.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BlackGames, "A"), 3);
}

// r1 A-B 1-0, C-D 1/2; r2 A-C 0-1, B-D 1-0; r3 A-D 1-0, B-C 1/2.
std::vector<G> round_robin_of_four() {
  return {{"A", "B", "1", "1-0"}, {"C", "D", "1", "1/2-1/2"}, {"A", "C", "2", "0-1"},
          {"B", "D", "2", "1-0"}, {"A", "D", "3", "1-0"},     {"B", "C", "3", "1/2-1/2"}};
}

// Every pair met, two of them again in a fourth round: no single round
// robin (a pair met twice), but a double round robin whose second cycle was
// not played out (4 rounds of the 6 two cycles of four players take).
TEST(Standings, PairsMetAgainAreNoSingleRoundRobin) {
  std::vector<G> games = round_robin_of_four();
  games.push_back({"C", "A", "4", "1-0"});
  games.push_back({"D", "B", "4", "0-1"});
  const Made m = make(games);
  EXPECT_EQ(m.t.system, System::DoubleRoundRobin);
}

// Koya's threshold is half the points of the most results a player has, a
// bye booked beside a game in its round no result more: round_robin_of_four,
// and D also given a half-point bye in round 3. Points:
// A 2, B 1.5, C 2, D 1. Three rounds: opponents with 1.5 or more count (A,
// B, C). KS: A 1 (B) + 0 (C) = 1; B 0 + 1/2 = 0.5; C 1 (A) + 1/2 (B) = 1.5;
// D 1/2 (C) + 0 + 0 = 0.5. (Four results booked for D would make it 2: A, C.)
TEST(Standings, KoyaCountsRoundsNotResultsBooked) {
  std::vector<G> games = round_robin_of_four();
  games.push_back({"D", "BYE", "3", "1/2-1/2", false});
  const Made m = make(games);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "A"), 1.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "B"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "C"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "D"), 0.5);
}

// A round of several games (a match's, Round "1.1" to "1.4" as round 1):
// each counts. A beats B 3-1: the most results 4, half of them 2 points: B's
// 1 is under it, so A's Koya is 0; A's 3 is over it: B's is 1 (a win).
TEST(Standings, KoyaCountsEachGameOfARoundOfSeveral) {
  const Made m = make({{"A", "B", "1.1", "1-0"},
                       {"B", "A", "1.2", "0-1"},
                       {"A", "B", "1.3", "1-0"},
                       {"B", "A", "1.4", "1-0"}},
                      {}, System::DoubleRoundRobin);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "A"), 0.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Koya, "B"), 1.0);
}

// r1 P1-P2 1-0, P3-P4 1/2, P5 bye (1); r2 P5-P1 0-1, P2-P3 1-0 by forfeit, P4 absent;
// r3 P1-P3 1/2, P4-P5 0-1, P2 half-point bye.
Made swiss_example() {
  return make({{"P1", "P2", "1.1", "1-0"}, {"P3", "P4", "1.2", "1/2-1/2"}, {"P5", "BYE", "1.3", "1-0", false},
               {"P5", "P1", "2.1", "0-1"}, {"P2", "P3", "2.2", "1-0", false}, {"P1", "P3", "3.1", "1/2-1/2"},
               {"P4", "P5", "3.2", "0-1"}, {"P2", "BYE", "3.3", "1/2-1/2", false}},
              {{"P1", 2000}, {"P2", 1800}, {"P3", 1700}, {"P4", 1600}, {"P5", 1500}}, System::Swiss);
}

TEST(Standings, SwissByesForfeitsAbsence) {
  const Made m = swiss_example();
  // Points: P1 1+1+1/2 = 2.5; P2 0+1+1/2 = 1.5; P3 1/2+0+1/2 = 1; P4 1/2+0+0 = 0.5; P5 1+0+1 = 2.
  EXPECT_EQ(ranking(m, default_tie_breaks(System::Swiss)),
            (std::vector<std::string>{"1 P1", "2 P5", "3 P2", "4 P3", "5 P4"}));
  // Opponents' scores (C.07 art. 16.3): the points scored, except rounds
  // without an opponent after the last round that is no VUR (a round played
  // or won), which count as draws. P1 2.5; P2 0 + 1 (forfeit win) + 1/2 (half-point
  // bye after it: a draw) = 1.5; P3 1/2 + 0 (forfeit loss) + 1/2 = 1 (played last);
  // P4 1/2 + 0 (absent, then played) + 0 = 0.5; P5 1 (bye) + 0 + 1 = 2. An own
  // unplayed round is a dummy opponent with the player's own score (16.4).
  // BH: P1 = 1.5 (P2) + 2 (P5) + 1 (P3) = 4.5; P2 = 2.5 (P1) + 1.5 + 1.5 (dummies) = 5.5;
  // P3 = 0.5 (P4) + 1 (dummy) + 2.5 (P1) = 4; P4 = 1 (P3) + 0.5 (dummy) + 2 (P5) = 3.5;
  // P5 = 2 (dummy) + 2.5 (P1) + 0.5 (P4) = 5.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "P1"), 4.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "P2"), 5.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "P3"), 4.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "P4"), 3.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "P5"), 5.0);
  // Cut-1 drops a VUR first (art. 14), else the lowest: P1 4.5-1 = 3.5; P2 the
  // half-point bye, 5.5-1.5 = 4; P3 the forfeit loss, 4-1 = 3 (not P4's 0.5);
  // P4 the absence, 3.5-0.5 = 3; P5 (the full-point bye is no VUR) 5-0.5 = 4.5.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "P1"), 3.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "P2"), 4.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "P3"), 3.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "P4"), 3.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "P5"), 4.5);
  // Median drops the highest too: P1 3.5-2 = 1.5; P3 3-2.5 = 0.5; P5 4.5-2.5 = 2.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::MedianBuchholz, "P1"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::MedianBuchholz, "P3"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::MedianBuchholz, "P5"), 2.0);
  // SB: P1 = 1.5 + 2 + 1/2 x 1 = 4; P2 = 1 x 1.5 (forfeit win, dummy) + 1/2 x 1.5 = 2.25;
  // P3 = 1/2 x 0.5 + 1/2 x 2.5 = 1.5; P4 = 1/2 x 1 = 0.5; P5 = 1 x 2 (bye, dummy) + 1 x 0.5 = 2.5.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "P1"), 4.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "P2"), 2.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "P3"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "P4"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "P5"), 2.5);
  // Progressive score: the running score after each round, added up. P1 1 + 2
  // + 2.5 = 5.5; P2 0 + 1 + 1.5 = 2.5; P3 0.5 + 0.5 + 1 = 2; P4 0.5 + 0.5 +
  // 0.5 = 1.5 (absent in round 2); P5 1 + 1 + 2 = 4.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "P1"), 5.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "P2"), 2.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "P3"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "P4"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Progressive, "P5"), 4.0);
  // WIN counts the forfeit and the bye; WON only games won on the board.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "P2"), 1);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Wins, "P5"), 2);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::GamesWon, "P2"), 0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::GamesWon, "P5"), 1);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BlackGames, "P1"), 1);
  // ARO and TPR over games played: P1 met 1800, 1500, 1700: 5000/3 = 1666.7 -> 1667;
  // 2.5/3 = 83% -> dp 273: 1940. P2 played only P1 (2000) and lost: 0% -> -800: 1200.
  // P4: 1700 and 1500 -> 1600, 0.5/2 = 25% -> -193: 1407.
  EXPECT_DOUBLE_EQ(value(m, TieBreak::AverageRating, "P1"), 1667);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Performance, "P1"), 1940);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Performance, "P2"), 1200);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Performance, "P4"), 1407);
  // Entries: P4 absent in round 2, P2 a forfeit win then a bye.
  const Player& p4 = m.t.players[std::size_t(m.idx("P4"))];
  ASSERT_EQ(p4.entries.size(), 3u);
  EXPECT_EQ(p4.entries[1].kind, EntryKind::Absent);
  const Player& p2 = m.t.players[std::size_t(m.idx("P2"))];
  EXPECT_EQ(p2.entries[1].kind, EntryKind::Forfeit);
  EXPECT_EQ(p2.entries[2].kind, EntryKind::Bye);
  EXPECT_EQ(p2.games_played(), 1);
}

// C.07 art. 16 on unplayed rounds, by hand. r1 A-B 1-0, C a full-point bye;
// r2 C-A 1-0, B a full-point bye. A full-point bye is no VUR: B's score is
// its 1 point, not a draw for its bye. A's BH = B 1 + C 2 = 3; Cut-1 drops
// the lowest, B's 1: 2.
TEST(Standings, FullPointByesKeepTheirPoints) {
  const Made m = make({{"A", "B", "1", "1-0"},
                       {"C", "BYE", "1", "1-0", false},
                       {"C", "A", "2", "1-0"},
                       {"B", "BYE", "2", "1-0", false}},
                      {}, System::Swiss);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "A"), 3.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "A"), 2.0);
}

// r1 X-Y 0-1 by forfeit, Z-W 1-0; r2 X-W 1-0, Y-Z 1/2; r3 Z-X 0-1, W-Y 0-1.
// Points X 2, Y 2.5, Z 1.5, W 0. X's forfeit loss is a VUR: its dummy
// opponent (X's own 2) is cut before W's 0: BH 2 + 0 + 1.5 = 3.5, Cut-1 1.5.
// Y's forfeit win is no VUR: BH 2.5 (dummy) + 1.5 + 0 = 4, Cut-1 drops W's 0.
// A withdrawal: D plays r1 and r2, then is absent; its absence after its
// last game counts as a draw for its opponents (16.3), while C's absence in
// r1, before it played, counts as C's 0.
TEST(Standings, VoluntarilyUnplayedRoundsAreCutFirst) {
  const Made m = make({{"X", "Y", "1", "0-1", false},
                       {"Z", "W", "1", "1-0"},
                       {"X", "W", "2", "1-0"},
                       {"Y", "Z", "2", "1/2-1/2"},
                       {"Z", "X", "3", "0-1"},
                       {"W", "Y", "3", "0-1"}},
                      {}, System::Swiss);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "X"), 3.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "X"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "Y"), 4.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::BuchholzCut1, "Y"), 4.0);
  // r1 A-B 1-0, D-E 1-0 (C absent); r2 A-D 1-0, C-B 1-0 (E absent);
  // r3 A-C 1/2, B-E 0-1 (D absent: withdrawn). Points A 2.5, B 0, C 1.5,
  // D 1, E 1. D's score for its opponents: 1 + 0 + 1/2 = 1.5; C's: 0 + 1
  // + 1/2 = 1.5 as scored. A's BH = B 0 + D 1.5 + C 1.5 = 3.
  const Made w = make({{"A", "B", "1", "1-0"},
                       {"D", "E", "1", "1-0"},
                       {"A", "D", "2", "1-0"},
                       {"C", "B", "2", "1-0"},
                       {"A", "C", "3", "1/2-1/2"},
                       {"B", "E", "3", "0-1"}},
                      {}, System::Swiss);
  EXPECT_DOUBLE_EQ(w.t.players[std::size_t(w.idx("D"))].points(), 1.0);
  EXPECT_DOUBLE_EQ(value(w, TieBreak::Buchholz, "A"), 3.0);
  // E: D 1.5 + dummy 1 (absent in r2, a VUR) + B 0 = 2.5; Cut-1 drops the dummy: 1.5.
  EXPECT_DOUBLE_EQ(value(w, TieBreak::Buchholz, "E"), 2.5);
  EXPECT_DOUBLE_EQ(value(w, TieBreak::BuchholzCut1, "E"), 1.5);
}

// A round robin counts a forfeit as a game played (FIDE's reference treats
// unplayed games of a round robin as played): r1 A-B 1-0 by forfeit (C
// rests), r2 C-A 1/2, r3 B-C 1-0. Points A 1.5, B 1, C 0.5. SB: A = B 1 x 1 +
// C 0.5 x 1/2 = 1.25; B = A 1.5 x 0 + C 0.5 x 1 = 0.5; C = A 1.5 x 1/2 = 0.75.
// BH: A 1 + 0.5; B 1.5 + 0.5; C 1.5 + 1.
TEST(Standings, RoundRobinForfeitsCountAsPlayed) {
  const Made m = make({{"A", "B", "1", "1-0", false}, {"C", "A", "2", "1/2-1/2"}, {"B", "C", "3", "1-0"}});
  ASSERT_EQ(m.t.system, System::RoundRobin);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "A"), 1.25);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "B"), 0.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::SonnebornBerger, "C"), 0.75);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "A"), 1.5);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "B"), 2.0);
  EXPECT_DOUBLE_EQ(value(m, TieBreak::Buchholz, "C"), 2.5);
}

TEST(Standings, FideDpTable) {
  // Values of the FIDE table (Rating Regulations 8.1.a).
  EXPECT_EQ(fide_dp(100), 800);
  EXPECT_EQ(fide_dp(99), 677);
  EXPECT_EQ(fide_dp(83), 273);
  EXPECT_EQ(fide_dp(75), 193);
  EXPECT_EQ(fide_dp(67), 125);
  EXPECT_EQ(fide_dp(51), 7);
  EXPECT_EQ(fide_dp(50), 0);
  EXPECT_EQ(fide_dp(25), -193);
  EXPECT_EQ(fide_dp(0), -800);
}

TEST(Standings, Knockout) {
  // Semi-finals: A-B 1-0, B-A 1/2 (A 1.5-0.5); C-D 1/2, D-C 1/2, C-D 1-0 (C 2-1).
  // Final: A-C 1-0, C-A 1-0, A-C 1-0 (A 2-1).
  const Made m = make({{"A", "B", "1.1.1", "1-0"}, {"B", "A", "1.1.2", "1/2-1/2"}, {"C", "D", "1.2.1", "1/2-1/2"},
                       {"D", "C", "1.2.2", "1/2-1/2"}, {"C", "D", "1.2.3", "1-0"}, {"A", "C", "2.1.1", "1-0"},
                       {"C", "A", "2.1.2", "1-0"}, {"A", "C", "2.1.3", "1-0"}});
  EXPECT_EQ(m.t.system, System::Knockout);
  const auto matches = knockout_matches(m.t);
  ASSERT_EQ(matches.size(), 3u);
  EXPECT_EQ(matches[0].a_half, 3);
  EXPECT_EQ(matches[0].b_half, 1);
  EXPECT_EQ(matches[1].a_half, 4);
  EXPECT_EQ(matches[1].b_half, 2);
  EXPECT_EQ(matches[2].winner, m.idx("A"));
  // A won the final (stage 3), C reached it (2), B and D lost semi-finals (1):
  // D scored 1 to B's 1/2.
  EXPECT_EQ(ranking(m, default_tie_breaks(System::Knockout)),
            (std::vector<std::string>{"1 A", "2 C", "3 D", "4 B"}));
}

// --- an independent computation: a rounds table, scored round by round ---------

struct Ref {
  double points = 0, buchholz = 0, cut1 = 0, median = 0, sb = 0;
  int wins = 0;
};

// Over raw games: [player][round] = (opponent or "" , half points, played).
std::map<std::string, Ref> reference(const std::vector<GameSummary>& games) {
  struct Cell {
    std::string opponent;
    int half = 0;
    bool played = false;
    bool pending = false;
  };
  std::map<std::string, std::map<int, Cell>> table;
  int rounds = 0;
  for (const GameSummary& g : games) {
    const int r = g.round_tag()->round;
    rounds = std::max(rounds, r);
    const int wh = g.result == GameResult::WhiteWins ? 2 : g.result == GameResult::Draw ? 1 : 0;
    const bool pending = g.result == GameResult::Unknown;
    const bool wbye = g.white.name == "BYE", bbye = g.black.name == "BYE";
    if (!wbye) table[g.white.name][r] = {bbye ? "" : g.black.name, pending ? 0 : wh, g.plies > 0 && !bbye, pending};
    if (!bbye) table[g.black.name][r] = {wbye ? "" : g.white.name, pending ? 0 : 2 - wh, g.plies > 0 && !wbye, pending};
  }
  // C.07 art. 16: a voluntarily unplayed round (VUR) is an absence or a
  // round neither played nor won. An opponent's score counts the rounds
  // without an opponent after the last round that is no VUR as draws.
  std::map<std::string, int> score, adjusted;
  for (auto& [name, row] : table) {
    int last = 0;
    for (int r = 1; r <= rounds; ++r) {
      const auto it = row.find(r);
      if (it != row.end() && !it->second.pending && (it->second.played || it->second.half == 2)) last = r;
    }
    for (int r = 1; r <= rounds; ++r) {
      const auto it = row.find(r);
      if (it == row.end()) {
        adjusted[name] += r > last ? 1 : 0;  // absent: 0 scored
        continue;
      }
      if (it->second.pending) continue;
      score[name] += it->second.half;
      const bool no_opponent = it->second.opponent.empty();
      adjusted[name] += r > last && no_opponent ? 1 : it->second.half;
    }
  }
  std::map<std::string, Ref> out;
  for (auto& [name, row] : table) {
    Ref ref;
    ref.points = score[name] / 2.0;
    std::vector<int> opp, vur;  // the opponents' scores; of them, those of VURs (a dummy's)
    int sb4 = 0;
    for (int r = 1; r <= rounds; ++r) {
      const auto it = row.find(r);
      const Cell c = it == row.end() ? Cell{} : it->second;
      if (c.pending) continue;
      const int o = c.played ? adjusted[c.opponent] : score[name];
      opp.push_back(o);
      if (!c.played && c.half < 2) vur.push_back(o);
      sb4 += c.half * o;
      ref.wins += c.half == 2;
    }
    std::sort(opp.begin(), opp.end());
    int all = 0;
    for (int o : opp) all += o;
    ref.buchholz = all / 2.0;
    // The cut takes a VUR's score first, the lowest of them.
    const int cut = vur.empty() ? (opp.empty() ? 0 : opp.front()) : *std::min_element(vur.begin(), vur.end());
    ref.cut1 = (all - cut) / 2.0;
    if (opp.size() < 2) {
      ref.median = 0;
    } else {
      std::vector<int> rest = opp;
      rest.erase(std::find(rest.begin(), rest.end(), cut));
      ref.median = (all - cut - *std::max_element(rest.begin(), rest.end())) / 2.0;
    }
    ref.sb = sb4 / 4.0;
    out[name] = ref;
  }
  return out;
}

void expect_reference(const std::vector<GameSummary>& summaries, const Tournament& t) {
  const auto ref = reference(summaries);
  ASSERT_EQ(ref.size(), t.players.size());
  const auto bh = tie_break_values(t, TieBreak::Buchholz);
  const auto c1 = tie_break_values(t, TieBreak::BuchholzCut1);
  const auto med = tie_break_values(t, TieBreak::MedianBuchholz);
  const auto sb = tie_break_values(t, TieBreak::SonnebornBerger);
  const auto wins = tie_break_values(t, TieBreak::Wins);
  for (std::size_t i = 0; i < t.players.size(); ++i) {
    const Ref& r = ref.at(t.players[i].name);
    SCOPED_TRACE(t.players[i].name);
    EXPECT_DOUBLE_EQ(t.players[i].points(), r.points);
    EXPECT_DOUBLE_EQ(*bh[i], r.buchholz);
    EXPECT_DOUBLE_EQ(*c1[i], r.cut1);
    EXPECT_DOUBLE_EQ(*med[i], r.median);
    EXPECT_DOUBLE_EQ(*sb[i], r.sb);
    EXPECT_DOUBLE_EQ(*wins[i], r.wins);
  }
}

TEST(Standings, SwissExampleAgreesWithReference) {
  const Made m = swiss_example();
  expect_reference(m.summaries, m.t);
}

TEST(Standings, GeneratedSwissAgreesWithReference) {
  generate::SwissOptions o;
  o.players = 25;
  o.rounds = 7;
  o.seed = 3;
  std::vector<GameSummary> summaries;
  generate::swiss_tournament(o, [&](game::GameRecord& r) { summaries.push_back(summarize(r, {})); });
  // 12 games and a bye a round.
  ASSERT_EQ(summaries.size(), 7u * 13u);
  const auto groups = group_by_event(summaries);
  ASSERT_EQ(groups.size(), 1u);
  const Tournament t = build_tournament(summaries, groups.front());
  EXPECT_EQ(t.system, System::Swiss);
  EXPECT_EQ(t.players.size(), 25u);
  expect_reference(summaries, t);
  // The pairings: no pair twice, at most one bye each, colours of the games
  // played within 2.
  std::set<std::pair<std::string, std::string>> pairs;
  std::map<std::string, int> byes, balance;
  for (const GameSummary& g : summaries) {
    if (g.black.name == "BYE") {
      EXPECT_EQ(++byes[g.white.name], 1) << g.white.name;
      continue;
    }
    auto key = std::minmax(g.white.name, g.black.name);
    EXPECT_TRUE(pairs.insert(key).second) << key.first << " - " << key.second;
    if (g.termination == "forfeit") continue;  // colours count the games played (FIDE C.04.3 A.6)
    ++balance[g.white.name];
    --balance[g.black.name];
  }
  for (const auto& [name, b] : balance) EXPECT_LE(std::abs(b), 2) << name;
  // The same seed, the same games.
  std::vector<std::string> again;
  generate::swiss_tournament(o, [&](game::GameRecord& r) { again.push_back(std::string(r.tag("White")) + "|" + std::string(r.tag("Black"))); });
  ASSERT_EQ(again.size(), summaries.size());
  for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i], summaries[i].white.name + "|" + summaries[i].black.name);
}

// --- TRF ------------------------------------------------------------------------

TEST(Trf, PlayerLineColumns) {
  const Made m = swiss_example();
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < trf.size();) {
    const std::size_t nl = trf.find('\n', at);
    lines.push_back(trf.substr(at, nl - at));
    at = nl + 1;
  }
  auto line_of = [&](std::string_view name) {
    for (const auto& l : lines)
      if (l.rfind("001", 0) == 0 && l.substr(14, name.size()) == name) return l;
    return std::string();
  };
  EXPECT_EQ(lines.front(), "012 Test");
  // Starting ranks by rating: P1 1, P2 2, P3 3, P4 4, P5 5.
  const std::string p1 = line_of("P1");
  ASSERT_FALSE(p1.empty()) << trf;
  EXPECT_EQ(p1.substr(0, 3), "001");
  EXPECT_EQ(p1.substr(4, 4), "   1");   // 5-8 starting rank
  EXPECT_EQ(p1.substr(14, 33), "P1" + std::string(31, ' '));  // 15-47 name
  EXPECT_EQ(p1.substr(48, 4), "2000");  // 49-52 rating
  EXPECT_EQ(p1.substr(80, 4), " 2.5");  // 81-84 points
  EXPECT_EQ(p1.substr(85, 4), "   1");  // 86-89 rank
  EXPECT_EQ(p1.substr(91, 8), "   2 w 1");   // round 1: 92-95 opponent, 97 colour, 99 result
  EXPECT_EQ(p1.substr(101, 8), "   5 b 1");  // round 2
  EXPECT_EQ(p1.substr(111, 8), "   3 w =");  // round 3
  const std::string p2 = line_of("P2");
  EXPECT_EQ(p2.substr(91, 8), "   1 b 0");
  EXPECT_EQ(p2.substr(101, 8), "   3 w +");  // forfeit won
  EXPECT_EQ(p2.substr(111, 8), "0000 - H");  // half-point bye
  EXPECT_EQ(line_of("P4").substr(101, 8), "0000 - Z");  // absent
  EXPECT_EQ(line_of("P5").substr(91, 8), "0000 - U");   // pairing-allocated bye
  EXPECT_EQ(line_of("P5").substr(80, 4), " 2.0");
  // Read back, it agrees with the games.
  const TrfFile back = read_trf(trf);
  EXPECT_TRUE(back.problems.empty());
  ASSERT_EQ(back.players.size(), 5u);
  EXPECT_EQ(back.name, "Test");
  EXPECT_TRUE(compare_trf(m.t, back).empty());
}

TEST(Trf, DisagreementsAreFound) {
  const Made m = swiss_example();
  std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  // P1's round 3 draw with P3 written as a win; P1-P2 with the colours swapped on P2's line.
  const std::size_t p1 = trf.find("\n001    1");
  trf.replace(p1 + 1 + 111, 8, "   3 w 1");
  const std::size_t p2 = trf.find("\n001    2");
  trf.replace(p2 + 1 + 91, 8, "   1 w 0");
  const auto found = compare_trf(m.t, read_trf(trf));
  std::set<std::string> codes;
  for (const auto& d : found) codes.insert(std::string(trf_code_name(d.code)));
  EXPECT_EQ(codes, (std::set<std::string>{"trf-result", "trf-colour"}));
  // A player the games do not know, and a missing game.
  std::string nobody = "001    6      Nobody, Noone";
  nobody.resize(91, ' ');  // round 1 from column 92
  const TrfFile extra = read_trf(trf + nobody + "   1 w 0\n");
  EXPECT_TRUE(extra.problems.empty());
  codes.clear();
  for (const auto& d : compare_trf(m.t, extra)) codes.insert(std::string(trf_code_name(d.code)));
  EXPECT_TRUE(codes.count("trf-player"));
  const TrfFile bad = read_trf("001  x   Name\n001    1      P1                                2000                               2.5    1     2 q 1\n");
  EXPECT_EQ(bad.problems.size(), 2u);
}

// A player's points (columns 81-84) are the games' total, and a rating
// (49-52) the games' rating when both give one: P1 scores 2.5 and is
// rated 2000; P2 has 1.5 and 1800; a rating the TRF leaves blank is no
// disagreement.
TEST(Trf, PointsAndRatingAgainstTheGames) {
  const Made m = swiss_example();
  std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  const std::size_t p1 = trf.find("\n001    1") + 1, p2 = trf.find("\n001    2") + 1;
  trf.replace(p1 + 80, 4, " 9.5");  // columns 81-84
  trf.replace(p2 + 48, 4, "1000");  // columns 49-52
  const std::size_t p3 = trf.find("\n001    3") + 1;
  trf.replace(p3 + 48, 4, "    ");
  const TrfFile back = read_trf(trf);
  ASSERT_TRUE(back.problems.empty());
  const auto found = compare_trf(m.t, back);
  ASSERT_EQ(found.size(), 2u);
  const std::uint64_t p1_line =
      std::uint64_t(std::count(trf.begin(), trf.begin() + std::ptrdiff_t(p1), '\n')) + 1;
  EXPECT_EQ(found[0].code, TrfDisagreement::Code::Points);
  EXPECT_EQ(found[0].line, p1_line);
  EXPECT_EQ(found[0].column, 81u);
  EXPECT_EQ(found[0].message, "P1 has 2.5 points in the games, 9.5 in the TRF");
  EXPECT_EQ(found[1].code, TrfDisagreement::Code::Rating);
  EXPECT_EQ(found[1].line, p1_line + 1);
  EXPECT_EQ(found[1].column, 49u);
  EXPECT_EQ(found[1].message, "P2 is rated 1800 in the games, 1000 in the TRF");
  EXPECT_EQ(trf_code_name(found[0].code), "trf-points");
  EXPECT_EQ(trf_code_name(found[1].code), "trf-rating");
}

// A name longer than the TRF's 33-character field is cut there, and the
// TRF read back still names that player (the one whose name begins so).
TEST(Trf, CutNamesStillNameTheirPlayers) {
  const std::string long_name =
      "P\xc3\xa9rez, \xc3\x81na Mar\xc3\xad"
      "a de la Concepci\xc3\xb3n Rodr\xc3\xad"
      "guez-Vald\xc3\xa9s";
  const Made m = make({{long_name, "Short, Sam", "1", "1-0"}, {"Short, Sam", long_name, "2", "1/2-1/2"}});
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(m.t.system)));
  const TrfFile back = read_trf(trf);
  ASSERT_EQ(back.players.size(), 2u);
  EXPECT_TRUE(std::any_of(back.players.begin(), back.players.end(),
                          [&](const TrfPlayer& p) { return p.name.size() < long_name.size(); }));
  EXPECT_TRUE(compare_trf(m.t, back).empty());
  // Two players whose names share their first 33 characters: one cut name
  // for both, told apart by starting rank (by rating: "...Alexandra" 2100
  // is 1, "...Alexander" 2000 is 3 after Y 2050).
  const std::string a = "Vanderbilt-Montgomery-Smythe, Alexander",
                    b = "Vanderbilt-Montgomery-Smythe, Alexandra";
  const Made two =
      make({{a, "X", "1", "1-0"}, {b, "Y", "1", "0-1"}, {"X", b, "2", "1/2-1/2"}, {"Y", a, "2", "1-0"}},
           {{a, 2000}, {b, 2100}, {"Y", 2050}, {"X", 1900}});
  const std::string two_trf = write_trf(two.t, standings(two.t, {}));
  ASSERT_NE(two_trf.find("001    1      Vanderbilt-Montgomery-Smythe, Ale 2100"), std::string::npos)
      << two_trf;
  ASSERT_NE(two_trf.find("001    3      Vanderbilt-Montgomery-Smythe, Ale 2000"), std::string::npos)
      << two_trf;
  for (const auto& d : compare_trf(two.t, read_trf(two_trf))) ADD_FAILURE() << d.message;
  // Swapped in the TRF, their games disagree, not their names.
  std::string swapped = two_trf;
  swapped.replace(swapped.find("001    1") + 4, 4, "   9");
  swapped.replace(swapped.find("001    3") + 4, 4, "   1");
  swapped.replace(swapped.find("001    9") + 4, 4, "   3");
  std::set<std::string> codes;
  for (const auto& d : compare_trf(two.t, read_trf(swapped)))
    codes.insert(std::string(trf_code_name(d.code)));
  EXPECT_FALSE(codes.count("trf-player"));
  EXPECT_FALSE(codes.empty());
}

// A knockout whose matches have several games: a TRF column per game a
// player can have in a round, the same on every line (round 1: three
// columns, B-C needing a third game; round 2: two), blank where a player's
// match was shorter, and the file read back agrees with the games.
// Two players of one name, told apart in the games by FIDE id, are matched
// to the TRF's lines by its FIDE id (columns 58-68), then by its rating,
// whatever its starting ranks. The games: Smith 111 (2000) beat Alba, lost
// to Bravo; Smith 222 (1900) lost to Bravo, drew with Alba. The TRF is an
// arbiter's, numbered otherwise than virrey numbers (the 1900 Smith 3).
TEST(Trf, SameNamesAreMatchedByFideIdThenRating) {
  const std::string s = "Smith, John";
  const Made m =
      make({{s, "Alba, Ana", "1", "1-0", true, false, {{"WhiteFideId", "111"}, {"WhiteElo", "2000"}}},
            {s, "Bravo, Beto", "1", "0-1", true, false, {{"WhiteFideId", "222"}, {"WhiteElo", "1900"}}},
            {"Alba, Ana", s, "2", "1/2-1/2", true, false, {{"BlackFideId", "222"}, {"BlackElo", "1900"}}},
            {"Bravo, Beto", s, "2", "1-0", true, false, {{"BlackFideId", "111"}, {"BlackElo", "2000"}}}},
           {{"Alba, Ana", 2100}, {"Bravo, Beto", 2050}});
  ASSERT_EQ(m.t.players.size(), 4u);
  // Columns: 1-3 "001", 5-8 rank, 15-47 name, 49-52 rating, 58-68 FIDE id,
  // 81-84 points, then blocks of 10 from 92.
  auto line = [](int number, const std::string& name, const std::string& rating, const std::string& id,
                 const std::string& points, const std::string& blocks) {
    std::string l(91, ' ');
    l.replace(0, 3, "001");
    const std::string n = std::to_string(number);
    l.replace(8 - n.size(), n.size(), n);
    l.replace(14, name.size(), name);
    l.replace(48 + 4 - rating.size(), rating.size(), rating);
    l.replace(57 + 11 - id.size(), id.size(), id);
    l.replace(80 + 4 - points.size(), points.size(), points);
    return l + blocks + "\n";
  };
  const std::string by_id = "012 Test\n" + line(1, "Alba, Ana", "2100", "", "0.5", "   4 b 0     3 w =") +
                            line(2, "Bravo, Beto", "2050", "", "2.0", "   3 b 1     4 w 1") +
                            line(3, s, "", "222", "0.5", "   2 w 0     1 b =") +
                            line(4, s, "", "111", "1.0", "   1 w 1     2 b 0");
  for (const auto& d : compare_trf(m.t, read_trf(by_id))) ADD_FAILURE() << "by id: " << d.message;
  const std::string by_rating = "012 Test\n" + line(1, "Alba, Ana", "2100", "", "0.5", "   4 b 0     3 w =") +
                                line(2, "Bravo, Beto", "2050", "", "2.0", "   3 b 1     4 w 1") +
                                line(3, s, "1900", "", "0.5", "   2 w 0     1 b =") +
                                line(4, s, "2000", "", "1.0", "   1 w 1     2 b 0");
  for (const auto& d : compare_trf(m.t, read_trf(by_rating))) ADD_FAILURE() << "by rating: " << d.message;
}

TEST(Trf, KnockoutMatchesKeepTheirRoundsInColumns) {
  const Made m = make({{"A", "D", "1.1.1", "1-0"},
                       {"D", "A", "1.1.2", "1/2-1/2"},
                       {"B", "C", "1.2.1", "1/2-1/2"},
                       {"C", "B", "1.2.2", "1/2-1/2"},
                       {"B", "C", "1.2.3", "0-1"},
                       {"A", "C", "2.1.1", "0-1"},
                       {"C", "A", "2.1.2", "1/2-1/2"}},
                      {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}});
  ASSERT_EQ(m.t.system, System::Knockout);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(m.t.system)));
  const TrfFile back = read_trf(trf);
  ASSERT_TRUE(back.problems.empty());
  ASSERT_EQ(back.players.size(), 4u);
  std::map<std::string, std::vector<TrfRound>> by_name;
  for (const TrfPlayer& p : back.players) by_name[p.name] = p.rounds;
  // Starting ranks by rating: A 1, B 2, C 3, D 4. Columns 1-3 round 1, 4-5 round 2.
  auto opponents = [&](const std::string& name) {
    std::vector<int> out;
    for (const TrfRound& r : by_name[name]) out.push_back(r.opponent);
    return out;
  };
  EXPECT_EQ(opponents("A"), (std::vector<int>{4, 4, 0, 3, 3}));
  EXPECT_EQ(opponents("B"), (std::vector<int>{3, 3, 3}));
  EXPECT_EQ(opponents("C"), (std::vector<int>{2, 2, 2, 1, 1}));
  EXPECT_EQ(opponents("D"), (std::vector<int>{1, 1}));
  EXPECT_EQ(by_name["C"][4].result, '=');
  EXPECT_EQ(by_name["A"][3].result, '0');
  for (const auto& d : compare_trf(m.t, back)) ADD_FAILURE() << d.message;
}

// Every block of a TRF read back names an opponent whose block in the same
// column names the player back, with the other colour and the other result
// (C.04 Annex 2: a block is one round's game on both lines).
void expect_blocks_pair_up(const TrfFile& f) {
  std::map<int, const TrfPlayer*> by_number;
  for (const TrfPlayer& p : f.players) by_number[p.number] = &p;
  const std::map<char, char> other = {{'1', '0'}, {'0', '1'}, {'=', '='}, {'+', '-'}, {'-', '+'},
                                      {'W', 'L'}, {'L', 'W'}, {'D', 'D'}, {' ', ' '}};
  for (const TrfPlayer& p : f.players)
    for (std::size_t k = 0; k < p.rounds.size(); ++k) {
      const TrfRound& r = p.rounds[k];
      if (r.opponent == 0) continue;
      const auto it = by_number.find(r.opponent);
      ASSERT_NE(it, by_number.end()) << p.name << " block " << k;
      const TrfPlayer& o = *it->second;
      ASSERT_LT(k, o.rounds.size()) << p.name << " block " << k << ": " << o.name << " has no such block";
      const TrfRound& back = o.rounds[k];
      EXPECT_EQ(back.opponent, p.number) << p.name << " block " << k;
      EXPECT_EQ(back.colour, r.colour == 'w' ? 'b' : 'w') << p.name << " block " << k;
      ASSERT_TRUE(other.count(r.result)) << r.result;
      EXPECT_EQ(back.result, other.at(r.result)) << p.name << " block " << k;
    }
}

// A tournament's TRF read back: it reads, every game is written once on
// each of its lines, every block pairs up, and it agrees with the games.
void expect_each_game_on_both_lines(const Made& m) {
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  SCOPED_TRACE(trf.size() < 4096 ? trf : std::string());
  const TrfFile back = read_trf(trf);
  for (const auto& p : back.problems) ADD_FAILURE() << p.line << ":" << p.column << ": " << p.message;
  expect_blocks_pair_up(back);
  std::size_t blocks = 0;
  for (const TrfPlayer& p : back.players)
    blocks += std::size_t(
        std::count_if(p.rounds.begin(), p.rounds.end(), [](const TrfRound& r) { return r.opponent != 0; }));
  EXPECT_EQ(blocks, 2 * m.t.games.size());
  EXPECT_TRUE(compare_trf(m.t, back).empty());
}

// Two games of one player in a round, and games of no known round that no
// round's spare takes: each game is in one column on both its lines.
TEST(Trf, BothPlayersOfAGameHaveItInTheSameColumn) {
  const Made several = make({{"A", "B", "1.1", "1-0"},
                             {"C", "A", "1.2", "0-1"},
                             {"D", "B", "1.3", "1-0"},
                             {"C", "D", "1.4", "1/2-1/2"},
                             {"A", "D", "2.1", "1-0"},
                             {"B", "C", "2.2", "0-1"}},
                            {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}}, System::Swiss);
  const Made unknown = make({{"A", "B", "1", "1-0"},
                             {"C", "D", "1", "0-1"},
                             {"C", "A", "2", "1/2-1/2"},
                             {"B", "D", "2", "1-0"},
                             {"A", "D", "?", "1-0"},
                             {"B", "A", "?", "0-1"}},
                            {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}}, System::Swiss);
  expect_each_game_on_both_lines(several);
  expect_each_game_on_both_lines(unknown);
}

// A player with many games in one round, each opponent with a game before
// it: the columns found free on both lines still pair every game up.
TEST(Trf, AHubOfGamesInOneRoundPairsUp) {
  std::vector<G> games;
  for (int j = 0; j < 300; ++j)
    games.push_back({"Y" + std::to_string(j), "X" + std::to_string(j), "1", "1-0"});
  for (int j = 0; j < 300; ++j)
    games.push_back({"P", "X" + std::to_string(j), "1", j % 3 ? "0-1" : "1/2-1/2"});
  for (int j = 0; j < 100; ++j) games.push_back({"Y" + std::to_string(j), "P", "1", "1-0"});
  expect_each_game_on_both_lines(make(games, {}, System::Swiss));
}

// TRF-16 numbers players in four columns and gives points four: a
// tournament past either is not written as a TRF rather than written wrong.
TEST(Trf, TournamentsPastItsColumnsDoNotFit) {
  std::vector<G> many;
  for (int i = 0; i < 5000; ++i)
    many.push_back({"P" + std::to_string(2 * i), "P" + std::to_string(2 * i + 1), "1", "1-0"});
  const Made big = make(many);
  ASSERT_EQ(big.t.players.size(), 10000u);
  const auto why = trf_misfit(big.t);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("10000 players"), std::string::npos) << *why;
  many.pop_back();
  EXPECT_FALSE(trf_misfit(make(many).t).has_value());  // 9,998 players

  std::vector<G> long_run;
  for (int r = 1; r <= 100; ++r)
    long_run.push_back({"A", "B" + std::to_string(r), std::to_string(r), r < 100 ? "1-0" : "1/2-1/2"});
  const Made m = make(long_run);
  EXPECT_FALSE(trf_misfit(m.t).has_value());  // 99.5
  long_run.back().result = "1-0";
  const auto points = trf_misfit(make(long_run).t);
  ASSERT_TRUE(points.has_value());
  EXPECT_NE(points->find("A has 100.0 points"), std::string::npos) << *points;

  // One player's 15,000 games in a round give every line 15,000 blocks:
  // 1,501 players × 15,000 blocks, past what a report takes.
  std::vector<G> hub;
  for (int pass = 0; pass < 10; ++pass)
    for (int j = 0; j < 1500; ++j) hub.push_back({"P", "X" + std::to_string(j), "1", "0-1"});
  const auto wide = trf_misfit(make(hub).t);
  ASSERT_TRUE(wide.has_value());
  EXPECT_NE(wide->find("1501 players in"), std::string::npos) << *wide;
}

TEST(Trf, FieldsStayOnTheirLinesAndColumns) {
  // Tag values a TRF line cannot hold as they are: a line break (which would
  // start a forged player line), other control bytes, a stray UTF-8
  // continuation byte, a truncated sequence, a name of blanks alone.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"Line\n001    9      Forged", "Tab\tBell\x07"},
      {"\x81\x90", "   "},
      {"Caf\xC3", "Jos\xC3\xA9 \xE2\x82"}};
  std::vector<GameSummary> games;
  int round = 0;
  for (const auto& [w, b] : pairs) {
    game::GameRecord r;
    r.tags = {{"Event", "Open\n001    7      Injected"}, {"Round", std::to_string(++round)},
              {"White", w}, {"Black", b}, {"Result", "1-0"}};
    r.main_line.assign(2, Move{});
    games.push_back(summarize(r, {}));
  }
  const auto groups = group_by_event(games);
  ASSERT_EQ(groups.size(), 1u);
  const Tournament t = build_tournament(games, groups.front());
  const std::string trf = write_trf(t, standings(t, default_tie_breaks(t.system)));
  std::size_t player_lines = 0;
  for (std::size_t at = 0; at < trf.size();) {
    const std::size_t nl = trf.find('\n', at);
    const std::string line = trf.substr(at, nl - at);
    at = nl + 1;
    for (unsigned char c : line) EXPECT_GE(c, 0x20) << "a control byte in: " << line;
    if (line.rfind("001", 0) == 0) ++player_lines;
  }
  EXPECT_EQ(player_lines, t.players.size()) << trf;
  EXPECT_EQ(trf.substr(0, trf.find('\n')), "012 Open 001    7      Injected");
  const TrfFile back = read_trf(trf);
  EXPECT_TRUE(back.problems.empty()) << trf;
  ASSERT_EQ(back.players.size(), t.players.size()) << trf;
  std::set<std::string> names;
  for (const auto& p : back.players) names.insert(p.name);
  // Written as a TRF reader reads them: bytes that are not UTF-8 as
  // Windows-1252 (C3 is Ã; of the cut E2 82, E2 is â and 82 the low quote
  // U+201A; 81 and 90, undefined there, C1 controls), control characters as
  // blanks, a name of blanks alone as "?".
  EXPECT_EQ(names, (std::set<std::string>{"Line 001    9      Forged", "Tab Bell", "?", "Caf\xC3\x83",
                                          "Jos\xC3\xA9 \xC3\xA2\xE2\x80\x9A"}));
}

// TRF-16: W D L are games played but not rated, one player never having
// moved (a single ply); a result without a move stays a forfeit (+ -).
TEST(Trf, OneMoveGamesAreWrittenAndComparedAsWDL) {
  // Round 1: A-B 1-0 after one move (B never moved), C-D 1/2 after one move;
  // round 2: A-C 1-0 over the board, B-D 0-1 by forfeit (no move).
  const Made m = make({{"A", "B", "1.1", "1-0", true, true},
                       {"C", "D", "1.2", "1/2-1/2", true, true},
                       {"A", "C", "2.1", "1-0"},
                       {"B", "D", "2.2", "0-1", false}});
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  // No ratings: starting ranks by name, A 1, B 2, C 3, D 4.
  // Points: A 1 + 1 = 2.0; B 0 + 0 = 0.0; C 1/2 + 0 = 0.5; D 1/2 + 1 = 1.5.
  auto line_of = [&](const std::string& name) {
    const std::size_t at = trf.find("\n001    " + std::to_string(name[0] - 'A' + 1));
    return at == std::string::npos ? std::string() : trf.substr(at + 1, trf.find('\n', at + 1) - at - 1);
  };
  ASSERT_FALSE(line_of("A").empty()) << trf;
  EXPECT_EQ(line_of("A").substr(80, 4), " 2.0");
  EXPECT_EQ(line_of("A").substr(91, 18), "   2 w W     3 w 1");
  EXPECT_EQ(line_of("B").substr(80, 4), " 0.0");
  EXPECT_EQ(line_of("B").substr(91, 18), "   1 b L     4 w -");
  EXPECT_EQ(line_of("C").substr(80, 4), " 0.5");
  EXPECT_EQ(line_of("C").substr(91, 18), "   4 w D     1 b 0");
  EXPECT_EQ(line_of("D").substr(80, 4), " 1.5");
  EXPECT_EQ(line_of("D").substr(91, 18), "   3 b D     2 b +");
  // Read back: W D L score as 1, 1/2, 0, and the file agrees with the games.
  const TrfFile back = read_trf(trf);
  ASSERT_EQ(back.players.size(), 4u);
  EXPECT_EQ(back.players[0].rounds[0].result, 'W');
  EXPECT_DOUBLE_EQ(back.players[0].points, 2.0);
  EXPECT_TRUE(compare_trf(m.t, back).empty());

  // The same points told as another kind of game are disagreements.
  auto result_after = [&](const std::string& name, std::size_t round, char letter) {
    std::string changed = trf;
    const std::size_t at = trf.find("\n001    " + std::to_string(name[0] - 'A' + 1));
    changed[at + 1 + 98 + 10 * (round - 1)] = letter;  // column 99 of the round's block
    std::vector<std::string> messages;
    for (const auto& d : compare_trf(m.t, read_trf(changed))) {
      EXPECT_EQ(d.code, TrfDisagreement::Code::Result) << d.message;
      messages.push_back(d.message);
    }
    return messages;
  };
  // A's one-move win written as a rated win.
  EXPECT_EQ(
      result_after("A", 1, '1'),
      std::vector<std::string>{"round 1: A scores 1 in a game of one move in the games, '1' in the TRF"});
  // A's win over the board written as unrated.
  EXPECT_EQ(result_after("A", 2, 'W'),
            std::vector<std::string>{"round 2: A scores 1 over the board in the games, 'W' in the TRF"});
  // D's forfeit win written as unrated, and as a forfeit it stays one.
  EXPECT_EQ(result_after("D", 2, 'W'),
            std::vector<std::string>{"round 2: D scores 1 by forfeit in the games, 'W' in the TRF"});
  // C's one-move draw written as a rated draw.
  EXPECT_EQ(
      result_after("C", 1, '='),
      std::vector<std::string>{"round 1: C scores 1/2 in a game of one move in the games, '=' in the TRF"});
  // A game played written with a bye's code of the same points (F U H Z).
  EXPECT_EQ(result_after("A", 2, 'F'),
            std::vector<std::string>{"round 2: A scores 1 over the board in the games, 'F' in the TRF"});
  EXPECT_EQ(result_after("A", 2, 'U'),
            std::vector<std::string>{"round 2: A scores 1 over the board in the games, 'U' in the TRF"});
  EXPECT_EQ(result_after("C", 2, 'Z'),
            std::vector<std::string>{"round 2: C scores 0 over the board in the games, 'Z' in the TRF"});
}

// A bye or a forfeit of the games that the TRF leaves blank is a disagreement,
// as is a bye of the TRF the games lack. In swiss_example P5 has a full-point
// bye in round 1 (block "0000 - U"), P2 a half-point bye in round 3
// ("0000 - H"), P2 beats P3 by forfeit in round 2 ("3 w +" / "2 b -"). Blanking
// a block keeps the points (columns 81-84) as they are, so only the round's
// result can tell.
TEST(Trf, ByesAndForfeitsMissingFromTheTrfAreFound) {
  const Made m = swiss_example();
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  // Rating order: P1 1 ... P5 5; round r's block at columns 92 + 10 (r - 1).
  auto with_block = [&](int number, int round, std::string_view block) {
    std::string changed = trf;
    const std::size_t at = changed.find("\n001    " + std::to_string(number));
    EXPECT_NE(at, std::string::npos) << trf;
    const std::size_t end = changed.find('\n', at + 1);
    std::string line = changed.substr(at + 1, end - at - 1);
    line.resize(std::max(line.size(), std::size_t(91 + 10 * round)), ' ');
    line.replace(std::size_t(91 + 10 * (round - 1)), 8, block);
    changed.replace(at + 1, end - at - 1, line);
    return changed;
  };
  auto messages = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const auto& d : compare_trf(m.t, read_trf(text)))
      out.push_back(std::string(trf_code_name(d.code)) + " " + d.message);
    return out;
  };
  // P2's round-3 half-point bye blanked, points left at 1.5: one trf-result.
  EXPECT_EQ(messages(with_block(2, 3, "        ")),
            std::vector<std::string>{
                "trf-result round 3: P2 scores 1/2 by a bye in the games, nothing in the TRF"});
  // P5's round-1 full-point bye blanked, points left at 2.0.
  EXPECT_EQ(
      messages(with_block(5, 1, "        ")),
      std::vector<std::string>{"trf-result round 1: P5 scores 1 by a bye in the games, nothing in the TRF"});
  // A bye written as a game of the same points, with no opponent.
  EXPECT_EQ(
      messages(with_block(5, 1, "0000 - 1")),
      std::vector<std::string>{"trf-result round 1: P5 scores 1 by a bye in the games, '1' in the TRF"});
  EXPECT_EQ(
      messages(with_block(4, 2, "0000 - 0")),
      std::vector<std::string>{
          "trf-result round 2: the TRF gives P4 a game's result with no opponent ('0'); the games have no "
          "game"});
  // Byes as TRFs before TRF-16 wrote them (0000 - +, 0000 - =), and an
  // absence written "0000 - -", as some programs do, are the same.
  EXPECT_TRUE(messages(with_block(5, 1, "0000 - +")).empty());
  EXPECT_TRUE(messages(with_block(2, 3, "0000 - =")).empty());
  EXPECT_TRUE(messages(with_block(4, 2, "0000 - -")).empty());
  // P2's round-2 forfeit win blanked: a pairing on one side only, told once.
  EXPECT_EQ(messages(with_block(2, 2, "        ")),
            std::vector<std::string>{
                "trf-missing-game round 2: the games have P2 - P3; the TRF pairs P2 with no one"});
  // The reverse: P4, absent in round 2 (0000 - Z), given a half-point bye by the TRF.
  EXPECT_EQ(
      messages(with_block(4, 2, "0000 - H")),
      std::vector<std::string>{"trf-result round 2: the TRF gives P4 a bye ('H'); the games have no game"});
}

// The 8 characters of player `number`'s round `round` in a TRF's 001 line.
std::string trf_round(const std::string& trf, int number, int round) {
  const std::size_t at = trf.find("\n001    " + std::to_string(number));
  return at == std::string::npos ? std::string() : trf.substr(at + 1 + 91 + 10 * std::size_t(round - 1), 8);
}

// TRF-16 has one pairing-allocated bye (U) a round. Two full-point byes in
// round 1 of a Swiss: ratings A 2000, B 1900, C 1800, D 1700 give starting
// ranks A 1 ... D 4; the U goes to the lowest-ranked of the two, D (4), as
// the Swiss rules give the bye at the bottom of the pairing; C's is F.
// r1 A-B 1-0, C bye, D bye; r2 A-C 1/2, D-B 1-0 (D listed first in round 1).
TEST(Trf, OneAllocatedByeARound) {
  const Made m = make({{"A", "B", "1.1", "1-0"},
                       {"D", "BYE", "1.2", "1-0", false},
                       {"C", "BYE", "1.3", "1-0", false},
                       {"A", "C", "2.1", "1/2-1/2"},
                       {"D", "B", "2.2", "1-0"}},
                      {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}}, System::Swiss);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  EXPECT_EQ(trf_round(trf, 3, 1), "0000 - F") << trf;
  EXPECT_EQ(trf_round(trf, 4, 1), "0000 - U") << trf;
  std::size_t allocated = 0;
  for (std::size_t at = trf.find("- U"); at != std::string::npos; at = trf.find("- U", at + 1)) ++allocated;
  EXPECT_EQ(allocated, 1u) << trf;
  // Read back, the file agrees with the games.
  for (const auto& d : compare_trf(m.t, read_trf(trf))) ADD_FAILURE() << d.message;
}

// No player gets the pairing's bye twice, and it goes to the lowest score
// before the round. E (starting rank 5) has the one bye of round 1: U. In
// round 2 B, D and E have full-point byes: E has had its U; B and D both
// have 0 points, D is ranked lower (4): D's is U, B's and E's are F.
TEST(Trf, NoPlayerGetsThePairingByeTwice) {
  const Made m = make({{"A", "B", "1.1", "1-0"},
                       {"C", "D", "1.2", "1-0"},
                       {"E", "BYE", "1.3", "1-0", false},
                       {"A", "C", "2.1", "1/2-1/2"},
                       {"B", "BYE", "2.2", "1-0", false},
                       {"D", "BYE", "2.3", "1-0", false},
                       {"E", "BYE", "2.4", "1-0", false}},
                      {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}, {"E", 1600}}, System::Swiss);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  EXPECT_EQ(trf_round(trf, 5, 1), "0000 - U") << trf;
  EXPECT_EQ(trf_round(trf, 5, 2), "0000 - F") << trf;
  EXPECT_EQ(trf_round(trf, 2, 2), "0000 - F") << trf;
  EXPECT_EQ(trf_round(trf, 4, 2), "0000 - U") << trf;
  for (const auto& d : compare_trf(m.t, read_trf(trf))) ADD_FAILURE() << d.message;
}

// A game of no known round whose players both have no game in one round is
// written in that round, as an arbiter's TRF places it: r1 A-B 1-0, C-D 1-0;
// r2 B-C 1/2 (A and D without a game); r3 A-C 0-1, B-D 1-0; A-D 1-0 of
// Round "?". Starting ranks by rating A 1, B 2, C 3, D 4: A's round-2 block
// is "   4 w 1", D's "   1 b 0", and there are three round blocks.
TEST(Trf, AGameOfNoKnownRoundFillsTheRoundItsPlayersSpare) {
  const Made m = make({{"A", "B", "1.1", "1-0"},
                       {"C", "D", "1.2", "1-0"},
                       {"B", "C", "2.1", "1/2-1/2"},
                       {"A", "C", "3.1", "0-1"},
                       {"B", "D", "3.2", "1-0"},
                       {"A", "D", "?", "1-0"}},
                      {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}}, System::Swiss);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  auto line = [&](int number) {
    const std::size_t at = trf.find("\n001    " + std::to_string(number));
    return at == std::string::npos ? std::string() : trf.substr(at + 1, trf.find('\n', at + 1) - at - 1);
  };
  EXPECT_EQ(line(1).substr(91 + 10, 8), "   4 w 1") << trf;
  EXPECT_EQ(line(4).substr(91 + 10, 8), "   1 b 0") << trf;
  EXPECT_EQ(line(1).size(), std::size_t(91 + 10 * 2 + 8)) << trf;  // three blocks, none after them
  for (const auto& d : compare_trf(m.t, read_trf(trf))) ADD_FAILURE() << d.message;
}

// A game of no known round that its players' round spares is written in
// that round only, and a column after the rounds (here for D-A: A had a
// bye in round 1) takes it not again: r1 A bye; B-C 1/2 and D-A 0-1 of
// Round "?". Starting ranks by name: A 1, B 2, C 3, D 4.
TEST(Trf, AGameOfNoKnownRoundIsWrittenOnce) {
  const Made m = make({{"A", "BYE", "1", "1-0", false}, {"B", "C", "?", "1/2-1/2"}, {"D", "A", "?", "0-1"}},
                      {}, System::Swiss);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  auto line = [&](int number) {
    const std::size_t at = trf.find("\n001    " + std::to_string(number));
    return at == std::string::npos ? std::string() : trf.substr(at + 1, trf.find('\n', at + 1) - at - 1);
  };
  EXPECT_EQ(line(2).substr(91, 8), "   3 w =") << trf;
  EXPECT_EQ(line(2).size(), std::size_t(91 + 8)) << trf;  // nothing in the column after the rounds
  EXPECT_EQ(line(3).size(), std::size_t(91 + 8)) << trf;
  EXPECT_EQ(line(1).substr(91 + 10, 8), "   4 b 1") << trf;  // after the rounds
  EXPECT_EQ(line(4).substr(91 + 10, 8), "   1 w 0") << trf;
  for (const auto& d : compare_trf(m.t, read_trf(trf))) ADD_FAILURE() << d.message;
}

// A blank result where the games have one is TRF's Z (no point): a
// disagreement; a game of the games left unfinished (*) that the TRF gives a
// result is one too; a block that does not read is told once, and the
// player's other rounds are still compared. Messages name White first.
TEST(Trf, BlankResultsUnfinishedGamesAndUnreadableBlocks) {
  // Ratings A 2000 .. D 1700: starting ranks 1 .. 4.
  // r1 A-B 1-0, D-C 0-1; r2 C-A 1/2, B-D *.
  const Made m = make({{"A", "B", "1.1", "1-0"},
                       {"D", "C", "1.2", "0-1"},
                       {"C", "A", "2.1", "1/2-1/2"},
                       {"B", "D", "2.2", "*"}},
                      {{"A", 2000}, {"B", 1900}, {"C", 1800}, {"D", 1700}}, System::Swiss);
  const std::string trf = write_trf(m.t, standings(m.t, default_tie_breaks(System::Swiss)));
  // The unfinished game: opponent and colour, no result (the line ends there).
  ASSERT_EQ(trf_round(trf, 2, 2), "   4 w\n0") << trf;
  for (const auto& d : compare_trf(m.t, read_trf(trf))) ADD_FAILURE() << d.message;
  // `text` written at `offset` of a player's round block (the line padded to it).
  auto edited = [&](std::string changed, int number, int round, std::size_t offset, std::string_view text) {
    const std::size_t at = changed.find("\n001    " + std::to_string(number)) + 1;
    const std::size_t end = changed.find('\n', at);
    std::string line = changed.substr(at, end - at);
    const std::size_t column = 91 + 10 * std::size_t(round - 1) + offset;
    line.resize(std::max(line.size(), column + text.size()), ' ');
    line.replace(column, text.size(), text);
    return changed.replace(at, end - at, line);
  };
  auto with = [&](int number, int round, std::size_t offset, std::string_view text) {
    const std::string changed = edited(trf, number, round, offset, text);
    std::vector<std::string> out;
    const TrfFile f = read_trf(changed);
    for (const auto& p : f.problems) out.push_back("problem " + std::to_string(p.column) + " " + p.message);
    for (const auto& d : compare_trf(m.t, f))
      out.push_back(std::string(trf_code_name(d.code)) + " " + d.message);
    return out;
  };
  // A's round-1 win, its result blanked (points left as they are).
  EXPECT_EQ(with(1, 1, 7, " "),
            std::vector<std::string>{"trf-result round 1: A scores 1 in the games, nothing in the TRF"});
  // B-D unfinished in the games, a draw in B's TRF line.
  EXPECT_EQ(
      with(2, 2, 7, "="),
      std::vector<std::string>{"trf-result round 2: B - D has no result in the games (*), '=' in the TRF"});
  // D's round-1 colour unreadable: that block alone is set aside; D's round 2
  // blanked as well is still found (D has Black against B: B - D).
  const std::string both = edited(edited(trf, 4, 1, 5, "x"), 4, 2, 0, "        ");
  std::vector<std::string> out;
  const TrfFile f = read_trf(both);
  ASSERT_EQ(f.problems.size(), 1u);
  EXPECT_EQ(f.problems[0].column, 97u);
  ASSERT_EQ(f.players.size(), 4u);
  for (const auto& d : compare_trf(m.t, f))
    out.push_back(std::string(trf_code_name(d.code)) + " " + d.message);
  EXPECT_EQ(out, std::vector<std::string>{
                     "trf-missing-game round 2: the games have B - D; the TRF pairs D with no one"});
}

// The EventType tag names the system (PGN's "tourn" a round robin); a round
// robin one of whose players withdrew is recognised without it. Six players
// in the circle method's rounds (1 A ... 6 F): r1 A-F B-E C-D, r2 F-D E-C
// A-B, r3 B-F C-A D-E, r4 F-E A-D B-C, r5 C-F D-B E-A. F withdraws after
// round 3: F-E (r4) is a forfeit, C-F (r5) is not in the file.
std::vector<G> withdrawal_round_robin(const std::vector<std::pair<std::string, std::string>>& tags = {}) {
  return {{"A", "F", "1", "1-0", true, false, tags},     {"B", "E", "1", "1/2-1/2", true, false, tags},
          {"C", "D", "1", "0-1", true, false, tags},     {"F", "D", "2", "0-1", true, false, tags},
          {"E", "C", "2", "1-0", true, false, tags},     {"A", "B", "2", "1/2-1/2", true, false, tags},
          {"B", "F", "3", "1-0", true, false, tags},     {"C", "A", "3", "1/2-1/2", true, false, tags},
          {"D", "E", "3", "0-1", true, false, tags},     {"F", "E", "4", "0-1", false, false, tags},
          {"A", "D", "4", "1/2-1/2", true, false, tags}, {"B", "C", "4", "1-0", true, false, tags},
          {"D", "B", "5", "1-0", true, false, tags},     {"E", "A", "5", "0-1", true, false, tags}};
}

TEST(Standings, RoundRobinWithAWithdrawal) {
  EXPECT_EQ(make(withdrawal_round_robin()).t.system, System::RoundRobin);  // 14 of 15 pairs met
  // Without the forfeit 13 of 15 pairs met (< 90 %); both missing ones are F's.
  std::vector<G> games = withdrawal_round_robin();
  games.erase(games.begin() + 9);
  EXPECT_EQ(make(games).t.system, System::RoundRobin);
  // The same rounds without A-B (r2) and C-D (r1) instead: no one player
  // is in both missing pairs, so this is no round robin of a withdrawal.
  games = withdrawal_round_robin();
  games.erase(games.begin() + 5);
  games.erase(games.begin() + 2);
  EXPECT_EQ(make(games).t.system, System::Swiss);
}

TEST(Standings, EventTypeNamesTheSystem) {
  const std::vector<std::pair<std::string, std::string>> tourn = {{"EventType", "tourn"}};
  // A Swiss-looking file that its EventType calls a round robin, and the reverse.
  const Made rr =
      make({{"A", "B", "1", "1-0", true, false, tourn}, {"C", "D", "1", "1-0", true, false, tourn}});
  EXPECT_EQ(rr.t.system, System::RoundRobin);
  EXPECT_EQ(rr.t.system_origin, SystemOrigin::EventType);
  EXPECT_EQ(system_of_event_type("k.o."), System::Knockout);
  EXPECT_EQ(system_of_event_type(" Swiss "), System::Swiss);
  EXPECT_EQ(system_of_event_type("rr"), System::RoundRobin);
  EXPECT_EQ(system_of_event_type("match"), std::nullopt);
  EXPECT_EQ(system_of_event_type("team-tourn"), std::nullopt);
  const Made swiss = make(withdrawal_round_robin({{"EventType", "swiss"}}));
  EXPECT_EQ(swiss.t.system, System::Swiss);
  // --system wins over the tag.
  const Made given =
      make({{"A", "B", "1", "1-0", true, false, tourn}, {"C", "D", "1", "1-0", true, false, tourn}}, {},
           System::Swiss);
  EXPECT_EQ(given.t.system, System::Swiss);
  EXPECT_EQ(given.t.system_origin, SystemOrigin::Given);
}

// A game with a result and no move: a forfeit when its Termination says so;
// a draw, or one whose Termination names how it ended, played (not rated);
// in a file of results alone, every game played and rated.
TEST(Standings, GamesWithoutMoves) {
  const std::vector<std::pair<std::string, std::string>> forfeit = {{"Termination", "forfeit"}},
                                                         normal = {{"Termination", "time forfeit"}};
  const Made mixed = make({{"A", "B", "1.1", "1-0"},
                           {"C", "D", "1.2", "1/2-1/2", false},
                           {"A", "C", "2.1", "1-0", false, false, normal},
                           {"B", "D", "2.2", "0-1", false},
                           {"A", "D", "3.1", "1-0", false, false, forfeit}});
  auto kind = [](const Made& m, const std::string& player, int round) {
    for (const Entry& e : m.t.players[std::size_t(m.idx(player))].entries)
      if (e.round == round) return e.kind;
    return EntryKind::Absent;
  };
  EXPECT_EQ(kind(mixed, "C", 1), EntryKind::Played);   // a draw without a move
  EXPECT_EQ(kind(mixed, "C", 2), EntryKind::Played);   // "time forfeit": lost on time
  EXPECT_EQ(kind(mixed, "B", 2), EntryKind::Forfeit);  // decisive, no Termination
  EXPECT_EQ(kind(mixed, "D", 3), EntryKind::Forfeit);  // Termination "forfeit"
  const std::string trf = write_trf(mixed.t, standings(mixed.t, default_tie_breaks(mixed.t.system)));
  // Starting ranks by name (no ratings): A 1, B 2, C 3, D 4.
  EXPECT_EQ(trf_round(trf, 3, 1), "   4 w D") << trf;
  EXPECT_EQ(trf_round(trf, 3, 2), "   1 b L") << trf;
  EXPECT_EQ(trf_round(trf, 2, 2), "   4 w -") << trf;

  // The same games with no move at all: a file of results.
  const Made results = make({{"A", "B", "1.1", "1-0", false},
                             {"C", "D", "1.2", "1/2-1/2", false},
                             {"A", "C", "2.1", "1-0", false},
                             {"B", "D", "2.2", "0-1", false},
                             {"A", "D", "3.1", "1-0", false, false, forfeit}});
  EXPECT_EQ(kind(results, "B", 1), EntryKind::Played);
  EXPECT_EQ(kind(results, "B", 2), EntryKind::Played);
  EXPECT_EQ(kind(results, "D", 3), EntryKind::Forfeit);
  const std::string rtrf = write_trf(results.t, standings(results.t, default_tie_breaks(results.t.system)));
  EXPECT_EQ(trf_round(rtrf, 1, 1), "   2 w 1") << rtrf;
  EXPECT_EQ(trf_round(rtrf, 3, 1), "   4 w =") << rtrf;
  EXPECT_EQ(trf_round(rtrf, 1, 3), "   4 w +") << rtrf;
}

// A knockout match level on points was won by the player who plays on;
// TRF orders a starting list by rating, then title, then name; 122 is the
// time control most games were played at.
TEST(Standings, KnockoutLevelMatchesTitlesAndTimeControl) {
  const std::vector<std::pair<std::string, std::string>> slow = {{"TimeControl", "5400+30"}},
                                                         fast = {{"TimeControl", "300+2"}};
  const Made m =
      make({{"A", "B", "1.1.1", "1/2-1/2", true, false, slow},
            {"B", "A", "1.1.2", "1/2-1/2", true, false, slow},
            {"A", "B", "1.1.3", "1/2-1/2", true, false, fast},  // armageddon drawn: Black (B) goes on
            {"C", "D", "1.2.1", "1-0", true, false, slow},
            {"D", "C", "1.2.2", "1/2-1/2", true, false, slow},
            {"B", "C", "2.1.1", "1/2-1/2", true, false, slow},
            {"C", "B", "2.1.2", "1/2-1/2", true, false, slow}});
  ASSERT_EQ(m.t.system, System::Knockout);
  const auto matches = knockout_matches(m.t);
  ASSERT_EQ(matches.size(), 3u);
  EXPECT_EQ(matches[0].winner, m.idx("B"));
  EXPECT_TRUE(matches[0].level());
  EXPECT_EQ(matches[1].winner, m.idx("C"));
  EXPECT_FALSE(matches[1].level());
  EXPECT_EQ(matches[2].winner, -1);  // the final level, no later round
  EXPECT_EQ(m.t.time_control, "5400+30");

  // Three players rated alike: GM before IM before none, whatever the names.
  Made titled = make({{"Zed", "Amy", "1", "1-0"}, {"Bob", "Zed", "2", "1-0"}, {"Amy", "Bob", "3", "1-0"}},
                     {{"Zed", 2300}, {"Amy", 2300}, {"Bob", 2300}});
  titled.t.players[std::size_t(titled.idx("Zed"))].title = "GM";
  titled.t.players[std::size_t(titled.idx("Bob"))].title = "IM";
  const std::vector<int> start = starting_ranks(titled.t);
  EXPECT_EQ(start[std::size_t(titled.idx("Zed"))], 1);
  EXPECT_EQ(start[std::size_t(titled.idx("Bob"))], 2);
  EXPECT_EQ(start[std::size_t(titled.idx("Amy"))], 3);
}

}  // namespace
}  // namespace virrey::tournament
