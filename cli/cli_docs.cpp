// Walks the CLI11 tree that app.cpp declares and writes it out as man pages
// (roff, man macros) and as a bash completion script.
#include "cli_docs.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include "virrey/base/log.hpp"

#include "exit_codes.hpp"
#include "version.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::cli {

namespace {

// --- the tree -----------------------------------------------------------------

// Visible subcommands (a hidden one has an empty group), in declaration order.
std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> options_of(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); });
}

bool takes_value(const CLI::Option* o) { return o->get_items_expected_max() > 0; }

bool is_variant(const CLI::Option* o) { return o->check_lname("variant"); }

// The values an option accepts when they are a fixed set: an IsMember check
// (its description "{a,b}" ends up in the type name, "TEXT:{a,b}"), or the
// variant table for --variant, which is checked after parsing.
std::vector<std::string> choices_of(const CLI::Option* o) {
  std::vector<std::string> out;
  if (is_variant(o)) {
    for (const VariantInfo& v : kVariants) out.emplace_back(v.cli_name);
    return out;
  }
  const std::string type = o->get_type_name();
  const auto open = type.find(":{");
  const auto close = open == std::string::npos ? open : type.find('}', open);
  if (close == std::string::npos) return out;
  std::string_view list(type.data() + open + 2, close - open - 2);
  while (!list.empty()) {
    const auto comma = list.find(',');
    out.emplace_back(list.substr(0, comma));
    list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
  }
  return out;
}

// The placeholder of an option's value: INT, TEXT, ...
std::string value_type(const CLI::Option* o) {
  std::string type = o->get_type_name();
  return type.substr(0, type.find(':'));
}

bool is_number(const CLI::Option* o) {
  const std::string type = value_type(o);
  return type == "INT" || type == "UINT" || type == "FLOAT" || type == "NUMBER";
}

// The name a synopsis shows: the first long one.
std::string long_name(const CLI::Option* o) {
  return o->get_lnames().empty() ? "-" + o->get_snames().front() : "--" + o->get_lnames().front();
}

std::vector<std::string> flag_names(const CLI::Option* o) {
  std::vector<std::string> names;
  for (const auto& s : o->get_snames()) names.push_back("-" + s);
  for (const auto& l : o->get_lnames()) names.push_back("--" + l);
  return names;
}

// "virrey db info" for the App of `db info`.
std::string command_path(const CLI::App* app) {
  std::string path;
  for (; app; app = app->get_parent())
    path = (app->get_parent() ? app->get_name() : std::string("virrey")) + (path.empty() ? "" : " " + path);
  return path;
}

// Whether the options of `app` or of a command under it include `name`.
bool has_option(const CLI::App& app, const std::string& name) {
  for (const CLI::Option* o : options_of(app))
    if (o->check_lname(name)) return true;
  for (const CLI::App* sub : commands_of(app))
    if (has_option(*sub, name)) return true;
  return false;
}

std::vector<std::string> format_choices(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : options_of(app))
    if (o->check_lname("format"))
      for (auto& c : choices_of(o))
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  for (const CLI::App* sub : commands_of(app))
    for (auto& c : format_choices(*sub))
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

// --- what the man pages add to the help text (the README's words) -------------

constexpr std::pair<std::string_view, std::string_view> kFormatHelp[] = {
    {"text", "for people: aligned tables, compiler-style findings, a summary"},
    {"json", "one JSON object"},
    {"jsonl", "JSON Lines: one object per line"},
    {"csv", "a header line, then one row per record (RFC 4180 quoting)"},
    {"pgn", "PGN export format"},
};

struct Example {
  std::string_view command;  // the command path it belongs to ("" for virrey(1))
  std::string_view line;     // $DATA stands for the sample data folder
  std::string_view says;
};

