// GameImporter: games are queued in batches, prepared by the caller
// (prepare_game on its own threads) or else by a preparer thread, which
// indexes and encodes a batch on worker threads; a writer thread drops the
// duplicates of the batch before and adds its games' entries to a segment
// (an ingest group with its positions and tree). Every few seconds (and at
// the end) the writer seals the segment and an ingester thread writes and
// ingests it atomically, with the counters as of its last game, while the
// writer fills the next one.
#include "virrey/store/importer.hpp"

#include "virrey/game/identity.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "bulk_load.hpp"
#include "hash_set64.hpp"
#include "huge_page_allocator.hpp"
#include "ingest_group.hpp"
#include "material_postings.hpp"
#include "position_tree_builder.hpp"
#include "rocks.hpp"
#include "tag_index_builder.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::store {

namespace {

constexpr std::size_t kMaxQueuedBatches = 2;

struct Prepared {
  game::GameRecord record;  // until prepared
  bool done = false;
  PreparedGame game;
};

// The bytes a batch's game holds, about: its record and index, or the texts
// of the game to prepare and the index it will have (a position entry or two
// a ply).
std::size_t bytes_of(const Prepared& p) {
  if (p.done) {
    std::size_t bytes = p.game.record ? p.game.record->size() : 0;
    if (const auto& ix = p.game.index) {
      bytes += ix->identity_bytes.size() + ix->positions.size() * sizeof(PositionEntry) +
               ix->tree.size() * sizeof(TreeEntry) + ix->promotions.size() * sizeof(PromotionEntry) +
               ix->materials.size() * sizeof(MaterialEntry);
      for (const TagEntry& t : ix->tags) bytes += sizeof t + t.value.size();
    }
    return bytes;
  }
  std::size_t bytes = p.record.main_line.size() * (sizeof(Move) + 2 * sizeof(PositionEntry));
  for (const game::TagPair& t : p.record.tags) bytes += t.name.size() + t.value.size();
  for (const game::MovetextItem& m : p.record.movetext) bytes += m.text.size() + sizeof m;
  return bytes;
}

// A batch holds games up to about this many bytes (ImportOptions::batch_games
// bounds their number).
constexpr std::size_t kBatchBytes = std::size_t(32) << 20;

// Indexes and encodes the games of a batch not prepared yet, on `threads` threads.
void prepare(std::vector<Prepared>& games, int threads) {
  if (std::all_of(games.begin(), games.end(), [](const Prepared& g) { return g.done; })) return;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < games.size();) {
      if (games[i].done) continue;
      games[i].game = prepare_game(games[i].record);
      games[i].record = {};
      games[i].done = true;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && std::size_t(t) < games.size(); ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace

PreparedGame prepare_game(const game::GameRecord& record, const game::MainLineTrace* trace) {
  PreparedGame out;
  game::MainLineTrace replayed;
  if (!trace || !trace->complete || !trace->numbered || trace->hashes.size() != record.main_line.size() + 1) {
    if (Status s = trace_main_line(record, replayed, true); !s) {
      out.index = s.error();
      return out;
    }
    trace = &replayed;
  }
  out.index = index_game(record, *trace);
  out.record = encode_game(record, &trace->move_numbers);
  return out;
}

struct GameImporter::Impl {
  Database& db;
  Database::Impl& d;
  ImportOptions options;

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::vector<Prepared>> queue;  // to prepare
  std::vector<Prepared> filling;
  std::size_t filling_bytes = 0;            // about: its games' records and texts
  std::deque<std::vector<Prepared>> ready;  // to write; an empty batch: see whether a commit is due
  std::deque<std::vector<Prepared>> spent;  // written: kept or freed by the preparer, off the writer's path
  // Written batches kept to fill again (their memory is mapped already):
  // still holding their games, then emptied by the thread that adds games.
  std::vector<std::vector<Prepared>> written_batches, emptied;
  bool closing = false;
  bool finished = false;
  bool all_prepared = false;
  Status failure;
  ImportTotals totals;  // ingested (under mutex)
  std::thread preparer, writer, ingester;

  // What one ingest adds: filled by the writer, then written by the ingester.
  struct Segment {
    explicit Segment(Database::Impl& d) : group(d) {}
    IngestGroup group;
    PositionTreeBuilder positions_and_tree;  // of the segment's games
    TagIndexBuilder tags;
    MaterialIndexBuilder materials;
    // Its games' identity bytes by their hash, for duplicate detection until
    // it is ingested (the writer's alone: the ingester never reads them).
    std::unordered_multimap<std::uint64_t, std::string> pending;
    ImportTotals added;
    GameId next_id = 1;  // the counters as of its last game
    std::array<VariantCounts, kVariantCount> counts{};
  };
  std::unique_ptr<Segment> segment;  // being filled (writer thread)
  std::unique_ptr<Segment> sealed;   // being ingested, until the writer takes it back
  std::unique_ptr<Segment> spare;    // ingested, its buffers kept for the next (writer thread)
  bool sealed_done = false;          // (under mutex) the ingester is through with it
  bool no_more_segments = false;     // (under mutex)
  GameId next_id = 1;                // writer thread
  // Duplicate detection (writer thread). A game repeats either a game stored
  // before the import began or one of the import's own. The hashes of the
  // import's identities tell which: most games need one lookup among the
  // games stored before (none when the database was empty), made through
  // one cursor over the identities as they were when the import began, so
  // that a lookup does not get dearer as the import's own table files pile
  // up in level 0. A game whose hash is among the import's own is looked up
  // through a cursor that sees every ingested segment, made again once a
  // further segment's games are in the database (an iterator sees the
  // database as it was when made). The first cursor pins only the identity
  // family's files of the import's start.
  bool started_empty = false;
  HashSet64 imported;
  std::unique_ptr<rocksdb::Iterator> stored_before;
  std::unique_ptr<rocksdb::Iterator> identities;
  GameId first_id = 1;  // the import's first game
  // Where the ingested table files go (bulk_load.cpp): the ingester's, and
  // finish's once that is joined.
  std::unique_ptr<BulkLoad> bulk;
  std::array<VariantCounts, kVariantCount> counts{};
  std::chrono::steady_clock::time_point last_seal = std::chrono::steady_clock::now();

  Impl(Database& database, ImportOptions o)
      : db(database), d(database.impl()), options(o), segment(std::make_unique<Segment>(database.impl())) {
    if (options.batch_games == 0) options.batch_games = 1;
    {
      std::lock_guard lock(d.meta_mutex);
      next_id = d.next_game_id;
      counts = d.counts;
    }
    first_id = next_id;
    bulk = std::make_unique<BulkLoad>(d, options.merge_level0_files);
    started_empty =
        std::all_of(counts.begin(), counts.end(), [](const VariantCounts& c) { return c.games == 0; });
    if (!started_empty && db.writable()) stored_before = identity_cursor();
    preparer = std::thread([this] { prepare_loop(); });
    writer = std::thread([this] { write_loop(); });
    ingester = std::thread([this] { ingest_loop(); });
  }

  std::chrono::steady_clock::duration interval() const {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(options.commit_seconds));
  }

  void prepare_loop() {
    auto last_handoff = std::chrono::steady_clock::now();
    for (;;) {
      std::vector<Prepared> games;
      std::deque<std::vector<Prepared>> written;
      {
        std::unique_lock lock(mutex);
        changed.wait_until(lock, last_handoff + interval(), [&] { return !queue.empty() || closing; });
        written.swap(spent);
        if (!queue.empty()) {
          games = std::move(queue.front());
          queue.pop_front();
        } else if (closing) {
          break;
        } else {
          // A commit may be due and the input is slow: pass on what has come.
          games = std::move(filling);
          filling.clear();
          filling_bytes = 0;
        }
        changed.notify_all();
      }
      recycle(written);
      if (failure_seen()) games.clear();  // drain after a failure
      prepare(games, options.threads);
      last_handoff = std::chrono::steady_clock::now();
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return ready.size() < kMaxQueuedBatches || !failure.ok(); });
      ready.push_back(std::move(games));
      changed.notify_all();
    }
    std::lock_guard lock(mutex);
    all_prepared = true;
    changed.notify_all();
  }

  // Keeps a few written batches to fill again, and frees the rest. The
  // games of a kept batch are freed by the thread that adds games, which
  // allocated most of them when it prepared them (freeing memory of another
  // thread's malloc arena means taking that arena's lock).
  void recycle(std::deque<std::vector<Prepared>>& written) {
    {
      std::lock_guard lock(mutex);
      while (!written.empty() && written_batches.size() + emptied.size() < kMaxQueuedBatches + 2) {
        written_batches.push_back(std::move(written.front()));
        written.pop_front();
      }
    }
    written.clear();
  }

  bool failure_seen() {
    std::lock_guard lock(mutex);
    return !failure.ok();
  }

  void write_loop() {
    for (;;) {
      std::vector<Prepared> batch;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return !ready.empty() || all_prepared; });
        if (ready.empty()) break;
        batch = std::move(ready.front());
        ready.pop_front();
        changed.notify_all();
        if (!failure.ok()) continue;  // drain after a failure
      }
      Status s = batch.empty() ? Status{} : add_batch(batch);
      const auto since = std::chrono::steady_clock::now() - last_seal;
      if (s && (segment->group.bytes() + segment->positions_and_tree.bytes() + segment->tags.bytes() + segment->materials.bytes() >=
                    kIngestGroupBytes ||
                since >= interval()))
        seal();
      std::lock_guard lock(mutex);
      if (!s) failure = s;
      spent.push_back(std::move(batch));
      changed.notify_all();
    }
    // The rest of the last segment.
    if (!failure_seen()) seal();
    take_back_sealed();
    identities.reset();
    stored_before.reset();
    std::lock_guard lock(mutex);
    no_more_segments = true;
    changed.notify_all();
  }

  // Waits until the ingester is through with the sealed segment, and keeps
  // it to fill again (its games are in the database now, or the import failed).
  void take_back_sealed() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return !sealed || sealed_done; });
    if (!sealed) return;
    std::unique_ptr<Segment> done = std::move(sealed);
    lock.unlock();
    identities.reset();  // its games are in the database: a fresh view
    done->pending.clear();
    done->added = {};
    spare = std::move(done);
  }

  // Hands the segment to the ingester, with the counters as of its last game.
  void seal() {
    last_seal = std::chrono::steady_clock::now();
    if (segment->added.stored == 0 && segment->added.duplicates == 0) return;
    take_back_sealed();
    segment->next_id = next_id;
    segment->counts = counts;
    {
      std::lock_guard lock(mutex);
      sealed = std::move(segment);
      sealed_done = false;
      changed.notify_all();
    }
    segment = spare ? std::move(spare) : std::make_unique<Segment>(d);
  }

  void ingest_loop() {
    for (;;) {
      Segment* seg = nullptr;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return (sealed && !sealed_done) || no_more_segments; });
        if (!sealed || sealed_done) break;
        seg = sealed.get();
      }
      Status s = failure_seen() ? Status{} : ingest(*seg);
      std::lock_guard lock(mutex);
      if (!s) failure = s;
      sealed_done = true;
      changed.notify_all();
    }
  }

  // Writes and ingests a segment (ingester thread).
  Status ingest(Segment& seg) {
    if (seg.added.stored > 0) {
      {
        // Each writes families of its own: side by side (the last segment's
        // entries are written while nothing else is left to do).
        std::jthread positions_and_tree([&] { seg.positions_and_tree.write(seg.group, seg.counts); });
        std::jthread tags([&] { seg.tags.write(seg.group); });
        seg.materials.write(seg.group, material_key_first(first_id));
      }
      for (const auto& [key, value] : counter_entries(seg.next_id, seg.counts))
        seg.group.put(Family::Meta, key, value);
      if (Status s = bulk->before_ingest(); !s) return s;
      if (Status s = seg.group.ingest(); !s) return s;
      if (Status s = bulk->after_ingest(); !s) return s;
      std::lock_guard lock(d.meta_mutex);
      d.next_game_id = seg.next_id;
      d.counts = seg.counts;
    }
    std::lock_guard lock(mutex);
    totals.stored += seg.added.stored;
    totals.duplicates += seg.added.duplicates;
    totals.positions += seg.added.positions;
    return {};
  }

  // A cursor over the stored identities, seeking by an identity's prefix.
  std::unique_ptr<rocksdb::Iterator> identity_cursor() const {
    return std::unique_ptr<rocksdb::Iterator>(d.db->NewIterator(
        d.prefix_read_options(Family::Identities, identity_prefix({}, 0).size()), d.cf(Family::Identities)));
  }

  // True when a stored game, or one gathered in this group, is the same game.
  Result<bool> duplicate(const PreparedGame& g) {
    // The sealed segment's games stay here until the writer takes it back,
    // which is after they are in the database.
    for (const Segment* seg : {segment.get(), sealed.get()}) {
      if (!seg) continue;
      for (auto [it, end] = seg->pending.equal_range(g.index->identity); it != end; ++it)
        if (it->second == g.index->identity_bytes) return true;
    }
    const bool own = imported.contains(g.index->identity);
    if (!own && started_empty) return false;
    std::unique_ptr<rocksdb::Iterator>& cursor = own ? identities : stored_before;
    std::vector<GameId> candidates;
    const auto prefix = identity_prefix(g.index->variant, g.index->identity);
    if (!cursor) cursor = identity_cursor();
    const rocksdb::Slice wanted(prefix.data(), prefix.size());
    for (cursor->Seek(wanted); cursor->Valid() && cursor->key().starts_with(wanted); cursor->Next())
      candidates.push_back(GameId(get_be(cursor->key().data() + 9, 4)));
    if (!cursor->status().ok()) return to_error(cursor->status(), fmt::format("reading {}", d.path));
    for (GameId id : candidates) {
      auto stored = db.game(id, kDecodeTags | kDecodeMainLine);
      if (!stored) return stored.error();
      if (game::identity_bytes(*stored) == g.index->identity_bytes) return true;
    }
    return false;
  }

  Status add_batch(std::vector<Prepared>& games) {
    Segment& seg = *segment;
    IngestGroup& group = seg.group;
    for (Prepared& p : games) {
      PreparedGame& g = p.game;
      if (!g.index) return g.index.error();
      if (!g.record) return g.record.error();
      const GameIndex& ix = *g.index;
      auto dup = duplicate(g);
      if (!dup) return dup.error();
      if (*dup) {
        ++seg.added.duplicates;
        continue;
      }
      if (next_id > kMaxGameId)
        return Error{ErrorKind::InvalidArgument,
                     fmt::format("the database is full: game ids are 32 bits, at most {} games", kMaxGameId)};
      const GameId id = next_id++;
      const Variant v = ix.variant;
      const auto gk = game_key(id);
      group.put(Family::Games, view(gk), *g.record);
      group.put(Family::Summaries, view(gk), view(encode_summary_bytes(ix.summary)));
      seg.positions_and_tree.add(id, ix);
      seg.tags.add(id, ix.tags);
      seg.materials.add(id, ix);
      for (const PromotionEntry& p : ix.promotions)
        group.put(Family::Promotions, view(promotion_key(v, p.piece, p.colour, p.file, id, p.ply)),
                  std::string_view(reinterpret_cast<const char*>(&p.flags), 1));
      group.put(Family::Identities, view(identity_key(v, ix.identity, id)), {});
      imported.insert(ix.identity);
      seg.pending.emplace(ix.identity, std::move(g.index->identity_bytes));
      ++seg.added.stored;
      seg.added.positions += ix.positions.size();
      ++counts[std::size_t(v)].games;
      counts[std::size_t(v)].positions += ix.positions.size();
    }
    return {};
  }

  void enqueue(std::unique_lock<std::mutex>& lock) {
    changed.wait(lock, [&] { return queue.size() < kMaxQueuedBatches || !failure.ok(); });
    queue.push_back(std::move(filling));
    filling.clear();
    filling_bytes = 0;
    if (!emptied.empty()) {
      filling = std::move(emptied.back());
      emptied.pop_back();
    } else {
      filling.reserve(std::min<std::size_t>(options.batch_games, 4096));
    }
    changed.notify_all();
  }

  Status add(Prepared p) {
    if (!db.writable()) return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
    std::vector<Prepared> written;
    {
      std::unique_lock lock(mutex);
      if (!failure.ok()) return failure;
      if (finished) return Error{ErrorKind::InvalidArgument, "the import is finished"};
      filling_bytes += bytes_of(p);
      filling.push_back(std::move(p));
      // A batch is as many games, or fewer when they are large: a batch
      // of games with long comments would otherwise hold gigabytes.
      if (filling.size() < options.batch_games && filling_bytes < kBatchBytes) return {};
      enqueue(lock);
      if (written_batches.empty()) return {};
      written = std::move(written_batches.back());
      written_batches.pop_back();
    }
    written.clear();  // outside the lock
    std::lock_guard lock(mutex);
    emptied.push_back(std::move(written));
    return {};
  }

  Result<ImportTotals> finish() {
    {
      std::unique_lock lock(mutex);
      if (!finished) {
        if (!filling.empty() && failure.ok()) enqueue(lock);
        closing = true;
        finished = true;
        changed.notify_all();
      }
    }
    if (preparer.joinable()) preparer.join();
    if (writer.joinable()) writer.join();
    if (ingester.joinable()) ingester.join();
    Status ended = bulk->end();  // (every thread is joined: no lock needed)
    if (ended && totals.stored > 0) BulkLoad::join_small_files(d);
    // The level-0 files an import killed while it merged left behind (a
    // no-op otherwise: every import leaves few): an import of the same
    // input, which then stores nothing, merges them.
    if (ended) ended = BulkLoad::merge_level0_left(d);
    std::lock_guard lock(mutex);
    if (!ended && failure.ok()) failure = ended;
    if (!failure.ok()) return failure.error();
    return totals;
  }
};

GameImporter::GameImporter(Database& db, ImportOptions options)
    : impl_(std::make_unique<Impl>(db, options)) {}

GameImporter::~GameImporter() {
  (void)impl_->finish();
  impl_.reset();
  huge_pages::release_kept();  // the segments' buffers, freed just now
}

Status GameImporter::add(game::GameRecord record) {
  Prepared p;
  p.record = std::move(record);
  return impl_->add(std::move(p));
}

Status GameImporter::add(PreparedGame game) {
  Prepared p;
  p.done = true;
  p.game = std::move(game);
  return impl_->add(std::move(p));
}

Result<ImportTotals> GameImporter::finish() { return impl_->finish(); }

ImportTotals GameImporter::committed() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->totals;
}

}  // namespace virrey::store
