// Fuzz entry: a whole input checked as `validate --export-notation` checks
// it, every game handed to the tournament checks. Their findings must name
// games that were added, come in input order, and be the same when asked for
// twice.
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/tournament/checks.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::fuzz {

void event_checks(const std::uint8_t* data, std::size_t size) {
  importers::MemorySource source(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  pgn::SplitterOptions split;
  split.read_size = 4096;
  pgn::GameSplitter splitter(source, split);
  validate::CheckOptions options;
  options.notation = true;
  options.build_movetext = false;
  validate::GameChecker checker(options);
  tournament::EventChecks checks;
  std::uint64_t last = 0;
  for (pgn::GameItem item = splitter.next(); item.kind != pgn::ItemKind::End; item = splitter.next()) {
    if (item.kind != pgn::ItemKind::Game) continue;
    const validate::CheckedGame game = checker.check(item.text, item.number, item.start);
    for (const auto& f : game.findings)
      VIRREY_FUZZ_CHECK(f.game == item.number, "a finding of another game: " + f.message);
    checks.add(0, item.number, item.start, game.record);
    last = item.number;
  }
  const auto found = checks.findings();
  std::uint64_t previous = 0;
  for (const auto& f : found) {
    VIRREY_FUZZ_CHECK(f.finding.game >= 1 && f.finding.game <= last,
                      "a finding of no game: " + f.finding.message);
    VIRREY_FUZZ_CHECK(f.finding.game >= previous, "findings out of game order: " + f.finding.message);
    previous = f.finding.game;
  }
  const auto again = checks.findings();
  VIRREY_FUZZ_CHECK(again.size() == found.size(), "findings differ when asked twice");
  for (std::size_t i = 0; i < found.size(); ++i)
    VIRREY_FUZZ_CHECK(again[i].finding.message == found[i].finding.message,
                      "findings differ when asked twice");
}

}  // namespace virrey::fuzz
