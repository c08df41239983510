#include "virrey/game/pgn_writer.hpp"

#include <array>

namespace virrey::game {

namespace {

constexpr std::size_t kMaxLine = 79;

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kRoster = {{
    {"Event", "?"},
    {"Site", "?"},
    {"Date", "????.??.??"},
    {"Round", "?"},
    {"White", "?"},
    {"Black", "?"},
    {"Result", "*"},
}};

bool in_roster(std::string_view name) {
  for (const auto& [n, d] : kRoster)
    if (n == name) return true;
  return false;
}

// Collects tokens into lines no longer than kMaxLine.
class LineFiller {
 public:
  explicit LineFiller(std::string& out) : out_(out) {}
  // glue: no space before this token (after '(' ). breakable: the token may
  // start a new line.
  void token(std::string_view t, bool glue = false, bool breakable = true) {
    if (!line_.empty() && !glue && breakable && line_.size() + 1 + t.size() > kMaxLine) flush();
    if (!line_.empty() && !glue) line_ += ' ';
    line_ += t;
  }
  void flush() {
    if (line_.empty()) return;
    out_ += line_;
    out_ += '\n';
    line_.clear();
  }

 private:
  std::string& out_;
  std::string line_;
};

}  // namespace

std::string escape_tag_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

std::string write_pgn(const GameRecord& rec) {
  std::string out;
  for (const auto& [name, fallback] : kRoster) {
    std::string_view value = rec.tag(name);
    if (name == "Result")
      value = result_text(rec.result);
    else if (!rec.has_tag(name))
      value = fallback;
    out += '[';
    out += name;
    out += " \"";
    out += escape_tag_value(value);
    out += "\"]\n";
  }
  for (const auto& t : rec.tags) {
    if (in_roster(t.name)) continue;
    out += '[' + t.name + " \"" + escape_tag_value(t.value) + "\"]\n";
  }
  out += '\n';

  LineFiller lines(out);
  bool need_number = true;  // the next black move needs "N..."
  bool glue = false;        // the previous token was '('
  for (const MovetextItem& item : rec.movetext) {
    switch (item.kind) {
      case ItemKind::Move: {
        const bool white = rec.white_moves_at(item.ply);
        if (white || need_number) {
          lines.token(rec.move_number_text(item.ply, true), glue);
          glue = false;
        }
        lines.token(item.text, glue);
        need_number = false;
        break;
      }
      case ItemKind::Nag: {
        std::string nag = "$";  // (not "$" + ...: g++ 12 warns falsely on that, -Wrestrict)
        nag += std::to_string(item.nag);
        lines.token(nag, glue);
        break;
      }
      case ItemKind::Comment: {
        // Words of the comment, so long comments wrap; whitespace folds.
        std::string_view text = item.text;
        std::string word;
        bool first = true;
        // A word starting with '[' or '%' never starts a line: a reader would
        // take "[Name \"" there for the next game's tags, '%' for an escape line.
        auto emit = [&](bool last) {
          std::string t = (first ? "{" : "") + word + (last ? "}" : "");
          const bool breakable = first || word.empty() || (word[0] != '[' && word[0] != '%');
          lines.token(t, glue && first, breakable);
          first = false;
          word.clear();
        };
        std::size_t i = 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
          ++i;
        for (; i < text.size(); ++i) {
          char c = text[i];
          if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            if (!word.empty()) emit(false);
          } else {
            // A '}' (from a ';' comment) would end the brace comment early:
            // it is written as ')'.
            word += c == '}' ? ')' : c;
          }
        }
        emit(true);
        need_number = true;
        break;
      }
      case ItemKind::BeginVariation:
        lines.token("(", glue);
        glue = true;
        need_number = true;
        continue;
      case ItemKind::EndVariation:
        lines.token(")", true);
        need_number = true;
        break;
    }
    glue = false;
  }
  lines.token(result_text(rec.result), glue);
  lines.flush();
  out += '\n';
  return out;
}

}  // namespace virrey::game
