// SPDX-License-Identifier: Apache-2.0
// ane_td_ctrl_cov: functional coverage of ane_td_ctrl, the TD front end (rtl/ane_td_ctrl.sv,
// docs/td_ctrl.md), at the level of the four blocks together: a walk started, done_o, an error
// raised by the fetch or by the set-up (and both, when the fetch stops on a later TD after the
// set-up refused one; the fetch's done masked by a set-up error), a new walk after an error, the
// core's START and the planar engine's START written, the kernel DMA and the table conversion
// started together and running at once, the fetch prefetching while the set-up works; and a
// reset while idle, busy and while an error is reported. The block has no state machine of its
// own: its blocks' are covered by ane_td_fetch_cov, ane_td_setup_cov, ane_td_kdma_cov and
// ane_td_table_cov. (A start while busy is a protocol error ane_td_fetch asserts against: no
// bin.)
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Reset bins: sampled at the falling edge of rst_ni. busy_o and error_o come from the blocks'
// registers, written with nonblocking assignments, so in the time step of that edge every
// process still reads them as they were before the reset: no race. armed_q (reset with rst_ni,
// set by the first clock edge after its release) keeps a fall of rst_ni with no clock edge
// since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_td_ctrl_cov (
  input wire logic       clk_i,
  input wire logic       rst_ni,
  input wire logic       start_i,
  input wire logic       busy_o,
  input wire logic       done_o,
  input wire logic       error_o,
  input wire logic       err_setup_o,
  input wire logic       f_error,
  input wire logic       f_done,
  input wire logic       f_busy,
  input wire logic       s_error,
  input wire logic       s_busy,
  input wire logic       kd_start,
  input wire logic       kd_busy,
  input wire logic       tb_start,
  input wire logic       tb_busy,
  input wire logic       cfg_we_o,
  input wire logic [7:0] cfg_addr_o,
  input wire logic       pe_cfg_we_o,
  input wire logic [5:0] pe_cfg_addr_o
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end
  logic f_error_p_q, s_error_p_q;  // the errors in the cycle before (with armed_q)
  always_ff @(posedge clk_i) begin
    f_error_p_q <= f_error;
    s_error_p_q <= s_error;
  end

  // the clocked bins: counted from the second clock edge after rst_ni rises (armed_q; a clocked
  // cover that read rst_ni would be flagged SYNCASYNCNET in the coverage build)
  always_ff @(posedge clk_i) begin
    if (armed_q) begin
      TD_ctrl_start: cover (start_i && !busy_o);
      TD_ctrl_start_after_error: cover (start_i && !busy_o && error_o);
      TD_ctrl_done: cover (done_o);
      TD_ctrl_done_masked: cover (f_done && s_error);
      TD_ctrl_err_fetch: cover (!f_error_p_q && f_error && !s_error);
      TD_ctrl_err_setup: cover (!s_error_p_q && s_error);
      TD_ctrl_err_both: cover (f_error && s_error && err_setup_o);
      TD_ctrl_core_start: cover (cfg_we_o && cfg_addr_o == 8'(ane_regs_pkg::CoreStartAddr));
      TD_ctrl_planar_start: cover (pe_cfg_we_o && pe_cfg_addr_o == 6'(ane_regs_pkg::PlanarStartAddr));
      TD_ctrl_kdma_and_table_start: cover (kd_start && tb_start);
      TD_ctrl_kdma_and_table_busy: cover (kd_busy && tb_busy);
      TD_ctrl_fetch_while_setup: cover (f_busy && s_busy);
    end
  end

  always @(negedge rst_ni) begin
    RST_td_ctrl_idle: cover (armed_q && !busy_o);
    RST_td_ctrl_busy: cover (armed_q && busy_o);
    RST_td_ctrl_error: cover (armed_q && error_o);
  end

endmodule

bind ane_td_ctrl ane_td_ctrl_cov u_cov (.*);

`default_nettype wire
// verilator coverage_on
