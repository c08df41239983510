#include "analyse_command.hpp"

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "common_options.hpp"
#include "db_command.hpp"
#include "exit_codes.hpp"
#include "finding_writer.hpp"
#include "interrupt_cleanup.hpp"
#include "virrey/analyse/analyser.hpp"
#include "virrey/analyse/players.hpp"
#include "virrey/engine/process.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/ingest/pipeline.hpp"
#include "virrey/query/game_filter.hpp"

namespace virrey::cli {

namespace {

using analyse::GameAnalysis;
using analyse::MoveAnalysis;
using analyse::SideSummary;

// One line of the summary: a side of one game, or a player over the run.
struct SummaryRow {
  std::uint64_t game = 0;  // 0: a player's row
  std::string side;        // white, black; empty for a player's row
  std::string player;
  std::uint64_t games = 0;
  SideSummary s;
};

const Schema<SummaryRow>& summary_schema() {
  static const Schema<SummaryRow> schema{
      {"game", [](const SummaryRow& r) { return r.game ? Value::integer(r.game) : Value::null(); }},
      {"side", [](const SummaryRow& r) { return Value::string_or_null(r.side); }},
      {"player", [](const SummaryRow& r) { return Value::string(r.player); }},
      {"games", [](const SummaryRow& r) { return Value::integer(r.games); }},
      {"moves", [](const SummaryRow& r) { return Value::integer(r.s.moves); }},
      // No judged move: no figure (null, "-"), not a score of 0, as stats players says.
      {"acpl",
       [](const SummaryRow& r) {
         return r.s.moves ? Value::number(r.s.average_cp_loss(), 1) : Value::null();
       }},
      {"accuracy",
       [](const SummaryRow& r) { return r.s.moves ? Value::number(r.s.accuracy(), 1) : Value::null(); }},
      {"inaccuracies", [](const SummaryRow& r) { return Value::integer(r.s.inaccuracies); }},
      {"mistakes", [](const SummaryRow& r) { return Value::integer(r.s.mistakes); }},
      {"blunders", [](const SummaryRow& r) { return Value::integer(r.s.blunders); }},
  };
  return schema;
}

// The positions counted, each in one bucket after `positions`.
const Schema<analyse::Counters>& positions_schema() {
  using C = analyse::Counters;
  static const Schema<C> schema{
      {"positions", [](const C& c) { return Value::integer(c.positions); }},
      {"searched", [](const C& c) { return Value::integer(c.searched); }},
      {"from_run", [](const C& c) { return Value::integer(c.from_run); }},
      {"from_cache", [](const C& c) { return Value::integer(c.from_cache); }},
      {"game_over", [](const C& c) { return Value::integer(c.game_over); }},
      {"unevaluated", [](const C& c) { return Value::integer(c.failed); }},
      {"engine_restarts", [](const C& c) { return Value::integer(c.restarts); }},
  };
  return schema;
}

std::string positions_text(const analyse::Counters& c) {
  return fmt::format(
      "positions {}: searched {}, from this run {}, from the cache {}, game over {}, unevaluated {}; "
      "engine restarts {}",
      c.positions, c.searched, c.from_run, c.from_cache, c.game_over, c.failed, c.restarts);
}

Value score_value(const std::optional<engine::Evaluation>& e, Color to_move) {
  if (!e) return Value::null();
  const int v = to_move == Color::White ? e->score.value : -e->score.value;
  if (e->score.mate && e->score.value == 0)  // the side to move is mated
    return Value::object({{"mate", Value::integer(0)},
                          {"winner", Value::string(to_move == Color::White ? "black" : "white")}});
  return Value::object({{e->score.mate ? "mate" : "cp", Value::integer(v)}});
}

// One JSON object per judged move; evaluations from White's side.
std::string jsonl_moves(const GameAnalysis& g) {
  std::string out;
  for (const MoveAnalysis& m : g.moves) {
    const bool best_known = m.before && !m.before->best_san.empty();
    std::vector<Value> pv;
    if (m.before)
      for (const auto& s : m.before->pv_san) pv.push_back(Value::string(s));
    const Members obj = {
        {"game", Value::integer(g.number)},
        {"ply", Value::integer(m.ply)},
        {"side", Value::string(m.mover == Color::White ? "white" : "black")},
        {"san", Value::string(m.san)},
        {"fen", Value::string(m.fen)},
        {"fen_after", Value::string(m.fen_after)},
        {"eval_before", score_value(m.before, m.mover)},
        {"eval_after", score_value(m.after, ~m.mover)},
        {"best", best_known ? Value::string(m.before->best_san) : Value::null()},
        {"best_uci", best_known ? Value::string(m.before->best_uci) : Value::null()},
        {"pv", Value::list(std::move(pv))},
        {"loss", m.judged ? Value::number(m.loss, 3) : Value::null()},
        {"cp_loss", m.judged ? Value::integer(m.cp_loss) : Value::null()},
        {"accuracy", m.judged ? Value::number(m.accuracy, 1) : Value::null()},
        {"judgement", m.judged ? Value::string(analyse::judgement_name(m.judgement)) : Value::null()},
        {"engine", Value::string(g.engine)},
    };
    out += json(obj) + '\n';
  }
  return out;
}

// The per-game rows as games come, the per-player totals at the end.
class Summary {
 public:
  void add(const GameAnalysis& g) {
    const std::string white(g.record.tag("White")), black(g.record.tag("Black"));
    games_.push_back({g.number, "white", white, 1, g.white});
    games_.push_back({g.number, "black", black, 1, g.black});
    players_.add(g);
  }

