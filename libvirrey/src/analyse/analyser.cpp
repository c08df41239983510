#include "virrey/analyse/analyser.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::analyse {

using engine::Engine;
using engine::EngineConfig;
using engine::Evaluation;
using engine::Score;

void SideSummary::add(const MoveAnalysis& m) {
  if (!m.judged) {
    ++unjudged;
    return;
  }
  ++moves;
  cp_loss += std::uint64_t(m.cp_loss);
  accuracy_sum += std::uint64_t(std::llround(m.accuracy / kAccuracyUnit));
  inaccuracies += m.judgement == Judgement::Inaccuracy;
  mistakes += m.judgement == Judgement::Mistake;
  blunders += m.judgement == Judgement::Blunder;
}

void SideSummary::add(const SideSummary& s) {
  moves += s.moves;
  unjudged += s.unjudged;
  cp_loss += s.cp_loss;
  accuracy_sum += s.accuracy_sum;
  inaccuracies += s.inaccuracies;
  mistakes += s.mistakes;
  blunders += s.blunders;
}

namespace {

// The board, side, castling and en-passant fields: what makes two positions
// the same for the cache (the clocks differ between transpositions).
std::string fen_key(const std::string& fen) {
  std::size_t at = 0;
  for (int field = 0; field < 4 && at != std::string::npos; ++field) at = fen.find(' ', at + 1);
  return at == std::string::npos ? fen : fen.substr(0, at);
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
  return h;
}

// Cache values: "1", the position key, the engine description, then
// "mate value nodes depth", the best move (UCI, SAN) and the line (SAN).
std::string encode(const std::string& fen4, const std::string& engine, const Evaluation& e) {
  std::string pv;
  for (const auto& m : e.pv_san) pv += (pv.empty() ? "" : " ") + m;
  return fmt::format("1\n{}\n{}\n{} {} {} {}\n{}\n{}\n{}", fen4, engine, e.score.mate ? 1 : 0, e.score.value,
                     e.nodes, e.depth, e.best_uci, e.best_san, pv);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = s.find(sep, start);
    out.emplace_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::optional<Evaluation> decode(std::string_view value, const std::string& fen4, const std::string& engine) {
  const auto lines = split(value, '\n');
  if (lines.size() != 7 || lines[0] != "1" || lines[1] != fen4 || lines[2] != engine) return std::nullopt;
  Evaluation e;
  int mate = 0;
  unsigned long long nodes = 0;
  if (std::sscanf(lines[3].c_str(), "%d %d %llu %d", &mate, &e.score.value, &nodes, &e.depth) != 4)
    return std::nullopt;
  e.score.mate = mate != 0;
  e.nodes = nodes;
  e.best_uci = lines[4];
  e.best_san = lines[5];
  if (!lines[6].empty()) e.pv_san = split(lines[6], ' ');
  return e;
}

// One position to search, with where it was first met.
struct Task {
  Variant variant = Variant::Standard;
  std::string fen;
  std::string memo_key;
  store::AnalysisKey key;
  std::uint64_t game = 0;
  std::uint32_t ply = 0;
  std::optional<Evaluation> result;
  std::vector<Finding> findings;
  std::uint64_t restarts = 0;
};

// What a game's replay yields for each position: its FEN, and the evaluation
// when it is final (mate, stalemate) or once known.
struct PositionSlot {
  std::string fen;
  std::string memo_key;
  std::uint64_t hash = 0;
  std::optional<Evaluation> eval;
  bool needed = false;
  int task = -1;
  bool task_first = false;  // the position the task was made for (else met again in the batch)
};

}  // namespace

struct Analyser::Impl {
  Options options;
  store::Database* cache = nullptr;
  // One engine per variant per job, started when first needed.
  std::vector<std::array<std::unique_ptr<Engine>, kVariantCount>> workers;
  // Per job and variant: its engine was stopped after a failure (its next start is a restart).
  std::vector<std::array<bool, kVariantCount>> stopped_after_failure;
  std::array<std::string, kVariantCount> engine_names;  // name and version
  std::array<std::string, kVariantCount> engine_descs;  // what the cache key hashes
  std::array<std::string, kVariantCount> refusals;      // why the engine does not play a variant
  std::unordered_map<std::string, Evaluation> memo;     // this run's evaluations
  // Per variant: positions in a row its engines left unevaluated, and whether
  // they were given up (an engine that always hangs would cost every
  // position its timeout: a large database, days).
  static constexpr int kGiveUpAfter = 5;
  std::array<std::atomic<int>, kVariantCount> failures_in_a_row{};
  std::array<std::atomic<bool>, kVariantCount> given_up{};

