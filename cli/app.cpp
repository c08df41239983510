// Declares every subcommand's options with CLI11 and runs the chosen one.
// With cli_docs.cpp (which walks the declared options for man pages and
// bash completion), option_checks.cpp and usage_errors.cpp, the only files
// that include CLI11 (it is slow to compile).
#include "app.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include "virrey/base/log.hpp"
#include "virrey/tournament/event.hpp"

#include "analyse_command.hpp"
#include "cli_docs.hpp"
#include "common_options.hpp"
#include "db_command.hpp"
#include "event_command.hpp"
#include "exit_codes.hpp"
#include "export_command.hpp"
#include "generate_command.hpp"
#include "import_command.hpp"
#include "option_checks.hpp"
#include "output.hpp"
#include "perft_command.hpp"
#include "search_command.hpp"
#include "stats_command.hpp"
#include "stats_partial.hpp"
#include "usage_errors.hpp"
#include "validate_command.hpp"
#include "version.hpp"

namespace virrey::cli {

namespace {

// --- the options several commands share ---------------------------------------

// A file or folder named: an empty name is no name (as `cp x ''` refuses
// it), not the option left out; a script's unset variable would otherwise
// skip a check or write where nobody looks.
std::string empty_name_refusal(const std::string& text) {
  return text.empty() ? "is empty (a name is needed)" : std::string();
}
const CLI::Validator kFileName([](std::string& text) { return empty_name_refusal(text); }, "", "a file name");

void add_db_option(CLI::App* cmd, std::string& db) {
  cmd->add_option("--db", db, std::string(kDbHelp))->check(kFileName);
}

// A name is needed: an empty one would read as a PGN's empty Variant tag
// (standard chess).
const CLI::Validator kVariantName(
    [](std::string& text) -> std::string {
      return text.find_first_not_of(" \t") == std::string::npos ? "names no variant (" + variant_names() + ")"
                                                                : std::string();
    },
    "", "variant name");

CLI::Option* add_variant_option(CLI::App* cmd, std::string& variant, const std::string& help) {
  return cmd->add_option("--variant", variant, help)->check(kVariantName);
}
// For games without a Variant tag.
void add_default_variant_option(CLI::App* cmd, std::string& variant) {
  add_variant_option(cmd, variant, "variant of games without a Variant tag (" + variant_names(", ") + ")");
}

// A count where 0 means "all": a negative one is a usage error, said plainly.
const CLI::Validator kNonNegative(
    [](std::string& text) -> std::string {
      return !text.empty() && text[0] == '-' ? "must be 0 or more, not " + text : std::string();
    },
    "", "non-negative");

// A search limit or size, when given, is at least 1 (0 would mean "no
// limit" to some engines and the default to others).
const CLI::Validator kPositive(
    [](std::string& text) -> std::string {
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(text, &used);
      } catch (const std::exception&) {
        return "must be a whole number, not " + text;
      }
      return used == text.size() && v >= 1 ? std::string() : "must be 1 or more, not " + text;
    },
    "", "positive");

// An option given an empty text: a script's unset variable. What leaving the
// option out means is said instead of doing it.
CLI::Validator not_blank(std::string left_out) {
  return CLI::Validator(
      [left_out](std::string& text) -> std::string {
        return text.find_first_not_of(" \t") == std::string::npos
                   ? "is empty (leave the option out for " + left_out + ")"
                   : std::string();
      },
      "", "not blank");
}
// A position or material filter: empty, it would return every game.
const CLI::Validator kNotBlank = not_blank("no filter");
// A position to count or explore from: empty, it would be the start position.
const CLI::Validator kNotBlankPosition = not_blank("the start position");

// --output: a path, or `-` for standard output (as no --output); empty, as
// kFileName. (One transform: CLI11 runs transforms before checks.)
void add_output_option(CLI::App* cmd, std::string& output, const std::string& help) {
  cmd->add_option("--output,-o", output, help + " ('-': standard output)")
      ->transform(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text.empty()) return empty_name_refusal(text);
            if (text == "-") text.clear();
            return std::string();
          },
          "", "path"));
}

// A count of at most `most`, written in digits (no sign, no exponent):
// "-1" would wrap around to the largest count.
CLI::Validator count_at_most(std::uint64_t most) {
  return CLI::Validator(
      [most](std::string& text) -> std::string {
        const bool digits =
            !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || (text.size() == 20 && text > "18446744073709551615") || std::stoull(text) > most)
          return fmt::format("must be a count from 0 to {}, not {}", most, text);
        return std::string();
      },
      "", "count");
}

void add_threads_option(CLI::App* cmd, int& threads, const std::string& help) {
  cmd->add_option("--threads,-t", threads, help)->capture_default_str();
}

// The PGN inputs of validate and import, and where their rejected games go.
void add_inputs_option(CLI::App* cmd, std::vector<std::string>& inputs, const std::string& help) {
  // Not checked here: an input that cannot be read is the command's to
  // report (exit 3), and the other inputs are still read.
  cmd->add_option("inputs", inputs, help);
}
void add_rejects_option(CLI::App* cmd, std::string& rejects) {
  cmd->add_option("--rejects", rejects,
                  "write the games with errors here, byte for byte as read (a game over the\n"
                  "32 MiB limit is skipped unread: reported, not written)")
      ->check(kFileName);
}

