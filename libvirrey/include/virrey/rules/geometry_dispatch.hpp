// The one place a runtime variant picks its compile-time board geometry:
// callers pass a generic lambda, which is instantiated for each geometry.
#pragma once

#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey {

template <class F>
decltype(auto) with_geometry(Variant v, F&& f) {
  if (info(v).width == 9) return f(Board9{});
  return f(Board8{});
}

}  // namespace virrey
