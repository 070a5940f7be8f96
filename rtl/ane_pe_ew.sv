// ane_pe_ew: the planar engine's elementwise unit, one element per lane per cycle (NUMERICS
// N-1, N-4.1, N-4.2, N-4.3; docs/planar.md). Every operation is one fp16 operation with RNE
// after the N-1 boundary (the ternaries two, each rounding).
//
//   op  0 add a+b   1 sub a-b   2 mul a*b   3 max   4 min   5 compare (+1, +0, -1 as a >, ==, < b)
//       6 abs       7 neg       8 relu max(a, +0)   9 square a*a
//       10 a + b*c  11 (a + b)*c
//
// Each lane has two stages: S1 runs a multiplier (a*b, a*a or b*c) and an adder (a+b or a-b) in
// parallel and the compare-based operations; S2 runs the ternaries' second operation (a +
// S1's product, or S1's sum * c). Latency 2, one vector per cycle, valid/ready; the stages
// advance together and stall only while a result waits at the output.
`default_nettype none

module ane_pe_ew #(
  parameter int unsigned NumLanes = 16
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [3:0]             in_op_i,
  input  wire logic [NumLanes*16-1:0] in_a_i,
  input  wire logic [NumLanes*16-1:0] in_b_i,
  input  wire logic [NumLanes*16-1:0] in_c_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_y_o
);

  localparam logic [3:0] OpAdd = 4'd0, OpSub = 4'd1, OpMul = 4'd2, OpMax = 4'd3, OpMin = 4'd4,
                         OpCmp = 4'd5, OpAbs = 4'd6, OpNeg = 4'd7, OpRelu = 4'd8, OpSquare = 4'd9,
                         OpAddMul = 4'd10, OpMulAfterAdd = 4'd11;

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

  logic en;
  logic v1_q, v2_q;
  logic [3:0] op1_q;
  assign en          = !v2_q || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v2_q;

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
    if (en) op1_q <= in_op_i;
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
      mul_x = (in_op_i == OpAddMul) ? b : a;
      mul_y = (in_op_i == OpAddMul) ? c : (in_op_i == OpSquare) ? a : b;
      ord   = order(ab, (in_op_i == OpRelu) ? 16'h0000 : bb);
      unique case (in_op_i)
        OpMax:   simple = (ord != 2'b11) ? ab : bb;
        OpMin:   simple = (ord != 2'b01) ? ab : bb;
        OpCmp:   simple = (ord == 2'b01) ? 16'h3C00 : (ord == 2'b11) ? 16'hBC00 : 16'h0000;
        OpAbs:   simple = {1'b0, ab[14:0]};
        OpNeg:   simple = {!ab[15], ab[14:0]};
        OpRelu:  simple = (ord != 2'b11) ? ab : 16'h0000;
        default: simple = 16'h0000;
      endcase
    end
    ane_fp16_mul u_mul1 (.a_i(mul_x), .b_i(mul_y), .y_o(mul1));
    ane_fp16_add u_add1 (.a_i(a), .b_i(b), .sub_i(in_op_i == OpSub), .y_o(add1));

    // S1 registers.
    logic [15:0] a1_q, c1_q, mul1_q, add1_q, simple1_q;
    always_ff @(posedge clk_i) begin
      if (en) begin
        a1_q      <= a;
        c1_q      <= c;
        mul1_q    <= mul1;
        add1_q    <= add1;
        simple1_q <= simple;
      end
    end

    // S2: the second operation of a ternary.
    logic [15:0] add2, mul2, y;
    ane_fp16_add u_add2 (.a_i(a1_q), .b_i(mul1_q), .sub_i(1'b0), .y_o(add2));
    ane_fp16_mul u_mul2 (.a_i(add1_q), .b_i(c1_q), .y_o(mul2));
    always_comb begin
      unique case (op1_q)
        OpAdd, OpSub:     y = add1_q;
        OpMul, OpSquare:  y = mul1_q;
        OpAddMul:         y = add2;
        OpMulAfterAdd:    y = mul2;
        default:          y = simple1_q;
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
      if (in_valid_i) assert (in_op_i <= OpMulAfterAdd);
    end
  end
`endif

endmodule
