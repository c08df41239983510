// Material search against an independent scan: every game of a collection
// (standard, Virrey and Modern, hand-made and generated) replayed into FEN
// text, its men counted from the text, and each query's rule written out
// here as a plain predicate over those counts.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "collection.hpp"
#include "handmade_pgn.hpp"
#include "store_hooks.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/query/material_spec.hpp"
#include "virrey/query/search.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/merge.hpp"
#include "virrey/store/upgrade.hpp"

namespace virrey::testing {
namespace {

using query::MaterialCondition;

// Men per side ([0] White, [1] Black) by letter, from a FEN's board field.
using Counts = std::array<std::map<char, int>, 2>;

Counts counts_of(std::string_view fen) {
  Counts c;
  for (char ch : fen.substr(0, fen.find(' '))) {
    if (ch == '/' || (ch >= '0' && ch <= '9')) continue;
    const bool white = ch >= 'A' && ch <= 'Z';
    c[white ? 0 : 1][char(white ? ch : ch - 32)]++;
  }
  return c;
}

int n(const Counts& c, int side, char letter) {
  auto it = c[std::size_t(side)].find(letter);
  return it == c[std::size_t(side)].end() ? 0 : it->second;
}

// Exactly these men (letters, K included) for White and Black.
bool exactly(const Counts& c, std::string_view w, std::string_view b) {
  for (int side = 0; side < 2; ++side) {
    std::map<char, int> want;
    for (char ch : side == 0 ? w : b) want[ch]++;
    if (c[std::size_t(side)] != want) return false;
  }
  return true;
}

Counts swapped(const Counts& c) { return {c[1], c[0]}; }

struct Query {
  std::string spec;
  bool either = false;
  std::uint32_t plies = 1;
  std::function<bool(const Counts&)> rule;
};

// The first ply of the first stretch of `plies` consecutive positions that
// pass the rule in one orientation.
std::optional<std::uint32_t> scan(const ScannedGame& g, const Query& q) {
  std::optional<std::uint32_t> best;
  for (int flip = 0; flip < (q.either ? 2 : 1); ++flip) {
    std::uint32_t run = 0;
    for (std::size_t ply = 0; ply < g.positions.size(); ++ply) {
      Counts c = counts_of(g.positions[ply]);
      if (flip) c = swapped(c);
      run = q.rule(c) ? run + 1 : 0;
      if (run >= q.plies) {
        const auto start = std::uint32_t(ply + 1 - run);
        if (!best || start < *best) best = start;
        break;
      }
    }
  }
  return best;
}

class MaterialSearch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::vector<game::GameRecord> all = records_from_pgn(kStandardPgn, Variant::Standard);
    for (auto& r : records_from_pgn(kVirreyPgn, Variant::Virrey)) all.push_back(std::move(r));
    for (auto& r : records_from_pgn(kModernPgn, Variant::Modern)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Virrey, 7, 600)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Standard, 11, 200)) all.push_back(std::move(r));
    for (auto& r : generated(Variant::Modern, 13, 200)) all.push_back(std::move(r));
    collection_ = make_collection(all).release();
  }
  static void TearDownTestSuite() {
    delete collection_;
    collection_ = nullptr;
  }
  const Collection& c() const { return *collection_; }

  // The search's matches (id, ply) against the scan's; at least `min_hits`.
  void expect_same(const Query& q, std::size_t min_hits = 1, const query::PlanOptions& plan = {},
                   std::optional<query::PromotionCondition> promotion = std::nullopt) {
    SCOPED_TRACE(fmt::format("--material '{}' either={} plies={}", q.spec, q.either, q.plies));
    auto spec = query::parse_material_spec(q.spec);
    ASSERT_TRUE(spec) << spec.error().message;
    query::GameFilter f;
    f.material = MaterialCondition{*spec, q.either, q.plies};
    f.promotion = promotion;
    auto got = query::find_matches(*c().db, f, plan);
    ASSERT_TRUE(got) << got.error().message;
    std::vector<std::pair<store::GameId, std::uint32_t>> want, have;
    for (const ScannedGame& g : c().games) {
      if (promotion) {
        bool any = false;
        for (const auto& p : g.promotions) any |= !promotion->piece || p.piece == *promotion->piece;
        if (!any) continue;
      }
      if (auto ply = scan(g, q)) want.emplace_back(g.id, *ply);
    }
    for (const auto& m : *got) have.emplace_back(m.id, promotion ? 0 : m.ply.value_or(9999));
    if (promotion)
      for (auto& w : want) w.second = 0;
    EXPECT_EQ(have, want);
    EXPECT_GE(want.size(), min_hits);
  }

  static Collection* collection_;
};

