// SPDX-License-Identifier: Apache-2.0
// ane_postproc_cov: functional coverage bins of the post-processor (NUMERICS N-3.1 .. N-3.4,
// N-5.1 .. N-5.4, and the N-2.6 output port as the fp16 store uses it; docs/postproc.md).
// Bound to ane_postproc only in the coverage build (--coverage-user); never synthesized and
// drives nothing in the design.
//
// All bins of the post-processor live here, also those that read the lanes (ane_pp_lane) and
// their rounding step (ane_pp_round): neither of those has a valid bit or a reset, so their
// signals can only be qualified from here. Lane signals are read by hierarchical reference
// (g_lane[l].u_lane...), each bin ORed over the lanes (one bin per corner, whatever the lane).
//
// Qualification: every cover sits in an `if (rst_ni)` (reset deasserted) and reads sv[k], 1 when
// the registers that end stage k hold an accepted vector (sv[0]: the vector being accepted at
// the input, accept; sv[k] = valid_q[k-1]).
// A bin that reads the registers of stage k, or the logic of stage k + 1 that reads them, is
// qualified with sv[k]. Stages as docs/postproc.md and ane_pp_lane.sv number them:
//   0 acc_i (ane_pp_round stage-1 logic)   1, 2 ane_pp_round's registers   3 s1_r
//   6 s2_r (scale)   9 s3_r (bias)   12 s4_*   13 s5a_*   18 s6b_d   28 s8_z   30 s9_*_d2
//   31 y_o (out_data_o)
// The configuration (ctrl_q, desc_q) is static while anything is in flight.
`default_nettype none

// The bins' own logic gets no line or toggle points (its cover statements still make the
// v_user points): the helpers below are not the design. coverage_on again at the end of file.
// verilator coverage_off

module ane_postproc_cov #(
  parameter int unsigned NumLanes = 16,
  parameter logic        Gen      = ane_pkg::GenM1
) (
  input wire logic                                              clk_i,
  input wire logic                                              rst_ni,
  input wire logic                                              cfg_we_i,
  input wire logic [5:0]                                        cfg_addr_i,
  input wire logic                                              in_valid_i,
  input wire logic [NumLanes*32-1:0]                            in_acc_i,
  input wire logic [15:0]                                       in_scale_i,
  input wire logic [31:0]                                       in_bias_i,
  input wire logic [NumLanes*16-1:0]                            out_data_o,
  input wire logic [30:0]                                       valid_q,  // Depth = 31
  input wire logic                                              en,
  input wire logic                                              accept,
  input wire logic [$bits(ane_regs_pkg::postproc_ctrl_t)-1:0]   ctrl_q,
  input wire logic [$bits(ane_pkg::act_desc_t)-1:0]             desc_q,
  input wire logic [15:0]                                       sc3,     // scale, stage 3
  input wire logic [31:0]                                       bi1,     // bias32, stage 1
  input wire logic [15:0]                                       bias16,  // RNE16(bi1)
  input wire logic [15:0]                                       bi6      // bias16, stage 6
);

  // ---------------------------------------------------------------- configuration, stages
  ane_regs_pkg::postproc_ctrl_t ctrl;
  ane_pkg::act_desc_t           desc;
  assign ctrl = ctrl_q;
  assign desc = desc_q;

  logic [31:0] sv;  // sv[k]: stage k holds an accepted vector (k = 0: accepted now)
  assign sv = {valid_q, accept};  // (reset: each cover block's `if (rst_ni)`)
  logic unused_sv;  // (the stages no bin reads)
  assign unused_sv = ^sv;

  // the paths the configuration selects (ane_pp_round, ane_pp_lane)
  logic st_rne, st_sr, st_int8, st_intfp, scale_on, bias_on, tbl_on, relu_fp, relu_int8, act_none;
  logic range_mode;
  assign st_rne     = !ctrl.int_acc && !ctrl.sr && !ctrl.store_int8;
  assign st_sr      = !ctrl.int_acc && ctrl.sr && !ctrl.store_int8;
  assign st_int8    = ctrl.int_acc && ctrl.store_int8;
  assign st_intfp   = ctrl.int_acc && !ctrl.store_int8;
  assign scale_on   = ctrl.scale_en && !ctrl.store_int8;
  assign bias_on    = ctrl.bias_en && !ctrl.store_int8;
  assign tbl_on     = (ctrl.act == ane_pkg::PpActTable) && !ctrl.store_int8;
  assign relu_fp    = (ctrl.act == ane_pkg::PpActRelu) && !ctrl.store_int8;
  assign relu_int8  = (ctrl.act == ane_pkg::PpActRelu) && ctrl.store_int8;
  assign act_none   = (ctrl.act == ane_pkg::PpActNone);
  assign range_mode = (desc.mode == ane_pkg::ActLog) || (desc.mode == ane_pkg::ActPow);

  logic [12:0] wmask;  // the stochastic-rounding width's mask
  assign wmask = 13'((14'd1 << ctrl.sr_width) - 14'd1);
  logic [5:0] dshift;  // log2 of a segment's width in the lanes' 2^-24 units
  assign dshift = 6'(7'sd24 + 7'(desc.step_log2));

  // ---------------------------------------------------------------- fp16 classes
  // (each takes the fields it reads: m = code[14:0], e = code[14:10])
  function automatic logic f16_nan(logic [14:0] m);
    f16_nan = (m[14:10] == 5'h1F) && (m[9:0] != 10'd0);
  endfunction
  function automatic logic f16_inf(logic [14:0] m);
    f16_inf = (m == 15'h7C00);
  endfunction
  function automatic logic f16_infnan(logic [4:0] e);
    f16_infnan = (e == 5'h1F);
  endfunction
  function automatic logic f16_zero(logic [14:0] m);
    f16_zero = (m == 15'd0);
  endfunction
  function automatic logic f16_den(logic [14:0] m);
    f16_den = (m[14:10] == 5'd0) && (m[9:0] != 10'd0);
  endfunction
  // the N-1 boundary: NaN -> +inf, -0 -> +0
  function automatic logic [15:0] f16_in(logic [15:0] h);
    f16_in = f16_nan(h[14:0]) ? 16'h7C00 : ((h == 16'h8000) ? 16'h0000 : h);
  endfunction

  // ---------------------------------------------------------------- vector-level helpers
  // the scale and the bias of the vector in stage 6 / stage 9 (the operands of its multiply
  // and its add), and the parameters of the previously accepted vector
  logic [15:0] sc4, sc5, sc6, bb7, bb8, bb9;
  always_ff @(posedge clk_i) begin
    if (en) begin
      sc4 <= sc3;
      sc5 <= sc4;
      sc6 <= sc5;
      bb7 <= bi6;
      bb8 <= bb7;
      bb9 <= bb8;
    end
  end
  logic        have_prev;
  logic [15:0] prev_scale;
  logic [31:0] prev_bias;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      have_prev <= 1'b0;
    end else if (accept) begin
      have_prev  <= 1'b1;
      prev_scale <= in_scale_i;
      prev_bias  <= in_bias_i;
    end
  end

  // bias32 -> fp16 (stage 1 register bi1, its rounding bias16)
  logic [7:0]  b_e8;
  logic [22:0] b_f;
  logic        b_nan, b_fin;
  assign b_e8  = bi1[30:23];
  assign b_f   = bi1[22:0];
  assign b_nan = (b_e8 == 8'hFF) && (b_f != 23'd0);
  assign b_fin = (b_e8 != 8'hFF);
  logic b16_inf, b16_zero, b16_den, sc6_nan;
  assign b16_inf  = f16_inf(bias16[14:0]);
  assign b16_zero = f16_zero(bias16[14:0]);
  assign b16_den  = f16_den(bias16[14:0]);
  assign sc6_nan  = f16_nan(sc6[14:0]);

  // ---------------------------------------------------------------- per-lane bin conditions
  // Each vector holds one bit per lane; a bin is the OR over the lanes, qualified in its cover.
  // N-3.1 scale (stage 6) and bias (stage 9)
  logic [NumLanes-1:0] sc_ovf, sc_den, sc_unf, sc_zinf, sc_negz, sc_den_op, bs_ovf, bs_den, bs_cancel,
                       bs_infinf, bs_negz_in, none_negz;
  // N-3.2 ReLU (stage 9)
  logic [NumLanes-1:0] relu_neg, relu_negz, relu_pinf, relu_ninf, relu_nan, relu_negnan, relu_pos, relu_i8neg;
  // N-3.3 int8 requantization (stage 0), int32 -> fp16 (stage 2), the fp store's port (stage 0)
  logic [NumLanes-1:0] i8_exact, i8_below, i8_above, i8_tie_dn, i8_tie_up, i8_tie_neg, i8_sat_hi, i8_sat_lo,
                       i8_max, i8_min, i8_round_sat, i8_round_min, ia_min, ia_max, ia_zero;
  logic [NumLanes-1:0] if_exact, if_below, if_above, if_tie_dn, if_tie_up, if_inf, if_round_inf, if_den,
                       if_den_up, if_zero_neg, if_zero_pos;
  logic [NumLanes-1:0] port_inf, port_tie, port_below;
  // N-3.4 stochastic rounding: input classes (stage 0), the draw (stage 1), the result (stage 2)
  logic [NumLanes-1:0] sr_nan, sr_inf, sr_big, sr_small, sr_f32den, sr_zero, sr_negz;
  logic [NumLanes-1:0] sr_up, sr_notup, sr_exact, sr_dropped, sr_draw0, sr_drawmax, sr_nokeep, sr_w1_up,
                       sr_w1_notup, sr_w13_up, sr_w13_notup;
  logic [NumLanes-1:0] sr_carry, sr_ovf, sr_den_up, sr_flush, sr_kept, sr_negzero;
  // N-5.4 special inputs, N-5.1 modes and symmetry (stage 9)
  logic [NumLanes-1:0] t_nan, t_pinf, t_ninf, t_negz, t_zspec, t_logz, t_origin, t_negspec, t_den_pos,
                       t_den_neg, t_odd_neg, t_even_neg, t_direct, t_exp2, t_trig, t_log, t_pow, t_cos,
                       t_split, t_negate;
  // N-5.1 argument (stages 12, 13)
  logic [NumLanes-1:0] a_exp2_neg, a_exp2_int, a_log_den, a_pow_den, a_split_odd, a_log_neg, n_clamp_hi,
                       n_clamp_lo;
  logic [3:0]          quad_l [NumLanes];
  // N-5.1 segment select (stage 18)
  logic [31:0]         seg_l [NumLanes];
  logic [31:0]         knot_l [NumLanes];
  logic [NumLanes-1:0] s_left, s_left_near, s_right, s_ident, s_knot_hi, s_exp2_one, s_trig_one;
  // N-5.1 / N-5.3 post step (stage 28), N-5.1 / N-5.4 result (stages 30, 31)
  logic [NumLanes-1:0] p_exp_inf, p_exp_zero, p_exp_den, p_pow_inf, p_pow_den;
  logic [NumLanes-1:0] r_odd_neg, r_negz, r_den, r_origin;

  for (genvar l = 0; l < NumLanes; l++) begin : g_ln
    // ================================================================ stage 0: acc_i
    logic [31:0]        acc;
    logic [7:0]         e8;
    logic [22:0]        f;
    logic signed [32:0] fl;            // floor(acc / 2^shift)
    logic [31:0]        rem, half;
    logic               up;
    logic signed [33:0] qi;            // RNE(acc / 2^shift) before the clamp
    logic               sh0;
    assign acc  = in_acc_i[l*32 +: 32];
    assign e8   = acc[30:23];
    assign f    = acc[22:0];
    assign sh0  = (ctrl.shift == 5'd0);
    assign fl   = $signed({acc[31], acc}) >>> ctrl.shift;
    assign rem  = acc & ((32'd1 << ctrl.shift) - 32'd1);
    assign half = sh0 ? 32'd0 : (32'd1 << (ctrl.shift - 5'd1));
    assign up   = !sh0 && ((rem > half) || (rem == half && fl[0]));
    assign qi   = $signed({fl[32], fl}) + $signed({33'd0, up});

    assign i8_exact[l]     = st_int8 && !sh0 && rem == 32'd0;
    assign i8_below[l]     = st_int8 && rem != 32'd0 && rem < half;
    assign i8_above[l]     = st_int8 && !sh0 && rem > half;
    assign i8_tie_dn[l]    = st_int8 && !sh0 && rem == half && !fl[0];
    assign i8_tie_up[l]    = st_int8 && !sh0 && rem == half && fl[0];
    assign i8_tie_neg[l]   = st_int8 && !sh0 && rem == half && acc[31];
    assign i8_sat_hi[l]    = st_int8 && qi > 34'sd127;
    assign i8_sat_lo[l]    = st_int8 && qi < -34'sd128;
    assign i8_max[l]       = st_int8 && qi == 34'sd127;
    assign i8_min[l]       = st_int8 && qi == -34'sd128;
    assign i8_round_sat[l] = st_int8 && fl == 33'sd127 && up;
    assign i8_round_min[l] = st_int8 && fl == -33'sd129 && up;
    assign ia_min[l]       = ctrl.int_acc && acc == 32'h8000_0000;
    assign ia_max[l]       = ctrl.int_acc && acc == 32'h7FFF_FFFF;
    assign ia_zero[l]      = ctrl.int_acc && acc == 32'd0;

    // the fp16 store's RNE port (ane_mac_out): overflow at 65520, an exact tie, below 2^-14
    assign port_inf[l]   = st_rne && e8 != 8'hFF && (e8 >= 8'd143 || (e8 == 8'd142 && f >= 23'h7FF000));
    assign port_tie[l]   = st_rne && e8 >= 8'd113 && e8 <= 8'd142 && f[12:0] == 13'h1000;
    assign port_below[l] = st_rne && e8 < 8'd113 && acc[30:0] != 31'd0;

    // A NaN reaches ReLU or a table only as an accumulator value: no step after the rounding
    // makes one (the rounding maps it to +inf, N-1.1), so these bins read the input, on a path
    // with neither scale nor bias (the NaN arrives at the activation as the +inf it became).
    logic acc_nan;
    assign acc_nan        = !ctrl.int_acc && e8 == 8'hFF && f != 23'd0;
    assign relu_nan[l]    = relu_fp && !scale_on && !bias_on && acc_nan;
    assign relu_negnan[l] = relu_fp && !scale_on && !bias_on && acc_nan && acc[31];
    assign t_nan[l]       = tbl_on && !scale_on && !bias_on && acc_nan;

    // stochastic rounding's input classes
    assign sr_nan[l]    = st_sr && e8 == 8'hFF && f != 23'd0;
    assign sr_inf[l]    = st_sr && e8 == 8'hFF && f == 23'd0;
    assign sr_big[l]    = st_sr && e8 >= 8'd143 && e8 != 8'hFF;
    assign sr_small[l]  = st_sr && e8 >= 8'd1 && e8 < 8'd113;
    assign sr_f32den[l] = st_sr && e8 == 8'd0 && f != 23'd0;
    assign sr_zero[l]   = st_sr && acc[30:0] == 31'd0;
    assign sr_negz[l]   = st_sr && acc == 32'h8000_0000;

    // ================================================================ stages 1, 2: ane_pp_round
    // stage 1 registers: the significand, the shift to the kept bits, the draw
    logic [23:0] sig24, lowmask;
    logic [12:0] q;  // the kept bits, as far as the draw reaches
    logic [4:0]  qshift;
    logic        qzero;
    logic [12:0] rnd, qf;
    logic [13:0] qsum;
    logic        cls1;  // sr_cls_q[1]: NaN, inf or beyond the fp16 range
    logic        fin1, low_nz, carry;
    assign sig24   = g_lane[l].u_lane.u_round.sig24;
    assign qshift  = g_lane[l].u_lane.u_round.qshift;
    assign qzero   = g_lane[l].u_lane.u_round.qzero;
    assign rnd     = g_lane[l].u_lane.u_round.rnd;
    assign cls1    = g_lane[l].u_lane.u_round.sr_cls_q[1];
    assign fin1    = !cls1;  // finite and within the fp16 range (classes 0 and 1)
    assign q       = qzero ? 13'd0 : 13'(sig24 >> qshift);
    assign lowmask = (24'd1 << qshift) - 24'd1;
    assign low_nz  = qzero ? (sig24 != 24'd0) : ((sig24 & lowmask) != 24'd0);
    assign qf      = q & wmask;
    assign qsum    = {1'b0, qf} + {1'b0, rnd};
    assign carry   = qsum > {1'b0, wmask};

    assign sr_up[l]        = st_sr && fin1 && qf != 13'd0 && carry;
    assign sr_notup[l]     = st_sr && fin1 && qf != 13'd0 && !carry;
    assign sr_exact[l]     = st_sr && fin1 && sig24 != 24'd0 && qf == 13'd0 && !low_nz;
    assign sr_dropped[l]   = st_sr && fin1 && !qzero && low_nz;
    assign sr_draw0[l]     = st_sr && fin1 && rnd == 13'd0;
    assign sr_drawmax[l]   = st_sr && fin1 && rnd == wmask;
    assign sr_nokeep[l]    = st_sr && fin1 && qzero && sig24 != 24'd0;
    assign sr_w1_up[l]     = sr_up[l] && ctrl.sr_width == 4'd1;
    assign sr_w1_notup[l]  = sr_notup[l] && ctrl.sr_width == 4'd1;
    assign sr_w13_up[l]    = sr_up[l] && ctrl.sr_width == 4'd13;
    assign sr_w13_notup[l] = sr_notup[l] && ctrl.sr_width == 4'd13;

    // stage 2 registers: the significand plus the draw; int32 -> fp16 round and sticky bits
    logic [24:0] sum;
    logic [1:0]  cls2;
    logic [4:0]  eb2;
    logic        sign2;
    logic [11:0] t2;
    logic [14:0] code2;
    logic [4:0]  code2e;
    assign sum   = g_lane[l].u_lane.u_round.sum;
    assign cls2  = g_lane[l].u_lane.u_round.sr_cls;
    assign eb2   = g_lane[l].u_lane.u_round.sr_eb;
    assign sign2 = g_lane[l].u_lane.u_round.sign;
    assign t2    = 12'(sum >> ctrl.sr_width);
    assign code2 = (cls2 == 2'd0) ? ({eb2, 10'd0} + {3'd0, t2}) : {3'd0, t2};
    assign code2e = code2[14:10];  // (the result's exponent field; t2 itself gives the rest)

    assign sr_carry[l]   = st_sr && cls2 == 2'd0 && t2 == 12'd2048;
    assign sr_ovf[l]     = st_sr && cls2 == 2'd0 && code2e == 5'h1F;
    assign sr_den_up[l]  = st_sr && cls2 == 2'd1 && t2 == 12'd1024;
    assign sr_flush[l]   = st_sr && Gen == ane_pkg::GenM1 && cls2 == 2'd1 && t2 != 12'd0 && t2 < 12'd1024;
    assign sr_kept[l]    = st_sr && Gen == ane_pkg::GenM5 && cls2 == 2'd1 && t2 != 12'd0 && t2 < 12'd1024;
    assign sr_negzero[l] = st_sr && cls2 == 2'd1 && sign2 && t2 == 12'd0;

    logic        ir_bit, isticky, inormal, ibig, izero;
    logic        msh0;  // m_sh[0]: the kept LSB
    logic [14:0] icode;
    assign ir_bit  = g_lane[l].u_lane.u_round.ir_bit;
    assign isticky = g_lane[l].u_lane.u_round.isticky;
    assign inormal = g_lane[l].u_lane.u_round.inormal;
    assign ibig    = g_lane[l].u_lane.u_round.ibig;
    assign izero   = g_lane[l].u_lane.u_round.izero;
    assign msh0    = g_lane[l].u_lane.u_round.m_sh[0];
    assign icode   = g_lane[l].u_lane.u_round.icode;

    assign if_exact[l]     = st_intfp && !izero && !ibig && !ir_bit && !isticky;
    assign if_below[l]     = st_intfp && !izero && !ibig && !ir_bit && isticky;
    assign if_above[l]     = st_intfp && !izero && !ibig && ir_bit && isticky;
    assign if_tie_dn[l]    = st_intfp && !izero && !ibig && ir_bit && !isticky && !msh0;
    assign if_tie_up[l]    = st_intfp && !izero && !ibig && ir_bit && !isticky && msh0;
    assign if_inf[l]       = st_intfp && !izero && (ibig || icode[14:10] == 5'h1F);
    assign if_round_inf[l] = st_intfp && !izero && !ibig && icode[14:10] == 5'h1F;
    assign if_den[l]       = st_intfp && !izero && !inormal && icode != 15'd0 && icode < 15'h0400;
    assign if_den_up[l]    = st_intfp && !izero && !inormal && icode == 15'h0400;
    assign if_zero_neg[l]  = st_intfp && !izero && icode == 15'd0 && sign2;
    assign if_zero_pos[l]  = st_intfp && !izero && icode == 15'd0 && !sign2;

    // ================================================================ stage 6: scale
    logic [15:0] s1_r, s2_r, s3_r, sa4, sa5, sa6, ba7, ba8, ba9;
    assign s1_r = g_lane[l].u_lane.s1_r;
    assign s2_r = g_lane[l].u_lane.s2_r;
    assign s3_r = g_lane[l].u_lane.s3_r;
    always_ff @(posedge clk_i) begin
      if (en) begin
        sa4 <= s1_r;
        sa5 <= sa4;
        sa6 <= sa5;
        ba7 <= s2_r;
        ba8 <= ba7;
        ba9 <= ba8;
      end
    end
    // operands after the N-1 boundary
    logic [15:0] ma, mb, aa, ab;
    assign ma = f16_in(sa6);
    assign mb = f16_in(sc6);
    assign aa = f16_in(ba9);
    assign ab = f16_in(bb9);

    assign sc_ovf[l]    = scale_on && !f16_infnan(ma[14:10]) && !f16_infnan(mb[14:10]) && f16_inf(s2_r[14:0]);
    assign sc_den[l]    = scale_on && f16_den(s2_r[14:0]);
    assign sc_unf[l]    = scale_on && !f16_infnan(ma[14:10]) && !f16_infnan(mb[14:10]) && !f16_zero(ma[14:0]) && !f16_zero(mb[14:0]) &&
                          f16_zero(s2_r[14:0]);
    assign sc_zinf[l]   = scale_on && ((f16_zero(ma[14:0]) && f16_inf(mb[14:0])) || (f16_inf(ma[14:0]) && f16_zero(mb[14:0])));
    assign sc_negz[l]   = scale_on && s2_r == 16'h8000;
    assign sc_den_op[l] = scale_on && (f16_den(ma[14:0]) || f16_den(mb[14:0])) && !f16_zero(s2_r[14:0]);

    // ================================================================ stage 9: bias
    assign bs_ovf[l]     = bias_on && !f16_infnan(aa[14:10]) && !f16_infnan(ab[14:10]) && f16_inf(s3_r[14:0]);
    assign bs_den[l]     = bias_on && f16_den(s3_r[14:0]);
    assign bs_cancel[l]  = bias_on && !f16_infnan(aa[14:10]) && !f16_infnan(ab[14:10]) && !f16_zero(aa[14:0]) && !f16_zero(ab[14:0]) &&
                           f16_zero(s3_r[14:0]);
    assign bs_infinf[l]  = bias_on && f16_inf(aa[14:0]) && f16_inf(ab[14:0]) && (aa[15] != ab[15]);
    assign bs_negz_in[l] = bias_on && (ba9 == 16'h8000 || bb9 == 16'h8000);
    assign none_negz[l]  = act_none && !ctrl.store_int8 && s3_r == 16'h8000;

    // ================================================================ stage 9 -> 10: activation input
    logic [15:0] x4;
    logic        x4_fin_nz;  // finite and nonzero after the boundary
    assign x4        = f16_in(s3_r);
    assign x4_fin_nz = !f16_infnan(x4[14:10]) && !f16_zero(x4[14:0]);

    assign relu_neg[l]    = relu_fp && s3_r[15] && !f16_infnan(s3_r[14:10]) && !f16_zero(s3_r[14:0]);
    assign relu_negz[l]   = relu_fp && s3_r == 16'h8000;
    assign relu_pinf[l]   = relu_fp && s3_r == 16'h7C00;
    assign relu_ninf[l]   = relu_fp && s3_r == 16'hFC00;
    assign relu_pos[l]    = relu_fp && !s3_r[15] && !f16_infnan(s3_r[14:10]) && !f16_zero(s3_r[14:0]);
    assign relu_i8neg[l]  = relu_int8 && s3_r[15];

    logic plain;  // the input goes through the table (no special result)
    assign plain = x4_fin_nz && !(x4[15] && desc.neg_en);
    assign t_pinf[l]     = tbl_on && s3_r == 16'h7C00;
    assign t_ninf[l]     = tbl_on && s3_r == 16'hFC00;
    assign t_negz[l]     = tbl_on && s3_r == 16'h8000;
    assign t_zspec[l]    = tbl_on && x4 == 16'h0000 && (desc.zero_en || range_mode);
    assign t_logz[l]     = tbl_on && x4 == 16'h0000 && desc.mode == ane_pkg::ActLog;
    assign t_origin[l]   = tbl_on && x4 == 16'h0000 && !desc.zero_en && !range_mode;
    assign t_negspec[l]  = tbl_on && x4_fin_nz && x4[15] && desc.neg_en;
    assign t_den_pos[l]  = tbl_on && f16_den(x4[14:0]) && !x4[15];
    assign t_den_neg[l]  = tbl_on && f16_den(x4[14:0]) && x4[15] && !desc.neg_en;
    assign t_odd_neg[l]  = tbl_on && plain && x4[15] && desc.sym == ane_pkg::ActSymOdd;
    assign t_even_neg[l] = tbl_on && plain && x4[15] && desc.sym == ane_pkg::ActSymEven;
    assign t_direct[l]   = tbl_on && plain && desc.mode == ane_pkg::ActDirect;
    assign t_exp2[l]     = tbl_on && plain && desc.mode == ane_pkg::ActExp2;
    assign t_trig[l]     = tbl_on && plain && desc.mode == ane_pkg::ActTrig;
    assign t_log[l]      = tbl_on && plain && desc.mode == ane_pkg::ActLog;
    assign t_pow[l]      = tbl_on && plain && desc.mode == ane_pkg::ActPow;
    assign t_cos[l]      = tbl_on && plain && desc.mode == ane_pkg::ActTrig && desc.cos_phase;
    assign t_split[l]    = tbl_on && plain && desc.mode == ane_pkg::ActPow && desc.pow_split;
    assign t_negate[l]   = tbl_on && plain && desc.mode == ane_pkg::ActPow && desc.pow_negate;

    // origin bias: a table input of 0 that the segments evaluate, followed to the output
    logic [21:0] zin;  // zin[k]: stage 10 + k
    always_ff @(posedge clk_i) begin
      if (en) zin <= {zin[20:0], t_origin[l]};
    end
    logic [15:0] y;
    assign y = out_data_o[l*16 +: 16];
    assign r_origin[l] = zin[21] && !f16_zero(y[14:0]) && y[14:10] == 5'd0;

    // ================================================================ stages 12, 13: argument
    logic        spec12;
    logic [15:0] v12, frac12;
    logic [4:0]  x12e;  // s4_x's exponent field
    logic        om5, neg5;
    logic signed [6:0] le;
    assign spec12 = g_lane[l].u_lane.s4_spec;
    assign v12    = g_lane[l].u_lane.s4_v;
    assign x12e   = g_lane[l].u_lane.s4_x[14:10];
    assign frac12 = g_lane[l].u_lane.frac_code;
    assign om5    = g_lane[l].u_lane.om5;
    assign neg5   = g_lane[l].u_lane.neg5;
    assign le     = g_lane[l].u_lane.le;

    logic tbl12;  // a table input with no special result, stage 12
    assign tbl12 = tbl_on && !spec12;
    assign a_exp2_neg[l]  = tbl12 && desc.mode == ane_pkg::ActExp2 && v12[15] && !f16_infnan(v12[14:10]) &&
                            frac12 != 16'd0;
    assign a_exp2_int[l]  = tbl12 && desc.mode == ane_pkg::ActExp2 && !f16_infnan(v12[14:10]) && !f16_zero(v12[14:0]) &&
                            frac12 == 16'd0;
    assign a_log_den[l]   = tbl12 && desc.mode == ane_pkg::ActLog && x12e == 5'd0;
    assign a_pow_den[l]   = tbl12 && desc.mode == ane_pkg::ActPow && x12e == 5'd0;
    assign a_split_odd[l] = tbl12 && desc.mode == ane_pkg::ActPow && desc.pow_split && le[0];
    assign a_log_neg[l]   = tbl12 && desc.mode == ane_pkg::ActLog && le < 7'sd0;
    assign quad_l[l]      = (tbl12 && desc.mode == ane_pkg::ActTrig && !f16_infnan(v12[14:10])) ?
                            4'(4'd1 << {neg5, om5}) : 4'd0;

    // stage 13 registers: what n is made of
    logic spec13, nv_gt64, nv_gt63, nv_neg;
    assign spec13  = g_lane[l].u_lane.side5a[17];
    assign nv_gt64 = g_lane[l].u_lane.nv_gt64;
    assign nv_gt63 = g_lane[l].u_lane.nv_gt63;
    assign nv_neg  = g_lane[l].u_lane.nv_neg;
    assign n_clamp_hi[l] = tbl_on && !spec13 && desc.mode == ane_pkg::ActExp2 && !nv_neg && nv_gt64;
    assign n_clamp_lo[l] = tbl_on && !spec13 && desc.mode == ane_pkg::ActExp2 && nv_neg && nv_gt63;

    // ================================================================ stage 18: segment select
    logic signed [42:0] d;
    logic [42:0]        dmask;
    logic [1:0]         sel6;
    logic [4:0]         idx;
    logic               spec18, tbl18, on_knot;
    assign d       = g_lane[l].u_lane.s6b_d;
    assign sel6    = g_lane[l].u_lane.sel6;
    assign idx     = g_lane[l].u_lane.idx;
    assign spec18  = g_lane[l].u_lane.side6b[17];
    assign tbl18   = tbl_on && !spec18;
    assign dmask   = (43'd1 << dshift) - 43'd1;
    assign on_knot = (d & $signed(dmask)) == 43'sd0;
    assign seg_l[l]  = (tbl18 && sel6 == 2'd0) ? (32'd1 << idx) : 32'd0;
    assign knot_l[l] = (tbl18 && sel6 == 2'd0 && on_knot) ? (32'd1 << idx) : 32'd0;
    assign s_left[l]      = tbl18 && sel6 == 2'd1;
    assign s_left_near[l] = tbl18 && sel6 == 2'd1 && d > -$signed(43'd1 << dshift);
    assign s_right[l]     = tbl18 && sel6 == 2'd2;
    assign s_ident[l]     = tbl18 && sel6 == 2'd3;
    assign s_knot_hi[l]   = tbl18 && d == $signed(43'd32 << dshift);
    assign s_exp2_one[l]  = tbl18 && sel6 == 2'd2 && desc.mode == ane_pkg::ActExp2;
    assign s_trig_one[l]  = tbl18 && sel6 == 2'd2 && desc.mode == ane_pkg::ActTrig;

    // ================================================================ stage 28: post step
    logic [15:0] z28;
    logic        spec28;
    assign z28    = g_lane[l].u_lane.s8_z;
    assign spec28 = g_lane[l].u_lane.side8[17];
    assign p_exp_inf[l]  = tbl_on && !spec28 && desc.mode == ane_pkg::ActExp2 && f16_inf(z28[14:0]);
    assign p_exp_zero[l] = tbl_on && !spec28 && desc.mode == ane_pkg::ActExp2 && f16_zero(z28[14:0]);
    assign p_exp_den[l]  = tbl_on && !spec28 && desc.mode == ane_pkg::ActExp2 && f16_den(z28[14:0]);
    assign p_pow_inf[l]  = tbl_on && !spec28 && desc.mode == ane_pkg::ActPow && f16_inf(z28[14:0]);
    assign p_pow_den[l]  = tbl_on && !spec28 && desc.mode == ane_pkg::ActPow && f16_den(z28[14:0]);

    // ================================================================ stage 30: the result
    logic [17:0] side30;
    logic [15:0] z30, lk30, zp, zf;
    assign side30 = g_lane[l].u_lane.side9_d2;  // {spec, specv, flip}
    assign z30    = g_lane[l].u_lane.s9_z_d2;
    assign lk30   = g_lane[l].u_lane.lk9;
    assign zp     = (desc.mode == ane_pkg::ActLog) ? lk30 : z30;
    assign zf     = (side30[0] && zp[14:0] != 15'd0) ? {~zp[15], zp[14:0]} : zp;
    assign r_odd_neg[l] = tbl_on && !side30[17] && side30[0] && zp[14:0] != 15'd0;
    assign r_negz[l]    = tbl_on && !side30[17] && zf == 16'h8000;
    assign r_den[l]     = tbl_on && !side30[17] && f16_den(zf[14:0]);
    logic unused_ln;  // (the bits no bin of the lane reads)
    assign unused_ln = ^{side30[16:1], code2[9:0], ma[15], mb[15], y[15], z28[15]};
  end

  // segments, knots and quadrants: ORed over the lanes
  logic [31:0] seg_any, knot_any;
  logic [3:0]  quad_any;
  always_comb begin
    seg_any  = '0;
    knot_any = '0;
    quad_any = '0;
    for (int l = 0; l < int'(NumLanes); l++) begin
      seg_any  = seg_any | seg_l[l];
      knot_any = knot_any | knot_l[l];
      quad_any = quad_any | quad_l[l];
    end
  end

  logic unused_cfg;  // descriptor fields no bin reads
  assign unused_cfg = ^{desc.at_neg, desc.at_zero, desc.at_ninf, desc.at_pinf, desc.right, desc.left, desc.k,
                        desc.lo, desc.right_identity, bias16[15]};

  // ---------------------------------------------------------------- bins
  // No function is called inside a cover expression: Verilator 5.006 evaluated such a call after
  // the cover that used it (the bin read the call's initial 0); the calls are in the
  // continuous assignments above.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // ---- N-3.1 scale and bias (the RTL has per-vector, i.e. per-channel, parameters only)
      N3_1_scale_on: cover (sv[6] && scale_on);
      N3_1_scale_off: cover (sv[6] && !scale_on && !ctrl.store_int8);
      N3_1_bias_on: cover (sv[9] && bias_on);
      N3_1_bias_off: cover (sv[9] && !bias_on && !ctrl.store_int8);
      N3_1_scale_int_acc: cover (sv[6] && scale_on && ctrl.int_acc);
      N3_1_bias_int_acc: cover (sv[9] && bias_on && ctrl.int_acc);
      N3_1_scale_changes_per_channel: cover (sv[0] && scale_on && have_prev && in_scale_i != prev_scale);
      N3_1_bias_changes_per_channel: cover (sv[0] && bias_on && have_prev && in_bias_i != prev_bias);
      N3_1_scale_overflow_inf: cover (sv[6] && |sc_ovf);
      N3_1_scale_result_denormal: cover (sv[6] && |sc_den);
      N3_1_scale_underflow_zero: cover (sv[6] && |sc_unf);
      N3_1_scale_zero_times_inf: cover (sv[6] && |sc_zinf);
      N3_1_scale_result_neg_zero: cover (sv[6] && |sc_negz);
      N3_1_scale_denormal_operand: cover (sv[6] && |sc_den_op);
      N3_1_scale_nan_acts_as_inf: cover (sv[6] && scale_on && sc6_nan);
      N3_1_bias_overflow_inf: cover (sv[9] && |bs_ovf);
      N3_1_bias_result_denormal: cover (sv[9] && |bs_den);
      N3_1_bias_cancels_to_zero: cover (sv[9] && |bs_cancel);
      N3_1_bias_inf_minus_inf: cover (sv[9] && |bs_infinf);
      N3_1_bias_neg_zero_operand: cover (sv[9] && |bs_negz_in);
      N3_1_bias32_nan: cover (sv[1] && bias_on && b_nan);
      N3_1_bias32_overflow_inf: cover (sv[1] && bias_on && b_fin && b16_inf);
      N3_1_bias32_rounds_to_zero: cover (sv[1] && bias_on && b_fin && bi1[30:0] != 31'd0 && b16_zero);
      N3_1_bias32_denormal: cover (sv[1] && bias_on && b16_den);
      N3_1_bias32_neg_zero: cover (sv[1] && bias_on && bi1 == 32'h8000_0000);
      N3_1_bias32_tie: cover (sv[1] && bias_on && b_e8 >= 8'd113 && b_e8 <= 8'd142 && b_f[12:0] == 13'h1000);
      N3_1_bias32_inexact: cover (sv[1] && bias_on && b_e8 >= 8'd113 && b_e8 <= 8'd142 && b_f[12:0] != 13'd0);

      // ---- N-3.2 activation
      N3_2_act_none: cover (sv[9] && act_none);
      N3_2_act_relu: cover (sv[9] && relu_fp);
      N3_2_act_table: cover (sv[9] && tbl_on);
      N3_2_act_relu_int8: cover (sv[9] && relu_int8);
      N3_2_relu_negative: cover (sv[9] && |relu_neg);
      N3_2_relu_neg_zero: cover (sv[9] && |relu_negz);
      N3_2_relu_pos_inf: cover (sv[9] && |relu_pinf);
      N3_2_relu_neg_inf: cover (sv[9] && |relu_ninf);
      N3_2_relu_nan_acc: cover (sv[0] && |relu_nan);
      N3_2_relu_negative_nan_acc: cover (sv[0] && |relu_negnan);
      N3_2_relu_positive: cover (sv[9] && |relu_pos);
      N3_2_relu_int8_negative: cover (sv[9] && |relu_i8neg);
      N3_2_none_keeps_neg_zero: cover (sv[9] && |none_negz);

      // ---- N-3.3 store and requantization
      N3_3_store_fp16_rne: cover (sv[0] && st_rne);
      N3_3_store_int8: cover (sv[0] && st_int8);
      N3_3_store_fp16_int_acc: cover (sv[0] && st_intfp);
      N3_3_int8_shift_zero: cover (sv[0] && st_int8 && ctrl.shift == 5'd0);
      N3_3_int8_shift_max: cover (sv[0] && st_int8 && ctrl.shift == 5'd31);
      N3_3_int_fp16_shift_zero: cover (sv[0] && st_intfp && ctrl.shift == 5'd0);
      N3_3_int_fp16_shift_max: cover (sv[0] && st_intfp && ctrl.shift == 5'd31);
      N3_3_int8_exact: cover (sv[0] && |i8_exact);
      N3_3_int8_below_half: cover (sv[0] && |i8_below);
      N3_3_int8_above_half: cover (sv[0] && |i8_above);
      N3_3_int8_tie_even_down: cover (sv[0] && |i8_tie_dn);
      N3_3_int8_tie_even_up: cover (sv[0] && |i8_tie_up);
      N3_3_int8_tie_negative: cover (sv[0] && |i8_tie_neg);
      N3_3_int8_saturate_hi: cover (sv[0] && |i8_sat_hi);
      N3_3_int8_saturate_lo: cover (sv[0] && |i8_sat_lo);
      N3_3_int8_max_unsaturated: cover (sv[0] && |i8_max);
      N3_3_int8_min_unsaturated: cover (sv[0] && |i8_min);
      N3_3_int8_rounds_into_saturation: cover (sv[0] && |i8_round_sat);
      N3_3_int8_rounds_up_to_min: cover (sv[0] && |i8_round_min);
      N3_3_int_acc_min: cover (sv[0] && |ia_min);
      N3_3_int_acc_max: cover (sv[0] && |ia_max);
      N3_3_int_acc_zero: cover (sv[0] && |ia_zero);
      N3_3_int_fp16_exact: cover (sv[2] && |if_exact);
      N3_3_int_fp16_below_half: cover (sv[2] && |if_below);
      N3_3_int_fp16_above_half: cover (sv[2] && |if_above);
      N3_3_int_fp16_tie_even_down: cover (sv[2] && |if_tie_dn);
      N3_3_int_fp16_tie_even_up: cover (sv[2] && |if_tie_up);
      N3_3_int_fp16_overflow_inf: cover (sv[2] && |if_inf);
      N3_3_int_fp16_rounds_to_inf: cover (sv[2] && |if_round_inf);
      N3_3_int_fp16_denormal: cover (sv[2] && |if_den);
      N3_3_int_fp16_denormal_rounds_to_normal: cover (sv[2] && |if_den_up);
      N3_3_int_fp16_negative_rounds_to_zero: cover (sv[2] && |if_zero_neg);
      N3_3_int_fp16_positive_rounds_to_zero: cover (sv[2] && |if_zero_pos);

      // ---- N-2.6 the fp16 store's output port (RNE16, m1 flush)
      N2_6_pp_port_overflow_inf: cover (sv[0] && |port_inf);
      N2_6_pp_port_tie: cover (sv[0] && |port_tie);
      N2_6_pp_port_below_normal: cover (sv[0] && |port_below);

      // ---- N-3.4 stochastic rounding
      N3_4_sr_on: cover (sv[0] && st_sr);
      N3_4_sr_nan_in: cover (sv[0] && |sr_nan);
      N3_4_sr_inf_in: cover (sv[0] && |sr_inf);
      N3_4_sr_above_range_in: cover (sv[0] && |sr_big);
      N3_4_sr_below_normal_in: cover (sv[0] && |sr_small);
      N3_4_sr_fp32_denormal_in: cover (sv[0] && |sr_f32den);
      N3_4_sr_zero_in: cover (sv[0] && |sr_zero);
      N3_4_sr_neg_zero_in: cover (sv[0] && |sr_negz);
      N3_4_sr_round_up: cover (sv[1] && |sr_up);
      N3_4_sr_round_not_up: cover (sv[1] && |sr_notup);
      N3_4_sr_exact: cover (sv[1] && |sr_exact);
      N3_4_sr_low_bits_dropped: cover (sv[1] && |sr_dropped);
      N3_4_sr_nothing_kept: cover (sv[1] && |sr_nokeep);
      N3_4_sr_draw_zero: cover (sv[1] && |sr_draw0);
      N3_4_sr_draw_max: cover (sv[1] && |sr_drawmax);
      N3_4_sr_width_min_up: cover (sv[1] && |sr_w1_up);
      N3_4_sr_width_min_not_up: cover (sv[1] && |sr_w1_notup);
      N3_4_sr_width_max_up: cover (sv[1] && |sr_w13_up);
      N3_4_sr_width_max_not_up: cover (sv[1] && |sr_w13_notup);
      N3_4_sr_carry_next_binade: cover (sv[2] && |sr_carry);
      N3_4_sr_overflow_inf: cover (sv[2] && |sr_ovf);
      N3_4_sr_denormal_rounds_to_normal: cover (sv[2] && |sr_den_up);
      N3_4_sr_m1_flush: cover (sv[2] && |sr_flush);
      N3_4_sr_m5_denormal_kept: cover (sv[2] && |sr_kept);
      N3_4_sr_negative_to_plus_zero: cover (sv[2] && |sr_negzero);
      N3_4_sr_seed_written: cover (cfg_we_i && cfg_addr_i == 6'(ane_regs_pkg::PostprocSeedAddr));
      N3_4_sr_stall_holds_lfsr: cover (st_sr && in_valid_i && !en);
      N3_4_sr_gap_holds_lfsr: cover (st_sr && !in_valid_i && en && (|valid_q));

      // ---- N-5.4 special inputs and the origin bias (table input, stage 9)
      N5_4_nan_acc_in: cover (sv[0] && |t_nan);
      N5_4_pos_inf_in: cover (sv[9] && |t_pinf);
      N5_4_neg_inf_in: cover (sv[9] && |t_ninf);
      N5_4_neg_zero_in: cover (sv[9] && |t_negz);
      N5_4_zero_special: cover (sv[9] && |t_zspec);
      N5_4_log_zero_sentinel: cover (sv[9] && |t_logz);
      N5_4_zero_through_segments: cover (sv[9] && |t_origin);
      N5_4_negative_special: cover (sv[9] && |t_negspec);
      N5_4_denormal_in_positive: cover (sv[9] && |t_den_pos);
      N5_4_denormal_in_negative: cover (sv[9] && |t_den_neg);
      N5_4_origin_bias_out: cover (sv[31] && |r_origin);
      N5_4_table_neg_zero_to_plus_zero: cover (sv[30] && |r_negz);
      N5_4_table_result_denormal: cover (sv[30] && |r_den);

      // ---- N-5.1 modes, symmetry, argument reduction
      N5_1_mode_direct: cover (sv[9] && |t_direct);
      N5_1_mode_exp2: cover (sv[9] && |t_exp2);
      N5_1_mode_trig: cover (sv[9] && |t_trig);
      N5_1_mode_log: cover (sv[9] && |t_log);
      N5_1_mode_pow: cover (sv[9] && |t_pow);
      N5_1_trig_cos_phase: cover (sv[9] && |t_cos);
      N5_1_pow_split: cover (sv[9] && |t_split);
      N5_1_pow_negate: cover (sv[9] && |t_negate);
      N5_1_sym_odd_negative: cover (sv[9] && |t_odd_neg);
      N5_1_sym_even_negative: cover (sv[9] && |t_even_neg);
      N5_1_exp2_negative_fraction: cover (sv[12] && |a_exp2_neg);
      N5_1_exp2_integer_argument: cover (sv[12] && |a_exp2_int);
      N5_1_log_denormal_in: cover (sv[12] && |a_log_den);
      N5_1_log_negative_exponent: cover (sv[12] && |a_log_neg);
      N5_1_pow_denormal_in: cover (sv[12] && |a_pow_den);
      N5_1_pow_split_odd_exponent: cover (sv[12] && |a_split_odd);
      N5_1_exp2_n_clamp_hi: cover (sv[13] && |n_clamp_hi);
      N5_1_exp2_n_clamp_lo: cover (sv[13] && |n_clamp_lo);

      // ---- N-5.1 the segment select: both ends, the right end knot, the step's ends
      N5_1_left: cover (sv[18] && |s_left);
      N5_1_left_within_one_segment: cover (sv[18] && |s_left_near);
      N5_1_right: cover (sv[18] && |s_right);
      N5_1_right_identity: cover (sv[18] && |s_ident);
      N5_1_knot_hi_exact: cover (sv[18] && |s_knot_hi);
      N5_1_exp2_t_one: cover (sv[18] && |s_exp2_one);
      N5_1_trig_t_one: cover (sv[18] && |s_trig_one);
      N5_1_step_min: cover (sv[18] && tbl_on && desc.step_log2 == -4'sd8);
      N5_1_step_max: cover (sv[18] && tbl_on && desc.step_log2 == 4'sd7);

      // ---- N-5.1 / N-5.3 the post step, N-5.1 odd symmetry on the result
      N5_3_exp_overflow_inf: cover (sv[28] && |p_exp_inf);
      N5_1_exp2_underflow_zero: cover (sv[28] && |p_exp_zero);
      N5_1_exp2_result_denormal: cover (sv[28] && |p_exp_den);
      N5_1_pow_overflow_inf: cover (sv[28] && |p_pow_inf);
      N5_1_pow_result_denormal: cover (sv[28] && |p_pow_den);
      N5_1_odd_result_negated: cover (sv[30] && |r_odd_neg);
    end
  end

  // N-5.1: every segment of the table (the index the lookup uses), the segment's first knot hit
  // exactly, and the trig mode's quadrant q (after the cos phase). One cover per index, each
  // with its own label: Verilator's coverage writer merges the points of a generate loop's
  // iterations into one (same file, line and label; only the instance path differs).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      N5_1_segment_0: cover (sv[18] && seg_any[0]);
      N5_1_segment_1: cover (sv[18] && seg_any[1]);
      N5_1_segment_2: cover (sv[18] && seg_any[2]);
      N5_1_segment_3: cover (sv[18] && seg_any[3]);
      N5_1_segment_4: cover (sv[18] && seg_any[4]);
      N5_1_segment_5: cover (sv[18] && seg_any[5]);
      N5_1_segment_6: cover (sv[18] && seg_any[6]);
      N5_1_segment_7: cover (sv[18] && seg_any[7]);
      N5_1_segment_8: cover (sv[18] && seg_any[8]);
      N5_1_segment_9: cover (sv[18] && seg_any[9]);
      N5_1_segment_10: cover (sv[18] && seg_any[10]);
      N5_1_segment_11: cover (sv[18] && seg_any[11]);
      N5_1_segment_12: cover (sv[18] && seg_any[12]);
      N5_1_segment_13: cover (sv[18] && seg_any[13]);
      N5_1_segment_14: cover (sv[18] && seg_any[14]);
      N5_1_segment_15: cover (sv[18] && seg_any[15]);
      N5_1_segment_16: cover (sv[18] && seg_any[16]);
      N5_1_segment_17: cover (sv[18] && seg_any[17]);
      N5_1_segment_18: cover (sv[18] && seg_any[18]);
      N5_1_segment_19: cover (sv[18] && seg_any[19]);
      N5_1_segment_20: cover (sv[18] && seg_any[20]);
      N5_1_segment_21: cover (sv[18] && seg_any[21]);
      N5_1_segment_22: cover (sv[18] && seg_any[22]);
      N5_1_segment_23: cover (sv[18] && seg_any[23]);
      N5_1_segment_24: cover (sv[18] && seg_any[24]);
      N5_1_segment_25: cover (sv[18] && seg_any[25]);
      N5_1_segment_26: cover (sv[18] && seg_any[26]);
      N5_1_segment_27: cover (sv[18] && seg_any[27]);
      N5_1_segment_28: cover (sv[18] && seg_any[28]);
      N5_1_segment_29: cover (sv[18] && seg_any[29]);
      N5_1_segment_30: cover (sv[18] && seg_any[30]);
      N5_1_segment_31: cover (sv[18] && seg_any[31]);
      N5_1_knot_0_exact: cover (sv[18] && knot_any[0]);
      N5_1_knot_1_exact: cover (sv[18] && knot_any[1]);
      N5_1_knot_2_exact: cover (sv[18] && knot_any[2]);
      N5_1_knot_3_exact: cover (sv[18] && knot_any[3]);
      N5_1_knot_4_exact: cover (sv[18] && knot_any[4]);
      N5_1_knot_5_exact: cover (sv[18] && knot_any[5]);
      N5_1_knot_6_exact: cover (sv[18] && knot_any[6]);
      N5_1_knot_7_exact: cover (sv[18] && knot_any[7]);
      N5_1_knot_8_exact: cover (sv[18] && knot_any[8]);
      N5_1_knot_9_exact: cover (sv[18] && knot_any[9]);
      N5_1_knot_10_exact: cover (sv[18] && knot_any[10]);
      N5_1_knot_11_exact: cover (sv[18] && knot_any[11]);
      N5_1_knot_12_exact: cover (sv[18] && knot_any[12]);
      N5_1_knot_13_exact: cover (sv[18] && knot_any[13]);
      N5_1_knot_14_exact: cover (sv[18] && knot_any[14]);
      N5_1_knot_15_exact: cover (sv[18] && knot_any[15]);
      N5_1_knot_16_exact: cover (sv[18] && knot_any[16]);
      N5_1_knot_17_exact: cover (sv[18] && knot_any[17]);
      N5_1_knot_18_exact: cover (sv[18] && knot_any[18]);
      N5_1_knot_19_exact: cover (sv[18] && knot_any[19]);
      N5_1_knot_20_exact: cover (sv[18] && knot_any[20]);
      N5_1_knot_21_exact: cover (sv[18] && knot_any[21]);
      N5_1_knot_22_exact: cover (sv[18] && knot_any[22]);
      N5_1_knot_23_exact: cover (sv[18] && knot_any[23]);
      N5_1_knot_24_exact: cover (sv[18] && knot_any[24]);
      N5_1_knot_25_exact: cover (sv[18] && knot_any[25]);
      N5_1_knot_26_exact: cover (sv[18] && knot_any[26]);
      N5_1_knot_27_exact: cover (sv[18] && knot_any[27]);
      N5_1_knot_28_exact: cover (sv[18] && knot_any[28]);
      N5_1_knot_29_exact: cover (sv[18] && knot_any[29]);
      N5_1_knot_30_exact: cover (sv[18] && knot_any[30]);
      N5_1_knot_31_exact: cover (sv[18] && knot_any[31]);
      N5_1_trig_quadrant_0: cover (sv[12] && quad_any[0]);
      N5_1_trig_quadrant_1: cover (sv[12] && quad_any[1]);
      N5_1_trig_quadrant_2: cover (sv[12] && quad_any[2]);
      N5_1_trig_quadrant_3: cover (sv[12] && quad_any[3]);
    end
  end

endmodule

bind ane_postproc ane_postproc_cov #(.NumLanes(NumLanes), .Gen(Gen)) u_cov (.*);

// verilator coverage_on
