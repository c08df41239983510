// open_input: plain, gzip and zstd files recognised by content (not name),
// concatenated members and frames, and clear errors for broken inputs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "fingerprint_testing.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/importers/open_input.hpp"

namespace virrey::importers {
namespace {

using testing::gzip;

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string zstd(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// As the zstd command line writes it: streaming API, content checksum.
std::string zstd_streamed(std::string_view data) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(data.size()) + 64, '\0');
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  EXPECT_EQ(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end), 0u);
  out.resize(o.pos);
  ZSTD_freeCCtx(cctx);
  return out;
}

// Pseudo-random PGN-like text that compresses but not trivially.
std::string sample_text(std::size_t size) {
  std::mt19937 rng(7);
  const char* words[] = {"e4 ",     "e5 ", "Nf3 ", "Nc6 ", "{comment} ", "\n", "[Event \"x\"]\n",
                         "1-0\n\n", "O-O "};
  std::string s;
  while (s.size() < size) s += words[rng() % 9];
  s.resize(size);
  return s;
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("virrey-importers-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, std::string_view bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return path.string();
  }

  fs::path dir_;
};

struct ReadAll {
  std::string data;
  std::string error;
};

ReadAll read_all(ByteSource& source, std::size_t chunk = 65536) {
  ReadAll out;
  std::string buf(chunk, '\0');
  for (;;) {
    ReadResult r = source.read({buf.data(), buf.size()});
    if (!r.ok()) {
      out.error = r.error;
      // Errors are sticky.
      EXPECT_EQ(source.read({buf.data(), buf.size()}).error, out.error);
      return out;
    }
    if (r.size == 0) break;
    EXPECT_LE(r.size, chunk);
    out.data.append(buf.data(), r.size);
  }
  EXPECT_TRUE(source.read({buf.data(), buf.size()}).at_end());  // End is sticky
  return out;
}

ReadAll open_and_read(const std::string& path, Compression expected, std::size_t chunk = 65536) {
  OpenResult opened = open_input(path);
  EXPECT_TRUE(opened) << opened.error;
  if (!opened) return {"", opened.error};
  EXPECT_EQ(opened.compression, expected);
  EXPECT_EQ(opened.source->name(), path);
  return read_all(*opened.source, chunk);
}

TEST(DetectCompression, MagicNumbers) {
  using namespace std::string_view_literals;
  EXPECT_EQ(detect_compression(std::span("\x1f\x8b"sv)), Compression::Gzip);
  EXPECT_EQ(detect_compression(std::span("\x28\xb5\x2f\xfd"sv)), Compression::Zstd);
  EXPECT_EQ(detect_compression(std::span("\x5e\x2a\x4d\x18"sv)), Compression::Zstd);  // skippable frame
  EXPECT_EQ(detect_compression(std::span("\x28\xb5\x2f"sv)), Compression::None);
  EXPECT_EQ(detect_compression(std::span("\x1f"sv)), Compression::None);
  EXPECT_EQ(detect_compression(std::span("[Eve"sv)), Compression::None);
  EXPECT_EQ(detect_compression({}), Compression::None);
  EXPECT_EQ(compression_name(Compression::Zstd), "zstd");
}

TEST_F(TempDir, PlainFileIsReadAsItIsWhateverItsName) {
  const std::string text = sample_text(300000);
  const std::string path = write("games.pgn.gz", text);
  EXPECT_EQ(open_and_read(path, Compression::None).data, text);
  EXPECT_EQ(open_and_read(path, Compression::None, 1).data.size(), text.size());
}

// UTF-16 text (a byte-order mark, then a 0 byte after every ASCII one) is
// refused with what it is and how to convert it; UTF-8's mark is read on.
TEST_F(TempDir, Utf16IsRefusedByItsByteOrderMark) {
  for (const std::string& mark : {std::string("\xff\xfe"), std::string("\xfe\xff")}) {
    const std::string path = write("u16.pgn", mark + std::string("[\0E\0v\0", 6));
    const OpenResult opened = open_input(path);
    EXPECT_FALSE(opened);
    EXPECT_NE(opened.error.find(path + ": UTF-16 text"), std::string::npos) << opened.error;
    EXPECT_NE(opened.error.find("iconv -f UTF-16 -t UTF-8"), std::string::npos) << opened.error;
  }
  const std::string utf8 = "\xef\xbb\xbf[Event \"x\"]\n";
  EXPECT_EQ(open_and_read(write("u8.pgn", utf8), Compression::None).data, utf8);
}

