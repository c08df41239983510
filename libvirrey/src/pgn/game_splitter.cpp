#include "virrey/pgn/game_splitter.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "byte_scan.hpp"
#include "pgn_chars.hpp"

namespace virrey::pgn {

namespace {

using namespace chars;

// What the scanner is inside of.
enum class Mode : std::uint8_t {
  Top,          // tag section or movetext, outside everything below
  Tag,          // between '[' and ']'
  TagString,    // a quoted tag value
  Brace,        // a { } comment
  LineComment,  // a ; comment or a % escape line, up to the line break
  PostMarker,   // after the termination marker: taking the blank rest of its line
};

// Byte classes in Mode::Top. Blank and Plain are skipped by the fast loop.
enum TopClass : std::uint8_t {
  kBlank,
  kPlain,  // anything that makes movetext
  kNewline,
  kBraceOpen,
  kSemicolon,
  kBracket,
  kParenOpen,
  kParenClose,
  kStar,
  kDash,  // may be inside 1-0, 0-1, 1/2-1/2
  kPercent,
};

constexpr std::array<std::uint8_t, 256> make_top_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const char ch = char(c);
    std::uint8_t k = kPlain;
    if (is_blank(ch) || ch == '\0' || ch == '\x1a')
      k = kBlank;  // NUL: padding, not movetext; ^Z: a DOS end-of-file mark
    else if (is_newline(ch))
      k = kNewline;
    else if (ch == '{')
      k = kBraceOpen;
    else if (ch == ';')
      k = kSemicolon;
    else if (ch == '[')
      k = kBracket;
    else if (ch == '(')
      k = kParenOpen;
    else if (ch == ')')
      k = kParenClose;
    else if (ch == '*')
      k = kStar;
    else if (ch == '-')
      k = kDash;
    else if (ch == '%')
      k = kPercent;
    t[std::size_t(c)] = k;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kTopClass = make_top_classes();

constexpr std::size_t kMaxTagName = 64;  // longer names are not compared
constexpr std::size_t kKeepBehind = 8;   // bytes kept before the scan point while skipping a game

enum class Step : std::uint8_t { Continue, Found, NeedMore };
enum class Look : std::uint8_t { No, Yes, NeedMore };

constexpr std::uint64_t hash_name(const char* s, std::size_t n) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
  return h;
}
constexpr std::uint64_t kEventName = hash_name("Event", 5);

}  // namespace

struct GameSplitter::State {
  State(importers::ByteSource& s, SplitterOptions o) : source(s), options(o) {
    options.read_size = std::max<std::size_t>(options.read_size, 1);
  }

  GameItem next();

  // Between games.
  bool skip_to_game();  // false at the end of the input
  void begin_game();
  // Within a game: scans from `scan`; Found sets the game end.
  Step scan_game();
  Step scan_top(std::size_t& p);
  Step scan_tag(std::size_t& p);
  Step scan_tag_string(std::size_t& p);
  Step scan_brace(std::size_t& p);
  Step scan_line_comment(std::size_t& p);
  Step scan_post_marker(std::size_t& p);
  Step found(std::uint64_t end_offset, std::size_t next_start, GameEnd how);
  // A '[' at p, first on its line in Top mode, may start the next game.
  bool may_end_before_line(std::size_t p) const {
    return base + p - top_line_begin <= options.max_game_bytes;
  }
  // The least size the current game can still have, whatever follows.
  std::uint64_t least_game_size() const {
    const bool may_end_at_line_start = mode == Mode::Top && line_start && may_end_before_line(scan);
    return (may_end_at_line_start ? top_line_begin : base + scan) - game_offset;
  }
  std::size_t marker_end_at_dash(std::size_t p) const;
  Look tag_name_at(std::size_t p, std::uint64_t& hash) const;
  Look tag_line_at(std::size_t p) const;
  // Whether the brace comment holding a tag-like line at q goes on past it:
  // a '}' before an empty line or a '{' (Yes), one of them or the end first
  // (No), looking at most max_game_bytes ahead (nothing there: No). Waiting
  // for input, it goes on later where it stopped, so each byte is looked at
  // once.
  Look comment_goes_on(std::size_t q);

