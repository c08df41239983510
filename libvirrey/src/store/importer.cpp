// GameImporter: games are queued in batches; one writer thread indexes each
// batch on worker threads, drops duplicates and commits the batch as one
// atomic RocksDB write with the updated counters.
#include "virrey/store/importer.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>
#include <rocksdb/write_batch.h>

#include "rocks.hpp"
#include "varint.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::store {

namespace {

constexpr std::size_t kMaxQueuedBatches = 2;
// Written data between flushes: what a killed import loses (and its rerun
// redoes), and how far readers beside the import lag behind it.
constexpr std::size_t kFlushBytes = std::size_t(64) << 20;
constexpr std::chrono::seconds kFlushInterval{2};

struct Prepared {
  validate::GameRecord record;
  Result<GameIndex> index = Error{};
  Result<std::string> bytes = Error{};
};

// Indexes and encodes a batch on `threads` threads.
void prepare(std::vector<Prepared>& games, int threads) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < games.size();) {
      games[i].index = index_game(games[i].record);
      games[i].bytes = encode_game(games[i].record);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && std::size_t(t) < games.size(); ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

rocksdb::Slice slice(std::string_view s) { return {s.data(), s.size()}; }

// Tree keys end in a position hash and a move: their middle bytes hash well.
struct KeyHash {
  std::size_t operator()(const Key<12>& k) const {
    return std::size_t(get_be(k.data() + 1, 8) ^ get_be(k.data() + 9, 3) * 0x9e3779b97f4a7c15ULL);
  }
};
template <std::size_t N>
rocksdb::Slice slice(const Key<N>& k) {
  return {k.data(), N};
}

}  // namespace

struct GameImporter::Impl {
  Database& db;
  Database::Impl& d;
  ImportOptions options;

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::vector<validate::GameRecord>> queue;
  std::vector<validate::GameRecord> filling;
  bool closing = false;
  bool finished = false;
  Status failure;
  ImportTotals totals;  // committed (under mutex)
  rocksdb::WriteBatch batch;                                // writer thread only
  std::size_t unflushed = 0;                                // batch bytes since a flush
  std::chrono::steady_clock::time_point last_flush = std::chrono::steady_clock::now();
  std::unordered_map<Key<12>, TreeCounters, KeyHash> tree;  // summed within a batch
  std::thread writer;

  Impl(Database& database, ImportOptions o) : db(database), d(database.impl()), options(o) {
    if (options.batch_games == 0) options.batch_games = 1;
    writer = std::thread([this] { run(); });
  }

