#include "virrey/rules/perft.hpp"

#include <atomic>
#include <thread>

namespace virrey {

template <class G>
std::vector<PerftEntry> perft_divide(const Position<G>& pos, int depth, int threads) {
  const MoveList moves = legal_moves(pos);
  std::vector<PerftEntry> entries(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) entries[i].move = moves[i];
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < entries.size();)
      entries[i].nodes = depth <= 1 ? 1 : perft(pos.after(entries[i].move), depth - 1);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return entries;
}

template std::vector<PerftEntry> perft_divide<Board8>(const Position<Board8>&, int, int);
template std::vector<PerftEntry> perft_divide<Board9>(const Position<Board9>&, int, int);

}  // namespace virrey
