#include "stats_partial.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "virrey/base/log.hpp"
#include "virrey/base/small_file.hpp"
#include "virrey/base/utf8.hpp"

#include "exit_codes.hpp"
#include "stats_writers.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/query/opening_positions.hpp"

namespace virrey::cli {

namespace {

using Json = nlohmann::ordered_json;

// 2: a record count in the header; the explorer as positions.
constexpr int kPartialVersion = 2;

// Text that is not UTF-8 (a Latin-1 tag, say) is no JSON string: such a
// string is written as {"virrey_bytes": "<hex>"} and read back as its bytes,
// so that shards merge into what one database answers.
constexpr std::string_view kBytesKey = "virrey_bytes";

void strings_to_json(Json& j) {
  if (j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    if (first_invalid_utf8(text) == std::string::npos) return;
    std::string hex;
    for (unsigned char c : text) hex += fmt::format("{:02x}", c);
    j = Json{{kBytesKey, hex}};
  } else if (j.is_structured()) {
    for (auto& item : j) strings_to_json(item);
  }
}

// The other way; false when a bytes object is malformed.
bool strings_from_json(Json& j) {
  if (j.is_object() && j.size() == 1 && j.contains(kBytesKey)) {
    const Json& hex = j[std::string(kBytesKey)];
    if (!hex.is_string() || hex.get_ref<const std::string&>().size() % 2 != 0) return false;
    const auto digit = [](char c) {
      return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    std::string bytes;
    const std::string& h = hex.get_ref<const std::string&>();
    for (std::size_t i = 0; i < h.size(); i += 2) {
      const int high = digit(h[i]), low = digit(h[i + 1]);
      if (high < 0 || low < 0) return false;
      bytes += char(high * 16 + low);
    }
    j = std::move(bytes);
    return true;
  }
  if (j.is_structured())
    for (auto& item : j)
      if (!strings_from_json(item)) return false;
  return true;
}

Json filter_json(const FilterOptions& f) {
  Json j{
      {"fen", f.fen},
      {"moves", f.moves},
      {"promotion", f.promotion},
      {"by", f.by},
      {"file", f.file},
      {"min_count", f.min_count},
      {"ply", f.ply},
      {"white", f.white},
      {"black", f.black},
      {"player", f.player},
      {"event", f.event},
      {"site", f.site},
      {"round", f.round},
      {"result", f.result},
      {"date_from", f.date_from},
      {"date_to", f.date_to},
      {"eco", f.eco},
      {"variant", f.variant},
      {"material", Json::array({f.material.spec, f.material.plies.value_or(0), f.material.either_colour})}};
  // Game features, when any is given (partials without them read as before).
  const FeatureOptions& g = f.features;
  const Json features{{"ending", g.ending},
                      {"mate_by", g.mate_by},
                      {"plies", g.plies},
                      {"elo", g.elo},
                      {"elo_of", g.elo_of},
                      {"time_control", g.time_control},
                      {"termination", g.termination}};
  for (const auto& item : features.items())
    if (!item.value().get<std::string>().empty()) {
      j["features"] = features;
      break;
    }
  if (!f.opening.empty()) j["opening"] = f.opening;  // absent in partials written before it
  const PatternOptions& p = f.pattern;
  if (!p.pieces.empty() || !p.fen.empty())
    j["pattern"] = Json{{"pieces", p.pieces}, {"fen", p.fen}, {"to_move", p.to_move}, {"plies", p.plies}};
  return j;
}

Json counts_json(const query::ResultCounts& c) {
  return Json::array({c.games, c.white_wins, c.draws, c.black_wins, c.unfinished, c.plies});
}
query::ResultCounts counts_of(const Json& j) {
  query::ResultCounts c;
  c.games = j.at(0);
  c.white_wins = j.at(1);
  c.draws = j.at(2);
  c.black_wins = j.at(3);
  c.unfinished = j.at(4);
  c.plies = j.at(5);
  if (c.white_wins + c.draws + c.black_wins + c.unfinished != c.games)
    throw std::invalid_argument("results that do not add up to their games");
  return c;
}

// The largest count or sum a partial holds: JSON's exact integers (2^53),
// so that thousands of partials add up without overflow. Larger, negative
// or fractional numbers are no database's: the partial is refused.
constexpr std::uint64_t kMaxPartialNumber = std::uint64_t(1) << 53;

// Every number of a record is a count or a sum within kMaxPartialNumber,
// but for the 64-bit keys `is_key` names (by the array and the place in it).
template <class IsKey>
void check_numbers(const Json& j, IsKey&& is_key) {
  if (j.is_number()) {
    if (!j.is_number_unsigned()) throw std::invalid_argument("a number that is no count: " + j.dump());
    if (j.get<std::uint64_t>() > kMaxPartialNumber)
      throw std::invalid_argument("a count larger than any database holds: " + j.dump());
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (is_key(j, i)) {
        if (!j[i].is_number_unsigned()) throw std::invalid_argument("a key that is not one: " + j[i].dump());
        continue;
      }
      check_numbers(j[i], is_key);
    }
  } else if (j.is_object()) {
    for (const auto& item : j.items()) check_numbers(item.value(), is_key);
  }
}
void check_numbers(const Json& j) {
  check_numbers(j, [](const Json&, std::size_t) { return false; });
}

// A variant's record given once in a partial.
void once_each(std::vector<Variant>& seen, Variant v) {
  if (std::find(seen.begin(), seen.end(), v) != seen.end())
    throw std::invalid_argument(fmt::format("the records of {} twice", info(v).cli_name));
  seen.push_back(v);
}

Json tree_json(const store::TreeCounters& c) {
  return Json::array({c.games, c.white_wins, c.draws, c.black_wins, c.white_elo_sum, c.white_elo_games,
                      c.black_elo_sum, c.black_elo_games, c.last_date});
}
store::TreeCounters tree_of(const Json& j) {
  store::TreeCounters c;
  c.games = j.at(0);
  c.white_wins = j.at(1);
  c.draws = j.at(2);
  c.black_wins = j.at(3);
  c.white_elo_sum = j.at(4);
  c.white_elo_games = j.at(5);
  c.black_elo_sum = j.at(6);
  c.black_elo_games = j.at(7);
  c.last_date = j.at(8);
  if (c.white_wins + c.draws + c.black_wins > c.games || c.white_elo_games > c.games ||
      c.black_elo_games > c.games)
    throw std::invalid_argument("counters that do not add up to their games");
  // yyyymmdd, unknown parts 0 (a month past 12 or a day past 31 is no game's)
  if (c.last_date % 100 > 31 || c.last_date / 100 % 100 > 12)
    throw std::invalid_argument(fmt::format("a date that is none: {}", c.last_date));
  return c;
}

Variant variant_of(const Json& j) {
  auto v = resolve_variant(j.get<std::string>());
  if (!v) throw std::invalid_argument("unknown variant " + j.dump());
  return *v;
}

// --- the codecs ----------------------------------------------------------------
// Each: Stats (what folds), name, records (the lines after the header),
// read (records back), merge (another shard's, its ids shifted), write (the
// folded statistic in a final format, with the query of the header).

struct GamesCodec {
  using Stats = query::GameStats;
  static constexpr std::string_view name = "games";

