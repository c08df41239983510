// `virrey db merge` end to end: shards merged answer every search and
// statistic as one database importing the same inputs in the same order
// (the peer, built by `virrey import`), `db check` passes, duplicates across
// shards are counted as import counts them, and the refusals (game-id space,
// a source that does not open) leave the destination consistent.
#include <gtest/gtest.h>

#include "run_virrey.hpp"
#include "store_hooks.hpp"
#include "temp_dir.hpp"
#include "virrey/store/schema.hpp"

namespace virrey::testing {
namespace {

// Every query the comparison runs: output bytes must be equal on both.
const std::vector<std::string> kQueries = {
    "export",
    "stats games --format json",
    "stats games --variant modern --format csv",
    "stats results --format json",
    "stats results --by player --format json",
    "stats results --by year --format csv",
    "stats results --by event --sort games --format json",
    "stats promotions --format json",
    "stats promotions --variant virrey --format text",
    "stats openings --variant virrey --depth 3 --format json",
    "stats openings --variant standard --depth 2 --format json",
    "stats openings --variant modern --depth 2 --format csv",
    "stats openings --variant virrey --moves e4 --depth 2 --format json",
    "search --variant virrey --promotion V --format jsonl",
    "search --variant standard --moves Nf3 --format jsonl",
    "search --variant virrey --moves d4 --sort date --limit 7 --format jsonl",
    "search --promotion Q --format csv",
    "search --count --variant modern",
    "stats games --format json --result 1-0",
    "search --variant virrey --material V=1 --format jsonl",
    "search --variant standard --material KR-KR --either-colour --count",
};

class MergeCli : public ::testing::Test {
 protected:
  TempDir dir;
  std::string a = dir / "a.pgn", b = dir / "b.pgn", c = dir / "c.pgn", d = dir / "d.pgn";

  void SetUp() override {
    // Virrey, standard and Modern games; d repeats a's first 40 games after
    // 60 new ones (duplicates across shards).
    ASSERT_EQ(run_virrey_words("generate --variant virrey -n 160 --seed 11 -o " + a).exit_code, 0);
    ASSERT_EQ(run_virrey_words("generate --variant standard -n 120 --seed 12 -o " + b).exit_code, 0);
    ASSERT_EQ(run_virrey_words("generate --variant modern -n 80 --seed 13 -o " + c).exit_code, 0);
    ASSERT_EQ(run_virrey_words("generate --variant virrey -n 60 --seed 14 -o " + (dir / "d1.pgn")).exit_code,
              0);
    ASSERT_EQ(run_virrey_words("generate --variant virrey -n 40 --seed 11 -o " + (dir / "d2.pgn")).exit_code,
              0);
    write_file(d, read_file(dir / "d1.pgn") + read_file(dir / "d2.pgn"));
  }

  std::string query(const std::string& db, const std::string& words) {
    auto r = run_virrey_words(words + " --db " + db);
    EXPECT_EQ(r.exit_code, 0) << words << "\n" << r.err;
    return r.out;
  }