  // Buffer.
  void refill(std::size_t keep_from);
  void count_lines(std::size_t to);
  Location location_of(std::size_t i) const {
    const std::uint64_t origin = std::max(line_begin, bom_end);
    return {line, base + i - origin + 1};
  }

  importers::ByteSource& source;
  SplitterOptions options;

  std::unique_ptr<char[]> buf;
  std::size_t cap = 0;
  std::size_t len = 0;     // bytes held
  std::uint64_t base = 0;  // input offset of buf[0]
  bool eof = false;        // the source has nothing more (or failed)
  bool finished = false;   // End (after a pending ReadError) is all that is left
  bool error_pending = false;
  std::string error;
  std::uint64_t games = 0;

  // Line bookkeeping: the breaks in buf[0, line_pos) are counted.
  std::size_t line_pos = 0;
  std::uint64_t line = 1;
  std::uint64_t line_begin = 0;  // input offset of the current line's first byte
  std::uint64_t bom_end = 0;     // input offset past the last byte-order mark skipped
  bool prev_cr = false;

  std::size_t scan = 0;
  bool at_line_start = true;  // the byte at `scan` starts a line (between games)

  // The game being cut.
  std::size_t game_begin = 0;  // index in buf (0 once the start is dropped while skipping)
  std::uint64_t game_offset = 0;
  Location game_start;
  bool game_at_line_start = true;
  bool discarding = false;  // over the size limit: bytes are dropped as scanned
  Mode mode = Mode::Top;
  std::uint64_t depth = 0;  // open '(' in the movetext
  bool movetext = false;
  bool has_tags = false;
  bool blank_line_in_tags = false;                   // an empty line since the first tag pair
  std::uint64_t comment_goes_on_until = 0;  // input offset: tag-like lines before it are a comment's text
  std::uint64_t lookahead_from = UINT64_MAX;         // input offset of the tag-like line looked ahead from
  std::uint64_t lookahead_at = 0;                    // where that look-ahead stopped for more input
  bool lookahead_blank = false;                      // there, only blanks since a line break
  bool line_start = true;                            // only blanks since the last line break (Top)
  std::uint64_t top_line_begin = 0;                  // input offset past the last line break seen in Top
  std::vector<std::uint64_t> tag_names;              // the names of the tag section, while few
  std::unordered_set<std::uint64_t> many_tag_names;  // all of them, once there are many
  static constexpr std::size_t kScannedNames = 16;
  bool tag_seen(std::uint64_t name) const {
    if (tag_names.size() < kScannedNames)
      return std::find(tag_names.begin(), tag_names.end(), name) != tag_names.end();
    return many_tag_names.count(name) > 0;
  }
  void note_tag(std::uint64_t name) {
    if (tag_names.size() < kScannedNames) {
      tag_names.push_back(name);
      if (tag_names.size() == kScannedNames) many_tag_names.insert(tag_names.begin(), tag_names.end());
    } else {
      many_tag_names.insert(name);
    }
  }

  // Set by found().
  std::uint64_t end_offset = 0;
  GameEnd how = GameEnd::EndOfInput;
};

GameSplitter::GameSplitter(importers::ByteSource& source, SplitterOptions options)
    : state_(std::make_unique<State>(source, options)) {}
GameSplitter::~GameSplitter() = default;
GameSplitter::GameSplitter(GameSplitter&&) noexcept = default;
GameSplitter& GameSplitter::operator=(GameSplitter&&) noexcept = default;

GameItem GameSplitter::next() { return state_->next(); }
std::uint64_t GameSplitter::games() const { return state_->games; }

