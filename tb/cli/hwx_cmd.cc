// SPDX-License-Identifier: Apache-2.0
#include "tb/cli/hwx_cmd.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "tb/cli/args.h"
#include "tb/cli/op_family.h"
#include "tb/cli/operation.h"
#include "tb/cli/schema.h"
#include "tb/harness/sim.h"
#include "tb/harness/td_run.h"
#include "tb/oracle/formats.h"
#include "tb/plan/core_plan.h"
#include "tb/td/chain.h"
#include "tb/td/program.h"

namespace ane::cli {

const char kTdHelp[] = R"TEXT(usage: ane td decode FILE [--yaml] [--nonzero]
       ane td encode FILE.yaml -o OUT [--hwx PROGRAM.hwx]

decode: FILE is an .hwx program (Mach-O) or a raw task-descriptor blob. Prints the container
        (tensors, buffer table, weights, relocations), then every TD of the chain: every stream
        with every named field (bits, value, units, meaning; --nonzero leaves out the zero ones) and
        the bits no named field covers, raw. --yaml prints the editable form instead.
encode: reads the editable form and writes the TD bytes to OUT; with --hwx, writes
        PROGRAM.hwx with its TD section replaced by them (same size). decode --yaml then
        encode gives back the same bytes.
The fields: docs/td.md (generated from rtl/regs/ane_regs.yaml).
)TEXT";

const char kRunHwxHelp[] =
    R"TEXT(usage: ane run PROGRAM.hwx --input NAME=x.npy ... [--out-dir DIR] [--engine E] [--wave FILE.fst]

Runs a program compiled for the ANE (an .hwx file): reads its tensors, weights and task
descriptors, maps each TD onto the task the model runs (a convolution, or the per-element
pass as a depthwise 1x1 convolution, with scale, per-channel bias, ReLU or the program's own
lookup table; or a planar elementwise operation of two sources), follows the chain through
the program's buffers (its inputs, intermediate buffers, its outputs) and writes each output
tensor to DIR/NAME.npy. A program the model cannot run exactly is refused with one line
naming the TD and the field (exit 2). docs/td.md lists every assumption of that mapping.

  --input NAME=FILE  one per input tensor of the program (`ane td decode` names them):
                     .npy of its element type whose shape is the tensor's [N, C, H, W] with
                     any dimensions of size 1 left out or kept ([16], [1, 16], [1, 1, 1, 16])
  --out-dir DIR      write the outputs there (made when it does not exist); without it,
                     nothing is written
  --engine E         oracle (default), rtl (the TD front end, the 256-lane core and the
                     16-lane planar engine, from the TD bytes), both
  --wave FILE.fst    the waveforms (engines rtl and both): FILE.fst the TD front end (open
                     with gtkwave FILE.fst sim/ane_td_ctrl.gtkw), FILE.2.fst the core
                     (sim/ane_core.gtkw), FILE.3.fst the planar engine (sim/ane_planar.gtkw)
)TEXT";

namespace {

namespace fs = std::filesystem;
namespace r = regs::td;

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw CliError(fmt::format("{}: is a directory", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CliError(fmt::format("{}: cannot open", path));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw CliError(fmt::format("{}: cannot read (not a regular file)", path));
  if (size > (std::streamoff(1) << 30)) throw CliError(fmt::format("{}: {} bytes is more than 1 GiB", path, size));
  in.seekg(0);
  std::vector<uint8_t> b(static_cast<size_t>(size));
  in.read(reinterpret_cast<char*>(b.data()), size);
  if (!in) throw CliError(fmt::format("{}: read error", path));
  return b;
}

}  // namespace

void WriteBytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw CliError(fmt::format("{}: directory {} does not exist", path.string(), dir.string()));
  if (fs::is_directory(path, ec)) throw CliError(fmt::format("{}: is a directory", path.string()));
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) throw CliError(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path, ec);
  if (ec) throw CliError(fmt::format("{}: cannot write ({})", path.string(), ec.message()));
}

