// ane_pe_reduce: the planar engine's reduction tree with its running register (NUMERICS N-4.4;
// docs/planar.md). One patch of 64 fp16 values per cycle, fully pipelined.
//
//   inputs     value i enters through N-1 (NaN -> +inf, -0 -> +0) as an exact fp32 value when
//              mask bit i is set, otherwise as the identity of the operator (+0, -inf, +inf)
//   tree       levels of 32, 16, 8, 4, 2 and 1 two-input nodes, level k pairing (2i, 2i + 1) of
//              level k - 1; sum nodes are fp32 RNE adders (ane_fp32_add), max / min exact
//   register   acc = tree of the first patch of a reduction, then node(acc, tree)
//   result     after the patch marked last: the fp32 register and its fp16 store (RNE with the
//              plain fp16 range: just above 65504 gives 65504, from 65520 inf)
//
// Stages: S1 (inputs and level 1) .. S6 (level 6), S7 (running register, result). A patch
// accepted in cycle t gives its result in cycle t + 7; the stages advance together and stall
// only while a result waits at the output.
`default_nettype none

module ane_pe_reduce (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            in_valid_i,
  output      logic            in_ready_o,
  input  wire logic [1:0]      in_op_i,      // 0 sum, 1 max, 2 min
  input  wire logic            in_first_i,   // the first patch of a reduction
  input  wire logic            in_last_i,    // the last patch: the result leaves after it
  input  wire logic [63:0]     in_mask_i,
  input  wire logic [64*16-1:0] in_data_i,
  output      logic            out_valid_o,
  input  wire logic            out_ready_i,
  output      logic [31:0]     out_fp32_o,
  output      logic [15:0]     out_fp16_o
);

  // ---------------- pipeline control ----------------
  logic [7:1] v_q;
  logic       en;
  assign en          = !out_valid_o || out_ready_i;
  assign in_ready_o  = en;

  // Per-stage control, stage s at bit s - 1: op (two bits, stages 1..6), first (1..6),
  // last (1..7).
  logic [11:0] op_sr;
  logic [5:0]  first_sr;
  logic [6:0]  last_sr;

  // ---------------- the tree ----------------
  // Level k holds 64 >> k values; level 0 is the widened input (not registered).
  logic [64*32-1:0] lv0;
  logic [32*32-1:0] lv1_q;
  logic [16*32-1:0] lv2_q;
  logic [8*32-1:0]  lv3_q;
  logic [4*32-1:0]  lv4_q;
  logic [2*32-1:0]  lv5_q;
  logic [31:0]      lv6_q;

  for (genvar i = 0; i < 64; i++) begin : g_in
    ane_pe_widen u_widen (.op_i(in_op_i), .valid_i(in_mask_i[i]), .x_i(in_data_i[16*i +: 16]),
                          .y_o(lv0[32*i +: 32]));
  end

  // One node per pair: the sum through an adder, max / min by comparison.
  logic [32*32-1:0] n1;
  logic [16*32-1:0] n2;
  logic [8*32-1:0]  n3;
  logic [4*32-1:0]  n4;
  logic [2*32-1:0]  n5;
  logic [31:0]      n6;

  for (genvar i = 0; i < 32; i++) begin : g_l1
    ane_pe_node u_node (.op_i(in_op_i), .a_i(lv0[64*i +: 32]), .b_i(lv0[64*i+32 +: 32]), .y_o(n1[32*i +: 32]));
  end
  for (genvar i = 0; i < 16; i++) begin : g_l2
    ane_pe_node u_node (.op_i(op_sr[1:0]), .a_i(lv1_q[64*i +: 32]), .b_i(lv1_q[64*i+32 +: 32]), .y_o(n2[32*i +: 32]));
  end
  for (genvar i = 0; i < 8; i++) begin : g_l3
    ane_pe_node u_node (.op_i(op_sr[3:2]), .a_i(lv2_q[64*i +: 32]), .b_i(lv2_q[64*i+32 +: 32]), .y_o(n3[32*i +: 32]));
  end
  for (genvar i = 0; i < 4; i++) begin : g_l4
    ane_pe_node u_node (.op_i(op_sr[5:4]), .a_i(lv3_q[64*i +: 32]), .b_i(lv3_q[64*i+32 +: 32]), .y_o(n4[32*i +: 32]));
  end
  for (genvar i = 0; i < 2; i++) begin : g_l5
    ane_pe_node u_node (.op_i(op_sr[7:6]), .a_i(lv4_q[64*i +: 32]), .b_i(lv4_q[64*i+32 +: 32]), .y_o(n5[32*i +: 32]));
  end
  ane_pe_node u_l6 (.op_i(op_sr[9:8]), .a_i(lv5_q[31:0]), .b_i(lv5_q[63:32]), .y_o(n6));

  // The running register: the first patch loads, the others accumulate.
  logic [31:0] acc_q, acc_node, acc_next;
  ane_pe_node u_acc (.op_i(op_sr[11:10]), .a_i(acc_q), .b_i(lv6_q), .y_o(acc_node));
  assign acc_next = first_sr[5] ? lv6_q : acc_node;

  always_ff @(posedge clk_i) begin
    if (en) begin
      lv1_q <= n1;
      lv2_q <= n2;
      lv3_q <= n3;
      lv4_q <= n4;
      lv5_q <= n5;
      lv6_q <= n6;
      op_sr    <= {op_sr[9:0], in_op_i};
      first_sr <= {first_sr[4:0], in_first_i};
      last_sr  <= {last_sr[5:0], in_last_i};
      if (v_q[6]) acc_q <= acc_next;
      if (v_q[6] && last_sr[5]) out_fp32_o <= acc_next;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else if (en) v_q <= {v_q[6:1], in_valid_i};
  end
  assign out_valid_o = v_q[7] && last_sr[6];

  ane_mac_out #(.Gen(ane_pkg::GenM5)) u_store (.acc_i(out_fp32_o), .fp16_o(out_fp16_o));

`ifndef SYNTHESIS
  // An offered patch stays offered, unchanged, until it is taken.
  logic        held_q;
  logic [63:0] held_mask_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= 1'b0;
    end else begin
      if (held_q) assert (in_valid_i && in_mask_i == held_mask_q);
      held_q      <= in_valid_i && !in_ready_o;
      held_mask_q <= in_mask_i;
    end
  end
`endif

endmodule
