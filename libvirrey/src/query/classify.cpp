#include "virrey/query/classify.hpp"

#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"

namespace virrey::query {

namespace {

constexpr std::size_t kBatchGames = 8192;

template <class G>
std::optional<store::StoredOpening> classify_in(const OpeningBook& book, const game::GameRecord& rec) {
  std::optional<Position<G>> start;
  if (rec.start_fen.empty()) {
    start = variant_start<G>(rec.variant);
  } else {
    FenProblems problems;
    start = position_from_fen<G>(rec.start_fen, rec.variant, problems);
  }
  if (!start) return std::nullopt;
  const int fewest = book.fewest_men[std::size_t(rec.variant)];
  if (fewest == 0) return std::nullopt;
  Position<G> pos = *start;
  const store::NamedPosition* best = book.find(rec.variant, pos.hash());
  std::uint32_t best_ply = 0;
  for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
    pos.play(rec.main_line[i]);
    // No move adds a man: past the book's fewest, no position can be named.
    if (popcount(pos.occupied()) < fewest) break;
    if (const store::NamedPosition* p = book.find(rec.variant, pos.hash()))
      best = p, best_ply = std::uint32_t(i + 1);
  }
  if (!best) return std::nullopt;
  store::StoredOpening out = best->opening;
  out.ply = best_ply;
  return out;
}

}  // namespace

std::optional<store::StoredOpening> classify_game(const OpeningBook& book, const game::GameRecord& game) {
  return with_geometry(game.variant, [&](auto g) { return classify_in<decltype(g)>(book, game); });
}

Result<ClassifyTotals> classify_games(store::Database& db, const OpeningBook& book, store::GameId first,
                                      const std::function<void(std::uint64_t)>& progress) {
  if (Status s = db.put_named_positions(book.source, book.positions); !s) return s.error();
  ClassifyTotals totals;
  std::vector<std::pair<store::GameId, std::optional<store::StoredOpening>>> batch;
  Status failure;
  Status s = db.for_each_game(
      [&](store::GameId id, const game::GameRecord& rec) {
        batch.emplace_back(id, classify_game(book, rec));
        ++totals.games;
        totals.classified += batch.back().second.has_value();
        if (batch.size() >= kBatchGames) {
          failure = db.put_openings(batch);
          batch.clear();
          if (progress) progress(totals.games);
        }
        return bool(failure);
      },
      store::kDecodeMainLine, first);
  if (!s) return s.error();
  if (!failure) return failure.error();
  if (!batch.empty())
    if (Status w = db.put_openings(batch); !w) return w.error();
  return totals;
}

}  // namespace virrey::query
