// The reads of the Database facade and the RocksDB helpers behind them.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <rocksdb/iterator.h>
#include <rocksdb/metadata.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/table_properties.h>
#include <rocksdb/write_batch.h>

#include "position_postings.hpp"
#include "rocks.hpp"
#include "varint.hpp"

namespace virrey::store {

Error to_error(const rocksdb::Status& s, std::string_view what) {
  ErrorKind kind = ErrorKind::Io;
  if (s.IsCorruption())
    kind = ErrorKind::Corrupt;
  else if (s.IsNotFound())
    kind = ErrorKind::NotFound;
  else if (s.IsInvalidArgument())
    kind = ErrorKind::InvalidArgument;
  return Error{kind, fmt::format("{}: {}", what, status_text(s))};
}

std::string status_text(const rocksdb::Status& s) {
  std::string text = s.ToString();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  // RocksDB's word for a table file cut short runs the file's name into it
  // and gives the size the database recorded, not the file's.
  constexpr std::string_view kShort = "file is too short (";
  constexpr std::string_view kTable = " bytes) to be an sstable";
  if (const std::size_t at = text.find(kShort); at != std::string::npos) {
    const std::size_t table = text.find(kTable, at);
    if (table != std::string::npos) {
      const std::string recorded = text.substr(at + kShort.size(), table - at - kShort.size());
      std::string file = text.substr(table + kTable.size());
      file = file.substr(0, file.find(' '));
      text.replace(
          at, table + kTable.size() + file.size() - at,
          fmt::format("table file {} is cut short (the database recorded {} bytes)", file, recorded));
    }
  }
  return text;
}

void start_read_counting() {
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
}

ReadCounts read_counts() {
  const rocksdb::PerfContext& p = *rocksdb::get_perf_context();
  return {p.block_read_byte, p.block_read_count, p.block_cache_hit_count};
}

std::string prefix_successor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty()) {
    if (std::uint8_t(s.back()) != 0xff) {
      s.back() = char(std::uint8_t(s.back()) + 1);
      return s;
    }
    s.pop_back();
  }
  return s;
}

rocksdb::ReadOptions Database::Impl::read_options() const {
  rocksdb::ReadOptions ro;
  ro.total_order_seek = true;
  return ro;
}

rocksdb::ReadOptions Database::Impl::prefix_read_options(Family f, std::size_t prefix_size) const {
  rocksdb::ReadOptions ro = read_options();
  if (f == Family::Identities && prefix_size == 9) {
    ro.total_order_seek = false;
    ro.prefix_same_as_start = true;
  }
  return ro;
}

Status Database::Impl::scan(Family f, std::string_view prefix,
                            const std::function<bool(std::string_view, std::string_view)>& visit,
                            std::string_view from) const {
  rocksdb::ReadOptions ro = prefix_read_options(f, prefix.size());
  const std::string upper = prefix_successor(prefix);
  rocksdb::Slice upper_slice(upper);
  if (!upper.empty()) ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, cf(f)));
  const std::string_view start = from.empty() ? prefix : from;
  for (it->Seek(rocksdb::Slice(start.data(), start.size())); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key(), v = it->value();
    const std::string_view key(k.data(), k.size());
    if (key.substr(0, prefix.size()) != prefix) break;
    if (!visit(key, std::string_view(v.data(), v.size()))) return {};
  }
  if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", path));
  return {};
}

Status Database::Impl::get(Family f, std::string_view key, std::string& value, bool& found) const {
  rocksdb::Status s = db->Get(read_options(), cf(f), rocksdb::Slice(key.data(), key.size()), &value);
  found = s.ok();
  if (s.ok() || s.IsNotFound()) return {};
  return to_error(s, fmt::format("reading {}", path));
}

Status Database::Impl::write(rocksdb::WriteBatch& batch) {
  // No write-ahead log: the batch is made durable, and visible to other
  // processes, by flushing every family at once (atomic_flush).
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  rocksdb::Status s = db->Write(wo, &batch);
  if (!s.ok()) return to_error(s, fmt::format("writing {}", path));
  return flush(true);
}

Status Database::Impl::flush(bool wait) {
  rocksdb::FlushOptions fo;
  fo.wait = wait;
  fo.allow_write_stall = true;
  std::vector<rocksdb::ColumnFamilyHandle*> all;
  for (auto* h : cfs)
    if (h) all.push_back(h);
  rocksdb::Status s = db->Flush(fo, all);
  if (!s.ok()) return to_error(s, fmt::format("writing {}", path));
  return {};
}

