#include "common_options.hpp"

#include <algorithm>
#include <thread>

#include "virrey/base/log.hpp"

namespace virrey::cli {

std::string name_list(const std::vector<std::string_view>& names, std::string_view last_separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? last_separator : ", ";
    out += names[i];
  }
  return out;
}

std::string variant_names(std::string_view last_separator) {
  std::vector<std::string_view> names;
  for (const VariantInfo& v : kVariants) names.push_back(v.cli_name);
  return name_list(names, last_separator);
}

std::optional<Variant> variant_option(const std::string& name) {
  auto v = resolve_variant(name);
  if (!v) log::error("unknown variant '{}' ({})", name, variant_names());
  return v;
}

bool threads_in_range(int threads, std::string_view option) {
  if (threads >= 1 && threads <= 256) return true;
  log::error("{} {} is out of range (1 to 256)", option, threads);
  return false;
}

int threads_or_every_core(int given) {
  const int threads = given == 0 ? int(std::max(1u, std::thread::hardware_concurrency())) : given;
  if (threads >= 1 && threads <= 256) return threads;
  log::error("--threads {} is out of range (0: every core, or 1 to 256)", given);
  return 0;
}

}  // namespace virrey::cli
