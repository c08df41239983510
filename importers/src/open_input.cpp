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

namespace {

// Up to 16 bytes from the front of `source` (enough for every magic number
// above and for telling UTF-16 and UTF-32 apart); fewer at its end. A read
// that fails ends the head: `error` says why.
std::string read_head(ByteSource& source, std::string& error) {
  std::string head;
  char buf[16];
  while (head.size() < sizeof buf) {
    ReadResult r = source.read({buf, sizeof buf - head.size()});
    if (!r.ok()) {
      error = std::move(r.error);
      break;
    }
    if (r.size == 0) break;
    head.append(buf, r.size);
  }
  return head;
}

// Whether `head` (8 bytes or more, whole units) is ASCII text in units of
// `width` bytes, the character's byte at `at` in each unit and the others 0.
bool ascii_in_units(std::string_view head, std::size_t width, std::size_t at) {
  if (head.size() < 8) return false;
  for (std::size_t unit = 0; unit + width <= head.size(); unit += width)
    for (std::size_t i = 0; i < width; ++i) {
      const auto b = static_cast<unsigned char>(head[unit + i]);
      if (i == at ? (b == 0 || b >= 0x80) : b != 0) return false;
    }
  return true;
}

}  // namespace

std::string wide_text(std::string_view head, std::string_view name) {
  auto byte = [&](std::size_t i) { return i < head.size() ? static_cast<unsigned char>(head[i]) : 0x100u; };
  std::string_view what, mark;
  if (byte(0) == 0xff && byte(1) == 0xfe && byte(2) == 0 && byte(3) == 0)
    what = "UTF-32", mark = "FF FE 00 00";
  else if (byte(0) == 0 && byte(1) == 0 && byte(2) == 0xfe && byte(3) == 0xff)
    what = "UTF-32", mark = "00 00 FE FF";
  else if (byte(0) == 0xff && byte(1) == 0xfe)
    what = "UTF-16", mark = "FF FE";
  else if (byte(0) == 0xfe && byte(1) == 0xff)
    what = "UTF-16", mark = "FE FF";
  else if (ascii_in_units(head, 4, 0) || ascii_in_units(head, 4, 3))
    what = "UTF-32";
  else if (ascii_in_units(head, 2, 0) || ascii_in_units(head, 2, 1))
    what = "UTF-16";
  else
    return {};
  const std::string how = mark.empty() ? std::string("every character has zero bytes beside it")
                                       : "it opens with the byte-order mark " + std::string(mark);
  return std::string(name) + ": " + std::string(what) + " text (" + how +
         "); it is read as UTF-8 (or Windows-1252): convert it first, e.g. iconv -f " + std::string(what) +
         " -t UTF-8";
}

OpenResult decompressing(std::unique_ptr<ByteSource> raw) {
  std::string error;
  std::string head = read_head(*raw, error);
  if (!error.empty()) return {nullptr, Compression::None, std::move(error)};
  const Compression c = detect_compression(head);
  if (c == Compression::None)
    if (std::string why = unread_compression(head, raw->name()); !why.empty())
      return {nullptr, Compression::None, std::move(why)};
  const std::string name(raw->name());
  std::unique_ptr<ByteSource> source = std::make_unique<PrefixedSource>(head, std::move(raw));
  switch (c) {
    case Compression::Gzip: source = std::make_unique<GzipSource>(std::move(source)); break;
    case Compression::Zstd: source = std::make_unique<ZstdSource>(std::move(source)); break;
    case Compression::None: break;
  }
  // The text's first bytes, as compressed inputs hold them too. A broken
  // stream is left to report itself where its text is read.
  if (c != Compression::None) {
    std::string ignored;
    head = read_head(*source, ignored);
    source = std::make_unique<PrefixedSource>(head, std::move(source));
  }
  if (std::string why = wide_text(head, name); !why.empty())
    return {nullptr, Compression::None, std::move(why)};
  return {std::move(source), c, {}};
}

OpenResult open_input(std::string_view path) {
  std::string error;
  std::unique_ptr<FileSource> file = FileSource::open(path, error);
  if (!file) return {nullptr, Compression::None, std::move(error)};
  return decompressing(std::move(file));
}

}  // namespace virrey::importers
