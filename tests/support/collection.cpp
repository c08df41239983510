#include "collection.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include "virrey/generate/game_generator.hpp"
#include "virrey/ingest/pipeline.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/store/importer.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::testing {

namespace fs = std::filesystem;

std::string position_key(std::string_view fen) {
  // Drop the last two fields.
  std::size_t end = fen.size();
  for (int i = 0; i < 2; ++i) end = fen.rfind(' ', end - 1);
  return std::string(fen.substr(0, end));
}

namespace {

template <class G>
void scan(ScannedGame& g) {
  const game::GameRecord& rec = g.record;
  FenProblems errors;
  auto pos = position_from_fen<G>(rec.start_fen.empty() ? info(rec.variant).start_fen : rec.start_fen,
                                  rec.variant, errors);
  ASSERT_TRUE(pos) << join_reasons(errors);
  g.positions.push_back(position_key(write_fen(*pos)));
  for (std::size_t i = 0; i < rec.main_line.size(); ++i) {
    const Move m = rec.main_line[i];
    if (m.kind() == MoveKind::Promotion)
      g.promotions.push_back({std::uint32_t(i + 1), pos->side_to_move(), m.promotion(), file_of<G>(m.to())});
    pos->play(m);
    g.positions.push_back(position_key(write_fen(*pos)));
  }
}

}  // namespace

void store_records(const std::string& path, const std::vector<game::GameRecord>& records, bool compact) {
  auto db = store::Database::open(path, {store::OpenMode::ReadWrite});
  ASSERT_TRUE(db) << db.error().message;
  store::GameImporter importer(**db, {2, 8192});
  for (const auto& r : records) {
    Status s = importer.add(r);
    EXPECT_TRUE(s) << s.error().message;
  }
  auto totals = importer.finish();
  ASSERT_TRUE(totals) << totals.error().message;
  EXPECT_EQ(totals->stored, records.size());
  if (compact) {
    Status compacted = (*db)->compact();
    EXPECT_TRUE(compacted) << compacted.error().message;
  }
}

std::unique_ptr<Collection> make_collection(const std::vector<game::GameRecord>& records) {
  auto c = std::make_unique<Collection>();
  store_records(c->db_path(), records);
  auto db = store::Database::open(c->db_path(), {store::OpenMode::Read});
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return nullptr;
  c->db = std::move(*db);
  Status s = c->db->for_each_game(
      [&](store::GameId id, const game::GameRecord& rec) {
        ScannedGame g{id, rec, {}, {}};
        with_geometry(rec.variant, [&](auto geometry) { scan<decltype(geometry)>(g); });
        c->games.push_back(std::move(g));
        return true;
      },
      store::kDecodeTags | store::kDecodeMainLine);
  EXPECT_TRUE(s) << s.error().message;
  return c;
}

std::vector<game::GameRecord> records_from_pgn(std::string_view pgn, Variant default_variant) {
  std::vector<game::GameRecord> out;
  validate::CheckOptions options;
  options.default_variant = default_variant;
  validate::GameChecker checker(options);
  // Games are separated by blank lines before a tag section.
  std::size_t start = 0;
  std::uint64_t number = 0;
  while (start < pgn.size()) {
    std::size_t next = pgn.find("\n\n[", start);
    const std::size_t end = next == std::string_view::npos ? pgn.size() : next + 2;
    const std::string_view text = pgn.substr(start, end - start);
    start = end;
    if (text.find('[') == std::string_view::npos) continue;
    validate::CheckedGame g = checker.check(text, ++number, {});
    EXPECT_FALSE(g.has_error) << "game " << number << ": "
                              << (g.findings.empty() ? "" : g.findings.front().message) << "\n"
                              << text;
    if (!g.has_error) out.push_back(std::move(g.record));
  }
  return out;
}

std::vector<game::GameRecord> records_from_file(const std::string& path) {
  std::vector<game::GameRecord> out;
  ingest::Options options;
  options.threads = 2;
  ingest::Callbacks callbacks;
  callbacks.on_game = [&](ingest::GameReport& r) {
    if (!r.game.has_error) out.push_back(std::move(r.game.record));
    return ingest::Flow::Continue;
  };
  ingest::run({path}, options, callbacks);
  return out;
}

std::vector<game::GameRecord> generated(Variant v, std::uint64_t seed, int games) {
  generate::GeneratorOptions o;
  o.variant = v;
  o.seed = seed;
  generate::GameGenerator gen(o);
  std::vector<game::GameRecord> out;
  for (int i = 0; i < games; ++i) out.push_back(gen.game(std::uint64_t(i)).record);
  return out;
}

}  // namespace virrey::testing
