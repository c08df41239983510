// `virrey stats ... --format partial` and `stats merge`: partials of 1, 2 and
// 5 shards merge to the bytes one database of all the games prints (the
// peer: the statistic computed directly), in every format; partials fold
// in stages (a merge written as a partial merges again); partials of
// different queries, and lines that are not partials, are refused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey::testing {
namespace {

// The statistics compared, each as `stats WORDS` (--format added).
const std::vector<std::string> kStatistics = {
    "games",
    "games --bin 7",
    "games --variant virrey --result 1-0",
    "results",
    "results --by variant",
    "results --by year",
    "results --by player --limit 5",
    "results --by event --sort key",
    "results --by eco",
    "promotions",
    "promotions --variant virrey",
    "promotions --promotion V --by white",
    "openings --variant virrey --depth 3",
    "openings --variant standard --depth 2 --min-games 3 --top 4",
    "openings --variant modern --moves e4 --depth 2",
    "openings --variant virrey --depth 2 --white a",
    // endgames
    "endgames",
    "endgames --men 6",
    "endgames --men 32",
    "endgames --variant virrey --men 4",
    "endgames --men 8 --material 'V>=1' --either-colour",
};

class StatsPartialCli : public ::testing::Test {
 protected:
  TempDir dir;
  std::vector<std::string> inputs;

  void SetUp() override {
    const char* variants[] = {"virrey", "standard", "virrey", "modern", "virrey"};
    for (int i = 0; i < 5; ++i) {
      inputs.push_back(dir / ("in" + std::to_string(i) + ".pgn"));
      auto r = run_virrey_words(fmt_generate(variants[i], 70 + 10 * i, 30 + i, inputs.back()));
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  static std::string fmt_generate(const std::string& variant, int games, int seed, const std::string& out) {
    return "generate --variant " + variant + " -n " + std::to_string(games) + " --seed " +
           std::to_string(seed) + " -o " + out;
  }
  // Imports groups of the inputs into shards; their paths.
  std::vector<std::string> shards(const std::string& name, const std::vector<std::vector<int>>& groups) {
    std::vector<std::string> out;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      out.push_back(dir / (name + std::to_string(g) + ".db"));
      std::string words = "import --db " + out.back();
      for (int i : groups[g]) words += " " + inputs[std::size_t(i)];
      auto r = run_virrey_words(words);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    return out;
  }
  std::string run_ok(const std::string& words) {
    auto r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 0) << words << "\n" << r.err;
    return r.out;
  }
  // Shards a.db and b.db of one game each, and ab.db of both.
  void two_shards_and_one(const std::string& a, const std::string& b) {
    write_file(dir / "a.pgn", a);
    write_file(dir / "b.pgn", b);
    for (const std::string name : {"a", "b"})
      ASSERT_EQ(
          run_virrey_words("import --db " + (dir / (name + ".db")) + " " + (dir / (name + ".pgn"))).exit_code,
          0);
    ASSERT_EQ(
        run_virrey_words("import --db " + (dir / "ab.db") + " " + (dir / "a.pgn") + " " + (dir / "b.pgn"))
            .exit_code,
        0);
  }
  // The shards' partials of a statistic, as files.
  std::string partials(const std::vector<std::string>& dbs, const std::string& stat, const std::string& tag) {
    std::string files;
    for (std::size_t i = 0; i < dbs.size(); ++i) {
      const std::string file = dir / (tag + std::to_string(i) + ".jsonl");
      write_file(file, run_ok("stats " + stat + " --format partial --db " + dbs[i]));
      files += " " + file;
    }
    return files;
  }
};

TEST_F(StatsPartialCli, OneTwoAndFiveShardsMergeToTheBytesOfOneDatabase) {
  const auto one = shards("one", {{0, 1, 2, 3, 4}});
  const auto two = shards("two", {{0, 1}, {2, 3, 4}});
  const auto five = shards("five", {{0}, {1}, {2}, {3}, {4}});
  int n = 0;
  for (const std::string& stat : kStatistics) {
    const std::string tag = fmt::format("p{}-", n++);
    const std::vector<std::pair<std::string, std::string>> sets = {
        {"1 shard", partials(one, stat, tag + "1-")},
        {"2 shards", partials(two, stat, tag + "2-")},
        {"5 shards", partials(five, stat, tag + "5-")}};
    for (const std::string format : {"json", "text", "csv"}) {
      const std::string expected = run_ok("stats " + stat + " --format " + format + " --db " + one[0]);
      ASSERT_FALSE(expected.empty()) << stat;
      for (const auto& [name, files] : sets)
        EXPECT_EQ(run_ok("stats merge --format " + format + files), expected)
            << stat << " " << format << " (" << name << ")";
    }
  }
}

// A shard without games of the explorer's variant tells nothing of where
// the counts come from: a filter that has the games replayed gives the one
// database's "replay", not "tree+replay", in either order of the shards.
TEST_F(StatsPartialCli, AShardWithoutTheVariantLeavesTheSourceAsOneDatabaseGives) {
  const auto one = shards("one", {{0, 1}});
  const auto two = shards("two", {{1}, {0}});
  const std::string stat = "openings --variant standard --result 1-0 --depth 2";
  const std::string expected = run_ok("stats " + stat + " --format json --db " + one[0]);
  ASSERT_NE(expected.find("\"replay\""), std::string::npos) << expected;
  const std::string files = partials(two, stat, "v");
  EXPECT_EQ(run_ok("stats merge --format json" + files), expected);
  const std::string reversed = partials({two[1], two[0]}, stat, "r");
  EXPECT_EQ(run_ok("stats merge --format json" + reversed), expected);
}

TEST_F(StatsPartialCli, PartialsFoldInStages) {
  const auto one = shards("one", {{0, 1, 2, 3, 4}});
  const auto five = shards("five", {{0}, {1}, {2}, {3}, {4}});
  for (const std::string stat :
       {"promotions", "results --by player", "openings --variant virrey --depth 2"}) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < five.size(); ++i) {
      files.push_back(dir / fmt::format("s{}.jsonl", i));
      write_file(files.back(), run_ok("stats " + stat + " --format partial --db " + five[i]));
    }
    // (0 1) (2 3 4), then the two folds.
    write_file(dir / "a.jsonl", run_ok("stats merge --format partial " + files[0] + " " + files[1]));
    write_file(dir / "b.jsonl",
               run_ok("stats merge --format partial " + files[2] + " " + files[3] + " " + files[4]));
    EXPECT_EQ(run_ok("stats merge --format json " + (dir / "a.jsonl") + " " + (dir / "b.jsonl")),
              run_ok("stats " + stat + " --format json --db " + one[0]))
        << stat;
  }
}

