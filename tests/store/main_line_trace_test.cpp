// The validator's trace of a main line (CheckOptions::trace_main_line) gives
// the store exactly what a replay of the record gives: the same index
// entries, summary and record bytes, so import need not replay games.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "store_test_util.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/importer.hpp"

namespace virrey::store::test {
namespace {

// Games checked the way import checks them, with their traces.
std::vector<validate::CheckedGame> check_for_import(const std::string& text, Variant default_variant) {
  validate::CheckOptions options;
  options.default_variant = default_variant;
  options.move_san = false;
  options.plain_movetext = false;
  options.trace_main_line = true;
  return check_pgn_with(text, options);
}

// Two lists of index entries, entry by entry.
template <class T, class Same>
void expect_same_list(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(i);
    same(a[i], b[i]);
  }
}

void expect_same_index(const GameIndex& a, const GameIndex& b) {
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.identity, b.identity);
  EXPECT_EQ(a.identity_bytes, b.identity_bytes);
  expect_same_list(a.positions, b.positions, [](const PositionEntry& x, const PositionEntry& y) {
    EXPECT_EQ(x.hash, y.hash);
    EXPECT_EQ(x.first_ply, y.first_ply);
  });
  expect_same_list(a.tree, b.tree, [](const TreeEntry& x, const TreeEntry& y) {
    EXPECT_EQ(x.hash, y.hash);
    EXPECT_EQ(x.move, y.move);
  });
  EXPECT_EQ(a.counters, b.counters);
  expect_same_list(a.promotions, b.promotions, [](const PromotionEntry& x, const PromotionEntry& y) {
    EXPECT_EQ(x.piece, y.piece);
    EXPECT_EQ(x.colour, y.colour);
    EXPECT_EQ(x.file, y.file);
    EXPECT_EQ(x.ply, y.ply);
    EXPECT_EQ(x.flags, y.flags);
  });
  expect_same_list(a.tags, b.tags, [](const TagEntry& x, const TagEntry& y) {
    EXPECT_EQ(x.field, y.field);
    EXPECT_EQ(x.value, y.value);
  });
  EXPECT_EQ(encode_summary(a.summary), encode_summary(b.summary));
}

struct Tally {
  std::size_t games = 0, plies = 0, promotions = 0, mates = 0;
};

// Every game free of errors: the trace is complete, and preparing the game
// from it equals preparing it by replaying the record.
Tally expect_trace_equals_replay(const std::string& text, Variant default_variant) {
  Tally t;
  for (const auto& g : check_for_import(text, default_variant)) {
    if (g.has_error) continue;
    ++t.games;
    t.plies += g.record.main_line.size();
    EXPECT_TRUE(g.trace.complete) << "game " << t.games;
    EXPECT_EQ(g.trace.hashes.size(), g.record.main_line.size() + 1);
    const PreparedGame traced = prepare_game(g.record, &g.trace);
    const PreparedGame replayed = prepare_game(g.record);
    EXPECT_TRUE(traced.index && replayed.index && traced.record && replayed.record);
    if (!traced.index || !replayed.index || !traced.record || !replayed.record) continue;
    expect_same_index(*traced.index, *replayed.index);
    EXPECT_EQ(*traced.record, *replayed.record);
    // db check and db upgrade index records without move numbers: the same.
    auto plain = index_game(g.record);
    EXPECT_TRUE(plain);
    if (plain) expect_same_index(*plain, *traced.index);
    t.promotions += traced.index->promotions.size();
    t.mates += traced.index->summary.ending == Ending::Checkmate;
  }
  return t;
}

std::string sample(const std::string& name) {
  return read_file(std::string(VIRREY_SOURCE_DIR) + "/sample-data/" + name);
}

