// SPDX-License-Identifier: Apache-2.0
// The .npy reader and writer: byte-exact NumPy headers, round trips, every validation error,
// and all-or-nothing writes.
#include "tb/cli/npy.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>

namespace ane::cli {
namespace {

namespace fs = std::filesystem;

// What numpy.save writes for np.zeros((2, 3), '<f2'): a 118-byte header padded to 128 bytes.
std::string NumpyHeader(const std::string& dict) {
  std::string h = dict;
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(h.size() & 0xFF);
  out += char(h.size() >> 8);
  return out + h;
}

std::string Fp16File(const std::string& dict, size_t data_bytes) {
  return NumpyHeader(dict) + std::string(data_bytes, '\0');
}

TEST(NpyTest, EncodeWritesNumpysExactHeader) {
  const Tensor t{DType::kFp16, {2, 3}, {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600}};
  const std::string bytes = EncodeNpy(t);
  const std::string header = NumpyHeader("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }");
  ASSERT_EQ(header.size(), 128u);
  EXPECT_EQ(bytes.substr(0, 128), header);
  EXPECT_EQ(bytes.size(), 128u + 12u);
  EXPECT_EQ(bytes.substr(128, 4), std::string("\x00\x3c\x00\x40", 4));  // little-endian codes
}

TEST(NpyTest, EncodeWritesOneDimShapeWithTrailingComma) {
  const std::string bytes = EncodeNpy(Tensor{DType::kInt8, {3}, {1, 2, 0xFF}});
  EXPECT_NE(bytes.find("{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }"), std::string::npos);
  EXPECT_EQ(bytes.substr(bytes.size() - 3), std::string("\x01\x02\xff", 3));
}

TEST(NpyTest, RoundTripsEveryDtypeAndRank) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {5}, {2, 3}, {1, 2, 4}};
  uint32_t seed = 12345;
  for (DType dtype : {DType::kFp16, DType::kInt8, DType::kInt32}) {
    for (const auto& shape : shapes) {
      Tensor t{dtype, shape, {}};
      const uint32_t mask = dtype == DType::kInt8 ? 0xFF : dtype == DType::kFp16 ? 0xFFFF : 0xFFFFFFFF;
      for (int64_t i = 0; i < ElementCount(shape); ++i) {
        seed = seed * 1664525u + 1013904223u;
        t.bits.push_back(seed & mask);
      }
      const Tensor back = DecodeNpy(EncodeNpy(t));
      EXPECT_EQ(back.dtype, t.dtype) << DTypeName(dtype) << " " << ShapeString(shape);
      EXPECT_EQ(back.shape, t.shape) << DTypeName(dtype) << " " << ShapeString(shape);
      EXPECT_EQ(back.bits, t.bits) << DTypeName(dtype) << " " << ShapeString(shape);
    }
  }
}

TEST(NpyTest, ReadsVersion2AndHeaderVariants) {
  // Version 2.0: a 4-byte header length.
  const std::string dict = "{\"descr\": \"<i4\", \"shape\": (2L,), \"fortran_order\": False}";
  std::string h = dict + "\n";
  std::string v2("\x93NUMPY\x02\x00", 8);
  for (int b = 0; b < 4; ++b) v2 += char((h.size() >> (8 * b)) & 0xFF);
  v2 += h + std::string("\x07\x00\x00\x00\xff\xff\xff\xff", 8);
  const Tensor t = DecodeNpy(v2);
  EXPECT_EQ(t.dtype, DType::kInt32);
  EXPECT_EQ(t.shape, std::vector<int64_t>{2});
  EXPECT_EQ(t.bits, (std::vector<uint32_t>{7, 0xFFFFFFFF}));
}

