#include "stats_writers.hpp"

#include <fmt/format.h>

#include "json_text.hpp"
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
std::string two(double v) { return fmt::format("{:.2f}", v); }
std::string json_opt(std::optional<double> v) { return v ? two(*v) : "null"; }
std::string csv_opt(std::optional<double> v) { return v ? two(*v) : ""; }
std::string text_opt(std::optional<double> v, std::string_view unit = "") {
  return v ? one(*v) + std::string(unit) : "-";
}
std::string num(std::uint64_t v) { return fmt::format("{}", v); }

std::string_view colour_name(Color c) { return c == Color::White ? "white" : "black"; }
std::string file_name(int file) { return std::string(1, char('a' + file)); }
std::string piece_code(PieceType p) { return std::string(1, piece_letter(p)); }
std::string_view piece_name(PieceType p) {
  switch (p) {
    case PieceType::Queen:
      return "queen";
    case PieceType::Rook:
      return "rook";
    case PieceType::Bishop:
      return "bishop";
    case PieceType::Knight:
      return "knight";
    case PieceType::Viceroy:
      return "viceroy";
    case PieceType::Minister:
      return "minister";
    case PieceType::King:
      return "king";
    case PieceType::Pawn:
      return "pawn";
    case PieceType::None:
      break;
  }
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
  std::uint64_t parent;  // games of the parent position
  Color mover;
  int fullmove;
  std::string line;  // SAN from the root, this move included
};

void collect_rows(const std::vector<query::OpeningMove>& moves, int depth, std::uint64_t parent, Color mover,
                  int fullmove, const std::string& line, std::vector<MoveRow>& out) {
  for (const auto& m : moves) {
    const std::string here = line.empty() ? m.san : line + " " + m.san;
    out.push_back({&m, depth, parent, mover, fullmove, here});
    collect_rows(m.children, depth + 1, m.counters.games, ~mover,
                 mover == Color::Black ? fullmove + 1 : fullmove, here, out);
  }
}

std::vector<MoveRow> opening_rows(const query::OpeningStats& s) {
  std::vector<MoveRow> rows;
  collect_rows(s.moves, 1, s.total.games, s.side_to_move, s.fullmove, "", rows);
  return rows;
}

std::string move_fields_json(const TreeCounters& c, std::uint64_t parent, Color mover) {
  return fmt::format(
      "\"games\":{},\"share_pct\":{},\"white_wins\":{},\"draws\":{},\"black_wins\":{},\"unfinished\":{},"
      "\"white_pct\":{},\"draw_pct\":{},\"black_pct\":{},\"score_pct\":{},\"avg_white_elo\":{},"
      "\"avg_black_elo\":{},\"last_date\":{}",
      c.games, two(percent(c.games, parent)), c.white_wins, c.draws, c.black_wins,
      c.games - c.white_wins - c.draws - c.black_wins, two(percent(c.white_wins, c.games)),
      two(percent(c.draws, c.games)), two(percent(c.black_wins, c.games)),
      json_opt(query::mover_score_percent(c, mover)), json_opt(query::average_white_elo(c)),
      json_opt(query::average_black_elo(c)),
      c.last_date ? json_string(query::date_text(c.last_date)) : "null");
}

void moves_json(const std::vector<query::OpeningMove>& moves, std::uint64_t parent, Color mover,
                std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto& m = moves[i];
    if (i) out += ',';
    out += fmt::format("{{\"san\":{},\"uci\":{},{}", json_string(m.san), json_string(m.uci),
                       move_fields_json(m.counters, parent, mover));
    if (!m.children.empty()) {
      out += ",\"children\":";
      moves_json(m.children, m.counters.games, ~mover, out);
    }
    out += '}';
  }
  out += ']';
}

std::string openings_json(const query::OpeningStats& s) {
  std::string line = "[";
  for (std::size_t i = 0; i < s.line.size(); ++i) {
    if (i) line += ',';
    line += json_string(s.line[i]);
  }
  line += ']';
  std::string out = fmt::format(
      "{{\"variant\":{},\"fen\":{},\"line\":{},\"side_to_move\":\"{}\",\"source\":\"{}\","
      "\"games_replayed\":{},\"total\":{{{}}},\"moves\":",
      json_string(info(s.variant).cli_name), json_string(s.fen), line, colour_name(s.side_to_move),
      query::opening_source_name(s.source), s.games_replayed,
      move_fields_json(s.total, s.total.games, s.side_to_move));
  moves_json(s.moves, s.total.games, s.side_to_move, out);
  return out + "}\n";
}

