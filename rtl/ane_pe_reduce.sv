// SPDX-License-Identifier: Apache-2.0
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
// Stages (one register each): S0 the widened input patch; each tree level takes three stages (its
// nodes are ane_pe_node with Pipe = 1: align | add | normalize and round), so level k's result
// is in S(3k) and the tree's in S18; the running register's node takes S19, S20 and S21 (the
// running register and the result register). A patch accepted in cycle t gives its result in
// cycle t + 22. The stages advance together and stall while a result waits at the output.
// The running register is a recurrence: a patch that accumulates (not first) enters its node
// only once the previous patch's value is in the register, so the stages up to S18 also hold
// for the (at most two) cycles its predecessor still spends in the node. Single-patch
// reductions (first and last) and the first patch of each reduction never wait: one patch per
// cycle; a reduction of P patches takes 3 (P - 1) + 1 cycles of the running register.
`default_nettype none

module ane_pe_reduce (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            in_valid_i,
  output      logic            in_ready_o,
  input  wire ane_pkg::pe_tree_op_e in_op_i,
  input  wire logic            in_first_i,   // the first patch of a reduction
  input  wire logic            in_last_i,    // the last patch: the result leaves after it
  input  wire logic [63:0]     in_mask_i,
  input  wire logic [64*16-1:0] in_data_i,
  output      logic            out_valid_o,
  input  wire logic            out_ready_i,
  output      logic [31:0]     out_fp32_o,
  output      logic [15:0]     out_fp16_o
);

  localparam int NT = 19;   // S0 .. S18: the input register and the tree

  // ---------------- pipeline control ----------------
  // en: every stage (the result waits at the output otherwise); en_t: S0 .. S18 (also held while
  // an accumulating patch in S18 waits for its predecessor's value).
  logic          en, en_t, hazard;
  logic [NT-1:0] v_q;                     // S0 .. S18
  logic [2*NT-1:0] op_sr;                 // stage s at bits 2s + 1 .. 2s
  logic [NT-1:0] first_sr, last_sr;
  logic [21:19]  xv_q, xlast_q;           // the running register's node: S19, S20, S21
  logic [20:19]  xfirst_q;
  logic [31:0]   xtree19_q, xtree20_q;    // the tree value alongside it (a first patch)

  assign en          = !out_valid_o || out_ready_i;
  assign hazard      = v_q[NT-1] && !first_sr[NT-1] && (xv_q[19] || xv_q[20]);
  assign en_t        = en && !hazard;
  assign in_ready_o  = en_t;

  // ---------------- S0: the widened input patch ----------------
  // Level k holds 64 >> k values; level 0 is the widened input.
  logic [64*32-1:0] lv0, lv0_q;
  logic [32*32-1:0] lv1_q, n1;
  logic [16*32-1:0] lv2_q, n2;
  logic [8*32-1:0]  lv3_q, n3;
  logic [4*32-1:0]  lv4_q, n4;
  logic [2*32-1:0]  lv5_q, n5;
  logic [31:0]      lv6_q, n6;

  for (genvar i = 0; i < 64; i = i + 1) begin : g_in
    ane_pe_widen u_widen (.op_i(in_op_i), .valid_i(in_mask_i[i]), .x_i(in_data_i[16*i +: 16]),
                          .y_o(lv0[32*i +: 32]));
  end

  // ---------------- the tree ----------------
  // One node per pair: the sum through an adder, max / min by comparison. Level k's nodes take
  // the operator of stage 3 (k - 1).
  for (genvar i = 0; i < 32; i = i + 1) begin : g_l1
    ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[1:0]),
      .a_i(lv0_q[64*i +: 32]), .b_i(lv0_q[64*i+32 +: 32]), .y_o(n1[32*i +: 32]));
  end
  for (genvar i = 0; i < 16; i = i + 1) begin : g_l2
    ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[7:6]),
      .a_i(lv1_q[64*i +: 32]), .b_i(lv1_q[64*i+32 +: 32]), .y_o(n2[32*i +: 32]));
  end
  for (genvar i = 0; i < 8; i = i + 1) begin : g_l3
    ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[13:12]),
      .a_i(lv2_q[64*i +: 32]), .b_i(lv2_q[64*i+32 +: 32]), .y_o(n3[32*i +: 32]));
  end
  for (genvar i = 0; i < 4; i = i + 1) begin : g_l4
    ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[19:18]),
      .a_i(lv3_q[64*i +: 32]), .b_i(lv3_q[64*i+32 +: 32]), .y_o(n4[32*i +: 32]));
  end
  for (genvar i = 0; i < 2; i = i + 1) begin : g_l5
    ane_pe_node #(.Pipe(1'b1)) u_node (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[25:24]),
      .a_i(lv4_q[64*i +: 32]), .b_i(lv4_q[64*i+32 +: 32]), .y_o(n5[32*i +: 32]));
  end
  ane_pe_node #(.Pipe(1'b1)) u_l6 (.clk_i(clk_i), .en_i(en_t), .op_i(op_sr[31:30]),
    .a_i(lv5_q[31:0]), .b_i(lv5_q[63:32]), .y_o(n6));

  always_ff @(posedge clk_i) begin
    if (en_t) begin
      lv0_q    <= lv0;
      lv1_q    <= n1;
      lv2_q    <= n2;
      lv3_q    <= n3;
      lv4_q    <= n4;
      lv5_q    <= n5;
      lv6_q    <= n6;
      op_sr    <= {op_sr[2*NT-3:0], in_op_i};
      first_sr <= {first_sr[NT-2:0], in_first_i};
      last_sr  <= {last_sr[NT-2:0], in_last_i};
    end
  end

  // ---------------- the running register (S19 - S21) ----------------
  // The first patch loads, the others accumulate: node(acc, tree) through a pipelined node;
  // the patch in S18 enters it (a bubble while it waits on its predecessor).
  logic [31:0] acc_q, acc_node, acc_next;
  ane_pe_node #(.Pipe(1'b1)) u_acc (.clk_i(clk_i), .en_i(en), .op_i(op_sr[2*NT-1 -: 2]),
    .a_i(acc_q), .b_i(lv6_q), .y_o(acc_node));
  assign acc_next = xfirst_q[20] ? xtree20_q : acc_node;

  always_ff @(posedge clk_i) begin
    if (en) begin
      xtree19_q    <= lv6_q;
      xtree20_q    <= xtree19_q;
      xfirst_q[19] <= first_sr[NT-1];
      xfirst_q[20] <= xfirst_q[19];
      xlast_q[19]  <= last_sr[NT-1];
      xlast_q[20]  <= xlast_q[19];
      xlast_q[21]  <= xlast_q[20];
      if (xv_q[20]) acc_q <= acc_next;
      if (xv_q[20] && xlast_q[20]) out_fp32_o <= acc_next;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q  <= '0;
      xv_q <= '0;
    end else begin
      if (en_t) v_q <= {v_q[NT-2:0], in_valid_i};
      if (en)   xv_q <= {xv_q[20:19], v_q[NT-1] && !hazard};
    end
  end
  assign out_valid_o = xv_q[21] && xlast_q[21];

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
