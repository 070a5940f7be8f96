// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/npy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "tb/oracle/formats.h"

namespace ane::cli {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kAlign = 64;  // NumPy pads the header so the data starts 64-byte aligned

[[noreturn]] void Fail(const std::string& what) { throw NpyError(what); }

// The header is a Python dict literal such as
//   {'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }
// Values are strings, True/False or tuples of integers; nothing else appears in the files
// this command reads.
struct HeaderValue {
  enum Kind { kString, kBool, kTuple } kind = kString;
  std::string text;
  bool flag = false;
  std::vector<int64_t> tuple;
};

class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  std::map<std::string, HeaderValue> Parse() {
    std::map<std::string, HeaderValue> dict;
    Expect('{');
    while (!Eat('}')) {
      const std::string key = String();
      Expect(':');
      if (!dict.emplace(key, Value()).second) Fail(fmt::format("header: duplicate key '{}'", key));
      if (!Eat(',')) {
        Expect('}');
        break;
      }
    }
    SkipSpace();
    if (pos_ != s_.size()) Fail("header: unexpected text after the dictionary");
    return dict;
  }

 private:
  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t')) ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Eat(c)) Fail(fmt::format("header: expected '{}' at offset {}", c, pos_));
  }
  bool EatWord(std::string_view w) {
    SkipSpace();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  std::string String() {
    SkipSpace();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) {
      Fail(fmt::format("header: expected a quoted string at offset {}", pos_));
    }
    const char quote = s_[pos_++];
    const size_t end = s_.find(quote, pos_);
    if (end == std::string_view::npos) Fail("header: unterminated string");
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }
  int64_t Integer() {
    SkipSpace();
    const size_t start = pos_;
    int64_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (v > (int64_t{1} << 40)) Fail("header: shape dimension too large");
      v = v * 10 + (s_[pos_++] - '0');
    }
    if (pos_ == start) {
      Fail(fmt::format("header: expected a non-negative integer at offset {}", pos_));
    }
    if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2 long suffix in old files
    return v;
  }
  HeaderValue Value() {
    HeaderValue v;
    SkipSpace();
    if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) {
      v.text = String();
    } else if (EatWord("True")) {
      v.kind = HeaderValue::kBool;
      v.flag = true;
    } else if (EatWord("False")) {
      v.kind = HeaderValue::kBool;
    } else if (Eat('(')) {
      v.kind = HeaderValue::kTuple;
      while (!Eat(')')) {
        v.tuple.push_back(Integer());
        if (!Eat(',')) {
          Expect(')');
          break;
        }
      }
    } else if (Eat('[')) {
      Fail("header: structured dtypes are not supported");
    } else {
      Fail(fmt::format("header: unexpected value at offset {}", pos_));
    }
    return v;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

DType DTypeFromDescr(const std::string& descr) {
  if (descr == "<f2") return DType::kFp16;
  if (descr == "|i1" || descr == "<i1" || descr == ">i1") return DType::kInt8;
  if (descr == "<i4") return DType::kInt32;
  if (descr == ">f2" || descr == ">i4") {
    Fail(fmt::format("big-endian dtype '{}' is not supported (save it as '<{}')", descr, descr.substr(1)));
  }
  Fail(fmt::format("unsupported dtype '{}' (supported: '<f2' fp16, '|i1' int8, '<i4' int32)", descr));
}

uint32_t LoadLittle(const unsigned char* p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::string ErrnoText() { return std::strerror(errno); }

// Writes `bytes` to a new temporary file next to `target`; returns its path.
fs::path WriteTemp(const fs::path& target, const std::string& bytes) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) Fail(fmt::format("{}: cannot write: {}", target.string(), ErrnoText()));
  const mode_t mask = umask(0);
  umask(mask);
  bool ok = fchmod(fd, 0666 & ~mask) == 0;
  for (size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += size_t(n);
  }
  const std::string err = ok ? "" : ErrnoText();
  if (close(fd) != 0 && ok) ok = false;
  if (!ok) {
    unlink(tmpl.c_str());
    Fail(fmt::format("{}: cannot write: {}", target.string(), err.empty() ? ErrnoText() : err));
  }
  return fs::path(tmpl);
}

}  // namespace

