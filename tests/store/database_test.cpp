// The Database facade on temporary directories: import, every read, duplicate
// detection, reopening, consistency checks and the bad cases of opening.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "random_games.hpp"
#include "store_hooks.hpp"
#include "store_test_util.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/store/consistency.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/store/keys.hpp"
#include "virrey/store/merge.hpp"
#include "virrey/store/upgrade.hpp"

namespace virrey::store::test {
namespace {

std::unique_ptr<Database> open_db(const std::string& path, OpenMode mode = OpenMode::ReadWrite) {
  auto db = Database::open(path, {mode, true});
  EXPECT_TRUE(db) << db.error().message;
  return db ? std::move(*db) : nullptr;
}

ImportTotals import_games(Database& db, const std::vector<game::GameRecord>& games,
                          const ImportOptions& options) {
  GameImporter importer(db, options);
  for (const auto& g : games) EXPECT_TRUE(importer.add(g));
  auto totals = importer.finish();
  EXPECT_TRUE(totals) << totals.error().message;
  return totals ? *totals : ImportTotals{};
}

ImportTotals import_games(Database& db, const std::vector<game::GameRecord>& games, std::size_t batch = 2) {
  return import_games(db, games, ImportOptions{2, batch});
}

// `db check`'s consistency check finds nothing wrong.
void expect_consistent(Database& db) {
  auto report = check_database(db);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok()) << (report->problems.empty() ? "" : report->problems[0]);
}

// The level-0 files of one family (`db info`'s figure), or of the family
// holding most when `family` is empty.
std::uint32_t level0_files(const Database& db, std::string_view family = {}) {
  auto info = db.info();
  EXPECT_TRUE(info) << info.error().message;
  std::uint32_t most = 0;
  if (info)
    for (const FamilySize& f : info->families)
      if (family.empty() || f.name == family) most = std::max(most, f.level0_files);
  return most;
}

std::uint64_t stored_games(const Database& db) {
  std::uint64_t games = 0;
  for (const auto& c : db.counts()) games += c.games;
  return games;
}

std::vector<game::GameRecord> samples() {
  std::vector<game::GameRecord> out;
  for (auto& g : check_pgn(kSampleGames)) out.push_back(std::move(g.record));
  return out;
}

std::uint64_t hash_of_fen(const std::string& fen, Variant v) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, v, errors);
  EXPECT_TRUE(pos);
  return pos ? pos->hash() : 0;
}

class DatabaseTest : public ::testing::Test {
 protected:
  TempDir dir;
  std::string path = dir / "test.db";
  std::vector<game::GameRecord> games = samples();
};

TEST_F(DatabaseTest, StoresAndReadsBackEveryGame) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  const ImportTotals t = import_games(*db, games);
  EXPECT_EQ(t.stored, games.size());
  EXPECT_EQ(t.duplicates, 0u);
  const auto counts = db->counts();
  EXPECT_EQ(counts[0].games, 4u);
  EXPECT_EQ(counts[1].games, 1u);
  EXPECT_EQ(counts[0].positions + counts[1].positions, t.positions);

  std::vector<std::string> exported;
  ASSERT_TRUE(db->for_each_game([&](GameId, const game::GameRecord& r) {
    exported.push_back(game::write_pgn(r));
    return true;
  }));
  ASSERT_EQ(exported.size(), games.size());
  for (std::size_t i = 0; i < games.size(); ++i) EXPECT_EQ(exported[i], game::write_pgn(games[i]));

  auto g3 = db->game(3);
  ASSERT_TRUE(g3);
  EXPECT_EQ(g3->variant, Variant::Virrey);
  EXPECT_FALSE(db->game(99));
  EXPECT_EQ(db->game(99).error().kind, ErrorKind::NotFound);
  auto s3 = db->summary(3);
  ASSERT_TRUE(s3);
  EXPECT_EQ(s3->ending, Ending::Checkmate);
}

TEST_F(DatabaseTest, PositionSearchFindsTranspositions) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  import_games(*db, games);
  const std::uint64_t start = hash_of_fen(std::string(info(Variant::Standard).start_fen), Variant::Standard);
  std::vector<PositionHit> hits;
  ASSERT_TRUE(db->for_each_position(Variant::Standard, start, [&](const PositionHit& h) {
    hits.push_back(h);
    return true;
  }));
  ASSERT_EQ(hits.size(), 2u);  // games 1 and 2 start from the start position
  EXPECT_EQ(hits[0].game, 1u);
  EXPECT_EQ(hits[1].game, 2u);
  // The same array in Virrey chess is another position.
  std::size_t virrey_hits = 0;
  ASSERT_TRUE(
      db->for_each_position(Variant::Virrey, start, [&](const PositionHit&) { return ++virrey_hits, true; }));
  EXPECT_EQ(virrey_hits, 0u);

  const std::uint64_t ply4 =
      hash_of_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Variant::Standard);
  hits.clear();
  ASSERT_TRUE(db->for_each_position(Variant::Standard, ply4, [&](const PositionHit& h) {
    hits.push_back(h);
    return true;
  }));
  ASSERT_EQ(hits.size(), 2u);  // 1. e4 e5 2. Nf3 Nc6 and 1. Nf3 Nc6 2. e4 e5 meet
  EXPECT_EQ(hits[0].game, 1u);
  EXPECT_EQ(hits[1].game, 2u);
}

TEST_F(DatabaseTest, OpeningTreeSumsGames) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  import_games(*db, games);
  const std::uint64_t start = hash_of_fen(std::string(info(Variant::Standard).start_fen), Variant::Standard);
  auto moves = db->tree_moves(Variant::Standard, start);
  ASSERT_TRUE(moves);
  ASSERT_EQ(moves->size(), 2u);  // 1. e4 and 1. Nf3
  TreeCounters total;
  for (const auto& m : *moves) total.add(m.counters);
  EXPECT_EQ(total.games, 2u);
  EXPECT_EQ(total.draws, 1u);
  EXPECT_EQ(total.black_wins, 1u);
  EXPECT_EQ(total.white_elo_games, 1u);
  EXPECT_EQ(total.last_date, 20240502u);
  // After 1. e4 e5 2. Nf3 Nc6 (either order): 3. Bb5 (draw) and 3. Bc4 (0-1).
  const std::uint64_t ply4 =
      hash_of_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Variant::Standard);
  moves = db->tree_moves(Variant::Standard, ply4);
  ASSERT_TRUE(moves);
  EXPECT_EQ(moves->size(), 2u);
  // A second import of other games adds to the same counters.
  auto more = samples();
  for (auto& t : more[0].tags)
    if (t.name == "Round") t.value.assign(1, '9');
  import_games(*db, {more[0]});
  moves = db->tree_moves(Variant::Standard, start);
  ASSERT_TRUE(moves);
  total = {};
  for (const auto& m : *moves) total.add(m.counters);
  EXPECT_EQ(total.games, 3u);
  EXPECT_EQ(total.draws, 2u);
}

TEST_F(DatabaseTest, TagSearchExactPrefixAndRange) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  import_games(*db, games);
  auto ids = [&](TagField f, std::string_view v, TagMatch m) {
    std::vector<GameId> out;
    EXPECT_TRUE(
        db->for_each_tag(f, v, m, [&](GameId id, std::string_view) { return out.push_back(id), true; }));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(ids(TagField::White, "PÉREZ, ANA", TagMatch::Exact), (std::vector<GameId>{1}));
  EXPECT_EQ(ids(TagField::Black, "pérez", TagMatch::Prefix), (std::vector<GameId>{2}));
  EXPECT_EQ(ids(TagField::Black, "pere", TagMatch::Prefix), (std::vector<GameId>{3}));
  EXPECT_EQ(ids(TagField::Site, "lima", TagMatch::Exact), (std::vector<GameId>{1, 3}));
  EXPECT_EQ(ids(TagField::Variant, "virrey", TagMatch::Exact), (std::vector<GameId>{3}));
  EXPECT_EQ(ids(TagField::Result, "*", TagMatch::Exact), (std::vector<GameId>{4, 5}));
  EXPECT_EQ(ids(TagField::Event, "store", TagMatch::Exact), (std::vector<GameId>{}));
  std::vector<GameId> in_range;
  ASSERT_TRUE(
      db->for_each_tag_range(TagField::Date, "2024.05.02", "2024.06",
                             [&](GameId id, std::string_view) { return in_range.push_back(id), true; }));
  std::sort(in_range.begin(), in_range.end());
  EXPECT_EQ(in_range, (std::vector<GameId>{2, 3}));
  in_range.clear();
  ASSERT_TRUE(db->for_each_tag_range(
      TagField::Date, "", "2023", [&](GameId id, std::string_view) { return in_range.push_back(id), true; }));
  EXPECT_EQ(in_range, (std::vector<GameId>{5}));
}

