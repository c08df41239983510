// The game-feature filters (how the main line ends and by which piece, the
// length, ratings, time control, Termination) against an independent answer:
// each game replayed here with the rules library and its tags read as
// written, the predicate applied, the game-id sets compared. Hand-made mates
// (by a queen, a rook uncovered by a knight, a double check, a viceroy, a
// minister) and a stalemate have their answers worked out on the board.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "collection.hpp"
#include "feature_pgn.hpp"
#include "store_hooks.hpp"
#include "virrey/game/main_line_trace.hpp"
#include "virrey/game/time_control.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/upgrade.hpp"

namespace virrey::testing {
namespace {

using game::TimeClass;
using query::FeatureConditions;
using query::GameFilter;
using store::Ending;

// TimeControl values and their classes worked out by hand: base + 40 x
// increment seconds against 30, 180, 480 and 1500.
const std::vector<std::pair<std::string, TimeClass>>& time_table() {
  static const std::vector<std::pair<std::string, TimeClass>> table = {
      {"15+0", TimeClass::UltraBullet},        // 15
      {"29", TimeClass::UltraBullet},          // 29 < 30
      {"0+0", TimeClass::UltraBullet},         // 0
      {"30", TimeClass::Bullet},               // 30
      {"60+0", TimeClass::Bullet},             // 60
      {"120+1", TimeClass::Bullet},            // 120 + 40 = 160
      {"179", TimeClass::Bullet},              // 179 < 180
      {"180", TimeClass::Blitz},               // 180
      {"180+2", TimeClass::Blitz},             // 180 + 80 = 260
      {"300+3", TimeClass::Blitz},             // 300 + 120 = 420
      {"479", TimeClass::Blitz},               // 479 < 480
      {"480", TimeClass::Rapid},               // 480
      {"60+11", TimeClass::Rapid},             // 60 + 440 = 500
      {"600+5", TimeClass::Rapid},             // 600 + 200 = 800
      {"1499", TimeClass::Rapid},              // 1499 < 1500
      {"1500", TimeClass::Classical},          // 1500
      {"1800+30", TimeClass::Classical},       // 1800 + 1200 = 3000
      {"40/7200:3600", TimeClass::Classical},  // first period 7200
      {"*180", TimeClass::Blitz},              // sandclock 180
      {"-", TimeClass::Correspondence},        // no clock
      {"1/86400", TimeClass::Correspondence},  // a move a day
      {"*/172800", TimeClass::Correspondence},
      {"?", TimeClass::Unknown},
      {"fast", TimeClass::Unknown},
      {"", TimeClass::Unknown},  // (no tag)
  };
  return table;
}

// --- the independent answer ---------------------------------------------------------

struct Facts {
  store::GameId id = 0;
  Ending ending = Ending::Other;
  std::set<PieceType> mate_by;  // the kinds of the checkers in the final checkmate
  std::uint32_t plies = 0;
  int white_elo = 0, black_elo = 0;  // 0: none
  std::string time_control;          // as written ("" when absent)
  std::string termination;
};

// Replays the main line with the rules library and reads the final position.
template <class G>
void replay_end(const game::GameRecord& r, Facts& f) {
  FenProblems problems;
  std::optional<Position<G>> pos = r.start_fen.empty()
                                       ? variant_start<G>(r.variant)
                                       : position_from_fen<G>(r.start_fen, r.variant, problems);
  ASSERT_TRUE(pos);
  for (Move m : r.main_line) pos->play(m);
  if (!legal_moves(*pos).empty()) return;
  if (!pos->in_check()) {
    f.ending = Ending::Stalemate;
    return;
  }
  f.ending = Ending::Checkmate;
  const Square king = pos->king_square(pos->side_to_move());
  // Every enemy piece that attacks the king, found square by square.
  for (int sq = 0; sq < G::squares; ++sq) {
    const Piece p = pos->piece_on(Square(sq));
    if (p.empty() || p.color == pos->side_to_move()) continue;
    if (pos->attackers_to(king, pos->occupied()) & square_bb<G>(Square(sq))) f.mate_by.insert(p.type);
  }
}

int elo_of(std::string_view v) {
  if (v.empty() || v.size() > 5 || v.find_first_not_of("0123456789") != std::string_view::npos) return 0;
  return std::stoi(std::string(v));
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Facts facts_of(const ScannedGame& g) {
  Facts f;
  f.id = g.id;
  with_geometry(g.record.variant, [&](auto geometry) { replay_end<decltype(geometry)>(g.record, f); });
  f.plies = std::uint32_t(g.record.main_line.size());
  f.white_elo = elo_of(g.record.tag("WhiteElo"));
  f.black_elo = elo_of(g.record.tag("BlackElo"));
  f.time_control = std::string(g.record.tag("TimeControl"));
  f.termination = std::string(g.record.tag("Termination"));
  return f;
}

TimeClass hand_class(const std::string& tc) {
  for (const auto& [value, cls] : time_table())
    if (value == tc) return cls;
  ADD_FAILURE() << "no hand-worked class for " << tc;
  return TimeClass::Unknown;
}

// --- the collection -----------------------------------------------------------------

// Tags spread over generated games, so that every range and class has games
// on both sides of it: Elo missing now and then, every TimeControl of the
// table, four Termination values (one absent).
void add_tags(game::GameRecord& r, std::size_t i) {
  auto set = [&](std::string name, std::string value) {
    r.tags.erase(std::remove_if(r.tags.begin(), r.tags.end(), [&](const auto& t) { return t.name == name; }),
                 r.tags.end());
    if (!value.empty()) r.tags.push_back({std::move(name), std::move(value)});
  };
  set("WhiteElo", i % 7 == 0 ? "" : std::to_string(1000 + i * 37 % 1600));
  set("BlackElo", i % 11 == 0 ? "" : std::to_string(1000 + i * 53 % 1600));
  set("TimeControl", time_table()[i % time_table().size()].first);
  static const char* const kTerminations[] = {"Normal", "Time forfeit", "ABANDONED", ""};
  set("Termination", kTerminations[i % 4]);
}

class FeatureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::vector<game::GameRecord> all = records_from_pgn(kFeatureStandardPgn, Variant::Standard);
    for (auto& r : records_from_pgn(kFeatureVirreyPgn, Variant::Virrey)) all.push_back(std::move(r));
    for (auto& r : records_from_pgn(kFeatureModernPgn, Variant::Modern)) all.push_back(std::move(r));
    const std::size_t hand_made = all.size();
    for (auto& r : generated(Variant::Virrey, 21, 250)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Standard, 22, 250)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Modern, 23, 250)) all.push_back(std::move(r));
    for (std::size_t i = hand_made; i < all.size(); ++i) add_tags(all[i], i);
    collection_ = make_collection(all).release();
    for (const ScannedGame& g : collection_->games) facts_->push_back(facts_of(g));
  }
  static void TearDownTestSuite() {
    delete collection_;
    collection_ = nullptr;
    facts_->clear();
  }
  void SetUp() override { ASSERT_NE(collection_, nullptr); }

  static std::vector<store::GameId> found(const store::Database& db, const GameFilter& f) {
    auto m = query::find_matches(db, f);
    EXPECT_TRUE(m) << (m ? "" : m.error().message);
    std::vector<store::GameId> ids;
    if (m)
      for (const auto& x : *m) ids.push_back(x.id);
    return ids;
  }
  static std::vector<store::GameId> expected(const std::function<bool(const Facts&)>& pick) {
    std::vector<store::GameId> ids;
    for (const Facts& f : *facts_)
      if (pick(f)) ids.push_back(f.id);
    return ids;
  }
  static store::GameId id_of(std::string_view event) {
    for (const ScannedGame& g : collection_->games)
      if (g.record.tag("Event") == event) return g.id;
    ADD_FAILURE() << "no game " << event;
    return 0;
  }
  static GameFilter features(FeatureConditions c) {
    GameFilter f;
    f.features = std::move(c);
    return f;
  }

  static Collection* collection_;
  static std::vector<Facts>* facts_;
};