const char* DTypeName(DType t) {
  switch (t) {
    case DType::kFp16: return "fp16";
    case DType::kInt8: return "int8";
    case DType::kInt32: return "int32";
  }
  return "?";
}

const char* NpyDescr(DType t) {
  switch (t) {
    case DType::kFp16: return "<f2";
    case DType::kInt8: return "|i1";
    case DType::kInt32: return "<i4";
  }
  return "?";
}

int DTypeBytes(DType t) {
  switch (t) {
    case DType::kFp16: return 2;
    case DType::kInt8: return 1;
    case DType::kInt32: return 4;
  }
  return 0;
}

int64_t ElementCount(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string ShapeString(const std::vector<int64_t>& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

std::string IndexString(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    idx[i] = flat % shape[i];
    flat /= shape[i];
  }
  return ShapeString(idx);
}

Tensor DecodeNpy(const std::string& bytes, bool* rounded_from_fp32) {
  if (bytes.size() < kMagicLen + 2 || bytes.compare(0, kMagicLen, kMagic) != 0) {
    Fail("not an .npy file (bad magic)");
  }
  const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
  const int major = u[6];
  const int minor = u[7];
  if ((major != 1 && major != 2) || minor != 0) {
    Fail(fmt::format("unsupported .npy format version {}.{} (supported: 1.0, 2.0)", major, minor));
  }
  const size_t len_bytes = major == 1 ? 2 : 4;
  const size_t preamble = kMagicLen + 2 + len_bytes;
  if (bytes.size() < preamble) Fail("file ends inside the header");
  const size_t header_len = LoadLittle(u + 8, int(len_bytes));
  if (bytes.size() < preamble + header_len) Fail("file ends inside the header");
  const std::string_view header(bytes.data() + preamble, header_len);
  if (header.empty() || header.back() != '\n') Fail("header does not end with a newline");
  for (char c : header) {
    if (static_cast<unsigned char>(c) >= 0x80 || (c < 0x20 && c != '\n')) {
      Fail("header is not ASCII text");
    }
  }
  std::map<std::string, HeaderValue> dict = HeaderParser(header).Parse();
  for (const auto& kv : dict) {
    if (kv.first != "descr" && kv.first != "fortran_order" && kv.first != "shape") {
      Fail(fmt::format("header: unexpected key '{}'", kv.first));
    }
  }
  auto get = [&](const char* key, HeaderValue::Kind kind, const char* what) {
    auto it = dict.find(key);
    if (it == dict.end()) Fail(fmt::format("header: missing key '{}'", key));
    if (it->second.kind != kind) Fail(fmt::format("header: '{}' must be {}", key, what));
    return it->second;
  };
  Tensor t;
  const std::string descr = get("descr", HeaderValue::kString, "a string").text;
  const bool fp32 = rounded_from_fp32 && descr == "<f4";  // fp32 in, fp16 out (N-1)
  if (rounded_from_fp32) *rounded_from_fp32 = fp32;
  t.dtype = fp32 ? DType::kFp16 : DTypeFromDescr(descr);
  if (get("fortran_order", HeaderValue::kBool, "True or False").flag) {
    Fail(
        "fortran_order is True; only C-order arrays are supported "
        "(save numpy.ascontiguousarray(x))");
  }
  t.shape = get("shape", HeaderValue::kTuple, "a tuple").tuple;
  if (t.shape.size() > kMaxRank) {
    Fail(fmt::format("shape has {} dimensions; at most {}", t.shape.size(), kMaxRank));
  }
  int64_t count = 1;
  for (int64_t d : t.shape) {
    if (d != 0 && count > (int64_t{1} << 40) / d) Fail("shape has too many elements");
    count *= d;
  }
  const size_t data = bytes.size() - preamble - header_len;
  const int width = fp32 ? 4 : DTypeBytes(t.dtype);
  if (uint64_t(count) * uint64_t(width) != data) {
    Fail(fmt::format("data is {} bytes but shape {} of '{}' needs {} bytes", data, ShapeString(t.shape), descr,
                     count * width));
  }
  t.bits.resize(size_t(count));
  const unsigned char* p = u + preamble + header_len;
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t word = uint32_t(LoadLittle(p + i * width, width));
    t.bits[size_t(i)] = fp32 ? oracle::Fp32ToFp16(word) : word;
  }
  return t;
}