// Names in Polish, Croatian, Greek and Cyrillic letters, written in both
// cases: each of them is one name to a case-blind search.
std::vector<game::GameRecord> unicode_names() {
  std::string pgn;
  const char* pairs[][2] = {{"Łukasz, Jan", "Šarić, Ivan"},      {"ŁUKASZ, JAN", "ŠARIĆ, IVAN"},
                            {"łukasz, jan", "Иванов, Иван"},     {"ИВАНОВ, ИВАН", "Παπαδόπουλος"},
                            {"ΠΑΠΑΔΌΠΟΥΛΟΣ", "Ștefănescu, Ana"}, {"ȘTEFĂNESCU, ANA", "Smith, John"}};
  int round = 0;
  for (const auto& p : pairs)
    pgn += fmt::format(
        "[Event \"Names\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{}\"]\n"
        "[White \"{}\"]\n[Black \"{}\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n",
        ++round, p[0], p[1]);
  std::vector<game::GameRecord> out;
  for (auto& g : check_pgn(pgn)) out.push_back(std::move(g.record));
  return out;
}

TEST_F(DatabaseTest, TagSearchIsCaseBlindBeyondLatin1InOlderDatabasesToo) {
  const auto names = unicode_names();
  ASSERT_EQ(names.size(), 6u);
  auto ids = [&](const Database& db, TagField f, std::string_view v, TagMatch m) {
    std::vector<GameId> out;
    EXPECT_TRUE(
        db.for_each_tag(f, v, m, [&](GameId id, std::string_view) { return out.push_back(id), true; }));
    return out;
  };
  // Per player, the normalised name each of its games is grouped under.
  auto groups = [&](const Database& db) {
    std::map<std::string, std::vector<GameId>> out;
    for (TagField f : {TagField::White, TagField::Black})
      EXPECT_TRUE(db.for_each_tag_range(
          f, "", "", [&](GameId id, std::string_view v) { return out[std::string(v)].push_back(id), true; }));
    for (auto& [name, games] : out) std::sort(games.begin(), games.end());
    return out;
  };
  const std::map<std::string, std::vector<GameId>> expected_groups = {
      {"łukasz, jan", {1, 2, 3}}, {"šarić, ivan", {1, 2}},     {"иванов, иван", {3, 4}},
      {"παπαδόπουλοσ", {4, 5}},   {"ștefănescu, ana", {5, 6}}, {"smith, john", {6}}};
  auto expect_case_blind = [&](const Database& db) {
    EXPECT_EQ(ids(db, TagField::White, "łukasz, jan", TagMatch::Exact), (std::vector<GameId>{1, 2, 3}));
    EXPECT_EQ(ids(db, TagField::White, "ŁUKASZ, Jan", TagMatch::Exact), (std::vector<GameId>{1, 2, 3}));
    EXPECT_EQ(ids(db, TagField::Black, "šarić", TagMatch::Prefix), (std::vector<GameId>{1, 2}));
    auto cyrillic = ids(db, TagField::White, "иванов", TagMatch::Prefix);
    auto cyrillic_black = ids(db, TagField::Black, "ИВАНОВ, ИВАН", TagMatch::Exact);
    cyrillic.insert(cyrillic.end(), cyrillic_black.begin(), cyrillic_black.end());
    std::sort(cyrillic.begin(), cyrillic.end());
    EXPECT_EQ(cyrillic, (std::vector<GameId>{3, 4}));
    // Final sigma and sigma are one letter.
    EXPECT_EQ(ids(db, TagField::White, "παπαδόπουλος", TagMatch::Exact), (std::vector<GameId>{5}));
    EXPECT_EQ(ids(db, TagField::Black, "ΠΑΠΑΔΌΠΟΥΛΟΣ", TagMatch::Exact), (std::vector<GameId>{4}));
    EXPECT_EQ(ids(db, TagField::White, "ștefănescu", TagMatch::Prefix), (std::vector<GameId>{6}));
    EXPECT_EQ(groups(db), expected_groups);
  };
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, names).stored, 6u);
    expect_case_blind(*db);
  }
  // As virrey wrote it before such letters were lower-cased in the keys:
  // the lookups read their other forms, and answer the same.
  ASSERT_TRUE(testing::tags_folded_as_latin1(path));
  {
    auto db = open_db(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    expect_case_blind(*db);
    expect_consistent(*db);
  }
  // The setup did write the older keys: they are other keys than a new
  // database's (its groups differ when the keys are read as they are).
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Meta, std::string(view(meta_key(MetaKey::TagFolding))),
                                     std::string("\0\0\0\x02", 4)));
  {
    auto db = open_db(path, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    EXPECT_EQ(ids(*db, TagField::White, "łukasz, jan", TagMatch::Exact), (std::vector<GameId>{3}));
    EXPECT_NE(groups(*db), expected_groups);
  }
  // Merged into a database of this version, the older keys come along and
  // the destination reads their other forms from then on.
  ASSERT_TRUE(testing::tags_folded_as_latin1(path));
  const std::string dest = path + "-merged";
  {
    auto db = open_db(dest);
    ASSERT_TRUE(db);
    auto merged = merge_databases(*db, {path});
    ASSERT_TRUE(merged) << merged.error().message;
    expect_case_blind(*db);
    expect_consistent(*db);
  }
}

TEST_F(DatabaseTest, PromotionIndexFilters) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  import_games(*db, games);
  std::vector<PromotionHit> hits;
  auto find = [&](PromotionFilter f) {
    hits.clear();
    EXPECT_TRUE(db->for_each_promotion(f, [&](const PromotionHit& h) { return hits.push_back(h), true; }));
    return hits.size();
  };
  EXPECT_EQ(find({}), 2u);
  EXPECT_EQ(find({Variant::Virrey, PieceType::Viceroy, std::nullopt, std::nullopt}), 1u);
  EXPECT_EQ(hits[0].game, 3u);
  EXPECT_EQ(hits[0].flags, kGaveMate);
  EXPECT_EQ(find({std::nullopt, std::nullopt, Color::White, 0}), 1u);
  EXPECT_EQ(hits[0].piece, PieceType::Queen);
  EXPECT_EQ(hits[0].flags, kCapturedLater);
  EXPECT_EQ(find({std::nullopt, std::nullopt, Color::Black, std::nullopt}), 0u);
}

// Committing after every game: a repeat meets its original in the segment
// being written, in the one being ingested, or in the database, all within
// one import into an empty database.
TEST_F(DatabaseTest, DuplicatesAcrossCommitsOfOneImport) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  std::vector<game::GameRecord> input;
  for (int round = 0; round < 4; ++round)
    for (const auto& g : games) input.push_back(g);
  GameImporter importer(*db, {2, 1, 1e-6});
  for (const auto& g : input) EXPECT_TRUE(importer.add(g));
  auto t = importer.finish();
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->stored, games.size());
  EXPECT_EQ(t->duplicates, 3 * games.size());
  expect_consistent(*db);
}

