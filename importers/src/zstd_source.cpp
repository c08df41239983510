#include "zstd_source.hpp"

#include <utility>

#include <zstd_errors.h>

namespace virrey::importers {

ZstdSource::ZstdSource(std::unique_ptr<ByteSource> compressed)
    : in_(std::move(compressed)),
      stream_(ZSTD_createDStream()),
      in_cap_(ZSTD_DStreamInSize()),
      in_buf_(new char[in_cap_]) {
  if (stream_ == nullptr || ZSTD_isError(ZSTD_initDStream(stream_)))
    error_ = std::string(in_->name()) + ": cannot start zstd decoder";
}

ZstdSource::~ZstdSource() { ZSTD_freeDStream(stream_); }

ReadResult ZstdSource::fail(std::string message) {
  error_ = std::move(message);
  return {0, error_};
}

ReadResult ZstdSource::read(std::span<char> buffer) {
  if (!error_.empty()) return {0, error_};
  if (ended_ || buffer.empty()) return {};
  ZSTD_outBuffer out{buffer.data(), buffer.size(), 0};
  while (out.pos == 0) {
    if (input_.pos == input_.size && !in_ended_) {
      ReadResult r = in_->read({in_buf_.get(), in_cap_});
      if (!r.ok()) return fail(std::move(r.error));
      if (r.size == 0) in_ended_ = true;
      input_ = {in_buf_.get(), r.size, 0};
    }
    const std::size_t in_before = input_.pos, out_before = out.pos;
    const std::size_t ret = ZSTD_decompressStream(stream_, &out, &input_);
    if (ZSTD_isError(ret)) {
      // The checksum is checked at the frame's end: the damage is anywhere before.
      if (ZSTD_getErrorCode(ret) == ZSTD_error_checksum_wrong)
        return fail(std::string(name()) +
                    ": corrupt zstd data: a frame's checksum does not match its data (the file was "
                    "damaged after it was compressed)");
      // A frame compressed with a long window (zstd --long=28 and over) is
      // not damaged: it asks for more memory than a reader gives a stream.
      if (ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
        return fail(std::string(name()) +
                    ": its zstd window is larger than virrey reads (128 MiB, as `zstd -d` without "
                    "--long=N): decompress it with `zstd -d --long=31` first, or compress it with a smaller "
                    "window (without --long, or --long=27)");
      const std::uint64_t at = in_->raw_bytes_read() - (input_.size - input_.pos);
      return fail(std::string(name()) + ": corrupt zstd data (" + ZSTD_getErrorName(ret) +
                  ") near compressed byte " + std::to_string(at));
    }
    // 0: a frame is complete and fully flushed; anything else: more to come.
    // With no input taken and no output made, a "more input" hint after a
    // finished frame only asks for a next frame that need not exist.
    if (input_.pos != in_before || out.pos != out_before) frame_open_ = ret != 0;
    if (out.pos > 0) break;
    if (in_ended_ && input_.pos == input_.size) {
      if (frame_open_)
        return fail(std::string(name()) + ": truncated zstd data (the input ends inside a compressed frame)");
      ended_ = true;
      break;
    }
  }
  return {out.pos, {}};
}

}  // namespace virrey::importers
