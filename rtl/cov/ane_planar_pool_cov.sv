// SPDX-License-Identifier: Apache-2.0
// ane_planar_pool_cov: functional-coverage bins of the engine's pooling path ane_planar_pool
// (NUMERICS N-4.5; docs/planar.md "The engine", MODE.KIND 3): the transposes and descriptors
// around ane_pe_pool. A short last channel group completed with zero rows, a group of one
// channel, several groups, the columns past a row's end dropped, an output chunk completed with
// zero rows, a write descriptor dropped for a channel past C, partial and full output chunks,
// and an output at the last column of a row PoolW wide (the widest output row). Bins read the
// handshake of the stage whose signals they use (the input transpose, the column hand-over to
// the pooling unit, the output transpose, the descriptor port) or start_i.
// Bound to every ane_planar_pool only in the coverage build (the bind at the end of this file);
// never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_planar_pool_cov #(
  parameter int unsigned NumLanes = 16,
  parameter int unsigned PoolW    = 64,
  localparam int unsigned NW      = $clog2(NumLanes + 1)
) (
  input wire logic          clk_i,
  input wire logic          rst_ni,
  input wire logic          start_i,
  input wire logic          in_valid_i,
  input wire logic          in_ready_o,
  input wire logic          in_clast_i,
  input wire logic          d_valid_o,
  input wire logic          d_ready_i,
  input wire logic [NW-1:0] d_n_o,
  // the unit's own signals: the transposes' handshakes and state, the group count
  input wire logic [13:0]   ng,
  input wire logic [NW-1:0] r_q,
  input wire logic          pad_q,
  input wire logic          ti_valid,
  input wire logic          ti_ready,
  input wire logic          to_valid,
  input wire logic          to_ready,
  input wire logic          keep,
  input wire logic          opad_q,
  input wire logic          tq_valid,
  input wire logic          tq_ready,
  input wire logic [13:0]   ox_q
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  logic infire, tifire, tofire, tqfire, dfire;
  assign infire = live_q && in_valid_i && in_ready_o;
  assign tifire = live_q && ti_valid && ti_ready;
  assign tofire = live_q && to_valid && to_ready;
  assign tqfire = live_q && tq_valid && tq_ready;
  assign dfire  = live_q && d_valid_o && d_ready_i;

  always_ff @(posedge clk_i) begin
    N4_5_one_group:                 cover (live_q && start_i && ng == 14'd1);
    N4_5_several_groups:            cover (live_q && start_i && ng > 14'd1);
    N4_5_group_of_one_channel:      cover (infire && in_clast_i && r_q == '0);
    N4_5_short_group_zero_rows:     cover (tifire && pad_q);
    N4_5_columns_past_end_dropped:  cover (tofire && !keep);
    N4_5_out_chunk_zero_rows:       cover (tqfire && opad_q);
    N4_5_widest_row_out:            cover (tqfire && !opad_q && ox_q == 14'(PoolW - 1));
    N4_5_desc_channel_past_c:       cover (dfire && d_n_o == '0);
    N4_5_desc_partial_chunk:        cover (dfire && d_n_o != '0 && d_n_o < NW'(NumLanes));
    N4_5_desc_full_chunk:           cover (dfire && d_n_o == NW'(NumLanes));
  end

endmodule

bind ane_planar_pool ane_planar_pool_cov #(.NumLanes(NumLanes), .PoolW(PoolW)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
