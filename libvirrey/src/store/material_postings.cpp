#include "material_postings.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "ingest_group.hpp"
#include "rocks.hpp"
#include "varint.hpp"

namespace virrey::store {

// --- keys ---------------------------------------------------------------------------

namespace {
constexpr char kDictionaryKind = 0;
constexpr char kPostingsKind = 1;
constexpr char kOrderedKind = 3;

// The counts of the search order, most significant nibble first.
struct Count {
  Color side;
  PieceType type;
};
constexpr Count kSearchOrder[16] = {{Color::White, PieceType::Viceroy},  {Color::Black, PieceType::Viceroy},
                                    {Color::White, PieceType::Minister}, {Color::Black, PieceType::Minister},
                                    {Color::White, PieceType::Queen},    {Color::Black, PieceType::Queen},
                                    {Color::White, PieceType::Rook},     {Color::Black, PieceType::Rook},
                                    {Color::White, PieceType::Bishop},   {Color::Black, PieceType::Bishop},
                                    {Color::White, PieceType::Knight},   {Color::Black, PieceType::Knight},
                                    {Color::White, PieceType::Pawn},     {Color::Black, PieceType::Pawn},
                                    {Color::White, PieceType::King},     {Color::Black, PieceType::King}};
constexpr int order_shift(int i) { return 60 - 4 * i; }
int nibble(std::uint64_t ordered, int i) { return int(ordered >> order_shift(i) & 0xf); }
}  // namespace

std::uint64_t material_search_order(std::uint64_t material) {
  const Material m(material);
  std::uint64_t out = 0;
  for (int i = 0; i < 16; ++i)
    out |= std::uint64_t(m.count(kSearchOrder[i].side, kSearchOrder[i].type)) << order_shift(i);
  return out;
}

std::uint64_t material_from_search_order(std::uint64_t ordered) {
  Material m;
  for (int i = 0; i < 16; ++i) m.set(kSearchOrder[i].side, kSearchOrder[i].type, nibble(ordered, i));
  return m.key();
}

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

Key<10> material_ordered_key(Variant v, std::uint64_t material) {
  Key<10> k;
  k[0] = kOrderedKind;
  k[1] = char(v);
  put_be(k.data() + 2, material_search_order(material), 8);
  return k;
}

Key<2> material_ordered_prefix(Variant v) { return {kOrderedKind, char(v)}; }

Key<1> material_ordered_complete_key() { return {char(4)}; }

std::optional<MaterialKey> parse_material_key(std::string_view key) {
  if (key.size() == 10 && key[0] == kDictionaryKind)
    return MaterialKey{false, Variant(key[1]), get_be(key.data() + 2, 8), 0};
  if (key.size() == 14 && key[0] == kPostingsKind)
    return MaterialKey{true, Variant(key[1]), get_be(key.data() + 2, 8), GameId(get_be(key.data() + 10, 4))};
  if (key.size() == 10 && key[0] == kOrderedKind)
    return MaterialKey{false, Variant(key[1]), material_from_search_order(get_be(key.data() + 2, 8)), 0,
                       true};
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
    group.put(Family::Material, view(material_ordered_key(v, material)), {});
    group.put(Family::Material, view(material_postings_key(v, material, list.first)), list.value);
  }
  lists_.clear();
  bytes_ = 0;
}

void Database::Impl::mark_material_index(rocksdb::WriteBatch& batch) const {
  for (const auto& key : {material_complete_key(), material_ordered_complete_key()})
    batch.Put(cf(Family::Material), rocksdb::Slice(key.data(), key.size()), rocksdb::Slice())
        .PermitUncheckedError();
}

Status Database::Impl::order_material_dictionary() {
  rocksdb::WriteBatch batch;
  Status s = scan(
      Family::Material, std::string_view(&kDictionaryKind, 1), [&](std::string_view key, std::string_view) {
        if (auto k = parse_material_key(key); k && !k->postings) {
          const auto ordered = material_ordered_key(k->variant, k->material);
          batch.Put(cf(Family::Material), rocksdb::Slice(ordered.data(), ordered.size()), rocksdb::Slice())
              .PermitUncheckedError();
        }
        return true;
      });
  if (!s) return s;
  const auto mark = material_ordered_complete_key();
  batch.Put(cf(Family::Material), rocksdb::Slice(mark.data(), mark.size()), rocksdb::Slice())
      .PermitUncheckedError();
  if (Status w = write(batch); !w) return w;
  material_ordered = true;
  return {};
}

// --- reads ------------------------------------------------------------------------------

