// The openings family: games' openings and the positions an ECO file names
// (openings.hpp, keys.hpp).
#include "virrey/store/openings.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <rocksdb/write_batch.h>

#include "rocks.hpp"

namespace virrey::store {

std::string encode_opening(const StoredOpening& o) {
  std::string out(3, '\0');
  put_be(out.data(), std::min<std::uint32_t>(o.ply, 0xffff), 2);
  const std::size_t eco_size = std::min<std::size_t>(o.eco.size(), 255);
  out[2] = char(eco_size);
  out.append(o.eco, 0, eco_size);
  out += o.name;
  return out;
}

std::optional<StoredOpening> decode_opening(std::string_view value) {
  if (value.size() < 3) return std::nullopt;
  const std::size_t eco_size = std::uint8_t(value[2]);
  if (value.size() < 3 + eco_size) return std::nullopt;
  StoredOpening o;
  o.ply = std::uint32_t(get_be(value.data(), 2));
  o.eco.assign(value.substr(3, eco_size));
  o.name.assign(value.substr(3 + eco_size));
  return o;
}

namespace {

Result<std::optional<StoredOpening>> read_opening(const Database::Impl& d, std::string_view key) {
  if (!d.cf(Family::Openings)) return std::optional<StoredOpening>{};
  std::string value;
  bool found = false;
  if (Status s = d.get(Family::Openings, key, value, found); !s) return s.error();
  if (!found) return std::optional<StoredOpening>{};
  auto o = decode_opening(value);
  if (!o) return Error{ErrorKind::Corrupt, fmt::format("{}: an opening that does not decode", d.path)};
  return o;
}

}  // namespace

Result<std::optional<StoredOpening>> Database::opening(GameId id) const {
  return read_opening(*impl_, view(opening_game_key(id)));
}

Result<std::optional<StoredOpening>> Database::named_position(Variant v, std::uint64_t hash) const {
  return read_opening(*impl_, view(opening_book_key(v, hash)));
}

Status Database::for_each_opening(const Visit<GameId, const StoredOpening&>& visit) const {
  if (!impl_->cf(Family::Openings)) return {};
  Status failure;
  Status s =
      impl_->scan(Family::Openings, view(opening_game_prefix()), [&](std::string_view k, std::string_view v) {
        auto o = decode_opening(v);
        if (!o || k.size() != 5) {
          failure =
              Error{ErrorKind::Corrupt, fmt::format("{}: an opening that does not decode", impl_->path)};
          return false;
        }
        return visit(GameId(get_be(k.data() + 1, 4)), *o);
      });
  if (!s) return s;
  return failure;
}

Result<std::optional<std::string>> Database::opening_source() const {
  if (!impl_->cf(Family::Openings)) return std::optional<std::string>{};
  std::string value;
  bool found = false;
  if (Status s = impl_->get(Family::Openings, view(opening_source_key()), value, found); !s) return s.error();
  return found ? std::optional<std::string>(value) : std::nullopt;
}

Status Database::put_named_positions(std::string_view source, const std::vector<NamedPosition>& positions) {
  Impl& d = *impl_;
  if (!d.cf(Family::Openings)) return Error{ErrorKind::Io, fmt::format("{} is open for reading", d.path)};
  rocksdb::WriteBatch batch;
  const Key<1> lo = opening_book_prefix();
  const std::string hi = prefix_successor(view(lo));
  batch.DeleteRange(d.cf(Family::Openings), rocksdb::Slice(lo.data(), lo.size()), hi).PermitUncheckedError();
  for (const NamedPosition& p : positions)
    batch.Put(d.cf(Family::Openings), view(opening_book_key(p.variant, p.hash)), encode_opening(p.opening))
        .PermitUncheckedError();
  batch.Put(d.cf(Family::Openings), view(opening_source_key()), rocksdb::Slice(source.data(), source.size()))
      .PermitUncheckedError();
  return d.write(batch);
}

Status Database::put_openings(const std::vector<std::pair<GameId, std::optional<StoredOpening>>>& openings) {
  Impl& d = *impl_;
  if (!d.cf(Family::Openings)) return Error{ErrorKind::Io, fmt::format("{} is open for reading", d.path)};
  rocksdb::WriteBatch batch;
  for (const auto& [id, o] : openings) {
    const Key<5> key = opening_game_key(id);
    if (o)
      batch.Put(d.cf(Family::Openings), view(key), encode_opening(*o)).PermitUncheckedError();
    else
      batch.Delete(d.cf(Family::Openings), view(key)).PermitUncheckedError();
  }
  return d.write(batch);
}

Result<std::optional<GameId>> Database::openings_pending() const {
  std::string value;
  bool found = false;
  if (Status s = impl_->get(Family::Meta, view(meta_key(MetaKey::OpeningsPending)), value, found); !s)
    return s.error();
  if (!found) return std::optional<GameId>{};
  if (value.size() != 4)
    return Error{ErrorKind::Corrupt, fmt::format("{} is damaged: its openings mark is {} bytes long, not 4",
                                                 impl_->path, value.size())};
  return std::optional<GameId>(GameId(get_be(value.data(), 4)));
}

Status Database::set_openings_pending(std::optional<GameId> first) {
  Impl& d = *impl_;
  if (!d.cf(Family::Openings)) return Error{ErrorKind::Io, fmt::format("{} is open for reading", d.path)};
  rocksdb::WriteBatch batch;
  if (first)
    d.put_meta_u32(batch, MetaKey::OpeningsPending, *first);
  else
    batch.Delete(d.cf(Family::Meta), view(meta_key(MetaKey::OpeningsPending))).PermitUncheckedError();
  return d.write(batch);
}

}  // namespace virrey::store
