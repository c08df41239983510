#include "virrey/importers/open_input.hpp"

#include <string>
#include <utility>

#include "file_source.hpp"
#include "gzip_source.hpp"
#include "prefixed_source.hpp"
#include "zstd_source.hpp"

namespace virrey::importers {

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
  }
  return "none";
}

Compression detect_compression(std::span<const char> head) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  if (head.size() >= 2 && byte(0) == 0x1f && byte(1) == 0x8b) return Compression::Gzip;
  if (head.size() >= 4 && byte(1) == 0xb5 && byte(2) == 0x2f && byte(3) == 0xfd && byte(0) == 0x28)
    return Compression::Zstd;
  // A zstd skippable frame (magic 0x184D2A50..5F, little endian), as pzstd writes first.
  if (head.size() >= 4 && (byte(0) & 0xf0) == 0x50 && byte(1) == 0x2a && byte(2) == 0x4d && byte(3) == 0x18)
    return Compression::Zstd;
  return Compression::None;
}

namespace {

// Archives and compressions virrey does not read, by their first bytes, with
// the command that writes what they hold.
struct Unread {
  std::string_view magic, what, how;
};
using namespace std::string_view_literals;
constexpr Unread kUnread[] = {
    {"BZh"sv, "bzip2 data"sv, "bzip2 -dc"sv},
    {"\xfd\x37\x7a\x58"sv, "xz data"sv, "xz -dc"sv},
    {"\x04\x22\x4d\x18"sv, "lz4 data"sv, "lz4 -dc"sv},
    {"\x02\x21\x4c\x18"sv, "lz4 data"sv, "lz4 -dc"sv},  // the legacy frame (lz4 -l)
    {"PK\x03\x04"sv, "a zip archive"sv, "unzip -p"sv},
    {"PK\x05\x06"sv, "a zip archive"sv, "unzip -p"sv},  // an empty one
    {"PK\x07\x08"sv, "a zip archive"sv, "unzip -p"sv},  // one of several parts
    {"7z\xbc\xaf"sv, "a 7-Zip archive"sv, "7z x -so"sv},
};

// What an input compressed or archived in a way virrey does not read is,
// with how to read it; empty for any other input.
std::string unread_compression(std::string_view head, std::string_view name) {
  // bzip2: "BZh", the block size 1-9, then a block's magic (pi's digits) or
  // the end of the stream (the square root of pi's).
  const auto bzip2 = [&] {
    return head.size() >= 10 && head[3] >= '1' && head[3] <= '9' &&
           (head.substr(4, 6) == "\x31\x41\x59\x26\x53\x59"sv ||
            head.substr(4, 6) == "\x17\x72\x45\x38\x50\x90"sv);
  };
  for (const Unread& u : kUnread)
    if (head.substr(0, u.magic.size()) == u.magic && (u.magic != "BZh" || bzip2()))
      return std::string(name) + ": " + std::string(u.what) +
             ", which virrey does not read; decompress it first (" + std::string(u.how) +
             " FILE | virrey COMMAND -)";
  return {};
}

}  // namespace

OpenResult decompressing(std::unique_ptr<ByteSource> raw) {
  std::string head;
  char buf[16];  // enough for every magic number above
  while (head.size() < sizeof buf) {
    ReadResult r = raw->read({buf, sizeof buf - head.size()});
    if (!r.ok()) return {nullptr, Compression::None, std::move(r.error)};
    if (r.size == 0) break;
    head.append(buf, r.size);
  }
  const Compression c = detect_compression(head);
  if (c == Compression::None)
    if (std::string why = unread_compression(head, raw->name()); !why.empty())
      return {nullptr, Compression::None, std::move(why)};
  // UTF-16 (and UTF-32) text opens with a byte-order mark of FF FE or FE FF:
  // every other byte is 0, no PGN reader would make sense of it.
  if (c == Compression::None && head.size() >= 2) {
    const auto b0 = static_cast<unsigned char>(head[0]), b1 = static_cast<unsigned char>(head[1]);
    if ((b0 == 0xff && b1 == 0xfe) || (b0 == 0xfe && b1 == 0xff))
      return {
          nullptr, Compression::None,
          std::string(raw->name()) + ": UTF-16 text (it opens with the byte-order mark " +
              (b0 == 0xff ? "FF FE" : "FE FF") +
              "); PGN is read as UTF-8 (or Windows-1252): convert it first, e.g. iconv -f UTF-16 -t UTF-8"};
  }
  auto replay = std::make_unique<PrefixedSource>(std::move(head), std::move(raw));
  OpenResult result{nullptr, c, {}};
  switch (c) {
    case Compression::Gzip: result.source = std::make_unique<GzipSource>(std::move(replay)); break;
    case Compression::Zstd: result.source = std::make_unique<ZstdSource>(std::move(replay)); break;
    case Compression::None: result.source = std::move(replay); break;
  }
  return result;
}

OpenResult open_input(std::string_view path) {
  std::string error;
  std::unique_ptr<FileSource> file = FileSource::open(path, error);
  if (!file) return {nullptr, Compression::None, std::move(error)};
  return decompressing(std::move(file));
}

}  // namespace virrey::importers
