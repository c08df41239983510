#include "common_options.hpp"

#include <sched.h>

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

namespace {

int usable_cores() {
  // The cores this process may run on (`taskset`, a container's cpuset), as
  // `nproc` counts them: the machine's count would put two threads on one
  // pinned core, slower than one.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

int threads_or_every_core(int given) {
  const int threads = given == 0 ? std::min(usable_cores(), 256) : given;
  if (threads >= 1 && threads <= 256) {
    log::debug("{} thread{}{}", threads, threads == 1 ? "" : "s",
               given == 0 ? " (--threads 0: the cores this process may run on)" : "");
    return threads;
  }
  log::error("--threads {} is out of range (0: every core, or 1 to 256)", given);
  return 0;
}

bool no_filters_for_inputs(const std::vector<std::string>& given, std::string_view which_apply) {
  if (given.empty()) return true;
  log::error("{} {} games of the database, not of PGN inputs (of the filters, only {})",
             name_list({given.begin(), given.end()}, " and "), given.size() == 1 ? "chooses" : "choose",
             which_apply);
  return false;
}

}  // namespace virrey::cli