// Without a mark, and compressed, wide text is told by the zero bytes beside
// its first characters (no PGN holds one); UTF-32 is named as itself.
TEST_F(TempDir, WideTextIsRefusedWithoutAMarkAndCompressed) {
  const std::string le16("[\0E\0v\0e\0", 8), be16("\0[\0E\0v\0e", 8);
  const std::string le32("[\0\0\0E\0\0\0", 8), be32("\0\0\0[\0\0\0E", 8);
  const std::pair<std::string, std::string> inputs[] = {
      {le16, "UTF-16"},
      {be16, "UTF-16"},
      {le32, "UTF-32"},
      {be32, "UTF-32"},
      {std::string("\xff\xfe\0\0", 4) + le32, "UTF-32"},
      {std::string("\0\0\xfe\xff", 4) + be32, "UTF-32"},
      {gzip("\xff\xfe" + le16), "UTF-16"},
      {zstd(le16), "UTF-16"},
      {gzip(be32), "UTF-32"},
  };
  int n = 0;
  for (const auto& [bytes, what] : inputs) {
    const std::string path = write("wide" + std::to_string(n++) + ".pgn", bytes);
    const OpenResult opened = open_input(path);
    EXPECT_FALSE(opened) << n;
    EXPECT_NE(opened.error.find(path + ": " + what + " text"), std::string::npos) << opened.error;
    EXPECT_NE(opened.error.find("iconv -f " + what + " -t UTF-8"), std::string::npos) << opened.error;
  }
  // Text that is not wide, short or long, plain or compressed, is read as it
  // is: NUL padding before a game too (old tools pad files to a block).
  for (const std::string& text :
       {std::string("["), std::string("1. e4 *\n"), std::string("[A\0", 3),
        std::string("\0\0\0[Event \"x\"]\n", 16), std::string(600, '\0') + "[Event \"x\"]\n"}) {
    EXPECT_EQ(open_and_read(write("narrow.pgn", text), Compression::None).data, text);
    EXPECT_EQ(open_and_read(write("narrow.pgn.gz", gzip(text)), Compression::Gzip).data, text);
  }
  EXPECT_EQ(open_and_read(write("empty.pgn.gz", gzip("")), Compression::Gzip).data, "");
}

// Compressions and archives virrey does not read are refused by their magic
// numbers (from each format's specification), with the command that reads
// them; text that merely starts alike is text.
TEST_F(TempDir, UnreadCompressionsAreRefusedByTheirMagic) {
  const std::pair<std::string, std::string> formats[] = {
      {std::string("BZh91AY&SY", 10), "bzip2 data"},
      {std::string("\xfd"
                   "7zXZ\0\0\x04",
                   9),
       "xz data"},
      {std::string("\x04\x22\x4d\x18\x64\x40", 6), "lz4 data"},
      {std::string("\x02\x21\x4c\x18\x10\0\0\0", 8), "lz4 data"},
      {std::string("PK\x03\x04\x14\0", 6), "a zip archive"},
      {std::string("PK\x05\x06\0\0\0\0", 8), "a zip archive"},
      {std::string("BZh9\x17\x72\x45\x38\x50\x90", 10), "bzip2 data"},
      {std::string("7z\xbc\xaf\x27\x1c", 6), "a 7-Zip archive"},
  };
  for (const auto& [head, what] : formats) {
    const std::string path = write("games.bin", head + std::string(100, 'x'));
    const OpenResult opened = open_input(path);
    EXPECT_FALSE(opened) << what;
    EXPECT_NE(opened.error.find(path + ": " + what + ", which virrey does not read"), std::string::npos)
        << opened.error;
  }
  for (const std::string text : {"BZh is no bzip2 header\n", "BZh9\n[Event \"x\"]\n", "PK\n"})
    EXPECT_EQ(open_and_read(write("bzh.pgn", text), Compression::None).data, text);
}

TEST_F(TempDir, GzipIsRecognisedByContent) {
  const std::string text = sample_text(1 << 20);
  const std::string path = write("games.txt", gzip(text));
  EXPECT_EQ(open_and_read(path, Compression::Gzip).data, text);
  EXPECT_EQ(open_and_read(path, Compression::Gzip, 7).data, text);
}

