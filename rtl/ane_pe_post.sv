// ane_pe_post: the planar post-processor (NUMERICS N-4.1, N-4.2; docs/planar.md): per lane, one
// of the exact, correctly rounded units (ane_fp16_sqrt, ane_fp16_recip, ane_fp16_rsqrt) or the
// value unchanged, NumLanes lanes, valid/ready, one vector per cycle.
//
//   in_op_i   0 pass (the code unchanged), 1 sqrt, 2 recip, 3 rsqrt (for a whole vector)
//   S1        the accepted vector and its operation, registered
//   S2        the three units side by side, the operation's result registered: out_*
// A vector accepted in cycle t leaves in cycle t + 2. The stages advance together and stall
// only while a result waits at the output. The units are combinational between the two
// registers: the stage's length is the slowest unit's (docs/results.md).
`default_nettype none

module ane_pe_post #(
  parameter int NumLanes = 4
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [1:0]             in_op_i,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_data_o
);

  logic                   en, v1_q, v2_q;
  logic [1:0]             op1_q;
  logic [NumLanes*16-1:0] x1_q, y1, y2_q;

  assign en          = !v2_q || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v2_q;
  assign out_data_o  = y2_q;

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic [15:0] sq, rc, rs;
    ane_fp16_sqrt  u_sqrt  (.x_i(x1_q[l*16 +: 16]), .y_o(sq));
    ane_fp16_recip u_recip (.x_i(x1_q[l*16 +: 16]), .y_o(rc));
    ane_fp16_rsqrt u_rsqrt (.x_i(x1_q[l*16 +: 16]), .y_o(rs));
    always_comb begin
      unique case (op1_q)
        2'd1:    y1[l*16 +: 16] = sq;
        2'd2:    y1[l*16 +: 16] = rc;
        2'd3:    y1[l*16 +: 16] = rs;
        default: y1[l*16 +: 16] = x1_q[l*16 +: 16];
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v1_q <= 1'b0;
      v2_q <= 1'b0;
    end else if (en) begin
      v1_q <= in_valid_i;
      v2_q <= v1_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      op1_q <= in_op_i;
      x1_q  <= in_data_i;
      y2_q  <= y1;
    end
  end

endmodule
