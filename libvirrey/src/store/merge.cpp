// merge_databases: each source is either copied as table files (its game ids
// shifted past the destination's) and ingested in one atomic step, or, when
// it repeats games stored already, imported game by game (merge.hpp).
#include "virrey/store/merge.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>
#include "virrey/base/log.hpp"

#include "bulk_load.hpp"
#include "identities.hpp"
#include "ingest_group.hpp"
#include "material_postings.hpp"
#include "rocks.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::store {

namespace {

namespace fs = std::filesystem;

// Table files are cut at this size, so that compactions later take them in
// pieces.
constexpr std::uint64_t kTableFileBytes = std::uint64_t(256) << 20;

// Where the game id sits in a key of a family (offset, 4 bytes), or -1 when
// the key holds none at a fixed place (tags: at the end).
int game_id_offset(Family f) {
  switch (f) {
    case Family::Games:
    case Family::Summaries: return 0;
    case Family::Positions: return 3;   // variant | bucket | first game
    case Family::Promotions: return 4;  // variant | piece | colour | file | game | ply
    case Family::Identities: return 9;  // variant | identity | game
    default: return -1;
  }
}

// The table files of one family of a copied source, written in key order.
class FamilyFiles {
 public:
  FamilyFiles(Database::Impl& d, Family f, std::string dir) : d_(d), f_(f), dir_(std::move(dir)) {}

  Status add(std::string_view key, std::string_view value, bool merge) {
    if (!writer_ || writer_->FileSize() >= kTableFileBytes) {
      if (Status s = close(); !s) return s;
      paths_.push_back(fmt::format("{}/merge-{}-{}.sst", dir_, family_info(f_).name, paths_.size() + 1));
      writer_ =
          std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), table_file_options(f_), d_.cf(f_));
      if (auto s = writer_->Open(paths_.back()); !s.ok()) return to_error(s, "writing " + paths_.back());
    }
    const rocksdb::Slice k(key.data(), key.size()), v(value.data(), value.size());
    const rocksdb::Status s = merge ? writer_->Merge(k, v) : writer_->Put(k, v);
    if (!s.ok()) return to_error(s, "writing " + paths_.back());
    return {};
  }

  Status close() {
    if (!writer_) return {};
    const rocksdb::Status s = writer_->Finish();
    writer_.reset();
    if (!s.ok()) return to_error(s, "writing " + paths_.back());
    return {};
  }

  const std::vector<std::string>& paths() const { return paths_; }
  Family family() const { return f_; }

 private:
  Database::Impl& d_;
  Family f_;
  std::string dir_;
  std::vector<std::string> paths_;
  std::unique_ptr<rocksdb::SstFileWriter> writer_;
};