GameItem GameSplitter::State::next() {
  if (finished || !skip_to_game()) {
    finished = true;
    GameItem item;
    if (error_pending) {
      error_pending = false;
      item.kind = ItemKind::ReadError;
      item.error = error;
      count_lines(len);  // where the data that could be read ends
      item.start = location_of(len);
    }
    return item;
  }
  begin_game();
  while (scan_game() == Step::NeedMore) {
    if (!discarding && least_game_size() > options.max_game_bytes) discarding = true;
    refill(discarding ? scan - std::min(scan, kKeepBehind) : game_begin);
  }
  GameItem item;
  item.start = game_start;
  item.offset = game_offset;
  item.size = end_offset - game_offset;
  item.end = how;
  if (discarding || item.size > options.max_game_bytes) {
    item.kind = ItemKind::Oversized;
    item.number = ++games;
  } else {
    item.kind = movetext || has_tags ? ItemKind::Game : ItemKind::Stray;
    if (item.kind == ItemKind::Game) item.number = ++games;
    item.text = std::string_view(buf.get() + game_begin, std::size_t(item.size));
  }
  return item;
}

bool GameSplitter::State::skip_to_game() {
  for (;;) {
    bool need_more = false;
    while (scan < len && !need_more) {
      const char c = buf[scan];
      if (is_blank(c)) {
        at_line_start = false;
        ++scan;
      } else if (is_newline(c)) {
        at_line_start = true;
        ++scan;
      } else if (static_cast<unsigned char>(c) == 0xef && at_line_start) {
        if (scan + 3 > len && !eof) {
          need_more = true;
        } else if (scan + 3 <= len && static_cast<unsigned char>(buf[scan + 1]) == 0xbb &&
                   static_cast<unsigned char>(buf[scan + 2]) == 0xbf) {
          scan += 3;
          bom_end = base + scan;
        } else {
          return true;
        }
      } else {
        return true;
      }
    }
    if (eof && !need_more) return false;
    refill(scan);
  }
}

void GameSplitter::State::begin_game() {
  count_lines(scan);
  game_begin = scan;
  game_offset = base + scan;
  game_start = location_of(scan);
  game_at_line_start = at_line_start;
  discarding = false;
  mode = Mode::Top;
  depth = 0;
  movetext = has_tags = blank_line_in_tags = false;
  line_start = at_line_start;
  top_line_begin = game_offset;
  tag_names.clear();
  if (!many_tag_names.empty()) many_tag_names = {};  // frees the buckets of a big one
}

Step GameSplitter::State::found(std::uint64_t end, std::size_t next_start, GameEnd ending) {
  end_offset = end;
  how = ending;
  scan = next_start;
  at_line_start = next_start > 0 && next_start <= len && is_newline(buf[next_start - 1]);
  return Step::Found;
}

Step GameSplitter::State::scan_game() {
  std::size_t p = scan;
  for (;;) {
    Step step = Step::Continue;
    switch (mode) {
      case Mode::Top: step = scan_top(p); break;
      case Mode::Tag: step = scan_tag(p); break;
      case Mode::TagString: step = scan_tag_string(p); break;
      case Mode::Brace: step = scan_brace(p); break;
      case Mode::LineComment: step = scan_line_comment(p); break;
      case Mode::PostMarker: step = scan_post_marker(p); break;
    }
    if (step == Step::Found) return step;
    if (step == Step::NeedMore) {
      scan = p;
      if (!eof) return step;
      // Lookahead never waits at the end of input, so all bytes are scanned.
      return found(base + len, len, error_pending ? GameEnd::ReadError : GameEnd::EndOfInput);
    }
  }
}