namespace {

// ------------------------------------------------------------------ td decode / encode

int TdDecode(const Parsed& p, std::ostream& out) {
  if (p.positional.size() != 2) throw CliError("ane td decode takes one file (see ane td --help)");
  const std::string& path = p.positional[1];
  std::vector<uint8_t> bytes = ReadBytes(path);
  try {
    std::optional<td::Hwx> hwx;
    std::vector<uint8_t> chain;
    uint32_t expected = 0;
    if (td::IsHwx(bytes)) {
      hwx = td::ParseHwx(std::move(bytes));
      chain = hwx->TdBytes();
      expected = hwx->td_count;
    } else {
      chain = std::move(bytes);
    }
    const std::vector<td::Td> tds = td::WalkChain(chain, expected);
    if (Flag(p, "yaml")) {
      out << TdChainYaml(tds, uint32_t(chain.size()), fs::path(path).filename().string());
    } else {
      out << td::DecodeText(tds, hwx ? &*hwx : nullptr, !Flag(p, "nonzero").has_value());
      if (hwx) {
        out << "\nas the model runs it:\n";
        try {
          for (const td::TdLayer& l : td::PrepareProgram(hwx->bytes).layers) {
            out << fmt::format("  TD {}: {}\n", l.index, l.Describe());
          }
        } catch (const td::TdError& e) {
          out << fmt::format("  not runnable: {}\n", e.what());
        }
      }
    }
  } catch (const td::TdError& e) {
    throw CliError(fmt::format("{}: {}", path, e.what()));
  }
  return 0;
}

int TdEncode(const Parsed& p, std::ostream& out) {
  if (p.positional.size() != 2) throw CliError("ane td encode takes one YAML file (see ane td --help)");
  const std::optional<std::string> dest = Flag(p, "out");
  if (!dest || dest->empty()) throw CliError("ane td encode needs -o OUT");
  const std::string& path = p.positional[1];
  const std::vector<uint8_t> bytes = ReadBytes(path);
  const std::vector<uint8_t> chain = TdChainFromYaml(std::string(bytes.begin(), bytes.end()), path);
  if (const std::optional<std::string> base = Flag(p, "hwx")) {
    std::vector<uint8_t> prog = ReadBytes(*base);
    td::Hwx h;
    try {
      h = td::ParseHwx(prog);
    } catch (const td::TdError& e) {
      throw CliError(fmt::format("{}: {}", *base, e.what()));
    }
    const td::Section& s = h.sections[size_t(h.text)];
    if (s.size != chain.size()) {
      throw CliError(fmt::format("{}: the TDs are 0x{:x} bytes, the program's TD section 0x{:x} (sizes must match)",
                                 path, chain.size(), s.size));
    }
    try {
      td::WalkChain(chain, h.td_count);
    } catch (const td::TdError& e) {
      throw CliError(fmt::format("{}: {} (in {})", path, e.what(), *base));
    }
    std::copy(chain.begin(), chain.end(), prog.begin() + s.offset);
    WriteBytes(*dest, prog);
    out << fmt::format("wrote {}: {} with its 0x{:x} TD bytes from {}\n", *dest, *base, chain.size(), path);
  } else {
    WriteBytes(*dest, chain);
    out << fmt::format("wrote {}: 0x{:x} bytes of TDs\n", *dest, chain.size());
  }
  return 0;
}

// ------------------------------------------------------------------ run PROGRAM.hwx

DType TensorDType(const td::HwxTensor& t) {
  if (t.type == 5) return DType::kFp16;
  if (t.type == 2) return DType::kInt8;
  throw td::TdError(fmt::format("tensor {}: element type {} is not modelled (5 float16, 2 int8)", t.name, t.type));
}

std::vector<int64_t> Squeeze(const std::vector<int64_t>& s) {
  std::vector<int64_t> o;
  for (int64_t d : s) {
    if (d != 1) o.push_back(d);
  }
  return o;
}

uint32_t Load(const std::vector<uint8_t>& b, uint64_t at, int bytes) {
  return bytes == 2 ? uint32_t(b[at] | b[at + 1] << 8) : uint32_t(b[at]);
}
void Store(std::vector<uint8_t>* b, uint64_t at, int bytes, uint32_t v) {
  (*b)[at] = uint8_t(v);
  if (bytes == 2) (*b)[at + 1] = uint8_t(v >> 8);
}

// "ANEC v1 | zin_ane_compiler v4.2.1": the ident's first two lines.
std::string CompilerName(const std::string& ident) {
  const size_t a = ident.find(" | ");
  const size_t b = a == std::string::npos ? a : ident.find(" | ", a + 3);
  return ident.substr(0, b);
}

DType AccessDType(const td::TensorAccess& a) { return a.format == td::ElemFormat::kFp16 ? DType::kFp16 : DType::kInt8; }

}  // namespace

