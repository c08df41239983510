#include "store_hooks.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>

#include "ingest_group.hpp"
#include "material_postings.hpp"
#include "position_postings.hpp"
#include "rocks.hpp"
#include "varint.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store::testing {

namespace {

Status write_one(const std::string& path,
                 const std::function<void(Database::Impl&, rocksdb::WriteBatch&)>& fill) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  rocksdb::WriteBatch batch;
  fill(**impl, batch);
  return (*impl)->write(batch);
}

}  // namespace

Status set_schema_version(const std::string& path, std::uint32_t version) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    d.put_meta_u32(batch, MetaKey::SchemaVersion, version);
  });
}

Status set_schema_version_bytes(const std::string& path, const std::string& bytes) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    const auto key = meta_key(MetaKey::SchemaVersion);
    batch.Put(d.cf(Family::Meta), rocksdb::Slice(key.data(), key.size()), bytes).PermitUncheckedError();
  });
}

Status set_next_game_id(const std::string& path, std::uint32_t id) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    d.put_meta_u32(batch, MetaKey::NextGameId, id);
  });
}

Status delete_game_record(const std::string& path, std::uint32_t id) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    const auto key = game_key(id);
    batch.Delete(d.cf(Family::Games), rocksdb::Slice(key.data(), key.size())).PermitUncheckedError();
  });
}

Status put_position_entry(const std::string& path, Variant v, std::uint64_t hash, std::uint32_t game) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    // Into the postings of the segment whose range holds the game, if any.
    std::string key(view(position_key(v, hash, game))), value;
    GameId first = game;
    d.scan(Family::Positions, view(position_prefix(v, hash)), [&](std::string_view k, std::string_view val) {
       auto pk = parse_position_key(k);
       if (!pk || pk->first > game) return false;
       key = k;
       value = val;
       first = pk->first;
       return true;
     }).ok();
    std::vector<Posting> postings;
    int bits = kMaxFingerprintBits;
    decode_postings(value, first, [&](const DecodedPosting& p) {
      postings.push_back({p.game, p.fingerprint});
      bits = p.bits;
      return true;
    });
    const Posting added{game, position_fingerprint(hash, bits)};
    postings.insert(std::upper_bound(postings.begin(), postings.end(), added,
                                     [](const Posting& a, const Posting& b) { return a.game < b.game; }),
                    added);
    batch.Put(d.cf(Family::Positions), key, encode_postings(first, postings, bits)).PermitUncheckedError();
  });
}

Status put_raw_entry(const std::string& path, Family family, const std::string& key,
                     const std::string& value) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    batch.Put(d.cf(family), key, value).PermitUncheckedError();
  });
}

}  // namespace virrey::store::testing

namespace virrey::store::testing {

Status drop_material_index(const std::string& path) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  Database::Impl& d = **impl;
  rocksdb::ColumnFamilyHandle*& h = d.cfs[std::size_t(Family::Material)];
  const rocksdb::Status s = d.db->DropColumnFamily(h);
  if (!s.ok()) return Error{ErrorKind::Io, s.ToString()};
  d.db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  h = nullptr;
  return {};
}

Status drop_material_order(const std::string& path) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    // Kinds 3 (the entries) and 4 (the mark): keys.hpp.
    batch.DeleteRange(d.cf(Family::Material), rocksdb::Slice("\x03", 1), rocksdb::Slice("\x05", 1))
        .PermitUncheckedError();
  });
}