Collection* MaterialSearch::collection_ = nullptr;

TEST_F(MaterialSearch, TheDatabaseHasAMaterialIndex) { EXPECT_TRUE(c().db->has_material_index()); }

TEST_F(MaterialSearch, ExactBalances) {
  expect_same({"KV-KV", false, 1, [](const Counts& c) { return exactly(c, "KV", "KV"); }});
  expect_same({"KVV-K", false, 1, [](const Counts& c) { return exactly(c, "KVV", "K"); }});
  // K may be left out.
  expect_same({"V-P", false, 1, [](const Counts& c) { return exactly(c, "KV", "KP"); }});
  expect_same({"KR-KR", false, 1, [](const Counts& c) { return exactly(c, "KR", "KR"); }}, 0);
}

TEST_F(MaterialSearch, ColourFlippedMatches) {
  // Only Black has the viceroy: found with --either-colour alone.
  expect_same({"KP-KV", false, 1, [](const Counts& c) { return exactly(c, "KP", "KV"); }}, 0);
  expect_same({"KV-KP", true, 1,
               [](const Counts& c) { return exactly(c, "KV", "KP"); }});
  expect_same({"V>=1 Q=0 vs V=0", true, 1, [](const Counts& c) {
                 return n(c, 0, 'V') >= 1 && n(c, 0, 'Q') == 0 && n(c, 1, 'V') == 0;
               }});
}

TEST_F(MaterialSearch, CountsRangesAndSums) {
  expect_same({"V>=2", false, 1, [](const Counts& c) { return n(c, 0, 'V') >= 2; }});
  expect_same({"vs V>=2", false, 1, [](const Counts& c) { return n(c, 1, 'V') >= 2; }}, 0);
  expect_same({"Q=0 V>=1 vs Q=1", false, 1, [](const Counts& c) {
                 return n(c, 0, 'Q') == 0 && n(c, 0, 'V') >= 1 && n(c, 1, 'Q') == 1;
               }});
  expect_same({"P=2-4 R<2 vs P>3 Q<1", false, 1, [](const Counts& c) {
                 return n(c, 0, 'P') >= 2 && n(c, 0, 'P') <= 4 && n(c, 0, 'R') < 2 && n(c, 1, 'P') > 3 &&
                        n(c, 1, 'Q') < 1;
               }});
  expect_same({"B+N>=3 vs B+N<=1", false, 1, [](const Counts& c) {
                 return n(c, 0, 'B') + n(c, 0, 'N') >= 3 && n(c, 1, 'B') + n(c, 1, 'N') <= 1;
               }});
  expect_same({"M=0 vs M>=1", false, 1, [](const Counts& c) { return n(c, 0, 'M') == 0 && n(c, 1, 'M') >= 1; }});
  // A bare group fixes its side.
  expect_same({"KV vs P>=1", false, 1, [](const Counts& c) {
                 return c[0] == std::map<char, int>{{'K', 1}, {'V', 1}} && n(c, 1, 'P') >= 1;
               }});
}

TEST_F(MaterialSearch, PromotionsChangeTheMaterial) {
  // Queens beyond the first come from promotions only.
  expect_same({"Q>=2", true, 1, [](const Counts& c) { return n(c, 0, 'Q') >= 2; }});
  expect_same({"V>=1 P=0", false, 1, [](const Counts& c) { return n(c, 0, 'V') >= 1 && n(c, 0, 'P') == 0; }});
}

TEST_F(MaterialSearch, MinimumPlies) {
  for (std::uint32_t plies : {1u, 2u, 5u, 20u, 60u})
    expect_same({"Q=0 vs Q=0", false, plies,
                 [](const Counts& c) { return n(c, 0, 'Q') == 0 && n(c, 1, 'Q') == 0; }});
  // A stretch may span several balances that all match.
  expect_same({"R>=1 P<=5 vs R>=1", true, 10, [](const Counts& c) {
                 return n(c, 0, 'R') >= 1 && n(c, 0, 'P') <= 5 && n(c, 1, 'R') >= 1;
               }});
}

