// The openings family: golden key and value layouts, and the facade's
// writes and reads on a temporary database.
#include <gtest/gtest.h>

#include "store_test_util.hpp"
#include "temp_dir.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/openings.hpp"

namespace virrey::store {
namespace {

using test::hex;

TEST(OpeningsStore, GoldenLayouts) {
  EXPECT_EQ(hex(view(opening_game_key(0x01020304))), "0001020304");
  EXPECT_EQ(hex(view(opening_book_key(Variant::Virrey, 0x1122334455667788ULL))), "01011122334455667788");
  EXPECT_EQ(hex(view(opening_source_key())), "02");
  // ply 8 (0008) | 3 code bytes | "D53" | "QGD"
  EXPECT_EQ(hex(encode_opening({"D53", "QGD", 8})),
            "0008"
            "03"
            "443533"
            "514744");
  const auto back = decode_opening(encode_opening({"E99c2", "King's Indian", 40}));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, (StoredOpening{"E99c2", "King's Indian", 40}));
  EXPECT_FALSE(
      decode_opening(std::string("\x00\x01\x05"
                                 "ab",
                                 5)));  // code longer than the value
}

TEST(OpeningsStore, WritesAndReads) {
  testing::TempDir dir;
  auto db = Database::open(dir / "db", {OpenMode::ReadWrite});
  ASSERT_TRUE(db) << db.error().message;
  Database& d = **db;
  auto none = d.opening(1);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  ASSERT_TRUE(d.put_named_positions("tiny.eco (1 lines)",
                                    {{Variant::Standard, 42, {"D00", "Queen's Pawn Game", 2}}}));
  ASSERT_TRUE(d.put_openings(
      {{1, StoredOpening{"D00", "Queen's Pawn Game", 2}}, {3, StoredOpening{"A10", "English", 1}}}));
  auto named = d.named_position(Variant::Standard, 42);
  ASSERT_TRUE(named && *named);
  EXPECT_EQ((*named)->eco, "D00");
  EXPECT_FALSE(*d.named_position(Variant::Virrey, 42));
  EXPECT_EQ(**d.opening_source(), "tiny.eco (1 lines)");
  // A new book replaces the old named positions; nullopt clears a game's opening.
  ASSERT_TRUE(d.put_named_positions("other (1 lines)", {{Variant::Standard, 7, {"A00", "x", 0}}}));
  EXPECT_FALSE(*d.named_position(Variant::Standard, 42));
  ASSERT_TRUE(d.put_openings({{1, std::nullopt}}));
  std::vector<GameId> ids;
  ASSERT_TRUE(d.for_each_opening([&](GameId id, const StoredOpening& o) {
    ids.push_back(id);
    EXPECT_EQ(o.eco, "A10");
    return true;
  }));
  EXPECT_EQ(ids, std::vector<GameId>{3});
  // The database holds no game: db check names the opening of game 3.
  auto report = check_database(d);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_FALSE(report->ok());
  ASSERT_EQ(report->problems.size(), 1u);
  EXPECT_EQ(report->problems[0], "openings: an entry of game 3, which is not stored");
}

}  // namespace
}  // namespace virrey::store
