#include "virrey/analyse/judgement.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace virrey::analyse {

std::string_view judgement_name(Judgement j) {
  switch (j) {
    case Judgement::Good: return "good";
    case Judgement::Inaccuracy: return "inaccuracy";
    case Judgement::Mistake: return "mistake";
    case Judgement::Blunder: return "blunder";
  }
  return "good";
}

int judgement_nag(Judgement j) {
  switch (j) {
    case Judgement::Inaccuracy: return 6;
    case Judgement::Mistake: return 2;
    case Judgement::Blunder: return 4;
    case Judgement::Good: break;
  }
  return 0;
}

int model_cp(engine::Score s) {
  if (s.mate) return s.value > 0 ? kCpClamp : -kCpClamp;  // mate 0: the side to move is mated
  return std::clamp(s.value, -kCpClamp, kCpClamp);
}

double winning_chances(engine::Score s) { return 2.0 / (1.0 + std::exp(-0.00368208 * model_cp(s))) - 1.0; }

Judgement judge(double loss) {
  if (loss >= 0.3) return Judgement::Blunder;
  if (loss >= 0.2) return Judgement::Mistake;
  if (loss >= 0.1) return Judgement::Inaccuracy;
  return Judgement::Good;
}

Judgement judge_move(engine::Score before, engine::Score after, double loss) {
  if (!before.mate && !after.mate) return judge(loss);
  // Mates in moves from the mover's side: before the move, and after it
  // (the opponent to move: its score turned; mated there is the mover's mate).
  const std::optional<int> prev = before.mate ? std::optional<int>(before.value) : std::nullopt;
  const std::optional<int> next =
      after.mate ? std::optional<int>(after.value == 0 ? 1 : -after.value) : std::nullopt;
  const bool lost = prev && *prev > 0 && (!next || *next < 0);  // a forced mate let go
  const bool created = !prev && next && *next < 0;              // a mate against the mover let in
  if (lost) {
    const int cp = next ? 0 : -after.value;  // what the mover kept
    return cp > 999 ? Judgement::Inaccuracy : cp > 700 ? Judgement::Mistake : Judgement::Blunder;
  }
  if (created) {
    const int cp = before.value;  // what the mover had
    return cp < -999 ? Judgement::Inaccuracy : cp < -700 ? Judgement::Mistake : Judgement::Blunder;
  }
  return Judgement::Good;  // a mate kept, delayed, or still against the mover
}

double move_accuracy(double loss) {
  const double points = 50.0 * std::max(0.0, loss);  // in winning percentage
  return std::clamp(103.1668 * std::exp(-0.04354 * points) - 3.1669, 0.0, 100.0);
}

}  // namespace virrey::analyse