// --format, one of `accepted`; the help text names them after `help_prefix`,
// or is `help` when given.
void add_format_option(CLI::App* cmd, Format& format, std::initializer_list<Format> accepted,
                       const std::string& help_prefix = "", const std::string& help = "") {
  std::vector<std::string> names;
  for (Format f : accepted) names.emplace_back(format_name(f));
  auto* option = cmd->add_option_function<std::string>(
      "--format", [&format](const std::string& name) { format = parse_format(name).value_or(format); },
      help.empty() ? help_prefix + name_list(std::vector<std::string_view>(names.begin(), names.end()))
                   : help);
  option->check(CLI::IsMember(names));
  option->default_str(std::string(format_name(format)));
}

// --- the commands -------------------------------------------------------------

void add_perft(CLI::App& app, PerftOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand("perft",
                                 "Count the leaf nodes of the legal move tree of a position.\n"
                                 "The last ply is counted in bulk: the legal moves at depth 1 "
                                 "are counted, not played.");
  add_variant_option(cmd, o.variant, variant_names())->capture_default_str();
  auto* fen =
      cmd->add_option("--fen", o.fen, "the position (default: the start position)")->check(kNotBlankPosition);
  cmd->add_flag("--startpos", o.startpos, "use the variant's start position (the default)")->excludes(fen);
  cmd->add_option("--depth,-d", o.depth, "plies to search (0-20)")->required();
  cmd->add_flag("--divide", o.divide, "list every root move with its count");
  add_threads_option(cmd, o.threads, "threads (root moves are shared out)");
  add_format_option(cmd, o.format, {Format::Text, Format::Json});
  cmd->callback(std::move(run));
}

void add_generate(CLI::App& app, GenerateOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "generate",
      "Write legal games made from a seed, as PGN: round-robin tournaments of invented players,\n"
      "moves biased towards pawn advances, captures and promotions, results that the final\n"
      "position bears out. The same options always give the same bytes.");
  add_variant_option(cmd, o.variant, variant_names())->capture_default_str();
  cmd->add_option("--games,-n", o.games, "how many games")
      ->check(count_at_most(std::uint64_t(1) << 40))
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "names the collection")->capture_default_str();
  cmd->add_option("--first", o.first, "index of the first game (to make a collection in parts)")
      ->check(count_at_most(std::uint64_t(1) << 40))
      ->capture_default_str();
  add_output_option(cmd, o.output, "write here instead of standard output");
  add_threads_option(cmd, o.threads, "generate on this many threads (same output)");
  cmd->add_flag("--stats", o.stats, "print endings, results and promotions on stderr");
  cmd->add_option("--system", o.system,
                  "round-robin (10-player round robins, --games counts games) or swiss (one Swiss "
                  "tournament of --players and --rounds)")
      ->check(CLI::IsMember({"round-robin", "swiss"}))
      ->capture_default_str();
  cmd->add_option("--players", o.players, "swiss: players (2-4000)")->capture_default_str();
  cmd->add_option("--rounds", o.rounds, "swiss: rounds (fewer than the players)")->capture_default_str();
  cmd->add_option("--engine", o.engine,
                  "play engine against engine instead (a program, or 'default': the variant's engine)")
      ->check(kFileName);
  cmd->add_option("--protocol", o.protocol, "the engine's protocol: uci (default) or xboard")
      ->check(CLI::IsMember({"uci", "xboard"}));
  cmd->add_option("--nodes", o.nodes, "with --engine: nodes per move (the second player four times as many)")
      ->check(kPositive)
      ->capture_default_str();
  cmd->add_option("--opening-plies", o.opening_plies, "with --engine: random plies before the engines play")
      ->check(kNonNegative)
      ->capture_default_str();
  cmd->callback([cmd, &o, run = std::move(run)] {
    o.given = names_given(cmd->get_options(), {});
    run();
  });
}

void add_validate(CLI::App& app, ValidateOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "validate",
      "Check every move of every game (main line and variations), the tags and the results.\n"
      "Inputs are paths or '-' (standard input; the default); gzip and zstd are recognised\n"
      "by content. Exit 0: no game has an error; 1: some game has one; 2: a bad option;\n"
      "3: an input or output could not be read or written.");
  add_inputs_option(cmd, o.inputs, "PGN files, or '-' for standard input");
  add_default_variant_option(cmd, o.variant);
  cmd->add_flag("--strict", o.strict, "count warnings as errors");
  cmd->add_flag("--export-notation", o.export_notation,
                "also warn about notation PGN export format forbids: 0-0, Ngf3 where Nf3 is enough,\n"
                "a check or mate without +/#, move numbers out of sequence, lines over 255 characters");
  cmd->add_flag("--no-event-checks", o.no_event_checks,
                "leave out the checks of games that share an Event as one tournament (rounds, pairings,\n"
                "players, dates, results)");
  add_format_option(cmd, o.format, {Format::Text, Format::Json, Format::Jsonl});
  add_threads_option(cmd, o.threads, "check games on this many threads (output order is kept)");
  cmd->add_option("--max-errors", o.max_errors,
                  "print at most this many errors (0: all); the summary still counts every one")
      ->check(kNonNegative);
  cmd->add_option("--output,-o", o.output,
                  "write the valid games here, normalised (PGN export format; '-': standard output, the "
                  "report then on standard error)")
      ->check(kFileName);
  add_rejects_option(cmd, o.rejects);
  cmd->callback(std::move(run));
}