TEST_F(MaterialSearch, VerifiedByReplayWhenAnotherIndexDrives) {
  query::PromotionCondition p;
  p.piece = PieceType::Viceroy;
  query::PlanOptions stream_promotions;  // no index set is read whole: the promotion index drives
  stream_promotions.probe_cap = 0;
  const Query q{"V>=1 vs V=0", true, 3, [](const Counts& c) { return n(c, 0, 'V') >= 1 && n(c, 1, 'V') == 0; }};
  expect_same(q, 1, stream_promotions, p);
  expect_same(q, 1, {}, p);  // both index sets read whole and intersected
}

// --- the dictionary in search order ---------------------------------------------------

constexpr std::string_view kLetters = "PNBRQKVM";

// A box as bounds per side and letter, decided here over the FEN's counts.
struct Box {
  std::array<std::map<char, std::pair<int, int>>, 2> bounds;
  bool holds(const Counts& c) const {
    for (int side = 0; side < 2; ++side)
      for (const auto& [letter, range] : bounds[std::size_t(side)]) {
        const int k = n(c, side, letter);
        if (k < range.first || k > range.second) return false;
      }
    return true;
  }
  MaterialBounds to_bounds() const {
    MaterialBounds b;
    for (int side = 0; side < 2; ++side)
      for (const auto& [letter, range] : bounds[std::size_t(side)]) {
        b.lo[side][index(piece_type_from_letter(letter))] = std::uint8_t(range.first);
        b.hi[side][index(piece_type_from_letter(letter))] = std::uint8_t(range.second);
      }
    return b;
  }
};

Material material_from(const Counts& c) {
  Material m;
  for (int side = 0; side < 2; ++side)
    for (const auto& [letter, k] : c[std::size_t(side)])
      m.set(side == 0 ? Color::White : Color::Black, piece_type_from_letter(letter), k);
  return m;
}

// Every balance inside random boxes, as the skip scan over the dictionary in
// search order lists them, against the balances the scan of the games
// reaches and the box's rule over their counts.
TEST_F(MaterialSearch, BalancesWithinABoxSeekOverTheRest) {
  ASSERT_TRUE(c().db->has_material_order());
  std::map<Variant, std::map<std::uint64_t, Counts>> reached;
  for (const ScannedGame& g : c().games)
    for (const std::string& fen : g.positions) {
      const Counts counts = counts_of(fen);
      reached[g.record.variant][material_from(counts).key()] = counts;
    }
  std::mt19937 rng(20261202);
  auto pick = [&](int below) { return int(rng() % unsigned(below)); };
  std::size_t nonempty = 0;
  for (int round = 0; round < 400; ++round) {
    Box box;
    for (int side = 0; side < 2; ++side)
      for (char letter : kLetters) {
        if (pick(3) != 0) continue;  // most counts free
        const int lo = pick(4) == 0 ? 0 : pick(letter == 'P' ? 9 : 3);
        box.bounds[std::size_t(side)][letter] = {lo, lo + pick(3)};
      }
    for (Variant v : {Variant::Standard, Variant::Virrey, Variant::Modern}) {
      std::set<std::uint64_t> want, got;
      for (const auto& [key, counts] : reached[v])
        if (box.holds(counts)) want.insert(key);
      Status s = c().db->for_each_material_within(v, box.to_bounds(), [&](std::uint64_t key) {
        EXPECT_TRUE(got.insert(key).second) << "listed twice";
        return true;
      });
      ASSERT_TRUE(s) << s.error().message;
      ASSERT_EQ(got, want) << "round " << round << " variant " << int(v);
      nonempty += !want.empty();
    }
  }
  EXPECT_GE(nonempty, 100u);
  // Stopping early stops.
  int seen = 0;
  ASSERT_TRUE(c().db->for_each_material_within(Variant::Virrey, MaterialBounds{},
                                               [&](std::uint64_t) { return ++seen < 3; }));
  EXPECT_EQ(seen, 3);
}

