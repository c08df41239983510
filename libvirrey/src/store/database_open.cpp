// Opening a database: telling a virrey database from anything else, choosing
// how to read beside a running writer, creating and checking `meta`.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "identities.hpp"
#include "ingest_group.hpp"
#include "manifest_check.hpp"
#include "rocks.hpp"
#include "virrey/base/log.hpp"
#include "virrey/rules/zobrist.hpp"

namespace virrey::store {

namespace fs = std::filesystem;

namespace {

// Databases this process has open for writing. Probing a database's LOCK file
// from the process that holds it would release RocksDB's lock (closing any
// descriptor of a file drops the process's fcntl locks on it).
struct WriterRegistry {
  std::mutex mutex;
  std::set<std::string> paths;
};
WriterRegistry& writers() {
  static WriterRegistry r;
  return r;
}

std::string canonical(const std::string& path) {
  std::error_code ec;
  auto p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

bool open_for_writing_here(const std::string& path) {
  std::lock_guard lock(writers().mutex);
  return writers().paths.count(canonical(path)) > 0;
}

// True when some process holds RocksDB's write lock on the database.
bool writer_running(const std::string& path) {
  if (open_for_writing_here(path)) return true;
  const int fd = ::open((path + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  const bool locked = ::fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
  ::close(fd);
  return locked;
}

// Readers and a writer of one database meet on its LOCK file through flock,
// whose locks Linux keeps apart from the fcntl lock RocksDB's writer takes
// there. A read-only reader (one that found no writer) holds a shared lock
// while it is open; a writer that cannot take the lock exclusively keeps
// every table file RocksDB would delete (a compaction's inputs, small files
// joined) until it closes with no reader left, so that a long reader opened
// before it (an export, a search of every game) still finds the files it
// opens as it goes. The next writer to open with no reader deletes them.
// -1 when the file cannot be opened (a reader then reads as before).
int open_lock_file(const std::string& path) { return ::open((path + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC); }

Error not_a_database(const std::string& path, std::string_view why) {
  return Error{ErrorKind::NotADatabase, fmt::format("{} is not a virrey database: {}", path, why)};
}

// A database whose parts are not all made yet: killed while being made, or
// being made now by another process (the first import, not yet committed).
Error unfinished_database(const std::string& path) {
  if (writer_running(path))
    return Error{ErrorKind::NotADatabase,
                 fmt::format("no virrey database at {} yet: another process is making it (an import or a "
                             "merge under way); try again once it has committed its first games",
                             path)};
  return Error{
      ErrorKind::NotADatabase,
      fmt::format("no virrey database at {} (its creation was interrupted: import or merge again)", path)};
}

// Temporary directory for a secondary instance's own files.
Result<std::string> make_secondary_dir() {
  std::error_code ec;
  std::string templ = (fs::temp_directory_path(ec) / "virrey-reader-XXXXXX").string();
  if (!::mkdtemp(templ.data()))
    return Error{ErrorKind::Io, fmt::format("cannot create a directory under {}", templ)};
  return templ;
}

struct Families {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  std::vector<int> family_of;  // per descriptor: Family index, -1 for "default"
};

// `newer`: also the families added after schema 3 (a reader of an older
// database opens without them).
Families descriptors(bool newer = true) {
  Families d;
  d.descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  d.family_of.push_back(-1);
  for (const FamilyInfo& fi : kFamilies) {
    if (!newer && added_after_schema_3(fi.family)) continue;
    d.descriptors.emplace_back(std::string(fi.name), family_options(fi.family));
    d.family_of.push_back(int(fi.family));
  }
  return d;
}

// The families of an existing database: every family up to schema 3, and
// those added since that it has (a reader opens without the others).
Families present_descriptors(const std::string& path) {
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok()) return descriptors(false);
  Families d;
  const Families all = descriptors();
  for (std::size_t i = 0; i < all.descriptors.size(); ++i) {
    const int f = all.family_of[i];
    if (f >= 0 && added_after_schema_3(Family(f)) &&
        std::find(names.begin(), names.end(), all.descriptors[i].name) == names.end())
      continue;
    d.descriptors.push_back(all.descriptors[i]);
    d.family_of.push_back(f);
  }
  return d;
}

// True for a directory holding only what RocksDB writes before a new
// database has its CURRENT file (a creation killed early): safe to reuse.
bool only_unfinished_creation(const std::string& path) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    const std::string name = e.path().filename().string();
    const bool rocksdb_file = name == "LOCK" || name == "IDENTITY" || name.rfind("LOG", 0) == 0 ||
                              name.rfind("MANIFEST-", 0) == 0 || name.rfind("OPTIONS-", 0) == 0 ||
                              name.ends_with(".log") || name.ends_with(".dbtmp");
    if (!rocksdb_file) return false;
  }
  return !ec;
}

// Whether a directory holds RocksDB table files beside RocksDB's own files:
// a database whose CURRENT file is lost (a creation killed before CURRENT
// was written has no table file).
bool has_table_files(const std::string& path) {
  std::error_code ec;
  bool tables = false, rocksdb = false;
  for (const auto& e : fs::directory_iterator(path, ec)) {
    const std::string name = e.path().filename().string();
    tables |= name.ends_with(".sst");
    rocksdb |= name.rfind("MANIFEST-", 0) == 0 || name.rfind("OPTIONS-", 0) == 0;
  }
  return tables && rocksdb;
}

// A database whose MANIFEST lists not all of its parts, or does not read:
// killed while it was being made (it then holds no table file yet), else
// damaged (its MANIFEST emptied or cut at a record's end).
Error unfinished_or_damaged(const std::string& path, std::string_view why = {}) {
  if (has_table_files(path) && !writer_running(path))
    return Error{
        ErrorKind::Corrupt,
        fmt::format("{} is damaged: it holds a database's table files but its MANIFEST {} (restore it "
                    "from a copy or import its games again)",
                    path, why.empty() ? std::string_view("does not list its parts") : why)};
  return why.empty() ? unfinished_database(path) : not_a_database(path, why);
}

std::uint64_t read_u64(const std::string& v) { return get_be(v.data(), int(v.size() <= 8 ? v.size() : 8)); }

bool has_meta_family(const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), family_info(Family::Meta).name) != names.end();
}

// Whether one part (column family) of a database holds anything, read
// without writing a byte (virrey keeps nothing in RocksDB's default part;
// another program's database does); nothing when it cannot be read so (an
// I/O error, a writer making it): the open that follows says why.
std::optional<bool> holds_data(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family) {
  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), family));
  it->SeekToFirst();
  if (!it->status().ok()) return std::nullopt;
  return it->Valid();
}

