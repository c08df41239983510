#include "generate_command.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "interrupt_cleanup.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "text_table.hpp"
#include "virrey/analyse/self_play.hpp"
#include "virrey/engine/process.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/generate/game_generator.hpp"
#include "virrey/generate/swiss.hpp"

namespace virrey::cli {

namespace {

// What --stats reports: endings, results, plies and promotions.
struct GenerationStats {
  std::uint64_t games = 0;
  std::uint64_t plies = 0;
  std::array<std::uint64_t, generate::kEndingCount> endings{};
  std::array<std::uint64_t, 3> results{};  // white wins, black wins, draws
  int files = 8;                           // board width of the variant
  // [colour][file][piece type]
  std::array<std::array<std::array<std::uint64_t, kPieceTypeCount>, 9>, 2> promotions{};
  std::uint64_t games_with_promotion = 0;
  std::uint64_t games_with_viceroy = 0;

  void add(const generate::GeneratedGame& g) {
    const auto& rec = g.record;
    ++games;
    plies += rec.main_line.size();
    endings[std::size_t(g.ending)]++;
    if (rec.result != GameResult::Unknown) results[std::size_t(rec.result)]++;
    bool promoted = false, viceroy = false;
    for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
      const Move m = rec.main_line[i];
      if (m.kind() != MoveKind::Promotion) continue;
      promotions[i % 2][std::size_t(m.to() % files)][index(m.promotion())]++;
      promoted = true;
      viceroy |= m.promotion() == PieceType::Viceroy;
    }
    games_with_promotion += promoted;
    games_with_viceroy += viceroy;
  }

  void merge(const GenerationStats& o) {
    games += o.games;
    plies += o.plies;
    for (std::size_t i = 0; i < endings.size(); ++i) endings[i] += o.endings[i];
    for (std::size_t i = 0; i < results.size(); ++i) results[i] += o.results[i];
    for (std::size_t c = 0; c < 2; ++c)
      for (std::size_t f = 0; f < promotions[c].size(); ++f)
        for (std::size_t p = 0; p < std::size_t(kPieceTypeCount); ++p)
          promotions[c][f][p] += o.promotions[c][f][p];
    games_with_promotion += o.games_with_promotion;
    games_with_viceroy += o.games_with_viceroy;
  }

  std::string text() const {
    const double n = games ? double(games) : 1.0;
    std::string out = fmt::format("games {}\nplies {} (mean {:.1f})\n", games, plies, plies / n);
    out +=
        fmt::format("results 1-0 {} ({:.1f}%), 0-1 {} ({:.1f}%), 1/2-1/2 {} ({:.1f}%)\n", results[0],
                    100 * results[0] / n, results[1], 100 * results[1] / n, results[2], 100 * results[2] / n);
    using Align = TextTable::Align;
    TextTable by_ending({{"", Align::Left, 22}, {"", Align::Right, 9}, {"", Align::Left}}, " ");
    for (int e = 0; e < generate::kEndingCount; ++e) {
      const std::uint64_t count = endings[std::size_t(e)];
      by_ending.add({std::string(generate::ending_name(generate::Ending(e))), fmt::format("{}", count),
                     fmt::format("({:.1f}%)", 100 * count / n)});
    }
    out += by_ending.render_rows("ending ");
    out += fmt::format("games with a promotion {} ({:.1f}%), with a viceroy promotion {} ({:.1f}%)\n",
                       games_with_promotion, 100 * games_with_promotion / n, games_with_viceroy,
                       100 * games_with_viceroy / n);
    out += "promotions by file (white/black), piece:\n";
    for (int f = 0; f < files; ++f) {
      out += fmt::format("  {}:", char('a' + f));
      for (int p = 0; p < kPieceTypeCount; ++p) {
        const auto w = promotions[0][std::size_t(f)][std::size_t(p)];
        const auto b = promotions[1][std::size_t(f)][std::size_t(p)];
        if (w || b) out += fmt::format(" {} {}/{}", piece_letter(PieceType(p)), w, b);
      }
      out += '\n';
    }
    return out;
  }
};

// One Swiss tournament, written as its games are made.
int write_swiss(const GenerateOptions& o, Variant variant, std::FILE* out) {
  generate::SwissOptions options;
  options.variant = variant;
  options.seed = o.seed;
  options.players = o.players;
  options.rounds = o.rounds;
  bool failed = false;
  std::uint64_t games = 0;
  generate::swiss_tournament(options, [&](game::GameRecord& rec) {
    const std::string text = game::write_pgn(rec);
    failed |= std::fwrite(text.data(), 1, text.size(), out) != text.size();
    ++games;
  });
  if (std::fflush(out) != 0 || std::ferror(out) || failed) {
    log::error("cannot write {}: {}", o.output.empty() ? "standard output" : o.output, std::strerror(errno));
    return kExitIo;
  }
  log::info("a Swiss tournament of {} players, {} rounds: {} games", o.players, o.rounds, games);
  return kExitOk;
}

}  // namespace

