// SPDX-License-Identifier: Apache-2.0
#include "tb/td/hwx.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "tb/regs/ane_regs.h"

namespace ane::td {
namespace {

constexpr uint32_t kLcSymtab = 0x2, kLcThread = 0x4, kLcLoadFvmlib = 0x6, kLcIdent = 0x8, kLcSegment64 = 0x19;
// The newer compiler's (v7, matmul.hwx) tensor command: u32 name offset, u32 0, u64 address.
constexpr uint32_t kLcTensor64 = 0x40;
constexpr uint32_t kHeaderBytes = 32;
constexpr uint32_t kSegmentBytes = 72, kSectionBytes = 80;
constexpr uint32_t kBarThreadWords = 532;  // 256 u64 entries + 20 words (td address, size, count)
constexpr uint32_t kTensorThreadWords = 30;

[[noreturn]] void Fail(const std::string& what) { throw TdError(what); }

uint32_t U32(const std::vector<uint8_t>& b, uint64_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint64_t U64(const std::vector<uint8_t>& b, uint64_t at) {
  uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}
void Put32(std::vector<uint8_t>* b, uint64_t at, uint32_t v) { std::memcpy(b->data() + at, &v, 4); }
void Put64(std::vector<uint8_t>* b, uint64_t at, uint64_t v) { std::memcpy(b->data() + at, &v, 8); }

// A NUL-terminated string inside [at, end) of the file.
std::string CString(const std::vector<uint8_t>& b, uint64_t at, uint64_t end, const std::string& what) {
  if (at >= end) Fail(fmt::format("{}: string offset outside its load command", what));
  const auto first = b.begin() + int64_t(at), last = b.begin() + int64_t(end);
  const auto nul = std::find(first, last, uint8_t(0));
  if (nul == last) Fail(fmt::format("{}: string not terminated inside its load command", what));
  return std::string(first, nul);
}

// A tensor thread's name is the tensor command's, or (the newer compiler) it with "@..." after it.
bool ThreadNames(const std::string& thread, const std::string& tensor) {
  return thread == tensor || (thread.size() > tensor.size() && thread.compare(0, tensor.size(), tensor) == 0 &&
                              thread[tensor.size()] == '@');
}

std::string Name16(const std::vector<uint8_t>& b, uint64_t at) {
  std::string s(reinterpret_cast<const char*>(b.data() + at), 16);
  return s.substr(0, s.find('\0'));
}

}  // namespace

bool IsHwx(const std::vector<uint8_t>& bytes) { return bytes.size() >= 4 && U32(bytes, 0) == kHwxMagic; }

std::vector<uint8_t> Hwx::TdBytes() const {
  const Section& s = sections.at(size_t(text));
  return std::vector<uint8_t>(bytes.begin() + s.offset, bytes.begin() + int64_t(s.offset + s.size));
}

std::vector<uint8_t> Hwx::WeightBytes() const {
  if (weights < 0) return {};
  const Section& s = sections.at(size_t(weights));
  return std::vector<uint8_t>(bytes.begin() + s.offset, bytes.begin() + int64_t(s.offset + s.size));
}

std::string Hwx::BarName(int i) const {
  const uint64_t a = bar[i];
  if (a == 0) return "unused";
  if (text >= 0 && a == sections[size_t(text)].addr) return "TDs";
  if (weights >= 0 && a == sections[size_t(weights)].addr) return "weights";
  for (const HwxTensor& t : tensors) {
    if (t.vmaddr == a) return fmt::format("{} {}", t.role == TensorRole::kInput ? "input" : "output", t.name);
  }
  return fmt::format("scratch at 0x{:x}", a);
}

namespace {

// What the load commands say about tensors and buffers, matched up after the walk.
struct FvmName {
  std::string name;
  uint64_t addr;
};
struct TensorThread {
  std::string name;
  uint32_t kind, type, dims[5], bytes;
  uint64_t strides[5];
  uint32_t at;
};
struct LoadState {
  int bar_thread = -1;
  std::vector<FvmName> fvm;
  std::vector<TensorThread> threads;
};

// LC_SEGMENT_64 i at `at`: the segment and its sections, each inside the file and the segment.
void ParseSegment(Hwx& h, uint64_t at, const LoadCommand& c, uint32_t i, const std::string& where) {
  const std::vector<uint8_t>& b = h.bytes;
  const uint64_t n = b.size();
  if (c.size < kSegmentBytes) Fail(fmt::format("{}: LC_SEGMENT_64 of 0x{:x} bytes (need 0x48)", where, c.size));
  Segment s;
  s.name = Name16(b, at + 8);
  s.vmaddr = U64(b, at + 24);
  s.vmsize = U64(b, at + 32);
  s.fileoff = U64(b, at + 40);
  s.filesize = U64(b, at + 48);
  s.maxprot = U32(b, at + 56);
  s.initprot = U32(b, at + 60);
  const uint32_t nsects = U32(b, at + 64);
  s.flags = U32(b, at + 68);
  s.command = i;
  if (nsects > (c.size - kSegmentBytes) / kSectionBytes || kSegmentBytes + uint64_t(nsects) * kSectionBytes != c.size) {
    Fail(fmt::format("{}: segment {} says {} sections, its size 0x{:x} holds {}", where, s.name, nsects, c.size,
                     (c.size - kSegmentBytes) / kSectionBytes));
  }
  if (s.filesize > 0 && (s.fileoff > n || s.filesize > n - s.fileoff)) {
    Fail(fmt::format("{}: segment {} file data 0x{:x}+0x{:x} runs past the end of the file (0x{:x} bytes)", where,
                     s.name, s.fileoff, s.filesize, n));
  }
  for (uint32_t k = 0; k < nsects; ++k) {
    const uint64_t so = at + kSegmentBytes + uint64_t(k) * kSectionBytes;
    Section t;
    t.sectname = Name16(b, so);
    t.segname = Name16(b, so + 16);
    t.addr = U64(b, so + 32);
    t.size = U64(b, so + 40);
    t.offset = U32(b, so + 48);
    t.align = U32(b, so + 52);
    t.reloff = U32(b, so + 56);
    t.nreloc = U32(b, so + 60);
    t.flags = U32(b, so + 64);
    t.header_at = uint32_t(so);
    const std::string sw = fmt::format("section {},{}", t.segname, t.sectname);
    if (s.filesize > 0) {
      if (t.offset < s.fileoff || t.offset > s.fileoff + s.filesize || t.size > s.fileoff + s.filesize - t.offset) {
        Fail(fmt::format("{} at 0x{:x}+0x{:x} lies outside its segment's file data 0x{:x}+0x{:x}", sw, t.offset, t.size,
                         s.fileoff, s.filesize));
      }
      if (t.addr < s.vmaddr || t.addr - s.vmaddr != t.offset - s.fileoff) {
        Fail(fmt::format("{}: address 0x{:x} does not match its file offset 0x{:x} in segment {}", sw, t.addr, t.offset,
                         s.name));
      }
    } else if (t.offset != 0) {
      Fail(fmt::format("{} has file offset 0x{:x} but its segment has no file data", sw, t.offset));
    }
    if (t.nreloc > 0) {
      if (t.reloff > n || uint64_t(t.nreloc) * 8 > n - t.reloff) {
        Fail(fmt::format("{}: {} relocations at 0x{:x} run past the end of the file", sw, t.nreloc, t.reloff));
      }
      for (uint32_t r = 0; r < t.nreloc; ++r) {
        const uint32_t addr = U32(b, t.reloff + 8ull * r), raw = U32(b, t.reloff + 8ull * r + 4);
        if (uint64_t(addr) + 4 > t.size || (raw >> 25 & 3) != 2) {
          Fail(fmt::format("{}: relocation {} patches 0x{:x} (length code {}): not a 4-byte word inside the section",
                           sw, r, addr, raw >> 25 & 3));
        }
        h.relocations.push_back({int(h.sections.size()), addr, raw});
      }
    }
    h.sections.push_back(t);
  }
  h.segments.push_back(s);
}

// LC_THREAD i at `at`: the buffer-address table (flavor 1) or a tensor's description (flavor 3).
void ParseThread(Hwx& h, LoadState* st_out, uint64_t at, uint64_t end, const LoadCommand& c, uint32_t i,
                 const std::string& where) {
  const std::vector<uint8_t>& b = h.bytes;
  int& bar_thread = st_out->bar_thread;
  std::vector<TensorThread>& threads = st_out->threads;
  if (c.size < 16) Fail(fmt::format("{}: LC_THREAD of {} bytes (need 16)", where, c.size));
  const uint32_t flavor = U32(b, at + 8), count = U32(b, at + 12);
  if (uint64_t(count) * 4 > c.size - 16) {
    Fail(fmt::format("{}: LC_THREAD state of {} words runs past its command ({} bytes)", where, count, c.size));
  }
  const uint64_t st = at + 16;
  if (flavor == 1) {
    if (bar_thread >= 0) Fail(fmt::format("{}: a second buffer-address thread (flavor 1)", where));
    if (count < kBarThreadWords) {
      Fail(fmt::format("{}: buffer-address thread of {} words (need {})", where, count, kBarThreadWords));
    }
    bar_thread = int(i);
    for (int e = 0; e < kBarEntries; ++e) h.bar[e] = U64(b, st + 8ull * e);
    h.td_addr = U64(b, st + 4 * 512);
    h.td_words = U32(b, st + 4 * 514) + 1;
    h.td_count = U32(b, st + 4 * 515);
  } else if (flavor == 3) {
    if (count < kTensorThreadWords) {
      Fail(fmt::format("{}: tensor thread of {} words (need {})", where, count, kTensorThreadWords));
    }
    TensorThread t;
    t.at = uint32_t(at);
    t.kind = U32(b, st + 4);
    t.name = CString(b, at + U32(b, st + 16), end, where + ": tensor name");
    t.type = U32(b, st + 20);
    for (int d = 0; d < 5; ++d) {
      t.dims[d] = U32(b, st + 24 + 4 * d);
      t.strides[d] = U64(b, st + 64 + 8 * d);
    }
    t.bytes = U32(b, st + 112);
    threads.push_back(t);
  }
  // other flavors: kept as raw load commands
}

// The __TEXT sections the front end needs (the TDs and the weights) and the TD description of the
// buffer-address thread.
void FindSections(Hwx& h, const LoadState& ls) {
  const int bar_thread = ls.bar_thread;
  for (size_t i = 0; i < h.sections.size(); ++i) {
    const Section& s = h.sections[i];
    if (s.segname != "__TEXT") continue;
    if (s.sectname == "__text") {
      if (h.text >= 0) Fail("two __TEXT,__text sections");
      h.text = int(i);
    } else if (s.sectname == "__const") {
      if (h.weights >= 0) Fail("two __TEXT,__const sections");
      h.weights = int(i);
    }
  }
  if (h.text < 0) Fail("no __TEXT,__text section (the task descriptors)");
  if (h.sections[size_t(h.text)].offset == 0) Fail("__TEXT,__text has no file data");
  if (h.weights >= 0 && h.sections[size_t(h.weights)].offset == 0) Fail("__TEXT,__const has no file data");
  if (bar_thread < 0) Fail("no buffer-address table (LC_THREAD of flavor 1)");
  if (h.td_addr != h.sections[size_t(h.text)].addr) {
    Fail(fmt::format("the first TD is at 0x{:x} (LC_THREAD) but __TEXT,__text is at 0x{:x}", h.td_addr,
                     h.sections[size_t(h.text)].addr));
  }
  if (h.td_words != regs::td::kTdBytes / 4) {
    Fail(fmt::format("the file says a TD has {} words; the H13 layout has {}", h.td_words, regs::td::kTdBytes / 4));
  }
  for (const Relocation& r : h.relocations) {
    if (r.section != h.text) Fail("a relocation outside __TEXT,__text");
  }
  for (int e = 0; e < kBarEntries && h.weights >= 0; ++e) {
    if (h.bar[e] == h.sections[size_t(h.weights)].addr) h.weights_bar = e;
  }
}

// Tensors: one LC_LOADFVMLIB (or tensor command) each, its __FVMLIB segment and its flavor-3
// thread.
void MatchTensors(Hwx& h, const LoadState& ls) {
  const std::vector<FvmName>& fvm = ls.fvm;
  const std::vector<TensorThread>& threads = ls.threads;
  for (const FvmName& f : fvm) {
    HwxTensor t;
    t.name = f.name;
    t.vmaddr = f.addr;
    const Segment* seg = nullptr;
    for (const Segment& s : h.segments) {
      if (s.name == "__FVMLIB" && s.vmaddr == f.addr) seg = &s;
    }
    if (!seg) Fail(fmt::format("tensor {}: no __FVMLIB segment at 0x{:x}", f.name, f.addr));
    if (seg->filesize != 0) Fail(fmt::format("tensor {}: its segment has file data", f.name));
    if (seg->initprot != 1 && seg->initprot != 2) {
      Fail(fmt::format("tensor {}: segment protection {} (1 input, 2 output)", f.name, seg->initprot));
    }
    t.role = seg->initprot == 1 ? TensorRole::kInput : TensorRole::kOutput;
    t.vmsize = seg->vmsize;
    const TensorThread* th = nullptr;
    for (const TensorThread& x : threads) {
      if (ThreadNames(x.name, f.name)) {
        if (th) Fail(fmt::format("tensor {}: two tensor threads", f.name));
        th = &x;
      }
    }
    if (!th) Fail(fmt::format("tensor {}: no tensor thread (LC_THREAD flavor 3) with its name", f.name));
    t.name = th->name;  // "matmul_0@output" for the newer command's "matmul_0"
    if (th->kind != uint32_t(t.role)) {
      Fail(fmt::format("tensor {}: its thread says direction {}, its segment {}", f.name, th->kind, seg->initprot));
    }
    t.type = th->type;
    for (int d = 0; d < 5; ++d) {
      t.dims[d] = th->dims[d];
      t.strides[d] = th->strides[d];
    }
    t.bytes = th->bytes;
    for (int e = 0; e < kBarEntries; ++e) {
      if (h.bar[e] == t.vmaddr) t.bar = e;
    }
    for (const HwxTensor& o : h.tensors) {
      if (o.name == t.name) Fail(fmt::format("two tensors named {}", t.name));
    }
    h.tensors.push_back(t);
  }
  for (const TensorThread& x : threads) {
    bool named = false;
    for (const FvmName& f : fvm) named = named || ThreadNames(x.name, f.name);
    if (!named) Fail(fmt::format("tensor thread at 0x{:x} names {}, which no tensor command loads", x.at, x.name));
  }
}

}  // namespace

Hwx ParseHwx(std::vector<uint8_t> bytes) {
  Hwx h;
  h.bytes = std::move(bytes);
  const std::vector<uint8_t>& b = h.bytes;
  const uint64_t n = b.size();
  if (n < kHeaderBytes) Fail(fmt::format("truncated Mach-O header ({} bytes, need 32)", n));
  if (U32(b, 0) != kHwxMagic) {
    Fail(fmt::format("not an .hwx file (magic 0x{:08x}, expected 0x{:08x})", U32(b, 0), kHwxMagic));
  }
  h.cputype = U32(b, 4);
  h.cpusubtype = U32(b, 8);
  h.filetype = U32(b, 12);
  const uint32_t ncmds = U32(b, 16), sizeofcmds = U32(b, 20);
  h.flags = U32(b, 24);
  if (h.cputype != kHwxCpuType) Fail(fmt::format("cputype 0x{:x}: an ANE program has 0x80", h.cputype));
  if (h.cpusubtype != kHwxCpuSubtypeH13) {
    Fail(fmt::format("cpusubtype {}: only 4 (H13, the M1's ANE) is understood", h.cpusubtype));
  }
  if (uint64_t(kHeaderBytes) + sizeofcmds > n) {
    Fail(fmt::format("load commands ({} bytes) run past the end of the file ({} bytes)", sizeofcmds, n));
  }
  if (ncmds > sizeofcmds / 8) Fail(fmt::format("{} load commands cannot fit in {} bytes", ncmds, sizeofcmds));

  // Load commands.
  uint64_t at = kHeaderBytes;
  const uint64_t cmds_end = kHeaderBytes + uint64_t(sizeofcmds);
  LoadState ls;
  for (uint32_t i = 0; i < ncmds; ++i) {
    if (at + 8 > cmds_end) Fail(fmt::format("load command {} at 0x{:x} runs past the load commands", i, at));
    LoadCommand c{U32(b, at), U32(b, at + 4), uint32_t(at)};
    if (c.size < 8 || c.size % 4 != 0) {
      Fail(fmt::format("load command {} at 0x{:x}: size 0x{:x} is not a multiple of 4 of at least 8", i, at, c.size));
    }
    if (at + c.size > cmds_end) {
      Fail(fmt::format("load command {} at 0x{:x}: its 0x{:x} bytes run past the load commands (end 0x{:x})", i, at,
                       c.size, cmds_end));
    }
    const uint64_t end = at + c.size;
    const std::string where = fmt::format("load command {} at 0x{:x}", i, at);
    if (c.cmd == kLcSegment64) {
      ParseSegment(h, at, c, i, where);
    } else if (c.cmd == kLcLoadFvmlib) {
      if (c.size < 20) Fail(fmt::format("{}: LC_LOADFVMLIB of {} bytes (need 20)", where, c.size));
      const uint32_t name_at = U32(b, at + 8);
      ls.fvm.push_back({CString(b, at + name_at, end, where), U32(b, at + 16)});
    } else if (c.cmd == kLcTensor64) {
      if (c.size < 25) Fail(fmt::format("{}: tensor command 0x40 of {} bytes (need 25)", where, c.size));
      const uint32_t name_at = U32(b, at + 8);
      if (name_at < 24)
        Fail(fmt::format("{}: tensor command 0x40 names its tensor at +0x{:x}, inside its fields", where, name_at));
      ls.fvm.push_back({CString(b, at + name_at, end, where), U64(b, at + 16)});
    } else if (c.cmd == kLcThread) {
      ParseThread(h, &ls, at, end, c, i, where);
    } else if (c.cmd == kLcIdent) {
      std::string text(b.begin() + int64_t(at + 8), b.begin() + int64_t(end));
      text = text.substr(0, text.find('\0'));
      std::string joined;
      for (char ch : text) {
        if (ch == '\n') {
          joined += " | ";
        } else if (ch != '\t') {
          joined += ch;
        }
      }
      h.ident = joined;
    } else if (c.cmd == kLcSymtab) {
      if (c.size < 24) Fail(fmt::format("{}: LC_SYMTAB of {} bytes (need 24)", where, c.size));
      const uint64_t symoff = U32(b, at + 8), nsyms = U32(b, at + 12), stroff = U32(b, at + 16),
                     strsize = U32(b, at + 20);
      if (symoff > n || nsyms * 16 > n - symoff || stroff > n || strsize > n - stroff) {
        Fail(fmt::format("{}: symbol table runs past the end of the file", where));
      }
    }
    h.commands.push_back(c);
    at = end;
  }
  if (at != cmds_end) {
    Fail(fmt::format("the {} load commands end at 0x{:x}, the header says 0x{:x}", ncmds, at, cmds_end));
  }

  FindSections(h, ls);
  MatchTensors(h, ls);
  return h;
}

namespace {

constexpr uint64_t kTextFile = 0x4000, kBase = 0x30000000;

// An LC_SEGMENT_64 command with its sections.
std::vector<uint8_t> SegmentCommand(const std::string& name, uint64_t vmaddr, uint64_t vmsize, uint64_t fileoff,
                                    uint64_t filesize, uint32_t prot, uint32_t flags,
                                    const std::vector<Section>& sects) {
  std::vector<uint8_t> c(kSegmentBytes + kSectionBytes * sects.size(), 0);
  Put32(&c, 0, kLcSegment64);
  Put32(&c, 4, uint32_t(c.size()));
  std::memcpy(c.data() + 8, name.data(), std::min<size_t>(16, name.size()));
  Put64(&c, 24, vmaddr);
  Put64(&c, 32, vmsize);
  Put64(&c, 40, fileoff);
  Put64(&c, 48, filesize);
  Put32(&c, 56, prot);
  Put32(&c, 60, prot);
  Put32(&c, 64, uint32_t(sects.size()));
  Put32(&c, 68, flags);
  for (size_t k = 0; k < sects.size(); ++k) {
    const uint64_t so = kSegmentBytes + kSectionBytes * k;
    std::memcpy(c.data() + so, sects[k].sectname.data(), std::min<size_t>(16, sects[k].sectname.size()));
    std::memcpy(c.data() + so + 16, sects[k].segname.data(), std::min<size_t>(16, sects[k].segname.size()));
    Put64(&c, so + 32, sects[k].addr);
    Put64(&c, so + 40, sects[k].size);
    Put32(&c, so + 48, sects[k].offset);
    Put32(&c, so + 52, sects[k].align);
    Put32(&c, so + 64, sects[k].flags);
  }
  return c;
}

// The LC_THREAD command of the buffer address table: TDs, weights, each tensor's entry, the
// scratch buffers (16 MiB apart from `scratch_at`), the TD size and count.
std::vector<uint8_t> BarTableCommand(const HwxSpec& spec, uint64_t wt_off, uint64_t scratch_at) {
  std::vector<uint8_t> c(16 + 4 * kBarThreadWords + 8, 0);
  Put32(&c, 0, kLcThread);
  Put32(&c, 4, uint32_t(c.size()));
  Put32(&c, 8, 1);
  Put32(&c, 12, kBarThreadWords);
  Put64(&c, 16, kBase);
  if (!spec.weights.empty()) Put64(&c, 16 + 8, kBase + wt_off);
  for (const HwxTensor& t : spec.tensors) Put64(&c, 16 + 8 * uint64_t(t.bar), t.vmaddr);
  for (size_t i = 0; i < spec.scratch_bars.size(); ++i) {
    Put64(&c, 16 + 8 * uint64_t(spec.scratch_bars[i]), scratch_at + (uint64_t(i) << 24));
  }
  Put64(&c, 16 + 4 * 512, kBase);
  Put32(&c, 16 + 4 * 514, regs::td::kTdBytes / 4 - 1);
  Put32(&c, 16 + 4 * 515, spec.td_count);
  std::memcpy(c.data() + 16 + 4 * kBarThreadWords, "net", 3);
  return c;
}

// The LC_THREAD command that describes one tensor (role, type, dims, strides, size).
std::vector<uint8_t> TensorThreadCommand(const HwxTensor& t) {
  const uint32_t name_at = 16 + 4 * kTensorThreadWords + 4;
  std::vector<uint8_t> c((name_at + t.name.size() + 1 + 7) / 8 * 8, 0);
  Put32(&c, 0, kLcThread);
  Put32(&c, 4, uint32_t(c.size()));
  Put32(&c, 8, 3);
  Put32(&c, 12, kTensorThreadWords);
  Put32(&c, 16, 3);
  Put32(&c, 20, uint32_t(t.role));
  Put32(&c, 16 + 4 * 2, 16 + 4 * kTensorThreadWords);  // "net"
  std::memcpy(c.data() + 16 + 4 * kTensorThreadWords, "net", 3);
  Put32(&c, 16 + 4 * 4, name_at);
  std::memcpy(c.data() + name_at, t.name.data(), t.name.size());
  Put32(&c, 16 + 4 * 5, t.type);
  for (int d = 0; d < 5; ++d) {
    Put32(&c, 16 + 4 * (6 + uint64_t(d)), t.dims[d]);
    Put64(&c, 16 + 4 * (16 + 2 * uint64_t(d)), t.strides[d]);
  }
  Put32(&c, 16 + 4 * 26, 1);
  Put32(&c, 16 + 4 * 27, name_at);
  Put32(&c, 16 + 4 * 28, t.bytes);
  return c;
}

// A command with an 8-aligned string after `at` bytes of header (LC_IDENT, LC_LOADFVMLIB).
std::vector<uint8_t> StringCommand(uint32_t cmd, uint32_t at, const std::string& text) {
  std::vector<uint8_t> c((at + text.size() + 1 + 7) / 8 * 8, 0);
  Put32(&c, 0, cmd);
  Put32(&c, 4, uint32_t(c.size()));
  std::memcpy(c.data() + at, text.data(), text.size());
  return c;
}

}  // namespace

std::vector<uint8_t> WriteHwx(HwxSpec* spec) {
  // Layout: header and load commands from 0, the __TEXT segment at file 0x4000 (TDs, then the
  // weights 64-byte aligned), then one 0x4000-aligned __FVMLIB segment per tensor.
  const uint64_t tds = spec->tds.size();
  const uint64_t wt_off = (tds + 63) / 64 * 64;
  const uint64_t text_size = std::max<uint64_t>((wt_off + spec->weights.size() + 0x3FFF) / 0x4000 * 0x4000, 0x4000);
  uint64_t next_addr = kBase + text_size;
  // Table entries: 0 TDs, 1 weights, 4.. outputs then inputs.
  int entry = 4;
  for (int role : {2, 1}) {
    for (HwxTensor& t : spec->tensors) {
      if (int(t.role) != role) continue;
      if (entry >= kBarEntries) throw TdError("too many tensors for the buffer address table");
      t.bar = entry++;
    }
  }
  spec->scratch_bars.clear();
  for (int i = 0; i < spec->scratch; ++i) {
    if (entry >= kBarEntries) throw TdError("too many buffers for the buffer address table");
    spec->scratch_bars.push_back(entry++);
  }
  for (HwxTensor& t : spec->tensors) {
    t.vmaddr = next_addr;
    t.vmsize = std::max<uint64_t>((uint64_t(t.bytes) + 0x3FFF) / 0x4000 * 0x4000, 0x4000);
    next_addr += t.vmsize;
  }
  // Load commands.
  std::vector<std::vector<uint8_t>> cmds;
  cmds.push_back(SegmentCommand("__PAGEZERO", 0, 0x4000, 0, 0, 0, 0x4, {}));
  std::vector<Section> text;
  text.push_back(Section{"__TEXT", "__text", kBase, tds, uint32_t(kTextFile), 14, 0, 0, 0x28, 0});
  if (!spec->weights.empty()) {
    text.push_back(Section{"__TEXT", "__const", kBase + wt_off, spec->weights.size(), uint32_t(kTextFile + wt_off), 6,
                           0, 0, 0x26, 0});
  }
  cmds.push_back(SegmentCommand("__TEXT", kBase, text_size, kTextFile, text_size, 5, 0, text));
  for (const HwxTensor& t : spec->tensors) {
    const bool in = t.role == TensorRole::kInput;
    cmds.push_back(SegmentCommand(
        "__FVMLIB", t.vmaddr, t.vmsize, 0, 0, in ? 1 : 2, 0x6,
        {Section{"__FVMLIB", in ? "__const" : "__data", t.vmaddr, t.bytes, 0, 14, 0, 0, in ? 0x21u : 0x23u, 0}}));
  }
  for (const HwxTensor& t : spec->tensors) {
    std::vector<uint8_t> c = StringCommand(kLcLoadFvmlib, 20, t.name);
    Put32(&c, 8, 20);
    Put32(&c, 16, uint32_t(t.vmaddr));
    cmds.push_back(c);
  }
  cmds.push_back(BarTableCommand(*spec, wt_off, next_addr));  // scratch buffers after the tensors
  for (const HwxTensor& t : spec->tensors) cmds.push_back(TensorThreadCommand(t));
  cmds.push_back(StringCommand(kLcIdent, 8, spec->ident));
  size_t sizeofcmds = 0;
  for (const auto& c : cmds) sizeofcmds += c.size();
  if (kHeaderBytes + sizeofcmds > kTextFile)
    throw TdError("too many tensors: the load commands do not fit in 0x4000 bytes");
  std::vector<uint8_t> out(kTextFile + text_size, 0);
  Put32(&out, 0, kHwxMagic);
  Put32(&out, 4, kHwxCpuType);
  Put32(&out, 8, kHwxCpuSubtypeH13);
  Put32(&out, 12, 2);
  Put32(&out, 16, uint32_t(cmds.size()));
  Put32(&out, 20, uint32_t(sizeofcmds));
  Put32(&out, 24, 0x200000);
  size_t at = kHeaderBytes;
  for (const auto& c : cmds) {
    std::memcpy(out.data() + at, c.data(), c.size());
    at += c.size();
  }
  std::copy(spec->tds.begin(), spec->tds.end(), out.begin() + int64_t(kTextFile));
  std::copy(spec->weights.begin(), spec->weights.end(), out.begin() + int64_t(kTextFile + wt_off));
  return out;
}

}  // namespace ane::td