Step GameSplitter::State::scan_top(std::size_t& p) {
  const char* b = buf.get();
  for (;;) {
    bool plain = false;
    p += scan::find_noting_others(scan::Bytes<'\n', '\r', '{', ';', '[', '(', ')', '*', '-', '%'>{},
                                  scan::Bytes<' ', '\t', '\v', '\f', '\0', '\x1a'>{}, b + p, len - p, plain);
    if (plain) movetext = true, line_start = false;
    if (p >= len) return Step::NeedMore;
    const std::uint8_t k = kTopClass[static_cast<unsigned char>(b[p])];
    switch (k) {
      case kNewline:
        // An empty line (the \n of a \r\n ends the line the \r ended).
        if (line_start && has_tags && !(b[p] == '\n' && p > 0 && b[p - 1] == '\r')) blank_line_in_tags = true;
        line_start = true;
        top_line_begin = base + p + 1;
        ++p;
        break;
      case kBraceOpen:
        line_start = false;
        mode = Mode::Brace;
        ++p;
        return Step::Continue;
      case kSemicolon:
        line_start = false;
        mode = Mode::LineComment;
        ++p;
        return Step::Continue;
      case kPercent:
        if (p == game_begin ? game_at_line_start : is_newline(b[p - 1])) {
          mode = Mode::LineComment;
          ++p;
          return Step::Continue;
        }
        movetext = true, line_start = false;
        ++p;
        break;
      case kBracket: {
        // (A blank run longer than a game cannot be cut off: it would be kept.)
        if (movetext) {
          if (line_start && may_end_before_line(p)) return found(top_line_begin, p, GameEnd::NextTags);
        } else if (!has_tags && line_start && may_end_before_line(p) &&
                   (discarding || top_line_begin - game_offset > options.max_game_bytes)) {
          // Comments alone over the size limit: skipped, and the game after
          // them is read.
          return found(top_line_begin, p, GameEnd::NextTags);
        } else {
          std::uint64_t name = 0;
          const Look look = tag_name_at(p, name);
          if (look == Look::NeedMore) return Step::NeedMore;
          if (look == Look::Yes) {
            // A tag the section holds already begins the next game (this one
            // has no movetext) when an empty line or an Event tag sets it
            // apart; a tag written twice in one section stays in it (the
            // game's checker reports it).
            const bool repeated = tag_seen(name);
            if (repeated && line_start && has_tags && (blank_line_in_tags || name == kEventName) &&
                may_end_before_line(p))
              return found(top_line_begin, p, GameEnd::NextTags);
            if (!repeated) note_tag(name);
          }
          has_tags = true;
        }
        line_start = false;
        mode = Mode::Tag;
        ++p;
        return Step::Continue;
      }
      case kParenOpen:
        movetext = true, line_start = false;
        ++depth;
        ++p;
        break;
      case kParenClose:
        movetext = true, line_start = false;
        if (depth > 0) --depth;
        ++p;
        break;
      case kStar:
        movetext = true, line_start = false;
        ++p;
        if (depth == 0) {
          mode = Mode::PostMarker;
          return Step::Continue;
        }
        break;
      case kDash: {
        movetext = true, line_start = false;
        if (depth == 0) {
          if (p + 5 > len && !eof) return Step::NeedMore;
          if (const std::size_t end = marker_end_at_dash(p)) {
            p = end;
            mode = Mode::PostMarker;
            return Step::Continue;
          }
        }
        ++p;
        break;
      }
    }
  }
}

// The end of the result token around the '-' at p (1-0, 0-1, 1/2-1/2), or 0.
std::size_t GameSplitter::State::marker_end_at_dash(std::size_t p) const {
  auto before = [&](std::size_t back) { return p >= game_begin + back ? buf[p - back] : ' '; };
  auto after = [&](std::size_t ahead) { return p + ahead < len ? buf[p + ahead] : ' '; };
  const char b1 = before(1), a1 = after(1);
  if (((b1 == '1' && a1 == '0') || (b1 == '0' && a1 == '1')) && !is_symbol(before(2)) && !is_symbol(after(2)))
    return p + 2;
  if (b1 == '2' && before(2) == '/' && before(3) == '1' && a1 == '1' && after(2) == '/' && after(3) == '2' &&
      !is_symbol(before(4)) && !is_symbol(after(4)))
    return p + 4;
  return 0;
}

