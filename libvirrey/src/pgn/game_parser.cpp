#include "virrey/pgn/game_parser.hpp"

#include <array>
#include <cstring>
#include <limits>
#include <optional>

#include "byte_scan.hpp"
#include "pgn_chars.hpp"
#include "virrey/base/utf8.hpp"

namespace virrey::pgn {

namespace {

using namespace chars;

// What a byte starts, outside comments and tag pairs.
enum Class : std::uint8_t {
  kBlank,
  kNewline,
  kSymbol,
  kDot,
  kBrace,
  kSemicolon,
  kBracket,
  kParenOpen,
  kParenClose,
  kDollar,
  kAnnotation,
  kStar,
  kGarbage,  // includes '%' away from column 1
};

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const char ch = char(c);
    std::uint8_t k = kGarbage;
    if (is_blank(ch))
      k = kBlank;
    else if (is_newline(ch))
      k = kNewline;
    else if (is_symbol(ch))
      k = kSymbol;
    else if (ch == '.')
      k = kDot;
    else if (ch == '{')
      k = kBrace;
    else if (ch == ';')
      k = kSemicolon;
    else if (ch == '[')
      k = kBracket;
    else if (ch == '(')
      k = kParenOpen;
    else if (ch == ')')
      k = kParenClose;
    else if (ch == '$')
      k = kDollar;
    else if (ch == '!' || ch == '?')
      k = kAnnotation;
    else if (ch == '*')
      k = kStar;
    t[std::size_t(c)] = k;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kClass = make_classes();

std::uint8_t class_of(char c) { return kClass[static_cast<unsigned char>(c)]; }

// NUL bytes and the DOS end-of-file mark (^Z): padding between games.
constexpr bool is_padding(char c) { return c == '\0' || c == '\x1a'; }

struct NagWord {
  std::string_view text;
  std::uint8_t nag;
};
// Suffix annotations and the evaluation symbols some exporters write as text.
constexpr NagWord kSuffixes[] = {{"!", 1}, {"?", 2}, {"!!", 3}, {"??", 4}, {"!?", 5}, {"?!", 6}};
constexpr NagWord kEvaluations[] = {{"=", 10},   {"+=", 14},  {"+/=", 14}, {"=+", 15}, {"=/+", 15},
                                    {"+/-", 16}, {"-/+", 17}, {"+-", 18},  {"-+", 19}};

template <std::size_t N>
int find_nag(const NagWord (&table)[N], std::string_view word) {
  for (const NagWord& w : table)
    if (w.text == word) return w.nag;
  return -1;
}

// One parse of one game text: the cursor, the line bookkeeping and the
// handlers of each token kind.
class Run {
 public:
  Run(std::string_view text, Location start, Visitor& visitor, const ParseOptions& options,
      std::string& unescaped, std::vector<Location>& open)
      : p_(text.data()),
        end_(text.data() + text.size()),
        line_(start.line),
        line_begin_(text.data()),
        col_base_(start.column),
        v_(visitor),
        options_(options),
        unescaped_(unescaped),
        open_(open) {}

  void parse();

 private:
  Location loc(const char* q) const { return {line_, std::uint64_t(q - line_begin_) + col_base_}; }
  void new_line(const char* next_line) {
    ++line_;
    line_begin_ = next_line;
    col_base_ = 1;
  }
  // Counts the line breaks in [from, to), which must not split a CRLF.
  void count_lines(const char* from, const char* to);
  const char* find_line_end(const char* from) const {
    return from + scan::find_first_of<'\n', '\r'>(from, std::size_t(end_ - from));
  }
  void skip_blanks() {
    const char* q = p_;
    while (q < end_ && is_blank(*q)) ++q;
    p_ = q;
  }

  void report(Problem problem, Location at, std::string_view text);
  // Reports the first invalid UTF-8 sequence in `text`, a view into the game
  // text at or after the cursor's line (a comment or a tag value).
  void check_utf8(std::string_view text);
  // Ends the tag section before the first movetext token, which starts at
  // `token`. False when the visitor skips the movetext (the cursor is then
  // at the end).
  bool begin_movetext(const char* token);
  void skip_to_end() {
    count_lines(p_, end_);
    p_ = end_;
  }

