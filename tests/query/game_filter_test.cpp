// GameFilter against an independent scan: every query's answer from the
// indexes (under several plans) equals the answer of replaying every game of
// the collection and comparing FEN text.
#include "virrey/query/game_filter.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <regex>
#include <set>

#include "collection.hpp"
#include "handmade_pgn.hpp"
#include "store_hooks.hpp"
#include "virrey/query/search.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::testing {
namespace {

using query::GameFilter;
using query::GameMatch;
using query::PositionTarget;

// --- the independent answers --------------------------------------------------

using Hit = std::pair<store::GameId, std::optional<std::uint32_t>>;

std::string norm(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += char(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  return out;
}

bool unknown(std::string_view tag, std::string_view v) {
  if (v.empty() || v == "?" || v == "-") return true;
  return tag == "Date" && v.find_first_not_of("?.") == std::string_view::npos;
}

bool tag_is(const game::GameRecord& r, std::string_view tag, const std::optional<std::string>& want) {
  if (!want) return true;
  const std::string v = norm(r.tag(tag));
  return !unknown(tag, v) && v == norm(*want);
}

bool tags_pass(const game::GameRecord& r, const query::TagConditions& t) {
  if (!tag_is(r, "White", t.white) || !tag_is(r, "Black", t.black) || !tag_is(r, "Event", t.event) ||
      !tag_is(r, "Site", t.site) || !tag_is(r, "Round", t.round) || !tag_is(r, "ECO", t.eco))
    return false;
  if (t.player) {
    const std::string p = norm(*t.player), w = norm(r.tag("White")), b = norm(r.tag("Black"));
    auto starts = [&](const std::string& v) { return !unknown("White", v) && v.rfind(p, 0) == 0; };
    if (!starts(w) && !starts(b)) return false;
  }
  if (t.result && r.result != *t.result) return false;
  if (t.variant && r.variant != *t.variant) return false;
  if (t.date_from || t.date_to) {
    const std::string d = norm(r.tag("Date"));
    // Only dates written as PGN writes them are in a range, when all the
    // days they may stand for are: compared as the first and last such day.
    static const std::regex kPgnDate(R"(\d{4}(\.(0[1-9]|1[0-2]|\?\?)(\.(0[1-9]|[12]\d|3[01]|\?\?))?)?)");
    if (unknown("Date", d) || !std::regex_match(d, kPgnDate)) return false;
    // A month's last day: "31" stands for it (April's 30, February's 28 or 29).
    auto padded = [](std::string v, const char* month, const char* day) {
      if (v.size() == 4) v += std::string(".") + month;
      if (v.size() == 7) v += std::string(".") + day;
      if (v.substr(5, 2) == "??") v = v.substr(0, 5) + month + "." + day;
      if (v.substr(8, 2) == "??") v = v.substr(0, 8) + day;
      if (v.substr(8, 2) == "31") {
        const int year = std::stoi(v.substr(0, 4)), m = std::stoi(v.substr(5, 2));
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        const int last = m == 2 ? (leap ? 29 : 28) : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
        v = v.substr(0, 8) + std::to_string(last);
      }
      return v;
    };
    if (t.date_from && padded(d, "01", "01") < padded(*t.date_from, "01", "01")) return false;
    if (t.date_to && padded(d, "12", "31") > padded(*t.date_to, "12", "31")) return false;
  }
  return true;
}

// The first ply at any of the targets.
std::optional<std::uint32_t> scan_position(const ScannedGame& g, const std::vector<PositionTarget>& targets) {
  std::optional<std::uint32_t> first;
  for (const PositionTarget& t : targets) {
    if (t.variant != g.record.variant) continue;
    const std::string key = position_key(write_fen(t.setup));
    for (std::size_t ply = 0; ply < g.positions.size() && (!first || ply < *first); ++ply)
      if (g.positions[ply] == key) first = std::uint32_t(ply);
  }
  return first;
}

std::optional<std::uint32_t> scan_promotion(const ScannedGame& g, const query::PromotionCondition& p) {
  std::uint32_t count[2] = {0, 0};
  for (const ScannedPromotion& e : g.promotions) {
    if (p.piece && *p.piece != e.piece) continue;
    if (p.by && *p.by != e.colour) continue;
    if (p.file && *p.file != e.file) continue;
    if (!p.plies.contains(e.ply)) continue;
    if (++count[index(e.colour)] >= p.min_count) return e.ply;
  }
  return std::nullopt;
}

std::vector<Hit> scan(const Collection& c, const GameFilter& f) {
  std::vector<Hit> out;
  for (const ScannedGame& g : c.games) {
    if (!tags_pass(g.record, f.tags)) continue;
    std::optional<std::uint32_t> pos, promo;
    if (!f.positions.empty() && !(pos = scan_position(g, f.positions))) continue;
    if (f.promotion && !(promo = scan_promotion(g, *f.promotion))) continue;
    out.emplace_back(g.id, pos ? pos : promo);
  }
  return out;
}

// The plans a query runs under: the default, everything streamed in tiny
// windows, small probes, and everything read whole.
const std::vector<query::PlanOptions> kPlans = {{}, {0, 1}, {5, 2}, {1u << 30, 96}};

std::vector<Hit> run(const Collection& c, const GameFilter& f, const query::PlanOptions& plan) {
  auto r = query::find_matches(*c.db, f, plan);
  EXPECT_TRUE(r) << r.error().message;
  std::vector<Hit> out;
  if (r)
    for (const GameMatch& m : *r) out.emplace_back(m.id, m.ply);
  return out;
}

std::string describe(const GameFilter& f) {
  std::string s;
  for (const auto& t : f.positions)
    s += fmt::format("[{} {}] ", info(t.variant).cli_name, write_fen(t.setup));
  if (f.promotion) {
    const auto& p = *f.promotion;
    s += fmt::format("promo piece={} by={} file={} min={} plies={}-{} ",
                     p.piece ? piece_letter(*p.piece) : '-', p.by ? int(*p.by) : -1, p.file.value_or(-1),
                     p.min_count, p.plies.from.value_or(0), p.plies.to.value_or(9999));
  }
  const auto& t = f.tags;
  auto add = [&](const char* n, const std::optional<std::string>& v) {
    if (v) s += fmt::format("{}={} ", n, *v);
  };
  add("white", t.white), add("black", t.black), add("player", t.player), add("event", t.event);
  add("site", t.site), add("round", t.round), add("eco", t.eco), add("from", t.date_from),
      add("to", t.date_to);
  if (t.result) s += fmt::format("result={} ", result_text(*t.result));
  if (t.variant) s += fmt::format("variant={} ", info(*t.variant).cli_name);
  return s;
}

void expect_same(const Collection& c, const GameFilter& f) {
  const std::vector<Hit> expected = scan(c, f);
  for (const auto& plan : kPlans) {
    const std::vector<Hit> got = run(c, f, plan);
    ASSERT_EQ(got, expected) << describe(f) << " plan " << plan.probe_cap << "/" << plan.first_window << ": "
                             << query::explain_plan(*c.db, f, plan).value();
  }
}

std::vector<PositionTarget> fen_targets(std::string_view fen, std::optional<Variant> v = std::nullopt) {
  auto r = query::position_from_fen_text(fen, v);
  EXPECT_TRUE(r) << fen << ": " << r.error().message;
  return r ? *r : std::vector<PositionTarget>{};
}

std::vector<PositionTarget> move_targets(std::string_view moves, std::optional<Variant> v = std::nullopt) {
  auto r = query::position_from_moves(moves, v);
  EXPECT_TRUE(r) << moves << ": " << r.error().message;
  return r ? *r : std::vector<PositionTarget>{};
}

// --- the collection ----------------------------------------------------------------

class QueryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::vector<game::GameRecord> all = records_from_pgn(kStandardPgn, Variant::Standard);
    for (auto& r : records_from_pgn(kVirreyPgn, Variant::Virrey)) all.push_back(std::move(r));
    for (auto& r : records_from_pgn(kModernPgn, Variant::Modern)) all.push_back(std::move(r));
    const std::string real = std::string(VIRREY_SOURCE_DIR) + "/../shared/corpora/real/";
    for (const char* name :
         {"shakmaty-bench-lichess_db_1000k.pgn.zst", "shakmaty-bench-twic1599_1000k.pgn.zst"})
      if (std::filesystem::exists(real + name))
        for (auto& r : records_from_file(real + name)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Virrey, 7, 900)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Standard, 11, 200)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Modern, 13, 200)) all.push_back(std::move(r));
    collection_ = make_collection(all).release();
  }
  static void TearDownTestSuite() {
    delete collection_;
    collection_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(collection_, nullptr); }
  const Collection& c() const { return *collection_; }
  const ScannedGame* by_event(std::string_view event) const {
    for (const auto& g : c().games)
      if (g.record.tag("Event") == event) return &g;
    return nullptr;
  }

  static Collection* collection_;
};

