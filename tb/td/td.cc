// SPDX-License-Identifier: Apache-2.0
#include "tb/td/td.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

namespace ane::td {
namespace {

namespace r = regs::td;

[[noreturn]] void Fail(const std::string& what) { throw TdError(what); }

uint32_t Mask(uint32_t width) { return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1; }

// Per TD word: the mask of its named bits, computed once.
const std::array<uint32_t, kTdWords>& NamedMasks() {
  static const std::array<uint32_t, kTdWords> masks = [] {
    std::array<uint32_t, kTdWords> m{};
    for (int i = 0; i < r::kNumFields; ++i) {
      const r::Field& f = r::kFields[i];
      m[f.td_offset / 4] |= Mask(f.width) << f.lsb;
    }
    return m;
  }();
  return masks;
}

// The first field in word w (kFields is in TD order), or kNumFields.
int FirstFieldOfWord(uint32_t w) {
  static const std::array<int, kTdWords + 1> first = [] {
    std::array<int, kTdWords + 1> a{};
    int f = 0;
    for (uint32_t i = 0; i <= kTdWords; ++i) {
      while (f < r::kNumFields && r::kFields[f].td_offset < i * 4) ++f;
      a[i] = f;
    }
    return a;
  }();
  return first[w];
}

std::string Hex(uint32_t v, int digits = 0);

// A field's status as decode shows it: "modelled", "no effect", or (not modelled) "fixed: 1" with
// the values the real programs carry for this TD's kind, "NOT CARRIED" when it holds another.
// field -1: the bits of TD word `word` outside every named field.
std::string StatusText(const Td& t, int field, int word) {
  if (field >= 0 && r::kFields[field].status == r::Status::kModelled) return "modelled";
  if (field >= 0 && r::kFields[field].status == r::Status::kInert) return "no effect";
  const int kind = t.Get(r::kHeader_8_ENE) == 0 ? r::kKindPlanar
                   : t.As<r::kNE_MACCfg_OpMode>() == r::OpMode::kPass && t.Get(r::kNE_MACCfg_KernelMode) == 1
                       ? r::kKindPass
                       : r::kKindConv;
  for (const r::FixedRule& rule : r::kFixedRules) {
    if (field >= 0 ? rule.field != field : (rule.field >= 0 || rule.td_offset != uint32_t(word) * 4)) continue;
    // a named field's values as decode shows the field (shifted down), unnamed bits as the word's
    const uint32_t lsb = field >= 0 ? uint32_t(__builtin_ctz(rule.mask)) : 0,
                   v = t.words[rule.td_offset / 4] & rule.mask;
    std::vector<std::string> vals;
    bool ok = false;
    for (uint32_t k = 0; k < rule.count[kind]; ++k) {
      vals.push_back(Hex(rule.allowed[kind][k] >> lsb));
      ok = ok || rule.allowed[kind][k] == v;
    }
    return fmt::format("{}: not modelled, real {}s carry {}", ok ? "fixed" : "REFUSED", r::kKindNames[kind],
                       fmt::join(vals, " or "));
  }
  return field >= 0 ? "fixed" : "no effect";
}

std::string Hex(uint32_t v, int digits) {
  return digits ? fmt::format("0x{:0{}x}", v, digits) : fmt::format("0x{:x}", v);
}

}  // namespace

uint32_t Td::Get(int field) const {
  const r::Field& f = r::kFields[field];
  return (words[f.td_offset / 4] >> f.lsb) & Mask(f.width);
}

void Td::Set(int field, uint64_t value) {
  const r::Field& f = r::kFields[field];
  if (value > Mask(f.width)) {
    Fail(fmt::format("{} = {} does not fit its {} bits", f.name, value, f.width));
  }
  uint32_t& w = words[f.td_offset / 4];
  w = (w & ~(Mask(f.width) << f.lsb)) | (uint32_t(value) << f.lsb);
}

Td Td::Blank() {
  Td t;
  for (const r::Stream& s : r::kStreams) t.words[s.td_offset / 4] = s.header;
  return t;
}

uint32_t UnnamedBits(uint32_t w) { return ~NamedMasks()[w]; }

int StreamOfWord(uint32_t w, bool* is_header) {
  *is_header = false;
  int stream = r::kHeaderStream;
  for (int s = 0; s < r::kNumStreams; ++s) {
    if (w * 4 >= r::kStreams[s].td_offset) {
      stream = s;
      *is_header = w * 4 == r::kStreams[s].td_offset;
    }
  }
  return stream;
}

int FieldByName(const std::string& name) {
  static const std::map<std::string, int> by_name = [] {
    std::map<std::string, int> m;
    for (int i = 0; i < r::kNumFields; ++i) m[r::kFields[i].name] = i;
    return m;
  }();
  auto it = by_name.find(name);
  return it == by_name.end() ? -1 : it->second;
}

Td ReadTd(const std::vector<uint8_t>& buf, uint32_t at, int index) {
  const std::string where = fmt::format("TD {} at 0x{:x}", index, at);
  if (at % 4 != 0) Fail(fmt::format("{}: not 4-byte aligned", where));
  if (uint64_t(at) + r::kTdBytes > buf.size()) {
    // Say which part is cut: the header, or the stream that runs past the end.
    const uint64_t avail = buf.size() > at ? buf.size() - at : 0;
    if (avail < r::kHeaderWords * 4) {
      Fail(fmt::format("{}: truncated: the buffer ends at 0x{:x}, inside the TD header (a TD is 0x{:x} bytes)", where,
                       buf.size(), r::kTdBytes));
    }
    for (const r::Stream& s : r::kStreams) {
      if (s.td_offset + 4 * (1 + s.words) > avail) {
        Fail(fmt::format("{}: stream {} at TD+0x{:x} runs past the end of the buffer (0x{:x}; a TD is 0x{:x} bytes)",
                         where, s.name, s.td_offset, buf.size(), r::kTdBytes));
      }
    }
  }
  Td t;
  t.at = at;
  std::memcpy(t.words.data(), buf.data() + at, r::kTdBytes);
  uint32_t expect = r::kHeaderWords * 4;
  for (const r::Stream& s : r::kStreams) {
    const uint32_t h = t.words[s.td_offset / 4];
    if (h != s.header) {
      const uint32_t count = h >> 24, addr = h & 0xFFFFFF;
      std::string why;
      if (count % 4 != 0) {
        why = fmt::format("count 0x{:x} is not a multiple of 4", count);
      } else if (s.td_offset + 4 + 4 * (count / 4 + 1) > r::kTdBytes) {
        why = fmt::format("count 0x{:x} ({} words) overruns the TD's 0x{:x} bytes", count, count / 4 + 1, r::kTdBytes);
      } else if (addr != (s.header & 0xFFFFFF)) {
        why = fmt::format("register address 0x{:05x} is not {}'s 0x{:05x}", addr, s.name, s.header & 0xFFFFFF);
      } else {
        why = fmt::format("count 0x{:x} ({} words) is not {}'s {} words of the H13 layout", count, count / 4 + 1,
                          s.name, s.words);
      }
      Fail(fmt::format("{}: stream header at TD+0x{:x} is 0x{:08x}, expected 0x{:08x} ({}): {}", where, s.td_offset, h,
                       s.header, s.name, why));
    }
    if (s.td_offset != expect) Fail("register description: streams out of order");  // generator invariant
    expect = s.td_offset + 4 * (1 + s.words);
  }
  return t;
}

std::vector<Td> WalkChain(const std::vector<uint8_t>& buf, uint32_t expected_count) {
  std::vector<Td> tds;
  std::map<uint32_t, int> seen;
  uint32_t at = 0;
  for (;;) {
    if (int(tds.size()) >= kMaxChain) Fail(fmt::format("more than {} TDs in the chain", kMaxChain));
    Td t = ReadTd(buf, at, int(tds.size()));
    seen[at] = int(tds.size());
    tds.push_back(t);
    if (t.Get(r::kHeader_0_EON)) break;
    const uint32_t next = t.Get(r::kHeader_7_NextPointer);
    const std::string where = fmt::format("TD {} at 0x{:x}", tds.size() - 1, at);
    if (auto it = seen.find(next); it != seen.end()) {
      Fail(fmt::format("{}: the chain loops: NextPointer 0x{:x} leads back to TD {}", where, next, it->second));
    }
    if (next < at + r::kTdBytes && next + r::kTdBytes > at) {
      Fail(fmt::format("{}: NextPointer 0x{:x} overlaps this TD", where, next));
    }
    if (uint64_t(next) >= buf.size()) {
      Fail(
          fmt::format("{}: not the end of the network (EON 0) but NextPointer 0x{:x} is past the buffer's 0x{:x} bytes",
                      where, next, buf.size()));
    }
    at = next;
  }
  if (expected_count && tds.size() != expected_count) {
    Fail(fmt::format("the chain has {} TD{} but the file announces {}", tds.size(), tds.size() == 1 ? "" : "s",
                     expected_count));
  }
  return tds;
}

std::vector<uint8_t> EncodeChain(const std::vector<Td>& tds, uint32_t size) {
  uint64_t end = 0;
  for (const Td& t : tds) end = std::max<uint64_t>(end, uint64_t(t.at) + r::kTdBytes);
  if (size < end) Fail(fmt::format("size 0x{:x} is smaller than the end of the last TD (0x{:x})", size, end));
  std::vector<uint8_t> out(size, 0);
  for (size_t i = 0; i < tds.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (tds[j].at < tds[i].at + r::kTdBytes && tds[i].at < tds[j].at + r::kTdBytes) {
        Fail(fmt::format("TD {} at 0x{:x} overlaps TD {} at 0x{:x}", i, tds[i].at, j, tds[j].at));
      }
    }
    std::memcpy(out.data() + tds[i].at, tds[i].words.data(), r::kTdBytes);
  }
  return out;
}

