// The square index (square_index.hpp): its codec, its building from the game
// records, and its reading square by square.
#include "virrey/store/square_index.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "bit_stream.hpp"
#include "rocks.hpp"
#include "varint.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {

constexpr int kMaxSquares = 81;
constexpr int kMaxRice = 7;

Error corrupt(const Database::Impl& d, std::string_view what) {
  return Error{ErrorKind::Corrupt, fmt::format("{}: square index: {}", d.path, what)};
}

int content_code(Piece p) { return index(p.color) * 8 + index(p.type) - 1; }
Piece content_of(int code) { return Piece{Color(code >> 3), PieceType((code & 7) + 1)}; }

// The bits of the deltas coded with parameter k.
std::uint64_t rice_bits(const std::vector<std::vector<SquareChange>>& per_game, int k) {
  std::uint64_t bits = 0;
  for (const auto& changes : per_game) {
    std::uint32_t previous = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      const std::uint32_t delta = i == 0 ? changes[i].ply : changes[i].ply - previous - 1;
      bits += (delta >> k) + 1 + std::uint64_t(k);
      previous = changes[i].ply;
    }
  }
  return bits;
}

}  // namespace

// --- codec ----------------------------------------------------------------------

std::string encode_square_headers(GameId first, const std::vector<SquareGameHeader>& games) {
  std::string out;
  put_varint(out, games.size());
  GameId previous = first;
  for (const SquareGameHeader& g : games) {
    put_varint(out, g.id - previous);
    put_varint(out, std::uint64_t(g.plies) * 2 + (g.first_to_move == Color::Black ? 1 : 0));
    previous = g.id;
  }
  return out;
}

bool decode_square_headers(std::string_view value, GameId first, std::vector<SquareGameHeader>& out) {
  out.clear();
  ByteReader r(value);
  const std::uint64_t n = r.varint();
  if (!r.ok() || n > value.size()) return false;
  std::uint64_t id = first;
  for (std::uint64_t i = 0; i < n; ++i) {
    // The first game is the key's; the others follow in id order.
    const std::uint64_t gap = r.varint();
    if ((i == 0) != (gap == 0) || gap > kMaxGameId - id) return false;
    id += gap;
    const std::uint64_t plies = r.varint();
    if (!r.ok() || plies / 2 > 0xffffffffu) return false;
    out.push_back({GameId(id), std::uint32_t(plies / 2), plies & 1 ? Color::Black : Color::White});
  }
  return r.at_end();
}

std::string encode_square_changes(const std::vector<std::vector<SquareChange>>& per_game) {
  int best = 0;
  std::uint64_t best_bits = rice_bits(per_game, 0);
  for (int k = 1; k <= kMaxRice; ++k)
    if (const std::uint64_t b = rice_bits(per_game, k); b < best_bits) best = k, best_bits = b;
  std::string out;
  {
    BitWriter w(out);
    w.bits(std::uint64_t(best), 3);
    for (const auto& changes : per_game) {
      w.rice(changes.size(), 0);
      std::uint32_t previous = 0;
      for (std::size_t i = 0; i < changes.size(); ++i) {
        w.rice(i == 0 ? changes[i].ply : changes[i].ply - previous - 1, best);
        previous = changes[i].ply;
        if (changes[i].content.empty()) {
          w.bits(1, 1);
        } else {
          w.bits(0, 1);
          w.bits(std::uint64_t(content_code(changes[i].content)), 4);
        }
      }
    }
  }
  return out;
}