// A database written before the dictionary in search order: searches by
// counts answer the same from the plain dictionary, `db upgrade` writes the
// ordered one alone, a merge of it into a new database writes it too, and
// `db check` verifies each.
TEST(MaterialIndex, DictionaryInSearchOrderIsAddedByUpgradeAndMerge) {
  TempDir dir;
  const std::string path = dir.path() + "/db", merged = dir.path() + "/merged";
  std::vector<game::GameRecord> records = records_from_pgn(kVirreyPgn, Variant::Virrey);
  for (auto& r : generated(Variant::Virrey, 9, 150)) records.push_back(std::move(r));
  for (auto& r : generated(Variant::Standard, 10, 60)) records.push_back(std::move(r));
  store_records(path, records, true);
  const std::vector<std::string> specs = {"V>=1 vs V=0", "Q=0 V>=1 vs Q=1", "R>=1 P<=3", "KV vs P>=1"};
  auto answers = [&](const std::string& at, bool ordered) {
    auto db = store::Database::open(at, {store::OpenMode::ReadOnly});
    EXPECT_TRUE(db) << db.error().message;
    EXPECT_EQ((*db)->has_material_order(), ordered) << at;
    std::vector<std::pair<store::GameId, std::uint32_t>> out;
    for (const std::string& text : specs)
      for (bool either : {false, true}) {
        auto spec = query::parse_material_spec(text);
        EXPECT_TRUE(spec);
        query::GameFilter f;
        f.material = MaterialCondition{*spec, either, 1};
        auto m = query::find_matches(**db, f);
        EXPECT_TRUE(m) << m.error().message;
        out.emplace_back(0, 0);  // a separator per query
        for (const auto& g : *m) out.emplace_back(g.id, g.ply.value_or(9999));
      }
    auto check = store::check_database(**db);
    EXPECT_TRUE(check);
    EXPECT_EQ(check->problem_count, 0u) << (check->problems.empty() ? "" : check->problems[0]);
    return out;
  };
  const auto want = answers(path, true);
  EXPECT_GT(want.size(), 2 * specs.size() + 20);
  ASSERT_TRUE(store::testing::key_material_postings_by_balance(path, true));
  EXPECT_EQ(answers(path, true), want);
  ASSERT_TRUE(store::testing::drop_material_order(path));
  EXPECT_EQ(answers(path, false), want);
  {
    auto dest = store::Database::open(merged, {store::OpenMode::ReadWrite});
    ASSERT_TRUE(dest) << dest.error().message;
    auto report = store::merge_databases(**dest, {path});
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_EQ(report->stored, records.size());
  }
  EXPECT_EQ(answers(merged, true), want);
  auto up = store::upgrade_database(path);
  ASSERT_TRUE(up) << up.error().message;
  EXPECT_TRUE(up->material_order);
  EXPECT_FALSE(up->material_index);
  EXPECT_EQ(up->games, 0u);
  EXPECT_EQ(answers(path, true), want);
}