namespace {

// Engine-against-engine games, one after another.
// `output` gives the stream the first game goes to (nullptr: it could not be
// made, and said why).
int run_self_play(const GenerateOptions& o, Variant variant, const std::function<std::FILE*()>& output) {
  analyse::SelfPlayOptions options;
  options.variant = variant;
  if (o.engine != "default") {
    options.engine.path = engine::find_program(o.engine).value_or(o.engine);
    options.engine.protocol = o.protocol == "xboard" ? engine::Protocol::Xboard : engine::Protocol::Uci;
  } else {
    const auto d = engine::default_engine(variant);
    if (!engine::find_program(d.program)) {
      log::error(
          "no engine for {} games: {} is not on PATH nor in /usr/games (install the Debian package {})",
          info(variant).cli_name, d.program, d.package);
      return kExitIo;
    }
  }
  options.limits = {o.nodes, 0, 0};
  options.seed = o.seed;
  options.opening_plies = o.opening_plies;
  analyse::SelfPlay play(options);
  std::FILE* out = nullptr;
  for (std::uint64_t i = 0; i < o.games; ++i) {
    auto rec = play.game(o.first + i);
    if (!rec) {
      log::error("{}", rec.error().message);
      return kExitIo;
    }
    if (!out && !(out = output())) return kExitIo;
    const std::string text = game::write_pgn(*rec) + '\n';
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size()) {
      end_if_reader_gone(errno);  // (SIGPIPE is ignored once an engine has started)
      log::error("cannot write {}: {}", o.output.empty() ? "standard output" : o.output,
                 std::strerror(errno));
      return kExitIo;
    }
  }
  if (!out) return kExitOk;
  if (const auto why = flush_failure(out)) {  // (a reader gone: ends as SIGPIPE)
    log::error("cannot write {}{}", o.output.empty() ? "standard output" : o.output, *why);
    return kExitIo;
  }
  return kExitOk;
}

// Those of `names` the command line gave, in the order of `names`.
std::vector<std::string_view> options_given(const GenerateOptions& o,
                                            std::initializer_list<std::string_view> names) {
  std::vector<std::string_view> out;
  for (std::string_view n : names)
    if (std::find(o.given.begin(), o.given.end(), n) != o.given.end()) out.push_back(n);
  return out;
}

}  // namespace

