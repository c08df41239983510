// Key layouts of every column family: fixed-width, big-endian, so that
// RocksDB's byte order is numeric order and a prefix selects a range. These
// layouts are part of the on-disk format (schema.hpp: kSchemaVersion); golden
// vectors in tests/store guard them.
//
//   family       key                                                  -> value
//   games        game id (4)                                          -> record (game_codec.hpp)
//   summaries    game id (4)                                          -> summary (game_summary.hpp)
//   positions    variant (1) | bucket (2) | first game id (4)         -> postings (position_postings.hpp)
//   tree         variant (1) | hash's top 7 bytes | move (3)          -> counters (tree_counters.hpp)
//   tags         field (1) | normalised value | 0x00 | game id (4)    -> empty
//   promotions   variant | piece | colour | file (1 each) | game id (4) | ply (2) -> flags (1)
//   identities   variant (1) | identity (8) | game id (4)             -> empty
//   material     0 | variant (1) | material (8)                       -> empty: the balances that occur
//                1 | variant (1) | material (8) | first game id (4)   -> postings (material_postings.hpp)
//                2                                                    -> empty: the index is complete
//                3 | variant (1) | counts in search order (8)         -> empty: the balances again, by counts
//                4                                                    -> empty: kind 3 is complete
//   openings     0 | game id (4)                                      -> the game's opening (openings.hpp)
//                1 | variant (1) | position hash (8)                  -> the ECO file's name of the position
//                2                                                    -> the ECO file's description (text)
//   squares      1 | variant (1) | square (1) | first game id (4)     -> the block's changes of the square
//                1 | variant (1) | 0xff | first game id (4)           -> the block's games (square_index.hpp)
//                2                                                    -> the last game id covered (4)
//   meta         kind (1) | ...   (see MetaKey)
//
// A position is indexed once per game (a repetition adds no entry). The
// position index is a list of postings per hash bucket (the hash's top
// kPositionBucketBits bits) and per import segment: each value lists the
// games of one segment with a short fingerprint of the rest of the hash, so
// a lookup reads one small value per segment. A fingerprint may match a
// position it is not: readers confirm every hit by replay.
//
// A move is 3 bytes: from square, to square, kind << 4 | promotion piece.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/schema.hpp"