namespace {

// A square's value read game by game, so that readers walk a block's squares
// side by side. Bits are read as BitWriter writes them, through 64-bit
// loads from a copy padded with zeros: the hot loop of a pattern search.
class ChangesReader {
 public:
  explicit ChangesReader(std::string_view value) : size_bits_(value.size() * 8) {
    data_.reserve(value.size() + 8);
    data_.assign(value.data(), value.size());
    data_.append(8, '\0');
    k_ = int(bits(3));
  }
  // The next game's changes; false once the value does not decode.
  bool next(std::vector<SquareChange>& changes) {
    changes.clear();
    const std::uint64_t n = rice(0);
    if (n > size_bits_) return false;
    std::uint64_t ply = 0;
    const std::uint64_t low = (std::uint64_t(1) << k_) - 1;
    for (std::uint64_t i = 0; i < n; ++i) {
      // One load for a change: the unary part, k bits, the empty bit and
      // the man's 4 bits (the rare longer change is read piece by piece).
      const std::uint64_t w = peek();
      const int ones = std::countr_one(w);
      std::uint64_t delta, c;
      if (ones + 1 + k_ + 5 <= 57) {
        delta = std::uint64_t(ones) << k_ | (w >> (ones + 1) & low);
        c = w >> (ones + 1 + k_) & 31;
        pos_ += std::size_t(ones + 1 + k_);
      } else {
        delta = rice(k_);
        c = peek() & 31;
      }
      pos_ += c & 1 ? 1 : 5;  // an empty square has no man's bits
      ply = i == 0 ? delta : ply + delta + 1;
      if (ply > 0xffffffffu || pos_ > size_bits_) return false;
      changes.push_back({std::uint32_t(ply), c & 1 ? Piece{} : content_of(int(c >> 1))});
    }
    return pos_ <= size_bits_;
  }
  // Passes over the next game's changes.
  bool skip() {
    const std::uint64_t n = rice(0);
    if (n > size_bits_) return false;
    for (std::uint64_t i = 0; i < n && pos_ <= size_bits_; ++i) {
      const std::uint64_t w = peek();
      const int ones = std::countr_one(w);
      if (ones + 1 + k_ + 5 <= 57) {
        pos_ += std::size_t(ones + 1 + k_) + (w >> (ones + 1 + k_) & 1 ? 1 : 5);
      } else {
        rice(k_);
        pos_ += peek() & 1 ? 1 : 5;
      }
    }
    return pos_ <= size_bits_;
  }
  // After the block's last game: whether the value ended there (whatever
  // follows is the last byte's padding).
  bool at_end() const { return pos_ <= size_bits_ && (pos_ + 7) / 8 == size_bits_ / 8; }

 private:
  // At least 57 bits from pos_ (zeros past the end).
  std::uint64_t peek() const {
    std::uint64_t w;
    std::memcpy(&w, data_.data() + std::min(pos_, size_bits_) / 8, 8);
    if constexpr (std::endian::native == std::endian::big)
      w = __builtin_bswap64(w);  // bytes as written, first lowest
    return pos_ > size_bits_ ? 0 : w >> (pos_ % 8);
  }
  std::uint64_t bits(int n) {
    const std::uint64_t v = peek() & ((std::uint64_t(1) << n) - 1);
    pos_ += std::size_t(n);
    return v;
  }
  std::uint64_t rice(int k) {
    std::uint64_t q = 0;
    for (;;) {
      const int ones = std::countr_one(peek());
      if (ones < 57) {
        q += std::uint64_t(ones);
        pos_ += std::size_t(ones) + 1;
        break;
      }
      q += 57;
      pos_ += 57;
      if (pos_ > size_bits_) return 0;
    }
    return q << k | bits(k);
  }

  std::string data_;
  std::size_t size_bits_;
  std::size_t pos_ = 0;
  int k_ = 0;
};

}  // namespace

bool decode_square_changes(std::string_view value, std::size_t games,
                           std::vector<std::vector<SquareChange>>& per_game) {
  per_game.resize(games);
  ChangesReader r(value);
  for (std::size_t g = 0; g < games; ++g)
    if (!r.next(per_game[g])) return false;
  return r.at_end();
}

// --- a game's changes -------------------------------------------------------------

namespace {

template <class G>
std::optional<GameSquares> changes_in(const game::GameRecord& rec) {
  const std::optional<Position<G>>& start = variant_start<G>(rec.variant);
  if (!start) return std::nullopt;
  std::optional<Position<G>> from_fen;
  if (!rec.start_fen.empty()) {
    FenProblems problems;
    from_fen = position_from_fen<G>(rec.start_fen, rec.variant, problems);
    if (!from_fen) return std::nullopt;
  }
  Position<G> pos = from_fen ? *from_fen : *start;
  constexpr int kSquares = G::width * G::height;
  GameSquares game{pos.side_to_move(), std::vector<std::vector<SquareChange>>(kSquares)};
  auto& out = game.changes;
  std::array<Piece, kMaxSquares> board{};
  for (int s = 0; s < kSquares; ++s) {
    board[std::size_t(s)] = pos.piece_on(Square(s));
    if (board[std::size_t(s)] != start->piece_on(Square(s)))
      out[std::size_t(s)].push_back({0, board[std::size_t(s)]});
  }
  auto look = [&](int s, std::uint32_t ply) {
    const Piece now = pos.piece_on(Square(s));
    if (now == board[std::size_t(s)]) return;
    board[std::size_t(s)] = now;
    out[std::size_t(s)].push_back({ply, now});
  };
  for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
    const Move m = rec.main_line[i];
    pos.play(m);
    const auto ply = std::uint32_t(i + 1);
    if (m.kind() == MoveKind::Normal || m.kind() == MoveKind::Promotion) {
      look(m.from(), ply);
      look(m.to(), ply);
    } else {
      for (int s = 0; s < kSquares; ++s) look(s, ply);  // castling, en passant: more squares
    }
  }
  return game;
}

}  // namespace

