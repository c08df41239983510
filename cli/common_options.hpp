// The options several commands share (--db, --variant, --threads, --format):
// their help text and the checks of their values. app.cpp declares them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/variant.hpp"

namespace virrey::cli {

inline constexpr std::string_view kDbHelp = "the database (default: $VIRREY_DB, else ./virrey.db)";

// Names joined for help text: "a, b or c" (`last_separator` before the last).
std::string name_list(const std::vector<std::string_view>& names, std::string_view last_separator = " or ");

// The variants' command-line names from the variant table, the last one after
// `last_separator`: "standard, virrey or modern".
std::string variant_names(std::string_view last_separator = " or ");

// The variant a --variant value names; nullopt after logging that it names
// none.
std::optional<Variant> variant_option(const std::string& name);

// Sets `variant` (a Variant or an optional one) from a --variant value; an
// empty value leaves it. False after logging that the value names none.
template <class V>
bool set_variant_option(const std::string& name, V& variant) {
  if (name.empty()) return true;
  const auto v = variant_option(name);
  if (v) variant = *v;
  return v.has_value();
}

// Whether `threads` is 1 to 256; logs why not, naming the option.
bool threads_in_range(int threads, std::string_view option = "--threads");
// A --threads where 0 means every core: the count, 0 after logging why it is out of range.
int threads_or_every_core(int given);
// False after logging that the filters `given` (option names) choose games of
// a database, not of PGN inputs; `which_apply` says which filters do apply
// to inputs, and how.
bool no_filters_for_inputs(const std::vector<std::string>& given, std::string_view which_apply);

}  // namespace virrey::cli
