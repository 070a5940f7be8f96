#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpus of the fuzz targets (tb/fuzz/corpus/TARGET/) from sim/examples and
sim/regress, plus a few hand-made inputs: one generated tensor of every distribution, NumPy
header variants, every form of a value, YAML anchors. Run it again when the op file or suite
schema changes (needs python3-yaml; not part of the build):  python3 tb/fuzz/make_seeds.py
The suites' scalars are kept as written (0x3c00 stays 0x3c00): they are loaded as plain text.
"""
import glob
import os
import shutil
import struct

import yaml

root = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
fz = root + '/tb/fuzz/corpus'
for t in ['npy', 'value', 'operation', 'suite']:
    os.makedirs(f'{fz}/{t}', exist_ok=True)

class PlainDumper(yaml.emitter.Emitter, yaml.serializer.Serializer, yaml.representer.SafeRepresenter,
                  yaml.resolver.BaseResolver):
    """Dumps every scalar as it was written (the suites are loaded with BaseLoader: all text)."""
    def __init__(self, stream, **kw):
        yaml.emitter.Emitter.__init__(self, stream, width=kw.get('width'))
        yaml.serializer.Serializer.__init__(self)
        yaml.representer.SafeRepresenter.__init__(self, default_flow_style=True, sort_keys=False)
        yaml.resolver.BaseResolver.__init__(self)

def flow(obj):
    obj = yaml.load(yaml.safe_dump(obj, sort_keys=False), Loader=yaml.BaseLoader) if not isinstance(obj, str) else obj
    return yaml.dump(obj, Dumper=PlainDumper, width=100)

# ---- npy: the example files, plus a 2.0 header, a 0-d array and an old-style header ----
for f in sorted(glob.glob(root + '/sim/examples/*.npy')):
    shutil.copy(f, f'{fz}/npy/' + os.path.basename(f))
def npy(dictstr, data, major=1):
    h = dictstr
    pre = 6 + 2 + (2 if major == 1 else 4)
    h += ' ' * ((64 - (pre + len(h) + 1) % 64) % 64) + '\n'
    ln = struct.pack('<H', len(h)) if major == 1 else struct.pack('<I', len(h))
    return b'\x93NUMPY' + bytes([major, 0]) + ln + h.encode() + data
open(f'{fz}/npy/v2_fp16_2x2.npy', 'wb').write(npy("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", struct.pack('<4H', 0x3c00, 0x7c00, 0x8000, 0x7e00), 2))
open(f'{fz}/npy/scalar_int32.npy', 'wb').write(npy("{'descr': '<i4', 'fortran_order': False, 'shape': (), }", struct.pack('<i', -7)))
open(f'{fz}/npy/old_style_int8.npy', 'wb').write(npy('{"descr": "<i1", "fortran_order": False, "shape": (3L,)}', bytes([1, 0x80, 0x7f])))
open(f'{fz}/npy/fortran_order.npy', 'wb').write(npy("{'descr': '<f2', 'fortran_order': True, 'shape': (1, 2), }", struct.pack('<2H', 0x3c00, 0)))
open(f'{fz}/npy/empty_fp16.npy', 'wb').write(npy("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 0), }", b''))
open(f'{fz}/npy/fp16_2x2x3.npy', 'wb').write(npy("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2, 3), }", struct.pack('<12H', *range(0x3c00, 0x3c0c))))

# ---- value: first byte = mode ('0' fp16, '1' int8, '2' int32; '3'..'5' the same as YAML lists) ----
values = {
  'fp16_decimal': '01.5', 'fp16_denormal': '00.000000059604644775390625', 'fp16_exp': '06.103515625e-05',
  'fp16_max': '0-65504', 'fp16_inf': '0-.inf', 'fp16_nan': '0nan', 'fp16_hex': '00x7c00',
  'fp16_inexact': '00.1', 'fp16_neg_zero': '0-0', 'int8_min': '1-128', 'int8_hex': '10xff',
  'int32_min': '2-2147483648', 'int32_hex': '20xFFFFFFFF', 'int_exp': '21e3',
  'fp16_list': '3[4096, {repeat: 1, times: 16}, -inf, 0x3c00]',
  'fp16_nested_repeat': '3[{repeat: [3000, -3000, {repeat: [1, 0.5], times: 2}], times: 4}]',
  'int8_list': '4[1, -2, 3, 127, -128, 0, 0x80]', 'int32_list': '5[{repeat: [-2147483648, 2147483647], times: 3}]',
  'fp16_anchor': '3[&v 2.5, *v, {repeat: *v, times: 2}]',
}
for k, v in values.items():
    open(f'{fz}/value/{k}', 'w').write(v)

# ---- operation: the example op files, each inline op case of the suites as an op file, and
# one generated tensor of every distribution ----
for f in sorted(glob.glob(root + '/sim/examples/*.yaml')):
    shutil.copy(f, f'{fz}/operation/' + os.path.basename(f))
for suite in ['default', 'nightly']:
    doc = yaml.load(open(f'{root}/sim/regress/{suite}.yaml'), Loader=yaml.BaseLoader)
    for c in doc['cases']:
        if 'op' not in c:
            continue
        op = {k: v for k, v in c.items() if k not in ('name', 'expect', 'runs')}
        open(f"{fz}/operation/{suite}_{c['name']}.yaml", 'w').write(flow(op))
gens = {
  'zeros': {'distribution': 'zeros', 'shape': [2, 3]},
  'ones_int8': {'distribution': 'ones', 'shape': [4], 'dtype': 'int8'},
  'constant': {'distribution': 'constant', 'value': '-inf', 'shape': [3, 1]},
  'identity': {'distribution': 'identity', 'shape': [3, 4]},
  'range': {'distribution': 'range', 'start': -2.5, 'step': 0.1, 'shape': [64]},
  'range_int8': {'distribution': 'range', 'start': -128, 'step': 5, 'shape': [52], 'dtype': 'int8'},
  'uniform': {'distribution': 'uniform', 'seed': 18446744073709551615, 'low': -1e-3, 'high': 65504, 'shape': [8, 8]},
  'uniform_int8': {'distribution': 'uniform', 'seed': 3, 'low': -5, 'high': 5, 'shape': [16], 'dtype': 'int8'},
  'normal': {'distribution': 'normal', 'seed': 0, 'mean': 1099511627776, 'std': 0.000000000001, 'shape': [32]},
  'normal_int8': {'distribution': 'normal', 'seed': 9, 'mean': -100, 'std': 50, 'shape': [2, 2, 2], 'dtype': 'int8'},
}
for k, g in gens.items():
    op = {'op': 'elementwise', 'function': 'abs', 'inputs': {'x': {'generate': g}}}
    if g.get('dtype') == 'int8':
        n = 1
        for d in g['shape']: n *= d
        op = {'op': 'matmul', 'inputs': {'a': {'generate': g}, 'b': {'values': [1] * (g['shape'][-1] if len(g['shape']) else 1), 'dtype': 'int8'}}}
    open(f'{fz}/operation/generate_{k}.yaml', 'w').write(flow(op))
# Inputs only an .npy file can give (int32, empty, other ranks) for every op: the fuzz targets
# copy corpus/npy/ next to the op file's folder (WORK/npy/, fuzz_util.cc).
npy_ops = {
  'npy_matmul_int32': '{op: matmul, inputs: {a: ../npy/scalar_int32.npy, b: matmul_min_b.npy}}',
  'npy_matmul_empty': '{op: matmul, inputs: {a: ../npy/empty_fp16.npy, b: matmul_min_b.npy}}',
  'npy_conv2d_mixed': '{op: conv2d, inputs: {x: ../npy/fp16_2x2x3.npy, w: matmul_int8_a.npy}}',
  'npy_conv2d_int32': '{op: conv2d, inputs: {x: matmul_int8_y.npy, w: ../npy/empty_fp16.npy}}',
  'npy_reduce_int8': '{op: reduce, function: sum, axis: columns, inputs: {x: ../npy/old_style_int8.npy}}',
  'npy_softmax_empty': '{op: softmax, axis: planes, inputs: {x: ../npy/empty_fp16.npy}}',
  'npy_elementwise_empty': '{op: elementwise, function: add, inputs: {a: ../npy/empty_fp16.npy, b: ../npy/empty_fp16.npy}}',
  'npy_activation_int32': '{op: activation, function: gelu, inputs: {x: ../npy/scalar_int32.npy}}',
  'npy_pool_int8': '{op: pool, function: min, kernel: [2, 2], padding: [0, 1, 1, 0], inputs: {x: matmul_int8_a.npy}}',
  'conv2d_options': '{op: conv2d, mapping: broadcast, sparse: true, groups: 2, dilation: 2, stride: [2, 1], padding: [1, 0, 1, 0], inputs: {x: ../npy/fp16_2x2x3.npy, w: {values: [1, 2], shape: [2, 1, 1, 1]}}}',
  'conv2d_int8_store': '{op: conv2d, shift: 3, store: fp16, activation: relu, inputs: {x: {values: [1, 2, 3, 4], shape: [1, 2, 2], dtype: int8}, w: {values: [5], shape: [1, 1, 1, 1], dtype: int8}}}',
  'matmul_int8_post': '{op: matmul, shift: 2, activation: relu, inputs: {a: matmul_int8_a.npy, b: matmul_int8_b.npy, scale: {values: [1, 1]}}}',
}
for k, v in npy_ops.items():
    open(f'{fz}/operation/{k}.yaml', 'w').write(v + '\n')
open(f'{fz}/operation/anchors.yaml', 'w').write(
  'op: elementwise\nfunction: multiply_add\ninputs:\n  a: &t {generate: {distribution: uniform, seed: 5, shape: [4, 4]}}\n  b: *t\n  c: {values: [{repeat: 0.5, times: 16}], shape: [4, 4]}\noutputs: {y: out.npy}\n')

# ---- suite: the two suites, and the default suite in small pieces ----
for suite in ['default', 'nightly']:
    doc = yaml.load(open(f'{root}/sim/regress/{suite}.yaml'), Loader=yaml.BaseLoader)
    cases = doc['cases']
    for i in range(0, len(cases), 4):
        open(f'{fz}/suite/{suite}_part{i // 4:02d}.yaml', 'w').write(flow({'cases': cases[i:i + 4]}))
open(f'{fz}/suite/anchors.yaml', 'w').write(
  'description: anchors\ncases:\n  - &c {name: a, dot: {data: [1, 2], kernel: [0.5, 0.5]}, expect: 1.5}\n'
  '  - {name: b, file: ../examples/matmul_min.yaml, generation: m5, runs: 2, expect: {y: {reference: fp64, max_ulp: 0}}}\n')
