#include "material_postings.hpp"

#include <algorithm>
#include <bit>
#include <deque>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/write_batch.h>

#include "bit_stream.hpp"
#include "ingest_group.hpp"
#include "rocks.hpp"
#include "varint.hpp"

namespace virrey::store {

// --- keys ---------------------------------------------------------------------------

namespace {
constexpr char kDictionaryKind = 0;
constexpr char kOldPostingsKind = 1;
constexpr char kOrderedKind = 3;
constexpr char kPostingsKind = 5;

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

Key<10> material_old_postings_prefix(Variant v, std::uint64_t material) {
  Key<10> k = material_dictionary_key(v, material);
  k[0] = kOldPostingsKind;
  return k;
}

namespace {
Key<14> with_first(const Key<10>& prefix, GameId first) {
  Key<14> k;
  std::copy(prefix.begin(), prefix.end(), k.begin());
  put_be(k.data() + 10, first, 4);
  return k;
}
}  // namespace

Key<14> material_old_postings_key(Variant v, std::uint64_t material, GameId first) {
  return with_first(material_old_postings_prefix(v, material), first);
}

Key<10> material_postings_prefix(Variant v, std::uint64_t material) {
  Key<10> k = material_ordered_key(v, material);
  k[0] = kPostingsKind;
  return k;
}

Key<14> material_postings_key(Variant v, std::uint64_t material, GameId first) {
  return with_first(material_postings_prefix(v, material), first);
}

Key<2> material_postings_variant_prefix(Variant v) { return {kPostingsKind, char(v)}; }

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
  if (key.size() == 14 && key[0] == kOldPostingsKind)
    return MaterialKey{true, Variant(key[1]), get_be(key.data() + 2, 8), GameId(get_be(key.data() + 10, 4))};
  if (key.size() == 14 && key[0] == kPostingsKind)
    return MaterialKey{true, Variant(key[1]), material_from_search_order(get_be(key.data() + 2, 8)),
                       GameId(get_be(key.data() + 10, 4)), true};
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

namespace {
constexpr std::size_t kVarintRunGames = 2;  // runs this short keep varints

// The Rice parameter that codes the values in the fewest bits: near
// log2 of their mean, so the three around it are tried.
int best_rice(const std::vector<std::uint32_t>& values) {
  std::uint64_t sum = 0;
  for (std::uint32_t v : values) sum += v;
  const std::uint64_t mean = values.empty() ? 0 : sum / values.size();
  const int around = std::bit_width(mean);
  int best_k = 0;
  std::uint64_t best = ~std::uint64_t(0);
  for (int k = std::max(0, around - 2); k <= std::min(around, 23); ++k) {
    std::uint64_t bits = 0;
    for (std::uint32_t v : values) bits += (v >> k) + 1 + std::uint64_t(k);
    if (bits < best) best = bits, best_k = k;
  }
  return best_k;
}

bool decode_old_postings(std::string_view value, GameId first,
                         const std::function<bool(const MaterialHit&)>& visit, bool* stopped) {
  ByteReader r(value);
  std::uint64_t game = first;
  while (!r.at_end()) {
    game += r.varint();
    MaterialHit hit;
    const std::uint64_t first_ply = r.varint(), plies = r.varint();
    if (!r.ok() || game > 0xffffffffu || first_ply > 0xffffffffu || plies > 0xffffffffu) return false;
    hit = {GameId(game), std::uint32_t(first_ply), std::uint32_t(plies)};
    if (!visit(hit)) return *stopped = true, false;
  }
  return true;
}
}  // namespace

void encode_material_run(std::string& out, GameId first, std::span<const MaterialHit> hits) {
  if (hits.empty()) return;
  put_varint(out, hits.size());
  put_varint(out, hits.front().game - first);
  if (hits.size() <= kVarintRunGames) {
    put_varint(out, hits.front().first_ply);
    put_varint(out, hits.front().plies);
    for (std::size_t i = 1; i < hits.size(); ++i) append_material_posting(out, hits[i - 1].game, hits[i]);
    return;
  }
  // The thread's scratch lists: a builder or a merge codes many runs.
  thread_local std::vector<std::uint32_t> gaps, firsts, plies;
  gaps.clear(), firsts.clear(), plies.clear();
  gaps.reserve(hits.size()), firsts.reserve(hits.size()), plies.reserve(hits.size());
  std::uint32_t least = ~std::uint32_t(0);
  for (const MaterialHit& h : hits) least = std::min(least, h.first_ply);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (i > 0) gaps.push_back(hits[i].game - hits[i - 1].game - 1);
    firsts.push_back(hits[i].first_ply - least);
    plies.push_back(hits[i].plies - 1);  // a balance holds for a ply at least
  }
  const int kg = best_rice(gaps), kf = best_rice(firsts), kp = best_rice(plies);
  out += char(kg);
  out += char(kf);
  out += char(kp);
  put_varint(out, least);
  BitWriter w(out);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    if (i > 0) w.rice(gaps[i - 1], kg);
    w.rice(firsts[i], kf);
    w.rice(plies[i], kp);
  }
}

