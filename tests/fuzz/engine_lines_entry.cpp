// Fuzz entry: the engine-output readers (engine/protocol_lines.hpp) on any
// bytes, line by line, as a UCI and as an XBoard engine's answer; the moves
// they take from it are read against fixed positions by virrey's rules, and
// the scores go through the judgement model.
#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/analyse/analyser.hpp"
#include "virrey/analyse/judgement.hpp"
#include "virrey/engine/protocol_lines.hpp"
#include "virrey/engine/search.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/movegen.hpp"

namespace virrey::fuzz {
namespace {

using engine::RawResult;
using engine::SearchLine;

constexpr std::size_t kMaxLines = 256;

bool is_word(std::string_view w) {
  return !w.empty() && w.find(' ') == std::string_view::npos && w.find('\t') == std::string_view::npos;
}

// A move the engine named is nothing or a legal move of the position, and
// its line is read up to its first move that is not legal.
template <class G>
void read_moves(Variant v, const char* fen, const RawResult& r) {
  FenProblems problems;
  const auto pos = position_from_fen<G>(fen, v, problems);
  VIRREY_FUZZ_CHECK(pos.has_value(), fen);
  if (const auto m = engine::read_engine_move(*pos, r.best))
    VIRREY_FUZZ_CHECK(legal_moves(*pos).contains(*m), r.best + " read as an illegal move in " + fen);
  Position<G> p = *pos;
  for (const std::string& text : r.pv) {
    const auto m = engine::read_engine_move(p, text);
    if (!m) break;
    VIRREY_FUZZ_CHECK(legal_moves(p).contains(*m), text + " read as an illegal move in " + write_fen(p));
    p.play(*m);
  }
}

// What holds after every line of a search's answer.
void check(const RawResult& r, const std::optional<engine::EngineError>& error, SearchLine state,
           std::string_view line) {
  const std::string where(line);
  VIRREY_FUZZ_CHECK(!error || state == SearchLine::Done, "an error before the search ended: " + where);
  VIRREY_FUZZ_CHECK(!error || !error->message.empty(), "an error without a message: " + where);
  if (state == SearchLine::Done && !error)
    VIRREY_FUZZ_CHECK(r.has_score && is_word(r.best), "a search ended without a score or a move: " + where);
  if (r.has_score) {
    const long long bound = r.score.mate ? engine::kMaxMateMoves : engine::kMaxCentipawns;
    VIRREY_FUZZ_CHECK(r.score.value >= -bound && r.score.value <= bound, "a score out of bounds: " + where);
    const double wc = analyse::winning_chances(r.score);
    VIRREY_FUZZ_CHECK(std::isfinite(wc) && wc >= -1 && wc <= 1, "winning chances out of [-1, 1]: " + where);
    VIRREY_FUZZ_CHECK(!analyse::eval_text(r.score, Color::Black).empty(), where);
  }
  for (const std::string& m : r.pv) VIRREY_FUZZ_CHECK(is_word(m), "a line's move is not a word: " + where);
  if (state == SearchLine::Done) {
    read_moves<Board8>(Variant::Standard, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", r);
    read_moves<Board8>(Variant::Virrey, "r3k2r/P1P3P1/8/3V4/4v3/8/p1p3p1/R3K2R w KQkq - 0 1", r);
    read_moves<Board9>(Variant::Modern, "4k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1", r);
  }
}

}  // namespace

void engine_lines(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  RawResult uci, xboard;
  for (std::size_t n = 0; !text.empty() && n < kMaxLines; ++n) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);

    for (std::string_view w : engine::split_words(line)) VIRREY_FUZZ_CHECK(is_word(w), std::string(line));
    if (const auto name = engine::uci_id_name(line))
      VIRREY_FUZZ_CHECK(name->size() + 8 == line.size(), std::string(line));
    if (const auto variants = engine::uci_variants(line))
      for (const std::string& v : *variants) VIRREY_FUZZ_CHECK(is_word(v), std::string(line));
    for (std::string_view key : {"myname", "done", "variants", "option"})
      if (const auto value = engine::xboard_feature(line, key))
        VIRREY_FUZZ_CHECK(value->size() < line.size(), std::string(line));

    // Options announced: a name, no more values than the line has words.
    std::vector<engine::EngineOption> offered;
    if (auto o = engine::uci_option(line)) offered.push_back(std::move(*o));
    if (auto o = engine::xboard_option(line)) offered.push_back(std::move(*o));
    for (const auto& o : offered) {
      VIRREY_FUZZ_CHECK(!o.name.empty() && o.values.size() <= line.size(), std::string(line));
      for (engine::Protocol p : {engine::Protocol::Uci, engine::Protocol::Xboard})
        for (std::string_view value : {"1", "true", "-5", "x"})
          if (auto why = engine::option_refusal(offered, o.name, value, p))
            VIRREY_FUZZ_CHECK(!why->empty(), std::string(line));
    }

    SearchLine state = SearchLine::More;
    auto error = engine::uci_search_line(line, uci, state);
    check(uci, error, state, line);
    if (state == SearchLine::Done) uci = RawResult{};
    error = engine::xboard_search_line(line, xboard, state);
    check(xboard, error, state, line);
    if (state == SearchLine::Done) xboard = RawResult{};
  }
}

}  // namespace virrey::fuzz
