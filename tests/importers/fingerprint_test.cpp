// Input fingerprints: the frozen algorithm (written out here from its
// description, and golden values from the version that first stored them),
// whatever the chunks the bytes come in; a HashedInput reads every raw byte
// once, hands the decompressed bytes on and fingerprints the compressed ones.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fingerprint_testing.hpp"
#include "virrey/importers/fingerprint.hpp"
#include "virrey/importers/memory_source.hpp"

namespace virrey::importers {
namespace {

using testing::gzip;
constexpr auto reference = testing::reference_fingerprint;

std::string pgn_bytes() { return "[Event \"E\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"; }

std::string patterned(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = char((i * 131 + i / 7) & 0xff);
  return s;
}

// Counts the bytes its callers take.
class CountingSource final : public ByteSource {
 public:
  CountingSource(std::string data, std::size_t chunk, std::uint64_t& taken)
      : inner_(std::move(data), "counted", chunk), taken_(taken) {}
  ReadResult read(std::span<char> buffer) override {
    ReadResult r = inner_.read(buffer);
    taken_ += r.size;
    return r;
  }
  std::string_view name() const override { return inner_.name(); }
  std::uint64_t raw_bytes_read() const override { return inner_.raw_bytes_read(); }
  std::uint64_t raw_size() const override { return inner_.raw_size(); }

 private:
  MemorySource inner_;
  std::uint64_t& taken_;
};

std::string read_all(ByteSource& s) {
  std::string out;
  char buf[4096];
  for (;;) {
    ReadResult r = s.read(buf);
    EXPECT_TRUE(r.ok()) << r.error;
    if (r.size == 0) return out;
    out.append(buf, r.size);
  }
}

TEST(Fingerprint, GoldenValuesOfTheStoredFormat) {
  // Computed by the file-reading fingerprint that databases were written with.
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes(pgn_bytes(), 0)), "ed6385dd995536349b9866e5ac53ed73");
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes(pgn_bytes(), 1)), "c20866f9f16e8ac60a3f73636691cc88");
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes(pgn_bytes(), 2)), "c24d928289e46252819d2745cefce44f");
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes(patterned(3000003), 0)), "a690aa75641280949db8f760117a6f61");
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes(patterned(3000003), 2)), "cd05ebd0f4165b3883e911dfd839e92b");
  EXPECT_EQ(fingerprint_hex(fingerprint_bytes({}, 1)), "66cd83725cb94f6ab10bcaadaba991e1");
  // And they are what the description gives, computed apart (the reference
  // over the whole input at once).
  EXPECT_EQ(fingerprint_hex(reference(pgn_bytes(), 0)), "ed6385dd995536349b9866e5ac53ed73");
  EXPECT_EQ(fingerprint_hex(reference(pgn_bytes(), 2)), "c24d928289e46252819d2745cefce44f");
  EXPECT_EQ(fingerprint_hex(reference(patterned(3000003), 2)), "cd05ebd0f4165b3883e911dfd839e92b");
  EXPECT_EQ(fingerprint_hex(reference({}, 1)), "66cd83725cb94f6ab10bcaadaba991e1");
}

TEST(Fingerprint, AnyChunkingGivesTheReferenceValue) {
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 65536u, 65541u, 200003u}) {
    const std::string bytes = patterned(n);
    for (std::size_t chunk : {1u, 3u, 8u, 13u, 4096u, 1u << 20}) {
      FingerprintHasher h;
      for (std::size_t i = 0; i < n; i += chunk) h.update({bytes.data() + i, std::min(chunk, n - i)});
      EXPECT_EQ(h.finish(5), reference(bytes, 5)) << n << " bytes in chunks of " << chunk;
      EXPECT_EQ(h.length(), n);
    }
  }
}

TEST(Fingerprint, AHashedInputReadsEachByteOnce) {
  const std::string bytes = patterned(300001);
  std::uint64_t taken = 0;
  HashedInput in = HashedInput::wrap(std::make_unique<CountingSource>(bytes, 777, taken), 2);
  ASSERT_TRUE(in);
  EXPECT_EQ(in.probe().size, bytes.size());
  EXPECT_EQ(read_all(in.source()), bytes);
  std::string error;
  auto fp = in.finish(error);
  ASSERT_TRUE(fp) << error;
  EXPECT_EQ(*fp, reference(bytes, 2));
  EXPECT_EQ(taken, bytes.size());
  EXPECT_EQ(in.raw_bytes(), bytes.size());
}

TEST(Fingerprint, ProbeIsTheSizeAndTheHashOfTheFirstBlock) {
  std::string bytes = patterned(kProbeBytes + 5000);
  std::uint64_t taken = 0;
  HashedInput a = HashedInput::wrap(std::make_unique<CountingSource>(bytes, 1000, taken), 0);
  const Fingerprint head = reference(bytes.substr(0, kProbeBytes), 0);
  std::uint64_t want = 0;
  for (int i = 0; i < 8; ++i) want = want << 8 | head[std::size_t(i)];
  EXPECT_EQ(a.probe().head, want);
  EXPECT_EQ(a.probe().size, bytes.size());
  // A change after the first block leaves the probe, not the fingerprint.
  std::string changed = bytes;
  changed.back() ^= 1;
  HashedInput b = HashedInput::wrap(std::make_unique<MemorySource>(changed), 0);
  EXPECT_EQ(b.probe(), a.probe());
  std::string error;
  EXPECT_NE(a.finish(error), b.finish(error));
}

// Finishing without reading hashes the rest; compressed input is hashed compressed.
TEST(Fingerprint, CompressedInputIsHashedAsStored) {
  const std::string plain = patterned(100000);
  const std::string packed = gzip(plain);
  const auto path = std::filesystem::temp_directory_path() / "virrey-fingerprint.pgn.gz";
  { std::ofstream(path, std::ios::binary) << packed; }
  HashedInput in = HashedInput::open(path.string(), 1);
  ASSERT_TRUE(in) << in.error();
  EXPECT_EQ(read_all(in.source()), plain);
  std::string error;
  EXPECT_EQ(in.finish(error), reference(packed, 1));
  HashedInput unread = HashedInput::open(path.string(), 1);
  EXPECT_EQ(unread.finish(error), reference(packed, 1));
  EXPECT_EQ(unread.raw_bytes(), packed.size());
  std::filesystem::remove(path);
  EXPECT_FALSE(HashedInput::open(path.string(), 1));
}

}  // namespace
}  // namespace virrey::importers
