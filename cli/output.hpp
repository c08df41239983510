// The output layer of the commands: the formats a command prints, the values
// of its records, and their rendering as JSON, CSV and text tables. A command
// declares the fields of a record once (a Schema: name and how to get the
// value) and the writers here render it; JSON escaping and CSV quoting live
// only here.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "virrey/base/utf8.hpp"  // as_utf8: JSON and CSV go through it

#include "text_table.hpp"

namespace virrey::cli {

// --- formats -----------------------------------------------------------------

// Partial: exact partial statistics to merge (stats_partial.hpp).
enum class Format { Text, Json, Jsonl, Csv, Pgn, Trf, Html, Partial };

// The name on the command line ("text", "json", ...).
std::string_view format_name(Format f);
std::optional<Format> parse_format(std::string_view name);

// --- files -------------------------------------------------------------------

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f && f != stdout) std::fclose(f);
  }
};
// A file written to; standard output is never closed.
using File = std::unique_ptr<std::FILE, FileCloser>;

// `path` created (or emptied) for writing; null after logging why it did not open.
File create_file(const std::string& path);

// When a write failed because the reader of the output went away (`error`
// EPIPE: SIGPIPE was ignored, by a command that runs engines to outlive
// them, or by whoever started virrey, as systemd does), ends the process at
// once as SIGPIPE ends it (exit 141, no message), its staged outputs
// removed, as it ends with SIGPIPE at its default. Otherwise returns.
void end_if_reader_gone(int error);

// Writes `text` and flushes it; false on a write error (a reader gone: as
// end_if_reader_gone).
bool write_flushed(std::FILE* out, std::string_view text);
// Writes `text` to `out`; false when the stream failed (a line-buffered
// stream takes the text and fails to pass it on: its error flag), keeping in
// `error` the errno of the first failure, for flush_failure (a reader gone:
// as end_if_reader_gone).
bool write_text(std::FILE* out, std::string_view text, int& error);
// Flushes `out`: empty when it and every write before succeeded, else the
// text to follow "cannot write NAME": the system's reason (": No space left
// on device") when it gave one (a reader gone: as end_if_reader_gone).
// `earlier`: errno as a failed write left it.
std::optional<std::string> flush_failure(std::FILE* out, int earlier = 0);

// Two paths of one file, made or yet to be made ("out.pgn" and "./out.pgn").
bool same_file(const std::string& a, const std::string& b);

// Whether `path` is one of `inputs` (the same file under any name): an
// output there would destroy the input before it is read.
bool is_an_input(const std::string& path, const std::vector<std::string>& inputs);

// Whether an output `option` (`--output`) may be written at `path`: false,
// after saying why, when it is one of `inputs` under any name ("-" stands
// for standard input, which may be redirected from that file) or would be a
// file in a database's folder. An empty path or "-" is standard output.
bool output_allowed(std::string_view option, const std::string& path, const std::vector<std::string>& inputs);

// Whether a database may be made or written at `path` (--db of a command
// that writes): false, after saying why, when a folder above it is a
// database's (a database in another's folder would damage it).
bool database_path_allowed(const std::string& path);

// Whether `path` is the database directory `db` or lies in it (made or yet
// to be made): an output there would overwrite one of the database's files.
bool is_in_database(const std::string& path, const std::string& db);

// An output written under a name of its own beside it (PATH.partial-XXXXXX)
// and put in place by commit(): a run that stops early, or that read nothing
// and wrote nothing, leaves the file of the run before as it was.
class StagedFile {
 public:
  StagedFile() = default;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();  // an uncommitted temporary is removed
  // False after logging why the temporary did not open.
  bool open(const std::string& path);
  std::FILE* get() const { return file_.get(); }
  // Puts the file in place when anything was written or `even_empty`;
  // false after logging a write error (the file before is then kept).
  // `earlier` is the errno a failed write gave before (0: none known).
  bool commit(bool even_empty, int earlier = 0);

 private:
  std::string path_, temp_;
  File file_;
  bool direct_ = false;  // not a regular file: written in place
  int interrupt_slot_ = -1;  // the temporary's removal on Ctrl-C or `kill`
};

// --- values ------------------------------------------------------------------

struct Member;

// One value of a record: a scalar (kept as its text), a list or an object.
class Value {
 public:
  enum class Kind : std::uint8_t { Null, Bool, Integer, Number, String, List, Object };

  Value();  // null
  static Value null();
  static Value boolean(bool b);
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  static Value integer(I v);
  template <class I>
  static Value integer(const std::optional<I>& v);
  // A number with a fixed count of decimals ({:.2f}).
  static Value number(double v, int decimals);
  static Value number(std::optional<double> v, int decimals);
  static Value string(std::string_view s);
  // A string, or null when it is empty.
  static Value string_or_null(std::string_view s);
  static Value list(std::vector<Value> items);
  static Value object(std::vector<Member> members);

  Kind kind() const { return kind_; }
  // A scalar's text: digits, "true", the string unescaped; empty for null.
  const std::string& text() const { return text_; }
  const std::vector<Value>& items() const { return items_; }
  const std::vector<Member>& members() const { return members_; }