// An import that ingests far more often than the level-0 trigger (RocksDB's
// four files) leaves at most one file at level 0 in each family (its files
// there merged), into an empty database and into one that holds games, and
// every entry checks against its game; the second import finds the first's
// games as duplicates.
TEST_F(DatabaseTest, ManyCommitsLeaveLevelZeroShort) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  std::vector<game::GameRecord> first, second;
  for (auto& g : check_pgn(random_games(90, 5))) first.push_back(std::move(g.record));
  for (auto& g : check_pgn(random_games(90, 6, 1000))) second.push_back(std::move(g.record));
  ASSERT_EQ(first.size(), 90u);
  ASSERT_EQ(second.size(), 90u);
  std::size_t stored = 0;
  for (const auto* input : {&first, &second}) {
    GameImporter importer(*db, {2, 1, 1e-6});
    for (const auto& g : *input) EXPECT_TRUE(importer.add(g));
    if (input == &second) {
      for (int i = 0; i < 3; ++i) EXPECT_TRUE(importer.add(first[std::size_t(i) * 7]));
    }
    auto t = importer.finish();
    ASSERT_TRUE(t) << t.error().message;
    stored += t->stored;
    EXPECT_EQ(t->stored, input->size());
    EXPECT_EQ(t->duplicates, input == &second ? 3u : 0u);
    EXPECT_LE(level0_files(*db), 2u);
    expect_consistent(*db);
  }
  EXPECT_EQ(stored_games(*db), stored);
  EXPECT_EQ(stored, 180u);
}

// An import killed while it merged its own table files leaves them in level
// 0; importing again stores nothing (its games are duplicates), and still
// merges them into one run, the database unchanged.
TEST_F(DatabaseTest, AnImportStoringNothingMergesTheLevel0FilesLeftBehind) {
  std::vector<game::GameRecord> games;
  for (auto& g : check_pgn(random_games(12, 47))) games.push_back(std::move(g.record));
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, games).stored, games.size());
  }
  const std::vector<Family> families = {Family::Positions, Family::Tree, Family::Tags, Family::Material};
  std::map<Family, testing::RunsAboveLastLevel> before;
  for (const Family f : families) {
    ASSERT_TRUE(testing::add_runs_of_the_same_entries(path, f, 12));
    auto r = testing::runs_above_last_level(path, f);
    ASSERT_TRUE(r);
    EXPECT_GE(r->level0_files, 6u) << family_info(f).name;
    before[f] = *r;
  }
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    const ImportTotals again = import_games(*db, games);
    EXPECT_EQ(again.stored, 0u);
    EXPECT_EQ(again.duplicates, games.size());
    expect_consistent(*db);
    std::uint64_t stored = 0;
    for (const auto& c : db->counts()) stored += c.games;
    EXPECT_EQ(stored, games.size());
  }
  for (const Family f : families) {
    auto r = testing::runs_above_last_level(path, f);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->level0_files, 1u) << family_info(f).name;
    EXPECT_EQ(r->runs, before[f].runs - before[f].level0_files + 1) << family_info(f).name;
  }
}

// An import that ingests no more runs than an import leaves (three) rewrites
// none of them: its table files are the ones it ingested. The next import,
// which would leave a fourth, brings the family down to three runs or fewer.
TEST_F(DatabaseTest, FewIngestsLeaveTheirRunsAsWritten) {
  std::vector<game::GameRecord> games;
  for (auto& g : check_pgn(random_games(4, 31))) games.push_back(std::move(g.record));
  ASSERT_EQ(games.size(), 4u);
  const ImportOptions ingest_a_game{2, 1, 1e-6};
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, {games.begin(), games.begin() + 3}, ingest_a_game).stored, 3u);
    expect_consistent(*db);
  }
  for (const Family f : {Family::Positions, Family::Tree, Family::Tags, Family::Identities}) {
    // (RocksDB puts an ingested file in the deepest level it overlaps
    // nothing in: the first in the last level.)
    auto r = testing::runs_above_last_level(path, f);
    auto below = testing::files_below_level0(path, f);
    ASSERT_TRUE(r && below);
    EXPECT_LE(r->runs, 3u);
    EXPECT_EQ(r->level0_files + below->size(), 3u) << family_info(f).name << ": a file a game, none merged";
  }
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, {games[3]}, ingest_a_game).stored, 1u);
    expect_consistent(*db);
  }
  for (const Family f : {Family::Positions, Family::Tree, Family::Material, Family::Identities}) {
    auto r = testing::runs_above_last_level(path, f);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_LE(r->runs, 3u);
  }
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  const Variant v = games[0].variant;
  const std::uint64_t start = hash_of_fen(std::string(info(v).start_fen), v);
  std::set<std::uint32_t> found;
  ASSERT_TRUE(
      db->for_each_position(v, start, [&](const PositionHit& h) { return found.insert(h.game), true; }));
  EXPECT_EQ(found.size(), db->counts()[std::size_t(v)].games);
}

// An import of a few segments into a stored database leaves what lies below
// level 0 alone: bulk loading begins before the ingest that would start a
// compaction under the usual options, and its end merges level 0 only. (The
// first import, which compacted as it went, left every entry in the last
// level.)
TEST_F(DatabaseTest, SmallImportLeavesTheLastLevelAlone) {
  std::vector<game::GameRecord> first, second;
  for (auto& g : check_pgn(random_games(60, 7))) first.push_back(std::move(g.record));
  for (auto& g : check_pgn(random_games(5, 8, 1000))) second.push_back(std::move(g.record));
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    GameImporter importer(*db, {2, 1, 1e-6});
    for (const auto& g : first) EXPECT_TRUE(importer.add(g));
    ASSERT_TRUE(importer.finish());
  }
  auto before = testing::files_below_level0(path, Family::Positions);
  ASSERT_TRUE(before) << before.error().message;
  ASSERT_FALSE(before->empty());
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(level0_files(*db, "positions"), 0u);  // what the next import meets
    GameImporter importer(*db, {2, 1, 1e-6});  // five ingests
    for (const auto& g : second) EXPECT_TRUE(importer.add(g));
    auto t = importer.finish();
    ASSERT_TRUE(t);
    EXPECT_EQ(t->stored, second.size());
    EXPECT_LE(level0_files(*db), 2u);
    expect_consistent(*db);
  }
  auto after = testing::files_below_level0(path, Family::Positions);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, *before);
}

// Game records and summaries of new games overlap nothing stored: each
// segment's table file goes to the last level, where no compaction meets it.
// The import that makes eight small neighbouring files there joins them.
TEST_F(DatabaseTest, SmallRecordFilesAreJoined) {
  std::uint64_t stored = 0;
  for (int i = 0; i < 9; ++i) {
    {
      auto db = open_db(path);
      ASSERT_TRUE(db);
      GameImporter importer(*db, {});  // one segment
      for (auto& g : check_pgn(random_games(3, 40 + std::uint64_t(i), 100 * i)))
        EXPECT_TRUE(importer.add(g.record));
      auto t = importer.finish();
      ASSERT_TRUE(t);
      stored += t->stored;
    }
    for (Family f : {Family::Games, Family::Summaries}) {
      auto files = testing::files_below_level0(path, f);
      ASSERT_TRUE(files) << files.error().message;
      // A file per import, until the eighth joins them into one.
      EXPECT_EQ(files->size(), i < 7 ? std::size_t(i + 1) : std::size_t(i - 6)) << "import " << i;
    }
  }
  auto db = open_db(path);
  ASSERT_TRUE(db);
  EXPECT_EQ(stored, 27u);
  EXPECT_EQ(stored_games(*db), 27u);
  expect_consistent(*db);
}

