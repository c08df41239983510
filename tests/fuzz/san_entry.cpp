// Fuzz entry: SAN reading and resolving on a few fixed positions, and SAN
// writing read back.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::fuzz {
namespace {

struct Start {
  Variant variant;
  const char* fen;
};

// Start positions, promotions (fixed by file in Virrey, the minister in
// Modern), viceroys, castling both ways and en passant.
constexpr std::array<Start, 6> k8x8{{
    {Variant::Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    {Variant::Standard, "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"},
    {Variant::Virrey, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    {Variant::Virrey, "r3k2r/P1P3P1/8/3V4/4v3/8/p1p3p1/R3K2R w KQkq - 0 1"},
    {Variant::Virrey, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"},
    {Variant::Virrey, "4k3/1V1P4/8/8/8/8/4p1v1/4K3 b - - 0 1"},
}};
constexpr std::array<Start, 3> k9x9{{
    {Variant::Modern, "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1"},
    {Variant::Modern, "r1bqkmb1r/ppppppppp/2n3n2/9/4P4/9/9/PPPP1PPPP/RNBMKQBNR w KQkq - 2 2"},
    {Variant::Modern, "4k4/1P7/9/9/9/9/9/7p1/4K4 w - - 0 1"},
}};

constexpr std::size_t kMaxTokens = 24;

template <class G>
Position<G> start_position(const Start& start) {
  FenProblems errors;
  auto pos = position_from_fen<G>(start.fen, start.variant, errors);
  VIRREY_FUZZ_CHECK(pos.has_value(), std::string(start.fen) + ": " + join_reasons(errors));
  return *pos;
}

// Every legal move writes as SAN that parses and resolves to that move.
template <class G>
void check_written_moves(const Position<G>& pos) {
  const MoveList legal = legal_moves(pos);
  for (Move m : legal) {
    const std::string text = write_san(pos, m, legal);
    VIRREY_FUZZ_CHECK(text == write_san(pos, m), write_fen(pos) + ": " + text);
    SanProblem error;
    const auto syntax = parse_san(text, error);
    VIRREY_FUZZ_CHECK(syntax.has_value(), write_fen(pos) + ": " + text + ": " + error.message);
    const SanResolution r = resolve_san(pos, *syntax);
    VIRREY_FUZZ_CHECK(
        r.error == SanError::None && r.move == m,
        write_fen(pos) + ": " + text + " resolves to " + write_uci<G>(r.move) + " " + r.message);
  }
}

// Plays the tokens that name a legal move, in turn, from the start.
template <class G>
void play_tokens(const Start& start, const std::vector<std::string_view>& tokens) {
  Position<G> pos = start_position<G>(start);
  for (std::string_view token : tokens) {
    SanProblem error;
    const auto syntax = parse_san(token, error);
    if (!syntax) {
      VIRREY_FUZZ_CHECK(!error.message.empty(), "no reason for rejecting " + std::string(token));
      continue;
    }
    const SanResolution r = resolve_san(pos, *syntax);
    if (r.error != SanError::None) continue;
    VIRREY_FUZZ_CHECK(legal_moves(pos).contains(r.move),
                      write_fen(pos) + ": " + std::string(token) + " resolves to an illegal move");
    // A resolved move writes as SAN that names that move again.
    const std::string text = write_san(pos, r.move);
    const auto again = parse_san(text, error);
    VIRREY_FUZZ_CHECK(again && resolve_san(pos, *again).move == r.move,
                      write_fen(pos) + ": " + std::string(token) + " written " + text);
    pos.play(r.move);
  }
  check_written_moves(pos);
}

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size() && out.size() < kMaxTokens) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    const std::size_t begin = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\n' && text[i] != '\t') ++i;
    if (i > begin) out.push_back(text.substr(begin, i - begin));
  }
  return out;
}

}  // namespace

void san(const std::uint8_t* data, std::size_t size) {
  const auto tokens = split(std::string_view(reinterpret_cast<const char*>(data), size));
  for (const Start& s : k8x8) play_tokens<Board8>(s, tokens);
  for (const Start& s : k9x9) play_tokens<Board9>(s, tokens);
}

}  // namespace virrey::fuzz
