// Modern chess (9x9) in the store: records, the position index, the opening
// tree, the tag and promotion indexes, each compared with a replay of the
// games here; Modern keys never meet 8x8 ones; games export as imported.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "store_test_util.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/generate/game_generator.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store::test {
namespace {

// Castling on both wings, ministers made on the a- and i-files (one taken
// back at once), bishop swaps, and an 8x8 game beside them.
constexpr const char* kModernGames = R"PGN([Event "Modern castling"]
[Site "Lima"]
[Date "1968.03.01"]
[Round "1"]
[White "Maura"]
[Black "Alfa"]
[Result "*"]
[Variant "Modern"]

1. Nc3 Ng7 2. d3 h7 3. Bd2 Bh8 4. Me3 Me7 5. O-M-O O-M-O 6. Ni3 Nc7 *

[Event "Modern castling"]
[Site "Lima"]
[Date "1968.03.02"]
[Round "2"]
[White "Alfa"]
[Black "Maura"]
[Result "*"]
[Variant "Modern"]

1. Ni3 Nc7 2. h3 b7 3. Bh2 Bb8 4. e3 e7 5. Qe2 Qe8 6. O-Q-O O-Q-O *

[Event "Modern ministers"]
[Site "Cusco"]
[Date "1970.01.01"]
[Round "1"]
[White "Maura"]
[Black "Beta"]
[Result "*"]
[Variant "Modern"]
[SetUp "1"]
[FEN "4k4/8P/9/9/9/9/9/p8/4K4 w - - 0 1"]

1. i9=M a1=M 2. Mg7+ Kd8 3. Kd2 Mb3+ 4. Kc3 Kc8 *

[Event "Modern ministers"]
[Site "Cusco"]
[Date "1970.01.02"]
[Round "2"]
[White "Beta"]
[Black "Maura"]
[Result "*"]
[Variant "Modern"]
[SetUp "1"]
[FEN "5k3/P8/9/9/9/9/9/7Kp/9 w - - 0 1"]

1. a9=M i1=M+ 2. Kxi1 Kg8 *

[Event "Modern swap"]
[Site "Quito"]
[Date "1971.05.05"]
[Round "1"]
[White "Beta"]
[Black "Gamma"]
[Result "*"]
[Variant "Modern"]
[BishopSwap "Yes"]

1. B=Q B=MN 2. e4 e6 3. Nc3 Nc7 *

[Event "Modern swap"]
[Site "Quito"]
[Date "1971.05.06"]
[Round "2"]
[White "Gamma"]
[Black "Beta"]
[Result "*"]
[Variant "Modern"]
[BishopSwap "Yes"]

{A swap after a move} 1. e4 B=M 2. B=MN (2. Nc3 e6) 2... e6 *

[Event "Eight by eight"]
[Site "Quito"]
[Date "1971.05.07"]
[Round "3"]
[White "Gamma"]
[Black "Delta"]
[Result "*"]

1. e4 e6 2. Nc3 Nc6 *

)PGN";

std::vector<game::GameRecord> modern_records() {
  std::vector<game::GameRecord> out;
  for (auto& g : check_pgn(kModernGames)) {
    for (const auto& f : g.findings) EXPECT_NE(f.severity, validate::Severity::Error) << f.message;
    out.push_back(std::move(g.record));
  }
  generate::GeneratorOptions o;
  o.variant = Variant::Modern;
  o.seed = 68;
  generate::GameGenerator gen(o);
  for (std::uint64_t i = 0; i < 60; ++i) out.push_back(gen.game(i).record);
  return out;
}

// What replaying a game says the indexes must hold.
struct Replayed {
  std::map<std::uint64_t, std::uint32_t> first_ply;  // position hash -> first ply reaching it
  std::vector<std::pair<std::uint64_t, Move>> tree;  // (position, move) of the first plies
  std::vector<std::tuple<PieceType, Color, int, std::uint32_t>> promotions;  // piece, colour, file, ply
};

Replayed replay(const game::GameRecord& rec, std::size_t tree_plies) {
  Replayed out;
  with_geometry(rec.variant, [&](auto geometry) {
    using G = decltype(geometry);
    FenProblems errors;
    auto pos = *position_from_fen<G>(rec.start_fen.empty() ? info(rec.variant).start_fen : rec.start_fen,
                                     rec.variant, errors);
    out.first_ply.emplace(pos.hash(), 0);
    for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
      const Move m = rec.main_line[i];
      if (i < tree_plies) out.tree.emplace_back(pos.hash(), m);
      if (m.kind() == MoveKind::Promotion)
        out.promotions.emplace_back(m.promotion(), pos.side_to_move(), file_of<G>(m.to()),
                                    std::uint32_t(i + 1));
      pos.play(m);
      out.first_ply.emplace(pos.hash(), std::uint32_t(i + 1));
    }
  });
  return out;
}

