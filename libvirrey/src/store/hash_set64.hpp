// A set of 64-bit hashes: open addressing, linear probing, at most half
// full. For the many small or large sets of position and game hashes that
// indexing keeps, where a node per element would cost more than the work.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace virrey::store {

class HashSet64 {
 public:
  explicit HashSet64(std::size_t expected = 0) { rebuild(capacity_for(expected)); }

  // Empties the set for about `expected` values, keeping its memory unless
  // that is far more than needed. Only the slots of that many values are
  // cleared: a set kept from a long game costs a short one nothing.
  void reset(std::size_t expected) {
    const std::size_t capacity = capacity_for(expected);
    if (slots_.capacity() > 16 * capacity)
      slots_ = std::vector<std::uint64_t>(capacity, kEmpty);  // assign() would keep a huge buffer
    else
      slots_.assign(capacity, kEmpty);
    size_ = 0;
    has_empty_ = false;
  }

  // True when the value was not in the set.
  bool insert(std::uint64_t v) {
    if (v == kEmpty) return !std::exchange(has_empty_, true);
    if (2 * (size_ + 1) > slots_.size()) rebuild(slots_.size() * 2);
    std::uint64_t* slot = find(v);
    if (*slot == v) return false;
    *slot = v;
    ++size_;
    return true;
  }
  bool contains(std::uint64_t v) const {
    if (v == kEmpty) return has_empty_;
    return *const_cast<HashSet64*>(this)->find(v) == v;
  }

 private:
  static constexpr std::uint64_t kEmpty = 0;
  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 64;
    while (c < 2 * n) c *= 2;
    return c;
  }
  // The slot holding v, or the empty slot where it would go.
  std::uint64_t* find(std::uint64_t v) {
    const std::size_t mask = slots_.size() - 1;
    // Hashes are random already; the multiply only spreads other values.
    for (std::size_t i = std::size_t(v * 0x9e3779b97f4a7c15ULL >> 17) & mask;; i = (i + 1) & mask)
      if (slots_[i] == v || slots_[i] == kEmpty) return &slots_[i];
  }
  void rebuild(std::size_t capacity) {
    std::vector<std::uint64_t> old(capacity, kEmpty);
    old.swap(slots_);
    for (std::uint64_t v : old)
      if (v != kEmpty) *find(v) = v;
  }

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
  bool has_empty_ = false;
};

}  // namespace virrey::store
