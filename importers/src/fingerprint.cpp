#include "virrey/importers/fingerprint.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "file_source.hpp"
#include "prefixed_source.hpp"
#include "virrey/importers/open_input.hpp"

namespace virrey::importers {

namespace {

constexpr std::uint64_t rotl(std::uint64_t x, int r) { return x << r | x >> (64 - r); }

constexpr std::uint64_t avalanche(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

inline void FingerprintHasher::word(std::uint64_t w) {
  a_ = rotl(a_ ^ w, 29) * 0x9e3779b97f4a7c15ULL;
  b_ = rotl(b_ + w, 31) * 0xc2b2ae3d27d4eb4fULL;
}

void FingerprintHasher::update(std::span<const char> bytes) {
  if (bytes.empty()) return;  // (an empty span's data() may be null: no memcpy from it)
  length_ += bytes.size();
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  if (pending_size_ > 0) {
    const std::size_t take = std::min(n, sizeof pending_ - pending_size_);
    std::memcpy(pending_ + pending_size_, p, take);
    pending_size_ += take;
    p += take;
    n -= take;
    if (pending_size_ < sizeof pending_) return;
    std::uint64_t w;
    std::memcpy(&w, pending_, 8);
    word(w);
    pending_size_ = 0;
  }
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    word(w);
  }
  std::memcpy(pending_, p, n);
  pending_size_ = n;
}

Fingerprint FingerprintHasher::finish(std::uint64_t salt) const {
  FingerprintHasher h = *this;
  if (h.pending_size_ > 0) {
    std::uint64_t tail = 0;
    std::memcpy(&tail, h.pending_, h.pending_size_);
    h.word(tail);
  }
  h.word(length_);
  h.word(salt);
  const std::uint64_t hi = avalanche(h.a_ ^ rotl(h.b_, 17));
  const std::uint64_t lo = avalanche(h.b_ ^ rotl(h.a_, 41) ^ length_);
  Fingerprint fp{};
  for (int i = 0; i < 8; ++i) {
    fp[std::size_t(i)] = std::uint8_t(hi >> (56 - 8 * i));
    fp[std::size_t(8 + i)] = std::uint8_t(lo >> (56 - 8 * i));
  }
  return fp;
}

Fingerprint fingerprint_bytes(std::span<const char> bytes, std::uint64_t salt) {
  FingerprintHasher h;
  h.update(bytes);
  return h.finish(salt);
}

std::string fingerprint_hex(const Fingerprint& fp) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : fp) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

// Passes a raw stream through, hashing every byte read from it.
class HashedInput::Hashing final : public ByteSource {
 public:
  explicit Hashing(std::unique_ptr<ByteSource> raw) : raw_(std::move(raw)) {}

  ReadResult read(std::span<char> buffer) override {
    ReadResult r = raw_->read(buffer);
    if (r.size > 0)
      hasher_.update({buffer.data(), r.size});
    else if (r.ok())
      ended_ = true;
    return r;
  }
  std::string_view name() const override { return raw_->name(); }
  std::uint64_t raw_bytes_read() const override { return raw_->raw_bytes_read(); }
  std::uint64_t raw_size() const override { return raw_->raw_size(); }

  const FingerprintHasher& hasher() const { return hasher_; }
  bool ended() const { return ended_; }

 private:
  std::unique_ptr<ByteSource> raw_;
  FingerprintHasher hasher_;
  bool ended_ = false;
};

HashedInput::HashedInput(HashedInput&&) noexcept = default;
HashedInput& HashedInput::operator=(HashedInput&&) noexcept = default;
HashedInput::~HashedInput() = default;

HashedInput HashedInput::open(std::string_view path, std::uint64_t salt) {
  std::string error;
  std::unique_ptr<FileSource> file = FileSource::open(path, error);
  if (!file) {
    HashedInput in;
    in.error_ = std::move(error);
    return in;
  }
  return wrap(std::move(file), salt);
}

HashedInput HashedInput::wrap(std::unique_ptr<ByteSource> raw, std::uint64_t salt) {
  HashedInput in;
  in.salt_ = salt;
  const std::uint64_t size = raw->raw_size();
  auto hashing = std::make_unique<Hashing>(std::move(raw));
  in.hashing_ = hashing.get();
  // The first block, for the probe; given back to the reader. A read error
  // stays with the source and reaches the reader after the block.
  std::string head(kProbeBytes, '\0');
  std::size_t filled = 0;
  while (filled < head.size()) {
    ReadResult r = hashing->read({head.data() + filled, head.size() - filled});
    if (r.size == 0) break;
    filled += r.size;
  }
  head.resize(filled);
  in.probe_.size = size;
  const Fingerprint h = fingerprint_bytes(head, salt);
  for (int i = 0; i < 8; ++i) in.probe_.head = in.probe_.head << 8 | h[std::size_t(i)];
  OpenResult opened = decompressing(std::make_unique<PrefixedSource>(std::move(head), std::move(hashing)));
  if (!opened) {
    in.hashing_ = nullptr;
    in.error_ = std::move(opened.error);
    return in;
  }
  in.source_ = std::move(opened.source);
  return in;
}

std::optional<Fingerprint> HashedInput::finish(std::string& error) {
  if (!hashing_) {
    error = error_;
    return std::nullopt;
  }
  std::vector<char> buf(std::size_t(1) << 20);
  while (!hashing_->ended()) {
    ReadResult r = hashing_->read(buf);
    if (!r.ok()) {
      error = std::move(r.error);
      return std::nullopt;
    }
  }
  return hashing_->hasher().finish(salt_);
}

std::uint64_t HashedInput::raw_bytes() const { return hashing_ ? hashing_->hasher().length() : 0; }

}  // namespace virrey::importers