bool Database::has_material_index() const { return impl_->material_index && impl_->cf(Family::Material); }

bool Database::has_material_order() const { return has_material_index() && impl_->material_ordered; }

bool Database::has_summary_features() const { return impl_->summary_features; }

Status Database::for_each_material(Variant v, const Visit<std::uint64_t>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  return impl_->scan(Family::Material, view(material_dictionary_prefix(v)),
                     [&](std::string_view key, std::string_view) {
                       auto k = parse_material_key(key);
                       return !k || visit(k->material);
                     });
}

Status Database::for_each_material_within(Variant v, const MaterialBounds& box,
                                          const Visit<std::uint64_t>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  if (!impl_->material_ordered)
    return for_each_material(v,
                             [&](std::uint64_t key) { return !box.contains(Material(key)) || visit(key); });
  // A skip scan: at a balance outside the box, the first count (in search
  // order) out of its bounds says where the next balance inside can be.
  int lo[16], hi[16];
  std::uint64_t least = 0;
  for (int i = 0; i < 16; ++i) {
    lo[i] = box.lo[index(kSearchOrder[i].side)][index(kSearchOrder[i].type)];
    hi[i] = std::min<int>(box.hi[index(kSearchOrder[i].side)][index(kSearchOrder[i].type)], 15);
    if (lo[i] > hi[i]) return {};
    least |= std::uint64_t(lo[i]) << order_shift(i);
  }
  // The least balance that keeps counts 0 .. j - 1 of `at`, has `count` at j,
  // and is within the box below j.
  auto from = [&](std::uint64_t at, int j, int count) {
    const std::uint64_t keep = j == 0 ? 0 : ~std::uint64_t(0) << (64 - 4 * j);
    const std::uint64_t below = j == 15 ? 0 : least & (~std::uint64_t(0) >> (4 * (j + 1)));
    return (at & keep) | std::uint64_t(count) << order_shift(j) | below;
  };
  const Key<2> prefix = material_ordered_prefix(v);
  const std::string upper = prefix_successor(view(prefix));
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions ro = impl_->read_options();
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->cf(Family::Material)));
  auto seek = [&](std::uint64_t ordered) {
    Key<10> k = material_ordered_key(v, 0);
    put_be(k.data() + 2, ordered, 8);
    it->Seek(rocksdb::Slice(k.data(), k.size()));
  };
  for (seek(least); it->Valid();) {
    const rocksdb::Slice k = it->key();
    if (k.size() != 10) {
      it->Next();
      continue;
    }
    const std::uint64_t at = get_be(k.data() + 2, 8);
    int i = 0;
    while (i < 16 && nibble(at, i) >= lo[i] && nibble(at, i) <= hi[i]) ++i;
    if (i == 16) {
      if (!visit(material_from_search_order(at))) return {};
      it->Next();
      continue;
    }
    if (nibble(at, i) < lo[i]) {
      seek(from(at, i, lo[i]));
      continue;
    }
    // Count i is past its bound: the next prefix that can still grow.
    int j = i - 1;
    while (j >= 0 && nibble(at, j) >= hi[j]) --j;
    if (j < 0) break;
    seek(from(at, j, nibble(at, j) + 1));
  }
  if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", impl_->path));
  return {};
}

Status Database::for_each_material_game(Variant v, std::uint64_t material,
                                        const Visit<const MaterialHit&>& visit) const {
  return for_each_material_games(v, {material},
                                 [&](std::uint64_t, const MaterialHit& h) { return visit(h); });
}

Status Database::for_each_material_games(Variant v, const std::vector<std::uint64_t>& materials,
                                         const Visit<std::uint64_t, const MaterialHit&>& visit) const {
  if (!impl_->cf(Family::Material) || materials.empty()) return {};
  const std::string upper = prefix_successor(view(material_postings_prefix(v, materials.back())));
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions ro = impl_->read_options();
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->cf(Family::Material)));
  for (std::uint64_t material : materials) {
    const Key<10> prefix = material_postings_prefix(v, material);
    for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
      const std::string_view key(it->key().data(), it->key().size());
      if (key.substr(0, prefix.size()) != view(prefix)) break;
      auto k = parse_material_key(key);
      if (!k) continue;
      bool stopped = false;
      const std::string_view value(it->value().data(), it->value().size());
      if (decode_material_postings(
              value, k->first, [&](const MaterialHit& h) { return visit(material, h); }, &stopped))
        continue;
      if (stopped) return {};
      return Error{ErrorKind::Corrupt, "a material index entry does not decode"};
    }
    if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", impl_->path));
  }
  return {};
}

}  // namespace virrey::store
