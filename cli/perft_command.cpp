#include "perft_command.hpp"

#include <chrono>
#include <cstdio>

#include <fmt/format.h>
#include "virrey/base/log.hpp"

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "text_table.hpp"
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
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t nodes = 0;
  for (const auto& e : entries) nodes += e.nodes;
  if (o.depth == 0) nodes = 1;
  const double nps = seconds > 0 ? double(nodes) / seconds : 0.0;
  const MoveList legal = legal_moves(pos);

  std::string out;
  if (o.format == Format::Json) {
    Members m = {{"variant", Value::string(info(pos.variant()).cli_name)},
                 {"fen", Value::string(write_fen(pos))},
                 {"depth", Value::integer(o.depth)},
                 {"nodes", Value::integer(nodes)},
                 {"seconds", Value::number(seconds, 6)},
                 {"nps", Value::number(nps, 0)}};
    if (o.divide) {
      std::vector<Value> divide;
      for (const auto& e : entries)
        divide.push_back(Value::object({{"uci", Value::string(write_uci<G>(e.move))},
                                        {"san", Value::string(write_san(pos, e.move, legal))},
                                        {"nodes", Value::integer(e.nodes)}}));
      m.push_back({"divide", Value::list(std::move(divide))});
    }
    out = json(m) + '\n';
  } else {
    if (o.divide && o.depth > 0) {
      using Align = TextTable::Align;
      TextTable divide({{"", Align::Left, 6}, {"", Align::Left, 8}, {"", Align::Left}}, " ");
      for (const auto& e : entries)
        divide.add({write_uci<G>(e.move), write_san(pos, e.move, legal), fmt::format("{}", e.nodes)});
      out += divide.render_rows();
    }
    out += fmt::format("nodes {}\nseconds {:.3f}\nnodes/s {:.0f}\n", nodes, seconds, nps);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace

int run_perft(const PerftOptions& o) {
  const auto variant = variant_option(o.variant);
  if (!variant) return kExitUsage;
  if (o.depth < 0 || o.depth > 20) {
    log::error("depth {} is out of range (0 to 20)", o.depth);
    return kExitUsage;
  }
  if (!threads_in_range(o.threads)) return kExitUsage;
  const std::string fen = o.fen.empty() ? std::string(info(*variant).start_fen) : o.fen;
  return with_geometry(*variant, [&](auto geometry) {
    using G = decltype(geometry);
    FenProblems errors;
    auto pos = position_from_fen<G>(fen, *variant, errors);
    if (!pos) {
      log::error("invalid FEN '{}': {}", fen, join_reasons(errors));
      return kExitUsage;
    }
    return perft_on(*pos, o);
  });
}

}  // namespace virrey::cli