std::vector<CLI::Option*> add_filter_options(CLI::App* cmd, FilterOptions& f, bool positions);

void add_event(CLI::App& app, EventOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "event",
      "The tournaments of PGN games (grouped by Event, split by EventDate and Site): standings with\n"
      "the FIDE tie-breaks, crosstable (round robin grid, Swiss rounds, knockout matches), as text,\n"
      "json, csv, trf (FIDE TRF-16) or one html page. --trf compares an arbiter's TRF with the games.\n"
      "Inputs are PGN files or '-' (the default), or a database with --db and the filters of search.\n"
      "Exit 0: done; 1: --trf found disagreements, --event names no tournament, or a tournament is\n"
      "too large for a report or for a TRF's columns; 2: usage;\n"
      "3: an input, the database or the output could not be read or written.");
  add_inputs_option(cmd, o.inputs, "PGN files, or '-' for standard input");
  auto* db = cmd->add_option("--db", o.db, "read the games of this database (with the filters of search)")
                 ->check(kFileName);
  std::vector<CLI::Option*> filters = add_filter_options(cmd, o.filter, false);
  cmd->add_option("--system", o.system, "auto, round-robin, double-round-robin, swiss or knockout")
      ->type_name("TEXT:{auto,round-robin,double-round-robin,swiss,knockout}")
      ->capture_default_str();
  // The tie-breaks' names, from their table, in lines of about 80 columns.
  std::string tiebreaks_help = "tie-breaks in order, comma-separated:";
  for (int i = 0, column = int(tiebreaks_help.size()); i < tournament::kTieBreakCount; ++i) {
    const std::string name(tournament::tie_break_name(tournament::TieBreak(i)));
    if (column + int(name.size()) + 2 > 80) {
      tiebreaks_help += "\n";
      column = 0;
    } else {
      tiebreaks_help += " ";
      ++column;
    }
    tiebreaks_help += name + ",";
    column += int(name.size()) + 1;
  }
  tiebreaks_help.pop_back();  // the last comma
  cmd->add_option("--tiebreaks", o.tiebreaks,
                  tiebreaks_help + "\n(default: FIDE's recommendation for the system)");
  add_format_option(cmd, o.format, {Format::Text, Format::Json, Format::Csv, Format::Trf, Format::Html});
  add_output_option(cmd, o.output, "write here instead of standard output");
  cmd->add_option("--trf", o.trf, "compare this TRF file with the games and list every disagreement")
      ->check(kFileName);
  add_threads_option(cmd, o.threads, "check games on this many threads");
  cmd->callback([&o, db, filters = std::move(filters), run] {
    o.use_db = db->count() > 0;
    // --variant also names the variant of untagged inputs, --event picks a tournament of them.
    o.filters_given = names_given(filters, {"--variant", "--event"});
    run();
  });
}

void add_search(CLI::App& app, SearchOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "search",
      "Find the games of a database by position, promotion and tags (filters combine with AND).\n"
      "A position matches exactly (pieces, side to move, castling, en passant; transpositions\n"
      "included; every hit is confirmed by replaying the game, never by hash alone).\n"
      "Exit 0: done, also when nothing matches; 1: nothing matches and --fail-empty; 2: a bad\n"
      "FEN, SAN, range or option; 3: the database cannot be read.");
  add_db_option(cmd, o.db);
  add_filter_options(cmd, o.filter, true);
  auto* limit = cmd->add_option("--limit", o.limit, "games per page (0: all)")->capture_default_str();
  auto* offset = cmd->add_option("--offset", o.offset, "skip this many matches")
                     ->capture_default_str()
                     ->check(count_at_most(std::uint64_t(1) << 40));
  auto* sort = cmd->add_option("--sort", o.sort, "id (import order) or date")
                   ->check(CLI::IsMember({"id", "date"}))
                   ->capture_default_str();
  // A count is of every match: the options of the games listed do not apply.
  auto* count = cmd->add_flag("--count", o.count, "print only the number of matching games")
                    ->excludes(limit)
                    ->excludes(offset)
                    ->excludes(sort);
  count->excludes(cmd->add_flag("--show", o.show,
                                "draw the matched position of each game (text; fen in json/jsonl/csv)"));
  add_format_option(cmd, o.format, {Format::Text, Format::Pgn, Format::Json, Format::Jsonl, Format::Csv});
  cmd->add_flag("--fail-empty", o.fail_empty, "exit 1 when no game matches");
  cmd->add_flag("--explain", o.explain, "log how the query runs");
  cmd->callback(std::move(run));
}

