// SPDX-License-Identifier: Apache-2.0
// ane_pkg: the format facts every ANE block shares (NUMERICS N-0, N-1), and the codes and
// bundles that cross between blocks. The fp16 field layout and classes, the generation switch,
// the MAC operand modes and commands, the planar and post-processor operation codes, and the
// core's operation tag and work-unit descriptor live here and nowhere else in the RTL; the
// testbench's copies of the codes are checked against this file (tb/harness/rtl_codes.cc).
`default_nettype none

package ane_pkg;

  // ---- N-0.1 fp16 (IEEE binary16) ----
  // Every block reads the fields and classes of an fp16 code through the functions below, but
  // the lanes' code, which calls no functions and slices with the field bounds.
  localparam int unsigned Fp16Width    = 16;
  localparam int unsigned Fp16ExpBits  = 5;
  localparam int unsigned Fp16ManBits  = 10;
  localparam int unsigned Fp16SigBits  = Fp16ManBits + 1;  // with the hidden bit
  localparam int unsigned Fp16Bias     = 15;
  localparam int unsigned Fp32Bias     = 127;
  localparam logic [Fp16ExpBits-1:0] Fp16ExpMax = 5'h1F;  // infinity and NaN
  // Field bounds, for the lanes' RTL, which calls no functions (docs/mac_lane.md, "Simulation
  // model"): code[Fp16ExpMsb:Fp16ExpLsb] is the biased exponent, code[Fp16ManMsb:0] the fraction.
  localparam int unsigned Fp16ExpMsb   = Fp16Width - 2;
  localparam int unsigned Fp16ExpLsb   = Fp16ManBits;
  localparam int unsigned Fp16ManMsb   = Fp16ManBits - 1;
  localparam logic [15:0] Fp16PosInf   = 16'h7C00;
  localparam logic [15:0] Fp16PosZero  = 16'h0000;
  localparam logic [15:0] Fp16NegZero  = 16'h8000;
  localparam logic [15:0] Fp16One      = 16'h3C00;  // 1.0
  localparam logic [15:0] Fp16NegOne   = 16'hBC00;  // -1.0

  // The biased exponent field and the fraction field.
  function automatic logic [Fp16ExpBits-1:0] fp16_exp(logic [Fp16Width-1:0] h);
    fp16_exp = h[Fp16ExpMsb:Fp16ExpLsb];
  endfunction
  function automatic logic [Fp16ManBits-1:0] fp16_frac(logic [Fp16Width-1:0] h);
    fp16_frac = h[Fp16ManMsb:0];
  endfunction
  // Classes: exponent all ones (infinity or NaN), NaN, exponent zero (a zero or a subnormal: no
  // hidden bit).
  function automatic logic fp16_is_infnan(logic [Fp16Width-1:0] h);
    fp16_is_infnan = fp16_exp(h) == Fp16ExpMax;
  endfunction
  function automatic logic fp16_is_nan(logic [Fp16Width-1:0] h);
    fp16_is_nan = fp16_is_infnan(h) && (fp16_frac(h) != 10'd0);
  endfunction
  function automatic logic fp16_exp_zero(logic [Fp16Width-1:0] h);
    fp16_exp_zero = fp16_exp(h) == 5'd0;
  endfunction

  // The significand with its hidden bit, and max(biased exponent, 1):
  // |value| = fp16_sig * 2^(fp16_scale - 25) for every finite code.
  function automatic logic [Fp16SigBits-1:0] fp16_sig(logic [Fp16Width-1:0] h);
    fp16_sig = {!fp16_exp_zero(h), fp16_frac(h)};
  endfunction
  function automatic logic [Fp16ExpBits-1:0] fp16_scale(logic [Fp16Width-1:0] h);
    fp16_scale = fp16_exp_zero(h) ? 5'd1 : fp16_exp(h);
  endfunction

  // fp16 -> fp32, exact (a NaN stays a NaN with its fraction; -0 stays -0). (Not through
  // fp16_normalize: that form made ane_pe_widen 193 cells instead of 166.)
  function automatic logic [31:0] fp16_to_fp32(logic [Fp16Width-1:0] h);
    logic [3:0] msb;
    logic [Fp16ManBits-1:0] f;
    msb = 4'd0;
    for (int i = 0; i < 10; i++) if (h[i]) msb = 4'(i);
    f = 10'(fp16_frac(h) << (4'd10 - msb));  // a subnormal's fraction, normalized
    if (fp16_is_infnan(h))
      fp16_to_fp32 = {h[15], 8'hFF, fp16_frac(h), 13'd0};
    else if (!fp16_exp_zero(h))
      fp16_to_fp32 = {h[15], 8'(fp16_exp(h)) + 8'(Fp32Bias - Fp16Bias), fp16_frac(h), 13'd0};
    else if (fp16_frac(h) != 10'd0)
      fp16_to_fp32 = {h[15], 8'(Fp32Bias - Fp16Bias + 1 - Fp16ManBits) + {4'd0, msb}, f, 13'd0};
    else
      fp16_to_fp32 = {h[15], 31'd0};
  endfunction

  // An fp16 value decoded for arithmetic: value = (-1)^sign * sig * 2^(exp - 25),
  // exp = max(biased exponent, 1) so normals and denormals share one scale.
  typedef struct packed {
    logic        sign;
    logic [4:0]  exp;
    logic [10:0] sig;
    logic        is_zero;
    logic        is_inf;
  } fp16_unpacked_t;

  // ---- N-0.2 generation switch ----
  typedef enum logic {
    GenM1 = 1'b0,  // H13 / A14 class: MAC flushes denormals (N-2.3), add12 quads (N-2.4)
    GenM5 = 1'b1   // keeps denormals in the MAC, exact quads
  } gen_e /*verilator public*/;

  // ---- N-2.1 MAC operand modes ----
  typedef enum logic [2:0] {
    ModeFp16    = 3'd0,  // fp16 data x fp16 kernel
    ModeInt8    = 3'd1,  // int8 data x int8 kernel, int32 accumulate
    ModeI8xF16  = 3'd2,  // int8 data x fp16 kernel (data converted exactly to fp16)
    ModeF16xI8  = 3'd3,  // fp16 data x int8 kernel (kernel converted exactly to fp16)
    ModeInt4    = 3'd4,  // four packed int4 data values x one int4 kernel value
    ModeCmpMax  = 3'd5,  // acc = max(acc, data), N-2.9
    ModeCmpMin  = 3'd6   // acc = min(acc, data), N-2.9
  } mac_mode_e /*verilator public*/;

  // MAC lane commands.
  typedef enum logic [1:0] {
    CmdMac   = 2'd0,  // multiply-accumulate (or compare) one product into a slot
    CmdLoad  = 2'd1,  // load a 32-bit partial result {kernel, data} into a slot (N-2.5)
    CmdClear = 2'd2   // clear a slot: acc = +0, no products seen, saturation flag cleared
  } mac_cmd_e /*verilator public*/;

  // ---- N-2.2 / N-2.4 exact values on the MAC path ----
  // An exact product or quad sum: (-1)^sign * mag * 2^-48, or +-inf. Every fp16 x fp16 product
  // (2^-48 .. < 2^32) and every sum of four of them (< 2^35) fits: 83 magnitude bits.
  // A zero has mag == 0, sign == 0 and inf == 0.
  localparam int unsigned MacExactBits = 85;  // $bits(mac_exact_t), which Yosys cannot take
  localparam int unsigned ExactMagBits = MacExactBits - 2;
  typedef struct packed {
    logic                    inf;
    logic                    sign;
    logic [ExactMagBits-1:0] mag;
  } mac_exact_t;

  // ---- N-2 narrow MAC datapath (m1; docs/mac_lane.md) ----
  // A value on the MAC path in floating-point form: (-1)^sign * sig * 2^(e - 64 - 21).
  // A finite nonzero value is normalized (sig[21] = 1), so e - 64 is its exponent
  // floor(log2 |v|). Zero: zero = 1 and every other field 0. Infinity: inf = 1, sign, e = 0,
  // sig = 0. Products (22-bit significand products), add12 results (14 significant bits) and
  // compare-mode data all fit: m1 exponents lie in [-28, 34], m5 products in [-48, 31].
  typedef struct packed {
    logic        inf;
    logic        zero;
    logic        sign;
    logic [6:0]  e;
    logic [21:0] sig;
  } mac_fv_t;

  // ane_mac_mul's registers. mac_dec_t: the decoded operands (register 0 of the lane, or, for a
  // CmdLoad, its raw {kernel, data} in bits 46..15); mac_pp_t: the partial products of the split
  // significand multiplier, with the exponent sum, the product's flags and the int4 signs.
  typedef struct packed {
    logic [10:0] a_sig;   // data significand / int8 magnitude / two packed int4 magnitudes
    logic [10:0] a_hi;    // the same for the high half (int4: the other two magnitudes)
    logic [10:0] b_sig;   // kernel significand / int8 magnitude / int4 magnitude
    logic [5:0]  esum;
    logic        zero;
    logic        inf;
    logic        sign;
    logic [3:0]  s4;
    logic        int4;
  } mac_dec_t;

  typedef struct packed {
    logic [16:0] lo;
    logic [15:0] hi;
    logic [5:0]  esum;
    logic        zero;
    logic        inf;
    logic        sign;
    logic [3:0]  s4;
    logic        int4;
  } mac_pp_t;

  // The MAC control unit's per-stage commands to the lane datapaths (ane_mac_ctrl -> ane_mac_dp).
  // Stage Lk is the logic fed by pipeline register k (docs/mac_lane.md, "Pipeline"). Every field
  // is a function of registers only (no input port reaches it combinationally), so a simulator
  // evaluates the lanes' logic once per clock; the output queue's commands, which follow the
  // result port's ready, travel apart (mac_oq_t).
  // A pipeline position has a front (the product and its quad: L1..L5) and a back (the
  // accumulator: read in L5, m1, or L9, m5; written in L9). Every accumulator write of a MAC,
  // compare or integer operation happens in L9; an int4 operation that completes quads on its
  // other three slots uses the backs of the three positions after it (docs/mac_lane.md).
  typedef struct packed {
    logic        s0_load;     // capture in_data_i / in_kernel_i into register 0 (register 0 is
                              // free: what it captures matters only with in_valid_i)
    logic [7:0]  l0_ld_we;    // CmdLoad / CmdClear executes now: write acc and sat of this slot
    logic        l0_ld_zero;  // ... with +0 (CmdClear) instead of {kernel, data} (CmdLoad)
    logic [2:0]  l1_slot;     // fp quad (m1): slot whose pending quad is read (for L2) ...
    logic        l1_fwd;      // ... and L5 writes it now: take that value
    logic        l1_int4;     // int4: the four products are rotated by the base slot onto the
                              // integer lanes (lane l gets the product for slot l or l + 4)
    logic        l2_pass;     // fp quad (m1): the product starts a quad (t' = p, nothing read)
    logic        l2_pad;      // ... the incomplete final quad is padded (add12(t, +0))
    logic        l2_int4;     // integer operation: int4 packed (else int8)
    logic [7:0]  l2_iwe;      // ... its slots: pending quads read and written in L2
    logic [7:0]  l2_ib0;      // ... whose product starts a quad (t' = p)
    logic        l2_inj;      // back: an integer quad completes: it enters the accumulator path
    logic [3:0]  l2_inj_lsel; // ... from integer lane l just computed (one-hot; slot mod 4), or
    logic [3:0]  l2_inj_hsel; // ... from the hold register's lane l (int4, slots base + 1..3)
    logic        l2_hold_ld;  // an int4 operation completes quads on slots base + 1..3: hold them
    logic [2:0]  l5_slot;     // back: the slot whose accumulator is read (m1) for L6; m5: the
                              // slot whose exact pending quad is read and written
    logic        l5_fwd;      // m1: L9 writes that slot's result now: take it (a +0 that L9
                              // writes needs no forward: the next read of the slot starts its
                              // reduction and reads +0)
    logic [7:0]  l5_twe;      // fp quad: write the slot's pending quad
    logic        l5_pass;     // fp quad (m5): as l2_pass
    logic        l5_cmp;      // compare mode (m5: the data value travels as fp32 bits)
    logic        l5_iacc;     // m5: an integer quad enters the accumulator path
    logic        l6_qclr;     // accumulate (m1): the quad starts a reduction, acc reads +0
    logic        l6_cmp;      // ... compare mode (N-2.9)
    logic        l6_max;      // ... max (else min)
    logic        l6_hv;       // ... the slot holds a value
    logic        l6_ceiling;  // ... the port ceiling applies (N-2.6)
    logic        l6_int;      // ... integer: acc = sat32(acc + quad) (N-2.8)
    logic [2:0]  l9_slot;     // write-back: slot
    logic        l9_qclr;     // as l6_* for m5, which reads the accumulator in L9
    logic        l9_cmp;
    logic        l9_max;
    logic        l9_hv;
    logic        l9_ceiling;
    logic        l9_int;      // ... and (both generations) an integer saturation sets the flag
    logic [7:0]  l9_fwe;      // write-back: write the result into this slot
    logic        l9_satclr;   // ... and clear its saturation flag first (a reduction starts)
    logic [7:0]  l9_fh;       // write-back: these slots start a reduction with their quads
                              // pending: acc = +0, flag cleared
  } mac_ctl_t;

  // The output queue's commands (they follow out_ready_i).
  typedef struct packed {
    logic        head_new;    // the result leaving L9 goes to the head (the output ports)
    logic        head_skid;   // the head takes the skid entry
    logic        skid_new;    // the result leaving L9 goes to the skid entry
  } mac_oq_t;

  // N-1 on an fp16 code: a NaN becomes +inf, -0 becomes +0, anything else passes.
  function automatic logic [15:0] fp16_boundary(logic [15:0] h);
    fp16_boundary = fp16_is_nan(h) ? Fp16PosInf : (h == Fp16NegZero) ? Fp16PosZero : h;
  endfunction

  // +1.0 or -1.0.
  function automatic logic [15:0] fp16_unit(logic negative);
    fp16_unit = negative ? Fp16NegOne : Fp16One;
  endfunction

  // ---- the digit steps of the exact units (ane_fp16_sqrt, ane_fp16_rsqrt, ane_fp16_recip) ----
  // One square-root digit step: {next root, next remainder}. The remainder never exceeds twice
  // the root, so n (the root's width after the step) bounds it to n + 1 bits.
  function automatic logic [24:0] isqrt_step(logic [12:0] rem, logic [11:0] root, logic [1:0] pair, int n);
    logic [14:0] r, tr;
    logic        ge;
    r  = {rem, pair};
    tr = {1'b0, root, 2'b01};
    ge = r >= tr;
    isqrt_step = {root[10:0], ge, 13'((ge ? r - tr : r) & ((15'd1 << (n + 1)) - 15'd1))};
  endfunction

  // One restoring division step with r <= d: {quotient bit, next remainder}.
  function automatic logic [12:0] div_step(logic [11:0] r, logic [11:0] d);
    logic [12:0] t;
    t = {r, 1'b0};
    div_step = (t >= {1'b0, d}) ? {1'b1, 12'(t - {1'b0, d})} : {1'b0, t[11:0]};
  endfunction

  // A finite nonzero fp16 value as m * 2^e with m an 11-bit integer whose bit 10 is set
  // (denormals normalized): {e[9:0] (two's complement), m[10:0]}.
  function automatic logic [20:0] fp16_normalize(logic [15:0] h);
    logic [3:0] msb;
    logic [10:0] m;
    msb = 4'd0;
    for (int i = 0; i < 10; i++) if (h[i]) msb = 4'(i);
    m = {1'b0, fp16_frac(h)} << (4'd10 - msb);
    fp16_normalize = !fp16_exp_zero(h)
        ? {10'({5'd0, fp16_exp(h)} - 10'(Fp16Bias + Fp16ManBits)), 1'b1, fp16_frac(h)}
        : {10'(10'd0 - 10'd34 + {6'd0, msb}), m};
  endfunction


  // An int8 value as fp16 (exact: |q| <= 128 needs at most 8 significant bits).
  function automatic logic [15:0] int8_to_fp16(logic [7:0] q);
    logic [7:0] mag;
    logic [2:0] msb;
    logic [9:0] mant;
    mag = q[7] ? 8'(-q) : q;
    msb = 3'd0;
    for (int b = 0; b < 8; b++) if (mag[b]) msb = 3'(b);
    mant = 10'({3'd0, mag} << (4'd10 - {1'b0, msb}));
    int8_to_fp16 = (mag == 8'd0) ? 16'h0000 : {q[7], 5'(5'd15 + {2'd0, msb}), mant};
  endfunction

  // An fp16 value as int8 (N-4.1): N-1 first (NaN -> +inf, -0 -> +0), RNE to an integer,
  // clamped to [-128, 127] (so +-inf give 127 and -128).
  function automatic logic [7:0] fp16_to_int8(logic [15:0] h);
    logic [15:0] b;
    logic [4:0]  be;
    logic [34:0] wide;
    logic [11:0] q;
    b    = fp16_boundary(h);
    be   = fp16_scale(b);
    // |b| = m * 2^(be - 25); below be = 25 the value is under 1024: m * 2^24 >> (25 - be)
    wide = {fp16_sig(b), 24'd0} >> (5'd25 - be);
    q    = {1'b0, wide[34:24]} + {11'd0, wide[23] && ((wide[22:0] != 23'd0) || wide[24])};
    if (fp16_exp(b) >= 5'd22)  // |b| >= 128: saturate (only -128 itself is in range)
      fp16_to_int8 = b[15] ? 8'h80 : 8'h7F;
    else if (b[15])
      fp16_to_int8 = (q >= 12'd128) ? 8'h80 : 8'(-q[7:0]);
    else
      fp16_to_int8 = (q >= 12'd128) ? 8'h7F : q[7:0];
  endfunction

  // ---- N-4 planar engine operation codes (docs/planar.md) ----
  // The enums marked public reach C++ in every Verilated model's package class, where the
  // testbench checks its own codes against them (tb/harness/rtl_codes.h). Ports carry the
  // codes as plain vectors of the enum's width.
  // ane_pe_ew: one fp16 operation per lane (N-4.1, N-4.3).
  typedef enum logic [3:0] {
    PeEwAdd         = 4'd0,   // a + b
    PeEwSub         = 4'd1,   // a - b
    PeEwMul         = 4'd2,   // a * b
    PeEwMax         = 4'd3,
    PeEwMin         = 4'd4,
    PeEwCmp         = 4'd5,   // +1, +0, -1 as a >, ==, < b
    PeEwAbs         = 4'd6,
    PeEwNeg         = 4'd7,
    PeEwRelu        = 4'd8,   // max(a, +0)
    PeEwSquare      = 4'd9,   // a * a
    PeEwAddMul      = 4'd10,  // a + b*c, rounding after each operation
    PeEwMulAfterAdd = 4'd11,  // (a + b)*c, likewise
    PeEwPass        = 4'd12   // a, the code unchanged (the planar engine's one-source task)
  } pe_ew_op_e /*verilator public*/;

  // The reduction tree's operator (ane_pe_widen, ane_pe_node, ane_pe_reduce, ane_pe_pool,
  // ane_pe_vreduce; N-4.4, N-4.5).
  typedef enum logic [1:0] {
    PeTreeSum = 2'd0,
    PeTreeMax = 2'd1,
    PeTreeMin = 2'd2
  } pe_tree_op_e /*verilator public*/;

  // The operator's identity in fp32, for an input that is not there: +0, -inf, +inf. (Enum
  // items in a package function take the package's name: Yosys 0.23 reads a bare one as an
  // undeclared wire.)
  function automatic logic [31:0] pe_tree_identity(logic [1:0] op);
    pe_tree_identity = (op == ane_pkg::PeTreeSum) ? 32'h0000_0000
                     : (op == ane_pkg::PeTreeMax) ? 32'hFF80_0000 : 32'h7F80_0000;
  endfunction

  // ane_pe_post: the exact unary units (N-4.1, N-4.2).
  typedef enum logic [1:0] {
    PePostPass  = 2'd0,  // the code unchanged
    PePostSqrt  = 2'd1,
    PePostRecip = 2'd2,
    PePostRsqrt = 2'd3
  } pe_post_op_e /*verilator public*/;

  // ane_pe_fc: the format converter's unary step (N-4.1).
  typedef enum logic [1:0] {
    PeFcNone = 2'd0,
    PeFcAbs  = 2'd1,
    PeFcNeg  = 2'd2,
    PeFcRelu = 2'd3
  } pe_fc_unary_e /*verilator public*/;

  // ---- N-3 post-processor configuration (docs/postproc.md) ----
  // The CTRL register's ACT field (the register itself: ane_regs_pkg::postproc_ctrl_t).
  typedef enum logic [1:0] {
    PpActNone  = 2'd0,
    PpActRelu  = 2'd1,
    PpActTable = 2'd2
  } pp_act_e /*verilator public*/;

  // ---- N-5 activation table descriptor (tb/oracle/activation.h ActTable, without segments) ----
  typedef enum logic [2:0] {
    ActDirect = 3'd0,
    ActExp2   = 3'd1,
    ActTrig   = 3'd2,
    ActLog    = 3'd3,
    ActPow    = 3'd4
  } act_mode_e /*verilator public*/;
  typedef enum logic [1:0] {
    ActSymNone = 2'd0,
    ActSymOdd  = 2'd1,
    ActSymEven = 2'd2
  } act_sym_e /*verilator public*/;

  typedef struct packed {
    logic [15:0]       at_neg;
    logic [15:0]       at_zero;
    logic [15:0]       at_ninf;
    logic [15:0]       at_pinf;
    logic [15:0]       right;
    logic [15:0]       left;
    logic [15:0]       k;
    logic [15:0]       lo;
    logic signed [3:0] step_log2;
    logic              neg_en;
    logic              zero_en;
    logic              right_identity;
    logic              pow_negate;
    logic              pow_split;
    logic              cos_phase;
    logic [1:0]        sym;    // act_sym_e
    logic [2:0]        mode;   // act_mode_e
  } act_desc_t;

  // The table's segments: segment i is {c, m} (two fp16 codes) at bits [32i +: 32]. (A port
  // is declared with the width, not the type: Yosys 0.23 takes no vector typedef as a port type.)
  localparam int unsigned ActSegments = 32;
  typedef logic [32*ActSegments-1:0] act_segs_t;

  // ---- the neural-engine core's bundles (docs/core.md) ----
  // An operation of the kernel extract as it rides through the router (ane_core_route) and the
  // shifter (the request's tag) to the MAC array: its four kernel coefficients, its accumulator
  // slot, and whether it starts or ends its reduction.
  typedef struct packed {
    logic [15:0] coef_a;
    logic [15:0] coef_b;
    logic [15:0] coef_c;
    logic [15:0] coef_d;
    logic [2:0]  slot;
    logic        first;
    logic        last;
  } core_op_t;

  // A work unit's descriptor, from the loader (ane_core_load) to the shifter (ane_shifter) with
  // the first beat of the work unit's load.
  typedef struct packed {
    logic [8:0]  ow;     // the work unit's outputs: positions with ox >= ow or oy >= oh are idle
    logic [8:0]  oh;
    logic [11:0] off_x;  // (signed) patch coordinates of tile position (0, 0) at ky = kx = 0
    logic [11:0] off_y;
    logic [9:0]  pw;     // valid patch columns / rows (columns and rows past them read 0)
    logic [9:0]  ph;
  } wu_desc_t;

  // A work unit as the loader's walker queues it for the loader's reader (ane_core_load): its
  // first byte address, its channels and patch rows, and its descriptor.
  typedef struct packed {
    logic [31:0] addr;
    logic [9:0]  wn;
    logic [9:0]  wph;
    wu_desc_t    desc;
  } wu_rec_t;

  // A kernel's parameter record (N-3.1) in the results block's queue (ane_core_out): the scale
  // (fp16) and the bias (fp32) the post-processor applies to its output channel.
  typedef struct packed {
    logic [15:0] scale;
    logic [31:0] bias;
  } pp_param_t;

endpackage

`default_nettype wire
