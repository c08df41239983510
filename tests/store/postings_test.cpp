// The position index's postings (position_postings.hpp): golden bytes, round
// trips over random lists, and values that must not decode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "bit_stream.hpp"
#include "position_postings.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {
namespace {

std::vector<DecodedPosting> decode_all(std::string_view value, GameId first, bool& ok) {
  std::vector<DecodedPosting> out;
  ok = decode_postings(value, first, [&](const DecodedPosting& p) {
    out.push_back(p);
    return true;
  });
  return out;
}

TEST(Postings, GoldenBytes) {
  // Games 10, 11, 14 after first 10: gaps 0, 1, 3; mean gap 4/3 -> k = 0.
  // Rice_0: 0 -> "0", 1 -> "10", 3 -> "1110"; fingerprints 4 bits each.
  const std::string v = encode_postings(10, {{10, 0x5}, {11, 0xa}, {14, 0xf}}, 4);
  // Header: count 3, k 0, f 4. Then, first written lowest:
  //   0 1010 | 10 0101 | 1110 1111  (fingerprints least significant bit first)
  // = bytes 0b0010'1010, 0b1011'1101, 0b0000'0111.
  EXPECT_EQ(v, std::string("\x03\x00\x04\x2a\xbd\x07", 6));
  bool ok = false;
  const auto d = decode_all(v, 10, ok);
  ASSERT_TRUE(ok);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[2].game, 14u);
  EXPECT_EQ(d[2].fingerprint, 0xfu);
}

TEST(Postings, FingerprintIsTheBitsBelowTheBucket) {
  const std::uint64_t hash =
      0xfffc'0000'0000'0000ULL | 0x0002'8000'0000'0000ULL;  // bucket all ones, then 101
  EXPECT_EQ(position_bucket(hash), 0x3fffu);
  EXPECT_EQ(position_fingerprint(hash, 3), 0b101u);
  EXPECT_EQ(position_fingerprint(hash, 4), 0b1010u);
  EXPECT_EQ(position_fingerprint(~0ULL, kMaxFingerprintBits), (1ULL << kMaxFingerprintBits) - 1);
}

TEST(Postings, RandomListsRoundTrip) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    const int bits = int(rng() % kMaxFingerprintBits) + 1;
    const GameId first = GameId(rng() % 1000000);
    const std::size_t n = 1 + rng() % 400;
    const std::uint64_t spread = std::uint64_t(1) << (rng() % 24);
    std::vector<Posting> postings;
    GameId g = first;
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) g += GameId(rng() % spread);
      postings.push_back({g, rng() & ((std::uint64_t(1) << bits) - 1)});
    }
    const std::string v = encode_postings(first, postings, bits);
    bool ok = false;
    const auto d = decode_all(v, first, ok);
    ASSERT_TRUE(ok) << "round " << round;
    ASSERT_EQ(d.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(d[i].game, postings[i].game);
      EXPECT_EQ(d[i].fingerprint, postings[i].fingerprint);
      EXPECT_EQ(d[i].bits, bits);
    }
    // Every shorter value fails, none reads past its end.
    for (std::size_t cut = 0; cut < v.size(); cut += 1 + v.size() / 16) {
      const std::string shorter = v.substr(0, cut);
      decode_all(shorter, first, ok);
      EXPECT_FALSE(ok) << "round " << round << " cut " << cut;
    }
  }
}

TEST(Postings, MalformedValuesDoNotDecode) {
  bool ok = true;
  for (const std::string& v : {std::string(), std::string("\x00\x00\x04", 3), std::string("\x01\x00\x00", 3),
                               std::string("\x01\x00\x40\xff", 4), std::string("\x01\x30\x04\x00", 4),
                               std::string("\xff\xff\xff\xff\x0f\x00\x04\x00", 8),
                               std::string("\x01\x00\x04", 3) + std::string(64, '\xff')}) {
    decode_all(v, 1, ok);
    EXPECT_FALSE(ok) << v.size();
  }
  // Game ids past 2^32 - 1.
  const std::string big = encode_postings(0xfffffff0u, {{0xfffffff0u, 1}, {0xffffffffu, 1}}, 4);
  decode_all(big, 0xfffffff0u, ok);
  EXPECT_TRUE(ok);
  decode_all(big, 0xfffffffau, ok);
  EXPECT_FALSE(ok);
}