std::optional<GameSquares> square_changes(const game::GameRecord& record) {
  return with_geometry(record.variant, [&](auto g) { return changes_in<decltype(g)>(record); });
}

// --- state ------------------------------------------------------------------------

Result<SquareIndexState> square_index_state(const Database& db) {
  const Database::Impl& d = db.impl();
  SquareIndexState state;
  if (!d.cf(Family::Squares)) return state;
  std::string value;
  bool found = false;
  if (Status s = d.get(Family::Squares, view(square_covered_key()), value, found); !s) return s.error();
  if (!found) return state;
  if (value.size() != 4) return corrupt(d, "a covered mark of the wrong size");
  state.present = true;
  state.covered = GameId(get_be(value.data(), 4));
  return state;
}

Result<bool> square_index_complete(const Database& db) {
  auto state = square_index_state(db);
  if (!state) return state.error();
  if (!state->present) return false;
  std::lock_guard lock(db.impl().meta_mutex);
  return state->covered + 1 >= db.impl().next_game_id;
}

// --- building ---------------------------------------------------------------------

namespace {

// The games of one variant waiting for their block.
struct PendingBlock {
  std::vector<SquareGameHeader> headers;
  std::vector<std::vector<std::vector<SquareChange>>> changes;  // per game, per square
};

void add_block(const Database::Impl& d, Variant v, PendingBlock& block, rocksdb::WriteBatch& batch) {
  if (block.headers.empty()) return;
  const GameId first = block.headers.front().id;
  batch
      .Put(d.cf(Family::Squares), view(square_block_key(v, kSquareBlockGames, first)),
           encode_square_headers(first, block.headers))
      .PermitUncheckedError();
  const int squares = info(v).width * info(v).height;
  std::vector<std::vector<SquareChange>> column(block.headers.size());
  for (int s = 0; s < squares; ++s) {
    for (std::size_t g = 0; g < block.headers.size(); ++g)
      column[g] = std::move(block.changes[g][std::size_t(s)]);
    batch
        .Put(d.cf(Family::Squares), view(square_block_key(v, std::uint8_t(s), first)),
             encode_square_changes(column))
        .PermitUncheckedError();
  }
  block.headers.clear();
  block.changes.clear();
}

}  // namespace

Result<SquareIndexTotals> extend_square_index(Database& db,
                                              const std::function<void(std::uint64_t)>& progress) {
  Database::Impl& d = db.impl();
  if (!d.cf(Family::Squares) || !db.writable())
    return Error{ErrorKind::Io, fmt::format("{} is open for reading", d.path)};
  auto state = square_index_state(db);
  if (!state) return state.error();
  SquareIndexTotals totals;
  std::array<PendingBlock, kVariantCount> pending;
  std::size_t waiting = 0;
  GameId last = state->covered;
  Status failure;
  // Writes every variant's waiting games and the new covered mark at once.
  auto write = [&]() -> Status {
    rocksdb::WriteBatch batch;
    for (int v = 0; v < kVariantCount; ++v) add_block(d, Variant(v), pending[std::size_t(v)], batch);
    Key<4> covered;
    put_be(covered.data(), last, 4);
    batch.Put(d.cf(Family::Squares), view(square_covered_key()), view(covered)).PermitUncheckedError();
    waiting = 0;
    return d.write(batch);
  };
  Status s = db.for_each_game(
      [&](GameId id, const game::GameRecord& rec) {
        auto changes = square_changes(rec);
        last = id;
        if (!changes) {
          ++totals.skipped;
        } else {
          PendingBlock& p = pending[std::size_t(rec.variant)];
          p.headers.push_back({id, std::uint32_t(rec.main_line.size()), changes->first_to_move});
          p.changes.push_back(std::move(changes->changes));
          ++totals.games;
          ++waiting;
        }
        if (waiting >= kSquareBlockSize) {
          failure = write();
          if (progress) progress(totals.games);
        }
        return bool(failure);
      },
      kDecodeMainLine, state->covered + 1);
  if (!s) return s.error();
  if (!failure) return failure.error();
  if (waiting > 0 || !state->present || last != state->covered)
    if (Status w = write(); !w) return w.error();
  return totals;
}

