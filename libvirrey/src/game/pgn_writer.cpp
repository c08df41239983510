#include "virrey/game/pgn_writer.hpp"

#include <array>

#include "virrey/base/utf8.hpp"
#include "virrey/game/roster.hpp"

namespace virrey::game {

namespace {

constexpr std::size_t kMaxLine = 79;

// Collects tokens into lines no longer than a given length. A line may break only
// before a token that is neither glued to the one before (after '(', or a
// ')') nor unbreakable (a comment's word that must not start a line): such
// tokens join the run of tokens they follow, and a run that does not fit
// moves to the next line whole. A glued run longer than a line is broken
// before the token that makes it so (whitespace there is still PGN); so is
// a run of unbreakable words, the next line then starting with a space
// before the word (no longer at a line's start).
class LineFiller {
 public:
  // max_line: the longest line (SIZE_MAX: one line).
  LineFiller(std::string& out, std::size_t max_line) : out_(out), max_line_(max_line) {}
  void token(std::string_view t, bool glue = false, bool breakable = true) {
    if (!line_.empty() && (glue || !breakable)) {
      const std::size_t space = glue ? 0 : 1;
      const std::size_t run = line_.size() - run_start_ + space + t.size();
      if (!breakable && !glue && run > max_line_) {
        flush();
        line_ = ' ';
        line_ += t;
        run_start_ = 0;
        return;
      }
      if (run <= max_line_ || !breakable) {
        if (line_.size() + space + t.size() > max_line_ && run_start_ > 0) {
          out_.append(line_, 0, run_start_ - 1);  // without the space before the run
          out_ += '\n';
          line_.erase(0, run_start_);
          run_start_ = 0;
        }
        if (space) line_ += ' ';
        line_ += t;
        return;
      }
    }
    if (!line_.empty() && line_.size() + 1 + t.size() > max_line_) flush();
    if (!line_.empty()) line_ += ' ';
    run_start_ = line_.size();
    line_ += t;
  }
  void flush() {
    if (line_.empty()) return;
    out_ += line_;
    out_ += '\n';
    line_.clear();
    run_start_ = 0;
  }

 private:
  std::string& out_;
  std::size_t max_line_;
  std::string line_;
  std::size_t run_start_ = 0;  // where the last run of unbreakable tokens starts in line_
};

// A comment's word that must not start a line: '%' first (an escape line),
// or '[' and a tag name ("[White", before "\"x\"]": a tag pair).
bool may_start_tags_or_escape(std::string_view word) {
  if (word.empty()) return false;
  if (word[0] == '%') return true;
  if (word[0] != '[') return false;
  for (std::size_t i = 1; i < word.size(); ++i) {
    const char c = word[i];
    const bool name = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!name) return c == '"';  // "[Name\"x\"]" reads as a tag pair to some readers
  }
  return true;
}

// The movetext and the result, in lines of at most max_line characters.
void append_movetext(std::string& out, const GameRecord& rec, std::size_t max_line);

}  // namespace

std::string escape_tag_value(std::string_view raw) {
  // A value that is not UTF-8 (stored by versions before tags were read as
  // UTF-8) is written as the reader now reads it: its bytes as Windows-1252.
  const std::string transcoded = is_utf8(raw) ? std::string() : as_utf8(raw);
  const std::string_view value = transcoded.empty() ? raw : std::string_view(transcoded);
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (const std::size_t control = control_length(value, i)) {
      out += ' ';
      i += control - 1;
      continue;
    }
    if (value[i] == '"' || value[i] == '\\') out += '\\';
    out += value[i];
  }
  return out;
}

namespace {

// A FEN's fields as the standard parts them: by one space, none around.
std::string fen_fields(std::string_view fen) {
  std::string out;
  out.reserve(fen.size());
  for (char c : fen) {
    const bool blank = c == ' ' || c == '\t';
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::vector<ExportTag> export_tags(const GameRecord& rec) {
  std::vector<ExportTag> out;
  out.reserve(kSevenTagRoster.size() + rec.tags.size() + 2);
  for (const RosterTag& tag : kSevenTagRoster) out.push_back({tag.name, std::string(roster_value(rec, tag))});
  // A game read as a variant its tags do not name (chosen by --variant, or
  // its Variant tag "?"): the variant's name, first after the roster, so
  // that it reads back as the same variant.
  const std::string_view variant_tag = rec.tag("Variant");
  const bool name_variant = rec.variant != Variant::Standard &&
                            !(names_a_variant(variant_tag) && resolve_variant(variant_tag) == rec.variant);
  if (name_variant) out.push_back({"Variant", std::string(info(rec.variant).name)});
  // A FEN tag goes with [SetUp "1"] (PGN standard 9.7.1), put before it
  // when the game lacks it.
  const bool set_up = rec.has_tag("FEN") && rec.tag("SetUp") != "1";
  for (const auto& t : rec.tags) {
    if (in_seven_tag_roster(t.name) || (name_variant && t.name == "Variant")) continue;
    if (set_up && t.name == "SetUp") continue;
    if (set_up && t.name == "FEN") out.push_back({"SetUp", "1"});
    out.push_back({t.name, t.name == "FEN" ? fen_fields(t.value) : std::string(t.value)});
  }
  return out;
}

std::string write_pgn(const GameRecord& rec) {
  std::string out;
  for (const ExportTag& tag : export_tags(rec)) {
    out += '[';
    out += tag.name;
    out += " \"";
    out += escape_tag_value(tag.value);
    out += "\"]\n";
  }
  out += '\n';
  append_movetext(out, rec, kMaxLine);
  out += '\n';
  return out;
}

std::string write_movetext(const GameRecord& rec) {
  std::string out;
  append_movetext(out, rec, SIZE_MAX);
  out.pop_back();  // the line break
  return out;
}

namespace {

void append_movetext(std::string& out, const GameRecord& rec, std::size_t max_line) {
  LineFiller lines(out, max_line);
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
        // Words of the comment, so long comments wrap; whitespace folds. A
        // comment that is not UTF-8 (stored by older versions) as UTF-8.
        const std::string transcoded = is_utf8(item.text) ? std::string() : as_utf8(item.text);
        std::string_view text =
            transcoded.empty() ? std::string_view(item.text) : std::string_view(transcoded);
        std::string word;
        bool first = true;
        // A word that a reader could take for the start of a tag pair ("[Name",
        // the next game's tags) or of an escape line ('%') never starts a line;
        // nor does the value of a command ("[%eval 0.28]", "[%clk 0:03:00]"),
        // which stays on its command's line (up to a few words).
        std::size_t command_words = 0;  // in an open "[%..." command: its words so far
        auto emit = [&](bool last) {
          std::string t = (first ? "{" : "") + word + (last ? "}" : "");
          const bool in_command = command_words > 0 && command_words < 8;
          const bool breakable = first || (!may_start_tags_or_escape(word) && !in_command);
          lines.token(t, glue && first, breakable);
          if (word.starts_with("[%"))
            command_words = word.find(']') == std::string::npos ? 1 : 0;
          else if (command_words > 0)
            command_words = word.find(']') == std::string::npos ? command_words + 1 : 0;
          first = false;
          word.clear();
        };
        // Blanks and control characters (which PGN text may not hold: NUL,
        // ESC...) part words.
        for (std::size_t i = 0; i < text.size(); ++i) {
          const char c = text[i];
          if (const std::size_t control = control_length(text, i); control || c == ' ') {
            if (!word.empty()) emit(false);
            i += control ? control - 1 : 0;
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
}

}  // namespace

}  // namespace virrey::game