  static std::vector<Json> records(const Stats& s) {
    std::vector<Json> out;
    for (const auto& v : s.variants) {
      Json endings = Json::array();
      for (const auto& e : v.endings) endings.push_back(Json::array({e[0], e[1], e[2], e[3]}));
      Json lengths = Json::array();
      for (std::uint32_t p = v.lengths.min(); v.lengths.games() && p <= v.lengths.max(); ++p)
        if (v.lengths.count(p)) lengths.push_back(Json::array({p, v.lengths.count(p)}));
      out.push_back(Json{{"variant", info(v.variant).cli_name},
                         {"results", counts_json(v.results)},
                         {"endings", endings},
                         {"lengths", lengths}});
    }
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats s;
    std::vector<Variant> seen;
    for (const Json& j : lines) {
      query::VariantGameStats v;
      v.variant = variant_of(j.at("variant"));
      once_each(seen, v.variant);
      v.results = counts_of(j.at("results"));
      for (std::size_t e = 0; e < v.endings.size(); ++e)
        for (std::size_t r = 0; r < 4; ++r) v.endings[e][r] = j.at("endings").at(e).at(r);
      std::uint64_t lengths = 0;
      for (const Json& l : j.at("lengths")) {
        const std::uint64_t plies = l.at(0), games = l.at(1);
        if (plies > game::kMaxMainLinePlies)
          throw std::invalid_argument(
              fmt::format("a game of {} plies (the most a game has: {})", plies, game::kMaxMainLinePlies));
        v.lengths.add(std::uint32_t(plies), games);
        lengths += games;
      }
      if (lengths != v.results.games)
        throw std::invalid_argument("game lengths that do not add up to the games");
      query::GameStats one;
      one.variants.push_back(v);
      one.total = v;
      query::merge_game_stats(s, one);
    }
    return s;
  }
  static void merge(Stats& into, const Stats& from, store::GameId) { query::merge_game_stats(into, from); }
  static std::string write(const Stats& s, const Json& q, Format f) {
    const auto width = query::histogram_width(s.total.lengths, q.at("bin").get<std::uint32_t>(), 30);
    return write_games(s, width, f);
  }
};

struct PromotionsCodec {
  using Stats = query::PromotionStats;
  static constexpr std::string_view name = "promotions";