Result<SquareIndexTotals> extend_square_index_if_present(Database& db) {
  auto state = square_index_state(db);
  if (!state) return state.error();
  if (!state->present) return SquareIndexTotals{};
  return extend_square_index(db);
}

Status drop_square_index(Database& db) {
  Database::Impl& d = db.impl();
  if (!d.cf(Family::Squares) || !db.writable())
    return Error{ErrorKind::Io, fmt::format("{} is open for reading", d.path)};
  rocksdb::WriteBatch batch;
  batch.DeleteRange(d.cf(Family::Squares), std::string(1, '\0'), std::string(1, '\x03'))
      .PermitUncheckedError();
  if (Status s = d.write(batch); !s) return s;
  return d.compact({Family::Squares});
}

// --- reading ----------------------------------------------------------------------

Status for_each_square_game(const Database& db, Variant v, const std::vector<int>& squares,
                            const Visit<const SquareGame&>& visit, GameId from) {
  const Database::Impl& d = db.impl();
  if (!d.cf(Family::Squares)) return {};
  // One iterator per stream: the games', then each square's.
  struct Stream {
    std::string upper;
    rocksdb::Slice upper_slice;
    std::unique_ptr<rocksdb::Iterator> it;
  };
  std::vector<Stream> streams(squares.size() + 1);
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const int sq = i == 0 ? kSquareBlockGames : squares[i - 1];
    const Key<3> prefix = square_block_prefix(v, std::uint8_t(sq));
    Stream& st = streams[i];
    st.upper = prefix_successor(view(prefix));
    st.upper_slice = rocksdb::Slice(st.upper);
    rocksdb::ReadOptions ro = d.read_options();
    ro.iterate_upper_bound = &st.upper_slice;
    st.it.reset(d.db->NewIterator(ro, d.cf(Family::Squares)));
    // The block that holds `from`: the last one starting at or before it.
    const Key<7> at = square_block_key(v, std::uint8_t(sq), from);
    st.it->SeekForPrev(rocksdb::Slice(at.data(), at.size()));
    if (!st.it->Valid() || !st.it->key().starts_with(rocksdb::Slice(prefix.data(), prefix.size())))
      st.it->Seek(rocksdb::Slice(prefix.data(), prefix.size()));
  }
  std::vector<SquareGameHeader> headers;
  std::vector<ChangesReader> readers;
  struct Readers final : SquareGame::Source {
    std::vector<ChangesReader>* readers;
    bool read(std::size_t i, std::vector<SquareChange>& out) override { return (*readers)[i].next(out); }
  } source;
  source.readers = &readers;
  SquareGame game(squares.size(), source);
  for (rocksdb::Iterator* games = streams[0].it.get(); games->Valid(); games->Next()) {
    const rocksdb::Slice key = games->key();
    if (key.size() != 7) return corrupt(d, "a key of the wrong size");
    const GameId first = GameId(get_be(key.data() + 3, 4));
    if (!decode_square_headers(std::string_view(games->value().data(), games->value().size()), first,
                               headers))
      return corrupt(d, fmt::format("the games of the block at game {} do not decode", first));
    readers.clear();
    for (std::size_t i = 0; i < squares.size(); ++i) {
      rocksdb::Iterator* it = streams[i + 1].it.get();
      if (!it->Valid() || it->key().size() != 7 || GameId(get_be(it->key().data() + 3, 4)) != first)
        return corrupt(d, fmt::format("square {} lacks the block at game {}", squares[i], first));
      readers.emplace_back(std::string_view(it->value().data(), it->value().size()));
    }
    auto bad = [&](std::size_t i) {
      return corrupt(d, fmt::format("square {} of the block at game {} does not decode", squares[i], first));
    };
    for (const SquareGameHeader& h : headers) {
      game.next(h);
      if (h.id >= from && !visit(game)) return game.failed() ? bad(*game.failed()) : Status{};
      if (game.failed()) return bad(*game.failed());
      // The squares the visitor did not ask for, passed over.
      for (std::size_t i = 0; i < squares.size(); ++i)
        if (!game.read(i) && !readers[i].skip()) return bad(i);
    }
    for (std::size_t i = 0; i < squares.size(); ++i) {
      if (!readers[i].at_end()) return bad(i);
      streams[i + 1].it->Next();
    }
  }
  for (const Stream& st : streams)
    if (!st.it->status().ok()) return to_error(st.it->status(), "reading the square index");
  return {};
}

}  // namespace virrey::store
