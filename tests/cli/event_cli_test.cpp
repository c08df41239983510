// `virrey event` end to end: standings of a hand-worked round robin as CSV,
// the sample Swiss tournament as text, JSON, TRF and HTML (rendered by
// headless chromium), the TRF comparison, a database as the source, and the
// usage errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey::testing {
namespace {

const std::string kSwiss = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-swiss.pgn";

std::string game(const std::string& round, const std::string& white, const std::string& black,
                 const std::string& result, const std::string& moves = "e4 e5") {
  return "[Event \"Club\"]\n[Site \"Lima\"]\n[Date \"2024.01.0" + round.substr(0, 1) + "\"]\n[Round \"" + round +
         "\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result + "\"]\n[Variant \"Virrey\"]\n\n" +
         (moves.empty() ? "" : "1. " + moves + " ") + result + "\n\n";
}

// The games with their Variant tag saying `variant` instead.
std::string with_variant(std::string games, const std::string& variant) {
  const std::string virrey = "[Variant \"Virrey\"]";
  for (std::size_t at; (at = games.find(virrey)) != std::string::npos;)
    games.replace(at, virrey.size(), "[Variant \"" + variant + "\"]");
  return games;
}

// The round robin of the library test: A 2.5, B and C 1.5 (level on every tie-break), D 0.5.
std::string round_robin() {
  return game("1.1", "A", "B", "1-0") + game("1.2", "C", "D", "1-0") + game("2.1", "A", "C", "1-0") +
         game("2.2", "D", "B", "0-1") + game("3.1", "B", "C", "1/2-1/2") + game("3.2", "A", "D", "1/2-1/2");
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST(EventCli, RoundRobinCsvIsHandWorked) {
  TempDir dir;
  write_file(dir.path() + "/rr.pgn", round_robin());
  const RunResult r = run_virrey({"event", dir.path() + "/rr.pgn", "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // SB: A 1.5 + 1.5 + 0.25 = 3.25; B, C 0.5 + 0.75 = 1.25; D 1.25. Koya: A 2, B, C, D 0.5.
  EXPECT_EQ(r.out,
            "event,rank,name,title,federation,rating,games,points,direct_encounter,wins,sonneborn_berger,koya,"
            "performance\n"
            "Club,1,A,,,,3,2.5,,2,3.25,2.0,\n"
            "Club,2,B,,,,3,1.5,0.5,1,1.25,0.5,\n"
            "Club,2,C,,,,3,1.5,0.5,1,1.25,0.5,\n"
            "Club,4,D,,,,3,0.5,,0,1.25,0.5,\n");
  const RunResult text = run_virrey({"event", dir.path() + "/rr.pgn"}, dir.path());
  EXPECT_NE(text.out.find("Virrey chess · round robin · 3 rounds · 4 players · 6 games"), std::string::npos)
      << text.out;
}

// Progressive score, by hand: A 1 + 2 + 2.5 = 5.5; B 0 + 1 + 1.5 = 2.5;
// C 1 + 1 + 1.5 = 3.5; D 0 + 0 + 0.5 = 0.5. B and C stay level on points,
// and PS puts C first.
TEST(EventCli, ProgressiveScoreIsHandWorked) {
  TempDir dir;
  write_file(dir.path() + "/rr.pgn", round_robin());
  const RunResult r =
      run_virrey({"event", dir.path() + "/rr.pgn", "--tiebreaks", "PS", "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "event,rank,name,title,federation,rating,games,points,progressive,performance\n"
            "Club,1,A,,,,3,2.5,5.5,\n"
            "Club,2,C,,,,3,1.5,3.5,\n"
            "Club,3,B,,,,3,1.5,2.5,\n"
            "Club,4,D,,,,3,0.5,0.5,\n");
}

// Games of another variant under the tournament's Event name are a
// tournament of their own, named by its variant; the 1 of a count is singular.
TEST(EventCli, GamesOfTwoVariantsAreTwoTournaments) {
  TempDir dir;
  std::string standard = game("4.1", "A", "B", "0-1");
  standard.replace(standard.find("[Variant \"Virrey\"]\n"), 19, "");
  write_file(dir.path() + "/mixed.pgn", round_robin() + standard);
  const RunResult r = run_virrey({"event", dir.path() + "/mixed.pgn"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Club (Virrey chess)\nVirrey chess · round robin · 3 rounds · 4 players · 6 games"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Club (Standard chess)\nStandard chess · round robin · 1 round · 2 players · 1 game"),
            std::string::npos)
      << r.out;
}

// A game whose Variant tag names no variant is an error of its own (RULES:
// never a silent fall-back to standard chess): it stays in its Event's
// tournament, not split off as one of standard chess; a tournament of such
// games alone is of an unknown variant.
TEST(EventCli, AGameOfAnUnknownVariantStaysInItsTournament) {
  TempDir dir;
  const std::string last = game("3.2", "A", "D", "1/2-1/2");
  std::string games = round_robin();
  games.replace(games.find(last), last.size(), with_variant(last, "Virrey960"));
  write_file(dir.path() + "/one.pgn", games);
  const RunResult r = run_virrey({"event", dir.path() + "/one.pgn"}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("unknown variant \"Virrey960\""), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Club\nVirrey chess · round robin · 3 rounds · 4 players · 6 games"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("Standard chess"), std::string::npos) << r.out;
  write_file(dir.path() + "/unknown.pgn",
             with_variant(game("1.1", "A", "B", "1-0") + game("1.2", "C", "D", "0-1"), "Shatranj"));
  const RunResult u = run_virrey({"event", dir.path() + "/unknown.pgn"}, dir.path());
  EXPECT_NE(u.out.find("Club\nUnknown variant · "), std::string::npos) << u.out;
  const RunResult json = run_virrey({"event", dir.path() + "/unknown.pgn", "--format", "json"}, dir.path());
  EXPECT_NE(json.out.find("\"variant\":\"unknown\""), std::string::npos) << json.out;
}

// validate's tournament checks read the game of an unknown variant with its
// Event's: A's second game of round 2 is found though its Variant tag is
// mistyped (it was checked as a tournament of standard chess of its own).
TEST(EventCli, ValidateChecksAGameOfAnUnknownVariantWithItsTournament) {
  TempDir dir;
  write_file(dir.path() + "/v.pgn", game("1.1", "A", "B", "1-0") + game("1.2", "C", "D", "1-0") +
                                        game("2.1", "A", "C", "1-0") +
                                        with_variant(game("2.2", "A", "D", "0-1"), "Virrey960"));
  const RunResult r = run_virrey({"validate", dir.path() + "/v.pgn"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("game 4: unknown variant \"Virrey960\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning[player-twice-in-round]: game 4: in \"Club\": A plays two games in round 2"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("Standard chess"), std::string::npos) << r.out;
}

// A Swiss of "Open": r1 A-B 1-0, C-D 1-0; r2 A-C 1/2, B-D 1-0. Points A 1.5,
// C 1.5, B 1, D 0. BH: A = B 1 + C 1.5 = 2.5, C = D 0 + A 1.5 = 1.5; BH-C1
// drops the lowest: A 1.5, C 1.5. BPG: A 0, C 1.
std::string small_swiss() {
  std::string s = game("1.1", "A", "B", "1-0") + game("1.2", "C", "D", "1-0") +
                  game("2.1", "A", "C", "1/2-1/2") + game("2.2", "B", "D", "1-0");
  for (std::size_t at = s.find("Club"); at != std::string::npos; at = s.find("Club", at))
    s.replace(at, 4, "Open");
  return s;
}

// Tournaments of other systems in one CSV: the header has every
// tournament's tie-breaks, in the order first met, each row its own.
TEST(EventCli, CsvOfSeveralTournamentsHasEveryTieBreak) {
  TempDir dir;
  const std::string rr = dir.path() + "/rr.pgn", swiss = dir.path() + "/swiss.pgn";
  write_file(rr, round_robin());
  write_file(swiss, small_swiss());
  const RunResult a = run_virrey({"event", rr, swiss, "--format", "csv"}, dir.path());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(
      a.out.substr(0, a.out.find('\n')),
      "event,rank,name,title,federation,rating,games,points,direct_encounter,wins,sonneborn_berger,koya,"
      "buchholz_cut1,buchholz,black_games,performance");
  EXPECT_NE(a.out.find("\nClub,1,A,,,,3,2.5,,2,3.25,2.0,,,,\n"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("\nOpen,1,A,,,,2,1.5,,1,,,1.5,2.5,0,\n"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("\nOpen,2,C,,,,2,1.5,,1,,,1.5,1.5,1,\n"), std::string::npos) << a.out;
  const RunResult b = run_virrey({"event", swiss, rr, "--format", "csv"}, dir.path());
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(
      b.out.substr(0, b.out.find('\n')),
      "event,rank,name,title,federation,rating,games,points,buchholz_cut1,buchholz,direct_encounter,wins,"
      "black_games,sonneborn_berger,koya,performance");
  EXPECT_NE(b.out.find("\nOpen,1,A,,,,2,1.5,1.5,2.5,,1,0,,,\n"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("\nClub,1,A,,,,3,2.5,,,,2,,3.25,2.0,\n"), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("\nClub,4,D,,,,3,0.5,,,,0,,1.25,0.5,\n"), std::string::npos) << b.out;
}

// The tournaments of one report together hold at most kMaxReportCells
// results (players × rounds): three events of 2,900 players in 2,900 rounds
// (a game a round; 8.41 million each, under the bound of one tournament)
// are refused with
// a message, not built until memory runs out; one of them alone is reported.
TEST(EventCli, TournamentsOfOneReportAreBoundedInAll) {
  TempDir dir;
  std::string pgn;
  for (const char* event : {"A", "B", "C"}) {
    const auto one = [&](int round, int white, int black) {
      pgn += fmt::format(
          "[Event \"{}\"]\n[Site \"Lima\"]\n[Date \"2024.01.01\"]\n[Round \"{}\"]\n[White \"P{}\"]\n"
          "[Black \"P{}\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n",
          event, round, white, black);
    };
    for (int round = 1; round <= 2900; ++round) one(round, round, round % 2900 + 1);
  }
  const std::string file = dir.path() + "/many.pgn";
  write_file(file, pgn);
  const RunResult all = run_virrey({"event", file, "--format", "csv"}, dir.path());
  EXPECT_EQ(all.exit_code, 1);
  EXPECT_EQ(all.out.size(), 0u);
  EXPECT_NE(all.err.find("the 3 tournaments read so far make more than 25000000 results"), std::string::npos)
      << all.err;
  const RunResult one = run_virrey({"event", file, "--format", "csv", "--event", "B"}, dir.path());
  EXPECT_EQ(one.exit_code, 0) << one.err.substr(0, 2000);
  EXPECT_EQ(count(one.out, "\nB,"), 2900u);
}

TEST(EventCli, SampleSwissText) {
  TempDir dir;
  const RunResult r = run_virrey({"event", kSwiss}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Virrey chess · Swiss · 7 rounds · 21 players"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Round by round (opponent's number, colour, result)"), std::string::npos);
  EXPECT_EQ(count(r.out, "bye1"), 7u);  // one bye a round
}

TEST(EventCli, SampleSwissJson) {
  TempDir dir;
  const RunResult r = run_virrey({"event", kSwiss, "--format", "json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"tournaments\":[{\"event\":", 0), 0u);
  EXPECT_NE(r.out.find("\"system\":\"swiss\""), std::string::npos);
  EXPECT_NE(r.out.find("\"variant\":\"virrey\""), std::string::npos);
  EXPECT_EQ(count(r.out, "\"rank\":"), 21u);
  EXPECT_EQ(count(r.out, "\"kind\":"), 21u * 7u);  // a result a round for each player
  EXPECT_NE(r.out.find("\"tiebreaks\":{\"buchholz_cut1\":"), std::string::npos);
}

TEST(EventCli, TrfRoundTripAndDisagreements) {
  TempDir dir;
  const std::string trf = dir.path() + "/swiss.trf";
  ASSERT_EQ(run_virrey({"event", kSwiss, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  std::string text = read_file(trf);
  EXPECT_EQ(count(text, "\n001 "), 21u);
  RunResult same = run_virrey({"event", kSwiss, "--trf", trf}, dir.path());
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_NE(same.out.find("0 disagreements"), std::string::npos) << same.out;
  // A TRF of 20 MiB (lines of other record types after the tournament's, as
  // virrey's TRF of a large collection's every tournament is) is read.
  {
    std::string large = text;
    const std::string other = "XXR " + std::string(96, '9') + "\n";
    while (large.size() < (std::size_t(20) << 20)) large += other;
    write_file(dir.path() + "/large.trf", large);
    const RunResult read = run_virrey({"event", kSwiss, "--trf", dir.path() + "/large.trf"}, dir.path());
    EXPECT_EQ(read.exit_code, 0) << read.err.substr(0, 500);
  }
  // A file with no player line is no TRF: one error, exit 2, no findings.
  for (const std::string other : {std::string("hello world\n"),
                                  std::string("\x7f"
                                              "ELF\x02\x01\x01\0\0",
                                              9),
                                  std::string("012 A tournament\n")}) {
    write_file(dir.path() + "/other.trf", other);
    const RunResult r = run_virrey({"event", kSwiss, "--trf", dir.path() + "/other.trf"}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("other.trf is not a tournament report file (FIDE TRF): it has no player line (001)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // The first player's first round: another colour and another result.
  const std::size_t line = text.find("\n001    1");
  ASSERT_NE(line, std::string::npos);
  const std::size_t block = line + 1 + 91;
  std::string cell = text.substr(block, 8);
  cell[5] = cell[5] == 'w' ? 'b' : 'w';
  text.replace(block, 8, cell);
  write_file(trf, text);
  const RunResult differ = run_virrey({"event", kSwiss, "--trf", trf}, dir.path());
  EXPECT_EQ(differ.exit_code, 1);
  EXPECT_NE(differ.out.find("error[trf-colour]: round 1"), std::string::npos) << differ.out;
  EXPECT_NE(differ.out.find("virrey-swiss.pgn:"), std::string::npos) << differ.out;
  // Points the games do not give (columns 81-84) are told where they stand.
  const std::size_t points = text.find("\n001    2") + 1 + 80;
  text.replace(points, 4, "99.5");
  write_file(trf, text);
  const std::string at =
      std::to_string(std::count(text.begin(), text.begin() + std::ptrdiff_t(points), '\n') + 1);
  const RunResult more = run_virrey({"event", kSwiss, "--trf", trf}, dir.path());
  EXPECT_NE(more.out.find("swiss.trf:" + at + ":81: error[trf-points]: "), std::string::npos) << more.out;
  // A block that does not read counts too: the colour and the points above,
  // and the block (trf-syntax); the player's other rounds are still
  // compared, and agree: 3.
  const std::size_t opponent = text.find("\n001    3") + 1 + 91;
  text.replace(opponent, 4, "  x3");
  write_file(trf, text);
  const RunResult syntax = run_virrey({"event", kSwiss, "--trf", trf}, dir.path());
  EXPECT_EQ(count(syntax.out, "error[trf-syntax]"), 1u) << syntax.out;
  EXPECT_NE(syntax.out.find("\n3 disagreements between"), std::string::npos) << syntax.out;
  EXPECT_EQ(syntax.out.find("error[trf-player]"), std::string::npos) << syntax.out;
}

// Games whose Round gives no number count in the standings, each warned
// where it starts (game 3 at line 23, "?"; game 4 at line 34, no Round tag,
// 11 lines a game before it), and the TRF written of them reads back with no
// disagreement.
TEST(EventCli, GamesOfNoKnownRoundAreWarnedAndRoundTrip) {
  TempDir dir;
  std::string no_round = game("1", "B", "D", "1-0");
  no_round.erase(no_round.find("[Round"), std::string("[Round \"1\"]\n").size());
  const std::string pgn = dir.path() + "/r.pgn", trf = dir.path() + "/r.trf";
  write_file(pgn, game("1", "A", "B", "1-0") + game("1", "C", "D", "1-0") + game("?", "A", "C", "1-0") +
                      no_round + game("3", "D", "A", "1/2-1/2") + game("3", "B", "C", "0-1"));
  const RunResult r = run_virrey({"event", pgn, "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("/r.pgn:23:1: warning[round-tag]: game 3: in \"Club\": Round \"?\" names no round"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("/r.pgn:34:1: warning[round-tag]: game 4: in \"Club\": the game has no Round tag"),
            std::string::npos)
      << r.err;
  // SB: A 1 + 2 + 0.25 = 3.25, C 0.5 + 1 = 1.5, B 0.5, D 1.25.
  EXPECT_NE(r.out.find("Club,1,A,,,,3,2.5,,2,3.25,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Club,2,C,,,,3,2.0,,2,1.50,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Club,3,B,,,,3,1.0,,1,0.50,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Club,4,D,,,,3,0.5,,0,1.25,"), std::string::npos) << r.out;
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out;
  EXPECT_NE(back.out.find("0 disagreements"), std::string::npos) << back.out;
}

// A TRF's lines may end in CR LF or, from old Macintosh programs, in CR
// alone: each reads as the same file. A TRF in UTF-16 is named for what it is.
TEST(EventCli, TrfLineEndsAndUtf16) {
  TempDir dir;
  const std::string pgn = dir.path() + "/rr.pgn", trf = dir.path() + "/rr.trf";
  write_file(pgn, round_robin());
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  const std::string lf = read_file(trf);
  ASSERT_NE(lf.find("\n001 "), std::string::npos) << lf;
  std::string crlf, cr, crcrlf, utf16 = "\xff\xfe";
  for (const char c : lf) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    cr += c == '\n' ? '\r' : c;
    crcrlf += c == '\n' ? std::string("\r\r\n") : std::string(1, c);
    utf16 += std::string{c, '\0'};
  }
  for (const auto& [name, text] :
       {std::pair{"crlf.trf", crlf}, std::pair{"cr.trf", cr}, std::pair{"crcrlf.trf", crcrlf}}) {
    write_file(dir.path() + "/" + name, text);
    const RunResult back = run_virrey({"event", pgn, "--trf", dir.path() + "/" + name}, dir.path());
    EXPECT_EQ(back.exit_code, 0) << name << back.err;
    EXPECT_NE(back.out.find("0 disagreements"), std::string::npos) << name << back.out;
  }
  write_file(dir.path() + "/u16.trf", utf16);
  const RunResult wide = run_virrey({"event", pgn, "--trf", dir.path() + "/u16.trf"}, dir.path());
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_NE(wide.err.find("/u16.trf: UTF-16 text (it opens with the byte-order mark FF FE)"),
            std::string::npos)
      << wide.err;
}

// A TRF of several tournaments, as --format trf writes one per event: each
// tournament of the games against its own section (four here), and with
// --event that tournament's section alone; no section that names one of the
// games' tournaments is an error, not a comparison with another's players.
TEST(EventCli, TrfOfSeveralTournaments) {
  TempDir dir;
  const std::string pgn = std::string(VIRREY_SOURCE_DIR) + "/sample-data/standard-games.pgn";
  const std::string trf = dir.path() + "/all.trf";
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  std::string lines = "\n";  // (appended: g++ 12 warns falsely on "\n" + a string)
  lines += read_file(trf);
  ASSERT_EQ(count(lines, "\n012 "), 4u);
  const RunResult all = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(all.exit_code, 0) << all.out;
  EXPECT_EQ(count(all.out, "0 disagreements between"), 4u) << all.out;
  const RunResult one =
      run_virrey({"event", pgn, "--event", "Torneo Magistral Linares 1989", "--trf", trf}, dir.path());
  EXPECT_EQ(one.exit_code, 0) << one.out;
  EXPECT_EQ(count(one.out, "0 disagreements between"), 1u) << one.out;
  EXPECT_NE(one.out.find("Linares"), std::string::npos) << one.out;
  const std::string swiss_trf = dir.path() + "/swiss.trf";
  ASSERT_EQ(run_virrey({"event", kSwiss, "--format", "trf", "--output", swiss_trf}, dir.path()).exit_code, 0);
  write_file(dir.path() + "/two.trf", read_file(swiss_trf) + read_file(swiss_trf));
  EXPECT_EQ(run_virrey({"event", pgn, "--trf", dir.path() + "/two.trf"}, dir.path()).exit_code, 1);
  // A directory is no TRF (exit 3); --output naming the input is refused and keeps it.
  EXPECT_EQ(run_virrey({"event", pgn, "--trf", dir.path()}, dir.path()).exit_code, 3);
  const std::string copy = dir.path() + "/copy.pgn";
  write_file(copy, read_file(pgn));
  EXPECT_EQ(run_virrey({"event", copy, "--format", "trf", "--output", copy}, dir.path()).exit_code, 2);
  EXPECT_EQ(read_file(copy), read_file(pgn));
}

// -q leaves the errors alone on stderr: the games' warnings go (a round that
// does not read, a game given twice), the errors stay.
TEST(EventCli, QuietKeepsTheErrorsAlone) {
  TempDir dir;
  const std::string mistakes = std::string(VIRREY_SOURCE_DIR) + "/sample-data/virrey-tournament-mistakes.pgn";
  const RunResult loud = run_virrey({"event", mistakes}, dir.path());
  ASSERT_EQ(loud.exit_code, 0) << loud.err;
  ASSERT_NE(loud.err.find("warning[round-tag]"), std::string::npos) << loud.err;
  const RunResult quiet = run_virrey({"-q", "event", mistakes}, dir.path());
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, loud.out);
  write_file(dir.path() + "/bad.pgn", round_robin() + round_robin() + game("4.1", "A", "B", "1-0", "e4 e4"));
  const RunResult bad = run_virrey({"-q", "event", dir.path() + "/bad.pgn"}, dir.path());
  EXPECT_EQ(bad.err.find("warning["), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("error[illegal-move]"), std::string::npos) << bad.err;
}

// No input read at all writes no report of "no games" (exit 3, stdout
// empty: a script reading the JSON sees no empty result); an input read
// beside one that is not is reported, exit 3.
TEST(EventCli, NoInputReadWritesNoReport) {
  TempDir dir;
  for (const char* format : {"text", "json", "csv"}) {
    const RunResult r = run_virrey({"event", dir.path() + "/missing.pgn", "--format", format}, dir.path());
    EXPECT_EQ(r.exit_code, 3) << format;
    EXPECT_EQ(r.out, "") << format;
    EXPECT_NE(r.err.find("missing.pgn: error[io-error]"), std::string::npos) << r.err;
  }
  write_file(dir.path() + "/rr.pgn", round_robin());
  const RunResult some =
      run_virrey({"event", dir.path() + "/missing.pgn", dir.path() + "/rr.pgn"}, dir.path());
  EXPECT_EQ(some.exit_code, 3);
  EXPECT_NE(some.out.find("Crosstable"), std::string::npos) << some.out;
}

// A tournament whose players or points do not fit the TRF's columns is
// refused by name (exit 1, nothing written); other formats still take it.
TEST(EventCli, TrfOfTooManyPlayersIsRefused) {
  TempDir dir;
  std::string pgn;
  for (int i = 0; i < 5000; ++i)
    pgn += "[Event \"Big\"]\n[Round \"1\"]\n[White \"P" + std::to_string(2 * i) + "\"]\n[Black \"P" +
           std::to_string(2 * i + 1) + "\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
  write_file(dir.path() + "/big.pgn", pgn);
  const RunResult trf = run_virrey({"event", dir.path() + "/big.pgn", "--format", "trf"}, dir.path());
  EXPECT_EQ(trf.exit_code, 1) << trf.err;
  EXPECT_EQ(trf.out, "");
  EXPECT_NE(trf.err.find("in \"Big\": 10000 players: a TRF numbers players in four columns"),
            std::string::npos)
      << trf.err;
  const RunResult csv = run_virrey({"event", dir.path() + "/big.pgn", "--format", "csv"}, dir.path());
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(count(csv.out, "\nBig,"), 10000u);
}

// One Event name for two tournaments (two EventDates): each has its own
// 012 name in the TRF, and the TRF read back compares each with its own.
TEST(EventCli, TrfOfOneNameSplitByEventDate) {
  TempDir dir;
  auto dated = [](std::string games, const std::string& date) {
    for (std::size_t at = games.find("[Site"); at != std::string::npos; at = games.find("[Site", at + 30))
      games.insert(at, "[EventDate \"" + date + "\"]\n");
    return games;
  };
  const std::string pgn = dir.path() + "/two.pgn", trf = dir.path() + "/two.trf";
  write_file(pgn, dated(round_robin(), "2024.01.01") +
                      dated(game("1", "A", "C", "1-0") + game("1", "B", "D", "0-1"), "2025.01.01"));
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  const std::string text = read_file(trf);
  EXPECT_EQ(text.rfind("012 Club of 2024.01.01\n", 0), 0u) << text;
  EXPECT_NE(text.find("\n012 Club of 2025.01.01\n"), std::string::npos) << text;
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out;
  EXPECT_EQ(count(back.out, "0 disagreements between"), 2u) << back.out;
  EXPECT_NE(back.out.find("the games of Club of 2025.01.01"), std::string::npos) << back.out;
  const RunResult shown = run_virrey({"event", pgn}, dir.path());
  EXPECT_EQ(shown.out.rfind("Club of 2024.01.01\n", 0), 0u) << shown.out;
}

// A TRF written in Latin-1 (é as the byte E9, ü as FC): its names are read
// as the PGN's UTF-8 names, and it agrees with the games.
TEST(EventCli, TrfInLatin1) {
  TempDir dir;
  const std::string pgn = dir.path() + "/lat.pgn", trf = dir.path() + "/lat.trf";
  write_file(pgn, game("1", "P\xc3\xa9rez, Jos\xc3\xa9", "M\xc3\xbcller, J\xc3\xbcrgen", "1-0") +
                      game("2", "M\xc3\xbcller, J\xc3\xbcrgen", "P\xc3\xa9rez, Jos\xc3\xa9", "1/2-1/2"));
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  std::string text = read_file(trf);
  for (const auto& [utf8, latin1] :
       {std::pair<std::string, std::string>{"\xc3\xa9", "\xe9"}, {"\xc3\xbc", "\xfc"}})
    for (std::size_t at = text.find(utf8); at != std::string::npos; at = text.find(utf8, at))
      text.replace(at, utf8.size(), latin1);
  ASSERT_EQ(text.find('\xc3'), std::string::npos);
  write_file(trf, text);
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out;
  EXPECT_NE(back.out.find("0 disagreements"), std::string::npos) << back.out;
}

// Names in a Latin-1 PGN are written to the TRF as UTF-8 (not '?'), and the
// TRF reads back without disagreement.
TEST(EventCli, LatinOneNamesInTheGamesGoToTheTrfAsUtf8) {
  TempDir dir;
  const std::string pgn = dir.path() + "/lat.pgn", trf = dir.path() + "/lat.trf";
  write_file(pgn, game("1", "P\xe9rez, Jos\xe9", "M\xfcller, J\xfcrgen", "1-0") +
                      game("2", "M\xfcller, J\xfcrgen", "P\xe9rez, Jos\xe9", "1/2-1/2"));
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  const std::string text = read_file(trf);
  EXPECT_NE(text.find("P\xc3\xa9rez, Jos\xc3\xa9"), std::string::npos) << text;
  EXPECT_NE(text.find("M\xc3\xbcller, J\xc3\xbcrgen"), std::string::npos) << text;
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out << back.err;
  EXPECT_NE(back.out.find("0 disagreements"), std::string::npos) << back.out;
  // The HTML page and the text, which declare or print UTF-8, hold the names so too.
  for (const char* format : {"html", "text"}) {
    const RunResult page = run_virrey({"event", pgn, "--format", format}, dir.path());
    EXPECT_NE(page.out.find("M\xc3\xbcller, J\xc3\xbcrgen"), std::string::npos) << format;
    EXPECT_EQ(page.out.find("M\xfcller"), std::string::npos) << format;
  }
}

// A name of exactly the TRF's 33 characters and a longer one cut to it:
// virrey's own TRF names both players, by starting rank.
TEST(EventCli, TrfNamesOfThirtyThreeCharacters) {
  TempDir dir;
  const std::string pgn = dir.path() + "/n.pgn", trf = dir.path() + "/n.trf";
  const std::string a = "Abcdefghijklmnopqrstuvwxyzabcdefg", b = a + " Jr";
  ASSERT_EQ(a.size(), 33u);
  write_file(pgn, game("1.1", a, b, "1-0") + game("1.2", "C", "D", "1-0") + game("2.1", a, "C", "1-0") +
                      game("2.2", b, "D", "1-0") + game("3.1", a, "D", "1-0") + game("3.2", b, "C", "1-0"));
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out << back.err;
  EXPECT_NE(back.out.find("0 disagreements"), std::string::npos) << back.out << back.err;
}

// A game of a player against themself (game 7, line 67) is warned where it
// starts and left out: A keeps 2.5 points from three games.
TEST(EventCli, GameAgainstThemselfIsWarnedAndLeftOut) {
  TempDir dir;
  const std::string pgn = dir.path() + "/self.pgn";
  write_file(pgn, round_robin() + game("3", "A", "A", "1-0"));
  const RunResult r = run_virrey({"event", pgn, "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(
      r.err.find("/self.pgn:67:1: warning[self-pairing]: game 7: in \"Club\": A plays against themself"),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("\nClub,1,A,,,,3,2.5,"), std::string::npos) << r.out;
  const RunResult v = run_virrey({"validate", pgn}, dir.path());
  EXPECT_NE(v.out.find("/self.pgn:67:1: warning[self-pairing]: game 7:"), std::string::npos) << v.out;
}

// A FIDE id is one player whatever the games call it: "Pérez, Ana" (3400001)
// in games 1 and 5, "Perez, Ana" with the same id in game 3, is one player
// named as two of the id's three games name her. r1 Pérez-B 1-0, C-D 1-0;
// r2 C-Perez 0-1, B-D 1/2; r3 Pérez-D 1/2: she has 1 + 1 + 1/2 = 2.5 from
// three games. The other spelling is warned once, where game 3 starts (line
// 24: game 1 has 12 lines with its id tag, game 2 11), in validate's words.
TEST(EventCli, AFideIdIsOnePlayerUnderTwoSpellings) {
  TempDir dir;
  auto with_tag = [](std::string g, const std::string& tag) {
    return g.replace(g.find("[Result"), 0, tag + "\n");
  };
  const std::string pgn = dir.path() + "/fide.pgn";
  write_file(pgn, with_tag(game("1.1", "Pérez, Ana", "B", "1-0"), "[WhiteFideId \"3400001\"]") +
                      game("1.2", "C", "D", "1-0") +
                      with_tag(game("2.1", "C", "Perez, Ana", "0-1"), "[BlackFideId \"3400001\"]") +
                      game("2.2", "B", "D", "1/2-1/2") +
                      with_tag(game("3.1", "Pérez, Ana", "D", "1/2-1/2"), "[WhiteFideId \"3400001\"]"));
  const RunResult r = run_virrey({"event", pgn, "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nClub,1,\"Pérez, Ana\",,,,3,2.5,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Perez"), std::string::npos) << r.out;
  const std::string warning = "FIDE id 3400001 is given to \"Perez, Ana\" and to \"Pérez, Ana\" (game 1)";
  EXPECT_NE(r.err.find("/fide.pgn:24:1: warning[player-name]: game 3: in \"Club\": " + warning +
                       "; one player, \"Pérez, Ana\""),
            std::string::npos)
      << r.err;
  EXPECT_EQ(count(r.err, "warning[player-name]"), 1u) << r.err;
  // validate warns the pair at game 3 too (as a spelling, its first reason for these two names).
  const RunResult v = run_virrey({"validate", pgn}, dir.path());
  EXPECT_NE(
      v.out.find("warning[player-name]: game 3: in \"Club\": \"Perez, Ana\" and \"Pérez, Ana\" (game 1)"),
      std::string::npos)
      << v.out;
  // One 001 line with the id, and the TRF read back agrees with the games.
  const std::string trf = dir.path() + "/fide.trf";
  ASSERT_EQ(run_virrey({"event", pgn, "--format", "trf", "--output", trf}, dir.path()).exit_code, 0);
  EXPECT_EQ(count(read_file(trf), "3400001"), 1u) << read_file(trf);
  const RunResult back = run_virrey({"event", pgn, "--trf", trf}, dir.path());
  EXPECT_EQ(back.exit_code, 0) << back.out;
  // The spelling most games give met second: the warning is where it is
  // first met (game 2, line 13), naming the first spelling's game 1.
  const std::string later = dir.path() + "/later.pgn";
  write_file(later, with_tag(game("1.1", "Perez, Ana", "B", "1-0"), "[WhiteFideId \"3400001\"]") +
                        with_tag(game("2.1", "C", "Pérez, Ana", "0-1"), "[BlackFideId \"3400001\"]") +
                        with_tag(game("3.1", "Pérez, Ana", "D", "1/2-1/2"), "[WhiteFideId \"3400001\"]"));
  const RunResult l = run_virrey({"event", later}, dir.path());
  EXPECT_NE(
      l.err.find("/later.pgn:13:1: warning[player-name]: game 2: in \"Club\": FIDE id 3400001 is given to "
                 "\"Pérez, Ana\" and to \"Perez, Ana\" (game 1); one player, \"Pérez, Ana\""),
      std::string::npos)
      << l.err;
}

// A game repeated (one file given twice, or a game pasted twice in one file)
// counts once, as import stores it once, and each repeat is warned where it
// starts. The standings are the round robin's hand-worked ones (A 2.5 from
// three games, SB 3.25, Koya 2; D 0.5, SB 1.25), not doubled. The repeated
// game 6 is game 7 of dup.pgn, at line 67 (11 lines a game); the file given
// twice repeats from its game 1 at line 1.
TEST(EventCli, RepeatedGamesCountOnce) {
  TempDir dir;
  const std::string rr = dir.path() + "/rr.pgn", dup = dir.path() + "/dup.pgn";
  write_file(rr, round_robin());
  write_file(dup, round_robin() + game("3.2", "A", "D", "1/2-1/2"));
  const std::string standings =
      "Club,1,A,,,,3,2.5,,2,3.25,2.0,\n"
      "Club,2,B,,,,3,1.5,0.5,1,1.25,0.5,\n"
      "Club,2,C,,,,3,1.5,0.5,1,1.25,0.5,\n"
      "Club,4,D,,,,3,0.5,,0,1.25,0.5,\n";

  const RunResult twice = run_virrey({"event", rr, rr, "--format", "csv"}, dir.path());
  ASSERT_EQ(twice.exit_code, 0) << twice.err;
  EXPECT_NE(twice.out.find(standings), std::string::npos) << twice.out;
  EXPECT_NE(twice.err.find("/rr.pgn:1:1: warning[duplicate-game]: game 1: the same game as game 1 of " + rr +
                           "; counted once"),
            std::string::npos)
      << twice.err;
  EXPECT_EQ(count(twice.err, "warning[duplicate-game]"), 6u) << twice.err;

  const RunResult pasted = run_virrey({"event", dup, "--format", "csv"}, dir.path());
  ASSERT_EQ(pasted.exit_code, 0) << pasted.err;
  EXPECT_NE(pasted.out.find(standings), std::string::npos) << pasted.out;
  EXPECT_NE(pasted.err.find(
                "/dup.pgn:67:1: warning[duplicate-game]: game 7: the same game as game 6; counted once"),
            std::string::npos)
      << pasted.err;
  EXPECT_EQ(count(pasted.err, "warning["), 1u) << pasted.err;

  // The TRF has one block a round: the one of the file read once.
  const RunResult trf_twice = run_virrey({"event", rr, rr, "--format", "trf"}, dir.path());
  const RunResult trf_once = run_virrey({"event", rr, "--format", "trf"}, dir.path());
  ASSERT_EQ(trf_once.exit_code, 0) << trf_once.err;
  EXPECT_EQ(trf_twice.out, trf_once.out);
}

TEST(EventCli, DatabaseGivesTheSameStandings) {
  TempDir dir;
  const std::string db = dir.path() + "/t.db";
  ASSERT_EQ(run_virrey({"import", "--db", db, kSwiss}, dir.path()).exit_code, 0);
  const RunResult from_file = run_virrey({"event", kSwiss, "--format", "csv"}, dir.path());
  const RunResult from_db = run_virrey({"event", "--db", db, "--format", "csv"}, dir.path());
  ASSERT_EQ(from_db.exit_code, 0) << from_db.err;
  EXPECT_EQ(from_db.out, from_file.out);
}

TEST(EventCli, BadGamesAreReportedNotFatal) {
  TempDir dir;
  write_file(dir.path() + "/bad.pgn", round_robin() + game("4.1", "A", "B", "1-0", "e4 Ke7 Ke2 Ke6 Qh9"));
  const RunResult r = run_virrey({"event", dir.path() + "/bad.pgn", "--format", "csv"}, dir.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("error["), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Club,1,A,,,,4,3.5"), std::string::npos) << r.out;  // the game still counts
}

// A system given that the pairings do not bear out is followed and said;
// the one they bear out is followed silently.
TEST(EventCli, ASystemThePairingsDoNotBearOutIsSaid) {
  TempDir dir;
  const RunResult knockout = run_virrey({"event", kSwiss, "--system", "knockout"}, dir.path());
  EXPECT_EQ(knockout.exit_code, 0);
  EXPECT_NE(
      knockout.err.find("the pairings are those of a swiss tournament; ranked as --system knockout asks"),
      std::string::npos)
      << knockout.err;
  const RunResult swiss = run_virrey({"event", kSwiss, "--system", "swiss"}, dir.path());
  EXPECT_EQ(swiss.exit_code, 0);
  EXPECT_EQ(swiss.err.find("the pairings are those of"), std::string::npos) << swiss.err;
}

// A game whose variant virrey does not know has its moves unread: it is an
// error, yet no forfeit. Round 2 of the round robin in "Crazyhouse": A beat C
// over the board; validate gives no unplayed-result warning, event counts it
// as played.
TEST(EventCli, MovesOfAnUnknownVariantAreMovesPlayed) {
  TempDir dir;
  // Standard games, so that the game of an unknown variant (read as the
  // default, standard) is in their tournament.
  auto standard = [](std::string g) {
    return g.replace(g.find("[Variant \"Virrey\"]"), 17, "[Variant \"Standard\"]");
  };
  std::string unknown = game("2.1", "A", "C", "1-0");
  unknown.replace(unknown.find("[Variant \"Virrey\"]"), 17, "[Variant \"Crazyhouse\"]");
  write_file(dir.path() + "/v.pgn",
             standard(game("1.1", "A", "B", "1-0")) + unknown + standard(game("3.1", "B", "C", "1/2-1/2")));
  const RunResult v = run_virrey({"validate", dir.path() + "/v.pgn"}, dir.path());
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.out.find("unknown-variant"), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("unplayed-result"), std::string::npos) << v.out;
  const RunResult e = run_virrey({"event", dir.path() + "/v.pgn", "--format", "json"}, dir.path());
  EXPECT_EQ(count(e.out, "\"event\":"), 1u) << e.out;  // one tournament
  EXPECT_EQ(count(e.out, "\"kind\":\"forfeit\""), 0u) << e.out;
  EXPECT_EQ(count(e.out, "\"kind\":\"played\""), 6u) << e.out;
  // In the TRF a game rated (1 0), not one a player never moved in (W L).
  const RunResult trf = run_virrey({"event", dir.path() + "/v.pgn", "--format", "trf"}, dir.path());
  EXPECT_EQ(trf.out.find(" W "), std::string::npos) << trf.out;
  EXPECT_EQ(trf.out.find(" L "), std::string::npos) << trf.out;
}

// A game whose movetext is only a NAG (+/- is "White is winning", not a
// result) lacks a result: the error points at the NAG, not at the next game.
TEST(EventCli, AMissingResultIsLocatedInItsGame) {
  TempDir dir;
  write_file(dir.path() + "/m.pgn",
             "[Event \"Club\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n"
             "[Black \"B\"]\n[Result \"1-0\"]\n\n+/-\n\n" +
                 game("2", "A", "B", "1-0"));
  const RunResult v = run_virrey({"validate", dir.path() + "/m.pgn"}, dir.path());
  EXPECT_NE(v.out.find("m.pgn:9:1: error[missing-result]: game 1"), std::string::npos) << v.out;
}

// Games with errors have no identity, yet a repeat of one is the same game:
// the same text counts once. r1 A-B 1-0, C-D 1-0 (an illegal move); r2 A-C
// 1-0 (an illegal move); the file given twice: A 2 points, C 1, B and D 0.
TEST(EventCli, RepeatedGamesWithErrorsCountOnce) {
  TempDir dir;
  write_file(dir.path() + "/e.pgn", game("1", "A", "B", "1-0") + game("1", "C", "D", "1-0", "e4 Ke7") +
                                        game("2", "A", "C", "1-0", "e5"));
  const RunResult r =
      run_virrey({"event", dir.path() + "/e.pgn", dir.path() + "/e.pgn", "--format", "json"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count(r.err, "warning[duplicate-game]"), 3u) << r.err;
  EXPECT_NE(r.err.find("e.pgn:12:1: warning[duplicate-game]: game 2: the same text as game 2 of"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(count(r.out, "\"points\":2.0"), 1u) << r.out;  // A
  EXPECT_EQ(count(r.out, "\"points\":1.0"), 1u) << r.out;  // C
  EXPECT_EQ(count(r.out, "\"points\":0.0"), 2u) << r.out;  // B, D
  EXPECT_EQ(count(r.out, "\"games\":3"), 1u) << r.out;     // three games, not six
}

// A game whose first or second move is in error was played all the same,
// for longer than its record kept: rated (TRF 1 and 0), not a game in which
// a player never moved (W, L) nor a forfeit (+, -). r1 A-B 1-0 (the error),
// C-D 0-1; r2 A-C 1/2, D-B 1-0. Numbered by name (no ratings): A 1 ... D 4.
TEST(EventCli, AGameCutShortByAnErrorIsPlayedAndRated) {
  TempDir dir;
  for (const std::string first : {"e4 e4", "Zf3 e5", "ex4 e5", "\\ e4 e5"}) {
    write_file(dir.path() + "/t.pgn", game("1", "A", "B", "1-0", first + " 2. Nf3 Nc6") +
                                          game("1", "C", "D", "0-1") + game("2", "A", "C", "1/2-1/2") +
                                          game("2", "D", "B", "1-0"));
    const RunResult r = run_virrey({"event", dir.path() + "/t.pgn", "--format", "trf"}, dir.path());
    ASSERT_EQ(r.exit_code, 0) << first << r.err;
    const std::size_t a = r.out.find("\n001    1"), b = r.out.find("\n001    2");
    ASSERT_NE(a, std::string::npos) << r.out;
    ASSERT_NE(b, std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(a + 92, 18), "   2 w 1     3 w =") << first << "\n" << r.out;
    EXPECT_EQ(r.out.substr(b + 92, 18), "   1 b 0     4 b 0") << first << "\n" << r.out;
  }
}

// An error in a variation leaves the main line whole: a game of one move
// stays a game one player never moved in (TRF W and L).
TEST(EventCli, AnErrorInAVariationLeavesAOneMoveGameUnrated) {
  TempDir dir;
  write_file(dir.path() + "/t.pgn", game("1", "A", "B", "1-0", "e4 (1. Ke2)") + game("1", "C", "D", "0-1") +
                                        game("2", "A", "C", "1/2-1/2") + game("2", "D", "B", "1-0"));
  const RunResult r = run_virrey({"event", dir.path() + "/t.pgn", "--format", "trf"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t a = r.out.find("\n001    1");
  ASSERT_NE(a, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(a + 92, 8), "   2 w W") << r.out;
}

TEST(EventCli, UsageErrors) {
  TempDir dir;
  EXPECT_EQ(run_virrey({"event", kSwiss, "--tiebreaks", "buchholz,nonsense"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_virrey({"event", kSwiss, "--system", "arena"}, dir.path()).exit_code, 2);
  EXPECT_EQ(run_virrey({"event", kSwiss, "--format", "pgn"}, dir.path()).exit_code, 2);
  for (const char* format : {"json", "html", "text"}) {
    const RunResult full = run_virrey({"event", kSwiss, "--format", format, "-o", "/dev/full"}, dir.path());
    EXPECT_EQ(full.exit_code, 3) << format;
    EXPECT_NE(full.err.find("cannot write /dev/full"), std::string::npos) << format << full.err;
  }
  EXPECT_EQ(run_virrey({"event", kSwiss, "--event", "No Such Event"}, dir.path()).exit_code, 1);
  // The database's filters choose no games of PGN inputs: refused, not ignored.
  const RunResult filtered =
      run_virrey({"event", kSwiss, "--white", "Nobody", "--elo", "3000-", "--event", "x"}, dir.path());
  EXPECT_EQ(filtered.exit_code, 2);
  EXPECT_EQ(filtered.out, "");
  EXPECT_NE(filtered.err.find("--white and --elo choose games of the database, not of PGN inputs (of the "
                              "filters, only --variant and --event apply to them"),
            std::string::npos)
      << filtered.err;
  // Named as given: --game-plies is --plies's other name.
  for (const char* plies : {"--game-plies", "--plies"}) {
    const RunResult named = run_virrey({"event", kSwiss, plies, "40-"}, dir.path());
    EXPECT_EQ(named.exit_code, 2);
    EXPECT_NE(named.err.find(std::string("error: ") + plies + " chooses games of the database"),
              std::string::npos)
        << named.err;
  }
  const RunResult named = run_virrey({"event", kSwiss, "--game-plies=40-"}, dir.path());
  EXPECT_NE(named.err.find("error: --game-plies chooses"), std::string::npos) << named.err;
  const std::string whole = run_virrey({"event", kSwiss}, dir.path()).out;
  const RunResult applied = run_virrey(
      {"event", kSwiss, "--variant", "virrey", "--event", "Montevideo Virrey Invitational 2017 (Swiss)"},
      dir.path());
  EXPECT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_EQ(applied.out, whole);
  const RunResult order = run_virrey({"event", kSwiss, "--tiebreaks", "SB,koya,TPR", "--format", "csv"}, dir.path());
  EXPECT_EQ(order.out.substr(0, order.out.find('\n')),
            "event,rank,name,title,federation,rating,games,points,sonneborn_berger,koya,performance");
}

// --event picks a tournament by its Event name, or by the name the report
// gives one of several of that name (editions told by their dates).
TEST(EventCli, EventPicksAnEditionByTheNameTheReportGivesIt) {
  TempDir dir;
  std::string pgn;
  for (const auto& [date, white, black] : {std::tuple{"2020.09.10", "A", "B"},
                                           {"2020.09.10", "C", "D"},
                                           {"2021.09.10", "A", "C"},
                                           {"2021.09.10", "B", "D"}})
    pgn += std::string("[Event \"League\"]\n[Site \"X\"]\n[Date \"") + date +
           "\"]\n[Round \"1\"]\n[White \"" + white + "\"]\n[Black \"" + black +
           "\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
  const std::string path = dir.path() + "/editions.pgn";
  testing::write_file(path, pgn);
  auto events = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"event", path, "--format", "csv"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_virrey(args, dir.path());
    std::multiset<std::string> seen;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) seen.insert(line.substr(0, line.find(',')));
    return std::pair{r.exit_code, seen};
  };
  using Seen = std::multiset<std::string>;
  EXPECT_EQ(events({}),
            (std::pair{0, Seen{"League of 2020.09.10", "League of 2020.09.10", "League of 2020.09.10",
                               "League of 2020.09.10", "League of 2021.09.10", "League of 2021.09.10",
                               "League of 2021.09.10", "League of 2021.09.10"}}));
  EXPECT_EQ(events({"--event", "league"}).second.size(), 8u);
  EXPECT_EQ(events({"--event", "league OF 2021.09.10"}),
            (std::pair{0, Seen{"League of 2021.09.10", "League of 2021.09.10", "League of 2021.09.10",
                               "League of 2021.09.10"}}));
  EXPECT_EQ(events({"--event", "League of 2022.09.10"}).first, 1);
}

// --event compares as tag searches do: case-blind in every alphabet with
// case, blanks in runs as one, with PGN inputs as with a database.
TEST(EventCli, EventNameIsCaseBlindBeyondAscii) {
  TempDir dir;
  std::string pgn = round_robin();
  const std::string club = "[Event \"Club\"]", memorial =
                                                   "[Event \"Memorial \xc5\xa0koda \xc3\x91"
                                                   "and\xc3\xba\"]";
  for (std::size_t at; (at = pgn.find(club)) != std::string::npos;) pgn.replace(at, club.size(), memorial);
  const std::string path = dir.path() + "/memorial.pgn";
  write_file(path, pgn);
  for (const std::string name : {"Memorial \xc5\xa0koda \xc3\x91"
                                 "and\xc3\xba",
                                 "memorial \xc5\xa1koda \xc3\xb1"
                                 "and\xc3\xba",
                                 "MEMORIAL \xc5\xa0KODA \xc3\x91"
                                 "AND\xc3\x9a",
                                 "  memorial  \xc5\xa1koda\t\xc3\xb1"
                                 "and\xc3\xba "}) {
    const RunResult r = run_virrey({"event", path, "--format", "csv", "--event", name}, dir.path());
    EXPECT_EQ(r.exit_code, 0) << name << r.err;
    EXPECT_EQ(count(r.out, "\n"), 5u) << name << r.out;  // the header and four players
  }
  EXPECT_EQ(run_virrey({"event", path, "--event", "Memorial Skoda Nandu"}, dir.path()).exit_code, 1);
}

// The page as headless chromium renders it (its DOM after loading).
TEST(EventCli, HtmlRendersInChromium) {
  const char* chromium = nullptr;
  for (const char* c : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(c)) chromium = c;
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  TempDir dir;
  write_file(dir.path() + "/names.pgn", game("1", "<b>Tom & Jerry</b>", "O'Neil", "1-0") +
                                             game("2", "O'Neil", "<b>Tom & Jerry</b>", "1/2-1/2"));
  const std::string page = dir.path() + "/swiss.html", names = dir.path() + "/names.html";
  ASSERT_EQ(run_virrey({"event", kSwiss, "--format", "html", "--output", page}, dir.path()).exit_code, 0);
  ASSERT_EQ(run_virrey({"event", dir.path() + "/names.pgn", "--format", "html", "--output", names}, dir.path()).exit_code, 0);
  const std::string html = read_file(page);
  EXPECT_EQ(html.find("http"), std::string::npos);  // no external asset
  EXPECT_EQ(html.find("<script"), std::string::npos);
  auto render = [&](const std::string& file, const std::string& dom) {
    const std::string cmd = std::string("timeout 120 ") + chromium +
                            " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --enable-logging=stderr --user-data-dir=" +
                            dir.path() + "/profile --dump-dom file://" + file + " >" + dom + " 2>" + dom + ".err";
    return std::system(cmd.c_str());
  };
  ASSERT_EQ(render(page, dir.path() + "/dom.html"), 0) << read_file(dir.path() + "/dom.html.err");
  const std::string dom = read_file(dir.path() + "/dom.html");
  // Loaded without a console error or a failed load.
  const std::string log = read_file(dir.path() + "/dom.html.err");
  EXPECT_EQ(log.find("CONSOLE"), std::string::npos) << log;
  EXPECT_EQ(log.find("ERR_"), std::string::npos) << log;
  // The rendered tables: 21 standings rows, 21 crosstable rows with 7 rounds, a games table per player.
  auto tbody_rows = [&](const std::string& id) {
    const std::size_t at = dom.find("id=\"" + id + "\"");
    if (at == std::string::npos) return std::size_t(0);
    const std::size_t body = dom.find("<tbody>", at), end = dom.find("</tbody>", at);
    return count(dom.substr(body, end - body), "<tr>");
  };
  EXPECT_EQ(tbody_rows("standings-0"), 21u);
  EXPECT_EQ(tbody_rows("crosstable-0"), 21u);
  EXPECT_EQ(count(dom, "class=\"games\""), 21u);
  EXPECT_EQ(count(dom, "<section class=\"player\""), 21u);
  const std::size_t head = dom.find("id=\"crosstable-0\"");
  EXPECT_NE(dom.find("<th>7</th>", head), std::string::npos);
  // Names are text, never markup.
  ASSERT_EQ(render(names, dir.path() + "/names-dom.html"), 0);
  const std::string names_dom = read_file(dir.path() + "/names-dom.html");
  EXPECT_NE(names_dom.find("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"), std::string::npos) << names_dom;
  EXPECT_EQ(names_dom.find("<b>"), std::string::npos);
}

}  // namespace
}  // namespace virrey::testing
