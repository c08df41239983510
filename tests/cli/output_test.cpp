// The output layer: JSON escaping, CSV quoting, fixed decimals, nulls, and a
// record schema rendered as JSON, CSV and a text table.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "output.hpp"

namespace virrey::cli {
namespace {

TEST(Output, FormatNamesRoundTrip) {
  for (Format f : {Format::Text, Format::Json, Format::Jsonl, Format::Csv, Format::Pgn})
    EXPECT_EQ(parse_format(format_name(f)), f);
  EXPECT_EQ(parse_format("xml"), std::nullopt);
}

TEST(Output, JsonStringEscapes) {
  EXPECT_EQ(json_string("a\"b\\c\n\r\t"), R"("a\"b\\c\n\r\t")");
  EXPECT_EQ(json_string(std::string("\x01", 1)), R"("\u0001")");
  EXPECT_EQ(json_string("Óscar"), "\"Óscar\"");            // UTF-8 kept
  EXPECT_EQ(json_string("\xd3scar"), "\"\xc3\x93scar\"");  // Latin-1 Ó as its code point
}

// JSON and CSV write the same text: UTF-8 as it is, any other byte as the
// Windows-1252 character it stands for (a lone lead byte, a stray
// continuation, bytes that begin no sequence, 0xF5-0xFF): Latin-1's, but
// for 0x80-0x9F, where 0x80 is the euro sign, 0x96 the en dash and 0x90
// (undefined there) stays Latin-1's C1 control.
TEST(Output, CsvAndJsonAgreeOnBytesThatAreNotUtf8) {
  const std::pair<std::string, std::string> cases[] = {
      {"A\xc3", "A\xc3\x83"},                                              // a lead byte at the end
      {"T\xff\xfe", "T\xc3\xbf\xc3\xbe"},                                  // never in UTF-8
      {"\xf8\x80\x80", "\xc3\xb8\xe2\x82\xac\xe2\x82\xac"},                // no 5-byte sequences
      {"\x80x", "\xe2\x82\xacx"},                                          // a continuation alone
      {"\xed\xa0\x80", "\xc3\xad\xc2\xa0\xe2\x82\xac"},                    // a surrogate: no UTF-8
      {"\xe0\x80\x80", "\xc3\xa0\xe2\x82\xac\xe2\x82\xac"},                // an overlong form
      {"\xf4\x90\x80\x80", "\xc3\xb4\xc2\x90\xe2\x82\xac\xe2\x82\xac"},    // above U+10FFFF
      {"\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80"},  // UTF-8 kept
      {"Liga 2019\x96"
       "2020 \x93Open\x94 \x9f",  // Windows-1252 typography
       "Liga 2019\xe2\x80\x93"
       "2020 \xe2\x80\x9cOpen\xe2\x80\x9d \xc5\xb8"},
  };
  for (const auto& [in, utf8] : cases) {
    EXPECT_EQ(as_utf8(in), utf8);
    EXPECT_EQ(csv_field(in), utf8);
    EXPECT_EQ(json_string(in), "\"" + utf8 + "\"");
  }
}

TEST(Output, ValuesAsJson) {
  const Value v = Value::object({{"n", Value::integer(-3)},
                                 {"pct", Value::number(12.345, 2)},
                                 {"rate", Value::number(1234.5, 0)},
                                 {"none", Value::number(std::optional<double>(), 2)},
                                 {"ply", Value::integer(std::optional<unsigned>())},
                                 {"ok", Value::boolean(true)},
                                 {"fen", Value::string_or_null("")},
                                 {"list", Value::list({Value::string("a"), Value::integer(1u)})},
                                 {"empty", Value::list({})}});
  EXPECT_EQ(json(v),
            R"({"n":-3,"pct":12.35,"rate":1234,"none":null,"ply":null,"ok":true,"fen":null,"list":["a",1],)"
            R"("empty":[]})");
}

TEST(Output, CsvQuotesOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_line({Value::integer(1), Value::null(), Value::string("x\ny"), Value::number(0.5, 2)}),
            "1,,\"x\ny\",0.50\n");
}

struct Game {
  int id;
  std::string white;
  std::optional<int> ply;
};

TEST(Output, SchemaGivesJsonCsvAndText) {
  const Schema<Game> fields = {
      {"id", [](const Game& g) { return Value::integer(g.id); }},
      {"white", [](const Game& g) { return Value::string(g.white); }},
      {"ply", [](const Game& g) { return Value::integer(g.ply); }},
  };
  const std::vector<Game> games = {{1, "Smith, Olga", 12}, {22, "Kowalski", std::nullopt}};
  EXPECT_EQ(json(fields.object(games[0])), R"({"id":1,"white":"Smith, Olga","ply":12})");
  EXPECT_EQ(fields.csv(games), "id,white,ply\n1,\"Smith, Olga\",12\n22,Kowalski,\n");
  EXPECT_EQ(fields.ordered({"white", "id"}).csv(games), "white,id\n\"Smith, Olga\",1\nKowalski,22\n");
  using Align = TextTable::Align;
  EXPECT_EQ(
      fields.text_table({{"id", Align::Right}, {"white", Align::Left, 6}, {"ply", Align::Right}}, games),
      "id  white   ply\n"
      " 1  Smith…   12\n"
      "22  Kowal…    -\n");
}

// One long value (a 20 MB Event tag) is cut to the widest cell, with an
// ellipsis, so that it does not pad every row of the table to its width;
// the last column, never padded, keeps its text.
TEST(Output, LongCellsAreCutSoRowsStaySmall) {
  TextTable t({{"Event", TextTable::Align::Left},
               {"Games", TextTable::Align::Right},
               {"Note", TextTable::Align::Left}});
  const std::string long_value(100000, 'x');
  t.add({long_value, "1", long_value});
  for (int i = 0; i < 100; ++i) t.add({std::string("E").append(std::to_string(i)), "1", "-"});
  const std::string text = t.render();
  // (built by appends: g++ 12 warns falsely on a chain of +; the Games
  // column as wide as its title)
  std::string first_row(TextTable::kMaxCellWidth - 1, 'x');
  first_row.append("…      1  ").append(long_value).append("\n");
  std::string short_row = "\nE0";
  short_row.append(TextTable::kMaxCellWidth - 2, ' ').append("      1  -\n");
  EXPECT_NE(text.find(first_row), std::string::npos);
  EXPECT_NE(text.find(short_row), std::string::npos);
  EXPECT_LT(text.size(), long_value.size() + 102 * (TextTable::kMaxCellWidth + 20));
}

// What reaches a terminal: no control character (a tag value's ESC, BEL,
// NUL, TAB, or a C1 control), each written \xNN; Latin-1 as UTF-8; the
// rest as it is. Table cells go through it.
TEST(Output, TerminalTextEscapesControlCharacters) {
  EXPECT_EQ(terminal_text("plain, text"), "plain, text");
  EXPECT_EQ(terminal_text("E\x1b[31mRed\x07"), "E\\x1b[31mRed\\x07");
  // A right-to-left override would show the rest of the line reversed.
  EXPECT_EQ(terminal_text("Carlsen\xe2\x80\xae"
                          "nesl"),
            "Carlsen\\xe2\\x80\\xaenesl");
  EXPECT_EQ(terminal_text("a\xe2\x81\xa6"
                          "b"),
            "a\\xe2\\x81\\xa6b");                            // U+2066, an isolate
  EXPECT_EQ(terminal_text("\xe2\x80\x8f"), "\xe2\x80\x8f");  // a right-to-left mark turns nothing around
  EXPECT_EQ(terminal_text(std::string_view("A\0B\tC\x7f", 6)), "A\\x00B\\x09C\\x7f");
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "2J \xe6\x9d\x8e \xfc"),
            "\\xc2\\x9b2J \xe6\x9d\x8e \xc3\xbc");  // CSI, 李, ü
  TextTable t({{"Name", TextTable::Align::Left}, {"Fed", TextTable::Align::Left}});
  t.add(
      {"A\x1b"
       "B",
       "X"});
  EXPECT_EQ(t.render(), "Name    Fed\nA\\x1bB  X\n");
}

