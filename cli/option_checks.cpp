// Checks every option's values get beyond CLI11's own: whole numbers read
// in decimal, blank values refused, an option's name refused as a value;
// and the names options were given by on this command line.
#include "option_checks.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace virrey::cli {

namespace {

// The command line's words, for the names options were given by.
std::vector<std::string_view> words;

// The name an option was given by on the command line (one of its aliases),
// else its first name.
std::string name_given(const CLI::Option& f) {
  for (const std::string& name : f.get_lnames()) {
    const std::string dashed = "--" + name;
    for (std::string_view word : words)
      if (word == dashed ||
          (word.starts_with(dashed) && word.size() > dashed.size() && word[dashed.size()] == '='))
        return dashed;
  }
  return f.get_name();
}

// Whether `value` was given to the option attached to one of its names
// (`--material=-v`): then it is the value, whatever it looks like.
bool given_attached(const CLI::Option& f, std::string_view value) {
  for (const std::string& name : f.get_lnames()) {
    const std::string attached = "--" + name + "=" + std::string(value);
    for (std::string_view word : words)
      if (word == attached) return true;
  }
  return false;
}

}  // namespace

void remember_command_line(int argc, char** argv) { words.assign(argv + 1, argv + argc); }

const std::vector<std::string_view>& command_line_words() { return words; }

// The names of the options given, but those of `except`, in their order.
std::vector<std::string> names_given(const std::vector<CLI::Option*>& options,
                                     std::initializer_list<std::string_view> except) {
  std::vector<std::string> out;
  for (const CLI::Option* f : options)
    if (f->count() > 0 && std::find(except.begin(), except.end(), f->get_name()) == except.end())
      out.push_back(name_given(*f));
  return out;
}

// The option `name` ("--db", "-q") of a command or of those above it, or nullptr.
const CLI::Option* option_named(const CLI::App* cmd, const std::string& name) {
  for (const CLI::App* at = cmd; at; at = at->get_parent())
    if (const CLI::Option* o = at->get_option_no_throw(name)) return o;
  return nullptr;
}

namespace {

// What a blank value of an option is told.
constexpr const char* kEmptyValue = "is empty (give a value, or leave the option out)";

// CLI11 reads a whole number as C's strtoll does (`010` is eight, `0x10`
// sixteen) and an unsigned one wraps (`-1`, or 2^64 and more, become the
// largest value). Here a whole number is decimal, leading zeros and all
// (`--depth 010` is ten), and a value out of 64 bits or a negative unsigned
// one is refused; narrower ranges are CLI11's own check.
CLI::Validator decimal(bool is_unsigned) {
  return CLI::Validator(
      [is_unsigned](std::string& text) -> std::string {
        // An option's name as the value: the check below names it.
        if (text.size() >= 2 && text[0] == '-' && (text[1] < '0' || text[1] > '9')) return {};
        if (text.find_first_not_of(" \t") == std::string::npos) return kEmptyValue;
        std::string_view digits = text;
        const bool negative = !digits.empty() && digits[0] == '-';
        if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
          return "must be a whole number, not " + text;
        if (negative && is_unsigned && digits.find_first_not_of('0') != std::string_view::npos)
          return "must be 0 or more, not " + text;
        digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size() - 1));
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        const std::uint64_t most = is_unsigned ? UINT64_MAX
                                   : negative  ? std::uint64_t(INT64_MAX) + 1
                                               : INT64_MAX;
        if (error != std::errc() || value > most) return "is out of range: " + text;
        text = (negative && value ? "-" : "") + std::string(digits);
        return {};
      },
      "", "decimal");
}

// Whether the option refuses an empty value with its own words: a file name
// (kFileName, --output), a position or material (not_blank).
bool checks_empty_values(CLI::Option& option) {
  for (int i = 0;; ++i) {
    try {
      const std::string name = option.get_validator(i)->get_name();
      if (name == "a file name" || name == "path" || name == "not blank") return true;
    } catch (const CLI::OptionNotFound&) {
      return false;
    }
  }
}

}  // namespace

// Whether `v` is a number written in decimal: a sign, digits, and unless
// `whole`, a point with digits and an exponent.
bool written_in_decimal(std::string_view v, bool whole) {
  if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
  const auto digits = [&] {
    std::size_t n = 0;
    while (n < v.size() && v[n] >= '0' && v[n] <= '9') ++n;
    v.remove_prefix(n);
    return n;
  };
  std::size_t n = digits();
  if (whole) return n > 0 && v.empty();
  if (!v.empty() && v[0] == '.') v.remove_prefix(1), n += digits();
  if (n == 0) return false;
  if (!v.empty() && (v[0] == 'e' || v[0] == 'E')) {
    v.remove_prefix(1);
    if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
    if (digits() == 0) return false;
  }
  return v.empty();
}

namespace {

// A number written in decimal (digits, a point, an exponent): C's strtod,
// which CLI11 reads numbers with, takes hexadecimal (`0x10`), `inf` and
// `nan` as well.
CLI::Validator decimal_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        // An option's name as the value (`--name`, `-n`): the check below names it.
        if (text.rfind("--", 0) == 0 ||
            (text.size() == 2 && text[0] == '-' && std::isalpha(std::uint8_t(text[1]))))
          return {};
        if (text.find_first_not_of(" \t") == std::string::npos) return kEmptyValue;
        if (!written_in_decimal(text, false)) return "must be a number, not " + text;
        if (!std::isfinite(std::strtod(text.c_str(), nullptr))) return "is out of range: " + text;
        return std::string();
      },
      "", "decimal number");
}

}  // namespace

// Checks every option's values get. An option given without its value takes
// the next argument as its value: `search --white --count` would search for
// a player named "--count". A value that is the name of an option of the
// command (or of those above it) is refused instead. Whole numbers are read
// in decimal (above).
void refuse_option_names_as_values(CLI::App* cmd) {
  for (CLI::Option* option : cmd->get_options()) {
    if (!option->nonpositional()) {
      // `validate ''`: an input with no name, as `cat ''` refuses it.
      option->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return value.empty() ? "one is empty (a name is needed)" : "";
          },
          ""));
      continue;
    }
    if (option->get_items_expected_max() == 0) continue;  // flags
    // An empty or blank value is no value: `--white "$UNSET"` would
    // otherwise search every game, `--tiebreaks ''` take the default ones.
    if (!checks_empty_values(*option))
      option->check(CLI::Validator(
          [](std::string& value) -> std::string {
            return value.find_first_not_of(" \t") == std::string::npos ? kEmptyValue : "";
          },
          ""));
    const std::string type = option->get_type_name();
    if (type == "INT" || type == "UINT") option->transform(decimal(type == "UINT"));
    if (type == "FLOAT") option->transform(decimal_number());
    option->check(CLI::Validator(
        [cmd, option](std::string& value) -> std::string {
          if (value.size() < 2 || value[0] != '-' || (value[1] >= '0' && value[1] <= '9')) return {};
          const std::string name = value.substr(0, value.find('='));
          if (!option_named(cmd, name) || given_attached(*option, value)) return {};
          return fmt::format("no value given: {} is an option (as a value: {}={})", name, name_given(*option),
                             value);
        },
        ""));
  }
  for (CLI::App* sub : cmd->get_subcommands([](CLI::App*) { return true; }))
    refuse_option_names_as_values(sub);
}

}  // namespace virrey::cli
