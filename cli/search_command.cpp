#include "search_command.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "board_text.hpp"
#include "exit_codes.hpp"
#include "output.hpp"
#include "text_table.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/query/search.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/database.hpp"

namespace virrey::cli {

namespace {

// --- one row ----------------------------------------------------------------

struct Row {
  query::GameMatch match;
  game::GameRecord record;
  std::string date = {}, white = {}, black = {}, result = {}, event = {}, site = {}, round = {}, eco = {},
              variant = {};
  std::optional<query::PlyView> position = std::nullopt;  // --show
};

std::string shown(std::string_view tag) { return tag.empty() ? "?" : std::string(tag); }

// The fields of a row, in JSON order; the matched position's FEN with --show.
Schema<Row> row_fields(bool with_fen) {
  Schema<Row> fields = {
      {"id", [](const Row& r) { return Value::integer(r.match.id); }},
      {"white", [](const Row& r) { return Value::string(r.white); }},
      {"black", [](const Row& r) { return Value::string(r.black); }},
      {"result", [](const Row& r) { return Value::string(r.result); }},
      {"date", [](const Row& r) { return Value::string(r.date); }},
      {"event", [](const Row& r) { return Value::string(r.event); }},
      {"site", [](const Row& r) { return Value::string(r.site); }},
      {"round", [](const Row& r) { return Value::string(r.round); }},
      {"eco", [](const Row& r) { return Value::string(r.eco); }},
      {"variant", [](const Row& r) { return Value::string(r.variant); }},
      {"ply", [](const Row& r) { return Value::integer(r.match.ply); }},
  };
  if (with_fen)
    fields.add({"fen", [](const Row& r) {
                  return r.position ? Value::string(write_fen(r.position->position)) : Value::null();
                }});
  return fields;
}

void print_text(const std::vector<Row>& rows, const query::SearchResult& res, const SearchOptions& o,
                std::FILE* out) {
  using Align = TextTable::Align;
  if (!rows.empty())
    fmt::print(out, "{}",
               row_fields(false).text_table({{"id", Align::Right},
                                             {"date"},
                                             {"white", Align::Left, 24},
                                             {"black", Align::Left, 24},
                                             {"result"},
                                             {"event", Align::Left, 30},
                                             {"ply", Align::Right}},
                                            rows));
  const std::size_t first = std::size_t(o.offset) + 1, last = std::size_t(o.offset) + rows.size();
  if (res.total && !res.more)
    fmt::print(out, "{}{}\n", count_of(*res.total, "game"),
               rows.empty() && *res.total > 0  ? fmt::format(" (none from --offset {})", o.offset)
               : o.offset > 0 && !rows.empty() ? fmt::format(" (showing {}-{})", first, last)
                                               : "");
  else if (res.total)
    fmt::print(out, "{} games (showing {}-{}; next page: --offset {})\n", *res.total, first, last, last);
  else
    fmt::print(out, "showing games {}-{}; more match (next page: --offset {}; --count counts them)\n", first,
               last, last);
  if (!o.show) return;
  for (const Row& r : rows) {
    if (!r.position) continue;
    const query::PlyView& v = *r.position;
    std::string where =
        v.ply == 0 ? "the start position" : fmt::format("ply {}, after {}", v.ply, v.last_move);
    if (!r.match.ply) where = "final position, " + where;
    fmt::print(out, "\ngame {}: {} - {}, {}\n{}", r.match.id, terminal_text(r.white), terminal_text(r.black),
               where, board_text(v.position));
  }
}

}  // namespace

int run_search(const SearchOptions& o) {
  if (o.limit < 0) {
    log::error("--limit {} is negative (0 means no limit)", o.limit);
    return kExitUsage;
  }
  if (o.offset < 0) {
    log::error("--offset {} is negative", o.offset);
    return kExitUsage;
  }
  if (o.count && o.format == Format::Pgn) {
    log::error("--count prints a number: --format text, json, jsonl or csv, not pgn");
    return kExitUsage;
  }
  if (o.show && o.format == Format::Pgn) {
    log::error("--show draws or writes the matched position: --format text, json, jsonl or csv, not pgn");
    return kExitUsage;
  }
  auto built = build_filter(o.filter);
  if (!built) {
    log::error("{}", built.error().message);
    return kExitUsage;
  }
  const query::GameFilter& filter = *built;

  const std::string path = store::default_database_path(o.db);
  auto db = store::Database::open(path, {store::OpenMode::Read});
  if (!db) {
    log::error("{}", db.error().message);
    return kExitIo;
  }
  note_material_scan(filter, **db);
  note_feature_scan(filter, **db);
  note_position_variants(filter, **db);
  if (o.explain) {
    auto plan = query::explain_plan(**db, filter);
    if (plan) log::info("plan: {}", *plan);
  }

  query::SearchOptions so;
  so.limit = std::size_t(o.limit);
  so.offset = std::size_t(o.offset);
  so.sort = o.sort == "date" ? query::SortOrder::Date : query::SortOrder::Id;
  so.count_only = o.count;
  query::MatchCounts counts;
  if (o.explain) {
    so.counts = &counts;
    store::start_read_counting();
  }
  auto res = query::search(**db, filter, so);
  if (!res) {
    log::error("{}", res.error().message);
    return kExitIo;
  }
  if (o.explain) {
    // The rest did not match either: their records (replayed, or their tags
    // compared) or a stored opening or result said so.
    const std::uint64_t others = counts.checked - std::min(counts.checked, counts.matched + counts.ruled_out);
    log::info(
        "checked {} candidate games{}: {} matched, {} ruled out by their summaries, {} others not matching",
        counts.checked, res->total ? "" : " (up to the page's end)", counts.matched, counts.ruled_out,
        others);
  }
  if (o.explain) {
    const store::ReadCounts read = store::read_counts();
    log::info("read {} bytes in {} blocks from table files, {} blocks from the cache", read.bytes,
              read.blocks, read.cache_hits);
  }
  std::FILE* out = stdout;

  if (o.count) {
    const std::uint64_t n = res->total.value_or(0);
    if (o.format == Format::Text)
      fmt::print(out, "{}\n", n);
    else if (o.format == Format::Csv)
      fmt::print(out, "count\n{}\n", n);
    else
      fmt::print(out, "{}\n", json(Members{{"count", Value::integer(n)}}));
    std::fflush(out);
    return n == 0 && o.fail_empty ? kExitDataFailed : kExitOk;
  }

  // The rows: tags for every format, the main line to show a position, the
  // whole movetext for PGN. Each is written as it is read (a page of every
  // match holds no more than one game at a time); text tables, aligned over
  // all their rows, keep the rows without their records.
  const bool pgn = o.format == Format::Pgn;
  const bool want_position = o.show;
  unsigned parts = store::kDecodeTags;
  if (want_position) parts |= store::kDecodeMainLine;
  if (pgn) parts = store::kDecodeAll;
  const Schema<Row> fields = row_fields(o.show);
  const Schema<Row> csv_fields = fields.ordered(
      {"id", "date", "white", "black", "result", "event", "site", "round", "eco", "variant", "ply", "fen"});
  if (o.format == Format::Csv) {
    std::vector<std::string> names;
    csv_fields.append_names(names);
    fmt::print(out, "{}", csv_line(names));
  } else if (o.format == Format::Json) {
    fmt::print(out, "{{\"total\":{},\"offset\":{},\"more\":{},\"games\":[", json(Value::integer(res->total)),
               json(Value::integer(o.offset)), json(Value::boolean(res->more)));
  }
  std::vector<Row> rows;  // text only
  std::size_t written = 0;
  for (const query::GameMatch& m : res->games) {
    auto rec = (*db)->game(m.id, parts);
    if (!rec) {
      log::error("{}", rec.error().message);
      return kExitIo;
    }
    Row r{m, std::move(*rec)};
    const game::GameRecord& g = r.record;
    r.date = shown(g.tag("Date")), r.white = shown(g.tag("White")), r.black = shown(g.tag("Black"));
    r.result = std::string(result_text(g.result));
    r.event = shown(g.tag("Event")), r.site = shown(g.tag("Site")), r.round = shown(g.tag("Round"));
    // The ECO code `db classify` stored, else the game's ECO tag.
    auto opening = (*db)->opening(m.id);
    if (!opening) {
      log::error("{}", opening.error().message);
      return kExitIo;
    }
    r.eco = *opening ? (*opening)->eco : std::string(g.tag("ECO"));
    r.variant = std::string(info(g.variant).cli_name);
    if (want_position) {
      auto pos = query::position_at(g, m.ply.value_or(std::uint32_t(g.main_line.size())));
      if (!pos) {
        log::error("game {}: {}", m.id, pos.error().message);
        return kExitIo;
      }
      r.position = *pos;
    }
    ++written;
    if (pgn) {
      fmt::print(out, "{}", game::write_pgn(r.record));
    } else if (o.format == Format::Jsonl) {
      fmt::print(out, "{}\n", json(fields.object(r)));
    } else if (o.format == Format::Json) {
      fmt::print(out, "{}{}", written > 1 ? "," : "", json(fields.object(r)));
    } else if (o.format == Format::Csv) {
      std::vector<Value> values;
      csv_fields.append_values(r, values);
      fmt::print(out, "{}", csv_line(values));
    } else {
      r.record = {};
      rows.push_back(std::move(r));
    }
    if (std::ferror(out)) break;  // reported below
  }
  if (o.format == Format::Text)
    print_text(rows, *res, o, out);
  else if (o.format == Format::Json)
    fmt::print(out, "]}}\n");
  if (const auto why = flush_failure(out)) {
    log::error("cannot write the results{}", *why);
    return kExitIo;
  }
  // pgn, jsonl and csv carry no "more" of their own: a page cut short is
  // said here, so that a file written with them is not taken for all.
  if (res->more && (pgn || o.format == Format::Jsonl || o.format == Format::Csv))
    log::warn("{} written; more match (--limit {}: --limit 0 writes every game, --offset {} the next page)",
              count_of(written, "game"), o.limit, std::size_t(o.offset) + written);
  return written == 0 && o.fail_empty ? kExitDataFailed : kExitOk;
}

}  // namespace virrey::cli
