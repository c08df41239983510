#include "position_tree_builder.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

#include "ingest_group.hpp"

namespace virrey::store {

namespace {

std::uint64_t key_hash(const TreeKey& k) {
  return (get_be(k.data() + 1, kTreeHashBytes) ^ get_be(k.data() + 1 + kTreeHashBytes, 3)) *
         0x9e3779b97f4a7c15ULL;
}

}  // namespace

void PositionTreeBuilder::Entry::add(const TreeCounters& c) {
  games += std::uint32_t(c.games);
  white_wins += std::uint32_t(c.white_wins);
  draws += std::uint32_t(c.draws);
  black_wins += std::uint32_t(c.black_wins);
  white_elo_games += std::uint32_t(c.white_elo_games);
  black_elo_games += std::uint32_t(c.black_elo_games);
  last_date = std::max(last_date, c.last_date);
  white_elo_sum += c.white_elo_sum;
  black_elo_sum += c.black_elo_sum;
}

TreeCounters PositionTreeBuilder::Entry::counters() const {
  return {games,           white_wins,    draws,           black_wins, white_elo_sum,
          white_elo_games, black_elo_sum, black_elo_games, last_date};
}

PositionTreeBuilder::Entry& PositionTreeBuilder::entry_of(const TreeKey& key) {
  if (2 * (entries_.size() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t h = key_hash(key);
  const auto tag = std::uint32_t(h);  // the bits below the slot's
  for (std::size_t i = std::size_t(h >> 32) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.entry == 0) {
      entries_.push_back({key});
      s = {tag, std::uint32_t(entries_.size())};
      return entries_.back();
    }
    if (s.tag == tag && entries_[s.entry - 1].key == key) return entries_[s.entry - 1];
  }
}

void PositionTreeBuilder::grow() {
  slots_.assign(std::max<std::size_t>(slots_.size() * 2, 4096), Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    const std::uint64_t h = key_hash(entries_[e].key);
    std::size_t i = std::size_t(h >> 32) & mask;
    while (slots_[i].entry != 0) i = (i + 1) & mask;
    slots_[i] = {std::uint32_t(h), std::uint32_t(e + 1)};
  }
}

void PositionTreeBuilder::add(GameId id, const GameIndex& ix) {
  for (const PositionEntry& p : ix.positions) postings_.add(ix.variant, p.hash, id);
  for (const TreeEntry& t : ix.tree) entry_of(tree_key(ix.variant, t.hash, t.move)).add(ix.counters);
}

std::size_t PositionTreeBuilder::bytes() const {
  // What the group's entries take as they grow (vector and index about
  // half full), not what stays allocated between groups: else one group of
  // many tree entries would leave every later group over its bound.
  return postings_.bytes() + entries_.size() * 2 * (sizeof(Entry) + sizeof(Slot));
}

void PositionTreeBuilder::write(IngestGroup& group, const std::array<VariantCounts, kVariantCount>& counts) {
  // The postings beside the tree (families of their own in the group).
  std::jthread postings([&] { postings_.write(group, counts); });
  // In key order, so that the group's tree run needs no sorting.
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return std::memcmp(a.key.data(), b.key.data(), a.key.size()) < 0;
  });
  for (const Entry& e : entries_) group.merge(Family::Tree, view(e.key), encode_tree_counters(e.counters()));
  if (entries_.capacity() * sizeof(Entry) + slots_.size() * sizeof(Slot) > kIngestGroupBytes / 2) {
    entries_ = {};  // an outsized group's memory is not kept for the next
    slots_ = {};
  } else {
    entries_.clear();
    std::fill(slots_.begin(), slots_.end(), Slot{});
  }
}

}  // namespace virrey::store
