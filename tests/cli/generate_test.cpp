// `virrey generate` and the game generator behind it: the same seed gives the
// same bytes, every game is legal and passes `virrey validate --strict`,
// results agree with the final position, and promotions happen on every file.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_virrey.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/generate/game_generator.hpp"
#include "virrey/generate/swiss.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/san.hpp"

namespace virrey {
namespace {

using testing::run_virrey_words;
using testing::RunResult;

namespace fs = std::filesystem;
using generate::Ending;
using generate::GameGenerator;
using generate::GeneratorOptions;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("virrey-generate-test-" + std::to_string(getpid()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each game's tags, in order (a game begins with its Event tag).
std::vector<std::map<std::string, std::string>> tags_of_games(const std::string& pgn) {
  std::vector<std::map<std::string, std::string>> games;
  std::istringstream in(pgn);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("[Event ")) games.emplace_back();
    if (!games.empty() && line.starts_with("[") && line.find(" \"") != std::string::npos)
      games.back()[line.substr(1, line.find(' ') - 1)] =
          line.substr(line.find('"') + 1, line.rfind('"') - line.find('"') - 1);
  }
  return games;
}

generate::SwissOptions swiss_options(int players, int rounds, std::uint64_t seed) {
  generate::SwissOptions o;
  o.players = players;
  o.rounds = rounds;
  o.seed = seed;
  return o;
}

// --- the command ------------------------------------------------------------

TEST(GenerateCommand, SameSeedGivesSameBytes) {
  for (const char* variant : {"virrey", "standard", "modern"}) {
    SCOPED_TRACE(variant);
    const std::string args = std::string("generate --variant ") + variant + " --games 60 --seed 11";
    const RunResult a = run_virrey_words(args);
    const RunResult b = run_virrey_words(args);
    const RunResult threaded = run_virrey_words(args + " --threads 3");
    ASSERT_EQ(a.exit_code, 0);
    ASSERT_EQ(b.exit_code, 0);
    ASSERT_EQ(threaded.exit_code, 0);
    EXPECT_FALSE(a.out.empty());
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.out, threaded.out);

    const RunResult other =
        run_virrey_words(std::string("generate --variant ") + variant + " --games 60 --seed 12");
    ASSERT_EQ(other.exit_code, 0);
    EXPECT_NE(a.out, other.out);

    // A collection made in two parts is the same collection.
    const RunResult head =
        run_virrey_words(std::string("generate --variant ") + variant + " --games 25 --seed 11");
    const RunResult tail =
        run_virrey_words(std::string("generate --variant ") + variant + " --games 35 --first 25 --seed 11");
    EXPECT_EQ(head.out + tail.out, a.out);
  }
}

TEST(GenerateCommand, WritesToAFile) {
  TempDir dir;
  const std::string path = dir.file("games.pgn");
  const RunResult to_file = run_virrey_words("generate --games 20 --seed 3 --output '" + path + "'");
  ASSERT_EQ(to_file.exit_code, 0);
  EXPECT_TRUE(to_file.out.empty());
  EXPECT_EQ(read_file(path), run_virrey_words("generate --games 20 --seed 3").out);
}

// sample-data/ holds generated collections; they stay what the generator makes.
TEST(GenerateCommand, SampleDataIsTheGeneratorsOutput) {
  for (const char* variant : {"virrey", "standard"}) {
    SCOPED_TRACE(variant);
    const std::string path = std::string(VIRREY_SOURCE_DIR) + "/sample-data/" + variant + "-games.pgn";
    const RunResult r =
        run_virrey_words(std::string("generate --variant ") + variant + " --games 180 --seed 2015");
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_TRUE(read_file(path) == r.out) << path << " differs: regenerate it (sample-data/README.md)";
  }
  const std::string modern = std::string(VIRREY_SOURCE_DIR) + "/sample-data/modern-club.pgn";
  const RunResult r = run_virrey_words("generate --variant modern --games 45 --seed 1968");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_TRUE(read_file(modern) == r.out) << modern << " differs: regenerate it (sample-data/README.md)";
  const std::string swiss = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-swiss.pgn";
  const RunResult s =
      run_virrey_words("generate --system swiss --players 21 --rounds 7 --variant virrey --seed 2015");
  ASSERT_EQ(s.exit_code, 0);
  EXPECT_TRUE(read_file(swiss) == s.out) << swiss << " differs: regenerate it (sample-data/README.md)";
}

// A round robin follows FIDE's Berger table for ten players (Handbook C.05,
// Annex 1; the table below as published, White first): players are given
// their draw numbers by round 1, then every later game must be the table's.
TEST(GenerateCommand, RoundRobinsFollowTheBergerTable) {
  const std::array<const char*, 9> berger = {
      "1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
      "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
      "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"};
  for (const char* variant : {"virrey", "modern"}) {
    SCOPED_TRACE(variant);
    const RunResult r = run_virrey_words(std::string("generate -q --games 90 --seed 5 --variant ") + variant);
    ASSERT_EQ(r.exit_code, 0);
    std::istringstream in(r.out);
    std::string line, round, white, black;
    std::vector<std::array<std::string, 3>> games;  // round, White, Black
    const auto value = [&] { return line.substr(line.find('"') + 1, line.rfind('"') - line.find('"') - 1); };
    while (std::getline(in, line)) {
      if (line.starts_with("[Round ")) round = value();
      if (line.starts_with("[White ")) white = value();
      if (line.starts_with("[Black ")) black = value();
      if (line.starts_with("[Result ")) games.push_back({round, white, black});
    }
    ASSERT_EQ(games.size(), 90u);
    for (std::size_t t = 0; t < 2; ++t) {
      std::map<std::string, int> number;  // the players' draw numbers
      for (std::size_t g = 0; g < 5; ++g) {
        number[games[45 * t + g][1]] = int(g) + 1;
        number[games[45 * t + g][2]] = 10 - int(g);
      }
      ASSERT_EQ(number.size(), 10u);
      for (std::size_t g = 0; g < 45; ++g) {
        const auto& [round_tag, w, b] = games[45 * t + g];
        std::istringstream table(berger[g / 5]);
        std::string pair;
        for (std::size_t board = 0; board <= g % 5; ++board) table >> pair;
        EXPECT_EQ(round_tag, std::to_string(g / 5 + 1) + "." + std::to_string(g % 5 + 1));
        EXPECT_EQ(std::to_string(number[w]) + "-" + std::to_string(number[b]), pair) << "game " << g + 1;
      }
    }
  }
}

// No two players of a generated Swiss meet twice, and nobody has two byes
// (FIDE C.04.1 a and c), for rounds up to half the players.
TEST(GenerateCommand, SwissPairsNobodyTwice) {
  for (int players : {6, 9, 14, 21, 32})
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const generate::SwissOptions o = swiss_options(players, players / 2, seed);
      std::set<std::pair<std::string, std::string>> met;
      std::set<std::string> byes;
      generate::swiss_tournament(o, [&](game::GameRecord& r) {
        const std::string white(r.tag("White")), black(r.tag("Black"));
        SCOPED_TRACE(std::to_string(players) + " players, seed " + std::to_string(seed) + ", round " +
                     std::string(r.tag("Round")));
        if (black == "BYE")
          EXPECT_TRUE(byes.insert(white).second) << white << " has a second bye";
        else
          EXPECT_TRUE(met.insert(std::minmax(white, black)).second)
              << white << " meets " << black << " again";
      });
      EXPECT_EQ(met.size(), std::size_t(players / 2 * o.rounds));
    }
}

