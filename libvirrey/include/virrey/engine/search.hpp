// A search whose every move is checked by our rules: the best move must be
// a legal move of the position, the principal variation is kept up to its
// first move that is not legal, and both are given in SAN.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "virrey/engine/engine.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/position.hpp"

namespace virrey::engine {

struct Evaluation {
  Score score;  // from the side to move
  std::string best_uci;
  std::string best_san;
  std::vector<std::string> pv_san;  // starts with best_san
  std::uint64_t nodes = 0;
  int depth = 0;
};

// The legal move of pos the engine's text names: coordinates ("e7e8v",
// "b8b9m", "e1g1") or SAN ("Nf3", "O-O").
template <class G>
std::optional<Move> read_engine_move(const Position<G>& pos, std::string_view text);

template <class G>
std::optional<EngineError> checked_search(Engine& engine, const Position<G>& pos, const Limits& limits,
                                          Evaluation& out);

extern template std::optional<Move> read_engine_move<Board8>(const Position<Board8>&, std::string_view);
extern template std::optional<Move> read_engine_move<Board9>(const Position<Board9>&, std::string_view);
extern template std::optional<EngineError> checked_search<Board8>(Engine&, const Position<Board8>&,
                                                                  const Limits&, Evaluation&);
extern template std::optional<EngineError> checked_search<Board9>(Engine&, const Position<Board9>&,
                                                                  const Limits&, Evaluation&);

}  // namespace virrey::engine
