#include "virrey/store/testing.hpp"

#include <rocksdb/write_batch.h>

#include "rocks.hpp"
#include "varint.hpp"

namespace virrey::store::testing {

namespace {

Status write_one(const std::string& path, const std::function<void(Database::Impl&, rocksdb::WriteBatch&)>& fill) {
  auto impl = open_impl(path, {OpenMode::ReadWrite, false}, false);
  if (!impl) return impl.error();
  rocksdb::WriteBatch batch;
  fill(**impl, batch);
  return (*impl)->write(batch);
}

}  // namespace

Status set_schema_version(const std::string& path, std::uint32_t version) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    char buf[4];
    put_be(buf, version, 4);
    const auto key = meta_key(MetaKey::SchemaVersion);
    batch.Put(d.cf(Family::Meta), rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(buf, 4))
        .PermitUncheckedError();
  });
}

Status set_schema_version_bytes(const std::string& path, const std::string& bytes) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    const auto key = meta_key(MetaKey::SchemaVersion);
    batch.Put(d.cf(Family::Meta), rocksdb::Slice(key.data(), key.size()), bytes).PermitUncheckedError();
  });
}

Status delete_game_record(const std::string& path, std::uint32_t id) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    const auto key = game_key(id);
    batch.Delete(d.cf(Family::Games), rocksdb::Slice(key.data(), key.size())).PermitUncheckedError();
  });
}

Status put_position_entry(const std::string& path, Variant v, std::uint64_t hash, std::uint32_t game,
                          std::uint32_t ply) {
  return write_one(path, [&](Database::Impl& d, rocksdb::WriteBatch& batch) {
    const auto key = position_key(v, hash, game);
    std::string value;
    put_varint(value, ply);
    batch.Put(d.cf(Family::Positions), rocksdb::Slice(key.data(), key.size()), value).PermitUncheckedError();
  });
}

}  // namespace virrey::store::testing
