#include "position_tree_builder.hpp"

#include <algorithm>
#include <cstring>

#include "ingest_group.hpp"

namespace virrey::store {

namespace {

std::size_t slot_hash(const Key<12>& k) {
  return std::size_t((get_be(k.data() + 1, 8) ^ get_be(k.data() + 9, 3)) * 0x9e3779b97f4a7c15ULL >> 20);
}

}  // namespace

TreeCounters& PositionTreeBuilder::counters_of(const Key<12>& key) {
  if (2 * (counters_.size() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = slot_hash(key) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.entry == 0) {
      counters_.push_back({key, {}});
      s.key = key;
      s.entry = std::uint32_t(counters_.size());
      return counters_.back().second;
    }
    if (s.key == key) return counters_[s.entry - 1].second;
  }
}

void PositionTreeBuilder::grow() {
  slots_.assign(std::max<std::size_t>(slots_.size() * 2, 4096), Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t e = 0; e < counters_.size(); ++e) {
    std::size_t i = slot_hash(counters_[e].first) & mask;
    while (slots_[i].entry != 0) i = (i + 1) & mask;
    slots_[i] = {counters_[e].first, std::uint32_t(e + 1)};
  }
}

void PositionTreeBuilder::add(GameId id, const GameIndex& ix) {
  for (const PositionEntry& p : ix.positions) postings_.add(ix.variant, p.hash, id);
  for (const TreeEntry& t : ix.tree) counters_of(tree_key(ix.variant, t.hash, t.move)).add(ix.counters);
}

std::size_t PositionTreeBuilder::bytes() const {
  return postings_.bytes() + slots_.size() * sizeof(Slot) + counters_.capacity() * sizeof(counters_[0]);
}

void PositionTreeBuilder::write(IngestGroup& group) {
  postings_.write(group);
  // In key order, so that the group's tree run needs no sorting.
  std::sort(counters_.begin(), counters_.end(), [](const auto& a, const auto& b) {
    return std::memcmp(a.first.data(), b.first.data(), a.first.size()) < 0;
  });
  for (const auto& [key, c] : counters_) group.merge(Family::Tree, view(key), encode_tree_counters(c));
  counters_.clear();
  std::fill(slots_.begin(), slots_.end(), Slot{});
}

}  // namespace virrey::store
