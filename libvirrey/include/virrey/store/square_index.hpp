// The square index (`virrey db squares`): for every game, when the content of
// each square of its main line changes. A pattern that reads a few squares
// (`--fenpattern '*/*/*/*/???PP???/*/*/*'`, `--pattern 'Vd5 Pc4'`) is then
// answered from those squares' streams without replaying any game: between
// two changes of the squares it reads, a game's positions differ only in the
// side to move.
//
// The index is optional: it costs about two bytes a ply. `db squares` builds
// it for the games stored; once present, every import and merge extends it
// to their games, and it covers every game up to `SquareIndexState::covered`
// (games past it, as after an import killed before extending it, are
// replayed by searches until `db squares` runs again).
//
// Layout (keys.hpp): games in blocks of at most kSquareBlockSize per
// variant, each block keyed by its first game id. The block's games value:
// varint count, then per game varint(id - previous id; the first: id -
// the key's id), varint(plies * 2 + 1 if Black moves first). A square's
// value is a bit stream (bit_stream.hpp): the Rice parameter k (3 bits),
// then per game the number of changes in unary (Rice, k = 0) and each
// change: the ply (the first: Rice(ply, k); the next ones: Rice(ply -
// previous - 1, k)) and the content: 1 bit set for an empty square, else 0
// and 4 bits, colour * 8 + piece type - 1. Changes are relative to the
// variant's start position; a game set up from a FEN has its differences at
// ply 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/database.hpp"

namespace virrey::store {

constexpr std::size_t kSquareBlockSize = 4096;

// A square's content from a ply on.
struct SquareChange {
  std::uint32_t ply = 0;
  Piece content;
  friend bool operator==(const SquareChange&, const SquareChange&) = default;
};

// A game as the index keeps it.
struct SquareGameHeader {
  GameId id = 0;
  std::uint32_t plies = 0;  // of the main line
  Color first_to_move = Color::White;
  friend bool operator==(const SquareGameHeader&, const SquareGameHeader&) = default;
};

// One game as a reader asks for it: per square asked for (in the order
// asked), its changes by ply, decoded when first asked for (a pattern that
// rules a game out by one square never decodes the others).
class SquareGame {
 public:
  // What decodes a square's changes (square_index.cpp).
  struct Source {
    virtual bool read(std::size_t i, std::vector<SquareChange>& out) = 0;

   protected:
    ~Source() = default;
  };
  SquareGame(std::size_t squares, Source& source) : changes_(squares), read_(squares, 0), source_(&source) {}

  SquareGameHeader header;
  // The changes of the i-th square asked for; none when they do not decode
  // (the reader then reports the database corrupt).
  const std::vector<SquareChange>& changes(std::size_t i) const {
    if (!read_[i]) {
      read_[i] = 1;
      if (!source_->read(i, changes_[i])) failed_ = i, changes_[i].clear();
    }
    return changes_[i];
  }
  std::size_t squares() const { return changes_.size(); }

  // The reader's: a new game, and which squares were read.
  void next(const SquareGameHeader& h) {
    header = h;
    std::fill(read_.begin(), read_.end(), 0);
  }
  bool read(std::size_t i) const { return read_[i] != 0; }
  // The square whose changes did not decode, if any.
  std::optional<std::size_t> failed() const { return failed_; }

 private:
  mutable std::vector<std::vector<SquareChange>> changes_;
  mutable std::vector<char> read_;
  mutable std::optional<std::size_t> failed_;
  Source* source_;
};

// The codec of one block (exposed for tests).
std::string encode_square_headers(GameId first, const std::vector<SquareGameHeader>& games);
bool decode_square_headers(std::string_view value, GameId first, std::vector<SquareGameHeader>& out);
// One square: per game of the block, its changes.
std::string encode_square_changes(const std::vector<std::vector<SquareChange>>& per_game);
// `games`: the block's count; false for a value that does not decode.
bool decode_square_changes(std::string_view value, std::size_t games,
                           std::vector<std::vector<SquareChange>>& per_game);

// A game's changes, square by square (board numbering: rank * width + file),
// relative to the variant's start; nullopt when the record does not replay
// (a bad start FEN).
struct GameSquares {
  Color first_to_move = Color::White;
  std::vector<std::vector<SquareChange>> changes;  // per square
};
std::optional<GameSquares> square_changes(const game::GameRecord& record);

struct SquareIndexState {
  bool present = false;
  GameId covered = 0;  // every game up to this id is in the index
};
Result<SquareIndexState> square_index_state(const Database& db);
// Whether the index answers for every game stored.
Result<bool> square_index_complete(const Database& db);

// Builds (or extends) the index up to the last game stored; progress gets
// the games indexed so far. Interrupted, it keeps the blocks written: the
// next run goes on from there.
struct SquareIndexTotals {
  std::uint64_t games = 0;    // indexed by this run
  std::uint64_t skipped = 0;  // records that do not replay (none in a consistent database)
};
Result<SquareIndexTotals> extend_square_index(Database& db,
                                              const std::function<void(std::uint64_t)>& progress = {});
// Extends the index when the database has one (after an import or merge).
Result<SquareIndexTotals> extend_square_index_if_present(Database& db);
Status drop_square_index(Database& db);

// The games of a variant in the index from game `from` on, in id order,
// with the changes of `squares` (board numbering).
Status for_each_square_game(const Database& db, Variant v, const std::vector<int>& squares,
                            const Visit<const SquareGame&>& visit, GameId from = 1);

}  // namespace virrey::store