Collection* QueryTest::collection_ = nullptr;

TEST_F(QueryTest, CollectionHasBothVariantsAndPromotions) {
  std::size_t virrey = 0, viceroys = 0;
  for (const auto& g : c().games) {
    virrey += g.record.variant == Variant::Virrey;
    for (const auto& p : g.promotions) viceroys += p.piece == PieceType::Viceroy;
  }
  EXPECT_GT(c().games.size(), 1500u);
  EXPECT_GT(virrey, 800u);
  EXPECT_GT(viceroys, 50u);
}

TEST_F(QueryTest, TranspositionsMatchAtTheirOwnPly) {
  const auto targets = move_targets("e4 e5 Nf3 Nc6", Variant::Standard);
  const auto transposed = move_targets("1. Nf3 Nc6 2. e4 e5", Variant::Standard);
  ASSERT_EQ(targets.size(), 1u);
  ASSERT_EQ(transposed.size(), 1u);
  EXPECT_EQ(targets[0].hash, transposed[0].hash);
  GameFilter f;
  f.positions = targets;
  expect_same(c(), f);
  auto hits = run(c(), f, {});
  const auto* a = by_event("Transposition A");
  const auto* b = by_event("Transposition B");
  ASSERT_TRUE(a && b);
  EXPECT_NE(std::find(hits.begin(), hits.end(), Hit{a->id, 4}), hits.end());
  EXPECT_NE(std::find(hits.begin(), hits.end(), Hit{b->id, 4}), hits.end());
}