  void newline();
  void symbol();
  void move_number(const char* start, Location at);
  void stray_dots();
  void brace_comment();
  void line_comment();
  void tag_pair();
  void tag_in_movetext();
  void skip_tag_rest();
  void open_variation();
  void close_variation();
  void skip_variation(Location open_at);
  void dollar_nag();
  void annotation();
  void result(GameResult result, const char* start);
  void garbage();
  void finish();

  const char* p_;
  const char* const end_;
  std::uint64_t line_;
  const char* line_begin_;  // first byte of the current line (or of the text)
  std::uint64_t col_base_;  // column of line_begin_
  Visitor& v_;
  const ParseOptions& options_;
  std::string& unescaped_;
  std::vector<Location>& open_;
  std::uint32_t diagnostics_ = 0;
  bool error_past_cap_ = false;  // an error past max_diagnostics was passed on
  // Comments before the first tag pair: the previous game's trailer (a
  // comment after its result) when a tag pair follows, and dropped then;
  // the game's own when its movetext follows without tags.
  struct HeldComment {
    std::string_view body;
    CommentKind kind;
    Location at;
  };
  std::vector<HeldComment> held_;
  void comment(std::string_view body, CommentKind kind, Location at) {
    if (in_tags_ && !seen_tag_)
      held_.push_back({body, kind, at});
    else
      v_.comment(body, kind, at);
  }
  void deliver_held() {
    for (const HeldComment& c : held_) v_.comment(c.body, c.kind, c.at);
    held_.clear();
  }
  bool seen_tag_ = false;
  std::optional<Location> tags_end_;  // just past the last tag read whole
  bool in_tags_ = true;
  bool done_ = false;
};

void Run::count_lines(const char* from, const char* to) {
  std::size_t last_break_end = 0;
  bool ends_with_cr = false;
  const std::uint64_t breaks =
      scan::count_line_breaks(from, std::size_t(to - from), false, last_break_end, ends_with_cr);
  if (breaks == 0) return;
  line_ += breaks;
  line_begin_ = from + last_break_end;
  col_base_ = 1;
}

void Run::report(Problem problem, Location at, std::string_view text) {
  if (diagnostics_ < options_.max_diagnostics) {
    ++diagnostics_;
    v_.diagnostic({problem, at, text, describe(problem)});
    return;
  }
  if (diagnostics_ == options_.max_diagnostics) {
    ++diagnostics_;
    v_.diagnostic({Problem::TooManyDiagnostics, at, {}, describe(Problem::TooManyDiagnostics)});
  }
  // Past the cap the first error still reaches the visitor (which need not
  // list it): a game with many problems before one must not pass for valid.
  // Later ones are dropped too (a game of millions of stray characters costs
  // no more than one).
  if (!error_past_cap_ && !is_warning_by_default(problem)) {
    error_past_cap_ = true;
    v_.diagnostic({problem, at, text, describe(problem)});
  }
}

void Run::check_utf8(std::string_view text) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return;
  // Locate the bad byte without disturbing the caller's line bookkeeping.
  const std::uint64_t saved_line = line_, saved_base = col_base_;
  const char* saved_begin = line_begin_;
  count_lines(text.data(), text.data() + bad);
  const Location at = loc(text.data() + bad);
  line_ = saved_line, col_base_ = saved_base, line_begin_ = saved_begin;
  std::size_t len = 1;
  while (bad + len < text.size() && len < 4 && static_cast<unsigned char>(text[bad + len]) >= 0x80) ++len;
  report(Problem::InvalidUtf8, at, text.substr(bad, len));
}

bool Run::begin_movetext(const char* token) {
  if (!in_tags_) return true;
  deliver_held();
  in_tags_ = false;
  if (v_.end_tags(loc(token)) == Skip::Yes) {
    skip_to_end();
    return false;
  }
  return true;
}

void Run::parse() {
  // An escape line may open the text when it starts a line.
  if (col_base_ == 1 && p_ < end_ && *p_ == '%') p_ = find_line_end(p_);
  while (p_ < end_ && !done_) {
    switch (class_of(*p_)) {
      case kBlank: skip_blanks(); break;
      case kNewline: newline(); break;
      case kSymbol:
        symbol();
        skip_blanks();  // the blanks after a token, without another dispatch
        break;
      case kDot: stray_dots(); break;
      case kBrace: brace_comment(); break;
      case kSemicolon: line_comment(); break;
      case kBracket: in_tags_ ? tag_pair() : tag_in_movetext(); break;
      case kParenOpen: open_variation(); break;
      case kParenClose: close_variation(); break;
      case kDollar: dollar_nag(); break;
      case kAnnotation: annotation(); break;
      case kStar: result(GameResult::Unknown, p_); break;
      default: garbage(); break;
    }
  }
  finish();
}

void Run::newline() {
  if (*p_ == '\r' && p_ + 1 < end_ && p_[1] == '\n') ++p_;
  ++p_;
  new_line(p_);
  if (p_ < end_ && *p_ == '%') p_ = find_line_end(p_);  // escape line: skipped
}

void Run::symbol() {
  const char* start = p_;
  const char* q = p_ + 1;  // the first byte is a symbol byte
  while (q < end_ && class_of(*q) == kSymbol) ++q;
  p_ = q;
  const std::string_view token(start, std::size_t(p_ - start));
  const Location at = loc(start);
  if (!begin_movetext(start)) return;
  if (is_digit(token[0])) {
    bool digits_only = true;
    for (char c : token) digits_only = digits_only && is_digit(c);
    if (digits_only) return move_number(start, at);
    if (const auto r = parse_result(token)) return result(*r, start);
  }
  if (token == "--" || token == "Z0") return v_.null_move(token, at);
  if (token == "e" && end_ - p_ >= 3 && p_[0] == '.' && p_[1] == 'p' && p_[2] == '.') {
    p_ += 3;  // "e.p." after an en passant capture: a remark, not a token
    return;
  }
  if (token[0] == '+' || token[0] == '-' || token[0] == '=') {
    const int nag = find_nag(kEvaluations, token);
    if (nag >= 0) return v_.nag(std::uint8_t(nag), at);
  }
  v_.move(token, at);
}

// Digits already consumed from `start` up to p_; the dots follow.
void Run::move_number(const char* start, Location at) {
  std::uint32_t number = 0;
  for (const char* q = start; q < p_; ++q) {
    const std::uint32_t digit = std::uint32_t(*q - '0');
    number = number > (std::numeric_limits<std::uint32_t>::max() - digit) / 10
                 ? std::numeric_limits<std::uint32_t>::max()
                 : number * 10 + digit;
  }
  const char* q = p_;
  while (q < end_ && *q == '.') ++q;
  std::uint32_t dots = std::uint32_t(q - p_);
  p_ = q;
  // Periods are tokens of their own: "1. ... e5" and "2 ... Nc6" number a
  // Black move, "1. ..." being White's period and then Black's three.
  bool apart = false;
  if (dots <= 1) {
    while (q < end_ && (is_blank(*q) || is_newline(*q))) ++q;
    if (q < end_ && *q == '.') [[unlikely]] {
      count_lines(p_, q);
      p_ = q;
      while (q < end_ && *q == '.') ++q;
      const std::uint32_t more = std::uint32_t(q - p_);
      dots = dots == 1 && more == 3 ? 3 : dots + more;
      apart = true;
      p_ = q;
    }
  }
  if (number == 0 || dots == 2 || dots > 3)
    report(Problem::UnusualMoveNumber, at, std::string_view(start, std::size_t(p_ - start)));
  v_.move_number(number, dots, apart, at);
}

void Run::stray_dots() {
  const char* start = p_;
  while (p_ < end_ && *p_ == '.') ++p_;
  const Location at = loc(start);
  if (!begin_movetext(start)) return;
  report(Problem::BadMoveNumber, at, std::string_view(start, std::size_t(p_ - start)));
}

void Run::brace_comment() {
  const Location at = loc(p_);
  const char* text = p_ + 1;
  const auto* close = static_cast<const char*>(std::memchr(text, '}', std::size_t(end_ - text)));
  const char* stop = close ? close : end_;
  const std::string_view body(text, std::size_t(stop - text));
  if (!close) report(Problem::UnterminatedComment, at, std::string_view(p_, 1));
  check_utf8(body);
  comment(body, CommentKind::Brace, at);
  count_lines(text, stop);
  p_ = close ? close + 1 : end_;
}

void Run::line_comment() {
  const Location at = loc(p_);
  const char* text = p_ + 1;
  p_ = find_line_end(text);
  const std::string_view body(text, std::size_t(p_ - text));
  check_utf8(body);
  comment(body, CommentKind::Line, at);
}

// Skips to just past the next ']' on this line, or to the line end.
void Run::skip_tag_rest() {
  while (p_ < end_ && !is_newline(*p_)) {
    if (*p_++ == ']') return;
  }
}

void Run::tag_pair() {
  seen_tag_ = true;
  held_.clear();
  const char* open = p_;
  const Location at = loc(p_);
  ++p_;
  skip_blanks();
  const char* name_start = p_;
  while (p_ < end_ && is_tag_name(*p_)) ++p_;
  const std::string_view name(name_start, std::size_t(p_ - name_start));
  skip_blanks();
  if (name.empty() || p_ >= end_ || *p_ != '"') {
    skip_tag_rest();
    return report(Problem::BadTag, at, std::string_view(open, std::size_t(p_ - open)));
  }
  const Location value_at = loc(p_);
  const char* value_start = ++p_;
  bool escaped = false;
  const char* control = nullptr;  // the value's first control character
  while (p_ < end_ && *p_ != '"' && !is_newline(*p_)) {
    if (*p_ == '\\' && p_ + 1 < end_ && (p_[1] == '"' || p_[1] == '\\')) {
      escaped = true;
      p_ += 2;
    } else {
      if (is_control(*p_) && !control) [[unlikely]]
        control = p_;
      ++p_;
    }
  }
  if (p_ >= end_ || *p_ != '"') {
    // The rest of the line is the broken value; the tag is dropped.
    return report(Problem::UnterminatedString, value_at,
                  std::string_view(value_start - 1, std::size_t(p_ - value_start + 1)));
  }
  const std::string_view raw(value_start, std::size_t(p_ - value_start));
  ++p_;
  skip_blanks();
  if (p_ < end_ && *p_ == ']') {
    ++p_;
  } else if (p_ < end_ && !is_newline(*p_)) {
    const char* junk = p_;
    skip_tag_rest();
    report(Problem::BadTag, loc(junk), std::string_view(junk, std::size_t(p_ - junk)));
  } else {
    report(Problem::UnterminatedTag, at, std::string_view(open, std::size_t(p_ - open)));
  }
  check_utf8(raw);
  if (control) [[unlikely]]
    report(Problem::ControlInTagValue, loc(control), std::string_view(open, std::size_t(p_ - open)));
  std::string_view value = raw;
  if (escaped) {
    unescaped_.clear();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\')) ++i;
      unescaped_.push_back(raw[i]);
    }
    value = unescaped_;
  }
  tags_end_ = loc(p_);
  v_.tag(name, value, at);
}

