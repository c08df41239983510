#include "search_command.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "board_text.hpp"
#include "exit_codes.hpp"
#include "json_text.hpp"
#include "text_table.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/query/search.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/database.hpp"
#include "virrey/game/pgn_writer.hpp"

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

// At most `max` code points, the last one an ellipsis when cut.
std::string fit(std::string_view s, std::size_t max) {
  if (display_width(s) <= max) return std::string(s);
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xc0) != 0x80 && ++n > max - 1) break;
    out += char(c);
  }
  return out + "…";
}

std::string ply_text(const Row& r) { return r.match.ply ? fmt::format("{}", *r.match.ply) : "-"; }

std::string json_row(const Row& r, bool with_fen) {
  std::string out = fmt::format(
      "{{\"id\":{},\"white\":{},\"black\":{},\"result\":{},\"date\":{},\"event\":{},\"site\":{},"
      "\"round\":{},\"eco\":{},\"variant\":{},\"ply\":{}",
      r.match.id, json_string(r.white), json_string(r.black), json_string(r.result), json_string(r.date),
      json_string(r.event), json_string(r.site), json_string(r.round), json_string(r.eco),
      json_string(r.variant), r.match.ply ? fmt::format("{}", *r.match.ply) : "null");
  if (with_fen) out += fmt::format(",\"fen\":{}", r.position ? json_string(write_fen(r.position->position)) : "null");
  return out + "}";
}

void print_text(const std::vector<Row>& rows, const query::SearchResult& res, const SearchOptions& o,
                std::FILE* out) {
  using Align = TextTable::Align;
  TextTable table({{"id", Align::Right},
                   {"date", Align::Left},
                   {"white", Align::Left},
                   {"black", Align::Left},
                   {"result", Align::Left},
                   {"event", Align::Left},
                   {"ply", Align::Right}});
  for (const Row& r : rows)
    table.add({fmt::format("{}", r.match.id), r.date, fit(r.white, 24), fit(r.black, 24), r.result,
               fit(r.event, 30), ply_text(r)});
  if (!rows.empty()) fmt::print(out, "{}", table.render());
  const std::size_t first = std::size_t(o.offset) + 1, last = std::size_t(o.offset) + rows.size();
  if (res.total && !res.more)
    fmt::print(out, "{} game{}{}\n", *res.total, *res.total == 1 ? "" : "s",
               rows.empty() && *res.total > 0 ? fmt::format(" (none from --offset {})", o.offset)
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
    std::string where = v.ply == 0 ? "the start position" : fmt::format("ply {}, after {}", v.ply, v.last_move);
    if (!r.match.ply) where = "final position, " + where;
    fmt::print(out, "\ngame {}: {} - {}, {}\n{}", r.match.id, r.white, r.black, where,
               board_text(v.position));
  }
}

}  // namespace

