#include "engine_options.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdint>

#include <fmt/format.h>

#include "virrey/base/log.hpp"

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

bool hash_fits_memory(int hash_mb) {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (hash_mb <= 0 || pages <= 0 || page <= 0) return true;
  const std::uint64_t memory_mb = std::uint64_t(pages) * std::uint64_t(page) >> 20;
  if (std::uint64_t(hash_mb) <= memory_mb) return true;
  log::error("--hash {} MB is more than this machine's memory ({} MB)", hash_mb, memory_mb);
  return false;
}

}  // namespace virrey::cli
