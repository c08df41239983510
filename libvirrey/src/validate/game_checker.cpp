#include "virrey/validate/game_checker.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include <fmt/format.h>

#include "virrey/base/quoted_text.hpp"
#include "virrey/base/sanitizers.hpp"
#include "virrey/base/utf8.hpp"
#include "virrey/game/roster.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/san.hpp"

// The move path of a game is the validator's inner loop: it is inlined whole.
// Under AddressSanitizer that makes a function too large to compile in
// reasonable time (minutes and gigabytes), so sanitizer builds leave it.
#if defined(VIRREY_ASAN)
#define VIRREY_FLATTEN
#else
#define VIRREY_FLATTEN [[gnu::flatten]]
#endif

namespace virrey::validate {

using game::GameRecord;
using game::ItemKind;
using game::kBishopSwapTag;
using game::MovetextItem;
using game::TagPair;

namespace {

// "YYYY.MM.DD" where any part may be question marks.
bool valid_date(std::string_view d) {
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return false;
  auto part = [&](std::size_t from, std::size_t len, int lo, int hi) {
    bool unknown = true, digits = true;
    int value = 0;
    for (std::size_t i = from; i < from + len; ++i) {
      unknown &= d[i] == '?';
      digits &= d[i] >= '0' && d[i] <= '9';
      value = value * 10 + (d[i] - '0');
    }
    return unknown || (digits && value >= lo && value <= hi);
  };
  return part(0, 4, 0, 9999) && part(5, 2, 1, 12) && part(8, 2, 1, 31);
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}
std::uint64_t mix(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return mix(h, s.size());
}

}  // namespace

// Checks one game on a board of geometry G.
template <class G>
struct GeometryChecker final : pgn::Visitor {
  // One line of play: the main line or a variation.
  // Its last move is played on `pos` only when the next one comes (or the
  // position is needed otherwise): until then `pos` is the position before
  // it, where a variation on that move starts, and no copy is made.
  struct Line {
    Position<G> pos;
    Move pending{};         // the last move, not yet played on pos; null when none
    bool pending_null = false;  // the last move, not yet played, is a null move
    std::uint32_t ply = 0;  // plies read from the start position
    bool has_move = false;
    bool dead = false;  // an error ended checking of this line
    // Of a dead line: a move was read past the one in error, so the position
    // of a variation here is not known.
    bool read_past_error = false;
  };

  // The current position of a line: its pending move is played first.
  static Position<G>& current(Line& line) {
    if (!line.pending.is_null()) {
      line.pos.play(line.pending);
      line.pending = Move{};
    } else if (line.pending_null) [[unlikely]] {
      line.pos.play_null();
      line.pending_null = false;
    }
    return line.pos;
  }

  CheckOptions options;
  CheckedGame out;
  std::uint64_t number = 0;
  std::vector<Line> lines;  // lines.back() is the current line
  bool skip_moves = false;
  bool saw_result = false;
  pgn::Location result_at{0, 0};     // of the result token, when saw_result
  pgn::Location last_move_at{0, 0};  // of the last move token read (line 0: none)
  pgn::Location last_text_at{0, 0};  // of the last movetext token read (a move, NAG, comment, number)
  pgn::Location last_problem_at{0, 0};  // of the last bytes that did not read
  bool main_dead = false;
  bool movetext_started = false;  // movetext items are being added (see plain_movetext)
  std::optional<Position<G>> start;
  std::unordered_set<std::string> tag_names;  // filled once a game has many tags
  std::vector<pgn::Location> tag_at;          // where each tag of out.record.tags was read
  // The draws FIDE's Laws make without a claim (9.6): the main line's
  // positions since its last capture or pawn move, and the ply after which
  // the game was drawn so (0: not drawn), by which rule.
  std::vector<std::uint64_t> since_reset;
  std::uint32_t drawn_after = 0;
  const char* drawn_by = nullptr;
  bool drawn_reported = false;
  bool error_listed = false;     // a finding of the game's that is listed is an error
  bool findings_capped = false;  // max_findings reached: the finding saying so is listed
  // Syntax problems of the game, the parser's and the checker's own, as the
  // parser counts its own (pgn::ParseOptions::max_diagnostics).
  static constexpr std::uint32_t kMaxSyntaxProblems = pgn::ParseOptions{}.max_diagnostics;
  std::uint32_t syntax_problems = 0;

  explicit GeometryChecker(CheckOptions o) : options(o) {}

  // False when the finding is not listed (the game has too many). A game's
  // first error is listed whatever came before it, so that a rejected game
  // always says why.
  bool add(Code code, Severity severity, pgn::Location at, std::string message) {
    (severity == Severity::Error ? out.has_error : out.has_warning) = true;
    const bool first_error = severity == Severity::Error && !error_listed;
    if (severity == Severity::Error) error_listed = true;
    bool listed = true;
    if (out.findings.size() >= options.max_findings && !first_error) {
      if (findings_capped) return false;
      findings_capped = true;
      listed = false;
      message =
          fmt::format("more than {} findings in this game: the rest are not listed", options.max_findings);
    }
    Finding f;
    f.code = code;
    f.severity = severity;
    f.line = at.line;
    f.column = at.column;
    f.game = number;
    f.message = std::move(message);
    out.findings.push_back(std::move(f));
    return listed;
  }