  EngineConfig config_for(Variant v) const {
    EngineConfig c = options.engine;
    if (c.path.empty()) {
      const auto d = engine::default_engine(v);
      c.path = engine::find_program(d.program).value_or(std::string(d.program));
      c.protocol = d.protocol;
    }
    return c;
  }

  Engine& engine(int job, Variant v) {
    auto& e = workers[std::size_t(job)][std::size_t(v)];
    if (!e) e = std::make_unique<Engine>(config_for(v));
    return *e;
  }

  // Starts the first job's engine for v, to learn its name for the cache key.
  // An engine that does not play the variant is no error: its games are
  // left unevaluated (refusals).
  Status describe(Variant v) {
    if (!engine_descs[std::size_t(v)].empty() || !refusals[std::size_t(v)].empty()) return {};
    Engine& e = engine(0, v);
    auto err = e.start(v);
    // Once more, for an engine killed while it started.
    if (err && err->failure != engine::Failure::Variant && err->failure != engine::Failure::Option)
      err = e.start(v);
    if (err && err->failure == engine::Failure::Variant) {
      refusals[std::size_t(v)] = engine::variant_refusal(e, v, *err);
      engine_names[std::size_t(v)] = e.name();
      e.stop();
      return {};
    }
    if (err && err->failure == engine::Failure::Option) {
      e.stop();
      return Error{
          ErrorKind::InvalidArgument,
          fmt::format("{}{} (the engine {})", err->message.starts_with("--") ? "" : "--engine-option ",
                      err->message, e.config().path)};
    }
    if (err)
      return Error{ErrorKind::Io,
                   fmt::format("cannot start the engine {}: {}", e.config().path, err->message)};
    const EngineConfig& c = e.config();
    std::string desc =
        fmt::format("{}|{}|{}|hash {}", e.name(), c.protocol == engine::Protocol::Uci ? "uci" : "xboard",
                    info(v).cli_name, c.hash_mb);
    auto opts = c.options;
    std::sort(opts.begin(), opts.end());
    // Lengths first, so that no value's '|' or '=' makes two setups one key.
    for (const auto& [k, val] : opts) desc += fmt::format("|{}:{}={}:{}", k.size(), k, val.size(), val);
    desc += fmt::format("|{}", options.limits.describe());
    engine_names[std::size_t(v)] = e.name();
    engine_descs[std::size_t(v)] = desc;
    return {};
  }

  // Searches one task on job `job`'s engine: a crash is retried once on a
  // fresh engine; a timeout, a malformed or an illegal answer is not
  // (the engine is restarted for the next position).
  void run(int job, Task& t) {
    const auto v = std::size_t(t.variant);
    if (given_up[v]) return;  // left unevaluated, reported once
    Engine& e = engine(job, t.variant);
    bool& stopped = stopped_after_failure[std::size_t(job)][std::size_t(t.variant)];
    for (int attempt = 0; attempt < 2; ++attempt) {
      std::optional<engine::EngineError> err;
      if (e.pid() <= 0) {
        // A start after a failure (here, or at an earlier position) is a restart.
        err = e.start(t.variant);
        if (stopped) ++t.restarts;
        stopped = false;
      }
      if (!err) {
        with_geometry(t.variant, [&](auto g) {
          using G = decltype(g);
          FenProblems problems;
          auto pos = position_from_fen<G>(t.fen, t.variant, problems);
          if (!pos) {
            err = engine::EngineError{engine::Failure::Malformed, "bad position " + t.fen};
            return;
          }
          Evaluation ev;
          err = engine::checked_search(e, *pos, options.limits, ev);
          if (!err) t.result = std::move(ev);
        });
      }
      if (!err) {
        failures_in_a_row[v] = 0;
        return;
      }
      const bool retry = err->failure == engine::Failure::Crashed && attempt == 0;
      t.findings.push_back({t.game, t.ply, std::string(engine::failure_name(err->failure)),
                            fmt::format("{} at {}: {}; the engine is restarted{}",
                                        e.name().empty() ? e.config().path : e.name(), t.fen, err->message,
                                        retry ? " and asked again" : ", the position left unevaluated")});
      e.stop();
      stopped = true;
      if (retry) continue;
      // (Jobs searching at once may each reach the count: one reports it.)
      if (++failures_in_a_row[v] >= kGiveUpAfter && !given_up[v].exchange(true)) {
        t.findings.push_back({t.game, t.ply, "engine-given-up",
                              fmt::format("{} failed {} positions in a row: it is given up, and the other {} "
                                          "positions of this run are left unevaluated",
                                          e.name().empty() ? e.config().path : e.name(), kGiveUpAfter,
                                          info(t.variant).cli_name)});
      }
      return;
    }
  }
};

Analyser::Analyser(Options options, store::Database* cache) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  impl_->options.jobs = std::max(1, impl_->options.jobs);
  impl_->cache = cache;
  impl_->workers.resize(std::size_t(impl_->options.jobs));
  impl_->stopped_after_failure.resize(std::size_t(impl_->options.jobs));
}

