// CLI11's errors in virrey's words: the command a mistyped word meant, the
// option a misspelt one meant, numbers and missing values said as virrey's
// own checks say them, every line escaped as log lines are.
#include "usage_errors.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include "virrey/base/log.hpp"
#include "virrey/base/quoted_text.hpp"

#include "common_options.hpp"
#include "option_checks.hpp"

namespace virrey::cli {

namespace {

// Edit distance, for suggesting the command a mistyped word meant.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

// When a command needs a subcommand and the command line names none: the
// word that stands where it should ("virrey serach", "virrey db chek"), with
// the commands it could have meant. Nothing when no such word is there.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::string path;  // the commands named before it
  // An option of the commands named so far, or nullptr.
  const auto option = [&](const std::string& name) { return option_named(at, name); };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.size() > 1 && arg[0] == '-') {
      // An option: its value is no command. Combined short flags (-vq) are
      // flags each; an option not known here leaves the message to CLI11.
      const std::string name = arg.substr(0, arg.find('='));
      const CLI::Option* o = option(name);
      if (!o && arg[1] != '-' && std::all_of(arg.begin() + 1, arg.end(), [&](char c) {
            const CLI::Option* flag = option(std::string{'-', c});
            return flag && flag->get_items_expected_max() == 0;
          }))
        continue;
      if (!o) return std::nullopt;
      if (o->get_items_expected_max() == 0 || name.size() < arg.size()) continue;  // a flag, or --name=value
      if (o->get_items_expected_max() > 1) {  // values up to the next option
        while (i + 1 < argc && argv[i + 1][0] != '-') ++i;
      } else {
        ++i;
      }
      continue;
    }
    if (arg.empty()) continue;
    const auto subs = at->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;
    CLI::App* next = nullptr;
    std::vector<std::string_view> names, close;
    for (CLI::App* sub : subs) {
      if (sub->get_name() == arg) next = sub;
      if (sub->get_group().empty()) continue;  // hidden (write-man-pages): not offered
      names.push_back(sub->get_name());
      if (edit_distance(arg, sub->get_name()) <= 2) close.push_back(sub->get_name());
    }
    if (!next) {
      std::string message =
          fmt::format("{}{}unknown command '{}'", path, path.empty() ? "" : ": ", quoted_text(arg));
      if (!close.empty()) message += fmt::format("; did you mean {}?", name_list(close));
      return message + fmt::format(" (commands: {})", name_list(names, ", "));
    }
    at = next;
    path += (path.empty() ? "" : " ") + arg;
  }
  return std::nullopt;
}

namespace {

// The command the command line got to (`db merge`), and its words.
const CLI::App* deepest_command(const CLI::App& app, std::string& words) {
  const CLI::App* at = &app;
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : at->get_subcommands()) {
      words += (words.empty() ? "" : " ") + sub->get_name();
      at = sub;
      deeper = true;
      break;
    }
  }
  return at;
}

// The commands under `cmd` (one level down) that take the option `name`.
std::vector<std::string_view> commands_taking(const CLI::App* cmd, const std::string& name) {
  std::vector<std::string_view> names;
  // (CLI11 lists every subcommand only through its non-const overload)
  for (const CLI::App* sub : const_cast<CLI::App*>(cmd)->get_subcommands([](CLI::App*) { return true; }))
    if (!sub->get_group().empty() && sub->get_option_no_throw(name)) names.push_back(sub->get_name());
  return names;
}