class ModernStore : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Database::open(path, {OpenMode::ReadWrite, true});
    ASSERT_TRUE(opened) << opened.error().message;
    db = std::move(*opened);
    GameImporter importer(*db, {2, 16});
    for (const auto& r : games) ASSERT_TRUE(importer.add(r));
    auto totals = importer.finish();
    ASSERT_TRUE(totals) << totals.error().message;
    ASSERT_EQ(totals->stored, games.size());
  }

  TempDir dir;
  std::string path = dir / "modern.db";
  std::vector<game::GameRecord> games = modern_records();
  std::unique_ptr<Database> db;
};

TEST_F(ModernStore, CountsGamesPerVariant) {
  const auto counts = db->counts();
  EXPECT_EQ(counts[std::size_t(Variant::Modern)].games, games.size() - 1);
  EXPECT_EQ(counts[std::size_t(Variant::Standard)].games, 1u);
  EXPECT_EQ(counts[std::size_t(Variant::Virrey)].games, 0u);
  auto check = check_database(*db);
  ASSERT_TRUE(check) << check.error().message;
  EXPECT_TRUE(check->ok()) << check->problems.front();
  EXPECT_EQ(check->games, games.size());
}

TEST_F(ModernStore, RecordsExportAsImported) {
  GameId id = 0;
  std::size_t swaps = 0;
  ASSERT_TRUE(db->for_each_game([&](GameId gid, const game::GameRecord& r) {
    EXPECT_EQ(gid, id + 1);
    const game::GameRecord& in = games[id++];
    EXPECT_EQ(r.variant, in.variant);
    EXPECT_EQ(r.main_line, in.main_line);
    EXPECT_EQ(game::write_pgn(r), game::write_pgn(in));
    swaps += r.bishop_swap();
    return true;
  }));
  EXPECT_EQ(id, games.size());
  EXPECT_GT(swaps, 2u);
  // The tags that make the game what it is stay.
  auto swap_game = db->game(5);
  ASSERT_TRUE(swap_game);
  EXPECT_EQ(swap_game->tag("Variant"), "Modern");
  EXPECT_EQ(swap_game->tag("BishopSwap"), "Yes");
  const std::string pgn = game::write_pgn(*swap_game);
  EXPECT_NE(pgn.find("1. B=Q B=MN 2. e4 e6 3. Nc3 Nc7 *"), std::string::npos) << pgn;
}

TEST_F(ModernStore, TheBishopSwapTagIsPartOfTheMoveEncoding) {
  // The same moves read without [BishopSwap "Yes"] are not a legal game.
  game::GameRecord rec = games[4];
  ASSERT_TRUE(encode_game(rec));
  std::erase_if(rec.tags, [](const game::TagPair& t) { return t.name == "BishopSwap"; });
  EXPECT_FALSE(encode_game(rec));
}

TEST_F(ModernStore, PositionIndexMatchesReplay) {
  std::size_t checked = 0;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const GameId id = GameId(i + 1);
    const Replayed r = replay(games[i], db->tree_plies());
    for (const auto& [hash, ply] : r.first_ply) {
      (void)ply;
      std::map<Variant, std::vector<PositionHit>> found;
      for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern})
        ASSERT_TRUE(db->for_each_position(v, hash, [&](const PositionHit& h) {
          if (h.game == id) found[v].push_back(h);
          return true;
        }));
      // Found once, under its own variant only.
      ASSERT_EQ(found[games[i].variant].size(), 1u) << "game " << id;
      EXPECT_EQ(found.size(), 1u) << "game " << id;
      ++checked;
    }
  }
  EXPECT_GT(checked, 3000u);
}

