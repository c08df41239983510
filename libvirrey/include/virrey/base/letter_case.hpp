// Letter case beyond ASCII, for comparing names case-blind: the simple
// lower-case forms of the Latin (Latin-1, Extended-A, the Romanian and
// Vietnamese letters of Extended-B, Extended Additional), Greek, Cyrillic
// and Armenian capitals, after Unicode's case pairs. Final sigma is folded
// to sigma. Left as they are: the Turkish dotted capital I (its small form
// is i, whose capital is I) and the capital sharp s.
#pragma once

#include <vector>

namespace virrey {

// The small form of a capital of those alphabets; any other code point as it is.
char32_t small_letter(char32_t c);

// The code points whose small form is `small`, other than itself (its
// capital; for sigma also final sigma), in code point order.
std::vector<char32_t> letters_folding_to(char32_t small);

}  // namespace virrey
