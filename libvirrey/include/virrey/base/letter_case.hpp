// Letter case, for comparing names case-blind: Unicode's simple lower-case
// forms of every alphabet with case (Latin, Greek, Cyrillic, Armenian,
// Georgian, Cherokee ...; src/base/letter_case_table.inc, made by
// scripts/gen-letter-case.py), final sigma as sigma. Left as they are: the
// Turkish dotted capital I (its small form is i, whose capital is I), the
// capital sharp s, and the two capitals whose small form is longer in
// UTF-8 (U+023A, U+023E).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace virrey {

// The small form of a capital of those alphabets; any other code point as it is.
char32_t small_letter(char32_t c);

// The code points whose small form is `small`, other than itself (its
// capital; for sigma also final sigma), in code point order.
std::vector<char32_t> letters_folding_to(char32_t small);

// Text as names are compared case-blind: every capital of those alphabets
// in its small form, each run of blanks (space, tab, line ends) one space,
// none at either end, NUL bytes dropped; bytes that are not UTF-8 kept.
// Tag keys in a database are written in this form.
std::string folded_text(std::string_view text);

}  // namespace virrey