// Copies one family of `src` into table files, game ids shifted by `offset`.
Status copy_family(const Database::Impl& src, FamilyFiles& out, GameId offset,
                   const std::function<void(std::uint64_t)>& progress) {
  const Family f = out.family();
  const int at = game_id_offset(f);
  std::string key;
  std::uint64_t entries = 0;
  Status failure;
  // Material postings of the layout before kind 5 (keys.hpp), re-coded as
  // runs under one kind 5 key a balance (the source's game 0, shifted), then
  // written among the source's kind 5 keys; a kind 5 value under the same
  // key follows them in the value (its games are later).
  std::map<std::string, std::string> rekeyed;
  std::string joined;
  auto add_rekeyed_below = [&](std::string_view limit) {
    for (auto it = rekeyed.begin(); it != rekeyed.end() && (limit.empty() || it->first < limit);
         it = rekeyed.erase(it))
      if (failure = out.add(it->first, it->second, true); !failure) return false;
    return true;
  };
  Status s = src.scan(f, {}, [&](std::string_view k, std::string_view v) {
    key.assign(k);
    if (f == Family::Tags) {
      if (key.size() < 5) {
        failure = Error{ErrorKind::Corrupt, fmt::format("{}: a tag key of {} bytes", src.path, key.size())};
        return false;
      }
      put_be(key.data() + key.size() - 4, get_be(key.data() + key.size() - 4, 4) + offset, 4);
    } else if (f == Family::Material) {
      // Postings carry their first game at offset 10, the rest of the value
      // relative to it. Dictionary entries (the old layout's) are left out:
      // every posting is written as kind 5, whose keys list the balances.
      // The destination's own completeness markers stand (copy_source).
      auto mk = parse_material_key(key);
      if (!mk || !mk->postings) return true;
      const GameId first = GameId(mk->first + offset);
      if (!mk->ordered) {
        std::vector<MaterialHit> hits;
        if (!decode_material_postings(
                v, first, [&](const MaterialHit& h) { return hits.push_back(h), true; }, nullptr, false)) {
          failure =
              Error{ErrorKind::Corrupt, fmt::format("{}: a material index entry does not decode", src.path)};
          return false;
        }
        if (hits.empty()) return true;
        encode_material_run(
            rekeyed[std::string(view(material_postings_key(mk->variant, mk->material, offset)))], offset,
            hits);
        return true;
      }
      put_be(key.data() + 10, first, 4);
      if (!add_rekeyed_below(key)) return false;
      if (auto same = rekeyed.find(key); same != rekeyed.end()) {
        joined = std::move(same->second);
        joined.append(v.data(), v.size());
        rekeyed.erase(same);
        failure = out.add(key, joined, true);
        return bool(failure);
      }
    } else if (f == Family::Openings) {
      // Games' openings carry their id at offset 1; named positions and the
      // ECO file's description are copied (the source's replace the
      // destination's: `db classify` the result for one file's names).
      if (key.size() == 5 && key[0] == 0) put_be(key.data() + 1, get_be(key.data() + 1, 4) + offset, 4);
    } else if (at >= 0) {
      if (key.size() < std::size_t(at) + 4) {
        failure = Error{ErrorKind::Corrupt,
                        fmt::format("{}: a {} key of {} bytes", src.path, family_info(f).name, key.size())};
        return false;
      }
      put_be(key.data() + at, get_be(key.data() + at, 4) + offset, 4);
    }
    // Tree values, read merged, are added to the destination's as operands;
    // so are material runs, whose key may be one the destination has.
    failure = out.add(key, v, f == Family::Tree || f == Family::Material);
    if (progress && f == Family::Games && ++entries % 4096 == 0) progress(entries);
    return bool(failure);
  });
  if (!s) return s;
  if (!failure) return failure;
  if (!add_rekeyed_below({})) return failure;
  return out.close();
}

// The source's input records and analysis cache entries that the
// destination lacks, key -> value (the destination's own are kept).
Result<std::map<std::string, std::string>> new_inputs(const Database::Impl& dest, const Database::Impl& src) {
  std::map<std::string, std::string> out;
  Status failure;
  for (MetaKey kind : {MetaKey::Input, MetaKey::Analysis}) {
    const std::string prefix(view(meta_key(kind)));
    Status s = src.scan(Family::Meta, prefix, [&](std::string_view k, std::string_view v) {
      std::string existing;
      bool found = false;
      failure = dest.get(Family::Meta, k, existing, found);
      if (!failure) return false;
      if (!found) out.emplace(std::string(k), std::string(v));
      return true;
    });
    if (!s) return s.error();
    if (!failure) return failure.error();
  }
  return out;
}

