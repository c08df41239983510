// The square index: golden bytes of its keys and values (worked out by hand
// from the layout in square_index.hpp), round trips and malformed values, a
// game's changes against a hand-made list, and the index on a database:
// built, read from a game on, checked by `db check`, dropped and rebuilt.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "collection.hpp"
#include "store_hooks.hpp"
#include "store_test_util.hpp"
#include "temp_dir.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::store {
namespace {

using test::hex;

constexpr Piece kWhitePawn{Color::White, PieceType::Pawn};
constexpr Piece kBlackViceroy{Color::Black, PieceType::Viceroy};

TEST(SquareIndex, GoldenKeys) {
  EXPECT_EQ(hex(view(square_block_key(Variant::Virrey, 28, 0x01020304))), "01011c01020304");
  EXPECT_EQ(hex(view(square_block_key(Variant::Standard, kSquareBlockGames, 7))), "0100ff00000007");
  EXPECT_EQ(hex(view(square_covered_key())), "02");
}

TEST(SquareIndex, GoldenValues) {
  // Two games: count 2; id 10 (gap 0 from the key's 10), 5 plies, White
  // first: 10; id 12 (gap 2), 3 plies, Black first: 7.
  EXPECT_EQ(hex(encode_square_headers(10, {{10, 5, Color::White}, {12, 3, Color::Black}})), "02000a0207");
  // A game without changes, then one whose pawn arrives at ply 3 and leaves
  // at ply 7. Deltas 3 and 3 (7 - 3 - 1): k = 1 is the first that costs
  // least (6 bits against k = 0's 8). Bits, first to last: k 1,0,0 | game 0:
  // 0 | game 1: count 2 as 1,1,0 | ply 3 as 1,0,1 | a man 0, white pawn
  // 0,0,0,0 | ply 7 as 1,0,1 | empty 1.
  const std::vector<std::vector<SquareChange>> games = {{}, {{3, kWhitePawn}, {7, Piece{}}}};
  EXPECT_EQ(hex(encode_square_changes(games)), "b18206");
  // A black viceroy (colour 1, type 7: code 1 * 8 + 6 = 14) set up at ply 0.
  std::vector<std::vector<SquareChange>> back;
  const std::vector<std::vector<SquareChange>> setup = {{{0, kBlackViceroy}}};
  ASSERT_TRUE(decode_square_changes(encode_square_changes(setup), 1, back));
  EXPECT_EQ(back, setup);
}

TEST(SquareIndex, RoundTripsAndRefusesMalformedValues) {
  std::mt19937_64 random(20261204);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::vector<SquareChange>> games(random() % 40);
    for (auto& changes : games) {
      std::uint32_t ply = std::uint32_t(random() % 2);
      for (std::size_t n = random() % 12; n > 0; --n) {
        const int code = int(random() % 17);
        changes.push_back({ply, code == 16 ? Piece{} : Piece{Color(code / 8), PieceType(code % 8 + 1)}});
        ply += 1 + std::uint32_t(random() % (round % 3 == 0 ? 300 : 6));
      }
    }
    const std::string value = encode_square_changes(games);
    std::vector<std::vector<SquareChange>> back;
    ASSERT_TRUE(decode_square_changes(value, games.size(), back));
    EXPECT_EQ(back, games);
    // Cut short, or asked for more games than it holds: refused.
    if (!value.empty() && games.size() > 1) {
      EXPECT_FALSE(decode_square_changes(value.substr(0, value.size() / 2), games.size(), back));
    }
    EXPECT_FALSE(decode_square_changes(value + std::string(2, '\xff'), games.size(), back));
  }
  // Random bytes decode or are refused, never more.
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(random() % 64, '\0');
    for (char& c : bytes) c = char(random());
    std::vector<std::vector<SquareChange>> back;
    (void)decode_square_changes(bytes, random() % 50, back);
    std::vector<SquareGameHeader> headers;
    (void)decode_square_headers(bytes, GameId(random() % 1000), headers);
  }
  std::vector<SquareGameHeader> headers;
  EXPECT_FALSE(decode_square_headers(std::string("\x02\x00\x0a", 3), 1, headers));          // one game of two
  EXPECT_FALSE(decode_square_headers(std::string("\x02\x00\x0a\x00\x0a", 5), 1, headers));  // an id twice
  // The first game not the key's, or ids wrapping round past 2^32.
  EXPECT_FALSE(decode_square_headers(std::string("\x01\x01\x0a", 3), 1, headers));
  EXPECT_FALSE(decode_square_headers(
      std::string("\x02\x00\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00", 14), 6, headers));
}

