// SPDX-License-Identifier: Apache-2.0
// ane_pp_round: the first post-processor step of one lane (NUMERICS N-2.6, N-3.3, N-3.4).
// From a slot's accumulator value:
//   fp accumulator, sr_i = 0:  r = RNE16(acc), m1 flush (ane_mac_out, the N-2.6 output port)
//   fp accumulator, sr_i = 1:  stochastic rounding with the lane's draw (N-3.4): the fp16
//                              significand plus `width` bits below its LSB, plus rand, truncated;
//                              > 65504 is inf; m1 flushes a denormal result; zero is +0
//   int32 accumulator, int8 store:  q = clamp(RNE(acc / 2^shift), -128, 127), sign-extended
//   int32 accumulator, fp16 store:  RNE16(acc / 2^shift), gradual underflow, inf at 65520;
//                                   zero is +0
// Pipe = 0 (the default): combinational, clk_i and en_i unused. Pipe = 1: three stages with a
// register (enable en_i, no reset: datapath only) after the first two, so r_o follows acc_i by
// two cycles (the configuration inputs are static while values are in flight):
//   stage 1  RNE16 port; SR: exponent, shift to the fp16 LSB, masked draw; int8: floor and the
//            rounding bit; int32 -> fp16: the magnitude and its top bit
//   stage 2  SR: the truncated significand plus the draw; int8: the rounded quotient, clamped;
//            int32 -> fp16: the exponent, the shift to the fp16 LSB, round and sticky bits
//   stage 3  SR: whole ulps, packing, overflow; int32 -> fp16: RNE increment, packing; the
//            selection by the configuration
`default_nettype none

module ane_pp_round #(
  parameter logic Gen  = ane_pkg::GenM1,
  parameter bit   Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [31:0] acc_i,
  input  wire logic        int_acc_i,
  input  wire logic [4:0]  shift_i,
  input  wire logic        store_int8_i,
  input  wire logic        sr_i,
  input  wire logic [3:0]  sr_width_i,  // 1 .. 13
  input  wire logic [12:0] rand_i,      // the lane's draw (low sr_width bits used)
  output      logic [15:0] r_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb;

  // ================================================================ stage 1
  // ---- RNE output port (N-2.6) ----
  logic [15:0] rne_d;
  ane_mac_out #(.Gen(Gen)) u_port (.acc_i(acc_i), .fp16_o(rne_d));

  // ---- stochastic rounding (N-3.4) ----
  logic [7:0]        e8;
  logic [6:0]        eeff;       // the biased exponent's low bits, 1 for a denormal (e = eeff - 127 below 2^-14)
  logic              e_lo;       // e < -14: below the fp16 normals
  logic [12:0]       rmask;
  logic [23:0]       sig24_d;
  logic [4:0]        qshift_d;   // the shift from the sig24 LSB to `width` bits below the fp16 LSB
  logic              qzero_d;    // that shift is 24 or more: nothing of the significand is kept
  logic [12:0]       rnd_d;      // the draw's low width bits
  // the exponent's cases: 0 finite with e >= -14 (code exponent e + 14), 1 finite below,
  // 2 NaN (+inf, N-1.1), 3 inf or e > 15 (inf with the sign)
  logic [1:0]        sr_cls_d;
  logic [4:0]        sr_eb_d;    // e + 14

  always_comb begin
    e8      = acc_i[30:23];
    sig24_d = {(e8 != 8'h00), acc_i[22:0]};
    eeff    = {e8[6:1], e8[0] | (e8 == 8'h00)};
    e_lo    = (e8 < 8'd113);
    // The shift from the sig24 LSB to the fp16 LSB is 13 + max(0, -14 - e): 13 for e >= -14,
    // 126 - eeff below. Less the width w, taken mod 2^8 as an 8-bit difference d, and its low
    // five bits; qzero is d >= 24. Written so that the value's exponent meets the static width
    // in one adder or one comparison (the 8-bit chain e, max, sum, difference, compare was the
    // 8-lane core's critical path, docs/synthesis_history.md):
    //   e >= -14:  d = 13 - w; d >= 24 exactly when w >= 14 (the difference wraps)
    //   e <  -14:  d = 126 - eeff - w (eeff 1 .. 112), low five bits ~eeff + ~w (mod 32: the
    //              two's-complement ones and 126 sum to 128); d >= 24 exactly when eeff + w <= 102
    //              or the difference wraps (eeff + w = 127: eeff = 112, w = 15)
    if (e_lo) begin
      qshift_d = 5'(~eeff[4:0] + {1'b1, ~sr_width_i});
      qzero_d  = (eeff <= 7'(7'd102 - {3'd0, sr_width_i})) || (eeff == 7'd112 && sr_width_i == 4'd15);
    end else begin
      qshift_d = 5'(5'd13 - {1'b0, sr_width_i});
      qzero_d  = (sr_width_i >= 4'd14);
    end
    rmask    = 13'((14'd1 << sr_width_i) - 14'd1);
    rnd_d    = rand_i & rmask;
    sr_eb_d  = 5'(eeff[4:0] + 5'd15);   // e + 14 = max(e8, 1) - 113, mod 32
    if (e8 == 8'hFF && acc_i[22:0] != 23'd0) sr_cls_d = 2'd2;
    else if (e8 >= 8'd143)                   sr_cls_d = 2'd3;   // inf, or e > 15
    else if (!e_lo)                          sr_cls_d = 2'd0;
    else                                     sr_cls_d = 2'd1;
  end

  // ---- integer accumulators (N-3.3) ----
  logic signed [31:0] acc_s;
  logic signed [32:0] floor_q_d;
  logic [31:0]        rem, half, low_mask;
  logic               up_d;
  logic [31:0]        mag_d;
  logic [4:0]         msb_d;
  logic [4:0]         mag_lz;
  logic               unused_mag_zero;  // (a zero magnitude gives msb 0, which the rounding never reads)
  // int32 / 2^shift to fp16: the magnitude and its top bit (0 for a zero magnitude)
  assign mag_d = acc_i[31] ? 32'(-$signed(acc_i)) : acc_i;
  ane_lzc #(.W(32)) u_msb (.v_i(mag_d), .n_o(mag_lz), .zero_o(unused_mag_zero));
  assign msb_d = ~mag_lz;

  always_comb begin
    acc_s     = $signed(acc_i);
    floor_q_d = $signed({acc_s[31], acc_s}) >>> shift_i;
    low_mask  = (32'd1 << shift_i) - 32'd1;
    rem       = acc_i & low_mask;
    half      = (shift_i == 5'd0) ? 32'd0 : (32'd1 << (shift_i - 5'd1));
    up_d      = (shift_i != 5'd0) && ((rem > half) || (rem == half && floor_q_d[0]));
    // int32 / 2^shift to fp16: the magnitude and its top bit
  end

  // ---- stage 1 -> 2 registers
  logic [15:0]        rne_q;
  logic [23:0]        sig24;
  logic [4:0]         qshift;
  logic               qzero;
  logic [12:0]        rnd;
  logic [1:0]         sr_cls_q;
  logic [4:0]         sr_eb_q;
  logic               sign_q;
  logic signed [32:0] floor_q;
  logic               up;
  logic [31:0]        mag;
  logic [4:0]         msb;

  // ================================================================ stage 2
  // ---- stochastic rounding: the significand truncated to width bits below the fp16 LSB, plus
  // the draw
  logic [23:0]        q;
  logic [24:0]        sum_d;
  always_comb begin
    q     = qzero ? 24'd0 : (sig24 >> qshift);
    sum_d = {1'b0, q} + {12'd0, rnd};
  end

  // ---- int8 store: the rounded quotient, clamped
  logic signed [32:0] q_int;
  logic [7:0]         int8_d;
  always_comb begin
    q_int = floor_q + {32'd0, up};
    if (q_int > 33'sd127)       int8_d = 8'h7F;
    else if (q_int < -33'sd128) int8_d = 8'h80;
    else                        int8_d = q_int[7:0];
  end

  // ---- int32 / 2^shift to fp16: exponent, shift to the fp16 LSB, round and sticky bits
  logic signed [6:0]  ie;         // unbiased exponent of the value
  logic               inormal_d;
  logic [5:0]         rsh, lsh;
  logic [14:0]        m_sh_d;
  logic               ir_bit_d, isticky_d;
  logic [4:0]         ieb_d;      // ie + 14
  logic               ibig_d;     // ie > 15
  logic               izero_d;    // the magnitude is zero
  always_comb begin
    ie        = $signed({2'b00, msb}) - $signed({2'b00, shift_i});
    inormal_d = (ie >= -7'sd14);
    // Right shift (rounded) or left shift (exact) that puts the fp16 LSB at bit 0:
    // normal results keep 11 bits from msb down; denormal results have quantum 2^-24.
    rsh = 6'd0;
    lsh = 6'd0;
    if (inormal_d) begin
      if (msb >= 5'd10) rsh = 6'(msb - 5'd10);
      else              lsh = 6'(5'd10 - msb);
    end else begin
      if (shift_i > 5'd24) rsh = 6'(shift_i - 5'd24);
      else                 lsh = 6'(5'd24 - shift_i);
    end
    m_sh_d    = 15'((mag >> rsh) << lsh);
    ir_bit_d  = (rsh != 6'd0) && mag[5'(rsh - 6'd1)];
    isticky_d = (rsh > 6'd1) && ((mag & ((32'd1 << (rsh - 6'd1)) - 32'd1)) != 32'd0);
    ieb_d     = 5'(ie + 7'sd14);
    ibig_d    = (ie > 7'sd15);
    izero_d   = (mag == 32'd0);
  end

  // ---- stage 2 -> 3 registers
  logic [15:0]        rne;
  logic [24:0]        sum;
  logic [1:0]         sr_cls;
  logic [4:0]         sr_eb;
  logic               sign;
  logic [7:0]         int8_q;
  logic [14:0]        m_sh;
  logic               ir_bit, isticky, inormal, ibig, izero;
  logic [4:0]         ieb;

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({rne_q, sig24, qshift, qzero, rnd, sr_cls_q, sr_eb_q, sign_q, floor_q, up, mag, msb})),
        .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({rne_d, sig24_d, qshift_d, qzero_d, rnd_d, sr_cls_d, sr_eb_d, acc_i[31], floor_q_d, up_d,
          mag_d, msb_d}),
    .q_o({rne_q, sig24, qshift, qzero, rnd, sr_cls_q, sr_eb_q, sign_q, floor_q, up, mag, msb})
  );
  ane_pipe_reg #(.W($bits({rne, sr_cls, sr_eb, sign, sum, int8_q, m_sh, ir_bit, isticky, inormal, ibig, izero, ieb})),
        .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({rne_q, sr_cls_q, sr_eb_q, sign_q, sum_d, int8_d, m_sh_d, ir_bit_d, isticky_d, inormal_d, ibig_d,
          izero_d, ieb_d}),
    .q_o({rne, sr_cls, sr_eb, sign, sum, int8_q, m_sh, ir_bit, isticky, inormal, ibig, izero, ieb})
  );

  // ================================================================ stage 3
  logic [11:0] t;          // whole fp16 ulps, <= 2048
  logic [14:0] code;
  logic [15:0] sr_r;
  always_comb begin
    t = 12'(sum >> sr_width_i);
    if (sr_cls == 2'd0) code = {sr_eb, 10'd0} + {3'd0, t};
    else                code = {3'd0, t};
    if (sr_cls == 2'd2) begin
      sr_r = 16'h7C00;                                   // NaN acts as +inf (N-1.1)
    end else if (sr_cls == 2'd3 || code[EH:EL] == ane_pkg::Fp16ExpMax) begin
      sr_r = {sign, 15'h7C00};
    end else if (t == 12'd0 || (Gen == ane_pkg::GenM1 && code[EH:EL] == 5'd0)) begin
      sr_r = 16'h0000;                                   // zero, or the m1 flush (N-2.3)
    end else begin
      sr_r = {sign, code[14:0]};
    end
  end

  logic        iinc;
  logic [14:0] icode;
  logic [15:0] int16_r;
  always_comb begin
    iinc = ir_bit & (isticky | m_sh[0]);
    if (inormal) icode = {ieb, 10'd0} + m_sh + {14'd0, iinc};
    else         icode = m_sh + {14'd0, iinc};
    // A zero is +0, also where a negative value rounds to it (|acc / 2^shift| <= 2^-25, below
    // the normals: there icode is the whole result and cannot wrap as on an overflow).
    if (izero)                               int16_r = 16'h0000;
    else if (ibig || icode[EH:EL] == ane_pkg::Fp16ExpMax) int16_r = {sign, 15'h7C00};
    else int16_r = {sign && (inormal || icode != 15'd0), icode[14:0]};
  end

  always_comb begin
    if (int_acc_i) r_o = store_int8_i ? {{8{int8_q[7]}}, int8_q} : int16_r;
    else           r_o = sr_i ? sr_r : rne;
  end

endmodule