Status key_material_postings_by_balance(const std::string& path, bool search_order_dictionary) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  Database::Impl& d = **impl;
  rocksdb::ColumnFamilyHandle* cf = d.cf(Family::Material);
  rocksdb::WriteBatch batch;
  auto put = [&](std::string_view key, std::string_view value) {
    batch.Put(cf, rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(value.data(), value.size()))
        .PermitUncheckedError();
  };
  Status s = d.scan(Family::Material, {}, [&](std::string_view key, std::string_view value) {
    auto k = parse_material_key(key);
    if (!k || !k->postings || !k->ordered) return true;
    std::string old_value;
    GameId previous = k->first;
    decode_material_postings(value, k->first, [&](const MaterialHit& h) {
      append_material_posting(old_value, previous, h);
      previous = h.game;
      return true;
    });
    put(view(material_old_postings_key(k->variant, k->material, k->first)), old_value);
    put(view(material_dictionary_key(k->variant, k->material)), {});
    if (search_order_dictionary) put(view(material_ordered_key(k->variant, k->material)), {});
    batch.Delete(cf, rocksdb::Slice(key.data(), key.size())).PermitUncheckedError();
    return true;
  });
  if (!s) return s;
  // Without the dictionary in search order: kinds 3 (the entries) and 4 (the mark).
  if (!search_order_dictionary)
    batch.DeleteRange(cf, rocksdb::Slice("\x03", 1), rocksdb::Slice("\x05", 1)).PermitUncheckedError();
  return d.write(batch);
}

Status drop_summary_format(const std::string& path) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  rocksdb::WriteBatch batch;
  batch.Delete((*impl)->cf(Family::Meta), view(meta_key(MetaKey::SummaryFormat))).PermitUncheckedError();
  return (*impl)->write(batch);
}

Status identities_as_read(const std::string& path) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  Database::Impl& d = **impl;
  rocksdb::WriteBatch batch;
  batch.DeleteRange(d.cf(Family::Identities), rocksdb::Slice(""), rocksdb::Slice("\xff", 1))
      .PermitUncheckedError();
  Status failure;
  Status s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
    auto rec = decode_game(value, kDecodeTags | kDecodeMainLine);
    if (!rec) {
      failure = rec.error();
      return false;
    }
    batch
        .Put(d.cf(Family::Identities),
             view(identity_key(rec->variant, game::game_identity(*rec, game::IdentityRule::AsRead),
                               game_key_id(key))),
             {})
        .PermitUncheckedError();
    return true;
  });
  if (!s) return s;
  if (!failure) return failure;
  batch.Delete(d.cf(Family::Meta), view(meta_key(MetaKey::IdentityFormat))).PermitUncheckedError();
  return d.write(batch);
}

namespace {
// UTF-8 of characters below U+0100 as Latin-1 bytes; nullopt for text with
// another character beyond ASCII, or none.
std::optional<std::string> as_latin1(std::string_view text) {
  std::string out;
  bool beyond_ascii = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += char(c);
    } else if ((c == 0xc2 || c == 0xc3) && i + 1 < text.size()) {
      out += char(((c & 0x03) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3f));
      beyond_ascii = true;
    } else {
      return std::nullopt;
    }
  }
  if (!beyond_ascii) return std::nullopt;
  return out;
}
}  // namespace

Result<std::uint64_t> tags_stored_as_latin1(const std::string& path) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  Database::Impl& d = **impl;
  rocksdb::WriteBatch batch;
  std::uint64_t rewritten = 0;
  Status failure;
  Status s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
    const GameId id = game_key_id(key);
    auto rec = decode_game(value, kDecodeAll);
    if (!rec) {
      failure = rec.error();
      return false;
    }
    game::GameRecord latin1 = *rec;
    bool changed = false;
    for (game::TagPair& t : latin1.tags)
      if (auto bytes = as_latin1(t.value)) t.value = *bytes, changed = true;
    if (!changed) return true;
    auto now = index_game(*rec), then = index_game(latin1);
    auto record = encode_game(latin1);
    if (!now || !then || !record) {
      failure = Error{ErrorKind::Corrupt, "a game that does not index"};
      return false;
    }
    batch.Put(d.cf(Family::Games), rocksdb::Slice(key.data(), key.size()), *record).PermitUncheckedError();
    for (const TagEntry& t : now->tags)
      batch.Delete(d.cf(Family::Tags), tag_key(t.field, t.value, id)).PermitUncheckedError();
    for (const TagEntry& t : then->tags)
      batch.Put(d.cf(Family::Tags), tag_key(t.field, t.value, id), {}).PermitUncheckedError();
    batch.Delete(d.cf(Family::Identities), view(identity_key(rec->variant, game::game_identity(*rec), id)))
        .PermitUncheckedError();
    batch
        .Put(d.cf(Family::Identities),
             view(identity_key(rec->variant, game::game_identity(latin1, game::IdentityRule::RosterAsBytes),
                               id)),
             {})
        .PermitUncheckedError();
    ++rewritten;
    return true;
  });
  if (!s) return s.error();
  if (!failure) return failure.error();
  d.put_meta_u32(batch, MetaKey::IdentityFormat, 2);
  if (Status w = d.write(batch); !w) return w.error();
  return rewritten;
}

