// The material index's runs (material_postings.hpp): golden bytes, round
// trips of random runs and of values of several runs, the merge operator
// that joins an import's runs, and values that must not decode.
#include <gtest/gtest.h>

#include <rocksdb/merge_operator.h>

#include <random>

#include "material_postings.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {
namespace {

std::vector<MaterialHit> decode_all(std::string_view value, GameId first, bool& ok) {
  std::vector<MaterialHit> out;
  ok = decode_material_postings(value, first, [&](const MaterialHit& h) {
    out.push_back(h);
    return true;
  });
  return out;
}

bool same(const std::vector<MaterialHit>& a, const std::vector<MaterialHit>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const MaterialHit& x, const MaterialHit& y) {
    return x.game == y.game && x.first_ply == y.first_ply && x.plies == y.plies;
  });
}

// Games after `after`, each with a first ply and plies drawn like a game's.
std::vector<MaterialHit> random_hits(std::mt19937_64& rng, GameId after, std::size_t n, std::uint32_t spread) {
  std::vector<MaterialHit> hits;
  GameId game = after;
  for (std::size_t i = 0; i < n; ++i) {
    game += 1 + GameId(rng() % spread);
    hits.push_back({game, std::uint32_t(rng() % 300), std::uint32_t(1 + rng() % (rng() % 8 == 0 ? 200 : 6))});
  }
  return hits;
}

TEST(MaterialRuns, GoldenBytes) {
  std::string one;
  encode_material_run(one, 10, std::vector<MaterialHit>{{12, 5, 3}});
  // n 1, first game 10 + 2, first ply 5, plies 3.
  EXPECT_EQ(one, std::string("\x01\x02\x05\x03", 4));
  // Games 10, 11, 14: gaps 1 and 3 coded as 0 and 2; first plies 2, 3, 2
  // (least 2: 0, 1, 0); plies 1, 1, 2 (less one: 0, 0, 1). Every Rice
  // parameter 0: 0 -> "0", 1 -> "10", 2 -> "110", written from the least
  // significant bit: 0 0 | 0 10 0 | 110 0 10 = bits 000100110010.
  std::string three;
  encode_material_run(three, 10, std::vector<MaterialHit>{{10, 2, 1}, {11, 3, 1}, {14, 2, 2}});
  EXPECT_EQ(three, std::string("\x03\x00\x00\x00\x00\x02\xc8\x04", 8));
  bool ok = false;
  const auto d = decode_all(three, 10, ok);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(same(d, {{10, 2, 1}, {11, 3, 1}, {14, 2, 2}}));
}

TEST(MaterialRuns, RandomRunsAndValuesOfSeveralRunsRoundTrip) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 400; ++round) {
    const GameId first = GameId(1 + rng() % 1000000);
    std::vector<MaterialHit> all;
    std::string value;
    GameId after = first - 1;
    const int runs = 1 + int(rng() % 4);
    for (int r = 0; r < runs; ++r) {
      const std::size_t n = 1 + rng() % (rng() % 3 == 0 ? 2 : 300);
      const auto hits = random_hits(rng, after + GameId(rng() % 100000), n, round % 2 ? 3 : 5000);
      encode_material_run(value, first, hits);
      all.insert(all.end(), hits.begin(), hits.end());
      after = hits.back().game;
    }
    bool ok = false;
    const auto d = decode_all(value, first, ok);
    ASSERT_TRUE(ok) << round;
    EXPECT_TRUE(same(d, all)) << round;
  }
}

TEST(MaterialRuns, MalformedValuesDoNotDecode) {
  bool ok = true;
  std::string three;
  encode_material_run(three, 10, std::vector<MaterialHit>{{10, 2, 1}, {11, 3, 1}, {14, 2, 2}});
  for (const std::string& v :
       {std::string(), std::string("\x00\x00", 2), std::string("\x01\x00\x05", 3),
        std::string("\x03\x00\x20\x00\x00\x02\xc8\x04", 8), three.substr(0, three.size() - 1),
        std::string("\x02\x00\x05\x03", 4), std::string("\xff\xff\xff\xff\x0f\x00", 6),
        std::string("\x03\x00\x00\x00\x00\x02", 6) + std::string(64, '\xff')}) {
    decode_all(v, 10, ok);
    EXPECT_FALSE(ok) << v.size();
  }
  // Game ids past 2^32 - 1.
  std::string big;
  encode_material_run(big, 0xfffffff0u, std::vector<MaterialHit>{{0xfffffff0u, 1, 1}, {0xffffffffu, 1, 1}});
  decode_all(big, 0xfffffff0u, ok);
  EXPECT_TRUE(ok);
  decode_all(big, 0xfffffffau, ok);
  EXPECT_FALSE(ok);
}