bool IsHwxRun(const std::vector<std::string>& argv) {
  for (const std::string& a : argv) {
    if (a.size() > 4 && a.compare(a.size() - 4, 4, ".hwx") == 0 && a.rfind("--", 0) != 0) return true;
  }
  return false;
}

std::string RtlTdRefusal(const td::TdLayer& l) {
  if (l.planar) {
    const int most = (1 << 14) - 1;  // ane_planar's SHAPE and CHAN fields
    if (l.src.c > most || l.src.h > most || l.src.w > most) {
      return fmt::format(
          "a planar task of [{}, {}, {}]: the planar engine takes up to {} per dimension (--engine "
          "oracle runs it)",
          l.src.c, l.src.h, l.src.w, most);
    }
    return "";
  }
  const oracle::ConvGeometry& g = l.layer.geom;
  if (g.kernel_h > oracle::kMaxShifterKernel || g.kernel_w > oracle::kMaxShifterKernel) {
    return fmt::format("a {}x{} kernel: the RTL's TD set-up runs kernels up to {}x{} (--engine oracle runs it)",
                       g.kernel_h, g.kernel_w, oracle::kMaxShifterKernel, oracle::kMaxShifterKernel);
  }
  harness::CoreLayerPlan p;
  p.layer = l.layer;
  p.kspec.format = l.layer.mode == oracle::MacMode::kInt8 ? oracle::KernelFormat::kRaw8 : oracle::KernelFormat::kFp16;
  const std::string bad = harness::PlanCoreLayer(&p, harness::kTdCtrl256Params);
  return bad.empty() ? "" : "the RTL core cannot run it: " + bad + " (--engine oracle runs it)";
}

// The RTL front end's error, in words: the set-up's codes (docs/td_ctrl.md) or the fetch's.

