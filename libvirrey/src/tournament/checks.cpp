#include "virrey/tournament/checks.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/tournament/grouping.hpp"
#include "virrey/tournament/round.hpp"

namespace virrey::tournament {

using validate::Code;

namespace {

// A tag value kept for the checks is cut here (at a UTF-8 boundary): names,
// events and dates are far shorter, and a hostile file cannot grow the
// summaries past a few hundred bytes a game.
constexpr std::size_t kMaxValue = 128;

std::string_view cut(std::string_view v) {
  if (v.size() <= kMaxValue) return v;
  std::size_t n = kMaxValue;
  while (n > 0 && (static_cast<unsigned char>(v[n]) & 0xC0) == 0x80) --n;
  return v.substr(0, n);
}

// Tag values interned: id 0 is the empty value.
class Pool {
 public:
  Pool() { values_.emplace_back(); }
  std::uint32_t id(std::string_view v) {
    v = cut(v);
    if (v.empty()) return 0;
    if (auto it = ids_.find(v); it != ids_.end()) return it->second;
    const auto id = std::uint32_t(values_.size());
    values_.emplace_back(v);
    ids_.emplace(values_.back(), id);
    return id;
  }
  const std::string& operator[](std::uint32_t id) const { return values_[id]; }

 private:
  std::deque<std::string> values_;  // stable: ids_ holds views of them
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

enum class RoundState : std::uint8_t { Numbered, Missing, Unknown, NotApplicable, Unreadable };

// What the checks keep of one game.
struct Game {
  std::uint32_t event = 0, site = 0, event_date = 0, white = 0, black = 0;
  std::uint32_t white_fide = 0, black_fide = 0, round_text = 0;
  std::uint32_t date = 0;                      // yyyymmdd, 0 when not a full date
  std::uint32_t event_day = 0;                 // EventDate as yyyymmdd, 0 when not a full date
  std::uint16_t white_elo = 0, black_elo = 0;  // 0: no rating
  std::uint16_t round = 0, board = 0;          // round 0: not numbered
  std::uint16_t event_rounds = 0;              // EventRounds, 0 when absent
  RoundState round_state = RoundState::Missing;
  GameResult result = GameResult::Unknown;
  bool has_fen = false;
  bool forfeit = false;  // Termination or a "bye" opponent says it was not played
  std::uint32_t plies = 0;
  std::uint32_t input = 0;
  std::uint64_t number = 0, line = 0, column = 0;
};

// "YYYY.MM.DD" with every digit known, as yyyymmdd; else 0.
std::uint32_t full_date(std::string_view d) {
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return 0;
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 10; ++i) {
    if (i == 4 || i == 7) continue;
    if (d[i] < '0' || d[i] > '9') return 0;
    v = v * 10 + std::uint32_t(d[i] - '0');
  }
  return v;
}

// Days since 1970-01-01 of a yyyymmdd date (the civil calendar).
long day_number(std::uint32_t v) {
  long y = long(v / 10000), m = long(v / 100 % 100), d = long(v % 100);
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

// Games of one Event name without an EventDate, played more than this many
// days apart from the rest, are another edition of the event (a collection
// holds "Ordix Open" of 2003 and of 2005 under one name).
constexpr long kEditionGapDays = 30;

std::string date_text(std::uint32_t v) {
  return fmt::format("{:04}.{:02}.{:02}", v / 10000, v / 100 % 100, v % 100);
}

// A number of at most four digits, 1..limit; else 0.
std::uint16_t small_number(std::string_view t, int limit) {
  if (t.empty() || t.size() > 4) return 0;
  int v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return v >= 1 && v <= limit ? std::uint16_t(v) : 0;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

bool says_unplayed(std::string_view termination) {
  const std::string t = lower_ascii(termination);
  for (std::string_view word : {"forfeit", "unplayed", "not played", "abandoned", "default", "bye"})
    if (t.find(word) != std::string::npos) return true;
  return false;
}

// The ASCII letter of the Latin-1 and Latin Extended-A letters U+00C0..U+017F
// ('*' for the two signs among them), so that "Carlsén" and "Carlsen" compare equal.
constexpr std::string_view kFolded =
    "AAAAAAACEEEEIIIIDNOOOOO*OUUUUYTsaaaaaaaceeeeiiiidnooooo*ouuuuyty"
    "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlL"
    "lLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

// A name's words, lower case, accents and punctuation dropped.
std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    char letter = 0;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      letter = char(c);
    } else if (c >= 'A' && c <= 'Z') {
      letter = char(c - 'A' + 'a');
    } else if ((c == 0xC3 || c == 0xC4 || c == 0xC5) && i + 1 < name.size()) {
      const unsigned code = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(name[i + 1]) & 0x3Fu);
      ++i;
      if (code >= 0xC0 && code < 0xC0 + kFolded.size() && kFolded[code - 0xC0] != '*') {
        letter = kFolded[code - 0xC0];
        if (letter >= 'A' && letter <= 'Z') letter = char(letter - 'A' + 'a');
      }
    } else if (c >= 0x80) {
      letter = char(c);  // another script: kept as it is
    }
    if (letter)
      words.back() += letter;
    else if (!words.back().empty())
      words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

// A name as surname and given names: "Carlsen, Magnus" and "Magnus Carlsen"
// both read as {"carlsen", {"magnus"}}.
struct NameParts {
  std::string surname;
  std::vector<std::string> given;
  bool operator==(const NameParts&) const = default;
  bool operator<(const NameParts& o) const { return std::tie(surname, given) < std::tie(o.surname, o.given); }
};

NameParts name_parts(std::string_view name) {
  NameParts p;
  std::vector<std::string> surname;
  const std::size_t comma = name.find(',');
  if (comma != std::string_view::npos) {
    surname = name_words(name.substr(0, comma));
    p.given = name_words(name.substr(comma + 1));
  } else {
    p.given = name_words(name);
    if (!p.given.empty()) {
      surname.push_back(std::move(p.given.back()));
      p.given.pop_back();
    }
  }
  for (const auto& w : surname) p.surname += w;
  return p;
}

// "Carlsen, M." and "Carlsen, Magnus": one surname, and given names that
// agree where one of them is an initial.
bool initials_agree(const NameParts& a, const NameParts& b) {
  if (a.surname != b.surname || a.given.empty() || b.given.empty() || a == b) return false;
  bool initial = false;
  const std::size_t n = std::min(a.given.size(), b.given.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string &x = a.given[i], &y = b.given[i];
    if (x == y) continue;
    if (x.size() == 1 && y[0] == x[0]) {
      initial = true;
      continue;
    }
    if (y.size() == 1 && x[0] == y[0]) {
      initial = true;
      continue;
    }
    return false;
  }
  return initial;
}

}  // namespace

struct EventChecks::Impl {
  Pool pool;
  std::vector<Game> games;

