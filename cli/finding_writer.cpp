#include "finding_writer.hpp"

#include <cerrno>

#include <fmt/format.h>

#include "text_table.hpp"
#include "virrey/base/log.hpp"
#include "virrey/base/quoted_text.hpp"

namespace virrey::cli {

namespace {

// A file's name as given, bytes that are not UTF-8 (and control bytes)
// written \xNN: read as Windows-1252, as tag values are, it would name
// another file.
std::string file_name_text(std::string_view file) { return quoted_text(file, std::string_view::npos); }

std::string text_line(std::string_view file, const validate::Finding& f) {
  std::string out = file_name_text(file);
  if (f.line) out += fmt::format(":{}:{}", f.line, f.column);
  out += fmt::format(": {}[{}]: ", validate::severity_name(f.severity), validate::code_name(f.code));
  if (f.game) {
    out += fmt::format("game {}", f.game);
    if (f.ply) out += fmt::format(", ply {} ({})", f.ply, f.move_label);
    out += ": ";
  }
  out += terminal_text(f.message);
  out += '\n';
  return out;
}

std::string json_object(std::string_view file, const validate::Finding& f) {
  return json(Members{{"code", Value::string(validate::code_name(f.code))},
                      {"severity", Value::string(validate::severity_name(f.severity))},
                      {"file", Value::string(file_name_text(file))},
                      {"line", Value::integer(f.line)},
                      {"column", Value::integer(f.column)},
                      {"game", Value::integer(f.game)},
                      {"ply", Value::integer(f.ply)},
                      {"san", Value::string_or_null(f.san)},
                      {"fen", Value::string_or_null(f.fen)},
                      {"message", Value::string(f.message)}});
}

std::string summary_object(const ValidationSummary& s) {
  Members codes;
  for (int c = 0; c < validate::kCodeCount; ++c)
    if (s.per_code[c])
      codes.push_back({std::string(validate::code_name(validate::Code(c))), Value::integer(s.per_code[c])});
  return json(Members{{"games", Value::integer(s.games)},
                      {"valid", Value::integer(s.valid)},
                      {"with_errors", Value::integer(s.with_errors)},
                      {"with_warnings", Value::integer(s.with_warnings)},
                      {"errors", Value::integer(s.errors)},
                      {"warnings", Value::integer(s.warnings)},
                      {"codes", Value::object(std::move(codes))},
                      {"seconds", Value::number(s.seconds, 3)}});
}

}  // namespace

void FindingWriter::finding(std::string_view file, const validate::Finding& f) {
  // A diagnostic: -q (--quiet) keeps the errors alone.
  if (role_ == Role::Diagnostics && f.severity != validate::Severity::Error &&
      !log::enabled(log::Level::warn))
    return;
  std::string line;
  if (format_ == Format::Jsonl) {
    line = json_object(file, f) + '\n';
  } else if (format_ == Format::Json) {
    line = (first_ ? "{\"diagnostics\":[\n" : ",\n") + json_object(file, f);
  } else {
    line = text_line(file, f);
  }
  first_ = false;
  put(line);
}

void FindingWriter::put(const std::string& text) { write_text(out_, text, write_errno_); }

void FindingWriter::summary(const ValidationSummary& s) {
  std::string out;
  if (format_ == Format::Jsonl) {
    out = "{\"summary\":" + summary_object(s) + "}\n";
  } else if (format_ == Format::Json) {
    out =
        (first_ ? "{\"diagnostics\":[" : "\n") + std::string("],\n\"summary\":") + summary_object(s) + "}\n";
  } else {
    out = fmt::format(
        "{} games: {} valid, {} with errors, {} with warnings ({} errors, {} warnings) in {:.2f} s\n",
        s.games, s.valid, s.with_errors, s.with_warnings, s.errors, s.warnings, s.seconds);
    TextTable codes({{"", TextTable::Align::Left, 22}, {"", TextTable::Align::Left}}, " ");
    for (int c = 0; c < validate::kCodeCount; ++c)
      if (s.per_code[c])
        codes.add({std::string(validate::code_name(validate::Code(c))), fmt::format("{}", s.per_code[c])});
    out += codes.render_rows("  ");
  }
  put(out);
  if (std::fflush(out_) != 0 && !write_errno_) write_errno_ = errno;
}

}  // namespace virrey::cli
