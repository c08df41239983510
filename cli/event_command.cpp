#include "event_command.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>
#include "virrey/base/log.hpp"
#include "virrey/base/small_file.hpp"
#include "virrey/base/text.hpp"

#include "common_options.hpp"
#include "db_command.hpp"
#include "event_writers.hpp"
#include "exit_codes.hpp"
#include "finding_writer.hpp"
#include "output.hpp"
#include "text_table.hpp"
#include "virrey/importers/open_input.hpp"
#include "virrey/ingest/pipeline.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/tournament/trf.hpp"

namespace virrey::cli {

namespace {

namespace tn = tournament;

// (virrey's own TRF of a collection's every tournament passes 16 MiB.)
constexpr std::size_t kMaxTrfBytes = std::size_t(256) << 20;

// The duplicate-game warning the pipeline gave a game that repeats an
// earlier one of the inputs (the identity validate and import compare), if any.
validate::Finding* duplicate_of_earlier(validate::CheckedGame& g) {
  const auto it = std::find_if(g.findings.begin(), g.findings.end(), [](const validate::Finding& f) {
    return f.code == validate::Code::DuplicateGame;
  });
  return it == g.findings.end() ? nullptr : &*it;
}

// The games of the inputs; games with errors are reported on stderr and kept
// (their tags and results are the tournament's). A game that repeats an
// earlier one (a file given twice, a game pasted twice) is warned where it
// starts and counted once, as import would store it once.
bool read_inputs(const EventOptions& o, std::vector<tn::GameSummary>& out) {
  ingest::Options options;
  set_variant_option(o.filter.variant, options.check.default_variant);
  options.threads = o.threads;
  options.check.build_movetext = false;
  options.keep_raw = true;  // a game with errors is told from its repeats by its text
  FindingWriter writer(Format::Text, stderr, FindingWriter::Role::Diagnostics);
  std::uint64_t bad = 0;
  // Games with errors have no identity (duplicate detection skips them): a
  // repeat is the same text, blanks at its ends aside.
  struct Seen {
    std::size_t input;
    std::string file;
    std::uint64_t number;
  };
  std::unordered_map<std::string, Seen> with_errors;
  ingest::Callbacks callbacks;
  callbacks.on_game = [&](ingest::GameReport& r) {
    if (validate::Finding* repeat = duplicate_of_earlier(r.game)) {
      repeat->message += "; counted once";
      writer.finding(r.file, *repeat);
      return ingest::Flow::Continue;
    }
    if (r.game.has_error) {
      const auto [it, fresh] = with_errors.try_emplace(std::string(trim_space(r.raw)),
                                                       Seen{r.input, std::string(r.file), r.number});
      if (!fresh) {
        validate::Finding repeat;
        repeat.code = validate::Code::DuplicateGame;
        repeat.severity = validate::Severity::Warning;
        repeat.line = r.start.line;
        repeat.column = r.start.column;
        repeat.game = r.number;
        const Seen& first = it->second;
        repeat.message =
            first.input == r.input
                ? fmt::format("the same text as game {}; counted once", first.number)
                : fmt::format("the same text as game {} of {}; counted once", first.number, first.file);
        writer.finding(r.file, repeat);
        return ingest::Flow::Continue;
      }
    }
    for (const auto& f : r.game.findings)
      if (f.severity == validate::Severity::Error) writer.finding(r.file, f);
    bad += r.game.has_error;
    tn::GameSummary s = tn::summarize(r.game.record, tn::SourceRef{std::string(r.file), r.input, r.number, r.start});
    s.moves_cut_short = r.game.main_line_cut;
    out.push_back(std::move(s));
    return ingest::Flow::Continue;
  };
  callbacks.on_problem = [&](std::string_view file, const validate::Finding& f) { writer.finding(file, f); };
  std::vector<std::string> inputs = o.inputs;
  if (inputs.empty()) inputs.push_back("-");
  const bool read_all = ingest::run(inputs, options, callbacks).all_read();
  if (bad) log::warn("{} with errors, counted with their tags and results", count_of(bad, "game"));
  return read_all;
}

int read_database(const EventOptions& o, std::vector<tn::GameSummary>& out) {
  auto filter = build_filter(o.filter);
  if (!filter) {
    log::error("{}", filter.error().message);
    return kExitUsage;
  }
  auto db = open_database(o.db, store::OpenMode::Read);
  if (!db) return kExitIo;
  note_feature_scan(*filter, *db);
  std::optional<Error> failed;
  const Status s = query::for_each_match(*db, *filter, [&](const query::GameMatch& m) {
    auto rec = db->game(m.id, store::kDecodeTags | store::kDecodeMainLine);
    if (!rec) {
      failed = rec.error();
      return false;
    }
    out.push_back(tn::summarize(*rec, tn::SourceRef{"", 0, m.id, {0, 0}}));
    return true;
  });
  if (!s || failed) {
    log_store_error(failed ? *failed : s.error());
    return kExitIo;
  }
  return kExitOk;
}

// Where a game was read, for a finding: "file:line:column, game N".
std::string game_place(const tn::GameSummary& g) {
  if (g.source.file.empty()) return fmt::format("game {}", g.source.number);
  return fmt::format("{}:{}:{}, game {}", g.source.file, g.source.start.line, g.source.start.column,
                     g.source.number);
}

// A game of a tournament of rounds whose Round tag gives no round number:
// warned where it was read (as validate's round-tag), counted in no round.
// So are a game of a player against themself, and a FIDE id given to two
// names (one player) or two ids given to one name (two players).
void warn_misplaced_games(const std::vector<tn::GameSummary>& summaries,
                          const std::vector<tn::Tournament>& tournaments,
                          const std::vector<std::string>& labels) {
  FindingWriter writer(Format::Text, stderr, FindingWriter::Role::Diagnostics);
  // A warning at the game's first line.
  auto warn = [&](const tn::GameSummary& g, validate::Code code, std::string message) {
    validate::Finding f;
    f.code = code;
    f.severity = validate::Severity::Warning;
    f.line = g.source.start.line;
    f.column = g.source.start.column;
    f.game = g.source.number;
    f.message = std::move(message);
    writer.finding(g.source.file.empty() ? std::string_view("database") : std::string_view(g.source.file), f);
  };
  for (std::size_t k = 0; k < tournaments.size(); ++k) {
    const tn::Tournament& t = tournaments[k];
    for (std::size_t s : t.self_games)
      warn(summaries[s], validate::Code::SelfPairing,
           fmt::format("in \"{}\": {} plays against themself; left out of the standings", labels[k],
                       summaries[s].white.name));
    // As validate's player-name warnings say it, with what event made of it.
    for (const tn::PlayerNameNote& n : t.name_notes) {
      const tn::GameSummary& g = summaries[n.summary];
      if (n.other_id.empty())
        warn(g, validate::Code::PlayerName,
             fmt::format(
                 "in \"{}\": FIDE id {} is given to \"{}\" and to \"{}\" (game {}); one player, \"{}\"",
                 labels[k], n.fide_id, n.other, n.name, summaries[n.first].source.number, n.player));
      else
        warn(g, validate::Code::PlayerName,
             fmt::format("in \"{}\": {} has two FIDE ids: {} here, {} before (game {}); two players",
                         labels[k], n.name, n.other_id, n.fide_id, summaries[n.first].source.number));
    }
    if (t.rounds == 0) continue;  // no game names a round: none is expected
    for (const tn::TournamentGame& game : t.games) {
      if (game.round > 0) continue;
      const tn::GameSummary& g = summaries[game.summary];
      const auto* error = std::get_if<tn::RoundError>(&g.round);
      std::string why = error                  ? error->message
                        : g.round_text.empty() ? std::string("the game has no Round tag")
                                               : fmt::format("Round \"{}\" names no round", g.round_text);
      warn(g, validate::Code::RoundTag,
           fmt::format("in \"{}\": {}; counted in the standings, in no round", labels[k], why));
    }
  }
}

// Each tournament of the games against its section of the TRF (the one
// whose 012 names it); when no section names one, the first tournament
// against the first section.
int compare_with_trf(const EventOptions& o, const std::vector<tn::GameSummary>& summaries,
                     const std::vector<tn::Tournament>& tournaments, const std::vector<std::string>& labels,
                     std::FILE* out) {
  const auto text = read_small_file(o.trf, kMaxTrfBytes, "a tournament report file");
  if (!text) {
    log::error("{}", text.error().message);
    return kExitIo;
  }
  if (const std::string why = importers::wide_text(std::string_view(*text).substr(0, 16), o.trf);
      !why.empty()) {
    log::error("{}", why);
    return kExitUsage;
  }
  // A TRF of Latin-1 bytes (older pairing programs) is read as the PGN
  // reader's text is: a byte that is not UTF-8 is its Windows-1252 character.
  const std::vector<tn::TrfFile> sections = tn::read_trf_sections(as_utf8(*text));
  // No player line at all, readable or not: another kind of file.
  if (std::all_of(sections.begin(), sections.end(),
                  [](const tn::TrfFile& t) { return t.players.empty() && t.problems.empty(); })) {
    log::error("{} is not a tournament report file (FIDE TRF): it has no player line (001)", o.trf);
    return kExitUsage;
  }
  std::uint64_t findings = 0;
  for (const tn::TrfFile& trf : sections)
    for (const tn::TrfProblem& p : trf.problems) {
      fmt::print(out, "{}:{}:{}: error[trf-syntax]: {}\n", o.trf, p.line, p.column, terminal_text(p.message));
      ++findings;
    }
  if (tournaments.empty()) {
    log::error("no games to compare {} with", o.trf);
    return kExitDataFailed;
  }
  // A section names a tournament by its label (as --format trf writes it),
  // else by its Event: the first tournament of that name not yet compared.
  std::vector<std::pair<const tn::Tournament*, const tn::TrfFile*>> pairs;
  std::vector<bool> paired(tournaments.size(), false), used(sections.size(), false);
  for (const bool by_label : {true, false})
    for (std::size_t s = 0; s < sections.size(); ++s)
      for (std::size_t k = 0; k < tournaments.size() && !used[s]; ++k)
        if (!sections[s].name.empty() && !paired[k] &&
            tn::same_event_name(by_label ? labels[k] : tournaments[k].key.event, sections[s].name)) {
          paired[k] = used[s] = true;
          pairs.emplace_back(&tournaments[k], &sections[s]);
        }
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (pairs.empty()) {
    // No section names a tournament of the games: the first of each, unless
    // the sections name other tournaments.
    const auto first = std::find_if(sections.begin(), sections.end(), [](const tn::TrfFile& s) {
      return !s.players.empty() || !s.name.empty();
    });
    if (first != sections.end() && !first->name.empty() && sections.size() > 1) {
      log::error("no tournament of {} is one of the games' ({})", o.trf, tournaments.front().key.event);
      return kExitDataFailed;
    }
    pairs.emplace_back(&tournaments.front(), first != sections.end() ? &*first : &sections.front());
  }
  for (std::size_t k = 0; k < tournaments.size(); ++k)
    if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == &tournaments[k]; }))
      log::warn("no section of {} names {}: not compared", o.trf, labels[k]);
  for (const auto& [t, trf] : pairs) {
    std::uint64_t here = trf->problems.size();  // its lines that do not read, printed above (and counted)
    for (const tn::TrfDisagreement& d : tn::compare_trf(*t, *trf)) {
      std::string place = d.line ? fmt::format("{}:{}", o.trf, d.line) : o.trf;
      if (d.line && d.column) place += fmt::format(":{}", d.column);
      std::string where;
      if (d.game != SIZE_MAX) where = fmt::format(" ({})", game_place(summaries[t->games[d.game].summary]));
      fmt::print(out, "{}: error[{}]: {}{}\n", place, tn::trf_code_name(d.code), terminal_text(d.message),
                 where);
      ++here;
    }
    findings += here - trf->problems.size();
    fmt::print(out, "{} between {} and the games of {}\n", count_of(here, "disagreement"), o.trf,
               labels[std::size_t(t - tournaments.data())]);
  }
  return findings ? kExitDataFailed : kExitOk;
}

}  // namespace