  std::string render(Format f, const analyse::Counters& c) const {
    const auto& schema = summary_schema();
    std::vector<SummaryRow> players;
    for (const auto& p : players_.players()) players.push_back({0, "", p.name, p.games, p.moves});
    if (f == Format::Csv) {
      // The rows, then one of the position counts alone (in their own columns).
      std::vector<std::string> names;
      schema.append_names(names);
      positions_schema().append_names(names);
      std::string out = csv_line(names);
      std::vector<SummaryRow> all = games_;
      all.insert(all.end(), players.begin(), players.end());
      for (const SummaryRow& r : all) {
        std::vector<Value> values;
        schema.append_values(r, values);
        positions_schema().append_nulls(values);
        out += csv_line(values);
      }
      std::vector<Value> values;
      schema.append_nulls(values);
      positions_schema().append_values(c, values);
      return out + csv_line(values);
    }
    if (f == Format::Json) {
      std::vector<Value> games, player_list;
      for (const auto& r : games_) games.push_back(schema.object(r));
      for (const auto& r : players) player_list.push_back(schema.object(r));
      return json(Members{{"games", Value::list(std::move(games))},
                          {"players", Value::list(std::move(player_list))},
                          {"positions", positions_schema().object(c)}}) +
             '\n';
    }
    using A = TextTable::Align;
    std::string out = schema.text_table({{"game", A::Right},
                                         {"side", A::Left},
                                         {"player", A::Left, 40},
                                         {"moves", A::Right},
                                         {"acpl", A::Right},
                                         {"accuracy", A::Right},
                                         {"inaccuracies", A::Right},
                                         {"mistakes", A::Right},
                                         {"blunders", A::Right}},
                                        games_);
    out += '\n';
    out += schema.text_table({{"player", A::Left, 40},
                              {"games", A::Right},
                              {"moves", A::Right},
                              {"acpl", A::Right},
                              {"accuracy", A::Right},
                              {"inaccuracies", A::Right},
                              {"mistakes", A::Right},
                              {"blunders", A::Right}},
                             players);
    return out + '\n' + positions_text(c) + '\n';
  }