// Imports into a stored database leave their entries above the last level,
// in at most three sorted runs: an import's run takes in the next older one
// while it holds at least half as much, and the runs go into the last level
// only once they hold more than twice what it does, so the stored entries are
// rewritten each time the family has tripled, not by every import.
TEST_F(DatabaseTest, ImportsKeepFewRunsAndRewriteTheLastLevelRarely) {
  std::vector<std::vector<game::GameRecord>> inputs;
  for (std::uint64_t i = 0; i < 14; ++i) {
    inputs.emplace_back();
    for (auto& g : check_pgn(random_games(i == 0 ? 20 : 5, 20 + i, int(1000 * i))))
      inputs.back().push_back(std::move(g.record));
  }
  std::size_t stored = 0, rewrites = 0, merges = 0;
  std::vector<std::uint64_t> below;
  testing::RunsAboveLastLevel before;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    {
      auto db = open_db(path);
      ASSERT_TRUE(db);
      GameImporter importer(*db, {2, 1, 1e-6});  // an ingest a game
      for (const auto& g : inputs[i]) EXPECT_TRUE(importer.add(g));
      auto t = importer.finish();
      ASSERT_TRUE(t) << t.error().message;
      EXPECT_EQ(t->stored, inputs[i].size());
      stored += t->stored;
      expect_consistent(*db);
      EXPECT_EQ(stored_games(*db), stored);
    }
    for (const Family f : {Family::Positions, Family::Tree, Family::Material}) {
      auto r = testing::runs_above_last_level(path, f);
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_LE(r->runs, 3u) << "import " << i;
    }
    // The position index is not compressed: its sizes add up.
    auto r = testing::runs_above_last_level(path, Family::Positions);
    auto files = testing::files_below_level0(path, Family::Positions);
    ASSERT_TRUE(r && files);
    if (i == 0) {
      EXPECT_EQ(r->runs, 0u);  // compacted as it went
    } else if (*files != below) {
      ++rewrites;
      EXPECT_EQ(r->runs, 0u) << "import " << i;
      // What went into the last level was twice what it held, or more (its
      // files, merged, lose some of their overhead).
      EXPECT_GE(2 * (r->last_bytes - before.last_bytes), 3 * before.last_bytes) << "import " << i;
    } else {
      EXPECT_LE(r->above_bytes, 2 * r->last_bytes) << "import " << i;
      if (r->runs <= before.runs) ++merges;  // the import's run took in an older one
    }
    below = *files;
    before = *r;
  }
  EXPECT_GE(rewrites, 1u);
  EXPECT_LE(rewrites, 3u);
  EXPECT_GE(merges, 2u);
  // Every game is found by its start position, whichever run holds it, and
  // the opening tree's counters add up over the runs.
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  for (const Variant v : {Variant::Standard, Variant::Virrey}) {
    const std::uint64_t start = hash_of_fen(std::string(info(v).start_fen), v);
    std::set<std::uint32_t> found;
    ASSERT_TRUE(
        db->for_each_position(v, start, [&](const PositionHit& h) { return found.insert(h.game), true; }));
    EXPECT_EQ(found.size(), db->counts()[std::size_t(v)].games) << info(v).name;
    auto moves = db->tree_moves(v, start);
    ASSERT_TRUE(moves);
    std::uint64_t games = 0;
    for (const TreeMove& m : *moves) games += m.counters.games;
    EXPECT_EQ(games, db->counts()[std::size_t(v)].games) << info(v).name;
  }
}

// A reader opened before a writer reads to its end: while a reader has the
// database open, a writer keeps the table files its compactions replace (the
// reader opens them as it goes), and the next writer with no reader open
// deletes them.
TEST_F(DatabaseTest, AReaderOpenedBeforeAWriterReadsToItsEnd) {
  std::vector<game::GameRecord> first, second;
  for (auto& g : check_pgn(random_games(60, 21))) first.push_back(g.record);
  for (auto& g : check_pgn(random_games(60, 22, 1000))) second.push_back(g.record);
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, first).stored, first.size());
  }
  // Runs above the last level: the compaction below replaces their files.
  ASSERT_TRUE(testing::add_runs_of_the_same_entries(path, Family::Positions, 2));
  auto table_files = [&] {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.path().extension() == ".sst") out.insert(e.path().filename().string());
    return out;
  };
  auto reader = open_db(path, OpenMode::Read);
  ASSERT_TRUE(reader);
  const std::set<std::string> seen = table_files();
  {
    auto writer = open_db(path);
    ASSERT_TRUE(writer);
    // An ingest a game: a MANIFEST long enough that closing would shorten it
    // (which opens the database again: an open deletes the files kept).
    GameImporter importer(*writer, {2, 1, 1e-6});
    for (const auto& g : second) EXPECT_TRUE(importer.add(g));
    auto t = importer.finish();
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->stored, second.size());
    ASSERT_TRUE(writer->compact());
    const std::string current = read_file(path + "/CURRENT");
    EXPECT_GT(std::filesystem::file_size(path + "/" + current.substr(0, current.find('\n'))), 16u << 10);
  }
  std::size_t kept = 0;
  for (const std::string& f : seen) kept += std::filesystem::exists(path + "/" + f);
  EXPECT_EQ(kept, seen.size());
  for (const Variant v : {Variant::Standard, Variant::Virrey}) {
    const std::uint64_t start = hash_of_fen(std::string(info(v).start_fen), v);
    std::set<std::uint32_t> found;
    ASSERT_TRUE(reader->for_each_position(v, start,
                                          [&](const PositionHit& h) { return found.insert(h.game), true; }));
    EXPECT_EQ(found.size(), reader->counts()[std::size_t(v)].games) << info(v).name;
  }
  std::uint64_t games = 0;
  ASSERT_TRUE(reader->for_each_game([&](GameId, const game::GameRecord&) { return ++games, true; }));
  EXPECT_EQ(games, first.size());
  reader.reset();
  { ASSERT_TRUE(open_db(path)); }  // a writer with no reader open
  kept = 0;
  for (const std::string& f : seen) kept += std::filesystem::exists(path + "/" + f);
  EXPECT_LT(kept, seen.size());
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  expect_consistent(*db);
}

// A reader beside a writer (a secondary instance) keeps no directory of its
// own once open, so a reader a signal ends (`search ... | head` during an
// import) leaves nothing behind in the temporary directory.
TEST_F(DatabaseTest, AReaderBesideAWriterKeepsNoDirectory) {
  // The temporary directory is this test's own (other tests running beside
  // it open readers too).
  const std::string tmp = dir / "tmp";
  std::filesystem::create_directory(tmp);
  struct Tmpdir {  // TMPDIR set for the test, as it was after it
    const char* old = std::getenv("TMPDIR");
    std::string saved = old ? old : "";
    explicit Tmpdir(const std::string& to) { ::setenv("TMPDIR", to.c_str(), 1); }
    ~Tmpdir() { old ? ::setenv("TMPDIR", saved.c_str(), 1) : ::unsetenv("TMPDIR"); }
  } tmpdir(tmp);
  auto readers_dirs = [&] {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp))
      n += e.path().filename().string().starts_with("virrey-reader-");
    return n;
  };
  auto writer = open_db(path);
  ASSERT_TRUE(writer);
  EXPECT_EQ(import_games(*writer, games).stored, games.size());
  const std::size_t before = readers_dirs();
  auto reader = open_db(path, OpenMode::Read);
  ASSERT_TRUE(reader);
  EXPECT_EQ(readers_dirs(), before);
  EXPECT_EQ(reader->counts()[0].games + reader->counts()[1].games, games.size());
}