bool decode_material_postings(std::string_view value, GameId first,
                              const std::function<bool(const MaterialHit&)>& visit, bool* stopped,
                              bool runs) {
  bool unused = false;
  if (!stopped) stopped = &unused;
  *stopped = false;
  if (!runs) return decode_old_postings(value, first, visit, stopped);
  auto deliver = [&](std::uint64_t game, std::uint64_t first_ply, std::uint64_t plies) {
    if (game > 0xffffffffu || first_ply > 0xffffffffu || plies > 0xffffffffu) return false;
    if (visit(MaterialHit{GameId(game), std::uint32_t(first_ply), std::uint32_t(plies)})) return true;
    *stopped = true;
    return false;
  };
  if (value.empty()) return false;  // a value holds a run at least
  std::uint64_t last = 0;           // of the run before; runs follow in id order
  for (bool first_run = true; !value.empty(); first_run = false) {
    ByteReader r(value);
    const std::uint64_t n = r.varint();
    std::uint64_t game = first + r.varint();
    if (!r.ok() || n == 0 || n > value.size() * 8 || (!first_run && game <= last)) return false;
    if (n <= kVarintRunGames) {
      for (std::uint64_t i = 0; i < n; ++i) {
        if (i > 0) game += r.varint();
        const std::uint64_t first_ply = r.varint(), plies = r.varint();
        if (!r.ok() || !deliver(game, first_ply, plies)) return false;
      }
      last = game;
      value.remove_prefix(r.position());
      continue;
    }
    const int kg = r.byte(), kf = r.byte(), kp = r.byte();
    const std::uint64_t least = r.varint();
    if (!r.ok() || kg > 31 || kf > 31 || kp > 31 || least > 0xffffffffu) return false;
    BitReader bits(value.substr(r.position()));
    for (std::uint64_t i = 0; i < n; ++i) {
      if (i > 0) game += bits.rice(kg) + 1;
      const std::uint64_t first_ply = least + bits.rice(kf), plies = bits.rice(kp) + 1;
      if (!bits.ok() || !deliver(game, first_ply, plies)) return false;
    }
    last = game;
    value.remove_prefix(r.position() + bits.bytes_read());
  }
  return true;
}

// --- the merge operator: an import's runs of a balance, one value --------------------

