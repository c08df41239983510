#include "perft_command.hpp"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "exit_codes.hpp"
#include "json_text.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/perft.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey::cli {

namespace {

template <class G>
int perft_on(const Position<G>& pos, const PerftOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const auto entries = perft_divide(pos, o.depth, o.threads);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t nodes = 0;
  for (const auto& e : entries) nodes += e.nodes;
  if (o.depth == 0) nodes = 1;
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;
  const MoveList legal = legal_moves(pos);

  std::string out;
  if (o.format == "json") {
    out = fmt::format("{{\"variant\":{},\"fen\":{},\"depth\":{},\"nodes\":{},\"seconds\":{:.6f},\"nps\":{:.0f}",
                      json_string(info(pos.variant()).cli_name), json_string(write_fen(pos)),
                      o.depth, nodes, seconds, nps);
    if (o.divide) {
      out += ",\"divide\":[";
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i) out += ',';
        out += fmt::format("{{\"uci\":{},\"san\":{},\"nodes\":{}}}",
                           json_string(write_uci<G>(entries[i].move)),
                           json_string(write_san(pos, entries[i].move, legal)), entries[i].nodes);
      }
      out += ']';
    }
    out += "}\n";
  } else {
    if (o.divide && o.depth > 0)
      for (const auto& e : entries)
        out += fmt::format("{:<6} {:<8} {}\n", write_uci<G>(e.move), write_san(pos, e.move, legal),
                           e.nodes);
    out += fmt::format("nodes {}\nseconds {:.3f}\nnodes/s {:.0f}\n", nodes, seconds, nps);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace

int run_perft(const PerftOptions& o) {
  const auto variant = resolve_variant(o.variant);
  if (!variant) {
    spdlog::error("unknown variant '{}' (standard, virrey or modern)", o.variant);
    return kExitUsage;
  }
  if (o.depth < 0 || o.depth > 20) {
    spdlog::error("depth {} is out of range (0 to 20)", o.depth);
    return kExitUsage;
  }
  if (o.threads < 1 || o.threads > 256) {
    spdlog::error("threads {} is out of range (1 to 256)", o.threads);
    return kExitUsage;
  }
  const std::string fen = o.fen.empty() ? std::string(info(*variant).start_fen) : o.fen;
  return with_geometry(*variant, [&](auto geometry) {
    using G = decltype(geometry);
    FenProblems errors;
    auto pos = position_from_fen<G>(fen, *variant, errors);
    if (!pos) {
      spdlog::error("invalid FEN '{}': {}", fen, join_reasons(errors));
      return kExitUsage;
    }
    return perft_on(*pos, o);
  });
}

}  // namespace virrey::cli
