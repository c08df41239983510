// FileSource: raw bytes of an open file descriptor (a file, a pipe, stdin).
// Internal to the importers library; callers use open_input().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "virrey/importers/byte_source.hpp"

namespace virrey::importers {

class FileSource final : public ByteSource {
 public:
  // Opens `path` for reading, "-" meaning standard input. On failure returns
  // null and sets `error` to a message naming the path.
  static std::unique_ptr<FileSource> open(std::string_view path, std::string& error);

  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  ReadResult read(std::span<char> buffer) override;
  std::string_view name() const override { return name_; }
  std::uint64_t raw_bytes_read() const override { return consumed_; }
  std::uint64_t raw_size() const override { return size_; }

 private:
  FileSource(int fd, bool owned, std::string name, std::uint64_t size);

  int fd_;
  bool owned_;
  std::string name_;
  std::uint64_t size_;
  std::uint64_t consumed_ = 0;
  std::string error_;  // sticky after the first failure
  bool ended_ = false;
};

}  // namespace virrey::importers
