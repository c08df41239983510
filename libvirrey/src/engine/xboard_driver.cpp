// XBoard/CECP 2: "xboard", "protover 2" and the "feature" lines (myname,
// variants, done=1), "new" and the variant; a search is "force", "setboard
// F", the moves, the limits ("sd", "st", and for --nodes Sjaak's "maxnodes"), "go", thinking
// lines ("depth score time nodes pv") until "move M". A "ping"/"pong" before each search drops what the
// engine said after its last move ("1-0 {White mates}").
#include <algorithm>

#include <fmt/format.h>

#include "driver.hpp"
#include "virrey/base/log.hpp"

namespace virrey::engine {

namespace {

class XboardDriver final : public Driver {
 public:
  using Driver::Driver;

  std::optional<EngineError> start(Variant v) override {
    if (auto e = send("xboard")) return e;
    if (auto e = send("protover 2")) return e;
    const auto until = start_deadline();
    std::string line;
    std::optional<std::string> variants;  // the `variants` feature, if announced
    std::vector<EngineOption> offered;    // its `option` features
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line.rfind("feature ", 0) != 0) continue;
      if (auto n = xboard_feature(line, "myname")) name = *n;
      if (auto list = xboard_feature(line, "variants")) variants = std::move(list);
      if (auto o = xboard_option(line)) offered.push_back(std::move(*o));
      if (auto d = xboard_feature(line, "done"); d && *d == "1") break;
    }
    if (name.empty()) name = config.path;
    for (const auto& [key, value] : config.options)
      if (auto why = option_refusal(offered, key, value, Protocol::Xboard))
        return EngineError{Failure::Option, fmt::format("{}={}: {}", key, value, *why)};
    const std::string_view want = variant_name(v, Protocol::Xboard);
    if (!want.empty() && variants && !xboard_lists_variant(*variants, want))
      return EngineError{Failure::Variant, fmt::format("its variants feature lacks {}", want)};
    // "variant" after "new": "new" sets the engine back to standard chess
    // (Sjaak II does), and an engine that lacks the variant says so here.
    if ((e_ = send("new"))) return e_;
    if (!want.empty() && (e_ = send(fmt::format("variant {}", want)))) return e_;
    e_ = want.empty() ? sync(Failure::Malformed, "refused the set-up")
                      : sync(Failure::Variant, fmt::format("it refused variant {}", want));
    if (e_) return e_;
    // Commands an engine may not know: an error for one of them is no reason
    // to give the engine up.
    for (const char* cmd : {"force", "post", "easy"})
      if ((e_ = send(cmd))) return e_;
    if (config.hash_mb > 0 && (e_ = send(fmt::format("memory {}", config.hash_mb)))) return e_;
    for (const auto& [key, value] : config.options)
      if ((e_ = send(fmt::format("option {}={}", key, value)))) return e_;
    return sync(std::nullopt);
  }

  std::optional<EngineError> search(const std::string& fen, const std::vector<std::string>& moves,
                                    const Limits& limits, RawResult& out) override {
    if (auto e = send("force")) return e;
    if (auto e = send("setboard " + fen)) return e;
    for (const auto& m : moves)
      if (auto e = send(m)) return e;
    // Depth 2 at least: Sjaak II prints no thinking line (so no score) for a
    // depth-1 search; the result reports the depth searched.
    const int depth = limits.depth ? std::max(limits.depth, 2) : (limits.nodes || limits.movetime ? 99 : 10);
    if (auto e = send(fmt::format("sd {}", depth))) return e;
    // Seconds, with the milliseconds of --movetime as a fraction (Sjaak II
    // reads "st 0.05").
    const std::string seconds = !limits.movetime ? std::string("3600")
                                : limits.movetime % 1000 == 0
                                    ? std::to_string(limits.movetime / 1000)
                                    : fmt::format("{:.3f}", limits.movetime / 1000.0);
    if (auto e = send("st " + seconds)) return e;
    if (auto e = sync(Failure::Malformed, "refused the set-up")) return e;
    // A node limit is Sjaak II's own command: sent only for one, since other
    // engines (Fairy-Stockfish) refuse it.
    if (limits.nodes) {
      if (auto e = send(fmt::format("maxnodes {}", limits.nodes))) return e;
      if (auto e =
              sync(Failure::Malformed,
                   "refused the node limit (maxnodes, a command of Sjaak II's that other XBoard engines may "
                   "lack: --depth or --movetime then)"))
        return e;
    }
    if (auto e = send("go")) return e;
    const auto until = deadline(limits.movetime);
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      SearchLine state;
      auto e = xboard_search_line(line, out, state);
      if (state == SearchLine::Done) return e;
    }
  }

 private:
  // Waits for the answer to a ping. An "Error", "Illegal move" or
  // "tellusererror" line before it is the engine refusing what it was sent:
  // a failure of that kind (`what` and the line) for a variant, a position or
  // its moves; for optional commands (no failure given) only logged.
  std::optional<EngineError> sync(std::optional<Failure> refused, std::string_view what = {}) {
    const std::string ping = fmt::format("ping {}", ++pings_);
    if (auto e = send(ping)) return e;
    const std::string pong = fmt::format("pong {}", pings_);
    const auto until = deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line == pong) return std::nullopt;
      if (line.rfind("Error", 0) != 0 && line.rfind("Illegal", 0) != 0 && line.rfind("tellusererror", 0) != 0)
        continue;
      if (refused) return EngineError{*refused, fmt::format("{}: {}", what, line)};
      log::debug("{}: {}", name, line);
    }
  }

  std::optional<EngineError> e_;
  unsigned pings_ = 0;
};

}  // namespace

std::unique_ptr<Driver> make_xboard_driver(const EngineConfig& c) {
  return std::make_unique<XboardDriver>(c);
}

}  // namespace virrey::engine