  // The findings of one tournament.
  struct Checker {
    const Impl& impl;
    const std::vector<std::size_t>& games;  // indices into impl.games, input order
    std::string label;                      // "in \"Event\"" for messages
    std::vector<EventFinding>& out;

    const Game& g(std::size_t i) const { return impl.games[i]; }
    const std::string& name(std::uint32_t id) const { return impl.pool[id]; }
    // A player the checks follow: named, and not the "BYE" of a bye written as a game.
    bool known(std::uint32_t player) const {
      const std::string& n = name(player);
      return !unknown_tag_value(n) && lower_ascii(n) != "bye";
    }

    void emit(const Game& game, Code code, std::string message) {
      EventFinding f;
      f.input = game.input;
      f.finding.code = code;
      f.finding.severity = validate::Severity::Warning;
      f.finding.line = game.line;
      f.finding.column = game.column;
      f.finding.game = game.number;
      f.finding.message = fmt::format("{}: {}", label, message);
      out.push_back(std::move(f));
    }

    static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
      if (a > b) std::swap(a, b);
      return (std::uint64_t(a) << 32) | b;
    }

    void run() {
      int max_round = 0;
      std::set<std::uint32_t> players;
      for (std::size_t i : games) {
        max_round = std::max<int>(max_round, g(i).round);
        for (std::uint32_t p : {g(i).white, g(i).black})
          if (known(p)) players.insert(p);
      }
      rounds(max_round);
      within_rounds();
      const bool finished = pairings(int(players.size()), max_round);
      names_and_ratings();
      dates();
      results(finished, max_round);
    }

