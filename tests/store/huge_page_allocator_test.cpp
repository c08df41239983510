// HugePageAllocator: large blocks freed are handed out again (their pages
// mapped already), with their contents intact while held, and containers on
// it behave as on the ordinary heap.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "huge_page_allocator.hpp"

namespace virrey::store {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

TEST(HugePageAllocator, FreedBlocksAreReused) {
  huge_pages::release_kept();
  void* a = huge_pages::allocate(8 * kMiB);
  std::memset(a, 0x5a, 8 * kMiB);
  void* b = huge_pages::allocate(8 * kMiB);
  EXPECT_NE(a, b);
  huge_pages::deallocate(a, 8 * kMiB);
  // Up to the kept block's size, and no less than half of it: a again.
  void* c = huge_pages::allocate(6 * kMiB);
#if defined(__linux__) && !defined(VIRREY_ASAN)
  EXPECT_EQ(c, a);
#endif
  std::memset(c, 0x11, 6 * kMiB);
  // Larger than any kept block, or far smaller: not a kept block.
  huge_pages::deallocate(b, 8 * kMiB);
  void* d = huge_pages::allocate(20 * kMiB);
  EXPECT_NE(d, b);
  std::memset(d, 0x22, 20 * kMiB);
  huge_pages::deallocate(c, 6 * kMiB);
  huge_pages::deallocate(d, 20 * kMiB);
  huge_pages::release_kept();
  // Small blocks come from the heap.
  void* small = huge_pages::allocate(100);
  std::memset(small, 0, 100);
  huge_pages::deallocate(small, 100);
}

TEST(HugePageAllocator, VectorsGrowAndKeepTheirValues) {
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> a, b;
  for (std::uint64_t i = 0; i < 3'000'000; ++i) {
    a.push_back(i * 3);
    if (i % 2 == 0) b.push_back(i);
  }
  for (std::uint64_t i = 0; i < a.size(); i += 997) ASSERT_EQ(a[i], i * 3);
  for (std::uint64_t i = 0; i < b.size(); i += 991) ASSERT_EQ(b[i], 2 * i);
  a.clear();
  a.shrink_to_fit();
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> c(2'000'000, 7);
  EXPECT_EQ(c.front(), 7u);
  EXPECT_EQ(c.back(), 7u);
  EXPECT_EQ(b[1'499'999], 2'999'998u);
  huge_pages::release_kept();
}

}  // namespace
}  // namespace virrey::store
