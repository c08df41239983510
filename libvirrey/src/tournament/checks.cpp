#include "virrey/tournament/checks.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "virrey/tournament/event.hpp"
#include "virrey/tournament/grouping.hpp"
#include "virrey/tournament/round.hpp"

#include "calendar.hpp"

namespace virrey::tournament {

using validate::Code;

namespace {

// A tag value's text kept for the checks' messages is cut here (at a UTF-8
// boundary): names, events and dates are far shorter, and a hostile file
// cannot grow the summaries past a few hundred bytes a game. Values are told
// apart by their whole text all the same (its hash beside the kept text).
constexpr std::size_t kMaxValue = 128;

std::string_view cut(std::string_view v) {
  if (v.size() <= kMaxValue) return v;
  std::size_t n = kMaxValue;
  while (n > 0 && (static_cast<unsigned char>(v[n]) & 0xC0) == 0x80) --n;
  return v.substr(0, n);
}

// Tag values interned: id 0 is the empty value. The characters of every
// value sit in one buffer and the ids in an open-addressing table, so that
// interning a value seen before allocates nothing, and a new one rarely.
class Pool {
 public:
  Pool() : spans_{0}, hashes_{0}, whole_{true}, slots_(1024) {}
  std::uint32_t id(std::string_view whole) {
    if (whole.empty()) return 0;
    const std::size_t hash = std::hash<std::string_view>{}(whole);
    const std::string_view v = cut(whole);
    const auto check = std::uint32_t(hash >> 32);  // the slot's bits, told apart without reading the value
    std::size_t slot = hash & (slots_.size() - 1);
    for (; slots_[slot].id != 0; slot = (slot + 1) & (slots_.size() - 1))
      if (slots_[slot].check == check && hashes_[slots_[slot].id] == hash && (*this)[slots_[slot].id] == v)
        return slots_[slot].id;
    const auto id = std::uint32_t(spans_.size());
    spans_.push_back(std::uint64_t(chars_.size()) << 8 | v.size());
    hashes_.push_back(hash);
    whole_.push_back(v.size() == whole.size());
    chars_.append(v);
    slots_[slot] = {id, check};
    if (spans_.size() * 2 > slots_.size()) rehash();
    return id;
  }
  std::string_view operator[](std::uint32_t id) const {
    return std::string_view(chars_.data() + (spans_[id] >> 8), spans_[id] & 0xff);
  }
  std::size_t size() const { return spans_.size(); }
  // Whether the value of this id is v, without hashing it.
  bool holds(std::uint32_t id, std::string_view v) const { return whole_[id] && (*this)[id] == v; }
  bool whole(std::uint32_t id) const { return whole_[id]; }

 private:
  struct Slot {
    std::uint32_t id = 0;  // 0: free
    std::uint32_t check = 0;
  };
  void rehash() {
    std::vector<Slot> slots(slots_.size() * 2);
    for (std::uint32_t id = 1; id < spans_.size(); ++id) {
      std::size_t slot = hashes_[id] & (slots.size() - 1);
      while (slots[slot].id != 0) slot = (slot + 1) & (slots.size() - 1);
      slots[slot] = {id, std::uint32_t(hashes_[id] >> 32)};
    }
    slots_ = std::move(slots);
  }