  // A syntax problem, the parser's or the checker's own: the game's first
  // kMaxSyntaxProblems are listed, then one warning says there are too many
  // and later ones are dropped (a first error excepted, as in add).
  void add_syntax(Code code, Severity severity, pgn::Location at, std::string message) {
    if (syntax_problems < kMaxSyntaxProblems) {
      ++syntax_problems;
      add(code, severity, at, std::move(message));
      return;
    }
    syntax_capped_at(at);
    if (severity == Severity::Error && !error_listed)
      add(code, severity, at, std::move(message));
    else
      (severity == Severity::Error ? out.has_error : out.has_warning) = true;
  }

  // The warning that the game has too many syntax problems, once.
  void syntax_capped_at(pgn::Location at) {
    if (syntax_problems > kMaxSyntaxProblems) return;
    syntax_problems = kMaxSyntaxProblems + 1;
    add(Code::Syntax, Severity::Warning, at, std::string(pgn::describe(pgn::Problem::TooManyDiagnostics)));
  }

  void add_move_finding(Code code, Severity severity, pgn::Location at, std::string_view san,
                        const Line& line, std::string message) {
    if (!add(code, severity, at, std::move(message))) return;
    Finding& f = out.findings.back();
    f.ply = int(line.ply + 1);
    f.san = quoted_text(san);
    f.move_label = out.record.move_number_text(line.ply + 1, true) + f.san;
    f.fen = write_fen(line.pos);
  }

  void reset(std::uint64_t n) {
    number = n;
    out.clear();
    out.record.variant = options.default_variant;
    lines.clear();
    skip_moves = false;
    saw_result = false;
    result_at = last_move_at = last_text_at = last_problem_at = pgn::Location{0, 0};
    main_dead = false;
    since_reset.clear();
    drawn_after = 0;
    drawn_by = nullptr;
    drawn_reported = false;
    start.reset();
    movetext_started = options.build_movetext && (options.plain_movetext || options.move_san);
    known_tags.fill(0);
    tag_at.clear();
    error_listed = findings_capped = false;
    syntax_problems = 0;
    if (!tag_names.empty()) tag_names = {};  // frees the buckets of a big one
  }

  // --- tags -------------------------------------------------------------
  void tag(std::string_view name, std::string_view value, pgn::Location at) override {
    // PGN's tag names are letters, digits and '_' (8.1.1). The reader takes
    // the other bytes of a symbol too ('-', '+', '#', '=', ':', '/', '@'),
    // which other readers refuse: each is read as '_', so that the export
    // reads everywhere and a game and its export are one game.
    const auto allowed = [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    };
    std::string mended;
    if (!std::all_of(name.begin(), name.end(), allowed)) {
      mended = std::string(name);
      std::replace_if(
          mended.begin(), mended.end(), [&](char c) { return !allowed(c); }, '_');
      add(Code::BadTag, Severity::Warning, at,
          fmt::format(
              "tag name {} holds characters PGN does not allow in one (letters, digits and _); read as {}",
              name, mended));
      name = mended;
    }
    if (tag_seen(name)) {
      add(Code::BadTag, Severity::Warning, at,
          fmt::format("tag {} appears twice; the first value is kept", name));
      return;
    }
    // A value that is not UTF-8 (an encoding finding) is Windows-1252: kept
    // as UTF-8. A control character (a tab, a C1 control) is kept as the
    // space the PGN writer writes for it, so that a game and its export are
    // one game.
    out.record.tags.push_back({std::string(name), controls_as_spaces(as_utf8(value))});
    tag_at.push_back(at);
  }

  // Where a known tag was read; `otherwise` when the game lacks it.
  pgn::Location tag_location(int k, pgn::Location otherwise) const {
    const std::size_t i = known_tags[std::size_t(k)];
    return i && i <= tag_at.size() ? tag_at[i - 1] : otherwise;
  }

  // Whether the game has a tag of this name; a game with many tags is looked
  // up through a set, so that its checking stays linear in its size.
  bool tag_seen(std::string_view name) {
    constexpr std::size_t kScanned = 16;
    const auto& tags = out.record.tags;
    if (tags.size() < kScanned) {
      for (const auto& t : tags)
        if (t.name == name) return true;
      return false;
    }
    if (tag_names.empty())
      for (const auto& t : tags) tag_names.insert(t.name);
    return !tag_names.insert(std::string(name)).second;
  }