// Whether any of these parts of a database holds anything (each read as
// holds_data reads one).
std::optional<bool> families_hold_data(const std::string& path, const std::vector<std::string>& names) {
  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyDescriptor> fam;
  for (const std::string& n : names) fam.push_back({n, {}});
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  if (!rocksdb::DB::OpenForReadOnly(db_options(OpenMode::ReadOnly), path, fam, &handles, &raw).ok() || !raw)
    return std::nullopt;
  std::optional<bool> holds = false;
  for (auto* h : handles) {
    holds = holds_data(*raw, h);
    if (!holds || *holds) break;  // data found, or it cannot be read
  }
  for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
  delete raw;
  return holds;
}

// The database's parts against virrey's: a foreign RocksDB database, a part
// from a newer virrey, or a creation killed before every part was made.
// `bare`: set when it has RocksDB's default part alone.
std::optional<Error> check_families(const std::string& path, bool writer, bool create, bool* bare = nullptr) {
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names);
  if (!s.ok()) {
    if (s.IsIOError()) return to_error(s, fmt::format("cannot read {}", path));
    return unfinished_or_damaged(path, fmt::format("does not read ({})", status_text(s)));
  }
  bool has_meta = false;
  std::size_t ours = 0;
  for (const FamilyInfo& fi : kFamilies)  // a writer adds these to an older database
    ours += added_after_schema_3(fi.family) && has_meta_family(names);
  for (const std::string& n : names) {
    bool known = n == rocksdb::kDefaultColumnFamilyName;
    for (const FamilyInfo& fi : kFamilies)
      if (n == fi.name) known = true, ours += !added_after_schema_3(fi.family);
    has_meta |= n == family_info(Family::Meta).name;
    if (!known)
      return Error{ErrorKind::NewerSchema,
                   fmt::format("{} has a part '{}' this virrey does not know: it was written "
                               "by a newer virrey",
                               path, n)};
  }
  if (!has_meta && ours > 0) return not_a_database(path, "a RocksDB database without virrey's meta data");
  // RocksDB's default part alone: a creation killed before virrey's parts
  // were made, or another program's database, told apart by what it holds
  // before anything is written to it.
  if (!has_meta && ours == 0 && families_hold_data(path, {rocksdb::kDefaultColumnFamilyName}).value_or(false))
    return not_a_database(path, "a RocksDB database without virrey's meta data");
  if (bare) *bare = !has_meta && ours == 0;
  // Killed while its parts were being made (meta first): nothing is stored
  // yet, and a writer makes the missing parts. Another program's database
  // that has a part of meta's name holds data there or in the default part,
  // and is left as it is.
  if (ours < kFamilies.size()) {
    if (has_meta && families_hold_data(path, {rocksdb::kDefaultColumnFamilyName,
                                              std::string(family_info(Family::Meta).name)})
                        .value_or(false))
      return not_a_database(path, "a RocksDB database without virrey's parts (another program's)");
    if (!writer || !create) return unfinished_or_damaged(path);
  }
  return std::nullopt;
}