// --- counts and layout --------------------------------------------------------

std::array<VariantCounts, kVariantCount> Database::counts() const {
  std::lock_guard lock(impl_->meta_mutex);
  return impl_->counts;
}
std::uint32_t Database::tree_plies() const { return impl_->tree_plies; }

Result<DatabaseInfo> Database::info() const {
  DatabaseInfo out;
  out.path = impl_->path;
  out.schema_version = impl_->schema_version;
  out.hash_table_id = impl_->hash_table_id;
  out.tree_plies = impl_->tree_plies;
  {
    std::lock_guard lock(impl_->meta_mutex);
    out.next_game_id = impl_->next_game_id;
    out.counts = impl_->counts;
  }
  for (const FamilyInfo& fi : kFamilies) {
    if (!impl_->cf(fi.family)) continue;  // a newer family an older database lacks
    rocksdb::ColumnFamilyMetaData md;
    impl_->db->GetColumnFamilyMetaData(impl_->cf(fi.family), &md);
    FamilySize size{fi.name, md.size, 0, std::uint32_t(md.file_count), 0};
    if (!md.levels.empty()) size.level0_files = std::uint32_t(md.levels[0].files.size());
    // Entries in table files (a tree key counts once per file holding it);
    // what only a writer's memory holds is not on disk yet.
    rocksdb::TablePropertiesCollection tables;
    if (impl_->db->GetPropertiesOfAllTables(impl_->cf(fi.family), &tables).ok())
      for (const auto& [name, props] : tables) size.entries += props->num_entries - props->num_deletions;
    out.families.push_back(size);
  }
  out.total_bytes = directory_bytes(impl_->path);
  return out;
}

std::uint64_t directory_bytes(const std::string& path) {
  std::uint64_t total = 0;
  std::error_code ec;
  // increment(ec), not ++: a folder that cannot be opened (no file
  // descriptor left, a file deleted meanwhile) ends the count, no exception.
  std::filesystem::recursive_directory_iterator it(path, ec), end;
  for (; !ec && it != end; it.increment(ec))
    if (std::error_code file; it->is_regular_file(file)) {
      const auto bytes = it->file_size(file);
      if (!file) total += bytes;
    }
  return total;
}

// --- games --------------------------------------------------------------------

Result<game::GameRecord> Database::game(GameId id, unsigned parts, std::uint32_t main_line_plies,
                                        int main_line_min_men) const {
  std::string value;
  bool found = false;
  const auto key = game_key(id);
  if (Status s = impl_->get(Family::Games, view(key), value, found); !s) return s.error();
  if (!found) return Error{ErrorKind::NotFound, fmt::format("no game {}", id)};
  return decode_game(value, parts, main_line_plies, main_line_min_men);
}

Result<GameSummary> Database::summary(GameId id) const {
  std::string value;
  bool found = false;
  const auto key = game_key(id);
  if (Status s = impl_->get(Family::Summaries, view(key), value, found); !s) return s.error();
  if (!found) return Error{ErrorKind::NotFound, fmt::format("no game {}", id)};
  auto summary = decode_summary(value);
  if (!summary) return Error{ErrorKind::Corrupt, fmt::format("game {}: bad summary", id)};
  return *summary;
}

namespace {

// The games a database held before a scan of them all began: a scan that
// ends with fewer met a table file missing or cut short, which RocksDB may
// take for the end of the data (games are never removed, and a writer
// beside only adds).
std::uint64_t games_held(const Database& db) {
  std::uint64_t held = 0;
  for (const VariantCounts& c : db.counts()) held += c.games;
  return held;
}

Status all_read(const std::string& path, std::string_view what, std::uint64_t seen, std::uint64_t held) {
  if (seen >= held) return {};
  return Error{ErrorKind::Corrupt,
               fmt::format("{}: {} {} read of the {} games it holds: a table file is missing or damaged "
                           "(`virrey db check`)",
                           path, seen, what, held)};
}

}  // namespace

Status Database::for_each_game(const Visit<GameId, const game::GameRecord&>& visit, unsigned parts,
                               GameId first) const {
  Status result;
  const std::uint64_t held = first <= 1 ? games_held(*this) : 0;
  std::uint64_t seen = 0;
  bool stopped = false;
  const auto from = game_key(first);
  Status s = impl_->scan(
      Family::Games, {},
      [&](std::string_view key, std::string_view value) {
        auto rec = decode_game(value, parts);
        if (!rec) {
          result =
              Error{ErrorKind::Corrupt, fmt::format("game {}: {}", game_key_id(key), rec.error().message)};
          return false;
        }
        ++seen;
        return !(stopped = !visit(game_key_id(key), *rec));
      },
      view(from));
  if (!s) return s;
  if (!result) return result;
  return stopped ? Status{} : all_read(impl_->path, "games", seen, held);
}