Collection* FeatureTest::collection_ = nullptr;
std::vector<Facts>* FeatureTest::facts_ = new std::vector<Facts>;

// Every feature query of the tests below, with its independent predicate.
struct Case {
  std::string name;
  FeatureConditions c;
  std::function<bool(const Facts&)> pick;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  auto add = [&](std::string name, FeatureConditions c, std::function<bool(const Facts&)> pick) {
    out.push_back({std::move(name), std::move(c), std::move(pick)});
  };
  for (Ending e : {Ending::Checkmate, Ending::Stalemate, Ending::Other}) {
    FeatureConditions c;
    c.ending = e;
    add(fmt::format("ending {}", int(e)), c, [e](const Facts& f) { return f.ending == e; });
  }
  for (PieceType pt : {PieceType::King, PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                       PieceType::Knight, PieceType::Pawn, PieceType::Viceroy, PieceType::Minister}) {
    FeatureConditions c;
    c.mate_by = game::piece_type_bit(pt);
    add(fmt::format("mate by {}", piece_letter(pt)), c,
        [pt](const Facts& f) { return f.mate_by.count(pt) > 0; });
  }
  auto plies = [&](std::optional<std::uint32_t> a, std::optional<std::uint32_t> b) {
    FeatureConditions c;
    c.plies = {a, b};
    add(fmt::format("plies {}-{}", a.value_or(0), b.value_or(0)), c,
        [a, b](const Facts& f) { return (!a || f.plies >= *a) && (!b || f.plies <= *b); });
  };
  plies(1, 1);
  plies(3, 3);
  plies(4, 40);
  plies(41, std::nullopt);
  plies(std::nullopt, 20);
  plies(120, 159);
  using query::EloOf;
  auto elo = [&](std::optional<std::uint32_t> a, std::optional<std::uint32_t> b, EloOf of) {
    FeatureConditions c;
    c.elo = query::EloCondition{{a, b}, of};
    auto in = [a, b](int e) { return e != 0 && (!a || e >= int(*a)) && (!b || e <= int(*b)); };
    add(fmt::format("elo {}-{} of {}", a.value_or(0), b.value_or(0), int(of)), c, [=](const Facts& f) {
      switch (of) {
        case EloOf::Both: return in(f.white_elo) && in(f.black_elo);
        case EloOf::Either: return in(f.white_elo) || in(f.black_elo);
        case EloOf::Average:
          return f.white_elo != 0 && f.black_elo != 0 && in((f.white_elo + f.black_elo) / 2);
      }
      return false;
    });
  };
  for (EloOf of : {EloOf::Both, EloOf::Either, EloOf::Average}) {
    elo(2000, std::nullopt, of);
    elo(std::nullopt, 1599, of);
    elo(1500, 1600, of);
    elo(2000, 2000, of);  // the stalemate's 1999 and 2001 average 2000
    elo(2199, 2400, of);
  }
  for (int cls = 1; cls < game::kTimeClassCount; ++cls) {
    FeatureConditions c;
    c.time_control = query::TimeControlCondition{TimeClass(cls), ""};
    add(fmt::format("class {}", game::time_class_name(TimeClass(cls))), c,
        [cls](const Facts& f) { return hand_class(f.time_control) == TimeClass(cls); });
  }
  for (std::string value : {"300+3", "40/7200:3600", "-", "1/86400"}) {
    FeatureConditions c;
    c.time_control = query::TimeControlCondition{std::nullopt, value};
    add("time control " + value, c, [value](const Facts& f) { return f.time_control == value; });
  }
  for (std::string term : {"normal", "time forfeit", "abandoned", "rules infraction"}) {
    FeatureConditions c;
    c.termination = term;
    add("termination " + term, c, [term](const Facts& f) { return lower(f.termination) == term; });
  }
  {
    FeatureConditions c;  // a combination: checkmates by a queen in blitz, both rated from 1200
    c.mate_by = game::piece_type_bit(PieceType::Queen);
    c.time_control = query::TimeControlCondition{TimeClass::Blitz, ""};
    c.elo = query::EloCondition{{1200, std::nullopt}, EloOf::Both};
    add("combined", c, [](const Facts& f) {
      return f.mate_by.count(PieceType::Queen) && hand_class(f.time_control) == TimeClass::Blitz &&
             f.white_elo >= 1200 && f.black_elo >= 1200;
    });
  }
  return out;
}

