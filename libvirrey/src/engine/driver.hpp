// The protocol side of an engine: a driver speaks UCI or XBoard over the
// process's pipes. Private to the engine layer.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/engine/engine.hpp"
#include "virrey/engine/process.hpp"
#include "virrey/engine/protocol_lines.hpp"

namespace virrey::engine {

using Clock = Process::Clock;

class Driver {
 public:
  explicit Driver(const EngineConfig& c) : config(c) {}
  virtual ~Driver() = default;
  // The handshake and the variant's set-up, once the process runs.
  virtual std::optional<EngineError> start(Variant v) = 0;
  virtual std::optional<EngineError> search(const std::string& fen, const std::vector<std::string>& moves,
                                            const Limits& limits, RawResult& out) = 0;

  const EngineConfig& config;
  Process process;
  std::string name;

  // A start-up (loading networks, tables) gets at least ten seconds.
  static std::chrono::milliseconds start_timeout(std::chrono::milliseconds timeout) {
    return std::max<std::chrono::milliseconds>(timeout, std::chrono::seconds(10));
  }

 protected:
  std::optional<EngineError> read(std::string& line, Clock::time_point deadline);
  std::optional<EngineError> send(std::string_view line);
  Clock::time_point deadline(std::uint32_t extra_ms = 0) const {
    return Clock::now() + config.timeout + std::chrono::milliseconds(extra_ms);
  }
  Clock::time_point start_deadline() const { return Clock::now() + start_timeout(config.timeout); }
};

// The name an engine knows a variant by: the UCI_Variant value, the XBoard
// `variant` command's; empty for standard chess, which needs none. No UCI
// engine in Debian offers Virrey chess; one that does is to name it "virrey".
std::string_view variant_name(Variant v, Protocol p);

std::unique_ptr<Driver> make_uci_driver(const EngineConfig& c);
std::unique_ptr<Driver> make_xboard_driver(const EngineConfig& c);

}  // namespace virrey::engine