  static std::vector<Json> records(const Stats& s) {
    std::vector<Json> out;
    for (const auto& v : s.variants) {
      Json cells = Json::array();
      for (const auto& c : v.cells)
        cells.push_back(
            Json::array({int(c.piece), int(c.colour), c.file, c.count, c.captured_later, c.gave_mate}));
      const auto& w = v.viceroy;
      out.push_back(
          Json{{"variant", info(v.variant).cli_name},
               {"games", v.games},
               {"promotions", v.promotions},
               {"games_with_promotion", v.games_with_promotion},
               {"max_in_game", v.max_in_game},
               {"cells", cells},
               {"viceroy", Json::array({w.promotions, w.games, w.max_in_game, w.max_game, w.first_ply_sum,
                                        w.captured_later, w.gave_mate, w.first_by_white, w.first_by_black,
                                        w.first_wins, w.first_draws, w.first_losses, w.first_unfinished})}});
    }
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats s;
    std::vector<Variant> seen;
    for (const Json& j : lines) {
      query::VariantPromotions v;
      v.variant = variant_of(j.at("variant"));
      once_each(seen, v.variant);
      v.games = j.at("games");
      v.promotions = j.at("promotions");
      v.games_with_promotion = j.at("games_with_promotion");
      v.max_in_game = j.at("max_in_game");
      for (const Json& c : j.at("cells")) {
        query::PromotionCell cell;
        const int piece = c.at(0), colour = c.at(1);
        if (piece < 0 || piece >= kPieceTypeCount || colour < 0 || colour > 1)
          throw std::invalid_argument("a promotion cell out of range");
        cell.piece = PieceType(piece);
        cell.colour = Color(colour);
        cell.file = c.at(2);
        if (cell.file < 0 || cell.file >= info(v.variant).width)
          throw std::invalid_argument("a promotion on a file the board does not have");
        cell.count = c.at(3);
        cell.captured_later = c.at(4);
        cell.gave_mate = c.at(5);
        v.cells.push_back(cell);
      }
      const Json& w = j.at("viceroy");
      auto& r = v.viceroy;
      std::uint64_t* fields[] = {&r.promotions,      &r.games,          &r.max_in_game, nullptr,
                                 &r.first_ply_sum,   &r.captured_later, &r.gave_mate,   &r.first_by_white,
                                 &r.first_by_black,  &r.first_wins,     &r.first_draws, &r.first_losses,
                                 &r.first_unfinished};
      for (std::size_t i = 0; i < std::size(fields); ++i)
        if (fields[i]) *fields[i] = w.at(i);
      r.max_game = w.at(3);
      if (v.games_with_promotion > v.games || r.games > v.games)
        throw std::invalid_argument("more games with a promotion than games");
      s.variants.push_back(std::move(v));
    }
    return s;
  }
  static void merge(Stats& into, const Stats& from, store::GameId shift) {
    query::merge_promotion_stats(into, from, shift);
  }
  static std::uint64_t largest_id(const Stats& s) {
    std::uint64_t most = 0;
    for (const auto& v : s.variants) most = std::max<std::uint64_t>(most, v.viceroy.max_game);
    return most;
  }
  static std::string write(const Stats& s, const Json&, Format f) { return write_promotions(s, f); }
};

struct ResultsCodec {
  using Stats = query::ResultPartial;
  static constexpr std::string_view name = "results";

  static std::vector<Json> records(const Stats& s) {
    std::vector<Json> out;
    out.push_back(Json{{"total", counts_json(s.total)}});
    for (const auto& g : s.groups) {
      const auto& p = g.player;
      out.push_back(
          Json{{"key", g.key},
               {"label", g.label},
               {"counts", counts_json(g.counts)},
               {"player", Json::array({p.as_white, p.as_black, p.wins, p.draws, p.losses, p.unfinished})},
               {"first", Json::array({g.first_pass, g.first_game})}});
    }
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats s;
    for (const Json& j : lines) {
      if (j.contains("total")) {
        s.total = counts_of(j.at("total"));
        continue;
      }
      query::ResultPartialGroup g;
      g.key = j.at("key");
      g.label = j.at("label");
      g.counts = counts_of(j.at("counts"));
      const Json& p = j.at("player");
      g.player = {p.at(0), p.at(1), p.at(2), p.at(3), p.at(4), p.at(5)};
      g.first_pass = j.at("first").at(0);
      g.first_game = j.at("first").at(1);
      s.groups.push_back(std::move(g));
    }
    std::sort(s.groups.begin(), s.groups.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    return s;
  }
  static void merge(Stats& into, const Stats& from, store::GameId shift) {
    query::merge_result_partial(into, from, shift);
  }
  static std::uint64_t largest_id(const Stats& s) {
    std::uint64_t most = 0;
    for (const auto& g : s.groups) most = std::max<std::uint64_t>(most, g.first_game);
    return most;
  }
  static std::string write(const Stats& s, const Json& q, Format f) {
    query::ResultQuery rq;
    rq.by = query::parse_grouping(q.at("by").get<std::string>()).value_or(query::ResultGrouping::None);
    const std::string sort = q.at("sort");
    rq.order = sort == "games" ? query::GroupOrder::Games
               : sort == "key" ? query::GroupOrder::Key
                               : query::GroupOrder::Natural;
    rq.limit = q.at("limit");
    Stats copy = s;
    copy.by = rq.by;
    return write_results(query::finish_results(std::move(copy), rq), f);
  }
};

// Positions, not paths: a shard's explorer as the positions it lists, each
// with its moves (query/opening_positions.hpp), so that shards merge by
// position, transpositions between them included.
struct OpeningsCodec {
  using Stats = query::OpeningPositions;
  static constexpr std::string_view name = "openings";