TEST_F(QueryTest, CastlingRightsTellPositionsApart) {
  const auto* twin = by_event("Castling twin");
  const auto* a = by_event("Transposition A");
  ASSERT_TRUE(twin && a);
  GameFilter with, without;
  with.positions = fen_targets("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  without.positions = fen_targets("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 4");
  ASSERT_EQ(with.positions.size(), 2u);  // Standard and Virrey
  expect_same(c(), with);
  expect_same(c(), without);
  const auto w = run(c(), with, {}), wo = run(c(), without, {});
  EXPECT_NE(std::find(w.begin(), w.end(), Hit{a->id, 2}), w.end());
  EXPECT_NE(std::find(w.begin(), w.end(), Hit{twin->id, 2}), w.end());
  EXPECT_EQ(wo, (std::vector<Hit>{{twin->id, 6}}));
}

TEST_F(QueryTest, EnPassantRightsTellPositionsApart) {
  const auto* ep_a = by_event("En passant A");
  const auto* ep_b = by_event("En passant B");
  ASSERT_TRUE(ep_a && ep_b);
  GameFilter with, without;
  with.positions = fen_targets("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
  without.positions = fen_targets("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  expect_same(c(), with);
  expect_same(c(), without);
  const auto w = run(c(), with, {}), wo = run(c(), without, {});
  EXPECT_NE(std::find(w.begin(), w.end(), Hit{ep_a->id, 4}), w.end());
  EXPECT_EQ(std::find_if(w.begin(), w.end(), [&](const Hit& h) { return h.first == ep_b->id; }), w.end());
  EXPECT_NE(std::find(wo.begin(), wo.end(), Hit{ep_b->id, 6}), wo.end());
  EXPECT_EQ(std::find_if(wo.begin(), wo.end(), [&](const Hit& h) { return h.first == ep_a->id; }), wo.end());
}

TEST_F(QueryTest, AnEnPassantSquareNoPawnCanUseIsNoRight) {
  // After 1.e4 no black pawn can take on e3: the FEN's e3 is dropped, as
  // after the move itself, so both FENs are the same position.
  const auto a =
      fen_targets("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", Variant::Standard);
  const auto b = fen_targets("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", Variant::Standard);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].hash, b[0].hash);
  GameFilter f;
  f.positions = a;
  expect_same(c(), f);
  EXPECT_FALSE(run(c(), f, {}).empty());
}

TEST_F(QueryTest, SampledPositionsOfEveryKindMatchTheScan) {
  std::mt19937_64 rng(20240601);
  int checked = 0;
  for (int i = 0; i < 160; ++i) {
    const ScannedGame& g = c().games[rng() % c().games.size()];
    const std::size_t ply = rng() % g.positions.size();
    // A third of the queries leave the variant open (the FEN's own 4 fields).
    std::optional<Variant> v;
    if (i % 3) v = g.record.variant;
    GameFilter f;
    f.positions = fen_targets(g.positions[ply] + " 0 1", v);
    ASSERT_FALSE(f.positions.empty());
    const auto expected = scan(c(), f);
    ASSERT_FALSE(expected.empty());
    expect_same(c(), f);
    ++checked;
  }
  EXPECT_EQ(checked, 160);
}

TEST_F(QueryTest, OpeningPositionsByMoves) {
  GameFilter start;  // the start position, by FEN (no move is no line)
  start.positions = fen_targets(info(Variant::Standard).start_fen);
  expect_same(c(), start);
  for (std::string_view moves : {"e4", "e4 e5", "d4 d5 c4", "d4 Nf6 c4 e6", "e4 c5 Nf3 d6 d4 cxd4 Nxd4",
                                 "Nf3 d5 g3", "e4 e6 d4 d5", "c4", "e4 e5 Nf3 Nc6 Bb5 a6"}) {
    GameFilter f;
    f.positions = move_targets(moves);
    expect_same(c(), f);
  }
}

TEST_F(QueryTest, PromotionQueriesMatchTheScan) {
  std::vector<std::optional<PieceType>> pieces = {std::nullopt,    PieceType::Viceroy, PieceType::Queen,
                                                  PieceType::Rook, PieceType::Bishop,  PieceType::Knight};
  std::vector<std::optional<Color>> sides = {std::nullopt, Color::White, Color::Black};
  std::vector<std::optional<int>> files = {std::nullopt, 4, 0, 3};
  std::vector<query::PlyRange> ranges = {{}, {40, 90}, {std::nullopt, 60}};
  int nonempty = 0;
  for (auto piece : pieces)
    for (auto side : sides)
      for (auto file : files)
        for (std::uint32_t min : {1u, 2u, 3u})
          for (const auto& plies : ranges) {
            GameFilter f;
            f.promotion = query::PromotionCondition{piece, side, file, min, plies};
            nonempty += !scan(c(), f).empty();
            expect_same(c(), f);
          }
  EXPECT_GT(nonempty, 100);
}

TEST_F(QueryTest, TwoViceroysForOneSide) {
  GameFilter f;
  f.promotion = query::PromotionCondition{PieceType::Viceroy, std::nullopt, std::nullopt, 2, {}};
  expect_same(c(), f);
  const auto* two = by_event("Viceroys");
  ASSERT_TRUE(two);
  const auto hits = run(c(), f, {});
  // The first "Viceroys" game has one viceroy per side: not two for one side.
  EXPECT_EQ(std::find_if(hits.begin(), hits.end(), [&](const Hit& h) { return h.first == two->id; }),
            hits.end());
  bool second = false;
  for (const auto& g : c().games)
    if (g.record.tag("Event") == "Viceroys" && g.id != two->id)
      second = std::find(hits.begin(), hits.end(), Hit{g.id, 7}) != hits.end();
  EXPECT_TRUE(second);
}

TEST_F(QueryTest, TagQueriesMatchTheScan) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 60; ++i) {
    const auto& r = c().games[rng() % c().games.size()].record;
    GameFilter f;
    auto& t = f.tags;
    switch (i % 9) {
      case 0: t.white = std::string(r.tag("White")); break;
      case 1: t.black = std::string(r.tag("Black")); break;
      case 2: t.player = std::string(r.tag("White").substr(0, 3)); break;
      case 3: t.event = std::string(r.tag("Event")); break;
      case 4: t.site = std::string(r.tag("Site")), t.round = std::string(r.tag("Round")); break;
      case 5: t.eco = std::string(r.tag("ECO")), t.result = r.result; break;
      case 6: t.variant = r.variant, t.result = GameResult::Draw; break;
      case 7: t.date_from = "2015.01", t.date_to = "2020"; break;
      case 8: t.date_to = "2001.05"; break;
    }
    expect_same(c(), f);
  }
  GameFilter ann;
  ann.tags.player = "ALPHA,  a";
  expect_same(c(), ann);
  EXPECT_EQ(run(c(), ann, {}).size(), 3u);
}

