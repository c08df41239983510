// Fuzz entry: the PGN reader and the validator over a whole input, and the
// PGN writer's output read back.
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/base/utf8.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::fuzz {
namespace {

// Reads of a few KiB: a splitter's default 1 MiB buffer would cost more than
// the work on a small input.
pgn::SplitterOptions small_reads() {
  pgn::SplitterOptions options;
  options.read_size = 4096;
  return options;
}

validate::CheckOptions check_options(Variant default_variant) {
  validate::CheckOptions options;
  options.default_variant = default_variant;
  return options;
}

std::string first_error(const validate::CheckedGame& game) {
  for (const auto& f : game.findings)
    if (f.severity == validate::Severity::Error)
      return std::string(validate::code_name(f.code)) + ": " + f.message;
  return {};
}

// Whether the writer copies the Seven Tag Roster as read: it fills missing
// tags with their defaults, writes the termination marker as the result and
// turns control characters (line breaks among them) into spaces, and the
// identity sees those tags as read.
bool roster_written_as_read(const game::GameRecord& record) {
  for (std::string_view name : {"Event", "Site", "Date", "Round", "White", "Black", "Result"}) {
    if (!record.has_tag(name)) return false;
    const std::string_view value = record.tag(name);
    for (std::size_t i = 0; i < value.size(); ++i)
      if (control_length(value, i) > 0) return false;
  }
  return record.tag("Result") == result_text(record.result);
}

// A game free of errors, written as PGN, reads back as one game free of
// errors (with the same identity when the roster is kept), and writes the
// same text again.
void check_written_game(const validate::CheckedGame& game, Variant default_variant) {
  const std::string text = game::write_pgn(game.record);
  importers::MemorySource source(text, "written");
  pgn::GameSplitter splitter(source, small_reads());
  validate::GameChecker checker(check_options(default_variant));
  int games = 0;
  for (pgn::GameItem item = splitter.next(); item.kind != pgn::ItemKind::End; item = splitter.next()) {
    VIRREY_FUZZ_CHECK(item.kind == pgn::ItemKind::Game, "written game split into a non-game item:\n" + text);
    ++games;
    VIRREY_FUZZ_CHECK(games == 1, "written game split into several games:\n" + text);
    const validate::CheckedGame again = checker.check(item.text, item.number, item.start);
    VIRREY_FUZZ_CHECK(!again.has_error, "written game has an error (" + first_error(again) + "):\n" + text);
    VIRREY_FUZZ_CHECK(again.identity == game.identity || !roster_written_as_read(game.record),
                      "written game has another identity:\n" + text);
    VIRREY_FUZZ_CHECK(game::write_pgn(again.record) == text, "written game writes differently:\n" + text +
                                                                 "\n---\n" + game::write_pgn(again.record));
  }
  VIRREY_FUZZ_CHECK(games == 1, "written game split into no game:\n" + text);
}

}  // namespace

void pgn_reader(const std::uint8_t* data, std::size_t size) {
  // The input's size picks the options, so that plain PGN files are seeds.
  const Variant variant = Variant(size % kVariantCount);
  const std::size_t chunk = (size / 3) % 4 == 0 ? 1 + size % 13 : std::string::npos;
  pgn::SplitterOptions options;
  if ((size / 3) % 5 == 0) options.max_game_bytes = 512;
  options.read_size = 64 + size % 200;

  importers::MemorySource source(std::string(reinterpret_cast<const char*>(data), size), "fuzz", chunk);
  pgn::GameSplitter splitter(source, options);
  validate::GameChecker checker(check_options(variant));
  std::uint64_t covered = 0;
  for (pgn::GameItem item = splitter.next(); item.kind != pgn::ItemKind::End; item = splitter.next()) {
    VIRREY_FUZZ_CHECK(item.kind != pgn::ItemKind::ReadError, "a memory source cannot fail");
    VIRREY_FUZZ_CHECK(item.offset + item.size <= size, "item beyond the input");
    VIRREY_FUZZ_CHECK(item.offset >= covered, "items overlap");
    covered = item.offset + item.size;
    if (item.kind != pgn::ItemKind::Game) continue;
    VIRREY_FUZZ_CHECK(item.text.size() == item.size, "game text and size differ");
    const validate::CheckedGame game = checker.check(item.text, item.number, item.start);
    if (!game.has_error) check_written_game(game, variant);
  }
}

}  // namespace virrey::fuzz