// A writer's MANIFEST grows by a record for every change while it is open
// (each ingested group, each compaction), and a reader replays all of it at
// open: after a large import, a noticeable part of a short query's time.
// Opening the database again writes a fresh MANIFEST that holds only the
// current state, so writers leave one behind when theirs has grown long.
void shorten_manifest(const std::string& path) {
  constexpr std::uintmax_t kLongManifest = 16 << 10;
  std::error_code ec;
  std::string current;
  if (std::FILE* f = std::fopen((fs::path(path) / "CURRENT").c_str(), "rb")) {
    char buf[256];
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    std::fclose(f);
    current.assign(buf, n);
  }
  while (!current.empty() && (current.back() == '\n' || current.back() == '\r')) current.pop_back();
  if (current.empty() || current.find('/') != std::string::npos) return;
  const std::uintmax_t size = fs::file_size(fs::path(path) / current, ec);
  if (ec || size <= kLongManifest) return;
  rocksdb::DBOptions dbo = db_options(OpenMode::ReadWrite);
  dbo.info_log = database_log(path);
  Families fam = descriptors();
  for (auto& d : fam.descriptors) d.options.disable_auto_compactions = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  if (rocksdb::DB::Open(dbo, path, fam.descriptors, &handles, &raw).ok() && raw) {
    for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
    raw->Close().PermitUncheckedError();
  }
  delete raw;
}

// Opens a reader through `open` (which sets raw and handles), trying again a
// few times on an I/O error: a writer may delete a file between RocksDB's
// listing it and opening it.
template <class Open>
rocksdb::Status open_with_retries(rocksdb::DB*& raw, std::vector<rocksdb::ColumnFamilyHandle*>& handles,
                                  Open&& open) {
  rocksdb::Status s;
  for (int attempt = 0; attempt < 5; ++attempt) {
    s = open();
    if (s.ok() || !s.IsIOError()) break;
    if (raw) {
      for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
      delete raw;
      raw = nullptr;
    }
    handles.clear();
    ::usleep(20000);
  }
  return s;
}

