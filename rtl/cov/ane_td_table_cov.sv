// SPDX-License-Identifier: Apache-2.0
// ane_td_table_cov: functional coverage of ane_td_table, the TD front end's lookup-table
// conversion (rtl/ane_td_table.sv, docs/td_ctrl.md): every state of its control (SIdle, SRead,
// SRun) reached and every transition taken (start, the last answer into the writes or into the
// error, the last write), each outcome of a conversion (done, refused: the first non-finite word
// left, right or a knot) and of a segment (m and c zero, subnormal, normal, infinite; c infinite
// from an infinite m or by overflow), the back-pressure the header names, and a reset in every
// state.
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Reset in a state: sampled at the falling edge of rst_ni from the state register itself. The
// block writes its state with nonblocking assignments, so in the time step of that edge every
// process still reads the state from before the reset (the reset's update comes later, in the
// NBA region): no race. A copy taken at posedge clk_i would hold the state of the cycle before
// (checked on the Verilator model). armed_q (reset with rst_ni, set by the first clock edge
// after its release) keeps a fall of rst_ni with no clock edge since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_td_table_cov #(
  parameter logic [1:0] SIdle = 2'd0,  // the block's st_e, passed by the bind
  parameter logic [1:0] SRead = 2'd1,
  parameter logic [1:0] SRun  = 2'd2,
  parameter int unsigned Slots = 34
) (
  input wire logic        clk_i,
  input wire logic        rst_ni,
  input wire logic        start_i,
  input wire logic        busy_o,
  input wire logic [1:0]  st_q,
  input wire logic        start,
  input wire logic        ans,
  input wire logic        last_ans,
  input wire logic        any_bad,
  input wire logic        bad_q,
  input wire logic [5:0]  bw_q,
  input wire logic [3:0]  ak_q,
  input wire logic [3:0]  lane_bad,
  input wire logic [1:0]  bad_lane,
  input wire logic        last_fire,
  input wire logic        ld_hdr,
  input wire logic        ld_seg,
  input wire logic        step,
  input wire logic [5:0]  sl_q,
  input wire logic [15:0] m_q,
  input wire logic [15:0] c_code,
  input wire logic        p_inf_q,
  input wire logic        o_v_q,
  input wire logic        wr_ready_i,
  input wire logic        rd_valid_o,
  input wire logic        rd_ready_i
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end
  logic [1:0] st_p_q;  // st_q in the cycle before (with armed_q)
  always_ff @(posedge clk_i) st_p_q <= st_q;

  // the first non-finite word of a refused blob (2 left, 3 right, 4 .. 36 the knots)
  logic [5:0] err_word;
  assign err_word = bad_q ? bw_q : {ak_q, bad_lane};

  // the class of m and c as written (no function call inside a cover: Verilator 5.006 drops the
  // call's body there and the cover reads a stale result)
  logic m_zero, m_sub, m_inf, c_zero, c_sub, c_inf;
  assign m_zero = m_q[14:0] == 15'd0;
  assign m_sub  = m_q[14:10] == 5'd0 && m_q[9:0] != 10'd0;
  assign m_inf  = m_q[14:10] == 5'h1f && m_q[9:0] == 10'd0;
  assign c_zero = c_code[14:0] == 15'd0;
  assign c_sub  = c_code[14:10] == 5'd0 && c_code[9:0] != 10'd0;
  assign c_inf  = c_code[14:10] == 5'h1f && c_code[9:0] == 10'd0;

  // the clocked bins: counted from the second clock edge after rst_ni rises (armed_q; a clocked
  // cover that read rst_ni would be flagged SYNCASYNCNET in the coverage build)
  always_ff @(posedge clk_i) begin
    if (armed_q) begin
      // states
      TD_table_st_idle: cover (st_q == SIdle);
      TD_table_st_read: cover (st_q == SRead);
      TD_table_st_run: cover (st_q == SRun);
      // transitions
      TD_table_tr_idle_read: cover (st_p_q == SIdle && st_q == SRead);
      TD_table_tr_read_run: cover (st_p_q == SRead && st_q == SRun);
      TD_table_tr_read_idle: cover (st_p_q == SRead && st_q == SIdle);
      TD_table_tr_run_idle: cover (st_p_q == SRun && st_q == SIdle);
      // start, and a start while busy (ignored)
      TD_table_start: cover (start);
      TD_table_start_ignored: cover (start_i && busy_o);
      // outcomes of a conversion
      TD_table_done_ok: cover (last_fire);
      TD_table_err_nonfinite: cover (last_ans && any_bad);
      TD_table_err_left: cover (last_ans && any_bad && err_word == 6'd2);
      TD_table_err_right: cover (last_ans && any_bad && err_word == 6'd3);
      TD_table_err_knot: cover (last_ans && any_bad && err_word >= 6'd4);
      TD_table_err_first_knot: cover (last_ans && any_bad && err_word == 6'd4);
      TD_table_err_last_knot: cover (last_ans && any_bad && err_word == 6'd36);
      TD_table_err_second_word: cover (ans && bad_q && lane_bad != 4'b0000);  // a later one too
      TD_table_err_two_in_beat: cover (ans && !bad_q && lane_bad != 4'b0000 &&
                                       (lane_bad & (lane_bad - 4'd1)) != 4'b0000);
      // outcomes of a segment write (m and c as written)
      TD_table_hdr_write: cover (ld_hdr);
      TD_table_seg_m_zero: cover (ld_seg && m_zero);
      TD_table_seg_m_subnormal: cover (ld_seg && m_sub);
      TD_table_seg_m_normal: cover (ld_seg && !m_zero && !m_sub && !m_inf);
      TD_table_seg_m_inf: cover (ld_seg && m_inf);
      TD_table_seg_m_negative: cover (ld_seg && m_q[15] && !m_zero);
      TD_table_seg_c_negative: cover (ld_seg && c_code[15] && !c_zero);
      TD_table_seg_c_zero: cover (ld_seg && c_zero);
      TD_table_seg_c_subnormal: cover (ld_seg && c_sub);
      TD_table_seg_c_normal: cover (ld_seg && !c_zero && !c_sub && !c_inf);
      TD_table_seg_c_inf_from_m: cover (ld_seg && p_inf_q);
      TD_table_seg_c_overflow: cover (ld_seg && !p_inf_q && c_inf);
      // back-pressure and traffic
      TD_table_wr_stall: cover (o_v_q && !wr_ready_i);
      TD_table_slot_held: cover (st_q == SRun && sl_q != 6'(Slots) && !step);
      TD_table_rd_stall: cover (rd_valid_o && !rd_ready_i);
    end
  end

  always @(negedge rst_ni) begin
    RST_td_table_idle: cover (armed_q && st_q == SIdle);
    RST_td_table_read: cover (armed_q && st_q == SRead);
    RST_td_table_run: cover (armed_q && st_q == SRun);
    RST_td_table_write_pending: cover (armed_q && o_v_q);
  end

endmodule

bind ane_td_table ane_td_table_cov #(.SIdle(SIdle), .SRead(SRead), .SRun(SRun), .Slots(Slots)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