TEST(SquareIndex, AGamesChangesSquareBySquare) {
  const auto records = virrey::testing::records_from_pgn(R"([Event "e"]
[Site "?"]
[Date "2026.12.04"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *
)",
                                                         Variant::Standard);
  ASSERT_EQ(records.size(), 1u);
  const auto game = square_changes(records[0]);
  ASSERT_TRUE(game);
  EXPECT_EQ(game->first_to_move, Color::White);
  auto sq = [](std::string_view name) { return std::size_t((name[1] - '1') * 8 + (name[0] - 'a')); };
  const Piece none;
  const std::map<std::string, std::vector<SquareChange>> want = {
      {"e2", {{1, none}}},
      {"e4", {{1, kWhitePawn}}},
      {"e7", {{2, none}}},
      {"e5", {{2, Piece{Color::Black, PieceType::Pawn}}}},
      {"f3", {{3, Piece{Color::White, PieceType::Knight}}}},
      {"b8", {{4, none}}},
      {"c6", {{4, Piece{Color::Black, PieceType::Knight}}}},
      {"f1", {{5, none}, {7, Piece{Color::White, PieceType::Rook}}}},
      {"c4", {{5, Piece{Color::White, PieceType::Bishop}}}},
      {"f8", {{6, none}}},
      {"c5", {{6, Piece{Color::Black, PieceType::Bishop}}}},
      {"e1", {{7, none}}},
      {"g1", {{3, none}, {7, Piece{Color::White, PieceType::King}}}},
      {"h1", {{7, none}}},
  };
  for (std::size_t s = 0; s < 64; ++s) {
    std::string name{char('a' + s % 8), char('1' + s / 8)};
    const auto it = want.find(name);
    EXPECT_EQ(game->changes[s], it == want.end() ? std::vector<SquareChange>{} : it->second) << name;
  }
  EXPECT_EQ(sq("e4"), 28u);
}

// The changes of e4 per game, as the index gives them.
std::map<GameId, std::vector<SquareChange>> e4_by_game(const Database& db) {
  std::map<GameId, std::vector<SquareChange>> out;
  Status s = for_each_square_game(db, Variant::Standard, {28}, [&](const SquareGame& g) {
    out[g.header.id] = g.changes(0);
    return true;
  });
  EXPECT_TRUE(s);
  return out;
}

TEST(SquareIndex, BuiltExtendedCheckedAndDropped) {
  virrey::testing::TempDir dir;
  const std::string path = dir / "db";
  const auto first = virrey::testing::generated(Variant::Standard, 3, 30);
  virrey::testing::store_records(path, first);
  auto db = Database::open(path, {OpenMode::ReadWrite});
  ASSERT_TRUE(db) << db.error().message;
  auto state = square_index_state(**db);
  ASSERT_TRUE(state);
  EXPECT_FALSE(state->present);
  auto complete = square_index_complete(**db);
  ASSERT_TRUE(complete);
  EXPECT_FALSE(*complete);
  // Nothing to extend without an index.
  auto none = extend_square_index_if_present(**db);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->games, 0u);

  auto built = extend_square_index(**db);
  ASSERT_TRUE(built) << built.error().message;
  EXPECT_EQ(built->games, 30u);
  complete = square_index_complete(**db);
  ASSERT_TRUE(complete);
  EXPECT_TRUE(*complete);
  // Every game's e4, as its record replays.
  auto e4 = e4_by_game(**db);
  ASSERT_EQ(e4.size(), 30u);
  for (GameId id = 1; id <= 30; ++id) {
    auto rec = (*db)->game(id, kDecodeMainLine);
    ASSERT_TRUE(rec);
    EXPECT_EQ(e4[id], square_changes(*rec)->changes[28]) << "game " << id;
  }
  // From a later game on: the same games past it.
  std::vector<GameId> from_twelve;
  ASSERT_TRUE(for_each_square_game(
      **db, Variant::Standard, {28},
      [&](const SquareGame& g) {
        from_twelve.push_back(g.header.id);
        return true;
      },
      12));
  ASSERT_EQ(from_twelve.size(), 19u);
  EXPECT_EQ(from_twelve.front(), 12u);
  auto report = check_database(**db);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok()) << (report->problems.empty() ? "" : report->problems.front());
  db->reset();

  // A game's changes altered behind the index's back: `db check` says so.
  std::vector<std::vector<SquareChange>> wrong(30);
  wrong[4] = {{9, kWhitePawn}};
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Squares,
                                     std::string(view(square_block_key(Variant::Standard, 28, 1))),
                                     encode_square_changes(wrong)));
  {
    auto reader = Database::open(path);
    ASSERT_TRUE(reader);
    auto bad = check_database(**reader);
    ASSERT_TRUE(bad);
    EXPECT_FALSE(bad->ok());
    bool named = false;
    for (const auto& p : bad->problems) named |= p.find("squares: game") != std::string::npos;
    EXPECT_TRUE(named);
  }

  // Dropped, then rebuilt from nothing.
  db = Database::open(path, {OpenMode::ReadWrite});
  ASSERT_TRUE(db);
  ASSERT_TRUE(drop_square_index(**db));
  state = square_index_state(**db);
  ASSERT_TRUE(state);
  EXPECT_FALSE(state->present);
  EXPECT_TRUE(e4_by_game(**db).empty());
  built = extend_square_index(**db);
  ASSERT_TRUE(built);
  EXPECT_EQ(built->games, 30u);
  db->reset();
  auto report2 = Database::open(path);
  ASSERT_TRUE(report2);
  auto ok = check_database(**report2);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->ok()) << (ok->problems.empty() ? "" : ok->problems.front());
}

}  // namespace
}  // namespace virrey::store