TEST_F(StatsPartialCli, RefusesPartialsOfDifferentQueriesAndOtherFiles) {
  const auto one = shards("one", {{0}});
  write_file(dir / "a.jsonl", run_ok("stats games --format partial --db " + one[0]));
  write_file(dir / "b.jsonl", run_ok("stats games --bin 5 --format partial --db " + one[0]));
  write_file(dir / "c.jsonl", run_ok("stats promotions --format partial --db " + one[0]));
  // The same statistic under two material conditions is two queries.
  write_file(dir / "m1.jsonl", run_ok("stats results --material 'V>=1' --format partial --db " + one[0]));
  write_file(dir / "m2.jsonl", run_ok("stats results --material 'V>=2' --format partial --db " + one[0]));
  write_file(dir / "bad.jsonl", "{\"hello\": 1}\n");
  // A partial cut short (its last record lost) would merge as fewer games.
  {
    std::string whole = read_file(dir / "c.jsonl");
    whole.pop_back();
    write_file(dir / "cut.jsonl", whole.substr(0, whole.rfind('\n') + 1));
  }
  write_file(dir / "broken.jsonl",
             read_file(dir / "a.jsonl") + "{\"variant\": \"virrey\", \"results\": [1]}\n");
  for (const std::string pair : {"a.jsonl b.jsonl", "a.jsonl c.jsonl", "m1.jsonl m2.jsonl",
                                 "a.jsonl bad.jsonl", "broken.jsonl", "cut.jsonl"}) {
    std::string words = "stats merge";
    for (std::size_t at = 0, next; at < pair.size(); at = next + 1) {
      next = pair.find(' ', at);
      if (next == std::string::npos) next = pair.size();
      words.append(" ").append(dir / pair.substr(at, next - at));
    }
    auto r = run_virrey_words(words);
    EXPECT_EQ(r.exit_code, 2) << words << "\n" << r.out;
    EXPECT_FALSE(r.err.empty());
  }
  // The explorer's partial names its variant: each shard would otherwise
  // choose the variant most of its own games are.
  EXPECT_EQ(run_virrey_words("stats openings --format partial --db " + one[0]).exit_code, 2);
}