TEST_F(ModernStore, OpeningTreeMatchesReplay) {
  // Per (variant, position, move): the games that played it.
  std::map<std::tuple<Variant, std::uint64_t, std::uint32_t>, std::set<std::size_t>> expected;
  for (std::size_t i = 0; i < games.size(); ++i)
    for (const auto& [hash, move] : replay(games[i], db->tree_plies()).tree)
      expected[{games[i].variant, hash, move.raw()}].insert(i);
  std::set<std::pair<Variant, std::uint64_t>> positions;
  for (const auto& [key, ids] : expected) positions.insert({std::get<0>(key), std::get<1>(key)});
  for (const auto& [v, hash] : positions) {
    auto moves = db->tree_moves(v, hash);
    ASSERT_TRUE(moves) << moves.error().message;
    std::uint64_t listed = 0;
    for (const TreeMove& t : *moves) {
      auto it = expected.find({v, hash, t.move.raw()});
      ASSERT_NE(it, expected.end());
      EXPECT_EQ(t.counters.games, it->second.size());
      ++listed;
    }
    std::uint64_t want = 0;
    for (const auto& [key, ids] : expected) want += std::get<0>(key) == v && std::get<1>(key) == hash;
    EXPECT_EQ(listed, want);
  }
  // The Modern start position is no position of the 8x8 variants.
  FenProblems errors;
  const auto start = position_from_fen<Board9>(info(Variant::Modern).start_fen, Variant::Modern, errors);
  ASSERT_TRUE(start);
  for (Variant v : {Variant::Standard, Variant::Virrey}) {
    auto none = db->tree_moves(v, start->hash());
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
  }
}

TEST_F(ModernStore, PromotionIndexMatchesReplay) {
  std::set<std::tuple<PieceType, Color, int, GameId, std::uint32_t>> expected;
  for (std::size_t i = 0; i < games.size(); ++i)
    for (const auto& [piece, colour, file, ply] : replay(games[i], 0).promotions)
      expected.insert({piece, colour, file, GameId(i + 1), ply});
  std::set<std::tuple<PieceType, Color, int, GameId, std::uint32_t>> got;
  PromotionFilter all_modern;
  all_modern.variant = Variant::Modern;
  ASSERT_TRUE(db->for_each_promotion(all_modern, [&](const PromotionHit& h) {
    got.insert({h.piece, h.colour, h.file, h.game, h.ply});
    return true;
  }));
  EXPECT_EQ(got, expected);

  // Ministers on the i-file (White, ply 1) and the a-file (Black, ply 2) of
  // game 3; Black's i-file minister of game 4 is taken at once.
  PromotionFilter ministers;
  ministers.variant = Variant::Modern;
  ministers.piece = PieceType::Minister;
  std::map<std::pair<GameId, std::uint32_t>, PromotionHit> hits;
  ASSERT_TRUE(db->for_each_promotion(ministers, [&](const PromotionHit& h) {
    hits[{h.game, h.ply}] = h;
    return true;
  }));
  auto hit = [&](GameId game, std::uint32_t ply) {
    auto it = hits.find({game, ply});
    EXPECT_NE(it, hits.end()) << "game " << game << " ply " << ply;
    return it == hits.end() ? PromotionHit{} : it->second;
  };
  EXPECT_EQ(hit(3, 1).file, 8);
  EXPECT_EQ(hit(3, 1).colour, Color::White);
  EXPECT_FALSE(hit(3, 1).flags & kCapturedLater);
  EXPECT_EQ(hit(3, 2).file, 0);
  EXPECT_EQ(hit(3, 2).colour, Color::Black);
  EXPECT_EQ(hit(4, 1).file, 0);
  EXPECT_EQ(hit(4, 2).file, 8);
  EXPECT_TRUE(hit(4, 2).flags & kCapturedLater);
  PromotionFilter eight_by_eight;
  eight_by_eight.variant = Variant::Standard;
  std::size_t standard = 0;
  ASSERT_TRUE(db->for_each_promotion(eight_by_eight, [&](const PromotionHit&) {
    ++standard;
    return true;
  }));
  EXPECT_EQ(standard, 0u);
}

TEST_F(ModernStore, TagIndexNamesTheVariant) {
  std::set<GameId> modern, standard;
  ASSERT_TRUE(
      db->for_each_tag(TagField::Variant, "modern", TagMatch::Exact, [&](GameId id, std::string_view) {
        modern.insert(id);
        return true;
      }));
  ASSERT_TRUE(
      db->for_each_tag(TagField::Variant, "standard", TagMatch::Exact, [&](GameId id, std::string_view) {
        standard.insert(id);
        return true;
      }));
  EXPECT_EQ(modern.size(), games.size() - 1);
  EXPECT_EQ(standard, (std::set<GameId>{7}));
  EXPECT_EQ(modern.count(7), 0u);
}

}  // namespace
}  // namespace virrey::store::test