  static Json move_json(Move m) {
    const auto b = move_bytes(m);
    return Json::array({std::uint8_t(b[0]), std::uint8_t(b[1]), std::uint8_t(b[2])});
  }
  static Move move_of(const Json& j) {
    const char b[3] = {char(j.at(0).get<std::uint8_t>()), char(j.at(1).get<std::uint8_t>()),
                       char(j.at(2).get<std::uint8_t>())};
    return move_from_bytes(b);
  }
  static std::vector<Json> records(const Stats& p) {
    const query::OpeningStats& s = p.root;
    std::vector<Json> out;
    out.push_back(Json{{"root",
                        {{"variant", info(s.variant).cli_name},
                         {"fen", s.fen},
                         {"line", s.line},
                         {"side", s.side_to_move == Color::White ? "w" : "b"},
                         {"fullmove", s.fullmove},
                         {"depth", p.depth},
                         {"total", tree_json(s.total)},
                         {"source", query::opening_source_name(s.source)},
                         {"games_replayed", s.games_replayed}}}});
    if (!s.opening.empty()) out.back()["root"]["opening"] = s.opening;
    for (const auto& [hash, moves] : p.positions) {
      Json list = Json::array();
      for (const auto& [move, counters] : moves)
        list.push_back(Json{{"move", move_json(move)}, {"counters", tree_json(counters)}});
      out.push_back(Json{{"position", fmt::format("{:016x}", hash)}, {"moves", std::move(list)}});
    }
    // The names db classify gives positions of the tree (absent before it).
    for (const auto& [hash, name] : p.names)
      out.push_back(Json{{"named", fmt::format("{:016x}", hash)}, {"opening", name}});
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats p;
    bool root = false;
    for (const Json& j : lines) {
      if (j.contains("root")) {
        const Json& r = j.at("root");
        query::OpeningStats& s = p.root;
        s.variant = variant_of(r.at("variant"));
        s.fen = r.at("fen");
        s.line = r.at("line").get<std::vector<std::string>>();
        s.side_to_move = r.at("side") == "w" ? Color::White : Color::Black;
        s.fullmove = r.at("fullmove");
        p.depth = r.at("depth");
        s.total = tree_of(r.at("total"));
        const std::string source = r.at("source");
        s.source = source == "replay"        ? query::OpeningSource::Replay
                   : source == "tree+replay" ? query::OpeningSource::TreeAndReplay
                                             : query::OpeningSource::Tree;
        s.games_replayed = r.at("games_replayed");
        if (r.contains("opening")) s.opening = r.at("opening").get<std::string>();
        root = true;
        continue;
      }
      const bool named = j.contains("named");
      const std::string hex = j.at(named ? "named" : "position");
      std::uint64_t hash = 0;
      const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), hash, 16);
      if (hex.empty() || ec != std::errc() || end != hex.data() + hex.size())
        throw std::invalid_argument("a position that is not a hash: " + Json(hex).dump());
      if (named) {
        p.names[hash] = j.at("opening").get<std::string>();
        continue;
      }
      auto& moves = p.positions[hash];
      for (const Json& m : j.at("moves"))
        moves.emplace_back(move_of(m.at("move")), tree_of(m.at("counters")));
    }
    if (!root) throw std::invalid_argument("no root position");
    return p;
  }
  // Each partial's moves are legal where they stand (found by walking its
  // positions from the root, as a merged tree is).
  static void check(const Stats& p) {
    if (auto tree = query::opening_tree(p); !tree) throw std::invalid_argument(tree.error().message);
  }
  static void merge(Stats& into, const Stats& from, store::GameId) {
    query::merge_opening_positions(into, from);
  }
  static std::string write(const Stats& p, const Json& q, Format f) {
    auto tree = query::opening_tree(p);
    if (!tree) throw std::invalid_argument(tree.error().message);
    query::finish_openings(*tree, q.at("min_games").get<std::uint64_t>(), q.at("top").get<std::size_t>());
    return write_openings(*tree, f);
  }
};

struct EndgamesCodec {
  using Stats = query::EndgameStats;
  static constexpr std::string_view name = "endgames";
  // A row's first number is its balance, a 64-bit key (check_numbers).
  static bool is_key(const Json& array, std::size_t i) {
    return i == 0 && array.size() == 2 && array[0].is_number() && array[1].is_array();
  }