// RocksDB before 8.3 leaves behind the write-ahead log each writer's open
// makes when nothing was written through it (virrey writes nothing through
// it): one more empty file per open, listed by every later open. Empty,
// they hold nothing to recover; the newest is the one in use. (Safe while
// WAL files are not tracked in the MANIFEST, RocksDB's default.)
void remove_empty_old_logs(const std::string& path) {
  std::error_code ec;
  std::vector<std::pair<std::uint64_t, fs::path>> logs;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= 4 || !name.ends_with(".log")) continue;
    const std::string_view digits(name.data(), name.size() - 4);
    std::uint64_t number = 0;
    const auto [stop, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || stop != digits.data() + digits.size()) continue;
    logs.emplace_back(number, it->path());
  }
  if (ec || logs.size() < 2) return;
  std::sort(logs.begin(), logs.end());
  logs.pop_back();  // the log in use
  for (const auto& [number, log] : logs) {
    std::error_code size_error;
    if (fs::file_size(log, size_error) == 0 && !size_error) fs::remove(log, size_error);
  }
}

}  // namespace

std::string default_database_path(std::string_view flag) {
  if (!flag.empty()) return std::string(flag);
  if (const char* env = std::getenv("VIRREY_DB"); env && *env) return env;
  return "virrey.db";
}

Database::Impl::~Impl() {
  if (db && mode == OpenMode::ReadWrite) flush(true).ok();
  // Readers gone: the files kept for them go now. Readers still open: the
  // files stay, and so does the MANIFEST (shortening it opens the database
  // again, and an open deletes every file the last version does not list).
  bool readers_open = false;
  if (db && deletions_held) {
    readers_open = ::flock(readers_fd, LOCK_EX | LOCK_NB) != 0;
    if (!readers_open) db->EnableFileDeletions(true).PermitUncheckedError();
  }
  if (db) {
    for (auto*& h : cfs)
      if (h) db->DestroyColumnFamilyHandle(h), h = nullptr;
    if (default_cf) db->DestroyColumnFamilyHandle(default_cf);
    db->Close().PermitUncheckedError();
    db.reset();
    if (mode == OpenMode::ReadWrite && !readers_open) shorten_manifest(path);
  }
  if (registered_writer) {  // (not a second open that failed: the first writes on)
    std::lock_guard lock(writers().mutex);
    writers().paths.erase(canonical(path));
  }
  if (!secondary_dir.empty()) {
    std::error_code ec;
    fs::remove_all(secondary_dir, ec);
  }
  if (readers_fd >= 0) ::close(readers_fd);  // after RocksDB's lock is released
}