// The tag name after the '[' at p (hashed), if there is one.
Look GameSplitter::State::tag_name_at(std::size_t p, std::uint64_t& hash) const {
  std::size_t q = p + 1;
  while (q < len && is_blank(buf[q])) ++q;
  const std::size_t start = q;
  while (q < len && is_tag_name(buf[q]) && q - start <= kMaxTagName) ++q;
  if (q >= len && !eof) return Look::NeedMore;
  if (q == start || q - start > kMaxTagName) return Look::No;
  hash = hash_name(buf.get() + start, q - start);
  return Look::Yes;
}

// Whether the line starting at p opens with a tag pair: [Name "
Look GameSplitter::State::tag_line_at(std::size_t p) const {
  if (p >= len) return eof ? Look::No : Look::NeedMore;
  if (buf[p] != '[') return Look::No;
  std::size_t q = p + 1;
  while (q < len && is_tag_name(buf[q]) && q - p <= kMaxTagName) ++q;
  if (q == p + 1 || q - p > kMaxTagName) return q >= len && !eof ? Look::NeedMore : Look::No;
  const std::size_t blanks = q;
  while (q < len && is_blank(buf[q]) && q - p <= 2 * kMaxTagName) ++q;
  if (q >= len) return eof ? Look::No : Look::NeedMore;
  return q > blanks && buf[q] == '"' ? Look::Yes : Look::No;
}

Step GameSplitter::State::scan_tag(std::size_t& p) {
  p += scan::find_first_of<'"', ']', '\n', '\r'>(buf.get() + p, len - p);
  if (p >= len) return Step::NeedMore;
  const char c = buf[p];
  if (c == '"') {
    mode = Mode::TagString;
    ++p;
  } else {  // ']', or a line break ending a broken tag pair
    mode = Mode::Top;
    if (c == ']') ++p;
  }
  return Step::Continue;
}

Step GameSplitter::State::scan_tag_string(std::size_t& p) {
  while (p < len) {
    p += scan::find_first_of<'\\', '"', '\n', '\r'>(buf.get() + p, len - p);
    if (p >= len) break;
    const char c = buf[p];
    if (c == '\\') {
      if (p + 1 >= len && !eof) return Step::NeedMore;
      p += p + 1 < len && !is_newline(buf[p + 1]) ? 2 : 1;
    } else if (c == '"') {
      mode = Mode::Tag;
      ++p;
      return Step::Continue;
    } else {  // a line break: strings never span lines
      mode = Mode::Top;
      return Step::Continue;
    }
  }
  return Step::NeedMore;
}

Step GameSplitter::State::scan_brace(std::size_t& p) {
  const char* b = buf.get();
  while (p < len) {
    p += scan::find_first_of<'}', '\n', '\r'>(b + p, len - p);
    if (p >= len) break;
    const char c = b[p];
    if (c == '}') {
      mode = Mode::Top;
      ++p;
      return Step::Continue;
    }
    // A line inside the comment that starts like a tag pair: the comment is
    // unterminated and a new game begins there, unless a '}' closes the
    // comment before an empty line or another '{' comes (a header quoted in
    // a comment, or put at a line start by a wrapped comment: text, not the
    // next game's tag section).
    std::size_t q = p + 1;
    if (c == '\r') {
      if (q >= len && !eof) return Step::NeedMore;
      if (q < len && b[q] == '\n') ++q;
    }
    const Look look = tag_line_at(q);
    if (look == Look::NeedMore) return Step::NeedMore;
    if (look == Look::Yes) {
      const Look goes_on = comment_goes_on(q);
      if (goes_on == Look::NeedMore) return Step::NeedMore;
      if (goes_on == Look::No) return found(base + q, q, GameEnd::NextTags);
    }
    p = q;
  }
  return Step::NeedMore;
}

