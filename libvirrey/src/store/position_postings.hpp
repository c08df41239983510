// The values of the position index (keys.hpp: positions): the games of one
// import segment whose positions fall into one hash bucket.
//
//   value = count (varint) | k (1 byte) | f (1 byte) | bits
//   bits  = per posting, by game id: Rice_k(game - previous game), where the
//           first posting's previous game is the key's first game, then the
//           f-bit fingerprint: the f hash bits below the bucket's bits.
//
// The writer picks k from the mean gap and f as the bit width of the count,
// so that a lookup meets between half a stray fingerprint and one per value
// of 8 postings or more (a value of n postings matches a position it does
// not hold n / 2^f times on average), and a lookup reads a value per import
// segment. Strays are cheap to dismiss: for an endgame position search first
// compares its men with the men a game ends with (game_summary.hpp), which
// rules out most strays, and every other stray costs a replay that stops
// once fewer men are left than the position has.
// Each fingerprint bit costs a tenth of the index or so. The layout is
// frozen with the schema version; f is stored in each value, so readers take
// any width.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "huge_page_allocator.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/schema.hpp"

namespace virrey::store {

class IngestGroup;

constexpr int kMinFingerprintBits = 4;
constexpr int kMaxFingerprintBits = 64 - kPositionBucketBits;  // the bits below the bucket

struct Posting {
  GameId game = 0;
  std::uint64_t fingerprint = 0;  // `bits` wide
};

// The f-bit fingerprint of a hash.
std::uint64_t position_fingerprint(std::uint64_t hash, int bits);

// Postings sorted by game, none before `first`, fingerprints `bits` wide.
std::string encode_postings(GameId first, const std::vector<Posting>& postings, int bits);

// Visits the postings of a value in order; false when the value does not
// decode (or the visitor stops: `stopped` tells which).
struct DecodedPosting {
  GameId game;
  std::uint64_t fingerprint;
  int bits;
};
bool decode_postings(std::string_view value, GameId first,
                     const std::function<bool(const DecodedPosting&)>& visit, bool* stopped = nullptr);

// Gathers the positions of an import group, game by game in id order, and
// writes them as postings, one value per variant and bucket.
class PostingsBuilder {
 public:
  void add(Variant v, std::uint64_t hash, GameId game);
  std::size_t bytes() const;
  void write(IngestGroup& group);  // then starts empty

 private:
  // The hashes as added, and which game each run of them belongs to.
  struct Run {
    GameId game;
    std::uint32_t count;
  };
  struct Gathered {
    std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> hashes;
    std::vector<Run> runs;
  };
  // A posting sorted into its bucket: the game and the hash's 32 bits under
  // the bucket's, the widest fingerprint a writer uses.
  struct Sorted {
    GameId game;
    std::uint32_t below;
  };
  std::array<Gathered, kVariantCount> gathered_;
};

}  // namespace virrey::store
