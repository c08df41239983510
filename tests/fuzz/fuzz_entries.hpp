// The entry points of virrey's fuzz targets. Each takes any bytes, drives one
// part of the library with them and checks what must hold for every input; a
// broken property aborts with a message on stderr. The libFuzzer drivers and
// the regression test (which replays the saved inputs) call the same functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace virrey::fuzz {

// The whole input as a PGN stream: split into games, every game checked; a
// game free of errors is written back as PGN, and that text must check the
// same way again.
void pgn_reader(const std::uint8_t* data, std::size_t size);

// First byte: the variant; the rest: a FEN. A valid position must write back
// to a FEN that reads as the same position, and so must every position one
// legal move away, with the hash kept up to date by the moves.
void fen(const std::uint8_t* data, std::size_t size);

// First byte: one of a few fixed positions (Standard, Virrey, Modern); the
// rest: SAN tokens played in turn. Every resolved move must be legal, and
// every legal move must write as SAN that resolves back to it.
void san(const std::uint8_t* data, std::size_t size);

// The whole input as a `--material` text (query/material_spec.hpp); its
// bytes also make material balances to decide.
void material_spec(const std::uint8_t* data, std::size_t size);

// First byte: bit 0 a `--fenpattern` (else a `--pattern`), bit 1 either
// colour; the rest: the pattern's text (query/board_pattern.hpp).
void board_pattern(const std::uint8_t* data, std::size_t size);

// First byte: the output format of `stats merge`; the rest: up to three
// partial results (cli/stats_partial.hpp), separated by NUL bytes.
void stats_partial(const std::uint8_t* data, std::size_t size);

// The first game of the input, checked and, when free of errors, imported
// into a temporary database; it must read back equal, and the database must
// pass its consistency check.
void import(const std::uint8_t* data, std::size_t size);

// The input as a FIDE TRF: read, compared with a tournament of its first
// players, and that tournament's own TRF must read back whole.
void trf(const std::uint8_t* data, std::size_t size);

// The whole input as validate --export-notation checks it, every game handed
// to the tournament checks, whose findings must name games of the input, in
// input order, the same when asked twice.
void event_checks(const std::uint8_t* data, std::size_t size);

// The input as lines an engine writes, read as a UCI and as an XBoard
// engine's answer (engine/protocol_lines.hpp): errors only where a search
// ends, scores within bounds, a search that ends well has a score and a move,
// and every move read from it is legal in the positions it is read against.
void engine_lines(const std::uint8_t* data, std::size_t size);

// First byte: a block's game count; the rest: a value of the square index,
// read as a square's changes and as a block's games (store/square_index.hpp):
// refused, or decoded in order and written back the same.
void square_index(const std::uint8_t* data, std::size_t size);

// The target of a name ("pgn_reader", "fen", "san", "import", "trf", "event_checks",
// "material_spec", "engine_lines"), or nullptr.
// The whole input as a tag value (store/keys.hpp: normalize_tag_value and
// the forms keys written before may hold it in).
void tag_value(const std::uint8_t* data, std::size_t size);

using Entry = void (*)(const std::uint8_t*, std::size_t);
Entry entry_by_name(std::string_view name);

}  // namespace virrey::fuzz
