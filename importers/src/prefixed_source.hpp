// PrefixedSource: gives back bytes already taken from a stream (the magic
// number sniffed by open_input), then the rest of the stream. Internal.
#pragma once

#include <memory>
#include <string>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> rest);

  ReadResult read(std::span<char> buffer) override;
  std::string_view name() const override { return rest_->name(); }
  std::uint64_t raw_bytes_read() const override { return rest_->raw_bytes_read(); }
  std::uint64_t raw_size() const override { return rest_->raw_size(); }

 private:
  std::string prefix_;
  std::size_t prefix_pos_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

}  // namespace virrey::importers