  pgn::Skip end_tags(pgn::Location at) override {
    GameRecord& rec = out.record;
    index_known_tags();
    for (int k = kEvent; k <= kResult; ++k)
      if (!has(KnownTag(k)))
        add(Code::MissingTag, Severity::Warning, at, fmt::format("the {} tag is missing", kKnownTagNames[k]));
    if (has(kDate) && !valid_date(value(kDate)))
      add(Code::BadTag, Severity::Warning, tag_location(kDate, at),
          fmt::format("Date \"{}\" is not YYYY.MM.DD (with ?? for unknown parts)",
                      quoted_text(value(kDate))));
    if (has(kResult) && !parse_result(value(kResult)))
      add(Code::BadTag, Severity::Error, tag_location(kResult, at),
          fmt::format("Result \"{}\" is not 1-0, 0-1, 1/2-1/2 or *", quoted_text(value(kResult))));

    if (has(kVariant) && names_a_variant(value(kVariant))) {
      const auto v = resolve_variant(value(kVariant));
      if (!v) {
        add(Code::UnknownVariant, Severity::Error, tag_location(kVariant, at),
            fmt::format("unknown variant \"{}\" (virrey knows Standard, Virrey and Modern)",
                        quoted_text(value(kVariant))));
        skip_moves = true;
        return pgn::Skip::Yes;
      }
      rec.variant = *v;
    }

    const std::string_view setup = value(kSetUp);
    const std::string_view fen = value(kFen);
    if (has(kSetUp) && setup != "0" && setup != "1")
      add(Code::BadTag, Severity::Warning, tag_location(kSetUp, at),
          fmt::format("SetUp \"{}\" is not 0 or 1", quoted_text(setup)));
    if (setup == "1" && !has(kFen)) {
      add(Code::BadTag, Severity::Error, tag_location(kSetUp, at), "SetUp is 1 but there is no FEN tag");
      skip_moves = true;
      return pgn::Skip::Yes;
    }
    FenProblems errors;
    if (has(kFen)) {
      if (setup != "1")
        add(Code::BadTag, Severity::Warning, tag_location(kFen, at), "a FEN tag without [SetUp \"1\"]");
      start = position_from_fen<G>(fen, rec.variant, errors);
      if (!start) {
        add(Code::BadFen, Severity::Error, tag_location(kFen, at),
            fmt::format("FEN \"{}\" is not a legal position: {}", quoted_text(fen),
                        quoted_text(join_reasons(errors), 400)));
        skip_moves = true;
        return pgn::Skip::Yes;
      }
      rec.start_fen = write_fen(*start);
    } else {
      start = variant_start<G>(rec.variant);
    }
    if (value(kBishopSwap) == "Yes") {
      if (rec.bishop_swap())
        start->enable_bishop_swap();
      else
        add(Code::BadTag, Severity::Warning, tag_location(kBishopSwap, at),
            "BishopSwap applies to Modern chess only");
    }
    rec.start_side = start->side_to_move();
    rec.start_fullmove = start->fullmove_number();
    lines.push_back(Line{*start});
    if (options.trace_main_line) out.trace.start(out.record.main_line.capacity(), true);
    return pgn::Skip::No;
  }

  // The tags that checking reads, found once the tag section is complete:
  // 1 + their index in the record's tags, 0 when absent. The first seven are
  // the Seven Tag Roster, in its order.
  enum KnownTag : std::uint8_t {
    kEvent,
    kSite,
    kDate,
    kRound,
    kWhite,
    kBlack,
    kResult,
    kVariant,
    kSetUp,
    kFen,
    kBishopSwap,
    kKnownTags
  };
  static constexpr std::string_view kKnownTagNames[kKnownTags] = {"Event", "Site",  "Date",        "Round",
                                                                  "White", "Black", "Result",      "Variant",
                                                                  "SetUp", "FEN",   kBishopSwapTag};
  std::array<std::uint32_t, kKnownTags> known_tags{};

  void index_known_tags() {
    known_tags.fill(0);
    const auto& tags = out.record.tags;
    for (std::size_t i = 0; i < tags.size(); ++i) {
      const std::string_view name = tags[i].name;
      for (int k = 0; k < kKnownTags; ++k) {
        if (name.size() != kKnownTagNames[k].size() || name != kKnownTagNames[k]) continue;
        if (!known_tags[k]) known_tags[k] = std::uint32_t(i + 1);
        break;
      }
    }
  }
  bool has(KnownTag k) const { return known_tags[k] != 0; }
  std::string_view value(KnownTag k) const {
    return known_tags[k] ? std::string_view(out.record.tags[known_tags[k] - 1].value) : std::string_view();
  }

  // --- movetext ---------------------------------------------------------
  bool in_main_line() const { return lines.size() == 1; }

  // `at_move`: the error is a move's (the text goes on at least to it),
  // else stray characters, which cut the main line short only if a move
  // follows them.
  void kill(Line& line, bool at_move = true) {
    line.dead = true;
    if (in_main_line()) {
      main_dead = true;
      out.main_line_cut |= at_move;
    }
  }