// Columns line up in a terminal: a CJK character takes two columns, an
// accent combined with its letter none, a Latin-1 byte one (as UTF-8).
TEST(Output, WidthsCountTerminalColumns) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("\xe6\x9d\x8e, \xe6\x98\x8e"), 6u);  // 李, 明
  EXPECT_EQ(display_width("Jose\xcc\x81"), 4u);                // José with a combining acute
  EXPECT_EQ(display_width("\xef\xbc\xa1"), 2u);                // fullwidth A
  // Beyond the blocks: the widths glibc's wcwidth gives (C.UTF-8).
  EXPECT_EQ(display_width("\xf0\x9f\x9a\x80"), 2u);          // U+1F680 rocket
  EXPECT_EQ(display_width("\xf0\x9f\xa7\xa0"), 2u);          // U+1F9E0 brain
  EXPECT_EQ(display_width("\xd7\xa9\xd6\xb0"), 1u);          // Hebrew shin with sheva (U+05B0)
  EXPECT_EQ(display_width("\xe0\xb8\x81\xe0\xb8\xb1"), 1u);  // Thai ko kai with mai han-akat (U+0E31)
  EXPECT_EQ(display_width("\xe0\xa4\x95\xe0\xa5\x81"), 1u);  // Devanagari ka with vowel sign u (U+0941)
  EXPECT_EQ(display_width("\xef\xbb\xbf"
                          "A"),
            1u);                                 // U+FEFF, then A
  EXPECT_EQ(display_width("\xc2\xad"), 1u);      // the soft hyphen shows
  EXPECT_EQ(display_width("\xe3\x80\xbf"), 1u);  // U+303F, half-width in a wide block
  EXPECT_EQ(display_width("\xcd\xb8"), 1u);      // U+0378, unassigned: not wide
  EXPECT_EQ(display_width("\xf0\x9e\x80\xb0"), 1u);  // U+1E030, a Cyrillic letter after Unicode 14
  EXPECT_EQ(display_width("\xe3\x90\x80"), 2u);      // U+3400, a CJK ideograph (extension A)
  TextTable t({{"Name", TextTable::Align::Left}, {"Fed", TextTable::Align::Left}});
  t.add({"\xe6\x9d\x8e, \xe6\x98\x8e", "CHN"});
  t.add({"M\xfcller", "GER"});
  const std::string text = t.render();
  // "Name" is 6 columns wide (李, 明 and Müller alike): every Fed starts in
  // column 9.
  EXPECT_NE(text.find("\n\xe6\x9d\x8e, \xe6\x98\x8e  CHN\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nM\xc3\xbcller  GER\n"), std::string::npos) << text;
  EXPECT_EQ(fit_width("\xe6\x9d\x8e\xe6\x9d\x8e\xe6\x9d\x8e", 4), "\xe6\x9d\x8e\xe2\x80\xa6");  // 李…
}

}  // namespace
}  // namespace virrey::cli