  void import(const std::string& db, const std::string& inputs) {
    auto r = run_virrey_words("import " + inputs + " --db " + db);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
};

TEST_F(MergeCli, ShardsMergedAnswerAsOneDatabase) {
  const std::string one = dir / "one.db";
  import(one, a + " " + b + " " + c + " " + d);
  const std::vector<std::string> inputs = {a, b, c, d};
  std::string shards;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string shard = dir / ("shard" + std::to_string(i) + ".db");
    import(shard, inputs[i]);
    shards += " " + shard;
  }
  const std::string merged = dir / "merged.db";
  auto r = run_virrey_words("db merge --db " + merged + shards + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 160 + 120 + 80 + 60 games stored; d's 40 repeats of a are duplicates,
  // d imported game by game, the others copied.
  EXPECT_NE(r.out.find("\"stored\":420,\"duplicates\":40"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"games\":100,\"stored\":60,\"duplicates\":40,\"copied\":false"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"games\":160,\"stored\":160,\"duplicates\":0,\"copied\":true"), std::string::npos)
      << r.out;

  for (const std::string& q : kQueries) {
    const std::string expected = query(one, q);
    EXPECT_FALSE(expected.empty()) << q;
    EXPECT_EQ(query(merged, q), expected) << q;
  }
  auto check = run_virrey_words("db check --db " + merged);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("420 games"), std::string::npos) << check.out;
  // The inputs' records came along: importing one again adds nothing.
  auto again = run_virrey_words("import " + b + " --db " + merged);
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.out.find("imported before"), std::string::npos) << again.out;
}

TEST_F(MergeCli, MergingIntoADatabaseWithGamesAndTwiceCountsDuplicates) {
  const std::string one = dir / "one.db", merged = dir / "merged.db", s1 = dir / "s1.db", s2 = dir / "s2.db";
  import(one, a + " " + b);
  import(s1, b);
  import(merged, a);  // the destination holds games already
  auto r = run_virrey_words("db merge --db " + merged + " " + s1 + " " + s1 + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The second time every game of s1 is a duplicate (as importing b twice with --force).
  EXPECT_NE(r.out.find("\"stored\":120,\"duplicates\":120"), std::string::npos) << r.out;
  for (const std::string& q : kQueries) EXPECT_EQ(query(merged, q), query(one, q)) << q;
  EXPECT_EQ(run_virrey_words("db check --db " + merged).exit_code, 0);
}

TEST_F(MergeCli, ASourceThatFailsLeavesTheDestinationConsistent) {
  const std::string s1 = dir / "s1.db", merged = dir / "merged.db", bad = dir / "not-a-db";
  import(s1, a);
  std::filesystem::create_directories(bad);
  write_file(bad + "/CURRENT", "MANIFEST-000001\n");  // a database without its files
  // Every source opens before --db is touched: a source that does not open
  // stops the merge before anything is written, and makes no --db.
  auto r = run_virrey_words("db merge --db " + merged + " " + s1 + " " + bad);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(merged));
  ASSERT_EQ(run_virrey_words("db merge --db " + merged + " " + s1).exit_code, 0);
  auto check = run_virrey_words("db check --db " + merged);
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_NE(check.out.find("160 games"), std::string::npos) << check.out;
  EXPECT_EQ(run_virrey_words("db merge --db " + merged + " " + merged).exit_code, 3);
  // A source that is the destination, after one that is not: refused before
  // the first is merged.
  const std::string s2 = dir / "s2.db";
  import(s2, b);
  EXPECT_EQ(run_virrey_words("db merge --db " + merged + " " + s2 + " " + merged).exit_code, 3);
  EXPECT_EQ(query(merged, "search --count"), "160\n");
}

TEST_F(MergeCli, RefusesToPassTheGameIdSpace) {
  const std::string s1 = dir / "s1.db", merged = dir / "merged.db";
  import(s1, c);  // 80 games
  import(merged, b);
  // The destination as if its ids were used up to 79 short of the last one:
  // 80 more would need id kMaxGameId + 1.
  ASSERT_TRUE(store::testing::set_next_game_id(merged, store::kMaxGameId - 78));
  auto r = run_virrey_words("db merge --db " + merged + " " + s1);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("32-bit game ids"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4294967294"), std::string::npos) << r.err;
  EXPECT_EQ(query(merged, "search --count"), "120\n");
  // One id fewer used fits exactly: the last game gets kMaxGameId.
  ASSERT_TRUE(store::testing::set_next_game_id(merged, store::kMaxGameId - 79));
  r = run_virrey_words("db merge --db " + merged + " " + s1);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(query(merged, "search --count"), "200\n");
  // Import stops at the end of the space too.
  auto imp = run_virrey_words("import " + a + " --db " + merged);
  EXPECT_EQ(imp.exit_code, 3);
  EXPECT_NE(imp.err.find("the database is full: game ids are 32 bits"), std::string::npos) << imp.err;
  EXPECT_EQ(query(merged, "search --count"), "200\n");
}

}  // namespace
}  // namespace virrey::testing
