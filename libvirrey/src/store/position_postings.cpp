#include "position_postings.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "bit_stream.hpp"
#include "ingest_group.hpp"
#include "varint.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

std::uint64_t position_fingerprint(std::uint64_t hash, int bits) {
  const int below = kMaxFingerprintBits - bits;
  return (hash >> below) & ((std::uint64_t(1) << bits) - 1);
}

int fingerprint_bits(std::uint64_t count, std::uint64_t variant_positions) {
  const std::uint64_t bucket = std::max(count, variant_positions >> kPositionBucketBits);
  return std::clamp(int(std::bit_width(bucket)), kMinFingerprintBits, kWrittenFingerprintBits);
}

void append_postings(std::string& out, GameId first, const std::vector<Posting>& postings, int bits) {
  const std::uint64_t span = postings.empty() ? 0 : postings.back().game - first;
  const std::uint64_t mean_gap = span / std::max<std::size_t>(postings.size(), 1);
  const int k = mean_gap == 0 ? 0 : std::bit_width(mean_gap) - 1;
  // Room for the header and for the codes at their mean length: a gap's low
  // k bits, its quotient in unary (about two bits) and the fingerprint.
  out.reserve(out.size() + 12 + postings.size() * std::size_t(k + 2 + bits) / 8);
  put_varint(out, postings.size());
  out += char(k);
  out += char(bits);
  BitWriter w(out);
  GameId previous = first;
  for (const Posting& p : postings) {
    w.rice(p.game - previous, k);
    w.bits(p.fingerprint, bits);
    previous = p.game;
  }
}

std::string encode_postings(GameId first, const std::vector<Posting>& postings, int bits) {
  std::string out;
  append_postings(out, first, postings, bits);
  return out;
}

void PostingsBuilder::add(Variant v, std::uint64_t hash, GameId game) {
  Gathered& g = gathered_[std::size_t(v)];
  if (g.runs.empty() || g.runs.back().game != game) g.runs.push_back({game, 0});
  ++g.runs.back().count;
  g.hashes.push_back(hash);
}

std::size_t PostingsBuilder::bytes() const {
  std::size_t n = 0;
  for (const Gathered& g : gathered_)
    n += g.hashes.size() * (sizeof(std::uint64_t) + sizeof(Sorted)) + g.runs.size() * sizeof(Run);
  return n;
}

void PostingsBuilder::write(IngestGroup& group, const std::array<VariantCounts, kVariantCount>& counts) {
  constexpr std::size_t kBuckets = std::size_t(1) << kPositionBucketBits;
  constexpr int kBelowBits = kWrittenFingerprintBits;  // of the hash under the bucket
  std::vector<std::uint32_t> start(kBuckets + 1);
  std::vector<Posting> postings;
  std::string value;
  for (int vi = 0; vi < kVariantCount; ++vi) {
    Gathered& g = gathered_[std::size_t(vi)];
    if (g.hashes.empty()) continue;
    // A stable counting sort by bucket keeps each bucket in game order.
    std::fill(start.begin(), start.end(), 0);
    for (std::uint64_t h : g.hashes) ++start[position_bucket(h) + 1];
    for (std::size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
    std::vector<Sorted, HugePageAllocator<Sorted>> sorted(g.hashes.size());
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    std::size_t i = 0;
    for (const Run& run : g.runs)
      for (std::uint32_t c = 0; c < run.count; ++c, ++i) {
        const std::uint64_t h = g.hashes[i];
        sorted[next[position_bucket(h)]++] = {run.game, std::uint32_t(position_fingerprint(h, kBelowBits))};
      }

    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::uint32_t lo = start[b], hi = start[b + 1];
      if (lo == hi) continue;
      const int bits = fingerprint_bits(hi - lo, counts[std::size_t(vi)].positions);
      postings.clear();
      for (std::uint32_t j = lo; j < hi; ++j)
        postings.push_back({sorted[j].game, sorted[j].below >> (kBelowBits - bits)});
      const GameId first = sorted[lo].game;
      const std::uint64_t bucket_hash = std::uint64_t(b) << (64 - kPositionBucketBits);
      value.clear();
      append_postings(value, first, postings, bits);
      group.put(Family::Positions, view(position_key(Variant(vi), bucket_hash, first)), value);
    }
    g.hashes.clear();
    g.runs.clear();
  }
}

}  // namespace virrey::store