TEST_F(QueryTest, CombinedFiltersMatchTheScan) {
  std::mt19937_64 rng(4242);
  int nonempty = 0;
  for (int i = 0; i < 120; ++i) {
    const ScannedGame& g = c().games[rng() % c().games.size()];
    GameFilter f;
    if (rng() % 2) {
      const std::size_t ply = rng() % std::min<std::size_t>(g.positions.size(), 12);
      f.positions =
          fen_targets(g.positions[ply] + " 0 1", rng() % 2 ? std::optional(g.record.variant) : std::nullopt);
    }
    if (rng() % 2 && !g.promotions.empty()) {
      const auto& p = g.promotions[rng() % g.promotions.size()];
      f.promotion = query::PromotionCondition{p.piece,
                                              rng() % 2 ? std::optional(p.colour) : std::nullopt,
                                              std::nullopt,
                                              std::uint32_t(1 + rng() % 2),
                                              {}};
    }
    switch (rng() % 5) {
      case 0: f.tags.white = std::string(g.record.tag("White")); break;
      case 1: f.tags.result = g.record.result; break;
      case 2: f.tags.player = std::string(g.record.tag("Black").substr(0, 2)); break;
      case 3: f.tags.variant = g.record.variant; break;
      default: break;
    }
    nonempty += !scan(c(), f).empty();
    expect_same(c(), f);
  }
  EXPECT_GT(nonempty, 60);
}

TEST_F(QueryTest, AHashCollisionIsNoHit) {
  // A target with the hash of a common position but another board: the index
  // hands out every game of that hash, and replay must refuse them all.
  auto targets = move_targets("e4", Variant::Standard);
  ASSERT_EQ(targets.size(), 1u);
  std::size_t candidates = 0;
  Status s = c().db->for_each_position(Variant::Standard, targets[0].hash, [&](const store::PositionHit&) {
    ++candidates;
    return true;
  });
  ASSERT_TRUE(s);
  ASSERT_GT(candidates, 10u);
  PositionTarget forged = targets[0];
  forged.setup.castling = kWhiteKingside;  // same hash, another position
  GameFilter f;
  f.positions = {forged};
  for (const auto& plan : kPlans) EXPECT_TRUE(run(c(), f, plan).empty());
  forged = targets[0];
  std::swap(forged.setup.board[1], forged.setup.board[2]);  // knight and bishop swap: same hash
  f.positions = {forged};
  for (const auto& plan : kPlans) EXPECT_TRUE(run(c(), f, plan).empty());
}

// The index gives the first ply of a hash, and the replay stops there when the
// position is confirmed. A colliding position earlier in the same game moves
// that ply forward: the replay must then go on to the real position, and a
// game that never reaches it must still be refused.
TEST(PositionIndexPly, AnEarlierCollidingPlyDoesNotHideTheRealOne) {
  const std::string tags =
      "[Site \"x\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n"
      "[Black \"b\"]\n[Result \"*\"]\n\n";
  const std::string pgn = "[Event \"Reaches it\"]\n" + tags + "1. e4 e5 2. Nf3 Nc6 *\n\n" +
                          "[Event \"Never\"]\n" + tags + "1. d4 d5 2. c4 *\n";
  auto c = make_collection(records_from_pgn(pgn, Variant::Standard));
  ASSERT_TRUE(c);
  ASSERT_EQ(c->games.size(), 2u);
  const store::GameId reaches = c->games[0].id, never = c->games[1].id;
  GameFilter f;
  f.positions = move_targets("e4 e5 Nf3", Variant::Standard);
  ASSERT_EQ(f.positions.size(), 1u);
  const std::vector<Hit> expected = {{reaches, 3}};
  EXPECT_EQ(run(*c, f, {}), expected);
  c->db.reset();
  ASSERT_TRUE(
      store::testing::put_position_entry(c->db_path(), Variant::Standard, f.positions[0].hash, reaches));
  ASSERT_TRUE(
      store::testing::put_position_entry(c->db_path(), Variant::Standard, f.positions[0].hash, never));
  auto db = store::Database::open(c->db_path(), {store::OpenMode::Read});
  ASSERT_TRUE(db);
  c->db = std::move(*db);
  std::vector<store::PositionHit> hits;
  ASSERT_TRUE(
      c->db->for_each_position(Variant::Standard, f.positions[0].hash, [&](const store::PositionHit& h) {
        hits.push_back(h);
        return true;
      }));
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].game, reaches);  // once, though added twice
  EXPECT_EQ(hits[1].game, never);
  for (const auto& plan : kPlans) EXPECT_EQ(run(*c, f, plan), expected);
}

// An en-passant right that no legal capture can use (the capturing pawn is
// pinned) is no right to FIDE (art. 9.2.3) nor to pgn-extract, which writes
// `-`: the FEN with the square and the FEN without it find the same games.
// A right that a legal capture uses still tells the positions apart.
TEST(PositionSearch, AnEnPassantRightAPinnedPawnCannotUseIsNoRight) {
  const std::string tags = "[Site \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n[SetUp \"1\"]\n";
  const std::string pgn =
      // The double step beside a pinned pawn (bxc6 would leave the king to the rook).
      "[Event \"Pinned\"]\n" + tags + "[FEN \"4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1\"]\n\n1... c5 2. Ka4 *\n\n" +
      // The same board reached by a single step: no right at all.
      "[Event \"Single step\"]\n" + tags +
      "[FEN \"4k3/8/2p5/KP5r/8/8/8/8 b - - 0 1\"]\n\n1... c5 2. Ka4 *\n\n" +
      // A double step the pawn beside can take.
      "[Event \"Free\"]\n" + tags + "[FEN \"4k3/2p5/8/1P6/8/8/8/K7 b - - 0 1\"]\n\n1... c5 2. Ka2 *\n\n";
  auto c = make_collection(records_from_pgn(pgn, Variant::Standard));
  ASSERT_TRUE(c);
  ASSERT_EQ(c->games.size(), 3u);
  const store::GameId pinned = c->games[0].id, single = c->games[1].id, free = c->games[2].id;
  for (const char* fen : {"4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2", "4k3/8/8/KPp4r/8/8/8/8 w - - 0 2"}) {
    GameFilter f;
    f.positions = fen_targets(fen, Variant::Standard);
    for (const auto& plan : kPlans)
      EXPECT_EQ(run(*c, f, plan), (std::vector<Hit>{{pinned, 1}, {single, 1}})) << fen;
  }
  GameFilter with, without;
  with.positions = fen_targets("4k3/8/8/1Pp5/8/8/8/K7 w - c6 0 2", Variant::Standard);
  without.positions = fen_targets("4k3/8/8/1Pp5/8/8/8/K7 w - - 0 2", Variant::Standard);
  EXPECT_EQ(run(*c, with, {}), (std::vector<Hit>{{free, 1}}));
  EXPECT_EQ(run(*c, without, {}), std::vector<Hit>{});
}

