#include "virrey/engine/protocol_lines.hpp"

#include <charconv>

#include <fmt/format.h>

namespace virrey::engine {

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<long long> parse_int(std::string_view text) {
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text[0] == '-') return std::nullopt;  // "+-5"
  }
  if (text.empty()) return std::nullopt;
  long long v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size()) return std::nullopt;
  return v;
}

namespace {

bool within(long long v, long long bound) { return v >= -bound && v <= bound; }

// A count that an int holds: depth, or 0 when it is not one.
int small_count(std::optional<long long> v) { return v && within(*v, 1'000'000) ? int(*v) : 0; }

// The latest result of a search: an exact score replaces what came before; a
// line without its own moves keeps the previous line.
void take(RawResult& out, RawResult&& r) {
  if (r.pv.empty() && !out.pv.empty()) r.pv = out.pv;
  out = std::move(r);
}

}  // namespace

// --- UCI ------------------------------------------------------------------------

std::optional<std::string> uci_id_name(std::string_view line) {
  constexpr std::string_view prefix = "id name ";
  if (line.substr(0, prefix.size()) != prefix) return std::nullopt;
  return std::string(line.substr(prefix.size()));
}

std::optional<std::vector<std::string>> uci_variants(std::string_view line) {
  const auto w = split_words(line);
  if (w.size() < 4 || w[0] != "option" || w[1] != "name" || w[2] != "UCI_Variant" || w[3] != "type")
    return std::nullopt;
  std::vector<std::string> out;
  for (std::size_t i = 4; i + 1 < w.size(); ++i)
    if (w[i] == "var") out.emplace_back(w[++i]);
  return out;
}

namespace {

// An "info" line with a score: the latest one counts (multipv 1 only).
void uci_info(const std::vector<std::string_view>& w, RawResult& out) {
  RawResult r;
  bool bound = false;
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "string") break;  // the rest of the line is free text (UCI: "info string")
    if (w[i] == "multipv" && i + 1 < w.size() && w[i + 1] != "1") return;
    if (w[i] == "depth" && i + 1 < w.size()) r.depth = small_count(parse_int(w[i + 1]));
    if (w[i] == "nodes" && i + 1 < w.size()) {
      const auto n = parse_int(w[i + 1]);
      r.nodes = n && *n > 0 ? std::uint64_t(*n) : 0;
    }
    if (w[i] == "lowerbound" || w[i] == "upperbound") bound = true;
    if (w[i] == "score" && i + 2 < w.size()) {
      const bool mate = w[i + 1] == "mate";
      const auto v = parse_int(w[i + 2]);
      // "mate 0" is a position already mated, which is never searched: no score.
      if (!v || (!mate && w[i + 1] != "cp") || !within(*v, mate ? kMaxMateMoves : kMaxCentipawns) ||
          (mate && *v == 0))
        return;
      r.score = Score{mate, int(*v)};
      r.has_score = true;
    }
    if (w[i] == "pv") {
      for (std::size_t j = i + 1; j < w.size(); ++j) r.pv.emplace_back(w[j]);
      break;
    }
  }
  if (!r.has_score || (bound && out.has_score)) return;
  take(out, std::move(r));
}

}  // namespace

std::optional<EngineError> uci_search_line(std::string_view line, RawResult& out, SearchLine& state) {
  state = SearchLine::More;
  const auto words = split_words(line);
  if (words.empty()) return std::nullopt;
  if (words[0] == "bestmove") {
    state = SearchLine::Done;
    if (words.size() < 2)
      return EngineError{Failure::Malformed, "bestmove without a move: " + std::string(line)};
    out.best = std::string(words[1]);
    if (!out.has_score) return EngineError{Failure::Malformed, "no score before " + std::string(line)};
    return std::nullopt;
  }
  if (words[0] == "info") uci_info(words, out);
  return std::nullopt;
}

// --- options ---------------------------------------------------------------------

namespace {

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? char(a[i] - 'A' + 'a') : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? char(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

std::string joined(const std::vector<std::string_view>& w, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += ' ';
    out += w[i];
  }
  return out;
}

}  // namespace