  // A move token read in a line an error ended.
  void read_past_error(Line& line) {
    line.read_past_error = true;
    if (in_main_line()) out.main_line_cut = true;
  }

  VIRREY_FLATTEN void move(std::string_view text, pgn::Location at) override {
    last_move_at = at;
    if (skip_moves || lines.empty()) return;
    Line& line = lines.back();
    if (line.dead) return read_past_error(line);
    Move plain;
    char suffix = 0;
    if (read_plain_san(current(line), text, plain, suffix)) {
      if (options.notation) [[unlikely]]
        notation_of_plain(line, text, at, plain);
      return played(line, text, at, plain, suffix);
    }
    read_move(line, text, at);
  }

  // A plain token names its origin when it has more than a piece letter, a
  // capture mark and the square before its check mark.
  [[gnu::noinline]] void notation_of_plain(Line& line, std::string_view text, pgn::Location at, Move move) {
    std::string_view t = text;
    while (!t.empty() && (t.back() == '+' || t.back() == '#')) t.remove_suffix(1);
    const bool piece = !t.empty() && t[0] >= 'A' && t[0] <= 'Z';
    const bool capture = t.find_first_of("x:") != std::string_view::npos;
    const bool pawn_file = !piece && capture;  // a pawn capture's file is required
    SanProblem problem;
    const auto san = t.size() > std::size_t(2 + piece + capture + pawn_file) ? parse_san(text, problem)
                                                                             : std::optional<SanSyntax>();
    if (san)
      notation_of_token(line, text, at, *san, move);  // its capture mark too
    else
      capture_mark(line, text, at, move, capture);
  }

  // Any move token that is not a plain move, and every error.
  [[gnu::noinline]] void read_move(Line& line, std::string_view text, pgn::Location at) {
    SanProblem error;
    const auto san = parse_san(text, error);
    if (!san) {
      add_move_finding(Code::Syntax, Severity::Error, at, text, line, error.message);
      kill(line);
      return;
    }
    if (san->kind == SanSyntax::Kind::Null) {
      null_move(text, at);
      return;
    }
    const SanResolution r = resolve_san(line.pos, *san);
    if (r.error != SanError::None) {
      const Code code = r.error == SanError::Ambiguous        ? Code::AmbiguousMove
                        : r.error == SanError::WrongPromotion ? Code::WrongPromotion
                                                              : Code::IllegalMove;
      add_move_finding(code, Severity::Error, at, text, line, r.message);
      kill(line);
      return;
    }
    if (r.implied_promotion)
      add_move_finding(Code::PromotionNormalized, Severity::Warning, at, text, line,
                       fmt::format("promotion piece not written: read as {}", write_san(line.pos, r.move)));
    if (options.notation) notation_of_token(line, text, at, *san, r.move);
    played(line, text, at, r.move, san->suffix);
  }

  // PGN export format: a capture is written with 'x', and only a capture.
  void capture_mark(Line& line, std::string_view text, pgn::Location at, Move move, bool written) {
    const bool captures = move.kind() == MoveKind::EnPassant ||
                          (move.kind() != MoveKind::Castling && move.kind() != MoveKind::BishopSwap &&
                           !line.pos.piece_on(move.to()).empty());
    if (written == captures) return;
    add_move_finding(
        Code::CaptureMark, Severity::Warning, at, text, line,
        captures ? fmt::format("the move captures: it is written {}", write_san(line.pos, move))
                 : fmt::format("the move captures nothing: it is written {}", write_san(line.pos, move)));
  }

  // PGN export format: castling with the letter O, and SAN that names no
  // more of its origin than the standard's minimal disambiguation, which
  // counts legal moves only (a pinned rival needs none).
  [[gnu::noinline]] void notation_of_token(Line& line, std::string_view text, pgn::Location at,
                                           const SanSyntax& san, Move move) {
    using K = SanSyntax::Kind;
    if (san.kind != K::Move) {
      if (san.kind != K::Null && san.kind != K::BishopSwap && !text.empty() && text[0] == '0')
        add_move_finding(Code::CastlingZeros, Severity::Warning, at, text, line,
                         fmt::format("castling is written with the letter O: {}", write_san(line.pos, move)));
      return;
    }
    capture_mark(line, text, at, move, san.capture);
    if (san.from_file < 0 && san.from_rank < 0) return;
    bool over = false;
    if (san.piece == PieceType::Pawn) {
      // A capture names its file, nothing more; a push names nothing.
      const bool capture = move.kind() == MoveKind::EnPassant || !line.pos.piece_on(move.to()).empty();
      over = san.from_rank >= 0 || (!capture && san.from_file >= 0);
    } else {
      MoveList rivals;
      generate_legal_to(line.pos, san.piece, square_bb<G>(move.to()), rivals);
      const Disambiguation needed = needed_disambiguation(line.pos, move, rivals);
      const Disambiguation written = san.from_file >= 0 && san.from_rank >= 0 ? Disambiguation::Square
                                     : san.from_file >= 0                     ? Disambiguation::File
                                                                              : Disambiguation::Rank;
      over = written != needed;
    }
    if (over)
      add_move_finding(Code::Disambiguation, Severity::Warning, at, text, line,
                       fmt::format("'{}' names more of its origin than the standard's SAN: {}",
                                   quoted_text(text), write_san(line.pos, move)));
  }

