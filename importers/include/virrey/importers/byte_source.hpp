// ByteSource: how the inputs of virrey (PGN and EPD/FEN lists, plain or
// compressed, files or standard input) are read; open_input.hpp makes one.
// Not the only reader of files: the store reads its own database, and
// ingest's HashedInput hashes an input's raw bytes as they are read.
// A source hands out its bytes in chunks into a buffer the caller owns; end of
// input and failures are values, never exceptions, so a corrupt file is just
// another result to report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace virrey::importers {

// The outcome of one ByteSource::read.
struct ReadResult {
  std::size_t size = 0;  // bytes written to the front of the caller's buffer
  std::string error;     // non-empty when the read failed; names the source

  bool ok() const noexcept { return error.empty(); }
  // size == 0 without an error: the input is exhausted.
  bool at_end() const noexcept { return size == 0 && ok(); }
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;

  // Fills the front of `buffer` with the next bytes. Returns at least one byte
  // unless the input is exhausted (size 0) or broken (error). Once a source
  // reports end or an error it keeps reporting the same on every later call.
  virtual ReadResult read(std::span<char> buffer) = 0;

  // What to call the input in messages: its path, or "<stdin>".
  virtual std::string_view name() const = 0;

  // Bytes consumed from the underlying file so far (compressed bytes when
  // the input is compressed), and its size when known (0 otherwise): for a
  // progress display.
  virtual std::uint64_t raw_bytes_read() const = 0;
  virtual std::uint64_t raw_size() const { return 0; }
};

}  // namespace virrey::importers
