// Bit-level writing and reading, least significant bit first within each
// byte, with Rice codes: the coding of the position index's postings.
// Reading is bounds-checked: past the end, or on a unary run longer than the
// data, `ok` turns false and zeros are returned from then on.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace virrey::store {

// Writes to the end of a string; the string holds the bits once the writer
// is flushed or destroyed (until then it may hold room beyond them).
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out), pos_(out.size()) {}
  ~BitWriter() { flush(); }
  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;

  // The low `bits` bits of value (bits <= 56). Whole 32-bit words go out at
  // once, straight into the string: an import writes hundreds of millions
  // of codes.
  void bits(std::uint64_t value, int bits) {
    if (bits > 32) {
      word(value, 32);
      value >>= 32;
      bits -= 32;
    }
    word(value, bits);
  }
  // value >> k in unary (ones ended by a zero), then its low k bits.
  void rice(std::uint64_t value, int k) {
    const std::uint64_t q = value >> k;
    if (q + 1 + std::uint64_t(k) <= 32) {  // the usual short code, in one word
      const std::uint64_t low = value & ((std::uint64_t(1) << k) - 1);
      word(((std::uint64_t(1) << q) - 1) | low << (q + 1), int(q) + 1 + k);
    } else {
      long_rice(value, k);
    }
  }
  // Writes the last partial bytes, the last one zero-padded; the string then
  // ends with them.
  void flush() {
    out_.resize(pos_);
    for (int written = 0; written < fill_; written += 8, acc_ >>= 8) out_ += char(acc_ & 0xff);
    pos_ = out_.size();
    acc_ = 0;
    fill_ = 0;
  }

 private:
  // At most 32 bits; fill_ stays under 32 between calls, so they fit.
  void word(std::uint64_t value, int bits) {
    if (bits == 0) return;
    acc_ |= (value & ((std::uint64_t(1) << bits) - 1)) << fill_;
    fill_ += bits;
    if (fill_ >= 32) {
      if (pos_ + 4 > out_.size()) grow();
      char* p = out_.data() + pos_;
      p[0] = char(acc_ & 0xff);
      p[1] = char(acc_ >> 8 & 0xff);
      p[2] = char(acc_ >> 16 & 0xff);
      p[3] = char(acc_ >> 24 & 0xff);
      pos_ += 4;
      acc_ >>= 32;
      fill_ -= 32;
    }
  }
  [[gnu::noinline]] void grow() { out_.resize(std::max<std::size_t>(2 * out_.size(), pos_ + 64)); }
  [[gnu::noinline]] void long_rice(std::uint64_t value, int k) {
    for (std::uint64_t left = value >> k; left > 0;) {
      const int run = left > 32 ? 32 : int(left);
      word((std::uint64_t(1) << run) - 1, run);
      left -= std::uint64_t(run);
    }
    word(0, 1);
    bits(value, k);
  }

  std::string& out_;
  std::size_t pos_;  // the bytes written so far end here
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
  // A Rice code then a field of `bits` bits, as rice(k) then bits(bits) read
  // them; in one refill when both fit in it, as they mostly do (a posting).
  std::uint64_t rice_then_bits(int k, int bits, std::uint64_t& field) {
    top_up();
    const int ones = std::countr_one(acc_);
    const int length = ones + 1 + k + bits;  // all under the 63 bits at most filled
    if (length <= fill_) {
      const std::uint64_t rest = acc_ >> (ones + 1);
      const std::uint64_t low = rest & ((std::uint64_t(1) << k) - 1);
      field = (rest >> k) & ((std::uint64_t(1) << bits) - 1);
      acc_ >>= length;
      fill_ -= length;
      return std::uint64_t(ones) << k | low;
    }
    const std::uint64_t value = rice(k);
    field = this->bits(bits);
    return value;
  }
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
  // At least `need` bits in the accumulator (need <= 56). With eight bytes
  // left it loads a whole word: the bytes it takes in full count, and the
  // bits of the next one above them are that byte's own, so taking it in
  // again later ORs the same bits (a lookup decodes tens of thousands of
  // postings a bucket on a large collection).
  bool refill(int need) {
    if (fill_ >= need) return ok_;
    if (pos_ + 8 <= data_.size()) {
      std::uint64_t word = 0;
      if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&word, data_.data() + pos_, 8);
      } else {
        for (int i = 7; i >= 0; --i) word = word << 8 | std::uint8_t(data_[pos_ + std::size_t(i)]);
      }
      acc_ |= word << fill_;
      pos_ += std::size_t(63 - fill_) >> 3;
      fill_ |= 56;
      return ok_;
    }
    while (fill_ < need) {
      if (pos_ >= data_.size()) return fail(), false;
      acc_ |= std::uint64_t(std::uint8_t(data_[pos_++])) << fill_;
      fill_ += 8;
    }
    return ok_;
  }
  // As many bits as fit, without failing at the end of the data.
  void top_up() {
    if (pos_ + 8 <= data_.size()) {
      refill(56);
      return;
    }
    while (fill_ < 56 && pos_ < data_.size()) {
      acc_ |= std::uint64_t(std::uint8_t(data_[pos_++])) << fill_;
      fill_ += 8;
    }
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