 private:
  Value(Kind kind, std::string text);
  Kind kind_ = Kind::Null;
  std::string text_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

struct Member {
  std::string name;
  Value value;
};
using Members = std::vector<Member>;

inline Value::Value() = default;
inline Value::Value(Kind kind, std::string text) : kind_(kind), text_(std::move(text)) {}
inline Value Value::null() { return {}; }
inline Value Value::boolean(bool b) { return {Kind::Bool, b ? "true" : "false"}; }
template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int>>
Value Value::integer(I v) {
  return {Kind::Integer, fmt::format("{}", v)};
}
template <class I>
Value Value::integer(const std::optional<I>& v) {
  return v ? integer(*v) : null();
}
inline Value Value::number(double v, int decimals) {
  return {Kind::Number, fmt::format("{:.{}f}", v, decimals)};
}
inline Value Value::number(std::optional<double> v, int decimals) {
  return v ? number(*v, decimals) : null();
}
inline Value Value::string(std::string_view s) { return {Kind::String, std::string(s)}; }
inline Value Value::string_or_null(std::string_view s) { return s.empty() ? null() : string(s); }

// --- JSON --------------------------------------------------------------------

// The string as a quoted JSON string (as_utf8, then escaped).
std::string json_string(std::string_view s);
// The value as compact JSON (no spaces); numbers as formatted.
std::string json(const Value& v);
void append_json(const Value& v, std::string& out);
// An object's members as JSON.
inline std::string json(const Members& m) { return json(Value::object(m)); }

// --- CSV ---------------------------------------------------------------------

// A CSV field (as_utf8), quoted when it holds a comma, quote or line break.
std::string csv_field(std::string_view s);
// A scalar as a CSV field: strings quoted as needed, null empty.
std::string csv_field(const Value& v);
// Fields joined by commas, then a line break.
std::string csv_line(const std::vector<Value>& fields);
std::string csv_line(const std::vector<std::string>& names);

// --- records -----------------------------------------------------------------

// A column of a text table of records: the field it shows (its name is the
// title), its alignment and the most code points a cell shows (0: all; longer
// values are cut, ending in an ellipsis). A null value shows as "-".
struct TextColumn {
  std::string_view field;
  TextTable::Align align = TextTable::Align::Left;
  std::size_t max_width = 0;
};

// The fields of one kind of record: each a name and how to get its value from
// a T. The same schema gives the JSON object, the CSV row and the text table.
template <class T>
class Schema {
 public:
  struct Field {
    std::string name;
    std::function<Value(const T&)> value;
  };
  Schema(std::initializer_list<Field> fields) : fields_(fields) {}
  void add(Field f) { fields_.push_back(std::move(f)); }
  // The fields of these names, in this order (names it lacks are left out).
  Schema ordered(std::initializer_list<std::string_view> names) const {
    Schema out{};
    for (std::string_view name : names)
      for (const Field& f : fields_)
        if (f.name == name) out.add(f);
    return out;
  }

  Members members(const T& item) const {
    Members out;
    append_members(item, out);
    return out;
  }
  void append_members(const T& item, Members& out) const {
    for (const Field& f : fields_) out.push_back({f.name, f.value(item)});
  }
  Value object(const T& item) const { return Value::object(members(item)); }
  // CSV: the names (with a prefix) and the values of a row, or as many nulls.
  void append_names(std::vector<std::string>& out, std::string_view prefix = "") const {
    for (const Field& f : fields_) out.push_back(std::string(prefix) + f.name);
  }
  void append_values(const T& item, std::vector<Value>& out) const {
    for (const Field& f : fields_) out.push_back(f.value(item));
  }
  void append_nulls(std::vector<Value>& out) const { out.resize(out.size() + fields_.size()); }
  // A CSV document: the header line, then a line per item.
  template <class Range>
  std::string csv(const Range& items) const {
    std::vector<std::string> names;
    append_names(names);
    std::string out = csv_line(names);
    for (const T& item : items) {
      std::vector<Value> values;
      append_values(item, values);
      out += csv_line(values);
    }
    return out;
  }
  // An aligned text table of some of the fields.
  template <class Range>
  std::string text_table(std::initializer_list<TextColumn> columns, const Range& items) const {
    std::vector<TextTable::Column> titles;
    std::vector<const Field*> shown;  // null: no such field (empty cells)
    for (const TextColumn& c : columns) {
      titles.push_back({std::string(c.field), c.align});
      shown.push_back(nullptr);
      for (const Field& f : fields_)
        if (f.name == c.field) shown.back() = &f;
    }
    TextTable table(std::move(titles));
    for (const T& item : items) {
      std::vector<std::string> cells;
      auto column = columns.begin();
      for (const Field* f : shown) {
        const std::size_t max_width = column++->max_width;
        const Value v = f ? f->value(item) : Value::string("");
        cells.push_back(v.kind() == Value::Kind::Null ? "-" : fit_width(v.text(), max_width));
      }
      table.add(std::move(cells));
    }
    return table.render();
  }

 private:
  std::vector<Field> fields_;
};

}  // namespace virrey::cli
