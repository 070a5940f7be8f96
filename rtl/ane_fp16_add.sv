// SPDX-License-Identifier: Apache-2.0
// ane_fp16_add: the elementwise fp16 add and subtract (NUMERICS N-1, N-4.1, N-4.2).
// sub_i = 0: y = a + b; sub_i = 1: y = a - b.
// Pipe = 0 (the default): combinational, clk_i and en_i unused. Pipe = 1: three stages with a
// register (enable en_i, no reset: datapath only) after the first two, so y_o follows the
// operands by two cycles:
//   stage 1  operand decode (N-1), magnitude order, alignment with sticky bit, the infinities
//   stage 2  add / subtract, normalization
//   stage 3  RNE, packing, overflow
//   N-1    each operand: any NaN becomes +inf, -0 becomes +0 (denormals pass)
//   N-4.1  y = RNE_fp16 of the exact sum: denormal results kept, overflow to inf at the true
//          fp16 limit (|sum| >= 65520); every zero result is +0 (an exact cancellation, and
//          0 + 0 after N-1.2), as tb/oracle Fp16Add / Fp16Sub give
//   N-4.2  inf - inf = +0 (inf + (-inf), either order)
//
// Datapath (single path): the operand with the larger magnitude code is the big one (the
// result takes its sign); the small significand, extended by guard, round and sticky bits, is
// shifted right by the exponent difference; add or subtract; normalize by one bit right on a
// carry, or left by the leading-zero count but never below exponent 1 (gradual underflow);
// RNE on the guard/round/sticky bits; pack as {exponent - 1, 10'b0} + significand so that a
// rounding carry moves into the exponent and a denormal needs no special case.
`default_nettype none

module ane_fp16_add #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [15:0] a_i,
  input  wire logic [15:0] b_i,
  input  wire logic        sub_i,
  output      logic [15:0] y_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb, FH = ane_pkg::Fp16ManMsb;

  // (No functions in this module: the lanes of an array share one body of simulation code only
  // if the code of every lane is identical, and Verilator numbers the temporaries of every inlined
  // function call apart.)

  // Operand decode (N-1). The sign of a zero never reaches the result: zero sums are +0.
  logic        a_nan, a_inf, a_sign;
  logic        b_nan, b_inf, b_sign;  // b_sign includes the subtraction

  always_comb begin
    a_nan  = (a_i[EH:EL] == ane_pkg::Fp16ExpMax) && (a_i[FH:0] != 10'd0);
    a_inf  = (a_i[EH:EL] == ane_pkg::Fp16ExpMax);  // a NaN is +inf from here on
    a_sign = a_i[15] && !a_nan;
    b_nan  = (b_i[EH:EL] == ane_pkg::Fp16ExpMax) && (b_i[FH:0] != 10'd0);
    b_inf  = (b_i[EH:EL] == ane_pkg::Fp16ExpMax);
    b_sign = (b_i[15] && !b_nan) ^ sub_i;
  end

  // ---- stage 1. Finite operands: value = sig * 2^(e - 25), e = max(biased exponent, 1).
  logic        swap;
  logic [14:0] big_code, small_code;
  logic [4:0]  small_e, diff;
  logic [10:0] small_sig;
  logic [13:0] small_ext, small_mask;
  logic        small_sticky;
  logic        eff_sub_d, eff_sub;
  logic [10:0] big_sig_d, big_sig;
  logic [13:0] small_al_d, small_al;
  logic [4:0]  big_e_d, big_e;
  logic        big_sign_d, big_sign_q, big_sign;
  logic [1:0]  spec_d, spec_q, spec;  // 0 finite, 1 +0 (inf - inf), 2 inf with sign spec_sign
  logic        spec_sign_d, spec_sign_q, spec_sign;

  always_comb begin
    // Magnitude order of finite codes is the order of their low 15 bits.
    swap       = (b_i[14:0] > a_i[14:0]);
    big_code   = swap ? b_i[14:0] : a_i[14:0];
    small_code = swap ? a_i[14:0] : b_i[14:0];
    big_sign_d = swap ? b_sign : a_sign;
    eff_sub_d  = a_sign ^ b_sign;
    big_e_d    = (big_code[EH:EL] == 5'd0) ? 5'd1 : big_code[EH:EL];
    small_e    = (small_code[EH:EL] == 5'd0) ? 5'd1 : small_code[EH:EL];
    big_sig_d  = {(big_code[EH:EL] != 5'd0), big_code[FH:0]};
    small_sig  = {(small_code[EH:EL] != 5'd0), small_code[FH:0]};
    diff       = big_e_d - small_e;  // 0 .. 29

    // Align: bits shifted out below the round bit are kept only as a sticky bit.
    small_ext    = {small_sig, 3'b000};
    small_mask   = ~({14{1'b1}} << diff);
    small_sticky = (small_ext & small_mask) != 14'd0;
    small_al_d   = (small_ext >> diff) | {13'd0, small_sticky};

    // Infinities (N-4.2: inf - inf = +0).
    spec_sign_d = a_inf ? a_sign : b_sign;
    if (a_inf && b_inf && (a_sign != b_sign)) spec_d = 2'd1;
    else if (a_inf || b_inf)                  spec_d = 2'd2;
    else                                      spec_d = 2'd0;
  end

  // ---- stage 2: add or subtract, normalize
  logic [14:0] sum;        // (big_sig << 3) +- aligned small: value sum * 2^(big_e - 28)
  logic [13:0] lim;        // a one at the bit that normalizes to exponent 1 (none if below)
  logic [3:0]  lz;
  logic [4:0]  norm_shift;
  logic [13:0] norm_d, norm;  // significand in [13:3], guard [2], round and sticky [1:0]
  logic [4:0]  e_res_d, e_res;  // biased exponent of norm[13], 1 .. 31
  logic        zero_d, zero;
  logic        unused_lz_none;  // (the one forced at bit 1 keeps lz at 14 or less)

  // big >= small, so the difference is never negative.
  assign sum = eff_sub ? {1'b0, big_sig, 3'b000} - {1'b0, small_al} : {1'b0, big_sig, 3'b000} + {1'b0, small_al};
  // Normalize: left by the leading zeros, but not below exponent 1 (the denormal range):
  // the shift is the leading-zero count of sum[13:0] with a one forced at bit 14 - big_e
  // (big_e <= 14), which is min(leading zeros, big_e - 1); 14 only for a zero sum.
  assign lim = (big_e <= 5'd14) ? (14'd1 << (5'd14 - big_e)) : 14'd0;
  ane_lzc #(.W(16)) u_lz (.v_i({sum[13:0] | lim, 2'b10}), .n_o(lz), .zero_o(unused_lz_none));

  always_comb begin
    zero_d = (sum == 15'd0);  // exact cancellation, or 0 + 0: +0
    if (sum[14]) begin
      norm_shift = 5'd0;
      norm_d     = {sum[14:2], (sum[1] || sum[0])};
      e_res_d    = big_e + 5'd1;
    end else begin
      norm_shift = {1'b0, lz};
      norm_d     = sum[13:0] << norm_shift;
      e_res_d    = big_e - norm_shift;
    end
  end

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({eff_sub, big_sig, small_al, big_e, big_sign_q, spec_q, spec_sign_q})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({eff_sub_d, big_sig_d, small_al_d, big_e_d, big_sign_d, spec_d, spec_sign_d}),
    .q_o({eff_sub, big_sig, small_al, big_e, big_sign_q, spec_q, spec_sign_q})
  );
  ane_pipe_reg #(.W($bits({norm, e_res, zero, big_sign, spec, spec_sign})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({norm_d, e_res_d, zero_d, big_sign_q, spec_q, spec_sign_q}),
    .q_o({norm, e_res, zero, big_sign, spec, spec_sign})
  );

  // ---- stage 3: RNE (N-0.3) and packing; overflow when the code reaches the inf exponent
  logic        round_up;
  logic [11:0] sig_r;      // rounded significand; bit 11 is a carry into the exponent
  logic [15:0] enc;        // {e_res - 1, 10'b0} + sig_r: the magnitude's code
  logic [15:0] finite_y;

  always_comb begin
    round_up = norm[2] && (norm[1] || norm[0] || norm[3]);
    sig_r    = {1'b0, norm[13:3]} + {11'd0, round_up};
    enc      = {1'b0, e_res - 5'd1, 10'd0} + {4'd0, sig_r};
    if (zero) begin
      finite_y = 16'h0000;
    end else if (enc[15:10] >= 6'd31) begin
      finite_y = {big_sign, 15'h7C00};
    end else begin
      finite_y = {big_sign, enc[14:0]};
    end

    case (spec)  // (not `unique`: its run-time check names the instance, and lanes share code)
      2'd1:    y_o = 16'h0000;
      2'd2:    y_o = {spec_sign, 15'h7C00};
      default: y_o = finite_y;
    endcase
  end

endmodule

`default_nettype wire