// Numbers no database writes are refused (exit 2), never merged nor allowed
// to crash or to claim memory: a negative or fractional count, a game longer
// than a game can be, results or lengths that do not add up to the games, a
// variant's record twice, a promotion on a file the board lacks.
TEST_F(StatsPartialCli, RefusesNumbersNoDatabaseWrites) {
  const auto one = shards("one", {{0, 1}});
  const std::string games = run_ok("stats games --format partial --db " + one[0]);
  const std::string promotions = run_ok("stats promotions --format partial --db " + one[0]);
  const std::string openings =
      run_ok("stats openings --variant virrey --depth 2 --format partial --db " + one[0]);
  auto edited = [](std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " in " << text;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  // The first record repeated, the header's count raised to match.
  const std::size_t first = games.find('\n') + 1;
  const std::string record = games.substr(first, games.find('\n', first) + 1 - first);
  const std::string twice = edited(games, "\"records\":2", "\"records\":3") + record;
  std::string zeros;
  for (int i = 0; i < 1100000; ++i) zeros += "0,";
  const std::pair<std::string, std::string> cases[] = {
      {edited(games, "\"lengths\":[[", "\"lengths\":[[-1,1],["), "no count: -1"},
      {edited(games, "\"lengths\":[[", "\"lengths\":[[100000000,1],["), "plies"},
      {edited(games, "\"lengths\":[[", "\"lengths\":[[4294967296,1],["), "plies"},
      {edited(games, "\"results\":[", "\"results\":[0.5,"), "no count: 0.5"},
      {edited(games, "\"results\":[", "\"results\":[9007199254740993,"), "larger than any"},
      {edited(games, "\"results\":[", "\"results\":[1"), "do not add up"},
      {twice, "twice"},
      // An explorer's counters: more wins than games, a date no game has, a
      // move not legal where it stands.
      {edited(openings, "\"counters\":[", "\"counters\":[0,"), "do not add up"},
      {edited(openings, "\"counters\":[", "\"counters\":[1,1,0,0,0,0,0,0,20111399],\"x\":["),
       "a date that is none"},
      {edited(openings, "\"move\":[", "\"move\":[0,0,0],\"y\":["), "not legal"},
      {edited(promotions, "\"cells\":[[", "\"cells\":[[1,0,40,1,0,0],["), "file the board"},
      // A game past the ids its header gives (shifted, it would pass 32 bits).
      {edited(promotions, "\"viceroy\":[", "\"viceroy\":[0,0,0,4294967294,"), "past the"},
      // A number where a record has a string: no library's words.
      {edited(promotions, "\"games_with_promotion\":", "\"games_with_promotion\":\"x\",\"y\":"),
       "of another type"},
      // A line of a million and more tiny values (gigabytes as JSON objects).
      {edited(games, "\"results\":[", "\"pad\":[" + zeros + "0],\"results\":["), "JSON values"}};
  for (const auto& [text, why] : cases) {
    write_file(dir / "x.jsonl", text);
    auto r = run_virrey_words("stats merge " + (dir / "x.jsonl"));
    EXPECT_EQ(r.exit_code, 2) << why << "\n" << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // An error in a record names its line (the header is line 1).
  write_file(dir / "x.jsonl", edited(games, "\"lengths\":[[", "\"lengths\":[[-1,1],["));
  EXPECT_NE(run_virrey_words("stats merge " + (dir / "x.jsonl")).err.find(dir / "x.jsonl:2: "),
            std::string::npos);
  // So does a game past the header's ids, and a field of another type: the
  // first record at fault, here a promotions record (line 2) and an event's
  // of stats results (line 3, after the totals).
  const std::string results = run_ok("stats results --by event --format partial --db " + one[0]);
  const std::pair<std::string, std::string> located[] = {
      {edited(promotions, "\"viceroy\":[", "\"viceroy\":[0,0,0,4294967294,"), ":2: "},
      {edited(promotions, "\"games_with_promotion\":", "\"games_with_promotion\":\"x\",\"y\":"), ":2: "},
      {edited(results, "\"first\":[", "\"first\":[0,4294967294],\"z\":["), ":3: "},
      {edited(results, "\"label\":", "\"label\":7,\"z\":"), ":3: "},
      // An explorer's last record (its positions are read with its root).
      {openings.substr(0, openings.rfind("\"counters\":[")) + "\"counters\":\"x\",\"z\":[" +
           openings.substr(openings.rfind("\"counters\":[") + 12),
       ":" + std::to_string(std::count(openings.begin(), openings.end(), '\n')) + ": "}};
  for (const auto& [text, where] : located) {
    write_file(dir / "x.jsonl", text);
    const auto r = run_virrey_words("stats merge " + (dir / "x.jsonl"));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(dir / "x.jsonl" + where), std::string::npos) << r.err;
  }
  // The partials as written still merge.
  write_file(dir / "g.jsonl", games);
  EXPECT_EQ(run_virrey_words("stats merge " + (dir / "g.jsonl")).exit_code, 0);
}

// Two games that reach one position by two orders of moves, in two shards:
// the merged explorer is the one database's, and each move's share is of
// the games of the position it is played from, over every route (worked by
// hand: after 1. e4 e6 2. c4 and after 1. c4 e6 2. e4 the same position, its
// two games, d5 and f6 half each; 1. e4 and 1. c4 half each of the start).
TEST_F(StatsPartialCli, TranspositionsAcrossShardsMergeAsInOneDatabase) {
  two_shards_and_one("[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e6 2. c4 f6 1-0\n",
                     "[Event \"B\"]\n[Result \"0-1\"]\n\n1. c4 e6 2. e4 d5 0-1\n");
  const std::string stat = "stats openings --variant standard --depth 4";
  const std::string one = run_ok(stat + " --format csv --db " + (dir / "ab.db"));
  // depth,line,san,uci,games,share_pct,...
  // "SAN GAMES SHARE" of the row of a line.
  auto share = [&](const std::string& line) {
    std::istringstream rows(one);
    for (std::string row; std::getline(rows, row);) {
      std::vector<std::string> cells;
      std::istringstream fields(row);
      for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
      if (cells.size() > 5 && cells[1] == line) return cells[2] + " " + cells[4] + " " + cells[5];
    }
    return "no row for " + line + "\n" + one;
  };
  EXPECT_EQ(share("e4"), "e4 1 50.00");
  EXPECT_EQ(share("e4 e6 c4 f6"), "f6 1 50.00");
  EXPECT_EQ(share("e4 e6 c4 d5"), "d5 1 50.00");
  EXPECT_EQ(share("c4 e6 e4 f6"), "f6 1 50.00");
  EXPECT_EQ(share("c4 e6 e4 d5"), "d5 1 50.00");
  for (const std::string format : {"csv", "json", "text"}) {
    write_file(dir / "pa.jsonl", run_ok(stat + " --format partial --db " + (dir / "a.db")));
    write_file(dir / "pb.jsonl", run_ok(stat + " --format partial --db " + (dir / "b.db")));
    EXPECT_EQ(run_ok("stats merge --format " + format + " " + (dir / "pa.jsonl") + " " + (dir / "pb.jsonl")),
              run_ok(stat + " --format " + format + " --db " + (dir / "ab.db")))
        << format;
  }
}

// A shard whose games reach a position of the tree only by another order
// of moves, never through the root: 1. e4 c5 2. b3 Nf6 in one shard, 1. b3
// c5 2. e4 e5 in the other, explored from 1. e4 c5. One database has both
// games after 2. b3 (Nf6 and e5, half each); the first merge lacks e5 (the
// second shard lists nothing under a root it never meets); a round with
// --expand (each shard follows the merged moves) gives one database's
// bytes, and a further round changes nothing.
TEST_F(StatsPartialCli, ShardsMergedInRoundsCountTranspositionsBelowTheRoot) {
  two_shards_and_one("[Event \"A\"]\n[Result \"1/2-1/2\"]\n\n1. e4 c5 2. b3 Nf6 1/2-1/2\n",
                     "[Event \"B\"]\n[Result \"0-1\"]\n\n1. b3 c5 2. e4 e5 0-1\n");
  const std::string stat = "stats openings --variant standard --moves e4 c5 --depth 2";
  const std::string one = run_ok(stat + " --format csv --db " + (dir / "ab.db"));
  EXPECT_NE(one.find("2,b3 e5,e5,e7e5,1,50.00"), std::string::npos) << one;
  EXPECT_NE(one.find("2,b3 Nf6,Nf6,g8f6,1,50.00"), std::string::npos) << one;
  auto round = [&](const std::string& tag, const std::string& guide) {
    std::string files;
    for (const std::string name : {"a", "b"}) {
      const std::string file = dir / (tag + name + ".jsonl");
      write_file(file, run_ok(stat + " --format partial --db " + (dir / (name + ".db")) +
                              (guide.empty() ? "" : " --expand " + guide)));
      files += " " + file;
    }
    return files;
  };
  const std::string first = round("r1", "");
  EXPECT_NE(run_ok("stats merge --format csv" + first), one);
  write_file(dir / "m1.jsonl", run_ok("stats merge --format partial" + first));
  const std::string second = round("r2", dir / "m1.jsonl");
  for (const std::string format : {"csv", "json", "text"})
    EXPECT_EQ(run_ok("stats merge --format " + format + second),
              run_ok(stat + " --format " + format + " --db " + (dir / "ab.db")))
        << format;
  write_file(dir / "m2.jsonl", run_ok("stats merge --format partial" + second));
  const std::string third = round("r3", dir / "m2.jsonl");
  EXPECT_EQ(run_ok("stats merge --format partial" + third), read_file(dir / "m2.jsonl"));
  // --expand is for partials, of the same query.
  EXPECT_EQ(
      run_virrey_words(stat + " --format csv --expand " + (dir / "m1.jsonl") + " --db " + (dir / "a.db"))
          .exit_code,
      2);
  auto other =
      run_virrey_words("stats openings --variant standard --moves e4 --depth 2 --format partial --expand " +
                       (dir / "m1.jsonl") + " --db " + (dir / "a.db"));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("another query"), std::string::npos) << other.err;
}