// Search reads a candidate's summary before its record when the position
// sought has few men: a game that ends with more men never passed through it.
TEST(PositionSearch, GamesEndingWithMoreMenAreRuledOutByTheirSummaries) {
  const std::string tags =
      "[Site \"x\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n"
      "[Black \"b\"]\n[Result \"*\"]\n";
  const std::string pgn =
      "[Event \"Opening\"]\n" + tags + "\n1. e4 e5 2. Nf3 Nc6 *\n\n" + "[Event \"Rook ending\"]\n" + tags +
      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra7 Kd8 2. Kd2 *\n\n" +
      "[Event \"Rooks traded\"]\n" + tags +
      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/r7/R3K3 w - - 0 1\"]\n\n1. Kd1 Kd7 2. Rxa2 *\n";
  auto c = make_collection(records_from_pgn(pgn, Variant::Standard));
  ASSERT_TRUE(c);
  ASSERT_EQ(c->games.size(), 3u);
  const store::GameId opening = c->games[0].id, ending = c->games[1].id, traded = c->games[2].id;
  auto counted = [&](const GameFilter& f, query::MatchCounts& counts) {
    std::vector<store::GameId> ids;
    query::PlanOptions po;
    po.counts = &counts;
    EXPECT_TRUE(query::for_each_match(
        *c->db, f,
        [&](const GameMatch& m) {
          ids.push_back(m.id);
          return true;
        },
        po));
    return ids;
  };

  // The ending's own three-man position: its game ends with three men, so its
  // summary lets it through, and replay confirms it.
  GameFilter real;
  real.positions = fen_targets("3k4/R7/8/8/8/8/8/4K3 w - - 2 2", Variant::Standard);
  ASSERT_EQ(real.positions.size(), 1u);
  query::MatchCounts counts;
  EXPECT_EQ(counted(real, counts), std::vector<store::GameId>{ending});
  EXPECT_EQ(counts.checked, 1u);
  EXPECT_EQ(counts.matched, 1u);
  EXPECT_EQ(counts.ruled_out, 0u);

  // A three-man board under the hash of an opening position: the index hands
  // out the opening game, whose 32 men rule it out before its record is read.
  GameFilter forged;
  forged.positions = move_targets("e4 e5 Nf3", Variant::Standard);
  ASSERT_EQ(forged.positions.size(), 1u);
  forged.positions[0].setup = real.positions[0].setup;
  counts = {};
  EXPECT_TRUE(counted(forged, counts).empty());
  EXPECT_EQ(counts.checked, 1u);
  EXPECT_EQ(counts.matched, 0u);
  EXPECT_EQ(counts.ruled_out, 1u);

  // A four-man position of a game that goes on to capture a rook: it ends
  // with fewer men than the position has, and is found.
  GameFilter before_trade;
  before_trade.positions = fen_targets("8/3k4/8/8/8/8/r7/R2K4 w - - 2 2", Variant::Standard);
  counts = {};
  EXPECT_EQ(counted(before_trade, counts), std::vector<store::GameId>{traded});
  EXPECT_EQ(counts.ruled_out, 0u);

  // Summaries written before the men at the end were recorded (0 there)
  // rule nothing out. (The opening game's gets a forged count, below.)
  c->db.reset();
  for (store::GameId id : {ending, traded, opening}) {
    store::GameSummary s;
    {
      auto db = store::Database::open(c->db_path(), {store::OpenMode::Read});
      ASSERT_TRUE(db);
      auto read = (*db)->summary(id);
      ASSERT_TRUE(read);
      s = *read;
    }
    s.final_men = id == opening ? 40 : 0;
    ASSERT_TRUE(store::testing::put_raw_entry(c->db_path(), store::Family::Summaries,
                                              std::string(store::view(store::game_key(id))),
                                              store::encode_summary(s)));
  }
  auto reopened = store::Database::open(c->db_path(), {store::OpenMode::Read});
  ASSERT_TRUE(reopened);
  c->db = std::move(*reopened);
  counts = {};
  EXPECT_EQ(counted(before_trade, counts), std::vector<store::GameId>{traded});
  counts = {};
  EXPECT_EQ(counted(real, counts), std::vector<store::GameId>{ending});

  // An opening position is never looked up in the summaries: the opening
  // game's forged summary (40 men at the end) would rule it out.
  GameFilter early;
  early.positions = move_targets("e4 e5 Nf3", Variant::Standard);
  EXPECT_EQ(query::explain_plan(*c->db, early).value().find("summary"), std::string::npos);
  EXPECT_NE(query::explain_plan(*c->db, real).value().find("summary"), std::string::npos);
  counts = {};
  EXPECT_EQ(counted(early, counts), std::vector<store::GameId>{opening});
  EXPECT_EQ(counts.ruled_out, 0u);
}

