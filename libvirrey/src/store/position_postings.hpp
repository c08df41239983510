// The values of the position index (keys.hpp: positions): the games of one
// import segment whose positions fall into one hash bucket.
//
//   value = count (varint) | k (1 byte) | f (1 byte) | bits
//   bits  = per posting, by game id: Rice_k(game - previous game), where the
//           first posting's previous game is the key's first game, then the
//           f-bit fingerprint: the f hash bits below the bucket's bits.
//
// The writer picks k from the mean gap and f from the postings the whole
// bucket holds once the value is in: the bit width of the variant's position
// entries (this value's segment included) over the buckets, or of the
// value's own count when that is larger. A value of n postings matches a
// position it does not hold n / 2^f times on average, so a value written
// when the bucket held N postings adds between n / 2N and n / N strays, and
// a lookup over all the values of a bucket meets about 3/4 (ln(values) + 1/2)
// strays in all, whether one import or many built the database: 3 for 50
// values, 6 for 1,000 (about 20 million games). As wide as the value's own
// count only, fingerprints would add up to a stray per value, and strays
// would grow with the collection. f grows by a bit each time the collection
// doubles; each bit costs about a twentieth of the index (the bench
// database's, 1.39 million games in some 50 segments a variant, is 23 %
// larger than with widths from the count alone, and meets 3 strays, not 46).
//
// A lookup reads a value per import segment. Strays are cheap to dismiss:
// for an endgame position search first compares its men with the men a game
// ends with (game_summary.hpp), which rules out most strays, and every other
// stray costs a replay that stops once fewer men are left than the position
// has. The layout is frozen with the schema version; f is stored in each
// value, so readers take any width.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bit_stream.hpp"
#include "huge_page_allocator.hpp"
#include "varint.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/schema.hpp"

namespace virrey::store {

class IngestGroup;

constexpr int kMinFingerprintBits = 4;
constexpr int kMaxFingerprintBits = 64 - kPositionBucketBits;  // the bits below the bucket
constexpr int kWrittenFingerprintBits = 32;                    // the widest a writer uses
static_assert(kWrittenFingerprintBits <= kMaxFingerprintBits);

struct Posting {
  GameId game = 0;
  std::uint64_t fingerprint = 0;  // `bits` wide
};

// The f-bit fingerprint of a hash.
std::uint64_t position_fingerprint(std::uint64_t hash, int bits);

// The fingerprint width of a value of `count` postings written when the
// database holds `variant_positions` position entries of the value's
// variant, the value's own included.
int fingerprint_bits(std::uint64_t count, std::uint64_t variant_positions);

// Postings sorted by game, none before `first`, fingerprints `bits` wide.
std::string encode_postings(GameId first, const std::vector<Posting>& postings, int bits);
// The same, appended to out (a writer reuses one buffer for its values).
void append_postings(std::string& out, GameId first, const std::vector<Posting>& postings, int bits);

// Visits the postings of a value in order; false when the value does not
// decode (or the visitor stops: `stopped` tells which). Inline, with the
// visitor a template: a lookup runs it over every posting of a bucket.
struct DecodedPosting {
  GameId game;
  std::uint64_t fingerprint;
  int bits;
};
template <class Visit>  // bool(const DecodedPosting&)
bool decode_postings(std::string_view value, GameId first, Visit&& visit, bool* stopped = nullptr) {
  if (stopped) *stopped = false;
  ByteReader header(value);
  const std::uint64_t count = header.varint();
  const int k = header.byte();
  const int bits = header.byte();
  if (!header.ok() || k > 32 || bits < 1 || bits > kMaxFingerprintBits || count == 0) return false;
  // Every posting takes at least 1 + bits bits.
  const std::string_view rest = value.substr(header.position());
  if (count > rest.size() * 8 / std::uint64_t(1 + bits)) return false;
  BitReader r(rest);
  std::uint64_t game = first;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t fingerprint = 0;
    game += r.rice_then_bits(k, bits, fingerprint);
    if (!r.ok() || game > 0xffffffffu) return false;
    if (!visit(DecodedPosting{GameId(game), fingerprint, bits})) {
      if (stopped) *stopped = true;
      return false;
    }
  }
  return true;
}

// Gathers the positions of an import group, game by game in id order, and
// writes them as postings, one value per variant and bucket.
class PostingsBuilder {
 public:
  void add(Variant v, std::uint64_t hash, GameId game);
  std::size_t bytes() const;
  // Then starts empty; `counts`: the database's, once the group is in.
  void write(IngestGroup& group, const std::array<VariantCounts, kVariantCount>& counts);

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
