// A position drawn for people: a Unicode board with rank and file labels,
// the side to move, castling and en passant, and a legend for the pieces
// that have no chess glyph (the viceroy Ⓥ/ⓥ, the minister Ⓜ/ⓜ).
#pragma once

#include <string>

#include "virrey/rules/position.hpp"

namespace virrey::cli {

// White at the bottom; every line ends with '\n'.
std::string board_text(const Setup& setup);

}  // namespace virrey::cli
