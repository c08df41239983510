#include "validate_command.hpp"

#include <algorithm>
#include <cerrno>
#include <tuple>

#include <chrono>
#include <cstdio>
#include <memory>

#include "virrey/base/log.hpp"

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "finding_writer.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/ingest/pipeline.hpp"
#include "virrey/tournament/checks.hpp"

namespace virrey::cli {

int run_validate(const ValidateOptions& o) {
  ingest::Options options;
  if (!set_variant_option(o.variant, options.check.default_variant)) return kExitUsage;
  if (!threads_in_range(o.threads)) return kExitUsage;
  options.threads = o.threads;
  options.check.build_movetext = !o.output.empty();
  options.check.notation = o.export_notation;
  options.keep_raw = !o.rejects.empty();

  // `--output -` or `--rejects -`: those games on standard output, the
  // report on standard error.
  const bool games_to_stdout = o.output == "-";
  const bool rejects_to_stdout = o.rejects == "-";
  if (games_to_stdout && rejects_to_stdout) {
    log::error(
        "--output - and --rejects - both name standard output: the valid games and the rejected ones go "
        "apart");
    return kExitUsage;
  }
  const std::vector<std::string> read = o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs;
  if (!output_allowed("--output", o.output, read) || !output_allowed("--rejects", o.rejects, read))
    return kExitUsage;
  if (!o.output.empty() && !games_to_stdout && !o.rejects.empty() && !rejects_to_stdout &&
      same_file(o.output, o.rejects)) {
    log::error("--output and --rejects name one file, {}: the valid games and the rejected ones go apart",
               o.output);
    return kExitUsage;
  }
  // Written beside and put in place at the end: a run that stops early, or
  // that could read nothing, leaves the files before as they were.
  StagedFile output, rejects;
  if (!o.output.empty() && !games_to_stdout && !output.open(o.output)) return kExitIo;
  std::FILE* games_out = games_to_stdout ? stdout : output.get();
  if (!o.rejects.empty() && !rejects_to_stdout && !rejects.open(o.rejects)) return kExitIo;
  std::FILE* rejects_out = rejects_to_stdout ? stdout : rejects.get();

  FindingWriter writer(o.format, games_to_stdout || rejects_to_stdout ? stderr : stdout);
  int games_errno = 0, rejects_errno = 0;  // of the first write to each that failed
  ValidationSummary summary;
  Progress progress;
  std::uint64_t errors_printed = 0;
  bool limit_reported = false;
  auto emit = [&](std::string_view file, const validate::Finding& f) {
    const bool error = f.severity == validate::Severity::Error;
    (error ? summary.errors : summary.warnings)++;
    summary.per_code[std::size_t(f.code)]++;
    if (o.max_errors > 0 && errors_printed >= std::uint64_t(o.max_errors)) {
      if (!limit_reported)
        log::warn("--max-errors {} reached: further findings are counted, not shown", o.max_errors);
      limit_reported = true;
      return;
    }
    errors_printed += error;
    writer.finding(file, f);
  };

  // The tournament checks see every game; their findings come at the end,
  // and a game they concern counts as warned (failed with --strict).
  tournament::EventChecks event_checks;
  std::vector<std::string> input_names;
  std::vector<std::vector<std::uint8_t>> game_state;  // per input, per game: kWarned | kFailed
  constexpr std::uint8_t kWarned = 1, kFailed = 2;

  const auto start = std::chrono::steady_clock::now();
  ingest::Callbacks callbacks;
  callbacks.on_game = [&](ingest::GameReport& r) {
    const auto& g = r.game;
    ++summary.games;
    const bool failed = g.has_error || (o.strict && g.has_warning);
    if (failed)
      ++summary.with_errors;
    else
      ++summary.valid;
    if (g.has_warning && !o.strict) ++summary.with_warnings;  // --strict: they count as errors
    if (!o.no_event_checks) {
      event_checks.add(r.input, r.number, r.start, g.record, g.main_line_cut);
      if (input_names.size() <= r.input) {
        input_names.resize(r.input + 1);
        game_state.resize(r.input + 1);
      }
      if (input_names[r.input].empty()) {  // once an input
        input_names[r.input] = std::string(r.file);
        event_checks.name_input(r.input, input_names[r.input]);
      }
      auto& states = game_state[r.input];
      if (states.size() <= r.number) states.resize(r.number + 1);
      states[r.number] = std::uint8_t((g.has_warning ? kWarned : 0) | (failed ? kFailed : 0));
    }
    for (const auto& f : g.findings) {
      if (o.strict && f.severity == validate::Severity::Warning) {
        validate::Finding strict = f;
        strict.severity = validate::Severity::Error;
        emit(r.file, strict);
      } else {
        emit(r.file, f);
      }
    }
    if (failed && rejects_out && (!ingest::write_raw_game(rejects_out, r.raw) || std::ferror(rejects_out)) &&
        !rejects_errno)
      rejects_errno = errno;
    if (!failed && games_out) {
      const std::string pgn = game::write_pgn(g.record);
      write_text(games_out, pgn, games_errno);
    }
    return ingest::Flow::Continue;
  };
  callbacks.on_problem = [&](std::string_view file, const validate::Finding& f) {
    if (f.code == validate::Code::OversizedGame) {
      ++summary.games;
      ++summary.with_errors;
    }
    emit(file, f);
  };
  callbacks.on_progress = [&](std::uint64_t games, std::uint64_t bytes) { progress.update(games, bytes); };

  std::vector<std::string> inputs = o.inputs;
  if (inputs.empty()) inputs.push_back("-");
  const bool read_all = ingest::run(inputs, options, callbacks).all_read();
  progress.finish();
  for (auto& [input, f] : event_checks.findings()) {
    std::uint8_t& state = game_state[input][f.game];
    if (!(state & kWarned) && !o.strict) ++summary.with_warnings;
    if (o.strict && !(state & kFailed)) {
      --summary.valid;
      ++summary.with_errors;
    }
    state |= kWarned | (o.strict ? kFailed : 0);
    if (o.strict) f.severity = validate::Severity::Error;
    emit(input_names[input], f);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writer.summary(summary);

  bool write_failed = false;
  const int stdout_errno = writer.out() == stdout ? writer.write_errno()
                           : games_to_stdout      ? games_errno
                           : rejects_to_stdout    ? rejects_errno
                                                  : 0;
  if (const auto why = flush_failure(stdout, stdout_errno)) {
    log::error("cannot write standard output{}", *why);
    write_failed = true;
  }
  // Files are put in place when every input was read and every write went
  // through: a run that fails keeps the files before, each of them. (What
  // is buffered is written first, so that a full disk shows before either
  // file is put in place.)
  if (read_all) {
    for (auto [file, err] : {std::pair{&output, &games_errno}, std::pair{&rejects, &rejects_errno}})
      if (file->get() && std::fflush(file->get()) != 0 && !*err) *err = errno;
    const bool failed = write_failed || games_errno || rejects_errno;
    if (games_errno || !failed) write_failed |= !output.commit(true, games_errno);
    if (rejects_errno || !failed) write_failed |= !rejects.commit(true, rejects_errno);
  }
  if (!read_all || write_failed) return kExitIo;
  return summary.with_errors ? kExitDataFailed : kExitOk;
}

}  // namespace virrey::cli