// Whether some game of `src` equals one stored in `dest` (identity hash,
// then identity bytes).
Result<bool> repeats_stored_games(const Database& dest, const Database& src) {
  const Database::Impl& d = dest.impl();
  const auto counts = dest.counts();
  if (std::all_of(counts.begin(), counts.end(), [](const VariantCounts& c) { return c.games == 0; }))
    return false;
  bool repeats = false;
  Status failure;
  // A source written before the roster rule or before tags were read as
  // UTF-8 keeps identities of an older rule: its games are looked up by
  // their identity under this one. (Under the bytes rule only a game with a
  // roster value not in UTF-8 has another: its tags alone tell.)
  const std::uint32_t format = src.impl().identity_format;
  Status s = src.impl().scan(Family::Identities, {}, [&](std::string_view key, std::string_view) {
    if (key.size() != 13) return true;
    const GameId source_id = GameId(get_be(key.data() + 9, 4));
    std::optional<game::GameRecord> mine;
    // The source's game, decoded once when first needed; false on a failure.
    auto read_mine = [&] {
      if (mine) return true;
      auto rec = src.game(source_id, kDecodeTags | kDecodeMainLine);
      if (!rec) failure = rec.error();
      if (rec) mine = std::move(*rec);
      return bool(mine);
    };
    std::string prefix(key.substr(0, 9));
    bool older_key = format < kIdentityFormat;
    if (older_key && identity_rule_of_format(format) == game::IdentityRule::RosterAsBytes) {
      auto tags = src.game(source_id, kDecodeTags);
      if (!tags) {
        failure = tags.error();
        return false;
      }
      older_key = game::identity_rules_differ(*tags, game::IdentityRule::RosterAsBytes);
    }
    if (older_key) {
      if (!read_mine()) return false;
      prefix = std::string(view(identity_prefix(mine->variant, game::game_identity(*mine))));
    }
    std::vector<GameId> candidates;
    failure = d.scan(Family::Identities, prefix, [&](std::string_view k, std::string_view) {
      candidates.push_back(GameId(get_be(k.data() + 9, 4)));
      return true;
    });
    if (!failure) return false;
    if (candidates.empty()) return true;
    if (!read_mine()) return false;
    const std::string bytes = game::identity_bytes(*mine);
    for (GameId id : candidates) {
      auto stored = dest.game(id, kDecodeTags | kDecodeMainLine);
      if (!stored) {
        failure = stored.error();
        return false;
      }
      if (game::identity_bytes(*stored) == bytes) {
        repeats = true;
        return false;
      }
    }
    return true;
  });
  if (!s) return s.error();
  if (!failure) return failure.error();
  return repeats;
}

std::uint64_t total_games(const std::array<VariantCounts, kVariantCount>& counts) {
  std::uint64_t n = 0;
  for (const auto& c : counts) n += c.games;
  return n;
}

// Deletes a mark of the destination's (and clears its flag) that a source
// copied in lacks: the destination then holds that source's older layout too.
template <class Mark>
Status drop_mark(Database::Impl& d, Family f, std::string_view key, Mark& mark, Mark unmarked = Mark{}) {
  rocksdb::WriteBatch batch;
  batch.Delete(d.cf(f), rocksdb::Slice(key.data(), key.size())).PermitUncheckedError();
  if (Status w = d.write(batch); !w) return w;
  mark = unmarked;
  return {};
}

