// `db check`: every game record is decoded and re-indexed; what the indexes
// must hold is summed into order-independent digests per family and compared
// with a scan of each family. Entries of games that do not exist are named
// one by one; when a digest differs, a second pass looks every expected entry
// up to name what is missing or different.
#include "virrey/store/consistency.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <set>

#include "identities.hpp"
#include "material_postings.hpp"
#include "position_postings.hpp"
#include "rocks.hpp"
#include "virrey/game/identity.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/square_index.hpp"

namespace virrey::store {

namespace {

constexpr std::size_t kMaxProblems = 100;

std::uint64_t hash_bytes(std::string_view a, std::string_view b = {}) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::string_view s : {a, b})
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

// Sum of entry hashes and entry count: equal multisets give equal digests.
struct Digest {
  std::uint64_t sum = 0, count = 0;
  void add(std::string_view key, std::string_view value) {
    sum += hash_bytes(key, value);
    ++count;
  }
  bool operator==(const Digest&) const = default;
};

// Tree digest: linear in the counters (so per-game contributions and stored
// sums agree), last dates aside.
struct TreeDigest {
  std::array<std::uint64_t, 8> sums{};
  void add(std::string_view key, const TreeCounters& c) {
    const std::uint64_t h = hash_bytes(key);
    const std::uint64_t f[8] = {c.games,         c.white_wins,      c.draws,         c.black_wins,
                                c.white_elo_sum, c.white_elo_games, c.black_elo_sum, c.black_elo_games};
    for (int i = 0; i < 8; ++i) sums[std::size_t(i)] += h * f[i];
  }
  bool operator==(const TreeDigest&) const = default;
};

// One index entry a game implies.
struct Entry {
  Family family;
  std::string key, value;
};

// What a position posting holds for sure, whatever its fingerprint's width:
// variant, the hash's top bits (bucket and shortest fingerprint) and game.
std::string posting_digest_key(Variant v, std::uint64_t top_bits, GameId id) {
  constexpr int kTopBits = kPositionBucketBits + kMinFingerprintBits;
  std::string key(8, '\0');
  key[0] = char(v);
  put_be(key.data() + 1, top_bits & ((std::uint64_t(1) << kTopBits) - 1), 3);
  put_be(key.data() + 4, id, 4);
  return key;
}

std::string posting_digest_key_of_hash(Variant v, std::uint64_t hash, GameId id) {
  return posting_digest_key(v, hash >> (64 - kPositionBucketBits - kMinFingerprintBits), id);
}

// A material index posting as the digests see it: variant, balance, game;
// the plies where it holds.
Entry material_digest_entry(Variant v, std::uint64_t material, const MaterialHit& hit) {
  Entry e{Family::Material, std::string(view(material_postings_key(v, material, hit.game))), {}};
  append_material_posting(e.value, hit.game, hit);
  return e;
}

// A summary as the digests see it: without the men at the end, the mate
// and the time class, which summaries written before they were recorded
// lack (each checked on its own).
std::string summary_digest_value(std::string value) {
  auto s = decode_summary(value);
  if (!s) return value;
  s->final_men = 0;
  s->features = false;
  return encode_summary(*s);
}

// A game's index as this database keeps it: a database written before the
// roster rule or before tags were read as UTF-8 (and not written since) has
// identities of that rule (identities.hpp).
Result<GameIndex> index_as_stored(const Database::Impl& d, const game::GameRecord& rec) {
  auto ix = index_game(rec);
  if (ix && d.identity_format < kIdentityFormat)
    ix->identity = game::game_identity(rec, identity_rule_of_format(d.identity_format));
  return ix;
}

std::vector<Entry> entries_of(GameId id, const GameIndex& ix) {
  std::vector<Entry> out;
  const Variant v = ix.variant;
  out.push_back(
      {Family::Summaries, std::string(view(game_key(id))), summary_digest_value(encode_summary(ix.summary))});
  for (const PositionEntry& p : ix.positions)
    out.push_back({Family::Positions, posting_digest_key_of_hash(v, p.hash, id), {}});
  for (const TagEntry& t : ix.tags) out.push_back({Family::Tags, tag_key(t.field, t.value, id), {}});
  for (const PromotionEntry& p : ix.promotions)
    out.push_back({Family::Promotions,
                   std::string(view(promotion_key(v, p.piece, p.colour, p.file, id, p.ply))),
                   std::string(1, char(p.flags))});
  out.push_back({Family::Identities, std::string(view(identity_key(v, ix.identity, id))), {}});
  for (const MaterialEntry& m : ix.materials)
    out.push_back(material_digest_entry(v, m.material.key(), {id, m.first_ply, m.plies}));
  return out;
}

// The game id inside a key of a family that has one.
GameId game_of(Family f, std::string_view key) {
  switch (f) {
    case Family::Games:
    case Family::Summaries: return game_key_id(key);
    case Family::Identities: return key.size() == 13 ? GameId(get_be(key.data() + 9, 4)) : 0;
    case Family::Tags: {
      auto k = parse_tag_key(key);
      return k ? k->game : 0;
    }
    case Family::Promotions: {
      auto k = parse_promotion_key(key);
      return k ? k->game : 0;
    }
    default: return 0;
  }
}

// A game's changes square by square, as one number (0: not in the index).
std::uint64_t squares_digest(Variant v, const std::vector<std::vector<SquareChange>>& changes,
                             std::uint32_t plies, Color first) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint64_t x) { h = (h ^ x) * 0x100000001b3ull; };
  mix(std::uint64_t(v) << 40 | std::uint64_t(plies) << 1 | (first == Color::Black ? 1 : 0));
  for (std::size_t s = 0; s < changes.size(); ++s)
    for (const SquareChange& c : changes[s])
      mix(std::uint64_t(s) << 48 | std::uint64_t(c.ply) << 8 | std::uint64_t(index(c.content.color)) << 4 |
          std::uint64_t(index(c.content.type)));
  return h | 1;
}

}  // namespace