  std::string chars_;
  std::vector<std::uint64_t> spans_;  // [id]: offset in chars_ << 8 | length (at most kMaxValue)
  std::vector<std::size_t> hashes_;   // [id]: the value's hash
  std::vector<bool> whole_;           // [id]: the text kept is the whole value
  std::vector<Slot> slots_;           // a power of two long
};

enum class RoundState : std::uint8_t { Numbered, Missing, Unknown, NotApplicable, Unreadable };

// What the checks keep of one game (88 bytes).
struct Game {
  std::uint32_t event = 0, site = 0, event_date = 0, white = 0, black = 0;
  std::uint32_t white_fide = 0, black_fide = 0, round_text = 0;
  DateSpan date_span;                          // the days a Date of a month or a year alone stands for
  std::uint32_t event_day = 0;                 // EventDate as yyyymmdd, 0 when not a full date
  std::uint16_t white_elo = 0, black_elo = 0;  // 0: no rating
  std::uint16_t round = 0, board = 0;          // round 0: not numbered
  std::uint16_t event_rounds = 0;              // EventRounds, 0 when absent
  RoundState round_state = RoundState::Missing;
  GameResult result = GameResult::Unknown;
  bool has_fen = false;
  bool forfeit = false;  // Termination or a bye opponent ("BYE", "-", "?") says it was not played
  bool no_moves = false;
  bool termination_told = false;  // Termination names how the game ended (or that it was not played)
  Variant variant = Variant::Standard;
  bool variant_unknown = false;  // variant_tag_unknown
  std::uint32_t input = 0;
  std::uint32_t column = 0;  // (a start past column 2^32 - 1 is given as that)
  std::uint64_t number = 0, line = 0;

  // yyyymmdd, 0 when not a full date.
  std::uint32_t date() const { return date_span.first == date_span.last ? date_span.first : 0; }
};

static_assert(sizeof(Game) == 88, "the README gives this size");

// The games kept, in blocks: a million games take 88 MB, not up to twice as
// much (a vector's spare capacity) and never three times as much for a
// moment (a vector's copy as it grows).
class GameStore {
 public:
  void push_back(const Game& g) {
    if (size_ % kBlock == 0) blocks_.push_back(std::make_unique<Game[]>(kBlock));
    blocks_.back()[size_ % kBlock] = g;
    ++size_;
  }
  const Game& operator[](std::size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
  const Game& back() const { return (*this)[size_ - 1]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr std::size_t kBlock = 16384;
  std::vector<std::unique_ptr<Game[]>> blocks_;
  std::size_t size_ = 0;
};

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

// The ASCII letter of the Latin-1 and Latin Extended-A letters U+00C0..U+017F
// ('*' for the two signs among them), so that "Carlsén" and "Carlsen" compare equal.
constexpr std::string_view kFolded =
    "AAAAAAACEEEEIIIIDNOOOOO*OUUUUYTsaaaaaaaceeeeiiiidnooooo*ouuuuyty"
    "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlL"
    "lLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

// Whether name[i] starts a combining diacritical mark (U+0300..U+036F, in
// UTF-8 CC 80 .. CD AF): the accent of a letter written decomposed (NFD, as
// macOS writes file names and some programs their text), "n" then U+0303.
bool combining_mark_at(std::string_view name, std::size_t i) {
  if (i + 1 >= name.size()) return false;
  const auto c = static_cast<unsigned char>(name[i]), next = static_cast<unsigned char>(name[i + 1]);
  return (c == 0xCC && next >= 0x80 && next <= 0xBF) || (c == 0xCD && next >= 0x80 && next <= 0xAF);
}

// A name's words, lower case, accents (precomposed or combining) and
// punctuation dropped.
std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    char letter = 0;
    if (combining_mark_at(name, i)) {
      ++i;  // part of the letter before it: no letter, and no break between words
      continue;
    }
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

// What the names of one spelling share: the name's words, surname first,
// read round the name from the word that sorts first. Only the order of the
// words round the name counts, not the word it starts with: "Carlsen,
// Magnus", "Magnus Carlsen" and "Carlsen Magnus" (a comma dropped, or a name
// written surname first, "Ng Bo") are one spelling, and so are "Ding, Liren"
// and "Liren, Ding"; "Carlsen, Henrik" is another.
std::string spelling_key(const NameParts& parts) {
  std::vector<std::string_view> words{parts.surname};
  words.insert(words.end(), parts.given.begin(), parts.given.end());
  std::string key;
  for (std::size_t first = 0; first < words.size(); ++first) {
    std::string round;
    for (std::size_t k = 0; k < words.size(); ++k) {
      if (k) round += '\x01';  // no word holds a control byte
      round += words[(first + k) % words.size()];
    }
    if (first == 0 || round < key) key = std::move(round);
  }
  return key;
}

// Each player name's spelling in one tournament: names with one spelling
// ("Carlsen, Magnus", "Magnus Carlsen") share its id, names with one surname
// share the surname's id. (One tournament's: kept for the whole run, the
// spellings of a collection of a million distinct names took 100 MB.)
class Spellings {
 public:
  struct Ids {
    std::uint32_t spelling = 0, surname = 0;
  };
  // A name cut short for the messages is a spelling and a surname of its own.
  template <class NameOf>
  Ids operator()(std::uint32_t name, NameOf name_of, bool whole) {
    Ids& ids = of_[name];
    if (ids.spelling) return ids;  // 0: not yet worked out
    if (!whole) {
      std::string own(1, '\x02');  // no word holds a control byte
      own += std::to_string(name);
      ids.spelling = keys_.id(own) + 1;
      ids.surname = ids.spelling - 1;
      return ids;
    }
    const NameParts parts = name_parts(name_of(name));
    ids.spelling = keys_.id(spelling_key(parts)) + 1;
    ids.surname = keys_.id(parts.surname);
    return ids;
  }

 private:
  std::unordered_map<std::uint32_t, Ids> of_;
  Pool keys_;
};

}  // namespace

struct EventChecks::Impl {
  Pool pool;
  GameStore games;
  std::vector<std::string> input_names;  // by input index, as messages name them
  std::vector<bool> numbered_events;     // [event id]: a game of the event has a numbered round
  // Games of Round "-" of events that have named no round yet, a few each
  // (see add): kept until a game of their event names a round.
  // Round "-" says no round (online play): few. A game with no round number
  // otherwise (no Round tag, "?", one that does not read) is more likely a
  // tournament's with its Round left out: more, so each is told of.
  static constexpr std::size_t kPendingPerEvent = 16, kPendingUnnumberedPerEvent = 1024,
                               kPendingGames = 65536;
  std::unordered_map<std::uint32_t, std::vector<Game>> pending;
  std::size_t pending_games = 0;