Look GameSplitter::State::comment_goes_on(std::size_t q) {
  if (base + q < comment_goes_on_until) return Look::Yes;
  // A look-ahead waiting for more input goes on where it stopped.
  if (lookahead_from != base + q) {
    lookahead_from = base + q;
    lookahead_at = base + q;
    lookahead_blank = false;
  }
  bool line_blank = lookahead_blank;  // only blanks since a line break
  for (std::size_t i = std::size_t(lookahead_at - base); i < len; ++i) {
    // A comment longer than a game can be: the game ends here, as an
    // unterminated comment's does.
    if (base + i - lookahead_from > options.max_game_bytes) return Look::No;
    const char c = buf[i];
    if (c == '}') {
      comment_goes_on_until = base + i;
      return Look::Yes;
    }
    if (c == '{') return Look::No;  // a comment opens: the movetext of the game there
    if (is_newline(c)) {
      if (c == '\r' && i + 1 >= len && !eof) {  // a \r\n cut by the buffer: read on first
        lookahead_at = base + i;
        lookahead_blank = line_blank;
        return Look::NeedMore;
      }
      if (line_blank) return Look::No;
      line_blank = true;
      if (c == '\r' && i + 1 < len && buf[i + 1] == '\n') ++i;
    } else if (!is_blank(c)) {
      line_blank = false;
    }
  }
  if (eof) return Look::No;
  lookahead_at = base + len;
  lookahead_blank = line_blank;
  return Look::NeedMore;
}

Step GameSplitter::State::scan_line_comment(std::size_t& p) {
  p += scan::find_first_of<'\n', '\r'>(buf.get() + p, len - p);
  if (p >= len) return Step::NeedMore;
  mode = Mode::Top;  // the line break is Top's
  return Step::Continue;
}

Step GameSplitter::State::scan_post_marker(std::size_t& p) {
  while (p < len && (is_blank(buf[p]) || buf[p] == '\0' || buf[p] == '\x1a')) ++p;
  if (p >= len) return eof ? found(base + p, p, GameEnd::Result) : Step::NeedMore;
  if (buf[p] == '\r') {
    if (p + 1 >= len && !eof) return Step::NeedMore;
    ++p;
    if (p < len && buf[p] == '\n') ++p;
  } else if (buf[p] == '\n') {
    ++p;
  }
  return found(base + p, p, GameEnd::Result);
}

void GameSplitter::State::count_lines(std::size_t to) {
  if (to <= line_pos) return;
  std::size_t last_break_end = 0;
  line += scan::count_line_breaks(buf.get() + line_pos, to - line_pos, prev_cr, last_break_end, prev_cr);
  if (last_break_end > 0) line_begin = base + line_pos + last_break_end;
  line_pos = to;
}

void GameSplitter::State::refill(std::size_t keep_from) {
  const std::size_t want = options.read_size;
  if (cap - len < want) {
    if (keep_from > 0) {
      count_lines(keep_from);
      std::memmove(buf.get(), buf.get() + keep_from, len - keep_from);
      len -= keep_from;
      base += keep_from;
      scan -= keep_from;
      line_pos -= keep_from;
      game_begin = game_begin > keep_from ? game_begin - keep_from : 0;
    }
    if (cap - len < want) {
      const std::size_t new_cap = std::max(cap * 2, len + want);
      std::unique_ptr<char[]> bigger(new char[new_cap]);
      if (len > 0) std::memcpy(bigger.get(), buf.get(), len);
      buf = std::move(bigger);
      cap = new_cap;
    }
  }
  importers::ReadResult r = source.read({buf.get() + len, std::min(cap - len, want)});
  if (!r.ok()) {
    eof = true;
    error_pending = true;
    error = std::move(r.error);
  } else if (r.size == 0) {
    eof = true;
  } else {
    len += r.size;
  }
}

}  // namespace virrey::pgn
