#include "gzip_source.hpp"

#include <algorithm>
#include <climits>
#include <utility>

namespace virrey::importers {

namespace {
constexpr std::size_t kInputChunk = 128 * 1024;
}

GzipSource::GzipSource(std::unique_ptr<ByteSource> compressed)
    : in_(std::move(compressed)), in_buf_(new char[kInputChunk]) {
  // 16 + MAX_WBITS: expect a gzip header and trailer, with the largest window.
  if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK)
    error_ = std::string(in_->name()) + ": cannot start gzip decoder";
}

GzipSource::~GzipSource() { inflateEnd(&z_); }

ReadResult GzipSource::fail(std::string message) {
  error_ = std::move(message);
  return {0, error_};
}

ReadResult GzipSource::read(std::span<char> buffer) {
  if (!error_.empty()) return {0, error_};
  if (ended_ || buffer.empty()) return {};
  const uInt room = uInt(std::min<std::size_t>(buffer.size(), UINT_MAX / 2));
  z_.next_out = reinterpret_cast<Bytef*>(buffer.data());
  z_.avail_out = room;
  while (z_.avail_out == room) {
    if (z_.avail_in == 0 && !in_ended_) {
      ReadResult r = in_->read({in_buf_.get(), kInputChunk});
      if (!r.ok()) return fail(std::move(r.error));
      if (r.size == 0) {
        in_ended_ = true;
      } else {
        z_.next_in = reinterpret_cast<Bytef*>(in_buf_.get());
        z_.avail_in = uInt(r.size);
      }
    }
    if (z_.avail_in == 0 && in_ended_) {
      if (member_open_)
        return fail(std::string(name()) +
                    ": truncated gzip data (the input ends inside a compressed member)");
      ended_ = true;
      break;
    }
    const bool fresh_member = !member_open_;
    member_open_ = true;
    const int ret = inflate(&z_, Z_NO_FLUSH);
    if (ret == Z_STREAM_END) {
      // Another member may follow (concatenated .gz files); start over.
      member_open_ = false;
      inflateReset(&z_);
    } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
      const std::uint64_t at = in_->raw_bytes_read() - z_.avail_in;
      std::string msg(name());
      msg += fresh_member ? ": data after the end of a gzip member is not gzip (" : ": corrupt gzip data (";
      msg += z_.msg ? z_.msg : "decoder error";
      msg += ") near compressed byte ";
      msg += std::to_string(at);
      // What decoded before the damage goes out first; the next read fails.
      const std::size_t produced = room - z_.avail_out;
      if (produced > 0) {
        error_ = std::move(msg);
        return {produced, {}};
      }
      return fail(std::move(msg));
    }
  }
  return {std::size_t(room - z_.avail_out), {}};
}

}  // namespace virrey::importers
