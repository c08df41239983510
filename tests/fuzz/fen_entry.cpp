// Fuzz entry: FEN reading under every variant, and writing back.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::fuzz {
namespace {

// The position's FEN reads as a position with the same FEN and hash.
template <class G>
void check_round_trip(const Position<G>& pos, const std::string& context) {
  const std::string fen = write_fen(pos);
  FenProblems errors;
  const auto again = position_from_fen<G>(fen, pos.variant(), errors);
  VIRREY_FUZZ_CHECK(again.has_value(), context + " -> " + fen + ": " + join_reasons(errors));
  VIRREY_FUZZ_CHECK(write_fen(*again) == fen, context + " -> " + fen + " -> " + write_fen(*again));
  VIRREY_FUZZ_CHECK(again->hash() == pos.hash(), context + " -> " + fen + ": hash differs");
}

template <class G>
void check_fen(std::string_view text, Variant variant) {
  FenProblems errors;
  const auto pos = position_from_fen<G>(text, variant, errors);
  if (!pos) return;
  const std::string name(info(variant).name);
  VIRREY_FUZZ_CHECK(errors.empty(), name + " position with reasons: " + join_reasons(errors));
  check_round_trip(*pos, name + " " + std::string(text));
  for (Move m : legal_moves(*pos))
    check_round_trip(pos->after(m), name + " " + write_fen(*pos) + " after " + write_uci<G>(m));
}

}  // namespace

void fen(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& v : kVariants) {
    FenProblems errors;
    const auto setup = parse_fen(text, v.variant, errors);
    if (setup) (void)write_fen(*setup);  // any setup can be written
    with_geometry(v.variant, [&](auto g) { check_fen<decltype(g)>(text, v.variant); });
  }
}

}  // namespace virrey::fuzz
