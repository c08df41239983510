// Findings: what the validator reports about a game, each with a stable code
// that scripts can match, a severity, and where it was found.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace virrey::validate {

enum class Code : std::uint8_t {
  Syntax,               // the PGN text cannot be read as written
  IllegalMove,          // a move that is not legal in its position
  AmbiguousMove,        // SAN that fits more than one legal move
  WrongPromotion,       // promotion piece missing, or not the one the variant allows
  UnknownVariant,       // Variant tag names no variant virrey knows (or supports)
  BadFen,               // FEN tag is not a legal position
  ResultMismatch,       // Result tag vs termination marker, or vs mate/stalemate on the board
  MissingTag,           // one of the Seven Tag Roster is absent
  BadTag,               // a tag value is malformed (Date, Result, SetUp...)
  DuplicateGame,        // the same game earlier in the input
  MissingResult,        // the game has no termination marker (truncated?)
  PromotionNormalized,  // Virrey: a bare "e8" read as e8=V
  CheckMark,            // '+' or '#' that the position does not bear out
  NullMove,             // a null move: the rest of that line is not checked
  Encoding,             // bytes that are not UTF-8 (read as Windows-1252, kept as UTF-8)
  OversizedGame,        // a game over the size limit, skipped
  IoError,              // the input could not be read to its end
  // Notation that PGN export format does not allow (CheckOptions::notation).
  CastlingZeros,     // castling written with zeros: 0-0, 0-0-0
  Disambiguation,    // SAN naming more of its origin than needed: Ngf3, N1f3, e2e4
  MissingCheckMark,  // a check without '+', a mate without '#'
  MoveNumber,        // a move number out of sequence
  LongLine,          // a line longer than 255 characters
  CaptureMark,       // a capture without 'x', or an 'x' on a move that captures nothing
  // The games of one tournament together (tournament::EventChecks).
  PlayerTwiceInRound,  // a player in two games of one round, against two opponents
  RepeatedPairing,     // two players paired more often than the system allows
  PlayerName,          // one player under two spellings, or a FIDE id with two names
  PlayerRating,        // one player with two ratings
  RoundTag,            // a Round tag missing, "?", "-" or unreadable
  MissingRound,        // a round no game has, below the last round
  BoardTwice,          // a board number used by two pairings of one round
  EventDate,           // a game dated before its EventDate
  DateOrder,           // a game dated before a game of an earlier round
  UnplayedResult,      // a decisive result with no move played, not marked a forfeit
  UnfinishedGame,      // '*' in a tournament that is over or went on past the game
  SelfPairing,         // a game of a player against themself
  // One game again (after the tournament's, keeping the numbers).
  DrawnByRule,  // moves (or a decisive result) after a fivefold repetition or 75 moves
};
constexpr int kCodeCount = 36;

enum class Severity : std::uint8_t { Warning, Error };

std::string_view code_name(Code code);  // "illegal-move", ...
std::string_view severity_name(Severity s);

struct Finding {
  Code code = Code::Syntax;
  Severity severity = Severity::Error;
  std::uint64_t line = 0;  // 1-based; 0 when it concerns no place
  std::uint64_t column = 0;
  std::uint64_t game = 0;  // 1-based number in its file
  int ply = 0;             // 1-based ply of the move concerned, 0 when none
  std::string san;         // the move as written, when a move is concerned
  std::string move_label;  // "6...Nf6", when a move is concerned
  std::string fen;         // the position before that move
  std::string message;
};

}  // namespace virrey::validate