  static std::vector<Json> records(const Stats& s) {
    std::vector<Json> out;
    for (const auto& v : s.variants) {
      Json rows = Json::array();
      for (const auto& r : v.rows) rows.push_back(Json::array({r.material.key(), counts_json(r.results)}));
      out.push_back(Json{
          {"variant", info(v.variant).cli_name}, {"games", v.games}, {"reached", v.reached}, {"rows", rows}});
    }
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats s;
    std::vector<Variant> seen;
    for (const Json& j : lines) {
      query::VariantEndgames v;
      v.variant = variant_of(j.at("variant"));
      once_each(seen, v.variant);
      v.games = j.at("games");
      v.reached = j.at("reached");
      if (v.reached > v.games) throw std::invalid_argument("more games reaching an ending than games");
      for (const Json& r : j.at("rows")) {
        query::EndgameRow row;
        row.material = Material(r.at(0).get<std::uint64_t>());
        row.results = counts_of(r.at(1));
        const auto& c = row.results;
        if (c.white_wins + c.draws + c.black_wins + c.unfinished != c.games)
          throw std::invalid_argument("a balance whose results do not add up to its games");
        v.rows.push_back(row);
      }
      query::EndgameStats one;
      one.variants.push_back(std::move(v));
      query::merge_endgame_stats(s, one);
    }
    return s;
  }
  static void merge(Stats& into, const Stats& from, store::GameId) { query::merge_endgame_stats(into, from); }
  static std::string write(const Stats& s, const Json& q, Format f) {
    Stats copy = s;
    copy.men = q.at("men");
    return write_endgames(copy, f);
  }
};

// Players: a record per player with their exact counts and sums (the
// accuracy in millionths of a percent), added up by name.
struct PlayersStats {
  analyse::PlayerTable table;
  // Whether a database of these holds engine analysis. A partial of a
  // database without any says so in a record {"analysed":false} (partials
  // without that record are of databases with analysis).
  bool analysed = true;
};

struct PlayersCodec {
  using Stats = PlayersStats;
  static constexpr std::string_view name = "players";

