// GameSplitter: cuts a PGN byte stream into games without parsing them, so the
// games can be parsed and checked elsewhere (other threads: copy the text, it
// lives only until the next call). Memory is bounded by the largest game kept
// (a few times max_game_bytes at worst), never by the size of the input; the
// scan is SIMD-assisted and runs at several hundred MB/s.
//
// Where a game ends:
//   - after its termination marker (1-0 0-1 1/2-1/2 *) outside comments,
//     escape lines, tag pairs and variations; the rest of that line is taken
//     into the game when it is blank (spaces, then the line break);
//   - before a line whose first non-blank byte is '[' once the game has
//     movetext (the marker is missing: GameEnd::NextTags);
//   - before a line starting with a tag pair whose name the tag section
//     already holds (games that are only tags);
//   - before a line starting like a tag pair (`[Name "`) inside an
//     unterminated '{' comment;
//   - before a line whose first non-blank byte is '[' when what comes before
//     it is only comments over max_game_bytes (an Oversized item);
//   - at the end of the input.
// Blank bytes (and UTF-8 byte-order marks at a line start) between games
// belong to no game. Bytes that hold neither a tag nor movetext (only
// comments, escape lines or NUL padding) come as ItemKind::Stray. NUL bytes
// count as blanks here (and after a marker, on its line), but the parser
// reports them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "virrey/importers/byte_source.hpp"
#include "virrey/pgn/location.hpp"

namespace virrey::pgn {

struct SplitterOptions {
  // A game longer than this (in bytes) is not kept: it becomes an Oversized
  // item and the splitter skips to the next game.
  std::size_t max_game_bytes = std::size_t(32) << 20;  // 32 MiB
  // How much to ask the source for at a time.
  std::size_t read_size = std::size_t(1) << 20;
};

enum class ItemKind : std::uint8_t {
  Game,       // `text` holds one game
  Oversized,  // a game over max_game_bytes was skipped: `text` is empty
  Stray,      // bytes that are no game (only comments / escape lines); not numbered
  ReadError,  // the source failed: `error` says why; End follows
  End,        // no more input (and every later call says End again)
};

enum class GameEnd : std::uint8_t {
  Result,      // ended by its termination marker
  NextTags,    // no marker: a new tag section began (report a missing result)
  EndOfInput,  // no marker: the input ended (the game may be truncated)
  ReadError,   // no marker: the source failed after these bytes
};

struct GameItem {
  ItemKind kind = ItemKind::End;
  // Game, Stray: the exact bytes as read, valid until the next call to next().
  std::string_view text;
  // Game, Oversized: 1-based number of the game in the input.
  std::uint64_t number = 0;
  // Game, Oversized, Stray: where the item's first byte is; ReadError:
  // where the bytes read end.
  Location start;
  std::uint64_t offset = 0;  // byte offset of the first byte in the (decompressed) input
  std::uint64_t size = 0;    // bytes in the item (Oversized: bytes skipped)
  GameEnd end = GameEnd::EndOfInput;
  // ReadError: the source's message.
  std::string_view error;
};

class GameSplitter {
 public:
  // `source` must outlive the splitter.
  explicit GameSplitter(importers::ByteSource& source, SplitterOptions options = {});
  ~GameSplitter();
  GameSplitter(GameSplitter&&) noexcept;
  GameSplitter& operator=(GameSplitter&&) noexcept;

  // The next item; ItemKind::End once the input is exhausted.
  GameItem next();

  // Games (Game and Oversized items) handed out so far.
  std::uint64_t games() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace virrey::pgn
