#pragma once

#include <utility>

#include <fmt/format.h>

#include "virrey/rules/position.hpp"

namespace virrey::detail {

// Appends a problem, its message formatted here: out of line and marked cold,
// so that the checks of a valid FEN carry no formatting code. Arguments are
// taken by value: a reference would keep the caller's counters in memory.
template <class... Args>
[[gnu::cold, gnu::noinline]] void add_problem(FenProblems& problems, FenError code,
                                              fmt::format_string<Args...> format, Args... args) {
  problems.push_back({code, fmt::format(format, std::move(args)...)});
}

}  // namespace virrey::detail
