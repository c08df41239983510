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
  if (2 * (used_ + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = slot_hash(key) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (!s.used) {
      s.used = true;
      s.key = key;
      s.counters = {};
      ++used_;
      return s.counters;
    }
    if (s.key == key) return s.counters;
  }
}

void PositionTreeBuilder::grow() {
  std::vector<Slot> old(std::max<std::size_t>(slots_.size() * 2, 4096));
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.used) continue;
    std::size_t i = slot_hash(s.key) & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void PositionTreeBuilder::add(GameId id, const GameIndex& ix) {
  for (const PositionEntry& p : ix.positions) postings_.add(ix.variant, p.hash, id);
  for (const TreeEntry& t : ix.tree) counters_of(tree_key(ix.variant, t.hash, t.move)).add(ix.counters);
}

std::size_t PositionTreeBuilder::bytes() const { return postings_.bytes() + slots_.size() * sizeof(Slot); }

void PositionTreeBuilder::write(IngestGroup& group) {
  postings_.write(group);
  // In key order, so that the group's tree run needs no sorting.
  std::vector<const Slot*> order;
  order.reserve(used_);
  for (const Slot& s : slots_)
    if (s.used) order.push_back(&s);
  std::sort(order.begin(), order.end(),
            [](const Slot* a, const Slot* b) { return std::memcmp(a->key.data(), b->key.data(), a->key.size()) < 0; });
  for (const Slot* s : order) group.merge(Family::Tree, view(s->key), encode_tree_counters(s->counters));
  for (Slot& s : slots_) s.used = false;
  used_ = 0;
}

}  // namespace virrey::store