TEST(Postings, RandomBytesNeverReadOutOfBounds) {
  // Run under AddressSanitizer in CI: any read past a value's end fails.
  std::mt19937_64 rng(3);
  std::size_t decoded = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string v(rng() % 24, '\0');
    for (char& c : v) c = char(rng());
    if (v.size() >= 3 && rng() % 2) v[1] = char(rng() % 33), v[2] = char(1 + rng() % kMaxFingerprintBits);
    GameId last = 0;
    bool ordered = true;
    decoded += decode_postings(v, GameId(rng()), [&](const DecodedPosting& p) {
      ordered &= p.game >= last;
      last = p.game;
      return p.bits >= 1 && p.bits <= kMaxFingerprintBits;
    });
    EXPECT_TRUE(ordered);
  }
  EXPECT_GT(decoded, 0u);  // some random values are well formed
}

TEST(Postings, StoppingIsNotCorruption) {
  const std::string v = encode_postings(1, {{1, 1}, {2, 1}, {3, 1}}, 4);
  bool stopped = false;
  int seen = 0;
  EXPECT_FALSE(decode_postings(
      v, 1, [&](const DecodedPosting&) { return ++seen < 2; }, &stopped));
  EXPECT_TRUE(stopped);
  EXPECT_EQ(seen, 2);
}

// One bucket of a collection growing by segments of n postings of random
// hashes, each value written with the width the writer picks for it; the
// mean number of postings of all values a lookup of an absent position
// matches. `by_count_only`: widths from each value's own count, as if the
// collection held that segment alone.
double mean_strays(int segments, std::uint64_t n, bool by_count_only, std::mt19937_64& rng) {
  struct Value {
    int bits;
    std::vector<std::uint64_t> fingerprints;
  };
  std::vector<Value> values;
  for (int s = 1; s <= segments; ++s) {
    const std::uint64_t variant_positions = by_count_only ? n : (std::uint64_t(s) * n) << kPositionBucketBits;
    Value v{fingerprint_bits(n, variant_positions), {}};
    for (std::uint64_t i = 0; i < n; ++i) v.fingerprints.push_back(position_fingerprint(rng(), v.bits));
    values.push_back(std::move(v));
  }
  constexpr int kLookups = 400;
  std::uint64_t strays = 0;
  for (int l = 0; l < kLookups; ++l) {
    const std::uint64_t hash = rng();
    for (const Value& v : values) {
      const std::uint64_t want = position_fingerprint(hash, v.bits);
      strays += std::uint64_t(std::count(v.fingerprints.begin(), v.fingerprints.end(), want));
    }
  }
  return double(strays) / kLookups;
}

TEST(Postings, StraysGrowWithTheLogarithmOfTheSegmentsRead) {
  std::mt19937_64 rng(11);
  // A segment of about 25,000 games puts ~120 postings into each bucket.
  const double few = mean_strays(50, 120, false, rng);
  const double many = mean_strays(1000, 120, false, rng);
  // Each value adds at most n / N strays, N the bucket's postings once it is
  // in: the harmonic sum, at most 1 + ln(segments).
  EXPECT_LE(few, 1 + std::log(50.0));
  EXPECT_LE(many, 1 + std::log(1000.0));
  EXPECT_GT(many, 1.0);  // and not nothing: fingerprints stay short
  // Twenty times the segments, well under twice the strays.
  EXPECT_LT(many, 2 * few);
  // Widths from each value's own count: a stray per two to one value read.
  const double own = mean_strays(1000, 120, true, rng);
  EXPECT_GT(own, 400.0);
  EXPECT_LT(own, 1100.0);
}

TEST(Postings, FingerprintWidthFollowsTheCollection) {
  // Bit widths of the bucket's share (positions / 2^14), or of the count.
  EXPECT_EQ(fingerprint_bits(1, 0), kMinFingerprintBits);
  EXPECT_EQ(fingerprint_bits(120, 120), 7);                                // 120 < 128
  EXPECT_EQ(fingerprint_bits(120, 128ull << kPositionBucketBits), 8);      // 128
  EXPECT_EQ(fingerprint_bits(120, 100000ull << kPositionBucketBits), 17);  // 65,536 <= 100,000 < 131,072
  EXPECT_EQ(fingerprint_bits(5000, 10ull << kPositionBucketBits), 13);     // the count is larger
  EXPECT_EQ(fingerprint_bits(1, ~0ull), kWrittenFingerprintBits);
}

TEST(BitStream, RiceCodesOfLongRuns) {
  std::string out;
  {
    BitWriter w(out);
    w.rice(1000, 0);
    w.rice(5, 2);
    w.bits(0x2a, 6);
  }
  BitReader r(out);
  EXPECT_EQ(r.rice(0), 1000u);
  EXPECT_EQ(r.rice(2), 5u);
  EXPECT_EQ(r.bits(6), 0x2au);
  EXPECT_TRUE(r.ok());
  r.bits(40);
  EXPECT_FALSE(r.ok());
}

