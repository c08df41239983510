// The Round tag's forms, and games grouped into tournaments by Event.
#include <gtest/gtest.h>

#include "virrey/tournament/grouping.hpp"
#include "virrey/tournament/round.hpp"

namespace virrey::tournament {
namespace {

TEST(Round, ReadsItsUsualForms) {
  auto r = parse_round("5");
  ASSERT_TRUE(std::holds_alternative<RoundTag>(r));
  EXPECT_EQ(std::get<RoundTag>(r).round, 5);
  EXPECT_FALSE(std::get<RoundTag>(r).board.has_value());

  r = parse_round("5.3");
  ASSERT_TRUE(std::holds_alternative<RoundTag>(r));
  EXPECT_EQ(std::get<RoundTag>(r).round, 5);
  EXPECT_EQ(std::get<RoundTag>(r).board, 3);
  EXPECT_FALSE(std::get<RoundTag>(r).sub_game.has_value());

  r = parse_round(" 12.3.2 ");
  ASSERT_TRUE(std::holds_alternative<RoundTag>(r));
  EXPECT_EQ(std::get<RoundTag>(r).round, 12);
  EXPECT_EQ(std::get<RoundTag>(r).board, 3);
  EXPECT_EQ(std::get<RoundTag>(r).sub_game, 2);
  EXPECT_EQ(round_text(std::get<RoundTag>(r)), "12.3.2");

  EXPECT_EQ(std::get<RoundTag>(parse_round("?")).kind, RoundTag::Kind::Unknown);
  EXPECT_EQ(std::get<RoundTag>(parse_round("-")).kind, RoundTag::Kind::NotApplicable);
}

TEST(Round, RefusesWhatDoesNotRead) {
  auto code = [](std::string_view t) { return std::get<RoundError>(parse_round(t)).code; };
  EXPECT_EQ(code(""), RoundError::Code::Empty);
  EXPECT_EQ(code("R5"), RoundError::Code::NotANumber);
  EXPECT_EQ(code("5."), RoundError::Code::NotANumber);
  EXPECT_EQ(code("5a"), RoundError::Code::NotANumber);
  EXPECT_EQ(code(".5"), RoundError::Code::NotANumber);
  EXPECT_EQ(code("0"), RoundError::Code::Zero);
  EXPECT_EQ(code("3.0"), RoundError::Code::Zero);
  EXPECT_EQ(code("10000"), RoundError::Code::TooLarge);
  EXPECT_EQ(code("99999999999999999999"), RoundError::Code::TooLarge);
  EXPECT_EQ(code("1.2.3.4"), RoundError::Code::TooManyParts);
  EXPECT_NE(std::get<RoundError>(parse_round("R5")).message.find("\"R5\""), std::string::npos);
}

game::GameRecord record(std::string event, std::string site, std::string event_date, std::string white,
                        std::string black) {
  game::GameRecord r;
  r.tags = {{"Event", std::move(event)}, {"Site", std::move(site)}, {"EventDate", std::move(event_date)},
            {"Round", "1.2"}, {"White", std::move(white)}, {"Black", std::move(black)},
            {"Result", "1-0"}, {"WhiteElo", "2100"}, {"BlackElo", "x"}, {"WhiteTitle", "FM"},
            {"BlackFed", "ARG"}, {"WhiteFideId", "123"}};
  return r;
}

TEST(Grouping, SummaryTakesTheTags) {
  const GameSummary s = summarize(record("Open", "Rosario", "2024.05.01", "A", "B"), SourceRef{"f.pgn", 0, 3, {}});
  EXPECT_EQ(s.event, "Open");
  EXPECT_EQ(s.round_tag()->board, 2);
  EXPECT_EQ(s.white.elo, 2100);
  EXPECT_FALSE(s.black.elo.has_value());
  EXPECT_EQ(s.black.elo_text, "x");
  EXPECT_EQ(s.white.title, "FM");
  EXPECT_EQ(s.black.federation, "ARG");
  EXPECT_EQ(s.white.fide_id, "123");
  EXPECT_EQ(s.result, GameResult::WhiteWins);
  EXPECT_TRUE(s.unplayed());
  EXPECT_EQ(s.source.number, 3u);
}

TEST(Grouping, SplitsOneNameByDateAndDisjointSites) {
  std::vector<GameSummary> g;
  auto add = [&](std::string e, std::string s, std::string d, std::string w, std::string b) {
    g.push_back(summarize(record(std::move(e), std::move(s), std::move(d), std::move(w), std::move(b)), {}));
  };
  add("Open", "Rosario", "2024.05.01", "A", "B");      // 0
  add("Open", "Rosario", "2025.05.01", "A", "C");      // 1: another edition
  add("Open", "Rosario", "?", "B", "A");               // 2: no date among two known: apart
  add("Club", "Lima", "????.??.??", "D", "E");         // 3
  add("Club", "Quito", "2024.01.01", "F", "G");        // 4: no shared player: another tournament
  add("Club", "Lima", "2024.01.01", "E", "D");         // 5
  add("Blitz", "https://x/1", "", "H", "I");           // 6
  add("Blitz", "https://x/2", "", "I", "J");           // 7: shares I with 6: one tournament
  const auto groups = group_by_event(g);
  ASSERT_EQ(groups.size(), 6u);
  EXPECT_EQ(groups[0].games, (std::vector<std::size_t>{0}));
  EXPECT_EQ(groups[0].key.event_date, "2024.05.01");
  EXPECT_EQ(groups[1].games, (std::vector<std::size_t>{1}));
  EXPECT_EQ(groups[2].games, (std::vector<std::size_t>{2}));
  EXPECT_EQ(groups[3].games, (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(groups[3].key.site, "Lima");
  EXPECT_EQ(groups[3].key.event_date, "2024.01.01");
  EXPECT_EQ(groups[4].games, (std::vector<std::size_t>{4}));
  EXPECT_EQ(groups[5].games, (std::vector<std::size_t>{6, 7}));
  // Their labels: the Open's editions by EventDate ("?" tells none: its
  // place, third), the Clubs of one EventDate by Site, the Blitz alone.
  std::vector<TournamentKey> keys;
  for (const GameGroup& group : groups) keys.push_back(group.key);
  EXPECT_EQ(split_label_suffixes(keys), (std::vector<std::string>{" of 2024.05.01", " of 2025.05.01", " (3)",
                                                                  " at Lima", " at Quito", ""}));
}

// A game of Site "Berlin" and no EventDate, with this Date.
GameSummary dated(std::string event, std::string date, std::string white, std::string black) {
  game::GameRecord r = record(std::move(event), "Berlin", "", std::move(white), std::move(black));
  r.tags.push_back({"Date", std::move(date)});
  return summarize(r, {});
}

// A date of a month or a year alone joins the one edition of full dates its
// days come within 120 days of: 1982.01.?? (1 to 31 January) that of 1 May
// (90 days after 31 January: 28 + 31 + 30 + 1); 1982.09.?? begins 123 days
// after 1 May (31 + 30 + 31 + 31): an edition of its own. Dates of a year
// alone make editions where every day of one is more than 120 days from
// every day of the one before: 1982, 1983 and 1984 chain (a day apart at
// the least), 1982 and 1984 do not. A year that may belong to two editions
// joins neither: it never makes them one.
TEST(Grouping, DatesOfAMonthOrAYearAloneTellEditions) {
  std::vector<GameSummary> g;
  auto add = [&](std::string event, std::string date, std::string w, std::string b) {
    g.push_back(dated(std::move(event), std::move(date), std::move(w), std::move(b)));
  };
  add("Open", "1982.??.??", "A", "B");   // 0
  add("Open", "1984.??.??", "A", "C");   // 1: two years on
  add("Open", "1983.??.??", "B", "C");   // 2: next to both: one day apart at the least
  add("Cup", "1982.01.??", "D", "E");    // 3
  add("Cup", "1982.09.??", "D", "F");    // 4: 123 days after 5
  add("Cup", "1982.05.01", "E", "F");    // 5: 90 days after 3
  add("Rapid", "1990.??.??", "G", "H");  // 6
  add("Rapid", "1991.??.??", "G", "I");  // 7: next year: perhaps a day later
  const auto groups = group_by_event(g);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].games, (std::vector<std::size_t>{0, 1, 2}));  // 1982-1983-1984 chain
  EXPECT_EQ(groups[0].key.event_date, "");                          // one edition: no date stands for it
  EXPECT_EQ(groups[1].games, (std::vector<std::size_t>{3, 5}));
  EXPECT_EQ(groups[1].key.event_date, "1982.05.01");
  EXPECT_EQ(groups[2].games, (std::vector<std::size_t>{4}));
  EXPECT_EQ(groups[2].key.event_date, "1982.09.??");
  EXPECT_EQ(groups[3].games, (std::vector<std::size_t>{6, 7}));
  EXPECT_EQ(groups[3].key.event_date, "");  // one edition: no date stands for it
  // Without the middle year, 1982 and 1984 are two editions.
  g.erase(g.begin() + 2, g.end());
  const auto apart = group_by_event(g);
  ASSERT_EQ(apart.size(), 2u);
  EXPECT_EQ(apart[0].key.event_date, "1982.??.??");
  EXPECT_EQ(apart[1].key.event_date, "1984.??.??");
  // Two editions a year apart, and a game of that year between them.
  g.clear();
  add("Open", "1997.01.20", "A", "B");
  add("Open", "1997.??.??", "A", "C");
  add("Open", "1998.01.20", "B", "C");
  const auto bridged = group_by_event(g);
  ASSERT_EQ(bridged.size(), 3u);
  EXPECT_EQ(bridged[0].key.event_date, "1997.01.20");
  EXPECT_EQ(bridged[1].key.event_date, "1997.??.??");
  EXPECT_EQ(bridged[2].key.event_date, "1998.01.20");
}

// Without an EventDate, an Event name's games months apart are editions;
// a league's rounds weeks apart are one tournament.
TEST(Grouping, EditionsWithoutEventDateAreToldByTheGapsInDates) {
  std::vector<GameSummary> g;
  auto add = [&](std::string event, std::string date, std::string w, std::string b) {
    g.push_back(dated(std::move(event), std::move(date), std::move(w), std::move(b)));
  };
  add("Open", "2003.05.01", "A", "B");    // 0
  add("League", "2004.11.12", "C", "D");  // 1
  add("Open", "2005.05.02", "A", "B");    // 2: two years on: another edition
  add("League", "2004.12.29", "C", "E");  // 3: 47 days on
  add("League", "2005.02.17", "D", "E");  // 4: 50 days on
  add("Open", "2003.05.02", "B", "C");    // 5
  add("Open", "2003.13.45", "C", "A");    // 6: no day of the calendar: joins no edition
  const auto groups = group_by_event(g);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].games, (std::vector<std::size_t>{0, 5}));
  EXPECT_EQ(groups[0].key.event_date, "2003.05.01");
  EXPECT_EQ(groups[1].games, (std::vector<std::size_t>{1, 3, 4}));
  EXPECT_EQ(groups[1].key.event_date, "2004.11.12");
  EXPECT_EQ(groups[2].games, (std::vector<std::size_t>{2}));
  EXPECT_EQ(groups[2].key.event_date, "2005.05.02");
  EXPECT_EQ(groups[3].games, (std::vector<std::size_t>{6}));
  // One game with an EventDate: the dates tell no editions.
  g[2] = summarize(record("Open", "Berlin", "2003.05.01", "A", "B"), {});
  const auto dated = group_by_event(g);
  ASSERT_EQ(dated.size(), 2u);
  EXPECT_EQ(dated[0].games, (std::vector<std::size_t>{0, 2, 5, 6}));
}

