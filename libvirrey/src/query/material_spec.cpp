// The `--material` text (material_spec.hpp) and the verdict over a game's runs.
#include "virrey/query/material_spec.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

#include <fmt/format.h>

namespace virrey::query {

namespace {

constexpr std::string_view kLetters = "KQRBNPVM";

Error at(std::size_t column, std::string message) {
  return Error{ErrorKind::InvalidArgument, fmt::format("column {}: {}", column + 1, message)};
}

bool is_letter(char c) { return kLetters.find(char(c & ~0x20)) != std::string_view::npos && c != '\0'; }

// An exact group of letters (one side's men): counts per type, K defaults to 1.
Result<std::array<int, kPieceTypeCount>> group_counts(std::string_view g, std::size_t offset) {
  std::array<int, kPieceTypeCount> n{};
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!is_letter(g[i]))
      return at(offset + i, fmt::format("'{}' is not a piece letter (K Q R B N P V M)", g[i]));
    const PieceType pt = piece_type_from_letter(g[i]);
    if (++n[index(pt)] > Material::kMaxCount) return at(offset + i, "more than 15 men of one type");
  }
  if (n[index(PieceType::King)] > 1) return at(offset, "a side has one king");
  n[index(PieceType::King)] = 1;
  return n;
}

}  // namespace

MaterialSpec::MaterialSpec() = default;

bool MaterialSpec::matches(Material m) const {
  if (!box_.contains(m)) return false;
  for (const Sum& s : sums_) {
    int n = 0;
    for (int t = 1; t < kPieceTypeCount; ++t)
      if (s.types >> t & 1) n += m.count(s.side, PieceType(t));
    if (n < s.lo || n > s.hi) return false;
  }
  return true;
}

std::optional<Material> MaterialSpec::exact() const {
  Material m;
  for (Color c : {Color::White, Color::Black})
    for (int t = 1; t < kPieceTypeCount; ++t) {
      if (box_.lo[index(c)][t] != box_.hi[index(c)][t]) return std::nullopt;
      m.set(c, PieceType(t), box_.lo[index(c)][t]);
    }
  if (!matches(m)) return std::nullopt;  // a sum rules it out
  return m;
}

