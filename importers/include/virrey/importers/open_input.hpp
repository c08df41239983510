// Opening an input by name: a path or "-" (stdin). gzip and zstd streams are
// recognised by their magic number (never by file name) and decompressed on
// the fly in constant memory, including concatenated members / frames.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

enum class Compression : std::uint8_t { None, Gzip, Zstd };

std::string_view compression_name(Compression c);

// What the first bytes of a stream say: gzip (1f 8b), zstd (28 b5 2f fd), or
// neither. Needs up to 4 bytes; fewer bytes can only match what they cover.
Compression detect_compression(std::span<const char> head);

// A source, or why there is none. `error` names the input.
struct OpenResult {
  std::unique_ptr<ByteSource> source;
  Compression compression = Compression::None;
  std::string error;

  explicit operator bool() const noexcept { return source != nullptr; }
};

// Opens `path` ("-" means standard input, shown as "<stdin>") and wraps it in
// a decompressor when its first bytes are a gzip or zstd magic number.
OpenResult open_input(std::string_view path);

// What text in 16- or 32-bit units is, by its first bytes (up to 16), with
// how to read it ("NAME: UTF-16 text (...); ... iconv ..."); empty for any
// other text. A byte-order mark tells it; without one, the zero bytes beside
// the first characters do (a PGN, an EPD or a FEN list, a TRF begin with a
// character of ASCII and hold no zero byte). open_input refuses such text.
std::string wide_text(std::string_view head, std::string_view name);

// Why open_input(path) would fail to open it, in its words ("PATH: reason");
// none for "-". Only a regular file is opened (its first bytes read, and
// closed): a named pipe or a device is taken as it is, since opening and
// closing a pipe would end the program writing into it.
std::optional<std::string> input_open_error(std::string_view path);

// The same sniffing for any raw byte stream (used by open_input; handy for
// in-memory data). Fails only when reading the first bytes fails.
OpenResult decompressing(std::unique_ptr<ByteSource> raw);

}  // namespace virrey::importers
