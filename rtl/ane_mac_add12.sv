// SPDX-License-Identifier: Apache-2.0
// ane_mac_add12: the two-input adder of the quad stage, m1 (NUMERICS N-2.4), in narrow form.
//   add12(x, y) = RNE(x + y) on the grid 2^(e - 11), e = max(exponent(x), exponent(y)) over the
//   nonzero operands; add12 of two zeros is +0; inf + finite = inf; inf + (-inf) = +0; zero
//   results are +0. pass_i: s = y exactly (x ignored): the first product of a quad.
//   pad_i: s = add12(s, +0), the padding of an incomplete final quad: s rounded (RNE) to 12 bits
//   relative to its own exponent.
//   inj_i: stage a is bypassed and an integer quad injq_i enters the stage-b register as a pass
//   value: s_o.sig = injq_i sign-extended to 22 bits, every other field 0 (s_o.zero when it is
//   0). The lane's integer quads use this path to reach the accumulator (docs/mac_lane.md).
// Operands and result are mac_fv_t (22-bit normalized significand and exponent). Four stages;
// Pipe = 1 puts a register (enable en_i) after each of the first three, Pipe = 0 makes the
// block combinational (the stage tests).
//   a  order the operands by magnitude (big, small), exponent difference d
//   b  align small to big in a 24-bit window with a jam bit, add or subtract
//   c  round to the grid: 13 bits above it, guard bit, sticky bit (RNE)
//   d  normalize the rounded sum (at most 14 significant bits) back to mac_fv_t
// Why 24 bits and a jam bit give the exact contract (docs/mac_lane.md has the whole argument):
// in the window bit 0 weighs u = 2^(e-22); big (22 bits, msb 2^e) occupies bits 22..1, so it is
// a multiple of 2u. The bits of small below bit 0 are replaced by one jam bit at bit 0; the
// jammed and the exact small lie strictly inside the same interval (2ku, (2k+2)u), and so do
// big +- either. The grid 2^(e-11) is 2^11 u: every rounding boundary (a multiple of half a grid
// step) is a multiple of 2u, so both sums round the same way. The grid is fixed by the operands,
// not by the sum, so no normalization comes before the rounding.
`default_nettype none

module ane_mac_add12 #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic             clk_i,
  input  wire logic             en_i,
  input  wire ane_pkg::mac_fv_t x_i,
  input  wire ane_pkg::mac_fv_t y_i,
  input  wire logic             pass_i,
  input  wire logic             pad_i,
  input  wire logic             inj_i,
  input  wire logic [17:0]      injq_i,
  output      ane_pkg::mac_fv_t s_o
);

  // Fields kept from stage to stage: specials, the result sign, big's exponent, pass.
  typedef struct packed {
    logic       sp;       // an operand is infinite: the result is sp_zero ? +0 : inf(sp_sign)
    logic       sp_zero;
    logic       sp_sign;
    logic       sign;
    logic [6:0] e;
    logic       pass;
    logic       pad;
  } side_t;

  // ------------------------------------------------------------------ a: order
  ane_pkg::mac_fv_t x, big, sml;
  logic             x_ge;
  logic [6:0]       d;
  side_t            a_side;
  logic [21:0]      a_big, a_small;
  logic [4:0]       a_d;
  logic             a_sub;

  always_comb begin
    x = x_i;
    if (pass_i) begin  // +0
      x      = '0;
      x.zero = 1'b1;
    end
    x_ge  = {x.e, x.sig} >= {y_i.e, y_i.sig};              // zeros and infinities have e = sig = 0
    big   = x_ge ? x : y_i;
    sml   = x_ge ? y_i : x;
    d     = big.e - sml.e;
    a_big   = big.sig;
    a_small = sml.sig;
    a_d     = (d > 7'd31) ? 5'd31 : d[4:0];
    a_sub   = x.sign ^ y_i.sign;
    a_side.sp      = x.inf || y_i.inf;
    a_side.sp_zero = x.inf && y_i.inf && (x.sign != y_i.sign);
    a_side.sp_sign = x.inf ? x.sign : y_i.sign;
    a_side.sign    = big.sign;
    a_side.e       = big.e;
    a_side.pass    = pass_i;
    a_side.pad     = pad_i;
  end

  side_t       b_side;
  logic [21:0] b_big, b_small;
  logic [4:0]  b_d;
  logic        b_sub;

  // stage a's results, or an injected integer quad (a pass of big = the quad, small = 0)
  side_t       i_side;
  logic [21:0] i_big, i_small;
  logic [4:0]  i_d;
  logic        i_sub;
  always_comb begin
    i_side  = a_side;
    i_big   = a_big;
    i_small = a_small;
    i_d     = a_d;
    i_sub   = a_sub;
    if (inj_i) begin
      i_side      = '0;
      i_side.pass = 1'b1;
      i_big       = {{4{injq_i[17]}}, injq_i};
      i_small     = 22'd0;
      i_d         = 5'd0;
      i_sub       = 1'b0;
    end
  end

  // ------------------------------------------------------------------ b: align and add
  logic [22:0] y23, yshift, ymask;
  logic [23:0] wx, wy, b_sum;

  always_comb begin
    y23    = {b_small, 1'b0};
    yshift = y23 >> b_d;
    ymask  = ~({23{1'b1}} << b_d);       // the bits of small shifted out
    wx     = {1'b0, b_big, 1'b0};
    wy     = {1'b0, yshift[22:1], yshift[0] | ((y23 & ymask) != 23'd0)};
    b_sum  = b_sub ? (wx - wy) : (wx + wy);
  end

  side_t       c_side;
  logic [23:0] c_sum;

  // ------------------------------------------------------------------ c: round to the grid
  // R = the sum on the grid (RNE; at most 2^13). The padding rounds R again to 12 significant
  // bits: only an R in [2^12, 2^13) has a 13th bit to drop. A padded pass rounds y's 22-bit
  // significand to 12 bits; its value then continues as a grid value (R with exponent e).
  logic        c_inc, c_pinc, c_yinc;
  logic [13:0] c_r, c_rp;
  logic [12:0] c_ry;
  logic [21:0] c_val;
  side_t       c_out;

  always_comb begin
    // grid step = window bit 11, guard = bit 10, sticky = bits 9..0
    c_inc = c_sum[10] && (c_sum[11] || (c_sum[9:0] != 10'd0));
    c_r   = {1'b0, c_sum[23:11]} + {13'd0, c_inc};
    c_pinc = c_r[0] && c_r[1];  // the dropped bit is a tie: round to even
    c_rp  = c_r[12] && !c_r[13] ? {c_r[13:1] + {12'd0, c_pinc}, 1'b0} : c_r;
    // a padded pass: y's significand (window bits 22..1) to 12 bits
    c_yinc = c_sum[10] && (c_sum[11] || (c_sum[9:1] != 9'd0));
    c_ry  = {1'b0, c_sum[22:11]} + {12'd0, c_yinc};
    c_out = c_side;
    c_out.pass = c_side.pass && !c_side.pad;
    if (c_side.pass) begin
      c_val = c_side.pad ? {1'b0, c_ry, 8'd0} : c_sum[22:1];
    end else begin
      c_val = {c_side.pad ? c_rp : c_r, 8'd0};
    end
  end

  side_t       d_side;
  logic [21:0] d_val;

  // ------------------------------------------------------------------ d: normalize
  logic [15:0] nrm_x;
  logic [3:0]  nrm_n;
  ane_mac_norm #(.Width(16)) u_norm (.v_i({d_val[21:8], 2'b00}), .x_o(nrm_x), .n_o(nrm_n));
  always_comb begin
    // not pass: the value is R * 2^(e-11), R = d_val[21:8] (< 2^14); normalized, its exponent
    // is e + 2 - (leading zeros of R in 14 bits). pass: d_val is y's significand.
    s_o = '0;
    if (d_side.sp) begin
      s_o.zero = d_side.sp_zero;
      s_o.inf  = !d_side.sp_zero;
      s_o.sign = !d_side.sp_zero && d_side.sp_sign;
    end else if (d_val == 22'd0) begin
      s_o.zero = 1'b1;
    end else if (d_side.pass) begin
      s_o.sign = d_side.sign;
      s_o.e    = d_side.e;
      s_o.sig  = d_val;
    end else begin
      s_o.sign = d_side.sign;
      s_o.e    = d_side.e + 7'd2 - {3'd0, nrm_n};
      s_o.sig  = {nrm_x[15:2], 8'd0};
    end
  end

  // ------------------------------------------------------------------ pipeline registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({b_side, b_big, b_small, b_d, b_sub})), .Pipe(Pipe)) u_b (
    .clk_i, .en_i, .d_i({i_side, i_big, i_small, i_d, i_sub}),
    .q_o({b_side, b_big, b_small, b_d, b_sub})
  );
  ane_pipe_reg #(.W($bits({c_side, c_sum})), .Pipe(Pipe)) u_c (
    .clk_i, .en_i, .d_i({b_side, b_sum}),
    .q_o({c_side, c_sum})
  );
  ane_pipe_reg #(.W($bits({d_side, d_val})), .Pipe(Pipe)) u_d (
    .clk_i, .en_i, .d_i({c_out, c_val}),
    .q_o({d_side, d_val})
  );

  logic unused_nrm;
  assign unused_nrm = ^{nrm_x[1:0], d_side.pad, x.zero, x.e, y_i.zero, big.inf, big.zero, sml.inf, sml.zero, sml.sign};

endmodule

`default_nettype wire
