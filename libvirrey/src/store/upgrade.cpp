#include "virrey/store/upgrade.hpp"

#include <fmt/format.h>
#include <rocksdb/write_batch.h>

#include "huge_page_allocator.hpp"
#include "identities.hpp"
#include "ingest_group.hpp"
#include "material_postings.hpp"
#include "position_tree_builder.hpp"
#include "rocks.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {

// Every key of a family: keys start with a variant or a field byte below 0xff.
Status clear_family(Database::Impl& d, Family f, rocksdb::WriteBatch& batch) {
  const rocksdb::Status s = batch.DeleteRange(d.cf(f), rocksdb::Slice(""), rocksdb::Slice("\xff", 1));
  if (!s.ok()) return to_error(s, "clearing " + std::string(family_info(f).name));
  return {};
}

// What a rebuild writes again from the game records.
struct Rebuild {
  bool positions_and_tree = true;
  bool summaries = true;
  bool material = true;
};

// The parts of `what` from the game records; the number of games.
Result<std::uint64_t> rebuild_from_records(Database::Impl& d,
                                           const std::function<void(std::uint64_t)>& progress, Rebuild what) {
  rocksdb::WriteBatch clear;
  for (Family f : {Family::Positions, Family::Tree, Family::Material}) {
    if (f == Family::Material ? !what.material : !what.positions_and_tree) continue;
    if (Status s = clear_family(d, f, clear); !s) return s.error();
  }
  if (Status s = d.write(clear); !s) return s.error();

  IngestGroup group(d);
  PositionTreeBuilder builder;
  MaterialIndexBuilder materials;
  std::array<VariantCounts, kVariantCount> counts{};  // of the games indexed so far
  std::uint64_t games = 0;
  Status failure;
  Status s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
    const GameId id = game_key_id(key);
    auto rec = decode_game(value, kDecodeTags | kDecodeMainLine);
    auto ix = rec ? index_game(*rec) : Result<GameIndex>(rec.error());
    if (!ix) {
      failure = Error{ErrorKind::Corrupt, fmt::format("game {}: {}", id, ix.error().message)};
      return false;
    }
    if (what.material) materials.add(id, *ix);
    if (what.positions_and_tree) {
      builder.add(id, *ix);
      counts[std::size_t(rec->variant)].positions += ix->positions.size();
    }
    if (what.summaries) {
      // Summaries of older versions lack the men at the end (search rules
      // games out with it), the mate and the time class.
      const auto summary = encode_summary_bytes(ix->summary);
      group.put(Family::Summaries, view(game_key(id)), std::string_view(summary.data(), summary.size()));
    }
    ++games;
    if (builder.bytes() + materials.bytes() + group.bytes() >= kIngestGroupBytes) {
      builder.write(group, counts);
      materials.write(group, material_key_first(1));
      if (failure = group.ingest(); !failure) return false;
    }
    if (progress && games % 4096 == 0) progress(games);
    return true;
  });
  if (!s) return s.error();
  if (!failure) return failure.error();
  builder.write(group, counts);
  materials.write(group, material_key_first(1));
  if (Status is = group.ingest(); !is) return is.error();
  return games;
}

}  // namespace

Result<UpgradeReport> upgrade_database(const std::string& path,
                                       const std::function<void(std::uint64_t)>& progress) {
  auto opened = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!opened) return opened.error();
  Database::Impl& d = **opened;
  UpgradeReport report{d.schema_version, kSchemaVersion, 0};
  if (Status s = schema_status(d); !s && s.error().kind != ErrorKind::OlderSchema) return s.error();
  // Identities are read from the game records alone: first, whatever else
  // the database lacks.
  report.identities = d.identity_format < kIdentityFormat;
  if (auto rewritten = update_identities(d); !rewritten)
    return rewritten.error();
  else
    report.identities_rewritten = *rewritten;
  if (d.schema_version == kSchemaVersion) {
    if (d.material_index && d.summary_features) {
      if (d.material_ordered) return report;
      // Written before the dictionary in search order: that alone, from the plain one.
      if (Status s = d.order_material_dictionary(); !s) return s.error();
      report.material_order = true;
      return report;
    }
    // Written before the material index, or before summaries recorded the
    // mate and the time class: those alone.
    const Rebuild what{false, !d.summary_features, !d.material_index};
    auto games = rebuild_from_records(d, progress, what);
    huge_pages::release_kept();
    if (!games) return games.error();
    report.games = *games;
    report.material_index = what.material;
    report.summaries = what.summaries;
    rocksdb::WriteBatch meta;
    if (what.material) d.mark_material_index(meta);
    if (what.summaries) d.put_meta_u32(meta, MetaKey::SummaryFormat, 2);
    if (Status s = d.write(meta); !s) return s.error();
    if (!what.material && !d.material_ordered) {
      if (Status s = d.order_material_dictionary(); !s) return s.error();
      report.material_order = true;
    }
    d.material_index = true;
    d.material_ordered = true;
    d.summary_features = true;
    std::vector<Family> compacted;
    if (what.material) compacted.push_back(Family::Material);
    if (what.summaries) compacted.push_back(Family::Summaries);
    if (Status s = d.compact(compacted); !s) return s.error();
    return report;
  }

  // Every older version differs from this one in the position index or the
  // tree (1 -> 2: postings, a shallower tree; 2 -> 3: shorter tree keys and
  // values), and lacks the men at the end, the mate and the time class in
  // its summaries. All three are
  // rebuilt from the game records.
  auto games = rebuild_from_records(d, progress, Rebuild{});
  huge_pages::release_kept();  // the rebuild's buffers, freed as it returned
  if (!games) return games.error();
  report.games = *games;

  rocksdb::WriteBatch meta;
  d.put_meta_u32(meta, MetaKey::TreePlies, kTreePlies);
  d.put_meta_u32(meta, MetaKey::SchemaVersion, kSchemaVersion);
  d.mark_material_index(meta);
  d.put_meta_u32(meta, MetaKey::SummaryFormat, 2);
  if (Status s = d.write(meta); !s) return s.error();
  d.material_index = true;
  d.material_ordered = true;
  d.summary_features = true;
  report.material_index = true;
  report.summaries = true;
  // Drop the old entries from disk now rather than at some later compaction.
  if (Status s = d.compact({Family::Positions, Family::Tree, Family::Summaries, Family::Material}); !s) return s.error();
  return report;
}

}  // namespace virrey::store
