// SPDX-License-Identifier: Apache-2.0
// ane_fp32_add: one node of the planar reduction tree (NUMERICS N-4.4): y = RNE_fp32(a + b).
//   - gradual underflow (fp32 denormals kept), overflow to inf;
//   - inf + finite = inf, inf + (-inf) = +0 (N-4.2); a NaN operand (the engine never makes one)
//     counts as +inf (N-1.1);
//   - every zero result is +0 (a -0 operand is a zero like any other), as tb/oracle ReduceNode.
//
// Three stages; Pipe = 1 puts a register (enable en_i) after each of the first two (latency 2),
// Pipe = 0 makes the block combinational (the stand-alone top and the stage tests).
//   a  order the operands by magnitude, align the smaller one with three extra bits (guard,
//      round, sticky), the specials
//   b  add or subtract, count the leading zeros of the sum, the left shift (never below
//      exponent 1)
//   c  normalize (one step right after a carry, or left by the shift), round to nearest even
//      (the increment from the registered sum, in parallel with the shift), pack
`default_nettype none

module ane_fp32_add #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output      logic [31:0] y_o
);

  // ------------------------------------------------------------------ a: order and align
  logic        a_inf, b_inf, a_sign, b_sign;
  logic [7:0]  a_e, b_e, small_e, d;
  logic [23:0] a_sig, b_sig, small_sig;
  logic        swap, small_sign;
  logic [26:0] small_sh;
  logic        sticky;
  // stage a's results
  logic        an_sp, an_sp_zero, an_sp_sign, an_sign, an_sub;
  logic [7:0]  an_e;
  logic [23:0] an_big;
  logic [26:0] an_small;

  always_comb begin
    a_inf  = a_i[30:23] == 8'hFF;
    b_inf  = b_i[30:23] == 8'hFF;
    a_sign = a_i[31] && !(a_inf && a_i[22:0] != 23'd0);  // NaN -> +inf
    b_sign = b_i[31] && !(b_inf && b_i[22:0] != 23'd0);
    a_e    = (a_i[30:23] == 8'd0) ? 8'd1 : a_i[30:23];
    b_e    = (b_i[30:23] == 8'd0) ? 8'd1 : b_i[30:23];
    a_sig  = {a_i[30:23] != 8'd0, a_i[22:0]};
    b_sig  = {b_i[30:23] != 8'd0, b_i[22:0]};

    swap       = {b_e, b_sig} > {a_e, a_sig};
    an_e       = swap ? b_e : a_e;
    an_big     = swap ? b_sig : a_sig;
    an_sign    = swap ? b_sign : a_sign;
    small_e    = swap ? a_e : b_e;
    small_sig  = swap ? a_sig : b_sig;
    small_sign = swap ? a_sign : b_sign;
    an_sub     = an_sign != small_sign;

    d = an_e - small_e;
    if (d >= 8'd27) begin
      small_sh = 27'd0;
      sticky   = small_sig != 24'd0;
    end else begin
      small_sh = {small_sig, 3'b000} >> d;
      sticky   = ({small_sig, 3'b000} & ~(27'h7FFFFFF << d)) != 27'd0;
    end
    // The sticky bit joins the last extra bit (it is below the round bit for every d >= 2, and
    // zero for d <= 1, where nothing is shifted out).
    an_small = {small_sh[26:1], small_sh[0] | sticky};

    an_sp      = a_inf || b_inf;
    an_sp_zero = a_inf && b_inf && a_sign != b_sign;
    an_sp_sign = a_inf ? a_sign : b_sign;
  end

  // ------------------------------------------------------------------ b: add, leading zeros
  logic        bq_sp, bq_sp_zero, bq_sp_sign, bq_sign, bq_sub;
  logic [7:0]  bq_e;
  logic [23:0] bq_big;
  logic [26:0] bq_small;
  logic [27:0] sum;
  logic [4:0]  lz;
  logic        unused_lz_none;  // (the forced one below sum[26:0] keeps the count at 27 or less)
  assign sum = bq_sub ? ({1'b0, bq_big, 3'b000} - {1'b0, bq_small})
                      : ({1'b0, bq_big, 3'b000} + {1'b0, bq_small});
  // the leading zeros of sum[26:0], 27 for a zero sum
  ane_lzc #(.W(32)) u_lz (.v_i({sum[26:0], 1'b1, 4'd0}), .n_o(lz), .zero_o(unused_lz_none));
  // stage b's results
  logic        bn_sp, bn_sp_zero, bn_sp_sign, bn_sign;
  logic [7:0]  bn_e;
  logic [27:0] bn_sum;
  logic [4:0]  bn_lshift;

  always_comb begin
    // never below exponent 1 (a carry, sum[27], takes the right step instead)
    bn_lshift  = ({3'd0, lz} >= bq_e - 8'd1) ? 5'(bq_e - 8'd1) : lz;
    bn_sum     = sum;
    bn_e       = bq_e;
    bn_sign    = bq_sign;
    bn_sp      = bq_sp;
    bn_sp_zero = bq_sp_zero;
    bn_sp_sign = bq_sp_sign;
  end

  // ------------------------------------------------------------------ c: normalize, round
  logic        cq_sp, cq_sp_zero, cq_sp_sign, cq_sign;
  logic [7:0]  cq_e;
  logic [27:0] cq_sum;
  logic [4:0]  cq_lshift;
  logic [23:0] norm;         // the significand after a left shift (no rounding needed)
  logic [9:0]  e;
  logic [24:0] mant;

  // The rounding increment never waits for the shifter: it is needed only after a carry or a
  // left shift of 0 or 1. A left shift of 2 or more means at least 2 leading zeros, which only
  // an exponent difference d <= 1 gives (with d >= 2 the sum keeps bit 26 or 25); then the
  // low two extra bits of both operands, and so of the sum, are zero, the shifted guard bit
  // (sum bit 2 - shift) is zero and nothing rounds. So the three candidates round straight
  // from the registered sum, in parallel with the shift, and the shift's result is used as is.
  function automatic logic [24:0] round24(logic [23:0] v, logic inc_);
    logic [23:0] ones_;
    // v + inc_, the carries as a prefix AND (log depth): bit i flips when inc_ and bits
    // i - 1 .. 0 are all ones
    ones_ = v;
    for (int s = 1; s < 24; s = s * 2) ones_ = ones_ & ((ones_ << s) | ~(24'hFFFFFF << s));
    round24 = {inc_ & ones_[23], v ^ ({ones_[22:0], 1'b1} & {24{inc_}})};
  endfunction

  logic [24:0] m_c, m_0, m_1;
  always_comb begin
    m_c  = round24(cq_sum[27:4], cq_sum[3] && (cq_sum[2] || cq_sum[1] || cq_sum[0] || cq_sum[4]));
    m_0  = round24(cq_sum[26:3], cq_sum[2] && (cq_sum[1] || cq_sum[0] || cq_sum[3]));
    m_1  = round24(cq_sum[25:2], cq_sum[1] && (cq_sum[0] || cq_sum[2]));
    norm = 24'((cq_sum[26:0] << cq_lshift) >> 3);
    e    = {2'b00, cq_e};
    if (cq_sum[27]) begin
      mant = m_c;
      e    = e + 10'd1;
    end else begin
      e    = e - {5'd0, cq_lshift};
      if (cq_lshift == 5'd0)      mant = m_0;
      else if (cq_lshift == 5'd1) mant = m_1;
      else                        mant = {1'b0, norm};
    end
    if (mant[24]) begin
      mant = {1'b0, mant[24:1]};
      e    = e + 10'd1;
    end

    if (cq_sp) begin
      if (cq_sp_zero) y_o = 32'h0000_0000;
      else y_o = {cq_sp_sign, 8'hFF, 23'd0};
    end else if (mant == 25'd0) begin
      y_o = 32'h0000_0000;
    end else if (e >= 10'd255) begin
      y_o = {cq_sign, 8'hFF, 23'd0};
    end else begin
      y_o = {cq_sign, mant[23] ? e[7:0] : 8'd0, mant[22:0]};
    end
  end

  // ------------------------------------------------------------------ pipeline registers
  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({bq_sp, bq_sp_zero, bq_sp_sign, bq_sign, bq_sub, bq_e, bq_big, bq_small})), .Pipe(Pipe)) u_s1 (
    .clk_i, .en_i, .d_i({an_sp, an_sp_zero, an_sp_sign, an_sign, an_sub, an_e, an_big, an_small}),
    .q_o({bq_sp, bq_sp_zero, bq_sp_sign, bq_sign, bq_sub, bq_e, bq_big, bq_small})
  );
  ane_pipe_reg #(.W($bits({cq_sp, cq_sp_zero, cq_sp_sign, cq_sign, cq_e, cq_sum, cq_lshift})), .Pipe(Pipe)) u_s2 (
    .clk_i, .en_i, .d_i({bn_sp, bn_sp_zero, bn_sp_sign, bn_sign, bn_e, bn_sum, bn_lshift}),
    .q_o({cq_sp, cq_sp_zero, cq_sp_sign, cq_sign, cq_e, cq_sum, cq_lshift})
  );

endmodule
