#include "virrey/store/keys.hpp"

#include "virrey/base/letter_case.hpp"
#include "virrey/base/utf8.hpp"

namespace virrey::store {

void put_be(char* out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) {
    out[i] = char(value & 0xff);
    value >>= 8;
  }
}

std::uint64_t get_be(const char* in, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | std::uint8_t(in[i]);
  return v;
}

Key<4> game_key(GameId id) {
  Key<4> k;
  put_be(k.data(), id, 4);
  return k;
}

GameId game_key_id(std::string_view key) { return key.size() == 4 ? GameId(get_be(key.data(), 4)) : 0; }

std::uint32_t position_bucket(std::uint64_t hash) {
  return std::uint32_t(hash >> (64 - kPositionBucketBits));
}

Key<3> position_prefix(Variant v, std::uint64_t hash) {
  Key<3> k;
  k[0] = char(v);
  put_be(k.data() + 1, position_bucket(hash), 2);
  return k;
}

Key<7> position_key(Variant v, std::uint64_t hash, GameId first) {
  Key<7> k;
  k[0] = char(v);
  put_be(k.data() + 1, position_bucket(hash), 2);
  put_be(k.data() + 3, first, 4);
  return k;
}

std::optional<PositionKey> parse_position_key(std::string_view key) {
  if (key.size() != 7) return std::nullopt;
  return PositionKey{Variant(key[0]), std::uint32_t(get_be(key.data() + 1, 2)),
                     GameId(get_be(key.data() + 3, 4))};
}

Key<8> tree_prefix(Variant v, std::uint64_t hash) {
  Key<8> k;
  k[0] = char(v);
  put_be(k.data() + 1, hash >> 8, kTreeHashBytes);
  return k;
}

Key<11> tree_key(Variant v, std::uint64_t hash, Move m) {
  Key<11> k;
  k[0] = char(v);
  put_be(k.data() + 1, hash >> 8, kTreeHashBytes);
  const Key<3> mb = move_bytes(m);
  k[8] = mb[0];
  k[9] = mb[1];
  k[10] = mb[2];
  return k;
}

std::string normalize_tag_value(std::string_view value) { return folded_text(value); }

bool is_placeholder_tag_value(TagField f, std::string_view normalized) {
  if (normalized.empty() || normalized == "?" || normalized == "-") return true;
  if (f == TagField::Date) return normalized.find_first_not_of("?.") == std::string_view::npos;
  return false;
}

TagKeyForms tag_key_forms(std::string_view normalized) {
  TagKeyForms out;
  out.forms.emplace_back();
  std::vector<std::string> alternatives;
  for (std::size_t i = 0; i < normalized.size();) {
    const DecodedChar d = decode_utf8_at(normalized, i);
    alternatives.assign(1, std::string(normalized.substr(i, d.bytes)));
    i += d.bytes;
    if (d.bytes > 1)
      for (char32_t capital : letters_folding_to(d.code)) {
        if (capital < 0x100) continue;  // folded in every database
        char bytes[4];
        alternatives.emplace_back(bytes, encode_utf8(capital, bytes));
      }
    if (alternatives.size() == 1) {
      for (std::string& form : out.forms) form += alternatives[0];
      continue;
    }
    if (out.forms.size() * alternatives.size() > kMaxTagKeyForms) {
      out.cut = true;
      break;
    }
    std::vector<std::string> next;
    next.reserve(out.forms.size() * alternatives.size());
    for (const std::string& form : out.forms)
      for (const std::string& a : alternatives) next.push_back(form + a);
    out.forms = std::move(next);
  }
  return out;
}

std::string tag_value_prefix(TagField f, std::string_view normalized) {
  std::string k;
  k.reserve(normalized.size() + 6);
  k += char(f);
  k += normalized;
  return k;
}

void append_tag_exact_prefix(std::string& out, TagField f, std::string_view normalized) {
  out += char(f);
  out += normalized;
  out += '\0';
}

std::string tag_exact_prefix(TagField f, std::string_view normalized) {
  std::string k;
  k.reserve(normalized.size() + 6);
  append_tag_exact_prefix(k, f, normalized);
  return k;
}

std::string tag_key(TagField f, std::string_view normalized, GameId id) {
  std::string k = tag_exact_prefix(f, normalized);
  const Key<4> g = game_key(id);
  k.append(g.data(), 4);
  return k;
}

std::optional<TagKey> parse_tag_key(std::string_view key) {
  if (key.size() < 6 || key[key.size() - 5] != '\0') return std::nullopt;
  return TagKey{TagField(key[0]), key.substr(1, key.size() - 6),
                GameId(get_be(key.data() + key.size() - 4, 4))};
}

Key<10> promotion_key(Variant v, PieceType piece, Color colour, int file, GameId id, std::uint32_t ply) {
  Key<10> k;
  k[0] = char(v);
  k[1] = char(piece);
  k[2] = char(colour);
  k[3] = char(file);
  put_be(k.data() + 4, id, 4);
  put_be(k.data() + 8, ply > 0xffff ? 0xffff : ply, 2);
  return k;
}

std::optional<PromotionKey> parse_promotion_key(std::string_view key) {
  if (key.size() != 10) return std::nullopt;
  return PromotionKey{Variant(key[0]),
                      PieceType(key[1]),
                      Color(key[2]),
                      int(std::uint8_t(key[3])),
                      GameId(get_be(key.data() + 4, 4)),
                      std::uint32_t(get_be(key.data() + 8, 2))};
}

Key<9> identity_prefix(Variant v, std::uint64_t identity) {
  Key<9> k;
  k[0] = char(v);
  put_be(k.data() + 1, identity, 8);
  return k;
}

Key<13> identity_key(Variant v, std::uint64_t identity, GameId id) {
  Key<13> k;
  k[0] = char(v);
  put_be(k.data() + 1, identity, 8);
  put_be(k.data() + 9, id, 4);
  return k;
}

Key<5> opening_game_key(GameId id) {
  Key<5> k{};
  put_be(k.data() + 1, id, 4);
  return k;
}
Key<1> opening_game_prefix() { return {0}; }
Key<10> opening_book_key(Variant v, std::uint64_t hash) {
  Key<10> k{1, char(v)};
  put_be(k.data() + 2, hash, 8);
  return k;
}
Key<1> opening_book_prefix() { return {1}; }
Key<1> opening_source_key() { return {2}; }

Key<7> square_block_key(Variant v, std::uint8_t square, GameId first) {
  Key<7> k{1, char(v), char(square)};
  put_be(k.data() + 3, first, 4);
  return k;
}
Key<3> square_block_prefix(Variant v, std::uint8_t square) { return {1, char(v), char(square)}; }
Key<1> square_blocks_prefix() { return {1}; }
Key<1> square_covered_key() { return {2}; }

Key<1> meta_key(MetaKey k) { return {char(k)}; }
Key<2> meta_key(MetaKey k, Variant v) { return {char(k), char(v)}; }

}  // namespace virrey::store