// In a large database an import's first table files go below level 0 (to
// the empty levels above the last), and a level there holds a sorted run as a
// level-0 file does: a query reads each. Imports count and merge those runs
// too, so that no more than three pile up above the last level.
TEST_F(DatabaseTest, RunsBelowLevelZeroCountAsRuns) {
  auto import_one = [&](int games, std::uint64_t seed) {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    GameImporter importer(*db, {2, 1, 1e-6});  // an ingest a game
    std::size_t n = 0;
    for (auto& g : check_pgn(random_games(games, seed, int(1000 * seed)))) {
      EXPECT_TRUE(importer.add(g.record));
      ++n;
    }
    auto t = importer.finish();
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->stored, n);
    expect_consistent(*db);
  };
  auto runs = [&] {
    auto r = testing::runs_above_last_level(path, Family::Positions);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : testing::RunsAboveLastLevel{};
  };
  import_one(40, 1);
  EXPECT_EQ(runs().runs, 0u);  // compacted as it went: all in the last level
  import_one(5, 2);
  EXPECT_EQ(runs().runs, 1u);
  ASSERT_TRUE(testing::move_level0_files(path, Family::Positions, 5));
  EXPECT_EQ(runs().runs, 1u);
  EXPECT_EQ(runs().level0_files, 0u);
  // As large as the run in level 5: the import's run takes it in, there.
  import_one(5, 3);
  EXPECT_EQ(runs().runs, 1u);
  EXPECT_EQ(runs().level0_files, 0u);
  for (std::uint64_t seed = 4; seed < 8; ++seed) {
    import_one(5, seed);
    EXPECT_LE(runs().runs, 3u);
  }
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  const std::uint64_t start = hash_of_fen(std::string(info(Variant::Standard).start_fen), Variant::Standard);
  std::set<std::uint32_t> found;
  ASSERT_TRUE(db->for_each_position(Variant::Standard, start,
                                    [&](const PositionHit& h) { return found.insert(h.game), true; }));
  EXPECT_EQ(found.size(), db->counts()[std::size_t(Variant::Standard)].games);
}

// A merge of shards ingests each source as a run of every family; more runs
// than an import leaves go into the last level, so that a query on the
// merged database reads no more runs than on one an import wrote.
TEST_F(DatabaseTest, MergedShardsLeaveFewRuns) {
  std::vector<std::string> shards;
  std::size_t games = 0;
  for (std::uint64_t i = 0; i < 6; ++i) {
    const std::string shard = path + fmt::format("-shard{}", i);
    auto db = open_db(i == 0 ? path : shard);
    ASSERT_TRUE(db);
    GameImporter importer(*db, {});
    for (auto& g : check_pgn(random_games(8, 60 + i, int(1000 * i)))) EXPECT_TRUE(importer.add(g.record));
    auto t = importer.finish();
    ASSERT_TRUE(t) << t.error().message;
    games += t->stored;
    if (i > 0) shards.push_back(shard);
  }
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    auto report = merge_databases(*db, shards);
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_EQ(stored_games(*db), games);
    expect_consistent(*db);
  }
  for (const Family f : {Family::Positions, Family::Tree, Family::Material, Family::Tags}) {
    auto r = testing::runs_above_last_level(path, f);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_LE(r->runs, 3u);
  }
  for (const std::string& shard : shards) std::filesystem::remove_all(shard);
}

// An import that piles up many files into a database three times its size
// has them merged among themselves while it goes on, and still leaves the
// stored entries alone.
TEST_F(DatabaseTest, LongImportMergesItsOwnFilesAsItGoes) {
  std::vector<game::GameRecord> first, second;
  for (auto& g : check_pgn(random_games(150, 31))) first.push_back(std::move(g.record));
  for (auto& g : check_pgn(random_games(50, 32, 1000))) second.push_back(std::move(g.record));
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, first);
    ASSERT_TRUE(db->compact());
  }
  auto before = testing::files_below_level0(path, Family::Positions);
  ASSERT_TRUE(before) << before.error().message;
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    GameImporter importer(*db,
                          {.threads = 2, .batch_games = 1, .commit_seconds = 1e-6, .merge_level0_files = 6});
    std::uint32_t most = 0;  // level-0 files of the position index seen during the import
    for (const auto& g : second) {
      EXPECT_TRUE(importer.add(g));
      most = std::max(most, level0_files(*db, "positions"));
    }
    auto t = importer.finish();
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->stored, second.size());
    EXPECT_LT(most, 20u);  // fifty ingests, merged six or so at a time
    expect_consistent(*db);
  }
  // The import's files merged as it went, and at its end into no more runs
  // than an import leaves (the merges' timing decides how many).
  auto runs = testing::runs_above_last_level(path, Family::Positions);
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_LE(runs->runs, 3u);
  auto after = testing::files_below_level0(path, Family::Positions);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, *before);
}

TEST_F(DatabaseTest, DuplicatesAreSkipped) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  auto twice = games;
  twice.push_back(games[0]);  // within one batch run
  ImportTotals t = import_games(*db, twice, 100);
  EXPECT_EQ(t.stored, games.size());
  EXPECT_EQ(t.duplicates, 1u);
  t = import_games(*db, games);  // against stored games
  EXPECT_EQ(t.stored, 0u);
  EXPECT_EQ(t.duplicates, games.size());
  EXPECT_EQ(db->counts()[0].games + db->counts()[1].games, games.size());
  expect_consistent(*db);
}

TEST_F(DatabaseTest, ReopensReadOnlyWithTheSameContent) {
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
    Fingerprint fp{};
    fp[0] = 7;
    ASSERT_TRUE(db->record_input(fp, {"x.pgn", 5, 5, 123, std::nullopt}));
  }
  for (OpenMode mode : {OpenMode::Read, OpenMode::ReadOnly, OpenMode::Secondary}) {
    auto db = open_db(path, mode);
    ASSERT_TRUE(db);
    EXPECT_FALSE(db->writable());
    EXPECT_EQ(db->counts()[0].games, 4u);
    auto info = db->info();
    ASSERT_TRUE(info);
    EXPECT_EQ(info->schema_version, kSchemaVersion);
    EXPECT_EQ(info->next_game_id, 6u);
    EXPECT_EQ(info->families.size(), std::size_t(kFamilyCount));
    Fingerprint fp{};
    fp[0] = 7;
    auto found = db->find_input(fp);
    ASSERT_TRUE(found);
    ASSERT_TRUE(found->has_value());
    EXPECT_EQ((*found)->name, "x.pgn");
    fp[0] = 8;
    EXPECT_FALSE(db->find_input(fp)->has_value());
    auto report = check_database(*db);
    ASSERT_TRUE(report);
    EXPECT_TRUE(report->ok());
    EXPECT_EQ(report->games, 5u);
    EXPECT_FALSE(GameImporter(*db).add(games[0]));  // not writable
  }
}

// An input record keeps its probe; one written without (as before probes
// were kept) reads back without; every record is listed by fingerprint.
TEST_F(DatabaseTest, InputRecordsKeepTheirProbe) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  Fingerprint with{}, without{};
  with[15] = 1;
  without[15] = 2;
  ASSERT_TRUE(
      db->record_input(with, {"a.pgn", 3, 0, 77, importers::InputProbe{123456789, 0xfedcba9876543210ULL}}));
  ASSERT_TRUE(db->record_input(without, {"b.pgn", 4, 0, 78, std::nullopt}));
  auto a = db->find_input(with);
  ASSERT_TRUE(a && a->has_value());
  EXPECT_EQ((*a)->name, "a.pgn");
  EXPECT_EQ((*a)->games_read, 3u);
  EXPECT_EQ((*a)->unix_time, 77);
  ASSERT_TRUE((*a)->probe);
  EXPECT_EQ((*a)->probe->size, 123456789u);
  EXPECT_EQ((*a)->probe->head, 0xfedcba9876543210ULL);
  auto b = db->find_input(without);
  ASSERT_TRUE(b && b->has_value());
  EXPECT_EQ((*b)->name, "b.pgn");
  EXPECT_FALSE((*b)->probe);
  std::vector<std::string> names;
  ASSERT_TRUE(db->for_each_input([&](const Fingerprint& fp, const InputRecord& rec) {
    EXPECT_EQ(fp, rec.name == "a.pgn" ? with : without);
    names.push_back(rec.name);
    return true;
  }));
  EXPECT_EQ(names, (std::vector<std::string>{"a.pgn", "b.pgn"}));
}