  // The findings of one tournament.
  struct Checker {
    const Impl& impl;
    const std::vector<std::size_t>& games;  // indices into impl.games, input order
    std::string label;                      // "in \"Event\"" for messages
    std::vector<EventFinding>& out;
    Spellings spellings;

    const Game& g(std::size_t i) const { return impl.games[i]; }
    std::string_view name(std::uint32_t id) const { return impl.pool[id]; }
    // A player the checks follow: named, and not the "BYE" (or "-") of a
    // bye written as a game, as event reads it.
    bool known(std::uint32_t player) const {
      const std::string_view n = name(player);
      return !bye_name(n);  // (a name not known among them)
    }

    // "game N", and the input's name when it is another than `here`'s.
    std::string game_ref(const Game& other, const Game& here) const {
      if (other.input == here.input || other.input >= impl.input_names.size() ||
          impl.input_names[other.input].empty())
        return fmt::format("game {}", other.number);
      return fmt::format("game {} of {}", other.number, impl.input_names[other.input]);
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
      std::vector<std::uint32_t> players;
      for (std::size_t i : games) {
        max_round = std::max<int>(max_round, g(i).round);
        for (std::uint32_t p : {g(i).white, g(i).black})
          if (known(p)) players.push_back(p);
      }
      std::sort(players.begin(), players.end());
      players.erase(std::unique(players.begin(), players.end()), players.end());
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
        const std::string_view text = name(game.round_text);
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
      std::unordered_map<std::uint64_t, std::size_t> booked;  // (round, player) -> first game
      std::unordered_map<std::uint32_t, std::size_t> boards;  // (round, board) -> first game
      booked.reserve(2 * games.size());
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (known(game.white) && game.white == game.black) {  // no pairing: booked in no round
          emit(game, Code::SelfPairing,
               fmt::format("{} plays against themself; the game counts in no standings", name(game.white)));
          continue;
        }
        if (game.round_state != RoundState::Numbered) continue;
        for (const bool white : {true, false}) {
          const std::uint32_t p = white ? game.white : game.black;
          const std::uint32_t opponent = white ? game.black : game.white;
          if (!known(p)) continue;
          const auto [it, fresh] = booked.try_emplace(std::uint64_t(game.round) << 32 | p, i);
          if (fresh) continue;
          const Game& first = g(it->second);
          const std::uint32_t first_opponent = first.white == p ? first.black : first.white;
          if (first_opponent == opponent) continue;
          emit(game, Code::PlayerTwiceInRound,
               fmt::format("{} plays two games in round {}: {} against {}, and this one against {}", name(p),
                           game.round, game_ref(first, game), name(first_opponent), name(opponent)));
        }
        if (!game.board) continue;
        const auto [it, fresh] = boards.try_emplace(std::uint32_t(game.round) << 16 | game.board, i);
        if (fresh) continue;
        const Game& first = g(it->second);
        if (pair_key(first.white, first.black) == pair_key(game.white, game.black)) continue;
        emit(game, Code::BoardTwice,
             fmt::format("board {} of round {} is used twice: {} ({} - {}) and this one", game.board,
                         game.round, game_ref(first, game), name(first.white), name(first.black)));
      }
    }