Result<CheckReport> check_database(const Database& db, const std::function<void(std::uint64_t)>& progress) {
  const Database::Impl& d = db.impl();
  CheckReport report;
  auto problem = [&](std::string msg) {
    if (report.problems.size() < kMaxProblems) report.problems.push_back(std::move(msg));
    ++report.problem_count;
  };

  // Pass 1: what the game records imply.
  std::vector<Family> indexed = {Family::Summaries, Family::Positions, Family::Tags, Family::Promotions,
                                  Family::Identities};
  // The material index, when the database has one (`db upgrade` builds it).
  if (db.has_material_index()) indexed.push_back(Family::Material);
  std::set<std::pair<Variant, std::uint64_t>> balances_expected, balances_stored, balances_ordered;
  std::array<Digest, kFamilyCount> expected{}, stored{};
  TreeDigest tree_expected, tree_stored;
  std::array<VariantCounts, kVariantCount> counts{};
  // Per game id, the men its record ends with; 0: no such game (every game
  // ends with its kings on the board).
  std::vector<std::uint8_t> final_men;
  // Per game id, the mate and time class its record gives.
  std::vector<std::pair<std::uint8_t, game::TimeClass>> features;
  GameId max_id = 0;
  // The square index (`db squares`), when present: per game id, its changes' digest.
  auto squares = square_index_state(db);
  if (!squares) return squares.error();
  std::vector<std::uint64_t> squares_expected;
  Status s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
    const GameId id = game_key_id(key);
    auto rec = decode_game(value, kDecodeAll);
    auto ix = rec ? index_as_stored(d, *rec) : Result<GameIndex>(rec.error());
    if (!ix) {
      problem(fmt::format("game {}: {}", id, ix.error().message));
      return true;
    }
    if (final_men.size() <= id) final_men.resize(std::size_t(id) * 2 + 1);
    final_men[id] = ix->summary.final_men;
    if (features.size() <= id) features.resize(std::size_t(id) * 2 + 1);
    features[id] = {ix->summary.mate_by, ix->summary.time_class};
    max_id = std::max(max_id, id);
    if (squares->present && id <= squares->covered) {
      if (squares_expected.size() <= id) squares_expected.resize(std::size_t(id) * 2 + 1);
      if (auto c = square_changes(*rec))
        squares_expected[id] =
            squares_digest(rec->variant, c->changes, std::uint32_t(rec->main_line.size()), c->first_to_move);
    }
    ++report.games;
    counts[std::size_t(ix->variant)].games++;
    counts[std::size_t(ix->variant)].positions += ix->positions.size();
    for (const Entry& e : entries_of(id, *ix)) expected[std::size_t(e.family)].add(e.key, e.value);
    for (const MaterialEntry& m : ix->materials) balances_expected.emplace(ix->variant, m.material.key());
    for (const TreeEntry& t : ix->tree)
      tree_expected.add(view(tree_key(ix->variant, t.hash, t.move)), ix->counters);
    if (progress && report.games % 4096 == 0) progress(report.games);
    return true;
  });
  if (!s) return s.error();

  // Pass 2: what the indexes hold; entries of missing games are named.
  auto check_game = [&](Family f, GameId id) {
    if (id >= final_men.size() || final_men[id] == 0)
      problem(fmt::format("{}: an entry of game {}, which is not stored", family_info(f).name, id));
  };
  for (Family f : indexed) {
    s = d.scan(f, {}, [&](std::string_view key, std::string_view value) {
      // (The material index is verified but not counted: the count reads as before it.)
      if (f != Family::Material) ++report.entries;
      if (f == Family::Summaries) {
        stored[std::size_t(f)].add(key, summary_digest_value(std::string(value)));
        const GameId id = game_of(f, key);
        check_game(f, id);
        const auto men = decode_summary(value);
        if (men && men->final_men != 0 && id < final_men.size() && final_men[id] != 0 &&
            men->final_men != final_men[id])
          problem(fmt::format("summaries: game {} ends with {} men, its summary says {}", id, final_men[id],
                              men->final_men));
        if (men && men->features && id < features.size() && final_men[id] != 0 &&
            std::pair(men->mate_by, men->time_class) != features[id])
          problem(fmt::format("summaries: game {}: its summary's mate or time class differs from its record",
                              id));
        return true;
      }
      if (f == Family::Material) {
        if (key == view(material_complete_key()) || key == view(material_ordered_complete_key())) return true;
        auto k = parse_material_key(key);
        if (k && !k->postings) {
          (k->ordered ? balances_ordered : balances_stored).emplace(k->variant, k->material);
          return true;
        }
        if (k && k->ordered) {  // kind 5: its keys list the balances (keys.hpp)
          balances_stored.emplace(k->variant, k->material);
          balances_ordered.emplace(k->variant, k->material);
        }
        const bool ok = k && decode_material_postings(
                                 value, k->first,
                                 [&](const MaterialHit& h) {
                                   const Entry e = material_digest_entry(k->variant, k->material, h);
                                   stored[std::size_t(f)].add(e.key, e.value);
                                   check_game(f, h.game);
                                   return true;
                                 },
                                 nullptr, k->ordered);
        if (!ok) problem("material: an entry that does not decode");
        return true;
      }
      if (f != Family::Positions) {
        // Tag keys written before letters beyond Latin-1 were lower-cased
        // are compared lower-cased, as the records' entries are now.
        std::string refolded;
        if (f == Family::Tags && !d.tags_folded)
          if (auto k = parse_tag_key(key))
            refolded = tag_key(k->field, normalize_tag_value(k->value), k->game);
        stored[std::size_t(f)].add(refolded.empty() ? key : std::string_view(refolded), value);
        check_game(f, game_of(f, key));
        return true;
      }
      auto k = parse_position_key(key);
      const bool ok = k && decode_postings(value, k->first, [&](const DecodedPosting& p) {
                        const std::uint64_t top = std::uint64_t(k->bucket) << kMinFingerprintBits |
                                                  p.fingerprint >> (p.bits - kMinFingerprintBits);
                        stored[std::size_t(f)].add(posting_digest_key(k->variant, top, p.game), {});
                        check_game(f, p.game);
                        return true;
                      });
      if (!ok) problem("positions: an entry that does not decode");
      return true;
    });
    if (!s) return s.error();
  }
  s = d.scan(Family::Tree, {}, [&](std::string_view key, std::string_view value) {
    auto c = decode_tree_counters(value);
    ++report.entries;
    if (!c)
      problem("tree: an entry that does not decode");
    else
      tree_stored.add(key, *c);
    return true;
  });
  if (!s) return s.error();
  if (!(tree_expected == tree_stored))
    problem("tree: the counters differ from the sum over the stored games");

  // An opening classification begun and not finished (an import naming
  // openings, or `db classify`, stopped part way): games named from two
  // books, or some not named.
  {
    const auto pending = db.openings_pending();
    if (!pending) return pending.error();
    if (*pending)
      problem(
          fmt::format("openings: the classification of the games from {} on was stopped part way: run the "
                      "import or `virrey db classify` again",
                      **pending));
  }
  // Openings (`db classify`): each of a stored game, every value decodes.
  if (d.cf(Family::Openings)) {
    s = d.scan(Family::Openings, {}, [&](std::string_view key, std::string_view value) {
      if (key == view(opening_source_key())) return true;
      if (!decode_opening(value)) problem("openings: an entry that does not decode");
      if (key.size() == 5 && key[0] == 0)
        check_game(Family::Openings, GameId(get_be(key.data() + 1, 4)));
      else if (key.size() != 10 || key[0] != 1)
        problem("openings: a key of an unknown kind");
      return true;
    });
    if (!s) return s.error();
  }

  // The square index: each game it covers there once, as its record replays.
  if (squares->present) {
    std::vector<bool> seen(squares_expected.size(), false);
    for (const VariantInfo& vi : kVariants) {
      std::vector<int> all(std::size_t(vi.width * vi.height));
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = int(i);
      s = for_each_square_game(db, vi.variant, all, [&](const SquareGame& g) {
        ++report.entries;
        const GameId id = g.header.id;
        if (id > squares->covered) problem(fmt::format("squares: game {} is past the index's end", id));
        if (id >= squares_expected.size() || squares_expected[id] == 0 || seen[id]) {
          problem(fmt::format("squares: an entry of game {}, which is not stored (or not of {}, or twice)",
                              id, vi.cli_name));
          return report.problems.size() < kMaxProblems;
        }
        seen[id] = true;
        std::vector<std::vector<SquareChange>> changes(g.squares());
        for (std::size_t i = 0; i < changes.size(); ++i) changes[i] = g.changes(i);
        if (squares_digest(vi.variant, changes, g.header.plies, g.header.first_to_move) !=
            squares_expected[id])
          problem(fmt::format("squares: game {} differs from its record", id));
        return report.problems.size() < kMaxProblems;
      });
      if (!s) {
        problem(s.error().message);
        break;
      }
    }
    for (std::size_t id = 0; id < squares_expected.size(); ++id)
      if (squares_expected[id] != 0 && !seen[id]) problem(fmt::format("squares: game {} is missing", id));
  }

  if (db.has_material_index() && balances_expected != balances_stored)
    problem(fmt::format("material: {} balances listed, {} reached by the stored games", balances_stored.size(),
                        balances_expected.size()));
  if (db.has_material_order() && balances_ordered != balances_stored)
    problem(fmt::format("material: {} balances listed in search order, {} in the dictionary",
                        balances_ordered.size(), balances_stored.size()));

  // Pass 3, only when a family differs: look every expected entry up.
  std::vector<Family> differing;
  for (Family f : indexed)
    if (!(expected[std::size_t(f)] == stored[std::size_t(f)])) {
      differing.push_back(f);
      problem(fmt::format("{}: {} entries stored, {} expected from the game records", family_info(f).name,
                          stored[std::size_t(f)].count, expected[std::size_t(f)].count));
    }
  if (!differing.empty()) {
    s = d.scan(Family::Games, {}, [&](std::string_view key, std::string_view value) {
      const GameId id = game_key_id(key);
      auto rec = decode_game(value, kDecodeTags | kDecodeMainLine);
      if (!rec) return true;
      auto ix = index_as_stored(d, *rec);
      if (!ix) return true;
      if (std::find(differing.begin(), differing.end(), Family::Positions) != differing.end())
        for (const PositionEntry& p : ix->positions) {
          bool found = false;
          Status st = db.for_each_position(ix->variant, p.hash, [&](const PositionHit& h) {
            found = h.game == id;
            return h.game < id;
          });
          if (st && !found) problem(fmt::format("positions: an entry of game {} is missing", id));
        }
      for (const Entry& e : entries_of(id, *ix)) {
        if (e.family == Family::Positions || e.family == Family::Material) continue;
        if (std::find(differing.begin(), differing.end(), e.family) == differing.end()) continue;
        std::string value_found;
        bool found = false;
        if (!d.get(e.family, e.key, value_found, found)) continue;
        if (!found)
          problem(fmt::format("{}: an entry of game {} is missing", family_info(e.family).name, id));
        else if ((e.family == Family::Summaries ? summary_digest_value(value_found) : value_found) != e.value)
          problem(fmt::format("{}: an entry of game {} has a wrong value", family_info(e.family).name, id));
      }
      return report.problems.size() < kMaxProblems;
    });
    if (!s) return s.error();
  }

  // Counters in meta.
  const auto meta = db.counts();
  for (int v = 0; v < kVariantCount; ++v) {
    if (meta[std::size_t(v)].games != counts[std::size_t(v)].games)
      problem(fmt::format("meta: {} games of {} counted, {} stored", meta[std::size_t(v)].games,
                          info(Variant(v)).cli_name, counts[std::size_t(v)].games));
    if (meta[std::size_t(v)].positions != counts[std::size_t(v)].positions)
      problem(fmt::format("meta: {} {} positions counted, {} indexed", meta[std::size_t(v)].positions,
                          info(Variant(v)).cli_name, counts[std::size_t(v)].positions));
  }
  auto dbinfo = db.info();
  if (dbinfo && max_id >= dbinfo->next_game_id)
    problem(fmt::format("meta: next game id {} is not above the highest stored id {}", dbinfo->next_game_id,
                        max_id));
  return report;
}

}  // namespace virrey::store