// The writer against a plain one written here, a bit at a time (least
// significant bit first within each byte), over random mixes of fields and
// Rice codes of every width, with flushes between them.
TEST(BitStream, MatchesAPlainBitAtATimeWriter) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    std::string out;
    std::vector<bool> plain;
    auto pad = [&] {
      while (plain.size() % 8) plain.push_back(false);
    };
    {
      BitWriter w(out);
      for (int i = 0; i < 300; ++i) {
        const std::uint64_t value = rng() >> (rng() % 64);
        switch (rng() % 5) {
          case 0: {  // a field of up to 56 bits
            const int bits = int(rng() % 57);
            w.bits(value, bits);
            for (int b = 0; b < bits; ++b) plain.push_back(value >> b & 1);
            break;
          }
          case 4:
            if (rng() % 8 == 0) {
              w.flush();
              pad();
              break;
            }
            [[fallthrough]];
          default: {  // a Rice code, its quotient mostly short
            const int k = int(rng() % 33);
            const std::uint64_t v = (value % (std::uint64_t(1) << std::min(k + int(rng() % 8), 40)));
            w.rice(v, k);
            for (std::uint64_t q = v >> k; q > 0; --q) plain.push_back(true);
            plain.push_back(false);
            for (int b = 0; b < k; ++b) plain.push_back(v >> b & 1);
          }
        }
      }
    }
    pad();
    std::string expected(plain.size() / 8, '\0');
    for (std::size_t b = 0; b < plain.size(); ++b)
      if (plain[b]) expected[b / 8] = char(expected[b / 8] | 1 << (b % 8));
    ASSERT_EQ(out, expected) << "round " << round;
  }
}

// The reader against a plain one written here, a bit at a time, over random
// bytes read as random mixes of fields and Rice codes, to the end and past
// it: the same values, the same failure, the same bytes read.
TEST(BitStream, ReaderMatchesAPlainBitAtATimeReader) {
  struct Plain {
    std::string_view data;
    std::size_t pos = 0;  // in bits
    bool ok = true;
    bool bit(bool& fine) {
      if (!ok || pos >= data.size() * 8) return fine = ok = false;
      const bool b = std::uint8_t(data[pos / 8]) >> (pos % 8) & 1;
      ++pos;
      return b;
    }
    std::uint64_t bits(int n) {
      if (n == 0) return 0;
      if (pos + std::size_t(n) > data.size() * 8) ok = false;
      if (!ok) return pos = data.size() * 8, 0;
      std::uint64_t v = 0;
      bool fine = true;
      for (int b = 0; b < n; ++b) v |= std::uint64_t(bit(fine)) << b;
      return v;
    }
    std::uint64_t rice(int k) {
      std::uint64_t q = 0;
      bool fine = true;
      while (bit(fine)) ++q;
      if (!fine) return pos = data.size() * 8, 0;
      return q << k | bits(k);
    }
    std::size_t bytes_read() const { return (pos + 7) / 8; }
  };
  std::mt19937_64 rng(11);
  for (int round = 0; round < 500; ++round) {
    std::string data(rng() % 64, '\0');
    const int density = int(rng() % 3);  // mostly ones makes long unary runs
    for (char& c : data) c = char(density == 0 ? rng() : (rng() | rng()) | (density == 2 ? rng() : 0));
    BitReader r(data);
    Plain p{data};
    for (int i = 0; i < 80; ++i) {
      const int kind = int(rng() % 3);
      if (kind == 0) {
        const int n = int(rng() % 57);
        ASSERT_EQ(r.bits(n), p.bits(n)) << "round " << round << " read " << i;
      } else if (kind == 1) {  // a posting: a gap, then a fingerprint
        const int k = int(rng() % 33), n = 1 + int(rng() % 48);
        std::uint64_t field = 0;
        const std::uint64_t gap = p.rice(k);
        ASSERT_EQ(r.rice_then_bits(k, n, field), gap) << "round " << round << " read " << i;
        ASSERT_EQ(field, p.bits(n)) << "round " << round << " read " << i;
      } else {
        const int k = int(rng() % 33);
        ASSERT_EQ(r.rice(k), p.rice(k)) << "round " << round << " read " << i;
      }
      ASSERT_EQ(r.ok(), p.ok) << "round " << round << " read " << i;
      ASSERT_EQ(r.bytes_read(), p.bytes_read()) << "round " << round << " read " << i;
    }
  }
}

}  // namespace
}  // namespace virrey::store
