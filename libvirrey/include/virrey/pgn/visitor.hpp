// Visitor: what the PGN game parser tells its caller, token by token, in text
// order. Every string_view points into the game text (or, for tag values with
// escapes, into a buffer of the parser) and is valid only during the call.
// Override what you need; every default does nothing (and never skips).
//
// Order of calls for one game:
//   begin_game
//   { tag | comment | diagnostic }                 tag section
//   end_tags                                       once, before the first movetext token
//   { move_number | move | null_move | nag | comment
//     | begin_variation ... end_variation | diagnostic }
//   [ result ]                                     the top-level termination marker, if any
//   end_game
#pragma once

#include <cstdint>
#include <string_view>

#include "virrey/base/game_result.hpp"
#include "virrey/pgn/diagnostic.hpp"
#include "virrey/pgn/location.hpp"

namespace virrey::pgn {

// Returned by a visitor to ask the parser to skip what follows.
enum class Skip : bool { No = false, Yes = true };

enum class CommentKind : std::uint8_t {
  Brace,  // { ... }: the text between the braces (may span lines)
  Line,   // ; ...  : the text after ';' up to the end of the line
};

// NAG values of the suffix annotations: ! ? !! ?? !? ?!
enum : std::uint8_t {
  kNagGood = 1,
  kNagMistake = 2,
  kNagBrilliant = 3,
  kNagBlunder = 4,
  kNagSpeculative = 5,
  kNagDubious = 6,
};

class Visitor {
 public:
  virtual ~Visitor() = default;

  virtual void begin_game(Location /*start*/) {}

  // [name "value"]: `value` has \" and \\ unescaped; other bytes kept as read.
  virtual void tag(std::string_view /*name*/, std::string_view /*value*/, Location /*at*/) {}

  // The tag section is over (called even when there are no tags). Skip::Yes
  // skips the movetext: the parser goes straight to end_game.
  virtual Skip end_tags(Location /*at*/) { return Skip::No; }

  // "12." (dots 1), "12..." (dots 3), "12" (dots 0): syntax already checked.
  // `apart`: whitespace stood between the number and its periods, as import
  // format allows ("12. ...", "12 ...": dots 3); export format does not.
  virtual void move_number(std::uint32_t /*number*/, std::uint32_t /*dots*/, bool /*apart*/,
                           Location /*at*/) {}

  // A SAN candidate exactly as written, check/mate suffix included, suffix
  // annotations excluded: "Nf3", "exd8=Q+", "e8V", "O-O", "0-0-0", "O-M-O",
  // "B=QN". Not checked in any way: garbage like "Xy7" arrives here too.
  virtual void move(std::string_view /*san*/, Location /*at*/) {}

  // "--" or "Z0".
  virtual void null_move(std::string_view /*token*/, Location /*at*/) {}

  // $n (0..255), suffix annotations (! ? !! ?? !? ?! as 1..6) and the
  // evaluation symbols = += =+ +/= =/+ +/- -/+ +- -+ (10, 14..19).
  virtual void nag(std::uint8_t /*nag*/, Location /*at*/) {}

  virtual void comment(std::string_view /*text*/, CommentKind /*kind*/, Location /*at*/) {}

  // '(' : Skip::Yes skips the variation up to its matching ')'; end_variation
  // is then not called for it.
  virtual Skip begin_variation(Location /*at*/) { return Skip::No; }
  // ')' closing a variation; also called at the end of the game, at its end
  // location, for each variation still open (after an UnclosedVariation
  // diagnostic), so begin/end calls always balance.
  virtual void end_variation(Location /*at*/) {}

  // The termination marker at top level. Parsing of the game stops here.
  virtual void result(GameResult /*result*/, Location /*at*/) {}

  virtual void diagnostic(const Diagnostic& /*d*/) {}

  // `end` is the location just past the last byte of the game text.
  virtual void end_game(Location /*end*/) {}
};

}  // namespace virrey::pgn
