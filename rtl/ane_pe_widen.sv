// ane_pe_widen: a planar reduction input (NUMERICS N-4.4 with N-1). Combinational.
// y = the fp16 value x after N-1 (NaN -> +inf, -0 -> +0) as an exact fp32 value when valid_i,
// otherwise the identity of the operator op_i: +0 (0 sum), -inf (1 max), +inf (2 min).
`default_nettype none

module ane_pe_widen (
  input  wire logic [1:0]  op_i,
  input  wire logic        valid_i,
  input  wire logic [15:0] x_i,
  output      logic [31:0] y_o
);

  logic [3:0] msb;
  logic [9:0] f;

  always_comb begin
    msb = 4'd0;
    for (int i = 0; i < 10; i++) if (x_i[i]) msb = 4'(i);
    f = 10'(x_i[9:0] << (4'd10 - msb));
    if (!valid_i) begin
      y_o = (op_i == 2'd0) ? 32'h0000_0000 : (op_i == 2'd1) ? 32'hFF80_0000 : 32'h7F80_0000;
    end else if (x_i[14:10] == 5'h1F) begin
      y_o = {x_i[15] && x_i[9:0] == 10'd0, 8'hFF, 23'd0};           // inf; NaN -> +inf
    end else if (x_i[14:10] != 5'd0) begin
      y_o = {x_i[15], {3'd0, x_i[14:10]} + 8'd112, x_i[9:0], 13'd0};  // normal
    end else if (x_i[9:0] != 10'd0) begin
      y_o = {x_i[15], 8'(8'd103 + {4'd0, msb}), f, 13'd0};           // subnormal, normalized
    end else begin
      y_o = 32'd0;                                                  // +-0 -> +0
    end
  end

endmodule
