// What a game adds to the indexes: positions, tree moves, promotions (with
// their flags), tags, summary and identity.
#include <gtest/gtest.h>

#include <algorithm>

#include "store_test_util.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::store::test {
namespace {

std::vector<game::GameRecord> samples() {
  std::vector<game::GameRecord> out;
  for (auto& g : check_pgn(kSampleGames)) out.push_back(std::move(g.record));
  return out;
}

TEST(GameIndex, PositionsAreDistinctWithTheirFirstPly) {
  const auto games = samples();
  auto ix = index_game(games[0]);
  ASSERT_TRUE(ix);
  EXPECT_EQ(ix->positions.size(), games[0].main_line.size() + 1);
  // In game order, each ply once.
  for (std::size_t i = 0; i < ix->positions.size(); ++i) EXPECT_EQ(ix->positions[i].first_ply, i);
  EXPECT_EQ(ix->tree.size(), games[0].main_line.size());
  EXPECT_EQ(ix->counters.games, 1u);
  EXPECT_EQ(ix->counters.draws, 1u);
  EXPECT_EQ(ix->counters.white_elo_sum, 2100u);
  EXPECT_EQ(ix->counters.black_elo_games, 1u);
  EXPECT_EQ(ix->counters.last_date, 20240501u);
  EXPECT_EQ(ix->summary.final_men, 32);  // no capture
}

// A position met again (here the start, then the position after 1. Nf3) is
// indexed once, with the ply it was first met at.
TEST(GameIndex, RepeatedPositionsOnce) {
  const auto rec = unknown_roster_record("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nc6 *\n");
  auto ix = index_game(rec);
  ASSERT_TRUE(ix);
  std::vector<std::uint32_t> plies;
  for (const PositionEntry& p : ix->positions) plies.push_back(p.first_ply);
  EXPECT_EQ(plies, (std::vector<std::uint32_t>{0, 1, 2, 3, 6}));
  for (std::size_t i = 0; i < ix->positions.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(ix->positions[i].hash, ix->positions[j].hash);
}

TEST(GameIndex, TranspositionsMeet) {
  const auto games = samples();
  auto a = index_game(games[0]), b = index_game(games[1]);
  ASSERT_TRUE(a && b);
  // 1. e4 e5 2. Nf3 Nc6 and 1. Nf3 Nc6 2. e4 e5 reach one position at ply 4.
  auto at = [](const GameIndex& ix, std::uint32_t ply) {
    for (const PositionEntry& p : ix.positions)
      if (p.first_ply == ply) return p.hash;
    return std::uint64_t(0);
  };
  EXPECT_EQ(at(*a, 4), at(*b, 4));
  EXPECT_NE(at(*a, 3), at(*b, 3));
  EXPECT_NE(at(*a, 3), 0u);
}

TEST(GameIndex, ViceroyThatMates) {
  const auto games = samples();
  auto ix = index_game(games[2]);
  ASSERT_TRUE(ix);
  EXPECT_EQ(ix->variant, Variant::Virrey);
  ASSERT_EQ(ix->promotions.size(), 1u);
  const PromotionEntry& p = ix->promotions[0];
  EXPECT_EQ(p.piece, PieceType::Viceroy);
  EXPECT_EQ(p.colour, Color::White);
  EXPECT_EQ(p.file, 4);
  EXPECT_EQ(p.ply, 1u);
  EXPECT_EQ(p.flags, kGaveMate);
  EXPECT_EQ(ix->summary.ending, Ending::Checkmate);
  EXPECT_EQ(ix->summary.plies, 7);
  EXPECT_EQ(ix->summary.date, 20240600u);
  EXPECT_EQ(ix->summary.promotions, 1);
  EXPECT_EQ(ix->summary.result, GameResult::WhiteWins);
  EXPECT_EQ(ix->summary.final_men, 4);  // both kings, the h-pawn and the viceroy
}

TEST(GameIndex, PromotedPieceCapturedLater) {
  const auto games = samples();
  auto ix = index_game(games[3]);
  ASSERT_TRUE(ix);
  ASSERT_EQ(ix->promotions.size(), 1u);
  EXPECT_EQ(ix->promotions[0].piece, PieceType::Queen);
  EXPECT_EQ(ix->promotions[0].file, 0);
  EXPECT_EQ(ix->promotions[0].flags, kCapturedLater);
  EXPECT_EQ(ix->summary.ending, Ending::Other);
  EXPECT_EQ(ix->counters.games, 1u);
  EXPECT_EQ(ix->counters.white_wins + ix->counters.draws + ix->counters.black_wins, 0u);
}

TEST(GameIndex, TagsAreNormalisedAndPlaceholdersSkipped) {
  const auto games = samples();
  auto ix = index_game(games[0]);
  ASSERT_TRUE(ix);
  auto has = [&](const GameIndex& g, TagField f, std::string_view v) {
    return std::any_of(g.tags.begin(), g.tags.end(),
                       [&](const TagEntry& t) { return t.field == f && t.value == v; });
  };
  EXPECT_TRUE(has(*ix, TagField::White, "pérez, ana"));
  EXPECT_TRUE(has(*ix, TagField::Eco, "c60"));
  EXPECT_TRUE(has(*ix, TagField::Result, "1/2-1/2"));
  EXPECT_TRUE(has(*ix, TagField::Variant, "standard"));
  EXPECT_TRUE(has(*ix, TagField::Date, "2024.05.01"));
  auto unknown = index_game(games[3]);
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(std::any_of(unknown->tags.begin(), unknown->tags.end(), [](const TagEntry& t) {
    return t.field == TagField::Site || t.field == TagField::Date || t.field == TagField::Round;
  }));
  EXPECT_TRUE(has(*unknown, TagField::Result, "*"));
}

TEST(GameIndex, IdentityIsTheSevenTagRosterAndTheMoves) {
  const auto games = samples();
  game::GameRecord copy = games[0];
  EXPECT_EQ(game::game_identity(copy), game::game_identity(games[0]));
  EXPECT_TRUE(game::same_game(copy, games[0]));
  copy.tags.push_back({"Annotator", "someone"});  // not in the roster
  copy.movetext.clear();                          // annotations do not count
  EXPECT_EQ(game::game_identity(copy), game::game_identity(games[0]));
  EXPECT_TRUE(game::same_game(copy, games[0]));
  for (auto& t : copy.tags)
    if (t.name == "Round") t.value = "2";
  EXPECT_NE(game::game_identity(copy), game::game_identity(games[0]));
  EXPECT_FALSE(game::same_game(copy, games[0]));
  // Golden: the identity is stored (duplicate detection), so it is frozen:
  // as read (databases written before the roster rule)...
  game::GameRecord empty;
  EXPECT_EQ(game::game_identity(empty, game::IdentityRule::AsRead), 0x0d782bc5e93fc799ULL);
  // ...and with missing roster tags as PGN export writes them, the bytes
  // built here by hand: variant, start FEN, moves, then each tag as its
  // length and its bytes, numbers as 8 bytes little-endian.
  std::string bytes;
  auto number = [&](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes += char(v >> (8 * i) & 0xff);
  };
  number(0);
  number(0);
  number(0);
  for (std::string_view v : {"?", "?", "????.??.??", "?", "?", "?", "*"}) {
    number(v.size());
    bytes.append(v);
  }
  EXPECT_EQ(game::identity_bytes(empty), bytes);
  EXPECT_EQ(game::game_identity(empty), game::identity_hash(bytes));
  EXPECT_TRUE(game::identity_rules_differ(empty));
  EXPECT_FALSE(game::identity_rules_differ(games[0]));  // the whole roster, Result as its marker
}

// A roster value that is not UTF-8 (kept by databases written before tags
// were read as UTF-8) counts as the writer writes it, as Windows-1252: the
// game it was and the game read now are one. The older rule hashed its bytes.
TEST(GameIndex, ARosterValueNotInUtf8IsReadAsWindows1252) {
  const auto games = samples();
  game::GameRecord utf8 = games[0], bytes = games[0];
  for (auto& t : utf8.tags)
    if (t.name == "White") t.value = "Fran\xc3\xa7ois \xe2\x80\x9cPhilidor\xe2\x80\x9d";
  for (auto& t : bytes.tags)
    if (t.name == "White") t.value = "Fran\xe7ois \x93Philidor\x94";
  EXPECT_TRUE(game::same_game(utf8, bytes));
  EXPECT_EQ(game::game_identity(utf8), game::game_identity(bytes));
  EXPECT_EQ(game::game_identity(utf8, game::IdentityRule::RosterAsBytes), game::game_identity(utf8));
  EXPECT_NE(game::game_identity(bytes, game::IdentityRule::RosterAsBytes), game::game_identity(bytes));
  EXPECT_TRUE(game::identity_rules_differ(bytes, game::IdentityRule::RosterAsBytes));
  EXPECT_TRUE(game::identity_rules_differ(bytes, game::IdentityRule::AsRead));
  EXPECT_FALSE(game::identity_rules_differ(utf8, game::IdentityRule::RosterAsBytes));
  EXPECT_FALSE(game::identity_rules_differ(bytes, game::IdentityRule::Roster));
  // Control characters, which the reader now reads as spaces: a tab, and a
  // byte Windows-1252 leaves a C1 control (0x81).
  game::GameRecord spaced = games[0], controls = games[0], tab_utf8 = games[0];
  for (auto& t : spaced.tags)
    if (t.name == "White") t.value = "Fran\xc3\xa7ois Philidor ";
  for (auto& t : controls.tags)
    if (t.name == "White") t.value = "Fran\xe7ois\tPhilidor\x81";
  for (auto& t : tab_utf8.tags)
    if (t.name == "White") t.value = "Fran\xc3\xa7ois\tPhilidor ";
  EXPECT_EQ(game::game_identity(controls), game::game_identity(spaced));
  EXPECT_EQ(game::game_identity(tab_utf8), game::game_identity(spaced));
  EXPECT_TRUE(game::identity_rules_differ(tab_utf8, game::IdentityRule::RosterAsBytes));
  EXPECT_FALSE(game::identity_rules_differ(spaced, game::IdentityRule::RosterAsBytes));
  // The bytes hashed: the UTF-8 form's, as identity_bytes writes them.
  const std::string written = game::identity_bytes(bytes);
  EXPECT_NE(written.find("Fran\xc3\xa7ois \xe2\x80\x9cPhilidor\xe2\x80\x9d"), std::string::npos);
  EXPECT_EQ(written.find("Fran\xe7ois"), std::string::npos);
}

TEST(GameIndex, AMissingRosterTagIsItsUnknownValue) {
  const auto games = samples();
  game::GameRecord bare = games[0];
  game::GameRecord unknown = games[0];
  std::erase_if(bare.tags, [](const game::TagPair& t) { return t.name == "Site" || t.name == "Result"; });
  for (auto& t : unknown.tags)
    if (t.name == "Site") t.value = "?";
  EXPECT_TRUE(game::same_game(bare, unknown));
  EXPECT_EQ(game::game_identity(bare), game::game_identity(unknown));
  EXPECT_TRUE(game::identity_rules_differ(bare));
  EXPECT_FALSE(game::same_game(bare, games[0]));  // games[0] knows its Site
  // Result is the termination marker, whatever the tag says.
  game::GameRecord other_result = unknown;
  other_result.result = GameResult::WhiteWins;
  EXPECT_FALSE(game::same_game(other_result, unknown));
}

TEST(GameIndex, BlackToMoveStart) {
  const auto games = samples();
  auto ix = index_game(games[4]);
  ASSERT_TRUE(ix);
  EXPECT_EQ(ix->summary.plies, 3);
  EXPECT_EQ(ix->positions.size(), 4u);
}

}  // namespace
}  // namespace virrey::store::test