std::string generated(const std::string& variant, int games, int seed) {
  TempDir dir;
  const std::string path = dir / "games.pgn";
  const RunResult r = run_virrey_words(
      fmt::format("generate --variant {} --games {} --seed {} -o {}", variant, games, seed, path),
      dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_file(path);
}

TEST(MainLineTrace, SampleDataGivesWhatTheReplayGives) {
  const Tally standard = expect_trace_equals_replay(sample("standard-games.pgn"), Variant::Standard);
  const Tally virrey = expect_trace_equals_replay(sample("virrey-games.pgn"), Variant::Virrey);
  const Tally modern = expect_trace_equals_replay(sample("modern-club.pgn"), Variant::Modern);
  EXPECT_GT(standard.games, 0u);
  EXPECT_GT(virrey.games, 0u);
  EXPECT_GT(modern.games, 0u);
}

TEST(MainLineTrace, GeneratedCollectionsGiveWhatTheReplayGives) {
  const Tally virrey = expect_trace_equals_replay(generated("virrey", 500, 3), Variant::Standard);
  EXPECT_EQ(virrey.games, 500u);
  // The collection exercises promotions (their captures and mates) and mates.
  EXPECT_GT(virrey.promotions, 100u);
  EXPECT_GT(virrey.mates, 10u);
  const Tally standard = expect_trace_equals_replay(generated("standard", 200, 4), Variant::Standard);
  EXPECT_EQ(standard.games, 200u);
  const Tally modern = expect_trace_equals_replay(generated("modern", 200, 5), Variant::Standard);
  EXPECT_EQ(modern.games, 200u);
  EXPECT_GT(modern.promotions, 20u);
}

// Worked by hand from the numbering in rules/move_numbers.hpp: before 1. e4,
// White's pieces on squares below e2 have 12 moves (the knights two each,
// the pawns a2-d2 two each), and e2-e3 comes before e2-e4: 13. Before 1...e5,
// the pawns a7-d7 have 8, then e7-e5 (a lower square than e6): 8.
TEST(MainLineTrace, HoldsTheHashesAndMoveNumbersOfTheMainLine) {
  auto games = check_for_import(
      "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
      "[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 (1... c5) *\n",
      Variant::Standard);
  ASSERT_EQ(games.size(), 1u);
  const game::MainLineTrace& t = games[0].trace;
  ASSERT_TRUE(t.complete);
  EXPECT_EQ(t.move_numbers, std::string("\x0d\x08", 2));
  ASSERT_EQ(t.hashes.size(), 3u);
  const Position<Board8> start = *variant_start<Board8>(Variant::Standard);
  const auto& line = games[0].record.main_line;
  EXPECT_EQ(t.hashes[0], start.hash());
  EXPECT_EQ(t.hashes[1], start.after(line[0]).hash());
  EXPECT_EQ(t.hashes[2], start.after(line[0]).after(line[1]).hash());
  EXPECT_EQ(t.final_men, 32);
  EXPECT_EQ(t.final_state, BoardState::Ongoing);
}

// Fool's mate: the trace ends in checkmate with 32 men. A queen promoted on
// g8 at ply 1 and captured on g2 at ply 4 leaves three men.
TEST(MainLineTrace, EndingAndPromotions) {
  auto mate = check_for_import(
      "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
      "[Black \"?\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
      Variant::Standard);
  ASSERT_EQ(mate.size(), 1u);
  EXPECT_EQ(mate[0].trace.final_state, BoardState::Checkmate);
  EXPECT_EQ(mate[0].trace.final_men, 32);

  auto promo = check_for_import(
      "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
      "[Black \"?\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"k7/6P1/8/8/8/8/1r6/K7 w - - 0 1\"]\n\n"
      "1. g8=Q+ Kb7 2. Qg2 Rxg2 *\n",
      Variant::Standard);
  ASSERT_EQ(promo.size(), 1u);
  ASSERT_FALSE(promo[0].has_error) << promo[0].findings[0].message;
  const game::MainLineTrace& t = promo[0].trace;
  ASSERT_EQ(t.promotions.size(), 1u);
  EXPECT_EQ(t.promotions[0].piece, PieceType::Queen);
  EXPECT_EQ(t.promotions[0].file, 6);
  EXPECT_EQ(t.promotions[0].ply, 1u);
  EXPECT_EQ(t.promotions[0].square, kNoSquare);  // captured on g2
  EXPECT_EQ(t.final_men, 3);
}

// Validation leaves the trace off unless asked.
TEST(MainLineTrace, OffByDefault) {
  auto games = check_pgn(kSampleGames);
  ASSERT_FALSE(games.empty());
  EXPECT_FALSE(games[0].trace.complete);
  EXPECT_TRUE(games[0].trace.hashes.empty());
}

}  // namespace
}  // namespace virrey::store::test
