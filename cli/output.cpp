#include "output.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "virrey/base/log.hpp"

#include "interrupt_cleanup.hpp"

namespace virrey::cli {

namespace {

constexpr std::pair<Format, std::string_view> kFormatNames[] = {
    {Format::Text, "text"}, {Format::Json, "json"}, {Format::Jsonl, "jsonl"},
    {Format::Csv, "csv"},   {Format::Pgn, "pgn"},
    {Format::Trf, "trf"},   {Format::Html, "html"}, {Format::Partial, "partial"},
};

}  // namespace

std::string_view format_name(Format f) {
  for (const auto& [format, name] : kFormatNames)
    if (format == f) return name;
  return "?";
}

std::optional<Format> parse_format(std::string_view name) {
  for (const auto& [format, n] : kFormatNames)
    if (n == name) return format;
  return std::nullopt;
}

File create_file(const std::string& path) {
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) log::error("cannot write {}: {}", path, std::strerror(errno));
  return f;
}

void end_if_reader_gone(int error) {
  if (error == EPIPE) end_as_signalled(SIGPIPE);
}

bool write_flushed(std::FILE* out, std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), out) == text.size() && std::fflush(out) == 0 &&
      !std::ferror(out))
    return true;
  end_if_reader_gone(errno);
  return false;
}

bool write_text(std::FILE* out, std::string_view text, int& error) {
  if (std::fwrite(text.data(), 1, text.size(), out) == text.size() && !std::ferror(out)) return true;
  end_if_reader_gone(errno);
  if (!error) error = errno;
  return false;
}

std::optional<std::string> flush_failure(std::FILE* out, int earlier) {
  errno = 0;
  if (std::fflush(out) == 0 && !std::ferror(out)) return std::nullopt;
  const int error = earlier ? earlier : errno;
  end_if_reader_gone(error);
  return error ? std::string(": ") + std::strerror(error) : std::string();
}

namespace {

// The full path `p` names: made absolute first (weakly_canonical leaves a
// relative path of no existing folder as it is), links followed as far as
// they lead to something.
std::optional<std::filesystem::path> full_path(const std::string& p) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(p, ec);
  if (ec) return std::nullopt;
  auto full = std::filesystem::weakly_canonical(absolute, ec);
  if (ec) return std::nullopt;
  return full;
}

// Whether standard input is read from the file at `path` (`< games.pgn`).
bool is_standard_input(const std::string& path) {
  struct stat in = {};
  struct stat out = {};
  return ::fstat(STDIN_FILENO, &in) == 0 && S_ISREG(in.st_mode) && ::stat(path.c_str(), &out) == 0 &&
         in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

// Whether `path` would be a file of a RocksDB database: its folder holds the
// files every one has.
bool in_a_database_folder(const std::string& path) {
  const auto full = full_path(path);
  if (!full) return false;
  std::error_code ec;
  const auto folder = full->parent_path();
  return std::filesystem::is_regular_file(folder / "CURRENT", ec) &&
         std::filesystem::is_regular_file(folder / "IDENTITY", ec);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  const auto ca = full_path(a), cb = full_path(b);
  return ca && cb ? *ca == *cb : a == b;
}

bool is_an_input(const std::string& path, const std::vector<std::string>& inputs) {
  return std::any_of(inputs.begin(), inputs.end(), [&](const std::string& input) {
    return input == "-" ? is_standard_input(path) : same_file(path, input);
  });
}

bool output_allowed(std::string_view option, const std::string& path,
                    const std::vector<std::string>& inputs) {
  if (path.empty() || path == "-") return true;
  if (is_an_input(path, inputs)) {
    log::error("{} {} is one of the inputs: writing it would destroy what is read", option, path);
    return false;
  }
  if (in_a_database_folder(path)) {
    log::error("{} {} is in a database's folder: writing it would damage the database", option, path);
    return false;
  }
  return true;
}

bool database_path_allowed(const std::string& path) {
  const auto full = full_path(path);
  if (!full) return true;  // the open says what is wrong with it
  for (auto folder = full->parent_path(); !folder.empty(); folder = folder.parent_path()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(folder / "CURRENT", ec) &&
        std::filesystem::is_regular_file(folder / "IDENTITY", ec)) {
      log::error("the database {} would be in the folder of the database {}, and damage it", path,
                 folder.string());
      return false;
    }
    if (folder == folder.root_path()) break;
  }
  return true;
}

bool is_in_database(const std::string& path, const std::string& db) {
  const auto dir = full_path(db), file = full_path(path);
  if (!dir || !file) return false;
  auto [d, f] = std::mismatch(dir->begin(), dir->end(), file->begin(), file->end());
  return d == dir->end();
}

StagedFile::~StagedFile() {
  if (!file_) return;
  file_.reset();
  if (!direct_) std::remove(temp_.c_str());
  keep_on_interrupt(interrupt_slot_);
}

