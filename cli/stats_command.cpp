#include "stats_command.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "exit_codes.hpp"
#include "stats_partial.hpp"
#include "stats_writers.hpp"
#include "virrey/query/stats_games.hpp"
#include "virrey/query/stats_openings.hpp"
#include "virrey/query/stats_promotions.hpp"
#include "virrey/query/stats_results.hpp"
#include "virrey/store/database.hpp"

namespace virrey::cli {

namespace {

// Bad input (FEN, SAN, an option's value) is a usage error; anything else
// the database's.
int fail(const Error& e) {
  spdlog::error("{}", e.message);
  return e.kind == ErrorKind::InvalidArgument ? kExitUsage : kExitIo;
}

// The database, the filter and its games: what every statistic starts from.
struct Inputs {
  std::unique_ptr<store::Database> db;
  query::GameFilter filter;
  std::optional<query::GameScope> scope;
};

int open_inputs(const StatsCommonOptions& o, Inputs& in) {
  auto filter = build_filter(o.filter);
  if (!filter) return fail(filter.error());
  in.filter = std::move(*filter);
  const std::string path = store::default_database_path(o.db);
  auto db = store::Database::open(path, {store::OpenMode::Read});
  if (!db) {
    spdlog::error("{}", db.error().message);
    return kExitIo;
  }
  in.db = std::move(*db);
  note_material_scan(in.filter, *in.db);
  auto scope = query::GameScope::from_filter(*in.db, in.filter);
  if (!scope) return fail(scope.error());
  in.scope = std::move(*scope);
  return kExitOk;
}

// The game ids a partial result's database uses (its next id - 1).
store::GameId id_span(const store::Database& db) {
  auto info = db.info();
  return info ? info->next_game_id - 1 : 0;
}

int print(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    spdlog::error("cannot write the output");
    return kExitIo;
  }
  return kExitOk;
}

}  // namespace

int run_stats_openings(const StatsOpeningsOptions& o) {
  if (!o.filter.fen.empty() || !o.filter.moves.empty()) {
    spdlog::error("stats openings: --fen and --moves name the position to explore, not a filter");
    return kExitUsage;
  }
  if (o.depth < 1 || o.depth > 20) {
    spdlog::error("--depth {} is out of range (1 to 20)", o.depth);
    return kExitUsage;
  }
  if (o.min_games < 1 || o.top < 0) {
    spdlog::error("--min-games must be at least 1 and --top at least 0");
    return kExitUsage;
  }
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;

  query::OpeningQuery q;
  if (in.filter.tags.variant) {
    q.variant = *in.filter.tags.variant;
  } else {
    // The variant of most games in the database.
    const auto counts = in.db->counts();
    for (std::size_t v = 0; v < counts.size(); ++v)
      if (counts[v].games > counts[std::size_t(q.variant)].games) q.variant = Variant(v);
  }
  q.fen = o.fen;
  q.moves = o.moves;
  q.depth = o.depth;
  q.min_games = std::uint64_t(o.min_games);
  q.max_moves = std::size_t(o.top);
  const bool partial = o.format == Format::Partial;
  if (partial) {
    // Every move: which are shown is known once the shards are merged.
    q.min_games = 1;
    q.max_moves = 0;
  }
  auto stats = query::opening_stats(*in.db, q, *in.scope);
  if (!stats) return fail(stats.error());
  if (partial) return print(partial_openings(*stats, o, id_span(*in.db)));
  return print(write_openings(*stats, o.format));
}

int run_stats_results(const StatsResultsOptions& o) {
  query::ResultQuery q;
  auto by = query::parse_grouping(o.by);
  if (!by) {
    spdlog::error("unknown grouping '{}' (variant, year, event, player, eco or opening)", o.by);
    return kExitUsage;
  }
  q.by = *by;
  if (o.sort == "games")
    q.order = query::GroupOrder::Games;
  else if (o.sort == "key")
    q.order = query::GroupOrder::Key;
  else if (o.sort != "natural") {
    spdlog::error("unknown order '{}' (natural, games or key)", o.sort);
    return kExitUsage;
  }
  if (o.limit < 0) {
    spdlog::error("--limit must be at least 0");
    return kExitUsage;
  }
  q.limit = std::size_t(o.limit);
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;
  if (o.format == Format::Partial) {
    auto partial = query::result_partial(*in.db, *in.scope, q.by);
    if (!partial) return fail(partial.error());
    return print(partial_results(*partial, o, id_span(*in.db)));
  }
  auto stats = query::result_stats(*in.db, *in.scope, q);
  if (!stats) return fail(stats.error());
  return print(write_results(*stats, o.format));
}

int run_stats_promotions(const StatsPromotionsOptions& o) {
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;
  auto stats = query::promotion_stats(*in.db, *in.scope);
  if (!stats) return fail(stats.error());
  if (o.format == Format::Partial) return print(partial_promotions(*stats, o, id_span(*in.db)));
  return print(write_promotions(*stats, o.format));
}

int run_stats_games(const StatsGamesOptions& o) {
  if (o.bin < 0 || o.bin > 10000) {
    spdlog::error("--bin {} is out of range (0 to 10000)", o.bin);
    return kExitUsage;
  }
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;
  auto stats = query::game_stats(*in.db, *in.scope);
  if (!stats) return fail(stats.error());
  if (o.format == Format::Partial) return print(partial_games(*stats, o, id_span(*in.db)));
  const std::uint32_t width = query::histogram_width(stats->total.lengths, std::uint32_t(o.bin), 30);
  return print(write_games(*stats, width, o.format));
}

}  // namespace virrey::cli
