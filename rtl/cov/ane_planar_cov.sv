// SPDX-License-Identifier: Apache-2.0
// ane_planar_cov: functional-coverage bins of the planar engine ane_planar as one engine
// (NUMERICS N-4; docs/planar.md "The engine"): every MODE.KIND (0 elementwise, 1 tree,
// 2 line buffer, 3 pooling) and the AXIS values of kinds 1 and 2; each reduction operator in
// each kind and axis (tree: rows, planes; line buffer: columns, channels); per axis a list of
// one element, lists that end inside a patch (or block of 64 lines) and exactly at its end,
// lists of several patches; the line buffer's partial and full strips; the pooling operators
// and POOL.FLAT; the engine's converter bypasses, int8 sources and result, broadcasts along W,
// H and C, the width-slice gain (N-4.6) after every kind. Task bins read the START handshake
// (start: a write of START while the engine is idle, with the task's configuration); tree bins
// the tree's input handshake in kind 1; line bins the line buffer's job handshake in kind 2.
// The units' own bins are in ane_pe_*_cov and ane_planar_pool_cov.
// Bound to every ane_planar only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_planar_cov #(
  parameter int unsigned LineW = 64,
  localparam int unsigned QW   = $clog2(LineW + 1)
) (
  input wire logic                      clk_i,
  input wire logic                      rst_ni,
  // the engine's own signals: the task's configuration and its decoded fields, START
  input wire ane_regs_pkg::planar_cfg_t cfg_q,
  input wire logic                      start,
  input wire logic                      k_ew,
  input wire logic                      k_tree,
  input wire logic                      k_line,
  input wire logic                      k_pool,
  input wire logic                      axis,
  input wire logic                      flat,
  input wire logic [1:0]                treeop,
  input wire logic [3:0]                ewop,
  input wire logic [2:0]                src_on,
  input wire logic [3:0]                int8,
  input wire logic [3:0]                bw,
  input wire logic [127:0]              rowst,
  input wire logic [127:0]              planest,
  input wire logic                      a_byp,
  input wire logic                      o_byp,
  // the tree's input (kind 1: the patch assembler's patches)
  input wire logic                      tr_in_valid,
  input wire logic                      tr_in_ready,
  input wire logic                      pa_first,
  input wire logic                      pa_last,
  input wire logic [63:0]               pa_mask,
  // the line buffer's jobs (kind 2)
  input wire logic                      lq_pop,
  input wire logic [13:0]               lq_n,
  input wire logic [QW-1:0]             lq_len,
  input wire logic [1:0]                lq_op
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  logic go, tfire, lfire;
  assign go    = live_q && start;
  assign tfire = live_q && tr_in_valid && tr_in_ready && k_tree;
  assign lfire = live_q && lq_pop && k_line;

  // (the ports' bits no bin reads: the rest of the configuration, the result's broadcast bit)
  logic unused;
  assign unused = ^{cfg_q, bw[3], rowst[127:96], planest[127:96]};

  always_ff @(posedge clk_i) begin
    // ---- MODE.KIND ----
    N4_1_kind_elementwise:      cover (go && cfg_q.mode.kind == 2'd0);
    N4_4_kind_tree:             cover (go && cfg_q.mode.kind == 2'd1);
    N4_4_kind_line:             cover (go && cfg_q.mode.kind == 2'd2);
    N4_5_kind_pool:             cover (go && cfg_q.mode.kind == 2'd3);
    // ---- the elementwise path in front of every kind, and the converters ----
    N4_1_ew_op_before_reduce:   cover (go && !k_ew && ewop != 4'(ane_pkg::PeEwPass));
    N4_1_post_before_reduce:    cover (go && !k_ew && cfg_q.mode.postop != 2'(ane_pkg::PePostPass));
    N4_1_fca_bypass:            cover (go && a_byp);
    N4_1_fco_bypass:            cover (go && o_byp);
    N4_1_dst_int8:              cover (go && int8[3]);
    N4_1_dst_int8_after_reduce: cover (go && int8[3] && !k_ew);
    // ---- N-4.6: the width-slice gain on FC_O ----
    N4_6_gain_elementwise:      cover (go && cfg_q.fcctl.o_gain && k_ew);
    N4_6_gain_tree:             cover (go && cfg_q.fcctl.o_gain && k_tree);
    N4_6_gain_line:             cover (go && cfg_q.fcctl.o_gain && k_line);
    N4_6_gain_pool:             cover (go && cfg_q.fcctl.o_gain && k_pool);
    N4_6_gain_int8_result:      cover (go && cfg_q.fcctl.o_gain && int8[3]);
    // ---- N-4.5: pooling tasks ----
    N4_5_pool_flat:             cover (go && flat);
    N4_5_pool_rows:             cover (go && k_pool && !flat);
  end

  // The sources' formats and broadcasts (only the sources the operator reads).
  if (1) begin : g_src_0
    always_ff @(posedge clk_i) begin
      N4_1_src_int8_0:       cover (go && src_on[0] && int8[0]);
      N4_1_src_bcast_w_0:    cover (go && src_on[0] && bw[0]);
      N4_1_src_bcast_h_0:    cover (go && src_on[0] && rowst[32*0 +: 32] == 32'd0);
      N4_1_src_bcast_c_0:    cover (go && src_on[0] && planest[32*0 +: 32] == 32'd0);
    end
  end
  if (1) begin : g_src_1
    always_ff @(posedge clk_i) begin
      N4_1_src_int8_1:       cover (go && src_on[1] && int8[1]);
      N4_1_src_bcast_w_1:    cover (go && src_on[1] && bw[1]);
      N4_1_src_bcast_h_1:    cover (go && src_on[1] && rowst[32*1 +: 32] == 32'd0);
      N4_1_src_bcast_c_1:    cover (go && src_on[1] && planest[32*1 +: 32] == 32'd0);
    end
  end
  if (1) begin : g_src_2
    always_ff @(posedge clk_i) begin
      N4_1_src_int8_2:       cover (go && src_on[2] && int8[2]);
      N4_1_src_bcast_w_2:    cover (go && src_on[2] && bw[2]);
      N4_1_src_bcast_h_2:    cover (go && src_on[2] && rowst[32*2 +: 32] == 32'd0);
      N4_1_src_bcast_c_2:    cover (go && src_on[2] && planest[32*2 +: 32] == 32'd0);
    end
  end

  // AXIS of kinds 1 and 2, and each operator in each kind and axis.
  if (1) begin : g_axis_0
    always_ff @(posedge clk_i) begin
      N4_4_tree_axis_0:          cover (go && k_tree && axis == 1'(0));
      N4_4_line_axis_0:          cover (go && k_line && axis == 1'(0));
      // kind 1: axis 0 rows, 1 planes
      N4_4_tree_one_element_0:   cover (tfire && axis == 1'(0) && pa_first && pa_last && $onehot(pa_mask));
      N4_4_tree_end_inside_0:    cover (tfire && axis == 1'(0) && pa_last && !(&pa_mask));
      N4_4_tree_end_exact_0:     cover (tfire && axis == 1'(0) && pa_last && (&pa_mask));
      N4_4_tree_multi_patch_0:   cover (tfire && axis == 1'(0) && pa_last && !pa_first);
      // kind 2: axis 0 columns (the lines are rows), 1 channels (the lines are channels)
      N4_4_line_one_element_0:   cover (lfire && axis == 1'(0) && lq_n == 14'd1);
      N4_4_line_end_inside_0:    cover (lfire && axis == 1'(0) && lq_n[5:0] != 6'd0);
      N4_4_line_end_exact_0:     cover (lfire && axis == 1'(0) && lq_n[5:0] == 6'd0);
      N4_4_line_multi_block_0:   cover (lfire && axis == 1'(0) && lq_n > 14'd64);
      N4_4_line_strip_partial_0: cover (lfire && axis == 1'(0) && lq_len < QW'(LineW));
      N4_4_line_strip_full_0:    cover (lfire && axis == 1'(0) && lq_len == QW'(LineW));
    end
    if (1) begin : g_op_0
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_0_0: cover (tfire && axis == 1'(0) && treeop == 2'(0));
        N4_4_line_op_0_0: cover (lfire && axis == 1'(0) && lq_op == 2'(0));
      end
    end
    if (1) begin : g_op_1
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_0_1: cover (tfire && axis == 1'(0) && treeop == 2'(1));
        N4_4_line_op_0_1: cover (lfire && axis == 1'(0) && lq_op == 2'(1));
      end
    end
    if (1) begin : g_op_2
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_0_2: cover (tfire && axis == 1'(0) && treeop == 2'(2));
        N4_4_line_op_0_2: cover (lfire && axis == 1'(0) && lq_op == 2'(2));
      end
    end
  end
  if (1) begin : g_axis_1
    always_ff @(posedge clk_i) begin
      N4_4_tree_axis_1:          cover (go && k_tree && axis == 1'(1));
      N4_4_line_axis_1:          cover (go && k_line && axis == 1'(1));
      // kind 1: axis 0 rows, 1 planes
      N4_4_tree_one_element_1:   cover (tfire && axis == 1'(1) && pa_first && pa_last && $onehot(pa_mask));
      N4_4_tree_end_inside_1:    cover (tfire && axis == 1'(1) && pa_last && !(&pa_mask));
      N4_4_tree_end_exact_1:     cover (tfire && axis == 1'(1) && pa_last && (&pa_mask));
      N4_4_tree_multi_patch_1:   cover (tfire && axis == 1'(1) && pa_last && !pa_first);
      // kind 2: axis 0 columns (the lines are rows), 1 channels (the lines are channels)
      N4_4_line_one_element_1:   cover (lfire && axis == 1'(1) && lq_n == 14'd1);
      N4_4_line_end_inside_1:    cover (lfire && axis == 1'(1) && lq_n[5:0] != 6'd0);
      N4_4_line_end_exact_1:     cover (lfire && axis == 1'(1) && lq_n[5:0] == 6'd0);
      N4_4_line_multi_block_1:   cover (lfire && axis == 1'(1) && lq_n > 14'd64);
      N4_4_line_strip_partial_1: cover (lfire && axis == 1'(1) && lq_len < QW'(LineW));
      N4_4_line_strip_full_1:    cover (lfire && axis == 1'(1) && lq_len == QW'(LineW));
    end
    if (1) begin : g_op_0
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_1_0: cover (tfire && axis == 1'(1) && treeop == 2'(0));
        N4_4_line_op_1_0: cover (lfire && axis == 1'(1) && lq_op == 2'(0));
      end
    end
    if (1) begin : g_op_1
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_1_1: cover (tfire && axis == 1'(1) && treeop == 2'(1));
        N4_4_line_op_1_1: cover (lfire && axis == 1'(1) && lq_op == 2'(1));
      end
    end
    if (1) begin : g_op_2
      always_ff @(posedge clk_i) begin
        N4_4_tree_op_1_2: cover (tfire && axis == 1'(1) && treeop == 2'(2));
        N4_4_line_op_1_2: cover (lfire && axis == 1'(1) && lq_op == 2'(2));
      end
    end
  end

  // Pooling's operators (0 mean, 1 max, 2 min) as tasks.
  if (1) begin : g_pool_op_0
    always_ff @(posedge clk_i) begin
      N4_5_pool_task_op_0: cover (go && k_pool && treeop == 2'(0));
    end
  end
  if (1) begin : g_pool_op_1
    always_ff @(posedge clk_i) begin
      N4_5_pool_task_op_1: cover (go && k_pool && treeop == 2'(1));
    end
  end
  if (1) begin : g_pool_op_2
    always_ff @(posedge clk_i) begin
      N4_5_pool_task_op_2: cover (go && k_pool && treeop == 2'(2));
    end
  end

endmodule

bind ane_planar ane_planar_cov #(.LineW(LineW)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
