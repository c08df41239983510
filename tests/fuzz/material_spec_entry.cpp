// Fuzz entry: the `--material` text. Any input parses or fails with a column
// inside the text; a spec that parses decides every balance it is asked
// about, the exact balance (if any) matches itself, and the verdict over
// runs never reports a ply outside them.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_entries.hpp"
#include "virrey/query/material_spec.hpp"

namespace virrey::fuzz {

void material_spec(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto spec = query::parse_material_spec(text);
  if (!spec) {
    const std::string& msg = spec.error().message;
    VIRREY_FUZZ_CHECK(msg.rfind("column ", 0) == 0, "an error without a column: " + msg);
    const unsigned long column = std::stoul(msg.substr(7));
    VIRREY_FUZZ_CHECK(column >= 1 && column <= size + 1, "a column outside the text: " + msg);
    return;
  }
  if (auto exact = spec->exact()) {
    VIRREY_FUZZ_CHECK(spec->matches(*exact), "the exact balance does not match: " + std::string(text));
    auto again = query::parse_material_spec(exact->to_string());
    VIRREY_FUZZ_CHECK(again && again->exact() && *again->exact() == *exact,
                      "the plain form does not read back: " + exact->to_string());
  }
  // Balances made from the input's bytes, as runs of a game.
  std::vector<query::MaterialRun> runs;
  std::uint32_t ply = 0;
  for (std::size_t i = 0; i + 8 <= size && runs.size() < 16; i += 8) {
    std::uint64_t key = 0;
    for (int b = 0; b < 8; ++b) key = key << 8 | data[i + std::size_t(b)];
    runs.push_back({Material(key), ply, std::uint32_t(1 + data[i] % 5)});
    ply += runs.back().plies + (data[i] & 1);
  }
  for (bool either : {false, true}) {
    query::MaterialCondition c{*spec, either, std::uint32_t(1 + size % 7)};
    std::vector<query::MaterialRun> copy = runs;
    if (auto at = query::material_verdict(c, copy)) {
      VIRREY_FUZZ_CHECK(!runs.empty() && *at < ply, "a verdict outside the runs");
      bool starts_a_run = false;
      for (const auto& r : runs) starts_a_run |= r.first_ply == *at && query::material_matches(c, r.material);
      VIRREY_FUZZ_CHECK(starts_a_run, "a verdict that starts no matching run");
    }
  }
}

}  // namespace virrey::fuzz