  // Takes a legal move read from `text` on the line's current position as
  // its pending move, checks its '+' or '#' mark and records it.
  [[gnu::always_inline]] void played(Line& line, std::string_view text, pgn::Location at, Move move,
                                     char suffix) {
    if (in_main_line()) [[likely]] {
      // line.pos is the position this move is played from.
      if (!drawn_by) drawn_by_rule(line.pos, line.ply);
      if (drawn_by && !drawn_reported) [[unlikely]] {
        drawn_reported = true;
        add_move_finding(
            Code::DrawnByRule, Severity::Warning, at, text, line,
            fmt::format("the game was drawn after ply {} by {} (FIDE Laws 9.6): the moves from here "
                        "on do not count",
                        drawn_after, drawn_by));
      }
    }
    line.pending = move;  // line.pos stays the position before the move
    if (suffix) {
      const Position<G> after = line.pos.after(move);
      const bool check = after.in_check();
      const bool mark_wrong = suffix == '+' ? !check : (!check || !legal_moves(after).empty());
      if (mark_wrong)
        add_move_finding(Code::CheckMark, Severity::Warning, at, text, line,
                         suffix == '+' ? "the move is marked '+' but gives no check"
                                       : "the move is marked '#' but does not mate");
      else if (options.notation && suffix == '+' && legal_moves(after).empty())
        add_move_finding(Code::MissingCheckMark, Severity::Warning, at, text, line,
                         "the move mates: it is marked '#', not '+'");
    } else if (options.notation) [[unlikely]] {
      missing_check_mark(line, text, at, move);
    }
    if (movetext_started) {
      MovetextItem item = move_item(line.ply + 1, move);
      if (options.move_san) item.text = write_san(line.pos, move);
      out.record.movetext.push_back(std::move(item));
    }
    if (in_main_line()) {
      if (out.record.main_line.size() == game::kMaxMainLinePlies) [[unlikely]]
        add_move_finding(Code::OversizedGame, Severity::Error, at, text, line,
                         fmt::format("the main line goes on past {} plies, the most a stored game holds",
                                     game::kMaxMainLinePlies));
      out.record.main_line.push_back(move);
      // The move was found legal: the trace numbers it without checking it again.
      if (options.trace_main_line) out.trace.add_legal(line.pos, move);
    }
    line.has_move = true;
    ++line.ply;
  }

  [[gnu::noinline]] void missing_check_mark(Line& line, std::string_view text, pgn::Location at, Move move) {
    const Position<G> after = line.pos.after(move);
    if (!after.in_check()) return;
    const bool mate = legal_moves(after).empty();
    add_move_finding(
        Code::MissingCheckMark, Severity::Warning, at, text, line,
        mate ? "the move mates but is not marked '#'" : "the move gives check but is not marked '+'");
  }

  // PGN export format: a move number is the full move number of the move
  // that follows it, "N..." comes before a Black move only, and its periods
  // follow the digits without a space.
  void move_number(std::uint32_t n, std::uint32_t dots, bool apart, pgn::Location at) override {
    last_text_at = at;
    if (!options.notation || skip_moves || lines.empty()) return;
    const Line& line = lines.back();
    if (line.dead) return;
    const std::uint32_t index = line.ply + (out.record.start_side == Color::Black ? 1 : 0);
    const std::uint64_t expected = std::uint64_t(out.record.start_fullmove) + index / 2;
    const bool white = index % 2 == 0;
    if (n != expected)
      add(Code::MoveNumber, Severity::Warning, at,
          fmt::format("move number {} out of sequence: the next move is {}{}", n, expected,
                      white ? "." : "..."));
    else if (dots >= 3 && white)
      add(Code::MoveNumber, Severity::Warning, at,
          fmt::format("\"{}...\" comes before a White move: {}.", n, n));
    else if (apart)
      add(Code::MoveNumber, Severity::Warning, at,
          fmt::format("move number {} apart from its periods: {}{}", n, n, white ? "." : "..."));
  }

