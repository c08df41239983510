// MemorySource: a ByteSource over bytes held in memory. Used by tests (a small
// `max_chunk` forces every chunk boundary) and by callers that already hold
// the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string data, std::string name = "<memory>",
                        std::size_t max_chunk = std::numeric_limits<std::size_t>::max());

  ReadResult read(std::span<char> buffer) override;
  std::string_view name() const override { return name_; }
  std::uint64_t raw_bytes_read() const override { return pos_; }
  std::uint64_t raw_size() const override { return data_.size(); }

 private:
  std::string data_;
  std::string name_;
  std::size_t max_chunk_;
  std::size_t pos_ = 0;
};

}  // namespace virrey::importers