void expect_cases(const store::Database& db, const std::vector<Facts>& facts,
                  const std::function<std::vector<store::GameId>(const GameFilter&)>& run) {
  for (const Case& k : cases()) {
    std::vector<store::GameId> want;
    for (const Facts& f : facts)
      if (k.pick(f)) want.push_back(f.id);
    GameFilter f;
    f.features = k.c;
    EXPECT_EQ(run(f), want) << k.name;
  }
  (void)db;
}

TEST_F(FeatureTest, HandMadeEndingsAndMates) {
  const store::Database& db = *collection_->db;
  const auto fool = id_of("Fool's mate"), discovered = id_of("Discovered mate"),
             double_check = id_of("Double check mate"), stalemate = id_of("Stalemate"),
             unfinished = id_of("Unfinished"), viceroy = id_of("Viceroy mate"),
             minister = id_of("Minister mate");
  auto only_hand_made = [&](FeatureConditions c) {
    std::vector<store::GameId> ids;
    for (auto id : found(db, features(std::move(c))))
      if (id <= minister) ids.push_back(id);
    return ids;
  };
  auto mate_by = [&](PieceType pt) {
    FeatureConditions c;
    c.mate_by = game::piece_type_bit(pt);
    return only_hand_made(c);
  };
  using Ids = std::vector<store::GameId>;
  EXPECT_EQ(mate_by(PieceType::Queen), (Ids{fool}));
  // The discovered mate is the uncovered rook's; the double check is both
  // checkers'.
  EXPECT_EQ(mate_by(PieceType::Rook), (Ids{discovered, double_check}));
  EXPECT_EQ(mate_by(PieceType::Knight), (Ids{double_check}));
  EXPECT_EQ(mate_by(PieceType::Viceroy), (Ids{viceroy}));
  EXPECT_EQ(mate_by(PieceType::Minister), (Ids{minister}));
  EXPECT_EQ(mate_by(PieceType::King), Ids{});
  FeatureConditions stale;
  stale.ending = Ending::Stalemate;
  EXPECT_EQ(only_hand_made(stale), (Ids{stalemate}));
  FeatureConditions other;
  other.ending = Ending::Other;
  EXPECT_EQ(only_hand_made(other), (Ids{unfinished}));
  FeatureConditions ultrabullet;  // 15+0: the viceroy mate only
  ultrabullet.time_control = query::TimeControlCondition{TimeClass::UltraBullet, ""};
  EXPECT_EQ(only_hand_made(ultrabullet), (Ids{viceroy}));
  FeatureConditions classical;  // 40/7200:3600
  classical.time_control = query::TimeControlCondition{TimeClass::Classical, ""};
  EXPECT_EQ(only_hand_made(classical), (Ids{stalemate}));
  FeatureConditions average;  // (1999 + 2001) / 2 = 2000; (2000 + 2399) / 2 = 2199
  average.elo = query::EloCondition{{2000, 2199}, query::EloOf::Average};
  EXPECT_EQ(only_hand_made(average), (Ids{stalemate, minister}));
  FeatureConditions both = average;  // 1999 is out
  both.elo->of = query::EloOf::Both;
  EXPECT_EQ(only_hand_made(both), Ids{});
  FeatureConditions either = average;  // 2001; 2199 (the discovered mate's Black); 2000
  either.elo->of = query::EloOf::Either;
  EXPECT_EQ(only_hand_made(either), (Ids{discovered, stalemate, minister}));
}