    // A Round tag that gives no round number, and rounds no game has.
    void rounds(int max_round) {
      std::vector<std::size_t> first_of(std::size_t(max_round) + 2, SIZE_MAX);
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.round_state == RoundState::Numbered) {
          if (first_of[game.round] == SIZE_MAX) first_of[game.round] = i;
          continue;
        }
        const std::string& text = name(game.round_text);
        switch (game.round_state) {
          case RoundState::Missing:
            emit(game, Code::RoundTag,
                 "the game has no Round tag; the tournament's other games name their round");
            break;
          case RoundState::Unknown:
          case RoundState::NotApplicable:
            emit(game, Code::RoundTag,
                 fmt::format("Round \"{}\" names no round; the tournament's other games name theirs", text));
            break;
          case RoundState::Unreadable: {
            const auto parsed = parse_round(text);
            const auto* error = std::get_if<RoundError>(&parsed);
            emit(game, Code::RoundTag,
                 error ? error->message : fmt::format("Round \"{}\" does not read", text));
            break;
          }
          case RoundState::Numbered: break;
        }
      }
      for (int r = 1; r <= max_round; ++r) {
        if (first_of[r] != SIZE_MAX) continue;
        int last = r;
        while (last + 1 <= max_round && first_of[last + 1] == SIZE_MAX) ++last;
        const Game& next = g(first_of[last + 1]);
        emit(next, Code::MissingRound,
             last == r ? fmt::format("no game of round {} (the games go up to round {})", r, max_round)
                       : fmt::format("no game of rounds {} to {} (the games go up to round {})", r, last,
                                     max_round));
        r = last;
      }
    }

    // A player in two games of one round against two opponents (two games
    // of the same two players in a round are a match), a board used twice.
    void within_rounds() {
      std::map<std::pair<int, std::uint32_t>, std::size_t> booked;  // (round, player) -> first game
      std::map<std::pair<int, int>, std::size_t> boards;            // (round, board) -> first game
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.round_state != RoundState::Numbered) continue;
        for (const bool white : {true, false}) {
          const std::uint32_t p = white ? game.white : game.black;
          const std::uint32_t opponent = white ? game.black : game.white;
          if (!known(p)) continue;
          const auto [it, fresh] = booked.try_emplace({game.round, p}, i);
          if (fresh) continue;
          const Game& first = g(it->second);
          const std::uint32_t first_opponent = first.white == p ? first.black : first.white;
          if (first_opponent == opponent) continue;
          emit(game, Code::PlayerTwiceInRound,
               fmt::format("{} plays two games in round {}: game {} against {}, and this one against {}",
                           name(p), game.round, first.number, name(first_opponent), name(opponent)));
        }
        if (!game.board) continue;
        const auto [it, fresh] = boards.try_emplace({game.round, game.board}, i);
        if (fresh) continue;
        const Game& first = g(it->second);
        if (pair_key(first.white, first.black) == pair_key(game.white, game.black)) continue;
        emit(game, Code::BoardTwice,
             fmt::format("board {} of round {} is used twice: game {} ({} - {}) and this one", game.board,
                         game.round, first.number, name(first.white), name(first.black)));
      }
    }

    // Two players meet once in a round robin or a Swiss, twice in a double
    // round robin (k times in k cycles); a match (two players) has no limit.
    // Returns whether the round robin is complete.
    bool pairings(int player_count, int max_round) {
      if (player_count <= 2 || max_round == 0) return false;
      const int cycle = player_count % 2 == 0 ? player_count - 1 : player_count;  // rounds of one cycle
      const int cycles = std::max(1, (max_round + cycle - 1) / cycle);
      std::map<std::uint64_t, std::vector<std::size_t>> met;  // pair -> a game of each round they met
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.round_state != RoundState::Numbered || !known(game.white) || !known(game.black) ||
            game.white == game.black)
          continue;
        auto& list = met[pair_key(game.white, game.black)];
        if (std::any_of(list.begin(), list.end(), [&](std::size_t j) { return g(j).round == game.round; }))
          continue;
        list.push_back(i);
        if (int(list.size()) <= cycles) continue;
        std::string rounds;
        for (std::size_t k = 0; k + 1 < list.size(); ++k)
          rounds += fmt::format("{}{} (game {})", k ? ", " : "", g(list[k]).round, g(list[k]).number);
        const std::string system =
            cycles == 1   ? (max_round >= cycle ? "a round robin pairs them once"
                                                : "a round robin or a Swiss pairs them once")
            : cycles == 2 ? "a double round robin pairs them twice"
                          : fmt::format("a round robin of {} cycles pairs them {} times", cycles, cycles);
        emit(game, Code::RepeatedPairing,
             fmt::format("{} and {} meet again in round {}, after round {}; {}", name(game.white),
                         name(game.black), game.round, rounds, system));
      }
      // Complete: the rounds of whole cycles, every pair met that many times.
      if (max_round % cycle != 0) return false;
      const std::size_t pairs = std::size_t(player_count) * std::size_t(player_count - 1) / 2;
      if (met.size() != pairs) return false;
      return std::all_of(met.begin(), met.end(),
                         [&](const auto& m) { return int(m.second.size()) == cycles; });
    }

    // One player under two spellings, a FIDE id given to two names (or two
    // ids to one name), a player with two ratings.
    void names_and_ratings() {
      struct Seen {
        std::size_t game;  // first game with the name
        NameParts parts;
        std::uint32_t fide = 0;  // first FIDE id with the name
        std::uint16_t elo = 0;   // first rating with the name
        std::set<std::uint16_t> elos;
      };
      std::map<std::uint32_t, Seen> seen;                            // name -> what is known of it
      std::vector<std::uint32_t> order;                              // names in order of first appearance
      std::map<NameParts, std::uint32_t> by_parts;                   // the first name of each spelling
      std::map<std::uint32_t, std::uint32_t> by_fide;                // FIDE id -> first name
      std::set<std::uint64_t> reported;                              // name pairs already reported
      std::set<std::pair<std::uint32_t, std::uint32_t>> second_ids;  // (name, FIDE id) reported
      auto report_pair = [&](const Game& game, std::uint32_t a, std::uint32_t b, std::string why) {
        if (!reported.insert(pair_key(a, b)).second) return;
        emit(game, Code::PlayerName, std::move(why));
      };
      for (std::size_t i : games) {
        const Game& game = g(i);
        for (const bool white : {true, false}) {
          const std::uint32_t p = white ? game.white : game.black;
          if (!known(p)) continue;
          const std::uint32_t fide = white ? game.white_fide : game.black_fide;
          const std::uint16_t elo = white ? game.white_elo : game.black_elo;
          auto [it, fresh] = seen.try_emplace(p);
          Seen& s = it->second;
          if (fresh) {
            s.game = i;
            s.parts = name_parts(name(p));
            order.push_back(p);
            const auto [same, new_spelling] = by_parts.try_emplace(s.parts, p);
            if (!new_spelling)
              report_pair(game, same->second, p,
                          fmt::format("\"{}\" and \"{}\" (game {}) look like one player spelled two ways",
                                      name(p), name(same->second), g(seen[same->second].game).number));
          }
          if (fide) {
            if (!s.fide)
              s.fide = fide;
            else if (s.fide != fide && second_ids.insert({p, fide}).second)
              emit(game, Code::PlayerName,
                   fmt::format("{} has two FIDE ids: {} here, {} before", name(p), name(fide), name(s.fide)));
            const auto [owner, first_owner] = by_fide.try_emplace(fide, p);
            if (!first_owner && owner->second != p)
              report_pair(game, owner->second, p,
                          fmt::format("FIDE id {} is given to \"{}\" and to \"{}\" (game {})", name(fide),
                                      name(p), name(owner->second), g(seen[owner->second].game).number));
          }
          if (elo) {
            if (!s.elo) {
              s.elo = elo;
              s.elos.insert(elo);
            } else if (s.elos.insert(elo).second) {
              emit(game, Code::PlayerRating,
                   fmt::format("{} is rated {} here and {} in game {}", name(p), elo, s.elo,
                               g(first_rated(p, s.elo)).number));
            }
          }
        }
      }
      // Initials: "Carlsen, M." beside "Carlsen, Magnus", reported at the later one's first game.
      for (std::size_t a = 0; a < order.size(); ++a)
        for (std::size_t b = a + 1; b < order.size(); ++b) {
          const Seen &x = seen[order[a]], &y = seen[order[b]];
          if (x.parts.surname != y.parts.surname || !initials_agree(x.parts, y.parts)) continue;
          report_pair(g(y.game), order[a], order[b],
                      fmt::format("\"{}\" and \"{}\" (game {}) look like one player, once with initials",
                                  name(order[b]), name(order[a]), g(x.game).number));
        }
    }

    std::size_t first_rated(std::uint32_t p, std::uint16_t elo) const {
      for (std::size_t i : games) {
        const Game& game = g(i);
        if ((game.white == p && game.white_elo == elo) || (game.black == p && game.black_elo == elo))
          return i;
      }
      return games.front();
    }

    // Game dates before the EventDate, or before a game of an earlier round.
    void dates() {
      std::vector<std::size_t> numbered;
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.date && game.event_day && game.date < game.event_day)
          emit(game, Code::EventDate,
               fmt::format("the game is dated {}, before the EventDate {}", date_text(game.date),
                           date_text(game.event_day)));
        if (game.date && game.round_state == RoundState::Numbered) numbered.push_back(i);
      }
      std::stable_sort(numbered.begin(), numbered.end(),
                       [&](std::size_t a, std::size_t b) { return g(a).round < g(b).round; });
      std::size_t latest = SIZE_MAX;  // the latest-dated game of the earlier rounds
      for (std::size_t k = 0; k < numbered.size();) {
        std::size_t end = k;
        while (end < numbered.size() && g(numbered[end]).round == g(numbered[k]).round) ++end;
        for (std::size_t j = k; j < end; ++j) {
          const Game& game = g(numbered[j]);
          if (latest != SIZE_MAX && game.date < g(latest).date)
            emit(game, Code::DateOrder,
                 fmt::format("round {} is dated {}, before game {} of round {} ({})", game.round,
                             date_text(game.date), g(latest).number, g(latest).round,
                             date_text(g(latest).date)));
        }
        for (std::size_t j = k; j < end; ++j)
          if (latest == SIZE_MAX || g(numbered[j]).date > g(latest).date) latest = numbered[j];
        k = end;
      }
    }

    // A decisive result with no move played (unless the game says it was
    // not played), '*' once the tournament is over or has gone on past it.
    void results(bool finished_round_robin, int max_round) {
      int planned = 0;
      for (std::size_t i : games) planned = std::max<int>(planned, g(i).event_rounds);
      const bool finished = finished_round_robin || (planned && max_round >= planned);
      std::vector<int> later_result(std::size_t(max_round) + 2,
                                    0);  // the highest round with a result from r on
      for (std::size_t i : games)
        if (g(i).result != GameResult::Unknown && g(i).round_state == RoundState::Numbered)
          later_result[g(i).round] = g(i).round;
      for (int r = max_round - 1; r >= 0; --r)
        later_result[r] = std::max(later_result[r], later_result[r + 1]);
      for (std::size_t i : games) {
        const Game& game = g(i);
        const bool decisive = game.result == GameResult::WhiteWins || game.result == GameResult::BlackWins;
        if (decisive && game.plies == 0 && !game.has_fen && !game.forfeit)
          emit(game, Code::UnplayedResult,
               fmt::format("{} with no move played; a forfeit says so in its Termination tag",
                           result_text(game.result)));
        if (game.result != GameResult::Unknown) continue;
        if (finished)
          emit(game, Code::UnfinishedGame,
               planned && max_round >= planned
                   ? fmt::format("the game has no result (*), and the tournament is over ({} rounds of {})",
                                 max_round, planned)
                   : std::string("the game has no result (*), and the round robin is complete"));
        else if (game.round_state == RoundState::Numbered && later_result[game.round + 1])
          emit(game, Code::UnfinishedGame,
               fmt::format("the game of round {} has no result (*), and the tournament went on to round {}",
                           game.round, later_result[game.round + 1]));
      }
    }
  };
};

