// ane_pe_mean: the edge-correct mean of a pooling window (NUMERICS N-4.5; docs/planar.md):
// y = RNE16(sum / n), the fp32 tree sum divided exactly by the number n (1..64) of real
// elements, one rounding to fp16 (gradual underflow, overflow to inf, zero results +0).
// Combinational. The sum is a sum of fp16 values (the tree's output), so it is inf, +0, or a
// normal fp32 value of at least 2^-24 in magnitude.
//
// Datapath: num = m * 2^8 (m the 24-bit significand, so num in [2^31, 2^32)) and n in 1..64, so
// the quotient num / n has its leading one at bit 25 or above and only its bits 31..14 are
// computed: q = floor(num / 2^14 / n) (18 restoring steps; at least 12 significant bits, so the
// fp16 significand and the guard bit are among them) with remainder r. Below bit 14 the exact
// quotient has (r 2^14 + num[13:0]) / n < 2^14, nonzero exactly when r or num[13:0] is: the
// sticky bit. ane_fp16_pack rounds (q + sticky) * 2^(e - 127 - 23 - 8 + 14) to fp16 like any
// wide value: leading one, exponent, 11 bits, guard, sticky.
`default_nettype none

module ane_pe_mean (
  input  wire logic [31:0] sum_i,
  input  wire logic [6:0]  n_i,
  output      logic [15:0] y_o
);

  logic [23:0] m;
  logic [31:0] num;
  logic [17:0] q;
  logic [6:0]  r;
  logic signed [9:0] lsb;    // exponent of q's last bit
  logic [15:0] packed_y;

  always_comb begin
    m   = {1'b1, sum_i[22:0]};
    num = {m, 8'd0};
    // Restoring division of num[31:14] by n, one quotient bit per step.
    r = 7'd0;
    q = 18'd0;
    for (int i = 17; i >= 0; i--) begin
      logic [7:0] t;
      t = {r, num[i + 14]};
      if (t >= {1'b0, n_i}) begin
        r    = 7'(t - {1'b0, n_i});
        q[i] = 1'b1;
      end else begin
        r = t[6:0];
      end
    end
    // value = (q + sticky) * 2^(exp - 127 - 23 - 8 + 14)
    lsb = $signed({2'd0, sum_i[30:23]}) - 10'sd144;
  end

  ane_fp16_pack u_pack (.neg_i(sum_i[31]), .mag_i({14'd0, q}), .lsb_exp_i(lsb), .sticky_i(r != 7'd0 || num[13:0] != 14'd0),
                       .y_o(packed_y));

  always_comb begin
    if (sum_i[30:23] == 8'hFF) y_o = {sum_i[31] && sum_i[22:0] == 23'd0, 5'h1F, 10'd0};  // +-inf (NaN: +inf)
    else if (sum_i[30:0] == 31'd0) y_o = 16'h0000;
    else y_o = packed_y;
  end

endmodule
