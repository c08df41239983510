// Hand-made games for the query tests: transpositions, castling and
// en-passant twins, viceroys (one per side, and two for White).
#pragma once

#include <string_view>

namespace virrey::testing {

inline constexpr std::string_view kStandardPgn = R"([Event "Transposition A"]
[Site "Lima"]
[Date "2001.02.03"]
[Round "1"]
[White "Alpha, Ann"]
[Black "Beta, Bob"]
[Result "1-0"]
[ECO "C68"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "Transposition B"]
[Site "Quito"]
[Date "2001.05.??"]
[Round "2"]
[White "Beta, Bob"]
[Black "Alpha,   ANN"]
[Result "0-1"]

1. Nf3 Nc6 2. e4 e5 3. Bb5 a6 0-1

[Event "Castling twin"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Gamma"]
[Black "Delta"]
[Result "1/2-1/2"]

1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 1/2-1/2

[Event "En passant A"]
[Site "Lima"]
[Date "1999.12.31"]
[Round "3"]
[White "Gamma"]
[Black "Alpha, Ann"]
[Result "*"]

1. e4 Nf6 2. e5 d5 3. d4 *

[Event "En passant B"]
[Site "Lima"]
[Date "2000.??.??"]
[Round "4"]
[White "Delta"]
[Black "Gamma"]
[Result "*"]

1. e3 d6 2. e4 Nf6 3. e5 d5 4. Nc3 Nc6 5. Nb1 Nb8 *
)";

inline constexpr std::string_view kVirreyPgn = R"([Event "Viceroys"]
[Site "Bogota"]
[Date "2015.01.01"]
[Round "1"]
[White "Garzon"]
[Black "Epsilon"]
[Result "*"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "7k/4P3/8/8/8/8/4p3/K7 w - - 0 1"]

1. e8=V e1=V 2. Vd7 Kg7 *

[Event "Viceroys"]
[Site "Bogota"]
[Date "2015.01.02"]
[Round "2"]
[White "Garzon"]
[Black "Zeta"]
[Result "*"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "7k/4P3/4P3/8/8/8/8/K7 w - - 0 1"]

1. e8=V Kg7 2. Vd7 Kf6 3. e7 Kf7 4. e8=V+ Kf6 *
)";

}  // namespace virrey::testing