void add_import(CLI::App& app, ImportOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "import",
      "Validate PGN games as `validate` does and store the valid ones in a database, with every\n"
      "main-line position, the opening tree, tags and promotions indexed. Games with errors are\n"
      "reported and not stored; a game equal to a stored one (variant, start, moves, Seven Tag\n"
      "Roster) is counted as a duplicate. An input imported before is recognised by its content\n"
      "and skipped. Games are committed every few seconds, each whole with its index entries:\n"
      "a killed import keeps what it committed, and running it again completes it.\n"
      "Exit 0: done; 1: some games had errors (the others are stored); 2: a bad option;\n"
      "3: I/O or database error.");
  add_inputs_option(cmd, o.inputs, "PGN files (gzip, zstd recognised), or '-' for standard input");
  add_db_option(cmd, o.db);
  add_default_variant_option(cmd, o.variant);
  add_threads_option(cmd, o.threads, "threads for checking and indexing (0: every core)");
  add_rejects_option(cmd, o.rejects);
  add_format_option(cmd, o.format, {Format::Text, Format::Json}, "summary as ");
  cmd->add_flag("--force", o.force,
                "read inputs imported before all the same (duplicates are still skipped)");
  cmd->add_flag("--compact", o.compact, "compact the database afterwards (smaller, faster to read)");
  cmd->add_option("--openings", o.openings,
                  "then name the new games' openings from this ECO file (db classify)")
      ->check(kFileName);
  cmd->add_option("--commit-interval", o.commit_interval,
                  "seconds between commits: readers see the games, a killed import keeps them")
      ->capture_default_str();
  cmd->callback(std::move(run));
}

void add_export(CLI::App& app, ExportOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "export",
      "Write the stored games back as PGN (tags, moves, comments, NAGs, variations) or JSON Lines.");
  add_db_option(cmd, o.db);
  add_variant_option(cmd, o.variant, "only games of this variant");
  cmd->add_option("--limit", o.limit, "at most this many games (0: all)")
      ->capture_default_str()
      ->check(kNonNegative);
  add_format_option(cmd, o.format, {Format::Pgn, Format::Jsonl});
  add_output_option(cmd, o.output, "write here instead of standard output");
  cmd->callback(std::move(run));
}

void add_db(CLI::App& app, DbOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "db", "Inspect, check, upgrade, merge or classify databases; build the square index.");
  cmd->require_subcommand(1);
  auto* info = cmd->add_subcommand(
      "info", "Games and positions per variant, schema version and the size of each part.");
  auto* check =
      cmd->add_subcommand("check",
                          "Verify every index entry and counter against the game records.\n"
                          "Exit 0: consistent; 1: problems found (listed); 3: the database cannot be read.");
  auto* upgrade = cmd->add_subcommand(
      "upgrade",
      "Bring a database written by an older virrey to this schema: its position index,\n"
      "opening tree and game summaries are rebuilt from the game records. Safe to interrupt\n"
      "and run again.\n"
      "Exit 0: upgraded or already current; 3: the database cannot be upgraded.");
  auto* merge = cmd->add_subcommand(
      "merge",
      "Fold databases (shards) into --db, created when missing: their games are appended in the\n"
      "order given and renumbered, every index and the opening tree merged; a game equal to one\n"
      "stored before is counted as a duplicate and not stored, as import counts it. The result\n"
      "answers every search and statistic as one database importing the shards' inputs in that\n"
      "order. Each source is added atomically (or, when it repeats stored games, game by game):\n"
      "an interrupted merge leaves --db consistent, and running it again completes it.\n"
      "Exit 0: merged; 3: a database cannot be read or written, or --db would pass 2^32 - 2 games.");
  merge->add_option("sources", o.sources, "the databases to merge (directories)")->required();
  add_threads_option(merge, o.threads, "indexing threads for a source imported game by game (0: every core)");
  auto* classify = cmd->add_subcommand(
      "classify",
      "Name every game's opening from an ECO file (pgn-extract's eco.pgn or Scid's .eco): the\n"
      "deepest position of the game's main line that a line of the file reaches names it, so a\n"
      "game that transposes into a line takes its name. Search and stats use it (--opening, --eco,\n"
      "stats results --by opening); the opening explorer names the file's positions.\n"
      "Exit 0: done; 2: the ECO file is malformed (file:line:column named); 3: I/O or database error.");
  classify->add_option("--openings", o.openings, "the ECO file")->required()->check(kFileName);
  auto* squares = cmd->add_subcommand(
      "squares",
      "Build the square index: when each square's content changes in every game, about two bytes\n"
      "a ply. Pattern searches (--pattern, --fenpattern) then read the squares a pattern names\n"
      "instead of replaying games. Once built, import and db merge extend it; run again to bring\n"
      "it up to date after an interrupted import. Safe to interrupt and run again.\n"
      "Exit 0: built (or removed); 3: the database cannot be read or written.");
  squares->add_flag("--drop", o.drop, "remove the square index (searches replay games again)");
  for (auto* sub : {info, check, upgrade, merge, classify, squares}) {
    add_db_option(sub, o.db);
    add_format_option(sub, o.format, {Format::Text, Format::Json});
    sub->callback([&o, sub, run] {
      o.action = sub->get_name();
      run();
    });
  }
}