 private:
  std::vector<SummaryRow> games_;
  analyse::PlayerTable players_;
};

}  // namespace

int run_analyse(const AnalyseOptions& o) {
  run_on_interrupt(engine::kill_running_processes);  // no engine searches on without virrey
  auto engine_options = analysis_options(o.engine);
  if (!engine_options) {
    log::error("{}", engine_options.error().message);
    return kExitUsage;
  }
  analyse::Options options = std::move(*engine_options);
  if (!threads_in_range(o.jobs, "--jobs")) return kExitUsage;
  if (o.summary && o.format != Format::Pgn && o.format != Format::Jsonl) {
    log::error("--summary goes with --format pgn or jsonl (text, json and csv are the summary)");
    return kExitUsage;
  }
  if (!o.inputs.empty() &&
      !no_filters_for_inputs(o.filters_given, "--variant applies to them: the variant of untagged games"))
    return kExitUsage;
  if (o.cached && !o.inputs.empty() && o.db.empty()) {
    log::error("--cached reads the cache of --db");
    return kExitUsage;
  }
  options.cache_only = o.cached;
  if (!o.cached && !hash_fits_memory(o.engine.hash)) return kExitUsage;
  options.jobs = o.jobs;
  if (!o.plies.empty()) {
    auto r = query::parse_ply_range(o.plies);
    if (!r) {
      log::error("--plies {}: {}", o.plies, r.error().message);
      return kExitUsage;
    }
    options.ply_from = std::max<std::uint32_t>(1, r->from.value_or(1));
    options.ply_to = r->to.value_or(options.ply_to);
  }
  if (!o.side.empty()) {
    auto r = query::parse_side(o.side);
    if (!r) {
      log::error("--side {}: {}", o.side, r.error().message);
      return kExitUsage;
    }
    options.side = *r;
  }
  Variant default_variant = Variant::Standard;
  if (!o.inputs.empty() && !set_variant_option(o.filter.variant, default_variant)) return kExitUsage;
  std::optional<query::GameFilter> filter;
  if (o.inputs.empty()) {
    auto f = build_filter(o.filter);
    if (!f) {
      log::error("{}", f.error().message);
      return kExitUsage;
    }
    filter = std::move(*f);
  }

  if (!output_allowed("--output", o.output, o.inputs)) return kExitUsage;
  const bool uses_db = o.inputs.empty() || !o.db.empty();
  if (!o.output.empty() && uses_db && is_in_database(o.output, store::default_database_path(o.db))) {
    log::error("--output {} is inside the database {}", o.output, store::default_database_path(o.db));
    return kExitUsage;
  }
  // The database: the games when no input is named (it must exist then: a
  // mistyped --db is an error, not an empty database), and the cache
  // whenever --db is given.
  std::unique_ptr<store::Database> db;
  if (uses_db) {
    // --cached writes nothing: it reads the database as it is, also while
    // another process writes to it.
    const auto mode = o.cached ? store::OpenMode::Read : store::OpenMode::ReadWrite;
    if (!(db = open_database(o.db, mode, o.inputs.empty() ? Create::No : Create::Yes))) return kExitIo;
    if (filter) note_feature_scan(*filter, *db);
  }

  // --output is made when there is something to write: a run that fails
  // before (no engine, a missing input) leaves the file as it was. A path
  // where no file can be made is refused before any engine works.
  if (!o.output.empty() && ::access(o.output.c_str(), F_OK) != 0) {
    const std::string parent = std::filesystem::path(o.output).parent_path().string();
    if (::access(parent.empty() ? "." : parent.c_str(), W_OK | X_OK) != 0) {
      log::error("cannot write {}: {}", o.output, std::strerror(errno));
      return kExitIo;
    }
  } else if (!o.output.empty() && ::access(o.output.c_str(), W_OK) != 0) {
    log::error("cannot write {}: {}", o.output, std::strerror(errno));
    return kExitIo;
  }
  File file;
  std::FILE* out = o.output.empty() ? stdout : nullptr;
  bool write_failed = false;
  auto write = [&](std::string_view text) {
    if (!out && !write_failed && !(file = create_file(o.output))) write_failed = true;
    if (write_failed) return;
    out = o.output.empty() ? stdout : file.get();
    if (!write_flushed(out, text)) write_failed = true;
  };

  analyse::Analyser analyser(options, db.get());
  Summary summary;
  std::vector<analyse::Finding> findings;
  std::vector<GameAnalysis> batch;
  // A game per job at a time: each is written once analysed (a run stopped
  // by a signal keeps it), and the jobs share the positions of their games.
  const std::size_t batch_size = o.batch > 0 ? std::size_t(o.batch) : std::size_t(o.jobs);
  std::array<bool, kVariantCount> engine_checked{};
  std::optional<Error> failure;  // stops the run: no engine, a database error
  int exit_code = kExitOk;
  std::uint64_t games = 0;                                // read, with errors or not
  std::unordered_map<std::uint64_t, std::string> places;  // of the batch's games
  std::uint64_t analysed = 0;                             // games given to the engines
  std::string held;       // the output of games so far all refused by their engines
  bool released = false;  // the output was written once: the rest is written as it comes

  auto flush = [&]() -> bool {
    if (batch.empty()) return true;
    if (Status s = analyser.analyse(batch, findings); !s) {
      failure = s.error();
      return false;
    }
    for (const auto& f : findings) log::warn("{}, ply {}: {}: {}", places[f.game], f.ply, f.code, f.message);
    findings.clear();
    places.clear();
    std::string text;
    for (const GameAnalysis& g : batch) {
      summary.add(g);
      if (o.format == Format::Pgn)
        text += game::write_pgn(analyse::annotated_record(g));
      else if (o.format == Format::Jsonl)
        text += jsonl_moves(g);
    }
    analysed += batch.size();
    batch.clear();
    // Until the engine has played a game, the text is held back: a run
    // whose engine plays none of them fails as without an engine, and
    // leaves --output as it was.
    held += text;
    constexpr std::size_t kMostHeld = std::size_t(8) << 20;  // then written as it comes
    if ((analyser.counters().games_refused < analysed || held.size() > kMostHeld || released) &&
        !held.empty()) {
      write(held);
      held.clear();
      released = true;
    }
    return !write_failed;
  };
  // `number`: the game's number in the run, or its database id; `place`:
  // how messages name it ("FILE:LINE: game N" or "game ID").
  auto add = [&](game::GameRecord&& rec, std::uint64_t number, std::string place) -> bool {
    if (!engine_checked[std::size_t(rec.variant)]) {
      if (Status s = analyser.check_engine(rec.variant); !s) {
        failure = s.error();
        return false;
      }
      engine_checked[std::size_t(rec.variant)] = true;
    }
    GameAnalysis g;
    g.number = number;
    g.record = std::move(rec);
    places[number] = std::move(place);
    batch.push_back(std::move(g));
    return batch.size() < batch_size || flush();
  };

  bool read_all = true;
  if (!o.inputs.empty()) {
    ingest::Options io;
    io.check.default_variant = default_variant;
    ingest::Callbacks callbacks;
    callbacks.on_game = [&](ingest::GameReport& r) {
      const std::string place = fmt::format("{}:{}: game {}", r.file, r.start.line, r.number);
      ++games;
      if (r.game.has_error) {
        // The first error, located as validate writes it (the others: `virrey validate`).
        const auto first = std::find_if(r.game.findings.begin(), r.game.findings.end(), [](const auto& f) {
          return f.severity == validate::Severity::Error;
        });
        log::warn(
            "{} has errors, not analysed{}", place,
            first == r.game.findings.end()
                ? std::string()
                : fmt::format(": {}:{}:{}: {}{}", r.file, first->line, first->column,
                              first->ply ? fmt::format("ply {} ({}): ", first->ply, first->move_label) : "",
                              first->message));
        exit_code = kExitDataFailed;
        return ingest::Flow::Continue;
      }
      return add(std::move(r.game.record), games, place) ? ingest::Flow::Continue : ingest::Flow::Stop;
    };
    FindingWriter problems(Format::Text, stderr, FindingWriter::Role::Diagnostics);
    callbacks.on_problem = [&](std::string_view file, const validate::Finding& f) {
      problems.finding(file, f);
    };
    read_all = ingest::run(o.inputs, io, callbacks).all_read();
  } else {
    Status s = query::for_each_match(*db, *filter, [&](const query::GameMatch& m) {
      auto rec = db->game(m.id);
      if (!rec) {
        failure = rec.error();
        return false;
      }
      ++games;
      return add(std::move(*rec), m.id, fmt::format("game {}", m.id));
    });
    if (!s && !failure) failure = s.error();
  }
  if (!failure) flush();
  if (failure) {
    log::error("{}", failure->message);
    return failure->kind == ErrorKind::InvalidArgument ? kExitUsage : kExitIo;
  }
  const auto& c = analyser.counters();
  log::info("{} games; {}", games, positions_text(c));
  // No game the engine plays: as without an engine.
  if (analysed > 0 && c.games_refused == analysed) {
    // Past the most held back, the games went out unjudged as they came: the rest follow.
    if (released && !held.empty()) write(held);
    log::error("no game analysed: the engine played none of the {} game{}{}", analysed,
               analysed == 1 ? "" : "s",
               o.output.empty() ? ""
               : released       ? "; " + o.output + " holds them unjudged"
                                : "; " + o.output + " is left as it was");
    return kExitIo;
  }
  if (o.format == Format::Text || o.format == Format::Json || o.format == Format::Csv)
    write(summary.render(o.format, c));
  else if (o.summary)
    write_flushed(stderr, summary.render(Format::Text, c));
  if (!out && read_all) write("");  // the file of a run that had nothing to write, empty
  if (write_failed) {
    if (out) log::error("cannot write {}", o.output.empty() ? "standard output" : o.output);
    return kExitIo;
  }
  if (!read_all) return kExitIo;
  // A game the engine does not play is reported, and the run says so.
  return (c.failed && !o.cached) || c.games_refused > 0 ? kExitDataFailed : exit_code;
}

}  // namespace virrey::cli