int run_search(const SearchOptions& o) {
  if (o.limit < 0) {
    spdlog::error("--limit {} is negative (0 means no limit)", o.limit);
    return kExitUsage;
  }
  if (o.offset < 0) {
    spdlog::error("--offset {} is negative", o.offset);
    return kExitUsage;
  }
  auto built = build_filter(o.filter);
  if (!built) {
    spdlog::error("{}", built.error().message);
    return kExitUsage;
  }
  const query::GameFilter& filter = *built;

  const std::string path = store::default_database_path(o.db);
  auto db = store::Database::open(path, {store::OpenMode::Read});
  if (!db) {
    spdlog::error("{}", db.error().message);
    return kExitIo;
  }
  if (o.explain) {
    auto plan = query::explain_plan(**db, filter);
    if (plan) spdlog::info("plan: {}", *plan);
  }

  query::SearchOptions so;
  so.limit = std::size_t(o.limit);
  so.offset = std::size_t(o.offset);
  so.sort = o.sort == "date" ? query::SortOrder::Date : query::SortOrder::Id;
  so.count_only = o.count;
  query::MatchCounts counts;
  if (o.explain) so.counts = &counts;
  auto res = query::search(**db, filter, so);
  if (!res) {
    spdlog::error("{}", res.error().message);
    return kExitIo;
  }
  if (o.explain)
    spdlog::info("checked {} candidate games{}: {} matched, {} ruled out by their summaries", counts.checked,
                 res->total ? "" : " (up to the page's end)", counts.matched, counts.ruled_out);
  std::FILE* out = stdout;

  if (o.count) {
    const std::uint64_t n = res->total.value_or(0);
    if (o.format == "json" || o.format == "jsonl") fmt::print(out, "{{\"count\":{}}}\n", n);
    else if (o.format == "csv") fmt::print(out, "count\n{}\n", n);
    else fmt::print(out, "{}\n", n);
    std::fflush(out);
    return n == 0 && o.fail_empty ? kExitDataFailed : kExitOk;
  }

  // The rows: tags for every format, the main line to show a position, the
  // whole movetext for PGN.
  const bool pgn = o.format == "pgn";
  const bool want_position = o.show;
  unsigned parts = store::kDecodeTags;
  if (want_position) parts |= store::kDecodeMainLine;
  if (pgn) parts = store::kDecodeAll;
  std::vector<Row> rows;
  rows.reserve(res->games.size());
  for (const query::GameMatch& m : res->games) {
    auto rec = (*db)->game(m.id, parts);
    if (!rec) {
      spdlog::error("{}", rec.error().message);
      return kExitIo;
    }
    Row r{m, std::move(*rec)};
    const game::GameRecord& g = r.record;
    r.date = shown(g.tag("Date")), r.white = shown(g.tag("White")), r.black = shown(g.tag("Black"));
    r.result = std::string(result_text(g.result));
    r.event = shown(g.tag("Event")), r.site = shown(g.tag("Site")), r.round = shown(g.tag("Round"));
    r.eco = std::string(g.tag("ECO"));
    r.variant = std::string(info(g.variant).cli_name);
    if (want_position) {
      auto pos = query::position_at(g, m.ply.value_or(std::uint32_t(g.main_line.size())));
      if (!pos) {
        spdlog::error("game {}: {}", m.id, pos.error().message);
        return kExitIo;
      }
      r.position = *pos;
    }
    rows.push_back(std::move(r));
  }

  if (o.format == "text") {
    print_text(rows, *res, o, out);
  } else if (pgn) {
    for (const Row& r : rows) fmt::print(out, "{}", game::write_pgn(r.record));
  } else if (o.format == "jsonl") {
    for (const Row& r : rows) fmt::print(out, "{}\n", json_row(r, o.show));
  } else if (o.format == "json") {
    std::string games;
    for (const Row& r : rows) games += (games.empty() ? "" : ",") + json_row(r, o.show);
    fmt::print(out, "{{\"total\":{},\"offset\":{},\"more\":{},\"games\":[{}]}}\n",
               res->total ? fmt::format("{}", *res->total) : "null", o.offset, res->more, games);
  } else {  // csv
    fmt::print(out, "id,date,white,black,result,event,site,round,eco,variant,ply{}\n", o.show ? ",fen" : "");
    for (const Row& r : rows) {
      fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{}", r.match.id, csv_field(r.date), csv_field(r.white),
                 csv_field(r.black), r.result, csv_field(r.event), csv_field(r.site), csv_field(r.round),
                 csv_field(r.eco), r.variant, r.match.ply ? fmt::format("{}", *r.match.ply) : "");
      if (o.show) fmt::print(out, ",{}", r.position ? csv_field(write_fen(r.position->position)) : "");
      fmt::print(out, "\n");
    }
  }
  if (std::fflush(out) != 0 || std::ferror(out)) {
    spdlog::error("cannot write the results");
    return kExitIo;
  }
  return rows.empty() && o.fail_empty ? kExitDataFailed : kExitOk;
}

}  // namespace virrey::cli
