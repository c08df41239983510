// `virrey stats players`: the players' figures from the analysis cache,
// checked against an independent computation from `analyse --format jsonl`
// of the run that filled the cache (lichess's formulas written again here,
// from the evaluations the run printed), against `analyse --cached`'s player
// summary, and as partial statistics of one and of two shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey {
namespace {

using Json = nlohmann::json;
using testing::run_virrey;
using testing::RunResult;
using testing::TempDir;

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string game(const std::string& white, const std::string& black, const std::string& result,
                 const std::string& moves) {
  return "[Event \"t\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result +
         "\"]\n\n" + moves + " " + result + "\n\n";
}

// Three games among Ann, Bob and Cy, the first with a blunder (3...Nf6??)
// and a mate.
const std::string kGames = game("Ann", "Bob", "1-0", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#") +
                           game("Bob", "Cy", "*", "1. d4 d5 2. c4 dxc4 3. e3 b5 4. a4 c6") +
                           game("Cy", "Ann", "*", "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O");
// A game no run analysed: its moves have no cache entry (positions after
// 1. a3, 1... a6, ... are in no other game).
const std::string kUnanalysed = game("Dee", "Eve", "*", "1. a3 a6 2. h3 h6");

constexpr const char* kNodes = "3000";

// --- lichess's model, written independently of virrey's -----------------------

// An evaluation of "eval_before"/"eval_after" (from White's side) in
// centipawns from the mover's side: clamped to +-1000, a mate as +-1000.
double mover_cp(const Json& eval, bool white_moved) {
  double white_cp;
  if (eval.contains("winner"))  // mated: the winner's side +1000
    white_cp = eval["winner"] == "white" ? 1000 : -1000;
  else if (eval.contains("mate"))
    white_cp = eval["mate"].get<int>() > 0 ? 1000 : -1000;
  else
    white_cp = std::clamp(eval["cp"].get<double>(), -1000.0, 1000.0);
  return white_moved ? white_cp : -white_cp;
}
double chances(double cp) { return 2 / (1 + std::exp(-0.00368208 * cp)) - 1; }

struct Expected {
  int games = 0, moves = 0, unjudged = 0, inaccuracies = 0, mistakes = 0, blunders = 0;
  double cp_loss = 0, accuracy = 0;
};

// Per player, from the jsonl moves; `players[game]` = {White, Black}.
std::map<std::string, Expected> expected_from(
    const std::string& jsonl, const std::vector<std::pair<std::string, std::string>>& players) {
  std::map<std::string, Expected> out;
  for (const auto& [w, b] : players) {
    ++out[w].games;
    ++out[b].games;
  }
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const Json m = Json::parse(line);
    const bool white = m["side"] == "white";
    const auto& names = players.at(m["game"].get<std::size_t>() - 1);
    Expected& e = out[white ? names.first : names.second];
    if (m["eval_before"].is_null() || m["eval_after"].is_null()) {
      ++e.unjudged;
      continue;
    }
    const double before = mover_cp(m["eval_before"], white), after = mover_cp(m["eval_after"], white);
    const bool best = m["best"] == m["san"];  // the engine's own move loses nothing
    const double loss = best ? 0 : std::max(0.0, chances(before) - chances(after));
    const double cp_loss = best ? 0 : std::max(0.0, before - after);
    // Winning percentage 50 + 50 * wc: a loss of `loss` in chances is 50 * loss points.
    const double accuracy = std::clamp(103.1668 * std::exp(-0.04354 * 50 * loss) - 3.1669, 0.0, 100.0);
    ++e.moves;
    e.cp_loss += cp_loss;
    e.accuracy += accuracy;
    const std::string judgement = loss >= 0.3   ? "blunder"
                                  : loss >= 0.2 ? "mistake"
                                  : loss >= 0.1 ? "inaccuracy"
                                                : "good";
    EXPECT_EQ(m["judgement"], judgement) << line;
    e.inaccuracies += judgement == "inaccuracy";
    e.mistakes += judgement == "mistake";
    e.blunders += judgement == "blunder";
  }
  return out;
}

Json players_of(const std::string& json_text) {
  const Json j = Json::parse(json_text);
  std::map<std::string, Json> by_name;
  for (const Json& p : j.at("players")) by_name[p.at("player").get<std::string>()] = p;
  return by_name;
}

TEST(StatsPlayers, FiguresEqualAnIndependentComputationAndAnalyseCached) {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  ASSERT_EQ(run_virrey({"import", "--db", db, write(dir.path(), "g.pgn", kGames)}, dir.path()).exit_code, 0);
  const RunResult run =
      run_virrey({"analyse", "--db", db, "--nodes", kNodes, "--format", "jsonl"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(run_virrey({"import", "--db", db, write(dir.path(), "h.pgn", kUnanalysed)}, dir.path()).exit_code,
            0);

  auto expected = expected_from(run.out, {{"Ann", "Bob"}, {"Bob", "Cy"}, {"Cy", "Ann"}});
  expected["Dee"] = {1, 0, 2, 0, 0, 0, 0, 0};  // 1. a3 and 2. h3: no evaluation after them
  expected["Eve"] = {1, 0, 2, 0, 0, 0, 0, 0};
  // The scholar's mate: 3...Nf6 is a blunder (mate in one follows).
  EXPECT_GE(expected["Bob"].blunders, 1);

  const RunResult stats =
      run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--format", "json"}, dir.path());
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const Json got = players_of(stats.out);
  ASSERT_EQ(got.size(), 5u) << stats.out;
  for (const auto& [name, e] : expected) {
    SCOPED_TRACE(name);
    const Json& p = got.at(name);
    EXPECT_EQ(p["games"], e.games);
    EXPECT_EQ(p["moves"], e.moves);
    EXPECT_EQ(p["unjudged"], e.unjudged);
    EXPECT_EQ(p["inaccuracies"], e.inaccuracies);
    EXPECT_EQ(p["mistakes"], e.mistakes);
    EXPECT_EQ(p["blunders"], e.blunders);
    if (e.moves == 0) {
      EXPECT_TRUE(p["acpl"].is_null());
      EXPECT_TRUE(p["accuracy"].is_null());
      continue;
    }
    // Printed with one decimal.
    EXPECT_NEAR(p["acpl"].get<double>(), e.cp_loss / e.moves, 0.05 + 1e-9);
    EXPECT_NEAR(p["accuracy"].get<double>(), e.accuracy / e.moves, 0.05 + 1e-9);
  }

  // analyse --cached judges the same moves the same way.
  const RunResult cached =
      run_virrey({"analyse", "--db", db, "--nodes", kNodes, "--format", "json", "--cached"}, dir.path());
  ASSERT_EQ(cached.exit_code, 0) << cached.err;
  const Json summary = players_of(cached.out);
  ASSERT_EQ(summary.size(), 5u);
  for (const auto& [name, p] : summary.items()) {
    for (const char* field : {"games", "moves", "inaccuracies", "mistakes", "blunders"})
      EXPECT_EQ(p[field], got.at(name)[field]) << name << " " << field;
    // analyse writes 0.0 where stats writes null: a player with no judged move.
    if (p["moves"] != 0) {
      for (const char* field : {"acpl", "accuracy"})
        EXPECT_EQ(p[field], got.at(name)[field]) << name << " " << field;
    }
  }

  // Most games first: Ann, Bob and Cy (2 each) before Dee and Eve.
  const RunResult text = run_virrey({"stats", "players", "--db", db, "--nodes", kNodes}, dir.path());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("player", 0), 0u) << text.out;
  EXPECT_LT(text.out.find("Cy"), text.out.find("Dee")) << text.out;
  const RunResult csv =
      run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--format", "csv"}, dir.path());
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "player,games,moves,unjudged,acpl,accuracy,inaccuracies,mistakes,blunders");
  EXPECT_NE(csv.out.find("\nDee,1,0,2,,,0,0,0\n"), std::string::npos) << csv.out;

  // The filters of search choose the games: Ann's two, with her opponents.
  const Json ann = players_of(
      run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--player", "Ann", "--format", "json"},
                 dir.path())
          .out);
  EXPECT_EQ(ann.size(), 3u);
  EXPECT_EQ(ann.at("Ann")["games"], 2);
  EXPECT_EQ(ann.at("Bob")["games"], 1);
}