  static std::vector<Json> records(const Stats& stats) {
    const analyse::PlayerTable& s = stats.table;
    std::vector<Json> out;
    if (!stats.analysed) out.push_back(Json{{"analysed", false}});
    for (const auto& p : s.by_games()) {
      const auto& m = p.moves;
      out.push_back(Json{{"player", p.name},
                         {"counts", Json::array({p.games, m.moves, m.unjudged, m.cp_loss, m.accuracy_sum,
                                                 m.inaccuracies, m.mistakes, m.blunders})}});
    }
    return out;
  }
  static Stats read(const std::vector<Json>& lines) {
    Stats stats;
    analyse::PlayerTable& s = stats.table;
    for (const Json& j : lines) {
      if (j.contains("analysed")) {
        stats.analysed = j.at("analysed").get<bool>();
        continue;
      }
      analyse::PlayerSummary p;
      p.name = j.at("player");
      const Json& c = j.at("counts");
      if (c.size() != 8) throw std::invalid_argument("a player's counts are 8 numbers");
      p.games = c.at(0);
      std::uint64_t* fields[] = {&p.moves.moves,        &p.moves.unjudged,     &p.moves.cp_loss,
                                 &p.moves.accuracy_sum, &p.moves.inaccuracies, &p.moves.mistakes,
                                 &p.moves.blunders};
      for (std::size_t i = 0; i < std::size(fields); ++i) *fields[i] = c.at(i + 1);
      s.add(p);
    }
    return stats;
  }
  static void merge(Stats& into, const Stats& from, store::GameId) {
    for (const auto& p : from.table.players()) into.table.add(p);
    into.analysed = into.analysed || from.analysed;
  }
  static std::string write(const Stats& s, const Json&, Format f) {
    return write_players(s.table.by_games(), f);
  }
  // As `stats players` on one database: no analysis in any shard, or moves
  // to judge and none judged (the caches hold no evaluation by this engine
  // at these limits), is no result.
  static std::optional<std::string> no_result(const Stats& s) {
    if (!s.analysed)
      return "none of the shards holds engine analysis: `virrey analyse --db SHARD` fills a shard's cache";
    analyse::SideSummary all;
    for (const auto& p : s.table.players()) all.add(p.moves);
    if (all.moves == 0 && all.unjudged > 0)
      return "no move of these games was judged: the shards' caches hold no evaluation of their positions by "
             "this engine at these limits (those of the `virrey analyse` runs)";
    return std::nullopt;
  }
};

// Every statistic with partial results: a new one adds its codec here.
using Codecs =
    std::tuple<GamesCodec, PromotionsCodec, ResultsCodec, OpeningsCodec, EndgamesCodec, PlayersCodec>;

// The header: what the partial is of, and how many records follow (a file
// cut short is refused, not merged as fewer games).
std::string header(std::string_view statistic, Json query, store::GameId id_span, std::size_t records) {
  strings_to_json(query);
  return Json{{"virrey_partial", kPartialVersion},
              {"statistic", statistic},
              {"query", query},
              {"id_span", id_span},
              {"records", records}}
      .dump();
}

template <class Codec>
std::string partial_of(const typename Codec::Stats& s, const Json& query, store::GameId id_span) {
  std::vector<Json> records = Codec::records(s);
  std::string out = header(Codec::name, query, id_span, records.size()) + "\n";
  for (Json& r : records) {
    strings_to_json(r);
    out += r.dump() + "\n";
  }
  return out;
}

struct Partial {
  std::string name;  // file, for messages
  Json head;
  std::vector<Json> records;
  std::vector<std::size_t> lines;  // of the records
};

// A codec's records read back, their numbers checked first (the 64-bit keys
// a codec names by is_key aside), and their game ids within the partial's
// span. A record's error is located by its line, the others by the file.
template <class Codec>
Result<typename Codec::Stats> read_records(const Partial& p) {
  const auto refused = [&](std::string_view where, std::string_view why) {
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("{}: not a partial result of stats {}: {}", where, Codec::name, why)};
  };
  for (std::size_t i = 0; i < p.records.size(); ++i) {
    const Json& r = p.records[i];
    try {
      if constexpr (requires { Codec::is_key(r, std::size_t(0)); })
        check_numbers(r, Codec::is_key);
      else
        check_numbers(r);
    } catch (const std::exception& e) {
      return refused(fmt::format("{}:{}", p.name, p.lines[i]), e.what());
    }
  }
  // Where a fault of the whole lies: the line of the first record that has
  // it on its own (is `faulty`, or with `unreadable`, has a field missing or
  // of another type), else the file. (A record alone may lack what only the
  // whole gives, an explorer's root: that is no fault of its own.)
  const auto locate = [&](const auto& faulty, bool unreadable) {
    for (std::size_t i = 0; i < p.records.size(); ++i) try {
        if (faulty(Codec::read(std::vector<Json>{p.records[i]})))
          return fmt::format("{}:{}", p.name, p.lines[i]);
      } catch (const nlohmann::json::exception&) {
        if (unreadable) return fmt::format("{}:{}", p.name, p.lines[i]);
      } catch (const std::exception&) {
      }
    return p.name;
  };
  try {
    typename Codec::Stats s = Codec::read(p.records);
    if constexpr (requires { Codec::check(s); }) Codec::check(s);
    if constexpr (requires { Codec::largest_id(s); }) {
      const std::uint64_t span = p.head.at("id_span").get<std::uint64_t>();
      if (const std::uint64_t id = Codec::largest_id(s); id > span)
        return refused(
            locate([&](const typename Codec::Stats& one) { return Codec::largest_id(one) > span; }, false),
            fmt::format("game {} past the {} game ids of its header", id, span));
    }
    return s;
  } catch (const nlohmann::json::exception&) {
    return refused(locate([](const typename Codec::Stats&) { return false; }, true),
                   "a record with a field missing or of another type");
  } catch (const std::exception& e) {
    return refused(p.name, e.what());
  }
}

template <class Codec>
Result<std::string> fold(const std::vector<Partial>& partials, Format format) {
  typename Codec::Stats total;
  std::uint64_t shift = 0;
  for (std::size_t i = 0; i < partials.size(); ++i) {
    const Partial& p = partials[i];
    auto read = read_records<Codec>(p);
    if (!read) return read.error();
    typename Codec::Stats one = std::move(*read);
    if (i == 0)
      total = std::move(one);
    else
      Codec::merge(total, one, store::GameId(shift));
    shift += p.head.at("id_span").get<std::uint64_t>();
  }
  const Json& query = partials.front().head.at("query");
  try {
    if (shift > store::kMaxGameId)
      return Error{ErrorKind::InvalidArgument, "the partials hold more games than one database can"};
    if (format == Format::Partial) return partial_of<Codec>(total, query, store::GameId(shift));
    if constexpr (requires { Codec::no_result(total); })
      if (auto why = Codec::no_result(total)) return Error{ErrorKind::NotFound, *why};
    return Codec::write(total, query, format);
  } catch (const nlohmann::json::exception&) {
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("{}:1: a bad query: a field missing or of another type", partials.front().name)};
  } catch (const std::exception& e) {
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("{}:1: a bad query: {}", partials.front().name, e.what())};
  }
}

