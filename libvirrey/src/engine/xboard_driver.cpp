// XBoard/CECP 2: "xboard", "protover 2" and the "feature" lines (myname,
// done=1); a search is "force", "setboard F", the moves, the limits ("sd",
// "st", Sjaak's "maxnodes"), "go", thinking lines ("depth score time nodes
// pv") until "move M". A "ping"/"pong" before each search drops what the
// engine said after its last move ("1-0 {White mates}").
#include <fmt/format.h>

#include "driver.hpp"

namespace virrey::engine {

namespace {

// Sjaak II and most CECP engines write a mate as 16000 (or 100000) minus plies.
Score xboard_score(long long v) {
  for (long long mate : {100000LL, 32000LL, 16000LL}) {
    const long long plies = mate - (v < 0 ? -v : v);
    if (plies >= 0 && plies < 1000) {
      const int moves = int((plies + 1) / 2);
      return Score{true, v > 0 ? moves : -moves};
    }
  }
  return Score{false, int(v)};
}

// The value of `key="..."` or `key=word` in a feature line.
std::optional<std::string> feature(std::string_view line, std::string_view key) {
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

class XboardDriver final : public Driver {
 public:
  using Driver::Driver;

  std::optional<EngineError> start(Variant v) override {
    if (auto e = send("xboard")) return e;
    if (auto e = send("protover 2")) return e;
    const auto until = start_deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line.rfind("feature ", 0) != 0) continue;
      if (auto n = feature(line, "myname")) name = *n;
      if (auto d = feature(line, "done"); d && *d == "1") break;
    }
    if (name.empty()) name = config.path;
    if (v == Variant::Virrey && (e_ = send("variant viceroy"))) return e_;
    if (v == Variant::Modern && (e_ = send("variant modern"))) return e_;
    for (const char* cmd : {"new", "force", "post", "easy"})
      if ((e_ = send(cmd))) return e_;
    if (config.hash_mb > 0 && (e_ = send(fmt::format("memory {}", config.hash_mb)))) return e_;
    for (const auto& [key, value] : config.options)
      if ((e_ = send(fmt::format("option {}={}", key, value)))) return e_;
    return sync();
  }

  std::optional<EngineError> search(const std::string& fen, const std::vector<std::string>& moves,
                                    const Limits& limits, RawResult& out) override {
    if (auto e = send("force")) return e;
    if (auto e = send("setboard " + fen)) return e;
    for (const auto& m : moves)
      if (auto e = send(m)) return e;
    if (auto e = send(fmt::format("maxnodes {}", limits.nodes))) return e;
    if (auto e = send(
            fmt::format("sd {}", limits.depth ? limits.depth : (limits.nodes || limits.movetime ? 99 : 10))))
      return e;
    const std::uint32_t seconds = limits.movetime ? (limits.movetime + 999) / 1000 : 3600;
    if (auto e = send(fmt::format("st {}", seconds))) return e;
    if (auto e = sync()) return e;
    if (auto e = send("go")) return e;
    const auto until = deadline(limits.movetime);
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      const auto words = split_words(line);
      if (words.empty()) continue;
      if (words[0] == "move" || words[0] == "usermove") {
        if (words.size() < 2) return EngineError{Failure::Malformed, "move without a move: " + line};
        out.best = std::string(words[1]);
        if (!out.has_score) return EngineError{Failure::Malformed, "no thinking output before " + line};
        return std::nullopt;
      }
      if (words[0] == "Illegal" || words[0] == "Error" || words[0] == "resign" || words[0] == "1-0" ||
          words[0] == "0-1" || words[0] == "1/2-1/2") {
        out.claim = line;
        return EngineError{Failure::Malformed, "answered \"" + line + "\" instead of a move"};
      }
      thinking(words, out);
    }
  }

 private:
  std::optional<EngineError> sync() {
    const std::string ping = fmt::format("ping {}", ++pings_);
    if (auto e = send(ping)) return e;
    const std::string pong = fmt::format("pong {}", pings_);
    const auto until = deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line == pong) return std::nullopt;
      if (line.rfind("Error", 0) == 0 || line.rfind("Illegal", 0) == 0)
        return EngineError{Failure::Malformed, "refused the set-up: " + line};
    }
  }

  // "depth score time nodes pv...": four numbers, then the line (move
  // numbers such as "1." and "1. ..." are left out).
  static void thinking(const std::vector<std::string_view>& w, RawResult& out) {
    if (w.size() < 4) return;
    const auto depth = parse_int(w[0]);
    const auto score = parse_int(w[1]);
    const auto nodes = parse_int(w[3]);
    if (!depth || !score || !parse_int(w[2]) || !nodes) return;
    RawResult r;
    r.depth = int(*depth);
    r.score = xboard_score(*score);
    r.has_score = true;
    r.nodes = std::uint64_t(*nodes);
    for (std::size_t i = 4; i < w.size(); ++i) {
      const std::string_view t = w[i];
      if (t == "..." || (!t.empty() && t.back() == '.' && parse_int(t.substr(0, t.size() - 1)))) continue;
      if (t.find('.') != std::string_view::npos && parse_int(t.substr(0, t.find('.')))) continue;
      r.pv.emplace_back(t);
    }
    if (r.pv.empty()) r.pv = out.pv;
    out = std::move(r);
  }

  std::optional<EngineError> e_;
  unsigned pings_ = 0;
};

}  // namespace

std::unique_ptr<Driver> make_xboard_driver(const EngineConfig& c) {
  return std::make_unique<XboardDriver>(c);
}

}  // namespace virrey::engine