namespace virrey::store {

template <std::size_t N>
using Key = std::array<char, N>;

template <std::size_t N>
std::string_view view(const Key<N>& k) {
  return {k.data(), N};
}

// Big-endian fixed-width integers.
void put_be(char* out, std::uint64_t value, int bytes);
std::uint64_t get_be(const char* in, int bytes);

// --- games, summaries ------------------------------------------------------
Key<4> game_key(GameId id);
GameId game_key_id(std::string_view key);

// --- positions --------------------------------------------------------------
constexpr int kPositionBucketBits = 14;
std::uint32_t position_bucket(std::uint64_t hash);
// Every segment's postings of the hash's bucket.
Key<3> position_prefix(Variant v, std::uint64_t hash);
// The postings of one segment, keyed by the first game they list.
Key<7> position_key(Variant v, std::uint64_t hash, GameId first);
struct PositionKey {
  Variant variant;
  std::uint32_t bucket;
  GameId first;
};
std::optional<PositionKey> parse_position_key(std::string_view key);

// --- tree -------------------------------------------------------------------
// A tree key holds the hash's top 7 bytes: two positions of one variant
// share a prefix once in 2^56 pairs, and readers drop any move that is not
// legal in the position they asked about.
constexpr int kTreeHashBytes = 7;
Key<1 + kTreeHashBytes> tree_prefix(Variant v, std::uint64_t hash);
Key<1 + kTreeHashBytes + 3> tree_key(Variant v, std::uint64_t hash, Move m);

// --- tags -------------------------------------------------------------------
// base/letter_case.hpp's folded_text: lower-case, trimmed, inner runs of blanks as one space, NUL
// bytes dropped. Search normalises its input alike. Databases written before MetaKey::TagFolding hold keys
// lower-cased in ASCII and Latin-1 only.
std::string normalize_tag_value(std::string_view value);
// A normalised value that says "unknown" (empty, "?", "-", a Date of only
// '?' and '.'): not indexed, and matched by no tag condition.
bool is_placeholder_tag_value(TagField f, std::string_view normalized);
// The forms a normalised value may have among keys lower-cased in ASCII and
// Latin-1 only: each small letter beyond Latin-1 also as its capital(s).
// At most kMaxTagKeyForms; past that the forms are of the value's beginning,
// up to the letter that would exceed it (`cut`: read them as prefixes and
// compare each key's value normalised again).
constexpr std::size_t kMaxTagKeyForms = 1024;
struct TagKeyForms {
  std::vector<std::string> forms;
  bool cut = false;
};
TagKeyForms tag_key_forms(std::string_view normalized);
// field | value | 0x00: every game with exactly this (normalised) value.
std::string tag_exact_prefix(TagField f, std::string_view normalized);
void append_tag_exact_prefix(std::string& out, TagField f, std::string_view normalized);
// field | value: every game whose value starts so.
std::string tag_value_prefix(TagField f, std::string_view normalized);
std::string tag_key(TagField f, std::string_view normalized, GameId id);
struct TagKey {
  TagField field;
  std::string_view value;  // normalised; views the key
  GameId game;
};
std::optional<TagKey> parse_tag_key(std::string_view key);

// --- promotions -------------------------------------------------------------
Key<10> promotion_key(Variant v, PieceType piece, Color colour, int file, GameId id, std::uint32_t ply);
struct PromotionKey {
  Variant variant;
  PieceType piece;
  Color colour;
  int file;
  GameId game;
  std::uint32_t ply;
};
std::optional<PromotionKey> parse_promotion_key(std::string_view key);

// --- identities -------------------------------------------------------------
Key<9> identity_prefix(Variant v, std::uint64_t identity);
Key<13> identity_key(Variant v, std::uint64_t identity, GameId id);

// --- material ---------------------------------------------------------------
// The postings of one balance per span of games (kind 5), keyed by the
// balance's counts in search order (material_search_order) and the span's
// first game (each ingest adds a run to the value: material_postings.hpp):
// the balances a search by counts matches lie side by side, and the keys
// are the dictionary of balances.
//
// Databases written before kind 5 hold their games' postings under kind 1
// (keyed by the balance as rules/material.hpp orders it) with a dictionary
// of their balances (kind 0, and kind 3 in search order); they keep them, and
// games added later go to kind 5. Every game id under kind 1 is below every
// one under kind 5, so a balance's postings in id order are kind 1's, then
// kind 5's.
Key<10> material_postings_prefix(Variant v, std::uint64_t material);
Key<14> material_postings_key(Variant v, std::uint64_t material, GameId first);
Key<2> material_postings_variant_prefix(Variant v);
// The layout before kind 5 (read, merged and upgraded; never written by an import).
Key<10> material_dictionary_key(Variant v, std::uint64_t material);
Key<2> material_dictionary_prefix(Variant v);
Key<10> material_old_postings_prefix(Variant v, std::uint64_t material);
Key<14> material_old_postings_key(Variant v, std::uint64_t material, GameId first);
struct MaterialKey {
  bool postings = false;  // else a dictionary entry
  Variant variant;
  std::uint64_t material = 0;
  GameId first = 0;  // postings only
  bool ordered = false;  // keyed in search order (kinds 3 and 5)
};
std::optional<MaterialKey> parse_material_key(std::string_view key);
// Present (kind 2, empty value) once the index holds every game: written at
// creation and by `db upgrade`, absent in a database older than the index.
Key<1> material_complete_key();
// The dictionary again (kind 3), each balance's counts in search order
// (material_search_order): the rare men first, so that a search by counts
// seeks over the balances it cannot match. Complete when kind 4 is present
// (written at creation and by `db upgrade`).
Key<10> material_ordered_key(Variant v, std::uint64_t material);
Key<2> material_ordered_prefix(Variant v);
Key<1> material_ordered_complete_key();
// A balance's 16 counts (4 bits each), most significant first: White's and
// Black's viceroys, ministers, queens, rooks, bishops, knights, pawns, kings.
std::uint64_t material_search_order(std::uint64_t material);
std::uint64_t material_from_search_order(std::uint64_t ordered);

// --- openings ---------------------------------------------------------------
// A game's opening (kind 0), the positions an ECO file names (kind 1) and the
// file they come from (kind 2), written by `db classify`.
Key<5> opening_game_key(GameId id);
Key<1> opening_game_prefix();
Key<10> opening_book_key(Variant v, std::uint64_t hash);
Key<1> opening_book_prefix();
Key<1> opening_source_key();

// --- squares ------------------------------------------------------------------
// The square index (`virrey db squares`, square_index.hpp): blocks of games
// per variant, one value per square of the board and one (square
// kSquareBlockGames) listing the block's games.
constexpr std::uint8_t kSquareBlockGames = 0xff;
Key<7> square_block_key(Variant v, std::uint8_t square, GameId first);
Key<3> square_block_prefix(Variant v, std::uint8_t square);
Key<1> square_blocks_prefix();
Key<1> square_covered_key();

// --- meta -------------------------------------------------------------------
enum class MetaKey : std::uint8_t {
  SchemaVersion = 1,  // -> u32
  HashTableId = 2,    // -> u32 (zobrist::kHashTableId)
  NextGameId = 3,     // -> u32
  TreePlies = 4,      // -> u32
  Games = 5,          // | variant (1) -> u64 games stored
  Positions = 6,      // | variant (1) -> u64 positions indexed
  Input = 7,          // | fingerprint (16) -> InputRecord (database.hpp)
  Analysis = 8,  // | variant (1) | position hash (8) | engine and limits hash (8) -> analysis (analyse layer)
  SummaryFormat = 9,     // -> u32: 2 when every game summary records its mate and time class
  IdentityFormat = 10,   // -> u32: 2 when the identities follow the roster rule (game/identity.hpp)
  TagFolding = 11,       // -> u32: kFoldedTags when every tag key is lower-cased as normalize_tag_value does
  OpeningsPending = 12,  // -> u32: the first game `import --openings` stored and has not classified yet
};
// MetaKey::TagFolding's value in a database whose tag keys fold every capital.
constexpr std::uint32_t kFoldedTags = 2;
Key<1> meta_key(MetaKey k);
Key<2> meta_key(MetaKey k, Variant v);

}  // namespace virrey::store