// The bye of a generated Swiss goes to a player who has had neither a bye
// nor a win by forfeit (FIDE C.04.1 d), while there is one.
TEST(GenerateCommand, SwissByeNeverFollowsAByeOrAForfeitWin) {
  std::size_t forfeit_wins = 0;
  for (int players : {7, 9, 15, 21})
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const generate::SwissOptions o = swiss_options(players, players / 2, seed);
      std::set<std::string> ruled_out;  // by an earlier round's bye or forfeit win
      std::set<std::string> this_round;
      std::string round = "1";
      generate::swiss_tournament(o, [&](game::GameRecord& r) {
        const std::string at(r.tag("Round").substr(0, r.tag("Round").find('.')));
        if (at != round) {
          ruled_out.merge(this_round);
          this_round.clear();
          round = at;
        }
        const std::string white(r.tag("White")), black(r.tag("Black"));
        if (black == "BYE") {
          EXPECT_FALSE(ruled_out.count(white))
              << players << " players, seed " << seed << ", round " << round << ": a bye to " << white;
          this_round.insert(white);
        } else if (r.tag("Termination") == "forfeit") {
          this_round.insert(r.result == GameResult::WhiteWins ? white : black);
          ++forfeit_wins;
        }
      });
    }
  EXPECT_GT(forfeit_wins, 10u);  // the rule was put to the test
}