namespace {

// Runs are re-coded as one while their value is this small; larger ones are
// joined as they are (each run costs a few bytes; re-coding costs a decode).
constexpr std::size_t kRecodeBytes = 64 << 10;

class MaterialMergeOperator final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return "virrey.material_runs"; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    if (keep_lone_operand(in, out)) return true;
    std::vector<rocksdb::Slice> parts;
    if (in.existing_value) parts.push_back(*in.existing_value);
    parts.insert(parts.end(), in.operand_list.begin(), in.operand_list.end());
    return join(in.key, parts, out->new_value);
  }
  bool PartialMergeMulti(const rocksdb::Slice& key, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger*) const override {
    return join(key, std::vector<rocksdb::Slice>(operands.begin(), operands.end()), *new_value);
  }

 private:
  // The parts, oldest first, each runs of later games than the one before.
  static bool join(const rocksdb::Slice& key, const std::vector<rocksdb::Slice>& parts, std::string& out) {
    out.clear();
    std::size_t bytes = 0;
    for (const rocksdb::Slice& p : parts) bytes += p.size();
    const auto k = parse_material_key(std::string_view(key.data(), key.size()));
    if (bytes > kRecodeBytes || !k || !k->postings) {
      out.reserve(bytes);
      for (const rocksdb::Slice& p : parts) out.append(p.data(), p.size());
      return true;
    }
    std::vector<MaterialHit> hits;
    for (const rocksdb::Slice& p : parts)
      if (!decode_material_postings(std::string_view(p.data(), p.size()), k->first,
                                    [&](const MaterialHit& h) {
                                      hits.push_back(h);
                                      return true;
                                    }))
        return false;
    encode_material_run(out, k->first, hits);
    return true;
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> make_material_merge_operator() {
  return std::make_shared<MaterialMergeOperator>();
}

// --- the builder ----------------------------------------------------------------------

void MaterialIndexBuilder::add(GameId id, const GameIndex& ix) {
  for (const MaterialEntry& e : ix.materials) {
    auto [it, fresh] = lists_.try_emplace({ix.variant, e.material.key()});
    if (fresh) bytes_ += 96;  // the node, its key and value
    it->second.push_back({id, e.first_ply, e.plies});
    bytes_ += 4;  // about what a game takes coded (it holds 12 bytes here)
  }
}

void MaterialIndexBuilder::write(IngestGroup& group, GameId key_first) {
  std::string value;
  for (const auto& [key, hits] : lists_) {
    value.clear();
    encode_material_run(value, key_first, hits);
    group.merge(Family::Material, view(material_postings_key(key.first, key.second, key_first)), value);
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

namespace {

// Every key of one kind in search order (3: the old layout's dictionary; 5:
// postings, several keys a balance) whose balance is within the box, in key
// order: visit(balance in search order, first game, value). A skip scan: at a
// balance outside the box, the first count (in search order) out of its
// bounds says where the next balance inside can be; inside it, the next key
// (the balance's next segment, or a balance beside it) is read without a seek.
Status skip_scan(
    const Database::Impl& d, char kind, Variant v, const MaterialBounds& box,
    const std::function<bool(std::uint64_t ordered, GameId first, std::string_view value)>& visit) {
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
  const std::size_t key_size = kind == kOrderedKind ? 10 : 14;
  const Key<2> prefix{kind, char(v)};
  const std::string upper = prefix_successor(view(prefix));
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions ro = d.read_options();
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(d.db->NewIterator(ro, d.cf(Family::Material)));
  auto seek = [&](std::uint64_t ordered) {
    Key<10> k{kind, char(v)};
    put_be(k.data() + 2, ordered, 8);
    it->Seek(rocksdb::Slice(k.data(), k.size()));
  };
  for (seek(least); it->Valid();) {
    const rocksdb::Slice k = it->key();
    if (k.size() != key_size) {
      it->Next();
      continue;
    }
    const std::uint64_t at = get_be(k.data() + 2, 8);
    int i = 0;
    while (i < 16 && nibble(at, i) >= lo[i] && nibble(at, i) <= hi[i]) ++i;
    if (i == 16) {
      const GameId first = key_size == 14 ? GameId(get_be(k.data() + 10, 4)) : 0;
      if (!visit(at, first, std::string_view(it->value().data(), it->value().size()))) return {};
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
  if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", d.path));
  return {};
}

// The balances of a skip scan, each once, in search order.
Status balances_of(const Database::Impl& d, char kind, Variant v, const MaterialBounds& box,
                   std::vector<std::uint64_t>& out) {
  std::optional<std::uint64_t> last;
  return skip_scan(d, kind, v, box, [&](std::uint64_t ordered, GameId, std::string_view) {
    if (last != ordered) out.push_back(material_from_search_order(ordered));
    last = ordered;
    return true;
  });
}

// Visits the balances in key order, each once.
Status visit_sorted(std::vector<std::uint64_t>& balances, const Visit<std::uint64_t>& visit) {
  std::sort(balances.begin(), balances.end());
  balances.erase(std::unique(balances.begin(), balances.end()), balances.end());
  for (std::uint64_t b : balances)
    if (!visit(b)) break;
  return {};
}

// The balances of the layout before kind 5 (keys.hpp) within the box.
Status old_balances_within(const Database::Impl& d, Variant v, const MaterialBounds& box,
                           std::vector<std::uint64_t>& out) {
  if (d.material_ordered) return balances_of(d, kOrderedKind, v, box, out);
  // The plain dictionary, read whole.
  return d.scan(Family::Material, view(material_dictionary_prefix(v)),
                [&](std::string_view key, std::string_view) {
                  if (auto k = parse_material_key(key); k && box.contains(Material(k->material)))
                    out.push_back(k->material);
                  return true;
                });
}

}  // namespace

Status Database::for_each_material(Variant v, const Visit<std::uint64_t>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  std::vector<std::uint64_t> balances;
  Status s = impl_->scan(Family::Material, view(material_dictionary_prefix(v)),
                         [&](std::string_view key, std::string_view) {
                           if (auto k = parse_material_key(key)) balances.push_back(k->material);
                           return true;
                         });
  if (s) s = balances_of(*impl_, kPostingsKind, v, MaterialBounds{}, balances);
  if (!s) return s;
  return visit_sorted(balances, visit);
}

Status Database::for_each_material_within(Variant v, const MaterialBounds& box,
                                          const Visit<std::uint64_t>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  std::vector<std::uint64_t> balances;
  Status s = old_balances_within(*impl_, v, box, balances);
  if (s) s = balances_of(*impl_, kPostingsKind, v, box, balances);
  if (!s) return s;
  return visit_sorted(balances, visit);
}

Status Database::for_each_material_games_within(Variant v, const MaterialBounds& box,
                                                const std::function<bool(std::uint64_t)>& accept,
                                                const Visit<std::uint64_t, const MaterialHit&>& visit) const {
  if (!impl_->cf(Family::Material)) return {};
  // The layout before kind 5: its balances from its dictionary, then their postings.
  std::vector<std::uint64_t> old;
  if (Status s = old_balances_within(*impl_, v, box, old); !s) return s;
  std::erase_if(old, [&](std::uint64_t key) { return !accept(key); });
  bool stopped = false;
  if (!old.empty()) {
    std::sort(old.begin(), old.end());
    Status s = for_each_material_games(v, old, [&](std::uint64_t key, const MaterialHit& h) {
      stopped = !visit(key, h);
      return !stopped;
    });
    if (!s || stopped) return s;
  }
  // Kind 5, read as the scan meets it.
  std::optional<std::uint64_t> last;
  std::uint64_t key = 0;
  bool accepted = false, corrupt = false;
  Status s = skip_scan(*impl_, kPostingsKind, v, box,
                       [&](std::uint64_t ordered, GameId first, std::string_view value) {
                         if (last != ordered) {
                           key = material_from_search_order(ordered);
                           accepted = accept(key);
                           last = ordered;
                         }
                         if (!accepted) return true;
                         if (decode_material_postings(
                                 value, first, [&](const MaterialHit& h) { return visit(key, h); }, &stopped))
                           return true;
                         corrupt = !stopped;
                         return false;
                       });
  if (!s) return s;
  if (corrupt) return Error{ErrorKind::Corrupt, "a material index entry does not decode"};
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
  const std::string upper = prefix_successor(view(material_postings_variant_prefix(v)));
  rocksdb::Slice upper_slice(upper);
  rocksdb::ReadOptions ro = impl_->read_options();
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->cf(Family::Material)));
  // Games written before the postings were keyed in search order come first,
  // when the variant has any.
  const Key<2> old_prefix{kOldPostingsKind, char(v)};
  it->Seek(rocksdb::Slice(old_prefix.data(), old_prefix.size()));
  const bool has_old =
      it->Valid() && it->key().starts_with(rocksdb::Slice(old_prefix.data(), old_prefix.size()));
  if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", impl_->path));
  for (std::uint64_t material : materials)
    for (const Key<10>& prefix :
         {material_old_postings_prefix(v, material), material_postings_prefix(v, material)}) {
      if (!has_old && prefix[0] == kOldPostingsKind) continue;
      for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
        const std::string_view key(it->key().data(), it->key().size());
        if (key.substr(0, prefix.size()) != view(prefix)) break;
        auto k = parse_material_key(key);
        if (!k) continue;
        bool stopped = false;
        const std::string_view value(it->value().data(), it->value().size());
        if (decode_material_postings(
                value, k->first, [&](const MaterialHit& h) { return visit(material, h); }, &stopped,
                k->ordered))
          continue;
        if (stopped) return {};
        return Error{ErrorKind::Corrupt, "a material index entry does not decode"};
      }
      if (!it->status().ok()) return to_error(it->status(), fmt::format("reading {}", impl_->path));
    }
  return {};
}

}  // namespace virrey::store
