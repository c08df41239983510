#include "virrey/pgn/diagnostic.hpp"

namespace virrey::pgn {

namespace {

struct ProblemInfo {
  std::string_view id;
  std::string_view message;
  bool warning;
};

// Indexed by Problem.
constexpr ProblemInfo kProblems[] = {
    {"unexpected-character", "unexpected character", false},
    {"unterminated-comment", "unterminated comment: '{' without '}'", false},
    {"unterminated-string", "unterminated tag value: missing closing '\"'", false},
    {"unterminated-tag", "unterminated tag pair: missing ']'", false},
    {"bad-tag", "malformed tag pair", false},
    {"tag-in-movetext", "tag pair after the movetext began", false},
    {"unmatched-parenthesis", "')' without an open variation", false},
    {"unclosed-variation", "variation not closed: '(' without ')'", false},
    {"variation-too-deep", "variations nested too deeply; variation skipped", false},
    {"bad-move-number", "'.' without a move number", false},
    {"unusual-move-number", "unusual move number", true},
    {"bad-nag", "malformed NAG: '$' needs a number from 0 to 255", false},
    {"bad-annotation", "unknown move annotation", false},
    {"result-in-variation", "game result inside a variation (ignored)", true},
    {"text-after-result", "text after the game result (ignored)", true},
    {"invalid-utf8", "text is not valid UTF-8: read as Windows-1252", true},
    {"control-in-tag-value", "a tag value holds a control character, which PGN does not allow", true},
    {"too-many-diagnostics", "too many problems in this game; no more are reported", true},
};

static_assert(sizeof kProblems / sizeof kProblems[0] == std::size_t(Problem::TooManyDiagnostics) + 1);

const ProblemInfo& info(Problem p) { return kProblems[std::size_t(p)]; }

}  // namespace

std::string_view describe(Problem problem) { return info(problem).message; }
std::string_view problem_id(Problem problem) { return info(problem).id; }
bool is_warning_by_default(Problem problem) { return info(problem).warning; }

}  // namespace virrey::pgn