TEST_F(QueryTest, VariantTagRestrictsPositions) {
  GameFilter f;
  f.positions = move_targets("e4 e5");
  ASSERT_EQ(f.positions.size(), 2u);
  f.tags.variant = Variant::Virrey;
  expect_same(c(), f);
  // The position index is keyed by variant: the variant's tag index, which
  // would narrow nothing, is not read beside it.
  const std::string plan = query::explain_plan(*c().db, f).value();
  EXPECT_EQ(plan.find("variant:"), std::string::npos) << plan;
  EXPECT_NE(plan.find("stream the position index"), std::string::npos) << plan;
  const auto hits = run(c(), f, {});
  EXPECT_FALSE(hits.empty());
  for (const auto& [id, ply] : hits)
    for (const auto& g : c().games)
      if (g.id == id) {
        EXPECT_EQ(g.record.variant, Variant::Virrey);
      }
}

TEST_F(QueryTest, EmptyFilterIsEveryGame) {
  GameFilter f;
  EXPECT_TRUE(f.empty());
  const auto hits = run(c(), f, {});
  EXPECT_EQ(hits.size(), c().games.size());
}

TEST_F(QueryTest, SearchPagesCountsAndSorts) {
  GameFilter f;
  f.positions = move_targets("e4");
  auto all = query::find_matches(*c().db, f);
  ASSERT_TRUE(all);
  ASSERT_GT(all->size(), 50u);

  query::SearchOptions so;
  so.count_only = true;
  auto count = query::search(*c().db, f, so);
  ASSERT_TRUE(count);
  EXPECT_EQ(count->total, all->size());

  std::vector<store::GameId> paged;
  for (std::size_t offset = 0;; offset += 17) {
    query::SearchOptions page;
    page.limit = 17;
    page.offset = offset;
    auto r = query::search(*c().db, f, page);
    ASSERT_TRUE(r);
    for (const auto& m : r->games) paged.push_back(m.id);
    if (!r->more) {
      EXPECT_EQ(r->total, all->size());
      break;
    }
    EXPECT_EQ(r->games.size(), 17u);
  }
  ASSERT_EQ(paged.size(), all->size());
  for (std::size_t i = 0; i < paged.size(); ++i) EXPECT_EQ(paged[i], (*all)[i].id);

  query::SearchOptions by_date;
  by_date.sort = query::SortOrder::Date;
  by_date.limit = 0;
  auto dated = query::search(*c().db, f, by_date);
  ASSERT_TRUE(dated);
  ASSERT_EQ(dated->games.size(), all->size());
  std::uint64_t last = 0;
  std::set<store::GameId> ids;
  for (const auto& m : dated->games) {
    auto s = c().db->summary(m.id);
    ASSERT_TRUE(s);
    const std::uint64_t key = s->date == 0 ? 0xffffffffu : s->date;
    EXPECT_LE(last, key);
    last = key;
    ids.insert(m.id);
  }
  EXPECT_EQ(ids.size(), all->size());
}

TEST_F(QueryTest, NothingFoundIsAnEmptyResult) {
  GameFilter f;
  f.tags.white = "Nobody, Really";
  query::SearchOptions so;
  auto r = query::search(*c().db, f, so);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->games.empty());
  EXPECT_EQ(r->total, 0u);
}

TEST_F(QueryTest, PositionAtShowsTheViceroy) {
  const auto* g = by_event("Viceroys");
  ASSERT_TRUE(g);
  auto rec = c().db->game(g->id, store::kDecodeTags | store::kDecodeMainLine);
  ASSERT_TRUE(rec);
  auto view = query::position_at(*rec, 1);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->last_move, "1.e8=V");
  EXPECT_EQ(view->position.board[std::size_t(7 * 8 + 4)], (Piece{Color::White, PieceType::Viceroy}));
  EXPECT_FALSE(query::position_at(*rec, 99));
}

// --- Modern chess ------------------------------------------------------------------

std::vector<Hit> hits_of(const Collection& c, const GameFilter& f) {
  expect_same(c, f);
  return run(c, f, {});
}

bool has_hit(const std::vector<Hit>& hits, const ScannedGame* g, std::uint32_t ply) {
  return g && std::find(hits.begin(), hits.end(), Hit{g->id, ply}) != hits.end();
}

TEST_F(QueryTest, CollectionHasModernGames) {
  std::size_t modern = 0, ministers = 0, swaps = 0;
  for (const auto& g : c().games) {
    if (g.record.variant != Variant::Modern) continue;
    ++modern;
    swaps += g.record.bishop_swap();
    for (const auto& p : g.promotions) ministers += p.piece == PieceType::Minister;
  }
  EXPECT_GT(modern, 200u);
  EXPECT_GT(ministers, 10u);
  EXPECT_GT(swaps, 50u);
}

TEST_F(QueryTest, ModernTranspositionsMatchAtTheirOwnPly) {
  const auto targets = move_targets("e4 e6 Nc3 Nc7", Variant::Modern);
  const auto transposed = move_targets("1. Nc3 Nc7 2. e4 e6", Variant::Modern);
  ASSERT_EQ(targets.size(), 1u);
  ASSERT_EQ(transposed.size(), 1u);
  EXPECT_EQ(targets[0].hash, transposed[0].hash);
  GameFilter f;
  f.positions = targets;
  const auto hits = hits_of(c(), f);
  EXPECT_TRUE(has_hit(hits, by_event("Modern transposition A"), 4));
  EXPECT_TRUE(has_hit(hits, by_event("Modern transposition B"), 4));
}

