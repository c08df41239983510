// Bit-level writing and reading, least significant bit first within each
// byte, with Rice codes: the coding of the position index's postings.
// Reading is bounds-checked: past the end, or on a unary run longer than the
// data, `ok` turns false and zeros are returned from then on.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace virrey::store {

class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  ~BitWriter() { flush(); }
  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;

  // The low `bits` bits of value (bits <= 56).
  void bits(std::uint64_t value, int bits) {
    if (bits == 0) return;
    acc_ |= (value & ((std::uint64_t(1) << bits) - 1)) << fill_;
    fill_ += bits;
    while (fill_ >= 8) {
      out_ += char(acc_ & 0xff);
      acc_ >>= 8;
      fill_ -= 8;
    }
  }
  // value >> k in unary (ones ended by a zero), then its low k bits.
  void rice(std::uint64_t value, int k) {
    for (std::uint64_t q = value >> k; q > 0;) {
      const int run = q > 32 ? 32 : int(q);
      bits((std::uint64_t(1) << run) - 1, run);
      q -= std::uint64_t(run);
    }
    bits(0, 1);
    bits(value, k);
  }
  // Writes the last partial byte, zero-padded.
  void flush() {
    if (fill_ > 0) out_ += char(acc_ & 0xff);
    acc_ = 0;
    fill_ = 0;
  }

 private:
  std::string& out_;
  std::uint64_t acc_ = 0;
  int fill_ = 0;
};

class BitReader {
 public:
  explicit BitReader(std::string_view data) : data_(data) {}
  bool ok() const { return ok_; }

  std::uint64_t bits(int bits) {
    if (bits == 0) return 0;
    if (!refill(bits)) return 0;
    const std::uint64_t v = acc_ & ((std::uint64_t(1) << bits) - 1);
    acc_ >>= bits;
    fill_ -= bits;
    return v;
  }
  // Whole bytes read so far, the partly read one included.
  std::size_t bytes_read() const { return pos_ - std::size_t(fill_ / 8); }
  std::uint64_t rice(int k) {
    std::uint64_t q = 0;
    for (;;) {
      if (!refill(1)) return 0;
      const int ones = std::countr_one(acc_);
      if (ones < fill_) {
        q += std::uint64_t(ones);
        acc_ >>= ones + 1;
        fill_ -= ones + 1;
        break;
      }
      q += std::uint64_t(fill_);
      acc_ = 0;
      fill_ = 0;
    }
    if (q > (std::uint64_t(1) << 40)) return fail();
    return q << k | bits(k);
  }

 private:
  // At least `need` bits in the accumulator (need <= 56).
  bool refill(int need) {
    while (fill_ < need) {
      if (pos_ >= data_.size()) return fail(), false;
      acc_ |= std::uint64_t(std::uint8_t(data_[pos_++])) << fill_;
      fill_ += 8;
    }
    return ok_;
  }
  std::uint64_t fail() {
    ok_ = false;
    pos_ = data_.size();
    acc_ = 0;
    fill_ = 0;
    return 0;
  }

  std::string_view data_;
  std::size_t pos_ = 0;
  std::uint64_t acc_ = 0;
  int fill_ = 0;
  bool ok_ = true;
};

}  // namespace virrey::store