std::string openings_csv(const query::OpeningStats& s) {
  std::string out =
      "depth,line,san,uci,games,share_pct,white_wins,draws,black_wins,unfinished,white_pct,draw_pct,"
      "black_pct,score_pct,avg_white_elo,avg_black_elo,last_date\n";
  for (const MoveRow& r : opening_rows(s)) {
    const TreeCounters& c = r.move->counters;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.depth, csv_field(r.line),
                       csv_field(r.move->san), r.move->uci, c.games, two(percent(c.games, r.parent)),
                       c.white_wins, c.draws, c.black_wins, c.games - c.white_wins - c.draws - c.black_wins,
                       two(percent(c.white_wins, c.games)), two(percent(c.draws, c.games)),
                       two(percent(c.black_wins, c.games)), csv_opt(query::mover_score_percent(c, r.mover)),
                       csv_opt(query::average_white_elo(c)), csv_opt(query::average_black_elo(c)),
                       query::date_text(c.last_date));
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
  if (!s.line.empty()) {
    out += "After:";
    for (const auto& san : s.line) {
      out += ' ';
      out += san;
    }
    out += '\n';
  }
  out += fmt::format("{} to move\n\n", s.side_to_move == Color::White ? "White" : "Black");
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
        fmt::format("{}{}{}", r.fullmove, r.mover == Color::White ? "." : "...", r.move->san);
    t.add(opening_cells(label, r.move->counters, r.parent, r.mover));
  }
  t.add(opening_cells("all moves", s.total, s.total.games, s.side_to_move));
  out += t.render();
  out += "\n%: share of the games of the position above · Score: for the side that moves · ";
  out += kResultLegend;
  return out;
}

// --- results ------------------------------------------------------------------

std::string counts_json(const ResultCounts& c) {
  return fmt::format(
      "\"games\":{},\"white_wins\":{},\"draws\":{},\"black_wins\":{},\"unfinished\":{},\"white_pct\":{},"
      "\"draw_pct\":{},\"black_pct\":{},\"unfinished_pct\":{},\"decisive_pct\":{},\"avg_plies\":{}",
      c.games, c.white_wins, c.draws, c.black_wins, c.unfinished, two(percent(c.white_wins, c.games)),
      two(percent(c.draws, c.games)), two(percent(c.black_wins, c.games)),
      two(percent(c.unfinished, c.games)), two(query::decisive_percent(c)), two(query::average_plies(c)));
}

std::string counts_csv(const ResultCounts& c) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{}", c.games, c.white_wins, c.draws, c.black_wins,
                     c.unfinished, two(percent(c.white_wins, c.games)), two(percent(c.draws, c.games)),
                     two(percent(c.black_wins, c.games)), two(percent(c.unfinished, c.games)),
                     two(query::decisive_percent(c)), two(query::average_plies(c)));
}

std::optional<double> player_score(const query::PlayerScore& p) {
  return query::score_percent(p.wins, p.draws, p.losses);
}

std::string results_json(const query::ResultStats& s) {
  std::string out = fmt::format("{{\"by\":\"{}\",\"total\":{{{}}},\"group_count\":{},\"groups\":[",
                                query::grouping_name(s.by), counts_json(s.total), s.group_count);
  for (std::size_t i = 0; i < s.groups.size(); ++i) {
    const auto& g = s.groups[i];
    out += fmt::format("{}{{\"key\":{},\"label\":{},{}", i ? "," : "", json_string(g.key),
                       json_string(g.label), counts_json(g.counts));
    if (g.player)
      out += fmt::format(
          ",\"player\":{{\"as_white\":{},\"as_black\":{},\"wins\":{},\"draws\":{},\"losses\":{},"
          "\"unfinished\":{},\"score_pct\":{}}}",
          g.player->as_white, g.player->as_black, g.player->wins, g.player->draws, g.player->losses,
          g.player->unfinished, json_opt(player_score(*g.player)));
    out += '}';
  }
  return out + "]}\n";
}

std::string results_csv(const query::ResultStats& s) {
  std::string out =
      "by,key,label,games,white_wins,draws,black_wins,unfinished,white_pct,draw_pct,black_pct,"
      "unfinished_pct,decisive_pct,avg_plies,player_as_white,player_as_black,player_wins,player_draws,"
      "player_losses,player_unfinished,player_score_pct\n";
  out += fmt::format("total,,all,{},,,,,,,\n", counts_csv(s.total));
  for (const auto& g : s.groups) {
    out += fmt::format("{},{},{},{},", query::grouping_name(s.by), csv_field(g.key), csv_field(g.label),
                       counts_csv(g.counts));
    if (g.player)
      out += fmt::format("{},{},{},{},{},{},{}\n", g.player->as_white, g.player->as_black, g.player->wins,
                         g.player->draws, g.player->losses, g.player->unfinished,
                         csv_opt(player_score(*g.player)));
    else
      out += ",,,,,,\n";
  }
  return out;
}

