// SPDX-License-Identifier: Apache-2.0
#include "tb/onnx/move.h"

#include <algorithm>
#include <stdexcept>

namespace ane::onnx_in {
namespace {

int64_t Count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

// A value of `shape` whose element i is v's element src(i), or the fill when src(i) < 0; src
// gets the output's multi-index.
template <class Src>
Value Remap(const Value& v, const std::vector<int64_t>& shape, Src src, uint16_t fill16 = 0, int64_t fill64 = 0) {
  Value out;
  out.type = v.type;
  out.shape = shape;
  const int64_t n = Count(shape);
  if (v.type == ValueType::kFp16) {
    out.fp16.resize(size_t(n));
  } else {
    out.i64.resize(size_t(n));
  }
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = src(idx);
    if (v.type == ValueType::kFp16) {
      out.fp16[size_t(i)] = s < 0 ? fill16 : v.fp16[size_t(s)];
    } else {
      out.i64[size_t(i)] = s < 0 ? fill64 : v.i64[size_t(s)];
    }
    for (size_t a = shape.size(); a-- > 0;) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

}  // namespace

Value Permute(const Value& v, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape;
  for (int64_t p : perm) shape.push_back(v.shape[size_t(p)]);
  const std::vector<int64_t> in = Strides(v.shape);
  return Remap(v, shape, [&](const std::vector<int64_t>& idx) {
    int64_t s = 0;
    for (size_t a = 0; a < perm.size(); ++a) s += idx[a] * in[size_t(perm[a])];
    return s;
  });
}

Value Reshaped(const Value& v, const std::vector<int64_t>& shape) {
  if (Count(shape) != v.Count()) throw std::logic_error("Reshaped: element counts differ");
  Value out = v;
  out.shape = shape;
  return out;
}

Value Concat(const std::vector<const Value*>& parts, int64_t axis) {
  std::vector<int64_t> shape = parts.at(0)->shape;
  shape[size_t(axis)] = 0;
  for (const Value* p : parts) shape[size_t(axis)] += p->shape[size_t(axis)];
  Value out;
  out.type = parts[0]->type;
  out.shape = shape;
  // outer (axes before `axis`) x the parts' blocks of (their axis) x inner
  int64_t outer = 1, inner = 1;
  for (size_t a = 0; a < shape.size(); ++a) {
    if (int64_t(a) < axis) outer *= shape[a];
    if (int64_t(a) > axis) inner *= shape[a];
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (const Value* p : parts) {
      const int64_t block = p->shape[size_t(axis)] * inner;
      if (out.type == ValueType::kFp16) {
        out.fp16.insert(out.fp16.end(), p->fp16.begin() + o * block, p->fp16.begin() + (o + 1) * block);
      } else {
        out.i64.insert(out.i64.end(), p->i64.begin() + o * block, p->i64.begin() + (o + 1) * block);
      }
    }
  }
  return out;
}

Value Sliced(const Value& v, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
             const std::vector<int64_t>& steps) {
  std::vector<int64_t> shape;
  for (size_t a = 0; a < v.shape.size(); ++a) {
    const int64_t st = steps[a];
    const int64_t len = st > 0 ? (ends[a] - starts[a] + st - 1) / st : (starts[a] - ends[a] - st - 1) / -st;
    shape.push_back(std::max<int64_t>(0, len));
  }
  const std::vector<int64_t> in = Strides(v.shape);
  return Remap(v, shape, [&](const std::vector<int64_t>& idx) {
    int64_t s = 0;
    for (size_t a = 0; a < idx.size(); ++a) s += (starts[a] + idx[a] * steps[a]) * in[a];
    return s;
  });
}

Value Gathered(const Value& v, int64_t axis, const Value& indices) {
  std::vector<int64_t> shape(v.shape.begin(), v.shape.begin() + axis);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), v.shape.begin() + axis + 1, v.shape.end());
  const std::vector<int64_t> in = Strides(v.shape);
  const std::vector<int64_t> is = Strides(indices.shape);
  const size_t ir = indices.shape.size();
  return Remap(v, shape, [&](const std::vector<int64_t>& idx) {
    int64_t s = 0;
    for (size_t a = 0; a < size_t(axis); ++a) s += idx[a] * in[a];
    int64_t k = 0;
    for (size_t j = 0; j < ir; ++j) k += idx[size_t(axis) + j] * is[j];
    s += indices.i64[size_t(k)] * in[size_t(axis)];
    for (size_t a = size_t(axis) + 1; a < v.shape.size(); ++a) s += idx[a - 1 + ir] * in[a];
    return s;
  });
}

Value Expanded(const Value& v, const std::vector<int64_t>& shape) {
  const std::vector<int64_t> in = Strides(v.shape);
  const size_t off = shape.size() - v.shape.size();
  return Remap(v, shape, [&](const std::vector<int64_t>& idx) {
    int64_t s = 0;
    for (size_t a = 0; a < v.shape.size(); ++a) {
      if (v.shape[a] != 1) s += idx[a + off] * in[a];
    }
    return s;
  });
}

Value Padded(const Value& v, const std::vector<int64_t>& before, const std::vector<int64_t>& after, uint16_t fill16,
             int64_t fill64) {
  std::vector<int64_t> shape;
  for (size_t a = 0; a < v.shape.size(); ++a) shape.push_back(v.shape[a] + before[a] + after[a]);
  const std::vector<int64_t> in = Strides(v.shape);
  return Remap(
      v, shape,
      [&](const std::vector<int64_t>& idx) -> int64_t {
        int64_t s = 0;
        for (size_t a = 0; a < idx.size(); ++a) {
          const int64_t c = idx[a] - before[a];
          if (c < 0 || c >= v.shape[a]) return -1;
          s += c * in[a];
        }
        return s;
      },
      fill16, fill64);
}

Value Dilated(const Value& v, const std::vector<int64_t>& step, const std::vector<int64_t>& before,
              const std::vector<int64_t>& after) {
  std::vector<int64_t> shape;
  for (size_t a = 0; a < v.shape.size(); ++a) {
    shape.push_back(std::max<int64_t>(0, (v.shape[a] - 1) * step[a] + 1 + before[a] + after[a]));
  }
  const std::vector<int64_t> in = Strides(v.shape);
  return Remap(v, shape, [&](const std::vector<int64_t>& idx) -> int64_t {
    int64_t s = 0;
    for (size_t a = 0; a < idx.size(); ++a) {
      const int64_t t = idx[a] - before[a];
      if (t < 0 || t % step[a] != 0 || t / step[a] >= v.shape[a]) return -1;
      s += (t / step[a]) * in[a];
    }
    return s;
  });
}

std::vector<int64_t> BroadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b, bool* ok) {
  *ok = true;
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r, 1);
  for (size_t i = 0; i < r; ++i) {
    const int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) *ok = false;
    out[r - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

}  // namespace ane::onnx_in
