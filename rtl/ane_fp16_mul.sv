// SPDX-License-Identifier: Apache-2.0
// ane_fp16_mul: the elementwise fp16 multiply (NUMERICS N-1, N-4.1, N-4.2).
// Pipe = 0 (the default): combinational, clk_i and en_i unused. Pipe = 1: three stages with a
// register (enable en_i, no reset: datapath only) after the first two, so y_o follows the
// operands by two cycles:
//   stage 1  operand decode (N-1), denormal normalization, the exponent sum, the special cases
//   stage 2  the 11 x 11 significand product; the rounding position of a denormal result and
//            the mask of its sticky bits
//   stage 3  the rounding shift with round and sticky bits, RNE, packing, overflow
//   N-1    each operand: any NaN becomes +inf, -0 becomes +0 (denormals pass)
//   N-4.1  y = RNE_fp16(a * b): denormal results kept (gradual underflow), overflow to inf when
//          the exact product is >= 65520; a zero result, from a zero factor or from underflow,
//          carries the IEEE sign of the product (-1 * +0 = -0), as tb/oracle Fp16Mul does
//   N-4.2  0 * inf = +0 (either order, either sign)
//
// Datapath: a denormal operand is normalized first (its significand shifted up to bit 10, its
// exponent going below 1), so the one 11 x 11 significand product always has its top bit at
// bit 20 or 21. The rounding position then follows from the exponents alone (plus prod[21]):
// one right shift with round and sticky bits, an RNE increment, and the packing
// {exp_base, 10'b0} + sig where a carry out of the significand moves into the exponent.
`default_nettype none

module ane_fp16_mul #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [15:0] a_i,
  input  wire logic [15:0] b_i,
  output      logic [15:0] y_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb, FH = ane_pkg::Fp16ManMsb;

  // (No functions in this module: the lanes of an array share one body of simulation code only
  // if the code of every lane is identical, and Verilator numbers the temporaries of every inlined
  // function call apart.)

  // Operand decode (N-1). A normalized operand is sig * 2^(exp - 25) with sig[10] set.
  logic              a_nan, a_inf, a_zero, a_den, a_sign;
  logic              b_nan, b_inf, b_zero, b_den, b_sign;
  logic [3:0]        a_lz, b_lz;
  logic [10:0]       a_sig, b_sig;
  logic signed [7:0] a_exp, b_exp;  // -9 .. 30
  logic              unused_a_lz_none, unused_b_lz_none;
  // the left shift that brings a nonzero denormal fraction's top bit to significand bit 10
  ane_lzc #(.W(16)) u_alz (.v_i({1'b0, a_i[FH:0], 5'd0}), .n_o(a_lz), .zero_o(unused_a_lz_none));
  ane_lzc #(.W(16)) u_blz (.v_i({1'b0, b_i[FH:0], 5'd0}), .n_o(b_lz), .zero_o(unused_b_lz_none));

  always_comb begin
    a_nan  = (a_i[EH:EL] == ane_pkg::Fp16ExpMax) && (a_i[FH:0] != 10'd0);
    a_inf  = (a_i[EH:EL] == ane_pkg::Fp16ExpMax);  // a NaN is +inf from here on
    a_zero = (a_i[14:0] == 15'd0);
    a_den  = (a_i[EH:EL] == 5'h00) && !a_zero;
    a_sign = a_i[15] && !a_nan && !a_zero;  // N-1.1, N-1.2
    a_sig  = a_den ? ({1'b0, a_i[FH:0]} << a_lz) : {1'b1, a_i[FH:0]};
    a_exp  = a_den ? (8'sd1 - $signed({4'd0, a_lz})) : $signed({3'd0, a_i[EH:EL]});

    b_nan  = (b_i[EH:EL] == ane_pkg::Fp16ExpMax) && (b_i[FH:0] != 10'd0);
    b_inf  = (b_i[EH:EL] == ane_pkg::Fp16ExpMax);
    b_zero = (b_i[14:0] == 15'd0);
    b_den  = (b_i[EH:EL] == 5'h00) && !b_zero;
    b_sign = b_i[15] && !b_nan && !b_zero;
    b_sig  = b_den ? ({1'b0, b_i[FH:0]} << b_lz) : {1'b1, b_i[FH:0]};
    b_exp  = b_den ? (8'sd1 - $signed({4'd0, b_lz})) : $signed({3'd0, b_i[EH:EL]});
  end

  // Exact product prod * 2^(a_exp + b_exp - 50), prod in [2^20, 2^22) for finite nonzero
  // operands; es = a_exp + b_exp - 30 is the product's exponent when prod[21] == 0.
  logic [9:0]        a_sig_q, b_sig_q;  // bit 10 is always set (a zero's is too)
  logic              y_sign_d, y_sign_q, y_sign;
  logic signed [7:0] es_d, es_q;
  logic [1:0]        spec_d, spec_q, spec;  // 0 finite nonzero, 1 +0, 2 inf, 3 signed zero

  always_comb begin
    y_sign_d = a_sign ^ b_sign;
    es_d     = a_exp + b_exp - 8'sd30;
    if ((a_inf && b_zero) || (a_zero && b_inf)) spec_d = 2'd1;  // N-4.2: 0 * inf = +0
    else if (a_inf || b_inf)                    spec_d = 2'd2;
    else if (a_zero || b_zero)                  spec_d = 2'd3;  // IEEE signed zero
    else                                        spec_d = 2'd0;
  end

  // ---- stage 2: the product; where the result's ulp lies when it is denormal
  logic [21:0]       prod_d, prod;
  logic              tiny_d, tiny;       // es < -14: the result's quantum is the denormal one
  logic signed [7:0] tiny_shift;
  logic [4:0]        tshift_d, tshift;   // the rounding shift of a denormal result: 11 .. 23
  logic [5:0]        eb_d, eb;           // es + 14: biased exponent - 1 when prod[21] == 0
  logic [5:0]        eb1_d, eb1;         // eb + 1: the same when prod[21] == 1
  logic [21:0]       tmask_d, tmask;     // a denormal result's prod bits below its round bit

  always_comb begin
    prod_d = 22'({1'b1, a_sig_q}) * 22'({1'b1, b_sig_q});
    tiny_d = (es_q < -8'sd14);
    // Denormal range: ulp exponent -24, prod lsb exponent es - 20, so shift = -4 - es (>= 11).
    // At 23 or more every prod bit lies below half an ulp: the result rounds to zero.
    tiny_shift = -8'sd4 - es_q;
    tshift_d   = (tiny_shift > 8'sd23) ? 5'd23 : tiny_shift[4:0];
    eb_d       = 6'(es_q + 8'sd14);
    eb1_d      = 6'(es_q + 8'sd15);
    tmask_d    = ~({22{1'b1}} << (tshift_d - 5'd1));
  end

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({a_sig_q, b_sig_q, y_sign_q, es_q, spec_q})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({a_sig[9:0], b_sig[9:0], y_sign_d, es_d, spec_d}),
    .q_o({a_sig_q, b_sig_q, y_sign_q, es_q, spec_q})
  );
  ane_pipe_reg #(.W($bits({prod, tiny, tshift, eb, eb1, tmask, y_sign, spec})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({prod_d, tiny_d, tshift_d, eb_d, eb1_d, tmask_d, y_sign_q, spec_q}),
    .q_o({prod, tiny, tshift, eb, eb1, tmask, y_sign, spec})
  );

  logic unused_sig;
  assign unused_sig = a_sig[10] ^ b_sig[10];

  // ---- stage 3: rounding and packing
  // The prod bit worth one result ulp is tshift (a denormal result) or 10 + prod[21]: the two
  // cases are formed apart, the denormal one by a shift and a mask that depend on registers
  // only, and chosen at the end, so `tiny` selects results instead of a shift amount.
  logic [11:0]       kept_t, kept_n, kept;  // {prod, 1'b0} >> shift: significand and round bit
  logic              sticky_t, sticky_n;    // a prod bit below the round bit is set
  logic              sticky, round_up;
  logic [11:0]       sig_r;     // rounded significand; bit 11 is a carry into the exponent
  logic [5:0]        exp_base;  // biased exponent - 1 (0 for the denormal range), 0 .. 45
  logic [15:0]       enc;       // {exp_base, 10'b0} + sig_r: the magnitude's code
  logic              overflow;

  always_comb begin
    kept_t   = 12'({prod, 1'b0} >> tshift);
    kept_n   = prod[21] ? prod[21:10] : prod[20:9];
    sticky_t = (prod & tmask) != 22'd0;
    sticky_n = prod[21] ? (prod[9:0] != 10'd0) : (prod[8:0] != 9'd0);
    kept     = tiny ? kept_t : kept_n;
    sticky   = tiny ? sticky_t : sticky_n;
    round_up = kept[0] && (sticky || kept[1]);  // RNE (N-0.3)
    sig_r    = {1'b0, kept[11:1]} + {11'd0, round_up};
    // A normal result has sig_r[10] set, so biased exponent - 1 in exp_base packs correctly;
    // a denormal one (exp_base 0) that rounds up to 2^-14 becomes the smallest normal.
    exp_base = tiny ? 6'd0 : (prod[21] ? eb1 : eb);
    enc      = {exp_base, 10'd0} + {4'd0, sig_r};
    overflow = (enc[15:10] >= 6'd31);

    case (spec)  // (not `unique`: its run-time check names the instance, and lanes share code)
      2'd1:    y_o = 16'h0000;
      2'd2:    y_o = {y_sign, 15'h7C00};
      2'd3:    y_o = {y_sign, 15'h0000};
      default: y_o = overflow ? {y_sign, 15'h7C00} : {y_sign, enc[14:0]};  // includes a signed
    endcase                                                                 // zero from underflow
  end

endmodule

`default_nettype wire