TEST_F(QueryTest, ModernAndEightByEightPositionsNeverMix) {
  // "e4" is a position of every variant: each finds games of its own only.
  const auto targets = move_targets("e4");
  ASSERT_EQ(targets.size(), 3u);
  for (const PositionTarget& t : targets) {
    GameFilter f;
    f.positions = {t};
    const auto hits = hits_of(c(), f);
    EXPECT_FALSE(hits.empty()) << info(t.variant).name;
    for (const auto& [id, ply] : hits)
      for (const auto& g : c().games)
        if (g.id == id) {
          EXPECT_EQ(g.record.variant, t.variant);
        }
  }
  // A FEN names the variants of its own board size only.
  const std::string modern_fen = "rnbqkmbnr/ppppppppp/9/9/9/4P4/9/PPPP1PPPP/RNBMKQBNR b KQkq - 0 1";
  const auto nine = fen_targets(modern_fen);
  ASSERT_EQ(nine.size(), 1u);
  EXPECT_EQ(nine[0].variant, Variant::Modern);
  for (const auto& t : fen_targets("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    EXPECT_NE(t.variant, Variant::Modern);
  EXPECT_FALSE(query::position_from_fen_text(modern_fen, Variant::Standard));
  // The index keys hold the variant: a Modern hash looked up as 8x8 names
  // 8x8 games only (whose fingerprints happen to match: never a real hit),
  // and an 8x8 hash looked up as Modern names Modern games only.
  const auto eight = move_targets("e4", Variant::Standard);
  ASSERT_EQ(eight.size(), 1u);
  for (auto [variant, hash] :
       {std::pair{Variant::Standard, nine[0].hash}, std::pair{Variant::Virrey, nine[0].hash},
        std::pair{Variant::Modern, eight[0].hash}}) {
    const Variant v = variant;  // a lambda captures a variable, not a structured binding (clang 14)
    Status st = c().db->for_each_position(v, hash, [&](const store::PositionHit& h) {
      for (const auto& g : c().games) {
        if (g.id == h.game) {
          EXPECT_EQ(g.record.variant, v) << info(v).name;
        }
      }
      return true;
    });
    ASSERT_TRUE(st);
  }
  // Under --variant, a Modern position and an 8x8 one never meet.
  GameFilter cross;
  cross.positions = nine;
  cross.tags.variant = Variant::Standard;
  EXPECT_TRUE(hits_of(c(), cross).empty());
}

TEST_F(QueryTest, ModernCastlingOnBothWings) {
  GameFilter m, q;
  m.positions = move_targets("Nc3 Ng7 d3 h7 Bd2 Bh8 Me3 Me7 O-M-O O-M-O", Variant::Modern);
  q.positions = move_targets("Ni3 Nc7 h3 b7 Bh2 Bb8 e3 e7 Qe2 Qe8 O-Q-O O-Q-O", Variant::Modern);
  ASSERT_EQ(m.positions.size(), 1u);
  ASSERT_EQ(q.positions.size(), 1u);
  // O-M-O: White's king goes to c1 (rook a1-d1), Black's to g9 (rook i9-f9);
  // O-Q-O: White's to g1 (rook i1-f1), Black's to c9 (rook a9-d9).
  EXPECT_EQ(write_fen(m.positions[0].setup),
            "rnbq1rk2/pppppppbp/4m1np1/9/9/9/2NPM4/PPPBPPPPP/2KR1QBNR w - - 0 1");
  EXPECT_EQ(write_fen(q.positions[0].setup),
            "2kr1mbnr/pbppqpppp/1pn1p4/9/9/9/4P2PN/PPPPQPPBP/RNBM1RK2 w - - 0 1");
  EXPECT_TRUE(has_hit(hits_of(c(), m), by_event("Modern castling M"), 10));
  EXPECT_TRUE(has_hit(hits_of(c(), q), by_event("Modern castling Q"), 12));
}

TEST_F(QueryTest, ModernPromotionQueriesMatchTheScan) {
  const std::vector<std::optional<PieceType>> pieces = {std::nullopt, PieceType::Minister, PieceType::Queen,
                                                        PieceType::Knight};
  const std::vector<std::optional<int>> files = {std::nullopt, 8, 0, 4};
  int nonempty = 0;
  for (auto piece : pieces)
    for (std::optional<Color> side :
         {std::optional<Color>{}, std::optional{Color::White}, std::optional{Color::Black}})
      for (auto file : files)
        for (std::uint32_t min : {1u, 2u}) {
          GameFilter f;
          f.tags.variant = Variant::Modern;
          f.promotion = query::PromotionCondition{piece, side, file, min, {}};
          nonempty += !hits_of(c(), f).empty();
        }
  EXPECT_GT(nonempty, 20);
  // The hand-made ministers: White's on the i-file at ply 1, Black's on the a-file at ply 2.
  const auto* g = by_event("Modern ministers");
  GameFilter white_i, black_a;
  white_i.promotion = query::PromotionCondition{PieceType::Minister, Color::White, 8, 1, {}};
  black_a.promotion = query::PromotionCondition{PieceType::Minister, Color::Black, 0, 1, {}};
  EXPECT_TRUE(has_hit(hits_of(c(), white_i), g, 1));
  EXPECT_TRUE(has_hit(hits_of(c(), black_a), g, 2));
}

TEST_F(QueryTest, ModernLinesWithABishopSwap) {
  GameFilter f;
  f.positions = move_targets("B=Q B=MN e4 e6", Variant::Modern);
  ASSERT_EQ(f.positions.size(), 1u);
  EXPECT_EQ(write_fen(f.positions[0].setup),
            "rnbqkmnbr/pppp1pppp/9/4p4/9/4P4/9/PPPP1PPPP/RNBMKBQNR w KQkq - 0 1");
  EXPECT_TRUE(has_hit(hits_of(c(), f), by_event("Modern swap"), 4));
}

TEST_F(QueryTest, PositionAtShowsTheNineByNineBoard) {
  const auto* g = by_event("Modern ministers");
  ASSERT_TRUE(g);
  auto rec = c().db->game(g->id, store::kDecodeTags | store::kDecodeMainLine);
  ASSERT_TRUE(rec);
  auto view = query::position_at(*rec, 1);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->last_move, "1.i9=M");
  EXPECT_EQ(view->position.width(), 9);
  EXPECT_EQ(view->position.board[std::size_t(8 * 9 + 8)], (Piece{Color::White, PieceType::Minister}));
}

// --- text -> filter --------------------------------------------------------------

TEST(FilterParse, FenErrorsNameTheProblem) {
  auto r = query::position_from_fen_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::InvalidArgument);
  EXPECT_NE(r.error().message.find("bad FEN"), std::string::npos);
  EXPECT_FALSE(query::position_from_fen_text("", std::nullopt));
  // A viceroy is only a Virrey piece: open variant finds Virrey alone.
  auto v = query::position_from_fen_text("4k3/8/8/8/8/8/8/3VK3 w - - 0 1", std::nullopt);
  ASSERT_TRUE(v);
  ASSERT_EQ(v->size(), 1u);
  EXPECT_EQ((*v)[0].variant, Variant::Virrey);
  EXPECT_FALSE(query::position_from_fen_text("4k3/8/8/8/8/8/8/3VK3 w - - 0 1", Variant::Standard));
}

