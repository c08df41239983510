// Input bytes quoted in a message: control bytes, bytes that are not UTF-8
// and the characters that reverse the text after them (bidirectional
// overrides, embeddings and isolates) are written as \xNN and a long text is
// cut short, so a message stays one readable line (and sends nothing to a
// terminal) whatever the input holds.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace virrey {

// At most `max_bytes` of `text`, escaped; a longer text ends with
// "... (N bytes)".
std::string quoted_text(std::string_view text, std::size_t max_bytes = 80);

}  // namespace virrey
