#include "virrey/rules/san_line.hpp"

#include <fmt/format.h>

#include "virrey/base/game_result.hpp"
#include "virrey/base/quoted_text.hpp"

namespace virrey {

namespace {

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',';
}

}  // namespace

std::vector<std::string_view> san_line_tokens(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !is_separator(text[j])) ++j;
    std::string_view tok = text.substr(i, j - i);
    i = j;
    // "12." / "12..." / "12.e4": the move number goes, the move stays.
    std::size_t digits = 0;
    while (digits < tok.size() && tok[digits] >= '0' && tok[digits] <= '9') ++digits;
    if (digits > 0 && digits < tok.size() && tok[digits] == '.') {
      tok.remove_prefix(digits);
      while (!tok.empty() && tok.front() == '.') tok.remove_prefix(1);
    }
    if (tok.empty() || is_result_token(tok)) continue;
    out.push_back(tok);
  }
  return out;
}

template <class G>
SanLine<G> play_san_line(const Position<G>& start, std::string_view text) {
  SanLine<G> line;
  line.positions.push_back(start);
  const std::vector<std::string_view> tokens = san_line_tokens(text);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Position<G>& pos = line.positions.back();
    auto problem = [&](SanError code, std::string message) {
      line.problem = SanLineProblem{
          i, std::string(tokens[i]), code, std::move(message),
          fmt::format("move {} ({}{})", pos.fullmove_number(),
                      pos.side_to_move() == Color::Black ? "..." : "", quoted_text(tokens[i]))};
    };
    SanProblem syntax_problem;
    const auto syntax = parse_san(tokens[i], syntax_problem);
    if (!syntax) {
      problem(syntax_problem.code, std::move(syntax_problem.message));
      break;
    }
    SanResolution r = resolve_san(pos, *syntax);
    if (r.error != SanError::None) {
      problem(r.error, std::move(r.message));
      break;
    }
    line.moves.push_back(r.move);
    line.positions.push_back(pos.after(r.move));
  }
  return line;
}

template SanLine<Board8> play_san_line<Board8>(const Position<Board8>&, std::string_view);
template SanLine<Board9> play_san_line<Board9>(const Position<Board9>&, std::string_view);

}  // namespace virrey