Status Database::Impl::load_meta() {
  auto get_meta = [&](std::string_view key, std::uint64_t& out, bool& found) -> Status {
    std::string v;
    Status s = get(Family::Meta, key, v, found);
    if (s && found) out = read_u64(v);
    return s;
  };
  bool found = false;
  std::uint64_t v = 0;
  std::string version_bytes;
  if (Status s = get(Family::Meta, view(meta_key(MetaKey::SchemaVersion)), version_bytes, found); !s)
    return s;
  if (found && version_bytes.size() != 4)
    return Error{ErrorKind::Corrupt, fmt::format("{} is damaged: its schema version is {} bytes long, "
                                                 "not 4",
                                                 path, version_bytes.size())};
  schema_version = found ? std::uint32_t(read_u64(version_bytes)) : 0;
  if (Status s = get_meta(view(meta_key(MetaKey::HashTableId)), v, found); !s) return s;
  hash_table_id = found ? std::uint32_t(v) : 0;
  if (Status s = get_meta(view(meta_key(MetaKey::TreePlies)), v, found); !s) return s;
  tree_plies = found ? std::uint32_t(v) : kTreePlies;
  material_index = false;
  material_ordered = false;
  if (cf(Family::Material)) {
    std::string unused;
    if (Status s = get(Family::Material, view(material_complete_key()), unused, found); !s) return s;
    material_index = found;
    if (Status s = get(Family::Material, view(material_ordered_complete_key()), unused, found); !s) return s;
    material_ordered = material_index && found;
  }
  if (Status s = get_meta(view(meta_key(MetaKey::SummaryFormat)), v, found); !s) return s;
  summary_features = found && v >= 2;
  if (Status s = get_meta(view(meta_key(MetaKey::IdentityFormat)), v, found); !s) return s;
  identity_format = found ? std::uint32_t(v) : 1;
  if (Status s = get_meta(view(meta_key(MetaKey::TagFolding)), v, found); !s) return s;
  tags_folded = found && v >= kFoldedTags;
  if (Status s = get_meta(view(meta_key(MetaKey::NextGameId)), v, found); !s) return s;
  next_game_id = found ? GameId(v) : 1;
  for (int i = 0; i < kVariantCount; ++i) {
    if (Status s = get_meta(view(meta_key(MetaKey::Games, Variant(i))), v, found); !s) return s;
    counts[i].games = found ? v : 0;
    if (Status s = get_meta(view(meta_key(MetaKey::Positions, Variant(i))), v, found); !s) return s;
    counts[i].positions = found ? v : 0;
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> counter_entries(
    GameId next_game_id, const std::array<VariantCounts, kVariantCount>& counts) {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](std::string_view key, std::uint64_t value, int bytes) {
    std::string v(std::size_t(bytes), '\0');
    put_be(v.data(), value, bytes);
    out.emplace_back(std::string(key), std::move(v));
  };
  add(view(meta_key(MetaKey::NextGameId)), next_game_id, 4);
  for (int i = 0; i < kVariantCount; ++i) {
    add(view(meta_key(MetaKey::Games, Variant(i))), counts[std::size_t(i)].games, 8);
    add(view(meta_key(MetaKey::Positions, Variant(i))), counts[std::size_t(i)].positions, 8);
  }
  return out;
}

void Database::Impl::put_counters(rocksdb::WriteBatch& batch) const {
  for (const auto& [key, value] : counter_entries(next_game_id, counts))
    batch.Put(cf(Family::Meta), key, value).PermitUncheckedError();
}

Result<std::unique_ptr<Database::Impl>> open_impl(const std::string& path, OpenOptions options,
                                                  bool check_schema) {
  std::error_code ec;
  const auto st = fs::status(path, ec);
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st)) return not_a_database(path, "it is a file");
  // A directory that cannot be listed or entered is told as such, not as
  // one of other files (access: as the process's user may).
  if (exists && ::access(path.c_str(), R_OK | X_OK) != 0)
    return Error{ErrorKind::Io, fmt::format("cannot read {}: {}", path, std::strerror(errno))};
  const bool has_current = exists && fs::exists(fs::path(path) / "CURRENT", ec);
  const bool writer = options.mode == OpenMode::ReadWrite;
  bool fresh = false;
  bool bare = false;  // RocksDB's default part alone (check_families)
  if (!has_current) {
    if (exists && has_table_files(path))
      return Error{ErrorKind::Corrupt,
                   fmt::format("{} is damaged: it holds a database's table files but no CURRENT file (the "
                               "pointer to its MANIFEST); restore it from a copy or import its games again",
                               path)};
    if (exists && !only_unfinished_creation(path)) return not_a_database(path, "a directory of other files");
    if (!writer || !options.create) {
      const bool empty = exists && fs::is_empty(path, ec);
      if (exists && !empty) return unfinished_database(path);
      return Error{ErrorKind::NotADatabase,
                   !exists
                       ? fmt::format("no virrey database at {} (check --db, or import into it first)", path)
                       : fmt::format("no virrey database at {} (an empty directory)", path)};
    }
    fresh = true;
  }

  if (!fresh) {
    // (A running writer may be appending to the MANIFEST: not checked then.)
    if (!writer_running(path)) {
      if (auto damage = truncated_manifest(path)) return Error{ErrorKind::Corrupt, *damage};
    }
    // Readers skip this (it reads the whole MANIFEST once more): a failed
    // open below runs it to say why.
    if (writer) {
      if (auto e = check_families(path, writer, options.create, &bare)) return *e;
    }
  }

  auto impl = std::make_unique<Database::Impl>();
  impl->path = path;
  OpenMode mode = options.mode;
  if (mode == OpenMode::Read) {
    // The shared lock first, then the look for a writer: a writer that opens
    // between the two finds the reader. (Never in the process that writes
    // the database: closing a descriptor of LOCK would drop its lock.)
    if (!open_for_writing_here(path)) {
      impl->readers_fd = open_lock_file(path);
      if (impl->readers_fd >= 0 && ::flock(impl->readers_fd, LOCK_SH | LOCK_NB) != 0) {
        ::close(impl->readers_fd);  // a writer holds it: a secondary instance below
        impl->readers_fd = -1;
      }
    }
    mode = writer_running(path) ? OpenMode::Secondary : OpenMode::ReadOnly;
    if (mode == OpenMode::Secondary && impl->readers_fd >= 0) {
      ::close(impl->readers_fd);
      impl->readers_fd = -1;
    }
  }

  rocksdb::DBOptions dbo = db_options(mode);
  Families fam = descriptors();
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (mode == OpenMode::ReadWrite) {
    dbo.info_log = database_log(path);
    dbo.create_if_missing = fresh;
    dbo.create_missing_column_families = true;  // ours only: meta was checked
    s = rocksdb::DB::Open(dbo, path, fam.descriptors, &handles, &raw);
  } else if (mode == OpenMode::ReadOnly) {
    // A writer that opens meanwhile may delete a log file between our
    // listing it and reading it (empty logs, or obsolete ones).
    s = open_with_retries(raw, handles, [&] {
      return rocksdb::DB::OpenForReadOnly(dbo, path, fam.descriptors, &handles, &raw);
    });
    if (!s.ok() && raw == nullptr && s.IsInvalidArgument()) {
      // Written before the newer families: open without those it lacks.
      fam = present_descriptors(path);
      handles.clear();
      s = rocksdb::DB::OpenForReadOnly(dbo, path, fam.descriptors, &handles, &raw);
    }
  } else {
    auto dir = make_secondary_dir();
    if (!dir) return dir.error();
    impl->secondary_dir = *dir;
    // The writer may delete a file between our reading its list and opening it.
    s = open_with_retries(raw, handles, [&] {
      rocksdb::Status opened =
          rocksdb::DB::OpenAsSecondary(dbo, path, impl->secondary_dir, fam.descriptors, &handles, &raw);
      return opened.ok() ? raw->TryCatchUpWithPrimary() : opened;
    });
    if (!s.ok() && raw == nullptr && s.IsInvalidArgument()) {
      fam = present_descriptors(path);  // as for read-only opens
      handles.clear();
      s = rocksdb::DB::OpenAsSecondary(dbo, path, impl->secondary_dir, fam.descriptors, &handles, &raw);
      if (s.ok()) s = raw->TryCatchUpWithPrimary();
    }
  }
  impl->mode = mode;
  // A secondary instance writes nothing to its directory once open (its
  // information log is none): the directory goes now, so that a reader
  // ended by a signal (`search ... | head`, a kill) leaves nothing in /tmp.
  if (mode == OpenMode::Secondary && s.ok()) {
    fs::remove_all(impl->secondary_dir, ec);
    impl->secondary_dir.clear();
  }
  if (!s.ok() && raw == nullptr) {
    if (!writer && !fresh) {
      if (auto e = check_families(path, writer, options.create)) return *e;
    }
    // RocksDB's LOCK file: held by another writer, or not writable at all
    // (a read-only directory or file system).
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      if (writer_running(path))
        return Error{ErrorKind::Busy, fmt::format("{} is being written by another virrey process", path)};
      return to_error(s,
                      fmt::format("cannot write {} (its LOCK file cannot be taken: is it read-only?)", path));
    }
    if (fresh) return to_error(s, fmt::format("cannot create a database at {}", path));
    return to_error(s, fmt::format("cannot open {}", path));
  }
  impl->db.reset(raw);
  for (std::size_t i = 0; i < handles.size(); ++i) {
    if (fam.family_of[i] < 0)
      impl->default_cf = handles[i];
    else
      impl->cfs[std::size_t(fam.family_of[i])] = handles[i];
  }
  if (!s.ok()) return to_error(s, fmt::format("cannot open {}", path));
  if (bare) {
    // Its default part could not be read before (families_hold_data):
    // a database that holds data there is another program's all the same.
    if (holds_data(*impl->db, impl->default_cf).value_or(true))
      return not_a_database(path, "a RocksDB database without virrey's meta data");
  }
  if (mode == OpenMode::ReadWrite) {
    // Kept open until the database closes (its closing would drop RocksDB's lock).
    impl->readers_fd = open_lock_file(path);
    if (impl->readers_fd >= 0 && ::flock(impl->readers_fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      impl->deletions_held = impl->db->DisableFileDeletions().ok();
      if (impl->deletions_held)
        log::info("{}: a reader has it open: files this writer replaces are kept until it closes", path);
    }
    std::lock_guard lock(writers().mutex);
    writers().paths.insert(canonical(path));
    impl->registered_writer = true;
    // Table files of an import killed before it could ingest them.
    fs::remove_all(IngestGroup::temp_dir(path), ec);
  }

  if (Status ms = impl->load_meta(); !ms) return ms.error();
  if (impl->schema_version == 0) {
    // Created but never initialised (killed at creation): only an empty
    // database may be initialised now.
    bool empty = true;
    Status es = impl->scan(Family::Games, {}, [&](std::string_view, std::string_view) {
      empty = false;
      return false;
    });
    if (!es) return es.error();
    if (!empty) return not_a_database(path, "it has no schema version");
    if (!writer) {
      // Created but not initialised yet (or killed then): an empty database.
      impl->schema_version = kSchemaVersion;
      impl->hash_table_id = zobrist::kHashTableId;
      return impl;
    }
    rocksdb::WriteBatch batch;
    impl->put_meta_u32(batch, MetaKey::SchemaVersion, kSchemaVersion);
    impl->put_meta_u32(batch, MetaKey::HashTableId, zobrist::kHashTableId);
    impl->put_meta_u32(batch, MetaKey::TreePlies, kTreePlies);
    impl->mark_material_index(batch);
    impl->put_meta_u32(batch, MetaKey::SummaryFormat, 2);
    impl->put_meta_u32(batch, MetaKey::IdentityFormat, kIdentityFormat);
    impl->put_meta_u32(batch, MetaKey::TagFolding, kFoldedTags);
    impl->put_counters(batch);
    if (Status ws = impl->write(batch); !ws) return ws.error();
    if (Status ms = impl->load_meta(); !ms) return ms.error();
  }
  // A database known for virrey's, of a schema it may write: a writer
  // removes the empty logs of the opens before.
  if (!check_schema) {
    if (writer) remove_empty_old_logs(path);
    return impl;
  }
  if (Status ss = schema_status(*impl); !ss) return ss.error();
  // The first writer of a database written before the roster rule, or
  // before tags were read as UTF-8, brings its duplicate detection up to
  // date, before anything is added.
  if (writer) {
    if (auto updated = update_identities(*impl); !updated) return updated.error();
    remove_empty_old_logs(path);
  }
  return impl;
}