// Copies `src` into `dest` in one ingest: every family with ids shifted, the
// summed counters and the new input records.
Status copy_source(Database& dest, const Database& src, const std::function<void(std::uint64_t)>& progress) {
  Database::Impl& d = dest.impl();
  const Database::Impl& s = src.impl();
  GameId dest_next;
  std::array<VariantCounts, kVariantCount> counts;
  {
    std::lock_guard lock(d.meta_mutex);
    dest_next = d.next_game_id;
    counts = d.counts;
  }
  const GameId offset = dest_next - 1;
  const GameId next = GameId(std::uint64_t(dest_next) + s.next_game_id - 1);
  for (int v = 0; v < kVariantCount; ++v) {
    counts[std::size_t(v)].games += s.counts[std::size_t(v)].games;
    counts[std::size_t(v)].positions += s.counts[std::size_t(v)].positions;
  }
  auto inputs = new_inputs(d, s);
  if (!inputs) return inputs.error();

  // Tag keys lower-cased in ASCII and Latin-1 only: the destination's
  // lookups read their other forms too, from before the first key is in.
  if (d.tags_folded && !s.tags_folded)
    if (Status w = drop_mark(d, Family::Meta, view(meta_key(MetaKey::TagFolding)), d.tags_folded); !w)
      return w;

  const std::string dir = IngestGroup::temp_dir(d.path);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{ErrorKind::Io, fmt::format("cannot create {}: {}", dir, ec.message())};

  std::vector<std::unique_ptr<FamilyFiles>> files;
  for (const FamilyInfo& fi : kFamilies) files.push_back(std::make_unique<FamilyFiles>(d, fi.family, dir));
  auto remove_files = [&] {
    for (const auto& f : files)
      for (const std::string& p : f->paths()) fs::remove(p, ec);
  };
  // Meta: the counters as of the source's last game, its inputs and its
  // analysis cache.
  std::map<std::string, std::string> meta = std::move(*inputs);
  for (auto& [k, v] : counter_entries(next, counts)) meta[k] = v;
  Status written;
  for (const auto& [k, v] : meta)
    if (written = files[std::size_t(Family::Meta)]->add(k, v, false); !written) break;
  if (written) written = files[std::size_t(Family::Meta)]->close();

  // The other families side by side, each on its own thread.
  std::vector<Status> copied(files.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < files.size(); ++i)
      if (files[i]->family() != Family::Meta &&
          (files[i]->family() != Family::Material || (s.material_index && d.material_index)) &&
          (files[i]->family() != Family::Openings || s.cf(Family::Openings)) &&
          files[i]->family() != Family::Squares)  // extended from the records afterwards
        threads.emplace_back([&, i] { copied[i] = copy_family(s, *files[i], offset, progress); });
  }
  for (const Status& c : copied)
    if (written && !c) written = c;
  if (!written) {
    remove_files();
    return written;
  }

  std::vector<rocksdb::IngestExternalFileArg> args;
  for (const auto& f : files) {
    if (f->paths().empty()) continue;
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = d.cf(f->family());
    arg.external_files = f->paths();
    arg.options.move_files = true;
    arg.options.write_global_seqno = false;
    args.push_back(std::move(arg));
  }
  const rocksdb::Status is = d.db->IngestExternalFiles(args);
  remove_files();
  if (!is.ok()) return to_error(is, fmt::format("writing {}", d.path));
  // A source without the material index leaves the destination's incomplete:
  // material searches replay games until `db upgrade` rebuilds it.
  if (d.material_index && !s.material_index) {
    if (Status w = drop_mark(d, Family::Material, view(material_complete_key()), d.material_index); !w)
      return w;
    log::warn("{} has no material index: run `virrey db upgrade --db {}` to rebuild it", s.path, d.path);
  }
  // Likewise summaries without the mate and time class.
  if (d.summary_features && !s.summary_features) {
    if (Status w = drop_mark(d, Family::Meta, view(meta_key(MetaKey::SummaryFormat)), d.summary_features); !w)
      return w;
    log::warn("{} has summaries without mates and time controls: run `virrey db upgrade --db {}`", s.path,
              d.path);
  }
  {
    std::lock_guard lock(d.meta_mutex);
    d.next_game_id = next;
    d.counts = counts;
  }
  // A source written before the roster rule or before tags were read as
  // UTF-8 brought identities of an older rule: the destination's mark goes
  // (merge_databases brings them up to date once every source is in).
  if (d.identity_format > s.identity_format) {
    if (s.identity_format <= 1)
      return drop_mark(d, Family::Meta, view(meta_key(MetaKey::IdentityFormat)), d.identity_format, 1u);
    rocksdb::WriteBatch batch;
    d.put_meta_u32(batch, MetaKey::IdentityFormat, s.identity_format);
    if (Status w = d.write(batch); !w) return w;
    d.identity_format = s.identity_format;
  }
  return {};
}