// The game-feature filters (cli/filter_options.hpp, FeatureOptions).
// `plies_names`: the game length's option names (`analyse` has its own
// --plies, the moves it judges).
void add_feature_options(CLI::App* cmd, FeatureOptions& f, const std::string& plies_names) {
  cmd->add_option("--ending", f.ending, "how the main line ends: checkmate, stalemate or other")
      ->type_name("TEXT:{checkmate,stalemate,other}");
  cmd->add_option("--mate-by", f.mate_by, "checkmates given by this piece: K Q R B N P V M");
  cmd->add_option(plies_names, f.plies, "games of A-B plies (also A-, -B, A)");
  cmd->add_option("--elo", f.elo, "ratings in A-B (also A-, -B)");
  cmd->add_option("--elo-of", f.elo_of, "... of both players (default), either, or their average")
      ->type_name("TEXT:{both,either,average}");
  cmd->add_option("--time-control", f.time_control,
                  "a class (bullet, blitz, rapid, ...) or a TimeControl value");
  cmd->add_option("--termination", f.termination, "the Termination tag (case-insensitive)");
}

// The game filters of search and stats (cli/filter_options.hpp). `positions`:
// also --fen and --moves. `by_names`: the promotion side's option names
// (`stats results` has its own --by, the grouping).
// The options added, in their order (which of them a command line gave:
// names_given).
std::vector<CLI::Option*> add_filter_options(CLI::App* cmd, FilterOptions& f, bool positions,
                                             const std::string& by_names,
                                             const std::string& plies_names = "--plies,--game-plies") {
  const std::size_t before = cmd->get_options().size();
  if (positions) {
    auto* fen = cmd->add_option("--fen", f.fen, "games that pass through this position")->check(kNotBlank);
    cmd->add_option("--moves", f.moves, "... or through the position after these SAN moves")
        ->excludes(fen)
        ->check(kNotBlank);
  }
  cmd->add_option("--promotion", f.promotion, "games with a promotion to V, Q, R, B, N or M");
  cmd->add_option(by_names, f.by, "promotions by white or black")->type_name("TEXT:{white,black}");
  cmd->add_option("--file", f.file, "promotions on this file (a-i)");
  cmd->add_option("--min-count", f.min_count, "at least N such promotions by one side");
  cmd->add_option("--ply", f.ply, "promotions at plies A-B (also A-, -B, A)");
  cmd->add_option("--white", f.white, "White's name (case-insensitive)");
  cmd->add_option("--black", f.black, "Black's name");
  cmd->add_option("--player", f.player, "either player's name, or its beginning");
  cmd->add_option("--event", f.event, "the Event tag");
  cmd->add_option("--site", f.site, "the Site tag");
  cmd->add_option("--round", f.round, "the Round tag");
  cmd->add_option("--result", f.result, "1-0, 0-1, 1/2-1/2 or *");
  cmd->add_option("--date-from", f.date_from, "dated on or after yyyy[.mm[.dd]]");
  cmd->add_option("--date-to", f.date_to, "dated on or before yyyy[.mm[.dd]] (a whole year or month)");
  cmd->add_option("--eco", f.eco, "the ECO code, or a range A00-B99 (db classify's, else the ECO tag)");
  cmd->add_option("--opening", f.opening,
                  "a part of the opening's name, case-blind (db classify's, else tags)");
  cmd->add_option("--material", f.material.spec,
                  "a material balance the game reaches: KVR-KR, or terms like 'Q=0 V>=1 vs Q=1' (README)")
      ->check(kNotBlank);
  cmd->add_option("--material-plies", f.material.plies, "... held for at least N consecutive plies");
  cmd->add_option("--pattern", f.pattern.pieces,
                  "men on squares in one position: terms like 'Vd5 Pc4 Pe4 !pd?' (README; repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--fenpattern", f.pattern.fen,
                  "a position matching this FEN pattern, in pgn-extract's syntax (repeatable: any of them)")
      ->allow_extra_args(false);
  cmd->add_option("--to-move", f.pattern.to_move, "... with white or black to move")
      ->type_name("TEXT:{white,black}");
  cmd->add_option("--pattern-plies", f.pattern.plies, "... at plies A-B (also A-, -B, A)");
  cmd->add_flag("--either-colour,--either-color", f.material.either_colour,
                "material and patterns with White's and Black's men either way round");
  add_feature_options(cmd, f.features, plies_names);
  add_variant_option(cmd, f.variant, variant_names());
  std::vector<CLI::Option*> added = cmd->get_options();
  added.erase(added.begin(), added.begin() + std::ptrdiff_t(before));
  return added;
}

std::vector<CLI::Option*> add_filter_options(CLI::App* cmd, FilterOptions& f, bool positions) {
  return add_filter_options(cmd, f, positions, "--by,--promotion-by");
}

// The engine and its limits: what analyse searches with, and what selects
// the cache entries of a database (cli/engine_options.hpp).
void add_engine_options(CLI::App* cmd, EngineOptions& o) {
  cmd->add_option("--engine", o.engine, "the engine program (path, or a name on PATH or in /usr/games)")
      ->check(kFileName);
  cmd->add_option("--protocol", o.protocol, "the engine's protocol: uci (default) or xboard")
      ->check(CLI::IsMember({"uci", "xboard"}));
  auto* nodes =
      cmd->add_option("--nodes", o.nodes, "nodes per position (the default: 100000)")->check(kPositive);
  auto* depth = cmd->add_option("--depth", o.depth, "plies per position")->excludes(nodes)->check(kPositive);
  cmd->add_option("--movetime", o.movetime, "milliseconds per position")
      ->excludes(nodes)
      ->excludes(depth)
      ->check(kPositive);
  cmd->add_option("--hash", o.hash, "the engine's hash table in MB")->check(kPositive);
  cmd->add_option("--engine-option", o.engine_options, "an engine option NAME=VALUE (repeatable)");
}