Analyser::~Analyser() = default;

Status Analyser::check_engine(Variant v) const {
  if (const std::string& path = impl_->options.engine.path; !path.empty()) {
    if (engine::find_program(path)) return {};
    if (path.find('/') == std::string::npos)
      return Error{ErrorKind::Io, fmt::format("the engine {} is not on PATH nor in /usr/games", path)};
    return Error{ErrorKind::Io, fmt::format("the engine {} is not an executable file", path)};
  }
  const auto d = engine::default_engine(v);
  if (!engine::find_program(d.program))
    return Error{ErrorKind::Io, fmt::format("no engine for {} games: {} is not on PATH nor in /usr/games "
                                            "(install the Debian package {}, or name one with --engine)",
                                            info(v).cli_name, d.program, d.package)};
  return {};
}

Status Analyser::analyse(std::vector<GameAnalysis>& games, std::vector<Finding>& findings) {
  Impl& d = *impl_;
  std::vector<std::vector<PositionSlot>> slots(games.size());
  std::vector<Task> tasks;
  std::unordered_map<std::string, int> task_of;
  // Replays each game, marks the positions its judged moves need, and finds
  // each in this run's evaluations, the cache, or makes it a task.
  for (std::size_t gi = 0; gi < games.size(); ++gi) {
    GameAnalysis& g = games[gi];
    const game::GameRecord& rec = g.record;
    g.moves.clear();
    if (Status s = d.describe(rec.variant); !s) return s;
    g.engine = d.engine_names[std::size_t(rec.variant)];
    auto& ps = slots[gi];
    bool replayed = with_geometry(rec.variant, [&](auto geometry) {
      using G = decltype(geometry);
      FenProblems problems;
      std::optional<Position<G>> start = rec.start_fen.empty()
                                             ? variant_start<G>(rec.variant)
                                             : position_from_fen<G>(rec.start_fen, rec.variant, problems);
      if (!start) return false;
      Position<G> pos = *start;
      if (rec.bishop_swap()) pos.enable_bishop_swap();
      for (std::size_t i = 0; i <= rec.main_line.size(); ++i) {
        PositionSlot slot;
        slot.fen = write_fen(pos);
        slot.hash = pos.hash();
        slot.memo_key = fmt::format("{}{}", int(rec.variant), fen_key(slot.fen));
        const MoveList legal = legal_moves(pos);
        // The game is over: mate, stalemate, or a dead position by material
        // (K v K...), where no engine is asked (some answer a draw claim).
        if (legal.empty() || insufficient_material(pos))
          slot.eval = Evaluation{Score{legal.empty() && pos.in_check(), 0}, {}, {}, {}, 0, 0};
        ps.push_back(std::move(slot));
        if (i == rec.main_line.size()) break;
        const Move m = rec.main_line[i];
        MoveAnalysis ma;
        ma.ply = std::uint32_t(i + 1);
        ma.mover = pos.side_to_move();
        ma.san = write_san(pos, m, legal);
        ma.fen = ps.back().fen;
        g.moves.push_back(std::move(ma));
        pos.play(m);
      }
      return true;
    });
    if (!replayed) {
      findings.push_back({g.number, 0, "bad-start-position", "the game's start position is not valid"});
      g.moves.clear();
      ps.clear();
      continue;
    }
    // Only the moves asked for are judged.
    std::vector<MoveAnalysis> chosen;
    for (auto& m : g.moves)
      if (m.ply >= d.options.ply_from && m.ply <= d.options.ply_to &&
          (!d.options.side || *d.options.side == m.mover))
        chosen.push_back(std::move(m));
    g.moves = std::move(chosen);
    for (auto& m : g.moves) {
      m.fen_after = ps[m.ply].fen;
      ps[m.ply - 1].needed = true;
      ps[m.ply].needed = true;
    }
    const std::string& desc = d.engine_descs[std::size_t(rec.variant)];
    const std::string& refusal = d.refusals[std::size_t(rec.variant)];
    if (!refusal.empty()) {
      findings.push_back({g.number, 0, std::string(engine::failure_name(engine::Failure::Variant)),
                          "not judged: " + refusal});
      ++counters_.games_refused;
    }
    for (std::size_t i = 0; i < ps.size(); ++i) {
      PositionSlot& s = ps[i];
      if (!s.needed) continue;
      ++counters_.positions;
      if (s.eval) {
        ++counters_.game_over;
        continue;
      }
      if (!refusal.empty()) {
        ++counters_.failed;
        continue;
      }
      if (auto it = d.memo.find(s.memo_key); it != d.memo.end()) {
        s.eval = it->second;
        ++counters_.from_run;
        continue;
      }
      // Counted once the task is done: from this run if it found a score.
      if (auto it = task_of.find(s.memo_key); it != task_of.end()) {
        s.task = it->second;
        continue;
      }
      const store::AnalysisKey key{rec.variant, s.hash, fnv1a(desc)};
      if (d.cache) {
        auto found = d.cache->find_analysis(key);
        if (!found) return found.status();
        if (*found) {
          if (auto ev = decode(**found, s.memo_key.substr(1), desc)) {
            s.eval = *ev;
            d.memo.emplace(s.memo_key, std::move(*ev));
            ++counters_.from_cache;
            continue;
          }
        }
      }
      Task t;
      t.variant = rec.variant;
      t.fen = s.fen;
      t.memo_key = s.memo_key;
      t.key = key;
      t.game = g.number;
      t.ply = std::uint32_t(i);
      s.task = int(tasks.size());
      s.task_first = true;
      task_of.emplace(s.memo_key, s.task);
      tasks.push_back(std::move(t));
    }
  }

  // The searches, shared out to the jobs.
  if (!d.options.cache_only && !tasks.empty()) {
    std::atomic<std::size_t> next{0};
    auto work = [&](int job) {
      for (std::size_t i; (i = next.fetch_add(1)) < tasks.size();) d.run(job, tasks[i]);
    };
    const int jobs = int(std::min<std::size_t>(std::size_t(d.options.jobs), tasks.size()));
    std::vector<std::thread> threads;
    for (int j = 1; j < jobs; ++j) threads.emplace_back(work, j);
    work(0);
    for (auto& t : threads) t.join();
  }
  std::vector<std::pair<store::AnalysisKey, std::string>> entries;
  for (Task& t : tasks) {
    for (auto& f : t.findings) findings.push_back(std::move(f));
    counters_.restarts += t.restarts;
    if (!t.result) continue;  // also every task of --cached: not in the cache
    const std::string& desc = d.engine_descs[std::size_t(t.variant)];
    entries.emplace_back(t.key, encode(t.memo_key.substr(1), desc, *t.result));
    d.memo.emplace(t.memo_key, *t.result);
  }
  if (d.cache && d.cache->writable() && !entries.empty())
    if (Status s = d.cache->put_analyses(entries); !s) return s;
  // Bounded memory over long runs: this run's evaluations are forgotten now
  // and then (the cache still has them).
  if (d.memo.size() > 2'000'000) d.memo.clear();

  // The positions met in the tasks: searched, met again in this run, or
  // left unevaluated.
  for (const auto& ps : slots)
    for (const PositionSlot& s : ps) {
      if (!s.needed || s.task < 0) continue;
      if (!tasks[std::size_t(s.task)].result)
        ++counters_.failed;
      else
        ++(s.task_first ? counters_.searched : counters_.from_run);
    }

  // The judgements, game by game.
  for (std::size_t gi = 0; gi < games.size(); ++gi) {
    GameAnalysis& g = games[gi];
    auto& ps = slots[gi];
    g.white = g.black = SideSummary{};
    for (MoveAnalysis& m : g.moves) {
      auto eval_of = [&](PositionSlot& s) -> std::optional<Evaluation> {
        if (s.eval) return s.eval;
        if (s.task >= 0 && tasks[std::size_t(s.task)].result) return tasks[std::size_t(s.task)].result;
        return std::nullopt;
      };
      m.before = eval_of(ps[m.ply - 1]);
      m.after = eval_of(ps[m.ply]);
      m.judged = m.before && m.after;
      if (m.judged) {
        const double before = winning_chances(m.before->score);
        const double after = -winning_chances(m.after->score);
        // The engine's own choice loses nothing, whatever a deeper look at the
        // next position says (low limits disagree with themselves).
        const bool best = m.before->best_san == m.san;
        m.loss = best ? 0.0 : std::max(0.0, before - after);
        m.cp_loss = best ? 0 : std::max(0, model_cp(m.before->score) + model_cp(m.after->score));
        m.accuracy = move_accuracy(m.loss);
        m.judgement = best ? Judgement::Good : judge_move(m.before->score, m.after->score, m.loss);
      }
      (m.mover == Color::White ? g.white : g.black).add(m);
    }
  }
  return {};
}