namespace {

// Six letters or digits that another run is unlikely to pick (as mkstemp's).
std::string random_suffix() {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static thread_local std::mt19937_64 rng{std::random_device{}() ^ std::uint64_t(::getpid()) << 32};
  std::string out(6, 'X');
  for (char& c : out) c = kChars[rng() % (sizeof(kChars) - 1)];
  return out;
}

}  // namespace

bool StagedFile::open(const std::string& path) {
  path_ = path;
  // Written in place: a device or a pipe (/dev/null, a FIFO), a link
  // (/dev/stdout, a name the user points elsewhere) and a file of several
  // names: renaming onto any of them would replace it, not write it.
  struct stat st = {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  direct_ = exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1);
  int error = 0;
  if (direct_) {
    temp_ = path;
    file_.reset(std::fopen(path.c_str(), "wb"));
    error = errno;
  } else {
    // A name of its own beside the file, made anew: never a file (an input)
    // or a link already there. It takes the mode the file has or would get.
    // The name is registered for removal on a signal before the file is
    // made: a signal that comes as it is made (a `kill` sent as soon as the
    // file shows) still removes it.
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
      temp_ = path + ".partial-" + random_suffix();
      interrupt_slot_ = remove_on_interrupt(temp_);
      fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      error = errno;
      if (fd < 0) {
        keep_on_interrupt(interrupt_slot_);
        interrupt_slot_ = -1;
        if (error != EEXIST) break;
      }
    }
    if (fd >= 0) {
      mode_t mode = st.st_mode & 07777;
      if (!exists) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
      }
      ::fchmod(fd, mode);
      file_.reset(::fdopen(fd, "wb"));
      if (!file_) {
        error = errno;
        ::close(fd);
        std::remove(temp_.c_str());
        keep_on_interrupt(interrupt_slot_);
        interrupt_slot_ = -1;
      }
    }
  }
  if (!file_ && !direct_ && exists)
    // The file is there: what failed is the name beside it it is written
    // under first (a directory that takes no new file, such as /proc).
    log::error("cannot write {}: cannot make {}.partial-XXXXXX beside it: {}", path,
               std::filesystem::path(path).filename().string(), std::strerror(error));
  else if (!file_)
    log::error("cannot write {}: {}", path, std::strerror(error));
  return bool(file_);
}

bool StagedFile::commit(bool even_empty, int earlier) {
  if (!file_) return true;
  const bool written = std::ftell(file_.get()) > 0;
  const auto failure = flush_failure(file_.get(), earlier);
  errno = 0;
  const bool closed = std::fclose(file_.release()) == 0;  // a file system may say only now (NFS)
  const auto why = failure ? *failure : errno ? std::string(": ") + std::strerror(errno) : std::string();
  const bool failed = failure || !closed;
  // The temporary is withdrawn from removal on a signal once renamed or
  // removed, whichever way this returns.
  const struct Withdraw {
    int slot;
    ~Withdraw() { keep_on_interrupt(slot); }
  } withdraw{std::exchange(interrupt_slot_, -1)};
  if (direct_) {
    if (failed) log::error("cannot write {}{}", path_, why);
    return !failed;
  }
  if (failed) {
    log::error("cannot write {}{}", path_, why);
    std::remove(temp_.c_str());
    return false;
  }
  if (!written && !even_empty) {
    std::remove(temp_.c_str());
    return true;
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    log::error("cannot write {}: {}", path_, std::strerror(errno));
    std::remove(temp_.c_str());
    return false;
  }
  return true;
}

Value Value::list(std::vector<Value> items) {
  Value v{Kind::List, {}};
  v.items_ = std::move(items);
  return v;
}

Value Value::object(std::vector<Member> members) {
  Value v{Kind::Object, {}};
  v.members_ = std::move(members);
  return v;
}

std::string json_string(std::string_view text) {
  const std::string s = as_utf8(text);
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

void append_json(const Value& v, std::string& out) {
  switch (v.kind()) {
    case Value::Kind::Null: out += "null"; return;
    case Value::Kind::String: out += json_string(v.text()); return;
    case Value::Kind::List:
      out += '[';
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (i) out += ',';
        append_json(v.items()[i], out);
      }
      out += ']';
      return;
    case Value::Kind::Object:
      out += '{';
      for (std::size_t i = 0; i < v.members().size(); ++i) {
        if (i) out += ',';
        out += json_string(v.members()[i].name);
        out += ':';
        append_json(v.members()[i].value, out);
      }
      out += '}';
      return;
    default: out += v.text(); return;
  }
}

std::string json(const Value& v) {
  std::string out;
  append_json(v, out);
  return out;
}

std::string csv_field(std::string_view text) {
  const std::string s = as_utf8(text);
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string csv_field(const Value& v) {
  return v.kind() == Value::Kind::String ? csv_field(v.text()) : v.text();
}

std::string csv_line(const std::vector<Value>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_field(fields[i]);
  }
  return out + '\n';
}

std::string csv_line(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += ',';
    out += csv_field(names[i]);
  }
  return out + '\n';
}

}  // namespace virrey::cli