TEST(StatsPlayers, NoAnalysisSaysSoWithExitOne) {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  ASSERT_EQ(run_virrey({"import", "--db", db, write(dir.path(), "g.pgn", kGames)}, dir.path()).exit_code, 0);
  const RunResult none = run_virrey({"stats", "players", "--db", db, "--nodes", kNodes}, dir.path());
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("holds no engine analysis"), std::string::npos) << none.err;
  EXPECT_TRUE(none.out.empty());
  // Analysed at other limits: nothing for these.
  ASSERT_EQ(
      run_virrey({"analyse", "--db", db, "--nodes", "2000", "--plies", "1", "--format", "json"}, dir.path())
          .exit_code,
      0);
  const RunResult other = run_virrey({"stats", "players", "--db", db, "--nodes", kNodes}, dir.path());
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.err.find("no evaluation"), std::string::npos) << other.err;
  // Its partial is a partial like any other; merged, it is no result, as
  // the database's own statistic is not: exit 1, nothing printed.
  const RunResult part =
      run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--format", "partial"}, dir.path());
  ASSERT_EQ(part.exit_code, 0) << part.err;
  const std::string partial = write(dir.path(), "p.jsonl", part.out);
  for (const char* format : {"text", "json", "csv"}) {
    const RunResult merged = run_virrey({"stats", "merge", partial, partial, "--format", format}, dir.path());
    EXPECT_EQ(merged.exit_code, 1) << format;
    EXPECT_NE(merged.err.find("no evaluation"), std::string::npos) << merged.err;
    EXPECT_TRUE(merged.out.empty()) << merged.out;
  }
  EXPECT_EQ(run_virrey({"stats", "merge", partial, "--format", "partial"}, dir.path()).exit_code, 0);
  // A usage error stays one.
  EXPECT_EQ(run_virrey({"stats", "players", "--db", db, "--engine-option", "x"}, dir.path()).exit_code, 2);
}