  // A null move passes the turn: annotators write it in variations ("--",
  // "Z0") to show a threat. Kept there and checked on; in the main line, or
  // for a side in check (its king could be taken), it is no move.
  void null_move(std::string_view token, pgn::Location at) override {
    if (skip_moves || lines.empty()) return;
    Line& line = lines.back();
    if (line.dead) return read_past_error(line);
    const bool in_check = current(line).in_check();
    if (in_main_line() || in_check) {
      const bool main = in_main_line();
      add_move_finding(Code::NullMove, main ? Severity::Error : Severity::Warning, at, token, line,
                       main ? "a null move in the main line is not a legal move"
                            : "a null move by a side in check: the rest of this variation is not checked");
      kill(line);
      return;
    }
    line.pending_null = true;
    if (movetext_started) {
      MovetextItem item = move_item(line.ply + 1, Move{});
      item.text = "--";
      out.record.movetext.push_back(std::move(item));
    }
    line.has_move = true;
    ++line.ply;
  }

  // Starts the movetext at the first annotation of a game whose plain
  // movetext was left out: the main-line moves so far come first.
  void start_movetext() {
    if (movetext_started || !options.build_movetext) return;
    movetext_started = true;
    auto& items = out.record.movetext;
    items.reserve(out.record.main_line.size() + 8);
    for (std::size_t i = 0; i < out.record.main_line.size(); ++i)
      items.push_back(move_item(std::uint32_t(i + 1), out.record.main_line[i]));
  }

  static MovetextItem move_item(std::uint32_t ply, Move m) {
    MovetextItem item;
    item.kind = ItemKind::Move;
    item.ply = ply;
    item.move = m;
    return item;
  }

  void nag(std::uint8_t value, pgn::Location at) override {
    last_text_at = at;
    if (!skip_moves && !lines.empty() && !lines.back().has_move && !lines.back().dead)
      add_syntax(
          Code::Syntax, Severity::Warning, at,
          fmt::format("${} before any move of its line (PGN puts a NAG after the move it annotates; other "
                      "readers may refuse it)",
                      value));
    if (!options.build_movetext || skip_moves) return;
    start_movetext();
    MovetextItem item;
    item.kind = ItemKind::Nag;
    item.nag = value;
    out.record.movetext.push_back(std::move(item));
  }

  // A comment before the first move comes before end_tags (a comment may
  // stand between tag pairs): it is kept all the same, ahead of the moves.
  void comment(std::string_view text, pgn::CommentKind, pgn::Location at) override {
    last_text_at = at;
    if (!options.build_movetext || skip_moves) return;
    start_movetext();
    MovetextItem item;
    item.kind = ItemKind::Comment;
    item.text = as_utf8(text);
    out.record.movetext.push_back(std::move(item));
  }

  pgn::Skip begin_variation(pgn::Location at) override {
    if (skip_moves || lines.empty()) return pgn::Skip::Yes;
    const Line& parent = lines.back();
    // A line an error broke is known up to the move in error: a variation
    // right after that move replaces it and is checked from the position
    // before it (where the error left the line). Past it the position is
    // unknown, and the variation is skipped.
    if (parent.dead && parent.read_past_error) return pgn::Skip::Yes;
    Line line;
    line.pos = parent.pos;  // before the parent's pending last move, if it has one
    // (A line ended by a move in error played its last good move on pos; one
    // ended by stray characters has it pending, as a live line has.)
    line.ply = !parent.pending.is_null() || parent.pending_null ? parent.ply - 1 : parent.ply;
    if (!parent.has_move && !parent.dead)
      add_syntax(Code::Syntax, Severity::Warning, at,
                 "a variation before any move of its line (PGN puts a variation after the move it replaces; "
                 "other readers may refuse it)");
    lines.push_back(line);
    start_movetext();
    if (options.build_movetext) out.record.movetext.push_back({ItemKind::BeginVariation, 0, 0, {}, {}});
    return pgn::Skip::No;
  }

  void end_variation(pgn::Location at) override {
    if (lines.size() <= 1) return;
    if (!lines.back().has_move && !lines.back().dead)
      add_syntax(Code::Syntax, Severity::Warning, at,
                 "a variation without a move (other readers may refuse it)");
    lines.pop_back();
    if (options.build_movetext) out.record.movetext.push_back({ItemKind::EndVariation, 0, 0, {}, {}});
  }

  void result(GameResult r, pgn::Location at) override {
    saw_result = true;
    result_at = at;
    out.record.result = r;
    const auto tagged = parse_result(value(kResult));
    if (has(kResult) && tagged && *tagged != out.record.result)
      add(Code::ResultMismatch, Severity::Error, at,
          fmt::format("the Result tag says {} but the game ends with {}", result_text(*tagged),
                      result_text(out.record.result)));
  }