void Run::tag_in_movetext() {
  const char* open = p_;
  const Location at = loc(p_);
  skip_tag_rest();
  report(Problem::TagInMovetext, at, std::string_view(open, std::size_t(p_ - open)));
}

void Run::open_variation() {
  const Location at = loc(p_);
  ++p_;
  if (!begin_movetext(p_ - 1)) return;
  if (open_.size() >= options_.max_variation_depth) {
    report(Problem::VariationTooDeep, at, std::string_view(p_ - 1, 1));
    return skip_variation(at);
  }
  if (v_.begin_variation(at) == Skip::Yes) return skip_variation(at);
  open_.push_back(at);
}

void Run::close_variation() {
  const Location at = loc(p_);
  ++p_;
  if (!begin_movetext(p_ - 1)) return;
  if (open_.empty()) return report(Problem::UnmatchedParenthesis, at, std::string_view(p_ - 1, 1));
  open_.pop_back();
  v_.end_variation(at);
}

// The cursor is just past a '(' that is not reported: skips to just past
// its matching ')', honouring comments, without any callback.
void Run::skip_variation(Location open_at) {
  std::uint64_t level = 1;
  while (p_ < end_) {
    switch (*p_) {
      case '(': ++level, ++p_; break;
      case ')':
        ++p_;
        if (--level == 0) return;
        break;
      case '{': {
        const char* text = p_ + 1;
        const auto* close = static_cast<const char*>(std::memchr(text, '}', std::size_t(end_ - text)));
        if (!close) report(Problem::UnterminatedComment, loc(p_), std::string_view(p_, 1));
        count_lines(text, close ? close : end_);
        p_ = close ? close + 1 : end_;
        break;
      }
      case ';': p_ = find_line_end(p_); break;
      case '\n':
      case '\r': newline(); break;
      default: ++p_; break;
    }
  }
  report(Problem::UnclosedVariation, open_at, "(");
}

