// SPDX-License-Identifier: Apache-2.0
#include "tb/td/chain.h"

#include <fmt/format.h>

#include <algorithm>

#include "tb/oracle/conv.h"
#include "tb/oracle/fast_mac.h"

namespace ane::td {
namespace {

[[noreturn]] void Fail(const std::string& what) { throw TdError(what); }
namespace r = regs::td;

uint32_t Load(const std::vector<uint8_t>& b, uint64_t at, int bytes) {
  return bytes == 2 ? uint32_t(b[at] | b[at + 1] << 8) : uint32_t(b[at]);
}

void Store(std::vector<uint8_t>* b, uint64_t at, int bytes, uint32_t v) {
  (*b)[at] = uint8_t(v);
  if (bytes == 2) (*b)[at + 1] = uint8_t(v >> 8);
}

// Each element's byte range of an access.
template <class F>
void ForEachElement(const TensorAccess& a, F f) {
  const uint64_t eb = uint64_t(ElemBytes(a.format));
  for (int c = 0; c < a.c; ++c) {
    for (int y = 0; y < a.h; ++y) {
      for (int x = 0; x < a.w; ++x) {
        const uint64_t o = a.Offset(c, y, x);
        f(o, o + eb, c, y, x);
      }
    }
  }
}

}  // namespace

int TensorElemBytes(const HwxTensor& t) {
  if (t.type == 5) return 2;
  if (t.type == 2) return 1;
  Fail(fmt::format("tensor {}: element type {} is not modelled (5 float16, 2 int8)", t.name, t.type));
}

uint64_t HostOffset(const HwxTensor& t, uint64_t c, uint64_t h, uint64_t w) {
  return c * t.strides[1] + h * t.strides[2] + w * t.strides[3];
}

std::vector<uint16_t> ReadAccess(const TensorAccess& a, const std::vector<uint8_t>& buf) {
  std::vector<uint16_t> v;
  v.reserve(size_t(a.c) * size_t(a.h) * size_t(a.w));
  const int eb = ElemBytes(a.format);
  ForEachElement(a, [&](uint64_t o, uint64_t, int, int, int) {
    const uint32_t x = Load(buf, o, eb);
    v.push_back(eb == 2 ? uint16_t(x) : uint16_t(int16_t(int8_t(x))));
  });
  return v;
}

void WriteAccess(const TensorAccess& a, const std::vector<uint16_t>& v, std::vector<uint8_t>* buf) {
  const int eb = ElemBytes(a.format);
  size_t i = 0;
  ForEachElement(a, [&](uint64_t o, uint64_t, int, int, int) { Store(buf, o, eb, v[i++]); });
}

namespace {

using TensorOf = std::map<int, const HwxTensor*>;  // buffer-table entry -> the tensor in it

// The buffer-table entry that holds the TDs, or -1.
int TdBar(const Hwx& h) {
  for (int i = 0; i < kBarEntries; ++i) {
    if (h.bar[i] != 0 && h.bar[i] == h.sections[size_t(h.text)].addr) return i;
  }
  return -1;
}

// The tensors a TD reads and writes, each with the header field that names its buffer.
std::vector<std::pair<const TensorAccess*, int>> Touches(const TdLayer& l) {
  std::vector<std::pair<const TensorAccess*, int>> a{{&l.src, r::kHeader_8_RBase0}, {&l.dst, r::kHeader_8_WBase}};
  if (l.planar) a.push_back({&l.src1, r::kHeader_8_RBase1});
  return a;
}

// Each tensor's buffer, checked: a table entry of its own, N = D = 1, strides inside it.
TensorOf PlaceTensors(const Hwx& h, Program* pp) {
  Program& p = *pp;
  TensorOf tensor_of;
  for (const HwxTensor& t : h.tensors) {
    if (t.bar < 0) Fail(fmt::format("tensor {}: no buffer-table entry holds its address 0x{:x}", t.name, t.vmaddr));
    if (t.vmsize > (uint64_t(1) << 30)) Fail(fmt::format("tensor {}: a {}-byte buffer", t.name, t.vmsize));
    if (t.dims[0] != 1 || t.dims[4] != 1) {
      Fail(fmt::format("tensor {}: dims [N C H W D] = [{} {} {} {} {}]: only N = D = 1 is modelled", t.name, t.dims[0],
                       t.dims[1], t.dims[2], t.dims[3], t.dims[4]));
    }
    for (int d = 1; d <= 3; ++d) {
      if (t.dims[d] == 0 || t.dims[d] > (1u << 16))
        Fail(fmt::format("tensor {}: dimension {} is {}", t.name, d, t.dims[d]));
    }
    for (int d = 0; d < 5; ++d) {  // bounded, so that the offsets below cannot wrap
      if (t.strides[d] > (uint64_t(1) << 32)) {
        Fail(fmt::format("tensor {}: byte stride {} of dimension {} is more than 2^32", t.name, t.strides[d], d));
      }
    }
    const uint64_t eb = uint64_t(TensorElemBytes(t));
    if (t.strides[3] != eb)
      Fail(fmt::format("tensor {}: W stride {} is not the element size {}", t.name, t.strides[3], eb));
    const uint64_t end = HostOffset(t, t.dims[1] - 1, t.dims[2] - 1, t.dims[3] - 1) + eb;
    if (end > t.vmsize) {
      Fail(fmt::format("tensor {}: its strides reach byte 0x{:x}, past its buffer's 0x{:x}", t.name, end, t.vmsize));
    }
    if (tensor_of.count(t.bar))
      Fail(fmt::format("tensors {} and {} share buffer {}", tensor_of[t.bar]->name, t.name, t.bar));
    tensor_of[t.bar] = &t;
    p.buffers[t.bar].assign(size_t(t.vmsize), 0);
  }
  return tensor_of;
}

// Scratch buffers, as large as the TDs need; every buffer a TD names exists.
void PlaceScratch(const Hwx& h, Program* pp) {
  Program& p = *pp;
  for (const TdLayer& l : p.layers) {
    for (const auto& [a, field] : Touches(l)) {
      if (h.bar[a->bar] == 0) {
        Fail(fmt::format("TD {}: {} = {}: the buffer-table entry is empty", l.index, regs::td::kFields[field].name,
                         a->bar));
      }
      if (a->End() > (uint64_t(1) << 30))
        Fail(fmt::format("TD {}: it reaches byte 0x{:x} of buffer {}", l.index, a->End(), a->bar));
      if (!p.buffers.count(a->bar)) {
        uint64_t need = 0;
        for (const TdLayer& m : p.layers) {
          for (const auto& [b, f] : Touches(m)) {
            if (b->bar == a->bar) need = std::max(need, b->End());
          }
        }
        p.buffers[a->bar].assign(size_t(need), 0);
      }
    }
    if (l.kernels.bar >= 0 && h.bar[l.kernels.bar] == 0) {
      Fail(fmt::format("TD {}: Header[9].KBase0 = {}: the buffer-table entry is empty", l.index, l.kernels.bar));
    }
    if (l.kernels.bar >= 0 && !p.buffers.count(l.kernels.bar)) {
      Fail(fmt::format("TD {}: Header[9].KBase0 = {} ({}): kernels from a buffer no tensor, weights or TD holds",
                       l.index, l.kernels.bar, h.BarName(l.kernels.bar)));
    }
  }
}

// The chain's use of memory, byte by byte, before anything runs: every byte a TD reads holds an
// input, a weight or an earlier TD's result; no TD writes what it reads, the TDs, the weights or
// an input; outputs do not overlap; every output byte is written.
class MemoryUse {
 public:
  MemoryUse(const Hwx& hwx, const Program& prog, int tdb, const TensorOf& tensors)
      : h(hwx), p(prog), td_bar(tdb), tensor_of(tensors) {
    for (const auto& [bar, bytes] : p.buffers) state[bar].assign(bytes.size(), 0);
    if (h.weights_bar >= 0 && state.count(h.weights_bar))
      std::fill(state[h.weights_bar].begin(), state[h.weights_bar].end(), 1);
    for (const HwxTensor& t : h.tensors) {
      const uint64_t eb = uint64_t(TensorElemBytes(t));
      if (t.role == TensorRole::kOutput) writer[t.bar].assign(p.buffers.at(t.bar).size(), -1);
      if (t.role != TensorRole::kInput) continue;
      for (uint32_t c = 0; c < t.dims[1]; ++c) {
        for (uint32_t y = 0; y < t.dims[2]; ++y) {
          for (uint32_t x = 0; x < t.dims[3]; ++x) {
            const uint64_t o = HostOffset(t, c, y, x);
            std::fill(state[t.bar].begin() + long(o), state[t.bar].begin() + long(o + eb), 1);
          }
        }
      }
    }
  }

