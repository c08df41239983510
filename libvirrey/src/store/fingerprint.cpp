// Input fingerprints: two 64-bit multiply-rotate lanes over the file's 8-byte
// words, finished with the length and the default variant.
#include "virrey/store/fingerprint.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

namespace virrey::store {

namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int r) { return x << r | x >> (64 - r); }

constexpr std::uint64_t avalanche(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct Lanes {
  std::uint64_t a = 0x736f6d6570736575ULL, b = 0x646f72616e646f6dULL;
  void word(std::uint64_t w) {
    a = rotl(a ^ w, 29) * 0x9e3779b97f4a7c15ULL;
    b = rotl(b + w, 31) * 0xc2b2ae3d27d4eb4fULL;
  }
};

}  // namespace

Result<Fingerprint> fingerprint_file(const std::string& path, Variant default_variant) {
  if (path == "-") return Error{ErrorKind::InvalidArgument, "standard input has no fingerprint"};
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return Error{ErrorKind::Io, fmt::format("cannot read {}: {}", path, std::strerror(errno))};
  Lanes lanes;
  std::vector<char> buf(std::size_t(1) << 20);
  std::uint64_t length = 0;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) {
    length += n;
    const std::size_t words = n / 8;
    for (std::size_t i = 0; i < words; ++i) {
      std::uint64_t w;
      std::memcpy(&w, buf.data() + 8 * i, 8);
      lanes.word(w);
    }
    // Only the last read of a file can end off a word boundary (full reads are 1 MiB).
    std::uint64_t tail = 0;
    std::memcpy(&tail, buf.data() + 8 * words, n - 8 * words);
    if (n % 8) lanes.word(tail);
  }
  if (std::ferror(f.get()))
    return Error{ErrorKind::Io, fmt::format("cannot read {}: {}", path, std::strerror(errno))};
  lanes.word(length);
  lanes.word(std::uint64_t(default_variant));
  const std::uint64_t hi = avalanche(lanes.a ^ rotl(lanes.b, 17));
  const std::uint64_t lo = avalanche(lanes.b ^ rotl(lanes.a, 41) ^ length);
  Fingerprint fp{};
  for (int i = 0; i < 8; ++i) {
    fp[std::size_t(i)] = std::uint8_t(hi >> (56 - 8 * i));
    fp[std::size_t(8 + i)] = std::uint8_t(lo >> (56 - 8 * i));
  }
  return fp;
}

std::string fingerprint_hex(const Fingerprint& fp) {
  std::string s;
  for (std::uint8_t b : fp) s += fmt::format("{:02x}", b);
  return s;
}

}  // namespace virrey::store
