#include "material_postings.hpp"

#include <algorithm>

#include <rocksdb/write_batch.h>

#include "ingest_group.hpp"
#include "rocks.hpp"
#include "varint.hpp"

namespace virrey::store {

// --- keys ---------------------------------------------------------------------------

namespace {
constexpr char kDictionaryKind = 0;
constexpr char kPostingsKind = 1;
}  // namespace

Key<10> material_dictionary_key(Variant v, std::uint64_t material) {
  Key<10> k;
  k[0] = kDictionaryKind;
  k[1] = char(v);
  put_be(k.data() + 2, material, 8);
  return k;
}

Key<1> material_complete_key() { return {char(2)}; }

Key<2> material_dictionary_prefix(Variant v) { return {kDictionaryKind, char(v)}; }

Key<10> material_postings_prefix(Variant v, std::uint64_t material) {
  Key<10> k = material_dictionary_key(v, material);
  k[0] = kPostingsKind;
  return k;
}

Key<14> material_postings_key(Variant v, std::uint64_t material, GameId first) {
  Key<14> k;
  const Key<10> p = material_postings_prefix(v, material);
  std::copy(p.begin(), p.end(), k.begin());
  put_be(k.data() + 10, first, 4);
  return k;
}

std::optional<MaterialKey> parse_material_key(std::string_view key) {
  if (key.size() == 10 && key[0] == kDictionaryKind)
    return MaterialKey{false, Variant(key[1]), get_be(key.data() + 2, 8), 0};
  if (key.size() == 14 && key[0] == kPostingsKind)
    return MaterialKey{true, Variant(key[1]), get_be(key.data() + 2, 8), GameId(get_be(key.data() + 10, 4))};
  return std::nullopt;
}

// --- values ---------------------------------------------------------------------------

void append_material_posting(std::string& value, GameId previous, const MaterialHit& hit) {
  put_varint(value, hit.game - previous);
  put_varint(value, hit.first_ply);
  put_varint(value, hit.plies);
}

bool decode_material_postings(std::string_view value, GameId first, const std::function<bool(const MaterialHit&)>& visit,
                              bool* stopped) {
  ByteReader r(value);
  std::uint64_t game = first;
  if (stopped) *stopped = false;
  while (!r.at_end()) {
    game += r.varint();
    MaterialHit hit;
    hit.first_ply = std::uint32_t(r.varint());
    hit.plies = std::uint32_t(r.varint());
    if (!r.ok() || game > 0xffffffffu) return false;
    hit.game = GameId(game);
    if (!visit(hit)) {
      if (stopped) *stopped = true;
      return false;
    }
  }
  return true;
}

// --- the builder ----------------------------------------------------------------------

void MaterialIndexBuilder::add(GameId id, const GameIndex& ix) {
  for (const MaterialEntry& e : ix.materials) {
    auto [it, fresh] = lists_.try_emplace({ix.variant, e.material.key()});
    List& l = it->second;
    if (fresh) {
      l.first = l.last = id;
      bytes_ += 96;  // the node, its key and value
    }
    const std::size_t before = l.value.size();
    append_material_posting(l.value, l.last, {id, e.first_ply, e.plies});
    l.last = id;
    bytes_ += l.value.size() - before;
  }
}

void MaterialIndexBuilder::write(IngestGroup& group) {
  for (const auto& [key, list] : lists_) {
    const auto [v, material] = key;
    group.put(Family::Material, view(material_dictionary_key(v, material)), {});
    group.put(Family::Material, view(material_postings_key(v, material, list.first)), list.value);
  }
  lists_.clear();
  bytes_ = 0;
}

void Database::Impl::mark_material_index(rocksdb::WriteBatch& batch) const {
  const auto key = material_complete_key();
  batch.Put(cf(Family::Material), rocksdb::Slice(key.data(), key.size()), rocksdb::Slice()).PermitUncheckedError();
}

// --- reads ------------------------------------------------------------------------------

bool Database::has_material_index() const { return impl_->material_index && impl_->cf(Family::Material); }

bool Database::has_summary_features() const { return impl_->summary_features; }

Status Database::for_each_material(Variant v, const Visit<std::uint64_t>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  return impl_->scan(Family::Material, view(material_dictionary_prefix(v)),
                     [&](std::string_view key, std::string_view) {
                       auto k = parse_material_key(key);
                       return !k || visit(k->material);
                     });
}

Status Database::for_each_material_game(Variant v, std::uint64_t material,
                                        const Visit<const MaterialHit&>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  Status bad;
  Status s = impl_->scan(Family::Material, view(material_postings_prefix(v, material)),
                         [&](std::string_view key, std::string_view value) {
                           auto k = parse_material_key(key);
                           if (!k) return true;
                           bool stopped = false;
                           if (decode_material_postings(value, k->first, visit, &stopped)) return true;
                           if (!stopped) bad = Error{ErrorKind::Corrupt, "a material index entry does not decode"};
                           return false;
                         });
  return s ? bad : s;
}

}  // namespace virrey::store