Status Database::for_each_summary(const Visit<GameId, const GameSummary&>& visit, GameId first) const {
  Status result;
  const std::uint64_t held = first <= 1 ? games_held(*this) : 0;
  std::uint64_t seen = 0;
  bool stopped = false;
  const auto from = game_key(first);
  Status s = impl_->scan(
      Family::Summaries, {},
      [&](std::string_view key, std::string_view value) {
        auto summary = decode_summary(value);
        if (!summary) {
          result = Error{ErrorKind::Corrupt, fmt::format("game {}: bad summary", game_key_id(key))};
          return false;
        }
        ++seen;
        return !(stopped = !visit(game_key_id(key), *summary));
      },
      view(from));
  if (!s) return s;
  if (!result) return result;
  return stopped ? Status{} : all_read(impl_->path, "summaries", seen, held);
}

// --- indexes ------------------------------------------------------------------

Status Database::for_each_position(Variant v, std::uint64_t hash,
                                   const Visit<const PositionHit&>& visit) const {
  const auto prefix = position_prefix(v, hash);
  bool corrupt = false, stopped = false;
  GameId last = 0;
  Status s = impl_->scan(Family::Positions, view(prefix), [&](std::string_view key, std::string_view value) {
    auto k = parse_position_key(key);
    if (!k) return !(corrupt = true);
    int bits = 0;
    std::uint64_t want = 0;
    const bool ok = decode_postings(
        value, k->first,
        [&](const DecodedPosting& p) {
          if (p.bits != bits) want = position_fingerprint(hash, bits = p.bits);
          if (p.fingerprint != want || p.game == last) return true;
          last = p.game;
          return visit(PositionHit{p.game});
        },
        &stopped);
    if (!ok && !stopped) corrupt = true;
    return ok;
  });
  if (!s) return s;
  if (corrupt) return Error{ErrorKind::Corrupt, "bad position index entry"};
  return {};
}

Result<std::vector<TreeMove>> Database::tree_moves(Variant v, std::uint64_t hash) const {
  std::vector<TreeMove> out;
  Status result;
  const auto prefix = tree_prefix(v, hash);
  Status s = impl_->scan(Family::Tree, view(prefix), [&](std::string_view key, std::string_view value) {
    auto c = decode_tree_counters(value);
    if (!c || key.size() != prefix.size() + 3) {
      result = Error{ErrorKind::Corrupt, "bad opening tree entry"};
      return false;
    }
    out.push_back({move_from_bytes(key.data() + prefix.size()), *c});
    return true;
  });
  if (!s) return s.error();
  if (!result) return result.error();
  return out;
}

namespace {
// A letter beyond Latin-1 in a key's value (a lead byte of U+0100 and up):
// in a database written before MetaKey::TagFolding it may be a capital.
bool beyond_latin1(std::string_view value) {
  return std::any_of(value.begin(), value.end(),
                     [](char c) { return static_cast<unsigned char>(c) >= 0xc4; });
}
}  // namespace

Status Database::for_each_tag(TagField field, std::string_view value, TagMatch match,
                              const Visit<GameId, std::string_view>& visit) const {
  const std::string norm = normalize_tag_value(value);
  auto scan_form = [&](std::string_view form, TagMatch m, const Visit<GameId, std::string_view>& on_key) {
    const std::string prefix =
        m == TagMatch::Exact ? tag_exact_prefix(field, form) : tag_value_prefix(field, form);
    return impl_->scan(Family::Tags, prefix, [&](std::string_view key, std::string_view) {
      auto k = parse_tag_key(key);
      return !k || on_key(k->game, k->value);
    });
  };
  TagKeyForms forms;
  if (!impl_->tags_folded) forms = tag_key_forms(norm);
  if (forms.forms.size() <= 1 && !forms.cut) return scan_form(norm, match, visit);
  // Keys written before letters beyond Latin-1 were lower-cased: every form
  // the value may have there, each key's value compared lower-cased. An
  // exact value's games are given in id order, as one form's are.
  const TagMatch form_match = forms.cut ? TagMatch::Prefix : match;
  std::vector<GameId> games;
  bool stopped = false;
  for (const std::string& form : forms.forms) {
    Status s = scan_form(form, form_match, [&](GameId id, std::string_view key_value) {
      const std::string folded = normalize_tag_value(key_value);
      const bool hit = match == TagMatch::Exact ? folded == norm : folded.starts_with(norm);
      if (!hit) return true;
      if (match == TagMatch::Exact) return games.push_back(id), true;
      stopped = !visit(id, folded);
      return !stopped;
    });
    if (!s || stopped) return s;
  }
  std::sort(games.begin(), games.end());
  for (GameId id : games)
    if (!visit(id, norm)) break;
  return {};
}

