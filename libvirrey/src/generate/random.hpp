// The generator's own PRNG: xoshiro256** seeded through splitmix64, and
// integer ranges by multiply-shift. Written out here (not std::*_distribution)
// so that a seed gives the same games with every compiler and library.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace virrey::generate {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A hash of several words, for deriving independent streams (per game,
// tournament, player) from the user's seed.
constexpr std::uint64_t mix_words(std::initializer_list<std::uint64_t> words) {
  std::uint64_t state = 0x5649525245594745ULL;  // "VIRREYGE"
  std::uint64_t h = 0;
  for (std::uint64_t w : words) {
    state ^= w;
    h = splitmix64(state);
    state = h;
  }
  return h;
}

class Random {
 public:
  explicit Random(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform-enough in [0, n) for n > 0 (multiply-shift; the bias is 2^-32 at most).
  std::uint32_t below(std::uint32_t n) { return std::uint32_t(((next() >> 32) * std::uint64_t(n)) >> 32); }
  int range(int lo, int hi) { return lo + int(below(std::uint32_t(hi - lo + 1))); }  // [lo, hi]
  // True with probability per_mille / 1000.
  bool chance(std::uint32_t per_mille) { return below(1000) < per_mille; }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace virrey::generate