void add_analyse(CLI::App& app, AnalyseOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "analyse",
      "Analyse games with a chess engine: the position before and after every main-line move is\n"
      "evaluated and each move judged by the winning chances it loses (lichess's model, see the\n"
      "README): ?! inaccuracy, ? mistake, ?? blunder. Games come from PGN files, or from the\n"
      "database (its filters choose them); with a database, results are cached there by variant,\n"
      "position, engine and limits, so a position is searched once and a rerun resumes.\n"
      "Default engines (Debian packages): stockfish, sjaakii (Virrey, XBoard variant viceroy),\n"
      "fairy-stockfish (Modern, UCI_Variant modern), found on PATH or in /usr/games.\n"
      "Exit 0: done; 1: some positions or games were left unevaluated (an engine crashed, hung,\n"
      "answered an illegal move or does not play the variant: listed on stderr); 2: usage error;\n"
      "3: no engine, an engine that plays none of the games, or an I/O or database error;\n"
      "141: the reader of the output went away.");
  cmd->add_option("inputs", o.inputs, "PGN files, or '-' for standard input (default: the games of --db)");
  add_db_option(cmd, o.db);
  std::vector<CLI::Option*> filters =
      add_filter_options(cmd, o.filter, true, "--by,--promotion-by", "--game-plies");
  add_engine_options(cmd, o.engine);
  cmd->add_option("--engine-timeout", o.engine.engine_timeout,
                  "seconds an engine may take beyond its limit before it is restarted")
      ->capture_default_str();
  cmd->add_option("--jobs,-j", o.jobs, "engine processes (the output order is the input order)")
      ->capture_default_str();
  cmd->add_option("--plies", o.plies, "judge only the moves at plies A-B (also A-, -B, A)");
  cmd->add_option("--side", o.side, "judge only white's or black's moves")
      ->check(CLI::IsMember({"white", "black"}));
  add_format_option(cmd, o.format, {Format::Pgn, Format::Jsonl, Format::Text, Format::Json, Format::Csv}, "",
                    "pgn (annotated), jsonl (a move a line), or the summary as text, json or csv");
  cmd->add_flag("--summary", o.summary, "with pgn or jsonl: also the summary as text on stderr");
  cmd->add_flag("--cached", o.cached,
                "search nothing: judge the moves from the database's cache only (accuracy statistics)");
  add_output_option(cmd, o.output, "write here instead of standard output");
  cmd->callback([&o, filters = std::move(filters), run = std::move(run)] {
    // --variant also names the variant of untagged inputs.
    o.filters_given = names_given(filters, {"--variant"});
    run();
  });
}

struct StatsCommands {
  StatsOpeningsOptions openings;
  StatsResultsOptions results;
  StatsPromotionsOptions promotions;
  StatsGamesOptions games;
  StatsEndgamesOptions endgames;
  StatsPlayersOptions players;
  StatsMergeOptions merge;
};

