// `virrey analyse` and the engine layer with the real Debian engines
// (stockfish, sjaakii, fairy-stockfish) and fake ones (tests/data/engines):
// judgements against lichess's formula worked by hand, a blunder and a mate
// found, the cache hit on a transposition, an engine killed mid-run, and
// engines that answer an illegal move or hang.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "run_virrey.hpp"
#include "temp_dir.hpp"
#include "virrey/analyse/judgement.hpp"
#include "virrey/analyse/players.hpp"
#include "virrey/engine/search.hpp"
#include "virrey/rules/fen.hpp"

namespace virrey {
namespace {

using testing::read_file;
using testing::run_virrey;
using testing::RunResult;
using testing::TempDir;

const std::string kEngines = std::string(VIRREY_TEST_DATA) + "/engines/";

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// --- the model, against values worked by hand ----------------------------------

TEST(Judgement, WinningChancesFollowLichessFormula) {
  using analyse::winning_chances;
  EXPECT_DOUBLE_EQ(winning_chances({false, 0}), 0.0);
  // 2 / (1 + e^-0.368208) - 1 = 2 / 1.6919732 - 1 = 0.1820518
  EXPECT_NEAR(winning_chances({false, 100}), 0.1820518, 1e-6);
  EXPECT_NEAR(winning_chances({false, -100}), -0.1820518, 1e-6);
  // Clamped at 1000 cp: 2 / (1 + e^-3.68208) - 1 = 2 / 1.0251706 - 1 = 0.9508949;
  // a mate counts as that.
  EXPECT_NEAR(winning_chances({false, 5000}), 0.9508949, 1e-6);
  EXPECT_NEAR(winning_chances({true, 3}), 0.9508949, 1e-6);
  EXPECT_NEAR(winning_chances({true, 0}), -0.9508949, 1e-6);  // mated now
}

TEST(Judgement, ThresholdsAndAccuracy) {
  using analyse::Judgement;
  EXPECT_EQ(analyse::judge(0.099), Judgement::Good);
  EXPECT_EQ(analyse::judge(0.1), Judgement::Inaccuracy);
  EXPECT_EQ(analyse::judge(0.2), Judgement::Mistake);
  EXPECT_EQ(analyse::judge(0.3), Judgement::Blunder);
  EXPECT_EQ(analyse::judgement_nag(Judgement::Inaccuracy), 6);
  EXPECT_EQ(analyse::judgement_nag(Judgement::Mistake), 2);
  EXPECT_EQ(analyse::judgement_nag(Judgement::Blunder), 4);
  // A loss of 0.2 in chances is 10 points of winning percentage:
  // 103.1668 * e^-0.4354 - 3.1669 = 103.1668 * 0.6470058 - 3.1669 = 63.5826
  EXPECT_NEAR(analyse::move_accuracy(0.2), 63.5826, 1e-3);
  EXPECT_NEAR(analyse::move_accuracy(0.0), 100.0, 1e-3);
}

// lichess's mate advice (lila, Advice.scala): before from the mover's side,
// after from the opponent's.
TEST(Judgement, MateLostOrCreatedFollowsLichess) {
  using analyse::judge_move;
  using analyse::Judgement;
  // #2 let go for +9.19: a mistake (kept more than 700 cp, not more than 999).
  EXPECT_EQ(judge_move({true, 2}, {false, -919}, 0.02), Judgement::Mistake);
  EXPECT_EQ(judge_move({true, 2}, {false, -1200}, 0.0), Judgement::Inaccuracy);
  EXPECT_EQ(judge_move({true, 2}, {false, -300}, 0.1), Judgement::Blunder);
  // A mate turned against the mover: a blunder.
  EXPECT_EQ(judge_move({true, 2}, {true, 3}, 0.9), Judgement::Blunder);
  // A mate kept (longer, or delivered) is no mistake.
  EXPECT_EQ(judge_move({true, 2}, {true, -4}, 0.0), Judgement::Good);
  EXPECT_EQ(judge_move({true, 1}, {true, 0}, 0.0), Judgement::Good);
  // A mate against the mover let in, by what the mover had before.
  EXPECT_EQ(judge_move({false, -500}, {true, 5}, 0.23), Judgement::Blunder);
  EXPECT_EQ(judge_move({false, -800}, {true, 5}, 0.1), Judgement::Mistake);
  EXPECT_EQ(judge_move({false, -1100}, {true, 5}, 0.0), Judgement::Inaccuracy);
  // Mated anyway: nothing to advise.
  EXPECT_EQ(judge_move({true, -3}, {false, 200}, 0.0), Judgement::Good);
  EXPECT_EQ(judge_move({true, -3}, {true, 1}, 0.0), Judgement::Good);
  // No mate in sight: the loss decides.
  EXPECT_EQ(judge_move({false, 100}, {false, 20}, 0.25), Judgement::Mistake);
}

// --- the engines themselves ----------------------------------------------------

template <class G>
engine::Evaluation search(const engine::EngineConfig& c, Variant v, const std::string& fen,
                          engine::Limits limits) {
  engine::Engine e(c);
  auto err = e.start(v);
  EXPECT_FALSE(err) << (err ? err->message : "");
  FenProblems problems;
  auto pos = position_from_fen<G>(fen, v, problems);
  engine::Evaluation ev;
  if (!pos) {
    ADD_FAILURE() << "bad FEN " << fen;
    return ev;
  }
  err = engine::checked_search(e, *pos, limits, ev);
  EXPECT_FALSE(err) << (err ? err->message : "");
  return ev;
}

engine::EngineConfig config(const char* program, engine::Protocol p) {
  engine::EngineConfig c;
  c.path = engine::find_program(program).value_or(program);
  c.protocol = p;
  return c;
}

// A player's games count each game once, also one a name plays against
// itself ("?" against "?"); the moves of both its sides are the player's.
TEST(Players, AGameOfOneNameOnBothSidesCountsOnce) {
  analyse::PlayerTable table;
  auto game = [&](const char* white, const char* black, std::uint64_t white_moves,
                  std::uint64_t black_moves) {
    analyse::GameAnalysis g;
    g.record.tags = {{"White", white}, {"Black", black}};
    g.white.moves = white_moves;
    g.black.moves = black_moves;
    table.add(g);
  };
  game("A", "B", 3, 2);
  game("?", "?", 4, 4);
  game("A", "A", 1, 1);
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> seen;  // name -> games, moves
  for (const analyse::PlayerSummary& p : table.players()) seen[p.name] = {p.games, p.moves.moves};
  EXPECT_EQ(seen["A"], (std::pair<std::uint64_t, std::uint64_t>{2, 5}));
  EXPECT_EQ(seen["B"], (std::pair<std::uint64_t, std::uint64_t>{1, 2}));
  EXPECT_EQ(seen["?"], (std::pair<std::uint64_t, std::uint64_t>{1, 8}));
}

constexpr const char* kBackRankMate = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

TEST(Engines, StockfishFindsMateInOne) {
  const auto ev = search<Board8>(config("stockfish", engine::Protocol::Uci), Variant::Standard, kBackRankMate,
                                 {20000, 0, 0});
  EXPECT_EQ(ev.score, (engine::Score{true, 1}));
  EXPECT_EQ(ev.best_san, "Ra8#");
  EXPECT_EQ(ev.best_uci, "a1a8");
}

TEST(Engines, SjaakSpeaksXboardInVirreyChess) {
  const auto ev = search<Board8>(config("sjaakii", engine::Protocol::Xboard), Variant::Virrey, kBackRankMate,
                                 {20000, 0, 0});
  EXPECT_EQ(ev.score, (engine::Score{true, 1}));
  EXPECT_EQ(ev.best_san, "Ra8#");
  // Black to move, a rook down: a clear minus, a legal line.
  const auto black = search<Board8>(config("sjaakii", engine::Protocol::Xboard), Variant::Virrey,
                                    "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", {3000, 0, 0});
  EXPECT_FALSE(black.score.mate);
  EXPECT_LT(black.score.value, -300);
  EXPECT_FALSE(black.pv_san.empty());
}

// Sjaak II plays Virrey chess only when "variant viceroy" follows "new"
// (which sets it back to chess): then a pawn on the e-file becomes a
// viceroy, and a position with a viceroy is set up and scored (as chess it
// was refused, "unknown piece type 'V'").
TEST(Engines, SjaakPlaysVirreyChessPromotionsAndViceroys) {
  const auto c = config("sjaakii", engine::Protocol::Xboard);
  // As chess, e8=Q would mate at once (an answer virrey would refuse).
  const auto promotes = search<Board8>(c, Variant::Virrey, "k7/4P3/1K6/8/8/8/8/8 w - - 0 1", {20000, 0, 0});
  EXPECT_EQ(promotes.best_san, "e8=V");
  EXPECT_TRUE(promotes.score.mate && promotes.score.value > 1) << promotes.score.value;
  const auto viceroy = search<Board8>(c, Variant::Virrey, "k3V3/8/8/8/8/8/8/4K2R b - - 0 1", {20000, 0, 0});
  EXPECT_FALSE(viceroy.best_san.empty());
  EXPECT_TRUE(viceroy.score.mate ? viceroy.score.value < 0 : viceroy.score.value < -300)
      << viceroy.score.value;
  // A search of 50 ms: "st 0.050", not a whole second.
  const auto quick = search<Board8>(c, Variant::Virrey, kBackRankMate, {0, 0, 50});
  EXPECT_EQ(quick.best_san, "Ra8#");
}

// Sjaak II prints no thinking line for a depth-1 search: virrey asks an
// XBoard engine for depth 2 at least, so a depth-1 analysis still scores.
TEST(Engines, SjaakScoresADepthOneSearch) {
  const auto ev = search<Board8>(config("sjaakii", engine::Protocol::Xboard), Variant::Virrey,
                                 "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", {0, 1, 0});
  EXPECT_FALSE(ev.score.mate);
  EXPECT_LT(ev.score.value, -300);
  EXPECT_FALSE(ev.best_san.empty());
}

TEST(Engines, FairyStockfishPlaysModernChessOnNineByNine) {
  const auto ev =
      search<Board9>(config("fairy-stockfish", engine::Protocol::Uci), Variant::Modern,
                     "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1", {5000, 0, 0});
  EXPECT_FALSE(ev.score.mate);
  EXPECT_LT(std::abs(ev.score.value), 150);
  EXPECT_FALSE(ev.best_san.empty());
  // A pawn on the 8th rank promotes on the 9th: to a piece of our choice list.
  const auto promo = search<Board9>(config("fairy-stockfish", engine::Protocol::Uci), Variant::Modern,
                                    "4k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1", {5000, 0, 0});
  EXPECT_EQ(promo.best_uci.substr(0, 4), "b8b9");
}

// --- the command ----------------------------------------------------------------

// 3...Nf6?? allows 4.Qxf7#.
constexpr const char* kScholar =
    "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

TEST(Analyse, BlunderIsMarkedAndMateReported) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  RunResult r = run_virrey({"analyse", pgn, "--nodes", "20000"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (char& c : r.out)
    if (c == '\n') c = ' ';
  // The blunder: NAG $4 (??), the mate it allows as the eval, the engine's
  // better line as a variation.
  EXPECT_NE(r.out.find("3... Nf6 $4 {[%eval #1] Blunder."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(3... "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4. Qxf7# 1-0"), std::string::npos) << r.out;

  const RunResult j = run_virrey({"analyse", pgn, "--nodes", "20000", "--format", "jsonl"}, dir.path());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(count(j.out, "\n"), 7u);
  EXPECT_NE(j.out.find("\"ply\":6,\"side\":\"black\",\"san\":\"Nf6\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"eval_after\":{\"mate\":1}"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"judgement\":\"blunder\""), std::string::npos);
}

// The annotated PGN names the engine that judged it (its `id name`, as the
// JSON Lines `engine` field), one blank line between games.
TEST(Analyse, AnnotatedGamesNameTheirEngine) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar + std::string("\n") + kScholar);
  const RunResult r = run_virrey({"analyse", pgn, "--nodes", "2000"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const RunResult j =
      run_virrey({"analyse", pgn, "--nodes", "2000", "--format", "jsonl", "--plies", "1"}, dir.path());
  const auto at = j.out.find("\"engine\":\"");
  ASSERT_NE(at, std::string::npos) << j.out;
  const std::string engine = j.out.substr(at + 10, j.out.find('"', at + 10) - at - 10);
  EXPECT_NE(engine.find("Stockfish"), std::string::npos) << engine;
  EXPECT_EQ(count(r.out, "[Annotator \"" + engine + "\"]\n"), 2u) << r.out;
  EXPECT_EQ(r.out.find("\n\n\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - 5), "1-0\n\n") << r.out;
}

TEST(Analyse, PliesAndSideChooseTheMoves) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult r = run_virrey(
      {"analyse", pgn, "--nodes", "5000", "--format", "jsonl", "--plies", "3-6", "--side", "black"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.out, "\n"), 2u) << r.out;
  EXPECT_NE(r.out.find("\"ply\":4,"), std::string::npos);
  EXPECT_NE(r.out.find("\"ply\":6,"), std::string::npos);
  // The summary: White had no move judged, so no figure, not a score of 0.
  const RunResult summary =
      run_virrey({"analyse", pgn, "--nodes", "5000", "--format", "json", "--plies", "3-6", "--side", "black"},
                 dir.path());
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.out.find("\"side\":\"white\",\"player\":"), std::string::npos) << summary.out;
  EXPECT_NE(summary.out.find("\"moves\":0,\"acpl\":null,\"accuracy\":null"), std::string::npos)
      << summary.out;
}

// The json summary's counters: "positions":{"positions":N,"searched":S,...}.
long counter(const std::string& json, const std::string& name) {
  const auto at = json.find("\"" + name + "\":");
  if (at == std::string::npos) return -1;
  return std::stol(json.substr(at + name.size() + 3));
}

TEST(Analyse, CacheHitsATransposedPositionAndARerunSearchesNothing) {
  TempDir dir;
  const auto a = write(dir.path(), "a.pgn", "[Result \"*\"]\n\n1. Nf3 Nf6 2. g3 g6 *\n");
  const auto b = write(dir.path(), "b.pgn", "[Result \"*\"]\n\n1. g3 g6 2. Nf3 Nf6 *\n");
  const std::string db = dir.path() + "/db";
  const std::vector<std::string> common = {"--db", db, "--nodes", "3000", "--format", "json"};
  auto run = [&](const std::string& pgn) {
    std::vector<std::string> args = {"analyse", pgn};
    args.insert(args.end(), common.begin(), common.end());
    return run_virrey(args, dir.path());
  };
  const RunResult first = run(a);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(counter(first.out, "searched"), 5);
  // b shares the start position and, by transposition, the position after
  // its fourth ply with a: two positions from the cache, three searched.
  const RunResult second = run(b);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(counter(second.out, "from_cache"), 2) << second.out;
  EXPECT_EQ(counter(second.out, "searched"), 3);
  const RunResult again = run(a);
  EXPECT_EQ(counter(again.out, "searched"), 0);
  EXPECT_EQ(counter(again.out, "from_cache"), 5);
}

// The pids of the children of `pid` (its engines).
std::vector<int> children(int pid) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream in(task.path() / "children");
    int child;
    while (in >> child) out.push_back(child);
  }
  return out;
}

// The engine is killed once analysis is under way: after the first eight
// games are written, while the ninth game is searched.
TEST(Analyse, EngineKilledMidRunIsRestartedAndTheRunCompletes) {
  TempDir dir;
  std::string games;
  for (const char* move : {"e4", "d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3"})
    games += std::string("[Result \"*\"]\n\n1. ") + move + " *\n\n";
  games += "[Result \"*\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 *\n";
  const auto pgn = write(dir.path(), "g.pgn", games);
  const std::string log = dir.path() + "/log";
  const std::string out = dir.path() + "/out.jsonl";
  const pid_t pid =
      testing::spawn_virrey({"analyse", pgn, "--nodes", "100000", "--format", "jsonl", "--output", out}, log);
  // Evidence that the searches run: the first batch's moves in the output
  // (bounded: two minutes on a loaded machine).
  bool under_way = false;
  for (int i = 0; i < 6000 && !under_way; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    under_way = count(testing::read_file(out), "\n") >= 8;
  }
  const std::vector<int> engines = children(pid);
  if (!under_way || engines.empty()) kill(pid, SIGKILL);
  ASSERT_TRUE(under_way) << testing::read_file(log);
  ASSERT_FALSE(engines.empty());
  kill(engines[0], SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  const std::string err = testing::read_file(log);
  EXPECT_EQ(WEXITSTATUS(status), 0) << err;
  EXPECT_NE(err.find("engine-crashed"), std::string::npos) << err;
  const std::string lines = testing::read_file(out);
  EXPECT_EQ(count(lines, "\n"), 8u + 14u);
  EXPECT_EQ(count(lines, "\"judgement\":null"), 0u) << lines;
}

TEST(Analyse, IllegalMoveIsReportedNotTrusted) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult r =
      run_virrey({"analyse", pgn, "--engine", kEngines + "illegal.sh", "--format", "jsonl", "--plies", "1-2"},
                 dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("game 1, ply 0: engine-illegal-move"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a1a1"), std::string::npos);
  EXPECT_EQ(count(r.out, "\"judgement\":null"), 2u) << r.out;
  EXPECT_EQ(r.out.find("a1a1"), std::string::npos);
  // Three positions (before ply 1, after 1 and 2), each answered so and the
  // engine stopped: started again twice.
  const RunResult summary =
      run_virrey({"analyse", pgn, "--engine", kEngines + "illegal.sh", "--format", "json", "--plies", "1-2"},
                 dir.path());
  EXPECT_NE(summary.out.find("\"unevaluated\":3,\"engine_restarts\":2"), std::string::npos) << summary.out;
}

// What analyse refuses, and what it reports: an --output that is an input
// (exit 2, the input kept), a limit of 0 or below (exit 2), a --db that
// does not exist (exit 3, nothing made), and a game with errors (named by
// file, line and number; the others analysed; exit 1).
TEST(Analyse, BadOptionsAndGamesWithErrors) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult same = run_virrey({"analyse", pgn, "--nodes", "1000", "--output", pgn}, dir.path());
  EXPECT_EQ(same.exit_code, 2) << same.err;
  EXPECT_EQ(testing::read_file(pgn), kScholar);
  for (const char* limit : {"--nodes", "--depth", "--movetime", "--hash"})
    for (const char* value : {"0", "-3"})
      EXPECT_EQ(run_virrey({"analyse", pgn, limit, value}, dir.path()).exit_code, 2) << limit << " " << value;
  const RunResult directory = run_virrey({"analyse", pgn, "--engine", dir.path()}, dir.path());
  EXPECT_EQ(directory.exit_code, 3);
  EXPECT_NE(directory.err.find("not an executable file"), std::string::npos) << directory.err;
  const RunResult no_db =
      run_virrey({"analyse", "--db", dir.path() + "/missing.db", "--nodes", "1000"}, dir.path());
  EXPECT_EQ(no_db.exit_code, 3) << no_db.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/missing.db"));
  const auto two = write(dir.path(), "two.pgn",
                         std::string("[Event \"bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n") + kScholar);
  const RunResult r =
      run_virrey({"analyse", two, "--nodes", "1000", "--plies", "1", "--format", "json"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("two.pgn:1: game 1 has errors"), std::string::npos) << r.err;
  // Its first error, located: line 4, column 13, the third ply.
  EXPECT_NE(r.err.find("two.pgn:4:13: ply 3 (2.Ke3): "), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"game\":2,\"side\":\"white\""), std::string::npos) << r.out;
}

TEST(Analyse, MalformedAnswerIsReported) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult r =
      run_virrey({"analyse", pgn, "--engine", kEngines + "garbage.sh", "--plies", "1"}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("engine-malformed-answer"), std::string::npos) << r.err;
}

TEST(Analyse, HangingEngineHitsTheTimeout) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  // (Were the timeout not kept, the run would never end: the test's own
  // timeout, tests/CMakeLists.txt, fails it.)
  const RunResult r = run_virrey({"analyse", pgn, "--engine", kEngines + "hang.sh", "--engine-timeout", "0.3",
                                  "--plies", "1", "--format", "jsonl"},
                                 dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("engine-timeout"), std::string::npos) << r.err;
}

// An engine that fails position after position is given up after five in a
// row: the rest are left unevaluated at once, not each after its timeout.
TEST(Analyse, AnEngineThatAlwaysFailsIsGivenUp) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", std::string(kScholar) + "\n" + kScholar);  // 16 positions
  const RunResult r =
      run_virrey({"analyse", pgn, "--engine", kEngines + "hang.sh", "--engine-timeout", "0.2", "--jobs", "1"},
                 dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto count = [&](const std::string& word) {
    std::size_t n = 0;
    for (std::size_t at = r.err.find(word); at != std::string::npos; at = r.err.find(word, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("engine-timeout"), 5u) << r.err;
  EXPECT_EQ(count("engine-given-up"), 1u) << r.err;
  EXPECT_NE(r.err.find("failed 5 positions in a row"), std::string::npos) << r.err;
  // Started again after each of the first four (the fifth gave it up).
  EXPECT_NE(r.err.find("game over 2, unevaluated 14; engine restarts 4\n"), std::string::npos) << r.err;
}

// Whether a process runs: it is there and no zombie (a killed orphan may
// stay a zombie where nothing reaps it).
bool running(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

// virrey stopped by a signal while its engine searches (and reads nothing)
// takes the engine with it: none is left searching on, its parent gone.
TEST(Analyse, AnEngineEndsWithVirreyStoppedByASignal) {
  for (const int sig : {SIGTERM, SIGHUP}) {
    SCOPED_TRACE(sig);
    TempDir dir;
    const auto pgn = write(dir.path(), "g.pgn", kScholar);
    const std::string log = dir.path() + "/log";
    const pid_t pid = testing::spawn_virrey(
        {"analyse", pgn, "--engine", kEngines + "busy.sh", "--engine-timeout", "60", "--plies", "1"}, log);
    // The engine has started, and has had the time to be asked to search.
    std::vector<int> engines;
    for (int i = 0; i < 3000 && engines.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      engines = children(pid);
    }
    if (engines.empty()) kill(pid, SIGKILL);
    ASSERT_FALSE(engines.empty()) << testing::read_file(log);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << testing::read_file(log);
    bool gone = false;
    for (int i = 0; i < 250 && !gone; ++i) {
      gone = !running(engines[0]);
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_TRUE(gone) << "engine " << engines[0] << " still runs";
    if (!gone) kill(engines[0], SIGKILL);
  }
}

// A game is written once analysed, not with the games after it: a run
// stopped by a signal keeps it. The engine answers game 1 (1. e4 e5) and
// never a position of game 2 (1. d4 d5).
TEST(Analyse, EachGameIsWrittenOnceAnalysedAndASignalKeepsIt) {
  TempDir dir;
  const auto pgn =
      write(dir.path(), "g.pgn", "[Result \"*\"]\n\n1. e4 e5 *\n\n[Result \"*\"]\n\n1. d4 d5 *\n");
  const std::string log = dir.path() + "/log";
  const std::string out = dir.path() + "/out.jsonl";
  const pid_t pid = testing::spawn_virrey({"analyse", pgn, "--engine", kEngines + "book.sh",
                                           "--engine-timeout", "600", "--format", "jsonl", "--output", out},
                                          log);
  bool written = false;
  for (int i = 0; i < 3000 && !written; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    written = count(testing::read_file(out), "\n") >= 2;
  }
  // (SIGTERM: a test run in the background of a shell inherits SIGINT ignored.)
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(written) << testing::read_file(log);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << testing::read_file(log);
  const std::string lines = testing::read_file(out);
  EXPECT_EQ(count(lines, "\n"), 2u) << lines;
  EXPECT_NE(lines.find("\"san\":\"e4\""), std::string::npos) << lines;
  EXPECT_NE(lines.find("\"san\":\"e5\""), std::string::npos) << lines;
  EXPECT_EQ(lines.find("\"san\":\"d4\""), std::string::npos) << lines;
}

TEST(Analyse, MissingEngineIsAClearError) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult r = run_virrey({"analyse", pgn, "--engine", "/nonexistent/engine"}, dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("/nonexistent/engine"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace virrey

namespace virrey {
namespace {

// Self-play: Sjaak II against itself in Virrey chess gives legal games that
// `virrey validate --strict` accepts, the same games again for the same seed.
TEST(SelfPlay, SjaakGamesAreLegalAndRepeatable) {
  TempDir dir;
  const std::vector<std::string> args = {"generate", "--variant", "virrey", "--engine", "default", "--games",
                                         "2",        "--nodes",   "300",    "--seed",   "5"};
  const RunResult a = run_virrey(args, dir.path());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(count(a.out, "[Variant \"virrey\"]"), 2u) << a.out;
  EXPECT_NE(a.out.find("[White \"Sjaak II 1.4.1 (nodes 300)\"]"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("[White \"Sjaak II 1.4.1 (nodes 1200)\"]"), std::string::npos);
  const RunResult b = run_virrey(args, dir.path());
  EXPECT_EQ(a.out, b.out);
  const auto pgn = write(dir.path(), "selfplay.pgn", a.out);
  const RunResult v = run_virrey({"validate", "--strict", pgn}, dir.path());
  EXPECT_EQ(v.exit_code, 0) << v.out;
}

TEST(SelfPlay, AnEngineAnsweringIllegalMovesStopsIt) {
  TempDir dir;
  const RunResult r = run_virrey({"generate", "--variant", "standard", "--engine", kEngines + "illegal.sh",
                                  "--games", "1", "--opening-plies", "0"},
                                 dir.path());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("game 1, ply 1: the engine answered \"a1a1\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace virrey

namespace virrey {
namespace {

// The players' accuracy from the cache alone equals that of the run that
// filled it, with nothing searched.
TEST(Analyse, CachedReportsAccuracyFromTheDatabase) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const std::string db = dir.path() + "/db";
  ASSERT_EQ(run_virrey({"import", "--db", db, pgn}, dir.path()).exit_code, 0);
  const RunResult first =
      run_virrey({"analyse", "--db", db, "--nodes", "3000", "--format", "json"}, dir.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const RunResult cached =
      run_virrey({"analyse", "--db", db, "--nodes", "3000", "--format", "json", "--cached"}, dir.path());
  ASSERT_EQ(cached.exit_code, 0) << cached.err;
  EXPECT_EQ(counter(cached.out, "searched"), 0);
  EXPECT_EQ(counter(cached.out, "from_cache"), 7);
  auto players = [](const std::string& s) {
    return s.substr(s.find("\"players\""), s.find("\"positions\":{") - s.find("\"players\""));
  };
  EXPECT_EQ(players(first.out), players(cached.out));
  EXPECT_NE(players(first.out).find("\"player\":\"B\""), std::string::npos) << first.out;
  // Other limits are other cache entries: nothing known.
  const RunResult other =
      run_virrey({"analyse", "--db", db, "--nodes", "4000", "--format", "json", "--cached"}, dir.path());
  EXPECT_EQ(counter(other.out, "from_cache"), 0);
  EXPECT_EQ(counter(other.out, "unevaluated"), 7);
}

}  // namespace
}  // namespace virrey

namespace virrey {
namespace {

constexpr const char* kVirreyGame =
    "[Variant \"Virrey\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n";
constexpr const char* kModernGame =
    "[Variant \"Modern\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e6 *\n\n";

// An engine that does not offer the variant is not asked about it: Stockfish
// has no UCI_Variant, Fairy-Stockfish offers no Virrey chess. With no game
// it plays, the run fails as without an engine, naming what to use instead.
// Games refused past the 8 MiB held back go out unjudged as they come,
// every one of them, and the error says the output holds them.
TEST(Analyse, ManyRefusedGamesAreAllWritten) {
  TempDir dir;
  const std::string pgn = dir.path() + "/many.pgn", out = dir.path() + "/out.pgn";
  ASSERT_EQ(run_virrey({"generate", "--variant", "virrey", "--games", "12000", "--seed", "7", "-o", pgn},
                       dir.path())
                .exit_code,
            0);
  ASSERT_GT(std::filesystem::file_size(pgn), std::uintmax_t(17) << 19);  // 8.5 MiB: more than is held back
  const RunResult r =
      run_virrey({"analyse", pgn, "--engine", "fairy-stockfish", "--nodes", "100", "-o", out}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("error: no game analysed: the engine played none of the 12000 games; " + out +
                       " holds them unjudged"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(count(read_file(out), "[Event "), 12000u);
}

TEST(Analyse, AnEngineWithoutTheVariantIsRefused) {
  engine::Engine stockfish(config("stockfish", engine::Protocol::Uci));
  const auto err = stockfish.start(Variant::Modern);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->failure, engine::Failure::Variant);
  TempDir dir;
  const auto vv = write(dir.path(), "vv.pgn", kVirreyGame);
  const RunResult fairy = run_virrey(
      {"analyse", vv, "--engine", "fairy-stockfish", "--nodes", "1000", "--format", "json"}, dir.path());
  EXPECT_EQ(fairy.exit_code, 3) << fairy.err;
  EXPECT_NE(fairy.err.find("vv.pgn:1: game 1, ply 0: engine-lacks-variant: not judged: fairy-stockfish "
                           "(Fairy-Stockfish 11.1 LB 64) does not play Virrey chess: its UCI_Variant option "
                           "offers no virrey; use --engine sjaakii --protocol xboard"),
            std::string::npos)
      << fairy.err;
  EXPECT_EQ(fairy.out, "");
  // Nor is --output touched: the run failed as without an engine.
  const auto kept = write(dir.path(), "kept.txt", "keep\n");
  for (const char* format : {"jsonl", "pgn", "text"}) {
    const RunResult to_file = run_virrey({"analyse", vv, "--engine", "fairy-stockfish", "--nodes", "1000",
                                          "--format", format, "--output", kept},
                                         dir.path());
    EXPECT_EQ(to_file.exit_code, 3) << to_file.err;
    EXPECT_EQ(read_file(kept), "keep\n") << format;
    // The failure is said as one, after the warnings that tell why.
    EXPECT_NE(to_file.err.find("error: no game analysed: the engine played none of the 1 game; " + kept +
                               " is left as it was"),
              std::string::npos)
        << to_file.err;
  }
  const auto modern = write(dir.path(), "modern.pgn", kModernGame);
  const RunResult sf =
      run_virrey({"analyse", modern, "--engine", "stockfish", "--nodes", "1000"}, dir.path());
  EXPECT_EQ(sf.exit_code, 3) << sf.err;
  EXPECT_NE(
      sf.err.find("does not play Modern chess: it has no UCI_Variant option; use --engine fairy-stockfish"),
      std::string::npos)
      << sf.err;
  // An XBoard engine that announces no variants and answers `variant` with an error.
  const RunResult xb = run_virrey(
      {"analyse", modern, "--engine", kEngines + "xboard_chess_only.sh", "--protocol", "xboard"}, dir.path());
  EXPECT_EQ(xb.exit_code, 3) << xb.err;
  EXPECT_NE(xb.err.find("it refused variant modern: Error (unknown variant): modern"), std::string::npos)
      << xb.err;
  // Sjaak II spoken to in UCI: the protocol it plays Virrey chess through.
  const RunResult uci = run_virrey(
      {"analyse", vv, "--engine", "sjaakii", "--protocol", "uci", "--nodes", "1000", "--engine-timeout", "2"},
      dir.path());
  EXPECT_EQ(uci.exit_code, 3) << uci.err;
  EXPECT_NE(uci.err.find("; it plays Virrey chess through --protocol xboard"), std::string::npos) << uci.err;
}

// A variant the engine does not play loses nothing of the games it plays:
// the Virrey game judged, the Modern one's positions unevaluated and
// reported with its place (exit 1).
TEST(Analyse, AVariantTheEngineLacksLeavesTheOtherGamesAnalysed) {
  TempDir dir;
  const auto vv = write(dir.path(), "vv.pgn", kVirreyGame);
  const auto modern = write(dir.path(), "modern.pgn", kModernGame);
  const RunResult r = run_virrey({"analyse", vv, modern, "--engine", "sjaakii", "--protocol", "xboard",
                                  "--nodes", "1000", "--format", "jsonl"},
                                 dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(
      r.err.find("modern.pgn:1: game 1, ply 0: engine-lacks-variant: not judged: sjaakii (Sjaak II 1.4.1) "
                 "does not play Modern chess: its variants feature lacks modern"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(count(r.out, "\"game\":1,"), 3u) << r.out;
  EXPECT_EQ(count(r.out, "\"judgement\":\"good\"") + count(r.out, "\"judgement\":\"inaccuracy\"") +
                count(r.out, "\"judgement\":\"mistake\"") + count(r.out, "\"judgement\":\"blunder\""),
            3u)
      << r.out;
  EXPECT_EQ(count(r.out, "\"judgement\":null"), 2u) << r.out;
}

// Every position counted is in one bucket: an engine that crashes on every
// search leaves each unevaluated, the repeated ones too (none "from this
// run"), and the mates are game over.
TEST(Analyse, PositionCountsAddUp) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", std::string(kScholar) + "\n" + kScholar);
  const RunResult r =
      run_virrey({"analyse", pgn, "--engine", kEngines + "crash.sh", "--format", "json"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"positions\":{\"positions\":16,\"searched\":0,\"from_run\":0,\"from_cache\":0,"
                       "\"game_over\":2,\"unevaluated\":14,"),
            std::string::npos)
      << r.out;
  // The text summary and the log say the same.
  const RunResult text = run_virrey({"analyse", pgn, "--nodes", "1000", "--format", "text"}, dir.path());
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("positions 16: searched 7, from this run 7, from the cache 0, game over 2, "
                          "unevaluated 0; engine restarts 0\n"),
            std::string::npos)
      << text.out;
  // The CSV summary ends with a row of the position counts alone.
  const RunResult csv = run_virrey({"analyse", pgn, "--nodes", "1000", "--format", "csv"}, dir.path());
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "game,side,player,games,moves,acpl,accuracy,inaccuracies,mistakes,blunders,positions,searched,"
            "from_run,from_cache,game_over,unevaluated,engine_restarts");
  EXPECT_EQ(csv.out.substr(csv.out.rfind('\n', csv.out.size() - 2) + 1), ",,,,,,,,,,16,7,7,0,2,0,0\n")
      << csv.out;
  EXPECT_NE(csv.out.find("1,white,A,1,4,"), std::string::npos) << csv.out;
}

// What analyse refuses or says plainly: database filters with PGN inputs,
// --summary with a summary format, --jobs and --engine-timeout out of range
// (named with the range), an engine it cannot find (and where it looked).
TEST(Analyse, OptionsThatDoNotApplyAndTheirMessages) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult player = run_virrey({"analyse", pgn, "--player", "Alice", "--eco", "C20"}, dir.path());
  EXPECT_EQ(player.exit_code, 2);
  EXPECT_NE(player.err.find("--player and --eco choose games of the database"), std::string::npos)
      << player.err;
  const RunResult summary = run_virrey({"analyse", pgn, "--summary", "--format", "csv"}, dir.path());
  EXPECT_EQ(summary.exit_code, 2);
  EXPECT_NE(summary.err.find("--summary goes with --format pgn or jsonl"), std::string::npos) << summary.err;
  const RunResult jobs = run_virrey({"analyse", pgn, "--jobs", "0"}, dir.path());
  EXPECT_EQ(jobs.exit_code, 2);
  EXPECT_NE(jobs.err.find("--jobs 0 is out of range (1 to 256)"), std::string::npos) << jobs.err;
  const RunResult timeout = run_virrey({"analyse", pgn, "--engine-timeout", "100000"}, dir.path());
  EXPECT_EQ(timeout.exit_code, 2);
  EXPECT_NE(
      timeout.err.find("--engine-timeout 100000 is out of range (seconds, more than 0 and at most 86400)"),
      std::string::npos)
      << timeout.err;
  const RunResult missing = run_virrey({"analyse", pgn, "--engine", "nosuchengine"}, dir.path());
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find("the engine nosuchengine is not on PATH nor in /usr/games"), std::string::npos)
      << missing.err;
}

// --output is left as it was by a run that fails before it has anything to
// write.
TEST(Analyse, OutputIsKeptWhenTheRunFailsFirst) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const auto out = write(dir.path(), "out.pgn", "the run before\n");
  const RunResult r = run_virrey({"analyse", pgn, "--engine", "/nonexistent/engine", "-o", out}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(testing::read_file(out), "the run before\n");
  // An --output where no file can be made is refused before any engine works.
  const RunResult nowhere =
      run_virrey({"analyse", pgn, "--nodes", "1000", "-o", dir.path() + "/no/such/dir/out.pgn"}, dir.path());
  EXPECT_EQ(nowhere.exit_code, 3);
  EXPECT_NE(
      nowhere.err.find("cannot write " + dir.path() + "/no/such/dir/out.pgn: No such file or directory"),
      std::string::npos)
      << nowhere.err;
  EXPECT_EQ(nowhere.err.find("positions"), std::string::npos) << nowhere.err;
}

// A reader of the output that goes away ends the run as SIGPIPE ends every
// command (141 in the shell), without an error of its own.
TEST(Analyse, AReaderThatGoesAwayEndsTheRun) {
  TempDir dir;
  // More output than a pipe holds (the games after the first are answered
  // from the run's own results, fast): the run cannot end before the reader
  // has gone.
  std::string games;
  for (int i = 0; i < 600; ++i) games += std::string(kScholar) + "\n";
  const auto pgn = write(dir.path(), "g.pgn", games);
  const std::string err = dir.path() + "/err";
  const std::string cmd = "bash -c \"'" + std::string(VIRREY_BINARY) + "' analyse '" + pgn +
                          "' --nodes 1000 --format jsonl 2>'" + err +
                          "' | head -1 >/dev/null; exit \\${PIPESTATUS[0]}\"";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 141) << testing::read_file(err);
  EXPECT_EQ(testing::read_file(err).find("cannot write"), std::string::npos) << testing::read_file(err);
}

// An --engine-option the engine does not announce, or a value out of its
// bounds, is refused before anything is searched (Stockfish's own options:
// Threads 1 to 1024).
TEST(Analyse, EngineOptionsAreCheckedAgainstTheEngine) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const RunResult unknown =
      run_virrey({"analyse", pgn, "--nodes", "1000", "--engine-option", "NoSuch=3"}, dir.path());
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("--engine-option NoSuch=3: the engine has no such option (it has "),
            std::string::npos)
      << unknown.err;
  EXPECT_EQ(unknown.out, "");
  const RunResult bad =
      run_virrey({"analyse", pgn, "--nodes", "1000", "--engine-option", "Threads=abc"}, dir.path());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("Threads=abc: Threads is a whole number from 1 to 1024"), std::string::npos)
      << bad.err;
  const RunResult fine = run_virrey(
      {"analyse", pgn, "--nodes", "1000", "--plies", "1", "--engine-option", "threads=1"}, dir.path());
  EXPECT_EQ(fine.exit_code, 0) << fine.err;
  // Sjaak II's options (XBoard features).
  const auto vv = write(dir.path(), "vv.pgn", kVirreyGame);
  const RunResult sjaak =
      run_virrey({"analyse", vv, "--nodes", "1000", "--engine-option", "MultiPV=999"}, dir.path());
  EXPECT_EQ(sjaak.exit_code, 2) << sjaak.err;
  EXPECT_NE(sjaak.err.find("MultiPV=999: MultiPV is a whole number from 1 to 256"), std::string::npos)
      << sjaak.err;
  // --hash: checked as Hash= is (an engine without such an option says so),
  // never beyond the machine's memory (Sjaak II's `memory` has no range and
  // it crashed at every position), and not given twice.
  const RunResult no_hash = run_virrey(
      {"analyse", pgn, "--nodes", "1000", "--engine", kEngines + "book.sh", "--hash", "16"}, dir.path());
  EXPECT_EQ(no_hash.exit_code, 2) << no_hash.err;
  EXPECT_NE(no_hash.err.find("error: --hash 16: the engine announces no options"), std::string::npos)
      << no_hash.err;
  for (const char* game : {"g.pgn", "vv.pgn"}) {
    const RunResult huge = run_virrey(
        {"analyse", dir.path() + "/" + game, "--nodes", "1000", "--hash", "2147483647"}, dir.path());
    EXPECT_EQ(huge.exit_code, 2) << huge.err;
    EXPECT_NE(huge.err.find("--hash 2147483647 MB is more than this machine's memory"), std::string::npos)
        << huge.err;
  }
  const RunResult twice = run_virrey(
      {"analyse", pgn, "--nodes", "1000", "--hash", "16", "--engine-option", "hash=8"}, dir.path());
  EXPECT_EQ(twice.exit_code, 2) << twice.err;
  EXPECT_NE(twice.err.find("--hash and --engine-option hash=8: give the hash size once"), std::string::npos)
      << twice.err;
  // Reading the cache searches nothing: a hash too large for this machine
  // still selects the entries another machine made with it.
  const RunResult cached = run_virrey(
      {"analyse", "--db", dir.path() + "/none.db", "--cached", "--hash", "2147483647"}, dir.path());
  EXPECT_EQ(cached.err.find("more than this machine's memory"), std::string::npos) << cached.err;
  const RunResult hash =
      run_virrey({"analyse", pgn, "--nodes", "1000", "--plies", "1", "--hash", "8"}, dir.path());
  EXPECT_EQ(hash.exit_code, 0) << hash.err;
}

// A position dead by material (K v K after Kxg2) is a draw no engine is
// asked about: Sjaak II answers it with a claim ("1/2-1/2 {insufficient
// material}"), not a move. The capture is judged, against 0.
TEST(Analyse, ADeadPositionIsADrawNoEngineIsAsked) {
  TempDir dir;
  const auto pgn =
      write(dir.path(), "kk.pgn",
            "[Event \"kk\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1/2-1/2\"]\n[Variant "
            "\"Virrey\"]\n[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/6r1/6K1 w - - 0 1\"]\n\n1. Kxg2 1/2-1/2\n");
  const RunResult r = run_virrey({"analyse", pgn, "--nodes", "5000", "--format", "jsonl"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("engine-malformed-answer"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"eval_after\":{\"cp\":0}"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"judgement\":null"), std::string::npos) << r.out;
}

// An XBoard engine without Sjaak II's `maxnodes` (Fairy-Stockfish) serves
// --depth and --movetime (of whole seconds: it reads `st` so): the command
// is sent only for --nodes.
TEST(Analyse, AnXboardEngineWithoutMaxnodesServesDepthAndMovetime) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  for (const std::vector<std::string>& limit :
       {std::vector<std::string>{"--depth", "3"}, std::vector<std::string>{"--movetime", "1000"}}) {
    std::vector<std::string> args = {"analyse",    pgn,      "--engine", "/usr/games/fairy-stockfish",
                                     "--protocol", "xboard", "--format", "jsonl"};
    args.insert(args.end(), limit.begin(), limit.end());
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << limit[0] << r.err;
    EXPECT_EQ(count(r.out, "\"judgement\":null"), 0u) << limit[0] << r.out;
    EXPECT_EQ(count(r.out, "\n"), 7u) << limit[0] << r.out;
  }
}

// Options whose values hold '|' or '=' are two setups, not one: the cache
// key parts each by its length. Stockfish's "Debug Log File" takes any text.
TEST(Analyse, OptionValuesCannotMakeTwoSetupsOneCacheKey) {
  TempDir dir;
  const auto pgn = write(dir.path(), "g.pgn", kScholar);
  const std::string db = dir.path() + "/db", log = dir.path() + "/x";
  auto run = [&](std::vector<std::string> options) {
    std::vector<std::string> args = {"analyse", pgn,       "--db", db,         "--nodes",
                                     "2000",    "--plies", "1",    "--format", "json"};
    for (const std::string& o : options) {
      args.push_back("--engine-option");
      args.push_back(o);
    }
    return run_virrey(args, dir.path());
  };
  const RunResult a = run({"Skill Level=0", "Debug Log File=" + log});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(counter(a.out, "searched"), 2) << a.out;
  const RunResult b = run({"Debug Log File=" + log + "|Skill Level=0"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(counter(b.out, "from_cache"), 0) << b.out;
  const RunResult again = run({"Skill Level=0", "Debug Log File=" + log});
  EXPECT_EQ(counter(again.out, "from_cache"), 2) << again.out;
}

}  // namespace
}  // namespace virrey
