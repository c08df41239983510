// Endgame statistics compared with the same figures counted here: every game
// of the test collection (Standard, Virrey and Modern, generated and
// hand-made) is followed position by position as FEN text, its men counted
// from the board field, the first position with at most N men taken and its
// balance written from the letters on the board; rows are tallied and
// ordered here. Both ways the library answers (the material index, and
// replay in a database without it) must give every row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>

#include "collection.hpp"
#include "stats_collection.hpp"
#include "store_hooks.hpp"
#include "virrey/query/stats_endgames.hpp"

namespace virrey::stats_test {
namespace {

using query::GameScope;

Collection& data() { return Collection::shared(); }

// The men on the board of a FEN, by letter.
std::map<char, int> letters(const std::string& fen) {
  std::map<char, int> out;
  for (char c : fen.substr(0, fen.find(' ')))
    if (std::isalpha(static_cast<unsigned char>(c))) ++out[c];
  return out;
}

int men_of(const std::string& fen) {
  int n = 0;
  for (const auto& [letter, count] : letters(fen)) n += count;
  return n;
}

// "KVR-KR": White's letters strongest first, a dash, Black's.
std::string balance_of(const std::string& fen) {
  const auto l = letters(fen);
  std::string out;
  for (bool white : {true, false}) {
    if (!white) out += '-';
    for (char c : std::string("KQMVRBNP")) {
      const char letter = white ? c : char(std::tolower(static_cast<unsigned char>(c)));
      const auto it = l.find(letter);
      if (it != l.end()) out += std::string(std::size_t(it->second), c);
    }
  }
  return out;
}

struct RefRow {
  std::string balance;
  std::uint64_t games = 0, white = 0, draws = 0, black = 0, unfinished = 0;
};

struct RefVariant {
  std::uint64_t games = 0, reached = 0;
  std::vector<RefRow> rows;
};

using Pick = std::function<bool(const RefGame&)>;

std::map<Variant, RefVariant> reference(int men, const Pick& pick) {
  std::map<Variant, std::map<std::string, RefRow>> rows;
  std::map<Variant, RefVariant> out;
  for (const RefGame& g : data().games) {
    if (!pick(g)) continue;
    RefVariant& v = out[g.record.variant];
    ++v.games;
    for (const std::string& fen : g.keys) {
      if (men_of(fen) > men) continue;
      ++v.reached;
      RefRow& r = rows[g.record.variant][balance_of(fen)];
      r.balance = balance_of(fen);
      ++r.games;
      switch (g.record.result) {
        case GameResult::WhiteWins: ++r.white; break;
        case GameResult::Draw: ++r.draws; break;
        case GameResult::BlackWins: ++r.black; break;
        case GameResult::Unknown: ++r.unfinished; break;
      }
      break;
    }
  }
  for (auto& [variant, v] : out) {
    for (auto& [balance, r] : rows[variant]) v.rows.push_back(r);
    std::sort(v.rows.begin(), v.rows.end(), [](const RefRow& a, const RefRow& b) {
      return std::tuple(-std::int64_t(a.games), a.balance) < std::tuple(-std::int64_t(b.games), b.balance);
    });
  }
  return out;
}

void expect_rows(const query::EndgameStats& s, const std::map<Variant, RefVariant>& ref,
                 const std::string& what) {
  ASSERT_EQ(s.variants.size(), ref.size()) << what;
  std::size_t i = 0;
  for (const auto& [variant, r] : ref) {
    const query::VariantEndgames& v = s.variants[i++];
    ASSERT_EQ(v.variant, variant) << what;
    const std::string at = what + " " + std::string(info(variant).cli_name);
    EXPECT_EQ(v.games, r.games) << at;
    EXPECT_EQ(v.reached, r.reached) << at;
    ASSERT_EQ(v.rows.size(), r.rows.size()) << at;
    for (std::size_t k = 0; k < r.rows.size(); ++k) {
      const auto& got = v.rows[k];
      const RefRow& want = r.rows[k];
      EXPECT_EQ(got.material.to_string(), want.balance) << at << " row " << k;
      EXPECT_EQ(got.material.men(), men_of(want.balance)) << at << " row " << k;
      EXPECT_EQ(got.results.games, want.games) << at << " " << want.balance;
      EXPECT_EQ(got.results.white_wins, want.white) << at << " " << want.balance;
      EXPECT_EQ(got.results.draws, want.draws) << at << " " << want.balance;
      EXPECT_EQ(got.results.black_wins, want.black) << at << " " << want.balance;
      EXPECT_EQ(got.results.unfinished, want.unfinished) << at << " " << want.balance;
    }
  }
}

bool every_game(const RefGame&) { return true; }

// 36: the Modern start position (9 pawns and 9 pieces a side), so every game
// counts at its first position; 32 does so for Standard and Virrey.
constexpr int kMen[] = {2, 3, 4, 6, 10, 16, 31, 32, 36};

TEST(EndgameStats, EveryRowMatchesTheReplayedGames) {
  ASSERT_TRUE(data().db->has_material_index());
  for (int men : kMen) {
    auto s = query::endgame_stats(*data().db, GameScope::everything(), men);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->men, men);
    EXPECT_EQ(s->source, query::EndgameSource::Index);
    expect_rows(*s, reference(men, every_game), "all, " + std::to_string(men) + " men");
  }
}

TEST(EndgameStats, ScopesOfOneVariantAndOfSomeGames) {
  for (int men : {6, 10}) {
    for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
      auto s = query::endgame_stats(*data().db, GameScope::everything(v), men);
      ASSERT_TRUE(s) << s.error().message;
      expect_rows(*s, reference(men, [v](const RefGame& g) { return g.record.variant == v; }),
                  std::string(info(v).cli_name) + " only");
    }
    for (unsigned n : {2u, 7u}) {
      const Pick pick = [n](const RefGame& g) { return g.id % n == 0; };
      std::vector<query::GameMatch> ids;
      for (const RefGame& g : data().games)
        if (pick(g)) ids.push_back({g.id, std::nullopt, g.record.variant});
      auto s = query::endgame_stats(*data().db, GameScope::of_matches(ids), men);
      ASSERT_TRUE(s) << s.error().message;
      expect_rows(*s, reference(men, pick), "ids 0 mod " + std::to_string(n));
    }
  }
}

