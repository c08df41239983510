// Fuzz entry: the square index's values (store/square_index.hpp). Any bytes
// decode as a block's games or a square's changes, or are refused; what
// decodes writes back to bytes that decode the same, and a square's changes
// come out by ply.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::fuzz {

void square_index(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return;
  // First byte: the block's game count; the rest: the value.
  const std::size_t games = data[0];
  const std::string_view value(reinterpret_cast<const char*>(data + 1), size - 1);

  std::vector<std::vector<store::SquareChange>> changes;
  if (store::decode_square_changes(value, games, changes)) {
    VIRREY_FUZZ_CHECK(changes.size() == games, "a square value with another count of games");
    for (const auto& game : changes)
      for (std::size_t i = 1; i < game.size(); ++i)
        VIRREY_FUZZ_CHECK(game[i].ply > game[i - 1].ply, "a square's changes out of ply order");
    std::vector<std::vector<store::SquareChange>> again;
    VIRREY_FUZZ_CHECK(
        store::decode_square_changes(store::encode_square_changes(changes), games, again) && again == changes,
        "a square value that does not write back");
  }

  std::vector<store::SquareGameHeader> headers;
  const store::GameId first = store::GameId(data[0]) + 1;
  if (store::decode_square_headers(value, first, headers)) {
    for (std::size_t i = 1; i < headers.size(); ++i)
      VIRREY_FUZZ_CHECK(headers[i].id > headers[i - 1].id, "a block's games out of id order");
    if (!headers.empty()) VIRREY_FUZZ_CHECK(headers.front().id >= first, "a game before the block's first");
    std::vector<store::SquareGameHeader> again;
    VIRREY_FUZZ_CHECK(
        store::decode_square_headers(store::encode_square_headers(first, headers), first, again) &&
            again == headers,
        "a block's games that do not write back");
  }
}

}  // namespace virrey::fuzz