namespace {

// The program on the RTL from its TD bytes (ane_td_ctrl + ane_core, 256 lanes): the chain, the
// weights and every buffer in one memory image as they are before the first TD, each buffer at
// a 64-byte aligned address of the buffer table, the kernel staging region after them. `outs`:
// each TD's result as the RTL wrote it, read when its task was done.
struct RtlProgram {
  std::vector<uint8_t> mem;
  harness::TdSystemJob job;
  harness::TdSystemResult result;
  std::vector<std::vector<uint16_t>> outs;
};

std::string SetupErrorText(const harness::TdSystemResult& r) {
  if (!r.setup_error) return "the TD fetch stopped the chain (see ane td decode)";
  switch (r.err_code) {
    case 1: return "a field the core does not run";
    case 2: return "the shapes do not agree";
    case 3: return "beyond the core's registers";
    case 4: return "a lookup-table knot or a kernel block's bias is not finite";
    case 5: {
      // the refused word: a header word by its TD offset, a stream word by its register address
      uint32_t off = r.err_addr;
      if (!r.err_header) {
        for (const r::Stream& st : r::kStreams) {
          if (r.err_addr >= st.reg_addr && r.err_addr < st.reg_addr + 4 * st.words) {
            off = st.td_offset + 4 + (r.err_addr - st.reg_addr);
          }
        }
      }
      std::vector<std::string> names;
      for (const r::Field& f : r::kFields) {
        if (f.td_offset == off && f.status == r::Status::kFixed) names.push_back(f.name);
      }
      return fmt::format(
          "a field the model does not run holds a value no real program carries, in the word at TD+0x{:03x}{}", off,
          names.empty() ? "" : fmt::format(" ({})", fmt::join(names, ", ")));
    }
    default: return "an unknown error";
  }
}

RtlProgram RunOnRtl(const td::Program& prog, const harness::DataFault& fault) {
  RtlProgram p;
  const td::Hwx& h = prog.hwx;
  const std::vector<td::TdLayer>& layers = prog.layers;
  auto align = [](uint64_t a) { return (a + 63) / 64 * 64; };
  const std::vector<uint8_t> chain = h.TdBytes();
  uint64_t next = 0x1000;
  p.job.base = uint32_t(next);
  p.job.limit = uint32_t(chain.size());
  next = align(next + chain.size());
  p.job.bars.assign(harness::kTdBars, 0);
  std::vector<std::pair<uint64_t, uint64_t>> writable;
  for (const auto& [bar, bytes] : prog.buffers) {
    p.job.bars[size_t(bar)] = uint32_t(next);
    for (const td::TdLayer& l : layers) {
      if (l.dst.bar == bar) {
        writable.push_back({next, next + bytes.size()});
        break;
      }
    }
    next = align(next + bytes.size());
  }
  // staging: the largest layer's directory and groups (header, parameters, values, padding)
  uint64_t stage = 0;
  for (const td::TdLayer& l : layers) {
    if (l.planar) continue;
    const uint64_t cout = uint64_t(l.layer.cout), steps = uint64_t(l.layer.geom.Steps());
    stage = std::max(stage, cout * (2 * steps + 16) + 32 * cout + 1024);
  }
  p.job.kstage = uint32_t(next);
  p.job.kstage_bytes = stage;
  writable.push_back({next, next + stage});
  next += stage + 64;
  if (next > (uint64_t(1) << 31)) throw CliError("the program's buffers need more than 2 GiB of memory on the RTL");
  p.mem.assign(size_t(next), 0);
  std::copy(chain.begin(), chain.end(), p.mem.begin() + long(p.job.base));
  for (const auto& [bar, bytes] : prog.buffers) {
    std::copy(bytes.begin(), bytes.end(), p.mem.begin() + long(p.job.bars[size_t(bar)]));
  }
  if (fault.active() && !layers.empty()) {  // ANE_FAULT=C,I: bit 0 of element I of channel C of the first input
    const td::TensorAccess& a = layers.front().src;
    const int64_t plane = int64_t(a.h) * a.w;
    if (fault.row < a.c && fault.k < plane) {
      p.mem[size_t(p.job.bars[size_t(a.bar)] + a.Offset(int(fault.row), int(fault.k / a.w), int(fault.k % a.w)))] ^= 1;
    }
  }
  const auto can_write = [&writable](uint64_t a) {
    for (const auto& [b, e] : writable) {
      if (a >= b && a < e) return true;
    }
    return false;
  };
  p.outs.resize(layers.size());
  p.job.on_task_done = [&](int task, const std::vector<uint8_t>& mem) {
    if (task < 0 || size_t(task) >= layers.size()) return;
    td::TensorAccess a = layers[size_t(task)].dst;
    a.base += p.job.bars[size_t(a.bar)];
    p.outs[size_t(task)] = td::ReadAccess(a, mem);
  };
  p.result = harness::RunTdProgram256(&p.mem, p.job, can_write);
  p.job.on_task_done = nullptr;
  if (p.result.error) {
    throw CliError(fmt::format("TD {}: the RTL front end refused it: {} (code {})", p.result.err_td,
                               SetupErrorText(p.result), p.result.err_code));
  }
  return p;
}

// The fp64 reference of a planar task: each element in one step, rounded once.
Tensor PlanarReference(const td::TdRun& run) {
  const td::TdLayer& l = run.layer;
  Tensor ref{DType::kFp16, {l.dst.c, l.dst.h, l.dst.w}, {}};
  auto v = [](uint16_t x) { return ops::ReferenceValue(x, DType::kFp16); };
  for (size_t i = 0; i < run.x.size(); ++i) {
    const double a = v(run.x[i]) * v(l.pe.src0_scale), b = v(run.x1[i]);
    double r = 0;
    switch (l.pe.op) {
      case td::PlanarOp::kAdd: r = a + b; break;
      case td::PlanarOp::kMul: r = a * b; break;
      case td::PlanarOp::kMax: r = std::max(a, b); break;
      case td::PlanarOp::kMin: r = std::min(a, b); break;
    }
    ref.bits.push_back(ops::ReferenceFp16(r * v(l.pe.scale) + v(l.pe.bias)));
  }
  return ref;
}

// The fp64 reference of an NE task, through the conv2d operation's.
Tensor NeReference(const td::TdRun& run) {
  const td::TdLayer& l = run.layer;
  Operation op;
  op.op = "conv2d";
  op.conv = l.layer;
  op.generation = l.layer.gen;
  const DType kd = l.layer.mode == oracle::MacMode::kInt8 ? DType::kInt8 : DType::kFp16;
  const oracle::ConvGeometry& g = l.layer.geom;
  Tensor w{kd, {l.layer.cout, g.channels, g.kernel_h, g.kernel_w}, {}};
  for (const auto& k : l.w) {
    for (uint16_t x : k) w.bits.push_back(kd == DType::kInt8 ? (x & 0xFFu) : x);
  }
  Tensor x{AccessDType(l.src), {l.src.c, l.src.h, l.src.w}, {}};
  for (uint16_t b : run.x) x.bits.push_back(x.dtype == DType::kInt8 ? (b & 0xFFu) : b);
  op.inputs["x"] = LoadedTensor{x, "source", std::nullopt};
  op.inputs["w"] = LoadedTensor{w, "weights", std::nullopt};
  op.outputs["y"] = TensorType{AccessDType(l.dst), {l.dst.c, l.dst.h, l.dst.w}};
  return Reference(op).at("y");
}

struct HwxRunOptions {
  Engine engine = Engine::kOracle;
  std::optional<fs::path> out_dir;
  std::optional<fs::path> wave;
};

HwxRunOptions ReadRunOptions(const Parsed& p) {
  HwxRunOptions o;
  if (const auto e = Flag(p, "engine")) {
    const std::optional<Engine> pe = ParseEngine(*e);
    if (!pe) throw CliError(fmt::format("--engine {}: unknown engine (expected oracle, rtl or both)", *e));
    o.engine = *pe;
  }
  if (const auto d = Flag(p, "out-dir")) {
    if (const std::string why = OutDirProblem(*d); !why.empty())
      throw CliError(fmt::format("--out-dir {}: {}", *d, why));
    o.out_dir = *d;
  }
  if (const auto wf = Flag(p, "wave")) {
    if (o.engine == Engine::kOracle) throw CliError("--wave: the oracle has no waveform (use --engine rtl or both)");
    o.wave = fs::path(*wf);
    if (o.wave->extension() != ".fst") throw CliError(fmt::format("--wave {}: expected a .fst file name", *wf));
    const fs::path dir = o.wave->has_parent_path() ? o.wave->parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      throw CliError(fmt::format("--wave {}: directory {} does not exist", *wf, dir.string()));
  }
  return o;
}

td::Program LoadProgram(const std::string& path) {
  std::vector<uint8_t> bytes = ReadBytes(path);
  try {
    if (!td::IsHwx(bytes)) {
      throw td::TdError(fmt::format(
          "not an .hwx program (magic 0x{:08x}); a raw TD blob has no tensors or weights",
          bytes.size() >= 4 ? uint32_t(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | uint32_t(bytes[3]) << 24) : 0u));
    }
    return td::PrepareProgram(std::move(bytes));
  } catch (const td::TdError& e) {
    throw CliError(fmt::format("{}: {}", path, e.what()));
  }
}

using GivenInputs = std::map<std::string, std::pair<Tensor, std::string>>;  // input name -> tensor, file

// The --input tensors, each input of the program exactly once, placed in their buffers.
GivenInputs PlaceInputs(const Parsed& p, const std::string& path, td::Program* prog) {
  const td::Hwx& h = prog->hwx;
  GivenInputs given;
  std::set<std::string> inputs;
  for (const td::HwxTensor& t : h.tensors) {
    if (t.role == td::TensorRole::kInput) inputs.insert(t.name);
  }
  for (const auto& [name, file] : InputFlags(p)) {
    const std::string spec = name + "=" + file;
    if (!inputs.count(name)) {
      throw CliError(fmt::format("--input {}: the program has no input tensor '{}' (inputs: {})", spec, name,
                                 fmt::join(inputs, ", ")));
    }
    Tensor x;
    try {
      x = ReadNpy(file);
    } catch (const NpyError& e) {
      throw CliError(e.what());
    }
    given[name] = {x, file};
  }
  for (const std::string& name : inputs) {
    if (!given.count(name))
      throw CliError(fmt::format("{}: input tensor '{}' needs --input {}=FILE.npy", path, name, name));
  }
  for (const td::HwxTensor& t : h.tensors) {
    if (t.role != td::TensorRole::kInput) continue;
    const auto& [x, file] = given.at(t.name);
    const DType want = TensorDType(t);
    const std::vector<int64_t> shape{int64_t(t.dims[0]), int64_t(t.dims[1]), int64_t(t.dims[2]), int64_t(t.dims[3])};
    if (x.dtype != want) {
      throw CliError(fmt::format("{}: dtype {} but input '{}' is {} ('{}')", file, DTypeName(x.dtype), t.name,
                                 DTypeName(want), NpyDescr(want)));
    }
    if (Squeeze(x.shape) != Squeeze(shape)) {
      throw CliError(
          fmt::format("{}: shape {} but input '{}' is [N, C, H, W] = {} (dimensions of size 1 may be left out)", file,
                      ShapeString(x.shape), t.name, ShapeString(shape)));
    }
    std::vector<uint8_t>& b = prog->buffers.at(t.bar);
    const int eb = DTypeBytes(want);
    size_t i = 0;
    for (uint32_t c = 0; c < t.dims[1]; ++c) {
      for (uint32_t y = 0; y < t.dims[2]; ++y) {
        for (uint32_t w = 0; w < t.dims[3]; ++w) Store(&b, td::HostOffset(t, c, y, w), eb, x.bits[i++]);
      }
    }
  }
  return given;
}

// Every TD checked against the engine before anything runs.
void CheckLayers(const std::vector<td::TdLayer>& layers, Engine engine, const std::string& path) {
  for (const td::TdLayer& l : layers) {
    if (!l.planar) {
      const std::string bad = oracle::CheckConvLayer(l.layer);
      if (!bad.empty()) throw CliError(fmt::format("{}: TD {}: {}", path, l.index, bad));
    }
    if (engine != Engine::kOracle) {
      const std::string why = RtlTdRefusal(l);
      if (!why.empty()) throw CliError(fmt::format("{}: TD {}: {}", path, l.index, why));
    }
  }
}

// One TD's result on the oracle, compared with the RTL's (engine both) or replaced by it (engine
// rtl: the chain goes on from what the RTL wrote).
struct TdOutcome {
  td::TdRun run;
  Tensor y;
  std::optional<EngineMismatch> mismatch;
};

TdOutcome RunOneTd(const td::TdLayer& l, size_t li, Engine engine, const std::optional<RtlProgram>& rtl,
                   td::Buffers* buffers, const std::string& path) {
  TdOutcome o;
  try {
    o.run = td::RunTdOracle(l, buffers, engine != Engine::kBoth);  // the reference judges (both)
  } catch (const td::TdError& e) {
    throw CliError(fmt::format("{}: {}", path, e.what()));
  }
  const DType od = AccessDType(l.dst);
  o.y = Tensor{od, {l.dst.c, l.dst.h, l.dst.w}, {}};
  for (uint16_t v : o.run.y) o.y.bits.push_back(od == DType::kInt8 ? (v & 0xFFu) : v);
  if (!rtl) return o;
  const std::vector<uint16_t>& yr = rtl->outs.at(li);
  if (yr.size() != o.run.y.size()) throw CliError(fmt::format("TD {}: the RTL reported no result", l.index));
  for (size_t k = 0; k < yr.size(); ++k) {
    const uint32_t a = od == DType::kInt8 ? (yr[k] & 0xFFu) : yr[k];
    if (engine == Engine::kBoth && a != o.y.bits[k]) {
      if (!o.mismatch) {
        const int cc = int(k) / (l.dst.h * l.dst.w), rem = int(k) % (l.dst.h * l.dst.w);
        o.mismatch = EngineMismatch{fmt::format("y[{}, {}, {}]", cc, rem / l.dst.w, rem % l.dst.w),
                                    ValueText(a, od),
                                    ValueText(o.y.bits[k], od),
                                    0,
                                    int64_t(o.y.bits.size()),
                                    {}};
      }
      ++o.mismatch->count;
    }
  }
  if (engine == Engine::kRtl) {
    for (size_t k = 0; k < yr.size(); ++k) o.y.bits[k] = od == DType::kInt8 ? (yr[k] & 0xFFu) : yr[k];
    td::WriteAccess(l.dst, yr, &buffers->at(l.dst.bar));
  }
  return o;
}

// The report of one TD: what it is, its table and kernels, its error against fp64, the RTL's
// cycles and the comparison. Returns false on a mismatch.
bool ReportTd(const td::TdLayer& l, size_t li, const td::Hwx& h, Engine engine, const std::optional<RtlProgram>& rtl,
              const TdOutcome& o, std::ostream& out) {
  const Tensor& y = o.y;
  out << fmt::format("TD {}        {} ({})\n", l.index, l.Describe(),
                     l.planar ? fmt::format("buffers {} and {} -> buffer {}", l.src.bar, l.src1.bar, l.dst.bar)
                              : fmt::format("buffer {} -> buffer {}", l.src.bar, l.dst.bar));
  if (o.run.layer.table) {
    const oracle::ActTable& t = *o.run.layer.table;
    const oracle::ActTable& d = oracle::DefaultActTable(oracle::ActFn::kSigmoid);
    const bool same = d.m == t.m && d.c == t.c && d.left == t.left && d.right == t.right;
    out << fmt::format("            lookup table from kernel DMA channel {}: 33 knots on [-8, 8], outside {} / {}{}\n",
                       l.table_channel, FormatValue(t.left, DType::kFp16), FormatValue(t.right, DType::kFp16),
                       same ? " (the same segments as the default sigmoid table)" : "");
  }
  if (l.kernels.bar >= 0 && l.kernels.bar != h.weights_bar) {
    out << fmt::format("            kernels from buffer {} ({}), read when the TD runs\n", l.kernels.bar,
                       h.BarName(l.kernels.bar));
  }
  if (y.dtype == DType::kFp16) {
    const Tensor ref = l.planar ? PlanarReference(o.run) : NeReference(o.run);
    const Difference d = Compare(y, ref);
    double abs_err = 0;
    for (size_t k = 0; k < y.bits.size(); ++k) {
      const double a = oracle::Fp16ToDouble(uint16_t(y.bits[k])), b = oracle::Fp16ToDouble(uint16_t(ref.bits[k]));
      if (std::isfinite(a) && std::isfinite(b)) abs_err = std::max(abs_err, std::fabs(a - b));
    }
    out << fmt::format(
        "            vs fp64: max {} ulp (largest absolute difference {:.3g}), {} of {} outputs differ\n", d.max,
        abs_err, d.count, y.bits.size());
  }
  if (rtl && li < rtl->result.per_layer.size() && l.planar) {
    const harness::TdLayerStat& s = rtl->result.per_layer[li];
    const double elems = double(l.dst.c) * l.dst.h * l.dst.w;
    out << fmt::format(
        "            rtl: from the TD bytes (ane_td_ctrl + ane_planar, 16 lanes): set-up {} cycles, "
        "task {} cycles, {:.2f} elements per lane per cycle\n",
        s.setup, s.cycles, s.cycles ? elems / (16.0 * double(s.cycles)) : 0.0);
  } else if (rtl && li < rtl->result.per_layer.size()) {
    const harness::TdLayerStat& s = rtl->result.per_layer[li];
    const double macs = double(l.layer.cout) * l.dst.h * l.dst.w * l.layer.geom.Steps();
    out << fmt::format(
        "            rtl: from the TD bytes (ane_td_ctrl + ane_core, 256 lanes): set-up {} cycles, "
        "layer {} cycles, utilization {:.1f}%\n",
        s.setup, s.cycles, s.cycles ? 100.0 * macs / (256.0 * double(s.cycles)) : 0.0);
  }
  if (o.mismatch) {
    const EngineMismatch& m = *o.mismatch;
    out << fmt::format("            rtl vs oracle: MISMATCH at {}: rtl {}, oracle {} ({} of {} outputs differ)\n",
                       m.element, m.rtl, m.oracle, m.count, m.total);
    return false;
  }
  if (engine == Engine::kBoth) {
    out << fmt::format("            rtl vs oracle: bit-identical ({} outputs)\n", y.bits.size());
  }
  return true;
}

// The program's output tensors from their buffers, printed; written under --out-dir.
void WriteOutputs(const td::Hwx& h, const td::Buffers& buffers, const std::optional<fs::path>& out_dir,
                  std::ostream& out) {
  std::vector<std::pair<fs::path, Tensor>> writes;
  for (const td::HwxTensor& t : h.tensors) {
    if (t.role != td::TensorRole::kOutput) continue;
    const DType dt = TensorDType(t);
    Tensor y{dt, {int64_t(t.dims[0]), int64_t(t.dims[1]), int64_t(t.dims[2]), int64_t(t.dims[3])}, {}};
    const std::vector<uint8_t>& b = buffers.at(t.bar);
    for (uint32_t c = 0; c < t.dims[1]; ++c) {
      for (uint32_t yy = 0; yy < t.dims[2]; ++yy) {
        for (uint32_t w = 0; w < t.dims[3]; ++w) y.bits.push_back(Load(b, td::HostOffset(t, c, yy, w), DTypeBytes(dt)));
      }
    }
    std::string values;
    for (size_t i = 0; i < y.bits.size() && i < 8; ++i) values += (i ? ", " : "") + FormatValue(y.bits[i], dt);
    out << fmt::format("output      {} {} {}: [{}{}]\n", t.name, DTypeName(dt), ShapeString(y.shape), values,
                       y.bits.size() > 8 ? ", ..." : "");
    if (out_dir) writes.emplace_back(*out_dir / TensorFileName(t.name), y);
  }
  try {
    WriteNpyFilesIn(out_dir, writes);
  } catch (const NpyError& e) {
    throw CliError(e.what());
  }
  for (const auto& [dest, t] : writes) out << fmt::format("wrote       {}\n", dest.string());
}

}  // namespace

