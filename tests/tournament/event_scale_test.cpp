// Tournaments of many players and rounds: each player's entry in every
// round, the TRF's round blocks and the progressive score of a tournament
// where every game has a round of its own and two players met nowhere else
// (the shape whose report is largest for its games), and the bound past
// which a tournament is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "virrey/tournament/event.hpp"
#include "virrey/tournament/trf.hpp"

namespace virrey::tournament {
namespace {

// N games of one Event: game i in round i + 1 (or all in round 1), A<i> beats B<i>.
std::vector<GameSummary> diagonal(int n, bool one_round = false) {
  std::vector<GameSummary> out;
  for (int i = 0; i < n; ++i) {
    std::string white = "A", black = "B";
    white += std::to_string(i);
    black += std::to_string(i);
    game::GameRecord r;
    r.tags = {{"Event", "R"},
              {"Round", std::to_string(one_round ? 1 : i + 1)},
              {"White", white},
              {"Black", black},
              {"Result", "1-0"}};
    r.main_line.resize(2);
    out.push_back(summarize(r, {}));
  }
  return out;
}

TEST(EventScale, EveryPlayerHasAnEntryInEveryRound) {
  const auto summaries = diagonal(300);
  const auto groups = group_by_event(summaries);
  ASSERT_EQ(groups.size(), 1u);
  const Tournament t = build_tournament(summaries, groups.front());
  ASSERT_FALSE(t.too_large);
  EXPECT_EQ(t.rounds, 300);
  ASSERT_EQ(t.players.size(), 600u);
  const Player& a7 = t.players[std::size_t(t.player_index("A7"))];
  ASSERT_EQ(a7.entries.size(), 300u);
  for (std::size_t k = 0; k < a7.entries.size(); ++k) {
    EXPECT_EQ(a7.entries[k].round, int(k) + 1);
    EXPECT_EQ(a7.entries[k].kind, k == 7 ? EntryKind::Played : EntryKind::Absent);
  }
  // Progressive: 1 point from round 8 to round 300.
  const auto ps = tie_break_values(t, TieBreak::Progressive);
  EXPECT_DOUBLE_EQ(ps[std::size_t(t.player_index("A7"))].value_or(-1), 293.0);
  EXPECT_DOUBLE_EQ(ps[std::size_t(t.player_index("B7"))].value_or(-1), 0.0);
}

TEST(EventScale, TrfHasABlockForEveryRound) {
  const auto summaries = diagonal(300);
  const Tournament t = build_tournament(summaries, group_by_event(summaries).front());
  const TrfFile back = read_trf(write_trf(t, standings(t, default_tie_breaks(t.system))));
  EXPECT_TRUE(back.problems.empty());
  ASSERT_EQ(back.players.size(), 600u);
  const std::vector<int> start = starting_ranks(t);
  for (const TrfPlayer& p : back.players) {
    ASSERT_EQ(p.rounds.size(), 300u) << p.name;
    const int game = std::stoi(p.name.substr(1));
    const bool white = p.name[0] == 'A';
    std::string other = p.name;
    other[0] = white ? 'B' : 'A';
    const int opponent = t.player_index(other);
    for (std::size_t k = 0; k < p.rounds.size(); ++k) {
      const TrfRound& r = p.rounds[k];
      if (int(k) == game) {
        EXPECT_EQ(r.opponent, start[std::size_t(opponent)]);
        EXPECT_EQ(r.colour, white ? 'w' : 'b');
        EXPECT_EQ(r.result, white ? '1' : '0');
      } else {
        EXPECT_EQ(r.opponent, 0);
        EXPECT_EQ(r.result, 'Z');
      }
    }
  }
  EXPECT_TRUE(compare_trf(t, back).empty());
}

TEST(EventScale, TooManyPlayersTimesRoundsIsMarked) {
  // 2 × 2237 players in 2237 rounds: 10,008,338 results, past the bound.
  const auto summaries = diagonal(2237);
  const Tournament t = build_tournament(summaries, group_by_event(summaries).front());
  EXPECT_GT(std::uint64_t(t.players.size()) * std::uint64_t(t.rounds), kMaxCrosstableCells);
  EXPECT_TRUE(t.too_large);
  EXPECT_EQ(t.games.size(), 2237u);
}

// A round robin's crosstable has a column per player: 3200 players in one
// round are 3200 results as a Swiss, 10,240,000 as a round robin.
TEST(EventScale, ARoundRobinCountsAColumnPerPlayer) {
  const auto summaries = diagonal(1600, true);
  const auto group = group_by_event(summaries).front();
  const Tournament swiss = build_tournament(summaries, group, System::Swiss);
  EXPECT_FALSE(swiss.too_large);
  const Tournament rr = build_tournament(summaries, group, System::RoundRobin);
  EXPECT_EQ(rr.players.size(), 3200u);
  EXPECT_TRUE(rr.too_large);
}

}  // namespace
}  // namespace virrey::tournament
