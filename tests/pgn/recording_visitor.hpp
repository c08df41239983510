// Test helper: a Visitor that writes every call down as one short line of
// text ("move Nf3 @2:4"), so tests compare whole call sequences at once.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "virrey/pgn/game_parser.hpp"
#include "virrey/pgn/visitor.hpp"

namespace virrey::pgn::testing {

inline std::string at(Location l) {
  std::string s = " @";  // appended piecewise: g++ 12 warns falsely on "literal" + std::string&&
  s += std::to_string(l.line);
  s += ':';
  s += std::to_string(l.column);
  return s;
}

// `what` followed by the location.
inline std::string call(std::string what, Location l) { return what += at(l); }

class RecordingVisitor : public Visitor {
 public:
  std::vector<std::string> calls;
  bool skip_variations = false;
  bool skip_movetext = false;
  bool record_begin_end = false;  // begin_game / end_game are left out unless asked

  void begin_game(Location start) override {
    if (record_begin_end) calls.push_back(call("begin", start));
  }
  void tag(std::string_view name, std::string_view value, Location l) override {
    calls.push_back(call("tag " + std::string(name) + "=" + std::string(value), l));
  }
  Skip end_tags(Location l) override {
    calls.push_back(call("end_tags", l));
    return skip_movetext ? Skip::Yes : Skip::No;
  }
  void move_number(std::uint32_t n, std::uint32_t dots, bool apart, Location l) override {
    calls.push_back(call("number " + std::to_string(n) + (apart ? " " : "") + std::string(dots, '.'), l));
  }
  void move(std::string_view san, Location l) override {
    calls.push_back(call("move " + std::string(san), l));
  }
  void null_move(std::string_view token, Location l) override {
    calls.push_back(call("null " + std::string(token), l));
  }
  void nag(std::uint8_t n, Location l) override { calls.push_back(call("nag " + std::to_string(n), l)); }
  void comment(std::string_view text, CommentKind kind, Location l) override {
    std::string what(1, kind == CommentKind::Brace ? '{' : ';');
    what += text;
    calls.push_back(call(std::move(what), l));
  }
  Skip begin_variation(Location l) override {
    calls.push_back(call("(", l));
    return skip_variations ? Skip::Yes : Skip::No;
  }
  void end_variation(Location l) override { calls.push_back(call(")", l)); }
  void result(GameResult r, Location l) override {
    static const char* names[] = {"1-0", "0-1", "1/2-1/2", "*"};
    calls.push_back(call(std::string("result ") + names[int(r)], l));
  }
  void diagnostic(const Diagnostic& d) override {
    calls.push_back(
        call("diag " + std::string(problem_id(d.problem)) + " '" + std::string(d.text) + "'", d.at));
  }
  void end_game(Location l) override {
    if (record_begin_end) calls.push_back(call("end", l));
  }
};

// Parses `text` as one game starting at 1:1 and returns the calls.
inline std::vector<std::string> parse_calls(std::string_view text, ParseOptions options = {},
                                            RecordingVisitor visitor = {}) {
  GameParser(options).parse(text, Location{}, visitor);
  return visitor.calls;
}

}  // namespace virrey::pgn::testing