// Generated games in two shards merged in rounds (each round's shards
// following the merged moves of the one before, until a round adds
// nothing): the one database's bytes, its source and replayed games too.
TEST_F(StatsPartialCli, RoundsOfGeneratedShardsGiveOneDatabasesBytes) {
  const auto dbs = shards("rounds", {{0, 2}, {4}});
  const std::string one = dir / "rounds-one.db";
  run_ok("import --db " + one + " " + inputs[0] + " " + inputs[2] + " " + inputs[4]);
  const std::string explorer = "openings --variant virrey --depth 4", stat = "stats " + explorer;
  std::string merged, files;
  for (int round = 0; round < 6; ++round) {
    files = partials(dbs, explorer + (merged.empty() ? "" : " --expand " + (dir / "merged.jsonl")),
                     "round" + std::to_string(round) + "-");
    const std::string again = run_ok("stats merge --format partial" + files);
    if (again == merged) break;
    merged = again;
    write_file(dir / "merged.jsonl", merged);
  }
  for (const std::string format : {"json", "text", "csv"})
    EXPECT_EQ(run_ok("stats merge --format " + format + files),
              run_ok(stat + " --format " + format + " --db " + one))
        << format;
}

// The names `db classify` gives positions travel in the partials: shards
// classified with one ECO file merge to the bytes of one database classified
// with it, names included (text and JSON show them).
TEST_F(StatsPartialCli, OpeningNamesMergeAsInOneDatabase) {
  two_shards_and_one("[Event \"A\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 e6 1-0\n",
                     "[Event \"B\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 0-1\n");
  const std::string eco = std::string(VIRREY_SOURCE_DIR) + "/tests/data/openings/tiny.eco";
  for (const std::string name : {"a", "b", "ab"})
    ASSERT_EQ(run_virrey_words("db classify --db " + (dir / (name + ".db")) + " --openings " + eco).exit_code,
              0);
  const std::string stat = "stats openings --variant standard --depth 3";
  const std::string one = run_ok(stat + " --format json --db " + (dir / "ab.db"));
  EXPECT_NE(one.find("Queen's Gambit"), std::string::npos) << one;
  EXPECT_NE(one.find("Open Game"), std::string::npos) << one;
  std::string files;
  for (const std::string name : {"a", "b"}) {
    const std::string file = dir / ("named-" + name + ".jsonl");
    write_file(file, run_ok(stat + " --format partial --db " + (dir / (name + ".db"))));
    files += " " + file;
  }
  for (const std::string format : {"json", "text", "csv"})
    EXPECT_EQ(run_ok("stats merge --format " + format + files),
              run_ok(stat + " --format " + format + " --db " + (dir / "ab.db")))
        << format;
  // The root's name too.
  const std::string root = "stats openings --variant standard --moves d4 d5 --depth 1";
  write_file(dir / "root-a.jsonl", run_ok(root + " --format partial --db " + (dir / "a.db")));
  write_file(dir / "root-b.jsonl", run_ok(root + " --format partial --db " + (dir / "b.db")));
  EXPECT_EQ(run_ok("stats merge --format text " + (dir / "root-b.jsonl") + " " + (dir / "root-a.jsonl")),
            run_ok(root + " --format text --db " + (dir / "ab.db")));
}