Status Database::for_each_tag_range(TagField field, std::string_view lo, std::string_view hi,
                                    const Visit<GameId, std::string_view>& visit) const {
  const std::string from = tag_value_prefix(field, normalize_tag_value(lo));
  const std::string end = hi.empty() ? prefix_successor(tag_value_prefix(field, {}))
                                     : prefix_successor(tag_value_prefix(field, normalize_tag_value(hi)));
  const std::string field_prefix = tag_value_prefix(field, {});
  const bool refold = !impl_->tags_folded;
  return impl_->scan(
      Family::Tags, field_prefix,
      [&](std::string_view key, std::string_view) {
        if (!end.empty() && key >= end) return false;
        auto k = parse_tag_key(key);
        if (!k) return true;
        if (refold && beyond_latin1(k->value)) return visit(k->game, normalize_tag_value(k->value));
        return visit(k->game, k->value);
      },
      from);
}

Status Database::for_each_promotion(const PromotionFilter& f, const Visit<const PromotionHit&>& visit) const {
  // The longest key prefix the filter fixes; the rest is filtered per entry.
  std::string prefix;
  if (f.variant) {
    prefix += char(*f.variant);
    if (f.piece) {
      prefix += char(*f.piece);
      if (f.colour) {
        prefix += char(*f.colour);
        if (f.file) prefix += char(*f.file);
      }
    }
  }
  return impl_->scan(Family::Promotions, prefix, [&](std::string_view key, std::string_view value) {
    auto k = parse_promotion_key(key);
    if (!k) return true;
    if ((f.variant && k->variant != *f.variant) || (f.piece && k->piece != *f.piece) ||
        (f.colour && k->colour != *f.colour) || (f.file && k->file != *f.file))
      return true;
    PromotionHit hit{k->variant,
                     k->piece,
                     k->colour,
                     k->file,
                     k->game,
                     k->ply,
                     value.empty() ? std::uint8_t(0) : std::uint8_t(value[0])};
    return visit(hit);
  });
}

// --- imported inputs ------------------------------------------------------------

namespace {
std::string input_key(const Fingerprint& fp) {
  std::string k(view(meta_key(MetaKey::Input)));
  k.append(reinterpret_cast<const char*>(fp.data()), fp.size());
  return k;
}
}  // namespace

// Record: games read, games stored, unix time (varints), name (bytes), then
// tagged fields that readers skip when they do not know them (older ones
// stop after the name; a reader stops at a tag it does not know): 1 =
// probe, input size (varint) and head hash (8); 2 = games rejected (varint).
namespace {
constexpr std::uint8_t kInputProbeTag = 1;
constexpr std::uint8_t kInputRejectedTag = 2;

Result<InputRecord> decode_input(std::string_view value) {
  ByteReader r(value);
  InputRecord rec;
  rec.games_read = r.varint();
  rec.games_stored = r.varint();
  rec.unix_time = std::int64_t(r.varint());
  rec.name = std::string(r.bytes());
  while (r.ok() && !r.at_end()) {
    const std::uint8_t tag = r.byte();
    if (tag == kInputProbeTag) {
      importers::InputProbe probe;
      probe.size = r.varint();
      for (int i = 0; i < 8; ++i) probe.head = probe.head << 8 | r.byte();
      if (r.ok()) rec.probe = probe;
    } else if (tag == kInputRejectedTag) {
      rec.games_rejected = r.varint();
    } else {
      break;  // written by a newer virrey: the rest is not ours to read
    }
  }
  if (!r.ok()) return Error{ErrorKind::Corrupt, "bad imported-input record"};
  return rec;
}
}  // namespace

Result<std::optional<InputRecord>> Database::find_input(const Fingerprint& fp) const {
  std::string value;
  bool found = false;
  if (Status s = impl_->get(Family::Meta, input_key(fp), value, found); !s) return s.error();
  if (!found) return std::optional<InputRecord>{};
  Result<InputRecord> rec = decode_input(value);
  if (!rec) return rec.error();
  return std::optional<InputRecord>{std::move(*rec)};
}