Status schema_status(const Database::Impl& impl) {
  const std::string& path = impl.path;
  if (impl.schema_version > kSchemaVersion)
    return Error{ErrorKind::NewerSchema,
                 fmt::format("{} has schema version {}; this virrey reads up to version {}: "
                             "use a newer virrey",
                             path, impl.schema_version, kSchemaVersion)};
  if (impl.hash_table_id != zobrist::kHashTableId)
    return Error{ErrorKind::NewerSchema,
                 fmt::format("{} hashes positions with table {}; this virrey uses table {}", path,
                             impl.hash_table_id, zobrist::kHashTableId)};
  if (impl.schema_version < kSchemaVersion)
    return Error{ErrorKind::OlderSchema,
                 fmt::format("{} has schema version {}, from an older virrey; this virrey reads "
                             "version {}: run `virrey db upgrade --db {}`",
                             path, impl.schema_version, kSchemaVersion, path)};
  return {};
}

Result<std::unique_ptr<Database>> Database::open(const std::string& path, OpenOptions options) {
  auto impl = open_impl(path, options, true);
  if (!impl) return impl.error();
  return std::unique_ptr<Database>(new Database(std::move(*impl)));
}

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::~Database() = default;

const std::string& Database::path() const { return impl_->path; }
bool Database::writable() const { return impl_->mode == OpenMode::ReadWrite; }

}  // namespace virrey::store
