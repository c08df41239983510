// Reading an ECO file (opening_book.hpp): a small tokenizer that knows lines
// and columns, and each entry's line replayed in its variants.
#include "virrey/query/opening_book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "virrey/base/small_file.hpp"
#include "virrey/base/utf8.hpp"
#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::query {

namespace {

struct Where {
  std::uint64_t line = 1, column = 1;
};

struct Token {
  enum Kind : std::uint8_t { Word, String, Tag, End } kind = End;
  std::string_view text;   // Word: the word; String: the contents; Tag: the name
  std::string_view value;  // Tag: the value
  Where at;
};

class Reader {
 public:
  Reader(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Error error(Where at, const std::string& what) const {
    return Error{ErrorKind::InvalidArgument, fmt::format("{}:{}:{}: {}", file_, at.line, at.column, what)};
  }

  // The next token, skipping blanks, comments, NAGs and variations.
  Result<Token> next() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      const Where at = here_;
      if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == ',') {
        advance();
      } else if (c == '#' || c == ';' || (c == '%' && here_.column == 1)) {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
      } else if (c == '{') {
        while (pos_ < text_.size() && text_[pos_] != '}') advance();
        if (pos_ == text_.size()) return error(at, "a comment '{' that is never closed");
        advance();
      } else if (c == '(') {
        int depth = 0;
        do {
          if (text_[pos_] == '(') ++depth;
          if (text_[pos_] == ')') --depth;
          advance();
        } while (depth > 0 && pos_ < text_.size());
        if (depth > 0) return error(at, "a variation '(' that is never closed");
      } else if (c == '"') {
        advance();
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') advance();
        if (pos_ == text_.size() || text_[pos_] != '"') return error(at, "a string that is never closed");
        Token t{Token::String, text_.substr(start, pos_ - start), {}, at};
        advance();
        return t;
      } else if (c == '[') {
        advance();
        const std::size_t name = pos_;
        while (pos_ < text_.size() && (std::isalnum(std::uint8_t(text_[pos_])) || text_[pos_] == '_'))
          advance();
        Token t{Token::Tag, text_.substr(name, pos_ - name), {}, at};
        while (pos_ < text_.size() && text_[pos_] == ' ') advance();
        if (t.text.empty() || pos_ == text_.size() || text_[pos_] != '"')
          return error(at, "a tag that is not [Name \"value\"]");
        auto value = next();
        if (!value) return value.error();
        t.value = value->text;
        while (pos_ < text_.size() && text_[pos_] == ' ') advance();
        if (pos_ == text_.size() || text_[pos_] != ']')
          return error(at, "a tag that is not [Name \"value\"]");
        advance();
        return t;
      } else if (c == '$') {
        advance();
        while (pos_ < text_.size() && std::isdigit(std::uint8_t(text_[pos_]))) advance();
      } else if (c == ')' || c == '}' || c == ']') {
        return error(at, fmt::format("an unexpected '{}'", c));
      } else {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !std::strchr(" \t\r\n\f,{}()[]\";", text_[pos_])) advance();
        return Token{Token::Word, text_.substr(start, pos_ - start), {}, at};
      }
    }
    return Token{Token::End, {}, {}, here_};
  }

 private:
  void advance() {
    if (text_[pos_] == '\n')
      ++here_.line, here_.column = 1;
    else
      ++here_.column;
    ++pos_;
  }

  std::string_view text_;
  std::string_view file_;
  std::size_t pos_ = 0;
  Where here_;
};

bool is_result(std::string_view w) { return w == "*" || w == "1-0" || w == "0-1" || w == "1/2-1/2"; }

// "A00".."E99", with Scid's extensions: a letter, then a digit 1-4.
bool is_eco_code(std::string_view w) {
  if (w.size() < 3 || w.size() > 5 || w[0] < 'A' || w[0] > 'E' || !std::isdigit(std::uint8_t(w[1])) ||
      !std::isdigit(std::uint8_t(w[2])))
    return false;
  if (w.size() >= 4 && (w[3] < 'a' || w[3] > 'z')) return false;
  return w.size() < 5 || (w[4] >= '1' && w[4] <= '4');
}

// The move of a word, without its move number ("12.", "12...", "1.e4"); empty
// for a bare move number.
std::string_view strip_move_number(std::string_view w, std::size_t& skipped) {
  std::size_t i = 0;
  while (i < w.size() && std::isdigit(std::uint8_t(w[i]))) ++i;
  if (i == 0 || i == w.size() || w[i] != '.') {
    skipped = 0;
    return w;
  }
  while (i < w.size() && w[i] == '.') ++i;
  skipped = i;
  return w.substr(i);
}

struct LineMove {
  std::string_view san;
  Where at;
};

struct Entry {
  std::string eco, name;
  std::optional<Variant> variant;  // nullopt: standard chess (and Virrey)
  std::string fen;                 // the line's start ([FEN] tag), else the variant's
  Where fen_at;
  std::vector<LineMove> moves;
  Where at;
};

class BookBuilder {
 public:
  BookBuilder(OpeningBook& book, const Reader& reader) : book_(book), reader_(reader) {}

  Status add(const Entry& e) {
    ++book_.lines;
    if (e.variant) return add_in(e, *e.variant);
    for (Variant v : {Variant::Standard, Variant::Virrey})
      if (Status s = add_in(e, v); !s) return s;
    return {};
  }

 private:
  Status add_in(const Entry& e, Variant v) {
    Status out;
    with_geometry(v, [&](auto g) { out = play<decltype(g)>(e, v); });
    return out;
  }