// Postings keyed by balance (the layout before they were keyed in search
// order): a database holding them answers as one written afresh, also once
// later imports add postings in search order beside them, and a merge
// rekeys them (beside, or into the value of, the source's newer postings);
// exact balances streamed page by page come in id order.
TEST(MaterialIndex, PostingsKeyedByBalanceAnswerAsInSearchOrder) {
  TempDir dir;
  const std::string fresh = dir.path() + "/fresh", mixed = dir.path() + "/mixed", old = dir.path() + "/old",
                    later = dir.path() + "/later", merged = dir.path() + "/merged";
  std::vector<game::GameRecord> first = records_from_pgn(kVirreyPgn, Variant::Virrey), second;
  for (auto& r : generated(Variant::Virrey, 21, 150)) first.push_back(std::move(r));
  for (auto& r : generated(Variant::Standard, 22, 60)) first.push_back(std::move(r));
  for (auto& r : generated(Variant::Virrey, 23, 150)) second.push_back(std::move(r));
  for (auto& r : generated(Variant::Modern, 24, 40)) second.push_back(std::move(r));
  store_records(fresh, first);
  store_records(fresh, second);
  store_records(mixed, first, true);
  ASSERT_TRUE(store::testing::key_material_postings_by_balance(mixed, true));
  store_records(mixed, second);
  store_records(old, first);
  ASSERT_TRUE(store::testing::key_material_postings_by_balance(old, false));
  store_records(later, second);

  const std::vector<std::string> specs = {
      "V>=1 vs V=0", "Q=0 V>=1 vs Q=1", "R>=1 P<=3", "KVR-KR", "KR-KR", "KQ-K", "M>=1", "KV-KV"};
  auto answers = [&](const std::string& at) {
    auto db = store::Database::open(at, {store::OpenMode::ReadOnly});
    EXPECT_TRUE(db) << db.error().message;
    std::vector<std::pair<store::GameId, std::uint32_t>> out;
    query::PlanOptions paged;  // exact balances streamed a few games a round
    paged.probe_cap = 4;
    paged.first_window = 2;
    for (const std::string& text : specs)
      for (bool either : {false, true})
        for (const query::PlanOptions& plan : {query::PlanOptions{}, paged}) {
          auto spec = query::parse_material_spec(text);
          EXPECT_TRUE(spec) << text;
          query::GameFilter f;
          f.material = MaterialCondition{*spec, either, 1};
          auto m = query::find_matches(**db, f, plan);
          EXPECT_TRUE(m) << m.error().message;
          out.emplace_back(0, 0);  // a separator per query
          for (const auto& g : *m) out.emplace_back(g.id, g.ply.value_or(9999));
        }
    for (int v = 0; v < kVariantCount; ++v) {
      out.emplace_back(1, 1);
      EXPECT_TRUE((*db)->for_each_material(Variant(v), [&](std::uint64_t key) {
        out.emplace_back(store::GameId(key >> 32), std::uint32_t(key));
        return true;
      }));
    }
    auto check = store::check_database(**db);
    EXPECT_TRUE(check);
    EXPECT_EQ(check->problem_count, 0u) << at << ": " << (check->problems.empty() ? "" : check->problems[0]);
    return out;
  };
  const auto want = answers(fresh);
  std::size_t matches = 0;
  for (const auto& [id, ply] : want) matches += id > 1;
  EXPECT_GT(matches, 400u);
  EXPECT_EQ(answers(mixed), want);
  {
    auto dest = store::Database::open(merged, {store::OpenMode::ReadWrite});
    ASSERT_TRUE(dest) << dest.error().message;
    auto report = store::merge_databases(**dest, {old, later});
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_EQ(report->stored, first.size() + second.size());
  }
  EXPECT_EQ(answers(merged), want);
  // Postings of both layouts in one source, under the same key once rekeyed.
  const std::string merged_mixed = dir.path() + "/merged-mixed";
  {
    auto dest = store::Database::open(merged_mixed, {store::OpenMode::ReadWrite});
    ASSERT_TRUE(dest) << dest.error().message;
    auto report = store::merge_databases(**dest, {mixed});
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_EQ(report->stored, first.size() + second.size());
  }
  EXPECT_EQ(answers(merged_mixed), want);
}

// A database written before the material index: it opens, a material
// search replays its games, `db upgrade` builds the index and `db check`
// verifies it.
TEST(MaterialIndex, OlderDatabaseOpensAndUpgrades) {
  TempDir dir;
  const std::string path = dir.path() + "/db";
  std::vector<game::GameRecord> records = records_from_pgn(kVirreyPgn, Variant::Virrey);
  for (auto& r : generated(Variant::Virrey, 5, 120)) records.push_back(std::move(r));
  store_records(path, records, true);
  ASSERT_TRUE(store::testing::drop_material_index(path));

  auto spec = query::parse_material_spec("V>=1 vs V=0");
  ASSERT_TRUE(spec);
  query::GameFilter f;
  f.material = MaterialCondition{*spec, true, 2};
  std::vector<query::GameMatch> before;
  {
    auto db = store::Database::open(path, {store::OpenMode::ReadOnly});
    ASSERT_TRUE(db) << db.error().message;
    EXPECT_FALSE((*db)->has_material_index());
    auto info = (*db)->info();
    ASSERT_TRUE(info);
    for (const auto& fam : info->families) EXPECT_NE(fam.name, "material");
    auto m = query::find_matches(**db, f);
    ASSERT_TRUE(m) << m.error().message;
    before = *m;
    EXPECT_FALSE(before.empty());
    auto plan = query::explain_plan(**db, f);
    ASSERT_TRUE(plan);
    EXPECT_NE(plan->find("replay"), std::string::npos) << *plan;
  }
  auto up = store::upgrade_database(path);
  ASSERT_TRUE(up) << up.error().message;
  EXPECT_TRUE(up->material_index);
  EXPECT_EQ(up->games, records.size());
  auto db = store::Database::open(path, {store::OpenMode::ReadOnly});
  ASSERT_TRUE(db) << db.error().message;
  EXPECT_TRUE((*db)->has_material_index());
  auto after = query::find_matches(**db, f);
  ASSERT_TRUE(after);
  ASSERT_EQ(after->size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ((*after)[i].id, before[i].id);
    EXPECT_EQ((*after)[i].ply, before[i].ply);
  }
  auto plan = query::explain_plan(**db, f);
  ASSERT_TRUE(plan);
  EXPECT_NE(plan->find("material: "), std::string::npos) << *plan;  // read from the index
  EXPECT_EQ(plan->find("replay"), std::string::npos) << *plan;
  auto check = store::check_database(**db);
  ASSERT_TRUE(check);
  EXPECT_EQ(check->problem_count, 0u) << (check->problems.empty() ? "" : check->problems[0]);
}

