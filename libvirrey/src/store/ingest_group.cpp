#include "ingest_group.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <rocksdb/sst_file_writer.h>

namespace virrey::store {

rocksdb::Options table_file_options(Family f) {
  rocksdb::Options options(db_options(OpenMode::ReadWrite), family_options(f));
  // A table file is written with the bottommost level's compression: zstd
  // for game records and summaries, whose rising keys keep their files
  // where they are ingested; none for postings. The tag index and the tree
  // are written with zstd too, as an import leaves them (compacting them
  // when an import ends cost more time than it saved space). Promotions and
  // identities, which hardly compress, get the cheaper lz4.
  if (f == Family::Promotions || f == Family::Identities)
    options.bottommost_compression = rocksdb::kLZ4Compression;
  return options;
}

IngestGroup::IngestGroup(Database::Impl& d) : d_(d) {}

std::string IngestGroup::temp_dir(const std::string& db_path) { return db_path + "/ingest.tmp"; }

void IngestGroup::add(Family f, std::string_view key, std::string_view value, bool merge) {
  Run& run = runs_[std::size_t(f)];
  std::uint64_t prefix[2] = {0, 0};
  for (std::size_t i = 0; i < 16; ++i)
    prefix[i / 8] = prefix[i / 8] << 8 | (i < key.size() ? std::uint8_t(key[i]) : 0);
  run.entries.push_back({prefix[0], prefix[1], std::uint32_t(run.data.size()), std::uint32_t(key.size()),
                         std::uint32_t(value.size()), merge});
  run.data.append(key);
  run.data.append(value);
  run.bytes += key.size() + value.size() + sizeof(Entry);
}

std::size_t IngestGroup::bytes() const {
  std::size_t n = 0;
  for (const Run& run : runs_) n += run.bytes;
  return n;
}

void IngestGroup::put(Family f, std::string_view key, std::string_view value) { add(f, key, value, false); }

void IngestGroup::merge(Family f, std::string_view key, std::string_view value) { add(f, key, value, true); }

Status IngestGroup::write_run(Family f, Run& run, const std::string& path) {
  const auto& data = run.data;
  auto key_of = [&](const Entry& e) { return std::string_view(data.data() + e.offset, e.key_size); };
  // Sorted by key; of equal keys the last added wins (ties by position, keep
  // last). Most runs come in order (ids rise; postings go by bucket).
  const auto before = [&](const Entry& a, const Entry& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    if (a.prefix2 != b.prefix2) return a.prefix2 < b.prefix2;
    const int c = key_of(a).compare(key_of(b));
    return c != 0 ? c < 0 : a.offset < b.offset;
  };
  if (!std::is_sorted(run.entries.begin(), run.entries.end(), before))
    std::sort(run.entries.begin(), run.entries.end(), before);

  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), table_file_options(f), d_.cf(f));
  rocksdb::Status s = writer.Open(path);
  for (std::size_t i = 0; s.ok() && i < run.entries.size(); ++i) {
    const Entry& e = run.entries[i];
    if (i + 1 < run.entries.size() && key_of(run.entries[i + 1]) == key_of(e)) continue;
    const rocksdb::Slice key(data.data() + e.offset, e.key_size);
    const rocksdb::Slice value(data.data() + e.offset + e.key_size, e.value_size);
    s = e.merge ? writer.Merge(key, value) : writer.Put(key, value);
  }
  if (s.ok()) s = writer.Finish();
  if (!s.ok()) return to_error(s, fmt::format("writing {}", path));
  return {};
}

Status IngestGroup::ingest() {
  if (empty()) return {};
  const std::string dir = temp_dir(d_.path);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{ErrorKind::Io, fmt::format("cannot create {}: {}", dir, ec.message())};

  // One table file per family, written side by side (each sorts and
  // compresses its own run).
  std::vector<const FamilyInfo*> families;
  std::vector<std::string> paths;
  for (const FamilyInfo& fi : kFamilies) {
    if (runs_[std::size_t(fi.family)].entries.empty()) continue;
    families.push_back(&fi);
    paths.push_back(fmt::format("{}/{}-{}.sst", dir, fi.name, ++files_));
  }
  std::vector<Status> written(families.size());
  auto write = [&](std::size_t i) {
    const Family f = families[i]->family;
    written[i] = write_run(f, runs_[std::size_t(f)], paths[i]);
  };
  {
    std::vector<std::jthread> writers;
    for (std::size_t i = 1; i < families.size(); ++i) writers.emplace_back(write, i);
    if (!families.empty()) write(0);
  }
  std::vector<rocksdb::IngestExternalFileArg> args;
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (!written[i]) {
      for (const std::string& p : paths) std::filesystem::remove(p, ec);
      return written[i];
    }
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = d_.cf(families[i]->family);
    arg.external_files.push_back(paths[i]);
    arg.options.move_files = true;           // link the file in, no copy
    arg.options.write_global_seqno = false;  // the sequence number lives in the manifest
    args.push_back(std::move(arg));
  }
  rocksdb::Status s = d_.db->IngestExternalFiles(args);
  for (const auto& arg : args) std::filesystem::remove(arg.external_files[0], ec);
  if (!s.ok()) return to_error(s, fmt::format("writing {}", d_.path));
  for (Run& run : runs_) {
    run.data.clear();
    run.entries.clear();
    run.bytes = 0;
  }
  return {};
}

}  // namespace virrey::store
