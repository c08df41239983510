// RocksDB's information log of a database open for writing: the file LOG in
// its directory, the previous one kept as LOG.old. Written here rather than
// by RocksDB's own logger, which fails an assertion (ending the process) when
// it writes again after a write that failed, as on a full disk: here a
// failed write ends the log, and the command goes on to meet the full disk
// where it writes the database, which it reports as an error.
#include <sys/time.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <thread>

#include "rocks.hpp"

namespace virrey::store {

namespace {

constexpr long kMaxLogBytes = 8 << 20;  // then it starts again, the full one kept as LOG.old

class DatabaseLog final : public rocksdb::Logger {
 public:
  explicit DatabaseLog(std::string dir)
      : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), dir_(std::move(dir)) {}
  ~DatabaseLog() override {
    if (file_) std::fclose(file_);
  }
  DatabaseLog(const DatabaseLog&) = delete;
  DatabaseLog& operator=(const DatabaseLog&) = delete;

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char line[2048];
    const int head = stamp(line, sizeof line);
    va_list copy;
    va_copy(copy, ap);
    int n = std::vsnprintf(line + head, sizeof line - head - 1, format, copy);
    va_end(copy);
    if (n < 0) return;
    n = std::min<int>(n, int(sizeof line) - head - 2);  // a longer message is cut
    std::size_t size = std::size_t(head + n);
    if (line[size - 1] != '\n') line[size++] = '\n';

    std::lock_guard lock(mutex_);
    if (ended_ || (!file_ && !start())) return;
    if (std::fwrite(line, 1, size, file_) != size || std::fflush(file_) != 0) {
      end();  // a full disk: nothing more is logged
      return;
    }
    written_ += long(size);
    if (written_ >= kMaxLogBytes) {
      std::fclose(file_);
      file_ = nullptr;
      written_ = 0;
    }
  }

 private:
  // "2026/12/06-17:30:00.123456 7f3a2b ", as RocksDB's own lines begin.
  static int stamp(char* out, std::size_t size) {
    timeval now{};
    ::gettimeofday(&now, nullptr);
    std::tm t{};
    ::localtime_r(&now.tv_sec, &t);
    const auto thread = std::hash<std::thread::id>{}(std::this_thread::get_id()) & 0xffffff;
    const int n =
        std::snprintf(out, size, "%04d/%02d/%02d-%02d:%02d:%02d.%06ld %06zx ", t.tm_year + 1900, t.tm_mon + 1,
                      t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, long(now.tv_usec), thread);
    return n < 0 ? 0 : std::min<int>(n, int(size) - 1);
  }

  // Opens a fresh LOG, the one before kept as LOG.old (under the mutex).
  // RocksDB logs before it creates a new database's directory: until the
  // directory is there, messages are dropped and the next one tries again.
  bool start() {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) return false;
    const fs::path log = fs::path(dir_) / "LOG";
    if (fs::exists(log, ec)) fs::rename(log, fs::path(dir_) / "LOG.old", ec);
    file_ = std::fopen(log.c_str(), "w");
    if (!file_) ended_ = true;
    return file_ != nullptr;
  }

  void end() {
    std::fclose(file_);
    file_ = nullptr;
    ended_ = true;
  }

  std::string dir_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
  long written_ = 0;
  bool ended_ = false;
};

}  // namespace

std::shared_ptr<rocksdb::Logger> database_log(const std::string& dir) {
  return std::make_shared<DatabaseLog>(dir);
}

}  // namespace virrey::store
