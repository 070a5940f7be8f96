#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whole networks at 224 x 224 (docs/onnx.md "Whole networks"; `make nightly-onnx`): the
ResNet-18- and MobileNet-v2-shaped models of build/ane_networks (fixed seeds, the papers' widths)
run with `ane run MODEL.onnx` on the oracle and on the RTL, and the pool-free ResNet-18 compiled
with `ane compile` and run as a program (`ane run MODEL.hwx`) on both engines. Every output must
be bit-identical to the model's oracle run; the wall time of each run goes into docs/results.md
between <!-- networks:begin --> and <!-- networks:end -->.

    python3 scripts/onnx_networks.py [--build build] [--resolution 224] [--out out/networks]
                                     [--update docs/results.md] [--only oracle]
                                     [--nets resnet18,mobilenetv2,resnet18_pool_free]

--only oracle skips the RTL runs (a quick check of the script); --nets runs the networks named
(default all three; the table then has only theirs). Exit 1 when an output differs or a run fails.
"""
import argparse
import os
import random
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- networks:begin -->", "<!-- networks:end -->"
NETS = "resnet18,mobilenetv2,resnet18_pool_free"


def write_npy(path, shape, codes):
    header = "{'descr': '<f2', 'fortran_order': False, 'shape': (%s), }" % "".join(f"{d}, " for d in shape)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(codes)}H", *codes))


def npy_codes(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<H", data[8:10])[0]
    body = data[10 + n:]
    return struct.unpack(f"<{len(body) // 2}H", body)


def run(argv, log):
    t0 = time.time()
    r = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.time() - t0
    with open(log, "w") as f:
        f.write(" ".join(argv) + "\n" + r.stdout + r.stderr)
    if r.returncode != 0:
        print(f"onnx_networks: {' '.join(argv)} failed ({r.returncode}): {r.stderr.strip()[:400]}", file=sys.stderr)
    return r.returncode == 0, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--resolution", type=int, default=224)
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "networks"))
    ap.add_argument("--update")
    ap.add_argument("--only", choices=["oracle"])
    ap.add_argument("--nets", default=NETS)
    a = ap.parse_args()
    nets_run = a.nets.split(",")
    for net in nets_run:
        if net not in ("resnet18", "mobilenetv2", "resnet18_pool_free"):
            ap.error(f"--nets: unknown network '{net}' (resnet18, mobilenetv2, resnet18_pool_free)")
    ane = os.path.join(a.build, "ane")
    nets = os.path.join(a.build, "ane_networks")
    os.makedirs(a.out, exist_ok=True)
    res = a.resolution
    # the models: ResNet-18 at width 64, MobileNet-v2 at width 32 (the papers'), the pool-free ResNet-18
    for width, extra, keep in [(64, [], "resnet18"), (32, [], "mobilenetv2"), (64, ["--pool-free"], "resnet18_pool_free")]:
        tmp = os.path.join(a.out, f"w{width}{''.join(extra)}")
        os.makedirs(tmp, exist_ok=True)
        subprocess.run([nets, tmp, "--resolution", str(res), "--width", str(width)] + extra, check=True,
                       capture_output=True)
        os.replace(os.path.join(tmp, keep + ".onnx"), os.path.join(a.out, keep + ".onnx"))
    rng = random.Random(224)
    x = os.path.join(a.out, "x.npy")
    # an image of values in [-2, 2) at steps of 1/64 (fp16 codes, exact)
    write_npy(x, [1, 3, res, res], [struct.unpack("<H", struct.pack("<e", rng.randrange(-128, 128) / 64))[0]
                                     for _ in range(3 * res * res)])
    engines = ["oracle"] if a.only else ["oracle", "rtl"]
    rows, ok_all = [], True
    for net in nets_run:
        model = os.path.join(a.out, net + ".onnx")
        ref = None
        for engine in engines:
            d = os.path.join(a.out, f"{net}.onnx.{engine}")
            ok, s = run([ane, "run", model, "--input", f"x={x}", "--engine", engine, "--out-dir", d],
                        os.path.join(a.out, f"{net}.onnx.{engine}.log"))
            y = npy_codes(os.path.join(d, "y.npy")) if ok else None
            if ref is None:
                ref = y
            same = ok and y == ref
            ok_all &= same
            rows.append((net, f"`ane run {net}.onnx --engine {engine}`", s,
                         "the reference" if engine == "oracle" else ("bit-identical" if same else "DIFFERS")))
        if net != "resnet18_pool_free":
            continue
        hwx = os.path.join(a.out, net + ".hwx")
        ok, s = run([ane, "compile", model, "-o", hwx], os.path.join(a.out, f"{net}.compile.log"))
        ok_all &= ok
        rows.append((net, f"`ane compile {net}.onnx -o {net}.hwx`", s,
                     f"{os.path.getsize(hwx) / 1e6:.1f} MB" if ok else "FAILED"))
        for engine in engines:
            d = os.path.join(a.out, f"{net}.hwx.{engine}")
            ok, s = run([ane, "run", hwx, "--input", f"x={x}", "--engine", engine, "--out-dir", d],
                        os.path.join(a.out, f"{net}.hwx.{engine}.log"))
            same = ok and ref is not None and npy_codes(os.path.join(d, "y.npy")) == ref
            ok_all &= same
            rows.append((net, f"`ane run {net}.hwx --engine {engine}`", s,
                         "bit-identical to the model's oracle run" if same else "DIFFERS"))
    nets_arg = "" if a.nets == NETS else f" --nets {a.nets}"
    lines = [BEGIN, f"### Whole networks at {res} x {res}", "",
             f"Written by `python3 scripts/onnx_networks.py{nets_arg} --update docs/results.md` (`make nightly-onnx` "
             "runs all three; "
             "CI does not run it): the networks of `build/ane_networks` (ResNet-18 at width 64, MobileNet-v2 at "
             "width 32, 1000 classes, fixed seeds; the pool-free ResNet-18 that `ane compile` compiles whole, "
             "docs/onnx.md), one fixed input image, every output compared bit for bit with the model's oracle "
             "run. Wall time on this machine, one core each run.", "",
             "| Network | Run | Wall time | Result |", "|---|---|---:|---|"]
    for net, what, s, result in rows:
        lines.append(f"| {net} | {what} | {s:.1f} s | {result} |")
    lines.append(END)
    text = "\n".join(lines) + "\n"
    if a.update:
        doc = open(a.update).read()
        if BEGIN in doc:
            doc = doc[:doc.index(BEGIN)] + text + doc[doc.index(END) + len(END) + 1:]
        else:
            doc = doc.rstrip("\n") + "\n\n" + text
        open(a.update, "w").write(doc)
    else:
        print(text, end="")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