// An input record that does not decode (a bad value, a key of the wrong
// length) is passed over: the records around it are still listed.
TEST_F(DatabaseTest, UndecodableInputRecordsAreSkipped) {
  Fingerprint first{}, last{};
  last.fill(0xff);
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->record_input(first, {"a.pgn", 3, 0, 77, std::nullopt}));
    ASSERT_TRUE(db->record_input(last, {"b.pgn", 4, 0, 78, std::nullopt}));
  }
  const std::string prefix(view(meta_key(MetaKey::Input)));
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Meta, prefix + std::string(16, '\x55'), "\xff"));
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Meta, prefix + std::string(3, '\x66'), "\x01"));
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  std::vector<std::string> names;
  EXPECT_TRUE(db->for_each_input([&](const Fingerprint&, const InputRecord& rec) {
    names.push_back(rec.name);
    return true;
  }));
  EXPECT_EQ(names, (std::vector<std::string>{"a.pgn", "b.pgn"}));
}

// Readers replay the whole MANIFEST at open; a writer that made it long (one
// record per flush or ingest) leaves a fresh, short one when it closes.
TEST_F(DatabaseTest, WriterLeavesAShortManifest) {
  auto manifest_bytes = [&] {
    std::uintmax_t bytes = 0;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.path().filename().string().rfind("MANIFEST-", 0) == 0) bytes = std::max(bytes, e.file_size());
    return bytes;
  };
  std::uintmax_t grown = 0;
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
    for (int i = 0; i < 200; ++i) {  // every small write is flushed: a MANIFEST record each
      Fingerprint fp{};
      fp[0] = std::uint8_t(i);
      ASSERT_TRUE(db->record_input(fp, {"in.pgn", 1, 1, i, std::nullopt}));
    }
    grown = manifest_bytes();
  }
  EXPECT_GT(grown, std::uintmax_t(16 << 10));
  EXPECT_LT(manifest_bytes(), std::uintmax_t(16 << 10));
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->counts()[0].games, 4u);
  Fingerprint fp{};
  fp[0] = 199;
  auto found = db->find_input(fp);
  ASSERT_TRUE(found);
  EXPECT_TRUE(found->has_value());
  auto report = check_database(*db);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->ok());
}

// Each writer's open makes a write-ahead log that virrey writes nothing
// through: the empty ones of opens before are removed.
TEST_F(DatabaseTest, WritersLeaveNoEmptyLogsBehind) {
  auto logs = [&] {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.path().extension() == ".log") out.push_back(e.path().filename().string());
    return out;
  };
  for (int i = 0; i < 4; ++i) {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    if (i == 0) import_games(*db, games);
  }
  EXPECT_EQ(logs().size(), 1u);
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(stored_games(*db), games.size());
}

TEST_F(DatabaseTest, CheckFindsAMissingGameRecord) {
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
  }
  ASSERT_TRUE(testing::delete_game_record(path, 2));
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  auto report = check_database(*db);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->ok());
  bool names_game = false;
  for (const auto& p : report->problems) names_game |= p.find("game 2") != std::string::npos;
  EXPECT_TRUE(names_game);
}

// Summaries written before the men at the end were recorded hold 0 there:
// `db check` accepts them (and a wrong count it does not), and an upgrade
// records the count.
TEST_F(DatabaseTest, SummariesWithoutTheFinalMen) {
  std::vector<std::pair<GameId, GameSummary>> summaries;
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
    ASSERT_TRUE(db->for_each_summary([&](GameId id, const GameSummary& s) {
      summaries.emplace_back(id, s);
      return true;
    }));
  }
  ASSERT_EQ(summaries.size(), games.size());
  for (auto [id, s] : summaries) {
    ASSERT_GT(s.final_men, 0);
    s.final_men = 0;
    ASSERT_TRUE(
        testing::put_raw_entry(path, Family::Summaries, std::string(view(game_key(id))), encode_summary(s)));
  }
  auto checked = [&] {
    auto db = open_db(path, OpenMode::ReadOnly);
    EXPECT_TRUE(db);
    auto report = db ? check_database(*db) : Result<CheckReport>(Error{ErrorKind::Io, "not opened"});
    EXPECT_TRUE(report);
    return report ? *report : CheckReport{};
  };
  EXPECT_TRUE(checked().ok()) << checked().problems.front();

  // Another field wrong in one of them: the entry-by-entry pass names that
  // game only (the others' missing counts are no difference).
  GameSummary longer = summaries[0].second;
  longer.final_men = 0;
  longer.plies = std::uint16_t(longer.plies + 1);
  const std::string key0(view(game_key(summaries[0].first)));
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Summaries, key0, encode_summary(longer)));
  int wrong_values = 0;
  for (const auto& p : checked().problems)
    if (p.find("has a wrong value") != std::string::npos) {
      ++wrong_values;
      EXPECT_NE(p.find(fmt::format("game {} ", summaries[0].first)), std::string::npos) << p;
    }
  EXPECT_EQ(wrong_values, 1);
  longer.plies = summaries[0].second.plies;
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Summaries, key0, encode_summary(longer)));

  GameSummary wrong = summaries[1].second;
  wrong.final_men = std::uint8_t(wrong.final_men + 1);
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Summaries, std::string(view(game_key(summaries[1].first))),
                                     encode_summary(wrong)));
  const CheckReport report = checked();
  EXPECT_FALSE(report.ok());
  bool named = false;
  for (const auto& p : report.problems)
    named |= p.find(fmt::format("game {} ends with {} men", summaries[1].first,
                                summaries[1].second.final_men)) != std::string::npos;
  EXPECT_TRUE(named) << (report.problems.empty() ? "" : report.problems[0]);

  // An upgrade from an older schema writes every summary again, whole.
  ASSERT_TRUE(testing::set_schema_version(path, 2));
  ASSERT_TRUE(upgrade_database(path));
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  for (const auto& [id, s] : summaries) {
    auto now = db->summary(id);
    ASSERT_TRUE(now);
    EXPECT_EQ(*now, s);
  }
  auto after = check_database(*db);
  ASSERT_TRUE(after);
  EXPECT_TRUE(after->ok());
}

// A database as an older virrey wrote it (`as_older_virrey_wrote_it` makes
// one at a path) is brought up to date by its first writer and when it is a
// shard of a merge, into a database that holds `again` (a game of it, as
// read now) or an empty one: `again` is then a duplicate, never a second game.
void expect_writers_find_the_game_again(
    const std::string& path, const std::function<void(const std::string&)>& as_older_virrey_wrote_it,
    const game::GameRecord& again, std::size_t games) {
  ASSERT_NO_FATAL_FAILURE(as_older_virrey_wrote_it(path));
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    const ImportTotals t = import_games(*db, {again});
    EXPECT_EQ(t.stored, 0u);
    EXPECT_EQ(t.duplicates, 1u);
    expect_consistent(*db);
  }
  const std::string shard = path + "-older", dest = path + "-merged";
  ASSERT_NO_FATAL_FAILURE(as_older_virrey_wrote_it(shard));
  {
    auto db = open_db(dest);
    ASSERT_TRUE(db);
    EXPECT_EQ(import_games(*db, {again}).stored, 1u);
    auto merged = merge_databases(*db, {shard});
    ASSERT_TRUE(merged) << merged.error().message;
    EXPECT_EQ(stored_games(*db), games);  // the game and its older copy are one
    expect_consistent(*db);
  }
  // Into an empty one: its games copied, then brought up to date.
  std::filesystem::remove_all(dest);
  {
    auto db = open_db(dest);
    ASSERT_TRUE(db);
    auto merged = merge_databases(*db, {shard});
    ASSERT_TRUE(merged) << merged.error().message;
    expect_consistent(*db);
    EXPECT_EQ(import_games(*db, {again}).duplicates, 1u);
  }
  std::filesystem::remove_all(shard);
  std::filesystem::remove_all(dest);
}