  void diagnostic(const pgn::Diagnostic& d) override {
    const Code code = d.problem == pgn::Problem::InvalidUtf8         ? Code::Encoding
                      : d.problem == pgn::Problem::ControlInTagValue ? Code::BadTag
                                                                     : Code::Syntax;
    const Severity sev = pgn::is_warning_by_default(d.problem) ? Severity::Warning : Severity::Error;
    std::string message(d.message);
    if (!d.text.empty() && (code == Code::BadTag || (code == Code::Syntax && d.text.size() <= 40)))
      message += fmt::format(" ('{}')", quoted_text(d.text));
    if (d.problem == pgn::Problem::TooManyDiagnostics)
      syntax_capped_at(d.at);  // (the parser reports nothing more)
    else if (code == Code::Syntax)
      add_syntax(code, sev, d.at, std::move(message));
    else
      add(code, sev, d.at, std::move(message));
    if (d.at > last_problem_at) last_problem_at = d.at;
    if (sev == Severity::Error && !lines.empty() && d.problem == pgn::Problem::UnexpectedCharacter)
      kill(lines.back(), false);
  }

  // The main line's position after `ply` plies: drawn by the 75-move rule
  // (150 plies without a capture or a pawn move, unless the last mated) or
  // by its fifth occurrence (same side to move, castling and en passant: the
  // position hash). Only positions since the last capture or pawn move can
  // repeat, and there are fewer than 150 of them before the other rule.
  void drawn_by_rule(const Position<G>& pos, std::uint32_t ply) {
    if (pos.halfmove_clock() == 0) since_reset.clear();
    since_reset.push_back(pos.hash());
    if (pos.halfmove_clock() >= 150) [[unlikely]] {
      if (board_state(pos) != BoardState::Checkmate) {
        drawn_after = ply;
        drawn_by = "the 75-move rule";
      }
      return;
    }
    if (since_reset.size() < 17) [[likely]]
      return;  // a fifth occurrence is 16 plies after the first at least
    int seen = 0;
    for (std::size_t i = since_reset.size(); i-- > 0;)
      if (since_reset[i] == pos.hash()) seen += 1;
    if (seen >= 5) {
      drawn_after = ply;
      drawn_by = "fivefold repetition";
    }
  }

  void end_game(pgn::Location end) override {
    // Findings about the result point at it, or at the last move without one,
    // else at the last thing the movetext holds (a NAG such as +/-, a
    // comment), else at the last tag: the end of the text is past the blank
    // lines after the game, at the next game's first line.
    out.record.moves_unread = skip_moves;
    pgn::Location last = last_move_at.line   ? last_move_at
                         : last_text_at.line ? last_text_at
                         : !tag_at.empty()   ? tag_at.back()
                                             : end;
    // Bytes that did not read (a tag cut short at the end of a file) are the
    // last thing a game without moves holds when nothing follows them.
    if (!last_move_at.line && last_problem_at.line && last_problem_at > last) last = last_problem_at;
    if (!saw_result && !skip_moves) {
      add(Code::MissingResult, Severity::Error, last,
          "the game has no result (1-0, 0-1, 1/2-1/2 or *) at its end");
      if (auto tagged = parse_result(value(kResult))) out.record.result = *tagged;
    }
    if (skip_moves || lines.empty() || main_dead) return;
    const Position<G>& last_pos = current(lines.front());
    if (!drawn_by) drawn_by_rule(last_pos, lines.front().ply);
    const GameResult claimed =
        saw_result ? out.record.result : parse_result(value(kResult)).value_or(GameResult::Unknown);
    if (drawn_by && !drawn_reported) {
      // Drawn by the last move: a decisive result does not stand.
      if (claimed == GameResult::WhiteWins || claimed == GameResult::BlackWins)
        add(Code::DrawnByRule, Severity::Warning, saw_result ? result_at : last,
            fmt::format("the game was drawn after ply {} by {} (FIDE Laws 9.6), but the result is {}",
                        drawn_after, drawn_by, result_text(claimed)));
    }
    const BoardState state = board_state(last_pos);
    if (options.trace_main_line) out.trace.finish(last_pos, state);
    if (state == BoardState::Ongoing) return;
    const GameResult expected = state == BoardState::Stalemate            ? GameResult::Draw
                                : last_pos.side_to_move() == Color::White ? GameResult::BlackWins
                                                                          : GameResult::WhiteWins;
    if (claimed == expected) return;
    const char* what = state == BoardState::Stalemate ? "stalemate" : "checkmate";
    const pgn::Location at = saw_result ? result_at : last;
    if (claimed == GameResult::Unknown)
      add(Code::ResultMismatch, Severity::Warning, at,
          fmt::format("the game ends in {} but the result is *; expected {}", what, result_text(expected)));
    else
      add(Code::ResultMismatch, Severity::Error, at,
          fmt::format("the game ends in {} but the result is {}; expected {}", what, result_text(claimed),
                      result_text(expected)));
  }

