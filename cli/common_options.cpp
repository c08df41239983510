#include "common_options.hpp"

#include <spdlog/spdlog.h>

namespace virrey::cli {

std::string variant_names(std::string_view last_separator) {
  std::string out;
  for (std::size_t i = 0; i < kVariants.size(); ++i) {
    if (i) out += i + 1 == kVariants.size() ? last_separator : ", ";
    out += kVariants[i].cli_name;
  }
  return out;
}

std::optional<Variant> variant_option(const std::string& name) {
  auto v = resolve_variant(name);
  if (!v) spdlog::error("unknown variant '{}' ({})", name, variant_names());
  return v;
}

bool threads_in_range(int threads, int given) {
  if (threads >= 1 && threads <= 256) return true;
  spdlog::error("threads {} is out of range (1 to 256)", given);
  return false;
}

}  // namespace virrey::cli
