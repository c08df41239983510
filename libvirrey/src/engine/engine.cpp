#include "virrey/engine/engine.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "driver.hpp"
#include "virrey/engine/process.hpp"

namespace virrey::engine {

std::string Limits::describe() const {
  std::string out;
  auto add = [&out](std::string_view name, std::uint64_t v) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{} {}", name, v);
  };
  if (nodes) add("nodes", nodes);
  if (depth) add("depth", std::uint64_t(depth));
  if (movetime) add("movetime", movetime);
  return out;
}

DefaultEngine default_engine(Variant v) {
  switch (v) {
    case Variant::Virrey: return {"sjaakii", Protocol::Xboard, "sjaakii"};
    case Variant::Modern: return {"fairy-stockfish", Protocol::Uci, "fairy-stockfish"};
    case Variant::Standard: break;
  }
  return {"stockfish", Protocol::Uci, "stockfish"};
}

namespace {

// An executable regular file (a directory is "executable" too, to access).
bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> find_program(std::string_view program) {
  if (program.find('/') != std::string_view::npos) {
    std::string p(program);
    return executable_file(p) ? std::optional<std::string>(p) : std::nullopt;
  }
  std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "";
  dirs += ":/usr/games";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    if (!dir.empty()) {
      std::string candidate = dir + "/" + std::string(program);
      if (executable_file(candidate)) return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::string_view failure_name(Failure f) {
  switch (f) {
    case Failure::None: return "none";
    case Failure::Crashed: return "engine-crashed";
    case Failure::Timeout: return "engine-timeout";
    case Failure::Malformed: return "engine-malformed-answer";
    case Failure::IllegalMove: return "engine-illegal-move";
    case Failure::Variant: return "engine-lacks-variant";
    case Failure::Option: return "engine-option";
  }
  return "engine-error";
}

std::string variant_refusal(const Engine& e, Variant v, const EngineError& error) {
  const std::string& path = e.config().path;
  const std::string program = path.substr(path.rfind('/') + 1);
  std::string out = fmt::format("{}{} does not play {} chess: {}", program,
                                e.name().empty() || e.name() == path ? "" : fmt::format(" ({})", e.name()),
                                info(v).name, error.message);
  const DefaultEngine d = default_engine(v);
  const char* protocol = d.protocol == Protocol::Xboard ? " --protocol xboard" : " --protocol uci";
  if (find_program(d.program) != find_program(path))
    out += fmt::format("; use --engine {}{}, the default for {} games", d.program,
                       d.protocol == Protocol::Xboard ? protocol : "", info(v).name);
  else if (d.protocol != e.config().protocol)
    out += fmt::format("; it plays {} chess through{}", info(v).name, protocol);
  return out;
}

// --- what the drivers share ---------------------------------------------------

std::string_view variant_name(Variant v, Protocol p) {
  switch (v) {
    case Variant::Virrey: return p == Protocol::Uci ? "virrey" : "viceroy";
    case Variant::Modern: return "modern";
    case Variant::Standard: break;
  }
  return {};
}

std::optional<EngineError> Driver::read(std::string& line, Clock::time_point deadline) {
  switch (process.read_line(line, deadline)) {
    case Process::ReadStatus::Line: return std::nullopt;
    case Process::ReadStatus::Timeout: return EngineError{Failure::Timeout, "no answer within the timeout"};
    case Process::ReadStatus::Closed: break;
  }
  return EngineError{Failure::Crashed, "the engine ended"};
}

std::optional<EngineError> Driver::send(std::string_view line) {
  if (!process.write_line(line)) return EngineError{Failure::Crashed, "the engine ended"};
  return std::nullopt;
}

// --- Engine -----------------------------------------------------------------

Engine::Engine(EngineConfig config) : config_(std::move(config)) {}
Engine::~Engine() = default;

std::optional<EngineError> Engine::start(Variant v) {
  driver_ = config_.protocol == Protocol::Uci ? make_uci_driver(config_) : make_xboard_driver(config_);
  std::vector<std::string> argv{config_.path};
  argv.insert(argv.end(), config_.arguments.begin(), config_.arguments.end());
  if (Status s = driver_->process.start(argv); !s) return EngineError{Failure::Crashed, s.error().message};
  auto err = driver_->start(v);
  if (err && err->failure == Failure::Timeout)
    err->message =
        fmt::format("no answer to the start-up ({}) within {} s",
                    config_.protocol == Protocol::Uci ? "uci, isready" : "xboard, protover 2, ping",
                    std::chrono::duration<double>(Driver::start_timeout(config_.timeout)).count());
  return err;
}

std::optional<EngineError> Engine::search(const std::string& fen, const std::vector<std::string>& moves,
                                          const Limits& limits, RawResult& out) {
  if (!driver_ || !driver_->process.running())
    return EngineError{Failure::Crashed, "the engine is not running"};
  out = RawResult{};
  return driver_->search(fen, moves, limits, out);
}

void Engine::stop() {
  if (driver_) driver_->process.kill();
}

const std::string& Engine::name() const {
  static const std::string none;
  return driver_ ? driver_->name : none;
}

int Engine::pid() const { return driver_ ? driver_->process.pid() : -1; }

}  // namespace virrey::engine