void Run::dollar_nag() {
  const char* start = p_;
  const Location at = loc(p_);
  ++p_;
  if (!begin_movetext(start)) return;
  unsigned value = 0;
  while (p_ < end_ && is_digit(*p_)) {
    if (value <= 255) value = value * 10 + unsigned(*p_ - '0');
    ++p_;
  }
  if (p_ == start + 1 || value > 255)
    return report(Problem::BadNag, at, std::string_view(start, std::size_t(p_ - start)));
  v_.nag(std::uint8_t(value), at);
}

void Run::annotation() {
  const char* start = p_;
  const Location at = loc(p_);
  while (p_ < end_ && class_of(*p_) == kAnnotation) ++p_;
  if (!begin_movetext(start)) return;
  const std::string_view word(start, std::size_t(p_ - start));
  const int nag = find_nag(kSuffixes, word);
  if (nag < 0) return report(Problem::BadAnnotation, at, word);
  v_.nag(std::uint8_t(nag), at);
}

// `start` is the first byte of the marker; p_ is past it (or at it for '*').
void Run::result(GameResult result, const char* start) {
  if (p_ == start) ++p_;  // '*'
  const Location at = loc(start);
  if (!begin_movetext(start)) return;
  if (!open_.empty())
    return report(Problem::ResultInVariation, at, std::string_view(start, std::size_t(p_ - start)));
  v_.result(result, at);
  done_ = true;
  // Only blank text may follow.
  while (p_ < end_ && (is_blank(*p_) || is_padding(*p_) || is_newline(*p_))) {
    if (is_newline(*p_)) {
      newline();
      continue;  // newline() skipped an escape line, if any
    }
    ++p_;
  }
  if (p_ < end_) {
    report(Problem::TextAfterResult, loc(p_), std::string_view(p_, std::size_t(end_ - p_)));
    skip_to_end();
  }
}