TEST_F(TempDir, ZstdIsRecognisedByContent) {
  const std::string text = sample_text(1 << 20);
  const std::string path = write("games.gz", zstd(text));
  EXPECT_EQ(open_and_read(path, Compression::Zstd).data, text);
  EXPECT_EQ(open_and_read(path, Compression::Zstd, 7).data, text);
}

TEST_F(TempDir, ZstdWithChecksumAsTheCommandLineWritesIt) {
  const std::string text = "[Event \"x\"]\n1. e4 *\n";
  const std::string path = write("cli.zst", zstd_streamed(text));
  EXPECT_EQ(open_and_read(path, Compression::Zstd).data, text);
  EXPECT_EQ(open_and_read(path, Compression::Zstd, 1).data, text);
  const std::string big = sample_text(3 << 20);
  EXPECT_EQ(open_and_read(write("big.zst", zstd_streamed(big) + zstd_streamed(text)), Compression::Zstd).data,
            big + text);
}

TEST_F(TempDir, ConcatenatedGzipMembers) {
  const std::string a = sample_text(100000), b = "[Event \"second\"]\n*\n", c = sample_text(5000);
  const std::string path = write("multi.gz", gzip(a) + gzip(b) + gzip("") + gzip(c));
  EXPECT_EQ(open_and_read(path, Compression::Gzip).data, a + b + c);
}

TEST_F(TempDir, ConcatenatedZstdFramesAndSkippableFrames) {
  const std::string a = sample_text(100000), b = "[Event \"second\"]\n*\n";
  const std::string skippable("\x50\x2a\x4d\x18\x03\x00\x00\x00xyz", 11);
  const std::string path = write("multi.zst", skippable + zstd(a) + skippable + zstd(b));
  EXPECT_EQ(open_and_read(path, Compression::Zstd).data, a + b);
}

TEST_F(TempDir, TruncatedGzipIsAnError) {
  const std::string compressed = gzip(sample_text(200000));
  const std::string path = write("cut.gz", compressed.substr(0, compressed.size() / 2));
  const ReadAll r = open_and_read(path, Compression::Gzip);
  EXPECT_THAT(r.error, HasSubstr(path));
  EXPECT_THAT(r.error, HasSubstr("truncated gzip"));
  // Losing only the trailer (CRC and size) is truncation too.
  const std::string path2 = write("cut2.gz", compressed.substr(0, compressed.size() - 3));
  EXPECT_THAT(open_and_read(path2, Compression::Gzip).error, HasSubstr("truncated gzip"));
}

// A zstd frame of a window larger than a reader gives (zstd --long=31, the
// size not known ahead) is no damage: the message says what to do.
TEST_F(TempDir, AZstdWindowTooLargeIsSaidSo) {
  const std::string data = "[Event \"x\"]\n1. e4 *\n";
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, 31);
  std::string out(ZSTD_compressBound(data.size()) + 64, '\0');
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_continue);  // (the size is then not in the frame)
  EXPECT_EQ(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end), 0u);
  out.resize(o.pos);
  ZSTD_freeCCtx(cctx);
  const ReadAll r = open_and_read(write("long.zst", out), Compression::Zstd);
  EXPECT_THAT(r.error, HasSubstr("its zstd window is larger than virrey reads"));
  EXPECT_THAT(r.error, Not(HasSubstr("corrupt")));
}

// A zstd frame whose checksum (checked at its end) does not match the data
// says so, without a byte position that would point at its end.
TEST_F(TempDir, AZstdChecksumThatDoesNotMatchIsSaidSo) {
  std::string compressed = zstd_streamed("[Event \"x\"]\n1. e4 *\n");
  compressed.back() = char(compressed.back() ^ 0xff);  // the checksum's last byte
  const ReadAll r = open_and_read(write("bad.zst", compressed), Compression::Zstd);
  EXPECT_THAT(r.error, HasSubstr("a frame's checksum does not match its data"));
  EXPECT_THAT(r.error, Not(HasSubstr("near compressed byte")));
}