void add_stats(CLI::App& app, StatsCommands& o, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "stats",
      "Statistics over a database: opening explorer, results, promotions, game lengths and endings,\n"
      "players' accuracy from the engine analysis cache. Every statistic takes the filters of `search`\n"
      "(they choose the games). --format text (aligned tables, bars), json or csv (field names in the\n"
      "README), or partial: exact partial results that `stats merge` folds together (shards).\n"
      "Exit 0: done; 1: stats players found no analysis; 2: a bad FEN, SAN or option; 3: the\n"
      "database cannot be read, or no engine.");
  cmd->require_subcommand(1);
  auto common = [](CLI::App* sub, StatsCommonOptions& c, bool positions, bool by = true) {
    add_db_option(sub, c.db);
    add_format_option(sub, c.format, {Format::Text, Format::Json, Format::Csv, Format::Partial});
    add_filter_options(sub, c.filter, positions, by ? "--by,--promotion-by" : "--promotion-by");
  };
  auto* openings = cmd->add_subcommand(
      "openings",
      "The moves played from a position: games, White wins, draws, Black wins, score for the side\n"
      "that moves, average Elo, last date; transpositions merged; most played first.");
  openings->add_option("--fen", o.openings.fen, "the position (default: the start position)")
      ->check(kNotBlankPosition);
  openings->add_option("--moves", o.openings.moves, "SAN moves played from there, e.g. --moves e4 e5 Nf3")
      ->check(kNotBlankPosition);
  openings->add_option("--depth,-d", o.openings.depth, "plies of the tree to print (1-20)")
      ->capture_default_str();
  openings->add_option("--min-games", o.openings.min_games, "leave out moves played in fewer games")
      ->capture_default_str();
  openings->add_option("--top", o.openings.top, "at most this many moves per position (0: all)")
      ->capture_default_str();
  openings
      ->add_option("--expand", o.openings.expand,
                   "with --format partial: also follow the moves of this merged partial of the same\n"
                   "query (shards merged in rounds, so that transpositions across them count)")
      ->check(kFileName);
  common(openings, o.openings, false);
  openings->callback([&opts = o.openings, &ec = exit_code] { ec = run_stats_openings(opts); });

  auto* results = cmd->add_subcommand(
      "results", "Counts and percentages of 1-0, 1/2-1/2, 0-1 and *, decisive rate, average length.");
  results
      ->add_option("--by", o.results.by,
                   "group by none, variant, year, event, player, eco, opening, rating-band or time-control")
      ->check(CLI::IsMember(
          {"none", "variant", "year", "event", "player", "eco", "opening", "rating-band", "time-control"}))
      ->capture_default_str();
  results->add_option("--band", o.results.band, "with --by rating-band: the band width (default 200)")
      ->check(CLI::Range(1, 4000));
  auto* sort = results->add_option("--sort", o.results.sort, "natural, games (most first) or key")
                   ->check(CLI::IsMember({"natural", "games", "key"}))
                   ->capture_default_str();
  auto* limit = results->add_option("--limit", o.results.limit, "groups shown (0: all)")
                    ->capture_default_str()
                    ->check(kNonNegative);
  common(results, o.results, true, false);
  results->callback([&opts = o.results, &ec = exit_code, sort, limit] {
    // One group (--by none): nothing to sort or cut.
    if (opts.by == "none" && (sort->count() || limit->count())) {
      log::error("{} sorts or cuts the groups of --by: with --by none there is one",
                 sort->count() ? "--sort" : "--limit");
      ec = kExitUsage;
      return;
    }
    ec = run_stats_results(opts);
  });

  auto* promotions = cmd->add_subcommand(
      "promotions",
      "Promotions by piece, file and colour; for viceroys: games with one, most in one game, the\n"
      "average ply of the first, the score of the side that made the first, how often the viceroy\n"
      "was captured later and how often it gave mate.");
  common(promotions, o.promotions, true);
  promotions->callback([&opts = o.promotions, &ec = exit_code] { ec = run_stats_promotions(opts); });

  auto* games = cmd->add_subcommand(
      "games", "Game lengths (percentiles and a histogram) and how games ended, per variant.");
  games->add_option("--bin", o.games.bin, "histogram bin width in plies (0: automatic)")
      ->capture_default_str();
  common(games, o.games, true);
  games->callback([&opts = o.games, &ec = exit_code] { ec = run_stats_games(opts); });

  auto* endgames = cmd->add_subcommand(
      "endgames",
      "The material balances games reach when they first come down to N men or fewer (kings and\n"
      "pawns included), per variant: games, White wins, draws, Black wins and White's score; most\n"
      "frequent first. Games that never come down to N men are left out.");
  endgames->add_option("--men", o.endgames.men, fmt::format("at most this many men (2-{})", kMaxEndgameMen))
      ->capture_default_str();
  common(endgames, o.endgames, true);
  endgames->callback([&opts = o.endgames, &ec = exit_code] { ec = run_stats_endgames(opts); });
  auto* players = cmd->add_subcommand(
      "players",
      "Players' accuracy from the analysis cache (filled by `virrey analyse --db`): games, moves\n"
      "judged, average centipawn loss, accuracy, inaccuracies, mistakes and blunders, and the moves\n"
      "the cache holds no evaluation for. The engine options select the cache entries as analyse\n"
      "made them (the engine is started to learn its name and version; nothing is searched).\n"
      "Exit 1: the cache holds nothing for these games, engine and limits.");
  add_engine_options(players, o.players.engine);
  common(players, o.players, true);
  players->callback([&opts = o.players, &ec = exit_code] { ec = run_stats_players(opts); });

  auto* merge = cmd->add_subcommand(
      "merge",
      "Fold partial results (`stats ... --format partial` on each shard, the same query) into the\n"
      "output one database holding the shards' games in the order given would print.\n"
      "Exit 0: done; 1: stats players found no move judged (as on one database); 2: partials of\n"
      "different statistics or queries, or not partial results; 3: a file cannot be read.");
  merge->add_option("partials", o.merge.partials, "partial results, files or '-' for standard input")
      ->required();
  add_format_option(merge, o.merge.format, {Format::Text, Format::Json, Format::Csv, Format::Partial});
  merge->callback([&opts = o.merge, &ec = exit_code] { ec = run_stats_merge(opts); });
}

// The commands that describe the others from their definitions: the shell
// completion script, and (hidden, for the build) the man pages.
struct DocsOptions {
  std::string shell = "bash";
  std::string man_dir;
  std::string data_dir = "/usr/share/virrey";
};