  std::uint64_t identity() const {
    const GameRecord& rec = out.record;
    std::uint64_t h = mix(0x5649525245594944ULL, std::uint64_t(rec.variant));
    h = mix(h, rec.start_fen);
    for (Move m : rec.main_line) h = mix(h, m.raw());
    // The roster as the store's identity reads it (game/identity.hpp): a
    // missing tag is its unknown value, Result the termination marker.
    static_assert(kResult == game::kSevenTagRoster.size() - 1);
    for (int k = kEvent; k < kResult; ++k)
      h = mix(h, has(KnownTag(k)) ? value(KnownTag(k)) : game::kSevenTagRoster[std::size_t(k)].unknown);
    h = mix(h, result_text(rec.result));
    return h;
  }
};

// Hands the parser's calls to the checker of the game's board geometry. The
// tag section goes to the 8x8 checker; once the tags name the variant, a 9x9
// game moves to the 9x9 checker with what was found so far.
struct GameChecker::Impl final : pgn::Visitor {
  pgn::GameParser parser;
  GeometryChecker<Board8> eight;
  GeometryChecker<Board9> nine;
  pgn::Visitor* active = &eight;

  explicit Impl(CheckOptions o) : eight(o), nine(o) {}

  void check(std::string_view text, std::uint64_t number, pgn::Location start, CheckedGame& result) {
    eight.out = std::move(result);
    eight.reset(number);
    // Room for the usual tag section and main line, so that they grow once.
    eight.out.record.tags.reserve(16);
    eight.out.record.main_line.reserve(text.size() / 6);
    active = &eight;
    if (eight.options.notation) long_lines(text, start);
    parser.parse(text, start, *this);
    auto finish = [&](auto& checker) {
      checker.out.identity = checker.identity();
      result = std::move(checker.out);
    };
    if (active == &nine)
      finish(nine);
    else
      finish(eight);
  }

  // PGN export format: no line longer than 255 characters (UTF-8 code points;
  // the line end not counted).
  void long_lines(std::string_view text, pgn::Location start) {
    constexpr std::size_t kMaxLine = 255;
    std::uint64_t line = start.line;
    std::size_t begin = 0;
    std::size_t lead =
        start.column > 1 ? std::size_t(start.column - 1) : 0;  // the line's bytes before the game
    while (begin < text.size()) {
      std::size_t end = text.find('\n', begin);
      if (end == std::string_view::npos) end = text.size();
      std::size_t len = end - begin;
      if (len && text[end - 1] == '\r') --len;
      if (len + lead > kMaxLine) {
        std::size_t chars = lead;
        for (std::size_t i = begin; i < begin + len; ++i)
          chars += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
        if (chars > kMaxLine)
          eight.add(
              Code::LongLine, Severity::Warning, {line, 1},
              fmt::format("the line is {} characters long; PGN export format allows {}", chars, kMaxLine));
      }
      lead = 0;
      begin = end + 1;
      ++line;
    }
  }

  void begin_game(pgn::Location at) override { active->begin_game(at); }
  void tag(std::string_view name, std::string_view value, pgn::Location at) override {
    active->tag(name, value, at);
  }
  pgn::Skip end_tags(pgn::Location at) override {
    const auto& rec = eight.out.record;
    const auto v = rec.has_tag("Variant") && names_a_variant(rec.tag("Variant"))
                       ? resolve_variant(rec.tag("Variant"))
                       : std::optional<Variant>(eight.options.default_variant);
    if (v && info(*v).width == 9) {
      nine.reset(eight.number);
      nine.out = std::move(eight.out);
      std::swap(nine.tag_at, eight.tag_at);
      active = &nine;
    }
    return active->end_tags(at);
  }
  void move_number(std::uint32_t n, std::uint32_t dots, bool apart, pgn::Location at) override {
    active->move_number(n, dots, apart, at);
  }
  void move(std::string_view san, pgn::Location at) override { active->move(san, at); }
  void null_move(std::string_view t, pgn::Location at) override { active->null_move(t, at); }
  void nag(std::uint8_t n, pgn::Location at) override { active->nag(n, at); }
  void comment(std::string_view t, pgn::CommentKind k, pgn::Location at) override {
    active->comment(t, k, at);
  }
  pgn::Skip begin_variation(pgn::Location at) override { return active->begin_variation(at); }
  void end_variation(pgn::Location at) override { active->end_variation(at); }
  void result(GameResult r, pgn::Location at) override { active->result(r, at); }
  void diagnostic(const pgn::Diagnostic& d) override { active->diagnostic(d); }
  void end_game(pgn::Location end) override { active->end_game(end); }
};

GameChecker::GameChecker(CheckOptions options) : impl_(std::make_unique<Impl>(options)) {}
GameChecker::~GameChecker() = default;
GameChecker::GameChecker(GameChecker&&) noexcept = default;

CheckedGame GameChecker::check(std::string_view text, std::uint64_t number, pgn::Location start) {
  CheckedGame game;
  impl_->check(text, number, start, game);
  return game;
}

void GameChecker::check(std::string_view text, std::uint64_t number, pgn::Location start, CheckedGame& out) {
  impl_->check(text, number, start, out);
}

void CheckedGame::clear() {
  record.clear();
  findings.clear();
  has_error = has_warning = main_line_cut = false;
  identity = 0;
  trace.clear();
}

}  // namespace virrey::validate
