#include "stats_command.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <utility>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "exit_codes.hpp"
#include "stats_partial.hpp"
#include "stats_writers.hpp"
#include "virrey/query/stats_endgames.hpp"
#include "virrey/analyse/analyser.hpp"
#include "virrey/analyse/players.hpp"
#include "virrey/query/game_filter.hpp"
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
  log::error("{}", e.message);
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
    log::error("{}", db.error().message);
    return kExitIo;
  }
  in.db = std::move(*db);
  note_material_scan(in.filter, *in.db);
  note_feature_scan(in.filter, *in.db);
  note_position_variants(in.filter, *in.db);
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
  int earlier = 0;
  write_text(stdout, text, earlier);
  if (const auto why = flush_failure(stdout, earlier)) {
    log::error("cannot write the output{}", *why);
    return kExitIo;
  }
  return kExitOk;
}

}  // namespace

int run_stats_openings(const StatsOpeningsOptions& o) {
  if (!o.filter.fen.empty() || !o.filter.moves.empty()) {
    log::error("stats openings: --fen and --moves name the position to explore, not a filter");
    return kExitUsage;
  }
  if (o.depth < 1 || o.depth > 20) {
    log::error("--depth {} is out of range (1 to 20)", o.depth);
    return kExitUsage;
  }
  if (o.min_games < 1) {
    log::error("--min-games {} is out of range (1 or more)", o.min_games);
    return kExitUsage;
  }
  if (o.top < 0) {
    log::error("--top {} is out of range (0: all, or more)", o.top);
    return kExitUsage;
  }
  if (o.format == Format::Partial && o.filter.variant.empty()) {
    // Without it each shard would explore the variant most of its own games
    // are, and shards holding other mixes of variants would not merge.
    log::error(
        "stats openings --format partial needs --variant (the variant explored, the same in every shard)");
    return kExitUsage;
  }
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;

  query::OpeningQuery q;
  if (in.filter.tags.variant) {
    q.variant = *in.filter.tags.variant;
  } else {
    // The variant of most games the filters choose (of the database, among
    // variants as many), among those a --fen can be a position of (a 9x9
    // FEN is Modern chess whatever the database holds).
    std::array<bool, kVariantCount> possible;
    possible.fill(o.fen.empty());
    if (!o.fen.empty()) {
      const auto targets = query::position_from_fen_text(o.fen, std::nullopt);
      if (!targets) return fail(Error{targets.error().kind, "--fen: " + targets.error().message});
      for (const query::PositionTarget& t : *targets) possible[std::size_t(t.variant)] = true;
    }
    const auto counts = in.db->counts();
    const auto chosen_games = in.scope->games(*in.db);
    const auto more = [&](std::size_t a, std::size_t b) {
      return std::pair{chosen_games[a], counts[a].games} > std::pair{chosen_games[b], counts[b].games};
    };
    bool chosen = false;
    for (std::size_t v = 0; v < counts.size(); ++v)
      if (possible[v] && (!chosen || more(v, std::size_t(q.variant)))) {
        q.variant = Variant(v);
        chosen = true;
      }
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
  std::optional<query::OpeningStats> guide;
  if (!o.expand.empty()) {
    if (!partial) {
      log::error("--expand is for --format partial (shards merged in rounds)");
      return kExitUsage;
    }
    auto read = read_openings_guide(o.expand, o);
    if (!read) return fail(read.error());
    guide = std::move(*read);
    q.guide = &guide->moves;
  }
  auto stats = query::opening_stats(*in.db, q, *in.scope);
  if (!stats) {
    // A bad root or line is the option's that gave it.
    Error e = stats.error();
    if (e.message.starts_with("bad FEN")) e.message = "--fen: " + e.message;
    if (e.message.starts_with("bad SAN")) e.message = "--moves: " + e.message;
    return fail(e);
  }
  if (partial) {
    auto text = partial_openings(*stats, o, id_span(*in.db));
    if (!text) return fail(text.error());
    return print(*text);
  }
  return print(write_openings(*stats, o.format));
}

int run_stats_results(const StatsResultsOptions& o) {
  query::ResultQuery q;
  auto by = query::parse_grouping(o.by);
  if (!by) {
    log::error(
        "unknown grouping '{}' (variant, year, event, player, eco, opening, rating-band or time-control)",
        o.by);
    return kExitUsage;
  }
  q.by = *by;
  // Rating bands: --band wide.
  if (o.band != 0 && q.by != query::ResultGrouping::RatingBand) {
    log::error("--band {} needs --by rating-band", o.band);
    return kExitUsage;
  }
  if (o.band < 0 || o.band > 4000) {
    log::error("--band {} is out of range (1 to 4000)", o.band);
    return kExitUsage;
  }
  if (o.band != 0) q.band = std::uint32_t(o.band);
  if (o.sort == "games")
    q.order = query::GroupOrder::Games;
  else if (o.sort == "key")
    q.order = query::GroupOrder::Key;
  else if (o.sort != "natural") {
    log::error("unknown order '{}' (natural, games or key)", o.sort);
    return kExitUsage;
  }
  if (o.limit < 0) {
    log::error("--limit must be at least 0");
    return kExitUsage;
  }
  q.limit = std::size_t(o.limit);
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;
  if (o.format == Format::Partial) {
    auto partial = query::result_partial(*in.db, *in.scope, q.by, q.band);
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
    log::error("--bin {} is out of range (0 to 10000)", o.bin);
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

int run_stats_endgames(const StatsEndgamesOptions& o) {
  if (o.men < 2 || o.men > kMaxEndgameMen) {
    log::error("--men {} is out of range (2 to {})", o.men, kMaxEndgameMen);
    return kExitUsage;
  }
  Inputs in;
  if (int rc = open_inputs(o, in); rc != kExitOk) return rc;
  if (!in.filter.material) note_material_replay(*in.db);
  auto stats = query::endgame_stats(*in.db, *in.scope, int(o.men));
  if (!stats) return fail(stats.error());
  if (o.format == Format::Partial) return print(partial_endgames(*stats, o, id_span(*in.db)));
  return print(write_endgames(*stats, o.format));
}
namespace {

// The players of the games, judged from the cache (as `analyse --cached`
// judges them): the games go to the analyser in batches.
Status judge_players(store::Database& db, const query::GameFilter& filter, analyse::Analyser& analyser,
                     analyse::PlayerTable& table) {
  constexpr std::size_t kBatch = 256;
  std::vector<analyse::GameAnalysis> batch;
  std::vector<analyse::Finding> findings;
  std::array<bool, kVariantCount> engine_checked{};
  std::optional<Error> failure;
  std::uint64_t number = 0;
  auto flush = [&]() -> bool {
    if (batch.empty()) return true;
    if (Status s = analyser.analyse(batch, findings); !s) {
      failure = s.error();
      return false;
    }
    for (const auto& f : findings) log::warn("game {}: {}: {}", f.game, f.code, f.message);
    findings.clear();
    for (const auto& g : batch) table.add(g);
    batch.clear();
    return true;
  };
  Status s = query::for_each_match(db, filter, [&](const query::GameMatch& m) {
    auto rec = db.game(m.id);
    if (!rec) {
      failure = rec.error();
      return false;
    }
    if (!engine_checked[std::size_t(rec->variant)]) {
      if (Status c = analyser.check_engine(rec->variant); !c) {
        failure = c.error();
        return false;
      }
      engine_checked[std::size_t(rec->variant)] = true;
    }
    analyse::GameAnalysis g;
    g.number = ++number;
    g.record = std::move(*rec);
    batch.push_back(std::move(g));
    return batch.size() < kBatch || flush();
  });
  if (!s && !failure) failure = s.error();
  if (!failure) flush();
  if (failure) return *failure;
  return {};
}

}  // namespace

int run_stats_players(const StatsPlayersOptions& o) {
  auto options = analysis_options(o.engine);
  if (!options) return fail(options.error());
  options->cache_only = true;
  auto filter = build_filter(o.filter);
  if (!filter) return fail(filter.error());
  const std::string path = store::default_database_path(o.db);
  auto db = store::Database::open(path, {store::OpenMode::Read});
  if (!db) {
    log::error("{}", db.error().message);
    return kExitIo;
  }
  const bool partial = o.format == Format::Partial;
  auto any = (*db)->has_analyses();
  if (!any) return fail(any.error());
  if (!*any && !partial) {
    log::error("{} holds no engine analysis: `virrey analyse --db {}` fills its cache", path, path);
    return kExitDataFailed;
  }
  note_material_scan(*filter, **db);
  analyse::Analyser analyser(*options, db->get());
  analyse::PlayerTable table;
  if (Status s = judge_players(**db, *filter, analyser, table); !s) {
    log::error("{}", s.error().message);
    return s.error().kind == ErrorKind::InvalidArgument ? kExitUsage : kExitIo;
  }
  if (partial) return print(partial_players(table, *any, o, id_span(**db)));
  analyse::SideSummary all;
  for (const auto& p : table.players()) all.add(p.moves);
  if (all.moves == 0 && all.unjudged > 0) {
    log::error(
        "the cache of {} holds no evaluation of these games' positions by this engine at {} "
        "(the engine and limits must be those of the `virrey analyse` run)",
        path, options->limits.describe());
    return kExitDataFailed;
  }
  return print(write_players(table.by_games(), o.format));
}

}  // namespace virrey::cli