// A position met first by a longer route (1. e3 e6 2. e4 e5, most played)
// and again by a shorter one (1. e4 e5) is listed as deep as the shorter
// route leaves room for: one shard's partial merges to its own output.
TEST_F(StatsPartialCli, APositionMetByALongerRouteFirstIsListedDeepEnough) {
  std::string games;
  for (int i = 0; i < 3; ++i)
    games += "[Event \"l\"]\n[Result \"*\"]\n\n1. e3 e6 2. e4 e5 3. Nf3 Nc6 4. Bc4 Bc5 *\n\n";
  games += "[Event \"s\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
  write_file(dir / "routes.pgn", games);
  ASSERT_EQ(run_virrey_words("import --db " + (dir / "routes.db") + " " + (dir / "routes.pgn")).exit_code, 0);
  const std::string stat = "stats openings --variant standard --depth 5 --db " + (dir / "routes.db");
  write_file(dir / "routes.jsonl", run_ok(stat + " --format partial"));
  const std::string direct = run_ok(stat + " --format csv");
  EXPECT_NE(direct.find("e4 e5 Nf3 Nc6 Bb5"), std::string::npos) << direct;
  EXPECT_EQ(run_ok("stats merge --format csv " + (dir / "routes.jsonl")), direct);
}

// Every statistic's help, and its complaint about a format, name partial
// among the formats it takes.
TEST(StatsPartialHelp, EveryStatisticListsPartial) {
  for (const char* statistic : {"openings", "results", "promotions", "games", "endgames", "players"}) {
    const auto help = run_virrey_words(std::string("stats ") + statistic + " --help");
    EXPECT_NE(help.out.find("text, json, csv or partial"), std::string::npos) << statistic << help.out;
    const auto bad = run_virrey_words(std::string("stats ") + statistic + " --format Partial --db x");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("{text,json,csv,partial}"), std::string::npos) << bad.err;
  }
}

