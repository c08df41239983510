#include "virrey/store/tree_counters.hpp"

#include <algorithm>

#include "varint.hpp"

namespace virrey::store {

namespace {
constexpr std::uint8_t kTreeFormat = 1;
}

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
  std::string out;
  out.reserve(16);
  out += char(kTreeFormat);
  for (std::uint64_t v : {c.games, c.white_wins, c.draws, c.black_wins, c.white_elo_sum,
                          c.white_elo_games, c.black_elo_sum, c.black_elo_games,
                          std::uint64_t(c.last_date)})
    put_varint(out, v);
  return out;
}

std::optional<TreeCounters> decode_tree_counters(std::string_view bytes) {
  ByteReader r(bytes);
  if (r.byte() != kTreeFormat) return std::nullopt;
  TreeCounters c;
  for (std::uint64_t* f : {&c.games, &c.white_wins, &c.draws, &c.black_wins, &c.white_elo_sum,
                           &c.white_elo_games, &c.black_elo_sum, &c.black_elo_games})
    *f = r.varint();
  c.last_date = std::uint32_t(r.varint());
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return c;
}

}  // namespace virrey::store
