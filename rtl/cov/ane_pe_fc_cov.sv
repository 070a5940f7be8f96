// SPDX-License-Identifier: Apache-2.0
// ane_pe_fc_cov: functional-coverage bins of the planar format converter ane_pe_fc (NUMERICS
// N-4.1 format conversion: int8 <-> fp16, scale, bias, unary; N-4.2 its indeterminate forms;
// N-4.6 the width-slice gain): every unary operation, int8 and fp16 in and out, per-channel and
// scalar table entries, a table write in the cycle a beat reads it, 0 x inf in the scale
// multiply and inf - inf in the bias add, the gain on and off, the gain's overflow to inf at
// the contract's worked values (4094 -> 65504; 4095, which enters as 4096, -> inf), the
// gained int8 store, and the int8 store's clamps. Bins read the input handshake (in_valid_i &&
// in_ready_o with the table entry the beat reads) or the output handshake (with the stage's
// gain and format, carried here by helper registers on the unit's enable).
// Bound to every ane_pe_fc (the engine's FC_A and FC_O) only in the coverage build (the bind
// at the end of this file); never synthesized. Nothing here drives the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_pe_fc_cov #(
  parameter int unsigned NumLanes    = 16,
  parameter int unsigned NumChannels = 16,
  localparam int unsigned ChW        = (NumChannels > 1) ? $clog2(NumChannels) : 1
) (
  input wire logic                   clk_i,
  input wire logic                   rst_ni,
  input wire logic                   cfg_we_i,
  input wire logic [ChW-1:0]         cfg_addr_i,
  input wire logic                   in_valid_i,
  input wire logic                   in_ready_o,
  input wire logic [NumLanes*16-1:0] in_data_i,
  input wire logic                   in_int8_i,
  input wire logic                   in_perch_i,
  input wire logic [ChW-1:0]         in_ch_i,
  input wire ane_pkg::pe_fc_unary_e  in_unary_i,
  input wire logic                   in_gain_i,
  input wire logic                   in_out_int8_i,
  input wire logic                   out_valid_o,
  input wire logic                   out_ready_i,
  input wire logic [NumLanes*16-1:0] out_y_o,
  // the unit's own signals: the table entry the beat reads, its select, the stage enable and
  // the gain and output-format flags of stage 7 / 8
  input wire logic [ChW-1:0]         sel,
  input wire logic [31:0]            entry,
  input wire logic                   en,
  input wire logic                   gain7_q,
  input wire logic                   oint8_q
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  logic fire, ofire;
  assign fire  = live_q && in_valid_i && in_ready_o;
  assign ofire = live_q && out_valid_o && out_ready_i;

  // The output register's gain and format (stage 9), one register on from the unit's.
  logic gain8_q, gain9_q, oint9_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      gain8_q <= gain7_q;
      gain9_q <= gain8_q;
      oint9_q <= oint8_q;
    end
  end

  logic [15:0] scale, bias, sb, bb;
  logic        ident;
  assign scale = entry[31:16];
  assign bias  = entry[15:0];
  assign sb    = ane_pkg::fp16_boundary(scale);
  assign bb    = ane_pkg::fp16_boundary(bias);
  assign ident = scale == ane_pkg::Fp16One && bias[14:0] == 15'd0;  // (1.0, +-0): x unchanged

  // Per-lane predicates of the accepted beat (x: the lane's value as the multiplier sees it,
  // after N-1), OR-ed over the lanes.
  logic zi, ii, negz, i8min, g_ovf, g_ovf_neg, g_4094, g_4096;
  logic o_127, o_m128, o_inf;
  always_comb begin
    {zi, ii, negz, i8min, g_ovf, g_ovf_neg, g_4094, g_4096} = '0;
    {o_127, o_m128, o_inf} = '0;
    for (int l = 0; l < int'(NumLanes); l++) begin
      logic [15:0] d, x, y;
      logic        x_inf, x_zero, s_inf, s_zero, p_inf, big, usign;
      d      = in_data_i[16*l +: 16];
      x      = ane_pkg::fp16_boundary(in_int8_i ? ane_pkg::int8_to_fp16(d[7:0]) : d);
      y      = out_y_o[16*l +: 16];
      x_inf  = x[14:10] == 5'h1F;
      x_zero = x[14:0] == 15'd0;
      s_inf  = sb[14:10] == 5'h1F;
      s_zero = sb[14:0] == 15'd0;
      // x * scale: 0 x inf (N-4.2); p an infinity meeting a bias infinity of the other sign
      zi    |= (x_zero && s_inf) || (x_inf && s_zero);
      p_inf  = (x_inf && !s_zero) || (s_inf && !x_zero);
      ii    |= p_inf && bb[14:0] == 15'h7C00 && (bb[15] != (x[15] ^ sb[15]));
      negz  |= !in_int8_i && d == ane_pkg::Fp16NegZero;
      i8min |= in_int8_i && d[7:0] == 8'h80;
      // the gain under the identity entry: |x| >= 4096 (finite) overflows to inf; 4094 gives
      // 65504, 4096 (where 4095 rounds to) inf. relu of a negative value is +0, no overflow.
      big        = !in_int8_i && !x_inf && x[14:0] >= 15'h6C00 &&
                   !(in_unary_i == ane_pkg::PeFcRelu && x[15]);
      usign      = (in_unary_i != ane_pkg::PeFcAbs) && (x[15] ^ (in_unary_i == ane_pkg::PeFcNeg));
      g_ovf     |= big && !usign;
      g_ovf_neg |= big && usign;
      g_4094    |= !in_int8_i && x[14:0] == 15'h6BFF;
      g_4096    |= !in_int8_i && x[14:0] == 15'h6C00;
      // the output: the int8 store's clamps, an infinity
      o_127  |= y == 16'h007F;
      o_m128 |= y == 16'hFF80;
      o_inf  |= y[14:0] == 15'h7C00;
    end
  end

  // N-4.1: one bin per unary operation (0 none, 1 abs, 2 neg, 3 relu).
  if (1) begin : g_unary_0
    always_ff @(posedge clk_i) begin
      N4_1_unary_0: cover (fire && in_unary_i == 2'(0));
    end
  end
  if (1) begin : g_unary_1
    always_ff @(posedge clk_i) begin
      N4_1_unary_1: cover (fire && in_unary_i == 2'(1));
    end
  end
  if (1) begin : g_unary_2
    always_ff @(posedge clk_i) begin
      N4_1_unary_2: cover (fire && in_unary_i == 2'(2));
    end
  end
  if (1) begin : g_unary_3
    always_ff @(posedge clk_i) begin
      N4_1_unary_3: cover (fire && in_unary_i == 2'(3));
    end
  end

  always_ff @(posedge clk_i) begin
    // ---- N-4.1: formats and the table ----
    N4_1_in_fp16:                 cover (fire && !in_int8_i);
    N4_1_in_int8:                 cover (fire && in_int8_i);
    N4_1_in_int8_min:             cover (fire && i8min);
    N4_1_in_neg_zero:             cover (fire && negz);
    N4_1_out_fp16:                cover (fire && !in_out_int8_i);
    N4_1_out_int8:                cover (fire && in_out_int8_i);
    N4_1_int8_in_int8_out:        cover (fire && in_int8_i && in_out_int8_i);
    N4_1_scalar_entry:            cover (fire && !in_perch_i);
    N4_1_per_channel_entry:       cover (fire && in_perch_i);
    N4_1_per_channel_last_entry:  cover (fire && in_perch_i && in_ch_i == ChW'(NumChannels - 1));
    N4_1_table_write_while_read:  cover (fire && cfg_we_i && cfg_addr_i == sel);
    N4_1_identity_entry:          cover (fire && ident);
    N4_1_int8_store_clamp_hi:     cover (ofire && oint9_q && o_127);
    N4_1_int8_store_clamp_lo:     cover (ofire && oint9_q && o_m128);
    N4_1_back_pressure:           cover (live_q && out_valid_o && !out_ready_i);
    // ---- N-4.2: at the scale multiply and the bias add ----
    N4_2_fc_zero_times_inf:       cover (fire && zi);
    N4_2_fc_inf_minus_inf:        cover (fire && ii);
    // ---- N-4.6: the width-slice gain ----
    N4_6_gain_off:                cover (fire && !in_gain_i);
    N4_6_gain_on:                 cover (fire && in_gain_i);
    N4_6_gain_4094_to_max:        cover (fire && in_gain_i && ident && g_4094);
    N4_6_gain_4096_to_inf:        cover (fire && in_gain_i && ident && g_4096);
    N4_6_gain_overflow_pos_inf:   cover (fire && in_gain_i && ident && !in_out_int8_i && g_ovf);
    N4_6_gain_overflow_neg_inf:   cover (fire && in_gain_i && ident && !in_out_int8_i && g_ovf_neg);
    N4_6_gain_int8_store:         cover (fire && in_gain_i && in_out_int8_i);
    N4_6_gain_inf_result:         cover (ofire && gain9_q && !oint9_q && o_inf);
  end

endmodule

bind ane_pe_fc ane_pe_fc_cov #(.NumLanes(NumLanes), .NumChannels(NumChannels)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