// --- the spec's text ------------------------------------------------------------------

Material balance(std::string_view w, std::string_view b) {
  Material m;
  for (int side = 0; side < 2; ++side)
    for (char ch : side == 0 ? w : b) {
      const Color c = side == 0 ? Color::White : Color::Black;
      m.set(c, piece_type_from_letter(ch), m.count(c, piece_type_from_letter(ch)) + 1);
    }
  return m;
}

TEST(MaterialSpecText, PlainFormIsExact) {
  auto s = query::parse_material_spec("KVR-KR");
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->exact());
  EXPECT_EQ(s->exact()->to_string(), "KVR-KR");
  EXPECT_EQ(query::parse_material_spec("qppk-vk")->exact()->to_string(), "KQPP-KV");
  EXPECT_EQ(query::parse_material_spec("KVR vs KR")->exact()->to_string(), "KVR-KR");
  EXPECT_FALSE(query::parse_material_spec("V>=1")->exact());
}

TEST(MaterialSpecText, TermsAreBoundsPerSide) {
  auto s = query::parse_material_spec("Q=0 V>=1 vs Q=1");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->matches(balance("KVR", "KQ")));
  EXPECT_TRUE(s->matches(balance("KVVPP", "KQN")));
  EXPECT_FALSE(s->matches(balance("KQV", "KQ")));
  EXPECT_FALSE(s->matches(balance("KR", "KQ")));
  EXPECT_FALSE(s->matches(balance("KV", "KQQ")));
  auto r = query::parse_material_spec("P=2-3 B+N>=2");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->matches(balance("KBNPP", "K")));
  EXPECT_FALSE(r->matches(balance("KBPP", "K")));
  EXPECT_FALSE(r->matches(balance("KBNPPPP", "K")));
}

TEST(MaterialSpecText, ErrorsNameTheColumn) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"KVX-KR", "column 3:"},
      {"KR-KR-K", "column 6:"},
      {"V>=", "column 4:"},
      {"V=>2", "column 3:"},
      {"Q=0 vs V vs Q", "column 10:"},
      {"V>=2 3", "column 6:"},
      {"P=4-2", "column 1:"},
      {"Q=1 Q=2", "column 5:"},
      {"", "column 1:"},
      {"KK-K", "column 1:"},
      {"B+>=2", "column 2:"},
      {"V<0", "column 1:"},
      {"V>=2x", "column 5:"},
      // Negative counts, and counts beyond an int.
      {"P=-3", "column 3:"},
      {"R<=-1", "column 4:"},
      {"R=-2-1", "column 3:"},
      {"B+N=-1", "column 5:"},
      {"R=1--2", "column 5:"},
      {"Q>=+1", "column 4:"},
      {"P=99999999999", "column 3:"},
  };
  for (const auto& [text, where] : cases) {
    auto s = query::parse_material_spec(text);
    ASSERT_FALSE(s) << text;
    EXPECT_EQ(s.error().message.rfind(where, 0), 0u) << text << ": " << s.error().message;
  }
}

TEST(MaterialVerdict, StretchesAcrossMatchingRuns) {
  auto spec = query::parse_material_spec("V>=1");
  ASSERT_TRUE(spec);
  MaterialCondition c{*spec, false, 4};
  std::vector<query::MaterialRun> runs = {
      {balance("KP", "K"), 0, 3}, {balance("KVP", "K"), 3, 2}, {balance("KV", "K"), 5, 1}};
  EXPECT_EQ(query::material_verdict(c, runs), std::optional<std::uint32_t>{});  // 3 plies only
  runs.back().plies = 2;
  EXPECT_EQ(query::material_verdict(c, runs), std::optional<std::uint32_t>{3});
  // A gap (a run the index does not list) breaks the stretch.
  std::vector<query::MaterialRun> gap = {{balance("KVP", "K"), 3, 2}, {balance("KV", "K"), 6, 2}};
  EXPECT_EQ(query::material_verdict(c, gap), std::optional<std::uint32_t>{});
}

}  // namespace
}  // namespace virrey::testing