    // Two players meet once in a round robin or a Swiss, twice in a double
    // round robin (k times in k cycles); a match (two players) has no limit.
    // Returns whether the round robin is complete.
    bool pairings(int player_count, int max_round) {
      if (player_count <= 2 || max_round == 0) return false;
      const int cycle = player_count % 2 == 0 ? player_count - 1 : player_count;  // rounds of one cycle
      const int cycles = std::max(1, (max_round + cycle - 1) / cycle);
      std::unordered_map<std::uint64_t, std::vector<std::size_t>>
          met;  // pair -> a game of each round they met
      met.reserve(games.size());
      // A pair's rounds, looked up in a set once it has met in many (a team
      // match written as one event: thousands of rounds).
      constexpr std::size_t kScanned = 16;
      std::unordered_map<std::uint64_t, std::unordered_set<int>> rounds_of_frequent_pairs;
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.round_state != RoundState::Numbered || !known(game.white) || !known(game.black) ||
            game.white == game.black)
          continue;
        const std::uint64_t pair = pair_key(game.white, game.black);
        auto& list = met[pair];
        if (list.size() < kScanned) {
          if (std::any_of(list.begin(), list.end(), [&](std::size_t j) { return g(j).round == game.round; }))
            continue;  // (their round's other game)
        } else {
          auto& rounds = rounds_of_frequent_pairs[pair];
          if (rounds.empty())
            for (std::size_t j : list) rounds.insert(g(j).round);
          if (!rounds.insert(game.round).second) continue;
        }
        list.push_back(i);
        if (int(list.size()) <= cycles) continue;
        // The meetings before, the first few of them named (a finding stays
        // short however often a pair meets).
        constexpr std::size_t kNamed = 3;
        std::string rounds;
        const std::size_t before = list.size() - 1;
        for (std::size_t k = 0; k < std::min(before, kNamed); ++k)
          rounds += fmt::format("{}{} ({})", k ? ", " : "", g(list[k]).round, game_ref(g(list[k]), game));
        if (before > kNamed) rounds += fmt::format(" and {} more", before - kNamed);
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
        Spellings::Ids ids;
        std::uint32_t fide = 0;    // first FIDE id with the name
        std::uint16_t elo = 0;     // first rating with the name
        std::size_t elo_game = 0;  // the first game with that rating
        std::vector<std::uint16_t> elos;
      };
      std::unordered_map<std::uint32_t, Seen> seen;                  // name -> what is known of it
      std::vector<std::uint32_t> order;                              // names in order of first appearance
      std::unordered_map<std::uint32_t, std::uint32_t> by_spelling;  // the first name of each spelling
      std::unordered_map<std::uint32_t, std::uint32_t> by_fide;      // FIDE id -> first name
      std::unordered_set<std::uint64_t> reported;                    // name pairs already reported
      std::unordered_set<std::uint64_t> second_ids;                  // (name, FIDE id) reported
      auto report_pair = [&](const Game& game, std::uint32_t a, std::uint32_t b, std::string why) {
        if (!reported.insert(pair_key(a, b)).second) return;
        emit(game, Code::PlayerName, std::move(why));
      };
      const auto name_of = [&](std::uint32_t id) { return name(id); };
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
            s.ids = spellings(p, name_of, impl.pool.whole(p));
            order.push_back(p);
            const auto [same, new_spelling] = by_spelling.try_emplace(s.ids.spelling, p);
            if (!new_spelling)
              report_pair(game, same->second, p,
                          fmt::format("\"{}\" and \"{}\" ({}) look like one player spelled two ways", name(p),
                                      name(same->second), game_ref(g(seen.at(same->second).game), game)));
          }
          if (fide) {
            if (!s.fide)
              s.fide = fide;
            else if (s.fide != fide && second_ids.insert(std::uint64_t(p) << 32 | fide).second)
              emit(game, Code::PlayerName,
                   fmt::format("{} has two FIDE ids: {} here, {} before", name(p), name(fide), name(s.fide)));
            const auto [owner, first_owner] = by_fide.try_emplace(fide, p);
            if (!first_owner && owner->second != p)
              report_pair(game, owner->second, p,
                          fmt::format("FIDE id {} is given to \"{}\" and to \"{}\" ({})", name(fide), name(p),
                                      name(owner->second), game_ref(g(seen.at(owner->second).game), game)));
          }
          if (elo) {
            if (!s.elo) {
              s.elo = elo;
              s.elo_game = i;
              s.elos.push_back(elo);
            } else if (std::find(s.elos.begin(), s.elos.end(), elo) == s.elos.end()) {
              s.elos.push_back(elo);
              emit(game, Code::PlayerRating,
                   fmt::format("{} is rated {} here and {} in {}", name(p), elo, s.elo,
                               game_ref(g(s.elo_game), game)));
            }
          }
        }
      }
      // Initials: "Carlsen, M." beside "Carlsen, Magnus", reported at the
      // later one's first game; only the names of one surname are compared.
      std::unordered_map<std::uint32_t, std::vector<std::uint32_t>>
          by_surname;  // in order of first appearance
      for (std::uint32_t p : order) by_surname[seen.at(p).ids.surname].push_back(p);
      for (const auto& [surname, names] : by_surname) {
        if (names.size() < 2) continue;
        std::vector<NameParts> parts;
        for (std::uint32_t p : names) parts.push_back(name_parts(name(p)));
        for (std::size_t a = 0; a < names.size(); ++a)
          for (std::size_t b = a + 1; b < names.size(); ++b) {
            if (!initials_agree(parts[a], parts[b])) continue;
            const Game& later = g(seen.at(names[b]).game);
            report_pair(
                later, names[a], names[b],
                fmt::format("\"{}\" and \"{}\" ({}) look like one player, once with initials", name(names[b]),
                            name(names[a]), game_ref(g(seen.at(names[a]).game), later)));
          }
      }
    }

    // Game dates before the EventDate, or before a game of an earlier round.
    void dates() {
      std::vector<std::size_t> numbered;
      for (std::size_t i : games) {
        const Game& game = g(i);
        if (game.date() && game.event_day && game.date() < game.event_day)
          emit(game, Code::EventDate,
               fmt::format("the game is dated {}, before the EventDate {}", date_text(game.date()),
                           date_text(game.event_day)));
        if (game.date() && game.round_state == RoundState::Numbered) numbered.push_back(i);
      }
      std::stable_sort(numbered.begin(), numbered.end(),
                       [&](std::size_t a, std::size_t b) { return g(a).round < g(b).round; });
      std::size_t latest = SIZE_MAX;  // the latest-dated game of the earlier rounds
      for (std::size_t k = 0; k < numbered.size();) {
        std::size_t end = k;
        while (end < numbered.size() && g(numbered[end]).round == g(numbered[k]).round) ++end;
        for (std::size_t j = k; j < end; ++j) {
          const Game& game = g(numbered[j]);
          if (latest != SIZE_MAX && game.date() < g(latest).date())
            emit(game, Code::DateOrder,
                 fmt::format("round {} is dated {}, before {} of round {} ({})", game.round,
                             date_text(game.date()), game_ref(g(latest), game), g(latest).round,
                             date_text(g(latest).date())));
        }
        for (std::size_t j = k; j < end; ++j)
          if (latest == SIZE_MAX || g(numbered[j]).date() > g(latest).date()) latest = numbered[j];
        k = end;
      }
    }

    // A decisive result with no move played, read as a forfeit as `event`
    // reads it: not when the game's Termination says how it ended, nor in a
    // file of results (no game between two players has a move); '*' once the
    // tournament is over or has gone on past it.
    void results(bool finished_round_robin, int max_round) {
      const bool results_only = std::none_of(games.begin(), games.end(), [&](std::size_t i) {
        return known(g(i).white) && known(g(i).black) && !g(i).no_moves;
      });
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
        if (decisive && game.no_moves && !game.has_fen && !game.forfeit && !game.termination_told &&
            !results_only)
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

void EventChecks::name_input(std::size_t input, std::string name) {
  if (impl_->input_names.size() <= input) impl_->input_names.resize(input + 1);
  impl_->input_names[input] = std::move(name);
}

void EventChecks::add(std::size_t input, std::uint64_t number, pgn::Location start, const game::GameRecord& r,
                      bool moves_cut_short) {
  // The tags read, in one pass; backwards, so that the first of a repeated tag wins (as GameRecord::tag).
  std::string_view event, site, event_date, date, white, black, white_fide, black_fide, white_elo, black_elo,
      event_rounds, round, result, termination;
  bool has_round = false, has_fen = false;
  for (auto t = r.tags.rbegin(); t != r.tags.rend(); ++t) {
    const std::string_view n = t->name, v = t->value;
    // By length and first letter, then one comparison: most tags are none of these.
    const auto take = [&](std::string_view& slot, std::string_view name) {
      if (n == name) slot = v;
    };
    if (n.empty()) continue;
    switch (n.size() << 8 | static_cast<unsigned char>(n[0])) {
      case 3 << 8 | 'F': has_fen = has_fen || n == "FEN"; break;
      case 4 << 8 | 'S': take(site, "Site"); break;
      case 4 << 8 | 'D': take(date, "Date"); break;
      case 5 << 8 | 'E': take(event, "Event"); break;
      case 5 << 8 | 'W': take(white, "White"); break;
      case 5 << 8 | 'B': take(black, "Black"); break;
      case 5 << 8 | 'R':
        if (n == "Round") round = v, has_round = true;
        break;
      case 6 << 8 | 'R': take(result, "Result"); break;
      case 8 << 8 | 'W': take(white_elo, "WhiteElo"); break;
      case 8 << 8 | 'B': take(black_elo, "BlackElo"); break;
      case 9 << 8 | 'E': take(event_date, "EventDate"); break;
      case 11 << 8 | 'W': take(white_fide, "WhiteFideId"); break;
      case 11 << 8 | 'B': take(black_fide, "BlackFideId"); break;
      case 11 << 8 | 'E': take(event_rounds, "EventRounds"); break;
      case 11 << 8 | 'T': take(termination, "Termination"); break;
      default: break;
    }
  }
  // A game of no named Event is of no tournament the checks make out: not kept.
  if (unknown_tag_value(event)) return;
  // Games come in runs of one event: its values are looked up again only when they change.
  Impl& impl = *impl_;
  Pool& pool = impl.pool;
  const auto same_or_id = [&](std::uint32_t last, std::string_view v) {
    return pool.holds(last, v) ? last : pool.id(v);
  };
  Game g;
  const Game* last = impl.games.empty() ? nullptr : &impl.games.back();
  g.event = last ? same_or_id(last->event, event) : pool.id(event);
  if (has_round) {
    const auto parsed = parse_round(round);
    if (const auto* tag = std::get_if<RoundTag>(&parsed)) {
      g.round_state = tag->numbered()                              ? RoundState::Numbered
                      : tag->kind == RoundTag::Kind::NotApplicable ? RoundState::NotApplicable
                                                                   : RoundState::Unknown;
      if (tag->numbered()) {
        g.round = std::uint16_t(tag->round);
        g.board = std::uint16_t(tag->board.value_or(0));
      }
    } else {
      g.round_state = RoundState::Unreadable;
    }
  }
  // An event is checked only once a game of it names a round. Round "-" says
  // the game belongs to no round (online play: a stream of such games, each
  // with a Site of its own, would be kept to no end), so of an event that
  // has named no round yet such games are kept aside, the first 16 (and
  // 65,536 in all): a file sorted by Round has its "-" games first, and they
  // join their event once it names a round. Past that, they are not kept.
  // So are games with no round number otherwise (no Round tag, "?", one that
  // does not read: a stream of games exported without Round), up to 1,024
  // an event.
  if (impl.numbered_events.size() <= g.event) impl.numbered_events.resize(std::size_t(g.event) + 1, false);
  const bool first_numbered = g.round_state == RoundState::Numbered && !impl.numbered_events[g.event];
  if (g.round_state == RoundState::Numbered) impl.numbered_events[g.event] = true;
  const bool aside = g.round_state != RoundState::Numbered && !impl.numbered_events[g.event];
  if (aside) {
    const auto it = impl.pending.find(g.event);
    const std::size_t held = it == impl.pending.end() ? 0 : it->second.size();
    const std::size_t per_event = g.round_state == RoundState::NotApplicable
                                      ? Impl::kPendingPerEvent
                                      : Impl::kPendingUnnumberedPerEvent;
    if (held >= per_event || impl.pending_games >= Impl::kPendingGames) return;
  }
  // The text is kept for the messages about a round not numbered.
  if (has_round && g.round_state != RoundState::Numbered) g.round_text = pool.id(round);
  g.site = last ? same_or_id(last->site, site) : pool.id(site);
  g.event_date = last ? same_or_id(last->event_date, event_date) : pool.id(event_date);
  // A player's games often follow one another (a collection of one player's games, a match).
  const auto name_id = [&](std::string_view v) {
    if (!last) return pool.id(v);
    return pool.holds(last->white, v) ? last->white : pool.holds(last->black, v) ? last->black : pool.id(v);
  };
  g.white = name_id(white);
  g.black = name_id(black);
  g.variant = r.variant;
  g.variant_unknown = variant_tag_unknown(r);
  g.white_fide = pool.id(white_fide);
  g.black_fide = pool.id(black_fide);
  g.date_span = date_span(date);
  g.event_day = full_date(event_date);
  g.white_elo = small_number(white_elo, 4000);
  g.black_elo = small_number(black_elo, 4000);
  g.event_rounds = small_number(event_rounds, 9999);
  const auto tagged = parse_result(result);
  g.result = tagged ? *tagged : r.result;
  g.has_fen = has_fen;
  g.forfeit = says_unplayed(termination) || no_player(white, white_fide) || no_player(black, black_fide);
  // Moves not read (an unknown variant) or not played (after a move in
  // error) are moves all the same.
  g.no_moves = r.main_line.empty() && !r.moves_unread && !moves_cut_short;
  g.termination_told = !unknown_tag_value(termination);
  g.input = std::uint32_t(input);
  g.number = number;
  g.line = start.line;
  g.column = std::uint32_t(std::min<std::uint64_t>(start.column, UINT32_MAX));
  if (aside) {
    impl.pending[g.event].push_back(g);
    ++impl.pending_games;
    return;
  }
  if (first_numbered) {
    if (const auto it = impl.pending.find(g.event); it != impl.pending.end()) {
      for (const Game& held : it->second) impl.games.push_back(held);
      impl.pending_games -= it->second.size();
      impl.pending.erase(it);
    }
  }
  impl.games.push_back(g);
}

std::vector<EventFinding> EventChecks::findings() const {
  const Impl& impl = *impl_;
  std::vector<EventFinding> out;
  // The games of each Event name (by the name's id, in input order); only
  // names shared by two games are grouped into tournaments, one name at a time.
  std::vector<std::uint32_t> first(impl.pool.size() + 1, 0);  // [event id]: start of its games in `by_event`
  for (std::size_t i = 0; i < impl.games.size(); ++i) ++first[impl.games[i].event + 1];
  for (std::size_t e = 1; e < first.size(); ++e) first[e] += first[e - 1];
  std::vector<std::size_t> by_event(impl.games.size());
  {
    std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < impl.games.size(); ++i) by_event[next[impl.games[i].event]++] = i;
  }
  std::vector<std::size_t> indices;
  std::vector<GroupingKeys> keys;
  for (std::uint32_t event = 0; event + 1 < first.size(); ++event) {
    if (first[event + 1] - first[event] < 2 || unknown_tag_value(impl.pool[event])) continue;
    indices.assign(by_event.begin() + first[event], by_event.begin() + first[event + 1]);
    // Not a tournament of rounds (a file of online games, Round "-"): no checks.
    if (std::none_of(indices.begin(), indices.end(),
                     [&](std::size_t i) { return impl.games[i].round_state == RoundState::Numbered; }))
      continue;
    keys.resize(indices.size());
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const Game& game = impl.games[indices[k]];
      keys[k] = {impl.pool[game.event], impl.pool[game.site],  impl.pool[game.event_date],
                 impl.pool[game.white], impl.pool[game.black], game.variant,
                 game.date_span.first,  game.date_span.last};
      keys[k].variant_unknown = game.variant_unknown;
    }
    const std::vector<GameGroup> groups = group_by_event(keys);
    std::vector<TournamentKey> group_keys;
    for (const GameGroup& group : groups) group_keys.push_back(group.key);
    const std::vector<std::string> suffixes = split_label_suffixes(group_keys);
    for (std::size_t k = 0; k < groups.size(); ++k) {
      const GameGroup& group = groups[k];
      if (group.games.size() < 2) continue;
      std::vector<std::size_t> games;
      for (std::size_t k : group.games) games.push_back(indices[k]);
      if (std::none_of(games.begin(), games.end(),
                       [&](std::size_t i) { return impl.games[i].round_state == RoundState::Numbered; }))
        continue;
      // One name for several tournaments: each is told by its EventDate or Site.
      std::string label = fmt::format("in \"{}\"{}", group.key.event, suffixes[k]);
      Impl::Checker{impl, games, std::move(label), out, {}}.run();
    }
  }
  // Sorted through their indices: a finding is moved once, not at every step.
  std::vector<std::size_t> order(out.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const EventFinding &a = out[x], &b = out[y];
    return std::tie(a.input, a.finding.game, a.finding.code, a.finding.message) <
           std::tie(b.input, b.finding.game, b.finding.code, b.finding.message);
  });
  std::vector<EventFinding> sorted;
  sorted.reserve(out.size());
  for (std::size_t i : order) sorted.push_back(std::move(out[i]));
  return sorted;
}

}  // namespace virrey::tournament
