#include "prefixed_source.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace virrey::importers {

PrefixedSource::PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> rest)
    : prefix_(std::move(prefix)), rest_(std::move(rest)) {}

ReadResult PrefixedSource::read(std::span<char> buffer) {
  if (prefix_pos_ < prefix_.size() && !buffer.empty()) {
    const std::size_t n = std::min(buffer.size(), prefix_.size() - prefix_pos_);
    std::memcpy(buffer.data(), prefix_.data() + prefix_pos_, n);
    prefix_pos_ += n;
    return {n, {}};
  }
  return rest_->read(buffer);
}

}  // namespace virrey::importers