void Run::garbage() {
  // Padding before a game (NUL bytes, a DOS end-of-file mark ^Z) belongs to
  // no game: skipped. Inside a game it is an error, as any other stray byte.
  if (in_tags_ && !seen_tag_ && is_padding(*p_)) {
    while (p_ < end_ && is_padding(*p_)) ++p_;
    return;
  }
  const char* start = p_;
  while (p_ < end_ && class_of(*p_) == kGarbage) ++p_;
  report(Problem::UnexpectedCharacter, loc(start), std::string_view(start, std::size_t(p_ - start)));
}

void Run::finish() {
  const Location end = loc(end_);
  if (in_tags_) {
    deliver_held();
    in_tags_ = false;
    // A game of tags alone: what its tags lack is told where they end, not
    // where the next game begins.
    (void)v_.end_tags(tags_end_.value_or(end));
  }
  if (!open_.empty()) {
    report(Problem::UnclosedVariation, open_.front(), "(");
    for (std::size_t i = 0; i < open_.size(); ++i) v_.end_variation(end);
    open_.clear();
  }
  v_.end_game(end);
}

}  // namespace

GameParser::GameParser(ParseOptions options) : options_(options) {}

void GameParser::parse(std::string_view text, Location start, Visitor& visitor) {
  open_variations_.clear();
  visitor.begin_game(start);
  Run(text, start, visitor, options_, unescaped_, open_variations_).parse();
}

}  // namespace virrey::pgn
