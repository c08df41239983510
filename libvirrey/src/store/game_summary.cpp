#include "virrey/store/game_summary.hpp"

#include "virrey/store/keys.hpp"

namespace virrey::store {

namespace {
constexpr std::uint8_t kSummaryFormat = 2;
constexpr std::uint8_t kSummaryFormatV1 = 1;  // without mate by and time class
}

std::string encode_summary(const GameSummary& s) {
  const auto bytes = encode_summary_bytes(s);
  return std::string(bytes.data(), bytes.size());
}

std::array<char, kSummarySize> encode_summary_bytes(const GameSummary& s) {
  std::array<char, kSummarySize> out{};
  char* p = out.data();
  p[0] = char(kSummaryFormat);
  p[1] = char(s.variant);
  p[2] = char(s.result);
  p[3] = char(s.ending);
  put_be(p + 4, s.plies, 2);
  put_be(p + 6, s.date, 4);
  put_be(p + 10, s.white_elo, 2);
  put_be(p + 12, s.black_elo, 2);
  p[14] = char(s.promotions);
  p[15] = char(s.final_men);
  p[16] = char(s.features ? s.mate_by : 0);
  p[17] = char(s.features ? s.time_class : game::TimeClass::Unknown);
  return out;
}

std::optional<GameSummary> decode_summary(std::string_view b) {
  const bool v2 = b.size() == kSummarySize && std::uint8_t(b[0]) == kSummaryFormat;
  const bool v1 = b.size() == kSummarySizeV1 && std::uint8_t(b[0]) == kSummaryFormatV1;
  if (!v1 && !v2) return std::nullopt;
  GameSummary s;
  s.variant = Variant(b[1]);
  s.result = GameResult(b[2]);
  s.ending = Ending(b[3]);
  s.plies = std::uint16_t(get_be(b.data() + 4, 2));
  s.date = std::uint32_t(get_be(b.data() + 6, 4));
  s.white_elo = std::uint16_t(get_be(b.data() + 10, 2));
  s.black_elo = std::uint16_t(get_be(b.data() + 12, 2));
  s.promotions = std::uint8_t(b[14]);
  s.final_men = std::uint8_t(b[15]);
  s.features = v2;
  if (v2) {
    s.mate_by = std::uint8_t(b[16]);
    s.time_class = game::TimeClass(b[17]);
  }
  if (std::size_t(s.variant) >= kVariantCount || std::uint8_t(s.result) > 3 || std::uint8_t(s.ending) > 2 ||
      std::uint8_t(s.time_class) >= game::kTimeClassCount)
    return std::nullopt;
  return s;
}

std::uint32_t parse_date(std::string_view d) {
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return 0;
  auto part = [&](std::size_t from, std::size_t len) -> std::uint32_t {
    std::uint32_t v = 0;
    for (std::size_t i = from; i < from + len; ++i) {
      if (d[i] < '0' || d[i] > '9') return 0;
      v = v * 10 + std::uint32_t(d[i] - '0');
    }
    return v;
  };
  const std::uint32_t y = part(0, 4);
  if (y == 0) return 0;
  std::uint32_t m = part(5, 2), day = part(8, 2);
  if (m > 12) m = 0;
  if (m == 0 || day > 31) day = 0;
  return y * 10000 + m * 100 + day;
}

std::uint16_t parse_elo(std::string_view v) {
  if (v.empty() || v.size() > 5) return 0;
  std::uint32_t n = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + std::uint32_t(c - '0');
  }
  return n > 0xffff ? 0 : std::uint16_t(n);
}

}  // namespace virrey::store
