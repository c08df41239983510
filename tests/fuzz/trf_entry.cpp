// Fuzz entry: the TRF reader, and its comparison with a small tournament.
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/tournament/trf.hpp"

namespace virrey::fuzz {

void trf(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const tournament::TrfFile f = tournament::read_trf(text);
  for (const auto& p : f.players) {
    VIRREY_FUZZ_CHECK(p.line >= 1, "a player line numbered 0");
    VIRREY_FUZZ_CHECK(p.rounds.size() <= size / 10 + 1, "more rounds than the line has room for");
  }
  for (const auto& p : f.problems) VIRREY_FUZZ_CHECK(!p.message.empty(), "a problem without a message");
  // Compared with a tournament of three games among its first players.
  std::vector<tournament::GameSummary> games;
  for (std::size_t i = 0; i + 1 < f.players.size() && i < 3; ++i) {
    game::GameRecord r;
    r.tags = {{"Event", f.name}, {"Round", std::to_string(i + 1)}, {"White", f.players[i].name},
              {"Black", f.players[i + 1].name}, {"Result", i % 2 ? "1-0" : "1/2-1/2"}};
    games.push_back(tournament::summarize(r, {}));
  }
  for (const auto& g : tournament::group_by_event(games)) {
    const tournament::Tournament t = tournament::build_tournament(games, g);
    for (const auto& d : tournament::compare_trf(t, f))
      VIRREY_FUZZ_CHECK(!d.message.empty(), "a disagreement without a message");
    const std::string again = tournament::write_trf(t, tournament::standings(t, tournament::default_tie_breaks(t.system)));
    const tournament::TrfFile back = tournament::read_trf(again);
    VIRREY_FUZZ_CHECK(back.problems.empty(), "virrey's own TRF does not read: " + again);
    VIRREY_FUZZ_CHECK(back.players.size() == t.players.size(), "virrey's own TRF lost players: " + again);
    (void)tournament::compare_trf(t, back);
  }
}

}  // namespace virrey::fuzz
