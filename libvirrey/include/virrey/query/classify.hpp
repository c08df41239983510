// Naming games' openings from an ECO file (opening_book.hpp), by position:
// a game's opening is the book's entry for the deepest position of its main
// line that the book names, so a game that transposes into a line (reaches
// its position by another move order) takes that line's name. The book's
// positions are keyed by 64-bit Zobrist hashes and not confirmed otherwise.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "virrey/game/game_record.hpp"
#include "virrey/query/opening_book.hpp"
#include "virrey/store/database.hpp"

namespace virrey::query {

// The opening of one game (ply: where its position occurs); nullopt when no
// position of its main line is named, or its start position is not legal.
std::optional<store::StoredOpening> classify_game(const OpeningBook& book, const game::GameRecord& game);

struct ClassifyTotals {
  std::uint64_t games = 0;       // games looked at
  std::uint64_t classified = 0;  // of them, with an opening
};

// Names the openings of the games from `first` on and stores them (replacing
// earlier ones; a game the book does not name loses its old opening), with
// the book's named positions. Each batch of games is written atomically.
Result<ClassifyTotals> classify_games(store::Database& db, const OpeningBook& book, store::GameId first = 1,
                                      const std::function<void(std::uint64_t)>& progress = {});

}  // namespace virrey::query
