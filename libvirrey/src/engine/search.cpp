#include "virrey/engine/search.hpp"

#include <fmt/format.h>

#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::engine {

template <class G>
std::optional<Move> read_engine_move(const Position<G>& pos, std::string_view text) {
  if (auto m = parse_uci<G>(pos, text)) return m;
  SanProblem problem;
  const auto syntax = parse_san(text, problem);
  if (!syntax) return std::nullopt;
  const SanResolution r = resolve_san(pos, *syntax);
  if (r.error != SanError::None) return std::nullopt;
  return r.move;
}

template <class G>
std::optional<EngineError> checked_search(Engine& engine, const Position<G>& pos, const Limits& limits,
                                          Evaluation& out) {
  RawResult raw;
  if (auto e = engine.search(write_fen(pos), {}, limits, raw)) return e;
  const auto best = read_engine_move(pos, raw.best);
  if (!best)
    return EngineError{Failure::IllegalMove, fmt::format("answered \"{}\", not a legal move here", raw.best)};
  out = Evaluation{};
  out.score = raw.score;
  out.nodes = raw.nodes;
  out.depth = raw.depth;
  out.best_uci = write_uci<G>(*best);
  out.best_san = write_san(pos, *best);
  // The line from the best move: the engine's line when it starts with it.
  Position<G> p = pos;
  bool first = true;
  for (const std::string& text : raw.pv) {
    const auto m = read_engine_move(p, text);
    if (!m || (first && *m != *best)) break;
    out.pv_san.push_back(write_san(p, *m));
    p.play(*m);
    first = false;
  }
  if (out.pv_san.empty()) out.pv_san.push_back(out.best_san);
  return std::nullopt;
}

template std::optional<Move> read_engine_move<Board8>(const Position<Board8>&, std::string_view);
template std::optional<Move> read_engine_move<Board9>(const Position<Board9>&, std::string_view);
template std::optional<EngineError> checked_search<Board8>(Engine&, const Position<Board8>&, const Limits&,
                                                           Evaluation&);
template std::optional<EngineError> checked_search<Board9>(Engine&, const Position<Board9>&, const Limits&,
                                                           Evaluation&);

}  // namespace virrey::engine
