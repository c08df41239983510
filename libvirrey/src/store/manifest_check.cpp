#include "manifest_check.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

namespace virrey::store {

namespace {

// RocksDB's log framing (db/log_format.h): 32 KiB blocks of records, each a
// header (checksum 4, length 2, type 1; 4 more bytes of log number for the
// recyclable types 5 to 8) and its payload; a block's last bytes, too few for
// a header, are zero padding.
constexpr std::size_t kBlockSize = 32768;
constexpr std::size_t kHeaderSize = 7;
constexpr std::size_t kRecyclableHeaderSize = 11;
enum RecordType : unsigned char { kZero = 0, kFull = 1, kFirst = 2, kMiddle = 3, kLast = 4 };

std::string read_all(const std::string& file, bool& ok) {
  std::ifstream in(file, std::ios::binary);
  ok = bool(in);
  return ok ? std::string(std::istreambuf_iterator<char>(in), {}) : std::string();
}

}  // namespace

std::optional<std::string> truncated_manifest(const std::string& path) {
  bool ok = false;
  std::string current = read_all(path + "/CURRENT", ok);
  while (!current.empty() && (current.back() == '\n' || current.back() == '\r')) current.pop_back();
  if (!ok || current.empty() || current.find('/') != std::string::npos) return std::nullopt;
  const std::string log = read_all(path + "/" + current, ok);
  if (!ok) return std::nullopt;

  auto cut = [&](std::size_t at) {
    return fmt::format(
        "{} is damaged: {} ends inside a record at byte {} of {} (the list of its files "
        "is cut short)",
        path, current, at, log.size());
  };
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(log[i]); };
  bool in_record = false;  // inside a record split over blocks
  std::size_t pos = 0;
  while (pos < log.size()) {
    const std::size_t left_in_block = kBlockSize - pos % kBlockSize;
    if (left_in_block < kHeaderSize) {
      pos += left_in_block;
      continue;
    }
    if (log.size() - pos < kHeaderSize) return cut(pos);
    const std::size_t length = byte(pos + 4) | std::size_t(byte(pos + 5)) << 8;
    const unsigned char type = byte(pos + 6);
    if (type == kZero && length == 0) break;  // zeros past the last record
    const std::size_t header = type >= 5 && type <= 8 ? kRecyclableHeaderSize : kHeaderSize;
    if (pos + header + length > log.size()) return cut(pos);
    if (type == kFirst)
      in_record = true;
    else if (type == kLast || type == kFull)
      in_record = false;
    pos += header + length;
  }
  if (in_record) return cut(pos);
  return std::nullopt;
}

}  // namespace virrey::store
