// LEB128 varints and length-prefixed strings: the byte helpers of every value
// codec of the store. Reading is bounds-checked; a failed read sets `ok`
// false and returns zero values from then on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace virrey::store {

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += char((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += char(v);
}

inline void put_bytes(std::string& out, std::string_view s) {
  put_varint(out, s.size());
  out += s;
}

class ByteReader {
 public:
  explicit ByteReader(std::string_view data) : data_(data) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ >= data_.size(); }
  std::size_t position() const { return pos_; }

  std::uint8_t byte() {
    if (pos_ >= data_.size()) return fail();
    return std::uint8_t(data_[pos_++]);
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= data_.size()) return fail();
      const auto b = std::uint8_t(data_[pos_++]);
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return fail();
  }
  std::string_view bytes() {
    const std::uint64_t n = varint();
    if (!ok_ || n > data_.size() - pos_) return fail(), std::string_view{};
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  std::uint8_t fail() {
    ok_ = false;
    pos_ = data_.size();
    return 0;
  }
  std::string_view data_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace virrey::store
