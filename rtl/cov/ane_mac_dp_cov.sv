// SPDX-License-Identifier: Apache-2.0
// ane_mac_dp_cov: functional-coverage bins of one MAC lane's datapath (NUMERICS N-1, N-2.3 to
// N-2.9), per generation (Gen):
//   L5  m1: the quad stage, add12 (N-2.4): roundings, ties, the one dropped next to 4096, the
//       4096 + 1 step of the 5116 worked sum, carries, cancellations, infinities, the padding;
//       m5: the exact quad sum (N-2.4 m5), read in L3 and carried to L5;
//   L9  the accumulate (N-2.5), the port ceiling (N-2.6), zero signs (N-2.7), the int32
//       saturating add (N-2.8) and the compare (N-2.9);
//   the output register (ane_mac_out's fp16 port value: N-2.6, the m1 flush and the m5
//       gradual underflow of N-2.3, N-2.7), each result once, when it enters the head of the
//       output queue (every result that enters it leaves through the result port).
// Stage valid bits: L5 = en_i && |ctl_i.l5_twe (an fp operation writes its pending quad),
// L9 = en_i && |ctl_i.l9_fwe (a result is written); the values an L5 / L9 bin needs from
// earlier stages (add12's operands in L2, the accumulator read in L5, the quad in L6 (m1) or
// L4 (m5)) are copied down a small delay line that advances with en_i, as the pipeline does.
// All bins also need rst_ni.
// The m5 exact quad (t4, and ta3 / pb3 / tsum3 in L3) lives inside the generate block g_m5 of
// ane_mac_dp, out of reach of the bind's port list: the m5 branch below reads it by its
// hierarchical name (g_m5.*, resolved upwards from this instance into its parent).
// Bound only in the coverage build (bind below); never synthesized. It reads the datapath's
// signals and drives nothing in the design.
`default_nettype none

// Line and toggle counters off in this file (its helper logic is not the design); the cover
// statements (v_user points) count regardless.
// verilator coverage_off
module ane_mac_dp_cov #(
  parameter logic Gen      = ane_pkg::GenM1,
  parameter logic Fp16Port = 1'b1
) (
  input wire logic                                   clk_i,
  input wire logic                                   rst_ni,
  input wire logic                                   en_i,
  input wire logic [$bits(ane_pkg::mac_ctl_t)-1:0]   ctl_i,
  input wire logic [$bits(ane_pkg::mac_oq_t)-1:0]    oq_i,
  input wire logic [255:0]                           acc_q,
  input wire logic [7:0]                             sat_q,
  input wire logic [31:0]                            fp_res,
  input wire logic                                   res_ovf,
  input wire logic [$bits(ane_pkg::mac_fv_t)-1:0]    t_sel,
  input wire logic [$bits(ane_pkg::mac_fv_t)-1:0]    p2,
  input wire logic [$bits(ane_pkg::mac_fv_t)-1:0]    s5,
  input wire logic [$bits(ane_pkg::mac_fv_t)-1:0]    t6,
  input wire logic [31:0]                            out_acc_o,
  input wire logic [15:0]                            out_fp16_o,
  input wire logic                                   out_sat_o
);

  // Reset released: the covers read this flop, not rst_ni (a clocked read of the asynchronous
  // reset is SYNCASYNCNET); it rises at the first clock edge after the reset.
  logic live_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) live_q <= 1'b0;
    else         live_q <= 1'b1;
  end

  ane_pkg::mac_ctl_t ctl;
  ane_pkg::mac_oq_t  oq;
  assign ctl = ctl_i;
  assign oq  = oq_i;

  // Fixed point for the L9 bins: magnitudes below 2^17 on the lsb 2^-53 (70 bits), signed sums
  // in 72 bits. Every fp32 accumulator from 2^-30 up and every quad of the domain is exact there.
  localparam logic [71:0] Fx2048   = 72'd1 << 64;
  localparam logic [71:0] Fx32768  = 72'd1 << 68;
  localparam logic [71:0] FxTrip   = (72'd32760 << 53) - (72'd1 << 43);  // RNE_fp32 >= 32760
  localparam logic [71:0] Fx32744  = 72'd32744 << 53;                    // rounds to 32736 (tie)

  // ================================================================ L9: the accumulate
  // The accumulator the operation at L9 read in L5 (as the datapath's acc6, then +0 when its
  // quad starts the reduction), carried to L9.
  logic [31:0] acc6_q, a6, a7_q, a8_q, a9_q;
  always_comb a6 = ctl.l6_qclr ? 32'd0 : acc6_q;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      acc6_q <= ctl.l5_fwd ? fp_res : acc_q[32*ctl.l5_slot +: 32];
      a7_q   <= a6;
      a8_q   <= a7_q;
      a9_q   <= a8_q;
    end
  end

  // The quad t of the operation at L9 (set by the generation's branch below).
  logic              t9_zero, t9_inf, t9_sign, t9_dom, t9_one;
  logic [69:0]       t9_fix;
  logic signed [9:0] t9_exp;

  // the accumulator read (a), the result written (r)
  logic [7:0]        a_e8, r_e8;
  logic              a_nan, a_inf, a_zero, a_den, a_sign, a_dom, a_fnz;
  logic              r_inf, r_zero, r_sign, r_dom, r_fnz;
  logic [69:0]       a_fix, r_fix;
  logic signed [9:0] a_exp, r_exp, hi_exp;
  logic signed [10:0] d_at;  // exponent of acc minus exponent of t
  logic [71:0]       xs, as72, ts72, rs72, abs_x, dif, abs_dif, ulp_r;
  logic              dom, both_nz, ceil_dom;
  logic [31:0]       cmp_acc;
  logic              v9, fpv, intv, cmpv;
  always_comb begin
    v9   = live_q && en_i && (ctl.l9_fwe != 8'd0);
    fpv  = v9 && !ctl.l9_int && !ctl.l9_cmp;
    intv = v9 && ctl.l9_int;
    cmpv = v9 && ctl.l9_cmp;

    a_e8   = a9_q[30:23];
    a_nan  = (a_e8 == 8'hFF) && (a9_q[22:0] != 23'd0);
    a_inf  = a_e8 == 8'hFF;                    // a NaN acts as +inf (N-1.1)
    a_zero = a9_q[30:0] == 31'd0;
    a_den  = (a_e8 == 8'h00) && !a_zero;
    a_sign = a9_q[31] && !a_nan && !a_zero;    // -0 acts as +0 (N-1.2)
    a_fnz  = !a_inf && !a_zero;
    a_exp  = $signed({2'b00, (a_e8 == 8'h00) ? 8'd1 : a_e8}) - 10'sd127;
    a_dom  = a_zero || ((a_e8 >= 8'd97) && (a_e8 <= 8'd143));
    a_fix  = a_zero ? 70'd0 : (70'({1'b1, a9_q[22:0]}) << (a_e8 - 8'd97));

    r_e8   = fp_res[30:23];
    r_inf  = r_e8 == 8'hFF;
    r_zero = fp_res[30:0] == 31'd0;
    r_sign = fp_res[31];
    r_fnz  = !r_inf && !r_zero;
    r_exp  = $signed({2'b00, (r_e8 == 8'h00) ? 8'd1 : r_e8}) - 10'sd127;
    r_dom  = r_zero || ((r_e8 >= 8'd97) && (r_e8 <= 8'd143));
    r_fix  = r_zero ? 70'd0 : (70'({1'b1, fp_res[22:0]}) << (r_e8 - 8'd97));

    as72    = a_sign ? (~{2'b00, a_fix} + 72'd1) : {2'b00, a_fix};
    ts72    = t9_sign ? (~{2'b00, t9_fix} + 72'd1) : {2'b00, t9_fix};
    rs72    = r_sign ? (~{2'b00, r_fix} + 72'd1) : {2'b00, r_fix};
    xs      = as72 + ts72;                       // the exact acc + t
    abs_x   = xs[71] ? (~xs + 72'd1) : xs;
    dif     = xs - rs72;
    abs_dif = dif[71] ? (~dif + 72'd1) : dif;
    ulp_r   = 72'd1 << (r_e8 - 8'd97);
    dom      = a_dom && t9_dom && !a_inf && !t9_inf;
    both_nz  = a_fnz && !t9_zero && !t9_inf;
    ceil_dom = fpv && ctl.l9_ceiling && dom;
    hi_exp   = (a_exp > t9_exp) ? a_exp : t9_exp;
    d_at     = 11'(a_exp) - 11'(t9_exp);
    cmp_acc  = a_nan ? 32'h7F80_0000 : ((a9_q == 32'h8000_0000) ? 32'd0 : a9_q);
  end

  // ---------------------------------------------------------------- L9 conditions
  logic c_cancel0, c_cancel0_neg, c_dt_ge25, c_da_ge25, c_d_mid, c_near, c_carry, c_renorm;
  logic c_rounds, c_tie, c_ones, c_acc_nan, c_acc_nzero, c_acc_den, c_inf_fin, c_inf_ninf;
  logic c_fin_inf, c_start0, c_cont, c_tzero, c_lt_2m14, c_lt_2m24;
  logic c_ceil_at, c_ceil_tie, c_ceil_above, c_ceil_below, c_ceil_cross, c_ceil_neg;
  logic c_ceil_loaded, c_noceil_k1, c_tripped;
  logic c_int_max, c_int_min, c_int_step, c_int_sticky, c_int_short;
  logic c_cmp_take, c_cmp_keep, c_cmp_first, c_cmp_nan, c_cmp_big, c_cmp_neg;
  always_comb begin
    c_cancel0     = fpv && both_nz && r_zero;
    c_cancel0_neg = c_cancel0 && a_sign;
    c_dt_ge25     = fpv && both_nz && !a_den && (d_at >= 11'sd25);
    c_da_ge25     = fpv && both_nz && (d_at <= -11'sd25);
    c_d_mid       = fpv && both_nz && (((d_at >= 11'sd2) && (d_at <= 11'sd24)) ||
                                       ((d_at <= -11'sd2) && (d_at >= -11'sd24)));
    c_near        = fpv && both_nz && (a_sign != t9_sign) && (d_at >= -11'sd1) && (d_at <= 11'sd1);
    c_carry       = fpv && both_nz && (a_sign == t9_sign) && r_fnz && (r_exp > hi_exp);
    c_renorm      = fpv && both_nz && (a_sign != t9_sign) && r_fnz && ((r_exp + 10'sd2) <= hi_exp);
    c_rounds      = fpv && both_nz && dom && r_dom && !r_inf && (rs72 != xs);
    c_tie         = c_rounds && ((abs_dif << 1) == ulp_r);
    c_ones        = fpv && t9_one && !a_sign && dom && (a_fix >= 70'(Fx2048)) && r_dom && !r_inf &&
                    (rs72 == xs);
    c_acc_nan     = fpv && a_nan;
    c_acc_nzero   = fpv && (a9_q == 32'h8000_0000);
    c_acc_den     = fpv && a_den;
    c_inf_fin     = fpv && a_inf && !a_nan && !t9_inf;
    c_inf_ninf    = fpv && a_inf && t9_inf && (a_sign != t9_sign);
    c_fin_inf     = fpv && !a_inf && t9_inf;
    c_start0      = fpv && ctl.l9_qclr;
    c_cont        = fpv && !ctl.l9_qclr && a_fnz;
    c_tzero       = fpv && t9_zero && a_fnz;
    c_lt_2m14     = fpv && r_fnz && (r_e8 < 8'd113);
    c_lt_2m24     = fpv && r_fnz && (r_e8 < 8'd103);

    c_ceil_at     = ceil_dom && (abs_x == Fx32768);
    c_ceil_tie    = ceil_dom && (abs_x >= FxTrip) && (abs_x < Fx32768);
    c_ceil_above  = ceil_dom && (abs_x > Fx32768);
    c_ceil_below  = ceil_dom && (abs_x > Fx32744) && (abs_x < FxTrip);
    c_ceil_cross  = ceil_dom && (abs_x >= FxTrip) && ({2'b00, a_fix} < FxTrip) && ({2'b00, t9_fix} < FxTrip);
    c_ceil_neg    = ceil_dom && xs[71] && (abs_x >= FxTrip);
    c_ceil_loaded = fpv && ctl.l9_ceiling && !a_inf && (a9_q[30:0] >= 31'h46FF_F000) && t9_zero;
    c_noceil_k1   = fpv && !ctl.l9_ceiling && !r_inf && (fp_res[30:0] >= 31'h46FF_F000);
    c_tripped     = fpv && ctl.l9_ceiling && a_inf && !a_nan && !t9_inf && !t9_zero && (a_sign != t9_sign);

    c_int_max    = intv && res_ovf && (fp_res == 32'h7FFF_FFFF);
    c_int_min    = intv && res_ovf && (fp_res == 32'h8000_0000);
    c_int_step   = intv && !res_ovf && (fp_res[31:24] != a9_q[31:24]);
    c_int_sticky = intv && !ctl.l9_satclr && sat_q[ctl.l9_slot];
    c_int_short  = intv && !res_ovf && ((fp_res[31:20] == 12'h7FF) || (fp_res[31:20] == 12'h800));

    c_cmp_take  = cmpv && ctl.l9_hv && (fp_res != cmp_acc);
    c_cmp_keep  = cmpv && ctl.l9_hv && (fp_res == cmp_acc);
    c_cmp_first = cmpv && !ctl.l9_hv;
    c_cmp_nan   = cmpv && ctl.l9_hv && a_nan;
    c_cmp_big   = cmpv && !r_inf && (fp_res[30:0] >= 31'h46FF_F000);
    c_cmp_neg   = cmpv && r_sign && !r_zero;
  end

  // ================================================================ the output register
  // Each result once, in the cycle after it entered the head (head_new: from L9; head_skid: from
  // the skid entry); its kind follows it as the result does.
  typedef struct packed {
    logic intg;
    logic cmp;
    logic ceil;
  } tag_t;
  tag_t head_tag_q, skid_tag_q, l9_tag;
  logic fresh_q;
  always_comb l9_tag = {ctl.l9_int, ctl.l9_cmp, ctl.l9_ceiling};  // {intg, cmp, ceil}
  always_ff @(posedge clk_i) begin
    if (oq.head_new) head_tag_q <= l9_tag;
    else if (oq.head_skid) head_tag_q <= skid_tag_q;
    if (oq.skid_new) skid_tag_q <= l9_tag;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fresh_q <= 1'b0;
    else fresh_q <= oq.head_new || oq.head_skid;
  end

  logic       pv, pfp, pint, pcmp, o_fin, o_nz, o_nrm16;
  logic [7:0] o_e8;
  logic       c_p_sat, c_p_max, c_p_min, c_p_zero_neg, c_p_zero;
  logic       c_p_32752, c_p_inf_ceil, c_p_ninf, c_p_k1_big, c_p_k1_ovf, c_p_65504, c_p_tie, c_p_above_tie;
  logic       c_p_5116, c_p_cmp_big, c_p_cmp_pinf, c_p_cmp_neg;
  logic       c_p_flush, c_p_up_2m14, c_p_03ff_flush, c_p_den, c_p_den_neg, c_p_smallest, c_p_03ff_kept;
  logic       c_p_under0;
  always_comb begin
    pv      = live_q && fresh_q;
    pfp     = pv && !head_tag_q.intg && !head_tag_q.cmp;
    pint    = pv && head_tag_q.intg;
    pcmp    = pv && head_tag_q.cmp;
    o_e8    = out_acc_o[30:23];
    o_fin   = o_e8 != 8'hFF;
    o_nz    = out_acc_o[30:0] != 31'd0;
    o_nrm16 = (o_e8 >= 8'd113) && (o_e8 <= 8'd142);  // 2^-14 <= |acc| < 2^16

    c_p_sat      = pint && out_sat_o;
    c_p_max      = pint && (out_acc_o == 32'h7FFF_FFFF);
    c_p_min      = pint && (out_acc_o == 32'h8000_0000);
    c_p_zero_neg = pfp && out_acc_o[31] && o_nz && o_fin && (out_fp16_o == 16'h0000);
    c_p_zero     = pfp && (out_acc_o == 32'd0) && (out_fp16_o == 16'h0000);

    c_p_32752     = pfp && head_tag_q.ceil && (out_fp16_o[14:0] == 15'h77FF);
    c_p_inf_ceil  = pfp && head_tag_q.ceil && (out_fp16_o[14:0] == 15'h7C00);
    c_p_ninf      = pfp && (out_fp16_o == 16'hFC00);
    c_p_k1_big    = pfp && !head_tag_q.ceil && (out_fp16_o[14:10] == 5'd30);
    c_p_k1_ovf    = pfp && !head_tag_q.ceil && o_fin && (out_fp16_o[14:0] == 15'h7C00);
    c_p_65504     = pfp && (out_fp16_o[14:0] == 15'h7BFF);
    c_p_tie       = pfp && o_nrm16 && (out_acc_o[12:0] == 13'h1000);
    c_p_above_tie = pfp && o_nrm16 && !out_acc_o[13] && out_acc_o[12] && (out_acc_o[11:0] != 12'd0);
    c_p_5116      = pfp && (out_acc_o == 32'h459F_E800) && (out_fp16_o == 16'h6CFF);  // 5117 -> 5116
    c_p_cmp_big   = pcmp && (out_fp16_o[14:10] == 5'd30);
    c_p_cmp_pinf  = pcmp && (out_fp16_o == 16'h7C00);
    c_p_cmp_neg   = pcmp && out_fp16_o[15] && (out_fp16_o[14:0] != 15'd0);

    c_p_flush      = pfp && (o_e8 >= 8'd103) && (o_e8 <= 8'd112) && (out_fp16_o == 16'h0000);
    c_p_up_2m14    = pfp && (o_e8 <= 8'd112) && o_nz && (out_fp16_o[14:0] == 15'h0400);
    c_p_03ff_flush = pfp && (o_e8 == 8'd112) && (out_acc_o[22:0] >= 23'h7F_C000) &&
                     (out_acc_o[22:0] < 23'h7F_E000) && (out_fp16_o == 16'h0000);
    c_p_den        = pfp && (out_fp16_o[14:10] == 5'd0) && (out_fp16_o[9:0] != 10'd0);
    c_p_den_neg    = c_p_den && out_fp16_o[15];
    c_p_smallest   = pfp && (out_fp16_o[14:0] == 15'h0001);
    c_p_03ff_kept  = pfp && (out_fp16_o[14:0] == 15'h03FF);
    c_p_under0     = pfp && o_fin && o_nz && (out_fp16_o == 16'h0000);
  end

  // ================================================================ generation-specific
  if (Gen == ane_pkg::GenM1) begin : g_cov_m1
    // ---- L9: the quad is t6 in L6, carried to L9
    ane_pkg::mac_fv_t t7_q, t8_q, t9_q;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        t7_q <= t6;
        t8_q <= t7_q;
        t9_q <= t8_q;
      end
    end
    always_comb begin
      t9_zero = t9_q.zero;
      t9_inf  = t9_q.inf;
      t9_sign = t9_q.sign;  // a zero has sign 0
      t9_dom  = t9_q.zero || (!t9_q.inf && (t9_q.e >= 7'd32) && (t9_q.e <= 7'd80));
      t9_fix  = t9_q.zero ? 70'd0 : (70'(t9_q.sig) << (t9_q.e - 7'd32));
      t9_exp  = $signed({3'b000, t9_q.e}) - 10'sd64;
      t9_one  = !t9_q.zero && !t9_q.inf && !t9_q.sign && (t9_q.e == 7'd64) && (t9_q.sig == 22'h20_0000);
    end

    // ---- L5: add12 (ane_mac_add12), its operands from L2 carried to L5
    ane_pkg::mac_fv_t x3_q, x4_q, x5_q, y3_q, y4_q, y5_q, sx, sy, s, big, sml;
    logic [2:0]       f3_q, f4_q, f5_q;  // {pass, pad, inj}
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        x3_q <= t_sel;
        y3_q <= p2;
        f3_q <= {ctl.l2_pass, ctl.l2_pad, ctl.l2_inj};
        x4_q <= x3_q;
        y4_q <= y3_q;
        f4_q <= f3_q;
        x5_q <= x4_q;
        y5_q <= y4_q;
        f5_q <= f4_q;
      end
    end

    logic        v5, pass5, pad5, st, both, ge, sub, x_fz, y_fz, one_x, one_y, small_one;
    logic        rounds, tie, q_odd, s_eq_big, s_fnz;
    logic [6:0]  d;
    logic [4:0]  dc;
    logic [5:0]  gpos;
    logic [45:0] sum, mask, rem, half;
    always_comb begin
      v5    = live_q && en_i && (ctl.l5_twe != 8'd0);
      pass5 = f5_q[2];
      pad5  = f5_q[1];
      st    = v5 && !f5_q[0] && !pass5;  // add12(t, p): the pending quad is read
      sx    = x5_q;
      if (pass5) begin
        sx      = '0;
        sx.zero = 1'b1;
      end
      sy    = y5_q;
      s     = s5;
      x_fz  = !sx.zero && !sx.inf;
      y_fz  = !sy.zero && !sy.inf;
      both  = st && x_fz && y_fz;
      one_x = (sx.e == 7'd64) && (sx.sig == 22'h20_0000) && x_fz;
      one_y = (sy.e == 7'd64) && (sy.sig == 22'h20_0000) && y_fz;
      // exact x + y against add12's grid 2^(e - 11), e the larger exponent: the smaller operand
      // aligned by d (capped at 23: beyond that it lies below the grid's half whatever d is)
      ge    = {sx.e, sx.sig} >= {sy.e, sy.sig};
      big   = ge ? sx : sy;
      sml   = ge ? sy : sx;
      small_one = ge ? one_y : one_x;
      sub   = sx.sign != sy.sign;
      d     = big.e - sml.e;
      dc    = (d > 7'd23) ? 5'd23 : d[4:0];
      sum   = sub ? ((46'(big.sig) << dc) - 46'(sml.sig)) : ((46'(big.sig) << dc) + 46'(sml.sig));
      gpos  = {1'b0, dc} + 6'd10;
      mask  = (46'd1 << gpos) - 46'd1;
      rem   = sum & mask;
      half  = 46'd1 << (gpos - 6'd1);
      rounds = rem != 46'd0;
      tie    = rem == half;
      q_odd  = sum[gpos];
      s_fnz    = !s.zero && !s.inf;
      s_eq_big = s_fnz && (s.sign == big.sign) && (s.e == big.e) && (s.sig == big.sig);
    end

    logic c_a_rounds, c_a_exact, c_a_tie_dn, c_a_tie_up, c_a_drop4096, c_a_drop8192, c_a_keep2048;
    logic c_a_4096p1, c_a_one_after0, c_a_carry, c_a_cancel0, c_a_renorm, c_a_inf_fin, c_a_inf_ninf;
    logic c_a_zero_rnd, c_a_align22, c_a_align24, c_pad_rnd, c_pad_exact, c_pad_part, c_a_onto_tie;
    logic c_q_big, c_q_excur, c_q_inf;
    always_comb begin
      c_a_rounds     = both && rounds;
      c_a_exact      = both && !pad5 && !rounds;
      c_a_tie_dn     = both && tie && !q_odd;
      c_a_tie_up     = both && tie && q_odd;
      c_a_drop4096   = both && small_one && (big.e == 7'd76) && s_eq_big;
      c_a_drop8192   = both && small_one && (big.e >= 7'd77) && (big.e <= 7'd79) && s_eq_big;
      c_a_keep2048   = both && small_one && (big.e == 7'd75) && !rounds;
      c_a_4096p1     = both && !sx.sign && (sx.e == 7'd76) && (sx.sig == 22'h20_0000) &&
                       one_y && !sy.sign;
      c_a_one_after0 = st && sx.zero && one_y;
      c_a_carry      = both && !sub && s_fnz && (s.e > big.e);
      c_a_cancel0    = both && s.zero;
      c_a_renorm     = both && sub && s_fnz && (({1'b0, s.e} + 8'd2) <= {1'b0, big.e});
      c_a_inf_fin    = st && (sx.inf != sy.inf);
      c_a_inf_ninf   = st && sx.inf && sy.inf && (sx.sign != sy.sign);
      c_a_zero_rnd   = st && sx.zero && y_fz && (sy.sig[9:0] != 10'd0);
      c_a_align22    = both && (d >= 7'd22);
      c_a_align24    = both && (d >= 7'd24);
      c_pad_rnd      = v5 && !f5_q[0] && pass5 && pad5 && y_fz && (sy.sig[9:0] != 10'd0);
      c_pad_exact    = v5 && !f5_q[0] && pass5 && pad5 && y_fz && (sy.sig[9:0] == 10'd0);
      c_pad_part     = st && pad5;
      c_a_onto_tie   = c_a_rounds && s_fnz && s.sig[10] && (s.sig[9:0] == 10'd0) &&
                       (s.e >= 7'd50) && (s.e <= 7'd79);
      c_q_big        = v5 && !f5_q[0] && s_fnz && (s.e >= 7'd80);
      c_q_excur      = st && x_fz && (sx.e >= 7'd79) && !s.inf && (s.zero || (s.e < 7'd79));
      c_q_inf        = v5 && !f5_q[0] && s.inf;
    end

    always_ff @(posedge clk_i) begin
      // N-2.4 the quad stage (add12, m1)
      N2_4_add12_rounds_m1:                 cover (c_a_rounds);
      N2_4_add12_exact_m1:                  cover (c_a_exact);
      N2_4_add12_tie_to_even_down_m1:       cover (c_a_tie_dn);
      N2_4_add12_tie_to_even_up_m1:         cover (c_a_tie_up);
      N2_4_add12_one_dropped_next_to_4096_m1: cover (c_a_drop4096);
      N2_4_add12_one_dropped_from_8192_m1:  cover (c_a_drop8192);
      N2_4_add12_one_kept_below_4096_m1:    cover (c_a_keep2048);
      N2_4_add12_4096_plus_1_is_4096_m1:    cover (c_a_4096p1);
      N2_4_add12_one_after_cancelled_pair_m1: cover (c_a_one_after0);
      N2_4_add12_carry_into_next_binade_m1: cover (c_a_carry);
      N2_4_add12_cancel_to_zero_m1:         cover (c_a_cancel0);
      N2_4_add12_cancel_renormalize_m1:     cover (c_a_renorm);
      N2_4_add12_inf_plus_finite_m1:        cover (c_a_inf_fin);
      N2_4_add12_inf_minus_inf_zero_m1:     cover (c_a_inf_ninf);
      N2_4_add12_zero_partial_rounds_product_m1: cover (c_a_zero_rnd);
      N2_4_add12_align_shift_ge_22_m1:      cover (c_a_align22);
      N2_4_add12_align_beyond_window_m1:    cover (c_a_align24);
      N2_4_pad_lone_product_rounds_m1:      cover (c_pad_rnd);
      N2_4_pad_lone_product_exact_m1:       cover (c_pad_exact);
      N2_4_pad_partial_quad_m1:             cover (c_pad_part);
      N2_4_add12_rounds_onto_fp16_tie_m1:   cover (c_a_onto_tie);
      N2_4_quad_beyond_fp16_range_m1:       cover (c_q_big);
      N2_4_quad_inf_m1:                     cover (c_q_inf);
      N2_6_quad_excursion_over_32768_returns_m1: cover (c_q_excur);
      // N-2.5 the accumulate
      N2_5_cancel_to_zero_m1:               cover (c_cancel0);
      N2_5_exp_diff_ge_25_quad_below_m1:    cover (c_dt_ge25);
      N2_5_exp_diff_ge_25_acc_below_m1:     cover (c_da_ge25);
      N2_5_exp_diff_2_to_24_m1:             cover (c_d_mid);
      N2_5_near_subtract_m1:                cover (c_near);
      N2_5_carry_out_m1:                    cover (c_carry);
      N2_5_cancel_renormalize_m1:           cover (c_renorm);
      N2_5_acc_rounds_m1:                   cover (c_rounds);
      N2_5_acc_rounds_tie_m1:               cover (c_tie);
      N2_5_one_added_exactly_above_2048_m1: cover (c_ones);
      N1_1_acc_nan_acts_as_pinf_m1:         cover (c_acc_nan);
      N1_2_acc_neg_zero_m1:                 cover (c_acc_nzero);
      N2_5_acc_denormal_m1:                 cover (c_acc_den);
      N2_5_inf_acc_plus_finite_m1:          cover (c_inf_fin);
      N2_5_inf_acc_minus_inf_zero_m1:       cover (c_inf_ninf);
      N2_5_finite_acc_plus_inf_quad_m1:     cover (c_fin_inf);
      N2_5_reduction_starts_from_zero_m1:   cover (c_start0);
      N2_5_continues_nonzero_acc_m1:        cover (c_cont);
      N2_5_zero_quad_passes_acc_m1:         cover (c_tzero);
      N2_3_acc_holds_value_below_2m14_m1:   cover (c_lt_2m14);
      N2_3_acc_holds_value_below_2m24_m1:   cover (c_lt_2m24);
      N2_7_cancel_of_negative_acc_is_pos_zero_m1: cover (c_cancel0_neg);
      // N-2.6 the port ceiling, in the accumulate
      N2_6_ceiling_sum_exactly_32768_m1:    cover (c_ceil_at);
      N2_6_ceiling_sum_32760_to_32768_m1:   cover (c_ceil_tie);
      N2_6_ceiling_sum_above_32768_m1:      cover (c_ceil_above);
      N2_6_ceiling_sum_just_below_passes_m1: cover (c_ceil_below);
      N2_6_ceiling_crossed_from_below_m1:   cover (c_ceil_cross);
      N2_6_ceiling_negative_m1:             cover (c_ceil_neg);
      N2_6_ceiling_loaded_acc_zero_quad_m1: cover (c_ceil_loaded);
      N2_6_no_ceiling_k1_over_32760_m1:     cover (c_noceil_k1);
      N2_6_tripped_inf_survives_cancel_m1:  cover (c_tripped);
      // N-2.8 integer accumulate, N-2.9 compare
      N2_8_int32_saturates_max_m1:          cover (c_int_max);
      N2_8_int32_saturates_min_m1:          cover (c_int_min);
      N2_8_int_high_byte_steps_m1:          cover (c_int_step);
      N2_8_int_saturated_flag_stays_m1:     cover (c_int_sticky);
      N2_8_int_near_end_no_saturation_m1:   cover (c_int_short);
      N2_9_cmp_takes_data_m1:               cover (c_cmp_take);
      N2_9_cmp_keeps_acc_m1:                cover (c_cmp_keep);
      N2_9_cmp_first_value_m1:              cover (c_cmp_first);
      N2_9_cmp_nan_acc_acts_as_pinf_m1:     cover (c_cmp_nan);
      N2_9_cmp_result_over_32760_m1:        cover (c_cmp_big);
      N2_9_cmp_result_negative_m1:          cover (c_cmp_neg);
      // the result port (out_acc_o)
      N2_8_port_saturated_m1:               cover (c_p_sat);
      N2_8_port_int32_max_m1:               cover (c_p_max);
      N2_8_port_int32_min_m1:               cover (c_p_min);
    end

    if (Fp16Port) begin : g_fp16
      always_ff @(posedge clk_i) begin
        N2_6_port_32752_passes_m1:          cover (c_p_32752);
        N2_6_port_inf_with_ceiling_m1:      cover (c_p_inf_ceil);
        N2_6_port_neg_inf_m1:               cover (c_p_ninf);
        N2_6_port_k1_above_32768_m1:        cover (c_p_k1_big);
        N2_6_port_k1_overflow_to_inf_m1:    cover (c_p_k1_ovf);
        N2_6_port_max_finite_65504_m1:      cover (c_p_65504);
        N2_6_port_tie_to_even_m1:           cover (c_p_tie);
        N2_6_port_above_tie_rounds_up_m1:   cover (c_p_above_tie);
        N2_4_port_worked_sum_5117_reads_5116_m1: cover (c_p_5116);
        N2_3_port_denormal_flushed_m1:      cover (c_p_flush);
        N2_3_port_rounds_up_to_2m14_kept_m1: cover (c_p_up_2m14);
        N2_3_port_rounds_to_03ff_flushed_m1: cover (c_p_03ff_flush);
        N2_7_port_negative_acc_reads_pos_zero_m1: cover (c_p_zero_neg);
        N2_7_port_zero_result_m1:           cover (c_p_zero);
        N2_9_port_cmp_above_32768_m1:       cover (c_p_cmp_big);
        N2_9_port_cmp_pinf_m1:              cover (c_p_cmp_pinf);
        N2_9_port_cmp_negative_m1:          cover (c_p_cmp_neg);
      end
    end else begin : g_no_fp16
      logic unused_fp16;
      assign unused_fp16 = ^{c_p_32752, c_p_inf_ceil, c_p_ninf, c_p_k1_big, c_p_k1_ovf, c_p_65504,
                             c_p_tie, c_p_above_tie, c_p_5116, c_p_flush, c_p_up_2m14, c_p_03ff_flush,
                             c_p_zero_neg, c_p_zero, c_p_cmp_big, c_p_cmp_pinf, c_p_cmp_neg};
    end
    logic unused_m1;
    assign unused_m1 = ^{c_p_den, c_p_den_neg, c_p_smallest, c_p_03ff_kept, c_p_under0, big, sml};

  end else begin : g_cov_m5
    // ---- L9: the exact quad is t4 in L4 (ane_mac_acc_exact's t_i), carried to L9
    logic [84:0] t5c_q, t6c_q, t7c_q, t8c_q, t9c_q;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        t5c_q <= g_m5.t4;
        t6c_q <= t5c_q;
        t7c_q <= t6c_q;
        t8c_q <= t7c_q;
        t9c_q <= t8c_q;
      end
    end
    logic [6:0] t9_msb;
    always_comb begin
      t9_msb = 7'd0;
      for (int i = 0; i < 83; i++) if (t9c_q[i]) t9_msb = 7'(i);
      t9_inf  = t9c_q[84];
      t9_zero = !t9c_q[84] && (t9c_q[82:0] == 83'd0);
      t9_sign = t9c_q[83] && !t9_zero;
      t9_dom  = !t9c_q[84] && (t9c_q[82:65] == 18'd0);
      t9_fix  = {t9c_q[64:0], 5'd0};
      t9_exp  = $signed({3'b000, t9_msb}) - 10'sd48;
      t9_one  = !t9c_q[84] && !t9c_q[83] && (t9c_q[82:0] == (83'd1 << 48));
    end

    // ---- L3: the exact quad sum t + p (m5 N-2.4), carried to L5
    logic [84:0] ta, pb, ts;
    logic [6:0]  msb_t, msb_p, msb_s, lsb_s, emax, grid;
    logic        t_fz, p_fz;
    logic [82:0] gmask, gbits, ghalf;
    logic        e3_offgrid, e3_tie, e3_cancel0, e3_inf_ninf, e3_wide, e3_span, e3_tiny;
    always_comb begin
      ta = g_m5.ta3;
      pb = g_m5.pb3;
      ts = g_m5.tsum3;
      msb_t = 7'd0;
      msb_p = 7'd0;
      msb_s = 7'd0;
      lsb_s = 7'd0;
      for (int i = 0; i < 83; i++) begin
        if (ta[i]) msb_t = 7'(i);
        if (pb[i]) msb_p = 7'(i);
        if (ts[i]) msb_s = 7'(i);
      end
      for (int i = 82; i >= 0; i--) if (ts[i]) lsb_s = 7'(i);
      t_fz  = !ta[84] && (ta[82:0] != 83'd0);
      p_fz  = !pb[84] && (pb[82:0] != 83'd0);
      emax  = (msb_t > msb_p) ? msb_t : msb_p;
      grid  = (emax >= 7'd11) ? (emax - 7'd11) : 7'd0;  // add12's grid 2^(e - 11), as a bit index
      gmask = (83'd1 << grid) - 83'd1;
      gbits = ts[82:0] & gmask;
      ghalf = (grid == 7'd0) ? 83'd0 : (83'd1 << (grid - 7'd1));
      e3_offgrid  = t_fz && p_fz && !ts[84] && (gbits != 83'd0);
      e3_tie      = t_fz && p_fz && !ts[84] && (grid != 7'd0) && (gbits == ghalf);
      e3_cancel0  = t_fz && p_fz && (ts == 85'd0);
      e3_inf_ninf = ta[84] && pb[84] && (ta[83] != pb[83]);
      e3_wide     = !ts[84] && (ts[82:80] != 3'd0);                 // |t| >= 2^32
      e3_span     = !ts[84] && (ts[82:0] != 83'd0) && ((msb_s - lsb_s) >= 7'd64);
      e3_tiny     = p_fz && (msb_p < 7'd20);                        // |p| < 2^-28: a denormal operand
    end
    logic [6:0] e4_q, e5_q;
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        e4_q <= {e3_offgrid, e3_tie, e3_cancel0, e3_inf_ninf, e3_wide, e3_span, e3_tiny};
        e5_q <= e4_q;
      end
    end
    logic v5;
    assign v5 = live_q && en_i && (ctl.l5_twe != 8'd0);

    always_ff @(posedge clk_i) begin
      // N-2.4 the quad stage (exact, m5)
      N2_4_quad_exact_keeps_bits_add12_drops_m5: cover (v5 && e5_q[6]);
      N2_4_quad_exact_at_add12_tie_m5:      cover (v5 && e5_q[5]);
      N2_4_quad_cancel_to_zero_m5:          cover (v5 && e5_q[4]);
      N2_4_quad_inf_minus_inf_zero_m5:      cover (v5 && e5_q[3]);
      N2_4_quad_exact_sum_over_2p32_m5:     cover (v5 && e5_q[2]);
      N2_4_quad_exact_sum_spans_64_bits_m5: cover (v5 && e5_q[1]);
      N2_3_quad_denormal_product_kept_m5:   cover (v5 && e5_q[0]);
      // N-2.5 the accumulate
      N2_5_cancel_to_zero_m5:               cover (c_cancel0);
      N2_5_exp_diff_ge_25_quad_below_m5:    cover (c_dt_ge25);
      N2_5_exp_diff_ge_25_acc_below_m5:     cover (c_da_ge25);
      N2_5_exp_diff_ge_61_acc_below_m5:     cover (fpv && both_nz && (d_at <= -11'sd61));
      N2_5_exp_diff_2_to_24_m5:             cover (c_d_mid);
      N2_5_near_subtract_m5:                cover (c_near);
      N2_5_carry_out_m5:                    cover (c_carry);
      N2_5_cancel_renormalize_m5:           cover (c_renorm);
      N2_5_acc_rounds_m5:                   cover (c_rounds);
      N2_5_acc_rounds_tie_m5:               cover (c_tie);
      N2_5_one_added_exactly_above_2048_m5: cover (c_ones);
      N1_1_acc_nan_acts_as_pinf_m5:         cover (c_acc_nan);
      N1_2_acc_neg_zero_m5:                 cover (c_acc_nzero);
      N2_5_acc_denormal_m5:                 cover (c_acc_den);
      N2_5_inf_acc_plus_finite_m5:          cover (c_inf_fin);
      N2_5_inf_acc_minus_inf_zero_m5:       cover (c_inf_ninf);
      N2_5_finite_acc_plus_inf_quad_m5:     cover (c_fin_inf);
      N2_5_reduction_starts_from_zero_m5:   cover (c_start0);
      N2_5_continues_nonzero_acc_m5:        cover (c_cont);
      N2_5_zero_quad_passes_acc_m5:         cover (c_tzero);
      N2_3_acc_holds_value_below_2m14_m5:   cover (c_lt_2m14);
      N2_3_acc_holds_value_below_2m24_m5:   cover (c_lt_2m24);
      N2_7_cancel_of_negative_acc_is_pos_zero_m5: cover (c_cancel0_neg);
      // N-2.6 the port ceiling, in the accumulate
      N2_6_ceiling_sum_exactly_32768_m5:    cover (c_ceil_at);
      N2_6_ceiling_sum_32760_to_32768_m5:   cover (c_ceil_tie);
      N2_6_ceiling_sum_above_32768_m5:      cover (c_ceil_above);
      N2_6_ceiling_sum_just_below_passes_m5: cover (c_ceil_below);
      N2_6_ceiling_crossed_from_below_m5:   cover (c_ceil_cross);
      N2_6_ceiling_negative_m5:             cover (c_ceil_neg);
      N2_6_ceiling_loaded_acc_zero_quad_m5: cover (c_ceil_loaded);
      N2_6_no_ceiling_k1_over_32760_m5:     cover (c_noceil_k1);
      N2_6_tripped_inf_survives_cancel_m5:  cover (c_tripped);
      // N-2.8 integer accumulate, N-2.9 compare
      N2_8_int32_saturates_max_m5:          cover (c_int_max);
      N2_8_int32_saturates_min_m5:          cover (c_int_min);
      N2_8_int_high_byte_steps_m5:          cover (c_int_step);
      N2_8_int_saturated_flag_stays_m5:     cover (c_int_sticky);
      N2_8_int_near_end_no_saturation_m5:   cover (c_int_short);
      N2_9_cmp_takes_data_m5:               cover (c_cmp_take);
      N2_9_cmp_keeps_acc_m5:                cover (c_cmp_keep);
      N2_9_cmp_first_value_m5:              cover (c_cmp_first);
      N2_9_cmp_nan_acc_acts_as_pinf_m5:     cover (c_cmp_nan);
      N2_9_cmp_result_over_32760_m5:        cover (c_cmp_big);
      N2_9_cmp_result_negative_m5:          cover (c_cmp_neg);
      // the result port (out_acc_o)
      N2_8_port_saturated_m5:               cover (c_p_sat);
      N2_8_port_int32_max_m5:               cover (c_p_max);
      N2_8_port_int32_min_m5:               cover (c_p_min);
    end

    if (Fp16Port) begin : g_fp16
      always_ff @(posedge clk_i) begin
        N2_6_port_32752_passes_m5:          cover (c_p_32752);
        N2_6_port_inf_with_ceiling_m5:      cover (c_p_inf_ceil);
        N2_6_port_neg_inf_m5:               cover (c_p_ninf);
        N2_6_port_k1_above_32768_m5:        cover (c_p_k1_big);
        N2_6_port_k1_overflow_to_inf_m5:    cover (c_p_k1_ovf);
        N2_6_port_max_finite_65504_m5:      cover (c_p_65504);
        N2_6_port_tie_to_even_m5:           cover (c_p_tie);
        N2_6_port_above_tie_rounds_up_m5:   cover (c_p_above_tie);
        N2_4_port_worked_sum_5117_reads_5116_m5: cover (c_p_5116);
        N2_3_port_denormal_kept_m5:         cover (c_p_den);
        N2_3_port_negative_denormal_kept_m5: cover (c_p_den_neg);
        N2_3_port_smallest_denormal_m5:     cover (c_p_smallest);
        N2_3_port_03ff_kept_m5:             cover (c_p_03ff_kept);
        N2_3_port_rounds_up_to_2m14_m5:     cover (c_p_up_2m14);
        N2_3_port_underflow_to_zero_m5:     cover (c_p_under0);
        N2_7_port_negative_acc_reads_pos_zero_m5: cover (c_p_zero_neg);
        N2_7_port_zero_result_m5:           cover (c_p_zero);
        N2_9_port_cmp_above_32768_m5:       cover (c_p_cmp_big);
        N2_9_port_cmp_pinf_m5:              cover (c_p_cmp_pinf);
        N2_9_port_cmp_negative_m5:          cover (c_p_cmp_neg);
      end
    end else begin : g_no_fp16
      logic unused_fp16;
      assign unused_fp16 = ^{c_p_32752, c_p_inf_ceil, c_p_ninf, c_p_k1_big, c_p_k1_ovf, c_p_65504,
                             c_p_tie, c_p_above_tie, c_p_5116, c_p_den, c_p_den_neg, c_p_smallest,
                             c_p_03ff_kept, c_p_up_2m14, c_p_under0, c_p_zero_neg, c_p_zero,
                             c_p_cmp_big, c_p_cmp_pinf, c_p_cmp_neg};
    end
    logic unused_m5;
    assign unused_m5 = ^{t_sel, p2, s5, t6, c_p_flush, c_p_03ff_flush};
  end

  logic unused_cov;
  assign unused_cov = ^{ctl, oq, out_fp16_o};

endmodule

bind ane_mac_dp ane_mac_dp_cov #(.Gen(Gen), .Fp16Port(Fp16Port)) u_cov (.*);

`default_nettype wire
// verilator coverage_on