TEST(NpyTest, RejectsEveryMalformedFile) {
  const std::string good_dict = "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }";
  struct Bad {
    const char* name;
    std::string bytes;
    const char* message;
  };
  std::string bad_version = Fp16File(good_dict, 12);
  bad_version[6] = 3;
  std::string no_newline = Fp16File(good_dict, 12);
  no_newline[127] = ' ';
  std::string non_ascii = Fp16File(good_dict, 12);
  non_ascii[100] = char(0xE9);
  const std::vector<Bad> cases = {
      {"empty", "", "bad magic"},
      {"text", "hello world, not numpy", "bad magic"},
      {"version", bad_version, "version 3.0"},
      {"truncated", Fp16File(good_dict, 12).substr(0, 60), "ends inside the header"},
      {"no newline", no_newline, "newline"},
      {"non-ascii", non_ascii, "ASCII"},
      {"missing descr", Fp16File("{'fortran_order': False, 'shape': (2, 3), }", 12), "missing key 'descr'"},
      {"extra key", Fp16File("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", 12), "unexpected"},
      {"duplicate key", Fp16File("{'descr': '<f2', 'descr': '<f2', 'fortran_order': False, 'shape': (6,)}", 12),
       "duplicate key"},
      {"fortran", Fp16File("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 3), }", 12), "fortran_order"},
      {"big endian", Fp16File("{'descr': '>f2', 'fortran_order': False, 'shape': (2, 3), }", 12), "big-endian"},
      {"float32", Fp16File("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24),
       "unsupported dtype '<f4'"},
      {"structured", Fp16File("{'descr': [('a', '<f2')], 'fortran_order': False, 'shape': (2,), }", 4), "structured"},
      {"shape not a tuple", Fp16File("{'descr': '<f2', 'fortran_order': False, 'shape': 6, }", 12), "unexpected value"},
      {"negative dim", Fp16File("{'descr': '<f2', 'fortran_order': False, 'shape': (-6,), }", 12),
       "non-negative integer"},
      {"short data", Fp16File(good_dict, 11), "data is 11 bytes but shape [2, 3] of '<f2' needs 12 bytes"},
      {"long data", Fp16File(good_dict, 14), "data is 14 bytes"},
      {"trailing text", Fp16File("{'descr': '<f2', 'fortran_order': False, 'shape': (6,)} x", 12),
       "after the dictionary"},
  };
  for (const Bad& c : cases) {
    try {
      DecodeNpy(c.bytes);
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const NpyError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << c.name << ": message was: " << e.what();
    }
  }
}

// Input handling (found while writing tb/fuzz; regression input
// tb/fuzz/regressions/npy/rank_40000_header_over_64k.npy): a header may name any number of
// dimensions, but EncodeNpy writes version 1.0 files, whose header length is 16 bits, so an
// output with tens of thousands of dimensions (elementwise keeps its input's shape) was written
// as a corrupt file. The reader takes at most NumPy's 32 dimensions.
TEST(NpyTest, InputHandlingAtMost32DimensionsAsNumpy) {
  auto file = [](size_t rank) {
    std::string dict = "{'descr': '|i1', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < rank; ++i) dict += "1, ";
    dict += "), }\n";
    std::string f("\x93NUMPY\x02\x00", 8);
    for (int b = 0; b < 4; ++b) f += char((dict.size() >> (8 * b)) & 0xFF);
    return f + dict + "\x05";
  };
  const Tensor t = DecodeNpy(file(32));
  EXPECT_EQ(t.shape, std::vector<int64_t>(32, 1));
  EXPECT_EQ(DecodeNpy(EncodeNpy(t)).shape, t.shape);
  for (size_t rank : {33, 40000}) {
    try {
      DecodeNpy(file(rank));
      ADD_FAILURE() << "rank " << rank << " accepted";
    } catch (const NpyError& e) {
      EXPECT_EQ(std::string(e.what()), fmt::format("shape has {} dimensions; at most 32", rank));
    }
  }
}

class NpyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "ane_npy_test_XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t FileCount() const { return size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }
  fs::path dir_;
};

TEST_F(NpyFileTest, WriteThenReadGivesTheSameTensor) {
  const Tensor t{DType::kFp16, {2, 2}, {0x4400, 0x4500, 0x4900, 0x4980}};
  WriteNpyFiles({{dir_ / "y.npy", t}});
  const Tensor back = ReadNpy(dir_ / "y.npy");
  EXPECT_EQ(back.bits, t.bits);
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(FileCount(), 1u);  // no temporary file left behind
}

TEST_F(NpyFileTest, WriteReplacesAnExistingFile) {
  std::ofstream(dir_ / "y.npy") << "old contents";
  WriteNpyFiles({{dir_ / "y.npy", Tensor{DType::kInt32, {1}, {42}}}});
  EXPECT_EQ(ReadNpy(dir_ / "y.npy").bits, std::vector<uint32_t>{42});
}

TEST_F(NpyFileTest, FailedWriteLeavesNoFileAtAll) {
  const Tensor t{DType::kFp16, {1}, {0x3C00}};
  // The second target's directory does not exist: the first must not be written either.
  EXPECT_THROW(WriteNpyFiles({{dir_ / "first.npy", t}, {dir_ / "missing" / "second.npy", t}}), NpyError);
  EXPECT_EQ(FileCount(), 0u);
}

TEST_F(NpyFileTest, ReadNamesTheProblemForMissingFilesAndDirectories) {
  try {
    ReadNpy(dir_ / "absent.npy");
    ADD_FAILURE() << "read a missing file";
  } catch (const NpyError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ReadNpy(dir_), NpyError);
}

}  // namespace
}  // namespace ane::cli