  void run() {
    for (;;) {
      std::vector<validate::GameRecord> batch;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return !queue.empty() || closing; });
        if (queue.empty()) return;
        batch = std::move(queue.front());
        queue.pop_front();
        changed.notify_all();
        if (!failure.ok()) continue;  // drain after a failure
      }
      Status s = commit(batch);
      std::lock_guard lock(mutex);
      if (!s) failure = s;
      changed.notify_all();
    }
  }

  // True when a stored game (or one earlier in this batch) is the same game.
  Result<bool> duplicate(const Prepared& g, const std::vector<const Prepared*>& earlier) {
    for (const Prepared* e : earlier)
      if (same_game(e->record, g.record)) return true;
    std::vector<GameId> candidates;
    const auto prefix = identity_prefix(g.index->variant, g.index->identity);
    Status s = d.scan(Family::Identities, view(prefix), [&](std::string_view key, std::string_view) {
      candidates.push_back(GameId(get_be(key.data() + 9, 4)));
      return true;
    });
    if (!s) return s.error();
    for (GameId id : candidates) {
      auto stored = db.game(id, kDecodeTags | kDecodeMainLine);
      if (!stored) return stored.error();
      if (same_game(*stored, g.record)) return true;
    }
    return false;
  }

  Status commit(std::vector<validate::GameRecord>& records) {
    std::vector<Prepared> games(records.size());
    for (std::size_t i = 0; i < records.size(); ++i) games[i].record = std::move(records[i]);
    prepare(games, options.threads);

    // Reused from batch to batch: large buffers cost page faults each time.
    batch.Clear();
    tree.clear();
    std::unordered_map<std::uint64_t, std::vector<const Prepared*>> in_batch;
    GameId next_id;
    std::array<VariantCounts, kVariantCount> counts;
    {
      std::lock_guard lock(d.meta_mutex);
      next_id = d.next_game_id;
      counts = d.counts;
    }
    ImportTotals added;
    for (const Prepared& g : games) {
      if (!g.index) return g.index.error();
      if (!g.bytes) return g.bytes.error();
      const GameIndex& ix = *g.index;
      auto& earlier = in_batch[ix.identity];
      auto dup = duplicate(g, earlier);
      if (!dup) return dup.error();
      if (*dup) {
        ++added.duplicates;
        continue;
      }
      earlier.push_back(&g);
      if (next_id == 0xffffffffu) return Error{ErrorKind::InvalidArgument, "the database is full (2^32 games)"};
      const GameId id = next_id++;
      const Variant v = ix.variant;
      const auto gk = game_key(id);
      batch.Put(d.cf(Family::Games), slice(gk), slice(*g.bytes)).PermitUncheckedError();
      batch.Put(d.cf(Family::Summaries), slice(gk), slice(encode_summary(ix.summary))).PermitUncheckedError();
      for (const PositionEntry& p : ix.positions) {
        std::string ply;
        put_varint(ply, p.first_ply);
        batch.Put(d.cf(Family::Positions), slice(position_key(v, p.hash, id)), slice(ply))
            .PermitUncheckedError();
      }
      for (const TreeEntry& t : ix.tree) {
        tree[tree_key(v, t.hash, t.move)].add(ix.counters);
      }
      for (const TagEntry& t : ix.tags)
        batch.Put(d.cf(Family::Tags), slice(tag_key(t.field, t.value, id)), {}).PermitUncheckedError();
      for (const PromotionEntry& p : ix.promotions) {
        const char flags = char(p.flags);
        batch.Put(d.cf(Family::Promotions),
                  slice(promotion_key(v, p.piece, p.colour, p.file, id, p.ply)),
                  rocksdb::Slice(&flags, 1))
            .PermitUncheckedError();
      }
      batch.Put(d.cf(Family::Identities), slice(identity_key(v, ix.identity, id)), {})
          .PermitUncheckedError();
      ++added.stored;
      added.positions += ix.positions.size();
      ++counts[std::size_t(v)].games;
      counts[std::size_t(v)].positions += ix.positions.size();
    }
    for (const auto& [key, c] : tree)
      batch.Merge(d.cf(Family::Tree), slice(key), encode_tree_counters(c)).PermitUncheckedError();

    // The counters go into the same batch: they are committed with the games.
    GameId old_next;
    std::array<VariantCounts, kVariantCount> old_counts;
    {
      std::lock_guard lock(d.meta_mutex);
      old_next = d.next_game_id;
      old_counts = d.counts;
      d.next_game_id = next_id;
      d.counts = counts;
      d.put_counters(batch);
    }
    if (Status s = d.write(batch); !s) {
      std::lock_guard lock(d.meta_mutex);
      d.next_game_id = old_next;
      d.counts = old_counts;
      return s;
    }
    // Make the games durable and visible to readers now and then; the
    // families flush together, so any flush is a consistent state.
    unflushed += batch.GetDataSize();
    const auto now = std::chrono::steady_clock::now();
    if (unflushed >= kFlushBytes || now - last_flush >= kFlushInterval) {
      unflushed = 0;
      last_flush = now;
      if (Status s = d.flush(false); !s) return s;
    }
    std::lock_guard lock(mutex);
    totals.stored += added.stored;
    totals.duplicates += added.duplicates;
    totals.positions += added.positions;
    return {};
  }

  void enqueue(std::unique_lock<std::mutex>& lock) {
    changed.wait(lock, [&] { return queue.size() < kMaxQueuedBatches || !failure.ok(); });
    queue.push_back(std::move(filling));
    filling.clear();
    changed.notify_all();
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
    if (writer.joinable()) writer.join();
    std::lock_guard lock(mutex);
    if (failure.ok() && db.writable()) failure = d.flush(true);
    if (!failure.ok()) return failure.error();
    return totals;
  }
};

GameImporter::GameImporter(Database& db, ImportOptions options)
    : impl_(std::make_unique<Impl>(db, options)) {}

GameImporter::~GameImporter() { (void)impl_->finish(); }

Status GameImporter::add(validate::GameRecord record) {
  if (!impl_->db.writable())
    return Error{ErrorKind::InvalidArgument, "the database is open for reading"};
  std::unique_lock lock(impl_->mutex);
  if (!impl_->failure.ok()) return impl_->failure;
  if (impl_->finished) return Error{ErrorKind::InvalidArgument, "the import is finished"};
  impl_->filling.push_back(std::move(record));
  if (impl_->filling.size() >= impl_->options.batch_games) impl_->enqueue(lock);
  return {};
}

Result<ImportTotals> GameImporter::finish() { return impl_->finish(); }

ImportTotals GameImporter::committed() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->totals;
}

}  // namespace virrey::store