TEST(MaterialRuns, RandomBytesNeverReadOutOfBounds) {
  // Run under AddressSanitizer in CI: any read past a value's end fails.
  std::mt19937_64 rng(5);
  std::size_t decoded = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string v(rng() % 24, '\0');
    for (char& c : v) c = char(rng());
    if (v.size() >= 5 && rng() % 2) v[0] = char(1 + rng() % 6), v[2] = char(rng() % 4), v[3] = char(rng() % 4), v[4] = char(rng() % 4);
    GameId last = 0;
    bool ordered = true;
    decoded += decode_material_postings(v, GameId(rng() % 1000), [&](const MaterialHit& h) {
      ordered &= h.game >= last;
      last = h.game;
      return true;
    });
    EXPECT_TRUE(ordered);
  }
  EXPECT_GT(decoded, 0u);  // some random values are well formed
}

TEST(MaterialRuns, StoppingIsNotCorruption) {
  std::string v;
  encode_material_run(v, 1, std::vector<MaterialHit>{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}});
  bool stopped = false;
  int seen = 0;
  EXPECT_FALSE(decode_material_postings(
      v, 1, [&](const MaterialHit&) { return ++seen < 2; }, &stopped));
  EXPECT_TRUE(stopped);
  EXPECT_EQ(seen, 2);
}

TEST(MaterialRuns, TheLayoutBeforeRunsDecodesAsBefore) {
  std::string v;
  append_material_posting(v, 7, {7, 4, 2});
  append_material_posting(v, 7, {9, 30, 1});
  EXPECT_EQ(v, std::string("\x00\x04\x02\x02\x1e\x01", 6));
  std::vector<MaterialHit> got;
  EXPECT_TRUE(decode_material_postings(
      v, 7, [&](const MaterialHit& h) { return got.push_back(h), true; }, nullptr, false));
  EXPECT_TRUE(same(got, {{7, 4, 2}, {9, 30, 1}}));
}

// What RocksDB asks of the merge operator: the runs of one key, oldest first,
// joined into a value that decodes to all their games in order; small ones
// re-coded as one run (smaller than the runs side by side), large ones
// joined as they are.
TEST(MaterialRuns, TheMergeOperatorJoinsAnImportsRuns) {
  const auto op = make_material_merge_operator();
  const Key<14> key = material_postings_key(Variant::Virrey, 0x11, 1000);
  const rocksdb::Slice key_slice(key.data(), key.size());
  std::mt19937_64 rng(17);
  for (std::size_t per_run : {1u, 2u, 40u, 9000u}) {
    std::vector<std::string> runs;
    std::vector<MaterialHit> all;
    GameId after = 999;
    for (int r = 0; r < 5; ++r) {
      const auto hits = random_hits(rng, after, per_run, 50);
      runs.emplace_back();
      encode_material_run(runs.back(), 1000, hits);
      all.insert(all.end(), hits.begin(), hits.end());
      after = hits.back().game + 10;
    }
    std::size_t joined_bytes = 0;
    for (const auto& r : runs) joined_bytes += r.size();
    // Full merge: the first run as the existing value, the rest as operands.
    const rocksdb::Slice existing(runs[0]);
    std::vector<rocksdb::Slice> operands(runs.begin() + 1, runs.end());
    std::string full;
    rocksdb::Slice unused;
    rocksdb::MergeOperator::MergeOperationOutput out(full, unused);
    ASSERT_TRUE(op->FullMergeV2(rocksdb::MergeOperator::MergeOperationInput(key_slice, &existing, operands, nullptr),
                                &out));
    // Partial merge: every run an operand.
    std::string partial;
    const std::deque<rocksdb::Slice> all_operands(runs.begin(), runs.end());
    ASSERT_TRUE(op->PartialMergeMulti(key_slice, all_operands, &partial, nullptr));
    for (const std::string* v : {&full, &partial}) {
      bool ok = false;
      EXPECT_TRUE(same(decode_all(*v, 1000, ok), all)) << per_run;
      EXPECT_TRUE(ok);
      if (joined_bytes <= (64 << 10))
        EXPECT_LT(v->size(), joined_bytes) << per_run;
      else
        EXPECT_EQ(v->size(), joined_bytes) << per_run;
    }
  }
}

}  // namespace
}  // namespace virrey::store
