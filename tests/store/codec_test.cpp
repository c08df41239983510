// Game records, summaries and tree counters: round trips, and golden bytes
// that fail when a stored layout changes by accident.
#include <gtest/gtest.h>

#include <algorithm>

#include "random_games.hpp"
#include "store_test_util.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::store::test {
namespace {

std::string unhex(std::string_view digits) {
  std::string out;
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    out += char(std::stoi(std::string(digits.substr(i, 2)), nullptr, 16));
  return out;
}

TEST(GameCodec, EveryPartRoundTrips) {
  const auto games = check_pgn(kSampleGames);
  ASSERT_EQ(games.size(), 5u);
  for (const auto& g : games) {
    ASSERT_FALSE(g.has_error);
    auto bytes = encode_game(g.record);
    ASSERT_TRUE(bytes) << bytes.error().message;
    auto back = decode_game(*bytes);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(game::write_pgn(*back), game::write_pgn(g.record));
    EXPECT_EQ(back->main_line, g.record.main_line);
    EXPECT_EQ(back->variant, g.record.variant);
    EXPECT_EQ(back->start_fen, g.record.start_fen);
    EXPECT_EQ(back->start_side, g.record.start_side);
    EXPECT_EQ(back->start_fullmove, g.record.start_fullmove);
    ASSERT_EQ(back->movetext.size(), g.record.movetext.size());
    for (std::size_t i = 0; i < back->movetext.size(); ++i) {
      EXPECT_EQ(int(back->movetext[i].kind), int(g.record.movetext[i].kind));
      EXPECT_EQ(back->movetext[i].ply, g.record.movetext[i].ply) << i;
      EXPECT_EQ(back->movetext[i].text, g.record.movetext[i].text) << i;
    }
  }
}

// Null moves in variations (an annotator's threat, "--" or "Z0") are kept,
// with the moves after them, and written back as "--".
TEST(GameCodec, NullMovesInVariationsRoundTrip) {
  const auto games = check_pgn(
      "[Event \"n\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 (2. Nc3 {before null} Nf6 3. -- $1 {after null} d5 "
      "4. d4) (2. Bc4 Z0 3. Qh5) Nc6 *\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_FALSE(games[0].has_error);
  for (const auto& f : games[0].findings) EXPECT_NE(f.code, validate::Code::NullMove) << f.message;
  const std::string pgn = game::write_pgn(games[0].record);
  std::string one_line = pgn;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  EXPECT_NE(one_line.find("(2. Nc3 {before null} 2... Nf6 3. -- $1 {after null} 3... d5 4. d4) (2. Bc4 -- 3. "
                          "Qh5) 2... Nc6 *"),
            std::string::npos)
      << pgn;
  auto bytes = encode_game(games[0].record);
  ASSERT_TRUE(bytes) << bytes.error().message;
  auto back = decode_game(*bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(game::write_pgn(*back), pgn);
  // The written game reads back as itself.
  const auto again = check_pgn(pgn);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(game::write_pgn(again[0].record), pgn);
}

TEST(GameCodec, PartialDecodingLeavesTheRestEmpty) {
  const auto rec =
      record_of(std::string(kSampleGames).substr(0, std::string(kSampleGames).find("[Event", 10)));
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  auto tags_only = decode_game(*bytes, kDecodeTags);
  ASSERT_TRUE(tags_only);
  EXPECT_EQ(tags_only->tags.size(), rec.tags.size());
  EXPECT_TRUE(tags_only->main_line.empty());
  EXPECT_TRUE(tags_only->movetext.empty());
  auto moves = decode_game(*bytes, kDecodeMainLine);
  ASSERT_TRUE(moves);
  EXPECT_TRUE(moves->tags.empty());
  EXPECT_EQ(moves->main_line, rec.main_line);
  EXPECT_TRUE(moves->movetext.empty());
}

TEST(GameCodec, MainLineStopsAtThePliesAsked) {
  for (const auto& g : check_pgn(kSampleGames)) {
    auto bytes = encode_game(g.record);
    ASSERT_TRUE(bytes);
    const auto& line = g.record.main_line;
    ASSERT_GE(line.size(), 2u);
    for (std::uint32_t plies : {0u, 1u, 2u, std::uint32_t(line.size()), std::uint32_t(line.size() + 5)}) {
      auto head = decode_game(*bytes, kDecodeMainLine, plies);
      ASSERT_TRUE(head) << head.error().message;
      const std::size_t n = std::min<std::size_t>(plies, line.size());
      EXPECT_EQ(head->main_line, std::vector<Move>(line.begin(), line.begin() + std::ptrdiff_t(n)));
    }
    // The movetext needs every move: the limit does not apply to it.
    auto all = decode_game(*bytes, kDecodeAll, 1);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->main_line, line);
    EXPECT_EQ(game::write_pgn(*all), game::write_pgn(g.record));
  }
}

TEST(GameCodec, MainLineStopsWhereTooFewMenAreLeft) {
  const auto rec = unknown_roster_record("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 *\n");
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  const auto& line = rec.main_line;
  ASSERT_EQ(line.size(), 7u);
  // 32 men until 2. exd5 (ply 3), 31 until 2... Qxd5 (ply 4), then 30.
  for (auto [min_men, plies] :
       std::vector<std::pair<int, std::size_t>>{{0, 7}, {30, 7}, {31, 4}, {32, 3}, {33, 0}}) {
    auto head = decode_game(*bytes, kDecodeMainLine, kWholeMainLine, min_men);
    ASSERT_TRUE(head) << head.error().message;
    EXPECT_EQ(head->main_line, std::vector<Move>(line.begin(), line.begin() + std::ptrdiff_t(plies)))
        << min_men;
  }
  // The movetext needs every move: the limit does not apply to it.
  auto all = decode_game(*bytes, kDecodeAll, kWholeMainLine, 32);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->main_line, line);
}

TEST(GameCodec, AboutOneBytePerMove) {
  const auto rec = unknown_roster_record(
      "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 *\n");
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  // 4 header bytes, 1 FEN length, 1 tag count, 7 tags of 1 + 2..11 bytes, 1 ply count, 16 moves.
  EXPECT_LE(bytes->size(), 4u + 1 + 1 + 7 * 4 + 20 + 1 + 16);
}

// Golden bytes: a change here changes the on-disk format (bump kSchemaVersion).
TEST(GameCodec, GoldenBytes) {
  const auto rec = record_of(R"([Event "E"]
[Site "S"]
[Date "2024.01.02"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "1-0"]
[Opening "X"]
[Foo "bar"]

1. e4 $1 {c} e5 (1... c5) 2. Nf3 1-0
)");
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(hex(*bytes),
            "02000001"  // format, standard, 1-0, annotated
            "00"        // start FEN: none
            "09"        // 9 tags
            "010145"
            "020153"
            "030a323032342e30312e3032"
            "040131"
            "050157"
            "060142"
            "0703312d30"
            "150158"
            "0003466f6f03626172"
            "03"  // 3 plies
            "0d"
            "08"
            "0d"  // e4 e5 Nf3 as move numbers
            "01"
            "4001"
            "410163"  // run of 1 (e4), $1, {c}
            "01"
            "42"
            "0104"
            "43");  // e5, ( c5 ), the rest implicit
}

// Records of format 1 (legal-move indices), written by earlier virrey
// versions, still decode. In check the two numberings differ: 2...c6 is
// legal move 0 but move number 6 (before it d4 dxe4, a6 a5, b6, then c5:
// the pieces by square, each piece's destinations by square).
TEST(GameCodec, FormatOneRecordsStillDecode) {
  const auto rec = record_of(R"([Event "E"]
[Site "S"]
[Date "2024.01.02"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "*"]

1. e4 d5 2. Bb5+ c6 3. Bxc6+ Nxc6 (3... bxc6 4. Qf3) 4. exd5 *
)");
  const std::string format_one =
      "01000301"
      "00"
      "07"
      "010145"
      "020153"
      "030a323032342e30312e3032"
      "040131"
      "050157"
      "060142"
      "07012a"
      "07"
      "0d060a00210119"
      "06"
      "42"
      "020003"
      "43";
  std::string bytes;
  for (std::size_t i = 0; i < format_one.size(); i += 2)
    bytes += char(std::stoi(format_one.substr(i, 2), nullptr, 16));
  auto back = decode_game(bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->main_line, rec.main_line);
  EXPECT_EQ(game::write_pgn(*back), game::write_pgn(rec));
  auto now = encode_game(rec);
  ASSERT_TRUE(now);
  EXPECT_EQ(hex(*now),
            "02000301"
            "00"
            "07"
            "010145"
            "020153"
            "030a323032342e30312e3032"
            "040131"
            "050157"
            "060142"
            "07012a"
            "07"
            "0d060a06211019"
            "06"
            "42"
            "020603"
            "43");
}

// A record checked without the movetext of plain games (as import checks
// them) stores and exports the same game as one checked with it.
TEST(GameCodec, PlainGamesNeedNoMovetext) {
  int plain = 0;
  for (const auto& g : check_pgn(kSampleGames)) {
    game::GameRecord lean = g.record;
    if (std::any_of(lean.movetext.begin(), lean.movetext.end(),
                    [](const game::MovetextItem& i) { return i.kind != game::ItemKind::Move; }))
      continue;
    lean.movetext.clear();
    ++plain;
    auto a = encode_game(g.record);
    auto b = encode_game(lean);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
    auto back = decode_game(*b);
    ASSERT_TRUE(back);
    EXPECT_EQ(game::write_pgn(*back), game::write_pgn(g.record));
  }
  EXPECT_GE(plain, 3);
}

// A position with more than 256 move numbers stores its move in two bytes.
TEST(GameCodec, WideMoveNumbersRoundTrip) {
  const auto rec = record_of(R"([Event "E"]
[Site "S"]
[Date "?"]
[Round "?"]
[White "W"]
[Black "B"]
[Result "*"]
[Variant "Modern"]
[SetUp "1"]
[FEN "kr6Q/rrQQ5/1Q7/6QM1/1MM1M2M1/7Q1/1Q7/2Q5Q/Q1Q1KQ3 w - - 0 1"]

1. Q9i8 Ra7 *
)");
  ASSERT_EQ(rec.main_line.size(), 2u);
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  // The queen on i9, the last square, moves last: its number is past 255.
  const std::string moves = bytes->substr(bytes->size() - 4);
  EXPECT_EQ(std::uint8_t(moves[0]), 2u);  // plies
  EXPECT_EQ(std::uint8_t(moves[1]), 1u);  // high byte of a number from 256 to 511
  auto back = decode_game(*bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->main_line, rec.main_line);
  EXPECT_EQ(game::write_pgn(*back), game::write_pgn(rec));
}

TEST(GameCodec, CorruptBytesAreAnErrorNotACrash) {
  const auto rec =
      record_of(std::string(kSampleGames).substr(0, std::string(kSampleGames).find("[Event", 10)));
  auto bytes = encode_game(rec);
  ASSERT_TRUE(bytes);
  for (std::size_t cut = 0; cut < bytes->size(); ++cut) {
    auto r = decode_game(std::string_view(*bytes).substr(0, cut));
    if (!r) {
      EXPECT_EQ(r.error().kind, ErrorKind::Corrupt);
    }
  }
  std::string flipped = *bytes;
  for (std::size_t i = 0; i < flipped.size(); ++i) {
    flipped[i] = char(flipped[i] ^ 0xff);
    (void)decode_game(flipped);
    flipped[i] = (*bytes)[i];
  }
}

TEST(GameSummary, GoldenBytesAndRoundTrip) {
  GameSummary s;
  s.variant = Variant::Virrey;
  s.result = GameResult::Draw;
  s.ending = Ending::Stalemate;
  s.plies = 300;
  s.date = 20240531;
  s.white_elo = 2850;
  s.black_elo = 1200;
  s.promotions = 3;
  s.final_men = 17;
  s.time_class = game::TimeClass::Rapid;
  const std::string b = encode_summary(s);
  EXPECT_EQ(hex(b),
            "0201020201"
            "2c"
            "0134d893"
            "0b22"
            "04b0"
            "03"
            "11"
            "00"    // no mate
            "04");  // rapid
  EXPECT_EQ(decode_summary(b), s);
  EXPECT_FALSE(decode_summary(b.substr(1)));
  // A mate by a viceroy and a rook (a double check): bits 6 and 3.
  GameSummary mate = s;
  mate.ending = Ending::Checkmate;
  mate.mate_by = std::uint8_t(game::piece_type_bit(PieceType::Viceroy) | game::piece_type_bit(PieceType::Rook));
  EXPECT_EQ(hex(encode_summary(mate)).substr(32), "4804");
  EXPECT_EQ(decode_summary(encode_summary(mate)), mate);

  // Format 1, as older versions wrote it: the first 16 bytes, without the
  // mate and the time class.
  const std::string v1 = unhex("01010202012c0134d8930b2204b00311");
  auto old_summary = decode_summary(v1);
  ASSERT_TRUE(old_summary);
  EXPECT_FALSE(old_summary->features);
  EXPECT_EQ(old_summary->mate_by, 0);
  EXPECT_EQ(old_summary->time_class, game::TimeClass::Unknown);
  EXPECT_EQ(old_summary->plies, 300);
  EXPECT_EQ(old_summary->final_men, 17);
  EXPECT_FALSE(decode_summary(v1 + "00"));  // neither format's length
  // Summaries written before the final men were recorded end in a zero byte:
  // they read as "not recorded".
  std::string older = v1;
  older.back() = '\0';
  ASSERT_TRUE(decode_summary(older));
  EXPECT_EQ(decode_summary(older)->final_men, 0);
}

TEST(GameSummary, DatesAndElo) {
  EXPECT_EQ(parse_date("2024.05.31"), 20240531u);
  EXPECT_EQ(parse_date("2024.05.??"), 20240500u);
  EXPECT_EQ(parse_date("2024.??.??"), 20240000u);
  EXPECT_EQ(parse_date("????.??.??"), 0u);
  EXPECT_EQ(parse_date("2024-05-31"), 0u);
  EXPECT_EQ(parse_elo("2850"), 2850);
  EXPECT_EQ(parse_elo(""), 0);
  EXPECT_EQ(parse_elo("-"), 0);
  EXPECT_EQ(parse_elo("99999"), 0);
}

TEST(TreeCounters, GoldenBytesAndSums) {
  // Several games: layout 2, nine varints, 2024.01.01 packed as
  // (2024 * 13 + 1) * 32 + 1 = 842017.
  TreeCounters a{3, 1, 1, 1, 4000, 2, 300, 1, 20240101};
  EXPECT_EQ(hex(encode_tree_counters(a)),
            "02030101"
            "01a01f02ac0201"
            "a1b233");
  EXPECT_EQ(decode_tree_counters(encode_tree_counters(a)), a);
  // The layout of schema 2, the date as yyyymmdd, still reads.
  EXPECT_EQ(decode_tree_counters(unhex("01030101"
                                       "01a01f02ac0201"
                                       "e5add309")),
            a);
  TreeCounters b{1, 0, 0, 1, 0, 0, 2000, 1, 20230101};
  a.add(b);
  EXPECT_EQ(a, (TreeCounters{4, 1, 1, 2, 4000, 2, 2300, 2, 20240101}));
  EXPECT_FALSE(decode_tree_counters("\x06"));
  EXPECT_FALSE(decode_tree_counters(std::string_view("\x00", 1)));
}

TEST(TreeCounters, OneGameLayouts) {
  // A White win, White rated 2500 (2501 = c513), Black unrated, 2023.05.17
  // packed as (2023 * 13 + 5) * 32 + 17 = 841745.
  const TreeCounters white{1, 1, 0, 0, 2500, 1, 0, 0, 20230517};
  EXPECT_EQ(hex(encode_tree_counters(white)),
            "03"
            "c513"
            "00"
            "91b033");
  // A draw, both rated, Black at 0; a Black win without ratings or date.
  const TreeCounters draw{1, 0, 1, 0, 1800, 1, 0, 1, 19990000};
  EXPECT_EQ(hex(encode_tree_counters(draw)).substr(0, 2), "04");
  const TreeCounters black{1, 0, 0, 1, 0, 0, 0, 0, 0};
  EXPECT_EQ(hex(encode_tree_counters(black)),
            "05"
            "00"
            "00"
            "00");
  // Not one finished game, or a date that does not pack: nine fields.
  const TreeCounters unfinished{1, 0, 0, 0, 2100, 1, 2000, 1, 20200202};
  EXPECT_EQ(hex(encode_tree_counters(unfinished)).substr(0, 2), "02");
  const TreeCounters odd_date{1, 1, 0, 0, 0, 0, 0, 0, 20201345};
  EXPECT_EQ(hex(encode_tree_counters(odd_date)).substr(0, 2), "01");
  const TreeCounters two_ratings{1, 1, 0, 0, 4000, 2, 0, 0, 20200202};  // not one game's
  EXPECT_EQ(hex(encode_tree_counters(two_ratings)).substr(0, 2), "02");
  for (const TreeCounters& c : {white, draw, black, unfinished, odd_date, two_ratings})
    EXPECT_EQ(decode_tree_counters(encode_tree_counters(c)), c);
  // Truncated or overlong one-game values.
  EXPECT_FALSE(decode_tree_counters(unhex("03c513")));
  EXPECT_FALSE(decode_tree_counters(unhex("03c5130091b03300")));
}

}  // namespace
}  // namespace virrey::store::test

namespace virrey::store::test {
namespace {

// Every variant, 9x9 Modern included: records, indexes and the PGN back.
TEST(GameCodec, RandomGamesOfEveryVariantRoundTrip) {
  int per_variant[kVariantCount] = {};
  for (const auto& g : check_pgn(random_games(120, 5, 1, true))) {
    ASSERT_FALSE(g.has_error) << (g.findings.empty() ? "" : g.findings[0].message);
    ++per_variant[int(g.record.variant)];
    auto bytes = encode_game(g.record);
    ASSERT_TRUE(bytes) << bytes.error().message;
    // The main line's numbers from a replay's trace give the same record.
    game::MainLineTrace trace;
    ASSERT_TRUE(trace_main_line(g.record, trace, true));
    auto again = encode_game(g.record, &trace.move_numbers);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *bytes);
    auto back = decode_game(*bytes);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(game::write_pgn(*back), game::write_pgn(g.record));
    // Moves cost about a byte each.
    EXPECT_LE(bytes->size(), 120 + g.record.main_line.size() * 2);
  }
  for (int v = 0; v < kVariantCount; ++v) EXPECT_GT(per_variant[v], 10) << v;
}

}  // namespace
}  // namespace virrey::store::test
