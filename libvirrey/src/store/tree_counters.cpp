#include "virrey/store/tree_counters.hpp"

#include <algorithm>
#include <optional>

#include "varint.hpp"

namespace virrey::store {

namespace {

// The first byte of a value names its layout (tree_counters.hpp).
enum Layout : std::uint8_t {
  kNineFields = 1,  // the date as yyyymmdd: older databases, dates that do not pack
  kNineFieldsPackedDate = 2,
  kOneWhiteWin = 3,
  kOneDraw = 4,
  kOneBlackWin = 5,
};

// yyyymmdd -> (yyyy * 13 + mm) * 32 + dd: three varint bytes instead of four.
std::optional<std::uint32_t> pack_date(std::uint32_t yyyymmdd) {
  const std::uint32_t year = yyyymmdd / 10000, month = yyyymmdd / 100 % 100, day = yyyymmdd % 100;
  if (month > 12 || day > 31) return std::nullopt;
  return (year * 13 + month) * 32 + day;
}

std::uint32_t unpack_date(std::uint64_t packed) {
  const std::uint64_t day = packed % 32, month = packed / 32 % 13, year = packed / 32 / 13;
  return std::uint32_t(year * 10000 + month * 100 + day);
}

// A rating of one game: 0 without one, else the rating + 1.
std::optional<std::uint64_t> one_rating(std::uint64_t sum, std::uint64_t games) {
  if (games > 1 || (games == 0 && sum != 0)) return std::nullopt;
  return games ? sum + 1 : 0;
}

std::optional<Layout> one_game_layout(const TreeCounters& c) {
  if (c.games != 1 || c.white_wins + c.draws + c.black_wins != 1) return std::nullopt;
  return c.white_wins ? kOneWhiteWin : c.draws ? kOneDraw : kOneBlackWin;
}

}  // namespace

void TreeCounters::add(const TreeCounters& o) {
  games += o.games;
  white_wins += o.white_wins;
  draws += o.draws;
  black_wins += o.black_wins;
  white_elo_sum += o.white_elo_sum;
  white_elo_games += o.white_elo_games;
  black_elo_sum += o.black_elo_sum;
  black_elo_games += o.black_elo_games;
  last_date = std::max(last_date, o.last_date);
}

std::string encode_tree_counters(const TreeCounters& c) {
  std::string out;  // one game's value fits the string's own buffer
  const auto date = pack_date(c.last_date);
  const auto one = one_game_layout(c);
  const auto white = one_rating(c.white_elo_sum, c.white_elo_games);
  const auto black = one_rating(c.black_elo_sum, c.black_elo_games);
  if (one && date && white && black) {
    out += char(*one);
    put_varint(out, *white);
    put_varint(out, *black);
    put_varint(out, *date);
    return out;
  }
  out += char(date ? kNineFieldsPackedDate : kNineFields);
  for (std::uint64_t v : {c.games, c.white_wins, c.draws, c.black_wins, c.white_elo_sum, c.white_elo_games,
                          c.black_elo_sum, c.black_elo_games})
    put_varint(out, v);
  put_varint(out, date ? *date : c.last_date);
  return out;
}

std::optional<TreeCounters> decode_tree_counters(std::string_view bytes) {
  ByteReader r(bytes);
  const std::uint8_t layout = r.byte();
  TreeCounters c;
  switch (layout) {
    case kNineFields:
    case kNineFieldsPackedDate:
      for (std::uint64_t* f : {&c.games, &c.white_wins, &c.draws, &c.black_wins, &c.white_elo_sum,
                               &c.white_elo_games, &c.black_elo_sum, &c.black_elo_games})
        *f = r.varint();
      c.last_date = layout == kNineFields ? std::uint32_t(r.varint()) : unpack_date(r.varint());
      break;
    case kOneWhiteWin:
    case kOneDraw:
    case kOneBlackWin: {
      c.games = 1;
      c.white_wins = layout == kOneWhiteWin;
      c.draws = layout == kOneDraw;
      c.black_wins = layout == kOneBlackWin;
      if (const std::uint64_t w = r.varint()) c.white_elo_sum = w - 1, c.white_elo_games = 1;
      if (const std::uint64_t b = r.varint()) c.black_elo_sum = b - 1, c.black_elo_games = 1;
      c.last_date = unpack_date(r.varint());
      break;
    }
    default: return std::nullopt;
  }
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return c;
}

}  // namespace virrey::store