void add_docs_commands(CLI::App& app, DocsOptions& o, int& exit_code) {
  auto* completion = app.add_subcommand(
      "completion",
      "Print the shell completion script of virrey, made from its own command-line definitions:\n"
      "subcommands, options, the values of --format and --variant, files. Installed with virrey;\n"
      "to try it in the running shell: source <(virrey completion bash).");
  completion->add_option("shell", o.shell, "the shell")
      ->check(CLI::IsMember({"bash"}))
      ->capture_default_str();
  completion->callback([&app, &exit_code] {
    const std::string script = bash_completion(app);
    const bool ok =
        std::fwrite(script.data(), 1, script.size(), stdout) == script.size() && std::fflush(stdout) == 0;
    if (!ok) log::error("cannot write standard output");
    exit_code = ok ? kExitOk : kExitIo;
  });
  auto* man = app.add_subcommand("write-man-pages", "Write virrey.1 and virrey-COMMAND.1 into DIR.");
  man->group("");
  man->add_option("dir", o.man_dir, "the folder to write into")->required()->check(CLI::ExistingDirectory);
  man->add_option("--data-dir", o.data_dir, "where the sample data is installed")->capture_default_str();
  man->callback([&app, &o, &exit_code] { exit_code = write_man_pages(app, o.man_dir, o.data_dir); });
}

// Each command's help names the flags every command takes (-q, -v), which
// are the main command's and so not in the command's own option list.
void add_global_flags_footer(CLI::App* app) {
  for (CLI::App* sub : app->get_subcommands({})) {
    sub->footer(
        sub->get_footer() +
        "\nAlso, before or after the command's name: -q, --quiet (only errors on stderr); -v, --verbose\n"
        "(more log output on stderr).");
    add_global_flags_footer(sub);
  }
}

}  // namespace

// The first argument that is not a global flag: the subcommand, if it names one.
std::string_view first_argument(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg != "-v" && arg != "--verbose" && arg != "-q" && arg != "--quiet") return arg;
  }
  return {};
}

int run_app(int argc, char** argv) {
  remember_command_line(argc, argv);
  CLI::App app{"virrey: PGN database and analysis for chess variants (Virrey, standard, Modern)"};
  app.footer(kExitCodesHelp);
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("virrey ") + kVersion, "print the version and exit");
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "more log output on stderr");
  app.add_flag("-q,--quiet", quiet, "only errors on stderr");
  // -q and -v also after the command's name (`virrey import -q ...`).
  app.fallthrough();

  int exit_code = kExitOk;
  PerftOptions perft;
  ValidateOptions validate;
  GenerateOptions generate;
  SearchOptions search;
  ImportOptions import_options;
  ExportOptions export_options;
  DbOptions db_options;
  StatsCommands stats;
  EventOptions event;
  AnalyseOptions analyse_options;
  const std::pair<std::string_view, std::function<void()>> subcommands[] = {
      {"perft", [&] { add_perft(app, perft, [&] { exit_code = run_perft(perft); }); }},
      {"validate", [&] { add_validate(app, validate, [&] { exit_code = run_validate(validate); }); }},
      {"generate", [&] { add_generate(app, generate, [&] { exit_code = run_generate(generate); }); }},
      {"search", [&] { add_search(app, search, [&] { exit_code = run_search(search); }); }},
      {"import", [&] { add_import(app, import_options, [&] { exit_code = run_import(import_options); }); }},
      {"export", [&] { add_export(app, export_options, [&] { exit_code = run_export(export_options); }); }},
      {"db", [&] { add_db(app, db_options, [&] { exit_code = run_db(db_options); }); }},
      {"stats", [&] { add_stats(app, stats, exit_code); }},
      {"event", [&] { add_event(app, event, [&] { exit_code = run_event(event); }); }},
      {"analyse",
       [&] { add_analyse(app, analyse_options, [&] { exit_code = run_analyse(analyse_options); }); }},
  };
  // Only the subcommand the command line names is set up (setting up all of
  // them is a noticeable part of a short query's start-up); all of them when
  // it names none, for the help text, the error message and the commands that
  // describe the others.
  const std::string_view first = first_argument(argc, argv);
  const bool named = std::any_of(std::begin(subcommands), std::end(subcommands),
                                 [&](const auto& c) { return c.first == first; });
  for (const auto& [name, add] : subcommands)
    if (!named || name == first) add();
  DocsOptions docs;
  add_docs_commands(app, docs, exit_code);
  refuse_option_names_as_values(&app);
  add_global_flags_footer(&app);

  app.parse_complete_callback([&] {
    log::set_level(quiet ? log::Level::error : verbose ? log::Level::debug : log::Level::info);
  });
  // `--output=` (a script's `--output="$UNSET"`): CLI11 would take the next
  // word for the value (an input, then written over). No option takes an
  // empty value so.
  for (std::string_view word : command_line_words()) {
    if (word == "--") break;
    if (word.size() > 3 && word.starts_with("--") && word.find('=') == word.size() - 1) {
      log::error("{}: is empty (a value is needed after '=')", word.substr(0, word.size() - 1));
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (const auto message = unknown_command(app, argc, argv)) {
      log::error("{}", *message);
      return kExitUsage;
    }
    // A misspelt option (`perft --depht 3`) is the mistake to name, not the
    // option it left missing.
    if (!write_stray_arguments(app)) write_usage_error(app, e);
    return kExitUsage;
  } catch (const CLI::ExtrasError& e) {
    if (!write_stray_arguments(app)) write_usage_error(app, e);
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    write_usage_error(app, e);
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace virrey::cli