int RunHwxCommand(const std::vector<std::string>& argv, std::ostream& final_out) {
  const Parsed p = Parse("run", argv, {"input", "out-dir", "engine", "wave"}, {}, {"input"});
  if (p.help) {
    final_out << kRunHwxHelp;
    return 0;
  }
  if (p.positional.size() != 1) throw CliError("ane run takes one program (.hwx) file (see ane run --help)");
  // Printed only when everything worked: a bad input leaves stdout empty.
  std::ostringstream out;
  const std::string path = p.positional[0];
  const HwxRunOptions opt = ReadRunOptions(p);
  td::Program prog = LoadProgram(path);
  const td::Hwx& h = prog.hwx;
  const GivenInputs given = PlaceInputs(p, path, &prog);
  CheckLayers(prog.layers, opt.engine, path);

  // The chain, TD by TD, through the buffers.
  out << fmt::format("program     {} ({} TD{}; {})\n", path, prog.tds.size(), prog.tds.size() == 1 ? "" : "s",
                     h.ident.empty() ? "no compiler ident" : CompilerName(h.ident));
  out << fmt::format("engine      {}\n", EngineName(opt.engine));
  for (const auto& [name, g] : given) {
    out << fmt::format("input       {} {} {}  ({})\n", name, DTypeName(g.first.dtype), ShapeString(g.first.shape),
                       g.second);
  }
  const harness::DataFault fault = FaultFromEnvironment();
  if (opt.wave) harness::RequestWaveFile(opt.wave->string());
  // The RTL runs the whole chain from the TD bytes first, each TD's result kept as it is written;
  // engine rtl reports those, engine both compares them with the oracle's.
  std::optional<RtlProgram> rtl;
  if (opt.engine != Engine::kOracle) rtl = RunOnRtl(prog, fault);
  td::Buffers& buffers = prog.buffers;  // the oracle's (engine rtl: the RTL's results put in)
  int status = 0;
  for (size_t li = 0; li < prog.layers.size(); ++li) {
    const td::TdLayer& l = prog.layers[li];
    const TdOutcome o = RunOneTd(l, li, opt.engine, rtl, &buffers, path);
    if (!ReportTd(l, li, h, opt.engine, rtl, o, out)) status = 1;
  }
  WriteOutputs(h, buffers, opt.out_dir, out);
  if (opt.wave) {
    const harness::WaveRequest& req = harness::CurrentWaveRequest();
    for (size_t i = 0; i < req.written.size(); ++i) {
      out << fmt::format("wave        {} (every TD, top {}): open with  gtkwave {} sim/{}.gtkw\n", req.written[i],
                         req.tops[i], req.written[i], req.tops[i]);
    }
  }
  final_out << out.str();
  return status;
}

int TdCommand(const std::vector<std::string>& argv, std::ostream& out) {
  const Parsed p = Parse("td", argv, {"out", "hwx"}, {"yaml", "nonzero"}, {});
  if (argv.empty()) throw CliError("ane td needs a subcommand: decode or encode (see ane td --help)");
  if (p.help) {
    out << kTdHelp;
    return 0;
  }
  const std::string& sub = p.positional.empty() ? "" : p.positional[0];
  if (sub == "decode") {
    if (Flag(p, "out") || Flag(p, "hwx")) throw CliError("ane td decode takes --yaml and --nonzero only");
    return TdDecode(p, out);
  }
  if (sub == "encode") {
    if (Flag(p, "yaml") || Flag(p, "nonzero")) throw CliError("ane td encode takes -o and --hwx only");
    return TdEncode(p, out);
  }
  throw CliError(fmt::format("ane td: unknown subcommand '{}' (decode or encode)", sub));
}

}  // namespace ane::cli