// CLI11's messages in virrey's words, where it has its own: "--band: must be
// a whole number, not abc", as the options virrey checks itself say.
std::optional<std::string> usage_message(const CLI::App& app, const CLI::ParseError& e) {
  const std::string what = e.what();
  std::string words;
  const CLI::App* command = deepest_command(app, words);
  const std::string where = words.empty() ? "" : words + ": ";
  // What an option's values are: whole numbers (its type INT or UINT) or numbers.
  const auto kind_of = [&](const std::string& name) -> std::string_view {
    for (const CLI::App* at = command; at; at = at->get_parent())
      if (const CLI::Option* o = at->get_option_no_throw(name))
        return o->get_type_name().find("INT") != std::string::npos ? "a whole number" : "a number";
    return "a number";
  };
  // A value written as a number of that kind (out of range or not).
  const auto fits = [](std::string_view v, std::string_view kind) {
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (!v.empty() && blank(v.front())) v.remove_prefix(1);
    while (!v.empty() && blank(v.back())) v.remove_suffix(1);
    return written_in_decimal(v, kind == "a whole number");
  };
  // CLI11's messages are read by hand, not by std::regex: its matcher
  // recurses once per character, and a value of some 30 KB overflowed the
  // stack.
  const std::string_view text = what;
  const auto no_blank = [](std::string_view w) {
    return !w.empty() && w.find_first_of(" \t\n") == std::string_view::npos;
  };
  if (text.starts_with("Could not convert: ")) {
    const std::string_view rest = text.substr(19);
    if (const std::size_t eq = rest.find(" = ");
        eq != std::string_view::npos && no_blank(rest.substr(0, eq))) {
      const std::string name(rest.substr(0, eq)), value(rest.substr(eq + 3));
      const std::string_view kind = kind_of(name);
      // Digits that do not fit the option's type (--threads 2147483648).
      if (fits(value, kind)) return fmt::format("{} {} is out of range", name, value);
      return fmt::format("{}: must be {}, not {}", name, kind, value);
    }
  }
  if (const std::size_t colon = text.find(": Value ");
      colon != std::string_view::npos && no_blank(text.substr(0, colon))) {
    const std::string_view rest = text.substr(colon + 8);
    const std::size_t in = rest.rfind(" not in range ");
    const std::string_view bounds = in == std::string_view::npos ? "" : rest.substr(in + 14);
    const std::size_t to = bounds.find(" to ");
    if (to != std::string_view::npos && no_blank(bounds.substr(0, to)) && no_blank(bounds.substr(to + 4))) {
      const std::string name(text.substr(0, colon)), value(rest.substr(0, in));
      const std::string_view kind = kind_of(name);
      if (!fits(value, kind)) return fmt::format("{}: must be {}, not {}", name, kind, value);
      return fmt::format("{} {} is out of range ({} to {})", name, value, bounds.substr(0, to),
                         bounds.substr(to + 4));
    }
  }
  if (const std::size_t colon = text.find(": ");
      colon != std::string_view::npos && no_blank(text.substr(0, colon)) && text.ends_with(" missing")) {
    std::string_view rest = text.substr(colon + 2, text.size() - colon - 2 - 8);
    std::size_t n = 0;
    while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
    if (n > 0 && rest.substr(n).starts_with(" required ") && rest.size() > n + 10) {
      const std::string name(text.substr(0, colon));
      const std::string_view values = rest.substr(n + 10);
      const std::size_t open = values.find('{');
      if (open != std::string_view::npos && values.back() == '}')
        return fmt::format("{} needs a value: one of {}", name, values.substr(open));
      return fmt::format("{} needs a value", name);
    }
  }
  // "--limit excludes --count": two options that do not go together.
  if (const std::size_t at = text.find(" excludes ");
      at != std::string_view::npos && no_blank(text.substr(0, at)) && no_blank(text.substr(at + 10)))
    return fmt::format("{}{} and {} do not go together", where, text.substr(at + 10), text.substr(0, at));
  // "--depth: At Most 1 required but received 2": given twice.
  if (const std::size_t colon = text.find(": At Most 1 required but received ");
      colon != std::string_view::npos && no_blank(text.substr(0, colon)))
    return fmt::format("{}{} given more than once (it takes one value)", where, text.substr(0, colon));
  std::string_view extra_words;
  for (const std::string_view head :
       {"The following argument was not expected: ", "The following arguments were not expected: "})
    if (text.starts_with(head)) extra_words = text.substr(head.size());
  if (!extra_words.empty()) {
    // Words before any option are arguments no positional took; an option
    // not known is named with the known long option nearest it (within two
    // edits), and the words after it are its values.
    std::vector<std::string> stray, unknown, misplaced, belongs;
    std::istringstream in{std::string(extra_words)};
    for (std::string word; in >> word;) {
      if (word.size() < 2 || word[0] != '-') {
        if (unknown.empty() && misplaced.empty() && belongs.empty()) stray.push_back(word);
        continue;
      }
      const std::string name = word.substr(0, word.find('='));
      if (option_named(command, name)) {  // known here: given before the command's name, or after `--`
        misplaced.push_back(name);
        continue;
      }
      if (const std::vector<std::string_view> owners = commands_taking(command, name); !owners.empty()) {
        // `stats --db x`: the option is a statistic's, and no statistic named.
        belongs.push_back(fmt::format("{} is an option of {}{}{}: name {} first", name, words,
                                      words.empty() ? "" : " ", name_list(owners),
                                      owners.size() > 1 ? "one of them" : "it"));
        continue;
      }
      std::string guess;
      std::size_t best = 3;
      if (name.rfind("--", 0) == 0)
        for (const CLI::App* at = command; at; at = at->get_parent())
          for (const CLI::Option* o : at->get_options())
            for (const std::string& known : o->get_lnames())
              if (const std::size_t d = edit_distance(name, "--" + known); d < best)
                best = d, guess = "--" + known;
      unknown.push_back(guess.empty() ? name : fmt::format("{} (did you mean {}?)", name, guess));
    }
    std::vector<std::string> parts;
    if (!stray.empty())
      parts.push_back(
          fmt::format("unexpected argument{} {}", stray.size() > 1 ? "s" : "", fmt::join(stray, " ")));
    if (!unknown.empty())
      parts.push_back(
          fmt::format("unknown option{} {}", unknown.size() > 1 ? "s" : "", fmt::join(unknown, ", ")));
    if (!misplaced.empty())
      parts.push_back(fmt::format("{} out of place: give {} after the command's name, before any --",
                                  fmt::join(misplaced, ", "), misplaced.size() > 1 ? "them" : "it"));
    parts.insert(parts.end(), belongs.begin(), belongs.end());
    return where + fmt::format("{}", fmt::join(parts, "; "));
  }
  if (what == "A subcommand is required") {
    std::vector<std::string_view> names;
    // (CLI11 lists every subcommand only through its non-const overload)
    for (const CLI::App* sub :
         const_cast<CLI::App*>(command)->get_subcommands([](CLI::App*) { return true; }))
      if (!sub->get_group().empty()) names.push_back(sub->get_name());
    return fmt::format("{}a command is needed: {}", where, name_list(names, ", "));
  }
  if (text.ends_with(" is required") && no_blank(text.substr(0, text.size() - 12)) &&
      !text.starts_with('-')) {
    // A positional: its description says what it takes.
    const std::string name(text.substr(0, text.size() - 12));
    const CLI::Option* o = command->get_option_no_throw(name);
    return fmt::format("{}{} missing{}", where, name,
                       o && !o->get_description().empty() ? ": " + o->get_description() : "");
  }
  return std::nullopt;
}

}  // namespace

// CLI11's message for a bad command line, each line as a log line is
// written: the values it quotes reach the terminal escaped and cut short;
// the first line begins as every error of virrey does ("virrey: error: ").
void write_usage_error(const CLI::App& app, const CLI::ParseError& e) {
  std::ostringstream out, err;
  if (auto message = usage_message(app, e))
    err << *message << "\nRun with --help for more information.\n";
  else
    app.exit(e, out, err);
  std::string text = out.str() + err.str();
  std::string shown = "virrey: error: ";
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    shown += quoted_text(std::string_view(text).substr(start, end - start), log::kMaxMessageBytes) + '\n';
    start = end + 1;
  }
  std::fputs(shown.c_str(), stderr);
}

// The arguments no option took, in the order typed (CLI11 keeps them last
// first), as a usage error; false when there are none.
bool write_stray_arguments(const CLI::App& app) {
  std::vector<std::string> extras = app.remaining(true);
  if (extras.empty()) return false;
  std::reverse(extras.begin(), extras.end());
  write_usage_error(app, CLI::ExtrasError(extras));
  return true;
}

}  // namespace virrey::cli