Status Database::for_each_input(const Visit<const Fingerprint&, const InputRecord&>& visit) const {
  const std::string prefix(view(meta_key(MetaKey::Input)));
  return impl_->scan(Family::Meta, prefix, [&](std::string_view key, std::string_view value) {
    Fingerprint fp{};
    Result<InputRecord> rec = decode_input(value);
    // A record that does not decode is passed over: its input is only read again.
    if (key.size() != prefix.size() + fp.size() || !rec) return true;
    std::memcpy(fp.data(), key.data() + prefix.size(), fp.size());
    return visit(fp, *rec);
  });
}

Status Database::record_input(const Fingerprint& fp, const InputRecord& rec) {
  return record_inputs({{fp, rec}});
}

Status Database::record_inputs(const std::vector<std::pair<Fingerprint, InputRecord>>& records) {
  if (!writable()) return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
  if (records.empty()) return {};
  rocksdb::WriteBatch batch;
  for (const auto& [fp, rec] : records) {
    std::string value;
    put_varint(value, rec.games_read);
    put_varint(value, rec.games_stored);
    put_varint(value, std::uint64_t(rec.unix_time));
    put_bytes(value, rec.name);
    if (rec.probe) {
      value += char(kInputProbeTag);
      put_varint(value, rec.probe->size);
      for (int i = 7; i >= 0; --i) value += char(std::uint8_t(rec.probe->head >> (8 * i)));
    }
    value += char(kInputRejectedTag);
    put_varint(value, rec.games_rejected);
    batch.Put(impl_->cf(Family::Meta), input_key(fp), value).PermitUncheckedError();
  }
  return impl_->write(batch);
}

// --- the analysis cache ----------------------------------------------------------

namespace {
std::string analysis_key(const AnalysisKey& a) {
  std::string k(view(meta_key(MetaKey::Analysis, a.variant)));
  for (std::uint64_t v : {a.position, a.engine})
    for (int i = 7; i >= 0; --i) k += char(std::uint8_t(v >> (8 * i)));
  return k;
}
}  // namespace

Result<std::optional<std::string>> Database::find_analysis(const AnalysisKey& key) const {
  std::string value;
  bool found = false;
  if (Status s = impl_->get(Family::Meta, analysis_key(key), value, found); !s) return s.error();
  if (!found) return std::optional<std::string>{};
  return std::optional<std::string>{std::move(value)};
}

Result<bool> Database::has_analyses() const {
  bool any = false;
  const Status s =
      impl_->scan(Family::Meta, view(meta_key(MetaKey::Analysis)), [&](std::string_view, std::string_view) {
        any = true;
        return false;
      });
  if (!s) return s.error();
  return any;
}

Status Database::put_analyses(const std::vector<std::pair<AnalysisKey, std::string>>& entries) {
  if (!writable()) return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
  if (entries.empty()) return {};
  rocksdb::WriteBatch batch;
  for (const auto& [key, value] : entries)
    batch.Put(impl_->cf(Family::Meta), analysis_key(key), value).PermitUncheckedError();
  return impl_->write(batch);
}

Status Database::Impl::compact(const std::vector<Family>& families) {
  rocksdb::CompactRangeOptions cro;
  cro.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
  // The families side by side: a compaction mostly runs on one thread, and
  // an import ends waiting for them (RocksDB runs manual compactions of
  // several families at once only when none is exclusive).
  cro.exclusive_manual_compaction = false;
  std::vector<rocksdb::Status> done(families.size());
  {
    std::vector<std::jthread> compactions;
    for (std::size_t i = 0; i < families.size(); ++i)
      compactions.emplace_back(
          [&, i] { done[i] = db->CompactRange(cro, cf(families[i]), nullptr, nullptr); });
  }
  for (const rocksdb::Status& s : done)
    if (!s.ok()) return to_error(s, fmt::format("compacting {}", path));
  return {};
}

void Database::Impl::put_meta_u32(rocksdb::WriteBatch& batch, MetaKey k, std::uint32_t v) const {
  char buf[4];
  put_be(buf, v, 4);
  const auto key = meta_key(k);
  batch.Put(cf(Family::Meta), rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(buf, 4))
      .PermitUncheckedError();
}

Status Database::compact() {
  if (!writable()) return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
  if (Status s = impl_->flush(true); !s) return s;
  std::vector<Family> every;
  for (const FamilyInfo& fi : kFamilies) every.push_back(fi.family);
  return impl_->compact(every);
}

}  // namespace virrey::store