// Tags in Latin-1 (not UTF-8, so no JSON string) travel in partials as
// their bytes: shards merge into what one database answers, in every format.
TEST(StatsPartialBytes, LatinOneTagsMergeAsOneDatabase) {
  TempDir dir;
  auto game = [](const std::string& event, const std::string& white, const std::string& result) {
    return "[Event \"" + event + "\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"" +
           white + "\"]\n[Black \"B\"]\n[Result \"" + result + "\"]\n\n1. e4 e5 " + result + "\n\n";
  };
  write_file(dir.path() + "/a.pgn",
             game("Marx Gy\xf6rgy Mem", "Gy\xf6rgy, A", "1-0") + game("Open", "C", "0-1"));
  write_file(dir.path() + "/b.pgn",
             game("Marx Gy\xf6rgy Mem", "Gy\xf6rgy, A", "1/2-1/2") + game("M\xfcnchen", "C", "1-0"));
  for (const char* name : {"a", "b"})
    ASSERT_LE(run_virrey(
                  {"-q", "import", "--db", dir.path() + "/" + name + ".db", dir.path() + "/" + name + ".pgn"},
                  dir.path())
                  .exit_code,
              1);
  ASSERT_LE(run_virrey({"-q", "import", "--db", dir.path() + "/one.db", dir.path() + "/a.pgn",
                        dir.path() + "/b.pgn"},
                       dir.path())
                .exit_code,
            1);
  for (const char* by : {"player", "event"}) {
    std::vector<std::string> parts;
    for (const char* name : {"a", "b"}) {
      const RunResult p = run_virrey(
          {"stats", "results", "--by", by, "--format", "partial", "--db", dir.path() + "/" + name + ".db"},
          dir.path());
      ASSERT_EQ(p.exit_code, 0) << by << p.err;
      parts.push_back(dir.path() + "/" + name + "-" + by + ".jsonl");
      write_file(parts.back(), p.out);
    }
    for (const char* format : {"json", "text", "csv"}) {
      const RunResult one = run_virrey(
          {"stats", "results", "--by", by, "--format", format, "--db", dir.path() + "/one.db"}, dir.path());
      const RunResult merged =
          run_virrey({"stats", "merge", "--format", format, parts[0], parts[1]}, dir.path());
      ASSERT_EQ(merged.exit_code, 0) << merged.err;
      EXPECT_EQ(merged.out, one.out) << by << " " << format;
      EXPECT_NE(one.out.find("Gy\u00f6rgy"), std::string::npos) << by << " " << format << one.out;
    }
  }
}