int run_generate(const GenerateOptions& o) {
  const auto variant = variant_option(o.variant);
  if (!variant) return kExitUsage;
  if (!output_allowed("--output", o.output, {})) return kExitUsage;
  // Options of one way of making games given to the other: refused, not ignored.
  const auto given = [&](std::initializer_list<std::string_view> names) { return options_given(o, names); };
  if (const auto stray = o.engine.empty()
                             ? given({"--protocol", "--nodes", "--opening-plies"})
                             : given({"--system", "--players", "--rounds", "--threads", "--stats"});
      !stray.empty()) {
    const bool one = stray.size() == 1;
    if (o.engine.empty())
      log::error("{} {} only with --engine", name_list(stray, " and "), one ? "applies" : "apply");
    else
      log::error("{} {} not apply with --engine (engine self-play plays --games games one after another)",
                 name_list(stray, " and "), one ? "does" : "do");
    return kExitUsage;
  }
  if (!o.engine.empty()) {
    run_on_interrupt(engine::kill_running_processes);  // no engine plays on without virrey
    // Written game by game: a self-play run stopped early keeps its games.
    // The file is made with the first game: a run whose engine does not
    // start keeps the file before.
    File file;
    return run_self_play(o, *variant, [&]() -> std::FILE* {
      if (o.output.empty()) return stdout;
      file = create_file(o.output);
      return file.get();
    });
  }
  if (!threads_in_range(o.threads)) return kExitUsage;
  const bool swiss = o.system == "swiss";
  if (swiss && !given({"--games", "--first"}).empty()) {
    log::error("--games and --first do not apply to --system swiss: its games are --players x --rounds / 2");
    return kExitUsage;
  }
  if (swiss) {
    if (const auto stray = given({"--threads", "--stats"}); !stray.empty()) {
      log::error("{} {} not apply to --system swiss (one tournament, paired round by round)",
                 name_list(stray, " and "), stray.size() == 1 ? "does" : "do");
      return kExitUsage;
    }
  }
  if (!swiss && !given({"--players", "--rounds"}).empty()) {
    log::error("--players and --rounds apply to --system swiss");
    return kExitUsage;
  }
  if (swiss && (o.players < 2 || o.players > 4000 || o.rounds < 1 || o.rounds >= o.players)) {
    log::error("--system swiss: --players must be 2 to 4000 and --rounds 1 to players - 1");
    return kExitUsage;
  }

  StagedFile staged;  // put in place once every game is written
  if (!o.output.empty() && !staged.open(o.output)) return kExitIo;
  std::FILE* const out = o.output.empty() ? stdout : staged.get();
  if (swiss) {
    const int rc = write_swiss(o, *variant, out);
    return rc == kExitOk && !staged.commit(true) ? kExitIo : rc;
  }

  generate::GeneratorOptions options;
  options.variant = *variant;
  options.seed = o.seed;
  const std::size_t threads = std::size_t(o.threads);
  std::vector<generate::GameGenerator> generators(threads, generate::GameGenerator(options));
  std::vector<GenerationStats> stats(threads);
  for (GenerationStats& s : stats) s.files = info(*variant).width;
  const std::uint64_t batch = threads == 1 ? 64 : 1024 * threads;
  std::vector<std::string> texts(std::size_t(std::min(batch, std::max<std::uint64_t>(o.games, 1))));

  Progress progress;
  std::uint64_t bytes = 0;
  bool write_failed = false;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t done = 0; done < o.games && !write_failed;) {
    const std::size_t n = std::size_t(std::min(batch, o.games - done));
    auto work = [&, done, n](std::size_t t) {
      for (std::size_t i = t; i < n; i += threads) {
        const generate::GeneratedGame g = generators[t].game(o.first + done + i);
        if (o.stats) stats[t].add(g);
        texts[i] = game::write_pgn(g.record);
      }
    };
    if (threads == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work, t);
      for (auto& th : pool) th.join();
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (std::fwrite(texts[i].data(), 1, texts[i].size(), out) != texts[i].size()) {
        write_failed = true;
        break;
      }
      bytes += texts[i].size();
    }
    done += n;
    progress.update(done, bytes);
  }
  progress.finish();
  if (std::fflush(out) != 0 || std::ferror(out)) write_failed = true;
  if (write_failed) {
    log::error("cannot write {}: {}", o.output.empty() ? "standard output" : o.output, std::strerror(errno));
    return kExitIo;
  }
  if (!staged.commit(true)) return kExitIo;

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log::info("{} {} games, {:.1f} MB, in {:.2f} s ({:.0f} games/s)", o.games, info(*variant).cli_name,
            bytes / 1e6, seconds, seconds > 0 ? double(o.games) / seconds : 0.0);
  if (o.stats) {
    for (std::size_t t = 1; t < threads; ++t) stats[0].merge(stats[t]);
    const std::string text = stats[0].text();
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
  return kExitOk;
}

}  // namespace virrey::cli
