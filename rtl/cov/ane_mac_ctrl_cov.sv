// SPDX-License-Identifier: Apache-2.0
// ane_mac_ctrl_cov: functional-coverage bins of the MAC control unit (NUMERICS N-2.1, N-2.4 to
// N-2.6, N-2.8, N-2.9, N-7.1): how reductions are cut into quads (the size of an incomplete
// final quad that is padded with +0), when the N-2.6 port ceiling applies (K = 1, K >= 2, a
// continuation of a loaded slot or of an earlier reduction: interpretation 1), loads and
// clears, compare mode's start (interpretation 2), the int4 extra accumulates (N-2.8) and
// fp modes mixed inside one quad. Each bin reads the operation in register 0 as it executes L0
// (adv0 = en && s0_go, reset deasserted).
// Bound only in the coverage build (bind below); never synthesized. It reads the control unit's
// signals and drives nothing in the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_mac_ctrl_cov (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        en,
  input wire logic        adv0,
  input wire logic        s0_valid_q,
  input wire logic        hazard,
  input wire logic [1:0]  s0_cmd_q,
  input wire logic [2:0]  s0_mode_q,
  input wire logic [2:0]  s0_slot_q,
  input wire logic        s0_first_q,
  input wire logic        s0_last_q,
  input wire logic        s0_fp,
  input wire logic        s0_i8,
  input wire logic        s0_i4,
  input wire logic        s0_int,
  input wire logic        s0_cmp,
  input wire logic        s0_xa,
  input wire logic [15:0] pos_q,
  input wire logic [15:0] cnt_q,
  input wire logic [7:0]  cont_q,
  input wire logic [7:0]  hv_q,
  input wire logic [7:0]  bcont,
  input wire logic [7:0]  cnt2,
  input wire logic [3:0]  rot_done,
  input wire logic [3:0]  rot_qclr,
  input wire logic [3:0]  rot_fh
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  // ---------------------------------------------------------------- helper state
  // Per slot: the last fp mode that wrote its pending quad, and whether its continuation flag
  // comes from a CmdLoad (1) or from an earlier reduction that ended in it (0).
  logic [2:0] fp_mode_q [8];
  logic [7:0] ld_src_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ld_src_q <= '0;
    end else if (adv0) begin
      for (int j = 0; j < 8; j++) begin
        if (3'(j) == s0_slot_q) begin
          if (s0_cmd_q == 2'(ane_pkg::CmdLoad)) ld_src_q[j] <= 1'b1;
          else if (s0_cmd_q == 2'(ane_pkg::CmdClear)) ld_src_q[j] <= 1'b0;
        end
        // an fp or integer operation with first or last ends any load's continuation
        if ((s0_fp || s0_int) && (s0_last_q || s0_first_q) &&
            ((s0_i4 && ((4'(j) - {1'b0, s0_slot_q}) < 4'd4)) || (3'(j) == s0_slot_q))) begin
          ld_src_q[j] <= 1'b0;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv0 && s0_fp) fp_mode_q[s0_slot_q] <= s0_mode_q;
  end

  // ---------------------------------------------------------------- conditions
  logic [1:0] pos, cnt, bpos;
  logic       fp_go, k1_fresh, k1_cleared, ceil_k2, ceil_cont, cont_single, cont_load, cont_prev;
  logic       q1, q2, q3, q4, from_clear, mixed_quad;
  logic       cmp_first, cmp_hold, cmp_empty, i4_extra, i4_phase, int_fh, i8_read;
  logic       do_load, do_clear, hz_wait, bp_stall;
  always_comb begin
    pos   = pos_q[2*s0_slot_q +: 2];
    cnt   = cnt_q[2*s0_slot_q +: 2];
    bpos  = s0_first_q ? 2'd0 : pos;
    fp_go = live_q && adv0 && s0_fp;
    // N-2.4: the final quad of a reduction holds bpos + 1 products; fewer than 4 are padded
    q1 = fp_go && s0_last_q && (bpos == 2'd0);
    q2 = fp_go && s0_last_q && (bpos == 2'd1);
    q3 = fp_go && s0_last_q && (bpos == 2'd2);
    q4 = fp_go && s0_last_q && (bpos == 2'd3);
    // N-2.6: when the ceiling applies (op0.aceil = fp && (bcont || cnt2))
    k1_fresh    = fp_go && s0_first_q && s0_last_q;
    k1_cleared  = fp_go && !s0_first_q && s0_last_q && !bcont[s0_slot_q] && (cnt == 2'd0);
    ceil_k2     = fp_go && cnt2[s0_slot_q] && !bcont[s0_slot_q];
    ceil_cont   = fp_go && bcont[s0_slot_q] && !cnt2[s0_slot_q];
    cont_single = ceil_cont && s0_last_q;
    cont_load   = ceil_cont && ld_src_q[s0_slot_q];
    // a reduction continued (no first) after one that ended in the slot: the ceiling applies
    // through the continuation; its count is never 0 then (the ended reduction counted), so
    // this is not a case of ceil_cont, which needs a count of 0 (a load)
    cont_prev   = fp_go && bcont[s0_slot_q] && !ld_src_q[s0_slot_q];
    from_clear  = fp_go && !s0_first_q && !cont_q[s0_slot_q] && (cnt == 2'd0);
    // N-2.1: a quad continued in another fp mode than the product before it (fp16 after
    // int8 x fp16, ...): both are fp16 values by then
    mixed_quad  = fp_go && (bpos != 2'd0) && (fp_mode_q[s0_slot_q] != s0_mode_q);
    // N-2.5 loads and clears as they execute (L0)
    do_load  = live_q && adv0 && (s0_cmd_q == 2'(ane_pkg::CmdLoad));
    do_clear = live_q && adv0 && (s0_cmd_q == 2'(ane_pkg::CmdClear));
    // N-2.9 (interpretation 2)
    cmp_first = live_q && adv0 && s0_cmp && s0_first_q;
    cmp_hold  = live_q && adv0 && s0_cmp && !s0_first_q && hv_q[s0_slot_q];
    cmp_empty = live_q && adv0 && s0_cmp && !s0_first_q && !hv_q[s0_slot_q];
    // N-2.8 (interpretation 3): int4 quads of slots base + 1..3 through the hold register
    i4_extra = live_q && adv0 && s0_xa;
    i4_phase = live_q && adv0 && s0_i4 && (rot_done != 4'h0) && (rot_done != 4'hF);
    int_fh   = live_q && adv0 && s0_int && (rot_fh != 4'h0);
    i8_read  = live_q && adv0 && s0_i8 && rot_done[0] && !rot_qclr[0];
    // N-7.1: the same-slot wait and result back-pressure
    hz_wait  = live_q && en && s0_valid_q && hazard;
    bp_stall = live_q && !en;
  end

  logic unused_cov;
  assign unused_cov = ^rot_qclr[3:1];

  always_ff @(posedge clk_i) begin
    N2_4_final_quad_1_product_padded:   cover (q1);
    N2_4_final_quad_2_products_padded:  cover (q2);
    N2_4_final_quad_3_products_padded:  cover (q3);
    N2_4_final_quad_complete_no_pad:    cover (q4);
    N2_6_k1_fresh_reduction_no_ceiling: cover (k1_fresh);
    N2_6_k1_after_clear_no_ceiling:     cover (k1_cleared);
    N2_6_ceiling_by_k_ge_2:             cover (ceil_k2);
    N2_6_ceiling_by_continuation_only:  cover (ceil_cont);
    N2_6_continuation_single_product:   cover (cont_single);
    N2_6_continuation_of_loaded_slot:   cover (cont_load);
    N2_6_continuation_of_earlier_reduction: cover (cont_prev);
    N2_5_reduction_started_by_clear:    cover (from_clear);
    N2_5_load_executes:                 cover (do_load);
    N2_5_clear_executes:                cover (do_clear);
    N2_1_fp_modes_mixed_in_one_quad:    cover (mixed_quad);
    N2_9_cmp_first_takes_data:          cover (cmp_first);
    N2_9_cmp_against_held_value:        cover (cmp_hold);
    N2_9_cmp_empty_slot_without_first:  cover (cmp_empty);
    N2_8_int4_extra_accumulates:        cover (i4_extra);
    N2_8_int4_slots_out_of_phase:       cover (i4_phase);
    N2_8_int_first_with_quad_pending:   cover (int_fh);
    N2_8_int8_quad_reads_accumulator:   cover (i8_read);
    N7_1_same_slot_wait:                cover (hz_wait);
    N7_1_result_backpressure_stall:     cover (bp_stall);
  end

endmodule

bind ane_mac_ctrl ane_mac_ctrl_cov u_cov (.*);

`default_nettype wire
// verilator coverage_on
