// UTF-8: validation (tag values and comments in the PGN reader, input quoted
// in messages) and text that is not UTF-8 made so for output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace virrey {

// Index of the first byte that does not belong to a well-formed UTF-8
// sequence (overlong forms, surrogates and code points above U+10FFFF are
// ill-formed), or std::string_view::npos when `text` is valid.
std::size_t first_invalid_utf8(std::string_view text);
inline bool is_utf8(std::string_view text) { return first_invalid_utf8(text) == std::string_view::npos; }

// Text as UTF-8: well-formed sequences kept, any other byte read as
// Windows-1252 (tag values from old tools: Latin-1, with typographic
// characters such as the en dash, curly quotes and the euro sign at
// 0x80..0x9F) and written as that character. The game
// checker reads tag values and comments through it, and every output of
// text that may not be UTF-8 (JSON, CSV, tables, TRF). Valid UTF-8 is
// copied after one quick check.
std::string as_utf8(std::string_view s);

// The code point of the well-formed UTF-8 sequence at text[i] and its
// length in bytes; {byte, 1} for a byte that starts none.
struct DecodedChar {
  char32_t code;
  std::size_t bytes;
};
DecodedChar decode_utf8_at(std::string_view text, std::size_t i);

// Writes c (at most U+10FFFF) as UTF-8 at out, returning the bytes written (1 to 4).
std::size_t encode_utf8(char32_t c, char* out);

// Bytes of the control character at s[i] of UTF-8 text: 1 for C0 and DEL,
// 2 for C1 (U+0080..U+009F), 0 for any other character.
std::size_t control_length(std::string_view s, std::size_t i);

// UTF-8 text with each control character (C0, DEL, C1) a space: what PGN
// strings and TRF fields, which may not hold them, get in their place.
std::string controls_as_spaces(std::string text);

// Whether `text` is as the PGN reader reads tag values and comments (UTF-8
// with no control character): what text_as_read leaves as it is.
bool is_text_as_read(std::string_view text);

// `text` as the PGN reader reads a tag value or a comment: as_utf8, each
// control character a space. Text stored by versions that kept the bytes
// they read comes out as it is read now.
std::string text_as_read(std::string_view text);

}  // namespace virrey