TEST_F(FeatureTest, EveryQueryMatchesTheScan) {
  expect_cases(*collection_->db, *facts_, [&](const GameFilter& f) { return found(*collection_->db, f); });
  // Each condition with a tag condition that drives the plan: verified on
  // the tag index's candidates.
  GameFilter tagged;
  tagged.tags.variant = Variant::Virrey;
  tagged.features.ending = Ending::Checkmate;
  EXPECT_EQ(found(*collection_->db, tagged), expected([&](const Facts& f) {
              return f.ending == Ending::Checkmate &&
                     collection_->games[&f - facts_->data()].record.variant == Variant::Virrey;
            }));
}

TEST_F(FeatureTest, SomeOfEachKindExist) {
  // The cases are only worth their name if the collection has games on
  // both sides of them.
  std::map<std::string, std::size_t> counts;
  for (const Case& k : cases())
    for (const Facts& f : *facts_) counts[k.name] += k.pick(f);
  for (const char* name :
       {"ending 1", "ending 2", "ending 0", "mate by Q", "mate by R", "mate by N", "mate by P", "mate by V",
        "mate by M", "class bullet", "class blitz", "class rapid", "class classical", "class correspondence",
        "class ultrabullet", "termination normal", "elo 2000-0 of 0", "plies 41-0"})
    EXPECT_GT(counts[name], 0u) << name;
}

