// Paging, sorting and counting over for_each_match (search.hpp).
#include "virrey/query/search.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::query {

namespace {

// Sort key of a summary date: unknown dates (0) after every known one.
std::uint32_t date_key(std::uint32_t date) { return date == 0 ? 0xffffffffu : date; }

// The dates of the matches: one read per match for few, one scan of every
// summary for many.
Status fill_dates(const store::Database& db, const std::vector<GameMatch>& matches,
                  std::vector<std::uint32_t>& dates) {
  dates.assign(matches.size(), 0);
  std::uint64_t games = 0;
  for (const auto& c : db.counts()) games += c.games;
  if (matches.size() * 16 < games) {
    for (std::size_t i = 0; i < matches.size(); ++i) {
      auto s = db.summary(matches[i].id);
      if (!s) return s.error();
      dates[i] = s->date;
    }
    return {};
  }
  std::size_t i = 0;  // matches are in id order, as the summaries
  return db.for_each_summary([&](GameId id, const store::GameSummary& s) {
    while (i < matches.size() && matches[i].id < id) ++i;
    if (i == matches.size()) return false;
    if (matches[i].id == id) dates[i++] = s.date;
    return true;
  });
}

}  // namespace

Result<SearchResult> search(const store::Database& db, const GameFilter& filter, const SearchOptions& o) {
  SearchResult out;
  const std::size_t limit = o.limit == 0 ? std::numeric_limits<std::size_t>::max() : o.limit;
  PlanOptions plan;
  plan.counts = o.counts;

  if (o.count_only) {
    std::uint64_t n = 0;
    if (filter.empty()) {
      for (const auto& c : db.counts()) n += c.games;
    } else {
      Status st = for_each_match(
          db, filter,
          [&](const GameMatch&) {
            ++n;
            return true;
          },
          plan);
      if (!st) return st.error();
    }
    out.total = n;
    return out;
  }

  if (o.sort == SortOrder::Id) {
    std::uint64_t seen = 0;
    Status st = for_each_match(
        db, filter,
        [&](const GameMatch& m) {
          if (seen++ < o.offset) return true;
          if (out.games.size() == limit) {
            out.more = true;
            return false;
          }
          out.games.push_back(m);
          return true;
        },
        plan);
    if (!st) return st.error();
    if (!out.more) out.total = seen;
    return out;
  }

  auto all = find_matches(db, filter, plan);
  if (!all) return all.error();
  std::vector<std::uint32_t> dates;
  if (Status st = fill_dates(db, *all, dates); !st) return st.error();
  std::vector<std::size_t> order(all->size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return date_key(dates[a]) < date_key(dates[b]); });
  out.total = all->size();
  for (std::size_t k = o.offset; k < order.size() && out.games.size() < limit; ++k)
    out.games.push_back((*all)[order[k]]);
  out.more = o.offset + out.games.size() < all->size();
  return out;
}

Result<PlyView> position_at(const game::GameRecord& rec, std::uint32_t ply) {
  if (ply > rec.main_line.size())
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("the game has {} plies, not {}", rec.main_line.size(), ply)};
  std::optional<PlyView> out;
  FenProblems errors;
  with_geometry(rec.variant, [&](auto g) {
    using G = decltype(g);
    auto pos = position_from_fen<G>(rec.start_fen.empty() ? info(rec.variant).start_fen : rec.start_fen,
                                    rec.variant, errors);
    if (!pos) return;
    PlyView view;
    view.ply = ply;
    for (std::uint32_t i = 0; i < ply; ++i) {
      if (i + 1 == ply) view.last_move = rec.move_number_text(ply, true) + write_san(*pos, rec.main_line[i]);
      pos->play(rec.main_line[i]);
    }
    view.position = pos->to_setup();
    out = std::move(view);
  });
  if (!out)
    return Error{ErrorKind::Corrupt, "the game's start position is not legal: " + join_reasons(errors)};
  return *out;
}

}  // namespace virrey::query
