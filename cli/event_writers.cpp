#include "event_writers.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "output.hpp"
#include "text_table.hpp"

namespace virrey::cli {

namespace {

namespace tn = tournament;
using Align = TextTable::Align;

// A report written out as it is made, in blocks: a large tournament's
// report is never held whole in memory.
class Sink {
 public:
  explicit Sink(std::FILE* file) : file_(file) {}
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;
  Sink& operator+=(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= kBlock) flush();
    return *this;
  }
  Sink& operator+=(char c) { return *this += std::string_view(&c, 1); }
  // False when some block was not written.
  bool flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
      ok_ = false;
    buffer_.clear();
    return ok_;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t(1) << 16;
  std::FILE* file_;
  std::string buffer_;
  bool ok_ = true;
};

std::string variant_title(const tn::Tournament& t) {
  if (t.variant_unknown) return "Unknown variant";
  switch (t.variant) {
    case Variant::Virrey: return "Virrey chess";
    case Variant::Modern: return "Modern chess";
    case Variant::Standard: break;
  }
  return "Standard chess";
}

std::string system_title(tn::System s) {
  switch (s) {
    case tn::System::RoundRobin: return "round robin";
    case tn::System::DoubleRoundRobin: return "double round robin";
    case tn::System::Swiss: return "Swiss";
    case tn::System::Knockout: return "knockout";
  }
  return "Swiss";
}

// Decimals a tie-break is shown with.
int decimals(tn::TieBreak tb) {
  switch (tb) {
    case tn::TieBreak::SonnebornBerger: return 2;
    case tn::TieBreak::DirectEncounter:
    case tn::TieBreak::Koya:
    case tn::TieBreak::Buchholz:
    case tn::TieBreak::BuchholzCut1:
    case tn::TieBreak::MedianBuchholz:
    case tn::TieBreak::Progressive: return 1;
    default: return 0;
  }
}

std::string value_text(const std::optional<double>& v, tn::TieBreak tb) {
  return v ? fmt::format("{:.{}f}", *v, decimals(tb)) : "-";
}

std::string points_text(int half) { return fmt::format("{:.1f}", half / 2.0); }

// "1", "½", "0" (or "+", "-", "=" without play).
std::string score_mark(const tn::Entry& e) {
  if (e.kind == tn::EntryKind::Pending) return "*";
  if (e.kind == tn::EntryKind::Forfeit) return e.half_points == 2 ? "+" : e.half_points == 1 ? "=" : "-";
  return e.half_points == 2 ? "1" : e.half_points == 1 ? "½" : "0";
}

// Every player's place in the standings (1-based, unique even where ranks
// are shared): how the crosstables name opponents.
std::vector<int> positions(const EventReport& r) {
  std::vector<int> out(r.tournament->players.size(), 0);
  for (std::size_t i = 0; i < r.standings.size(); ++i) out[std::size_t(r.standings[i].player)] = int(i) + 1;
  return out;
}

// The round-by-round cell of a Swiss table: opponent's place, colour, result.
std::string swiss_cell(const tn::Entry& e, const std::vector<int>& rank) {
  switch (e.kind) {
    case tn::EntryKind::Absent:
    case tn::EntryKind::Rest: return "-";
    case tn::EntryKind::Bye: return fmt::format("bye{}", score_mark(e));
    default: break;
  }
  return fmt::format("{}{}{}", rank[std::size_t(e.opponent)], *e.colour == Color::White ? 'w' : 'b', score_mark(e));
}

// The tournament's name as a title.
std::string event_title(const EventReport& r) {
  return r.label.empty() ? "(no Event tag)" : terminal_text(r.label);
}

std::string headline(const tn::Tournament& t) {
  std::string s = fmt::format("{} · {} · {} · {} · {}", variant_title(t), system_title(t.system),
                              count_of(std::uint64_t(t.rounds), "round"),
                              count_of(t.players.size(), "player"), count_of(t.games.size(), "game"));
  if (!tn::unknown_tag_value(t.key.site)) s += fmt::format(" · {}", t.key.site);
  if (!t.first_date.empty())
    s += t.first_date == t.last_date ? fmt::format(" · {}", t.first_date)
                                     : fmt::format(" · {} – {}", t.first_date, t.last_date);
  return terminal_text(s);
}

// The standings as rows of cells, with their titles.
struct StandingRows {
  std::vector<TextTable::Column> columns;
  std::vector<std::vector<std::string>> rows;
};

StandingRows standing_rows(const EventReport& r) {
  const tn::Tournament& t = *r.tournament;
  StandingRows out;
  out.columns = {{"Rank", Align::Right},  {"Player", Align::Left}, {"Title", Align::Left},
                 {"Fed", Align::Left},    {"Rating", Align::Right}, {"Games", Align::Right},
                 {"Points", Align::Right}};
  for (tn::TieBreak tb : r.order) out.columns.push_back({std::string(tn::tie_break_short(tb)), Align::Right});
  const bool has_tpr = std::find(r.order.begin(), r.order.end(), tn::TieBreak::Performance) != r.order.end();
  if (!has_tpr) out.columns.push_back({"TPR", Align::Right});
  for (const tn::Standing& s : r.standings) {
    const tn::Player& p = t.players[std::size_t(s.player)];
    std::vector<std::string> row = {std::to_string(s.rank), p.name, p.title, p.federation,
                                    p.rating ? std::to_string(*p.rating) : "-", std::to_string(p.games_played()),
                                    points_text(p.half_points)};
    for (std::size_t k = 0; k < r.order.size(); ++k) row.push_back(value_text(s.values[k], r.order[k]));
    if (!has_tpr) row.push_back(s.performance ? std::to_string(*s.performance) : "-");
    out.rows.push_back(std::move(row));
  }
  return out;
}

// The crosstable as rows of cells: a grid for round robins, rounds for Swiss.
StandingRows crosstable_rows(const EventReport& r) {
  const tn::Tournament& t = *r.tournament;
  const std::vector<int> rank = positions(r);
  StandingRows out;
  out.columns = {{"No", Align::Right}, {"Player", Align::Left}};
  const bool grid = tn::is_round_robin(t.system);
  // The rounds, then "?" for the games of no known round.
  std::vector<int> rounds = t.round_numbers;
  const bool unknown_round = std::any_of(t.players.begin(), t.players.end(), [](const tn::Player& p) {
    return std::any_of(p.entries.begin(), p.entries.end(), [](const tn::Entry& e) { return e.round == 0; });
  });
  if (unknown_round) rounds.push_back(0);
  // The column of a round among `rounds`; rounds.size() for none.
  auto round_column = [&](int round) {
    if (round == 0) return unknown_round ? rounds.size() - 1 : rounds.size();
    const auto it = std::lower_bound(t.round_numbers.begin(), t.round_numbers.end(), round);
    return it != t.round_numbers.end() && *it == round ? std::size_t(it - t.round_numbers.begin())
                                                       : rounds.size();
  };
  if (grid) {
    for (std::size_t j = 0; j < r.standings.size(); ++j) out.columns.push_back({std::to_string(j + 1), Align::Left});
  } else {
    for (int round : rounds) out.columns.push_back({round ? std::to_string(round) : "?", Align::Left});
  }
  out.columns.push_back({"Points", Align::Right});
  for (const tn::Standing& s : r.standings) {
    const tn::Player& p = t.players[std::size_t(s.player)];
    std::vector<std::string> row = {std::to_string(rank[std::size_t(s.player)]), p.name};
    // The player's cells, filled from the entries in one pass (in round order).
    const std::size_t first = row.size();
    if (grid) {
      // Every result against each other player, by their place.
      row.resize(first + r.standings.size());
      for (const tn::Entry& e : p.entries) {
        const int place = e.opponent >= 0 ? rank[std::size_t(e.opponent)] : 0;
        if (place > 0 && e.opponent != s.player) row[first + std::size_t(place - 1)] += score_mark(e);
      }
      if (const int own = rank[std::size_t(s.player)]; own > 0) row[first + std::size_t(own - 1)] = "X";
    } else {
      row.resize(first + rounds.size());
      for (const tn::Entry& e : p.entries) {
        const std::size_t column = round_column(e.round);
        if (column == rounds.size()) continue;
        std::string& cell = row[first + column];
        cell += fmt::format("{}{}", cell.empty() ? "" : " ", swiss_cell(e, rank));
      }
    }
    row.push_back(points_text(p.half_points));
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string match_games(const tn::Tournament& t, const tn::Match& m) {
  std::string s;
  for (std::size_t gi : m.games) {
    const tn::TournamentGame& g = t.games[gi];
    // The result from the first-named player's side.
    const bool a_white = g.white == m.a;
    std::string r = g.result == GameResult::Draw ? "½-½"
                    : g.result == GameResult::Unknown ? "*"
                    : (g.result == GameResult::WhiteWins) == a_white ? "1-0" : "0-1";
    if (!g.played && g.result != GameResult::Unknown) r += " (forfeit)";
    s += fmt::format("{}{}", s.empty() ? "" : ", ", r);
  }
  return s;
}

std::string half_text(int half) {
  return half % 2 ? (half == 1 ? "½" : fmt::format("{}½", half / 2)) : std::to_string(half / 2);
}

std::string html_escape(std::string_view text) {
  // Most cells are plain ASCII with nothing to escape: kept as they are.
  if (std::all_of(text.begin(), text.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x80 && c != '&' && c != '<' && c != '>' && c != '"' &&
               c != '\'';
      }))
    return std::string(text);
  const std::string s = as_utf8(text);  // the page declares UTF-8
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void html_table(Sink& out, std::string_view id, std::string_view cls, const StandingRows& rows) {
  out += fmt::format("<table id=\"{}\" class=\"{}\">\n<thead><tr>", id, cls);
  for (const auto& c : rows.columns) out += fmt::format("<th>{}</th>", html_escape(c.title));
  out += "</tr></thead>\n<tbody>\n";
  std::string line;
  for (const auto& row : rows.rows) {
    line = "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += rows.columns[i].align == Align::Right ? "<td class=\"n\">" : "<td>";
      line += html_escape(row[i]);
      line += "</td>";
    }
    line += "</tr>\n";
    out += line;
  }
  out += "</tbody>\n</table>\n";
}

StandingRows match_rows(const tn::Tournament& t) {
  StandingRows out;
  out.columns = {{"Round", Align::Right}, {"Player", Align::Left}, {"Score", Align::Left},
                 {"Player", Align::Left}, {"Games", Align::Left},  {"Winner", Align::Left}};
  for (const tn::Match& m : tn::knockout_matches(t)) {
    out.rows.push_back({std::to_string(m.round), t.players[std::size_t(m.a)].name,
                        fmt::format("{}-{}", half_text(m.a_half), half_text(m.b_half)),
                        t.players[std::size_t(m.b)].name, match_games(t, m),
                        m.winner < 0 ? std::string("level")
                        : m.level()  ? t.players[std::size_t(m.winner)].name + " (plays on)"
                                     : t.players[std::size_t(m.winner)].name});
  }
  return out;
}

std::string render(const StandingRows& rows) {
  TextTable table(rows.columns);
  for (const auto& row : rows.rows) table.add(row);
  return table.render();
}

// One result of a player as JSON: the object README "virrey event" gives,
// written straight out (a player has one per round).
void append_entry_json(std::string& out, const tn::Tournament& t, const tn::Entry& e,
                       const std::vector<int>& rank) {
  out += "{\"round\":";
  out += e.round ? std::to_string(e.round) : "null";
  if (e.sub_game) out += ",\"game\":" + std::to_string(e.sub_game);
  out += ",\"opponent\":";
  out += e.opponent >= 0 ? json_string(t.players[std::size_t(e.opponent)].name) : "null";
  out += ",\"opponent_position\":";
  out += e.opponent >= 0 ? std::to_string(rank[std::size_t(e.opponent)]) : "null";
  out += ",\"colour\":";
  out += e.colour ? (*e.colour == Color::White ? "\"white\"" : "\"black\"") : "null";
  out += ",\"score\":";
  out += e.counted() ? fmt::format("{:.1f}", e.half_points / 2.0) : "null";
  out += ",\"kind\":";
  out += json_string(tn::entry_kind_name(e.kind));
  out += '}';
}

}  // namespace

bool write_event_text(const std::vector<EventReport>& reports, std::FILE* file) {
  Sink out(file);
  if (reports.empty()) out += "no tournament: the input holds no games\n";
  for (const EventReport& r : reports) {
    const tn::Tournament& t = *r.tournament;
    if (&r != &reports.front()) out += '\n';
    out += event_title(r) + '\n';
    out += headline(t) + "\n\n";
    out += render(standing_rows(r));
    if (t.system == tn::System::Knockout) {
      out += "\nMatches\n";
      out += render(match_rows(t));
    } else {
      out += t.system == tn::System::Swiss ? "\nRound by round (opponent's number, colour, result)\n" : "\nCrosstable\n";
      out += render(crosstable_rows(r));
    }
  }
  return out.flush();
}

bool write_event_json(const std::vector<EventReport>& reports, std::FILE* file) {
  Sink out(file);
  out += "{\"tournaments\":[";
  for (const EventReport& r : reports) {
    const tn::Tournament& t = *r.tournament;
    const std::vector<int> rank = positions(r);
    if (&r != &reports.front()) out += ',';
    // The tournament's members before its players, then each player as it is made.
    std::vector<Value> order;
    for (tn::TieBreak tb : r.order) order.push_back(Value::string(tn::tie_break_name(tb)));
    const Members m = {{"event", Value::string(t.key.event)},
                       {"site", Value::string_or_null(tn::unknown_tag_value(t.key.site) ? "" : t.key.site)},
                       {"event_date", Value::string_or_null(
                                          tn::unknown_tag_value(t.key.event_date) ? "" : t.key.event_date)},
                       {"variant", Value::string(t.variant_unknown ? "unknown" : info(t.variant).cli_name)},
                       {"system", Value::string(tn::system_name(t.system))},
                       {"rounds", Value::integer(t.rounds)},
                       {"games", Value::integer(t.games.size())},
                       {"tiebreak_order", Value::list(std::move(order))}};
    std::string head = json(m);
    head.back() = ',';  // the object goes on
    out += head;
    out += "\"players\":[";
    for (const tn::Standing& s : r.standings) {
      const tn::Player& p = t.players[std::size_t(s.player)];
      Members tb;
      for (std::size_t k = 0; k < r.order.size(); ++k)
        tb.push_back({std::string(tn::tie_break_name(r.order[k])), Value::number(s.values[k], decimals(r.order[k]))});
      if (&s != &r.standings.front()) out += ',';
      // The player's members, then the results (the last member) one by one.
      std::string player = json(Value::object({{"rank", Value::integer(s.rank)},
                                               {"position", Value::integer(rank[std::size_t(s.player)])},
                                               {"name", Value::string(p.name)},
                                               {"title", Value::string_or_null(p.title)},
                                               {"federation", Value::string_or_null(p.federation)},
                                               {"fide_id", Value::string_or_null(p.fide_id)},
                                               {"rating", Value::integer(p.rating)},
                                               {"games", Value::integer(p.games_played())},
                                               {"points", Value::number(p.points(), 1)},
                                               {"tiebreaks", Value::object(std::move(tb))},
                                               {"average_rating", Value::integer(s.average_rating)},
                                               {"performance", Value::integer(s.performance)}}));
      player.back() = ',';
      player += "\"results\":[";
      for (const tn::Entry& e : p.entries) {
        if (&e != &p.entries.front()) player += ',';
        append_entry_json(player, t, e, rank);
      }
      player += "]}";
      out += player;
    }
    out += ']';
    if (t.system == tn::System::Knockout) {
      std::vector<Value> matches;
      for (const tn::Match& mt : tn::knockout_matches(t))
        matches.push_back(Value::object(
            {{"round", Value::integer(mt.round)},
             {"players", Value::list({Value::string(t.players[std::size_t(mt.a)].name),
                                      Value::string(t.players[std::size_t(mt.b)].name)})},
             {"score", Value::list({Value::number(mt.a_half / 2.0, 1), Value::number(mt.b_half / 2.0, 1)})},
             {"games", Value::integer(mt.games.size())},
             {"winner",
              mt.winner >= 0 ? Value::string(t.players[std::size_t(mt.winner)].name) : Value::null()},
             {"level", Value::boolean(mt.level())}}));
      out += ",\"matches\":";
      out += json(Value::list(std::move(matches)));
    }
    out += '}';
  }
  out += "]}\n";
  return out.flush();
}

bool write_event_csv(const std::vector<EventReport>& reports, std::FILE* file) {
  Sink out(file);
  // One header for all tournaments: every tournament's tie-breaks, in the
  // order first met; a row leaves those of other tournaments empty.
  std::vector<std::string> names = {"event", "rank", "name", "title", "federation", "rating", "games", "points"};
  std::vector<tn::TieBreak> order;
  for (const EventReport& r : reports)
    for (tn::TieBreak tb : r.order)
      if (std::find(order.begin(), order.end(), tb) == order.end()) order.push_back(tb);
  for (tn::TieBreak tb : order) names.push_back(std::string(tn::tie_break_name(tb)));
  const bool has_tpr = std::find(order.begin(), order.end(), tn::TieBreak::Performance) != order.end();
  if (!has_tpr) names.push_back("performance");
  out += csv_line(names);
  for (const EventReport& r : reports) {
    const tn::Tournament& t = *r.tournament;
    for (const tn::Standing& s : r.standings) {
      const tn::Player& p = t.players[std::size_t(s.player)];
      std::vector<Value> row = {Value::string(r.label),
                                Value::integer(s.rank),
                                Value::string(p.name),
                                Value::string_or_null(p.title),
                                Value::string_or_null(p.federation),
                                Value::integer(p.rating),
                                Value::integer(p.games_played()),
                                Value::number(p.points(), 1)};
      for (tn::TieBreak tb : order) {
        const auto it = std::find(r.order.begin(), r.order.end(), tb);
        if (it != r.order.end())
          row.push_back(Value::number(s.values[std::size_t(it - r.order.begin())], decimals(tb)));
        else  // performance is known whether it breaks ties or not
          row.push_back(tb == tn::TieBreak::Performance ? Value::integer(s.performance) : Value::null());
      }
      if (!has_tpr) row.push_back(Value::integer(s.performance));
      out += csv_line(row);
    }
  }
  return out.flush();
}

bool write_event_html(const std::vector<EventReport>& reports, std::FILE* file) {
  Sink out(file);
  std::string title = reports.size() == 1 ? reports.front().label : "Tournaments";
  out += fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n"
      "body{{font-family:system-ui,sans-serif;margin:2em;color:#222;background:#fff}}\n"
      "h1{{margin-bottom:0.2em}} .meta{{color:#555;margin-top:0}}\n"
      "table{{border-collapse:collapse;margin:0.5em 0 1.5em}}\n"
      "th,td{{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;white-space:nowrap}}\n"
      "th{{background:#f0f0f0}} td.n{{text-align:right;font-variant-numeric:tabular-nums}}\n"
      "tbody tr:nth-child(even){{background:#fafafa}}\n"
      "section.player{{display:inline-block;vertical-align:top;margin-right:2em}}\n"
      "h3{{margin:0.5em 0 0.2em;font-size:1em}}\n"
      "</style>\n</head>\n<body>\n",
      html_escape(title));
  for (std::size_t k = 0; k < reports.size(); ++k) {
    const EventReport& r = reports[k];
    const tn::Tournament& t = *r.tournament;
    const std::vector<int> rank = positions(r);
    out += fmt::format("<article id=\"t{}\">\n<h1>{}</h1>\n<p class=\"meta\">{}</p>\n", k,
                       html_escape(event_title(r)), html_escape(headline(t)));
    out += "<h2>Standings</h2>\n";
    html_table(out, fmt::format("standings-{}", k), "standings", standing_rows(r));
    if (t.system == tn::System::Knockout) {
      out += "<h2>Matches</h2>\n";
      html_table(out, fmt::format("crosstable-{}", k), "matches", match_rows(t));
    } else {
      out += fmt::format("<h2>{}</h2>\n", t.system == tn::System::Swiss ? "Round by round" : "Crosstable");
      html_table(out, fmt::format("crosstable-{}", k), "crosstable", crosstable_rows(r));
    }
    out += "<h2>Games by player</h2>\n";
    for (const tn::Standing& s : r.standings) {
      const tn::Player& p = t.players[std::size_t(s.player)];
      StandingRows games;
      games.columns = {{"Round", Align::Right}, {"Colour", Align::Left}, {"Opponent", Align::Left},
                       {"Result", Align::Left}, {"Moves", Align::Right}};
      for (const tn::Entry& e : p.entries) {
        std::string moves = "-";
        if (e.game != SIZE_MAX) moves = std::to_string(((*r.summaries)[t.games[e.game].summary].plies + 1) / 2);
        games.rows.push_back({e.round ? std::to_string(e.round) : "?",
                              e.colour ? (*e.colour == Color::White ? "White" : "Black") : "-",
                              e.opponent >= 0 ? t.players[std::size_t(e.opponent)].name
                                              : std::string(tn::entry_kind_name(e.kind)),
                              e.kind == tn::EntryKind::Played
                                  ? score_mark(e)
                                  : fmt::format("{} ({})", score_mark(e), tn::entry_kind_name(e.kind)),
                              moves});
      }
      out += fmt::format("<section class=\"player\" id=\"p{}-{}\">\n<h3>{}. {}</h3>\n", k,
                         rank[std::size_t(s.player)], s.rank, html_escape(p.name));
      html_table(out, fmt::format("games-{}-{}", k, s.player), "games", games);
      out += "</section>\n";
    }
    out += "</article>\n";
  }
  out += "</body>\n</html>\n";
  return out.flush();
}

}  // namespace virrey::cli