EventChecks::EventChecks() : impl_(std::make_unique<Impl>()) {}
EventChecks::~EventChecks() = default;
EventChecks::EventChecks(EventChecks&&) noexcept = default;
EventChecks& EventChecks::operator=(EventChecks&&) noexcept = default;

void EventChecks::add(std::size_t input, std::uint64_t number, pgn::Location start,
                      const game::GameRecord& r) {
  Pool& pool = impl_->pool;
  Game g;
  g.event = pool.id(r.tag("Event"));
  g.site = pool.id(r.tag("Site"));
  g.event_date = pool.id(r.tag("EventDate"));
  g.white = pool.id(r.tag("White"));
  g.black = pool.id(r.tag("Black"));
  g.white_fide = pool.id(r.tag("WhiteFideId"));
  g.black_fide = pool.id(r.tag("BlackFideId"));
  g.date = full_date(r.tag("Date"));
  g.event_day = full_date(r.tag("EventDate"));
  g.white_elo = small_number(r.tag("WhiteElo"), 4000);
  g.black_elo = small_number(r.tag("BlackElo"), 4000);
  g.event_rounds = small_number(r.tag("EventRounds"), 9999);
  if (r.has_tag("Round")) {
    const std::string_view text = r.tag("Round");
    g.round_text = pool.id(text);
    const auto parsed = parse_round(text);
    if (const auto* round = std::get_if<RoundTag>(&parsed)) {
      g.round_state = round->numbered()                              ? RoundState::Numbered
                      : round->kind == RoundTag::Kind::NotApplicable ? RoundState::NotApplicable
                                                                     : RoundState::Unknown;
      if (round->numbered()) {
        g.round = std::uint16_t(round->round);
        g.board = std::uint16_t(round->board.value_or(0));
      }
    } else {
      g.round_state = RoundState::Unreadable;
    }
  }
  const auto tagged = parse_result(r.tag("Result"));
  g.result = tagged ? *tagged : r.result;
  g.has_fen = r.has_tag("FEN");
  g.forfeit = says_unplayed(r.tag("Termination")) || lower_ascii(cut(r.tag("White"))) == "bye" ||
              lower_ascii(cut(r.tag("Black"))) == "bye";
  g.plies = std::uint32_t(r.main_line.size());
  g.input = std::uint32_t(input);
  g.number = number;
  g.line = start.line;
  g.column = start.column;
  impl_->games.push_back(g);
}