std::string EncodeNpy(const Tensor& t) {
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    shape += fmt::format("{}{}", i ? ", " : "", t.shape[i]);
  }
  shape += t.shape.size() == 1 ? ",)" : ")";
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", NpyDescr(t.dtype), shape);
  const size_t unpadded = kMagicLen + 4 + header.size() + 1;
  header.append((kAlign - unpadded % kAlign) % kAlign, ' ');
  header += '\n';
  std::string out(kMagic, kMagicLen);
  out += '\x01';
  out += '\x00';
  out += char(header.size() & 0xFF);
  out += char(header.size() >> 8);
  out += header;
  const int width = DTypeBytes(t.dtype);
  for (uint32_t v : t.bits) {
    for (int b = 0; b < width; ++b) out += char((v >> (8 * b)) & 0xFF);
  }
  return out;
}

Tensor ReadNpy(const fs::path& path, bool* rounded_from_fp32) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) Fail("is a directory, not an .npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(fmt::format("cannot read: {}", ErrnoText()));
  std::stringstream s;
  s << in.rdbuf();
  if (in.bad()) Fail(fmt::format("cannot read: {}", ErrnoText()));
  return DecodeNpy(s.str(), rounded_from_fp32);
}

void WriteNpyFiles(const std::vector<std::pair<fs::path, Tensor>>& files) {
  std::vector<fs::path> temps;
  auto cleanup = [&temps](size_t from) {
    std::error_code ec;
    for (size_t i = from; i < temps.size(); ++i) fs::remove(temps[i], ec);
  };
  try {
    for (const auto& [target, tensor] : files) {
      temps.push_back(WriteTemp(target, EncodeNpy(tensor)));
    }
  } catch (const NpyError&) {
    cleanup(0);
    throw;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      const std::string err = ErrnoText();
      cleanup(i);
      Fail(fmt::format("{}: cannot write: {}", files[i].first.string(), err));
    }
  }
}

std::string OutDirProblem(const fs::path& dir) {
  if (dir.empty()) return "an empty path";
  std::error_code ec;
  for (fs::path p = dir.lexically_normal(); !p.empty(); p = p.parent_path()) {
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) {
        return p == dir.lexically_normal() ? "exists and is not a directory"
                                           : fmt::format("{} is not a directory", p.string());
      }
      return "";
    }
    if (p == p.parent_path()) break;
  }
  return "";
}

namespace {

// dir and its parents, made once every check has passed, just before the files are written.
void MakeOutDir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    Fail(fmt::format("{}: cannot create the directory: {}", dir.string(), ec.message()));
}

}  // namespace

void WriteNpyFilesIn(const std::optional<fs::path>& dir, const std::vector<std::pair<fs::path, Tensor>>& files) {
  fs::path made;  // the outermost folder this call makes
  std::error_code ec;
  if (dir && !files.empty()) {
    for (fs::path p = dir->lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
      made = p;
      if (p == p.parent_path()) break;
    }
    MakeOutDir(*dir);
  }
  try {
    WriteNpyFiles(files);
  } catch (const NpyError&) {
    if (!made.empty()) fs::remove_all(made, ec);
    throw;
  }
}

}  // namespace ane::cli