// Imports the games of `src` one by one (the importer drops duplicates),
// then records its inputs.
Result<ImportTotals> import_source(Database& dest, const Database& src, int threads,
                                   const std::function<void(std::uint64_t)>& progress) {
  GameImporter importer(dest, {.threads = threads});
  Status failure;
  std::uint64_t games = 0;
  Status s = src.for_each_game([&](GameId, const game::GameRecord& record) {
    failure = importer.add(record);
    if (progress && ++games % 4096 == 0) progress(games);
    return bool(failure);
  });
  auto totals = importer.finish();
  if (!s) return s.error();
  if (!failure) return failure.error();
  if (!totals) return totals.error();
  auto inputs = new_inputs(dest.impl(), src.impl());
  if (!inputs) return inputs.error();
  if (!inputs->empty()) {
    rocksdb::WriteBatch batch;
    for (const auto& [k, v] : *inputs) batch.Put(dest.impl().cf(Family::Meta), k, v).PermitUncheckedError();
    if (Status w = dest.impl().write(batch); !w) return w.error();
  }
  return *totals;
}

bool same_directory(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

}  // namespace

Result<MergeReport> merge_databases(Database& dest, const std::vector<std::string>& sources,
                                    const MergeOptions& options,
                                    const std::function<void(std::uint64_t)>& progress) {
  if (!dest.writable()) return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
  // Every source is checked before anything is written: a refused merge
  // leaves the destination as it was. The game ids every source could need
  // (all its games new) must fit.
  std::uint64_t ids = std::uint64_t(dest.impl().next_game_id) - 1;
  for (const std::string& path : sources) {
    if (same_directory(path, dest.path()))
      return Error{ErrorKind::InvalidArgument, fmt::format("{}: cannot merge a database into itself", path)};
    auto opened = Database::open(path, {OpenMode::Read, false});
    if (!opened) return opened.error();
    if ((*opened)->tree_plies() != dest.tree_plies())
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("{}: its opening tree holds {} plies, {}'s {}: run `virrey db upgrade` on the "
                               "older one",
                               path, (*opened)->tree_plies(), dest.path(), dest.tree_plies())};
    const GameId src_next = (*opened)->impl().next_game_id;
    if (ids + (src_next - 1) > kMaxGameId)
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("{}: its {} game ids after the {} before it pass the largest collection one "
                               "database holds ({} games, 32-bit game ids)",
                               path, src_next - 1, ids, kMaxGameId)};
    ids += src_next - 1;
  }
  MergeReport report;
  std::uint64_t done = 0;
  for (const std::string& path : sources) {
    auto opened = Database::open(path, {OpenMode::Read, false});
    if (!opened) return opened.error();
    const Database& src = **opened;
    MergeSource m{path, total_games(src.counts())};
    auto step = [&](std::uint64_t games) {
      if (progress) progress(done + games);
    };
    auto repeats = repeats_stored_games(dest, src);
    if (!repeats) return repeats.error();
    if (!*repeats) {
      if (Status s = copy_source(dest, src, step); !s) return s.error();
      m.copied = true;
      m.stored = m.games;
    } else {
      auto totals = import_source(dest, src, options.threads, step);
      if (!totals) return totals.error();
      m.stored = totals->stored;
      m.duplicates = totals->duplicates;
    }
    done += m.games;
    report.stored += m.stored;
    report.duplicates += m.duplicates;
    report.sources.push_back(std::move(m));
  }
  // Identities copied from sources written before the roster rule.
  if (auto updated = update_identities(dest.impl()); !updated) return updated.error();
  // Each source copied is a run of each family: more than an import leaves
  // go into the last level.
  if (Status s = BulkLoad::settle(dest.impl()); !s) return s.error();
  // The square index, when --db has one, extended to the games merged.
  if (auto squares = extend_square_index_if_present(dest); !squares) return squares.error();
  return report;
}

}  // namespace virrey::store
