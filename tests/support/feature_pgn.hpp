// Hand-made games for the game-feature filters and the rating-band and
// time-control groupings: checkmates by a queen, by a rook uncovered by a
// knight (a discovered mate), by a double check of rook and knight, by a
// pawn (its king's way out held by a bishop), by a viceroy and by a minister; a stalemate; an unfinished
// game. Each has ratings, a TimeControl and a Termination worked into the tests' tables.
#pragma once

#include <string_view>

namespace virrey::testing {

// Each game's Event names it; the comments give what its last position is.
inline constexpr std::string_view kFeatureStandardPgn = R"([Event "Fool's mate"]
[WhiteElo "1500"]
[BlackElo "1600"]
[TimeControl "60+0"]
[Termination "Normal"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Discovered mate"]
[WhiteElo "2400"]
[BlackElo "2199"]
[TimeControl "180+2"]
[Termination "normal"]
[Result "1-0"]
[SetUp "1"]
[FEN "R2N3k/6pp/8/8/8/8/8/6K1 w - - 0 1"]

1. Nb7# 1-0

[Event "Double check mate"]
[WhiteElo "2200"]
[TimeControl "-"]
[Termination "Normal"]
[Result "1-0"]
[SetUp "1"]
[FEN "R2N3k/6pp/8/8/8/8/8/6K1 w - - 0 1"]

1. Nf7# 1-0

[Event "Pawn mate"]
[Result "1-0"]
[SetUp "1"]
[FEN "7k/7p/5KP1/8/8/8/B7/8 w - - 0 1"]

1. g7# 1-0

[Event "Stalemate"]
[WhiteElo "1999"]
[BlackElo "2001"]
[TimeControl "40/7200:3600"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"]

1. Qf7 1/2-1/2

[Event "Unfinished"]
[TimeControl "?"]
[Termination "Time forfeit"]
[Result "*"]

1. e4 e5 *
)";

// 1. Vg7#: the viceroy checks from g7, guarded by the king on f6; g8 and h7
// are its squares too.
inline constexpr std::string_view kFeatureVirreyPgn = R"([Event "Viceroy mate"]
[WhiteElo "1000"]
[BlackElo "1100"]
[TimeControl "15+0"]
[Termination "Normal"]
[Result "1-0"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "7k/8/5KV1/8/8/8/8/8 w - - 0 1"]

1. Vg7# 1-0
)";

// 1. Mg8#: the minister checks i9 as a knight and covers h9 as a bishop;
// the king on h7 covers h8 and i8.
inline constexpr std::string_view kFeatureModernPgn = R"([Event "Minister mate"]
[WhiteElo "2000"]
[BlackElo "2399"]
[TimeControl "600+5"]
[Termination "Normal"]
[Result "1-0"]
[Variant "Modern"]
[SetUp "1"]
[FEN "8k/9/7K1/4M4/9/9/9/9/9 w - - 0 1"]

1. Mg8# 1-0
)";

}  // namespace virrey::testing
