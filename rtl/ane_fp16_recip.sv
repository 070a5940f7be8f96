// ane_fp16_recip: the planar post-processor's reciprocal (NUMERICS N-1, N-4.1; docs/planar.md).
// Combinational. y = RNE_fp16(1 / x) after N-1: 1/(+0) = +inf (-0 enters as +0),
// 1/(+-inf) = +-0 (IEEE signs), denormal results kept, overflow to inf.
//
// Datapath: x = m * 2^e with m normalized to 11 bits; q = floor(2^24 / m) by restoring
// division (14 or 15 bits), sticky when a remainder is left; y = ane_fp16_pack(q * 2^(-24 - e)).
`default_nettype none

module ane_fp16_recip (
  input  wire logic [15:0] x_i,
  output      logic [15:0] y_o
);

  logic [15:0] b;
  logic [20:0] nm;
  logic [10:0] m;
  logic [24:0] q;
  logic [11:0] r;
  logic [15:0] packed_y;
  logic signed [9:0] lsb;

  always_comb begin
    b  = ane_pkg::fp16_boundary(x_i);
    nm = ane_pkg::fp16_normalize(b);
    m  = nm[10:0];
    // Restoring division of 2^24 by m, one quotient bit per step.
    r = 12'd0;
    q = 25'd0;
    for (int i = 24; i >= 0; i--) begin
      logic [11:0] t;
      t = {r[10:0], (i == 24) ? 1'b1 : 1'b0};
      if (t >= {1'b0, m}) begin
        r    = t - {1'b0, m};
        q[i] = 1'b1;
      end else begin
        r = t;
      end
    end
    lsb = -10'sd24 - $signed(nm[20:11]);
  end

  ane_fp16_pack u_pack (.neg_i(b[15]), .mag_i({7'd0, q}), .lsb_exp_i(lsb), .sticky_i(r != 12'd0),
                        .y_o(packed_y));

  always_comb begin
    if (b[14:0] == 15'd0)       y_o = 16'h7C00;           // 1 / +0
    else if (b[14:10] == 5'h1F) y_o = {b[15], 15'd0};     // 1 / +-inf = +-0
    else                        y_o = packed_y;
  end

endmodule