// A game lacking roster tags and the same game as export writes it ("?"
// for the missing tags) are one game. A database written before that rule
// (its identities of the tags as read) checks as it is, and is brought up
// to date by its first writer, by `db upgrade`, and when it is a shard of
// a merge.
TEST_F(DatabaseTest, ExportedGamesWithoutTheWholeRosterAreDuplicates) {
  game::GameRecord bare = games[0];
  std::erase_if(bare.tags, [](const game::TagPair& t) { return t.name == "Site" || t.name == "Round"; });
  auto exported = check_pgn(game::write_pgn(bare));
  ASSERT_EQ(exported.size(), 1u);
  ASSERT_EQ(exported[0].record.tag("Site"), "?");
  std::vector<game::GameRecord> stored = games;
  stored.push_back(bare);
  // The games the two rules tell apart, counted here from the tags.
  std::uint64_t lacking = 0;
  for (const auto& g : stored) {
    bool differs = g.tag("Result") != result_text(g.result);
    for (std::string_view t : {"Event", "Site", "Date", "Round", "White", "Black"}) differs |= !g.has_tag(t);
    lacking += differs;
  }
  ASSERT_GE(lacking, 1u);

  auto as_older_virrey_wrote_it = [&](const std::string& where) {
    std::filesystem::remove_all(where);
    {
      auto db = open_db(where);
      ASSERT_TRUE(db);
      EXPECT_EQ(import_games(*db, stored).stored, stored.size());
    }
    ASSERT_TRUE(testing::identities_as_read(where));
    auto db = open_db(where, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    expect_consistent(*db);
  };

  ASSERT_NO_FATAL_FAILURE(
      expect_writers_find_the_game_again(path, as_older_virrey_wrote_it, exported[0].record, stored.size()));
  // db upgrade.
  ASSERT_NO_FATAL_FAILURE(as_older_virrey_wrote_it(path));
  auto report = upgrade_database(path);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->identities);
  EXPECT_EQ(report->identities_rewritten, lacking);
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    expect_consistent(*db);
    EXPECT_EQ(import_games(*db, {exported[0].record}).duplicates, 1u);
  }
  report = upgrade_database(path);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->identities);
}

// A database written from a Latin-1 PGN before tags were read as UTF-8
// holds those tags as their bytes, and identities of those bytes. It checks
// as it is and exports UTF-8; its first writer, `db upgrade` and a merge
// bring its duplicate detection up to date, so that the same game read now
// (its tags as UTF-8), or its export, is a duplicate, not a second game.
TEST_F(DatabaseTest, GamesStoredWithLatin1TagsAreDuplicatesOfTheirUtf8Reading) {
  const std::string utf8 = "Fran\xc3\xa7ois Andr\xc3\xa9 Philidor", latin1 = "Fran\xe7ois Andr\xe9 Philidor";
  std::vector<game::GameRecord> stored = games;
  game::GameRecord& named = stored[0];
  ASSERT_TRUE(named.has_tag("White"));
  for (game::TagPair& t : named.tags)
    if (t.name == "White") t.value = utf8;
  std::uint64_t latin1_games = 0;  // this one and the samples' own of Latin-1's letters

  auto as_older_virrey_wrote_it = [&](const std::string& where) {
    std::filesystem::remove_all(where);
    {
      auto db = open_db(where);
      ASSERT_TRUE(db);
      EXPECT_EQ(import_games(*db, stored).stored, stored.size());
    }
    auto rewritten = testing::tags_stored_as_latin1(where);
    ASSERT_TRUE(rewritten) << rewritten.error().message;
    ASSERT_GE(*rewritten, 1u);
    latin1_games = *rewritten;
    auto db = open_db(where, OpenMode::ReadOnly);
    ASSERT_TRUE(db);
    expect_consistent(*db);
    auto first = db->game(GameId(1));
    ASSERT_TRUE(first);
    EXPECT_EQ(first->tag("White"), latin1);
    const std::string pgn = game::write_pgn(*first);
    EXPECT_NE(pgn.find("[White \"" + utf8 + "\"]"), std::string::npos) << pgn;
  };

  ASSERT_NO_FATAL_FAILURE(
      expect_writers_find_the_game_again(path, as_older_virrey_wrote_it, named, stored.size()));
  // db upgrade; the export read back is the same game.
  ASSERT_NO_FATAL_FAILURE(as_older_virrey_wrote_it(path));
  auto report = upgrade_database(path);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->identities);
  EXPECT_EQ(report->identities_rewritten, latin1_games);
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    expect_consistent(*db);
    auto first = db->game(GameId(1));
    ASSERT_TRUE(first);
    auto exported = check_pgn(game::write_pgn(*first));
    ASSERT_EQ(exported.size(), 1u);
    EXPECT_EQ(exported[0].record.tag("White"), utf8);
    EXPECT_EQ(import_games(*db, {exported[0].record}).duplicates, 1u);
    EXPECT_EQ(stored_games(*db), stored.size());
  }
  report = upgrade_database(path);
  ASSERT_TRUE(report);
  EXPECT_FALSE(report->identities);
}

TEST_F(DatabaseTest, NotADatabase) {
  write_file(dir / "file.txt", "hello");
  auto r = Database::open(dir / "file.txt", {OpenMode::ReadWrite, true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::NotADatabase);
  std::filesystem::create_directory(dir / "other");
  write_file(dir / "other/notes.txt", "hello");
  r = Database::open(dir / "other", {OpenMode::ReadWrite, true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::NotADatabase);
  EXPECT_EQ(read_file(dir / "other/notes.txt"), "hello");  // untouched
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "other"), {}), 1);
  r = Database::open(dir / "missing", {OpenMode::Read, true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::NotADatabase);
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

// Another program's RocksDB database: refused by readers and writers alike,
// before a byte of it is written (a refused import once made virrey's parts
// in it, and the next took it over).
TEST_F(DatabaseTest, AnotherProgramsDatabaseIsLeftAlone) {
  const std::string foreign = dir / "foreign";
  ASSERT_TRUE(testing::make_bare_rocksdb(foreign, true));
  auto listing = [&] {
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(foreign))
      files[e.path().filename().string()] = e.path().filename() == "LOCK" ? "" : read_file(e.path());
    return files;
  };
  const auto before = listing();
  for (int round = 0; round < 2; ++round)
    for (const OpenMode mode : {OpenMode::ReadWrite, OpenMode::Read}) {
      auto r = Database::open(foreign, {mode, true});
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().kind, ErrorKind::NotADatabase);
      EXPECT_NE(r.error().message.find("without virrey's meta data"), std::string::npos) << r.error().message;
    }
  EXPECT_EQ(listing(), before);
  // One with a part named as virrey's meta, holding data there (or in its
  // default part): left as it is too, by a writer as by a reader.
  for (const bool default_entry : {true, false}) {
    const std::string with_meta = dir / ("with-meta-" + std::to_string(default_entry));
    ASSERT_TRUE(testing::make_rocksdb_with_family(with_meta, "meta", default_entry));
    const std::vector<std::string> parts = testing::rocksdb_parts(with_meta);
    ASSERT_EQ(parts.size(), 2u);
    for (const OpenMode mode : {OpenMode::ReadWrite, OpenMode::Read}) {
      auto r = Database::open(with_meta, {mode, true});
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().kind, ErrorKind::NotADatabase);
      EXPECT_NE(r.error().message.find("is not a virrey database"), std::string::npos) << r.error().message;
    }
    EXPECT_EQ(testing::rocksdb_parts(with_meta), parts);
  }
  // A creation killed before virrey's parts were made (RocksDB's default
  // part alone, empty) is still completed by a writer.
  const std::string unfinished = dir / "unfinished";
  ASSERT_TRUE(testing::make_bare_rocksdb(unfinished, false));
  auto reader = Database::open(unfinished, {OpenMode::Read, true});
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("creation was interrupted"), std::string::npos);
  EXPECT_TRUE(Database::open(unfinished, {OpenMode::ReadWrite, true}));
}

