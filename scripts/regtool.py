#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""regtool: the ANE's register map, written once in rtl/regs/ane_regs.yaml, generated everywhere.

Reads the YAML (task-descriptor fields and the neural-engine core's configuration registers;
its header comment gives the schema), checks it (the TD walk adds up, no field leaves its word
or overlaps another, names are unique), and generates
  rtl/ane_regs_pkg.sv   SystemVerilog package ane_regs_pkg (localparams, Yosys 0.23 subset)
  tb/regs/ane_regs.h    C++17 header, namespaces ane::regs::td and ane::regs::core
  docs/td.md            the stream and field tables, between the regtool "td fields" markers
  docs/core.md          the core's register table, between the regtool "core registers" markers
  docs/<block>.md       a window's register table (its doc:), between the "<window> registers"
                        markers

  python3 scripts/regtool.py                     rewrite the outputs that differ
  python3 scripts/regtool.py --check             exit 1 naming every stale output (flow.regs)
  python3 scripts/regtool.py --check --aneregs sim/hwx/aneregs.json
                                                 also: every aneregs.json field is in the YAML
                                                 with its [byte, bit, width], and no other
  python3 scripts/regtool.py --selftest          also: faulty copies of the YAML are refused,
                                                 each with its one-line error (exit 2)

Exit status: 0 ok, 1 stale output or aneregs mismatch, 2 the YAML or an argument is wrong.
Needs python3 and PyYAML (Debian: python3-yaml, in scripts/install-deps.sh).
"""

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("regtool: needs PyYAML; install it with scripts/install-deps.sh "
             "(Debian package python3-yaml)")

ROOT = Path(__file__).resolve().parent.parent
YAML_FILE = "rtl/regs/ane_regs.yaml"
SV_FILE = "rtl/ane_regs_pkg.sv"
RULES_FILE = "rtl/ane_td_rules.sv"
PROGRAMS_DIR = "sim/hwx"
KINDS = ("conv", "pass", "planar")
KIND_NAMES = ("convolution", "per-element pass", "planar")
H_FILE = "tb/regs/ane_regs.h"
TD_DOC = "docs/td.md"
CORE_DOC = "docs/core.md"
PLANAR_DOC = "docs/planar.md"
TD_MARK = "td fields"
CORE_MARK = "core registers"
SEEN_NOTE = ("\"Seen\" values are the raw field values in the three real programs "
             "`sim/hwx/{relu,sigmoid,conv_twos}.hwx`.")


class RegError(Exception):
    """A mistake in the YAML: the message says where and what."""


# ---------------------------------------------------------------- model


class Field:
    """One TD field (a repeated register's field once per element)."""

    def __init__(self, name, stream, word, lsb, width, td_offset, units, meaning, reg, index):
        self.name, self.stream, self.word = name, stream, word
        self.lsb, self.width, self.td_offset = lsb, width, td_offset
        self.units, self.meaning, self.reg, self.index = units, meaning, reg, index


class Register:
    """A TD register word (count > 1: repeated at consecutive words) with its fields."""

    def __init__(self, stream, name, word, count, meaning, fields, td_offset, addr):
        self.stream, self.name, self.word, self.count = stream, name, word, count
        self.meaning, self.fields, self.td_offset, self.addr = meaning, fields, td_offset, addr


def parse_bits(value, where):
    """'MSB:LSB' or 'BIT' (or an int bit) -> (lsb, width), within a 32-bit word."""
    if isinstance(value, bool):
        raise RegError(f"{where}: bits must be \"MSB:LSB\" or \"BIT\", not {value!r}")
    if isinstance(value, int):
        msb = lsb = value
    elif isinstance(value, str) and re.fullmatch(r"\d+(:\d+)?", value.strip()):
        parts = [int(p) for p in value.strip().split(":")]
        msb, lsb = parts[0], parts[-1]
    else:
        raise RegError(f"{where}: bits must be \"MSB:LSB\" or \"BIT\" (quoted), not {value!r}")
    if msb < lsb:
        raise RegError(f"{where}: bits {value!r}: MSB below LSB")
    if msb > 31:
        raise RegError(f"{where}: bits {value!r} leave the 32-bit word (unquoted 15:0 is a base-60 "
                       "number in YAML: quote it)")
    return lsb, msb - lsb + 1


def bits_text(lsb, width):
    return f"{lsb + width - 1}:{lsb}" if width > 1 else f"{lsb}"


def need(d, key, where, kind=None):
    if not isinstance(d, dict) or key not in d:
        raise RegError(f"{where}: missing '{key}'")
    v = d[key]
    if kind is not None and not isinstance(v, kind):
        raise RegError(f"{where}: '{key}' must be {kind.__name__ if isinstance(kind, type) else kind}")
    return v


def text(d, key, where, default=None):
    if default is not None and key not in d:
        return default
    v = need(d, key, where)
    if not isinstance(v, str) or "\n" in v.strip():
        raise RegError(f"{where}: '{key}' must be a one-line string")
    return v.strip()


STATUSES = ("modelled", "inert", "fixed")


class FSpec(tuple):
    """A field as (name, lsb, width, units, meaning), with its status (TD fields: modelled, inert
    or fixed, the default), why (an inert field's reason) and origin ("aneregs" or "project": a
    field the project named, not in aneregs.json)."""

    def __new__(cls, items, status="fixed", why="", origin="aneregs", values=None):
        t = super().__new__(cls, items)
        t.status, t.why, t.origin, t.values = status, why, origin, values
        return t


def parse_status(f, where, td):
    """status / why / origin of a field or an unnamed entry (TD only)."""
    if not td:
        for k in ("status", "why", "origin"):
            if k in f:
                raise RegError(f"{where}: '{k}' is for TD fields only")
        return "fixed", "", "aneregs"
    status = f.get("status", "fixed")
    if status not in STATUSES:
        raise RegError(f"{where}: status must be one of {', '.join(STATUSES)}, not {status!r}")
    why = text(f, "why", where, "")
    if status == "inert" and not why:
        raise RegError(f"{where}: an inert field needs 'why' (the reason it changes no value)")
    if status != "inert" and why:
        raise RegError(f"{where}: 'why' is for inert fields only")
    origin = f.get("origin", "aneregs")
    if origin not in ("aneregs", "project"):
        raise RegError(f"{where}: origin must be aneregs or project, not {origin!r}")
    return status, why, origin


def parse_fields(entries, where, td=False, origin=None):
    if not isinstance(entries, list) or not entries:
        raise RegError(f"{where}: 'fields' must be a non-empty list")
    out, used = [], 0
    for k, f in enumerate(entries):
        fw = f"{where}.fields[{k}]"
        name = text(f, "name", fw)
        fw = f"{where}.{name}"
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise RegError(f"{fw}: name must be a word")
        lsb, width = parse_bits(need(f, "bits", fw), fw)
        mask = ((1 << width) - 1) << lsb
        if used & mask:
            raise RegError(f"{fw}: bits {bits_text(lsb, width)} overlap another field of the word")
        used |= mask
        if any(o[0] == name for o in out):
            raise RegError(f"{fw}: two fields of one register have this name")
        status, why, forigin = parse_status(f, fw, td)
        if origin == "project":
            forigin = "project"
        values = f.get("values")
        if values is not None:
            if not td or not isinstance(values, str):
                raise RegError(f"{fw}: 'values' names one of td.enums (TD fields only)")
            if f.get("units", "") != "enum":
                raise RegError(f"{fw}: a field with 'values' has units enum")
        out.append(FSpec((name, lsb, width, text(f, "units", fw, ""), text(f, "meaning", fw)), status, why,
                         forigin, values))
    return out


class Engine:
    """A block's configuration port: the neural-engine core (core:) or the planar engine
    (planar:). Names: SV constants <Prefix><Reg>..., structs <name>_<reg>_t and <name>_cfg_t, C++
    namespace ane::regs::<name>, its register table in `doc` between the "<name> registers"
    markers."""

    def __init__(self, name, doc):
        self.name, self.doc = name, doc
        self.prefix = camel(name.upper())
        self.mark = f"{name} registers"


class Model:
    def __init__(self, doc):
        if not isinstance(doc, dict):
            raise RegError("the top level must be a mapping with 'td', 'core' and 'planar'")
        self.parse_td(need(doc, "td", "td", dict))
        self.engines = [self.parse_engine(need(doc, "core", "core", dict), "core", CORE_DOC),
                        self.parse_engine(need(doc, "planar", "planar", dict), "planar", PLANAR_DOC)]
        core = self.engines[0]
        # the core's, under the names the generators used before the planar engine
        self.core_module, self.core_addr_bits, self.core_meaning = core.module, core.addr_bits, core.meaning
        self.core_notes, self.core_regs, self.core_windows = core.notes, core.regs, core.windows
        self.config_meaning, self.config_regs = core.config_meaning, core.config_regs

    # ---- TD
    @staticmethod
    def parse_enums(enums):
        """td.enums: name -> {width, meaning, values: [{name, value, meaning}]}: the codes of the
        TD fields that name it in 'values'."""
        if not isinstance(enums, dict):
            raise RegError("td.enums must be a mapping of enum names")
        out = {}
        for ename, e in enums.items():
            where = f"td.enums.{ename}"
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", str(ename)):
                raise RegError(f"{where}: an enum name is a capitalized word")
            width = need(e, "width", where, int)
            vals, seen = [], set()
            for k, v in enumerate(need(e, "values", where, list)):
                vw = f"{where}.values[{k}]"
                vname, code = text(v, "name", vw), need(v, "value", vw, int)
                if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", vname):
                    raise RegError(f"{vw}: a value name is a capitalized word")
                if not 0 <= code < (1 << width) or code in seen or any(n == vname for n, _, _ in vals):
                    raise RegError(f"{vw}: value {code} does not fit {width} bits or is listed twice")
                seen.add(code)
                vals.append((vname, code, text(v, "meaning", vw)))
            out[ename] = {"width": width, "meaning": text(e, "meaning", where), "values": vals, "used": False}
        return out

    def parse_td(self, td):
        self.td_bytes = need(td, "bytes", "td", int)
        self.chain_stride = need(td, "chain_stride", "td", int)
        self.header_words = need(td, "header_words", "td", int)
        self.td_meaning = " ".join(text(td, "meaning", "td").split())
        self.enums = self.parse_enums(td.get("enums", {}))
        self.registers, self.fields, self.unnamed = [], [], []
        hdr = need(td, "header", "td.header", dict)
        self.header_meaning = text(hdr, "meaning", "td.header")
        seen_words = set()
        for k, w in enumerate(need(hdr, "words", "td.header", list)):
            where = f"td.header.words[{k}]"
            word = need(w, "word", where, int)
            if not 0 <= word < self.header_words or word in seen_words:
                raise RegError(f"{where}: word {word} is not a header word or is listed twice")
            seen_words.add(word)
            reg = Register(-1, f"Header[{word}]", word, 1, "", parse_fields(w.get("fields"), where, td=True),
                           4 * word, None)
            self.registers.append(reg)
        self.streams = []
        offset = 4 * self.header_words
        for k, s in enumerate(need(td, "streams", "td.streams", list)):
            where = f"td.streams[{k}]"
            name = text(s, "name", where)
            where = f"td.streams.{name}"
            header = need(s, "header", where, int)
            count, addr = header >> 24, header & 0xFFFFFF
            if count % 4:
                raise RegError(f"{where}: header 0x{header:08x}: count 0x{count:x} is not a multiple of 4")
            words = count // 4 + 1
            td_offset = need(s, "td_offset", where, int)
            if td_offset != offset:
                raise RegError(f"{where}: td_offset 0x{td_offset:x}, but the walk puts it at 0x{offset:x}")
            stream = {"name": name, "header": header, "count": count, "addr": addr, "words": words,
                      "td_offset": td_offset, "meaning": text(s, "meaning", where), "index": k}
            self.streams.append(stream)
            for j, r in enumerate(need(s, "registers", where, list)):
                rw = f"{where}.registers[{j}]"
                rname = text(r, "name", rw)
                rw = f"{where}.{rname}"
                if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", rname):
                    raise RegError(f"{rw}: name must be a word")
                word = need(r, "word", rw, int)
                rcount = r.get("count", 1)
                if not isinstance(rcount, int) or rcount < 1:
                    raise RegError(f"{rw}: count must be a positive number")
                if word < 0 or word + rcount > words:
                    raise RegError(f"{rw}: words {word}..{word + rcount - 1} outside the stream's {words}")
                reg = Register(k, rname, word, rcount, text(r, "meaning", rw),
                               parse_fields(r.get("fields"), rw, td=True,
                                            origin=parse_status(r, rw, True)[2]), td_offset + 4 + 4 * word,
                               addr + 4 * word)
                self.registers.append(reg)
            for j, u in enumerate(s.get("unnamed", []) or []):
                uw = f"{where}.unnamed[{j}]"
                word = need(u, "word", uw, int)
                ucount = u.get("count", 1)
                if word < 0 or word + ucount > words:
                    raise RegError(f"{uw}: words {word}..{word + ucount - 1} outside the stream")
                lsb, width = parse_bits(u["bits"], uw) if "bits" in u else (0, 32)
                ustatus, uwhy, _ = parse_status(u, uw, True)
                if ustatus == "modelled":
                    raise RegError(f"{uw}: an unnamed entry is inert or fixed; a modelled value needs a name")
                self.unnamed.append({"stream": k, "word": word, "count": ucount, "lsb": lsb,
                                     "width": width, "td_offset": td_offset + 4 + 4 * word,
                                     "addr": addr + 4 * word, "seen": text(u, "seen", uw),
                                     "status": ustatus, "why": uwhy})
            offset += 4 * (1 + words)
        if offset != self.td_bytes:
            raise RegError(f"td: the header and streams take 0x{offset:x} bytes, not bytes 0x{self.td_bytes:x}")
        if self.chain_stride < self.td_bytes or self.chain_stride % 0x100:
            raise RegError("td: chain_stride must be a multiple of 0x100 at least bytes")
        # expand into fields, in TD order
        for reg in self.registers:
            for i in range(reg.count):
                for spec in reg.fields:
                    (fname, lsb, width, units, meaning) = spec
                    if reg.stream < 0:
                        name = f"{reg.name}.{fname}"
                    else:
                        rn = f"{reg.name}[{i}]" if reg.count > 1 else reg.name
                        name = f"{self.streams[reg.stream]['name']}.{rn}.{fname}"
                    fd = Field(name, reg.stream, reg.word + i, lsb, width, reg.td_offset + 4 * i, units,
                               meaning, reg, i if reg.count > 1 else None)
                    fd.status, fd.why, fd.origin = spec.status, spec.why, spec.origin
                    fd.values = spec.values
                    if fd.values is not None:
                        if fd.values not in self.enums:
                            raise RegError(f"td: field {name}: values {fd.values!r} is not in td.enums")
                        if self.enums[fd.values]["width"] != width:
                            raise RegError(f"td: field {name} is {width} bits wide, enum {fd.values} "
                                           f"{self.enums[fd.values]['width']}")
                        self.enums[fd.values]["used"] = True
                    self.fields.append(fd)
        for ename, e in self.enums.items():
            if not e["used"]:
                raise RegError(f"td.enums.{ename}: no field names it in 'values'")
        self.fields.sort(key=lambda f: (f.td_offset, f.lsb))
        self.registers.sort(key=lambda r: r.td_offset)
        names, words = set(), {}
        for f in self.fields:
            if f.name in names:
                raise RegError(f"td: field {f.name} is described twice")
            names.add(f.name)
            mask = ((1 << f.width) - 1) << f.lsb
            prev = words.get(f.td_offset, 0)
            if prev & mask:
                raise RegError(f"td: field {f.name} overlaps another field of the word at TD+0x{f.td_offset:03x}")
            words[f.td_offset] = prev | mask
        for u in self.unnamed:
            for w in range(u["count"]):
                off = u["td_offset"] + 4 * w
                if words.get(off, 0) & (((1 << u["width"]) - 1) << u["lsb"]):
                    raise RegError(f"td: the unnamed entry at TD+0x{off:03x} overlaps a named field")

    # ---- an engine's configuration port
    def parse_engine(self, core, ename, doc):
        e = Engine(ename, doc)
        e.module = text(core, "module", ename)
        e.addr_bits = need(core, "addr_bits", ename, int)
        e.meaning = " ".join(text(core, "meaning", ename).split())
        e.notes = [str(n).strip() for n in core.get("notes", []) or []]
        e.regs, e.windows = [], []
        taken = {}
        limit = 1 << e.addr_bits
        for k, r in enumerate(need(core, "registers", f"{ename}.registers", list)):
            where = f"{ename}.registers[{k}]"
            name = text(r, "name", where)
            where = f"{ename}.{name}"
            addr = need(r, "addr", where, int)
            if not 0 <= addr < limit or addr in taken:
                raise RegError(f"{where}: address 0x{addr:02x} is outside the port or taken by {taken.get(addr)}")
            taken[addr] = name
            fields = parse_fields(r["fields"], where) if "fields" in r else []
            e.regs.append({"name": name, "addr": addr, "meaning": text(r, "meaning", where),
                           "fields": fields})
        for k, w in enumerate(core.get("windows", []) or []):
            where = f"{ename}.windows[{k}]"
            name = text(w, "name", where)
            where = f"{ename}.{name}"
            addr, bits = need(w, "addr", where, int), need(w, "addr_bits", where, int)
            if addr % (1 << bits) or addr + (1 << bits) > limit:
                raise RegError(f"{where}: a window must be aligned to its size and inside the port")
            for a in range(addr, addr + (1 << bits)):
                if a in taken:
                    raise RegError(f"{where}: address 0x{a:02x} is also {taken[a]}")
                taken[a] = name
            e.windows.append({"name": name, "addr": addr, "addr_bits": bits,
                              "meaning": text(w, "meaning", where),
                              "regs": self.parse_window_regs(w, where, bits),
                              "doc": self.parse_window_doc(w, where)})
        e.regs.sort(key=lambda r: r["addr"])
        self.parse_core_config(e, need(core, "config", f"{ename}.config", dict))
        for r in e.regs:
            self.check_sv_names(r, f"{ename}.{r['name']}")
        for w in e.windows:
            for r in w["regs"]:
                self.check_sv_names(r, f"{ename}.{w['name']}.{r['name']}")
        return e

    def parse_window_regs(self, w, where, bits):
        """A window's registers: addr is the address a within the window (the block's own
        cfg_addr_i); count > 1 is an array of registers at a .. a + count - 1."""
        regs, taken = [], {}
        for k, r in enumerate(w.get("registers", []) or []):
            rw = f"{where}.registers[{k}]"
            name = text(r, "name", rw)
            rw = f"{where}.{name}"
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
                raise RegError(f"{rw}: name must be a word")
            if any(o["name"] == name for o in regs):
                raise RegError(f"{rw}: two registers of the window have this name")
            addr = need(r, "addr", rw, int)
            count = r.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise RegError(f"{rw}: count must be a whole number above 0, not {count!r}")
            if not 0 <= addr or addr + count > (1 << bits):
                raise RegError(f"{rw}: addresses 0x{addr:02x} .. 0x{addr + count - 1:02x} leave the "
                               f"window's {1 << bits} registers")
            for a in range(addr, addr + count):
                if a in taken:
                    raise RegError(f"{rw}: address 0x{a:02x} within the window is also {taken[a]}")
                taken[a] = name
            fields = parse_fields(r["fields"], rw) if "fields" in r else []
            regs.append({"name": name, "addr": addr, "count": count,
                         "meaning": text(r, "meaning", rw), "fields": fields})
        regs.sort(key=lambda r: r["addr"])
        return regs

    @staticmethod
    def parse_window_doc(w, where):
        """doc: the block's document, which gets the window's register table (between
        '<!-- BEGIN regtool: <window> registers -->' and its END marker)."""
        doc = w.get("doc")
        if doc is None:
            return None
        if not isinstance(doc, str) or not re.fullmatch(r"docs/[A-Za-z0-9_]+\.md", doc):
            raise RegError(f"{where}: doc must name a file docs/<name>.md, not {doc!r}")
        if not w.get("registers"):
            raise RegError(f"{where}: doc {doc} is given but the window lists no registers")
        return doc

    @staticmethod
    def check_sv_names(r, where):
        """A register with fields becomes a packed struct: its name and its fields' names must not
        be SystemVerilog keywords."""
        if not r["fields"]:
            return
        if sv_name(r["name"]) in SV_KEYWORDS:
            raise RegError(f"{where}: {sv_name(r['name'])} is a SystemVerilog keyword")
        for (fname, _, _, _, _) in r["fields"]:
            if sv_name(fname) in SV_KEYWORDS:
                raise RegError(f"{where}.{fname}: {sv_name(fname)} is a SystemVerilog keyword")

    @staticmethod
    def parse_core_config(e, cfg):
        """<engine>.config: the registers the engine keeps for a task, as one packed struct."""
        where = f"{e.name}.config"
        e.config_meaning = " ".join(text(cfg, "meaning", where).split())
        names = need(cfg, "registers", where + ".registers", list)
        by_name = {r["name"]: r for r in e.regs}
        e.config_regs = []
        for k, n in enumerate(names):
            if not isinstance(n, str) or n not in by_name:
                raise RegError(f"{where}.registers[{k}]: {n!r} is not a {e.name} register")
            r = by_name[n]
            if not r["fields"]:
                raise RegError(f"{where}.registers[{k}]: {n} has no fields to keep")
            if r in e.config_regs:
                raise RegError(f"{where}.registers[{k}]: {n} is listed twice")
            e.config_regs.append(r)


# ---------------------------------------------------------------- the real programs


def read_programs(m, root):
    """Every TD of the programs in sim/hwx (Apple's compiler's): [(program, index, kind, words)].
    kind: planar when Header[8].ENE is 0 (no neural engine), pass when NE.MACCfg.OpMode is 4 with
    KernelMode 1, conv otherwise. The Mach-O is read only as far as the __TEXT,__text section."""
    import struct
    by = {f.name: f for f in m.fields}

    def get(words, name):
        f = by[name]
        return (words[f.td_offset // 4] >> f.lsb) & ((1 << f.width) - 1)

    out = []
    files = sorted((root / PROGRAMS_DIR).glob("*.hwx"))
    if not files:
        raise RegError(f"no programs in {PROGRAMS_DIR}: the fixed fields' values come from them")
    nwords = m.td_bytes // 4
    for path in files:
        b = path.read_bytes()
        ncmds = struct.unpack_from("<I", b, 16)[0]
        at, text_off, text_size = 32, None, None
        for _ in range(ncmds):
            cmd, size = struct.unpack_from("<II", b, at)
            if cmd == 0x19:
                nsects = struct.unpack_from("<I", b, at + 64)[0]
                for k in range(nsects):
                    so = at + 72 + 80 * k
                    if b[so:so + 16].rstrip(b"\0") == b"__text" and b[so + 16:so + 32].rstrip(b"\0") == b"__TEXT":
                        text_size = struct.unpack_from("<Q", b, so + 40)[0]
                        text_off = struct.unpack_from("<I", b, so + 48)[0]
            at += size
        if text_off is None:
            raise RegError(f"{path.name}: no __TEXT,__text section")
        chain, td, index = b[text_off:text_off + text_size], 0, 0
        while True:
            words = struct.unpack_from(f"<{nwords}I", chain, td)
            if get(words, "NE.MACCfg.OpMode") == 4 and get(words, "NE.MACCfg.KernelMode") == 1:
                kind = 1
            else:
                kind = 0
            if get(words, "Header[8].ENE") == 0:
                kind = 2
            out.append((path.stem, index, kind, words))
            if get(words, "Header[0].EON"):
                break
            td, index = get(words, "Header[7].NextPointer"), index + 1
    return out


class Rule:
    """Fixed bits of one TD word: a fixed field, or the word's reserved bits (field None: every
    bit no named field and no inert unnamed entry covers). allowed[k]: the values (word & mask)
    the real programs carry for kind k, sorted."""

    def __init__(self, td_offset, mask, field, allowed):
        self.td_offset, self.mask, self.field, self.allowed = td_offset, mask, field, allowed


def fixed_rules(m, tds):
    stream_headers = {s["td_offset"] for s in m.streams}
    named, inert = {}, {}
    for f in m.fields:
        named[f.td_offset] = named.get(f.td_offset, 0) | (((1 << f.width) - 1) << f.lsb)
    for u in m.unnamed:
        if u["status"] == "inert":
            for w in range(u["count"]):
                off = u["td_offset"] + 4 * w
                inert[off] = inert.get(off, 0) | (((1 << u["width"]) - 1) << u["lsb"])

    def allowed(off, mask):
        a = [set() for _ in KINDS]
        for (_, _, kind, words) in tds:
            a[kind].add(words[off // 4] & mask)
        return [sorted(x) for x in a]

    rules = []
    for f in m.fields:
        if f.status == "fixed":
            mask = ((1 << f.width) - 1) << f.lsb
            rules.append(Rule(f.td_offset, mask, f, allowed(f.td_offset, mask)))
    for off in range(0, m.td_bytes, 4):
        if off in stream_headers:
            continue
        mask = ~(named.get(off, 0) | inert.get(off, 0)) & 0xFFFFFFFF
        if mask:
            rules.append(Rule(off, mask, None, allowed(off, mask)))
    for r in rules:
        if not all(r.allowed):
            raise RegError(f"TD+0x{r.td_offset:03x}: a kind of TD no program in {PROGRAMS_DIR} has")
    rules.sort(key=lambda r: (r.td_offset, r.mask & -r.mask))
    return rules


def reg_addr_of(m, off):
    """(header?, address the fetch gives the word: the header offset or the register address)."""
    for s in m.streams:
        if s["td_offset"] < off < s["td_offset"] + 4 * (1 + s["words"]):
            return False, s["addr"] + off - s["td_offset"] - 4
    return True, off


def gen_rules_sv(m, rules):
    """ane_td_rules: per TD word on the fetch's write port, whether its fixed bits hold a value
    the real programs carry for each kind of TD."""
    o = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by scripts/regtool.py from rtl/regs/ane_regs.yaml and the programs in sim/hwx:",
        "// do not edit; change the YAML and run `python3 scripts/regtool.py`.",
        "// ane_td_rules: the fields of a TD the model does not run (status fixed in the YAML) and the",
        "// bits no field names. Each must hold a value the real programs of sim/hwx carry for the",
        "// TD's kind (docs/td.md, \"Field status\"). For the word on the TD fetch's write port",
        "// (header_i: addr_i is the header word's TD offset, else its register address), ok_o[k] is 1",
        "// when its fixed bits are allowed for kind k (0 convolution, 1 per-element pass, 2 planar).",
        "// Combinational; ane_td_setup ANDs it over a TD's words.",
        "`default_nettype none",
        "",
        "module ane_td_rules (",
        "  input  wire logic        header_i,",
        "  input  wire logic [23:0] addr_i,",
        "  input  wire logic [31:0] data_i,",
        "  output      logic [2:0]  ok_o",
        ");",
        "",
    ]
    by_word = {}
    for r in rules:
        by_word.setdefault(r.td_offset, []).append(r)

    def expr(rs, k):
        # the rules with one allowed value compare as one masked word; the others one by one
        mask = sum(r.mask for r in rs if len(r.allowed[k]) == 1)
        value = sum(r.allowed[k][0] for r in rs if len(r.allowed[k]) == 1)
        terms = [f"(data_i & 32'h{mask:08x}) == 32'h{value:08x}"] if mask else []
        for r in rs:
            if len(r.allowed[k]) > 1:
                vals = " || ".join(f"(data_i & 32'h{r.mask:08x}) == 32'h{v:08x}" for v in r.allowed[k])
                terms.append(f"({vals})")
        return " &&\n      ".join(terms)

    for part, hdr in (("h", True), ("s", False)):
        words = [(off, rs) for off, rs in sorted(by_word.items()) if reg_addr_of(m, off)[0] == hdr]
        for off, rs in words:
            for k in range(len(KINDS)):
                o.append(f"  logic {part}{off:03x}_{KINDS[k]};")
                o.append(f"  assign {part}{off:03x}_{KINDS[k]} = {expr(rs, k)};")
        o.append("")
    o.append("  always_comb begin")
    o.append("    ok_o = 3'b111;")
    for part, hdr in (("h", True), ("s", False)):
        words = [(off, rs) for off, rs in sorted(by_word.items()) if reg_addr_of(m, off)[0] == hdr]
        o.append(f"    if ({'' if hdr else '!'}header_i) begin")
        o.append("      unique case (addr_i)")
        for off, rs in words:
            a = reg_addr_of(m, off)[1]
            n = f"{part}{off:03x}"
            o.append(f"        24'h{a:05x}: ok_o = {{{n}_planar, {n}_pass, {n}_conv}};  // TD+0x{off:03x}")
        o.append("        default: ok_o = 3'b111;")
        o.append("      endcase")
        o.append("    end")
    o += ["  end", "", "endmodule", "", "`default_nettype wire", ""]
    return "\n".join(o)


# ---------------------------------------------------------------- names


def camel(name):
    """LAYER -> Layer, TWO_KERNEL -> TwoKernel, KernelDMASrc -> KernelDMASrc."""
    if name.isupper() or "_" in name:
        return "".join(p[:1].upper() + p[1:].lower() for p in name.split("_") if p)
    return re.sub(r"[^A-Za-z0-9]", "", name)


# SystemVerilog keywords a lowercase register or field name could collide with (IEEE 1800-2017
# Annex B, the short ones).
SV_KEYWORDS = set("""alias always and assert assign assume automatic before begin bind bins binsof bit
break buf bufif0 bufif1 byte case casex casez cell chandle checker class clocking cmos config
const constraint context continue cover covergroup coverpoint cross deassign default defparam
design disable dist do edge else end endcase enum event eventually expect export extends extern
final first_match for force foreach forever fork forkjoin function generate genvar global
highz0 highz1 if iff ifnone ignore_bins illegal_bins implements implies import incdir include
initial inout input inside instance int integer interconnect interface intersect join join_any
join_none large let liblist library local localparam logic longint macromodule matches medium
modport module nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1 null
or output package packed parameter pmos posedge primitive priority program property protected
pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase
randsequence rcmos real realtime ref reg reject_on release repeat restrict return rnmos rpmos
rtran rtranif0 rtranif1 s_always s_eventually s_nexttime s_until s_until_with scalared sequence
shortint shortreal showcancelled signed small soft solve specify specparam static string strong
strong0 strong1 struct super supply0 supply1 sync_accept_on sync_reject_on table tagged task
this throughout time timeprecision timeunit tran tranif0 tranif1 tri tri0 tri1 triand trior
trireg type typedef union unique unique0 unsigned until until_with untyped use uwire var
vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with within wor
xnor xor""".split())


def sv_name(name):
    """A register or field name as a struct type or member name: TWO_KERNEL -> two_kernel."""
    return name.lower()


def word(name):
    """A TD name part as an identifier part, spelled as aneregs.json spells it: Header[0] -> Header0."""
    return re.sub(r"[^A-Za-z0-9]", "", name)


def comment(text_, indent="", width=100):
    """text_ as // comment lines of at most width characters."""
    return textwrap.wrap(text_, width=width, initial_indent=indent + "// ",
                         subsequent_indent=indent + "//   ", break_on_hyphens=False)


def field_id(name):
    return "k" + re.sub(r"[^A-Za-z0-9]+", "_", name).rstrip("_")


def sv_reg_prefix(model, reg):
    if reg.stream < 0:
        return f"TdHeader{reg.word}"
    return f"Td{word(model.streams[reg.stream]['name'])}{word(reg.name)}"


# ---------------------------------------------------------------- SystemVerilog


def hexv(v, digits=0):
    return f"32'h{v:0{digits}x}"


def gen_h_enums(m):
    """td.enums as C++ enum classes, and FieldType<F>::type: a field's value type (its enum, else
    uint32_t), for the typed accessor Td::As<F>() of tb/td/td.h."""
    o = ["// ---- field codes (td.enums): a field with values reads as its enum (Td::As<F>()) ----"]
    for ename, e in m.enums.items():
        o += comment(f"{ename}: {e['meaning']}")
        o.append(f"enum class {ename} : uint32_t {{")
        for vname, code, meaning in e["values"]:
            o.append(f"  k{vname} = {code},  // {meaning}")
        o += ["};", f"inline const char* NameOf({ename} v) {{", "  switch (v) {"]
        for vname, _, _ in e["values"]:
            o.append(f"    case {ename}::k{vname}: return \"{vname}\";")
        o += ["  }", "  return \"unknown\";", "}"]
    o += ["", "// The value type of field F: its enum (td.enums) or uint32_t.",
          "template <int F>", "struct FieldType {", "  using type = uint32_t;", "};"]
    for f in m.fields:
        if f.values is not None:
            o += [f"template <>", f"struct FieldType<{field_id(f.name)}> {{", f"  using type = {f.values};", "};"]
    o.append("")
    return o


def gen_sv_enums(m):
    """td.enums as SystemVerilog enums: Td<Enum><Value> of type td_<enum>_e, as wide as the fields
    that carry it (compare a field's bits with them; Yosys 0.23 takes no cast to an enum)."""
    o = ["", "  // ---- field codes (td.enums): the values of the TD fields that name them ----"]
    for ename, e in m.enums.items():
        o += comment(f"{ename}: {e['meaning']}", "  ")
        w = e["width"]
        vec = f"logic [{w - 1}:0]" if w > 1 else "logic"
        o.append(f"  typedef enum {vec} {{")
        for k, (vname, code, meaning) in enumerate(e["values"]):
            sep = "," if k + 1 < len(e["values"]) else ""
            o.append(f"    Td{ename}{vname} = {w}'d{code}{sep}  // {meaning}")
        o.append(f"  }} td_{re.sub(r'(?<!^)(?=[A-Z])', '_', ename).lower()}_e;")
    return o


def gen_sv(m):
    out = []
    consts = []  # every constant's name, for the lint sink

    def block(title, rows):
        if title:
            out.extend(comment(title, "  "))
        width = max(len(n) for n, _, _ in rows)
        for n, v, c in rows:
            consts.append(n)
            line = f"  localparam int unsigned {n:<{width}} = {v};"
            out.append(f"{line}  // {c}" if c and len(line) + len(c) + 5 <= 100 else line)

    out += [
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by scripts/regtool.py from rtl/regs/ane_regs.yaml: do not edit; change the YAML",
        "// and run `python3 scripts/regtool.py`.",
        "// ane_regs_pkg: the register map of a task descriptor (TD, docs/td.md) and of the",
        "// neural-engine core's configuration port (docs/core.md). Plain localparams, referenced as",
        "// ane_regs_pkg::Name (Yosys 0.23 has no import). Offsets are TD byte offsets of 32-bit",
        "// little-endian words; Lsb is the bit within that word.",
        "//   Td<Stream>{Off,Header,Words,Addr}  a stream: its header word's TD offset, the header word,",
        "//                                      its data words, the register address of data word 0",
        "//   Td<Stream><Reg>{Off,Addr}          a register word: TD offset, register address;",
        "//                                      <Reg>Count: repeated, element i at Off + 4 i, Addr + 4 i",
        "//   Td<Stream><Reg><Field>{Off,Lsb,Width}, TdHeader<w><Field>{Off,Lsb,Width}  a field",
        "//   Core<Reg>{Addr,Bits}               a core register: address, bits below its top field",
        "//   Core<Reg><Field>{Lsb,Width}        a core register field",
        "//   Core<Window>{Addr,AddrBits}        a window: registers Addr + a, a < 2^AddrBits",
        "//   <Window><Reg>{Addr,Bits,Count}     a window's register: a, bits below its top field;",
        "//                                      Count: an array of registers at a .. a + Count - 1",
        "//   <Window><Reg><Field>{Lsb,Width}    a window register's field",
        "//   core_<reg>_t, <window>_<reg>_t     a register with fields as a packed struct",
        "`default_nettype none",
        "",
        "package ane_regs_pkg;",
        "",
        "  // ---- TD layout ----",
    ]
    block("", [("TdBytes", hexv(m.td_bytes), "one TD"),
               ("TdChainStride", hexv(m.chain_stride), "a TD followed by another is padded to this"),
               ("TdHeaderWords", str(m.header_words), "header words before the first stream"),
               ("TdNumStreams", str(len(m.streams)), "")])
    out.append("")
    out.append("  // ---- streams: header word [31:24] count, [23:0] register address; count/4+1 data words ----")
    for s in m.streams:
        n = f"Td{word(s['name'])}"
        block(f"{s['name']}: {s['meaning']}",
              [(n + "Off", hexv(s["td_offset"]), "TD offset of the header word"),
               (n + "Header", hexv(s["header"], 8), ""),
               (n + "Words", str(s["words"]), "data words"),
               (n + "Addr", hexv(s["addr"]), "register address of data word 0")])
    out.append("")
    out.append("  // ---- TD fields ----")
    for reg in m.registers:
        p = sv_reg_prefix(m, reg)
        if reg.stream < 0:
            title = f"Header[{reg.word}] (TD+0x{reg.td_offset:03x})"
            rows = [(p + "Off", hexv(reg.td_offset), "")]
        else:
            s = m.streams[reg.stream]
            rep = f"[{reg.count}]" if reg.count > 1 else ""
            title = (f"{s['name']}.{reg.name}{rep} (word {reg.word}, TD+0x{reg.td_offset:03x}, "
                     f"reg 0x{reg.addr:05x}): {reg.meaning}")
            rows = [(p + "Off", hexv(reg.td_offset), ""), (p + "Addr", hexv(reg.addr), "")]
            if reg.count > 1:
                rows.append((p + "Count", str(reg.count), "elements at consecutive words"))
        for (fname, lsb, width, units, _) in reg.fields:
            fp = p + word(fname)
            rows += [(fp + "Off", hexv(reg.td_offset), ""), (fp + "Lsb", str(lsb), ""),
                     (fp + "Width", str(width), units)]
        block(title, rows)

    def reg_rows(p, r, addr_note=""):
        """<p>Addr, <p>Count (an array), <p>Bits and each field's <p><Field>{Lsb,Width}."""
        rows = [(p + "Addr", hexv(r["addr"]), addr_note)]
        if r.get("count", 1) > 1:
            rows.append((p + "Count", str(r["count"]), "registers at Addr .. Addr + Count - 1"))
        if r["fields"]:
            top = max(lsb + width for (_, lsb, width, _, _) in r["fields"])
            rows.append((p + "Bits", str(top), "bits below the top field's MSB"))
        for (fname, lsb, width, units, _) in r["fields"]:
            rows += [(p + camel(fname) + "Lsb", str(lsb), ""),
                     (p + camel(fname) + "Width", str(width), units)]
        return rows

    for e in m.engines:
        out.append("")
        out.append(f"  // ---- the {e.name}'s configuration port (rtl/{e.module}.sv) ----")
        for r in e.regs:
            block(f"{r['name']} (0x{r['addr']:02x}): {r['meaning']}", reg_rows(e.prefix + camel(r["name"]), r))
        for w in e.windows:
            p = e.prefix + camel(w["name"])
            block(f"{w['name']} window (0x{w['addr']:02x} + a): {w['meaning']}",
                  [(p + "Addr", hexv(w["addr"]), ""), (p + "AddrBits", str(w["addr_bits"]), "")])
            for r in w["regs"]:
                block(f"{w['name']}.{r['name']} (a = 0x{r['addr']:02x}): {r['meaning']}",
                      reg_rows(camel(w["name"]) + camel(r["name"]), r, "the address within the window"))
    out.append("")
    block("The kinds of TD the fixed rules (ane_td_rules) tell apart: planar when Header[8].ENE is 0, "
          "a per-element pass when NE.MACCfg.OpMode is Pass with KernelMode 1, a convolution otherwise.",
          [(f"TdKind{camel(k.upper())}", str(i), KIND_NAMES[i]) for i, k in enumerate(KINDS)])
    out += gen_sv_enums(m)
    consts += [f"Td{en}{vn}" for en, e in m.enums.items() for vn, _, _ in e["values"]]
    out += gen_sv_structs(m)
    for e in m.engines:
        out += gen_sv_config(e)
    dup = {n for n in consts if consts.count(n) > 1}
    if dup:
        raise RegError(f"two SystemVerilog constants would have the name {sorted(dup)[0]}")
    out += ["", "endpackage", "", "`default_nettype wire", ""]
    return "\n".join(out)


def sv_struct(t, r, title):
    """Register r as a packed struct named t: its fields, the top one first, a reserved member
    rsvd_<msb>_<lsb> for a gap between fields. Every member is declared [N-1:0]: Yosys 0.23
    misreads a bit of a field whose range does not start at 0 (docs/flow.md)."""
    out = [f"  typedef struct packed {{  // {title}"]

    def member(width, name, note=""):
        vec = f"logic [{width - 1}:0]" if width > 1 else "logic"
        out.append(f"    {vec:<13} {name};" + (f"  // {note}" if note else ""))

    top = max(lsb + width for (_, lsb, width, _, _) in r["fields"])
    at = top
    for (fname, lsb, width, units, _) in sorted(r["fields"], key=lambda f: -f[1]):
        if lsb + width < at:
            member(at - lsb - width, f"rsvd_{at - 1}_{lsb + width}", "reserved")
        member(width, sv_name(fname), units)
        at = lsb
    if at > 0:
        member(at, f"rsvd_{at - 1}_0", "reserved")
    out.append(f"  }} {t};")
    return out


def gen_sv_structs(m):
    """Every register with fields as a packed struct: core_<reg>_t for a core register,
    <window>_<reg>_t for a window's register."""
    out = ["", "  // ---- the registers as packed structs ----"]
    out += comment("Each register's struct is its bits below <Reg>Bits, the top field first, so a "
                   "block reads a written word as the struct (`w = cfg_wdata_i[<Reg>Bits-1:0]`) and "
                   "its fields by name (`w.<field>`): core_<reg>_t for a core register, "
                   "<window>_<reg>_t for a window's register.", "  ")
    for e in m.engines:
        for r in e.regs:
            if r["fields"]:
                out += sv_struct(e.name + "_" + sv_name(r["name"]) + "_t", r,
                                 f"{r['name']} (0x{r['addr']:02x}): {r['meaning']}")
        for w in e.windows:
            for r in w["regs"]:
                if r["fields"]:
                    out += sv_struct(sv_name(w["name"]) + "_" + sv_name(r["name"]) + "_t", r,
                                     f"{w['name']}.{r['name']} (a = 0x{r['addr']:02x}): {r['meaning']}")
    return out


def gen_sv_config(e):
    """An engine's task configuration as one packed struct, <engine>_cfg_t, of the kept
    registers' structs."""
    label = "planar engine" if e.name == "planar" else e.name
    out = ["", f"  // ---- the configuration the {label} keeps ({e.name}.config) ----"]
    out += comment(e.config_meaning, "  ")
    out += comment(f"A register is kept as `cfg.<reg> <= cfg_wdata_i[{e.prefix}<Reg>Bits-1:0]` and read "
                   "as `cfg.<reg>.<field>`.", "  ")
    out.append("  typedef struct packed {")
    for r in e.config_regs:
        out.append(f"    {e.name}_{sv_name(r['name'])}_t {sv_name(r['name'])};")
    out.append(f"  }} {e.name}_cfg_t;")
    return out


# ---------------------------------------------------------------- C++


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cstr_lines(s, indent, width=100):
    """s as adjacent C++ string literals, one per line, each line at most width characters."""
    parts = textwrap.wrap(s, width=width - len(indent) - 3, drop_whitespace=False,
                          break_on_hyphens=False) or [""]
    return [indent + cstr(p) for p in parts]


def gen_h(m, rules=()):
    o = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// GENERATED by scripts/regtool.py from rtl/regs/ane_regs.yaml: do not edit; change the YAML",
        "// and run `python3 scripts/regtool.py`.",
        "// The register map of a task descriptor (ane::regs::td, docs/td.md) and of the neural-engine",
        "// core's configuration port (ane::regs::core, docs/core.md; rtl/ane_core.sv decodes the same",
        "// map from rtl/ane_regs_pkg.sv).",
        "#ifndef TB_REGS_ANE_REGS_H_",
        "#define TB_REGS_ANE_REGS_H_",
        "",
        "#include <cstdint>",
        "#include <initializer_list>",
        "#include <stdexcept>",
        "#include <string>",
        "",
        "namespace ane::regs::td {",
        "",
        f"inline constexpr uint32_t kTdBytes = 0x{m.td_bytes:x};",
        f"inline constexpr uint32_t kChainStride = 0x{m.chain_stride:x};   "
        "// a TD followed by another is padded to 0x300",
        f"inline constexpr uint32_t kHeaderWords = {m.header_words};",
        f"inline constexpr int kNumStreams = {len(m.streams)};",
        "",
        "// A stream: its header word ([31:24] count, [23:0] register byte address), the TD offset of",
        "// that word, the data words after it (count / 4 + 1) and the register address of data word 0.",
        "struct Stream {",
        "  const char* name;",
        "  uint32_t header;",
        "  uint32_t td_offset;",
        "  uint32_t words;",
        "  uint32_t reg_addr;",
        "  const char* meaning;",
        "};",
        "inline constexpr Stream kStreams[kNumStreams] = {",
    ]
    for s in m.streams:
        o.append(f"    {{{cstr(s['name'])}, 0x{s['header']:08x}, 0x{s['td_offset']:03x}, {s['words']}, "
                 f"0x{s['addr']:05x},")
        o += cstr_lines(s["meaning"], "     ")
        o[-1] += "},"
    o += [
        "};",
        "inline constexpr int kHeaderStream = -1;",
        "",
        "// name: the aneregs.json name without its \"aneTD.\" / \"aneRegs.\" prefix; stream: kHeaderStream",
        "// or the index in kStreams; word: header word 0..9, or the data word index within the stream;",
        "// lsb: bit within that little-endian 32-bit word; td_offset: byte offset of that word in the",
        "// TD. units: \"\" when raw; meaning: one line (\"seen\": the raw value in sim/hwx's programs).",
        "// status (docs/td.md, \"Field status\"): modelled (the model reads it), inert (it changes",
        "// no value: why says so) or fixed (not modelled: it must hold a value the real programs carry",
        "// for the TD's kind, kFixedRules); project: a field the project named (not in aneregs.json).",
        "enum class Status : uint8_t { kModelled, kInert, kFixed };",
        "struct Field {",
        "  const char* name;",
        "  int stream;",
        "  uint32_t word;",
        "  uint32_t lsb;",
        "  uint32_t width;",
        "  uint32_t td_offset;",
        "  const char* units;",
        "  const char* meaning;",
        "  Status status;",
        "  const char* why;",
        "  bool project;",
        "};",
        "inline constexpr Field kFields[] = {",
    ]
    status_c = {"modelled": "Status::kModelled", "inert": "Status::kInert", "fixed": "Status::kFixed"}
    for f in m.fields:
        st = "kHeaderStream" if f.stream < 0 else str(f.stream)
        o.append(f"    {{{cstr(f.name)}, {st}, {f.word}, {f.lsb}, {f.width}, 0x{f.td_offset:03x}, "
                 f"{cstr(f.units)},")
        o += cstr_lines(f.meaning, "     ")
        o[-1] += ","
        o.append(f"     {status_c[f.status]}, {cstr(f.why)}, {'true' if f.origin == 'project' else 'false'}}},")
    o += [
        "};",
        f"inline constexpr int kNumFields = {len(m.fields)};",
        "static_assert(sizeof(kFields) / sizeof(kFields[0]) == kNumFields);",
        "",
        "// kFields[id]: the name with every non-alphanumeric run turned into '_'.",
        "enum FieldId : int {",
    ]
    ids = [field_id(f.name) for f in m.fields]
    if len(set(ids)) != len(ids):
        raise RegError("two TD fields would have the same FieldId")
    for k, i in enumerate(ids):
        o.append(f"  {i} = {k},")
    o += ["};", ""]
    o += gen_h_enums(m)
    index = {f.name: k for k, f in enumerate(m.fields)}
    nmax = max((len(v) for r in rules for v in r.allowed), default=1)
    o += [
        "// The kinds of TD the fixed rules tell apart: planar when Header[8].ENE is 0, a per-element",
        "// pass when NE.MACCfg.OpMode is 4 with KernelMode 1, a convolution otherwise.",
        f"inline constexpr int kNumKinds = {len(KINDS)};",
        "enum Kind : int { " + ", ".join(f"kKind{camel(k.upper())} = {i}" for i, k in enumerate(KINDS)) + " };",
        "inline constexpr const char* kKindNames[kNumKinds] = {" +
        ", ".join(cstr(n) for n in KIND_NAMES) + "};",
        f"inline constexpr int kMaxAllowed = {nmax};",
        "// Fixed bits of one TD word: field = a fixed field's index in kFields, or -1 for the word's",
        "// bits that no named field covers (and no inert unnamed entry). allowed[k][0..count[k]-1]:",
        "// the values (word & mask) the real programs carry in TDs of kind k.",
        "struct FixedRule {",
        "  int field;",
        "  uint32_t td_offset;",
        "  uint32_t mask;",
        "  uint32_t count[kNumKinds];",
        "  uint32_t allowed[kNumKinds][kMaxAllowed];",
        "};",
        "inline constexpr FixedRule kFixedRules[] = {",
    ]
    for r in rules:
        fid = index[r.field.name] if r.field else -1
        counts = ", ".join(str(len(v)) for v in r.allowed)
        vals = ", ".join("{" + ", ".join(f"0x{x:x}" for x in v) + "}" for v in r.allowed)
        o.append(f"    {{{fid}, 0x{r.td_offset:03x}, 0x{r.mask:08x}, {{{counts}}}, {{{vals}}}}},")
    o += [
        "};",
        f"inline constexpr int kNumFixedRules = {len(rules)};",
        "",
        "}  // namespace ane::regs::td",
        "",
    ]

    o += [
        "namespace ane::regs::core {",
        "",
        *comment(m.core_meaning),
        f"inline constexpr uint32_t kAddrBits = {m.core_addr_bits};  // width of cfg_addr_i",
        "",
        "// A field of a register: name (\"LAYER.CG\", \"POSTPROC.CTRL.SHIFT\"), the register's",
        "// address on the core's port (a window's register: the window's address + a), LSB, width.",
        "struct CoreField { const char* name; uint32_t addr, lsb, width; };",
        "// A window: registers addr + a, a < 2^addr_bits, of a block inside the core.",
        "struct CoreWindow { const char* name; uint32_t addr, addr_bits; };",
        "struct FieldValue { CoreField field; int64_t value; };",
        "",
    ]
    names = []

    def engine_consts(e):
        for r in e.regs:
            p = "k" + camel(r["name"])
            o.extend(comment(f"{r['name']} (0x{r['addr']:02x}): {r['meaning']}"))
            o.append(f"inline constexpr uint32_t {p}Addr = 0x{r['addr']:02x};")
            names.append(e.name + p + "Addr")
            field_consts(p, r["name"], r["addr"], r["fields"], e.name)
        for w in e.windows:
            n = "k" + camel(w["name"])
            names.append(e.name + n)
            o.extend(comment(f"{w['name']} window: {w['meaning']}"))
            o.append(f"inline constexpr CoreWindow {n} = {{{cstr(w['name'])}, 0x{w['addr']:02x}, "
                     f"{w['addr_bits']}}};")
            for r in w["regs"]:
                p = n + camel(r["name"])
                rep = f"[{r['count']}] at a = 0x{r['addr']:02x} + i" if r["count"] > 1 else f"a = 0x{r['addr']:02x}"
                o.extend(comment(f"{w['name']}.{r['name']} ({rep}): {r['meaning']}"))
                o.append(f"inline constexpr uint32_t {p}Addr = 0x{r['addr']:02x};  // a, within the window")
                names.append(e.name + p + "Addr")
                if r["count"] > 1:
                    o.append(f"inline constexpr uint32_t {p}Count = {r['count']};")
                    names.append(e.name + p + "Count")
                field_consts(p, w["name"] + "." + r["name"], w["addr"] + r["addr"], r["fields"], e.name)

    def field_consts(p, label, addr, fields, ns="core"):
        """k<p><Field> = {"<label>.<FIELD>", core address, lsb, width} for each field."""
        for (fname, lsb, width, _, _) in fields:
            names.append(ns + p + camel(fname))
            o.append(f"inline constexpr CoreField {p + camel(fname)} = {{{cstr(label + '.' + fname)}, "
                     f"0x{addr:02x}, {lsb}, {width}}};")

    engine_consts(m.engines[0])
    o += [
        "",
        "// True when value fits field f (0 <= value < 2^width).",
        "constexpr bool Fits(const CoreField& f, int64_t value) {",
        "  return value >= 0 &&",
        "         (f.width >= 32 ? value <= int64_t(0xffffffff) : value < (int64_t(1) << f.width));",
        "}",
        "",
        "// value placed in field f of its register word; throws std::out_of_range, ending with `why`,",
        "// when it does not fit.",
        "inline uint32_t Place(const CoreField& f, int64_t value,",
        "                      const char* why = \"the layer is too large for the core\") {",
        "  if (!Fits(f, value)) {",
        "    throw std::out_of_range(\"register field \" + std::string(f.name) + \" (\" +",
        "                            std::to_string(f.width) + \" bits) cannot hold \" +",
        "                            std::to_string(value) + \": \" + why);",
        "  }",
        "  return uint32_t(uint64_t(value) << f.lsb);",
        "}",
        "",
        "// The word of the register at core address addr from its fields' values (fields not",
        "// given are 0); throws std::out_of_range, ending with `why` when a value does not fit, or",
        "// when a field belongs to another register.",
        "inline uint32_t Pack(uint32_t addr, std::initializer_list<FieldValue> values,",
        "                     const char* why = \"the layer is too large for the core\") {",
        "  uint32_t word = 0;",
        "  for (const FieldValue& v : values) {",
        "    if (v.field.addr != addr) {",
        "      throw std::out_of_range(\"register field \" + std::string(v.field.name) +",
        "                              \" is not a field of the register at address \" +",
        "                              std::to_string(addr));",
        "    }",
        "    word |= Place(v.field, v.value, why);",
        "  }",
        "  return word;",
        "}",
        "",
        "// The word of register a of window w (the same for the block's own port and the core's).",
        "inline uint32_t PackWindow(const CoreWindow& w, uint32_t a,",
        "                           std::initializer_list<FieldValue> values) {",
        "  return Pack(w.addr + a, values, \"the value is outside the field's range\");",
        "}",
        "",
        "// The address of register a of window w; throws std::out_of_range when a is outside it.",
        "inline uint32_t WindowAddr(const CoreWindow& w, uint32_t a) {",
        "  if (a >= (uint32_t(1) << w.addr_bits)) {",
        "    throw std::out_of_range(\"ane_core \" + std::string(w.name) + \" window has no register \" +",
        "                            std::to_string(a));",
        "  }",
        "  return w.addr + a;",
        "}",
        "",
        "}  // namespace ane::regs::core",
        "",
    ]
    for e in m.engines[1:]:
        o += [f"namespace ane::regs::{e.name} {{", ""]
        o += comment(e.meaning)
        o += [f"inline constexpr uint32_t kAddrBits = {e.addr_bits};  // width of cfg_addr_i",
              "// The register words are packed as the core's: ane::regs::core::Pack and its fields' type.",
              "using core::CoreField;", "using core::CoreWindow;", "using core::FieldValue;", "using core::Fits;",
              "using core::Pack;", "using core::Place;", ""]
        engine_consts(e)
        o += ["", f"}}  // namespace ane::regs::{e.name}", ""]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise RegError(f"two C++ register constants would have the name {sorted(dup)[0]}")
    o += ["#endif  // TB_REGS_ANE_REGS_H_", ""]
    return "\n".join(o)


# ---------------------------------------------------------------- Markdown


def prose(text_, width=100):
    """A Markdown paragraph wrapped at width characters."""
    return textwrap.wrap(text_, width=width, break_on_hyphens=False, break_long_words=False)


def md(s):
    return s.replace("|", "\\|")


def hx(v, digits):
    return f"0x{v:0{digits}x}"


def allowed_text(r, lsb):
    """'0' or 'convolution 0, per-element pass 1, planar 0': a fixed rule's values, shifted down
    to the field (lsb) or, for reserved bits, as the masked word."""
    def one(vals):
        vs = [v >> lsb for v in vals]
        return " or ".join(f"0x{v:x}" if v > 9 else str(v) for v in vs)
    texts = [one(v) for v in r.allowed]
    if len(set(texts)) == 1:
        return texts[0]
    return ", ".join(f"{KINDS[k]} {t}" for k, t in enumerate(texts))


def status_text(f, rules_of):
    if f.status == "modelled":
        return "modelled"
    if f.status == "inert":
        return "no effect: " + f.why
    rs = rules_of(f)
    texts = sorted({allowed_text(r, f.lsb) for r in rs})
    return "not modelled: must be " + (texts[0] if len(texts) == 1 else "; ".join(
        f"[{k}] {allowed_text(r, f.lsb)}" for k, r in enumerate(rs)))


def gen_td_section(m, rules=()):
    o = [
        f"<!-- BEGIN regtool: {TD_MARK} -->",
        "<!-- Generated by scripts/regtool.py from rtl/regs/ane_regs.yaml: edit the YAML, not this. -->",
        "",
        *prose(m.td_meaning),
        "",
        "### Streams",
        "",
        "| stream | header word | TD offset | data words | data at TD | register addresses | meaning |",
        "|---|---|---|---|---|---|---|",
        f"| Header | - | 0x000 | {m.header_words} | 0x000-0x{4 * m.header_words - 1:03x} | - | "
        f"{md(m.header_meaning)} |",
    ]
    for s in m.streams:
        d0 = s["td_offset"] + 4
        o.append(f"| {s['name']} | 0x{s['header']:08x} | {hx(s['td_offset'], 3)} | {s['words']} | "
                 f"{hx(d0, 3)}-{hx(d0 + 4 * s['words'] - 1, 3)} | "
                 f"{hx(s['addr'], 5)}-{hx(s['addr'] + 4 * (s['words'] - 1), 5)} | {md(s['meaning'])} |")
    o += [
        "",
        "### Fields",
        "",
        *prose("Bits are within the little-endian 32-bit word at the TD offset; word is the header word "
               "or the data word index within the stream. A repeated register is one row with its "
               "element i at TD offset + 4 i (the names in `tb/regs/ane_regs.h` and aneregs.json carry "
               "the index). " + SEEN_NOTE + " A name marked * is the project's (not in aneregs.json). "
               "Status: modelled (the model reads it), no effect (with the reason), or not modelled: "
               "then it must hold a value that the real programs of `sim/hwx` carry in TDs of the same "
               "kind (convolution, per-element pass, planar), or the program is refused; the values are "
               "those of the programs, read by the generator. Rows named (reserved) are the bits of a "
               "word outside every named field, with the same rule; (unnamed) rows document such bits."),
        "",
        "| stream | TD offset | register address | word | bits | name | units | meaning | status |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    by_field = {}
    for r in rules:
        if r.field is not None:
            by_field.setdefault(r.field.name, []).append(r)
    fields_of = {}
    for f in m.fields:
        fields_of.setdefault((id(f.reg), f.lsb), []).append(f)

    def rules_of_group(group):
        return [r for f in group for r in by_field.get(f.name, [])]

    rows = []
    for reg in m.registers:
        sname = "Header" if reg.stream < 0 else m.streams[reg.stream]["name"]
        for spec in reg.fields:
            (fname, lsb, width, units, meaning) = spec
            star = "*" if spec.origin == "project" else ""
            if reg.stream < 0:
                off, addr, word, name = hx(reg.td_offset, 3), "-", str(reg.word), f"{reg.name}.{fname}"
            elif reg.count > 1:
                off = f"{hx(reg.td_offset, 3)} + 4i"
                addr = f"{hx(reg.addr, 5)} + 4i"
                word = f"{reg.word} + i"
                name = f"{sname}.{reg.name}[i].{fname} (i = 0..{reg.count - 1})"
            else:
                off, addr, word = hx(reg.td_offset, 3), hx(reg.addr, 5), str(reg.word)
                name = f"{sname}.{reg.name}.{fname}"
            group = fields_of[(id(reg), lsb)]
            st = status_text(group[0], lambda f, g=group: rules_of_group(g))
            if spec.values is not None:  # the codes by name (td.enums)
                codes = ", ".join(f"{v} {n}" for n, v, _ in m.enums[spec.values]["values"])
                meaning = f"{meaning}. Values ({spec.values}): {codes}"
            rows.append(((reg.td_offset, lsb), f"| {sname} | {off} | {addr} | {word} | {bits_text(lsb, width)} | "
                         f"{md(name)}{star} | {md(units)} | {md(meaning)} | {md(st)} |"))
    for u in m.unnamed:
        sname = m.streams[u["stream"]]["name"]
        if u["count"] > 1:
            last = u["td_offset"] + 4 * (u["count"] - 1)
            off = f"{hx(u['td_offset'], 3)}-{hx(last, 3)}"
            addr = f"{hx(u['addr'], 5)}-{hx(u['addr'] + 4 * (u['count'] - 1), 5)}"
            word = f"{u['word']}-{u['word'] + u['count'] - 1}"
        else:
            off, addr, word = hx(u["td_offset"], 3), hx(u["addr"], 5), str(u["word"])
        st = "no effect: " + u["why"] if u["status"] == "inert" else "see (reserved)"
        rows.append(((u["td_offset"], u["lsb"]), f"| {sname} | {off} | {addr} | {word} | "
                     f"{bits_text(u['lsb'], u['width'])} | (unnamed) | | seen: {md(u['seen'])} | {md(st)} |"))
    # reserved bits: runs of words with the same mask and the same values in one row
    res = [r for r in rules if r.field is None]
    k = 0
    while k < len(res):
        r = res[k]
        j = k
        while (j + 1 < len(res) and res[j + 1].td_offset == res[j].td_offset + 4 and res[j + 1].mask == r.mask
               and res[j + 1].allowed == r.allowed and reg_addr_of(m, res[j + 1].td_offset)[0] ==
               reg_addr_of(m, r.td_offset)[0]):
            j += 1
        hdr, a0 = reg_addr_of(m, r.td_offset)
        _, a1 = reg_addr_of(m, res[j].td_offset)
        sname = "Header"
        for s in m.streams:
            if s["td_offset"] < r.td_offset < s["td_offset"] + 4 * (1 + s["words"]):
                sname = s["name"]
        if j > k:
            off, addr = f"{hx(r.td_offset, 3)}-{hx(res[j].td_offset, 3)}", ("-" if hdr else f"{hx(a0, 5)}-{hx(a1, 5)}")
        else:
            off, addr = hx(r.td_offset, 3), ("-" if hdr else hx(a0, 5))
        bits = "31:0" if r.mask == 0xFFFFFFFF else f"mask 0x{r.mask:08x}"
        rows.append(((r.td_offset, 99), f"| {sname} | {off} | {addr} | | {bits} | (reserved) | | "
                     f"bits outside every named field | not modelled: must be {md(allowed_text(r, 0))} |"))
        k = j + 1
    rows.sort(key=lambda r: r[0])
    o += [r for _, r in rows]
    o += ["", f"<!-- END regtool: {TD_MARK} -->"]
    return "\n".join(o)


def gen_core_section(m, e=None):
    e = e or m.engines[0]
    o = [
        f"<!-- BEGIN regtool: {e.mark} -->",
        "<!-- Generated by scripts/regtool.py from rtl/regs/ane_regs.yaml: edit the YAML, not this. -->",
        "",
        *prose(e.meaning + f" `rtl/{e.module}.sv` decodes the registers with the constants of "
               "`rtl/ane_regs_pkg.sv`, the harness writes them with `tb/regs/ane_regs.h` "
               f"(`ane::regs::{e.name}`)."),
        "",
        "| address | register | bits | field | units | meaning |",
        "|---|---|---|---|---|---|",
    ]
    rows = []
    for r in e.regs:
        if not r["fields"]:
            rows.append((r["addr"], f"| 0x{r['addr']:02x} | {r['name']} | - | - | | {md(r['meaning'])} |"))
        for (fname, lsb, width, units, meaning) in r["fields"]:
            rows.append((r["addr"], f"| 0x{r['addr']:02x} | {r['name']} | {bits_text(lsb, width)} | {fname} | "
                         f"{md(units)} | {md(meaning)} |"))
    for w in e.windows:
        rows.append((w["addr"], f"| 0x{w['addr']:02x} + a (a < {1 << w['addr_bits']}) | {w['name']} | 31:0 | - | | "
                     f"{md(w['meaning'])} |"))
        for r in w["regs"]:
            a = w["addr"] + r["addr"]
            at = (f"0x{a:02x} .. 0x{a + r['count'] - 1:02x}" if r["count"] > 1 else f"0x{a:02x}")
            fields = (f"fields: `{w['doc']}`" if w["doc"] and r["fields"] else
                      ", ".join(f[0] for f in r["fields"]) or "-")
            rows.append((a, f"| {at} | {w['name']}.{r['name']} | | {md(fields)} | | {md(r['meaning'])} |"))
    rows.sort(key=lambda r: r[0])
    o += [r for _, r in rows]
    names = ", ".join(r["name"] for r in e.config_regs)
    o += [""] + prose(e.config_meaning + f" The registers {names}: `ane_regs_pkg::{e.name}_<reg>_t` "
                      f"each (its fields, the top one first), `{e.name}_cfg_t` of them all.")
    if e.notes:
        o.append("")
        for n in e.notes:
            o += textwrap.wrap(md(n), width=100, initial_indent="- ", subsequent_indent="  ",
                               break_on_hyphens=False, break_long_words=False)
    o += ["", f"<!-- END regtool: {e.mark} -->"]
    return "\n".join(o)


def window_mark(w):
    return f"{w['name'].lower()} registers"


def gen_window_section(m, w):
    """The registers of window w, for the block's own document."""
    o = [
        f"<!-- BEGIN regtool: {window_mark(w)} -->",
        "<!-- Generated by scripts/regtool.py from rtl/regs/ane_regs.yaml: edit the YAML, not this. -->",
        "",
        *prose(f"Register a of the block's own port; inside the core, register 0x{w['addr']:02x} + a "
               f"(the {w['name']} window, `docs/core.md`). The block reads a written word as "
               f"`ane_regs_pkg::{sv_name(w['name'])}_<reg>_t`; the harness packs it with "
               f"`ane::regs::core::PackWindow(k{camel(w['name'])}, ...)` (`tb/regs/ane_regs.h`)."),
        "",
        "| a | register | bits | field | units | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for r in w["regs"]:
        at = (f"0x{r['addr']:02x} + i (i < {r['count']})" if r["count"] > 1 else f"0x{r['addr']:02x}")
        o.append(f"| {at} | {r['name']} | | | | {md(r['meaning'])} |")
        for (fname, lsb, width, units, meaning) in r["fields"]:
            o.append(f"| | | {bits_text(lsb, width)} | {fname} | {md(units)} | {md(meaning)} |")
    o += ["", f"<!-- END regtool: {window_mark(w)} -->"]
    return "\n".join(o)


def splice(current, mark, section):
    """current with the text between the BEGIN/END markers of mark replaced; None without them."""
    begin, end = f"<!-- BEGIN regtool: {mark} -->", f"<!-- END regtool: {mark} -->"
    i, j = current.find(begin), current.find(end)
    if i < 0 or j < i:
        return None
    return current[:i] + section + current[j + len(end):]


# ---------------------------------------------------------------- aneregs.json


def check_aneregs(m, path):
    try:
        entries = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise RegError(f"cannot read {path}: {e}")
    ours = {}
    for f in m.fields:
        if f.origin == "project":
            continue
        abs_lsb = f.td_offset * 8 + f.lsb
        prefix = "aneTD." if f.stream < 0 else "aneRegs."
        ours[prefix + f.name] = [abs_lsb // 8, abs_lsb % 8, f.width]
    problems, seen = [], set()
    for e in entries:
        if not (isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], list)):
            problems.append(f"{path}: cannot read entry {e!r}")
            continue
        name, pos = e
        if name in seen:
            problems.append(f"{path}: {name} is listed twice")
        seen.add(name)
        if name not in ours:
            problems.append(f"{name} {pos} is not in {YAML_FILE}")
        elif ours[name] != pos:
            problems.append(f"{name}: aneregs [byte, bit, width] {pos}, {YAML_FILE} gives {ours[name]}")
    for name in ours:
        if name not in seen:
            problems.append(f"{name} (from {YAML_FILE}) is not in {path}")
    return len(entries), problems


# ---------------------------------------------------------------- main


def outputs(m, root=ROOT):
    """(path, expected content or a function of the current content) for every output."""
    rules = fixed_rules(m, read_programs(m, root))
    td_doc = gen_td_section(m, rules)
    return [
        (SV_FILE, gen_sv(m), None),
        (RULES_FILE, gen_rules_sv(m, rules), None),
        (H_FILE, gen_h(m, rules), None),
        (TD_DOC, td_doc, TD_MARK),
    ] + [(e.doc, gen_core_section(m, e), e.mark) for e in m.engines] + [
        (w["doc"], gen_window_section(m, w), window_mark(w)) for e in m.engines for w in e.windows if w["doc"]]


def selftest(doc, root=ROOT):
    """Faulty copies of the YAML must each be refused with their error; the real one's structs
    must be as wide as their registers' Bits. Returns the problems (empty: passed)."""
    import copy

    def win(d, name):
        return next(w for w in d["core"]["windows"] if w["name"] == name)

    def reg(d, window, name):
        return next(r for r in win(d, window)["registers"] if r["name"] == name)

    def core_reg(d, name):
        return next(r for r in d["core"]["registers"] if r["name"] == name)

    def set_(f):
        def apply(d):
            f(d)
        return apply

    cases = [
        ("a window register past the window", set_(lambda d: reg(d, "SHIFTER", "PREP").update(addr=4)),
         "leave the window's 4 registers"),
        ("two window registers at one address", set_(lambda d: reg(d, "SHIFTER", "STRIDE").update(addr=0)),
         "within the window is also GEOM"),
        ("a register array of 0", set_(lambda d: reg(d, "POSTPROC", "SEG").update(count=0)),
         "count must be a whole number above 0"),
        ("a register array past the window", set_(lambda d: reg(d, "POSTPROC", "SEG").update(count=33)),
         "leave the window's 64 registers"),
        ("two window registers with one name", set_(lambda d: reg(d, "POSTPROC", "TBL1").update(name="TBL0")),
         "two registers of the window have this name"),
        ("overlapping fields in a window register",
         set_(lambda d: reg(d, "POSTPROC", "CTRL")["fields"][1].update(bits="5:0")), "overlap another field"),
        ("a window field named by a keyword",
         set_(lambda d: reg(d, "POSTPROC", "CTRL")["fields"][0].update(name="WIRE")),
         "wire is a SystemVerilog keyword"),
        ("a core field named by a keyword", set_(lambda d: core_reg(d, "KEXT")["fields"][0].update(name="INPUT")),
         "input is a SystemVerilog keyword"),
        ("a window register named by a keyword", set_(lambda d: reg(d, "SHIFTER", "GEOM").update(name="REG")),
         "reg is a SystemVerilog keyword"),
        ("a window doc outside docs/", set_(lambda d: win(d, "SHIFTER").update(doc="README.md")),
         "doc must name a file docs/<name>.md"),
        ("a window doc without registers", set_(lambda d: win(d, "SHIFTER").update(registers=[])),
         "is given but the window lists no registers"),
        ("a config register listed twice",
         set_(lambda d: d["core"]["config"]["registers"].append(d["core"]["config"]["registers"][0])),
         "is listed twice"),
    ]
    problems = []
    for name, mutate, want in cases:
        d = copy.deepcopy(doc)
        mutate(d)
        try:
            outputs(Model(d), root)
            problems.append(f"{name}: accepted")
        except RegError as e:
            if want not in str(e):
                problems.append(f"{name}: refused with '{e}', not a line with '{want}'")
    # The real map: every struct is as wide as its register's <Reg>Bits.
    sv = gen_sv(Model(copy.deepcopy(doc)))
    bits = dict(re.findall(r"localparam int unsigned (\w+Bits)\s*= (\d+);", sv))
    structs = re.findall(r"typedef struct packed \{[^\n]*\n(.*?)\n  \} (\w+)_t;", sv, re.S)
    checked = 0
    for body, t in structs:
        if t in ("core_cfg", "planar_cfg"):
            continue
        width = 0
        for m_ in re.finditer(r"logic(?: \[(\d+):(\d+)\])?\s+(\w+);", body):
            width += int(m_.group(1)) - int(m_.group(2)) + 1 if m_.group(1) else 1
            if m_.group(2) not in (None, "0"):
                problems.append(f"struct {t}_t: member {m_.group(3)} is not declared [N-1:0]")
        parts = t.split("_", 1)
        key = ("Core" if parts[0] == "core" else camel(parts[0].upper())) + camel(parts[1].upper()) + "Bits"
        if key not in bits:
            problems.append(f"struct {t}_t: no constant {key}")
        elif int(bits[key]) != width:
            problems.append(f"struct {t}_t: {width} bits, {key} = {bits[key]}")
        checked += 1
    if checked < 20:
        problems.append(f"only {checked} register structs found in the generated package")
    return len(cases), checked, problems


def main(argv):
    ap = argparse.ArgumentParser(description="Generate the register map outputs from " + YAML_FILE)
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 when an output is stale")
    ap.add_argument("--aneregs", metavar="JSON", help="also check the TD fields against this aneregs.json")
    ap.add_argument("--root", default=str(ROOT), help="repository root (default: this script's)")
    ap.add_argument("--selftest", action="store_true",
                    help="also check that faulty copies of the YAML are refused")
    args = ap.parse_args(argv)
    root = Path(args.root)
    try:
        doc = yaml.safe_load((root / YAML_FILE).read_text())
        m = Model(doc)
        outs = outputs(m, root)
    except yaml.YAMLError as e:
        print(f"regtool: {YAML_FILE}: {e}", file=sys.stderr)
        return 2
    except (RegError, OSError) as e:
        print(f"regtool: {YAML_FILE}: {e}", file=sys.stderr)
        return 2
    failed = False
    for rel, content, mark in outs:
        path = root / rel
        current = path.read_text() if path.exists() else None
        if mark is None:
            want = content + ("" if content.endswith("\n") else "\n")
        else:
            want = splice(current, mark, content) if current is not None else None
            if want is None:
                print(f"regtool: {rel} has no '<!-- BEGIN regtool: {mark} -->' ... "
                      f"'<!-- END regtool: {mark} -->' markers; add them where the table goes",
                      file=sys.stderr)
                failed = True
                continue
        if current == want:
            continue
        if args.check:
            print(f"regtool: {rel} is stale: run `python3 scripts/regtool.py` and commit it",
                  file=sys.stderr)
            failed = True
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(want)
            print(f"regtool: wrote {rel}")
    if not failed:
        print(f"regtool: {len(outs)} outputs {'up to date' if args.check else 'written or unchanged'} "
              f"({len(m.fields)} TD fields, {len(m.core_regs)} core registers, "
              f"{len(m.core_windows)} windows)")
    if args.selftest:
        n, checked, problems = selftest(doc, root)
        for p in problems:
            print(f"regtool: selftest: {p}", file=sys.stderr)
        if problems:
            failed = True
        else:
            print(f"regtool: selftest: {n} faulty copies refused, each with its error; "
                  f"{checked} register structs as wide as their registers")
    if args.aneregs:
        try:
            n, problems = check_aneregs(m, args.aneregs if Path(args.aneregs).is_absolute()
                                        else Path.cwd() / args.aneregs)
        except RegError as e:
            print(f"regtool: {e}", file=sys.stderr)
            return 2
        for p in problems:
            print(f"regtool: aneregs: {p}", file=sys.stderr)
        if problems:
            failed = True
        else:
            print(f"regtool: aneregs: all {n} fields of {args.aneregs} match {YAML_FILE}, and no other")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