  template <class G>
  Status play(const Entry& e, Variant v) {
    std::optional<Position<G>> start;
    if (e.fen.empty()) {
      start = variant_start<G>(v);
      if (!start) return reader_.error(e.at, fmt::format("{} has no start position", info(v).cli_name));
    } else {
      FenProblems problems;
      start = position_from_fen<G>(e.fen, v, problems);
      if (!start)
        return reader_.error(e.fen_at, fmt::format("the FEN of this line is no {} position: {}",
                                                   info(v).cli_name, join_reasons(problems)));
    }
    Position<G> pos = *start;
    for (const LineMove& m : e.moves) {
      Move move{};
      char suffix = 0;
      if (!read_plain_san(pos, m.san, move, suffix)) {
        SanProblem problem;
        auto syntax = parse_san(m.san, problem);
        if (!syntax) return reader_.error(m.at, problem.message);  // (it names the token)
        SanResolution r = resolve_san(pos, *syntax);
        if (r.error != SanError::None)
          return reader_.error(
              m.at, fmt::format("'{}' is not a legal {} move here: {}", m.san, info(v).cli_name, r.message));
        move = r.move;
      }
      pos.play(move);
    }
    auto& by_hash = book_.by_hash[std::size_t(v)];
    if (by_hash.count(pos.hash())) return {};
    by_hash.emplace(pos.hash(), book_.positions.size());
    // Names are text as PGN tags are: an ECO file written in Latin-1 or
    // Windows-1252 gives UTF-8 names, and no control character is kept.
    book_.positions.push_back(
        {v, pos.hash(), {e.eco, controls_as_spaces(as_utf8(e.name)), std::uint32_t(e.moves.size())}});
    const int men = popcount(pos.occupied());
    int& fewest = book_.fewest_men[std::size_t(v)];
    fewest = fewest == 0 ? men : std::min(fewest, men);
    return {};
  }

  OpeningBook& book_;
  const Reader& reader_;
};

}  // namespace

std::string join_opening_name(std::string_view opening, std::string_view variation,
                              std::string_view subvariation) {
  std::string out(opening);
  if (!variation.empty()) out += (out.empty() ? "" : ": ") + std::string(variation);
  if (!subvariation.empty()) out += (out.empty() ? "" : ", ") + std::string(subvariation);
  return out;
}

Result<OpeningBook> parse_opening_book(std::string_view text, std::string_view file) {
  OpeningBook book;
  Reader reader(text, file);
  BookBuilder builder(book, reader);
  // The entry being read; tags of pgn-extract's format gather until the line's end.
  std::optional<Entry> entry;
  std::string opening, variation, subvariation;
  auto begin = [&](Where at) {
    if (!entry) {
      entry.emplace();
      entry->at = at;
      opening.clear(), variation.clear(), subvariation.clear();
    }
  };
  while (true) {
    auto t = reader.next();
    if (!t) return t.error();
    if (t->kind == Token::End) break;
    if (t->kind == Token::Tag) {
      if (entry && !entry->moves.empty())
        return reader.error(t->at, "a tag among the moves: the line before it is not ended by '*'");
      begin(t->at);
      const std::string_view name = t->text, value = t->value;
      if (name == "ECO") {
        entry->eco = value;
      } else if (name == "Opening") {
        opening = value;
      } else if (name == "Variation") {
        variation = value;
      } else if (name == "SubVariation") {
        subvariation = value;
      } else if (name == "FEN") {  // a line from a set-up position (SetUp is implied)
        if (value.empty()) return reader.error(t->at, "an empty FEN");
        entry->fen = value;
        entry->fen_at = t->at;
      } else if (name == "Variant") {
        auto v = resolve_variant(value);
        if (!v) return reader.error(t->at, fmt::format("unknown variant '{}'", value));
        if (*v != Variant::Standard) entry->variant = v;
      }
      entry->name = join_opening_name(opening, variation, subvariation);
      continue;
    }
    if (t->kind == Token::String) {
      if (!entry || !entry->moves.empty() || !entry->name.empty() || entry->eco.empty())
        return reader.error(t->at, "a name that does not follow an ECO code");
      entry->name = t->text;
      continue;
    }
    // A word: a Scid entry's code, a result that ends the line, or a move.
    if (is_result(t->text)) {
      if (!entry) return reader.error(t->at, "a result without a line before it");
      if (entry->eco.empty()) return reader.error(entry->at, "a line without an ECO code");
      if (Status s = builder.add(*entry); !s) return s.error();
      entry.reset();
      continue;
    }
    if (!entry && is_eco_code(t->text)) {
      begin(t->at);
      entry->eco = t->text;
      continue;
    }
    if (!entry) return reader.error(t->at, fmt::format("'{}': expected an ECO code or a [tag]", t->text));
    std::size_t skipped = 0;
    const std::string_view san = strip_move_number(t->text, skipped);
    if (san.empty()) continue;  // "1." or "1..."
    Where at = t->at;
    at.column += skipped;
    entry->moves.push_back({san, at});
  }
  if (entry) return reader.error(entry->at, "a line that is not ended by '*'");
  if (book.lines == 0) return reader.error({}, "no ECO line in the file");
  book.source = fmt::format("{} ({} lines)", file, book.lines);
  return book;
}

Result<OpeningBook> load_opening_book(const std::string& path) {
  // ECO files are a few hundred kilobytes: more than this is no ECO file.
  auto text = read_small_file(path, std::size_t(64) << 20, "an ECO file");
  if (!text) return text.error();
  return parse_opening_book(*text, path);
}

}  // namespace virrey::query