// Of the variants that reject a FEN, the one whose board it fits names the
// problems: an empty 8x8 board lacks its kings, it is not "a 9x9 board short".
TEST(FilterParse, AFenIsJudgedInTheVariantItsBoardFits) {
  const auto empty8 = query::position_from_fen_text("8/8/8/8/8/8/8/8 w - - 0 1", std::nullopt);
  ASSERT_FALSE(empty8);
  EXPECT_EQ(empty8.error().message,
            "bad FEN: no white king; no black king (as Standard chess; no variant accepts it)");
  const auto empty9 = query::position_from_fen_text("9/9/9/9/9/9/9/9/9 w - - 0 1", std::nullopt);
  ASSERT_FALSE(empty9);
  EXPECT_EQ(empty9.error().message,
            "bad FEN: no white king; no black king (as Modern chess; no variant accepts it)");
}

TEST(FilterParse, SanErrorsNameTheMove) {
  auto illegal = query::position_from_moves("e4 e5 Ke3", Variant::Standard);
  ASSERT_FALSE(illegal);
  EXPECT_NE(illegal.error().message.find("move 2 (Ke3)"), std::string::npos) << illegal.error().message;
  auto syntax = query::position_from_moves("e4 Xq9", Variant::Standard);
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().message.find("move 1 (...Xq9)"), std::string::npos) << syntax.error().message;
  EXPECT_FALSE(query::position_from_moves("e4 --", Variant::Standard));
  auto numbered = query::position_from_moves("1. e4 e5 2.Nf3 Nc6 3... 1-0", Variant::Standard);
  ASSERT_TRUE(numbered) << numbered.error().message;
  auto plain = query::position_from_moves("e4 e5 Nf3 Nc6", Variant::Standard);
  ASSERT_TRUE(plain);
  EXPECT_EQ((*numbered)[0].hash, (*plain)[0].hash);
  // Move numbers alone are no line (they would find every game from the start).
  for (const char* none : {"", "1.", " 1... "}) {
    auto empty = query::position_from_moves(none, std::nullopt);
    ASSERT_FALSE(empty) << none;
    EXPECT_EQ(empty.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(empty.error().message.find("holds no move"), std::string::npos) << empty.error().message;
  }
}

TEST(FilterParse, Ranges) {
  auto r = query::parse_ply_range("10-20");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, (query::PlyRange{10, 20}));
  EXPECT_EQ(*query::parse_ply_range("7"), (query::PlyRange{7, 7}));
  EXPECT_EQ(*query::parse_ply_range("30-"), (query::PlyRange{30, std::nullopt}));
  EXPECT_EQ(*query::parse_ply_range("-30"), (query::PlyRange{std::nullopt, 30}));
  for (std::string_view bad : {"", "-", "a-b", "20-10", "1-2-3", "x", "-5-"}) {
    auto e = query::parse_ply_range(bad);
    EXPECT_FALSE(e) << bad;
    if (!e) {
      EXPECT_NE(e.error().message.find("ply range"), std::string::npos);
    }
  }
}

TEST(FilterParse, Words) {
  EXPECT_EQ(*query::parse_promotion_piece("v"), PieceType::Viceroy);
  EXPECT_EQ(*query::parse_promotion_piece("Queen"), PieceType::Queen);
  EXPECT_FALSE(query::parse_promotion_piece("K"));
  EXPECT_FALSE(query::parse_promotion_piece("P"));
  EXPECT_EQ(*query::parse_side("Black"), Color::Black);
  EXPECT_FALSE(query::parse_side("red"));
  EXPECT_EQ(*query::parse_file("E"), 4);
  EXPECT_FALSE(query::parse_file("j"));
  EXPECT_EQ(*query::parse_result_option("1/2-1/2"), GameResult::Draw);
  EXPECT_EQ(*query::parse_result_option("*"), GameResult::Unknown);
  EXPECT_FALSE(query::parse_result_option("2-0"));
  EXPECT_EQ(*query::parse_variant("Ajedrez del Virrey"), Variant::Virrey);
  EXPECT_FALSE(query::parse_variant("crazyhouse"));
  EXPECT_EQ(*query::parse_date_bound("2003-06"), "2003.06");
  EXPECT_EQ(*query::parse_date_bound("1999.12.31"), "1999.12.31");
  EXPECT_FALSE(query::parse_date_bound("2003.13"));
  EXPECT_FALSE(query::parse_date_bound("03.06"));
}

}  // namespace
}  // namespace virrey::testing
