// SPDX-License-Identifier: Apache-2.0
// ane_pe_reduce_cov: functional-coverage bins of the planar reduction tree and its running
// register ane_pe_reduce (NUMERICS N-4.4 reductions, N-4.2 inf - inf in a sum node, N-1 at the
// tree's inputs): every operator, with one patch and with several (the running register, and
// an accumulating patch that waits for its predecessor), a list of one element, lists that end
// inside a patch and exactly at a patch's end, the empty (all-identity) patch, inf - inf in the
// tree and in the running register, and the fp16 store's range (just above 65504 -> 65504,
// from 65520 inf). Bins read the input handshake (in_valid_i && in_ready_o: the patch taken),
// the running register's entry (stage S18 valid and advancing into the node) or the output
// handshake. Its instance in ane_planar serves MODE.KIND 1 and 2; the kinds and axes are told
// apart in ane_planar_cov.
// Bound to every ane_pe_reduce only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_reduce_cov (
  input wire logic                 clk_i,
  input wire logic                 rst_ni,
  input wire logic                 in_valid_i,
  input wire logic                 in_ready_o,
  input wire ane_pkg::pe_tree_op_e in_op_i,
  input wire logic                 in_first_i,
  input wire logic                 in_last_i,
  input wire logic [63:0]          in_mask_i,
  input wire logic [64*16-1:0]     in_data_i,
  input wire logic                 out_valid_o,
  input wire logic                 out_ready_i,
  input wire logic [31:0]          out_fp32_o,
  input wire logic [15:0]          out_fp16_o,
  // the unit's own signals: the stage enables, the running register's wait, S18's patch
  input wire logic                 en,
  input wire logic                 hazard,
  input wire logic [18:0]          v_q,
  input wire logic [18:0]          first_sr,
  input wire logic [37:0]          op_sr,
  input wire logic [31:0]          acc_q,
  input wire logic [31:0]          lv6_q
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  logic fire, ofire, acc_in;
  assign fire   = live_q && in_valid_i && in_ready_o;
  assign ofire  = live_q && out_valid_o && out_ready_i;
  // a patch that accumulates enters the running register's node: S18 valid, advancing, not first
  assign acc_in = live_q && en && v_q[18] && !hazard && !first_sr[18];

  // The patch's masked inputs after N-1: +inf (or a NaN), -inf, a NaN.
  logic has_pinf, has_ninf, has_nan;
  always_comb begin
    {has_pinf, has_ninf, has_nan} = '0;
    for (int i = 0; i < 64; i++) begin
      logic [15:0] x;
      x = in_data_i[16*i +: 16];
      if (in_mask_i[i]) begin
        has_pinf |= ane_pkg::fp16_boundary(x) == ane_pkg::Fp16PosInf;
        has_ninf |= x == 16'hFC00;
        has_nan  |= ane_pkg::fp16_is_nan(x);
      end
    end
  end

  logic        acc_ii;
  logic [30:0] omag;
  assign acc_ii = op_sr[37:36] == ane_pkg::PeTreeSum &&
                  acc_q[30:0] == 31'h7F80_0000 && lv6_q[30:0] == 31'h7F80_0000 && acc_q[31] != lv6_q[31];
  assign omag   = out_fp32_o[30:0];

  // (the ports' bits no bin reads)
  logic unused;
  assign unused = ^{out_fp32_o[31], out_fp16_o[15], v_q[17:0], first_sr[17:0], op_sr[35:0]};

  // N-4.4: every operator, alone and with the running register (a patch that is not first).
  if (1) begin : g_op_0
    always_ff @(posedge clk_i) begin
      N4_4_tree_op_0:            cover (fire && in_op_i == 2'(0));
      N4_4_tree_op_single_0:     cover (fire && in_op_i == 2'(0) && in_first_i && in_last_i);
      N4_4_tree_op_accumulate_0: cover (fire && in_op_i == 2'(0) && !in_first_i);
    end
  end
  if (1) begin : g_op_1
    always_ff @(posedge clk_i) begin
      N4_4_tree_op_1:            cover (fire && in_op_i == 2'(1));
      N4_4_tree_op_single_1:     cover (fire && in_op_i == 2'(1) && in_first_i && in_last_i);
      N4_4_tree_op_accumulate_1: cover (fire && in_op_i == 2'(1) && !in_first_i);
    end
  end
  if (1) begin : g_op_2
    always_ff @(posedge clk_i) begin
      N4_4_tree_op_2:            cover (fire && in_op_i == 2'(2));
      N4_4_tree_op_single_2:     cover (fire && in_op_i == 2'(2) && in_first_i && in_last_i);
      N4_4_tree_op_accumulate_2: cover (fire && in_op_i == 2'(2) && !in_first_i);
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.4: lists and patches ----
    N4_4_one_element_list:   cover (fire && in_first_i && in_last_i && $onehot(in_mask_i));
    N4_4_end_inside_patch:   cover (fire && in_last_i && !(&in_mask_i));
    N4_4_end_at_patch_end:   cover (fire && in_last_i && (&in_mask_i));
    N4_4_multi_patch_end:    cover (fire && in_last_i && !in_first_i);
    N4_4_identity_patch:     cover (fire && in_mask_i == 64'd0);
    N4_4_acc_waits:          cover (live_q && en && hazard);
    N4_4_max_nan_input:      cover (fire && in_op_i == ane_pkg::PeTreeMax && has_nan);
    N4_4_min_nan_input:      cover (fire && in_op_i == ane_pkg::PeTreeMin && has_nan);
    // ---- N-4.2: inf - inf = +0 in a sum node of the tree, and in the running register ----
    N4_2_tree_inf_minus_inf: cover (fire && in_op_i == ane_pkg::PeTreeSum && has_pinf && has_ninf);
    N4_2_acc_inf_minus_inf:  cover (acc_in && acc_ii);
    // ---- N-4.4: the fp16 store, plain range ----
    N4_4_store_rounds_to_max: cover (ofire && omag > 31'h477F_E000 && omag < 31'h477F_F000);
    N4_4_store_overflow_inf:  cover (ofire && omag >= 31'h477F_F000 && omag < 31'h7F80_0000);
    N4_4_store_subnormal:     cover (ofire && out_fp16_o[14:10] == 5'd0 && out_fp16_o[9:0] != 10'd0);
    N4_4_result_inf:          cover (ofire && omag == 31'h7F80_0000);
    N4_4_back_pressure:       cover (live_q && out_valid_o && !out_ready_i);
  end

endmodule

bind ane_pe_reduce ane_pe_reduce_cov u_cov (.*);

`default_nettype wire
// verilator coverage_on
