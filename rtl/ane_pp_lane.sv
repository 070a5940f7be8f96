// SPDX-License-Identifier: Apache-2.0
// ane_pp_lane: one lane of the post-processor (NUMERICS N-3, N-5; docs/postproc.md).
// 31 pipeline stages, all advancing together on en_i (the post-processor's pipeline enable).
// Each fp16 operation (ane_fp16_mul, ane_fp16_add, and the rounding ane_pp_round) runs with
// Pipe = 1, three stages; ane_fp16_ldexp two. Steps and the stage whose register ends them:
//   S1   round    RNE16 / stochastic rounding / int8 requantization / int32 -> fp16  1-3
//   S2   scale    mul(r, scale)                                      (N-3.1)         4-6
//   S3   bias     add(r, bias16)                                     (N-3.1)         7-9
//   S4   act in   N-1 boundary; ReLU; table special inputs, symmetry, pre-multiply
//                 by k (the multiply)                                               10-12
//   S5   argument exp2: n = floor(v), t = v - n; trig: quadrant, t = f or 1 - f;
//                 log / pow: x = 2^e * m (pow: even split); direct: t = x: the
//                 split (13), then the subtraction 1 - f                            13-16
//   S6   segment  t as fixed point (17), t - lo (18), segment i, clamp, m[i] and
//                 c[i] (19); p = mul(m[i], t)                                       17-22
//   S7   segment  T = add(p, c[i]) (or the clamp value, or t)                        23-25
//   S8   post     exp2 / pow: ldexp(T, n); log: add(e, T); trig: sign of the
//                 quadrant                                                          26-28
//   S9   post     log: mul(w, k); odd symmetry; special results; no -0 from a table  29-31
// The per-vector scale and bias arrive aligned with the end of S1 and of S2 (the caller
// registers them). Configuration values derived for S6 (lo as fixed point) sit in a register
// that follows the descriptor: the configuration only changes while nothing is in flight.
`default_nettype none

module ane_pp_lane #(
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic                        clk_i,
  input  wire logic                        en_i,
  input  wire ane_regs_pkg::postproc_ctrl_t ctrl_i,
  input  wire ane_pkg::act_desc_t          desc_i,
  input  wire logic [32*ane_pkg::ActSegments-1:0] seg_i,  // segment i: {c, m} at [32i +: 32]
  input  wire logic [31:0]                 acc_i,     // sampled into S1
  input  wire logic [12:0]                 rand_i,    // this lane's stochastic-rounding draw
  input  wire logic [15:0]                 scale_s1_i,  // the vector's scale, S1-aligned
  input  wire logic [15:0]                 bias_s2_i,   // RNE16 of the vector's bias, S2-aligned
  output      logic [15:0]                 y_o
);

  // fp16 field bounds from ane_pkg (slices: the lanes' code calls no functions, docs/mac_lane.md)
  localparam int unsigned EH = ane_pkg::Fp16ExpMsb, EL = ane_pkg::Fp16ExpLsb, FH = ane_pkg::Fp16ManMsb;

  // (No functions in this module: the lanes of an array share one body of simulation code only
  // if the code of every lane is identical, and Verilator numbers the temporaries of every inlined
  // function call apart.)

  logic [2:0] mode;
  assign mode = desc_i.mode;

  // ---------------- S1 round (stages 1-3) ----------------
  logic [15:0] r1, s1_r;
  ane_pp_round #(.Gen(Gen), .Pipe(1'b1)) u_round (
    .clk_i(clk_i), .en_i(en_i),
    .acc_i(acc_i), .int_acc_i(ctrl_i.int_acc), .shift_i(ctrl_i.shift),
    .store_int8_i(ctrl_i.store_int8), .sr_i(ctrl_i.sr), .sr_width_i(ctrl_i.sr_width),
    .rand_i(rand_i), .r_o(r1));

  // ---------------- S2 scale (stages 4-6) ----------------
  logic [15:0] scaled, s1_d1, s1_d2, s2_r;
  ane_fp16_mul #(.Pipe(1'b1)) u_scale (
    .clk_i(clk_i), .en_i(en_i), .a_i(s1_r), .b_i(scale_s1_i), .y_o(scaled));

  // ---------------- S3 bias (stages 7-9) ----------------
  logic [15:0] biased, s2_d1, s2_d2, s3_r;
  ane_fp16_add #(.Pipe(1'b1)) u_bias (
    .clk_i(clk_i), .en_i(en_i), .a_i(s2_r), .b_i(bias_s2_i), .sub_i(1'b0), .y_o(biased));

  // ---------------- S4 activation input (stages 10-12) ----------------
  logic [15:0] x4, xa4, pre_a, pre_v;
  logic        spec4, flip4;
  logic [15:0] specv4;
  logic        range_mode;
  logic [33:0] side4_d1, side4_d2;  // {spec, specv, flip, xa} of stages 10, 11
  logic        s4_spec, s4_flip;
  logic [15:0] s4_specv, s4_x, s4_v;

  always_comb begin
    // the N-1 boundary: NaN -> +inf, -0 -> +0
    x4 = ((s3_r[EH:EL] == ane_pkg::Fp16ExpMax) && (s3_r[FH:0] != 10'd0)) ? 16'h7C00 : ((s3_r == 16'h8000) ? 16'h0000 : s3_r);
    range_mode = (mode == ane_pkg::ActLog) || (mode == ane_pkg::ActPow);
    spec4  = 1'b1;
    specv4 = s3_r;  // no activation (and every int8 store): the value passes unchanged
    if (ctrl_i.act == ane_pkg::PpActNone) begin
      specv4 = s3_r;
    end else if (ctrl_i.store_int8) begin
      specv4 = (ctrl_i.act == ane_pkg::PpActRelu && s3_r[15]) ? 16'h0000 : s3_r;  // int8 ReLU
    end else if (ctrl_i.act == ane_pkg::PpActRelu) begin
      specv4 = x4[15] ? 16'h0000 : x4;  // max(x, +0), N-3.2
    end else if (x4 == 16'h7C00) begin
      specv4 = desc_i.at_pinf;
    end else if (x4 == 16'hFC00) begin
      specv4 = desc_i.at_ninf;
    end else if (x4 == 16'h0000 && (desc_i.zero_en || range_mode)) begin
      specv4 = desc_i.at_zero;
    end else if (x4[15] && desc_i.neg_en) begin
      specv4 = desc_i.at_neg;
    end else begin
      spec4 = 1'b0;
    end
    flip4 = (desc_i.sym == ane_pkg::ActSymOdd) && x4[15];
    xa4   = (desc_i.sym != ane_pkg::ActSymNone) ? {1'b0, x4[14:0]} : x4;
    pre_a = (mode == ane_pkg::ActTrig) ? {1'b0, xa4[14:0]} : xa4;
  end
  ane_fp16_mul #(.Pipe(1'b1)) u_pre (
    .clk_i(clk_i), .en_i(en_i), .a_i(pre_a), .b_i(desc_i.k), .y_o(pre_v));

  // ---------------- S5 argument (stages 13-16) ----------------
  // Stage 13: split |v| (finite) into its integer part and its fraction (an exact fp16 code)
  // and choose everything but 1 - f.
  logic [15:0]       vmag;
  logic signed [6:0] ve;            // unbiased exponent of |v| (normals; denormals < 1 anyway)
  logic [10:0]       vsig;
  logic [16:0]       vint;
  logic [9:0]        fbits;         // fraction bits, weight 2^(ve - 10)
  logic [3:0]        fmsb;
  logic [15:0]       frac_code, t5, mm;
  logic              om5;           // t is 1 - f
  logic signed [7:0] n5;
  logic              neg5, spec5;
  logic [15:0]       specv5;
  logic signed [6:0] le;            // log / pow exponent
  logic [3:0]        lz;

  always_comb begin
    vmag = {1'b0, s4_v[14:0]};
    vsig = {(s4_v[EH:EL] != 5'd0), s4_v[FH:0]};
    ve   = $signed({2'b00, s4_v[EH:EL]}) - 7'sd15;
    vint  = 17'd0;
    fbits = 10'd0;
    if (s4_v[EH:EL] == 5'd0 || ve < 7'sd0) begin
      vint = 17'd0;                       // |v| < 1: all fraction
    end else if (ve >= 7'sd10) begin
      vint = 17'(vsig) << (ve - 7'sd10);  // |v| >= 1024: an integer
    end else begin
      vint  = {6'd0, vsig >> (7'sd10 - ve)};
      fbits = 10'(vsig & ((11'd1 << (7'sd10 - ve)) - 11'd1));
    end
    fmsb = 4'd0;
    for (int b = 0; b < 10; b++) begin
      if (fbits[b]) fmsb = 4'(b);
    end
    if (s4_v[EH:EL] == 5'd0 || ve < 7'sd0) begin
      frac_code = vmag;
    end else if (fbits == 10'd0) begin
      frac_code = 16'h0000;
    end else begin
      // value fbits * 2^(ve - 10), top bit fmsb: exponent fmsb + ve - 10 (>= -10)
      frac_code = {1'b0, 5'(7'sd5 + $signed({3'd0, fmsb}) + ve),
                   10'(({fbits, 10'd0} >> fmsb))};
    end
  end

  always_comb begin
    t5     = s4_x;
    om5    = 1'b0;
    neg5   = 1'b0;
    spec5  = s4_spec;
    specv5 = s4_specv;
    le     = 7'sd0;
    lz     = 4'd0;
    mm     = 16'h0000;
    // log / pow: x = 2^e * m, m in [1, 2) (x positive, finite, nonzero here)
    for (int b = 0; b < 10; b++) begin
      if (s4_x[b]) lz = 4'(10 - b);
    end
    if (s4_x[EH:EL] != 5'd0) begin
      le = $signed({2'b00, s4_x[EH:EL]}) - 7'sd15;
      mm = {6'b001111, s4_x[FH:0]};
    end else begin
      le = -7'sd14 - $signed({3'd0, lz});
      mm = {6'b001111, 10'(s4_x[FH:0] << lz)};
    end
    case (mode)  // not `unique`: its run-time check names the lane, and the lanes share code
      ane_pkg::ActExp2: begin
        if (!s4_spec && s4_v == 16'h7C00) begin
          spec5 = 1'b1;
          specv5 = 16'h7C00;
        end else if (!s4_spec && s4_v == 16'hFC00) begin
          spec5 = 1'b1;
          specv5 = 16'h0000;
        end
        if (!s4_v[15]) begin
          t5 = frac_code;
        end else begin
          t5  = 16'h0000;
          om5 = (frac_code != 16'd0);
        end
      end
      ane_pkg::ActTrig: begin
        // quadrant q = floor(u) (+1 for cos); t = q odd ? 1 - f : f; q & 2 negates
        t5   = frac_code;
        om5  = vint[0] ^ desc_i.cos_phase;
        neg5 = vint[1] ^ (vint[0] & desc_i.cos_phase);
      end
      ane_pkg::ActLog: begin
        t5 = mm;
      end
      ane_pkg::ActPow: begin
        t5 = mm;
        if (desc_i.pow_split && le[0]) t5 = mm + 16'h0400;  // m * 2
      end
      default: begin
        t5 = s4_x;
      end
    endcase
  end

  // n, from what stage 13 keeps of v and x (stage 14)
  logic [7:0]        nv8;           // vint[7:0]
  logic              nv_gt64, nv_gt63, nv_neg, nf_nz;
  logic signed [6:0] nle;
  always_comb begin
    n5 = 8'sd0;
    case (mode)  // (not `unique`, as above)
      ane_pkg::ActExp2: begin
        if (!nv_neg) n5 = nv_gt64 ? 8'sd64 : 8'(nv8);
        else         n5 = nv_gt63 ? -8'sd64 : -$signed(nv8) - (nf_nz ? 8'sd1 : 8'sd0);
      end
      ane_pkg::ActLog: begin
        n5 = 8'(nle);
      end
      ane_pkg::ActPow: begin
        n5 = 8'(nle);
        if (desc_i.pow_split && nle[0]) n5 = 8'(nle - 7'sd1);
        if (desc_i.pow_split) n5 = n5 >>> 1;
        if (desc_i.pow_negate) n5 = -n5;
      end
      default: ;
    endcase
  end

  // stage 13 registers; stages 14-16: 1 - f, rounded (RNE) as ane_fp16_add would: f is a
  // positive fp16 code below 1.0 (or zero), so 1 - f is exact in fixed point with 24 fraction
  // bits and lies in [2^-11, 1]: always a normal fp16 value.
  logic [13:0]       s5a_frac;      // f's code (bits 15:14 are zero: f < 1)
  logic [15:0]       s5a_t;
  logic              s5a_om;
  logic [18:0]       side5a;                      // {neg, spec, specv, flip}
  logic [26:0]       side5_d1, side5_d2;          // {n, neg, spec, specv, flip}
  logic [15:0]       s5a_t_d1, s5a_t_d2;
  logic              s5a_om_d1, s5a_om_d2;
  // stage 14: D = (1 - f) * 2^24
  logic [23:0]       f_fix;
  logic [24:0]       om_d, s5b_d;
  always_comb begin
    if (s5a_frac[13:10] == 4'd0) f_fix = {14'd0, s5a_frac[9:0]};
    else                         f_fix = 24'({1'b1, s5a_frac[9:0]}) << (s5a_frac[13:10] - 4'd1);
    om_d = 25'h100_0000 - {1'b0, f_fix};
  end
  // stage 15: normalize (D >= 2^13: the top bit p is 13 .. 24, the exponent field p - 9)
  logic [3:0]        om_top;        // 24 - p
  logic [24:0]       om_norm;
  logic [13:0]       om_sig_d, s5c_sig;  // significand [13:3], guard [2], round and sticky
  logic [3:0]        om_exp_d, s5c_exp;  // exponent field - 1 = p - 10, 3 .. 14
  always_comb begin
    om_top = 4'd0;
    for (int b = 13; b < 25; b++) begin
      if (s5b_d[b]) om_top = 4'(24 - b);
    end
    om_norm  = s5b_d << om_top;
    om_sig_d = {om_norm[24:12], |om_norm[11:0]};
    om_exp_d = 4'd14 - om_top;
  end
  // stage 16: round to nearest even and pack
  logic              om_up;
  logic [15:0]       one_minus;
  always_comb begin
    om_up     = s5c_sig[2] && (s5c_sig[1] || s5c_sig[0] || s5c_sig[3]);
    one_minus = {2'b00, s5c_exp, 10'd0} + {5'd0, s5c_sig[13:3]} + {15'd0, om_up};
  end
  logic [15:0]       s5_t;
  logic [26:0]       side5;                       // stage 16: {n, neg, spec, specv, flip}

  // ---------------- S6 segment select and multiply (stages 17-22) ----------------
  // t and lo as signed fixed point in units of 2^-24 (42 bits hold every fp16 magnitude).
  logic [40:0]        t_mag6;         // at most (2^11 - 1) * 2^29 (an inf's code)
  logic [40:0]        lo_mag6, lo_mag_q;
  logic               lo_neg_q;
  logic signed [42:0] lo_fix_q;
  always_comb begin
    if (s5_t[EH:EL] == 5'd0) t_mag6 = {31'd0, s5_t[FH:0]};
    else                     t_mag6 = 41'({1'b1, s5_t[FH:0]}) << (s5_t[EH:EL] - 5'd1);
    if (desc_i.lo[EH:EL] == 5'd0) lo_mag6 = {31'd0, desc_i.lo[FH:0]};
    else                          lo_mag6 = 41'({1'b1, desc_i.lo[FH:0]}) << (desc_i.lo[EH:EL] - 5'd1);
  end
  // lo follows the descriptor (static while anything is in flight) through two registers
  always_ff @(posedge clk_i) begin
    lo_mag_q <= lo_mag6;
    lo_neg_q <= desc_i.lo[15];
    lo_fix_q <= lo_neg_q ? -$signed({2'b00, lo_mag_q}) : $signed({2'b00, lo_mag_q});
  end

  // stage 17: |t| as fixed point; stage 18: d = t - lo
  logic [40:0]        s6a_tmag;
  logic [15:0]        s6a_t, s6b_t, s6c_t;
  logic [26:0]        side6a, side6b, side6c;
  logic signed [42:0] d6, s6b_d;
  always_comb begin
    d6 = (s6a_t[15] ? -$signed({2'b00, s6a_tmag}) : $signed({2'b00, s6a_tmag})) - lo_fix_q;
  end

  // stage 19: the segment, the clamp, m[i] and c[i]
  logic signed [42:0] idx_full;
  logic [4:0]         idx;
  logic [1:0]         sel6;           // 0 segment, 1 left, 2 right, 3 identity
  logic [15:0]        m6, c6;
  logic [5:0]         dshift;
  always_comb begin
    dshift   = 6'($signed(7'sd24) + 7'(desc_i.step_log2));
    idx_full = s6b_d >>> dshift;
    idx      = idx_full[4:0];
    if (s6b_d < 43'sd0)            sel6 = 2'd1;
    else if (idx_full >= 43'sd32)  sel6 = desc_i.right_identity ? 2'd3 : 2'd2;
    else                           sel6 = 2'd0;
  end
  ane_regs_pkg::postproc_seg_t seg6;  // segment idx as its register wrote it
  assign seg6 = seg_i[{idx, 5'd0} +: 32];
  assign m6   = seg6.m;
  assign c6   = seg6.c;
  logic [15:0] s6c_m, s6c_c;
  logic [1:0]  s6c_sel;

  // stages 20-22: p = m[i] * t
  logic [15:0] p6;
  ane_fp16_mul #(.Pipe(1'b1)) u_seg_mul (
    .clk_i(clk_i), .en_i(en_i), .a_i(s6c_m), .b_i(s6c_t), .y_o(p6));
  logic [15:0] s6_c_d1, s6_c_d2, s6_t_d1, s6_t_d2;
  logic [1:0]  s6_sel_d1, s6_sel_d2;
  logic [26:0] side6_d1, side6_d2;
  logic [15:0] s6_p, s6_c, s6_t;
  logic [1:0]  s6_sel;
  logic [26:0] side6;

  // ---------------- S7 segment add (stages 23-25) ----------------
  logic [15:0] sum7, y7;
  ane_fp16_add #(.Pipe(1'b1)) u_seg_add (
    .clk_i(clk_i), .en_i(en_i), .a_i(s6_p), .b_i(s6_c), .sub_i(1'b0), .y_o(sum7));
  logic [15:0] s7_t_d1, s7_t_d2;
  logic [1:0]  s7_sel_d1, s7_sel_d2;
  logic [26:0] side7_d1, side7_d2;
  always_comb begin
    case (s7_sel_d2)  // (not `unique`, as above)
      2'd1:    y7 = desc_i.left;
      2'd2:    y7 = desc_i.right;
      2'd3:    y7 = s7_t_d2;
      default: y7 = sum7;
    endcase
  end
  // n (|n| <= 64) as its exact fp16 code, for the log mode's add in S8
  logic signed [7:0] n7;
  logic [6:0]  n_mag7;
  logic [2:0]  n_msb7;
  logic [15:0] n_fp7;
  always_comb begin
    n7     = side7_d2[26:19];
    n_mag7 = n7[7] ? 7'(-n7) : n7[6:0];
    n_msb7 = 3'd0;
    for (int b = 0; b < 7; b++) begin
      if (n_mag7[b]) n_msb7 = 3'(b);
    end
    n_fp7 = (n_mag7 == 7'd0) ? 16'h0000
                             : {n7[7], 5'(5'd15 + {2'd0, n_msb7}), 10'((17'({n_mag7, 10'd0}) >> n_msb7))};
  end
  logic              unused_nfp;
  assign unused_nfp = ^n_fp7[3:0];
  logic [15:0]       s7_y;
  logic [15:4]       s7_nfp;  // bits 3:0 of |n| <= 64 as fp16 are zero
  logic signed [7:0] s7_n;
  logic [18:0]       side7;   // {neg, spec, specv, flip}

  // ---------------- S8 post (stages 26-28) ----------------
  logic [15:0] ld8, w8, z8;
  ane_fp16_ldexp #(.Pipe(1'b1)) u_ldexp (
    .clk_i(clk_i), .en_i(en_i), .h_i(s7_y), .n_i(s7_n), .y_o(ld8));
  ane_fp16_add #(.Pipe(1'b1)) u_log_add (
    .clk_i(clk_i), .en_i(en_i), .a_i({s7_nfp, 4'd0}), .b_i(s7_y), .sub_i(1'b0), .y_o(w8));
  logic [15:0] ld8_q, s8_y_d1, s8_y_d2;
  logic [18:0] side8_d1, side8_d2;
  logic        neg8;
  assign neg8 = side8_d2[18];
  always_comb begin
    case (mode)  // (not `unique`, as above)
      ane_pkg::ActExp2, ane_pkg::ActPow: z8 = ld8_q;
      ane_pkg::ActLog:                   z8 = w8;
      ane_pkg::ActTrig:                  z8 = (neg8 && s8_y_d2[14:0] != 15'd0) ? {~s8_y_d2[15], s8_y_d2[14:0]} : s8_y_d2;
      default:                           z8 = s8_y_d2;
    endcase
  end
  logic [15:0] s8_z;
  logic [17:0] side8;   // {spec, specv, flip}

  // ---------------- S9 post (stages 29-31) ----------------
  logic [15:0] lk9, z9, y9;
  ane_fp16_mul #(.Pipe(1'b1)) u_log_mul (
    .clk_i(clk_i), .en_i(en_i), .a_i(s8_z), .b_i(desc_i.k), .y_o(lk9));
  logic [15:0] s9_z_d1, s9_z_d2;
  logic [17:0] side9_d1, side9_d2;
  logic        spec9, flip9;
  logic [15:0] specv9;
  assign {spec9, specv9, flip9} = side9_d2;
  always_comb begin
    z9 = (mode == ane_pkg::ActLog) ? lk9 : s9_z_d2;
    if (flip9 && z9[14:0] != 15'd0) z9 = {~z9[15], z9[14:0]};
    if (z9 == 16'h8000) z9 = 16'h0000;  // a table result is never -0
    y9 = spec9 ? specv9 : z9;
  end

  // ---------------- pipeline registers ----------------
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      // S1 (the rounding's own registers hold stages 1-2)
      s1_r <= r1;
      // S2
      s1_d1 <= s1_r;
      s1_d2 <= s1_d1;
      s2_r  <= ctrl_i.scale_en && !ctrl_i.store_int8 ? scaled : s1_d2;
      // S3
      s2_d1 <= s2_r;
      s2_d2 <= s2_d1;
      s3_r  <= ctrl_i.bias_en && !ctrl_i.store_int8 ? biased : s2_d2;
      // S4
      side4_d1 <= {spec4, specv4, flip4, xa4};
      side4_d2 <= side4_d1;
      {s4_spec, s4_specv, s4_flip, s4_x} <= side4_d2;
      s4_v <= pre_v;
      // S5
      s5a_frac  <= frac_code[13:0];
      s5a_t     <= t5;
      s5a_om    <= om5;
      side5a    <= {neg5, spec5, specv5, s4_flip};
      nv8       <= vint[7:0];
      nv_gt64   <= vint > 17'd64;
      nv_gt63   <= vint > 17'd63;
      nv_neg    <= s4_v[15];
      nf_nz     <= frac_code != 16'd0;
      nle       <= le;
      s5b_d     <= om_d;
      s5c_sig   <= om_sig_d;
      s5c_exp   <= om_exp_d;
      s5a_t_d1  <= s5a_t;
      s5a_om_d1 <= s5a_om;
      side5_d1  <= {n5, side5a};
      s5a_t_d2  <= s5a_t_d1;
      s5a_om_d2 <= s5a_om_d1;
      side5_d2  <= side5_d1;
      s5_t      <= s5a_om_d2 ? one_minus : s5a_t_d2;
      side5     <= side5_d2;
      // S6
      s6a_tmag <= t_mag6;
      s6a_t    <= s5_t;
      side6a   <= side5;
      s6b_d    <= d6;
      s6b_t    <= s6a_t;
      side6b   <= side6a;
      s6c_m    <= m6;
      s6c_c    <= c6;
      s6c_sel  <= sel6;
      s6c_t    <= s6b_t;
      side6c   <= side6b;
      s6_c_d1   <= s6c_c;
      s6_t_d1   <= s6c_t;
      s6_sel_d1 <= s6c_sel;
      side6_d1  <= side6c;
      s6_c_d2   <= s6_c_d1;
      s6_t_d2   <= s6_t_d1;
      s6_sel_d2 <= s6_sel_d1;
      side6_d2  <= side6_d1;
      s6_p   <= p6;
      s6_c   <= s6_c_d2;
      s6_t   <= s6_t_d2;
      s6_sel <= s6_sel_d2;
      side6  <= side6_d2;
      // S7
      s7_t_d1   <= s6_t;
      s7_sel_d1 <= s6_sel;
      side7_d1  <= side6;
      s7_t_d2   <= s7_t_d1;
      s7_sel_d2 <= s7_sel_d1;
      side7_d2  <= side7_d1;
      s7_y   <= y7;
      s7_n   <= n7;
      s7_nfp <= n_fp7[15:4];
      side7  <= side7_d2[18:0];
      // S8
      ld8_q    <= ld8;
      s8_y_d1  <= s7_y;
      side8_d1 <= side7;
      s8_y_d2  <= s8_y_d1;
      side8_d2 <= side8_d1;
      s8_z     <= z8;
      side8    <= side8_d2[17:0];
      // S9
      s9_z_d1  <= s8_z;
      side9_d1 <= side8;
      s9_z_d2  <= s9_z_d1;
      side9_d2 <= side9_d1;
      y_o      <= y9;
    end
  end

endmodule
