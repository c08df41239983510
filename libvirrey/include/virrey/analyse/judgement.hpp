// How a move is judged from two engine scores, lichess's model:
//   winning chances  wc(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1   (in [-1, 1])
// with cp clamped to [-1000, 1000] and a mate counted as +-1000; the loss of
// a move is wc(before) - wc(after), both from the mover's side, at least 0:
// inaccuracy >= 0.1, mistake >= 0.2, blunder >= 0.3. A move's accuracy is
//   103.1668 * exp(-0.04354 * (w_before - w_after)) - 3.1669, in [0, 100],
// with w = 50 + 50 * wc the winning percentage. Where a mate is in sight
// the judgement is lichess's mate advice instead: a forced mate let go is an
// inaccuracy when the mover keeps more than 999 cp, a mistake above 700, a
// blunder otherwise (or when the mate turns against the mover); a mate
// against the mover let in is an inaccuracy below -999 cp before the move, a
// mistake below -700, a blunder otherwise; any other move is good.
#pragma once

#include <cstdint>
#include <string_view>

#include "virrey/engine/engine.hpp"

namespace virrey::analyse {

enum class Judgement : std::uint8_t { Good, Inaccuracy, Mistake, Blunder };
std::string_view judgement_name(Judgement j);  // "good", "inaccuracy", ...
// The PGN NAG of a judgement: 6 (?!), 2 (?), 4 (??); 0 for a good move.
int judgement_nag(Judgement j);

constexpr int kCpClamp = 1000;

// Centipawns as the model counts them (clamped, mates as +-1000).
int model_cp(engine::Score s);
double winning_chances(engine::Score s);
Judgement judge(double loss);
// The judgement of a move from the scores before it (mover to move) and
// after it (opponent to move), each from its side to move's view, and its
// loss in winning chances.
Judgement judge_move(engine::Score before, engine::Score after, double loss);
double move_accuracy(double loss);  // from the loss in winning chances

}  // namespace virrey::analyse