template <std::size_t I = 0>
Result<std::string> fold_by_name(std::string_view name, const std::vector<Partial>& partials, Format format) {
  if constexpr (I < std::tuple_size_v<Codecs>) {
    using Codec = std::tuple_element_t<I, Codecs>;
    if (Codec::name == name) return fold<Codec>(partials, format);
    return fold_by_name<I + 1>(name, partials, format);
  } else {
    return Error{ErrorKind::InvalidArgument, fmt::format("no statistic '{}' has partial results", name)};
  }
}

// Counts a line's JSON values, stopping at the first past the limit (or at
// a syntax error): nothing is built.
class ValueCounter final : public nlohmann::json_sax<Json> {
 public:
  explicit ValueCounter(std::size_t limit) : left_(limit) {}
  bool null() override { return take(); }
  bool boolean(bool) override { return take(); }
  bool number_integer(number_integer_t) override { return take(); }
  bool number_unsigned(number_unsigned_t) override { return take(); }
  bool number_float(number_float_t, const string_t&) override { return take(); }
  bool string(string_t&) override { return take(); }
  bool binary(binary_t&) override { return take(); }
  bool start_object(std::size_t) override { return take(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return take(); }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }
  bool exceeded() const { return exceeded_; }

 private:
  bool take() {
    if (left_ == 0) return !(exceeded_ = true);
    --left_;
    return true;
  }
  std::size_t left_;
  bool exceeded_ = false;
};

// Whether `line` holds at most `limit` JSON values (up to its first syntax
// error, if it has one).
bool within_values(const std::string& line, std::size_t limit) {
  ValueCounter counter(limit);
  Json::sax_parse(line, &counter);
  return !counter.exceeded();
}

// Reads one partial: its header and records.
Result<Partial> read_partial(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    if (Status st = open_to_read(path, file); !st) return st.error();
    in = &file;
  }
  errno = 0;  // what a failed read leaves, for the message (from nothing else)
  Partial p;
  p.name = path;
  // A line longer than this is no partial's (and /dev/zero must not fill the memory).
  constexpr std::size_t kMaxLine = std::size_t(64) << 20;
  // The most JSON values (numbers, strings, arrays, objects) a line holds:
  // a partial's record holds a few hundred, a histogram's some thousands.
  constexpr std::size_t kMaxValues = std::size_t(1) << 20;
  std::string line;
  auto next_line = [&]() -> bool {
    line.clear();
    char c = 0;
    bool any = false;
    while (in->get(c)) {
      any = true;
      if (c == '\n') return true;
      line += c;
      if (line.size() > kMaxLine) return true;  // refused below
    }
    return any;
  };
  for (std::size_t n = 1; next_line(); ++n) {
    if (line.size() > kMaxLine)
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("{}:{}: a line over 64 MiB: not a partial result", path, n)};
    if (line.empty()) continue;
    // The values are counted before the line is read into objects: a line
    // of millions of tiny values would take gigabytes as JSON objects.
    if (!within_values(line, kMaxValues))
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("{}:{}: more than {} JSON values in a line: not a partial result", path, n,
                               kMaxValues)};
    Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !strings_from_json(j))
      return Error{ErrorKind::InvalidArgument, fmt::format("{}:{}: not a JSON object", path, n)};
    if (n == 1) {
      if (j.contains("virrey_partial") && j["virrey_partial"].is_number() &&
          j["virrey_partial"] != kPartialVersion)
        return Error{ErrorKind::InvalidArgument,
                     fmt::format("{}:1: a partial result of version {}, from another virrey (this one reads "
                                 "version {}): make it again with this one",
                                 path, j["virrey_partial"].dump(), kPartialVersion)};
      if (!j.contains("virrey_partial") || j["virrey_partial"] != kPartialVersion ||
          !j.contains("statistic") || !j["statistic"].is_string() || !j.contains("query") ||
          !j.contains("id_span") || !j["id_span"].is_number_unsigned() ||
          j["id_span"].get<std::uint64_t>() > store::kMaxGameId || !j.contains("records") ||
          !j["records"].is_number_unsigned())
        return Error{ErrorKind::InvalidArgument,
                     fmt::format("{}:1: not the header of a virrey partial result (version {})", path,
                                 kPartialVersion)};
      p.head = std::move(j);
    } else {
      p.records.push_back(std::move(j));
      p.lines.push_back(n);
    }
  }
  if (in->bad())
    return Error{ErrorKind::Io, fmt::format("cannot read {}{}", path,
                                            errno ? std::string(": ") + std::strerror(errno) : "")};
  if (p.head.is_null())
    return Error{ErrorKind::InvalidArgument, fmt::format("{}: empty, not a partial result", path)};
  if (const auto announced = p.head["records"].get<std::uint64_t>(); announced != p.records.size())
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("{}: cut short or grown: its header announces {} records, {} follow", path,
                             announced, p.records.size())};
  return p;
}

}  // namespace