Result<MaterialSpec> parse_material_spec(std::string_view text) {
  MaterialSpec spec;
  auto fix_side = [&](Color c, const std::array<int, kPieceTypeCount>& n) {
    for (int t = 1; t < kPieceTypeCount; ++t)
      spec.box_.lo[index(c)][t] = spec.box_.hi[index(c)][t] = std::uint8_t(n[std::size_t(t)]);
  };
  if (text.find_first_not_of(" \t") == std::string_view::npos) return at(0, "the material is empty");
  // The plain form: one word of letters with a dash.
  const bool plain = text.find_first_of(" \t=<>+") == std::string_view::npos && text.find('-') != std::string_view::npos;
  if (plain) {
    const std::size_t dash = text.find('-');
    if (text.find('-', dash + 1) != std::string_view::npos)
      return at(text.find('-', dash + 1), "one dash only, between White's men and Black's");
    auto w = group_counts(text.substr(0, dash), 0);
    if (!w) return w.error();
    auto b = group_counts(text.substr(dash + 1), dash + 1);
    if (!b) return b.error();
    fix_side(Color::White, *w);
    fix_side(Color::Black, *b);
    return spec;
  }

  Color side = Color::White;
  bool seen_vs = false;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      ++i;
      continue;
    }
    std::size_t end = text.find_first_of(" \t", i);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(i, end - i);
    const std::size_t col = i;
    i = end;
    if (word == "vs" || word == "VS" || word == "-") {
      if (seen_vs) return at(col, "'vs' twice: terms before it are White's, after it Black's");
      seen_vs = true;
      side = Color::Black;
      continue;
    }
    // Piece letters, joined by '+' for a sum.
    std::size_t p = 0;
    std::uint16_t types = 0;
    int letters = 0;
    bool plus = false;
    while (p < word.size() && (is_letter(word[p]) || word[p] == '+')) {
      if (word[p] == '+') {
        if (letters == 0 || plus) return at(col + p, "'+' joins two piece letters");
        plus = true;
      } else {
        if (letters > 0 && !plus && word.find_first_of("=<>", p) != std::string_view::npos)
          return at(col + p, "join piece types with '+' (B+N>=2)");
        types |= std::uint16_t(1u << index(piece_type_from_letter(word[p])));
        ++letters;
        plus = false;
      }
      ++p;
    }
    if (letters == 0)
      return at(col, fmt::format("expected piece letters (K Q R B N P V M) or 'vs', not '{}'", word[0]));
    if (plus) return at(col + p - 1, "'+' joins two piece letters");
    if (p == word.size()) {
      // A bare group: that side exactly.
      auto n = group_counts(word, col);
      if (!n) return n.error();
      fix_side(side, *n);
      continue;
    }
    // Operator and count (or range).
    std::string_view op;
    for (std::string_view o : {">=", "<=", "=", ">", "<"})
      if (word.substr(p, o.size()) == o) {
        op = o;
        break;
      }
    if (op.empty()) return at(col + p, fmt::format("expected =, >=, <=, > or < after the piece letters, not '{}'", word[p]));
    p += op.size();
    auto number = [&](int& out) -> std::optional<Error> {
      const char* b = word.data() + p;
      const char* e = word.data() + word.size();
      if (b == e || *b < '0' || *b > '9') return at(col + p, "expected a count (a whole number, 0 or more)");
      auto r = std::from_chars(b, e, out);
      if (r.ec == std::errc::result_out_of_range) return at(col + p, "the count is too large");
      if (r.ec != std::errc() || r.ptr == b) return at(col + p, "expected a count");
      p += std::size_t(r.ptr - b);
      return std::nullopt;
    };
    int lo = 0, hi = 0;
    if (auto e = number(lo)) return *e;
    hi = lo;
    if (op == "=" && p < word.size() && word[p] == '-') {
      ++p;
      if (auto e = number(hi)) return *e;
      if (hi < lo) return at(col, fmt::format("the range {}-{} is empty", lo, hi));
    }
    if (p != word.size()) return at(col + p, fmt::format("unexpected '{}' after the count", word[p]));
    const int top = Material::kMaxCount * letters;
    if (op == ">=") hi = top;
    if (op == "<=") lo = 0;
    if (op == ">") lo = lo + 1, hi = top;
    if (op == "<") {
      if (lo == 0) return at(col, "fewer than 0 men");
      hi = lo - 1, lo = 0;
    }
    if (lo > top) return at(col, fmt::format("more than {} men", top));
    hi = std::min(hi, top);
    if (letters == 1) {
      const int t = std::countr_zero(unsigned(types));
      if (t == index(PieceType::King) && (lo > 1 || hi < 1)) return at(col, "a side has one king");
      auto& mn = spec.box_.lo[index(side)][t];
      auto& mx = spec.box_.hi[index(side)][t];
      mn = std::uint8_t(std::max<int>(mn, lo));
      mx = std::uint8_t(std::min<int>(mx, hi));
      if (mn > mx) return at(col, "contradicts an earlier term of this side");
    } else {
      spec.sums_.push_back({side, types, lo, hi});
    }
  }
  return spec;
}

bool material_matches(const MaterialCondition& c, Material m) {
  return c.spec.matches(m) || (c.either_colour && c.spec.matches(m.flipped()));
}

std::optional<std::uint32_t> material_verdict(const MaterialCondition& c, std::vector<MaterialRun>& runs) {
  std::sort(runs.begin(), runs.end(),
            [](const MaterialRun& a, const MaterialRun& b) { return a.first_ply < b.first_ply; });
  const std::uint32_t need = std::max<std::uint32_t>(c.min_plies, 1);
  std::optional<std::uint32_t> best;
  for (bool flip : {false, true}) {
    if (flip && !c.either_colour) break;
    bool open = false;
    std::uint32_t start = 0, end = 0;  // the stretch: plies start .. end - 1
    for (const MaterialRun& r : runs) {
      if (!c.spec.matches(flip ? r.material.flipped() : r.material)) {
        open = false;
        continue;
      }
      if (!open || r.first_ply != end) start = r.first_ply;
      open = true;
      end = r.first_ply + r.plies;
      if (end - start >= need) {
        if (!best || start < *best) best = start;
        break;
      }
    }
  }
  return best;
}

}  // namespace virrey::query
