// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/tensors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "tb/oracle/formats.h"

namespace ane::cli {

namespace {

using oracle::Exact;

// Parameters such as `std: 0.1` that are not binary fractions are rounded to this grid.
constexpr int kParamFracBits = 40;
constexpr int64_t kMaxValues = kMaxElements;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::optional<uint64_t> ParseHex(const std::string& text) {
  if (text.size() < 3 || text.size() > 10 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
    return std::nullopt;
  }
  uint64_t v = 0;
  for (size_t i = 2; i < text.size(); ++i) {
    const int c = std::tolower(static_cast<unsigned char>(text[i]));
    if (!std::isxdigit(c)) return std::nullopt;
    v = v * 16 + uint64_t(std::isdigit(c) ? c - '0' : c - 'a' + 10);
  }
  return v;
}

uint32_t ParseFp16(const Field& f, const std::string& text) {
  const std::string t = Lower(text);
  if (t == "inf" || t == "+inf" || t == ".inf" || t == "+.inf") return oracle::kFp16PosInf;
  if (t == "-inf" || t == "-.inf") return oracle::kFp16NegInf;
  if (t == "nan" || t == ".nan") return 0x7E00;
  const std::optional<Decimal> d = ParseDecimal(text);
  if (!d) {
    f.Fail(fmt::format("'{}' is not a number (write e.g. 1.5, -inf or a code like 0x3e00)", text));
  }
  if (const std::optional<Exact> x = DecimalToExact(*d)) {
    const uint16_t code = oracle::RoundToFp16(*x, d->negative && x->is_zero());
    if (oracle::Fp16IsInf(code)) {
      f.Fail(fmt::format("{} overflows fp16 (largest finite value 65504; write inf for infinity)", text));
    }
    if (oracle::DecodeFp16(code) == *x) return code;
  }
  const std::optional<Exact> near = DecimalToGrid(*d, kParamFracBits);
  if (!near) f.Fail(fmt::format("{} is outside the fp16 range", text));
  const uint16_t code = oracle::RoundToFp16(*near);
  f.Fail(fmt::format("{} is not exactly representable in fp16 (nearest: {})", text, FormatValue(code, DType::kFp16)));
}

uint32_t ParseInteger(const Field& f, const std::string& text, DType dtype) {
  const bool int8 = dtype == DType::kInt8;
  if (const std::optional<uint64_t> hex = ParseHex(text)) {
    if (*hex > (int8 ? 0xFFu : 0xFFFFFFFFu)) {
      f.Fail(fmt::format("{} does not fit {}", text, DTypeName(dtype)));
    }
    return uint32_t(*hex);
  }
  const int64_t v = int8 ? f.Integer(-128, 127) : f.Integer(INT32_MIN, INT32_MAX);
  return int8 ? uint32_t(v) & 0xFF : uint32_t(int32_t(v));
}

// Repeat groups nest, but not without end: a YAML alias can make a list hold itself
// (`&a [1, {repeat: *a, times: 2}]`), which recursed until the stack overflowed (regression
// input tb/fuzz/regressions/value/repeat_alias_cycle). Hand-written suites nest two or three deep.
constexpr int kMaxRepeatDepth = 8;

// `depth`: the groups around `list`.
void AppendValues(const Field& list, DType dtype, std::vector<uint32_t>* out, int depth = 0) {
  for (const Field& item : list.Items()) {
    if (item.IsSequence()) {
      item.Fail("nested lists are not supported (give a flat list and a shape)");
    }
    if (!item.IsMap()) {
      out->push_back(ParseValue(item, dtype));
      continue;
    }
    if (depth == kMaxRepeatDepth) {
      item.Fail(
          fmt::format("repeat groups nested more than {} deep (a YAML alias that refers to "
                      "the list holding it?)",
                      kMaxRepeatDepth));
    }
    Fields group(item);
    const Field repeat = group.Required("repeat");
    const int64_t times = group.Required("times").Integer(1, kMaxValues);
    group.Finish();
    std::vector<uint32_t> once;
    if (repeat.IsSequence()) {
      AppendValues(repeat, dtype, &once, depth + 1);
    } else {
      once.push_back(ParseValue(repeat, dtype));
    }
    if (int64_t(out->size()) + int64_t(once.size()) * times > kMaxValues)
      item.Fail(fmt::format("more than 2^{} values", kMaxElementsLog2));
    for (int64_t i = 0; i < times; ++i) out->insert(out->end(), once.begin(), once.end());
  }
}

DType ParseDType(const Field& f) {
  const std::string t = f.Scalar();
  if (t == "fp16") return DType::kFp16;
  if (t == "int8") return DType::kInt8;
  f.Fail(fmt::format("unknown dtype '{}' (expected fp16 or int8)", t));
}

// An fp16-path parameter (mean, std, low, high, start, step): a decimal, exact when it is a
// binary fraction, else rounded to a multiple of 2^-40.
Exact Param(Fields& fields, const char* key, int64_t fallback) {
  const std::optional<Field> f = fields.Optional(key);
  if (!f) return Exact::FromSigned(fallback);
  const std::string text = f->Scalar();
  const std::optional<Decimal> d = ParseDecimal(text);
  if (!d) f->Fail(fmt::format("'{}' is not a number", text));
  const std::optional<Exact> x = DecimalToGrid(*d, kParamFracBits);
  if (!x || Exact::Compare(x->Abs(), Exact::FromInt(false, 1, 40)) > 0) {
    f->Fail(fmt::format("{} is out of range (|x| <= 2^40)", text));
  }
  return *x;
}

int64_t IntParam(Fields& fields, const char* key, int64_t fallback) {
  const std::optional<Field> f = fields.Optional(key);
  return f ? f->Integer(-128, 127) : fallback;
}

// The bits of one generated element: an fp16 code (exact RNE by the oracle) or an int8 byte.
uint32_t Encode(const Exact& x, DType dtype) {
  if (dtype == DType::kFp16) return oracle::RoundToFp16(x);
  const Exact r = x.RoundToQuantum(0);  // RNE to an integer, then clamp to the int8 range
  int64_t v = r.is_zero() ? 0 : int64_t(std::min<uint64_t>(r.ScaledMagnitude(0), 1000));
  if (r.negative()) v = -v;
  return uint32_t(std::clamp<int64_t>(v, -128, 127)) & 0xFF;
}

LoadedTensor Generate(const Field& spec, const TensorOptions& options) {
  Fields f(spec);
  const std::string dist = f.Required("distribution").Scalar();
  const std::vector<int64_t> shape = f.Required("shape").Shape();
  const std::optional<Field> dtype_field = f.Optional("dtype");
  const DType dtype = dtype_field ? ParseDType(*dtype_field) : DType::kFp16;
  const bool int8 = dtype == DType::kInt8;
  const int64_t n = ElementCount(shape);

  LoadedTensor out;
  out.tensor.dtype = dtype;
  out.tensor.shape = shape;
  out.origin = fmt::format("{} {}", DTypeName(dtype), dist);
  std::vector<uint32_t>& bits = out.tensor.bits;
  bits.resize(size_t(n));
  auto fill = [&](const std::function<Exact(int64_t)>& value) {
    for (int64_t i = 0; i < n; ++i) bits[size_t(i)] = Encode(value(i), dtype);
  };
  auto seeded = [&]() {
    const uint64_t file_seed = f.Required("seed").Unsigned64();
    out.seed = file_seed + options.seed_offset.value_or(0);
    out.origin += fmt::format(", seed {}", *out.seed);
    return SplitMix64(*out.seed);
  };

  if (dist == "zeros" || dist == "ones") {
    fill([&](int64_t) { return Exact::FromSigned(dist == "ones" ? 1 : 0); });
  } else if (dist == "constant") {
    const uint32_t v = ParseValue(f.Required("value"), dtype);
    std::fill(bits.begin(), bits.end(), v);
  } else if (dist == "identity") {
    if (shape.size() != 2) f.Required("shape").Fail("identity needs a 2-D shape");
    fill([&](int64_t i) { return Exact::FromSigned(i / shape[1] == i % shape[1] ? 1 : 0); });
  } else if (dist == "range") {
    const Exact start = int8 ? Exact::FromSigned(IntParam(f, "start", 0)) : Param(f, "start", 0);
    const Exact step = int8 ? Exact::FromSigned(IntParam(f, "step", 1)) : Param(f, "step", 1);
    const Exact last = start + step * Exact::FromSigned(n - 1);
    if (int8 &&
        (Exact::Compare(last, Exact::FromSigned(-128)) < 0 || Exact::Compare(last, Exact::FromSigned(127)) > 0)) {
      f.map().Fail("range leaves the int8 range [-128, 127]");
    }
    fill([&](int64_t i) { return start + step * Exact::FromSigned(i); });
  } else if (dist == "uniform") {
    if (int8) {
      const int64_t low = IntParam(f, "low", -128);
      const int64_t high = IntParam(f, "high", 127);
      if (low > high) f.map().Fail("uniform needs low <= high");
      SplitMix64 rng = seeded();
      const uint64_t span = uint64_t(high - low + 1);
      fill([&](int64_t) { return Exact::FromSigned(low + int64_t(((rng.Next() >> 32) * span) >> 32)); });
    } else {
      const Exact low = Param(f, "low", -1);
      const Exact high = Param(f, "high", 1);
      if (!(low < high)) f.map().Fail("uniform needs low < high");
      SplitMix64 rng = seeded();
      const Exact width = high - low;
      fill([&](int64_t) { return low + width * Exact::FromInt(false, rng.Next() >> 11, -53); });
    }
  } else if (dist == "normal") {
    const Exact mean = Param(f, "mean", 0);
    const Exact sd = Param(f, "std", 1);
    if (sd.negative()) f.Required("std").Fail("std must be >= 0");
    SplitMix64 rng = seeded();
    // Irwin-Hall: the sum of 12 uniform 32-bit integers, minus 6, scaled by 2^-32, has mean 0
    // and variance 1 exactly; tails end at +-6 std.
    fill([&](int64_t) {
      int64_t z = -6 * (int64_t{1} << 32);
      for (int k = 0; k < 12; ++k) z += int64_t(rng.Next() >> 32);
      return mean + sd * Exact::FromSigned(z, -32);
    });
  } else {
    f.Required("distribution")
        .Fail(fmt::format("unknown distribution '{}' (expected zeros, ones, constant, identity, "
                          "range, uniform or normal)",
                          dist));
  }
  f.Finish();
  return out;
}

LoadedTensor InlineValues(Fields& f) {
  LoadedTensor out;
  const std::optional<Field> dtype_field = f.Optional("dtype");
  out.tensor.dtype = dtype_field ? ParseDType(*dtype_field) : DType::kFp16;
  const Field values = f.Required("values");
  out.tensor.bits = ParseValueList(values, out.tensor.dtype);
  if (const std::optional<Field> shape = f.Optional("shape")) {
    out.tensor.shape = shape->Shape();
    if (ElementCount(out.tensor.shape) != int64_t(out.tensor.bits.size())) {
      values.Fail(fmt::format("{} values do not fill shape {}", out.tensor.bits.size(), ShapeString(out.tensor.shape)));
    }
  } else {
    out.tensor.shape = {int64_t(out.tensor.bits.size())};
  }
  if (out.tensor.bits.empty()) values.Fail("no values");
  f.Finish();
  out.origin = fmt::format("{} values", DTypeName(out.tensor.dtype));
  return out;
}

}  // namespace

uint64_t SplitMix64::Next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

LoadedTensor LoadTensor(const Field& spec, const TensorOptions& options) {
  if (spec.IsScalar()) {
    const std::filesystem::path path = spec.Path();
    LoadedTensor out;
    try {
      out.tensor = ReadNpy(path);
    } catch (const NpyError& e) {
      spec.Fail(fmt::format("{}: {}", path.string(), e.what()));
    }
    out.origin = path.string();
    return out;
  }
  if (spec.IsMap()) {
    Fields f(spec);
    if (f.Has("generate") && f.Has("values")) spec.Fail("give either generate or values, not both");
    if (f.Has("generate")) {
      const Field g = f.Required("generate");
      f.Finish();
      return Generate(g, options);
    }
    if (f.Has("values")) return InlineValues(f);
  }
  spec.Fail("expected an .npy path, {values: [...]} or {generate: {...}}");
}

uint32_t ParseValue(const Field& f, DType dtype) {
  const std::string text = f.Scalar();
  if (dtype != DType::kFp16) return ParseInteger(f, text, dtype);
  if (const std::optional<uint64_t> hex = ParseHex(text)) {
    if (*hex > 0xFFFF) f.Fail(fmt::format("{} is not a 16-bit code", text));
    return uint32_t(*hex);
  }
  return ParseFp16(f, text);
}

std::vector<uint32_t> ParseValueList(const Field& f, DType dtype) {
  std::vector<uint32_t> out;
  AppendValues(f, dtype, &out);
  return out;
}

std::string FormatValue(uint32_t bits, DType dtype) {
  if (dtype == DType::kInt8) return fmt::format("{}", int(int8_t(uint8_t(bits))));
  if (dtype == DType::kInt32) return fmt::format("{}", int32_t(bits));
  const uint16_t h = uint16_t(bits);
  const std::string sign = (h & 0x8000) ? "-" : "";
  if (oracle::Fp16IsNan(h)) return fmt::format("nan (0x{:04x})", h);
  if (oracle::Fp16IsInf(h)) return sign + "inf";
  const int e = (h >> 10) & 0x1F;
  const uint64_t m = e == 0 ? (h & 0x3FF) : ((h & 0x3FF) | 0x400);
  const int exp = (e == 0 ? 1 : e) - 25;  // value = m * 2^exp
  if (exp >= 0) return sign + fmt::format("{}", m << exp);
  // m * 2^exp = m * 5^n / 10^n with n = -exp <= 24: exact decimal digits.
  const int n = -exp;
  unsigned __int128 scaled = m;
  for (int i = 0; i < n; ++i) scaled *= 5;
  unsigned __int128 pow10 = 1;
  for (int i = 0; i < n; ++i) pow10 *= 10;
  const uint64_t int_part = uint64_t(scaled / pow10);
  std::string frac(size_t(n), '0');
  size_t digit = frac.size();
  for (unsigned __int128 rest = scaled % pow10; rest != 0; rest /= 10) {
    frac[--digit] = char('0' + int(rest % 10));
  }
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return sign + fmt::format("{}", int_part) + (frac.empty() ? "" : "." + frac);
}

int64_t OrderedValue(uint32_t bits, DType dtype) {
  switch (dtype) {
    case DType::kFp16: return oracle::Fp16OrderedIndex(uint16_t(bits));
    case DType::kInt8: return int8_t(uint8_t(bits));
    case DType::kInt32: return int32_t(bits);
  }
  return 0;
}

}  // namespace ane::cli