TEST_F(DatabaseTest, NewerSchemaIsRefusedAndStaysReadable) {
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
  }
  ASSERT_TRUE(testing::set_schema_version(path, kSchemaVersion + 1));
  auto logs = [&] {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path))
      if (e.path().extension() == ".log") out.insert(e.path().filename().string());
    return out;
  };
  // Empty logs of opens before that did not remove them.
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(testing::open_and_close_with_rocksdb(path));
  const std::set<std::string> logs_before = logs();
  ASSERT_GE(logs_before.size(), 3u);
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::Read}) {
    auto r = Database::open(path, {mode, true});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::NewerSchema);
  }
  // The refusing writer removed none of the logs (the database is not one
  // it may write: a newer virrey's logs may hold what it needs).
  for (const std::string& log : logs_before) EXPECT_TRUE(logs().count(log)) << log;
  ASSERT_TRUE(testing::set_schema_version(path, kSchemaVersion));
  auto db = open_db(path, OpenMode::ReadOnly);
  ASSERT_TRUE(db);
  EXPECT_EQ(db->counts()[0].games, 4u);
}

// What a reader sees of a database: every position's games and tree moves.
std::string index_view(const Database& db, const std::vector<game::GameRecord>& games) {
  std::string out;
  for (const auto& g : games) {
    if (g.variant == Variant::Modern) continue;
    FenProblems errors;
    auto pos = position_from_fen<Board8>(
        g.start_fen.empty() ? std::string(info(g.variant).start_fen) : g.start_fen, g.variant, errors);
    for (std::size_t i = 0; pos && i <= g.main_line.size(); ++i) {
      out += std::to_string(i) + ":";
      EXPECT_TRUE(db.for_each_position(g.variant, pos->hash(), [&](const PositionHit& h) {
        out += ' ';
        out += std::to_string(h.game);
        return true;
      }));
      auto moves = db.tree_moves(g.variant, pos->hash());
      EXPECT_TRUE(moves);
      for (const auto& m : *moves) {
        out += ' ';
        out += std::to_string(m.move.raw());
        out += 'x';
        out += std::to_string(m.counters.games);
      }
      out += "\n";
      if (i < g.main_line.size()) pos->play(g.main_line[i]);
    }
  }
  return out;
}

// Upgrades a database of an older schema and checks what a reader sees then:
// the report, every position's games and tree moves, and `db check`.
void expect_upgraded(const std::string& path, std::uint32_t from, const std::vector<game::GameRecord>& games,
                     const std::string& expected) {
  auto report = upgrade_database(path);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->from_version, from);
  EXPECT_EQ(report->to_version, kSchemaVersion);
  EXPECT_EQ(report->games, games.size());
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  EXPECT_EQ(index_view(*db, games), expected);
  auto check = check_database(*db);
  ASSERT_TRUE(check);
  EXPECT_TRUE(check->ok()) << (check->problems.empty() ? "" : check->problems[0]);
}

TEST_F(DatabaseTest, UpgradeRebuildsAnOlderSchema) {
  std::string expected;
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
    expected = index_view(*db, games);
  }
  // A schema-1 database: its version, a position entry and a 50-ply tree
  // entry in that schema's layouts (variant | hash | game id; variant |
  // hash | move), which the upgrade must not keep.
  ASSERT_TRUE(testing::set_schema_version(path, 1));
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Positions, std::string("\0\1\2\3\4\5\6\7\x08\0\0\0\1", 13),
                                     "\x05"));
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Tree, std::string("\0\1\2\3\4\5\6\7\x08\x0c\x1c\0", 12),
                                     "\x01\x01"));
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::Read}) {
    auto r = Database::open(path, {mode, true});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::OlderSchema);
    EXPECT_NE(r.error().message.find("virrey db upgrade"), std::string::npos) << r.error().message;
  }
  ASSERT_NO_FATAL_FAILURE(expect_upgraded(path, 1, games, expected));
  {
    auto db = open_db(path, OpenMode::Read);
    ASSERT_TRUE(db);
    EXPECT_EQ(db->tree_plies(), kTreePlies);
    EXPECT_EQ(db->counts()[0].games, 4u);
  }
  // Current already: nothing to do.
  auto report = upgrade_database(path);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->from_version, kSchemaVersion);
  EXPECT_EQ(report->games, 0u);
  // Newer: refused, untouched.
  ASSERT_TRUE(testing::set_schema_version(path, kSchemaVersion + 1));
  report = upgrade_database(path);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().kind, ErrorKind::NewerSchema);
}

// Schema 2 keyed the tree by the whole hash and wrote every value in layout
// 1 (tree_counters.hpp); an upgrade replaces that tree with one of today's
// keys and values.
TEST_F(DatabaseTest, UpgradeFromSchemaTwoRebuildsTheTree) {
  const game::GameRecord& g = games[0];
  FenProblems errors;
  auto start = position_from_fen<Board8>(info(g.variant).start_fen, g.variant, errors);
  ASSERT_TRUE(start && g.start_fen.empty());
  std::string expected;
  TreeMove first;
  {
    auto db = open_db(path);
    ASSERT_TRUE(db);
    import_games(*db, games);
    expected = index_view(*db, games);
    auto moves = db->tree_moves(g.variant, start->hash());
    ASSERT_TRUE(moves && !moves->empty());
    first = moves->front();
  }
  // The first move from the start in schema 2's layout: variant | hash (8) |
  // move, then the nine fields as varints.
  std::string old_key(1, char(g.variant));
  for (int i = 7; i >= 0; --i) old_key += char(start->hash() >> (8 * i) & 0xff);
  old_key += std::string(view(move_bytes(first.move)));
  std::string layout_one = "\x01";
  const TreeCounters& c = first.counters;
  for (std::uint64_t v : {c.games, c.white_wins, c.draws, c.black_wins, c.white_elo_sum, c.white_elo_games,
                          c.black_elo_sum, c.black_elo_games, std::uint64_t(c.last_date)}) {
    for (; v >= 0x80; v >>= 7) layout_one += char((v & 0x7f) | 0x80);
    layout_one += char(v);
  }
  ASSERT_TRUE(testing::put_raw_entry(path, Family::Tree, old_key, layout_one));
  ASSERT_TRUE(testing::set_schema_version(path, 2));
  auto refused = Database::open(path, {OpenMode::Read, true});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::OlderSchema);

  // The old key is gone: every tree entry agrees with the game records.
  ASSERT_NO_FATAL_FAILURE(expect_upgraded(path, 2, games, expected));
  auto db = open_db(path, OpenMode::Read);
  ASSERT_TRUE(db);
  auto moves = db->tree_moves(g.variant, start->hash());
  ASSERT_TRUE(moves && !moves->empty());
  EXPECT_EQ(moves->front().counters, first.counters);
}

TEST_F(DatabaseTest, UncreatableDirectory) {
  write_file(dir / "file.txt", "hello");
  auto r = Database::open(dir / "file.txt/sub.db", {OpenMode::ReadWrite, true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Io) << r.error().message;  // ENOTDIR: a path under a file
}

TEST_F(DatabaseTest, OneWriterAtATime) {
  auto db = open_db(path);
  ASSERT_TRUE(db);
  auto second = Database::open(path, {OpenMode::ReadWrite, true});
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().kind, ErrorKind::Busy);
  // A reader beside the writer (in this process: a secondary instance).
  auto reader = Database::open(path, {OpenMode::Read, true});
  ASSERT_TRUE(reader) << reader.error().message;
}

// A LOCK file no writer holds but none can take (a read-only directory or
// file system; here, a directory in its place) is no other writer: the error
// says the database cannot be written.
TEST_F(DatabaseTest, ALockNobodyHoldsIsNoOtherWriter) {
  ASSERT_TRUE(open_db(path));  // made, then closed
  std::filesystem::remove(path + "/LOCK");
  std::filesystem::create_directory(path + "/LOCK");
  auto r = Database::open(path, {OpenMode::ReadWrite, true});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::Io) << r.error().message;
  EXPECT_NE(r.error().message.find("cannot write"), std::string::npos) << r.error().message;
  EXPECT_TRUE(Database::open(path, {OpenMode::Read, true}));  // reading needs no lock
}

}  // namespace
}  // namespace virrey::store::test