// A Modern explorer whose tree holds a bishop swap merges as the explorer
// played it (the swap is legal from the root the merge replays).
TEST(StatsPartialBytes, ModernBishopSwapsMerge) {
  TempDir dir;
  write_file(
      dir.path() + "/m.pgn",
      "[Event \"x\"]\n[Variant \"Modern\"]\n[BishopSwap \"Yes\"]\n[Result \"*\"]\n\n1. Me3 B=Q 2. c4 *\n\n"
      "[Event \"y\"]\n[Variant \"Modern\"]\n[Result \"1-0\"]\n\n1. Me3 h7 2. c4 1-0\n\n");
  ASSERT_LE(
      run_virrey({"-q", "import", "--db", dir.path() + "/m.db", dir.path() + "/m.pgn"}, dir.path()).exit_code,
      1);
  const std::vector<std::string> query = {"stats",   "openings", "--variant", "modern",
                                          "--depth", "3",        "--db",      dir.path() + "/m.db"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = query;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_virrey(args, dir.path());
  };
  const RunResult partial = with({"--format", "partial"});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  write_file(dir.path() + "/p.jsonl", partial.out);
  const RunResult direct = with({"--format", "json"});
  ASSERT_NE(direct.out.find("\"san\":\"B=Q\""), std::string::npos) << direct.out;
  const RunResult merged =
      run_virrey({"stats", "merge", "--format", "json", dir.path() + "/p.jsonl"}, dir.path());
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.out, direct.out);
}

}  // namespace
}  // namespace virrey::testing