  void CheckTd(const TdLayer& l) {
    const std::string where = fmt::format("TD {}", l.index);
    const int d = l.dst.bar;
    std::vector<uint8_t> read_of_d;  // the bytes of the destination's buffer this TD reads
    auto check_read = [&](int bar, uint64_t b, uint64_t e, const char* field) {
      const std::vector<uint8_t>& s = state.at(bar);
      if (e > s.size())
        Fail(fmt::format("{}: {} reads up to byte 0x{:x} of {}, which has 0x{:x}", where, field, e, name(bar),
                         s.size()));
      if (bar == td_bar) Fail(fmt::format("{}: {} = {} reads the TDs as data", where, field, bar));
      for (uint64_t k = b; k < e; ++k) {
        if (s[k] == 0) {
          Fail(fmt::format("{}: {} reads byte 0x{:x} of {}, which no input holds and no earlier TD wrote", where, field,
                           k, name(bar)));
        }
      }
      if (bar == d) {
        if (read_of_d.empty()) read_of_d.assign(s.size(), 0);
        std::fill(read_of_d.begin() + long(b), read_of_d.begin() + long(e), 1);
      }
    };
    for (const auto& touch : Touches(l)) {
      const auto* a = touch.first;  // (a structured binding cannot be captured in C++17: clang refuses it)
      const auto field = touch.second;
      if (a == &l.dst) continue;
      ForEachElement(
          *a, [&](uint64_t b, uint64_t e, int, int, int) { check_read(a->bar, b, e, regs::td::kFields[field].name); });
    }
    if (l.kernels.bar >= 0) {
      for (const auto& [b, e] : l.KernelReads()) check_read(l.kernels.bar, b, e, "Header[9].KBase0 (kernels)");
    }
    if (d == td_bar || d == h.weights_bar)
      Fail(fmt::format("{}: Header[8].WBase = {} writes into {}", where, d, name(d)));
    if (tensor_of.count(d) && tensor_of.at(d)->role == TensorRole::kInput) {
      Fail(fmt::format("{}: Header[8].WBase = {} writes into the input tensor {}", where, d, tensor_of.at(d)->name));
    }
    if (l.dst.End() > state.at(d).size()) {
      Fail(fmt::format("{}: writes up to byte 0x{:x} of {}, which has 0x{:x}", where, l.dst.End(), name(d),
                       state.at(d).size()));
    }
    ForEachElement(l.dst, [&](uint64_t b, uint64_t e, int c, int y, int x) {
      if (!read_of_d.empty() &&
          std::any_of(read_of_d.begin() + long(b), read_of_d.begin() + long(e), [](uint8_t r) { return r != 0; })) {
        Fail(
            fmt::format("{}: writes element [{}, {}, {}] at byte 0x{:x} of {}, which it also reads (a result in "
                        "place of its operands is not modelled)",
                        where, c, y, x, b, name(d)));
      }
      if (writer.count(d)) {
        for (uint64_t k = b; k < e; ++k) {
          if (writer[d][k] >= 0) {
            Fail(fmt::format("{}: writes byte 0x{:x} of output {}, which TD {} already wrote (outputs that overlap)",
                             where, k, tensor_of.at(d)->name, writer[d][k]));
          }
          writer[d][k] = l.index;
        }
      }
      std::fill(state[d].begin() + long(b), state[d].begin() + long(e), 2);
    });
  }

