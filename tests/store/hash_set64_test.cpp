// HashSet64: membership through growth, zero (the empty slot's mark)
// included, against std::set.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "hash_set64.hpp"

namespace virrey::store {
namespace {

TEST(HashSet64, AgreesWithStdSet) {
  std::mt19937_64 rng(5);
  HashSet64 set;
  std::set<std::uint64_t> expected;
  for (int i = 0; i < 20000; ++i) {
    // Few distinct small values (repeats, zero) and random ones.
    const std::uint64_t v = i % 3 == 0 ? rng() % 50 : rng();
    EXPECT_EQ(set.insert(v), expected.insert(v).second) << v;
  }
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t v = i % 2 ? rng() % 100 : rng();
    EXPECT_EQ(set.contains(v), expected.count(v) > 0) << v;
  }
  EXPECT_TRUE(set.contains(0));
  EXPECT_FALSE(HashSet64(10).contains(0));
}

// A set reset for the next game holds nothing of the last one, whether it
// keeps its table (small to small, large to smaller) or not (huge to small,
// small to huge).
TEST(HashSet64, ResetEmptiesIt) {
  std::mt19937_64 rng(9);
  HashSet64 set;
  for (std::size_t n : {100, 80, 100000, 50, 3000, 500, 3000}) {
    set.reset(n);
    std::set<std::uint64_t> expected;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t v = i % 5 == 0 ? rng() % 20 : rng();
      EXPECT_EQ(set.insert(v), expected.insert(v).second) << v;
    }
    for (std::uint64_t v : expected) EXPECT_TRUE(set.contains(v));
    set.reset(n);
    for (std::uint64_t v : expected) EXPECT_FALSE(set.contains(v)) << v;
  }
}

}  // namespace
}  // namespace virrey::store
