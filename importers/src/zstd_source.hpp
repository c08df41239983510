// ZstdSource: decompresses a zstd stream read from another source, frame after
// frame (skippable frames ignored), in constant memory. Internal; see
// open_input().
#pragma once

#include <zstd.h>

#include <memory>
#include <string>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

class ZstdSource final : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> compressed);
  ~ZstdSource() override;
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

  ReadResult read(std::span<char> buffer) override;
  std::string_view name() const override { return in_->name(); }
  std::uint64_t raw_bytes_read() const override { return in_->raw_bytes_read(); }
  std::uint64_t raw_size() const override { return in_->raw_size(); }

 private:
  ReadResult fail(std::string message);

  std::unique_ptr<ByteSource> in_;
  ZSTD_DStream* stream_;
  std::size_t in_cap_;
  std::unique_ptr<char[]> in_buf_;
  ZSTD_inBuffer input_{nullptr, 0, 0};
  bool frame_open_ = true;  // the last call did not finish a frame
  bool in_ended_ = false;
  bool ended_ = false;
  std::string error_;  // sticky after the first failure
};

}  // namespace virrey::importers