// A database whose summaries predate the mate and the time class (format
// 1): the same answers, from the records; `db check` finds nothing wrong;
// `db upgrade` rewrites the summaries.
TEST_F(FeatureTest, OlderSummariesAnswerTheSameAndUpgrade) {
  TempDir dir;
  const std::string path = dir.path() + "/old";
  std::vector<game::GameRecord> records;
  for (const ScannedGame& g : collection_->games) records.push_back(g.record);
  store_records(path, records);
  {
    auto db = store::Database::open(path, {store::OpenMode::Read});
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->has_summary_features());
  }
  for (const ScannedGame& g : collection_->games) {
    std::string v1;
    {
      auto db = store::Database::open(path, {store::OpenMode::Read});
      ASSERT_TRUE(db);
      auto s = (*db)->summary(g.id);
      ASSERT_TRUE(s);
      v1 = store::encode_summary(*s).substr(0, store::kSummarySizeV1);
    }
    v1[0] = char(1);  // format 1: the first 16 bytes
    ASSERT_TRUE(store::testing::put_raw_entry(path, store::Family::Summaries,
                                              std::string(store::view(store::game_key(g.id))), v1));
  }
  ASSERT_TRUE(store::testing::drop_summary_format(path));
  {
    auto db = store::Database::open(path, {store::OpenMode::Read});
    ASSERT_TRUE(db);
    EXPECT_FALSE((*db)->has_summary_features());
    auto s = (*db)->summary(collection_->games.front().id);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->features);
    expect_cases(**db, *facts_, [&](const GameFilter& f) { return found(**db, f); });
    auto report = store::check_database(**db);
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->problems.empty()) << (report->problems.empty() ? "" : report->problems.front());
  }
  auto up = store::upgrade_database(path);
  ASSERT_TRUE(up) << up.error().message;
  EXPECT_TRUE(up->summaries);
  EXPECT_EQ(up->games, collection_->games.size());
  auto db = store::Database::open(path, {store::OpenMode::Read});
  ASSERT_TRUE(db);
  EXPECT_TRUE((*db)->has_summary_features());
  for (const ScannedGame& g : collection_->games) {
    auto s = (*db)->summary(g.id);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->features);
    EXPECT_EQ(s->time_class, hand_class(std::string(g.record.tag("TimeControl")))) << g.id;
  }
  expect_cases(**db, *facts_, [&](const GameFilter& f) { return found(**db, f); });
}

TEST(TimeControl, ClassesOfTheHandTable) {
  for (const auto& [value, cls] : time_table())
    EXPECT_EQ(game::time_class(value), cls) << "'" << value << "'";
  EXPECT_EQ(game::estimated_seconds("300+3"), 420u);  // 300 + 40 x 3
  EXPECT_EQ(game::estimated_seconds("40/7200:3600"), 7200u);
  EXPECT_EQ(game::estimated_seconds("-"), std::nullopt);
  EXPECT_EQ(game::parse_time_class("Blitz"), TimeClass::Blitz);
  EXPECT_EQ(game::parse_time_class("blitzz"), std::nullopt);
}

TEST(FeatureParse, BadValuesNameTheBadPart) {
  auto message = [](auto r) { return r ? std::string("(accepted)") : r.error().message; };
  EXPECT_NE(message(query::parse_ending("mated")).find("'mated'"), std::string::npos);
  EXPECT_NE(message(query::parse_mate_by("X")).find("'X'"), std::string::npos);
  EXPECT_NE(message(query::parse_range("2400-2000", "rating")).find("2400 is after 2000"), std::string::npos);
  EXPECT_NE(message(query::parse_range("12a-", "rating")).find("'12a-'"), std::string::npos);
  EXPECT_NE(message(query::parse_elo_of("all")).find("'all'"), std::string::npos);
  EXPECT_NE(message(query::parse_time_control("blits")).find("'blits'"), std::string::npos);
  EXPECT_EQ(query::parse_mate_by("v").value(), game::piece_type_bit(PieceType::Viceroy));
  EXPECT_EQ(query::parse_mate_by("Minister").value(), game::piece_type_bit(PieceType::Minister));
  EXPECT_EQ(query::parse_time_control(" 300+3 ").value().value, "300+3");
  EXPECT_EQ(query::parse_time_control("RAPID").value().time_class, TimeClass::Rapid);
  const auto r = query::parse_range("-1800", "rating").value();
  EXPECT_FALSE(r.from);
  EXPECT_EQ(r.to, 1800u);
}

}  // namespace
}  // namespace virrey::testing
