// What tests of input fingerprints share: the fingerprint computed the way
// importers/fingerprint.hpp describes it, over the whole input at once (an
// independent check of the streaming hasher), and a gzip compressor.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "virrey/importers/fingerprint.hpp"

namespace virrey::testing {

inline importers::Fingerprint reference_fingerprint(const std::string& bytes, std::uint64_t salt) {
  auto rotl = [](std::uint64_t x, int r) { return x << r | x >> (64 - r); };
  auto avalanche = [](std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  std::uint64_t a = 0x736f6d6570736575ULL, b = 0x646f72616e646f6dULL;
  auto take = [&](std::uint64_t w) {
    a = rotl(a ^ w, 29) * 0x9e3779b97f4a7c15ULL;
    b = rotl(b + w, 31) * 0xc2b2ae3d27d4eb4fULL;
  };
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes.data() + i, std::min<std::size_t>(8, bytes.size() - i));
    take(w);
  }
  const std::uint64_t length = bytes.size();
  take(length);
  take(salt);
  const std::uint64_t hi = avalanche(a ^ rotl(b, 17)), lo = avalanche(b ^ rotl(a, 41) ^ length);
  importers::Fingerprint fp{};
  for (int i = 0; i < 8; ++i) {
    fp[std::size_t(i)] = std::uint8_t(hi >> (56 - 8 * i));
    fp[std::size_t(8 + i)] = std::uint8_t(lo >> (56 - 8 * i));
  }
  return fp;
}

// A gzip member of `data`.
inline std::string gzip(std::string_view data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, uLong(data.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = uInt(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace virrey::testing