// Two players who want the same colour as much (the same colour difference
// and the same last colour, neither due a colour) get colours by FIDE
// C.04.3 E.3 and E.4, recomputed here from the games' tags: alternate from
// the last game (of those played) in which one had White and the other
// Black, else the higher ranked (points, then rating, before the round)
// gets the colour he wants.
TEST(GenerateCommand, SwissGivesEqualColourPreferencesByFideRules) {
  std::size_t checked = 0;
  for (int players : {9, 14, 21, 32})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const generate::SwissOptions o = swiss_options(players, std::min(players / 2, 9), seed);
      struct Player {
        int half_points = 0, elo = 0;
        std::string played;  // "W" and "B", games played in order
      };
      std::map<std::string, Player> before, now;  // as the round began; as it goes
      std::string round = "1";
      generate::swiss_tournament(o, [&](game::GameRecord& r) {
        const std::string at(r.tag("Round").substr(0, r.tag("Round").find('.')));
        if (at != round) {
          before = now;
          round = at;
        }
        const std::string white(r.tag("White")), black(r.tag("Black"));
        now[white].elo = std::stoi(std::string(r.tag("WhiteElo")));
        if (black == "BYE") {
          now[white].half_points += 2;
          return;
        }
        now[black].elo = std::stoi(std::string(r.tag("BlackElo")));
        const Player& w = before[white];
        const Player& b = before[black];
        const auto balance = [](const std::string& c) {
          return int(std::count(c.begin(), c.end(), 'W')) - int(std::count(c.begin(), c.end(), 'B'));
        };
        const auto due = [&](const std::string& c) {
          return std::abs(balance(c)) >= 2 || (c.size() >= 2 && c[c.size() - 1] == c[c.size() - 2]);
        };
        if (!w.played.empty() && !b.played.empty() && balance(w.played) == balance(b.played) &&
            w.played.back() == b.played.back() && !due(w.played) && !due(b.played)) {
          ++checked;
          char white_had = 0;  // White's colour the last time they differed
          for (auto x = w.played.rbegin(), y = b.played.rbegin();
               x != w.played.rend() && y != b.played.rend(); ++x, ++y)
            if (*x != *y) {
              white_had = *x;
              break;
            }
          const bool white_ranked_higher =
              w.half_points != b.half_points ? w.half_points > b.half_points : w.elo > b.elo;
          SCOPED_TRACE(fmt::format("{} players, seed {}, round {}: {} ({}) - {} ({})", players, seed, round,
                                   white, w.played, black, b.played));
          // E.4: the higher ranked's wish (both want the same colour): the
          // colour that evens his colour difference, else the other colour
          // than his last (C.04.3 A.6).
          const bool both_want_white =
              balance(w.played) != 0 ? balance(w.played) < 0 : w.played.back() == 'B';
          if (white_had)
            EXPECT_EQ(white_had, 'B');  // E.3
          else
            EXPECT_EQ(white_ranked_higher, both_want_white);
        }
        const int wh = r.result == GameResult::WhiteWins ? 2 : r.result == GameResult::Draw ? 1 : 0;
        now[white].half_points += wh;
        now[black].half_points += 2 - wh;
        if (r.tag("Termination") != "forfeit") {
          now[white].played += 'W';
          now[black].played += 'B';
        }
      });
    }
  EXPECT_GT(checked, 100u);  // the case was met
}

