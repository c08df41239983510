// Declares every subcommand's options with CLI11 and runs the chosen one.
// This is the only file that includes CLI11 (it is slow to compile).
#include "app.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "exit_codes.hpp"
#include "perft_command.hpp"
#include "validate_command.hpp"

namespace virrey::cli {

namespace {

void add_perft(CLI::App& app, PerftOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand("perft",
                                 "Count the leaf nodes of the legal move tree of a position.\n"
                                 "The last ply is counted in bulk: the legal moves at depth 1 "
                                 "are counted, not played.");
  cmd->add_option("--variant", o.variant, "standard or virrey")->capture_default_str();
  auto* fen = cmd->add_option("--fen", o.fen, "the position (default: the start position)");
  cmd->add_flag("--startpos", o.startpos, "use the variant's start position (the default)")->excludes(fen);
  cmd->add_option("--depth,-d", o.depth, "plies to search (0-20)")->required();
  cmd->add_flag("--divide", o.divide, "list every root move with its count");
  cmd->add_option("--threads,-t", o.threads, "threads (root moves are shared out)")
      ->capture_default_str();
  cmd->add_option("--format", o.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->callback(std::move(run));
}

void add_validate(CLI::App& app, ValidateOptions& o, std::function<void()> run) {
  auto* cmd = app.add_subcommand(
      "validate",
      "Check every move of every game (main line and variations), the tags and the results.\n"
      "Inputs are paths or '-' (standard input; the default); gzip and zstd are recognised\n"
      "by content. Exit 0: no game has an error; 1: some game has one; 3: an input or output\n"
      "could not be read or written.");
  cmd->add_option("inputs", o.inputs, "PGN files, or '-' for standard input")
      ->check(CLI::ExistingFile | CLI::IsMember({"-"}));
  cmd->add_option("--variant", o.variant, "variant of games without a Variant tag (standard, virrey)");
  cmd->add_flag("--strict", o.strict, "count warnings as errors");
  cmd->add_option("--format", o.format, "text, json or jsonl")
      ->check(CLI::IsMember({"text", "json", "jsonl"}))
      ->capture_default_str();
  cmd->add_option("--threads,-t", o.threads, "check games on this many threads (output order is kept)")
      ->capture_default_str();
  cmd->add_option("--max-errors", o.max_errors,
                  "print at most this many errors (0: all); the summary still counts every one");
  cmd->add_option("--output,-o", o.output, "write the valid games here, normalised (PGN export format)");
  cmd->add_option("--rejects", o.rejects, "write the games with errors here, byte for byte as read");
  cmd->callback(std::move(run));
}

}  // namespace

int run_app(int argc, char** argv) {
  CLI::App app{"virrey: PGN database and analysis for chess variants (Virrey, standard, Modern)"};
  app.footer(kExitCodesHelp);
  app.require_subcommand(1);
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "more log output on stderr");
  app.add_flag("-q,--quiet", quiet, "only errors on stderr");

  int exit_code = kExitOk;
  PerftOptions perft;
  add_perft(app, perft, [&] { exit_code = run_perft(perft); });
  ValidateOptions validate;
  add_validate(app, validate, [&] { exit_code = run_validate(validate); });

  app.parse_complete_callback([&] {
    spdlog::set_level(quiet ? spdlog::level::err : verbose ? spdlog::level::debug : spdlog::level::info);
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace virrey::cli