std::optional<EngineOption> uci_option(std::string_view line) {
  const auto w = split_words(line);
  if (w.size() < 4 || w[0] != "option" || w[1] != "name") return std::nullopt;
  std::size_t type = 2;
  while (type < w.size() && w[type] != "type") ++type;
  if (type == 2 || type + 1 >= w.size()) return std::nullopt;
  EngineOption o;
  o.name = joined(w, 2, type);
  o.type = std::string(w[type + 1]);
  for (std::size_t i = type + 2; i + 1 < w.size(); ++i) {
    if (w[i] == "min") o.min = parse_int(w[i + 1]).value_or(o.min);
    if (w[i] == "max") o.max = parse_int(w[i + 1]).value_or(o.max);
    if (w[i] == "var") {
      // A combo's value may hold spaces: up to the next "var".
      std::size_t end = i + 1;
      while (end < w.size() && w[end] != "var") ++end;
      o.values.push_back(joined(w, i + 1, end));
      i = end - 1;
    }
  }
  return o;
}

std::optional<EngineOption> xboard_option(std::string_view feature_line) {
  const auto text = xboard_feature(feature_line, "option");
  if (!text) return std::nullopt;
  // The name runs up to " -TYPE".
  std::size_t dash = text->find(" -");
  while (dash != std::string::npos &&
         (dash + 2 >= text->size() || text->at(dash + 2) < 'a' || text->at(dash + 2) > 'z'))
    dash = text->find(" -", dash + 1);
  if (dash == std::string::npos || dash == 0) return std::nullopt;
  EngineOption o;
  o.name = text->substr(0, dash);
  const std::string rest = text->substr(dash + 2);
  const auto w = split_words(rest);
  o.type = std::string(w[0]);
  if ((o.type == "spin" || o.type == "slider") && w.size() >= 4) {
    o.min = parse_int(w[2]).value_or(0);
    o.max = parse_int(w[3]).value_or(0);
  }
  if (o.type == "combo") {
    std::string_view values = std::string_view(rest).substr(w[0].size());
    for (std::size_t start = 0; start <= values.size();) {
      const std::size_t end = std::min(values.find("///", start), values.size());
      std::string_view v = values.substr(start, end - start);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
      if (!v.empty() && v.front() == '*') v.remove_prefix(1);  // the default
      if (!v.empty()) o.values.emplace_back(v);
      start = end + 3;
    }
  }
  return o;
}

std::optional<std::string> option_refusal(const std::vector<EngineOption>& offered, std::string_view name,
                                          std::string_view value, Protocol protocol) {
  const EngineOption* found = nullptr;
  for (const EngineOption& o : offered)
    if (same_name(o.name, name)) found = &o;
  if (!found) {
    std::string names;
    for (const EngineOption& o : offered) names += (names.empty() ? "" : ", ") + o.name;
    return names.empty() ? std::string("the engine announces no options")
                         : "the engine has no such option (it has " + names + ")";
  }
  const EngineOption& o = *found;
  if (o.type == "spin" || o.type == "slider") {
    const auto v = parse_int(value);
    if (!v || *v < o.min || *v > o.max)
      return fmt::format("{} is a whole number from {} to {}", o.name, o.min, o.max);
  } else if (o.type == "check") {
    const bool ok =
        protocol == Protocol::Uci ? value == "true" || value == "false" : value == "0" || value == "1";
    if (!ok) return fmt::format("{} is {}", o.name, protocol == Protocol::Uci ? "true or false" : "0 or 1");
  } else if (o.type == "combo") {
    bool ok = false;
    std::string values;
    for (const std::string& v : o.values) {
      ok = ok || v == value;
      values += (values.empty() ? "" : ", ") + v;
    }
    if (!ok) return fmt::format("{} is one of {}", o.name, values);
  }
  return std::nullopt;
}

// --- XBoard ---------------------------------------------------------------------

