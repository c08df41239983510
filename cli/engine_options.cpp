#include "engine_options.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdint>

#include <fmt/format.h>

namespace virrey::cli {

Result<analyse::Options> analysis_options(const EngineOptions& o) {
  analyse::Options out;
  engine::EngineConfig& c = out.engine;
  c.path = o.engine;
  if (!o.engine.empty() && o.engine.find('/') == std::string::npos)
    c.path = engine::find_program(o.engine).value_or(o.engine);
  c.protocol = o.protocol == "xboard" ? engine::Protocol::Xboard : engine::Protocol::Uci;
  if (o.engine.empty() && !o.protocol.empty())
    return Error{ErrorKind::InvalidArgument, "--protocol needs --engine"};
  c.hash_mb = o.hash;
  // More than the machine holds would have the engine fail to allocate (an
  // XBoard engine's `memory` has no range to check it against).
  if (const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
      o.hash > 0 && pages > 0 && page > 0 &&
      std::uint64_t(o.hash) > std::uint64_t(pages) * std::uint64_t(page) >> 20)
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("--hash {} MB is more than this machine's memory ({} MB)", o.hash,
                             std::uint64_t(pages) * std::uint64_t(page) >> 20)};
  for (const auto& opt : o.engine_options) {
    const auto eq = opt.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{ErrorKind::InvalidArgument, fmt::format("--engine-option {}: expected NAME=VALUE", opt)};
    std::string name = opt.substr(0, eq);
    for (char& ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (o.hash > 0 && name == "hash")
      return Error{ErrorKind::InvalidArgument,
                   fmt::format("--hash and --engine-option {}: give the hash size once", opt)};
    c.options.emplace_back(opt.substr(0, eq), opt.substr(eq + 1));
  }
  if (!(o.engine_timeout > 0) || o.engine_timeout > 86400)
    return Error{ErrorKind::InvalidArgument,
                 fmt::format("--engine-timeout {} is out of range (seconds, more than 0 and at most 86400)",
                             o.engine_timeout)};
  c.timeout = std::chrono::milliseconds(std::int64_t(o.engine_timeout * 1000));
  out.limits = {o.nodes, o.depth, o.movetime};
  if (!o.nodes && !o.depth && !o.movetime) out.limits.nodes = kDefaultNodes;
  return out;
}

}  // namespace virrey::cli
