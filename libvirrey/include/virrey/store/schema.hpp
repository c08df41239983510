// The shape of a virrey database: its schema version, the column families
// (declared once, here) and the small vocabulary of stored things. Every key
// layout is in keys.hpp, every value layout next to its codec.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace virrey::store {

// Bumped whenever a key or value layout changes; a database with a higher
// version is refused (ErrorKind::NewerSchema), one with a lower version too
// (ErrorKind::OlderSchema) until `virrey db upgrade` rebuilds it.
//   1  positions: one key per (variant, hash, game); tree of 50 plies
//   2  positions: postings per hash bucket and import segment; tree of 12 plies
//   3  tree: keys with 7 bytes of the hash; one-game and packed-date values
constexpr std::uint32_t kSchemaVersion = 3;

// Game ids are assigned 1, 2, 3... in import order and never reused.
using GameId = std::uint32_t;
// The highest game id, and so the most games one database holds
// (4,294,967,294): an import or merge that would need more is refused.
constexpr GameId kMaxGameId = 0xfffffffeu;

// The opening tree counts the moves played from the first kTreePlies
// positions of every game (plies 0 .. kTreePlies-1); deeper positions are
// found through the position index and the games replayed. Most positions
// past the first moves occur in one game only, and a counter for each would
// triple the database. Stored in meta too (DatabaseInfo::tree_plies), so
// readers use the database's value.
constexpr std::uint32_t kTreePlies = 12;

enum class Family : std::uint8_t {
  Meta,        // schema version, hash table id, counters, imported inputs
  Games,       // game id -> game record (game_codec.hpp)
  Summaries,   // game id -> fixed-width game summary (game_summary.hpp)
  Positions,   // variant|hash bucket|first game id -> postings: every main-line position
  Tree,        // variant|hash|move -> TreeCounters, summed by merge operator
  Tags,        // field|normalised value|0|game id -> nothing
  Promotions,  // variant|piece|colour|file|game id|ply -> promotion flags
  Identities,  // variant|identity hash|game id -> nothing: duplicate detection
  Material,    // kind|variant|balance in search order|first game of a span -> runs of games (keys.hpp)
  Openings,    // game id -> its opening; variant|hash -> the ECO file's name (keys.hpp)
  Squares,     // variant|square|first game id -> when the square's content changes (`db squares`)
};
constexpr int kFamilyCount = 11;

// Families newer than schema 3: a database written before them opens without
// them (readers see the family as absent; a writer creates it empty).
constexpr bool added_after_schema_3(Family f) {
  return f == Family::Material || f == Family::Openings || f == Family::Squares;
}

struct FamilyInfo {
  Family family;
  std::string_view name;  // the RocksDB column family name (frozen)
  std::string_view what;  // for `virrey db info`
};

constexpr std::array<FamilyInfo, kFamilyCount> kFamilies{{
    {Family::Meta, "meta", "schema, counters, imported inputs"},
    {Family::Games, "games", "game records"},
    {Family::Summaries, "summaries", "game summaries"},
    {Family::Positions, "positions", "position index"},
    {Family::Tree, "tree", "opening tree"},
    {Family::Tags, "tags", "tag index"},
    {Family::Promotions, "promotions", "promotion index"},
    {Family::Identities, "identities", "duplicate detection"},
    {Family::Material, "material", "material index"},
    {Family::Openings, "openings", "opening classification"},
    {Family::Squares, "squares", "square index"},
}};

constexpr const FamilyInfo& family_info(Family f) { return kFamilies[std::size_t(f)]; }

// Tags with an index. The numbers are part of the key layout (frozen).
enum class TagField : std::uint8_t {
  White = 1,
  Black = 2,
  Event = 3,
  Site = 4,
  Round = 5,
  Date = 6,    // "yyyy.mm.dd" as written ('?' sorts after digits)
  Result = 7,  // "1-0", "0-1", "1/2-1/2", "*": the game's termination marker
  Eco = 8,
  Variant = 9,  // every game: "standard", "virrey", ... (the variant's cli name)
};
constexpr std::array<TagField, 9> kTagFields{TagField::White,  TagField::Black, TagField::Event,
                                             TagField::Site,   TagField::Round, TagField::Date,
                                             TagField::Result, TagField::Eco,   TagField::Variant};

// The PGN tag name of an indexed field ("White", ..., "Variant").
std::string_view tag_field_name(TagField f);
}  // namespace virrey::store
