// GzipSource: inflates a gzip stream (RFC 1952) read from another source, one
// member after another, in constant memory. Internal; see open_input().
#pragma once

#include <zlib.h>

#include <memory>
#include <string>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> compressed);
  ~GzipSource() override;
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  ReadResult read(std::span<char> buffer) override;
  std::string_view name() const override { return in_->name(); }
  std::uint64_t raw_bytes_read() const override { return in_->raw_bytes_read(); }
  std::uint64_t raw_size() const override { return in_->raw_size(); }

 private:
  ReadResult fail(std::string message);

  std::unique_ptr<ByteSource> in_;
  std::unique_ptr<char[]> in_buf_;
  z_stream z_{};
  bool member_open_ = true;  // inside a member: its end must still come
  bool in_ended_ = false;
  bool ended_ = false;
  std::string error_;  // sticky after the first failure
};

}  // namespace virrey::importers