std::optional<std::string> xboard_feature(std::string_view line, std::string_view key) {
  const std::string needle = std::string(key) + "=";
  std::size_t at = 0;
  while ((at = line.find(needle, at)) != std::string_view::npos) {
    if (at == 0 || line[at - 1] == ' ') break;
    at += needle.size();
  }
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + needle.size());
  if (!rest.empty() && rest[0] == '"') {
    const auto end = rest.find('"', 1);
    return std::string(rest.substr(1, end == std::string_view::npos ? rest.size() - 1 : end - 1));
  }
  return std::string(rest.substr(0, rest.find(' ')));
}

bool xboard_lists_variant(std::string_view variants, std::string_view name) {
  for (std::size_t start = 0; start <= variants.size();) {
    const std::size_t end = std::min(variants.find(',', start), variants.size());
    if (variants.substr(start, end - start) == name) return true;
    start = end + 1;
  }
  return false;
}

std::optional<Score> xboard_score(long long v) {
  if (!within(v, 1'000'000'000)) return std::nullopt;
  const long long magnitude = v < 0 ? -v : v;
  const auto signed_mate = [v](long long moves) { return Score{true, int(v > 0 ? moves : -moves)}; };
  // The protocol's own numbering (engine-intf.html, "post"): mate in N
  // moves is 100000 + N, mated in N is -100000 - N.
  if (magnitude > 100000 && magnitude - 100000 <= kMaxMateMoves) return signed_mate(magnitude - 100000);
  // Engines' numbering: a large number less the plies to mate (Sjaak II
  // 16000, others 32000 or 100000). The number itself, mate in no ply, is
  // a position already mated, which is never searched: no score.
  for (long long mate : {100000LL, 32000LL, 16000LL}) {
    const long long plies = mate - magnitude;
    if (plies == 0) return std::nullopt;
    if (plies > 0 && plies < 1000) return signed_mate((plies + 1) / 2);
  }
  if (!within(v, kMaxCentipawns)) return std::nullopt;
  return Score{false, int(v)};
}

namespace {

// "depth score time nodes pv...": four numbers, then the line (move numbers
// such as "1." and "1. ..." are left out).
void xboard_thinking(const std::vector<std::string_view>& w, RawResult& out) {
  if (w.size() < 4) return;
  const auto depth = parse_int(w[0]);
  const auto score = parse_int(w[1]);
  const auto nodes = parse_int(w[3]);
  if (!depth || !score || !parse_int(w[2]) || !nodes) return;
  const auto s = xboard_score(*score);
  if (!s) return;
  RawResult r;
  r.depth = small_count(depth);
  r.score = *s;
  r.has_score = true;
  r.nodes = *nodes > 0 ? std::uint64_t(*nodes) : 0;
  for (std::size_t i = 4; i < w.size(); ++i) {
    const std::string_view t = w[i];
    if (t == "..." || (t.back() == '.' && parse_int(t.substr(0, t.size() - 1)))) continue;
    if (t.find('.') != std::string_view::npos && parse_int(t.substr(0, t.find('.')))) continue;
    r.pv.emplace_back(t);
  }
  take(out, std::move(r));
}

}  // namespace

std::optional<EngineError> xboard_search_line(std::string_view line, RawResult& out, SearchLine& state) {
  state = SearchLine::More;
  const auto words = split_words(line);
  if (words.empty()) return std::nullopt;
  if (words[0] == "move" || words[0] == "usermove") {
    state = SearchLine::Done;
    if (words.size() < 2) return EngineError{Failure::Malformed, "move without a move: " + std::string(line)};
    out.best = std::string(words[1]);
    if (!out.has_score)
      return EngineError{Failure::Malformed, "no thinking output before " + std::string(line)};
    return std::nullopt;
  }
  if (words[0] == "Illegal" || words[0] == "Error" || words[0] == "resign" || words[0] == "1-0" ||
      words[0] == "0-1" || words[0] == "1/2-1/2") {
    state = SearchLine::Done;
    out.claim = std::string(line);
    return EngineError{Failure::Malformed, "answered \"" + std::string(line) + "\" instead of a move"};
  }
  xboard_thinking(words, out);
  return std::nullopt;
}

}  // namespace virrey::engine