std::vector<EventFinding> EventChecks::findings() const {
  const Impl& impl = *impl_;
  std::vector<EventFinding> out;
  // The games of each Event name; only names shared by two games are
  // grouped into tournaments, one name at a time.
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> by_event;
  std::vector<std::uint32_t> events;
  for (std::size_t i = 0; i < impl.games.size(); ++i) {
    auto& list = by_event[impl.games[i].event];
    if (list.empty()) events.push_back(impl.games[i].event);
    list.push_back(i);
  }
  for (std::uint32_t event : events) {
    const std::vector<std::size_t>& indices = by_event[event];
    if (indices.size() < 2 || unknown_tag_value(impl.pool[event])) continue;
    // Not a tournament of rounds (a file of online games, Round "-"): no checks.
    if (std::none_of(indices.begin(), indices.end(),
                     [&](std::size_t i) { return impl.games[i].round_state == RoundState::Numbered; }))
      continue;
    std::vector<GameSummary> summaries(indices.size());
    std::vector<std::size_t> undated;  // positions in `indices` of games with a Date and no EventDate
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const Game& game = impl.games[indices[k]];
      GameSummary& s = summaries[k];
      s.event = impl.pool[game.event];
      s.site = impl.pool[game.site];
      s.event_date = impl.pool[game.event_date];
      s.white.name = impl.pool[game.white];
      s.black.name = impl.pool[game.black];
      if (unknown_tag_value(s.event_date) && game.date) undated.push_back(k);
    }
    // Without an EventDate, an edition starts where the dates jump: its
    // first date stands for the EventDate when the games are grouped.
    std::stable_sort(undated.begin(), undated.end(), [&](std::size_t a, std::size_t b) {
      return impl.games[indices[a]].date < impl.games[indices[b]].date;
    });
    long previous = 0;
    std::string edition;
    for (std::size_t k : undated) {
      const std::uint32_t date = impl.games[indices[k]].date;
      if (edition.empty() || day_number(date) - previous > kEditionGapDays) edition = date_text(date);
      previous = day_number(date);
      summaries[k].event_date = edition;
    }
    const std::vector<GameGroup> groups = group_by_event(summaries);
    for (const GameGroup& group : groups) {
      if (group.games.size() < 2) continue;
      std::vector<std::size_t> games;
      for (std::size_t k : group.games) games.push_back(indices[k]);
      if (std::none_of(games.begin(), games.end(),
                       [&](std::size_t i) { return impl.games[i].round_state == RoundState::Numbered; }))
        continue;
      // One name for several tournaments: each is told by its EventDate or Site.
      std::string label = fmt::format("in \"{}\"", group.key.event);
      if (groups.size() > 1 && !group.key.event_date.empty())
        label += fmt::format(" of {}", group.key.event_date);
      else if (groups.size() > 1 && !group.key.site.empty())
        label += fmt::format(" at {}", group.key.site);
      Impl::Checker{impl, games, std::move(label), out}.run();
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const EventFinding& a, const EventFinding& b) {
    return std::tie(a.input, a.finding.game, a.finding.code, a.finding.message) <
           std::tie(b.input, b.finding.game, b.finding.code, b.finding.message);
  });
  return out;
}

}  // namespace virrey::tournament
