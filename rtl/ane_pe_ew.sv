// SPDX-License-Identifier: Apache-2.0
// ane_pe_ew: the planar engine's elementwise unit, one element per lane per cycle (NUMERICS
// N-1, N-4.1, N-4.2, N-4.3; docs/planar.md). Every operation is one fp16 operation with RNE
// after the N-1 boundary (the ternaries two, each rounding).
//
//   op (ane_pkg::pe_ew_op_e)  add a+b, sub a-b, mul a*b, max, min, compare (+1, +0, -1 as
//       a >, ==, < b), abs, neg, relu max(a, +0), square a*a, a + b*c, (a + b)*c, pass a (the
//       code unchanged)
//
// Each lane has two steps: S1 runs a multiplier (a*b, a*a or b*c) and an adder (a+b or a-b) in
// parallel and the compare-based operations; S2 runs the ternaries' second operation (a +
// S1's product, or S1's sum * c). The fp16 units run with Pipe = 1 (three stages each), so S1
// is stages 1-3 and S2 stages 4-6. Latency 6, one vector per cycle, valid/ready; the stages
// advance together and stall only while a result waits at the output.
`default_nettype none

module ane_pe_ew #(
  parameter int unsigned NumLanes = 16
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire ane_pkg::pe_ew_op_e     in_op_i,
  input  wire logic [NumLanes*16-1:0] in_a_i,
  input  wire logic [NumLanes*16-1:0] in_b_i,
  input  wire logic [NumLanes*16-1:0] in_c_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_y_o
);

  // Order of two boundary values: 1 when a > b, -1 (2'b11) when a < b, 0 when equal.
  function automatic logic [1:0] order(logic [15:0] a, logic [15:0] b);
    logic gt, lt;
    if (a[15] != b[15]) begin
      gt = !a[15];
      lt = a[15];
    end else if (!a[15]) begin
      gt = a[14:0] > b[14:0];
      lt = a[14:0] < b[14:0];
    end else begin
      gt = a[14:0] < b[14:0];
      lt = a[14:0] > b[14:0];
    end
    order = gt ? 2'b01 : (lt ? 2'b11 : 2'b00);
  endfunction

  localparam int unsigned Depth = 6;

  logic en;
  logic [Depth-1:0] v_q;
  logic [3:0] op1_q, op2_q, op3_q, op4_q, op5_q;
  assign en          = !v_q[Depth-1] || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v_q[Depth-1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= '0;
    end else if (en) begin
      v_q <= {v_q[Depth-2:0], in_valid_i};
    end
  end
  always_ff @(posedge clk_i) begin
    if (en) begin
      op1_q <= in_op_i;
      op2_q <= op1_q;
      op3_q <= op2_q;
      op4_q <= op3_q;
      op5_q <= op4_q;
    end
  end

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    logic [15:0] a, b, c, ab, bb;
    logic [15:0] mul_x, mul_y, mul1, add1, simple;
    logic [1:0]  ord;
    always_comb begin
      a  = in_a_i[16*l +: 16];
      b  = in_b_i[16*l +: 16];
      c  = in_c_i[16*l +: 16];
      ab = ane_pkg::fp16_boundary(a);  // N-1: NaN -> +inf, -0 -> +0
      bb = ane_pkg::fp16_boundary(b);
      mul_x = (in_op_i == ane_pkg::PeEwAddMul) ? b : a;
      mul_y = (in_op_i == ane_pkg::PeEwAddMul) ? c : (in_op_i == ane_pkg::PeEwSquare) ? a : b;
      ord   = order(ab, (in_op_i == ane_pkg::PeEwRelu) ? 16'h0000 : bb);
      unique case (in_op_i)
        ane_pkg::PeEwMax:  simple = (ord != 2'b11) ? ab : bb;
        ane_pkg::PeEwMin:  simple = (ord != 2'b01) ? ab : bb;
        ane_pkg::PeEwCmp:  simple = (ord == 2'b01) ? ane_pkg::fp16_unit(1'b0) : (ord == 2'b11) ? ane_pkg::fp16_unit(1'b1) : ane_pkg::Fp16PosZero;
        ane_pkg::PeEwAbs:  simple = {1'b0, ab[14:0]};
        ane_pkg::PeEwNeg:  simple = {!ab[15], ab[14:0]};
        ane_pkg::PeEwRelu: simple = (ord != 2'b11) ? ab : 16'h0000;
        ane_pkg::PeEwPass: simple = a;
        default: simple = 16'h0000;
      endcase
    end
    // S1 (stages 1-3)
    ane_fp16_mul #(.Pipe(1'b1)) u_mul1 (
      .clk_i(clk_i), .en_i(en), .a_i(mul_x), .b_i(mul_y), .y_o(mul1));
    ane_fp16_add #(.Pipe(1'b1)) u_add1 (
      .clk_i(clk_i), .en_i(en), .a_i(a), .b_i(b), .sub_i(in_op_i == ane_pkg::PeEwSub), .y_o(add1));

    logic [15:0] a1_q, a2_q, a3_q, c1_q, c2_q, c3_q, mul3_q, add3_q;
    logic [15:0] simple1_q, simple2_q, simple3_q, simple4_q, simple5_q;
    logic [15:0] mul4_q, mul5_q, add4_q, add5_q;
    always_ff @(posedge clk_i) begin
      if (en) begin
        a1_q      <= a;
        a2_q      <= a1_q;
        a3_q      <= a2_q;
        c1_q      <= c;
        c2_q      <= c1_q;
        c3_q      <= c2_q;
        mul3_q    <= mul1;
        add3_q    <= add1;
        simple1_q <= simple;
        simple2_q <= simple1_q;
        simple3_q <= simple2_q;
        simple4_q <= simple3_q;
        simple5_q <= simple4_q;
        mul4_q    <= mul3_q;
        mul5_q    <= mul4_q;
        add4_q    <= add3_q;
        add5_q    <= add4_q;
      end
    end

    // S2 (stages 4-6): the second operation of a ternary.
    logic [15:0] add2, mul2, y;
    ane_fp16_add #(.Pipe(1'b1)) u_add2 (
      .clk_i(clk_i), .en_i(en), .a_i(a3_q), .b_i(mul3_q), .sub_i(1'b0), .y_o(add2));
    ane_fp16_mul #(.Pipe(1'b1)) u_mul2 (
      .clk_i(clk_i), .en_i(en), .a_i(add3_q), .b_i(c3_q), .y_o(mul2));
    always_comb begin
      unique case (op5_q)
        ane_pkg::PeEwAdd, ane_pkg::PeEwSub:    y = add5_q;
        ane_pkg::PeEwMul, ane_pkg::PeEwSquare: y = mul5_q;
        ane_pkg::PeEwAddMul:                   y = add2;
        ane_pkg::PeEwMulAfterAdd:              y = mul2;
        default:                               y = simple5_q;
      endcase
    end
    always_ff @(posedge clk_i) begin
      if (en) out_y_o[16*l +: 16] <= y;
    end
  end

`ifndef SYNTHESIS
  // Out of reset only: a unit held in reset ignores its inputs, whatever they carry.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (in_valid_i) assert (in_op_i <= ane_pkg::PeEwPass);
    end
  end
`endif

endmodule
