// UCI: "uci" until "uciok" (with "id name"), options, "isready" until
// "readyok"; a search is "position fen F moves ...", "go ..." and the "info"
// lines until "bestmove".
#include <fmt/format.h>

#include "driver.hpp"

namespace virrey::engine {

namespace {

class UciDriver final : public Driver {
 public:
  using Driver::Driver;

  std::optional<EngineError> start(Variant v) override {
    if (auto e = send("uci")) return e;
    const auto until = start_deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line.rfind("id name ", 0) == 0) name = line.substr(8);
      if (line == "uciok") break;
    }
    if (name.empty()) name = config.path;
    if (v == Variant::Modern && (e_ = send("setoption name UCI_Variant value modern"))) return e_;
    if (config.hash_mb > 0 && (e_ = send(fmt::format("setoption name Hash value {}", config.hash_mb))))
      return e_;
    for (const auto& [key, value] : config.options)
      if ((e_ = send(fmt::format("setoption name {} value {}", key, value)))) return e_;
    if (auto e = send("ucinewgame")) return e;
    return ready();
  }

  std::optional<EngineError> search(const std::string& fen, const std::vector<std::string>& moves,
                                    const Limits& limits, RawResult& out) override {
    std::string position = "position fen " + fen;
    if (!moves.empty()) position += " moves";
    for (const auto& m : moves) position += " " + m;
    if (auto e = send(position)) return e;
    std::string go = "go";
    if (limits.nodes) go += fmt::format(" nodes {}", limits.nodes);
    if (limits.depth) go += fmt::format(" depth {}", limits.depth);
    if (limits.movetime) go += fmt::format(" movetime {}", limits.movetime);
    if (go == "go") go += " depth 10";
    if (auto e = send(go)) return e;
    const auto until = deadline(limits.movetime);
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      const auto words = split_words(line);
      if (words.empty()) continue;
      if (words[0] == "bestmove") {
        if (words.size() < 2) return EngineError{Failure::Malformed, "bestmove without a move: " + line};
        out.best = std::string(words[1]);
        if (!out.has_score) return EngineError{Failure::Malformed, "no score before " + line};
        return std::nullopt;
      }
      if (words[0] == "info") info(words, out);
    }
  }

 private:
  std::optional<EngineError> ready() {
    if (auto e = send("isready")) return e;
    const auto until = start_deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (line == "readyok") return std::nullopt;
    }
  }

  // An "info" line with a score: the latest one counts (multipv 1 only).
  static void info(const std::vector<std::string_view>& w, RawResult& out) {
    RawResult r;
    bool bound = false;
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (w[i] == "multipv" && i + 1 < w.size() && w[i + 1] != "1") return;
      if (w[i] == "depth" && i + 1 < w.size()) r.depth = int(parse_int(w[i + 1]).value_or(0));
      if (w[i] == "nodes" && i + 1 < w.size()) r.nodes = std::uint64_t(parse_int(w[i + 1]).value_or(0));
      if (w[i] == "lowerbound" || w[i] == "upperbound") bound = true;
      if (w[i] == "score" && i + 2 < w.size()) {
        const auto v = parse_int(w[i + 2]);
        if (!v || (w[i + 1] != "cp" && w[i + 1] != "mate")) return;
        r.score = Score{w[i + 1] == "mate", int(*v)};
        r.has_score = true;
      }
      if (w[i] == "pv") {
        for (std::size_t j = i + 1; j < w.size(); ++j) r.pv.emplace_back(w[j]);
        break;
      }
    }
    if (!r.has_score || (bound && out.has_score)) return;
    if (r.pv.empty() && !out.pv.empty()) r.pv = out.pv;
    out = std::move(r);
  }

  std::optional<EngineError> e_;
};

}  // namespace

std::unique_ptr<Driver> make_uci_driver(const EngineConfig& c) { return std::make_unique<UciDriver>(c); }

}  // namespace virrey::engine