constexpr Example kExamples[] = {
    {"", "virrey import $DATA/virrey-games.pgn $DATA/modern-club.pgn --db games.db",
     "Import the sample games into a new database."},
    {"", "virrey search --db games.db --promotion V --by white --limit 5",
     "The first five games where White promotes to a viceroy."},
    {"perft", "virrey perft --variant virrey --fen \"k7/4P3/8/8/8/8/8/4K3 w - - 0 1\" --depth 1 --divide",
     "The moves of a position with a viceroy promotion, counted one by one."},
    {"perft", "virrey perft --variant modern --depth 4", "433729 nodes."},
    {"validate", "virrey validate --threads 2 --rejects bad.pgn games.pgn",
     "Check every game, writing the games with errors to bad.pgn."},
    {"validate", "virrey validate --format jsonl games.pgn.zst", "One JSON object per finding."},
    {"generate", "virrey generate --variant virrey --games 180 --seed 2015 --output virrey-games.pgn",
     "The sample collection of Virrey games, byte for byte."},
    {"import", "virrey import $DATA/modern-club.pgn --db modern.db", "Import the Modern sample games."},
    {"search", "virrey search --db modern.db --variant modern --promotion M --file i --show",
     "Modern games with a minister promotion on the i-file, with the board."},
    {"search", "virrey search --db games.db --moves \"e4 e5 Nf3\" --format csv",
     "Games that reach the position after 1.e4 e5 2.Nf3, as CSV."},
    {"export", "virrey export --db games.db --variant modern --limit 3",
     "The first three Modern games as PGN."},
    {"db", "virrey db check --db games.db", "Verify every index entry against the game records."},
    {"stats", "virrey stats openings --variant virrey --moves e4 e5 --depth 2 --min-games 10",
     "The opening explorer two plies deep after 1.e4 e5."},
    {"stats", "virrey stats results --by player --limit 20",
     "Results of the 20 players with the most games."},
    {"stats", "virrey stats promotions --variant virrey --format json", "Promotion statistics as JSON."},
    {"stats", "virrey stats games --date-from 2020 --format csv", "Game lengths and endings since 2020."},
    {"stats", "virrey stats endgames --variant virrey --men 6",
     "The balances Virrey games have when they first come down to six men, with their results."},
    {"event", "virrey event $DATA/virrey-swiss.pgn", "Standings and round-by-round table of the sample Swiss."},
    {"event", "virrey event $DATA/virrey-swiss.pgn --format html --output swiss.html",
     "The same tournament as one self-contained HTML page."},
    {"event", "virrey event --db games.db --event \"Club Open\" --format trf",
     "A tournament of a database as a FIDE TRF."},
    {"completion", "source <(virrey completion bash)", "Tab completion in the running bash."},
};

// --- roff ---------------------------------------------------------------------

// Text for a roff line: backslashes and the dashes of option names (with
// `code`: every dash) escaped ("\-" is the ASCII minus that can be copied
// back to a shell), `quoted` in bold, characters past ASCII as \[uXXXX], no
// line starting with a control character.
std::string roff(std::string_view text, bool code = false) {
  std::string out;
  bool line_start = true, in_option = false, bold = false;
  char before = ' ';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '-' && (code || in_option || before == ' ' || before == '\n' || before == '(' || before == '[' ||
                     before == '|' || before == '`' || before == '"' || before == '-')) {
      in_option = true;
      out += "\\-";
    } else if (c == '\\') {
      out += "\\e";
    } else if (c == '`') {
      out += bold ? "\\fR" : "\\fB";
      bold = !bold;
    } else if (c >= 0x80) {
      // Decode one UTF-8 sequence (invalid bytes pass as U+FFFD).
      int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      char32_t cp = len == 1 ? 0xFFFD : c & (0x3F >> (len - 1));
      for (int k = 1; k < len; ++k) {
        if (i + 1 >= text.size() || (static_cast<unsigned char>(text[i + 1]) & 0xC0) != 0x80) {
          cp = 0xFFFD;
          break;
        }
        cp = (cp << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
      }
      out += fmt::format("\\[u{:04X}]", static_cast<unsigned>(cp));
    } else {
      out += static_cast<char>(c);
    }
    if (c != '-' && !(std::isalnum(c) || c == '_')) in_option = false;
    before = static_cast<char>(c);
  }
  if (bold) out += "\\fR";
  return out;
}

