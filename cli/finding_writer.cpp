#include "finding_writer.hpp"

#include <fmt/format.h>

#include "json_text.hpp"

namespace virrey::cli {

namespace {

std::string text_line(std::string_view file, const validate::Finding& f) {
  std::string out = std::string(file);
  if (f.line) out += fmt::format(":{}:{}", f.line, f.column);
  out += fmt::format(": {}[{}]: ", validate::severity_name(f.severity), validate::code_name(f.code));
  if (f.game) {
    out += fmt::format("game {}", f.game);
    if (f.ply) out += fmt::format(", ply {} ({})", f.ply, f.move_label);
    out += ": ";
  }
  out += f.message;
  out += '\n';
  return out;
}

std::string json_object(std::string_view file, const validate::Finding& f) {
  return fmt::format(
      "{{\"code\":{},\"severity\":{},\"file\":{},\"line\":{},\"column\":{},\"game\":{},"
      "\"ply\":{},\"san\":{},\"fen\":{},\"message\":{}}}",
      json_string(validate::code_name(f.code)), json_string(validate::severity_name(f.severity)),
      json_string(file), f.line, f.column, f.game, f.ply,
      f.san.empty() ? "null" : json_string(f.san), f.fen.empty() ? "null" : json_string(f.fen),
      json_string(f.message));
}

std::string summary_object(const ValidationSummary& s) {
  std::string codes;
  for (int c = 0; c < validate::kCodeCount; ++c) {
    if (!s.per_code[c]) continue;
    if (!codes.empty()) codes += ',';
    codes += fmt::format("{}:{}", json_string(validate::code_name(validate::Code(c))), s.per_code[c]);
  }
  return fmt::format(
      "{{\"games\":{},\"valid\":{},\"with_errors\":{},\"with_warnings\":{},\"errors\":{},"
      "\"warnings\":{},\"codes\":{{{}}},\"seconds\":{:.3f}}}",
      s.games, s.valid, s.with_errors, s.with_warnings, s.errors, s.warnings, codes, s.seconds);
}

}  // namespace

void FindingWriter::finding(std::string_view file, const validate::Finding& f) {
  std::string line;
  if (format_ == "jsonl") {
    line = json_object(file, f) + '\n';
  } else if (format_ == "json") {
    line = (first_ ? "{\"diagnostics\":[\n" : ",\n") + json_object(file, f);
  } else {
    line = text_line(file, f);
  }
  first_ = false;
  std::fwrite(line.data(), 1, line.size(), out_);
}

void FindingWriter::summary(const ValidationSummary& s) {
  std::string out;
  if (format_ == "jsonl") {
    out = "{\"summary\":" + summary_object(s) + "}\n";
  } else if (format_ == "json") {
    out = (first_ ? "{\"diagnostics\":[" : "\n") + std::string("],\n\"summary\":") +
          summary_object(s) + "}\n";
  } else {
    out = fmt::format("{} games: {} valid, {} with errors, {} with warnings ({} errors, {} warnings) in {:.2f} s\n",
                      s.games, s.valid, s.with_errors, s.with_warnings, s.errors, s.warnings, s.seconds);
    for (int c = 0; c < validate::kCodeCount; ++c)
      if (s.per_code[c])
        out += fmt::format("  {:<22} {}\n", validate::code_name(validate::Code(c)), s.per_code[c]);
  }
  std::fwrite(out.data(), 1, out.size(), out_);
  std::fflush(out_);
}

}  // namespace virrey::cli
