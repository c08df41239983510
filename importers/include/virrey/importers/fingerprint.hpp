// Content fingerprints of inputs, so that importing the same file again (under
// any name) is recognised. The fingerprint is part of the database format
// (imported inputs are stored by it): its algorithm is frozen.
//
// Algorithm: the raw bytes as stored (compressed inputs hashed compressed)
// are cut into 8-byte words read in host byte order, the last one padded with
// zero bytes; two lanes a = 0x736f6d6570736575, b = 0x646f72616e646f6d take
// each word w as a = rotl(a ^ w, 29) * 0x9e3779b97f4a7c15 and
// b = rotl(b + w, 31) * 0xc2b2ae3d27d4eb4f; then the length in bytes and the
// salt (virrey passes the default variant's number) are taken as two more
// words; hi = avalanche(a ^ rotl(b, 17)), lo = avalanche(b ^ rotl(a, 41) ^
// length) with splitmix64's finaliser; the 16 bytes are hi then lo, big endian.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

using Fingerprint = std::array<std::uint8_t, 16>;

// Hashes a stream of bytes given in chunks of any size.
class FingerprintHasher {
 public:
  void update(std::span<const char> bytes);
  Fingerprint finish(std::uint64_t salt) const;
  std::uint64_t length() const { return length_; }

 private:
  void word(std::uint64_t w);
  std::uint64_t a_ = 0x736f6d6570736575ULL, b_ = 0x646f72616e646f6dULL;
  std::uint64_t length_ = 0;
  char pending_[8] = {};  // the bytes of a word not yet complete
  std::size_t pending_size_ = 0;
};

Fingerprint fingerprint_bytes(std::span<const char> bytes, std::uint64_t salt);
std::string fingerprint_hex(const Fingerprint& fp);

// A cheap stand-in for the fingerprint, known once the first block is read:
// the input's size (0 when not a regular file) and the hash of its first
// kProbeBytes bytes (with the same salt). Equal inputs have equal probes; an
// equal probe is confirmed by the whole fingerprint.
inline constexpr std::size_t kProbeBytes = std::size_t(64) << 10;
struct InputProbe {
  std::uint64_t size = 0;
  std::uint64_t head = 0;
  friend bool operator==(const InputProbe&, const InputProbe&) = default;
};

// An input opened for reading (decompressed like open_input does) whose raw
// bytes are hashed as they are read, so that reading it gives its
// fingerprint without a second pass.
class HashedInput {
 public:
  // Opens `path` ("-": standard input) and reads its first block for the probe.
  static HashedInput open(std::string_view path, std::uint64_t salt);
  // The same over any raw byte stream.
  static HashedInput wrap(std::unique_ptr<ByteSource> raw, std::uint64_t salt);

  HashedInput(HashedInput&&) noexcept;
  HashedInput& operator=(HashedInput&&) noexcept;
  ~HashedInput();

  explicit operator bool() const noexcept { return source_ != nullptr; }
  const std::string& error() const { return error_; }  // why it did not open
  ByteSource& source() { return *source_; }            // the decompressed bytes
  const InputProbe& probe() const { return probe_; }

  // Reads what the reader left of the raw bytes, hashing only (nothing is
  // decompressed), and returns the fingerprint; nullopt, with `error` set,
  // when reading fails.
  std::optional<Fingerprint> finish(std::string& error);
  // Raw bytes read from the input so far.
  std::uint64_t raw_bytes() const;

 private:
  class Hashing;
  HashedInput() = default;
  std::unique_ptr<ByteSource> source_;
  Hashing* hashing_ = nullptr;  // inside source_'s chain
  InputProbe probe_;
  std::uint64_t salt_ = 0;
  std::string error_;
};

}  // namespace virrey::importers
