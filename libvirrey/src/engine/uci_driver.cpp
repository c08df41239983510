// UCI: "uci" until "uciok" (with "id name" and the UCI_Variant values),
// options, the variant when the engine offers it, "isready" until "readyok";
// a search is "position fen F moves ...", "go ..." and the "info"
// lines until "bestmove".
#include <algorithm>

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
      if (auto n = uci_id_name(line)) name = std::move(*n);
      if (auto vars = uci_variants(line)) variants_ = std::move(*vars);
      if (auto o = uci_option(line)) offered_.push_back(std::move(*o));
      if (line == "uciok") break;
    }
    for (const auto& [key, value] : config.options)
      if (auto why = option_refusal(offered_, key, value, Protocol::Uci))
        return EngineError{Failure::Option, fmt::format("{}={}: {}", key, value, *why)};
    if (name.empty()) name = config.path;
    if (config.hash_mb > 0)
      if (auto why = option_refusal(offered_, "Hash", std::to_string(config.hash_mb), Protocol::Uci))
        return EngineError{Failure::Option, fmt::format("--hash {}: {}", config.hash_mb, *why)};
    if (config.hash_mb > 0 && (e_ = send(fmt::format("setoption name Hash value {}", config.hash_mb))))
      return e_;
    for (const auto& [key, value] : config.options)
      if ((e_ = send(fmt::format("setoption name {} value {}", key, value)))) return e_;
    if (const std::string_view want = variant_name(v, Protocol::Uci); !want.empty()) {
      // After the options: one of them may change the list (Fairy-Stockfish's
      // VariantPath announces it again).
      if (auto e = ready()) return e;
      if (!variants_) return EngineError{Failure::Variant, "it has no UCI_Variant option"};
      if (std::find(variants_->begin(), variants_->end(), want) == variants_->end())
        return EngineError{Failure::Variant, fmt::format("its UCI_Variant option offers no {}", want)};
      if ((e_ = send(fmt::format("setoption name UCI_Variant value {}", want)))) return e_;
    }
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
      SearchLine state;
      auto e = uci_search_line(line, out, state);
      if (state == SearchLine::Done) return e;
    }
  }

 private:
  std::optional<EngineError> ready() {
    if (auto e = send("isready")) return e;
    const auto until = start_deadline();
    std::string line;
    for (;;) {
      if (auto e = read(line, until)) return e;
      if (auto vars = uci_variants(line)) variants_ = std::move(*vars);
      if (line == "readyok") return std::nullopt;
    }
  }

  std::optional<EngineError> e_;
  std::optional<std::vector<std::string>> variants_;  // UCI_Variant's values, if it has the option
  std::vector<EngineOption> offered_;                 // the options announced before "uciok"
};

}  // namespace

std::unique_ptr<Driver> make_uci_driver(const EngineConfig& c) { return std::make_unique<UciDriver>(c); }

}  // namespace virrey::engine
