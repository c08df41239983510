// Byte classification shared by the PGN splitter and parser (internal).
#pragma once

namespace virrey::pgn::chars {

constexpr bool is_newline(char c) { return c == '\n' || c == '\r'; }
// Blanks within a line.
constexpr bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Non-printing bytes, which PGN strings may not hold (line breaks among them).
constexpr bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == '\x7f'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Bytes of a PGN symbol token (SAN, results, move numbers, null moves).
constexpr bool is_symbol(char c) {
  switch (c) {
    case '_':
    case '+':
    case '#':
    case '=':
    case ':':
    case '-':
    case '/':
    case '@': return true;
    default: return is_alpha(c) || is_digit(c);
  }
}

// Bytes of a tag name. The standard allows letters, digits and '_'; the
// other symbol bytes are accepted too (and left for the validator to judge).
constexpr bool is_tag_name(char c) { return is_symbol(c); }

}  // namespace virrey::pgn::chars