TEST(EndgameStats, TheStartPositionQualifiesAtThirtyTwoMen) {
  // Standard and Virrey games start with 32 men: each counts at ply 0, in
  // the row of the full balance (a set-up game in the row of its own).
  auto s = query::endgame_stats(*data().db, GameScope::everything(), 32);
  ASSERT_TRUE(s);
  for (const auto& v : s->variants) {
    if (v.variant == Variant::Modern) {
      EXPECT_LT(v.reached, v.games);  // 36 men at the start; only games that lost 4 count
      continue;
    }
    EXPECT_EQ(v.reached, v.games) << info(v.variant).cli_name;
    ASSERT_FALSE(v.rows.empty());
    EXPECT_EQ(v.rows.front().material.to_string(), "KQRRBBNNPPPPPPPP-KQRRBBNNPPPPPPPP");
  }
}

TEST(EndgameStats, ADatabaseWithoutTheMaterialIndexReplaysToTheSameRows) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/old.db";
  std::vector<game::GameRecord> records;
  for (const RefGame& g : data().games) records.push_back(g.record);
  testing::store_records(path, records, true);
  ASSERT_TRUE(store::testing::drop_material_index(path));
  auto db = store::Database::open(path, {store::OpenMode::ReadOnly});
  ASSERT_TRUE(db) << db.error().message;
  ASSERT_FALSE((*db)->has_material_index());
  for (int men : {4, 10, 32}) {
    auto s = query::endgame_stats(**db, GameScope::everything(), men);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->source, query::EndgameSource::Replay);
    expect_rows(*s, reference(men, every_game), "replay, " + std::to_string(men) + " men");
  }
}

TEST(EndgameStats, MergingHalvesGivesTheWhole) {
  std::vector<query::GameMatch> odd, even;
  for (const RefGame& g : data().games)
    (g.id % 2 ? odd : even).push_back({g.id, std::nullopt, g.record.variant});
  auto a = query::endgame_stats(*data().db, GameScope::of_matches(odd), 8);
  auto b = query::endgame_stats(*data().db, GameScope::of_matches(even), 8);
  ASSERT_TRUE(a && b);
  query::merge_endgame_stats(*a, *b);
  expect_rows(*a, reference(8, every_game), "odd + even");
}

TEST(EndgameStats, FewerThanTwoMenIsRefused) {
  auto s = query::endgame_stats(*data().db, GameScope::everything(), 1);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::InvalidArgument);
}

}  // namespace
}  // namespace virrey::stats_test