TEST_F(TempDir, CorruptGzipIsAnError) {
  const std::string text = sample_text(200000);
  std::string compressed = gzip(text);
  const std::size_t damage = compressed.size() / 2;
  const std::string before = compressed.substr(0, damage);
  for (std::size_t i = damage; i < damage + 64; ++i) compressed[i] ^= 0x5a;
  // Large reads: the damage falls inside one of them.
  const ReadAll r = open_and_read(write("bad.gz", compressed), Compression::Gzip, 1 << 20);
  EXPECT_THAT(r.error, HasSubstr("corrupt gzip data"));
  EXPECT_THAT(r.error, HasSubstr("near compressed byte"));
  // What decoded before the damage is delivered before the error: as much
  // of the text as the bytes before it give when cut there.
  const ReadAll cut = open_and_read(write("cut.gz", before), Compression::Gzip, 1 << 20);
  ASSERT_GT(cut.data.size(), text.size() / 4);
  std::size_t same = 0;
  while (same < r.data.size() && same < text.size() && r.data[same] == text[same]) ++same;
  EXPECT_GE(same + 1024, cut.data.size());
}

TEST_F(TempDir, GarbageAfterAGzipMemberIsAnError) {
  const ReadAll r = open_and_read(write("tail.gz", gzip("1. e4 *\n") + "not gzip at all"), Compression::Gzip);
  EXPECT_EQ(r.data, "1. e4 *\n");
  EXPECT_THAT(r.error, HasSubstr("data after the end of a gzip member"));
}

TEST_F(TempDir, TruncatedZstdIsAnError) {
  const std::string compressed = zstd(sample_text(200000));
  const ReadAll r =
      open_and_read(write("cut.zst", compressed.substr(0, compressed.size() - 10)), Compression::Zstd);
  EXPECT_THAT(r.error, HasSubstr("truncated zstd"));
}

TEST_F(TempDir, CorruptZstdIsAnError) {
  std::string compressed = zstd(sample_text(200000));
  for (std::size_t i = 20; i < compressed.size(); i += 97) compressed[i] ^= 0x5a;
  const ReadAll r = open_and_read(write("bad.zst", compressed), Compression::Zstd);
  EXPECT_THAT(r.error, HasSubstr("corrupt zstd data"));
}

TEST_F(TempDir, EmptyAndTinyFiles) {
  EXPECT_EQ(open_and_read(write("empty.pgn", ""), Compression::None).data, "");
  EXPECT_EQ(open_and_read(write("one.pgn", "*"), Compression::None).data, "*");
  EXPECT_EQ(open_and_read(write("gzlike.pgn", "\x1f"), Compression::None).data, "\x1f");
  EXPECT_EQ(open_and_read(write("three.pgn", "1-0"), Compression::None).data, "1-0");
}

TEST_F(TempDir, SizesForProgress) {
  const std::string compressed = gzip(sample_text(100000));
  const std::string path = write("p.gz", compressed);
  OpenResult opened = open_input(path);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened.source->raw_size(), compressed.size());
  read_all(*opened.source);
  EXPECT_EQ(opened.source->raw_bytes_read(), compressed.size());
}

TEST_F(TempDir, MissingFileAndDirectoryAreErrors) {
  const std::string missing = (dir_ / "nope.pgn").string();
  OpenResult a = open_input(missing);
  EXPECT_FALSE(a);
  EXPECT_THAT(a.error, HasSubstr(missing));
  EXPECT_THAT(a.error, HasSubstr("No such file"));
  OpenResult b = open_input(dir_.string());
  EXPECT_FALSE(b);
  EXPECT_THAT(b.error, HasSubstr("directory"));
}

TEST(Decompressing, WorksOnAnySourceAndKeepsItsName) {
  const std::string text = sample_text(50000);
  OpenResult r = decompressing(std::make_unique<MemorySource>(zstd(text), "mem.bin", 3));
  ASSERT_TRUE(r);
  EXPECT_EQ(r.compression, Compression::Zstd);
  EXPECT_EQ(r.source->name(), "mem.bin");
  EXPECT_EQ(read_all(*r.source, 5).data, text);
}

TEST(MemorySource, HonoursItsChunkLimit) {
  MemorySource source("abcdefg", "m", 3);
  char buf[10];
  EXPECT_EQ(source.read(buf).size, 3u);
  EXPECT_EQ(source.read({buf, 2}).size, 2u);
  EXPECT_EQ(source.read(buf).size, 2u);
  EXPECT_TRUE(source.read(buf).at_end());
  EXPECT_EQ(source.raw_bytes_read(), 7u);
}

}  // namespace
}  // namespace virrey::importers
