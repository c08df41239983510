// UTF-8 validation: tag values and comments (the PGN reader), and input
// bytes quoted in the validator's messages.
#pragma once

#include <cstddef>
#include <string_view>

namespace virrey {

// Index of the first byte that does not belong to a well-formed UTF-8
// sequence (overlong forms, surrogates and code points above U+10FFFF are
// ill-formed), or std::string_view::npos when `text` is valid.
std::size_t first_invalid_utf8(std::string_view text);

}  // namespace virrey