namespace {
// The rule before: ASCII and Latin-1 capitals lower-cased, blanks trimmed
// and runs of them one space, NUL bytes dropped.
std::string latin1_fold(std::string_view value) {
  std::string out;
  bool blank = false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    if (c == 0) continue;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += char(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (c == 0xc3 && i + 1 < value.size()) {
      auto d = static_cast<unsigned char>(value[++i]);
      out += char(d >= 0x80 && d <= 0x9e && d != 0x97 ? d + 32 : d);
    }
  }
  return out;
}
}  // namespace

Status tags_folded_as_latin1(const std::string& path) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  Database::Impl& d = **impl;
  rocksdb::WriteBatch batch;
  Status failure;
  Status s = d.scan(Family::Tags, {}, [&](std::string_view key, std::string_view) {
    auto k = parse_tag_key(key);
    if (!k) return true;
    std::string game_value;
    bool found = false;
    if (Status g = d.get(Family::Games, view(game_key(k->game)), game_value, found); !g || !found) {
      failure = g ? Status{Error{ErrorKind::Corrupt, "a tag key of no game"}} : g;
      return false;
    }
    auto rec = decode_game(game_value, kDecodeTags);
    if (!rec) {
      failure = rec.error();
      return false;
    }
    // The tag whose value gave the key (White, Black ... by field).
    const std::string_view raw = rec->tag(tag_field_name(k->field));
    if (normalize_tag_value(raw) != k->value) return true;  // Result, Variant: not from a tag
    const std::string older = tag_key(k->field, latin1_fold(raw), k->game);
    if (older == key) return true;
    batch.Delete(d.cf(Family::Tags), rocksdb::Slice(key.data(), key.size())).PermitUncheckedError();
    batch.Put(d.cf(Family::Tags), older, {}).PermitUncheckedError();
    return true;
  });
  if (!s) return s;
  if (!failure) return failure;
  batch.Delete(d.cf(Family::Meta), view(meta_key(MetaKey::TagFolding))).PermitUncheckedError();
  return d.write(batch);
}

Result<std::vector<std::uint64_t>> files_below_level0(const std::string& path, Family family) {
  auto impl = open_impl(path, {OpenMode::ReadOnly, false}, false);
  if (!impl) return impl.error();
  rocksdb::ColumnFamilyMetaData md;
  (*impl)->db->GetColumnFamilyMetaData((*impl)->cf(family), &md);
  std::vector<std::uint64_t> numbers;
  for (const rocksdb::LevelMetaData& level : md.levels)
    if (level.level > 0)
      for (const rocksdb::SstFileMetaData& file : level.files) numbers.push_back(file.file_number);
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

Status move_level0_files(const std::string& path, Family family, int level) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  rocksdb::ColumnFamilyMetaData md;
  (*impl)->db->GetColumnFamilyMetaData((*impl)->cf(family), &md);
  std::vector<std::string> files;
  for (const rocksdb::SstFileMetaData& file : md.levels[0].files) files.push_back(file.db_path + file.name);
  if (files.empty()) return {};
  const rocksdb::Status s =
      (*impl)->db->CompactFiles(rocksdb::CompactionOptions(), (*impl)->cf(family), files, level);
  if (!s.ok()) return Error{ErrorKind::Io, s.ToString()};
  return {};
}