// A Swiss of about as many rounds as players runs out of players who have
// had no bye (nor won by forfeit): a bye then goes again (to one of the
// fewest byes whose absence leaves a pairing without repeats), and a
// warning names it, in those rounds alone. One round a day, the
// dates going on into the next month (checked by the calendar of
// std::chrono, not the generator's).
TEST(GenerateCommand, SwissOfAsManyRoundsAsPlayersGivesAByeAgainOnlyWhenItMustAndSaysSo) {
  std::size_t second_byes = 0;
  for (const auto& [players, rounds, seed] :
       std::vector<std::array<int, 3>>{{11, 10, 16}, {25, 23, 1}, {21, 20, 1}, {13, 12, 35}, {33, 32, 1}}) {
    SCOPED_TRACE(fmt::format("{} players, {} rounds, seed {}", players, rounds, seed));
    const RunResult r = run_virrey_words(
        fmt::format("generate --system swiss --players {} --rounds {} --seed {}", players, rounds, seed));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::map<std::string, std::string>> games = tags_of_games(r.out);
    ASSERT_EQ(games.size(), std::size_t(rounds) * std::size_t((players + 1) / 2));
    std::set<std::string> everyone;
    for (auto& g : games) {
      EXPECT_EQ(g["EventType"], "swiss") << g["Round"];
      for (const char* side : {"White", "Black"})
        if (g[side] != "BYE") everyone.insert(g[side]);
    }
    std::set<std::string> ruled_out;  // a bye or a forfeit win in an earlier round
    std::size_t warned = 0;           // second byes of this tournament
    const auto first = games.front()["Date"];
    const std::chrono::sys_days start =
        std::chrono::year_month_day{std::chrono::year{std::stoi(first.substr(0, 4))},
                                    std::chrono::month{unsigned(std::stoi(first.substr(5, 2)))},
                                    std::chrono::day{unsigned(std::stoi(first.substr(8, 2)))}};
    for (int round = 1; round <= rounds; ++round) {
      const std::chrono::year_month_day day{start + std::chrono::days{round - 1}};
      const std::string date =
          fmt::format("{:04}.{:02}.{:02}", int(day.year()), unsigned(day.month()), unsigned(day.day()));
      std::set<std::string> this_round;
      for (auto& g : games) {
        if (g["Round"].substr(0, g["Round"].find('.')) != std::to_string(round)) continue;
        EXPECT_EQ(g["Date"], date) << "round " << round;
        if (g["Black"] == "BYE") {
          const std::string& who = g["White"];
          if (ruled_out.count(who)) {
            ++second_byes;
            EXPECT_EQ(ruled_out.size(), everyone.size()) << "round " << round << ": " << who << " again";
            EXPECT_NE(r.err.find(fmt::format("swiss: round {}: every player has had a bye or won by forfeit; "
                                             "the bye goes to {}, who has had ",
                                             round, who)),
                      std::string::npos)
                << r.err;
            ++warned;
          }
          this_round.insert(who);
        } else if (g["Termination"] == "forfeit") {
          this_round.insert(g["Result"] == "1-0" ? g["White"] : g["Black"]);
        }
      }
      ruled_out.insert(this_round.begin(), this_round.end());
    }
    // Warned of those rounds alone.
    std::size_t warnings = 0;
    for (std::size_t at = 0; (at = r.err.find("every player has had a bye", at)) != std::string::npos; ++at)
      ++warnings;
    EXPECT_EQ(warnings, warned);
  }
  EXPECT_GT(second_byes, 3u);  // the case was met
  // Eight players in seven rounds pair as a round robin would: the EventType
  // tag has `event` read the tournament as the Swiss it is.
  TempDir dir;
  ASSERT_EQ(
      run_virrey_words("generate --system swiss --players 8 --rounds 7 --seed 1 -o " + dir.file("s.pgn"))
          .exit_code,
      0);
  const RunResult report = run_virrey_words("event " + dir.file("s.pgn"));
  EXPECT_NE(report.out.find("Virrey chess · Swiss · 7 rounds · 8 players · 28 games"), std::string::npos)
      << report.out;
}

// Nobody in a generated Swiss has a colour difference above 2 or the same
// colour three times in a row (FIDE C.04.1 f and g), counted from the games
// played (a forfeit is not), by their White and Black tags round by round.
TEST(GenerateCommand, SwissKeepsTheColourRules) {
  for (int players : {6, 9, 14, 21, 32, 40})
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const generate::SwissOptions o = swiss_options(players, std::min(players / 2, 11), seed);
      std::map<std::string, std::string> colours;  // by player: "W" and "B" in round order
      generate::swiss_tournament(o, [&](game::GameRecord& r) {
        if (r.tag("Black") == "BYE" || r.tag("Termination") == "forfeit") return;  // not played
        colours[std::string(r.tag("White"))] += 'W';
        colours[std::string(r.tag("Black"))] += 'B';
      });
      for (const auto& [player, played] : colours) {
        SCOPED_TRACE(std::to_string(players) + " players, seed " + std::to_string(seed) + ", " + player +
                     " " + played);
        EXPECT_EQ(played.find("WWW"), std::string::npos);
        EXPECT_EQ(played.find("BBB"), std::string::npos);
        int difference = 0;
        for (char c : played) {
          difference += c == 'W' ? 1 : -1;
          EXPECT_LE(std::abs(difference), 2);
        }
      }
    }
}

// Where a long Swiss leaves a round no pairing keeps the colour rules in,
// the colours that break them are told on stderr.
TEST(GenerateCommand, SwissTellsWhereColoursBreakTheRules) {
  std::size_t breaches = 0;
  for (const char* sizes : {"--players 7 --rounds 6 --seed 5", "--players 11 --rounds 10 --seed 2",
                            "--players 12 --rounds 11 --seed 4", "--players 13 --rounds 12 --seed 3",
                            "--players 9 --rounds 8 --seed 25"}) {
    SCOPED_TRACE(sizes);
    const RunResult r = run_virrey_words(std::string("generate --system swiss ") + sizes);
    ASSERT_EQ(r.exit_code, 0);
    // By player, the colours of the games played (forfeits are not), and
    // the first round whose colour breaks a rule.
    std::map<std::string, std::string> colours;
    std::map<std::string, int> breach;
    for (auto& tags : tags_of_games(r.out)) {
      if (tags["Black"] == "BYE" || tags["Termination"] == "forfeit") continue;
      const int round = std::stoi(tags["Round"]);
      for (const auto& [player, colour] : {std::pair{tags["White"], 'W'}, std::pair{tags["Black"], 'B'}}) {
        std::string& played = colours[player];
        played += colour;
        const int difference = int(std::count(played.begin(), played.end(), 'W')) -
                               int(std::count(played.begin(), played.end(), 'B'));
        const bool thrice = played.size() >= 3 && played.substr(played.size() - 3) == std::string(3, colour);
        if ((std::abs(difference) > 2 || thrice) && !breach.count(player)) breach[player] = round;
      }
    }
    // Each breach's round has a warning that says colours may break.
    for (const auto& [player, round] : breach) {
      ++breaches;
      const std::string warned = "swiss: round " + std::to_string(round) + ": ";
      std::size_t at = r.err.find(warned);
      EXPECT_NE(at, std::string::npos) << player << " in round " << round << "\n" << r.err;
      if (at != std::string::npos) {
        EXPECT_NE(r.err.substr(at, r.err.find('\n', at) - at).find("colour"), std::string::npos) << r.err;
      }
    }
  }
  EXPECT_GT(breaches, 0u);  // (so that the warning was put to the test)
}