std::string results_text(const query::ResultStats& s) {
  std::string out = fmt::format("Results · {} games", s.total.games);
  if (s.by != query::ResultGrouping::None)
    out += fmt::format(" · by {} ({} groups{})", query::grouping_name(s.by), s.group_count,
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
    std::vector<std::string> cells = {std::move(label),
                                      num(c.games),
                                      one(percent(c.games, s.total.games)),
                                      num(c.white_wins),
                                      num(c.draws),
                                      num(c.black_wins),
                                      num(c.unfinished),
                                      one(percent(c.white_wins, c.games)),
                                      one(percent(c.draws, c.games)),
                                      one(percent(c.black_wins, c.games)),
                                      one(percent(c.unfinished, c.games)),
                                      one(query::decisive_percent(c)) + "%",
                                      one(query::average_plies(c))};
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

std::string promotions_json(const query::PromotionStats& s) {
  std::string out = "{\"variants\":[";
  for (std::size_t i = 0; i < s.variants.size(); ++i) {
    const auto& v = s.variants[i];
    const auto& vc = v.viceroy;
    out += fmt::format(
        "{}{{\"variant\":{},\"games\":{},\"promotions\":{},\"games_with_promotion\":{},"
        "\"games_with_promotion_pct\":{},\"max_in_game\":{},\"by_piece\":[",
        i ? "," : "", json_string(info(v.variant).cli_name), v.games, v.promotions, v.games_with_promotion,
        two(percent(v.games_with_promotion, v.games)), v.max_in_game);
    bool first = true;
    for (PieceType p : v.pieces()) {
      std::uint64_t captured = 0, mate = 0;
      for (const auto& c : v.cells)
        if (c.piece == p) captured += c.captured_later, mate += c.gave_mate;
      out += fmt::format(
          "{}{{\"piece\":\"{}\",\"white\":{},\"black\":{},\"total\":{},\"pct\":{},\"captured_later\":{},"
          "\"gave_mate\":{}}}",
          first ? "" : ",", piece_code(p), v.by_piece(p, Color::White), v.by_piece(p, Color::Black),
          v.by_piece(p), two(percent(v.by_piece(p), v.promotions)), captured, mate);
      first = false;
    }
    out += "],\"by_file\":[";
    for (int f = 0; f < v.files(); ++f)
      out += fmt::format("{}{{\"file\":\"{}\",\"white\":{},\"black\":{},\"total\":{},\"pct\":{}}}",
                         f ? "," : "", file_name(f), v.by_file(f, Color::White), v.by_file(f, Color::Black),
                         v.by_file(f), two(percent(v.by_file(f), v.promotions)));
    out += fmt::format("],\"by_colour\":{{\"white\":{},\"black\":{}}},\"cells\":[", v.by_colour(Color::White),
                       v.by_colour(Color::Black));
    for (std::size_t k = 0; k < v.cells.size(); ++k) {
      const auto& c = v.cells[k];
      out += fmt::format(
          "{}{{\"piece\":\"{}\",\"colour\":\"{}\",\"file\":\"{}\",\"count\":{},\"captured_later\":{},"
          "\"gave_mate\":{}}}",
          k ? "," : "", piece_code(c.piece), colour_name(c.colour), file_name(c.file), c.count,
          c.captured_later, c.gave_mate);
    }
    out += fmt::format(
        "],\"viceroy\":{{\"promotions\":{},\"games\":{},\"games_pct\":{},\"max_in_game\":{},\"max_game\":{},"
        "\"avg_first_ply\":{},\"first_by_white\":{},\"first_by_black\":{},\"first_wins\":{},"
        "\"first_draws\":{},\"first_losses\":{},\"first_unfinished\":{},\"first_score_pct\":{},"
        "\"captured_later\":{},\"captured_later_pct\":{},\"gave_mate\":{},\"gave_mate_pct\":{}}}}}",
        vc.promotions, vc.games, two(percent(vc.games, v.games)), vc.max_in_game,
        vc.max_game ? num(vc.max_game) : "null",
        vc.games ? two(query::average_first_viceroy_ply(vc)) : "null", vc.first_by_white, vc.first_by_black,
        vc.first_wins, vc.first_draws, vc.first_losses, vc.first_unfinished,
        json_opt(query::first_viceroy_score_percent(vc)), vc.captured_later,
        two(percent(vc.captured_later, vc.promotions)), vc.gave_mate,
        two(percent(vc.gave_mate, vc.promotions)));
  }
  return out + "]}\n";
}

std::string promotions_csv(const query::PromotionStats& s) {
  std::string out = "variant,figure,piece,colour,file,value\n";
  for (const auto& v : s.variants) {
    const std::string_view name = info(v.variant).cli_name;
    auto row = [&](std::string_view figure, std::string_view piece, std::string_view colour,
                   std::string_view file, const std::string& value) {
      out += fmt::format("{},{},{},{},{},{}\n", name, figure, piece, colour, file, value);
    };
    row("games", "", "", "", num(v.games));
    row("promotions", "", "", "", num(v.promotions));
    row("games_with_promotion", "", "", "", num(v.games_with_promotion));
    row("max_in_game", "", "", "", num(v.max_in_game));
    for (Color c : {Color::White, Color::Black}) row("count", "", colour_name(c), "", num(v.by_colour(c)));
    for (PieceType p : v.pieces()) {
      std::uint64_t captured = 0, mate = 0;
      for (const auto& c : v.cells)
        if (c.piece == p) captured += c.captured_later, mate += c.gave_mate;
      row("count", piece_code(p), "", "", num(v.by_piece(p)));
      row("captured_later", piece_code(p), "", "", num(captured));
      row("gave_mate", piece_code(p), "", "", num(mate));
      for (Color c : {Color::White, Color::Black})
        row("count", piece_code(p), colour_name(c), "", num(v.by_piece(p, c)));
    }
    for (int f = 0; f < v.files(); ++f) {
      row("count", "", "", file_name(f), num(v.by_file(f)));
      for (Color c : {Color::White, Color::Black})
        row("count", "", colour_name(c), file_name(f), num(v.by_file(f, c)));
    }
    for (const auto& c : v.cells) {
      row("count", piece_code(c.piece), colour_name(c.colour), file_name(c.file), num(c.count));
      row("captured_later", piece_code(c.piece), colour_name(c.colour), file_name(c.file),
          num(c.captured_later));
      row("gave_mate", piece_code(c.piece), colour_name(c.colour), file_name(c.file), num(c.gave_mate));
    }
    const auto& vc = v.viceroy;
    row("viceroy_promotions", "V", "", "", num(vc.promotions));
    row("viceroy_games", "V", "", "", num(vc.games));
    row("viceroy_max_in_game", "V", "", "", num(vc.max_in_game));
    row("viceroy_max_game", "V", "", "", vc.max_game ? num(vc.max_game) : "");
    row("viceroy_avg_first_ply", "V", "", "", vc.games ? two(query::average_first_viceroy_ply(vc)) : "");
    row("viceroy_first_by", "V", "white", "", num(vc.first_by_white));
    row("viceroy_first_by", "V", "black", "", num(vc.first_by_black));
    row("viceroy_first_wins", "V", "", "", num(vc.first_wins));
    row("viceroy_first_draws", "V", "", "", num(vc.first_draws));
    row("viceroy_first_losses", "V", "", "", num(vc.first_losses));
    row("viceroy_first_unfinished", "V", "", "", num(vc.first_unfinished));
    row("viceroy_first_score_pct", "V", "", "", csv_opt(query::first_viceroy_score_percent(vc)));
    row("viceroy_captured_later", "V", "", "", num(vc.captured_later));
    row("viceroy_gave_mate", "V", "", "", num(vc.gave_mate));
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
      std::uint64_t captured = 0, mate = 0;
      for (const auto& c : v.cells)
        if (c.piece == p) captured += c.captured_later, mate += c.gave_mate;
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
    std::string table = t.render("  ");
    out += table.substr(table.find('\n') + 1);  // no title line
  }
  if (out.empty()) out = "No games.\n";
  return out;
}

// --- games ----------------------------------------------------------------------

constexpr store::Ending kEndings[] = {store::Ending::Checkmate, store::Ending::Stalemate,
                                      store::Ending::Other};
constexpr GameResult kOutcomes[] = {GameResult::WhiteWins, GameResult::Draw,
                                           GameResult::BlackWins, GameResult::Unknown};

struct Quantile {
  std::string_view name;
  double q;
};
constexpr Quantile kQuantiles[] = {
    {"p10", 0.10}, {"p25", 0.25}, {"median", 0.50}, {"p75", 0.75}, {"p90", 0.90}};

std::string variant_label(const query::VariantGameStats& v, bool total) {
  return total ? "all" : std::string(info(v.variant).cli_name);
}

std::string games_json_one(const query::VariantGameStats& v, bool total, std::uint32_t width) {
  std::string out =
      fmt::format("{{\"variant\":{},\"games\":{},\"results\":{{{}}},\"endings\":[",
                  json_string(variant_label(v, total)), v.results.games, counts_json(v.results));
  for (std::size_t i = 0; i < std::size(kEndings); ++i) {
    const auto& r = v.endings[std::size_t(kEndings[i])];
    const std::uint64_t n = v.ending_count(kEndings[i]);
    out += fmt::format(
        "{}{{\"ending\":\"{}\",\"games\":{},\"pct\":{},\"white_wins\":{},\"draws\":{},\"black_wins\":{},"
        "\"unfinished\":{}}}",
        i ? "," : "", query::ending_name(kEndings[i]), n, two(percent(n, v.results.games)),
        r[std::size_t(GameResult::WhiteWins)], r[std::size_t(GameResult::Draw)],
        r[std::size_t(GameResult::BlackWins)], r[std::size_t(GameResult::Unknown)]);
  }
  const auto& d = v.lengths;
  out += fmt::format("],\"length\":{{\"mean\":{},\"min\":{}", two(d.mean()), d.min());
  for (const auto& q : kQuantiles) out += fmt::format(",\"{}\":{}", q.name, d.quantile(q.q));
  out += fmt::format(",\"max\":{},\"histogram\":[", d.max());
  const auto bins = query::length_histogram(d, width);
  for (std::size_t i = 0; i < bins.size(); ++i)
    out += fmt::format("{}{{\"from\":{},\"to\":{},\"games\":{},\"pct\":{}}}", i ? "," : "", bins[i].from,
                       bins[i].to, bins[i].games, two(percent(bins[i].games, d.games())));
  return out + "]}}";
}

std::string games_json(const query::GameStats& s, std::uint32_t width) {
  std::string out = fmt::format("{{\"bin_width\":{},\"variants\":[", width);
  for (std::size_t i = 0; i < s.variants.size(); ++i) {
    if (i) out += ',';
    out += games_json_one(s.variants[i], false, width);
  }
  return out + "],\"total\":" + games_json_one(s.total, true, width) + "}\n";
}

void games_csv_one(const query::VariantGameStats& v, bool total, std::uint32_t width, std::string& out) {
  const std::string name = variant_label(v, total);
  auto row = [&](std::string_view figure, const std::string& key, const std::string& value) {
    out += fmt::format("{},{},{},{}\n", name, figure, key, value);
  };
  row("games", "", num(v.results.games));
  for (auto o : kOutcomes) {
    std::uint64_t n = 0;
    for (const auto& e : v.endings) n += e[std::size_t(o)];
    row("result", std::string(result_text(o)), num(n));
  }
  for (auto e : kEndings) {
    row("ending", std::string(query::ending_name(e)), num(v.ending_count(e)));
    for (auto o : kOutcomes)
      row("ending_result", fmt::format("{}/{}", query::ending_name(e), result_text(o)),
          num(v.endings[std::size_t(e)][std::size_t(o)]));
  }
  const auto& d = v.lengths;
  row("length_mean", "", two(d.mean()));
  row("length_min", "", num(d.min()));
  for (const auto& q : kQuantiles) row(fmt::format("length_{}", q.name), "", num(d.quantile(q.q)));
  row("length_max", "", num(d.max()));
  for (const auto& b : query::length_histogram(d, width))
    row("length_bin", fmt::format("{}-{}", b.from, b.to), num(b.games));
}

std::string games_csv(const query::GameStats& s, std::uint32_t width) {
  std::string out = "variant,figure,key,value\n";
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
    endings.add(
        {std::string(query::ending_name(e)), num(n), one(percent(n, v.results.games)),
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

}  // namespace

std::string write_openings(const query::OpeningStats& s, std::string_view format) {
  if (format == "json") return openings_json(s);
  if (format == "csv") return openings_csv(s);
  return openings_text(s);
}

std::string write_results(const query::ResultStats& s, std::string_view format) {
  if (format == "json") return results_json(s);
  if (format == "csv") return results_csv(s);
  return results_text(s);
}

std::string write_promotions(const query::PromotionStats& s, std::string_view format) {
  if (format == "json") return promotions_json(s);
  if (format == "csv") return promotions_csv(s);
  return promotions_text(s);
}

std::string write_games(const query::GameStats& s, std::uint32_t bin_width, std::string_view format) {
  if (format == "json") return games_json(s, bin_width);
  if (format == "csv") return games_csv(s, bin_width);
  return games_text(s, bin_width);
}

}  // namespace virrey::cli
