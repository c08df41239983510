#include "virrey/importers/memory_source.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace virrey::importers {

MemorySource::MemorySource(std::string data, std::string name, std::size_t max_chunk)
    : data_(std::move(data)), name_(std::move(name)), max_chunk_(std::max<std::size_t>(max_chunk, 1)) {}

ReadResult MemorySource::read(std::span<char> buffer) {
  const std::size_t n = std::min({buffer.size(), max_chunk_, data_.size() - pos_});
  if (n > 0) std::memcpy(buffer.data(), data_.data() + pos_, n);
  pos_ += n;
  return {n, {}};
}

}  // namespace virrey::importers