int run_event(const EventOptions& o) {
  if (!threads_in_range(o.threads)) return kExitUsage;
  std::optional<tn::System> system;
  if (o.system != "auto") {
    system = tn::parse_system(o.system);
    if (!system) {
      log::error("--system {}: not auto, round-robin, double-round-robin, swiss or knockout", o.system);
      return kExitUsage;
    }
  }
  std::vector<tn::TieBreak> order;
  if (!o.tiebreaks.empty()) {
    std::stringstream list(o.tiebreaks);
    for (std::string name; std::getline(list, name, ',');) {
      const auto tb = tn::parse_tie_break(name);
      if (!tb) {
        std::vector<std::string_view> names;
        for (int i = 0; i < tn::kTieBreakCount; ++i) names.push_back(tn::tie_break_name(tn::TieBreak(i)));
        log::error("--tiebreaks: unknown tie-break '{}' (known: {})", name, name_list(names, ", "));
        return kExitUsage;
      }
      if (std::find(order.begin(), order.end(), *tb) != order.end()) {
        log::error("--tiebreaks: {} given twice (a tie-break left level stays level)",
                   tn::tie_break_name(*tb));
        return kExitUsage;
      }
      order.push_back(*tb);
    }
  }
  if (!o.trf.empty() && o.format != Format::Text) {
    log::error(
        "--trf compares a TRF with the games and lists what differs as text; --format applies to reports");
    return kExitUsage;
  }
  if (!o.filter.variant.empty() && !variant_option(o.filter.variant)) return kExitUsage;
  if (!o.use_db &&
      !no_filters_for_inputs(o.filters_given,
                             "--variant and --event apply to them: the variant of untagged games, "
                             "the tournament reported"))
    return kExitUsage;
  if (!o.output.empty()) {
    std::vector<std::string> read = o.inputs.empty() && !o.use_db ? std::vector<std::string>{"-"} : o.inputs;
    if (!o.trf.empty()) read.push_back(o.trf);
    if (!output_allowed("--output", o.output, read)) return kExitUsage;
    if (o.use_db && is_in_database(o.output, store::default_database_path(o.db))) {
      log::error("--output {} is inside the database", o.output);
      return kExitUsage;
    }
  }

  std::vector<tn::GameSummary> summaries;
  bool read_all = true;
  if (o.use_db) {
    if (!o.inputs.empty()) {
      log::error("give PGN inputs or --db, not both");
      return kExitUsage;
    }
    if (const int rc = read_database(o, summaries); rc != kExitOk) return rc;
  } else {
    read_all = read_inputs(o, summaries);
    // No game read, and an input not read: no report of no games (the
    // errors said why; an input read empty alone is reported as empty).
    if (!read_all && summaries.empty()) return kExitIo;
  }

  // --event of PGN inputs: an Event name, or the name a report gives one of
  // the tournaments of that name ("Open of 2003.05.01", "Open at Lima").
  const std::vector<tn::GameGroup> groups = tn::group_by_event(summaries);
  std::vector<tn::TournamentKey> group_keys;
  for (const tn::GameGroup& g : groups) group_keys.push_back(g.key);
  std::vector<std::string> group_labels = tn::split_label_suffixes(group_keys);
  for (std::size_t k = 0; k < groups.size(); ++k) group_labels[k] = groups[k].key.event + group_labels[k];
  const bool pick = !o.use_db && !o.filter.event.empty();
  const bool by_label = pick && std::none_of(groups.begin(), groups.end(), [&](const tn::GameGroup& g) {
                          return tn::same_event_name(g.key.event, o.filter.event);
                        });
  std::vector<tn::Tournament> tournaments;
  std::vector<std::string> picked_labels;  // by_label: each tournament's, as picked
  std::uint64_t cells = 0;                 // of the tournaments built whole
  std::size_t counted = 0;                 // those tournaments
  for (std::size_t k = 0; k < groups.size(); ++k) {
    if (pick && !tn::same_event_name(by_label ? group_labels[k] : groups[k].key.event, o.filter.event))
      continue;
    tournaments.push_back(tn::build_tournament(summaries, groups[k], system));
    picked_labels.push_back(group_labels[k]);
    // A tournament too large is built without its rounds, and named below.
    if (tournaments.back().too_large) break;
    ++counted;
    if ((cells += tn::crosstable_cells(tournaments.back())) > tn::kMaxReportCells) {
      log::error(
          "the {} tournaments read so far make more than {} results in their crosstables in all (players "
          "× rounds), beyond what one report takes (README \"Limits\"); report some of them with --event",
          counted, tn::kMaxReportCells);
      return read_all ? kExitDataFailed : kExitIo;
    }
  }
  if (!o.filter.event.empty() && tournaments.empty()) {
    log::error("no tournament named '{}' in the games", o.filter.event);
    return read_all ? kExitDataFailed : kExitIo;
  }

  // Each tournament's name, told from the others of its Event name.
  std::vector<tn::TournamentKey> keys;
  for (const tn::Tournament& t : tournaments) keys.push_back(t.key);
  std::vector<std::string> labels = tn::split_label_suffixes(keys);
  for (std::size_t k = 0; k < labels.size(); ++k)
    labels[k] = by_label ? picked_labels[k] : tournaments[k].key.event + labels[k];
  for (std::size_t k = 0; k < tournaments.size(); ++k)
    if (tournaments[k].too_large) {
      log::error(
          "in \"{}\": {} players in {} rounds{} make more than {} results in a crosstable, "
          "beyond what a report takes (README \"Limits\")",
          labels[k], tournaments[k].players.size(), tournaments[k].rounds,
          tn::is_round_robin(tournaments[k].system) ? " (a round robin: a column per player)" : "",
          tn::kMaxCrosstableCells);
      return read_all ? kExitDataFailed : kExitIo;
    }
  if (o.format == Format::Trf && o.trf.empty())
    for (std::size_t k = 0; k < tournaments.size(); ++k)
      if (const auto why = tn::trf_misfit(tournaments[k])) {
        log::error("in \"{}\": {}; no TRF written (other formats take it)", labels[k], *why);
        return read_all ? kExitDataFailed : kExitIo;
      }
  warn_misplaced_games(summaries, tournaments, labels);
  // A system given that the pairings do not bear out (a Swiss ranked as a
  // knockout, say) is followed, and said.
  for (std::size_t k = 0; k < tournaments.size(); ++k) {
    const tn::Tournament& t = tournaments[k];
    if (t.system_origin == tn::SystemOrigin::Pairings) continue;
    if (const tn::System seen = tn::recognise_system(t); seen != t.system) {
      if (t.system_origin == tn::SystemOrigin::Given)
        log::warn("in \"{}\": the pairings are those of a {} tournament; ranked as --system {} asks",
                  labels[k], tn::system_name(seen), tn::system_name(t.system));
      else
        log::warn(
            "in \"{}\": the pairings are those of a {} tournament; ranked as a {} as its EventType tag "
            "\"{}\" says (--system {} ranks it so)",
            labels[k], tn::system_name(seen), tn::system_name(t.system), t.event_type, tn::system_name(seen));
    }
  }

  StagedFile file;  // put in place at the end: a run that fails keeps the file before
  std::FILE* out = stdout;
  if (!o.output.empty()) {
    if (!file.open(o.output)) return kExitIo;
    out = file.get();
  }
  int rc = kExitOk;
  if (!o.trf.empty()) {
    rc = compare_with_trf(o, summaries, tournaments, labels, out);
  } else {
    std::vector<EventReport> reports;
    for (const tn::Tournament& t : tournaments) {
      EventReport r;
      r.tournament = &t;
      r.label = labels[reports.size()];
      r.order = order.empty() ? tn::default_tie_breaks(t.system) : order;
      r.standings = tn::standings(t, r.order);
      r.summaries = &summaries;
      reports.push_back(std::move(r));
    }
    bool written = true;
    switch (o.format) {
      case Format::Json: written = write_event_json(reports, out); break;
      case Format::Csv: written = write_event_csv(reports, out); break;
      case Format::Html: written = write_event_html(reports, out); break;
      case Format::Trf:
        for (const EventReport& r : reports) {
          // TRF has no result for a game not finished: its block is written
          // with a blank result, which readers take as no point.
          const auto pending = std::count_if(
              r.tournament->games.begin(), r.tournament->games.end(), [](const tn::TournamentGame& g) {
                return g.result == GameResult::Unknown && g.white >= 0 && g.black >= 0;
              });
          if (pending > 0)
            log::warn(
                "in \"{}\": {} game{} without a result (*) written with a blank result (TRF has none for "
                "an unfinished game)",
                r.label, pending, pending == 1 ? "" : "s");
          const std::string text = tn::write_trf(*r.tournament, r.standings, r.label);
          written &= std::fwrite(text.data(), 1, text.size(), out) == text.size();
        }
        break;
      default: written = write_event_text(reports, out); break;
    }
    if (!written) {
      const auto why = flush_failure(out);
      log::error("cannot write {}{}", o.output.empty() ? "standard output" : o.output, why.value_or(""));
      return kExitIo;  // no report: the file before is kept
    }
  }
  if (!o.output.empty()) {
    // Standings of inputs not all read would stand in for the right ones.
    if (!read_all) return kExitIo;
    if (rc != kExitOk && rc != kExitDataFailed) return rc;  // no report: the file before is kept
    if (!file.commit(true)) return kExitIo;
  } else if (const auto why = flush_failure(out)) {
    log::error("cannot write standard output{}", *why);
    return kExitIo;
  }
  if (!read_all) return kExitIo;
  return rc;
}

}  // namespace virrey::cli