TEST(GenerateCommand, EveryGamePassesValidate) {
  TempDir dir;
  for (const char* variant : {"virrey", "standard", "modern"}) {
    SCOPED_TRACE(variant);
    const std::string path = dir.file(std::string(variant) + ".pgn");
    ASSERT_EQ(run_virrey_words(std::string("generate --variant ") + variant +
                               " --games 300 --seed 2024 -o '" + path + "'")
                  .exit_code,
              0);
    // --strict: warnings (check marks, tags, duplicates) count as errors too.
    const RunResult v = run_virrey_words("validate --strict '" + path + "'");
    EXPECT_EQ(v.exit_code, 0) << v.out;
    EXPECT_NE(v.out.find("300 games: 300 valid, 0 with errors, 0 with warnings"), std::string::npos) << v.out;
  }
}

TEST(GenerateCommand, UsageErrors) {
  EXPECT_EQ(run_virrey_words("generate --variant crazyhouse --games 1").exit_code, 2);
  EXPECT_EQ(run_virrey_words("generate --games 1 --threads 0").exit_code, 2);
  EXPECT_EQ(run_virrey_words("generate --games many").exit_code, 2);
  EXPECT_EQ(run_virrey_words("generate --games 1 --output /nonexistent-dir/x.pgn").exit_code, 3);
  // Options of the other system are refused, not ignored.
  const auto swiss_games = run_virrey_words("generate --system swiss --players 4 --rounds 3 --games 10");
  EXPECT_EQ(swiss_games.exit_code, 2);
  EXPECT_NE(swiss_games.err.find("--games and --first do not apply to --system swiss"), std::string::npos)
      << swiss_games.err;
  EXPECT_TRUE(swiss_games.out.empty());
  const auto round_robin_players = run_virrey_words("generate --games 2 --players 8");
  EXPECT_EQ(round_robin_players.exit_code, 2);
  EXPECT_NE(round_robin_players.err.find("--players and --rounds apply to --system swiss"),
            std::string::npos);
  EXPECT_EQ(run_virrey_words("generate --system swiss --players 4 --rounds 3").exit_code, 0);
  // Engine self-play plays --games games one after another: the generator's
  // systems and threads are refused with it, its own options without it
  // (refused before any engine starts: the engine named here is none).
  const auto swiss_engine =
      run_virrey_words("generate --engine /nonexistent/engine --system swiss --players 4 --rounds 1");
  EXPECT_EQ(swiss_engine.exit_code, 2);
  EXPECT_NE(swiss_engine.err.find("--system, --players and --rounds do not apply with --engine"),
            std::string::npos)
      << swiss_engine.err;
  EXPECT_EQ(run_virrey_words("generate --engine /nonexistent/engine --threads 2").exit_code, 2);
  const auto swiss_stats =
      run_virrey_words("generate --system swiss --players 11 --rounds 3 --stats --threads 2");
  EXPECT_EQ(swiss_stats.exit_code, 2);
  EXPECT_NE(swiss_stats.err.find("--threads and --stats do not apply to --system swiss"), std::string::npos)
      << swiss_stats.err;
  const auto nodes = run_virrey_words("generate --games 1 --nodes 100");
  EXPECT_EQ(nodes.exit_code, 2);
  EXPECT_NE(nodes.err.find("--nodes applies only with --engine"), std::string::npos) << nodes.err;
  EXPECT_TRUE(nodes.out.empty());
}

// --- the generator ------------------------------------------------------------

GeneratorOptions options_for(Variant v, std::uint64_t seed) {
  GeneratorOptions o;
  o.variant = v;
  o.seed = seed;
  return o;
}