std::string DecodeText(const std::vector<Td>& tds, const Hwx* hwx, bool all_fields) {
  std::string o;
  if (hwx) {
    o += fmt::format("container   Mach-O .hwx, cputype 0x{:x}, cpusubtype {} (H13), {} load commands\n", hwx->cputype,
                     hwx->cpusubtype, hwx->commands.size());
    if (!hwx->ident.empty()) o += fmt::format("compiler    {}\n", hwx->ident.substr(0, hwx->ident.find(" | -")));
    const Section& t = hwx->sections[size_t(hwx->text)];
    o += fmt::format("TDs         __TEXT,__text at 0x{:x} (file 0x{:x}), 0x{:x} bytes, {} TD{} of {} words\n", t.addr,
                     t.offset, t.size, hwx->td_count, hwx->td_count == 1 ? "" : "s", hwx->td_words);
    if (hwx->weights >= 0) {
      const Section& w = hwx->sections[size_t(hwx->weights)];
      o += fmt::format("weights     __TEXT,__const at 0x{:x} (file 0x{:x}), 0x{:x} bytes\n", w.addr, w.offset, w.size);
    }
    for (const HwxTensor& x : hwx->tensors) {
      o += fmt::format(
          "tensor      {} {}: type {}{}, [N C H W D] = [{} {} {} {} {}], byte strides [{} {} {} {} {}], "
          "buffer entry {}\n",
          x.role == TensorRole::kInput ? "input " : "output", x.name, x.type,
          x.type == 5   ? " (fp16)"
          : x.type == 2 ? " (int8)"
                        : "",
          x.dims[0], x.dims[1], x.dims[2], x.dims[3], x.dims[4], x.strides[0], x.strides[1], x.strides[2], x.strides[3],
          x.strides[4], x.bar);
    }
    for (int i = 0; i < kBarEntries; ++i) {
      if (hwx->bar[i]) o += fmt::format("buffer {:<4} 0x{:x}  {}\n", i, hwx->bar[i], hwx->BarName(i));
    }
    for (const Relocation& rl : hwx->relocations) {
      o += fmt::format("relocation  TD+0x{:x} (0x{:08x}): patched with the address of section {}\n", rl.address, rl.raw,
                       rl.raw & 0xFFFFFF);
    }
  }
  for (size_t i = 0; i < tds.size(); ++i) {
    const Td& t = tds[i];
    o += fmt::format("\nTD {} at 0x{:x}\n", i, t.at);
    int last_stream = -2;
    for (uint32_t w = 0; w < kTdWords; ++w) {
      bool is_header = false;
      const int s = StreamOfWord(w, &is_header);
      if (s != last_stream) {
        if (s == r::kHeaderStream) {
          o += "  header (10 words)\n";
        } else {
          const r::Stream& st = r::kStreams[s];
          o += fmt::format("  stream {} (header 0x{:08x} at TD+0x{:03x}: {} words from register 0x{:05x}): {}\n",
                           st.name, st.header, st.td_offset, st.words, st.reg_addr, st.meaning);
        }
        last_stream = s;
      }
      if (is_header) continue;
      const uint32_t v = t.words[w];
      bool any = false;
      for (int f = FirstFieldOfWord(w); f < r::kNumFields && r::kFields[f].td_offset == w * 4; ++f) {
        const r::Field& fd = r::kFields[f];
        any = true;
        const uint32_t x = t.Get(f);
        if (!all_fields && x == 0) continue;
        const std::string bits =
            fd.width == 1 ? fmt::format("[{}]", fd.lsb) : fmt::format("[{}:{}]", fd.lsb + fd.width - 1, fd.lsb);
        std::string val = x > 9 ? fmt::format("{} ({})", x, Hex(x)) : fmt::format("{}", x);
        o += fmt::format("    TD+0x{:03x} {:<44} {:<8} = {:<20} {}{}  {{{}}}\n", w * 4, fd.name, bits, val,
                         fd.units[0] ? fmt::format("[{}] ", fd.units) : "", fd.meaning, StatusText(t, f, -1));
      }
      const uint32_t extra = v & UnnamedBits(w);
      if (extra) {
        o += fmt::format("    TD+0x{:03x} {:<44} {:<8} = {}  {{{}}}\n", w * 4,
                         any ? "(bits outside the named fields)" : "(unnamed word)", "", Hex(extra, 8),
                         StatusText(t, -1, int(w)));
      }
    }
  }
  return o;
}

}  // namespace ane::td
