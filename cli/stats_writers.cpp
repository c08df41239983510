#include "stats_writers.hpp"

#include <fmt/format.h>

#include "output.hpp"
#include "text_table.hpp"

namespace virrey::cli {

namespace {

using query::percent;
using query::ResultCounts;
using store::TreeCounters;
using Align = TextTable::Align;

// --- numbers ------------------------------------------------------------------

// Text: one decimal. JSON and CSV: two decimals; null (JSON) or empty (CSV)
// where there is no value.
std::string one(double v) { return fmt::format("{:.1f}", v); }
Value two(double v) { return Value::number(v, 2); }
Value two(std::optional<double> v) { return Value::number(v, 2); }
// A share for JSON and CSV: no value (null, an empty field) over nothing.
std::optional<double> share(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return std::nullopt;
  return percent(part, whole);
}
Value integer(std::uint64_t v) { return Value::integer(v); }
Value string(std::string_view v) { return Value::string(v); }
std::string text_opt(std::optional<double> v, std::string_view unit = "") {
  return v ? one(*v) + std::string(unit) : "-";
}
std::string num(std::uint64_t v) { return fmt::format("{}", v); }

std::string_view colour_name(Color c) { return c == Color::White ? "white" : "black"; }
std::string file_name(int file) { return std::string(1, char('a' + file)); }
std::string piece_code(PieceType p) { return std::string(1, piece_letter(p)); }
std::string_view piece_name(PieceType p) {
  static constexpr std::pair<PieceType, std::string_view> kNames[] = {
      {PieceType::Queen, "queen"},   {PieceType::Rook, "rook"},       {PieceType::Bishop, "bishop"},
      {PieceType::Knight, "knight"}, {PieceType::Viceroy, "viceroy"}, {PieceType::Minister, "minister"},
      {PieceType::King, "king"},     {PieceType::Pawn, "pawn"}};
  for (const auto& [piece, name] : kNames)
    if (piece == p) return name;
  return "?";
}

// W/D/B as a bar: █ White wins, ▒ draws, ░ Black wins.
std::string result_bar(std::uint64_t w, std::uint64_t d, std::uint64_t b, int width = 20) {
  return stacked_bar({double(w), double(d), double(b)}, {"█", "▒", "░"}, width);
}
constexpr std::string_view kResultLegend = "█ White wins  ▒ draws  ░ Black wins\n";

// --- openings -----------------------------------------------------------------

struct MoveRow {
  const query::OpeningMove* move;
  int depth;             // 1: a move from the root
  std::uint64_t parent;  // games of the position the move is played from
  Color mover;
  int fullmove;
  std::string line;  // SAN from the root, this move included
};

void collect_rows(const std::vector<query::OpeningMove>& moves, int depth, std::uint64_t parent, Color mover,
                  int fullmove, const std::string& line, std::vector<MoveRow>& out) {
  for (const auto& m : moves) {
    const std::string here = line.empty() ? m.san : line + " " + m.san;
    out.push_back({&m, depth, parent, mover, fullmove, here});
    collect_rows(m.children, depth + 1, m.position_games, ~mover,
                 mover == Color::Black ? fullmove + 1 : fullmove, here, out);
  }
}

std::vector<MoveRow> opening_rows(const query::OpeningStats& s) {
  std::vector<MoveRow> rows;
  collect_rows(s.moves, 1, s.total.games, s.side_to_move, s.fullmove, "", rows);
  return rows;
}

// The counters of a position or move, with the games of the position above
// and the side that moves there.
struct MoveCounts {
  const TreeCounters& c;
  std::uint64_t parent;
  Color mover;
};

const Schema<MoveCounts>& move_count_fields() {
  static const Schema<MoveCounts> fields = {
      {"games", [](const MoveCounts& m) { return integer(m.c.games); }},
      {"share_pct", [](const MoveCounts& m) { return two(share(m.c.games, m.parent)); }},
      {"white_wins", [](const MoveCounts& m) { return integer(m.c.white_wins); }},
      {"draws", [](const MoveCounts& m) { return integer(m.c.draws); }},
      {"black_wins", [](const MoveCounts& m) { return integer(m.c.black_wins); }},
      {"unfinished",
       [](const MoveCounts& m) { return integer(m.c.games - m.c.white_wins - m.c.draws - m.c.black_wins); }},
      {"white_pct", [](const MoveCounts& m) { return two(share(m.c.white_wins, m.c.games)); }},
      {"draw_pct", [](const MoveCounts& m) { return two(share(m.c.draws, m.c.games)); }},
      {"black_pct", [](const MoveCounts& m) { return two(share(m.c.black_wins, m.c.games)); }},
      {"score_pct", [](const MoveCounts& m) { return two(query::mover_score_percent(m.c, m.mover)); }},
      {"avg_white_elo", [](const MoveCounts& m) { return two(query::average_white_elo(m.c)); }},
      {"avg_black_elo", [](const MoveCounts& m) { return two(query::average_black_elo(m.c)); }},
      {"last_date",
       [](const MoveCounts& m) { return Value::string_or_null(query::date_text(m.c.last_date)); }},
  };
  return fields;
}

Value moves_json(const std::vector<query::OpeningMove>& moves, std::uint64_t parent, Color mover) {
  std::vector<Value> out;
  for (const auto& m : moves) {
    Members fields = {{"san", string(m.san)}, {"uci", string(m.uci)}};
    if (!m.opening.empty()) fields.push_back({"opening", string(m.opening)});  // db classify's names
    move_count_fields().append_members({m.counters, parent, mover}, fields);
    if (!m.children.empty()) fields.push_back({"children", moves_json(m.children, m.position_games, ~mover)});
    out.push_back(Value::object(std::move(fields)));
  }
  return Value::list(std::move(out));
}

std::string openings_json(const query::OpeningStats& s) {
  std::vector<Value> line;
  for (const auto& san : s.line) line.push_back(string(san));
  Members m = {
      {"variant", string(info(s.variant).cli_name)},
      {"fen", string(s.fen)},
      {"line", Value::list(std::move(line))},
      {"side_to_move", string(colour_name(s.side_to_move))},
      {"source", string(query::opening_source_name(s.source))},
      {"games_replayed", integer(s.games_replayed)},
      {"total", move_count_fields().object({s.total, s.total.games, s.side_to_move})},
      {"moves", moves_json(s.moves, s.total.games, s.side_to_move)},
  };
  if (!s.opening.empty())
    m.insert(m.begin() + 3, Member{"opening", string(s.opening)});  // db classify's name
  return json(m) + '\n';
}

std::string openings_csv(const query::OpeningStats& s) {
  std::vector<std::string> names = {"depth", "line", "san", "uci"};
  move_count_fields().append_names(names);
  std::string out = csv_line(names);
  for (const MoveRow& r : opening_rows(s)) {
    std::vector<Value> row = {integer(std::uint64_t(r.depth)), string(r.line), string(r.move->san),
                              string(r.move->uci)};
    move_count_fields().append_values({r.move->counters, r.parent, r.mover}, row);
    out += csv_line(row);
  }
  return out;
}

std::vector<std::string> opening_cells(std::string label, const TreeCounters& c, std::uint64_t parent,
                                       Color mover) {
  return {std::move(label),
          num(c.games),
          one(percent(c.games, parent)),
          num(c.white_wins),
          num(c.draws),
          num(c.black_wins),
          one(percent(c.white_wins, c.games)),
          one(percent(c.draws, c.games)),
          one(percent(c.black_wins, c.games)),
          text_opt(query::mover_score_percent(c, mover), "%"),
          query::average_white_elo(c) ? fmt::format("{:.0f}", *query::average_white_elo(c)) : "-",
          query::average_black_elo(c) ? fmt::format("{:.0f}", *query::average_black_elo(c)) : "-",
          c.last_date ? query::date_text(c.last_date) : "-",
          result_bar(c.white_wins, c.draws, c.black_wins)};
}

std::string openings_text(const query::OpeningStats& s) {
  std::string out = fmt::format("Opening explorer · {} · {} games · source: {}", info(s.variant).cli_name,
                                s.total.games, query::opening_source_name(s.source));
  if (s.games_replayed) out += fmt::format(" ({} games replayed)", s.games_replayed);
  out += fmt::format("\nPosition: {}\n", s.fen);
  if (!s.opening.empty()) out += fmt::format("Opening: {}\n", terminal_text(s.opening));
  if (!s.line.empty()) {
    out += "After:";
    for (const auto& san : s.line) {
      out += ' ';
      out += san;
    }
    out += '\n';
  }
  out += fmt::format("{} to move\n\n", s.side_to_move == Color::White ? "White" : "Black");
  if (s.moves.empty() && s.total.games > 0)
    return out + fmt::format("{} continue from this position; no move reaches --min-games.\n",
                             count_of(s.total.games, "game"));
  if (s.moves.empty()) return out + "No game continues from this position.\n";
  TextTable t({{"Move", Align::Left},
               {"Games"},
               {"%"},
               {"White"},
               {"Draw"},
               {"Black"},
               {"W%"},
               {"D%"},
               {"B%"},
               {"Score"},
               {"Elo W"},
               {"Elo B"},
               {"Last", Align::Left},
               {"Results", Align::Left}});
  for (const MoveRow& r : opening_rows(s)) {
    const std::string label =
        std::string(2 * (r.depth - 1), ' ') +
        fmt::format("{}{}{}", r.fullmove, r.mover == Color::White ? "." : "...", r.move->san) +
        (r.move->opening.empty() ? "" : "  " + r.move->opening);
    t.add(opening_cells(label, r.move->counters, r.parent, r.mover));
  }
  t.add(opening_cells("all moves", s.total, s.total.games, s.side_to_move));
  out += t.render();
  out += "\n%: share of the games of the position above · Score: for the side that moves · ";
  out += kResultLegend;
  return out;
}

// --- results ------------------------------------------------------------------

const Schema<ResultCounts>& result_count_fields() {
  static const Schema<ResultCounts> fields = {
      {"games", [](const ResultCounts& c) { return integer(c.games); }},
      {"white_wins", [](const ResultCounts& c) { return integer(c.white_wins); }},
      {"draws", [](const ResultCounts& c) { return integer(c.draws); }},
      {"black_wins", [](const ResultCounts& c) { return integer(c.black_wins); }},
      {"unfinished", [](const ResultCounts& c) { return integer(c.unfinished); }},
      {"white_pct", [](const ResultCounts& c) { return two(share(c.white_wins, c.games)); }},
      {"draw_pct", [](const ResultCounts& c) { return two(share(c.draws, c.games)); }},
      {"black_pct", [](const ResultCounts& c) { return two(share(c.black_wins, c.games)); }},
      {"unfinished_pct", [](const ResultCounts& c) { return two(share(c.unfinished, c.games)); }},
      {"decisive_pct", [](const ResultCounts& c) { return two(share(c.decisive(), c.finished())); }},
      {"avg_plies",
       [](const ResultCounts& c) {
         return two(c.games ? std::optional<double>(query::average_plies(c)) : std::nullopt);
       }},
  };
  return fields;
}

std::optional<double> player_score(const query::PlayerScore& p) {
  return query::score_percent(p.wins, p.draws, p.losses);
}

// A player's games (--by player): JSON "player", CSV "player_...".
const Schema<query::PlayerScore>& player_fields() {
  using query::PlayerScore;
  static const Schema<PlayerScore> fields = {
      {"as_white", [](const PlayerScore& p) { return integer(p.as_white); }},
      {"as_black", [](const PlayerScore& p) { return integer(p.as_black); }},
      {"wins", [](const PlayerScore& p) { return integer(p.wins); }},
      {"draws", [](const PlayerScore& p) { return integer(p.draws); }},
      {"losses", [](const PlayerScore& p) { return integer(p.losses); }},
      {"unfinished", [](const PlayerScore& p) { return integer(p.unfinished); }},
      {"score_pct", [](const PlayerScore& p) { return two(player_score(p)); }},
  };
  return fields;
}

std::string results_json(const query::ResultStats& s) {
  std::vector<Value> groups;
  for (const auto& g : s.groups) {
    Members m = {{"key", string(g.key)}, {"label", string(g.label)}};
    result_count_fields().append_members(g.counts, m);
    if (g.player) m.push_back({"player", player_fields().object(*g.player)});
    groups.push_back(Value::object(std::move(m)));
  }
  const Members m = {{"by", string(query::grouping_name(s.by))},
                     {"total", result_count_fields().object(s.total)},
                     {"group_count", integer(s.group_count)},
                     {"groups", Value::list(std::move(groups))}};
  return json(m) + '\n';
}

std::string results_csv(const query::ResultStats& s) {
  std::vector<std::string> names = {"by", "key", "label"};
  result_count_fields().append_names(names);
  player_fields().append_names(names, "player_");
  std::string out = csv_line(names);
  auto row = [&](std::string_view by, std::string_view key, std::string_view label, const ResultCounts& c,
                 const query::PlayerScore* p) {
    std::vector<Value> values = {string(by), string(key), string(label)};
    result_count_fields().append_values(c, values);
    if (p)
      player_fields().append_values(*p, values);
    else
      player_fields().append_nulls(values);
    out += csv_line(values);
  };
  row("total", "", "all", s.total, nullptr);
  for (const auto& g : s.groups)
    row(query::grouping_name(s.by), g.key, g.label, g.counts, g.player ? &*g.player : nullptr);
  return out;
}

std::string results_text(const query::ResultStats& s) {
  std::string out = fmt::format("Results · {}", count_of(s.total.games, "game"));
  if (s.by != query::ResultGrouping::None)
    out += fmt::format(" · by {} ({}{})", query::grouping_name(s.by), count_of(s.group_count, "group"),
                       s.groups.size() < s.group_count ? fmt::format(", {} shown", s.groups.size()) : "");
  out += "\n\n";
  const bool player = s.by == query::ResultGrouping::Player;
  std::string title = s.by == query::ResultGrouping::None ? "" : std::string(query::grouping_name(s.by));
  if (!title.empty()) title[0] = char(title[0] - 'a' + 'A');
  std::vector<TextTable::Column> columns = {{title, Align::Left},
                                            {"Games"},
                                            {"%"},
                                            {"1-0"},
                                            {"½-½"},
                                            {"0-1"},
                                            {"*"},
                                            {"1-0%"},
                                            {"½-½%"},
                                            {"0-1%"},
                                            {"*%"},
                                            {"Decisive"},
                                            {"Avg plies"}};
  if (player)
    for (const char* c : {"Won", "Drawn", "Lost", "Score"}) columns.push_back({c});
  columns.push_back({"Results", Align::Left});
  TextTable t(columns);
  auto row = [&](std::string label, const ResultCounts& c, const query::PlayerScore* p) {
    std::vector<std::string> cells = {
        std::move(label),
        num(c.games),
        text_opt(share(c.games, s.total.games)),
        num(c.white_wins),
        num(c.draws),
        num(c.black_wins),
        num(c.unfinished),
        text_opt(share(c.white_wins, c.games)),
        text_opt(share(c.draws, c.games)),
        text_opt(share(c.black_wins, c.games)),
        text_opt(share(c.unfinished, c.games)),
        text_opt(share(c.decisive(), c.finished()), "%"),
        text_opt(c.games ? std::optional<double>(query::average_plies(c)) : std::nullopt)};
    if (player) {
      if (p) {
        for (std::uint64_t v : {p->wins, p->draws, p->losses}) cells.push_back(num(v));
        cells.push_back(text_opt(player_score(*p), "%"));
      } else {
        for (int i = 0; i < 4; ++i) cells.push_back("");
      }
    }
    cells.push_back(result_bar(c.white_wins, c.draws, c.black_wins));
    t.add(std::move(cells));
  };
  for (const auto& g : s.groups) row(g.label, g.counts, g.player ? &*g.player : nullptr);
  row(player ? "all games" : "all", s.total, nullptr);
  out += t.render();
  out += "\nDecisive: 1-0 and 0-1 among finished games · ";
  if (player) out += "Won/Drawn/Lost/Score: from the player's side · ";
  out += kResultLegend;
  return out;
}

// --- promotions -----------------------------------------------------------------

// Captured later and gave mate, over the promotions to `p`.
std::pair<std::uint64_t, std::uint64_t> piece_fates(const query::VariantPromotions& v, PieceType p) {
  std::uint64_t captured = 0, mate = 0;
  for (const auto& c : v.cells)
    if (c.piece == p) captured += c.captured_later, mate += c.gave_mate;
  return {captured, mate};
}

Value promotions_json_one(const query::VariantPromotions& v) {
  std::vector<Value> pieces, files, cells;
  for (PieceType p : v.pieces()) {
    const auto [captured, mate] = piece_fates(v, p);
    pieces.push_back(Value::object({{"piece", string(piece_code(p))},
                                    {"white", integer(v.by_piece(p, Color::White))},
                                    {"black", integer(v.by_piece(p, Color::Black))},
                                    {"total", integer(v.by_piece(p))},
                                    {"pct", two(share(v.by_piece(p), v.promotions))},
                                    {"captured_later", integer(captured)},
                                    {"gave_mate", integer(mate)}}));
  }
  for (int f = 0; f < v.files(); ++f)
    files.push_back(Value::object({{"file", string(file_name(f))},
                                   {"white", integer(v.by_file(f, Color::White))},
                                   {"black", integer(v.by_file(f, Color::Black))},
                                   {"total", integer(v.by_file(f))},
                                   {"pct", two(share(v.by_file(f), v.promotions))}}));
  for (const auto& c : v.cells)
    cells.push_back(Value::object({{"piece", string(piece_code(c.piece))},
                                   {"colour", string(colour_name(c.colour))},
                                   {"file", string(file_name(c.file))},
                                   {"count", integer(c.count)},
                                   {"captured_later", integer(c.captured_later)},
                                   {"gave_mate", integer(c.gave_mate)}}));
  const auto& vc = v.viceroy;
  const Value viceroy = Value::object({
      {"promotions", integer(vc.promotions)},
      {"games", integer(vc.games)},
      {"games_pct", two(share(vc.games, v.games))},
      {"max_in_game", integer(vc.max_in_game)},
      {"max_game", vc.max_game ? integer(vc.max_game) : Value::null()},
      {"avg_first_ply", vc.games ? two(query::average_first_viceroy_ply(vc)) : Value::null()},
      {"first_by_white", integer(vc.first_by_white)},
      {"first_by_black", integer(vc.first_by_black)},
      {"first_wins", integer(vc.first_wins)},
      {"first_draws", integer(vc.first_draws)},
      {"first_losses", integer(vc.first_losses)},
      {"first_unfinished", integer(vc.first_unfinished)},
      {"first_score_pct", two(query::first_viceroy_score_percent(vc))},
      {"captured_later", integer(vc.captured_later)},
      {"captured_later_pct", two(share(vc.captured_later, vc.promotions))},
      {"gave_mate", integer(vc.gave_mate)},
      {"gave_mate_pct", two(share(vc.gave_mate, vc.promotions))},
  });
  return Value::object({{"variant", string(info(v.variant).cli_name)},
                        {"games", integer(v.games)},
                        {"promotions", integer(v.promotions)},
                        {"games_with_promotion", integer(v.games_with_promotion)},
                        {"games_with_promotion_pct", two(share(v.games_with_promotion, v.games))},
                        {"max_in_game", integer(v.max_in_game)},
                        {"by_piece", Value::list(std::move(pieces))},
                        {"by_file", Value::list(std::move(files))},
                        {"by_colour", Value::object({{"white", integer(v.by_colour(Color::White))},
                                                     {"black", integer(v.by_colour(Color::Black))}})},
                        {"cells", Value::list(std::move(cells))},
                        {"viceroy", viceroy}});
}

std::string promotions_json(const query::PromotionStats& s) {
  std::vector<Value> variants;
  for (const auto& v : s.variants) variants.push_back(promotions_json_one(v));
  return json(Members{{"variants", Value::list(std::move(variants))}}) + '\n';
}

std::string promotions_csv(const query::PromotionStats& s) {
  std::string out =
      csv_line(std::vector<std::string>{"variant", "figure", "piece", "colour", "file", "value"});
  for (const auto& v : s.variants) {
    const std::string_view name = info(v.variant).cli_name;
    auto row = [&](std::string_view figure, std::string_view piece, std::string_view colour,
                   std::string_view file, const Value& value) {
      out += csv_line({string(name), string(figure), string(piece), string(colour), string(file), value});
    };
    row("games", "", "", "", integer(v.games));
    row("promotions", "", "", "", integer(v.promotions));
    row("games_with_promotion", "", "", "", integer(v.games_with_promotion));
    row("max_in_game", "", "", "", integer(v.max_in_game));
    for (Color c : {Color::White, Color::Black})
      row("count", "", colour_name(c), "", integer(v.by_colour(c)));
    for (PieceType p : v.pieces()) {
      const auto [captured, mate] = piece_fates(v, p);
      row("count", piece_code(p), "", "", integer(v.by_piece(p)));
      row("captured_later", piece_code(p), "", "", integer(captured));
      row("gave_mate", piece_code(p), "", "", integer(mate));
      for (Color c : {Color::White, Color::Black})
        row("count", piece_code(p), colour_name(c), "", integer(v.by_piece(p, c)));
    }
    for (int f = 0; f < v.files(); ++f) {
      row("count", "", "", file_name(f), integer(v.by_file(f)));
      for (Color c : {Color::White, Color::Black})
        row("count", "", colour_name(c), file_name(f), integer(v.by_file(f, c)));
    }
    for (const auto& c : v.cells) {
      row("count", piece_code(c.piece), colour_name(c.colour), file_name(c.file), integer(c.count));
      row("captured_later", piece_code(c.piece), colour_name(c.colour), file_name(c.file),
          integer(c.captured_later));
      row("gave_mate", piece_code(c.piece), colour_name(c.colour), file_name(c.file), integer(c.gave_mate));
    }
    const auto& vc = v.viceroy;
    row("viceroy_promotions", "V", "", "", integer(vc.promotions));
    row("viceroy_games", "V", "", "", integer(vc.games));
    row("viceroy_max_in_game", "V", "", "", integer(vc.max_in_game));
    row("viceroy_max_game", "V", "", "", vc.max_game ? integer(vc.max_game) : Value::null());
    row("viceroy_avg_first_ply", "V", "", "",
        vc.games ? two(query::average_first_viceroy_ply(vc)) : Value::null());
    row("viceroy_first_by", "V", "white", "", integer(vc.first_by_white));
    row("viceroy_first_by", "V", "black", "", integer(vc.first_by_black));
    row("viceroy_first_wins", "V", "", "", integer(vc.first_wins));
    row("viceroy_first_draws", "V", "", "", integer(vc.first_draws));
    row("viceroy_first_losses", "V", "", "", integer(vc.first_losses));
    row("viceroy_first_unfinished", "V", "", "", integer(vc.first_unfinished));
    row("viceroy_first_score_pct", "V", "", "", two(query::first_viceroy_score_percent(vc)));
    row("viceroy_captured_later", "V", "", "", integer(vc.captured_later));
    row("viceroy_gave_mate", "V", "", "", integer(vc.gave_mate));
  }
  return out;
}

std::string promotions_text(const query::PromotionStats& s) {
  std::string out;
  for (const auto& v : s.variants) {
    if (!out.empty()) out += '\n';
    out +=
        fmt::format("Promotions · {} · {} games · {} promotions in {} games ({}%) · most in one game: {}\n",
                    info(v.variant).cli_name, v.games, v.promotions, v.games_with_promotion,
                    one(percent(v.games_with_promotion, v.games)), v.max_in_game);
    if (v.promotions == 0) continue;
    std::uint64_t top = 0;
    for (PieceType p : v.pieces()) top = std::max(top, v.by_piece(p));
    out += '\n';
    TextTable pieces({{"Piece", Align::Left},
                      {"White"},
                      {"Black"},
                      {"Total"},
                      {"%"},
                      {"Captured later"},
                      {"Gave mate"},
                      {"", Align::Left}});
    for (PieceType p : v.pieces()) {
      const auto [captured, mate] = piece_fates(v, p);
      const std::uint64_t n = v.by_piece(p);
      pieces.add({fmt::format("{} {}", piece_letter(p), piece_name(p)), num(v.by_piece(p, Color::White)),
                  num(v.by_piece(p, Color::Black)), num(n), one(percent(n, v.promotions)),
                  fmt::format("{} ({}%)", captured, one(percent(captured, n))),
                  fmt::format("{} ({}%)", mate, one(percent(mate, n))),
                  bar(top ? double(n) / double(top) : 0, 30)});
    }
    pieces.add({"all", num(v.by_colour(Color::White)), num(v.by_colour(Color::Black)), num(v.promotions),
                "100.0", "", "", ""});
    out += pieces.render();
    out += '\n';
    top = 0;
    for (int f = 0; f < v.files(); ++f) top = std::max(top, v.by_file(f));
    TextTable files({{"File", Align::Left},
                     {"White"},
                     {"Black"},
                     {"Total"},
                     {"%"},
                     {"Pieces", Align::Left},
                     {"", Align::Left}});
    for (int f = 0; f < v.files(); ++f) {
      std::string made;
      for (PieceType p : v.pieces()) {
        std::uint64_t n = 0;
        for (const auto& c : v.cells)
          if (c.piece == p && c.file == f) n += c.count;
        if (n) made += fmt::format("{}{}:{}", made.empty() ? "" : " ", piece_letter(p), n);
      }
      const std::uint64_t n = v.by_file(f);
      files.add({file_name(f), num(v.by_file(f, Color::White)), num(v.by_file(f, Color::Black)), num(n),
                 one(percent(n, v.promotions)), made, bar(top ? double(n) / double(top) : 0, 30)});
    }
    out += files.render();
    const auto& vc = v.viceroy;
    if (vc.promotions == 0 && v.variant != Variant::Virrey) continue;
    out += "\nViceroys\n";
    TextTable t({{"", Align::Left}, {"", Align::Left}});
    t.add({"promotions", num(vc.promotions)});
    t.add({"games with at least one",
           fmt::format("{} ({}% of the games)", vc.games, one(percent(vc.games, v.games)))});
    if (vc.games) {
      t.add({"most in one game", fmt::format("{} (game {})", vc.max_in_game, vc.max_game)});
      const double ply = query::average_first_viceroy_ply(vc);
      t.add({"average ply of the first", fmt::format("{} (move {})", one(ply), one((ply + 1) / 2))});
      t.add({"first made by", fmt::format("White {} · Black {}", vc.first_by_white, vc.first_by_black)});
      t.add({"score of the side that made the first",
             fmt::format("{} (won {}, drew {}, lost {}, unfinished {})",
                         text_opt(query::first_viceroy_score_percent(vc), "%"), vc.first_wins, vc.first_draws,
                         vc.first_losses, vc.first_unfinished)});
      t.add({"captured later", fmt::format("{} ({}% of the viceroys)", vc.captured_later,
                                           one(percent(vc.captured_later, vc.promotions)))});
      t.add({"gave mate", fmt::format("{} ({}% of the viceroys)", vc.gave_mate,
                                      one(percent(vc.gave_mate, vc.promotions)))});
    }
    out += t.render_rows("  ");
  }
  if (out.empty()) out = "No games.\n";
  return out;
}

// --- games ----------------------------------------------------------------------

constexpr store::Ending kEndings[] = {store::Ending::Checkmate, store::Ending::Stalemate,
                                      store::Ending::Other};
constexpr GameResult kOutcomes[] = {GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins,
                                    GameResult::Unknown};

struct Quantile {
  std::string_view name;
  double q;
};
constexpr Quantile kQuantiles[] = {
    {"p10", 0.10}, {"p25", 0.25}, {"median", 0.50}, {"p75", 0.75}, {"p90", 0.90}};

std::string variant_label(const query::VariantGameStats& v, bool total) {
  return total ? "all" : std::string(info(v.variant).cli_name);
}

// A figure of the game lengths: no value over no game.
template <class Lengths>
Value of_lengths(const Lengths& d, Value figure) {
  return d.games() ? std::move(figure) : Value::null();
}

Value games_json_one(const query::VariantGameStats& v, bool total, std::uint32_t width) {
  std::vector<Value> endings, histogram;
  for (auto e : kEndings) {
    const auto& r = v.endings[std::size_t(e)];
    const std::uint64_t n = v.ending_count(e);
    endings.push_back(Value::object({{"ending", string(query::ending_name(e))},
                                     {"games", integer(n)},
                                     {"pct", two(share(n, v.results.games))},
                                     {"white_wins", integer(r[std::size_t(GameResult::WhiteWins)])},
                                     {"draws", integer(r[std::size_t(GameResult::Draw)])},
                                     {"black_wins", integer(r[std::size_t(GameResult::BlackWins)])},
                                     {"unfinished", integer(r[std::size_t(GameResult::Unknown)])}}));
  }
  const auto& d = v.lengths;
  for (const auto& b : query::length_histogram(d, width))
    histogram.push_back(Value::object({{"from", integer(b.from)},
                                       {"to", integer(b.to)},
                                       {"games", integer(b.games)},
                                       {"pct", two(share(b.games, d.games()))}}));
  Members length = {{"mean", of_lengths(d, two(d.mean()))}, {"min", of_lengths(d, integer(d.min()))}};
  for (const auto& q : kQuantiles)
    length.push_back({std::string(q.name), of_lengths(d, integer(d.quantile(q.q)))});
  length.push_back({"max", of_lengths(d, integer(d.max()))});
  length.push_back({"histogram", Value::list(std::move(histogram))});
  return Value::object({{"variant", string(variant_label(v, total))},
                        {"games", integer(v.results.games)},
                        {"results", result_count_fields().object(v.results)},
                        {"endings", Value::list(std::move(endings))},
                        {"length", Value::object(std::move(length))}});
}

std::string games_json(const query::GameStats& s, std::uint32_t width) {
  std::vector<Value> variants;
  for (const auto& v : s.variants) variants.push_back(games_json_one(v, false, width));
  return json(Members{{"bin_width", integer(width)},
                      {"variants", Value::list(std::move(variants))},
                      {"total", games_json_one(s.total, true, width)}}) +
         '\n';
}

void games_csv_one(const query::VariantGameStats& v, bool total, std::uint32_t width, std::string& out) {
  const std::string name = variant_label(v, total);
  auto row = [&](std::string_view figure, std::string_view key, const Value& value) {
    out += csv_line({string(name), string(figure), string(key), value});
  };
  row("games", "", integer(v.results.games));
  for (auto o : kOutcomes) {
    std::uint64_t n = 0;
    for (const auto& e : v.endings) n += e[std::size_t(o)];
    row("result", result_text(o), integer(n));
  }
  for (auto e : kEndings) {
    row("ending", query::ending_name(e), integer(v.ending_count(e)));
    for (auto o : kOutcomes)
      row("ending_result", fmt::format("{}/{}", query::ending_name(e), result_text(o)),
          integer(v.endings[std::size_t(e)][std::size_t(o)]));
  }
  const auto& d = v.lengths;
  row("length_mean", "", of_lengths(d, two(d.mean())));
  row("length_min", "", of_lengths(d, integer(d.min())));
  for (const auto& q : kQuantiles)
    row(fmt::format("length_{}", q.name), "", of_lengths(d, integer(d.quantile(q.q))));
  row("length_max", "", of_lengths(d, integer(d.max())));
  for (const auto& b : query::length_histogram(d, width))
    row("length_bin", fmt::format("{}-{}", b.from, b.to), integer(b.games));
}

std::string games_csv(const query::GameStats& s, std::uint32_t width) {
  std::string out = csv_line(std::vector<std::string>{"variant", "figure", "key", "value"});
  for (const auto& v : s.variants) games_csv_one(v, false, width, out);
  games_csv_one(s.total, true, width, out);
  return out;
}

std::string games_text_one(const query::VariantGameStats& v, bool total, std::uint32_t width) {
  const auto& d = v.lengths;
  std::string out = fmt::format("Games · {} · {} games\n\n", variant_label(v, total), v.results.games);
  TextTable endings(
      {{"Ending", Align::Left}, {"Games"}, {"%"}, {"1-0"}, {"½-½"}, {"0-1"}, {"*"}, {"", Align::Left}});
  for (auto e : kEndings) {
    const auto& r = v.endings[std::size_t(e)];
    const std::uint64_t n = v.ending_count(e);
    endings.add({std::string(query::ending_name(e)), num(n), one(percent(n, v.results.games)),
                 num(r[std::size_t(GameResult::WhiteWins)]), num(r[std::size_t(GameResult::Draw)]),
                 num(r[std::size_t(GameResult::BlackWins)]), num(r[std::size_t(GameResult::Unknown)]),
                 bar(double(percent(n, v.results.games)) / 100.0, 30)});
  }
  out += endings.render();
  out += fmt::format("\nLength in plies: mean {} · min {}", one(d.mean()), d.min());
  for (const auto& q : kQuantiles) out += fmt::format(" · {} {}", q.name, d.quantile(q.q));
  out += fmt::format(" · max {}\n\n", d.max());
  const auto bins = query::length_histogram(d, width);
  std::uint64_t top = 0;
  for (const auto& b : bins) top = std::max(top, b.games);
  TextTable hist({{"Plies"}, {"Games"}, {"%"}, {"", Align::Left}});
  for (const auto& b : bins)
    hist.add({b.from == b.to ? num(b.from) : fmt::format("{}–{}", b.from, b.to), num(b.games),
              one(percent(b.games, d.games())), bar(top ? double(b.games) / double(top) : 0, 40)});
  out += hist.render();
  return out;
}

std::string games_text(const query::GameStats& s, std::uint32_t width) {
  std::string out;
  for (const auto& v : s.variants) {
    if (!out.empty()) out += '\n';
    out += games_text_one(v, false, width);
  }
  if (s.variants.size() > 1) {
    out += '\n';
    out += games_text_one(s.total, true, width);
  }
  if (out.empty()) out = "No games.\n";
  return out;
}

// --- endgames -------------------------------------------------------------------

// A balance (or, with no material, every balance of a variant) and the
// games of its variant that reach N men.
struct EndgameLine {
  const query::EndgameRow* row;  // null: the variant's total
  const ResultCounts& c;
  std::uint64_t reached;
};

const Schema<EndgameLine>& endgame_fields() {
  static const Schema<EndgameLine> fields = {
      {"balance",
       [](const EndgameLine& l) { return l.row ? string(l.row->material.to_string()) : string(""); }},
      {"men",
       [](const EndgameLine& l) {
         return l.row ? integer(std::uint64_t(l.row->material.men())) : Value::null();
       }},
      {"games", [](const EndgameLine& l) { return integer(l.c.games); }},
      {"pct", [](const EndgameLine& l) { return two(share(l.c.games, l.reached)); }},
      {"white_wins", [](const EndgameLine& l) { return integer(l.c.white_wins); }},
      {"draws", [](const EndgameLine& l) { return integer(l.c.draws); }},
      {"black_wins", [](const EndgameLine& l) { return integer(l.c.black_wins); }},
      {"unfinished", [](const EndgameLine& l) { return integer(l.c.unfinished); }},
      {"white_score_pct", [](const EndgameLine& l) { return two(query::white_score_percent(l.c)); }},
  };
  return fields;
}

std::string endgames_json(const query::EndgameStats& s) {
  std::vector<Value> variants;
  for (const auto& v : s.variants) {
    std::vector<Value> rows;
    for (const auto& r : v.rows) rows.push_back(endgame_fields().object({&r, r.results, v.reached}));
    const ResultCounts total = v.total();
    variants.push_back(Value::object({{"variant", string(info(v.variant).cli_name)},
                                      {"games", integer(v.games)},
                                      {"reached", integer(v.reached)},
                                      {"reached_pct", two(share(v.reached, v.games))},
                                      {"total", endgame_fields().object({nullptr, total, v.reached})},
                                      {"balances", Value::list(std::move(rows))}}));
  }
  return json(Members{{"men", integer(std::uint64_t(s.men))},
                      {"variants", Value::list(std::move(variants))}}) +
         '\n';
}

std::string endgames_csv(const query::EndgameStats& s) {
  std::vector<std::string> names = {"variant", "variant_games"};
  endgame_fields().append_names(names);
  std::string out = csv_line(names);
  for (const auto& v : s.variants) {
    auto row = [&](const EndgameLine& l) {
      std::vector<Value> values = {string(info(v.variant).cli_name), integer(v.games)};
      endgame_fields().append_values(l, values);
      out += csv_line(values);
    };
    const ResultCounts total = v.total();
    row({nullptr, total, v.reached});
    for (const auto& r : v.rows) row({&r, r.results, v.reached});
  }
  return out;
}

std::string endgames_text(const query::EndgameStats& s) {
  std::string out;
  for (const auto& v : s.variants) {
    if (!out.empty()) out += '\n';
    out += fmt::format("Endgames · {} · {} of {} games reach {} men or fewer ({}%)\n",
                       info(v.variant).cli_name, v.reached, v.games, s.men, one(percent(v.reached, v.games)));
    if (v.rows.empty()) continue;
    out += '\n';
    TextTable t({{"Balance", Align::Left},
                 {"Men"},
                 {"Games"},
                 {"%"},
                 {"1-0"},
                 {"½-½"},
                 {"0-1"},
                 {"*"},
                 {"Score"},
                 {"Results", Align::Left}});
    auto row = [&](std::string label, std::string men, const ResultCounts& c) {
      t.add({std::move(label), std::move(men), num(c.games), one(percent(c.games, v.reached)),
             num(c.white_wins), num(c.draws), num(c.black_wins), num(c.unfinished),
             text_opt(query::white_score_percent(c), "%"), result_bar(c.white_wins, c.draws, c.black_wins)});
    };
    for (const auto& r : v.rows) row(r.material.to_string(), num(std::uint64_t(r.material.men())), r.results);
    row("all", "", v.total());
    out += t.render();
  }
  if (out.empty()) return "No games.\n";
  out +=
      fmt::format("\nBalance: the material when a game first has {} men or fewer · Score: White's · ", s.men);
  out += kResultLegend;
  return out;
}

}  // namespace

std::string write_openings(const query::OpeningStats& s, Format format) {
  if (format == Format::Json) return openings_json(s);
  if (format == Format::Csv) return openings_csv(s);
  return openings_text(s);
}

std::string write_results(const query::ResultStats& s, Format format) {
  if (format == Format::Json) return results_json(s);
  if (format == Format::Csv) return results_csv(s);
  return results_text(s);
}

std::string write_promotions(const query::PromotionStats& s, Format format) {
  if (format == Format::Json) return promotions_json(s);
  if (format == Format::Csv) return promotions_csv(s);
  return promotions_text(s);
}

std::string write_endgames(const query::EndgameStats& s, Format format) {
  if (format == Format::Json) return endgames_json(s);
  if (format == Format::Csv) return endgames_csv(s);
  return endgames_text(s);
}

std::string write_games(const query::GameStats& s, std::uint32_t bin_width, Format format) {
  if (format == Format::Json) return games_json(s, bin_width);
  if (format == Format::Csv) return games_csv(s, bin_width);
  return games_text(s, bin_width);
}

// --- players -----------------------------------------------------------------

std::string write_players(const std::vector<analyse::PlayerSummary>& players, Format format) {
  using P = analyse::PlayerSummary;
  static const Schema<P> schema{
      {"player", [](const P& p) { return string(p.name); }},
      {"games", [](const P& p) { return integer(p.games); }},
      {"moves", [](const P& p) { return integer(p.moves.moves); }},
      {"unjudged", [](const P& p) { return integer(p.moves.unjudged); }},
      {"acpl",
       [](const P& p) {
         return p.moves.moves ? Value::number(p.moves.average_cp_loss(), 1) : Value::null();
       }},
      {"accuracy",
       [](const P& p) { return p.moves.moves ? Value::number(p.moves.accuracy(), 1) : Value::null(); }},
      {"inaccuracies", [](const P& p) { return integer(p.moves.inaccuracies); }},
      {"mistakes", [](const P& p) { return integer(p.moves.mistakes); }},
      {"blunders", [](const P& p) { return integer(p.moves.blunders); }},
  };
  if (format == Format::Csv) return schema.csv(players);
  if (format == Format::Json) {
    std::vector<Value> list;
    for (const P& p : players) list.push_back(schema.object(p));
    return json(Members{{"players", Value::list(std::move(list))}}) + '\n';
  }
  if (players.empty()) return "No games.\n";
  return schema.text_table({{"player", Align::Left, 40},
                            {"games", Align::Right},
                            {"moves", Align::Right},
                            {"unjudged", Align::Right},
                            {"acpl", Align::Right},
                            {"accuracy", Align::Right},
                            {"inaccuracies", Align::Right},
                            {"mistakes", Align::Right},
                            {"blunders", Align::Right}},
                           players);
}

}  // namespace virrey::cli