TEST(GameGenerator, AGameDependsOnlyOnSeedAndIndex) {
  GameGenerator forward(options_for(Variant::Virrey, 5));
  std::vector<std::string> texts;
  for (std::uint64_t i = 0; i < 12; ++i) texts.push_back(game::write_pgn(forward.game(i).record));
  GameGenerator backward(options_for(Variant::Virrey, 5));
  for (std::uint64_t i = 12; i-- > 0;)
    EXPECT_EQ(game::write_pgn(backward.game(i).record), texts[i]) << "game " << i;
}

// Replays every game with the rules library: each move legal and written in
// canonical SAN, plies counted right, and the result borne out by the final
// position and the recorded ending. G is the variant's board geometry.
template <class G>
void check_games(Variant variant, std::uint64_t seed, int games) {
  GameGenerator gen(options_for(variant, seed));
  const GeneratorOptions& o = gen.options();
  std::array<int, generate::kEndingCount> endings{};
  for (int i = 0; i < games; ++i) {
    SCOPED_TRACE(::testing::Message() << info(variant).name << " game " << i);
    const generate::GeneratedGame g = gen.game(std::uint64_t(i));
    const game::GameRecord& rec = g.record;
    endings[std::size_t(g.ending)]++;
    ASSERT_EQ(rec.variant, variant);
    ASSERT_TRUE(rec.start_fen.empty());
    ASSERT_EQ(rec.movetext.size(), rec.main_line.size());

    FenProblems errors;
    auto pos = *position_from_fen<G>(info(variant).start_fen, variant, errors);
    if (rec.bishop_swap()) pos.enable_bishop_swap();
    std::vector<std::uint64_t> history{pos.hash()};
    for (std::size_t k = 0; k < rec.main_line.size(); ++k) {
      const Move m = rec.main_line[k];
      const MoveList legal = legal_moves(pos);
      ASSERT_TRUE(legal.contains(m)) << "ply " << k + 1;
      ASSERT_EQ(rec.movetext[k].kind, game::ItemKind::Move);
      ASSERT_EQ(rec.movetext[k].ply, k + 1);
      ASSERT_EQ(rec.movetext[k].text, write_san(pos, m, legal));
      pos.play(m);
      history.push_back(pos.hash());
      // The game stops at the first position the rules end or allow a claim in.
      if (k + 1 < rec.main_line.size()) {
        ASSERT_FALSE(insufficient_material(pos)) << "ply " << k + 1;
        ASSERT_FALSE(fifty_move_rule(pos)) << "ply " << k + 1;
        ASSERT_LT(repetitions(history, pos.halfmove_clock()), 3) << "ply " << k + 1;
      }
    }
    const int plies = int(rec.main_line.size());
    EXPECT_LE(plies, o.max_plies);
    EXPECT_EQ(rec.tag("PlyCount"), std::to_string(plies));
    EXPECT_EQ(rec.tag("Result"), result_text(rec.result));

    const BoardState state = board_state(pos);
    const GameResult mated_side_loses =
        pos.side_to_move() == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
    // Mate and stalemate on the board are always the recorded ending.
    if (state == BoardState::Checkmate) {
      EXPECT_EQ(g.ending, Ending::Checkmate);
    }
    if (state == BoardState::Stalemate) {
      EXPECT_EQ(g.ending, Ending::Stalemate);
    }
    switch (g.ending) {
      case Ending::Checkmate:
        EXPECT_EQ(state, BoardState::Checkmate);
        EXPECT_EQ(rec.result, mated_side_loses);
        EXPECT_EQ(rec.movetext.back().text.back(), '#');
        break;
      case Ending::Stalemate:
        EXPECT_EQ(state, BoardState::Stalemate);
        EXPECT_EQ(rec.result, GameResult::Draw);
        break;
      case Ending::InsufficientMaterial:
        EXPECT_TRUE(insufficient_material(pos));
        EXPECT_EQ(rec.result, GameResult::Draw);
        break;
      case Ending::FiftyMoveRule:
        EXPECT_TRUE(fifty_move_rule(pos));
        EXPECT_EQ(rec.result, GameResult::Draw);
        break;
      case Ending::Repetition:
        EXPECT_GE(repetitions(history, pos.halfmove_clock()), 3);
        EXPECT_EQ(rec.result, GameResult::Draw);
        break;
      case Ending::Resignation:
        EXPECT_EQ(state, BoardState::Ongoing);
        EXPECT_GE(plies, o.min_plies);
        EXPECT_TRUE(rec.result == GameResult::WhiteWins || rec.result == GameResult::BlackWins);
        break;
      case Ending::DrawAgreed:
        EXPECT_EQ(state, BoardState::Ongoing);
        EXPECT_GE(plies, o.min_plies);
        EXPECT_EQ(rec.result, GameResult::Draw);
        break;
    }
    // A dead position is always recorded as such.
    if (g.ending != Ending::InsufficientMaterial) {
      EXPECT_FALSE(insufficient_material(pos));
    }
  }
  // Decisive games, draws and mates all occur.
  EXPECT_GT(endings[std::size_t(Ending::Checkmate)], games / 50);
  EXPECT_GT(endings[std::size_t(Ending::Resignation)], games / 10);
  EXPECT_GT(endings[std::size_t(Ending::DrawAgreed)], games / 50);
}