  void CheckOutputsWritten() const {
    for (const HwxTensor& t : h.tensors) {
      if (t.role != TensorRole::kOutput) continue;
      const uint64_t eb = uint64_t(TensorElemBytes(t));
      for (uint32_t c = 0; c < t.dims[1]; ++c) {
        for (uint32_t y = 0; y < t.dims[2]; ++y) {
          for (uint32_t x = 0; x < t.dims[3]; ++x) {
            const uint64_t o = HostOffset(t, c, y, x);
            for (uint64_t k = o; k < o + eb; ++k) {
              if (state.at(t.bar)[k] != 2)
                Fail(fmt::format("output {}: element [{}, {}, {}] is written by no TD", t.name, c, y, x));
            }
          }
        }
      }
    }
  }

 private:
  std::string name(int bar) const { return fmt::format("buffer {} ({})", bar, h.BarName(bar)); }

  const Hwx& h;
  const Program& p;
  const int td_bar;
  const TensorOf& tensor_of;
  std::map<int, std::vector<uint8_t>> state;  // 0 undefined, 1 defined (input, weights), 2 written by a TD
  std::map<int, std::vector<int>> writer;     // outputs: the TD that wrote each byte
};

}  // namespace

Program PrepareProgram(std::vector<uint8_t> file) {
  Program p;
  p.hwx = ParseHwx(std::move(file));
  const Hwx& h = p.hwx;
  p.tds = WalkChain(h.TdBytes(), h.td_count);
  p.layers = Interpret(p.tds, h.WeightBytes(), h.weights_bar);
  const int td_bar = TdBar(h);

  // Buffers: the TDs, the weights, the tensors (their segments), the rest scratch.
  for (int i = 0; i < kBarEntries; ++i) {
    if (h.bar[i] == 0) continue;
    if (i == td_bar) {
      p.buffers[i] = h.TdBytes();
    } else if (i == h.weights_bar) {
      p.buffers[i] = h.WeightBytes();
    }
  }
  const TensorOf tensor_of = PlaceTensors(h, &p);
  PlaceScratch(h, &p);
  MemoryUse use(h, p, td_bar, tensor_of);
  for (const TdLayer& l : p.layers) use.CheckTd(l);
  use.CheckOutputsWritten();
  return p;
}

TdRun RunTdOracle(const TdLayer& l, Buffers* buffers, bool fast) {
  TdRun run;
  run.layer = l;
  TdLayer& L = run.layer;
  if (!L.loaded) LoadKernels(&L, buffers->at(L.kernels.bar));
  run.x = ReadAccess(L.src, buffers->at(L.src.bar));
  if (L.planar) {
    run.x1 = ReadAccess(L.src1, buffers->at(L.src1.bar));
    run.y.resize(run.x.size());
    for (size_t i = 0; i < run.x.size(); ++i) run.y[i] = PlanarElement(L.pe, run.x[i], run.x1[i]);
  } else {
    oracle::Tensor3 x;
    x.c = L.src.c;
    x.h = L.src.h;
    x.w = L.src.w;
    x.codes = run.x;
    const oracle::Tensor3 y =
        fast && !L.layer.post.sr ? oracle::FastConv2d(L.layer, x, L.w) : oracle::Conv2d(L.layer, x, L.w);
    run.y = y.codes;
  }
  WriteAccess(L.dst, run.y, &buffers->at(L.dst.bar));
  return run;
}

}  // namespace ane::td