// A shard without analysis (here an empty one): its partial says so, and
// merged alone it is no result, as `stats players` on it is; beside a shard
// with analysis it adds nothing.
TEST(StatsPlayers, APartialOfAShardWithoutAnalysisSaysSo) {
  TempDir dir;
  const std::string empty = dir.path() + "/empty", full = dir.path() + "/full";
  ASSERT_EQ(run_virrey({"import", "--db", empty, write(dir.path(), "e.pgn", "")}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_virrey({"import", "--db", full, write(dir.path(), "g.pgn", kGames)}, dir.path()).exit_code,
            0);
  ASSERT_EQ(
      run_virrey({"analyse", "--db", full, "--nodes", kNodes, "--format", "json"}, dir.path()).exit_code, 0);
  const RunResult direct = run_virrey({"stats", "players", "--db", empty, "--nodes", kNodes}, dir.path());
  EXPECT_EQ(direct.exit_code, 1);
  auto partial = [&](const std::string& db, const std::string& name) {
    const RunResult r =
        run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--format", "partial"}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return write(dir.path(), name, r.out);
  };
  const std::string pe = partial(empty, "e.jsonl"), pf = partial(full, "f.jsonl");
  EXPECT_NE(testing::read_file(pe).find("{\"analysed\":false}"), std::string::npos);
  EXPECT_EQ(testing::read_file(pf).find("analysed"), std::string::npos);
  for (const char* format : {"text", "json", "csv"}) {
    const RunResult alone = run_virrey({"stats", "merge", pe, "--format", format}, dir.path());
    EXPECT_EQ(alone.exit_code, 1) << format;
    EXPECT_NE(alone.err.find("none of the shards holds engine analysis"), std::string::npos) << alone.err;
    EXPECT_TRUE(alone.out.empty()) << alone.out;
    const RunResult beside = run_virrey({"stats", "merge", pf, pe, "--format", format}, dir.path());
    const RunResult one = run_virrey({"stats", "merge", pf, "--format", format}, dir.path());
    EXPECT_EQ(beside.exit_code, 0) << beside.err;
    EXPECT_EQ(beside.out, one.out) << format;
  }
  // Merged as a partial, the mark stays.
  const RunResult again = run_virrey({"stats", "merge", pe, pe, "--format", "partial"}, dir.path());
  EXPECT_NE(again.out.find("{\"analysed\":false}"), std::string::npos) << again.out;
}

// Partials of one database and of two shards holding its games merge to the
// same bytes (the shards analysed apart, the database their `db merge`,
// which carries their caches).
TEST(StatsPlayers, PartialsOfOneAndTwoShardsMergeToTheSameBytes) {
  TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b", whole = dir.path() + "/whole";
  const std::string first = kGames.substr(0, kGames.find("[Event", 1));
  const std::string rest = kGames.substr(first.size()) + kUnanalysed;
  ASSERT_EQ(run_virrey({"import", "--db", a, write(dir.path(), "a.pgn", first)}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_virrey({"import", "--db", b, write(dir.path(), "b.pgn", rest)}, dir.path()).exit_code, 0);
  for (const std::string& shard : {a, b})
    ASSERT_EQ(run_virrey({"analyse", "--db", shard, "--nodes", kNodes, "--format", "json", "--player", "Bob"},
                         dir.path())
                  .exit_code,
              0);
  ASSERT_EQ(run_virrey({"db", "merge", "--db", whole, a, b}, dir.path()).exit_code, 0);
  auto partial = [&](const std::string& db, const std::string& name) {
    const RunResult r =
        run_virrey({"stats", "players", "--db", db, "--nodes", kNodes, "--format", "partial"}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return write(dir.path(), name, r.out);
  };
  const std::string pa = partial(a, "a.jsonl"), pb = partial(b, "b.jsonl"), pw = partial(whole, "w.jsonl");
  for (const char* format : {"json", "text", "csv"}) {
    const RunResult one = run_virrey({"stats", "merge", pw, "--format", format}, dir.path());
    const RunResult two = run_virrey({"stats", "merge", pa, pb, "--format", format}, dir.path());
    const RunResult direct =
        run_virrey({"stats", "players", "--db", whole, "--nodes", kNodes, "--format", format}, dir.path());
    ASSERT_EQ(one.exit_code, 0) << one.err;
    ASSERT_EQ(two.exit_code, 0) << two.err;
    EXPECT_EQ(one.out, two.out) << format;
    EXPECT_EQ(one.out, direct.out) << format;
  }
  // Bob's games are in both shards: the merge adds his figures up.
  const Json merged = players_of(run_virrey({"stats", "merge", pa, pb, "--format", "json"}, dir.path()).out);
  EXPECT_EQ(merged.at("Bob")["games"], 2);
  EXPECT_EQ(merged.at("Bob")["unjudged"], 0);
  EXPECT_EQ(merged.at("Dee")["moves"], 0);
}

}  // namespace
}  // namespace virrey