TEST(GameGenerator, VirreyGamesAreLegalAndResultsAgreeWithTheBoard) {
  check_games<Board8>(Variant::Virrey, 77, 600);
}

TEST(GameGenerator, StandardGamesAreLegalAndResultsAgreeWithTheBoard) {
  check_games<Board8>(Variant::Standard, 77, 600);
}

TEST(GameGenerator, ModernGamesAreLegalAndResultsAgreeWithTheBoard) {
  check_games<Board9>(Variant::Modern, 77, 400);
}

TEST(GameGenerator, TagsAreComplete) {
  for (Variant variant : {Variant::Virrey, Variant::Standard, Variant::Modern}) {
    GameGenerator gen(options_for(variant, 9));
    int bishop_swap = 0;
    std::set<std::string> events, players;
    for (std::uint64_t i = 0; i < 200; ++i) {
      SCOPED_TRACE(::testing::Message() << info(variant).name << " game " << i);
      const game::GameRecord rec = gen.game(i).record;
      for (const char* name :
           {"Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo"}) {
        EXPECT_FALSE(rec.tag(name).empty()) << name;
        EXPECT_EQ(rec.tag(name).find('?'), std::string_view::npos) << name;
      }
      EXPECT_NE(rec.tag("White"), rec.tag("Black"));
      const std::string date(rec.tag("Date"));
      ASSERT_EQ(date.size(), 10u);
      EXPECT_EQ(date[4], '.');
      EXPECT_EQ(date[7], '.');
      const int year = std::stoi(date.substr(0, 4));
      EXPECT_GE(year, variant == Variant::Virrey ? 2015 : 1970);
      for (const char* elo : {"WhiteElo", "BlackElo"}) {
        const int rating = std::stoi(std::string(rec.tag(elo)));
        EXPECT_GE(rating, 1500);
        EXPECT_LE(rating, 2850);
      }
      if (variant == Variant::Standard) {
        EXPECT_TRUE(rec.tag("Variant").empty());
      } else {
        EXPECT_EQ(rec.tag("Variant"), info(variant).name);
      }
      // Modern chess: some games allow the bishop swap, and say so.
      if (rec.has_tag("BishopSwap")) {
        EXPECT_EQ(variant, Variant::Modern);
        EXPECT_EQ(rec.tag("BishopSwap"), "Yes");
        ++bishop_swap;
      }
      events.insert(std::string(rec.tag("Event")));
      players.insert(std::string(rec.tag("White")));
    }
    // 45-game round robins of ten players.
    EXPECT_EQ(events.size(), 5u);
    EXPECT_GE(players.size(), 40u);
    if (variant == Variant::Modern) {
      EXPECT_GT(bishop_swap, 60);
      EXPECT_LT(bishop_swap, 140);
    }
  }
}

TEST(GameGenerator, VirreyPromotionsOnEveryFileForBothColours) {
  GameGenerator gen(options_for(Variant::Virrey, 1));
  std::array<std::array<int, 8>, 2> count{};  // [colour][file]
  int viceroy_games = 0;
  for (std::uint64_t i = 0; i < 2000; ++i) {
    const auto g = gen.game(i);
    bool viceroy = false;
    for (std::size_t k = 0; k < g.record.main_line.size(); ++k) {
      const Move m = g.record.main_line[k];
      if (m.kind() != MoveKind::Promotion) continue;
      const int file = file_of<Board8>(m.to());
      constexpr PieceType kByFile[8] = {PieceType::Rook,   PieceType::Knight,  PieceType::Bishop,
                                        PieceType::Queen,  PieceType::Viceroy, PieceType::Bishop,
                                        PieceType::Knight, PieceType::Rook};
      EXPECT_EQ(m.promotion(), kByFile[file]);
      count[k % 2][std::size_t(file)]++;
      viceroy |= m.promotion() == PieceType::Viceroy;
    }
    viceroy_games += viceroy;
  }
  for (int c = 0; c < 2; ++c)
    for (int f = 0; f < 8; ++f)
      EXPECT_GE(count[std::size_t(c)][std::size_t(f)], 20)
          << (c == 0 ? "White" : "Black") << " on the " << char('a' + f) << "-file";
  EXPECT_GE(viceroy_games, 100);  // about 9% of games have one
}

