// ane_mac_add12: the two-input adder of the quad stage (NUMERICS N-2.4). Combinational.
//   m1: add12(x, y) = RNE(x + y) on the grid 2^(e - 11), e = the larger exponent of the nonzero
//       operands: 12 significant bits relative to the larger operand, no sticky beyond the sum.
//   m5: the exact sum.
//   Both: zero + zero = +0, inf + finite = inf, inf + (-inf) = +0, zero results are +0.
// Values are mac_exact_t (mag * 2^-48); the sum of up to four products fits 83 bits.
`default_nettype none

module ane_mac_add12 #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire ane_pkg::mac_exact_t x_i,
  input  wire ane_pkg::mac_exact_t y_i,
  output      ane_pkg::mac_exact_t s_o
);

  // Index of the highest set bit (0 for zero).
  function automatic logic [6:0] msb_index(logic [82:0] v);
    logic [6:0] idx;
    idx = 7'd0;
    for (int add_bit = 0; add_bit < 83; add_bit++) begin
      if (v[add_bit]) idx = 7'(add_bit);
    end
    msb_index = idx;
  endfunction

  logic        x_big;
  logic [83:0] sum;
  logic        sum_sign;
  logic [6:0]  e;
  logic [6:0]  k;          // rounding position: bit index of one grid step
  logic [83:0] low_mask, low_bits, half;
  logic        round_up;
  logic [83:0] rounded;

  always_comb begin
    // Exact sign-magnitude sum.
    x_big = x_i.mag >= y_i.mag;
    if (x_i.sign == y_i.sign) begin
      sum      = {1'b0, x_i.mag} + {1'b0, y_i.mag};
      sum_sign = x_i.sign;
    end else if (x_big) begin
      sum      = {1'b0, x_i.mag} - {1'b0, y_i.mag};
      sum_sign = x_i.sign;
    end else begin
      sum      = {1'b0, y_i.mag} - {1'b0, x_i.mag};
      sum_sign = y_i.sign;
    end

    // m1: round to the grid 2^(e - 11) of the larger operand (msb of the larger magnitude).
    e        = msb_index(x_big ? x_i.mag : y_i.mag);
    k        = (e > 7'd11) ? (e - 7'd11) : 7'd0;
    low_mask = ~({84{1'b1}} << k);
    low_bits = sum & low_mask;
    half     = (k == 7'd0) ? 84'd0 : (84'd1 << (k - 7'd1));
    round_up = (k != 7'd0) && ((low_bits > half) || ((low_bits == half) && sum[k]));
    rounded  = (sum & ~low_mask) + (round_up ? (84'd1 << k) : 84'd0);
    if (Gen == ane_pkg::GenM5) rounded = sum;

    s_o = '0;
    if (x_i.inf || y_i.inf) begin
      if (x_i.inf && y_i.inf && (x_i.sign != y_i.sign)) begin
        s_o = '0;  // inf + (-inf) = +0
      end else begin
        s_o.inf  = 1'b1;
        s_o.sign = x_i.inf ? x_i.sign : y_i.sign;
      end
    end else begin
      s_o.mag  = rounded[82:0];
      s_o.sign = sum_sign && (rounded != 84'd0);
    end
  end

endmodule

`default_nettype wire