std::string partial_games(const query::GameStats& s, const StatsGamesOptions& o, store::GameId id_span) {
  return partial_of<GamesCodec>(s, Json{{"bin", o.bin}, {"filter", filter_json(o.filter)}}, id_span);
}

std::string partial_promotions(const query::PromotionStats& s, const StatsPromotionsOptions& o,
                               store::GameId id_span) {
  return partial_of<PromotionsCodec>(s, Json{{"filter", filter_json(o.filter)}}, id_span);
}

std::string partial_results(const query::ResultPartial& s, const StatsResultsOptions& o,
                            store::GameId id_span) {
  Json q{{"by", o.by}, {"sort", o.sort}, {"limit", o.limit}, {"filter", filter_json(o.filter)}};
  // Bands of different widths do not merge.
  if (o.by == "rating-band") q["band"] = o.band != 0 ? o.band : 200;
  return partial_of<ResultsCodec>(s, q, id_span);
}

namespace {

Json openings_query(Variant v, const StatsOpeningsOptions& o) {
  return Json{{"variant", info(v).cli_name},
              {"fen", o.fen},
              {"moves", o.moves},
              {"depth", o.depth},
              {"min_games", o.min_games},
              {"top", o.top},
              {"filter", filter_json(o.filter)}};
}

}  // namespace

Result<std::string> partial_openings(const query::OpeningStats& s, const StatsOpeningsOptions& o,
                                     store::GameId id_span) {
  auto positions = query::opening_positions(s, o.depth);
  if (!positions) return positions.error();
  return partial_of<OpeningsCodec>(*positions, openings_query(s.variant, o), id_span);
}

Result<query::OpeningStats> read_openings_guide(const std::string& path, const StatsOpeningsOptions& o) {
  auto p = read_partial(path);
  if (!p) return p.error();
  auto refused = [&](const std::string& why) {
    return Error{ErrorKind::InvalidArgument, fmt::format("--expand {}: {}", path, why)};
  };
  if (p->head.at("statistic") != OpeningsCodec::name) return refused("not a partial of stats openings");
  // Which options shape the explorer is the query's: a partial of another
  // query would follow other moves (min_games and top apply only merged).
  Json mine = openings_query(*resolve_variant(o.filter.variant), o);
  Json theirs = p->head.at("query");
  for (Json* q : {&mine, &theirs}) {
    q->erase("min_games");
    q->erase("top");
  }
  if (mine != theirs) return refused("a partial of another query (variant, position, depth or filter)");
  const auto positions = read_records<OpeningsCodec>(*p);
  if (!positions) return refused(positions.error().message);
  auto tree = query::opening_tree(*positions);
  if (!tree) return refused(tree.error().message);
  return *tree;
}

std::string partial_endgames(const query::EndgameStats& s, const StatsEndgamesOptions& o,
                             store::GameId id_span) {
  return partial_of<EndgamesCodec>(s, Json{{"men", o.men}, {"filter", filter_json(o.filter)}}, id_span);
}

std::string partial_players(const analyse::PlayerTable& s, bool analysed, const StatsPlayersOptions& o,
                            store::GameId id_span) {
  const EngineOptions& e = o.engine;
  return partial_of<PlayersCodec>(PlayersStats{s, analysed},
                                  Json{{"engine", e.engine},
                                       {"protocol", e.protocol},
                                       {"nodes", e.nodes},
                                       {"depth", e.depth},
                                       {"movetime", e.movetime},
                                       {"hash", e.hash},
                                       {"engine_options", e.engine_options},
                                       {"filter", filter_json(o.filter)}},
                                  id_span);
}

int run_stats_merge(const StatsMergeOptions& o) {
  std::vector<Partial> partials;
  for (const std::string& path : o.partials) {
    auto p = read_partial(path);
    if (!p) {
      log::error("{}", p.error().message);
      return p.error().kind == ErrorKind::Io ? kExitIo : kExitUsage;
    }
    if (!partials.empty()) {
      const Partial& first = partials.front();
      if (p->head["statistic"] != first.head["statistic"] || p->head["query"] != first.head["query"]) {
        log::error("{} and {} are partial results of different statistics or queries", first.name, p->name);
        return kExitUsage;
      }
    }
    partials.push_back(std::move(*p));
  }
  auto out = fold_by_name(partials.front().head["statistic"].get<std::string>(), partials, o.format);
  if (!out) {
    log::error("{}", out.error().message);
    return out.error().kind == ErrorKind::NotFound ? kExitDataFailed : kExitUsage;
  }
  if (std::fwrite(out->data(), 1, out->size(), stdout) != out->size() || std::fflush(stdout) != 0) {
    log::error("cannot write the output");
    return kExitIo;
  }
  return kExitOk;
}

}  // namespace virrey::cli
