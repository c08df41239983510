#include "virrey/tournament/trf.hpp"

#include "virrey/base/utf8.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "text.hpp"

namespace virrey::tournament {

namespace {

std::size_t code_points(std::string_view s) {
  return std::size_t(std::count_if(s.begin(), s.end(),
                                   [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// `s` cut to at most `n` code points.
std::string cut(std::string_view s, std::size_t n) {
  std::size_t count = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (count == n) break;
      ++count;
    }
  }
  return std::string(s.substr(0, i));
}

// `s` made fit for one TRF field: bytes that are not UTF-8 are read as
// Windows-1252 (as_utf8) and a control character (a line break among them, C1's
// U+0080 to U+009F too) becomes a space, so every field stays on its line
// and its columns count as a reader counts them.
std::string field_text(std::string_view s) { return controls_as_spaces(as_utf8(s)); }

// A player's name as a TRF reader reads it back from columns 15-47 (write_trf).
std::string trf_name(std::string_view name) {
  const std::string text = field_text(name);
  return std::string(trim(cut(trim(text), 33)));
}

// A line being laid out, with the count of its code points so far (so that
// a line of many rounds is not counted again for every field).
struct TrfLine {
  std::string text;
  std::size_t points = 0;
};

// The field at columns from..to (1-based, inclusive) right-aligned or
// left-aligned, after spaces that bring the line to column `from`.
void put(TrfLine& line, std::size_t from, std::size_t to, std::string_view text, bool right) {
  if (line.points + 1 < from) {
    line.text.append(from - 1 - line.points, ' ');
    line.points = from - 1;
  }
  const std::size_t width = to - from + 1;
  std::string t = cut(field_text(text), width);
  const std::size_t pad = width - code_points(t);
  if (right) line.text.append(pad, ' ');
  line.text += t;
  if (!right) line.text.append(pad, ' ');
  line.points += width;
}

// "2024.05.03" as TRF writes a date: "2024/05/03"; `short_year` gives "24/05/03".
std::string trf_date(std::string_view pgn, bool short_year) {
  std::string d(pgn);
  std::replace(d.begin(), d.end(), '.', '/');
  return short_year && d.size() == 10 ? d.substr(2) : d;
}

// Whether an entry is a game played but not rated: one player never moved.
bool unrated(const Tournament& t, const Entry& e) {
  return e.kind == EntryKind::Played && e.game < t.games.size() && t.games[e.game].unrated();
}

// `allocated`: a full-point bye is the round's pairing-allocated bye (U in a
// Swiss), else a full-point bye given otherwise (F).
char result_char(const Tournament& t, const Entry& e, bool allocated) {
  switch (e.kind) {
    case EntryKind::Played:
      if (unrated(t, e)) return e.half_points == 2 ? 'W' : e.half_points == 1 ? 'D' : 'L';
      return e.half_points == 2 ? '1' : e.half_points == 1 ? '=' : '0';
    case EntryKind::Forfeit: return e.half_points == 2 ? '+' : e.half_points == 1 ? 'D' : '-';
    case EntryKind::Bye: return e.half_points == 2 ? (allocated ? 'U' : 'F') : e.half_points == 1 ? 'H' : 'Z';
    case EntryKind::Absent:
    case EntryKind::Rest: return 'Z';  // TRF's code for a round without a game
    case EntryKind::Pending: break;
  }
  return ' ';
}

// A line cut into characters: the byte offset of each code point.
struct Columns {
  std::string_view line;
  std::vector<std::size_t> starts;
  explicit Columns(std::string_view l) : line(l) {
    for (std::size_t i = 0; i < l.size(); ++i)
      if ((static_cast<unsigned char>(l[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  std::size_t size() const { return starts.size(); }
  // Columns from..to (1-based, inclusive), trimmed; empty past the end.
  std::string_view field(std::size_t from, std::size_t to) const {
    if (from > starts.size()) return {};
    const std::size_t b = starts[from - 1];
    const std::size_t e = to >= starts.size() ? line.size() : starts[to];
    return trim(line.substr(b, e - b));
  }
};

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
int to_int(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// A name compared loosely: letters and digits, lowercase ASCII, other bytes kept.
std::string name_key(std::string_view name) {
  std::string k;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80)
      k += c;
    else if (std::isalnum(u))
      k += char(std::tolower(u));
  }
  return k;
}

// How a game went, as a TRF result says it: 'f' forfeit (+ -), 'u' played
// but not rated (W D L), 'b' a round without a game (F U H Z), 'p' played.
char trf_manner(char r) {
  if (r == '+' || r == '-') return 'f';
  if (r == 'W' || r == 'D' || r == 'L') return 'u';
  if (r == 'F' || r == 'U' || r == 'H' || r == 'Z') return 'b';
  return 'p';
}

// Half points of a TRF result, or -1 when it says none.
int trf_half_points(char r) {
  switch (r) {
    case '1':
    case '+':
    case 'W':
    case 'F':
    case 'U': return 2;
    case '=':
    case 'D':
    case 'H': return 1;
    case '0':
    case '-':
    case 'L':
    case 'Z': return 0;
    default: return -1;
  }
}

// Whether a TRF result is one of a game (1 0 W D L), which a round without
// an opponent cannot have. (`=` and `+` there are byes as writers before
// TRF-16 gave them, `-` an absence as some write it.)
bool a_game_result(char r) {
  return trf_half_points(r) >= 0 && r != '=' && (trf_manner(r) == 'p' || trf_manner(r) == 'u');
}

// The round blocks of a TRF line: the columns of a round (a knockout match
// of several games has several), the same for every player, so that a
// column holds one game on both its players' lines; entries of no known
// round come last.
struct TrfColumn {
  int round = 0;    // 0: games of no known round
  int game = 0;     // the round's column, 0-based: one game on both its players' lines
  int ordinal = 0;  // the round's place among the tournament's rounds (1-based), 0 for round 0
};

// Where each player's entries go in the round blocks of a TRF line, worked
// out once for the whole tournament: a line then costs its rounds, however
// many rounds and players the tournament has.
class TrfLayout {
 public:
  explicit TrfLayout(const Tournament& t);
  // A player's entry (a game, bye or forfeit) in column `game` of a round,
  // or null.
  const Entry* entry(std::size_t player, int round, int game) const;
  // Whether a player has an entry in any column of a round.
  bool has_entries(std::size_t player, int round) const;
  // The round whose column holds an entry: its own; for a game of no known
  // round, the round it spares when its opponent's entry spares the same
  // one (a bye: the round it spares), as an arbiter's TRF would place it;
  // else 0, the columns after the rounds.
  int trf_round(const Entry& e) const;
  const std::vector<TrfColumn>& columns() const { return columns_; }
  // A round's place among the tournament's rounds (0-based); round 0 (and
  // a round no game names) after them all.
  std::size_t slot(int round) const;

 private:
  struct Placed {
    std::size_t slot;
    int column;
    const Entry* entry;
  };
  // The range of a player's entries in a round slot.
  std::pair<const Placed*, const Placed*> in_slot(std::size_t player, std::size_t slot) const;

  const Tournament& t_;
  std::map<std::pair<int, std::size_t>, int> spares_;  // (player, game) -> what its first entry spares
  // Each player's entries of the round blocks, by player, then round slot
  // and column; begin_[player] the first.
  std::vector<std::size_t> begin_;
  std::vector<Placed> placed_;
  std::vector<TrfColumn> columns_;
};

std::size_t TrfLayout::slot(int round) const {
  const auto& rounds = t_.round_numbers;
  if (round == 0) return rounds.size();
  const auto it = std::lower_bound(rounds.begin(), rounds.end(), round);
  return it != rounds.end() && *it == round ? std::size_t(it - rounds.begin()) : rounds.size() + 1;
}

int TrfLayout::trf_round(const Entry& e) const {
  if (e.round != 0 || e.spares == 0) return e.round;
  if (e.opponent < 0) return e.spares;
  const auto it = spares_.find({e.opponent, e.game});
  if (it == spares_.end()) return 0;
  return it->second == e.spares ? e.spares : 0;
}

// A game's two entries take the same column of their round, so that a
// column is one game on both lines: within each round, games (sub-game
// order, then as the tournament has them) take the first column free on
// both players' lines, byes and forfeits the first free on theirs.
TrfLayout::TrfLayout(const Tournament& t) : t_(t) {
  for (std::size_t i = 0; i < t.players.size(); ++i)
    for (const Entry& e : t.players[i].entries) spares_.try_emplace({int(i), e.game}, e.spares);
  const std::size_t rounds = t.round_numbers.size();
  struct Item {
    std::size_t slot;
    int sub_game;
    std::size_t game;
    std::size_t player;
    std::size_t at;  // in placed_
  };
  std::vector<Item> items;
  // Each game's entries in placed_, as many as its players have (two).
  std::vector<std::array<std::size_t, 2>> of_game(t.games.size(), {SIZE_MAX, SIZE_MAX});
  for (std::size_t i = 0; i < t.players.size(); ++i) {
    begin_.push_back(placed_.size());
    for (const Entry& e : t.players[i].entries)
      if (e.kind != EntryKind::Absent && e.kind != EntryKind::Rest) {
        const std::size_t s = slot(trf_round(e));
        if (e.game < of_game.size()) of_game[e.game][of_game[e.game][0] == SIZE_MAX ? 0 : 1] = placed_.size();
        items.push_back({s, e.sub_game, e.game, i, placed_.size()});
        placed_.push_back({s, -1, &e});
      }
  }
  begin_.push_back(placed_.size());
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.slot, a.sub_game, a.game, a.player) < std::tie(b.slot, b.sub_game, b.game, b.player);
  });
  // The columns each player has taken in the round being laid out, as a
  // union-find of "the first free column from here": taken[(player,
  // column)] is a later column to look from; a column not in it is free.
  // Finding a column free on both lines then costs a few jumps, not a walk
  // over the columns taken, and memory goes with the games, not with the
  // columns they reach.
  std::unordered_map<std::uint64_t, std::uint32_t> taken;
  auto at = [](std::size_t player, std::size_t c) { return std::uint64_t(player) << 32 | std::uint64_t(c); };
  std::vector<std::size_t> most(rounds + 2, 0);  // columns per round slot
  auto first_free = [&](std::size_t player, std::size_t from) {
    std::size_t c = from;
    for (auto it = taken.find(at(player, c)); it != taken.end(); it = taken.find(at(player, c)))
      c = it->second;
    // Path compression: the columns passed point at the free one.
    for (auto it = taken.find(at(player, from)); it != taken.end() && it->second != c;) {
      const std::size_t after = it->second;
      it->second = std::uint32_t(c);
      it = taken.find(at(player, after));
    }
    return c;
  };
  auto take = [&](std::size_t player, std::size_t c) { taken[at(player, c)] = std::uint32_t(c + 1); };
  for (std::size_t k = 0; k < items.size(); ++k) {
    const Item& item = items[k];
    if (k > 0 && items[k - 1].slot != item.slot) taken.clear();
    Placed& mine = placed_[item.at];
    if (mine.column >= 0) continue;  // placed with its opponent's entry
    const Entry& e = *mine.entry;
    // The opponent's entry of the same game in the same round, if any.
    Placed* theirs = nullptr;
    if (e.opponent >= 0 && e.game < of_game.size()) {
      const auto [a, b] = of_game[e.game];
      const std::size_t other = a == item.at ? b : a;
      if (other != SIZE_MAX && placed_[other].slot == mine.slot && placed_[other].column < 0 &&
          placed_[other].entry->opponent == int(item.player))
        theirs = &placed_[other];
    }
    std::size_t c = first_free(item.player, 0);
    if (theirs)
      for (std::size_t d; (d = first_free(std::size_t(e.opponent), c)) != c;) c = first_free(item.player, d);
    take(item.player, c);
    mine.column = int(c);
    if (theirs) {
      take(std::size_t(e.opponent), c);
      theirs->column = int(c);
    }
    most[item.slot] = std::max(most[item.slot], c + 1);
  }
  for (std::size_t i = 0; i < t.players.size(); ++i)
    std::sort(placed_.begin() + std::ptrdiff_t(begin_[i]), placed_.begin() + std::ptrdiff_t(begin_[i + 1]),
              [](const Placed& a, const Placed& b) {
                return std::tie(a.slot, a.column) < std::tie(b.slot, b.column);
              });
  for (std::size_t k = 0; k < rounds; ++k)
    for (std::size_t g = 0; g < std::max<std::size_t>(most[k], 1); ++g)
      columns_.push_back({t.round_numbers[k], int(g), int(k) + 1});
  for (std::size_t g = 0; g < most[rounds]; ++g) columns_.push_back({0, int(g), 0});
}

std::pair<const TrfLayout::Placed*, const TrfLayout::Placed*> TrfLayout::in_slot(std::size_t player,
                                                                                 std::size_t s) const {
  const Placed* from = placed_.data() + begin_[player];
  const Placed* to = placed_.data() + begin_[player + 1];
  const Placed* lo = std::lower_bound(from, to, s, [](const Placed& p, std::size_t v) { return p.slot < v; });
  const Placed* hi = std::upper_bound(lo, to, s, [](std::size_t v, const Placed& p) { return v < p.slot; });
  return {lo, hi};
}

const Entry* TrfLayout::entry(std::size_t player, int round, int game) const {
  const std::size_t s = slot(round);
  if (s > t_.round_numbers.size()) return nullptr;  // a round no game names
  const auto [lo, hi] = in_slot(player, s);
  const Placed* it = std::lower_bound(lo, hi, game, [](const Placed& p, int v) { return p.column < v; });
  return it != hi && it->column == game ? it->entry : nullptr;
}

bool TrfLayout::has_entries(std::size_t player, int round) const {
  const std::size_t s = slot(round);
  if (s > t_.round_numbers.size()) return false;
  const auto [lo, hi] = in_slot(player, s);
  return lo != hi;
}

}  // namespace

namespace {

// A FIDE title's place in the initial order (C.04.2): GM, IM, WGM, FM, WIM,
// CM, WFM, WCM, then untitled (and titles of no such name).
int title_order(std::string_view title) {
  static constexpr std::string_view kTitles[] = {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"};
  const std::string_view t = trim(title);
  for (std::size_t i = 0; i < std::size(kTitles); ++i)
    if (iequal(t, kTitles[i])) return int(i);
  return int(std::size(kTitles));
}

}  // namespace

std::vector<int> starting_ranks(const Tournament& t) {
  std::vector<int> order(t.players.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Player& x = t.players[std::size_t(a)];
    const Player& y = t.players[std::size_t(b)];
    if (x.rating.value_or(0) != y.rating.value_or(0)) return x.rating.value_or(0) > y.rating.value_or(0);
    if (const int tx = title_order(x.title), ty = title_order(y.title); tx != ty) return tx < ty;
    return x.name < y.name;
  });
  std::vector<int> rank(t.players.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[std::size_t(order[i])] = int(i) + 1;
  return rank;
}

std::optional<std::string> trf_misfit(const Tournament& t) {
  constexpr std::size_t kMostPlayers = 9999;  // columns 5-8 and each block's 92-95
  if (t.players.size() > kMostPlayers)
    return fmt::format("{} players: a TRF numbers players in four columns, so at most {}", t.players.size(),
                       kMostPlayers);
  for (const Player& p : t.players)
    if (p.half_points >= 200)
      return fmt::format(
          "{} has {:.1f} points: a TRF gives points four columns (columns 81-84), so under 100", p.name,
          p.points());
  // Every line has a block per column: a player with many games in a round
  // gives every line as many (README "Limits", as a crosstable).
  const std::uint64_t blocks = TrfLayout(t).columns().size();
  if (std::uint64_t(t.players.size()) * blocks > kMaxCrosstableCells)
    return fmt::format(
        "{} players in {} round blocks (one per game a player has in a round) make more than {} "
        "blocks, beyond what a report takes",
        t.players.size(), blocks, kMaxCrosstableCells);
  return std::nullopt;
}

std::string write_trf(const Tournament& t, const std::vector<Standing>& standings, std::string_view name) {
  std::string out;
  auto header = [&](std::string_view code, std::string_view value) {
    const std::string text = field_text(trim(value));
    if (trim(text).empty()) return;
    out += fmt::format("{} {}\n", code, trim(text));
  };
  header("012", name.empty() ? std::string_view(t.key.event) : name);
  if (!unknown_tag_value(t.key.site)) header("022", t.key.site);
  header("032", t.event_country);
  const std::string start =
      !unknown_tag_value(t.key.event_date) && t.key.event_date.find('?') == std::string::npos
          ? t.key.event_date
          : t.first_date;
  if (!start.empty()) header("042", trf_date(start, false));
  if (!t.last_date.empty()) header("052", trf_date(t.last_date, false));
  header("062", std::to_string(t.players.size()));
  header("072", std::to_string(std::count_if(t.players.begin(), t.players.end(),
                                             [](const Player& p) { return p.rating.has_value(); })));
  header("092", t.event_type.empty() ? std::string(system_name(t.system)) : t.event_type);
  header("102", t.arbiter);
  header("122", t.time_control);
  const TrfLayout layout(t);
  const std::vector<TrfColumn>& columns = layout.columns();
  if (std::any_of(t.round_dates.begin(), t.round_dates.end(),
                  [](const std::string& d) { return !d.empty(); })) {
    TrfLine line{"132", 3};
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const int ordinal = columns[k].ordinal;
      if (ordinal >= 1 && std::size_t(ordinal) <= t.round_dates.size())
        put(line, 92 + 10 * k, 99 + 10 * k, trf_date(t.round_dates[std::size_t(ordinal - 1)], true), false);
    }
    while (!line.text.empty() && line.text.back() == ' ') line.text.pop_back();
    out += line.text + '\n';
  }

  const std::vector<int> start_rank = starting_ranks(t);
  std::vector<int> final_rank(t.players.size(), 0);
  for (const Standing& s : standings) final_rank[std::size_t(s.player)] = s.rank;
  std::vector<int> by_start(t.players.size());
  for (std::size_t i = 0; i < by_start.size(); ++i) by_start[std::size_t(start_rank[i] - 1)] = int(i);
  // A Swiss round has one pairing-allocated bye (U); other full-point byes of
  // the round are F. The games do not say which bye the pairing gave. The
  // Swiss rules (C.04.1) give it at the bottom of the pairing, and to no
  // player twice: round by round, it is the bye of the player who has had no
  // U yet with the lowest score before the round, then the highest starting
  // rank, so that the choice does not hang on the order of the games. The
  // games of no known round may be of several rounds: each of their
  // full-point byes stays U.
  std::map<int, int> allocated_bye;  // round -> the player whose full-point bye is U
  if (t.system == System::Swiss) {
    std::map<int, std::vector<int>> byes;  // round -> players with a full-point bye in it
    for (std::size_t i = 0; i < t.players.size(); ++i)
      for (const Entry& e : t.players[i].entries)
        if (e.kind == EntryKind::Bye && e.half_points == 2 && e.round > 0) byes[e.round].push_back(int(i));
    std::vector<bool> had_u(t.players.size(), false);
    // A player's score before a round: its counted results of numbered
    // rounds, summed round by round once for each player with such a bye.
    std::map<int, std::vector<std::pair<int, int>>> running;  // player -> (round, score after it)
    auto score_before = [&](int player, int round) {
      auto [it, fresh] = running.try_emplace(player);
      std::vector<std::pair<int, int>>& scores = it->second;
      if (fresh) {
        for (const Entry& e : t.players[std::size_t(player)].entries)
          if (e.counted() && e.round > 0) scores.push_back({e.round, e.half_points});
        std::sort(scores.begin(), scores.end());
        for (std::size_t k = 1; k < scores.size(); ++k) scores[k].second += scores[k - 1].second;
      }
      const auto after = std::lower_bound(scores.begin(), scores.end(), std::pair<int, int>{round, INT_MIN});
      return after == scores.begin() ? 0 : std::prev(after)->second;
    };
    for (const auto& [round, players] : byes) {
      int chosen = -1;
      for (int i : players) {
        if (had_u[std::size_t(i)]) continue;
        if (chosen < 0) {
          chosen = i;
          continue;
        }
        const int a = score_before(i, round), b = score_before(chosen, round);
        if (a < b || (a == b && start_rank[std::size_t(i)] > start_rank[std::size_t(chosen)])) chosen = i;
      }
      if (chosen < 0) continue;  // every one has had the pairing's bye: all F
      allocated_bye[round] = chosen;
      had_u[std::size_t(chosen)] = true;
    }
  }
  auto allocated = [&](int player, const Entry& e) {
    if (t.system != System::Swiss) return false;
    const auto it = allocated_bye.find(e.round);
    return layout.trf_round(e) == 0 || (it != allocated_bye.end() && it->second == player);
  };
  // A player's first entry of each round slot: where a player without a
  // game in a round finds the absence (or rest) to write.
  std::vector<const Entry*> first_of(t.round_numbers.size() + 2, nullptr);
  for (int pi : by_start) {
    const Player& p = t.players[std::size_t(pi)];
    // (A game of no known round is where the layout puts it: in the round it
    // spares, or after the rounds.)
    for (const Entry& e : p.entries)
      if (const Entry*& first = first_of[layout.slot(layout.trf_round(e))]; !first) first = &e;
    // A player's entry of a column, absences and rests included (in a
    // round's first column) where the player has no game in the round; none
    // in a column of the round that holds another's game.
    auto column_entry = [&](const TrfColumn& c) -> const Entry* {
      if (const Entry* e = layout.entry(std::size_t(pi), c.round, c.game)) return e;
      if (c.game == 0 && !layout.has_entries(std::size_t(pi), c.round)) return first_of[layout.slot(c.round)];
      return nullptr;
    };
    TrfLine line{"001", 3};
    put(line, 5, 8, std::to_string(start_rank[std::size_t(pi)]), true);
    put(line, 11, 13, p.title, true);
    // A name of blanks alone would leave the field empty, which no reader takes.
    const std::string name = field_text(p.name);
    put(line, 15, 47, trim(name).empty() ? std::string_view("?") : trim(name), false);
    put(line, 49, 52, p.rating ? std::to_string(*p.rating) : "", true);
    put(line, 54, 56, p.federation, false);
    put(line, 58, 68, p.fide_id, true);
    put(line, 81, 84, fmt::format("{:.1f}", p.points()), true);
    put(line, 86, 89, std::to_string(final_rank[std::size_t(pi)]), true);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const Entry* entry = column_entry(columns[k]);
      if (!entry) continue;  // a game the player did not have: blank
      const Entry& e = *entry;
      const std::size_t c = 92 + 10 * k;
      put(line, c, c + 3, e.opponent >= 0 ? std::to_string(start_rank[std::size_t(e.opponent)]) : "0000",
          true);
      put(line, c + 5, c + 5, e.colour ? (*e.colour == Color::White ? "w" : "b") : "-", false);
      put(line, c + 7, c + 7, std::string(1, result_char(t, e, allocated(pi, e))), false);
    }
    for (const Entry& e : p.entries) first_of[layout.slot(layout.trf_round(e))] = nullptr;
    while (!line.text.empty() && line.text.back() == ' ') line.text.pop_back();
    out += line.text + '\n';
  }
  return out;
}

namespace {

// Reads one line (number `number`) of a TRF into `f`.
void read_trf_line(std::string_view line, std::uint64_t number, TrfFile& f) {
  if (line.substr(0, 3) == "012") {
    f.name = std::string(trim(line.substr(3)));
    return;
  }
  if (line.substr(0, 3) != "001") return;
  const Columns cols(line);
  auto problem = [&](std::size_t column, std::string message) {
    f.problems.push_back({number, column, std::move(message)});
  };
  TrfPlayer p;
  p.line = number;
  const std::string_view start = cols.field(5, 8);
  if (!all_digits(start)) {
    problem(5, fmt::format("starting rank \"{}\" (columns 5-8) is not a number", start));
    return;
  }
  p.number = to_int(start);
  p.name = std::string(cols.field(15, 47));
  if (p.name.empty()) {
    problem(15, "no name in columns 15-47");
    return;
  }
  if (const auto r = cols.field(49, 52); all_digits(r)) p.rating = to_int(r);
  if (const auto id = cols.field(58, 68);
      all_digits(id) && id.find_first_not_of('0') != std::string_view::npos)
    p.fide_id = std::string(id);
  const std::string_view pts = cols.field(81, 84);
  if (!pts.empty()) {
    const std::size_t dot = pts.find('.');
    const std::string_view whole = pts.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? std::string_view{} : pts.substr(dot + 1);
    if (!all_digits(whole) || (dot != std::string_view::npos && frac != "0" && frac != "5")) {
      problem(81, fmt::format("points \"{}\" (columns 81-84) do not read", pts));
    } else {
      p.points = to_int(whole) + (frac == "5" ? 0.5 : 0.0);
      p.has_points = true;
    }
  }
  if (const auto r = cols.field(86, 89); all_digits(r)) p.rank = to_int(r);
  // A block that does not read is a problem of its own: the player's other
  // rounds are still compared.
  for (std::size_t c = 92; c <= cols.size(); c += 10) {
    TrfRound r;
    const std::string_view opp = cols.field(c, c + 3);
    const std::string_view colour = cols.field(c + 5, c + 5);
    const std::string_view result = cols.field(c + 7, c + 7);
    const std::size_t round = (c - 92) / 10 + 1;
    if (opp.empty() && colour.empty() && result.empty()) {
      p.rounds.push_back(r);
      continue;
    }
    r.colour = colour.empty() ? ' ' : colour[0];
    r.result = result.empty() ? ' ' : result[0];
    if (!opp.empty() && !all_digits(opp)) {
      problem(c,
              fmt::format("round {}: opponent \"{}\" (columns {}-{}) is not a number", round, opp, c, c + 3));
      r.unreadable = true;
    } else if (r.colour != 'w' && r.colour != 'b' && r.colour != '-' && r.colour != ' ') {
      problem(c + 5, fmt::format("round {}: colour \"{}\" is not w, b or -", round, colour));
      r.unreadable = true;
    } else if (r.result != ' ' && trf_half_points(r.result) < 0) {
      problem(c + 7, fmt::format("round {}: result \"{}\" is not a TRF result", round, result));
      r.unreadable = true;
    }
    // Four blanks are 0000 (no opponent).
    if (!r.unreadable) r.opponent = opp.empty() ? 0 : to_int(opp);
    p.rounds.push_back(r);
  }
  f.players.push_back(std::move(p));
}

// Each line of a TRF, without its line end, with its number. Lines end in
// LF (with any CRs before it: CR LF, or CR CR LF from a conversion done
// twice), or, in a file with no LF, in CR alone (old Macintosh programs).
template <class F>
void for_each_trf_line(std::string_view text, F&& f) {
  const char end_of_line = text.find('\n') == std::string_view::npos ? '\r' : '\n';
  std::uint64_t number = 0;
  while (!text.empty()) {
    const std::size_t end = text.find(end_of_line);
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line, ++number);
  }
}

// "White - Black" of a player's game, from the player's entry.
std::string pairing_text(const Entry& e, std::string_view player, std::string_view opponent) {
  const bool black = e.colour && *e.colour == Color::Black;
  return fmt::format("{} - {}", black ? opponent : player, black ? player : opponent);
}

}  // namespace

TrfFile read_trf(std::string_view text) {
  TrfFile f;
  for_each_trf_line(text,
                    [&](std::string_view line, std::uint64_t number) { read_trf_line(line, number, f); });
  return f;
}

std::vector<TrfFile> read_trf_sections(std::string_view text) {
  std::vector<TrfFile> out(1);
  for_each_trf_line(text, [&](std::string_view line, std::uint64_t number) {
    // A 012 line begins the next tournament once this one has its name.
    if (line.substr(0, 3) == "012" && !out.back().name.empty()) out.emplace_back();
    read_trf_line(line, number, out.back());
  });
  return out;
}

std::string_view trf_code_name(TrfDisagreement::Code c) {
  switch (c) {
    case TrfDisagreement::Code::UnknownPlayer: return "trf-player";
    case TrfDisagreement::Code::MissingGame: return "trf-missing-game";
    case TrfDisagreement::Code::Opponent: return "trf-opponent";
    case TrfDisagreement::Code::Colour: return "trf-colour";
    case TrfDisagreement::Code::Result: return "trf-result";
    case TrfDisagreement::Code::Points: return "trf-points";
    case TrfDisagreement::Code::Rating: return "trf-rating";
  }
  return "trf-missing-game";
}

std::vector<TrfDisagreement> compare_trf(const Tournament& t, const TrfFile& trf) {
  using Code = TrfDisagreement::Code;
  std::vector<TrfDisagreement> out;
  std::map<std::string, int> by_key;
  for (std::size_t i = 0; i < t.players.size(); ++i) by_key.emplace(name_key(t.players[i].name), int(i));
  std::map<int, int> player_of;  // TRF number -> player
  std::set<int> in_trf;
  std::map<int, const TrfPlayer*> trf_of;  // player -> TRF line
  // A name longer than the TRF's field (33 characters) is cut there: a TRF
  // name no player has is compared with the names cut so. Players whose cut
  // names are one are told apart by FIDE id, then by rating, then met in
  // starting rank order, the TRF's and the games' (by rating, title, then
  // name, as write_trf numbers them).
  std::map<std::string, std::vector<int>> by_cut_key;
  {
    const std::vector<int> start = starting_ranks(t);
    for (std::size_t i = 0; i < t.players.size(); ++i)
      by_cut_key[name_key(trf_name(t.players[i].name))].push_back(int(i));
    for (auto& [key, players] : by_cut_key)
      std::sort(players.begin(), players.end(),
                [&](int a, int b) { return start[std::size_t(a)] < start[std::size_t(b)]; });
  }
  std::vector<int> match(trf.players.size(), -1);
  std::set<int> taken;
  for (std::size_t k = 0; k < trf.players.size(); ++k) {
    const std::string key = name_key(trf.players[k].name);
    // A name that is the cut name of several players (one of them may have
    // it whole) is theirs in starting rank order, below.
    if (const auto cut = by_cut_key.find(key); cut != by_cut_key.end() && cut->second.size() > 1) continue;
    if (const auto it = by_key.find(key); it != by_key.end() && taken.insert(it->second).second)
      match[k] = it->second;
  }
  std::vector<std::size_t> by_number;  // the TRF players matched by cut names, by starting rank
  for (std::size_t k = 0; k < trf.players.size(); ++k)
    if (match[k] < 0) by_number.push_back(k);
  std::stable_sort(by_number.begin(), by_number.end(), [&](std::size_t a, std::size_t b) {
    return trf.players[a].number < trf.players[b].number;
  });
  auto match_same_names = [&](auto&& fits) {
    for (std::size_t k : by_number) {
      if (match[k] >= 0) continue;
      const auto it = by_cut_key.find(name_key(trf.players[k].name));
      if (it == by_cut_key.end() || it->first.empty()) continue;
      for (int candidate : it->second)
        if (!taken.count(candidate) && fits(trf.players[k], t.players[std::size_t(candidate)])) {
          taken.insert(candidate);
          match[k] = candidate;
          break;
        }
    }
  };
  match_same_names(
      [](const TrfPlayer& tp, const Player& p) { return !tp.fide_id.empty() && tp.fide_id == p.fide_id; });
  match_same_names([](const TrfPlayer& tp, const Player& p) { return tp.rating && tp.rating == p.rating; });
  match_same_names([](const TrfPlayer&, const Player&) { return true; });
  for (std::size_t k = 0; k < trf.players.size(); ++k) {
    const TrfPlayer& p = trf.players[k];
    if (match[k] < 0) {
      out.push_back({Code::UnknownPlayer, p.line, SIZE_MAX, 0,
                     fmt::format("TRF player {} \"{}\" plays no game of the tournament", p.number, p.name)});
      continue;
    }
    player_of[p.number] = match[k];
    in_trf.insert(match[k]);
    trf_of[match[k]] = &p;
  }
  for (std::size_t i = 0; i < t.players.size(); ++i)
    if (!in_trf.count(int(i)))
      out.push_back(
          {Code::UnknownPlayer, 0, SIZE_MAX, 0, fmt::format("\"{}\" is not in the TRF", t.players[i].name)});

  std::set<std::tuple<int, int, int, int>> told;  // code, round, the pair
  auto once = [&](Code c, int round, int a, int b) {
    return told.insert({int(c), round, std::min(a, b), std::max(a, b)}).second;
  };
  auto name = [&](int p) { return p >= 0 ? t.players[std::size_t(p)].name : std::string("no one"); };
  // The TRF's blocks are read as write_trf lays them out (TrfLayout, the
  // games of no known round last); blocks beyond them are rounds the games
  // do not have.
  const TrfLayout layout(t);
  const std::vector<TrfColumn>& columns = layout.columns();
  const int last_round = t.round_numbers.empty() ? 0 : t.round_numbers.back();
  for (const auto& [pi, tp] : trf_of) {
    const Player& p = t.players[std::size_t(pi)];
    // The final rank is left alone: it depends on tie-breaks a TRF does not name.
    if (tp->has_points && tp->points * 2 != p.half_points)
      out.push_back({Code::Points, tp->line, SIZE_MAX, 0,
                     fmt::format("{} has {:.1f} points in the games, {:.1f} in the TRF", p.name, p.points(),
                                 tp->points),
                     81});
    if (tp->rating && p.rating && tp->rating != *p.rating)
      out.push_back({Code::Rating, tp->line, SIZE_MAX, 0,
                     fmt::format("{} is rated {} in the games, {} in the TRF", p.name, *p.rating, tp->rating),
                     49});
    const std::size_t blocks = std::max(tp->rounds.size(), columns.size());
    for (std::size_t k = 0; k < blocks; ++k) {
      const TrfColumn column =
          k < columns.size() ? columns[k] : TrfColumn{last_round + int(k - columns.size()) + 1, 0, 0};
      const int r = column.round;
      const std::string rn = r > 0 ? std::to_string(r) : "?";
      const TrfRound none;
      const TrfRound& tr = k < tp->rounds.size() ? tp->rounds[k] : none;
      if (tr.unreadable) continue;  // told as a problem of the file
      const Entry* e = layout.entry(std::size_t(pi), r, column.game);
      int trf_opp = -1;
      if (tr.opponent > 0) {
        const auto it = player_of.find(tr.opponent);
        if (it == player_of.end()) continue;  // told as an unknown player
        trf_opp = it->second;
      }
      const int game_opp = e ? e->opponent : -1;
      const std::size_t game = e ? e->game : SIZE_MAX;
      if (trf_opp >= 0 && !e) {
        if (once(Code::MissingGame, r, pi, trf_opp))
          out.push_back({Code::MissingGame, tp->line, SIZE_MAX, r,
                         fmt::format("round {}: the TRF pairs {} with {}; the games have no such game", rn,
                                     p.name, name(trf_opp))});
        continue;
      }
      if (e && game_opp >= 0 && trf_opp < 0) {
        if (once(Code::MissingGame, r, pi, game_opp))
          out.push_back({Code::MissingGame, tp->line, game, r,
                         fmt::format("round {}: the games have {}; the TRF pairs {} with no one", rn,
                                     pairing_text(*e, p.name, name(game_opp)), p.name)});
        continue;
      }
      if (game_opp != trf_opp) {
        if (once(Code::Opponent, r, pi, pi))
          out.push_back({Code::Opponent, tp->line, game, r,
                         fmt::format("round {}: {} meets {} in the games, {} in the TRF", rn, p.name,
                                     name(game_opp), name(trf_opp))});
        continue;
      }
      if (!e) {  // no game on either side: a bye in the TRF is points the games do not give,
                 // a game's result with no one is no absence ('-', as some write one, is)
        const bool points = trf_half_points(tr.result) > 0;
        const bool game_result = a_game_result(tr.result);
        if ((points || game_result) && once(Code::Result, r, pi, pi))
          out.push_back(
              {Code::Result, tp->line, SIZE_MAX, r,
               fmt::format("round {}: the TRF gives {} {} ('{}'); the games have no game", rn, p.name,
                           points ? "a bye" : "a game's result with no opponent", tr.result)});
        continue;
      }
      if (e->colour && (tr.colour == 'w' || tr.colour == 'b')) {
        const char c = *e->colour == Color::White ? 'w' : 'b';
        if (c != tr.colour && once(Code::Colour, r, pi, game_opp))
          out.push_back({Code::Colour, tp->line, game, r,
                         fmt::format("round {}: {} has {} in the games, {} in the TRF", rn, p.name,
                                     c == 'w' ? "White" : "Black", tr.colour == 'w' ? "White" : "Black")});
      }
      const int half = trf_half_points(tr.result);
      if (e->kind == EntryKind::Pending) {
        // A game without a result (*): the TRF's result is one the games do not give.
        if (half >= 0 && once(Code::Result, r, pi, game_opp))
          out.push_back({Code::Result, tp->line, game, r,
                         fmt::format("round {}: {} has no result in the games (*), '{}' in the TRF", rn,
                                     pairing_text(*e, p.name, name(game_opp)), tr.result)});
        continue;
      }
      const char trf_how = trf_manner(tr.result);
      // The games' result as write_trf gives it (a draw without a move is a 'D';
      // U and F are both a full-point bye).
      const char game_how = trf_manner(result_char(t, *e, false));
      // A game or bye of the games whose result the TRF leaves blank is a
      // result the TRF does not give (TRF-16 reads a blank as Z, no point).
      const bool missing_result = half < 0;
      // A round without an opponent is a bye or an absence: a TRF result of a
      // game there is another kind. (Writers before TRF-16 gave a bye as
      // `0000 - +` or `0000 - =`, and some write an absence `0000 - -`.)
      const bool game_without_opponent = game_opp < 0 && a_game_result(tr.result);
      if ((half >= 0 && half != e->half_points) || (game_opp >= 0 && trf_how != game_how) ||
          game_without_opponent || missing_result) {
        const char* how = e->kind == EntryKind::Forfeit      ? " by forfeit"
                          : e->kind == EntryKind::Bye        ? " by a bye"
                          : e->kind == EntryKind::Rest       ? " resting"
                          : e->kind == EntryKind::Absent     ? " absent"
                          : unrated(t, *e)                   ? " in a game of one move"
                          : trf_how == 'u' || trf_how == 'b' ? " over the board"
                                                             : "";
        if (once(Code::Result, r, pi, game_opp))
          out.push_back(
              {Code::Result, tp->line, game, r,
               fmt::format("round {}: {} scores {}{} in the games, {} in the TRF", rn, p.name,
                           e->half_points == 2   ? "1"
                           : e->half_points == 1 ? "1/2"
                                                 : "0",
                           how, half < 0 ? std::string("nothing") : fmt::format("'{}'", tr.result))});
      }
    }
  }
  return out;
}

}  // namespace virrey::tournament
