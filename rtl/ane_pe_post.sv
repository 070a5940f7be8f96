// SPDX-License-Identifier: Apache-2.0
// ane_pe_post: the planar post-processor (NUMERICS N-4.1, N-4.2; docs/planar.md): per lane, one
// of the exact, correctly rounded units (ane_fp16_sqrt, ane_fp16_recip, ane_fp16_rsqrt) or the
// value unchanged, NumLanes lanes, valid/ready, one vector per cycle.
//
//   in_op_i   ane_pkg::pe_post_op_e: pass (the code unchanged), sqrt, recip, rsqrt (for a whole vector)
//   S1        the accepted vector and its operation, registered (x1)
//   S2..S10   ane_fp16_rsqrt (Pipe = 1, nine registers) from x1; the vector moves on along
//             x2..x10 (and its operation along op2..op10); ane_fp16_sqrt and ane_fp16_recip
//             (Pipe = 1, four registers each) start from x6, so all three results are ready
//             in the same cycle
//   S11       the operation's result (op10: sqrt, recip, rsqrt or x10) registered: out_*
// A vector accepted in cycle t leaves in cycle t + 11. Every register of every stage has the
// one enable en (the stages advance together) and stalls only while a result waits at the
// output. The stage lengths are the units' digit-step segments (three steps of about 1.3 ns).
`default_nettype none

module ane_pe_post #(
  parameter int NumLanes = 4
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire ane_pkg::pe_post_op_e   in_op_i,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_data_o
);

  localparam int Depth = 11;  // registers from input to output

  logic                   en;
  logic [Depth-1:0]       v_q;             // v_q[k]: stage k + 1 holds a vector
  logic [Depth*2-3:0]     op_q;            // op_q[2k +: 2]: the operation of stage k + 1
  logic [(Depth-1)*NumLanes*16-1:0] x_q;   // x_q[16*NumLanes*k +: 16*NumLanes]: stage k + 1
  logic [NumLanes*16-1:0] x1, x6, x10, y10, y11_q;
  logic [1:0]             op10;

  assign en          = !v_q[Depth-1] || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v_q[Depth-1];
  assign out_data_o  = y11_q;
  assign x1          = x_q[0 +: NumLanes*16];
  assign x6          = x_q[5*NumLanes*16 +: NumLanes*16];
  assign x10         = x_q[9*NumLanes*16 +: NumLanes*16];
  assign op10        = op_q[18 +: 2];

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic [15:0] sq, rc, rs;
    ane_fp16_rsqrt #(.Pipe(1'b1)) u_rsqrt (.clk_i, .en_i(en), .x_i(x1[l*16 +: 16]), .y_o(rs));
    ane_fp16_sqrt  #(.Pipe(1'b1)) u_sqrt  (.clk_i, .en_i(en), .x_i(x6[l*16 +: 16]), .y_o(sq));
    ane_fp16_recip #(.Pipe(1'b1)) u_recip (.clk_i, .en_i(en), .x_i(x6[l*16 +: 16]), .y_o(rc));
    always_comb begin
      unique case (op10)
        ane_pkg::PePostSqrt:  y10[l*16 +: 16] = sq;
        ane_pkg::PePostRecip: y10[l*16 +: 16] = rc;
        ane_pkg::PePostRsqrt: y10[l*16 +: 16] = rs;
        default:              y10[l*16 +: 16] = x10[l*16 +: 16];  // PePostPass
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else if (en) v_q <= {v_q[Depth-2:0], in_valid_i};
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      op_q  <= {op_q[Depth*2-5:0], in_op_i};
      x_q   <= {x_q[(Depth-2)*NumLanes*16-1:0], in_data_i};
      y11_q <= y10;
    end
  end

endmodule