TEST(GameGenerator, ModernPromotionsMakeMinistersOnEveryFile) {
  GameGenerator gen(options_for(Variant::Modern, 1));
  std::array<int, kPieceTypeCount> pieces{};
  std::array<int, 9> files{};
  int swaps = 0;
  for (std::uint64_t i = 0; i < 600; ++i) {
    const auto rec = gen.game(i).record;
    for (Move m : rec.main_line) {
      swaps += m.kind() == MoveKind::BishopSwap;
      if (m.kind() != MoveKind::Promotion) continue;
      pieces[index(m.promotion())]++;
      files[std::size_t(file_of<Board9>(m.to()))]++;
    }
  }
  EXPECT_GT(pieces[index(PieceType::Queen)], 50);
  EXPECT_GT(pieces[index(PieceType::Minister)], 20);
  EXPECT_EQ(pieces[index(PieceType::Viceroy)], 0);
  for (int f = 0; f < 9; ++f) EXPECT_GT(files[std::size_t(f)], 0) << char('a' + f) << "-file";
  EXPECT_GT(swaps, 0);
}

TEST(GameGenerator, StandardPromotionsIncludeUnderpromotions) {
  GameGenerator gen(options_for(Variant::Standard, 1));
  std::array<int, kPieceTypeCount> pieces{};
  for (std::uint64_t i = 0; i < 1000; ++i)
    for (Move m : gen.game(i).record.main_line)
      if (m.kind() == MoveKind::Promotion) pieces[index(m.promotion())]++;
  EXPECT_GT(pieces[index(PieceType::Queen)], 200);
  EXPECT_GT(pieces[index(PieceType::Knight)], 0);
  EXPECT_GT(pieces[index(PieceType::Rook)], 0);
  EXPECT_GT(pieces[index(PieceType::Bishop)], 0);
  EXPECT_EQ(pieces[index(PieceType::Viceroy)], 0);
}

// The generator's world has a few dozen event names and cities, so among
// hundreds of tournaments two share a name, site and year: each carries its
// first round's EventDate, which keeps them apart for validate and event.
TEST(GameGenerator, TournamentsOfOneNameHaveTheirOwnEventDate) {
  for (Variant v : {Variant::Standard, Variant::Virrey}) {
    GameGenerator gen(options_for(v, 4242));
    const int tournaments = 400;
    std::map<std::pair<std::string, std::string>, int> named;  // Event and Site
    std::set<std::string> dated;                               // with EventDate
    for (int t = 0; t < tournaments; ++t) {
      const auto first = gen.game(std::uint64_t(t) * generate::kGamesPerTournament).record;
      const auto last = gen.game(std::uint64_t(t + 1) * generate::kGamesPerTournament - 1).record;
      ASSERT_EQ(first.tag("EventDate"), first.tag("Date"));  // round 1
      ASSERT_EQ(last.tag("EventDate"), first.tag("EventDate"));
      ++named[std::pair(std::string(first.tag("Event")), std::string(first.tag("Site")))];
      dated.insert(fmt::format("{}|{}|{}", first.tag("Event"), first.tag("Site"), first.tag("EventDate")));
    }
    EXPECT_LT(named.size(), std::size_t(tournaments)) << "no name repeats: the test shows nothing";
    EXPECT_EQ(dated.size(), std::size_t(tournaments));
  }
}

// Golden values: the generator is frozen like a file format, because sample
// data and benchmark collections are made with it. A deliberate change of
// the move choice updates these numbers (and regenerates sample-data/).
std::uint64_t fingerprint(Variant variant, std::uint64_t seed, int games) {
  GameGenerator gen(options_for(variant, seed));
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over moves, result and tags
  auto add = [&h](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((x >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
  };
  for (int i = 0; i < games; ++i) {
    const auto rec = gen.game(std::uint64_t(i)).record;
    for (Move m : rec.main_line) add(m.raw());
    add(std::uint64_t(rec.result));
    for (const auto& t : rec.tags)
      for (char c : t.name + '=' + t.value) add(std::uint8_t(c));
  }
  return h;
}

// A frozen record of README's promise that a seed gives the same games in
// every version (a change here breaks it); what makes the games right is
// checked above, against the rules and peers.
TEST(GameGenerator, GoldenFingerprints) {
  EXPECT_EQ(fingerprint(Variant::Virrey, 1, 20), 5322655643780162095ULL);
  EXPECT_EQ(fingerprint(Variant::Standard, 1, 20), 9845770948588381384ULL);
  EXPECT_EQ(fingerprint(Variant::Modern, 1, 20), 2650800586407228054ULL);
}

}  // namespace
}  // namespace virrey