// Games of two variants under one Event name are two tournaments, each
// labelled by its variant (and, among editions of one variant, as before).
TEST(Grouping, SplitsOneNameByVariant) {
  std::vector<GameSummary> g;
  auto add = [&](std::string d, std::string w, std::string b, Variant v) {
    g.push_back(summarize(record("Cup", "Lima", std::move(d), std::move(w), std::move(b)), {}));
    g.back().variant = v;
  };
  add("2024.05.01", "A", "B", Variant::Modern);    // 0
  add("2024.05.01", "B", "A", Variant::Standard);  // 1
  add("2024.05.01", "A", "C", Variant::Modern);    // 2
  add("2024.05.01", "C", "B", Variant::Virrey);    // 3
  add("2025.05.01", "C", "A", Variant::Virrey);    // 4: another Virrey edition
  const auto groups = group_by_event(g);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].games, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(groups[0].key.variant, Variant::Modern);
  EXPECT_EQ(groups[1].games, (std::vector<std::size_t>{1}));
  EXPECT_EQ(groups[2].games, (std::vector<std::size_t>{3}));
  EXPECT_EQ(groups[3].games, (std::vector<std::size_t>{4}));
  std::vector<TournamentKey> keys;
  for (const GameGroup& group : groups) keys.push_back(group.key);
  EXPECT_EQ(split_label_suffixes(keys),
            (std::vector<std::string>{" (Modern chess)", " (Standard chess)", " (Virrey chess) of 2024.05.01",
                                      " (Virrey chess) of 2025.05.01"}));
}

}  // namespace
}  // namespace virrey::tournament
