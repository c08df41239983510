// Hand-made games for the query tests: transpositions, castling and
// en-passant twins, viceroys (one per side, and two for White); Modern chess
// castling on both wings, ministers made on the a- and i-files, bishop swaps
// and a transposition.
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

inline constexpr std::string_view kModernPgn = R"([Event "Modern castling M"]
[Site "Lima"]
[Date "1968.03.01"]
[Round "1"]
[White "Maura"]
[Black "Alfa"]
[Result "*"]
[Variant "Modern"]

1. Nc3 Ng7 2. d3 h7 3. Bd2 Bh8 4. Me3 Me7 5. O-M-O O-M-O *

[Event "Modern castling Q"]
[Site "Lima"]
[Date "1968.03.02"]
[Round "2"]
[White "Alfa"]
[Black "Maura"]
[Result "*"]
[Variant "Modern"]

1. Ni3 Nc7 2. h3 b7 3. Bh2 Bb8 4. e3 e7 5. Qe2 Qe8 6. O-Q-O O-Q-O *

[Event "Modern ministers"]
[Site "Cusco"]
[Date "1970.01.01"]
[Round "1"]
[White "Maura"]
[Black "Kappa"]
[Result "*"]
[Variant "Modern"]
[SetUp "1"]
[FEN "4k4/8P/9/9/9/9/9/p8/4K4 w - - 0 1"]

1. i9=M a1=M 2. Mg7+ Kd8 *

[Event "Modern swap"]
[Site "Cusco"]
[Date "1970.01.02"]
[Round "2"]
[White "Kappa"]
[Black "Maura"]
[Result "*"]
[Variant "Modern"]
[BishopSwap "Yes"]

1. B=Q B=MN 2. e4 e6 3. Nc3 Nc7 *

[Event "Modern transposition A"]
[Site "Quito"]
[Date "1971.05.05"]
[Round "1"]
[White "Lambda"]
[Black "Omicron"]
[Result "*"]
[Variant "Modern"]

1. e4 e6 2. Nc3 Nc7 *

[Event "Modern transposition B"]
[Site "Quito"]
[Date "1971.05.06"]
[Round "2"]
[White "Omicron"]
[Black "Lambda"]
[Result "*"]
[Variant "Modern"]

1. Nc3 Nc7 2. e4 e6 *
)";

}  // namespace virrey::testing
