// Writes validation findings and the closing summary in text (compiler
// style), JSON Lines or one JSON document.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "output.hpp"
#include "virrey/validate/finding.hpp"

namespace virrey::cli {

struct ValidationSummary {
  std::uint64_t games = 0;
  std::uint64_t valid = 0;
  std::uint64_t with_errors = 0;
  std::uint64_t with_warnings = 0;
  std::uint64_t errors = 0;    // findings of severity error
  std::uint64_t warnings = 0;  // findings of severity warning
  std::array<std::uint64_t, validate::kCodeCount> per_code{};
  double seconds = 0;
};

class FindingWriter {
 public:
  // What the findings are: validate's report (written whatever -q says), or
  // diagnostics of another command on stderr, whose warnings -q silences.
  enum class Role { Report, Diagnostics };
  FindingWriter(Format format, std::FILE* out, Role role = Role::Report)
      : format_(format), out_(out), role_(role) {}
  void finding(std::string_view file, const validate::Finding& f);
  void summary(const ValidationSummary& s);
  std::FILE* out() const { return out_; }
  int write_errno() const { return write_errno_; }  // of the first write that failed, or 0

 private:
  void put(const std::string& text);

  Format format_;
  std::FILE* out_;
  Role role_;
  int write_errno_ = 0;
  bool first_ = true;  // json: no comma before the first finding
};

}  // namespace virrey::cli
