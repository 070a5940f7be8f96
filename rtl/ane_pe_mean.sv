// SPDX-License-Identifier: Apache-2.0
// ane_pe_mean: the edge-correct mean of a pooling window (NUMERICS N-4.5; docs/planar.md):
// y = RNE16(sum / n), the fp32 tree sum divided exactly by the number n (1..64) of real
// elements, one rounding to fp16 (gradual underflow, overflow to inf, zero results +0).
// The sum is a sum of fp16 values (the tree's output), so it is inf, +0, or a normal fp32 value
// of at least 2^-24 in magnitude.
//
// Datapath: num = m * 2^8 (m the 24-bit significand, so num in [2^31, 2^32)) and n in 1..64, so
// the quotient num / n has its leading one at bit 25 or above and only its bits 31..14 are
// computed: q = floor(num / 2^14 / n) (18 restoring steps; at least 12 significant bits, so the
// fp16 significand and the guard bit are among them) with remainder r. Below bit 14 the exact
// quotient has (r 2^14 + num[13:0]) / n < 2^14, nonzero exactly when r or num[13:0] is: the
// sticky bit. (q + sticky) * 2^(e - 127 - 23 - 8 + 14) is rounded to fp16 as any wide value is
// rounded (leading one, exponent, 11 bits, guard, sticky), with the leading one
// placed at bit 17 and the exponent's part of the rounding (the bits to drop below the normal
// range, the biased exponent, overflow) computed a stage early: the exponent is known after
// stage 2, and the rounding stage alone was the pooling unit's longest path (192 MHz in a
// two-lane pooling path; 202 MHz alone).
//
// Six stages: quotient bits 17..12, 11..9, 8..6, 5..3, 2..0 (restoring steps; the fifth also
// the rounding's exponent facts), then the normalization of q, the sticky bit, the rounding
// and the specials. Pipe = 1 puts a register (enable en_i) after each of the first five
// (latency 5); Pipe = 0 makes the block combinational.
`default_nettype none

module ane_pe_mean #(
  parameter bit Pipe = 1'b0
) (
  input  wire logic        clk_i,
  input  wire logic        en_i,
  input  wire logic [31:0] sum_i,
  input  wire logic [6:0]  n_i,
  output      logic [15:0] y_o
);

  // One restoring step: the partial remainder r (< n <= 64, so 6 bits) with the next numerator
  // bit, against n: {quotient bit, new remainder}.
  function automatic logic [6:0] div_step(logic [5:0] r, logic nb, logic [6:0] n);
    logic [6:0] t;
    t = {r, nb};
    div_step = (t >= n) ? {1'b1, 6'(t - n)} : {1'b0, t[5:0]};
  endfunction

  // The five division stages: quotient bits 17..12, 11..9, 8..6, 5..3, 2..0 of num[31:14] / n.
  // Stage k's inputs (sum, n, remainder, quotient bits so far) are the x<k>_ signals, its
  // outputs y<k>_; the rounding stage takes p_.
  function automatic logic [23:0] div_bits(logic [22:0] frac, logic [6:0] n, logic [5:0] r_in,
                                           logic [17:0] q_in, int hi, int lo);
    logic [31:0] num;
    logic [5:0]  r;
    logic [17:0] q;
    logic [6:0]  st;
    num = {1'b1, frac, 8'd0};
    r   = r_in;
    q   = q_in;
    for (int i = 17; i >= 0; i--) begin
      if (i <= hi && i >= lo) begin
        st   = div_step(r, num[i + 14], n);
        q[i] = st[6];
        r    = st[5:0];
      end
    end
    div_bits = {r, q};
  endfunction

  logic [31:0] x1_sum, x2_sum, x3_sum, x4_sum, p_sum;
  logic [6:0]  x1_n, x2_n, x3_n, x4_n;
  logic [5:0]  x1_r, x2_r, x3_r, x4_r, p_r;
  logic [17:0] x1_q, x2_q, x3_q, x4_q, p_q;
  logic [23:0] y0, y1, y2, y3, y4;   // {remainder, quotient bits}
  // The normalization of q (see the rounding stage) from its bits 17..11, known after stage 1:
  // the shift k and the exponent of the shifted q's last bit, computed in stage 2 and carried.
  logic [2:0]  k2, x3_k, x4_k, p_k;
  logic signed [9:0] lsb2, x3_lsb, x4_lsb;
  // the rounding's exponent facts (round_facts), from stage 4's exponent: {overflow, biased
  // exponent, bits dropped below the kept 11}
  logic [12:0] f4, p_f;
  logic       unused_k2_none;  // (the forced one at bit 1 keeps k2 at 6 or less)
  ane_lzc #(.W(8)) u_k2 (.v_i({x2_q[17:12], 2'b10}), .n_o(k2), .zero_o(unused_k2_none));
  always_comb begin
    // value = (q + sticky) * 2^(exp - 127 - 23 - 8 + 14)
    lsb2 = $signed({2'd0, x2_sum[30:23]}) - 10'sd144 - $signed({7'd0, k2});
  end

  // The rounding's facts that depend on the exponent alone (known since stage 2, so computed a
  // stage ahead of the rounding): the leading one of the shifted q sits at bit 17, so its
  // exponent is e = lsb + 17; a normal result keeps 11 bits (7 of the 18 drop), one below the
  // normal range (e < -14) keeps fewer and has biased exponent 0; e > 15 overflows.
  function automatic logic [12:0] round_facts(logic signed [9:0] lsb);
    logic signed [10:0] e, extra;
    logic [5:0] sh, eb;
    e = $signed({lsb[9], lsb}) + 11'sd17;
    extra = (e < -11'sd14) ? -11'sd14 - e : 11'sd0;
    sh = (extra > 11'sd25) ? 6'd32 : 6'(11'sd7 + extra);
    eb = (e < -11'sd14) ? 6'd0 : 6'(e + 11'sd15);
    round_facts = {e > 11'sd15, eb, sh};
  endfunction
  assign f4 = round_facts(x4_lsb);

  assign y0 = div_bits(sum_i[22:0], n_i, 6'd0, 18'd0, 17, 12);
  assign y1 = div_bits(x1_sum[22:0], x1_n, x1_r, x1_q, 11, 9);
  assign y2 = div_bits(x2_sum[22:0], x2_n, x2_r, x2_q, 8, 6);
  assign y3 = div_bits(x3_sum[22:0], x3_n, x3_r, x3_q, 5, 3);
  assign y4 = div_bits(x4_sum[22:0], x4_n, x4_r, x4_q, 2, 0);

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with enable en_i and no reset;
  // Pipe = 0, wires).
  ane_pipe_reg #(.W($bits({x1_sum, x1_n, {x1_r, x1_q}})), .Pipe(Pipe)) u_x1 (
    .clk_i, .en_i, .d_i({sum_i, n_i, y0}),
    .q_o({x1_sum, x1_n, {x1_r, x1_q}})
  );
  ane_pipe_reg #(.W($bits({x2_sum, x2_n, {x2_r, x2_q}})), .Pipe(Pipe)) u_x2 (
    .clk_i, .en_i, .d_i({x1_sum, x1_n, y1}),
    .q_o({x2_sum, x2_n, {x2_r, x2_q}})
  );
  ane_pipe_reg #(.W($bits({x3_sum, x3_n, {x3_r, x3_q}, x3_k, x3_lsb})), .Pipe(Pipe)) u_x3 (
    .clk_i, .en_i, .d_i({x2_sum, x2_n, y2, k2, lsb2}),
    .q_o({x3_sum, x3_n, {x3_r, x3_q}, x3_k, x3_lsb})
  );
  ane_pipe_reg #(.W($bits({x4_k, x4_lsb, x4_sum, x4_n, {x4_r, x4_q}})), .Pipe(Pipe)) u_x4 (
    .clk_i, .en_i, .d_i({x3_k, x3_lsb, x3_sum, x3_n, y3}),
    .q_o({x4_k, x4_lsb, x4_sum, x4_n, {x4_r, x4_q}})
  );
  ane_pipe_reg #(.W($bits({p_k, p_f, p_sum, {p_r, p_q}})), .Pipe(Pipe)) u_p (
    .clk_i, .en_i, .d_i({x4_k, f4, x4_sum, y4}),
    .q_o({p_k, p_f, p_sum, {p_r, p_q}})
  );

  // The rounding stage. q lies in [2^11, 2^18): it is shifted left by k = 17 - (its leading
  // one, among bits 17..11: known after stage 1, so k and the exponent come from stage 2) to
  // put the leading one at bit 17, and the exponent of its last bit drops by k. The
  // k <= 6 zero bits shifted in lie below the guard bit of every rounding (11 bits are kept
  // from bit 17), so with the sticky bit they stand for the exact remainder; and a leading one
  // at a fixed place makes the rounding's leading-one search a constant.
  // num[13:0] = {sum[5:0], 8'd0}.
  logic [16:0] qn;           // below the leading one
  logic [15:0] packed_y;
  assign qn = 17'(p_q << p_k);

  // RNE16 of (mag + sticky) 2^lsb, mag = 1 qn (leading one at bit 17), with the exponent's part
  // (p_f) done a stage earlier.
  logic [31:0] mag, lost;
  logic [5:0]  sh, ebias;
  logic [11:0] kept, sig;
  logic        ovf, guard, sticky, inc;
  always_comb begin
    {ovf, ebias, sh} = p_f;
    mag    = {14'd0, 1'b1, qn};
    kept   = 12'(mag >> sh);
    guard  = mag[5'(sh - 6'd1)];
    lost   = mag & ~(32'hFFFF_FFFF << (sh - 6'd1));
    sticky = lost != 32'd0 || p_r != 6'd0 || p_sum[5:0] != 6'd0;
    inc    = guard && (sticky || kept[0]);
    sig    = kept + {11'd0, inc};
    if (sig[11]) begin  // the rounding carried into the next binade
      sig   = {1'b0, sig[11:1]};
      ebias = ebias + 6'd1;
    end else if (ebias == 6'd0 && sig[10]) begin  // a denormal rounded up to the smallest normal
      ebias = 6'd1;
    end
    if (ebias >= 6'd31 || ovf)     packed_y = {p_sum[31], 5'h1F, 10'd0};
    else if (sig[10:0] == 11'd0)   packed_y = 16'h0000;
    else                           packed_y = {p_sum[31], ebias[4:0], sig[9:0]};
  end

  always_comb begin
    if (p_sum[30:23] == 8'hFF) y_o = {p_sum[31] && p_sum[22:0] == 23'd0, 5'h1F, 10'd0};  // +-inf (NaN: +inf)
    else if (p_sum[30:0] == 31'd0) y_o = 16'h0000;
    else y_o = packed_y;
  end

endmodule