Status add_runs_of_the_same_entries(const std::string& path, Family family, int runs) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  rocksdb::DB& db = *(*impl)->db;
  rocksdb::ColumnFamilyHandle* cf = (*impl)->cf(family);
  for (int run = 0; run < runs; ++run) {
    const std::string file = path + "/run-" + std::to_string(run) + ".sst.tmp";
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), table_file_options(family), cf);
    rocksdb::Status s = writer.Open(file);
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), cf));
    for (it->SeekToFirst(); s.ok() && it->Valid(); it->Next()) s = writer.Put(it->key(), it->value());
    if (s.ok()) s = it->status();
    if (s.ok()) s = writer.Finish();
    if (s.ok()) {
      rocksdb::IngestExternalFileOptions o;
      o.move_files = true;
      s = db.IngestExternalFile(cf, {file}, o);
    }
    if (!s.ok()) return Error{ErrorKind::Io, s.ToString()};
  }
  return {};
}

Result<RunsAboveLastLevel> runs_above_last_level(const std::string& path, Family family) {
  auto impl = open_impl(path, {OpenMode::ReadOnly, false}, false);
  if (!impl) return impl.error();
  rocksdb::ColumnFamilyMetaData md;
  (*impl)->db->GetColumnFamilyMetaData((*impl)->cf(family), &md);
  RunsAboveLastLevel r;
  r.level0_files = md.levels[0].files.size();
  r.runs = r.level0_files;
  for (std::size_t i = 1; i + 1 < md.levels.size(); ++i) r.runs += md.levels[i].files.empty() ? 0 : 1;
  for (std::size_t i = 0; i < md.levels.size(); ++i)
    for (const rocksdb::SstFileMetaData& file : md.levels[i].files)
      (i + 1 < md.levels.size() ? r.above_bytes : r.last_bytes) += file.size;
  return r;
}

Status open_and_close_with_rocksdb(const std::string& path) {
  rocksdb::DBOptions options;
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(options, path, &names);
  if (!s.ok()) return to_error(s, "listing the parts of " + path);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    rocksdb::ColumnFamilyOptions family;
    family.disable_auto_compactions = true;  // (merge operands need virrey's operators)
    descriptors.emplace_back(name, family);
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::Open(options, path, descriptors, &handles, &raw);
  if (!s.ok()) return to_error(s, "opening " + path);
  for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
  s = raw->Close();
  delete raw;
  if (!s.ok()) return to_error(s, "closing " + path);
  return {};
}

Status make_bare_rocksdb(const std::string& path, bool with_entry) {
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  if (!s.ok()) return to_error(s, "creating " + path);
  std::unique_ptr<rocksdb::DB> db(raw);
  if (!with_entry) return {};
  s = db->Put(rocksdb::WriteOptions(), "user:1", "{\"name\": \"another program\"}");
  if (!s.ok()) return to_error(s, "writing " + path);
  return {};
}

Status make_rocksdb_with_family(const std::string& path, const std::string& family, bool default_entry) {
  if (Status s = make_bare_rocksdb(path, default_entry); !s) return s;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(rocksdb::Options(), path, &raw);
  if (!s.ok()) return to_error(s, "opening " + path);
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  s = db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(), family, &handle);
  if (!s.ok()) return to_error(s, "making " + family + " in " + path);
  s = db->Put(rocksdb::WriteOptions(), handle, "version", "7");
  db->DestroyColumnFamilyHandle(handle);
  if (!s.ok()) return to_error(s, "writing " + path);
  return {};
}

std::vector<std::string> rocksdb_parts(const std::string& path) {
  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), path, &names).ok()) names.clear();
  return names;
}

}  // namespace virrey::store::testing
