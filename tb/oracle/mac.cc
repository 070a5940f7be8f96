// SPDX-License-Identifier: Apache-2.0
#include "tb/oracle/mac.h"

#include <limits>
#include <stdexcept>

namespace ane::oracle {

const char* MacModeName(MacMode m) {
  switch (m) {
    case MacMode::kFp16: return "fp16";
    case MacMode::kInt8: return "int8";
    case MacMode::kInt8xFp16: return "int8xfp16";
    case MacMode::kFp16xInt8: return "fp16xint8";
    case MacMode::kInt4: return "int4";
    case MacMode::kCmpMax: return "cmpmax";
    case MacMode::kCmpMin: return "cmpmin";
  }
  return "?";
}

bool IsIntegerMode(MacMode m) { return m == MacMode::kInt8 || m == MacMode::kInt4; }
bool IsCompareMode(MacMode m) { return m == MacMode::kCmpMax || m == MacMode::kCmpMin; }

// ---- Stage 1 ----

Exact DecodeMacFp16(uint16_t code, Generation gen) {
  const uint16_t h = InputBoundary(code);                           // N-1
  if (gen == Generation::kM1 && Fp16IsDenormal(h)) return Exact();  // N-2.3
  return DecodeFp16(h);
}

Exact DecodeMacInt(int32_t value) { return Exact::FromSigned(value); }

int32_t Int8FromCode(uint16_t code) { return int32_t(int8_t(uint8_t(code & 0xFF))); }

int32_t Int4FromCode(uint16_t code, int index) {
  const int nibble = (code >> (4 * index)) & 0xF;
  return nibble >= 8 ? nibble - 16 : nibble;
}

// ---- Stage 2 ----

Exact MacProduct(const Exact& data, const Exact& kernel) { return data * kernel; }

// ---- Stage 3 ----

Exact Add12(const Exact& x, const Exact& y) {
  if (x.is_inf() || y.is_inf()) return x + y;  // inf rules; inf + (-inf) = +0
  if (x.is_zero() && y.is_zero()) return Exact();
  int e;
  if (x.is_zero()) {
    e = y.Exponent();
  } else if (y.is_zero()) {
    e = x.Exponent();
  } else {
    e = std::max(x.Exponent(), y.Exponent());
  }
  return (x + y).RoundToQuantum(e - 11);
}

Exact QuadReduce(const std::array<Exact, 4>& p, Generation gen) {
  if (gen == Generation::kM5) return ((p[0] + p[1]) + p[2]) + p[3];
  return Add12(Add12(Add12(p[0], p[1]), p[2]), p[3]);
}

// ---- Stage 4 ----

Exact DecodeAcc(uint32_t acc_fp32) {
  return Fp32IsNan(acc_fp32) ? Exact::Infinity(false) : DecodeFp32(acc_fp32);  // N-1.1
}

uint32_t AccumulateQuad(uint32_t acc_fp32, const Exact& t, bool ceiling) {
  const uint32_t acc = RoundToFp32(DecodeAcc(acc_fp32) + t);
  if (ceiling && (acc & 0x7F800000u) != 0x7F800000u) {
    const uint16_t port = RoundToFp16(DecodeFp32(acc));
    if ((port & 0x7FFF) >= kAccPortCeiling) return (acc & 0x80000000u) | 0x7F800000u;
  }
  return acc;
}

// ---- Stage 5 ----

uint16_t OutputPort(uint32_t acc_fp32, Generation gen) {
  const uint16_t r = RoundToFp16(DecodeAcc(acc_fp32));
  if (Fp16IsZero(r)) return 0;                                // N-2.7
  if (gen == Generation::kM1 && Fp16IsDenormal(r)) return 0;  // N-2.3
  return r;
}

// ---- Integer MAC ----

int64_t IntQuadReduce(const std::array<int32_t, 4>& p) { return int64_t(p[0]) + p[1] + p[2] + p[3]; }

int32_t IntAccumulate(int32_t acc, int64_t t, bool* saturated) {
  const int64_t s = int64_t(acc) + t;
  if (s > std::numeric_limits<int32_t>::max()) {
    *saturated = true;
    return std::numeric_limits<int32_t>::max();
  }
  if (s < std::numeric_limits<int32_t>::min()) {
    *saturated = true;
    return std::numeric_limits<int32_t>::min();
  }
  return int32_t(s);
}

// ---- Compare mode ----

uint32_t CompareStep(uint32_t acc_fp32, bool has_value, uint16_t data, bool is_max, Generation gen) {
  const Exact d = DecodeMacFp16(data, gen);
  if (!has_value) return RoundToFp32(d);
  const Exact a = DecodeAcc(acc_fp32);
  const int c = Exact::Compare(d, a);
  const bool take = is_max ? c > 0 : c < 0;
  return take ? RoundToFp32(d) : RoundToFp32(a);
}

// ---- MacLane ----

MacLane::Slot& MacLane::At(int slot) {
  if (slot < 0 || slot >= kSlots) throw std::out_of_range("MacLane: slot out of range");
  return slots_[size_t(slot)];
}

const MacLane::Slot& MacLane::At(int slot) const {
  if (slot < 0 || slot >= kSlots) throw std::out_of_range("MacLane: slot out of range");
  return slots_[size_t(slot)];
}

void MacLane::Clear(int slot) { At(slot) = Slot{}; }

void MacLane::Load(int slot, uint32_t bits) {
  Slot& s = At(slot);
  s = Slot{};
  s.acc = bits;
  s.continued = true;
  s.has_value = true;
}

void MacLane::FlushQuad(Slot& s) {
  if (s.pending == 0) return;
  if (s.pending_int) {
    for (int i = s.pending; i < 4; ++i) s.quad_int[size_t(i)] = 0;
    const int32_t acc = IntAccumulate(int32_t(s.acc), IntQuadReduce(s.quad_int), &s.saturated);
    s.acc = uint32_t(acc);
  } else {
    for (int i = s.pending; i < 4; ++i) s.quad[size_t(i)] = Exact();  // pad with +0
    // N-2.6: the ceiling applies when the reduction has K >= 2 (or continues a partial sum).
    const bool ceiling = s.continued || s.products >= 2;
    s.acc = AccumulateQuad(s.acc, QuadReduce(s.quad, gen_), ceiling);
  }
  s.pending = 0;
}

void MacLane::PushFp(Slot& s, const Exact& product, bool last) {
  if (s.pending != 0 && s.pending_int) throw std::logic_error("MacLane: mode changed inside a quad");
  s.pending_int = false;
  s.quad[size_t(s.pending++)] = product;
  if (s.products < (int64_t{1} << 31)) ++s.products;
  if (s.pending == 4 || last) FlushQuad(s);
  if (last) s.continued = true;
}

void MacLane::PushInt(Slot& s, int32_t product, bool last) {
  if (s.pending != 0 && !s.pending_int) throw std::logic_error("MacLane: mode changed inside a quad");
  s.pending_int = true;
  s.quad_int[size_t(s.pending++)] = product;
  if (s.products < (int64_t{1} << 31)) ++s.products;
  if (s.pending == 4 || last) FlushQuad(s);
  if (last) s.continued = true;
}

void MacLane::Step(MacMode mode, uint16_t data, uint16_t kernel, int slot, bool last) {
  switch (mode) {
    case MacMode::kFp16:
      PushFp(At(slot), MacProduct(DecodeMacFp16(data, gen_), DecodeMacFp16(kernel, gen_)), last);
      break;
    case MacMode::kInt8xFp16:
      PushFp(At(slot), MacProduct(DecodeMacInt(Int8FromCode(data)), DecodeMacFp16(kernel, gen_)), last);
      break;
    case MacMode::kFp16xInt8:
      PushFp(At(slot), MacProduct(DecodeMacFp16(data, gen_), DecodeMacInt(Int8FromCode(kernel))), last);
      break;
    case MacMode::kInt8: PushInt(At(slot), Int8FromCode(data) * Int8FromCode(kernel), last); break;
    case MacMode::kInt4: {
      if (slot + 3 >= kSlots) throw std::out_of_range("MacLane: int4 needs slots slot..slot+3");
      const int32_t w = Int4FromCode(kernel, 0);
      for (int i = 0; i < 4; ++i) PushInt(At(slot + i), Int4FromCode(data, i) * w, last);
      break;
    }
    case MacMode::kCmpMax:
    case MacMode::kCmpMin: {
      Slot& s = At(slot);
      if (s.pending != 0) throw std::logic_error("MacLane: compare inside a pending quad");
      s.acc = CompareStep(s.acc, s.has_value, data, mode == MacMode::kCmpMax, gen_);
      s.has_value = true;
      if (s.products < (int64_t{1} << 31)) ++s.products;
      break;
    }
  }
}

uint16_t MacLane::ReadFp16(int slot) const { return OutputPort(At(slot).acc, gen_); }
int32_t MacLane::ReadInt32(int slot) const { return int32_t(At(slot).acc); }
uint32_t MacLane::ReadRaw(int slot) const { return At(slot).acc; }
bool MacLane::Saturated(int slot) const { return At(slot).saturated; }
int64_t MacLane::ProductCount(int slot) const { return At(slot).products; }

MacResult Reduce(MacMode mode, Generation gen, const uint16_t* data, const uint16_t* kernel, size_t k,
                 std::optional<uint32_t> initial) {
  if (mode == MacMode::kInt4) throw std::invalid_argument("Reduce: use MacLane for int4 mode");
  MacLane lane(gen);
  if (initial) lane.Load(0, *initial);
  for (size_t i = 0; i < k; ++i) lane.Step(mode, data[i], kernel[i], 0, i + 1 == k);
  MacResult r;
  r.acc = lane.ReadRaw(0);
  if (IsIntegerMode(mode)) {
    r.int32 = lane.ReadInt32(0);
    r.saturated = lane.Saturated(0);
  } else {
    r.fp16 = lane.ReadFp16(0);
  }
  return r;
}

const char* ElemTypeName(ElemType t) { return t == ElemType::kFp16 ? "fp16" : "int8"; }

MacMode MatmulMode(ElemType a, ElemType b) {
  if (a == ElemType::kFp16) return b == ElemType::kFp16 ? MacMode::kFp16 : MacMode::kFp16xInt8;
  return b == ElemType::kFp16 ? MacMode::kInt8xFp16 : MacMode::kInt8;
}

MatmulResult Matmul(const Matrix& a, const Matrix& b, Generation gen) {
  if (a.cols != b.rows) {
    throw std::invalid_argument("Matmul: inner dimensions differ (" + std::to_string(a.cols) + " vs " +
                                std::to_string(b.rows) + ")");
  }
  const MacMode mode = MatmulMode(a.type, b.type);
  MatmulResult y;
  y.is_int = mode == MacMode::kInt8;
  y.rows = a.rows;
  y.cols = b.cols;
  const size_t n = size_t(y.rows * y.cols);
  if (y.is_int) {
    y.int32.resize(n);
  } else {
    y.fp16.resize(n);
  }
  y.acc.resize(n);
  const int64_t k = a.cols;
  std::vector<uint16_t> column(static_cast<size_t>(k));
  for (int64_t c = 0; c < b.cols; ++c) {
    for (int64_t i = 0; i < k; ++i) column[size_t(i)] = b.at(i, c);
    for (int64_t r = 0; r < a.rows; ++r) {
      MacResult res = k == 0 ? MacResult{} : Reduce(mode, gen, &a.codes[size_t(r * k)], column.data(), size_t(k));
      const size_t idx = size_t(r * y.cols + c);
      y.acc[idx] = res.acc;
      if (y.is_int) {
        y.int32[idx] = res.int32;
        y.saturated_count += res.saturated ? 1 : 0;
      } else {
        y.fp16[idx] = res.fp16;
      }
    }
  }
  return y;
}

MatmulResult MatmulInt4(const Matrix& a, const Matrix& b, Generation gen) {
  if (a.cols != b.rows) {
    throw std::invalid_argument("MatmulInt4: inner dimensions differ (" + std::to_string(a.cols) + " vs " +
                                std::to_string(b.rows) + ")");
  }
  if (a.type != ElemType::kInt8 || b.type != ElemType::kInt8) {
    throw std::invalid_argument("MatmulInt4: int4 operands are given as int8 matrices");
  }
  const auto check = [](const Matrix& m, const char* name) {
    for (int64_t r = 0; r < m.rows; ++r) {
      for (int64_t c = 0; c < m.cols; ++c) {
        const int32_t v = Int8FromCode(m.at(r, c));
        if (v < -8 || v > 7) {
          throw std::invalid_argument(std::string("MatmulInt4: ") + name + "[" + std::to_string(r) + ", " +
                                      std::to_string(c) + "] = " + std::to_string(v) + " is outside -8 .. 7");
        }
      }
    }
  };
  check(a, "a");
  check(b, "b");
  MatmulResult y;
  y.is_int = true;
  y.rows = a.rows;
  y.cols = b.cols;
  y.int32.resize(size_t(y.rows * y.cols));
  for (int64_t g = 0; g * 4 < a.rows; ++g) {
    for (int64_t c = 0; c < b.cols; ++c) {
      MacLane lane(gen);
      for (int64_t k = 0; k < a.cols; ++k) {
        uint16_t word = 0;
        for (int j = 0; j < 4; ++j) {
          const int64_t r = 4 * g + j;
          if (r < a.rows) word = uint16_t(word | ((a.at(r, k) & 0xFu) << (4 * j)));
        }
        lane.Step(MacMode::kInt4, word, uint16_t(b.at(k, c) & 0xFu), 0, k + 1 == a.cols);
      }
      for (int j = 0; j < 4 && 4 * g + j < a.rows; ++j) {
        y.int32[size_t((4 * g + j) * y.cols + c)] = lane.ReadInt32(j);
        y.saturated_count += lane.Saturated(j) ? 1 : 0;
      }
    }
  }
  return y;
}

}  // namespace ane::oracle
