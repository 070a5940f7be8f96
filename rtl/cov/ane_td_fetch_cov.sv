// SPDX-License-Identifier: Apache-2.0
// ane_td_fetch_cov: functional coverage of ane_td_fetch, the TD chain walker (rtl/ane_td_fetch.sv,
// docs/td_fetch.md): every state of its read side (iss_q: IIdle .. IHalt) and of its write side
// (o_q: OIdle .. OTask) reached and every transition the doc and the RTL name taken (start, the
// address checks, the check reads, the beats, the next TD or the halt, the flush after a stop;
// the gate, the writes, the wait for task done, the prefetched next TD, the error at the gate,
// the end of the chain); each error code (1 bad stream header, 2 outside the buffer, 3 unaligned
// NextPointer, 4 MaxTds) raised, and code 1 for each of the seven streams; the acceptance path
// (a TD's checks good, its status taken, the chain done); TDs at both beat phases, credits,
// back-pressure, answers dropped after a stop, a stray task_done_i; and a reset in every state of
// both sides.
// Bound only in the coverage build (the bind below; Verilator --coverage-user counts each
// labelled cover): never synthesized, it drives nothing in the design.
//
// Reset in a state: sampled at the falling edge of rst_ni from the state registers themselves.
// The block writes them with nonblocking assignments, so in the time step of that edge every
// process still reads the state from before the reset (the reset's update comes later, in the
// NBA region): no race. A copy taken at posedge clk_i would hold the state of the cycle before.
// armed_q (reset with rst_ni, set by the first clock edge after its release) keeps a fall of
// rst_ni with no clock edge since the last one out.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_td_fetch_cov #(
  // the block's iss_e, out_e and error codes, and its outstanding-read counter, passed by the bind
  parameter logic [2:0] IIdle = 3'd0,
  parameter logic [2:0] IAddr = 3'd1,
  parameter logic [2:0] ICheck = 3'd2,
  parameter logic [2:0] IHdr = 3'd3,
  parameter logic [2:0] IStream = 3'd4,
  parameter logic [2:0] INext = 3'd5,
  parameter logic [2:0] IFlush = 3'd6,
  parameter logic [2:0] IHalt = 3'd7,
  parameter logic [1:0] OIdle = 2'd0,
  parameter logic [1:0] OGate = 2'd1,
  parameter logic [1:0] ORun = 2'd2,
  parameter logic [1:0] OTask = 2'd3,
  parameter logic [2:0] ErrStream = 3'd1,
  parameter logic [2:0] ErrLimit  = 3'd2,
  parameter logic [2:0] ErrAlign  = 3'd3,
  parameter logic [2:0] ErrMaxTds = 3'd4,
  parameter int unsigned OW = 6
) (
  input wire logic          clk_i,
  input wire logic          rst_ni,
  input wire logic          start,
  input wire logic          abort,
  input wire logic          raise,
  input wire logic          take,
  input wire logic          finish,
  input wire logic [2:0]    iss_q,
  input wire logic [1:0]    o_q,
  input wire logic [2:0]    st_code_q,
  input wire logic [2:0]    st_s_q,
  input wire logic          addr_err,
  input wire logic          ph_q,
  input wire logic          credit,
  input wire logic          run_q,
  input wire logic [OW-1:0] out_all_q,
  input wire logic          a_v_q,
  input wire logic          a_chk_q,
  input wire logic          a_last_q,
  input wire logic [2:0]    a_c_q,
  input wire logic          a_bad,
  input wire logic          chk_bad_q,
  input wire logic          o_v_q,
  input wire logic          rd_valid_o,
  input wire logic          rd_ready_i,
  input wire logic          rs_valid_i,
  input wire logic          wr_valid_o,
  input wire logic          wr_ready_i,
  input wire logic          task_done_i
);

  logic armed_q;  // out of reset for at least one clock edge
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) armed_q <= 1'b0;
    else armed_q <= 1'b1;
  end
  logic [2:0] iss_p_q;  // the states in the cycle before (with armed_q)
  logic [1:0] o_p_q;
  always_ff @(posedge clk_i) begin
    iss_p_q <= iss_q;
    o_p_q <= o_q;
  end

  // the last check answer of a TD, and whether any of its seven stream headers was bad
  logic chk_last, chk_bad;
  assign chk_last = a_v_q && run_q && a_chk_q && a_last_q;
  assign chk_bad  = chk_bad_q || a_bad;

  // the clocked bins: counted from the second clock edge after rst_ni rises (armed_q; a clocked
  // cover that read rst_ni would be flagged SYNCASYNCNET in the coverage build)
  always_ff @(posedge clk_i) begin
    if (armed_q) begin
      // states
      TD_fetch_iss_idle: cover (iss_q == IIdle);
      TD_fetch_iss_addr: cover (iss_q == IAddr);
      TD_fetch_iss_check: cover (iss_q == ICheck);
      TD_fetch_iss_hdr: cover (iss_q == IHdr);
      TD_fetch_iss_stream: cover (iss_q == IStream);
      TD_fetch_iss_next: cover (iss_q == INext);
      TD_fetch_iss_flush: cover (iss_q == IFlush);
      TD_fetch_iss_halt: cover (iss_q == IHalt);
      TD_fetch_o_idle: cover (o_q == OIdle);
      TD_fetch_o_gate: cover (o_q == OGate);
      TD_fetch_o_run: cover (o_q == ORun);
      TD_fetch_o_task: cover (o_q == OTask);
      // read side transitions
      TD_fetch_tr_iss_idle_addr: cover (iss_p_q == IIdle && iss_q == IAddr);
      TD_fetch_tr_iss_addr_check: cover (iss_p_q == IAddr && iss_q == ICheck);
      TD_fetch_tr_iss_check_halt: cover (iss_p_q == ICheck && iss_q == IHalt);
      TD_fetch_tr_iss_check_hdr: cover (iss_p_q == ICheck && iss_q == IHdr);
      TD_fetch_tr_iss_hdr_stream: cover (iss_p_q == IHdr && iss_q == IStream);
      TD_fetch_tr_iss_stream_next: cover (iss_p_q == IStream && iss_q == INext);
      TD_fetch_tr_iss_next_addr: cover (iss_p_q == INext && iss_q == IAddr);
      TD_fetch_tr_iss_next_halt: cover (iss_p_q == INext && iss_q == IHalt);
      TD_fetch_tr_iss_stream_flush: cover (iss_p_q == IStream && iss_q == IFlush);
      TD_fetch_tr_iss_flush_idle: cover (iss_p_q == IFlush && iss_q == IIdle);
      TD_fetch_tr_iss_halt_idle: cover (iss_p_q == IHalt && iss_q == IIdle);
      TD_fetch_tr_iss_next_idle: cover (iss_p_q == INext && iss_q == IIdle);
      TD_fetch_tr_iss_stream_idle: cover (iss_p_q == IStream && iss_q == IIdle);
      // write side transitions
      TD_fetch_tr_o_idle_gate: cover (o_p_q == OIdle && o_q == OGate);
      TD_fetch_tr_o_gate_run: cover (o_p_q == OGate && o_q == ORun);
      TD_fetch_tr_o_run_task: cover (o_p_q == ORun && o_q == OTask);
      TD_fetch_tr_o_task_run: cover (o_p_q == OTask && o_q == ORun);
      TD_fetch_tr_o_task_gate: cover (o_p_q == OTask && o_q == OGate);
      TD_fetch_tr_o_gate_idle: cover (o_p_q == OGate && o_q == OIdle);
      TD_fetch_tr_o_task_idle: cover (o_p_q == OTask && o_q == OIdle);
      // start (a start while busy is a protocol error the block asserts against: no bin)
      TD_fetch_start: cover (start);
      // the error codes raised, and code 1 per stream (the first bad one)
      TD_fetch_err_stream: cover (raise && st_code_q == ErrStream);
      TD_fetch_err_limit: cover (raise && st_code_q == ErrLimit);
      TD_fetch_err_align: cover (raise && st_code_q == ErrAlign);
      TD_fetch_err_maxtds: cover (raise && st_code_q == ErrMaxTds);
      TD_fetch_bad_stream_kernel_dma: cover (raise && st_code_q == ErrStream && st_s_q == 3'd0);
      TD_fetch_bad_stream_common: cover (raise && st_code_q == ErrStream && st_s_q == 3'd1);
      TD_fetch_bad_stream_tile_src: cover (raise && st_code_q == ErrStream && st_s_q == 3'd2);
      TD_fetch_bad_stream_l2: cover (raise && st_code_q == ErrStream && st_s_q == 3'd3);
      TD_fetch_bad_stream_planar: cover (raise && st_code_q == ErrStream && st_s_q == 3'd4);
      TD_fetch_bad_stream_ne: cover (raise && st_code_q == ErrStream && st_s_q == 3'd5);
      TD_fetch_bad_stream_tile_dst: cover (raise && st_code_q == ErrStream && st_s_q == 3'd6);
      TD_fetch_err_at_gate: cover (raise && o_q == OGate);
      TD_fetch_err_at_task_done: cover (raise && o_q == OTask);
      TD_fetch_abort_flush: cover (abort && rd_valid_o && !rd_ready_i);
      TD_fetch_abort_idle: cover (abort && !(rd_valid_o && !rd_ready_i));
      // the acceptance path: the address checks, the stream headers, the status taken, the end
      TD_fetch_addr_ok: cover (iss_q == ICheck && !addr_err && !abort && !start);
      TD_fetch_check_ok: cover (chk_last && !chk_bad);
      TD_fetch_check_bad: cover (chk_last && chk_bad);
      TD_fetch_check_bad_second: cover (a_v_q && run_q && a_chk_q && a_c_q != 3'd0 && chk_bad_q && a_bad);
      TD_fetch_td_ok: cover (take);
      TD_fetch_td_prefetched: cover (take && o_q == OTask);
      TD_fetch_done: cover (finish);
      // the TD's beat phase (word 0 in the lower or upper half of its first beat)
      TD_fetch_phase_lo: cover (iss_q == ICheck && !addr_err && !ph_q);
      TD_fetch_phase_hi: cover (iss_q == ICheck && !addr_err && ph_q);
      // credits, back-pressure, the reads of a stopped walk, task_done_i out of turn
      TD_fetch_credit_stall: cover (iss_q == IStream && !credit);
      TD_fetch_rd_stall: cover (rd_valid_o && !rd_ready_i);
      TD_fetch_wr_stall: cover (wr_valid_o && !wr_ready_i);
      TD_fetch_answer_dropped: cover (rs_valid_i && !run_q);
      TD_fetch_busy_stopped: cover (!run_q && out_all_q != '0);
      TD_fetch_task_wait: cover (o_q == OTask && !o_v_q && !task_done_i);
      TD_fetch_stray_task_done: cover (task_done_i && o_q != OTask);
    end
  end

  always @(negedge rst_ni) begin
    RST_td_fetch_iss_idle: cover (armed_q && iss_q == IIdle);
    RST_td_fetch_iss_addr: cover (armed_q && iss_q == IAddr);
    RST_td_fetch_iss_check: cover (armed_q && iss_q == ICheck);
    RST_td_fetch_iss_hdr: cover (armed_q && iss_q == IHdr);
    RST_td_fetch_iss_stream: cover (armed_q && iss_q == IStream);
    RST_td_fetch_iss_next: cover (armed_q && iss_q == INext);
    RST_td_fetch_iss_flush: cover (armed_q && iss_q == IFlush);
    RST_td_fetch_iss_halt: cover (armed_q && iss_q == IHalt);
    RST_td_fetch_o_idle: cover (armed_q && o_q == OIdle);
    RST_td_fetch_o_gate: cover (armed_q && o_q == OGate);
    RST_td_fetch_o_run: cover (armed_q && o_q == ORun);
    RST_td_fetch_o_task: cover (armed_q && o_q == OTask);
  end

endmodule

bind ane_td_fetch ane_td_fetch_cov #(
  .IIdle(IIdle), .IAddr(IAddr), .ICheck(ICheck), .IHdr(IHdr), .IStream(IStream), .INext(INext),
  .IFlush(IFlush), .IHalt(IHalt),
  .OIdle(OIdle), .OGate(OGate), .ORun(ORun), .OTask(OTask),
  .ErrStream(ErrStream), .ErrLimit(ErrLimit), .ErrAlign(ErrAlign), .ErrMaxTds(ErrMaxTds), .OW(OW)
) u_cov (.*);

`default_nettype wire
// verilator coverage_on
