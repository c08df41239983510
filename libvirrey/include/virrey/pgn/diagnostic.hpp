// Syntax diagnostics of the PGN game parser: what is wrong, where, and the
// offending bytes. The parser only reports; the validator decides how severe
// each problem is (is_warning_by_default is a suggestion).
#pragma once

#include <cstdint>
#include <string_view>

#include "virrey/pgn/location.hpp"

namespace virrey::pgn {

enum class Problem : std::uint8_t {
  UnexpectedCharacter,  // bytes that start no token (e.g. ',' '}' ']' '<' NUL, non-ASCII); one report per run
  UnterminatedComment,  // '{' without '}' before the end of the game; the rest is the comment
  UnterminatedString,   // tag value without its closing '"' on the line; the tag is dropped
  UnterminatedTag,      // tag pair without its closing ']' on the line; the tag is kept
  BadTag,               // malformed tag pair: no name, no quoted value, or junk before ']'
  TagInMovetext,        // '[' after the movetext began (not at a line start); skipped to ']'
  UnmatchedParenthesis,  // ')' with no open variation; ignored
  UnclosedVariation,     // '(' still open when the game text ends (reported at the '(')
  VariationTooDeep,      // '(' beyond ParseOptions::max_variation_depth; that variation is skipped
  BadMoveNumber,         // '.' not preceded by a move number
  UnusualMoveNumber,     // move number 0, or followed by 2 or more than 3 dots (e.g. "4..Be7")
  BadNag,                // '$' without digits, or a NAG above 255; ignored
  BadAnnotation,         // a run of '!'/'?' other than ! ? !! ?? !? ?!; ignored
  ResultInVariation,     // a termination marker inside a variation; ignored
  TextAfterResult,       // non-blank text after the game's termination marker; ignored
  InvalidUtf8,           // tag value or comment is not valid UTF-8 (often Latin-1); reported, not changed
  ControlInTagValue,     // a tag value holding a control character (ESC, TAB, NUL...); kept as read
  TooManyDiagnostics,    // ParseOptions::max_diagnostics reached; nothing more is reported for the game
};

struct Diagnostic {
  Problem problem;
  Location at;               // where the problem starts
  std::string_view text;     // the offending bytes, a view into the game text (may be empty)
  std::string_view message;  // fixed human-readable sentence, e.g. "unterminated comment"
};

// The fixed message for a problem (the same as Diagnostic::message).
std::string_view describe(Problem problem);

// A short stable identifier for a problem, e.g. "unterminated-comment".
std::string_view problem_id(Problem problem);

// True for problems that leave the game's meaning intact (unusual move
// numbers, invalid UTF-8, text after the result, results in variations).
bool is_warning_by_default(Problem problem);

}  // namespace virrey::pgn