std::string eval_text(Score s, Color to_move) {
  const int v = to_move == Color::White ? s.value : -s.value;
  if (s.mate) return fmt::format("#{}", v);
  return fmt::format("{:.2f}", v / 100.0);
}

game::GameRecord annotated_record(const GameAnalysis& g) {
  game::GameRecord out = g.record;
  out.movetext.clear();
  // The engine that judged the moves (lichess names itself so).
  if (!g.engine.empty()) {
    auto annotator = std::find_if(out.tags.begin(), out.tags.end(),
                                  [](const game::TagPair& t) { return t.name == "Annotator"; });
    if (annotator == out.tags.end())
      out.tags.push_back({"Annotator", g.engine});
    else
      annotator->value = g.engine;
  }
  std::size_t next = 0;
  for (std::size_t i = 0; i < g.record.main_line.size(); ++i) {
    const std::uint32_t ply = std::uint32_t(i + 1);
    const MoveAnalysis* m = next < g.moves.size() && g.moves[next].ply == ply ? &g.moves[next++] : nullptr;
    // The move's canonical SAN from the original movetext.
    std::string san = m ? m->san : std::string();
    if (san.empty())
      for (const auto& item : g.record.movetext)
        if (item.kind == game::ItemKind::Move && item.ply == ply) {
          san = item.text;
          break;
        }
    out.movetext.push_back({game::ItemKind::Move, 0, ply, g.record.main_line[i], san});
    if (!m || !m->judged) continue;
    if (const int nag = judgement_nag(m->judgement))
      out.movetext.push_back({game::ItemKind::Nag, std::uint8_t(nag), 0, {}, {}});
    const bool mate_now = m->after->score.mate && m->after->score.value == 0;
    std::string comment = mate_now ? "" : fmt::format("[%eval {}]", eval_text(m->after->score, ~m->mover));
    if (m->judgement != Judgement::Good && !m->before->best_san.empty()) {
      std::string name(judgement_name(m->judgement));
      name[0] = char(name[0] - 'a' + 'A');
      comment += fmt::format("{}{}. {} was best.", comment.empty() ? "" : " ", name, m->before->best_san);
    }
    if (!comment.empty()) out.movetext.push_back({game::ItemKind::Comment, 0, 0, {}, comment});
    if ((m->judgement == Judgement::Mistake || m->judgement == Judgement::Blunder) &&
        !m->before->pv_san.empty()) {
      out.movetext.push_back({game::ItemKind::BeginVariation, 0, 0, {}, {}});
      std::uint32_t p = ply;
      for (const auto& s : m->before->pv_san) out.movetext.push_back({game::ItemKind::Move, 0, p++, {}, s});
      out.movetext.push_back({game::ItemKind::EndVariation, 0, 0, {}, {}});
    }
  }
  return out;
}

}  // namespace virrey::analyse
