// The tournament checks of validate, each with a tournament that triggers it
// and one that must not. The tournaments are small and written by hand: the
// expected findings (which game, which code) are worked out from the
// schedules, not from the code's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "virrey/tournament/checks.hpp"

namespace virrey::tournament {
namespace {

// One game: its tags (Event defaults to "Open"), the number of moves played.
struct G {
  std::map<std::string, std::string> tags;
  std::uint32_t plies = 40;
};

G game(std::string round, std::string white, std::string black, std::string result = "1-0",
       std::map<std::string, std::string> more = {}) {
  G g;
  g.tags = {{"Event", "Open"},
            {"Round", std::move(round)},
            {"White", std::move(white)},
            {"Black", std::move(black)},
            {"Result", std::move(result)}};
  for (auto& [k, v] : more) g.tags[k] = v;
  if (g.tags["Round"] == "<none>") g.tags.erase("Round");
  return g;
}

struct Seen {
  std::string code;
  std::uint64_t game;
  friend bool operator==(const Seen&, const Seen&) = default;
};
std::ostream& operator<<(std::ostream& os, const Seen& s) { return os << s.code << " @" << s.game; }
using V = std::vector<Seen>;

std::vector<EventFinding> run_all(const std::vector<G>& games) {
  EventChecks checks;
  std::uint64_t number = 0;
  for (const G& g : games) {
    game::GameRecord r;
    for (const auto& [k, v] : g.tags) r.tags.push_back({k, v});
    r.main_line.resize(g.plies);
    ++number;
    checks.add(0, number, {number * 10, 1}, r);
  }
  return checks.findings();
}

V run(const std::vector<G>& games) {
  V out;
  for (const auto& f : run_all(games)) {
    EXPECT_EQ(f.finding.severity, validate::Severity::Warning);
    EXPECT_EQ(f.finding.line, f.finding.game * 10) << "the line of the game's first byte";
    out.push_back({std::string(validate::code_name(f.finding.code)), f.finding.game});
  }
  return out;
}

// A complete single round robin of four players, three rounds, two boards.
std::vector<G> round_robin() {
  return {game("1.1", "A", "B", "1-0", {{"Date", "2024.05.01"}}),
          game("1.2", "C", "D", "1/2-1/2", {{"Date", "2024.05.01"}}),
          game("2.1", "A", "C", "0-1", {{"Date", "2024.05.02"}}),
          game("2.2", "D", "B", "1-0", {{"Date", "2024.05.02"}}),
          game("3.1", "D", "A", "1/2-1/2", {{"Date", "2024.05.03"}}),
          game("3.2", "B", "C", "1-0", {{"Date", "2024.05.03"}})};
}

TEST(EventChecks, ACleanRoundRobinHasNoFinding) { EXPECT_EQ(run(round_robin()), V{}); }

// A round per input: a message that points to a game of another input names
// that input, one of the same input does not.
TEST(EventChecks, AGameOfAnotherInputIsNamedWithIt) {
  EventChecks checks;
  const auto add = [&](std::size_t input, std::uint64_t number, const G& g) {
    game::GameRecord r;
    for (const auto& [k, v] : g.tags) r.tags.push_back({k, v});
    r.main_line.resize(g.plies);
    checks.add(input, number, {number, 1}, r);
  };
  checks.name_input(0, "r1.pgn");
  checks.name_input(1, "r1-late.pgn");
  add(0, 1, game("1.1", "A", "B"));
  add(0, 2, game("1.2", "C", "D"));
  add(1, 1, game("1.3", "A", "D"));  // A twice in round 1: game 1 is r1.pgn's
  add(1, 2, game("1.4", "E", "B"));
  add(1, 3, game("1.5", "E", "F"));  // E twice in round 1: game 2 of this input
  std::vector<std::string> messages;
  for (const auto& f : checks.findings())
    if (f.finding.code == validate::Code::PlayerTwiceInRound) messages.push_back(f.finding.message);
  ASSERT_GE(messages.size(), 2u);
  EXPECT_NE(std::find_if(messages.begin(), messages.end(),
                         [](const std::string& m) {
                           return m.find("A plays two games in round 1: game 1 of r1.pgn against B") !=
                                  std::string::npos;
                         }),
            messages.end());
  EXPECT_NE(std::find_if(messages.begin(), messages.end(),
                         [](const std::string& m) {
                           return m.find("E plays two games in round 1: game 2 against B") !=
                                  std::string::npos;
                         }),
            messages.end());
}

TEST(EventChecks, PlayerInTwoGamesOfOneRound) {
  auto games = round_robin();
  games[3] = game("2.2", "A", "B", "1-0", {{"Date", "2024.05.02"}});  // A plays C and B in round 2
  const V found = run(games);
  EXPECT_NE(std::find(found.begin(), found.end(), Seen{"player-twice-in-round", 4}), found.end());
  // Two games of the same two players in one round: a match, not a double booking.
  EXPECT_EQ(run({game("1.1", "A", "B"), game("1.2", "B", "A"), game("2.1", "A", "B"), game("2.2", "B", "A")}),
            V{});
}

// A game of a player against themself (game 7) is reported, and is no
// second game of the player in the round.
TEST(EventChecks, PlayerAgainstThemself) {
  auto games = round_robin();
  games.push_back(game("3.3", "A", "A", "1-0"));
  EXPECT_EQ(run(games), (V{{"self-pairing", 7}}));
}

TEST(EventChecks, RepeatedPairings) {
  // Four players, three rounds: a single round robin; A and B meet in rounds 1 and 3.
  std::vector<G> single = {game("1", "A", "B"), game("1", "C", "D"), game("2", "A", "C"),
                           game("2", "B", "D"), game("3", "B", "A"), game("3", "D", "C")};
  EXPECT_EQ(run(single), (V{{"repeated-pairing", 5}, {"repeated-pairing", 6}}));
  // A double round robin of four players (six rounds): each pair twice is right.
  std::vector<G> twice = {game("1", "A", "B"), game("1", "C", "D"), game("2", "A", "C"), game("2", "B", "D"),
                          game("3", "A", "D"), game("3", "B", "C"), game("4", "B", "A"), game("4", "D", "C"),
                          game("5", "C", "A"), game("5", "D", "B"), game("6", "D", "A"), game("6", "C", "B")};
  EXPECT_EQ(run(twice), V{});
  // ... a third meeting is not.
  twice[11] = game("6", "A", "B");
  twice[10] = game("6", "C", "D");
  const V third = run(twice);
  EXPECT_EQ(std::count(third.begin(), third.end(), Seen{"repeated-pairing", 12}), 1);
  EXPECT_EQ(std::count(third.begin(), third.end(), Seen{"repeated-pairing", 11}), 1);
  // A Swiss of six players in two rounds: never twice.
  EXPECT_EQ(run({game("1", "A", "B"), game("1", "C", "D"), game("1", "E", "F"), game("2", "B", "A"),
                 game("2", "D", "E"), game("2", "F", "C")}),
            (V{{"repeated-pairing", 4}}));
  // Two players alone are a match: any number of games.
  EXPECT_EQ(run({game("1", "A", "B"), game("2", "B", "A"), game("3", "A", "B"), game("4", "B", "A")}), V{});
}

// Four players who meet the same opponents round after round (a team match
// written as one event): every meeting past those the cycles allow is a
// finding, and each
// finding names the first meetings and counts the others, so that findings
// stay short however long the event runs.
TEST(EventChecks, RepeatedPairingsStayShort) {
  std::vector<G> games;
  const int rounds = 400;
  for (int r = 1; r <= rounds; ++r) {
    games.push_back(game(std::to_string(r) + ".1", "A", "B"));
    games.push_back(game(std::to_string(r) + ".2", "C", "D"));
  }
  std::size_t repeated = 0, longest = 0;
  std::string last;
  for (const auto& f : run_all(games))
    if (validate::code_name(f.finding.code) == "repeated-pairing") {
      ++repeated;
      longest = std::max(longest, f.finding.message.size());
      last = f.finding.message;
    }
  // (Four players: a cycle of three rounds, 134 cycles allow 134 meetings.)
  const int cycles = (rounds + 2) / 3;
  EXPECT_EQ(repeated, std::size_t(2 * (rounds - cycles)));
  EXPECT_LT(longest, 400u) << last;
  // The last: C and D in round 400, after rounds 1, 2 and 3 (named) and 396 more.
  EXPECT_NE(
      last.find(
          "C and D meet again in round 400, after round 1 (game 2), 2 (game 4), 3 (game 6) and 396 more"),
      std::string::npos)
      << last;
}

TEST(EventChecks, OnePlayerUnderTwoSpellings) {
  auto with = [](std::string second) {
    return std::vector<G>{game("1", "Carlsen, Magnus", "B"), game("1", "C", "D"), game("2", "C", second),
                          game("2", "B", "D")};
  };
  EXPECT_EQ(run(with("CARLSEN, Magnus")), (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Carlsen,Magnus")), (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Carlsén, Magnus")), (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Carlse\xcc\x81n, Magnus")), (V{{"player-name", 3}}));  // the accent decomposed (NFD)
  // A name with its accent precomposed and decomposed: one player, two spellings.
  EXPECT_EQ(run({game("1",
                      "Nu\xc3\xb1"
                      "ez, Jos\xc3\xa9",
                      "B"),
                 game("1", "C", "D"),
                 game("2", "C",
                      "Nun\xcc\x83"
                      "ez, Jose\xcc\x81"),
                 game("2", "B", "D")}),
            (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Magnus Carlsen")), (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Carlsen, M.")), (V{{"player-name", 3}}));
  EXPECT_EQ(run(with("Carlsen, M")), (V{{"player-name", 3}}));
  // "Surname, Given" beside "Given Surname": "Liren, Ding" and "Ding Liren" both read as surname Liren.
  EXPECT_EQ(run({game("1", "Liren, Ding", "B"), game("1", "C", "D"), game("2", "C", "Ding Liren"), game("2", "B", "D")}),
            (V{{"player-name", 3}}));
  // Other players of one family are no finding.
  EXPECT_EQ(run(with("Carlsen, Henrik")), V{});
  EXPECT_EQ(run(with("Carlsen, H.")), V{});
  EXPECT_EQ(run(with("Carlssen, Magnus")), V{});
}

// A name written "Surname, Given" in one game and with its comma dropped,
// "Surname Given", in another is one player: the same words in the same
// order round the name, as "Given Surname" is. Each pair is C's opponent in
// game 3 after the first name played game 1, so the finding is at game 3.
TEST(EventChecks, ACommaDroppedIsOneSpelling) {
  auto both = [](std::string first, std::string second) {
    return run({game("1", first, "B"), game("1", "C", "D"), game("2", "C", second), game("2", "B", "D")});
  };
  EXPECT_EQ(both("Smith, John", "Smith John"), (V{{"player-name", 3}}));
  EXPECT_EQ(both("Smith John", "Smith, John"), (V{{"player-name", 3}}));
  EXPECT_EQ(both("Ng, Bo", "Ng Bo"), (V{{"player-name", 3}}));
  EXPECT_EQ(both("Carlsen, Magnus Oen", "Carlsen Magnus Oen"), (V{{"player-name", 3}}));
  // The spellings found before stay found.
  EXPECT_EQ(both("John Smith", "Smith, John"), (V{{"player-name", 3}}));
  EXPECT_EQ(both("Smith,John", "Smith, John"), (V{{"player-name", 3}}));
  // Other given names, with or without the comma, are other players.
  EXPECT_EQ(both("Smith, John", "Smith, Joan"), V{});
  EXPECT_EQ(both("Smith, John", "Smith Joan"), V{});
  EXPECT_EQ(both("Ng, Bo", "Ng Bao"), V{});
  EXPECT_EQ(both("Smith, John Paul", "Smith, Paul John"), V{});
}

TEST(EventChecks, OneFideIdForTwoNames) {
  std::vector<G> games = {
      game("1", "Polgar, Judit", "B", "1-0", {{"WhiteFideId", "700070"}}), game("1", "C", "D"),
      game("2", "C", "Polgar, Judith", "1-0", {{"BlackFideId", "700070"}}), game("2", "B", "D")};
  EXPECT_EQ(run(games), (V{{"player-name", 3}}));
  games[2].tags["BlackFideId"] = "700071";
  EXPECT_EQ(run(games), V{});
  // One name with two ids.
  games[2] = game("2", "C", "Polgar, Judit", "1-0", {{"BlackFideId", "700071"}});
  EXPECT_EQ(run(games), (V{{"player-name", 3}}));
}

TEST(EventChecks, TwoRatings) {
  std::vector<G> games = {game("1", "A", "B", "1-0", {{"WhiteElo", "2500"}}), game("1", "C", "D"),
                          game("2", "C", "A", "1-0", {{"BlackElo", "2500"}}), game("2", "B", "D"),
                          game("3", "A", "D", "1-0", {{"WhiteElo", "2512"}}), game("3", "B", "C")};
  EXPECT_EQ(run(games), (V{{"player-rating", 5}}));
  games[4].tags["WhiteElo"] = "2500";
  EXPECT_EQ(run(games), V{});
}

TEST(EventChecks, RoundsMissingOrUnreadable) {
  auto games = round_robin();
  games[1].tags.erase("Round");
  games[2].tags["Round"] = "?";
  games[5].tags["Round"] = "3a";
  EXPECT_EQ(run(games), (V{{"round-tag", 2}, {"round-tag", 3}, {"round-tag", 6}}));
  // Round "-" (no round), before and after the event's first numbered round.
  games = round_robin();
  games[0].tags["Round"] = "-";
  games[3].tags["Round"] = "-";
  EXPECT_EQ(run(games), (V{{"round-tag", 1}, {"round-tag", 4}}));
  // Of an event that has named no round yet, the first 16 such games are
  // kept aside (online games of one Event, a stream of them, would be kept
  // to no end); the 17th and later are not.
  games.clear();
  for (int i = 0; i < 18; ++i) {
    std::string white = "X", black = "Y";
    white += std::to_string(i);
    black += std::to_string(i);
    games.push_back(game("-", white, black));
  }
  for (const G& g : round_robin()) games.push_back(g);
  V expected;
  for (std::uint64_t n = 1; n <= 16; ++n) expected.push_back({"round-tag", n});
  EXPECT_EQ(run(games), expected);
  // Games with no round number otherwise (no Round tag, "?"): the first
  // 1,024 of an event that has named no round yet are kept aside, the
  // later not (a stream of games exported without Round).
  games.clear();
  for (int i = 0; i < 1030; ++i) {
    games.push_back(game("-", "X" + std::to_string(i), "Y" + std::to_string(i)));
    if (i % 2)
      games.back().tags["Round"] = "?";
    else
      games.back().tags.erase("Round");
  }
  for (const G& g : round_robin()) games.push_back(g);
  expected.clear();
  for (std::uint64_t n = 1; n <= 1024; ++n) expected.push_back({"round-tag", n});
  EXPECT_EQ(run(games), expected);
  // Rounds 1, 2 and 4: round 3 is missing, reported at round 4's first game.
  games = round_robin();
  games[4].tags["Round"] = "4.1";
  games[5].tags["Round"] = "4.2";
  games[4].tags["Date"] = games[5].tags["Date"] = "2024.05.04";
  EXPECT_EQ(run(games), (V{{"missing-round", 5}}));
}

TEST(EventChecks, BoardUsedTwice) {
  auto games = round_robin();
  games[3].tags["Round"] = "2.1";  // D-B on board 1 of round 2, where A-C is
  EXPECT_EQ(run(games), (V{{"board-twice", 4}}));
}

TEST(EventChecks, Dates) {
  auto games = round_robin();
  for (auto& g : games) g.tags["EventDate"] = "2024.05.01";
  EXPECT_EQ(run(games), V{});
  games[0].tags["Date"] = "2024.04.30";
  EXPECT_EQ(run(games), (V{{"event-date", 1}}));
  // Round 3 dated before round 2.
  games = round_robin();
  games[5].tags["Date"] = "2024.05.01";
  EXPECT_EQ(run(games), (V{{"date-order", 6}}));
  // Unknown parts are no date to compare.
  games[5].tags["Date"] = "2024.05.??";
  EXPECT_EQ(run(games), V{});
}

TEST(EventChecks, UnplayedResults) {
  auto games = round_robin();
  games[0].plies = 0;  // 1-0 with no move
  EXPECT_EQ(run(games), (V{{"unplayed-result", 1}}));
  games[0].tags["Termination"] = "forfeit";
  EXPECT_EQ(run(games), V{});
  games[0].tags.erase("Termination");
  games[0].tags["Black"] = "BYE";
  games[1].plies = 0;  // a draw with no move: not a decisive result
  const V found = run(games);
  EXPECT_EQ(
      std::count_if(found.begin(), found.end(), [](const Seen& s) { return s.code == "unplayed-result"; }),
      0);
}

// As `event` reads them: a game whose Termination says how it ended, with
// no move, was played (not rated), and in a file of results (no game between
// two players has a move) every game was played: no unplayed result. A
// player named "?" is no one, as a bye.
TEST(EventChecks, NoUnplayedResultWhereEventReadsTheGameAsPlayed) {
  auto games = round_robin();
  games[0].plies = 0;
  games[0].tags["Termination"] = "time forfeit";
  EXPECT_EQ(run(games), V{});
  games[0].tags["Termination"] = "?";
  EXPECT_EQ(run(games), (V{{"unplayed-result", 1}}));
  for (G& g : games) g.plies = 0;  // results only: 1-0, 0-1, 1-0 and 1/2 twice
  EXPECT_EQ(run(games), V{});
  games = round_robin();
  games[0].plies = 0;
  games[0].tags["Black"] = "?";
  games[0].tags["BlackFideId"] = "4100018";  // a player all the same: a forfeit read
  EXPECT_EQ(run(games), (V{{"unplayed-result", 1}}));
  games[0].tags.erase("BlackFideId");
  const V found = run(games);
  EXPECT_EQ(
      std::count_if(found.begin(), found.end(), [](const Seen& s) { return s.code == "unplayed-result"; }),
      0);
}

// A bye written as a game, against "BYE" or "-" (event's bye names), with
// a result and no move: no unplayed result, and the bye is no player. Five
// players, a single round robin worked out by hand: each round two games
// and one player's bye (r1 E, r2 D, r3 B, r4 C, r5 A), every pair meeting
// once, so nothing is wrong.
TEST(EventChecks, ByesWrittenAsGamesAreNoUnplayedResult) {
  auto bye = [](std::string round, std::string white, std::string black, std::string result) {
    G g = game(std::move(round), std::move(white), std::move(black), std::move(result));
    g.plies = 0;
    return g;
  };
  const std::vector<G> games = {game("1", "A", "B"), game("1", "C", "D"), bye("1", "E", "-", "1-0"),
                                game("2", "A", "C"), game("2", "B", "E"), bye("2", "BYE", "D", "0-1"),
                                game("3", "A", "D"), game("3", "C", "E"), bye("3", "-", "B", "0-1"),
                                game("4", "A", "E"), game("4", "B", "D"), bye("4", "C", "BYE", "1-0"),
                                game("5", "B", "C"), game("5", "D", "E"), bye("5", "A", "-", "1-0")};
  EXPECT_EQ(run(games), V{});
}

TEST(EventChecks, UnfinishedGames) {
  // The round robin is complete: a '*' in its last round is reported.
  auto games = round_robin();
  games[5].tags["Result"] = "*";
  EXPECT_EQ(run(games), (V{{"unfinished-game", 6}}));
  // A '*' in round 1 of a Swiss that went on to round 2.
  std::vector<G> swiss = {game("1", "A", "B", "*"), game("1", "C", "D"), game("1", "E", "F"),
                          game("2", "A", "C"),      game("2", "B", "E"), game("2", "D", "F", "*")};
  EXPECT_EQ(run(swiss), (V{{"unfinished-game", 1}}));
  // Its last round still being played is fine; with EventRounds 2 it is over.
  // (A std::string on the right: g++ 12 warns wrongly on assigning a literal here, -Wrestrict.)
  for (auto& g : swiss) g.tags["EventRounds"] = std::string("2");
  EXPECT_EQ(run(swiss), (V{{"unfinished-game", 1}, {"unfinished-game", 6}}));
}

TEST(EventChecks, EventsWithoutRoundsAreNoTournaments) {
  // Online games: one Event, Round "-", the same players again and again with changing ratings.
  std::vector<G> games;
  for (int i = 0; i < 6; ++i)
    games.push_back(game("-", i % 2 ? "A" : "B", i % 2 ? "B" : "A", "1-0",
                         {{"WhiteElo", std::to_string(1500 + i)}, {"Event", "Rated Blitz game"}}));
  EXPECT_EQ(run(games), V{});
  // Two events are checked apart: the same pairing in each is no repetition.
  std::vector<G> two = {game("1", "A", "B"), game("1", "C", "D"),
                        game("1", "A", "B", "1-0", {{"Event", "Other"}}),
                        game("1", "C", "D", "1-0", {{"Event", "Other"}})};
  two[0].tags["Round"] = two[1].tags["Round"] = "1";
  EXPECT_EQ(run(two), V{});
}

TEST(EventChecks, EditionsOfOneEventNameAreApart) {
  // "Open" of 2003 and of 2005, no EventDate: the same pairings in the same
  // rounds are two tournaments, told apart by the jump in the dates.
  auto games = round_robin();
  auto later = round_robin();
  for (auto& g : later) g.tags["Date"] = "2005" + g.tags["Date"].substr(4);
  games.insert(games.end(), later.begin(), later.end());
  EXPECT_EQ(run(games), V{});
  // Within one edition a double booking is still found.
  games[9] = game("2.2", "A", "B", "1-0", {{"Date", "2005.05.02"}});
  const V found = run(games);
  EXPECT_NE(std::find(found.begin(), found.end(), Seen{"player-twice-in-round", 10}), found.end());
  for (const Seen& f : found) EXPECT_GT(f.game, 6u);
}

TEST(EventChecks, ALeaguesRoundsWeeksApartAreOneTournament) {
  // No EventDate, rounds 47 and then 50 days apart (a league over a winter
  // break): one tournament, no round missing, as `virrey event` groups it.
  auto games = round_robin();
  const char* dates[] = {"2004.11.12", "2004.11.12", "2004.12.29", "2004.12.29", "2005.02.17", "2005.02.17"};
  for (std::size_t i = 0; i < games.size(); ++i) games[i].tags["Date"] = dates[i];
  EXPECT_EQ(run(games), V{});
  // A date that is no day of the calendar orders nothing: round 3 on
  // "2004.02.30" is neither after round 2 nor before the EventDate.
  games[4].tags["Date"] = games[5].tags["Date"] = "2004.02.30";
  EXPECT_EQ(run(games), V{});
  for (auto& g : games) g.tags["EventDate"] = std::string("2004.11.12");
  EXPECT_EQ(run(games), V{});
  games[4].tags["Date"] = "2004.11.01";  // a real day before the EventDate is still found
  const V found = run(games);
  EXPECT_NE(std::find(found.begin(), found.end(), Seen{"event-date", 5}), found.end());
}

TEST(EventChecks, FindingsNameTheEventAndComeInGameOrder) {
  auto games = round_robin();
  games[5].tags["Date"] = "2024.05.01";
  games[0].plies = 0;
  const auto found = run_all(games);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].finding.game, 1u);
  EXPECT_EQ(found[1].finding.game, 6u);
  EXPECT_EQ(found[1].finding.message,
            "in \"Open\": round 3 is dated 2024.05.01, before game 3 of round 2 (2024.05.02)");
}

TEST(EventChecks, LongTagValuesAreToldApartByTheirWholeText) {
  // Two names that differ only past 128 bytes are two players; one of them
  // twice in a round is one player; two events so named are two tournaments.
  const std::string base(200, 'x');
  EXPECT_EQ(run({game("1", base + "1", "B"), game("1", base + "2", "C")}), V{});
  EXPECT_EQ(run({game("1", base + "1", "B"), game("1", base + "1", "C")}), (V{{"player-twice-in-round", 2}}));
  EXPECT_EQ(run({game("1", "A", "B", "1-0", {{"Event", base + "1"}}),
                 game("1", "A", "C", "1-0", {{"Event", base + "2"}})}),
            V{});
  // A name whose first 128 bytes are another's whole name is another name.
  EXPECT_EQ(run({game("1", base.substr(0, 128), "B"), game("1", base, "C")}), V{});
  // The messages quote the value cut short.
  const auto found = run_all({game("1", "A", "B", "1-0", {{"Event", base + "1"}}),
                              game("1", "A", "C", "1-0", {{"Event", base + "1"}})});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LT(found[0].finding.message.size(), 400u);
}

}  // namespace
}  // namespace virrey::tournament