// A command, page or option name: every dash the ASCII minus (callers put
// "\%", no hyphenation, at the start of the word).
std::string roff_name(std::string_view name) {
  std::string out;
  for (char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

// Help text as one paragraph: the line breaks of the --help layout become spaces.
std::string paragraph(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return roff(out);
}

// The NAME line's summary: the description's first sentence, lower case first.
std::string summary(const CLI::App& app) {
  std::string text = app.get_description();
  if (text.rfind("virrey: ", 0) == 0) text.erase(0, 8);
  std::replace(text.begin(), text.end(), '\n', ' ');
  for (std::size_t i = 0; i + 1 < text.size(); ++i)
    if ((text[i] == '.' || text[i] == ':') && text[i + 1] == ' ') {
      text.resize(i);
      break;
    }
  if (!text.empty() && text.back() == '.') text.pop_back();
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z' && !(text.size() > 1 && std::isupper(text[1])))
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
  return roff(text);
}

std::string bold_names(const CLI::Option* o) {
  std::string out;
  for (const auto& n : flag_names(o)) out += (out.empty() ? "" : ", ") + ("\\%\\fB" + roff_name(n) + "\\fR");
  return out;
}

std::string placeholder(const CLI::Option* o) {
  const auto choices = choices_of(o);
  std::string out;
  if (choices.empty()) {
    out = "\\fI" + roff(o->get_positional() ? o->get_name(true) : value_type(o)) + "\\fR";
  } else {
    // "\\:" after each bar: a line may break there, as a long list of choices needs.
    for (const auto& c : choices) out += (out.empty() ? "" : "|\\:") + ("\\fI" + roff(c) + "\\fR");
  }
  if (o->get_items_expected_max() > 1) out += " ...\\&";
  return out;
}

// One synopsis line per runnable command: the path, then every option.
void synopsis(std::string& page, const CLI::App& app) {
  const auto subs = commands_of(app);
  if (!subs.empty() && app.get_require_subcommand_min() > 0) {
    for (const CLI::App* sub : subs) synopsis(page, *sub);
    return;
  }
  page += ".PP\n.B " + roff_name(command_path(&app)) + "\n";
  for (const CLI::Option* o : options_of(app)) {
    if (o->check_lname("help")) continue;
    std::string item;
    if (o->get_positional())
      item = placeholder(o);
    else
      item = "\\fB" + roff_name(long_name(o)) + "\\fR" + (takes_value(o) ? "\\ " + placeholder(o) : "");
    page += o->get_required() ? "\\%" + item + "\n" : "\\%[" + item + "]\n";
  }
  if (!subs.empty()) page += "[\\fICOMMAND\\fR ...]\n";
}

void option_list(std::string& page, const CLI::App& app) {
  for (const CLI::Option* o : options_of(app)) {
    page += ".TP\n";
    if (o->get_positional())
      page += placeholder(o) + "\n";
    else
      page += bold_names(o) + (takes_value(o) ? " " + placeholder(o) : "") + "\n";
    std::string help = paragraph(o->get_description());
    if (takes_value(o) && !o->get_default_str().empty())
      help += " (default: " + roff(o->get_default_str()) + ")";
    if (o->get_required()) help += " (required)";
    page += help + "\n";
  }
}

std::string see_also(const std::string& self, const CLI::App& root) {
  std::vector<std::string> pages;
  if (self != "virrey") pages.push_back("virrey");
  for (const CLI::App* sub : commands_of(root))
    if ("virrey-" + sub->get_name() != self) pages.push_back("virrey-" + sub->get_name());
  if (self == "virrey") pages.push_back("virrey-dask");  // the Dask driver installed beside it
  std::string out;
  for (std::size_t i = 0; i < pages.size(); ++i)
    out += "\\%\\fB" + roff_name(pages[i]) + "\\fR(1)" + (i + 1 < pages.size() ? ",\n" : "\n");
  return out;
}

std::string examples(std::string_view command, const std::string& data_dir) {
  std::string out;
  for (const Example& e : kExamples) {
    if (e.command != command) continue;
    std::string line(e.line);
    for (auto at = line.find("$DATA"); at != std::string::npos; at = line.find("$DATA"))
      line.replace(at, 5, data_dir + "/sample-data");
    out += ".PP\n" + roff(e.says) + "\n.PP\n.RS 4\n.EX\n" + roff(line, true) + "\n.EE\n.RE\n";
  }
  return out.empty() ? out : ".SH EXAMPLES\n" + out;
}

std::string common_sections(const CLI::App& app) {
  std::string out = ".SH EXIT STATUS\n";
  for (const ExitCode& e : kExitCodes) out += fmt::format(".TP\n.B {}\n{}\n", e.code, roff(e.meaning));
  out += ".PP\n" + roff(kSignalExitHelp) + "\n";
  const auto formats = format_choices(app);
  if (!formats.empty()) {
    out +=
        ".SH FORMATS\nWhat \\fB\\-\\-format\\fR writes on standard output; results go to standard "
        "output, logs and progress to standard error.\n";
    for (const auto& f : formats)
      for (const auto& [name, help] : kFormatHelp)
        if (name == f) out += ".TP\n.B " + roff(f) + "\n" + roff(help) + "\n";
    out +=
        ".PP\nThe fields of each format are described in the README of virrey "
        "(\\fI/usr/share/doc/virrey/README.md.gz\\fR in the Debian package).\n";
  }
  if (has_option(app, "db"))
    out +=
        ".SH ENVIRONMENT\n.TP\n.B VIRREY_DB\nthe database when \\fB\\-\\-db\\fR is not given "
        "(else \\fI./virrey.db\\fR)\n";
  return out;
}

std::string title(const std::string& name) {
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return ".\\\" Written by virrey " + std::string(kVersion) +
         " from its command-line definitions.\n"
         ".TH " +
         roff_name(upper) + " 1 \"\" \"virrey " + std::string(kVersion) +
         "\" \"User Commands\"\n.ad l\n.nh\n";
}

std::string command_page(const CLI::App& root, const CLI::App& cmd, const std::string& data_dir) {
  const std::string name = "virrey-" + cmd.get_name();
  std::string page = title(name);
  page += ".SH NAME\n" + roff_name(name) + " \\- " + summary(cmd) + "\n";
  page += ".SH SYNOPSIS\n";
  synopsis(page, cmd);
  page += ".SH DESCRIPTION\n" + paragraph(cmd.get_description()) + "\n";
  page += ".SH OPTIONS\n";
  option_list(page, cmd);
  // virrey's own flags, taken before or after the command's name.
  for (const CLI::Option* o : options_of(root))
    if (o->check_lname("quiet") || o->check_lname("verbose"))
      page += ".TP\n" + bold_names(o) + "\n" + paragraph(o->get_description()) +
              " (before or after the command's name)\n";
  const auto subs = commands_of(cmd);
  if (!subs.empty()) {
    page += ".SH COMMANDS\n";
    for (const CLI::App* sub : subs) {
      page += ".SS \"" + roff_name(command_path(sub)) + "\"\n" + paragraph(sub->get_description()) + "\n";
      if (!options_of(*sub).empty()) page += ".PP\nOptions:\n";
      option_list(page, *sub);
      for (const CLI::App* subsub : commands_of(*sub))
        page += ".PP\n\\fB" + roff_name(command_path(subsub)) +
                "\\fR: " + paragraph(subsub->get_description()) + "\n";
    }
  }
  page += common_sections(cmd);
  page += examples(cmd.get_name(), data_dir);
  page += ".SH SEE ALSO\n" + see_also(name, root);
  return page;
}

std::string main_page(const CLI::App& root, const std::string& data_dir) {
  std::string page = title("virrey");
  page += ".SH NAME\nvirrey \\- " + summary(root) + "\n";
  page += ".SH SYNOPSIS\n.PP\n.B virrey\n";
  for (const CLI::Option* o : options_of(root))
    if (!o->check_lname("help") && !o->check_lname("version"))
      page += "[\\fB" + roff_name(long_name(o)) + "\\fR]\n";
  page += "\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.PP\n.B virrey \\-\\-version\n.PP\n.B virrey \\-\\-help\n";
  page += ".SH DESCRIPTION\n" + paragraph(root.get_description()) +
          ".\nOne binary with subcommands over an embedded database (RocksDB): no server to start.\n"
          "Each command has its own page and prints its options with \\fB\\-\\-help\\fR.\n";
  page += ".SH COMMANDS\n";
  for (const CLI::App* sub : commands_of(root))
    page += ".TP\n\\fB" + roff_name("virrey-" + sub->get_name()) + "\\fR(1)\n" + summary(*sub) + "\n";
  page += ".SH OPTIONS\n";
  option_list(page, root);
  page += common_sections(root);
  page += ".SH FILES\n.TP\n.I " + roff(data_dir + "/sample-data", true) +
          "\nsample collections of Virrey, standard and Modern chess games (PGN), made by \\fBvirrey "
          "generate\\fR\n";
  page += examples("", data_dir);
  page += ".SH SEE ALSO\n" + see_also("virrey", root);
  return page;
}

bool write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// --- completion ---------------------------------------------------------------

// Each command as a shell-safe identifier: virrey, virrey_db, virrey_db_info.
std::string command_id(const CLI::App* app) {
  std::string id = command_path(app);
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return id;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Visits `app` and every visible command under it.
void each_command(const CLI::App& app, const std::function<void(const CLI::App&)>& visit) {
  visit(app);
  for (const CLI::App* sub : commands_of(app)) each_command(*sub, visit);
}

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::string spec, values;
  each_command(app, [&](const CLI::App& cmd) {
    std::vector<std::string> subs, opts, valued;
    std::string operands;  // "@files", or the choices of the operand
    for (const CLI::App* sub : commands_of(cmd)) subs.push_back(sub->get_name());
    for (const CLI::Option* o : options_of(cmd)) {
      if (o->get_positional()) {
        const auto choices = choices_of(o);
        operands = choices.empty() ? "@files" : joined(choices);
        continue;
      }
      for (const auto& n : flag_names(o)) {
        opts.push_back(n);
        if (!takes_value(o)) continue;
        valued.push_back(n);
        const auto choices = choices_of(o);
        if (!choices.empty())
          values += fmt::format("    \"{} {}\") words=\"{}\" ;;\n", command_id(&cmd), n, joined(choices));
        else if (is_number(o))
          values += fmt::format("    \"{} {}\") return ;;\n", command_id(&cmd), n);
      }
    }
    // -q and -v are taken after a command's name too.
    if (cmd.get_parent())
      for (const char* global : {"-q", "--quiet", "-v", "--verbose"}) opts.push_back(global);
    spec += fmt::format("    {}) subs=\"{}\" opts=\"{}\" valued=\"{}\" operands=\"{}\" ;;\n",
                        command_id(&cmd), joined(subs), joined(opts), joined(valued), operands);
  });
  return fmt::format(
      R"(# bash completion for virrey {version}, written by `virrey completion bash`
# from the binary's own command-line definitions.

# Sets subs, opts, valued (options that take a value) and operands (@files,
# or the words an operand may be) for the command $1.
_virrey_spec() {{
  subs= opts= valued= operands=
  case $1 in
{spec}  esac
}}

# Completes a file name, one name a line (a name may hold spaces).
_virrey_files() {{
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  compopt -o filenames 2>/dev/null
}}

# Completes the value of option $2 of command $1: fixed choices, nothing for
# numbers, files otherwise.
_virrey_value() {{
  local words=
  case "$1 $2" in
{values}    *) _virrey_files; return ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}

_virrey() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} cmd=virrey i w skip= subs opts valued operands
  # Walk the words before the cursor: subcommands deepen the command, an
  # option that takes a value skips the word after it.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${{COMP_WORDS[i]}}
    if [[ -n $skip ]]; then skip=; [[ $w == = ]] && skip=$w; continue; fi
    _virrey_spec "$cmd"
    if [[ " $valued " == *" $w "* ]]; then skip=$w
    elif [[ $w != -* && " $subs " == *" $w "* ]]; then cmd=${{cmd}}_$w
    fi
  done
  _virrey_spec "$cmd"
  # "--format=" is split by COMP_WORDBREAKS into "--format", "=", "".
  local prev=
  ((COMP_CWORD > 1)) && prev=${{COMP_WORDS[COMP_CWORD-1]}}
  [[ $prev == = && $COMP_CWORD -gt 2 ]] && prev=${{COMP_WORDS[COMP_CWORD-2]}}
  [[ $cur == = ]] && cur=
  if [[ -n $prev && " $valued " == *" $prev "* ]]; then
    _virrey_value "$cmd" "$prev"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $subs ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [[ $operands == @files ]]; then
    _virrey_files
  elif [[ -n $operands ]]; then
    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
  fi
}}
complete -F _virrey virrey
)",
      fmt::arg("version", kVersion), fmt::arg("spec", spec), fmt::arg("values", values));
}

int write_man_pages(const CLI::App& app, const std::string& dir, const std::string& data_dir) {
  std::vector<std::pair<std::string, std::string>> pages{{"virrey", main_page(app, data_dir)}};
  for (const CLI::App* sub : commands_of(app))
    pages.emplace_back("virrey-" + sub->get_name(), command_page(app, *sub, data_dir));
  for (const auto& [name, text] : pages) {
    const std::string path = dir + "/" + name + ".1";
    if (!write_file(path, text)) {
      log::error("cannot write {}", path);
      return kExitIo;
    }
  }
  return kExitOk;
}

}  // namespace virrey::cli
